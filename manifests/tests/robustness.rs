//! `load` must never panic and must stay fast, whatever the input: mutated scenarios,
//! pathological YAML, huge streams.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn corpus() -> Vec<String> {
    let mut out = Vec::new();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for dir in [
        root.join("../../shared/conformance/cases"),
        root.join("tests/fixtures/seeds"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if let Ok(text) = std::fs::read_to_string(&p) {
                out.push(text);
            }
        }
    }
    // A pod template that uses most of PodSpec, so mutations reach the schema walk's parts.
    out.push(include_str!("fixtures/pod-template-full.yaml").to_string());
    assert!(out.len() > 1);
    out
}

const NOISE: &[&str] = &[
    ":", "-", "- ", "[", "]", "{", "}", "'", "\"", "#", "&a ", "*a", "!", "!!int ", "|", ">", "%",
    "@", "\t", " ", "\n", "---\n", "...\n", "0", "-1", "1e999", "0x", "~", "null", "yes",
    "<<: *a\n", "é", "\u{FEFF}", "\r\n", "Never", "Gi",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..=rng.below(3) {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let i = rng.below(lines.len());
        match rng.below(7) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            3 => {
                let l = &mut lines[i];
                if rng.below(2) == 0 {
                    l.insert_str(0, "  ");
                } else {
                    *l = l.trim_start_matches(' ').to_string();
                }
            }
            4 => {
                let l = &mut lines[i];
                let cut = l
                    .char_indices()
                    .map(|(k, _)| k)
                    .nth(rng.below(l.chars().count() + 1))
                    .unwrap_or(l.len());
                l.insert_str(cut, NOISE[rng.below(NOISE.len())]);
            }
            5 => {
                let l = &mut lines[i];
                let cut = l
                    .char_indices()
                    .map(|(k, _)| k)
                    .nth(rng.below(l.chars().count() + 1))
                    .unwrap_or(l.len());
                l.truncate(cut);
            }
            _ => {
                let l = lines[i].clone();
                let replaced = match rng.below(4) {
                    0 => l.replace(|c: char| c.is_ascii_digit(), "9"),
                    1 => l.replace("'", ""),
                    2 => l.replace(": ", ": -"),
                    _ => l.replace('m', "Mi"),
                };
                lines[i] = replaced;
            }
        }
    }
    lines.join("\n")
}

#[test]
fn mutated_scenarios_never_panic() {
    let corpus = corpus();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start = Instant::now();
    // KPG_FUZZ_RUNS raises the count for a longer hunt (e.g. in release mode).
    let total: usize = std::env::var("KPG_FUZZ_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::var("KPG_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15);
    rng.0 = seed.max(1);
    let mut runs = 0;
    while runs < total {
        let base = &corpus[rng.below(corpus.len())];
        let text = mutate(&mut rng, base);
        let loaded = kpg_manifests::load(&text);
        for d in &loaded.diagnostics {
            assert!(d.line >= 1 && d.column >= 1, "{d}");
            let _ = d.to_string();
        }
        let _ = kpg_manifests::document_spans(&text);
        runs += 1;
    }
    let per_run = start.elapsed() / total.max(1) as u32;
    assert!(
        per_run < Duration::from_millis(200),
        "too slow: {per_run:?} per scenario"
    );
}

#[test]
fn pathological_yaml_is_rejected_not_fatal() {
    let deep = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
    let l = kpg_manifests::load(&deep);
    assert!(l.has_errors());

    let deep_map = (0..2_000)
        .map(|i| format!("{}k:\n", " ".repeat(i)))
        .collect::<String>();
    let l = kpg_manifests::load(&deep_map);
    assert!(l.has_errors());

    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..12 {
        let prev = if i == 0 {
            "a".to_string()
        } else {
            format!("b{}", i - 1)
        };
        bomb.push_str(&format!(
            "b{i}: &b{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, \
             *{prev}, *{prev}, *{prev}, *{prev}]\n"
        ));
    }
    let start = Instant::now();
    let l = kpg_manifests::load(&bomb);
    assert!(l.has_errors());
    assert!(start.elapsed() < Duration::from_secs(10));

    for text in [
        "\u{0}",
        "\u{FEFF}",
        "---",
        "...",
        "- - -",
        "? a\n: b",
        "!!binary aGk=",
        "a: !custom {b: 1}",
        "*x",
        "&a a: 1",
        "key: \"\\uD800\"",
    ] {
        let _ = kpg_manifests::load(text);
    }
}

#[test]
fn many_documents_load_in_reasonable_time() {
    let ns =
        |i: usize| format!("apiVersion: v1\nkind: Namespace\nmetadata: {{name: ns-{i}}}\n---\n");
    let text: String = (0..5_000).map(ns).collect();
    let start = Instant::now();
    let l = kpg_manifests::load(&text);
    assert!(!l.has_errors());
    assert_eq!(l.scenario.namespaces.len(), 5_000);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    let empty = "---\n".repeat(200_000);
    assert!(kpg_manifests::load(&empty).diagnostics.is_empty());
}

/// A Deployment whose container's `securityContext` holds `inner` (indented by 10 spaces).
fn with_security_context(inner: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: d}}\n\
         spec:\n  selector: {{matchLabels: {{a: b}}}}\n  template:\
         \n    metadata: {{labels: {{a: b}}}}\n    spec:\n      containers:\n      - name: c\
         \n        securityContext:\n{inner}"
    )
}

#[test]
fn the_schema_walk_survives_deep_and_wide_pod_templates() {
    // Nested maps under an unknown key and under a free map, as deep as the parser allows
    // and deeper: the walk reports the unknown key once and does not descend further.
    for depth in [20, 40, 2_000] {
        let mut inner = String::new();
        for i in 0..depth {
            inner.push_str(&format!("{}k{i}:\n", " ".repeat(10 + 2 * i)));
        }
        let l = kpg_manifests::load(&with_security_context(&inner));
        let unknown = l
            .diagnostics
            .iter()
            .filter(|d| d.code == "unknown-field")
            .count();
        assert!(unknown <= 1, "{:#?}", l.diagnostics);
        if depth == 20 {
            assert_eq!(unknown, 1, "{:#?}", l.diagnostics);
        }
    }
    // Deep lists where the schema expects lists of objects.
    let deep_list = format!("{}{}", "[".repeat(30), "]".repeat(30));
    let text = with_security_context(&format!(
        "          seccompProfile: {{type: RuntimeDefault}}\
         \n          capabilities: {{add: {deep_list}}}\n"
    ));
    let _ = kpg_manifests::load(&text);
    let text = with_security_context("          x: 1\n").replace(
        "      containers:",
        &format!("      volumes: {deep_list}\n      containers:"),
    );
    let _ = kpg_manifests::load(&text);

    // Many unknown keys: one warning each, quickly.
    let wide: String = (0..5_000)
        .map(|i| format!("          typo{i}: true\n"))
        .collect();
    let start = Instant::now();
    let l = kpg_manifests::load(&with_security_context(&wide));
    assert_eq!(
        l.diagnostics
            .iter()
            .filter(|d| d.code == "unknown-field")
            .count(),
        5_000
    );
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

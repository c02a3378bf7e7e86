//! The explanations' words: their Korean keeps to the product's glossary
//! (`kpg_manifests::glossary`), in every Korean sentence written in this crate's source and in
//! what the explanations say in Korean about every pod and node of every lab, instant by
//! instant; their English counts agree with their nouns.

use std::path::Path;

use kpg_core::sim::Simulation;
use kpg_explain::{Lang, Subject, explain};
use kpg_manifests::glossary::{check_source, violations};

#[test]
fn every_korean_sentence_in_the_source_keeps_to_the_glossary() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<_> = std::fs::read_dir(&src)
        .expect("the source")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        failures.extend(check_source(&name, &text));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every line the explanations say in `lang` about every pod, node and NodeClaim of every
/// lab: every 30 seconds of the first ten minutes (pods pending, nodes launching), then at
/// rest. Each with where it was said.
fn every_lab_explained(lang: Lang) -> Vec<(String, String)> {
    let labs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/labs");
    let mut files: Vec<_> = std::fs::read_dir(&labs)
        .expect("the labs")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut said = Vec::new();
    for file in files {
        let lab = file.file_name().unwrap_or_default().to_string_lossy();
        let loaded = kpg_manifests::load(&std::fs::read_to_string(&file).expect("a lab"));
        assert!(!loaded.has_errors(), "{lab}");
        let mut sim = Simulation::new(loaded.scenario).expect("a lab simulates");
        let instants = (1..=20).map(|i| Some(i * 30_000)).chain([None]);
        for at in instants {
            match at {
                Some(t) => sim.run_until(t),
                None => {
                    sim.run_to_rest(48 * 3_600_000);
                }
            }
            let report = sim.report();
            let mut subjects: Vec<Subject> = Vec::new();
            for p in &report.pods {
                subjects.push(Subject::Pod(format!("{}/{}", p.namespace, p.name)));
            }
            for n in &report.nodes {
                subjects.push(Subject::Node(n.name.clone()));
                if let Some(nc) = &n.nodeclaim {
                    subjects.push(Subject::NodeClaim(nc.clone()));
                }
            }
            for subject in subjects {
                let Ok(e) = explain(&sim, &subject, lang) else {
                    continue;
                };
                let texts = std::iter::once(&e.summary).chain(e.sections.iter().flat_map(|s| {
                    std::iter::once(&s.title).chain(s.lines.iter().map(|l| &l.text))
                }));
                for text in texts {
                    said.push((format!("{lab} at {}, {subject:?}", e.time), text.clone()));
                }
            }
        }
    }
    said
}

fn assert_none(failures: &mut Vec<String>) {
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} findings, the first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

#[test]
fn the_labs_explained_in_korean_keep_to_the_glossary() {
    let said = every_lab_explained(Lang::Ko);
    assert!(said.len() > 1000, "only {} lines explained", said.len());
    let mut failures = Vec::new();
    for (at, text) in &said {
        for v in violations(text) {
            failures.push(format!("{at}: {v} in {text:?}"));
        }
    }
    assert_none(&mut failures);
}

/// English counts agree with their nouns: `1 pod`, never `1 pods` (nor `1 instance types`,
/// `1 nodes`, `1 offerings`).
#[test]
fn the_labs_explained_in_english_count_in_the_singular_for_one() {
    let said = every_lab_explained(Lang::En);
    let plurals = [
        "pods",
        "instance types",
        "nodes",
        "offerings",
        "feasible nodes",
    ];
    let mut ones = 0;
    let mut failures = Vec::new();
    for (at, text) in &said {
        for (i, _) in text.match_indices('1') {
            let before = text[..i].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == '/') {
                continue;
            }
            let rest = &text[i + 1..];
            let Some(rest) = rest.strip_prefix(' ') else {
                continue;
            };
            if let Some(p) = plurals.iter().find(|p| rest.starts_with(*p)) {
                failures.push(format!("{at}: \"1 {p}\" in {text:?}"));
            } else if ["pod", "instance type", "node", "offering", "feasible node"]
                .iter()
                .any(|one| rest.starts_with(one))
            {
                ones += 1;
            }
        }
    }
    assert!(
        ones > 0,
        "no count of one in any lab: the test would prove nothing"
    );
    assert_none(&mut failures);
}

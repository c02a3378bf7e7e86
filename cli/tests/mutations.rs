//! User input never panics the engine: thousands of mutated scenarios (truncated, shuffled,
//! retyped, enlarged) go through the reader and the simulation, and only errors come back.

use std::panic::{AssertUnwindSafe, catch_unwind};

const LABS: &[&str] = &[
    include_str!("../../tests/labs/seed000-hello-world.yaml"),
    include_str!("../../tests/labs/seed002-scale-out.yaml"),
    include_str!("../../tests/labs/seed002-service-6gi.yaml"),
    include_str!("../../tests/labs/seed002-limits.yaml"),
    include_str!("../../tests/labs/seed002-scale-in.yaml"),
    include_str!("../../tests/labs/seed003-batch-job.yaml"),
    include_str!("../../tests/labs/seed003-batch-job-fixed.yaml"),
    include_str!("../../tests/labs/v114-capacity-buffer.yaml"),
];

/// Values that are wrong in interesting ways wherever they land.
const REPLACEMENTS: &[&str] = &[
    "[]",
    "{}",
    "-1",
    "0",
    "99999999999999999999",
    "1e308",
    "-1e308",
    "null",
    "~",
    "true",
    "\"\"",
    "\"x\"",
    "NaN",
    ".inf",
    "1Ei",
    "1.5.5",
    "9223372036854775807",
    "0.0000000001m",
    "&a [*a]",
    "!!binary aGk=",
    "'",
    "\"unterminated",
    "{a: [}",
    "- - -",
    "Never",
    "720h",
    "In",
    "Gt",
    "[\"1\", \"2\"]",
    "2147483648",
    "499",
    "1e3",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let edits = 1 + rng.below(4);
    for _ in 0..edits {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(9) {
            // Replace a value with a wrong one.
            0..=2 => {
                if let Some(colon) = lines[i].find(": ") {
                    let v = REPLACEMENTS[rng.below(REPLACEMENTS.len())];
                    lines[i] = format!("{}: {v}", &lines[i][..colon]);
                }
            }
            // Delete, duplicate or swap lines.
            3 => {
                lines.remove(i);
            }
            4 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            5 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            // Break indentation.
            6 => lines[i] = format!("{}{}", " ".repeat(rng.below(5)), lines[i].trim_start()),
            // Enlarge counts (bounded, so the test stays fast).
            7 => {
                if lines[i].trim_start().starts_with("replicas:")
                    || lines[i].trim_start().starts_with("count:")
                {
                    let indent = lines[i].len() - lines[i].trim_start().len();
                    let key = lines[i]
                        .trim_start()
                        .split(':')
                        .next()
                        .unwrap_or("replicas")
                        .to_string();
                    lines[i] = format!(
                        "{}{key}: {}",
                        " ".repeat(indent),
                        [0, 1, 300, 2000][rng.below(4)]
                    );
                }
            }
            // Truncate the whole text at a random character.
            _ => {
                let joined = lines.join("\n");
                let cut = rng.below(joined.len() + 1);
                let cut = (0..=cut)
                    .rev()
                    .find(|c| joined.is_char_boundary(*c))
                    .unwrap_or(0);
                lines = joined[..cut].lines().map(str::to_string).collect();
            }
        }
    }
    // Sometimes shuffle whole documents.
    let mut out = lines.join("\n");
    if rng.below(4) == 0 {
        let mut docs: Vec<&str> = out.split("\n---\n").collect();
        for k in (1..docs.len()).rev() {
            let j = rng.below(k + 1);
            docs.swap(k, j);
        }
        out = docs.join("\n---\n");
    }
    out
}

#[test]
fn thousands_of_mutated_scenarios_only_ever_return_errors() {
    let mut rng = Rng(0x5eed);
    let (mut ok, mut rejected) = (0, 0);
    for round in 0..1_500 {
        let base = LABS[round % LABS.len()];
        let text = mutate(base, &mut rng);
        let result = catch_unwind(AssertUnwindSafe(|| kpg::simulate(&text, Some(10 * 60_000))));
        match result {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(_)) => rejected += 1,
            Err(_) => panic!("round {round}: the engine panicked on this input:\n{text}"),
        }
    }
    // Both paths are exercised: the mutations neither always break nor never break the input.
    assert!(ok > 100 && rejected > 100, "ok {ok}, rejected {rejected}");
}

//! The explanations' Korean keeps to the product's glossary (`kpg_manifests::glossary`): every
//! Korean sentence written in this crate's source, and what the explanations say in Korean
//! about every pod and node of every lab, instant by instant.

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

#[test]
fn the_labs_explained_in_korean_keep_to_the_glossary() {
    let labs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/labs");
    let mut files: Vec<_> = std::fs::read_dir(&labs)
        .expect("the labs")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut failures = Vec::new();
    let mut lines = 0;
    for file in files {
        let lab = file.file_name().unwrap_or_default().to_string_lossy();
        let loaded = kpg_manifests::load(&std::fs::read_to_string(&file).expect("a lab"));
        assert!(!loaded.has_errors(), "{lab}");
        let mut sim = Simulation::new(loaded.scenario).expect("a lab simulates");
        // Every 30 seconds of the first ten minutes (pods pending, nodes launching), then at
        // rest.
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
                let Ok(e) = explain(&sim, &subject, Lang::Ko) else {
                    continue;
                };
                let texts = std::iter::once(&e.summary).chain(e.sections.iter().flat_map(|s| {
                    std::iter::once(&s.title).chain(s.lines.iter().map(|l| &l.text))
                }));
                for text in texts {
                    lines += 1;
                    for v in violations(text) {
                        failures.push(format!("{lab} at {}, {subject:?}: {v} in {text:?}", e.time));
                    }
                }
            }
        }
    }
    assert!(lines > 1000, "only {lines} lines explained");
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} findings, the first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

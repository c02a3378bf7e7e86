//! The reader's Korean keeps to the glossary (`kpg_manifests::glossary`): every code's summary,
//! every origin's words, every Korean string written in the reader's source (each `cx.ko`),
//! and the Korean of the findings a corpus of manifests produces.

use std::path::{Path, PathBuf};

use kpg_manifests::codes::ALL;
use kpg_manifests::glossary::{check_source, violations};
use kpg_manifests::{Origin, load};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn check(what: &str, text: &str, failures: &mut Vec<String>) {
    for v in violations(text) {
        failures.push(format!("{what}: {v} in {text:?}"));
    }
}

#[test]
fn the_codes_and_origins_say_each_concept_one_way() {
    let mut failures = Vec::new();
    for info in ALL {
        check(info.code.as_str(), info.summary_ko, &mut failures);
    }
    for origin in [
        Origin::Yaml,
        Origin::ApiServer,
        Origin::Karpenter,
        Origin::V1beta1,
        Origin::Playground,
    ] {
        check(origin.as_str(), origin.label().1, &mut failures);
        check(origin.as_str(), origin.meaning().1, &mut failures);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_korean_string_in_the_reader_keeps_to_the_glossary() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 10, "{files:?}");
    let mut failures = Vec::new();
    for file in files {
        // The glossary lists the spellings it forbids.
        if file.ends_with("glossary.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("the source");
        let name = file
            .strip_prefix(&src)
            .unwrap_or(&file)
            .display()
            .to_string();
        failures.extend(check_source(&name, &text));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_findings_read_in_korean_keep_to_the_glossary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut corpus: Vec<(String, String)> = Vec::new();
    for dir in [
        "tests/labs",
        "tests/examples/nodepools",
        "tests/examples/workloads",
    ] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("the corpus")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        for f in files {
            corpus.push((
                f.display().to_string(),
                std::fs::read_to_string(&f).expect("a YAML file"),
            ));
        }
    }
    // Findings about zones, instance types and capacity types, which the corpus does not
    // make.
    let broken = [
        "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\nmetadata: {name: c}\n\
         spec:\n  region: us-east-1\n  zones: [us-east-1a, us-east-1a]\n  nodeGroups:\n  \
         - {name: g, instanceType: m9.huge, count: 1, zones: [us-east-1b]}\n",
        "apiVersion: playground.karpenter.dev/v1alpha1\nkind: InstanceType\n\
         metadata: {name: t}\nspec:\n  cpu: '2'\n  memory: 4Gi\n  offerings: []\n",
        "apiVersion: apps/v2\nkind: Deployment\nmetadata: {name: d}\n",
    ];
    for (i, text) in broken.iter().enumerate() {
        corpus.push((format!("broken[{i}]"), text.to_string()));
    }
    let mut failures = Vec::new();
    let mut korean = 0;
    for (name, text) in &corpus {
        for d in load(text).diagnostics {
            if let Some(ko) = &d.ko {
                korean += 1;
                let what = format!("{name}: {}", d.code.as_str());
                check(&what, &ko.message, &mut failures);
                if let Some(help) = &ko.help {
                    check(&what, help, &mut failures);
                }
            }
        }
    }
    assert!(
        korean >= broken.len(),
        "the corpus gave only {korean} Korean findings"
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

//! `kpg migrate` as a user runs it: the seeds' v1beta1 manifests become the playground's
//! hand-written v1 labs byte for byte, validate clean and simulate to the same report.

mod common;
use common::{kpg, kpg_stdin, lab, stderr, stdout};

/// A v1 lab as the seed articles wrote it in v1beta1: the same objects with v1beta1's
/// spellings (what the articles' authors applied to their clusters).
fn as_v1beta1(v1: &str) -> String {
    let mut out = String::new();
    let mut lines = v1.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let pad = &line[..line.len() - t.len()];
        if t.starts_with('#') {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if t == "group: karpenter.k8s.aws" || t == "kind: EC2NodeClass" && pad.len() > 4 {
            continue;
        }
        if t == "amiSelectorTerms:" && lines.peek().is_some_and(|n| n.trim() == "- alias: al2023@latest") {
            lines.next();
            out.push_str(&format!("{pad}amiFamily: AL2023\n"));
            continue;
        }
        let line = line
            .replace("apiVersion: karpenter.sh/v1", "apiVersion: karpenter.sh/v1beta1")
            .replace("apiVersion: karpenter.k8s.aws/v1", "apiVersion: karpenter.k8s.aws/v1beta1")
            .replace("WhenEmptyOrUnderutilized", "WhenUnderutilized");
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn lab_text(name: &str) -> String {
    std::fs::read_to_string(lab(name)).expect("lab exists")
}

#[test]
fn the_seed_labs_written_in_v1beta1_migrate_to_the_hand_written_v1_byte_for_byte() {
    for name in ["seed000-hello-world.yaml", "seed003-batch-job.yaml", "seed003-batch-job-fixed.yaml"] {
        let v1 = lab_text(name);
        let old = as_v1beta1(&v1);
        assert_ne!(old, v1, "{name} has v1beta1 spellings to migrate");
        let out = kpg_stdin(&["migrate", "-"], old.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(stdout(&out), v1, "{name}: the migration is the hand-written v1");
        let notes = stderr(&out);
        assert!(notes.lines().all(|l| l.starts_with("<stdin>:") && l.contains(": migrated ")), "{notes}");
        assert!(notes.contains("WhenUnderutilized → WhenEmptyOrUnderutilized"), "{notes}");
    }
}

#[test]
fn the_v1beta1_manifests_warn_and_the_migrated_ones_validate_clean_and_simulate_the_same() {
    let v1 = lab_text("seed000-hello-world.yaml");
    let old = as_v1beta1(&v1);
    let before = kpg_stdin(&["validate", "-"], old.as_bytes());
    assert_eq!(before.status.code(), Some(0), "v1beta1 still loads, with its v1 meaning");
    assert!(stdout(&before).contains("v1beta1"), "each difference is a warning: {}", stdout(&before));
    let migrated = stdout(&kpg_stdin(&["migrate", "-"], old.as_bytes()));
    let after = kpg_stdin(&["validate", "-"], migrated.as_bytes());
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(stdout(&after).trim(), "0 errors, 0 warnings", "clean");
    let a = stdout(&kpg_stdin(&["simulate", "-", "--output", "json"], old.as_bytes()));
    let b = stdout(&kpg_stdin(&["simulate", "-", "--output", "json"], migrated.as_bytes()));
    assert_eq!(a, b, "the same cluster either way");
}

#[test]
fn the_v1beta1_lab_migrates_to_the_hello_world_lab_and_warns_at_each_difference() {
    let old = lab_text("seed000-v1beta1.yaml");
    let out = kpg(&["validate", lab("seed000-v1beta1.yaml").to_str().unwrap()]);
    let findings = stdout(&out);
    for code in ["v1beta1-api", "v1beta1-ami-family", "v1beta1-node-class-ref", "v1beta1-consolidation-policy", "v1beta1-consolidate-after"] {
        assert!(findings.contains(&format!(": warning {code}: ")), "{code} in\n{findings}");
    }
    let migrated = stdout(&kpg_stdin(&["migrate", "-"], old.as_bytes()));
    let body = |t: &str| t.lines().skip_while(|l| l.starts_with('#')).collect::<Vec<_>>().join("\n");
    // The article's comment on amiFamily stays, above the alias that replaces it.
    let v1 = lab_text("seed000-hello-world.yaml").replace("spec:\n  amiSelectorTerms:", "spec:\n  # Amazon Linux 2023 AMI\n  amiSelectorTerms:");
    assert_eq!(body(&migrated), body(&v1));
}

#[test]
fn the_seed003_v1beta1_lab_migrates_to_the_batch_job_lab() {
    let migrated = stdout(&kpg_stdin(&["migrate", "-"], lab_text("seed003-v1beta1.yaml").as_bytes()));
    let body = |t: &str| t.lines().skip_while(|l| l.starts_with('#')).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&migrated), body(&lab_text("seed003-batch-job.yaml")));
}

#[test]
fn a_file_without_v1beta1_is_printed_unchanged() {
    let path = lab("seed002-limits.yaml");
    let out = kpg(&["migrate", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), lab_text("seed002-limits.yaml"));
    assert!(stderr(&out).contains("nothing to migrate"), "{}", stderr(&out));
}

#[test]
fn what_needs_a_person_is_said_with_its_line() {
    let text = "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: p\nspec:\n  template:\n    spec:\n      nodeClassRef:\n        name: elsewhere\n      kubelet:\n        maxPods: 30\n  disruption:\n    consolidationPolicy: WhenEmpty\n    consolidateAfter: 1m\n";
    let out = kpg_stdin(&["migrate", "-"], text.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("<stdin>:10: needs a person NodePool/p: the kubelet block moved to the EC2NodeClass"), "{}", stderr(&out));
    assert!(!stdout(&out).contains("kubelet"), "the block leaves the NodePool: {}", stdout(&out));
}

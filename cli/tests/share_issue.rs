//! `kpg share --issue`: the block for an upstream Karpenter issue, through the real binary.
//! It names the version, tells what decided the outcome, keeps no identifying value of the
//! input, holds a scenario that simulates as the original did, links to exactly that
//! scenario, is the same bytes every time, and fits a GitHub comment.

mod common;

use std::fs;

use common::*;
use serde_json::Value;

/// The `acme` scenario: an account, a role, subnets, a security group, an AMI, a KMS key, a
/// cluster name, tags, a private image and a secret, as a user would write them.
fn acme() -> String {
    workspace()
        .join("tests/issue/acme.yaml")
        .to_str()
        .expect("UTF-8 path")
        .to_string()
}

/// `kpg share FILE --issue ARGS`: the block (the command must succeed).
fn issue(file: &str, extra: &[&str]) -> String {
    let mut args = vec!["share", file, "--issue"];
    args.extend_from_slice(extra);
    let out = kpg(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "kpg {args:?} failed: {}",
        stderr(&out)
    );
    stdout(&out)
}

/// The redacted scenario inside the block's ```yaml fence.
fn scenario_of(block: &str) -> String {
    let start = block
        .find("```yaml\n")
        .expect("the block holds the scenario")
        + 8;
    let end = start + block[start..].find("\n```").expect("the fence closes") + 1;
    block[start..end].to_string()
}

/// The link the block opens the scenario with.
fn link_of(block: &str) -> String {
    let start = block.find("](http").expect("the block links the scenario") + 2;
    let end = start + block[start..].find(')').expect("the link ends");
    block[start..end].to_string()
}

/// What a reader of the outcome compares: nodes by NodePool, instance type and capacity
/// type, the pods running and pending with the reasons, and the cost per hour.
fn outcome(report: &Value) -> Value {
    let mut nodes: Vec<String> = nodes(report)
        .iter()
        .map(|n| {
            format!(
                "{} {} {}",
                str_of(n, "nodepool").unwrap_or("-"),
                str_of(n, "instanceType").unwrap_or("-"),
                str_of(n, "capacityType").unwrap_or("-")
            )
        })
        .collect();
    nodes.sort();
    let mut pending: Vec<String> = pods(report)
        .iter()
        .filter(|p| str_of(p, "phase") == Some("Pending"))
        .map(|p| str_of(p, "message").unwrap_or("").to_string())
        .collect();
    pending.sort();
    serde_json::json!({
        "nodes": nodes,
        "running": pods(report).iter().filter(|p| str_of(p, "phase") == Some("Running")).count(),
        "pending": pending,
        "costPerHour": report["costPerHour"],
    })
}

#[test]
fn the_block_names_the_version_and_the_events_that_decided() {
    let block = issue(&acme(), &["--at", "5m"]);
    assert!(
        block.contains(
            "Karpenter **v1.10** (the scenario's `Cluster.spec.karpenter.version`), at **5m0s**"
        ),
        "the version the scenario names (written `1.10`, a YAML number) and the instant:\n{block}"
    );
    assert!(
        block.contains(&format!(
            "Karpenter Playground (`kpg`) {}",
            env!("CARGO_PKG_VERSION")
        )),
        "kpg's own version"
    );
    // What happened: the limit left a pod pending, the scale-in was consolidated away.
    for event in [
        "FailedScheduling           Pod/default/checkout-",
        "all available instance types exceed limits for nodepool (NodePool=general)",
        "Launched                   NodeClaim/general-",
        "disrupting nodeclaim(s) via delete (Underutilized), terminating 1 nodes (1 pods)",
    ] {
        assert!(block.contains(event), "{event:?} is in the block:\n{block}");
    }
    assert!(
        block.contains("1 node (general 1), 1 pod running, 0 pending, $0.0960/hour"),
        "the figures at the instant:\n{block}"
    );
    // A scenario that names no version says it runs the playground's default.
    let limits = issue(
        lab("seed002-limits.yaml").to_str().unwrap(),
        &["--at", "3m"],
    );
    assert!(
        limits.contains(&format!(
            "Karpenter **{}** (the playground's default",
            kpg_core::karpenter::Version::LATEST
        )),
        "{limits}"
    );
    assert!(
        limits.contains("| Deployment/busybox | 2 | Failed to schedule pod"),
        "the pods pending and why: {limits}"
    );
}

#[test]
fn no_identifying_value_of_the_input_is_in_the_block() {
    let block = issue(&acme(), &["--at", "5m"]);
    for secret in [
        "123456789012",
        "arn:aws",
        "acme-prod-eks",
        "KarpenterNodeRole",
        "subnet-0f1e2d3c4b5a69788",
        "subnet-0123456789abcdef0",
        "sg-0badc0ffee1234567",
        "ami-0a1b2c3d4e5f60718",
        "payments-platform",
        "cc-98765",
        "sk_live_acme_secret_value",
        "whsec_acme_webhook_signing_key",
        "STRIPE_KEY",
        "ACME1234",
        "dkr.ecr",
        "last-applied-configuration",
    ] {
        assert!(
            !block.contains(secret),
            "{secret:?} must not be in the block:\n{block}"
        );
    }
    // And the link carries none of them either.
    let link = link_of(&block);
    let shared = kpg_share::decode(link.split_once('#').unwrap().1).expect("the link opens");
    let all = shared.docs.concat();
    assert!(!all.contains("123456789012") && !all.contains("subnet-0f1e2d3c4b5a69788"));
    // The block says what it replaced, and how.
    for line in [
        "- `subnet-` ids: 2, as `subnet-00000000000000001`, …",
        "- IAM role names: 1, as `redacted-role-1`",
        "- cluster names: 1, as `cluster-1`",
        "- container env, commands and probes: 1, left out",
    ] {
        assert!(block.contains(line), "{line:?}:\n{block}");
    }
    // A snapshot's node names carry their IPs: they become placeholders too.
    let snapshot = issue(lab("byoc-snapshot.yaml").to_str().unwrap(), &["--at", "4m"]);
    assert!(
        !snapshot.contains("ip-10-0-") && !snapshot.contains("10.0.1."),
        "no node name or IP of the snapshot:\n{snapshot}"
    );
    assert!(snapshot.contains("- node names: 6, as `node-1`, …"));
}

#[test]
fn the_redacted_scenario_loads_and_simulates_to_the_same_outcome() {
    let cases: [(String, &str); 5] = [
        (acme(), "5m"),
        (lab("byoc-snapshot.yaml").to_str().unwrap().into(), "4m"),
        (lab("seed003-batch-job.yaml").to_str().unwrap().into(), "3m"),
        (
            lab("volumes/attach-limits.yaml").to_str().unwrap().into(),
            "2m",
        ),
        (lab("seed002-limits.yaml").to_str().unwrap().into(), "3m"),
    ];
    for (file, at) in cases {
        let block = issue(&file, &["--at", at]);
        assert!(
            block.contains("simulates to the same outcome as the original (checked)"),
            "{file}: the block says it reproduces:\n{block}"
        );
        let redacted = scenario_of(&block);
        let check = kpg_stdin(&["validate", "-"], redacted.as_bytes());
        assert!(
            check.status.success(),
            "{file}: the redacted scenario reads without errors: {}\n{redacted}",
            stderr(&check)
        );
        let original = fs::read_to_string(&file).unwrap();
        assert_eq!(
            outcome(&simulate_json(&redacted, at)),
            outcome(&simulate_json(&original, at)),
            "{file}: the redacted scenario simulates to the same outcome at {at}"
        );
    }
}

#[test]
fn the_link_opens_the_redacted_scenario_at_the_instant() {
    let block = issue(
        &acme(),
        &["--at", "5m", "--base", "https://example.com/kpg"],
    );
    let link = link_of(&block);
    assert!(link.starts_with("https://example.com/kpg/#kpg1."), "{link}");
    let shared = kpg_share::decode(link.split_once('#').unwrap().1).expect("the link opens");
    assert_eq!(shared.at, 300_000, "at the instant reported");
    assert_eq!(
        kpg_share::to_stream(&shared.docs),
        scenario_of(&block),
        "the link opens exactly the scenario the block shows"
    );
    // The same link `kpg share` makes of that scenario.
    let plain = kpg_stdin(
        &[
            "share",
            "-",
            "--base",
            "https://example.com/kpg/",
            "--at",
            "5m",
        ],
        scenario_of(&block).as_bytes(),
    );
    assert_eq!(stdout(&plain).trim(), link);
}

#[test]
fn the_block_is_the_same_bytes_every_time_and_at_rest_by_default() {
    let file = lab("byoc-snapshot.yaml");
    let file = file.to_str().unwrap();
    let first = issue(file, &[]);
    assert_eq!(
        first,
        issue(file, &[]),
        "the same file gives the same block"
    );
    // Without --at, the instant nothing more would change, as `kpg simulate` stops.
    let simulated = stdout(&kpg(&["simulate", file]));
    let time = simulated
        .lines()
        .find_map(|l| l.strip_prefix("Time: "))
        .expect("simulate prints the time");
    assert!(
        first.contains(&format!("at **{time}** of simulated time")),
        "at rest ({time}):\n{}",
        &first[..400.min(first.len())]
    );
}

#[test]
fn a_large_scenario_is_cut_to_fit_a_comment_and_keeps_its_link() {
    // 600 Deployments with long distinct names: the scenario alone is far past 64 KiB.
    let mut text = fs::read_to_string(lab("seed002-limits.yaml")).unwrap();
    for i in 0..600 {
        text.push_str(&format!(
            "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: service-{i:04}-{}\n\
             spec:\n  replicas: 0\n  selector:\n    matchLabels: {{app: s{i}}}\n  template:\n    \
             metadata:\n      labels: {{app: s{i}}}\n    spec:\n      containers:\n      \
             - name: c\n        image: busybox\n        resources: {{requests: {{cpu: 10m}}}}\n",
            (i * 7919 % 100_003).to_string().repeat(6)
        ));
    }
    let out = kpg_stdin(&["share", "-", "--issue", "--at", "3m"], text.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    let block = stdout(&out);
    assert!(
        block.len() <= 65_536,
        "under GitHub's comment limit: {} bytes",
        block.len()
    );
    assert!(
        block.contains("too large for a comment; the link opens all of it"),
        "it says it was cut"
    );
    let shared = kpg_share::decode(link_of(&block).split_once('#').unwrap().1)
        .expect("the link is kept, whole");
    assert_eq!(shared.docs.len(), 605, "the link opens every document");
    assert!(
        block.contains("#### What was redacted"),
        "the list of redactions stays"
    );
}

#[test]
fn issue_refuses_what_it_cannot_report() {
    let out = kpg(&["share", &acme(), "--issue", "--embed"]);
    assert_eq!(out.status.code(), Some(2), "--issue is not an embed");
    let out = kpg(&["share", &acme(), "--issue", "--autoplay"]);
    assert_eq!(out.status.code(), Some(2), "nor takes embed options");
    let broken = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: x}\nspec: 3\n";
    let out = kpg_stdin(&["share", "-", "--issue"], broken.as_bytes());
    assert_eq!(out.status.code(), Some(1), "a scenario with errors");
    assert!(stdout(&out).is_empty(), "gets no block");
    let help = stdout(&kpg(&["help", "share"]));
    assert!(
        help.contains("--issue") && help.contains("redacted"),
        "{help}"
    );
}

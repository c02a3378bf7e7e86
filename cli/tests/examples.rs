//! The official examples, as `tests/examples/` re-expresses them (aws/karpenter-provider-aws
//! `examples/v1` and `examples/workloads` at v1.14.1): every NodePool and EC2NodeClass loads
//! as the API server would take it (most omit `spec.disruption`, which the CRD defaults), the
//! one upstream defect is refused where it is, and the pools run the workloads they are for
//! with no pod left pending.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use common::*;
use kpg_core::disruption::Reason;
use kpg_core::sim::EventKind;
use kpg_core::sim::event::Decision;
use serde_json::Value;

/// The NodePool fixtures that load, and whether their pools allow arm64 nodes.
const POOLS: &[(&str, bool)] = &[
    ("al2023-nodeconfig.yaml", false),
    ("alias-userdata-mime.yaml", false),
    ("bottlerocket-settings.yaml", false),
    ("bottlerocket-volumes.yaml", false),
    ("cpu-limit.yaml", false),
    ("custom-ami-ids.yaml", false),
    ("custom-family-alias.yaml", false),
    ("custom-family-ids.yaml", false),
    ("general-purpose.yaml", false),
    ("instance-store.yaml", false),
    ("large-instances.yaml", true),
    ("min-values-family.yaml", false),
    ("min-values-keys.yaml", false),
    ("multi-arch.yaml", true),
    ("multiple-ebs.yaml", false),
    ("node-lifetime.yaml", false),
    ("spot.yaml", false),
    ("userdata-kubelet-flags.yaml", false),
    ("windows-2019.yaml", false),
    ("windows-2022.yaml", false),
    ("windows-2025.yaml", false),
];

/// The upstream file's defect, kept: `nodeClassRef.group: karpenter.k8s.aws/v1`.
const FAULTY: &str = "windows-userdata-bad-group.yaml";

const WORKLOADS: &[&str] = &[
    "arm64.yaml",
    "disruption-budget.yaml",
    "gpu-amd.yaml",
    "gpu-nvidia.yaml",
    "inflate.yaml",
    "neuron.yaml",
    "prefer-arm.yaml",
    "spot.yaml",
    "spread-hostname-zone.yaml",
    "spread-hostname.yaml",
    "spread-zone.yaml",
];

fn path(dir: &str, name: &str) -> PathBuf {
    workspace().join("tests/examples").join(dir).join(name)
}

fn text(dir: &str, name: &str) -> String {
    let p = path(dir, name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A workload fixture with its Deployment's `replicas` set.
fn scaled(name: &str, replicas: u32) -> String {
    let t = text("workloads", name);
    let at = t.find("kind: Deployment\n").expect("a Deployment");
    let (head, tail) = t.split_at(at);
    let tail = match tail.find("\n  replicas: ") {
        Some(r) => {
            let end = tail[r + 1..].find('\n').map_or(tail.len(), |e| r + 1 + e);
            format!("{}\n  replicas: {replicas}{}", &tail[..r], &tail[end..])
        }
        None => tail.replacen(
            "\nspec:\n",
            &format!("\nspec:\n  replicas: {replicas}\n"),
            1,
        ),
    };
    format!("{head}{tail}")
}

/// The pool fixture followed by `workload`.
fn scenario(pool: &str, workload: &str) -> String {
    format!("{}---\n{workload}", text("nodepools", pool))
}

/// `kpg simulate - --output json` on the pool fixture followed by `workload`.
fn simulate(pool: &str, workload: &str) -> Value {
    let scenario = scenario(pool, workload);
    let out = kpg_stdin(&["simulate", "-", "--output", "json"], scenario.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{pool}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{pool}: no JSON report ({e})\n{}", stdout(&out)))
}

/// Every pod is Running on a node; the message names the pending ones and why.
fn assert_none_pending(r: &Value, what: &str) {
    let pods = pods(r);
    assert!(!pods.is_empty(), "{what}: no pods");
    let waiting: Vec<String> = pods
        .iter()
        .filter(|p| str_of(p, "phase") != Some("Running") || str_of(p, "node").is_none())
        .map(|p| {
            format!(
                "{} {:?}: {:?}",
                str_of(p, "name").unwrap_or("?"),
                str_of(p, "phase"),
                str_of(p, "message")
            )
        })
        .collect();
    assert!(
        waiting.is_empty(),
        "{what}: {} of {} pods wait\n{waiting:#?}\n{}",
        waiting.len(),
        pods.len(),
        summary(r)
    );
}

/// The value of label `key` on the node each pod of `app` runs on.
fn node_label_of_pods<'a>(r: &'a Value, app: &str, key: &str) -> Vec<&'a str> {
    pods_labelled(r, "app", app)
        .into_iter()
        .map(|p| {
            node_of(r, p)["labels"]
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
        })
        .collect()
}

/// Pods of `app` per value of the node label `key`.
fn spread(r: &Value, app: &str, key: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for v in node_label_of_pods(r, app, key) {
        *out.entry(v.to_string()).or_insert(0) += 1;
    }
    out
}

fn skew(counts: &BTreeMap<String, usize>) -> usize {
    counts.values().max().unwrap_or(&0) - counts.values().min().unwrap_or(&0)
}

#[test]
fn every_example_file_is_listed_here() {
    let listed = |dir: &str| -> BTreeSet<String> {
        std::fs::read_dir(workspace().join("tests/examples").join(dir))
            .expect("the fixtures")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect()
    };
    let pools: BTreeSet<String> = POOLS
        .iter()
        .map(|(n, _)| n.to_string())
        .chain([FAULTY.to_string()])
        .collect();
    assert_eq!(listed("nodepools"), pools);
    assert_eq!(
        listed("workloads"),
        WORKLOADS.iter().map(|n| n.to_string()).collect()
    );
}

/// What `kpg validate` says about each pool fixture: nothing (the instance-store pool's
/// `instanceStorePolicy: RAID0` is modelled: its types' NVMe is their ephemeral storage).
#[test]
fn every_nodepool_fixture_validates_without_errors() {
    for (name, _) in POOLS {
        let file = path("nodepools", name);
        let out = kpg(&["validate", file.to_str().expect("UTF-8 path")]);
        let said = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{name}\n{said}");
        let findings: Vec<&str> = said
            .lines()
            .filter(|l| {
                !l.starts_with("  help:") && !l.ends_with(" warnings") && !l.ends_with(" warning")
            })
            .collect();
        let summary_line = said.lines().last().unwrap_or("");
        assert_eq!(summary_line, "0 errors, 0 warnings", "{name}\n{said}");
        assert!(findings.is_empty(), "{name}\n{said}");
    }
}

/// Most pools omit `spec.disruption`; the CRD defaults it to `consolidateAfter: 0s` and
/// `WhenEmptyOrUnderutilized`, so once the Deployment is gone every pool's node is emptied and
/// deleted (Karpenter v1.0.0-v1.0.1 would have kept it: no block there meant no consolidation).
#[test]
fn the_pools_consolidate_an_empty_node_with_the_defaulted_disruption_block() {
    let scale_in = format!(
        "{}---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\n\
         metadata: {{name: scale-in}}\nspec:\n  steps:\n  - {{at: 2m, delete: {{kind: \
         Deployment, name: inflate}}}}\n",
        scaled("inflate.yaml", 3)
    );
    for (name, _) in POOLS {
        let r = simulate(name, &scale_in);
        assert!(
            nodes(&r).is_empty(),
            "{name}: the empty node stays\n{}",
            summary(&r)
        );
        let events = kpg::simulate(&scenario(name, &scale_in), None)
            .expect("the example runs")
            .sim
            .events()
            .to_vec();
        assert!(
            events.iter().any(|e| matches!(
                &e.kind,
                EventKind::Disrupting(d)
                    if (d.decision(), d.reason) == (Decision::Delete, Reason::Empty)
            )),
            "{name}: {events:#?}"
        );
    }
    // The control: the same pool told never to consolidate keeps its node.
    let pool = text("nodepools", "general-purpose.yaml");
    let never = pool.replacen(
        "        name: standard\n---\n",
        "        name: standard\n  disruption:\n    consolidateAfter: Never\n---\n",
        1,
    );
    assert_ne!(never, pool);
    let out = kpg_stdin(
        &["simulate", "-", "--output", "json"],
        format!("{never}---\n{scale_in}").as_bytes(),
    );
    let r: Value = serde_json::from_slice(&out.stdout).expect("a report");
    assert_eq!(nodes(&r).len(), 1, "{}", summary(&r));
}

#[test]
fn the_upstream_group_defect_is_refused_at_its_line() {
    let file = path("nodepools", FAULTY);
    let out = kpg(&["validate", file.to_str().expect("UTF-8 path")]);
    let said = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!(
            "{FAULTY}:32:16: error[invalid-node-class-group]: \
             NodePool/windows-scripted spec.template.spec.nodeClassRef.group: group \
             `karpenter.k8s.aws/v1` must not contain '/'"
        )),
        "{said}"
    );
    assert!(
        said.contains("  help: use `group: karpenter.k8s.aws` (no version)"),
        "{said}"
    );
    assert_eq!(
        said.lines().last(),
        Some("1 error, 0 warnings"),
        "only that: {said}"
    );
    // The same file with the group written as the CRD wants loads clean.
    let fixed = text("nodepools", FAULTY).replace(
        "group: karpenter.k8s.aws/v1\n",
        "group: karpenter.k8s.aws\n",
    );
    let out = kpg_stdin(&["validate", "-"], fixed.as_bytes());
    assert_eq!(stdout(&out).trim(), "0 errors, 0 warnings");
}

#[test]
fn every_workload_fixture_loads_clean() {
    for name in WORKLOADS {
        let out = kpg(&[
            "validate",
            path("workloads", name).to_str().expect("UTF-8 path"),
        ]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert_eq!(stdout(&out).trim(), "0 errors, 0 warnings", "{name}");
    }
}

/// Each pool with an inflate-like Deployment (the pause image, one vCPU each) and a
/// Deployment spread across zones; a pool that allows arm64 with the arm64 Deployment too.
#[test]
fn every_pool_runs_inflate_a_zone_spread_and_arm64_with_nothing_pending() {
    for (name, arm64) in POOLS {
        let r = simulate(name, &scaled("inflate.yaml", 5));
        assert_none_pending(&r, &format!("{name} + inflate"));
        assert_eq!(pods_labelled(&r, "app", "inflate").len(), 5);

        let r = simulate(name, &text("workloads", "spread-zone.yaml"));
        assert_none_pending(&r, &format!("{name} + spread-zone"));
        let zones = spread(&r, "spread-zones", "topology.kubernetes.io/zone");
        assert!(zones.len() >= 2 && skew(&zones) <= 1, "{name}: {zones:?}");

        let r = simulate(name, &text("workloads", "arm64.yaml"));
        if *arm64 {
            assert_none_pending(&r, &format!("{name} + arm64"));
            assert!(
                node_label_of_pods(&r, "arm64", "kubernetes.io/arch")
                    .iter()
                    .all(|a| *a == "arm64"),
                "{}",
                summary(&r)
            );
        } else {
            // amd64-only pools refuse them, with Karpenter's reason.
            let pending = pods(&r);
            assert!(
                pending.iter().all(|p| str_of(p, "phase") == Some("Pending")
                    && str_of(p, "message")
                        .is_some_and(|m| m.contains("kubernetes.io/arch In [arm64]"))),
                "{name}: {}",
                summary(&r)
            );
        }
    }
}

#[test]
fn the_workload_fixtures_run_on_the_pools_they_are_for() {
    // GPUs: the large-instances pool is the example pool that allows GPU types.
    for (workload, app, resource) in [
        ("gpu-nvidia.yaml", "gpu-nvidia", "nvidia.com/gpu"),
        ("gpu-amd.yaml", "gpu-amd", "amd.com/gpu"),
    ] {
        let r = simulate("large-instances.yaml", &text("workloads", workload));
        assert_none_pending(&r, workload);
        for p in pods_labelled(&r, "app", app) {
            assert!(
                node_of(&r, p)["allocatable"].get(resource).is_some(),
                "{workload}: {}",
                summary(&r)
            );
        }
    }
    // Spot pods on the spot pool.
    let r = simulate("spot.yaml", &text("workloads", "spot.yaml"));
    assert_none_pending(&r, "spot");
    assert!(
        pods_labelled(&r, "app", "spot-only")
            .iter()
            .all(|p| str_of(node_of(&r, p), "capacityType") == Some("spot"))
    );
    // The arm64 preference wins when a pool offers arm64.
    let r = simulate("multi-arch.yaml", &text("workloads", "prefer-arm.yaml"));
    assert_none_pending(&r, "prefer-arm");
    assert_eq!(
        node_label_of_pods(&r, "prefer-arm", "kubernetes.io/arch"),
        ["arm64"; 3],
        "{}",
        summary(&r)
    );
    assert!(
        pods_labelled(&r, "app", "prefer-arm")
            .iter()
            .all(|p| str_of(node_of(&r, p), "nodepool") == Some("graviton"))
    );
    // Hostname spreads: at most 2 apart per node (and 5 per zone for the 50).
    let r = simulate(
        "general-purpose.yaml",
        &text("workloads", "spread-hostname.yaml"),
    );
    assert_none_pending(&r, "spread-hostname");
    assert!(
        skew(&spread(&r, "spread-nodes", "kubernetes.io/hostname")) <= 2,
        "{}",
        summary(&r)
    );
    let r = simulate(
        "general-purpose.yaml",
        &text("workloads", "spread-hostname-zone.yaml"),
    );
    assert_none_pending(&r, "spread-hostname-zone");
    assert_eq!(pods_labelled(&r, "app", "spread-both").len(), 50);
    assert!(
        skew(&spread(&r, "spread-both", "kubernetes.io/hostname")) <= 2,
        "{}",
        summary(&r)
    );
    assert!(
        skew(&spread(&r, "spread-both", "topology.kubernetes.io/zone")) <= 5,
        "{}",
        summary(&r)
    );
    // The PDB's ten amd64 replicas, and the inflate fixture as written (one replica).
    let r = simulate(
        "general-purpose.yaml",
        &text("workloads", "disruption-budget.yaml"),
    );
    assert_none_pending(&r, "disruption-budget");
    assert_eq!(pods_labelled(&r, "app", "steady").len(), 10);
    let r = simulate("general-purpose.yaml", &text("workloads", "inflate.yaml"));
    assert_none_pending(&r, "inflate");
    assert_eq!(
        pods_labelled(&r, "app", "inflate").len(),
        1,
        "replicas defaults to 1"
    );
}

/// Inferentia and Trainium types advertise `aws.amazon.com/neuron` (devices) and
/// `aws.amazon.com/neuroncore`, and the large-instances pool allows them (it constrains only
/// CPU and memory): the pods run on Neuron nodes. They are the only types that fit, so the
/// exotic filter, which would drop them, leaves them in.
#[test]
fn neuron_pods_run_on_a_pool_that_allows_inferentia() {
    let r = simulate("large-instances.yaml", &text("workloads", "neuron.yaml"));
    assert_none_pending(&r, "neuron");
    let pods = pods_labelled(&r, "app", "neuron");
    assert_eq!(pods.len(), 2, "{}", summary(&r));
    // Pods per node: each node has a Neuron device for each of its pods.
    let mut per_node: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &pods {
        *per_node
            .entry(str_of(node_of(&r, p), "name").unwrap())
            .or_default() += 1;
    }
    for (name, count) in per_node {
        let node = node_named(&r, name).unwrap();
        let family = str_of(&node["labels"], "karpenter.k8s.aws/instance-family");
        assert!(
            matches!(family, Some("inf1" | "inf2" | "trn1" | "trn1n" | "trn2")),
            "{family:?}: {}",
            summary(&r)
        );
        let devices = str_of(&node["allocatable"], "aws.amazon.com/neuron")
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(0);
        assert!(devices >= count, "{count} pods on {node}");
        assert!(
            node["allocatable"]
                .get("aws.amazon.com/neuroncore")
                .is_some(),
            "{node}"
        );
        assert_eq!(
            node["allocatable"]["aws.amazon.com/neuron"],
            node["capacity"]["aws.amazon.com/neuron"]
        );
        assert_eq!(
            str_of(
                &node["labels"],
                "karpenter.k8s.aws/instance-accelerator-manufacturer"
            ),
            Some("aws"),
            "{node}"
        );
    }
}

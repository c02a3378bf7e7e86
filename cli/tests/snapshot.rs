//! A snapshot of a live cluster is a scenario: `kpg simulate` reads what `kubectl get … -o
//! yaml|json` prints, starts from the cluster as it stands (its nodes, their NodeClaims, the
//! pods bound to them) and shows what Karpenter would do to it. Through the whole pipeline:
//! the `kpg` binary on `tests/snapshots/small.yaml` (written in kubectl's shape by hand: a
//! managed node group's node, two Karpenter nodes with their NodeClaims, a Deployment's
//! ReplicaSet and pods, a DaemonSet, a finished Job pod, a pending pod, a PDB, a Service)
//! and on snapshots from `kpg-snapgen`.

mod common;

use common::*;
use serde_json::Value;

fn small() -> String {
    std::fs::read_to_string(workspace().join("tests/snapshots/small.yaml"))
        .expect("the snapshot fixture")
}

/// `kpg simulate - --output json [--until UNTIL]` on `text`.
fn simulate(text: &str, until: Option<&str>) -> Value {
    let mut args = vec!["simulate", "-", "--output", "json"];
    if let Some(u) = until {
        args.extend(["--until", u]);
    }
    let out = kpg_stdin(&args, text.as_bytes());
    assert!(
        out.status.success(),
        "kpg simulate failed: {}",
        stderr(&out)
    );
    serde_json::from_slice(&out.stdout).expect("the report is JSON")
}

fn events<'a>(report: &'a Value, reason: &str) -> Vec<&'a Value> {
    report["events"]
        .as_array()
        .map(|e| e.iter().filter(|e| e["reason"] == reason).collect())
        .unwrap_or_default()
}

fn pod<'a>(report: &'a Value, name: &str) -> Option<&'a Value> {
    pods(report).into_iter().find(|p| p["name"] == name)
}

#[test]
fn a_snapshot_is_the_cluster_at_time_zero() {
    let r = simulate(&small(), Some("0s"));
    let s = summary(&r);
    let fixed = node_named(&r, "ip-10-0-1-10.ec2.internal").expect(&s);
    assert_eq!(fixed["nodepool"], Value::Null, "{s}");
    assert_eq!(
        fixed["nodeGroup"], "system",
        "a managed node group's node is fixed: {s}"
    );
    assert_eq!(fixed["instanceType"], "m5.large");
    assert_eq!(fixed["pricePerHour"], 0.096, "priced from the catalog");
    assert_eq!(
        fixed["createdAt"], "-265h59m51s",
        "its age when the snapshot was taken"
    );
    let big = node_named(&r, "ip-10-0-2-20.ec2.internal").expect(&s);
    assert_eq!(big["nodepool"], "default");
    assert_eq!(
        big["nodeclaim"], "default-x7k2p",
        "the NodeClaim keeps its own name"
    );
    assert_eq!(big["instanceType"], "m5.xlarge");
    assert_eq!(big["capacityType"], "on-demand");
    assert_eq!(big["zone"], "us-east-1b");
    assert_eq!(big["state"], "Ready");
    assert_eq!(
        big["allocatable"]["cpu"], "3920m",
        "the kubelet's allocatable"
    );
    let spot = node_named(&r, "ip-10-0-3-30.ec2.internal").expect(&s);
    assert_eq!(spot["capacityType"], "spot");
    assert_eq!(nodes(&r).len(), 3, "nothing launched yet: {s}");

    for (name, node) in [
        ("web-6f7d8b9c4-k2x9p", "ip-10-0-2-20.ec2.internal"),
        ("web-6f7d8b9c4-m7q4z", "ip-10-0-2-20.ec2.internal"),
        ("web-6f7d8b9c4-t5w8r", "ip-10-0-3-30.ec2.internal"),
    ] {
        let p = pod(&r, name).unwrap_or_else(|| panic!("{name} is in the report: {s}"));
        assert_eq!(p["node"], node, "a bound pod stays on its node: {s}");
        assert_eq!(p["phase"], "Running");
        assert_eq!(
            p["owner"], "Deployment/web",
            "a ReplicaSet's pod is its Deployment's"
        );
    }
    let web = pods_labelled(&r, "app", "web");
    assert_eq!(
        web.len(),
        3,
        "the Deployment has its 3 replicas, no more: {s}"
    );
    assert_eq!(pod(&r, "batch-runner").expect(&s)["phase"], "Pending");
    assert!(
        pod(&r, "report-29412360-p8c7d").is_none(),
        "a finished pod is ignored: {s}"
    );
    let proxies = pods_labelled(&r, "k8s-app", "kube-proxy");
    assert_eq!(proxies.len(), 3, "one DaemonSet pod per node: {s}");
    let spot_price = spot["pricePerHour"].as_f64().unwrap_or(0.0);
    assert!(
        spot_price > 0.0 && spot_price < 0.096,
        "a spot m5.large costs less than on demand: {spot_price}"
    );
    let cost = r["costPerHour"].as_f64().unwrap_or(0.0);
    assert!(
        (cost - (0.096 + 0.192 + spot_price)).abs() < 1e-9,
        "the cost starts from the cluster's nodes: {cost}"
    );
}

#[test]
fn a_snapshot_at_rest_stays_put() {
    // Consolidation off: Karpenter has nothing to do but launch for the pending pod.
    let text = small().replace("consolidateAfter: 1m", "consolidateAfter: Never");
    let r = simulate(&text, None);
    let s = summary(&r);
    for (name, node) in [
        ("web-6f7d8b9c4-k2x9p", "ip-10-0-2-20.ec2.internal"),
        ("web-6f7d8b9c4-m7q4z", "ip-10-0-2-20.ec2.internal"),
        ("web-6f7d8b9c4-t5w8r", "ip-10-0-3-30.ec2.internal"),
    ] {
        assert_eq!(pod(&r, name).expect(&s)["node"], node, "{s}");
    }
    let created = events(&r, "Created");
    assert_eq!(
        created.len(),
        1,
        "one NodeClaim, for the pending pod; none for the bound ones: {s}"
    );
    assert!(
        events(&r, "Drifted").is_empty(),
        "in sync with its NodePool"
    );
    assert!(events(&r, "Disrupting").is_empty());
    assert_eq!(nodes(&r).len(), 4, "{s}");
    let runner = pod(&r, "batch-runner").expect(&s);
    assert_eq!(runner["phase"], "Running", "{s}");
}

#[test]
fn karpenter_consolidates_a_snapshot_one_node_at_a_time() {
    let r = simulate(&small(), None);
    let s = summary(&r);
    let disrupting = events(&r, "Disrupting");
    assert_eq!(disrupting.len(), 2, "{s}");
    // The NodePool's budget is 10% of 2 nodes: one at a time (rounded up).
    let first = disrupting[0]["message"].as_str().unwrap_or("");
    assert!(
        first.contains("via delete (Underutilized)") && first.contains("ip-10-0-2-20"),
        "the on-demand m5.xlarge goes first, its pods fit elsewhere: {first}"
    );
    // Quiet for a day, it is a candidate at the first poll (0s); the pending pod's NodeClaim
    // (1s) changes the cluster before the 15 s validation, which rejects that command, and
    // the poll after it decides again.
    assert_eq!(
        events(&r, "ConsolidationRejected")
            .first()
            .map(|e| e["time"].clone()),
        Some("0m15s".into()),
        "{s}"
    );
    assert_eq!(disrupting[0]["time"], "0m30s", "{s}");
    let deleted = events(&r, "Deleted");
    let big_gone = deleted
        .iter()
        .find(|e| e["object"] == "NodeClaim/default-x7k2p")
        .expect("the first node is deleted");
    let second = disrupting[1]["message"].as_str().unwrap_or("");
    assert!(second.contains("ip-10-0-3-30"), "{second}");
    assert!(
        duration(&disrupting[1]["time"]) > duration(&big_gone["time"]),
        "the second waits for the budget the first holds until it is gone"
    );
    assert!(
        !events(&r, "FailedDraining").is_empty(),
        "the PDB (minAvailable 2 of 3) lets one web pod go at a time"
    );
    assert!(
        node_named(&r, "ip-10-0-1-10.ec2.internal").is_some(),
        "the node group's node is never Karpenter's to disrupt: {s}"
    );
    for p in pods_labelled(&r, "app", "web") {
        assert_eq!(p["phase"], "Running", "{s}");
    }
}

fn duration(v: &Value) -> u64 {
    kpg_core::duration::parse(v.as_str().unwrap_or("")).unwrap_or(0)
}

/// A generated snapshot as JSON, with `edit` applied to its items.
fn generated(edit: impl Fn(&mut Value)) -> String {
    let p = kpg_snapgen::Params {
        nodes: 24,
        pods: 260,
        drifted_share: 0.1,
        ..kpg_snapgen::Params::default()
    };
    let text = kpg_snapgen::snapshot(&p, kpg_snapgen::Format::Json);
    let mut list: Value = serde_json::from_str(&text).expect("the snapshot is JSON");
    if let Some(items) = list["items"].as_array_mut() {
        for item in items.iter_mut() {
            edit(item);
        }
    }
    serde_json::to_string(&list).expect("JSON")
}

/// The NodeClaims that drift at time zero, by NodePool.
fn drifted_at_zero(report: &Value) -> Vec<(String, String)> {
    let pool_of = |claim: &str| -> String {
        nodes(report)
            .into_iter()
            .find(|n| n["nodeclaim"] == claim)
            .and_then(|n| n["nodepool"].as_str())
            .unwrap_or("?")
            .to_string()
    };
    let mut out: Vec<(String, String)> = events(report, "Drifted")
        .into_iter()
        .filter(|e| e["time"] == "0m0s")
        .map(|e| {
            let claim = e["object"]
                .as_str()
                .unwrap_or("")
                .trim_start_matches("NodeClaim/")
                .to_string();
            (pool_of(&claim), claim)
        })
        .collect();
    out.sort();
    out
}

/// The NodeClaims the generator made with an older NodePool hash.
fn claims_with_an_old_hash(text: &str) -> Vec<String> {
    let list: Value = serde_json::from_str(text).expect("JSON");
    let pools: Vec<(String, String)> = list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|i| i["kind"] == "NodePool")
        .map(|i| {
            (
                i["metadata"]["name"].as_str().unwrap_or("").to_string(),
                i["metadata"]["annotations"]["karpenter.sh/nodepool-hash"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    let mut out: Vec<String> = list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|i| i["kind"] == "NodeClaim")
        .filter(|i| {
            let pool = i["metadata"]["labels"]["karpenter.sh/nodepool"].as_str();
            let hash = i["metadata"]["annotations"]["karpenter.sh/nodepool-hash"].as_str();
            !pools
                .iter()
                .any(|(p, h)| Some(p.as_str()) == pool && Some(h.as_str()) == hash)
        })
        .map(|i| i["metadata"]["name"].as_str().unwrap_or("").to_string())
        .collect();
    out.sort();
    out
}

#[test]
fn only_the_nodeclaims_whose_hash_differs_have_drifted() {
    let text = generated(|_| {});
    let old = claims_with_an_old_hash(&text);
    assert!(
        !old.is_empty(),
        "the generator drifts a share of its NodeClaims"
    );
    let r = simulate(&text, Some("0s"));
    let drifted: Vec<String> = drifted_at_zero(&r).into_iter().map(|(_, c)| c).collect();
    assert_eq!(
        drifted, old,
        "Karpenter's own hashes: in sync unless the NodeClaim launched from another template"
    );
}

#[test]
fn a_nodepool_change_drifts_the_nodes_whose_hash_changes_and_only_those() {
    // The `spot` NodePool's template gains an annotation: its hash changes.
    let text = generated(|item| {
        if item["kind"] == "NodePool" && item["metadata"]["name"] == "spot" {
            item["spec"]["template"]["metadata"]["annotations"] =
                serde_json::json!({"example.com/owner": "team-b"});
        }
    });
    let old = claims_with_an_old_hash(&text);
    let r = simulate(&text, Some("0s"));
    let drifted = drifted_at_zero(&r);
    let spot: Vec<&Value> = nodes_in(&r, Some("spot"));
    assert!(!spot.is_empty());
    for n in &spot {
        let claim = n["nodeclaim"].as_str().unwrap_or("");
        assert!(
            drifted.iter().any(|(_, c)| c == claim),
            "every spot NodeClaim drifts: {claim} not in {drifted:?}"
        );
    }
    for (pool, claim) in &drifted {
        assert!(
            pool == "spot" || old.contains(claim),
            "{claim} of {pool} drifted, though its NodePool did not change"
        );
    }
    let reasons: Vec<&Value> = events(&r, "Drifted");
    assert!(
        reasons.iter().all(|e| e["message"]
            .as_str()
            .unwrap_or("")
            .contains("NodePoolDrifted")),
        "by hash"
    );
}

#[test]
fn a_requirement_change_drifts_only_the_nodes_it_excludes() {
    // The default NodePool no longer allows spot: only its spot node drifts.
    let next = "        - key: karpenter.k8s.aws/instance-category";
    let text = small().replace(
        &format!("          values:\n          - on-demand\n          - spot\n{next}"),
        &format!("          values:\n          - on-demand\n{next}"),
    );
    assert_ne!(text, small());
    let r = simulate(&text, Some("0s"));
    let drifted = events(&r, "Drifted");
    assert_eq!(drifted.len(), 1, "{drifted:?}");
    assert_eq!(drifted[0]["object"], "NodeClaim/default-q9m4t");
    assert!(
        drifted[0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("RequirementsDrifted")
    );
}

#[test]
fn kpg_import_simulates_as_the_snapshot_does_and_leaves_secrets_out() {
    for (name, text, lists) in [
        ("small", small(), false),
        ("generated", generated(|_| {}), false),
        ("generated, in lists", generated(|_| {}), true),
    ] {
        let args: &[&str] = if lists {
            &["import", "-", "--lists"]
        } else {
            &["import", "-"]
        };
        let out = kpg_stdin(args, text.as_bytes());
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let imported = stdout(&out);
        assert!(
            imported.len() * 3 < text.len(),
            "{name}: the minimal scenario is small ({} of {} bytes)",
            imported.len(),
            text.len()
        );
        for secret in [
            "hunter2",
            "DATABASE_PASSWORD",
            "env:",
            "registry.example.com",
            "managedFields",
            "last-applied-configuration",
            "kube-api-access",
            "command:",
        ] {
            assert!(
                !imported.contains(secret),
                "{name}: `{secret}` is left out of the import"
            );
        }
        assert!(
            !imported.lines().any(|l| {
                let l = l.trim_start().trim_start_matches("- ");
                l.starts_with("image:")
            }),
            "{name}: no container image without --keep-images"
        );
        let documents = imported.matches("\n---\n").count() + 1;
        let lists_written = imported.matches("\nkind: List\n").count();
        if lists {
            // The Cluster, 2 classes, 3 pools, the nodes and 12 namespaces.
            assert_eq!((documents, lists_written), (19, 13), "{name}");
        } else {
            assert!(documents > 10 && lists_written == 0, "{name}: {documents}");
        }
        let a = kpg_stdin(&["simulate", "-", "--output", "json"], text.as_bytes());
        let b = kpg_stdin(&["simulate", "-", "--output", "json"], imported.as_bytes());
        assert!(a.status.success() && b.status.success());
        assert!(
            a.stdout == b.stdout,
            "{name}: the import simulates byte for byte as the snapshot"
        );
    }
    let out = kpg_stdin(&["import", "-", "--keep-images"], small().as_bytes());
    assert!(stdout(&out).contains("image: registry.example.com/web:1.4.2"));
}

#[test]
fn a_node_annotated_do_not_disrupt_in_the_snapshot_is_left_alone() {
    let text = small().replace(
        "      alpha.kubernetes.io/provided-node-ip: 10.0.2.20\n",
        "      alpha.kubernetes.io/provided-node-ip: 10.0.2.20\n      \
         karpenter.sh/do-not-disrupt: \"true\"\n",
    );
    assert_ne!(text, small());
    let r = simulate(&text, None);
    let s = summary(&r);
    assert!(
        node_named(&r, "ip-10-0-2-20.ec2.internal").is_some(),
        "the annotated node stays: {s}"
    );
    assert!(
        events(&r, "Disrupting")
            .iter()
            .all(|e| !e["message"].as_str().unwrap_or("").contains("ip-10-0-2-20")),
        "{s}"
    );
}

#[test]
fn compare_names_a_snapshots_drifted_node_and_fails_on_drift() {
    let next = "        - key: karpenter.k8s.aws/instance-category";
    let changed = small().replace(
        &format!("          values:\n          - on-demand\n          - spot\n{next}"),
        &format!("          values:\n          - on-demand\n{next}"),
    );
    let dir = std::env::temp_dir().join(format!("kpg-snapshot-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let (a, b) = (dir.join("base.yaml"), dir.join("changed.yaml"));
    std::fs::write(&a, small()).expect("written");
    std::fs::write(&b, changed).expect("written");
    let out = kpg(&[
        "compare",
        a.to_str().unwrap_or(""),
        b.to_str().unwrap_or(""),
        "--output",
        "markdown",
        "--fail-on",
        "drift",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let md = stdout(&out);
    assert!(
        md.contains(
            "| ip-10-0-3-30.ec2.internal | default | m5.large | RequirementsDrifted | 0m0s |"
        ),
        "the drift table names the snapshot's node, its NodePool and type:\n{md}"
    );
    assert!(stderr(&out).contains("1 node drifted"), "{}", stderr(&out));
}

#[test]
fn a_pod_annotated_do_not_disrupt_keeps_its_node_and_the_import_keeps_the_annotation() {
    let text = small().replace(
        "    generateName: web-6f7d8b9c4-\n    labels:\n      app: web\n      \
         pod-template-hash: 6f7d8b9c4\n    name: web-6f7d8b9c4-t5w8r\n",
        "    annotations:\n      karpenter.sh/do-not-disrupt: \"true\"\n      \
         kubectl.kubernetes.io/restartedAt: x\n    generateName: web-6f7d8b9c4-\n    \
         labels:\n      app: web\n      pod-template-hash: 6f7d8b9c4\n    \
         name: web-6f7d8b9c4-t5w8r\n",
    );
    assert_ne!(text, small(), "the fixture has the pod");
    let r = simulate(&text, None);
    let s = summary(&r);
    assert_eq!(
        pod(&r, "web-6f7d8b9c4-t5w8r").expect(&s)["node"],
        "ip-10-0-3-30.ec2.internal",
        "the annotated pod's node is not disrupted: {s}"
    );
    let imported = stdout(&kpg_stdin(&["import", "-"], text.as_bytes()));
    assert!(
        imported.contains(
            "web-6f7d8b9c4-t5w8r ip-10-0-3-30.ec2.internal karpenter.sh/do-not-disrupt=true"
        ),
        "{imported}"
    );
    assert!(!imported.contains("restartedAt"));
    let a = kpg_stdin(&["simulate", "-", "--output", "json"], text.as_bytes());
    let b = kpg_stdin(&["simulate", "-", "--output", "json"], imported.as_bytes());
    assert!(a.stdout == b.stdout, "the import simulates as the snapshot");
}

#[test]
fn new_nodes_launch_in_the_zones_of_the_subnets_karpenter_resolved() {
    // The EC2NodeClass's status lists the subnets Karpenter found: only us-east-1c's here.
    let text = small().replace(
        "    - id: subnet-0a1b2c3d4e5f60001\n      zone: us-east-1a\n      zoneID: use1-az1\n    \
         - id: subnet-0a1b2c3d4e5f60002\n      zone: us-east-1b\n      zoneID: use1-az2\n",
        "",
    );
    assert_ne!(text, small());
    let r = simulate(&text, Some("2m"));
    let s = summary(&r);
    let runner = pod(&r, "batch-runner").expect(&s);
    let node = node_named(&r, runner["node"].as_str().unwrap_or("")).expect(&s);
    assert_eq!(node["zone"], "us-east-1c", "{s}");
    let imported = stdout(&kpg_stdin(&["import", "-"], text.as_bytes()));
    assert!(
        imported.contains("status:\n  subnets:\n  - zone: us-east-1c\n"),
        "{imported}"
    );
}

//! The seed articles' labs (`tests/labs/`), run through the built `kpg` binary: each test
//! checks the outcome the lab's header promises, on the JSON report (and on the engine's
//! events, where the promise is about a decision).

mod common;

use std::collections::BTreeSet;

use common::*;
use kpg_core::disruption::Reason;
use kpg_core::sim::{Event, EventKind};
use serde_json::Value;

/// The engine's events for a lab run as `kpg simulate --until UNTIL` runs it (to rest
/// without one).
fn lab_events(name: &str, until: Option<&str>) -> Vec<Event> {
    let text = std::fs::read_to_string(lab(name)).expect("the lab exists");
    let until = until.map(|u| kpg_core::duration::parse(u).expect("a duration"));
    kpg::simulate(&text, until)
        .expect("the lab runs")
        .sim
        .events()
        .to_vec()
}

fn label<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v["labels"].get(key).and_then(Value::as_str)
}

fn has_taint(node: &Value, key: &str, value: &str, effect: &str) -> bool {
    node["taints"].as_array().is_some_and(|ts| {
        ts.iter().any(|t| {
            str_of(t, "key") == Some(key)
                && str_of(t, "value") == Some(value)
                && str_of(t, "effect") == Some(effect)
        })
    })
}

fn in_phase<'a>(pods: &[&'a Value], phase: &str) -> Vec<&'a Value> {
    pods.iter()
        .copied()
        .filter(|p| str_of(p, "phase") == Some(phase))
        .collect()
}

/// Every pod is bound to a node of its own.
fn assert_one_per_node(r: &Value, pods: &[&Value]) {
    let nodes: BTreeSet<&str> = pods.iter().filter_map(|p| str_of(p, "node")).collect();
    assert_eq!(
        nodes.len(),
        pods.len(),
        "pods share nodes or are unbound\n{}",
        summary(r)
    );
}

const SEOUL_ZONES: [&str; 3] = ["ap-northeast-2a", "ap-northeast-2b", "ap-northeast-2c"];

/// The two fixed m7i-flex.large on-demand nodes of the seed002 labs' managed node group.
fn assert_fixed_nodes(r: &Value) {
    let fixed = nodes_in(r, None);
    assert_eq!(fixed.len(), 2, "fixed nodes\n{}", summary(r));
    for n in &fixed {
        assert_eq!(str_of(n, "nodeGroup"), Some("mydev-ng"), "{n}");
        assert_eq!(str_of(n, "instanceType"), Some("m7i-flex.large"), "{n}");
        assert_eq!(str_of(n, "capacityType"), Some("on-demand"), "{n}");
        assert_eq!(str_of(n, "state"), Some("Ready"), "{n}");
    }
    let zones: BTreeSet<&str> = fixed.iter().filter_map(|n| str_of(n, "zone")).collect();
    assert_eq!(
        zones,
        BTreeSet::from(["ap-northeast-2a", "ap-northeast-2c"]),
        "{}",
        summary(r)
    );
}

/// `count` Ready spot t3.small nodes in NodePool `pool` of a seed002 lab.
fn assert_small_spot_nodes(r: &Value, pool: &str, count: usize) {
    let nodes = nodes_in(r, Some(pool));
    assert_eq!(nodes.len(), count, "nodes in {pool}\n{}", summary(r));
    for n in &nodes {
        assert_eq!(
            str_of(n, "instanceType"),
            Some("t3.small"),
            "{}",
            summary(r)
        );
        assert_eq!(str_of(n, "capacityType"), Some("spot"), "{n}");
        assert_eq!(str_of(n, "arch"), Some("amd64"), "{n}");
        assert_eq!(str_of(n, "state"), Some("Ready"), "{n}");
        assert_eq!(label(n, "node"), Some(pool), "{n}");
        assert!(
            SEOUL_ZONES.contains(&str_of(n, "zone").unwrap_or("")),
            "{n}"
        );
    }
}

#[test]
fn seed000_hello_world() {
    let r = report("seed000-hello-world.yaml", &[]);
    let all = nodes(&r);
    assert_eq!(all.len(), 1, "one node\n{}", summary(&r));
    let node = all[0];
    assert_eq!(str_of(node, "nodepool"), Some("hello-world"), "{node}");
    assert_eq!(str_of(node, "capacityType"), Some("on-demand"), "{node}");
    assert_eq!(str_of(node, "arch"), Some("amd64"), "{node}");
    assert_eq!(str_of(node, "state"), Some("Ready"), "{node}");
    assert_eq!(
        str_of(node, "zone").map(|z| z.starts_with("us-east-1")),
        Some(true),
        "{node}"
    );
    let itype = str_of(node, "instanceType").unwrap_or("");
    assert!(
        itype.starts_with('t'),
        "a t-family instance type, got {itype}"
    );
    if let Some(category) = label(node, "karpenter.k8s.aws/instance-category") {
        assert_eq!(category, "t");
    }
    assert_eq!(label(node, "app"), Some("hello-world"), "{node}");

    let nginx: Vec<&Value> = pods(&r)
        .into_iter()
        .filter(|p| str_of(p, "name") == Some("nginx"))
        .collect();
    assert_eq!(nginx.len(), 1, "{}", summary(&r));
    let nginx = nginx[0];
    assert_eq!(str_of(nginx, "namespace"), Some("default"));
    assert_eq!(str_of(nginx, "phase"), Some("Running"), "{}", summary(&r));
    assert_eq!(str_of(nginx, "node"), str_of(node, "name"));
    assert!(nginx["owner"].is_null(), "a bare pod has no owner: {nginx}");
    assert_eq!(label(nginx, "run"), Some("nginx"));
    assert!(
        r["costPerHour"].as_f64().is_some_and(|c| c > 0.0),
        "cost: {}",
        r["costPerHour"]
    );
}

#[test]
fn seed002_scale_out_lands_on_platform() {
    let r = report("seed002-scale-out.yaml", &[]);
    assert_fixed_nodes(&r);
    assert_small_spot_nodes(&r, "platform", 2);
    assert_eq!(nodes_in(&r, Some("service")).len(), 0, "{}", summary(&r));
    assert_eq!(nodes(&r).len(), 4, "{}", summary(&r));

    let busybox = pods_labelled(&r, "app", "busybox");
    assert_eq!(busybox.len(), 4, "{}", summary(&r));
    assert_eq!(in_phase(&busybox, "Running").len(), 4, "{}", summary(&r));
    assert_one_per_node(&r, &busybox);
    let on_fixed = busybox
        .iter()
        .filter(|p| node_of(&r, p)["nodepool"].is_null())
        .count();
    assert_eq!(on_fixed, 2, "{}", summary(&r));
    for p in &busybox {
        assert_eq!(str_of(p, "owner"), Some("Deployment/busybox"), "{p}");
    }
}

#[test]
fn seed002_service_6gi_gets_m7i_flex_large() {
    let r = report("seed002-service-6gi.yaml", &[]);
    assert_fixed_nodes(&r);
    let service = nodes_in(&r, Some("service"));
    assert_eq!(service.len(), 2, "{}", summary(&r));
    for n in &service {
        assert_eq!(
            str_of(n, "instanceType"),
            Some("m7i-flex.large"),
            "{}",
            summary(&r)
        );
        assert_eq!(str_of(n, "capacityType"), Some("spot"), "{n}");
        assert_eq!(str_of(n, "state"), Some("Ready"), "{n}");
        assert_eq!(label(n, "node"), Some("service"), "{n}");
        assert!(has_taint(n, "node", "service", "NoSchedule"), "{n}");
    }
    assert_eq!(nodes_in(&r, Some("platform")).len(), 0, "{}", summary(&r));
    assert_eq!(nodes(&r).len(), 4, "{}", summary(&r));

    let httpd = pods_labelled(&r, "app", "httpd");
    assert_eq!(httpd.len(), 2, "{}", summary(&r));
    assert_eq!(in_phase(&httpd, "Running").len(), 2, "{}", summary(&r));
    assert_one_per_node(&r, &httpd);
    for p in &httpd {
        assert_eq!(
            str_of(node_of(&r, p), "nodepool"),
            Some("service"),
            "{}",
            summary(&r)
        );
    }
}

#[test]
fn seed002_limits_leave_two_pending() {
    let r = report("seed002-limits.yaml", &[]);
    assert_fixed_nodes(&r);
    assert_small_spot_nodes(&r, "platform", 4);
    assert_eq!(nodes_in(&r, Some("service")).len(), 0, "{}", summary(&r));

    let busybox = pods_labelled(&r, "app", "busybox");
    assert_eq!(busybox.len(), 8, "{}", summary(&r));
    let running = in_phase(&busybox, "Running");
    let pending = in_phase(&busybox, "Pending");
    assert_eq!(running.len(), 6, "{}", summary(&r));
    assert_eq!(pending.len(), 2, "{}", summary(&r));
    assert_one_per_node(&r, &running);
    let on_fixed = running
        .iter()
        .filter(|p| node_of(&r, p)["nodepool"].is_null())
        .count();
    assert_eq!(on_fixed, 2, "{}", summary(&r));

    for p in &pending {
        assert!(p["node"].is_null(), "{p}");
        let why = format!(
            "{} {}",
            str_of(p, "reason").unwrap_or_default(),
            str_of(p, "message").unwrap_or_default()
        );
        assert!(
            why.contains("all available instance types exceed limits for nodepool"),
            "the pending message names the limit: {why}"
        );
        assert!(
            why.contains("platform"),
            "the pending message names the platform pool: {why}"
        );
        assert!(
            why.contains("node=service:NoSchedule"),
            "the pending message names the service taint: {why}"
        );
    }
}

/// The limits lab without its limit: every replica runs, on two more platform nodes.
#[test]
fn seed002_limits_lifted_runs_every_replica() {
    let r = report("seed002-limits-lifted.yaml", &[]);
    assert_fixed_nodes(&r);
    assert_small_spot_nodes(&r, "platform", 6);
    assert_eq!(nodes_in(&r, Some("service")).len(), 0, "{}", summary(&r));
    let busybox = pods_labelled(&r, "app", "busybox");
    let running = in_phase(&busybox, "Running");
    assert_eq!(running.len(), 8, "{}", summary(&r));
    assert_one_per_node(&r, &running);
}

#[test]
fn seed002_scale_in_before_the_delete() {
    let r = report("seed002-scale-in.yaml", &["--until", "2m30s"]);
    assert_eq!(
        str_of(&r, "time").map(|t| t.contains("2m30s")),
        Some(true),
        "time: {}",
        r["time"]
    );
    assert_fixed_nodes(&r);
    assert_small_spot_nodes(&r, "platform", 2);
    let busybox = pods_labelled(&r, "app", "busybox");
    assert_eq!(in_phase(&busybox, "Running").len(), 4, "{}", summary(&r));
}

#[test]
fn seed002_scale_in_removes_empty_nodes() {
    let r = report("seed002-scale-in.yaml", &[]);
    assert!(
        pods_labelled(&r, "app", "busybox").is_empty(),
        "{}",
        summary(&r)
    );
    assert_fixed_nodes(&r);
    assert_eq!(
        nodes(&r).len(),
        2,
        "only the fixed nodes remain\n{}",
        summary(&r)
    );
    let fixed_cost: f64 = nodes(&r)
        .iter()
        .filter_map(|n| n["pricePerHour"].as_f64())
        .sum();
    let cost = r["costPerHour"].as_f64().unwrap_or(-1.0);
    assert!(
        (cost - fixed_cost).abs() < 1e-9,
        "cost {cost} vs fixed nodes {fixed_cost}"
    );
}

#[test]
fn seed002_consolidation_packs_the_pods_onto_fewer_nodes() {
    let before = report("seed002-consolidation.yaml", &["--until", "2m59s"]);
    assert_small_spot_nodes(&before, "platform", 4);
    let busybox = pods_labelled(&before, "app", "busybox");
    assert_eq!(
        in_phase(&busybox, "Pending").len(),
        2,
        "the limits lab first\n{}",
        summary(&before)
    );

    let r = report("seed002-consolidation.yaml", &[]);
    let busybox = pods_labelled(&r, "app", "busybox");
    assert_eq!(
        in_phase(&busybox, "Running").len(),
        8,
        "without the anti-affinity every replica runs\n{}",
        summary(&r)
    );
    let platform = nodes(&r)
        .into_iter()
        .filter(|n| str_of(n, "nodepool") == Some("platform"))
        .count();
    assert!(
        platform < 4,
        "consolidation removed platform nodes\n{}",
        summary(&r)
    );
    let cost = |v: &Value| v["costPerHour"].as_f64().unwrap_or(0.0);
    assert!(
        cost(&r) < cost(&before),
        "{} -> {}",
        cost(&before),
        cost(&r)
    );
    assert!(
        lab_events("seed002-consolidation.yaml", None).iter().any(
            |e| matches!(&e.kind, EventKind::Disrupting(d) if d.reason == Reason::Underutilized)
        ),
        "underutilized nodes, not just empty ones\n{}",
        summary(&r)
    );
}

/// The batch Job's one pod.
fn batch_pod(r: &Value) -> &Value {
    let pods: Vec<&Value> = pods(r)
        .into_iter()
        .filter(|p| str_of(p, "owner") == Some("Job/batch-job"))
        .collect();
    assert_eq!(pods.len(), 1, "one Job pod\n{}", summary(r));
    pods[0]
}

/// No node of `pool` now, and no NodeClaim of it ever created (lab run to 90 s).
fn no_nodeclaim_of(r: &Value, lab_name: &str, pool: &str) {
    assert!(
        nodes_in(r, Some(pool)).is_empty(),
        "no {pool} node\n{}",
        summary(r)
    );
    let events = lab_events(lab_name, Some("90s"));
    let created: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Created { node_pool, .. } if node_pool == pool))
        .collect();
    assert!(created.is_empty(), "no {pool} NodeClaim, got {created:?}");
}

#[test]
fn seed003_job_as_written_lands_on_general_multiarch() {
    let r = report("seed003-batch-job.yaml", &["--until", "90s"]);
    let pod = batch_pod(&r);
    assert_eq!(str_of(pod, "phase"), Some("Running"), "{}", summary(&r));
    let node = node_of(&r, pod);
    assert_eq!(
        str_of(node, "nodepool"),
        Some("general-multiarch"),
        "{}",
        summary(&r)
    );
    assert_eq!(label(node, "nodeclass"), Some("general"), "{node}");
    assert_eq!(label(node, "arch"), Some("multi"), "{node}");
    assert!(
        !has_taint(node, "workload", "batch", "NoSchedule"),
        "{node}"
    );
    assert_eq!(nodes(&r).len(), 1, "{}", summary(&r));
    no_nodeclaim_of(&r, "seed003-batch-job.yaml", "batch-spot");
}

#[test]
fn seed003_fixed_job_lands_on_batch_spot() {
    let r = report("seed003-batch-job-fixed.yaml", &["--until", "90s"]);
    let pod = batch_pod(&r);
    assert_eq!(str_of(pod, "phase"), Some("Running"), "{}", summary(&r));
    let node = node_of(&r, pod);
    assert_eq!(
        str_of(node, "nodepool"),
        Some("batch-spot"),
        "{}",
        summary(&r)
    );
    assert_eq!(str_of(node, "capacityType"), Some("spot"), "{node}");
    assert_eq!(label(node, "workload"), Some("batch"), "{node}");
    assert!(has_taint(node, "workload", "batch", "NoSchedule"), "{node}");
    let category = label(node, "karpenter.k8s.aws/instance-category")
        .map(str::to_string)
        .unwrap_or_else(|| {
            str_of(node, "instanceType")
                .unwrap_or("")
                .chars()
                .take(1)
                .collect()
        });
    assert!(
        ["t", "m", "c"].contains(&category.as_str()),
        "category {category}: {node}"
    );
    assert_eq!(nodes(&r).len(), 1, "{}", summary(&r));
    no_nodeclaim_of(&r, "seed003-batch-job-fixed.yaml", "general-multiarch");
}

#[test]
fn seed003_job_completes() {
    // `sleep 60` in the command: the pod finishes a minute after it starts (about 1m46s).
    for lab in ["seed003-batch-job.yaml", "seed003-batch-job-fixed.yaml"] {
        let r = report(lab, &["--until", "2m"]);
        assert_eq!(
            str_of(batch_pod(&r), "phase"),
            Some("Succeeded"),
            "{lab}\n{}",
            summary(&r)
        );
        assert_eq!(
            nodes(&r).len(),
            1,
            "the emptied node waits out consolidateAfter (30s)\n{}",
            summary(&r)
        );
        // At rest the empty node has been consolidated away, and nothing costs money.
        let rest = report(lab, &[]);
        assert!(
            nodes(&rest).is_empty(),
            "{lab}: the empty node is removed\n{}",
            summary(&rest)
        );
        assert_eq!(rest["costPerHour"].as_f64(), Some(0.0));
    }
}

#[test]
fn seed003_spot_shortage_falls_back_to_on_demand_and_returns_to_spot() {
    let r = report("seed003-spot-shortage.yaml", &["--until", "2m"]);
    assert!(
        lab_events("seed003-spot-shortage.yaml", Some("2m"))
            .iter()
            .any(|e| matches!(e.kind, EventKind::LaunchFailed { .. })),
        "{}",
        summary(&r)
    );
    // The general pool allows on-demand: the web pods run there within two minutes.
    let web: Vec<&Value> = r["pods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| str_of(p, "name").is_some_and(|n| n.starts_with("web-")))
        .collect();
    assert_eq!(web.len(), 2);
    for pod in &web {
        assert_eq!(str_of(pod, "phase"), Some("Running"), "{}", summary(&r));
        let node = node_of(&r, pod);
        assert_eq!(str_of(node, "nodepool"), Some("general-multiarch"));
        assert_eq!(str_of(node, "capacityType"), Some("on-demand"), "{node}");
    }
    // The batch pool is spot only: its pod waits for spot.
    assert_eq!(str_of(batch_pod(&r), "phase"), Some("Pending"));
    assert!(
        nodes_in(&r, Some("batch-spot")).is_empty(),
        "{}",
        summary(&r)
    );

    // Spot is back at 6m; by 12m the batch pod runs on spot, and consolidation has
    // replaced the on-demand node with a cheaper spot one.
    let r = report("seed003-spot-shortage.yaml", &["--until", "12m"]);
    let batch = batch_pod(&r);
    assert_eq!(str_of(batch, "phase"), Some("Running"), "{}", summary(&r));
    assert_eq!(str_of(node_of(&r, batch), "capacityType"), Some("spot"));
    for node in nodes(&r) {
        assert_eq!(str_of(node, "capacityType"), Some("spot"), "{node}");
    }
    let first_batch_launch = lab_events("seed003-spot-shortage.yaml", Some("12m"))
        .iter()
        .find(|e| {
            matches!(&e.kind, EventKind::Launched { nodeclaim, .. }
                if nodeclaim.starts_with("batch-spot-"))
        })
        .map(|e| e.time)
        .unwrap();
    assert!(
        (6 * 60_000..8 * 60_000).contains(&first_batch_launch),
        "no spot launch before the shortage ends at 6m: {first_batch_launch} ms"
    );
}

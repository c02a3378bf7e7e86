//! The seed articles' labs (`tests/labs/`), run through the built `kpg` binary: each test
//! checks the outcome the lab's header promises, on the JSON report (and on the engine's
//! events, where the promise is about a decision).

mod common;

use std::collections::BTreeSet;

use common::*;
use kpg_core::disruption::Reason;
use kpg_core::sim::event::TerminationCause;
use kpg_core::sim::evidence::Blocker;
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

// ----- the lessons' second round: teardown, drift, spot fallback, protection, zones -----

const MINUTE: u64 = 60_000;

fn cost(r: &Value) -> f64 {
    r["costPerHour"].as_f64().unwrap_or(-1.0)
}

fn assert_cost(r: &Value, expected: f64) {
    assert!(
        (cost(r) - expected).abs() < 1e-6,
        "cost {} per hour, expected {expected}\n{}",
        cost(r),
        summary(r)
    );
}

fn nodeclaims(r: &Value) -> Vec<&Value> {
    r["nodeclaims"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

fn nodepool<'a>(r: &'a Value, name: &str) -> Option<&'a Value> {
    r["nodepools"]
        .as_array()?
        .iter()
        .find(|p| str_of(p, "name") == Some(name))
}

fn names<'a>(items: &[&'a Value]) -> BTreeSet<&'a str> {
    items.iter().filter_map(|v| str_of(v, "name")).collect()
}

/// `instanceType/capacityType@zone` of every node of `pool`, sorted.
fn shapes(r: &Value, pool: &str) -> Vec<String> {
    let mut v: Vec<String> = nodes_in(r, Some(pool))
        .iter()
        .map(|n| {
            format!(
                "{}/{}@{}",
                str_of(n, "instanceType").unwrap_or("?"),
                str_of(n, "capacityType").unwrap_or("?"),
                str_of(n, "zone").unwrap_or("?")
            )
        })
        .collect();
    v.sort();
    v
}

/// What `kpg kubectl LAB --at AT -- ARGS...` prints (it must succeed).
fn kubectl(lab_name: &str, at: &str, args: &[&str]) -> String {
    let path = lab(lab_name);
    let mut all = vec![
        "kubectl",
        path.to_str().expect("UTF-8 path"),
        "--at",
        at,
        "--",
    ];
    all.extend_from_slice(args);
    let out = kpg(&all);
    assert_eq!(out.status.code(), Some(0), "kpg {all:?}\n{}", stderr(&out));
    stdout(&out)
}

fn disruptions(events: &[Event]) -> Vec<(u64, &kpg_core::sim::event::Disruption)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Disrupting(d) => Some((e.time, d)),
            _ => None,
        })
        .collect()
}

fn times(events: &[Event], is: impl Fn(&EventKind) -> bool) -> Vec<u64> {
    events
        .iter()
        .filter(|e| is(&e.kind))
        .map(|e| e.time)
        .collect()
}

/// The web pods of a lab, checked to be `running` Running and `pending` Pending.
fn assert_web(r: &Value, running: usize, pending: usize) {
    let web = pods_labelled(r, "app", "web");
    assert_eq!(in_phase(&web, "Running").len(), running, "{}", summary(r));
    assert_eq!(in_phase(&web, "Pending").len(), pending, "{}", summary(r));
    assert_eq!(web.len(), running + pending, "{}", summary(r));
}

#[test]
fn seed000_teardown_in_order_ends_with_no_ec2_left() {
    let name = "seed000-teardown.yaml";
    let r = report(name, &["--until", "2m"]);
    assert_eq!(
        shapes(&r, "default"),
        [
            "t3a.small/on-demand@us-east-1a",
            "t3a.small/on-demand@us-east-1b",
            "t3a.small/on-demand@us-east-1c"
        ]
    );
    assert_web(&r, 3, 0);
    assert_one_per_node(&r, &pods_labelled(&r, "app", "web"));
    assert_cost(&r, 0.0564);

    // The Deployment goes at 3m; the emptied nodes go one at a time, by emptiness.
    let events = lab_events(name, None);
    let empties = disruptions(&events);
    assert_eq!(empties.len(), 3, "{empties:?}");
    for (t, d) in &empties {
        assert_eq!(d.reason, Reason::Empty, "{d:?}");
        assert_eq!(d.candidates.len(), 1, "one node at a time: {d:?}");
        assert!((3 * MINUTE..5 * MINUTE).contains(t), "at {t} ms");
    }
    assert!(
        !events.iter().any(|e| matches!(
            &e.kind,
            EventKind::Terminating {
                cause: TerminationCause::NodePoolDeleted,
                ..
            }
        )),
        "no node was left for the NodePool's deletion to terminate"
    );
    let r = report(name, &["--until", "5m"]);
    assert!(
        nodes(&r).is_empty() && nodeclaims(&r).is_empty(),
        "{}",
        summary(&r)
    );
    assert!(pods(&r).is_empty(), "{}", summary(&r));
    assert_cost(&r, 0.0);
    assert!(
        nodepool(&r, "default").is_some(),
        "the NodePool is still there"
    );

    // The NodePool goes at 6m, then the EC2NodeClass at 7m, at once: nothing uses it.
    let r = report(name, &["--until", "6m30s"]);
    assert!(nodepool(&r, "default").is_none(), "{:?}", r["nodepools"]);
    assert!(kubectl(name, "6m30s", &["get", "ec2nodeclass"]).contains("default"));
    assert!(kubectl(name, "7m30s", &["get", "ec2nodeclass"]).contains("No resources found"));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.kind, EventKind::NodeClassWaiting { .. })),
        "the EC2NodeClass never waited"
    );
    let deleted = times(&events, |k| matches!(k, EventKind::NodeClassDeleted { .. }));
    assert_eq!(deleted, [7 * MINUTE]);
    let rest = report(name, &[]);
    assert!(nodes(&rest).is_empty(), "{}", summary(&rest));
    assert_cost(&rest, 0.0);
}

#[test]
fn seed000_teardown_in_the_wrong_order_keeps_the_nodes_until_the_nodepool_goes() {
    let name = "seed000-teardown-wrong-order.yaml";
    let events = lab_events(name, None);
    let waiting: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::NodeClassWaiting { .. }))
        .collect();
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    assert_eq!(waiting[0].time, 3 * MINUTE);
    assert!(
        matches!(&waiting[0].kind, EventKind::NodeClassWaiting { nodeclaims, .. }
            if nodeclaims.len() == 3),
        "{waiting:?}"
    );

    // The EC2NodeClass waits; its nodes keep running and costing, and its pool is not Ready.
    for at in ["3m30s", "5m"] {
        let r = report(name, &["--until", at]);
        assert_eq!(
            nodes_in(&r, Some("default")).len(),
            3,
            "{at}\n{}",
            summary(&r)
        );
        assert_eq!(nodeclaims(&r).len(), 3, "{at}");
        assert_cost(&r, 0.0564);
        let pool = nodepool(&r, "default").expect("the NodePool is still there");
        assert_eq!(pool["ready"].as_bool(), Some(false), "{pool}");
        assert!(
            str_of(pool, "message").is_some_and(|m| m.contains("is being deleted")),
            "{pool}"
        );
        let class = kubectl(name, at, &["get", "ec2nodeclass", "default", "-o", "yaml"]);
        assert!(class.contains("deletionTimestamp"), "{class}");
    }
    // The replica added at 4m has nowhere to go: the pool can launch nothing.
    let r = report(name, &["--until", "5m"]);
    assert_web(&r, 3, 1);
    let pending = in_phase(&pods_labelled(&r, "app", "web"), "Pending")[0];
    assert!(
        str_of(pending, "message").is_some_and(|m| m.contains("no nodepools found")),
        "{pending}"
    );
    let created_late = times(&events, |k| matches!(k, EventKind::Created { .. }));
    assert!(
        created_late.iter().all(|&t| t < 3 * MINUTE),
        "no NodeClaim after the EC2NodeClass deletion: {created_late:?}"
    );

    // Deleting the NodePool at 6m drains every node at once; the web pods have nowhere to go.
    let r = report(name, &["--until", "6m10s"]);
    assert!(nodepool(&r, "default").is_none());
    let draining = nodes_in(&r, Some("default"));
    assert_eq!(draining.len(), 3, "{}", summary(&r));
    assert!(
        draining
            .iter()
            .all(|n| str_of(n, "state") == Some("Deleting")),
        "{}",
        summary(&r)
    );
    assert_web(&r, 0, 4);
    let by_pool = times(&events, |k| {
        matches!(
            k,
            EventKind::Terminating {
                cause: TerminationCause::NodePoolDeleted,
                ..
            }
        )
    });
    assert_eq!(by_pool, [6 * MINUTE; 3]);

    // The EC2NodeClass goes with the last of its NodeClaims.
    let last_node = times(&events, |k| matches!(k, EventKind::NodeClaimDeleted { .. }));
    let class_deleted = times(&events, |k| matches!(k, EventKind::NodeClassDeleted { .. }));
    assert_eq!(class_deleted.len(), 1);
    assert_eq!(class_deleted.last(), last_node.last(), "{last_node:?}");
    assert!(class_deleted[0] > 6 * MINUTE && class_deleted[0] < 7 * MINUTE);

    let rest = report(name, &[]);
    assert!(
        nodes(&rest).is_empty() && pods(&rest).is_empty(),
        "{}",
        summary(&rest)
    );
    assert_cost(&rest, 0.0);
    let spent = |r: &Value| r["accruedCost"].as_f64().unwrap_or(0.0);
    let in_order = report("seed000-teardown.yaml", &[]);
    assert!(
        spent(&rest) > spent(&in_order),
        "{} vs {}",
        spent(&rest),
        spent(&in_order)
    );
}

#[test]
fn seed000_drift_waits_for_the_window_then_replaces_one_node_at_a_time() {
    let name = "seed000-drift.yaml";
    let before = report(name, &["--until", "1m"]);
    assert_eq!(shapes(&before, "default").len(), 4, "{}", summary(&before));
    assert!(
        shapes(&before, "default")
            .iter()
            .all(|s| s.starts_with("t3a.small/on-demand@"))
    );
    assert_web(&before, 4, 0);
    assert_cost(&before, 0.0752);
    let old_names = names(&nodes(&before));
    let old_image = str_of(nodeclaims(&before)[0], "imageId")
        .expect("an image")
        .to_string();

    // Drifted at 2m, but the Drifted budget is 0 until 00:06 UTC.
    let frozen = report(name, &["--until", "5m50s"]);
    assert_eq!(names(&nodes(&frozen)), old_names, "{}", summary(&frozen));
    for nc in nodeclaims(&frozen) {
        assert_eq!(str_of(nc, "drifted"), Some("AMIDrift"), "{nc}");
    }
    let events = lab_events(name, None);
    let commands = disruptions(&events);
    assert_eq!(commands.len(), 4, "{commands:?}");
    assert_eq!(
        commands[0].0,
        6 * MINUTE,
        "the first replacement starts with the window"
    );
    let gone = times(&events, |k| matches!(k, EventKind::NodeClaimDeleted { .. }));
    for (i, (t, d)) in commands.iter().enumerate() {
        assert_eq!(d.reason, Reason::Drifted, "{d:?}");
        assert_eq!((d.candidates.len(), d.replacements.len()), (1, 1), "{d:?}");
        assert!(old_names.contains(d.candidates[0].name.as_str()), "{d:?}");
        if i > 0 {
            // `nodes: "1"`: the next command waits for the previous node to be gone.
            assert!(gone[i - 1] < *t, "command {i} at {t} ms, gone: {gone:?}");
        }
    }
    let history = before_rest_history(name);
    assert!(
        history.iter().all(|h| h["nodes"].as_u64() <= Some(5)),
        "one replacement at a time"
    );
    assert!(
        history
            .iter()
            .filter(|h| h["seconds"].as_f64() > Some(60.0))
            .all(|h| h["pending"].as_u64() == Some(0)),
        "no web pod waits during the roll"
    );

    let rest = report(name, &[]);
    assert_eq!(str_of(&rest, "time"), Some("12m10s"));
    assert_eq!(nodes(&rest).len(), 4, "{}", summary(&rest));
    assert!(
        names(&nodes(&rest)).is_disjoint(&old_names),
        "{}",
        summary(&rest)
    );
    for nc in nodeclaims(&rest) {
        assert!(nc.get("drifted").is_none(), "{nc}");
        assert_ne!(str_of(nc, "imageId"), Some(old_image.as_str()), "{nc}");
    }
    assert_web(&rest, 4, 0);
    assert_cost(&rest, 0.0752);
}

/// The figures over time of a lab run to rest.
fn before_rest_history(lab_name: &str) -> Vec<Value> {
    report(lab_name, &[])["history"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn seed003_spot_fallback_goes_zone_then_type_then_on_demand() {
    let name = "seed003-spot-fallback.yaml";
    let events = lab_events(name, None);
    let r = report(name, &["--until", "1m"]);
    assert_eq!(shapes(&r, "web").len(), 3, "{}", summary(&r));
    assert!(
        shapes(&r, "web")
            .iter()
            .all(|s| s.starts_with("c6a.large/spot@"))
    );
    assert_cost(&r, 0.07803);

    // 1. The reclaimed offering is avoided: same type, spot, another zone.
    let first = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::SpotInterrupted { node, .. } => Some(node.clone()),
            _ => None,
        })
        .expect("an interruption");
    let lost_zone = str_of(node_named(&r, &first).expect("the node"), "zone")
        .unwrap()
        .to_string();
    let r = report(name, &["--until", "2m30s"]);
    assert!(node_named(&r, &first).is_none(), "{}", summary(&r));
    let zones: BTreeSet<&str> = nodes(&r).iter().filter_map(|n| str_of(n, "zone")).collect();
    assert!(
        !zones.contains(lost_zone.as_str()),
        "{lost_zone}\n{}",
        summary(&r)
    );
    assert!(
        shapes(&r, "web")
            .iter()
            .all(|s| s.starts_with("c6a.large/spot@"))
    );

    // 2. c6a.large spot is gone: the fleet takes the next type, with no failed launch.
    let r = report(name, &["--until", "4m"]);
    let types: Vec<String> = shapes(&r, "web")
        .iter()
        .map(|s| s[..s.find('@').unwrap()].into())
        .collect();
    assert_eq!(
        types,
        ["c6a.large/spot", "c6a.large/spot", "c6i.large/spot"]
    );
    assert_cost(&r, 0.08092);
    let failed = times(&events, |k| matches!(k, EventKind::LaunchFailed { .. }));
    assert!(failed.iter().all(|&t| t > 4 * MINUTE), "{failed:?}");

    // 3. No spot anywhere: one failed launch, then on-demand.
    let r = report(name, &["--until", "6m"]);
    let types: Vec<String> = shapes(&r, "web")
        .iter()
        .map(|s| s[..s.find('@').unwrap()].into())
        .collect();
    assert_eq!(
        types,
        ["c6a.large/on-demand", "c6a.large/spot", "c6i.large/spot"]
    );
    assert_cost(&r, 0.13141);
    assert_web(&r, 3, 0);
    let in_shortage: Vec<u64> = failed.iter().copied().filter(|&t| t < 6 * MINUTE).collect();
    assert_eq!(in_shortage.len(), 1, "{failed:?}");
    assert!((4 * MINUTE + 30_000..4 * MINUTE + 45_000).contains(&in_shortage[0]));

    // 4. Spot is back at 7m30s: consolidation replaces the on-demand node with spot.
    let back = disruptions(&events)
        .into_iter()
        .filter(|(t, d)| *t >= 7 * MINUTE + 30_000 && d.reason == Reason::Underutilized)
        .count();
    assert!(back >= 1, "{:?}", disruptions(&events));
    let rest = report(name, &[]);
    let types: Vec<String> = shapes(&rest, "web")
        .iter()
        .map(|s| s[..s.find('@').unwrap()].into())
        .collect();
    assert_eq!(
        types,
        ["c6a.large/spot", "c6i.large/spot", "c6i.large/spot"],
        "{}",
        summary(&rest)
    );
    assert_cost(&rest, 0.08381);
    assert_web(&rest, 3, 0);
}

#[test]
fn seed002_protect_pdb_paces_do_not_disrupt_holds_and_the_grace_period_ends_it() {
    let name = "seed002-protect.yaml";
    let r = report(name, &["--until", "1m30s"]);
    assert_cost(&r, 0.188);
    let old = nodes_in(&r, Some("default"));
    assert_eq!(old.len(), 1, "{}", summary(&r));
    let old = str_of(old[0], "name").unwrap().to_string();
    let pinned = nodes_in(&r, Some("pinned"));
    assert_eq!(pinned.len(), 1, "{}", summary(&r));
    let pinned = str_of(pinned[0], "name").unwrap().to_string();
    let on_old = &node_named(&r, &old).unwrap()["pods"];
    assert_eq!(
        on_old.as_array().map(Vec::len),
        Some(4),
        "web x3 and report: {on_old}"
    );
    assert!(on_old.to_string().contains("default/report"), "{on_old}");

    let events = lab_events(name, None);
    let blocked = |who: &str, b: Blocker| {
        events.iter().any(|e| {
            e.time < 2 * MINUTE
                && matches!(&e.kind, EventKind::DisruptionBlocked { nodeclaim, blocker }
                if nodeclaim == who && *blocker == b)
        })
    };
    assert!(blocked(
        &old,
        Blocker::PodDoNotDisrupt("default/report".into())
    ));
    assert!(blocked(&pinned, Blocker::NodeDoNotDisrupt));

    // Both nodes drift at 2m; only the default pool's node is replaced.
    let drifted = times(&events, |k| matches!(k, EventKind::Drifted { .. }));
    assert_eq!(drifted, [2 * MINUTE; 2]);
    let commands = disruptions(&events);
    assert_eq!(commands.len(), 1, "{commands:?}");
    assert_eq!(commands[0].1.reason, Reason::Drifted);
    assert_eq!(commands[0].1.candidates[0].name, old);

    // The PDB: one web eviction at a time, the others refused in between.
    let drain = times(
        &events,
        |k| matches!(k, EventKind::Terminating { nodeclaim, .. } if *nodeclaim == old),
    );
    assert_eq!(drain.len(), 1);
    let drain = drain[0];
    let evicted = |forced: bool| {
        times(&events, |k| {
            matches!(k, EventKind::Evicted { pod, forced: f, .. }
                if *f == forced && pod.name.starts_with("web-"))
        })
    };
    let web_evictions = evicted(false);
    assert_eq!(web_evictions.len(), 3, "{web_evictions:?}");
    assert_eq!(web_evictions[0], drain);
    assert!(
        web_evictions.windows(2).all(|w| w[0] < w[1]),
        "{web_evictions:?}"
    );
    let refused = times(&events, |k| matches!(k, EventKind::FailedDraining { .. }));
    assert!(
        refused
            .iter()
            .any(|&t| t >= web_evictions[0] && t < web_evictions[2]),
        "{refused:?}"
    );
    assert!(
        evicted(true).is_empty(),
        "no web pod needed the grace period"
    );

    // do-not-disrupt: report stays on the draining node until terminationGracePeriod (5m).
    let r = report(name, &["--until", "5m"]);
    let node = node_named(&r, &old).expect("still draining");
    assert_eq!(str_of(node, "state"), Some("Deleting"));
    assert_eq!(node["pods"].as_array().map(Vec::len), Some(1), "{node}");
    assert!(
        node["pods"].to_string().contains("default/report"),
        "{node}"
    );
    assert_web(&r, 3, 0);
    let report_deleted = times(
        &events,
        |k| matches!(k, EventKind::Evicted { pod, forced: true, .. } if pod.name == "report"),
    );
    assert_eq!(report_deleted, [drain + 5 * MINUTE]);

    let rest = report(name, &[]);
    assert!(node_named(&rest, &old).is_none(), "{}", summary(&rest));
    assert!(
        node_named(&rest, &pinned).is_some(),
        "the pinned node stays"
    );
    let claim = nodeclaims(&rest)
        .into_iter()
        .find(|c| str_of(c, "name") == Some(pinned.as_str()))
        .expect("its NodeClaim");
    assert_eq!(str_of(claim, "drifted"), Some("AMIDrift"), "{claim}");
    assert!(
        pods(&rest)
            .iter()
            .all(|p| str_of(p, "name") != Some("report"))
    );
    assert_web(&rest, 3, 0);
    assert_cost(&rest, 0.0752);
}

#[test]
fn seed002_zones_follow_the_offerings_and_avoid_the_short_zone() {
    let name = "seed002-zones.yaml";
    let events = lab_events(name, Some("2m"));
    let failed = times(&events, |k| matches!(k, EventKind::LaunchFailed { .. }));
    assert_eq!(failed.len(), 1, "one launch into 2c fails: {failed:?}");
    assert!(failed[0] < 5_000, "{failed:?}");
    // The claim for 2a could only be an m7i-flex.large: c7i-flex.large is not offered there.
    assert!(events.iter().any(|e| matches!(&e.kind,
        EventKind::Created { node_pool, instance_types, .. }
            if node_pool == "service" && instance_types == &["m7i-flex.large"])));

    let r = report(name, &["--until", "2m"]);
    assert_fixed_nodes(&r);
    assert_eq!(
        shapes(&r, "service"),
        [
            "c7i-flex.large/spot@ap-northeast-2b",
            "c7i-flex.large/spot@ap-northeast-2b",
            "m7i-flex.large/spot@ap-northeast-2a",
        ],
        "{}",
        summary(&r)
    );
    let web = pods_labelled(&r, "app", "web");
    assert_web(&r, 3, 0);
    assert_one_per_node(&r, &web);
    for p in &web {
        assert_eq!(str_of(node_of(&r, p), "nodepool"), Some("service"));
    }
    assert_cost(&r, 0.321405);

    // 2c has capacity again at 5m, and nothing moves.
    let rest = report(name, &[]);
    assert_eq!(str_of(&rest, "time"), Some("5m0s"));
    assert_eq!(
        names(&nodes(&rest)),
        names(&nodes(&r)),
        "{}",
        summary(&rest)
    );
}

#[test]
fn v114_static_reserved_holds_the_static_pool_and_fills_the_reservation_first() {
    let name = "v114-static-reserved.yaml";
    let kinds = |r: &Value| -> Vec<String> {
        let mut v: Vec<String> = nodes(r)
            .iter()
            .map(|n| {
                format!(
                    "{}/{}/{}",
                    str_of(n, "nodepool").unwrap_or("-"),
                    str_of(n, "instanceType").unwrap_or(""),
                    str_of(n, "capacityType").unwrap_or("")
                )
            })
            .collect();
        v.sort();
        v
    };
    // Two into the reservation, the third on-demand once the reservation is full.
    assert_eq!(
        kinds(&report(name, &["--until", "1m"])),
        [
            "baseline/m5.large/on-demand",
            "baseline/m5.large/on-demand",
            "burst/m5.xlarge/on-demand",
            "burst/m5.xlarge/reserved",
            "burst/m5.xlarge/reserved",
        ]
    );
    // At 10m `batch` scales down: the on-demand node goes, the reserved ones stay.
    let at20 = report(name, &["--until", "20m"]);
    assert_eq!(
        kinds(&at20),
        [
            "baseline/m5.large/on-demand",
            "baseline/m5.large/on-demand",
            "burst/m5.xlarge/reserved",
            "burst/m5.xlarge/reserved",
        ]
    );
    let running = pods(&at20)
        .iter()
        .filter(|p| str_of(p, "phase") == Some("Running"))
        .count();
    assert_eq!(running, 4);
    // At 40m the reservation ends: the same nodes, on-demand at the list price.
    let at41 = report(name, &["--until", "41m"]);
    assert!(kinds(&at41).iter().all(|k| k.ends_with("/on-demand")));
    assert!((at41["costPerHour"].as_f64().unwrap() - 0.576).abs() < 1e-9);
}

/// Bring your own cluster: the imported snapshot acts with nothing pending (the drifted
/// NodeClaim at once, then the under-used nodes one at a time), and restricting the NodePool
/// to on-demand drifts the two spot NodeClaims by their requirements, not by their hash.
#[test]
fn byoc_snapshot_acts_at_time_zero_and_on_demand_drifts_only_the_spot_nodes() {
    let drifted = |r: &Value| -> Vec<String> {
        r["events"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| str_of(e, "reason") == Some("Drifted"))
            .map(|e| {
                format!(
                    "{} {}",
                    str_of(e, "object").unwrap_or(""),
                    str_of(e, "message").unwrap_or("")
                )
            })
            .collect()
    };
    let a = report("byoc-snapshot.yaml", &[]);
    assert_eq!(
        drifted(&a),
        ["NodeClaim/default-m3c5w NodeClaim drifted: NodePoolDrifted"],
        "{}",
        summary(&a)
    );
    assert_eq!(nodes(&a).len(), 3, "{}", summary(&a));
    assert!(node_named(&a, "ip-10-0-1-10.ec2.internal").is_some());
    assert!((a["costPerHour"].as_f64().unwrap() - 0.147877).abs() < 1e-9);

    let b = report("byoc-on-demand.yaml", &[]);
    assert_eq!(
        drifted(&b),
        [
            "NodeClaim/default-q9m4t NodeClaim drifted: RequirementsDrifted",
            "NodeClaim/default-h4v8n NodeClaim drifted: RequirementsDrifted",
            "NodeClaim/default-m3c5w NodeClaim drifted: NodePoolDrifted",
        ],
        "{}",
        summary(&b)
    );
    assert!(
        nodes(&b)
            .iter()
            .all(|n| str_of(n, "capacityType") == Some("on-demand")),
        "{}",
        summary(&b)
    );
    assert!((b["costPerHour"].as_f64().unwrap() - 0.209).abs() < 1e-9);
}

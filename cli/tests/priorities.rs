//! Pod priority and preemption, through `kpg simulate --output json`: PriorityClasses and the
//! Priority admission plugin, kube-scheduler's DefaultPreemption (victims, PDBs, the
//! nominated node, `preemptionPolicy: Never`) and Karpenter, which leaves a nominated pod
//! alone and launches for the victims' replacements.

mod common;

use common::*;
use serde_json::Value;

const LAB: &str = "priority-preemption.yaml";

fn lab_text() -> String {
    std::fs::read_to_string(lab(LAB)).expect("the lab exists")
}

fn events<'a>(report: &'a Value, reason: &str) -> Vec<&'a Value> {
    report["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| str_of(e, "reason") == Some(reason))
        .collect()
}

fn object(e: &Value) -> &str {
    str_of(e, "object").unwrap_or("")
}

fn pods_of<'a>(report: &'a Value, app: &str) -> Vec<&'a Value> {
    pods_labelled(report, "app", app)
}

#[test]
fn a_high_priority_deployment_preempts_and_karpenter_launches_for_the_victims() {
    let r = report(LAB, &["--until", "5m"]);
    let s = summary(&r);
    let critical = pods_of(&r, "critical");
    assert_eq!(critical.len(), 2, "{s}");
    for p in &critical {
        assert_eq!(str_of(p, "phase"), Some("Running"), "{s}");
        assert_eq!(
            str_of(node_of(&r, p), "nodeGroup"),
            Some("fixed"),
            "the critical pods take the fixed nodes' room\n{s}"
        );
        assert_eq!(p["priority"], 1000, "admission gave the class's value");
    }
    let preempted = events(&r, "Preempted");
    assert_eq!(preempted.len(), 4, "two batch pods a node make room\n{s}");
    for e in &preempted {
        assert!(object(e).starts_with("Pod/default/batch-"), "{e}");
        let message = str_of(e, "message").unwrap_or("");
        assert!(
            message.starts_with("Preempted by default/critical-")
                && message.contains(" on node fixed-"),
            "{message}"
        );
    }
    // Karpenter nominated (and launched for) the victims' replacements only.
    let nominated = events(&r, "Nominated");
    assert_eq!(nominated.len(), 4, "{s}");
    assert!(
        nominated
            .iter()
            .all(|e| object(e).starts_with("Pod/default/batch-")),
        "{nominated:?}"
    );
    let launched = nodes_in(&r, Some("default"));
    assert_eq!(launched.len(), 1, "{s}");
    let batch = pods_of(&r, "batch");
    assert_eq!(batch.len(), 6, "the Deployment keeps its replicas\n{s}");
    assert!(
        batch.iter().all(|p| str_of(p, "phase") == Some("Running")),
        "{s}"
    );
    assert_eq!(
        batch
            .iter()
            .filter(|p| str_of(p, "node") == str_of(launched[0], "name"))
            .count(),
        4,
        "{s}"
    );
}

#[test]
fn a_preemptor_waits_nominated_while_its_victims_terminate() {
    // 10 s after the arrival: the victims' 30 s grace period still runs.
    let r = report(LAB, &["--until", "1m10s"]);
    let s = summary(&r);
    for p in pods_of(&r, "critical") {
        assert_eq!(str_of(p, "phase"), Some("Pending"), "{s}");
        let node = str_of(p, "nominatedNodeName").unwrap_or_else(|| panic!("nominated: {p}"));
        assert!(node.starts_with("fixed-"), "{node}");
        assert_eq!(
            str_of(p, "schedulerMessage"),
            Some(
                "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to a \
                 terminating pod on the nominated node."
            ),
            "{p}"
        );
        assert_eq!(
            p["nominated"],
            Value::Null,
            "Karpenter does not nominate it: {p}"
        );
    }
    // The replacements have the victims' priority: nothing below them to preempt.
    let waiting: Vec<&Value> = pods_of(&r, "batch")
        .into_iter()
        .filter(|p| str_of(p, "phase") == Some("Pending"))
        .collect();
    assert_eq!(waiting.len(), 4, "{s}");
    for p in waiting {
        assert_eq!(
            str_of(p, "schedulerMessage"),
            Some(
                "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are \
                 available: 2 No preemption victims found for incoming pod."
            ),
            "{p}"
        );
    }
}

#[test]
fn preemption_policy_never_waits_for_room_instead() {
    let text = lab_text().replace("value: 1000\n", "value: 1000\npreemptionPolicy: Never\n");
    let r = simulate_json(&text, "1m10s");
    let s = summary(&r);
    assert!(events(&r, "Preempted").is_empty(), "{s}");
    for p in pods_of(&r, "critical") {
        assert_eq!(
            str_of(p, "schedulerMessage"),
            Some(
                "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to \
                 preemptionPolicy=Never."
            ),
            "{p}"
        );
        assert!(p.get("nominatedNodeName").is_none(), "{p}");
    }
    // Not nominated by kube-scheduler, so Karpenter provisions for them.
    let r = simulate_json(&text, "5m");
    let s = summary(&r);
    for p in pods_of(&r, "critical") {
        assert_eq!(str_of(node_of(&r, p), "nodepool"), Some("default"), "{s}");
    }
    for p in pods_of(&r, "batch") {
        assert_eq!(str_of(node_of(&r, p), "nodeGroup"), Some("fixed"), "{s}");
    }
}

/// Two fixed nodes, `a` pods on the first zone's, `b` pods on the second's, each full; a
/// PodDisruptionBudget over `protected` pods; a preemptor that fits on either node once two
/// of its pods go.
fn pdb_scenario(protected: &str) -> String {
    let deployment = |name: &str, zone: &str| {
        format!(
            "---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: 3
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}, tier: batch}}}}
    spec:
      nodeSelector: {{topology.kubernetes.io/zone: {zone}}}
      containers: [{{name: c, resources: {{requests: {{cpu: 500m}}}}}}]
"
        )
    };
    format!(
        "apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {{name: pdb}}
spec:
  region: us-east-1
  zones: [us-east-1a, us-east-1b]
  nodeGroups:
    - {{name: fixed, instanceType: m5.large, count: 2, zones: [us-east-1a, us-east-1b]}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: high}}
value: 100
{a}{b}---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {{name: keep}}
spec:
  maxUnavailable: 0
  selector: {{matchLabels: {protected}}}
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {{name: t}}
spec:
  steps:
    - at: 1m
      apply:
        apiVersion: v1
        kind: Pod
        metadata: {{name: urgent}}
        spec:
          priorityClassName: high
          containers: [{{name: c, resources: {{requests: {{cpu: '1'}}}}}}]
",
        a = deployment("a", "us-east-1a"),
        b = deployment("b", "us-east-1b"),
    )
}

fn victims(r: &Value) -> Vec<String> {
    events(r, "Preempted")
        .iter()
        .map(|e| object(e).trim_start_matches("Pod/default/").to_string())
        .collect()
}

#[test]
fn a_pdb_shifts_the_victims_to_the_node_that_violates_none() {
    // Every tie left: the first node, the `a` pods'.
    let r = simulate_json(&pdb_scenario("{app: nothing}"), "1m5s");
    let v = victims(&r);
    assert_eq!(v.len(), 2, "{v:?}\n{}", summary(&r));
    assert!(v.iter().all(|p| p.starts_with("a-")), "{v:?}");
    // The `a` pods' budget allows no disruption: the `b` node violates none.
    let r = simulate_json(&pdb_scenario("{app: a}"), "1m5s");
    let v = victims(&r);
    assert_eq!(v.len(), 2, "{v:?}\n{}", summary(&r));
    assert!(v.iter().all(|p| p.starts_with("b-")), "{v:?}");
    let urgent = pods(&r)
        .into_iter()
        .find(|p| str_of(p, "name") == Some("urgent"))
        .expect("the preemptor");
    let b_node = pods_of(&r, "b")
        .into_iter()
        .find_map(|p| str_of(p, "node"))
        .expect("a b pod is bound");
    assert_eq!(str_of(urgent, "nominatedNodeName"), Some(b_node));
    // A budget over every pod is violated rather than leave the pod pending: kube-scheduler
    // only prefers the candidates that violate none.
    let r = simulate_json(&pdb_scenario("{tier: batch}"), "1m5s");
    assert_eq!(victims(&r).len(), 2, "{}", summary(&r));
}

#[test]
fn an_unknown_priority_class_is_refused_at_admission() {
    let text = lab_text().replace("priorityClassName: high", "priorityClassName: urgent");
    let out = kpg_stdin(&["simulate", "-", "--output", "json"], text.as_bytes());
    assert!(!out.status.success(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("unknown-priority-class"), "{err}");
    assert!(
        err.contains("no PriorityClass with name urgent was found"),
        "{err}"
    );
}

#[test]
fn the_global_default_gives_pods_without_a_class_its_value() {
    // `batch` names no class: the global default's value is its pods' priority, above
    // `high`'s, so `critical` (1000) finds nothing of lower priority to preempt.
    let text = lab_text().replace(
        "description: Pods that must run on the fixed nodes first.\n",
        "description: Pods that must run on the fixed nodes first.\n---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: everyone}
value: 5000
globalDefault: true\n",
    );
    let r = simulate_json(&text, "1m10s");
    for p in pods_of(&r, "batch") {
        assert_eq!(p["priority"], 5000, "{p}");
    }
    assert!(events(&r, "Preempted").is_empty(), "{}", summary(&r));
}

#[test]
fn a_global_default_applied_later_gives_only_later_pods_its_value() {
    let text = format!(
        "{}    - at: 2m
      apply:
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {{name: everyone}}
        value: 7
        globalDefault: true
    - at: 3m
      scale: {{kind: Deployment, name: batch, replicas: 8}}
",
        lab_text()
    );
    let r = simulate_json(&text, "3m5s");
    let batch = pods_of(&r, "batch");
    assert_eq!(batch.len(), 8, "{}", summary(&r));
    let created_late = |p: &Value| str_of(p, "createdAt") == Some("3m0s");
    assert_eq!(batch.iter().filter(|p| created_late(p)).count(), 2);
    for p in &batch {
        let expected = if created_late(p) { 7 } else { 0 };
        // The report leaves a priority of 0 out.
        assert_eq!(p["priority"].as_i64().unwrap_or(0), expected, "{p}");
    }
}

#[test]
fn explain_says_who_preempted_a_pod_and_that_the_preemptor_waits() {
    let r = report(LAB, &["--until", "1m10s"]);
    let victim = str_of(events(&r, "Preempted")[0], "object")
        .and_then(|o| o.strip_prefix("Pod/"))
        .expect("a victim")
        .to_string();
    let preemptor = pods_of(&r, "critical")
        .into_iter()
        .find_map(|p| str_of(p, "name"))
        .expect("a critical pod")
        .to_string();
    let path = lab(LAB);
    let explain = |pod: &str, at: &str| {
        let out = kpg(&[
            "explain",
            path.to_str().expect("UTF-8 path"),
            "--pod",
            pod,
            "--at",
            at,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let said = explain(&preemptor, "1m10s");
    assert!(
        said.contains("kube-scheduler preempted 2 pods of lower priority on fixed-")
            && said.contains("Karpenter leaves a nominated pod alone"),
        "{said}"
    );
    let said = explain(&victim, "1m10s");
    assert!(
        said.contains(" was preempted at 1m0s: ") && said.contains("(priority 1000)"),
        "{said}"
    );
    assert!(said.contains("It terminates until 1m30s"), "{said}");
}

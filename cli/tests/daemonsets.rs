//! DaemonSets through the whole pipeline (`kpg simulate - --output json`): what Karpenter
//! counts as their overhead (requests and host ports) and where the DaemonSet controller
//! creates their pods.

mod common;

use common::JsonRun as Run;
use kpg_core::sim::EventKind;
use serde_json::Value;

const CLUSTER: &str = r#"
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: small}
spec:
  cpu: "2"
  memory: 8Gi
  offerings: [{zone: z1, capacityType: on-demand, price: 0.10}]
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: large}
spec:
  cpu: "8"
  memory: 32Gi
  offerings: [{zone: z1, capacityType: on-demand, price: 0.40}]
"#;

fn pool(name: &str, template_spec_extra: &str) -> String {
    format!(
        r#"
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: {name}}}
spec:
  template:
    metadata: {{labels: {{pool: {name}}}}}
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements: []
{template_spec_extra}
  disruption: {{consolidateAfter: Never}}
"#
    )
}

/// A DaemonSet named `name` asking for 100m and `host_port` (0: none), with `spec_extra`
/// lines under its pod spec (6 spaces deep).
fn daemonset(name: &str, host_port: u16, spec_extra: &str) -> String {
    let ports = if host_port == 0 {
        String::new()
    } else {
        format!("\n        ports: [{{containerPort: {host_port}, hostPort: {host_port}}}]")
    };
    format!(
        r#"
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {{name: {name}}}
spec:
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
{spec_extra}
      containers:
      - name: c
        image: agent
        resources: {{requests: {{cpu: 100m, memory: 64Mi}}}}{ports}
"#
    )
}

fn pod(name: &str, host_port: u16, spec_extra: &str) -> String {
    let ports = if host_port == 0 {
        String::new()
    } else {
        format!("\n    ports: [{{containerPort: {host_port}, hostPort: {host_port}}}]")
    };
    format!(
        r#"
---
apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:
{spec_extra}
  containers:
  - name: c
    image: app
    resources: {{requests: {{cpu: 500m}}}}{ports}
"#
    )
}

/// The catalog, the node class and `parts`, as one scenario.
fn scenario(parts: &[String]) -> String {
    format!("{CLUSTER}{}{}", common::NODE_CLASS, parts.concat())
}

fn simulate(parts: &[String], until: &str) -> common::JsonRun {
    common::simulate_run(&scenario(parts), until)
}

fn nodeclaims_created(r: &Run) -> usize {
    r.events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Created { .. }))
        .count()
}

fn pod_report<'r>(r: &'r Value, name: &str) -> &'r Value {
    r["pods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pod {name}"))
}

fn daemon_pods_on<'r>(r: &'r Value, daemonset: &str, node: &str) -> Vec<&'r Value> {
    r["pods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["owner"] == format!("DaemonSet/{daemonset}") && p["node"] == node)
        .collect()
}

/// Upstream "should account for daemonset hostports": the DaemonSet holds the port on every
/// node the pool could launch, so Karpenter launches nothing (before, the engine launched a
/// node in every batch window for as long as the pod stayed pending).
#[test]
fn a_host_port_a_daemonset_holds_launches_nothing() {
    let r = simulate(
        &[
            pool("default", ""),
            daemonset("exporter", 9100, ""),
            pod("clash", 9100, ""),
        ],
        "10m",
    );
    assert_eq!(
        nodeclaims_created(&r),
        0,
        "no NodeClaim for a pod no new node can run: {:#?}",
        r.events
    );
    assert!(r["nodes"].as_array().unwrap().is_empty());
    let clash = pod_report(&r, "clash");
    assert_eq!(clash["phase"], "Pending");
    assert!(
        clash["message"].as_str().unwrap().contains(
            "no instance type met the scheduling requirements or had enough \
             resources or had a required offering"
        ),
        "{}",
        clash["message"]
    );
}

#[test]
fn a_free_host_port_or_a_daemonset_elsewhere_does_not_block() {
    // Another port: one node, and the pod runs beside the exporter.
    let r = simulate(
        &[
            pool("default", ""),
            daemonset("exporter", 9100, ""),
            pod("web", 8080, ""),
        ],
        "5m",
    );
    assert_eq!(nodeclaims_created(&r), 1);
    assert_eq!(pod_report(&r, "web")["phase"], "Running");
    // The same port, but the DaemonSet only runs on another pool's nodes.
    let r = simulate(
        &[
            pool("default", ""),
            pool("infra", ""),
            daemonset("exporter", 9100, "      nodeSelector: {pool: infra}"),
            pod("clash", 9100, "  nodeSelector: {pool: default}"),
        ],
        "5m",
    );
    assert_eq!(nodeclaims_created(&r), 1);
    let clash = pod_report(&r, "clash");
    assert_eq!(clash["phase"], "Running");
    assert!(daemon_pods_on(&r, "exporter", clash["node"].as_str().unwrap()).is_empty());
}

/// The explanation names the obstacle, which Karpenter's own message does not.
#[test]
fn explain_names_the_held_host_port() {
    let text = scenario(&[
        pool("default", ""),
        daemonset("exporter", 9100, ""),
        pod("clash", 9100, ""),
    ]);
    let out = common::kpg_stdin(
        &["explain", "-", "--pod", "default/clash", "--at", "1m"],
        text.as_bytes(),
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    assert!(
        text.contains("✗ resources     asks for host port 9100/TCP"),
        "{text}"
    );
}

/// A DaemonSet that does not tolerate a NodePool's startup taint gets its pod once the agent
/// lifts the taint (before, it never got one); Karpenter counted its overhead all along
/// (startup taints do not count for daemon overhead), so the node has room for it.
#[test]
fn a_daemonset_starts_once_a_startup_taint_it_does_not_tolerate_is_lifted() {
    let startup = "      startupTaints: [{key: example.com/cni-not-ready, effect: NoExecute}]";
    let r = simulate(
        &[
            pool("default", startup),
            daemonset("agent", 0, ""),
            pod("app", 0, ""),
        ],
        "5m",
    );
    let node = pod_report(&r, "app")["node"]
        .as_str()
        .expect("app runs")
        .to_string();
    let agents = daemon_pods_on(&r, "agent", &node);
    assert_eq!(agents.len(), 1, "one agent pod on {node}: {:#}", r["pods"]);
    assert_eq!(agents[0]["phase"], "Running");
    let requests = r
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Created { requests, .. } => Some(requests.to_string()),
            _ => None,
        })
        .unwrap();
    assert_eq!(requests, r#"{"cpu":"600m","memory":"64Mi","pods":"2"}"#);
}

/// The DaemonSet controller adds its own tolerations: its pods start on a cordoned node, and a
/// host-network DaemonSet's also on a node tainted network-unavailable, where others do not.
#[test]
fn the_daemonset_controller_tolerates_cordoning_and_host_network_pods_network_unavailable() {
    let cordon_then_apply = r#"
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {name: lab}
spec:
  steps:
  - {at: 2m, cordon: {node: NODE, unschedulable: true}}
  - at: 3m
    apply:
      apiVersion: apps/v1
      kind: DaemonSet
      metadata: {name: late}
      spec:
        selector: {matchLabels: {app: late}}
        template:
          metadata: {labels: {app: late}}
          spec:
            containers: [{name: c, image: agent, resources: {requests: {cpu: 50m}}}]
"#;
    // Find the node's name first (it is deterministic for the scenario's seed).
    let first = simulate(&[pool("default", ""), pod("app", 0, "")], "2m");
    let node = pod_report(&first, "app")["node"]
        .as_str()
        .unwrap()
        .to_string();
    let r = simulate(
        &[
            pool("default", ""),
            pod("app", 0, ""),
            cordon_then_apply.replace("NODE", &node),
        ],
        "4m",
    );
    assert_eq!(
        daemon_pods_on(&r, "late", &node).len(),
        1,
        "a DaemonSet pod starts on the cordoned node: {:#}",
        r["pods"]
    );

    let tainted =
        "      taints: [{key: node.kubernetes.io/network-unavailable, effect: NoSchedule}]";
    let tolerate =
        "  tolerations: [{key: node.kubernetes.io/network-unavailable, operator: Exists}]";
    let host_net = daemonset("cni", 0, "      hostNetwork: true");
    let plain = daemonset("logs", 0, "");
    let r = simulate(
        &[
            pool("default", tainted),
            host_net,
            plain,
            pod("app", 0, tolerate),
        ],
        "5m",
    );
    let node = pod_report(&r, "app")["node"]
        .as_str()
        .expect("app runs")
        .to_string();
    assert_eq!(
        daemon_pods_on(&r, "cni", &node).len(),
        1,
        "host-network DaemonSet pods tolerate network-unavailable"
    );
    assert!(
        daemon_pods_on(&r, "logs", &node).is_empty(),
        "other DaemonSet pods do not"
    );
}

/// Applying a DaemonSet unchanged (as `kubectl apply` of the same file does) leaves its pods
/// alone: they follow the nodes, not a replica count.
#[test]
fn a_daemonset_applied_unchanged_keeps_one_pod_per_node() {
    let ds = daemonset("agent", 0, "");
    let reapply = format!(
        "\n---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\n\
         metadata: {{name: t}}\nspec:\n  steps:\n  - at: 3m\n    apply:\n{}",
        ds.trim_start_matches("\n---\n")
            .lines()
            .map(|l| format!("      {l}\n"))
            .collect::<String>()
    );
    let big = |name: &str| pod(name, 0, "").replace("cpu: 500m", "cpu: \"5\"");
    let r = simulate(
        &[pool("default", ""), ds.clone(), big("a"), big("b"), reapply],
        "5m",
    );
    let nodes: Vec<&str> = r["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(nodes.len(), 2, "{:#}", r["nodes"]);
    for node in nodes {
        assert_eq!(
            daemon_pods_on(&r, "agent", node).len(),
            1,
            "{node}: {:#}",
            r["pods"]
        );
    }
    let agents = r["pods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["owner"] == "DaemonSet/agent")
        .count();
    assert_eq!(agents, 2, "no agent pod without a node: {:#}", r["pods"]);
}

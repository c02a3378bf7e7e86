//! CapacityBuffers (`autoscaling.x-k8s.io/v1beta1`, Karpenter v1.14+ behind the
//! `CapacityBuffer` gate) through `kpg simulate --output json`: capacity kept warm for pods
//! that do not exist, used at once by the pods that come, and kept by consolidation.
//! Upstream: `K@v1.14.1:pkg/controllers/capacitybuffer/`, `pkg/state/virtualpods/`,
//! `pkg/controllers/provisioning/buffers.go`, `pkg/controllers/disruption/emptiness.go`.

mod common;

use common::{kpg_stdin, lab, nodes, pods, simulate_json, str_of, summary};
use serde_json::Value;

/// Cluster (v1.14 unless `version`; `gates` the featureGates map), the node class and one
/// NodePool of m5.large, m5.xlarge and m5.2xlarge on-demand, consolidating at once.
fn base(version: &str, gates: &str) -> String {
    format!(
        "apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {{name: c}}
spec:
  region: us-east-1
  zones: [us-east-1a]
  karpenter:
    version: {version}
    featureGates: {gates}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {{name: default}}
spec:
  role: r
  amiSelectorTerms: [{{alias: al2023@latest}}]
  subnetSelectorTerms: [{{tags: {{k: v}}}}]
  securityGroupSelectorTerms: [{{tags: {{k: v}}}}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: general}}
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements:
        - {{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}}
        - {{key: node.kubernetes.io/instance-type, operator: In,
            values: [m5.large, m5.xlarge, m5.2xlarge]}}
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 0s
"
    )
}

/// A PodTemplate `size` of one container asking for `cpu`.
fn template(cpu: &str) -> String {
    format!(
        "---
apiVersion: v1
kind: PodTemplate
metadata: {{name: size}}
template:
  metadata: {{labels: {{app: web}}}}
  spec:
    containers:
      - {{name: c, image: i, resources: {{requests: {{cpu: \"{cpu}\", memory: 1Gi}}}}}}
"
    )
}

/// A CapacityBuffer `warm` with `spec` (YAML lines indented under `spec:`).
fn buffer(spec: &str) -> String {
    format!(
        "---
apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {{name: warm}}
spec:
{spec}"
    )
}

/// A Deployment `web` of `replicas` pods asking for 1 vCPU each.
fn web(replicas: u32) -> String {
    format!(
        "---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers:
        - {{name: c, image: i, resources: {{requests: {{cpu: \"1\", memory: 1Gi}}}}}}
"
    )
}

/// A Timeline scaling `web` to `replicas` at `at`.
fn scale_at(at: &str, replicas: u32) -> String {
    format!(
        "---
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {{name: t}}
spec:
  steps:
    - {{at: {at}, scale: {{kind: Deployment, name: web, replicas: {replicas}}}}}
"
    )
}

fn gated() -> String {
    base("v1.14", "{CapacityBuffer: true}")
}

/// The report's only buffer.
fn the_buffer(report: &Value) -> &Value {
    let list = report["capacityBuffers"]
        .as_array()
        .unwrap_or_else(|| panic!("no capacityBuffers in the report"));
    assert_eq!(list.len(), 1, "{list:?}");
    &list[0]
}

fn instance_types(report: &Value) -> Vec<&str> {
    nodes(report)
        .iter()
        .map(|n| str_of(n, "instanceType").unwrap_or("?"))
        .collect()
}

/// Events of `reason` (any, if empty) about `object` (a prefix, e.g. `NodeClaim/`).
fn events<'a>(report: &'a Value, reason: &str, object: &str) -> Vec<&'a Value> {
    report["events"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|e| {
                    (reason.is_empty() || str_of(e, "reason") == Some(reason))
                        && str_of(e, "object").is_some_and(|o| o.starts_with(object))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_buffer_on_an_empty_cluster_launches_a_node_with_room_and_no_pods() {
    let text =
        gated() + &template("1") + &buffer("  podTemplateRef: {name: size}\n  replicas: 2\n");
    let report = simulate_json(&text, "5m");
    // Two 1-vCPU virtual pods do not fit an m5.large (1.93 vCPU allocatable): an m5.xlarge.
    assert_eq!(
        instance_types(&report),
        ["m5.xlarge"],
        "{}",
        summary(&report)
    );
    assert!(pods(&report).is_empty(), "no pod exists for a buffer");
    assert_eq!(nodes(&report)[0]["pods"], serde_json::json!([]));
    let b = the_buffer(&report);
    assert_eq!(b["replicas"], 2);
    assert_eq!(str_of(b, "provisioning"), Some("FitsExistingCapacity"));
    let first = events(
        &report,
        "RequiresNewCapacity",
        "CapacityBuffer/default/warm",
    );
    assert_eq!(
        str_of(first[0], "message"),
        Some("2/2 virtual pods required new capacity, 0 failed")
    );
    let fits = events(
        &report,
        "FitsExistingCapacity",
        "CapacityBuffer/default/warm",
    );
    assert_eq!(
        str_of(fits[0], "message"),
        Some("All 2 virtual pods fit on existing capacity")
    );
}

#[test]
fn a_scale_up_lands_at_once_on_the_warm_node_and_karpenter_warms_new_capacity() {
    let out = kpg_stdin(
        &[
            "simulate",
            lab("v114-capacity-buffer.yaml").to_str().unwrap(),
            "--output",
            "json",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let created = events(&report, "Created", "NodeClaim/");
    assert_eq!(created.len(), 2, "{}", summary(&report));
    let warm = str_of(created[0], "object")
        .unwrap()
        .trim_start_matches("NodeClaim/");
    assert_eq!(str_of(created[0], "time"), Some("0m1s"));
    // At 3m both web pods are bound to the warm node, in the same instant, before any
    // second NodeClaim exists.
    let scheduled = events(&report, "Scheduled", "Pod/default/web-");
    assert_eq!(scheduled.len(), 2);
    for s in &scheduled {
        assert_eq!(str_of(s, "time"), Some("3m0s"));
        assert!(
            str_of(s, "message")
                .unwrap()
                .ends_with(&format!("to {warm}"))
        );
    }
    assert_eq!(str_of(created[1], "time"), Some("3m1s"));
    // The new capacity is for the buffer: one virtual pod still fits beside the web pods,
    // the other needs an m5.large.
    assert_eq!(instance_types(&report), ["m5.xlarge", "m5.large"]);
    let second = &nodes(&report)[1];
    assert_eq!(second["pods"], serde_json::json!([]));
    assert!(
        pods(&report)
            .iter()
            .all(|p| str_of(p, "phase") == Some("Running"))
    );
    assert_eq!(
        str_of(the_buffer(&report), "provisioning"),
        Some("FitsExistingCapacity")
    );
}

#[test]
fn a_node_holding_the_buffer_is_not_deleted_as_empty() {
    let text =
        gated() + &template("1") + &buffer("  podTemplateRef: {name: size}\n  replicas: 2\n");
    let report = simulate_json(&text, "20m");
    assert_eq!(
        instance_types(&report),
        ["m5.xlarge"],
        "{}",
        summary(&report)
    );
    assert_eq!(events(&report, "Created", "NodeClaim/").len(), 1);
    assert!(events(&report, "Disrupting", "").is_empty());
    let held = events(&report, "Unconsolidatable", "NodeClaim/");
    assert!(
        held.iter()
            .any(|e| str_of(e, "message").is_some_and(|m| m.ends_with("has buffer pods"))),
        "{held:?}"
    );
}

#[test]
fn consolidation_keeps_room_for_the_buffer() {
    // Three web pods and one virtual pod launch an m5.2xlarge. When web scales to one,
    // consolidation replaces it, but with an m5.xlarge that holds the virtual pod too, not
    // the m5.large the web pod alone would take.
    let text = gated()
        + &template("1")
        + &buffer("  podTemplateRef: {name: size}\n  replicas: 1\n")
        + &web(3)
        + &scale_at("3m", 1);
    let report = simulate_json(&text, "15m");
    assert_eq!(
        events(&report, "Disrupting", "").len(),
        1,
        "{}",
        summary(&report)
    );
    assert_eq!(
        instance_types(&report),
        ["m5.xlarge"],
        "{}",
        summary(&report)
    );
    assert_eq!(events(&report, "Created", "NodeClaim/").len(), 2);
    assert_eq!(
        str_of(the_buffer(&report), "provisioning"),
        Some("FitsExistingCapacity")
    );
}

#[test]
fn a_percentage_of_a_scalable_ref_counts_the_workload_replicas() {
    // 50 % of web's 4 replicas is 2, more than `replicas: 1`: the larger wins.
    let spec = "  scalableRef: {kind: Deployment, name: web}\n  percentage: 50\n  replicas: 1\n";
    let text = gated() + &buffer(spec) + &web(4);
    let report = simulate_json(&text, "5m");
    assert_eq!(the_buffer(&report)["replicas"], 2);
    // 4 web pods and 2 virtual ones: 6 vCPU, an m5.2xlarge.
    assert_eq!(
        instance_types(&report),
        ["m5.2xlarge"],
        "{}",
        summary(&report)
    );
    assert_eq!(pods(&report).len(), 4);
}

#[test]
fn limits_cap_the_replicas() {
    // Five wanted, but 2500m of cpu holds two 1-vCPU pods.
    let spec = "  podTemplateRef: {name: size}\n  replicas: 5\n  limits: {cpu: 2500m}\n";
    let text = gated() + &template("1") + &buffer(spec);
    let report = simulate_json(&text, "5m");
    assert_eq!(the_buffer(&report)["replicas"], 2);
    assert_eq!(
        instance_types(&report),
        ["m5.xlarge"],
        "{}",
        summary(&report)
    );
}

#[test]
fn with_the_gate_off_or_before_v1_14_nothing_happens_and_a_warning_says_so() {
    let rest = template("1") + &buffer("  podTemplateRef: {name: size}\n  replicas: 2\n");
    for (cluster, why) in [
        (
            base("v1.14", "{}"),
            "the CapacityBuffer feature gate is off in v1.14",
        ),
        (base("v1.13", "{}"), "v1.13 has no CapacityBuffer gate"),
    ] {
        let text = cluster + &rest;
        let out = kpg_stdin(
            &["simulate", "-", "--until", "5m", "--output", "json"],
            text.as_bytes(),
        );
        assert!(out.status.success(), "{}", common::stderr(&out));
        let stderr = common::stderr(&out);
        assert!(
            stderr.contains("warning[needs-feature-gate]")
                && stderr.contains(&format!("the CapacityBuffer is ignored: {why}")),
            "{stderr}"
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(nodes(&report).is_empty(), "{}", summary(&report));
        assert!(events(&report, "", "CapacityBuffer/").is_empty());
    }
}

#[test]
fn a_timeline_applies_a_buffer_and_deletes_it() {
    // The buffer appears at 2m (a warm node follows), and goes at 6m (the node is empty
    // again, and emptiness deletes it).
    let applied = buffer("  podTemplateRef: {name: size}\n  replicas: 2\n")
        .replace("---\n", "")
        .lines()
        .map(|l| format!("        {l}\n"))
        .collect::<String>();
    let timeline = format!(
        "---
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {{name: t}}
spec:
  steps:
    - at: 2m
      apply:
{applied}    - {{at: 6m, delete: {{kind: CapacityBuffer, name: warm}}}}
"
    );
    let text = gated() + &template("1") + &timeline;
    let at_5m = simulate_json(&text, "5m");
    assert_eq!(instance_types(&at_5m), ["m5.xlarge"], "{}", summary(&at_5m));
    let created = events(&at_5m, "Created", "NodeClaim/");
    assert_eq!(str_of(created[0], "time"), Some("2m1s"));
    let at_15m = simulate_json(&text, "15m");
    assert!(nodes(&at_15m).is_empty(), "{}", summary(&at_15m));
    assert_eq!(events(&at_15m, "Disrupting", "").len(), 1);
}

#[test]
fn virtual_pods_spread_across_zones_as_pods_being_scheduled() {
    // The template spreads its pods over zones (maxSkew 1): the two virtual pods of one pass
    // count for each other's topology, so they get a node in each zone.
    let spread = "---
apiVersion: v1
kind: PodTemplate
metadata: {name: size}
template:
  metadata: {labels: {app: web}}
  spec:
    containers:
      - {name: c, image: i, resources: {requests: {cpu: \"1\", memory: 1Gi}}}
    topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone,
         whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
";
    let text = gated().replace("zones: [us-east-1a]", "zones: [us-east-1a, us-east-1b]")
        + spread
        + &buffer("  podTemplateRef: {name: size}\n  replicas: 2\n");
    let report = simulate_json(&text, "5m");
    let mut zones: Vec<&str> = nodes(&report)
        .iter()
        .map(|n| str_of(n, "zone").unwrap_or("?"))
        .collect();
    zones.sort();
    assert_eq!(zones, ["us-east-1a", "us-east-1b"], "{}", summary(&report));
    assert_eq!(
        str_of(the_buffer(&report), "provisioning"),
        Some("FitsExistingCapacity")
    );
}

#[test]
fn the_explanation_names_the_virtual_pods_a_nodeclaim_was_launched_for() {
    let path = lab("v114-capacity-buffer.yaml");
    let report = simulate_json(&std::fs::read_to_string(&path).unwrap(), "1m");
    let claim = str_of(nodes(&report)[0], "nodeclaim").unwrap().to_string();
    let out = common::kpg(&[
        "explain",
        path.to_str().unwrap(),
        "--nodeclaim",
        &claim,
        "--at",
        "1m",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    assert!(
        text.contains(
            "2 CapacityBuffer virtual pods (default/capacity-buffer-warm-1, \
             default/capacity-buffer-warm-2)"
        ),
        "{text}"
    );
}

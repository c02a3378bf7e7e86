//! EC2 capacity through the whole pipeline (`kpg simulate - --output json`, and the engine's
//! events behind it): the Timeline's `insufficientCapacity` step, the AWS provider's
//! unavailable-offerings cache (3 minutes), the fleet moving on to the next pool, failed
//! launches, and spot interruptions that keep the pods off the reclaimed offering.

mod common;

use common::JsonRun as Run;
use kpg_core::sim::EventKind;
use serde_json::Value;

/// Two types, two zones; spot is cheapest in z1, and `small` is always cheaper than
/// `large`.
const CLUSTER: &str = r#"
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: small}
spec:
  cpu: "2"
  memory: 8Gi
  offerings:
  - {zone: z1, capacityType: spot, price: 0.030}
  - {zone: z2, capacityType: spot, price: 0.035}
  - {zone: z1, capacityType: on-demand, price: 0.10}
  - {zone: z2, capacityType: on-demand, price: 0.10}
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: large}
spec:
  cpu: "4"
  memory: 16Gi
  offerings:
  - {zone: z1, capacityType: spot, price: 0.060}
  - {zone: z2, capacityType: spot, price: 0.065}
  - {zone: z1, capacityType: on-demand, price: 0.20}
  - {zone: z2, capacityType: on-demand, price: 0.20}
"#;

fn pool(capacity_types: &str) -> String {
    format!(
        r#"
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: default}}
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements:
      - {{key: karpenter.sh/capacity-type, operator: In, values: [{capacity_types}]}}
  disruption: {{consolidateAfter: Never}}
"#
    )
}

/// `replicas` pods of 1 CPU, one per node (hostname anti-affinity).
fn web(replicas: u32) -> String {
    format!(
        r#"
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {{labelSelector: {{matchLabels: {{app: web}}}}, topologyKey: kubernetes.io/hostname}}
      containers: [{{name: c, image: pause, resources: {{requests: {{cpu: "1"}}}}}}]
"#
    )
}

fn timeline(steps: &str) -> String {
    format!(
        "\n---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\n\
         metadata: {{name: t}}\nspec:\n  steps:\n{steps}"
    )
}

/// The catalog, the node class and `parts`, as one scenario.
fn scenario(parts: &[String]) -> String {
    format!("{CLUSTER}{}{}", common::NODE_CLASS, parts.concat())
}

fn simulate(parts: &[String], until: &str) -> common::JsonRun {
    common::simulate_run(&scenario(parts), until)
}

/// The times of the events of one kind, in order.
fn times(r: &Run, is: impl Fn(&EventKind) -> bool) -> Vec<u64> {
    r.events
        .iter()
        .filter(|e| is(&e.kind))
        .map(|e| e.time)
        .collect()
}

fn failed_launches(r: &Run) -> Vec<u64> {
    times(r, |k| matches!(k, EventKind::LaunchFailed { .. }))
}

/// (instance type, zone, capacity type) of each launch, in time order.
fn launches(r: &Run) -> Vec<(String, String, String)> {
    r.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Launched {
                instance_type,
                zone,
                capacity_type,
                ..
            } => Some(launch(instance_type, zone, capacity_type.as_str())),
            _ => None,
        })
        .collect()
}

fn first_launch(r: &Run) -> u64 {
    times(r, |k| matches!(k, EventKind::Launched { .. }))[0]
}

fn launch(t: &str, z: &str, c: &str) -> (String, String, String) {
    (t.into(), z.into(), c.into())
}

/// No spot capacity anywhere for a while: the spot launch fails
/// (`InsufficientCapacityError`, the NodeClaim deleted), every spot pool it tried goes into
/// the cache, and the pods land on on-demand within seconds.
#[test]
fn without_spot_capacity_the_pods_fall_back_to_on_demand() {
    let r = simulate(
        &[
            pool("spot, on-demand"),
            web(1),
            timeline("  - {at: 0s, insufficientCapacity: {capacityType: spot, for: 10m}}\n"),
        ],
        "3m",
    );
    assert_eq!(failed_launches(&r).len(), 1, "{:#?}", r.events);
    let launched = launches(&r);
    assert_eq!(launched.len(), 1, "{launched:?}");
    assert_eq!(
        (launched[0].0.as_str(), launched[0].2.as_str()),
        ("small", "on-demand")
    );
    assert!(
        first_launch(&r) < 30_000,
        "the fallback takes seconds, not minutes"
    );
    let nodes = r["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 1, "the failed NodeClaim is gone");
    assert_eq!(r["pods"][0]["phase"], "Running");
    // The on-demand node's explanation says why spot was not tried again.
    let text = scenario(&[
        pool("spot, on-demand"),
        web(1),
        timeline("  - {at: 0s, insufficientCapacity: {capacityType: spot, for: 10m}}\n"),
    ]);
    let node = nodes[0]["name"].as_str().unwrap();
    let out = common::kpg_stdin(
        &["explain", "-", "--node", node, "--at", "3m"],
        text.as_bytes(),
    );
    let explained = common::stdout(&out);
    assert!(
        explained.contains("4 offerings of these instance types left out"),
        "{explained}"
    );
}

/// One pool without capacity: the fleet request moves on to the next cheapest pool in the
/// same launch (another zone, then another type), and remembers the empty one for 3 minutes.
#[test]
fn the_fleet_moves_on_to_the_next_cheapest_pool() {
    let short =
        "  - {at: 0s, insufficientCapacity: {instanceType: small, zone: z1, capacityType: spot}}\n";
    let r = simulate(&[pool("spot"), web(1), timeline(short)], "2m");
    assert!(failed_launches(&r).is_empty(), "the launch itself succeeds");
    assert_eq!(launches(&r), [launch("small", "z2", "spot")]);

    let both_zones =
        "  - {at: 0s, insufficientCapacity: {instanceType: small, capacityType: spot}}\n";
    let r = simulate(&[pool("spot"), web(1), timeline(both_zones)], "2m");
    assert_eq!(launches(&r), [launch("large", "z1", "spot")]);

    // The explanation names the pools EC2 had no capacity for.
    let text = scenario(&[pool("spot"), web(1), timeline(both_zones)]);
    let node = r["nodes"][0]["name"].as_str().unwrap();
    let out = common::kpg_stdin(
        &["explain", "-", "--node", node, "--at", "2m"],
        text.as_bytes(),
    );
    let explained = common::stdout(&out);
    assert!(
        explained.contains(
            "small: sent to the launch, but EC2 had no capacity for it in z1, z2 \
             (InsufficientInstanceCapacity)"
        ),
        "{explained}"
    );
}

/// The cache holds an offering for 3 minutes, then Karpenter tries it again; while EC2 is
/// still out, the next try fails again (and nothing launches in between: no runaway).
#[test]
fn a_spot_only_pool_retries_every_time_the_cache_lets_it() {
    let r = simulate(
        &[
            pool("spot"),
            web(1),
            timeline("  - {at: 0s, insufficientCapacity: {capacityType: spot, for: 7m}}\n"),
        ],
        "12m",
    );
    let failed = failed_launches(&r);
    assert!(failed.len() >= 2 && failed.len() <= 4, "{failed:?}");
    for pair in failed.windows(2) {
        assert!(
            pair[1] - pair[0] >= 180_000,
            "a cached offering is not tried again within 3 minutes: {failed:?}"
        );
    }
    assert_eq!(
        times(&r, |k| matches!(k, EventKind::CapacityRestored { .. })).len(),
        1
    );
    let launched = launches(&r);
    assert_eq!(
        launched,
        [launch("small", "z1", "spot")],
        "once EC2 has capacity again"
    );
    assert!(first_launch(&r) >= 420_000);
    assert_eq!(r["pods"][0]["phase"], "Running");
}

/// A spot interruption marks its offering unavailable before the NodeClaim is deleted, so
/// the pod goes to the next-cheapest offering, not straight back to the type EC2 is taking
/// away; 3 minutes later that offering is used again.
#[test]
fn an_interrupted_spot_offering_is_avoided_for_three_minutes() {
    let steps = "  - {at: 2m, interrupt: {nodepool: default}}\n  - {at: 3m, scale: {kind: \
                 Deployment, name: web, replicas: 2}}\n  - {at: 6m, scale: {kind: Deployment, \
                 name: web, replicas: 3}}\n";
    let r = simulate(&[pool("spot"), web(1), timeline(steps)], "8m");
    assert_eq!(
        launches(&r),
        [
            launch("small", "z1", "spot"),
            // The interrupted pod's new node, and the replica added at 3m: not small/z1,
            // the cheapest offering, which the cache holds until 5m.
            launch("small", "z2", "spot"),
            launch("small", "z2", "spot"),
            // After the cache let it go, small/z1 is the cheapest again.
            launch("small", "z1", "spot"),
        ]
    );
}

#[test]
fn the_step_is_validated_like_any_other() {
    let bad = timeline(
        "  - {at: 1m, insufficientCapacity: {capacityType: spotty, for: 10m, zones: [z1]}}\n",
    );
    let text = scenario(&[pool("spot"), web(1), bad]);
    let out = common::kpg_stdin(&["validate", "-", "--output", "json"], text.as_bytes());
    assert!(
        !out.status.success(),
        "an unknown capacity type is an error"
    );
    let findings: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = findings.as_array().unwrap();
    assert!(
        findings.iter().any(|f| f["severity"] == "error"
            && f["path"]
                .as_str()
                .unwrap()
                .ends_with("insufficientCapacity.capacityType")),
        "{findings:#?}"
    );
    assert!(
        findings.iter().any(|f| f["code"] == "unknown-field"
            && f["path"]
                .as_str()
                .unwrap()
                .ends_with("insufficientCapacity.zones")),
        "{findings:#?}"
    );
}

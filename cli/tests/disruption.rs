//! Disruption, one mechanism per test, through the whole pipeline (YAML → reader → engine →
//! report): consolidation (delete, replace, multi-node), what blocks it (spot-to-spot,
//! WhenEmpty, PodDisruptionBudgets, do-not-disrupt, budgets by reason), drift and what does
//! not drift, AMI releases, expiration, spot interruption, drain order and the EC2NodeClass
//! deletion that waits. Small custom catalogs keep every price visible.

use std::ops::Deref;

use kpg_core::disruption::{DriftReason, Reason};
use kpg_core::report::Report;
use kpg_core::sim::event::{Decision, Disruption, InterruptTarget, Skip};
use kpg_core::sim::evidence::Blocker;
use kpg_core::sim::{Event, EventKind};

const CATALOG: &str = r#"
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: small}
spec:
  cpu: "2"
  memory: 8Gi
  offerings:
  - {zone: z1, capacityType: on-demand, price: 0.10}
  - {zone: z1, capacityType: spot, price: 0.03}
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: large}
spec:
  cpu: "8"
  memory: 32Gi
  offerings:
  - {zone: z1, capacityType: on-demand, price: 0.40}
  - {zone: z1, capacityType: spot, price: 0.12}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  role: r
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {k: v}}]
  securityGroupSelectorTerms: [{tags: {k: v}}]
"#;

/// A NodePool; `capacity` is its capacity-type list, `types` its instance types.
fn pool(capacity: &str, types: &str, policy: &str, extra_spec: &str, extra_pool: &str) -> String {
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
      - {{key: karpenter.sh/capacity-type, operator: In, values: [{capacity}]}}
      - {{key: node.kubernetes.io/instance-type, operator: In, values: [{types}]}}
{extra_spec}
  disruption:
    consolidationPolicy: {policy}
    consolidateAfter: 0s
{extra_pool}
"#
    )
}

fn deployment(name: &str, replicas: u32, cpu: &str, template_extra: &str) -> String {
    format!(
        r#"
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata:
      labels: {{app: {name}}}
{template_extra}
    spec:
      terminationGracePeriodSeconds: 0
      containers:
      - name: c
        image: pause
        resources: {{requests: {{cpu: "{cpu}"}}}}
"#
    )
}

fn timeline(steps: &str) -> String {
    format!(
        "\n---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\n\
         metadata: {{name: t}}\nspec:\n  steps:\n{steps}\n"
    )
}

fn scale(at: &str, name: &str, replicas: u32) -> String {
    format!("  - {{at: {at}, scale: {{kind: Deployment, name: {name}, replicas: {replicas}}}}}\n")
}

/// A finished run: the report at its end (through `Deref`) and the engine's events.
struct Run {
    report: Report,
    events: Vec<Event>,
}

impl Deref for Run {
    type Target = Report;
    fn deref(&self) -> &Report {
        &self.report
    }
}

fn run(parts: &[String], until_minutes: u64) -> Run {
    let text = format!("{CATALOG}{}", parts.concat());
    match kpg::simulate(&text, Some(until_minutes * 60_000)) {
        Ok(s) => Run {
            report: s.report,
            events: s.sim.events().to_vec(),
        },
        Err(e) => panic!("scenario failed: {e:?}\n{text}"),
    }
}

fn types_of(r: &Report) -> Vec<String> {
    let mut t: Vec<String> = r
        .nodes
        .iter()
        .map(|n| format!("{}/{}", n.instance_type, n.capacity_type))
        .collect();
    t.sort();
    t
}

/// The events of one kind, in order.
fn events(events: &[Event], is: impl Fn(&EventKind) -> bool) -> Vec<&Event> {
    events.iter().filter(|e| is(&e.kind)).collect()
}

/// The commands the disruption controller executed.
fn disrupting(events: &[Event]) -> Vec<&Disruption> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Disrupting(d) => Some(d),
            _ => None,
        })
        .collect()
}

/// The blockers the controller published (`DisruptionBlocked` when `consolidation` is false,
/// `Unconsolidatable` when it is true).
fn blockers(events: &[Event], consolidation: bool) -> Vec<&Blocker> {
    events
        .iter()
        .filter_map(|e| match (&e.kind, consolidation) {
            (EventKind::DisruptionBlocked { blocker, .. }, false)
            | (EventKind::Unconsolidatable { blocker, .. }, true) => Some(blocker),
            _ => None,
        })
        .collect()
}

/// The pods evicted (or deleted after `terminationGracePeriod`, when `forced`) in order.
fn evicted(events: &[Event]) -> Vec<(&Event, &str, bool)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Evicted { pod, forced, .. } => Some((e, pod.name.as_str(), *forced)),
            _ => None,
        })
        .collect()
}

fn drifted(events: &[Event]) -> Vec<DriftReason> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Drifted { reason, .. } => Some(*reason),
            _ => None,
        })
        .collect()
}

fn running(r: &Report) -> usize {
    r.pods.iter().filter(|p| p.phase == "Running").count()
}

/// Simulated milliseconds as seconds.
fn secs(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

fn seconds(t: &str) -> f64 {
    let (m, s) = t.split_once('m').unwrap();
    m.parse::<f64>().unwrap() * 60.0 + s.trim_end_matches('s').parse::<f64>().unwrap()
}

// ----- consolidation -----

#[test]
fn an_underutilized_node_is_replaced_by_a_cheaper_one_launched_first() {
    let od = pool(
        "on-demand",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "",
    );
    let r = run(
        &[
            od,
            deployment("web", 3, "1", ""),
            timeline(&scale("3m", "web", 1)),
        ],
        10,
    );
    assert_eq!(
        types_of(&r),
        ["small/on-demand"],
        "the 8-CPU node gave way to a 2-CPU one"
    );
    assert_eq!(running(&r), 1);
    let log = disrupting(&r.events);
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(
        (log[0].decision(), log[0].reason),
        (Decision::Replace, Reason::Underutilized),
        "{log:?}"
    );
    assert_eq!(log[0].savings, Some(300_000), "0.40 − 0.10: {log:?}");
    // The replacement is Ready before the old node starts draining.
    let initialized = events(&r.events, |k| matches!(k, EventKind::Initialized { .. }))
        .last()
        .map(|e| e.time)
        .unwrap();
    let terminating = events(&r.events, |k| {
        matches!(k, EventKind::DisruptionTerminating { .. })
    })[0];
    assert!(
        terminating.time >= initialized,
        "{} < {initialized}",
        terminating.time
    );
    assert_eq!(r.cost_per_hour, 0.1);
}

/// A pool at its cpu limit still replaces a node with a smaller one: the scheduling
/// simulation leaves the candidate out of the pool's usage (`SimulateScheduling` passes the
/// active nodes but the candidates, and `updateRemainingResources` subtracts only those;
/// v1.9.0 and v1.14.0 alike).
#[test]
fn a_pool_at_its_limit_replaces_a_node_with_a_smaller_one() {
    let od = pool(
        "on-demand",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "  limits:\n    cpu: \"8\"",
    );
    let r = run(
        &[
            od,
            deployment("web", 3, "1", ""),
            timeline(&scale("3m", "web", 1)),
        ],
        10,
    );
    assert_eq!(
        types_of(&r),
        ["small/on-demand"],
        "the 8-CPU node, all the pool's limit, gave way to a 2-CPU one"
    );
    let log = disrupting(&r.events);
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0].decision(), Decision::Replace, "{log:?}");
    assert_eq!(running(&r), 1);
}

#[test]
fn a_node_whose_pods_fit_elsewhere_is_deleted() {
    // Pods of 1.5, 0.7 and 0.7 CPU on 2-CPU nodes take two nodes; once the 1.5-CPU one is
    // gone the two 0.7-CPU pods fit one node, and the other node is deleted.
    let od = pool("on-demand", "small", "WhenEmptyOrUnderutilized", "", "");
    let r = run(
        &[
            od,
            deployment("a", 1, "700m", ""),
            deployment("b", 1, "1500m", ""),
            deployment("c", 1, "700m", ""),
            timeline(&scale("3m", "b", 0)),
        ],
        10,
    );
    assert_eq!(types_of(&r), ["small/on-demand"], "{:?}", r.events);
    assert_eq!(running(&r), 2, "a and c share the remaining node");
    assert!(
        disrupting(&r.events)
            .iter()
            .any(|d| d.decision() == Decision::Delete)
    );
}

/// Consolidation does not move a candidate's pods onto a node still inside its NodePool's
/// `consolidateAfter` (v1.14.0, kubernetes-sigs/karpenter#3006: `IsUnderConsolidateAfter` in
/// `addToExistingNode`): the small node, quiet since about 1m, waits until the large one has
/// been quiet for `consolidateAfter` too.
#[test]
fn a_candidates_pods_do_not_move_onto_a_node_inside_consolidate_after() {
    let od = pool(
        "on-demand",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "",
    )
    .replace("consolidateAfter: 0s", "consolidateAfter: 5m");
    let r = run(
        &[
            od,
            deployment("a", 1, "1500m", ""),
            deployment("b", 0, "5", ""),
            timeline(&scale("3m", "b", 1)),
        ],
        15,
    );
    let bound_b = events(
        &r.events,
        |k| matches!(k, EventKind::Scheduled { pod, .. } if pod.name.starts_with("b-")),
    )
    .first()
    .map(|e| e.time)
    .expect("b's pod is bound");
    let deleted = events(
        &r.events,
        |k| matches!(k, EventKind::Disrupting(d) if d.decision() == Decision::Delete),
    );
    assert_eq!(deleted.len(), 1, "{:?}", disrupting(&r.events));
    assert!(
        deleted[0].time >= bound_b + 300_000,
        "the small node went at {}s, while the large one (its pod bound at {}s) was inside \
         consolidateAfter",
        secs(deleted[0].time),
        secs(bound_b)
    );
    assert_eq!(types_of(&r), ["large/on-demand"]);
    assert_eq!(running(&r), 2);
}

#[test]
fn spot_nodes_are_not_replaced_by_spot_nodes() {
    let spot = pool("spot", "small, large", "WhenEmptyOrUnderutilized", "", "");
    let r = run(
        &[
            spot,
            deployment("web", 3, "1", ""),
            timeline(&scale("3m", "web", 1)),
        ],
        10,
    );
    assert_eq!(types_of(&r), ["large/spot"], "the spot node stays");
    let why = blockers(&r.events, true);
    assert!(why.contains(&&Blocker::SpotToSpot), "{why:?}");
}

#[test]
fn an_on_demand_node_is_replaced_only_by_spot_when_the_pool_allows_both() {
    let both = pool(
        "on-demand, spot",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "",
    );
    // Launched on-demand (spot is cheaper, but only on-demand is allowed at first)...
    let od = both.replace("values: [on-demand, spot]", "values: [on-demand]");
    let apply = format!(
        "  - at: 3m\n    apply:\n{}",
        both.lines()
            .skip(2)
            .map(|l| format!("      {l}\n"))
            .collect::<String>()
    );
    let r = run(
        &[
            od,
            deployment("web", 3, "1", ""),
            timeline(&format!("{}{apply}", scale("3m", "web", 1))),
        ],
        10,
    );
    assert_eq!(
        types_of(&r),
        ["small/spot"],
        "priced as spot, so launched as spot"
    );
}

#[test]
fn when_empty_never_touches_a_busy_node() {
    let od = pool("on-demand", "small, large", "WhenEmpty", "", "");
    let r = run(
        &[
            od,
            deployment("web", 3, "1", ""),
            timeline(&scale("3m", "web", 1)),
        ],
        10,
    );
    assert_eq!(types_of(&r), ["large/on-demand"]);
    assert!(blockers(&r.events, true).contains(&&Blocker::WhenEmptyOnly("default".into())));
}

#[test]
fn several_nodes_merge_into_one_cheaper_node() {
    // Four 2-CPU nodes with one 1.5-CPU pod each; once the pods are re-created at 0.4 CPU
    // the four fit one node, and consolidation leaves exactly one.
    let od = pool("on-demand", "small", "WhenEmptyOrUnderutilized", "", "");
    let mut parts = vec![od];
    for name in ["a", "b", "c", "d"] {
        parts.push(deployment(name, 1, "1500m", ""));
    }
    let mut steps = String::new();
    for name in ["a", "b", "c", "d"] {
        steps.push_str(&format!(
            "  - at: 3m\n    apply:\n      apiVersion: apps/v1\n      kind: Deployment\
             \n      metadata: {{name: {name}}}\n      spec:\n        replicas: 1\
             \n        selector: {{matchLabels: {{app: {name}}}}}\n        template:\
             \n          metadata: {{labels: {{app: {name}}}}}\n          spec:\
             \n            terminationGracePeriodSeconds: 0\n            containers: [{{name: c, \
             image: pause, resources: {{requests: {{cpu: 400m}}}}}}]\n"
        ));
    }
    parts.push(timeline(&steps));
    let r = run(&parts, 15);
    assert_eq!(
        types_of(&r),
        ["small/on-demand"],
        "{:?}",
        disrupting(&r.events)
    );
    assert_eq!(running(&r), 4);
}

// ----- what blocks it -----

fn pdb(spec: &str) -> String {
    format!(
        "\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: web}}\n\
         spec:\n  selector: {{matchLabels: {{app: web}}}}\n  {spec}\n"
    )
}

#[test]
fn a_pod_disruption_budget_that_allows_nothing_blocks_consolidation() {
    let od = pool(
        "on-demand",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "",
    );
    let r = run(
        &[
            od.clone(),
            deployment("web", 3, "1", ""),
            pdb("minAvailable: 1"),
            timeline(&scale("3m", "web", 1)),
        ],
        10,
    );
    assert_eq!(
        types_of(&r),
        ["large/on-demand"],
        "the one replica must stay up"
    );
    let blocked = blockers(&r.events, false);
    assert!(
        blocked.contains(&&Blocker::Pdb(
            "Pdb prevents pod evictions (PodDisruptionBudget=[default/web])".into()
        )),
        "{blocked:?}"
    );

    // maxUnavailable: 1 allows the eviction.
    let r = run(
        &[
            od,
            deployment("web", 3, "1", ""),
            pdb("maxUnavailable: 1"),
            timeline(&scale("3m", "web", 1)),
        ],
        10,
    );
    assert_eq!(types_of(&r), ["small/on-demand"]);
}

#[test]
fn do_not_disrupt_pods_block_consolidation_but_not_expiration() {
    let dnd = "      annotations: {karpenter.sh/do-not-disrupt: \"true\"}";
    let od = pool(
        "on-demand",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "",
    );
    let r = run(
        &[
            od,
            deployment("web", 3, "1", dnd),
            timeline(&scale("3m", "web", 1)),
        ],
        10,
    );
    assert_eq!(types_of(&r), ["large/on-demand"]);
    assert!(
        blockers(&r.events, false)
            .iter()
            .any(|b| matches!(b, Blocker::PodDoNotDisrupt(pod) if pod.starts_with("default/web-")))
    );

    // Expiration deletes the NodeClaim anyway; the drain waits for the pod until the
    // NodeClaim's terminationGracePeriod (2m) runs out, then deletes it.
    let expiring = pool(
        "on-demand",
        "small, large",
        "WhenEmpty",
        "      expireAfter: 5m\n      terminationGracePeriod: 2m",
        "",
    );
    let r = run(&[expiring, deployment("web", 1, "1", dnd)], 9);
    let expired = events(&r.events, |k| matches!(k, EventKind::Expired { .. }));
    assert_eq!(expired.len(), 1, "{:?}", r.events);
    let (evicted, _, forced) = *evicted(&r.events).first().expect("the pod goes in the end");
    assert!(
        forced,
        "deleted when terminationGracePeriod ran out: {evicted:?}"
    );
    assert!(
        evicted.time - expired[0].time >= 120_000,
        "{} vs {}",
        evicted.time,
        expired[0].time
    );
    assert_eq!(running(&r), 1, "re-provisioned");
}

#[test]
fn a_drain_blocked_by_a_pod_disruption_budget_waits_without_keeping_the_clock_busy() {
    let expiring = pool(
        "on-demand",
        "small",
        "WhenEmpty",
        "      expireAfter: 5m",
        "",
    );
    let text = format!(
        "{CATALOG}{expiring}{}{}",
        deployment("web", 1, "1", ""),
        pdb("minAvailable: 1")
    );
    let s = kpg::simulate(&text, None).expect("scenario runs");
    assert!(
        s.now < 10 * 60_000,
        "at rest soon after the expiry, not at the one-hour limit: {} ms",
        s.now
    );
    let r = &s.report;
    assert_eq!(r.nodes.len(), 1);
    assert_eq!(r.nodes[0].state, "Deleting", "the node waits for its pod");
    assert!(
        !events(s.sim.events(), |k| matches!(
            k,
            EventKind::FailedDraining { .. }
        ))
        .is_empty(),
        "{:?}",
        s.sim.events()
    );
    assert_eq!(running(r), 1, "the protected pod keeps running");
}

#[test]
fn a_replacement_that_could_only_launch_as_unoffered_spot_is_not_attempted() {
    // Nothing is offered as spot. A pool allowing both capacity types prices `small` at its
    // on-demand price (cheaper than the node) but would pin the replacement to spot, which
    // cannot launch: Karpenter leaves the node.
    let catalog_od_only = CATALOG
        .replace("  - {zone: z1, capacityType: spot, price: 0.03}\n", "")
        .replace("  - {zone: z1, capacityType: spot, price: 0.12}\n", "");
    let both = pool(
        "on-demand, spot",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "",
    );
    let od = both.replace("values: [on-demand, spot]", "values: [on-demand]");
    let apply = apply_pool("3m", &both);
    let text = format!(
        "{catalog_od_only}{od}{}{}",
        deployment("web", 3, "1", ""),
        timeline(&format!("{}{apply}", scale("3m", "web", 1)))
    );
    let s = kpg::simulate(&text, None).expect("scenario runs");
    assert!(s.now < 10 * 60_000, "no endless retries: {} ms", s.now);
    assert_eq!(types_of(&s.report), ["large/on-demand"]);
    let why = blockers(s.sim.events(), true);
    assert!(
        why.iter().any(|b| matches!(b, Blocker::NotCheaper(Some(d))
                if d.contains("no cheaper option offers spot"))),
        "{why:?}"
    );
}

#[test]
fn a_budget_for_one_reason_leaves_the_others_alone() {
    let budgets = "    budgets:\n    - {nodes: \"0\", reasons: [Underutilized]}";
    let od = pool(
        "on-demand",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        budgets,
    );
    // Underutilized is blocked: the large node stays after the scale-down...
    let r = run(
        &[
            od.clone(),
            deployment("web", 3, "1", ""),
            timeline(&scale("3m", "web", 1)),
        ],
        10,
    );
    assert_eq!(types_of(&r), ["large/on-demand"]);
    // ... but an empty node still goes (reason Empty).
    let r = run(
        &[
            od,
            deployment("web", 3, "1", ""),
            timeline(&scale("3m", "web", 0)),
        ],
        10,
    );
    assert!(r.nodes.is_empty(), "{:?}", types_of(&r));
}

// ----- drift -----

fn apply_pool(at: &str, pool_yaml: &str) -> String {
    let body: String = pool_yaml
        .lines()
        .skip(2)
        .map(|l| format!("      {l}\n"))
        .collect();
    format!("  - at: {at}\n    apply:\n{body}")
}

#[test]
fn drift_replaces_nodes_for_template_changes_and_narrowed_requirements() {
    let base = pool("on-demand", "small, large", "WhenEmpty", "", "");
    let labelled = pool("on-demand", "small, large", "WhenEmpty", "", "").replace(
        "    spec:\n      nodeClassRef",
        "    metadata: {labels: {team: a}}\n    spec:\n      nodeClassRef",
    );
    let r = run(
        &[
            base.clone(),
            deployment("web", 1, "1", ""),
            timeline(&apply_pool("3m", &labelled)),
        ],
        10,
    );
    assert!(
        drifted(&r.events).contains(&DriftReason::NodePoolDrifted),
        "{:?}",
        r.events
    );
    assert_eq!(r.nodes.len(), 1);
    assert_eq!(
        r.nodes[0].labels.get("team").map(String::as_str),
        Some("a"),
        "the replacement carries the new label"
    );
    assert!(
        disrupting(&r.events)
            .iter()
            .any(|d| (d.decision(), d.reason) == (Decision::Replace, Reason::Drifted))
    );

    let narrowed = pool("on-demand", "large", "WhenEmpty", "", "");
    let r = run(
        &[
            base,
            deployment("web", 1, "1", ""),
            timeline(&apply_pool("3m", &narrowed)),
        ],
        10,
    );
    assert!(drifted(&r.events).contains(&DriftReason::RequirementsDrifted));
    assert_eq!(types_of(&r), ["large/on-demand"]);
}

#[test]
fn limits_weight_budgets_and_widened_requirements_do_not_drift() {
    let base = pool("on-demand", "small", "WhenEmpty", "", "");
    let changed = pool(
        "on-demand",
        "small, large",
        "WhenEmpty",
        "",
        "  limits: {cpu: \"100\"}\n  weight: 50",
    )
    .replace(
        "    consolidateAfter: 0s",
        "    consolidateAfter: 0s\n    budgets: [{nodes: \"1\"}]",
    );
    let r = run(
        &[
            base,
            deployment("web", 1, "1", ""),
            timeline(&apply_pool("3m", &changed)),
        ],
        10,
    );
    assert!(drifted(&r.events).is_empty(), "{:?}", drifted(&r.events));
    assert_eq!(types_of(&r), ["small/on-demand"]);
    assert!(r.nodeclaims.iter().all(|c| c.drifted.is_none()));
}

#[test]
fn a_new_ami_behind_latest_drifts_nodes() {
    let base = pool("on-demand", "small", "WhenEmpty", "", "");
    let r = run(&[base.clone(), deployment("web", 1, "1", "")], 3);
    let before = r.nodeclaims[0].image_id.clone();
    let r = run(
        &[
            base,
            deployment("web", 1, "1", ""),
            timeline("  - {at: 3m, releaseAmi: {alias: al2023}}"),
        ],
        10,
    );
    assert!(drifted(&r.events).contains(&DriftReason::AmiDrift));
    assert_eq!(r.nodeclaims.len(), 1);
    assert_ne!(
        r.nodeclaims[0].image_id, before,
        "the replacement runs the new AMI"
    );
    assert_eq!(running(&r), 1);
}

/// Drift simulates only the pods that can move now (`IsCurrentlyReschedulable`, v1.4.0+). A
/// drifted node with a `terminationGracePeriod` is a candidate even when `do-not-disrupt` or
/// a fully blocking PDB holds its pods, but no capacity is pre-spun for them: the node is
/// deleted without a replacement, the pod is deleted when the grace period runs out, and only
/// then does its new copy get a node. A PDB that merely has no disruption left now (not fully
/// blocking) leaves the pod in the simulation, so its replacement is launched first.
#[test]
fn a_drifted_node_whose_pods_cannot_move_now_gets_no_replacement() {
    let graceful = pool(
        "on-demand",
        "small",
        "WhenEmpty",
        "      terminationGracePeriod: 5m",
        "",
    );
    let release = timeline("  - {at: 3m, releaseAmi: {alias: al2023}}");
    let dnd = "      annotations: {karpenter.sh/do-not-disrupt: \"true\"}";
    let held_by_annotation = vec![
        graceful.clone(),
        deployment("web", 1, "1", dnd),
        release.clone(),
    ];
    let held_by_pdb = vec![
        graceful.clone(),
        deployment("web", 1, "1", ""),
        pdb("maxUnavailable: 0"),
        release.clone(),
    ];
    for parts in [held_by_annotation, held_by_pdb] {
        let r = run(&parts, 15);
        let commands = disrupting(&r.events);
        assert_eq!(commands.len(), 1, "{:#?}", r.events);
        assert_eq!(
            (commands[0].decision(), commands[0].reason),
            (Decision::Delete, Reason::Drifted),
            "{commands:?}"
        );
        let (evicted, _, forced) = evicted(&r.events)[0];
        assert!(forced, "{evicted:?}");
        assert!(
            evicted.time >= 480_000,
            "the pod stays until 3m + 5m: {}",
            evicted.time
        );
        let created: Vec<f64> = events(&r.events, |k| matches!(k, EventKind::Created { .. }))
            .iter()
            .map(|e| secs(e.time))
            .collect();
        assert_eq!(
            created.len(),
            2,
            "the first node and, after the pod left, one more: {created:?}"
        );
        assert!(
            created[1] >= secs(evicted.time),
            "no NodeClaim launched before the pod could move: {created:?}"
        );
        assert_eq!(running(&r), 1);
    }

    // minAvailable 1 of 1 allows no eviction now but does not block every eviction: the pod
    // counts, and its replacement is launched before the old node goes.
    let r = run(
        &[
            graceful,
            deployment("web", 1, "1", ""),
            pdb("minAvailable: 1"),
            release,
        ],
        15,
    );
    let commands = disrupting(&r.events);
    assert_eq!(
        (commands[0].decision(), commands[0].reason),
        (Decision::Replace, Reason::Drifted),
        "{commands:?}"
    );
    assert!(events(&r.events, |k| matches!(k, EventKind::Created { .. }))[1].time < 200_000);
}

// ----- expiration, interruption, deletion -----

#[test]
fn expired_nodes_go_and_their_pods_are_provisioned_again() {
    let expiring = pool(
        "on-demand",
        "small",
        "WhenEmpty",
        "      expireAfter: 10m",
        "",
    );
    let r = run(&[expiring, deployment("web", 1, "1", "")], 15);
    assert_eq!(
        events(&r.events, |k| matches!(k, EventKind::Expired { .. })).len(),
        1
    );
    assert_eq!(r.nodes.len(), 1, "a new node for the evicted pod");
    assert!(seconds(&r.nodes[0].created_at) >= 600.0);
    assert_eq!(running(&r), 1);
}

#[test]
fn a_spot_interruption_gives_two_minutes_and_a_new_node() {
    let spot = pool("spot", "small", "WhenEmpty", "", "");
    let r = run(
        &[
            spot,
            deployment("web", 1, "1", ""),
            timeline("  - {at: 3m, interrupt: {nodepool: default}}"),
        ],
        8,
    );
    let warning = events(&r.events, |k| {
        matches!(k, EventKind::SpotInterrupted { .. })
    });
    assert_eq!(warning.len(), 1);
    assert!(
        matches!(
            warning[0].kind,
            EventKind::SpotInterrupted {
                reclaim_at: 300_000,
                ..
            }
        ),
        "reclaimed two minutes after the warning at 3m: {warning:?}"
    );
    assert_eq!(r.nodes.len(), 1, "the interrupted node is gone");
    // small/z1/spot is the pool's only offering, and the interruption put it in the
    // unavailable-offerings cache for 3 minutes: the pod waits for the cache, not for EC2.
    assert!(
        seconds(&r.nodes[0].created_at) >= 360.0,
        "{}",
        r.nodes[0].created_at
    );
    assert_eq!(running(&r), 1);

    let od = pool("on-demand", "small", "WhenEmpty", "", "");
    let r = run(
        &[
            od,
            deployment("web", 1, "1", ""),
            timeline("  - {at: 3m, interrupt: {nodepool: default}}"),
        ],
        6,
    );
    let skipped = EventKind::TimelineSkipped(Skip::NothingToInterrupt {
        target: InterruptTarget::NodePool("default".into()),
    });
    assert!(
        r.events.iter().any(|e| e.kind == skipped),
        "on-demand nodes get no spot warning: {:?}",
        r.events
    );
}

#[test]
fn critical_pods_are_drained_after_the_others() {
    let critical = deployment("dns", 1, "100m", "").replace(
        "    spec:\n      terminationGracePeriodSeconds: 0",
        "    spec:\n      priorityClassName: system-cluster-critical\
         \n      terminationGracePeriodSeconds: 0",
    );
    let expiring = pool(
        "on-demand",
        "small",
        "WhenEmpty",
        "      expireAfter: 5m",
        "",
    );
    let r = run(&[expiring, deployment("web", 1, "100m", ""), critical], 6);
    let order: Vec<&str> = evicted(&r.events).iter().map(|e| e.1).collect();
    assert_eq!(order.len(), 2, "{order:?}");
    assert!(
        order[0].starts_with("web-") && order[1].starts_with("dns-"),
        "{order:?}"
    );
}

#[test]
fn daemon_set_pods_that_tolerate_everything_are_not_drained() {
    let daemons = r#"
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      tolerations: [{operator: Exists}]
      containers: [{name: c, image: pause, resources: {requests: {cpu: 50m}}}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: logs}
spec:
  selector: {matchLabels: {app: logs}}
  template:
    metadata: {labels: {app: logs}}
    spec:
      containers: [{name: c, image: pause, resources: {requests: {cpu: 50m}}}]
"#;
    let expiring = pool(
        "on-demand",
        "small",
        "WhenEmpty",
        "      expireAfter: 5m",
        "",
    );
    let r = run(
        &[
            expiring,
            deployment("web", 1, "100m", ""),
            daemons.to_string(),
        ],
        6,
    );
    let evicted: Vec<&str> = evicted(&r.events).iter().map(|e| e.1).collect();
    assert!(evicted.iter().any(|o| o.starts_with("web-")), "{evicted:?}");
    assert!(
        evicted.iter().any(|o| o.starts_with("logs-")),
        "a DaemonSet pod without the toleration is drained: {evicted:?}"
    );
    assert!(
        !evicted.iter().any(|o| o.starts_with("agent-")),
        "one that tolerates the disrupted taint stays: {evicted:?}"
    );
}

#[test]
fn deleting_an_ec2nodeclass_waits_for_its_nodeclaims() {
    let od = pool("on-demand", "small", "WhenEmpty", "", "");
    let steps = "  - {at: 3m, delete: {kind: EC2NodeClass, name: default}}\
                 \n  - {at: 4m, scale: {kind: Deployment, name: web, replicas: 2}}\
                 \n  - {at: 6m, delete: {kind: NodePool, name: default}}\n";
    let r = run(
        &[od.clone(), deployment("web", 1, "1", ""), timeline(steps)],
        5,
    );
    assert_eq!(r.nodes.len(), 1, "the node stays");
    assert!(r.events.iter().any(
        |e| matches!(&e.kind, EventKind::NodeClassWaiting { node_class, .. }
            if node_class == "default")
    ));
    assert!(!r.nodepools[0].ready, "its NodePool can no longer launch");
    assert_eq!(running(&r), 1, "the new replica has nowhere to go");
    let r = run(&[od, deployment("web", 1, "1", ""), timeline(steps)], 8);
    assert!(r.nodes.is_empty());
    assert!(
        r.events.iter().any(
            |e| matches!(&e.kind, EventKind::NodeClassDeleted { node_class }
                if node_class == "default")
        ),
        "deleted once its NodeClaims are gone"
    );
}

#[test]
fn disruption_reports_are_byte_identical_across_runs() {
    let od = pool(
        "on-demand",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "",
    );
    let parts = [
        od,
        deployment("web", 5, "1", ""),
        timeline(&format!(
            "{}  - {{at: 5m, releaseAmi: {{alias: al2023}}}}\n",
            scale("3m", "web", 2)
        )),
    ];
    let a = serde_json::to_string(&run(&parts, 15).report).unwrap();
    let b = serde_json::to_string(&run(&parts, 15).report).unwrap();
    assert_eq!(a, b);
}

// ----- what the terminal's kubectl changes do (cordon, annotate, delete a node or a pod) -----

/// The one node a small scenario launches, by name (names are stable for a scenario and seed).
fn only_node(r: &Report) -> String {
    assert_eq!(r.nodes.len(), 1, "{:?}", r.nodes);
    r.nodes[0].name.clone()
}

#[test]
fn a_cordoned_node_takes_no_new_pods_and_uncordon_gives_it_back() {
    let od = pool("on-demand", "large", "WhenEmpty", "", "");
    let node = only_node(&run(&[od.clone(), deployment("web", 1, "1", "")], 2));
    let steps = format!(
        "  - {{at: 2m, cordon: {{node: {node}}}}}\n{}",
        scale("3m", "web", 2)
    );
    let r = run(
        &[od.clone(), deployment("web", 1, "1", ""), timeline(&steps)],
        6,
    );
    let first = r
        .nodes
        .iter()
        .find(|n| n.name == node)
        .expect("the cordoned node stays");
    assert!(
        first
            .taints
            .iter()
            .any(|t| t.key == "node.kubernetes.io/unschedulable" && t.effect == "NoSchedule")
    );
    assert_eq!(
        first.pods.len(),
        1,
        "its pod keeps running, the new one does not land there"
    );
    assert_eq!(
        r.nodes.len(),
        2,
        "Karpenter launches a node for the second replica"
    );
    assert!(r.events.iter().any(|e| e.kind
        == EventKind::Cordoned {
            node: node.clone(),
            unschedulable: true
        }));

    let steps = format!(
        "  - {{at: 2m, cordon: {{node: {node}}}}}\n  - {{at: 2m30s, cordon: {{node: {node}, \
         unschedulable: false}}}}\n{}",
        scale("3m", "web", 2)
    );
    let r = run(&[od, deployment("web", 1, "1", ""), timeline(&steps)], 6);
    assert_eq!(
        r.nodes.len(),
        1,
        "uncordoned, the node takes the second replica"
    );
    assert_eq!(r.nodes[0].pods.len(), 2);
}

#[test]
fn annotating_a_node_do_not_disrupt_holds_it_until_the_annotation_goes() {
    let od = pool(
        "on-demand",
        "small, large",
        "WhenEmptyOrUnderutilized",
        "",
        "",
    );
    let node = only_node(&run(&[od.clone(), deployment("web", 3, "1", "")], 2));
    let hold = format!(
        "  - {{at: 2m, annotate: {{kind: Node, name: {node}, set: \
         {{karpenter.sh/do-not-disrupt: \"true\"}}}}}}\n{}",
        scale("3m", "web", 1)
    );
    let r = run(
        &[od.clone(), deployment("web", 3, "1", ""), timeline(&hold)],
        10,
    );
    assert_eq!(types_of(&r), ["large/on-demand"], "held");
    let blocked = blockers(&r.events, false);
    assert!(blocked.contains(&&Blocker::NodeDoNotDisrupt), "{blocked:?}");

    let release = format!(
        "{hold}  - {{at: 10m, annotate: {{kind: Node, name: {node}, remove: \
         [karpenter.sh/do-not-disrupt]}}}}\n"
    );
    let r = run(&[od, deployment("web", 3, "1", ""), timeline(&release)], 16);
    assert_eq!(
        types_of(&r),
        ["small/on-demand"],
        "consolidated once the annotation is removed"
    );
}

#[test]
fn deleting_a_node_drains_it_and_its_pods_get_a_new_one() {
    let od = pool("on-demand", "small", "WhenEmpty", "", "");
    let node = only_node(&run(&[od.clone(), deployment("web", 1, "1", "")], 2));
    let steps = format!("  - {{at: 3m, delete: {{kind: Node, name: {node}}}}}\n");
    let r = run(&[od, deployment("web", 1, "1", ""), timeline(&steps)], 8);
    assert_eq!(r.nodes.len(), 1);
    assert_ne!(
        r.nodes[0].name, node,
        "the deleted node is gone, a new one runs the pod"
    );
    assert_eq!(running(&r), 1);
}

#[test]
fn deleting_a_replica_pod_gets_a_new_replica() {
    let od = pool("on-demand", "large", "WhenEmpty", "", "");
    let r = run(&[od.clone(), deployment("web", 2, "1", "")], 2);
    let mut names: Vec<String> = r.pods.iter().map(|p| p.name.clone()).collect();
    names.sort();
    let steps = format!(
        "  - {{at: 3m, delete: {{kind: Pod, name: {}}}}}\n",
        names[0]
    );
    let r = run(&[od, deployment("web", 2, "1", ""), timeline(&steps)], 5);
    let live: Vec<&str> = r
        .pods
        .iter()
        .filter(|p| p.phase == "Running")
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(live.len(), 2, "{live:?}");
    assert!(!live.contains(&names[0].as_str()), "{live:?}");
}

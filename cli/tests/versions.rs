//! The Karpenter a scenario assumes (`Cluster.spec.karpenter`): the same manifests under two
//! versions, two gate settings or two settings, through `kpg simulate`, each pair differing
//! where upstream differs. Each behaviour names the upstream file and tags that decide it.

mod common;

use common::{JsonRun, nodes, simulate_run, str_of};
use kpg_core::disruption::Reason;
use kpg_core::sim::EventKind;
use kpg_core::sim::evidence::Blocker;
use serde_json::Value;

/// A Cluster document with a `karpenter` block (`extra` is indented under it).
fn cluster(version: &str, extra: &str) -> String {
    format!(
        "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\nmetadata: {{name: c}}\n\
         spec:\n  region: us-east-1\n  zones: [us-east-1a]\n  karpenter:\n    version: \
         {version}\n{extra}"
    )
}

const CLASS: &str = "
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  role: r
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {k: v}}]
  securityGroupSelectorTerms: [{tags: {k: v}}]
";

/// A NodePool over the built-in catalog; `requirements` are list items, `extra` goes under
/// `spec`.
fn pool(requirements: &str, extra: &str) -> String {
    format!(
        "
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: default}}
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements:
{requirements}
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 0s
{extra}"
    )
}

/// A requirement list item `key In [values]`.
fn req(key: &str, values: &str) -> String {
    format!("      - {{key: {key}, operator: In, values: [{values}]}}\n")
}

/// On-demand only, of the instance types named.
fn on_demand_of(types: &str) -> String {
    req("karpenter.sh/capacity-type", "on-demand") + &req("node.kubernetes.io/instance-type", types)
}

fn deployment(name: &str, replicas: u32, cpu: &str, spec_extra: &str) -> String {
    format!(
        "
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      terminationGracePeriodSeconds: 0
{spec_extra}
      containers:
      - name: c
        image: pause
        resources: {{requests: {{cpu: \"{cpu}\"}}}}
"
    )
}

fn timeline(steps: &str) -> String {
    format!(
        "\n---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\n\
         metadata: {{name: t}}\nspec:\n  steps:\n{steps}"
    )
}

fn unconsolidatable(r: &JsonRun) -> Vec<&Blocker> {
    r.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Unconsolidatable { blocker, .. } => Some(blocker),
            _ => None,
        })
        .collect()
}

fn disruptions(r: &JsonRun) -> Vec<(u64, &kpg_core::sim::event::Disruption)> {
    r.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Disrupting(d) => Some((e.time, d)),
            _ => None,
        })
        .collect()
}

fn node_types(report: &Value) -> Vec<String> {
    let mut t: Vec<String> = nodes(report)
        .iter()
        .map(|n| {
            format!(
                "{}/{}",
                str_of(n, "instanceType").unwrap_or(""),
                str_of(n, "capacityType").unwrap_or("")
            )
        })
        .collect();
    t.sort();
    t
}

// ----- spot-to-spot consolidation (`consolidation.go`, v1.0-v1.14.1) -----

/// Four 1-CPU pods on one spot node, then three go: the node is four times too big.
fn shrinking_spot_node(version: &str, gates: &str, types: &str) -> String {
    let requirements = format!(
        "      - {{key: karpenter.sh/capacity-type, operator: In, values: [spot]}}\n{types}"
    );
    format!(
        "{}{CLASS}{}{}{}",
        cluster(version, gates),
        pool(&requirements, ""),
        deployment("web", 4, "1", ""),
        timeline("  - {at: 3m, scale: {kind: Deployment, name: web, replicas: 1}}\n")
    )
}

const MANY_TYPES: &str =
    "      - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}\n";
const FEW_TYPES: &str = "      - {key: node.kubernetes.io/instance-type, operator: In, values: \
                         [m5.large, m5.xlarge, m5.2xlarge, c5.large, c5.xlarge, c5.2xlarge]}\n";

#[test]
fn spot_nodes_are_replaced_by_cheaper_spot_nodes_only_with_the_gate() {
    let off = simulate_run(&shrinking_spot_node("v1.14", "", MANY_TYPES), "12m");
    assert!(
        unconsolidatable(&off).contains(&&Blocker::SpotToSpot),
        "{:?}",
        unconsolidatable(&off)
    );
    assert!(disruptions(&off).is_empty());

    let gates = "    featureGates: {SpotToSpotConsolidation: true}\n";
    let on = simulate_run(&shrinking_spot_node("v1.14", gates, MANY_TYPES), "12m");
    let replaced = disruptions(&on);
    assert_eq!(replaced.len(), 1, "{replaced:?}");
    let (_, d) = replaced[0];
    assert_eq!(d.reason, Reason::Underutilized);
    assert_eq!(d.replacements.len(), 1);
    assert!(d.savings.is_some_and(|s| s > 0));
    let kinds = node_types(&on);
    assert_eq!(kinds.len(), 1);
    assert!(kinds[0].ends_with("/spot"), "{kinds:?}");
    assert_ne!(
        node_types(&off),
        kinds,
        "a smaller spot node replaced the big one"
    );
}

#[test]
fn a_single_spot_node_needs_fifteen_cheaper_spot_types() {
    let gates = "    featureGates: {SpotToSpotConsolidation: true}\n";
    let r = simulate_run(&shrinking_spot_node("v1.14", gates, FEW_TYPES), "12m");
    let why = unconsolidatable(&r);
    assert!(
        why.iter()
            .any(|b| matches!(b, Blocker::SpotToSpotTooFew(n) if *n > 0 && *n < 15)),
        "{why:?}"
    );
    assert!(disruptions(&r).is_empty());
    // Said in Karpenter's words.
    let text = why
        .iter()
        .find(|b| matches!(b, Blocker::SpotToSpotTooFew(_)))
        .unwrap()
        .message();
    assert!(
        text.starts_with("SpotToSpotConsolidation requires 15 cheaper instance type options"),
        "{text}"
    );
}

// ----- the disruption controller's order (`controller.go`: v1.0-v1.4 drift first) -----

#[test]
fn emptiness_runs_before_drift_from_v1_5() {
    // Two nodes (one pod each, kept apart); at 3m one pod goes and the NodePool changes, so
    // one node is empty and both have drifted.
    let apart = "      affinity:\n        podAntiAffinity:\n          \
                 requiredDuringSchedulingIgnoredDuringExecution:\n          - labelSelector: \
                 {matchLabels: {app: web}}\n            topologyKey: kubernetes.io/hostname\n";
    let requirements = &on_demand_of("m5.large");
    let changed = pool(requirements, "").replace(
        "      nodeClassRef:",
        "      taints: [{key: example.com/new, effect: PreferNoSchedule}]\n      nodeClassRef:",
    );
    let apply: String = changed
        .lines()
        .skip(2)
        .map(|l| format!("      {l}\n"))
        .collect();
    let first_reason = |version: &str| {
        let text = format!(
            "{}{CLASS}{}{}{}",
            cluster(version, ""),
            pool(requirements, ""),
            deployment("web", 2, "1", apart),
            timeline(&format!(
                "  - {{at: 3m, scale: {{kind: Deployment, name: web, replicas: 1}}}}\n  - at: \
                 3m\n    apply:\n{apply}"
            ))
        );
        let r = simulate_run(&text, "10m");
        disruptions(&r).first().map(|(_, d)| d.reason)
    };
    assert_eq!(first_reason("v1.5"), Some(Reason::Empty));
    assert_eq!(first_reason("v1.4"), Some(Reason::Drifted));
}

// ----- consolidation destinations (`IsUnderConsolidateAfter`, v1.14.0, #3006) -----

#[test]
fn consolidation_moves_pods_onto_nodes_inside_consolidate_after_before_v1_14() {
    // A 1.5-CPU pod on a small node; at 3m a 5-CPU pod lands on a new large node, which
    // then sits inside its 5-minute consolidateAfter. The small node's pod fits beside it.
    let requirements = &on_demand_of("m5.large, m5.2xlarge");
    let deleted_at = |version: &str| {
        let text = format!(
            "{}{CLASS}{}{}{}{}",
            cluster(version, ""),
            pool(requirements, "").replace("consolidateAfter: 0s", "consolidateAfter: 5m"),
            deployment("a", 1, "1500m", ""),
            deployment("b", 0, "5", ""),
            timeline("  - {at: 3m, scale: {kind: Deployment, name: b, replicas: 1}}\n")
        );
        let r = simulate_run(&text, "20m");
        let deletes: Vec<u64> = disruptions(&r)
            .iter()
            .filter(|(_, d)| d.replacements.is_empty())
            .map(|(t, _)| *t)
            .collect();
        assert_eq!(deletes.len(), 1, "{version}: {:?}", disruptions(&r));
        deletes[0]
    };
    let v13 = deleted_at("v1.13");
    let v14 = deleted_at("v1.14");
    // The small node's own consolidateAfter ends at 5m (its pod bound at ~1m); on v1.13 it
    // goes then, on v1.14 only once the large node (bound at ~4m) is past its window.
    assert!(v13 < 8 * 60_000, "v1.13 deleted it at {v13} ms");
    assert!(v14 >= 8 * 60_000, "v1.14 deleted it at {v14} ms");
    // Meanwhile `kpg explain` says why, naming the version and the node kept off.
    let text = format!(
        "{}{CLASS}{}{}{}{}",
        cluster("v1.14", ""),
        pool(requirements, "").replace("consolidateAfter: 0s", "consolidateAfter: 5m"),
        deployment("a", 1, "1500m", ""),
        deployment("b", 0, "5", ""),
        timeline("  - {at: 3m, scale: {kind: Deployment, name: b, replicas: 1}}\n")
    );
    let at6 = simulate_run(&text, "6m");
    let name_of = |t: &str| {
        nodes(&at6.report)
            .iter()
            .find(|n| str_of(n, "instanceType") == Some(t))
            .and_then(|n| str_of(n, "name"))
            .expect("the node")
            .to_string()
    };
    let (small, large) = (name_of("m5.large"), name_of("m5.2xlarge"));
    let out = common::kpg_stdin(
        &["explain", "-", "--at", "6m", "--node", &small],
        text.as_bytes(),
    );
    let said = common::stdout(&out);
    assert!(
        said.contains(&format!(
            "v1.14: consolidation moves no pods onto nodes still inside their NodePool's \
             consolidateAfter ({large})"
        )),
        "{said}"
    );
}

// ----- limits.nodes (v1.11.0, #2526) -----

#[test]
fn limits_nodes_caps_a_dynamic_pool_from_v1_11() {
    let apart = "      affinity:\n        podAntiAffinity:\n          \
                 requiredDuringSchedulingIgnoredDuringExecution:\n          - labelSelector: \
                 {matchLabels: {app: web}}\n            topologyKey: kubernetes.io/hostname\n";
    let requirements =
        "      - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}\n";
    let count = |version: &str| {
        let text = format!(
            "{}{CLASS}{}{}",
            cluster(version, ""),
            pool(requirements, "  limits: {nodes: 2}\n"),
            deployment("web", 3, "1", apart),
        );
        nodes(&simulate_run(&text, "5m").report).len()
    };
    assert_eq!(count("v1.11"), 2);
    assert_eq!(
        count("v1.10"),
        3,
        "before v1.11 no node has a `nodes` capacity to count"
    );
}

// ----- settings -----

#[test]
fn preference_policy_ignore_schedules_without_preferred_affinity() {
    // The pod prefers zone z2, where its only instance type costs more; Karpenter tries the
    // preference first (Respect), or never sees it (Ignore) and launches in cheaper z1.
    let prefer_z2 = "      affinity:\n        nodeAffinity:\n          \
                     preferredDuringSchedulingIgnoredDuringExecution:\n          - \
                     weight: 1\n            \
                     preference: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: \
                     In, values: [z2]}]}\n";
    let catalog = "
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: t1}
spec:
  cpu: \"2\"
  memory: 8Gi
  offerings:
  - {zone: z1, capacityType: on-demand, price: 0.10}
  - {zone: z2, capacityType: on-demand, price: 0.12}
";
    let zone_of = |settings: &str| {
        let text = format!(
            "{}{catalog}{CLASS}{}{}",
            cluster("v1.14", settings).replace("  zones: [us-east-1a]\n", ""),
            pool(
                "      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}\n",
                ""
            ),
            deployment("web", 1, "1", prefer_z2),
        );
        let r = simulate_run(&text, "3m");
        let n = nodes(&r.report);
        assert_eq!(n.len(), 1);
        n[0]["zone"].as_str().unwrap_or_default().to_string()
    };
    assert_eq!(zone_of(""), "z2");
    let ignore = "    settings: {preferencePolicy: Ignore}\n";
    assert_eq!(zone_of(ignore), "z1");
    // v1.3 has no such setting: the preference is respected, and the reader says so.
    let old = cluster("v1.3", ignore);
    let l = kpg_manifests::load(&old);
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "needs-newer-karpenter")
    );
}

#[test]
fn min_values_best_effort_launches_what_strict_refuses() {
    // Two families are asked for, and the instance types allowed are all m5.
    let requirements = "      - {key: karpenter.k8s.aws/instance-family, operator: In, \
                        values: [m5, m6i], minValues: 2}\n"
        .to_string()
        + &req("node.kubernetes.io/instance-type", "m5.large, m5.xlarge");
    let run = |settings: &str| {
        let text = format!(
            "{}{CLASS}{}{}",
            cluster("v1.14", settings),
            pool(&requirements, ""),
            deployment("web", 1, "1", ""),
        );
        simulate_run(&text, "3m")
    };
    let strict = run("");
    assert!(nodes(&strict.report).is_empty());
    assert!(strict.events.iter().any(|e| matches!(
        &e.kind,
        EventKind::NoCompatibleInstanceTypes {
            min_values: true,
            ..
        }
    )));
    let best = run("    settings: {minValuesPolicy: BestEffort}\n");
    assert_eq!(nodes(&best.report).len(), 1);
    assert!(
        !best
            .events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::NoCompatibleInstanceTypes { .. }))
    );
}

#[test]
fn the_batch_window_follows_the_settings() {
    let requirements =
        "      - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}\n";
    let created_at = |settings: &str| {
        let text = format!(
            "{}{CLASS}{}{}",
            cluster("v1.14", settings),
            pool(requirements, ""),
            deployment("web", 1, "1", ""),
        );
        let r = simulate_run(&text, "1m");
        r.events
            .iter()
            .find(|e| matches!(e.kind, EventKind::Created { .. }))
            .map(|e| e.time)
            .expect("a NodeClaim")
    };
    let default = created_at("");
    let slower = created_at("    settings: {batchIdleDuration: 4s}\n");
    assert_eq!(slower - default, 3_000, "{default} {slower}");
}

// ----- Balanced consolidation (`balanced.go`, v1.14.0) -----

/// A 16-CPU node full of `big`'s pods and a 4-CPU node for `web`; at 3m `web` shrinks to
/// one pod, which a 2-CPU node 15 % cheaper could hold.
fn balanced_scenario(version: &str, policy: &str) -> String {
    let catalog = "
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: b16}
spec:
  cpu: \"16\"
  memory: 64Gi
  offerings: [{zone: z1, capacityType: on-demand, price: 0.40}]
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: m4}
spec:
  cpu: \"4\"
  memory: 16Gi
  offerings: [{zone: z1, capacityType: on-demand, price: 0.20}]
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: m2}
spec:
  cpu: \"2\"
  memory: 8Gi
  offerings: [{zone: z1, capacityType: on-demand, price: 0.17}]
";
    format!(
        "{}{catalog}{CLASS}{}{}{}{}",
        cluster(version, "").replace("  zones: [us-east-1a]\n", ""),
        pool(
            "      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}\n",
            ""
        )
        .replace("WhenEmptyOrUnderutilized", policy),
        deployment("big", 7, "2200m", ""),
        deployment("web", 0, "1500m", ""),
        timeline(
            "  - {at: 1m, scale: {kind: Deployment, name: web, replicas: 2}}\n  - {at: 3m, \
             scale: {kind: Deployment, name: web, replicas: 1}}\n"
        )
    )
}

#[test]
fn balanced_keeps_a_node_whose_move_saves_too_little_for_its_disruption() {
    let eager = simulate_run(
        &balanced_scenario("v1.14", "WhenEmptyOrUnderutilized"),
        "10m",
    );
    assert_eq!(node_types(&eager), ["b16/on-demand", "m2/on-demand"]);
    assert_eq!(disruptions(&eager).len(), 1);

    let text = balanced_scenario("v1.14", "Balanced");
    let balanced = simulate_run(&text, "10m");
    assert_eq!(node_types(&balanced), ["b16/on-demand", "m4/on-demand"]);
    assert!(disruptions(&balanced).is_empty());
    // Saves $0.03 of the pool's $0.60 (5 %) for 2 of its 10 units of disruption (20 %):
    // 0.25 < 0.5. Karpenter publishes no event for it; the explanation says it.
    let m4 = nodes(&balanced.report)
        .into_iter()
        .find(|n| str_of(n, "instanceType") == Some("m4"))
        .and_then(|n| str_of(n, "name").map(String::from))
        .expect("the m4 node");
    let out = common::kpg_stdin(
        &["explain", "-", "--at", "10m", "--node", &m4],
        text.as_bytes(),
    );
    let said = common::stdout(&out);
    assert!(
        said.contains("5.0 % of NodePool default's cost for 20.0 % of its disruption: 0.25 < 0.50"),
        "{said}{}",
        common::stderr(&out)
    );
    assert!(said.contains("Balanced (v1.14)"), "{said}");

    // Before v1.14 there is no Balanced: the API server refuses the NodePool.
    let l = kpg_manifests::load(&balanced_scenario("v1.13", "Balanced"));
    assert!(l.scenario.node_pools.is_empty());
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "needs-newer-karpenter" && d.message.contains("v1.14"))
    );
}

#[test]
fn balanced_approves_a_move_worth_its_disruption_and_says_so() {
    // At 3m `big` also loses a pod, which leaves room on b16 for `web`'s last one: deleting
    // the m4 node saves a third of the pool's $0.60 for 2 of its 9 units of disruption.
    let text = balanced_scenario("v1.14", "Balanced").replace(
        "replicas: 1}}\n",
        "replicas: 1}}\n  - {at: 3m, scale: {kind: Deployment, name: big, replicas: 6}}\n",
    );
    let r = simulate_run(&text, "10m");
    assert_eq!(node_types(&r), ["b16/on-demand"], "{:?}", disruptions(&r));
    let approved: Vec<String> = r
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ConsolidationApproved { .. }))
        .map(|e| e.kind.to_string())
        .collect();
    assert!(
        approved.first().is_some_and(|m| m
            .starts_with("score 1.50 >= threshold 0.50 (k: 2, savings 33.3%, disruption 22.2%)")),
        "{approved:?} {:#?}",
        disruptions(&r)
    );
}

#[test]
fn the_book_lists_exactly_what_is_keyed_on_the_version() {
    use kpg_core::karpenter::Behaviour;
    let book = common::workspace().join("docs/book/src/versions.md");
    let readme = std::fs::read_to_string(book).expect("the book's versions chapter");
    let rows: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| behaviour | from | upstream file"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    let expected: Vec<String> = Behaviour::ALL
        .iter()
        .map(|b| format!("| {} | {} | `{}` |", b.what(), b.since(), b.source()))
        .collect();
    assert_eq!(rows, expected, "the book's version table vs Behaviour::ALL");
}

// ----- static NodePools (`pkg/controllers/static/`, v1.8+, gate StaticCapacity) -----

fn static_scenario(version: &str, gates: &str, replicas: u32, extra: &str, steps: &str) -> String {
    let requirements = &on_demand_of("m5.large, m5.xlarge");
    let static_pool = pool(requirements, &format!("  replicas: {replicas}\n{extra}"))
        .replace("metadata: {name: default}", "metadata: {name: fixed}");
    let mut text = format!(
        "{}{CLASS}{static_pool}{}",
        cluster(version, gates),
        deployment("web", 1, "1", ""),
    );
    if !steps.is_empty() {
        text.push_str(&timeline(steps));
    }
    text
}

const STATIC_ON: &str = "    featureGates: {StaticCapacity: true}\n";

fn pools_of(report: &Value) -> Vec<String> {
    let mut v: Vec<String> = nodes(report)
        .iter()
        .map(|n| {
            format!(
                "{}/{}",
                str_of(n, "nodepool").unwrap_or("-"),
                str_of(n, "instanceType").unwrap_or("")
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_static_pool_holds_its_replicas_whatever_the_pods() {
    let r = simulate_run(&static_scenario("v1.14", STATIC_ON, 2, "", ""), "20m");
    // Two of the cheapest type the pool allows, launched with no pod asking; the pod runs
    // on one of them, and the other, empty, is never consolidated.
    assert_eq!(pools_of(&r), ["fixed/m5.large", "fixed/m5.large"]);
    assert!(disruptions(&r).is_empty());
    let running = common::pods(&r.report)
        .iter()
        .filter(|p| str_of(p, "phase") == Some("Running"))
        .count();
    assert_eq!(running, 1);
    let name = str_of(nodes(&r.report)[0], "name").unwrap().to_string();
    let text = static_scenario("v1.14", STATIC_ON, 2, "", "");
    let out = common::kpg_stdin(
        &["explain", "-", "--at", "20m", "--node", &name],
        text.as_bytes(),
    );
    assert!(
        common::stdout(&out).contains("NodePool fixed is static (2 replicas)"),
        "{}",
        common::stdout(&out)
    );

    // The gate is off by default: Karpenter ignores the pool (it is no template for pods
    // either), and the reader says which gate.
    let off = static_scenario("v1.14", "", 2, "", "");
    let r = simulate_run(&off, "5m");
    assert!(nodes(&r.report).is_empty());
    let l = kpg_manifests::load(&off);
    assert!(
        l.diagnostics.iter().any(
            |d| d.code.as_str() == "needs-feature-gate" && d.message.contains("StaticCapacity")
        ),
        "{:#?}",
        l.diagnostics
    );
    // v1.7's CRD has no `replicas`.
    let l = kpg_manifests::load(&static_scenario("v1.7", STATIC_ON, 2, "", ""));
    assert!(l.scenario.node_pools.is_empty());
}

#[test]
fn a_static_pool_scales_up_and_down_empty_nodes_first_within_its_node_limit() {
    let steps = "  - {at: 2m, scale: {kind: NodePool, name: fixed, replicas: 4}}\n  \
                 - {at: 6m, scale: {kind: NodePool, name: fixed, replicas: 1}}\n";
    let text = static_scenario("v1.14", STATIC_ON, 2, "  limits: {nodes: 3}\n", steps);
    let at = |until: &str| simulate_run(&text, until);
    assert_eq!(nodes(&at("1m").report).len(), 2);
    // Asked for 4, capped at `limits.nodes: 3`.
    assert_eq!(nodes(&at("5m").report).len(), 3);
    let end = at("15m");
    let left = nodes(&end.report);
    assert_eq!(left.len(), 1, "{:?}", pools_of(&end));
    // The node that stays is the one running the pod: empty nodes go first.
    let web_node = common::pods(&end.report)
        .iter()
        .find_map(|p| str_of(p, "node").map(String::from))
        .expect("web runs");
    assert_eq!(str_of(left[0], "name"), Some(web_node.as_str()));
    assert!(end.events.iter().any(|e| matches!(
        &e.kind,
        EventKind::Terminating {
            cause: kpg_core::sim::event::TerminationCause::StaticScaleDown,
            ..
        }
    )));
}

#[test]
fn kubectl_scales_a_static_node_pool_and_refuses_a_dynamic_one() {
    let text = static_scenario("v1.14", STATIC_ON, 2, "", "");
    let dir = std::env::temp_dir().join(format!("kpg-static-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("static.yaml");
    std::fs::write(&path, &text).unwrap();
    let p = path.to_str().unwrap();
    let out = common::kpg(&[
        "kubectl",
        p,
        "--at",
        "1m",
        "--",
        "scale",
        "nodepool",
        "fixed",
        "--replicas=3",
    ]);
    let said = common::stdout(&out);
    assert!(
        said.starts_with("nodepool.karpenter.sh/fixed scaled\n")
            && said.contains("scale: {kind: NodePool, name: fixed, replicas: 3}"),
        "{said}{}",
        common::stderr(&out)
    );
    let dynamic = text.replace("  replicas: 2\n", "");
    std::fs::write(&path, &dynamic).unwrap();
    let out = common::kpg(&[
        "kubectl",
        p,
        "--at",
        "1m",
        "--",
        "scale",
        "nodepool",
        "fixed",
        "--replicas=3",
    ]);
    assert!(
        common::stdout(&out)
            .contains("Cannot transition NodePool between static (replicas set) and dynamic")
            || common::stderr(&out).contains("Cannot transition NodePool between static"),
        "{}{}",
        common::stdout(&out),
        common::stderr(&out)
    );
}

// ----- node repair (`node/health/controller.go` v1.1-v1.14.1; v1.15 a disruption method) -----

const REPAIR_ON: &str = "    featureGates: {NodeRepair: true}\n";

/// Pods that each need a node of their own (1.5 CPU on m5.large), and a Timeline that turns
/// the oldest node (or the two oldest) of the pool not ready at 5m.
fn repair_scenario(version: &str, gates: &str, replicas: u32, sick: u32, extra: &str) -> String {
    let requirements = &on_demand_of("m5.large");
    let steps: String = (0..sick)
        .map(|_| "  - {at: 5m, nodeCondition: {nodepool: default, type: Ready, status: False}}\n")
        .collect();
    format!(
        "{}{CLASS}{}{}{}",
        cluster(version, gates),
        pool(requirements, extra),
        deployment("web", replicas, "1500m", ""),
        timeline(&steps)
    )
}

fn repaired(r: &JsonRun) -> Vec<(u64, String)> {
    r.events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Terminating {
                nodeclaim,
                cause:
                    kpg_core::sim::event::TerminationCause::Unhealthy
                    | kpg_core::sim::event::TerminationCause::Disruption(Reason::Repair),
            } => Some((e.time, nodeclaim.clone())),
            _ => None,
        })
        .collect()
}

fn oldest_node(r: &JsonRun) -> String {
    r.events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::NodeConditionChanged { node, .. } => Some(node.clone()),
            _ => None,
        })
        .expect("a node went not ready")
}

#[test]
fn a_node_not_ready_loses_its_pods_at_5_minutes_and_is_repaired_at_30() {
    let text = repair_scenario("v1.14", REPAIR_ON, 2, 1, "");
    let at = |until: &str| simulate_run(&text, until);
    let early = at("9m");
    let sick = oldest_node(&early);
    // Still running there 4 minutes on: the pods tolerate not-ready for 300 s.
    let on_sick = |r: &JsonRun| {
        common::pods(&r.report)
            .iter()
            .filter(|p| str_of(p, "node") == Some(sick.as_str()))
            .count()
    };
    assert_eq!(on_sick(&early), 1);
    // At 10m the taint manager deletes the pod; its replacement runs on a new node.
    let evicted = at("12m");
    assert_eq!(on_sick(&evicted), 0);
    assert!(evicted.events.iter().any(|e| e.time == 600_000
        && matches!(&e.kind, EventKind::TaintManagerEviction { node, .. } if *node == sick)));
    let running = common::pods(&evicted.report)
        .iter()
        .filter(|p| str_of(p, "phase") == Some("Running"))
        .count();
    assert_eq!(running, 2);
    // The empty, not-ready node uses up the pool's 10 % budget, so it is not consolidated:
    // node repair deletes it once its 30 minutes are up (5m + 30m).
    assert!(common::node_named(&at("34m").report, &sick).is_some());
    let out = common::kpg_stdin(
        &["explain", "-", "--at", "20m", "--node", &sick],
        text.as_bytes(),
    );
    let said = common::stdout(&out);
    assert!(
        said.contains("Ready=False since 5m0s: node repair (gate NodeRepair) deletes it at 35m0s")
            && said.contains("v1.14: unless more than 20% of the NodePool's nodes are unhealthy"),
        "{said}"
    );
    let end = at("40m");
    assert!(common::node_named(&end.report, &sick).is_none());
    assert_eq!(repaired(&end), [(35 * 60_000, sick.clone())]);

    // Without the gate the node stays not ready, and the reader names the gate.
    let off = repair_scenario("v1.14", "", 2, 1, "");
    let r = simulate_run(&off, "60m");
    assert!(common::node_named(&r.report, &sick).is_some());
    assert!(repaired(&r).is_empty());
    let l = kpg_manifests::load(&off);
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "needs-feature-gate" && d.message.contains("NodeRepair")),
        "{:#?}",
        l.diagnostics
    );
}

#[test]
fn repair_holds_when_a_fifth_of_the_pool_is_unhealthy_until_v1_15_budgets_it() {
    // Two of the pool's nodes go not ready: 2 unhealthy of at most 4 nodes is more than the
    // 20 % (rounded up: 1) the health controller allows.
    let r = simulate_run(&repair_scenario("v1.14", REPAIR_ON, 2, 2, ""), "60m");
    assert!(repaired(&r).is_empty(), "{:?}", repaired(&r));
    assert!(
        r.events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::NodeRepairBlocked { unhealthy: 2, .. }))
    );
    // v1.15: no breaker; the repair budget (the default 10 %, not used up by nodes that are
    // not ready) lets them go one at a time, the first at 35m.
    let r = simulate_run(&repair_scenario("v1.15", REPAIR_ON, 2, 2, ""), "60m");
    let done = repaired(&r);
    assert_eq!(done.len(), 2, "{done:?}");
    assert_eq!(done[0].0, 35 * 60_000);
    assert!(
        disruptions(&r)
            .iter()
            .all(|(_, d)| d.reason == Reason::Repair)
    );
    // A budget of zero for `Repair` holds it, as budgets hold any voluntary disruption.
    let held = repair_scenario(
        "v1.15",
        REPAIR_ON,
        2,
        2,
        "    budgets: [{nodes: \"0\", reasons: [Repair]}]\n",
    );
    assert!(repaired(&simulate_run(&held, "60m")).is_empty());
    // v1.14's CRD has no reason `Repair`.
    let l = kpg_manifests::load(&held.replace("v1.15", "v1.14"));
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "needs-newer-karpenter" && d.message.contains("Repair")),
        "{:#?}",
        l.diagnostics
    );
}

// ----- NodeOverlay (`pkg/controllers/nodeoverlay/`, v1.7+, gate NodeOverlay; v1.14.1) -----

const OVERLAY_ON: &str = "    featureGates: {NodeOverlay: true}\n";

fn overlay(name: &str, body: &str) -> String {
    format!(
        "\n---\napiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata: {{name: {name}}}\n\
         spec:\n{body}"
    )
}

/// One 1-CPU pod; the pool allows on-demand c5.large ($0.085) and m5.large ($0.096).
fn overlay_scenario(gates: &str, overlays: &str) -> String {
    format!(
        "{}{CLASS}{}{}{overlays}",
        cluster("v1.14", gates),
        pool(&on_demand_of("c5.large, m5.large"), ""),
        deployment("web", 1, "1", ""),
    )
}

const C5_UP_HALF: &str = "  requirements:\n  \
                          - {key: node.kubernetes.io/instance-type, operator: In, \
                          values: [c5.large]}\n  priceAdjustment: \"+50%\"\n";

#[test]
fn an_overlay_price_changes_which_instance_type_karpenter_launches() {
    let plain = simulate_run(&overlay_scenario(OVERLAY_ON, ""), "2m");
    assert_eq!(node_types(&plain), ["c5.large/on-demand"]);
    // c5.large at +50% is $0.1275: m5.large is now the cheapest.
    let text = overlay_scenario(OVERLAY_ON, &overlay("c5-up", C5_UP_HALF));
    let r = simulate_run(&text, "2m");
    assert_eq!(node_types(&r), ["m5.large/on-demand"]);
    // A Savings Plan's discount on m5: the node's price is the overlay's, the list price
    // beside it, in the report and in `kpg explain`.
    let m5_off = "  requirements:\n  \
                  - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}\n  \
                  priceAdjustment: \"-20%\"\n";
    let text = overlay_scenario(OVERLAY_ON, &overlay("savings-plan", m5_off));
    let r = simulate_run(&text, "2m");
    let node = nodes(&r.report)[0];
    assert_eq!(str_of(node, "instanceType"), Some("m5.large"));
    assert_eq!(node["pricePerHour"].as_f64(), Some(0.0768));
    assert_eq!(node["listPricePerHour"].as_f64(), Some(0.096));
    assert_eq!(str_of(node, "nodeOverlay"), Some("savings-plan"));
    let name = str_of(node, "name").unwrap().to_string();
    let out = common::kpg_stdin(
        &["explain", "-", "--at", "2m", "--node", &name],
        text.as_bytes(),
    );
    let said = common::stdout(&out);
    assert!(
        said.contains("priced at $0.0768/h by NodeOverlay savings-plan (list price $0.0960/h)"),
        "{said}"
    );

    // The gate is off by default: the overlay changes nothing, and the reader says so.
    let off = overlay_scenario("", &overlay("c5-up", C5_UP_HALF));
    assert_eq!(
        node_types(&simulate_run(&off, "2m")),
        ["c5.large/on-demand"]
    );
    let l = kpg_manifests::load(&off);
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "needs-feature-gate" && d.message.contains("NodeOverlay")),
        "{:#?}",
        l.diagnostics
    );
}

#[test]
fn overlays_of_one_weight_on_one_offering_conflict_and_the_heavier_wins() {
    let cheap_c5 = |price: &str, weight: &str| {
        format!(
            "  requirements:\n  \
             - {{key: node.kubernetes.io/instance-type, operator: In, values: [c5.large]}}\n  \
             price: \"{price}\"\n{weight}"
        )
    };
    // Same weight: the later name is taken first; the other conflicts and applies nowhere.
    let text = overlay_scenario(
        OVERLAY_ON,
        &(overlay("a-dear", &cheap_c5("0.5", "")) + &overlay("b-dearer", &cheap_c5("0.9", ""))),
    );
    let r = simulate_run(&text, "2m");
    assert_eq!(node_types(&r), ["m5.large/on-demand"]);
    assert!(r.events.iter().any(
        |e| matches!(&e.kind, EventKind::NodeOverlayConflict { overlay } if overlay == "a-dear")
    ));
    // A heavier overlay is taken first and prices the offering; the lighter one changes
    // nothing and conflicts with nothing.
    let text = overlay_scenario(
        OVERLAY_ON,
        &(overlay("a-cheap", &cheap_c5("0.01", "  weight: 10\n"))
            + &overlay("b-dear", &cheap_c5("0.9", ""))),
    );
    let r = simulate_run(&text, "2m");
    assert_eq!(node_types(&r), ["c5.large/on-demand"]);
    assert_eq!(nodes(&r.report)[0]["pricePerHour"].as_f64(), Some(0.01));
    assert!(
        !r.events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::NodeOverlayConflict { .. }))
    );
}

#[test]
fn an_overlays_capacity_lets_a_pod_asking_for_an_extended_resource_run() {
    let pod = "
---
apiVersion: v1
kind: Pod
metadata: {name: licensed}
spec:
  containers:
  - name: c
    image: pause
    resources:
      requests: {cpu: 500m}
      limits: {nvidia.com/gpu: 1}
";
    let gpu = "  requirements:\n  \
               - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}\n  \
               capacity: {nvidia.com/gpu: 1}\n";
    let text = |overlays: &str| {
        format!(
            "{}{CLASS}{}{pod}{overlays}",
            cluster("v1.14", OVERLAY_ON),
            pool(&on_demand_of("c5.large, m5.large"), ""),
        )
    };
    let r = simulate_run(&text(""), "2m");
    assert!(nodes(&r.report).is_empty());
    let r = simulate_run(&text(&overlay("gpu", gpu)), "2m");
    assert_eq!(node_types(&r), ["m5.large/on-demand"]);
    assert_eq!(nodes(&r.report)[0]["allocatable"]["nvidia.com/gpu"], "1");
    // The CRD refuses capacity for cpu.
    let cpu = "  requirements: []\n  capacity: {cpu: \"4\"}\n";
    let l = kpg_manifests::load(&text(&overlay("more-cpu", cpu)));
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "nodeoverlay-rule" && d.message.contains("restricted")),
        "{:#?}",
        l.diagnostics
    );
    assert!(l.scenario.node_overlays.is_empty());
}

// ----- static drift (`disruption/staticdrift.go`, v1.8-v1.14.1; v1.15 terminate-first) -----

fn node_names(r: &JsonRun) -> Vec<String> {
    let mut v: Vec<String> = nodes(&r.report)
        .iter()
        .filter_map(|n| str_of(n, "name").map(String::from))
        .collect();
    v.sort();
    v
}

#[test]
fn a_static_pools_drifted_nodes_are_replaced_first_and_within_its_node_limit() {
    let ami = "  - {at: 3m, releaseAmi: {alias: al2023}}\n";
    let run = |version: &str, extra: &str, until: &str| {
        simulate_run(&static_scenario(version, STATIC_ON, 2, extra, ami), until)
    };
    let before = node_names(&run("v1.14", "", "2m"));
    assert_eq!(before.len(), 2);
    // A new AMI drifts both; each is replaced by a NodeClaim of the pool's template before it
    // goes, one at a time (the default 10 % budget of 2 nodes is 1).
    let after = run("v1.14", "", "30m");
    let names = node_names(&after);
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names.iter().all(|n| !before.contains(n)),
        "{before:?} {names:?}"
    );
    let drifts = disruptions(&after);
    assert_eq!(drifts.len(), 2);
    assert!(
        drifts
            .iter()
            .all(|(_, d)| d.reason == Reason::Drifted && d.replacements.len() == 1)
    );
    // At `limits.nodes: 2` there is no room for a replacement: v1.14 leaves the nodes drifted.
    let held = run("v1.14", "  limits: {nodes: 2}\n", "30m");
    assert_eq!(node_names(&held), before);
    // v1.15 deletes first, and static provisioning launches the replacement.
    let v15 = run("v1.15", "  limits: {nodes: 2}\n", "30m");
    let names = node_names(&v15);
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names.iter().all(|n| !before.contains(n)),
        "{before:?} {names:?}"
    );
    assert!(
        disruptions(&v15)
            .iter()
            .all(|(_, d)| d.replacements.is_empty())
    );
}

// ----- capacity reservations: the documents and the selector terms (aws v1.14.1) -----

#[test]
fn capacity_reservations_are_read_and_selected_by_their_node_class_terms() {
    let reservation = |id: &str, zone: &str, tags: &str| {
        format!(
            "\n---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: CapacityReservation\n\
             metadata: {{name: {id}}}\nspec:\n  id: {id}\n  instanceType: m5.large\n  \
             zone: {zone}\n  instanceCount: 2\n  tags: {{{tags}}}\n"
        )
    };
    let class = CLASS.replace(
        "  securityGroupSelectorTerms",
        "  capacityReservationSelectorTerms:\n  - {tags: {team: web}}\n  - {id: cr-b}\n  \
         securityGroupSelectorTerms",
    );
    let text = format!(
        "{}{class}{}{}{}",
        cluster("v1.14", ""),
        reservation("cr-a", "us-east-1a", "team: web"),
        reservation("cr-b", "us-east-1a", "team: ml"),
        reservation("cr-c", "us-east-1a", "team: ml"),
    );
    let l = kpg_manifests::load(&text);
    let s = &l.scenario;
    assert_eq!(s.capacity_reservations.len(), 3, "{:#?}", l.diagnostics);
    let terms = &s.node_classes[0].capacity_reservation_terms;
    let chosen: Vec<&str> = kpg_core::reservation::selected(terms, &s.capacity_reservations, 0)
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(chosen, ["cr-a", "cr-b"]);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    // A zone that does not offer the type is refused where it is written.
    let bad = format!(
        "{}{CLASS}{}",
        cluster("v1.14", ""),
        reservation("cr-z", "us-east-1e", "")
    );
    let l = kpg_manifests::load(&bad);
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "unknown-reference"
                && d.message
                    .contains("m5.large is not offered in zone `us-east-1e`")),
        "{:#?}",
        l.diagnostics
    );
    // v1.5's ReservedCapacity gate is off by default: the reader names it.
    let l = kpg_manifests::load(&text.replace("version: v1.14", "version: v1.5"));
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code.as_str() == "needs-feature-gate"
                && d.message.contains("ReservedCapacity"))
    );
}

// ----- reserved capacity (reservationmanager.go, nodeclaim.go; aws reserved_capacity_resolver,
// capacityreservation/expiration and capacitytype at v1.14.1) -----

/// A pool of m5.large that allows `capacity_types`, whose node class selects reservations
/// tagged `team: web`; `web` 1.5-CPU pods, one per node.
fn reserved_scenario(
    version: &str,
    capacity_types: &str,
    reservations: &str,
    web: u32,
    steps: &str,
) -> String {
    let class = CLASS.replace(
        "  securityGroupSelectorTerms",
        "  capacityReservationSelectorTerms: [{tags: {team: web}}]\n  securityGroupSelectorTerms",
    );
    let requirements = req("karpenter.sh/capacity-type", capacity_types)
        + &req("node.kubernetes.io/instance-type", "m5.large");
    let mut text = format!(
        "{}{class}{reservations}{}{}",
        cluster(version, ""),
        pool(&requirements, ""),
        deployment("web", web, "1500m", ""),
    );
    if !steps.is_empty() {
        text.push_str(&timeline(steps));
    }
    text
}

fn reservation_doc(id: &str, count: u32, extra: &str) -> String {
    format!(
        "\n---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: CapacityReservation\n\
         metadata: {{name: {id}}}\nspec:\n  id: {id}\n  instanceType: m5.large\n  \
         zone: us-east-1a\n  instanceCount: {count}\n  tags: {{team: web}}\n{extra}"
    )
}

fn capacity_types(r: &JsonRun) -> Vec<String> {
    let mut v: Vec<String> = nodes(&r.report)
        .iter()
        .filter_map(|n| str_of(n, "capacityType").map(String::from))
        .collect();
    v.sort();
    v
}

#[test]
fn karpenter_launches_into_a_reservation_until_it_is_full_then_falls_back() {
    let text = reserved_scenario(
        "v1.14",
        "reserved, on-demand",
        &reservation_doc("cr-0a", 2, ""),
        3,
        "",
    );
    let r = simulate_run(&text, "5m");
    assert_eq!(capacity_types(&r), ["on-demand", "reserved", "reserved"]);
    let reserved: Vec<&Value> = nodes(&r.report)
        .into_iter()
        .filter(|n| str_of(n, "capacityType") == Some("reserved"))
        .collect();
    for n in &reserved {
        let labels = &n["labels"];
        assert_eq!(labels["karpenter.sh/capacity-type"], "reserved");
        assert_eq!(labels["karpenter.k8s.aws/capacity-reservation-id"], "cr-0a");
        assert_eq!(
            labels["karpenter.k8s.aws/capacity-reservation-type"],
            "default"
        );
        assert_eq!(
            labels["karpenter.k8s.aws/capacity-reservation-interruptible"],
            "false"
        );
        // The on-demand price / 10^7: nothing, in micro-dollars.
        assert_eq!(n["pricePerHour"].as_f64(), Some(0.0));
    }
    let name = str_of(reserved[0], "name").unwrap().to_string();
    let out = common::kpg_stdin(
        &["explain", "-", "--at", "5m", "--node", &name],
        text.as_bytes(),
    );
    let said = common::stdout(&out);
    assert!(
        said.contains("in capacity reservation cr-0a (default)")
            && said.contains("0 of its 2 instances are free now"),
        "{said}"
    );
    // The third NodeClaim could have used the reservation but found it taken in the same
    // simulation: its pod was deferred, and the next simulation launched it on-demand.
    let deferred = |e: &kpg_core::sim::Event| match &e.kind {
        EventKind::FailedScheduling { error, .. } => {
            error.contains("limited reserved offering capacity")
        }
        _ => false,
    };
    assert!(r.events.iter().any(deferred));

    // A NodePool that does not allow `reserved` never uses it; nor does a node class that
    // selects no reservation (an open ODCR is not used unless selected).
    let od_only = reserved_scenario(
        "v1.14",
        "on-demand",
        &reservation_doc("cr-0a", 2, ""),
        3,
        "",
    );
    assert_eq!(
        capacity_types(&simulate_run(&od_only, "5m")),
        ["on-demand"; 3]
    );
    let unselected = text.replace("  tags: {team: web}\n", "  tags: {team: ml}\n");
    assert_eq!(
        capacity_types(&simulate_run(&unselected, "5m")),
        ["on-demand"; 3]
    );
    // v1.5's ReservedCapacity gate is off by default.
    let v15 = text.replace("version: v1.14", "version: v1.5");
    assert_eq!(capacity_types(&simulate_run(&v15, "5m")), ["on-demand"; 3]);
}

#[test]
fn a_reservation_that_ends_leaves_on_demand_nodes_and_a_capacity_block_drains_first() {
    let odcr = reserved_scenario(
        "v1.14",
        "reserved, on-demand",
        &reservation_doc("cr-0a", 2, "  end: 30m\n"),
        2,
        "",
    );
    assert_eq!(capacity_types(&simulate_run(&odcr, "29m")), ["reserved"; 2]);
    let after = simulate_run(&odcr, "31m");
    assert_eq!(capacity_types(&after), ["on-demand"; 2]);
    let n = nodes(&after.report)[0];
    assert_eq!(n["pricePerHour"].as_f64(), Some(0.096));
    assert!(
        n["labels"]
            .get("karpenter.k8s.aws/capacity-reservation-id")
            .is_none()
    );

    // A capacity block is drained 40 minutes before its end; its pods move to on-demand.
    let block = reserved_scenario(
        "v1.14",
        "reserved, on-demand",
        &reservation_doc(
            "cr-0b",
            2,
            "  reservationType: capacity-block\n  end: 60m\n",
        ),
        2,
        "",
    );
    let early = simulate_run(&block, "19m");
    assert_eq!(capacity_types(&early), ["reserved"; 2]);
    let late = simulate_run(&block, "30m");
    assert_eq!(
        capacity_types(&late),
        ["on-demand"; 2],
        "{:?}",
        node_types(&late)
    );
    assert!(late.events.iter().any(|e| e.time == 20 * 60_000
        && matches!(
            &e.kind,
            EventKind::Terminating {
                cause: kpg_core::sim::event::TerminationCause::CapacityBlockExpiring,
                ..
            }
        )));
}

#[test]
fn an_interruptible_reservation_takes_its_instance_back_with_two_minutes_notice() {
    let text = |interruptible: &str| {
        reserved_scenario(
            "v1.14",
            "reserved, on-demand",
            &reservation_doc("cr-0i", 1, &format!("  interruptible: {interruptible}\n")),
            1,
            "  - {at: 5m, interrupt: {nodepool: default}}\n",
        )
    };
    let r = simulate_run(&text("true"), "12m");
    let notice = r
        .events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::ReservationInterrupted { reclaim_at, .. } => Some((e.time, *reclaim_at)),
            _ => None,
        })
        .expect("a notice");
    assert_eq!(notice, (5 * 60_000, 7 * 60_000));
    // The pod moves to on-demand: the reservation counts as full after the notice.
    assert_eq!(capacity_types(&r), ["on-demand"]);
    // A reservation that is not interruptible is not interrupted.
    let r = simulate_run(&text("false"), "12m");
    assert_eq!(capacity_types(&r), ["reserved"]);
}

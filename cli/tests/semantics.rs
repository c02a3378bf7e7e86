//! Karpenter and Kubernetes semantics, one behaviour per test, through the whole pipeline
//! (YAML → reader → engine → report). Small scenarios with a custom catalog so every
//! number is visible in the test.

use kpg_core::report::Report;
use kpg_core::sim::EventKind;

const CATALOG: &str = r#"
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: small}
spec:
  cpu: "2"
  memory: 8Gi
  labels: {karpenter.k8s.aws/instance-generation: "5"}
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
  labels: {karpenter.k8s.aws/instance-generation: "7"}
  offerings:
  - {zone: z1, capacityType: on-demand, price: 0.40}
  - {zone: z2, capacityType: on-demand, price: 0.40}
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

fn pool(name: &str, extra: &str) -> String {
    format!(
        r#"
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: {name}}}
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements: []
{extra}
  disruption: {{consolidateAfter: Never}}
"#
    )
}

fn pod(name: &str, cpu: &str, spec_extra: &str) -> String {
    format!(
        r#"
---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, labels: {{app: {name}}}}}
spec:
  containers:
  - name: c
    image: pause
    resources: {{requests: {{cpu: "{cpu}"}}}}
{spec_extra}
"#
    )
}

fn run(parts: &[String]) -> Report {
    simulate(parts).report
}

fn simulate(parts: &[String]) -> kpg::Simulated {
    let text = format!("{CATALOG}{}", parts.concat());
    match kpg::simulate(&text, Some(5 * 60_000)) {
        Ok(s) => s,
        Err(e) => panic!("scenario failed: {e:?}\n{text}"),
    }
}

fn node_of<'r>(r: &'r Report, pod: &str) -> Option<&'r kpg_core::report::NodeReport> {
    let p = r.pods.iter().find(|p| p.name == pod).expect("pod exists");
    p.node
        .as_ref()
        .and_then(|n| r.nodes.iter().find(|x| &x.name == n))
}

fn message(r: &Report, pod: &str) -> String {
    r.pods
        .iter()
        .find(|p| p.name == pod)
        .and_then(|p| p.message.clone())
        .unwrap_or_default()
}

#[test]
fn spot_is_preferred_when_the_pool_allows_it() {
    let r = run(&[pool("default", ""), pod("p", "1", "")]);
    let n = node_of(&r, "p").expect("bound");
    assert_eq!(
        (n.instance_type.as_str(), n.capacity_type.as_str()),
        ("small", "spot")
    );
}

#[test]
fn on_demand_only_pools_pick_the_cheapest_on_demand_type() {
    let on_demand = pool("default", "").replace(
        "      requirements: []",
        "      requirements: [{key: karpenter.sh/capacity-type, \
         operator: In, values: [on-demand]}]",
    );
    let r = run(&[on_demand, pod("p", "1", "")]);
    let n = node_of(&r, "p").expect("bound");
    assert_eq!(
        (n.instance_type.as_str(), n.capacity_type.as_str()),
        ("small", "on-demand")
    );
}

#[test]
fn requests_pick_the_instance_type() {
    let r = run(&[pool("default", ""), pod("big", "3", "")]);
    assert_eq!(node_of(&r, "big").expect("bound").instance_type, "large");
}

#[test]
fn equal_weights_are_tried_by_name_descending_and_weight_wins() {
    let r = run(&[pool("alpha", ""), pool("beta", ""), pod("p", "1", "")]);
    assert_eq!(node_of(&r, "p").unwrap().nodepool.as_deref(), Some("beta"));
    let weighted = pool("alpha", "").replace("  disruption:", "  weight: 10\n  disruption:");
    let r = run(&[weighted, pool("beta", ""), pod("p", "1", "")]);
    assert_eq!(node_of(&r, "p").unwrap().nodepool.as_deref(), Some("alpha"));
}

#[test]
fn limits_count_instance_capacity_and_name_the_pool() {
    let limited =
        pool("default", "").replace("  disruption:", "  limits: {cpu: \"3\"}\n  disruption:");
    let anti = "  affinity:\n    podAntiAffinity:\
                \n      requiredDuringSchedulingIgnoredDuringExecution:\
                \n      - {labelSelector: {matchLabels: {group: x}}, topologyKey: \
                kubernetes.io/hostname}";
    let a = pod("a", "1", anti).replace("labels: {app: a}", "labels: {app: a, group: x}");
    let b = pod("b", "1", anti).replace("labels: {app: b}", "labels: {app: b, group: x}");
    let r = run(&[limited, a, b]);
    let bound = r.pods.iter().filter(|p| p.node.is_some()).count();
    assert_eq!(
        bound, 1,
        "a 2-CPU node leaves 1 CPU of a 3-CPU limit: no second node"
    );
    let pending = r.pods.iter().find(|p| p.node.is_none()).unwrap();
    assert!(
        pending
            .message
            .as_deref()
            .unwrap()
            .contains("all available instance types exceed limits for nodepool (NodePool=default)")
    );
}

#[test]
fn undefined_custom_labels_block_provisioning_but_negative_ones_do_not() {
    let r = run(&[
        pool("default", ""),
        pod("wants-team", "1", "  nodeSelector: {team: a}"),
        pod(
            "avoids-team",
            "1",
            "  affinity:\n    nodeAffinity:\
             \n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\
             \n        - matchExpressions: [{key: team, operator: NotIn, values: [a]}]",
        ),
    ]);
    assert!(node_of(&r, "wants-team").is_none());
    assert!(
        message(&r, "wants-team").contains(r#"label "team" does not have known values"#),
        "{}",
        message(&r, "wants-team")
    );
    assert!(node_of(&r, "avoids-team").is_some());
}

#[test]
fn numeric_operators_filter_instance_types() {
    let r = run(&[
        pool("default", ""),
        pod(
            "gen6",
            "1",
            "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\
             \n        nodeSelectorTerms:\n        - matchExpressions: [{key: \
             karpenter.k8s.aws/instance-generation, operator: Gt, values: [\"5\"]}]",
        ),
    ]);
    assert_eq!(node_of(&r, "gen6").unwrap().instance_type, "large");
}

#[test]
fn heavier_preferences_are_relaxed_first() {
    let prefs = "  affinity:\n    nodeAffinity:\
                 \n      preferredDuringSchedulingIgnoredDuringExecution:\
                 \n      - {weight: 100, preference: {matchExpressions: [{key: \
                 topology.kubernetes.io/zone, operator: In, values: [nowhere]}]}}\
                 \n      - {weight: 10, preference: {matchExpressions: [{key: \
                 topology.kubernetes.io/zone, operator: In, values: [z2]}]}}";
    let r = run(&[pool("default", ""), pod("p", "1", prefs)]);
    assert_eq!(
        node_of(&r, "p").unwrap().zone,
        "z2",
        "the unsatisfiable weight-100 term goes, the weight-10 one holds"
    );
}

#[test]
fn prefer_no_schedule_pools_are_used_only_after_relaxation() {
    let tainted = pool(
        "zzz",
        "      taints: [{key: soft, effect: PreferNoSchedule}]",
    );
    let r = run(&[tainted.clone(), pool("aaa", ""), pod("p", "1", "")]);
    assert_eq!(node_of(&r, "p").unwrap().nodepool.as_deref(), Some("aaa"));
    let r = run(&[tainted, pod("p", "1", "")]);
    assert_eq!(
        node_of(&r, "p").unwrap().nodepool.as_deref(),
        Some("zzz"),
        "with no other pool, the toleration is added"
    );
}

#[test]
fn daemonset_overhead_sizes_new_nodes() {
    let ds = r#"
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: a, image: agent, resources: {requests: {cpu: "1"}}}]
"#;
    let r = run(&[pool("default", ""), ds.to_string(), pod("p", "1", "")]);
    let n = node_of(&r, "p").unwrap();
    assert_eq!(
        n.instance_type, "large",
        "1 CPU + a 1-CPU daemon does not fit 2 CPUs less kubelet overhead"
    );
    assert!(
        n.pods.iter().any(|p| p.starts_with("default/agent-")),
        "the DaemonSet pod runs on the node"
    );
}

#[test]
fn restricted_labels_are_ignored_by_karpenter() {
    let r = run(&[
        pool("default", ""),
        pod(
            "p",
            "1",
            "  nodeSelector: {kubernetes.io/hostname: somewhere}",
        ),
    ]);
    assert!(node_of(&r, "p").is_none());
    assert!(
        message(&r, "p").contains("using label kubernetes.io/hostname is not allowed"),
        "{}",
        message(&r, "p")
    );
    assert!(r.nodes.is_empty());
}

#[test]
fn pods_are_batched_before_a_nodeclaim_is_created() {
    let s = simulate(&[pool("default", ""), pod("a", "1", ""), pod("b", "0.5", "")]);
    let created: Vec<_> = s
        .sim
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Created { .. }))
        .collect();
    assert_eq!(created.len(), 1, "both pods share one NodeClaim");
    assert_eq!(
        created[0].time, 1_000,
        "the batch closes after 1 s without new pods"
    );
    let r = s.report;
    let n = node_of(&r, "a").unwrap();
    assert_eq!(n.pods.len(), 2);
}

#[test]
fn a_job_pod_finishes_after_its_runtime() {
    let job = concat!(
        r#"
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  completions: 2
  parallelism: 1
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox, command: [sh, -c, "sleep 30"], "#,
        r#"resources: {requests: {cpu: "1"}}}]
"#
    );
    let r = run(&[pool("default", ""), job.to_string()]);
    let done: Vec<_> = r
        .pods
        .iter()
        .filter(|p| p.owner.as_deref() == Some("Job/batch"))
        .collect();
    assert_eq!(done.len(), 2, "one pod after the other");
    assert!(done.iter().all(|p| p.phase == "Succeeded"), "{done:?}");
}

#[test]
fn the_report_is_byte_for_byte_deterministic() {
    let parts = [pool("default", ""), pod("a", "1", ""), pod("b", "3", "")];
    let a = serde_json::to_string(&run(&parts)).unwrap();
    let b = serde_json::to_string(&run(&parts)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn timeline_steps_scale_delete_and_apply() {
    let deployment = r#"
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: "1"}}}]
"#;
    let timeline = r#"
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {name: t}
spec:
  steps:
  - {at: 2m, scale: {kind: Deployment, name: web, replicas: 4}}
  - {at: 3m, delete: {kind: NodePool, name: default}}
  - {at: 4m, scale: {kind: Deployment, name: web, replicas: 12}}
"#;
    let text = format!("{CATALOG}{}{deployment}{timeline}", pool("default", ""));
    let run_to = |until: u64| kpg::simulate(&text, Some(until)).expect("runs");
    let at = |until: u64| run_to(until).report;
    let web = |r: &Report, phase: &str| {
        r.pods
            .iter()
            .filter(|p| p.owner.as_deref() == Some("Deployment/web") && p.phase == phase)
            .count()
    };
    let r = at(60_000);
    assert_eq!((web(&r, "Running"), r.nodes.len()), (1, 1));
    let r = at(170_000);
    assert_eq!(
        web(&r, "Running"),
        4,
        "scaled at 2m, new capacity is Ready within a minute"
    );
    let s = run_to(6 * 60_000);
    let r = s.report;
    assert_eq!(web(&r, "Running") + web(&r, "Pending"), 12);
    let pending = r
        .pods
        .iter()
        .find(|p| p.phase == "Pending")
        .expect("the pool is gone, so what does not fit waits");
    assert!(
        pending
            .message
            .as_deref()
            .is_some_and(|m| m.contains("no nodepools found")),
        "{pending:?}"
    );
    assert!(s.sim.events().iter().any(|e| e.kind
        == EventKind::NodePoolDeleted {
            node_pool: "default".into()
        }));
}

#[test]
fn pods_that_name_their_node_are_left_to_that_node() {
    let r = run(&[pool("default", ""), pod("pinned", "1", "  nodeName: ghost")]);
    assert!(
        r.nodes.is_empty(),
        "Karpenter does not provision for a pod with spec.nodeName"
    );
    assert!(
        message(&r, "pinned").contains("spec.nodeName is \"ghost\""),
        "{}",
        message(&r, "pinned")
    );
}

#[test]
fn a_pool_that_fails_karpenter_validation_is_skipped_and_says_why() {
    let bad = pool("default", "").replace(
        "      requirements: []",
        "      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [cheap]}]",
    );
    let r = run(&[bad, pod("p", "1", "")]);
    assert!(r.nodes.is_empty(), "no node from a pool that is not Ready");
    let np = &r.nodepools[0];
    assert!(!np.ready);
    assert!(
        np.message
            .as_deref()
            .is_some_and(|m| m.starts_with("ValidationSucceeded=False")),
        "{:?}",
        np.message
    );
    assert_eq!(r.pods[0].phase, "Pending");
}

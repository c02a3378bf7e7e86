//! The reader's contract, end to end: what loads, with which defaults, and where each problem
//! is reported.

use kpg_core::catalog::CapacityType;
use kpg_core::model::{
    AmiFamily, AppliedObject, BudgetNodes, ConsolidationPolicy, IntOrPercent, TimelineAction,
    WhenUnsatisfiable, WorkloadKind,
};
use kpg_core::requirements::Operator;
use kpg_core::resources::ResourceName;
use kpg_core::taints::{TaintEffect, TolerationOperator};
use kpg_manifests::{Diagnostic, Loaded, Severity, load};

fn errors(l: &Loaded) -> Vec<&Diagnostic> {
    l.diagnostics.iter().filter(|d| d.is_error()).collect()
}

fn only(l: &Loaded, code: &str) -> Diagnostic {
    let found: Vec<_> = l.diagnostics.iter().filter(|d| d.code == code).collect();
    assert_eq!(
        found.len(),
        1,
        "expected one {code}, got: {:#?}",
        l.diagnostics
    );
    found[0].clone()
}

fn assert_clean(l: &Loaded) {
    assert!(!l.has_errors(), "unexpected errors: {:#?}", errors(l));
}

const NODECLASS: &str = "apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  role: KarpenterNodeRole-demo
  amiSelectorTerms:
  - alias: al2023@latest
  subnetSelectorTerms:
  - tags: {karpenter.sh/discovery: demo}
  securityGroupSelectorTerms:
  - tags: {karpenter.sh/discovery: demo}
";

#[test]
fn unknown_operator_points_at_the_value_and_lists_the_valid_ones() {
    let text = "\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: platform
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: karpenter.sh/capacity-type
          operator: Inn
          values: [spot]
  disruption:
    consolidateAfter: 0s
";
    let l = load(text);
    let d = only(&l, "invalid-choice");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.path, "spec.template.spec.requirements[0].operator");
    assert_eq!((d.line, d.column), (14, 21));
    assert_eq!(d.document, 0);
    assert_eq!(d.object.as_deref(), Some("NodePool/platform"));
    assert_eq!(
        d.help.as_deref(),
        Some("use one of In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte")
    );
    assert!(
        d.message.contains("Inn") && d.message.contains("did you mean `In`"),
        "{}",
        d.message
    );
    assert!(
        l.scenario.node_pools.is_empty(),
        "a document with errors is left out"
    );
    assert_eq!(
        d.in_file("scenario.yaml").to_string(),
        "scenario.yaml:14:21: error[invalid-choice]: NodePool/platform \
         spec.template.spec.requirements[0].operator: `Inn` is not a valid operator (did you \
         mean `In`?)\n  help: use one of In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte"
    );
}

#[test]
fn a_syntax_error_costs_only_its_own_document() {
    let text = "\
apiVersion: v1
kind: Namespace
metadata: {name: a}
---
apiVersion: v1
kind: Pod
metadata:
  name: broken
    labels: x
spec:
  containers: [{name: c}]
---
apiVersion: v1
kind: Namespace
metadata: {name: b}
";
    let l = load(text);
    let d = only(&l, "yaml-syntax");
    assert_eq!(d.document, 1);
    assert_eq!((d.line, d.column), (9, 11));
    assert_eq!(d.object.as_deref(), Some("Pod/default/broken"));
    let names: Vec<_> = l
        .scenario
        .namespaces
        .iter()
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(l.diagnostics.len(), 1, "{:#?}", l.diagnostics);
}

#[test]
fn an_unclosed_flow_sequence_is_reported_within_its_document() {
    let text = "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\nkind: Pod\nspec: [1, 2\n\
                ---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n";
    let l = load(text);
    let d = only(&l, "yaml-syntax");
    assert_eq!(d.document, 1);
    assert!((5..=7).contains(&d.line), "{d}");
    assert_eq!(l.scenario.namespaces.len(), 2);
}

#[test]
fn an_invalid_quantity_has_the_exact_position() {
    let text = "\
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: app
    resources:
      requests:
        cpu: 12Gib
";
    let l = load(text);
    let d = only(&l, "invalid-quantity");
    assert_eq!(d.path, "spec.containers[0].resources.requests.cpu");
    assert_eq!((d.line, d.column), (10, 14));
    assert!(d.message.contains("Gib"), "{}", d.message);
    assert!(l.scenario.workloads.is_empty());
}

#[test]
fn unknown_kinds_are_skipped_with_a_warning() {
    let text = format!(
        "apiVersion: v1\nkind: Service\nmetadata: {{name: web}}\n\
         spec:\n  ports: [{{port: 80}}]\n---\n{NODECLASS}---\napiVersion: v1\nkind: ConfigMap\n\
         metadata: {{name: cfg}}\ndata: {{a: b}}\n"
    );
    let l = load(&text);
    assert_clean(&l);
    let warnings: Vec<_> = l
        .diagnostics
        .iter()
        .filter(|d| d.code == "unknown-kind")
        .collect();
    assert_eq!(warnings.len(), 2);
    assert_eq!(warnings[0].document, 0);
    assert_eq!((warnings[0].line, warnings[0].column), (2, 7));
    assert_eq!(warnings[0].object.as_deref(), Some("Service/web"));
    assert_eq!(warnings[1].document, 2);
    assert_eq!(l.scenario.node_classes.len(), 1);
}

#[test]
fn empty_documents_and_comments_are_skipped_silently() {
    let text = "---\n# nothing here\n---\n\n---\napiVersion: v1\nkind: Namespace\n\
                metadata: {name: a}\n---\n";
    let l = load(text);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    assert_eq!(l.scenario.namespaces.len(), 1);
    assert!(load("").diagnostics.is_empty());
    assert!(load("# just a comment\n").diagnostics.is_empty());
}

#[test]
fn v1_nodepool_defaults() {
    let text = format!(
        "{NODECLASS}---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements: []
  disruption:
    consolidateAfter: 1m
"
    );
    let l = load(&text);
    assert_clean(&l);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let np = &l.scenario.node_pools[0];
    assert_eq!(np.expire_after, Some(720 * 3600 * 1000));
    assert_eq!(
        np.consolidation_policy,
        ConsolidationPolicy::WhenEmptyOrUnderutilized
    );
    assert_eq!(np.consolidate_after, Some(60_000));
    assert_eq!(np.budgets.len(), 1);
    assert_eq!(np.budgets[0].nodes, BudgetNodes::Percent(10));
    assert_eq!(np.weight, 0);
    assert!(np.limits.is_unlimited());
    assert_eq!(np.node_class_ref.name, "default");
}

#[test]
fn v1_nodepool_requires_consolidate_after_in_a_written_disruption_block() {
    let text = "\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: []
  disruption:
    consolidationPolicy: WhenEmpty
";
    let l = load(text);
    let d = only(&l, "missing-field");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.path, "spec.disruption.consolidateAfter");
    assert_eq!((d.line, d.column), (10, 3), "at the block's key");
    assert!(
        d.message.contains("written `spec.disruption` block"),
        "{}",
        d.message
    );
    assert_eq!(
        d.help.as_deref(),
        Some(
            "add `consolidateAfter: 0s` (or a duration such as 1m, or Never), or remove the whole \
             `disruption` block to take the defaults"
        )
    );
    assert!(
        d.ko.as_ref().is_some_and(|k| k.message.contains("직접 쓴")),
        "{:?}",
        d.ko
    );
    // An empty block is a written block: the CRD's block default does not apply to it.
    for empty in [
        "  disruption: {}\n",
        "  disruption:\n    budgets: [{nodes: '1'}]\n",
    ] {
        let l = load(&text.replace("  disruption:\n    consolidationPolicy: WhenEmpty\n", empty));
        assert_eq!(
            only(&l, "missing-field").path,
            "spec.disruption.consolidateAfter",
            "{empty}"
        );
    }
}

/// From v1.1.0 (and v1.0.4 of the AWS chart) the NodePool CRD defaults an omitted
/// `spec.disruption` to `{consolidateAfter: 0s}`, and the field defaults inside it fill in
/// the policy and the budget: the official examples omit the block and apply cleanly.
#[test]
fn v1_nodepool_without_a_disruption_block_takes_the_crd_defaults() {
    let pool = "\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general-purpose
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: []
";
    // `disruption: null` is pruned by the API server, then defaulted like an omitted block.
    for text in [
        pool.to_string(),
        format!("{pool}  disruption: null\n"),
        format!("{pool}  disruption:\n"),
    ] {
        let l = load(&format!("{NODECLASS}---\n{text}"));
        assert!(l.diagnostics.is_empty(), "{text}\n{:#?}", l.diagnostics);
        let np = &l.scenario.node_pools[0];
        assert_eq!(
            np.consolidation_policy,
            ConsolidationPolicy::WhenEmptyOrUnderutilized
        );
        assert_eq!(np.consolidate_after, Some(0));
        assert_eq!(np.budgets.len(), 1);
        assert_eq!(np.budgets[0].nodes, BudgetNodes::Percent(10));
        assert!(
            np.budgets[0].schedule.is_none()
                && np.budgets[0].duration.is_none()
                && np.budgets[0].reasons.is_empty()
        );
        assert_eq!(np.expire_after, Some(720 * 3600 * 1000));
    }
}

#[test]
fn field_defaults_inside_a_written_disruption_block() {
    let text = format!(
        "{NODECLASS}---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: p
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements: []
      expireAfter: null
  disruption:
    consolidateAfter: 5m
    consolidationPolicy: null
    budgets:
    - reasons: [Drifted]
    - schedule: '@daily'
      duration: 1h
"
    );
    let l = load(&text);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let np = &l.scenario.node_pools[0];
    assert_eq!(np.consolidate_after, Some(300_000));
    assert_eq!(
        np.consolidation_policy,
        ConsolidationPolicy::WhenEmptyOrUnderutilized,
        "a null policy is defaulted"
    );
    assert_eq!(
        np.expire_after,
        Some(720 * 3600 * 1000),
        "a null expireAfter is defaulted"
    );
    // `nodes` is required in a budget item, but the CRD defaults it to 10% first.
    assert_eq!(np.budgets.len(), 2);
    assert!(
        np.budgets
            .iter()
            .all(|b| b.nodes == BudgetNodes::Percent(10)),
        "{:?}",
        np.budgets
    );
    assert_eq!(np.budgets[0].reasons, ["Drifted"]);
    // An explicit empty list is not defaulted: no budget at all.
    let l = load(&text.replace(
        "    budgets:\n    - reasons: [Drifted]\n    - schedule: '@daily'\n      duration: 1h\n",
        "    budgets: []\n",
    ));
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    assert!(l.scenario.node_pools[0].budgets.is_empty());
}

#[test]
fn v1_nodepool_full_spec() {
    let text = format!(
        "{NODECLASS}---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  weight: 50
  limits: {{cpu: 100, memory: 400Gi, nvidia.com/gpu: 8, nodes: 10}}
  template:
    metadata:
      labels: {{team: ml}}
      annotations: {{example.com/owner: ml}}
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      expireAfter: Never
      terminationGracePeriod: 48h
      taints: [{{key: nvidia.com/gpu, effect: NoSchedule}}]
      startupTaints: [{{key: example.com/agent, value: not-ready, effect: NoExecute}}]
      requirements:
      - {{key: karpenter.k8s.aws/instance-family, operator: In, values: [g5, g6], minValues: 2}}
      - {{key: karpenter.k8s.aws/instance-cpu, operator: Gte, values: ['8']}}
  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: Never
    budgets:
    - nodes: '1'
      reasons: [Drifted]
    - nodes: 0%
      schedule: '0 9 * * mon-fri'
      duration: 8h
"
    );
    let l = load(&text);
    assert_clean(&l);
    let np = &l.scenario.node_pools[0];
    assert_eq!(np.weight, 50);
    assert_eq!(
        np.limits.resources[ResourceName::Cpu as usize],
        Some(100_000)
    );
    assert_eq!(
        np.limits.resources[ResourceName::Memory as usize],
        Some(400 << 30)
    );
    assert_eq!(
        np.limits.resources[ResourceName::NvidiaGpu as usize],
        Some(8)
    );
    assert_eq!(np.limits.nodes, Some(10));
    assert_eq!(
        np.template_labels.get("team").map(String::as_str),
        Some("ml")
    );
    assert_eq!(np.expire_after, None);
    assert_eq!(np.termination_grace_period, Some(48 * 3600 * 1000));
    assert_eq!(np.taints[0].effect, TaintEffect::NoSchedule);
    assert_eq!(np.startup_taints[0].value, "not-ready");
    assert_eq!(np.requirements[0].min_values, Some(2));
    assert_eq!(np.requirements[1].operator, Operator::Gte);
    assert_eq!(np.consolidation_policy, ConsolidationPolicy::WhenEmpty);
    assert_eq!(np.consolidate_after, None);
    assert_eq!(np.budgets[0].nodes, BudgetNodes::Count(1));
    assert_eq!(np.budgets[0].reasons, ["Drifted"]);
    assert_eq!(np.budgets[1].duration, Some(8 * 3600 * 1000));
    assert_eq!(np.budgets[1].schedule.as_deref(), Some("0 9 * * mon-fri"));
}

#[test]
fn a_schedule_the_crd_accepts_but_karpenter_cannot_parse_is_a_warning() {
    let text = "\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: frozen
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: []
  disruption:
    consolidateAfter: 1m
    budgets:
    - nodes: '5'
      schedule: '61 25 * * *'
      duration: 1h
";
    let l = load(text);
    let w = l
        .warnings()
        .find(|d| d.code == "unparsable-schedule")
        .expect("a warning about the schedule");
    assert_eq!(w.path, "spec.disruption.budgets[0].schedule");
    assert_eq!((w.line, w.column), (14, 17));
    assert!(
        w.message.contains("blocks every disruption"),
        "{}",
        w.message
    );
    assert!(!l.has_errors(), "the API server would accept it");
}

#[test]
fn nodepool_rules_the_crd_enforces() {
    let text = "\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: bad
spec:
  weight: 0
  template:
    metadata:
      labels: {karpenter.sh/nodepool: x}
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      expireAfter: 1.5h
      taints: [{key: a, effect: NoSchedul}]
      requirements:
      - {key: kubernetes.io/hostname, operator: In, values: [a]}
      - {key: karpenter.k8s.aws/instance-cpu, operator: Gt, values: ['4', '8']}
      - {key: karpenter.sh/capacity-type, operator: In, values: [cheap]}
      - {key: zone, operator: In}
  disruption:
    consolidateAfter: 0s
    budgets: [{nodes: '101%'}, {nodes: '1', schedule: '@daily'}]
";
    let l = load(text);
    let paths: Vec<_> = errors(&l).iter().map(|d| d.path.clone()).collect();
    for expected in [
        "spec.weight",
        "spec.template.metadata.labels[\"karpenter.sh/nodepool\"]",
        "spec.template.spec.expireAfter",
        "spec.template.spec.taints[0].effect",
        "spec.template.spec.requirements[0].key",
        "spec.template.spec.requirements[1].values",
        "spec.template.spec.requirements[3].values",
        "spec.disruption.budgets[0].nodes",
        "spec.disruption.budgets[1]",
    ] {
        assert!(
            paths.iter().any(|p| p == expected),
            "no error at {expected}: {paths:#?}"
        );
    }
    // An unknown capacity type passes the API server; Karpenter's runtime validation fails the
    // NodePool instead (never Ready).
    let not_ready = only(&l, "nodepool-not-ready");
    assert_eq!(not_ready.path, "spec.template.spec.requirements[2].values");
    assert!(!not_ready.is_error());
}

#[test]
fn v1beta1_nodepool_is_read_with_its_v1_meaning() {
    let text = format!(
        "{NODECLASS}---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: legacy
spec:
  template:
    spec:
      nodeClassRef:
        name: default
      requirements: []
      kubelet:
        maxPods: 20
  disruption:
    consolidationPolicy: WhenUnderutilized
    expireAfter: 168h
"
    );
    let l = load(&text);
    assert_clean(&l);
    let np = &l.scenario.node_pools[0];
    assert_eq!(
        np.consolidation_policy,
        ConsolidationPolicy::WhenEmptyOrUnderutilized
    );
    assert_eq!(np.consolidate_after, Some(0));
    assert_eq!(np.expire_after, Some(168 * 3600 * 1000));
    assert_eq!(np.node_class_ref.group, "karpenter.k8s.aws");
    assert_eq!(np.node_class_ref.kind, "EC2NodeClass");
    let codes: Vec<_> = l.diagnostics.iter().map(|d| d.code.as_str()).collect();
    for code in [
        "v1beta1-api",
        "v1beta1-node-class-ref",
        "v1beta1-kubelet",
        "v1beta1-consolidation-policy",
        "v1beta1-consolidate-after",
        "v1beta1-expire-after",
    ] {
        assert!(codes.contains(&code), "missing {code}: {codes:?}");
    }
    let expire = only(&l, "v1beta1-expire-after");
    assert_eq!(expire.path, "spec.disruption.expireAfter");
    assert_eq!((expire.line, expire.column), (28, 18));
    assert!(
        l.diagnostics
            .iter()
            .all(|d| d.severity == Severity::Warning)
    );
}

/// v1 defaults an omitted `disruption` block to what v1beta1 did (consolidate underutilized
/// nodes at once), so a v1beta1 NodePool without one has nothing to change; a block it writes
/// needs `consolidateAfter` in v1.
#[test]
fn v1beta1_consolidate_after_is_flagged_only_in_a_written_block() {
    let pool = |disruption: &str| {
        format!(
            "{NODECLASS}---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: legacy
spec:
  template:
    spec:
      nodeClassRef:
        name: default
      requirements: []
{disruption}"
        )
    };
    let l = load(&pool(""));
    assert_clean(&l);
    let codes: Vec<_> = l.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        ["v1beta1-api", "v1beta1-node-class-ref"],
        "{:#?}",
        l.diagnostics
    );
    let np = &l.scenario.node_pools[0];
    assert_eq!(
        np.consolidation_policy,
        ConsolidationPolicy::WhenEmptyOrUnderutilized
    );
    assert_eq!(np.consolidate_after, Some(0));
    assert_eq!(np.budgets[0].nodes, BudgetNodes::Percent(10));

    for block in [
        "  disruption:\n    consolidationPolicy: WhenUnderutilized\n",
        "  disruption:\n    expireAfter: 168h\n",
    ] {
        let l = load(&pool(block));
        assert_clean(&l);
        let w = only(&l, "v1beta1-consolidate-after");
        assert_eq!(w.severity, Severity::Warning);
        assert_eq!(w.path, "spec.disruption.consolidateAfter", "{block}");
        assert!(
            w.message.contains("written disruption block"),
            "{}",
            w.message
        );
        assert!(
            w.ko.as_ref().is_some_and(|k| k.message.contains("직접 쓴")),
            "{:?}",
            w.ko
        );
        assert_eq!(l.scenario.node_pools[0].consolidate_after, Some(0));
    }
}

#[test]
fn ec2nodeclass_shapes_the_node() {
    let text = "\
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: br
spec:
  role: R
  amiSelectorTerms: [{alias: bottlerocket@latest}]
  subnetSelectorTerms: [{id: subnet-0abc}]
  securityGroupSelectorTerms: [{name: my-sg}]
  kubelet:
    maxPods: 58
    podsPerCore: 4
    kubeReserved: {cpu: 200m, memory: 1Gi, ephemeral-storage: 2Gi, pid: '100'}
    systemReserved: {memory: 100Mi}
    evictionHard: {memory.available: 5%, nodefs.available: 100Mi}
  blockDeviceMappings:
  - deviceName: /dev/xvda
    ebs: {volumeSize: 4Gi}
  - deviceName: /dev/xvdb
    ebs: {volumeSize: 100Gi, volumeType: gp3, encrypted: true}
  userData: |
    echo hi
  tags: {team: a}
";
    let l = load(text);
    assert_clean(&l);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let nc = &l.scenario.node_classes[0];
    assert_eq!(nc.ami_family, AmiFamily::Bottlerocket);
    assert_eq!(nc.ami_alias.as_deref(), Some("bottlerocket@latest"));
    assert_eq!(nc.root_volume_bytes, Some(100 << 30));
    assert_eq!(nc.kubelet.max_pods, Some(58));
    assert_eq!(nc.kubelet.pods_per_core, Some(4));
    assert_eq!(nc.kubelet.kube_reserved.get("cpu"), Some(&200));
    assert_eq!(nc.kubelet.kube_reserved.get("memory"), Some(&(1 << 30)));
    assert_eq!(nc.kubelet.kube_reserved.get("pid"), Some(&100));
    assert_eq!(nc.kubelet.system_reserved.get("memory"), Some(&(100 << 20)));
    assert_eq!(
        nc.kubelet
            .eviction_hard
            .get("memory.available")
            .map(String::as_str),
        Some("5%")
    );
    assert!(nc.subnet_zones.is_empty());
}

#[test]
fn ec2nodeclass_rules() {
    let text = "\
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: bad
spec:
  role: R
  instanceProfile: P
  amiSelectorTerms: [{alias: windows2022@v1}]
  subnetSelectorTerms: []
";
    let l = load(text);
    let msgs: Vec<_> = errors(&l)
        .iter()
        .map(|d| (d.path.clone(), d.code.as_str()))
        .collect();
    assert!(
        msgs.contains(&("spec.instanceProfile".into(), "role-xor-instance-profile")),
        "{msgs:?}"
    );
    assert!(
        msgs.contains(&("spec.amiSelectorTerms[0].alias".into(), "invalid-alias")),
        "{msgs:?}"
    );
    assert!(
        msgs.contains(&("spec.subnetSelectorTerms".into(), "no-selector-terms")),
        "{msgs:?}"
    );
    assert!(
        msgs.contains(&("spec.securityGroupSelectorTerms".into(), "missing-field")),
        "{msgs:?}"
    );
}

#[test]
fn v1beta1_ec2nodeclass_uses_ami_family() {
    let text = "\
apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata: {name: old}
spec:
  amiFamily: AL2
  role: R
  subnetSelectorTerms: [{tags: {a: b}}]
  securityGroupSelectorTerms: [{tags: {a: b}}]
  blockDeviceMappings:
  - {deviceName: /dev/xvda, ebs: {volumeSize: 80Gi}}
";
    let l = load(text);
    assert_clean(&l);
    let nc = &l.scenario.node_classes[0];
    assert_eq!(nc.ami_family, AmiFamily::Al2);
    assert_eq!(
        nc.ami_alias.as_deref(),
        Some("al2@latest"),
        "without selector terms v1beta1 ran the family's latest AMI"
    );
    assert_eq!(nc.root_volume_bytes, Some(80 << 30));
    assert_eq!(only(&l, "v1beta1-ami-family").path, "spec.amiFamily");
}

#[test]
fn workloads_get_the_api_servers_defaults() {
    let text = concat!(
        "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: nginx
        ports: [{containerPort: 80, hostPort: 8080}]
        resources:
          limits: {cpu: 2, memory: 1e3}
          requests: {cpu: 0.5}
      initContainers:
      - name: sidecar
        restartPolicy: Always
        command: [sh, -c, sleep 5]
      tolerations:
      - {key: a, value: b}
      - {operator: Exists}
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, ",
        "labelSelector: {matchLabels: {app: web}}}
      priorityClassName: system-cluster-critical
"
    );
    let l = load(text);
    assert_clean(&l);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let w = &l.scenario.workloads[0];
    assert_eq!(w.kind, WorkloadKind::Deployment);
    assert_eq!(w.namespace, "default");
    assert_eq!(w.replicas, 1);
    assert!(w.selector.is_some());
    let c = &w.template.spec.containers[0];
    assert_eq!(c.requests.get(ResourceName::Cpu), 500);
    assert_eq!(
        c.requests.get(ResourceName::Memory),
        1000,
        "request defaulted from the limit"
    );
    assert_eq!(c.limits.get(ResourceName::Cpu), 2000);
    assert_eq!(c.host_ports[0].port, 8080);
    assert_eq!(c.host_ports[0].protocol, "TCP");
    let init = &w.template.spec.init_containers[0];
    assert!(init.restart_always);
    assert_eq!(init.command, ["sh", "-c", "sleep 5"]);
    let t = &w.template.spec.tolerations;
    assert_eq!(t[0].operator, TolerationOperator::Equal);
    assert_eq!(t[0].effect, None);
    assert_eq!(t[1].operator, TolerationOperator::Exists);
    assert_eq!(t[1].key, "");
    let s = &w.template.spec.topology_spread[0];
    assert_eq!(s.when_unsatisfiable, WhenUnsatisfiable::DoNotSchedule);
    assert!(s.node_affinity_honor);
    assert!(!s.node_taints_honor);
    assert_eq!(w.template.spec.priority, 2_000_000_000);
}

#[test]
fn pod_scheduling_constraints() {
    let text = concat!(
        "\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: important}
value: 1000
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: kube-system, labels: {app: p}}
spec:
  nodeName: fixed-1
  terminationGracePeriodSeconds: 30
  priorityClassName: important
  priority: 1000
  runtimeClassName: sandboxed
  nodeSelector: {kubernetes.io/arch: arm64}
  containers: [{name: c}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions: [{key: topology.kubernetes.io/zone, operator: NotIn, values: [a]}]
        - matchExpressions: [{key: example.com/x, operator: Exists}]
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 10, preference: {matchExpressions: [{key: size, operator: Gt, values: ['3']}]}}
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchExpressions: [{key: app, operator: In, values: [db]}]}, ",
        "topologyKey: kubernetes.io/hostname, namespaces: [data]}
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          labelSelector: {matchLabels: {app: p}}
          namespaceSelector: {}
          topologyKey: topology.kubernetes.io/zone
          matchLabelKeys: [pod-template-hash]
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: sandboxed}
handler: kata
overhead: {podFixed: {cpu: 250m}}
"
    );
    let l = load(text);
    assert_clean(&l);
    let spec = &l.scenario.workloads[0].template.spec;
    assert_eq!(l.scenario.workloads[0].namespace, "kube-system");
    assert_eq!(spec.node_name.as_deref(), Some("fixed-1"));
    assert_eq!(spec.termination_grace_seconds, Some(30));
    assert_eq!(spec.priority, 1000);
    assert_eq!(spec.overhead.get(ResourceName::Cpu), 250);
    assert_eq!(spec.node_selector.len(), 1);
    assert_eq!(spec.node_affinity.required.len(), 2);
    assert_eq!(spec.node_affinity.required[0][0].operator, Operator::NotIn);
    assert_eq!(spec.node_affinity.preferred[0].weight, 10);
    assert_eq!(spec.pod_affinity[0].namespaces, ["data"]);
    assert_eq!(spec.pod_affinity[0].topology_key, "kubernetes.io/hostname");
    let anti = &spec.preferred_pod_anti_affinity[0];
    assert_eq!(anti.weight, 100);
    assert!(anti.term.namespace_selector.is_some());
    assert_eq!(anti.term.match_label_keys, ["pod-template-hash"]);
}

#[test]
fn jobs_follow_batch_v1_defaulting() {
    let job = |spec: &str| {
        format!(
            "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: j}}\nspec:\n\
             {spec}  template:\n    spec:\n      restartPolicy: Never\
             \n      containers: [{{name: c}}]\n"
        )
    };
    let l = load(&job(""));
    assert_clean(&l);
    assert_eq!(
        (
            l.scenario.workloads[0].replicas,
            l.scenario.workloads[0].completions
        ),
        (1, Some(1))
    );
    let l = load(&job("  parallelism: 3\n"));
    assert_eq!(
        (
            l.scenario.workloads[0].replicas,
            l.scenario.workloads[0].completions
        ),
        (3, None)
    );
    let l = load(&job("  completions: 5\n"));
    assert_eq!(
        (
            l.scenario.workloads[0].replicas,
            l.scenario.workloads[0].completions
        ),
        (1, Some(5))
    );
    let l = load(&job("  parallelism: 2\n  completions: 6\n"));
    assert_eq!(
        (
            l.scenario.workloads[0].replicas,
            l.scenario.workloads[0].completions
        ),
        (2, Some(6))
    );
    let l = load(&job("  parallelism: 2\n").replace("      restartPolicy: Never\n", ""));
    assert_eq!(
        only(&l, "missing-field").path,
        "spec.template.spec.restartPolicy"
    );
}

#[test]
fn controllers_are_checked_like_the_api_server_does() {
    let text = "\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: -1
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: web}}
    spec:
      restartPolicy: Never
      containers:
      - {name: a}
      - {name: a}
";
    let l = load(text);
    let paths: Vec<_> = errors(&l).iter().map(|d| d.path.clone()).collect();
    for expected in [
        "spec.replicas",
        "spec.template.spec.restartPolicy",
        "spec.template.spec.containers[1].name",
    ] {
        assert!(
            paths.iter().any(|p| p == expected),
            "no error at {expected}: {paths:#?}"
        );
    }
    // The selector check is skipped once other errors make the object unusable.
    let text = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n\
                spec:\n  selector: {matchLabels: {app: api}}\n  template:\
                \n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: a}]}\n";
    assert_eq!(only(&load(text), "selector-mismatch").path, "spec.selector");
}

#[test]
fn wrong_value_types_are_errors_with_a_fix() {
    let text = "\
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: '3'
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db, version: 1.0}}
    spec:
      containers: [{name: c, args: [--port, 80]}]
";
    let l = load(text);
    let errs = errors(&l);
    assert_eq!(errs.len(), 3, "{errs:#?}");
    assert!(errs.iter().all(|d| d.code == "invalid-type"));
    assert_eq!(errs[0].path, "spec.replicas");
    assert_eq!(errs[0].help.as_deref(), Some("remove the quotes: 3"));
    assert_eq!(errs[1].path, "spec.template.metadata.labels.version");
    assert_eq!(errs[1].help.as_deref(), Some("quote the value: \"1.0\""));
    assert_eq!(errs[2].path, "spec.template.spec.containers[0].args[1]");
}

#[test]
fn unknown_fields_are_warnings_with_suggestions() {
    let text = "\
apiVersion: v1
kind: Pod
metadata:
  name: p
  lables: {a: b}
spec:
  containers:
  - name: c
    resources:
      request: {cpu: 1}
";
    let l = load(text);
    assert_clean(&l);
    let w: Vec<_> = l
        .diagnostics
        .iter()
        .filter(|d| d.code == "unknown-field")
        .collect();
    assert_eq!(w.len(), 2);
    assert_eq!(w[0].path, "metadata.lables");
    assert_eq!((w[0].line, w[0].column), (5, 3));
    assert_eq!(w[0].help.as_deref(), Some("did you mean `labels`?"));
    assert_eq!(w[1].path, "spec.containers[0].resources.request");
    assert_eq!(w[1].help.as_deref(), Some("did you mean `requests`?"));
    assert_eq!(l.scenario.workloads.len(), 1);
}

#[test]
fn duplicate_objects_point_at_the_first() {
    let text = "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\n\
                kind: Namespace\nmetadata:\n  name: a\n";
    let l = load(text);
    let d = only(&l, "duplicate-object");
    assert_eq!(d.document, 1);
    assert_eq!((d.line, d.column), (8, 9));
    assert!(
        d.message.contains("document 1") && d.message.contains("line 3"),
        "{}",
        d.message
    );
    assert_eq!(l.scenario.namespaces.len(), 1);
    // Same name, different namespace or kind: fine.
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c}]}\n\
                ---\napiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: kube-system}\n\
                spec: {containers: [{name: c}]}\n";
    assert_clean(&load(text));
}

#[test]
fn duplicate_keys_are_errors_with_a_path() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [{name: c}]\
                \n  containers: [{name: d}]\n";
    let l = load(text);
    let d = only(&l, "duplicate-field");
    assert_eq!(d.path, "spec.containers");
    assert_eq!(d.line, 6);
    // The second copy is the duplicate, not also an unknown field "meant" as itself.
    let text = "apiVersion: playground.karpenter.dev/v1alpha1\nkind: InstanceType\n\
                metadata: {name: a}\nspec: {cpu: \"2\", memory: 8Gi, offerings: [{zone: z1, \
                capacityType: on-demand, price: 0.1}]}\nkind: InstanceType\n";
    let l = load(text);
    assert_eq!(only(&l, "duplicate-field").line, 5);
    assert!(
        l.diagnostics.iter().all(|d| d.code != "unknown-field"),
        "{:#?}",
        l.diagnostics
    );
}

#[test]
fn playground_kinds() {
    let text = "\
apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {name: demo}
spec:
  region: ap-northeast-2
  zones: [ap-northeast-2a, ap-northeast-2c]
  seed: 42
  nodeGroups:
  - name: fixed
    instanceType: small
    labels: {role: system}
    taints: [{key: dedicated, value: system, effect: NoSchedule}]
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: small}
spec:
  cpu: 2
  memory: 8Gi
  arch: arm64
  labels: {karpenter.k8s.aws/instance-category: c}
  overhead: {cpu: 100m, memory: 100Mi}
  offerings:
  - {zone: ap-northeast-2a, capacityType: spot, price: 0.14}
  - {zone: ap-northeast-2a, price: '0.2', available: false}
";
    let l = load(text);
    assert_clean(&l);
    let c = &l.scenario.cluster;
    assert_eq!(
        (c.name.as_str(), c.region.as_str(), c.seed),
        ("demo", "ap-northeast-2", 42)
    );
    let g = &c.node_groups[0];
    assert_eq!((g.count, g.capacity_type.as_str()), (1, "on-demand"));
    assert_eq!(g.taints[0].key, "dedicated");
    let it = &l.scenario.instance_types[0];
    assert_eq!(it.capacity.get(ResourceName::Cpu), 2000);
    assert_eq!(it.capacity.get(ResourceName::Pods), 110);
    assert_eq!((it.arch.as_str(), it.os.as_str()), ("arm64", "linux"));
    assert_eq!(
        it.overhead.map(|o| o.get(ResourceName::Memory)),
        Some(100 << 20)
    );
    assert_eq!(it.offerings[0].price, 140_000);
    assert_eq!(it.offerings[0].capacity_type, CapacityType::Spot);
    assert!(it.offerings[0].available);
    assert_eq!(it.offerings[1].price, 200_000);
    assert_eq!(it.offerings[1].capacity_type, CapacityType::OnDemand);
    assert!(!it.offerings[1].available);
}

#[test]
fn cluster_defaults_and_node_group_references() {
    let l =
        load("apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\nmetadata: {name: c}\n");
    assert_clean(&l);
    assert_eq!(l.scenario.cluster.region, "us-east-1");
    let text = "\
apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {name: c}
spec:
  nodeGroups: [{name: g, instanceType: smal}]
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: small}
spec: {cpu: 2, memory: 4Gi, offerings: [{zone: z, price: 1}]}
";
    let l = load(text);
    let d = only(&l, "unknown-reference");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.path, "spec.nodeGroups[0].instanceType");
    assert_eq!(d.help.as_deref(), Some("did you mean `small`?"));
    assert_eq!(
        l.scenario.cluster.name, "playground",
        "the erroneous Cluster is left out"
    );
    let text = "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\nmetadata: {name: a}\n\
                ---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\n\
                metadata: {name: b}\n";
    assert_eq!(only(&load(text), "duplicate-object").document, 1);
}

#[test]
fn timelines() {
    let text = "\
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {name: lab}
spec:
  steps:
  - {at: 3m, delete: {kind: Deployment, name: web}}
  - {at: 2m, scale: {kind: Deployment, name: web, namespace: default, replicas: 8}}
  - at: 4m
    apply:
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: extra}
      spec:
        template:
          spec:
            nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
            requirements: []
        disruption: {consolidateAfter: 30s}
  - {at: 5m, interrupt: {nodepool: extra}}
  - {at: 6m, releaseAmi: {alias: al2023}}
  - {at: 7m, delete: {kind: NodePool, name: extra}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c}]}
---
";
    let text = format!("{text}{NODECLASS}");
    let l = load(&text);
    assert_clean(&l);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let steps = &l.scenario.timeline;
    assert_eq!(steps.len(), 6);
    assert_eq!(steps[0].at, 120_000, "sorted by time");
    assert!(matches!(
        &steps[0].action,
        TimelineAction::Scale {
            replicas: 8,
            kind: WorkloadKind::Deployment,
            ..
        }
    ));
    assert!(
        matches!(&steps[1].action, TimelineAction::Delete { kind, namespace, .. }
            if kind == "Deployment" && namespace == "default")
    );
    match &steps[2].action {
        TimelineAction::Apply(obj) => match obj.as_ref() {
            AppliedObject::NodePool(np) => assert_eq!(np.consolidate_after, Some(30_000)),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&steps[3].action, TimelineAction::Interrupt { nodepool: Some(p), node: None }
            if p == "extra")
    );
    assert!(matches!(&steps[4].action, TimelineAction::ReleaseAmi { alias } if alias == "al2023"));
    assert!(
        matches!(&steps[5].action, TimelineAction::Delete { namespace, .. } if namespace.is_empty())
    );
}

#[test]
fn timeline_errors_are_reported_inside_the_applied_object() {
    let text = "\
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {name: lab}
spec:
  steps:
  - {at: 2m, scale: {kind: Deployment, name: web, replicas: 1}, delete: {kind: Pod, name: x}}
  - at: soon
    apply:
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        containers: [{name: c, resources: {requests: {memory: lots}}}]
  - {at: 1m}
  - {at: 1m, scale: {kind: Deployment, name: nowhere, replicas: 2}}
";
    let l = load(text);
    let errs: Vec<_> = errors(&l).iter().map(|d| d.path.clone()).collect();
    assert!(
        errs.contains(&"spec.steps[0].delete".to_string()),
        "{errs:#?}"
    );
    assert!(errs.contains(&"spec.steps[1].at".to_string()), "{errs:#?}");
    assert!(
        errs.contains(
            &"spec.steps[1].apply.spec.containers[0].resources.requests.memory".to_string()
        ),
        "{errs:#?}"
    );
    assert!(errs.contains(&"spec.steps[2]".to_string()), "{errs:#?}");
    assert!(l.scenario.timeline.is_empty());
    let l = load(
        "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\nmetadata: {name: t}\n\
         spec:\n  steps: [{at: 1m, scale: {kind: Deployment, name: nowhere, replicas: 2}}]\n",
    );
    let d = only(&l, "unknown-reference");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.path, "spec.steps[0].scale.name");
}

#[test]
fn pdbs_and_namespaces() {
    let text = "\
apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {tier: prod}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop}
spec:
  maxUnavailable: 0
  selector: {matchLabels: {app: web}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: api, namespace: shop}
spec:
  minAvailable: 50%
  selector: {matchLabels: {app: api}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: bad, namespace: elsewhere}
spec:
  minAvailable: '2'
  selector: {matchLabels: {app: api}}
";
    let l = load(text);
    assert_eq!(
        l.scenario.namespaces[0]
            .labels
            .get("tier")
            .map(String::as_str),
        Some("prod")
    );
    assert_eq!(l.scenario.pdbs.len(), 2);
    assert_eq!(
        l.scenario.pdbs[0].max_unavailable,
        Some(IntOrPercent::Int(0))
    );
    assert_eq!(
        l.scenario.pdbs[1].min_available,
        Some(IntOrPercent::Percent(50))
    );
    let d = only(&l, "invalid-int-or-percent");
    assert_eq!(d.path, "spec.minAvailable");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("\"2%\"")));
}

#[test]
fn missing_namespace_and_node_class_are_warnings() {
    let text = "\
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: team-a}
spec: {containers: [{name: c}]}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: np}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: nope}
      requirements: []
  disruption: {consolidateAfter: 0s}
";
    let l = load(text);
    assert_clean(&l);
    let refs: Vec<_> = l
        .diagnostics
        .iter()
        .filter(|d| d.code == "unknown-reference")
        .collect();
    assert_eq!(refs.len(), 2, "{refs:#?}");
    assert_eq!(refs[0].path, "metadata.namespace");
    assert_eq!(refs[1].path, "spec.template.spec.nodeClassRef.name");
    assert_eq!((refs[1].line, refs[1].column), (12, 74));
    assert_eq!(l.scenario.node_pools.len(), 1);
}

#[test]
fn lists_are_read_item_by_item() {
    let text = "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Namespace
  metadata: {name: a}
- apiVersion: v1
  kind: Namespace
  metadata: {name: 'B'}
";
    let l = load(text);
    let d = only(&l, "invalid-name");
    assert_eq!(d.path, "items[1].metadata.name");
    assert_eq!(d.object.as_deref(), Some("Namespace/B"));
    assert_eq!(l.scenario.namespaces.len(), 1);
}

#[test]
fn known_kinds_in_versions_the_api_server_does_not_serve_are_refused() {
    let workload = |api_version: &str, kind: &str| {
        format!(
            "apiVersion: {api_version}\nkind: {kind}\nmetadata: {{name: r}}\n\
             spec:\n  replicas: 2\n  selector: {{matchLabels: {{a: b}}}}\
             \n  template: {{metadata: {{labels: {{a: b}}}}, \
             spec: {{containers: [{{name: c}}]}}}}\n"
        )
    };
    for (api_version, kind, current) in [
        ("apps/v1beta2", "ReplicaSet", "apps/v1"),
        ("apps/v2", "Deployment", "apps/v1"),
        ("v1", "Deployment", "apps/v1"),
    ] {
        let l = load(&workload(api_version, kind));
        let d = only(&l, "unexpected-api-version");
        assert_eq!(d.severity, Severity::Error);
        assert_eq!(
            d.message,
            format!("no matches for kind \"{kind}\" in version \"{api_version}\"")
        );
        assert_eq!(
            d.help.as_deref(),
            Some(format!("use `apiVersion: {current}`").as_str())
        );
        assert_eq!((d.path.as_str(), d.line, d.column), ("apiVersion", 1, 13));
        assert_eq!(
            d.object.as_deref(),
            Some(format!("{kind}/default/r").as_str())
        );
        let ko = d.ko.expect("a Korean message");
        assert!(
            ko.message.contains(api_version) && ko.message.contains(kind),
            "{ko:?}"
        );
        // Refused as a whole: nothing else of it is read or reported.
        assert_eq!(l.diagnostics.len(), 1, "{:#?}", l.diagnostics);
        assert!(l.scenario.workloads.is_empty());
    }

    // The same inside a List and in a Timeline's `apply:` step, at the value's own column.
    let l = load(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Namespace\n  \
         metadata: {name: a}\n- apiVersion: apps/v2\n  kind: Deployment\n  metadata: {name: d}\n",
    );
    let d = only(&l, "unexpected-api-version");
    assert_eq!(
        (d.path.as_str(), d.line, d.column),
        ("items[1].apiVersion", 7, 15)
    );
    assert_eq!(l.scenario.namespaces.len(), 1, "the other item is read");
    let l = load(
        "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\nmetadata: {name: t}\n\
         spec:\n  steps:\n  - at: 1m\n    apply:\n      apiVersion: policy/v1beta1\n      \
         kind: PodDisruptionBudget\n      metadata: {name: p}\n      \
         spec: {minAvailable: 1, selector: {matchLabels: {a: b}}}\n",
    );
    let d = only(&l, "unexpected-api-version");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(
        d.message,
        "no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\""
    );
    assert_eq!(
        (d.path.as_str(), d.line, d.column),
        ("spec.steps[0].apply.apiVersion", 8, 19)
    );
    assert!(l.scenario.timeline.is_empty());

    // What the contract reads stays read: v1beta1 Karpenter objects, and other kinds are
    // skipped with a warning whatever their version.
    let l = load(
        "apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata: {name: default}\n\
         spec:\n  amiFamily: AL2023\n  role: r\n  \
         subnetSelectorTerms: [{tags: {a: b}}]\n  securityGroupSelectorTerms: [{tags: {a: b}}]\n\
         ---\napiVersion: v2\nkind: Service\nmetadata: {name: s}\n",
    );
    assert_clean(&l);
    assert_eq!(l.scenario.node_classes.len(), 1);
    assert!(
        l.diagnostics
            .iter()
            .all(|d| d.code != "unexpected-api-version")
    );
    assert_eq!(only(&l, "unknown-kind").severity, Severity::Warning);
}

#[test]
fn missing_required_fields() {
    let l = load("apiVersion: v1\nkind: Pod\nmetadata: {}\nspec:\n  containers: []\n");
    let errs = errors(&l);
    assert_eq!(errs.len(), 2, "{errs:#?}");
    assert_eq!(errs[0].path, "metadata.name");
    assert_eq!(errs[0].code, "missing-field");
    assert_eq!(errs[1].path, "spec.containers");
    let l = load("kind: Pod\n");
    assert_eq!(only(&l, "missing-field").path, "apiVersion");
    let l = load("- a\n- b\n");
    assert_eq!(only(&l, "invalid-type").line, 1);
}

#[test]
fn size_caps() {
    let big = "#".repeat(kpg_manifests::MAX_INPUT_BYTES + 1);
    let l = load(&big);
    assert_eq!(only(&l, "too-large").document, 0);

    let deploy = |name: &str, n: u32| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}}}\n\
             spec:\n  replicas: {n}\n  selector: {{matchLabels: {{a: b}}}}\
             \n  template: {{metadata: {{labels: {{a: b}}}}, spec: \
             {{containers: [{{name: c}}]}}}}\n"
        )
    };
    let text = format!(
        "{}---\n{}---\n{}",
        deploy("a", 30_000),
        deploy("b", 30_000),
        deploy("c", 20_000)
    );
    let l = load(&text);
    let d = only(&l, "too-large");
    assert_eq!(d.document, 1);
    assert!(d.help.is_some());
    // At the count a learner lowers (line 5 of the second document), not at the name.
    assert_eq!(
        (d.path.as_str(), d.line, d.column),
        ("spec.replicas", 8 + 5, 13),
        "{d:?}"
    );
    assert_eq!(l.scenario.workloads.len(), 2);

    let l = load(
        "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\nmetadata: {name: c}\n\
         spec:\n  nodeGroups: [{name: a, instanceType: m5.large, count: 4000}, {name: b, \
         instanceType: m5.large, count: 2000}]\n",
    );
    assert_eq!(only(&l, "too-large").path, "spec.nodeGroups[1]");

    let text = format!(
        "{}---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\n\
         metadata: {{name: t}}\nspec:\n  steps: [{{at: 1m, scale: {{kind: Deployment, name: a, \
         replicas: 50000}}}}, {{at: 2m, scale: {{kind: Deployment, name: b, replicas: 10}}}}]\n",
        deploy("a", 10)
    );
    let l = load(&text);
    assert_eq!(only(&l, "too-large").path, "spec.steps[1]");
}

#[test]
fn document_spans_outline_the_stream() {
    let text = format!(
        "---\n{NODECLASS}---\n# comment\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
    );
    let spans = kpg_manifests::document_spans(&text);
    assert_eq!(
        spans,
        vec![
            (2, 13, Some("EC2NodeClass/default".into())),
            (16, 19, Some("Pod/default/p".into()))
        ]
    );
}

#[test]
fn anchors_and_merge_keys_work() {
    let text = "\
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: a
    resources: &res {requests: {cpu: 1}}
  - name: b
    resources: *res
";
    let l = load(text);
    assert_clean(&l);
    let spec = &l.scenario.workloads[0].template.spec;
    assert_eq!(spec.containers[1].requests.get(ResourceName::Cpu), 1000);
}

#[test]
fn the_built_in_catalog_knows_regions_zones_and_instance_types() {
    let cluster = |spec: &str| {
        format!(
            "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\n\
             metadata: {{name: c}}\nspec:\n{spec}"
        )
    };
    let l = load(&cluster(
        "  region: ap-northeast-2\n  zones: [ap-northeast-2a]\n  nodeGroups: [{name: g, \
         instanceType: t3.medium, count: 2}]\n",
    ));
    assert_clean(&l);
    assert_eq!(l.scenario.cluster.node_groups[0].count, 2);

    let l = load(&cluster("  region: eu-mars-1\n"));
    let d = only(&l, "unknown-reference");
    assert_eq!(d.path, "spec.region");
    assert!(d.help.as_deref().is_some_and(|h| h.contains("us-east-1")));

    let l = load(&cluster(
        "  region: ap-northeast-2\n  zones: [ap-northeast-2a, us-east-1a]\n",
    ));
    assert_eq!(only(&l, "unknown-reference").path, "spec.zones[1]");

    let l = load(&cluster(
        "  nodeGroups: [{name: g, instanceType: m5.larg}]\n",
    ));
    let d = only(&l, "unknown-reference");
    assert_eq!(d.path, "spec.nodeGroups[0].instanceType");
    assert_eq!(d.help.as_deref(), Some("did you mean `m5.large`?"));
}

#[test]
fn the_terminals_steps_read_cordon_annotate_and_live_objects() {
    let text = concat!(
        "\
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {name: terminal}
spec:
  steps:
  - {at: 1m, cordon: {node: default-abcde}}
  - {at: 2m, cordon: {node: default-abcde, unschedulable: false}}
  - {at: 3m, annotate: {kind: Node, name: default-abcde, ",
        "set: {karpenter.sh/do-not-disrupt: \"true\"}}}
  - {at: 4m, annotate: {kind: Pod, name: web-1, remove: [karpenter.sh/do-not-disrupt]}}
  - {at: 5m, delete: {kind: NodeClaim, name: default-abcde}}
  - {at: 6m, delete: {kind: Pod, name: web-6d4b9-x2k4p}}
"
    );
    let l = load(text);
    assert!(
        l.diagnostics.is_empty(),
        "nodes and controller-made pods are not documents to refer to: {:#?}",
        l.diagnostics
    );
    let steps = &l.scenario.timeline;
    assert!(
        matches!(&steps[0].action, TimelineAction::Cordon { node, unschedulable: true }
            if node == "default-abcde")
    );
    assert!(matches!(
        &steps[1].action,
        TimelineAction::Cordon {
            unschedulable: false,
            ..
        }
    ));
    assert!(
        matches!(&steps[2].action, TimelineAction::Annotate { kind, namespace, set, .. }
            if kind == "Node"
                && namespace.is_empty()
                && set["karpenter.sh/do-not-disrupt"] == "true")
    );
    assert!(
        matches!(&steps[3].action, TimelineAction::Annotate { namespace, remove, .. }
            if namespace == "default" && remove == &["karpenter.sh/do-not-disrupt".to_string()])
    );
    assert!(
        matches!(&steps[4].action, TimelineAction::Delete { kind, namespace, .. }
            if kind == "NodeClaim" && namespace.is_empty())
    );

    let bad = "\
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {name: terminal}
spec:
  steps:
  - {at: 1m, annotate: {kind: Deployment, name: web, set: {a: b}}}
  - {at: 2m, annotate: {kind: Node, name: n}}
";
    let l = load(bad);
    let messages: Vec<String> = l
        .diagnostics
        .iter()
        .map(|d| format!("{}:{} {}", d.line, d.column, d.message))
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("6:")
                && m.contains("`Deployment` is not a valid kind to annotate")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("7:") && m.contains("annotate needs `set` or `remove`")),
        "{messages:?}"
    );
}

/// A NodePool as `kubectl get nodepool -o yaml` returns it reads back to the
/// `karpenter.sh/nodepool-hash` Karpenter put on it, `[]` lists included (the two cases of
/// `kpg_core::disruption`'s tests with an EC2NodeClass reference: the getting-started pool of
/// k8sug/karpenter-workshop, and the `ondemand-nodepool` whose describe output prints empty
/// `Taints:` and `Startup Taints:`).
#[test]
fn nodepool_hash_of_a_returned_nodepool() {
    let pool = |name: &str, class: &str, extra: &str| {
        format!(
            "{}---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: {name}
spec:
  disruption:
    budgets:
    - nodes: 10%
    consolidateAfter: 1m
    consolidationPolicy: WhenEmptyOrUnderutilized
  template:
    spec:
      expireAfter: 720h
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: {class}
      requirements:
      - key: kubernetes.io/arch
        operator: In
        values:
        - amd64
{extra}",
            NODECLASS.replace("name: default", &format!("name: {class}"))
        )
    };
    let l = load(&pool("default", "default", ""));
    assert_clean(&l);
    assert_eq!(
        kpg_core::disruption::pool_hash(&l.scenario.node_pools[0]),
        6821555240594823858
    );
    let empty_lists = "      startupTaints: []\n      taints: []\n";
    let l = load(&pool(
        "ondemand-nodepool",
        "default-ec2nodeclass",
        empty_lists,
    ));
    assert_clean(&l);
    let np = &l.scenario.node_pools[0];
    assert!(np.written_empty.taints && np.written_empty.startup_taints);
    assert_eq!(kpg_core::disruption::pool_hash(np), 11142864721958693070);
    // `null` is Go's nil: the same as leaving the lists out.
    let l = load(&pool(
        "ondemand-nodepool",
        "default-ec2nodeclass",
        "      startupTaints: null\n      taints:\n",
    ));
    assert_eq!(
        kpg_core::disruption::pool_hash(&l.scenario.node_pools[0]),
        45799952005767106
    );
}

//! The schema and CEL rules of `karpenter-semantics.md` §1.1 (NodePool) and §1.3
//! (EC2NodeClass), one case each: a manifest that breaks the rule gets an error at the field
//! that breaks it, and the same manifest without the break loads clean.

use kpg_manifests::{Severity, load};

const CLASS: &str = "apiVersion: karpenter.k8s.aws/v1
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

const POOL: &str = "apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: p
spec:
  template:
    metadata:
      labels:
        team: a
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: karpenter.sh/capacity-type
          operator: In
          values: [spot]
      expireAfter: 720h
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 30s
    budgets:
      - nodes: 10%
  limits:
    cpu: 100
  weight: 10
";

/// One rule: `good` must load clean; replacing `good` by `bad` in the same document must give
/// an error with the rule's `code` whose field path contains `path`.
struct Case {
    rule: &'static str,
    base: &'static str,
    good: &'static str,
    bad: &'static str,
    path: &'static str,
    code: &'static str,
}

fn korean(d: &kpg_manifests::Diagnostic) -> bool {
    d.ko.as_ref()
        .is_some_and(|k| k.message.chars().any(|c| ('가'..='힣').contains(&c)))
}

fn check(cases: &[Case]) {
    let mut failures = Vec::new();
    for c in cases {
        assert!(
            c.base.contains(c.good),
            "{}: the base has `{}`",
            c.rule,
            c.good
        );
        // Karpenter's objects are read together (the pool refers to the class).
        let good = if c.base == CLASS || c.base == POOL {
            format!("{CLASS}---\n{POOL}")
        } else {
            c.base.to_string()
        };
        let l = load(&good);
        let errs: Vec<String> = l
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.to_string())
            .collect();
        if !errs.is_empty() {
            failures.push(format!(
                "{}: the passing manifest has errors: {errs:?}",
                c.rule
            ));
            continue;
        }
        let l = load(&good.replacen(c.good, c.bad, 1));
        if !l
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.path.contains(c.path) && d.code == c.code)
        {
            let got: Vec<String> = l
                .diagnostics
                .iter()
                .map(|d| format!("{} {} {}", d.code, d.path, d.message))
                .collect();
            failures.push(format!(
                "{}: no {} error at {} in {got:?}",
                c.rule, c.code, c.path
            ));
        }
        // Every finding reads in Korean too (the page shows it to Korean readers), and says
        // how to fix it.
        for d in l.diagnostics.iter().filter(|d| !korean(d)) {
            failures.push(format!(
                "{}: no Korean for {} {}: {}",
                c.rule, d.code, d.path, d.message
            ));
        }
        for d in l.diagnostics.iter().filter(|d| d.help.is_none()) {
            failures.push(format!(
                "{}: no suggested fix for {} {}: {}",
                c.rule, d.code, d.path, d.message
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rules not enforced:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn node_pool_rules() {
    let r = |rule, good, bad, path, code| Case {
        rule,
        base: POOL,
        good,
        bad,
        path,
        code,
    };
    check(&[
        r(
            "template is required",
            "  template:\n    metadata:\n      labels:\n        team: a\n    spec:",
            "  templat:\n    metadata:\n      labels:\n        team: a\n    spec:",
            "spec.template",
            "missing-field",
        ),
        r(
            "nodeClassRef is required",
            "      nodeClassRef:",
            "      nodeClassRe:",
            "nodeClassRef",
            "missing-field",
        ),
        r(
            "nodeClassRef.group is required",
            "        group: karpenter.k8s.aws\n",
            "",
            "nodeClassRef.group",
            "missing-field",
        ),
        r(
            "nodeClassRef.kind is required",
            "        kind: EC2NodeClass\n",
            "",
            "nodeClassRef.kind",
            "missing-field",
        ),
        r(
            "nodeClassRef.name is non-empty",
            "        name: default",
            "        name: \"\"",
            "nodeClassRef.name",
            "empty-value",
        ),
        r(
            "nodeClassRef.group has no slash",
            "group: karpenter.k8s.aws",
            "group: karpenter.k8s.aws/v1",
            "nodeClassRef.group",
            "invalid-node-class-group",
        ),
        r(
            "requirements is required",
            "      requirements:\n",
            "      requirementz:\n",
            "requirements",
            "missing-field",
        ),
        r(
            "requirement key is a qualified name",
            "key: karpenter.sh/capacity-type",
            "key: \"bad key!\"",
            "requirements[0].key",
            "invalid-label",
        ),
        r(
            "requirement operator enum",
            "operator: In",
            "operator: Inn",
            "requirements[0].operator",
            "invalid-choice",
        ),
        r(
            "In needs a value",
            "values: [spot]",
            "values: []",
            "requirements[0].values",
            "missing-values",
        ),
        r(
            "Gt needs one integer",
            "- key: karpenter.sh/capacity-type\n          operator: In\n          values: [spot]",
            "- key: karpenter.k8s.aws/instance-cpu\n          operator: Gt\
             \n          values: [\"a\"]",
            "requirements[0].values",
            "invalid-bound",
        ),
        r(
            "minValues needs that many values",
            "values: [spot]",
            "values: [spot]\n          minValues: 2",
            "requirements[0]",
            "min-values-exceeds-values",
        ),
        r(
            "minValues is 1..50",
            "values: [spot]",
            "values: [spot]\n          minValues: 0",
            "requirements[0].minValues",
            "out-of-range",
        ),
        r(
            "requirement value is a label value",
            "values: [spot]",
            "values: [\"sp ot\"]",
            "requirements[0].values[0]",
            "invalid-label",
        ),
        r(
            "label domain karpenter.sh is restricted",
            "key: karpenter.sh/capacity-type",
            "key: karpenter.sh/custom",
            "requirements[0].key",
            "restricted-label",
        ),
        r(
            "karpenter.sh/nodepool is restricted",
            "key: karpenter.sh/capacity-type\n          operator: In\n          values: [spot]",
            "key: karpenter.sh/nodepool\n          operator: In\n          values: [x]",
            "requirements[0].key",
            "restricted-label",
        ),
        r(
            "kubernetes.io/hostname is restricted",
            "key: karpenter.sh/capacity-type\n          operator: In\n          values: [spot]",
            "key: kubernetes.io/hostname\n          operator: In\n          values: [x]",
            "requirements[0].key",
            "restricted-label",
        ),
        r(
            "label domain karpenter.k8s.aws is restricted",
            "key: karpenter.sh/capacity-type\n          operator: In\n          values: [spot]",
            "key: karpenter.k8s.aws/custom\n          operator: In\n          values: [x]",
            "requirements[0].key",
            "restricted-label",
        ),
        r(
            "label keys are qualified names",
            "        team: a",
            "        \"bad key!\": a",
            "labels",
            "invalid-label",
        ),
        r(
            "label values are label values",
            "        team: a",
            "        team: \"a b\"",
            "labels.team",
            "invalid-label",
        ),
        r(
            "labels may not use karpenter.sh/nodepool",
            "        team: a",
            "        karpenter.sh/nodepool: a",
            "labels",
            "restricted-label",
        ),
        r(
            "labels may not use a restricted domain",
            "        team: a",
            "        karpenter.sh/custom: a",
            "labels",
            "restricted-label",
        ),
        r(
            "taint effect enum",
            "      expireAfter: 720h",
            "      expireAfter: 720h\n      taints:\n        - {key: a, effect: Sometimes}",
            "taints[0].effect",
            "invalid-choice",
        ),
        r(
            "no duplicate taint key+effect across taints and startupTaints",
            "      expireAfter: 720h",
            "      expireAfter: 720h\n      taints:\n        - {key: a, effect: NoSchedule}\
             \n      startupTaints:\n        - {key: a, effect: NoSchedule}",
            "taints",
            "duplicate-taint",
        ),
        r(
            "expireAfter pattern",
            "expireAfter: 720h",
            "expireAfter: 30d",
            "expireAfter",
            "invalid-duration",
        ),
        r(
            "terminationGracePeriod has no Never",
            "      expireAfter: 720h",
            "      expireAfter: 720h\n      terminationGracePeriod: Never",
            "terminationGracePeriod",
            "invalid-duration",
        ),
        r(
            "consolidationPolicy enum",
            "consolidationPolicy: WhenEmptyOrUnderutilized",
            "consolidationPolicy: WhenIdle",
            "consolidationPolicy",
            "invalid-choice",
        ),
        r(
            "consolidateAfter is required",
            "    consolidateAfter: 30s\n",
            "",
            "consolidateAfter",
            "missing-field",
        ),
        r(
            "consolidateAfter pattern",
            "consolidateAfter: 30s",
            "consolidateAfter: 30sec",
            "consolidateAfter",
            "invalid-duration",
        ),
        r(
            "budget nodes pattern",
            "nodes: 10%",
            "nodes: 101%",
            "budgets[0].nodes",
            "invalid-budget-nodes",
        ),
        r(
            "budget schedule needs duration",
            "      - nodes: 10%",
            "      - nodes: 10%\n        schedule: \"@daily\"",
            "budgets[0]",
            "schedule-without-duration",
        ),
        r(
            "budget duration pattern",
            "      - nodes: 10%",
            "      - nodes: 10%\n        schedule: \"@daily\"\n        duration: 10s",
            "budgets[0].duration",
            "invalid-budget-duration",
        ),
        r(
            "budget reasons enum",
            "      - nodes: 10%",
            "      - nodes: 10%\n        reasons: [Bored]",
            "budgets[0].reasons[0]",
            "invalid-choice",
        ),
        r(
            "weight is 1..100",
            "weight: 10",
            "weight: 101",
            "weight",
            "out-of-range",
        ),
        r(
            "limits are quantities",
            "cpu: 100",
            "cpu: lots",
            "limits.cpu",
            "invalid-quantity",
        ),
    ]);
}

#[test]
fn ec2_node_class_rules() {
    let r = |rule, good, bad, path, code| Case {
        rule,
        base: CLASS,
        good,
        bad,
        path,
        code,
    };
    check(&[
        r(
            "subnetSelectorTerms is required",
            "  subnetSelectorTerms:",
            "  subnetSelectorTermz:",
            "subnetSelectorTerms",
            "missing-field",
        ),
        r(
            "securityGroupSelectorTerms is required",
            "  securityGroupSelectorTerms:",
            "  securityGroupSelectorTermz:",
            "securityGroupSelectorTerms",
            "missing-field",
        ),
        r(
            "amiSelectorTerms is required",
            "  amiSelectorTerms:\n    - alias: al2023@latest\n",
            "",
            "amiSelectorTerms",
            "missing-field",
        ),
        r(
            "exactly one of role and instanceProfile",
            "  role: KarpenterNodeRole-demo\n",
            "",
            "spec",
            "role-xor-instance-profile",
        ),
        r(
            "not both role and instanceProfile",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  instanceProfile: p\n",
            "spec",
            "role-xor-instance-profile",
        ),
        r(
            "alias format",
            "alias: al2023@latest",
            "alias: al2023",
            "amiSelectorTerms[0].alias",
            "invalid-alias",
        ),
        r(
            "alias family",
            "alias: al2023@latest",
            "alias: ubuntu@latest",
            "amiSelectorTerms[0].alias",
            "invalid-alias",
        ),
        r(
            "windows aliases are @latest only",
            "alias: al2023@latest",
            "alias: windows2022@v1",
            "amiSelectorTerms[0].alias",
            "invalid-alias",
        ),
        r(
            "alias is alone",
            "    - alias: al2023@latest\n",
            "    - alias: al2023@latest\n    - id: ami-0123\n",
            "amiSelectorTerms",
            "alias-not-alone",
        ),
        r(
            "amiFamily needed without alias",
            "    - alias: al2023@latest\n",
            "    - id: ami-0123\n",
            "amiFamily",
            "missing-field",
        ),
        r(
            "amiFamily must match the alias",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  amiFamily: Bottlerocket\n",
            "amiFamily",
            "ami-family-mismatch",
        ),
        r(
            "subnet id pattern",
            "    - tags: {karpenter.sh/discovery: demo}\n  securityGroupSelectorTerms:",
            "    - id: net-1\n  securityGroupSelectorTerms:",
            "subnetSelectorTerms[0].id",
            "invalid-resource-id",
        ),
        r(
            "subnet id is exclusive",
            "    - tags: {karpenter.sh/discovery: demo}\n  securityGroupSelectorTerms:",
            "    - {id: subnet-1, tags: {a: b}}\n  securityGroupSelectorTerms:",
            "subnetSelectorTerms[0]",
            "exclusive-selector-field",
        ),
        r(
            "security group id pattern",
            "  securityGroupSelectorTerms:\n    - tags: {karpenter.sh/discovery: demo}",
            "  securityGroupSelectorTerms:\n    - id: group-1",
            "securityGroupSelectorTerms[0].id",
            "invalid-resource-id",
        ),
        r(
            "tags may not be empty",
            "    - tags: {karpenter.sh/discovery: demo}\n  securityGroupSelectorTerms:",
            "    - tags: {}\n  securityGroupSelectorTerms:",
            "subnetSelectorTerms[0].tags",
            "empty-tag",
        ),
        r(
            "kubelet maxPods >= 0",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  kubelet: {maxPods: -1}\n",
            "kubelet.maxPods",
            "out-of-range",
        ),
        r(
            "kubelet reserved keys",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  kubelet: {kubeReserved: {gpu: 1}}\n",
            "kubelet.kubeReserved",
            "invalid-reserved-resource",
        ),
        r(
            "eviction signals",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  kubelet: {evictionHard: {disk.available: 10%}}\n",
            "kubelet.evictionHard",
            "invalid-eviction-signal",
        ),
        r(
            "image GC high > low",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  kubelet: {imageGCHighThresholdPercent: 50, \
             imageGCLowThresholdPercent: 60}\n",
            "kubelet",
            "image-gc-thresholds",
        ),
        r(
            "one root volume",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  blockDeviceMappings:\
             \n    - {deviceName: /dev/xvda, rootVolume: true, ebs: {volumeSize: 20Gi}}\
             \n    - {deviceName: /dev/xvdb, rootVolume: true, ebs: {volumeSize: 20Gi}}\n",
            "blockDeviceMappings",
            "multiple-root-volumes",
        ),
        r(
            "volume type enum",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  blockDeviceMappings:\
             \n    - {deviceName: /dev/xvda, ebs: {volumeSize: 20Gi, volumeType: gp9}}\n",
            "ebs.volumeType",
            "invalid-choice",
        ),
        r(
            "ebs needs a size or snapshot",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  blockDeviceMappings:\
             \n    - {deviceName: /dev/xvda, ebs: {encrypted: true}}\n",
            "ebs",
            "ebs-needs-size-or-snapshot",
        ),
        r(
            "hop limit 1..64",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  metadataOptions: {httpPutResponseHopLimit: 65}\n",
            "metadataOptions.httpPutResponseHopLimit",
            "out-of-range",
        ),
        r(
            "tags forbid cluster keys",
            "  role: KarpenterNodeRole-demo\n",
            "  role: KarpenterNodeRole-demo\n  tags: {karpenter.sh/nodepool: x}\n",
            "tags",
            "restricted-tag",
        ),
    ]);
}

/// A generated manifest fragment, for the cases whose breaking text is long.
fn text(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

#[test]
fn node_pool_size_and_version_rules() {
    let r = |rule, good, bad, path, code| Case {
        rule,
        base: POOL,
        good,
        bad,
        path,
        code,
    };
    let many_labels: String = (0..101).map(|i| format!("        l{i}: v\n")).collect();
    let long_key = format!("{}/{}", "a".repeat(253), "b".repeat(63));
    let many_reqs: String = (0..101)
        .map(|i| format!("        - {{key: example.com/k{i}, operator: Exists}}\n"))
        .collect();
    let many_budgets: String = (0..51)
        .map(|_| "      - nodes: 10%\n".to_string())
        .collect();
    check(&[
        r(
            "at most 100 labels",
            "        team: a\n",
            text(many_labels),
            "spec.template.metadata.labels",
            "too-many-items",
        ),
        r(
            "label values are at most 63 characters",
            "        team: a",
            text(format!("        team: {}", "a".repeat(64))),
            "labels.team",
            "invalid-label",
        ),
        r(
            "requirement keys are at most 316 characters",
            "key: karpenter.sh/capacity-type",
            text(format!("key: {long_key}")),
            "requirements[0].key",
            "too-long",
        ),
        r(
            "requirement values are at most 63 characters",
            "values: [spot]",
            text(format!("values: [{}]", "s".repeat(64))),
            "requirements[0].values[0]",
            "invalid-label",
        ),
        r(
            "at most 100 requirements",
            "      requirements:\n",
            text(format!("      requirements:\n{many_reqs}")),
            "spec.template.spec.requirements",
            "too-many-items",
        ),
        r(
            "at most 50 budgets",
            "      - nodes: 10%\n",
            text(many_budgets),
            "spec.disruption.budgets",
            "too-many-items",
        ),
        r(
            "budget reasons are a set",
            "      - nodes: 10%",
            "      - nodes: 10%\n        reasons: [Empty, Drifted, Empty]",
            "budgets[0].reasons[2]",
            "duplicate-item",
        ),
        r(
            "budget schedule is cron",
            "      - nodes: 10%",
            "      - nodes: 10%\n        schedule: every day\n        duration: 1h",
            "budgets[0].schedule",
            "invalid-schedule",
        ),
        r(
            "NodePool durations are whole s, m or h",
            "expireAfter: 720h",
            "expireAfter: 1.5h",
            "expireAfter",
            "invalid-nodepool-duration",
        ),
        r(
            "taint keys are qualified names",
            "      expireAfter: 720h",
            "      expireAfter: 720h\n      taints:\
             \n        - {key: \"bad key\", effect: NoSchedule}",
            "taints[0].key",
            "invalid-label",
        ),
        r(
            "a static NodePool takes no weight",
            "  weight: 10",
            "  replicas: 2\n  weight: 10",
            "spec.weight",
            "static-nodepool",
        ),
        r(
            "a static NodePool limits only nodes",
            "  limits:\n    cpu: 100",
            "  replicas: 2\n  limits:\n    cpu: 100",
            "spec.limits",
            "static-nodepool",
        ),
        r(
            "replicas are not negative",
            "  weight: 10",
            "  weight: 10\n  replicas: -1",
            "spec.replicas",
            "out-of-range",
        ),
    ]);
}

#[test]
fn ec2_node_class_fine_print_rules() {
    let r = |rule, good, bad, path, code| Case {
        rule,
        base: CLASS,
        good,
        bad,
        path,
        code,
    };
    let role = "  role: KarpenterNodeRole-demo\n";
    let with = |extra: &str| text(format!("{role}{extra}"));
    let many_tags: String = (0..21).map(|i| format!("t{i}: v, ")).collect();
    let many_terms: String = (0..31).map(|i| format!("    - id: subnet-{i}\n")).collect();
    let many_bdms: String = (0..51)
        .map(|i| format!("    - {{deviceName: /dev/xvd{i}, ebs: {{volumeSize: 20Gi}}}}\n"))
        .collect();
    check(&[
        r(
            "evictionSoft needs a grace period",
            role,
            with("  kubelet:\n    evictionSoft: {memory.available: 500Mi}\n"),
            "kubelet.evictionSoft",
            "eviction-soft-pairing",
        ),
        r(
            "a grace period needs evictionSoft",
            role,
            with("  kubelet:\n    evictionSoftGracePeriod: {memory.available: 1m}\n"),
            "kubelet.evictionSoftGracePeriod",
            "eviction-soft-pairing",
        ),
        r(
            "podsPerCore >= 0",
            role,
            with("  kubelet: {podsPerCore: -1}\n"),
            "kubelet.podsPerCore",
            "out-of-range",
        ),
        r(
            "clusterDNS is a list",
            role,
            with("  kubelet: {clusterDNS: 10.100.0.10}\n"),
            "kubelet.clusterDNS",
            "invalid-type",
        ),
        r(
            "reserved quantities are not negative",
            role,
            with("  kubelet: {systemReserved: {cpu: \"-1\"}}\n"),
            "kubelet.systemReserved",
            "invalid-quantity",
        ),
        r(
            "image GC thresholds are 0..100",
            role,
            with("  kubelet: {imageGCHighThresholdPercent: 101}\n"),
            "kubelet.imageGCHighThresholdPercent",
            "out-of-range",
        ),
        r(
            "evictionMaxPodGracePeriod is an integer",
            role,
            with("  kubelet: {evictionMaxPodGracePeriod: 1m}\n"),
            "kubelet.evictionMaxPodGracePeriod",
            "invalid-type",
        ),
        r(
            "iops is an integer",
            role,
            with(
                "  blockDeviceMappings:\n    - {deviceName: /dev/xvda, ebs: {volumeSize: 20Gi, \
                 iops: \"3000 IOPS\"}}\n",
            ),
            "ebs.iops",
            "invalid-type",
        ),
        r(
            "throughput is an integer",
            role,
            with(
                "  blockDeviceMappings:\n    - {deviceName: /dev/xvda, ebs: {volumeSize: 20Gi, \
                 throughput: fast}}\n",
            ),
            "ebs.throughput",
            "invalid-type",
        ),
        r(
            "volumeInitializationRate is 100..300",
            role,
            with(
                "  blockDeviceMappings:\n    - {deviceName: /dev/xvda, ebs: {snapshotID: snap-1, \
                 volumeInitializationRate: 50}}\n",
            ),
            "ebs.volumeInitializationRate",
            "out-of-range",
        ),
        r(
            "volumeInitializationRate needs a snapshot",
            role,
            with(
                "  blockDeviceMappings:\n    - {deviceName: /dev/xvda, ebs: {volumeSize: 20Gi, \
                 volumeInitializationRate: 200}}\n",
            ),
            "ebs.volumeInitializationRate",
            "initialization-rate-needs-snapshot",
        ),
        r(
            "volumeSize units",
            role,
            with(
                "  blockDeviceMappings:\n    - {deviceName: /dev/xvda, ebs: {volumeSize: 20GB}}\n",
            ),
            "ebs.volumeSize",
            "invalid-volume-size",
        ),
        r(
            "volumeSize is within the pattern",
            role,
            with(
                "  blockDeviceMappings:\n    - {deviceName: /dev/xvda, \
                 ebs: {volumeSize: 60000Gi}}\n",
            ),
            "ebs.volumeSize",
            "invalid-volume-size",
        ),
        r(
            "at most 50 block device mappings",
            role,
            with(&format!("  blockDeviceMappings:\n{many_bdms}")),
            "spec.blockDeviceMappings",
            "too-many-items",
        ),
        r(
            "alias is at most 30 characters",
            "alias: al2023@latest",
            "alias: al2023@v20240625-and-a-long-tail",
            "amiSelectorTerms[0].alias",
            "too-long",
        ),
        r(
            "an ssmParameter term is alone with an alias",
            "    - alias: al2023@latest\n",
            "    - alias: al2023@latest\n      ssmParameter: /aws/service/eks/x\n",
            "amiSelectorTerms[0].alias",
            "alias-not-alone",
        ),
        r(
            "ami id is exclusive",
            "    - alias: al2023@latest\n",
            "    - {id: ami-0123, tags: {a: b}}\n  amiFamily: AL2023\n",
            "amiSelectorTerms[0]",
            "exclusive-selector-field",
        ),
        r(
            "ami id pattern",
            "    - alias: al2023@latest\n",
            "    - id: image-1\n  amiFamily: AL2023\n",
            "amiSelectorTerms[0].id",
            "invalid-resource-id",
        ),
        r(
            "amiFamily enum",
            role,
            with("  amiFamily: Ubuntu\n"),
            "amiFamily",
            "invalid-choice",
        ),
        r(
            "security group name is exclusive",
            "  securityGroupSelectorTerms:\n    - tags: {karpenter.sh/discovery: demo}",
            "  securityGroupSelectorTerms:\n    - {name: my-sg, tags: {a: b}}",
            "securityGroupSelectorTerms[0]",
            "exclusive-selector-field",
        ),
        r(
            "a selector term takes at most 20 tags",
            "    - tags: {karpenter.sh/discovery: demo}\n  securityGroupSelectorTerms:",
            text(format!(
                "    - tags: {{{many_tags}}}\n  securityGroupSelectorTerms:"
            )),
            "subnetSelectorTerms[0].tags",
            "too-many-items",
        ),
        r(
            "at most 30 subnet terms",
            "    - tags: {karpenter.sh/discovery: demo}\n  securityGroupSelectorTerms:",
            text(format!("{many_terms}  securityGroupSelectorTerms:")),
            "subnetSelectorTerms",
            "too-many-items",
        ),
        r(
            "tag values are not empty",
            "    - tags: {karpenter.sh/discovery: demo}\n  securityGroupSelectorTerms:",
            "    - tags: {karpenter.sh/discovery: \"\"}\n  securityGroupSelectorTerms:",
            "subnetSelectorTerms[0].tags",
            "empty-tag",
        ),
        r(
            "role is not empty",
            "  role: KarpenterNodeRole-demo",
            "  role: \"\"",
            "spec.role",
            "empty-value",
        ),
        r(
            "eks:eks-cluster-name is a restricted tag",
            role,
            with("  tags: {eks:eks-cluster-name: demo}\n"),
            "tags",
            "restricted-tag",
        ),
        r(
            "httpTokens enum",
            role,
            with("  metadataOptions: {httpTokens: sometimes}\n"),
            "metadataOptions.httpTokens",
            "invalid-choice",
        ),
        r(
            "instanceStorePolicy enum",
            role,
            with("  instanceStorePolicy: RAID1\n"),
            "instanceStorePolicy",
            "invalid-choice",
        ),
        r(
            "associatePublicIPAddress is a boolean",
            role,
            with("  associatePublicIPAddress: \"yes\"\n"),
            "associatePublicIPAddress",
            "invalid-type",
        ),
        r(
            "userData is a string",
            role,
            with("  userData: {script: x}\n"),
            "userData",
            "invalid-type",
        ),
        r(
            "capacity reservation id pattern",
            role,
            with("  capacityReservationSelectorTerms:\n    - id: reservation-1\n"),
            "capacityReservationSelectorTerms[0].id",
            "invalid-resource-id",
        ),
        r(
            "capacity reservation owner is an account id",
            role,
            with("  capacityReservationSelectorTerms:\n    - {tags: {a: b}, ownerID: \"12345\"}\n"),
            "capacityReservationSelectorTerms[0].ownerID",
            "invalid-resource-id",
        ),
        r(
            "instanceMatchCriteria enum",
            role,
            with(
                "  capacityReservationSelectorTerms:\n    - {tags: {a: b}, \
                 instanceMatchCriteria: any}\n",
            ),
            "instanceMatchCriteria",
            "invalid-choice",
        ),
    ]);
}

#[test]
fn the_fine_print_accepts_what_the_crd_accepts() {
    // Manifests at the edges of the rules load clean.
    let class = CLASS.replace(
        "  role: KarpenterNodeRole-demo\n",
        "  role: KarpenterNodeRole-demo\n  kubelet:\n    clusterDNS: [10.100.0.10]\
         \n    podsPerCore: 0\n    evictionSoft: {memory.available: 500Mi}\
         \n    evictionSoftGracePeriod: {memory.available: 1m30s}\n  blockDeviceMappings:\
         \n    - {deviceName: /dev/xvda, rootVolume: true, ebs: {snapshotID: snap-1, \
         volumeInitializationRate: 300, iops: 3000, throughput: 125}}\
         \n    - {deviceName: /dev/xvdb, ebs: {volumeSize: 58Ti}}\
         \n    - {deviceName: /dev/xvdc, ebs: {volumeSize: 64000G}}\
         \n  capacityReservationSelectorTerms:\n    - {id: cr-0123abc}\
         \n    - {tags: {team: a}, ownerID: \"123456789012\", instanceMatchCriteria: targeted}\n",
    );
    let ssm = CLASS.replace(
        "    - alias: al2023@latest\n",
        "    - ssmParameter: /aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/standard/\
         recommended/image_id\n  amiFamily: AL2023\n",
    );
    let long_key = format!("{}/{}", "a".repeat(252), "b".repeat(63));
    let pool = POOL
        .replace(
            "key: karpenter.sh/capacity-type\n          operator: In\n          values: [spot]",
            &format!("key: {long_key}\n          operator: Exists"),
        )
        .replace(
            "      - nodes: 10%",
            "      - nodes: 10%\n        reasons: [Empty, Drifted]",
        );
    for (what, text) in [
        ("edge values", format!("{class}---\n{pool}")),
        ("ssmParameter", format!("{ssm}---\n{POOL}")),
    ] {
        let l = load(&text);
        let errs: Vec<String> = l
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.to_string())
            .collect();
        assert!(errs.is_empty(), "{what}: {errs:#?}");
    }
}

/// A Cluster document that assumes Karpenter `version`.
fn cluster_at(version: &str) -> String {
    format!(
        "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\nmetadata: {{name: c}}\n\
         spec:\n  karpenter:\n    version: {version}\n"
    )
}

#[test]
fn gte_and_lte_need_karpenter_v1_9() {
    let pool = POOL.replace(
        "- key: karpenter.sh/capacity-type\n          operator: In\n          values: [spot]",
        "- key: karpenter.k8s.aws/instance-cpu\n          operator: Gte\n          values: [\"4\"]",
    );
    // The latest version (the default) and v1.9 take it without a word.
    for cluster in [String::new(), format!("{}---\n", cluster_at("v1.9"))] {
        let l = load(&format!("{cluster}{CLASS}---\n{pool}"));
        assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
        assert_eq!(l.scenario.node_pools.len(), 1);
    }
    // v1.8's API server refuses the NodePool.
    let l = load(&format!("{}---\n{CLASS}---\n{pool}", cluster_at("v1.8")));
    let d = l
        .diagnostics
        .iter()
        .find(|d| d.code == "needs-newer-karpenter")
        .unwrap_or_else(|| panic!("{:#?}", l.diagnostics));
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.path, "spec.template.spec.requirements[0].operator");
    assert!(
        d.message.contains("v1.9") && d.message.contains("v1.8"),
        "{d}"
    );
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h.contains("spec.karpenter.version")),
        "{d}"
    );
    assert!(l.scenario.node_pools.is_empty(), "the pool is left out");
}

#[test]
fn a_timeline_cannot_change_a_node_pools_node_class_group_or_kind() {
    let timeline = |group: &str, delete_first: bool| {
        let applied = POOL.replace("group: karpenter.k8s.aws", &format!("group: {group}"));
        let indented: String = applied.lines().map(|l| format!("        {l}\n")).collect();
        let delete = if delete_first {
            "    - at: 1m\n      delete: {kind: NodePool, name: p}\n"
        } else {
            ""
        };
        format!(
            "{CLASS}---\n{POOL}---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\n\
             metadata: {{name: t}}\nspec:\n  steps:\n{delete}    - at: 2m\n      apply:\n{indented}"
        )
    };
    let l = load(&timeline("example.com", false));
    let d = l
        .diagnostics
        .iter()
        .find(|d| d.code == "immutable-field")
        .unwrap_or_else(|| panic!("{:#?}", l.diagnostics));
    assert!(
        d.path
            .ends_with(".apply.spec.template.spec.nodeClassRef.group"),
        "{}",
        d.path
    );
    assert!(
        d.message.contains("karpenter.k8s.aws") && d.message.contains("example.com"),
        "{}",
        d.message
    );
    assert!(l.scenario.timeline.is_empty(), "the Timeline is left out");
    // The same step after deleting the NodePool creates a new one: allowed.
    let l = load(&timeline("example.com", true));
    assert!(
        !l.diagnostics.iter().any(|d| d.code == "immutable-field"),
        "{:#?}",
        l.diagnostics
    );
    // Applying with the same group and kind is an ordinary update.
    let l = load(&timeline("karpenter.k8s.aws", false));
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    assert_eq!(l.scenario.timeline.len(), 1);
}

#[test]
fn the_kubernetes_io_domain_needs_karpenter_v1_9() {
    // `node-role.kubernetes.io` is the case users hit (kubernetes-sigs/karpenter#2586);
    // `*.node.kubernetes.io` and `kubernetes.io/arch` were always allowed.
    let pool = POOL.replace(
        "        team: a\n",
        "        team: a\n        node-role.kubernetes.io/web: \"\"\
         \n        example.kubernetes.io/owner: a\n        team.k8s.io/x: \"y\"\
         \n        pool.node.kubernetes.io/x: a\n        kubernetes.io/arch: amd64\n",
    );
    let l = load(&format!("{CLASS}---\n{pool}"));
    assert!(
        l.diagnostics.is_empty(),
        "v1.9 and later accept them: {:#?}",
        l.diagnostics
    );
    let l = load(&format!("{}---\n{CLASS}---\n{pool}", cluster_at("\"1.8\"")));
    let refused: Vec<&str> = l
        .diagnostics
        .iter()
        .filter(|d| d.code == "restricted-before-v1-9" && d.severity == Severity::Error)
        .map(|d| d.path.as_str())
        .collect();
    assert_eq!(
        refused,
        [
            "spec.template.metadata.labels[\"node-role.kubernetes.io/web\"]",
            "spec.template.metadata.labels[\"example.kubernetes.io/owner\"]",
            "spec.template.metadata.labels[\"team.k8s.io/x\"]",
        ]
    );
    assert!(l.scenario.node_pools.is_empty(), "v1.8 refuses the pool");
}

#[test]
fn the_cluster_names_its_karpenter_version_gates_and_settings() {
    let text = "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\nmetadata: {name: c}\n\
                spec:\n  karpenter:\n    version: 1.10\n    featureGates:\n      \
                SpotToSpotConsolidation: true\n      NodeRepiar: true\n      \
                CapacityBuffer: true\n    \
                settings: {minValuesPolicy: BestEffort, preferencePolicy: Ignore, \
                batchIdleDuration: 2s}\n";
    let l = load(text);
    let k = &l.scenario.cluster.karpenter;
    // `1.10` is a YAML number; read from its source text it is v1.10, not v1.1.
    assert_eq!(k.version.to_string(), "v1.10");
    assert!(k.gate(kpg_core::karpenter::Gate::SpotToSpotConsolidation));
    assert_eq!(k.settings.batch_idle_duration, 2_000);
    assert_eq!(
        k.settings.batch_max_duration, 10_000,
        "unnamed settings keep their default"
    );
    let codes: Vec<(&str, &str)> = l
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.path.as_str()))
        .collect();
    assert_eq!(
        codes,
        [
            (
                "unknown-feature-gate",
                "spec.karpenter.featureGates.NodeRepiar"
            ),
            (
                "unknown-feature-gate",
                "spec.karpenter.featureGates.CapacityBuffer"
            ),
        ],
        "{:#?}",
        l.diagnostics
    );
    assert!(
        l.diagnostics[0]
            .message
            .contains("did you mean `NodeRepair`")
    );
    assert!(
        l.diagnostics[1]
            .message
            .contains("v1.10 has no CapacityBuffer")
    );
    for (version, code) in [
        ("v1.16", "karpenter-version"),
        ("v0.37", "karpenter-version"),
    ] {
        let l = load(&cluster_at(version));
        assert_eq!(l.diagnostics.len(), 1, "{:#?}", l.diagnostics);
        assert_eq!(l.diagnostics[0].code, code);
        assert_eq!(l.diagnostics[0].path, "spec.karpenter.version");
    }
    // Settings a version does not have do nothing there, and say so.
    let old = format!(
        "{}    settings: {{minValuesPolicy: BestEffort}}\n",
        cluster_at("v1.5")
    );
    let l = load(&old);
    assert_eq!(l.diagnostics.len(), 1, "{:#?}", l.diagnostics);
    assert_eq!(l.diagnostics[0].code, "needs-newer-karpenter");
    assert_eq!(l.diagnostics[0].severity, Severity::Warning);
}

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: app
          image: nginx
          resources:
            requests: {cpu: 250m, memory: 256Mi}
      tolerations:
        - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector: {matchLabels: {app: web}}
              topologyKey: kubernetes.io/hostname
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: ScheduleAnyway
          labelSelector: {matchLabels: {app: web}}
";

#[test]
fn workload_rules() {
    let r = |rule, good, bad, path, code| Case {
        rule,
        base: DEPLOYMENT,
        good,
        bad,
        path,
        code,
    };
    check(&[
        r(
            "names are DNS-1123 subdomains",
            "  name: web\n",
            "  name: Web_1\n",
            "metadata.name",
            "invalid-name",
        ),
        r(
            "label keys are qualified names",
            "labels: {app: web}\nspec:\n  replicas",
            "labels: {\"a b\": web}\nspec:\n  replicas",
            "metadata.labels",
            "invalid-label",
        ),
        r(
            "label values are label values",
            "      labels: {app: web}",
            "      labels: {app: \"we b\"}",
            "template.metadata.labels",
            "invalid-label",
        ),
        r(
            "replicas are not negative",
            "replicas: 2",
            "replicas: -1",
            "replicas",
            "out-of-range",
        ),
        r(
            "the selector matches the template",
            "    matchLabels: {app: web}",
            "    matchLabels: {app: api}",
            "selector",
            "selector-mismatch",
        ),
        r(
            "containers are required",
            "      containers:\n        - name: app\n          image: nginx\n",
            "      initContainers:\n        - name: app\n          image: nginx\n",
            "containers",
            "missing-field",
        ),
        r(
            "container names are DNS labels",
            "        - name: app",
            "        - name: App_1",
            "containers[0].name",
            "invalid-container-name",
        ),
        r(
            "quantities parse",
            "cpu: 250m",
            "cpu: 250mc",
            "requests.cpu",
            "invalid-quantity",
        ),
        r(
            "quantities are not negative",
            "cpu: 250m",
            "cpu: -1",
            "requests.cpu",
            "invalid-quantity",
        ),
        r(
            "pod-level requests are at least the containers' aggregate",
            "      tolerations:\n",
            "      resources: {requests: {cpu: 100m}}\n      tolerations:\n",
            "spec.template.spec.resources.requests.cpu",
            "pod-level-resource",
        ),
        r(
            "pod-level resources are cpu, memory and hugepages",
            "      tolerations:\n",
            "      resources: {limits: {ephemeral-storage: 1Gi}}\n      tolerations:\n",
            "spec.template.spec.resources.limits.ephemeral-storage",
            "pod-level-resource",
        ),
        r(
            "a pod-level limit is not below the containers' aggregate request",
            "      tolerations:\n",
            "      resources: {limits: {cpu: 100m}}\n      tolerations:\n",
            "spec.template.spec.resources.limits.cpu",
            "request-exceeds-limit",
        ),
        r(
            "no container limit above the pod-level limit",
            "            requests: {cpu: 250m, memory: 256Mi}\n",
            "            requests: {cpu: 250m, memory: 256Mi}\n            \
             limits: {cpu: \"2\"}\n      \
             resources: {requests: {cpu: \"1\"}, limits: {cpu: \"1\"}}\n",
            "spec.template.spec.resources.limits.cpu",
            "pod-level-resource",
        ),
        r(
            "requests do not exceed limits",
            "requests: {cpu: 250m, memory: 256Mi}",
            "requests: {cpu: 250m, memory: 256Mi}\n            limits: {cpu: 100m}",
            "resources",
            "request-exceeds-limit",
        ),
        r(
            "toleration operator enum",
            "operator: Equal",
            "operator: Equals",
            "tolerations[0].operator",
            "invalid-choice",
        ),
        r(
            "Exists takes no value",
            "{key: dedicated, operator: Equal, value: web, effect: NoSchedule}",
            "{key: dedicated, operator: Exists, value: web, effect: NoSchedule}",
            "tolerations[0]",
            "toleration-exists-with-value",
        ),
        r(
            "toleration effect enum",
            "effect: NoSchedule}",
            "effect: Never}",
            "tolerations[0].effect",
            "invalid-choice",
        ),
        r(
            "affinity terms need a topologyKey",
            "              topologyKey: kubernetes.io/hostname",
            "              topologyKey: \"\"",
            "topologyKey",
            "empty-value",
        ),
        r(
            "maxSkew is positive",
            "maxSkew: 1",
            "maxSkew: 0",
            "maxSkew",
            "out-of-range",
        ),
        r(
            "whenUnsatisfiable enum",
            "whenUnsatisfiable: ScheduleAnyway",
            "whenUnsatisfiable: Sometimes",
            "whenUnsatisfiable",
            "invalid-choice",
        ),
    ]);
}

#[test]
fn a_requirement_with_no_valid_capacity_type_loads_but_the_pool_is_never_ready() {
    // The API server accepts any value; Karpenter's runtime validation fails the NodePool.
    let l = load(&format!(
        "{CLASS}---\n{}",
        POOL.replace("values: [spot]", "values: [cheap]")
    ));
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    let d = l
        .diagnostics
        .iter()
        .find(|d| d.code == "nodepool-not-ready")
        .expect("a warning says so");
    assert_eq!(d.path, "spec.template.spec.requirements[0].values");
    let np = &l.scenario.node_pools[0];
    assert!(
        np.invalid
            .as_deref()
            .is_some_and(|w| w.contains("karpenter.sh/capacity-type")),
        "{:?}",
        np.invalid
    );
    // Some valid values: the invalid ones are ignored, the pool is fine.
    let l = load(&format!(
        "{CLASS}---\n{}",
        POOL.replace("values: [spot]", "values: [spot, cheap]")
    ));
    assert!(l.scenario.node_pools[0].invalid.is_none());
    // Unless minValues asks for more values than are valid.
    let l = load(&format!(
        "{CLASS}---\n{}",
        POOL.replace(
            "values: [spot]",
            "values: [spot, cheap]\n          minValues: 2"
        )
    ));
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    assert!(
        l.scenario.node_pools[0]
            .invalid
            .as_deref()
            .is_some_and(|w| w.contains("minValues")),
        "{:?}",
        l.scenario.node_pools[0].invalid
    );
}

#[test]
fn the_shared_checks_speak_korean_too() {
    // An unknown field, a missing one, a wrong type, a bad choice, a bad duration, a bad
    // quantity and a number out of range: the checks every document goes through.
    let pool = POOL
        .replace("  weight: 10", "  weight: 101\n  colour: red")
        .replace(
            "consolidationPolicy: WhenEmptyOrUnderutilized",
            "consolidationPolicy: WhenIdle",
        )
        .replace("expireAfter: 720h", "expireAfter: 30d")
        .replace("cpu: 100", "cpu: lots")
        .replace("    consolidateAfter: 30s\n", "")
        .replace("        name: default", "        name: 5");
    let class = CLASS.replace("  role: KarpenterNodeRole-demo\n", "");
    let l = load(&format!("{class}---\n{pool}"));
    let codes: Vec<&str> = l.diagnostics.iter().map(|d| d.code.as_str()).collect();
    for code in [
        "unknown-field",
        "missing-field",
        "invalid-type",
        "invalid-choice",
        "out-of-range",
        "invalid-duration",
        "invalid-quantity",
    ] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
    let untranslated: Vec<String> = l
        .diagnostics
        .iter()
        .filter(|d| {
            d.ko.as_ref()
                .is_none_or(|k| !k.message.chars().any(|c| ('가'..='힣').contains(&c)))
        })
        .map(|d| format!("{} {} {}", d.code, d.path, d.message))
        .collect();
    assert!(untranslated.is_empty(), "{untranslated:#?}");
}

const STORAGE: &str = "apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
  - matchLabelExpressions:
      - {key: topology.ebs.csi.aws.com/zone, values: [us-east-1a]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources: {requests: {storage: 10Gi}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: postgres
  volumeClaimTemplates:
    - metadata: {name: wal}
      spec:
        accessModes: [ReadWriteOncePod]
        resources: {requests: {storage: 5Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  containers:
    - name: app
      image: nginx
  volumes:
    - name: data
      persistentVolumeClaim: {claimName: data}
    - name: scratch
      ephemeral:
        volumeClaimTemplate:
          spec:
            accessModes: [ReadWriteOnce]
            resources: {requests: {storage: 1Gi}}
";

#[test]
fn storage_rules() {
    let r = |rule, good, bad, path, code| Case {
        rule,
        base: STORAGE,
        good,
        bad,
        path,
        code,
    };
    check(&[
        r(
            "volumeBindingMode is Immediate or WaitForFirstConsumer",
            "volumeBindingMode: WaitForFirstConsumer",
            "volumeBindingMode: WaitForConsumer",
            "volumeBindingMode",
            "invalid-choice",
        ),
        r(
            "a StorageClass names its provisioner",
            "provisioner: ebs.csi.aws.com\n",
            "reclaimPolicy: Delete\n",
            "provisioner",
            "missing-field",
        ),
        r(
            "allowedTopologies expressions have values",
            "values: [us-east-1a]}",
            "values: []}",
            "allowedTopologies[0].matchLabelExpressions[0].values",
            "missing-field",
        ),
        r(
            "a claim has access modes",
            "  accessModes: [ReadWriteOnce]\n  storageClassName: gp3",
            "  storageClassName: gp3",
            "spec.accessModes",
            "claim-access-modes",
        ),
        r(
            "access modes are the API's",
            "  accessModes: [ReadWriteOnce]\n  storageClassName",
            "  accessModes: [ReadWriteSome]\n  storageClassName",
            "spec.accessModes[0]",
            "invalid-choice",
        ),
        r(
            "a claim requests storage",
            "  resources: {requests: {storage: 10Gi}}",
            "  resources: {requests: {}}",
            "spec.resources",
            "claim-storage-request",
        ),
        r(
            "a StatefulSet's claim templates have access modes",
            "        accessModes: [ReadWriteOncePod]\n",
            "",
            "volumeClaimTemplates[0].spec.accessModes",
            "claim-access-modes",
        ),
        r(
            "a StatefulSet's claim templates are named",
            "    - metadata: {name: wal}",
            "    - metadata: {labels: {a: b}}",
            "volumeClaimTemplates[0].metadata.name",
            "missing-field",
        ),
        r(
            "a generic ephemeral volume's template requests storage",
            "            resources: {requests: {storage: 1Gi}}",
            "            resources: {}",
            "ephemeral.volumeClaimTemplate.spec.resources",
            "claim-storage-request",
        ),
        r(
            "a claim volume names its claim",
            "persistentVolumeClaim: {claimName: data}",
            "persistentVolumeClaim: {readOnly: true}",
            "persistentVolumeClaim.claimName",
            "missing-field",
        ),
    ]);
}

/// What the API server accepts but leaves a pod pending: a claim nobody defines or creates,
/// a class nobody defines. Warnings, with the consequence said, in both languages.
#[test]
fn a_pod_naming_a_claim_that_does_not_exist_is_warned_about() {
    let warned = |text: &str, code: &str| -> Vec<kpg_manifests::Diagnostic> {
        load(text)
            .diagnostics
            .into_iter()
            .filter(|d| d.code == code)
            .collect()
    };
    assert!(warned(STORAGE, "claim-not-found").is_empty());
    assert!(warned(STORAGE, "storage-class-not-found").is_empty());
    let missing = warned(
        &STORAGE.replace("{claimName: data}", "{claimName: dat}"),
        "claim-not-found",
    );
    assert_eq!(missing.len(), 1, "{missing:?}");
    let d = &missing[0];
    assert_eq!(d.severity, Severity::Warning);
    assert!(
        d.path
            .ends_with("volumes[0].persistentVolumeClaim.claimName")
    );
    assert!(
        d.message.contains(
            "kube-scheduler leaves the pod pending (persistentvolumeclaim \"dat\" not found)"
        ),
        "{}",
        d.message
    );
    assert!(korean(d) && d.help.is_some());
    let class = warned(
        &STORAGE.replace("storageClassName: gp3", "storageClassName: gp2"),
        "storage-class-not-found",
    );
    assert_eq!(class.len(), 1, "{class:?}");
    assert!(korean(&class[0]) && class[0].help.is_some());
    // A StatefulSet's and an ephemeral volume's claims are made by their controllers.
    assert!(warned(STORAGE, "unknown-reference").is_empty());
}

/// A PriorityClass, a second class that is the global default, a Deployment that names the
/// first and a Timeline that applies the first again, unchanged.
const PRIORITIES: &str = "apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high
value: 1000
preemptionPolicy: PreemptLowerPriority
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: low
value: 1
globalDefault: true
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: batch
value: -10
globalDefault: false
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      priorityClassName: high
      containers:
        - name: c
          image: nginx
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata:
  name: later
spec:
  steps:
    - at: 1m
      apply:
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata:
          name: high
        value: 1000
";

#[test]
fn priority_class_and_admission_rules() {
    let r = |rule, good, bad, path, code| Case {
        rule,
        base: PRIORITIES,
        good,
        bad,
        path,
        code,
    };
    check(&[
        r(
            "a user's class is worth at most 1000000000",
            "value: 1000\npreemptionPolicy",
            "value: 1000000001\npreemptionPolicy",
            "value",
            "priority-value-too-high",
        ),
        r(
            "system- names belong to the system classes",
            "  name: high\nvalue",
            "  name: system-high\nvalue",
            "metadata.name",
            "reserved-priority-class",
        ),
        r(
            "a system class keeps its value",
            "  name: batch\nvalue: -10",
            "  name: system-node-critical\nvalue: -10",
            "metadata.name",
            "reserved-priority-class",
        ),
        r(
            "preemptionPolicy is PreemptLowerPriority or Never",
            "preemptionPolicy: PreemptLowerPriority",
            "preemptionPolicy: Sometimes",
            "preemptionPolicy",
            "invalid-choice",
        ),
        r(
            "only one class is the global default",
            "value: -10\nglobalDefault: false",
            "value: -10\nglobalDefault: true",
            "globalDefault",
            "second-global-default",
        ),
        r(
            "a pod names a class that exists",
            "      priorityClassName: high",
            "      priorityClassName: hihg",
            "priorityClassName",
            "unknown-priority-class",
        ),
        r(
            "a pod writes no priority other than its class's",
            "      priorityClassName: high\n",
            "      priorityClassName: high\n      priority: 7\n",
            "priority",
            "priority-not-admitted",
        ),
        r(
            "a pod writes no preemptionPolicy other than its class's",
            "      priorityClassName: high\n",
            "      priorityClassName: high\n      preemptionPolicy: Never\n",
            "preemptionPolicy",
            "priority-not-admitted",
        ),
        r(
            "a class's value cannot change",
            "          name: high\n        value: 1000",
            "          name: high\n        value: 2000",
            "spec.steps[0].apply.value",
            "immutable-field",
        ),
    ]);
}

#[test]
fn admission_resolves_priorities_as_the_api_server_does() {
    let l = load(PRIORITIES);
    assert!(
        l.diagnostics.iter().all(|d| d.severity != Severity::Error),
        "{:#?}",
        l.diagnostics
    );
    let spec = &l.scenario.workloads[0].template.spec;
    assert_eq!(spec.priority, 1000, "the class named");
    // No class named: the global default's value; a class named nowhere is refused, and a
    // class a Timeline applies only later is unknown when the pod is created.
    let unnamed = PRIORITIES.replace("      priorityClassName: high\n", "");
    let l = load(&unnamed);
    assert_eq!(l.scenario.workloads[0].template.spec.priority, 1);
    let later = PRIORITIES.replacen(
        "  name: high\nvalue: 1000\n",
        "  name: unused\nvalue: 1000\n",
        1,
    );
    let l = load(&later);
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code == "unknown-priority-class" && d.severity == Severity::Error),
        "{:#?}",
        l.diagnostics
    );
    assert!(
        l.scenario.workloads.is_empty(),
        "the refused Deployment is left out"
    );
    // A system class needs no document.
    let system = PRIORITIES.replace(
        "priorityClassName: high",
        "priorityClassName: system-node-critical",
    );
    assert_eq!(
        load(&system).scenario.workloads[0].template.spec.priority,
        2_000_001_000
    );
}

// EKS Auto Mode: the `eks.amazonaws.com/v1` NodeClass (EKS `create-node-class`), the
// built-in NodePools (`set-builtin-node-pools`) and the migration guide's pre-flight checks
// (`auto-migrate-karpenter`), each as a manifest that breaks the rule (a finding with the
// code, its severity, at the path, in Korean, with a fix) and one that keeps it (none).

const AUTO_CLUSTER: &str = "apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {name: c}
spec:
  karpenter:
    version: v1.9
    mode: eks-auto-mode
    autoMode: {nodePools: [system]}
";

const AUTO_CLASS: &str = "apiVersion: eks.amazonaws.com/v1
kind: NodeClass
metadata:
  name: private-compute
spec:
  role: MyNodeRole
  subnetSelectorTerms:
    - tags: {Name: private-subnet}
  securityGroupSelectorTerms:
    - tags: {Name: eks-cluster-sg}
  ephemeralStorage:
    size: 160Gi
";

const AUTO_POOL: &str = "apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: eks-auto-mode
spec:
  template:
    spec:
      requirements:
        - key: eks.amazonaws.com/instance-category
          operator: In
          values: [c, m, r]
      nodeClassRef:
        group: eks.amazonaws.com
        kind: NodeClass
        name: private-compute
      taints:
        - key: eks-auto-mode
          effect: NoSchedule
";

struct AutoCase {
    rule: &'static str,
    good: String,
    bad: String,
    code: &'static str,
    severity: Severity,
    path: &'static str,
}

fn auto_case(
    rule: &'static str,
    good: String,
    (from, to): (&str, &str),
    code: &'static str,
    severity: Severity,
    path: &'static str,
) -> AutoCase {
    assert!(good.contains(from), "{rule}: the manifest has `{from}`");
    let bad = good.replacen(from, to, 1);
    AutoCase {
        rule,
        good,
        bad,
        code,
        severity,
        path,
    }
}

fn with_karpenter(pool_taint: bool) -> String {
    let pool = if pool_taint {
        AUTO_POOL.to_string()
    } else {
        AUTO_POOL.replace(
            "      taints:\n        - key: eks-auto-mode\n          effect: NoSchedule\n",
            "",
        )
    };
    format!(
        "{AUTO_CLUSTER}---\n{AUTO_CLASS}---\n{pool}---\n{CLASS}---\n{}",
        POOL.replace("name: p\n", "name: karpenter\n")
    )
}

#[test]
fn eks_auto_mode_rules() {
    let auto = || format!("{AUTO_CLUSTER}---\n{AUTO_CLASS}---\n{AUTO_POOL}");
    let cases = [
        auto_case(
            "an EC2NodeClass-only field on a NodeClass",
            auto(),
            (
                "  ephemeralStorage:\n",
                "  kubelet: {maxPods: 20}\n  ephemeralStorage:\n",
            ),
            "auto-mode-ec2nodeclass-field",
            Severity::Error,
            "spec.kubelet",
        ),
        auto_case(
            "blockDeviceMappings on a NodeClass",
            auto(),
            (
                "  ephemeralStorage:\n",
                "  blockDeviceMappings: [{deviceName: /dev/xvda}]\n  ephemeralStorage:\n",
            ),
            "auto-mode-ec2nodeclass-field",
            Severity::Error,
            "spec.blockDeviceMappings",
        ),
        auto_case(
            "a custom NodeClass named default",
            auto(),
            ("  name: private-compute\nspec:", "  name: default\nspec:"),
            "auto-mode-default-nodeclass",
            Severity::Error,
            "metadata.name",
        ),
        auto_case(
            "ephemeralStorage.iops within 3000-16000",
            auto(),
            ("    size: 160Gi\n", "    size: 160Gi\n    iops: 20000\n"),
            "out-of-range",
            Severity::Error,
            "spec.ephemeralStorage.iops",
        ),
        auto_case(
            "snatPolicy is Random or Disabled",
            auto(),
            (
                "  ephemeralStorage:\n",
                "  snatPolicy: Sometimes\n  ephemeralStorage:\n",
            ),
            "invalid-choice",
            Severity::Error,
            "spec.snatPolicy",
        ),
        auto_case(
            "a NodePool named like a built-in one that is on",
            auto(),
            ("  name: eks-auto-mode\n", "  name: system\n"),
            "auto-mode-builtin-nodepool",
            Severity::Error,
            "metadata.name",
        ),
        auto_case(
            "Auto Mode is inferred when the Cluster does not say",
            auto(),
            (
                "    mode: eks-auto-mode\n    autoMode: {nodePools: [system]}\n",
                "",
            ),
            "auto-mode-inferred",
            Severity::Warning,
            "metadata.name",
        ),
        auto_case(
            "a NodeClass in a self-managed cluster",
            auto(),
            ("    mode: eks-auto-mode\n", "    mode: self-managed\n"),
            "auto-mode-off",
            Severity::Warning,
            "nodeClassRef",
        ),
        auto_case(
            "a karpenter.k8s.aws label on an Auto Mode pool",
            auto(),
            (
                "        - key: eks.amazonaws.com/instance-category\n",
                "        - key: karpenter.k8s.aws/instance-category\n",
            ),
            "auto-mode-karpenter-label",
            Severity::Warning,
            "spec.template.spec.requirements",
        ),
        auto_case(
            "an Auto Mode pool with no requirement",
            auto(),
            (
                "      requirements:\n        - key: eks.amazonaws.com/instance-category\n\
                 \x20         operator: In\n          values: [c, m, r]\n",
                "      requirements: []\n",
            ),
            "auto-mode-no-requirement",
            Severity::Warning,
            "spec.template.spec.requirements",
        ),
        auto_case(
            "an untainted Auto Mode pool beside Karpenter's",
            with_karpenter(true),
            (
                "      taints:\n        - key: eks-auto-mode\n          effect: NoSchedule\n",
                "",
            ),
            "auto-mode-not-selective",
            Severity::Warning,
            "spec.template.spec.taints",
        ),
        auto_case(
            "general-purpose on beside Karpenter's pools",
            with_karpenter(true),
            (
                "autoMode: {nodePools: [system]}",
                "autoMode: {nodePools: [general-purpose, system]}",
            ),
            "auto-mode-not-selective",
            Severity::Warning,
            "spec.karpenter.autoMode.nodePools",
        ),
        auto_case(
            "Karpenter v1.1 or later beside Auto Mode",
            with_karpenter(true),
            ("    version: v1.9\n", "    version: v1.0\n"),
            "auto-mode-karpenter-version",
            Severity::Warning,
            "spec.karpenter.version",
        ),
        auto_case(
            "Auto Mode runs Linux only",
            auto(),
            (
                "          values: [c, m, r]\n",
                "          values: [c, m, r]\n        - key: kubernetes.io/os\n          \
                 operator: In\n          values: [windows]\n",
            ),
            "auto-mode-linux-only",
            Severity::Warning,
            "spec.template.spec.requirements",
        ),
    ];
    let mut failures = Vec::new();
    for c in &cases {
        let good = load(&c.good);
        if let Some(d) = good
            .diagnostics
            .iter()
            .find(|d| d.code == c.code || d.severity == Severity::Error)
        {
            failures.push(format!(
                "{}: the passing manifest has {} {}",
                c.rule, d.code, d
            ));
            continue;
        }
        let bad = load(&c.bad);
        let found = bad
            .diagnostics
            .iter()
            .find(|d| d.code == c.code && d.severity == c.severity && d.path.contains(c.path));
        match found {
            None => {
                let got: Vec<String> = bad
                    .diagnostics
                    .iter()
                    .map(|d| format!("{} {:?} {} {}", d.code, d.severity, d.path, d.message))
                    .collect();
                failures.push(format!(
                    "{}: no {} at {} in {got:?}",
                    c.rule, c.code, c.path
                ));
            }
            Some(d) if !korean(d) || d.help.is_none() => {
                failures.push(format!("{}: {} lacks Korean or a fix", c.rule, c.code));
            }
            Some(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A CapacityBuffer (Karpenter v1.14+, gate on) naming a PodTemplate, and a Deployment a
/// scalableRef may name.
const BUFFER: &str = "apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {name: c}
spec:
  karpenter: {version: v1.14, featureGates: {CapacityBuffer: true}}
---
apiVersion: v1
kind: PodTemplate
metadata: {name: size}
template:
  metadata: {labels: {app: web}}
  spec:
    containers:
      - {name: c, image: i, resources: {requests: {cpu: '1'}}}
---
apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {name: warm}
spec:
  podTemplateRef: {name: size}
  replicas: 2
";

/// The CapacityBuffer CRD's rules at v1.14.1
/// (`pkg/apis/crds/autoscaling.x-k8s.io_capacitybuffers.yaml`).
#[test]
fn capacity_buffer_rules() {
    let r = |rule, good, bad, path, code| Case {
        rule,
        base: BUFFER,
        good,
        bad,
        path,
        code,
    };
    check(&[
        r(
            "podTemplateRef needs replicas or limits",
            "  replicas: 2\n",
            "",
            "spec.podTemplateRef",
            "capacitybuffer-rule",
        ),
        r(
            "not both references",
            "  replicas: 2\n",
            "  replicas: 2\n  scalableRef: {kind: Deployment, name: web}\n",
            "spec.scalableRef",
            "capacitybuffer-rule",
        ),
        r(
            "replicas at least 0",
            "  replicas: 2\n",
            "  replicas: -1\n",
            "spec.replicas",
            "out-of-range",
        ),
        r(
            "percentage at least 0",
            "  replicas: 2\n",
            "  replicas: 2\n  percentage: -5\n",
            "spec.percentage",
            "out-of-range",
        ),
        r(
            "scalableRef needs a kind",
            "  podTemplateRef: {name: size}\n  replicas: 2\n",
            "  scalableRef: {name: web}\n",
            "spec.scalableRef.kind",
            "missing-field",
        ),
        r(
            "podTemplateRef needs a name",
            "  podTemplateRef: {name: size}\n",
            "  podTemplateRef: {}\n",
            "spec.podTemplateRef.name",
            "missing-field",
        ),
    ]);
}

/// What the API server accepts and Karpenter's buffer controller cannot use: warnings, and
/// the buffer is still read (its status says it is not ready).
#[test]
fn a_capacity_buffer_karpenter_cannot_resolve_is_a_warning() {
    let warned = |text: String, code: &str, path: &str| {
        let l = load(&text);
        assert!(!l.has_errors(), "{:#?}", l.diagnostics);
        assert!(
            l.diagnostics.iter().any(|d| d.severity == Severity::Warning
                && d.code == code
                && d.path == path
                && korean(d)
                && d.help.is_some()),
            "no {code} at {path}: {:#?}",
            l.diagnostics
        );
        assert_eq!(l.scenario.capacity_buffers.len(), 1);
    };
    warned(
        BUFFER.replace(
            "  podTemplateRef: {name: size}\n  replicas: 2\n",
            "  replicas: 2\n",
        ),
        "capacitybuffer-unresolved",
        "spec",
    );
    warned(
        BUFFER.replace(
            "  podTemplateRef: {name: size}\n",
            "  scalableRef: {apiGroup: batch, kind: Job, name: j}\n",
        ),
        "capacitybuffer-unresolved",
        "spec.scalableRef.kind",
    );
    warned(
        BUFFER.replace("{name: size}\n  replicas", "{name: other}\n  replicas"),
        "unknown-reference",
        "spec.podTemplateRef.name",
    );
    warned(
        BUFFER.replace("featureGates: {CapacityBuffer: true}", "featureGates: {}"),
        "needs-feature-gate",
        "spec",
    );
    // `limits` alone satisfies the first rule.
    let l = load(&BUFFER.replace("  replicas: 2\n", "  limits: {cpu: 4}\n"));
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    // The defaults the CRD applies, and the PodTemplate read as a pod template.
    let l = load(BUFFER);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let b = &l.scenario.capacity_buffers[0];
    assert_eq!(b.provisioning_strategy, "buffer.x-k8s.io/active-capacity");
    assert_eq!((b.namespace.as_str(), b.replicas), ("default", Some(2)));
    let t = &l.scenario.pod_templates[0];
    assert_eq!(
        t.template.labels.get("app").map(String::as_str),
        Some("web")
    );
}

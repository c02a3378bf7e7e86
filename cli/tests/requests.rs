//! Requests as the API server and the kubelet make them, through `kpg simulate --output json`:
//! pod-level `spec.resources`, RuntimeClass overhead and scheduling, the kubelet's `maxPods`
//! and `podsPerCore` on the scenario's own instance types, and ephemeral storage from the
//! node class's volumes for every type.

mod common;

use common::{kpg_stdin, node_of, nodes, pods, simulate_json, stderr, stdout, str_of, summary};
use serde_json::Value;

/// Two custom types (2 and 8 vCPUs) and a NodePool over them; `class_extra` goes under the
/// EC2NodeClass's spec (2 spaces deep).
fn cluster(class_extra: &str, types_extra: &str) -> String {
    format!(
        r#"
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {{name: small}}
spec:
  cpu: "2"
  memory: 8Gi
  offerings: [{{zone: z1, capacityType: on-demand, price: 0.10}}]
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {{name: large}}
spec:
  cpu: "8"
  memory: 32Gi
  offerings: [{{zone: z1, capacityType: on-demand, price: 0.40}}]
{types_extra}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: default}}
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements: []
  disruption: {{consolidateAfter: Never}}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {{name: default}}
spec:
  role: KarpenterNodeRole
  amiSelectorTerms: [{{alias: al2023@latest}}]
  subnetSelectorTerms: [{{tags: {{karpenter.sh/discovery: demo}}}}]
  securityGroupSelectorTerms: [{{tags: {{karpenter.sh/discovery: demo}}}}]
{class_extra}
"#
    )
}

/// A bare pod `name` with `spec_extra` under its spec (2 spaces deep) and one container asking
/// for `container_requests` (a flow map's inside, e.g. `cpu: 100m`).
fn pod(name: &str, spec_extra: &str, container_requests: &str) -> String {
    format!(
        r#"
---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, labels: {{app: {name}}}}}
spec:
{spec_extra}
  containers:
  - name: app
    image: public.ecr.aws/eks-distro/kubernetes/pause:3.7
    resources: {{requests: {{{container_requests}}}}}
"#
    )
}

fn instance_type_of(report: &Value, pod_name: &str) -> String {
    let p = pods(report)
        .into_iter()
        .find(|p| str_of(p, "name") == Some(pod_name))
        .unwrap_or_else(|| panic!("no pod {pod_name}\n{}", summary(report)));
    str_of(node_of(report, p), "instanceType")
        .expect("the node has an instance type")
        .to_string()
}

fn pending(report: &Value, pod_name: &str) -> bool {
    pods(report)
        .into_iter()
        .any(|p| str_of(p, "name") == Some(pod_name) && str_of(p, "node").is_none())
}

/// `kpg validate - --output json`: the findings' codes and severities.
fn findings(text: &str) -> Vec<(String, String, String)> {
    let out = kpg_stdin(&["validate", "-", "--output", "json"], text.as_bytes());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON from validate: {e}\n{}\n{}",
            stdout(&out),
            stderr(&out)
        )
    });
    v.as_array()
        .expect("a list of findings")
        .iter()
        .map(|d| {
            (
                d["severity"].as_str().unwrap_or_default().to_string(),
                d["code"].as_str().unwrap_or_default().to_string(),
                d["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_pod_level_request_sizes_the_node_in_place_of_the_containers() {
    // The containers ask for 100m; the pod as a whole for 3 CPUs, which no 2-vCPU type holds.
    let text = cluster("", "")
        + &pod(
            "whole",
            "  resources: {requests: {cpu: \"3\", memory: 1Gi}}",
            "cpu: 100m",
        );
    let report = simulate_json(&text, "5m");
    assert_eq!(
        instance_type_of(&report, "whole"),
        "large",
        "{}",
        summary(&report)
    );
    let parts = cluster("", "") + &pod("parts", "", "cpu: 100m");
    assert_eq!(
        instance_type_of(&simulate_json(&parts, "5m"), "parts"),
        "small"
    );
    let whole = pods(&report)
        .into_iter()
        .find(|p| str_of(p, "name") == Some("whole"))
        .expect("whole");
    assert_eq!(whole["requests"]["cpu"], "3", "{whole}");
}

#[test]
fn pod_level_limits_give_the_request_when_nothing_else_does() {
    // No request anywhere: the API server defaults the pod-level request to its limit.
    let text = cluster("", "")
        + &pod(
            "limited",
            "  resources: {limits: {cpu: \"5\", memory: 2Gi}}",
            "",
        );
    let report = simulate_json(&text, "5m");
    assert_eq!(
        instance_type_of(&report, "limited"),
        "large",
        "{}",
        summary(&report)
    );
}

#[test]
fn the_api_server_refuses_pod_level_resources_it_does_not_take() {
    let below =
        cluster("", "") + &pod("below", "  resources: {requests: {cpu: 100m}}", "cpu: 500m");
    let f = findings(&below);
    assert!(
        f.iter()
            .any(|(s, c, m)| s == "error" && c == "pod-level-resource" && m.contains("500m")),
        "{f:#?}"
    );
    let storage = cluster("", "")
        + &pod(
            "storage",
            "  resources: {requests: {ephemeral-storage: 1Gi}}",
            "cpu: 100m",
        );
    let f = findings(&storage);
    assert!(
        f.iter().any(|(s, c, m)| s == "error"
            && c == "pod-level-resource"
            && m.contains("ephemeral-storage")),
        "{f:#?}"
    );
}

const KATA: &str = r#"
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 1500m, memory: 512Mi}}
scheduling:
  nodeSelector: {runtime: kata}
  tolerations: [{key: runtime, operator: Equal, value: kata, effect: NoSchedule}]
"#;

#[test]
fn a_runtime_class_adds_its_overhead_and_its_scheduling() {
    // 1 CPU asked for plus 1.5 CPUs of overhead fits no 2-vCPU type; the class's node
    // selector and toleration take the pod to the tainted pool that carries its label.
    let kata_pool = r#"
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: kata}
spec:
  template:
    metadata: {labels: {runtime: kata}}
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: []
      taints: [{key: runtime, value: kata, effect: NoSchedule}]
  disruption: {consolidateAfter: Never}
"#;
    let text =
        cluster("", kata_pool) + KATA + &pod("sandboxed", "  runtimeClassName: kata", "cpu: \"1\"");
    let report = simulate_json(&text, "5m");
    assert_eq!(
        instance_type_of(&report, "sandboxed"),
        "large",
        "{}",
        summary(&report)
    );
    let node = nodes(&report)
        .into_iter()
        .find(|n| str_of(n, "instanceType") == Some("large"))
        .expect("a large node");
    assert_eq!(
        str_of(node, "nodepool"),
        Some("kata"),
        "{}",
        summary(&report)
    );
    let p = pods(&report)
        .into_iter()
        .find(|p| str_of(p, "name") == Some("sandboxed"))
        .expect("the pod");
    assert_eq!(p["requests"]["cpu"], "2500m", "{p}");
}

#[test]
fn admission_refuses_a_missing_class_and_a_written_overhead() {
    let bare = cluster("", "") + &pod("lost", "  runtimeClassName: gvisor", "cpu: 100m");
    let f = findings(&bare);
    assert!(
        f.iter().any(|(s, c, m)| s == "error"
            && c == "pod-admission"
            && m.contains("RuntimeClass \"gvisor\" not found")),
        "{f:#?}"
    );
    let written = cluster("", "") + &pod("forged", "  overhead: {cpu: 100m}", "cpu: 100m");
    let f = findings(&written);
    assert!(
        f.iter()
            .any(|(s, c, _)| s == "error" && c == "pod-admission"),
        "{f:#?}"
    );
    // A Deployment is created, but its pods are refused: it runs none, and Karpenter
    // launches nothing for it.
    let deployment = cluster("", "")
        + r#"
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: sandboxed}
spec:
  replicas: 3
  selector: {matchLabels: {app: sandboxed}}
  template:
    metadata: {labels: {app: sandboxed}}
    spec:
      runtimeClassName: gvisor
      containers: [{name: app, image: nginx, resources: {requests: {cpu: 100m}}}]
"#;
    let f = findings(&deployment);
    assert!(
        f.iter()
            .any(|(s, c, m)| s == "warning" && c == "pod-admission" && m.contains("FailedCreate")),
        "{f:#?}"
    );
    let report = simulate_json(&deployment, "5m");
    assert!(pods(&report).is_empty(), "{:#?}", pods(&report));
    assert!(nodes(&report).is_empty(), "{}", summary(&report));
}

#[test]
fn the_kubelet_max_pods_and_pods_per_core_apply_to_custom_types() {
    // Six tiny pods: with maxPods 3 a node takes three (two of them daemon-free); with
    // podsPerCore 1 a 2-vCPU type takes two.
    let pods_text: String = (0..6)
        .map(|i| pod(&format!("p{i}"), "", "cpu: 10m"))
        .collect();
    let max_pods = cluster("  kubelet: {maxPods: 3}", "") + &pods_text;
    let report = simulate_json(&max_pods, "5m");
    let counts: Vec<&str> = nodes(&report)
        .iter()
        .map(|n| n["capacity"]["pods"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(counts, ["3", "3"], "{}", summary(&report));

    let per_core = cluster("  kubelet: {podsPerCore: 1}", "") + &pods_text;
    let report = simulate_json(&per_core, "5m");
    let capacities: Vec<(String, String)> = nodes(&report)
        .iter()
        .map(|n| {
            (
                str_of(n, "instanceType").unwrap_or("?").to_string(),
                n["capacity"]["pods"].as_str().unwrap_or("?").to_string(),
            )
        })
        .collect();
    assert!(
        capacities
            .iter()
            .all(|(t, p)| (t == "small" && p == "2") || (t == "large" && p == "8")),
        "{capacities:?}"
    );
    assert_eq!(
        pods(&report).iter().filter(|p| p["node"].is_null()).count(),
        0
    );
}

#[test]
fn ephemeral_storage_comes_from_the_node_class_for_custom_types() {
    // A 50Gi scratch request: the default 20Gi root volume leaves 17Gi; a 100Gi root volume
    // takes it.
    let scratch = pod("scratch", "", "cpu: 100m, ephemeral-storage: 50Gi");
    let default_root = cluster("", "") + &scratch;
    let report = simulate_json(&default_root, "5m");
    assert!(pending(&report, "scratch"), "{}", summary(&report));

    let big_root = cluster(
        "  blockDeviceMappings:\n  - deviceName: /dev/xvda\n    rootVolume: true\n    \
         ebs: {volumeSize: 100Gi, volumeType: gp3}",
        "",
    ) + &scratch;
    let report = simulate_json(&big_root, "5m");
    assert_eq!(
        instance_type_of(&report, "scratch"),
        "small",
        "{}",
        summary(&report)
    );
    let node = &nodes(&report)[0];
    assert_eq!(node["capacity"]["ephemeral-storage"], "100Gi", "{node}");
}

#[test]
fn raid0_gives_instance_store_as_ephemeral_storage() {
    // With RAID0, a type declaring 237 GB of local NVMe has it as ephemeral storage; the
    // type without stays at the root volume. A 150Gi request can only go to the first.
    let nvme = r#"
---
apiVersion: playground.karpenter.dev/v1alpha1
kind: InstanceType
metadata: {name: nvme}
spec:
  cpu: "2"
  memory: 8Gi
  labels: {karpenter.k8s.aws/instance-local-nvme: "237"}
  offerings: [{zone: z1, capacityType: on-demand, price: 0.60}]
"#;
    let scratch = pod("scratch", "", "cpu: 100m, ephemeral-storage: 150Gi");
    let raid0 = cluster("  instanceStorePolicy: RAID0", nvme) + &scratch;
    let report = simulate_json(&raid0, "5m");
    assert_eq!(
        instance_type_of(&report, "scratch"),
        "nvme",
        "{}",
        summary(&report)
    );
    // 237 decimal gigabytes, which has no exact binary suffix.
    assert_eq!(
        nodes(&report)[0]["capacity"]["ephemeral-storage"],
        "237000000000",
        "{}",
        summary(&report)
    );
    let without = cluster("", nvme) + &scratch;
    let report = simulate_json(&without, "5m");
    assert!(pending(&report, "scratch"), "{}", summary(&report));
}

#[test]
fn raid0_uses_a_catalog_types_instance_store() {
    // m5d.large has 75 GB of NVMe instance store: with RAID0 it takes a 60Gi scratch request,
    // which its 20Gi root volume never could.
    let text = |policy: &str| {
        format!(
            r#"
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: default}}
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements:
      - {{key: node.kubernetes.io/instance-type, operator: In, values: [m5d.large, m5.large]}}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {{name: default}}
spec:
  role: KarpenterNodeRole
  amiSelectorTerms: [{{alias: al2023@latest}}]
  subnetSelectorTerms: [{{tags: {{karpenter.sh/discovery: demo}}}}]
  securityGroupSelectorTerms: [{{tags: {{karpenter.sh/discovery: demo}}}}]
{policy}
"#
        ) + &pod("scratch", "", "cpu: 100m, ephemeral-storage: 60Gi")
    };
    let report = simulate_json(&text("  instanceStorePolicy: RAID0"), "5m");
    assert_eq!(
        instance_type_of(&report, "scratch"),
        "m5d.large",
        "{}",
        summary(&report)
    );
    assert_eq!(
        nodes(&report)[0]["capacity"]["ephemeral-storage"],
        "75000000000"
    );
    let report = simulate_json(&text(""), "5m");
    assert!(pending(&report, "scratch"), "{}", summary(&report));
}

/// A pod claiming a GPU through DRA, in a scenario that assumes Karpenter `version`.
fn dra_scenario(version: &str) -> String {
    format!(
        r#"
apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {{name: demo}}
spec:
  karpenter: {{version: {version}}}
---
{}
"#,
        cluster("", "")
    ) + r#"
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
  containers:
  - name: app
    image: trainer
    resources: {requests: {cpu: 500m}, claims: [{name: gpu}]}
"#
}

#[test]
fn karpenter_launches_nothing_for_a_pod_with_dra_claims_and_says_so() {
    let text = dra_scenario("v1.15");
    let f = findings(&text);
    assert!(
        f.iter()
            .any(|(s, c, _)| s == "warning" && c == "dynamic-resources"),
        "{f:#?}"
    );
    let report = simulate_json(&text, "5m");
    assert!(nodes(&report).is_empty(), "{}", summary(&report));
    let p = &pods(&report)[0];
    assert!(p["node"].is_null(), "{p}");
    let events = report["events"].to_string();
    assert!(
        events.contains(
            "pod has Dynamic Resource Allocation requirements that are not yet \
                         supported by Karpenter"
        ),
        "{events}"
    );
}

#[test]
fn before_v1_7_karpenter_launched_for_dra_pods_that_then_could_not_bind() {
    // v1.6 did not look at claims: it launches a node, where kube-scheduler's
    // DynamicResources filter finds no device.
    let report = simulate_json(&dra_scenario("v1.6"), "5m");
    assert_eq!(nodes(&report).len(), 1, "{}", summary(&report));
    let p = &pods(&report)[0];
    assert!(p["node"].is_null(), "{p}");
    assert!(
        p["schedulerMessage"]
            .as_str()
            .is_some_and(|m| m.contains("cannot allocate all claims")),
        "{p}"
    );
}

#[test]
fn fields_a_real_cluster_acts_on_are_never_passed_over_in_silence() {
    let text = cluster("", "")
        + &pod(
            "gated",
            "  schedulingGates: [{name: example.com/quota}]\n  schedulerName: volcano\n  \
             activeDeadlineSeconds: 600",
            "cpu: 100m",
        );
    let f = findings(&text);
    for (field, says) in [
        ("schedulingGates", "SchedulingGated"),
        ("schedulerName", "`volcano`"),
        ("activeDeadlineSeconds", "DeadlineExceeded"),
    ] {
        assert!(
            f.iter().any(|(s, c, m)| s == "warning"
                && c == "unsupported-field"
                && m.starts_with(&format!("`{field}` is not simulated: "))
                && m.contains(says)),
            "{field}: {f:#?}"
        );
    }
    // The default scheduler's name is what the playground does: nothing to say.
    let default = cluster("", "") + &pod("plain", "  schedulerName: default-scheduler", "");
    assert!(findings(&default).is_empty(), "{:#?}", findings(&default));
}

#[test]
fn a_suspended_job_creates_no_pods() {
    let job = |suspend: bool| {
        cluster("", "")
            + &format!(
                r#"
---
apiVersion: batch/v1
kind: Job
metadata: {{name: batch}}
spec:
  suspend: {suspend}
  parallelism: 3
  completions: 3
  template:
    spec:
      restartPolicy: Never
      containers: [{{name: work, image: busybox, resources: {{requests: {{cpu: 100m}}}}}}]
"#
            )
    };
    let report = simulate_json(&job(true), "5m");
    assert!(pods(&report).is_empty(), "{:#?}", pods(&report));
    assert!(nodes(&report).is_empty(), "{}", summary(&report));
    let report = simulate_json(&job(false), "30s");
    assert_eq!(pods(&report).len(), 3, "{:#?}", pods(&report));
}

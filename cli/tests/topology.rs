//! Which domains a topology spread sees (`topology.go` `buildDomainGroups` and `countDomains`,
//! `topologygroup.go` `NewTopologyGroup`, `topologynodefilter.go`; the same from v1.3.0 to
//! v1.14.1 but v1.11.0): a zone that only a NodePool whose taints the pod does not tolerate
//! offers is a domain unless `nodeTaintsPolicy: Honor`; a zone that only an existing node
//! the pod's node affinity excludes gives is not one, unless `nodeAffinityPolicy: Ignore`.
//! An empty domain holds the spread's minimum at zero, so it decides how many replicas run:
//! each replica here takes an m5.large of its own, so every one runs only if Karpenter
//! launches a node for it.

use kpg_core::report::Report;

const ZONE: &str = "topology.kubernetes.io/zone";

fn scenario(node_groups: &str, pools: &str, pod_spec: &str) -> String {
    format!(
        r#"
apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {{name: t}}
spec:
  region: us-east-1
  zones: [us-east-1a, us-east-1b, us-east-1c]
{node_groups}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {{name: default}}
spec:
  role: r
  amiSelectorTerms: [{{alias: al2023@latest}}]
  subnetSelectorTerms: [{{tags: {{k: v}}}}]
  securityGroupSelectorTerms: [{{tags: {{k: v}}}}]
{pools}
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: 6
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
{pod_spec}
      containers:
      - name: c
        image: pause
        resources: {{requests: {{cpu: 1500m}}}}
"#
    )
}

fn pool(name: &str, zones: &str, extra: &str) -> String {
    format!(
        r#"
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: {name}}}
spec:
  template:
{extra}
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements:
      - {{key: topology.kubernetes.io/zone, operator: In, values: [{zones}]}}
      - {{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}}
      - {{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}}
"#
    )
}

fn spread(policy: &str) -> String {
    format!(
        "      topologySpreadConstraints:\n      - {{maxSkew: 1, topologyKey: {ZONE}, \
         whenUnsatisfiable: DoNotSchedule, labelSelector: {{matchLabels: {{app: web}}}}{policy}}}\n"
    )
}

fn run(text: &str) -> Report {
    match kpg::simulate(text, Some(10 * 60_000)) {
        Ok(s) => s.report,
        Err(e) => panic!("scenario failed: {e:?}\n{text}"),
    }
}

/// Running `web` pods per zone, and how many are pending.
fn spread_of(r: &Report) -> (Vec<(String, usize)>, usize) {
    let mut zones: std::collections::BTreeMap<String, usize> = Default::default();
    let mut pending = 0;
    for p in r.pods.iter().filter(|p| p.name.starts_with("web-")) {
        match p
            .node
            .as_ref()
            .and_then(|n| r.nodes.iter().find(|x| &x.name == n))
        {
            Some(n) if p.phase == "Running" => *zones.entry(n.zone.clone()).or_default() += 1,
            _ => pending += 1,
        }
    }
    (zones.into_iter().collect(), pending)
}

fn tainted_zone_c(policy: &str) -> String {
    scenario(
        "",
        &format!(
            "{}{}",
            pool("general", "us-east-1a, us-east-1b", "    spec:"),
            pool(
                "gpu",
                "us-east-1c",
                "    spec:\n      taints: [{key: gpu, value: \"true\", effect: NoSchedule}]"
            )
        ),
        &spread(policy),
    )
}

#[test]
fn a_zone_only_a_tainted_pool_offers_is_no_domain_when_the_spread_honours_taints() {
    let honoured = run(&tainted_zone_c(", nodeTaintsPolicy: Honor"));
    assert_eq!(
        spread_of(&honoured),
        (vec![("us-east-1a".into(), 3), ("us-east-1b".into(), 3)], 0),
        "us-east-1c is the gpu pool's alone, whose taint web does not tolerate"
    );
    // Ignore, the default: us-east-1c is an empty domain web can never reach, and the skew
    // holds the other two at one pod each.
    let ignored = run(&tainted_zone_c(""));
    assert_eq!(
        spread_of(&ignored),
        (vec![("us-east-1a".into(), 1), ("us-east-1b".into(), 1)], 4)
    );
}

fn system_node_in_zone_c(policy: &str) -> String {
    scenario(
        "  nodeGroups:\n  - {name: system, instanceType: m5.large, count: 1, zones: [us-east-1c], \
         labels: {role: system}}",
        &pool(
            "apps",
            "us-east-1a, us-east-1b",
            "    metadata: {labels: {role: app}}\n    spec:",
        ),
        &format!("      nodeSelector: {{role: app}}\n{}", spread(policy)),
    )
}

#[test]
fn a_zone_only_a_node_the_pods_affinity_excludes_gives_is_no_domain() {
    // Honor, the default: the system node (role=system) does not match web's node selector,
    // so its zone is not one of the spread's.
    let honoured = run(&system_node_in_zone_c(""));
    assert_eq!(
        spread_of(&honoured),
        (vec![("us-east-1a".into(), 3), ("us-east-1b".into(), 3)], 0)
    );
    let ignored = run(&system_node_in_zone_c(", nodeAffinityPolicy: Ignore"));
    assert_eq!(
        spread_of(&ignored),
        (vec![("us-east-1a".into(), 1), ("us-east-1b".into(), 1)], 4)
    );
}

//! Scenario generators shared by the benchmarks.

use kpg_core::catalog::{CapacityType, InstanceTypeSpec, OfferingSpec};
use kpg_core::model::*;
use kpg_core::requirements::Operator;
use kpg_core::resources::{ResourceName, Resources};

/// One broad NodePool: everything allowed, effectively unlimited.
fn broad_pool() -> NodePool {
    let mut np = NodePool::new("default", "default").require(
        "karpenter.sh/capacity-type",
        Operator::In,
        &["on-demand", "spot"],
    );
    np.limits.resources[ResourceName::Cpu as usize] = Some(10_000_000_000);
    np.consolidate_after = Some(0);
    np
}

/// Karpenter's fake catalog: type i has i+1 vCPU, 2(i+1) GiB, 10(i+1) pods; spot in two zones,
/// on-demand in three; price 0.1 per vCPU + 0.1 per GiB.
pub fn synthetic_types(n: usize) -> Vec<InstanceTypeSpec> {
    (0..n)
        .map(|i| {
            let cpu = (i + 1) as i64;
            let price = 100_000 * cpu + 100_000 * 2 * cpu;
            let mut offerings = Vec::new();
            for z in ["test-zone-1", "test-zone-2", "test-zone-3"] {
                offerings.push(OfferingSpec {
                    zone: z.into(),
                    capacity_type: CapacityType::OnDemand,
                    price,
                    available: true,
                });
            }
            for z in ["test-zone-1", "test-zone-2"] {
                offerings.push(OfferingSpec {
                    zone: z.into(),
                    capacity_type: CapacityType::Spot,
                    price: price * 7 / 10,
                    available: true,
                });
            }
            InstanceTypeSpec {
                name: format!("fake-it-{i}"),
                capacity: Resources::ZERO
                    .with(ResourceName::Cpu, cpu * 1000)
                    .with(ResourceName::Memory, (2 * cpu) << 30)
                    .with(ResourceName::Pods, 10 * cpu),
                arch: "amd64".into(),
                os: "linux".into(),
                labels: Default::default(),
                overhead: None,
                offerings,
            }
        })
        .collect()
}

/// Zonal topology spread (maxSkew 1, DoNotSchedule) over the pods labelled `app=<app>`.
fn zone_spread(app: &str) -> TopologySpreadConstraint {
    TopologySpreadConstraint {
        max_skew: 1,
        topology_key: "topology.kubernetes.io/zone".into(),
        when_unsatisfiable: WhenUnsatisfiable::DoNotSchedule,
        label_selector: Some(kpg_core::labels::LabelSelector {
            match_labels: [("app".to_string(), app.to_string())].into_iter().collect(),
            match_expressions: vec![],
        }),
        min_domains: None,
        match_label_keys: vec![],
        node_affinity_honor: true,
        node_taints_honor: false,
    }
}

const CPU: [i64; 5] = [100, 250, 500, 1000, 1500];
const MEM_MI: [i64; 6] = [100, 256, 512, 1024, 2048, 4096];

/// `pods` pending pods from 20 Deployments with mixed requests and selectors: generic ones,
/// zonal topology spread, arch and capacity-type selectors, a preferred zone.
pub fn deployments(pods: u32, zones: &[&str]) -> Vec<Workload> {
    let per = pods / 20;
    (0..20)
        .map(|d| {
            let mut t = PodTemplate::default();
            t.labels.insert("app".into(), format!("app-{d}"));
            t.spec.containers.push(Container {
                name: "app".into(),
                requests: Resources::ZERO
                    .with(ResourceName::Cpu, CPU[d % CPU.len()])
                    .with(ResourceName::Memory, MEM_MI[d % MEM_MI.len()] << 20),
                ..Default::default()
            });
            match d % 5 {
                1 => t
                    .spec
                    .topology_spread
                    .push(zone_spread(&format!("app-{d}"))),
                2 => {
                    t.spec
                        .node_selector
                        .insert("kubernetes.io/arch".into(), "amd64".into());
                }
                3 => {
                    t.spec
                        .node_selector
                        .insert("karpenter.sh/capacity-type".into(), "on-demand".into());
                }
                4 => t
                    .spec
                    .node_affinity
                    .preferred
                    .push(WeightedNodeSelectorTerm {
                        weight: 10,
                        requirements: vec![NodeSelectorRequirement {
                            key: "topology.kubernetes.io/zone".into(),
                            operator: Operator::In,
                            values: vec![zones[0].into()],
                            min_values: None,
                        }],
                    }),
                _ => {}
            }
            Workload {
                kind: WorkloadKind::Deployment,
                name: format!("app-{d}"),
                namespace: "default".into(),
                labels: Default::default(),
                replicas: per,
                completions: None,
                selector: None,
                template: t,
                document: d,
                existing: Vec::new(),
            }
        })
        .collect()
}

/// The provisioning benchmark's scenario. `region: None` uses `types` as a custom catalog.
pub fn scenario(pods: u32, types: Vec<InstanceTypeSpec>, region: &str, zones: &[&str]) -> Scenario {
    Scenario {
        cluster: Cluster {
            region: region.into(),
            zones: zones.iter().map(|z| z.to_string()).collect(),
            ..Default::default()
        },
        node_pools: vec![broad_pool()],
        node_classes: vec![NodeClass::al2023("default")],
        workloads: deployments(pods, zones),
        instance_types: types,
        ..Default::default()
    }
}

/// A cluster for the disruption benchmark: one NodePool of `m5.xlarge` on-demand nodes
/// consolidating `WhenEmptyOrUnderutilized`, and `pods` pods from 20 Deployments (a quarter
/// of them spread across zones) at 380m CPU and 1 GiB each, so that exactly ten fit a node:
/// 5,000 pods make 500 full nodes.
pub fn disruption_scenario(pods: u32) -> Scenario {
    let mut np = NodePool::new("default", "default")
        .require("karpenter.sh/capacity-type", Operator::In, &["on-demand"])
        .require(
            "node.kubernetes.io/instance-type",
            Operator::In,
            &["m5.xlarge"],
        );
    np.consolidation_policy = ConsolidationPolicy::WhenEmptyOrUnderutilized;
    np.consolidate_after = Some(30_000);
    let zones = ["us-east-1a", "us-east-1b", "us-east-1c"];
    let workloads = (0..20)
        .map(|d| {
            let mut t = PodTemplate::default();
            t.labels.insert("app".into(), format!("app-{d}"));
            t.spec.containers.push(Container {
                name: "app".into(),
                requests: Resources::ZERO
                    .with(ResourceName::Cpu, 380)
                    .with(ResourceName::Memory, 1 << 30),
                ..Default::default()
            });
            if d % 4 == 1 {
                t.spec
                    .topology_spread
                    .push(zone_spread(&format!("app-{d}")));
            }
            Workload {
                kind: WorkloadKind::Deployment,
                name: format!("app-{d}"),
                namespace: "default".into(),
                labels: Default::default(),
                replicas: pods / 20,
                completions: None,
                selector: None,
                template: t,
                document: 0,
                existing: Vec::new(),
            }
        })
        .collect();
    Scenario {
        cluster: Cluster {
            region: "us-east-1".into(),
            zones: zones.iter().map(|z| z.to_string()).collect(),
            ..Default::default()
        },
        node_pools: vec![np],
        node_classes: vec![NodeClass::al2023("default")],
        workloads,
        ..Default::default()
    }
}

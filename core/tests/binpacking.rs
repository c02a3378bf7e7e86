//! Property tests of the provisioning invariants, over random catalogs and workloads.
//!
//! Whatever the pods and instance types, after the cluster settles:
//! - no node holds more than its allocatable (requests, including pod counts);
//! - every pod is either bound to exactly one node or pending with a reason;
//! - every launched instance type was one the pool allowed and had an available offering;
//! - a NodePool's limits are not exceeded by more than one node's worth (Karpenter's rule);
//! - and the same scenario gives the same report.

use kpg_core::catalog::{CapacityType, InstanceTypeSpec, OfferingSpec};
use kpg_core::model::*;
use kpg_core::requirements::Operator;
use kpg_core::resources::{ResourceName, Resources};
use kpg_core::sim::Simulation;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn node_class() -> NodeClass {
    NodeClass::al2023("default")
}

fn pool(cpu_limit: Option<i64>) -> NodePool {
    let mut np = NodePool::new("default", "default").require(
        "karpenter.sh/capacity-type",
        Operator::In,
        &["on-demand", "spot"],
    );
    np.limits.resources[ResourceName::Cpu as usize] = cpu_limit;
    np
}

prop_compose! {
    fn instance_type(i: usize)(
        cpu in 1i64..=16,
        gib_per_cpu in 1i64..=8,
        pods in 4i64..=60,
        price in 10_000i64..2_000_000,
        spot in any::<bool>(),
        zone2 in any::<bool>()
    ) -> InstanceTypeSpec {
        instance_type_of(i, cpu, gib_per_cpu, pods, price, (spot, zone2))
    }
}

/// Type `i`: on demand in z1, and optionally spot in z1 (a third of the price) and on demand
/// in z2.
fn instance_type_of(
    i: usize,
    cpu: i64,
    gib_per_cpu: i64,
    pods: i64,
    price: i64,
    (spot, zone2): (bool, bool),
) -> InstanceTypeSpec {
    let offering = |zone: &str, capacity_type, price| OfferingSpec {
        zone: zone.into(),
        capacity_type,
        price,
        available: true,
    };
    let mut offerings = vec![offering("z1", CapacityType::OnDemand, price)];
    if spot {
        offerings.push(offering("z1", CapacityType::Spot, price / 3));
    }
    if zone2 {
        offerings.push(offering("z2", CapacityType::OnDemand, price));
    }
    InstanceTypeSpec {
        name: format!("type-{i}"),
        capacity: Resources::ZERO
            .with(ResourceName::Cpu, cpu * 1000)
            .with(ResourceName::Memory, (cpu * gib_per_cpu) << 30)
            .with(ResourceName::Pods, pods),
        arch: "amd64".into(),
        os: "linux".into(),
        labels: Default::default(),
        overhead: None,
        offerings,
    }
}

prop_compose! {
    fn workload(i: usize)(
        replicas in 1u32..40,
        cpu_m in 10i64..6000,
        mem_mi in 16i64..20_000,
        spread in any::<bool>(),
        anti in any::<bool>()
    ) -> Workload {
        workload_of(i, replicas, cpu_m, mem_mi, spread, anti)
    }
}

/// Deployment `w{i}`, optionally spread over zones and keeping its pods on separate nodes.
fn workload_of(
    i: usize,
    replicas: u32,
    cpu_m: i64,
    mem_mi: i64,
    spread: bool,
    anti: bool,
) -> Workload {
    let mut t = PodTemplate::default();
    t.labels.insert("app".into(), format!("w{i}"));
    t.spec.containers.push(Container {
        name: "c".into(),
        requests: Resources::ZERO
            .with(ResourceName::Cpu, cpu_m)
            .with(ResourceName::Memory, mem_mi << 20),
        ..Default::default()
    });
    let selector = kpg_core::labels::LabelSelector {
        match_labels: [("app".to_string(), format!("w{i}"))].into_iter().collect(),
        match_expressions: vec![],
    };
    if spread {
        t.spec.topology_spread.push(TopologySpreadConstraint {
            max_skew: 1,
            topology_key: "topology.kubernetes.io/zone".into(),
            when_unsatisfiable: WhenUnsatisfiable::DoNotSchedule,
            label_selector: Some(selector.clone()),
            min_domains: None,
            match_label_keys: vec![],
            node_affinity_honor: true,
            node_taints_honor: false,
        });
    }
    if anti {
        t.spec.pod_anti_affinity.push(PodAffinityTerm {
            label_selector: Some(selector),
            namespaces: vec![],
            namespace_selector: None,
            topology_key: "kubernetes.io/hostname".into(),
            match_label_keys: vec![],
            mismatch_label_keys: vec![],
        });
    }
    Workload {
        kind: WorkloadKind::Deployment,
        name: format!("w{i}"),
        namespace: "default".into(),
        labels: Default::default(),
        replicas,
        completions: None,
        selector: None,
        template: t,
        document: i,
        existing: Vec::new(),
    }
}

fn scenario() -> impl Strategy<Value = Scenario> {
    let types = (1usize..8).prop_flat_map(|n| (0..n).map(instance_type).collect::<Vec<_>>());
    let workloads = (1usize..5).prop_flat_map(|n| (0..n).map(workload).collect::<Vec<_>>());
    (types, workloads, proptest::option::of(4i64..200)).prop_map(|(types, workloads, limit)| {
        Scenario {
            node_pools: vec![pool(limit.map(|l| l * 1000))],
            node_classes: vec![node_class()],
            workloads,
            instance_types: types,
            ..Default::default()
        }
    })
}

fn quantity(s: &str, name: ResourceName) -> i64 {
    kpg_core::quantity::parse_for_resource(name, s).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn provisioning_invariants_hold(s in scenario()) {
        provisioning_invariants(s)?;
    }
}

/// What every provisioning outcome keeps: nothing over allocatable, a pod on one node, an
/// offering behind every launch, a reason for every pending pod, the CPU limit (give or take
/// the node that crossed it), and the same report twice.
fn provisioning_invariants(s: Scenario) -> Result<(), TestCaseError> {
    let limit = s.node_pools[0].limits.resources[ResourceName::Cpu as usize];
    let types = s.instance_types.clone();
    let mut sim = Simulation::new(s.clone()).unwrap();
    sim.run_to_rest(30 * 60_000);
    let report = sim.report();

    let mut seen = std::collections::BTreeSet::new();
    for node in &report.nodes {
        for r in [ResourceName::Cpu, ResourceName::Memory, ResourceName::Pods] {
            let used = quantity(&node.requested[r.as_str()], r);
            let alloc = quantity(&node.allocatable[r.as_str()], r);
            prop_assert!(
                used <= alloc,
                "{} {}: {} > {}",
                node.name,
                r.as_str(),
                used,
                alloc
            );
        }
        for p in &node.pods {
            prop_assert!(seen.insert(p.clone()), "pod {} on two nodes", p);
        }
        let it = types.iter().find(|t| t.name == node.instance_type);
        prop_assert!(
            it.is_some_and(|t| t.offerings.iter().any(|o| o.available
                && o.zone == node.zone
                && o.capacity_type.as_str() == node.capacity_type)),
            "{} launched without an offering",
            node.name
        );
    }
    for pod in &report.pods {
        match &pod.node {
            Some(_) => prop_assert_eq!(pod.phase.as_str(), "Running"),
            None => prop_assert!(
                pod.message.is_some(),
                "pending pod {} has no reason",
                pod.name
            ),
        }
    }
    if let Some(limit) = limit {
        let biggest = types.iter().map(|t| t.capacity.cpu()).max().unwrap_or(0);
        let total: i64 = report
            .nodes
            .iter()
            .map(|n| quantity(&n.capacity["cpu"], ResourceName::Cpu))
            .sum();
        prop_assert!(
            total <= limit + biggest,
            "cpu {} over limit {} by more than a node",
            total,
            limit
        );
    }
    // Determinism.
    let mut again = Simulation::new(s).unwrap();
    again.run_to_rest(30 * 60_000);
    prop_assert_eq!(report, again.report());
    Ok(())
}

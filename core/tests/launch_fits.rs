//! Property test: Karpenter never launches a NodeClaim its own scheduling simulation could
//! not place the pods on.
//!
//! Over random NodePools (taints, startup taints, labels), DaemonSets (host ports, requests,
//! tolerations, node selectors) and workloads (host ports, requests, tolerations, node
//! selectors), every NodeClaim that provisioning launched for some pods could host each of
//! them once Ready: the pod tolerates the node's taints, matches its labels, no DaemonSet
//! pod on the node holds one of its host ports, and the node's allocatable holds the
//! DaemonSet pods plus the pods the NodeClaim was launched for. A NodeClaim that fails this
//! is one the engine would launch again in every batch window (a runaway that costs money).

use kpg_core::catalog::{CapacityType, InstanceTypeSpec, OfferingSpec};
use kpg_core::model::*;
use kpg_core::requirements::Operator;
use kpg_core::resources::{ResourceName, Resources};
use kpg_core::sim::Simulation;
use kpg_core::taints::{Taint, TaintEffect, Toleration, TolerationOperator, scheduler_tolerates};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const PORTS: [u16; 3] = [80, 443, 9100];
const TEAMS: [&str; 2] = ["a", "b"];

fn instance_type(i: usize, cpu: i64, gib: i64, pods: i64) -> InstanceTypeSpec {
    InstanceTypeSpec {
        name: format!("type-{i}"),
        capacity: Resources::ZERO
            .with(ResourceName::Cpu, cpu * 1000)
            .with(ResourceName::Memory, gib << 30)
            .with(ResourceName::Pods, pods),
        arch: if i % 3 == 2 { "arm64" } else { "amd64" }.into(),
        os: "linux".into(),
        labels: Default::default(),
        overhead: None,
        offerings: vec![OfferingSpec {
            zone: "z1".into(),
            capacity_type: CapacityType::OnDemand,
            price: 10_000 * cpu + 1_000 * gib,
            available: true,
        }],
    }
}

fn taint(team: &str) -> Taint {
    Taint {
        key: "team".into(),
        value: team.into(),
        effect: TaintEffect::NoSchedule,
    }
}

fn toleration(team: &str) -> Toleration {
    Toleration {
        key: "team".into(),
        operator: TolerationOperator::Equal,
        value: team.into(),
        effect: Some(TaintEffect::NoSchedule),
    }
}

fn port(p: u16) -> HostPort {
    HostPort {
        protocol: "TCP".into(),
        host_ip: String::new(),
        port: p,
    }
}

/// A pod template: `port` an index into [`PORTS`] or none, `team` an index into [`TEAMS`]
/// for a toleration and `selector` for a nodeSelector on the pool's `team` label.
fn template(
    name: &str,
    cpu_m: i64,
    mem_mi: i64,
    port_ix: Option<usize>,
    tolerate: Option<usize>,
    select: Option<usize>,
) -> PodTemplate {
    let mut t = PodTemplate::default();
    t.labels.insert("app".into(), name.into());
    t.spec.containers.push(Container {
        name: "c".into(),
        requests: Resources::ZERO
            .with(ResourceName::Cpu, cpu_m)
            .with(ResourceName::Memory, mem_mi << 20),
        host_ports: port_ix.map(|i| vec![port(PORTS[i])]).unwrap_or_default(),
        ..Default::default()
    });
    if let Some(i) = tolerate {
        t.spec.tolerations.push(toleration(TEAMS[i]));
    }
    if let Some(i) = select {
        t.spec.node_selector.insert("team".into(), TEAMS[i].into());
    }
    t
}

fn workload(
    kind: WorkloadKind,
    name: String,
    replicas: u32,
    template: PodTemplate,
    document: usize,
) -> Workload {
    Workload {
        kind,
        name,
        namespace: "default".into(),
        labels: Default::default(),
        replicas,
        completions: None,
        selector: None,
        template,
        document,
        existing: Vec::new(),
    }
}

prop_compose! {
    fn daemonset(i: usize)(
        cpu_m in 10i64..800,
        mem_mi in 16i64..1024,
        port_ix in proptest::option::of(0usize..3),
        tolerate in proptest::option::of(0usize..2),
        select in proptest::option::weighted(0.2, 0usize..2)
    ) -> Workload {
        let name = format!("ds{i}");
        let t = template(&name, cpu_m, mem_mi, port_ix, tolerate, select);
        workload(WorkloadKind::DaemonSet, name, 1, t, 100 + i)
    }
}

prop_compose! {
    fn deployment(i: usize)(
        replicas in 1u32..6,
        cpu_m in 10i64..4000,
        mem_mi in 16i64..8000,
        port_ix in proptest::option::of(0usize..3),
        tolerate in proptest::option::of(0usize..2),
        select in proptest::option::weighted(0.3, 0usize..2)
    ) -> Workload {
        let name = format!("w{i}");
        let t = template(&name, cpu_m, mem_mi, port_ix, tolerate, select);
        workload(WorkloadKind::Deployment, name, replicas, t, 200 + i)
    }
}

prop_compose! {
    fn pool(i: usize)(
        tainted in any::<bool>(),
        startup in any::<bool>(),
        weight in 0i32..3,
        arm in any::<bool>()
    ) -> NodePool {
        pool_of(i, tainted, startup, weight, arm)
    }
}

/// Pool `i` carries the label team=TEAMS[i], optionally that team's taint, and optionally a
/// startup taint (removed a few seconds after registration).
fn pool_of(i: usize, tainted: bool, startup: bool, weight: i32, arm: bool) -> NodePool {
    let arch: &[&str] = if arm { &["amd64", "arm64"] } else { &["amd64"] };
    let mut np = NodePool::new(&format!("pool-{}", TEAMS[i]), "default").require(
        "kubernetes.io/arch",
        Operator::In,
        arch,
    );
    np.template_labels.insert("team".into(), TEAMS[i].into());
    if tainted {
        np.taints.push(taint(TEAMS[i]));
    }
    if startup {
        np.startup_taints.push(Taint {
            key: "example.com/agent-not-ready".into(),
            value: String::new(),
            effect: TaintEffect::NoExecute,
        });
    }
    np.weight = weight;
    np
}

fn scenario() -> impl Strategy<Value = Scenario> {
    let types = (1usize..6).prop_flat_map(|n| {
        (0..n)
            .map(|i| {
                (1i64..=16, 1i64..=64, 4i64..=58)
                    .prop_map(move |(c, g, p)| instance_type(i, c, g.max(c), p))
            })
            .collect::<Vec<_>>()
    });
    let pools = (1usize..=2).prop_flat_map(|n| (0..n).map(pool).collect::<Vec<_>>());
    let daemons = (0usize..3).prop_flat_map(|n| (0..n).map(daemonset).collect::<Vec<_>>());
    let apps = (1usize..4).prop_flat_map(|n| (0..n).map(deployment).collect::<Vec<_>>());
    (types, pools, daemons, apps).prop_map(|(types, pools, daemons, apps)| Scenario {
        node_pools: pools,
        node_classes: vec![NodeClass::al2023("default")],
        workloads: daemons.into_iter().chain(apps).collect(),
        instance_types: types,
        ..Default::default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_launched_nodeclaim_could_host_its_pods_once_ready(s in scenario()) {
        launches_fit(s)?;

    }
}

/// Every NodeClaim, once initialized, holds its DaemonSet pods and the pods it was launched
/// for: their tolerations admit its taints, their selectors match it, their host ports do not
/// collide, and their requests fit its allocatable.
fn launches_fit(s: Scenario) -> Result<(), TestCaseError> {
    let mut sim = Simulation::new(s).unwrap();
    sim.run_to_rest(20 * 60_000);
    let pods = sim.pods();
    let nodes = sim.nodes();
    for (&n, claim) in &sim.evidence().claims {
        let node = &nodes[n];
        if node.initialized_at.is_none() || claim.pods.is_empty() {
            continue;
        }
        let daemons: Vec<_> = pods
            .iter()
            .filter(|p| p.is_daemon() && p.node == Some(n))
            .collect();
        let mut used = daemons
            .iter()
            .fold(Resources::ZERO, |sum, p| sum + p.requests);
        let mut ports: Vec<HostPort> = daemons
            .iter()
            .flat_map(|p| kpg_core::pod::host_ports(&p.spec))
            .collect();
        for &p in &claim.pods {
            let pod = &pods[p];
            prop_assert!(
                scheduler_tolerates(&node.taints, &pod.spec.tolerations).is_ok(),
                "{} launched for {} whose tolerations do not admit its taints",
                node.name,
                pod.name
            );
            prop_assert!(
                kpg_core::pod::node_matches_pod_affinity(&pod.spec, &node.labels),
                "{} launched for {} whose node selector it does not match",
                node.name,
                pod.name
            );
            let wanted = kpg_core::pod::host_ports(&pod.spec);
            prop_assert!(
                !kpg_core::scheduling::ports_conflict(&ports, &wanted),
                "{} launched for {} but a DaemonSet pod or another of its pods holds host \
                 port {:?}",
                node.name,
                pod.name,
                wanted
            );
            ports.extend(wanted);
            used += pod.requests;
        }
        prop_assert!(
            used.fits_in(&node.allocatable),
            "{} ({}) cannot hold its DaemonSet pods and the pods it was launched for: {} > {}",
            node.name,
            node.instance_type,
            used,
            node.allocatable
        );
    }
    Ok(())
}

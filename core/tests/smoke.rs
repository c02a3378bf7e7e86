//! End-to-end runs of the engine on scenarios built in code (no YAML).

use kpg_core::model::*;
use kpg_core::requirements::Operator;
use kpg_core::resources::{ResourceName, Resources};
use kpg_core::sim::Simulation;
mod common;
use common::instance_type as it;

fn node_class() -> NodeClass {
    NodeClass::al2023("default")
}

pub fn node_pool(name: &str) -> NodePool {
    NodePool::new(name, "default").require(
        "karpenter.sh/capacity-type",
        Operator::In,
        &["on-demand"],
    )
}

fn deployment(name: &str, replicas: u32, cpu_m: i64) -> Workload {
    let mut template = PodTemplate::default();
    template.labels.insert("app".into(), name.into());
    template.spec.containers.push(Container {
        name: "app".into(),
        requests: Resources::ZERO.with(ResourceName::Cpu, cpu_m),
        ..Default::default()
    });
    Workload {
        kind: WorkloadKind::Deployment,
        name: name.into(),
        namespace: "default".into(),
        labels: Default::default(),
        replicas,
        completions: None,
        selector: None,
        template,
        document: 0,
    }
}

#[test]
fn pending_pods_get_a_node_that_becomes_ready_and_binds_them() {
    let scenario = Scenario {
        node_pools: vec![node_pool("default")],
        node_classes: vec![node_class()],
        workloads: vec![deployment("web", 3, 500)],
        instance_types: vec![it("small", 2, 100_000), it("large", 8, 300_000)],
        ..Default::default()
    };
    let mut sim = Simulation::new(scenario).unwrap();
    sim.run_until(5 * 60_000);
    let report = sim.report();
    assert_eq!(report.nodes.len(), 1, "{report:#?}");
    assert_eq!(report.nodes[0].instance_type, "small");
    assert_eq!(report.nodes[0].state, "Ready");
    assert!(
        report.pods.iter().all(|p| p.phase == "Running"),
        "{:#?}",
        report.pods
    );
    assert_eq!(report.cost_per_hour, 0.1);
}

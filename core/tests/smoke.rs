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
        existing: Vec::new(),
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

/// The AWS provider's exotic filter (`pkg/providers/instance/filter/filter.go`) drops types
/// with Neuron devices while others remain: for a plain CPU pod, m5.2xlarge ($0.384/h) is
/// launched over the cheaper inf1.2xlarge ($0.362/h, one Inferentia device). A pod that asks
/// for `aws.amazon.com/neuron` leaves only Neuron types, and then the filter keeps them.
#[test]
fn the_exotic_filter_passes_over_a_cheaper_inferentia_type_unless_the_pod_needs_one() {
    let pool = node_pool("mixed").require(
        "karpenter.k8s.aws/instance-family",
        Operator::In,
        &["inf1", "m5"],
    );
    let run = |workload: Workload| {
        let scenario = Scenario {
            node_pools: vec![pool.clone()],
            node_classes: vec![node_class()],
            workloads: vec![workload],
            ..Default::default()
        };
        let mut sim = Simulation::new(scenario).unwrap();
        sim.run_until(5 * 60_000);
        sim.report()
    };

    let report = run(deployment("cpu", 1, 7000));
    assert_eq!(report.nodes.len(), 1, "{report:#?}");
    assert_eq!(report.nodes[0].instance_type, "m5.2xlarge");

    let mut neuron = deployment("neuron", 1, 1000);
    neuron.template.spec.containers[0]
        .requests
        .set(ResourceName::AwsNeuron, 1);
    let report = run(neuron);
    assert_eq!(report.nodes.len(), 1, "{report:#?}");
    assert_eq!(report.nodes[0].instance_type, "inf1.xlarge");
    assert_eq!(report.nodes[0].allocatable["aws.amazon.com/neuron"], "1");
    assert_eq!(
        report.nodes[0].allocatable["aws.amazon.com/neuroncore"],
        "4"
    );
    assert!(report.pods.iter().all(|p| p.phase == "Running"));
}

/// The exotic filter reads each of the five resources upstream lists, NeuronCores included: a
/// custom type that declares only `aws.amazon.com/neuroncore` is passed over for a dearer
/// plain one, as are the GPU and Gaudi types.
#[test]
fn the_exotic_filter_reads_every_accelerator_resource() {
    for resource in [
        ResourceName::AwsNeuron,
        ResourceName::AwsNeuronCore,
        ResourceName::NvidiaGpu,
        ResourceName::AmdGpu,
        ResourceName::HabanaGaudi,
    ] {
        let mut accelerated = it("accelerated", 4, 100_000);
        accelerated.capacity.set(resource, 2);
        let scenario = Scenario {
            node_pools: vec![node_pool("default")],
            node_classes: vec![node_class()],
            workloads: vec![deployment("web", 1, 1000)],
            instance_types: vec![accelerated, it("plain", 4, 200_000)],
            ..Default::default()
        };
        let mut sim = Simulation::new(scenario).unwrap();
        sim.run_until(5 * 60_000);
        let report = sim.report();
        assert_eq!(report.nodes.len(), 1, "{resource:?}: {report:#?}");
        assert_eq!(report.nodes[0].instance_type, "plain", "{resource:?}");
    }
}

//! One disruption pass (the target: ≤ 100 ms native on a 2-core machine): candidate
//! selection and every scheduling simulation the controller runs before it decides, on a
//! cluster of 500 nodes and 5,000 pods.
//!
//! - "steady": every node is full, so nothing can go. This is the most expensive pass and
//!   the one a settled cluster runs: multi-node consolidation tries prefixes of up to 100
//!   candidates, then single-node consolidation simulates each of the 500 nodes.
//! - "after a scale-down": every Deployment dropped to a fifth of its replicas; the pass
//!   finds a multi-node command.
//!
//! The cluster is built and brought to rest outside the timed part; each iteration works on
//! a clone of it.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use kpg_bench::disruption_scenario;
use kpg_core::model::{TimelineAction, TimelineStep, WorkloadKind};
use kpg_core::sim::Simulation;

fn at_rest(scale_down: bool) -> Simulation {
    let mut scenario = disruption_scenario(5_000);
    if scale_down {
        for w in &scenario.workloads {
            scenario.timeline.push(TimelineStep {
                at: 10 * 60_000,
                action: TimelineAction::Scale {
                    kind: WorkloadKind::Deployment,
                    name: w.name.clone(),
                    namespace: w.namespace.clone(),
                    replicas: w.replicas / 5,
                },
            });
        }
    }
    let mut sim = Simulation::new(scenario).expect("benchmark scenario is valid");
    sim.run_until(if scale_down { 10 * 60_000 } else { 60 * 60_000 });
    let nodes = sim.nodes().iter().filter(|n| !n.deleted).count();
    assert_eq!(nodes, 500, "the benchmark cluster has 500 nodes");
    sim
}

fn disruption(c: &mut Criterion) {
    let mut g = c.benchmark_group("disruption pass, 500 nodes x 5000 pods");
    g.sample_size(10);
    for (name, scale_down) in [("steady", false), ("after a scale-down", true)] {
        let sim = at_rest(scale_down);
        let decision = sim.disruption_decision();
        eprintln!("{name}: {decision:?}");
        g.bench_function(name, |b| {
            b.iter_batched(
                || sim.clone(),
                |s| s.disruption_decision(),
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, disruption);
criterion_main!(benches);

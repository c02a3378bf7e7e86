//! Provisioning benchmarks (the targets, on a 2-core machine, release build):
//! - 5,000 pending pods vs 400 synthetic types: ≤ 10 ms
//! - 5,000 pods vs the full built-in catalog (us-east-1): ≤ 30 ms
//! - 20,000 pods: ≤ 150 ms
//! - a seed lab's whole 15 simulated minutes: ≤ 10 ms
//!
//! A "provisioning pass" is what happens when the first batch window closes: kube-scheduler
//! fails the pods, Karpenter solves, NodeClaims are created. The simulation is built outside
//! the timed part.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use kpg_bench::{scenario, synthetic_types};
use kpg_core::sim::Simulation;

const SYNTHETIC_ZONES: [&str; 3] = ["test-zone-1", "test-zone-2", "test-zone-3"];
const US_EAST_1: [&str; 3] = ["us-east-1a", "us-east-1b", "us-east-1c"];

fn pass(c: &mut Criterion, name: &str, make: impl Fn() -> kpg_core::model::Scenario) {
    c.bench_function(name, |b| {
        b.iter_batched(
            || Simulation::new(make()).expect("benchmark scenario is valid"),
            |mut sim| {
                sim.run_until(1_500);
                sim
            },
            BatchSize::PerIteration,
        )
    });
}

fn provisioning(c: &mut Criterion) {
    let mut g = c.benchmark_group("provisioning");
    g.sample_size(20);
    drop(g);
    pass(c, "5000 pods x 400 synthetic types", || {
        scenario(5_000, synthetic_types(400), "us-east-1", &SYNTHETIC_ZONES)
    });
    pass(c, "5000 pods x built-in catalog us-east-1", || {
        scenario(5_000, vec![], "us-east-1", &US_EAST_1)
    });
    pass(c, "20000 pods x 400 synthetic types", || {
        scenario(20_000, synthetic_types(400), "us-east-1", &SYNTHETIC_ZONES)
    });
    pass(c, "20000 pods x built-in catalog us-east-1", || {
        scenario(20_000, vec![], "us-east-1", &US_EAST_1)
    });
}

fn seed_lab(c: &mut Criterion) {
    let text = include_str!("../../tests/labs/seed002-scale-out.yaml");
    let loaded = kpg_manifests::load(text);
    assert!(!loaded.has_errors(), "lab has errors");
    c.bench_function(
        "seed002 scale-out lab, 15 simulated minutes (cold catalog)",
        |b| {
            b.iter(|| {
                let mut sim = Simulation::new(loaded.scenario.clone()).expect("lab is valid");
                sim.run_until(15 * 60_000);
                sim
            })
        },
    );
    // The page keeps its resolved catalog between runs, as every re-simulation after an edit does.
    let mut cache = kpg_core::catalog::CatalogCache::new();
    c.bench_function(
        "seed002 scale-out lab, 15 simulated minutes (warm catalog)",
        |b| {
            b.iter(|| {
                let mut sim = Simulation::with_cache(loaded.scenario.clone(), &mut cache)
                    .expect("lab is valid");
                sim.run_until(15 * 60_000);
                sim
            })
        },
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = provisioning, seed_lab
}
criterion_main!(benches);

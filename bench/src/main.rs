//! Quick timings for profiling (the criterion benches are the reference figures):
//! `kpg-bench [PODS] [builtin]` times one provisioning pass; `kpg-bench lab` times the
//! seed002 scale-out lab over 15 simulated minutes with a warm catalog; `kpg-bench rest
//! [PODS]` times a whole run to rest, and `kpg-bench dump [PODS]` prints what that run
//! reports, to compare builds.
fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    if arg == "lab" {
        let text = include_str!("../../tests/labs/seed002-scale-out.yaml");
        let loaded = kpg_manifests::load(text);
        let mut cache = kpg_core::catalog::CatalogCache::new();
        for round in 0..5 {
            let t = std::time::Instant::now();
            let mut sim =
                kpg_core::sim::Simulation::with_cache(loaded.scenario.clone(), &mut cache).unwrap();
            let built = t.elapsed();
            sim.run_until(15 * 60_000);
            eprintln!("lab round {round}: new {built:?}, total {:?}", t.elapsed());
        }
        return;
    }
    if arg == "disruption" {
        // One disruption pass over a cluster at rest (see benches/disruption.rs).
        let pods: u32 = pods_arg(5000);
        let mut sim = kpg_core::sim::Simulation::new(kpg_bench::disruption_scenario(pods)).unwrap();
        let t = std::time::Instant::now();
        let until = sim.run_to_rest(3_600_000);
        eprintln!(
            "built in {:?}, at rest at {until} ms, {} nodes",
            t.elapsed(),
            sim.nodes().iter().filter(|n| !n.deleted).count()
        );
        for round in 0..5 {
            let t = std::time::Instant::now();
            let d = sim.disruption_decision();
            eprintln!("pass {round}: {:?} -> {d:?}", t.elapsed());
        }
        return;
    }
    if arg == "dump" {
        // The rest run's report, events and evidence in full, to compare two builds' output
        // byte for byte on a scenario far bigger than the goldens'.
        let pods: u32 = pods_arg(2000);
        let mut sim = three_zone_simulation(pods);
        let until = sim.run_to_rest(3_600_000);
        println!("at rest at {until} ms");
        println!("{:#?}", sim.report());
        for event in sim.events() {
            println!("{event:?}");
        }
        // The evidence written out runs to gigabytes (what each decision saw, per pod): its
        // digest and length stand for it.
        let mut digest = Digest::default();
        std::fmt::write(&mut digest, format_args!("{:?}", sim.evidence())).unwrap();
        println!(
            "evidence: {} bytes, digest {:016x}",
            digest.len,
            std::hash::Hasher::finish(&digest.hasher)
        );
        return;
    }
    if arg == "rest" {
        // A whole run to rest: provisioning, launches, kube-scheduler binding as nodes come up.
        let pods: u32 = pods_arg(5000);
        let mut sim = three_zone_simulation(pods);
        let t = std::time::Instant::now();
        let until = sim.run_to_rest(3_600_000);
        let r = sim.report();
        let running = r.pods.iter().filter(|p| p.phase == "Running").count();
        eprintln!(
            "{pods} pods to rest at {until} ms: {:?}, {} nodes, {running} running",
            t.elapsed(),
            r.nodes.len()
        );
        return;
    }
    let pods: u32 = arg.parse().unwrap_or(5000);
    let builtin = std::env::args().nth(2).as_deref() == Some("builtin");
    let types = if builtin {
        vec![]
    } else {
        kpg_bench::synthetic_types(400)
    };
    let zones: &[&str] = if builtin {
        &["us-east-1a", "us-east-1b", "us-east-1c"]
    } else {
        &["test-zone-1", "test-zone-2", "test-zone-3"]
    };
    let mut sim =
        kpg_core::sim::Simulation::new(kpg_bench::scenario(pods, types, "us-east-1", zones))
            .unwrap();
    let t = std::time::Instant::now();
    sim.run_until(1_500);
    let elapsed = t.elapsed();
    let r = sim.report();
    let pending = r
        .pods
        .iter()
        .filter(|p| p.phase == "Pending" && p.nominated.is_none())
        .count();
    eprintln!(
        "{pods} pods: {elapsed:?}, {} nodeclaims, {pending} pending",
        r.nodeclaims.len()
    );
}

/// A `fmt::Write` that hashes what is written instead of keeping it.
#[derive(Default)]
struct Digest {
    hasher: std::hash::DefaultHasher,
    len: u64,
}

impl std::fmt::Write for Digest {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        std::hash::Hasher::write(&mut self.hasher, s.as_bytes());
        self.len += s.len() as u64;
        Ok(())
    }
}

/// The second argument as a pod count, or `default`.
fn pods_arg(default: u32) -> u32 {
    std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

/// `rest` and `dump`'s scenario: `pods` pods over us-east-1's three zones, built-in catalog.
fn three_zone_simulation(pods: u32) -> kpg_core::sim::Simulation {
    let zones = ["us-east-1a", "us-east-1b", "us-east-1c"];
    kpg_core::sim::Simulation::new(kpg_bench::scenario(pods, vec![], "us-east-1", &zones)).unwrap()
}

//! (helper binary for profiling)
fn main() {
    let pods: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let builtin = std::env::args().nth(2).as_deref() == Some("builtin");
    let types = if builtin { vec![] } else { kpg_bench::synthetic_types(400) };
    let zones: &[&str] = if builtin { &["us-east-1a", "us-east-1b", "us-east-1c"] } else { &["test-zone-1", "test-zone-2", "test-zone-3"] };
    let mut sim = kpg_core::sim::Simulation::new(kpg_bench::scenario(pods, types, "us-east-1", zones)).unwrap();
    let t = std::time::Instant::now();
    sim.run_until(1_500);
    let elapsed = t.elapsed();
    let r = sim.report();
    eprintln!("{pods} pods: {elapsed:?}, {} nodeclaims, {} pending", r.nodeclaims.len(), r.pods.iter().filter(|p| p.phase == "Pending" && p.nominated.is_none()).count());
    let _ = t;
}

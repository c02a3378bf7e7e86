//! The scheduling passes' shortcuts (`Solver::shortcuts`: twins placed without walking the
//! nodes again, NodeClaims that remember a pod spec they already cover) are exact: a whole
//! run gives the same report, events and evidence with them and without.
//!
//! The labs and goldens are too small to reach them much: the runs here are the benchmark's
//! clusters, thousands of replicas over three zones with spreads, selectors and preferences,
//! consolidating as they settle.

use kpg_core::model::Scenario;
use kpg_core::sim::Simulation;

const ZONES: [&str; 3] = ["us-east-1a", "us-east-1b", "us-east-1c"];

/// The run to rest written out: the report, every event, and the evidence when asked.
fn run(scenario: Scenario, shortcuts: bool, evidence: bool) -> String {
    let mut sim = Simulation::new(scenario).expect("the benchmark's scenario is valid");
    if !shortcuts {
        sim = sim.without_solver_shortcuts();
    }
    let until = sim.run_to_rest(3_600_000);
    let mut out = format!("at rest at {until} ms\n{:#?}\n", sim.report());
    for event in sim.events() {
        out += &format!("{event:?}\n");
    }
    if evidence {
        out += &format!("{:?}", sim.evidence());
    }
    out
}

fn assert_same(name: &str, with: String, without: String) {
    if with != without {
        let line = with
            .lines()
            .zip(without.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let show = |s: &str| s.lines().nth(line).unwrap_or("(ended)").to_string();
        panic!(
            "{name}: the shortcuts changed the run at line {}:\n  with:    {}\n  without: {}",
            line + 1,
            show(&with),
            show(&without)
        );
    }
}

#[test]
fn shortcuts_change_nothing_in_a_scale_up_that_consolidates() {
    let scenario = || kpg_bench::scenario(2_000, vec![], "us-east-1", &ZONES);
    assert_same(
        "2,000 pods",
        run(scenario(), true, false),
        run(scenario(), false, false),
    );
}

#[test]
fn shortcuts_change_nothing_in_what_each_decision_saw() {
    let scenario = || kpg_bench::scenario(400, vec![], "us-east-1", &ZONES);
    assert_same(
        "400 pods, with evidence",
        run(scenario(), true, true),
        run(scenario(), false, true),
    );
}

#[test]
fn shortcuts_change_nothing_in_a_consolidation_of_full_nodes() {
    let scenario = || kpg_bench::disruption_scenario(1_000);
    assert_same(
        "1,000 pods on m5.xlarge",
        run(scenario(), true, false),
        run(scenario(), false, false),
    );
}

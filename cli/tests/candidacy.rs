//! A node's standing with the disruption controller (`Simulation::candidacy`) over a lab's
//! life, and the explanation saying the same thing at every instant.

use kpg_core::sim::Candidacy;
use kpg_explain::{Lang, Subject};

mod common;

#[test]
fn a_consolidated_node_goes_through_each_stage_in_order() {
    let text =
        std::fs::read_to_string(common::lab("seed002-consolidation.yaml")).expect("the lab exists");
    let node = "platform-b44dr";
    let mut stages: Vec<&'static str> = Vec::new();
    for seconds in (1..=400).step_by(3) {
        let at = seconds * 1000;
        let run = kpg::simulate(&text, Some(at)).expect("the lab runs");
        let Some(n) = run.sim.nodes().iter().position(|x| x.name == node) else {
            continue;
        };
        let candidacy = run.sim.candidacy(n).expect("the node exists");
        let stage = candidacy.as_str();
        if stages.last() != Some(&stage) {
            stages.push(stage);
        }
        // The explanation's consolidation line is the candidacy, worded.
        let explained = kpg_explain::explain(&run.sim, &Subject::Node(node.into()), Lang::En)
            .expect("explained");
        let checks: Vec<&str> = explained
            .sections
            .iter()
            .flat_map(|s| s.lines.iter())
            .filter_map(|l| l.check.as_deref())
            .collect();
        assert!(
            checks.contains(&stage),
            "at {seconds}s: {stage} not in {checks:?}"
        );
        if let Candidacy::NotYetConsolidatable { at: ready } = candidacy {
            assert!(ready > at, "a countdown ends in the future");
        }
    }
    // Launched, counting down consolidateAfter, a candidate, chosen by a command that waits
    // out its validation, then (no replacement: the node was empty or its pods fit
    // elsewhere) deleted at once. On the way the controller also left it alone for a pass.
    let order = [
        "not-ready",
        "consolidate-after",
        "candidate",
        "pending",
        "deleting",
        "deleted",
    ];
    let mut seen = stages.iter().filter(|s| order.contains(s));
    for want in order {
        assert!(seen.any(|s| *s == want), "{want} in order in {stages:?}");
    }
}

//! What "the same outcome" means: the figures at the instant, where each workload's pods
//! are, why pods wait, and the disruption controller's commands and drift, none of it naming
//! a node (a NodeClaim's name comes from the scenario's random stream, which another document
//! can shift). The cost accrued is left out: an instance's termination takes a few seconds
//! drawn from its node's name, so a node renamed by redaction stops costing a few seconds
//! earlier or later. Two scenarios that give equal [`Signature`]s at an instant tell an upstream
//! reader the same story.

use std::collections::BTreeMap;

use kpg_core::compare::{self, Outcome};
use kpg_core::model::Millis;
use kpg_core::report::Report;
use kpg_core::sim::{EventKind, Simulation};

/// A scenario read and simulated to an instant.
pub struct Run {
    pub sim: Simulation,
    pub report: Report,
    /// The reader's warnings.
    pub warnings: usize,
}

/// Reads `text` and simulates it to `at` (`None`: until nothing more would change, at most
/// `limit`); `None` when the reader finds errors or the engine will not start it.
pub fn run(text: &str, at: Option<Millis>, limit: Millis) -> Option<Run> {
    let loaded = kpg_manifests::load(text);
    if loaded.has_errors() {
        return None;
    }
    let warnings = loaded.warnings().count();
    let mut sim = Simulation::new(loaded.scenario).ok()?;
    match at {
        Some(t) => sim.run_until(t),
        None => {
            sim.run_to_rest(limit);
        }
    }
    let report = sim.report();
    Some(Run {
        sim,
        report,
        warnings,
    })
}

#[derive(Debug, PartialEq)]
pub struct Signature {
    outcome: Outcome,
    placements: BTreeMap<String, BTreeMap<String, u32>>,
    /// Workload, pods, Karpenter's (else kube-scheduler's) reason.
    pending: Vec<(String, u32, Option<String>)>,
    commands: Vec<String>,
    drifted: Vec<String>,
}

/// How precisely two runs must agree.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// The disruption commands and drift at the same instants: documents left out.
    Exact,
    /// The same commands and drift in the same order, at any instant: nodes renamed. The
    /// engine draws a node's registration, readiness and termination delays from its name,
    /// so a renamed node's command comes a few seconds earlier or later.
    Renamed,
}

/// The run's signature; `say` rewrites its texts as another scenario would say them (the
/// redacted one names nodes by their placeholders).
pub fn signature(run: &Run, say: &dyn Fn(&str) -> String, timing: Timing) -> Signature {
    let when = |at: Millis| if timing == Timing::Exact { at } else { 0 };
    let placements = compare::placements(&run.report)
        .into_iter()
        .map(|(owner, (counts, _))| (say(&owner), counts))
        .collect();
    let pending = compare::pending(&run.report)
        .into_iter()
        .map(|p| (say(&p.owner), p.pods, p.message.as_deref().map(say)))
        .collect();
    let commands = compare::commands(&run.sim)
        .into_iter()
        .map(|c| {
            let d = &c.disruption;
            let candidates: Vec<String> = d
                .candidates
                .iter()
                .map(|n| format!("{}/{}", n.instance_type, n.capacity_type.as_str()))
                .collect();
            let replacements: Vec<String> = c
                .replacements
                .iter()
                .map(|r| format!("{:?}", r.launched))
                .collect();
            format!(
                "{} {} {:?} {} pods {:?} → {:?}",
                when(c.at),
                d.reason.as_str(),
                candidates,
                d.pods,
                d.savings,
                replacements
            )
        })
        .collect();
    let drifted = compare::drifted(&run.sim)
        .into_iter()
        .map(|d| {
            format!(
                "{} {} {:?} {:?} {}",
                when(d.at),
                d.reason.as_str(),
                d.node_pool,
                d.instance_type,
                d.state.as_str()
            )
        })
        .collect();
    Signature {
        outcome: Outcome {
            accrued: 0,
            ..Outcome::of(&run.sim, &run.report)
        },
        placements,
        pending,
        commands,
        drifted,
    }
}

/// The events that tell what Karpenter decided (and what made it decide): not every bind,
/// nomination or drain step.
pub(crate) fn deciding(kind: &EventKind) -> bool {
    use EventKind::*;
    matches!(
        kind,
        FailedScheduling { .. }
            | NoCompatibleInstanceTypes { .. }
            | TooManyNodes { .. }
            | Created { .. }
            | Launched { .. }
            | LaunchFailed { .. }
            | Expired { .. }
            | SpotInterrupted { .. }
            | ReservationInterrupted { .. }
            | Preempted { .. }
            | FailedDraining { .. }
            | ConsolidationRejected { .. }
            | NodeRepair { .. }
            | NodeRepairBlocked { .. }
            | NodeOverlayConflict { .. }
            | Disrupting(_)
            | ReplacementLaunchFailed { .. }
            | DisruptionFailed { .. }
            | Drifted { .. }
            | DriftResolved { .. }
            | NodePoolDeleted { .. }
            | NodeClassWaiting { .. }
            | NodeClassDeleted { .. }
            | ShortageStarted { .. }
            | CapacityRestored { .. }
            | TimelineSkipped(_)
    )
}

/// When each deciding event happened up to `at`, and what it was: a reduction keeps every
/// document whose removal changes this (a PodDisruptionBudget that delayed a drain without
/// changing the figures at the end still decided something).
pub fn decisions(run: &Run, at: Millis) -> Vec<(Millis, &'static str)> {
    run.sim
        .events()
        .iter()
        .filter(|e| e.time <= at && deciding(&e.kind))
        .map(|e| (e.time, e.kind.reason()))
        .collect()
}

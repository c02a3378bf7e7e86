//! Plays a scenario the way the page does while a learner works on an exercise: from time
//! zero, instant by instant (each time something happens), asking at each whether the
//! exercise is met, until it is or nothing is left to happen within the page's horizon.

use kpg_core::catalog::CatalogCache;
use kpg_core::model::Millis;
use kpg_core::sim::Simulation;
use kpg_manifests::Diagnostic;
use kpg_scene::snapshot::{self, Snapshot};

use crate::exercise::Exercise;

/// How far the page lets the clock run (`web/src/bridge/player.rs`' `MAX_TIME_MS`): past this
/// nothing in a lesson changes, and an expiry 30 days out is not an instant to stop at.
pub const HORIZON_MS: Millis = 24 * 3_600_000;

/// What a play found.
#[derive(Clone, Debug)]
pub struct Played {
    /// The first instant the exercise was met, if it was.
    pub met_at: Option<Millis>,
    /// Where the play stopped: that instant, or rest.
    pub at: Millis,
    /// The cluster there.
    pub snapshot: Snapshot,
}

/// Why a scenario could not be played.
#[derive(Clone, Debug)]
pub enum Refusal {
    /// The reader found errors (every diagnostic, errors and warnings).
    Invalid(Vec<Diagnostic>),
    /// The engine would not start it.
    Engine(String),
}

/// Reads `text` and starts its simulation (at time zero), or says why it cannot.
pub fn start(text: &str, cache: &mut CatalogCache) -> Result<Simulation, Refusal> {
    let loaded = kpg_manifests::load(text);
    if loaded.has_errors() {
        return Err(Refusal::Invalid(loaded.diagnostics));
    }
    let mut sim = Simulation::with_cache(loaded.scenario, cache)
        .map_err(|e| Refusal::Engine(e.to_string()))?;
    sim.run_until(0);
    Ok(sim)
}

/// Plays `text` from zero until `exercise` is met or nothing is left to happen.
pub fn play(exercise: &Exercise, text: &str, cache: &mut CatalogCache) -> Result<Played, Refusal> {
    let mut sim = start(text, cache)?;
    loop {
        let next = sim.next_event_time().filter(|&t| t <= HORIZON_MS);
        let shot = snapshot::take(&sim);
        if exercise.met(&shot, next.is_none()) {
            return Ok(Played {
                met_at: Some(sim.now()),
                at: sim.now(),
                snapshot: shot,
            });
        }
        match next {
            Some(t) => sim.run_until(t),
            None => {
                return Ok(Played {
                    met_at: None,
                    at: sim.now(),
                    snapshot: shot,
                });
            }
        }
    }
}

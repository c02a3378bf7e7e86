//! Drives the engine for the page: the last valid scenario, the simulation built from it, and
//! the position on the simulated clock.
//!
//! Pure Rust (no browser types), so its rules are tested natively:
//! - an invalid edit never replaces the running simulation;
//! - a valid edit rebuilds the simulation and replays it to the same instant, which is exact
//!   because the engine is deterministic;
//! - the catalog cache survives rebuilds, so an edit costs a scheduling pass, not a catalog
//!   resolution.

use kpg_core::catalog::CatalogCache;
use kpg_core::sim::Simulation;

use kpg_core::model::Scenario;

use crate::base::series::{SeriesUpdate, Tracker};
use crate::base::snapshot::{self, EventLog, Snapshot};

/// How far the page lets the clock run: past this nothing in a lesson changes.
pub const MAX_TIME_MS: i64 = 24 * 3_600_000;

pub struct Player {
    /// The stream the simulation was built from, as read: a restart or a seek back replays
    /// it without reading the text again.
    applied: Option<(String, Scenario)>,
    sim: Option<Simulation>,
    cache: CatalogCache,
    /// The engine's revision when the last snapshot was taken.
    seen_revision: Option<u64>,
    /// The running simulation's event lines, converted once each.
    events: EventLog,
    /// Counts the simulations built: a new one starts a new event log.
    epoch: u64,
    /// The cost timeline sent so far.
    series: Tracker,
}

/// Told, between two instants of a long run, where the simulation has got to (and the
/// instant it is going to); the worker turns it into a progress message.
pub type Progress<'a> = &'a mut dyn FnMut(&Simulation, i64);

/// What a rebuild did.
#[derive(Debug, PartialEq, Eq)]
pub enum Rebuild {
    /// The text is what is already running.
    Unchanged,
    Rebuilt,
    /// The manifests read cleanly but the engine refused them (e.g. an unknown region).
    Refused(String),
}

impl Default for Player {
    fn default() -> Self {
        Player::new()
    }
}

impl Player {
    pub fn new() -> Player {
        Player {
            applied: None,
            sim: None,
            cache: CatalogCache::new(),
            seen_revision: None,
            events: EventLog::default(),
            epoch: 0,
            series: Tracker::default(),
        }
    }

    /// Reads `text` and builds its simulation, run to `at`. The page's edits come through
    /// [`Player::rebuild_read`] with the reading the Problems panel already made; this is for
    /// text that was never read in this page (the last good manifests of a saved session).
    pub fn rebuild(&mut self, text: &str, at: i64) -> Rebuild {
        self.rebuild_with(text, at, &mut |_, _| {})
    }

    /// [`Player::rebuild`], told of its progress.
    pub fn rebuild_with(&mut self, text: &str, at: i64, progress: Progress) -> Rebuild {
        if self.is_applied(text) {
            return Rebuild::Unchanged;
        }
        let loaded = kpg_manifests::load(text);
        if loaded.has_errors() {
            return Rebuild::Refused("the manifests have errors".into());
        }
        self.start(text, loaded.scenario, at, progress)
    }

    /// Builds the simulation of a scenario already read from `text` without errors (an
    /// edit's [`crate::editor::workspace::Analysis`]), run to `at`: an edit is read once.
    pub fn rebuild_read(&mut self, text: &str, scenario: &Scenario, at: i64) -> Rebuild {
        self.rebuild_read_with(text, scenario, at, &mut |_, _| {})
    }

    /// [`Player::rebuild_read`], told of its progress.
    pub fn rebuild_read_with(
        &mut self,
        text: &str,
        scenario: &Scenario,
        at: i64,
        progress: Progress,
    ) -> Rebuild {
        if self.is_applied(text) {
            return Rebuild::Unchanged;
        }
        self.start(text, scenario.clone(), at, progress)
    }

    fn is_applied(&self, text: &str) -> bool {
        self.applied.as_ref().is_some_and(|(t, _)| t == text)
    }

    fn start(&mut self, text: &str, scenario: Scenario, at: i64, progress: Progress) -> Rebuild {
        match Simulation::with_cache(scenario.clone(), &mut self.cache) {
            Ok(mut sim) => {
                run_to(&mut sim, at.clamp(0, MAX_TIME_MS), progress);
                self.sim = Some(sim);
                self.applied = Some((text.to_string(), scenario));
                self.seen_revision = None;
                self.events = EventLog::default();
                self.epoch += 1;
                Rebuild::Rebuilt
            }
            Err(e) => Rebuild::Refused(e.to_string()),
        }
    }

    /// Starts the running scenario again from time 0.
    pub fn restart(&mut self) {
        if let Some((text, scenario)) = self.applied.take() {
            self.start(&text, scenario, 0, &mut |_, _| {});
        }
    }

    /// Runs the clock forward to `to` (never backwards: rewinding is a restart and a replay).
    pub fn advance(&mut self, to: i64) {
        self.advance_with(to, &mut |_, _| {});
    }

    /// [`Player::advance`], told of its progress.
    pub fn advance_with(&mut self, to: i64, progress: Progress) {
        let to = to.clamp(0, MAX_TIME_MS);
        match &mut self.sim {
            Some(sim) if to as u64 >= sim.now() => run_to(sim, to, progress),
            Some(_) => {
                if let Some((text, scenario)) = self.applied.take() {
                    self.start(&text, scenario, to, progress);
                }
            }
            None => {}
        }
    }

    /// Counts the simulations built: the event log of a frame belongs to one of them.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }

    /// The time of the next thing that will happen, if anything will.
    /// When something next happens, within the page's horizon: an expiry 30 days out (the
    /// default `expireAfter`) is not a step.
    pub fn next_event(&self) -> Option<i64> {
        self.sim
            .as_ref()
            .and_then(Simulation::next_event_time)
            .map(|t| t as i64)
            .filter(|&t| t <= MAX_TIME_MS)
    }

    pub fn now(&self) -> i64 {
        self.sim.as_ref().map_or(0, |s| s.now() as i64)
    }

    /// The simulation on screen, for the consumers that read it whole (explanations, the
    /// terminal).
    pub fn sim(&self) -> Option<&Simulation> {
        self.sim.as_ref()
    }

    pub fn is_running(&self) -> bool {
        self.sim.is_some()
    }

    /// Whether the cluster changed since the last snapshot was taken.
    pub fn changed_since_snapshot(&self) -> bool {
        self.sim
            .as_ref()
            .is_some_and(|sim| self.seen_revision != Some(sim.revision()))
    }

    /// The cluster now, whether or not it changed since the last snapshot.
    pub fn snapshot_again(&mut self) -> Option<Snapshot> {
        self.seen_revision = None;
        self.fresh_snapshot()
    }

    /// A snapshot if the cluster changed since the last one was taken.
    pub fn fresh_snapshot(&mut self) -> Option<Snapshot> {
        let sim = self.sim.as_ref()?;
        if self.seen_revision == Some(sim.revision()) {
            return None;
        }
        self.seen_revision = Some(sim.revision());
        Some(snapshot::take_with(sim, &mut self.events))
    }

    /// What the page has not seen of the cost timeline (`None`: nothing changed).
    pub fn fresh_series(&mut self) -> Option<SeriesUpdate> {
        let sim = self.sim.as_ref()?;
        let timeline = self.applied.as_ref().map_or(&[][..], |(_, s)| &s.timeline);
        self.series.update(self.epoch, sim, timeline)
    }
}

/// Runs `sim` to `to` one instant at a time, telling `progress` after each: the engine is
/// deterministic and its clock compositional, so this is the same run as one `run_until`.
fn run_to(sim: &mut Simulation, to: i64, progress: Progress) {
    let to = to.max(0) as u64;
    while let Some(next) = sim.next_event_time().filter(|&t| t < to) {
        sim.run_until(next);
        progress(sim, to as i64);
    }
    sim.run_until(to);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_replays_to_the_same_instant() {
        let mut p = Player::new();
        assert_eq!(
            p.rebuild(crate::lessons::lab("seed002-scale-out"), 0),
            Rebuild::Rebuilt
        );
        p.advance(120_000);
        assert!(p.changed_since_snapshot());
        let before = p.fresh_snapshot().unwrap();
        assert!(!p.changed_since_snapshot());
        assert!(p.fresh_snapshot().is_none(), "nothing changed since");
        let edited = format!(
            "{}# an edited comment\n",
            crate::lessons::lab("seed002-scale-out")
        );
        assert_eq!(p.rebuild(&edited, 120_000), Rebuild::Rebuilt);
        assert_eq!(p.rebuild(&edited, 120_000), Rebuild::Unchanged);
        let after = p.fresh_snapshot().unwrap();
        assert_eq!(
            before, after,
            "a comment edit changes nothing in the cluster"
        );
    }

    #[test]
    fn invalid_text_keeps_the_running_simulation() {
        let mut p = Player::new();
        p.rebuild(crate::lessons::lab("seed002-limits"), 0);
        p.advance(200_000);
        let good = p.fresh_snapshot().unwrap();
        assert!(matches!(
            p.rebuild("kind: NodePool\nspec: [", 200_000),
            Rebuild::Refused(_)
        ));
        p.advance(200_000);
        assert_eq!(p.now(), 200_000);
        assert!(p.fresh_snapshot().is_none());
        assert_eq!(good.summary.nodes, 6);
    }

    #[test]
    fn stepping_visits_each_event_and_rewinding_replays() {
        let mut p = Player::new();
        p.rebuild(crate::lessons::lab("seed000-hello-world"), 0);
        let first = p
            .next_event()
            .expect("the pending pod triggers a provisioning pass");
        assert!(
            first > 0 && first <= 10_000,
            "batching waits about a second: {first}"
        );
        p.advance(first);
        let mut t = first;
        for _ in 0..6 {
            let Some(next) = p.next_event() else { break };
            assert!(next > t);
            t = next;
            p.advance(t);
        }
        let later = p.fresh_snapshot().unwrap();
        p.advance(1_000);
        assert_eq!(p.now(), 1_000, "going back replays from the start");
        p.advance(t);
        assert_eq!(p.fresh_snapshot().unwrap(), later);
    }

    /// An edit is read once: the player starts from the analysis's scenario, and a restart
    /// or a seek back replays that scenario instead of reading the text again. (The text
    /// here is deliberately unreadable: any second reading would refuse it.)
    #[test]
    fn an_edit_is_read_once_and_replayed_from_that_reading() {
        let scenario = kpg_manifests::load(crate::lessons::lab("seed000-hello-world")).scenario;
        let unreadable = "not: [yaml";
        let mut p = Player::new();
        assert_eq!(p.rebuild_read(unreadable, &scenario, 0), Rebuild::Rebuilt);
        assert_eq!(
            p.rebuild_read(unreadable, &scenario, 0),
            Rebuild::Unchanged,
            "the same text is not rebuilt"
        );
        p.advance(120_000);
        let later = p.fresh_snapshot().unwrap();
        assert_eq!(later.summary.nodes, 1, "hello-world launched its node");
        p.advance(30_000);
        assert_eq!(p.now(), 30_000, "a seek back replays");
        p.restart();
        assert_eq!((p.is_running(), p.now()), (true, 0), "a restart replays");
        p.advance(120_000);
        assert_eq!(p.fresh_snapshot().unwrap(), later, "to the same cluster");
    }

    #[test]
    fn a_rebuilt_simulation_starts_its_event_lines_over() {
        let mut p = Player::new();
        p.rebuild(crate::lessons::lab("seed000-hello-world"), 0);
        p.advance(60_000);
        let hello = p.fresh_snapshot().unwrap();
        p.rebuild(crate::lessons::lab("seed002-limits"), 300_000);
        let limits = p.fresh_snapshot().unwrap();
        assert!(
            limits.events.len() > hello.events.len(),
            "the new simulation has more events than the log held"
        );
        assert_eq!(
            limits.events,
            snapshot::take(p.sim().unwrap()).events,
            "none of the old simulation's lines"
        );
    }

    /// A scenario that cannot run is refused with a message, starts nothing and replaces
    /// nothing. An unknown region is the reader's error (it checks regions, zones, instance
    /// types and the node and pod caps before the engine would, and leaves a document with
    /// errors out of the scenario), so the refusal is the reader's: the engine never sees Mars.
    #[test]
    fn a_refusal_is_a_message_and_replaces_nothing() {
        let cluster = |region: &str| {
            format!(
                "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\n\
                 metadata: {{name: x}}\nspec: {{region: {region}}}\n"
            )
        };
        let (mars, earth) = (cluster("mars-east-1"), cluster("us-east-1"));
        let mut p = Player::new();
        assert_eq!(
            p.rebuild(&mars, 60_000),
            Rebuild::Refused("the manifests have errors".into())
        );
        assert!(!p.is_running() && p.sim().is_none() && !p.changed_since_snapshot());
        assert_eq!((p.now(), p.next_event()), (0, None));
        assert!(p.fresh_snapshot().is_none());

        // The same cluster on Earth runs: the region was the only problem.
        assert_eq!(p.rebuild(&earth, 60_000), Rebuild::Rebuilt);
        assert_eq!(p.now(), 60_000);
        assert!(p.fresh_snapshot().is_some());
        // Refused again, and what runs stays: same clock, same text, nothing new to draw.
        assert!(matches!(p.rebuild(&mars, 0), Rebuild::Refused(_)));
        assert_eq!(p.now(), 60_000);
        assert!(p.fresh_snapshot().is_none());
        assert_eq!(p.rebuild(&earth, 60_000), Rebuild::Unchanged);
    }
}

use leptos::prelude::*;

use kpg_core::sim::Simulation;

use crate::browser::{self, ChipPositions};
use crate::player::{Player, Rebuild};
use crate::snapshot::Snapshot;
use crate::workspace::Analysis;

/// The simulation and the cluster on screen. The `Player` is not reactive: it lives in a
/// `StoredValue`, and every change to it moves `revision`, which the snapshot (and the
/// explanation, the terminal's watch) follow: derived from the engine, never copied from it.
#[derive(Clone, Copy)]
pub struct Engine {
    player: StoredValue<Player, LocalStorage>,
    /// Moves when the simulation changed: a rebuild, a step of the clock, a restart.
    revision: RwSignal<u64>,
    /// The cluster as the engine shows it now (kept while the manifests are invalid).
    pub snapshot: Memo<Snapshot>,
    /// Why the engine refused manifests the reader accepted.
    pub error: RwSignal<Option<String>>,
    /// The manifests the simulation on screen was built from.
    pub last_good: RwSignal<Option<String>>,
    /// Chip positions measured before the last cluster change, to animate moves from.
    flip: StoredValue<Option<ChipPositions>, LocalStorage>,
    /// The next change starts a new story (a load, a seek back, a restart)...
    new_story: StoredValue<bool>,
    /// ...and this counts the stories: an embed tells its host the difference between two
    /// clusters of the same story only, never as if a load or a rewind had happened.
    story: StoredValue<u64>,
    /// Called at once after each change (an embed's report to its host, see
    /// [`Engine::on_change`]).
    on_change: StoredValue<Option<Box<dyn Fn()>>, LocalStorage>,
}

impl Engine {
    pub fn new(last_good: Option<String>) -> Engine {
        let player = StoredValue::new_local(Player::new());
        let revision = RwSignal::new(0);
        // The player keeps the snapshot's event lines and knows whether anything changed
        // since the last snapshot: a revision that moved without a change keeps the last one.
        let snapshot = Memo::new_owning(move |last: Option<Snapshot>| {
            revision.track();
            match player.try_update_value(Player::fresh_snapshot).flatten() {
                Some(fresh) => (fresh, true),
                None => (last.unwrap_or_default(), false),
            }
        });
        Engine {
            player,
            revision,
            snapshot,
            error: RwSignal::new(None),
            last_good: RwSignal::new(last_good),
            flip: StoredValue::new_local(None),
            new_story: StoredValue::new(true),
            story: StoredValue::new(0),
            on_change: StoredValue::new_local(None),
        }
    }

    /// Subscribes the running memo or effect to the engine's changes.
    pub fn track(&self) {
        self.revision.track();
    }

    /// Hands valid manifests to the engine, replayed to `at`. Invalid ones are not: the last
    /// good simulation stays on screen and the Problems panel says why. After a reload with a
    /// broken edit, that means the last good manifests saved with the session.
    pub fn apply(&self, a: &Analysis, at: i64) {
        let (text, outcome) = match &a.scenario {
            Some(scenario) if !a.has_errors => (
                a.text.clone(),
                self.player
                    .try_update_value(|p| p.rebuild_read(&a.text, scenario, at)),
            ),
            _ if !self.player.with_value(Player::is_running) => {
                let Some(text) = self.last_good.get_untracked() else {
                    return;
                };
                let outcome = self.player.try_update_value(|p| p.rebuild(&text, at));
                (text, outcome)
            }
            _ => return,
        };
        match outcome {
            Some(Rebuild::Refused(message)) => self.error.set(Some(message)),
            Some(Rebuild::Rebuilt) => {
                self.error.set(None);
                self.last_good.set(Some(text));
                self.publish();
            }
            _ => {}
        }
    }

    /// Runs the simulation to `t` (an earlier instant replays from the start); returns where
    /// it is.
    pub fn advance(&self, t: i64) -> i64 {
        self.player.update_value(|p| p.advance(t));
        self.publish();
        self.player.with_value(Player::now)
    }

    /// Starts the running scenario again from time 0.
    pub fn restart(&self) {
        self.player.update_value(Player::restart);
        self.publish();
    }

    /// When something next happens, if anything will.
    pub fn next_event(&self) -> Option<i64> {
        self.player.with_value(Player::next_event)
    }

    /// Reads the running simulation (untracked: callers track [`Engine::track`] or
    /// `snapshot`). Only the explanation and the terminal need it whole.
    pub fn with_sim<R>(&self, f: impl FnOnce(&Simulation) -> R) -> Option<R> {
        self.player.with_value(|p| p.sim().map(f))
    }

    /// What comes next is not a continuation of what is on screen.
    pub fn mark_new_story(&self) {
        self.new_story.set_value(true);
    }

    /// The story the cluster on screen belongs to (untracked: read it with `snapshot`).
    pub fn story(&self) -> u64 {
        self.story.get_value()
    }

    /// Runs `f` at once after each change of the simulation, before the action that changed it
    /// goes on: an embed tells its host what a seek changed before it says where the clock
    /// stopped, which an effect, run later, would not.
    pub fn on_change(&self, f: impl Fn() + 'static) {
        self.on_change.set_value(Some(Box::new(f)));
    }

    /// Moves the revision if the simulation changed, remembering first where the pods are so
    /// the next animation frame, once the cluster is redrawn, can slide them to their new
    /// places.
    fn publish(&self) {
        if !self.player.with_value(Player::changed_since_snapshot) {
            return;
        }
        if self.new_story.try_update_value(std::mem::take) == Some(true) {
            self.story.update_value(|s| *s += 1);
        }
        if !browser::reduced_motion() {
            self.flip.set_value(browser::measure_chips());
            let flip = self.flip;
            request_animation_frame(move || {
                if let Some(before) = flip.try_update_value(Option::take).flatten() {
                    browser::play_chip_moves(&before);
                }
            });
        }
        self.revision.update(|r| *r += 1);
        self.on_change.with_value(|f| {
            if let Some(f) = f {
                f();
            }
        });
    }
}

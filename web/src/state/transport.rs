use leptos::prelude::*;

use crate::base::browser;
use crate::bridge::embed_protocol::EmbedMessage;
use crate::state::Engine;

pub const SPEEDS: [u32; 3] = [1, 10, 60];
/// While playing, an embed tells its host where the clock is this often (wall-clock
/// milliseconds): often enough for a readout of seconds at 1×, rarely enough to cost nothing.
const TELL_HOST_EVERY_MS: f64 = 250.0;

/// The clock and its controls: Play, the speed, step, restart and seek. The transport drives
/// the engine; the clock is what the learner chose, the engine follows it.
#[derive(Clone, Copy)]
pub struct Transport {
    /// Simulated milliseconds.
    pub clock: RwSignal<i64>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<u32>,
    engine: Engine,
    /// The clock stops here (an embed's `until`; otherwise the page's horizon).
    limit_ms: i64,
    looping: StoredValue<bool>,
    /// An embed tells its host where the clock is whenever it stops or starts, and while
    /// it plays.
    tells_host: bool,
    /// When the host was last told, while playing (`browser::now_ms`).
    told_host_at: StoredValue<f64>,
}

impl Transport {
    pub fn new(engine: Engine, clock_ms: i64, speed: u32, limit_ms: i64, tells_host: bool) -> Self {
        Transport {
            clock: RwSignal::new(clock_ms),
            playing: RwSignal::new(false),
            speed: RwSignal::new(speed),
            engine,
            limit_ms,
            looping: StoredValue::new(false),
            tells_host,
            told_host_at: StoredValue::new(0.0),
        }
    }

    /// Pauses at `at` for a new story (a lab, a file, an undo): the engine goes back there,
    /// and rebuilds there when it reads other manifests.
    pub fn cue(&self, at: i64) {
        self.playing.set(false);
        self.engine.mark_new_story();
        let at = at.clamp(0, self.limit_ms);
        // Manifests that do not change (a lab reset before any edit) are not rebuilt, so the
        // running simulation goes back to `at` itself; new ones replace it at `at` anyway.
        self.engine.advance(at);
        self.clock.set(at);
    }

    /// Moves the clock to `t` and pauses there; an earlier instant replays from the start.
    pub fn seek(&self, t: i64) {
        self.playing.set(false);
        let t = t.clamp(0, self.limit_ms);
        if t < self.clock.get_untracked() {
            self.engine.mark_new_story();
        }
        self.engine.advance(t);
        self.clock.set(t);
        self.tell_host_when_settled();
    }

    /// Tells an embed's host where the clock is once the engine is there: after what the
    /// move changed, as a host reads them.
    fn tell_host_when_settled(&self) {
        if self.tells_host {
            let transport = *self;
            self.engine.when_settled(move || transport.tell_host());
        }
    }

    /// Tells an embed's host where the clock is.
    pub fn tell_host(&self) {
        if self.tells_host {
            self.told_host_at.set_value(browser::now_ms());
            browser::post_to_parent(
                &EmbedMessage::Clock {
                    at: self.clock.get_untracked(),
                    playing: self.playing.get_untracked(),
                }
                .to_json(),
            );
        }
    }

    pub fn toggle_play(&self) {
        self.set_playing(!self.playing.get_untracked());
    }

    pub fn set_playing(&self, playing: bool) {
        // At the embed's `until`, Play has nowhere to go.
        let playing = playing && self.clock.get_untracked() < self.limit_ms;
        if playing == self.playing.get_untracked() {
            return;
        }
        self.playing.set(playing);
        if playing {
            self.start_loop();
        }
        self.tell_host();
    }

    pub fn restart(&self) {
        self.playing.set(false);
        self.engine.mark_new_story();
        self.engine.restart();
        self.clock.set(0);
        self.tell_host_when_settled();
    }

    /// Jumps to the next instant at which something happens, and pauses there.
    pub fn step_once(&self) {
        self.playing.set(false);
        if let Some(t) = self.engine.next_event() {
            let t = t.min(self.limit_ms);
            self.engine.advance(t);
            self.clock.set(t);
            self.tell_host_when_settled();
        }
    }

    fn start_loop(&self) {
        if self.looping.get_value() {
            return;
        }
        self.looping.set_value(true);
        let transport = *self;
        request_animation_frame(move || transport.frame(browser::now_ms()));
    }

    /// One animation frame: advance the clock by the elapsed real time times the speed.
    fn frame(self, last: f64) {
        if !self.playing.get_untracked() {
            self.looping.set_value(false);
            return;
        }
        let now = browser::now_ms();
        // A background tab gets no frames; don't leap forward when it comes back.
        let dt = (now - last).clamp(0.0, 100.0);
        let step = (dt * f64::from(self.speed.get_untracked())).round() as i64;
        let to = (self.clock.get_untracked() + step).min(self.limit_ms);
        self.engine.advance(to);
        self.clock.set(to);
        if to >= self.limit_ms {
            // The embed's `until` (or the page's horizon): the clock stops there.
            self.playing.set(false);
            self.looping.set_value(false);
            self.tell_host_when_settled();
            return;
        }
        if self.tells_host && now - self.told_host_at.get_value() >= TELL_HOST_EVERY_MS {
            self.tell_host();
        }
        request_animation_frame(move || self.frame(now));
    }
}

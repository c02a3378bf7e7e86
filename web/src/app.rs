//! The page: its state, the frame loop, and the layout. The panes live in their own modules.
//!
//! State follows Leptos's todomvc: a few signals hold what the user chose (documents,
//! lesson, clock, speed, language); everything else is derived from them (the reader's
//! analysis is a `Memo`); effects only push outward (to the engine, to local storage).

use leptos::prelude::*;

use kpg_explain::{Explanation, Subject};

use crate::browser;
use crate::cluster_view::ClusterPane;
use crate::focus::{self, Focus};
use crate::i18n::{Lang, T};
use crate::lessons::{self, Lab};
use crate::manifests_pane::ManifestsPane;
use crate::persist::{STORAGE_KEY, Session};
use crate::player::{Player, Rebuild};
use crate::snapshot::{self, Snapshot};
use crate::workspace::{Analysis, Workspace, analyse};

pub const SPEEDS: [u32; 3] = [1, 10, 60];

/// What the Explain tab is about: a pod (`namespace/name`) or a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selected {
    Pod(String),
    Node {
        name: String,
        nodeclaim: Option<String>,
    },
}

impl Selected {
    fn subject(&self) -> Subject {
        match self {
            Selected::Pod(key) => Subject::Pod(key.clone()),
            // A Karpenter node is explained through its NodeClaim, which adds the
            // candidate instance types to what the node alone would say.
            Selected::Node {
                nodeclaim: Some(nc),
                ..
            } => Subject::NodeClaim(nc.clone()),
            Selected::Node { name, .. } => Subject::Node(name.clone()),
        }
    }
}

/// The tabs under the cluster view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BottomTab {
    Events,
    Explain,
    Terminal,
}

/// The page's state, shared through context. Every field is a cheap `Copy` handle.
#[derive(Clone, Copy)]
pub struct Playground {
    pub lang: RwSignal<Lang>,
    pub ws: RwSignal<Workspace>,
    pub active_doc: RwSignal<u32>,
    pub lesson: RwSignal<String>,
    pub step: RwSignal<usize>,
    pub lab: RwSignal<Lab>,
    /// Simulated milliseconds.
    pub clock: RwSignal<i64>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<u32>,
    /// The cluster as the engine last showed it (kept while the manifests are invalid).
    pub snapshot: RwSignal<Snapshot>,
    pub engine_error: RwSignal<Option<String>>,
    /// The manifests the simulation on screen was built from.
    pub last_good: RwSignal<Option<String>>,
    pub notice: RwSignal<Option<T>>,
    /// A request to put the editor's caret at (document id, line, column); the counter
    /// makes a second click on the same problem a new request.
    pub jump: RwSignal<Option<(u32, usize, usize, u64)>>,
    pub analysis: Memo<Analysis>,
    pub selected: RwSignal<Option<Selected>>,
    pub bottom: RwSignal<BottomTab>,
    /// The selection explained at the current instant (`Err`: it no longer exists).
    pub explanation: Memo<Option<Result<Explanation, String>>>,
    /// What the cluster view lights up and dims for the selected pod.
    pub focus: Memo<Focus>,
    player: StoredValue<Player, LocalStorage>,
    /// Chip positions measured before the last cluster change, to animate moves from.
    flip: StoredValue<Option<browser::ChipPositions>, LocalStorage>,
    looping: StoredValue<bool>,
}

impl Playground {
    pub fn t(&self, key: T) -> &'static str {
        key.get(self.lang.get())
    }

    /// Explains a pod or a node: selects it and opens the Explain tab.
    pub fn select(&self, s: Selected) {
        self.selected.set(Some(s));
        self.bottom.set(BottomTab::Explain);
    }

    /// Selects a node by name (its NodeClaim, if it has one, from the cluster on screen).
    pub fn select_node(&self, name: &str) {
        let nodeclaim = self.snapshot.with_untracked(|s| {
            s.lanes
                .iter()
                .flat_map(|l| &l.nodes)
                .find(|n| n.name == name)
                .and_then(|n| n.nodeclaim.clone())
        });
        self.select(Selected::Node {
            name: name.to_string(),
            nodeclaim,
        });
    }

    /// Reads the running simulation (untracked: callers track `snapshot` or `clock`).
    pub fn with_sim<R>(&self, f: impl FnOnce(&kpg_core::sim::Simulation) -> R) -> Option<R> {
        self.player.with_value(|p| p.sim().map(f))
    }

    /// Replaces the manifests with a lab's and starts it from time 0, paused.
    pub fn open_lab(&self, lab: Lab) {
        let ws = Workspace::from_stream(lab.text());
        self.active_doc.set(ws.docs.first().map_or(0, |d| d.id));
        self.playing.set(false);
        self.clock.set(0);
        self.lab.set(lab);
        self.ws.set(ws);
    }

    pub fn open_lesson(&self, id: &str) {
        let Some(lesson) = lessons::find(id) else {
            return;
        };
        self.lesson.set(lesson.id.into());
        self.step.set(0);
        self.open_lab(lesson.first_lab());
    }

    /// Goes to a step of the open lesson, opening its lab if another one is loaded.
    pub fn go_to_step(&self, step: usize) {
        let Some(lesson) = lessons::find(&self.lesson.get_untracked()) else {
            return;
        };
        let Some(s) = lesson.steps.get(step) else {
            return;
        };
        self.step.set(step);
        if self.lab.get_untracked() != s.lab {
            self.open_lab(s.lab);
        }
    }

    pub fn toggle_play(&self) {
        let playing = !self.playing.get_untracked();
        self.playing.set(playing);
        if playing {
            self.start_loop();
        }
    }

    pub fn restart(&self) {
        self.playing.set(false);
        self.player.update_value(Player::restart);
        self.clock.set(0);
        self.refresh();
    }

    /// Jumps to the next instant at which something happens, and pauses there.
    pub fn step_once(&self) {
        self.playing.set(false);
        if let Some(t) = self.player.with_value(Player::next_event) {
            self.advance_to(t);
        }
    }

    fn advance_to(&self, t: i64) {
        self.player.update_value(|p| p.advance(t));
        self.clock.set(self.player.with_value(Player::now));
        self.refresh();
    }

    /// Shows the engine's state if it changed, remembering where the pods were so the
    /// next frame can slide them to their new places.
    fn refresh(&self) {
        if let Some(s) = self
            .player
            .try_update_value(|p| p.fresh_snapshot())
            .flatten()
        {
            if !browser::reduced_motion() {
                self.flip.set_value(browser::measure_chips());
                if !self.looping.get_value() {
                    // No frame loop to play the move (a step, an edit): play it on the next frame.
                    let pg = *self;
                    request_animation_frame(move || pg.play_moves());
                }
            }
            self.snapshot.set(s);
        }
    }

    fn play_moves(&self) {
        if let Some(before) = self.flip.try_update_value(Option::take).flatten() {
            browser::play_chip_moves(&before);
        }
    }

    fn start_loop(&self) {
        if self.looping.get_value() {
            return;
        }
        self.looping.set_value(true);
        let pg = *self;
        request_animation_frame(move || pg.frame(browser::now_ms()));
    }

    /// One animation frame: finish the last move animation, advance the clock by the
    /// elapsed real time times the speed, and show what changed.
    fn frame(self, last: f64) {
        self.play_moves();
        if !self.playing.get_untracked() {
            self.looping.set_value(false);
            return;
        }
        let now = browser::now_ms();
        // A background tab gets no frames; don't leap forward when it comes back.
        let dt = (now - last).clamp(0.0, 100.0);
        let step = (dt * f64::from(self.speed.get_untracked())).round() as i64;
        let to = self.clock.get_untracked() + step;
        self.player.update_value(|p| p.advance(to));
        self.clock.set(to.min(crate::player::MAX_TIME_MS));
        self.refresh();
        request_animation_frame(move || self.frame(now));
    }
}

/// The saved session, the default lesson, or the default lesson with a notice.
fn initial_session() -> (Session, Option<T>) {
    let browser_lang = Lang::from_browser(browser::language().as_deref());
    match browser::load(STORAGE_KEY) {
        None => (
            Session::for_lesson(lessons::LESSONS[0].id, browser_lang),
            None,
        ),
        Some(text) => match Session::decode(&text) {
            Ok(s) => (s, None),
            Err(_) => (
                Session::for_lesson(lessons::LESSONS[0].id, browser_lang),
                Some(T::CorruptNotice),
            ),
        },
    }
}

#[component]
pub fn App() -> impl IntoView {
    let (session, notice) = initial_session();
    let ws = RwSignal::new(session.workspace.clone());
    let analysis = Memo::new(move |_| ws.with(analyse));
    let player = StoredValue::new_local(Player::new());
    let lang = RwSignal::new(session.lang);
    let clock = RwSignal::new(session.clock_ms);
    let snapshot = RwSignal::new(Snapshot::default());
    let selected = RwSignal::new(None::<Selected>);
    // Derived, not synced: the explanation follows the selection, the language and the
    // engine's state; a node's also follows the clock, second by second, for its countdowns.
    let clock_second = Memo::new(move |_| clock.get() / 1000);
    let explanation = Memo::new(move |_| {
        let sel = selected.get()?;
        snapshot.track();
        if matches!(sel, Selected::Node { .. }) {
            // `get`, not `track`: a memo nobody has read yet must run to follow the clock.
            let _ = clock_second.get();
        }
        let lang = match lang.get() {
            Lang::En => kpg_explain::Lang::En,
            Lang::Ko => kpg_explain::Lang::Ko,
        };
        player.with_value(|p| {
            p.sim().map(|sim| {
                kpg_explain::explain(sim, &sel.subject(), lang).map_err(|e| e.to_string())
            })
        })
    });
    let focus = Memo::new(move |_| {
        explanation.with(|e| match e {
            Some(Ok(e)) => focus::focus(e),
            _ => Focus::default(),
        })
    });
    let pg = Playground {
        lang,
        ws,
        active_doc: RwSignal::new(session.active_doc),
        lesson: RwSignal::new(session.lesson.clone()),
        step: RwSignal::new(session.step),
        lab: RwSignal::new(session.lab),
        clock,
        playing: RwSignal::new(false),
        speed: RwSignal::new(session.speed),
        snapshot,
        engine_error: RwSignal::new(None),
        last_good: RwSignal::new(session.last_good.clone()),
        notice: RwSignal::new(notice),
        jump: RwSignal::new(None),
        analysis,
        selected,
        bottom: RwSignal::new(BottomTab::Events),
        explanation,
        focus,
        player,
        flip: StoredValue::new_local(None),
        looping: StoredValue::new(false),
    };
    provide_context(pg);
    provide_context(crate::terminal_view::Term::install(pg));

    // Valid manifests go to the engine, replayed to the current instant. Invalid ones do
    // not: the last good simulation stays on screen and the Problems panel says why.
    // After a reload with a broken edit, that means the last good manifests saved with the
    // session.
    Effect::new(move |_| {
        let a = analysis.get();
        let at = pg.clock.get_untracked();
        let text = if !a.has_errors {
            a.text
        } else if !pg.player.with_value(Player::is_running) {
            match pg.last_good.get_untracked() {
                Some(text) => text,
                None => return,
            }
        } else {
            return;
        };
        match pg.player.try_update_value(|p| p.rebuild(&text, at)) {
            Some(Rebuild::Refused(message)) => pg.engine_error.set(Some(message)),
            Some(Rebuild::Rebuilt) => {
                pg.engine_error.set(None);
                pg.last_good.set(Some(text));
                pg.refresh();
            }
            _ => {}
        }
    });

    // Save on every change; the clock only once per simulated second.
    let saved_second = Memo::new(move |_| pg.clock.get() / 1000);
    Effect::new(move |_| {
        let session = Session {
            version: 1,
            lang: pg.lang.get(),
            workspace: pg.ws.get(),
            active_doc: pg.active_doc.get(),
            lesson: pg.lesson.get(),
            step: pg.step.get(),
            lab: pg.lab.get(),
            clock_ms: saved_second.get() * 1000,
            speed: pg.speed.get(),
            last_good: pg.last_good.get(),
        };
        browser::save(STORAGE_KEY, &session.encode());
    });
    Effect::new(move |_| browser::set_document_lang(pg.lang.get().code()));

    // Space plays or pauses and `.` steps, unless focus is in something that takes keys.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let typing = document().active_element().is_some_and(|el| {
            matches!(
                el.tag_name().as_str(),
                "TEXTAREA" | "INPUT" | "SELECT" | "BUTTON" | "SUMMARY"
            )
        });
        if typing || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        match ev.key().as_str() {
            " " => {
                ev.prevent_default();
                pg.toggle_play();
            }
            "." => pg.step_once(),
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    request_animation_frame(|| browser::mark("kpg-first-render"));

    view! {
        <div class="app" data-lang=move || pg.lang.get().code()>
            <Header/>
            <Notice/>
            <main class="panes">
                <ManifestsPane/>
                <ClusterPane/>
            </main>
        </div>
    }
}

#[component]
fn Notice() -> impl IntoView {
    let pg = expect_context::<Playground>();
    view! {
        <Show when=move || pg.notice.get().is_some()>
            <div class="notice" role="status">
                <span>{move || pg.notice.get().map(|n| pg.t(n))}</span>
                <button class="ghost" on:click=move |_| pg.notice.set(None)>{move || pg.t(T::Dismiss)}</button>
            </div>
        </Show>
    }
}

#[component]
fn Header() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let cost = move || pg.snapshot.with(|s| s.summary.cost_per_hour);
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true"></span>
                <div>
                    <h1>{move || pg.t(T::AppTitle)}</h1>
                    <p class="tagline">{move || pg.t(T::Tagline)}</p>
                </div>
            </div>
            <LessonPicker/>
            <div class="transport" role="group" aria-label=move || pg.t(T::Clock)>
                <button class="primary play" aria-pressed=move || pg.playing.get().to_string()
                    on:click=move |_| pg.toggle_play()
                    title=move || if pg.playing.get() { pg.t(T::Pause) } else { pg.t(T::Play) }>
                    <span aria-hidden="true">{move || if pg.playing.get() { "❚❚" } else { "▶" }}</span>
                    <span class="label">{move || if pg.playing.get() { pg.t(T::Pause) } else { pg.t(T::Play) }}</span>
                </button>
                <button on:click=move |_| pg.step_once() title=move || pg.t(T::StepHelp)>
                    <span aria-hidden="true">"⇥"</span>
                    <span class="label">{move || pg.t(T::Step)}</span>
                </button>
                <button on:click=move |_| pg.restart() title=move || pg.t(T::Restart)>
                    <span aria-hidden="true">"↺"</span>
                    <span class="label">{move || pg.t(T::Restart)}</span>
                </button>
                <div class="speeds" role="group" aria-label=move || pg.t(T::Speed)>
                    {SPEEDS
                        .into_iter()
                        .map(|s| {
                            view! {
                                <button class="speed" aria-pressed=move || (pg.speed.get() == s).to_string()
                                    on:click=move |_| pg.speed.set(s)>{format!("{s}×")}</button>
                            }
                        })
                        .collect_view()}
                </div>
                <output class="clock" aria-label=move || pg.t(T::Clock) data-ms=move || pg.clock.get().to_string()>
                    {move || snapshot::clock(pg.clock.get())}
                </output>
            </div>
            <div class="cost" title=move || pg.t(T::ApproxNote)>
                <strong class="per-hour">{move || snapshot::dollars(cost())}</strong>
                <span class="unit">{move || pg.t(T::PerHour)}</span>
            </div>
            <div class="langs" role="group" aria-label=move || pg.t(T::Language)>
                <button lang="en" aria-pressed=move || (pg.lang.get() == Lang::En).to_string() on:click=move |_| pg.lang.set(Lang::En)>"EN"</button>
                <button lang="ko" aria-pressed=move || (pg.lang.get() == Lang::Ko).to_string() on:click=move |_| pg.lang.set(Lang::Ko)>"한국어"</button>
            </div>
        </header>
    }
}

#[component]
fn LessonPicker() -> impl IntoView {
    let pg = expect_context::<Playground>();
    view! {
        <label class="lesson-picker">
            <span class="label visually-hidden">{move || pg.t(T::Lessons)}</span>
            <select title=move || pg.t(T::LessonPickerHelp)
                on:change=move |ev| pg.open_lesson(&event_target_value(&ev))
                prop:value=move || pg.lesson.get()>
                {move || {
                    let lang = pg.lang.get();
                    lessons::LESSONS
                        .iter()
                        .map(|l| view! { <option value=l.id selected=move || pg.lesson.get() == l.id>{l.title.get(lang)}</option> })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

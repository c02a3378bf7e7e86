//! The page: its state, the frame loop, and the layout. The panes live in their own modules.
//!
//! State follows Leptos's todomvc: a few signals hold what the user chose (documents,
//! lesson, clock, speed, language); everything else is derived from them (the reader's
//! analysis is a `Memo`); effects only push outward (to the engine, to local storage).

use leptos::prelude::*;

use kpg_explain::{Explanation, Subject};

use kpg_share::{EmbedOptions, View};

use crate::boot::{self, Home};
use crate::browser;
use crate::cluster_view::ClusterPane;
use crate::embed_protocol::{self, EmbedMessage};
use crate::focus::{self, Focus};
use crate::i18n::{Lang, T};
use crate::lessons::{self, Lab};
use crate::manifests_pane::ManifestsPane;
use crate::persist::{LINKED_KEY, Linked, STORAGE_KEY, Session};
use crate::player::{Player, Rebuild};
use crate::share_view::{LinkedBanner, ShareButton};
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

impl Selected {
    fn to_shared(&self) -> kpg_share::Selection {
        match self {
            Selected::Pod(key) => kpg_share::Selection::Pod(key.clone()),
            Selected::Node { name, .. } => kpg_share::Selection::Node(name.clone()),
        }
    }

    /// A saved or shared selection; a node's NodeClaim is looked up when it is explained.
    fn from_shared(s: &kpg_share::Selection) -> Selected {
        match s {
            kpg_share::Selection::Pod(key) => Selected::Pod(key.clone()),
            kpg_share::Selection::Node(name) => Selected::Node {
                name: name.clone(),
                nodeclaim: None,
            },
        }
    }

    /// A node selected by name alone gets its NodeClaim from the cluster on screen.
    fn resolved(self, snapshot: &Snapshot) -> Selected {
        match self {
            Selected::Node {
                name,
                nodeclaim: None,
            } => {
                let nodeclaim = snapshot
                    .lanes
                    .iter()
                    .flat_map(|l| &l.nodes)
                    .find(|n| n.name == name)
                    .and_then(|n| n.nodeclaim.clone());
                Selected::Node { name, nodeclaim }
            }
            s => s,
        }
    }
}

/// The tabs under the cluster view: the share link's own type, so a link carries it as is.
pub use kpg_share::BottomTab;

/// A message across the top of the page: a text, a detail in the engine's words, a closing
/// sentence, and, after an action that replaced the workspace, the way back.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: T,
    pub detail: Option<String>,
    pub after: Option<T>,
    pub undo: Option<(Workspace, u32)>,
}

impl Notice {
    pub fn plain(text: T) -> Notice {
        Notice {
            text,
            detail: None,
            after: None,
            undo: None,
        }
    }
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
    pub notice: RwSignal<Option<Notice>>,
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
    /// Where the workspace on screen is saved (the learner's own, a linked one, nowhere).
    pub home: StoredValue<Home>,
    /// The embed's options, when the page is embedded in an article.
    pub embed: StoredValue<Option<EmbedOptions>>,
    /// The part an embed shows (one at a time when narrow).
    pub embed_view: RwSignal<View>,
    /// The manifests cannot be edited (an embed's `readonly`).
    pub readonly: bool,
    /// The clock stops here (an embed's `until`; otherwise the page's horizon).
    limit_ms: i64,
    /// The next snapshot starts a new story (a load, a seek, a restart): do not tell the
    /// host the difference from the last one as if it had happened.
    rebaseline: StoredValue<bool>,
}

impl Playground {
    pub fn t(&self, key: T) -> &'static str {
        key.get(self.lang.get())
    }

    /// Explains a pod or a node: selects it and opens the Explain tab.
    pub fn select(&self, s: Selected) {
        self.selected.set(Some(s));
        self.bottom.set(BottomTab::Explain);
        if self.shows(View::Explain) {
            self.embed_view.set(View::Explain);
        }
    }

    pub fn is_embed(&self) -> bool {
        self.embed.with_value(Option::is_some)
    }

    /// Whether an embed offers this part (only embeds have parts).
    pub fn shows(&self, v: View) -> bool {
        self.embed
            .with_value(|o| o.as_ref().is_some_and(|o| o.views().contains(&v)))
    }

    /// The session as it is now (untracked): what a share link or the "Open in Karpenter
    /// Playground" link carries.
    pub fn session_now(&self) -> Session {
        Session {
            version: crate::persist::VERSION,
            lang: self.lang.get_untracked(),
            workspace: self.ws.get_untracked(),
            active_doc: self.active_doc.get_untracked(),
            lesson: self.lesson.get_untracked(),
            step: self.step.get_untracked(),
            lab: self.lab.get_untracked(),
            clock_ms: self.clock.get_untracked(),
            speed: self.speed.get_untracked(),
            last_good: self.last_good.get_untracked(),
            selected: self
                .selected
                .with_untracked(|s| s.as_ref().map(Selected::to_shared)),
            tab: Some(self.bottom.get_untracked()),
        }
    }

    /// Writes the session where it belongs: the learner's own, the linked workspace, or (an
    /// embed) nowhere.
    fn save(&self) {
        let session = self.session_now();
        self.home.with_value(|home| match home {
            Home::Own => browser::save(STORAGE_KEY, &session.encode()),
            Home::Linked { fragment } => browser::save(
                LINKED_KEY,
                &serde_json::to_string(&Linked {
                    fragment: fragment.clone(),
                    session,
                })
                .unwrap_or_default(),
            ),
            Home::Nowhere => {}
        });
    }

    /// The full page's link to the scenario as it is now.
    pub fn share_link(&self) -> String {
        let base = browser::page_url();
        kpg_share::link(&base, &self.session_now().to_shared())
    }

    /// Replaces the manifests with a YAML stream from outside (a file, a host's `load`),
    /// from time 0 or `at`, paused. Returns false (and says why) when there is nothing to open.
    pub fn open_stream(&self, text: &str, at: i64) -> bool {
        if text.len() > kpg_share::MAX_DECODED_BYTES {
            self.notice.set(Some(Notice::plain(T::FileTooLarge)));
            return false;
        }
        let ws = Workspace::from_stream(text);
        if ws.docs.is_empty() {
            self.notice.set(Some(Notice::plain(T::FileEmpty)));
            return false;
        }
        self.playing.set(false);
        self.rebaseline.set_value(true);
        self.selected.set(None);
        self.active_doc.set(ws.docs[0].id);
        self.clock.set(at.clamp(0, self.limit_ms));
        self.ws.set(ws);
        true
    }

    /// Hands valid manifests to the engine, replayed to the current instant. Invalid ones
    /// are not: the last good simulation stays on screen and the Problems panel says why.
    /// After a reload with a broken edit, that means the last good manifests saved with the
    /// session. Runs as an effect of every edit; a host's `load` calls it at once so that its
    /// answer describes the loaded cluster.
    pub fn apply(&self, a: &Analysis) {
        let at = self.clock.get_untracked();
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
            Some(Rebuild::Refused(message)) => self.engine_error.set(Some(message)),
            Some(Rebuild::Rebuilt) => {
                self.engine_error.set(None);
                self.last_good.set(Some(text));
                self.refresh();
            }
            _ => {}
        }
    }

    /// Moves the clock to `t` and pauses there; an earlier instant replays from the start.
    pub fn seek(&self, t: i64) {
        self.playing.set(false);
        let t = t.clamp(0, self.limit_ms);
        if t < self.clock.get_untracked() {
            self.rebaseline.set_value(true);
        }
        self.advance_to(t);
        self.tell_clock();
    }

    /// Tells an embed's host where the clock is.
    pub fn tell_clock(&self) {
        if self.is_embed() {
            browser::post_to_parent(
                &EmbedMessage::Clock {
                    at: self.clock.get_untracked(),
                    playing: self.playing.get_untracked(),
                }
                .to_json(),
            );
        }
    }

    /// Selects a node by name (its NodeClaim, if it has one, from the cluster on screen).
    pub fn select_node(&self, name: &str) {
        let node = Selected::Node {
            name: name.to_string(),
            nodeclaim: None,
        };
        self.select(self.snapshot.with_untracked(|s| node.resolved(s)));
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
        self.tell_clock();
    }

    pub fn restart(&self) {
        self.playing.set(false);
        self.rebaseline.set_value(true);
        self.player.update_value(Player::restart);
        self.clock.set(0);
        self.refresh();
        self.tell_clock();
    }

    /// Jumps to the next instant at which something happens, and pauses there.
    pub fn step_once(&self) {
        self.playing.set(false);
        if let Some(t) = self.player.with_value(Player::next_event) {
            self.advance_to(t.min(self.limit_ms));
            self.tell_clock();
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
            if self.is_embed() && !self.rebaseline.get_value() {
                for event in self
                    .snapshot
                    .with_untracked(|old| embed_protocol::changes(old, &s))
                {
                    browser::post_to_parent(&EmbedMessage::Event { event }.to_json());
                }
            }
            self.rebaseline.set_value(false);
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
        let to = (self.clock.get_untracked() + step).min(self.limit_ms);
        self.player.update_value(|p| p.advance(to));
        self.clock.set(to);
        self.refresh();
        if to >= self.limit_ms {
            // The embed's `until` (or the page's horizon): the clock stops there.
            self.playing.set(false);
            self.looping.set_value(false);
            self.tell_clock();
            return;
        }
        request_animation_frame(move || self.frame(now));
    }
}

/// Where the page starts: the address and local storage, read once.
fn boot() -> boot::Start {
    let (query, fragment) = browser::address();
    let embedded = kpg_share::EmbedOptions::from_query(&query).is_some();
    // An embed reads no storage: an article must not see the learner's work.
    let own = (!embedded).then(|| browser::load(STORAGE_KEY)).flatten();
    let linked = (!embedded).then(|| browser::load(LINKED_KEY)).flatten();
    boot::start(&boot::Inputs {
        query: &query,
        fragment: &fragment,
        own: own.as_deref(),
        linked: linked.as_deref(),
        browser_lang: Lang::from_browser(browser::language().as_deref()),
    })
}

#[component]
pub fn App() -> impl IntoView {
    let start = boot();
    let session = start.session;
    let notice = start.notice.map(|text| Notice {
        text,
        after: (matches!(text, T::LinkDamaged | T::LinkTooLarge | T::LinkNewer)
            && start.home == Home::Own)
            .then_some(T::LinkBrokenAfter),
        detail: None,
        undo: None,
    });
    let ws = RwSignal::new(session.workspace.clone());
    let analysis = Memo::new(move |_| ws.with(analyse));
    let player = StoredValue::new_local(Player::new());
    let lang = RwSignal::new(session.lang);
    let clock = RwSignal::new(session.clock_ms);
    let snapshot = RwSignal::new(Snapshot::default());
    let selected = RwSignal::new(session.selected.as_ref().map(Selected::from_shared));
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
        let sel = snapshot.with_untracked(|s| sel.resolved(s));
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
        bottom: RwSignal::new(session.tab.unwrap_or(BottomTab::Events)),
        explanation,
        focus,
        player,
        flip: StoredValue::new_local(None),
        looping: StoredValue::new(false),
        home: StoredValue::new(start.home),
        embed_view: RwSignal::new(
            start
                .embed
                .as_ref()
                .and_then(|o| o.views().first().copied())
                .unwrap_or(View::Cluster),
        ),
        readonly: start.embed.as_ref().is_some_and(|o| o.readonly),
        limit_ms: start
            .embed
            .as_ref()
            .and_then(|o| o.until)
            .map_or(crate::player::MAX_TIME_MS, |u| {
                (u as i64).min(crate::player::MAX_TIME_MS)
            }),
        embed: StoredValue::new(start.embed),
        rebaseline: StoredValue::new(true),
    };
    provide_context(pg);
    provide_context(crate::terminal_view::Term::install(pg));

    // Valid manifests go to the engine, replayed to the current instant. Invalid ones do
    // not: the last good simulation stays on screen and the Problems panel says why.
    // After a reload with a broken edit, that means the last good manifests saved with the
    // session.
    Effect::new(move |_| pg.apply(&analysis.get()));

    // Save when what the learner chose changes. While playing, the clock moves every frame
    // (at 60x, a save per frame would rewrite local storage sixty times a second): it is saved
    // when it stops (pause, step, seek, an embed's `until`) and when the page is hidden or left.
    Effect::new(move |_| {
        pg.lang.track();
        pg.ws.track();
        pg.active_doc.track();
        pg.lesson.track();
        pg.step.track();
        pg.lab.track();
        pg.speed.track();
        pg.last_good.track();
        pg.selected.track();
        pg.bottom.track();
        if !pg.playing.get() {
            pg.clock.track();
        }
        pg.save();
    });
    let hidden = window_event_listener(leptos::ev::visibilitychange, move |_| pg.save());
    let leaving = window_event_listener(leptos::ev::pagehide, move |_| pg.save());
    on_cleanup(move || {
        hidden.remove();
        leaving.remove();
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

    // Another share link pasted into the address bar of an open page changes only the
    // fragment: start afresh from it, as a new tab would.
    if !pg.is_embed() {
        let hash = window_event_listener(leptos::ev::hashchange, move |_| {
            let (_, fragment) = browser::address();
            if kpg_share::is_link(&fragment) {
                browser::reload();
            }
        });
        on_cleanup(move || hash.remove());
    }

    request_animation_frame(|| browser::mark("kpg-first-render"));

    if let Some(options) = pg.embed.get_value() {
        crate::embed::install(pg, &options, start.awaiting_host);
        return view! { <crate::embed::EmbedApp/> }.into_any();
    }
    view! {
        <div class="app" data-lang=move || pg.lang.get().code()>
            <Header/>
            <LinkedBanner/>
            <NoticeBar/>
            <main class="panes">
                <ManifestsPane/>
                <ClusterPane/>
            </main>
        </div>
    }
    .into_any()
}

#[component]
pub fn NoticeBar() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let undo = move |_| {
        if let Some(Notice {
            undo: Some((ws, active)),
            ..
        }) = pg.notice.get_untracked()
        {
            pg.playing.set(false);
            pg.rebaseline.set_value(true);
            pg.active_doc.set(active);
            pg.clock.set(0);
            pg.ws.set(ws);
        }
        pg.notice.set(None);
    };
    view! {
        <Show when=move || pg.notice.with(Option::is_some)>
            <div class="notice" role="status">
                <span class="notice-text">
                    {move || pg.notice.get().map(|n| {
                        // A detail goes where the sentence has `{}` (word order differs by language).
                        let mut text = pg.t(n.text).replace("{}", n.detail.as_deref().unwrap_or_default());
                        if let Some(a) = n.after {
                            text.push(' ');
                            text.push_str(pg.t(a));
                        }
                        text
                    })}
                </span>
                <Show when=move || pg.notice.with(|n| n.as_ref().is_some_and(|n| n.undo.is_some()))>
                    <button class="secondary undo" on:click=undo>{move || pg.t(T::Undo)}</button>
                </Show>
                <button class="ghost" on:click=move |_| pg.notice.set(None)>{move || pg.t(T::Dismiss)}</button>
            </div>
        </Show>
    }
}

#[component]
fn Header() -> impl IntoView {
    let pg = expect_context::<Playground>();
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
            <Transport/>
            <Cost/>
            <ShareButton/>
            <Langs/>
        </header>
    }
}

/// What the cluster costs per hour now.
#[component]
pub fn Cost() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let cost = move || pg.snapshot.with(|s| s.summary.cost_per_hour);
    view! {
        <div class="cost" title=move || pg.t(T::ApproxNote)>
            <strong class="per-hour">{move || snapshot::dollars(cost())}</strong>
            <span class="unit">{move || pg.t(T::PerHour)}</span>
        </div>
    }
}

/// Play, step, restart, the speeds and the clock.
#[component]
pub fn Transport() -> impl IntoView {
    let pg = expect_context::<Playground>();
    view! {
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
    }
}

/// The language switch.
#[component]
pub fn Langs() -> impl IntoView {
    let pg = expect_context::<Playground>();
    view! {
        <div class="langs" role="group" aria-label=move || pg.t(T::Language)>
            <button lang="en" aria-pressed=move || (pg.lang.get() == Lang::En).to_string() on:click=move |_| pg.lang.set(Lang::En)>"EN"</button>
            <button lang="ko" aria-pressed=move || (pg.lang.get() == Lang::Ko).to_string() on:click=move |_| pg.lang.set(Lang::Ko)>"한국어"</button>
        </div>
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

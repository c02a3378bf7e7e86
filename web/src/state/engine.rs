use std::collections::{BTreeMap, BTreeSet, VecDeque};

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

use crate::base::browser::{self, ChipPositions};
use crate::base::series::{Series, SeriesUpdate};
use crate::base::snapshot::{EventLog, Snapshot};
use crate::bridge::protocol::{Comparison, FromWorker, Progress, Reply, Request, ToWorker};
use crate::editor::workspace::{Analysis, Workspace};

/// Where trunk puts the worker's loader (`data-type="worker"` in `index.html`), next to the
/// page.
const WORKER_URL: &str = "./kpg-worker_loader.js";

/// A simulation the worker has been busy with for longer than this is abandoned when the
/// learner edits again: the worker is replaced rather than made to finish a cluster no one
/// will look at.
const CANCEL_AFTER_MS: f64 = 150.0;

/// The simulation, seen from the main thread. It runs in a Web Worker
/// ([`crate::bridge::engine_host::Host`]); this sends it the manifests and the clock, and keeps
/// what comes back: the cluster on screen, the reader's findings, the explanation. A change of
/// the cluster moves `revision`, which the views follow: derived from the engine, never copied.
///
/// Requests that move the clock are paced: while one runs, newer ones wait, and only the
/// newest of each kind is sent when the worker is free, so a slow simulation never builds a
/// queue behind it and the page's frames never wait for the worker.
#[derive(Clone, Copy)]
pub struct Engine {
    link: StoredValue<Option<Link>, LocalStorage>,
    next_id: StoredValue<u64>,
    /// Requests sent and not yet done, oldest first.
    in_flight: StoredValue<VecDeque<Sent>>,
    /// The newest request of each paced kind, waiting for the worker.
    held: StoredValue<Held, LocalStorage>,
    /// What to do with the replies to a request that asked a question.
    answers: StoredValue<BTreeMap<u64, Answer>, LocalStorage>,
    /// Moves when the cluster on screen changed.
    revision: RwSignal<u64>,
    /// The cluster as the engine shows it now (kept while the manifests are invalid).
    pub snapshot: RwSignal<Snapshot>,
    events: StoredValue<EventLog>,
    /// The cost timeline up to the engine's instant.
    pub series: RwSignal<Series>,
    /// When comparing: the manifests compared with (A; the workspace is B), sent again to a
    /// new worker...
    baseline: StoredValue<Option<Workspace>>,
    /// ...A's timeline, the two clusters' counts, and why A does not run, if it does not.
    pub baseline_series: RwSignal<Series>,
    pub comparison: RwSignal<Option<Comparison>>,
    pub baseline_error: RwSignal<Option<String>>,
    /// The engine's instant, and when something next happens.
    pub now: RwSignal<i64>,
    pub next_event: RwSignal<Option<i64>>,
    /// How far a long simulation has got (shown after a moment, with a Stop button).
    pub progress: RwSignal<Option<Progress>>,
    /// Why the engine refused manifests the reader accepted.
    pub error: RwSignal<Option<String>>,
    /// The manifests the simulation on screen was built from.
    pub last_good: RwSignal<Option<String>>,
    /// The Karpenter version the simulation on screen follows.
    pub karpenter: RwSignal<String>,
    /// The reader's findings on the workspace last loaded (the editor's).
    pub(crate) analysis: RwSignal<Analysis>,
    /// The workspace last sent, so an unchanged one is not read twice.
    loaded: StoredValue<Option<Workspace>>,
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
    /// Gets each frame's decisions and how the clock moved ([`Engine::on_narration`]).
    on_narration: StoredValue<Option<NarrationSink>, LocalStorage>,
    /// Gets what a terminal watch prints.
    on_watch: StoredValue<Option<WatchSink>, LocalStorage>,
    /// Grouped lanes the learner opened to every card (the worker sends their pods).
    shown_lanes: StoredValue<BTreeSet<String>>,
    /// Run once the clock requests sent so far are done (an embed tells its host where the
    /// clock stopped after what the move changed).
    when_settled: StoredValue<Vec<Box<dyn FnOnce()>>, LocalStorage>,
    /// Whether the live page is on screen yet (the first cluster's mark waits for it).
    staging: super::Staging,
}

/// Where a terminal watch's output goes.
type WatchSink = Box<dyn Fn(String)>;

/// Where a frame's decisions go: the engine's instant before it, the frame's, when the frame
/// before said something would next happen, and the decisions.
type NarrationSink = Box<dyn Fn(i64, i64, Option<i64>, crate::bridge::narration::Narration)>;

/// The worker `index.html` started before the page's wasm arrived, and what it said so far
/// (its `Ready`, if its wasm was quicker than ours); taken once.
fn started_early() -> Option<(web_sys::Worker, Vec<String>)> {
    let window = leptos::prelude::window();
    let key = wasm_bindgen::JsValue::from_str("__kpgEngine");
    let started = js_sys::Reflect::get(&window, &key).ok()?;
    if started.is_undefined() || started.is_null() {
        return None;
    }
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let worker: web_sys::Worker = js_sys::Reflect::get(&started, &"worker".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let early: js_sys::Array = js_sys::Reflect::get(&started, &"early".into())
        .ok()?
        .dyn_into()
        .ok()?;
    Some((worker, early.iter().filter_map(|m| m.as_string()).collect()))
}

/// What to do with each reply to a request that asked a question.
type Answer = Box<dyn FnMut(Reply)>;

/// Where requests go.
enum Link {
    /// The engine's worker and its message handler (dropping the handler would unhook it).
    Worker {
        worker: web_sys::Worker,
        _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
        /// Messages for a worker that has not said [`Reply::Ready`] yet (its wasm is
        /// loading, and a message it received now would find no handler).
        waiting: Option<Vec<wasm_bindgen::JsValue>>,
    },
    /// The engine on this thread, for the component tests (`--features inline-engine`):
    /// their runner serves no worker. The same messages, answered a microtask later.
    #[cfg(feature = "inline-engine")]
    Inline(std::rc::Rc<std::cell::RefCell<crate::bridge::engine_host::Host>>),
}

impl Link {
    /// Posts a request's JSON text, and the text that travels beside it (a `File` or a
    /// string: see [`Request::Open`]) as `[text, attachment]`.
    fn send(&mut self, text: String, attachment: Option<wasm_bindgen::JsValue>, engine: Engine) {
        match self {
            Link::Worker {
                worker, waiting, ..
            } => {
                let text = wasm_bindgen::JsValue::from_str(&text);
                let message = match attachment {
                    Some(a) => js_sys::Array::of2(&text, &a).into(),
                    None => text,
                };
                match waiting {
                    Some(w) => w.push(message),
                    None => _ = worker.post_message(&message),
                }
            }
            #[cfg(feature = "inline-engine")]
            Link::Inline(host) => {
                let host = host.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let attachment = match attachment {
                        Some(a) => Some(browser::read_text(a).await),
                        None => None,
                    };
                    for reply in inline::answer(&host, &text, attachment) {
                        engine.receive(&reply);
                    }
                });
            }
        }
        #[cfg(not(feature = "inline-engine"))]
        let _ = engine;
    }

    fn terminate(self) {
        match self {
            Link::Worker { worker, .. } => worker.terminate(),
            #[cfg(feature = "inline-engine")]
            Link::Inline(_) => {}
        }
    }
}

#[cfg(feature = "inline-engine")]
mod inline {
    use std::cell::RefCell;

    use crate::bridge::engine_host::{Host, Outbox};
    use crate::bridge::protocol::{FromWorker, Reply, ToWorker};

    struct Replies {
        id: u64,
        sent: Vec<String>,
    }

    impl Outbox for Replies {
        fn send(&mut self, reply: Reply) {
            let message = FromWorker::new(self.id, reply);
            self.sent.push(message.encode());
        }
        fn progress_due(&mut self) -> bool {
            false
        }
    }

    /// What the worker would post for one message.
    pub(super) fn answer(
        host: &RefCell<Host>,
        text: &str,
        attachment: Option<Option<String>>,
    ) -> Vec<String> {
        let mut out = Replies {
            id: 0,
            sent: Vec::new(),
        };
        if let Ok(message) = ToWorker::decode(text) {
            out.id = message.id;
            host.borrow_mut()
                .handle_attached(message.request, attachment, &mut out);
        }
        out.send(Reply::Done);
        out.sent
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Moves the clock or rebuilds: paced, and what a stop abandons.
    Clock,
    Explain,
    Other,
}

struct Sent {
    id: u64,
    kind: Kind,
    at_ms: f64,
}

#[derive(Default)]
struct Held {
    load: Option<Request>,
    advance: Option<i64>,
    explain: Option<(Request, Answer)>,
}

impl Engine {
    pub fn new(
        last_good: Option<String>,
        analysis: RwSignal<Analysis>,
        staging: super::Staging,
    ) -> Engine {
        let engine = Engine {
            link: StoredValue::new_local(None),
            next_id: StoredValue::new(0),
            in_flight: StoredValue::new(VecDeque::new()),
            held: StoredValue::new_local(Held::default()),
            answers: StoredValue::new_local(BTreeMap::new()),
            revision: RwSignal::new(0),
            snapshot: RwSignal::new(Snapshot::default()),
            events: StoredValue::new(EventLog::default()),
            series: RwSignal::new(Series::default()),
            baseline: StoredValue::new(None),
            baseline_series: RwSignal::new(Series::default()),
            comparison: RwSignal::new(None),
            baseline_error: RwSignal::new(None),
            now: RwSignal::new(0),
            next_event: RwSignal::new(None),
            progress: RwSignal::new(None),
            error: RwSignal::new(None),
            last_good: RwSignal::new(last_good),
            karpenter: RwSignal::new(kpg_core::karpenter::Version::LATEST.to_string()),
            analysis,
            loaded: StoredValue::new(None),
            flip: StoredValue::new_local(None),
            new_story: StoredValue::new(true),
            story: StoredValue::new(0),
            on_change: StoredValue::new_local(None),
            on_watch: StoredValue::new_local(None),
            on_narration: StoredValue::new_local(None),
            when_settled: StoredValue::new_local(Vec::new()),
            shown_lanes: StoredValue::new(BTreeSet::new()),
            staging,
        };
        engine.spawn();
        engine
    }

    /// Shows the engine's replies to the first load as the build recorded them
    /// ([`crate::shell::prerender`]): the reader's findings and the first cluster, on screen before
    /// the worker has said anything. The load still goes to the worker, whose frame (the
    /// same) replaces this one; if the worker has already drawn a cluster, its replies are
    /// the newer ones and these are dropped.
    pub fn show_prerendered(&self, replies: &[String]) {
        if self.revision.get_untracked() > 0 {
            return;
        }
        for message in replies.iter().filter_map(|t| FromWorker::decode(t).ok()) {
            match message.reply {
                Reply::Analysed { .. } | Reply::Rebuilt { .. } => self.handle(message),
                Reply::Frame(frame) => self.show_frame(frame),
                _ => {}
            }
        }
    }

    /// The replies that put the engine's view where it is now, as the worker would send
    /// them: the reader's findings, the manifests the cluster on screen was built from, and
    /// that cluster with the newest event lines. A saved copy of the page keeps them
    /// ([`crate::shell::prerender::Saved`]), so its next visit shows this cluster before the worker
    /// has computed it again. None before the first cluster.
    pub fn replies_on_screen(&self) -> Vec<String> {
        if self.revision.get_untracked() == 0 {
            return Vec::new();
        }
        let mut replies = Vec::new();
        self.analysis.with_untracked(|a| {
            replies.push(Reply::Analysed {
                problems: a.problems.clone(),
                has_errors: a.has_errors,
            })
        });
        if let Some(text) = self.last_good.get_untracked() {
            replies.push(Reply::Rebuilt {
                text,
                karpenter: self.karpenter.get_untracked(),
            });
        }
        let snapshot = self.snapshot.get_untracked();
        let from = snapshot
            .events
            .len()
            .saturating_sub(crate::base::snapshot::EVENT_LINES_SHOWN);
        replies.push(Reply::Frame(crate::bridge::protocol::Frame {
            now: self.now.get_untracked(),
            next_event: self.next_event.get_untracked(),
            events_restart: true,
            events_from: from,
            events: snapshot.events.since(from),
            snapshot: Some(snapshot),
            watch: String::new(),
            compare: None,
            narration: Default::default(),
            series: Some(Box::new(self.series.with_untracked(|s| SeriesUpdate {
                restart: true,
                points_from: 0,
                points: s.points.to_vec(),
                markers_from: 0,
                markers: s.markers.to_vec(),
            }))),
        }));
        replies
            .into_iter()
            .map(|reply| FromWorker::new(0, reply).encode())
            .collect()
    }

    /// Starts a worker (a new one replaces the old, abandoning whatever it was doing).
    fn spawn(&self) {
        if let Some(old) = self.link.try_update_value(Option::take).flatten() {
            old.terminate();
        }
        self.in_flight.update_value(VecDeque::clear);
        self.held.set_value(Held::default());
        self.answers.update_value(BTreeMap::clear);
        self.progress.set(None);
        #[cfg(feature = "inline-engine")]
        self.link.set_value(Some(Link::Inline(std::rc::Rc::new(
            std::cell::RefCell::new(crate::bridge::engine_host::Host::new()),
        ))));
        #[cfg(all(not(feature = "inline-engine"), target_arch = "wasm32"))]
        self.start_worker();
        let lanes = self.shown_lanes.get_value();
        if !lanes.is_empty() {
            self.tell(Request::ShowLanes { lanes });
        }
        if let Some(ws) = self.baseline.get_value() {
            self.tell(Request::Baseline { ws: Some(ws) });
        }
    }

    /// Compares the workspace with `ws` (A), run on the same clock; `None` stops comparing.
    pub fn compare_with(&self, ws: Option<Workspace>) {
        if self.baseline.with_value(|b| *b == ws) {
            return;
        }
        if ws.is_none() {
            self.baseline_series.set(Series::default());
            self.comparison.set(None);
            self.baseline_error.set(None);
        }
        self.baseline.set_value(ws.clone());
        self.tell(Request::Baseline { ws });
    }

    /// The worker `index.html` started, or a new one.
    #[cfg_attr(
        any(feature = "inline-engine", not(target_arch = "wasm32")),
        allow(dead_code)
    )]
    fn start_worker(&self) {
        let engine = *self;
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                if let Some(text) = ev.data().as_string() {
                    engine.receive(&text);
                }
            });
        let (worker, early) = match started_early() {
            Some(started) => started,
            None => {
                let options = web_sys::WorkerOptions::new();
                match web_sys::Worker::new_with_options(WORKER_URL, &options) {
                    Ok(worker) => (worker, Vec::new()),
                    Err(_) => {
                        let why = "the browser refused to start the engine's worker";
                        self.error.set(Some(why.into()));
                        return;
                    }
                }
            }
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        self.link.set_value(Some(Link::Worker {
            worker,
            _on_message: on_message,
            waiting: Some(Vec::new()),
        }));
        for text in early {
            self.receive(&text);
        }
    }

    fn post(&self, request: Request, kind: Kind) -> u64 {
        self.post_with(request, None, kind)
    }

    fn post_with(
        &self,
        request: Request,
        attachment: Option<wasm_bindgen::JsValue>,
        kind: Kind,
    ) -> u64 {
        let id = self.next_id.get_value() + 1;
        self.next_id.set_value(id);
        let text = ToWorker::new(id, request).encode();
        let engine = *self;
        self.link.update_value(|l| {
            if let Some(l) = l {
                l.send(text, attachment, engine);
            }
        });
        if kind == Kind::Clock {
            browser::mark(&format!("kpg-request-{id}"));
        }
        self.in_flight.update_value(|q| {
            q.push_back(Sent {
                id,
                kind,
                at_ms: browser::now_ms(),
            })
        });
        id
    }

    fn busy_with(&self, kind: Kind) -> Option<f64> {
        self.in_flight
            .with_value(|q| q.iter().find(|s| s.kind == kind).map(|s| s.at_ms))
    }

    /// Subscribes the running memo or effect to the engine's changes.
    pub fn track(&self) {
        self.revision.track();
    }

    /// Hands the workspace to the engine, to be read and, if it reads cleanly, simulated to
    /// `at`. Invalid manifests never replace what runs: the last good simulation stays on
    /// screen and the Problems panel says why; after a reload with a broken edit, the last
    /// good manifests saved with the session run.
    pub fn load(&self, ws: &Workspace, at: i64) {
        if self.loaded.with_value(|l| l.as_ref() == Some(ws)) {
            return;
        }
        self.loaded.set_value(Some(ws.clone()));
        let request = Request::Load {
            ws: ws.clone(),
            at,
            fallback: self.last_good.get_untracked(),
        };
        match self.busy_with(Kind::Clock) {
            // Busy for a while with a cluster this edit replaces: start a new worker.
            Some(since) if browser::now_ms() - since > CANCEL_AFTER_MS => {
                self.spawn();
                self.post(request, Kind::Clock);
            }
            Some(_) => self.held.update_value(|h| {
                h.load = Some(request);
                h.advance = None;
            }),
            None => {
                self.post(request, Kind::Clock);
            }
        }
    }

    /// Moves the engine to `t` (an earlier instant replays from the start).
    pub fn advance(&self, t: i64) {
        if self.busy_with(Kind::Clock).is_some() {
            self.held.update_value(|h| h.advance = Some(t));
        } else {
            self.post(Request::Advance { to: t }, Kind::Clock);
        }
    }

    /// Starts the running scenario again from time 0.
    pub fn restart(&self) {
        self.held.update_value(|h| h.advance = None);
        if self.busy_with(Kind::Clock).is_some() {
            self.held.update_value(|h| h.advance = Some(0));
        } else {
            self.post(Request::Restart, Kind::Clock);
        }
    }

    /// Abandons a long simulation: a new worker goes back to the last manifests that
    /// finished, at the instant on screen.
    pub fn stop(&self) {
        self.spawn();
        self.loaded.set_value(None);
        if let Some(text) = self.last_good.get_untracked() {
            self.post(
                Request::Resume {
                    text,
                    at: self.now.get_untracked(),
                },
                Kind::Clock,
            );
        }
    }

    /// Whether a simulation is running or waiting to run.
    pub fn is_busy(&self) -> bool {
        self.busy_with(Kind::Clock).is_some()
    }

    /// When something next happens, if anything will (as of the last frame).
    pub fn next_event(&self) -> Option<i64> {
        self.next_event.get_untracked()
    }

    /// Asks the worker something; `answer` gets each of its replies.
    pub fn ask(&self, request: Request, answer: impl FnMut(Reply) + 'static) {
        self.ask_with(request, None, answer);
    }

    /// [`Engine::ask`], with a text that travels beside the request ([`Request::Open`]).
    fn ask_with(
        &self,
        request: Request,
        attachment: Option<wasm_bindgen::JsValue>,
        answer: impl FnMut(Reply) + 'static,
    ) {
        let id = self.post_with(request, attachment, Kind::Other);
        self.answers
            .update_value(|a| _ = a.insert(id, Box::new(answer)));
    }

    /// Has the worker read `source` (a `File` the learner picked or dropped, or a pasted
    /// string), which travels beside the request and never through this thread's wasm
    /// memory ([`crate::editor::opening`]); `answer` gets what opens.
    pub fn open(
        &self,
        source: wasm_bindgen::JsValue,
        answer: impl FnOnce(Result<crate::editor::opening::Opened, crate::editor::opening::Refusal>)
        + 'static,
    ) {
        let mut answer = Some(answer);
        let request = Request::Open {
            text: String::new(),
        };
        self.ask_with(request, Some(source), move |reply| {
            if let (Reply::Opened(result), Some(answer)) = (reply, answer.take()) {
                answer(result);
            }
        });
    }

    /// Asks for an explanation; while one is being made, only the newest waits.
    pub fn explain(&self, request: Request, answer: impl FnMut(Reply) + 'static) {
        if self.busy_with(Kind::Explain).is_some() {
            self.held
                .update_value(|h| h.explain = Some((request, Box::new(answer))));
        } else {
            let id = self.post(request, Kind::Explain);
            self.answers
                .update_value(|a| _ = a.insert(id, Box::new(answer)));
        }
    }

    /// Tells the worker something that needs no answer.
    pub fn tell(&self, request: Request) {
        self.post(request, Kind::Other);
    }

    /// Shows every card of a lane with more nodes than cards help with (`false`: groups
    /// again): the worker's frames carry that lane's pods from now on, or no longer.
    pub fn show_every_card(&self, lane: &str, show: bool) {
        self.shown_lanes.update_value(|lanes| {
            if show {
                lanes.insert(lane.to_string());
            } else {
                lanes.remove(lane);
            }
        });
        self.tell(Request::ShowLanes {
            lanes: self.shown_lanes.get_value(),
        });
    }

    /// Each frame from the worker (not the build's recorded ones) tells `f` how the clock
    /// moved and what Karpenter decided on the way ([`crate::bridge::narration`]).
    pub fn on_narration(
        &self,
        f: impl Fn(i64, i64, Option<i64>, crate::bridge::narration::Narration) + 'static,
    ) {
        self.on_narration.set_value(Some(Box::new(f)));
    }

    /// What a terminal watch prints goes to `f`.
    pub fn on_watch(&self, f: impl Fn(String) + 'static) {
        self.on_watch.set_value(Some(Box::new(f)));
    }

    /// Runs `f` once every clock request sent so far is done (at once if none is).
    pub fn when_settled(&self, f: impl FnOnce() + 'static) {
        if self.is_busy()
            || self
                .held
                .with_value(|h| h.load.is_some() || h.advance.is_some())
        {
            self.when_settled.update_value(|w| w.push(Box::new(f)));
        } else {
            f();
        }
    }

    /// What comes next is not a continuation of what is on screen.
    pub fn mark_new_story(&self) {
        self.new_story.set_value(true);
    }

    /// The story the cluster on screen belongs to (untracked: read it with `snapshot`).
    pub fn story(&self) -> u64 {
        self.story.get_value()
    }

    /// Runs `f` at once after each change of the cluster on screen, before the action that
    /// changed it goes on: an embed tells its host what a seek changed before it says where
    /// the clock stopped, which an effect, run later, would not.
    pub fn on_change(&self, f: impl Fn() + 'static) {
        self.on_change.set_value(Some(Box::new(f)));
    }

    fn receive(&self, text: &str) {
        let message = match FromWorker::decode(text) {
            Ok(m) => m,
            Err(why) => {
                self.error.set(Some(format!(
                    "the page and its engine disagree ({why:?}): reload the page"
                )));
                return;
            }
        };
        self.handle(message);
    }

    /// One reply from the engine, read.
    fn handle(&self, message: FromWorker) {
        let id = message.reply_to;
        match message.reply {
            Reply::Ready => self.link.update_value(|l| {
                if let Some(Link::Worker {
                    worker, waiting, ..
                }) = l
                {
                    for message in waiting.take().unwrap_or_default() {
                        let _ = worker.post_message(&message);
                    }
                }
            }),
            Reply::Analysed {
                problems,
                has_errors,
            } => {
                let fresh = Analysis {
                    text: String::new(),
                    problems,
                    has_errors,
                    scenario: None,
                };
                if self.analysis.with_untracked(|a| *a != fresh) {
                    self.analysis.set(fresh);
                }
            }
            Reply::Refused { message } => self.error.set(Some(message)),
            Reply::Rebuilt { text, karpenter } => {
                self.error.set(None);
                if self.karpenter.with_untracked(|k| *k != karpenter) && !karpenter.is_empty() {
                    self.karpenter.set(karpenter);
                }
                if self.last_good.with_untracked(|l| l.as_ref() != Some(&text)) {
                    self.last_good.set(Some(text));
                }
            }
            Reply::Frame(frame) => self.show(frame),
            Reply::Progress(p) => self.progress.set(Some(p)),
            Reply::Done => self.done(id),
            Reply::Garbled { why } => {
                self.error.set(Some(format!(
                    "the engine could not read the page's request ({why}): reload the page"
                )));
            }
            reply => {
                let answer = self.answers.try_update_value(|a| a.remove(&id)).flatten();
                if let Some(mut answer) = answer {
                    answer(reply);
                    self.answers.update_value(|a| _ = a.insert(id, answer));
                }
            }
        }
    }

    /// A request is done: its answer is forgotten, and the newest held request of its kind
    /// goes to the worker.
    fn done(&self, id: u64) {
        let Some(kind) = self
            .in_flight
            .try_update_value(|q| {
                let i = q.iter().position(|s| s.id == id)?;
                q.remove(i).map(|s| s.kind)
            })
            .flatten()
        else {
            return;
        };
        self.answers.update_value(|a| _ = a.remove(&id));
        // The live page has answered (with a cluster, or with why there is none): a share
        // link's first frame gives way in the animation frame that shows it.
        if !crate::base::first_frame::retired() {
            self.staging
                .when_shown(|| request_animation_frame(crate::base::first_frame::retire));
        }
        match kind {
            Kind::Clock => {
                // How long the worker took, request to reply (DevTools' Performance panel
                // shows it; the page's benchmark adds them up).
                browser::measure_since_mark("kpg-engine", &format!("kpg-request-{id}"));
                self.progress.set(None);
                let (load, advance) = self
                    .held
                    .try_update_value(|h| (h.load.take(), h.advance.take()))
                    .unwrap_or_default();
                if let Some(load) = load {
                    self.post(load, Kind::Clock);
                    if let Some(t) = advance {
                        self.held.update_value(|h| h.advance = Some(t));
                    }
                } else if let Some(t) = advance {
                    self.post(Request::Advance { to: t }, Kind::Clock);
                } else {
                    let waiting = self
                        .when_settled
                        .try_update_value(std::mem::take)
                        .unwrap_or_default();
                    for f in waiting {
                        f();
                    }
                }
            }
            Kind::Explain => {
                if let Some((request, answer)) =
                    self.held.try_update_value(|h| h.explain.take()).flatten()
                {
                    let id = self.post(request, Kind::Explain);
                    self.answers.update_value(|a| _ = a.insert(id, answer));
                }
            }
            Kind::Other => {}
        }
    }

    /// A frame from the worker: where the engine is, and the cluster if it changed. Before
    /// the cluster is redrawn, the pods' places are measured, so the next animation frame can
    /// slide them to their new ones.
    fn show(&self, mut frame: crate::bridge::protocol::Frame) {
        let first = self.revision.get_untracked() == 0;
        let narrated = (
            self.now.get_untracked(),
            frame.now,
            self.next_event.get_untracked(),
            std::mem::take(&mut frame.narration),
        );
        let changed = frame.snapshot.is_some();
        let moved = frame.snapshot.as_ref().map_or_else(Vec::new, |next| {
            self.snapshot.with_untracked(|now| now.chips_moved_to(next))
        });
        if !moved.is_empty() && !browser::reduced_motion() {
            self.flip.set_value(browser::measure_chips(&moved));
            let flip = self.flip;
            request_animation_frame(move || {
                if let Some(before) = flip.try_update_value(Option::take).flatten() {
                    browser::play_chip_moves(&before);
                }
            });
        }
        self.show_frame(frame);
        // Not the first cluster: the page's arrival is not news to tell.
        self.on_narration.with_value(|f| {
            if let Some(f) = f.as_ref().filter(|_| !first) {
                f(narrated.0, narrated.1, narrated.2, narrated.3);
            }
        });
        if first && changed {
            // The first cluster on screen (what the page's load benchmark times), drawn by
            // the next frame once the live page shows.
            self.staging
                .when_shown(|| request_animation_frame(|| browser::mark("kpg-first-render")));
        }
    }

    /// A frame's figures and cluster into the signals the views follow.
    fn show_frame(&self, frame: crate::bridge::protocol::Frame) {
        self.now.set(frame.now);
        if self.next_event.get_untracked() != frame.next_event {
            self.next_event.set(frame.next_event);
        }
        if !frame.watch.is_empty() {
            self.on_watch.with_value(|f| {
                if let Some(f) = f {
                    f(frame.watch.clone());
                }
            });
        }
        if let Some(update) = frame.series {
            self.series.update(|s| s.extend(*update));
        }
        if let Some(compare) = frame.compare
            && self.baseline.with_value(Option::is_some)
        {
            if let Some(update) = compare.series {
                self.baseline_series.update(|s| s.extend(update));
                self.baseline_error.set(None);
            }
            if let Some(c) = compare.comparison {
                self.comparison.set(Some(c));
            }
            if let Some(why) = compare.error {
                self.baseline_series.set(Series::default());
                self.comparison.set(None);
                self.baseline_error.set(Some(why));
            }
        }
        let Some(mut snapshot) = frame.snapshot else {
            return;
        };
        snapshot.events = self
            .events
            .try_update_value(|log| {
                log.extend(frame.events_restart, frame.events_from, frame.events)
            })
            .unwrap_or_default();
        if self.new_story.try_update_value(std::mem::take) == Some(true) {
            self.story.update_value(|s| *s += 1);
        }
        self.snapshot.set(snapshot);
        self.revision.update(|r| *r += 1);
        self.on_change.with_value(|f| {
            if let Some(f) = f {
                f();
            }
        });
    }
}

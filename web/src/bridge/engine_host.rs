//! The engine's side of the page: what runs in the worker, without browser types.
//!
//! A [`Host`] takes the page's [`Request`]s one at a time and sends back [`Reply`]s through an
//! [`Outbox`]: it reads the manifests, drives the [`Player`], takes the snapshots, explains,
//! and answers the terminal. The worker's glue (`crate::bridge::worker`) only moves messages and
//! reads the wall clock for progress; everything here is tested natively.

use std::collections::BTreeSet;

use kpg_core::sim::Simulation;
use kpg_kubectl::{Files, Watch};

use crate::base::i18n::Lang;
use crate::base::snapshot;
use crate::bridge::player::{Player, Rebuild};
use crate::bridge::protocol::{
    CheckError, CompareFrame, Comparison, Frame, Progress, Reply, Request, Selected, TerminalReply,
};
use crate::editor::migration;
use crate::editor::workspace::{self, Workspace};
use kpg_core::compare::Outcome;

/// Where a host's replies go.
pub trait Outbox {
    fn send(&mut self, reply: Reply);
    /// Whether a progress message is due now (the worker asks the wall clock; a long run
    /// reports a few times a second, a short one never).
    fn progress_due(&mut self) -> bool;
}

#[derive(Default)]
pub struct Host {
    player: Player,
    /// The event lines already sent: the simulation (its epoch) and how many.
    sent_events: (u64, usize),
    /// A terminal `-w` that follows the clock.
    watch: Option<Watch>,
    /// Grouped lanes the page shows every card of (their frames carry pods).
    shown_lanes: BTreeSet<String>,
    /// The manifests the workspace is compared with, run on the same clock.
    baseline: Option<Baseline>,
    /// The decisions already told to the page's live region.
    narrator: crate::bridge::narration::Narrator,
}

/// A comparison's A side.
#[derive(Default)]
struct Baseline {
    player: Player,
    /// Why it does not run; sent until the page has it.
    error: Option<String>,
    error_sent: bool,
    /// The two simulations (epoch, revision) the last comparison was of.
    compared: Option<[(u64, u64); 2]>,
}

impl Host {
    pub fn new() -> Host {
        Host::default()
    }

    /// Handles a request whose text may have come beside its message ([`Request::Open`]):
    /// `attached` is what was read of it (`None`: nothing came beside it; `Some(None)`: it
    /// could not be read as text). The worker and the inline engine both come through here.
    pub fn handle_attached(
        &mut self,
        mut request: Request,
        attached: Option<Option<String>>,
        out: &mut dyn Outbox,
    ) {
        match (&mut request, attached) {
            (Request::Open { .. }, Some(None)) => out.send(Reply::Opened(Err(
                crate::editor::opening::Refusal::Unreadable,
            ))),
            (Request::Open { text }, Some(Some(read))) => {
                *text = read;
                self.handle(request, out);
            }
            _ => self.handle(request, out),
        }
    }

    /// Handles one request; its replies go to `out`, in order.
    pub fn handle(&mut self, request: Request, out: &mut dyn Outbox) {
        match request {
            Request::Load { ws, at, fallback } => self.load(&ws, at, fallback, out),
            Request::Resume { text, at } => {
                let outcome = self.player.rebuild_with(&text, at, &mut progress(out));
                self.rebuilt(outcome, text, out);
                out.send(Reply::Frame(self.frame()));
            }
            Request::Advance { to } => {
                self.player.advance_with(to, &mut progress(out));
                out.send(Reply::Frame(self.frame()));
            }
            Request::Restart => {
                self.player.restart();
                out.send(Reply::Frame(self.frame()));
            }
            Request::Explain { selected, lang } => {
                let explanation = self.player.sim().map(|sim| explain(sim, &selected, lang));
                out.send(Reply::Explained {
                    selected,
                    explanation,
                });
            }
            Request::Run { line, files, at } => out.send(Reply::Ran(self.run(&line, &files, at))),
            Request::Complete { line, files } => {
                let (start, candidates) = match self.player.sim() {
                    Some(sim) => {
                        let c = kpg_kubectl::complete(&world(sim, &files), &line);
                        (c.start, c.candidates)
                    }
                    None => (0, Vec::new()),
                };
                out.send(Reply::Completed {
                    line,
                    start,
                    candidates,
                });
            }
            Request::StopWatch => self.watch = None,
            Request::ShowLanes { lanes } => {
                self.shown_lanes = lanes;
                let mut frame = self.frame();
                if frame.snapshot.is_none() {
                    // Nothing changed in the cluster, but what the page asked to see did.
                    frame.snapshot = self
                        .player
                        .snapshot_again()
                        .map(|s| s.without_pods_of_grouped_lanes(&self.shown_lanes));
                }
                out.send(Reply::Frame(frame));
            }
            Request::Migrate { ws } => out.send(Reply::Migrated(migration::preview(&ws))),
            Request::Poster { yaml, at } => out.send(Reply::Poster {
                at,
                figure: kpg_scene::scenario::figure_at(&yaml, at.max(0) as u64),
            }),
            Request::SetVersion { ws, version } => {
                let edited = ws.docs.iter().find_map(|d| {
                    kpg_manifests::set_karpenter_version(&d.text, &version).map(|t| (d.id, t))
                });
                out.send(match edited {
                    Some((id, text)) => Reply::VersionSet {
                        doc: Some(id),
                        text,
                    },
                    None => Reply::VersionSet {
                        doc: None,
                        text: kpg_manifests::cluster_with_version(&version),
                    },
                });
            }
            Request::Check { yaml } => out.send(Reply::Checked {
                errors: check(&yaml),
            }),
            Request::Baseline { ws } => {
                self.baseline = ws.map(|ws| self.baseline_of(&ws, out));
                out.send(Reply::Frame(self.frame()));
            }
            Request::Open { text } => out.send(Reply::Opened(crate::editor::opening::read(text))),
            Request::Report { docs, at } => out.send(Reply::Reported(
                kpg_issue::findings(&docs, Some(at))
                    .map(Box::new)
                    .map_err(|e| e.to_string()),
            )),
        }
    }

    /// A comparison's A: the workspace read and run to the engine's instant.
    fn baseline_of(&mut self, ws: &Workspace, out: &mut dyn Outbox) -> Baseline {
        let mut b = self.baseline.take().unwrap_or_default();
        b.compared = None;
        b.error_sent = false;
        let analysis = workspace::analyse(ws);
        let now = self.player.now();
        b.error = match &analysis.scenario {
            Some(scenario) if !analysis.has_errors => {
                match b
                    .player
                    .rebuild_read_with(&analysis.text, scenario, now, &mut progress(out))
                {
                    Rebuild::Refused(message) => Some(message),
                    Rebuild::Rebuilt | Rebuild::Unchanged => None,
                }
            }
            _ => Some(
                analysis
                    .problems
                    .iter()
                    .find(|p| p.error)
                    .map(|p| format!("{} {}:{}: {}", p.doc_title, p.line, p.column, p.message))
                    .unwrap_or_else(|| String::from("the manifests do not read")),
            ),
        };
        if b.error.is_some() {
            b.player = Player::new();
        }
        b
    }

    /// The baseline run to the engine's instant, and what the page has not seen of it.
    fn compare_frame(&mut self) -> Option<Box<CompareFrame>> {
        let b = self.baseline.as_mut()?;
        let now = self.player.now();
        if b.player.is_running() && b.player.now() != now {
            b.player.advance(now);
        }
        let series = b.player.fresh_series();
        let key = |p: &Player| (p.epoch(), p.sim().map_or(0, Simulation::revision));
        let pair = [key(&b.player), key(&self.player)];
        let comparison = match (b.player.sim(), self.player.sim()) {
            (Some(a), Some(bb)) if b.compared != Some(pair) => {
                b.compared = Some(pair);
                let (ra, rb) = (a.report(), bb.report());
                Some(Comparison {
                    a: Outcome::of(a, &ra),
                    b: Outcome::of(bb, &rb),
                    placements: kpg_core::compare::differing_placements(&ra, &rb),
                })
            }
            _ => None,
        };
        let error = (!b.error_sent).then(|| b.error.clone()).flatten();
        b.error_sent = true;
        (series.is_some() || comparison.is_some() || error.is_some()).then(|| {
            Box::new(CompareFrame {
                series,
                comparison,
                error,
            })
        })
    }

    /// Reads the workspace (the reading is sent at once, so the Problems panel does not
    /// wait for the simulation), then simulates it if it read cleanly.
    fn load(&mut self, ws: &Workspace, at: i64, fallback: Option<String>, out: &mut dyn Outbox) {
        let analysis = workspace::analyse(ws);
        out.send(Reply::Analysed {
            problems: analysis.problems.clone(),
            has_errors: analysis.has_errors,
        });
        let outcome = match &analysis.scenario {
            Some(scenario) if !analysis.has_errors => Some((
                self.player
                    .rebuild_read_with(&analysis.text, scenario, at, &mut progress(out)),
                analysis.text,
            )),
            // Invalid manifests never replace what runs; with nothing running yet (a reload
            // with a broken edit), the last good manifests saved with the session run.
            _ if !self.player.is_running() => fallback.map(|text| {
                (
                    self.player.rebuild_with(&text, at, &mut progress(out)),
                    text,
                )
            }),
            _ => None,
        };
        if let Some((outcome, text)) = outcome {
            self.rebuilt(outcome, text, out);
        }
        out.send(Reply::Frame(self.frame()));
    }

    fn rebuilt(&mut self, outcome: Rebuild, text: String, out: &mut dyn Outbox) {
        match outcome {
            Rebuild::Rebuilt => {
                // A new simulation: a watch of the old one would print a stale diff.
                self.watch = None;
                let karpenter = self
                    .player
                    .sim()
                    .map(|s| s.karpenter().version.to_string())
                    .unwrap_or_default();
                out.send(Reply::Rebuilt { text, karpenter });
            }
            Rebuild::Refused(message) => out.send(Reply::Refused { message }),
            Rebuild::Unchanged => {}
        }
    }

    /// The engine's instant, and what changed since the last frame.
    fn frame(&mut self) -> Frame {
        let now = self.player.now();
        let next_event = self.player.next_event();
        let series = self.player.fresh_series().map(Box::new);
        let compare = self.compare_frame();
        let narration = self.narrator.update(self.player.epoch(), self.player.sim());
        let Some(snapshot) = self.player.fresh_snapshot() else {
            return Frame {
                now,
                next_event,
                events_from: self.sent_events.1,
                series,
                compare,
                narration,
                ..Frame::default()
            };
        };
        let epoch = self.player.epoch();
        let restart = self.sent_events.0 != epoch;
        let seen = if restart { 0 } else { self.sent_events.1 };
        let total = snapshot.events.len();
        // The Events tab shows the newest lines: a frame that binds thousands of pods does
        // not carry a line for each.
        let from = seen.max(total.saturating_sub(snapshot::EVENT_LINES_SHOWN));
        let events = snapshot.events.since(from);
        self.sent_events = (epoch, total);
        // A watch reads the cluster, never the files.
        let watch = match (&mut self.watch, self.player.sim()) {
            (Some(w), Some(sim)) => w.poll(&world(sim, &[])),
            _ => String::new(),
        };
        Frame {
            now,
            next_event,
            snapshot: Some(snapshot.without_pods_of_grouped_lanes(&self.shown_lanes)),
            events_restart: restart,
            events_from: from,
            events,
            watch,
            series,
            compare,
            narration,
        }
    }

    fn run(&mut self, line: &str, files: &[(String, String)], at: i64) -> Option<TerminalReply> {
        let sim = self.player.sim()?;
        let reply = kpg_kubectl::run(&world(sim, files), line);
        let at = at.max(0) as u64;
        let steps = reply.changes.iter().map(|c| c.timeline_step(at)).collect();
        let watching = reply.watch.is_some();
        self.watch = reply.watch;
        Some(TerminalReply {
            output: reply.output,
            ok: reply.ok,
            clear: reply.clear,
            steps,
            watching,
        })
    }
}

fn world<'a>(sim: &'a Simulation, files: &'a [(String, String)]) -> Files<'a> {
    Files {
        sim,
        files,
        reader: kpg_manifests::documents,
    }
}

/// Tells the page how far a long run has got, when the outbox says a report is due.
fn progress(out: &mut dyn Outbox) -> impl FnMut(&Simulation, i64) + '_ {
    move |sim, target| {
        if out.progress_due() {
            let active = sim.pods().iter().filter(|p| p.is_active());
            let (pods, pods_bound) = active.fold((0, 0), |(all, bound), p| {
                (all + 1, bound + usize::from(p.node.is_some()))
            });
            out.send(Reply::Progress(Progress {
                reached: sim.now() as i64,
                target,
                pods_bound,
                pods,
            }));
        }
    }
}

fn explain(
    sim: &Simulation,
    selected: &Selected,
    lang: Lang,
) -> Result<kpg_explain::Explanation, String> {
    let lang = match lang {
        Lang::En => kpg_explain::Lang::En,
        Lang::Ko => kpg_explain::Lang::Ko,
    };
    kpg_explain::explain(sim, &selected.subject(), lang).map_err(|e| e.to_string())
}

fn check(yaml: &str) -> Vec<CheckError> {
    kpg_manifests::load(yaml)
        .errors()
        .map(|d| CheckError {
            document: d.document,
            line: d.line,
            column: d.column,
            message: d.message.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::series::Point;
    use crate::base::snapshot::{self, EventLines, EventLog};
    use crate::bridge::protocol::{FromWorker, Garbled, ToWorker, VERSION};

    /// Keeps every reply; a progress report is due as often as `every` says.
    #[derive(Default)]
    struct Replies {
        sent: Vec<Reply>,
        progress_always: bool,
    }

    impl Outbox for Replies {
        fn send(&mut self, reply: Reply) {
            self.sent.push(reply);
        }
        fn progress_due(&mut self) -> bool {
            self.progress_always
        }
    }

    fn ask(host: &mut Host, request: Request) -> Vec<Reply> {
        let mut out = Replies::default();
        host.handle(request, &mut out);
        out.sent
    }

    #[test]
    fn an_opened_snapshot_comes_back_imported_and_its_text_never_crosses_as_json() {
        let snapshot = kpg_snapgen::snapshot(
            &kpg_snapgen::Params {
                nodes: 3,
                pods: 20,
                ..kpg_snapgen::Params::default()
            },
            kpg_snapgen::Format::Json,
        );
        let request = Request::Open {
            text: snapshot.clone(),
        };
        // The page posts the text beside the message: its JSON holds none of it.
        let json = crate::bridge::protocol::ToWorker::new(1, request.clone()).encode();
        assert!(json.len() < 100, "{json}");
        let replies = ask(&mut Host::new(), request);
        let [Reply::Opened(Ok(opened))] = replies.as_slice() else {
            panic!("{replies:?}");
        };
        assert_eq!(opened.imported.as_ref().map(|i| i.nodes), Some(3));
        assert!(opened.text.starts_with("# A cluster snapshot taken at"));
    }

    fn load(lab: &str, at: i64) -> Request {
        Request::Load {
            ws: Workspace::from_stream(lab),
            at,
            fallback: None,
        }
    }

    fn frame(replies: &[Reply]) -> &Frame {
        match replies.last() {
            Some(Reply::Frame(f)) => f,
            other => panic!("a clock request ends with a frame: {other:?}"),
        }
    }

    /// Frames carry only the cost timeline the page has not seen; put together, with a seek
    /// back in the middle, they are the engine's whole series, its accrued cost, and a marker
    /// for each launch, removal and consolidation the engine logged.
    #[test]
    fn frames_add_up_to_the_whole_cost_timeline() {
        use crate::base::series::{MarkerKind, Series};
        use kpg_core::sim::event::EventKind;
        let mut host = Host::new();
        let mut page = Series::default();
        let mut requests = vec![load(crate::lessons::lab("seed002-consolidation"), 0)];
        requests.extend((1..=4).map(|m| Request::Advance { to: m * 45_000 }));
        // A seek back replays from the start: the series starts over.
        requests.push(Request::Advance { to: 30_000 });
        requests.extend((1..=20).map(|m| Request::Advance { to: m * 30_000 }));
        for request in requests {
            if let Some(update) = frame(&ask(&mut host, request)).series.clone() {
                page.extend(*update);
            }
        }
        let sim = host.player.sim().expect("running");
        let engine: Vec<Point> = sim.history().iter().map(Point::from).collect();
        assert_eq!(*page.points, engine);
        assert_eq!(page.accrued(600_000), sim.accrued_cost());
        let count = |kind: MarkerKind| -> u32 {
            page.markers
                .iter()
                .filter(|m| m.kind == kind)
                .map(|m| m.count)
                .sum()
        };
        let logged = |f: &dyn Fn(&EventKind) -> bool| {
            sim.events().iter().filter(|e| f(&e.kind)).count() as u32
        };
        assert_eq!(
            count(MarkerKind::Launch),
            logged(&|k| matches!(k, EventKind::Launched { .. }))
        );
        assert_eq!(
            count(MarkerKind::Removal),
            logged(&|k| matches!(k, EventKind::NodeClaimDeleted { launched: true, .. }))
        );
        assert!(
            count(MarkerKind::Removal) >= 2,
            "the lab consolidates nodes away"
        );
        assert!(
            page.markers.iter().any(|m| m.kind == MarkerKind::Step
                && m.at == 180_000
                && m.first == "apply Deployment/busybox"),
            "the lab's step at 3m is marked: {:?}",
            page.markers
        );
        assert!(page.markers.windows(2).all(|w| w[0].at <= w[1].at));
        // A frame with nothing new carries no series.
        let again = ask(&mut host, Request::Advance { to: 600_000 });
        assert_eq!(frame(&again).series, None);
    }

    /// A comparison runs A on B's clock: frames carry A's timeline and the two clusters'
    /// counts (the limits lab against itself without the limit: two more platform nodes, the
    /// busybox pods placed differently); a seek back replays both; a baseline that does not
    /// read says why; `None` stops it.
    #[test]
    fn a_baseline_runs_on_the_same_clock_and_is_compared() {
        use crate::base::series::Series;
        let mut host = Host::new();
        ask(
            &mut host,
            load(crate::lessons::lab("seed002-limits-lifted"), 0),
        );
        let mut a_series = Series::default();
        let mut comparison = None;
        let mut take = |replies: &[Reply]| {
            if let Some(c) = frame(replies).compare.clone() {
                if let Some(u) = c.series {
                    a_series.extend(u);
                }
                if c.comparison.is_some() {
                    comparison = c.comparison;
                }
                assert_eq!(c.error, None);
            }
        };
        let a = Workspace::from_stream(crate::lessons::lab("seed002-limits"));
        take(&ask(&mut host, Request::Baseline { ws: Some(a) }));
        for t in [30_000, 120_000, 60_000, 120_000] {
            take(&ask(&mut host, Request::Advance { to: t }));
        }
        let c = comparison.expect("a comparison");
        assert_eq!((c.a.nodes, c.b.nodes), (6, 8));
        assert_eq!((c.a.pods_pending, c.b.pods_pending), (2, 0));
        assert_eq!(c.a.nodes_by_nodepool["platform"], 4);
        assert_eq!(c.b.nodes_by_nodepool["platform"], 6);
        let busybox = c
            .placements
            .iter()
            .find(|p| p.owner.contains("busybox"))
            .expect("busybox is placed differently");
        assert_eq!(busybox.a.get("Pending"), Some(&2));
        assert!(
            busybox
                .pod_in_b
                .as_deref()
                .is_some_and(|k| k.starts_with("default/busybox"))
        );
        // A's timeline is the limits lab's own, to the same instant.
        let mut alone = Host::new();
        ask(
            &mut alone,
            load(crate::lessons::lab("seed002-limits"), 120_000),
        );
        let expected: Vec<Point> = alone
            .player
            .sim()
            .expect("running")
            .history()
            .iter()
            .map(Point::from)
            .collect();
        assert_eq!(*a_series.points, expected);
        assert!(a_series.accrued(120_000) < host.player.sim().unwrap().accrued_cost());
        // A baseline that does not read says where.
        let broken =
            Workspace::from_stream("apiVersion: karpenter.sh/v1\nkind: NodePool\nspec: [\n");
        let replies = ask(&mut host, Request::Baseline { ws: Some(broken) });
        let why = frame(&replies).compare.clone().and_then(|c| c.error);
        assert!(why.is_some(), "{replies:?}");
        // Stopping leaves frames without a comparison.
        ask(&mut host, Request::Baseline { ws: None });
        let replies = ask(&mut host, Request::Advance { to: 150_000 });
        assert_eq!(frame(&replies).compare, None);
    }

    /// The reading comes first (the Problems panel does not wait for the simulation), then
    /// the new simulation, then the cluster with every event line so far.
    #[test]
    fn a_load_reads_then_rebuilds_then_shows_the_cluster() {
        let mut host = Host::new();
        let replies = ask(
            &mut host,
            load(crate::lessons::lab("seed002-limits"), 300_000),
        );
        assert!(matches!(
            &replies[0],
            Reply::Analysed { has_errors: false, problems } if problems.is_empty()
        ));
        assert!(matches!(&replies[1], Reply::Rebuilt { text, .. } if text.contains("platform")));
        let f = frame(&replies);
        assert_eq!(f.now, 300_000);
        let shown = f.snapshot.as_ref().expect("a new cluster is drawn");
        assert_eq!(
            shown.summary.nodes, 6,
            "four platform nodes and the two fixed ones"
        );
        assert!(f.events_restart, "a new simulation starts a new log");
        assert_eq!(f.events_from, 0);
        assert!(!f.events.is_empty());
    }

    /// Frames carry only the event lines the page has not seen; put together, they are every
    /// line of the simulation, as the engine itself words them.
    #[test]
    fn frames_add_up_to_the_whole_event_log() {
        let mut host = Host::new();
        let mut page_log = EventLog::default();
        let mut lines = page_log.extend(true, 0, Vec::new());
        let mut requests = vec![load(crate::lessons::lab("seed002-consolidation"), 0)];
        requests.extend((1..=10).map(|m| Request::Advance { to: m * 60_000 }));
        for (i, request) in requests.into_iter().enumerate() {
            let replies = ask(&mut host, request);
            let f = frame(&replies).clone();
            if f.snapshot.is_some() {
                assert_eq!(
                    f.events_restart,
                    i == 0,
                    "only the new simulation starts over"
                );
                assert_eq!(f.events_from, lines.len(), "a frame sends no line twice");
                lines = page_log.extend(f.events_restart, f.events_from, f.events);
            }
        }
        let sim = host.player.sim().expect("running");
        assert_eq!(lines.to_vec(), snapshot::take(sim).events.to_vec());
        assert!(
            lines.len() > 10,
            "the consolidation lab has a story: {}",
            lines.len()
        );
    }

    /// A broken edit never replaces what runs; with nothing running (a reload with a broken
    /// edit), the last good manifests saved with the session run instead.
    #[test]
    fn a_broken_edit_keeps_the_cluster_or_falls_back_to_the_last_good_text() {
        let broken = Workspace::from_stream("kind: NodePool\nspec: [\n");
        let mut host = Host::new();
        let replies = ask(
            &mut host,
            Request::Load {
                ws: broken.clone(),
                at: 60_000,
                fallback: Some(crate::lessons::lab("seed000-hello-world").to_string()),
            },
        );
        assert!(matches!(
            &replies[0],
            Reply::Analysed {
                has_errors: true,
                ..
            }
        ));
        let hello = crate::lessons::lab("seed000-hello-world");
        assert!(matches!(&replies[1], Reply::Rebuilt { text, .. } if text == hello));
        assert!(frame(&replies).snapshot.is_some());

        let mut edited = broken;
        edited.docs[0].text.push_str("# still broken\n");
        let replies = ask(
            &mut host,
            Request::Load {
                ws: edited,
                at: 60_000,
                fallback: Some(crate::lessons::lab("seed002-limits").to_string()),
            },
        );
        assert_eq!(
            replies.len(),
            2,
            "a reading and an unchanged frame: {replies:?}"
        );
        assert!(
            frame(&replies).snapshot.is_none(),
            "the running cluster stays"
        );
    }

    /// A long run reports how far it has got, instant by instant, and gets where it was
    /// going: the same cluster as a run that reported nothing.
    #[test]
    fn a_long_run_reports_progress_and_ends_where_a_quiet_one_does() {
        let mut host = Host::new();
        let mut out = Replies {
            progress_always: true,
            ..Replies::default()
        };
        host.handle(
            load(crate::lessons::lab("seed002-scale-out"), 600_000),
            &mut out,
        );
        let progress: Vec<Progress> = out
            .sent
            .iter()
            .filter_map(|r| match r {
                Reply::Progress(p) => Some(*p),
                _ => None,
            })
            .collect();
        assert!(progress.len() > 3, "{} reports", progress.len());
        assert!(progress.windows(2).all(|w| w[0].reached <= w[1].reached));
        assert!(
            progress
                .iter()
                .all(|p| p.target == 600_000 && p.reached <= 600_000)
        );
        assert!(
            progress
                .last()
                .is_some_and(|p| p.pods_bound > 0 && p.pods >= p.pods_bound)
        );
        let noisy = frame(&out.sent).snapshot.clone();

        let quiet = frame(&ask(
            &mut Host::new(),
            load(crate::lessons::lab("seed002-scale-out"), 600_000),
        ))
        .snapshot
        .clone();
        assert_eq!(noisy, quiet);
    }

    #[test]
    fn the_worker_explains_runs_the_terminal_and_follows_a_watch() {
        let mut host = Host::new();
        ask(
            &mut host,
            load(crate::lessons::lab("seed002-limits"), 300_000),
        );
        let replies = ask(
            &mut host,
            Request::Explain {
                selected: Selected::Pod("default/busybox".into()),
                lang: Lang::En,
            },
        );
        assert!(
            matches!(&replies[..], [Reply::Explained { explanation: Some(Err(why)), .. }]
                if why.contains("busybox-")),
            "a bare Deployment name is not a pod; the answer lists the pods: {replies:?}"
        );

        let files = crate::editor::terminal::files(&Workspace::from_stream(crate::lessons::lab(
            "seed002-limits",
        )));
        let replies = ask(
            &mut host,
            Request::Run {
                line: "kubectl scale deployment busybox --replicas=6".into(),
                files: files.clone(),
                at: 300_000,
            },
        );
        let [Reply::Ran(Some(ran))] = &replies[..] else {
            panic!("{replies:?}");
        };
        assert!(ran.ok && ran.output.starts_with("deployment.apps/busybox scaled"));
        assert!(ran.steps.contains("replicas: 6") && ran.steps.contains("at: 5m"));

        let replies = ask(
            &mut host,
            Request::Run {
                line: "kubectl get nodeclaims -w".into(),
                files,
                at: 300_000,
            },
        );
        assert!(matches!(&replies[..], [Reply::Ran(Some(r))] if r.watching));
        ask(
            &mut host,
            load(crate::lessons::lab("seed002-limits"), 300_000),
        );
        let later = ask(&mut host, Request::Restart);
        assert!(frame(&later).watch.is_empty() || frame(&later).snapshot.is_some());
        let replies = ask(
            &mut host,
            Request::Complete {
                line: "kubectl get nodep".into(),
                files: Vec::new(),
            },
        );
        assert!(matches!(&replies[..],
            [Reply::Completed { start: 12, candidates, .. }] if candidates.len() == 2));
    }

    /// What crosses the thread boundary reads back as it was written, and a message from
    /// another build is refused by its version, not misread.
    #[test]
    fn messages_round_trip_and_other_builds_are_refused() {
        let mut host = Host::new();
        let replies = ask(
            &mut host,
            load(crate::lessons::lab("seed002-consolidation"), 400_000),
        );
        for mut reply in replies {
            if let Reply::Frame(Frame {
                snapshot: Some(s), ..
            }) = &mut reply
            {
                // The snapshot's lines are not sent: the frame's own `events` carry them.
                s.events = Default::default();
            }
            let message = FromWorker {
                v: VERSION,
                reply_to: 7,
                reply,
            };
            let back = FromWorker::decode(&message.encode());
            assert!(back == Ok(message), "a reply reads back as it was written");
        }
        let request = ToWorker::new(3, Request::Advance { to: 5 });
        assert_eq!(ToWorker::decode(&request.encode()), Ok(request.clone()));
        let newer = request
            .encode()
            .replace(&format!("\"v\":{VERSION}"), "\"v\":999");
        assert_eq!(ToWorker::decode(&newer), Err(Garbled::Version(999)));
        assert!(matches!(ToWorker::decode("{"), Err(Garbled::Malformed(_))));
    }

    /// A lane with more nodes than cards shows groups: its pods stay in the worker until the
    /// page asks for every card, and the groups' counts are right either way.
    #[test]
    fn a_grouped_lane_travels_without_its_pods_until_shown() {
        let text = crate::lessons::lab("seed002-limits").replace("count: 2", "count: 30");
        let mut host = Host::new();
        let replies = ask(
            &mut host,
            Request::Load {
                ws: Workspace::from_stream(&text),
                at: 300_000,
                fallback: None,
            },
        );
        let fixed = |f: &Frame| {
            let s = f.snapshot.as_ref().expect("a cluster");
            s.lanes
                .iter()
                .find(|l| l.key() == "fixed")
                .cloned()
                .unwrap()
        };
        let grouped = fixed(frame(&replies));
        assert_eq!(grouped.nodes.len(), 30);
        assert!(grouped.nodes.iter().all(|n| n.pods.is_empty()));
        let pods: usize = grouped.groups().iter().map(|g| g.pods).sum();
        assert!(pods >= 8, "the groups still count the pods: {pods}");

        let shown = ask(
            &mut host,
            Request::ShowLanes {
                lanes: ["fixed".to_string()].into(),
            },
        );
        let every = fixed(frame(&shown));
        let chips: usize = every.nodes.iter().map(|n| n.pods.len()).sum();
        assert_eq!(chips, pods, "every card, with its pods");
        assert_eq!(every.groups(), grouped.groups());
    }

    /// A frame that binds thousands of pods carries the newest lines a tab shows, not one per
    /// pod; the page's count is still every line, and its newest lines are the engine's.
    #[test]
    fn a_busy_frame_carries_the_newest_lines_only() {
        let text = crate::lessons::lab("seed002-scale-out").replace("replicas: 4", "replicas: 400");
        let mut host = Host::new();
        let mut page_log = EventLog::default();
        let mut lines = EventLines::default();
        for request in [
            Request::Load {
                ws: Workspace::from_stream(&text),
                at: 0,
                fallback: None,
            },
            Request::Advance { to: 600_000 },
        ] {
            let f = frame(&ask(&mut host, request)).clone();
            assert!(f.events.len() <= snapshot::EVENT_LINES_SHOWN);
            lines = page_log.extend(f.events_restart, f.events_from, f.events);
        }
        let engine = snapshot::take(host.player.sim().unwrap()).events;
        assert!(
            engine.len() > snapshot::EVENT_LINES_SHOWN,
            "{} lines",
            engine.len()
        );
        assert_eq!(lines.len(), engine.len());
        assert_eq!(lines.latest(50), engine.latest(50));
    }
}

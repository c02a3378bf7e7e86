//! Karpenter's decisions told to a screen reader as they happen: a polite live region under
//! the cluster's summary says "Karpenter launched a t3.small (spot) in us-east-1a for 2
//! pending pods" when the clock passes that launch.
//!
//! Three parts, one concept (what the page says aloud of the engine's decisions):
//! - the worker's [`Narrator`] turns the engine's events (values, never their text) into
//!   [`Told`] values, the ones the page has not had yet, sent with each frame;
//! - [`heard`] decides what a frame means to a listener: decisions to tell (the clock played
//!   or stepped through them), a jump (a seek, a restart, a rebuild: one sentence of where
//!   the clock landed, never every decision passed over), or nothing;
//! - the [`Batcher`] gathers decisions for a moment and holds the next announcement until
//!   the last has had time to be heard: at 10× or 60× many decisions arrive a second, and
//!   each would cut the one before; one sentence per interval counts them instead.
//!
//! [`words`] and [`clock_at`] put them in the learner's language (templates in
//! [`crate::base::i18n`]). The live region itself, the component that says them, is a view
//! (`views::narration_view`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use kpg_core::catalog::CapacityType;
use kpg_core::disruption::Reason;
use kpg_core::sim::Simulation;
use kpg_core::sim::event::{EventKind, Nomination};

use crate::base::i18n::{Lang, T};
use crate::base::snapshot::{self, Summary};
use crate::base::words::{self, Noun};

/// A decision worth telling, as a value the page words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Told {
    /// An instance runs; `pods`: the pending pods Karpenter nominated to it when it created
    /// the NodeClaim (0 for a replacement, which is launched for a node's pods).
    Launched {
        instance_type: String,
        zone: String,
        capacity_type: CapacityType,
        pods: u32,
    },
    /// A disruption command: the first candidate, how many, and what it saves per hour.
    Disrupted {
        method: Method,
        node: String,
        instance_type: String,
        nodes: u32,
        replaced: bool,
        savings: i64,
    },
    /// EC2 takes a spot instance (or an interruptible reservation) back.
    Interrupted {
        node: String,
    },
    Expired {
        nodeclaim: String,
    },
}

/// Why Karpenter disrupts: the disruption reason as the page tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    Emptiness,
    Consolidation,
    Drift,
    Repair,
}

/// What one frame brings of the decisions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narration {
    /// A new simulation (a load, an edit, a restart, a seek back): what it decided up to its
    /// instant is not sent, as no one played through it.
    pub restart: bool,
    /// More decisions than [`TOLD_PER_FRAME`] (a long seek forward): none are sent.
    pub overflow: bool,
    pub told: Vec<Told>,
}

/// A frame carries at most this many decisions: past it the move was a jump, told as one.
pub const TOLD_PER_FRAME: usize = 200;

/// The worker's side: the events of the simulation already read, and the pods nominated to
/// NodeClaims not launched yet.
#[derive(Debug, Default)]
pub struct Narrator {
    epoch: u64,
    seen: usize,
    nominated: BTreeMap<String, u32>,
}

impl Narrator {
    /// The decisions of `sim` the page has not had; `epoch` names the simulation.
    pub fn update(&mut self, epoch: u64, sim: Option<&Simulation>) -> Narration {
        let Some(sim) = sim else {
            return Narration::default();
        };
        let events = sim.events();
        if epoch != self.epoch || self.seen > events.len() {
            *self = Narrator {
                epoch,
                seen: events.len(),
                nominated: BTreeMap::new(),
            };
            // Nominations of NodeClaims still to launch count for their launch.
            for e in events {
                self.nominate(&e.kind);
            }
            return Narration {
                restart: true,
                ..Narration::default()
            };
        }
        let mut told = Vec::new();
        for e in &events[self.seen..] {
            if let Some(t) = self.read(&e.kind) {
                told.push(t);
            }
        }
        self.seen = events.len();
        let overflow = told.len() > TOLD_PER_FRAME;
        if overflow {
            told.clear();
        }
        Narration {
            restart: false,
            overflow,
            told,
        }
    }

    /// Keeps count of the pods nominated to NodeClaims still to launch.
    fn nominate(&mut self, kind: &EventKind) {
        match kind {
            EventKind::Nominated {
                target: Nomination::NodeClaim(claim),
                ..
            } => *self.nominated.entry(claim.clone()).or_default() += 1,
            EventKind::Launched { nodeclaim, .. } | EventKind::LaunchFailed { nodeclaim } => {
                self.nominated.remove(nodeclaim);
            }
            _ => {}
        }
    }

    /// The decision an event tells, if it is one.
    fn read(&mut self, kind: &EventKind) -> Option<Told> {
        let told = match kind {
            EventKind::Launched {
                nodeclaim,
                instance_type,
                zone,
                capacity_type,
                ..
            } => Told::Launched {
                instance_type: instance_type.clone(),
                zone: zone.clone(),
                capacity_type: *capacity_type,
                pods: self.nominated.get(nodeclaim).copied().unwrap_or(0),
            },
            EventKind::Disrupting(d) => {
                let first = d.candidates.first()?;
                Told::Disrupted {
                    method: match d.reason {
                        Reason::Empty => Method::Emptiness,
                        Reason::Underutilized => Method::Consolidation,
                        Reason::Drifted => Method::Drift,
                        Reason::Repair => Method::Repair,
                    },
                    node: first.name.clone(),
                    instance_type: first.instance_type.clone(),
                    nodes: d.candidates.len() as u32,
                    replaced: !d.replacements.is_empty(),
                    savings: d.savings.unwrap_or(0),
                }
            }
            EventKind::SpotInterrupted { node, .. }
            | EventKind::ReservationInterrupted { node, .. } => {
                Told::Interrupted { node: node.clone() }
            }
            EventKind::Expired { nodeclaim } => Told::Expired {
                nodeclaim: nodeclaim.clone(),
            },
            _ => {
                self.nominate(kind);
                return None;
            }
        };
        self.nominate(kind);
        Some(told)
    }
}

/// How the clock got to a frame, as the page saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moved {
    /// The engine's instant before the frame, and the frame's.
    pub from: i64,
    pub to: i64,
    /// When the frame before said something would next happen (where a step goes).
    pub expected_next: Option<i64>,
    pub playing: bool,
}

/// What a frame means to a listener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    /// The clock played or stepped through these decisions: tell them.
    Decisions,
    /// The clock jumped (a seek, a restart, a rebuild elsewhere in time): one sentence of
    /// where it landed. Reading out every decision passed over would bury the answer a
    /// learner who seeks wants (what the cluster is now) under minutes of speech.
    Jump,
    /// Nothing a listener needs (a rebuild at the same instant, after an edit: the editor
    /// and its Problems panel speak for themselves).
    Quiet,
}

/// What a frame means to a listener (see [`Heard`]).
pub fn heard(moved: &Moved, narration: &Narration) -> Heard {
    let jumped = moved.to != moved.from;
    if narration.restart || narration.overflow {
        return if jumped { Heard::Jump } else { Heard::Quiet };
    }
    if moved.playing || !jumped || moved.expected_next == Some(moved.to) {
        Heard::Decisions
    } else {
        Heard::Jump
    }
}

/// How long decisions are gathered before they are told: a burst (four NodeClaims launched
/// within a second of simulated time) is told as one sentence.
pub const GATHER_MS: f64 = 400.0;
/// The least time between two announcements: about what a screen reader takes to say one,
/// so a polite region's announcements are heard, not queued up behind each other.
pub const GAP_MS: f64 = 2500.0;

/// Decisions waiting to be told, and when the last announcement was made (wall-clock
/// milliseconds, `browser::now_ms`).
#[derive(Clone, Debug, Default)]
pub struct Batcher {
    waiting: Vec<Told>,
    said_at: Option<f64>,
    due: Option<f64>,
}

impl Batcher {
    /// Adds decisions; returns when they are due if the caller has no timer set for them
    /// yet (`None`: one is set already, or there is nothing to tell).
    pub fn push(&mut self, now: f64, told: Vec<Told>) -> Option<f64> {
        if told.is_empty() {
            return None;
        }
        self.waiting.extend(told);
        if self.due.is_some() {
            return None;
        }
        let due = (now + GATHER_MS).max(self.said_at.map_or(0.0, |t| t + GAP_MS));
        self.due = Some(due);
        Some(due)
    }

    /// The decisions to tell now, if they are due.
    pub fn take(&mut self, now: f64) -> Option<Vec<Told>> {
        let due = self.due?;
        if now + 1.0 < due {
            return None;
        }
        self.due = None;
        self.said_at = Some(now);
        Some(std::mem::take(&mut self.waiting))
    }

    /// A jump: what waited is passed over, and the jump's sentence is said now.
    pub fn jump(&mut self, now: f64) {
        self.waiting.clear();
        self.due = None;
        self.said_at = Some(now);
    }

    /// When the waiting decisions are due, if any wait.
    pub fn due(&self) -> Option<f64> {
        self.due
    }
}

/// `template` with each `{name}` replaced by its value.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// `a t3.small`, `an m5.large`: the article an instance type's first letter takes when read
/// aloud (`m` is "em").
fn article(instance_type: &str) -> &'static str {
    match instance_type.chars().next() {
        Some(c) if "aefhilmnorsx".contains(c.to_ascii_lowercase()) => "an",
        _ => "a",
    }
}

fn capacity(c: CapacityType, lang: Lang) -> &'static str {
    match c {
        CapacityType::Spot => T::Spot.get(lang),
        CapacityType::OnDemand => T::OnDemand.get(lang),
        CapacityType::Reserved => T::Reserved.get(lang),
    }
}

fn for_pods(pods: u32, lang: Lang) -> String {
    match pods {
        0 => String::new(),
        1 => fill(T::NarrateForPod.get(lang), &[("n", "1")]),
        n => fill(T::NarrateForPods.get(lang), &[("n", &n.to_string())]),
    }
}

fn nodes(n: u32, lang: Lang) -> String {
    words::count(n as usize, Noun::Node, lang).to_string()
}

/// One decision in a sentence.
fn one(told: &Told, lang: Lang) -> String {
    match told {
        Told::Launched {
            instance_type,
            zone,
            capacity_type,
            pods,
        } => fill(
            T::NarrateLaunched.get(lang),
            &[
                ("a", article(instance_type)),
                ("type", instance_type),
                ("capacity", capacity(*capacity_type, lang)),
                ("zone", zone),
                ("for", &for_pods(*pods, lang)),
            ],
        ),
        Told::Disrupted {
            method,
            node,
            instance_type,
            nodes: n,
            replaced,
            savings,
        } => {
            let template = match (method, *n > 1, replaced) {
                (Method::Drift, ..) => T::NarrateDrifted,
                (Method::Repair, ..) => T::NarrateRepaired,
                (_, true, _) => T::NarrateConsolidatedMany,
                (Method::Emptiness, false, _) => T::NarrateEmptied,
                (Method::Consolidation, false, true) => T::NarrateReplaced,
                (Method::Consolidation, false, false) => T::NarrateConsolidated,
            };
            fill(
                template.get(lang),
                &[
                    ("node", node),
                    ("type", instance_type),
                    ("nodes", &nodes(*n, lang)),
                    ("savings", &snapshot::dollars(*savings)),
                ],
            )
        }
        Told::Interrupted { node } => fill(T::NarrateInterrupted.get(lang), &[("node", node)]),
        Told::Expired { nodeclaim } => fill(T::NarrateExpired.get(lang), &[("node", nodeclaim)]),
    }
}

/// What a batch of decisions says: one decision in a sentence; several counted by kind
/// ("Karpenter: launched 4 nodes (t3.small) for 4 pending pods; consolidated 2 nodes,
/// saving $0.0156/h.").
pub fn words(told: &[Told], lang: Lang) -> String {
    match told {
        [] => String::new(),
        [t] => one(t, lang),
        _ => {
            let mut launched = (0u32, 0u32, Vec::<&str>::new());
            let (mut consolidated, mut savings) = (0u32, 0i64);
            let (mut drifted, mut repaired, mut interrupted, mut expired) = (0, 0, 0, 0);
            for t in told {
                match t {
                    Told::Launched {
                        instance_type,
                        pods,
                        ..
                    } => {
                        launched.0 += 1;
                        launched.1 += pods;
                        if !launched.2.contains(&instance_type.as_str()) {
                            launched.2.push(instance_type);
                        }
                    }
                    Told::Disrupted {
                        method: Method::Drift,
                        nodes,
                        ..
                    } => drifted += nodes,
                    Told::Disrupted {
                        method: Method::Repair,
                        nodes,
                        ..
                    } => repaired += nodes,
                    Told::Disrupted {
                        nodes, savings: s, ..
                    } => {
                        consolidated += nodes;
                        savings += s;
                    }
                    Told::Interrupted { .. } => interrupted += 1,
                    Told::Expired { .. } => expired += 1,
                }
            }
            let mut parts = Vec::new();
            if launched.0 > 0 {
                parts.push(fill(
                    T::NarrateBatchLaunched.get(lang),
                    &[
                        ("nodes", &nodes(launched.0, lang)),
                        ("types", &launched.2.join(", ")),
                        ("for", &for_pods(launched.1, lang)),
                    ],
                ));
            }
            if consolidated > 0 {
                parts.push(fill(
                    T::NarrateBatchConsolidated.get(lang),
                    &[
                        ("nodes", &nodes(consolidated, lang)),
                        ("savings", &snapshot::dollars(savings)),
                    ],
                ));
            }
            for (n, template) in [
                (drifted, T::NarrateBatchDrifted),
                (repaired, T::NarrateBatchRepaired),
                (interrupted, T::NarrateBatchInterrupted),
                (expired, T::NarrateBatchExpired),
            ] {
                if n > 0 {
                    parts.push(fill(template.get(lang), &[("nodes", &nodes(n, lang))]));
                }
            }
            fill(T::NarrateBatch.get(lang), &[("parts", &parts.join("; "))])
        }
    }
}

/// Where a jump landed: the clock and the cluster's figures there.
pub fn clock_at(at: i64, summary: &Summary, lang: Lang) -> String {
    fill(
        T::NarrateClockAt.get(lang),
        &[
            ("clock", &snapshot::clock(at)),
            (
                "nodes",
                &words::count(summary.nodes, Noun::Node, lang).to_string(),
            ),
            (
                "running",
                &words::count(summary.pods_running, Noun::Pod, lang).to_string(),
            ),
            ("pending", &snapshot::count(summary.pods_pending)),
            ("cost", &snapshot::dollars(summary.cost_per_hour)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::player::Player;

    fn launched(t: &str, zone: &str, pods: u32) -> Told {
        Told::Launched {
            instance_type: t.into(),
            zone: zone.into(),
            capacity_type: CapacityType::Spot,
            pods,
        }
    }

    #[test]
    fn a_launch_is_told_with_its_type_zone_and_pods() {
        let t = launched("t3.small", "us-east-1a", 2);
        assert_eq!(
            words(std::slice::from_ref(&t), Lang::En),
            "Karpenter launched a t3.small (spot) in us-east-1a for 2 pending pods."
        );
        assert_eq!(
            words(&[launched("m5.large", "us-east-1b", 1)], Lang::En),
            "Karpenter launched an m5.large (spot) in us-east-1b for 1 pending pod."
        );
        assert_eq!(
            words(&[t], Lang::Ko),
            "Karpenter가 노드를 띄웠습니다: us-east-1a의 t3.small 스팟, Pending 파드 2개용."
        );
    }

    #[test]
    fn a_consolidation_is_told_with_what_it_saves() {
        let t = Told::Disrupted {
            method: Method::Consolidation,
            node: "platform-b44dr".into(),
            instance_type: "t3.small".into(),
            nodes: 1,
            replaced: false,
            savings: 7_800,
        };
        assert_eq!(
            words(&[t], Lang::En),
            "Karpenter consolidated node platform-b44dr (t3.small), saving $0.0078/h."
        );
    }

    #[test]
    fn several_decisions_are_counted_in_one_sentence() {
        let consolidated = Told::Disrupted {
            method: Method::Consolidation,
            node: "a".into(),
            instance_type: "t3.small".into(),
            nodes: 1,
            replaced: false,
            savings: 7_800,
        };
        let told = [
            launched("t3.small", "z", 1),
            launched("t3.small", "z", 1),
            launched("m5.large", "z", 2),
            consolidated.clone(),
            consolidated,
            Told::Interrupted { node: "b".into() },
        ];
        assert_eq!(
            words(&told, Lang::En),
            "Karpenter: launched 3 nodes (t3.small, m5.large) for 4 pending pods; \
             consolidated 2 nodes, saving $0.0156/h; 1 node interrupted by EC2."
        );
        assert_eq!(
            words(&told, Lang::Ko),
            "Karpenter의 결정: 노드 3대 시작(t3.small, m5.large, Pending 파드 4개용); \
             노드 2대 통합(시간당 $0.0156 절감); EC2가 노드 1대 회수."
        );
    }

    #[test]
    fn a_burst_is_gathered_and_the_next_waits_for_the_gap() {
        let mut b = Batcher::default();
        let due = b.push(1000.0, vec![launched("t3.small", "z", 1)]).unwrap();
        assert_eq!(due, 1000.0 + GATHER_MS);
        assert_eq!(b.push(1010.0, vec![launched("t3.small", "z", 1)]), None);
        assert!(b.take(1100.0).is_none(), "not due yet");
        assert_eq!(b.take(due).unwrap().len(), 2, "the burst, told once");
        // The next decision, right after: held until the gap has passed.
        let next = b
            .push(due + 10.0, vec![launched("t3.small", "z", 1)])
            .unwrap();
        assert_eq!(next, due + GAP_MS);
        b.jump(due + 20.0);
        assert!(b.take(next).is_none(), "a jump passes over what waited");
    }

    #[test]
    fn a_step_tells_its_decisions_and_a_seek_tells_where_it_landed() {
        let decisions = Narration {
            told: vec![launched("t3.small", "z", 1)],
            ..Narration::default()
        };
        let step = Moved {
            from: 1000,
            to: 2121,
            expected_next: Some(2121),
            playing: false,
        };
        assert_eq!(heard(&step, &decisions), Heard::Decisions);
        let playing = Moved {
            expected_next: Some(1500),
            playing: true,
            ..step
        };
        assert_eq!(heard(&playing, &decisions), Heard::Decisions);
        let seek = Moved {
            to: 150_000,
            ..step
        };
        assert_eq!(heard(&seek, &decisions), Heard::Jump);
        let rebuilt = Narration {
            restart: true,
            ..Narration::default()
        };
        assert_eq!(heard(&Moved { to: 1000, ..step }, &rebuilt), Heard::Quiet);
        assert_eq!(heard(&Moved { to: 0, ..step }, &rebuilt), Heard::Jump);
    }

    #[test]
    fn the_narrator_tells_each_launch_once_with_the_pods_nominated_to_it() {
        let mut p = Player::new();
        p.rebuild(crate::lessons::lab("seed002-consolidation"), 0);
        let mut n = Narrator::default();
        assert!(n.update(p.epoch(), p.sim()).restart);
        p.advance(10_000);
        let first = n.update(p.epoch(), p.sim());
        let launches: Vec<_> = first
            .told
            .iter()
            .filter_map(|t| match t {
                Told::Launched { pods, .. } => Some(*pods),
                _ => None,
            })
            .collect();
        assert_eq!(launches, [1, 1, 1, 1], "{first:?}");
        assert!(n.update(p.epoch(), p.sim()).told.is_empty(), "told once");
        p.advance(8 * 60_000);
        let later = n.update(p.epoch(), p.sim());
        assert!(
            later.told.iter().any(|t| matches!(
                t,
                Told::Disrupted {
                    method: Method::Consolidation,
                    savings: 1..,
                    ..
                }
            )),
            "{later:?}"
        );
    }
}

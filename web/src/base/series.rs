//! The cost timeline's data: the cluster's figures at each instant they changed (the
//! engine's history) and the decisions that changed the cluster, as markers.
//!
//! The worker derives both from the simulation ([`Tracker`]) and sends what the page has
//! not seen in each frame; the page keeps them in a [`Series`] that the chart and its table
//! read. Markers are values (a kind, a count, the savings), worded by the page in the
//! learner's language.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use kpg_core::disruption::Reason;
use kpg_core::model::{AppliedObject, TimelineAction, TimelineStep};
use kpg_core::sim::Simulation;
use kpg_core::sim::event::EventKind;
use kpg_core::sim::history::{self, HistoryPoint};

/// The cluster's figures from `at` until the next point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub at: i64,
    pub nodes: u32,
    pub running: u32,
    pub pending: u32,
    /// Micro-dollars per hour of the nodes that exist.
    pub cost_per_hour: i64,
}

impl From<&HistoryPoint> for Point {
    fn from(p: &HistoryPoint) -> Point {
        Point {
            at: p.at as i64,
            nodes: p.nodes,
            running: p.running,
            pending: p.pending,
            cost_per_hour: p.cost_per_hour,
        }
    }
}

/// What kind of decision changed the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MarkerKind {
    /// Instances started running.
    Launch,
    /// Consolidation: underutilized nodes deleted or replaced by cheaper ones.
    Consolidation,
    /// Consolidation of empty nodes.
    Emptiness,
    Drift,
    /// Node repair deleted an unhealthy node.
    Repair,
    Expiry,
    /// EC2 reclaims a spot instance.
    Interruption,
    /// Nodes went away (their instances terminated): where the bill falls.
    Removal,
    /// A Timeline step (a scenario's script, or a terminal command) acted.
    Step,
}

impl MarkerKind {
    /// The CSS class and `data-kind` of its marks.
    pub fn code(self) -> &'static str {
        match self {
            MarkerKind::Launch => "launch",
            MarkerKind::Consolidation => "consolidation",
            MarkerKind::Emptiness => "emptiness",
            MarkerKind::Drift => "drift",
            MarkerKind::Repair => "repair",
            MarkerKind::Expiry => "expiry",
            MarkerKind::Interruption => "interruption",
            MarkerKind::Removal => "removal",
            MarkerKind::Step => "step",
        }
    }
}

/// The decisions of one kind taken at one instant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    pub at: i64,
    pub kind: MarkerKind,
    /// How many (nodes launched, disrupted or removed; steps applied).
    pub count: u32,
    /// Micro-dollars per hour a consolidation saves.
    pub savings: i64,
    /// What the first of them was about: an instance type, a node, a step in `kubectl`
    /// words.
    pub first: String,
}

/// The timeline as the page holds it: every point and marker of the simulation on screen
/// up to its instant. Shared (`Arc`): frames at 60× copy the handle, not the series.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub points: Arc<Vec<Point>>,
    pub markers: Arc<Vec<Marker>>,
}

impl Series {
    /// Adds what a frame brought: from index `from` of the worker's series on (the last
    /// entry sent before may have been revised within its instant), or a new simulation's.
    pub fn extend(&mut self, update: SeriesUpdate) {
        if update.restart {
            *self = Series::default();
        }
        let points = Arc::make_mut(&mut self.points);
        points.truncate(update.points_from);
        points.extend(update.points);
        let markers = Arc::make_mut(&mut self.markers);
        markers.truncate(update.markers_from);
        markers.extend(update.markers);
    }

    /// The figures in force at `t`.
    pub fn at(&self, t: i64) -> Point {
        let end = self.points.partition_point(|p| p.at <= t);
        end.checked_sub(1)
            .map_or_else(Point::default, |i| self.points[i])
    }

    /// What the nodes cost from time 0 to `now`, in micro-dollars (the engine's own step
    /// integral).
    pub fn accrued(&self, now: i64) -> i64 {
        let steps = self
            .points
            .iter()
            .map(|p| (p.at.max(0) as u64, p.cost_per_hour));
        history::accrued_over(steps, now.max(0) as u64)
    }

    /// The markers within `[from, to]`.
    pub fn markers_between(&self, from: i64, to: i64) -> &[Marker] {
        let a = self.markers.partition_point(|m| m.at < from);
        let b = self.markers.partition_point(|m| m.at <= to);
        &self.markers[a..b.max(a)]
    }
}

/// What a frame carries of the timeline: the entries the page has not seen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeriesUpdate {
    /// A new simulation: drop the series kept so far.
    pub restart: bool,
    pub points_from: usize,
    pub points: Vec<Point>,
    pub markers_from: usize,
    pub markers: Vec<Marker>,
}

/// The worker's side: the markers of the simulation so far, and what was sent.
#[derive(Debug, Default)]
pub struct Tracker {
    epoch: u64,
    /// Events and Timeline steps already turned into markers.
    events_seen: usize,
    steps_seen: usize,
    markers: Vec<Marker>,
    sent_points: usize,
    /// The last point sent (an instant's point may change while the clock is on it).
    last_sent_point: Option<Point>,
    sent_markers: usize,
}

impl Tracker {
    /// What the page has not seen of `sim`'s timeline, `epoch` naming the simulation (a
    /// new one starts over); `None` when nothing changed.
    pub fn update(
        &mut self,
        epoch: u64,
        sim: &Simulation,
        timeline: &[TimelineStep],
    ) -> Option<SeriesUpdate> {
        let restart = epoch != self.epoch;
        if restart {
            *self = Tracker {
                epoch,
                ..Tracker::default()
            };
        }
        let now = sim.now();
        // The lowest marker index that is new or changed since the last update.
        let mut touched: Option<usize> = restart.then_some(0);
        for event in &sim.events()[self.events_seen..] {
            if let Some(m) = marker_of(event.time as i64, &event.kind) {
                let i = fold(&mut self.markers, m);
                touched = Some(touched.map_or(i, |t| t.min(i)));
            }
        }
        self.events_seen = sim.events().len();
        let due = timeline[self.steps_seen..].partition_point(|s| s.at <= now);
        let mut stepped: Option<i64> = None;
        for step in &timeline[self.steps_seen..self.steps_seen + due] {
            let at = step.at as i64;
            stepped = Some(stepped.map_or(at, |t| t.min(at)));
            fold(
                &mut self.markers,
                Marker {
                    at: step.at as i64,
                    kind: MarkerKind::Step,
                    count: 1,
                    savings: 0,
                    first: step_words(&step.action),
                },
            );
        }
        self.steps_seen += due;
        if let Some(first_step) = stepped {
            // A step comes after the events of its instant were marked: keep time order.
            self.markers.sort_by_key(|m| m.at);
            merge_same_instant(&mut self.markers);
            let from = self.markers.partition_point(|m| m.at < first_step);
            touched = Some(touched.map_or(from, |t| t.min(from)));
        }
        let history = sim.history();
        let last = history.last().map(Point::from);
        let points_changed =
            restart || history.len() != self.sent_points || last != self.last_sent_point;
        if !points_changed && touched.is_none() {
            return None;
        }
        // The instant of the last point sent may have been revised: resend it.
        let points_from = self.sent_points.saturating_sub(1).min(history.len());
        let markers_from = touched.unwrap_or(self.markers.len()).min(self.sent_markers);
        self.sent_points = history.len();
        self.last_sent_point = last;
        self.sent_markers = self.markers.len();
        Some(SeriesUpdate {
            restart,
            points_from: if restart { 0 } else { points_from },
            points: history[if restart { 0 } else { points_from }..]
                .iter()
                .map(Point::from)
                .collect(),
            markers_from,
            markers: self.markers[markers_from..].to_vec(),
        })
    }
}

/// After a sort, markers of one kind at one instant are one marker.
fn merge_same_instant(markers: &mut Vec<Marker>) {
    let mut out: Vec<Marker> = Vec::with_capacity(markers.len());
    for m in markers.drain(..) {
        fold(&mut out, m);
    }
    *markers = out;
}

/// Adds `m` to `markers` (in time order, `m` at or after the last), folded into the marker
/// of its kind at its instant if there is one; returns the index it went to.
fn fold(markers: &mut Vec<Marker>, m: Marker) -> usize {
    let n = markers.len();
    if let Some(i) = (0..n)
        .rev()
        .take_while(|&i| markers[i].at == m.at)
        .find(|&i| markers[i].kind == m.kind)
    {
        markers[i].count += m.count;
        markers[i].savings += m.savings;
        return i;
    }
    markers.push(m);
    n
}

/// The marker an event makes, if it is a decision that changed the cluster.
fn marker_of(at: i64, kind: &EventKind) -> Option<Marker> {
    let (kind, count, savings, first) = match kind {
        EventKind::Launched { instance_type, .. } => {
            (MarkerKind::Launch, 1, 0, instance_type.clone())
        }
        EventKind::NodeClaimDeleted {
            node,
            launched: true,
            ..
        } => (MarkerKind::Removal, 1, 0, node.clone()),
        EventKind::Disrupting(d) => {
            let kind = match d.reason {
                Reason::Empty => MarkerKind::Emptiness,
                Reason::Underutilized => MarkerKind::Consolidation,
                Reason::Drifted => MarkerKind::Drift,
                Reason::Repair => MarkerKind::Repair,
            };
            let first = d
                .candidates
                .first()
                .map(|c| c.name.clone())
                .unwrap_or_default();
            (
                kind,
                d.candidates.len() as u32,
                d.savings.unwrap_or(0),
                first,
            )
        }
        EventKind::Expired { nodeclaim } => (MarkerKind::Expiry, 1, 0, nodeclaim.clone()),
        // Before v1.15 node repair is its own controller, outside the disruption events.
        EventKind::NodeRepair { nodeclaim, .. } => (MarkerKind::Repair, 1, 0, nodeclaim.clone()),
        EventKind::SpotInterrupted { node, .. }
        | EventKind::ReservationInterrupted { node, .. } => {
            (MarkerKind::Interruption, 1, 0, node.clone())
        }
        _ => return None,
    };
    Some(Marker {
        at,
        kind,
        count,
        savings,
        first,
    })
}

/// A Timeline step in `kubectl`'s words.
fn step_words(action: &TimelineAction) -> String {
    match action {
        TimelineAction::Scale {
            kind,
            name,
            replicas,
            ..
        } => format!("scale {}/{name} --replicas={replicas}", kind.as_str()),
        TimelineAction::NodeCondition {
            nodepool,
            node,
            condition,
            status,
        } => format!(
            "node condition {condition}={status} on {}",
            node.as_deref().or(nodepool.as_deref()).unwrap_or_default()
        ),
        TimelineAction::ScaleNodePool { name, replicas } => {
            format!("scale nodepool/{name} --replicas={replicas}")
        }
        TimelineAction::Delete { kind, name, .. } => format!("delete {kind}/{name}"),
        TimelineAction::Apply(object) => match object.as_ref() {
            AppliedObject::NodePool(p) => format!("apply NodePool/{}", p.name),
            AppliedObject::NodeClass(c) => format!("apply EC2NodeClass/{}", c.name),
            AppliedObject::Workload(w) => format!("apply {}/{}", w.kind.as_str(), w.name),
            AppliedObject::Pdb(p) => format!("apply PodDisruptionBudget/{}", p.name),
            AppliedObject::PriorityClass(c) => format!("apply PriorityClass/{}", c.name),
            AppliedObject::CapacityBuffer(b) => format!("apply CapacityBuffer/{}", b.name),
        },
        TimelineAction::Interrupt { node, nodepool } => match (node, nodepool) {
            (Some(n), _) => format!("interrupt node/{n}"),
            (None, Some(p)) => format!("interrupt a spot node of {p}"),
            (None, None) => String::from("interrupt a spot node"),
        },
        TimelineAction::ReleaseAmi { alias } => format!("release AMI {alias}"),
        TimelineAction::InsufficientCapacity { .. } => String::from("EC2 capacity runs out"),
        TimelineAction::Cordon {
            node,
            unschedulable,
        } => format!(
            "{} node/{node}",
            if *unschedulable { "cordon" } else { "uncordon" }
        ),
        TimelineAction::Annotate { kind, name, .. } => format!("annotate {kind}/{name}"),
    }
}

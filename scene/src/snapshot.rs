//! What the cluster view draws, read from the engine at one instant.
//!
//! A plain-data view model (rust-analyzer's `ide` boundary): the components never reach into
//! the [`Simulation`]; they render a [`Snapshot`]. Taking one is cheap for lesson-sized
//! scenarios and happens only when the engine's revision changes, not every frame.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, PoisonError, RwLock};

use kpg_core::catalog::CapacityType;
use kpg_core::model::NodeSelectorRequirement;
use kpg_core::resources::ResourceName;
use kpg_core::sim::{Event, EventKind, NodeState, Simulation};
use serde::{Deserialize, Serialize};

/// Okabe–Ito colours are distinguishable with every common colour-vision deficiency; the
/// workload's index in the scenario picks one (see `style.css`, `.w0` to `.w7`).
pub const WORKLOAD_COLOURS: usize = 8;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub time_ms: i64,
    pub summary: Summary,
    pub lanes: Vec<Lane>,
    /// The pending pods, one chip each, up to [`PENDING_CHIP_LIMIT`]; past it, empty, and
    /// `pending_groups` tells them by workload.
    pub pending: Vec<PodChip>,
    /// Every pending pod, by workload (what the tray shows past [`PENDING_CHIP_LIMIT`]).
    pub pending_groups: Vec<PendingGroup>,
    /// Not sent across to the page: a frame carries only the lines it has not seen
    /// (the page's `protocol::Frame`).
    #[serde(skip)]
    pub events: EventLines,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub nodes: usize,
    pub cpu_requested_milli: i64,
    pub cpu_allocatable_milli: i64,
    pub memory_requested: i64,
    pub memory_allocatable: i64,
    /// Micro-dollars per hour of every existing node.
    pub cost_per_hour: i64,
    pub pods_pending: usize,
    pub pods_running: usize,
    /// Karpenter's latest disruption decision, while it is recent (its log line).
    pub decision: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum LaneKind {
    NodePool {
        name: String,
        weight: i32,
        labels: Vec<(String, String)>,
        taints: Vec<String>,
        requirements: Vec<String>,
        /// (resource, in use, limit) for each limited resource, as Karpenter counts it:
        /// the capacity of the pool's nodes, launching ones included.
        limits: Vec<LimitGauge>,
        deleted: bool,
        /// The EC2NodeClass the pool names when it does not exist (the pool is not Ready).
        /// Why Karpenter skips the pool (not Ready), in the engine's words.
        not_ready: Option<String>,
    },
    /// Nodes no NodePool manages (the Cluster document's node groups).
    Fixed,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitGauge {
    pub resource: String,
    pub used: i64,
    pub limit: i64,
    pub used_text: String,
    pub limit_text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lane {
    pub kind: LaneKind,
    pub nodes: Vec<NodeCard>,
}

impl Lane {
    pub fn key(&self) -> String {
        match &self.kind {
            LaneKind::NodePool { name, .. } => format!("pool/{name}"),
            LaneKind::Fixed => "fixed".into(),
        }
    }

    /// The lane's nodes grouped by instance type, capacity type and state, in that order:
    /// what a lane shows past [`LANE_CARD_LIMIT`] nodes.
    pub fn groups(&self) -> Vec<NodeGroup> {
        let mut groups: BTreeMap<(String, u8, u8), NodeGroup> = BTreeMap::new();
        for n in &self.nodes {
            let key = (
                n.instance_type.clone(),
                n.capacity_type as u8,
                n.state as u8,
            );
            let g = groups.entry(key).or_insert_with(|| NodeGroup {
                instance_type: n.instance_type.clone(),
                capacity_type: n.capacity_type,
                state: n.state,
                nodes: 0,
                pods: 0,
                price_per_hour: 0,
            });
            g.nodes += 1;
            g.pods += n.pod_count;
            g.price_per_hour += n.price_per_hour;
        }
        groups.into_values().collect()
    }
}

impl Snapshot {
    /// The snapshot without the pod chips of lanes past [`LANE_CARD_LIMIT`] nodes other than
    /// `shown` (lane keys): such a lane shows groups, whose counts stay, and thousands of chips
    /// no one sees would make each of the worker's frames megabytes.
    pub fn without_pods_of_grouped_lanes(mut self, shown: &BTreeSet<String>) -> Snapshot {
        for lane in &mut self.lanes {
            if lane.nodes.len() > LANE_CARD_LIMIT && !shown.contains(&lane.key()) {
                for node in &mut lane.nodes {
                    node.pods = Vec::new();
                }
            }
        }
        self
    }
}

/// Past this many nodes a lane shows them grouped ([`Lane::groups`]), one row per instance
/// type, capacity type and state, and every card only on request: a thousand cards help no
/// one read a cluster (eks-node-viewer scrolls a list for the same reason), and they cost
/// the page thousands of elements.
pub const LANE_CARD_LIMIT: usize = 24;

/// Past this many pending pods the tray shows them by workload: thousands of chips help no
/// one and cost the page thousands of elements (and the worker's frames megabytes).
pub const PENDING_CHIP_LIMIT: usize = 60;

/// The pending pods of one workload (bare pods: one group each), with why the first of them
/// waits: pods of one workload share a spec, so they usually wait for the same reason.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingGroup {
    /// `Deployment/web`; a bare pod's own key.
    pub owner: String,
    pub colour: usize,
    pub pods: usize,
    /// The first pod, whose reason this is (the one Explain shows).
    pub first: PodChip,
}

/// Nodes of one lane with the same instance type, capacity type and state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeGroup {
    pub instance_type: String,
    pub capacity_type: CapacityType,
    pub state: CardState,
    pub nodes: usize,
    pub pods: usize,
    /// Their prices added (micro-dollars per hour).
    pub price_per_hour: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CardState {
    Launching,
    Registering,
    Ready,
    /// Its `Ready` condition is `False` or `Unknown` (a `nodeCondition` step).
    NotReady,
    Cordoned,
    Deleting,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeCard {
    pub name: String,
    pub nodeclaim: Option<String>,
    pub instance_type: String,
    pub zone: String,
    pub capacity_type: CapacityType,
    pub arch: String,
    pub price_per_hour: i64,
    pub cpu_requested_milli: i64,
    pub cpu_allocatable_milli: i64,
    pub memory_requested: i64,
    pub memory_allocatable: i64,
    pub max_pods: i64,
    /// How many pods run here (`pods` may be left out, see
    /// [`Snapshot::without_pods_of_grouped_lanes`]).
    pub pod_count: usize,
    pub state: CardState,
    pub created_at_ms: i64,
    pub pods: Vec<PodChip>,
    /// Why the node is on its way out, or could be (drift), if it is.
    pub fate: Option<Fate>,
    /// The nodes this one was launched to replace.
    pub replaces: Vec<String>,
    /// The labels its NodePool's template put on it (`app=hello-world`): what selectors and
    /// affinities in the lessons match.
    pub labels: Vec<(String, String)>,
}

/// What disruption has in store for a node. The details are Karpenter's own identifiers
/// (`AMIDrift`, `Underutilized`), shown as they are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fate {
    /// A node condition is not `True` (`Ready=False`): node repair deletes the node in
    /// `repair_in_ms` if it repairs this node, and `gate_off` says why it does not.
    Unhealthy {
        condition: String,
        repair_in_ms: Option<i64>,
        gate_off: bool,
    },
    Drifted(String),
    Disrupting(String),
    SpotInterrupted,
    /// Its interruptible capacity reservation is being taken back.
    ReservationInterrupted,
    Expired,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PodChip {
    /// `namespace/name`: stable, the key for animation.
    pub key: String,
    pub name: String,
    /// `Deployment/web`, when a controller owns the pod.
    pub owner: Option<String>,
    pub colour: usize,
    pub daemon: bool,
    pub cpu_milli: i64,
    pub memory: i64,
    /// Why the pod is pending (kube-scheduler's and Karpenter's words).
    pub reason: Option<String>,
    pub nominated: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventLine {
    pub time_ms: i64,
    pub warning: bool,
    pub reason: Cow<'static, str>,
    pub object: String,
    pub message: String,
}

impl EventLine {
    fn of(e: &Event) -> EventLine {
        EventLine {
            time_ms: e.time as i64,
            warning: e.kind.warning(),
            reason: e.kind.reason().into(),
            object: e.kind.object().to_string(),
            message: e.kind.to_string(),
        }
    }
}

/// How many lines the Events tab shows, newest first: what a frame carries at most, and about
/// what the page keeps.
pub const EVENT_LINES_SHOWN: usize = 300;

/// The page keeps this many of the newest lines (a simulation of thousands of pods says tens
/// of thousands of things; the tab shows the last [`EVENT_LINES_SHOWN`]).
const EVENT_LINES_KEPT: usize = 4 * EVENT_LINES_SHOWN;

/// The Events tab's lines as one snapshot sees them: the first `len` lines of its
/// simulation's [`EventLog`]. The log is only ever appended to, so those lines never change
/// and every snapshot of a simulation shares them instead of copying the list.
#[derive(Clone, Debug, Default)]
pub struct EventLines {
    log: Arc<RwLock<Log>>,
    len: usize,
}

/// A log's lines from index `skipped` on (the worker's log keeps every line; the page's, the
/// newest).
#[derive(Debug, Default)]
struct Log {
    skipped: usize,
    lines: Vec<EventLine>,
}

impl Log {
    /// The lines at indices `from..to` that the log still has, with their indices.
    fn range(&self, from: usize, to: usize) -> impl Iterator<Item = (usize, &EventLine)> {
        let from = from.max(self.skipped);
        let to = to.min(self.skipped + self.lines.len());
        self.lines
            .get(from.saturating_sub(self.skipped)..to.saturating_sub(self.skipped))
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(move |(i, e)| (from + i, e))
    }
}

impl EventLines {
    /// How many lines the simulation has said (the page may keep only the newest).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The last `n` lines, newest first.
    pub fn latest(&self, n: usize) -> Vec<EventLine> {
        self.latest_numbered(n)
            .into_iter()
            .map(|(_, e)| e)
            .collect()
    }

    /// The last `n` lines with their index in the log, newest first.
    pub fn latest_numbered(&self, n: usize) -> Vec<(usize, EventLine)> {
        let log = self.log.read().unwrap_or_else(PoisonError::into_inner);
        let lines: Vec<(usize, EventLine)> = log
            .range(self.len.saturating_sub(n), self.len)
            .map(|(i, e)| (i, e.clone()))
            .collect();
        lines.into_iter().rev().collect()
    }

    /// The lines from index `from` on, oldest first.
    pub fn since(&self, from: usize) -> Vec<EventLine> {
        let log = self.log.read().unwrap_or_else(PoisonError::into_inner);
        log.range(from, self.len).map(|(_, e)| e.clone()).collect()
    }

    /// Every line the log has, oldest first.
    pub fn to_vec(&self) -> Vec<EventLine> {
        self.since(0)
    }
}

impl PartialEq for EventLines {
    fn eq(&self, other: &EventLines) -> bool {
        self.len == other.len
            && (Arc::ptr_eq(&self.log, &other.log) || self.to_vec() == other.to_vec())
    }
}

/// One simulation's event lines, each converted once: a snapshot appends the events past
/// the last one it saw. The page's `player::Player` starts a new log whenever it builds a
/// new simulation.
#[derive(Debug, Default)]
pub struct EventLog {
    lines: Arc<RwLock<Log>>,
}

impl EventLog {
    /// Adds the lines a frame brought (the newest of those the page has not seen: the first
    /// is line `from` of the worker's log; `restart`: of a new simulation's log) and returns
    /// the lines up to now. The page keeps the newest [`EVENT_LINES_KEPT`].
    pub fn extend(&mut self, restart: bool, from: usize, lines: Vec<EventLine>) -> EventLines {
        if restart {
            *self = EventLog::default();
        }
        let mut log = self.lines.write().unwrap_or_else(PoisonError::into_inner);
        let end = log.skipped + log.lines.len();
        if from > end {
            // Lines the frame left out (more than a tab shows): start after the gap.
            log.lines.clear();
            log.skipped = from;
            log.lines.extend(lines);
        } else {
            log.lines.extend(lines.into_iter().skip(end - from));
        }
        if log.lines.len() > EVENT_LINES_KEPT {
            let extra = log.lines.len() - EVENT_LINES_KEPT;
            log.lines.drain(..extra);
            log.skipped += extra;
        }
        EventLines {
            log: self.lines.clone(),
            len: log.skipped + log.lines.len(),
        }
    }

    /// Converts the events the log has not seen yet and returns every line up to now.
    pub fn catch_up(&mut self, sim: &Simulation) -> EventLines {
        let events = sim.events();
        let seen = {
            let log = self.lines.read().unwrap_or_else(PoisonError::into_inner);
            log.skipped + log.lines.len()
        };
        if seen > events.len() {
            // Not the simulation this log was reading: start over rather than mix two.
            *self = EventLog::default();
        }
        let mut log = self.lines.write().unwrap_or_else(PoisonError::into_inner);
        let seen = log.skipped + log.lines.len();
        log.lines.extend(events[seen..].iter().map(EventLine::of));
        EventLines {
            log: self.lines.clone(),
            len: log.skipped + log.lines.len(),
        }
    }
}

/// How long Karpenter's latest disruption decision stays on show (simulated time).
const DECISION_SHOWN_MS: i64 = 90_000;

/// Reads the engine's state into a snapshot, with a log of its own (see [`take_with`]).
pub fn take(sim: &Simulation) -> Snapshot {
    take_with(sim, &mut EventLog::default())
}

/// Reads the engine's state into a snapshot; `events` is the simulation's log, which
/// converts only the events that happened since the last snapshot.
pub fn take_with(sim: &Simulation, events: &mut EventLog) -> Snapshot {
    let now = sim.now() as i64;
    let mut pending = Vec::new();
    let mut per_node: BTreeMap<usize, Vec<PodChip>> = BTreeMap::new();
    let mut requested: BTreeMap<usize, (i64, i64)> = BTreeMap::new();
    let (mut running, mut pods_pending) = (0, 0);
    for pod in sim.pods().iter().filter(|p| p.is_active()) {
        let chip = PodChip {
            key: pod.key(),
            name: pod.name.clone(),
            owner: pod.owner_string(),
            colour: pod.workload % WORKLOAD_COLOURS,
            daemon: pod.is_daemon(),
            cpu_milli: pod.requests.cpu(),
            memory: pod.requests.memory(),
            reason: pod
                .scheduler_message
                .clone()
                .or_else(|| pod.karpenter_message.clone())
                .map(|s| match (&pod.scheduler_message, &pod.karpenter_message) {
                    (Some(k), Some(c)) if k != c => format!("{k}\n{c}"),
                    _ => s,
                }),
            nominated: pod.nominated.clone(),
        };
        match pod.node {
            Some(n) => {
                running += 1;
                let r = requested.entry(n).or_default();
                r.0 += pod.requests.cpu();
                r.1 += pod.requests.memory();
                per_node.entry(n).or_default().push(chip);
            }
            None => {
                pods_pending += 1;
                pending.push(chip);
            }
        }
    }

    let pools: Vec<_> = sim.node_pools().collect();
    let mut lanes: Vec<Lane> = pools
        .iter()
        .enumerate()
        .map(|(i, (np, deleted))| Lane {
            kind: LaneKind::NodePool {
                name: np.name.clone(),
                weight: np.weight,
                labels: np
                    .template_labels
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
                taints: np
                    .taints
                    .iter()
                    .map(|t| format!("{}={}:{}", t.key, t.value, t.effect.as_str()))
                    .collect(),
                requirements: np.requirements.iter().map(requirement_text).collect(),
                limits: Vec::new(),
                deleted: *deleted,
                not_ready: sim.node_pool_not_ready(i),
            },
            nodes: Vec::new(),
        })
        .collect();
    let mut fixed = Lane {
        kind: LaneKind::Fixed,
        nodes: Vec::new(),
    };
    let mut pool_usage = vec![(kpg_core::resources::Resources::ZERO, 0i64); pools.len()];
    let mut summary = Summary {
        pods_pending,
        pods_running: running,
        ..Summary::default()
    };

    for (i, node) in sim.nodes().iter().enumerate() {
        if node.deleted {
            continue;
        }
        let (cpu_req, mem_req) = requested.get(&i).copied().unwrap_or_default();
        summary.nodes += 1;
        summary.cpu_requested_milli += cpu_req;
        summary.memory_requested += mem_req;
        summary.cpu_allocatable_milli += node.allocatable.cpu();
        summary.memory_allocatable += node.allocatable.memory();
        summary.cost_per_hour += node.price;
        let cordoned = node.taints.iter().any(|t| {
            t.key == "node.kubernetes.io/unschedulable" || t.key == "karpenter.sh/disrupted"
        });
        let state = match node.state {
            NodeState::Launching | NodeState::Launched => CardState::Launching,
            NodeState::Registered => CardState::Registering,
            NodeState::Ready if node.conditions.contains_key("Ready") => CardState::NotReady,
            NodeState::Ready if cordoned => CardState::Cordoned,
            NodeState::Ready => CardState::Ready,
            NodeState::Deleting => CardState::Deleting,
        };
        let mut pods = per_node.remove(&i).unwrap_or_default();
        // Daemons first, then by workload, so a node's chips read in a stable order.
        pods.sort_by(|a, b| (!a.daemon, a.colour, &a.key).cmp(&(!b.daemon, b.colour, &b.key)));
        let labels = node
            .nodepool
            .and_then(|p| pools.get(p))
            .map(|(np, _)| {
                node.labels
                    .iter()
                    .filter(|(k, _)| np.template_labels.contains_key(*k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let card = NodeCard {
            labels,
            name: node.name.clone(),
            nodeclaim: node.nodeclaim.clone(),
            instance_type: node.instance_type.clone(),
            zone: node.zone.clone(),
            capacity_type: node.capacity_type,
            arch: node.arch.clone(),
            price_per_hour: node.price,
            cpu_requested_milli: cpu_req,
            cpu_allocatable_milli: node.allocatable.cpu(),
            memory_requested: mem_req,
            memory_allocatable: node.allocatable.memory(),
            max_pods: node.allocatable.pods(),
            state,
            created_at_ms: node.created_at as i64 - node.age_at_start as i64,
            pod_count: pods.len(),
            pods,
            fate: if node.reclaim_at.is_some() && node.reservation.is_some() {
                Some(Fate::ReservationInterrupted)
            } else if node.reclaim_at.is_some() {
                Some(Fate::SpotInterrupted)
            } else if let Some(reason) = node.disruption {
                Some(Fate::Disrupting(reason.as_str().into()))
            } else if node.state == NodeState::Deleting
                && node.expire_at.is_some_and(|t| t as i64 <= now)
            {
                Some(Fate::Expired)
            } else if let Some((kind, (status, _))) = node.conditions.iter().next() {
                // The condition repair acts on first, else the first one not `True`.
                let due = sim.repair_due(i);
                let condition = match &due {
                    Some((kind, status, _)) => format!("{kind}={status}"),
                    None => format!("{kind}={status}"),
                };
                Some(Fate::Unhealthy {
                    condition,
                    repair_in_ms: sim.repair_at(i).map(|at| at as i64 - now),
                    gate_off: !sim.karpenter().gate(kpg_core::karpenter::Gate::NodeRepair),
                })
            } else {
                node.drifted
                    .map(|(_, reason)| Fate::Drifted(reason.as_str().into()))
            },
            replaces: node.replaces.clone(),
        };
        match node.nodepool {
            Some(p) if p < lanes.len() => {
                let usage = &mut pool_usage[p];
                for (name, v) in node.capacity.iter() {
                    let mut r = usage.0;
                    r.set(name, r.get(name) + v);
                    usage.0 = r;
                }
                usage.1 += 1;
                lanes[p].nodes.push(card);
            }
            _ => fixed.nodes.push(card),
        }
    }
    for (lane, ((np, _), usage)) in lanes.iter_mut().zip(pools.iter().zip(&pool_usage)) {
        if let LaneKind::NodePool { limits, .. } = &mut lane.kind {
            for name in ResourceName::ALL {
                if let Some(limit) = np.limits.resources[name as usize] {
                    let used = usage.0.get(name);
                    let (used_text, limit_text) = amounts(name, used, limit);
                    limits.push(LimitGauge {
                        resource: name.as_str().into(),
                        used,
                        limit,
                        used_text,
                        limit_text,
                    });
                }
            }
            if let Some(limit) = np.limits.nodes {
                limits.push(LimitGauge {
                    resource: "nodes".into(),
                    used: usage.1,
                    limit,
                    used_text: usage.1.to_string(),
                    limit_text: limit.to_string(),
                });
            }
        }
    }
    // A replacement goes right after the node it replaces, so the swap reads side by side.
    for lane in lanes.iter_mut() {
        let mut i = 0;
        while i < lane.nodes.len() {
            let target = lane.nodes[i]
                .replaces
                .first()
                .and_then(|old| lane.nodes.iter().position(|c| &c.name == old));
            match target {
                Some(t) if t + 1 != i && t != i => {
                    let card = lane.nodes.remove(i);
                    let at = if t < i { t + 1 } else { t };
                    lane.nodes.insert(at, card);
                    if at > i {
                        continue;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    // A deleted pool with no nodes left has nothing to show.
    lanes.retain(|l| {
        !matches!(l.kind, LaneKind::NodePool { deleted: true, .. }) || !l.nodes.is_empty()
    });
    if !fixed.nodes.is_empty() {
        lanes.insert(0, fixed);
    }
    summary.decision = sim
        .events()
        .iter()
        .rev()
        .take_while(|e| now - e.time as i64 <= DECISION_SHOWN_MS)
        .find(|e| matches!(e.kind, EventKind::Disrupting(_)))
        .map(|e| e.kind.to_string());
    let pending_groups = pending_groups(&pending);
    if pending.len() > PENDING_CHIP_LIMIT {
        pending = Vec::new();
    }
    Snapshot {
        time_ms: now,
        summary,
        lanes,
        pending,
        pending_groups,
        events: events.catch_up(sim),
        notes: sim.notes().to_vec(),
    }
}

/// The pending pods by workload, in the order their first pods wait.
fn pending_groups(pending: &[PodChip]) -> Vec<PendingGroup> {
    let mut groups: Vec<PendingGroup> = Vec::new();
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for chip in pending {
        let owner = chip.owner.as_deref().unwrap_or(&chip.key);
        match index.get(owner) {
            Some(&i) => groups[i].pods += 1,
            None => {
                index.insert(owner, groups.len());
                groups.push(PendingGroup {
                    owner: owner.to_string(),
                    colour: chip.colour,
                    pods: 1,
                    first: chip.clone(),
                });
            }
        }
    }
    groups
}

/// `instance-type In m7i-flex.large, t3.small` (well-known prefixes dropped: a lane is narrow).
pub fn requirement_text(r: &NodeSelectorRequirement) -> String {
    let key = r
        .key
        .rsplit_once('/')
        .filter(|(domain, _)| {
            matches!(
                *domain,
                "karpenter.sh"
                    | "karpenter.k8s.aws"
                    | "kubernetes.io"
                    | "node.kubernetes.io"
                    | "topology.kubernetes.io"
            )
        })
        .map_or(r.key.as_str(), |(_, k)| k);
    let mut s = format!("{key} {}", r.operator.as_str());
    if !r.values.is_empty() {
        s.push(' ');
        s.push_str(&r.values.join(", "));
    }
    if let Some(m) = r.min_values {
        s.push_str(&format!(" (minValues {m})"));
    }
    s
}

/// `$0.0123` with enough digits to tell small spot prices apart.
pub fn dollars(micro: i64) -> String {
    let d = micro as f64 / 1e6;
    if d.abs() >= 100.0 {
        format!("${d:.2}")
    } else {
        format!("${d:.4}")
    }
}

/// `$1,234.56`: a month (730 hours, as AWS's calculator and eks-node-viewer count it).
pub fn dollars_per_month(micro_per_hour: i64) -> String {
    let cents = (micro_per_hour as i128 * 730 + 5_000) / 10_000;
    let (whole, frac) = (cents / 100, cents % 100);
    let digits = whole.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("${grouped}.{frac:02}")
}

/// 12345 → "12,345" (the terminal's formatter: one rule for every count on the page).
pub fn count(n: usize) -> String {
    kpg_kubectl::format::thousands(n as u64)
}

/// `0:23`, `12:05`, `1:02:03`.
pub fn clock(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// The instant a learner typed to go to: the clock's own form (`2:30`, `1:02:03`) or a
/// Go duration (`150s`, `2m30s`, `1h`), as the scenario's `until` takes it. A bare number
/// is refused: seconds or minutes, it would be a guess.
pub fn parse_clock(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.contains(':') {
        let parts: Vec<&str> = text.split(':').collect();
        if parts.len() > 3 || parts.iter().any(|p| p.is_empty() || p.len() > 6) {
            return None;
        }
        let mut seconds: i64 = 0;
        for (i, p) in parts.iter().enumerate() {
            if !p.bytes().all(|b| b.is_ascii_digit()) || (i > 0 && p.len() != 2) {
                return None;
            }
            let v: i64 = p.parse().ok()?;
            if i > 0 && v >= 60 {
                return None;
            }
            seconds = seconds.checked_mul(60)?.checked_add(v)?;
        }
        return seconds.checked_mul(1000);
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    kpg_core::duration::parse(text)
        .ok()
        .and_then(|ms| i64::try_from(ms).ok())
}

/// `1.5`, `0.4` vCPU.
pub fn cores(milli: i64) -> String {
    let v = milli as f64 / 1000.0;
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}

const GI: i64 = 1 << 30;
const MI: i64 = 1 << 20;

/// `6.5Gi`, `6Gi`, `512Mi`: Gi from one Gi up, Mi below.
pub fn bytes(b: i64) -> String {
    bytes_in(b, b >= GI)
}

/// `b` in Gi (one decimal) or Mi (whole), a whole number of the unit without decimals.
fn bytes_in(b: i64, gi: bool) -> String {
    let (unit, suffix, decimals) = if gi { (GI, "Gi", 1) } else { (MI, "Mi", 0) };
    if b % unit == 0 {
        format!("{}{suffix}", b / unit)
    } else {
        format!("{:.decimals$}{suffix}", b as f64 / unit as f64)
    }
}

/// Two amounts of memory side by side in one unit, the one [`bytes`] gives the larger:
/// `118.3Gi / 4000Gi`, not `121182Mi / 4000Gi`.
pub fn bytes_pair(a: i64, b: i64) -> (String, String) {
    let gi = a.max(b) >= GI;
    (bytes_in(a, gi), bytes_in(b, gi))
}

/// Two amounts of CPU side by side in one unit: cores (`1.5 / 100`) once either reaches a
/// core, millicores (`250m / 500m`) while both are below.
pub fn cores_pair(a: i64, b: i64) -> (String, String) {
    if a.max(b) >= 1000 {
        (cores(a), cores(b))
    } else {
        (format!("{a}m"), format!("{b}m"))
    }
}

/// What a NodePool's limit gauge says: the amount in use and the limit, in one unit.
pub fn amounts(name: ResourceName, used: i64, limit: i64) -> (String, String) {
    match name {
        ResourceName::Cpu => cores_pair(used, limit),
        ResourceName::Memory | ResourceName::EphemeralStorage => bytes_pair(used, limit),
        _ => (
            kpg_core::resources::Resources::format_amount(name, used),
            kpg_core::resources::Resources::format_amount(name, limit),
        ),
    }
}

/// Percentage for a bar, clamped to 0..=100.
pub fn percent(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        0.0
    } else {
        (part as f64 * 100.0 / whole as f64).clamp(0.0, 100.0)
    }
}

impl Snapshot {
    /// Where each pod with a chip sits: on a node card (its name), or in the pending tray.
    fn chip_places(&self) -> BTreeMap<&str, Option<&str>> {
        let on_nodes = self.lanes.iter().flat_map(|lane| {
            lane.nodes.iter().flat_map(|node| {
                node.pods
                    .iter()
                    .map(|pod| (pod.key.as_str(), Some(node.name.as_str())))
            })
        });
        let pending = self.pending.iter().map(|pod| (pod.key.as_str(), None));
        on_nodes.chain(pending).collect()
    }

    /// The pods whose chip changes place from this cluster to `next`: bound from the tray,
    /// moved to another node, back in the tray. These are what the page slides; a pod that
    /// appears, goes, or keeps its place is not.
    pub fn chips_moved_to(&self, next: &Snapshot) -> Vec<String> {
        let before = self.chip_places();
        next.chip_places()
            .into_iter()
            .filter(|(key, place)| before.get(key).is_some_and(|was| was != place))
            .map(|(key, _)| key.to_string())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab_text(name: &str) -> String {
        std::fs::read_to_string(format!(
            "{}/../tests/labs/{name}.yaml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    fn lab(name: &str) -> Simulation {
        let loaded = kpg_manifests::load(&lab_text(name));
        assert!(!loaded.has_errors());
        Simulation::new(loaded.scenario).unwrap()
    }

    #[test]
    fn a_typed_instant_reads_as_the_clock_shows_it_or_as_a_go_duration() {
        assert_eq!(parse_clock("2:30"), Some(150_000));
        assert_eq!(parse_clock(" 0:05 "), Some(5_000));
        assert_eq!(parse_clock("1:02:03"), Some(3_723_000));
        assert_eq!(parse_clock("150s"), Some(150_000));
        assert_eq!(parse_clock("2m30s"), Some(150_000));
        assert_eq!(parse_clock("1h"), Some(3_600_000));
        for t in [
            "2:3", "2:60", "1:2:3:4", ":30", "150", "", "soon", "-1m", "2:3x",
        ] {
            assert_eq!(parse_clock(t), None, "{t:?}");
        }
        // What the clock shows reads back as the same instant.
        for ms in [0, 59_000, 61_000, 3_599_000, 3_723_000] {
            assert_eq!(parse_clock(&clock(ms)), Some(ms));
        }
    }

    #[test]
    fn a_lane_groups_its_nodes_by_type_capacity_and_state() {
        let mut sim = lab("seed002-consolidation");
        sim.run_until(30_000);
        let snap = take(&sim);
        let fixed = &snap.lanes[0];
        assert_eq!(fixed.kind, LaneKind::Fixed);
        let groups = fixed.groups();
        assert_eq!(groups.len(), 1, "{groups:?}");
        assert_eq!(
            (groups[0].instance_type.as_str(), groups[0].nodes),
            ("m7i-flex.large", 2)
        );
        assert_eq!(
            groups[0].price_per_hour,
            fixed.nodes.iter().map(|n| n.price_per_hour).sum::<i64>()
        );
        let platform = snap
            .lanes
            .iter()
            .find(|l| l.key() == "pool/platform")
            .unwrap();
        let pods: usize = platform.groups().iter().map(|g| g.pods).sum();
        let nodes: usize = platform.groups().iter().map(|g| g.nodes).sum();
        assert_eq!(nodes, platform.nodes.len());
        assert_eq!(
            pods,
            platform.nodes.iter().map(|n| n.pods.len()).sum::<usize>()
        );
        // One group per instance type, capacity type and state: a node that changes state
        // moves to its own row.
        let mut mixed = platform.clone();
        mixed.nodes[0].state = CardState::Deleting;
        assert_eq!(mixed.groups().len(), platform.groups().len() + 1);
    }

    #[test]
    fn only_the_pods_that_change_place_slide() {
        let mut sim = lab("seed002-limits");
        let start = take(&sim);
        sim.run_to_rest(600_000);
        let end = take(&sim);
        let place = |s: &Snapshot, key: &str| {
            s.lanes
                .iter()
                .flat_map(|l| &l.nodes)
                .find(|n| n.pods.iter().any(|p| p.key == key))
                .map(|n| n.name.clone())
        };
        let moved = start.chips_moved_to(&end);
        // The replicas pending at the start that run at the end slid from the tray to a node.
        let mut bound: Vec<String> = start
            .pending
            .iter()
            .filter(|p| place(&end, &p.key).is_some())
            .map(|p| p.key.clone())
            .collect();
        bound.sort();
        assert!(!bound.is_empty());
        assert_eq!(moved, bound);
        // Those already on the fixed nodes kept their place, and pods the end made (the
        // DaemonSet's, on nodes that did not exist) have no place to slide from.
        for lane in &start.lanes {
            for pod in lane.nodes.iter().flat_map(|n| &n.pods) {
                assert!(!moved.contains(&pod.key), "{} kept its node", pod.key);
            }
        }
        assert!(start.chips_moved_to(&start).is_empty());
        assert!(end.chips_moved_to(&start).iter().all(|k| bound.contains(k)));
    }

    #[test]
    fn limits_lab_fills_the_platform_lane_up_to_its_limit() {
        let mut sim = lab("seed002-limits");
        let start = take(&sim);
        assert_eq!(start.lanes.len(), 3, "fixed, service, platform");
        assert_eq!(start.lanes[0].kind, LaneKind::Fixed);
        assert_eq!(
            start.summary.pods_pending, 6,
            "kube-scheduler binds two replicas to the fixed nodes at once"
        );
        sim.run_to_rest(600_000);
        let end = take(&sim);
        let platform = end
            .lanes
            .iter()
            .find(|l| l.key() == "pool/platform")
            .unwrap();
        assert_eq!(platform.nodes.len(), 4);
        assert!(
            platform
                .nodes
                .iter()
                .all(|n| n.instance_type == "t3.small" && n.state == CardState::Ready)
        );
        let LaneKind::NodePool { limits, taints, .. } = &platform.kind else {
            panic!()
        };
        assert_eq!(
            (limits[0].resource.as_str(), limits[0].used, limits[0].limit),
            ("cpu", 8000, 8000)
        );
        assert!(taints.is_empty());
        assert!(matches!(
            &platform.kind,
            LaneKind::NodePool {
                not_ready: None,
                ..
            }
        ));
        assert_eq!(end.pending.len(), 2);
        assert!(
            end.pending
                .iter()
                .all(|p| p.reason.as_deref().is_some_and(|r| r.contains("limit")))
        );
        assert_eq!(end.summary.nodes, 6);
        // What `kpg simulate` bills for the same six nodes (tests/golden/seed002-limits.json,
        // costPerHour 0.26662): each card its own price, the summary their sum.
        let fixed = &end.lanes[0];
        assert_eq!(
            fixed
                .nodes
                .iter()
                .map(|n| (n.instance_type.as_str(), n.price_per_hour))
                .collect::<Vec<_>>(),
            [("m7i-flex.large", 117_710); 2],
            "the node group's on-demand m7i-flex.large at $0.11771/h"
        );
        assert!(
            platform.nodes.iter().all(|n| n.price_per_hour == 7_800),
            "spot t3.small at $0.0078/h"
        );
        assert_eq!(end.summary.cost_per_hour, 2 * 117_710 + 4 * 7_800);
    }

    #[test]
    fn the_cost_counts_the_nodes_still_billed_and_not_the_removed_ones() {
        let mut sim = lab("seed002-scale-in");
        sim.run_until(150_000);
        let busy = take(&sim);
        // tests/golden/seed002-scale-out.json: two fixed nodes and two spot t3.small.
        assert_eq!(busy.summary.nodes, 4);
        assert_eq!(busy.summary.cost_per_hour, 2 * 117_710 + 2 * 7_800);
        // The Deployment goes at 3m; consolidation removes the two empty platform nodes and
        // only the fixed nodes are billed (tests/golden/seed002-scale-in.json: 0.23542).
        sim.run_to_rest(600_000);
        let rest = take(&sim);
        assert!(
            sim.nodes().iter().filter(|n| n.deleted).count() >= 2,
            "the engine keeps the removed nodes, marked deleted"
        );
        assert_eq!(rest.summary.nodes, 2);
        assert_eq!(rest.summary.cost_per_hour, 2 * 117_710);
    }

    #[test]
    fn a_pool_without_its_node_class_says_so() {
        let text = lab_text("seed000-hello-world").replace(
            "name: default\nspec:\n  amiSelectorTerms",
            "name: other\nspec:\n  amiSelectorTerms",
        );
        let loaded = kpg_manifests::load(&text);
        let sim = Simulation::new(loaded.scenario).unwrap();
        let s = take(&sim);
        let LaneKind::NodePool { not_ready, .. } = &s.lanes[0].kind else {
            panic!("{:?}", s.lanes)
        };
        assert_eq!(
            not_ready.as_deref(),
            Some("EC2NodeClass \"default\" not found")
        );
    }

    #[test]
    fn launching_nodes_show_as_launching_with_their_pods_nominated() {
        let mut sim = lab("seed002-scale-out");
        sim.run_until(15_000);
        let s = take(&sim);
        let platform = s.lanes.iter().find(|l| l.key() == "pool/platform").unwrap();
        assert!(!platform.nodes.is_empty());
        assert!(
            platform
                .nodes
                .iter()
                .all(|n| n.state == CardState::Launching)
        );
        assert!(s.pending.iter().any(|p| p.nominated.is_some()));
    }

    #[test]
    fn the_event_log_converts_each_event_once_and_its_snapshots_share_it() {
        let mut sim = lab("seed002-scale-out");
        let mut log = EventLog::default();
        sim.run_until(15_000);
        let early = take_with(&sim, &mut log);
        sim.run_until(600_000);
        let later = take_with(&sim, &mut log);
        assert!(!early.events.is_empty() && later.events.len() > early.events.len());
        assert!(
            Arc::ptr_eq(&early.events.log, &later.events.log),
            "one log, appended to"
        );
        let all = later.events.to_vec();
        assert_eq!(
            early.events.to_vec(),
            all[..early.events.len()],
            "an earlier snapshot still sees the lines it saw"
        );
        assert_eq!(later.events, take(&sim).events, "as if converted afresh");
        assert_eq!(
            later.events.latest(2),
            [all[all.len() - 1].clone(), all[all.len() - 2].clone()]
        );
        // The lines say what the report's events say.
        let report = sim.report();
        assert_eq!(report.events.len(), all.len());
        for (line, e) in all.iter().zip(&report.events) {
            assert_eq!(
                (
                    line.warning,
                    &*line.reason,
                    line.object.as_str(),
                    line.message.as_str()
                ),
                (
                    e.kind == "Warning",
                    e.reason.as_str(),
                    e.object.as_str(),
                    e.message.as_str()
                )
            );
        }
    }

    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(count(7), "7");
        assert_eq!(count(1234), "1,234");
        assert_eq!(count(123_456_789), "123,456,789");
    }

    #[test]
    fn money_and_time_read_like_eks_node_viewer() {
        assert_eq!(dollars(20_800), "$0.0208");
        assert_eq!(dollars_per_month(1_000_000), "$730.00");
        assert_eq!(dollars_per_month(25_082_000), "$18,309.86");
        assert_eq!(clock(83_000), "1:23");
        assert_eq!(clock(3_723_000), "1:02:03");
        assert_eq!(cores(1500), "1.5");
        assert_eq!(cores(2000), "2");
        assert_eq!(bytes(6 * 1024 * 1024 * 1024), "6Gi");
        assert_eq!(bytes(6 * 1024 * 1024 * 1024 + 512 * 1024 * 1024), "6.5Gi");
        assert_eq!(bytes(512 * 1024 * 1024), "512Mi");
        assert_eq!(percent(5, 0), 0.0);
        assert_eq!(percent(150, 100), 100.0);
    }

    #[test]
    fn a_gauge_says_both_amounts_in_one_unit() {
        const GI: i64 = 1 << 30;
        const MI: i64 = 1 << 20;
        assert_eq!(
            amounts(ResourceName::Memory, 121_182 * MI, 4000 * GI),
            ("118.3Gi".into(), "4000Gi".into())
        );
        assert_eq!(
            amounts(ResourceName::Memory, 100 * MI, 512 * MI),
            ("100Mi".into(), "512Mi".into())
        );
        assert_eq!(
            amounts(ResourceName::Memory, 0, GI),
            ("0Gi".into(), "1Gi".into())
        );
        assert_eq!(
            amounts(ResourceName::EphemeralStorage, 1536 * MI, 20 * GI),
            ("1.5Gi".into(), "20Gi".into())
        );
        assert_eq!(
            amounts(ResourceName::Cpu, 1500, 100_000),
            ("1.5".into(), "100".into())
        );
        assert_eq!(
            amounts(ResourceName::Cpu, 250, 500),
            ("250m".into(), "500m".into())
        );
        assert_eq!(
            amounts(ResourceName::NvidiaGpu, 2, 8),
            ("2".into(), "8".into())
        );
        assert_eq!(
            bytes_pair(512 * MI, 7 * GI + 300 * MI),
            ("0.5Gi".into(), "7.3Gi".into())
        );
    }

    /// A NodePool's memory limit in Gi and its nodes' memory in Mi read in one unit on the lane.
    #[test]
    fn a_lane_s_limit_gauge_reads_used_and_limit_in_one_unit() {
        let text = std::fs::read_to_string(format!(
            "{}/../tests/labs/seed002-limits.yaml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .replace("  limits:\n    cpu: \"8\"", "  limits:\n    memory: 4000Gi");
        let loaded = kpg_manifests::load(&text);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let mut sim = Simulation::new(loaded.scenario).unwrap();
        sim.run_to_rest(600_000);
        let s = take(&sim);
        let gauge = s
            .lanes
            .iter()
            .find_map(|l| match &l.kind {
                LaneKind::NodePool { name, limits, .. } if name == "platform" => {
                    limits.first().cloned()
                }
                _ => None,
            })
            .expect("the platform pool's memory limit");
        assert_eq!(gauge.resource, "memory");
        assert!(
            gauge.used > 0 && gauge.used % (1 << 30) != 0,
            "{}",
            gauge.used
        );
        assert_eq!(gauge.limit_text, "4000Gi");
        assert!(
            gauge.used_text.ends_with("Gi") && gauge.used_text.contains('.'),
            "{} / {}",
            gauge.used_text,
            gauge.limit_text
        );
    }

    /// Thousands of pending pods travel and show as one row per workload; a few stay chips.
    #[test]
    fn many_pending_pods_are_told_by_workload() {
        let text = lab_text("seed002-limits").replace("replicas: 8", "replicas: 500");
        let loaded = kpg_manifests::load(&text);
        let mut sim = Simulation::new(loaded.scenario).unwrap();
        sim.run_until(300_000);
        let s = take(&sim);
        assert!(s.pending.is_empty(), "no chip each past the limit");
        let busybox = s
            .pending_groups
            .iter()
            .find(|g| g.owner == "Deployment/busybox")
            .expect("the Deployment's pods, grouped");
        assert_eq!(busybox.pods, s.summary.pods_pending);
        assert!(busybox.pods > PENDING_CHIP_LIMIT);
        assert!(
            busybox.first.reason.is_some(),
            "with why the first one waits"
        );

        let few = take(&{
            let loaded = kpg_manifests::load(&lab_text("seed002-limits"));
            let mut sim = Simulation::new(loaded.scenario).unwrap();
            sim.run_until(300_000);
            sim
        });
        assert_eq!(few.pending.len(), 2, "two pending pods are two chips");
        assert_eq!(few.pending_groups.iter().map(|g| g.pods).sum::<usize>(), 2);
    }
}

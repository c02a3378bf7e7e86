//! Two runs side by side: one run's outcome at an instant in the figures a comparison puts
//! next to another's (cost, nodes by NodePool, instance type and capacity type, pods,
//! disruptions), the workloads whose pods landed differently, and what a change set off in a
//! run: the pods it left pending, the nodes that drifted, the disruption commands.
//!
//! `kpg compare` and the page's compare view both read these, so the two agree on every
//! figure. Money stays in micro-dollars here; consumers format it.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::catalog::{CapacityType, MicroDollars};
use crate::disruption::DriftReason;
use crate::model::Millis;
use crate::report::Report;
use crate::sim::Simulation;
use crate::sim::event::{Disruption, EventKind};

/// How many nodes (or pods) of each kind, by name.
pub type Counts = BTreeMap<String, u32>;

/// Hours in AWS's month (what its pricing pages multiply by).
pub const HOURS_PER_MONTH: i64 = 730;

/// One run at an instant.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub at: Millis,
    /// What the nodes that exist cost per hour.
    pub cost_per_hour: MicroDollars,
    /// The part of `cost_per_hour` that is EKS Auto Mode's management fee.
    #[serde(default)]
    pub management_fee_per_hour: MicroDollars,
    /// What the nodes cost from time 0 to `at`.
    pub accrued: MicroDollars,
    pub nodes: u32,
    /// Karpenter's nodes by NodePool; fixed nodes under `nodeGroup/NAME`.
    pub nodes_by_nodepool: Counts,
    pub nodes_by_instance_type: Counts,
    /// `on-demand`, `spot`.
    pub nodes_by_capacity_type: Counts,
    pub pods_running: u32,
    pub pods_pending: u32,
    /// Disruption commands carried out or started (each `Disrupting` event), and the nodes
    /// they took.
    pub disruptions: u32,
    pub nodes_disrupted: u32,
}

impl Outcome {
    /// The run as it is now; `report` is `sim.report()` (a caller that already has it
    /// passes it in rather than building it twice).
    pub fn of(sim: &Simulation, report: &Report) -> Outcome {
        let last = sim.history().last().copied().unwrap_or_default();
        let mut out = Outcome {
            at: sim.now(),
            cost_per_hour: last.cost_per_hour,
            management_fee_per_hour: sim
                .nodes()
                .iter()
                .filter(|n| !n.deleted)
                .map(|n| n.management_fee)
                .sum(),
            accrued: sim.accrued_cost(),
            nodes: last.nodes,
            pods_running: last.running,
            pods_pending: last.pending,
            ..Outcome::default()
        };
        for node in &report.nodes {
            *out.nodes_by_nodepool.entry(pool_of(node)).or_insert(0) += 1;
            *out.nodes_by_instance_type
                .entry(node.instance_type.clone())
                .or_insert(0) += 1;
            *out.nodes_by_capacity_type
                .entry(node.capacity_type.clone())
                .or_insert(0) += 1;
        }
        for event in sim.events() {
            if let EventKind::Disrupting(d) = &event.kind {
                out.disruptions += 1;
                out.nodes_disrupted += d.candidates.len() as u32;
            }
        }
        out
    }

    /// The cost per hour over AWS's month.
    pub fn cost_per_month(&self) -> MicroDollars {
        self.cost_per_hour * HOURS_PER_MONTH
    }
}

fn pool_of(node: &crate::report::NodeReport) -> String {
    match (&node.nodepool, &node.node_group) {
        (Some(p), _) => p.clone(),
        (None, Some(g)) => format!("nodeGroup/{g}"),
        (None, None) => String::from("(none)"),
    }
}

/// B − A in the figures that have a sign.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    pub cost_per_hour: MicroDollars,
    pub cost_per_month: MicroDollars,
    pub accrued: MicroDollars,
    pub nodes: i64,
    pub pods_running: i64,
    pub pods_pending: i64,
    pub disruptions: i64,
}

impl Difference {
    pub fn between(a: &Outcome, b: &Outcome) -> Difference {
        Difference {
            cost_per_hour: b.cost_per_hour - a.cost_per_hour,
            cost_per_month: b.cost_per_month() - a.cost_per_month(),
            accrued: b.accrued - a.accrued,
            nodes: i64::from(b.nodes) - i64::from(a.nodes),
            pods_running: i64::from(b.pods_running) - i64::from(a.pods_running),
            pods_pending: i64::from(b.pods_pending) - i64::from(a.pods_pending),
            disruptions: i64::from(b.disruptions) - i64::from(a.disruptions),
        }
    }

    /// Nothing a comparison shows differs.
    pub fn is_none(&self) -> bool {
        *self == Difference::default()
    }
}

/// A workload whose pods are placed differently: where its pods are in A and in B, by place
/// (`NODEPOOL INSTANCE-TYPE CAPACITY-TYPE`, `nodeGroup/NAME INSTANCE-TYPE`, or a phase).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    /// `Deployment/default/web`, or `Pod/NAMESPACE/NAME` for a pod no workload owns.
    pub owner: String,
    pub a: Counts,
    pub b: Counts,
    /// One of its pods in each run (`namespace/name`), for `kpg explain --pod` or the page's
    /// Explain.
    pub pod_in_a: Option<String>,
    pub pod_in_b: Option<String>,
}

/// Where each workload's pods are: owner → (place → pods, its first pod).
pub fn placements(report: &Report) -> BTreeMap<String, (Counts, String)> {
    let nodes: BTreeMap<&str, String> = report
        .nodes
        .iter()
        .map(|n| {
            let place = match (&n.nodepool, &n.node_group) {
                (Some(p), _) => format!("{p} {} {}", n.instance_type, n.capacity_type),
                (None, Some(g)) => format!("nodeGroup/{g} {}", n.instance_type),
                (None, None) => n.instance_type.clone(),
            };
            (n.name.as_str(), place)
        })
        .collect();
    let mut out: BTreeMap<String, (Counts, String)> = BTreeMap::new();
    for pod in &report.pods {
        let owner = pod
            .owner
            .clone()
            .unwrap_or_else(|| format!("Pod/{}/{}", pod.namespace, pod.name));
        let place = pod
            .node
            .as_deref()
            .and_then(|n| nodes.get(n).cloned())
            .unwrap_or_else(|| pod.phase.to_string());
        let (counts, _) = out
            .entry(owner)
            .or_insert_with(|| (Counts::new(), format!("{}/{}", pod.namespace, pod.name)));
        *counts.entry(place).or_insert(0) += 1;
    }
    out
}

/// The workloads whose pods are placed differently in `b` than in `a`, by owner.
pub fn differing_placements(a: &Report, b: &Report) -> Vec<Placement> {
    let (pa, pb) = (placements(a), placements(b));
    let owners: BTreeSet<&String> = pa.keys().chain(pb.keys()).collect();
    owners
        .into_iter()
        .filter(|o| pa.get(*o).map(|p| &p.0) != pb.get(*o).map(|p| &p.0))
        .map(|o| Placement {
            owner: o.clone(),
            a: pa.get(o).map(|p| p.0.clone()).unwrap_or_default(),
            b: pb.get(o).map(|p| p.0.clone()).unwrap_or_default(),
            pod_in_a: pa.get(o).map(|p| p.1.clone()),
            pod_in_b: pb.get(o).map(|p| p.1.clone()),
        })
        .collect()
}

/// The pending pods of one workload that Karpenter gives one reason for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// As in [`Placement::owner`].
    pub owner: String,
    pub pods: u32,
    /// Karpenter's reason (the pod's `message`), else kube-scheduler's; `None` when neither
    /// has said anything yet.
    pub message: Option<String>,
    /// One of those pods (`namespace/name`), for `kpg explain --pod`.
    pub pod: String,
}

/// The pods pending in `report`, by workload and reason, in the report's pod order.
pub fn pending(report: &Report) -> Vec<Pending> {
    let mut out: Vec<Pending> = Vec::new();
    for pod in report.pods.iter().filter(|p| p.phase == "Pending") {
        let owner = pod
            .owner
            .clone()
            .unwrap_or_else(|| format!("Pod/{}/{}", pod.namespace, pod.name));
        let message = pod
            .message
            .clone()
            .or_else(|| pod.scheduler_message.clone());
        match out
            .iter_mut()
            .find(|g| g.owner == owner && g.message == message)
        {
            Some(g) => g.pods += 1,
            None => out.push(Pending {
                owner,
                pods: 1,
                message,
                pod: format!("{}/{}", pod.namespace, pod.name),
            }),
        }
    }
    out
}

/// Where a drifted NodeClaim stands at the end of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriftState {
    /// Still there and still drifted.
    Drifted,
    /// Matches its NodePool and EC2NodeClass again.
    Resolved,
    /// Gone (replaced or deleted).
    Deleted,
}

impl DriftState {
    pub fn as_str(self) -> &'static str {
        match self {
            DriftState::Drifted => "drifted",
            DriftState::Resolved => "no longer drifted",
            DriftState::Deleted => "deleted",
        }
    }
}

/// A NodeClaim the engine found drifted (its first `Drifted` event), with its node and
/// NodePool as its `Created` and `Registered` events named them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drifted {
    pub at: Millis,
    pub nodeclaim: String,
    /// The Node, once it registered.
    pub node: Option<String>,
    pub node_pool: Option<String>,
    /// The instance it runs on, once launched.
    pub instance_type: Option<String>,
    pub reason: DriftReason,
    pub state: DriftState,
}

/// Every NodeClaim that drifted in the run, in the order it first drifted.
pub fn drifted(sim: &Simulation) -> Vec<Drifted> {
    let mut pools: BTreeMap<&str, &str> = BTreeMap::new();
    let mut nodes: BTreeMap<&str, &str> = BTreeMap::new();
    let mut types: BTreeMap<&str, &str> = BTreeMap::new();
    let mut out: Vec<Drifted> = Vec::new();
    for event in sim.events() {
        match &event.kind {
            EventKind::Created {
                nodeclaim,
                node_pool,
                ..
            } => {
                pools.insert(nodeclaim, node_pool);
            }
            EventKind::Registered { nodeclaim, node } => {
                nodes.insert(nodeclaim, node);
            }
            EventKind::Launched {
                nodeclaim,
                instance_type,
                ..
            } => {
                types.insert(nodeclaim, instance_type);
            }
            EventKind::Drifted { nodeclaim, reason } => {
                match out.iter_mut().find(|d| &d.nodeclaim == nodeclaim) {
                    Some(d) => d.state = DriftState::Drifted,
                    None => out.push(Drifted {
                        at: event.time,
                        nodeclaim: nodeclaim.clone(),
                        node: None,
                        node_pool: None,
                        instance_type: None,
                        reason: *reason,
                        state: DriftState::Drifted,
                    }),
                }
            }
            EventKind::DriftResolved { nodeclaim } => {
                if let Some(d) = out.iter_mut().find(|d| &d.nodeclaim == nodeclaim) {
                    d.state = DriftState::Resolved;
                }
            }
            EventKind::NodeClaimDeleted { nodeclaim, .. } => {
                if let Some(d) = out.iter_mut().find(|d| &d.nodeclaim == nodeclaim) {
                    d.state = DriftState::Deleted;
                }
            }
            _ => {}
        }
    }
    let pool_names: Vec<&str> = sim.node_pools().map(|(np, _)| np.name.as_str()).collect();
    for d in &mut out {
        let claim = d.nodeclaim.as_str();
        d.node = nodes.get(claim).map(|n| n.to_string());
        d.node_pool = pools.get(claim).map(|p| p.to_string());
        d.instance_type = types.get(claim).map(|t| t.to_string());
        // A node that existed at time zero (a snapshot's) was never created, launched or
        // registered in the run: the cluster still knows it, deleted or not.
        if d.node.is_none()
            && let Some(node) = sim.nodes().iter().find(|n| n.claim_name() == claim)
        {
            d.node = Some(node.name.clone());
            d.instance_type = Some(node.instance_type.clone());
            d.node_pool = node
                .nodepool
                .and_then(|p| pool_names.get(p))
                .map(|p| p.to_string());
        }
    }
    out
}

/// A replacement NodeClaim a disruption command launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    pub nodeclaim: String,
    /// What EC2 launched, once it did.
    pub launched: Option<(String, CapacityType)>,
}

/// A disruption command the controller executed (a `Disrupting` event), with the
/// replacement NodeClaims it launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub at: Millis,
    pub disruption: Disruption,
    /// The `DisruptionLaunching` NodeClaims the command created: the controller creates a
    /// command's replacements at the instant it executes it, right after its `Disrupting`
    /// event and before any other command's.
    pub replacements: Vec<Replacement>,
}

/// Every disruption command of the run, in order.
pub fn commands(sim: &Simulation) -> Vec<Command> {
    let mut out: Vec<Command> = Vec::new();
    let mut launched: BTreeMap<&str, (String, CapacityType)> = BTreeMap::new();
    for event in sim.events() {
        match &event.kind {
            EventKind::Disrupting(d) => out.push(Command {
                at: event.time,
                disruption: d.clone(),
                replacements: Vec::new(),
            }),
            EventKind::DisruptionLaunching { nodeclaim, .. } => {
                if let Some(c) = out.last_mut().filter(|c| c.at == event.time) {
                    c.replacements.push(Replacement {
                        nodeclaim: nodeclaim.clone(),
                        launched: None,
                    });
                }
            }
            EventKind::Launched {
                nodeclaim,
                instance_type,
                capacity_type,
                ..
            } => {
                launched.insert(nodeclaim, (instance_type.clone(), *capacity_type));
            }
            _ => {}
        }
    }
    for r in out.iter_mut().flat_map(|c| c.replacements.iter_mut()) {
        r.launched = launched.get(r.nodeclaim.as_str()).cloned();
    }
    out
}

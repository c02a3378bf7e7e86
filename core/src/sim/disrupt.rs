//! Karpenter's disruption controller on the simulated clock: which nodes are candidates, the
//! methods in their order (emptiness, drift, multi-node and single-node consolidation), the
//! scheduling simulation each decision rests on, the 15 s validation, and the execution of a
//! command (replacements first, then the candidates are deleted).
//!
//! Sources: `K@1.14.1:pkg/controllers/disruption/` (controller.go, types.go, helpers.go,
//! emptiness.go, drift.go, multinodeconsolidation.go, singlenodeconsolidation.go,
//! consolidation.go, validation.go, queue.go), as summarised in `karpenter-semantics.md` §5.
//! The rules that need no cluster (budgets, prices, hashes) are in [`crate::disruption`].
//!
//! The controller's state is [`Disruption`], which only this module touches. A pass (`decide`
//! and everything it calls) reads the cluster and changes nothing: it collects its findings
//! in a [`Pass`], which the controller's own poll or validation records and
//! [`Simulation::disruption_decision`] drops. The controller asks the provisioner for its
//! templates and node views and to create replacements, and hands candidates to the
//! termination controller; it never binds, evicts or drains a pod itself.

use super::event::{Decision, ObjectName, Rejection, TerminationCause};
use super::evidence::BalancedScore;
use super::provisioner::CandidateFill;
use super::*;
use crate::disruption::{DoNotDisrupt, Reason};
use crate::scheduling::topology::NodeFacts;
use evidence::Blocker;

/// Multi-node consolidation looks at no more than this many candidates at once.
const MAX_MULTI_NODE: usize = 100;

/// What a disruption pass saw. When a pass finds nothing, the controller does not look again
/// until this changes: Karpenter's "consolidated" memo. (Upstream also looks again after 5
/// minutes; the simulation is deterministic, so an unchanged cluster gives the same answer
/// and the clock can rest.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fingerprint {
    version: u64,
    consolidatable: usize,
    drifted: usize,
    repairable: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    /// Node repair (v1.15: a disruption method).
    Repair,
    Emptiness,
    /// Drift of a static NodePool's nodes (`staticdrift.go`).
    StaticDrift,
    Drift,
    MultiNode,
    SingleNode,
}

impl Method {
    fn as_str(self) -> &'static str {
        match self {
            Method::Repair => "Repair",
            Method::Emptiness => "Emptiness",
            Method::StaticDrift => "StaticDrift",
            Method::Drift => "Drift",
            Method::MultiNode => "MultiNodeConsolidation",
            Method::SingleNode => "SingleNodeConsolidation",
        }
    }
}

/// A replacement NodeClaim a command will launch.
#[derive(Clone, Debug)]
struct Replacement {
    template: Template,
    claim: scheduling::NewClaim,
}

impl Replacement {
    /// The replacement's instance-type options, cheapest (compatible offering) first.
    fn options_by_price(&self) -> Vec<&str> {
        let types = &self.template.instance_types;
        let mut named: Vec<(MicroDollars, &str)> = self
            .claim
            .options
            .iter()
            .filter_map(|&i| {
                scheduling::cheapest_offering(&types[i as usize], &self.claim.requirements, None)
                    .map(|o| (o.price, types[i as usize].name.as_str()))
            })
            .collect();
        named.sort();
        named.into_iter().map(|(_, n)| n).collect()
    }
}

/// A command the controller decided on.
#[derive(Clone, Debug)]
struct Plan {
    method: Method,
    reason: Reason,
    candidates: Vec<usize>,
    replacements: Vec<Replacement>,
    /// $/h saved: the candidates' prices minus the replacement's cheapest offering.
    savings: i64,
}

/// A command being executed: its replacements launch, then its candidates are deleted.
#[derive(Clone, Debug)]
struct Command {
    reason: Reason,
    candidates: Vec<usize>,
    replacements: Vec<usize>,
}

/// What the disruption controller would do now (see [`Simulation::disruption_decision`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisruptionDecision {
    /// `Emptiness`, `Drift`, `MultiNodeConsolidation` or `SingleNodeConsolidation`.
    pub method: &'static str,
    /// `Empty`, `Underutilized` or `Drifted`.
    pub reason: &'static str,
    /// The nodes it would disrupt.
    pub candidates: Vec<String>,
    /// How many NodeClaims it would launch first.
    pub replacements: usize,
    /// Micro-dollars per hour saved (consolidation).
    pub savings: i64,
}

/// A node the controller may disrupt, with what it knows of it.
#[derive(Clone, Debug)]
struct Candidate {
    node: usize,
    pool: usize,
    /// Pods that would have to move: active, not DaemonSet pods.
    pods: Vec<usize>,
    price: MicroDollars,
    consolidatable: bool,
    /// `RescheduleDisruptionCost` (v1.14): 1, plus the moving pods' positive eviction costs.
    reschedule_cost: f64,
    /// The sort key, highest first. v1.14: price / (1 + the pods' positive eviction costs);
    /// before: minus the disruption cost.
    score: f64,
}

impl Candidate {
    fn empty(&self) -> bool {
        self.pods.is_empty()
    }
}

/// What the scheduling simulation of a command concluded.
struct Simulated {
    /// What the simulation shared with the pass's others: its templates are the claims'.
    base: Rc<SimBase>,
    claims: Vec<scheduling::NewClaim>,
    /// Pods of the candidates that would not schedule, with why.
    failures: Vec<(usize, String)>,
}

/// The inputs every scheduling simulation of one disruption pass shares.
#[derive(Debug)]
struct SimBase {
    /// The cluster version it was built at.
    version: u64,
    by_node: Vec<Vec<usize>>,
    /// Pods Karpenter would provision for now, in the solver's queue order
    /// ([`Solver::order`]), so that a simulation only merges its candidates' pods in.
    ordered_pending: Vec<usize>,
    templates: Vec<Template>,
    /// Every node pods could go to, before the candidates are taken out.
    views: Vec<NodeView>,
    node_labels: BTreeMap<usize, NodeFacts>,
    /// Topology groups of every pod that could move, with every running pod counted.
    prepared: scheduling::PreparedTopology,
    /// The cluster's pods followed by CapacityBuffers' virtual pods, when there are any:
    /// `GetPendingPods` gives every simulation the virtual pods, so capacity kept for a
    /// buffer is not consolidated away. `None`: the cluster's pods alone.
    with_buffers: Option<Vec<Pod>>,
}

impl SimBase {
    /// The pods the simulations index.
    fn pods<'a>(&'a self, cluster_pods: &'a [Pod]) -> &'a [Pod] {
        self.with_buffers.as_deref().unwrap_or(cluster_pods)
    }
}

/// The disruption controller's own state: when it looks, the command it waits to validate,
/// the commands it is executing and what it remembers of its last pass.
#[derive(Clone, Default)]
pub(super) struct Disruption {
    /// The next scheduled poll, so that only one is queued.
    poll_at: Option<Millis>,
    /// When the controller last looked (it never looks twice at one instant).
    last_poll: Option<Millis>,
    /// A command waiting out its validation delay.
    pending_command: Option<Plan>,
    /// Commands executing: their replacements are launching.
    commands: Vec<Command>,
    /// What the cluster looked like when a pass last found nothing to do; the controller
    /// does not look again until it changes (Karpenter's "consolidated" memo).
    memo: Option<Fingerprint>,
    /// The last pass left a candidate out because a budget was used up.
    budget_blocked: bool,
    /// What the scheduling simulations of the last pass shared.
    sim_base: Option<Rc<SimBase>>,
}

/// What one pass found on its way to a decision, in the order it found it. A pass reads the
/// cluster and changes nothing; the controller's own pass then records the findings
/// ([`Simulation::record_pass`]: evidence and events), a question
/// ([`Simulation::disruption_decision`]) drops them.
struct Pass {
    findings: Vec<Finding>,
    /// A candidate was left out because a budget was used up.
    budget_blocked: bool,
    /// What the pass's scheduling simulations share, built once per cluster version.
    base: Option<Rc<SimBase>>,
    /// The candidates and blocked nodes the pass gathered (see [`Simulation::gather`]), for
    /// the other class and for drift's, with the cluster version and instant they were
    /// gathered at: emptiness and both consolidations ask the same question, and each
    /// answer walks every pod.
    gathered: [Option<Gathered>; 2],
}

/// One gathering of candidates: (cluster version, instant), candidates, blocked nodes.
type Gathered = ((u64, Millis), Vec<Candidate>, Vec<(usize, Blocker)>);

enum Finding {
    /// The controller leaves a node alone, and why.
    Blocked {
        node: usize,
        consolidation: bool,
        blocker: Blocker,
    },
    /// A budget kept a node out of the pass.
    OverBudget { node: usize, reason: Reason },
    /// `consolidationPolicy: Balanced` scored a move: approved moves are published on
    /// `object`, declined ones kept as each of `nodes`' verdict.
    Balanced {
        nodes: Vec<usize>,
        object: ObjectName,
        score: BalancedScore,
    },
    /// The provisioner's templates were built for the pass's simulations, filtering
    /// NodePools' instance types the provisioner had not filtered yet.
    Templates(Vec<CandidateFill>),
}

impl Pass {
    fn new(base: Option<Rc<SimBase>>) -> Pass {
        Pass {
            findings: Vec::new(),
            budget_blocked: false,
            base,
            gathered: [None, None],
        }
    }

    fn block(&mut self, node: usize, consolidation: bool, blocker: Blocker) {
        self.findings.push(Finding::Blocked {
            node,
            consolidation,
            blocker,
        });
    }

    fn over_budget(&mut self, node: usize, reason: Reason) {
        self.budget_blocked = true;
        self.findings.push(Finding::OverBudget { node, reason });
    }

    fn balanced(&mut self, nodes: Vec<usize>, object: ObjectName, score: BalancedScore) {
        self.findings.push(Finding::Balanced {
            nodes,
            object,
            score,
        });
    }
}

/// A NodePool's cost and disruption, the denominators of Balanced scores
/// (`computeNodePoolTotals`).
#[derive(Clone, Copy, Debug, Default)]
struct PoolTotals {
    cost: i64,
    disruption: f64,
}

/// PodDisruptionBudgets with the disruptions each allows now.
struct PdbState {
    allowed: Vec<u32>,
}

impl Simulation {
    fn budget_remaining(&self, pool: usize, reason: Reason) -> u32 {
        let (nodes, disrupting) = self.cluster.budget_counts(pool, reason != Reason::Repair);
        disruption::remaining(
            &self.cluster.node_pools[pool].budgets,
            reason,
            nodes,
            disrupting,
            self.now,
        )
    }

    fn pdb_state(&self) -> PdbState {
        PdbState {
            allowed: self.cluster.pdb_allowances(),
        }
    }

    /// Why a pod keeps its node from being disrupted gracefully, if it does:
    /// `karpenter.sh/do-not-disrupt`, or a PodDisruptionBudget that allows no eviction (or
    /// more than one budget selecting it, which the Eviction API refuses).
    fn pod_blocker(&self, p: usize, pdbs: &PdbState) -> Option<Blocker> {
        let pod = &self.cluster.pods[p];
        if self.cluster.pod_do_not_disrupt(p, self.now) != DoNotDisrupt::No {
            return Some(Blocker::PodDoNotDisrupt(format!(
                "{}/{}",
                pod.namespace, pod.name
            )));
        }
        if self.cluster.tolerates_disruption(p) {
            return None;
        }
        let matching: Vec<usize> = (0..self.cluster.pdbs.len())
            .filter(|&i| self.cluster.pdb_selects(i, p))
            .collect();
        if matching.len() > 1 {
            let names: Vec<String> = matching
                .iter()
                .map(|&i| {
                    format!(
                        "{}/{}",
                        self.cluster.pdbs[i].namespace, self.cluster.pdbs[i].name
                    )
                })
                .collect();
            return Some(Blocker::Pdb(format!(
                "Eviction does not support multiple PDBs (PodDisruptionBudget=[{}])",
                names.join(", ")
            )));
        }
        if let Some(&i) = matching.first()
            && pdbs.allowed[i] == 0
        {
            return Some(Blocker::Pdb(format!(
                "Pdb prevents pod evictions (PodDisruptionBudget=[{}/{}])",
                self.cluster.pdbs[i].namespace, self.cluster.pdbs[i].name
            )));
        }
        None
    }

    /// Karpenter's `IsCurrentlyReschedulable` (`pkg/utils/pdb`): an active pod that no
    /// DaemonSet owns, with no active `karpenter.sh/do-not-disrupt`, and not fully blocked
    /// from eviction: selected by more than one PodDisruptionBudget, or by one that blocks
    /// every eviction ([`disruption::pdb_fully_blocking`]). A pod that tolerates the
    /// disrupted taint is never evicted, so no budget holds it.
    fn currently_reschedulable(&self, p: usize) -> bool {
        let pod = &self.cluster.pods[p];
        if pod.is_daemon()
            || !pod.is_active()
            || self.cluster.pod_do_not_disrupt(p, self.now) != DoNotDisrupt::No
        {
            return false;
        }
        if self.cluster.tolerates_disruption(p) {
            return true;
        }
        let mut matching = (0..self.cluster.pdbs.len()).filter(|&i| self.cluster.pdb_selects(i, p));
        match (matching.next(), matching.next()) {
            (None, _) => true,
            (Some(_), Some(_)) => false,
            (Some(i), None) => !disruption::pdb_fully_blocking(&self.cluster.pdbs[i]),
        }
    }

    /// The nodes the controller may disrupt, and the blocked ones with why
    /// (`DisruptionBlocked`). `eventual` is drift's class: a NodeClaim with a
    /// `terminationGracePeriod` ignores its pods' blockers there.
    fn candidates(
        &self,
        eventual: bool,
        by_node: &[Vec<usize>],
        pdbs: &PdbState,
    ) -> (Vec<Candidate>, Vec<(usize, Blocker)>) {
        let nominated = self.cluster.nominated_nodes();
        let mut out = Vec::new();
        let mut blocked = Vec::new();
        for n in 0..self.cluster.nodes.len() {
            if self.ruled_out(n).is_some() {
                continue;
            }
            let node = &self.cluster.nodes[n];
            let Some(pool) = node.nodepool else { continue };
            if nominated[n] {
                blocked.push((n, Blocker::Nominated));
                continue;
            }
            if self.cluster.node_do_not_disrupt(n) {
                blocked.push((n, Blocker::NodeDoNotDisrupt));
                continue;
            }
            if !(eventual && node.termination_grace.is_some())
                && let Some(blocker) = by_node[n].iter().find_map(|&p| self.pod_blocker(p, pdbs))
            {
                blocked.push((n, blocker));
                continue;
            }
            let pods: Vec<usize> = by_node[n]
                .iter()
                .copied()
                .filter(|&p| !self.cluster.pods[p].is_daemon())
                .collect();
            let consolidatable = self
                .cluster
                .consolidatable_at(n)
                .is_some_and(|at| at <= self.now);
            let costs: f64 = pods
                .iter()
                .map(|&p| {
                    let pod = &self.cluster.pods[p];
                    disruption::eviction_cost(
                        pod.annotations
                            .get("controller.kubernetes.io/pod-deletion-cost")
                            .map(String::as_str),
                        pod.spec.priority,
                    )
                })
                .filter(|c| *c > 0.0)
                .sum();
            let score = if self.karpenter.follows(Behaviour::PricePerDisruptionOrder) {
                node.price as f64 / (1.0 + costs)
            } else {
                // v1.0-v1.13: `ReschedulingCost` of every pod on the node (DaemonSet pods
                // included, negative costs too) times `LifetimeRemaining`, cheapest first;
                // negated so that one descending sort serves both.
                let all: f64 = by_node[n]
                    .iter()
                    .map(|&p| {
                        let pod = &self.cluster.pods[p];
                        disruption::eviction_cost(
                            pod.annotations
                                .get("controller.kubernetes.io/pod-deletion-cost")
                                .map(String::as_str),
                            pod.spec.priority,
                        )
                    })
                    .sum();
                let lifetime = disruption::lifetime_remaining(
                    node.expire_at
                        .map(|at| at.saturating_sub(node.created_at) + node.age_at_start),
                    node.age(self.now),
                );
                -(all * lifetime)
            };
            out.push(Candidate {
                node: n,
                pool,
                pods,
                price: node.price,
                consolidatable,
                reschedule_cost: 1.0 + costs,
                score,
            });
        }
        // v1.14: most dollars saved per unit of disruption first; v1.0-v1.13: least
        // disruption cost first (`sortCandidates`); ties by name.
        out.sort_by(|a, b| {
            b.score.total_cmp(&a.score).then_with(|| {
                self.cluster.nodes[a.node]
                    .name
                    .cmp(&self.cluster.nodes[b.node].name)
            })
        });
        (out, blocked)
    }

    /// Starts a pass of the controller's own. The catalogs are warmed first, so that the
    /// instance types the pass filters are the ones the provisioner's candidate cache keeps.
    fn controller_pass(&mut self, base: Option<Rc<SimBase>>) -> Pass {
        self.cloud.warm_catalogs();
        self.warm_overlays();
        Pass::new(base)
    }

    /// Keeps what a pass of the controller's own found: its verdicts become evidence and
    /// events, in the order it reached them, and what its simulations shared is kept for
    /// the validation of the command it decided on.
    fn record_pass(&mut self, pass: Pass) {
        for finding in pass.findings {
            match finding {
                Finding::Blocked {
                    node,
                    consolidation,
                    blocker,
                } => self.block(node, consolidation, blocker),
                Finding::OverBudget { node, reason } => {
                    // Karpenter publishes no event for a budget.
                    self.recorder.evidence.disruption_verdict(
                        node,
                        self.now,
                        Blocker::Budget(reason),
                    );
                }
                Finding::Templates(fills) => self.remember_candidates(fills),
                Finding::Balanced {
                    nodes,
                    object,
                    score,
                } => {
                    if score.approved() {
                        self.verdict(EventKind::ConsolidationApproved { object, score });
                    } else {
                        // Karpenter only logs a declined move.
                        for n in nodes {
                            self.recorder.evidence.disruption_verdict(
                                n,
                                self.now,
                                Blocker::Balanced(score.clone()),
                            );
                        }
                    }
                }
            }
        }
        if pass.budget_blocked {
            self.disruption.budget_blocked = true;
        }
        self.disruption.sim_base = pass.base;
    }

    /// Records why the controller leaves a node alone and publishes it as Karpenter does
    /// (`DisruptionBlocked`, or `Unconsolidatable` when `consolidation` is what it declined).
    fn block(&mut self, n: usize, consolidation: bool, blocker: Blocker) {
        self.recorder
            .evidence
            .disruption_verdict(n, self.now, blocker.clone());
        let nodeclaim = self.cluster.nodes[n].claim_name();
        self.verdict(if consolidation {
            EventKind::Unconsolidatable { nodeclaim, blocker }
        } else {
            EventKind::DisruptionBlocked { nodeclaim, blocker }
        });
    }

    // ----- when to look -----

    fn fingerprint(&self) -> Fingerprint {
        let mut consolidatable = 0;
        let mut drifted = 0;
        let mut repairable = 0;
        for n in 0..self.cluster.nodes.len() {
            if !self.cluster.is_managed(n) || self.cluster.nodes[n].state != NodeState::Ready {
                continue;
            }
            if self
                .cluster
                .consolidatable_at(n)
                .is_some_and(|at| at <= self.now)
            {
                consolidatable += 1;
            }
            if self.cluster.nodes[n].drifted.is_some() {
                drifted += 1;
            }
            if self.repair_at(n).is_some_and(|at| at <= self.now) {
                repairable += 1;
            }
        }
        Fingerprint {
            version: self.cluster.version,
            consolidatable,
            drifted,
            repairable,
        }
    }

    /// Keeps one disruption poll queued (on the 10 s ticks) while a look could find
    /// something new: the cluster changed since the last pass, a node's `consolidateAfter`
    /// runs out, a pod's `do-not-disrupt` duration ends, or a scheduled budget that blocked
    /// the last pass may have closed its window.
    pub(super) fn plan_disruption(&mut self) {
        if self.disruption.pending_command.is_some() {
            return;
        }
        let mut earliest: Option<Millis> = None;
        let mut at = |t: Millis| earliest = Some(earliest.map_or(t, |e: Millis| e.min(t)));
        let mut any = false;
        let mut scheduled_budgets = false;
        for n in 0..self.cluster.nodes.len() {
            if !self.cluster.is_managed(n)
                || self.cluster.nodes[n].state != NodeState::Ready
                || self.cluster.nodes[n].disruption.is_some()
            {
                continue;
            }
            let node = &self.cluster.nodes[n];
            let pool = node.nodepool.unwrap_or_default();
            if self.cluster.pool_deleted[pool] {
                continue;
            }
            any = true;
            let np = &self.cluster.node_pools[pool];
            scheduled_budgets |= np.budgets.iter().any(|b| b.schedule.is_some());
            if let Some(t) = self.cluster.consolidatable_at(n)
                && t > self.now
            {
                at(t);
            }
            if self.karpenter.follows(Behaviour::RepairAsDisruption)
                && let Some(t) = self.repair_at(n)
                && t > self.now
            {
                at(t);
            }
        }
        if !any {
            return;
        }
        // Only workloads with a duration-valued `do-not-disrupt` need the per-pod look.
        let timed = self.cluster.workloads.iter().any(|w| {
            w.template
                .annotations
                .get(wk::DO_NOT_DISRUPT)
                .is_some_and(|v| v != "true")
        });
        for p in (0..self.cluster.pods.len()).filter(|&p| {
            timed && self.cluster.pods[p].is_active() && self.cluster.pods[p].node.is_some()
        }) {
            if let DoNotDisrupt::Until(t) = self.cluster.pod_do_not_disrupt(p, self.now) {
                at(t);
            }
        }
        if self.disruption.memo != Some(self.fingerprint()) {
            at(self.now);
        } else if scheduled_budgets && self.disruption.budget_blocked {
            at(self.now + disruption::POLL);
        }
        let Some(t) = earliest else { return };
        let mut tick = disruption::next_poll(t);
        if let Some(last) = self.disruption.last_poll
            && tick <= last
        {
            tick = last + disruption::POLL;
        }
        if self.disruption.poll_at.is_none_or(|queued| queued > tick) {
            self.disruption.poll_at = Some(tick);
            self.schedule(tick, Action::DisruptionPoll);
        }
    }

    // ----- one pass -----

    /// The methods in Karpenter's order, the first that decides wins: node repair first in
    /// v1.15, then emptiness first from v1.5, drift first before (`controller.go` at v1.0.0
    /// and v1.5.0).
    fn decide(&self, pass: &mut Pass) -> Option<Plan> {
        if let Some(plan) = self.node_repair(pass) {
            return Some(plan);
        }
        let first = if self.karpenter.follows(Behaviour::EmptinessFirst) {
            self.emptiness(pass)
                .or_else(|| self.static_drift(pass))
                .or_else(|| self.drift(pass))
        } else {
            self.drift(pass).or_else(|| self.emptiness(pass))
        };
        first
            .or_else(|| self.multi_node(pass))
            .or_else(|| self.single_node(pass))
    }

    /// One pass of the disruption controller at the current instant, without acting on it:
    /// the command it would start (before validation), if any. A question changes nothing:
    /// the verdicts it reaches on the way (`Unconsolidatable`, `DisruptionBlocked`) are not
    /// recorded; the controller's own pass at this instant reaches and records the same.
    pub fn disruption_decision(&self) -> Option<DisruptionDecision> {
        let plan = self.decide(&mut Pass::new(None))?;
        Some(DisruptionDecision {
            method: plan.method.as_str(),
            reason: plan.reason.as_str(),
            candidates: plan
                .candidates
                .iter()
                .map(|&n| self.cluster.nodes[n].name.clone())
                .collect(),
            replacements: plan.replacements.len(),
            savings: plan.savings,
        })
    }

    /// A queued poll falls due; a poll queued earlier and since moved does not run.
    pub(super) fn disruption_poll_due(&mut self) {
        if self.disruption.poll_at == Some(self.now) {
            self.disruption.poll_at = None;
            self.disruption_poll();
        }
    }

    /// One reconcile of the disruption controller: the methods in Karpenter's order (v1.5 and
    /// later), stopping at the first that decides on a command.
    pub(super) fn disruption_poll(&mut self) {
        self.disruption.last_poll = Some(self.now);
        if self.disruption.pending_command.is_some() {
            return;
        }
        self.disruption.budget_blocked = false;
        let fingerprint = self.fingerprint();
        let mut pass = self.controller_pass(None);
        let plan = self.decide(&mut pass);
        self.record_pass(pass);
        let Some(plan) = plan else {
            self.disruption.memo = Some(fingerprint);
            return;
        };
        self.disruption.memo = None;
        match plan.method {
            // Repair and drift act at once; emptiness and consolidation wait 15 s and look
            // again.
            Method::Repair | Method::StaticDrift | Method::Drift => {
                self.execute(plan);
                self.disruption_poll();
            }
            _ => {
                self.disruption.pending_command = Some(plan);
                let at = self.now + disruption::VALIDATION_DELAY;
                self.schedule(at, Action::DisruptionValidate);
            }
        }
    }

    /// The candidates for a method of this pass (drift's class is `eventual`); the blocked
    /// nodes go into the pass's findings every time, as each method finds them.
    fn gather(&self, eventual: bool, pass: &mut Pass) -> Vec<Candidate> {
        // Only a NodeClaim with a terminationGracePeriod answers drift's class differently.
        let eventual = eventual
            && self
                .cluster
                .nodes
                .iter()
                .any(|n| n.termination_grace.is_some());
        let at = (self.cluster.version, self.now);
        let slot = &mut pass.gathered[usize::from(eventual)];
        let (candidates, blocked) = match slot {
            Some((when, candidates, blocked)) if *when == at => {
                #[cfg(debug_assertions)]
                {
                    let fresh = self.gather_now(eventual);
                    debug_assert_eq!(
                        format!("{:?}", (&*candidates, &*blocked)),
                        format!("{fresh:?}")
                    );
                }
                (candidates.clone(), blocked.clone())
            }
            _ => {
                let (candidates, blocked) = self.gather_now(eventual);
                *slot = Some((at, candidates.clone(), blocked.clone()));
                (candidates, blocked)
            }
        };
        for (n, blocker) in blocked {
            pass.block(n, false, blocker);
        }
        candidates
    }

    fn gather_now(&self, eventual: bool) -> (Vec<Candidate>, Vec<(usize, Blocker)>) {
        let by_node = self.cluster.active_pods_by_node();
        let pdbs = self.pdb_state();
        self.candidates(eventual, &by_node, &pdbs)
    }

    /// Takes candidates in order while their pool's budget for `reason` lasts.
    fn within_budgets(
        &self,
        candidates: Vec<Candidate>,
        reason: Reason,
        cap: usize,
        pass: &mut Pass,
    ) -> Vec<Candidate> {
        let mut left: BTreeMap<usize, u32> = BTreeMap::new();
        let mut out = Vec::new();
        for c in candidates {
            let budget = *left
                .entry(c.pool)
                .or_insert_with(|| self.budget_remaining(c.pool, reason));
            if budget == 0 {
                pass.over_budget(c.node, reason);
                continue;
            }
            left.insert(c.pool, budget - 1);
            out.push(c);
            if out.len() == cap {
                break;
            }
        }
        out
    }

    /// Emptiness: every empty, consolidatable candidate its pool's `Empty` budget admits, in
    /// one command that launches nothing.
    fn emptiness(&self, pass: &mut Pass) -> Option<Plan> {
        let mut candidates: Vec<Candidate> = self
            .gather(false, pass)
            .into_iter()
            .filter(|c| c.empty() && c.consolidatable)
            .collect();
        // A node the last provisioning pass kept CapacityBuffer virtual pods on is not
        // empty (`Emptiness.ShouldDisrupt`, v1.14+): deleting it would launch it again.
        candidates.retain(|c| {
            let holds = self.holds_buffer_pods(c.node);
            if holds {
                let name = self.cluster.nodes[c.node].name.clone();
                pass.block(c.node, true, Blocker::BufferPods(name));
            }
            !holds
        });
        let chosen = self.within_budgets(candidates, Reason::Empty, usize::MAX, pass);
        if chosen.is_empty() {
            return None;
        }
        let savings = chosen.iter().map(|c| c.price).sum();
        Some(Plan {
            method: Method::Emptiness,
            reason: Reason::Empty,
            candidates: chosen.iter().map(|c| c.node).collect(),
            replacements: Vec::new(),
            savings,
        })
    }

    /// Node repair as a method (v1.15): the node whose unhealthy condition came due first,
    /// within its pool's `Repair` budget; it is deleted forcefully, nothing launched first.
    fn node_repair(&self, pass: &mut Pass) -> Option<Plan> {
        if !self.karpenter.follows(Behaviour::RepairAsDisruption) {
            return None;
        }
        let mut due: Vec<(Millis, &str, usize)> = (0..self.cluster.nodes.len())
            .filter(|&n| {
                let node = &self.cluster.nodes[n];
                node.registered() && node.disruption.is_none()
            })
            .filter_map(|n| {
                let at = self.repair_at(n).filter(|&at| at <= self.now)?;
                Some((at, self.cluster.nodes[n].name.as_str(), n))
            })
            .collect();
        due.sort();
        for (_, _, n) in due {
            let pool = self.cluster.nodes[n].nodepool?;
            if self.budget_remaining(pool, Reason::Repair) == 0 {
                pass.over_budget(n, Reason::Repair);
                continue;
            }
            return Some(Plan {
                method: Method::Repair,
                reason: Reason::Repair,
                candidates: alloc::vec![n],
                replacements: Vec::new(),
                savings: 0,
            });
        }
        None
    }

    /// Static drift (`staticdrift.go`, v1.8+): a static NodePool's drifted nodes, once its
    /// scale-down is done, within its `Drifted` budget, each replaced by a NodeClaim from the
    /// pool's template first, as many as `limits.nodes` leaves room for. At the limit, v1.15
    /// deletes the node first and static provisioning replaces it.
    fn static_drift(&self, pass: &mut Pass) -> Option<Plan> {
        if !self.static_pools_run() {
            return None;
        }
        let by_node = self.cluster.active_pods_by_node();
        let pdbs = self.pdb_state();
        for pool in 0..self.cluster.node_pools.len() {
            let np = &self.cluster.node_pools[pool];
            let Some(replicas) = np.replicas else {
                continue;
            };
            if self.cluster.pool_deleted[pool] {
                continue;
            }
            let (members, running, pending) = self.static_pool_counts(pool);
            if running.len() + pending > replicas as usize {
                continue;
            }
            let mut drifted: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&n| {
                    matches!(self.ruled_out(n), Some(Candidacy::Static { .. }))
                        && self.cluster.nodes[n].drifted.is_some()
                        && !self.cluster.node_do_not_disrupt(n)
                        && (self.cluster.nodes[n].termination_grace.is_some()
                            || by_node[n]
                                .iter()
                                .all(|&p| self.pod_blocker(p, &pdbs).is_none()))
                })
                .collect();
            drifted.sort_by_key(|&n| {
                let node = &self.cluster.nodes[n];
                (node.drifted.map(|d| d.0), node.name.clone())
            });
            let Some(&n) = drifted.first() else { continue };
            if self.budget_remaining(pool, Reason::Drifted) == 0 {
                pass.over_budget(n, Reason::Drifted);
                continue;
            }
            let room = np.limits.nodes.map_or(usize::MAX, |l| {
                (l.max(0) as usize).saturating_sub(members.len())
            });
            let replacements = if room > 0 {
                let (templates, _) = self.build_templates_for(|p| p == pool);
                let Some(template) = templates.into_iter().next() else {
                    continue;
                };
                let claim = scheduling::NewClaim::for_template(0, &template);
                if claim.options.is_empty() {
                    continue;
                }
                alloc::vec![Replacement { template, claim }]
            } else if self.karpenter.follows(Behaviour::StaticDriftTerminateFirst) {
                Vec::new()
            } else {
                continue;
            };
            return Some(Plan {
                method: Method::StaticDrift,
                reason: Reason::Drifted,
                candidates: alloc::vec![n],
                replacements,
                savings: 0,
            });
        }
        None
    }

    /// Drift: the first drifted candidate (empty ones first, then the longest drifted) within
    /// its pool's `Drifted` budget whose pods all fit somewhere, with however many
    /// replacements that takes.
    fn drift(&self, pass: &mut Pass) -> Option<Plan> {
        let mut candidates: Vec<Candidate> = self
            .gather(true, pass)
            .into_iter()
            .filter(|c| self.cluster.nodes[c.node].drifted.is_some())
            .collect();
        candidates.sort_by_key(|c| {
            (
                !c.empty(),
                self.cluster.nodes[c.node].drifted.map(|d| d.0),
                self.cluster.nodes[c.node].name.clone(),
            )
        });
        for c in candidates {
            if self.budget_remaining(c.pool, Reason::Drifted) == 0 {
                pass.over_budget(c.node, Reason::Drifted);
                continue;
            }
            let sim = self.simulate(&[c.node], false, pass);
            if let Some(why) = not_all_pods_would_schedule(&self.cluster.pods, &sim.failures) {
                pass.block(c.node, false, Blocker::PodsWouldNotSchedule(why));
                continue;
            }
            let replacements: Vec<Replacement> = sim
                .claims
                .into_iter()
                .map(|claim| Replacement {
                    template: sim.base.templates[claim.template].clone(),
                    claim,
                })
                .collect();
            return Some(Plan {
                method: Method::Drift,
                reason: Reason::Drifted,
                candidates: alloc::vec![c.node],
                replacements,
                savings: 0,
            });
        }
        None
    }

    /// Candidates for consolidation of non-empty nodes (`ShouldDisrupt`), with the verdicts
    /// Karpenter publishes for the ones its pool keeps out.
    fn consolidation_candidates(&self, pass: &mut Pass) -> Vec<Candidate> {
        let mut out = Vec::new();
        for c in self.gather(false, pass) {
            if c.empty() {
                continue;
            }
            let np = &self.cluster.node_pools[c.pool];
            let name = np.name.clone();
            if np.consolidate_after.is_none() {
                pass.block(c.node, true, Blocker::ConsolidationDisabled(name));
            } else if np.consolidation_policy == ConsolidationPolicy::WhenEmpty {
                pass.block(c.node, true, Blocker::WhenEmptyOnly(name));
            } else if c.consolidatable {
                out.push(c);
            }
        }
        out
    }

    /// Multi-node consolidation: the largest prefix (2 to 100 candidates, within budgets)
    /// that can be deleted, or replaced by one cheaper node, found by binary search.
    fn multi_node(&self, pass: &mut Pass) -> Option<Plan> {
        let candidates = self.consolidation_candidates(pass);
        let candidates =
            self.within_budgets(candidates, Reason::Underutilized, MAX_MULTI_NODE, pass);
        if candidates.len() < 2 {
            return None;
        }
        let totals = self.balanced_totals(pass);
        let (mut lo, mut hi) = (2, candidates.len());
        let mut best: Option<(Plan, Vec<BalancedScore>)> = None;
        let mut declined = None;
        while lo <= hi {
            let mid = (lo + hi) / 2;
            let prefix: Vec<usize> = candidates[..mid].iter().map(|c| c.node).collect();
            match self.compute_consolidation(&prefix, Method::MultiNode, pass) {
                Ok(plan) => {
                    // A move a Balanced pool declines shrinks the window like a failure.
                    let scores = self.balanced_scores(&plan, &candidates, &totals);
                    if scores.iter().all(BalancedScore::approved) {
                        best = Some((plan, scores));
                        lo = mid + 1;
                    } else {
                        declined = Some((prefix, scores));
                        hi = mid - 1;
                    }
                }
                Err(_) => hi = mid - 1,
            }
        }
        match best {
            Some((plan, scores)) => {
                for score in scores {
                    let object = ObjectName::NodePool(score.node_pool.clone());
                    pass.balanced(plan.candidates.clone(), object, score);
                }
                Some(plan)
            }
            None => {
                if let Some((nodes, scores)) = declined {
                    for score in scores.into_iter().filter(|s| !s.approved()) {
                        let object = ObjectName::NodePool(score.node_pool.clone());
                        pass.balanced(nodes.clone(), object, score);
                    }
                }
                None
            }
        }
    }

    /// Single-node consolidation: candidates taken in turn from each NodePool; the first
    /// that can be deleted or replaced by a cheaper node.
    fn single_node(&self, pass: &mut Pass) -> Option<Plan> {
        let candidates = self.consolidation_candidates(pass);
        // Round-robin over the pools, in the order they first appear.
        let mut pools: Vec<usize> = Vec::new();
        let mut queues: BTreeMap<usize, Vec<Candidate>> = BTreeMap::new();
        for c in candidates {
            if !pools.contains(&c.pool) {
                pools.push(c.pool);
            }
            queues.entry(c.pool).or_default().push(c);
        }
        let mut ordered = Vec::new();
        let mut round = 0;
        loop {
            let mut took = false;
            for pool in &pools {
                if let Some(c) = queues.get(pool).and_then(|q| q.get(round)) {
                    ordered.push(c.clone());
                    took = true;
                }
            }
            if !took {
                break;
            }
            round += 1;
        }
        let totals = self.balanced_totals(pass);
        for c in ordered {
            if self.budget_remaining(c.pool, Reason::Underutilized) == 0 {
                pass.over_budget(c.node, Reason::Underutilized);
                continue;
            }
            // Balanced: a node whose outright deletion would not pass is not simulated
            // (`CanPassThreshold`).
            if let Some(best) = self.balanced_best_case(&c, &totals)
                && !best.approved()
            {
                let object = ObjectName::NodeClaim(self.cluster.nodes[c.node].name.clone());
                pass.balanced(alloc::vec![c.node], object, best);
                continue;
            }
            match self.compute_consolidation(&[c.node], Method::SingleNode, pass) {
                Ok(plan) => {
                    let scores = self.balanced_scores(&plan, core::slice::from_ref(&c), &totals);
                    let approved = scores.iter().all(BalancedScore::approved);
                    for score in scores {
                        let object = ObjectName::NodeClaim(self.cluster.nodes[c.node].name.clone());
                        pass.balanced(alloc::vec![c.node], object, score);
                    }
                    if approved {
                        return Some(plan);
                    }
                }
                Err(blocker) => pass.block(c.node, true, blocker),
            }
        }
        None
    }

    // ----- Balanced (`balanced.go`, v1.14) -----

    /// Per NodePool with a candidate: what its NodeClaims cost, and its disruption cost over
    /// every node (candidates count their moving pods; other nodes every bound pod that is
    /// not a DaemonSet's). Only Balanced pools are scored against them.
    fn balanced_totals(&self, pass: &mut Pass) -> BTreeMap<usize, PoolTotals> {
        let candidates = self.gather(false, pass);
        let mut totals: BTreeMap<usize, PoolTotals> = BTreeMap::new();
        for c in &candidates {
            let np = &self.cluster.node_pools[c.pool];
            if np.consolidation_policy == ConsolidationPolicy::Balanced {
                totals.entry(c.pool).or_default();
            }
        }
        if totals.is_empty() {
            return totals;
        }
        let by_node = self.cluster.active_pods_by_node();
        for (n, node) in self.cluster.nodes.iter().enumerate() {
            let Some(t) = node
                .nodepool
                .filter(|_| node.exists())
                .and_then(|p| totals.get_mut(&p))
            else {
                continue;
            };
            t.cost += node.price;
            t.disruption += match candidates.iter().find(|c| c.node == n) {
                Some(c) => c.reschedule_cost,
                None => {
                    1.0 + by_node[n]
                        .iter()
                        .filter(|&&p| !self.cluster.pods[p].is_daemon())
                        .map(|&p| self.pod_eviction_cost(p))
                        .filter(|c| *c > 0.0)
                        .sum::<f64>()
                }
            };
        }
        totals
    }

    pub(super) fn pod_eviction_cost(&self, p: usize) -> f64 {
        let pod = &self.cluster.pods[p];
        disruption::eviction_cost(
            pod.annotations
                .get("controller.kubernetes.io/pod-deletion-cost")
                .map(String::as_str),
            pod.spec.priority,
        )
    }

    /// The best a candidate in a Balanced pool can score: deleting it outright.
    fn balanced_best_case(
        &self,
        c: &Candidate,
        totals: &BTreeMap<usize, PoolTotals>,
    ) -> Option<BalancedScore> {
        let t = totals.get(&c.pool)?;
        Some(BalancedScore {
            node_pool: self.cluster.node_pools[c.pool].name.clone(),
            savings: c.price,
            pool_cost: t.cost,
            disruption: c.reschedule_cost,
            pool_disruption: t.disruption,
            best_case: true,
        })
    }

    /// A move's score for each Balanced pool among its candidates; a move that spans pools
    /// gives each its share of the savings, by the share of the price its nodes hold
    /// (`EvaluateBalancedMove`).
    fn balanced_scores(
        &self,
        plan: &Plan,
        candidates: &[Candidate],
        totals: &BTreeMap<usize, PoolTotals>,
    ) -> Vec<BalancedScore> {
        let of = |n: usize| candidates.iter().find(|c| c.node == n);
        let source: i64 = plan
            .candidates
            .iter()
            .filter_map(|&n| of(n))
            .map(|c| c.price)
            .sum();
        let mut pools: Vec<usize> = plan
            .candidates
            .iter()
            .filter_map(|&n| of(n).map(|c| c.pool))
            .collect();
        pools.sort_unstable();
        pools.dedup();
        let mut out = Vec::new();
        for &pool in &pools {
            let Some(t) = totals.get(&pool) else { continue };
            let mine: Vec<&Candidate> = plan
                .candidates
                .iter()
                .filter_map(|&n| of(n))
                .filter(|c| c.pool == pool)
                .collect();
            let price: i64 = mine.iter().map(|c| c.price).sum();
            let savings = if pools.len() > 1 && source > 0 {
                (plan.savings as f64 * (price as f64 / source as f64)) as i64
            } else {
                plan.savings
            };
            out.push(BalancedScore {
                node_pool: self.cluster.node_pools[pool].name.clone(),
                savings,
                pool_cost: t.cost,
                disruption: mine.iter().map(|c| c.reschedule_cost).sum(),
                pool_disruption: t.disruption,
                best_case: false,
            });
        }
        out
    }

    // ----- the decision rule -----

    /// Karpenter's `computeConsolidation`: simulate scheduling without the candidates; a
    /// command is valid when every pod that has to move fits and at most one new node,
    /// strictly cheaper at its worst launch price, is needed.
    fn compute_consolidation(
        &self,
        candidates: &[usize],
        method: Method,
        pass: &mut Pass,
    ) -> Result<Plan, Blocker> {
        let sim = self.simulate(candidates, true, pass);
        if let Some(why) = not_all_pods_would_schedule(&self.cluster.pods, &sim.failures) {
            return Err(Blocker::PodsWouldNotSchedule(why));
        }
        let price: MicroDollars = candidates
            .iter()
            .map(|&n| self.cluster.nodes[n].price)
            .sum();
        let mut claims = sim.claims;
        if claims.is_empty() {
            return Ok(Plan {
                method,
                reason: Reason::Underutilized,
                candidates: candidates.to_vec(),
                replacements: Vec::new(),
                savings: price as i64,
            });
        }
        if claims.len() > 1 {
            return Err(Blocker::TooManyReplacements(claims.len()));
        }
        let mut claim = claims.remove(0);
        let template = sim.base.templates[claim.template].clone();
        let types = template.instance_types.clone();
        let spot_allowed = claim
            .requirements
            .get(wk::CAPACITY_TYPE)
            .is_none_or(|r| r.has(CapacityType::Spot.as_str()));
        let od_allowed = claim
            .requirements
            .get(wk::CAPACITY_TYPE)
            .is_none_or(|r| r.has(CapacityType::OnDemand.as_str()));
        if candidates
            .iter()
            .all(|&n| self.cluster.nodes[n].capacity_type == CapacityType::Spot)
            && spot_allowed
        {
            // The SpotToSpotConsolidation feature gate is off by default in every version.
            if !self.karpenter.gate(Gate::SpotToSpotConsolidation) {
                return Err(Blocker::SpotToSpot);
            }
            return self.spot_to_spot(method, candidates, price, claim, template);
        }
        let reqs = claim.requirements.clone();
        let ceiling = self.same_type_ceiling(method, candidates, price, &claim.options, &types);
        claim.options.retain(|&i| {
            disruption::worst_launch_price(&types[i as usize], &reqs).is_some_and(|p| p < ceiling)
        });
        if !self.min_values_best_effort()
            && !scheduling::min_values_unmet(&types, &claim.options, &reqs).is_empty()
        {
            return Err(Blocker::MinValues);
        }
        if claim.options.is_empty() {
            return Err(Blocker::NotCheaper(None));
        }
        if spot_allowed && od_allowed {
            // Priced as spot, so launched as spot: if spot is short the launch fails rather
            // than buying a pricier on-demand node.
            claim.requirements.add(Requirement::in_values(
                wk::CAPACITY_TYPE,
                [String::from(CapacityType::Spot.as_str())],
            ));
            if !claim.options.iter().any(|&i| {
                scheduling::has_compatible_offering(&types[i as usize], &claim.requirements)
            }) {
                // Upstream launches and fails with insufficient capacity, then caches the
                // offerings as unavailable and ends here on its next pass.
                return Err(Blocker::NotCheaper(Some(
                    "the replacement would launch as spot, and no cheaper option offers spot",
                )));
            }
        }
        let cheapest = claim
            .options
            .iter()
            .filter_map(|&i| {
                scheduling::cheapest_offering(&types[i as usize], &claim.requirements, None)
                    .map(|o| o.price)
            })
            .min();
        let savings = price as i64 - cheapest.map_or(0, |c| c);
        Ok(Plan {
            method,
            reason: Reason::Underutilized,
            candidates: candidates.to_vec(),
            replacements: alloc::vec![Replacement { template, claim }],
            savings,
        })
    }

    /// The price a replacement must beat. Replacing several nodes with one of their own types
    /// is a deletion in disguise: it must beat the cheapest candidate of that type
    /// (`filterOutSameInstanceType`, multi-node only).
    fn same_type_ceiling(
        &self,
        method: Method,
        candidates: &[usize],
        price: MicroDollars,
        options: &[u32],
        types: &[InstanceType],
    ) -> MicroDollars {
        let mut ceiling = price;
        if method == Method::MultiNode {
            for &i in options {
                let name = &types[i as usize].name;
                for &n in candidates {
                    if &self.cluster.nodes[n].instance_type == name {
                        ceiling = ceiling.min(self.cluster.nodes[n].price);
                    }
                }
            }
        }
        ceiling
    }

    /// Spot-to-spot consolidation (the `SpotToSpotConsolidation` gate is on): the replacement
    /// is spot, every option's most expensive spot offering is cheaper than the candidates,
    /// and a single node needs at least 15 such options, of which the 15 cheapest (more if
    /// `minValues` needs them) are launched; several nodes need no minimum
    /// (`consolidation.go` `computeSpotToSpotConsolidation`, v1.0-v1.14.1;
    /// `designs/spot-consolidation.md`). Keeping 15 options open keeps the replacement
    /// flexible enough that it is not itself interrupted at once.
    fn spot_to_spot(
        &self,
        method: Method,
        candidates: &[usize],
        price: MicroDollars,
        mut claim: scheduling::NewClaim,
        template: Template,
    ) -> Result<Plan, Blocker> {
        let types = template.instance_types.clone();
        claim.requirements.add(Requirement::in_values(
            wk::CAPACITY_TYPE,
            [String::from(CapacityType::Spot.as_str())],
        ));
        let reqs = claim.requirements.clone();
        let cheapest = |i: u32| {
            scheduling::cheapest_offering(&types[i as usize], &reqs, None).map(|o| o.price)
        };
        claim.options.retain(|&i| cheapest(i).is_some());
        claim
            .options
            .sort_by_key(|&i| (cheapest(i), types[i as usize].name.clone()));
        let ceiling = self.same_type_ceiling(method, candidates, price, &claim.options, &types);
        claim.options.retain(|&i| {
            disruption::worst_launch_price(&types[i as usize], &reqs).is_some_and(|p| p < ceiling)
        });
        if !self.min_values_best_effort()
            && !scheduling::min_values_unmet(&types, &claim.options, &reqs).is_empty()
        {
            return Err(Blocker::MinValues);
        }
        if claim.options.is_empty() {
            return Err(Blocker::NotCheaper(None));
        }
        if candidates.len() == 1 {
            if claim.options.len() < disruption::SPOT_TO_SPOT_MIN_OPTIONS {
                return Err(Blocker::SpotToSpotTooFew(claim.options.len()));
            }
            // The cheapest 15, or the shortest cheapest prefix that keeps minValues.
            let mut keep = disruption::SPOT_TO_SPOT_MIN_OPTIONS;
            while keep < claim.options.len()
                && !scheduling::min_values_unmet(&types, &claim.options[..keep], &reqs).is_empty()
            {
                keep += 1;
            }
            claim.options.truncate(keep);
        }
        let savings = price
            - claim
                .options
                .first()
                .and_then(|&i| cheapest(i))
                .unwrap_or(0);
        Ok(Plan {
            method,
            reason: Reason::Underutilized,
            candidates: candidates.to_vec(),
            replacements: alloc::vec![Replacement { template, claim }],
            savings,
        })
    }

    /// What every scheduling simulation of a disruption pass shares, built once per
    /// cluster state: a pass may simulate hundreds of candidates.
    fn sim_base(&self, pass: &mut Pass) -> Rc<SimBase> {
        if let Some(base) = pass
            .base
            .as_ref()
            .filter(|b| b.version == self.cluster.version)
        {
            return base.clone();
        }
        let by_node = self.cluster.active_pods_by_node();
        let mut pending: Vec<usize> = self
            .cluster
            .pending_pods()
            .filter(|&p| {
                let pod = &self.cluster.pods[p];
                !pod.is_daemon()
                    && pod.spec.node_name.is_none()
                    && pod.nominated_node.is_none()
                    && self.provisioner_ignores(pod).is_none()
            })
            .collect();
        let first_virtual = self.cluster.pods.len();
        let virtual_pods = self.buffer_pod_count();
        pending.extend(first_virtual..first_virtual + virtual_pods);
        let with_buffers = (virtual_pods > 0).then(|| self.pods_with_buffers().into_owned());
        let pods = with_buffers.as_deref().unwrap_or(&self.cluster.pods);
        let (templates, fills) = self.build_templates();
        if !fills.is_empty() {
            pass.findings.push(Finding::Templates(fills));
        }
        let views = self.node_views(&[], &by_node);
        let (bound, node_labels) = self.bound_pods(&views, &[]);
        let keys = self.topology_keys_of(pods, &pending);
        let domains = self.template_domains(&templates, &keys);
        // Every pod that could move: the running pods of every node in view.
        let mut schedulable = pending.clone();
        schedulable.extend(
            bound
                .iter()
                .map(|&(p, _)| p)
                .filter(|&p| !self.cluster.pods[p].is_daemon()),
        );
        let topology = self.topology_for(&domains, &[]);
        let prepared = Solver::prepare(pods, &schedulable, topology, &bound, &node_labels);
        let mut ordered_pending = pending;
        Solver::order(pods, &mut ordered_pending);
        let base = Rc::new(SimBase {
            version: self.cluster.version,
            by_node,
            ordered_pending,
            templates,
            views,
            node_labels,
            prepared,
            with_buffers,
        });
        pass.base = Some(base.clone());
        base
    }

    /// Karpenter's `SimulateScheduling`: the pending pods and the candidates' pods, scheduled
    /// over every other node (fixed ones included) and new NodeClaims. A pod placed on a node
    /// that is not initialized yet counts as a failure: consolidation waits for capacity in
    /// flight.
    ///
    /// A consolidation's simulation (`consolidation`; drift's is not) keeps the candidates'
    /// pods off nodes still inside their NodePool's `consolidateAfter` (v1.14+).
    fn simulate(&self, candidates: &[usize], consolidation: bool, pass: &mut Pass) -> Simulated {
        let base = self.sim_base(pass);
        let all = base.pods(&self.cluster.pods);
        let mut excluded = candidates.to_vec();
        excluded.sort_unstable();
        // Only the pods that can move now (`IsCurrentlyReschedulable`): capacity for a pod
        // that `do-not-disrupt` or a fully blocking PDB keeps in place would sit empty.
        let mut moving: Vec<usize> = candidates
            .iter()
            .flat_map(|&n| base.by_node[n].iter().copied())
            .filter(|&p| self.currently_reschedulable(p))
            .collect();
        moving.sort_unstable();
        // What `solve` would get from sorting the pending pods followed by the moving ones.
        let mut moving_ordered = moving.clone();
        Solver::order(all, &mut moving_ordered);
        let pods = Solver::merge_ordered(all, &base.ordered_pending, &moving_ordered);
        debug_assert!({
            // The pending pods are gathered in index order: sorting them back by index gives
            // the list `solve` used to sort.
            let mut fresh = base.ordered_pending.clone();
            fresh.sort_unstable();
            fresh.extend_from_slice(&moving);
            Solver::order(all, &mut fresh);
            fresh == pods
        });
        let views: Vec<NodeView> = base
            .views
            .iter()
            .filter(|v| excluded.binary_search(&v.id).is_err())
            .cloned()
            .collect();
        // The candidates' pods (DaemonSet ones included) leave with them, and so do domains
        // only they gave.
        let mut prepared = base.prepared.clone();
        for &c in &excluded {
            if let Some(facts) = base.node_labels.get(&c) {
                prepared.forget_node(all, &base.by_node[c], facts);
            }
            prepared.topology.forget_node_domains(c);
        }
        // The candidates leave their NodePools' usage too: a replacement is weighed against
        // the limits less what the nodes that stay hold (`SimulateScheduling` gives the
        // scheduler the active nodes but the candidates).
        let mut templates = base.templates.clone();
        for &c in &excluded {
            let node = &self.cluster.nodes[c];
            if !node.active() {
                continue; // never counted
            }
            for t in templates
                .iter_mut()
                .filter(|t| Some(t.nodepool) == node.nodepool)
            {
                for (i, rem) in t.remaining.iter_mut().enumerate() {
                    if let Some(r) = rem {
                        *r += node.capacity.0[i];
                    }
                }
                if let Some(n) = &mut t.remaining_nodes {
                    *n += 1;
                }
            }
        }
        let settling: Vec<bool> =
            if consolidation && self.karpenter.follows(Behaviour::ConsolidationDestinations) {
                views
                    .iter()
                    .map(|v| self.under_consolidate_after(v.id))
                    .collect()
            } else {
                Vec::new()
            };
        let mut solver = Solver::with_prepared(all, views, templates, prepared);
        solver.with_volumes(self.pass_volumes(&pods));
        solver.shortcuts = self.solver_shortcuts;
        solver.ignore_preferences = self.ignores_preferences();
        solver.refuse_dra = self.refuses_dra();
        solver.min_values_best_effort = self.min_values_best_effort();
        if settling.contains(&true) {
            solver.keep_moving_pods_off(settling, moving.clone());
        }
        let initialized: Vec<(usize, bool)> =
            solver.nodes.iter().map(|v| (v.id, v.initialized)).collect();
        let outcome = solver.solve_ordered(pods);
        let mut failures: Vec<(usize, String)> = Vec::new();
        for &p in &moving {
            if let Some(err) = outcome.errors.get(&p) {
                failures.push((p, err.clone()));
            } else if let Some(Placement::Existing(v)) = outcome.placements.get(&p)
                && !initialized[*v].1
            {
                let name = &self.cluster.nodes[initialized[*v].0].name;
                failures.push((
                    p,
                    format!("would schedule against uninitialized nodeclaim/{name}, node/{name}"),
                ));
            }
        }
        Simulated {
            base,
            claims: outcome.claims,
            failures,
        }
    }

    /// Whether a node is still inside its NodePool's `consolidateAfter`, as a consolidation's
    /// simulation asks of a destination (`IsUnderConsolidateAfter`, v1.14.0
    /// `pkg/utils/disruption`): initialized, a non-zero `consolidateAfter` (not `Never`), and
    /// less than that since its last pod event (or its initialization, when it has had none).
    pub fn under_consolidate_after(&self, n: usize) -> bool {
        let node = &self.cluster.nodes[n];
        let Some(np) = node.nodepool.and_then(|p| self.cluster.node_pools.get(p)) else {
            return false;
        };
        let (Some(after), Some(initialized)) = (np.consolidate_after, node.initialized_at) else {
            return false;
        };
        // A snapshot's node without a pod event since time zero had been quiet for
        // `quiet_at_start` already.
        let quiet = match node.last_pod_event {
            Some(t) => self.now.saturating_sub(t),
            None => self.now.saturating_sub(initialized) + node.quiet_at_start,
        };
        after > 0 && quiet < after
    }

    // ----- validation and execution -----

    /// After the validation delay: the command still holds (its candidates are still
    /// candidates within budget and, for consolidation, a fresh simulation decides the same
    /// with the same or more replacement options) and is executed; then the controller looks
    /// again at once.
    pub(super) fn disruption_validate(&mut self) {
        let Some(plan) = self.disruption.pending_command.take() else {
            return;
        };
        let plan = match plan.method {
            Method::Emptiness => {
                // Emptiness tolerates losing some candidates.
                let mut pass = self.controller_pass(self.disruption.sim_base.clone());
                let still = self.emptiness(&mut pass);
                self.record_pass(pass);
                let still = still.map(|p| p.candidates).unwrap_or_default();
                let kept: Vec<usize> = plan
                    .candidates
                    .iter()
                    .copied()
                    .filter(|n| still.contains(n))
                    .collect();
                let savings = kept.iter().map(|&n| self.cluster.nodes[n].price).sum();
                (!kept.is_empty()).then_some(Plan {
                    candidates: kept,
                    savings,
                    ..plan
                })
            }
            _ => self.revalidate(plan),
        };
        if let Some(plan) = plan {
            self.execute(plan);
        }
        self.disruption_poll();
    }

    fn revalidate(&mut self, plan: Plan) -> Option<Plan> {
        let mut pass = self.controller_pass(self.disruption.sim_base.clone());
        let by_node = self.cluster.active_pods_by_node();
        let pdbs = self.pdb_state();
        let (current, _) = self.candidates(false, &by_node, &pdbs);
        let all_still = plan.candidates.iter().all(|n| {
            current
                .iter()
                .any(|c| c.node == *n && c.consolidatable && !c.empty())
        });
        let mut spent: BTreeMap<usize, u32> = BTreeMap::new();
        for &n in &plan.candidates {
            *spent
                .entry(self.cluster.nodes[n].nodepool.unwrap_or_default())
                .or_default() += 1;
        }
        let within = spent
            .iter()
            .all(|(&pool, &k)| self.budget_remaining(pool, Reason::Underutilized) >= k);
        let why = if !all_still {
            Some(Rejection::NoLongerCandidate)
        } else if !within {
            Some(Rejection::BudgetExhausted)
        } else {
            match self.compute_consolidation(&plan.candidates, plan.method, &mut pass) {
                Err(_) => Some(Rejection::SimulationDisagrees),
                Ok(fresh) => {
                    let same_shape = fresh.replacements.len() == plan.replacements.len();
                    let subset = plan.replacements.iter().zip(fresh.replacements.iter()).all(
                        |(old, new)| {
                            old.claim
                                .options
                                .iter()
                                .all(|o| new.claim.options.contains(o))
                        },
                    );
                    if same_shape && subset {
                        None
                    } else {
                        Some(Rejection::SimulationDisagrees)
                    }
                }
            }
        };
        self.record_pass(pass);
        match why {
            None => Some(plan),
            Some(why) => {
                self.record_command(&plan, false);
                for &n in &plan.candidates {
                    let nodeclaim = self.cluster.nodes[n].claim_name();
                    self.event(EventKind::ConsolidationRejected { nodeclaim, why });
                }
                None
            }
        }
    }

    /// Keeps a command the controller decided on, and whether it ran.
    fn record_command(&mut self, plan: &Plan, executed: bool) {
        let replacement = plan
            .replacements
            .first()
            .map(|r| r.options_by_price().into_iter().map(String::from).collect());
        self.recorder
            .evidence
            .commands
            .push(evidence::CommandRecord {
                at: self.now,
                method: plan.method.as_str(),
                reason: plan.reason,
                candidates: plan.candidates.clone(),
                replacement,
                savings: plan.savings,
                pods: self.pods_moved(&plan.candidates),
                executed,
            });
    }

    /// The pods a command on these nodes moves: every pod but the DaemonSets'.
    fn pods_moved(&self, candidates: &[usize]) -> usize {
        candidates
            .iter()
            .map(|&n| {
                self.cluster
                    .pods_on(n)
                    .iter()
                    .filter(|&&p| !self.cluster.pods[p].is_daemon())
                    .count()
            })
            .sum()
    }

    /// The command waiting out its 15 s validation that would disrupt the node, if any:
    /// (method, savings in micro-dollars per hour).
    pub fn pending_disruption(&self, n: usize) -> Option<(&'static str, i64)> {
        self.disruption
            .pending_command
            .as_ref()
            .filter(|p| p.candidates.contains(&n))
            .map(|p| (p.method.as_str(), p.savings))
    }

    /// Starts a command: logs it, launches its replacements, taints and holds its
    /// candidates; without replacements they are deleted at once.
    fn execute(&mut self, plan: Plan) {
        self.record_command(&plan, true);
        let candidates = plan
            .candidates
            .iter()
            .map(|&n| {
                let node = &self.cluster.nodes[n];
                event::DisruptedNode {
                    name: node.name.clone(),
                    instance_type: node.instance_type.clone(),
                    capacity_type: node.capacity_type,
                }
            })
            .collect();
        let mut node_pools: Vec<String> = plan
            .candidates
            .iter()
            .filter_map(|&n| self.cluster.nodes[n].nodepool)
            .map(|p| self.cluster.node_pools[p].name.clone())
            .collect();
        node_pools.sort();
        node_pools.dedup();
        let replacements = plan
            .replacements
            .iter()
            .map(|r| event::ReplacementNode {
                capacity_type: match r.claim.requirements.get(wk::CAPACITY_TYPE) {
                    Some(req) if req.has("spot") && !req.has("on-demand") => {
                        Some(CapacityType::Spot)
                    }
                    Some(req) if !req.has("spot") => Some(CapacityType::OnDemand),
                    _ => None,
                },
                instance_types: r.options_by_price().into_iter().map(String::from).collect(),
            })
            .collect();
        self.event(EventKind::Disrupting(event::Disruption {
            node_pools,
            reason: plan.reason,
            candidates,
            pods: self.pods_moved(&plan.candidates),
            replacements,
            savings: (!matches!(
                plan.method,
                Method::Drift | Method::StaticDrift | Method::Repair
            ))
            .then_some(plan.savings),
        }));

        let mut replacements = Vec::new();
        for r in &plan.replacements {
            let launchable = r.claim.options.iter().any(|&i| {
                scheduling::has_compatible_offering(
                    &r.template.instance_types[i as usize],
                    &r.claim.requirements,
                )
            });
            if !launchable {
                // The launch fails (insufficient capacity of the pinned capacity type) and the
                // command is dropped: the candidates stay as they are.
                for &n in &replacements {
                    self.terminate(n, TerminationCause::ReplacementLaunchFailed);
                }
                self.event(EventKind::ReplacementLaunchFailed {
                    node_pool: r.template.name.clone(),
                });
                return;
            }
            let n = self.create_nodeclaim(&r.template, &r.claim, None);
            self.cluster.nodes[n].replaces = plan
                .candidates
                .iter()
                .map(|&c| self.cluster.nodes[c].name.clone())
                .collect();
            self.event(EventKind::DisruptionLaunching {
                nodeclaim: self.cluster.nodes[n].claim_name(),
                reason: plan.reason,
            });
            replacements.push(n);
        }
        for &n in &plan.candidates {
            self.cluster.nodes[n].disruption = Some(plan.reason);
            if !self.cluster.nodes[n]
                .taints
                .iter()
                .any(|t| t.key == wk::DISRUPTED_TAINT)
            {
                self.cluster.nodes[n].taints.push(Taint::new(
                    wk::DISRUPTED_TAINT,
                    "",
                    TaintEffect::NoSchedule,
                ));
            }
            if !replacements.is_empty() {
                self.event(EventKind::DisruptionWaitingReadiness {
                    nodeclaim: self.cluster.nodes[n].claim_name(),
                });
            }
        }
        self.cluster.version += 1;
        let command = Command {
            reason: plan.reason,
            candidates: plan.candidates,
            replacements,
        };
        if command.replacements.is_empty() {
            self.finish_command(&command);
        } else {
            self.disruption.commands.push(command);
        }
    }

    fn finish_command(&mut self, command: &Command) {
        let decision = if command.replacements.is_empty() {
            Decision::Delete
        } else {
            Decision::Replace
        };
        for &n in &command.candidates {
            self.event(EventKind::DisruptionTerminating {
                nodeclaim: self.cluster.nodes[n].claim_name(),
                reason: command.reason,
                decision,
            });
            if command.reason == Reason::Repair {
                // Forceful, as the health controller's deletion was: the termination
                // timestamp is now.
                self.cluster.nodes[n].termination_grace = Some(0);
            }
            self.terminate(n, TerminationCause::Disruption(command.reason));
        }
    }

    /// Moves executing commands on: once every replacement is initialized the candidates are
    /// deleted; a replacement that disappeared fails the command and frees its candidates.
    pub(super) fn advance_commands(&mut self) {
        let mut i = 0;
        while i < self.disruption.commands.len() {
            let cmd = self.disruption.commands[i].clone();
            let failed = cmd.replacements.iter().any(|&r| {
                !self.cluster.nodes[r].exists()
                    || self.cluster.nodes[r].state == NodeState::Deleting
            });
            let ready = cmd
                .replacements
                .iter()
                .all(|&r| self.cluster.nodes[r].state == NodeState::Ready);
            if failed {
                self.disruption.commands.remove(i);
                for &n in &cmd.candidates {
                    self.cluster.nodes[n].disruption = None;
                    self.cluster.nodes[n]
                        .taints
                        .retain(|t| t.key != wk::DISRUPTED_TAINT);
                    self.event(EventKind::DisruptionFailed {
                        nodeclaim: self.cluster.nodes[n].claim_name(),
                    });
                }
                self.cluster.version += 1;
            } else if ready {
                self.disruption.commands.remove(i);
                self.finish_command(&cmd);
            } else {
                i += 1;
            }
        }
    }

    // ----- drift -----

    /// Why a node has drifted from its NodePool or EC2NodeClass now, if it has.
    fn drift_of(&self, n: usize) -> Option<disruption::DriftReason> {
        use disruption::DriftReason;
        let node = &self.cluster.nodes[n];
        if !self.cluster.is_managed(n) || node.state == NodeState::Launching {
            return None;
        }
        let pool = node.nodepool?;
        let np = &self.cluster.node_pools[pool];
        if disruption::pool_hash(np) != node.pool_hash {
            return Some(DriftReason::NodePoolDrifted);
        }
        if disruption::requirements_drifted(&np.requirements, &node.labels) {
            return Some(DriftReason::RequirementsDrifted);
        }
        let nc = self
            .cluster
            .node_classes
            .get(np.node_class_ref.key().as_ref())?;
        if disruption::node_class_hash(nc) != node.node_class_hash {
            return Some(DriftReason::NodeClassDrift);
        }
        if self.cloud.current_image(nc) != node.image_id {
            return Some(DriftReason::AmiDrift);
        }
        if !nc.subnet_zones.is_empty() && !nc.subnet_zones.contains(&node.zone) {
            return Some(DriftReason::SubnetDrift);
        }
        None
    }

    /// Re-checks drift on every node (after a NodePool, EC2NodeClass or AMI change).
    pub(super) fn detect_drift(&mut self) {
        for n in 0..self.cluster.nodes.len() {
            self.update_drift(n);
        }
    }

    pub(super) fn update_drift(&mut self, n: usize) {
        if !self.cluster.nodes[n].exists() || self.cluster.nodes[n].state == NodeState::Deleting {
            return;
        }
        let now = self.drift_of(n);
        let was = self.cluster.nodes[n].drifted.map(|d| d.1);
        if now == was {
            return;
        }
        self.cluster.nodes[n].drifted = now.map(|r| (self.now, r));
        self.cluster.version += 1;
        let nodeclaim = self.cluster.nodes[n].claim_name();
        self.event(match now {
            Some(reason) => EventKind::Drifted { nodeclaim, reason },
            None => EventKind::DriftResolved { nodeclaim },
        });
    }
}

/// `Not all pods would schedule, ns/pod => why` for the first pod that would not, if any.
fn not_all_pods_would_schedule(pods: &[Pod], failures: &[(usize, String)]) -> Option<String> {
    let (p, err) = failures.first()?;
    let more = if failures.len() > 1 {
        format!(" (and {} other pod(s))", failures.len() - 1)
    } else {
        String::new()
    };
    Some(format!(
        "Not all pods would schedule, {}/{} => {err}{more}",
        pods[*p].namespace, pods[*p].name
    ))
}

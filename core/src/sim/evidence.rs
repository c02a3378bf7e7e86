//! What the engine saw when it decided, kept as it decides so that `kpg explain` and the
//! page can answer "why?" for the moment of the decision rather than for the cluster as it
//! is later.
//!
//! Recording is cheap by construction: a provisioning pass keeps its templates once (shared
//! by every pod and NodeClaim of the pass) and, per pod, the requirements it was solved with,
//! an index into the pass's limits log and one verdict per NodePool; kube-scheduler keeps the
//! filter results it computed anyway; the disruption controller keeps its verdicts. The
//! pod × NodePool matrix ([`scheduling::checks`]) and a NodeClaim's instance-type funnel
//! ([`ClaimRecord::funnel`]) are evaluated from those inputs when asked.

use super::*;
use crate::scheduling::checks::{self, PoolChecks};
use crate::scheduling::kube::Rejection;
use crate::scheduling::{Considered, Limits};

/// kube-scheduler keeps per-node results for clusters up to this size; beyond it, counts.
pub const KUBE_DETAIL_NODES: usize = 100;

/// Everything recorded, by pod and node index (indices into [`Simulation::pods`] and
/// [`Simulation::nodes`], which never shrink).
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    /// By pod index (a `Vec`: a pass records thousands of pods and must stay cheap).
    pub(super) provisioning: Vec<Option<ProvisioningRecord>>,
    pub(super) scheduling: Vec<Option<Rc<KubeRecord>>>,
    pub claims: BTreeMap<usize, ClaimRecord>,
    /// Each node's disruption verdicts as they changed (time order).
    pub disruption: BTreeMap<usize, Vec<DisruptionVerdict>>,
    /// Every command the disruption controller decided on.
    pub commands: Vec<CommandRecord>,
}

/// One provisioning pass, shared by the records of its pods and NodeClaims.
#[derive(Debug)]
pub struct Pass {
    pub at: Millis,
    /// The NodePools as the pass saw them (Karpenter's order: weight, then name descending).
    pub templates: Vec<Template>,
    /// The NodePools' `spec.limits`, per template.
    pub configured: Vec<crate::model::Limits>,
    /// The templates' limits left each time they changed during the pass.
    pub limits: Vec<Vec<Limits>>,
}

/// Karpenter's last decision about a pod.
#[derive(Clone, Debug)]
pub struct ProvisioningRecord {
    pub at: Millis,
    /// The pass that decided (none when Karpenter ignores the pod).
    pub pass: Option<Rc<Pass>>,
    pub outcome: ProvisioningOutcome,
    /// Set when the solver saw the pod (not when Karpenter ignores it).
    pub considered: Option<Considered>,
    /// Preferences had to be relaxed.
    pub relaxed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProvisioningOutcome {
    /// Nominated for an existing node or a NodeClaim in flight (node index).
    Existing(usize),
    /// A new NodeClaim was launched for it (node index).
    NewClaim(usize),
    /// No node, NodeClaim or NodePool could take it: Karpenter's message.
    Failed(String),
    /// Karpenter does not provision for it (a restricted label, or it opts out).
    Ignored(String),
}

impl ProvisioningRecord {
    /// The pod × NodePool checks as the solver saw them, in Karpenter's NodePool order,
    /// with each NodePool's own verdict.
    pub fn pool_checks(&self, pod: &Pod) -> Vec<(PoolChecks, scheduling::PoolVerdict)> {
        let (Some(c), Some(pass)) = (&self.considered, &self.pass) else {
            return Vec::new();
        };
        let Some(limits) = pass.limits.get(c.limits as usize) else {
            return Vec::new();
        };
        pass.templates
            .iter()
            .enumerate()
            .map(|(t, tpl)| {
                let verdict = c
                    .pools
                    .get(t)
                    .cloned()
                    .unwrap_or(scheduling::PoolVerdict::NotTried);
                (
                    checks::pool_checks(tpl, &limits[t], &pass.configured[t], c, pod),
                    verdict,
                )
            })
            .collect()
    }
}

/// kube-scheduler's filters for one pod in its last binding attempt.
#[derive(Clone, Debug)]
pub struct KubeRecord {
    pub at: Millis,
    /// Per node considered (node index): passed, or why not. Empty when the cluster had
    /// more than [`KUBE_DETAIL_NODES`] nodes; then `counts` says how many failed each way.
    pub nodes: Vec<(usize, Result<(), Rejection>)>,
    pub counts: Vec<(Rejection, u32)>,
    pub considered: u32,
    pub feasible: u32,
    /// The node it was bound to (node index).
    pub chosen: Option<usize>,
}

/// Rejections grouped by kind, for clusters too big to keep per node.
pub(super) fn count_rejections<'r>(
    rejections: impl Iterator<Item = &'r Rejection>,
) -> Vec<(Rejection, u32)> {
    let mut counts: BTreeMap<Rejection, u32> = BTreeMap::new();
    for r in rejections {
        *counts.entry(r.clone()).or_default() += 1;
    }
    counts.into_iter().collect()
}

/// How the instance type, capacity type and zone of a NodeClaim were chosen.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The NodeClaim's options with their cheapest compatible price, cheapest first,
    /// truncated to Karpenter's 600.
    pub priced: Vec<(MicroDollars, usize)>,
    /// Metal and accelerated types the AWS provider dropped (others were left).
    pub exotic: Vec<usize>,
    /// The types sent to the launch (at most 60), in price order.
    pub launch: Vec<usize>,
    pub capacity_type: CapacityType,
    pub capacity_reason: CapacityReason,
    /// The cheapest on-demand price among the launch options, and the cheapest spot one.
    pub cheapest_on_demand: Option<MicroDollars>,
    pub cheapest_spot: Option<MicroDollars>,
    /// The chosen (type, offering); `None` when nothing had an offering, or when EC2 had
    /// no capacity in any pool the fleet tried (`ice` then says which).
    pub chosen: Option<(usize, usize)>,
    /// The (type, offering) pools the fleet request tried first and EC2 answered with
    /// `InsufficientInstanceCapacity`, in the order tried; each went into the
    /// unavailable-offerings cache.
    pub ice: Vec<(usize, usize)>,
    /// Offerings of the NodeClaim's instance types that the unavailable-offerings cache
    /// held out of this decision (an earlier launch or a spot interruption found no capacity
    /// there in the last 3 minutes).
    pub cached_unavailable: u32,
    /// How many (type, zone) offerings tied at the lowest price (chosen among at random).
    pub ties: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapacityReason {
    /// A reserved offering was available: Karpenter always prefers reserved capacity.
    Reserved,
    /// Spot was allowed and offered at or below the cheapest on-demand price.
    SpotCheaper,
    /// Only spot was allowed.
    SpotOnly,
    /// Spot was allowed, but no spot offering was as cheap as on-demand.
    SpotPricier,
    /// Spot was allowed but no launch option offered it.
    NoSpotOffering,
    /// The requirements allow on-demand only.
    OnDemandOnly,
}

/// A NodeClaim as it was created.
#[derive(Clone, Debug)]
pub struct ClaimRecord {
    pub pass: Rc<Pass>,
    pub template: usize,
    /// The NodeClaim's requirements: the NodePool's and its pods'.
    pub requirements: Requirements,
    /// Its pods' requests (DaemonSet pods excluded).
    pub requests: Resources,
    pub pods: Vec<usize>,
    pub limits_at_open: Limits,
    /// The instance types that could take all its pods (indices into the template's list).
    pub options: Vec<u32>,
    pub launch: Launch,
    /// The CapacityBuffer virtual pods it was also launched for (`namespace/name`): they
    /// are in `requests`, never in `pods`.
    pub buffer_pods: Vec<String>,
}

/// Where an instance type of the node class left the race for a NodeClaim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeStage {
    /// The NodePool's own requirements exclude it (or it has no offering they allow).
    NodePool(Option<crate::requirements::Incompatibility>),
    /// Its capacity exceeds what is left of the NodePool's limits.
    Limits(Vec<(ResourceName, i64, i64)>),
    /// The pods' requirements exclude it.
    PodRequirements(Option<crate::requirements::Incompatibility>),
    /// Too small for the pods after DaemonSet overhead: (resource, needed, available).
    Resources(Vec<(ResourceName, i64, i64)>),
    /// No available offering in the allowed zones and capacity types.
    Offering,
    /// Beyond Karpenter's first 600 by price.
    Truncated,
    /// A metal or accelerated type, dropped by the AWS provider while others remain.
    Exotic,
    /// Beyond the 60 cheapest sent to the launch.
    NotLaunched,
    /// Sent to the launch; EC2 had no capacity in these zones for its pools of the launch's
    /// capacity type (`InsufficientInstanceCapacity`), so the fleet moved on.
    NoCapacity(Vec<String>),
    /// Sent to the launch; a cheaper offering won.
    Outbid,
    Chosen,
}

/// One instance type's fate, with its cheapest offering price the NodeClaim's zones and
/// capacity types allow (or, if none, any available one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeVerdict {
    pub name: String,
    pub price: Option<MicroDollars>,
    pub stage: TypeStage,
}

impl ClaimRecord {
    pub fn template(&self) -> &Template {
        &self.pass.templates[self.template]
    }

    /// Every instance type of the node class and where it left the race, in price order.
    pub fn funnel(&self) -> Vec<TypeVerdict> {
        let tpl = self.template();
        let types = &tpl.instance_types;
        let in_pool: alloc::collections::BTreeSet<u32> = tpl.candidates.iter().copied().collect();
        let options: alloc::collections::BTreeSet<u32> = self.options.iter().copied().collect();
        let priced: BTreeMap<usize, usize> = self
            .launch
            .priced
            .iter()
            .enumerate()
            .map(|(k, &(_, i))| (i, k))
            .collect();
        let launch: alloc::collections::BTreeSet<usize> =
            self.launch.launch.iter().copied().collect();
        let extended = self.requests.has_extended();
        let mut out: Vec<TypeVerdict> = types
            .iter()
            .enumerate()
            .map(|(i, it)| {
                let stage = if !in_pool.contains(&(i as u32)) {
                    TypeStage::NodePool(it.requirements.intersects(&tpl.requirements).err())
                } else if let Some(over) = over_limits(&self.limits_at_open, &it.capacity) {
                    TypeStage::Limits(over)
                } else if options.contains(&(i as u32)) {
                    if self.launch.chosen.is_some_and(|(c, _)| c == i) {
                        TypeStage::Chosen
                    } else if !priced.contains_key(&i) {
                        if scheduling::cheapest_offering(it, &self.requirements, None).is_none() {
                            TypeStage::Offering
                        } else {
                            TypeStage::Truncated
                        }
                    } else if self.launch.exotic.contains(&i) {
                        TypeStage::Exotic
                    } else if !launch.contains(&i) {
                        TypeStage::NotLaunched
                    } else {
                        let refused: Vec<String> = self
                            .launch
                            .ice
                            .iter()
                            .filter(|&&(t, _)| t == i)
                            .map(|&(t, o)| types[t].offerings[o].zone.clone())
                            .collect();
                        if refused.is_empty() {
                            TypeStage::Outbid
                        } else {
                            TypeStage::NoCapacity(refused)
                        }
                    }
                } else if let Err(e) = it.requirements.intersects(&self.requirements) {
                    TypeStage::PodRequirements(Some(e))
                } else {
                    let h = &tpl.headroom[i];
                    let fits = if extended {
                        self.requests.fits_in(h)
                    } else {
                        self.requests.fits_in_core(h)
                    };
                    if !fits {
                        let short = ResourceName::ALL
                            .iter()
                            .filter(|&&r| {
                                self.requests.get(r) > 0 && self.requests.get(r) > h.get(r)
                            })
                            .map(|&r| (r, self.requests.get(r), h.get(r)))
                            .collect();
                        TypeStage::Resources(short)
                    } else if !scheduling::has_compatible_offering(it, &self.requirements) {
                        TypeStage::Offering
                    } else {
                        // Met every test alone but not with the NodeClaim's other pods'
                        // topology or minValues.
                        TypeStage::PodRequirements(None)
                    }
                };
                let price = scheduling::cheapest_offering(it, &self.requirements, None)
                    .or_else(|| {
                        it.offerings
                            .iter()
                            .filter(|o| o.available)
                            .min_by_key(|o| o.price)
                    })
                    .map(|o| o.price);
                TypeVerdict {
                    name: it.name.clone(),
                    price,
                    stage,
                }
            })
            .collect();
        out.sort_by(|a, b| {
            a.price
                .unwrap_or(MicroDollars::MAX)
                .cmp(&b.price.unwrap_or(MicroDollars::MAX))
                .then(a.name.cmp(&b.name))
        });
        out
    }
}

fn over_limits(limits: &Limits, capacity: &Resources) -> Option<Vec<(ResourceName, i64, i64)>> {
    let over: Vec<(ResourceName, i64, i64)> = (0..RESOURCE_COUNT)
        .filter_map(|i| {
            limits.resources[i]
                .filter(|&rem| capacity.0[i] > rem)
                .map(|rem| (ResourceName::ALL[i], capacity.0[i], rem))
        })
        .collect();
    (!over.is_empty()).then_some(over)
}

/// Chooses what a NodeClaim launches as: Karpenter orders its options by price and keeps
/// 600; the AWS provider drops metal and accelerated types while others remain, sends the
/// 60 cheapest, picks the capacity type (reserved, then spot if no pricier than the cheapest
/// on-demand, else on-demand) and the cheapest offering of it, ties broken at random.
///
/// The fleet request carries every (type, zone) pool of that capacity type; a pool EC2 has
/// no capacity for (`short`) fails and the fleet takes the next cheapest, so the pools tried
/// and refused are returned in [`Launch::ice`].
pub(super) fn choose_launch(
    types: &[InstanceType],
    options: &[u32],
    reqs: &Requirements,
    rng: &mut Rng,
    short: &dyn Fn(&InstanceType, &catalog::Offering) -> bool,
) -> Launch {
    let mut priced: Vec<(MicroDollars, usize)> = options
        .iter()
        .filter_map(|&i| {
            scheduling::cheapest_offering(&types[i as usize], reqs, None)
                .map(|o| (o.price, i as usize))
        })
        .collect();
    priced.sort_by(|a, b| a.0.cmp(&b.0).then(types[a.1].name.cmp(&types[b.1].name)));
    priced.truncate(MAX_INSTANCE_TYPES);
    let has_min_values = reqs.iter().any(|r| r.min_values.is_some());
    let mut candidates = priced.clone();
    let mut exotic = Vec::new();
    if !has_min_values {
        let plain: Vec<(MicroDollars, usize)> = candidates
            .iter()
            .copied()
            .filter(|&(_, i)| !is_exotic(&types[i]))
            .collect();
        if !plain.is_empty() {
            exotic = candidates
                .iter()
                .filter(|&&(_, i)| is_exotic(&types[i]))
                .map(|&(_, i)| i)
                .collect();
            candidates = plain;
        }
    }
    let allows = |ct: CapacityType| {
        reqs.get(wk::CAPACITY_TYPE)
            .is_none_or(|r| r.has(ct.as_str()))
    };
    let cheapest_of = |ct: CapacityType, list: &[(MicroDollars, usize)]| {
        list.iter()
            .filter_map(|&(_, i)| {
                scheduling::cheapest_offering(&types[i], reqs, Some(ct)).map(|o| o.price)
            })
            .min()
    };
    let cheapest_od = cheapest_of(CapacityType::OnDemand, &candidates);
    let spot_cap =
        if allows(CapacityType::Spot) && allows(CapacityType::OnDemand) && !has_min_values {
            cheapest_od
        } else {
            None
        };
    candidates.truncate(MAX_LAUNCH_TYPES);
    let launch: Vec<usize> = candidates.iter().map(|&(_, i)| i).collect();
    let offers = |ct: CapacityType| {
        candidates.iter().any(|&(_, i)| {
            scheduling::cheapest_offering(&types[i], reqs, Some(ct)).is_some_and(|o| {
                ct != CapacityType::Spot || spot_cap.is_none_or(|cap| o.price <= cap)
            })
        })
    };
    let capacity_type = [CapacityType::Reserved, CapacityType::Spot]
        .into_iter()
        .find(|&ct| allows(ct) && offers(ct))
        .unwrap_or(CapacityType::OnDemand);
    let cheapest_spot = cheapest_of(CapacityType::Spot, &candidates);
    let capacity_reason = match capacity_type {
        CapacityType::Reserved => CapacityReason::Reserved,
        CapacityType::Spot if !allows(CapacityType::OnDemand) => CapacityReason::SpotOnly,
        CapacityType::Spot => CapacityReason::SpotCheaper,
        CapacityType::OnDemand if !allows(CapacityType::Spot) => CapacityReason::OnDemandOnly,
        CapacityType::OnDemand if cheapest_spot.is_none() => CapacityReason::NoSpotOffering,
        CapacityType::OnDemand => CapacityReason::SpotPricier,
    };
    // The fleet's pools: every (type, zone) offering of that capacity type (for reserved
    // capacity, of the reservations the NodeClaim was pinned to).
    let zone_req = reqs.get(wk::ZONE);
    let reservation_req = reqs.get(wk::RESERVATION_ID);
    let mut pools: Vec<(MicroDollars, usize, usize)> = Vec::new();
    for &(_, i) in &candidates {
        for (oi, o) in types[i].offerings.iter().enumerate() {
            if o.available
                && o.capacity_type == capacity_type
                && zone_req.is_none_or(|z| z.has(&o.zone))
                && (o.capacity_type != CapacityType::Reserved
                    || reservation_req
                        .is_none_or(|r| o.reservation.as_ref().is_some_and(|(id, _)| r.has(id))))
            {
                pools.push((o.price, i, oi));
            }
        }
    }
    // The cheapest pool first, ties broken at random; a pool without capacity fails and the
    // fleet moves on to the next.
    let mut chosen = None;
    let mut ice = Vec::new();
    let mut ties = 0;
    while let Some(best_price) = pools.iter().map(|p| p.0).min() {
        let mut best: Vec<(usize, usize)> = pools
            .iter()
            .filter(|p| p.0 == best_price)
            .map(|p| (p.1, p.2))
            .collect();
        // `ReservedOfferingFilter`: of reserved offerings, the one with most instances left.
        let left = |&(t, o): &(usize, usize)| {
            types[t].offerings[o]
                .reservation
                .as_ref()
                .map_or(0, |r| r.1)
        };
        if let Some(most) = best.iter().map(left).max() {
            best.retain(|p| left(p) == most);
        }
        ties = best.len() as u32;
        let pick = best[rng.below(best.len() as u64) as usize];
        if short(&types[pick.0], &types[pick.0].offerings[pick.1]) {
            ice.push(pick);
            pools.retain(|p| (p.1, p.2) != pick);
            continue;
        }
        chosen = Some(pick);
        break;
    }
    Launch {
        priced,
        exotic,
        launch,
        capacity_type,
        capacity_reason,
        cheapest_on_demand: cheapest_od,
        cheapest_spot,
        chosen,
        ice,
        cached_unavailable: 0,
        ties,
    }
}

/// Why the disruption controller left a node alone when it last looked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocker {
    /// A pending pod is nominated for it.
    Nominated,
    /// The node (NodeClaim) has `karpenter.sh/do-not-disrupt: "true"`.
    NodeDoNotDisrupt,
    /// A pod (`namespace/name`) has `karpenter.sh/do-not-disrupt`.
    PodDoNotDisrupt(String),
    /// A PodDisruptionBudget allows no eviction, or several select one pod (Karpenter's
    /// message).
    Pdb(String),
    /// `consolidateAfter: Never` (the NodePool's name).
    ConsolidationDisabled(String),
    /// `consolidationPolicy: WhenEmpty` and the node has pods (the NodePool's name).
    WhenEmptyOnly(String),
    /// The NodePool's budget for the reason allows no more disruptions now.
    Budget(disruption::Reason),
    /// Some pod would not schedule elsewhere (Karpenter's message).
    PodsWouldNotSchedule(String),
    /// More than one replacement would be needed.
    TooManyReplacements(usize),
    /// Spot-to-spot consolidation is disabled (the feature gate is off by default).
    SpotToSpot,
    /// Spot-to-spot consolidation of one node found fewer than 15 cheaper spot types (how
    /// many it found).
    SpotToSpotTooFew(usize),
    /// `consolidationPolicy: Balanced` scored the move below its threshold (Karpenter
    /// publishes no event for it; the score is kept for the explanations).
    Balanced(BalancedScore),
    /// A cheaper replacement would not keep the minValues.
    MinValues,
    /// No replacement is cheaper (with a detail, if any).
    NotCheaper(Option<&'static str>),
    /// The last provisioning pass placed CapacityBuffer virtual pods on the node (its
    /// name): it is not empty (`K@v1.14.1:pkg/controllers/disruption/emptiness.go`).
    BufferPods(String),
}

impl Blocker {
    /// Karpenter's own words (the `DisruptionBlocked` / `Unconsolidatable` event message),
    /// written by its `Display` beside the other events' words ([`super::event`]).
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// A short, stable name (the JSON's `blocker`), after Karpenter's disruption-blocker
    /// taxonomy (kubernetes-sigs/karpenter#3255).
    pub fn kind(&self) -> &'static str {
        match self {
            Blocker::Nominated => "nominated",
            Blocker::NodeDoNotDisrupt => "do-not-disrupt",
            Blocker::PodDoNotDisrupt(_) => "do-not-disrupt",
            Blocker::Pdb(_) => "pdb",
            Blocker::ConsolidationDisabled(_) => "consolidation-disabled",
            Blocker::WhenEmptyOnly(_) => "when-empty",
            Blocker::Budget(_) => "budget",
            Blocker::PodsWouldNotSchedule(_) => "no-feasible-schedule",
            Blocker::TooManyReplacements(_) => "too-many-replacements",
            Blocker::SpotToSpot => "spot-to-spot-disabled",
            Blocker::SpotToSpotTooFew(_) => "spot-to-spot-too-few-options",
            Blocker::Balanced(_) => "balanced-score",
            Blocker::MinValues => "min-values",
            Blocker::NotCheaper(_) => "same-or-more-expensive-replacement",
            Blocker::BufferPods(_) => "buffer-pods",
        }
    }
}

/// How `consolidationPolicy: Balanced` scored a move for one NodePool
/// (`balanced.go` `ScoreMove`, v1.14): the share of the pool's cost it saves over the share of
/// the pool's disruption it causes, approved at 1/k = 0.5 or more.
#[derive(Clone, Debug)]
pub struct BalancedScore {
    pub node_pool: String,
    /// Micro-dollars per hour the move saves (this pool's share of it).
    pub savings: i64,
    /// What the pool's NodeClaims cost per hour, in micro-dollars.
    pub pool_cost: i64,
    /// The move's disruption cost: per node 1, plus each moving pod's positive eviction cost.
    pub disruption: f64,
    /// The same over every node of the pool.
    pub pool_disruption: f64,
    /// Whether the move was the best case of a candidate (deleting it outright), checked
    /// before simulating it (`CanPassThreshold`, single-node consolidation).
    pub best_case: bool,
}

/// `v1.BalancedK`: a move must save at least 1/k of its share of disruption.
pub const BALANCED_K: u32 = 2;

impl BalancedScore {
    pub fn savings_fraction(&self) -> f64 {
        if self.pool_cost <= 0 {
            0.0
        } else {
            self.savings as f64 / self.pool_cost as f64
        }
    }

    pub fn disruption_fraction(&self) -> f64 {
        if self.pool_disruption <= 0.0 {
            0.0
        } else {
            self.disruption / self.pool_disruption
        }
    }

    /// `ScoreResult.Score()`: 0 when nothing is saved (or the pool has no cost or
    /// disruption to measure against), unbounded when nothing is disrupted.
    pub fn score(&self) -> f64 {
        if self.pool_cost <= 0 || self.pool_disruption <= 0.0 {
            return 0.0;
        }
        let saved = self.savings_fraction();
        if saved <= 0.0 {
            return 0.0;
        }
        let disrupted = self.disruption_fraction();
        if disrupted == 0.0 {
            return f64::INFINITY;
        }
        saved / disrupted
    }

    pub fn threshold() -> f64 {
        1.0 / f64::from(BALANCED_K)
    }

    pub fn approved(&self) -> bool {
        self.score() >= Self::threshold()
    }
}

impl PartialEq for BalancedScore {
    fn eq(&self, other: &Self) -> bool {
        self.node_pool == other.node_pool
            && self.savings == other.savings
            && self.pool_cost == other.pool_cost
            && self.disruption.to_bits() == other.disruption.to_bits()
            && self.pool_disruption.to_bits() == other.pool_disruption.to_bits()
            && self.best_case == other.best_case
    }
}

impl Eq for BalancedScore {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisruptionVerdict {
    pub at: Millis,
    pub blocker: Blocker,
}

/// A command the disruption controller decided on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandRecord {
    pub at: Millis,
    /// `Emptiness`, `Drift`, `MultiNodeConsolidation` or `SingleNodeConsolidation`.
    pub method: &'static str,
    pub reason: disruption::Reason,
    /// Node indices.
    pub candidates: Vec<usize>,
    /// The replacement's instance-type options (names, cheapest first), if it replaces.
    pub replacement: Option<Vec<String>>,
    /// Micro-dollars per hour saved.
    pub savings: i64,
    /// The pods it moves (DaemonSet pods do not count), as the controller counted them.
    pub pods: usize,
    /// Whether it was executed (validation may reject it after 15 s).
    pub executed: bool,
}

impl Evidence {
    /// Karpenter's last decision about the pod (by pod index).
    pub fn provisioning(&self, pod: usize) -> Option<&ProvisioningRecord> {
        self.provisioning.get(pod).and_then(Option::as_ref)
    }

    /// kube-scheduler's last filter results for the pod.
    pub fn scheduling(&self, pod: usize) -> Option<&KubeRecord> {
        self.scheduling.get(pod).and_then(Option::as_deref)
    }

    pub(super) fn set_provisioning(&mut self, pod: usize, record: ProvisioningRecord) {
        if self.provisioning.len() <= pod {
            self.provisioning.resize(pod + 1, None);
        }
        self.provisioning[pod] = Some(record);
    }

    pub(super) fn set_scheduling(&mut self, pod: usize, record: Rc<KubeRecord>) {
        if self.scheduling.len() <= pod {
            self.scheduling.resize(pod + 1, None);
        }
        self.scheduling[pod] = Some(record);
    }

    pub(super) fn disruption_verdict(&mut self, n: usize, at: Millis, blocker: Blocker) {
        let history = self.disruption.entry(n).or_default();
        match history.last_mut() {
            Some(last) if last.blocker == blocker => {}
            Some(last) if last.at == at => last.blocker = blocker,
            _ => history.push(DisruptionVerdict { at, blocker }),
        }
    }
}

//! The simulation: a scenario played on a simulated clock.
//!
//! Sans-I/O like smoltcp: the caller says how far to advance ([`Simulation::run_until`]);
//! the simulation processes every action due by then (NodeClaim lifecycle steps, Job pods
//! finishing, Timeline steps, the provisioner's batch window closing, the disruption
//! controller's polls, drains and expirations), running kube-scheduler after each change.
//! Everything it does is appended to an event stream, and [`Simulation::report`] renders the
//! state at the current instant.
//!
//! The simulation is split the way Karpenter is: the cluster state with its queries
//! (`cluster`), and controllers that own their state and reconcile against the cluster
//! (`provisioner`, `kube_scheduler`, `lifecycle`, `disrupt`, `termination`, `workloads`),
//! the AWS cloud provider (`capacity`) and a recorder of what they decided (`recorder`).
//! This file is the composition and the clock.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::catalog::{self, CapacityType, InstanceType, MicroDollars, PriceSource};
use crate::disruption;
use crate::duration;
use crate::karpenter::{Behaviour, Gate, Karpenter, MinValuesPolicy, PreferencePolicy, Settings};
use crate::model::*;
use crate::pod::{self, Phase, Pod, PodNamer, effective_requests};
use crate::report::*;
use crate::requirements::{Operator, Requirement, Requirements, Undefined};
use crate::resources::{RESOURCE_COUNT, ResourceName, Resources};
use crate::rng::Rng;
use crate::scheduling::kube::{self, KubeNode};
use crate::scheduling::topology::Topology;
use crate::scheduling::{self, NodeView, Placement, Solver, Template};
use crate::taints::{Taint, TaintEffect};
use crate::wellknown as wk;

mod applied;
mod buffers;
mod candidacy;
mod capacity;
mod cluster;
mod disrupt;
pub mod event;
pub mod evidence;
mod health;
pub mod history;
mod kube_scheduler;
mod lifecycle;
mod overlays;
mod preemption;
mod provisioner;
mod recorder;
mod report;
mod reservations;
mod snapshot;
mod static_pools;
mod termination;
mod timeline;
mod volumes;
mod workloads;

pub use candidacy::Candidacy;
use cluster::{Cluster, WorkloadState};
pub use cluster::{Node, NodeState};
pub use disrupt::DisruptionDecision;
pub use event::{Event, EventKind};
pub use termination::SPOT_NOTICE;
pub use volumes::ClaimState;

/// Hard caps that keep a page responsive; the reader reports them with line numbers first.
pub const MAX_PODS: usize = 50_000;
pub const MAX_NODES: usize = 5_000;

/// Karpenter's batching window.
/// Pods that stay provisionable are re-triggered this often.
pub const RETRIGGER: Millis = 10_000;
/// Karpenter's cap on instance types per NodeClaim, and the AWS launch's.
pub const MAX_INSTANCE_TYPES: usize = 600;
pub const MAX_LAUNCH_TYPES: usize = 60;

/// Why a scenario cannot start (the manifest reader catches most of these earlier).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// e.g. an unknown region, zone or fixed-node instance type.
    Catalog(String),
    TooLarge(String),
}

impl core::fmt::Display for SimError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SimError::Catalog(m) | SimError::TooLarge(m) => f.write_str(m),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SimError {}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Action {
    Launch(usize),
    Register(usize),
    Initialize(usize),
    PodFinish(usize),
    /// A pod kube-scheduler preempted has finished terminating.
    PreemptedGone(usize),
    Timeline(usize),
    Retrigger,
    /// The disruption controller looks for work.
    DisruptionPoll,
    /// A computed command's 15 s are up: validate it and execute it.
    DisruptionValidate,
    /// The NodeClaim's `expireAfter` has passed.
    Expire(usize),
    /// The termination controller drains a deleting node (again).
    Drain(usize),
    /// A deleting node's instance is gone: the Node and NodeClaim disappear.
    TerminationDone(usize),
    /// Entries of the unavailable-offerings cache may have run out.
    OfferingsExpire,
    /// A shortage a Timeline step declared is over.
    ShortageEnds(usize),
    /// Node repair looks at a node whose condition is unhealthy.
    RepairCheck(usize),
    /// The taint manager's `NoExecute` eviction of a node that is not ready.
    TaintEviction(usize),
    /// A capacity reservation's phase changes (a capacity block expiring, an end).
    ReservationPhase(usize),
    /// The CapacityBuffer controller looks at its buffers.
    BufferCheck,
}

/// The composition: the cluster, the controllers that reconcile against it (each owning its
/// own state), the cloud provider, the recorder of what they decided, and the clock that
/// dispatches each due action to the controller it belongs to.
#[derive(Clone)]
pub struct Simulation {
    // ----- the clock -----
    now: Millis,
    /// Actions due, in time order, ties in the order they were queued.
    queue: BTreeMap<(Millis, u64), Action>,
    /// Orders queued actions and created pods.
    seq: u64,
    /// Counts the instants at which something was processed.
    revision: u64,
    /// The scenario's Timeline steps (a re-applied workload appends its scale step).
    timeline: Vec<TimelineStep>,
    /// The scenario's objects as written (for [`Simulation::applied`]).
    written: alloc::sync::Arc<[crate::manifest::Written]>,
    rng: Rng,
    namer: PodNamer,
    /// The Karpenter being simulated: its version, feature gates and settings.
    karpenter: Karpenter,
    // ----- the state every controller reconciles against -----
    cluster: Cluster,
    // ----- the controllers, each with its own state -----
    /// Karpenter's provisioner: its batch window, rate limit and candidate cache.
    provisioner: provisioner::Provisioner,
    /// Karpenter's disruption controller: its polls, commands and memo.
    disruption: disrupt::Disruption,
    /// Karpenter's termination controller: drains and their progress.
    termination: termination::Termination,
    /// The AWS provider and EC2: instance types, AMIs, shortages, unavailable offerings.
    cloud: capacity::CloudProvider,
    /// The nodeoverlay controller: the overlays and the catalogs they give each NodePool.
    overlays: overlays::NodeOverlays,
    /// The CapacityBuffer controller: the buffers, their virtual pods, when it looks.
    buffers: buffers::Buffers,
    // ----- the output -----
    /// The event stream and what each decision saw.
    recorder: recorder::Recorder,
    /// Where the numbers are approximations.
    notes: Vec<String>,
    /// Whether scheduling passes take their exact shortcuts
    /// ([`crate::scheduling::Solver::shortcuts`]).
    solver_shortcuts: bool,
}

impl Simulation {
    /// Builds the cluster at time 0: objects applied, fixed nodes Ready, pods pending.
    /// The Karpenter being simulated: version, feature gates, settings.
    pub fn karpenter(&self) -> &Karpenter {
        &self.karpenter
    }

    /// Karpenter leaves pods with DRA resource claims alone (`IGNORE_DRA_REQUESTS`, on by
    /// default, v1.7+; the playground has no setting to turn it off).
    fn refuses_dra(&self) -> bool {
        self.karpenter.follows(Behaviour::DraPodsNotProvisioned)
    }

    /// `preferencePolicy: Ignore`, on a version that has the setting (v1.4+).
    fn ignores_preferences(&self) -> bool {
        self.karpenter.settings.preference_policy == PreferencePolicy::Ignore
            && self.karpenter.follows(Behaviour::PreferencePolicySetting)
    }

    /// `minValuesPolicy: BestEffort`, on a version that has the setting (v1.6+).
    fn min_values_best_effort(&self) -> bool {
        self.karpenter.settings.min_values_policy == MinValuesPolicy::BestEffort
            && self.karpenter.follows(Behaviour::MinValuesPolicySetting)
    }

    pub fn new(scenario: Scenario) -> Result<Simulation, SimError> {
        Self::with_cache(scenario, &mut catalog::CatalogCache::new())
    }

    /// [`Simulation::new`], reusing instance types resolved by earlier simulations.
    pub fn with_cache(
        scenario: Scenario,
        cache: &mut catalog::CatalogCache,
    ) -> Result<Simulation, SimError> {
        let seed = scenario.cluster.seed;
        let region = scenario.cluster.region.clone();
        let zones = if !scenario.cluster.zones.is_empty() {
            scenario.cluster.zones.clone()
        } else if !scenario.instance_types.is_empty() {
            let mut z: Vec<String> = scenario
                .instance_types
                .iter()
                .flat_map(|t| t.offerings.iter().map(|o| o.zone.clone()))
                .collect();
            z.sort();
            z.dedup();
            z
        } else {
            catalog::aws::region_zones(&region).ok_or_else(|| {
                SimError::Catalog(format!(
                    "unknown region \"{region}\"; use one of {}",
                    catalog::aws::REGIONS.join(", ")
                ))
            })?
        };
        let mut sim = Simulation {
            now: 0,
            cloud: capacity::CloudProvider::new(region, zones, scenario.instance_types.clone()),
            overlays: overlays::NodeOverlays::new(scenario.node_overlays.clone()),
            buffers: buffers::Buffers::new(
                scenario.capacity_buffers.clone(),
                scenario.pod_templates.clone(),
            ),
            cluster: Cluster::new(&scenario),
            timeline: scenario.timeline.clone(),
            written: scenario.written.clone(),
            queue: BTreeMap::new(),
            seq: 0,
            rng: Rng::new(seed),
            namer: PodNamer::new(seed),
            karpenter: scenario.cluster.karpenter.clone(),
            notes: Vec::new(),
            revision: 0,
            provisioner: provisioner::Provisioner::default(),
            disruption: disrupt::Disruption::default(),
            termination: termination::Termination::default(),
            recorder: recorder::Recorder::default(),
            solver_shortcuts: true,
        };
        let total: u64 = scenario
            .cluster
            .node_groups
            .iter()
            .map(|g| u64::from(g.count))
            .sum::<u64>()
            + scenario.nodes.len() as u64;
        if total > MAX_NODES as u64 {
            return Err(SimError::TooLarge(format!(
                "{total} fixed nodes; the playground simulates at most {MAX_NODES}"
            )));
        }
        let pods: u64 = sim
            .cluster
            .workloads
            .iter()
            .filter(|w| w.kind != WorkloadKind::DaemonSet)
            .map(|w| u64::from(w.replicas))
            .sum();
        if pods > MAX_PODS as u64 {
            return Err(SimError::TooLarge(format!(
                "{pods} pods; the playground simulates at most {MAX_PODS}"
            )));
        }
        for nc in scenario.node_classes.iter() {
            let prefilter = catalog::Prefilter::for_pools(sim.pools_using(&nc.key()));
            sim.cloud
                .resolve_cached(cache, nc, &prefilter)
                .map_err(catalog_error)?;
        }
        if sim.reserved_capacity_runs() && !scenario.capacity_reservations.is_empty() {
            sim.cloud.set_reservations(&scenario.capacity_reservations);
            sim.schedule_reservation_phases();
        }
        for group in &scenario.cluster.node_groups {
            sim.add_node_group(group)?;
        }
        for node in &scenario.nodes {
            sim.add_existing_node(node);
        }
        sim.schedule_existing_expiries();
        // Karpenter's drift controller looks at every NodeClaim, not only after a change: a
        // snapshot's node may have drifted already.
        if !scenario.nodes.is_empty() {
            sim.detect_drift();
        }
        sim.provision_immediate_claims();
        for w in 0..sim.cluster.workloads.len() {
            sim.start_workload(w);
        }
        for (i, step) in sim.timeline.clone().iter().enumerate() {
            sim.schedule(step.at, Action::Timeline(i));
        }
        sim.note_prices();
        sim.settle();
        sim.watch_buffers();
        // The disruption controller polls whether or not anything happens: a snapshot's
        // drifted or under-used node is found with nothing pending and no Timeline step.
        sim.plan_disruption();
        sim.observe_figures();
        Ok(sim)
    }

    /// The NodePools that launch with a node class, including ones a Timeline step applies
    /// later (their instance types must be resolved too).
    fn pools_using<'a>(&'a self, node_class: &'a str) -> impl Iterator<Item = &'a NodePool> + 'a {
        let applied = self.timeline.iter().filter_map(|s| match &s.action {
            TimelineAction::Apply(obj) => match &**obj {
                AppliedObject::NodePool(np) => Some(np),
                _ => None,
            },
            _ => None,
        });
        self.cluster
            .node_pools
            .iter()
            .chain(applied)
            .filter(move |np| np.node_class_ref.key() == node_class)
    }

    fn note_prices(&mut self) {
        if self.cloud.builtin_catalog() {
            self.notes.push(
                "Spot prices are approximations: on-demand × (1 − the AWS Spot Instance Advisor's \
                 typical saving), not live prices; EC2 Fleet's price-capacity-optimized choice is \
                 approximated by the cheapest offering."
                    .into(),
            );
        }
    }

    pub fn now(&self) -> Millis {
        self.now
    }

    /// What the engine saw when it decided: the pods' provisioning and binding, the
    /// NodeClaims' launches, the disruption controller's verdicts and commands.
    pub fn evidence(&self) -> &evidence::Evidence {
        &self.recorder.evidence
    }

    pub fn events(&self) -> &[Event] {
        self.recorder.events()
    }

    pub fn pods(&self) -> &[Pod] {
        &self.cluster.pods
    }

    pub fn nodes(&self) -> &[Node] {
        &self.cluster.nodes
    }

    /// The NodePools in the order the scenario gave them (indices match [`Node::nodepool`]),
    /// each with whether a Timeline step has deleted it.
    pub fn node_pools(&self) -> impl Iterator<Item = (&NodePool, bool)> + '_ {
        self.cluster
            .node_pools
            .iter()
            .zip(self.cluster.pool_deleted.iter().copied())
    }

    /// When the node becomes `Consolidatable` (see [`disruption::consolidatable_at`]):
    /// `consolidateAfter` after its last pod event, if its NodePool consolidates at all.
    pub fn consolidatable_at(&self, n: usize) -> Option<Millis> {
        self.cluster.consolidatable_at(n)
    }

    /// Where the numbers are approximations (spot prices, fallback regional prices).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Whether a NodePool can launch: its EC2NodeClass exists (Karpenter marks it not Ready
    /// otherwise and skips it).
    pub fn node_pool_ready(&self, pool: usize) -> bool {
        self.node_pool_not_ready(pool).is_none()
    }

    /// Why a NodePool is not Ready (Karpenter skips it), if it is not: its validation failed,
    /// or its EC2NodeClass is missing or being deleted.
    pub fn node_pool_not_ready(&self, pool: usize) -> Option<String> {
        let np = self.cluster.node_pools.get(pool)?;
        let class = np.node_class_ref.key();
        let (kind, name) = (&np.node_class_ref.kind, &np.node_class_ref.name);
        if let Some(why) = &np.invalid {
            Some(why.clone())
        } else if !self.cloud.has_catalog(&class) {
            Some(format!("{kind} \"{name}\" not found"))
        } else if self.cluster.node_classes_deleting.contains(class.as_ref()) {
            Some(format!("{kind} \"{name}\" is being deleted"))
        } else {
            None
        }
    }

    /// When something will next happen (an action falls due or a batch window closes), or
    /// `None` when the cluster is at rest. Lets a viewer step from event to event.
    pub fn next_event_time(&self) -> Option<Millis> {
        self.next_time()
    }

    /// Counts the instants at which the simulation processed something; a viewer re-reads
    /// the cluster only when it changed.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    fn schedule(&mut self, at: Millis, action: Action) {
        self.seq += 1;
        self.queue.insert((at, self.seq), action);
    }

    fn event(&mut self, kind: EventKind) {
        self.recorder.event(self.now, kind);
    }

    /// An event about an object unless the last verdict about it was the same.
    fn verdict(&mut self, kind: EventKind) {
        self.recorder.verdict(self.now, kind);
    }

    /// Managed node groups run the EKS-optimized AL2023 AMI with default kubelet settings.
    fn default_node_class() -> NodeClass {
        let mut nc = NodeClass::al2023("");
        nc.ami_alias = None;
        nc
    }

    fn add_node_group(&mut self, group: &NodeGroup) -> Result<(), SimError> {
        let nc = Self::default_node_class();
        let it = self.cloud.node_group_type(group, &nc)?;
        let zones = if group.zones.is_empty() {
            self.cloud.zones().to_vec()
        } else {
            group.zones.clone()
        };
        let ct = CapacityType::parse(&group.capacity_type).unwrap_or(CapacityType::OnDemand);
        for i in 0..group.count as usize {
            let zone = zones
                .get(i % zones.len().max(1))
                .cloned()
                .unwrap_or_default();
            let offering = it
                .offerings
                .iter()
                .find(|o| o.zone == zone && o.capacity_type == ct)
                .or_else(|| it.offerings.iter().find(|o| o.capacity_type == ct));
            let (price, source) =
                offering.map_or((0, PriceSource::Regional), |o| (o.price, o.price_source));
            let mut rng = self.rng.fork(pod::stable_hash(&[
                "nodegroup",
                &group.name,
                &i.to_string(),
            ]));
            let name = format!("{}-{}", group.name, rng.k8s_suffix(5));
            let mut labels = it.labels.clone();
            labels.extend(group.labels.clone());
            labels.insert(wk::ZONE.into(), zone.clone());
            labels.insert(wk::CAPACITY_TYPE.into(), ct.as_str().into());
            labels.insert(wk::HOSTNAME.into(), name.clone());
            labels.insert("eks.amazonaws.com/nodegroup".into(), group.name.clone());
            let node = Node {
                node_group: Some(group.name.clone()),
                capacity_type: ct,
                price,
                price_source: source,
                taints: group.taints.clone(),
                image_id: capacity::image_id("eks-nodegroup", 0),
                ..Node::ready_at_start(name, it.name.clone(), labels, it.capacity, it.allocatable)
            };
            // Its DaemonSet pods come with the workloads (`start_workload`), after every
            // node that exists at time zero.
            self.cluster.nodes.push(node);
        }
        Ok(())
    }

    // ----- the clock -----

    fn next_time(&self) -> Option<Millis> {
        let q = self.queue.keys().next().map(|(t, _)| *t);
        match (q, self.provisioner.batch_close(&self.karpenter.settings)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Advances the clock to `until`, processing every action due by then.
    pub fn run_until(&mut self, until: Millis) {
        let mut guard = 0u64;
        while let Some(t) = self.next_time() {
            if t > until {
                break;
            }
            guard += 1;
            if guard > 1_000_000 {
                break;
            }
            self.now = self.now.max(t);
            self.step();
        }
        self.now = self.now.max(until);
    }

    /// Turns the scheduling passes' exact shortcuts off
    /// ([`crate::scheduling::Solver::shortcuts`]), so that a test can check that they change
    /// nothing. Not for anything else: it only costs time.
    #[doc(hidden)]
    pub fn without_solver_shortcuts(mut self) -> Simulation {
        self.solver_shortcuts = false;
        self
    }

    /// Runs until nothing more would change, or `limit`; returns the time reached.
    ///
    /// NodeClaim expirations are scheduled far ahead (`expireAfter` defaults to 30 days):
    /// a cluster whose only future is an expiry after `limit` is at rest now.
    pub fn run_to_rest(&mut self, limit: Millis) -> Millis {
        let mut guard = 0u64;
        while let Some(t) = self.next_time() {
            if t > limit {
                if self.only_expirations_ahead() {
                    return self.now;
                }
                self.now = limit;
                return limit;
            }
            guard += 1;
            if guard > 1_000_000 {
                break;
            }
            self.now = self.now.max(t);
            self.step();
        }
        self.now
    }

    fn only_expirations_ahead(&self) -> bool {
        !self.provisioner.batching() && self.queue.values().all(|a| matches!(a, Action::Expire(_)))
    }

    /// Processes everything due now.
    fn step(&mut self) {
        self.revision += 1;
        let now = self.now;
        while let Some(entry) = self.queue.first_entry() {
            if entry.key().0 > now {
                break;
            }
            let action = entry.remove();
            self.apply(action);
            self.settle();
        }
        if self
            .provisioner
            .batch_close(&self.karpenter.settings)
            .is_some_and(|c| c <= now)
        {
            self.provision();
            self.settle();
        }
        self.reconcile_static_pools();
        self.watch_buffers();
        self.plan_disruption();
        self.unpark_drains();
        self.observe_figures();
    }

    /// kube-scheduler binds what fits; what does not is what the provisioner watches.
    fn settle(&mut self) {
        let unschedulable = self.kube_schedule();
        self.watch_provisionable(&unschedulable);
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Launch(n) => self.launch(n),
            Action::Register(n) => self.register(n),
            Action::Initialize(n) => self.initialize(n),
            Action::PodFinish(p) => self.finish_pod(p),
            Action::PreemptedGone(p) => self.preempted_gone(p),
            Action::Timeline(i) => self.timeline_step(i),
            Action::Retrigger => self.retrigger(),
            Action::DisruptionPoll => self.disruption_poll_due(),
            Action::DisruptionValidate => self.disruption_validate(),
            Action::Expire(n) => self.expire(n),
            Action::Drain(n) => self.drain(n),
            Action::TerminationDone(n) => self.termination_done(n),
            Action::OfferingsExpire => self.expire_unavailable(),
            Action::ShortageEnds(i) => self.end_shortage(i),
            Action::RepairCheck(n) => self.repair_check(n),
            Action::TaintEviction(n) => self.taint_eviction(n),
            Action::ReservationPhase(i) => self.reservation_phase(i),
            Action::BufferCheck => self.check_buffers(),
        }
    }
}

/// The AWS provider's `ExoticInstanceTypeFilter` test (`pkg/providers/instance/filter/filter.go`):
/// a metal size, or any capacity of the five accelerator resources it lists. Other accelerators
/// (dl2q's Qualcomm AI 100, which has labels but no resource) are not exotic, as upstream.
fn is_exotic(it: &InstanceType) -> bool {
    it.labels
        .get(wk::INSTANCE_SIZE)
        .is_some_and(|s| s.contains("metal"))
        || [
            ResourceName::AwsNeuron,
            ResourceName::AwsNeuronCore,
            ResourceName::AmdGpu,
            ResourceName::NvidiaGpu,
            ResourceName::HabanaGaudi,
        ]
        .into_iter()
        .any(|r| it.capacity.get(r) != 0)
}

fn catalog_error(e: catalog::CatalogError) -> SimError {
    SimError::Catalog(match e {
        catalog::CatalogError::UnknownRegion(r) => {
            format!(
                "unknown region \"{r}\"; the built-in catalog has {}",
                catalog::aws::REGIONS.join(", ")
            )
        }
        catalog::CatalogError::UnknownInstanceType(t) => format!("unknown instance type \"{t}\""),
        catalog::CatalogError::UnknownZone { region, zone } => {
            format!("zone \"{zone}\" is not in region {region}")
        }
    })
}

fn to_dollars(micros: MicroDollars) -> f64 {
    micros as f64 / 1_000_000.0
}

/// `0.0081` from 8_100 micro-dollars, trailing zeros trimmed.
fn dollars(micros: MicroDollars) -> String {
    let whole = micros / 1_000_000;
    let frac = micros % 1_000_000;
    let mut s = format!("{whole}.{frac:06}");
    while s.ends_with('0') && !s.ends_with(".0") {
        s.pop();
    }
    s
}

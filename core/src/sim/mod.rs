//! The simulation: a scenario played on a simulated clock.
//!
//! Sans-I/O like smoltcp: the caller says how far to advance ([`Simulation::run_until`]);
//! the simulation processes every action due by then (NodeClaim lifecycle steps, Job pods
//! finishing, Timeline steps, the provisioner's batch window closing, the disruption
//! controller's polls, drains and expirations), running kube-scheduler after each change. Everything it does is appended to an event stream, and
//! [`Simulation::report`] renders the state at the current instant.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::catalog::{self, CapacityType, InstanceType, MicroDollars, PriceSource};
use crate::disruption;
use crate::duration;
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
mod candidacy;
mod capacity;
mod disrupt;
pub mod event;
pub mod evidence;
mod report;
mod termination;
mod timeline;

pub use candidacy::Candidacy;
pub use disrupt::DisruptionDecision;
pub use event::{Event, EventKind};
pub use termination::SPOT_NOTICE;

/// Hard caps that keep a page responsive; the reader reports them with line numbers first.
pub const MAX_PODS: usize = 50_000;
pub const MAX_NODES: usize = 5_000;

/// Karpenter's batching window.
pub const BATCH_IDLE: Millis = 1_000;
pub const BATCH_MAX: Millis = 10_000;
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

/// Lifecycle of a node (NodeClaim for Karpenter's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NodeState {
    /// NodeClaim created, CreateFleet in flight.
    Launching,
    /// Instance running, not yet a Node.
    Launched,
    /// Node object exists, not Ready.
    Registered,
    /// Ready and initialized (startup taints gone).
    Ready,
    Deleting,
}

impl NodeState {
    pub fn report_state(self) -> &'static str {
        match self {
            NodeState::Launching | NodeState::Launched => "Launching",
            NodeState::Registered => "Registered",
            NodeState::Ready => "Ready",
            NodeState::Deleting => "Deleting",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    pub nodepool: Option<usize>,
    pub node_group: Option<String>,
    pub nodeclaim: Option<String>,
    pub instance_type: String,
    pub arch: String,
    pub zone: String,
    pub capacity_type: CapacityType,
    pub price: MicroDollars,
    pub price_source: PriceSource,
    pub labels: StringMap,
    pub taints: Vec<Taint>,
    pub startup_taints: Vec<Taint>,
    pub capacity: Resources,
    pub allocatable: Resources,
    pub state: NodeState,
    pub created_at: Millis,
    pub requirements: Requirements,
    pub options: Vec<String>,
    pub deleted: bool,
    /// When the node became Ready and initialized (fixed nodes: 0).
    pub initialized_at: Option<Millis>,
    /// The last time a non-DaemonSet pod was bound to the node, finished or was deleted
    /// (Karpenter's `lastPodEventTime`): `consolidateAfter` counts from here.
    pub last_pod_event: Option<Millis>,
    /// The NodeClaim's annotations: the NodePool template's at launch.
    pub annotations: StringMap,
    /// Set while a disruption command holds the node (tainted `karpenter.sh/disrupted`,
    /// counted against budgets, waiting for its replacements to initialize).
    pub disruption: Option<disruption::Reason>,
    /// Since when, and why, the node has drifted from its NodePool or EC2NodeClass.
    pub drifted: Option<(Millis, disruption::DriftReason)>,
    /// The NodePool and EC2NodeClass hashes the node was launched with.
    pub pool_hash: u64,
    pub node_class_hash: u64,
    /// The AMI the instance runs (`status.imageID`).
    pub image_id: String,
    /// `expireAfter` after creation, as the NodeClaim was created.
    pub expire_at: Option<Millis>,
    /// The NodeClaim's `terminationGracePeriod`: how long draining may take at most.
    pub termination_grace: Option<Millis>,
    /// When the NodeClaim's deletion began.
    pub deleting_since: Option<Millis>,
    /// A spot interruption warning arrived: EC2 reclaims the instance at this time.
    pub reclaim_at: Option<Millis>,
    /// The nodes a disruption command launched this one to replace.
    pub replaces: Vec<String>,
}

impl Node {
    fn exists(&self) -> bool {
        !self.deleted
    }

    /// The node's topology domain for a key: its label, or its name for the hostname.
    fn domain(&self, key: &str) -> Option<&str> {
        match self.labels.get(key) {
            Some(v) => Some(v),
            None if key == wk::HOSTNAME => Some(&self.name),
            None => None,
        }
    }
}

/// A NodePool's instance-type candidates: (pool spec, catalog, candidates, minValues met).
type CandidateEntry = (NodePool, Rc<Vec<InstanceType>>, Vec<u32>, bool);

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Action {
    Launch(usize),
    Register(usize),
    Initialize(usize),
    PodFinish(usize),
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
}

#[derive(Clone, Debug, Default)]
struct WorkloadState {
    /// Next ordinal for pod names.
    next_ordinal: u32,
    succeeded: u32,
    deleted: bool,
    /// Pod-template changes applied so far (a Deployment's new ReplicaSet each time).
    revision: u32,
}

#[derive(Clone)]
pub struct Simulation {
    now: Millis,
    region: String,
    zones: Vec<String>,
    node_pools: Vec<NodePool>,
    /// Deleted by a Timeline step (indices stay stable: nodes refer to pools by index).
    pool_deleted: Vec<bool>,
    node_classes: BTreeMap<String, NodeClass>,
    workloads: Vec<Workload>,
    workload_state: Vec<WorkloadState>,
    /// One shared spec per workload, so pods of a workload share topology groups.
    specs: Vec<Rc<PodSpec>>,
    namespaces: BTreeMap<String, StringMap>,
    timeline: Vec<TimelineStep>,
    /// The scenario's objects as written (for [`Simulation::applied`]).
    written: Vec<crate::manifest::Written>,
    custom_types: Vec<catalog::InstanceTypeSpec>,
    catalogs: BTreeMap<String, Rc<Vec<InstanceType>>>,
    /// Instance types each NodePool's own requirements allow, per pool spec and catalog; the
    /// filter over 1,363 types is the costliest part of a small pass and rarely changes.
    candidate_cache: BTreeMap<String, CandidateEntry>,
    pods: Vec<Pod>,
    nodes: Vec<Node>,
    events: Vec<Event>,
    queue: BTreeMap<(Millis, u64), Action>,
    seq: u64,
    /// Open batch window: (first trigger, last trigger).
    batch: Option<(Millis, Millis)>,
    /// A 10 s re-trigger for still-provisionable pods is scheduled.
    retrigger_pending: bool,
    /// Bumped on every change a provisioning pass could react to.
    version: u64,
    solved_version: Option<u64>,
    rng: Rng,
    namer: PodNamer,
    /// Karpenter rate-limits `Nominated` events (5/s, burst 10): (tokens, last refill).
    nominated_tokens: (u64, Millis),
    notes: Vec<String>,
    revision: u64,
    /// The next scheduled disruption poll, so that only one is queued.
    disruption_poll_at: Option<Millis>,
    /// When the disruption controller last looked (it never looks twice at one instant).
    last_poll: Option<Millis>,
    /// A command waiting out its validation delay.
    pending_command: Option<disrupt::Plan>,
    /// Commands executing: their replacements are launching.
    commands: Vec<disrupt::Command>,
    /// What the cluster looked like when a disruption pass last found nothing to do; the
    /// controller does not look again until it changes (Karpenter's "consolidated" memo).
    memo: Option<disrupt::Fingerprint>,
    /// The last `Unconsolidatable` / `DisruptionBlocked` / `FailedDraining` event per
    /// object, so a repeated verdict is not repeated as an event.
    verdicts: BTreeMap<String, EventKind>,
    /// The last disruption pass left a candidate out because a budget was used up.
    budget_blocked: bool,
    /// Draining nodes: when the last evicted pod's grace period ends.
    drain_grace: BTreeMap<usize, Millis>,
    /// Nodes whose drain has finished, and when.
    drained: BTreeMap<usize, Millis>,
    /// Drains waiting on PodDisruptionBudgets or `do-not-disrupt`, with the cluster version
    /// they last tried at.
    drain_parked: BTreeMap<usize, u64>,
    /// EC2NodeClasses deleted while NodeClaims still use them: they go when those do.
    node_classes_deleting: alloc::collections::BTreeSet<String>,
    pdbs: Vec<PodDisruptionBudget>,
    /// What the scheduling simulations of the current disruption pass share.
    sim_base: Option<Rc<disrupt::SimBase>>,
    /// AMIs released by Timeline steps, per alias family (`al2023`): `@latest` resolves to
    /// the newest.
    ami_releases: BTreeMap<String, u32>,
    /// Shortages of EC2 capacity declared by the Timeline (`insufficientCapacity`).
    shortages: Vec<capacity::Shortage>,
    /// The AWS provider's unavailable-offerings cache: (instance type, zone, capacity
    /// type) → until when.
    unavailable: BTreeMap<(String, String, CapacityType), Millis>,
    /// The node classes' catalogs with the cached offerings unavailable (rebuilt when the
    /// cache changes).
    availability_overlay: BTreeMap<String, Rc<Vec<InstanceType>>>,
    /// The latest cache expiry scheduled (marks made at one instant share it).
    offerings_expire_at: Option<Millis>,
    /// What each decision saw ([`evidence`]).
    evidence: evidence::Evidence,
}

impl Simulation {
    /// Builds the cluster at time 0: objects applied, fixed nodes Ready, pods pending.
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
            region,
            zones,
            node_pools: scenario.node_pools.clone(),
            pool_deleted: alloc::vec![false; scenario.node_pools.len()],
            node_classes: scenario
                .node_classes
                .iter()
                .map(|c| (c.name.clone(), c.clone()))
                .collect(),
            workloads: scenario.workloads.clone(),
            workload_state: alloc::vec![WorkloadState::default(); scenario.workloads.len()],
            specs: scenario
                .workloads
                .iter()
                .map(|w| Rc::new(w.template.spec.clone()))
                .collect(),
            namespaces: scenario
                .namespaces
                .iter()
                .map(|n| (n.name.clone(), n.labels.clone()))
                .collect(),
            timeline: scenario.timeline.clone(),
            written: scenario.written.clone(),
            custom_types: scenario.instance_types.clone(),
            catalogs: BTreeMap::new(),
            candidate_cache: BTreeMap::new(),
            pods: Vec::new(),
            nodes: Vec::new(),
            events: Vec::new(),
            queue: BTreeMap::new(),
            seq: 0,
            batch: None,
            retrigger_pending: false,
            version: 0,
            solved_version: None,
            rng: Rng::new(seed),
            namer: PodNamer::new(seed),
            nominated_tokens: (10, 0),
            notes: Vec::new(),
            revision: 0,
            disruption_poll_at: None,
            last_poll: None,
            pending_command: None,
            commands: Vec::new(),
            memo: None,
            verdicts: BTreeMap::new(),
            budget_blocked: false,
            drain_grace: BTreeMap::new(),
            drained: BTreeMap::new(),
            drain_parked: BTreeMap::new(),
            node_classes_deleting: alloc::collections::BTreeSet::new(),
            pdbs: scenario.pdbs.clone(),
            sim_base: None,
            ami_releases: BTreeMap::new(),
            shortages: Vec::new(),
            unavailable: BTreeMap::new(),
            availability_overlay: BTreeMap::new(),
            offerings_expire_at: None,
            evidence: evidence::Evidence::default(),
        };
        sim.namespaces.entry("default".into()).or_default();
        for w in &sim.workloads {
            sim.namespaces.entry(w.namespace.clone()).or_default();
        }
        let total: u64 = scenario
            .cluster
            .node_groups
            .iter()
            .map(|g| u64::from(g.count))
            .sum();
        if total > MAX_NODES as u64 {
            return Err(SimError::TooLarge(format!(
                "{total} fixed nodes; the playground simulates at most {MAX_NODES}"
            )));
        }
        let pods: u64 = sim
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
            let prefilter = catalog::Prefilter::for_pools(sim.pools_using(&nc.name));
            let types = cache
                .resolve(&sim.region, &sim.zones, nc, &sim.custom_types, &prefilter)
                .map_err(catalog_error)?;
            sim.catalogs.insert(nc.name.clone(), types);
        }
        for group in &scenario.cluster.node_groups {
            sim.add_node_group(group)?;
        }
        for w in 0..sim.workloads.len() {
            sim.start_workload(w);
        }
        for (i, step) in sim.timeline.clone().iter().enumerate() {
            sim.schedule(step.at, Action::Timeline(i));
        }
        sim.note_prices();
        sim.settle();
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
        self.node_pools
            .iter()
            .chain(applied)
            .filter(move |np| np.node_class_ref.name == node_class)
    }

    fn note_prices(&mut self) {
        if self.custom_types.is_empty() {
            self.notes.push(
                "Spot prices are approximations: on-demand × (1 − the AWS Spot Instance Advisor's typical saving), not live prices; EC2 Fleet's price-capacity-optimized choice is approximated by the cheapest offering."
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
        &self.evidence
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn pods(&self) -> &[Pod] {
        &self.pods
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The NodePools in the order the scenario gave them (indices match [`Node::nodepool`]),
    /// each with whether a Timeline step has deleted it.
    pub fn node_pools(&self) -> impl Iterator<Item = (&NodePool, bool)> + '_ {
        self.node_pools
            .iter()
            .zip(self.pool_deleted.iter().copied())
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
        let np = self.node_pools.get(pool)?;
        let class = &np.node_class_ref.name;
        if let Some(why) = &np.invalid {
            Some(why.clone())
        } else if !self.catalogs.contains_key(class) {
            Some(format!("EC2NodeClass \"{class}\" not found"))
        } else if self.node_classes_deleting.contains(class) {
            Some(format!("EC2NodeClass \"{class}\" is being deleted"))
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
        self.events.push(Event {
            time: self.now,
            kind,
        });
    }

    /// Managed node groups run the EKS-optimized AL2023 AMI with default kubelet settings.
    fn default_node_class() -> NodeClass {
        let mut nc = NodeClass::al2023("");
        nc.ami_alias = None;
        nc
    }

    fn add_node_group(&mut self, group: &NodeGroup) -> Result<(), SimError> {
        let nc = Self::default_node_class();
        let it = if self.custom_types.is_empty() {
            catalog::aws::instance_type_named(&self.region, &self.zones, &nc, &group.instance_type)
                .map_err(catalog_error)?
        } else {
            let spec = self
                .custom_types
                .iter()
                .find(|t| t.name == group.instance_type)
                .ok_or_else(|| {
                    SimError::Catalog(format!(
                        "node group \"{}\": unknown instance type \"{}\"",
                        group.name, group.instance_type
                    ))
                })?;
            catalog::aws::custom_instance_type(spec, &self.zones, &nc)
        };
        let zones = if group.zones.is_empty() {
            self.zones.clone()
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
                name: name.clone(),
                nodepool: None,
                node_group: Some(group.name.clone()),
                nodeclaim: None,
                instance_type: it.name.clone(),
                arch: it.labels.get(wk::ARCH).cloned().unwrap_or_default(),
                zone,
                capacity_type: ct,
                price,
                price_source: source,
                requirements: Requirements::from_labels(labels.iter()),
                labels,
                taints: group.taints.clone(),
                startup_taints: Vec::new(),
                capacity: it.capacity,
                allocatable: it.allocatable,
                state: NodeState::Ready,
                created_at: 0,
                options: alloc::vec![it.name.clone()],
                deleted: false,
                initialized_at: Some(0),
                last_pod_event: None,
                annotations: StringMap::new(),
                disruption: None,
                drifted: None,
                pool_hash: 0,
                node_class_hash: 0,
                image_id: image_id("eks-nodegroup", 0),
                expire_at: None,
                termination_grace: None,
                deleting_since: None,
                reclaim_at: None,
                replaces: Vec::new(),
            };
            self.nodes.push(node);
            let n = self.nodes.len() - 1;
            self.create_daemon_pods(n);
        }
        Ok(())
    }

    // ----- workloads and pods -----

    fn new_pod(&mut self, w: usize, name: String, node: Option<usize>) -> usize {
        let wl = &self.workloads[w];
        let spec = self.specs[w].clone();
        let owner = if wl.kind == WorkloadKind::Pod {
            None
        } else {
            Some((wl.kind, wl.name.clone()))
        };
        let runtime = if wl.kind == WorkloadKind::Job {
            pod::job_runtime(&wl.template)
        } else {
            None
        };
        let requests = effective_requests(&spec);
        self.seq += 1;
        let pod = Pod {
            name,
            namespace: wl.namespace.clone(),
            owner,
            workload: w,
            labels: wl.template.labels.clone(),
            annotations: wl.template.annotations.clone(),
            spec,
            requests,
            created_at: self.now,
            seq: self.seq,
            node,
            phase: Phase::Pending,
            runtime,
            nominated: None,
            karpenter_message: None,
            scheduler_message: None,
            triggered: false,
            deleted: false,
            started_at: None,
        };
        self.pods.push(pod);
        self.version += 1;
        self.pods.len() - 1
    }

    fn start_workload(&mut self, w: usize) {
        let wl = self.workloads[w].clone();
        match wl.kind {
            WorkloadKind::DaemonSet => {
                for n in 0..self.nodes.len() {
                    self.create_daemon_pod(w, n);
                }
            }
            WorkloadKind::Pod => {
                self.new_pod(w, wl.name.clone(), None);
            }
            WorkloadKind::Job => {
                let n = match wl.completions {
                    Some(c) => wl.replicas.min(c),
                    None => wl.replicas,
                };
                for _ in 0..n {
                    self.add_replica(w);
                }
            }
            _ => {
                for _ in 0..wl.replicas {
                    self.add_replica(w);
                }
            }
        }
    }

    fn add_replica(&mut self, w: usize) -> usize {
        let ordinal = self.workload_state[w].next_ordinal;
        self.workload_state[w].next_ordinal += 1;
        let name =
            self.namer
                .pod_name(&self.workloads[w], ordinal, self.workload_state[w].revision);
        self.new_pod(w, name, None)
    }

    /// The DaemonSet controller's `NodeShouldRunDaemonPod`: the pod it would create (with the
    /// tolerations the controller adds) tolerates the node's current NoSchedule and
    /// NoExecute taints, startup taints included, and its node affinity matches the node.
    fn daemon_fits(&self, w: usize, labels: &StringMap, taints: &[Taint]) -> bool {
        let spec = &self.workloads[w].template.spec;
        let mut tolerations = spec.tolerations.clone();
        tolerations.extend(crate::taints::daemon_pod_tolerations(spec.host_network));
        crate::taints::scheduler_tolerates(taints, &tolerations).is_ok()
            && pod::node_matches_pod_affinity(spec, labels)
    }

    /// Creates DaemonSet `w`'s pod on node `n` if the node should run one. The caller knows
    /// the node has none yet.
    fn create_daemon_pod(&mut self, w: usize, n: usize) {
        let node = &self.nodes[n];
        if !node.exists() || node.state == NodeState::Deleting {
            return;
        }
        let mut taints = node.taints.clone();
        taints.extend(node.startup_taints.iter().cloned());
        if !self.daemon_fits(w, &node.labels.clone(), &taints) {
            return;
        }
        let name = self
            .namer
            .daemon_pod_name(&self.workloads[w], &node.name.clone());
        let p = self.new_pod(w, name, Some(n));
        if self.nodes[n].state == NodeState::Ready {
            self.pods[p].phase = Phase::Running;
        }
    }

    /// The DaemonSet controller's pass over a new node: every DaemonSet that should run
    /// there gets its pod.
    fn create_daemon_pods(&mut self, n: usize) {
        self.sync_daemon_pods(n, &[]);
    }

    /// The DaemonSet controller's pass over a node: every DaemonSet that should run there
    /// and has no pod among `present` (the node's pods) gets one.
    fn sync_daemon_pods(&mut self, n: usize, present: &[usize]) {
        for w in 0..self.workloads.len() {
            if self.workloads[w].kind == WorkloadKind::DaemonSet
                && !self.workload_state[w].deleted
                && !present.iter().any(|&p| self.pods[p].workload == w)
            {
                self.create_daemon_pod(w, n);
            }
        }
    }

    /// Active pods per node (indexed like `nodes`), in one sweep over the pods.
    fn active_pods_by_node(&self) -> Vec<Vec<usize>> {
        let mut by_node = alloc::vec![Vec::new(); self.nodes.len()];
        for (p, pod) in self.pods.iter().enumerate() {
            if let Some(n) = pod.node.filter(|_| pod.is_active()) {
                by_node[n].push(p);
            }
        }
        by_node
    }

    fn requests_of(&self, pods: &[usize]) -> Resources {
        pods.iter()
            .fold(Resources::ZERO, |sum, &p| sum + self.pods[p].requests)
    }

    fn pods_on(&self, n: usize) -> Vec<usize> {
        (0..self.pods.len())
            .filter(|&p| self.pods[p].node == Some(n) && !self.pods[p].deleted)
            .collect()
    }

    // ----- the clock -----

    fn batch_close(&self) -> Option<Millis> {
        self.batch
            .map(|(first, last)| (last + BATCH_IDLE).min(first + BATCH_MAX))
    }

    fn next_time(&self) -> Option<Millis> {
        let q = self.queue.keys().next().map(|(t, _)| *t);
        match (q, self.batch_close()) {
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
        self.batch.is_none() && self.queue.values().all(|a| matches!(a, Action::Expire(_)))
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
        if self.batch_close().is_some_and(|c| c <= now) {
            self.batch = None;
            self.provision();
            self.settle();
        }
        self.plan_disruption();
        self.unpark_drains();
    }

    /// kube-scheduler binds what fits; what does not becomes provisionable and opens or
    /// extends the batch window.
    ///
    /// Like Karpenter's pod controller: a pod that newly becomes provisionable triggers the
    /// batcher at once; pods that stay provisionable re-trigger every 10 s, and only when the
    /// cluster changed since the last pass (otherwise the pass would decide the same).
    fn settle(&mut self) {
        let unschedulable = self.kube_schedule();
        let mut fresh = false;
        for &p in &unschedulable {
            if !self.pods[p].triggered {
                self.pods[p].triggered = true;
                fresh = true;
            }
        }
        if fresh {
            self.trigger();
        } else if !unschedulable.is_empty()
            && self.solved_version != Some(self.version)
            && !self.retrigger_pending
        {
            self.retrigger_pending = true;
            let at = self.now + RETRIGGER;
            self.schedule(at, Action::Retrigger);
        }
    }

    fn trigger(&mut self) {
        let now = self.now;
        self.batch = Some(match self.batch {
            Some((first, _)) => (first, now),
            None => (now, now),
        });
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Launch(n) => self.launch(n),
            Action::Register(n) => self.register(n),
            Action::Initialize(n) => self.initialize(n),
            Action::PodFinish(p) => self.finish_pod(p),
            Action::Timeline(i) => self.timeline_step(i),
            Action::Retrigger => {
                self.retrigger_pending = false;
                if self.solved_version != Some(self.version)
                    && self.pods.iter().any(|p| p.is_pending() && !p.is_daemon())
                {
                    self.trigger();
                }
            }
            Action::DisruptionPoll => {
                if self.disruption_poll_at == Some(self.now) {
                    self.disruption_poll_at = None;
                    self.disruption_poll();
                }
            }
            Action::DisruptionValidate => self.disruption_validate(),
            Action::Expire(n) => self.expire(n),
            Action::Drain(n) => self.drain(n),
            Action::TerminationDone(n) => self.termination_done(n),
            Action::OfferingsExpire => self.expire_unavailable(),
            Action::ShortageEnds(i) => self.end_shortage(i),
        }
    }

    // ----- kube-scheduler -----

    /// Binds pending pods to Ready nodes; returns the pods that fit nowhere.
    fn kube_schedule(&mut self) -> Vec<usize> {
        self.bind_named_pods();
        let mut pending: Vec<usize> = (0..self.pods.len())
            .filter(|&p| {
                self.pods[p].is_pending()
                    && !self.pods[p].is_daemon()
                    && self.pods[p].spec.node_name.is_none()
            })
            .collect();
        if pending.is_empty() {
            return pending;
        }
        pending.sort_by(|&a, &b| {
            let (pa, pb) = (&self.pods[a], &self.pods[b]);
            pb.spec
                .priority
                .cmp(&pa.spec.priority)
                .then(pa.created_at.cmp(&pb.created_at))
                .then(pa.seq.cmp(&pb.seq))
        });
        let ready: Vec<usize> = (0..self.nodes.len())
            .filter(|&n| self.nodes[n].exists() && self.nodes[n].state >= NodeState::Registered)
            .collect();
        let mut knodes: Vec<KubeNode> = ready
            .iter()
            .map(|&n| {
                let node = &self.nodes[n];
                let mut taints = node.taints.clone();
                taints.extend(node.startup_taints.iter().cloned());
                if node.state == NodeState::Registered {
                    taints.push(Taint::new(
                        "node.kubernetes.io/not-ready",
                        "",
                        TaintEffect::NoSchedule,
                    ));
                }
                KubeNode {
                    id: n,
                    name: node.name.clone(),
                    labels: node.labels.clone(),
                    taints,
                    unschedulable: false,
                    allocatable: node.allocatable,
                    requested: Resources::ZERO,
                    host_ports: Vec::new(),
                }
            })
            .collect();
        let mut bound: Vec<Vec<usize>> = alloc::vec![Vec::new(); knodes.len()];
        let position: BTreeMap<usize, usize> =
            ready.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        for (p, pod) in self.pods.iter().enumerate() {
            if let Some(i) = pod.node.and_then(|n| position.get(&n))
                && pod.is_active()
            {
                knodes[*i].requested += pod.requests;
                bound[*i].push(p);
                knodes[*i].host_ports.extend(pod::host_ports(&pod.spec));
            }
        }
        let mut unschedulable = Vec::new();
        // Equivalence classes: a pod identical to one that just fitted nowhere (same shared
        // spec, labels and requests) fits nowhere either while no pod has been bound since.
        let mut last_failed: Option<(usize, Option<String>)> = None;
        let mut spread_cache = kube::SpreadCache::default();
        let same = |a: &Pod, b: &Pod| {
            Rc::ptr_eq(&a.spec, &b.spec)
                && a.namespace == b.namespace
                && a.requests == b.requests
                && a.labels == b.labels
        };
        for p in pending {
            if let Some((q, summary)) = &last_failed
                && same(&self.pods[*q], &self.pods[p])
            {
                self.pods[p].scheduler_message = summary.clone();
                unschedulable.push(p);
                if let Some(record) = self.evidence.scheduling.get(*q).cloned().flatten() {
                    self.evidence.set_scheduling(p, record);
                }
                continue;
            }
            let detail = knodes.len() <= evidence::KUBE_DETAIL_NODES;
            let (choice, summary, results) = {
                let cluster = kube::Cluster {
                    nodes: &knodes,
                    pods: &self.pods,
                    bound: &bound,
                    namespaces: &self.namespaces,
                };
                let pre = cluster.prefilter_cached(&self.pods[p], &mut spread_cache);
                let results: Vec<(usize, Result<(), kube::Rejection>)> = (0..knodes.len())
                    .map(|i| (knodes[i].id, cluster.filter_with(&self.pods[p], i, &pre)))
                    .collect();
                let feasible: Vec<usize> = (0..knodes.len())
                    .filter(|&i| results[i].1.is_ok())
                    .collect();
                let choice = cluster.choose(&self.pods[p], &feasible);
                let rejections = || results.iter().filter_map(|(_, r)| r.as_ref().err());
                let summary = if choice.is_none() {
                    Some(cluster.summary(rejections()))
                } else {
                    None
                };
                let counts = if detail {
                    Vec::new()
                } else {
                    evidence::count_rejections(rejections())
                };
                let record = evidence::KubeRecord {
                    at: self.now,
                    nodes: if detail { results } else { Vec::new() },
                    counts,
                    considered: knodes.len() as u32,
                    feasible: feasible.len() as u32,
                    chosen: choice.map(|i| knodes[i].id),
                };
                (choice, summary, record)
            };
            self.evidence.set_scheduling(p, Rc::new(results));
            match choice {
                Some(i) => {
                    let n = knodes[i].id;
                    knodes[i].requested += self.pods[p].requests;
                    knodes[i]
                        .host_ports
                        .extend(pod::host_ports(&self.pods[p].spec));
                    bound[i].push(p);
                    spread_cache.record(&self.pods[p], &knodes[i]);
                    self.bind(p, n);
                    last_failed = None;
                }
                None => {
                    self.pods[p].scheduler_message = summary.clone();
                    unschedulable.push(p);
                    last_failed = Some((p, summary));
                }
            }
        }
        unschedulable
    }

    /// Pods that name their node (`spec.nodeName`) skip both schedulers: the kubelet of that
    /// node runs them once it exists; until then they wait, and Karpenter ignores them.
    fn bind_named_pods(&mut self) {
        for p in 0..self.pods.len() {
            let Some(name) = self.pods[p].spec.node_name.clone() else {
                continue;
            };
            if !self.pods[p].is_pending() {
                continue;
            }
            let node = self
                .nodes
                .iter()
                .position(|n| n.exists() && n.state >= NodeState::Registered && n.name == name);
            match node {
                Some(n) => self.bind(p, n),
                None => {
                    self.pods[p].scheduler_message = Some(format!(
                        "spec.nodeName is \"{name}\" and no such node is ready; the pod waits for it"
                    ));
                }
            }
        }
    }

    fn bind(&mut self, p: usize, n: usize) {
        if !self.pods[p].is_daemon() {
            self.nodes[n].last_pod_event = Some(self.now);
        }
        let node_name = self.nodes[n].name.clone();
        let pod = &mut self.pods[p];
        pod.node = Some(n);
        pod.phase = Phase::Running;
        pod.started_at = Some(self.now);
        pod.nominated = None;
        pod.karpenter_message = None;
        pod.scheduler_message = None;
        let runtime = pod.runtime;
        let pod = event::PodRef::of(pod);
        self.event(EventKind::Scheduled {
            pod,
            node: node_name,
        });
        self.version += 1;
        if let Some(rt) = runtime {
            let at = self.now + rt;
            self.schedule(at, Action::PodFinish(p));
        }
    }

    fn finish_pod(&mut self, p: usize) {
        if self.pods[p].deleted || self.pods[p].phase != Phase::Running {
            return;
        }
        self.pods[p].phase = Phase::Succeeded;
        self.note_pod_event(p);
        let pod = event::PodRef::of(&self.pods[p]);
        self.event(EventKind::PodCompleted { pod });
        self.version += 1;
        let w = self.pods[p].workload;
        self.workload_state[w].succeeded += 1;
        let wl = &self.workloads[w];
        if wl.kind == WorkloadKind::Job
            && let Some(c) = wl.completions
        {
            let active = self
                .pods
                .iter()
                .filter(|q| q.workload == w && q.is_active())
                .count() as u32;
            if self.workload_state[w].succeeded + active < c && !self.workload_state[w].deleted {
                self.add_replica(w);
            }
            if self.workload_state[w].succeeded >= c {
                let name = self.workloads[w].name.clone();
                let namespace = self.workloads[w].namespace.clone();
                self.event(EventKind::JobCompleted { namespace, name });
            }
        }
    }

    // ----- provisioning -----

    /// Live NodePools in Karpenter's order: weight descending, then name descending.
    fn ordered_pools(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.node_pools.len())
            .filter(|&p| !self.pool_deleted[p])
            .collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&self.node_pools[a], &self.node_pools[b]);
            pb.weight.cmp(&pa.weight).then(pb.name.cmp(&pa.name))
        });
        order
    }

    /// The requirements a NodePool's NodeClaims start from.
    fn template_requirements(&self, np: &NodePool) -> Requirements {
        let mut reqs = Requirements::new();
        for r in &np.requirements {
            reqs.add(
                Requirement::new(&r.key, r.operator, r.values.iter().cloned())
                    .with_min_values(r.min_values),
            );
        }
        for (k, v) in &np.template_labels {
            reqs.add(Requirement::in_values(k, [v.clone()]));
        }
        reqs.add(Requirement::in_values(wk::NODEPOOL, [np.name.clone()]));
        reqs.add(Requirement::in_values(
            wk::NODECLASS,
            [np.node_class_ref.name.clone()],
        ));
        reqs
    }

    fn pool_usage(&self, pool: usize) -> (Resources, i64) {
        let mut used = Resources::ZERO;
        let mut count = 0;
        for n in &self.nodes {
            if n.exists() && n.nodepool == Some(pool) {
                used += n.capacity;
                count += 1;
            }
        }
        (used, count)
    }

    fn build_templates(&mut self) -> Vec<Template> {
        let mut out = Vec::new();
        let daemons: Vec<usize> = (0..self.workloads.len())
            .filter(|&w| {
                self.workloads[w].kind == WorkloadKind::DaemonSet && !self.workload_state[w].deleted
            })
            .collect();
        for pool in self.ordered_pools() {
            let np = self.node_pools[pool].clone();
            if self.node_classes_deleting.contains(&np.node_class_ref.name) || np.invalid.is_some()
            {
                continue;
            }
            let Some(types) = self.catalog(&np.node_class_ref.name) else {
                continue;
            };
            let reqs = self.template_requirements(&np);
            let cached = self
                .candidate_cache
                .get(&np.name)
                .filter(|(spec, cat, _, _)| *spec == np && Rc::ptr_eq(cat, &types))
                .map(|(_, _, c, ok)| (c.clone(), *ok));
            let (candidates, min_values_ok) = match cached {
                Some(hit) => hit,
                None => {
                    let mut candidates: Vec<u32> = Vec::new();
                    for (i, it) in types.iter().enumerate() {
                        if it.requirements.intersects_ok(&reqs)
                            && scheduling::has_compatible_offering(it, &reqs)
                        {
                            candidates.push(i as u32);
                        }
                    }
                    // minValues on the pool itself.
                    let min_values_ok = reqs.iter().filter(|r| r.min_values.is_some()).all(|r| {
                        let mut values: Vec<&str> = candidates
                            .iter()
                            .filter_map(|&i| {
                                types[i as usize]
                                    .labels
                                    .get(&r.key)
                                    .map(String::as_str)
                                    .filter(|v| r.has(v))
                            })
                            .collect();
                        values.sort_unstable();
                        values.dedup();
                        values.len() >= r.min_values.unwrap_or(0) as usize
                    });
                    if candidates.is_empty() || !min_values_ok {
                        self.event(EventKind::NoCompatibleInstanceTypes {
                            node_pool: np.name.clone(),
                            min_values: !min_values_ok,
                        });
                    }
                    self.candidate_cache.insert(
                        np.name.clone(),
                        (np.clone(), types.clone(), candidates.clone(), min_values_ok),
                    );
                    (candidates, min_values_ok)
                }
            };
            if candidates.is_empty() || !min_values_ok {
                continue;
            }
            let mut daemon_overhead = alloc::vec![Resources::ZERO; types.len()];
            // Indexed like `types`, and left empty while no DaemonSet holds a host port.
            let mut daemon_host_ports: Vec<Vec<HostPort>> = Vec::new();
            for &w in &daemons {
                let spec = &self.workloads[w].template.spec;
                let mut tolerations = spec.tolerations.clone();
                tolerations.push(crate::taints::Toleration::all_prefer_no_schedule());
                if crate::taints::karpenter_tolerates(&np.taints, &tolerations).is_err() {
                    continue;
                }
                // `isDaemonPodCompatible`: the required node-affinity terms are tried in
                // order; the first compatible with the NodePool and intersecting the type wins.
                let terms: Vec<Requirements> = (0..spec.node_affinity.required.len().max(1))
                    .map(|t| pod::pod_requirements(spec, t, &[]).strict)
                    .filter(|dreqs| reqs.compatible(dreqs, Undefined::AllowWellKnown).is_ok())
                    .collect();
                if terms.is_empty() {
                    continue;
                }
                let req = effective_requests(spec);
                let ports = pod::host_ports(spec);
                if !ports.is_empty() && daemon_host_ports.is_empty() {
                    daemon_host_ports = alloc::vec![Vec::new(); types.len()];
                }
                for &i in &candidates {
                    if terms
                        .iter()
                        .any(|dreqs| types[i as usize].requirements.intersects_ok(dreqs))
                    {
                        daemon_overhead[i as usize] += req;
                        if !ports.is_empty() {
                            daemon_host_ports[i as usize].extend(ports.iter().cloned());
                        }
                    }
                }
            }
            let (used, count) = self.pool_usage(pool);
            let remaining: [Option<i64>; RESOURCE_COUNT] =
                core::array::from_fn(|i| np.limits.resources[i].map(|l| l - used.0[i]));
            let headroom = types
                .iter()
                .zip(daemon_overhead.iter())
                .map(|(it, o)| it.allocatable - *o)
                .collect();
            out.push(Template {
                headroom,
                nodepool: pool,
                name: np.name.clone(),
                requirements: reqs,
                taints: np.taints.clone(),
                instance_types: types,
                candidates,
                daemon_overhead,
                daemon_host_ports,
                remaining,
                remaining_nodes: np.limits.nodes.map(|l| l - count),
                has_prefer_no_schedule: scheduling::has_prefer_no_schedule(&np.taints),
            });
        }
        out
    }

    /// Karpenter ignores pods that select restricted labels or opt out of its nodes.
    fn provisioner_ignores(&self, pod: &Pod) -> Option<String> {
        let spec = &pod.spec;
        let keys = spec
            .node_selector
            .keys()
            .map(|k| (k.as_str(), Operator::In))
            .chain(
                spec.node_affinity
                    .required
                    .iter()
                    .flatten()
                    .map(|r| (r.key.as_str(), r.operator)),
            );
        for (key, op) in keys {
            let key = wk::normalize_key(key);
            if key == wk::NODEPOOL && op == Operator::DoesNotExist {
                return Some(String::new());
            }
            if wk::is_restricted_label(key) {
                return Some(format!(
                    "using label {key} is not allowed as it might interfere with the internal provisioning logic; specify a well known label: [{}], or a custom label that does not use a restricted domain: [karpenter.sh, karpenter.k8s.aws, kubernetes.io/hostname]",
                    wk::WELL_KNOWN[..8].join(" ")
                ));
            }
        }
        None
    }

    fn provision(&mut self) {
        self.solved_version = Some(self.version);
        let mut pending = Vec::new();
        for p in 0..self.pods.len() {
            let pod = &self.pods[p];
            if !pod.is_pending() || pod.is_daemon() || pod.spec.node_name.is_some() {
                continue;
            }
            match self.provisioner_ignores(pod) {
                Some(msg) if msg.is_empty() => {}
                Some(msg) => {
                    let record = evidence::ProvisioningRecord {
                        at: self.now,
                        pass: None,
                        outcome: evidence::ProvisioningOutcome::Ignored(msg.clone()),
                        considered: None,
                        relaxed: false,
                    };
                    self.evidence.set_provisioning(p, record);
                    self.failed_scheduling(p, msg);
                }
                None => pending.push(p),
            }
        }
        if pending.is_empty() {
            return;
        }
        let templates = self.build_templates();
        let by_node = self.active_pods_by_node();
        let views = self.node_views(&[], &by_node);
        let topology = self.topology_universe(&templates, &pending);
        let (bound, node_labels) = self.bound_pods(&views, &[]);
        let mut solver = Solver::new(
            &self.pods,
            &pending,
            views,
            templates.clone(),
            topology,
            &bound,
            &node_labels,
        );
        solver.record = true;
        let node_view_ids: Vec<usize> = solver.nodes.iter().map(|v| v.id).collect();
        let mut outcome = solver.solve(pending.clone());
        let configured = templates
            .iter()
            .map(|t| self.node_pools[t.nodepool].limits)
            .collect();
        let pass = Rc::new(evidence::Pass {
            at: self.now,
            templates,
            configured,
            limits: core::mem::take(&mut outcome.limits),
        });
        let templates = &pass.templates;

        let mut claim_names = Vec::new();
        let live = self.nodes.iter().filter(|n| n.exists()).count();
        if live + outcome.claims.len() > MAX_NODES {
            self.event(EventKind::TooManyNodes {
                claims: outcome.claims.len(),
            });
            return;
        }
        let mut claim_nodes = Vec::new();
        for claim in &outcome.claims {
            let n = self.create_nodeclaim(&templates[claim.template], claim, Some(&pass));
            claim_names.push(self.nodes[n].name.clone());
            claim_nodes.push(n);
        }
        let relaxed: alloc::collections::BTreeSet<usize> =
            outcome.relaxed.iter().copied().collect();
        for (p, considered) in core::mem::take(&mut outcome.considered) {
            let outcome_of = match outcome.placements.get(&p) {
                Some(Placement::Existing(v)) => {
                    evidence::ProvisioningOutcome::Existing(node_view_ids[*v])
                }
                Some(Placement::Claim(c)) => {
                    evidence::ProvisioningOutcome::NewClaim(claim_nodes[*c])
                }
                None => evidence::ProvisioningOutcome::Failed(
                    outcome.errors.get(&p).cloned().unwrap_or_default(),
                ),
            };
            let relaxed = relaxed.contains(&p);
            // A later pass that finds the pod a place on the NodeClaim launched for it says
            // less than the launch did: keep the launch.
            if let (
                evidence::ProvisioningOutcome::Existing(n),
                Some(evidence::ProvisioningOutcome::NewClaim(launched)),
            ) = (
                &outcome_of,
                self.evidence.provisioning(p).map(|r| &r.outcome),
            ) && n == launched
            {
                continue;
            }
            let record = evidence::ProvisioningRecord {
                at: self.now,
                pass: Some(pass.clone()),
                outcome: outcome_of,
                considered: Some(considered),
                relaxed,
            };
            self.evidence.set_provisioning(p, record);
        }
        for (&p, placement) in &outcome.placements {
            let (target, claim) = match placement {
                Placement::Existing(v) => {
                    let node = &self.nodes[node_view_ids[*v]];
                    (node.name.clone(), node.nodeclaim.clone())
                }
                Placement::Claim(c) => (claim_names[*c].clone(), None),
            };
            if self.pods[p].nominated.as_deref() != Some(&target) && self.take_nominated_token() {
                let target = match placement {
                    Placement::Claim(_) => event::Nomination::NodeClaim(target.clone()),
                    Placement::Existing(_) => event::Nomination::Node {
                        node: target.clone(),
                        nodeclaim: claim,
                    },
                };
                let pod = event::PodRef::of(&self.pods[p]);
                self.event(EventKind::Nominated { pod, target });
            }
            self.pods[p].nominated = Some(target);
            self.pods[p].karpenter_message = None;
        }
        for (&p, err) in &outcome.errors {
            self.pods[p].nominated = None;
            self.failed_scheduling(p, err.clone());
        }
        if !self.retrigger_pending {
            self.retrigger_pending = true;
            let at = self.now + RETRIGGER;
            self.schedule(at, Action::Retrigger);
        }
    }

    /// Karpenter could not schedule a pod: the pod's condition says why, and an event does
    /// when the reason is new.
    fn failed_scheduling(&mut self, p: usize, error: String) {
        let kind = EventKind::FailedScheduling {
            pod: event::PodRef::of(&self.pods[p]),
            error,
        };
        let full = kind.to_string();
        if self.pods[p].karpenter_message.as_deref() != Some(&full) {
            self.event(kind);
            self.pods[p].karpenter_message = Some(full);
        }
    }

    /// Nodes the schedulers may place pods on, as the solver sees them: existing, neither
    /// deleting nor held by a disruption command, not in `excluded` (sorted); initialized first, then
    /// by name (Karpenter's order).
    fn node_views(&self, excluded: &[usize], by_node: &[Vec<usize>]) -> Vec<NodeView> {
        let mut node_ids: Vec<usize> = (0..self.nodes.len())
            .filter(|&n| {
                let node = &self.nodes[n];
                node.exists()
                    && node.state != NodeState::Deleting
                    && node.disruption.is_none()
                    && excluded.binary_search(&n).is_err()
            })
            .collect();
        node_ids.sort_by(|&a, &b| {
            let (na, nb) = (&self.nodes[a], &self.nodes[b]);
            (na.state != NodeState::Ready)
                .cmp(&(nb.state != NodeState::Ready))
                .then(na.name.cmp(&nb.name))
        });
        node_ids
            .into_iter()
            .map(|n| {
                let node = &self.nodes[n];
                let mut requirements = Requirements::from_labels(node.labels.iter());
                requirements.add(Requirement::in_values(wk::HOSTNAME, [node.name.clone()]));
                // DaemonSet pods are bound when the NodeClaim is created, so they are counted here.
                let remaining = node.allocatable - self.requests_of(&by_node[n]);
                let host_ports = by_node[n]
                    .iter()
                    .flat_map(|&p| pod::host_ports(&self.pods[p].spec))
                    .collect();
                NodeView {
                    id: n,
                    name: node.name.clone(),
                    labels: Rc::new(node.labels.clone()),
                    requirements: Rc::new(requirements),
                    taints: node.taints.clone(),
                    remaining,
                    host_ports,
                    initialized: node.state == NodeState::Ready,
                }
            })
            .collect()
    }

    /// The pods bound to the given nodes (they count for topology), except `moving` ones
    /// (sorted), and those nodes' names and labels.
    #[allow(clippy::type_complexity)]
    fn bound_pods(
        &self,
        views: &[NodeView],
        moving: &[usize],
    ) -> (Vec<(usize, usize)>, BTreeMap<usize, (String, StringMap)>) {
        let node_labels: BTreeMap<usize, (String, StringMap)> = views
            .iter()
            .map(|v| {
                (
                    v.id,
                    (
                        self.nodes[v.id].name.clone(),
                        self.nodes[v.id].labels.clone(),
                    ),
                )
            })
            .collect();
        let bound = (0..self.pods.len())
            .filter(|&p| self.pods[p].is_active() && moving.binary_search(&p).is_err())
            .filter_map(|p| {
                self.pods[p]
                    .node
                    .filter(|n| node_labels.contains_key(n))
                    .map(|n| (p, n))
            })
            .collect();
        (bound, node_labels)
    }

    /// The domain universe of every topology key in use.
    fn topology_universe(&self, templates: &[Template], pending: &[usize]) -> Topology {
        let keys = self.topology_keys(pending);
        let domains = self.template_domains(templates, &keys);
        self.topology_for(&keys, &domains, &[])
    }

    /// Every topology key the given pods or the running pods use.
    fn topology_keys(&self, pending: &[usize]) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        for p in pending.iter().copied().chain(
            (0..self.pods.len())
                .filter(|&p| self.pods[p].is_active() && self.pods[p].node.is_some()),
        ) {
            let s = &self.pods[p].spec;
            keys.extend(s.topology_spread.iter().map(|t| t.topology_key.clone()));
            keys.extend(s.pod_affinity.iter().map(|t| t.topology_key.clone()));
            keys.extend(s.pod_anti_affinity.iter().map(|t| t.topology_key.clone()));
            keys.extend(
                s.preferred_pod_affinity
                    .iter()
                    .map(|t| t.term.topology_key.clone()),
            );
            keys.extend(
                s.preferred_pod_anti_affinity
                    .iter()
                    .map(|t| t.term.topology_key.clone()),
            );
        }
        keys.sort();
        keys.dedup();
        keys
    }

    /// The domains NodePools could launch into, per key: their requirements crossed with
    /// their instance types' labels (hostnames excluded: every new node has its own).
    fn template_domains(
        &self,
        templates: &[Template],
        keys: &[String],
    ) -> BTreeMap<String, Vec<String>> {
        let mut out = BTreeMap::new();
        for key in keys.iter().filter(|k| *k != wk::HOSTNAME) {
            let mut values: Vec<String> = Vec::new();
            for t in templates {
                let base = t.requirements.get(key).cloned();
                if let Some(b) = &base
                    && b.operator() == Operator::In
                {
                    values.extend(b.values().iter().cloned());
                }
                for it in t.instance_types.iter() {
                    let Some(r) = it.requirements.get(key) else {
                        continue;
                    };
                    let r = match &base {
                        Some(b) => b.intersection(r),
                        None => r.clone(),
                    };
                    if r.operator() == Operator::In {
                        values.extend(r.values().iter().cloned());
                    }
                }
            }
            values.sort();
            values.dedup();
            out.insert(key.clone(), values);
        }
        out
    }

    /// The universe: the NodePools' domains and the existing nodes' (except `excluded`,
    /// sorted).
    fn topology_for(
        &self,
        keys: &[String],
        template_domains: &BTreeMap<String, Vec<String>>,
        excluded: &[usize],
    ) -> Topology {
        let mut universe: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for key in keys {
            let mut values: Vec<String> = template_domains.get(key).cloned().unwrap_or_default();
            for (i, n) in self.nodes.iter().enumerate() {
                if n.exists() && excluded.binary_search(&i).is_err() {
                    values.extend(n.domain(key).map(String::from));
                }
            }
            values.sort();
            values.dedup();
            universe.insert(key.clone(), values);
        }
        Topology::new(universe, self.namespaces.clone())
    }

    /// One token of the `Nominated` event rate limit (5 per second, bursts of 10).
    fn take_nominated_token(&mut self) -> bool {
        let (tokens, at) = self.nominated_tokens;
        let refilled = (tokens + (self.now - at) * 5 / 1_000).min(10);
        let at = if refilled > tokens { self.now } else { at };
        if refilled == 0 {
            self.nominated_tokens = (0, at);
            return false;
        }
        self.nominated_tokens = (refilled - 1, at);
        true
    }

    /// Turns a simulated NodeClaim into an instance: Karpenter's ordering and truncation,
    /// then the AWS provider's filters, capacity type and offering choice.
    fn create_nodeclaim(
        &mut self,
        tpl: &Template,
        claim: &scheduling::NewClaim,
        pass: Option<&Rc<evidence::Pass>>,
    ) -> usize {
        let types = &tpl.instance_types;
        let reqs = &claim.requirements;
        let mut rng = self.rng.fork(pod::stable_hash(&[
            "claim",
            &self.now.to_string(),
            &self.nodes.len().to_string(),
        ]));
        let short = |it: &InstanceType, o: &catalog::Offering| {
            self.ec2_short(&it.name, &o.zone, o.capacity_type)
        };
        let mut launch = evidence::choose_launch(types, &claim.options, reqs, &mut rng, &short);
        if !self.unavailable.is_empty() {
            let names: alloc::collections::BTreeSet<&str> = claim
                .options
                .iter()
                .map(|&i| types[i as usize].name.as_str())
                .collect();
            launch.cached_unavailable = self
                .unavailable
                .keys()
                .filter(|(name, _, _)| names.contains(name.as_str()))
                .count() as u32;
        }
        for &(ti, oi) in &launch.ice {
            let o = &types[ti].offerings[oi];
            self.mark_unavailable(&types[ti].name, &o.zone, o.capacity_type);
        }
        let capacity_type = launch.capacity_type;
        let (ti, oi) = launch
            .chosen
            .unwrap_or((launch.launch.first().copied().unwrap_or(0), usize::MAX));
        let options = launch.launch.clone();
        let it = &types[ti];
        let offering = it.offerings.get(oi).cloned();
        let np = &self.node_pools[tpl.nodepool];
        let mut name;
        loop {
            name = format!("{}-{}", np.name, rng.k8s_suffix(5));
            if !self.nodes.iter().any(|n| n.name == name) {
                break;
            }
        }
        let zone = offering
            .as_ref()
            .map(|o| o.zone.clone())
            .unwrap_or_default();
        let mut labels = it.labels.clone();
        labels.extend(np.template_labels.clone());
        labels.insert(wk::ZONE.into(), zone.clone());
        labels.insert(wk::CAPACITY_TYPE.into(), capacity_type.as_str().into());
        labels.insert(wk::NODEPOOL.into(), np.name.clone());
        labels.insert(wk::NODECLASS.into(), np.node_class_ref.name.clone());
        labels.insert(wk::HOSTNAME.into(), name.clone());
        // Custom requirement keys get a concrete value (Requirement.Any).
        for r in reqs.iter() {
            if labels.contains_key(&r.key) || wk::is_restricted_node_label(&r.key) {
                continue;
            }
            if let Some(v) = r.any(&mut rng) {
                labels.insert(r.key.clone(), v);
            }
        }
        let min_overhead = claim
            .options
            .iter()
            .map(|&i| tpl.daemon_overhead[i as usize])
            .fold(None, |acc: Option<Resources>, o| {
                Some(acc.map_or(o, |a| a.min(&o)))
            })
            .unwrap_or(Resources::ZERO);
        let option_names: Vec<String> = options.iter().map(|&i| types[i].name.clone()).collect();
        let requests = claim.requests + min_overhead;
        let price = offering.as_ref().map_or(0, |o| o.price);
        let node = Node {
            name: name.clone(),
            nodepool: Some(tpl.nodepool),
            node_group: None,
            nodeclaim: Some(name.clone()),
            instance_type: it.name.clone(),
            arch: it.labels.get(wk::ARCH).cloned().unwrap_or_default(),
            zone,
            capacity_type,
            price,
            price_source: offering
                .as_ref()
                .map_or(PriceSource::Regional, |o| o.price_source),
            requirements: Requirements::from_labels(labels.iter()),
            labels,
            taints: np.taints.clone(),
            startup_taints: np.startup_taints.clone(),
            capacity: it.capacity,
            allocatable: it.allocatable,
            state: NodeState::Launching,
            created_at: self.now,
            options: option_names.clone(),
            deleted: false,
            initialized_at: None,
            last_pod_event: None,
            annotations: np.template_annotations.clone(),
            disruption: None,
            drifted: None,
            pool_hash: disruption::pool_hash(np),
            node_class_hash: self
                .node_classes
                .get(&np.node_class_ref.name)
                .map_or(0, disruption::node_class_hash),
            image_id: self
                .node_classes
                .get(&np.node_class_ref.name)
                .map(|nc| self.current_image(nc))
                .unwrap_or_default(),
            expire_at: np.expire_after.map(|e| self.now + e),
            termination_grace: np.termination_grace_period,
            deleting_since: None,
            reclaim_at: None,
            replaces: Vec::new(),
        };
        self.nodes.push(node);
        let n = self.nodes.len() - 1;
        self.version += 1;
        // A replacement launched by a disruption command has no provisioning pass: it
        // gets one of its own template.
        let pass = match pass {
            Some(p) => p.clone(),
            None => Rc::new(evidence::Pass {
                at: self.now,
                templates: alloc::vec![tpl.clone()],
                configured: alloc::vec![np.limits],
                limits: alloc::vec![alloc::vec![claim.limits_at_open]],
            }),
        };
        let template = pass
            .templates
            .iter()
            .position(|t| t.nodepool == tpl.nodepool)
            .unwrap_or(0);
        let record = evidence::ClaimRecord {
            pass,
            template,
            requirements: claim.requirements.clone(),
            requests: claim.requests,
            pods: claim.pods.clone(),
            limits_at_open: claim.limits_at_open,
            options: claim.options.clone(),
            launch,
        };
        self.evidence.claims.insert(n, record);
        self.event(EventKind::Created {
            nodeclaim: name,
            node_pool: np.name.clone(),
            requests,
            instance_types: option_names,
        });
        self.create_daemon_pods(n);
        if let Some(at) = self.nodes[n].expire_at {
            self.schedule(at, Action::Expire(n));
        }
        let delay = 1_000 + rng.below(1_500);
        let at = self.now + delay;
        self.schedule(at, Action::Launch(n));
        n
    }

    fn launch(&mut self, n: usize) {
        if self.nodes[n].deleted {
            return;
        }
        if self
            .evidence
            .claims
            .get(&n)
            .is_some_and(|c| c.launch.chosen.is_none() && !c.launch.ice.is_empty())
        {
            self.fail_launch(n);
            return;
        }
        self.nodes[n].state = NodeState::Launched;
        self.version += 1;
        let node = &self.nodes[n];
        self.event(EventKind::Launched {
            nodeclaim: node.name.clone(),
            instance_type: node.instance_type.clone(),
            zone: node.zone.clone(),
            capacity_type: node.capacity_type,
            price: node.price,
        });
        // The pool or its node class may have changed while the NodeClaim was created.
        self.update_drift(n);
        let mut rng = self
            .rng
            .fork(pod::stable_hash(&["register", &self.nodes[n].name]));
        let at = self.now + 28_000 + rng.below(10_000);
        self.schedule(at, Action::Register(n));
    }

    fn register(&mut self, n: usize) {
        if self.nodes[n].deleted {
            return;
        }
        self.nodes[n].state = NodeState::Registered;
        self.nodes[n]
            .labels
            .insert(wk::REGISTERED.into(), "true".into());
        self.version += 1;
        let name = self.nodes[n].name.clone();
        self.event(EventKind::Registered {
            nodeclaim: name.clone(),
            node: name,
        });
        let mut rng = self
            .rng
            .fork(pod::stable_hash(&["ready", &self.nodes[n].name]));
        // Node Ready takes ~10 s after registration; startup taints are lifted a few seconds
        // after registration by the agent that owns them.
        let at = self.now + 8_000 + rng.below(8_000);
        self.schedule(at, Action::Initialize(n));
    }

    fn initialize(&mut self, n: usize) {
        if self.nodes[n].deleted {
            return;
        }
        let node = &mut self.nodes[n];
        node.state = NodeState::Ready;
        node.initialized_at = Some(self.now);
        node.startup_taints.clear();
        node.labels.insert(wk::INITIALIZED.into(), "true".into());
        self.version += 1;
        // The startup taints are gone: DaemonSets that did not tolerate them start now.
        let present = self.pods_on(n);
        self.sync_daemon_pods(n, &present);
        for p in self.pods_on(n) {
            if self.pods[p].phase == Phase::Pending {
                self.pods[p].phase = Phase::Running;
            }
        }
        let name = self.nodes[n].name.clone();
        self.event(EventKind::Initialized {
            nodeclaim: name.clone(),
            node: name,
        });
        self.advance_commands();
    }

    fn delete_pod(&mut self, p: usize) {
        if self.pods[p].deleted {
            return;
        }
        if self.pods[p].is_active() {
            self.note_pod_event(p);
        }
        self.pods[p].deleted = true;
        self.version += 1;
    }

    /// A non-DaemonSet pod on a node finished or started terminating: the node's
    /// `consolidateAfter` clock starts again.
    fn note_pod_event(&mut self, p: usize) {
        if let Some(n) = self.pods[p].node
            && !self.pods[p].is_daemon()
        {
            self.nodes[n].last_pod_event = Some(self.now);
        }
    }
}

/// A plausible AMI ID, stable for an image name and release.
fn image_id(name: &str, release: u32) -> String {
    let h = pod::stable_hash(&[name, &release.to_string()]);
    format!("ami-0{:016x}", h)
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

//! Karpenter's scheduling simulation (`Scheduler.Solve`) and kube-scheduler's filters.
//!
//! [`Solver`] places pending pods first-fit-decreasing onto existing nodes (real and
//! in-flight), then onto NodeClaims opened earlier in the same pass, then onto a new
//! NodeClaim from each NodePool in weight order, relaxing preferences one at a time in
//! Karpenter's order when a pod does not fit. It only decides; the simulation applies.

pub mod checks;
pub mod kube;
pub mod topology;
pub mod type_index;
pub mod volumes;

use alloc::collections::{BTreeMap, VecDeque};
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::catalog::{CapacityType, InstanceType};
use crate::model::{HostPort, StringMap, WhenUnsatisfiable};
use crate::pod::{Pod, pod_requirements};
use crate::requirements::{Requirement, Requirements, Undefined};
use crate::resources::{RESOURCE_COUNT, Resources};
use crate::taints::{Taint, TaintEffect, Toleration, karpenter_tolerates, karpenter_untolerated};
use crate::wellknown::{CAPACITY_TYPE, HOSTNAME, ZONE};
use topology::{GroupKind, NodeFacts, Topology};

/// An existing node or in-flight NodeClaim as the scheduler sees it.
#[derive(Clone, Debug)]
pub struct NodeView {
    /// The simulation's node index.
    pub id: usize,
    pub name: String,
    /// Shared: consolidation simulates hundreds of passes over the same nodes.
    pub labels: Rc<StringMap>,
    pub requirements: Rc<Requirements>,
    /// Taints that count for scheduling (startup and ephemeral taints excluded while the node
    /// initialises).
    pub taints: Vec<Taint>,
    pub remaining: Resources,
    pub host_ports: Vec<HostPort>,
    pub initialized: bool,
}

/// A NodePool ready for scheduling.
#[derive(Clone)]
pub struct Template {
    pub nodepool: usize,
    pub name: String,
    pub requirements: Requirements,
    pub taints: Vec<Taint>,
    pub instance_types: Rc<Vec<InstanceType>>,
    /// Indices of the instance types that pass the NodePool's own requirements.
    ///
    /// This and the other per-instance-type lists are shared (`Rc`): consolidation clones
    /// the templates for each of its thousands of simulations, and only `remaining` and
    /// `remaining_nodes` change during a pass.
    pub candidates: Rc<Vec<u32>>,
    /// `candidates` in a new NodeClaim's order of options, largest CPU headroom first (a
    /// stable sort), and the largest capacity among them: what every NodeClaim opened
    /// without a limit in the way starts from.
    pub by_cpu: Rc<(Vec<u32>, Resources)>,
    /// `instance_types` grouped for the requirement and offering checks.
    pub index: Rc<type_index::TypeIndex>,
    /// Daemon overhead per instance type (indexed like `instance_types`).
    pub daemon_overhead: Rc<Vec<Resources>>,
    /// Allocatable minus daemon overhead per instance type: what pods can use.
    pub headroom: Rc<Vec<Resources>>,
    /// Host ports the DaemonSet pods that would run on a node of each instance type hold
    /// (indexed like `instance_types`): Karpenter's per-group `HostPortUsage`. A pod asking
    /// for one of them can never run on such a node, so those types are not options for it.
    /// Empty when no DaemonSet of the pool holds a host port (the common case).
    pub daemon_host_ports: Rc<Vec<Vec<HostPort>>>,
    /// Remaining limits per resource (None = unlimited) and remaining nodes.
    pub remaining: [Option<i64>; RESOURCE_COUNT],
    pub remaining_nodes: Option<i64>,
    /// Whether the pool has a PreferNoSchedule taint (enables the last relaxation step).
    pub has_prefer_no_schedule: bool,
}

impl Template {
    /// [`Template::by_cpu`] for these candidates.
    pub fn options_by_cpu(
        candidates: &[u32],
        instance_types: &[InstanceType],
        headroom: &[Resources],
    ) -> (Vec<u32>, Resources) {
        let mut sorted = candidates.to_vec();
        sorted.sort_by_key(|&i| core::cmp::Reverse(headroom[i as usize].cpu()));
        let mut max = Resources::ZERO;
        for &i in &sorted {
            max = max.max(&instance_types[i as usize].capacity);
        }
        (sorted, max)
    }

    fn exceeds_limits(&self, it: &InstanceType) -> bool {
        exceeds(&self.remaining, &it.capacity)
    }

    /// Whether a DaemonSet pod on a node of instance type `i` holds one of `ports`.
    pub fn daemon_port_conflict(&self, i: u32, ports: &[HostPort]) -> bool {
        self.daemon_host_ports
            .get(i as usize)
            .is_some_and(|used| ports_conflict(used, ports))
    }
}

/// Whether a node of this capacity would take a NodePool past what is left of its limits.
pub fn exceeds(remaining: &[Option<i64>; RESOURCE_COUNT], capacity: &Resources) -> bool {
    (0..RESOURCE_COUNT).any(|i| remaining[i].is_some_and(|rem| capacity.0[i] > rem))
}

/// A NodeClaim opened during this pass.
#[derive(Clone)]
pub struct NewClaim {
    pub template: usize,
    pub requirements: Requirements,
    pub pods: Vec<usize>,
    pub requests: Resources,
    /// Instance types still allowed by the requirements (indices into the template's list),
    /// largest CPU headroom first. Resource fit is applied lazily: requests only grow during
    /// a pass, so an option that no longer fits never fits again, and [`Solver::solve`]
    /// drops them before returning.
    pub options: Vec<u32>,
    pub hostname: String,
    host_ports: Vec<HostPort>,
    /// The NodePool's limits left when this NodeClaim was opened, before it reserved its
    /// share: what its instance types were filtered against.
    pub limits_at_open: Limits,
    /// The last pod requirements found compatible with `requirements` and covered by them
    /// (a pod of that spec adds nothing to them): the pods of a big pass are mostly a few
    /// Deployments' replicas, whose requirements are one shared value. Forgotten whenever
    /// `requirements` change ([`NewClaim::set_requirements`]).
    covers: core::cell::RefCell<Option<Rc<crate::pod::PodRequirements>>>,
}

// What a template and a NodeClaim are, without what is derived from them to save work
// (`by_cpu`, `covers`): the evidence's debug form stays comparable across such changes.
impl core::fmt::Debug for Template {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Template")
            .field("nodepool", &self.nodepool)
            .field("name", &self.name)
            .field("requirements", &self.requirements)
            .field("taints", &self.taints)
            .field("instance_types", &self.instance_types)
            .field("candidates", &self.candidates)
            .field("index", &self.index)
            .field("daemon_overhead", &self.daemon_overhead)
            .field("headroom", &self.headroom)
            .field("daemon_host_ports", &self.daemon_host_ports)
            .field("remaining", &self.remaining)
            .field("remaining_nodes", &self.remaining_nodes)
            .field("has_prefer_no_schedule", &self.has_prefer_no_schedule)
            .finish()
    }
}

impl core::fmt::Debug for NewClaim {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NewClaim")
            .field("template", &self.template)
            .field("requirements", &self.requirements)
            .field("pods", &self.pods)
            .field("requests", &self.requests)
            .field("options", &self.options)
            .field("hostname", &self.hostname)
            .field("host_ports", &self.host_ports)
            .field("limits_at_open", &self.limits_at_open)
            .finish()
    }
}

impl NewClaim {
    /// A NodeClaim of template `t` with no pods: every instance type the template offers
    /// within its limits (a static NodePool's NodeClaims).
    pub fn for_template(t: usize, tpl: &Template) -> NewClaim {
        NewClaim {
            template: t,
            requirements: tpl.requirements.clone(),
            pods: Vec::new(),
            requests: Resources::ZERO,
            options: tpl
                .by_cpu
                .0
                .iter()
                .copied()
                .filter(|&i| !tpl.exceeds_limits(&tpl.instance_types[i as usize]))
                .collect(),
            hostname: String::new(),
            host_ports: Vec::new(),
            limits_at_open: Limits {
                resources: tpl.remaining,
                nodes: tpl.remaining_nodes,
            },
            covers: Default::default(),
        }
    }

    fn set_requirements(&mut self, requirements: Requirements) {
        self.requirements = requirements;
        self.covers = Default::default();
    }

    /// Whether these pod requirements are known to be compatible and covered.
    fn known_covered(&self, pod: &Rc<crate::pod::PodRequirements>) -> bool {
        self.covers
            .borrow()
            .as_ref()
            .is_some_and(|known| Rc::ptr_eq(known, pod))
    }
}

/// What is left of a NodePool's limits during a pass: per resource (None = unlimited) and
/// nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub resources: [Option<i64>; RESOURCE_COUNT],
    pub nodes: Option<i64>,
}

/// How a new NodeClaim from one NodePool answered a pod, in the order Karpenter asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolVerdict {
    /// An earlier NodePool, an existing node or an open NodeClaim took the pod first.
    NotTried,
    Took,
    Refused(String),
}

/// What the solver saw when it decided about one pod; kept only when [`Solver::record`]
/// is set (provisioning passes, not the disruption controller's simulations). The pod ×
/// NodePool checks are evaluated from it by [`checks::pool_checks`].
#[derive(Clone, Debug)]
pub struct Considered {
    /// The requirements of the attempt that decided (after any relaxation).
    pub requirements: Rc<crate::pod::PodRequirements>,
    /// Set when relaxation added a PreferNoSchedule toleration; else the pod's own apply.
    pub tolerations: Option<Vec<Toleration>>,
    /// Index into [`Outcome::limits`]: the NodePools' limits when the pod was considered.
    pub limits: u32,
    /// One per template, in template order; empty when no new NodeClaim was tried (an
    /// existing node or an open NodeClaim took the pod): all [`PoolVerdict::NotTried`].
    pub pools: Vec<PoolVerdict>,
}

/// Where the solver put a pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Placement {
    Existing(usize),
    Claim(usize),
}

#[derive(Debug, Default)]
pub struct Outcome {
    pub placements: BTreeMap<usize, Placement>,
    pub claims: Vec<NewClaim>,
    pub errors: BTreeMap<usize, String>,
    /// Pods whose preferences had to be relaxed to schedule.
    pub relaxed: Vec<usize>,
    /// Per pod, what the solver saw when it last decided (only when recording).
    pub considered: Vec<(usize, Considered)>,
    /// The templates' limits each time they changed during the pass (first: at its start).
    pub limits: Vec<Vec<Limits>>,
}

/// Why a pod does not fit a node or NodeClaim. Kept as data: most failures are discarded
/// (the next node is tried), so the message is only rendered when it is reported.
#[derive(Clone, Debug)]
pub enum FitError {
    Taint(Taint),
    HostPorts,
    Resources,
    Requirements(crate::requirements::Incompatibility),
    Topology(String),
    /// `requirements` is only kept when the error will be reported (a new NodeClaim).
    InstanceTypes {
        head: &'static str,
        typo: bool,
        requirements: Option<Requirements>,
        requests: Resources,
    },
    MinValues {
        keys: Vec<String>,
        requirements: Requirements,
        requests: Resources,
    },
}

impl core::fmt::Display for FitError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            FitError::Taint(t) => write!(f, "did not tolerate taint (taint={t})"),
            FitError::HostPorts => f.write_str("host port conflict"),
            FitError::Resources => f.write_str("exceeds node resources"),
            FitError::Requirements(e) => write!(f, "incompatible requirements, {e}"),
            FitError::Topology(m) => f.write_str(m),
            FitError::InstanceTypes {
                head,
                typo,
                requirements,
                requests,
            } => {
                let typo = if *typo {
                    " (CPU request >= 1 Million, m vs M typo?)"
                } else {
                    ""
                };
                match requirements {
                    Some(r) => write!(f, "{head}{typo}, requirements={r}, resources={requests}"),
                    None => write!(f, "{head}{typo}, resources={requests}"),
                }
            }
            FitError::MinValues {
                keys,
                requirements,
                requests,
            } => write!(
                f,
                "minValues requirement is not met for label(s) (label(s)=[{}]), \
                 requirements={requirements}, resources={requests}",
                keys.join(" ")
            ),
        }
    }
}

/// The relaxation state of one pod during one attempt.
#[derive(Clone, Debug)]
struct Preferences {
    term_index: usize,
    preferred_node: Vec<usize>,
    preferred_affinity: Vec<usize>,
    preferred_anti: Vec<usize>,
    schedule_anyway: Vec<usize>,
    tolerate_prefer_no_schedule: bool,
}

fn by_weight_desc(weights: impl Iterator<Item = i32>) -> Vec<usize> {
    let mut v: Vec<(usize, i32)> = weights.enumerate().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.into_iter().map(|(i, _)| i).collect()
}

impl Preferences {
    /// What is left to relax when preferences are ignored: only the required terms and the
    /// PreferNoSchedule toleration.
    fn ignoring() -> Preferences {
        Preferences {
            term_index: 0,
            preferred_node: Vec::new(),
            preferred_affinity: Vec::new(),
            preferred_anti: Vec::new(),
            schedule_anyway: Vec::new(),
            tolerate_prefer_no_schedule: false,
        }
    }

    fn new(pod: &Pod) -> Preferences {
        let s = &pod.spec;
        Preferences {
            term_index: 0,
            preferred_node: by_weight_desc(s.node_affinity.preferred.iter().map(|t| t.weight)),
            preferred_affinity: by_weight_desc(s.preferred_pod_affinity.iter().map(|t| t.weight)),
            preferred_anti: by_weight_desc(s.preferred_pod_anti_affinity.iter().map(|t| t.weight)),
            schedule_anyway: s
                .topology_spread
                .iter()
                .enumerate()
                .filter(|(_, t)| t.when_unsatisfiable == WhenUnsatisfiable::ScheduleAnyway)
                .map(|(i, _)| i)
                .collect(),
            tolerate_prefer_no_schedule: false,
        }
    }

    /// One step of Karpenter's `Relax`; false when nothing is left to relax.
    fn relax(&mut self, pod: &Pod, some_pool_prefers_no_schedule: bool) -> bool {
        if self.term_index + 1 < pod.spec.node_affinity.required.len() {
            self.term_index += 1;
            return true;
        }
        if !self.preferred_affinity.is_empty() {
            self.preferred_affinity.remove(0);
            return true;
        }
        if !self.preferred_anti.is_empty() {
            self.preferred_anti.remove(0);
            return true;
        }
        if !self.preferred_node.is_empty() {
            self.preferred_node.remove(0);
            return true;
        }
        if !self.schedule_anyway.is_empty() {
            self.schedule_anyway.remove(0);
            return true;
        }
        if some_pool_prefers_no_schedule && !self.tolerate_prefer_no_schedule {
            self.tolerate_prefer_no_schedule = true;
            return true;
        }
        false
    }
}

/// Per-attempt view of a pod's constraints.
struct Attempt {
    /// The pod's index (its volumes are looked up by it).
    pod: usize,
    requirements: Rc<crate::pod::PodRequirements>,
    groups: Vec<usize>,
    /// Set only when relaxation added a PreferNoSchedule toleration; else the pod's own.
    tolerations: Option<Vec<Toleration>>,
    host_ports: Vec<HostPort>,
}

impl Attempt {
    fn tolerations<'p>(&'p self, pod: &'p Pod) -> &'p [Toleration] {
        self.tolerations.as_deref().unwrap_or(&pod.spec.tolerations)
    }
}

/// Topology groups with the running pods counted: the part of a pass that depends on the
/// whole cluster.
#[derive(Clone, Debug)]
pub struct PreparedTopology {
    pub topology: Topology,
    /// Inverse anti-affinity groups owned by each pod.
    inverse: BTreeMap<usize, Vec<usize>>,
}

impl PreparedTopology {
    /// Takes a node's running pods out of the counts, as if the node were gone.
    pub fn forget_node(&mut self, pods: &[Pod], on_node: &[usize], node: &NodeFacts) {
        if self.topology.groups.is_empty() {
            return;
        }
        let inverse = &self.inverse;
        let on_node = on_node.iter().map(|&p| {
            let owned = inverse.get(&p).map(Vec::as_slice).unwrap_or(&[]);
            (&pods[p], owned)
        });
        self.topology.count_on_node(on_node, node, -1);
    }
}

/// Karpenter's error for a pod with DRA resource claims (`NewDRAError` in `scheduler.go`).
pub const DRA_REFUSAL: &str =
    "pod has Dynamic Resource Allocation requirements that are not yet supported by Karpenter";

/// One scheduling pass over the pending pods.
#[derive(Clone)]
pub struct Solver<'a> {
    pub pods: &'a [Pod],
    pub nodes: Vec<NodeView>,
    pub templates: Vec<Template>,
    pub topology: Topology,
    claims: Vec<NewClaim>,
    /// `claims` emptiest first, then in creation order: the order a pod tries them in. Kept
    /// as pods are added (a claim only gains pods), not sorted again for every pod.
    claims_by_size: Vec<usize>,
    /// Inverse anti-affinity groups owned by each pod.
    inverse: BTreeMap<usize, Vec<usize>>,
    placeholder: u32,
    prefer_no_schedule_pool: bool,
    /// Requirements of unrelaxed pods, per shared pod spec.
    requirement_cache: BTreeMap<usize, Rc<crate::pod::PodRequirements>>,
    /// Keep what each decision saw ([`Outcome::considered`]).
    pub record: bool,
    /// Take the exact shortcuts: twins placed without the walk
    /// ([`Solver::place_twins_on_node`]) and NodeClaims' remembered answers
    /// ([`NewClaim::known_covered`]). Off only to test that they are exact.
    pub shortcuts: bool,
    /// `preferencePolicy: Ignore`: Karpenter schedules as if pods had no preferred node
    /// affinity, no preferred pod (anti-)affinity and no `ScheduleAnyway` spread
    /// (`scheduler.go` `updateCachedPodData`, `topology.go`; v1.4+). kube-scheduler still
    /// scores by them.
    pub ignore_preferences: bool,
    /// Karpenter v1.7+ with `IGNORE_DRA_REQUESTS` (its default): a pod with DRA resource
    /// claims is refused before any node is tried, and never relaxed (`Scheduler.add`).
    pub refuse_dra: bool,
    /// `minValuesPolicy: BestEffort` (v1.6+): a NodeClaim whose options cannot meet
    /// `minValues` launches with what is left instead of being refused (`nodeclaim.go`).
    pub min_values_best_effort: bool,
    /// A consolidation's simulation (v1.14+, `IsConsolidationSimulation`): per node, whether
    /// it is still inside its NodePool's `consolidateAfter`; and the pods moving off the
    /// candidates (sorted). A moving pod does not go to such a node; a pending one does
    /// (`addToExistingNode`, kubernetes-sigs/karpenter#3006). Empty otherwise.
    settling: Vec<bool>,
    moving: Vec<usize>,
    limits_log: Vec<Vec<Limits>>,
    last_considered: Option<Considered>,
    /// Per node: the last pod requirements checked against its requirements, and the answer
    /// ([`Requirements::compatible_covers`]). Both are shared values (a Deployment's pods
    /// share their requirements; a node's change only when a pod narrows them), so most
    /// checks are answered without comparing a label; the pair is held, so neither can be
    /// dropped and its address reused while the answer is kept.
    node_compat: Vec<Option<NodeCompat>>,
    /// Per pod class, the nodes (in order) that have not refused it for good
    /// ([`NodeFit::Never`]): the pods of a big pass mostly meet full nodes, and a full node
    /// stays full, so each pod of a class looks at the nodes that may still take it.
    open_nodes: Vec<(PodClass, Vec<u32>)>,
    /// The index in `open_nodes` of the last pod's class: where the next pod's is looked
    /// for first.
    last_class: usize,
    /// Per node, its value for each spread's key ([`topology::NodeSpreadValues`]).
    spread_values: Vec<topology::NodeSpreadValues>,
    /// The pods' volumes and the existing nodes' attach limits ([`Solver::with_volumes`]);
    /// the nodes' attached volumes grow as pods are placed.
    volumes: volumes::PassVolumes,
}

/// A pod's class as the nodes' fixed and shrinking checks see it: resources, tolerations and
/// host ports follow from these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PodClass {
    /// The shared spec's address (the pods outlive the pass, so it names one spec).
    spec: usize,
    requests: Resources,
    tolerates_prefer_no_schedule: bool,
}

/// How a node answers a pod.
enum NodeFit {
    /// With the node's requirements narrowed, when the pod narrows them.
    Fits(Option<Requirements>),
    /// Not for the rest of the pass: too little left, an untolerated taint or a host port
    /// in use. A pass only takes from a node, and taints do not change.
    Never,
    /// Not now: requirements or topology, which later placements can change.
    NotNow,
}

type NodeCompat = (
    Rc<Requirements>,
    Rc<crate::pod::PodRequirements>,
    Option<bool>,
);

/// kube-scheduler's NodePorts rule: same port and protocol conflict when either IP is a
/// wildcard or both are equal.
pub fn ports_conflict(used: &[HostPort], wanted: &[HostPort]) -> bool {
    wanted.iter().any(|w| {
        used.iter().any(|u| {
            u.port == w.port
                && u.protocol == w.protocol
                && (u.host_ip == w.host_ip || is_wildcard(&u.host_ip) || is_wildcard(&w.host_ip))
        })
    })
}

fn is_wildcard(ip: &str) -> bool {
    ip.is_empty() || ip == "0.0.0.0" || ip == "::"
}

impl<'a> Solver<'a> {
    /// Sets up a pass: builds the topology groups of the pods to schedule and counts the
    /// pods already running. Nodes must be sorted initialized-first, then by name.
    pub fn new(
        pods: &'a [Pod],
        pending: &[usize],
        nodes: Vec<NodeView>,
        templates: Vec<Template>,
        topology: Topology,
        bound: &[(usize, usize)],
        node_labels: &BTreeMap<usize, NodeFacts>,
    ) -> Solver<'a> {
        let prepared = Self::prepare(pods, pending, topology, bound, node_labels);
        Self::with_prepared(pods, nodes, templates, prepared)
    }

    /// The topology half of [`Solver::new`]: groups for every constraint of the pods that may
    /// be scheduled (preferred ones included) and the running pods counted. Consolidation
    /// prepares once for all the pods that could move and then takes each candidate's pods
    /// out ([`PreparedTopology::forget_node`]) instead of recounting the cluster per candidate.
    pub fn prepare(
        pods: &[Pod],
        schedulable: &[usize],
        mut topology: Topology,
        bound: &[(usize, usize)],
        node_labels: &BTreeMap<usize, NodeFacts>,
    ) -> PreparedTopology {
        for &p in schedulable {
            let pod = &pods[p];
            let spec = pod.spec.clone();
            for (i, tsc) in spec.topology_spread.iter().enumerate() {
                topology.spread_group(pod, i, tsc);
            }
            for (i, t) in spec.pod_affinity.iter().enumerate() {
                topology.affinity_group(pod, 1, i, t, GroupKind::Affinity, false);
            }
            for (i, t) in spec.preferred_pod_affinity.iter().enumerate() {
                topology.affinity_group(pod, 2, i, &t.term, GroupKind::Affinity, false);
            }
            for (i, t) in spec.pod_anti_affinity.iter().enumerate() {
                topology.affinity_group(pod, 3, i, t, GroupKind::AntiAffinity, false);
            }
            for (i, t) in spec.preferred_pod_anti_affinity.iter().enumerate() {
                topology.affinity_group(pod, 4, i, &t.term, GroupKind::AntiAffinity, false);
            }
        }
        let mut inverse = BTreeMap::new();
        for &(p, _) in bound {
            if !pods[p].spec.pod_anti_affinity.is_empty() {
                inverse.insert(p, topology.inverse_groups(&pods[p]));
            }
        }
        for &p in schedulable {
            if !pods[p].spec.pod_anti_affinity.is_empty() {
                inverse.insert(p, topology.inverse_groups(&pods[p]));
            }
        }
        if !topology.groups.is_empty() {
            // Node by node (the counts are sums: the order they are added in does not
            // matter), so that what depends only on the node is looked up once per node.
            let mut by_node: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
            for &(p, n) in bound {
                by_node.entry(n).or_default().push(p);
            }
            for (n, on_node) in &by_node {
                if let Some(facts) = node_labels.get(n) {
                    let on_node = on_node.iter().map(|&p| {
                        let owned = inverse.get(&p).map(Vec::as_slice).unwrap_or(&[]);
                        (&pods[p], owned)
                    });
                    topology.count_on_node(on_node, facts, 1);
                }
            }
        }
        PreparedTopology { topology, inverse }
    }

    /// The solve half of [`Solver::new`].
    pub fn with_prepared(
        pods: &'a [Pod],
        nodes: Vec<NodeView>,
        templates: Vec<Template>,
        prepared: PreparedTopology,
    ) -> Solver<'a> {
        let prefer_no_schedule_pool = templates.iter().any(|t| t.has_prefer_no_schedule);
        let node_compat = alloc::vec![None; nodes.len()];
        let spread_values = alloc::vec![topology::NodeSpreadValues::default(); nodes.len()];
        Solver {
            pods,
            nodes,
            templates,
            topology: prepared.topology,
            claims: Vec::new(),
            claims_by_size: Vec::new(),
            inverse: prepared.inverse,
            placeholder: 0,
            prefer_no_schedule_pool,
            requirement_cache: BTreeMap::new(),
            record: false,
            shortcuts: true,
            ignore_preferences: false,
            refuse_dra: false,
            min_values_best_effort: false,
            settling: Vec::new(),
            moving: Vec::new(),
            limits_log: Vec::new(),
            last_considered: None,
            spread_values,
            node_compat,
            open_nodes: Vec::new(),
            last_class: 0,
            volumes: volumes::PassVolumes::default(),
        }
    }

    /// Gives the pass its pods' volumes and the existing nodes' attach limits and attached
    /// volumes.
    pub fn with_volumes(&mut self, volumes: volumes::PassVolumes) {
        self.volumes = volumes;
    }

    fn template_limits(&self) -> Vec<Limits> {
        self.templates
            .iter()
            .map(|t| Limits {
                resources: t.remaining,
                nodes: t.remaining_nodes,
            })
            .collect()
    }

    /// Karpenter's queue order: CPU then memory descending, then creation, then UID.
    fn queue_order(pods: &[Pod], a: usize, b: usize) -> core::cmp::Ordering {
        let (pa, pb) = (&pods[a], &pods[b]);
        pb.requests
            .cpu()
            .cmp(&pa.requests.cpu())
            .then(pb.requests.memory().cmp(&pa.requests.memory()))
            .then(pa.created_at.cmp(&pb.created_at))
            .then(pa.seq.cmp(&pb.seq))
    }

    /// Sorts into [`Solver::queue_order`], stably: pods equal in every key keep their order.
    pub fn order(pods: &[Pod], pending: &mut [usize]) {
        pending.sort_by(|&a, &b| Self::queue_order(pods, a, b));
    }

    /// `first` followed by `second` in [`Solver::order`]'s order, from the two lists each
    /// already ordered: a stable merge that takes from `first` on ties gives exactly what
    /// stably sorting `first ++ second` gives. Consolidation orders the pending pods once
    /// per pass and merges each candidate's few pods in, instead of sorting tens of
    /// thousands of pods for every simulation.
    pub fn merge_ordered(pods: &[Pod], first: &[usize], second: &[usize]) -> Vec<usize> {
        let mut merged = Vec::with_capacity(first.len() + second.len());
        let (mut i, mut j) = (0, 0);
        while i < first.len() && j < second.len() {
            if Self::queue_order(pods, second[j], first[i]).is_lt() {
                merged.push(second[j]);
                j += 1;
            } else {
                merged.push(first[i]);
                i += 1;
            }
        }
        merged.extend_from_slice(&first[i..]);
        merged.extend_from_slice(&second[j..]);
        merged
    }

    pub fn solve(self, mut pending: Vec<usize>) -> Outcome {
        Self::order(self.pods, &mut pending);
        self.solve_ordered(pending)
    }

    /// [`Solver::solve`] for pods already in [`Solver::order`]'s order.
    pub fn solve_ordered(mut self, pending: Vec<usize>) -> Outcome {
        debug_assert!(
            pending
                .windows(2)
                .all(|w| Self::queue_order(self.pods, w[0], w[1]).is_le()),
            "pods not in queue order"
        );
        if self.record {
            self.limits_log.push(self.template_limits());
        }
        let mut queue: VecDeque<usize> = pending.into_iter().collect();
        let mut last_len: BTreeMap<usize, usize> = BTreeMap::new();
        let mut out = Outcome::default();
        // A pod is placed at most once (it leaves the queue then): the placements are
        // gathered and built into their map in one go, not inserted one by one.
        let mut placements: Vec<(usize, Placement)> = Vec::new();
        while let Some(&p) = queue.front() {
            if last_len.get(&p) == Some(&queue.len()) {
                break;
            }
            queue.pop_front();
            let decided = self.schedule_with_relaxation(p);
            if let Some(c) = self.last_considered.take() {
                out.considered.push((p, c));
            }
            match decided {
                Ok((placement, relaxed)) => {
                    out.errors.remove(&p);
                    let on_node = match placement {
                        Placement::Existing(n) => Some(n),
                        _ => None,
                    };
                    placements.push((p, placement));
                    if relaxed {
                        out.relaxed.push(p);
                    } else if let Some(n) = on_node {
                        self.place_twins_on_node(p, n, &mut queue, &last_len, &mut |q| {
                            out.errors.remove(&q);
                            placements.push((q, Placement::Existing(n)));
                        });
                    }
                }
                Err(e) => {
                    out.errors.insert(p, e);
                    queue.push_back(p);
                    last_len.insert(p, queue.len());
                }
            }
        }
        out.placements = placements.into_iter().collect();
        // Apply the lazily deferred resource fit.
        for claim in self.claims.iter_mut() {
            let tpl = &self.templates[claim.template];
            let requests = claim.requests;
            claim
                .options
                .retain(|&i| requests.fits_in(&tpl.headroom[i as usize]));
        }
        out.claims = self.claims;
        out.limits = self.limits_log;
        out
    }

    /// The pods after `p` in the queue that are its twins (the same shared spec and requests)
    /// go on node `n`, where `p` just went unrelaxed, for as long as it takes them: what
    /// [`Solver::add`] would decide for each, without walking the nodes before `n` again.
    ///
    /// Exact only for a pod whose answer from a node depends on nothing but that node: no
    /// topology group of its own, no inverse anti-affinity in the pass, no host port. Then the
    /// nodes before `n` in the class's open list refused `p` for now (a refusal for good
    /// dropped them) and nothing about them has changed since, so they refuse the twin too;
    /// `n` is asked exactly as the walk would ask it. A twin `n` does not take, or one the
    /// queue has gone round with, goes the usual way.
    fn place_twins_on_node(
        &mut self,
        p: usize,
        n: usize,
        queue: &mut VecDeque<usize>,
        last_len: &BTreeMap<usize, usize>,
        placed: &mut impl FnMut(usize),
    ) {
        let pods = self.pods;
        let pod = &pods[p];
        let spec = &pod.spec;
        let next_is_twin = |queue: &VecDeque<usize>| {
            queue.front().is_some_and(|&q| {
                Rc::ptr_eq(&pods[q].spec, spec) && pods[q].requests == pod.requests
            })
        };
        if self.record
            || !self.shortcuts
            || !next_is_twin(queue)
            || !spec.topology_spread.is_empty()
            || !spec.pod_affinity.is_empty()
            || !spec.preferred_pod_affinity.is_empty()
            || !spec.pod_anti_affinity.is_empty()
            || !spec.preferred_pod_anti_affinity.is_empty()
            || self.inverse.contains_key(&p)
            || self.topology.has_inverse()
            || !crate::pod::host_ports(spec).is_empty()
            || !spec.volumes.is_empty()
        {
            return;
        }
        // `p`'s unrelaxed attempt left its requirements here.
        let key = Rc::as_ptr(spec) as *const u8 as usize;
        let Some(requirements) = self.requirement_cache.get(&key).cloned() else {
            return;
        };
        let a = Attempt {
            pod: p,
            requirements,
            groups: Vec::new(),
            tolerations: None,
            host_ports: Vec::new(),
        };
        while next_is_twin(queue) {
            let q = queue[0];
            if last_len.get(&q) == Some(&queue.len())
                || self.inverse.contains_key(&q)
                || self.is_moving(q) != self.is_moving(p)
            {
                return;
            }
            let NodeFit::Fits(reqs) = self.node_can_add(n, &pods[q], &a, &[], &mut None) else {
                return;
            };
            #[cfg(debug_assertions)]
            {
                // Debug builds ask the usual way too, on a copy of the pass.
                let usual = self.clone().schedule_with_relaxation(q);
                debug_assert!(
                    matches!(usual, Ok((Placement::Existing(m), false)) if m == n),
                    "pod {q}, twin of {p}, goes to node {n} here and to {usual:?} the usual way"
                );
            }
            queue.pop_front();
            let node = &mut self.nodes[n];
            node.remaining = node.remaining - pods[q].requests;
            if let Some(r) = reqs {
                node.requirements = Rc::new(r);
            }
            if !self.topology.groups.is_empty() {
                self.topology
                    .record(&pods[q], &self.nodes[n].requirements, &[]);
            }
            placed(q);
        }
    }

    fn schedule_with_relaxation(&mut self, p: usize) -> Result<(Placement, bool), String> {
        let pod = &self.pods[p];
        if self.refuse_dra && pod.spec.dynamic_resources {
            return Err(DRA_REFUSAL.into());
        }
        let mut prefs = if self.ignore_preferences {
            Preferences::ignoring()
        } else {
            Preferences::new(pod)
        };
        let mut relaxed = false;
        loop {
            match self.add(p, &prefs) {
                Ok(pl) => return Ok((pl, relaxed)),
                Err(e) => {
                    if !prefs.relax(pod, self.prefer_no_schedule_pool) {
                        return Err(e);
                    }
                    relaxed = true;
                }
            }
        }
    }

    fn attempt(&mut self, p: usize, prefs: &Preferences) -> Attempt {
        let pod = &self.pods[p];
        let spec = pod.spec.clone();
        // Every attempt of a solver starts from the same preferences (none when they are
        // ignored), so a first attempt's requirements can be shared per spec.
        let unrelaxed = prefs.term_index == 0
            && prefs.preferred_node.len()
                == if self.ignore_preferences {
                    0
                } else {
                    spec.node_affinity.preferred.len()
                };
        let key = Rc::as_ptr(&spec) as *const u8 as usize;
        let pr = match (unrelaxed, self.requirement_cache.get(&key)) {
            (true, Some(pr)) => pr.clone(),
            _ => {
                let pr = Rc::new(pod_requirements(
                    &spec,
                    prefs.term_index,
                    &prefs.preferred_node,
                ));
                if unrelaxed {
                    self.requirement_cache.insert(key, pr.clone());
                }
                pr
            }
        };
        // A volume's topology narrows the node, never the pod's own requirements: topology
        // spread keeps counting with the pod's affinity (`tryVolumeAlternative`,
        // `K@v1.14.1:pkg/controllers/provisioning/scheduling/nodeclaim.go`).
        let pr = match self
            .volumes
            .pods
            .get(&p)
            .and_then(|v| v.requirements.as_ref())
        {
            Some(volume) => {
                let mut preferred = pr.preferred.clone();
                preferred.add_all(volume);
                Rc::new(crate::pod::PodRequirements {
                    strict: pr.strict.clone(),
                    preferred,
                })
            }
            None => pr,
        };
        let mut groups = Vec::new();
        for (i, tsc) in spec.topology_spread.iter().enumerate() {
            if tsc.when_unsatisfiable == WhenUnsatisfiable::DoNotSchedule
                || prefs.schedule_anyway.contains(&i)
            {
                groups.push(self.topology.spread_group(pod, i, tsc));
            }
        }
        for (i, t) in spec.pod_affinity.iter().enumerate() {
            groups.push(
                self.topology
                    .affinity_group(pod, 1, i, t, GroupKind::Affinity, false),
            );
        }
        for &i in &prefs.preferred_affinity {
            groups.push(self.topology.affinity_group(
                pod,
                2,
                i,
                &spec.preferred_pod_affinity[i].term,
                GroupKind::Affinity,
                false,
            ));
        }
        for (i, t) in spec.pod_anti_affinity.iter().enumerate() {
            groups.push(
                self.topology
                    .affinity_group(pod, 3, i, t, GroupKind::AntiAffinity, false),
            );
        }
        for &i in &prefs.preferred_anti {
            groups.push(self.topology.affinity_group(
                pod,
                4,
                i,
                &spec.preferred_pod_anti_affinity[i].term,
                GroupKind::AntiAffinity,
                false,
            ));
        }
        let tolerations = if prefs.tolerate_prefer_no_schedule {
            let mut t = spec.tolerations.clone();
            t.push(Toleration::all_prefer_no_schedule());
            Some(t)
        } else {
            None
        };
        Attempt {
            pod: p,
            requirements: pr,
            groups,
            tolerations,
            host_ports: crate::pod::host_ports(&pod.spec),
        }
    }

    /// Karpenter's `Scheduler.add`: the first place that takes the pod, in Karpenter's
    /// order: an existing or in-flight node, a NodeClaim opened earlier in this pass, a new
    /// NodeClaim from a NodePool.
    fn add(&mut self, p: usize, prefs: &Preferences) -> Result<Placement, String> {
        let a = self.attempt(p, prefs);
        let pods = self.pods;
        let pod = &pods[p];
        let owned = self.inverse.get(&p).cloned().unwrap_or_default();
        if self.record {
            self.last_considered = Some(Considered {
                requirements: a.requirements.clone(),
                tolerations: a.tolerations.clone(),
                limits: self.limits_log.len().saturating_sub(1) as u32,
                pools: Vec::new(),
            });
        }
        if let Some(placement) = self.add_to_node(p, pod, &a, &owned) {
            return Ok(placement);
        }
        if let Some(placement) = self.add_to_open_claim(p, pod, &a, &owned) {
            return Ok(placement);
        }
        self.add_to_new_claim(p, pod, &a, &owned)
    }

    /// First: existing and in-flight nodes, in order.
    fn add_to_node(
        &mut self,
        p: usize,
        pod: &Pod,
        a: &Attempt,
        owned: &[usize],
    ) -> Option<Placement> {
        let class = self.pod_class(pod, a);
        let mut open = core::mem::take(&mut self.open_nodes[class].1);
        // Settled when a node first gets as far as the topology check.
        let mut spreads = None;
        let mut placed = None;
        let moving = self.is_moving(p);
        let mut i = 0;
        while i < open.len() {
            let n = open[i] as usize;
            // Not for good: the class's pending pods may still go there.
            if moving && self.settling.get(n) == Some(&true) {
                i += 1;
                continue;
            }
            match self.node_can_add(n, pod, a, owned, &mut spreads) {
                NodeFit::Fits(reqs) => {
                    placed = Some((n, reqs));
                    break;
                }
                NodeFit::Never => {
                    open.remove(i);
                }
                NodeFit::NotNow => i += 1,
            }
        }
        self.open_nodes[class].1 = open;
        let (n, reqs) = placed?;
        let node = &mut self.nodes[n];
        node.remaining = node.remaining - pod.requests;
        node.host_ports.extend(a.host_ports.iter().cloned());
        if let Some(r) = reqs {
            node.requirements = Rc::new(r);
        }
        let id = node.id;
        if let Some(v) = self.volumes.pods.get(&p) {
            let attached = self.volumes.nodes.entry(id).or_default();
            attached.add(v);
        }
        if !self.topology.groups.is_empty() {
            self.topology
                .record(pod, &self.nodes[n].requirements, owned);
        }
        Some(Placement::Existing(n))
    }

    /// Makes this pass a consolidation's simulation: `settling[n]` says whether node `n` is
    /// still inside its NodePool's `consolidateAfter`; `moving` (sorted) are the pods of the
    /// candidates, which do not go to such nodes.
    pub fn keep_moving_pods_off(&mut self, settling: Vec<bool>, moving: Vec<usize>) {
        debug_assert!(settling.len() == self.nodes.len());
        debug_assert!(moving.windows(2).all(|w| w[0] < w[1]));
        self.settling = settling;
        self.moving = moving;
    }

    fn is_moving(&self, p: usize) -> bool {
        !self.moving.is_empty() && self.moving.binary_search(&p).is_ok()
    }

    /// The index in [`Solver::open_nodes`] of the pod's class for this attempt.
    fn pod_class(&mut self, pod: &Pod, a: &Attempt) -> usize {
        let key = PodClass {
            spec: Rc::as_ptr(&pod.spec) as *const u8 as usize,
            requests: pod.requests,
            tolerates_prefer_no_schedule: a.tolerations.is_some(),
        };
        // The queue keeps a workload's pods together: most pods are of the last one's class.
        if self
            .open_nodes
            .get(self.last_class)
            .is_some_and(|(k, _)| *k == key)
        {
            return self.last_class;
        }
        self.last_class = match self.open_nodes.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                let all = (0..self.nodes.len() as u32).collect();
                self.open_nodes.push((key, all));
                self.open_nodes.len() - 1
            }
        };
        self.last_class
    }

    /// Second: NodeClaims opened earlier in this pass, emptiest first.
    fn add_to_open_claim(
        &mut self,
        p: usize,
        pod: &Pod,
        a: &Attempt,
        owned: &[usize],
    ) -> Option<Placement> {
        for k in 0..self.claims_by_size.len() {
            let c = self.claims_by_size[k];
            if let Ok((reqs, options)) = self.claim_can_add(&self.claims[c], pod, a, owned) {
                self.claims_by_size.remove(k);
                self.file_claim(c, self.claims[c].pods.len() + 1);
                let claim = &mut self.claims[c];
                if let Some(r) = reqs {
                    claim.set_requirements(r);
                }
                if let Some(options) = options {
                    claim.options = options;
                }
                claim.requests += pod.requests;
                claim.pods.push(p);
                claim.host_ports.extend(a.host_ports.iter().cloned());
                if !self.topology.groups.is_empty() {
                    self.topology
                        .record(pod, &self.claims[c].requirements, owned);
                }
                return Some(Placement::Claim(c));
            }
        }
        None
    }

    /// Last: a new NodeClaim from each NodePool in weight order; the error joins every
    /// NodePool's refusal.
    fn add_to_new_claim(
        &mut self,
        p: usize,
        pod: &Pod,
        a: &Attempt,
        owned: &[usize],
    ) -> Result<Placement, String> {
        if self.templates.is_empty() {
            return Err("no nodepools found".into());
        }
        let mut errors: Vec<String> = Vec::new();
        for t in 0..self.templates.len() {
            let claim = match self.open_claim(t) {
                Ok(claim) => claim,
                Err(refusal) => {
                    self.note_verdict(t, PoolVerdict::Refused(refusal.clone()));
                    errors.push(refusal);
                    continue;
                }
            };
            match self.claim_can_add(&claim, pod, a, owned) {
                Ok((reqs, options)) => {
                    return Ok(self.take_claim(claim, reqs, options, p, pod, a, owned));
                }
                Err(e) => {
                    self.topology.unregister_domain(HOSTNAME, &claim.hostname);
                    let tpl = &self.templates[t];
                    let overhead = tpl
                        .candidates
                        .iter()
                        .map(|&i| tpl.daemon_overhead[i as usize])
                        .fold(None, |acc: Option<Resources>, o| {
                            Some(acc.map_or(o, |a| a.min(&o)))
                        });
                    let refusal = format!(
                        "incompatible with nodepool \"{}\", daemonset overhead={}, {}",
                        tpl.name,
                        overhead.unwrap_or(Resources::ZERO),
                        e
                    );
                    self.note_verdict(t, PoolVerdict::Refused(refusal.clone()));
                    errors.push(refusal);
                }
            }
        }
        Err(errors.join("; "))
    }

    /// An empty NodeClaim of template `t` with a placeholder hostname (registered as a
    /// topology domain), or why the NodePool's limits refuse one.
    fn open_claim(&mut self, t: usize) -> Result<NewClaim, String> {
        let tpl = &self.templates[t];
        if tpl.remaining_nodes.is_some_and(|n| n <= 0) {
            return Err(format!(
                "node limits have been exhausted for nodepool (NodePool={})",
                tpl.name
            ));
        }
        // Filtering the sorted list keeps the order a stable sort of the filtered one has.
        let options: Vec<u32> = if tpl.remaining.iter().all(Option::is_none) {
            tpl.by_cpu.0.clone()
        } else {
            tpl.by_cpu
                .0
                .iter()
                .copied()
                .filter(|&i| !tpl.exceeds_limits(&tpl.instance_types[i as usize]))
                .collect()
        };
        if options.is_empty() {
            return Err(format!(
                "all available instance types exceed limits for nodepool (NodePool={})",
                tpl.name
            ));
        }
        let limits_at_open = Limits {
            resources: tpl.remaining,
            nodes: tpl.remaining_nodes,
        };
        let mut requirements = tpl.requirements.clone();
        self.placeholder += 1;
        let hostname = format!("hostname-placeholder-{:04}", self.placeholder);
        requirements.add(Requirement::in_values(HOSTNAME, [hostname.clone()]));
        self.topology.register_domain(HOSTNAME, &hostname);
        Ok(NewClaim {
            template: t,
            requirements,
            pods: Vec::new(),
            requests: Resources::ZERO,
            options,
            hostname,
            host_ports: Vec::new(),
            limits_at_open,
            covers: Default::default(),
        })
    }

    /// Keeps a new NodeClaim with its first pod: the largest option's capacity is reserved
    /// against the NodePool's limits (`subtractMax`).
    #[allow(clippy::too_many_arguments)]
    fn take_claim(
        &mut self,
        mut claim: NewClaim,
        reqs: Option<Requirements>,
        options: Option<Vec<u32>>,
        p: usize,
        pod: &Pod,
        a: &Attempt,
        owned: &[usize],
    ) -> Placement {
        let t = claim.template;
        let options = options.unwrap_or_else(|| claim.options.clone());
        let tpl = &mut self.templates[t];
        // Options are a subset of the candidates: as many means the same.
        let max = if options.len() == tpl.by_cpu.0.len() {
            tpl.by_cpu.1
        } else {
            let mut max = Resources::ZERO;
            for &i in &options {
                max = max.max(&tpl.instance_types[i as usize].capacity);
            }
            max
        };
        for i in 0..RESOURCE_COUNT {
            if let Some(rem) = tpl.remaining[i].as_mut() {
                *rem -= max.0[i];
            }
        }
        if let Some(n) = tpl.remaining_nodes.as_mut() {
            *n -= 1;
        }
        if let Some(r) = reqs {
            claim.set_requirements(r);
        }
        let reqs = claim.requirements.clone();
        claim.options = options;
        claim.requests = pod.requests;
        claim.pods.push(p);
        claim.host_ports = a.host_ports.clone();
        self.topology.record(pod, &reqs, owned);
        self.claims.push(claim);
        self.file_claim(self.claims.len() - 1, 1);
        self.note_verdict(t, PoolVerdict::Took);
        if self.record {
            self.limits_log.push(self.template_limits());
        }
        Placement::Claim(self.claims.len() - 1)
    }

    /// Puts claim `c`, about to hold `pods` pods, in its place in [`Solver::claims_by_size`].
    fn file_claim(&mut self, c: usize, pods: usize) {
        let claims = &self.claims;
        let at = self
            .claims_by_size
            .partition_point(|&d| (claims[d].pods.len(), d) < (pods, c));
        self.claims_by_size.insert(at, c);
    }

    fn note_verdict(&mut self, template: usize, verdict: PoolVerdict) {
        let count = self.templates.len();
        if let Some(c) = self.last_considered.as_mut() {
            if c.pools.is_empty() {
                c.pools = alloc::vec![PoolVerdict::NotTried; count];
            }
            c.pools[template] = verdict;
        }
    }

    /// Whether the pod fits an existing node, with the node's narrowed requirements when the
    /// pod narrows them. Why it does not fit is never reported (the next node is tried), so
    /// the cheapest and most selective test comes first and no message is built.
    /// `spreads` holds the pod's spread constraints settled for this attempt, if that is all
    /// its topology is, once a node has needed them.
    fn node_can_add(
        &mut self,
        n: usize,
        pod: &Pod,
        a: &Attempt,
        owned: &[usize],
        spreads: &mut Option<Option<Vec<topology::SpreadCheck>>>,
    ) -> NodeFit {
        let node = &self.nodes[n];
        if !pod.requests.fits_in(&node.remaining)
            || karpenter_untolerated(&node.taints, a.tolerations(pod)).is_some()
            || ports_conflict(&node.host_ports, &a.host_ports)
        {
            return NodeFit::Never;
        }
        // `ExistingNode.CanAdd` checks the attach limits right after taints.
        if let Some(v) = self.volumes.pods.get(&a.pod)
            && self
                .volumes
                .nodes
                .get(&node.id)
                .is_some_and(|attached| attached.exceeds_limits(v))
        {
            return NodeFit::NotNow;
        }
        let Some(covered) = (match &self.node_compat[n] {
            Some((node_reqs, pod_reqs, answer))
                if Rc::ptr_eq(node_reqs, &node.requirements)
                    && Rc::ptr_eq(pod_reqs, &a.requirements) =>
            {
                *answer
            }
            _ => {
                let answer = node
                    .requirements
                    .compatible_covers(&a.requirements.preferred, Undefined::Deny);
                self.node_compat[n] =
                    Some((node.requirements.clone(), a.requirements.clone(), answer));
                answer
            }
        }) else {
            return NodeFit::NotNow;
        };
        // A node's requirements are its labels; clone them only when the pod narrows them.
        let mut new_reqs = if covered {
            None
        } else {
            let mut r = Requirements::clone(&node.requirements);
            r.add_all(&a.requirements.preferred);
            Some(r)
        };
        if !a.groups.is_empty() || self.topology.has_inverse() {
            let base = new_reqs.as_ref().unwrap_or(&*node.requirements);
            let spreads = spreads.get_or_insert_with(|| {
                self.topology
                    .spread_checks(pod, &a.groups, &a.requirements.strict)
            });
            let allowed = match (spreads.as_deref(), &new_reqs) {
                (Some(checks), None) => {
                    self.spread_values[n].spreads_allow(&self.topology, checks, &node.requirements)
                }
                (Some(checks), Some(_)) => self.topology.spreads_allow(checks, base),
                (None, _) => None,
            };
            if let Some(allowed) = allowed {
                return if allowed {
                    NodeFit::Fits(new_reqs)
                } else {
                    NodeFit::NotNow
                };
            }
            let Ok(topo) = self.topology.add_requirements(
                pod,
                &a.groups,
                &a.requirements.strict,
                base,
                owned,
                false,
            ) else {
                return NodeFit::NotNow;
            };
            let Some(covered) = base.compatible_covers(&topo, Undefined::Deny) else {
                return NodeFit::NotNow;
            };
            if !covered {
                let mut r = new_reqs
                    .take()
                    .unwrap_or_else(|| Requirements::clone(&node.requirements));
                r.add_all(&topo);
                new_reqs = Some(r);
            }
        }
        NodeFit::Fits(new_reqs)
    }

    /// Whether the pod fits a NodeClaim of this pass: the checks that need no instance type
    /// first, then the NodeClaim's requirements with the pod's (and its topology's), then
    /// the instance types that still fit them all. Returns the narrowed requirements and
    /// options when they change.
    #[allow(clippy::result_large_err)] // the error is built only on the failure path
    fn claim_can_add(
        &self,
        claim: &NewClaim,
        pod: &Pod,
        a: &Attempt,
        owned: &[usize],
    ) -> Result<(Option<Requirements>, Option<Vec<u32>>), FitError> {
        let tpl = &self.templates[claim.template];
        let known = self.shortcuts && claim.known_covered(&a.requirements);
        debug_assert!(
            !known
                || (claim.requirements.covers(&a.requirements.preferred)
                    && claim
                        .requirements
                        .compatible(&a.requirements.preferred, Undefined::AllowWellKnown)
                        .is_ok()),
            "a NodeClaim's remembered answer is its answer"
        );
        claim_admits(tpl, claim, pod, a, known)?;
        let new_reqs = self.claim_requirements(claim, pod, a, owned, known)?;
        let changed = new_reqs.is_some();
        let reqs = new_reqs.as_ref().unwrap_or(&claim.requirements);
        let requests = claim.requests + pod.requests;
        let has_min_values = reqs.iter().any(|r| r.min_values.is_some());
        // Instance types whose DaemonSets hold one of the pod's host ports drop out
        // (`filterInstanceTypesByRequirements` skips the whole daemon group, so they do not
        // count towards any criterion of the error either).
        let ports_matter = !a.host_ports.is_empty() && !tpl.daemon_host_ports.is_empty();
        if !changed && !has_min_values && !ports_matter {
            // Some option must still fit; the largest (first) usually does.
            if some_option_fits(tpl, &claim.options, &requests) {
                return Ok((None, None));
            }
            if !claim.pods.is_empty() {
                return Err(FitError::Resources);
            }
        }
        let survivors = surviving_options(tpl, claim, pod, a, reqs, changed, ports_matter)?;
        if !self.min_values_best_effort {
            min_values_met(tpl, &survivors, reqs, requests)?;
        }
        Ok((new_reqs, Some(survivors)))
    }

    /// The NodeClaim's requirements narrowed by the pod's preferred requirements and its
    /// topology's, if they narrow them (`None`: unchanged).
    #[allow(clippy::result_large_err)] // the error is built only on the failure path
    fn claim_requirements(
        &self,
        claim: &NewClaim,
        pod: &Pod,
        a: &Attempt,
        owned: &[usize],
        known_covered: bool,
    ) -> Result<Option<Requirements>, FitError> {
        // Most pods add nothing to a NodeClaim's requirements; only clone when they might.
        let topology = !a.groups.is_empty() || self.topology.has_inverse();
        let mut new_reqs: Option<Requirements> =
            if known_covered || claim.requirements.covers(&a.requirements.preferred) {
                if !known_covered && self.shortcuts {
                    // `claim_admits` found them compatible before this.
                    *claim.covers.borrow_mut() = Some(a.requirements.clone());
                }
                None
            } else {
                let mut r = claim.requirements.clone();
                r.add_all(&a.requirements.preferred);
                Some(r)
            };
        if topology {
            let base = new_reqs.as_ref().unwrap_or(&claim.requirements);
            let detail = claim.pods.is_empty();
            let topo = self
                .topology
                .add_requirements(pod, &a.groups, &a.requirements.strict, base, owned, detail)
                .map_err(|e| FitError::Topology(e.message))?;
            base.compatible(&topo, Undefined::AllowWellKnown)
                .map_err(FitError::Requirements)?;
            if !base.covers(&topo) {
                let mut r = new_reqs
                    .take()
                    .unwrap_or_else(|| claim.requirements.clone());
                r.add_all(&topo);
                new_reqs = Some(r);
            }
        }
        if new_reqs.as_ref() == Some(&claim.requirements) {
            new_reqs = None;
        }
        Ok(new_reqs)
    }
}

/// The checks of a pod against a NodeClaim that need no instance type: a full NodeClaim,
/// the NodePool's taints, host ports, and the requirements' compatibility.
#[allow(clippy::result_large_err)] // the error is built only on the failure path
fn claim_admits(
    tpl: &Template,
    claim: &NewClaim,
    pod: &Pod,
    a: &Attempt,
    known_covered: bool,
) -> Result<(), FitError> {
    // A full NodeClaim is the common miss in big passes: its largest option (the first)
    // lacks the CPU, so no option can take the pod whatever the requirements say.
    if let Some(&largest) = claim.options.first()
        && !claim.pods.is_empty()
        && claim.requests.cpu() + pod.requests.cpu() > tpl.headroom[largest as usize].cpu()
    {
        return Err(FitError::Resources);
    }
    if let Err(t) = karpenter_tolerates(&tpl.taints, a.tolerations(pod)) {
        return Err(FitError::Taint(t));
    }
    if ports_conflict(&claim.host_ports, &a.host_ports) {
        return Err(FitError::HostPorts);
    }
    if known_covered {
        return Ok(());
    }
    claim
        .requirements
        .compatible(&a.requirements.preferred, Undefined::AllowWellKnown)
        .map_err(FitError::Requirements)
}

/// Whether one of the options (largest CPU first) has the headroom for `requests`.
fn some_option_fits(tpl: &Template, options: &[u32], requests: &Resources) -> bool {
    for &i in options {
        let h = &tpl.headroom[i as usize];
        if requests.cpu() > h.cpu() {
            return false;
        }
        if requests.fits_in(h) {
            return true;
        }
    }
    false
}

/// The NodeClaim's options that meet the requirements, fit the requests and have an
/// offering; when none does, Karpenter's error naming which criteria no type met.
#[allow(clippy::result_large_err)] // the error is built only on the failure path
fn surviving_options(
    tpl: &Template,
    claim: &NewClaim,
    pod: &Pod,
    a: &Attempt,
    reqs: &Requirements,
    changed: bool,
    ports_matter: bool,
) -> Result<Vec<u32>, FitError> {
    let requests = claim.requests + pod.requests;
    let extended = requests.has_extended();
    let (mut any_req, mut any_fit, mut any_off) = (false, false, false);
    let (mut req_fit, mut fit_off, mut req_off) = (false, false, false);
    let mut survivors = Vec::with_capacity(claim.options.len());
    let matcher = changed.then(|| tpl.index.matcher(reqs));
    // The error taxonomy is only reported for a NodeClaim's first pod; otherwise options
    // that cannot fit need no requirement checks, and (largest CPU first) none after the
    // first that lacks CPU can fit.
    let detail = claim.pods.is_empty();
    for &i in &claim.options {
        let headroom = &tpl.headroom[i as usize];
        if !detail && requests.cpu() > headroom.cpu() {
            break;
        }
        if ports_matter && tpl.daemon_port_conflict(i, &a.host_ports) {
            continue;
        }
        let fit_ok = if extended {
            requests.fits_in(headroom)
        } else {
            requests.fits_in_core(headroom)
        };
        if !detail && !fit_ok {
            continue;
        }
        let (req_ok, off_ok) = match &matcher {
            Some(m) => (m.requirements_ok(i), m.offering_ok(i)),
            None => (true, true),
        };
        any_req |= req_ok;
        any_fit |= fit_ok;
        any_off |= off_ok;
        req_fit |= req_ok && fit_ok;
        fit_off |= fit_ok && off_ok;
        req_off |= req_ok && off_ok;
        if req_ok && fit_ok && off_ok {
            survivors.push(i);
        }
    }
    if !survivors.is_empty() {
        return Ok(survivors);
    }
    let head = if !any_req && !any_fit && !any_off {
        "no instance type met the scheduling requirements or had enough \
         resources or had a required offering"
    } else if !any_req && !any_fit {
        "no instance type met the scheduling requirements or had enough resources"
    } else if !any_req && !any_off {
        "no instance type met the scheduling requirements or had a required offering"
    } else if !any_fit && !any_off {
        "no instance type had enough resources or had a required offering"
    } else if !any_req {
        "no instance type met all requirements"
    } else if !any_fit {
        "no instance type has enough resources"
    } else if !any_off {
        "no instance type has the required offering"
    } else if req_fit {
        "no instance type which met the scheduling requirements and had enough \
         resources, had a required offering"
    } else if fit_off {
        "no instance type which had enough resources and the required offering \
         met the scheduling requirements"
    } else if req_off {
        "no instance type which met the scheduling requirements and the required \
         offering had the required resources"
    } else {
        "no instance type met the requirements/resources/offering tuple"
    };
    let typo = !any_fit && pod.requests.cpu() >= 1_000_000_000;
    let requirements = if claim.pods.is_empty() {
        Some(reqs.clone())
    } else {
        None
    };
    Err(FitError::InstanceTypes {
        head,
        typo,
        requirements,
        requests,
    })
}

/// The `minValues` requirements that `options` (indices into `types`) no longer give enough
/// distinct values: for each, how many of its allowed values some option carries must reach
/// its `minValues`. One rule for the solver, the NodePool's own check and disruption's
/// replacements.
pub fn min_values_unmet<'r>(
    types: &[InstanceType],
    options: &[u32],
    reqs: &'r Requirements,
) -> Vec<&'r Requirement> {
    let mut values: Vec<&str> = Vec::new();
    let mut unmet = Vec::new();
    for r in reqs.iter() {
        let Some(min) = r.min_values else { continue };
        values.clear();
        values.extend(options.iter().filter_map(|&i| {
            types
                .get(i as usize)?
                .labels
                .get(&r.key)
                .map(String::as_str)
                .filter(|v| r.has(v))
        }));
        values.sort_unstable();
        values.dedup();
        if values.len() < min as usize {
            unmet.push(r);
        }
    }
    unmet
}

/// minValues (Strict): the surviving types must still offer enough distinct values.
#[allow(clippy::result_large_err)] // the error is built only on the failure path
fn min_values_met(
    tpl: &Template,
    survivors: &[u32],
    reqs: &Requirements,
    requests: Resources,
) -> Result<(), FitError> {
    let unmet: Vec<String> = min_values_unmet(&tpl.instance_types, survivors, reqs)
        .into_iter()
        .map(|r| r.key.clone())
        .collect();
    if unmet.is_empty() {
        return Ok(());
    }
    Err(FitError::MinValues {
        keys: unmet,
        requirements: reqs.clone(),
        requests,
    })
}

/// Whether the instance type has an available offering in an allowed zone and capacity type.
pub fn has_compatible_offering(it: &InstanceType, reqs: &Requirements) -> bool {
    let zone = reqs.get(ZONE);
    let ct = reqs.get(CAPACITY_TYPE);
    it.offerings.iter().any(|o| {
        o.available
            && zone.is_none_or(|z| z.has(&o.zone))
            && ct.is_none_or(|c| c.has(o.capacity_type.as_str()))
    })
}

/// The cheapest available offering compatible with the requirements, optionally of one
/// capacity type.
pub fn cheapest_offering<'i>(
    it: &'i InstanceType,
    reqs: &Requirements,
    capacity_type: Option<CapacityType>,
) -> Option<&'i crate::catalog::Offering> {
    let zone = reqs.get(ZONE);
    let ct = reqs.get(CAPACITY_TYPE);
    it.offerings
        .iter()
        .filter(|o| {
            o.available
                && zone.is_none_or(|z| z.has(&o.zone))
                && ct.is_none_or(|c| c.has(o.capacity_type.as_str()))
                && capacity_type.is_none_or(|c| c == o.capacity_type)
        })
        .min_by(|a, b| a.price.cmp(&b.price).then(a.zone.cmp(&b.zone)))
}

/// Whether a taint list has a PreferNoSchedule taint.
pub fn has_prefer_no_schedule(taints: &[Taint]) -> bool {
    taints
        .iter()
        .any(|t| t.effect == TaintEffect::PreferNoSchedule)
}

#[cfg(test)]
mod queue_order_tests {
    use super::*;
    use crate::model::Millis;
    use crate::resources::ResourceName;

    fn pod(cpu: i64, memory: i64, created_at: Millis, seq: u64) -> Pod {
        Pod {
            requests: Resources::ZERO
                .with(ResourceName::Cpu, cpu)
                .with(ResourceName::Memory, memory),
            created_at,
            seq,
            ..Pod::blank()
        }
    }

    /// Merging two ordered lists gives what sorting them joined gives, ties (pods equal in
    /// every key) included: consolidation's simulations rely on it.
    #[test]
    fn merging_ordered_lists_is_sorting_them_joined() {
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        // Few distinct values, so that many pods tie on some keys and some on all of them.
        let pods: Vec<Pod> = (0..200)
            .map(|_| pod(next(3) as i64, next(2) as i64, next(2) as Millis, next(3)))
            .collect();
        for _ in 0..200 {
            let (mut first, mut second) = (Vec::new(), Vec::new());
            for p in 0..pods.len() {
                match next(4) {
                    0 => first.push(p),
                    1 => second.push(p),
                    _ => {}
                }
            }
            let mut joined = first.clone();
            joined.extend_from_slice(&second);
            Solver::order(&pods, &mut joined);
            Solver::order(&pods, &mut first);
            Solver::order(&pods, &mut second);
            assert_eq!(Solver::merge_ordered(&pods, &first, &second), joined);
        }
    }
}

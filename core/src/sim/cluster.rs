//! The cluster as every controller sees it (Karpenter's `state.Cluster` and what the API
//! server holds): NodePools, EC2NodeClasses, workloads and their pods, nodes (a Node and
//! its NodeClaim are one entry), PodDisruptionBudgets and namespaces, with the queries the
//! controllers ask of them.
//!
//! Controllers reconcile against this state and change it as Kubernetes objects change
//! (a pod bound, a NodeClaim created, a node tainted); what they remember for themselves
//! lives in their own modules. Queries take `&self` and never change anything. `version`
//! counts the changes a controller could react to: bump it with every change.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::catalog::{CapacityType, MicroDollars, PriceSource};
use crate::disruption::{self, DoNotDisrupt};
use crate::model::*;
use crate::pod::{self, Phase, Pod};
use crate::requirements::Requirements;
use crate::resources::Resources;
use crate::taints::{Taint, TaintEffect};
use crate::wellknown as wk;

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
    /// EKS Auto Mode's management fee per hour on the instance, on top of `price` (0 for a
    /// node Auto Mode does not manage).
    pub management_fee: MicroDollars,
    pub price_source: PriceSource,
    /// The NodeOverlay that priced its offering, and the list price before it.
    pub overlay: Option<(String, MicroDollars)>,
    /// The capacity reservation its instance runs in (`capacity-type: reserved`).
    pub reservation: Option<String>,
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
    /// Node conditions whose status is not `True` (type → status, since when): what node
    /// repair watches.
    pub conditions: BTreeMap<String, (String, Millis)>,
    /// How old the node already was at time zero (a snapshot's node; 0 for the nodes the
    /// simulation creates). `created_at` is 0 for such a node, so its age is
    /// `now - created_at + age_at_start`.
    pub age_at_start: Millis,
    /// For a snapshot's node: how long before time zero its last pod event was
    /// (`consolidateAfter` counts from there until a pod event in the simulation).
    pub quiet_at_start: Millis,
}

impl Node {
    /// A node that is Ready from time zero, before anything is simulated: a node group's,
    /// or a snapshot's. Its requirements come from `labels`, its arch from its
    /// `kubernetes.io/arch` label; the caller sets where it belongs, its price and what else
    /// it knows.
    pub(super) fn ready_at_start(
        name: String,
        instance_type: String,
        labels: StringMap,
        capacity: Resources,
        allocatable: Resources,
    ) -> Node {
        Node {
            name,
            nodepool: None,
            node_group: None,
            nodeclaim: None,
            arch: labels.get(wk::ARCH).cloned().unwrap_or_default(),
            options: alloc::vec![instance_type.clone()],
            instance_type,
            zone: labels.get(wk::ZONE).cloned().unwrap_or_default(),
            capacity_type: CapacityType::OnDemand,
            price: 0,
            management_fee: 0,
            price_source: PriceSource::Regional,
            overlay: None,
            reservation: None,
            requirements: Requirements::from_labels(labels.iter()),
            labels,
            taints: Vec::new(),
            startup_taints: Vec::new(),
            capacity,
            allocatable,
            state: NodeState::Ready,
            created_at: 0,
            deleted: false,
            initialized_at: Some(0),
            last_pod_event: None,
            annotations: StringMap::new(),
            disruption: None,
            drifted: None,
            pool_hash: 0,
            node_class_hash: 0,
            image_id: String::new(),
            expire_at: None,
            termination_grace: None,
            deleting_since: None,
            reclaim_at: None,
            replaces: Vec::new(),
            conditions: BTreeMap::new(),
            age_at_start: 0,
            quiet_at_start: 0,
        }
    }

    pub(super) fn exists(&self) -> bool {
        !self.deleted
    }

    /// The instance has joined the cluster: a Node object exists (and may be deleting).
    pub(super) fn registered(&self) -> bool {
        self.exists() && !matches!(self.state, NodeState::Launching | NodeState::Launched)
    }

    /// A node the scheduler is given (`StateNodes.Active()`): it exists, is not being deleted
    /// and no disruption command holds it.
    pub(super) fn active(&self) -> bool {
        self.exists() && self.state != NodeState::Deleting && self.disruption.is_none()
    }

    /// The name of its NodeClaim: a snapshot's NodeClaim has a name of its own
    /// (`default-x7k2p` for node `ip-10-0-2-20.ec2.internal`); the simulation's NodeClaims
    /// name their nodes.
    pub fn claim_name(&self) -> String {
        self.nodeclaim.clone().unwrap_or_else(|| self.name.clone())
    }

    /// How old the node is at `now`, counting the age a snapshot's node had at time zero.
    pub fn age(&self, now: Millis) -> Millis {
        now.saturating_sub(self.created_at) + self.age_at_start
    }

    /// Oldest first: a snapshot's nodes by their age at time zero, then the simulation's
    /// by creation time.
    pub fn created_order(&self, other: &Node) -> core::cmp::Ordering {
        other
            .age_at_start
            .cmp(&self.age_at_start)
            .then(self.created_at.cmp(&other.created_at))
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct WorkloadState {
    /// Next ordinal for pod names.
    pub(super) next_ordinal: u32,
    pub(super) succeeded: u32,
    pub(super) deleted: bool,
    /// Pod-template changes applied so far (a Deployment's new ReplicaSet each time).
    pub(super) revision: u32,
}

#[derive(Clone)]
pub(super) struct Cluster {
    pub(super) node_pools: Vec<NodePool>,
    /// Deleted by a Timeline step (indices stay stable: nodes refer to pools by index).
    pub(super) pool_deleted: Vec<bool>,
    pub(super) node_classes: BTreeMap<String, NodeClass>,
    /// EC2NodeClasses deleted while NodeClaims still use them: they go when those do.
    pub(super) node_classes_deleting: BTreeSet<String>,
    pub(super) workloads: Vec<Workload>,
    pub(super) workload_state: Vec<WorkloadState>,
    /// One shared spec per workload, so pods of a workload share topology groups.
    pub(super) specs: Vec<Rc<PodSpec>>,
    pub(super) namespaces: BTreeMap<String, StringMap>,
    pub(super) pods: Vec<Pod>,
    /// Every pod that may still be pending, in index order: the pods created without a node
    /// and not yet seen bound or gone ([`Cluster::add_pod`] adds, [`Cluster::forget_settled`]
    /// drops). A pod stops being pending for good (bound, finished or deleted, never
    /// back), so the pending pods are found by looking at these instead of at every pod
    /// of a big cluster each time.
    unbound: Vec<usize>,
    /// Per node (indexed like `nodes`, grown as pods are placed), the pods ever placed there
    /// (created on it or bound to it), in index order, deleted ones included (readers skip
    /// them). A pod's node never changes once set, so a node's pods are found here instead
    /// of by looking at every pod of a big cluster.
    placed_on: Vec<Vec<usize>>,
    /// The label classes of `pods` ([`Pod::label_class`]).
    pub(super) label_classes: pod::LabelClasses,
    pub(super) nodes: Vec<Node>,
    pub(super) pdbs: Vec<PodDisruptionBudget>,
    /// StorageClasses, claims and volumes (`sim::volumes`).
    pub(super) volumes: super::volumes::VolumeStore,
    /// The PriorityClasses the API server holds now (the Priority admission plugin's).
    pub(super) priority_classes: crate::priority::PriorityClasses,
    /// Bumped on every change a controller could react to.
    pub(super) version: u64,
}

impl Cluster {
    /// The scenario's objects, before any node or pod exists.
    pub(super) fn new(scenario: &Scenario) -> Cluster {
        let mut cluster = Cluster {
            node_pools: scenario.node_pools.clone(),
            pool_deleted: alloc::vec![false; scenario.node_pools.len()],
            node_classes: scenario
                .node_classes
                .iter()
                .map(|c| (c.key().into_owned(), c.clone()))
                .collect(),
            node_classes_deleting: BTreeSet::new(),
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
            pods: Vec::new(),
            unbound: Vec::new(),
            placed_on: Vec::new(),
            label_classes: pod::LabelClasses::default(),
            nodes: Vec::new(),
            pdbs: scenario.pdbs.clone(),
            volumes: super::volumes::VolumeStore::new(&scenario.storage),
            priority_classes: crate::priority::PriorityClasses::new(&scenario.priority_classes),
            version: 0,
        };
        cluster.namespaces.entry("default".into()).or_default();
        for w in &cluster.workloads {
            cluster.namespaces.entry(w.namespace.clone()).or_default();
        }
        cluster
    }

    /// Adds a pod; returns its index.
    pub(super) fn add_pod(&mut self, pod: Pod) -> usize {
        let p = self.pods.len();
        if pod.is_pending() {
            self.unbound.push(p);
        }
        let node = pod.node;
        self.pods.push(pod);
        if let Some(n) = node {
            self.note_placed(p, n);
        }
        p
    }

    /// Gives pod `p` its node `n` (kube-scheduler's bind).
    pub(super) fn place(&mut self, p: usize, n: usize) {
        self.pods[p].node = Some(n);
        self.note_placed(p, n);
    }

    fn note_placed(&mut self, p: usize, n: usize) {
        if self.placed_on.len() <= n {
            self.placed_on.resize(n + 1, Vec::new());
        }
        let on_node = &mut self.placed_on[n];
        // Pods are mostly placed in index order: then this is a push.
        let at = on_node.partition_point(|&q| q < p);
        on_node.insert(at, p);
    }

    /// The pods placed on node `n` and not deleted (a superset of its active pods), in
    /// index order.
    fn placed(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.placed_on
            .get(n)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .copied()
            .filter(|&p| !self.pods[p].deleted)
    }

    /// The indices, in order, of the pending pods ([`Pod::is_pending`]), read from the pods
    /// that may still be pending instead of from every pod.
    pub(super) fn pending_pods(&self) -> impl Iterator<Item = usize> + '_ {
        debug_assert!(
            (0..self.pods.len())
                .filter(|&p| self.pods[p].is_pending())
                .all(|p| self.unbound.binary_search(&p).is_ok()),
            "a pending pod is missing from the unbound pods"
        );
        self.unbound
            .iter()
            .copied()
            .filter(|&p| self.pods[p].is_pending())
    }

    /// Drops the pods that are no longer pending from the list [`Cluster::pending_pods`]
    /// reads.
    pub(super) fn forget_settled(&mut self) {
        let pods = &self.pods;
        self.unbound.retain(|&p| pods[p].is_pending());
    }

    pub(super) fn is_managed(&self, n: usize) -> bool {
        let node = &self.nodes[n];
        node.exists()
            && node.nodeclaim.is_some()
            && node.nodepool.is_some_and(|p| p < self.node_pools.len())
    }

    /// A pending pod was nominated for the node's NodeClaim: Karpenter leaves it alone.
    pub(super) fn nominated_nodes(&self) -> Vec<bool> {
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        for (n, node) in self.nodes.iter().enumerate() {
            if let Some(claim) = &node.nodeclaim {
                names.insert(claim.as_str(), n);
            }
        }
        let mut out = alloc::vec![false; self.nodes.len()];
        for p in self.pending_pods().map(|p| &self.pods[p]) {
            if let Some(&n) = p.nominated.as_deref().and_then(|c| names.get(c)) {
                out[n] = true;
            }
        }
        out
    }

    /// Nodes of `pool` that count for its budgets (managed and initialized) and those of them
    /// that use budget up (`BuildDisruptionBudgetMapping`): deleting, held by a command, or
    /// not `Ready` (except for the repair budget, whose nodes these are: v1.15).
    pub(super) fn budget_counts(&self, pool: usize, not_ready_counts: bool) -> (u32, u32) {
        let (mut nodes, mut disrupting) = (0, 0);
        for n in 0..self.nodes.len() {
            let node = &self.nodes[n];
            if self.is_managed(n) && node.nodepool == Some(pool) && node.initialized_at.is_some() {
                nodes += 1;
                if node.state == NodeState::Deleting
                    || node.disruption.is_some()
                    || (not_ready_counts && node.conditions.contains_key("Ready"))
                {
                    disrupting += 1;
                }
            }
        }
        (nodes, disrupting)
    }

    /// When the node becomes `Consolidatable` (see [`disruption::consolidatable_at`]):
    /// `consolidateAfter` after its last pod event, if its NodePool consolidates at all.
    pub(super) fn consolidatable_at(&self, n: usize) -> Option<Millis> {
        let node = &self.nodes[n];
        let np = self.node_pools.get(node.nodepool?)?;
        disruption::consolidatable_at(
            node.initialized_at,
            node.last_pod_event,
            node.quiet_at_start,
            np.consolidate_after,
        )
    }

    /// The node carries `karpenter.sh/do-not-disrupt: "true"` (set on it, or from its
    /// NodePool's template): the disruption controller leaves it alone.
    pub(super) fn node_do_not_disrupt(&self, n: usize) -> bool {
        self.nodes[n]
            .annotations
            .get(wk::DO_NOT_DISRUPT)
            .is_some_and(|v| v == "true")
    }

    /// What the pod's `karpenter.sh/do-not-disrupt` annotation means now.
    pub(super) fn pod_do_not_disrupt(&self, p: usize, now: Millis) -> DoNotDisrupt {
        let pod = &self.pods[p];
        disruption::do_not_disrupt(
            pod.annotations.get(wk::DO_NOT_DISRUPT).map(String::as_str),
            pod.started_at,
            now,
        )
    }

    /// The DaemonSet controller's `NodeShouldRunDaemonPod`: the pod it would create (with the
    /// tolerations the controller adds) tolerates the node's current NoSchedule and
    /// NoExecute taints, startup taints included, and its node affinity matches the node.
    pub(super) fn daemon_fits(&self, w: usize, labels: &StringMap, taints: &[Taint]) -> bool {
        let spec = &self.workloads[w].template.spec;
        let mut tolerations = spec.tolerations.clone();
        tolerations.extend(crate::taints::daemon_pod_tolerations(spec.host_network));
        crate::taints::scheduler_tolerates(taints, &tolerations).is_ok()
            && pod::node_matches_pod_affinity(spec, labels)
    }

    /// Active pods per node (indexed like `nodes`), in one sweep over the pods.
    pub(super) fn active_pods_by_node(&self) -> Vec<Vec<usize>> {
        let by_node: Vec<Vec<usize>> = (0..self.nodes.len())
            .map(|n| self.active_pods_on(n).collect())
            .collect();
        debug_assert!(
            {
                let mut swept = alloc::vec![Vec::new(); self.nodes.len()];
                for (p, pod) in self.pods.iter().enumerate() {
                    if let Some(n) = pod.node.filter(|_| pod.is_active()) {
                        swept[n].push(p);
                    }
                }
                swept == by_node
            },
            "the pods placed on nodes differ from a sweep over the pods"
        );
        by_node
    }

    /// The active pods on node `n`, in index order.
    pub(super) fn active_pods_on(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.placed(n).filter(|&p| self.pods[p].is_active())
    }

    pub(super) fn requests_of(&self, pods: &[usize]) -> Resources {
        pods.iter()
            .fold(Resources::ZERO, |sum, &p| sum + self.pods[p].requests)
    }

    pub(super) fn pods_on(&self, n: usize) -> Vec<usize> {
        let on_node: Vec<usize> = self.placed(n).collect();
        debug_assert_eq!(
            on_node,
            (0..self.pods.len())
                .filter(|&p| self.pods[p].node == Some(n) && !self.pods[p].deleted)
                .collect::<Vec<usize>>(),
            "the pods placed on a node differ from a sweep over the pods"
        );
        on_node
    }

    /// Live NodePools in Karpenter's order: weight descending, then name descending.
    pub(super) fn ordered_pools(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.node_pools.len())
            .filter(|&p| !self.pool_deleted[p])
            .collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&self.node_pools[a], &self.node_pools[b]);
            pb.weight.cmp(&pa.weight).then(pb.name.cmp(&pa.name))
        });
        order
    }

    /// What a NodePool's nodes hold against its limits as the scheduler counts them: the
    /// capacity of each node it is given (`StateNodes.Active()`: not being deleted, not taken
    /// by a disruption command) and how many there are. `updateRemainingResources` in
    /// `scheduling/scheduler.go`, v1.9.0 to v1.14.1.
    pub(super) fn active_pool_usage(&self, pool: usize) -> (Resources, i64) {
        let mut used = Resources::ZERO;
        let mut count = 0;
        for n in &self.nodes {
            if n.active() && n.nodepool == Some(pool) {
                used += n.capacity;
                count += 1;
            }
        }
        (used, count)
    }

    pub(super) fn pool_usage(&self, pool: usize) -> (Resources, i64) {
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

    /// Whether a pod tolerates `karpenter.sh/disrupted:NoSchedule` (a blanket toleration, as
    /// many DaemonSets carry): Karpenter neither drains it nor weighs its budgets.
    pub(super) fn tolerates_disruption(&self, p: usize) -> bool {
        let tolerations = &self.pods[p].spec.tolerations;
        // Most pods tolerate nothing: no taint to build for them.
        if tolerations.is_empty() {
            return false;
        }
        let taint = [Taint::new(wk::DISRUPTED_TAINT, "", TaintEffect::NoSchedule)];
        crate::taints::scheduler_tolerates(&taint, tolerations).is_ok()
    }

    /// The disruptions each PodDisruptionBudget allows now.
    pub(super) fn pdb_allowances(&self) -> Vec<u32> {
        (0..self.pdbs.len())
            .map(|i| {
                let pdb = &self.pdbs[i];
                let mut healthy = 0;
                let mut workloads: Vec<usize> = Vec::new();
                let mut bare = 0;
                for p in 0..self.pods.len() {
                    if !self.pods[p].is_active() || !self.pdb_selects(i, p) {
                        continue;
                    }
                    // A pod on a draining node is still up until it is evicted.
                    if self.pods[p].phase == Phase::Running {
                        healthy += 1;
                    }
                    match self.workloads[self.pods[p].workload].kind {
                        WorkloadKind::Pod => bare += 1,
                        _ => workloads.push(self.pods[p].workload),
                    }
                }
                workloads.sort_unstable();
                workloads.dedup();
                let expected = bare
                    + workloads
                        .iter()
                        .map(|&w| self.workloads[w].replicas)
                        .sum::<u32>();
                disruption::pdb_disruptions_allowed(pdb, healthy, expected)
            })
            .collect()
    }

    pub(super) fn pdb_selects(&self, i: usize, p: usize) -> bool {
        let (pdb, pod) = (&self.pdbs[i], &self.pods[p]);
        pod.namespace == pdb.namespace && pdb.selector.matches(&pod.labels)
    }

    pub(super) fn find_workload(&self, kind: &str, name: &str, namespace: &str) -> Option<usize> {
        self.workloads
            .iter()
            .position(|w| w.kind.as_str() == kind && w.name == name && w.namespace == namespace)
    }

    pub(super) fn live_node(&self, kind: &str, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| {
            n.exists()
                && if kind == "NodeClaim" {
                    n.nodeclaim.as_deref() == Some(name)
                } else {
                    n.name == name
                }
        })
    }
}

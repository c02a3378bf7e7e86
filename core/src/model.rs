//! The scenario as typed values: what the manifest reader produces and the engine consumes.
//!
//! These types mirror the Kubernetes and Karpenter API objects, but with every quantity
//! already parsed into integers and every default already applied by the reader (the API
//! server's job). They carry no YAML positions: diagnostics are the reader's business.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::labels::LabelSelector;
use crate::requirements::Operator;
use crate::resources::{ResourceName, Resources};
use crate::taints::{Taint, Toleration};

/// Milliseconds of simulated time.
pub type Millis = u64;

/// Sorted string map, used for labels and annotations.
pub type StringMap = BTreeMap<String, String>;

/// Everything a simulation starts from.
#[derive(Clone, Debug, Default)]
pub struct Scenario {
    pub cluster: Cluster,
    pub node_pools: Vec<NodePool>,
    pub node_classes: Vec<NodeClass>,
    /// Pods and the controllers that create them, in document order.
    pub workloads: Vec<Workload>,
    pub pdbs: Vec<PodDisruptionBudget>,
    pub namespaces: Vec<Namespace>,
    /// Custom instance types; when non-empty they replace the built-in catalog.
    pub instance_types: Vec<crate::catalog::InstanceTypeSpec>,
    pub timeline: Vec<TimelineStep>,
    /// NodeOverlays (`karpenter.sh/v1alpha1`).
    pub node_overlays: Vec<crate::overlay::NodeOverlay>,
    /// EC2 capacity reservations (`CapacityReservation` documents).
    pub capacity_reservations: Vec<crate::reservation::CapacityReservation>,
    /// StorageClasses, PersistentVolumeClaims and PersistentVolumes.
    pub storage: crate::volumes::Storage,
    /// `scheduling.k8s.io/v1` PriorityClasses (the system ones are implied).
    pub priority_classes: Vec<crate::priority::PriorityClass>,
    /// CapacityBuffers (`autoscaling.x-k8s.io/v1beta1`) and the PodTemplates they may name.
    pub capacity_buffers: Vec<crate::capacity_buffer::CapacityBuffer>,
    pub pod_templates: Vec<crate::capacity_buffer::NamedPodTemplate>,
    /// Nodes that exist when the simulation starts: a cluster snapshot's Nodes, each with
    /// its NodeClaim when it is Karpenter's.
    pub nodes: Vec<ExistingNode>,
    /// When the snapshot was taken (milliseconds since the Unix epoch): its time zero. Only
    /// what prints a snapshot back (`kpg import`) reads it; the engine counts ages.
    pub snapshot_time: Option<i64>,
    /// Every accepted object as written (documents, `List` items, Timeline `apply`
    /// objects), for what shows objects as the API server serves them. Shared: a simulation
    /// keeps it as it is, and cloning a scenario (the page rebuilds from one per edit) does
    /// not copy the trees.
    pub written: alloc::sync::Arc<[crate::manifest::Written]>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    pub name: String,
    pub region: String,
    /// Zones with subnets; empty means all of the region's zones.
    pub zones: Vec<String>,
    pub node_groups: Vec<NodeGroup>,
    pub seed: u64,
    /// Which Karpenter the scenario assumes (`spec.karpenter`).
    pub karpenter: crate::karpenter::Karpenter,
}

impl Default for Cluster {
    fn default() -> Self {
        Cluster {
            name: String::from("playground"),
            region: String::from("us-east-1"),
            zones: Vec::new(),
            node_groups: Vec::new(),
            seed: 1,
            karpenter: Default::default(),
        }
    }
}

/// Fixed nodes Karpenter does not manage (an EKS managed node group).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeGroup {
    pub name: String,
    pub instance_type: String,
    pub count: u32,
    /// Zones to spread over round-robin; empty means the cluster's zones.
    pub zones: Vec<String>,
    pub capacity_type: String,
    pub labels: StringMap,
    pub taints: Vec<Taint>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Namespace {
    pub name: String,
    pub labels: StringMap,
}

/// `karpenter.sh/v1` NodePool (v1beta1 documents are converted to their v1 meaning).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodePool {
    pub name: String,
    pub template_labels: StringMap,
    pub template_annotations: StringMap,
    pub node_class_ref: NodeClassRef,
    pub requirements: Vec<NodeSelectorRequirement>,
    pub taints: Vec<Taint>,
    pub startup_taints: Vec<Taint>,
    /// Which of the template's maps and lists were written empty rather than left out.
    pub written_empty: WrittenEmpty,
    /// `None` is `Never`.
    pub expire_after: Option<Millis>,
    pub termination_grace_period: Option<Millis>,
    pub consolidation_policy: ConsolidationPolicy,
    /// `None` is `Never`.
    pub consolidate_after: Option<Millis>,
    pub budgets: Vec<Budget>,
    /// Resource limits; absent resources are unlimited.
    pub limits: Limits,
    pub weight: i32,
    /// `spec.replicas` (v1.8+, gate `StaticCapacity`): a static NodePool keeps this many
    /// nodes whatever the pods, and is never a template for pending pods.
    pub replicas: Option<u32>,
    /// Why Karpenter's runtime validation fails the NodePool (`ValidationSucceeded=False`):
    /// the API server accepted it, but it is never Ready and the scheduler skips it.
    pub invalid: Option<String>,
}

/// The NodePool template's maps and lists that were written but empty (`labels: {}`,
/// `taints: []`). The API server keeps them as written, and Karpenter's drift hash tells
/// them from absent ones: an empty, non-nil Go map or slice is not a zero value
/// ([`crate::disruption::pool_hash`]). Nothing else reads these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WrittenEmpty {
    pub labels: bool,
    pub annotations: bool,
    pub taints: bool,
    pub startup_taints: bool,
}

impl NodePool {
    /// A NodePool with the v1 CRD's defaults (expireAfter 720h, WhenEmptyOrUnderutilized,
    /// budgets `nodes: 10%`, weight 0), no requirements and consolidation off
    /// (`consolidateAfter: Never`, which the CRD requires to be set explicitly).
    pub fn new(name: &str, node_class: &str) -> NodePool {
        NodePool {
            name: name.into(),
            template_labels: StringMap::new(),
            template_annotations: StringMap::new(),
            node_class_ref: NodeClassRef {
                group: "karpenter.k8s.aws".into(),
                kind: "EC2NodeClass".into(),
                name: node_class.into(),
            },
            requirements: Vec::new(),
            taints: Vec::new(),
            startup_taints: Vec::new(),
            written_empty: WrittenEmpty::default(),
            expire_after: Some(720 * 3_600_000),
            termination_grace_period: None,
            consolidation_policy: ConsolidationPolicy::WhenEmptyOrUnderutilized,
            consolidate_after: None,
            budgets: alloc::vec![Budget {
                nodes: BudgetNodes::Percent(10),
                schedule: None,
                duration: None,
                reasons: Vec::new()
            }],
            limits: Limits::default(),
            weight: 0,
            replicas: None,
            invalid: None,
        }
    }

    /// A static NodePool (`spec.replicas`).
    pub fn is_static(&self) -> bool {
        self.replicas.is_some()
    }

    /// Adds a requirement (builder style).
    pub fn require(mut self, key: &str, operator: Operator, values: &[&str]) -> NodePool {
        self.requirements.push(NodeSelectorRequirement {
            key: key.into(),
            operator,
            values: values.iter().map(|v| String::from(*v)).collect(),
            min_values: None,
        });
        self
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Per-resource upper bounds, `None` where no limit is set.
    pub resources: [Option<i64>; crate::resources::RESOURCE_COUNT],
    /// `limits.nodes`.
    pub nodes: Option<i64>,
}

impl Limits {
    pub fn is_unlimited(&self) -> bool {
        self.nodes.is_none() && self.resources.iter().all(Option::is_none)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeClassRef {
    pub group: String,
    pub kind: String,
    pub name: String,
}

impl NodeClassRef {
    /// Whether it points at an EKS Auto Mode `NodeClass`.
    pub fn is_auto_mode(&self) -> bool {
        self.group == crate::automode::GROUP && self.kind == crate::automode::KIND
    }

    /// The key of the class it points at (see [`NodeClass::key`]).
    pub fn key(&self) -> alloc::borrow::Cow<'_, str> {
        if self.is_auto_mode() {
            alloc::borrow::Cow::Owned(crate::automode::class_key(&self.name))
        } else {
            alloc::borrow::Cow::Borrowed(&self.name)
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsolidationPolicy {
    WhenEmpty,
    WhenEmptyOrUnderutilized,
    /// v1.14+: consolidate only moves whose savings are worth their disruption
    /// (`balanced.go`).
    Balanced,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    pub nodes: BudgetNodes,
    pub schedule: Option<String>,
    pub duration: Option<Millis>,
    /// Empty means every reason.
    pub reasons: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetNodes {
    Count(u32),
    Percent(u32),
}

/// `karpenter.k8s.aws/v1` EC2NodeClass, reduced to what changes node shape or behaviour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeClass {
    pub name: String,
    pub ami_family: AmiFamily,
    /// The `amiSelectorTerms` alias, e.g. `al2023@latest`, when one is used.
    pub ami_alias: Option<String>,
    pub kubelet: KubeletConfig,
    /// Size of the volume that backs ephemeral storage, if the node class sets one.
    pub root_volume_bytes: Option<i64>,
    /// `instanceStorePolicy: RAID0`: a type with instance store volumes has them as its
    /// ephemeral storage.
    pub instance_store_raid0: bool,
    /// Subnet zones, when `subnetSelectorTerms` pin zones; empty means the cluster's zones.
    pub subnet_zones: Vec<String>,
    /// `capacityReservationSelectorTerms` (v1.3+).
    pub capacity_reservation_terms: Vec<crate::reservation::ReservationTerm>,
    /// An `eks.amazonaws.com/v1` `NodeClass` (EKS Auto Mode) rather than an EC2NodeClass.
    pub auto_mode: Option<crate::automode::AutoNodeClass>,
}

impl NodeClass {
    /// An EC2NodeClass on `al2023@latest` with default kubelet settings and root volume: the
    /// shape the instance-type documentation's allocatable figures assume.
    pub fn al2023(name: &str) -> NodeClass {
        NodeClass {
            name: name.into(),
            ami_family: AmiFamily::Al2023,
            ami_alias: Some("al2023@latest".into()),
            kubelet: KubeletConfig::default(),
            root_volume_bytes: None,
            instance_store_raid0: false,
            subnet_zones: Vec::new(),
            capacity_reservation_terms: Vec::new(),
            auto_mode: None,
        }
    }

    /// The key the cluster and the cloud provider keep the class under
    /// ([`crate::automode::class_key`] for an Auto Mode NodeClass, else its name).
    pub fn key(&self) -> alloc::borrow::Cow<'_, str> {
        if self.auto_mode.is_some() {
            alloc::borrow::Cow::Owned(crate::automode::class_key(&self.name))
        } else {
            alloc::borrow::Cow::Borrowed(&self.name)
        }
    }

    /// The kind as the API server has it: `NodeClass` (Auto Mode) or `EC2NodeClass`.
    pub fn kind(&self) -> &'static str {
        if self.auto_mode.is_some() {
            crate::automode::KIND
        } else {
            "EC2NodeClass"
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmiFamily {
    Al2,
    Al2023,
    Bottlerocket,
    Windows2019,
    Windows2022,
    Windows2025,
    Custom,
}

impl AmiFamily {
    pub fn is_windows(self) -> bool {
        matches!(
            self,
            AmiFamily::Windows2019 | AmiFamily::Windows2022 | AmiFamily::Windows2025
        )
    }
}

/// The EC2NodeClass `kubelet` block (only the fields that change allocatable).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KubeletConfig {
    pub max_pods: Option<i64>,
    pub pods_per_core: Option<i64>,
    pub kube_reserved: BTreeMap<String, i64>,
    pub system_reserved: BTreeMap<String, i64>,
    /// `evictionHard` signals, as written (`100Mi`, `10%`).
    pub eviction_hard: BTreeMap<String, String>,
}

/// One entry of a node selector term or a NodePool requirement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSelectorRequirement {
    pub key: String,
    pub operator: Operator,
    pub values: Vec<String>,
    pub min_values: Option<u32>,
}

/// A controller or a bare pod, as written in the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    pub kind: WorkloadKind,
    pub name: String,
    pub namespace: String,
    pub labels: StringMap,
    /// Deployments/ReplicaSets/StatefulSets: replicas. Jobs: parallelism.
    pub replicas: u32,
    /// Jobs: completions (`None` = work queue: parallelism pods).
    pub completions: Option<u32>,
    /// DaemonSets and Deployments: the pod template's selector, used for PDB-like matching only.
    pub selector: Option<LabelSelector>,
    pub template: PodTemplate,
    /// Index in the scenario's document stream, for stable ordering and diagnostics.
    pub document: usize,
    /// Its pods that exist when the simulation starts (a snapshot's), bound or pending.
    /// They count towards `replicas`; the controller creates only the rest.
    pub existing: Vec<ExistingPod>,
}

/// A pod a snapshot found: its name, and the node it is bound to (`spec.nodeName`), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExistingPod {
    pub name: String,
    pub node: Option<String>,
    /// What the disruption controller reads on the pod itself, which its template may not
    /// say (`karpenter.sh/do-not-disrupt`, `controller.kubernetes.io/pod-deletion-cost`):
    /// these win over the template's.
    pub annotations: StringMap,
}

/// A node that exists at time zero (a snapshot's `Node`). Times are relative to the instant
/// the snapshot was taken, which is the simulation's time zero: the reader turns timestamps
/// into ages, so the engine never reads a calendar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExistingNode {
    pub name: String,
    pub labels: StringMap,
    pub annotations: StringMap,
    pub taints: Vec<Taint>,
    /// `spec.unschedulable` (cordoned).
    pub unschedulable: bool,
    /// `status.capacity` and `status.allocatable`, as the kubelet reported them.
    pub capacity: Resources,
    pub allocatable: Resources,
    /// How long before time zero the Node was created.
    pub age: Millis,
    /// Its `Ready` condition is `True`.
    pub ready: bool,
    /// Karpenter's NodeClaim for it: from the snapshot, or made from the node's
    /// `karpenter.sh/nodepool` label when the snapshot has no NodeClaims.
    pub claim: Option<ExistingClaim>,
    /// Index in the scenario's document stream.
    pub document: usize,
}

/// The NodeClaim of an [`ExistingNode`]: what Karpenter needs to manage it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExistingClaim {
    pub name: String,
    pub nodepool: String,
    /// Karpenter's annotations: the drift hashes (`karpenter.sh/nodepool-hash`,
    /// `karpenter.sh/nodepool-hash-version`, ...).
    pub annotations: StringMap,
    /// How long before time zero the NodeClaim was created (`expireAfter` counts from here).
    pub age: Millis,
    /// `spec.expireAfter` as the NodeClaim carries it: `None` when the snapshot had no
    /// NodeClaim (the NodePool's then), `Some(None)` for `Never`.
    pub expire_after: Option<Option<Millis>>,
    pub termination_grace_period: Option<Millis>,
    /// How long before time zero its last pod event was (`status.lastPodEventTime`, or its
    /// initialization when it has had none): `consolidateAfter` counts from there.
    pub quiet_for: Millis,
    /// `status.imageID`.
    pub image_id: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum WorkloadKind {
    Pod,
    Deployment,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Job,
}

impl WorkloadKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WorkloadKind::Pod => "Pod",
            WorkloadKind::Deployment => "Deployment",
            WorkloadKind::ReplicaSet => "ReplicaSet",
            WorkloadKind::StatefulSet => "StatefulSet",
            WorkloadKind::DaemonSet => "DaemonSet",
            WorkloadKind::Job => "Job",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodTemplate {
    pub labels: StringMap,
    pub annotations: StringMap,
    pub spec: PodSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodSpec {
    pub containers: Vec<Container>,
    pub init_containers: Vec<Container>,
    /// Pod-level `overhead` (RuntimeClass), added to the effective request.
    pub overhead: Resources,
    /// Pod-level `spec.resources.requests` (KEP-2837, beta and on by default from Kubernetes
    /// 1.34), after the API server's defaulting, for the resources it supports at pod level
    /// (cpu and memory; hugepages are not modelled). Each one replaces the containers'
    /// aggregate in the effective request.
    pub pod_requests: BTreeMap<ResourceName, i64>,
    pub node_selector: StringMap,
    pub node_affinity: NodeAffinity,
    pub pod_affinity: Vec<PodAffinityTerm>,
    pub pod_anti_affinity: Vec<PodAffinityTerm>,
    pub preferred_pod_affinity: Vec<WeightedPodAffinityTerm>,
    pub preferred_pod_anti_affinity: Vec<WeightedPodAffinityTerm>,
    pub tolerations: Vec<Toleration>,
    pub topology_spread: Vec<TopologySpreadConstraint>,
    /// The priority the Priority admission plugin gave the pod ([`crate::priority`]).
    pub priority: i32,
    pub priority_class_name: Option<String>,
    /// The pod or one of its containers references a DRA `ResourceClaim`
    /// (`pod.HasDRARequirements`): no simulated node publishes devices, so kube-scheduler
    /// cannot bind it, and Karpenter from v1.7 does not provision for it.
    pub dynamic_resources: bool,
    /// `spec.runtimeClassName`: admission has already merged the class's overhead and
    /// scheduling into this spec; the name is kept for what shows the pod.
    pub runtime_class_name: Option<String>,
    /// `spec.priority` as written: admission refuses a value its class does not give.
    pub written_priority: Option<i32>,
    /// The preemption policy admission gave the pod (from its class).
    pub preemption_policy: crate::priority::PreemptionPolicy,
    /// `spec.preemptionPolicy` as written.
    pub written_preemption_policy: Option<crate::priority::PreemptionPolicy>,
    pub termination_grace_seconds: Option<i64>,
    /// `spec.nodeName` set by the user: the pod bypasses scheduling.
    pub node_name: Option<String>,
    /// `spec.hostNetwork`: a DaemonSet's pods then also tolerate
    /// `node.kubernetes.io/network-unavailable`.
    pub host_network: bool,
    /// The volumes backed by a claim (`persistentVolumeClaim`, generic `ephemeral`), and a
    /// StatefulSet's `volumeClaimTemplates`, which its controller adds to every pod.
    pub volumes: Vec<crate::volumes::PodVolume>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Container {
    pub name: String,
    /// Requests after defaulting from limits.
    pub requests: Resources,
    pub limits: Resources,
    /// Host ports as (protocol, hostIP, port).
    pub host_ports: Vec<HostPort>,
    /// For init containers: `restartPolicy: Always` makes it a sidecar (KEP-753).
    pub restart_always: bool,
    /// `resources.claims`: the container uses one of the pod's DRA resource claims.
    pub uses_claims: bool,
    pub command: Vec<String>,
    pub args: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HostPort {
    pub protocol: String,
    pub host_ip: String,
    pub port: u16,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeAffinity {
    /// `requiredDuringScheduling...nodeSelectorTerms`: ORed terms of ANDed requirements.
    pub required: Vec<Vec<NodeSelectorRequirement>>,
    pub preferred: Vec<WeightedNodeSelectorTerm>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedNodeSelectorTerm {
    pub weight: i32,
    pub requirements: Vec<NodeSelectorRequirement>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodAffinityTerm {
    pub label_selector: Option<LabelSelector>,
    /// Empty with no namespace selector means the pod's own namespace.
    pub namespaces: Vec<String>,
    pub namespace_selector: Option<LabelSelector>,
    pub topology_key: String,
    pub match_label_keys: Vec<String>,
    pub mismatch_label_keys: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedPodAffinityTerm {
    pub weight: i32,
    pub term: PodAffinityTerm,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologySpreadConstraint {
    pub max_skew: i32,
    pub topology_key: String,
    pub when_unsatisfiable: WhenUnsatisfiable,
    pub label_selector: Option<LabelSelector>,
    pub min_domains: Option<i32>,
    pub match_label_keys: Vec<String>,
    /// `nodeAffinityPolicy`: true (default) honours the pod's node affinity when counting.
    pub node_affinity_honor: bool,
    /// `nodeTaintsPolicy`: false (default) ignores taints when counting.
    pub node_taints_honor: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenUnsatisfiable {
    DoNotSchedule,
    ScheduleAnyway,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodDisruptionBudget {
    pub name: String,
    pub namespace: String,
    pub selector: LabelSelector,
    pub min_available: Option<IntOrPercent>,
    pub max_unavailable: Option<IntOrPercent>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOrPercent {
    Int(i32),
    Percent(i32),
}

/// One change at a given simulated time.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineStep {
    pub at: Millis,
    pub action: TimelineAction,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TimelineAction {
    Scale {
        kind: WorkloadKind,
        name: String,
        namespace: String,
        replicas: u32,
    },
    /// `kubectl scale nodepool NAME --replicas=N`: a static NodePool's node count.
    ScaleNodePool {
        name: String,
        replicas: u32,
    },
    Delete {
        kind: String,
        name: String,
        namespace: String,
    },
    /// Create or replace an object (already converted by the reader).
    Apply(Box<AppliedObject>),
    Interrupt {
        nodepool: Option<String>,
        node: Option<String>,
    },
    ReleaseAmi {
        alias: String,
    },
    /// EC2 runs out of capacity for the matching offerings (`None` matches any) for
    /// `duration` (`None`: from then on). Launches into them fail with
    /// `InsufficientInstanceCapacity`.
    InsufficientCapacity {
        instance_type: Option<String>,
        zone: Option<String>,
        capacity_type: Option<crate::catalog::CapacityType>,
        duration: Option<Millis>,
    },
    /// A node condition changes (`nodeCondition`): on the named node, or the NodePool's
    /// oldest node whose condition is not that already. What node repair watches.
    NodeCondition {
        nodepool: Option<String>,
        node: Option<String>,
        condition: String,
        status: String,
    },
    /// `kubectl cordon` (`unschedulable: true`) or `uncordon` a node.
    Cordon {
        node: String,
        unschedulable: bool,
    },
    /// `kubectl annotate`: set and remove annotations on a Node, NodeClaim or Pod.
    Annotate {
        kind: String,
        name: String,
        namespace: String,
        set: StringMap,
        remove: Vec<String>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum AppliedObject {
    NodePool(NodePool),
    NodeClass(NodeClass),
    Workload(Workload),
    Pdb(PodDisruptionBudget),
    PriorityClass(crate::priority::PriorityClass),
    /// A CapacityBuffer (`autoscaling.x-k8s.io/v1beta1`), created or replaced.
    CapacityBuffer(crate::capacity_buffer::CapacityBuffer),
}

use alloc::boxed::Box;

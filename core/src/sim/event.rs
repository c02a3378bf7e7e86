//! The event stream: what happened, when, as typed values.
//!
//! An [`Event`] is a time and an [`EventKind`], one variant per thing that happens, carrying
//! what a consumer needs as values (names, resource vectors, micro-dollars, enums for the
//! reasons Karpenter chooses from a fixed set). Kubernetes' view of an event comes from three
//! methods, [`EventKind::reason`], [`EventKind::warning`] and [`EventKind::object`], and its
//! message, in Karpenter's (or the kubelet's, kube-scheduler's) words, from `Display`: this file
//! is the one place those words are written. Consumers match on variants; none reads a message
//! back.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::dollars;
use super::evidence::{BalancedScore, Blocker};
use crate::catalog::{CapacityType, MicroDollars};
use crate::disruption::{DriftReason, Reason};
use crate::duration;
use crate::model::{Millis, WorkloadKind};
use crate::resources::Resources;
use crate::wellknown as wk;

/// One entry of the event stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub time: Millis,
    pub kind: EventKind,
}

/// A pod, by namespace and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodRef {
    pub namespace: String,
    pub name: String,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    // ----- kube-scheduler, the kubelet and the workload controllers -----
    /// kube-scheduler bound a pod to a node.
    Scheduled { pod: PodRef, node: String },
    /// A Job's pod ran to completion.
    PodCompleted { pod: PodRef },
    /// A Job reached its completions.
    JobCompleted { namespace: String, name: String },
    /// A pod deleted by a Timeline step stopped.
    Killing { pod: PodRef },
    /// `kubectl cordon` (`unschedulable`) or `uncordon`.
    Cordoned { node: String, unschedulable: bool },
    /// The CSI driver provisioned a volume for a claim and the PV controller bound them
    /// (`zone`: where an EBS volume lives).
    VolumeProvisioned {
        namespace: String,
        claim: String,
        volume: String,
        zone: Option<String>,
    },
    /// A Timeline step scaled a workload.
    Scaled {
        kind: WorkloadKind,
        namespace: String,
        name: String,
        replicas: u32,
    },
    /// A Timeline step deleted a workload.
    WorkloadDeleted {
        kind: WorkloadKind,
        namespace: String,
        name: String,
    },
    /// A Timeline step deleted a PodDisruptionBudget.
    PdbDeleted { namespace: String, name: String },

    // ----- the provisioner -----
    /// Karpenter nominated a pod for a node or a NodeClaim it launches.
    Nominated { pod: PodRef, target: Nomination },
    /// Karpenter found no NodePool for a pod (`error`: why, in Karpenter's words).
    FailedScheduling { pod: PodRef, error: String },
    /// A NodePool's requirements leave no instance type (or too few for its minValues).
    NoCompatibleInstanceTypes { node_pool: String, min_values: bool },
    /// The playground's node cap kept a pass from launching its NodeClaims.
    TooManyNodes { claims: usize },
    /// A CapacityBuffer's `Provisioning` condition changed (v1.14+, the `CapacityBuffer`
    /// gate): Karpenter patches the condition; the playground shows each change.
    CapacityBufferProvisioning {
        namespace: String,
        name: String,
        condition: BufferCondition,
    },

    // ----- a NodeClaim's lifecycle -----
    /// The provisioner (or a disruption command) created a NodeClaim: its NodePool, the
    /// requests it was sized for and its instance-type options, cheapest first.
    Created {
        nodeclaim: String,
        node_pool: String,
        requests: Resources,
        instance_types: Vec<String>,
    },
    /// The instance runs: its type, zone, capacity type and price per hour.
    Launched {
        nodeclaim: String,
        instance_type: String,
        zone: String,
        capacity_type: CapacityType,
        price: MicroDollars,
    },
    /// The fleet request found no capacity in any offering the NodeClaim could use.
    LaunchFailed { nodeclaim: String },
    /// The instance's Node joined the cluster.
    Registered { nodeclaim: String, node: String },
    /// The Node is Ready and its startup taints are gone.
    Initialized { nodeclaim: String, node: String },
    /// `expireAfter` has passed since the NodeClaim was created.
    Expired { nodeclaim: String },
    /// EC2 warned that it reclaims a spot instance at `reclaim_at`.
    SpotInterrupted { node: String, reclaim_at: Millis },
    /// An interruptible capacity reservation's instance gets its 2-minute notice.
    ReservationInterrupted {
        node: String,
        reservation: String,
        reclaim_at: Millis,
    },
    /// The NodeClaim is being deleted: tainted and drained.
    Terminating {
        nodeclaim: String,
        cause: TerminationCause,
    },
    /// A pod left a draining node: evicted, or deleted once `terminationGracePeriod` ran out
    /// (`forced`).
    Evicted {
        pod: PodRef,
        node: String,
        forced: bool,
    },
    /// A PodDisruptionBudget refused the eviction of a draining node's pod.
    FailedDraining { pod: PodRef, node: String },
    /// kube-scheduler preempted `pod` (deleted it, with its grace period) to make room on
    /// `node` for the higher-priority pod `by`.
    Preempted {
        pod: PodRef,
        by: PodRef,
        node: String,
    },
    /// Every pod has left the node.
    Drained { nodeclaim: String, node: String },
    /// The Node and NodeClaim are gone (`launched`: an instance had been running).
    NodeClaimDeleted {
        nodeclaim: String,
        node: String,
        launched: bool,
    },

    // ----- the disruption controller -----
    /// The controller leaves a node alone (Karpenter's `DisruptionBlocked`).
    DisruptionBlocked { nodeclaim: String, blocker: Blocker },
    /// Consolidation leaves a node alone (Karpenter's `Unconsolidatable`).
    Unconsolidatable { nodeclaim: String, blocker: Blocker },
    /// A consolidation command failed its validation after 15 s.
    ConsolidationRejected { nodeclaim: String, why: Rejection },
    /// `consolidationPolicy: Balanced` approved a move (on the NodeClaim for single-node
    /// consolidation, on the NodePool for multi-node).
    ConsolidationApproved {
        object: ObjectName,
        score: BalancedScore,
    },
    /// A node's condition changed (a `nodeCondition` step).
    NodeConditionChanged {
        node: String,
        condition: String,
        status: String,
    },
    /// Kubernetes' taint manager deletes a pod from a node tainted `NoExecute` (not ready or
    /// unreachable) once the pod's toleration of it has run out.
    TaintManagerEviction { pod: PodRef, node: String },
    /// Node repair deletes an unhealthy node (the condition that decided).
    NodeRepair {
        nodeclaim: String,
        condition: String,
    },
    /// Node repair is held: too many of the NodePool's nodes are unhealthy.
    NodeRepairBlocked {
        nodeclaim: String,
        node_pool: String,
        unhealthy: usize,
        nodes: usize,
    },
    /// A NodeOverlay meets another of its weight and is applied nowhere (upstream sets its
    /// `ValidationSucceeded` condition False, reason `Conflict`).
    NodeOverlayConflict { overlay: String },
    /// A node's capacity type changed under it: its reservation ended, so it runs on as
    /// on-demand, at that price (the AWS provider relabels the NodeClaim and the Node).
    CapacityTypeChanged {
        nodeclaim: String,
        from: CapacityType,
        to: CapacityType,
        price: MicroDollars,
    },
    /// A capacity reservation's phase changed (`expiring`, `ended`).
    ReservationPhase {
        reservation: String,
        phase: &'static str,
    },
    /// A static NodePool's `spec.replicas` changed (`kubectl scale nodepool`).
    NodePoolScaled { node_pool: String, replicas: u32 },
    /// The controller executes a command (its log line).
    Disrupting(Disruption),
    /// A command's replacement could not launch; the command is dropped.
    ReplacementLaunchFailed { node_pool: String },
    /// A replacement NodeClaim launched by a command.
    DisruptionLaunching { nodeclaim: String, reason: Reason },
    /// A command's candidate waits for its replacements to initialize.
    DisruptionWaitingReadiness { nodeclaim: String },
    /// A command's candidate is deleted.
    DisruptionTerminating {
        nodeclaim: String,
        reason: Reason,
        decision: Decision,
    },
    /// A command's replacement disappeared before it initialized.
    DisruptionFailed { nodeclaim: String },
    /// The NodeClaim no longer matches its NodePool or EC2NodeClass.
    Drifted {
        nodeclaim: String,
        reason: DriftReason,
    },
    /// The NodeClaim matches its NodePool and EC2NodeClass again.
    DriftResolved { nodeclaim: String },

    // ----- NodePools, EC2NodeClasses and AMIs -----
    /// A Timeline step deleted a NodePool.
    NodePoolDeleted { node_pool: String },
    /// An EC2NodeClass being deleted waits for the NodeClaims that use it.
    NodeClassWaiting {
        node_class: String,
        nodeclaims: Vec<String>,
    },
    /// An EC2NodeClass is gone.
    NodeClassDeleted { node_class: String },
    /// A new AMI of a family is the latest.
    AmiReleased { family: String, image: String },

    // ----- EC2 capacity -----
    /// A Timeline step declared a shortage of EC2 capacity, until a time or for good.
    ShortageStarted {
        offerings: Offerings,
        until: Option<Millis>,
    },
    /// A declared shortage is over.
    CapacityRestored { offerings: Offerings },

    // ----- the playground -----
    /// A Timeline step had nothing to act on.
    TimelineSkipped(Skip),
}

/// Where Karpenter nominated a pod to go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nomination {
    /// A NodeClaim this pass launches.
    NodeClaim(String),
    /// An existing node (and its NodeClaim, if Karpenter manages it).
    Node {
        node: String,
        nodeclaim: Option<String>,
    },
}

/// Why a NodeClaim is deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerminationCause {
    /// A disruption command.
    Disruption(Reason),
    /// A replacement of the same command failed to launch.
    ReplacementLaunchFailed,
    SpotInterruption,
    Expired,
    NodePoolDeleted,
    /// Deleted by hand (`kubectl delete node` or `nodeclaim`).
    Deleted,
    /// A static NodePool scaled down (`static.deprovisioning`).
    StaticScaleDown,
    /// Node repair (`node.health`).
    Unhealthy,
    /// Its capacity block is expiring (or has ended).
    CapacityBlockExpiring,
    /// Its interruptible capacity reservation was taken back.
    ReservationInterruption,
}

/// Why a consolidation command failed its validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    NoLongerCandidate,
    BudgetExhausted,
    SimulationDisagrees,
}

/// Whether a command replaces its candidates or only deletes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Delete,
    Replace,
}

/// A command the disruption controller executes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disruption {
    /// The candidates' NodePools, sorted.
    pub node_pools: Vec<String>,
    pub reason: Reason,
    pub candidates: Vec<DisruptedNode>,
    /// Pods that move (DaemonSet pods excepted).
    pub pods: usize,
    pub replacements: Vec<ReplacementNode>,
    /// Micro-dollars per hour saved (consolidation; drift shows none).
    pub savings: Option<MicroDollars>,
}

impl Disruption {
    pub fn decision(&self) -> Decision {
        if self.replacements.is_empty() {
            Decision::Delete
        } else {
            Decision::Replace
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisruptedNode {
    pub name: String,
    pub instance_type: String,
    pub capacity_type: CapacityType,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplacementNode {
    /// `None`: spot or on-demand.
    pub capacity_type: Option<CapacityType>,
    /// Its instance-type options, cheapest first.
    pub instance_types: Vec<String>,
}

/// A CapacityBuffer's `Provisioning` condition (`K@v1.14.1:pkg/controllers/provisioning/
/// buffers.go` `computeProvisioningCondition`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BufferCondition {
    /// Every virtual pod fits on existing capacity (True).
    FitsExistingCapacity { replicas: u32 },
    /// Some virtual pods needed a new NodeClaim (`new`) or fit nowhere (`failed`).
    RequiresNewCapacity {
        new: u32,
        failed: u32,
        replicas: u32,
    },
    /// `ReadyForProvisioning` is False: the template did not resolve (the reason and
    /// message the buffer controller gives it).
    NotReady {
        reason: &'static str,
        message: String,
    },
    /// The buffer asks for zero replicas.
    Empty,
}

impl BufferCondition {
    /// The condition's reason (`NotReady` shows the buffer controller's).
    pub fn reason(&self) -> &'static str {
        match self {
            BufferCondition::FitsExistingCapacity { .. } => "FitsExistingCapacity",
            BufferCondition::RequiresNewCapacity { .. } => "RequiresNewCapacity",
            BufferCondition::NotReady { reason, .. } => reason,
            BufferCondition::Empty => "BufferEmpty",
        }
    }
}

/// The condition's message, in Karpenter's words.
impl fmt::Display for BufferCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BufferCondition::FitsExistingCapacity { replicas } => {
                write!(f, "All {replicas} virtual pods fit on existing capacity")
            }
            BufferCondition::RequiresNewCapacity {
                new,
                failed,
                replicas,
            } => write!(
                f,
                "{new}/{replicas} virtual pods required new capacity, {failed} failed"
            ),
            BufferCondition::NotReady { message, .. } => {
                write!(f, "Buffer is not ReadyForProvisioning: {message}")
            }
            BufferCondition::Empty => f.write_str("Buffer has zero desired replicas"),
        }
    }
}

/// The EC2 offerings a shortage covers (`None` matches any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offerings {
    pub instance_type: Option<String>,
    pub zone: Option<String>,
    pub capacity_type: Option<CapacityType>,
}

/// What a Timeline step found nothing to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    NoWorkloadToScale {
        kind: WorkloadKind,
        namespace: String,
        name: String,
    },
    /// `kind` is `Node` or `NodeClaim`.
    NoNodeToDelete {
        kind: String,
        name: String,
    },
    /// A node group's node: not Karpenter's to delete.
    NodeGroupNode {
        node: String,
    },
    NoPodToDelete {
        pod: PodRef,
    },
    /// Its DaemonSet would recreate it on the same node.
    DaemonSetPod {
        pod: PodRef,
    },
    NoNodeToCordon {
        node: String,
    },
    /// A `nodeCondition` step names no registered node (or a NodePool without one).
    NoNodeForCondition {
        node: String,
    },
    NoObjectToAnnotate {
        kind: String,
        namespace: String,
        name: String,
    },
    NothingToInterrupt {
        target: InterruptTarget,
    },
    NotRunningSpot {
        node: String,
    },
}

/// What an `interrupt` step names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterruptTarget {
    Node(String),
    /// The oldest spot node of a NodePool.
    NodePool(String),
    Unnamed,
}

/// The object an event is about, as `kubectl describe` shows it: `Kind/name` or
/// `Kind/namespace/name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectRef<'a> {
    pub kind: &'a str,
    pub namespace: Option<&'a str>,
    pub name: Cow<'a, str>,
}

impl<'a> ObjectRef<'a> {
    fn named(kind: &'a str, name: &'a str) -> ObjectRef<'a> {
        ObjectRef {
            kind,
            namespace: None,
            name: Cow::Borrowed(name),
        }
    }

    fn namespaced(kind: &'a str, namespace: &'a str, name: &'a str) -> ObjectRef<'a> {
        ObjectRef {
            kind,
            namespace: Some(namespace),
            name: Cow::Borrowed(name),
        }
    }

    fn pod(pod: &'a PodRef) -> ObjectRef<'a> {
        ObjectRef::namespaced("Pod", &pod.namespace, &pod.name)
    }
}

impl fmt::Display for ObjectRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.namespace {
            Some(ns) => write!(f, "{}/{ns}/{}", self.kind, self.name),
            None => write!(f, "{}/{}", self.kind, self.name),
        }
    }
}

/// Equal to its text (`NodeClaim/default-abcde`), without writing it.
impl PartialEq<str> for ObjectRef<'_> {
    fn eq(&self, text: &str) -> bool {
        let Some(mut rest) = text
            .strip_prefix(self.kind)
            .and_then(|r| r.strip_prefix('/'))
        else {
            return false;
        };
        if let Some(ns) = self.namespace {
            match rest.strip_prefix(ns).and_then(|r| r.strip_prefix('/')) {
                Some(r) => rest = r,
                None => return false,
            }
        }
        rest == self.name
    }
}

impl PartialEq<&str> for ObjectRef<'_> {
    fn eq(&self, text: &&str) -> bool {
        *self == **text
    }
}

impl EventKind {
    /// The event's reason, as Kubernetes shows it.
    pub fn reason(&self) -> &'static str {
        use EventKind::*;
        match self {
            Scheduled { .. } => "Scheduled",
            PodCompleted { .. } | JobCompleted { .. } => "Completed",
            Killing { .. } => "Killing",
            Cordoned {
                unschedulable: true,
                ..
            } => "NodeNotSchedulable",
            Cordoned {
                unschedulable: false,
                ..
            } => "NodeSchedulable",
            Scaled { .. } => "ScalingReplicaSet",
            VolumeProvisioned { .. } => "ProvisioningSucceeded",
            WorkloadDeleted { .. }
            | PdbDeleted { .. }
            | NodeClaimDeleted { .. }
            | NodePoolDeleted { .. }
            | NodeClassDeleted { .. } => "Deleted",
            Nominated { .. } => "Nominated",
            FailedScheduling { .. } => "FailedScheduling",
            NoCompatibleInstanceTypes { .. } => "NoCompatibleInstanceTypes",
            TooManyNodes { .. } => "TooManyNodes",
            CapacityBufferProvisioning { condition, .. } => condition.reason(),
            Created { .. } => "Created",
            Launched { .. } => "Launched",
            LaunchFailed { .. } | ReplacementLaunchFailed { .. } => "InsufficientCapacityError",
            Registered { .. } => "Registered",
            Initialized { .. } => "Initialized",
            Expired { .. } => "Expired",
            SpotInterrupted { .. } => "SpotInterrupted",
            ReservationInterrupted { .. } => "CapacityReservationInstanceInterrupted",
            Terminating { .. } => "Terminating",
            Evicted { .. } => "Evicted",
            Preempted { .. } => "Preempted",
            FailedDraining { .. } => "FailedDraining",
            Drained { .. } => "Drained",
            DisruptionBlocked { .. } => "DisruptionBlocked",
            Unconsolidatable { .. } => "Unconsolidatable",
            ConsolidationRejected { .. } => "ConsolidationRejected",
            ConsolidationApproved { .. } => "ConsolidationApproved",
            NodePoolScaled { .. } => "ScalingReplicaSet",
            NodeConditionChanged { .. } => "NodeConditionChanged",
            NodeRepair { .. } => "NodeRepair",
            NodeOverlayConflict { .. } => "Conflict",
            ReservationPhase { .. } => "CapacityReservation",
            CapacityTypeChanged { .. } => "CapacityTypeChanged",
            TaintManagerEviction { .. } => "TaintManagerEviction",
            NodeRepairBlocked { .. } => "NodeRepairBlocked",
            Disrupting(_) => "Disrupting",
            DisruptionLaunching { .. } => "DisruptionLaunching",
            DisruptionWaitingReadiness { .. } => "DisruptionWaitingReadiness",
            DisruptionTerminating { .. } => "DisruptionTerminating",
            DisruptionFailed { .. } => "DisruptionFailed",
            Drifted { .. } => "Drifted",
            DriftResolved { .. } => "DriftResolved",
            NodeClassWaiting { .. } => "Waiting",
            AmiReleased { .. } => "AMIReleased",
            ShortageStarted { .. } => "InsufficientCapacity",
            CapacityRestored { .. } => "CapacityRestored",
            TimelineSkipped(_) => "TimelineSkipped",
        }
    }

    /// A `Warning` event (otherwise `Normal`).
    pub fn warning(&self) -> bool {
        use EventKind::*;
        matches!(
            self,
            FailedScheduling { .. }
                | NoCompatibleInstanceTypes { .. }
                | TooManyNodes { .. }
                | LaunchFailed { .. }
                | ReplacementLaunchFailed { .. }
                | SpotInterrupted { .. }
                | ReservationInterrupted { .. }
                | FailedDraining { .. }
                | DisruptionFailed { .. }
                | ShortageStarted { .. }
                | TimelineSkipped(_)
        )
    }

    /// The object the event is about.
    pub fn object(&self) -> ObjectRef<'_> {
        use EventKind::*;
        match self {
            Scheduled { pod, .. }
            | PodCompleted { pod }
            | Killing { pod }
            | Nominated { pod, .. }
            | FailedScheduling { pod, .. }
            | Evicted { pod, .. }
            | Preempted { pod, .. }
            | TaintManagerEviction { pod, .. }
            | FailedDraining { pod, .. } => ObjectRef::pod(pod),
            JobCompleted { namespace, name } => ObjectRef::namespaced("Job", namespace, name),
            VolumeProvisioned {
                namespace, claim, ..
            } => ObjectRef::namespaced("PersistentVolumeClaim", namespace, claim),
            Cordoned { node, .. }
            | SpotInterrupted { node, .. }
            | ReservationInterrupted { node, .. }
            | NodeConditionChanged { node, .. } => ObjectRef::named("Node", node),
            NodeOverlayConflict { overlay } => ObjectRef::named("NodeOverlay", overlay),
            CapacityTypeChanged { nodeclaim, .. } => ObjectRef::named("NodeClaim", nodeclaim),
            ReservationPhase { reservation, .. } => {
                ObjectRef::named("CapacityReservation", reservation)
            }
            NodeRepair { nodeclaim, .. } | NodeRepairBlocked { nodeclaim, .. } => {
                ObjectRef::named("NodeClaim", nodeclaim)
            }
            Scaled {
                kind,
                namespace,
                name,
                ..
            }
            | WorkloadDeleted {
                kind,
                namespace,
                name,
            } => ObjectRef::namespaced(kind.as_str(), namespace, name),
            PdbDeleted { namespace, name } => {
                ObjectRef::namespaced("PodDisruptionBudget", namespace, name)
            }
            NoCompatibleInstanceTypes { node_pool, .. }
            | NodePoolScaled { node_pool, .. }
            | ReplacementLaunchFailed { node_pool }
            | NodePoolDeleted { node_pool } => ObjectRef::named("NodePool", node_pool),
            TooManyNodes { .. } => ObjectRef::named("Cluster", "playground"),
            CapacityBufferProvisioning {
                namespace, name, ..
            } => ObjectRef::namespaced("CapacityBuffer", namespace, name),
            Created { nodeclaim, .. }
            | Launched { nodeclaim, .. }
            | LaunchFailed { nodeclaim }
            | Registered { nodeclaim, .. }
            | Initialized { nodeclaim, .. }
            | Expired { nodeclaim }
            | Terminating { nodeclaim, .. }
            | Drained { nodeclaim, .. }
            | NodeClaimDeleted { nodeclaim, .. }
            | DisruptionBlocked { nodeclaim, .. }
            | Unconsolidatable { nodeclaim, .. }
            | ConsolidationRejected { nodeclaim, .. }
            | DisruptionLaunching { nodeclaim, .. }
            | DisruptionWaitingReadiness { nodeclaim }
            | DisruptionTerminating { nodeclaim, .. }
            | DisruptionFailed { nodeclaim }
            | Drifted { nodeclaim, .. }
            | DriftResolved { nodeclaim } => ObjectRef::named("NodeClaim", nodeclaim),
            ConsolidationApproved {
                object: ObjectName::NodeClaim(n),
                ..
            } => ObjectRef::named("NodeClaim", n),
            ConsolidationApproved {
                object: ObjectName::NodePool(n),
                ..
            } => ObjectRef::named("NodePool", n),
            Disrupting(d) => ObjectRef {
                kind: "NodePool",
                namespace: None,
                name: match d.node_pools.as_slice() {
                    [one] => Cow::Borrowed(one.as_str()),
                    many => Cow::Owned(many.join(",")),
                },
            },
            NodeClassWaiting { node_class, .. } | NodeClassDeleted { node_class } => {
                // An Auto Mode NodeClass is keyed `eks.amazonaws.com/NodeClass/<name>`.
                match node_class.strip_prefix(&crate::automode::class_key("")) {
                    Some(name) => ObjectRef::named(crate::automode::KIND, name),
                    None => ObjectRef::named("EC2NodeClass", node_class),
                }
            }
            AmiReleased { family, .. } => ObjectRef::named("AMI", family),
            ShortageStarted { .. } | CapacityRestored { .. } => {
                ObjectRef::named("Timeline", "insufficientCapacity")
            }
            TimelineSkipped(skip) => skip.object(),
        }
    }
}

impl Skip {
    fn object(&self) -> ObjectRef<'_> {
        match self {
            Skip::NoWorkloadToScale {
                kind,
                namespace,
                name,
            } => ObjectRef::namespaced(kind.as_str(), namespace, name),
            Skip::NoNodeToDelete { kind, name } => ObjectRef::named(kind, name),
            Skip::NodeGroupNode { node }
            | Skip::NoNodeToCordon { node }
            | Skip::NoNodeForCondition { node } => ObjectRef::named("Node", node),
            Skip::NoPodToDelete { pod } | Skip::DaemonSetPod { pod } => ObjectRef::pod(pod),
            Skip::NoObjectToAnnotate {
                kind,
                namespace,
                name,
            } => {
                if kind == "Pod" {
                    ObjectRef::namespaced("Pod", namespace, name)
                } else {
                    ObjectRef::named(kind, name)
                }
            }
            Skip::NothingToInterrupt { .. } | Skip::NotRunningSpot { .. } => {
                ObjectRef::named("Timeline", "interrupt")
            }
        }
    }
}

/// The error Karpenter logs when a fleet request finds no capacity.
pub const FLEET_INSUFFICIENT_CAPACITY: &str = "creating instance, insufficient capacity, with \
                                               fleet error(s), InsufficientInstanceCapacity: We \
                                               currently do not have sufficient capacity in the \
                                               Availability Zone you requested.";

/// Karpenter's `pretty.Slice(list, n)`: the first n, then " and N other(s)".
fn pretty(f: &mut fmt::Formatter<'_>, list: &[String], n: usize) -> fmt::Result {
    for (i, item) in list.iter().take(n).enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(item)?;
    }
    if list.len() > n {
        write!(f, " and {} other(s)", list.len() - n)?;
    }
    Ok(())
}

/// The message, in the words of whoever publishes the event.
impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EventKind::*;
        match self {
            Scheduled { pod, node } => write!(
                f,
                "Successfully assigned {}/{} to {node}",
                pod.namespace, pod.name
            ),
            PodCompleted { .. } => f.write_str("Pod ran to completion"),
            JobCompleted { .. } => f.write_str("Job completed"),
            Killing { .. } => f.write_str("Stopping container (pod deleted)"),
            Cordoned { node, .. } => {
                write!(f, "Node {node} status is now: {}", self.reason())
            }
            Scaled { replicas, .. } => write!(f, "Scaled to {replicas}"),
            VolumeProvisioned { volume, zone, .. } => match zone {
                Some(zone) => write!(f, "Successfully provisioned volume {volume} in {zone}"),
                None => write!(f, "Successfully provisioned volume {volume}"),
            },
            WorkloadDeleted { .. }
            | PdbDeleted { .. }
            | NodePoolDeleted { .. }
            | NodeClassDeleted { .. } => f.write_str("deleted"),
            Nominated { target, .. } => write!(f, "Pod should schedule on: {target}"),
            FailedScheduling { error, .. } => write!(f, "Failed to schedule pod, {error}"),
            NoCompatibleInstanceTypes { min_values, .. } => {
                f.write_str(
                    "NodePool requirements filtered out all compatible available instance types",
                )?;
                if *min_values {
                    f.write_str(" due to minValues incompatibility")?;
                }
                Ok(())
            }
            TooManyNodes { claims } => write!(
                f,
                "not launching {claims} NodeClaim(s): the playground simulates at most {} nodes",
                super::MAX_NODES
            ),
            CapacityBufferProvisioning { condition, .. } => write!(f, "{condition}"),
            Created {
                node_pool,
                requests,
                instance_types,
                ..
            } => {
                write!(
                    f,
                    "created nodeclaim, NodePool={node_pool}, requests={requests}, instance-types="
                )?;
                pretty(f, instance_types, 5)
            }
            Launched {
                instance_type,
                zone,
                capacity_type,
                price,
                ..
            } => write!(
                f,
                "launched nodeclaim, instance-type={instance_type}, zone={zone}, \
                 capacity-type={}, price=${}/h",
                capacity_type.as_str(),
                dollars(*price)
            ),
            LaunchFailed { nodeclaim } => {
                write!(
                    f,
                    "NodeClaim {nodeclaim} event: {FLEET_INSUFFICIENT_CAPACITY}"
                )
            }
            Registered { node, .. } => write!(f, "registered nodeclaim, Node={node}"),
            Initialized { node, .. } => write!(f, "initialized nodeclaim, Node={node}"),
            Expired { .. } => f.write_str("NodeClaim expired (expireAfter elapsed); deleting it"),
            SpotInterrupted { reclaim_at, .. } => write!(
                f,
                "Spot interruption warning: EC2 reclaims the instance at {}",
                duration::format(*reclaim_at)
            ),
            ReservationInterrupted {
                reservation,
                reclaim_at,
                ..
            } => write!(
                f,
                "Capacity reservation {reservation} is taking back the instance at {}",
                duration::format(*reclaim_at)
            ),
            Terminating { cause, .. } => write!(f, "deleting nodeclaim ({cause}); draining node"),
            Evicted { node, forced, .. } => {
                let how = if *forced {
                    "Deleted pod: terminationGracePeriod of"
                } else {
                    "Evicted pod: draining"
                };
                write!(f, "{how} node {node}")
            }
            // kube-scheduler's words before it named the preemptor by UID (the playground's pods
            // have none): `Preempted by <namespace>/<name> on node <node>`.
            Preempted { by, node, .. } => write!(
                f,
                "Preempted by {}/{} on node {node}",
                by.namespace, by.name
            ),
            FailedDraining { node, .. } => write!(
                f,
                "Cannot evict pod as it would violate the pod's disruption \
                 budget; draining node {node}"
            ),
            Drained { node, .. } => write!(f, "drained node {node}"),
            NodeClaimDeleted {
                nodeclaim,
                node,
                launched,
            } => {
                if *launched {
                    write!(f, "deleted node {node} and its nodeclaim")
                } else {
                    write!(f, "deleted nodeclaim {nodeclaim}: no instance was launched")
                }
            }
            DisruptionBlocked { blocker, .. } | Unconsolidatable { blocker, .. } => {
                write!(f, "{blocker}")
            }
            ConsolidationRejected { why, .. } => {
                write!(f, "Consolidation was rejected: {why}")
            }
            ConsolidationApproved { score, .. } => write!(f, "{score}"),
            NodePoolScaled { replicas, .. } => write!(f, "Scaled NodePool to {replicas} replicas"),
            NodeConditionChanged {
                condition, status, ..
            } => write!(f, "Node condition {condition} is now {status}"),
            CapacityTypeChanged {
                from, to, price, ..
            } => write!(
                f,
                "capacity type {} -> {}: its capacity reservation ended; now ${}/h",
                from.as_str(),
                to.as_str(),
                dollars(*price)
            ),
            ReservationPhase { phase, .. } => match *phase {
                "expiring" => f.write_str(
                    "capacity block expiring in 40 minutes: initiating delete for capacity \
                     block expiration",
                ),
                "ended" => f.write_str(
                    "capacity reservation ended: its instances run on as on-demand (or, for \
                     a capacity block, are reclaimed)",
                ),
                other => write!(f, "capacity reservation {other}"),
            },
            NodeOverlayConflict { .. } => f.write_str(
                "ValidationSucceeded=False: conflict with another overlay (one of the same weight \
                 changes the same offering or resource); it is applied nowhere",
            ),
            TaintManagerEviction { pod, .. } => {
                write!(f, "Marking for deletion Pod {}/{}", pod.namespace, pod.name)
            }
            NodeRepair { condition, .. } => {
                write!(f, "deleting unhealthy node (condition {condition})")
            }
            NodeRepairBlocked { .. } => {
                f.write_str("more than 20% nodes are unhealthy in the nodepool")
            }
            Disrupting(d) => write!(f, "{d}"),
            ReplacementLaunchFailed { .. } => f.write_str(
                "failed launching the replacement: no instance type offers the capacity type it \
                 was pinned to; the command is dropped",
            ),
            DisruptionLaunching { reason, .. } => {
                write!(f, "Launching NodeClaim: {}", reason.as_str())
            }
            DisruptionWaitingReadiness { .. } => {
                f.write_str("Waiting on readiness to continue disruption")
            }
            DisruptionTerminating {
                reason, decision, ..
            } => write!(f, "Disrupting NodeClaim: {}/{decision}", reason.as_str()),
            DisruptionFailed { .. } => f.write_str(
                "failed terminating nodes while executing a disruption \
                 command: a replacement was lost",
            ),
            Drifted { reason, .. } => write!(f, "NodeClaim drifted: {}", reason.as_str()),
            DriftResolved { .. } => f.write_str("NodeClaim no longer drifted"),
            NodeClassWaiting { nodeclaims, .. } => {
                f.write_str("waiting on NodeClaim termination for ")?;
                for (i, c) in nodeclaims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(c)?;
                }
                Ok(())
            }
            AmiReleased { family, image } => write!(
                f,
                "a new {family} AMI ({image}) is the latest: EC2NodeClasses using \
                 {family}@latest resolve to it"
            ),
            ShortageStarted { offerings, until } => match until {
                Some(until) => write!(
                    f,
                    "EC2 has no capacity for {offerings} until {}",
                    duration::format(*until)
                ),
                None => write!(f, "EC2 has no capacity for {offerings} from now on"),
            },
            CapacityRestored { offerings } => {
                write!(f, "EC2 has capacity for {offerings} again")
            }
            TimelineSkipped(skip) => write!(f, "{skip}"),
        }
    }
}

/// `nodeclaim/x`, `nodeclaim/x, node/y` or `node/y`.
impl fmt::Display for Nomination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Nomination::NodeClaim(c) => write!(f, "nodeclaim/{c}"),
            Nomination::Node {
                node,
                nodeclaim: Some(c),
            } => write!(f, "nodeclaim/{c}, node/{node}"),
            Nomination::Node {
                node,
                nodeclaim: None,
            } => write!(f, "node/{node}"),
        }
    }
}

impl fmt::Display for TerminationCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TerminationCause::Disruption(reason) => reason.as_str(),
            TerminationCause::ReplacementLaunchFailed => "replacement launch failed",
            TerminationCause::SpotInterruption => "spot interruption",
            TerminationCause::Expired => "expired",
            TerminationCause::NodePoolDeleted => "NodePool deleted",
            TerminationCause::Deleted => "deleted",
            TerminationCause::StaticScaleDown => "static NodePool scaled down",
            TerminationCause::Unhealthy => "unhealthy",
            TerminationCause::CapacityBlockExpiring => "capacity block expiring",
            TerminationCause::ReservationInterruption => "capacity reservation interrupted",
        })
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rejection::NoLongerCandidate => "a candidate is no longer a candidate",
            Rejection::BudgetExhausted => "the disruption budget no longer allows it",
            Rejection::SimulationDisagrees => "the scheduling simulation no longer agrees",
        })
    }
}

/// `Delete` or `Replace`.
impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::Delete => "Delete",
            Decision::Replace => "Replace",
        })
    }
}

/// Karpenter's log line for a command: `disrupting nodeclaim(s) via replace (Underutilized),
/// terminating 1 nodes (3 pods) n/t3.large/on-demand and replacing with on-demand node from
/// types t3.medium, savings $0.04/h`.
impl fmt::Display for Disruption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let decision = match self.decision() {
            Decision::Delete => "delete",
            Decision::Replace => "replace",
        };
        write!(
            f,
            "disrupting nodeclaim(s) via {decision} ({}), terminating {} nodes ({} pods) ",
            self.reason.as_str(),
            self.candidates.len(),
            self.pods
        )?;
        for (i, c) in self.candidates.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(
                f,
                "{}/{}/{}",
                c.name,
                c.instance_type,
                c.capacity_type.as_str()
            )?;
        }
        for r in &self.replacements {
            let ct = r
                .capacity_type
                .map_or("spot or on-demand", CapacityType::as_str);
            write!(f, " and replacing with {ct} node from types ")?;
            pretty(f, &r.instance_types, 3)?;
        }
        if let Some(savings) = self.savings {
            write!(f, ", savings ${}/h", dollars(savings.max(0)))?;
        }
        Ok(())
    }
}

/// "t3.small spot in us-east-1a", with "every instance type", "of any capacity type",
/// "every zone".
impl fmt::Display for Offerings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} in {}",
            self.instance_type
                .as_deref()
                .unwrap_or("every instance type"),
            self.capacity_type
                .map_or("of any capacity type", |c| c.as_str()),
            self.zone.as_deref().unwrap_or("every zone")
        )
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::NoWorkloadToScale { .. } => f.write_str("no such workload to scale"),
            Skip::NoNodeToDelete { kind, name } => write!(f, "no {kind} named {name} to delete"),
            Skip::NodeGroupNode { .. } => f.write_str(
                "the node belongs to a node group, not to Karpenter: the \
                 playground does not delete it",
            ),
            Skip::NoPodToDelete { .. } => f.write_str("no such pod to delete"),
            Skip::DaemonSetPod { .. } => {
                f.write_str("a DaemonSet pod: its DaemonSet recreates it on the same node")
            }
            Skip::NoNodeToCordon { .. } => f.write_str("no such node to cordon"),
            Skip::NoNodeForCondition { .. } => {
                f.write_str("no registered node to set the condition on")
            }
            Skip::NoObjectToAnnotate { kind, .. } => write!(f, "no such {kind} to annotate"),
            Skip::NothingToInterrupt { target } => write!(f, "no {target} to interrupt"),
            Skip::NotRunningSpot { node } => write!(
                f,
                "node {node} is not a running spot instance; only spot \
                 instances get interruption warnings"
            ),
        }
    }
}

impl fmt::Display for InterruptTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterruptTarget::Node(n) => write!(f, "node {n}"),
            InterruptTarget::NodePool(p) => write!(f, "a spot node of NodePool {p}"),
            InterruptTarget::Unnamed => Ok(()),
        }
    }
}

/// Karpenter's own words for why the disruption controller leaves a node alone (the
/// `DisruptionBlocked` / `Unconsolidatable` event message).
impl fmt::Display for Blocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blocker::Nominated => f.write_str("Node is nominated for a pending pod"),
            Blocker::NodeDoNotDisrupt => write!(
                f,
                "Disruption is blocked through the \"{}\" annotation",
                wk::DO_NOT_DISRUPT
            ),
            Blocker::PodDoNotDisrupt(pod) => {
                write!(
                    f,
                    "Pod has \"{}\" annotation (Pod={pod})",
                    wk::DO_NOT_DISRUPT
                )
            }
            Blocker::Pdb(why) | Blocker::PodsWouldNotSchedule(why) => f.write_str(why),
            Blocker::BufferPods(node) => write!(f, "Node \"{node}\" has buffer pods"),
            Blocker::ConsolidationDisabled(pool) => {
                write!(f, "NodePool \"{pool}\" has consolidation disabled")
            }
            Blocker::WhenEmptyOnly(pool) => {
                write!(
                    f,
                    "NodePool \"{pool}\" has non-empty consolidation disabled"
                )
            }
            Blocker::Budget(reason) => write!(
                f,
                "No allowed disruptions for disruption reason {}",
                reason.as_str()
            ),
            Blocker::TooManyReplacements(n) => {
                write!(f, "Can't remove without creating {n} candidates")
            }
            Blocker::SpotToSpot => f.write_str(
                "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node",
            ),
            Blocker::SpotToSpotTooFew(n) => write!(
                f,
                "SpotToSpotConsolidation requires {} cheaper instance type options than the \
                 current candidate to consolidate, got {n}",
                crate::disruption::SPOT_TO_SPOT_MIN_OPTIONS
            ),
            Blocker::Balanced(b) => write!(f, "{b}"),
            Blocker::MinValues => {
                f.write_str("Can't replace with a cheaper node (minValues would not hold)")
            }
            Blocker::NotCheaper(None) => f.write_str("Can't replace with a cheaper node"),
            Blocker::NotCheaper(Some(detail)) => {
                write!(f, "Can't replace with a cheaper node: {detail}")
            }
        }
    }
}

/// The object an event that names either is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectName {
    NodeClaim(String),
    NodePool(String),
}

/// Karpenter's words for a Balanced score (`ConsolidationApproved`'s message; the rejection,
/// which Karpenter only logs, turned around).
impl fmt::Display for BalancedScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (op, verdict) = if self.approved() {
            (">=", "")
        } else {
            ("<", "Balanced consolidation declined: ")
        };
        write!(
            f,
            "{verdict}score {:.2} {op} threshold {:.2} (k: {}, savings {:.1}%, disruption {:.1}%)",
            self.score(),
            BalancedScore::threshold(),
            super::evidence::BALANCED_K,
            self.savings_fraction() * 100.0,
            self.disruption_fraction() * 100.0
        )
    }
}

impl PodRef {
    pub fn of(pod: &crate::pod::Pod) -> PodRef {
        PodRef {
            namespace: pod.namespace.clone(),
            name: pod.name.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn an_object_ref_equals_its_text() {
        let pod = EventKind::Killing {
            pod: PodRef {
                namespace: "default".into(),
                name: "web-1".into(),
            },
        };
        assert_eq!(pod.object().to_string(), "Pod/default/web-1");
        assert!(pod.object() == "Pod/default/web-1");
        assert!(pod.object() != "Pod/default/web-12");
        assert!(pod.object() != "Pod/default");
        assert!(pod.object() != "Pod/web-1");
        let disrupting = EventKind::Disrupting(Disruption {
            node_pools: vec!["a".into(), "b".into()],
            reason: Reason::Empty,
            candidates: Vec::new(),
            pods: 0,
            replacements: Vec::new(),
            savings: Some(0),
        });
        assert!(disrupting.object() == "NodePool/a,b");
        assert!(disrupting.object() != "NodePool/a");
    }

    #[test]
    fn a_created_nodeclaim_lists_five_types_then_counts_the_rest() {
        let kind = EventKind::Created {
            nodeclaim: "default-abcde".into(),
            node_pool: "default".into(),
            requests: Resources::ZERO.with(crate::resources::ResourceName::Cpu, 1500),
            instance_types: (1..=7).map(|i| alloc::format!("t{i}")).collect(),
        };
        assert_eq!(
            kind.to_string(),
            concat!(
                r#"created nodeclaim, NodePool=default, requests={"cpu":"1500m"}, "#,
                "instance-types=t1, t2, t3, t4, t5 and 2 other(s)"
            )
        );
        assert_eq!(kind.reason(), "Created");
        assert!(!kind.warning());
        assert!(kind.object() == "NodeClaim/default-abcde");
    }
}

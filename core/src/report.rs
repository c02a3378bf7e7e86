//! The state of the cluster at one instant, shaped as the JSON report of the contract
//! (`docs/scenario-format.md` §3). The engine fills it; the CLI serialises or tabulates it.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

/// The whole report. Field names are the contract's; extra fields may be added.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Simulated time, e.g. `5m0s`.
    pub time: String,
    /// USD per hour of every node that exists (EKS Auto Mode's management fee included).
    pub cost_per_hour: f64,
    /// The part of `cost_per_hour` that is EKS Auto Mode's management fee (added with Auto
    /// Mode; absent when no node is Auto Mode's).
    #[serde(skip_serializing_if = "no_dollars")]
    pub management_fee_per_hour: f64,
    pub nodes: Vec<NodeReport>,
    pub pods: Vec<PodReport>,
    pub events: Vec<EventReport>,
    pub nodepools: Vec<NodePoolReport>,
    pub nodeclaims: Vec<NodeClaimReport>,
    /// Where the numbers are approximations (spot prices, fallback regional prices).
    pub notes: Vec<String>,
    /// The cluster's figures from time 0 to `time`, one entry per instant at which they
    /// changed (added with the cost timeline).
    pub history: Vec<HistoryReport>,
    /// USD the nodes cost from time 0 to `time`: the history's step integral.
    pub accrued_cost: f64,
    /// CapacityBuffers (v1.14+, the `CapacityBuffer` gate), when the scenario has any:
    /// the replicas the buffer controller computed and the last `Provisioning` condition.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub capacity_buffers: Vec<CapacityBufferReport>,
}

/// A CapacityBuffer as Karpenter's controllers left its status.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CapacityBufferReport {
    pub name: String,
    pub namespace: String,
    /// `status.replicas`: the virtual pods it keeps room for (`None` until resolved).
    pub replicas: Option<u32>,
    /// The `ReadyForProvisioning` condition (`None`: never looked at, e.g. the gate is off).
    pub ready_for_provisioning: Option<bool>,
    /// The `Provisioning` condition's reason (`FitsExistingCapacity`, `RequiresNewCapacity`,
    /// `BufferEmpty`, or why it is not ready) and message.
    pub provisioning: Option<String>,
    pub message: Option<String>,
}

/// The cluster's figures from one instant until the next entry.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct HistoryReport {
    /// Simulated time, e.g. `1m12s`.
    pub time: String,
    /// The same instant in seconds, for charts and spreadsheets.
    pub seconds: f64,
    /// Nodes that exist, in any state (as `nodes` lists them).
    pub nodes: u32,
    /// Pods in phase `Running` and `Pending`.
    pub running: u32,
    pub pending: u32,
    /// USD per hour of the nodes that exist.
    pub cost_per_hour: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeReport {
    pub name: String,
    pub nodepool: Option<String>,
    pub node_group: Option<String>,
    pub nodeclaim: Option<String>,
    pub instance_type: String,
    pub zone: String,
    pub capacity_type: String,
    pub arch: String,
    /// `Launching`, `Registered`, `Ready` or `Deleting`.
    pub state: String,
    pub labels: BTreeMap<String, String>,
    pub taints: Vec<TaintReport>,
    pub allocatable: BTreeMap<String, String>,
    pub capacity: BTreeMap<String, String>,
    pub requested: BTreeMap<String, String>,
    pub price_per_hour: f64,
    /// Where the price comes from: `regional`, `us-east-1-fallback` (the region has no list
    /// price in the built-in catalog), `spot-advisor`, `spot-default` (approximations) or
    /// `custom` (an InstanceType document).
    pub price_source: String,
    /// A NodeOverlay priced the node: its name, and the price before it (USD per hour).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_overlay: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_price_per_hour: Option<f64>,
    /// EKS Auto Mode's management fee for the instance, USD per hour, on top of
    /// `pricePerHour` (added with Auto Mode; absent on other nodes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub management_fee_per_hour: Option<f64>,
    pub created_at: String,
    /// `namespace/name` of the pods bound to the node, sorted.
    pub pods: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TaintReport {
    pub key: String,
    pub value: String,
    pub effect: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PodReport {
    pub name: String,
    pub namespace: String,
    /// `Deployment/web`: the top-level controller.
    pub owner: Option<String>,
    pub labels: BTreeMap<String, String>,
    pub node: Option<String>,
    /// `Pending`, `Running`, `Succeeded` or `Failed`.
    pub phase: String,
    pub reason: Option<String>,
    pub message: Option<String>,
    /// The NodeClaim the pod is waiting for, when Karpenter has nominated one.
    pub nominated: Option<String>,
    /// kube-scheduler's summary for a pending pod (`0/3 nodes are available: ...`).
    pub scheduler_message: Option<String>,
    pub requests: BTreeMap<String, String>,
    pub created_at: String,
    /// `spec.priority` as admission set it; left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub priority: i32,
    /// kube-scheduler's `status.nominatedNodeName`: the node a pending pod preempted pods
    /// on and waits for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nominated_node_name: Option<String>,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EventReport {
    pub time: String,
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub kind: String,
    pub reason: String,
    /// `Kind/name` for cluster-scoped objects, `Kind/namespace/name` otherwise.
    pub object: String,
    pub message: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodePoolReport {
    pub name: String,
    pub weight: i32,
    pub nodes: usize,
    /// Capacity of the pool's nodes, as Karpenter counts it against limits.
    pub resources: BTreeMap<String, String>,
    pub limits: BTreeMap<String, String>,
    pub ready: bool,
    /// Why the pool is not ready (e.g. its EC2NodeClass does not exist).
    pub message: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeClaimReport {
    pub name: String,
    pub nodepool: String,
    pub instance_type: String,
    pub zone: String,
    pub capacity_type: String,
    pub node: Option<String>,
    /// `Launching`, `Launched`, `Registered`, `Ready`, `Deleting`.
    pub state: String,
    pub created_at: String,
    /// The instance types the NodeClaim allowed, cheapest first (at most 60 shown).
    pub instance_type_options: Vec<String>,
    pub price_per_hour: f64,
    /// Why the NodeClaim has drifted (`NodePoolDrifted`, `RequirementsDrifted`,
    /// `NodeClassDrift`, `AMIDrift`, `SubnetDrift`), when it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drifted: Option<String>,
    /// The disruption a command holds the NodeClaim for (`Empty`, `Underutilized`, `Drifted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disruption_reason: Option<String>,
    /// The AMI the instance runs.
    pub image_id: String,
}

fn no_dollars(v: &f64) -> bool {
    *v == 0.0
}

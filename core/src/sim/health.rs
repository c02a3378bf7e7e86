//! Node health: what happens to a node whose conditions say it is unwell.
//!
//! Two controllers act, in this order on the clock:
//! - Kubernetes' node lifecycle controller taints a node that is not ready
//!   (`node.kubernetes.io/not-ready`, or `unreachable` when its status is `Unknown`) with
//!   `NoSchedule` (`TaintNodesByCondition`) and `NoExecute` (taint-based eviction). Pods get the
//!   `DefaultTolerationSeconds` admission plugin's 300-second tolerations for both, so the
//!   taint manager deletes the pods that do not tolerate the taint on their own 5 minutes
//!   later; their controllers replace them elsewhere. DaemonSet pods tolerate it forever.
//! - Karpenter's node repair (gate `NodeRepair`, v1.1+): a managed node whose condition
//!   matches one of the cloud provider's repair policies for longer than the policy tolerates
//!   is deleted forcefully (`karpenter.sh/nodeclaim-termination-timestamp` set to now: no
//!   drain wait, PodDisruptionBudgets and `do-not-disrupt` not honoured, nothing launched
//!   first).
//!   - v1.1–v1.14 (`pkg/controllers/node/health/controller.go`, read at v1.1.0 and v1.14.1):
//!     its own controller, held while more than 20 % of the NodePool's nodes (rounded up) are
//!     unhealthy, looking again after 5 minutes.
//!   - v1.15 (`Behaviour::RepairAsDisruption`; the RFC kubernetes-sigs/karpenter#3192 and its
//!     implementation #3311, not read at a tag): a method of the disruption controller, tried
//!     before emptiness and drift, within the NodePool's budgets for reason `Repair`; the 20 %
//!     breaker is gone, and nodes that are not ready do not use up the repair budget.

use super::event::{PodRef, TerminationCause};
use super::*;

/// The AWS provider's `RepairPolicies` (`pkg/cloudprovider/cloudprovider.go`, v1.14.1):
/// condition type, status, toleration.
pub const REPAIR_POLICIES: &[(&str, &str, Millis)] = &[
    ("Ready", "False", 30 * 60_000),
    ("Ready", "Unknown", 30 * 60_000),
    ("AcceleratedHardwareReady", "False", 10 * 60_000),
    ("StorageReady", "False", 30 * 60_000),
    ("NetworkingReady", "False", 30 * 60_000),
    ("KernelReady", "False", 30 * 60_000),
    ("ContainerRuntimeReady", "False", 30 * 60_000),
];

/// The node lifecycle controller's taints for a node that is not ready, or unreachable.
pub const TAINT_NOT_READY: &str = "node.kubernetes.io/not-ready";
pub const TAINT_UNREACHABLE: &str = "node.kubernetes.io/unreachable";

/// `DefaultTolerationSeconds`: how long a pod stays on a node tainted not-ready or unreachable
/// `NoExecute` unless it tolerates the taint itself.
pub const DEFAULT_TOLERATION: Millis = 300_000;

/// How long a blocked repair waits before looking again (v1.1–v1.14).
const BLOCKED_RETRY: Millis = 5 * 60_000;

impl Simulation {
    /// Whether node repair runs: the gate is on (it exists from v1.1).
    pub(super) fn node_repair_runs(&self) -> bool {
        self.karpenter.gate(Gate::NodeRepair)
    }

    /// The unhealthy condition of node `n` that comes due first, and when
    /// (`findUnhealthyConditions`): its type, status and the instant its toleration ends.
    pub fn repair_due(&self, n: usize) -> Option<(String, String, Millis)> {
        let node = self.cluster.nodes.get(n)?;
        REPAIR_POLICIES
            .iter()
            .filter_map(|&(kind, status, toleration)| {
                let (s, since) = node.conditions.get(kind)?;
                (s == status).then(|| (kind.to_string(), status.to_string(), since + toleration))
            })
            .min_by_key(|(_, _, at)| *at)
    }

    /// When node repair would delete node `n`, if it runs and the node is one it repairs: the
    /// node card's countdown and the explanations read this.
    pub fn repair_at(&self, n: usize) -> Option<Millis> {
        if !self.node_repair_runs()
            || !self.cluster.is_managed(n)
            || self.cluster.nodes[n].state == NodeState::Deleting
        {
            return None;
        }
        self.repair_due(n).map(|(_, _, at)| at)
    }

    fn unhealthy(&self, n: usize) -> bool {
        self.repair_due(n).is_some()
    }

    /// A node's condition status: `True` (the healthy state of `Ready` and of the node
    /// monitoring agent's `...Ready` conditions) unless a step said otherwise.
    fn condition_of(&self, n: usize, condition: &str) -> &str {
        match self.cluster.nodes[n].conditions.get(condition) {
            Some((status, _)) => status,
            None => "True",
        }
    }

    /// A `nodeCondition` step: the condition changes on its node (the named one, or the
    /// NodePool's oldest whose condition is not that already), the node lifecycle controller
    /// taints or untaints a node whose `Ready` changed, and the taint manager and node repair
    /// look when they come due.
    pub(super) fn set_node_condition(
        &mut self,
        nodepool: Option<&str>,
        node: Option<&str>,
        condition: &str,
        status: &str,
    ) {
        let target =
            match (node, nodepool) {
                (Some(name), _) => self.cluster.nodes.iter().position(|n| {
                    n.registered() && n.state != NodeState::Deleting && n.name == name
                }),
                (None, Some(pool)) => (0..self.cluster.nodes.len())
                    .filter(|&n| {
                        let nd = &self.cluster.nodes[n];
                        nd.registered()
                            && nd.state != NodeState::Deleting
                            && nd
                                .nodepool
                                .is_some_and(|p| self.cluster.node_pools[p].name == pool)
                            && self.condition_of(n, condition) != status
                    })
                    .min_by(|&a, &b| {
                        let (x, y) = (&self.cluster.nodes[a], &self.cluster.nodes[b]);
                        x.created_order(y).then(x.name.cmp(&y.name))
                    }),
                (None, None) => None,
            };
        let Some(n) = target else {
            let node = node.or(nodepool).unwrap_or_default().to_string();
            self.event(EventKind::TimelineSkipped(
                event::Skip::NoNodeForCondition { node },
            ));
            return;
        };
        let now = self.now;
        let node = &mut self.cluster.nodes[n];
        // `True` is every condition's healthy state; the map keeps only what differs.
        let healthy = status == "True";
        if healthy {
            node.conditions.remove(condition);
        } else if node.conditions.get(condition).map(|(s, _)| s.as_str()) != Some(status) {
            node.conditions
                .insert(condition.to_string(), (status.to_string(), now));
        }
        if condition == "Ready" {
            node.taints
                .retain(|t| t.key != TAINT_NOT_READY && t.key != TAINT_UNREACHABLE);
            if !healthy {
                let key = if status == "Unknown" {
                    TAINT_UNREACHABLE
                } else {
                    TAINT_NOT_READY
                };
                node.taints
                    .push(Taint::new(key, "", TaintEffect::NoSchedule));
                node.taints
                    .push(Taint::new(key, "", TaintEffect::NoExecute));
                let at = now + DEFAULT_TOLERATION;
                self.schedule(at, Action::TaintEviction(n));
            }
        }
        self.cluster.version += 1;
        let name = self.cluster.nodes[n].name.clone();
        self.event(EventKind::NodeConditionChanged {
            node: name,
            condition: condition.to_string(),
            status: status.to_string(),
        });
        // From v1.15 the disruption controller's poll comes due with the toleration
        // (`plan_disruption`); before, the health controller looks then.
        if !self.karpenter.follows(Behaviour::RepairAsDisruption)
            && let Some((_, _, at)) = self.repair_due(n)
        {
            self.schedule(at.max(self.now), Action::RepairCheck(n));
        }
    }

    /// The taint manager, 300 s after a node went not ready: deletes the pods that do not
    /// tolerate its `NoExecute` taint, unless the node has become ready again since.
    pub(super) fn taint_eviction(&mut self, n: usize) {
        let node = &self.cluster.nodes[n];
        let Some((_, since)) = node.conditions.get("Ready") else {
            return;
        };
        if !node.exists() || self.now < since + DEFAULT_TOLERATION {
            return;
        }
        let Some(taint) = node
            .taints
            .iter()
            .find(|t| {
                t.effect == TaintEffect::NoExecute && t.key.starts_with("node.kubernetes.io/")
            })
            .cloned()
        else {
            return;
        };
        for p in self.cluster.pods_on(n) {
            let pod = &self.cluster.pods[p];
            if !pod.is_active() {
                continue;
            }
            let mut tolerations = pod.spec.tolerations.clone();
            if pod.is_daemon() {
                tolerations.extend(crate::taints::daemon_pod_tolerations(pod.spec.host_network));
            }
            if crate::taints::tolerated(&tolerations, &taint) {
                continue;
            }
            let w = pod.workload;
            self.delete_pod(p);
            self.event(EventKind::TaintManagerEviction {
                pod: PodRef::of(&self.cluster.pods[p]),
                node: self.cluster.nodes[n].name.clone(),
            });
            self.replace_pod(w);
        }
    }

    /// The health controller's reconcile of node `n` (v1.1–v1.14; from v1.15 the disruption
    /// controller repairs, and this is never queued).
    pub(super) fn repair_check(&mut self, n: usize) {
        if !self.node_repair_runs() {
            return;
        }
        let node = &self.cluster.nodes[n];
        if !node.exists() || node.state == NodeState::Deleting || !self.cluster.is_managed(n) {
            return;
        }
        let Some((condition, _, at)) = self.repair_due(n) else {
            return;
        };
        if at > self.now {
            self.schedule(at, Action::RepairCheck(n));
            return;
        }
        // The 20 % guard, over the NodePool's registered nodes (deleting ones included).
        let pool = node.nodepool;
        let members: Vec<usize> = (0..self.cluster.nodes.len())
            .filter(|&m| {
                let node = &self.cluster.nodes[m];
                node.exists() && node.registered() && node.nodepool == pool
            })
            .collect();
        let unhealthy = members.iter().filter(|&&m| self.unhealthy(m)).count();
        let allowed = members.len().div_ceil(5);
        if unhealthy > allowed {
            let node_pool = pool
                .map(|p| self.cluster.node_pools[p].name.clone())
                .unwrap_or_default();
            let nodeclaim = self.cluster.nodes[n].claim_name();
            self.verdict(EventKind::NodeRepairBlocked {
                nodeclaim,
                node_pool,
                unhealthy,
                nodes: members.len(),
            });
            let at = self.now + BLOCKED_RETRY;
            self.schedule(at, Action::RepairCheck(n));
            return;
        }
        self.repair(n, condition);
    }

    /// Deletes node `n` for its unhealthy `condition`, forcefully: the termination timestamp
    /// is now, so whatever the drain has not evicted is deleted at once.
    pub(super) fn repair(&mut self, n: usize, condition: String) {
        self.cluster.nodes[n].termination_grace = Some(0);
        self.event(EventKind::NodeRepair {
            nodeclaim: self.cluster.nodes[n].claim_name(),
            condition,
        });
        self.terminate(n, TerminationCause::Unhealthy);
    }
}

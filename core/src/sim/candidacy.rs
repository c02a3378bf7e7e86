//! Where a node stands with the disruption controller: the one answer the explanations, the
//! page and the controller's own candidate filter read.

use alloc::string::String;

use super::evidence::Blocker;
use super::{NodeState, Simulation};
use crate::disruption::Reason;
use crate::model::{ConsolidationPolicy, Millis};

/// A node's standing with the disruption controller now, in the order it rules nodes out.
#[derive(Clone, Debug, PartialEq)]
pub enum Candidacy {
    /// The node is gone.
    Gone,
    /// Karpenter does not manage it (a fixed node, or a NodePool that is gone).
    NotManaged,
    /// It is being deleted: drained, then terminated.
    Deleting,
    /// A command holds it: its replacement launches first, then it is drained.
    Disrupting(Reason),
    /// The command waiting out its 15 s validation chose it (method, savings per hour in
    /// micro-dollars).
    Chosen { method: &'static str, savings: i64 },
    /// Not initialized yet: only initialized nodes are candidates.
    NotInitialized,
    /// Its NodePool is static (`spec.replicas`): never consolidated, only scaled.
    Static { pool: String, replicas: u32 },
    /// The node carries `karpenter.sh/do-not-disrupt: "true"`: no voluntary disruption
    /// (consolidation, drift) considers it, whatever its `consolidateAfter` says.
    DoNotDisrupt,
    /// Its NodePool has `consolidateAfter: Never`.
    ConsolidationDisabled { pool: String },
    /// `consolidateAfter` has not run out since its last pod event; it becomes a candidate at
    /// `at`.
    NotYetConsolidatable { at: Millis },
    /// The controller looked since it became a candidate and left it alone.
    Blocked { at: Millis, blocker: Blocker },
    /// A candidate since `since` (for emptiness only, under `WhenEmpty`).
    Candidate {
        since: Millis,
        policy: ConsolidationPolicy,
    },
}

impl Candidacy {
    /// A short, stable name (the explanations' check and the tests' vocabulary).
    pub fn as_str(&self) -> &'static str {
        match self {
            Candidacy::Gone => "deleted",
            Candidacy::NotManaged => "not-managed",
            Candidacy::Deleting => "deleting",
            Candidacy::Disrupting(_) => "disrupting",
            Candidacy::Chosen { .. } => "pending",
            Candidacy::NotInitialized => "not-ready",
            Candidacy::Static { .. } => "static",
            Candidacy::DoNotDisrupt => Blocker::NodeDoNotDisrupt.kind(),
            Candidacy::ConsolidationDisabled { .. } => "consolidation-disabled",
            Candidacy::NotYetConsolidatable { .. } => "consolidate-after",
            Candidacy::Blocked { blocker, .. } => blocker.kind(),
            Candidacy::Candidate { .. } => "candidate",
        }
    }
}

impl Simulation {
    /// Why the disruption controller does not even look at node `n` (`None`: it does). The
    /// controller's candidate filter and [`Simulation::candidacy`] both start here, so the
    /// explanation and the controller cannot disagree about who is considered.
    pub(super) fn ruled_out(&self, n: usize) -> Option<Candidacy> {
        let cluster = &self.cluster;
        let node = cluster.nodes.get(n)?;
        let pool_live = node
            .nodepool
            .is_some_and(|p| !cluster.pool_deleted.get(p).copied().unwrap_or(true));
        Some(if node.deleted {
            Candidacy::Gone
        } else if !cluster.is_managed(n) || !pool_live {
            Candidacy::NotManaged
        } else if node.state == NodeState::Deleting {
            Candidacy::Deleting
        } else if let Some(reason) = node.disruption {
            Candidacy::Disrupting(reason)
        } else if node.state != NodeState::Ready {
            Candidacy::NotInitialized
        } else if let Some((np, replicas)) = node
            .nodepool
            .map(|p| &cluster.node_pools[p])
            .and_then(|np| np.replicas.map(|r| (np, r)))
        {
            Candidacy::Static {
                pool: np.name.clone(),
                replicas,
            }
        } else {
            return None;
        })
    }

    /// Where node `n` stands with the disruption controller now (`None`: no such node).
    pub fn candidacy(&self, n: usize) -> Option<Candidacy> {
        let node = self.cluster.nodes.get(n)?;
        if let Some(out) = self.ruled_out(n) {
            return Some(out);
        }
        // Only a considered (Ready) node can be the pending command's choice.
        if let Some((method, savings)) = self.pending_disruption(n) {
            return Some(Candidacy::Chosen { method, savings });
        }
        // The controller rules such a node out before any method asks about consolidateAfter
        // (upstream's ValidateNodeDisruptable), so that is the answer, and it lasts.
        if self.cluster.node_do_not_disrupt(n) {
            return Some(Candidacy::DoNotDisrupt);
        }
        let np = node.nodepool.and_then(|p| self.cluster.node_pools.get(p))?;
        if np.consolidate_after.is_none() {
            return Some(Candidacy::ConsolidationDisabled {
                pool: np.name.clone(),
            });
        }
        let since = match self.consolidatable_at(n) {
            Some(at) if at > self.now() => return Some(Candidacy::NotYetConsolidatable { at }),
            since => since.unwrap_or(0),
        };
        let verdict = self
            .evidence()
            .disruption
            .get(&n)
            .and_then(|history| history.last())
            .filter(|v| v.at >= since);
        Some(match verdict {
            Some(v) => Candidacy::Blocked {
                at: v.at,
                blocker: v.blocker.clone(),
            },
            None => Candidacy::Candidate {
                since,
                policy: np.consolidation_policy,
            },
        })
    }
}

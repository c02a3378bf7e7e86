//! How a node goes away: the termination controller (taint, drain in priority waves with
//! PodDisruptionBudgets and `do-not-disrupt` respected, `terminationGracePeriod`, instance
//! termination), and the forceful methods that start it: expiration, spot interruption and
//! deletion by hand.
//!
//! Sources: `K@1.14.1:pkg/controllers/node/termination/` (controller.go,
//! terminator/terminator.go), `pkg/controllers/nodeclaim/expiration/controller.go`, and the
//! AWS provider's interruption controller, as summarised in `karpenter-semantics.md` §5.1 and
//! §5.11.
//!
//! Its state is [`Termination`], which only this module touches. It drains and terminates
//! the nodes it is handed; it never decides what to disrupt and never creates a NodeClaim
//! (the pods it evicts are replaced by their controllers, `workloads.rs`).

use super::event::{InterruptTarget, PodRef, Skip, TerminationCause};
use super::*;
use crate::disruption::DoNotDisrupt;

/// The termination controller drains again this often while pods remain.
const DRAIN_RETRY: Millis = 1_000;
/// A spot interruption warning comes this long before EC2 reclaims the instance.
pub const SPOT_NOTICE: Millis = 120_000;

/// The termination controller's own state: where each deleting node's drain stands.
#[derive(Clone, Debug, Default)]
pub(super) struct Termination {
    /// Draining nodes: when the last evicted pod's grace period ends.
    drain_grace: BTreeMap<usize, Millis>,
    /// Nodes whose drain has finished, and when.
    drained: BTreeMap<usize, Millis>,
    /// Drains waiting on PodDisruptionBudgets or `do-not-disrupt`, with the cluster version
    /// they last tried at.
    drain_parked: BTreeMap<usize, u64>,
}

impl Simulation {
    /// Deletes a NodeClaim: the node is tainted `karpenter.sh/disrupted:NoSchedule` and
    /// drained; once drained the instance terminates and the Node and NodeClaim disappear.
    pub(super) fn terminate(&mut self, n: usize, cause: TerminationCause) {
        if !self.cluster.nodes[n].exists() || self.cluster.nodes[n].state == NodeState::Deleting {
            return;
        }
        self.cluster.nodes[n].state = NodeState::Deleting;
        self.cluster.nodes[n].deleting_since = Some(self.now);
        if !self.cluster.nodes[n]
            .taints
            .iter()
            .any(|t| t.key == wk::DISRUPTED_TAINT)
        {
            self.cluster.nodes[n].taints.push(Taint::new(
                wk::DISRUPTED_TAINT,
                "",
                TaintEffect::NoSchedule,
            ));
        }
        self.cluster.version += 1;
        let nodeclaim = self.cluster.nodes[n].claim_name();
        self.event(EventKind::Terminating { nodeclaim, cause });
        if let Some(grace) = self.cluster.nodes[n].termination_grace {
            let at = self.now + grace;
            self.schedule(at, Action::Drain(n));
        }
        self.drain(n);
    }

    /// One drain attempt (Karpenter's terminator): evicts the first non-empty wave of
    /// non-critical pods, non-critical DaemonSet pods, critical pods, critical DaemonSet
    /// pods. The Eviction API refuses pods a PodDisruptionBudget protects, and Karpenter does
    /// not evict `do-not-disrupt` pods; both wait, unless the NodeClaim's
    /// `terminationGracePeriod` runs out, which deletes whatever is left.
    pub(super) fn drain(&mut self, n: usize) {
        if !self.cluster.nodes[n].exists()
            || self.cluster.nodes[n].state != NodeState::Deleting
            || self.termination.drained.contains_key(&n)
        {
            return;
        }
        self.termination.drain_parked.remove(&n);
        let deadline = self.cluster.nodes[n]
            .termination_grace
            .zip(self.cluster.nodes[n].deleting_since)
            .map(|(g, s)| s + g);
        let forced = deadline.is_some_and(|d| self.now >= d);
        let mut waves: [Vec<usize>; 4] = Default::default();
        for p in self.cluster.pods_on(n) {
            // A pod that tolerates the disrupted taint would only come back: it stays and goes
            // with the node.
            if !self.cluster.pods[p].is_active() || self.cluster.tolerates_disruption(p) {
                continue;
            }
            let pod = &self.cluster.pods[p];
            let critical = matches!(
                pod.spec.priority_class_name.as_deref(),
                Some("system-cluster-critical" | "system-node-critical")
            );
            waves[usize::from(critical) * 2 + usize::from(pod.is_daemon())].push(p);
        }
        let Some(wave) = waves.iter().find(|w| !w.is_empty()).cloned() else {
            self.drain_complete(n);
            return;
        };
        let mut pdbs = self.cluster.pdb_allowances();
        let mut evicted = false;
        // When a waiting `do-not-disrupt` duration runs out.
        let mut expires: Option<Millis> = None;
        for p in wave {
            let dnd = self.cluster.pod_do_not_disrupt(p, self.now);
            if !forced && dnd != DoNotDisrupt::No {
                if let DoNotDisrupt::Until(t) = dnd {
                    expires = Some(expires.map_or(t, |e: Millis| e.min(t)));
                }
                continue;
            }
            if !forced {
                let matching: Vec<usize> = (0..self.cluster.pdbs.len())
                    .filter(|&i| self.cluster.pdb_selects(i, p))
                    .collect();
                if matching.len() > 1 || matching.iter().any(|&i| pdbs[i] == 0) {
                    self.verdict(EventKind::FailedDraining {
                        pod: PodRef::of(&self.cluster.pods[p]),
                        node: self.cluster.nodes[n].name.clone(),
                    });
                    continue;
                }
                for &i in &matching {
                    pdbs[i] -= 1;
                }
            }
            self.evict(p, n, forced);
            evicted = true;
        }
        if evicted {
            // The next wave, or what is left of this one, a second later.
            let at = self.now + DRAIN_RETRY;
            self.schedule(at, Action::Drain(n));
        } else {
            // Everything left is waiting for a PodDisruptionBudget or `do-not-disrupt`: try
            // again when the cluster changes (see `unpark_drains`), when a `do-not-disrupt`
            // duration ends, or when the grace period runs out (queued by `terminate`).
            self.termination
                .drain_parked
                .insert(n, self.cluster.version);
            if let Some(t) = expires {
                self.schedule(t, Action::Drain(n));
            }
        }
    }

    /// Parked drains try again once anything in the cluster changed: a replacement pod
    /// starting elsewhere frees a PodDisruptionBudget, a deleted pod frees the node. Karpenter
    /// retries on a timer; retrying on change decides the same and lets the clock rest.
    pub(super) fn unpark_drains(&mut self) {
        let changed: Vec<usize> = self
            .termination
            .drain_parked
            .iter()
            .filter(|&(_, &v)| v != self.cluster.version)
            .map(|(&n, _)| n)
            .collect();
        for n in changed {
            self.termination.drain_parked.remove(&n);
            let at = self.now + DRAIN_RETRY;
            self.schedule(at, Action::Drain(n));
        }
    }

    /// Evicts (or, past the grace period, deletes) a pod of a draining node; its controller
    /// creates a replacement, which the schedulers place elsewhere.
    fn evict(&mut self, p: usize, n: usize, forced: bool) {
        let seconds = self.cluster.pods[p]
            .spec
            .termination_grace_seconds
            .unwrap_or(30)
            .max(0) as u64;
        let gone = self.now + seconds * 1000;
        let until = self.termination.drain_grace.entry(n).or_insert(gone);
        *until = (*until).max(gone);
        let w = self.cluster.pods[p].workload;
        self.delete_pod(p);
        self.event(EventKind::Evicted {
            pod: PodRef::of(&self.cluster.pods[p]),
            node: self.cluster.nodes[n].name.clone(),
            forced,
        });
        self.replace_pod(w);
    }

    /// Every pod is gone: after the evicted pods' grace period EC2 terminates the instance,
    /// and Karpenter, polling every 5 s, sees it gone.
    fn drain_complete(&mut self, n: usize) {
        let grace_end = self
            .termination
            .drain_grace
            .get(&n)
            .copied()
            .unwrap_or(self.now)
            .max(self.now);
        self.termination.drained.insert(n, self.now);
        let name = self.cluster.nodes[n].name.clone();
        self.event(EventKind::Drained {
            nodeclaim: self.cluster.nodes[n].claim_name(),
            node: name,
        });
        let mut rng = self.rng.fork(pod::stable_hash(&[
            "terminate",
            &self.cluster.nodes[n].name,
        ]));
        let mut at = grace_end + 5_000 + rng.below(10_000);
        if let Some(reclaim) = self.cluster.nodes[n].reclaim_at {
            at = at.min(reclaim.max(self.now));
        }
        self.schedule(at, Action::TerminationDone(n));
    }

    pub(super) fn termination_done(&mut self, n: usize) {
        if !self.cluster.nodes[n].exists() {
            return;
        }
        self.remove_nodeclaim(n, true);
    }

    /// The NodeClaim's finalizer is done: the Node and NodeClaim are gone (`launched`: an
    /// instance had been running), with any pods still on them; commands waiting on it and
    /// EC2NodeClasses waiting for it move on.
    pub(super) fn remove_nodeclaim(&mut self, n: usize, launched: bool) {
        // An instance EC2 reclaimed before the drain finished takes its pods with it.
        for p in self.cluster.pods_on(n) {
            if self.cluster.pods[p].is_active() && !self.cluster.pods[p].is_daemon() {
                let w = self.cluster.pods[p].workload;
                self.delete_pod(p);
                self.replace_pod(w);
            }
            self.cluster.pods[p].deleted = true;
        }
        self.cluster.nodes[n].deleted = true;
        if launched {
            self.left_reservation(n);
        }
        self.termination.drain_grace.remove(&n);
        self.termination.drained.remove(&n);
        self.termination.drain_parked.remove(&n);
        self.cluster.version += 1;
        let name = self.cluster.nodes[n].name.clone();
        self.event(EventKind::NodeClaimDeleted {
            nodeclaim: self.cluster.nodes[n].claim_name(),
            node: name,
            launched,
        });
        self.advance_commands();
        self.finish_node_class_deletions();
    }

    /// `expireAfter` has passed since the NodeClaim was created: it is deleted, whatever the
    /// budgets say and without a replacement launched first; its pods go back to pending and
    /// are provisioned for like any others.
    pub(super) fn expire(&mut self, n: usize) {
        let node = &self.cluster.nodes[n];
        if !node.exists() || node.state == NodeState::Deleting || node.expire_at != Some(self.now) {
            return;
        }
        let nodeclaim = node.claim_name();
        self.event(EventKind::Expired { nodeclaim });
        self.terminate(n, TerminationCause::Expired);
    }

    /// A spot interruption warning for one node: Karpenter deletes the NodeClaim at once
    /// (taint, drain); its pods go pending and a new node is provisioned for them while EC2
    /// counts down its two minutes.
    pub(super) fn interrupt(&mut self, nodepool: Option<&str>, node: Option<&str>) {
        let target = match (node, nodepool) {
            (Some(name), _) => self
                .cluster
                .nodes
                .iter()
                .position(|n| n.exists() && n.name == name),
            (None, Some(pool)) => {
                let mut spot: Vec<usize> = (0..self.cluster.nodes.len())
                    .filter(|&n| {
                        let nd = &self.cluster.nodes[n];
                        nd.exists()
                            && nd.state != NodeState::Deleting
                            && interruptible(nd)
                            && nd
                                .nodepool
                                .is_some_and(|p| self.cluster.node_pools[p].name == pool)
                    })
                    .collect();
                // The oldest spot node of the pool.
                spot.sort_by(|&a, &b| {
                    self.cluster.nodes[a]
                        .created_order(&self.cluster.nodes[b])
                        .then(self.cluster.nodes[a].name.cmp(&self.cluster.nodes[b].name))
                });
                spot.first().copied()
            }
            (None, None) => None,
        };
        let Some(n) = target else {
            let target = match (node, nodepool) {
                (Some(n), _) => InterruptTarget::Node(n.into()),
                (None, Some(p)) => InterruptTarget::NodePool(p.into()),
                (None, None) => InterruptTarget::Unnamed,
            };
            self.event(EventKind::TimelineSkipped(Skip::NothingToInterrupt {
                target,
            }));
            return;
        };
        if !interruptible(&self.cluster.nodes[n])
            || self.cluster.nodes[n].state == NodeState::Deleting
        {
            let node = self.cluster.nodes[n].name.clone();
            self.event(EventKind::TimelineSkipped(Skip::NotRunningSpot { node }));
            return;
        }
        // An interruptible capacity reservation's owner takes it back, with the same 2-minute
        // notice (`CapacityReservationInstanceInterrupted`): Karpenter drains the node and
        // counts the reservation as full until EC2 next reports it.
        if let Some(id) = self.cluster.nodes[n].reservation.clone() {
            self.cloud.mark_reservation_full(&id);
            let reclaim = self.now + SPOT_NOTICE;
            self.cluster.nodes[n].reclaim_at = Some(reclaim);
            self.event(EventKind::ReservationInterrupted {
                node: self.cluster.nodes[n].name.clone(),
                reservation: id,
                reclaim_at: reclaim,
            });
            self.schedule(reclaim, Action::TerminationDone(n));
            self.terminate(n, TerminationCause::ReservationInterruption);
            return;
        }
        // The AWS provider first marks the reclaimed offering unavailable for 3 minutes, so
        // the pods do not go straight back to the type EC2 is taking away.
        let (instance_type, zone) = (
            self.cluster.nodes[n].instance_type.clone(),
            self.cluster.nodes[n].zone.clone(),
        );
        self.mark_unavailable(&instance_type, &zone, CapacityType::Spot);
        let reclaim = self.now + SPOT_NOTICE;
        self.cluster.nodes[n].reclaim_at = Some(reclaim);
        self.event(EventKind::SpotInterrupted {
            node: self.cluster.nodes[n].name.clone(),
            reclaim_at: reclaim,
        });
        self.schedule(reclaim, Action::TerminationDone(n));
        self.terminate(n, TerminationCause::SpotInterruption);
    }

    /// EC2NodeClasses whose deletion waited for their NodeClaims, now gone.
    pub(super) fn finish_node_class_deletions(&mut self) {
        let waiting: Vec<String> = self.cluster.node_classes_deleting.iter().cloned().collect();
        for name in waiting {
            let in_use = self.cluster.nodes.iter().any(|n| {
                n.exists()
                    && n.nodepool
                        .is_some_and(|p| self.cluster.node_pools[p].node_class_ref.key() == name)
                    && n.nodeclaim.is_some()
            });
            if !in_use {
                self.cluster.node_classes_deleting.remove(&name);
                self.cluster.node_classes.remove(&name);
                self.cloud.forget_catalog(&name);
                self.cluster.version += 1;
                self.event(EventKind::NodeClassDeleted { node_class: name });
            }
        }
    }
}

/// Whether EC2 may interrupt the node: spot, or in an interruptible capacity reservation.
fn interruptible(node: &Node) -> bool {
    node.capacity_type == CapacityType::Spot
        || (node.reservation.is_some()
            && node
                .labels
                .get(wk::RESERVATION_INTERRUPTIBLE)
                .is_some_and(|v| v == "true"))
}

//! Static NodePools (`spec.replicas`, v1.8+, gate `StaticCapacity`): Karpenter's
//! `static.provisioning` and `static.deprovisioning` controllers (`pkg/controllers/static/`
//! at v1.14.1). A static pool holds its replica count whatever the pods: it is never a
//! template for pending pods nor a consolidation candidate, its NodeClaims are launched from
//! the pool's requirements alone (the cloud provider picks the cheapest compatible offering),
//! and a scale-down deletes NodeClaims directly, outside disruption budgets, their pods
//! drained as any deletion drains them (PodDisruptionBudgets and `terminationGracePeriod`
//! honoured).

use super::event::TerminationCause;
use super::*;

impl Simulation {
    /// Whether static NodePools run: the version has them and the gate is on.
    pub(super) fn static_pools_run(&self) -> bool {
        self.karpenter.follows(Behaviour::StaticNodePools)
            && self.karpenter.gate(Gate::StaticCapacity)
    }

    /// Both controllers' reconcile of every static NodePool.
    pub(super) fn reconcile_static_pools(&mut self) {
        if !self.static_pools_run() || !self.cluster.node_pools.iter().any(NodePool::is_static) {
            return;
        }
        for pool in 0..self.cluster.node_pools.len() {
            let np = &self.cluster.node_pools[pool];
            let Some(desired) = np.replicas else { continue };
            if self.cluster.pool_deleted[pool]
                || np.invalid.is_some()
                || self
                    .cluster
                    .node_classes_deleting
                    .contains(np.node_class_ref.key().as_ref())
            {
                continue;
            }
            let (nodes, running, pending_disruption) = self.static_pool_counts(pool);
            let desired = desired as usize;
            if running.len() + pending_disruption < desired {
                // `ReserveNodeCount`: never past `limits.nodes`, counting every NodeClaim of
                // the pool, deleting ones included.
                let room = np.limits.nodes.map_or(usize::MAX, |l| {
                    (l.max(0) as usize).saturating_sub(nodes.len())
                });
                let count = (desired - running.len()).min(room);
                for _ in 0..count {
                    self.create_static_nodeclaim(pool);
                }
            } else if running.len() > desired {
                let excess = running.len() - desired;
                for n in self
                    .static_scale_down_order(running)
                    .into_iter()
                    .take(excess)
                {
                    self.terminate(n, TerminationCause::StaticScaleDown);
                }
            }
        }
    }

    /// A static pool's NodeClaims (`GetNodeCount`): all of them, deleting ones included; the
    /// running ones (active); and how many a disruption command holds.
    pub(super) fn static_pool_counts(&self, pool: usize) -> (Vec<usize>, Vec<usize>, usize) {
        let nodes: Vec<usize> = (0..self.cluster.nodes.len())
            .filter(|&n| {
                let node = &self.cluster.nodes[n];
                node.exists() && node.nodepool == Some(pool)
            })
            .collect();
        let running: Vec<usize> = nodes
            .iter()
            .copied()
            .filter(|&n| self.cluster.nodes[n].active())
            .collect();
        let pending = nodes
            .iter()
            .filter(|&&n| {
                let node = &self.cluster.nodes[n];
                node.state != NodeState::Deleting && node.disruption.is_some()
            })
            .count();
        (nodes, running, pending)
    }

    /// `getDeprovisioningCandidates`: NodeClaims that never launched, then empty nodes,
    /// then the cheapest to disrupt (eviction costs times the share of `expireAfter` left;
    /// a node holding a `do-not-disrupt` pod last); ties by name.
    fn static_scale_down_order(&self, mut running: Vec<usize>) -> Vec<usize> {
        let by_node = self.cluster.active_pods_by_node();
        let key = |n: usize| {
            let node = &self.cluster.nodes[n];
            let launched = node.state != NodeState::Launching;
            let pods: Vec<usize> = by_node[n]
                .iter()
                .copied()
                .filter(|&p| !self.cluster.pods[p].is_daemon())
                .collect();
            let held = by_node[n].iter().any(|&p| {
                self.cluster.pod_do_not_disrupt(p, self.now) != disruption::DoNotDisrupt::No
            });
            let cost: f64 = pods.iter().map(|&p| self.pod_eviction_cost(p)).sum::<f64>()
                * disruption::lifetime_remaining(
                    node.expire_at
                        .map(|at| at.saturating_sub(node.created_at) + node.age_at_start),
                    node.age(self.now),
                );
            (launched, !pods.is_empty(), held, cost)
        };
        running.sort_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            (ka.0, ka.1, ka.2)
                .cmp(&(kb.0, kb.1, kb.2))
                .then(ka.3.total_cmp(&kb.3))
                .then_with(|| self.cluster.nodes[a].name.cmp(&self.cluster.nodes[b].name))
        });
        running
    }

    /// A NodeClaim from the pool's template alone: every instance type the pool allows is an
    /// option, and the launch takes the cheapest available offering.
    fn create_static_nodeclaim(&mut self, pool: usize) {
        let (templates, fills) = self.build_templates_for(|p| p == pool);
        self.remember_candidates(fills);
        let Some(tpl) = templates.into_iter().next() else {
            return;
        };
        let claim = scheduling::NewClaim::for_template(0, &tpl);
        if claim.options.is_empty() {
            return;
        }
        self.create_nodeclaim(&tpl, &claim, None);
    }
}

//! The NodeClaim lifecycle controller: a NodeClaim the provisioner (or a disruption command)
//! created is launched by the cloud provider, registers as a Node, and is initialized once
//! Ready with its startup taints gone.
//!
//! Sources: `K@1.14.1:pkg/controllers/nodeclaim/lifecycle/` (launch.go, registration.go,
//! initialization.go). It never creates or deletes a NodeClaim (a launch the cloud provider
//! refuses is handed to the provider's failure path) and never binds a pod.

use super::*;

impl Simulation {
    pub(super) fn launch(&mut self, n: usize) {
        if self.cluster.nodes[n].deleted {
            return;
        }
        if self
            .recorder
            .evidence
            .claims
            .get(&n)
            .is_some_and(|c| c.launch.chosen.is_none() && !c.launch.ice.is_empty())
        {
            self.fail_launch(n);
            return;
        }
        self.cluster.nodes[n].state = NodeState::Launched;
        self.cluster.version += 1;
        let node = &self.cluster.nodes[n];
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
            .fork(pod::stable_hash(&["register", &self.cluster.nodes[n].name]));
        let at = self.now + 28_000 + rng.below(10_000);
        self.schedule(at, Action::Register(n));
    }

    pub(super) fn register(&mut self, n: usize) {
        if self.cluster.nodes[n].deleted {
            return;
        }
        self.cluster.nodes[n].state = NodeState::Registered;
        self.cluster.nodes[n]
            .labels
            .insert(wk::REGISTERED.into(), "true".into());
        self.cluster.version += 1;
        let name = self.cluster.nodes[n].name.clone();
        self.event(EventKind::Registered {
            nodeclaim: name.clone(),
            node: name,
        });
        let mut rng = self
            .rng
            .fork(pod::stable_hash(&["ready", &self.cluster.nodes[n].name]));
        // Node Ready takes ~10 s after registration; startup taints are lifted a few seconds
        // after registration by the agent that owns them.
        let at = self.now + 8_000 + rng.below(8_000);
        self.schedule(at, Action::Initialize(n));
    }

    pub(super) fn initialize(&mut self, n: usize) {
        if self.cluster.nodes[n].deleted {
            return;
        }
        let node = &mut self.cluster.nodes[n];
        node.state = NodeState::Ready;
        node.initialized_at = Some(self.now);
        node.startup_taints.clear();
        node.labels.insert(wk::INITIALIZED.into(), "true".into());
        self.cluster.version += 1;
        // The startup taints are gone: DaemonSets that did not tolerate them start now.
        let present = self.cluster.pods_on(n);
        self.sync_daemon_pods(n, &present);
        for p in self.cluster.pods_on(n) {
            if self.cluster.pods[p].phase == Phase::Pending {
                self.cluster.pods[p].phase = Phase::Running;
            }
        }
        let name = self.cluster.nodes[n].name.clone();
        self.event(EventKind::Initialized {
            nodeclaim: name.clone(),
            node: name,
        });
        self.advance_commands();
    }
}

//! The scenario's Timeline: scaling, deleting and applying objects, spot interruptions and
//! AMI releases at given simulated times (`docs/scenario-format.md` §1.3).

use super::event::{PodRef, Skip, TerminationCause};
use super::*;

fn pod_ref(namespace: &str, name: &str) -> PodRef {
    PodRef {
        namespace: namespace.into(),
        name: name.into(),
    }
}

impl Simulation {
    pub(super) fn timeline_step(&mut self, i: usize) {
        let step = self.timeline[i].clone();
        match step.action {
            TimelineAction::Scale {
                kind,
                name,
                namespace,
                replicas,
            } => {
                let Some(w) = self.cluster.find_workload(kind.as_str(), &name, &namespace) else {
                    self.event(EventKind::TimelineSkipped(Skip::NoWorkloadToScale {
                        kind,
                        namespace,
                        name,
                    }));
                    return;
                };
                self.cluster.workloads[w].replicas = replicas;
                let mut live: Vec<usize> = (0..self.cluster.pods.len())
                    .filter(|&p| {
                        self.cluster.pods[p].workload == w && self.cluster.pods[p].is_active()
                    })
                    .collect();
                while (live.len() as u32) < replicas {
                    let p = self.add_replica(w);
                    live.push(p);
                }
                // Scale-down removes pending pods first, then the newest; a StatefulSet
                // removes its highest ordinals first, whatever their state.
                if kind == WorkloadKind::StatefulSet {
                    let prefix = format!("{name}-");
                    let ordinal = |p: usize| -> u32 {
                        self.cluster.pods[p]
                            .name
                            .strip_prefix(&prefix)
                            .and_then(|o| o.parse().ok())
                            .unwrap_or(0)
                    };
                    live.sort_by_key(|&p| core::cmp::Reverse(ordinal(p)));
                } else {
                    live.sort_by_key(|&p| {
                        (
                            self.cluster.pods[p].node.is_some(),
                            core::cmp::Reverse(self.cluster.pods[p].seq),
                        )
                    });
                }
                while (live.len() as u32) > replicas {
                    let p = live.remove(0);
                    self.delete_pod(p);
                }
                self.event(EventKind::Scaled {
                    kind,
                    namespace,
                    name,
                    replicas,
                });
            }
            TimelineAction::ScaleNodePool { name, replicas } => {
                let Some(np) = self.cluster.node_pools.iter().position(|p| p.name == name) else {
                    return;
                };
                if self.cluster.node_pools[np].replicas.is_none() {
                    // A dynamic NodePool has no scale subresource: kubectl refuses.
                    return;
                }
                self.cluster.node_pools[np].replicas = Some(replicas);
                self.cluster.version += 1;
                self.event(EventKind::NodePoolScaled {
                    node_pool: name,
                    replicas,
                });
            }
            TimelineAction::Delete {
                kind,
                name,
                namespace,
            } => {
                if kind == "NodePool" {
                    // The pool stops provisioning, and its NodeClaims are deleted with it
                    // (they are owned by the pool): every node drains and terminates, no
                    // budget applies.
                    if let Some(np) = self.cluster.node_pools.iter().position(|p| p.name == name) {
                        self.cluster.pool_deleted[np] = true;
                        self.cluster.version += 1;
                        self.event(EventKind::NodePoolDeleted { node_pool: name });
                        for n in 0..self.cluster.nodes.len() {
                            if self.cluster.nodes[n].exists()
                                && self.cluster.nodes[n].nodepool == Some(np)
                                && self.cluster.nodes[n].state != NodeState::Deleting
                            {
                                self.terminate(n, TerminationCause::NodePoolDeleted);
                            }
                        }
                    }
                    return;
                }
                if kind == "EC2NodeClass" {
                    self.delete_node_class(&name);
                    return;
                }
                if kind == crate::automode::KIND {
                    self.delete_node_class(&crate::automode::class_key(&name));
                    return;
                }
                if kind == "PodDisruptionBudget" {
                    if let Some(i) = self
                        .cluster
                        .pdbs
                        .iter()
                        .position(|p| p.name == name && p.namespace == namespace)
                    {
                        self.cluster.pdbs.remove(i);
                        self.cluster.version += 1;
                        self.event(EventKind::PdbDeleted { namespace, name });
                    }
                    return;
                }
                if kind == "Node" || kind == "NodeClaim" {
                    self.delete_node_object(&kind, &name);
                    return;
                }
                if kind == "CapacityBuffer" {
                    self.delete_buffer(&namespace, &name);
                    return;
                }
                if kind == "Pod"
                    && self
                        .cluster
                        .find_workload("Pod", &name, &namespace)
                        .is_none()
                {
                    self.delete_replica(&name, &namespace);
                    return;
                }
                if let Some(w) = self.cluster.find_workload(&kind, &name, &namespace) {
                    self.cluster.workload_state[w].deleted = true;
                    for p in 0..self.cluster.pods.len() {
                        if self.cluster.pods[p].workload == w {
                            self.delete_pod(p);
                        }
                    }
                    let kind = self.cluster.workloads[w].kind;
                    self.event(EventKind::WorkloadDeleted {
                        kind,
                        namespace,
                        name,
                    });
                }
            }
            TimelineAction::Apply(obj) => match *obj {
                AppliedObject::CapacityBuffer(buffer) => self.apply_buffer(buffer),
                AppliedObject::NodePool(np) => {
                    match self
                        .cluster
                        .node_pools
                        .iter()
                        .position(|p| p.name == np.name)
                    {
                        Some(i) => {
                            self.cluster.node_pools[i] = np;
                            self.cluster.pool_deleted[i] = false;
                        }
                        None => {
                            self.cluster.node_pools.push(np);
                            self.cluster.pool_deleted.push(false);
                        }
                    }
                    self.cluster.version += 1;
                    self.detect_drift();
                }
                AppliedObject::NodeClass(nc) => {
                    let key = nc.key().into_owned();
                    let prefilter = catalog::Prefilter::for_pools(self.pools_using(&key));
                    self.cloud.resolve(&nc, &prefilter);
                    self.cluster.node_classes_deleting.remove(&key);
                    self.cluster.node_classes.insert(key, nc);
                    self.cluster.version += 1;
                    self.detect_drift();
                }
                AppliedObject::Workload(wl) => {
                    let existing =
                        self.cluster
                            .find_workload(wl.kind.as_str(), &wl.name, &wl.namespace);
                    match existing {
                        // A DaemonSet applied unchanged: its pods follow the nodes, not replicas.
                        Some(w)
                            if self.cluster.workloads[w].template == wl.template
                                && wl.kind == WorkloadKind::DaemonSet =>
                        {
                            self.cluster.workloads[w] = wl;
                        }
                        Some(w)
                            if self.cluster.workloads[w].template == wl.template
                                && wl.kind != WorkloadKind::Pod =>
                        {
                            self.cluster.workloads[w] = wl.clone();
                            let replicas = wl.replicas;
                            self.timeline.push(TimelineStep {
                                at: self.now,
                                action: TimelineAction::Scale {
                                    kind: wl.kind,
                                    name: wl.name,
                                    namespace: wl.namespace,
                                    replicas,
                                },
                            });
                            let idx = self.timeline.len() - 1;
                            self.timeline_step(idx);
                        }
                        Some(w) => {
                            for p in 0..self.cluster.pods.len() {
                                if self.cluster.pods[p].workload == w {
                                    self.delete_pod(p);
                                }
                            }
                            self.cluster.specs[w] = Rc::new(wl.template.spec.clone());
                            self.cluster.workloads[w] = wl;
                            self.cluster.workload_state[w].revision += 1;
                            self.cluster.workload_state[w].deleted = false;
                            self.start_workload(w);
                        }
                        None => {
                            self.cluster.specs.push(Rc::new(wl.template.spec.clone()));
                            self.cluster.workloads.push(wl);
                            self.cluster.workload_state.push(WorkloadState::default());
                            let w = self.cluster.workloads.len() - 1;
                            self.start_workload(w);
                        }
                    }
                }
                AppliedObject::Pdb(pdb) => {
                    match self
                        .cluster
                        .pdbs
                        .iter()
                        .position(|p| p.name == pdb.name && p.namespace == pdb.namespace)
                    {
                        Some(i) => self.cluster.pdbs[i] = pdb,
                        None => self.cluster.pdbs.push(pdb),
                    }
                    self.cluster.version += 1;
                }
                // Admission reads the classes when a pod is created: the pods created from
                // now on see this one.
                AppliedObject::PriorityClass(class) => self.cluster.priority_classes.apply(class),
            },
            TimelineAction::InsufficientCapacity {
                instance_type,
                zone,
                capacity_type,
                duration,
            } => self.start_shortage(capacity::Shortage {
                offerings: event::Offerings {
                    instance_type,
                    zone,
                    capacity_type,
                },
                until: duration.map(|d| self.now + d),
            }),
            TimelineAction::Interrupt { nodepool, node } => {
                self.interrupt(nodepool.as_deref(), node.as_deref())
            }
            TimelineAction::Cordon {
                node,
                unschedulable,
            } => self.cordon(&node, unschedulable),
            TimelineAction::NodeCondition {
                nodepool,
                node,
                condition,
                status,
            } => self.set_node_condition(nodepool.as_deref(), node.as_deref(), &condition, &status),
            TimelineAction::Annotate {
                kind,
                name,
                namespace,
                set,
                remove,
            } => self.annotate(&kind, &name, &namespace, &set, &remove),
            TimelineAction::ReleaseAmi { alias } => {
                let family = alias.split('@').next().unwrap_or_default().to_string();
                let release = self.cloud.release_ami(&family);
                let image = capacity::image_id(&family, release);
                self.event(EventKind::AmiReleased { family, image });
                self.cluster.version += 1;
                self.detect_drift();
            }
        }
    }

    /// `kubectl delete node` / `nodeclaim`: Karpenter's termination finalizer drains the node
    /// and terminates the instance. Nodes of a node group are not Karpenter's to terminate.
    fn delete_node_object(&mut self, kind: &str, name: &str) {
        let Some(n) = self.cluster.live_node(kind, name) else {
            self.event(EventKind::TimelineSkipped(Skip::NoNodeToDelete {
                kind: kind.into(),
                name: name.into(),
            }));
            return;
        };
        if self.cluster.nodes[n].nodeclaim.is_none() {
            self.event(EventKind::TimelineSkipped(Skip::NodeGroupNode {
                node: name.into(),
            }));
            return;
        }
        if self.cluster.nodes[n].state != NodeState::Deleting {
            self.terminate(n, TerminationCause::Deleted);
        }
    }

    /// `kubectl delete pod` for a pod a controller owns: the pod goes, and its ReplicaSet or
    /// Job creates another one at once (a DaemonSet's pod would come straight back: left be).
    fn delete_replica(&mut self, name: &str, namespace: &str) {
        let Some(p) = self
            .cluster
            .pods
            .iter()
            .position(|p| p.is_active() && p.name == name && p.namespace == namespace)
        else {
            self.event(EventKind::TimelineSkipped(Skip::NoPodToDelete {
                pod: pod_ref(namespace, name),
            }));
            return;
        };
        if self.cluster.pods[p].is_daemon() {
            self.event(EventKind::TimelineSkipped(Skip::DaemonSetPod {
                pod: pod_ref(namespace, name),
            }));
            return;
        }
        let w = self.cluster.pods[p].workload;
        self.delete_pod(p);
        self.event(EventKind::Killing {
            pod: pod_ref(namespace, name),
        });
        if !self.cluster.workload_state[w].deleted
            && self.cluster.workloads[w].kind != WorkloadKind::Pod
        {
            self.add_replica(w);
        }
    }

    /// Cordoning taints the node `node.kubernetes.io/unschedulable:NoSchedule`, as the node
    /// lifecycle controller does for `spec.unschedulable`; kube-scheduler and Karpenter both
    /// read the taint.
    fn cordon(&mut self, name: &str, unschedulable: bool) {
        let Some(n) = self.cluster.live_node("Node", name) else {
            self.event(EventKind::TimelineSkipped(Skip::NoNodeToCordon {
                node: name.into(),
            }));
            return;
        };
        let taints = &mut self.cluster.nodes[n].taints;
        let has = taints.iter().any(|t| t.key == wk::UNSCHEDULABLE_TAINT);
        if unschedulable && !has {
            taints.push(Taint::new(
                wk::UNSCHEDULABLE_TAINT,
                "",
                TaintEffect::NoSchedule,
            ));
        } else if !unschedulable && has {
            taints.retain(|t| t.key != wk::UNSCHEDULABLE_TAINT);
        } else {
            return;
        }
        self.cluster.version += 1;
        self.event(EventKind::Cordoned {
            node: name.into(),
            unschedulable,
        });
    }

    /// Annotations on a live object. On a Node (or its NodeClaim) and on a Pod,
    /// `karpenter.sh/do-not-disrupt` is what the disruption controller and the drain read.
    fn annotate(
        &mut self,
        kind: &str,
        name: &str,
        namespace: &str,
        set: &StringMap,
        remove: &[String],
    ) {
        let target = match kind {
            "Pod" => self
                .cluster
                .pods
                .iter()
                .position(|p| p.is_active() && p.name == name && p.namespace == namespace)
                .map(|p| &mut self.cluster.pods[p].annotations),
            _ => self
                .cluster
                .live_node(kind, name)
                .map(|n| &mut self.cluster.nodes[n].annotations),
        };
        let Some(annotations) = target else {
            self.event(EventKind::TimelineSkipped(Skip::NoObjectToAnnotate {
                kind: kind.into(),
                namespace: namespace.into(),
                name: name.into(),
            }));
            return;
        };
        for key in remove {
            annotations.remove(key);
        }
        for (k, v) in set {
            annotations.insert(k.clone(), v.clone());
        }
        self.cluster.version += 1;
    }

    /// Deleting an EC2NodeClass: its NodePools can no longer launch, and the object stays
    /// (finalizer) until no NodeClaim uses it.
    fn delete_node_class(&mut self, name: &str) {
        if !self.cluster.node_classes.contains_key(name) {
            return;
        }
        self.cluster.node_classes_deleting.insert(name.into());
        self.cluster.version += 1;
        let users: Vec<String> = self
            .cluster
            .nodes
            .iter()
            .filter(|n| {
                n.exists()
                    && n.nodeclaim.is_some()
                    && n.nodepool
                        .is_some_and(|p| self.cluster.node_pools[p].node_class_ref.key() == name)
            })
            .map(|n| n.name.clone())
            .collect();
        if !users.is_empty() {
            self.event(EventKind::NodeClassWaiting {
                node_class: name.into(),
                nodeclaims: users,
            });
        }
        self.finish_node_class_deletions();
    }
}

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
    fn find_workload(&self, kind: &str, name: &str, namespace: &str) -> Option<usize> {
        self.workloads
            .iter()
            .position(|w| w.kind.as_str() == kind && w.name == name && w.namespace == namespace)
    }

    pub(super) fn timeline_step(&mut self, i: usize) {
        let step = self.timeline[i].clone();
        match step.action {
            TimelineAction::Scale {
                kind,
                name,
                namespace,
                replicas,
            } => {
                let Some(w) = self.find_workload(kind.as_str(), &name, &namespace) else {
                    self.event(EventKind::TimelineSkipped(Skip::NoWorkloadToScale {
                        kind,
                        namespace,
                        name,
                    }));
                    return;
                };
                self.workloads[w].replicas = replicas;
                let mut live: Vec<usize> = (0..self.pods.len())
                    .filter(|&p| self.pods[p].workload == w && self.pods[p].is_active())
                    .collect();
                while (live.len() as u32) < replicas {
                    let p = self.add_replica(w);
                    live.push(p);
                }
                // Scale-down removes pending pods first, then the newest.
                live.sort_by_key(|&p| {
                    (
                        self.pods[p].node.is_some(),
                        core::cmp::Reverse(self.pods[p].seq),
                    )
                });
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
            TimelineAction::Delete {
                kind,
                name,
                namespace,
            } => {
                if kind == "NodePool" {
                    // The pool stops provisioning, and its NodeClaims are deleted with it
                    // (they are owned by the pool): every node drains and terminates, no
                    // budget applies.
                    if let Some(np) = self.node_pools.iter().position(|p| p.name == name) {
                        self.pool_deleted[np] = true;
                        self.version += 1;
                        self.event(EventKind::NodePoolDeleted { node_pool: name });
                        for n in 0..self.nodes.len() {
                            if self.nodes[n].exists()
                                && self.nodes[n].nodepool == Some(np)
                                && self.nodes[n].state != NodeState::Deleting
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
                if kind == "PodDisruptionBudget" {
                    if let Some(i) = self
                        .pdbs
                        .iter()
                        .position(|p| p.name == name && p.namespace == namespace)
                    {
                        self.pdbs.remove(i);
                        self.version += 1;
                        self.event(EventKind::PdbDeleted { namespace, name });
                    }
                    return;
                }
                if kind == "Node" || kind == "NodeClaim" {
                    self.delete_node_object(&kind, &name);
                    return;
                }
                if kind == "Pod" && self.find_workload("Pod", &name, &namespace).is_none() {
                    self.delete_replica(&name, &namespace);
                    return;
                }
                if let Some(w) = self.find_workload(&kind, &name, &namespace) {
                    self.workload_state[w].deleted = true;
                    for p in 0..self.pods.len() {
                        if self.pods[p].workload == w {
                            self.delete_pod(p);
                        }
                    }
                    let kind = self.workloads[w].kind;
                    self.event(EventKind::WorkloadDeleted {
                        kind,
                        namespace,
                        name,
                    });
                }
            }
            TimelineAction::Apply(obj) => match *obj {
                AppliedObject::NodePool(np) => {
                    match self.node_pools.iter().position(|p| p.name == np.name) {
                        Some(i) => {
                            self.node_pools[i] = np;
                            self.pool_deleted[i] = false;
                        }
                        None => {
                            self.node_pools.push(np);
                            self.pool_deleted.push(false);
                        }
                    }
                    self.version += 1;
                    self.detect_drift();
                }
                AppliedObject::NodeClass(nc) => {
                    let prefilter = catalog::Prefilter::for_pools(self.pools_using(&nc.name));
                    let types = if self.custom_types.is_empty() {
                        catalog::aws::instance_types_where(
                            &self.region,
                            &self.zones,
                            &nc,
                            &prefilter,
                        )
                    } else {
                        catalog::resolve(&self.region, &self.zones, &nc, &self.custom_types)
                    };
                    if let Ok(types) = types {
                        self.catalogs.insert(nc.name.clone(), Rc::new(types));
                    }
                    self.node_classes_deleting.remove(&nc.name);
                    self.node_classes.insert(nc.name.clone(), nc);
                    self.version += 1;
                    self.detect_drift();
                }
                AppliedObject::Workload(wl) => {
                    let existing = self.find_workload(wl.kind.as_str(), &wl.name, &wl.namespace);
                    match existing {
                        // A DaemonSet applied unchanged: its pods follow the nodes, not replicas.
                        Some(w)
                            if self.workloads[w].template == wl.template
                                && wl.kind == WorkloadKind::DaemonSet =>
                        {
                            self.workloads[w] = wl;
                        }
                        Some(w)
                            if self.workloads[w].template == wl.template
                                && wl.kind != WorkloadKind::Pod =>
                        {
                            self.workloads[w] = wl.clone();
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
                            for p in 0..self.pods.len() {
                                if self.pods[p].workload == w {
                                    self.delete_pod(p);
                                }
                            }
                            self.specs[w] = Rc::new(wl.template.spec.clone());
                            self.workloads[w] = wl;
                            self.workload_state[w].revision += 1;
                            self.workload_state[w].deleted = false;
                            self.start_workload(w);
                        }
                        None => {
                            self.specs.push(Rc::new(wl.template.spec.clone()));
                            self.workloads.push(wl);
                            self.workload_state.push(WorkloadState::default());
                            let w = self.workloads.len() - 1;
                            self.start_workload(w);
                        }
                    }
                }
                AppliedObject::Pdb(pdb) => {
                    match self
                        .pdbs
                        .iter()
                        .position(|p| p.name == pdb.name && p.namespace == pdb.namespace)
                    {
                        Some(i) => self.pdbs[i] = pdb,
                        None => self.pdbs.push(pdb),
                    }
                    self.version += 1;
                }
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
            TimelineAction::Annotate {
                kind,
                name,
                namespace,
                set,
                remove,
            } => self.annotate(&kind, &name, &namespace, &set, &remove),
            TimelineAction::ReleaseAmi { alias } => {
                let family = alias.split('@').next().unwrap_or_default().to_string();
                let release = {
                    let r = self.ami_releases.entry(family.clone()).or_insert(0);
                    *r += 1;
                    *r
                };
                let image = image_id(&family, release);
                self.event(EventKind::AmiReleased { family, image });
                self.version += 1;
                self.detect_drift();
            }
        }
    }

    fn live_node(&self, kind: &str, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| {
            n.exists()
                && if kind == "NodeClaim" {
                    n.nodeclaim.as_deref() == Some(name)
                } else {
                    n.name == name
                }
        })
    }

    /// `kubectl delete node` / `nodeclaim`: Karpenter's termination finalizer drains the node
    /// and terminates the instance. Nodes of a node group are not Karpenter's to terminate.
    fn delete_node_object(&mut self, kind: &str, name: &str) {
        let Some(n) = self.live_node(kind, name) else {
            self.event(EventKind::TimelineSkipped(Skip::NoNodeToDelete {
                kind: kind.into(),
                name: name.into(),
            }));
            return;
        };
        if self.nodes[n].nodeclaim.is_none() {
            self.event(EventKind::TimelineSkipped(Skip::NodeGroupNode {
                node: name.into(),
            }));
            return;
        }
        if self.nodes[n].state != NodeState::Deleting {
            self.terminate(n, TerminationCause::Deleted);
        }
    }

    /// `kubectl delete pod` for a pod a controller owns: the pod goes, and its ReplicaSet or
    /// Job creates another one at once (a DaemonSet's pod would come straight back: left be).
    fn delete_replica(&mut self, name: &str, namespace: &str) {
        let Some(p) = self
            .pods
            .iter()
            .position(|p| p.is_active() && p.name == name && p.namespace == namespace)
        else {
            self.event(EventKind::TimelineSkipped(Skip::NoPodToDelete {
                pod: pod_ref(namespace, name),
            }));
            return;
        };
        if self.pods[p].is_daemon() {
            self.event(EventKind::TimelineSkipped(Skip::DaemonSetPod {
                pod: pod_ref(namespace, name),
            }));
            return;
        }
        let w = self.pods[p].workload;
        self.delete_pod(p);
        self.event(EventKind::Killing {
            pod: pod_ref(namespace, name),
        });
        if !self.workload_state[w].deleted && self.workloads[w].kind != WorkloadKind::Pod {
            self.add_replica(w);
        }
    }

    /// Cordoning taints the node `node.kubernetes.io/unschedulable:NoSchedule`, as the node
    /// lifecycle controller does for `spec.unschedulable`; kube-scheduler and Karpenter both
    /// read the taint.
    fn cordon(&mut self, name: &str, unschedulable: bool) {
        let Some(n) = self.live_node("Node", name) else {
            self.event(EventKind::TimelineSkipped(Skip::NoNodeToCordon {
                node: name.into(),
            }));
            return;
        };
        let taints = &mut self.nodes[n].taints;
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
        self.version += 1;
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
                .pods
                .iter()
                .position(|p| p.is_active() && p.name == name && p.namespace == namespace)
                .map(|p| &mut self.pods[p].annotations),
            _ => self
                .live_node(kind, name)
                .map(|n| &mut self.nodes[n].annotations),
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
        self.version += 1;
    }

    /// Deleting an EC2NodeClass: its NodePools can no longer launch, and the object stays
    /// (finalizer) until no NodeClaim uses it.
    fn delete_node_class(&mut self, name: &str) {
        if !self.node_classes.contains_key(name) {
            return;
        }
        self.node_classes_deleting.insert(name.into());
        self.version += 1;
        let users: Vec<String> = self
            .nodes
            .iter()
            .filter(|n| {
                n.exists()
                    && n.nodeclaim.is_some()
                    && n.nodepool
                        .is_some_and(|p| self.node_pools[p].node_class_ref.name == name)
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

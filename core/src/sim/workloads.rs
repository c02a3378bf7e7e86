//! The workload controllers and the kubelet's part in a pod's life: ReplicaSets,
//! StatefulSets and Jobs create replicas (and replace the ones that go), the DaemonSet
//! controller gives each node its daemon pods, Jobs' pods run to completion.
//!
//! They create and delete pods; they never bind one (kube-scheduler does) and never touch a
//! node's lifecycle.

use super::*;

impl Simulation {
    pub(super) fn new_pod(&mut self, w: usize, name: String, node: Option<usize>) -> usize {
        self.admit_priority(w);
        let wl = &self.cluster.workloads[w];
        let spec = self.cluster.specs[w].clone();
        let owner = if wl.kind == WorkloadKind::Pod {
            None
        } else {
            Some((wl.kind, wl.name.clone()))
        };
        let runtime = if wl.kind == WorkloadKind::Job {
            pod::job_runtime(&wl.template)
        } else {
            None
        };
        let requests = effective_requests(&spec);
        self.seq += 1;
        let label_class = self
            .cluster
            .label_classes
            .class_of(&wl.namespace, &wl.template.labels);
        let pod = Pod {
            name,
            namespace: wl.namespace.clone(),
            owner,
            workload: w,
            labels: wl.template.labels.clone(),
            label_class,
            annotations: wl.template.annotations.clone(),
            spec,
            requests,
            created_at: self.now,
            seq: self.seq,
            node,
            phase: Phase::Pending,
            runtime,
            nominated: None,
            karpenter_message: None,
            scheduler_message: None,
            triggered: false,
            deleted: false,
            started_at: None,
            nominated_node: None,
            preempted_until: None,
        };
        let p = self.cluster.add_pod(pod);
        self.cluster.version += 1;
        self.create_pod_claims(p);
        p
    }

    /// The Priority admission plugin as the workload's next pod is created: a pod that names
    /// no class (nor a priority) gets the global default class of this instant, which a
    /// Timeline step may have applied since the last one ([`crate::priority`]). A named
    /// class's value never changes, and the reader admitted the template against it.
    fn admit_priority(&mut self, w: usize) {
        let spec = &self.cluster.specs[w];
        if spec.priority_class_name.is_some() || spec.written_priority.is_some() {
            return;
        }
        let Ok(admitted) =
            self.cluster
                .priority_classes
                .admit(None, None, spec.written_preemption_policy)
        else {
            return;
        };
        if admitted.priority != spec.priority
            || admitted.preemption_policy != spec.preemption_policy
        {
            let mut changed = (**spec).clone();
            changed.priority = admitted.priority;
            changed.preemption_policy = admitted.preemption_policy;
            self.cluster.specs[w] = Rc::new(changed);
        }
    }

    pub(super) fn start_workload(&mut self, w: usize) {
        let wl = self.cluster.workloads[w].clone();
        match wl.kind {
            WorkloadKind::DaemonSet => {
                for n in 0..self.cluster.nodes.len() {
                    self.create_daemon_pod(w, n);
                }
            }
            WorkloadKind::Pod => {
                if self.start_existing_pods(w) == 0 {
                    self.new_pod(w, wl.name.clone(), None);
                }
            }
            WorkloadKind::Job => {
                let n = match wl.completions {
                    Some(c) => wl.replicas.min(c),
                    None => wl.replicas,
                };
                let existing = self.start_existing_pods(w);
                for _ in existing..n {
                    self.add_replica(w);
                }
            }
            _ => {
                let existing = self.start_existing_pods(w);
                for _ in existing..wl.replicas {
                    self.add_replica(w);
                }
            }
        }
    }

    pub(super) fn add_replica(&mut self, w: usize) -> usize {
        let ordinal = if self.cluster.workloads[w].kind == WorkloadKind::StatefulSet {
            // The StatefulSet controller keeps its pods at ordinals 0..replicas: a new pod
            // takes the lowest ordinal no live pod has, so a pod that comes back has its old
            // name (and its claims).
            self.free_ordinal(w)
        } else {
            let ordinal = self.cluster.workload_state[w].next_ordinal;
            self.cluster.workload_state[w].next_ordinal += 1;
            ordinal
        };
        let name = self.namer.pod_name(
            &self.cluster.workloads[w],
            ordinal,
            self.cluster.workload_state[w].revision,
        );
        self.new_pod(w, name, None)
    }

    /// The lowest ordinal of StatefulSet `w` that no active pod of it has.
    fn free_ordinal(&self, w: usize) -> u32 {
        let prefix = format!("{}-", self.cluster.workloads[w].name);
        let taken: alloc::collections::BTreeSet<u32> = self
            .cluster
            .pods
            .iter()
            .filter(|q| q.workload == w && q.is_active())
            .filter_map(|q| q.name.strip_prefix(&prefix)?.parse().ok())
            .collect();
        (0..).find(|o| !taken.contains(o)).unwrap_or(0)
    }

    /// Creates DaemonSet `w`'s pod on node `n` if the node should run one. The caller knows
    /// the node has none yet.
    pub(super) fn create_daemon_pod(&mut self, w: usize, n: usize) {
        let node = &self.cluster.nodes[n];
        if !node.exists() || node.state == NodeState::Deleting {
            return;
        }
        let mut taints = node.taints.clone();
        taints.extend(node.startup_taints.iter().cloned());
        if !self.cluster.daemon_fits(w, &node.labels.clone(), &taints) {
            return;
        }
        let name = self
            .namer
            .daemon_pod_name(&self.cluster.workloads[w], &node.name.clone());
        let p = self.new_pod(w, name, Some(n));
        if self.cluster.nodes[n].state == NodeState::Ready {
            self.cluster.pods[p].phase = Phase::Running;
        }
    }

    /// The DaemonSet controller's pass over a new node: every DaemonSet that should run
    /// there gets its pod.
    pub(super) fn create_daemon_pods(&mut self, n: usize) {
        self.sync_daemon_pods(n, &[]);
    }

    /// The DaemonSet controller's pass over a node: every DaemonSet that should run there
    /// and has no pod among `present` (the node's pods) gets one.
    pub(super) fn sync_daemon_pods(&mut self, n: usize, present: &[usize]) {
        for w in 0..self.cluster.workloads.len() {
            if self.cluster.workloads[w].kind == WorkloadKind::DaemonSet
                && !self.cluster.workload_state[w].deleted
                && !present.iter().any(|&p| self.cluster.pods[p].workload == w)
            {
                self.create_daemon_pod(w, n);
            }
        }
    }

    pub(super) fn finish_pod(&mut self, p: usize) {
        if self.cluster.pods[p].deleted || self.cluster.pods[p].phase != Phase::Running {
            return;
        }
        self.cluster.pods[p].phase = Phase::Succeeded;
        self.note_pod_event(p);
        let pod = event::PodRef::of(&self.cluster.pods[p]);
        self.event(EventKind::PodCompleted { pod });
        self.cluster.version += 1;
        let w = self.cluster.pods[p].workload;
        self.cluster.workload_state[w].succeeded += 1;
        let wl = &self.cluster.workloads[w];
        if wl.kind == WorkloadKind::Job
            && let Some(c) = wl.completions
        {
            let active = self
                .cluster
                .pods
                .iter()
                .filter(|q| q.workload == w && q.is_active())
                .count() as u32;
            if self.cluster.workload_state[w].succeeded + active < c
                && !self.cluster.workload_state[w].deleted
            {
                self.add_replica(w);
            }
            if self.cluster.workload_state[w].succeeded >= c {
                let name = self.cluster.workloads[w].name.clone();
                let namespace = self.cluster.workloads[w].namespace.clone();
                self.event(EventKind::JobCompleted { namespace, name });
            }
        }
    }

    pub(super) fn delete_pod(&mut self, p: usize) {
        if self.cluster.pods[p].deleted {
            return;
        }
        if self.cluster.pods[p].is_active() {
            self.note_pod_event(p);
        }
        self.cluster.pods[p].deleted = true;
        self.cluster.version += 1;
    }

    /// A non-DaemonSet pod on a node finished or started terminating: the node's
    /// `consolidateAfter` clock starts again.
    pub(super) fn note_pod_event(&mut self, p: usize) {
        if let Some(n) = self.cluster.pods[p].node
            && !self.cluster.pods[p].is_daemon()
        {
            self.cluster.nodes[n].last_pod_event = Some(self.now);
        }
    }

    /// A controller replaces a pod that went away before finishing: Deployments and
    /// StatefulSets always, Jobs until their completions are met, bare Pods and DaemonSets
    /// never (a DaemonSet's pod belongs to its node).
    pub(super) fn replace_pod(&mut self, w: usize) {
        if self.cluster.workload_state[w].deleted {
            return;
        }
        match self.cluster.workloads[w].kind {
            WorkloadKind::Pod | WorkloadKind::DaemonSet => {}
            WorkloadKind::Job => {
                let active = self
                    .cluster
                    .pods
                    .iter()
                    .filter(|q| q.workload == w && q.is_active())
                    .count() as u32;
                let done = self.cluster.workload_state[w].succeeded;
                if self.cluster.workloads[w]
                    .completions
                    .is_none_or(|c| done + active < c)
                {
                    self.add_replica(w);
                }
            }
            _ => {
                self.add_replica(w);
            }
        }
    }
}

//! kube-scheduler: binds pending pods to Registered and Ready nodes with its filters
//! ([`crate::scheduling::kube`]), in its queue order (priority, then age); the pods that fit
//! nowhere are what Karpenter's provisioner then sees as provisionable.
//!
//! It binds pods and never creates or deletes a NodeClaim, nor taints a node or moves its
//! lifecycle; a bind only notes the node's last pod event (`consolidateAfter` counts from
//! it).

use super::*;

/// kube-scheduler's view of the nodes for one scheduling round: each Registered node with
/// what its bound pods request and the host ports they hold, updated as pods are assumed.
pub(super) struct NodeCache {
    pub(super) nodes: Vec<KubeNode>,
    /// The active pods on each node (indexed like `nodes`).
    pub(super) bound: Vec<Vec<usize>>,
    /// Those of them with required anti-affinity terms ([`kube::anti_affine`]).
    pub(super) anti_affine: Vec<Vec<usize>>,
    /// The lowest priority of a pod preemption may take (`i32::MAX` when none): a pod of no
    /// higher priority finds no victims anywhere, without looking.
    pub(super) lowest_victim_priority: i32,
    /// The pending pods kube-scheduler has nominated to a node (some may have bound since).
    pub(super) nominated: Vec<usize>,
}

/// One pod's scheduling cycle: the node chosen (an index into the cache), kube-scheduler's
/// summary when there is none, and the filter results kept as evidence.
struct Cycle {
    choice: Option<usize>,
    summary: Option<String>,
    /// Each node's filter result, indexed like the cache's nodes.
    results: Vec<Result<(), kube::Rejection>>,
    record: evidence::KubeRecord,
}

impl Simulation {
    /// Binds pending pods to Ready nodes; returns the pods that fit nowhere.
    pub(super) fn kube_schedule(&mut self) -> Vec<usize> {
        let (mut unschedulable, mut preempted) = self.scheduling_round();
        // Preemption deletes pods and their controllers create replacements at once: those
        // new pods reach kube-scheduler's queue in the same instant. (A replacement has a
        // victim's priority, so it preempts nothing of the pods it replaced.)
        let mut rounds = 0;
        while preempted && rounds < 8 {
            rounds += 1;
            let (again, more) = self.scheduling_round();
            preempted = more;
            unschedulable.retain(|p| !again.contains(p) && self.cluster.pods[*p].is_pending());
            unschedulable.extend(again);
        }
        unschedulable
    }

    /// One pass of kube-scheduler's queue over the pending pods: the pods that fit nowhere,
    /// and whether any pod preempted others.
    fn scheduling_round(&mut self) -> (Vec<usize>, bool) {
        self.bind_named_pods();
        let pending = self.scheduling_queue();
        if pending.is_empty() {
            return (pending, false);
        }
        let mut preempted = false;
        let mut cache = self.node_cache();
        let mut unschedulable = Vec::new();
        // Equivalence classes: a pod identical to one that just fitted nowhere (same shared
        // spec, namespace, labels and requests) fits nowhere either while no pod has been
        // bound since.
        let mut last_failed: Option<(usize, Option<String>)> = None;
        let mut spread_cache = kube::SpreadCache::default();
        let same = |a: &Pod, b: &Pod| {
            Rc::ptr_eq(&a.spec, &b.spec)
                && a.spec.volumes.is_empty()
                && a.label_class == b.label_class
                && a.requests == b.requests
        };
        for p in pending {
            if let Some((q, summary)) = &last_failed
                && same(&self.cluster.pods[*q], &self.cluster.pods[p])
                && self.cluster.pods[p].nominated_node.is_none()
            {
                // Usually what the last round said too: no copy then.
                if self.cluster.pods[p].scheduler_message != *summary {
                    self.cluster.pods[p].scheduler_message = summary.clone();
                }
                unschedulable.push(p);
                if let Some(record) = self.recorder.evidence.scheduling.get(*q).cloned().flatten() {
                    self.recorder.evidence.set_scheduling(p, record);
                }
                continue;
            }
            // The pods nominated to a node with at least this pod's priority hold their room
            // there (`RunFilterPluginsWithNominatedPods`).
            let held = self.nominated_room(p, &cache);
            for (i, r) in &held {
                cache.nodes[*i].requested += *r;
            }
            let cycle = self.scheduling_cycle(p, &cache, &mut spread_cache);
            let Cycle {
                choice,
                summary,
                results,
                record,
            } = cycle;
            self.recorder.evidence.set_scheduling(p, Rc::new(record));
            match choice {
                Some(i) => {
                    for (i, r) in &held {
                        cache.nodes[*i].requested = cache.nodes[*i].requested.saturating_sub(r);
                    }
                    let n = cache.nodes[i].id;
                    self.assume(p, i, &mut cache, &mut spread_cache);
                    self.bind(p, n);
                    last_failed = None;
                }
                None => {
                    // PostFilter: DefaultPreemption, with the room held as the filters saw it
                    // (with no node at all, `ErrNoNodesAvailable` runs no PostFilter).
                    let post = if cache.nodes.is_empty() {
                        preemption::PostFilter::NotRun
                    } else {
                        self.post_filter(p, &cache, &results)
                    };
                    if matches!(post, preemption::PostFilter::Nominated) {
                        cache.nominated.push(p);
                    }
                    for (i, r) in &held {
                        cache.nodes[*i].requested = cache.nodes[*i].requested.saturating_sub(r);
                    }
                    let filters = summary.unwrap_or_default();
                    let message = match &post {
                        preemption::PostFilter::Message(m) => format!("{filters} preemption: {m}"),
                        preemption::PostFilter::Nominated | preemption::PostFilter::NotRun => {
                            filters
                        }
                    };
                    self.cluster.pods[p].scheduler_message = Some(message.clone());
                    // A pod waiting for the room it preempted is not provisionable
                    // (`IsProvisionable`: `!IsPreempting`).
                    if self.cluster.pods[p].nominated_node.is_none() {
                        unschedulable.push(p);
                    }
                    // A pod's PostFilter answer depends on its own nomination: only an
                    // unnominated pod's answer holds for the identical pods after it.
                    last_failed = match post {
                        preemption::PostFilter::Message(_)
                            if self.cluster.pods[p].nominated_node.is_none() =>
                        {
                            Some((p, Some(message)))
                        }
                        preemption::PostFilter::Message(_) => None,
                        preemption::PostFilter::NotRun => Some((p, Some(message))),
                        preemption::PostFilter::Nominated => {
                            preempted = true;
                            None
                        }
                    };
                }
            }
        }
        (unschedulable, preempted)
    }

    /// The pods kube-scheduler schedules (pending, no DaemonSet's, no `spec.nodeName`), in
    /// its queue's order: priority, then age.
    fn scheduling_queue(&self) -> Vec<usize> {
        let pods = &self.cluster.pods;
        let mut pending: Vec<usize> = self
            .cluster
            .pending_pods()
            .filter(|&p| !pods[p].is_daemon() && pods[p].spec.node_name.is_none())
            .collect();
        pending.sort_by(|&a, &b| {
            let (pa, pb) = (&pods[a], &pods[b]);
            pb.spec
                .priority
                .cmp(&pa.spec.priority)
                .then(pa.created_at.cmp(&pb.created_at))
                .then(pa.seq.cmp(&pb.seq))
        });
        pending
    }

    /// The Registered nodes as kube-scheduler sees them: a node not yet Ready carries the
    /// `not-ready` taint, startup taints count, and the active pods bound there are counted.
    fn node_cache(&self) -> NodeCache {
        let ready: Vec<usize> = (0..self.cluster.nodes.len())
            .filter(|&n| {
                self.cluster.nodes[n].exists()
                    && self.cluster.nodes[n].state >= NodeState::Registered
            })
            .collect();
        let mut nodes: Vec<KubeNode> = ready
            .iter()
            .map(|&n| {
                let node = &self.cluster.nodes[n];
                let mut taints = node.taints.clone();
                taints.extend(node.startup_taints.iter().cloned());
                if node.state == NodeState::Registered {
                    taints.push(Taint::new(
                        "node.kubernetes.io/not-ready",
                        "",
                        TaintEffect::NoSchedule,
                    ));
                }
                KubeNode {
                    id: n,
                    name: node.name.clone(),
                    labels: node.labels.clone(),
                    taints,
                    unschedulable: false,
                    allocatable: node.allocatable,
                    requested: Resources::ZERO,
                    host_ports: Vec::new(),
                }
            })
            .collect();
        let mut bound: Vec<Vec<usize>> = alloc::vec![Vec::new(); nodes.len()];
        for (i, &n) in ready.iter().enumerate() {
            for p in self.cluster.active_pods_on(n) {
                let pod = &self.cluster.pods[p];
                nodes[i].requested += pod.requests;
                bound[i].push(p);
                nodes[i].host_ports.extend(pod::host_ports(&pod.spec));
            }
        }
        let anti_affine = kube::anti_affine(&self.cluster.pods, &bound);
        let lowest_victim_priority = bound
            .iter()
            .flatten()
            .filter(|&&p| !self.cluster.pods[p].is_daemon())
            .map(|&p| self.cluster.pods[p].spec.priority)
            .min()
            .unwrap_or(i32::MAX);
        let nominated = self
            .cluster
            .pending_pods()
            .filter(|&p| self.cluster.pods[p].nominated_node.is_some())
            .collect();
        NodeCache {
            nodes,
            bound,
            anti_affine,
            lowest_victim_priority,
            nominated,
        }
    }

    /// One pod's filters over every node, and the node kube-scheduler would choose.
    fn scheduling_cycle(
        &self,
        p: usize,
        cache: &NodeCache,
        spread_cache: &mut kube::SpreadCache,
    ) -> Cycle {
        let knodes = &cache.nodes;
        let detail = knodes.len() <= evidence::KUBE_DETAIL_NODES;
        let cluster = kube::Cluster {
            nodes: knodes,
            pods: &self.cluster.pods,
            bound: &cache.bound,
            anti_affine: &cache.anti_affine,
            namespaces: &self.cluster.namespaces,
        };
        let pod = &self.cluster.pods[p];
        // VolumeBinding's PreFilter: a claim that cannot be used keeps the pod off every
        // node before any filter runs.
        if let Err(reason) = self.kube_volume_prefilter(pod) {
            let n = knodes.len();
            // UnschedulableAndUnresolvable on every node: DefaultPreemption then says
            // `Preemption is not helpful for scheduling`.
            return Cycle {
                choice: None,
                summary: Some(format!("0/{n} nodes are available: {reason}.")),
                results: alloc::vec![Err(kube::Rejection::VolumeNodeConflict); n],
                record: evidence::KubeRecord {
                    at: self.now,
                    nodes: Vec::new(),
                    counts: Vec::new(),
                    considered: n as u32,
                    feasible: 0,
                    chosen: None,
                },
            };
        }
        let mut pre = cluster.prefilter_cached(pod, spread_cache);
        pre.volumes = self.kube_volume_filters(pod, knodes, &cache.bound);
        let results: Vec<(usize, Result<(), kube::Rejection>)> = (0..knodes.len())
            .map(|i| (knodes[i].id, cluster.filter_with(pod, i, &pre)))
            .collect();
        let feasible: Vec<usize> = (0..knodes.len())
            .filter(|&i| results[i].1.is_ok())
            .collect();
        // The node the pod is nominated to is tried first, and taken when it fits
        // (`evaluateNominatedNode`).
        let nominated = pod
            .nominated_node
            .and_then(|n| feasible.iter().copied().find(|&i| knodes[i].id == n));
        let choice = nominated.or_else(|| cluster.choose(pod, &feasible));
        let rejections = || results.iter().filter_map(|(_, r)| r.as_ref().err());
        let summary = if choice.is_none() {
            Some(cluster.summary(rejections()))
        } else {
            None
        };
        let counts = if detail {
            Vec::new()
        } else {
            evidence::count_rejections(rejections())
        };
        let outcomes: Vec<Result<(), kube::Rejection>> =
            results.iter().map(|(_, r)| r.clone()).collect();
        let record = evidence::KubeRecord {
            at: self.now,
            nodes: if detail { results } else { Vec::new() },
            counts,
            considered: knodes.len() as u32,
            feasible: feasible.len() as u32,
            chosen: choice.map(|i| knodes[i].id),
        };
        Cycle {
            choice,
            summary,
            results: outcomes,
            record,
        }
    }

    /// Counts a pod on the node chosen for it before the next pod's cycle (kube-scheduler's
    /// assume).
    fn assume(
        &self,
        p: usize,
        i: usize,
        cache: &mut NodeCache,
        spread_cache: &mut kube::SpreadCache,
    ) {
        let pod = &self.cluster.pods[p];
        cache.nodes[i].requested += pod.requests;
        cache.nodes[i].host_ports.extend(pod::host_ports(&pod.spec));
        cache.bound[i].push(p);
        if !pod.spec.pod_anti_affinity.is_empty() {
            cache.anti_affine[i].push(p);
        }
        if !pod.is_daemon() {
            cache.lowest_victim_priority = cache.lowest_victim_priority.min(pod.spec.priority);
        }
        spread_cache.record(pod, &cache.nodes[i]);
    }

    /// Pods that name their node (`spec.nodeName`) skip both schedulers: the kubelet of that
    /// node runs them once it exists; until then they wait, and Karpenter ignores them.
    pub(super) fn bind_named_pods(&mut self) {
        // Settled pods leave the list here, once per round, before anyone reads it.
        self.cluster.forget_settled();
        let named: Vec<usize> = self
            .cluster
            .pending_pods()
            .filter(|&p| self.cluster.pods[p].spec.node_name.is_some())
            .collect();
        // A bind changes only the pod it binds, so each of these is still pending here.
        for p in named {
            let Some(name) = self.cluster.pods[p].spec.node_name.clone() else {
                continue;
            };
            let node = self
                .cluster
                .nodes
                .iter()
                .position(|n| n.exists() && n.state >= NodeState::Registered && n.name == name);
            match node {
                Some(n) => self.bind(p, n),
                None => {
                    self.cluster.pods[p].scheduler_message = Some(format!(
                        "spec.nodeName is \"{name}\" and no such node is \
                         ready; the pod waits for it"
                    ));
                }
            }
        }
    }

    pub(super) fn bind(&mut self, p: usize, n: usize) {
        self.bind_pod_volumes(p, n);
        if !self.cluster.pods[p].is_daemon() {
            self.cluster.nodes[n].last_pod_event = Some(self.now);
        }
        let node_name = self.cluster.nodes[n].name.clone();
        self.cluster.place(p, n);
        let pod = &mut self.cluster.pods[p];
        pod.phase = Phase::Running;
        pod.started_at = Some(self.now);
        pod.nominated = None;
        pod.nominated_node = None;
        pod.karpenter_message = None;
        pod.scheduler_message = None;
        let runtime = pod.runtime;
        let pod = event::PodRef::of(pod);
        self.event(EventKind::Scheduled {
            pod,
            node: node_name,
        });
        self.cluster.version += 1;
        if let Some(rt) = runtime {
            let at = self.now + rt;
            self.schedule(at, Action::PodFinish(p));
        }
    }
}

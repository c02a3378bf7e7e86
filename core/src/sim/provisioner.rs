//! Karpenter's provisioner: the batch window over provisionable pods, the NodePool
//! templates, the scheduling simulation ([`Solver`]), the NodeClaims it creates and the
//! pods it nominates for them.
//!
//! Sources: `K@1.14.1:pkg/controllers/provisioning/` (provisioner.go, batcher.go,
//! scheduling/scheduler.go). It creates NodeClaims and nominates pods; it never binds a pod
//! (kube-scheduler does), never launches an instance (the NodeClaim lifecycle does) and
//! never deletes a node.

use super::*;
use crate::automode;
use crate::scheduling::topology::{NodeFacts, Universe};
use alloc::collections::BTreeSet;

/// A NodePool's instance-type candidates: (pool spec, catalog, candidates, minValues met,
/// the catalog grouped for requirement checks).
type CandidateEntry = (
    NodePool,
    Rc<Vec<InstanceType>>,
    Vec<u32>,
    bool,
    Rc<scheduling::type_index::TypeIndex>,
);

/// A NodePool whose instance types a pass filtered for the first time (or since its spec or
/// catalog changed): the entry to keep, and the event that says the pool cannot launch.
#[derive(Debug)]
pub(super) struct CandidateFill {
    pool: String,
    entry: CandidateEntry,
    report: Option<EventKind>,
}

/// The provisioner's own state.
#[derive(Clone)]
pub(super) struct Provisioner {
    /// Open batch window: (first trigger, last trigger).
    batch: Option<(Millis, Millis)>,
    /// A 10 s re-trigger for still-provisionable pods is scheduled.
    retrigger_pending: bool,
    /// The cluster version the last pass solved.
    solved_version: Option<u64>,
    /// Karpenter rate-limits `Nominated` events (5/s, burst 10): (tokens, last refill).
    nominated_tokens: (u64, Millis),
    /// Instance types each NodePool's own requirements allow, per pool spec and catalog;
    /// the filter over 1,363 types is the costliest part of a small pass and rarely
    /// changes.
    candidate_cache: BTreeMap<String, CandidateEntry>,
}

impl Default for Provisioner {
    fn default() -> Provisioner {
        Provisioner {
            batch: None,
            retrigger_pending: false,
            solved_version: None,
            nominated_tokens: (10, 0),
            candidate_cache: BTreeMap::new(),
        }
    }
}

impl Provisioner {
    /// When the open batch window closes: `batchIdleDuration` (1 s) after the last trigger,
    /// at most `batchMaxDuration` (10 s) after the first.
    pub(super) fn batch_close(&self, settings: &Settings) -> Option<Millis> {
        self.batch.map(|(first, last)| {
            (last + settings.batch_idle_duration).min(first + settings.batch_max_duration)
        })
    }

    /// Whether a batch window is open.
    pub(super) fn batching(&self) -> bool {
        self.batch.is_some()
    }

    /// A provisionable pod opens the batch window or extends it.
    pub(super) fn trigger(&mut self, now: Millis) {
        self.batch = Some(match self.batch {
            Some((first, _)) => (first, now),
            None => (now, now),
        });
    }

    /// One token of the `Nominated` event rate limit (5 per second, bursts of 10).
    fn take_nominated_token(&mut self, now: Millis) -> bool {
        let (tokens, at) = self.nominated_tokens;
        let refilled = (tokens + (now - at) * 5 / 1_000).min(10);
        let at = if refilled > tokens { now } else { at };
        if refilled == 0 {
            self.nominated_tokens = (0, at);
            return false;
        }
        self.nominated_tokens = (refilled - 1, at);
        true
    }
}

impl Simulation {
    /// The requirements a NodePool's NodeClaims start from.
    pub(super) fn template_requirements(&self, np: &NodePool) -> Requirements {
        let mut reqs = Requirements::new();
        for r in &np.requirements {
            reqs.add(
                Requirement::new(&r.key, r.operator, r.values.iter().cloned())
                    .with_min_values(r.min_values),
            );
        }
        for (k, v) in &np.template_labels {
            reqs.add(Requirement::in_values(k, [v.clone()]));
        }
        reqs.add(Requirement::in_values(wk::NODEPOOL, [np.name.clone()]));
        if np.node_class_ref.is_auto_mode() {
            // Auto Mode's NodeClaims carry its NodeClass and `compute-type: auto`: what a
            // workload selects to move onto Auto Mode (EKS `auto-migrate-karpenter`).
            reqs.add(Requirement::in_values(
                automode::NODECLASS_LABEL,
                [np.node_class_ref.name.clone()],
            ));
            reqs.add(Requirement::in_values(automode::COMPUTE_TYPE, ["auto"]));
        } else {
            reqs.add(Requirement::in_values(
                wk::NODECLASS,
                [np.node_class_ref.name.clone()],
            ));
        }
        reqs
    }

    /// The NodePools as templates for a scheduling simulation, in Karpenter's order; with
    /// the NodePools whose instance types were filtered for this answer (the caller keeps
    /// them: [`Simulation::remember_candidates`]).
    pub(super) fn build_templates(&self) -> (Vec<Template>, Vec<CandidateFill>) {
        // Static NodePools are never templates for pending pods (`NewScheduler`).
        self.build_templates_for(|p| !self.cluster.node_pools[p].is_static())
    }

    /// [`Simulation::build_templates`] for the NodePools `include` takes.
    pub(super) fn build_templates_for(
        &self,
        include: impl Fn(usize) -> bool,
    ) -> (Vec<Template>, Vec<CandidateFill>) {
        let mut out = Vec::new();
        let mut fills = Vec::new();
        let daemons: Vec<usize> = (0..self.cluster.workloads.len())
            .filter(|&w| {
                self.cluster.workloads[w].kind == WorkloadKind::DaemonSet
                    && !self.cluster.workload_state[w].deleted
                    // `shouldSkipDaemonPod` / `buildDaemonOverheadGroups` (v1.7+).
                    && !(self.refuses_dra()
                        && self.cluster.workloads[w].template.spec.dynamic_resources)
            })
            .collect();
        for pool in self.cluster.ordered_pools() {
            let np = &self.cluster.node_pools[pool];
            if !include(pool)
                || self
                    .cluster
                    .node_classes_deleting
                    .contains(np.node_class_ref.key().as_ref())
                || np.invalid.is_some()
            {
                continue;
            }
            let Some(types) = self.pool_catalog(pool) else {
                continue;
            };
            let reqs = self.template_requirements(np);
            let (candidates, min_values_ok, index) = match self.cached_candidates(np, &types) {
                Some(hit) => hit,
                None => {
                    let fill = pool_candidates(np, &types, &reqs);
                    let (_, _, candidates, ok, index) = &fill.entry;
                    let hit = (candidates.clone(), *ok, index.clone());
                    fills.push(fill);
                    hit
                }
            };
            if candidates.is_empty() || !(min_values_ok || self.min_values_best_effort()) {
                continue;
            }
            let (daemon_overhead, daemon_host_ports) =
                self.daemon_overhead(np, &reqs, &types, &candidates, &daemons);
            let (used, count) = self.cluster.active_pool_usage(pool);
            let remaining: [Option<i64>; RESOURCE_COUNT] =
                core::array::from_fn(|i| np.limits.resources[i].map(|l| l - used.0[i]));
            let headroom: Vec<Resources> = types
                .iter()
                .zip(daemon_overhead.iter())
                .map(|(it, o)| it.allocatable - *o)
                .collect();
            let by_cpu = Template::options_by_cpu(&candidates, &types, &headroom);
            out.push(Template {
                by_cpu: Rc::new(by_cpu),
                headroom: Rc::new(headroom),
                nodepool: pool,
                name: np.name.clone(),
                requirements: reqs,
                taints: np.taints.clone(),
                instance_types: types,
                candidates: Rc::new(candidates),
                index,
                daemon_overhead: Rc::new(daemon_overhead),
                daemon_host_ports: Rc::new(daemon_host_ports),
                remaining,
                // Dynamic NodePools count `limits.nodes` from v1.11 (#2526); before, no
                // node has a `nodes` capacity, so the limit never binds.
                remaining_nodes: np
                    .limits
                    .nodes
                    .filter(|_| self.karpenter.follows(Behaviour::NodeLimits))
                    .map(|l| l - count),
                has_prefer_no_schedule: scheduling::has_prefer_no_schedule(&np.taints),
            });
        }
        (out, fills)
    }

    /// The candidates the provisioner filtered for this NodePool spec and catalog, if it
    /// has.
    fn cached_candidates(
        &self,
        np: &NodePool,
        types: &Rc<Vec<InstanceType>>,
    ) -> Option<(Vec<u32>, bool, Rc<scheduling::type_index::TypeIndex>)> {
        self.provisioner
            .candidate_cache
            .get(&np.name)
            .filter(|(spec, cat, ..)| spec == np && Rc::ptr_eq(cat, types))
            .map(|(_, _, c, ok, index)| (c.clone(), *ok, index.clone()))
    }

    /// Keeps NodePools' freshly filtered instance types, and says once (per spec and
    /// catalog) that a NodePool has none to offer.
    pub(super) fn remember_candidates(&mut self, fills: Vec<CandidateFill>) {
        for fill in fills {
            // Under BestEffort a NodePool short of minValues still launches.
            let relaxed = self.min_values_best_effort()
                && matches!(&fill.entry, (_, _, c, false, _) if !c.is_empty());
            if let Some(kind) = fill.report.filter(|_| !relaxed) {
                self.event(kind);
            }
            self.provisioner
                .candidate_cache
                .insert(fill.pool, fill.entry);
        }
    }

    /// What the DaemonSets that would run on a NodePool's nodes take of each instance type
    /// (indexed like `types`), and the host ports they hold (empty while none holds one).
    fn daemon_overhead(
        &self,
        np: &NodePool,
        reqs: &Requirements,
        types: &[InstanceType],
        candidates: &[u32],
        daemons: &[usize],
    ) -> (Vec<Resources>, Vec<Vec<HostPort>>) {
        let mut daemon_overhead = alloc::vec![Resources::ZERO; types.len()];
        let mut daemon_host_ports: Vec<Vec<HostPort>> = Vec::new();
        for &w in daemons {
            let spec = &self.cluster.workloads[w].template.spec;
            let mut tolerations = spec.tolerations.clone();
            tolerations.push(crate::taints::Toleration::all_prefer_no_schedule());
            if crate::taints::karpenter_tolerates(&np.taints, &tolerations).is_err() {
                continue;
            }
            // `isDaemonPodCompatible`: the required node-affinity terms are tried in
            // order; the first compatible with the NodePool and intersecting the type wins.
            let terms: Vec<Requirements> = (0..spec.node_affinity.required.len().max(1))
                .map(|t| pod::pod_requirements(spec, t, &[]).strict)
                .filter(|dreqs| reqs.compatible(dreqs, Undefined::AllowWellKnown).is_ok())
                .collect();
            if terms.is_empty() {
                continue;
            }
            let req = effective_requests(spec);
            let ports = pod::host_ports(spec);
            if !ports.is_empty() && daemon_host_ports.is_empty() {
                daemon_host_ports = alloc::vec![Vec::new(); types.len()];
            }
            for &i in candidates {
                if terms
                    .iter()
                    .any(|dreqs| types[i as usize].requirements.intersects_ok(dreqs))
                {
                    daemon_overhead[i as usize] += req;
                    if !ports.is_empty() {
                        daemon_host_ports[i as usize].extend(ports.iter().cloned());
                    }
                }
            }
        }
        (daemon_overhead, daemon_host_ports)
    }

    /// Karpenter ignores pods that select restricted labels or opt out of its nodes.
    pub(super) fn provisioner_ignores(&self, pod: &Pod) -> Option<String> {
        let spec = &pod.spec;
        let keys = spec
            .node_selector
            .keys()
            .map(|k| (k.as_str(), Operator::In))
            .chain(
                spec.node_affinity
                    .required
                    .iter()
                    .flatten()
                    .map(|r| (r.key.as_str(), r.operator)),
            );
        for (key, op) in keys {
            let key = wk::normalize_key(key);
            if key == wk::NODEPOOL && op == Operator::DoesNotExist {
                return Some(String::new());
            }
            if wk::is_restricted_label(key) {
                return Some(format!(
                    "using label {key} is not allowed as it might interfere with the internal \
                     provisioning logic; specify a well known label: [{}], or a custom label that \
                     does not use a restricted domain: [karpenter.sh, karpenter.k8s.aws, \
                     kubernetes.io/hostname]",
                    wk::WELL_KNOWN[..8].join(" ")
                ));
            }
        }
        self.karpenter_volume_problem(pod)
    }

    /// Like Karpenter's pod controller, over the pods kube-scheduler could not bind: a pod
    /// that newly becomes provisionable triggers the batcher at once; pods that stay
    /// provisionable re-trigger every 10 s, and only when the cluster changed since the
    /// last pass (otherwise the pass would decide the same).
    pub(super) fn watch_provisionable(&mut self, unschedulable: &[usize]) {
        let mut fresh = false;
        for &p in unschedulable {
            if !self.cluster.pods[p].triggered {
                self.cluster.pods[p].triggered = true;
                fresh = true;
            }
        }
        if fresh {
            self.provisioner.trigger(self.now);
        } else if !unschedulable.is_empty()
            && self.provisioner.solved_version != Some(self.cluster.version)
        {
            self.schedule_retrigger();
        }
    }

    /// The 10 s re-trigger is due: pods still provisionable in a changed cluster open a
    /// batch window.
    pub(super) fn retrigger(&mut self) {
        self.provisioner.retrigger_pending = false;
        if self.provisioner.solved_version != Some(self.cluster.version)
            && self
                .cluster
                .pending_pods()
                .any(|p| !self.cluster.pods[p].is_daemon())
        {
            self.provisioner.trigger(self.now);
        }
    }

    /// Queues the 10 s re-trigger unless one is queued.
    fn schedule_retrigger(&mut self) {
        if !self.provisioner.retrigger_pending {
            self.provisioner.retrigger_pending = true;
            let at = self.now + RETRIGGER;
            self.schedule(at, Action::Retrigger);
        }
    }

    /// One provisioning pass, when the batch window closes: the pods Karpenter provisions
    /// for, the NodePools as templates, the scheduling simulation, the NodeClaims it calls
    /// for, and what the pass decided about each pod.
    pub(super) fn provision(&mut self) {
        self.provisioner.batch = None;
        self.provisioner.solved_version = Some(self.cluster.version);
        let mut pending = self.provisionable_pods();
        // CapacityBuffers' virtual pods join after the pods Karpenter validated
        // (`GetPendingPods`, v1.14+ with the gate), indexed after the cluster's pods.
        let first_virtual = self.cluster.pods.len();
        let virtual_pods = self.buffer_pod_count();
        if pending.is_empty() && virtual_pods == 0 {
            return;
        }
        pending.extend(first_virtual..first_virtual + virtual_pods);
        self.cloud.warm_catalogs();
        self.warm_overlays();
        let (templates, fills) = self.build_templates();
        self.remember_candidates(fills);
        let (mut outcome, node_view_ids) = {
            let pods = self.pods_with_buffers();
            self.solve(&pods, &pending, &templates)
        };
        let pass = Rc::new(evidence::Pass {
            at: self.now,
            configured: templates
                .iter()
                .map(|t| self.cluster.node_pools[t.nodepool].limits)
                .collect(),
            templates,
            limits: core::mem::take(&mut outcome.limits),
        });
        let deferred = self.reserve_offerings(&pass.templates, &mut outcome.claims);
        if !deferred.is_empty() {
            defer_claims(&mut outcome, &deferred);
        }
        // The virtual pods' part, once the reservation manager has deferred what it defers
        // (a deferred virtual pod fails, as a `PodError` of the scheduler's does upstream).
        let buffer_pods_on_claims = if virtual_pods > 0 {
            self.take_buffer_results(&mut outcome, &node_view_ids, first_virtual)
        } else {
            Vec::new()
        };
        let live = self.cluster.nodes.iter().filter(|n| n.exists()).count();
        if live + outcome.claims.len() > MAX_NODES {
            self.event(EventKind::TooManyNodes {
                claims: outcome.claims.len(),
            });
            return;
        }
        let claim_nodes: Vec<usize> = outcome
            .claims
            .iter()
            .map(|claim| self.create_nodeclaim(&pass.templates[claim.template], claim, Some(&pass)))
            .collect();
        for (&n, names) in claim_nodes.iter().zip(buffer_pods_on_claims) {
            if let Some(record) = self.recorder.evidence.claims.get_mut(&n) {
                record.buffer_pods = names;
            }
        }
        self.record_provisioning(&pass, &mut outcome, &node_view_ids, &claim_nodes);
        self.nominate(&outcome, &node_view_ids, &claim_nodes);
        for (&p, err) in &outcome.errors {
            self.cluster.pods[p].nominated = None;
            self.failed_scheduling(p, err.clone());
        }
        self.schedule_retrigger();
    }

    /// The pending pods Karpenter provisions for; the ones it ignores (a restricted label)
    /// are told why.
    fn provisionable_pods(&mut self) -> Vec<usize> {
        let mut pending = Vec::new();
        // Recording why a pod is ignored changes no pod's pending state.
        let pending_now: Vec<usize> = self.cluster.pending_pods().collect();
        for p in pending_now {
            let pod = &self.cluster.pods[p];
            // A pod kube-scheduler nominated after preempting waits for that room
            // (`IsProvisionable`: `!IsPreempting`).
            if pod.is_daemon() || pod.spec.node_name.is_some() || pod.nominated_node.is_some() {
                continue;
            }
            match self.provisioner_ignores(pod) {
                Some(msg) if msg.is_empty() => {}
                Some(msg) => {
                    let record = evidence::ProvisioningRecord {
                        at: self.now,
                        pass: None,
                        outcome: evidence::ProvisioningOutcome::Ignored(msg.clone()),
                        considered: None,
                        relaxed: false,
                    };
                    self.recorder.evidence.set_provisioning(p, record);
                    self.failed_scheduling(p, msg);
                }
                None => pending.push(p),
            }
        }
        pending
    }

    /// Karpenter's scheduling simulation of the pending pods over the existing nodes and
    /// new NodeClaims of the templates; with the node index behind each node view.
    fn solve(
        &self,
        pods: &[Pod],
        pending: &[usize],
        templates: &[Template],
    ) -> (scheduling::Outcome, Vec<usize>) {
        let by_node = self.cluster.active_pods_by_node();
        let views = self.node_views(&[], &by_node);
        let topology = self.topology_universe(pods, templates, pending);
        let (bound, node_labels) = self.bound_pods(&views, &[]);
        let mut solver = Solver::new(
            pods,
            pending,
            views,
            templates.to_vec(),
            topology,
            &bound,
            &node_labels,
        );
        solver.with_volumes(self.pass_volumes(pending));
        solver.record = true;
        solver.shortcuts = self.solver_shortcuts;
        solver.ignore_preferences = self.ignores_preferences();
        solver.refuse_dra = self.refuses_dra();
        solver.min_values_best_effort = self.min_values_best_effort();
        let node_view_ids: Vec<usize> = solver.nodes.iter().map(|v| v.id).collect();
        (solver.solve(pending.to_vec()), node_view_ids)
    }

    /// Keeps what the pass decided about each pod it saw, and what it saw.
    fn record_provisioning(
        &mut self,
        pass: &Rc<evidence::Pass>,
        outcome: &mut scheduling::Outcome,
        node_view_ids: &[usize],
        claim_nodes: &[usize],
    ) {
        let relaxed: alloc::collections::BTreeSet<usize> =
            outcome.relaxed.iter().copied().collect();
        for (p, considered) in core::mem::take(&mut outcome.considered) {
            let outcome_of = match outcome.placements.get(&p) {
                Some(Placement::Existing(v)) => {
                    evidence::ProvisioningOutcome::Existing(node_view_ids[*v])
                }
                Some(Placement::Claim(c)) => {
                    evidence::ProvisioningOutcome::NewClaim(claim_nodes[*c])
                }
                None => evidence::ProvisioningOutcome::Failed(
                    outcome.errors.get(&p).cloned().unwrap_or_default(),
                ),
            };
            let relaxed = relaxed.contains(&p);
            // A later pass that finds the pod a place on the NodeClaim launched for it says
            // less than the launch did: keep the launch.
            if let (
                evidence::ProvisioningOutcome::Existing(n),
                Some(evidence::ProvisioningOutcome::NewClaim(launched)),
            ) = (
                &outcome_of,
                self.recorder.evidence.provisioning(p).map(|r| &r.outcome),
            ) && n == launched
            {
                continue;
            }
            let record = evidence::ProvisioningRecord {
                at: self.now,
                pass: Some(pass.clone()),
                outcome: outcome_of,
                considered: Some(considered),
                relaxed,
            };
            self.recorder.evidence.set_provisioning(p, record);
        }
    }

    /// Nominates each placed pod for its node or NodeClaim (`Nominated`, rate-limited, when
    /// the target changes).
    fn nominate(
        &mut self,
        outcome: &scheduling::Outcome,
        node_view_ids: &[usize],
        claim_nodes: &[usize],
    ) {
        for (&p, placement) in &outcome.placements {
            let (target, claim) = match placement {
                Placement::Existing(v) => {
                    let node = &self.cluster.nodes[node_view_ids[*v]];
                    (node.name.clone(), node.nodeclaim.clone())
                }
                Placement::Claim(c) => (self.cluster.nodes[claim_nodes[*c]].name.clone(), None),
            };
            if self.cluster.pods[p].nominated.as_deref() != Some(&target)
                && self.provisioner.take_nominated_token(self.now)
            {
                let target = match placement {
                    Placement::Claim(_) => event::Nomination::NodeClaim(target.clone()),
                    Placement::Existing(_) => event::Nomination::Node {
                        node: target.clone(),
                        nodeclaim: claim,
                    },
                };
                let pod = event::PodRef::of(&self.cluster.pods[p]);
                self.event(EventKind::Nominated { pod, target });
            }
            self.cluster.pods[p].nominated = Some(target);
            self.cluster.pods[p].karpenter_message = None;
        }
    }

    /// Karpenter could not schedule a pod: the pod's condition says why, and an event does
    /// when the reason is new.
    pub(super) fn failed_scheduling(&mut self, p: usize, error: String) {
        let kind = EventKind::FailedScheduling {
            pod: event::PodRef::of(&self.cluster.pods[p]),
            error,
        };
        let full = kind.to_string();
        if self.cluster.pods[p].karpenter_message.as_deref() != Some(&full) {
            self.event(kind);
            self.cluster.pods[p].karpenter_message = Some(full);
        }
    }

    /// Turns a simulated NodeClaim into an instance: Karpenter's ordering and truncation,
    /// then the AWS provider's filters, capacity type and offering choice; the NodeClaim
    /// is created, its DaemonSet pods with it, and its launch and expiry are queued.
    pub(super) fn create_nodeclaim(
        &mut self,
        tpl: &Template,
        claim: &scheduling::NewClaim,
        pass: Option<&Rc<evidence::Pass>>,
    ) -> usize {
        // One stream per NodeClaim, drawn from in a fixed order: the launch's ties, the
        // name, custom label values, the launch delay.
        let mut rng = self.rng.fork(pod::stable_hash(&[
            "claim",
            &self.now.to_string(),
            &self.cluster.nodes.len().to_string(),
        ]));
        let launch = self.choose_launch(tpl, claim, &mut rng);
        let node = self.new_nodeclaim(tpl, claim, &launch, &mut rng);
        let (name, options) = (node.name.clone(), node.options.clone());
        self.cluster.nodes.push(node);
        let n = self.cluster.nodes.len() - 1;
        self.cluster.version += 1;
        // EC2's count drops as the fleet request is answered (`MarkLaunched`).
        self.launched_into_reservation(n);
        self.record_claim(n, tpl, claim, pass, launch);
        let min_overhead = claim
            .options
            .iter()
            .map(|&i| tpl.daemon_overhead[i as usize])
            .fold(None, |acc: Option<Resources>, o| {
                Some(acc.map_or(o, |a| a.min(&o)))
            })
            .unwrap_or(Resources::ZERO);
        self.event(EventKind::Created {
            nodeclaim: name,
            node_pool: self.cluster.node_pools[tpl.nodepool].name.clone(),
            requests: claim.requests + min_overhead,
            instance_types: options,
        });
        self.create_daemon_pods(n);
        if let Some(at) = self.cluster.nodes[n].expire_at {
            self.schedule(at, Action::Expire(n));
        }
        let delay = 1_000 + rng.below(1_500);
        let at = self.now + delay;
        self.schedule(at, Action::Launch(n));
        n
    }

    /// The AWS provider's launch decision for a NodeClaim (instance type, capacity type,
    /// zone); the offerings EC2 turned down on the way go into the unavailable-offerings
    /// cache.
    fn choose_launch(
        &mut self,
        tpl: &Template,
        claim: &scheduling::NewClaim,
        rng: &mut Rng,
    ) -> evidence::Launch {
        let types = &tpl.instance_types;
        let short = |it: &InstanceType, o: &catalog::Offering| {
            self.ec2_short(&it.name, &o.zone, o.capacity_type)
        };
        let mut launch =
            evidence::choose_launch(types, &claim.options, &claim.requirements, rng, &short);
        if self.cloud.has_unavailable() {
            let names: alloc::collections::BTreeSet<&str> = claim
                .options
                .iter()
                .map(|&i| types[i as usize].name.as_str())
                .collect();
            launch.cached_unavailable = self.cloud.cached_unavailable(&names);
        }
        for &(ti, oi) in &launch.ice {
            let o = &types[ti].offerings[oi];
            self.mark_unavailable(&types[ti].name, &o.zone, o.capacity_type);
        }
        launch
    }

    /// The NodeClaim (and the Node it becomes) for a launch decision: a fresh name, the
    /// instance type's labels with the NodePool's and the chosen offering's, and what the
    /// NodePool and its EC2NodeClass give every NodeClaim.
    fn new_nodeclaim(
        &self,
        tpl: &Template,
        claim: &scheduling::NewClaim,
        launch: &evidence::Launch,
        rng: &mut Rng,
    ) -> Node {
        let types = &tpl.instance_types;
        let (ti, oi) = launch
            .chosen
            .unwrap_or((launch.launch.first().copied().unwrap_or(0), usize::MAX));
        let it = &types[ti];
        let offering = it.offerings.get(oi);
        let np = &self.cluster.node_pools[tpl.nodepool];
        let mut name;
        loop {
            name = format!("{}-{}", np.name, rng.k8s_suffix(5));
            if !self.cluster.nodes.iter().any(|n| n.name == name) {
                break;
            }
        }
        let zone = offering.map(|o| o.zone.clone()).unwrap_or_default();
        let capacity_type = launch.capacity_type;
        let mut labels = it.labels.clone();
        labels.extend(np.template_labels.clone());
        labels.insert(wk::ZONE.into(), zone.clone());
        labels.insert(wk::CAPACITY_TYPE.into(), capacity_type.as_str().into());
        labels.insert(wk::NODEPOOL.into(), np.name.clone());
        let auto_mode = np.node_class_ref.is_auto_mode();
        if auto_mode {
            labels.insert(
                automode::NODECLASS_LABEL.into(),
                np.node_class_ref.name.clone(),
            );
            labels.insert(automode::COMPUTE_TYPE.into(), "auto".into());
        } else {
            labels.insert(wk::NODECLASS.into(), np.node_class_ref.name.clone());
        }
        labels.insert(wk::HOSTNAME.into(), name.clone());
        // Custom requirement keys get a concrete value (Requirement.Any).
        for r in claim.requirements.iter() {
            if labels.contains_key(&r.key) || wk::is_restricted_node_label(&r.key) {
                continue;
            }
            if let Some(v) = r.any(rng) {
                labels.insert(r.key.clone(), v);
            }
        }
        let node_class = self
            .cluster
            .node_classes
            .get(np.node_class_ref.key().as_ref());
        Node {
            name: name.clone(),
            nodepool: Some(tpl.nodepool),
            node_group: None,
            nodeclaim: Some(name),
            instance_type: it.name.clone(),
            arch: it.labels.get(wk::ARCH).cloned().unwrap_or_default(),
            zone,
            capacity_type,
            price: offering.map_or(0, |o| o.price),
            management_fee: if auto_mode {
                automode::fee(on_demand_price(it))
            } else {
                0
            },
            price_source: offering.map_or(PriceSource::Regional, |o| o.price_source),
            overlay: offering.and_then(|o| o.overlay.clone()),
            reservation: offering.and_then(|o| o.reservation.as_ref().map(|r| r.0.clone())),
            requirements: Requirements::from_labels(labels.iter()),
            labels,
            taints: np.taints.clone(),
            startup_taints: np.startup_taints.clone(),
            capacity: it.capacity,
            allocatable: it.allocatable,
            state: NodeState::Launching,
            created_at: self.now,
            options: launch
                .launch
                .iter()
                .map(|&i| types[i].name.clone())
                .collect(),
            deleted: false,
            initialized_at: None,
            last_pod_event: None,
            annotations: np.template_annotations.clone(),
            disruption: None,
            drifted: None,
            pool_hash: disruption::pool_hash(np),
            node_class_hash: node_class.map_or(0, disruption::node_class_hash),
            image_id: node_class
                .map(|nc| self.cloud.current_image(nc))
                .unwrap_or_default(),
            expire_at: if auto_mode {
                // Auto Mode replaces its nodes after 21 days whatever `expireAfter` says.
                let lifetime = np.expire_after.map_or(automode::MAX_NODE_LIFETIME, |e| {
                    e.min(automode::MAX_NODE_LIFETIME)
                });
                Some(self.now + lifetime)
            } else {
                np.expire_after.map(|e| self.now + e)
            },
            termination_grace: np.termination_grace_period,
            deleting_since: None,
            reclaim_at: None,
            replaces: Vec::new(),
            age_at_start: 0,
            quiet_at_start: 0,
            conditions: BTreeMap::new(),
        }
    }

    /// Keeps how the NodeClaim was decided: the provisioning pass behind it (a replacement
    /// launched by a disruption command has none: it gets one of its own template) and the
    /// launch.
    fn record_claim(
        &mut self,
        n: usize,
        tpl: &Template,
        claim: &scheduling::NewClaim,
        pass: Option<&Rc<evidence::Pass>>,
        launch: evidence::Launch,
    ) {
        let pass = match pass {
            Some(p) => p.clone(),
            None => Rc::new(evidence::Pass {
                at: self.now,
                templates: alloc::vec![tpl.clone()],
                configured: alloc::vec![self.cluster.node_pools[tpl.nodepool].limits],
                limits: alloc::vec![alloc::vec![claim.limits_at_open]],
            }),
        };
        let template = pass
            .templates
            .iter()
            .position(|t| t.nodepool == tpl.nodepool)
            .unwrap_or(0);
        let record = evidence::ClaimRecord {
            pass,
            template,
            requirements: claim.requirements.clone(),
            requests: claim.requests,
            pods: claim.pods.clone(),
            limits_at_open: claim.limits_at_open,
            options: claim.options.clone(),
            launch,
            buffer_pods: Vec::new(),
        };
        self.recorder.evidence.claims.insert(n, record);
    }

    /// Nodes the schedulers may place pods on, as the solver sees them: existing, neither
    /// deleting nor held by a disruption command, not in `excluded` (sorted); initialized
    /// first, then by name (Karpenter's order).
    pub(super) fn node_views(&self, excluded: &[usize], by_node: &[Vec<usize>]) -> Vec<NodeView> {
        let mut node_ids: Vec<usize> = (0..self.cluster.nodes.len())
            .filter(|&n| {
                let node = &self.cluster.nodes[n];
                node.active() && excluded.binary_search(&n).is_err()
            })
            .collect();
        node_ids.sort_by(|&a, &b| {
            let (na, nb) = (&self.cluster.nodes[a], &self.cluster.nodes[b]);
            (na.state != NodeState::Ready)
                .cmp(&(nb.state != NodeState::Ready))
                .then(na.name.cmp(&nb.name))
        });
        node_ids
            .into_iter()
            .map(|n| {
                let node = &self.cluster.nodes[n];
                let mut requirements = Requirements::from_labels(node.labels.iter());
                requirements.add(Requirement::in_values(wk::HOSTNAME, [node.name.clone()]));
                // DaemonSet pods are bound when the NodeClaim is created, so they are counted here.
                let remaining = node.allocatable - self.cluster.requests_of(&by_node[n]);
                let host_ports = by_node[n]
                    .iter()
                    .flat_map(|&p| pod::host_ports(&self.cluster.pods[p].spec))
                    .collect();
                NodeView {
                    id: n,
                    name: node.name.clone(),
                    labels: Rc::new(node.labels.clone()),
                    requirements: Rc::new(requirements),
                    taints: node.taints.clone(),
                    remaining,
                    host_ports,
                    initialized: node.state == NodeState::Ready,
                }
            })
            .collect()
    }

    /// The pods bound to the given nodes (they count for topology), except `moving` ones
    /// (sorted), and those nodes' names and labels.
    #[allow(clippy::type_complexity)]
    pub(super) fn bound_pods(
        &self,
        views: &[NodeView],
        moving: &[usize],
    ) -> (Vec<(usize, usize)>, BTreeMap<usize, NodeFacts>) {
        let node_labels: BTreeMap<usize, NodeFacts> = views
            .iter()
            .map(|v| (v.id, self.node_facts(v.id)))
            .collect();
        // Indexed by node: a look-up per pod without searching the map.
        let mut in_view = alloc::vec![false; self.cluster.nodes.len()];
        for v in views {
            in_view[v.id] = true;
        }
        let bound = (0..self.cluster.pods.len())
            .filter(|&p| self.cluster.pods[p].is_active() && moving.binary_search(&p).is_err())
            .filter_map(|p| {
                self.cluster.pods[p]
                    .node
                    .filter(|&n| in_view.get(n).copied().unwrap_or(false))
                    .map(|n| (p, n))
            })
            .collect();
        (bound, node_labels)
    }

    /// The domain universe of every topology key in use.
    pub(super) fn topology_universe(
        &self,
        pods: &[Pod],
        templates: &[Template],
        pending: &[usize],
    ) -> Topology {
        let keys = self.topology_keys_of(pods, pending);
        let domains = self.template_domains(templates, &keys);
        self.topology_for(&domains, &[])
    }

    /// Every topology key the given pods or the running pods use; `pending` indexes `pods`,
    /// the cluster's pods followed by CapacityBuffers' virtual ones
    /// ([`Simulation::pods_with_buffers`]).
    pub(super) fn topology_keys_of(&self, pods: &[Pod], pending: &[usize]) -> Vec<String> {
        let mut keys: BTreeSet<&str> = BTreeSet::new();
        // A workload's pods share one spec: its keys are read once, not once per replica.
        let mut last_spec: Option<&Rc<PodSpec>> = None;
        for p in
            pending
                .iter()
                .copied()
                .chain((0..self.cluster.pods.len()).filter(|&p| {
                    self.cluster.pods[p].is_active() && self.cluster.pods[p].node.is_some()
                }))
        {
            let s = &pods[p].spec;
            if last_spec.is_some_and(|last| Rc::ptr_eq(last, s)) {
                continue;
            }
            last_spec = Some(s);
            keys.extend(s.topology_spread.iter().map(|t| t.topology_key.as_str()));
            keys.extend(s.pod_affinity.iter().map(|t| t.topology_key.as_str()));
            keys.extend(s.pod_anti_affinity.iter().map(|t| t.topology_key.as_str()));
            keys.extend(
                s.preferred_pod_affinity
                    .iter()
                    .map(|t| t.term.topology_key.as_str()),
            );
            keys.extend(
                s.preferred_pod_anti_affinity
                    .iter()
                    .map(|t| t.term.topology_key.as_str()),
            );
        }
        // Sorted and without repeats, as a set iterates.
        keys.into_iter().map(String::from).collect()
    }

    /// The domains NodePools could launch into, per key, with each pool's taints
    /// (`buildDomainGroups`): their requirements crossed with their instance types' labels
    /// (hostnames excluded: every new node has its own).
    pub(super) fn template_domains(&self, templates: &[Template], keys: &[String]) -> Universe {
        let mut out = Universe::default();
        for key in keys {
            out.key(key);
        }
        for key in keys.iter().filter(|k| *k != wk::HOSTNAME) {
            for t in templates {
                let mut values: Vec<String> = Vec::new();
                let base = t.requirements.get(key).cloned();
                if let Some(b) = &base
                    && b.operator() == Operator::In
                {
                    values.extend(b.values().iter().cloned());
                }
                // Each distinct requirement once: the types share a handful per key.
                for r in t.index.requirements_for(key) {
                    let r = match &base {
                        Some(b) => b.intersection(r),
                        None => r.clone(),
                    };
                    if r.operator() == Operator::In {
                        values.extend(r.values().iter().cloned());
                    }
                }
                values.sort();
                values.dedup();
                for v in &values {
                    out.offer_from_pool(key, v, &t.taints);
                }
            }
        }
        out
    }

    /// What topology knows of an existing node.
    pub(super) fn node_facts(&self, n: usize) -> NodeFacts {
        let node = &self.cluster.nodes[n];
        NodeFacts {
            name: node.name.clone(),
            labels: node.labels.clone(),
            taints: node.taints.clone(),
        }
    }

    /// The universe: the NodePools' domains and those of the nodes the scheduler is given (not
    /// marked for deletion), except `excluded` (sorted). Each such node's hostname is every
    /// group's (`NewExistingNode` registers it, NodeClaims in flight included); its other
    /// domains are a group's when its filter counts the node, and only once the node has a
    /// Node object (`countDomains`).
    pub(super) fn topology_for(&self, template_domains: &Universe, excluded: &[usize]) -> Topology {
        let mut universe = template_domains.clone();
        for (i, n) in self.cluster.nodes.iter().enumerate() {
            if !n.active() || excluded.binary_search(&i).is_ok() {
                continue;
            }
            let registered = matches!(n.state, NodeState::Registered | NodeState::Ready);
            universe.offer_from_node(i, self.node_facts(i), registered);
        }
        Topology::new(universe, self.cluster.namespaces.clone())
    }
}

/// The instance types a NodePool's own requirements allow (with an offering they allow),
/// and whether they give the pool's `minValues` enough distinct values; a pool with none
/// to offer says so.
fn pool_candidates(
    np: &NodePool,
    types: &Rc<Vec<InstanceType>>,
    reqs: &Requirements,
) -> CandidateFill {
    let index = Rc::new(scheduling::type_index::TypeIndex::new(types));
    let matcher = index.matcher(reqs);
    let candidates: Vec<u32> = (0..types.len() as u32)
        .filter(|&i| matcher.requirements_ok(i) && matcher.offering_ok(i))
        .collect();
    let min_values_ok = scheduling::min_values_unmet(types, &candidates, reqs).is_empty();
    let report =
        (candidates.is_empty() || !min_values_ok).then(|| EventKind::NoCompatibleInstanceTypes {
            node_pool: np.name.clone(),
            min_values: !min_values_ok,
        });
    CandidateFill {
        pool: np.name.clone(),
        entry: (np.clone(), types.clone(), candidates, min_values_ok, index),
        report,
    }
}

/// Takes the NodeClaims the reservation manager deferred out of a simulation's outcome: their
/// pods wait for the next one, with the provisioner's reason.
fn defer_claims(outcome: &mut scheduling::Outcome, deferred: &alloc::collections::BTreeSet<usize>) {
    let claims = core::mem::take(&mut outcome.claims);
    let mut renumbered = alloc::vec![None; claims.len()];
    for (c, claim) in claims.into_iter().enumerate() {
        if deferred.contains(&c) {
            for &p in &claim.pods {
                outcome.placements.remove(&p);
                outcome
                    .errors
                    .insert(p, super::reservations::DEFERRED.into());
            }
        } else {
            renumbered[c] = Some(outcome.claims.len());
            outcome.claims.push(claim);
        }
    }
    for placement in outcome.placements.values_mut() {
        if let Placement::Claim(c) = placement
            && let Some(new) = renumbered[*c]
        {
            *c = new;
        }
    }
}

/// An instance type's on-demand price (its cheapest on-demand offering): what EKS Auto Mode's
/// management fee is a share of, whatever capacity type the node runs on.
fn on_demand_price(it: &crate::catalog::InstanceType) -> crate::catalog::MicroDollars {
    it.offerings
        .iter()
        .filter(|o| o.capacity_type == crate::catalog::CapacityType::OnDemand)
        .map(|o| o.price)
        .min()
        .unwrap_or(0)
}

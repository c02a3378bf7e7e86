//! Karpenter's CapacityBuffer controller and the virtual pods it keeps (v1.14+, the
//! `CapacityBuffer` gate): each buffer's pod template is resolved (a PodTemplate, or a
//! Deployment's, StatefulSet's or ReplicaSet's template), its replicas computed, and that
//! many virtual pods built; the provisioner appends them to every pass's pending pods and
//! the disruption controller to every simulation's, so capacity is launched and kept for
//! them. They are never real: kube-scheduler never sees them, no workload counts them, the
//! report lists no pod for them.
//!
//! Sources: `K@v1.14.1:pkg/controllers/capacitybuffer/` (controller.go, helpers.go),
//! `pkg/state/virtualpods/` (the cache and `BuildVirtualPods`), `pkg/utils/apps/resolve.go`,
//! `pkg/controllers/provisioning/buffers.go` (the `Provisioning` condition and the nodes
//! that hold buffer pods) and the provisioner's `GetPendingPods`.
//!
//! Why a separate list, not pods in `Cluster::pods`: every consumer of the cluster's pods
//! (kube-scheduler, the workload controllers, the report, history, compare, explain) would
//! have to skip them, and one that forgot would show or bind a pod that does not exist.
//! Only the scheduling simulations need them, as `Pod` values indexed beside the real ones;
//! [`Simulation::pods_with_buffers`] gives them the cluster's pods followed by the virtual
//! ones (a copy made only while a buffer has virtual pods, so a scenario without buffers
//! pays nothing), and the results are stripped of the virtual indices before anything is
//! recorded or nominated.
//!
//! Approximation: Karpenter re-checks each buffer every 30 s for ever. The engine keeps the
//! 30 s grid but skips a tick when nothing in the cluster changed since the last check (the
//! pass would decide the same), so a scenario still comes to rest.

use super::*;
use crate::capacity_buffer::{self as cb, CapacityBuffer, NamedPodTemplate};
use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use event::BufferCondition;

/// The buffer controller's own state: the buffers and PodTemplates the API server holds,
/// what each resolved to, the virtual pods, and when it last looked.
#[derive(Clone, Default)]
pub(super) struct Buffers {
    buffers: Vec<CapacityBuffer>,
    templates: Vec<NamedPodTemplate>,
    /// Per buffer (indexed like `buffers`): what it resolved to and its last `Provisioning`
    /// condition.
    status: Vec<Status>,
    /// The virtual pods of every ready buffer, in buffer order.
    pods: Vec<Pod>,
    /// The buffer each virtual pod belongs to.
    owners: Vec<usize>,
    /// The cluster version and instant of the last check.
    checked: Option<(u64, Millis)>,
    /// A check is queued.
    queued: bool,
    /// Nodes the last provisioning pass placed virtual pods on (`bufferPodCounts`): the
    /// emptiness method leaves them alone.
    holding: BTreeSet<usize>,
}

#[derive(Clone, Debug, Default)]
struct Status {
    /// `ReadyForProvisioning`: the replicas, or why the template did not resolve.
    resolved: Option<Result<u32, (&'static str, String)>>,
    condition: Option<BufferCondition>,
}

impl Buffers {
    pub(super) fn new(buffers: Vec<CapacityBuffer>, templates: Vec<NamedPodTemplate>) -> Self {
        Buffers {
            status: alloc::vec![Status::default(); buffers.len()],
            buffers,
            templates,
            ..Buffers::default()
        }
    }
}

/// What one pass did with a buffer's virtual pods (`bufferProvisioningStatus`).
#[derive(Clone, Copy, Default)]
struct PassCounts {
    existing: u32,
    new_claim: u32,
    failed: u32,
}

impl Simulation {
    /// Whether Karpenter runs the buffer controller at all (the gate, v1.14+) and there is
    /// a buffer for it.
    fn buffers_run(&self) -> bool {
        self.karpenter.gate(Gate::CapacityBuffer) && !self.buffers.buffers.is_empty()
    }

    /// The virtual pods a pass appends to its pending pods (none while the gate is off).
    pub(super) fn buffer_pod_count(&self) -> usize {
        if self.karpenter.gate(Gate::CapacityBuffer) {
            self.buffers.pods.len()
        } else {
            0
        }
    }

    /// The pods a scheduling simulation indexes: the cluster's, then the virtual pods
    /// (indices from `cluster.pods.len()`); borrowed as they are when there are none.
    pub(super) fn pods_with_buffers(&self) -> Cow<'_, [Pod]> {
        if self.buffer_pod_count() == 0 {
            return Cow::Borrowed(&self.cluster.pods);
        }
        let mut all = Vec::with_capacity(self.cluster.pods.len() + self.buffers.pods.len());
        all.extend_from_slice(&self.cluster.pods);
        all.extend_from_slice(&self.buffers.pods);
        Cow::Owned(all)
    }

    /// Whether the last provisioning pass placed virtual pods on node `n`
    /// (`Cluster.HasBufferPods`).
    pub(super) fn holds_buffer_pods(&self, n: usize) -> bool {
        self.buffers.holding.contains(&n)
    }

    /// After an instant: queue the next check on the 30 s grid, unless one is queued or the
    /// cluster is as the last check saw it.
    pub(super) fn watch_buffers(&mut self) {
        if self.buffers.queued || !self.buffers_run() {
            return;
        }
        let at = match self.buffers.checked {
            None => self.now,
            Some((version, _)) if version == self.cluster.version => return,
            Some((_, last)) => {
                let ticks = (self.now.saturating_sub(last)).div_ceil(cb::RECHECK).max(1);
                last + ticks * cb::RECHECK
            }
        };
        self.buffers.queued = true;
        self.schedule(at, Action::BufferCheck);
    }

    /// The buffer controller's reconcile of every buffer: resolve, count, rebuild the
    /// virtual pods, and trigger the provisioner when any buffer resolved.
    pub(super) fn check_buffers(&mut self) {
        self.buffers.queued = false;
        // With the last buffer deleted the check still runs: its virtual pods go.
        if !self.karpenter.gate(Gate::CapacityBuffer) {
            return;
        }
        self.buffers.checked = Some((self.cluster.version, self.now));
        let mut pods = Vec::new();
        let mut owners = Vec::new();
        let mut any_resolved = false;
        for b in 0..self.buffers.buffers.len() {
            let resolved = self.resolve_buffer(b);
            let ready = match resolved {
                Ok((template, scalable)) => {
                    any_resolved = true;
                    let buffer = &self.buffers.buffers[b];
                    let spec = virtual_spec(&template.spec);
                    let requests = effective_requests(&spec);
                    let replicas = cb::desired_replicas(buffer, &requests, scalable);
                    // The playground's pod cap holds for virtual pods too (a buffer of
                    // `limits` alone over a tiny request could ask for millions).
                    let room = (MAX_PODS - pods.len().min(MAX_PODS)) as u32;
                    let built = self.virtual_pods(b, &template, spec, replicas.min(room));
                    owners.extend(core::iter::repeat_n(b, built.len()));
                    pods.extend(built);
                    Ok(replicas)
                }
                Err(why) => Err(why),
            };
            // The conditions a pass cannot set: not ready, or nothing to keep room for.
            let condition = match &ready {
                Err((reason, message)) => Some(BufferCondition::NotReady {
                    reason,
                    message: message.clone(),
                }),
                Ok(0) => Some(BufferCondition::Empty),
                Ok(_) => None,
            };
            self.buffers.status[b].resolved = Some(ready);
            if let Some(c) = condition {
                self.set_buffer_condition(b, c);
            }
        }
        self.buffers.pods = pods;
        self.buffers.owners = owners;
        // With no virtual pod left (the last buffer deleted or emptied), no node holds one.
        // Upstream keeps the last pass's counts until a pass runs again, which nothing may
        // trigger; the playground clears them at once.
        if self.buffers.pods.is_empty() {
            self.buffers.holding.clear();
        }
        if any_resolved {
            self.provisioner.trigger(self.now);
        }
    }

    /// `ResolveCapacityBuffer`: the pod template and, for a scalable workload, its replicas;
    /// or the condition's reason and message.
    #[allow(clippy::type_complexity)]
    fn resolve_buffer(
        &self,
        b: usize,
    ) -> Result<(PodTemplate, Option<u32>), (&'static str, String)> {
        let buffer = &self.buffers.buffers[b];
        if let Some(name) = &buffer.pod_template_ref {
            return self
                .buffers
                .templates
                .iter()
                .find(|t| &t.name == name && t.namespace == buffer.namespace)
                .map(|t| (t.template.clone(), None))
                .ok_or_else(|| {
                    (
                        "PodTemplateNotFound",
                        format!("podtemplates \"{name}\" not found"),
                    )
                });
        }
        let Some(r) = &buffer.scalable_ref else {
            return Err((
                "ResolutionFailed",
                "Neither podTemplateRef nor scalableRef is set".into(),
            ));
        };
        let kind = r.workload_kind().map_err(|e| ("ResolutionFailed", e))?;
        let w = self
            .cluster
            .find_workload(kind.as_str(), &r.name, &buffer.namespace)
            .filter(|&w| !self.cluster.workload_state[w].deleted)
            .ok_or_else(|| {
                let resource = match kind {
                    WorkloadKind::StatefulSet => "statefulsets.apps",
                    WorkloadKind::ReplicaSet => "replicasets.apps",
                    _ => "deployments.apps",
                };
                (
                    "ScalableRefNotFound",
                    format!("{resource} \"{}\" not found", r.name),
                )
            })?;
        let wl = &self.cluster.workloads[w];
        Ok((wl.template.clone(), Some(wl.replicas)))
    }

    /// `BuildVirtualPods`: `replicas` pods of the sanitized template, named
    /// `capacity-buffer-NAME-i`, with the lowest priority and the fake-pod annotations.
    fn virtual_pods(
        &mut self,
        b: usize,
        template: &PodTemplate,
        spec: PodSpec,
        replicas: u32,
    ) -> Vec<Pod> {
        let buffer = &self.buffers.buffers[b];
        let (name, namespace) = (buffer.name.clone(), buffer.namespace.clone());
        let spec = Rc::new(spec);
        let requests = effective_requests(&spec);
        let label_class = self
            .cluster
            .label_classes
            .class_of(&namespace, &template.labels);
        let mut annotations = StringMap::new();
        annotations.insert(cb::FAKE_POD_ANNOTATION.into(), "true".into());
        annotations.insert(cb::BUFFER_NAME_ANNOTATION.into(), name.clone());
        annotations.insert(cb::BUFFER_NAMESPACE_ANNOTATION.into(), namespace.clone());
        (1..=replicas)
            .map(|i| Pod {
                name: format!("capacity-buffer-{name}-{i}"),
                namespace: namespace.clone(),
                owner: None,
                workload: usize::MAX,
                labels: template.labels.clone(),
                label_class,
                annotations: annotations.clone(),
                spec: spec.clone(),
                requests,
                // Built now (`CreationTimestamp: time.Now()`): after every pod that exists;
                // their sequence numbers come after any real pod's.
                created_at: self.now,
                seq: u64::MAX / 2 + (b as u64) * u64::from(u32::MAX) + u64::from(i),
                node: None,
                phase: Phase::Pending,
                runtime: None,
                nominated: None,
                nominated_node: None,
                preempted_until: None,
                karpenter_message: None,
                scheduler_message: None,
                triggered: true,
                deleted: false,
                started_at: None,
            })
            .collect()
    }

    /// What a provisioning pass did with the virtual pods (indices from `first`): each
    /// buffer's `Provisioning` condition, the nodes that hold virtual pods, and the outcome
    /// left with the real pods only (`filterVirtualPodErrors`, `filterVirtualPodMapping`:
    /// nothing is recorded or nominated for a pod that does not exist). Returns, per new
    /// NodeClaim, the virtual pods it was launched for.
    pub(super) fn take_buffer_results(
        &mut self,
        outcome: &mut scheduling::Outcome,
        node_view_ids: &[usize],
        first: usize,
    ) -> Vec<Vec<String>> {
        let mut counts = alloc::vec![None::<PassCounts>; self.buffers.buffers.len()];
        let mut holding = BTreeSet::new();
        for (&p, placement) in outcome.placements.range(first..) {
            let Some(&b) = self.buffers.owners.get(p - first) else {
                continue;
            };
            let c = counts[b].get_or_insert_with(PassCounts::default);
            match placement {
                Placement::Existing(v) => {
                    c.existing += 1;
                    holding.insert(node_view_ids[*v]);
                }
                Placement::Claim(_) => c.new_claim += 1,
            }
        }
        for &p in outcome.errors.range(first..).map(|(p, _)| p) {
            if let Some(&b) = self.buffers.owners.get(p - first) {
                counts[b].get_or_insert_with(PassCounts::default).failed += 1;
            }
        }
        self.buffers.holding = holding;
        outcome.placements.retain(|&p, _| p < first);
        outcome.errors.retain(|&p, _| p < first);
        outcome.relaxed.retain(|&p| p < first);
        outcome.considered.retain(|(p, _)| *p < first);
        let mut on_claims = Vec::with_capacity(outcome.claims.len());
        for claim in &mut outcome.claims {
            on_claims.push(
                claim
                    .pods
                    .iter()
                    .filter_map(|&p| p.checked_sub(first))
                    .filter_map(|v| self.buffers.pods.get(v))
                    .map(Pod::key)
                    .collect(),
            );
            claim.pods.retain(|&p| p < first);
        }
        // `computeProvisioningCondition`, for the buffers whose pods the pass saw.
        for (b, c) in counts.into_iter().enumerate() {
            let (Some(c), Some(Ok(replicas))) = (c, self.buffers.status[b].resolved.clone()) else {
                continue;
            };
            let condition = if c.new_claim > 0 || c.failed > 0 {
                BufferCondition::RequiresNewCapacity {
                    new: c.new_claim,
                    failed: c.failed,
                    replicas,
                }
            } else if c.existing == replicas && replicas > 0 {
                BufferCondition::FitsExistingCapacity { replicas }
            } else {
                continue;
            };
            self.set_buffer_condition(b, condition);
        }
        on_claims
    }

    /// A buffer's `Provisioning` condition; a change is an event.
    fn set_buffer_condition(&mut self, b: usize, condition: BufferCondition) {
        if self.buffers.status[b].condition.as_ref() == Some(&condition) {
            return;
        }
        self.buffers.status[b].condition = Some(condition.clone());
        let buffer = &self.buffers.buffers[b];
        self.event(EventKind::CapacityBufferProvisioning {
            namespace: buffer.namespace.clone(),
            name: buffer.name.clone(),
            condition,
        });
    }

    /// A Timeline `apply` of a CapacityBuffer: created, or its spec replaced.
    pub(super) fn apply_buffer(&mut self, buffer: CapacityBuffer) {
        match self
            .buffers
            .buffers
            .iter()
            .position(|b| b.name == buffer.name && b.namespace == buffer.namespace)
        {
            Some(i) => self.buffers.buffers[i] = buffer,
            None => {
                self.buffers.buffers.push(buffer);
                self.buffers.status.push(Status::default());
            }
        }
        // The controller reconciles a changed buffer at once.
        self.buffer_changed();
    }

    /// A Timeline `delete` of a CapacityBuffer (`RemoveEntry`): its virtual pods go.
    pub(super) fn delete_buffer(&mut self, namespace: &str, name: &str) -> bool {
        let Some(i) = self
            .buffers
            .buffers
            .iter()
            .position(|b| b.name == name && b.namespace == namespace)
        else {
            return false;
        };
        self.buffers.buffers.remove(i);
        self.buffers.status.remove(i);
        let mut kept = 0;
        for j in 0..self.buffers.pods.len() {
            let owner = self.buffers.owners[j];
            if owner != i {
                self.buffers.pods.swap(kept, j);
                self.buffers.owners[kept] = owner - usize::from(owner > i);
                kept += 1;
            }
        }
        self.buffers.pods.truncate(kept);
        self.buffers.owners.truncate(kept);
        self.buffer_changed();
        true
    }

    /// The buffers changed: the controller looks at once, not at the next 30 s tick.
    fn buffer_changed(&mut self) {
        self.cluster.version += 1;
        if !self.buffers.queued && self.karpenter.gate(Gate::CapacityBuffer) {
            self.buffers.queued = true;
            self.schedule(self.now, Action::BufferCheck);
        }
    }

    /// The buffers as the report lists them: replicas and the last conditions.
    pub(super) fn buffer_reports(&self) -> Vec<crate::report::CapacityBufferReport> {
        self.buffers
            .buffers
            .iter()
            .zip(&self.buffers.status)
            .map(|(b, s)| {
                let (ready, replicas) = match &s.resolved {
                    Some(Ok(r)) => (Some(true), Some(*r)),
                    Some(Err(_)) => (Some(false), None),
                    None => (None, None),
                };
                crate::report::CapacityBufferReport {
                    name: b.name.clone(),
                    namespace: b.namespace.clone(),
                    replicas,
                    ready_for_provisioning: ready,
                    provisioning: s.condition.as_ref().map(|c| c.reason().into()),
                    message: s.condition.as_ref().map(|c| c.to_string()),
                }
            })
            .collect()
    }
}

/// `sanitizeVirtualPodSpec`: the template's spec with no node name and the lowest priority
/// (`VirtualPodPriority`, MinInt32), so it never outranks a real pod.
fn virtual_spec(spec: &PodSpec) -> PodSpec {
    let mut spec = spec.clone();
    spec.node_name = None;
    spec.priority = i32::MIN;
    // `sanitizeVirtualPodSpec` drops the claim-backed volumes (PVC and ephemeral), which
    // are all the volumes the model keeps: a virtual pod has no zone of its own.
    spec.volumes.clear();
    spec
}

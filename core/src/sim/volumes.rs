//! Volumes in the simulated cluster: the claims and volumes the API server holds, and the
//! controllers that bind them. The DefaultStorageClass admission plugin gives a claim with no
//! `storageClassName` the default class; the StatefulSet controller creates one claim per
//! replica and template (`TEMPLATE-STATEFULSET-ORDINAL`) and keeps it when the StatefulSet
//! scales down (the default `persistentVolumeClaimRetentionPolicy`, `Retain`); the ephemeral
//! volume controller creates a pod's `POD-VOLUME` claims; the PV controller binds a claim to
//! the volume it names; the CSI driver (the external-provisioner and the EBS CSI driver)
//! provisions an `Immediate` claim at once and a `WaitForFirstConsumer` one in the zone of
//! the node kube-scheduler binds its first pod to (VolumeBinding's PreBind).
//!
//! Also what the schedulers ask of them: kube-scheduler's VolumeBinding PreFilter and
//! Filter, NodeVolumeLimits, and Karpenter's volume validation, volume topology and volume
//! usage, each in its owner's words.

use alloc::collections::BTreeSet;

use super::*;
use crate::scheduling::volumes::{NodeVolumes, PassVolumes, PodVolumes};
use crate::volumes::{
    self as vol, BindingMode, ClaimSpec, PersistentVolume, Storage, StorageClass,
};

/// A claim as the API server holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimState {
    /// The spec, its class filled in by the DefaultStorageClass admission plugin.
    pub spec: ClaimSpec,
    /// The PersistentVolume it is bound to.
    pub volume: Option<String>,
    /// `status.phase: Lost`: bound to a volume that no longer exists.
    pub lost: bool,
}

/// The storage objects the API server holds: StorageClasses, claims by (namespace, name),
/// and volumes by name.
#[derive(Clone, Debug, Default)]
pub(super) struct VolumeStore {
    classes: BTreeMap<String, StorageClass>,
    /// The class the DefaultStorageClass admission plugin gives: the newest of those
    /// annotated default (the last written).
    default_class: Option<String>,
    claims: BTreeMap<(String, String), ClaimState>,
    volumes: BTreeMap<String, PersistentVolume>,
}

impl VolumeStore {
    pub(super) fn new(storage: &Storage) -> VolumeStore {
        let mut store = VolumeStore {
            classes: storage
                .classes
                .iter()
                .map(|c| (c.name.clone(), c.clone()))
                .collect(),
            default_class: storage
                .classes
                .iter()
                .rev()
                .find(|c| c.is_default)
                .map(|c| c.name.clone()),
            claims: BTreeMap::new(),
            volumes: storage
                .volumes
                .iter()
                .map(|v| (v.name.clone(), v.clone()))
                .collect(),
        };
        for c in &storage.claims {
            let spec = store.admit(&c.spec);
            // The PV controller binds a claim to the volume it names, or to the volume
            // whose claimRef names it (a pre-bound volume).
            let named = spec.volume_name.clone();
            let pre_bound = store
                .volumes
                .values()
                .find(|v| v.claim_ref == Some((c.namespace.clone(), c.name.clone())))
                .map(|v| v.name.clone());
            // A claim that names a volume that does not exist waits for it (Pending); one
            // whose volume went after it was bound is `Lost`, which only a snapshot says.
            let volume = named
                .filter(|n| store.volumes.contains_key(n))
                .or(pre_bound);
            let lost = c.phase.as_deref() == Some("Lost");
            store.claims.insert(
                (c.namespace.clone(), c.name.clone()),
                ClaimState { spec, volume, lost },
            );
        }
        store
    }

    /// The DefaultStorageClass admission plugin: a claim that names no class gets the
    /// default one, if the cluster has one.
    fn admit(&self, spec: &ClaimSpec) -> ClaimSpec {
        let mut spec = spec.clone();
        if spec.storage_class.is_none() {
            spec.storage_class = self.default_class.clone();
        }
        spec
    }

    pub fn claim(&self, namespace: &str, name: &str) -> Option<&ClaimState> {
        self.claims.get(&(namespace.to_string(), name.to_string()))
    }

    pub fn volume(&self, name: &str) -> Option<&PersistentVolume> {
        self.volumes.get(name)
    }

    fn class_of(&self, claim: &ClaimState) -> Option<&StorageClass> {
        claim
            .spec
            .storage_class
            .as_deref()
            .filter(|c| !c.is_empty())
            .and_then(|c| self.classes.get(c))
    }

    /// The zone a bound claim's volume is in, when its node affinity names one.
    pub fn zone_of(&self, claim: &ClaimState) -> Option<String> {
        let pv = self.volumes.get(claim.volume.as_deref()?)?;
        let reqs = vol::fold_alternatives(vol::volume_alternatives(pv))?;
        let zone = reqs.get(wk::ZONE)?;
        (zone.operator() == Operator::In).then(|| zone.values().join(", "))
    }

    /// The CSI driver that attaches the claim's volume (`ResolveDriver`,
    /// `K@v1.14.1:pkg/scheduling/volumeusage.go`): a bound volume's own driver, else the
    /// class's provisioner.
    fn driver_of(&self, claim: &ClaimState) -> Option<String> {
        match &claim.volume {
            Some(v) => self.volumes.get(v).and_then(|pv| pv.driver.clone()),
            None => self
                .class_of(claim)
                .map(|c| vol::csi_driver(&c.provisioner).to_string()),
        }
    }
}

/// A pod's claims: (claim name, its state if it exists).
fn pod_claims<'a>(store: &'a VolumeStore, pod: &Pod) -> Vec<(String, Option<&'a ClaimState>)> {
    pod.spec
        .volumes
        .iter()
        .map(|v| {
            let name = v.claim_name(&pod.name);
            let state = store.claim(&pod.namespace, &name);
            (name, state)
        })
        .collect()
}

/// Whether the node's labels satisfy ORed terms of ANDed expressions, keys read as
/// Karpenter's AWS provider reads them (the EBS driver's zone key is the zone).
fn node_matches(terms: &[Vec<NodeSelectorRequirement>], labels: &StringMap) -> bool {
    terms.is_empty()
        || terms.iter().any(|t| {
            t.iter().all(|e| {
                let e = NodeSelectorRequirement {
                    key: vol::normalize_key(&e.key).to_string(),
                    ..e.clone()
                };
                pod::label_requirement_holds(&e, labels)
            })
        })
}

impl Simulation {
    /// Provisions every unbound `Immediate` claim the scenario starts with.
    pub(super) fn provision_immediate_claims(&mut self) {
        let keys: Vec<(String, String)> = self.cluster.volumes.claims.keys().cloned().collect();
        for (namespace, name) in keys {
            self.provision_if_immediate(&namespace, &name);
        }
    }

    fn provision_if_immediate(&mut self, namespace: &str, name: &str) {
        let store = &self.cluster.volumes;
        let Some(claim) = store.claim(namespace, name) else {
            return;
        };
        if claim.volume.is_some() || claim.lost || claim.spec.volume_name.is_some() {
            return;
        }
        let Some(class) = store.class_of(claim) else {
            return;
        };
        if class.binding_mode != BindingMode::Immediate {
            return;
        }
        // The external-provisioner offers every zone the driver's nodes span, its preferred
        // list rotated by a hash of the claim's name, and the EBS driver creates the volume
        // in the first: the playground's driver spans the cluster's zones (those the
        // StorageClass allows), and the rotation is a hash of the claim and the scenario's
        // seed, so a scenario always provisions the same way.
        let allowed = vol::class_alternatives(class);
        let mut zones: Vec<String> = self
            .cloud
            .zones()
            .iter()
            .filter(|z| {
                allowed.is_empty()
                    || allowed
                        .iter()
                        .any(|a| a.get(wk::ZONE).is_none_or(|r| r.has(z)))
            })
            .cloned()
            .collect();
        zones.sort();
        if zones.is_empty() {
            return;
        }
        let pick = self
            .rng
            .fork(pod::stable_hash(&["pvc-zone", namespace, name]))
            .below(zones.len() as u64) as usize;
        let zone = zones[pick].clone();
        self.provision_volume(namespace, name, &zone);
    }

    /// The CSI driver creates a volume for the claim in `zone` and the PV controller binds
    /// them. An EBS volume is zonal (its node affinity names the zone); another driver's
    /// volume is reachable from every node.
    fn provision_volume(&mut self, namespace: &str, name: &str, zone: &str) {
        let store = &self.cluster.volumes;
        let Some(claim) = store.claim(namespace, name) else {
            return;
        };
        let Some(class) = store.class_of(claim) else {
            return;
        };
        let driver = vol::csi_driver(&class.provisioner).to_string();
        let zonal = driver == vol::EBS_CSI_DRIVER;
        let mut r = self.rng.fork(pod::stable_hash(&["pv", namespace, name]));
        let volume = format!(
            "pvc-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            r.next_u64() as u32,
            r.next_u64() as u16,
            r.next_u64() as u16,
            r.next_u64() as u16,
            r.next_u64() & 0xffff_ffff_ffff
        );
        let node_affinity = if zonal {
            alloc::vec![alloc::vec![NodeSelectorRequirement {
                key: wk::ZONE.into(),
                operator: Operator::In,
                values: alloc::vec![zone.to_string()],
                min_values: None,
            }]]
        } else {
            Vec::new()
        };
        let pv = PersistentVolume {
            name: volume.clone(),
            storage_class: class.name.clone(),
            node_affinity,
            claim_ref: Some((namespace.to_string(), name.to_string())),
            driver: Some(driver),
            local: false,
        };
        self.cluster.volumes.volumes.insert(volume.clone(), pv);
        if let Some(c) = self
            .cluster
            .volumes
            .claims
            .get_mut(&(namespace.to_string(), name.to_string()))
        {
            c.volume = Some(volume.clone());
        }
        self.cluster.version += 1;
        self.event(EventKind::VolumeProvisioned {
            namespace: namespace.to_string(),
            claim: name.to_string(),
            volume,
            zone: zonal.then(|| zone.to_string()),
        });
    }

    /// The StatefulSet controller and the ephemeral volume controller create the claims a
    /// new pod needs that do not exist yet; a StatefulSet's outlive its pods.
    pub(super) fn create_pod_claims(&mut self, p: usize) {
        let pod = &self.cluster.pods[p];
        let namespace = pod.namespace.clone();
        let wanted: Vec<(String, ClaimSpec)> = pod
            .spec
            .volumes
            .iter()
            .filter_map(|v| Some((v.claim_name(&pod.name), v.created_spec()?.clone())))
            .collect();
        for (name, spec) in wanted {
            let key = (namespace.clone(), name.clone());
            if self.cluster.volumes.claims.contains_key(&key) {
                continue;
            }
            let spec = self.cluster.volumes.admit(&spec);
            self.cluster.volumes.claims.insert(
                key,
                ClaimState {
                    spec,
                    volume: None,
                    lost: false,
                },
            );
            self.cluster.version += 1;
            self.provision_if_immediate(&namespace, &name);
        }
    }

    /// VolumeBinding's PreBind: each unbound `WaitForFirstConsumer` claim of a pod bound to
    /// node `n` is provisioned in the node's zone.
    pub(super) fn bind_pod_volumes(&mut self, p: usize, n: usize) {
        let pod = &self.cluster.pods[p];
        if pod.spec.volumes.is_empty() {
            return;
        }
        let namespace = pod.namespace.clone();
        let store = &self.cluster.volumes;
        let unbound: Vec<String> = pod_claims(store, pod)
            .into_iter()
            .filter(|(_, c)| {
                c.is_some_and(|c| {
                    c.volume.is_none()
                        && !c.lost
                        && store
                            .class_of(c)
                            .is_some_and(|k| k.binding_mode == BindingMode::WaitForFirstConsumer)
                })
            })
            .map(|(name, _)| name)
            .collect();
        let zone = self.cluster.nodes[n].zone.clone();
        for name in unbound {
            self.provision_volume(&namespace, &name, &zone);
        }
    }

    /// VolumeBinding's PreFilter (`volume_binding.go`): a claim that does not exist, is
    /// lost, or is an unbound `Immediate` one keeps the pod off every node, in
    /// kube-scheduler's words.
    pub(super) fn kube_volume_prefilter(&self, pod: &Pod) -> Result<(), String> {
        let store = &self.cluster.volumes;
        let mut immediate_unbound = false;
        for (name, claim) in pod_claims(store, pod) {
            let Some(claim) = claim else {
                return Err(format!("persistentvolumeclaim \"{name}\" not found"));
            };
            if claim.lost {
                return Err(format!(
                    "persistentvolumeclaim \"{name}\" bound to non-existent persistentvolume \
                     \"{}\"",
                    claim.spec.volume_name.clone().unwrap_or_default()
                ));
            }
            if claim.volume.is_none()
                && store
                    .class_of(claim)
                    .is_none_or(|c| c.binding_mode == BindingMode::Immediate)
            {
                immediate_unbound = true;
            }
        }
        if immediate_unbound {
            return Err("pod has unbound immediate PersistentVolumeClaims".into());
        }
        Ok(())
    }

    /// NodeVolumeLimits, then VolumeBinding's Filter, for each node of kube-scheduler's
    /// cache: the first that rejects the node, if any. Empty for a pod without claims.
    pub(super) fn kube_volume_filters(
        &self,
        pod: &Pod,
        nodes: &[KubeNode],
        bound: &[Vec<usize>],
    ) -> Vec<Option<kube::Rejection>> {
        if pod.spec.volumes.is_empty() {
            return Vec::new();
        }
        let store = &self.cluster.volumes;
        let claims = pod_claims(store, pod);
        let needs = self.pod_volumes(pod);
        nodes
            .iter()
            .zip(bound)
            .map(|(node, on_node)| {
                let usage = self.node_volumes(node.id, on_node);
                if usage.exceeds_limits(&needs) {
                    return Some(kube::Rejection::VolumeLimits);
                }
                for (_, claim) in &claims {
                    let Some(claim) = claim else { continue };
                    match &claim.volume {
                        Some(v) => {
                            let affinity = store.volume(v).map(|pv| pv.node_affinity.as_slice());
                            if !node_matches(affinity.unwrap_or(&[]), &node.labels) {
                                return Some(kube::Rejection::VolumeNodeConflict);
                            }
                        }
                        None => {
                            let allowed = store
                                .class_of(claim)
                                .map(|c| c.allowed_topologies.as_slice())
                                .unwrap_or(&[]);
                            if !node_matches(allowed, &node.labels) {
                                return Some(kube::Rejection::VolumeBindConflict);
                            }
                        }
                    }
                }
                None
            })
            .collect()
    }

    /// The volumes a pod attaches per driver, and the topology its claims ask of a node.
    fn pod_volumes(&self, pod: &Pod) -> PodVolumes {
        let store = &self.cluster.volumes;
        let mut out = PodVolumes::default();
        let mut alternatives: Vec<Vec<Requirements>> = Vec::new();
        for (name, claim) in pod_claims(store, pod) {
            let Some(claim) = claim else { continue };
            if let Some(driver) = store.driver_of(claim) {
                out.attaches
                    .entry(driver)
                    .or_default()
                    .insert(format!("{}/{name}", pod.namespace));
            }
            let alts = match &claim.volume {
                Some(v) => store
                    .volume(v)
                    .map(vol::volume_alternatives)
                    .unwrap_or_default(),
                None => store
                    .class_of(claim)
                    .map(vol::class_alternatives)
                    .unwrap_or_default(),
            };
            if !alts.is_empty() {
                alternatives.push(alts);
            }
        }
        let mut merged: Option<Requirements> = None;
        for alts in alternatives {
            if let Some(r) = vol::fold_alternatives(alts) {
                let m = merged.get_or_insert_with(Requirements::new);
                m.add_all(&r);
            }
        }
        out.requirements = merged.map(Rc::new);
        out
    }

    /// What node `n`'s CSI drivers can attach (once the node is registered, the EBS CSI
    /// driver's node plugin has written its `CSINode`) and what the pods `on_node` attach.
    fn node_volumes(&self, n: usize, on_node: &[usize]) -> NodeVolumes {
        let node = &self.cluster.nodes[n];
        let mut out = NodeVolumes::default();
        if node.state >= NodeState::Registered {
            out.limits.insert(
                vol::EBS_CSI_DRIVER.to_string(),
                vol::ebs_attach_limit(&node.instance_type),
            );
        }
        for &q in on_node {
            let pod = &self.cluster.pods[q];
            if !pod.spec.volumes.is_empty() {
                out.add(&self.pod_volumes(pod));
            }
        }
        out
    }

    /// Karpenter's `ValidatePersistentVolumeClaims`
    /// (`K@v1.14.1:pkg/controllers/provisioning/scheduling/volumetopology.go`): the reason a
    /// pod's claims make the provisioner ignore it, in Karpenter's words.
    pub(super) fn karpenter_volume_problem(&self, pod: &Pod) -> Option<String> {
        let store = &self.cluster.volumes;
        for (name, claim) in pod_claims(store, pod) {
            let key = format!("{}/{name}", pod.namespace);
            let Some(claim) = claim else {
                return Some(format!(
                    "getting persistent volume claim, persistentvolumeclaims \"{name}\" not found \
                     (PersistentVolumeClaim={name})"
                ));
            };
            let class = claim.spec.storage_class.clone().unwrap_or_default();
            if claim.lost {
                return Some(format!(
                    "persistentvolumeclaim bound to non-existent persistentvolume \
                     (PersistentVolumeClaim={key}, PersistentVolume={})",
                    claim.spec.volume_name.clone().unwrap_or_default()
                ));
            }
            if claim.volume.is_some() {
                continue;
            }
            if let Some(volume) = &claim.spec.volume_name {
                return Some(format!(
                    "failed to validate pvc, persistentvolumes \"{volume}\" not found \
                     (PersistentVolumeClaim={key}, PersistentVolume={volume}, StorageClass={class})"
                ));
            }
            if class.is_empty() {
                return Some(format!(
                    "unbound pvc must define a storage class (PersistentVolumeClaim={key}, \
                     StorageClass=)"
                ));
            }
            let Some(sc) = store.class_of(claim) else {
                return Some(format!(
                    "failed to validate pvc, failed to get storage class, \
                     storageclasses.storage.k8s.io \"{class}\" not found \
                     (PersistentVolumeClaim={key}, StorageClass={class})"
                ));
            };
            if sc.binding_mode == BindingMode::Immediate {
                return Some(format!(
                    "failed to validate pvc, pvc with immediate volume binding mode must be \
                     bound (PersistentVolumeClaim={key}, StorageClass={class})"
                ));
            }
        }
        None
    }

    /// A scheduling pass's volumes: those of the `pods` that have claims, and every existing
    /// node's attach limits and attached volumes.
    pub(super) fn pass_volumes(&self, pods: &[usize]) -> PassVolumes {
        let mut out = PassVolumes::default();
        for &p in pods {
            // A CapacityBuffer's virtual pods come after the cluster's and have no volumes
            // (`sanitizeVirtualPodSpec`).
            let Some(pod) = self.cluster.pods.get(p) else {
                continue;
            };
            if !pod.spec.volumes.is_empty() {
                out.pods.insert(p, self.pod_volumes(pod));
            }
        }
        if out.pods.is_empty() {
            return out;
        }
        let by_node = self.cluster.active_pods_by_node();
        for n in 0..self.cluster.nodes.len() {
            if !self.cluster.nodes[n].active() {
                continue;
            }
            let on_node = by_node.get(n).map(Vec::as_slice).unwrap_or(&[]);
            let usage = self.node_volumes(n, on_node);
            if !usage.limits.is_empty() || !usage.attached.is_empty() {
                out.nodes.insert(n, usage);
            }
        }
        out
    }

    /// The claims of pod `p`, each with what binds it: its volume and that volume's zone
    /// (for the explanations).
    pub fn pod_claim_states(&self, p: usize) -> Vec<(String, Option<ClaimState>, Option<String>)> {
        let store = &self.cluster.volumes;
        let Some(pod) = self.cluster.pods.get(p) else {
            return Vec::new();
        };
        pod_claims(store, pod)
            .into_iter()
            .map(|(name, c)| {
                let zone = c.and_then(|c| store.zone_of(c));
                (name, c.cloned(), zone)
            })
            .collect()
    }

    /// The claims the API server holds, with the volume each is bound to and its zone:
    /// (namespace, name, volume, zone).
    pub fn claims(&self) -> Vec<(String, String, Option<String>, Option<String>)> {
        let store = &self.cluster.volumes;
        store
            .claims
            .iter()
            .map(|((ns, name), c)| (ns.clone(), name.clone(), c.volume.clone(), store.zone_of(c)))
            .collect()
    }

    /// The names of the claims every pod has attached on node `n`: what counts against its
    /// attach limit.
    pub fn attached_volumes(&self, n: usize) -> BTreeSet<String> {
        let on_node: Vec<usize> = self.cluster.active_pods_on(n).collect();
        self.node_volumes(n, &on_node)
            .attached
            .into_values()
            .flatten()
            .collect()
    }
}

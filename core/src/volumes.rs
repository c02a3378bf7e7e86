//! Persistent volumes as the schedulers see them: StorageClasses, PersistentVolumeClaims,
//! PersistentVolumes and the volumes a pod names, and the rules that need no cluster: which
//! claim a pod volume means, the topology a bound volume or a StorageClass asks of a node
//! (Karpenter's `VolumeTopology`), which CSI driver attaches a volume (`ResolveDriver`) and
//! how many EBS volumes an instance type can attach.
//!
//! The simulation's part (binding, provisioning, the claims a StatefulSet creates) is
//! `sim::volumes`.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::model::NodeSelectorRequirement;
use crate::requirements::{Operator, Requirement, Requirements};

/// The Amazon EBS CSI driver.
pub const EBS_CSI_DRIVER: &str = "ebs.csi.aws.com";
/// The in-tree EBS plugin, which the CSI translation library maps to [`EBS_CSI_DRIVER`].
pub const IN_TREE_EBS: &str = "kubernetes.io/aws-ebs";
/// The zone key the EBS CSI driver writes into a volume's node affinity; Karpenter's AWS
/// provider reads it as `topology.kubernetes.io/zone` (`karpv1.NormalizedLabels`,
/// `P@v1.14.1:pkg/operator/operator.go`).
pub const EBS_ZONE_KEY: &str = "topology.ebs.csi.aws.com/zone";
/// The annotation that makes a StorageClass the default one.
pub const DEFAULT_CLASS_ANNOTATION: &str = "storageclass.kubernetes.io/is-default-class";

/// `volumeBindingMode` (the API's default is `Immediate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BindingMode {
    #[default]
    Immediate,
    WaitForFirstConsumer,
}

impl BindingMode {
    pub fn as_str(self) -> &'static str {
        match self {
            BindingMode::Immediate => "Immediate",
            BindingMode::WaitForFirstConsumer => "WaitForFirstConsumer",
        }
    }
}

/// `storage.k8s.io/v1` StorageClass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageClass {
    pub name: String,
    pub provisioner: String,
    pub binding_mode: BindingMode,
    /// `allowedTopologies`: ORed terms of ANDed `In` expressions.
    pub allowed_topologies: Vec<Vec<NodeSelectorRequirement>>,
    /// Annotated `storageclass.kubernetes.io/is-default-class: "true"`.
    pub is_default: bool,
}

/// A PersistentVolumeClaim's spec (also a StatefulSet's `volumeClaimTemplates` entry and a
/// generic ephemeral volume's `volumeClaimTemplate`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimSpec {
    /// `storageClassName`: `None` when not written (the DefaultStorageClass admission plugin
    /// fills it in), `Some("")` for "no class" (static binding only).
    pub storage_class: Option<String>,
    /// `volumeName`: the PersistentVolume it binds (or is bound) to.
    pub volume_name: Option<String>,
    pub access_modes: Vec<String>,
    /// `resources.requests.storage`, bytes.
    pub storage: i64,
}

/// `v1` PersistentVolumeClaim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub name: String,
    pub namespace: String,
    pub spec: ClaimSpec,
    /// `status.phase` when a snapshot carries it (`Lost` matters: kube-scheduler and
    /// Karpenter refuse its pods).
    pub phase: Option<String>,
}

/// `v1` PersistentVolume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersistentVolume {
    pub name: String,
    pub storage_class: String,
    /// `spec.nodeAffinity.required.nodeSelectorTerms`.
    pub node_affinity: Vec<Vec<NodeSelectorRequirement>>,
    /// `spec.claimRef`: (namespace, name).
    pub claim_ref: Option<(String, String)>,
    /// `spec.csi.driver`, or the EBS driver for `awsElasticBlockStore`; `None` for a volume
    /// no CSI driver attaches (nothing counts against attach limits).
    pub driver: Option<String>,
    /// A `local` or `hostPath` volume: Karpenter drops its hostname terms.
    pub local: bool,
}

/// The scenario's storage objects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Storage {
    pub classes: Vec<StorageClass>,
    pub claims: Vec<Claim>,
    pub volumes: Vec<PersistentVolume>,
}

impl Storage {
    pub fn is_empty(&self) -> bool {
        self.classes.is_empty() && self.claims.is_empty() && self.volumes.is_empty()
    }
}

/// A pod volume backed by a claim (other volume types need no scheduling).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PodVolume {
    /// `persistentVolumeClaim.claimName`.
    Claim { name: String, claim: String },
    /// A generic ephemeral volume (`ephemeral.volumeClaimTemplate`): the ephemeral volume
    /// controller creates the claim `POD-VOLUME`, owned by the pod.
    Ephemeral { name: String, spec: ClaimSpec },
    /// A StatefulSet's `volumeClaimTemplates` entry: the StatefulSet controller creates the
    /// claim `TEMPLATE-POD` (POD being `STATEFULSET-ORDINAL`) and keeps it when the pod goes.
    Template { name: String, spec: ClaimSpec },
}

impl PodVolume {
    /// The volume's name in the pod.
    pub fn name(&self) -> &str {
        match self {
            PodVolume::Claim { name, .. }
            | PodVolume::Ephemeral { name, .. }
            | PodVolume::Template { name, .. } => name,
        }
    }

    /// The claim this volume means for the pod named `pod`
    /// (`K@v1.14.1:pkg/utils/volume/volume.go` for ephemeral volumes; the StatefulSet
    /// controller's `getPersistentVolumeClaimName` for templates).
    pub fn claim_name(&self, pod: &str) -> String {
        match self {
            PodVolume::Claim { claim, .. } => claim.clone(),
            PodVolume::Ephemeral { name, .. } => alloc::format!("{pod}-{name}"),
            PodVolume::Template { name, .. } => alloc::format!("{name}-{pod}"),
        }
    }

    /// The spec of the claim the pod's controller creates, if it creates one.
    pub fn created_spec(&self) -> Option<&ClaimSpec> {
        match self {
            PodVolume::Claim { .. } => None,
            PodVolume::Ephemeral { spec, .. } | PodVolume::Template { spec, .. } => Some(spec),
        }
    }
}

/// A requirement key as Karpenter's AWS provider reads it: the EBS driver's zone key is the
/// zone.
pub fn normalize_key(key: &str) -> &str {
    if key == EBS_ZONE_KEY {
        crate::wellknown::ZONE
    } else {
        crate::wellknown::normalize_key(key)
    }
}

fn requirements_of<'a>(exprs: impl Iterator<Item = &'a NodeSelectorRequirement>) -> Requirements {
    let mut out = Requirements::new();
    for e in exprs {
        out.add(Requirement::new(
            normalize_key(&e.key),
            e.operator,
            e.values.iter().cloned(),
        ));
    }
    out
}

/// A bound volume's node affinity as Karpenter's alternatives: one per term, a `local` or
/// `hostPath` volume's hostname expressions dropped (a term of nothing but hostname is then
/// no constraint at all) (`getPersistentVolumeRequirements`,
/// `K@v1.14.1:pkg/controllers/provisioning/scheduling/volumetopology.go`).
pub fn volume_alternatives(pv: &PersistentVolume) -> Vec<Requirements> {
    let mut out = Vec::new();
    for term in &pv.node_affinity {
        let kept: Vec<&NodeSelectorRequirement> = term
            .iter()
            .filter(|e| !(pv.local && e.key == crate::wellknown::HOSTNAME))
            .collect();
        if pv.local && !term.is_empty() && kept.is_empty() {
            out.push(Requirements::new());
            continue;
        }
        if !kept.is_empty() {
            out.push(requirements_of(kept.into_iter()));
        }
    }
    out
}

/// A StorageClass's `allowedTopologies` as alternatives, every expression an `In`
/// (`getStorageClassRequirements`, same file).
pub fn class_alternatives(class: &StorageClass) -> Vec<Requirements> {
    class
        .allowed_topologies
        .iter()
        .filter(|t| !t.is_empty())
        .map(|t| {
            let mut out = Requirements::new();
            for e in t {
                out.add(Requirement::new(
                    normalize_key(&e.key),
                    Operator::In,
                    e.values.iter().cloned(),
                ));
            }
            out
        })
        .collect()
}

/// Karpenter keeps a volume's alternatives apart and tries each (v1.13+:
/// `mergeVolumeRequirementAlternatives`). The playground folds them into one set of
/// requirements: exact when they are one alternative, or alternatives that each constrain
/// the same single key with `In` (a volume allowed in zone a or zone b is `zone In [a, b]`),
/// which is what EBS volumes and zonal StorageClasses write. Otherwise the first alternative
/// stands for all (an approximation, said in the book's What the engine simulates).
pub fn fold_alternatives(mut alts: Vec<Requirements>) -> Option<Requirements> {
    if alts.is_empty() {
        return None;
    }
    if alts.len() == 1 {
        return alts.pop();
    }
    let single_in_key = |r: &Requirements| -> Option<(String, Vec<String>)> {
        let mut it = r.iter();
        let first = it.next()?;
        if it.next().is_some() || first.operator() != Operator::In {
            return None;
        }
        Some((first.key.to_string(), first.values().to_vec()))
    };
    let mut key: Option<String> = None;
    let mut values: Vec<String> = Vec::new();
    for a in &alts {
        match single_in_key(a) {
            Some((k, v)) if key.as_ref().is_none_or(|known| *known == k) => {
                key = Some(k);
                values.extend(v);
            }
            _ => return Some(alts.swap_remove(0)),
        }
    }
    values.sort();
    values.dedup();
    let mut out = Requirements::new();
    out.add(Requirement::new(&key?, Operator::In, values));
    Some(out)
}

/// The CSI driver of a provisioner or driver name, the in-tree EBS plugin translated as the
/// CSI translation library does (`driverFromSC`, `K@v1.14.1:pkg/scheduling/volumeusage.go`).
pub fn csi_driver(name: &str) -> &str {
    if name == IN_TREE_EBS {
        EBS_CSI_DRIVER
    } else {
        name
    }
}

const EBS_LIMITS: &str = include_str!("../data/ebs-attach-limits.csv");

/// How many EBS volumes the EBS CSI driver's node plugin reports a node of this instance type
/// can attach (`CSINode` `allocatable.count`), which both Karpenter (`populateVolumeLimits`,
/// `K@v1.14.1:pkg/controllers/state/cluster.go`) and kube-scheduler's NodeVolumeLimits read.
///
/// The table (`core/data/ebs-attach-limits.csv`) is the driver's per-type maximum; the node
/// plugin then keeps one attachment for the root volume (a node of an EC2NodeClass has one
/// block device mapping). On a Nitro type whose limit is shared with network interfaces it
/// also takes the interfaces attached when it starts beyond the primary one; the playground's
/// nodes start with one, so nothing more. Types the table does not list have the driver's
/// default, 27 shared.
pub fn ebs_attach_limit(instance_type: &str) -> u32 {
    let max = EBS_LIMITS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| {
            let mut cols = l.split(',');
            (cols.next() == Some(instance_type))
                .then(|| cols.next().and_then(|n| n.parse::<u32>().ok()))
                .flatten()
        })
        .unwrap_or(27);
    max.saturating_sub(1).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone_in(zones: &[&str]) -> Vec<NodeSelectorRequirement> {
        alloc::vec![NodeSelectorRequirement {
            key: EBS_ZONE_KEY.into(),
            operator: Operator::In,
            values: zones.iter().map(|z| z.to_string()).collect(),
            min_values: None,
        }]
    }

    #[test]
    fn claim_names_follow_their_controllers() {
        let t = PodVolume::Template {
            name: "data".into(),
            spec: ClaimSpec::default(),
        };
        assert_eq!(t.claim_name("db-0"), "data-db-0");
        let e = PodVolume::Ephemeral {
            name: "scratch".into(),
            spec: ClaimSpec::default(),
        };
        assert_eq!(e.claim_name("web-abcde"), "web-abcde-scratch");
    }

    #[test]
    fn the_ebs_zone_key_is_the_zone_and_zonal_terms_fold_into_one_in() {
        let pv = PersistentVolume {
            name: "pv".into(),
            storage_class: String::new(),
            node_affinity: alloc::vec![zone_in(&["us-east-1b"]), zone_in(&["us-east-1a"])],
            claim_ref: None,
            driver: Some(EBS_CSI_DRIVER.into()),
            local: false,
        };
        let folded = fold_alternatives(volume_alternatives(&pv)).unwrap();
        let zone = folded.get(crate::wellknown::ZONE).unwrap();
        assert_eq!(zone.values(), ["us-east-1a", "us-east-1b"]);
    }

    #[test]
    fn attach_limits_keep_one_for_the_root_volume() {
        assert_eq!(ebs_attach_limit("m5.large"), 26);
        assert_eq!(ebs_attach_limit("m7i.large"), 31);
        assert_eq!(ebs_attach_limit("m4.large"), 38);
        assert_eq!(ebs_attach_limit("c5d.24xlarge"), 22);
    }
}

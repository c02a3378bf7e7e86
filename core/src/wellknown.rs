//! Label keys Karpenter and Kubernetes give meaning to.

pub const NODEPOOL: &str = "karpenter.sh/nodepool";
pub const CAPACITY_TYPE: &str = "karpenter.sh/capacity-type";
pub const ZONE: &str = "topology.kubernetes.io/zone";
pub const REGION: &str = "topology.kubernetes.io/region";
pub const ZONE_ID: &str = "topology.k8s.aws/zone-id";
pub const INSTANCE_TYPE: &str = "node.kubernetes.io/instance-type";
pub const ARCH: &str = "kubernetes.io/arch";
pub const OS: &str = "kubernetes.io/os";
pub const WINDOWS_BUILD: &str = "node.kubernetes.io/windows-build";
pub const HOSTNAME: &str = "kubernetes.io/hostname";
pub const NODECLASS: &str = "karpenter.k8s.aws/ec2nodeclass";
/// On a workload of a scenario `kpg import` wrote: its pods that existed when the snapshot
/// was taken, one per line, `NAME NODE` (bound) or `NAME` (pending).
pub const EXISTING_PODS: &str = "playground.karpenter.dev/pods";
/// A pod's own annotations a snapshot keeps beside its controller's template: what the
/// disruption controller reads of a pod.
pub const POD_ANNOTATIONS_KEPT: &[&str] =
    &[DO_NOT_DISRUPT, "controller.kubernetes.io/pod-deletion-cost"];
/// The NodePool hash a NodeClaim launched with, and the hash scheme's version.
pub const NODEPOOL_HASH: &str = "karpenter.sh/nodepool-hash";
pub const NODEPOOL_HASH_VERSION: &str = "karpenter.sh/nodepool-hash-version";
pub const REGISTERED: &str = "karpenter.sh/registered";
pub const INITIALIZED: &str = "karpenter.sh/initialized";
pub const DO_NOT_DISRUPT: &str = "karpenter.sh/do-not-disrupt";
/// Karpenter taints a node it is disrupting, so nothing new lands on it.
pub const DISRUPTED_TAINT: &str = "karpenter.sh/disrupted";
/// The taint the node lifecycle controller puts on a cordoned (`spec.unschedulable`) node.
pub const UNSCHEDULABLE_TAINT: &str = "node.kubernetes.io/unschedulable";

/// The labels of a node launched into a capacity reservation (AWS provider).
pub const RESERVATION_ID: &str = "karpenter.k8s.aws/capacity-reservation-id";
pub const RESERVATION_TYPE: &str = "karpenter.k8s.aws/capacity-reservation-type";
pub const RESERVATION_INTERRUPTIBLE: &str = "karpenter.k8s.aws/capacity-reservation-interruptible";

pub const INSTANCE_CATEGORY: &str = "karpenter.k8s.aws/instance-category";
pub const INSTANCE_FAMILY: &str = "karpenter.k8s.aws/instance-family";
pub const INSTANCE_GENERATION: &str = "karpenter.k8s.aws/instance-generation";
pub const INSTANCE_SIZE: &str = "karpenter.k8s.aws/instance-size";
pub const INSTANCE_CPU: &str = "karpenter.k8s.aws/instance-cpu";
pub const INSTANCE_MEMORY: &str = "karpenter.k8s.aws/instance-memory";

/// Karpenter core's `WellKnownLabels` plus the AWS provider's additions. A pod may select
/// these on a NodePool that does not mention them.
pub const WELL_KNOWN: &[&str] = &[
    NODEPOOL,
    ZONE,
    REGION,
    INSTANCE_TYPE,
    ARCH,
    OS,
    CAPACITY_TYPE,
    WINDOWS_BUILD,
    ZONE_ID,
    RESERVATION_ID,
    RESERVATION_TYPE,
    RESERVATION_INTERRUPTIBLE,
    NODECLASS,
    "karpenter.k8s.aws/instance-accelerator-count",
    "karpenter.k8s.aws/instance-accelerator-manufacturer",
    "karpenter.k8s.aws/instance-accelerator-name",
    "karpenter.k8s.aws/instance-capability-flex",
    INSTANCE_CATEGORY,
    INSTANCE_CPU,
    "karpenter.k8s.aws/instance-cpu-manufacturer",
    "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz",
    "karpenter.k8s.aws/instance-ebs-bandwidth",
    "karpenter.k8s.aws/instance-encryption-in-transit-supported",
    INSTANCE_FAMILY,
    INSTANCE_GENERATION,
    "karpenter.k8s.aws/instance-gpu-count",
    "karpenter.k8s.aws/instance-gpu-manufacturer",
    "karpenter.k8s.aws/instance-gpu-memory",
    "karpenter.k8s.aws/instance-gpu-name",
    "karpenter.k8s.aws/instance-hypervisor",
    "karpenter.k8s.aws/instance-local-nvme",
    INSTANCE_MEMORY,
    "karpenter.k8s.aws/instance-network-bandwidth",
    INSTANCE_SIZE,
    "karpenter.k8s.aws/instance-tenancy",
    // EKS Auto Mode's names for the instance attributes (`crate::automode::EKS_WELL_KNOWN`):
    // well known to its Karpenter; a type of an EC2NodeClass has none of them.
    "eks.amazonaws.com/instance-accelerator-count",
    "eks.amazonaws.com/instance-accelerator-manufacturer",
    "eks.amazonaws.com/instance-accelerator-name",
    "eks.amazonaws.com/instance-category",
    "eks.amazonaws.com/instance-cpu",
    "eks.amazonaws.com/instance-cpu-manufacturer",
    "eks.amazonaws.com/instance-ebs-bandwidth",
    "eks.amazonaws.com/instance-encryption-in-transit-supported",
    "eks.amazonaws.com/instance-family",
    "eks.amazonaws.com/instance-generation",
    "eks.amazonaws.com/instance-gpu-count",
    "eks.amazonaws.com/instance-gpu-manufacturer",
    "eks.amazonaws.com/instance-gpu-memory",
    "eks.amazonaws.com/instance-gpu-name",
    "eks.amazonaws.com/instance-hypervisor",
    "eks.amazonaws.com/instance-local-nvme",
    "eks.amazonaws.com/instance-memory",
    "eks.amazonaws.com/instance-network-bandwidth",
    "eks.amazonaws.com/instance-size",
];

pub fn is_well_known(key: &str) -> bool {
    WELL_KNOWN.contains(&key)
}

/// Deprecated label keys and the names Karpenter rewrites them to.
pub fn normalize_key(key: &str) -> &str {
    match key {
        "failure-domain.beta.kubernetes.io/zone" => ZONE,
        "failure-domain.beta.kubernetes.io/region" => REGION,
        "beta.kubernetes.io/arch" => ARCH,
        "beta.kubernetes.io/os" => OS,
        "beta.kubernetes.io/instance-type" => INSTANCE_TYPE,
        other => other,
    }
}

/// The domain of a label key (`karpenter.sh` for `karpenter.sh/capacity-type`), if any.
pub fn domain(key: &str) -> Option<&str> {
    key.split_once('/').map(|(d, _)| d)
}

/// Keys a pod may not use to select nodes, because Karpenter sets them itself
/// (`IsRestrictedLabel`): `kubernetes.io/hostname` and the `karpenter.sh` and
/// `karpenter.k8s.aws` domains, except their well-known keys.
pub fn is_restricted_label(key: &str) -> bool {
    if is_well_known(key) {
        return false;
    }
    if key == HOSTNAME {
        return true;
    }
    matches!(
        domain(key),
        Some(d) if d == "karpenter.sh"
            || d.ends_with(".karpenter.sh")
            || d == "karpenter.k8s.aws"
            || d.ends_with(".karpenter.k8s.aws")
    )
}

/// Labels Karpenter never copies from a NodeClaim's requirements onto the node
/// (`IsRestrictedNodeLabel`): well-known ones, which the cloud provider sets from the
/// instance type and offering, and the restricted ones.
pub fn is_restricted_node_label(key: &str) -> bool {
    is_well_known(key) || key == HOSTNAME || is_restricted_label(key)
}

/// A well-known key that is one edit away from `key`, for `(typo of "...")` hints.
pub fn typo_hint(key: &str) -> Option<alloc::string::String> {
    WELL_KNOWN
        .iter()
        .find(|w| {
            let (a, b) = (w.as_bytes(), key.as_bytes());
            edit_distance_at_most_one(a, b)
                || w.rsplit('/').next() == key.rsplit('/').next() && *w != &key
        })
        .map(|w| alloc::string::String::from(*w))
}

fn edit_distance_at_most_one(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return false;
    }
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let mut i = 0;
    while i < short.len() && long[i] == short[i] {
        i += 1;
    }
    if long.len() == short.len() {
        long[i + 1..] == short[i + 1..]
    } else {
        long[i + 1..] == short[i..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restricted_labels() {
        assert!(is_restricted_label("kubernetes.io/hostname"));
        assert!(is_restricted_label("karpenter.sh/foo"));
        assert!(!is_restricted_label("karpenter.sh/capacity-type"));
        assert!(!is_restricted_label("karpenter.k8s.aws/instance-family"));
        assert!(is_restricted_label("karpenter.k8s.aws/unknown"));
        assert!(!is_restricted_label("team"));
    }

    #[test]
    fn typo_hints() {
        assert_eq!(
            typo_hint("karpenter.sh/capacity-typ").as_deref(),
            Some(CAPACITY_TYPE)
        );
        assert_eq!(typo_hint("team"), None);
    }
}

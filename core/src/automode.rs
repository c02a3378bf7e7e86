//! EKS Auto Mode: the flavour of the cluster where AWS runs Karpenter for you.
//!
//! Auto Mode's NodePools are Karpenter's own (`karpenter.sh/v1`, the CRD is shared), but they
//! point at an `eks.amazonaws.com/v1` `NodeClass` instead of an `EC2NodeClass`. What changes
//! for a simulation, each from the EKS user guide (the book's Auto Mode section lists the pages):
//! * the instance types: only the families the *managed instances* page lists, on a
//!   Bottlerocket-based image, with at most 110 pods (`create-node-class`: "EKS limits the
//!   maximum number of pods on a node to 110"), ephemeral storage from
//!   `ephemeralStorage.size` (80Gi by default);
//! * the labels: `eks.amazonaws.com/*` instead of `karpenter.k8s.aws/*` (`create-node-pool`'s
//!   table), and `eks.amazonaws.com/compute-type: auto` on every node;
//! * the built-in NodePools `general-purpose` and `system` and the built-in NodeClass
//!   `default` (`set-builtin-node-pools`);
//! * node repair and spot-to-spot consolidation always on (`node-repair`: "enabled by default
//!   in EKS Auto Mode"), nodes live at most 21 days (best practices, *EKS Auto Mode*);
//! * a management fee per instance-hour on top of EC2's price.

use alloc::string::String;
use alloc::vec::Vec;

use crate::catalog::MicroDollars;
use crate::model::{AmiFamily, KubeletConfig, NodeClass, NodePool};
use crate::requirements::Operator;
use crate::taints::{Taint, TaintEffect};

/// `nodeClassRef.group` of an Auto Mode NodeClass.
pub const GROUP: &str = "eks.amazonaws.com";
/// `nodeClassRef.kind` of an Auto Mode NodeClass.
pub const KIND: &str = "NodeClass";
/// The NodeClass EKS creates and the built-in NodePools use.
pub const DEFAULT_CLASS: &str = "default";
/// The built-in NodePools.
pub const GENERAL_PURPOSE: &str = "general-purpose";
pub const SYSTEM: &str = "system";

/// The label every Auto Mode node carries (`create-node-pool`: "Identifies EKS Auto Mode
/// managed nodes"), the one a workload selects to move onto Auto Mode.
pub const COMPUTE_TYPE: &str = "eks.amazonaws.com/compute-type";
/// The node's NodeClass (Auto Mode's counterpart of `karpenter.k8s.aws/ec2nodeclass`).
pub const NODECLASS_LABEL: &str = "eks.amazonaws.com/nodeclass";

/// "EKS limits the maximum number of pods on a node to 110. This limit is applied after the
/// existing max pods calculation." (`create-node-class`, Considerations).
pub const MAX_PODS: i64 = 110;
/// `ephemeralStorage.size` when the NodeClass does not set it (`create-node-class`, the
/// specification "shown with default values": 80Gi, 3000 IOPS, 125 MiB/s).
pub const DEFAULT_EPHEMERAL_BYTES: i64 = 80 << 30;
pub const DEFAULT_IOPS: i64 = 3000;
pub const DEFAULT_THROUGHPUT: i64 = 125;
/// Auto Mode's nodes live at most 21 days ("Maximum node runtime of 21 days with automatic
/// replacement", EKS best practices, *EKS Auto Mode*): a longer `expireAfter`, or `Never`,
/// is cut to this.
pub const MAX_NODE_LIFETIME: u64 = 21 * 24 * 3_600_000;
/// The management fee as a share of the instance type's on-demand price, in percent: the
/// EKS pricing page's per-type Auto Mode prices are 12 % of the on-demand Linux price (e.g.
/// m5.large $0.01152 for $0.096), whatever the purchase option. The book's Auto Mode section
/// gives the sources.
pub const FEE_PERCENT: i64 = 12;

/// Which Karpenter runs the cluster's nodes (`Cluster.spec.karpenter.mode`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Karpenter installed in the cluster (the playground's default).
    #[default]
    SelfManaged,
    /// EKS Auto Mode, with the built-in NodePools it has switched on.
    EksAutoMode(BuiltinPools),
}

impl Mode {
    pub fn name(&self) -> &'static str {
        match self {
            Mode::SelfManaged => "self-managed",
            Mode::EksAutoMode(_) => "eks-auto-mode",
        }
    }
}

/// The built-in NodePools switched on (`aws eks create-cluster --compute-config
/// '{"nodePools": [...]}'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinPools {
    pub general_purpose: bool,
    pub system: bool,
}

impl Default for BuiltinPools {
    /// Both, as the console's quick configuration and the user guide's examples enable them.
    fn default() -> Self {
        BuiltinPools {
            general_purpose: true,
            system: true,
        }
    }
}

/// `eks.amazonaws.com/v1` `NodeClass`: what an Auto Mode node class sets beyond what an
/// EC2NodeClass would (the rest of it, subnet zones and capacity reservations, lives in the
/// [`NodeClass`] that carries this).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoNodeClass {
    pub ephemeral_bytes: i64,
    pub iops: i64,
    pub throughput: i64,
    pub kms_key_id: Option<String>,
    /// `Random` (default) or `Disabled`.
    pub snat_policy: String,
    /// `DefaultAllow` (default) or `DefaultDeny`.
    pub network_policy: String,
    /// `Disabled` (default) or `Enabled`.
    pub network_policy_event_logs: String,
    /// `true` for the NodeClass EKS creates itself.
    pub builtin: bool,
}

impl Default for AutoNodeClass {
    fn default() -> Self {
        AutoNodeClass {
            ephemeral_bytes: DEFAULT_EPHEMERAL_BYTES,
            iops: DEFAULT_IOPS,
            throughput: DEFAULT_THROUGHPUT,
            kms_key_id: None,
            snat_policy: "Random".into(),
            network_policy: "DefaultAllow".into(),
            network_policy_event_logs: "Disabled".into(),
            builtin: false,
        }
    }
}

/// An Auto Mode node class named `name` as the engine sees it: Bottlerocket-based (Auto
/// Mode's image; its overhead rules are Bottlerocket's), default kubelet, the root volume
/// `ephemeralStorage.size`.
pub fn node_class(name: &str, auto: AutoNodeClass) -> NodeClass {
    NodeClass {
        name: name.into(),
        ami_family: AmiFamily::Bottlerocket,
        ami_alias: None,
        kubelet: KubeletConfig::default(),
        root_volume_bytes: Some(auto.ephemeral_bytes),
        instance_store_raid0: false,
        subnet_zones: Vec::new(),
        capacity_reservation_terms: Vec::new(),
        auto_mode: Some(auto),
    }
}

/// The built-in NodeClass `default`.
pub fn builtin_node_class() -> NodeClass {
    node_class(
        DEFAULT_CLASS,
        AutoNodeClass {
            builtin: true,
            ..AutoNodeClass::default()
        },
    )
}

/// The map key of a node class: an Auto Mode NodeClass and an EC2NodeClass may share a name
/// (both are often `default`), so Auto Mode's are kept under `eks.amazonaws.com/NodeClass/`,
/// which no Kubernetes name can collide with.
pub fn class_key(name: &str) -> String {
    let mut key = String::with_capacity(GROUP.len() + KIND.len() + name.len() + 2);
    key.push_str(GROUP);
    key.push('/');
    key.push_str(KIND);
    key.push('/');
    key.push_str(name);
    key
}

fn builtin_pool(name: &str, arch: &[&str]) -> NodePool {
    let mut np = NodePool::new(name, DEFAULT_CLASS)
        .require(
            crate::wellknown::CAPACITY_TYPE,
            Operator::In,
            &["on-demand"],
        )
        .require(EKS_INSTANCE_CATEGORY, Operator::In, &["c", "m", "r"])
        .require(EKS_INSTANCE_GENERATION, Operator::Gt, &["4"])
        .require(crate::wellknown::ARCH, Operator::In, arch)
        .require(crate::wellknown::OS, Operator::In, &["linux"]);
    np.node_class_ref.group = GROUP.into();
    np.node_class_ref.kind = KIND.into();
    np.expire_after = Some(336 * 3_600_000);
    np.termination_grace_period = Some(24 * 3_600_000);
    np.consolidate_after = Some(30_000);
    np
}

/// `general-purpose`: "Uses only amd64 architecture"; both built-ins "use only on-demand EC2
/// capacity", "the C, M, and R EC2 instance families", "generation 5 or newer"
/// (`set-builtin-node-pools`); `expireAfter: 336h`, `terminationGracePeriod: 24h`,
/// `consolidateAfter: 30s`, `WhenEmptyOrUnderutilized`, budget `nodes: 10%` as EKS writes
/// them into the cluster (`kubectl get nodepool general-purpose -o yaml`).
pub fn general_purpose() -> NodePool {
    builtin_pool(GENERAL_PURPOSE, &["amd64"])
}

/// `system`: the `CriticalAddonsOnly` taint, `amd64` and `arm64` (`set-builtin-node-pools`).
pub fn system() -> NodePool {
    let mut np = builtin_pool(SYSTEM, &["amd64", "arm64"]);
    np.taints.push(Taint::new(
        "CriticalAddonsOnly",
        "",
        TaintEffect::NoSchedule,
    ));
    np
}

/// The built-in NodePools `pools` switches on, in EKS's order.
pub fn builtin_pools(pools: BuiltinPools) -> Vec<NodePool> {
    let mut out = Vec::new();
    if pools.general_purpose {
        out.push(general_purpose());
    }
    if pools.system {
        out.push(system());
    }
    out
}

/// The families Auto Mode launches (`automode-learn-instances`, "Supported instance
/// reference").
#[rustfmt::skip]
pub const SUPPORTED_FAMILIES: &[&str] = &[
    // Compute optimized
    "c8g", "c7a", "c7g", "c7gn", "c7gd", "c7i", "c7i-flex", "c6a", "c6g", "c6i", "c6gn", "c6id",
    "c6in", "c6gd", "c5", "c5a", "c5d", "c5ad", "c5n", "c4",
    // General purpose
    "m8g", "m7i", "m7a", "m7g", "m7gd", "m7i-flex", "m6a", "m6i", "m6in", "m6g", "m6idn", "m6id",
    "m6gd", "m5", "m5a", "m5ad", "m5n", "m5dn", "m5d", "m5zn", "m4",
    // Memory optimized
    "r8g", "r7a", "r7iz", "r7gd", "r7i", "r7g", "r6a", "r6i", "r6id", "r6in", "r6idn", "r6g",
    "r6gd", "r5", "r5n", "r5a", "r5dn", "r5b", "r5ad", "r5d", "r4",
    // Burstable
    "t4g", "t3", "t3a", "t2",
    // High memory
    "z1d", "x8g", "x2gd",
    // Storage optimized
    "i4g", "i4i", "i3", "i3en", "is4gen", "d3", "d3en", "im4gn",
    // Accelerated computing
    "p5", "p4d", "p3", "p3dn", "gr6", "g6", "g6e", "g5g", "g5", "g4dn", "inf2", "inf1", "trn1",
    "trn1n",
    // High performance computing
    "x2iezn", "x2iedn", "x2idn",
];

/// Sizes Auto Mode never launches: nano, micro and small.
pub const EXCLUDED_SIZES: &[&str] = &["nano", "micro", "small"];

/// Whether Auto Mode launches this instance type: a supported family, not a nano, micro or
/// small size.
pub fn supports(family: &str, size: &str) -> bool {
    SUPPORTED_FAMILIES.contains(&family) && !EXCLUDED_SIZES.contains(&size)
}

/// Max pods with prefix delegation, which Auto Mode uses by default ("EKS Auto Mode uses
/// prefix delegation (/28 prefixes) by default", `create-node-class`): each secondary IP slot
/// of an ENI holds a /28 prefix of 16 addresses, and the EKS max-pods calculator caps the
/// count at 110 below 30 vCPUs and 250 from there (`max-pods-calculator.sh`,
/// `--cni-prefix-delegation-enabled`). `None` when the catalog does not know the ENIs.
pub fn prefix_delegation_pods(enis: i64, ipv4_per_eni: i64, vcpu: i64) -> Option<i64> {
    if enis == 0 || ipv4_per_eni == 0 {
        return None;
    }
    let limit = if vcpu < 30 { 110 } else { 250 };
    Some((enis * (ipv4_per_eni - 1) * 16 + 2).min(limit))
}

/// The management fee per hour for an instance type whose on-demand price is `on_demand`.
pub fn fee(on_demand: MicroDollars) -> MicroDollars {
    on_demand * FEE_PERCENT / 100
}

pub const EKS_INSTANCE_CATEGORY: &str = "eks.amazonaws.com/instance-category";
pub const EKS_INSTANCE_FAMILY: &str = "eks.amazonaws.com/instance-family";
pub const EKS_INSTANCE_GENERATION: &str = "eks.amazonaws.com/instance-generation";
pub const EKS_INSTANCE_SIZE: &str = "eks.amazonaws.com/instance-size";
pub const EKS_INSTANCE_CPU: &str = "eks.amazonaws.com/instance-cpu";
pub const EKS_INSTANCE_MEMORY: &str = "eks.amazonaws.com/instance-memory";

/// `create-node-pool`'s "EKS Auto Mode Supported" labels under `eks.amazonaws.com/`, the
/// instance attributes of `karpenter.k8s.aws/` renamed. `compute-type` is not here: it is a
/// label of the NodePool's template (Auto Mode's NodeClaims carry it), not of a type.
pub const EKS_WELL_KNOWN: &[&str] = &[
    "eks.amazonaws.com/instance-accelerator-count",
    "eks.amazonaws.com/instance-accelerator-manufacturer",
    "eks.amazonaws.com/instance-accelerator-name",
    EKS_INSTANCE_CATEGORY,
    EKS_INSTANCE_CPU,
    "eks.amazonaws.com/instance-cpu-manufacturer",
    "eks.amazonaws.com/instance-ebs-bandwidth",
    "eks.amazonaws.com/instance-encryption-in-transit-supported",
    EKS_INSTANCE_FAMILY,
    EKS_INSTANCE_GENERATION,
    "eks.amazonaws.com/instance-gpu-count",
    "eks.amazonaws.com/instance-gpu-manufacturer",
    "eks.amazonaws.com/instance-gpu-memory",
    "eks.amazonaws.com/instance-gpu-name",
    "eks.amazonaws.com/instance-hypervisor",
    "eks.amazonaws.com/instance-local-nvme",
    EKS_INSTANCE_MEMORY,
    "eks.amazonaws.com/instance-network-bandwidth",
    EKS_INSTANCE_SIZE,
];

/// The Auto Mode name of a `karpenter.k8s.aws/` instance label (`instance-family` →
/// `eks.amazonaws.com/instance-family`), if Auto Mode has one.
pub fn eks_key(karpenter_key: &str) -> Option<&'static str> {
    let rest = karpenter_key.strip_prefix("karpenter.k8s.aws/")?;
    EKS_WELL_KNOWN
        .iter()
        .copied()
        .find(|k| k.strip_prefix("eks.amazonaws.com/") == Some(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allow_list_keeps_families_and_drops_small_sizes() {
        assert!(supports("m5", "large"));
        assert!(supports("t3", "medium"));
        assert!(!supports("t3", "micro"));
        assert!(!supports("t3", "nano"));
        assert!(!supports("t3", "small"));
        assert!(!supports("a1", "large"));
        assert!(!supports("m3", "large"));
    }

    #[test]
    fn prefix_delegation_fills_small_nodes_and_caps_large_ones() {
        // c6g.medium: 2 ENIs of 4 addresses: 2 × 3 × 16 + 2.
        assert_eq!(prefix_delegation_pods(2, 4, 1), Some(98));
        assert_eq!(prefix_delegation_pods(4, 15, 16), Some(110));
        assert_eq!(prefix_delegation_pods(15, 50, 96), Some(250));
        assert_eq!(prefix_delegation_pods(0, 0, 2), None);
    }

    #[test]
    fn the_fee_is_twelve_percent_of_on_demand() {
        // m5.large: $0.096 on demand, $0.01152 Auto Mode management.
        assert_eq!(fee(96_000), 11_520);
    }

    #[test]
    fn karpenter_keys_have_eks_names() {
        assert_eq!(
            eks_key(crate::wellknown::INSTANCE_FAMILY),
            Some(EKS_INSTANCE_FAMILY)
        );
        assert_eq!(eks_key("karpenter.k8s.aws/instance-tenancy"), None);
        assert_eq!(eks_key("karpenter.sh/capacity-type"), None);
    }

    #[test]
    fn the_system_pool_is_tainted_and_both_are_on_demand() {
        let s = system();
        assert_eq!(s.taints[0].key, "CriticalAddonsOnly");
        assert_eq!(s.expire_after, Some(336 * 3_600_000));
        let g = general_purpose();
        assert!(g.taints.is_empty());
        assert_eq!(g.node_class_ref.group, GROUP);
    }
}

//! The built-in AWS catalog: 1,363 EC2 instance types with their shapes, ENI limits, zones and
//! prices in three regions, and Karpenter's AWS-provider rules for turning them into
//! [`InstanceType`]s for a node class (capacity, overhead, allocatable, labels, offerings).
//!
//! The facts are generated at build time by `core/build.rs` from `core/data/instance-types.csv`
//! and `core/data/accelerators.csv` (provenance in `core/data/SOURCES.md`) into a static table
//! of [`CatalogEntry`] records.
//!
//! Rules modelled, following `karpenter-provider-aws` `pkg/providers/instancetype/types.go`
//! and `offering/base_resolver.go`:
//! * capacity: cpu = vCPUs; memory = MiB (− 64 MiB on arm64) minus ⌈7.5 %⌉ VM overhead;
//!   ephemeral-storage = root volume or the AMI family's default; pods = `maxPods`, else the
//!   ENI limit (AL2/AL2023/Bottlerocket/Custom) or 110 (Windows), then `podsPerCore`; GPUs,
//!   and Neuron devices and NeuronCores (`aws.amazon.com/neuron`, `.../neuroncore`) by count.
//! * overhead: kube-reserved (cpu tiers, 11 × pods + 255 MiB, 1 Gi ephemeral), system-reserved
//!   and the hard eviction thresholds (100 Mi, 10 % of ephemeral).
//! * offerings: one on-demand and one spot offering per zone the type is offered in; on-demand
//!   at the regional list price (us-east-1's when the region has none, as Karpenter does before
//!   its pricing API answers); spot at on-demand × (1 − Spot Advisor saving). Offerings without
//!   any price are unavailable.
//! * Windows node classes: arm64 types keep their entry but get no offerings and an empty
//!   `kubernetes.io/os` requirement (Karpenter's `getOS` returns no OS for them).

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{
    CapacityType, CatalogError, InstanceType, InstanceTypeSpec, MicroDollars, Offering, PriceSource,
};
use crate::model::{AmiFamily, KubeletConfig, NodeClass, StringMap};
use crate::requirements::{Requirement, Requirements};
use crate::resources::{ResourceName, Resources};
use crate::wellknown;

#[cfg(test)]
mod tests;

/// The regions the catalog has zone and price data for.
pub const REGIONS: &[&str] = &["us-east-1", "us-west-2", "ap-northeast-2"];

/// Spot saving used where the Spot Instance Advisor has no figure for a type in a region: the
/// advisor's median Linux saving per region (2025-06 snapshot). Spot = on-demand × (1 − %/100).
pub const DEFAULT_SPOT_SAVING_PERCENT: [(&str, i64); 3] =
    [("us-east-1", 66), ("us-west-2", 65), ("ap-northeast-2", 68)];

/// Karpenter's default `VM_MEMORY_OVERHEAD_PERCENT` (0.075), in thousandths.
pub const VM_MEMORY_OVERHEAD_PERMILLE: i64 = 75;

const US_EAST_1: usize = 0;
const AP_NORTHEAST_2: usize = 2;

const MIB: i64 = 1 << 20;
const GIB: i64 = 1 << 30;

/// AWS label keys that [`crate::wellknown`] has no constant for.
pub mod keys {
    pub const HYPERVISOR: &str = "karpenter.k8s.aws/instance-hypervisor";
    pub const NETWORK_BANDWIDTH: &str = "karpenter.k8s.aws/instance-network-bandwidth";
    pub const LOCAL_NVME: &str = "karpenter.k8s.aws/instance-local-nvme";
    pub const CAPABILITY_FLEX: &str = "karpenter.k8s.aws/instance-capability-flex";
    pub const GPU_NAME: &str = "karpenter.k8s.aws/instance-gpu-name";
    pub const GPU_MANUFACTURER: &str = "karpenter.k8s.aws/instance-gpu-manufacturer";
    pub const GPU_COUNT: &str = "karpenter.k8s.aws/instance-gpu-count";
    pub const GPU_MEMORY: &str = "karpenter.k8s.aws/instance-gpu-memory";
    pub const ACCELERATOR_NAME: &str = "karpenter.k8s.aws/instance-accelerator-name";
    pub const ACCELERATOR_MANUFACTURER: &str =
        "karpenter.k8s.aws/instance-accelerator-manufacturer";
    pub const ACCELERATOR_COUNT: &str = "karpenter.k8s.aws/instance-accelerator-count";
    pub const CPU_MANUFACTURER: &str = "karpenter.k8s.aws/instance-cpu-manufacturer";
    pub const TENANCY: &str = "karpenter.k8s.aws/instance-tenancy";
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    Amd64,
    Arm64,
}

impl Arch {
    pub fn as_str(self) -> &'static str {
        match self {
            Arch::Amd64 => "amd64",
            Arch::Arm64 => "arm64",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hypervisor {
    Nitro,
    Xen,
    /// Bare metal: no hypervisor label.
    Absent,
}

impl Hypervisor {
    pub fn as_str(self) -> &'static str {
        match self {
            Hypervisor::Nitro => "nitro",
            Hypervisor::Xen => "xen",
            Hypervisor::Absent => "",
        }
    }
}

/// One row of the catalog: the raw facts of an instance type, independent of node class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatalogEntry {
    pub name: &'static str,
    pub category: &'static str,
    pub family: &'static str,
    pub size: &'static str,
    /// Lower-kebab GPU name (`a10g`, `radeon-pro-v520`), empty when the type has no GPU.
    pub gpu_name: &'static str,
    /// Lower-kebab accelerator name (`inferentia2`, `trainium`, `qualcomm-ai100`), empty when
    /// the type has no accelerator labels.
    pub accelerator_name: &'static str,
    /// `aws` for Neuron devices, else the maker (`qualcomm`); empty without an accelerator.
    pub accelerator_manufacturer: &'static str,
    /// Zone letters where the type is offered, per [`REGIONS`] index; empty: not in the region.
    pub zones: [&'static str; 3],
    /// On-demand Linux list price per [`REGIONS`] index, micro-dollars per hour.
    pub on_demand: [Option<MicroDollars>; 3],
    /// `MemoryInfo.SizeInMiB` (the `instance-memory` label), before any overhead.
    pub memory_mib: u32,
    pub gpu_memory_mib: u32,
    pub network_bandwidth_mbps: Option<u32>,
    pub local_nvme_gib: Option<u32>,
    pub vcpu: u16,
    /// ENI-limited pods: `enis × (ipv4_per_eni − 1) + 2`.
    pub max_pods: u16,
    /// Branch interfaces for security groups for pods; 0 when not trunking-capable.
    pub pod_eni: u16,
    /// `aws.amazon.com/neuroncore`: Neuron devices × cores per device; 0 without Neuron.
    pub neuron_cores: u16,
    pub generation: u8,
    pub gpu_count: u8,
    /// The `instance-accelerator-count` label; 0 without an accelerator.
    pub accelerator_count: u8,
    /// `aws.amazon.com/neuron`: Neuron devices; 0 for types without Neuron (including
    /// accelerators that are not Neuron devices, such as dl2q's Qualcomm AI 100).
    pub neuron_devices: u8,
    /// ENIs on the default network card; 0 when unknown (then `max_pods` is from the docs).
    pub enis: u8,
    pub ipv4_per_eni: u8,
    pub arch: Arch,
    pub hypervisor: Hypervisor,
    pub bare_metal: bool,
    pub burstable: bool,
    pub flex: bool,
    pub current_gen: bool,
    /// Spot Instance Advisor saving in ap-northeast-2, percent.
    pub spot_saving_pct_apne2: Option<u8>,
    /// Spot Instance Advisor interruption bucket in ap-northeast-2: 0 <5 %, 1 5–10 %,
    /// 2 10–15 %, 3 15–20 %, 4 >20 %.
    pub spot_interrupt_apne2: Option<u8>,
}

const fn opt_u32(v: i64) -> Option<u32> {
    if v < 0 { None } else { Some(v as u32) }
}

const fn opt_u8(v: i64) -> Option<u8> {
    if v < 0 { None } else { Some(v as u8) }
}

const fn opt_price(v: i64) -> Option<MicroDollars> {
    if v < 0 { None } else { Some(v) }
}

/// Constructor used by the generated table (see `build.rs` for the argument order). The entry
/// has no accelerator until [`accel`] gives it one.
#[allow(clippy::too_many_arguments)]
const fn row(
    name: &'static str,
    category: &'static str,
    family: &'static str,
    generation: u8,
    size: &'static str,
    arm64: bool,
    vcpu: u16,
    memory_mib: u32,
    gpu_count: u8,
    gpu_name: &'static str,
    gpu_memory_mib: u32,
    hypervisor: u8,
    max_pods: u16,
    enis: u8,
    ipv4_per_eni: u8,
    pod_eni: u16,
    network_bandwidth_mbps: i64,
    local_nvme_gib: i64,
    flags: u8,
    on_demand: [i64; 3],
    zones: [&'static str; 3],
    spot_saving_pct: i64,
    spot_interrupt: i64,
) -> CatalogEntry {
    CatalogEntry {
        name,
        category,
        family,
        size,
        gpu_name,
        accelerator_name: "",
        accelerator_manufacturer: "",
        zones,
        on_demand: [
            opt_price(on_demand[0]),
            opt_price(on_demand[1]),
            opt_price(on_demand[2]),
        ],
        memory_mib,
        gpu_memory_mib,
        network_bandwidth_mbps: opt_u32(network_bandwidth_mbps),
        local_nvme_gib: opt_u32(local_nvme_gib),
        vcpu,
        max_pods,
        pod_eni,
        neuron_cores: 0,
        generation,
        gpu_count,
        accelerator_count: 0,
        neuron_devices: 0,
        enis,
        ipv4_per_eni,
        arch: if arm64 { Arch::Arm64 } else { Arch::Amd64 },
        hypervisor: match hypervisor {
            1 => Hypervisor::Nitro,
            2 => Hypervisor::Xen,
            _ => Hypervisor::Absent,
        },
        bare_metal: flags & 1 != 0,
        burstable: flags & 2 != 0,
        flex: flags & 4 != 0,
        current_gen: flags & 8 != 0,
        spot_saving_pct_apne2: opt_u8(spot_saving_pct),
        spot_interrupt_apne2: opt_u8(spot_interrupt),
    }
}

/// The generated table's wrapper for the rows of `core/data/accelerators.csv`.
const fn accel(
    entry: CatalogEntry,
    name: &'static str,
    manufacturer: &'static str,
    count: u8,
    neuron_devices: u8,
    neuron_cores: u16,
) -> CatalogEntry {
    CatalogEntry {
        accelerator_name: name,
        accelerator_manufacturer: manufacturer,
        accelerator_count: count,
        neuron_devices,
        neuron_cores,
        ..entry
    }
}

mod table {
    use super::{CatalogEntry, accel, row};
    include!(concat!(env!("OUT_DIR"), "/aws_catalog.rs"));
}

impl CatalogEntry {
    /// `aws` for Graviton (arm64), `amd` for families with an `a` attribute (m5a, c7a, t3a),
    /// else `intel`: the data has no processor column, and AWS's family names encode it.
    pub fn cpu_manufacturer(&self) -> &'static str {
        if self.arch == Arch::Arm64 {
            return "aws";
        }
        let attributes = self
            .family
            .trim_start_matches(|c: char| c.is_ascii_lowercase())
            .trim_start_matches(|c: char| c.is_ascii_digit());
        let attributes = attributes.split('-').next().unwrap_or("");
        if attributes.contains('a') {
            "amd"
        } else {
            "intel"
        }
    }

    pub fn has_gpu(&self) -> bool {
        !self.gpu_name.is_empty()
    }

    /// Whether the type has the `instance-accelerator-*` labels (Inferentia, Trainium, and
    /// dl2q's Qualcomm AI 100).
    pub fn has_accelerator(&self) -> bool {
        !self.accelerator_name.is_empty()
    }

    /// `nvidia`, `amd` or `habana`, derived from the GPU name; `None` without a GPU or when
    /// the name is not recognised.
    pub fn gpu_manufacturer(&self) -> Option<&'static str> {
        if self.has_gpu() {
            gpu_manufacturer(self.gpu_name)
        } else {
            None
        }
    }

    /// Karpenter's `ENILimitedPods` with no reserved ENIs.
    pub fn eni_limited_pods(&self) -> i64 {
        i64::from(self.max_pods)
    }

    /// Whether the type is offered in the zone `<region><letter>`.
    pub fn offered_in(&self, region_index: usize, letter: u8) -> bool {
        self.zones
            .get(region_index)
            .is_some_and(|z| z.as_bytes().contains(&letter))
    }

    /// On-demand price in a region and where it came from: the region's own price, else
    /// us-east-1's (`UsEast1Fallback`); `None` when neither is known.
    pub fn on_demand_price(&self, region_index: usize) -> Option<(MicroDollars, PriceSource)> {
        match self.on_demand.get(region_index).copied().flatten() {
            Some(p) => Some((p, PriceSource::Regional)),
            None => self.on_demand[US_EAST_1].map(|p| (p, PriceSource::UsEast1Fallback)),
        }
    }

    /// The Spot Instance Advisor's saving for this type in a region, when the data has one.
    pub fn spot_advisor_saving(&self, region_index: usize) -> Option<i64> {
        if region_index == AP_NORTHEAST_2 {
            self.spot_saving_pct_apne2.map(i64::from)
        } else {
            None
        }
    }

    /// Spot price in a region (on-demand × (1 − saving)), rounded to the micro-dollar.
    pub fn spot_price(&self, region_index: usize) -> Option<(MicroDollars, PriceSource)> {
        let (od, _) = self.on_demand_price(region_index)?;
        let (saving, source) = match self.spot_advisor_saving(region_index) {
            Some(s) => (s, PriceSource::SpotAdvisor),
            None => (
                DEFAULT_SPOT_SAVING_PERCENT[region_index].1,
                PriceSource::SpotDefault,
            ),
        };
        Some((apply_saving(od, saving), source))
    }
}

fn gpu_manufacturer(name: &str) -> Option<&'static str> {
    const NVIDIA: &[&str] = &[
        "a100", "a10g", "b200", "b300", "gb200", "h100", "h200", "k520", "k80", "l4", "l40s",
        "m60", "t4", "t4g", "v100",
    ];
    if NVIDIA.contains(&name) || name.starts_with("rtx-") {
        Some("nvidia")
    } else if name.starts_with("radeon") || name.starts_with("instinct") {
        Some("amd")
    } else if name.starts_with("gaudi") {
        Some("habana")
    } else {
        None
    }
}

/// on-demand × (100 − saving) / 100, rounded half up.
fn apply_saving(on_demand: MicroDollars, saving_percent: i64) -> MicroDollars {
    let kept = i128::from(100 - saving_percent.clamp(0, 100));
    ((i128::from(on_demand) * kept + 50) / 100) as MicroDollars
}

/// Every catalog entry, in the data file's order.
pub fn entries() -> &'static [CatalogEntry] {
    table::ENTRIES
}

/// A single row's facts by instance-type name.
pub fn lookup(name: &str) -> Option<&'static CatalogEntry> {
    table::BY_NAME
        .binary_search_by(|&i| table::ENTRIES[usize::from(i)].name.cmp(name))
        .ok()
        .map(|pos| &table::ENTRIES[usize::from(table::BY_NAME[pos])])
}

/// Index of a region in [`REGIONS`].
pub fn region_index(region: &str) -> Option<usize> {
    REGIONS.iter().position(|r| *r == region)
}

/// The zones that appear for a region in the data (`ap-northeast-2a` … `ap-northeast-2d`).
pub fn region_zones(region: &str) -> Option<Vec<String>> {
    let idx = region_index(region)?;
    Some(
        table::REGION_ZONE_LETTERS[idx]
            .bytes()
            .map(|l| zone_name(region, l))
            .collect(),
    )
}

fn zone_name(region: &str, letter: u8) -> String {
    let mut s = String::with_capacity(region.len() + 1);
    s.push_str(region);
    s.push(char::from(letter));
    s
}

/// Every catalog type as `node_class` sees it in `region`, offered in `zones` (empty: all of
/// the region's zones), further narrowed to `node_class.subnet_zones` when those are set.
///
/// Types not offered in any of the zones are still returned, without offerings.
pub fn instance_types(
    region: &str,
    zones: &[String],
    node_class: &NodeClass,
) -> Result<Vec<InstanceType>, CatalogError> {
    instance_types_where(region, zones, node_class, &super::Prefilter::all())
}

/// [`instance_types`] for the types the prefilter admits only: resolving a type costs far
/// more than testing its raw facts, and most NodePools name a handful of families or types.
pub fn instance_types_where(
    region: &str,
    zones: &[String],
    node_class: &NodeClass,
    keep: &super::Prefilter,
) -> Result<Vec<InstanceType>, CatalogError> {
    let ctx = Context::new(region, zones, node_class)?;
    let mut builder = LabelBuilder::default();
    Ok(table::ENTRIES
        .iter()
        .filter(|e| keep.admits(e) && ctx.admits(e))
        .map(|e| ctx.resolve(e, &mut builder))
        .collect())
}

/// One catalog type, resolved as in [`instance_types`] (for fixed node groups).
pub fn instance_type_named(
    region: &str,
    zones: &[String],
    node_class: &NodeClass,
    name: &str,
) -> Result<InstanceType, CatalogError> {
    let ctx = Context::new(region, zones, node_class)?;
    let entry = lookup(name).ok_or_else(|| CatalogError::UnknownInstanceType(name.to_string()))?;
    Ok(ctx.resolve(entry, &mut LabelBuilder::default()))
}

/// Resolved inputs shared by every type of one `instance_types` call.
struct Context<'a> {
    region: &'a str,
    region_index: usize,
    /// Selected zones as (letter, full name), sorted by letter.
    zones: Vec<(u8, String)>,
    family: AmiFamily,
    kubelet: &'a KubeletConfig,
    ephemeral: i64,
    /// `instanceStorePolicy: RAID0`: types with instance store use it for ephemeral storage.
    instance_store_raid0: bool,
    windows_build: Option<&'static str>,
    /// An EKS Auto Mode NodeClass: its allow-list, 110 pods at most, `eks.amazonaws.com/`
    /// labels instead of `karpenter.k8s.aws/` ones ([`crate::automode`]).
    auto_mode: bool,
}

impl<'a> Context<'a> {
    fn new(
        region: &'a str,
        zones: &[String],
        node_class: &'a NodeClass,
    ) -> Result<Context<'a>, CatalogError> {
        let region_index =
            region_index(region).ok_or_else(|| CatalogError::UnknownRegion(region.to_string()))?;
        let known = table::REGION_ZONE_LETTERS[region_index].as_bytes();
        let letter_of = |zone: &String| -> Result<u8, CatalogError> {
            match zone.strip_prefix(region).map(str::as_bytes) {
                Some([l]) if known.contains(l) => Ok(*l),
                _ => Err(CatalogError::UnknownZone {
                    region: region.to_string(),
                    zone: zone.clone(),
                }),
            }
        };
        let mut letters: Vec<u8> = if zones.is_empty() {
            known.to_vec()
        } else {
            zones.iter().map(letter_of).collect::<Result<_, _>>()?
        };
        if !node_class.subnet_zones.is_empty() {
            let pinned: Vec<u8> = node_class
                .subnet_zones
                .iter()
                .map(letter_of)
                .collect::<Result<_, _>>()?;
            letters.retain(|l| pinned.contains(l));
        }
        letters.sort_unstable();
        letters.dedup();
        let family = node_class.ami_family;
        Ok(Context {
            region,
            region_index,
            zones: letters
                .into_iter()
                .map(|l| (l, zone_name(region, l)))
                .collect(),
            family,
            kubelet: &node_class.kubelet,
            ephemeral: node_class
                .root_volume_bytes
                .unwrap_or_else(|| default_ephemeral_bytes(family)),
            instance_store_raid0: node_class.instance_store_raid0,
            windows_build: windows_build(family),
            auto_mode: node_class.auto_mode.is_some(),
        })
    }

    /// Whether the node class launches this type at all (Auto Mode's allow-list).
    fn admits(&self, e: &CatalogEntry) -> bool {
        !self.auto_mode || crate::automode::supports(e.family, e.size)
    }

    /// The key a type's label goes under: Auto Mode renames `karpenter.k8s.aws/` attributes to
    /// `eks.amazonaws.com/` and has none of the others.
    fn key(&self, key: &'static str) -> Option<&'static str> {
        if self.auto_mode && key.starts_with("karpenter.k8s.aws/") {
            crate::automode::eks_key(key)
        } else {
            Some(key)
        }
    }

    fn put(&self, b: &mut LabelBuilder, key: &'static str, value: &str) {
        if let Some(k) = self.key(key) {
            b.known(k, value);
        }
    }

    fn put_num(&self, b: &mut LabelBuilder, key: &'static str, value: u64) {
        if let Some(k) = self.key(key) {
            b.known_num(k, value);
        }
    }

    fn absent(&self, b: &mut LabelBuilder, key: &'static str) {
        if let Some(k) = self.key(key) {
            b.absent(k);
        }
    }

    fn resolve(&self, e: &CatalogEntry, b: &mut LabelBuilder) -> InstanceType {
        let ephemeral = match e.local_nvme_gib {
            Some(gb) if self.instance_store_raid0 => instance_store_bytes(gb.into()),
            _ => self.ephemeral,
        };
        let windows = self.family.is_windows();
        // Karpenter's getOS: Windows AMIs exist for amd64 only.
        let os = match (windows, e.arch) {
            (false, _) => Some("linux"),
            (true, Arch::Amd64) => Some("windows"),
            (true, Arch::Arm64) => None,
        };

        // Capacity.
        let vcpu = i64::from(e.vcpu);
        let mut pods = pods_capacity(e.eni_limited_pods(), vcpu, self.family, self.kubelet);
        if self.auto_mode {
            // Auto Mode assigns pod IPs by prefix delegation; "This limit is applied after the
            // existing max pods calculation."
            pods = crate::automode::prefix_delegation_pods(
                i64::from(e.enis),
                i64::from(e.ipv4_per_eni),
                vcpu,
            )
            .unwrap_or(pods)
            .min(crate::automode::MAX_PODS);
        }
        let memory = vm_memory_mib(e.memory_mib, e.arch) * MIB;
        let mut capacity = Resources::ZERO
            .with(ResourceName::Cpu, vcpu * 1000)
            .with(ResourceName::Memory, memory)
            .with(ResourceName::EphemeralStorage, ephemeral)
            .with(ResourceName::Pods, pods)
            .with(ResourceName::PodEni, i64::from(e.pod_eni));
        let gpu_manufacturer = e.gpu_manufacturer();
        if let Some(resource) = gpu_manufacturer.and_then(gpu_resource) {
            capacity.set(resource, i64::from(e.gpu_count));
        }
        // Like GPUs, no overhead is reserved from these: allocatable equals capacity.
        capacity.set(ResourceName::AwsNeuron, i64::from(e.neuron_devices));
        capacity.set(ResourceName::AwsNeuronCore, i64::from(e.neuron_cores));

        // Overhead: kube-reserved memory uses the ENI-limited pod count on AL2/AL2023/Custom
        // (`UsesENILimitedMemoryOverhead`) and the pods capacity on Bottlerocket and Windows.
        let reserved_pods = if uses_eni_limited_memory_overhead(self.family) {
            e.eni_limited_pods()
        } else {
            pods
        };
        let overhead = compute_overhead(
            vcpu * 1000,
            memory,
            Some(ephemeral),
            reserved_pods,
            self.kubelet,
        );
        let allocatable = capacity.saturating_sub(&overhead);

        // Offerings.
        let mut offerings = Vec::with_capacity(2 * self.zones.len());
        if os.is_some() {
            let od = e.on_demand_price(self.region_index);
            let spot = e.spot_price(self.region_index);
            let spot_source = if e.spot_advisor_saving(self.region_index).is_some() {
                PriceSource::SpotAdvisor
            } else {
                PriceSource::SpotDefault
            };
            let od_source = if self.region_index == US_EAST_1 {
                PriceSource::Regional
            } else {
                PriceSource::UsEast1Fallback
            };
            for (letter, zone) in &self.zones {
                if !e.offered_in(self.region_index, *letter) {
                    continue;
                }
                offerings.push(Offering {
                    zone: zone.clone(),
                    capacity_type: CapacityType::OnDemand,
                    price: od.map_or(0, |p| p.0),
                    available: od.is_some(),
                    price_source: od.map_or(od_source, |p| p.1),
                    overlay: None,
                    reservation: None,
                });
                offerings.push(Offering {
                    zone: zone.clone(),
                    capacity_type: CapacityType::Spot,
                    price: spot.map_or(0, |p| p.0),
                    available: spot.is_some(),
                    price_source: spot_source,
                    overlay: None,
                    reservation: None,
                });
            }
        }

        // Labels and requirements, pushed in key order (see `LabelBuilder::finish`).
        // Every well-known key is either a value or `DoesNotExist` on a type, as upstream
        // starts each type with `DoesNotExist` for the keys it may fill in: a key a type left
        // unconstrained would let a pod that selects it onto a node that lacks the label.
        if e.has_accelerator() {
            self.put_num(b, keys::ACCELERATOR_COUNT, e.accelerator_count.into());
            self.put(
                b,
                keys::ACCELERATOR_MANUFACTURER,
                e.accelerator_manufacturer,
            );
            self.put(b, keys::ACCELERATOR_NAME, e.accelerator_name);
        } else {
            for key in [
                keys::ACCELERATOR_COUNT,
                keys::ACCELERATOR_MANUFACTURER,
                keys::ACCELERATOR_NAME,
            ] {
                self.absent(b, key);
            }
        }
        self.put(
            b,
            keys::CAPABILITY_FLEX,
            if e.flex { "true" } else { "false" },
        );
        self.put(b, wellknown::INSTANCE_CATEGORY, e.category);
        self.put_num(b, wellknown::INSTANCE_CPU, e.vcpu.into());
        self.put(b, keys::CPU_MANUFACTURER, e.cpu_manufacturer());
        self.put(b, wellknown::INSTANCE_FAMILY, e.family);
        self.put_num(b, wellknown::INSTANCE_GENERATION, e.generation.into());
        if e.has_gpu() {
            self.put_num(b, keys::GPU_COUNT, e.gpu_count.into());
            // An unrecognised GPU name leaves the manufacturer key unconstrained.
            if let Some(m) = gpu_manufacturer {
                self.put(b, keys::GPU_MANUFACTURER, m);
            }
            self.put_num(b, keys::GPU_MEMORY, e.gpu_memory_mib.into());
            self.put(b, keys::GPU_NAME, e.gpu_name);
        } else {
            for key in [
                keys::GPU_COUNT,
                keys::GPU_MANUFACTURER,
                keys::GPU_MEMORY,
                keys::GPU_NAME,
            ] {
                self.absent(b, key);
            }
        }
        match e.hypervisor {
            Hypervisor::Absent => self.absent(b, keys::HYPERVISOR),
            h => self.put(b, keys::HYPERVISOR, h.as_str()),
        }
        match e.local_nvme_gib {
            Some(v) => self.put_num(b, keys::LOCAL_NVME, v.into()),
            None => self.absent(b, keys::LOCAL_NVME),
        }
        self.put_num(b, wellknown::INSTANCE_MEMORY, e.memory_mib.into());
        match e.network_bandwidth_mbps {
            Some(v) => self.put_num(b, keys::NETWORK_BANDWIDTH, v.into()),
            None => self.absent(b, keys::NETWORK_BANDWIDTH),
        }
        self.put(b, wellknown::INSTANCE_SIZE, e.size);
        b.capacity_types(&offerings);
        self.put(b, wellknown::ARCH, e.arch.as_str());
        match os {
            Some(os) => self.put(b, wellknown::OS, os),
            None => self.absent(b, wellknown::OS),
        }
        b.label(wellknown::INSTANCE_TYPE, e.name.to_string());
        match self.windows_build {
            Some(build) => self.put(b, wellknown::WINDOWS_BUILD, build),
            None => self.absent(b, wellknown::WINDOWS_BUILD),
        }
        b.known(wellknown::REGION, self.region);
        b.zones(&offerings);
        let (mut labels, mut requirements) = b.finish();
        // Shared (default) tenancy: the node's label, as Karpenter sets it (Auto Mode's
        // labels have no tenancy).
        if !self.auto_mode {
            labels.insert(keys::TENANCY.into(), "default".into());
            requirements.add(Requirement::in_values(keys::TENANCY, ["default"]));
        }
        absent_aws_keys(&labels, &mut requirements);

        InstanceType {
            name: e.name.to_string(),
            requirements,
            labels,
            capacity,
            overhead,
            allocatable,
            offerings,
        }
    }
}

/// `DoesNotExist` for every AWS well-known key a type has neither as a label nor as a
/// requirement, so no pod selecting such a key is launched onto a node that lacks it.
fn absent_aws_keys(labels: &StringMap, requirements: &mut Requirements) {
    for key in wellknown::WELL_KNOWN.iter().filter(|k| {
        k.starts_with("karpenter.k8s.aws/")
            || k.starts_with("topology.k8s.aws/")
            || k.starts_with("eks.amazonaws.com/")
    }) {
        if *key != wellknown::NODECLASS && !labels.contains_key(*key) && !requirements.has_key(key)
        {
            requirements.add(Requirement::does_not_exist(key));
        }
    }
}

/// Collects a type's labels and requirements.
///
/// One builder serves a whole `instance_types` call: its requirement vector is reused, and
/// requirements for `'static` keys are memoised per value, because cloning a `Requirement`
/// allocates less than building one and most values (region, arch, DoesNotExist, …) repeat.
#[derive(Default)]
struct LabelBuilder {
    labels: StringMap,
    requirements: Vec<Requirement>,
    /// Per key: the `DoesNotExist` requirement and the `In [v]` requirements seen so far.
    memo: Vec<(&'static str, Requirement, BTreeMap<String, Requirement>)>,
}

impl LabelBuilder {
    /// A label and its `In [value]` requirement.
    fn label(&mut self, key: &str, value: String) {
        self.requirements
            .push(Requirement::in_values(key, [value.clone()]));
        self.labels.insert(key.to_string(), value);
    }

    fn memo_for(
        &mut self,
        key: &'static str,
    ) -> &mut (&'static str, Requirement, BTreeMap<String, Requirement>) {
        // Keys are a few dozen constants: a linear scan by address beats a map keyed by them.
        let found = self
            .memo
            .iter()
            .position(|m| core::ptr::eq(m.0, key))
            .or_else(|| self.memo.iter().position(|m| m.0 == key));
        let i = found.unwrap_or_else(|| {
            self.memo
                .push((key, Requirement::does_not_exist(key), BTreeMap::new()));
            self.memo.len() - 1
        });
        &mut self.memo[i]
    }

    /// [`LabelBuilder::label`] for a well-known key, memoised.
    fn known(&mut self, key: &'static str, value: &str) {
        let by_value = &mut self.memo_for(key).2;
        let req = match by_value.get(value) {
            Some(r) => r.clone(),
            None => {
                let r = Requirement::in_values(key, [value]);
                by_value.insert(value.to_string(), r.clone());
                r
            }
        };
        self.requirements.push(req);
        self.labels.insert(key.to_string(), value.to_string());
    }

    /// A `DoesNotExist` requirement (no label).
    fn absent(&mut self, key: &'static str) {
        let req = self.memo_for(key).1.clone();
        self.requirements.push(req);
    }

    /// [`LabelBuilder::known`] for an integer value.
    fn known_num(&mut self, key: &'static str, value: u64) {
        let mut buf = [0u8; 20];
        let mut i = buf.len();
        let mut v = value;
        loop {
            i -= 1;
            buf[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        self.known(key, core::str::from_utf8(&buf[i..]).unwrap_or("0"));
    }

    /// Capacity type `In` the capacity types of the available offerings.
    fn capacity_types(&mut self, offerings: &[Offering]) {
        // `Requirement::in_values` sorts and deduplicates.
        let values = offerings
            .iter()
            .filter(|o| o.available)
            .map(|o| o.capacity_type.as_str());
        self.requirements
            .push(Requirement::in_values(wellknown::CAPACITY_TYPE, values));
    }

    /// Zone `In` the zones of the available offerings.
    fn zones(&mut self, offerings: &[Offering]) {
        let values = offerings
            .iter()
            .filter(|o| o.available)
            .map(|o| o.zone.as_str());
        self.requirements
            .push(Requirement::in_values(wellknown::ZONE, values));
    }

    /// The labels and requirements collected since the last call. Requirements are put in key
    /// order first (the catalog pushes them in that order already) so that each
    /// `Requirements::add` appends instead of shifting.
    fn finish(&mut self) -> (StringMap, Requirements) {
        if !self.requirements.is_sorted_by(|a, b| a.key <= b.key) {
            self.requirements.sort_unstable_by(|a, b| a.key.cmp(&b.key));
        }
        (
            core::mem::take(&mut self.labels),
            Requirements::from_iter(self.requirements.drain(..)),
        )
    }
}

/// A user-declared `InstanceType` (scenario-format §1.2), resolved against a node class the
/// way the AWS provider resolves a catalog type (`NewInstanceType` in
/// `A@v1.14.1:pkg/providers/instancetype/types.go`): capacity as given (no VM overhead); the
/// declared `pods` is the type's own limit (what ENIs allow a catalog type), which the
/// kubelet's `maxPods` replaces and `podsPerCore` caps; ephemeral storage as declared, else
/// from the node class (`ephemeralStorage`: RAID0 instance store when the type declares
/// `karpenter.k8s.aws/instance-local-nvme`, else the root volume or the family's default);
/// overhead as given, else the AWS formulas with the kubelet's reservations. Offerings come
/// from the spec, limited to `zones` (and the node class's subnet zones) when those are set.
pub fn custom_instance_type(
    spec: &InstanceTypeSpec,
    zones: &[String],
    node_class: &NodeClass,
) -> InstanceType {
    let family = node_class.ami_family;
    let mut capacity = spec.capacity;
    let declared_pods = spec.capacity.pods();
    let vcpu = ceil_div(capacity.cpu(), 1000);
    let pods = pods_capacity(declared_pods, vcpu, family, &node_class.kubelet);
    capacity.set(ResourceName::Pods, pods);
    if capacity.get(ResourceName::EphemeralStorage) <= 0 {
        let local_nvme = spec
            .labels
            .get(keys::LOCAL_NVME)
            .and_then(|v| v.parse::<i64>().ok())
            .filter(|gb| *gb > 0);
        let ephemeral = match local_nvme {
            Some(gb) if node_class.instance_store_raid0 => instance_store_bytes(gb),
            _ => node_class
                .root_volume_bytes
                .unwrap_or_else(|| default_ephemeral_bytes(family)),
        };
        capacity.set(ResourceName::EphemeralStorage, ephemeral);
    }
    // As for catalog types: kube-reserved memory counts the type's own pod limit on
    // AL2/AL2023/Custom, the kubelet's pods capacity on Bottlerocket and Windows.
    let reserved_pods = if uses_eni_limited_memory_overhead(family) {
        declared_pods
    } else {
        pods
    };
    let overhead = spec.overhead.unwrap_or_else(|| {
        compute_overhead(
            capacity.cpu(),
            capacity.memory(),
            Some(capacity.get(ResourceName::EphemeralStorage)),
            reserved_pods,
            &node_class.kubelet,
        )
    });
    let allocatable = capacity.saturating_sub(&overhead);

    let wanted = |zone: &str| {
        (zones.is_empty() || zones.iter().any(|z| z == zone))
            && (node_class.subnet_zones.is_empty()
                || node_class.subnet_zones.iter().any(|z| z == zone))
    };
    let offerings: Vec<Offering> = spec
        .offerings
        .iter()
        .filter(|o| wanted(&o.zone))
        .map(|o| Offering {
            zone: o.zone.clone(),
            capacity_type: o.capacity_type,
            price: o.price,
            available: o.available,
            price_source: PriceSource::Custom,
            overlay: None,
            reservation: None,
        })
        .collect();

    let mut b = LabelBuilder::default();
    for (k, v) in &spec.labels {
        if k != wellknown::INSTANCE_TYPE && k != wellknown::ARCH && k != wellknown::OS {
            b.label(k, v.clone());
        }
    }
    b.label(wellknown::INSTANCE_TYPE, spec.name.clone());
    b.label(wellknown::ARCH, spec.arch.clone());
    b.label(wellknown::OS, spec.os.clone());
    b.capacity_types(&offerings);
    b.zones(&offerings);
    let (labels, mut requirements) = b.finish();
    // Like the built-in types, a custom type lacks the AWS attributes it does not declare:
    // `instance-local-nvme Exists` must not match a type without local NVMe.
    absent_aws_keys(&labels, &mut requirements);
    InstanceType {
        name: spec.name.clone(),
        requirements,
        labels,
        capacity,
        overhead,
        allocatable,
        offerings,
    }
}

// ---------------------------------------------------------------------------------------------
// Capacity and overhead (semantics §4).

/// An instance store's `TotalSizeInGB` as bytes: the AWS provider gives RAID0 ephemeral
/// storage as a decimal `G` quantity.
fn instance_store_bytes(gb: i64) -> i64 {
    gb.saturating_mul(1_000_000_000)
}

fn default_ephemeral_bytes(family: AmiFamily) -> i64 {
    // AL2/AL2023 /dev/xvda, Bottlerocket /dev/xvdb (data volume), Custom fallback: 20Gi;
    // Windows /dev/sda1: 50Gi.
    if family.is_windows() {
        50 * GIB
    } else {
        20 * GIB
    }
}

fn windows_build(family: AmiFamily) -> Option<&'static str> {
    match family {
        AmiFamily::Windows2019 => Some("10.0.17763"),
        AmiFamily::Windows2022 => Some("10.0.20348"),
        AmiFamily::Windows2025 => Some("10.0.26100"),
        _ => None,
    }
}

fn uses_eni_limited_memory_overhead(family: AmiFamily) -> bool {
    matches!(
        family,
        AmiFamily::Al2 | AmiFamily::Al2023 | AmiFamily::Custom
    )
}

fn gpu_resource(manufacturer: &str) -> Option<ResourceName> {
    match manufacturer {
        "nvidia" => Some(ResourceName::NvidiaGpu),
        "amd" => Some(ResourceName::AmdGpu),
        "habana" => Some(ResourceName::HabanaGaudi),
        _ => None,
    }
}

/// Memory capacity in MiB: the raw size, minus 64 MiB of CMA on arm64, minus ⌈7.5 %⌉ of that.
pub fn vm_memory_mib(memory_mib: u32, arch: Arch) -> i64 {
    let mut mib = i64::from(memory_mib);
    if arch == Arch::Arm64 {
        mib -= 64;
    }
    mib - ceil_div(mib * VM_MEMORY_OVERHEAD_PERMILLE, 1000)
}

/// Pods capacity: `maxPods`, else the ENI limit (110 on Windows), then `podsPerCore` where the
/// family honours it (not Bottlerocket).
fn pods_capacity(eni_limited: i64, vcpu: i64, family: AmiFamily, kubelet: &KubeletConfig) -> i64 {
    let mut count = match kubelet.max_pods {
        Some(n) => n,
        None if family.is_windows() => 110,
        None => eni_limited,
    };
    if let Some(ppc) = kubelet.pods_per_core
        && ppc > 0
        && family != AmiFamily::Bottlerocket
    {
        count = count.min(ppc.saturating_mul(vcpu));
    }
    count
}

/// kube-reserved CPU: 6 % of the first core, 1 % of the second, 0.5 % of cores 3–4, 0.25 %
/// of the rest; each tier truncated to whole millicores.
pub fn kube_reserved_cpu(cpu_millis: i64) -> i64 {
    const TIERS: [(i64, i64, i64, i64); 4] = [
        (0, 1000, 6, 100),
        (1000, 2000, 1, 100),
        (2000, 4000, 5, 1000),
        (4000, 1 << 31, 25, 10_000),
    ];
    TIERS
        .iter()
        .filter(|t| cpu_millis >= t.0)
        .map(|&(start, end, num, den)| (cpu_millis.min(end) - start) * num / den)
        .sum()
}

/// kube-reserved + system-reserved + hard eviction thresholds.
///
/// `memory` and `ephemeral` are capacities in bytes (eviction percentages are of these);
/// `reserved_pods` is the P of the `11 × P + 255 MiB` kube-reserved memory.
fn compute_overhead(
    cpu_millis: i64,
    memory: i64,
    ephemeral: Option<i64>,
    reserved_pods: i64,
    kubelet: &KubeletConfig,
) -> Resources {
    let mut kube = Resources::ZERO
        .with(ResourceName::Cpu, kube_reserved_cpu(cpu_millis))
        .with(ResourceName::Memory, (11 * reserved_pods + 255) * MIB);
    if ephemeral.is_some() {
        kube.set(ResourceName::EphemeralStorage, GIB);
    }
    for (k, v) in &kubelet.kube_reserved {
        let r = ResourceName::parse(k);
        if r != ResourceName::Other {
            kube.set(r, *v);
        }
    }
    let mut system = Resources::ZERO;
    for (k, v) in &kubelet.system_reserved {
        let r = ResourceName::parse(k);
        if r != ResourceName::Other {
            system.set(r, *v);
        }
    }
    let mut eviction = Resources::ZERO.with(ResourceName::Memory, 100 * MIB);
    if let Some(e) = ephemeral {
        eviction.set(ResourceName::EphemeralStorage, ceil_div(e, 10));
    }
    if let Some(v) = kubelet
        .eviction_hard
        .get("memory.available")
        .and_then(|s| eviction_signal(ResourceName::Memory, memory, s))
    {
        eviction.set(ResourceName::Memory, v);
    }
    let nodefs = kubelet
        .eviction_hard
        .get("nodefs.available")
        .and_then(|s| eviction_signal(ResourceName::EphemeralStorage, ephemeral.unwrap_or(0), s));
    if let Some(v) = nodefs {
        eviction.set(ResourceName::EphemeralStorage, v);
    }
    kube + system + eviction
}

/// An `evictionHard` value: a percentage of `capacity` (rounded up; `100%` disables the
/// threshold, i.e. 0) or an absolute quantity. `None` if unparseable (the default stays).
fn eviction_signal(resource: ResourceName, capacity: i64, value: &str) -> Option<i64> {
    let value = value.trim();
    if let Some(p) = value.strip_suffix('%') {
        let (num, den) = parse_decimal(p.trim())?;
        if num == 100 * den {
            return Some(0);
        }
        let v = ceil_div_i128(i128::from(capacity) * num, 100 * den);
        return i64::try_from(v).ok();
    }
    crate::quantity::parse_for_resource(resource, value)
        .ok()
        .filter(|v| *v >= 0)
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1).div_euclid(b)
}

fn ceil_div_i128(a: i128, b: i128) -> i128 {
    (a + b - 1).div_euclid(b)
}

/// `12`, `7.5`: an exact non-negative decimal as num/den.
fn parse_decimal(s: &str) -> Option<(i128, i128)> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if (int.is_empty() && frac.is_empty()) || frac.len() > 12 || int.len() > 18 {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut num: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        num = num * 10 + i128::from(b - b'0');
    }
    Some((num, 10i128.pow(frac.len() as u32)))
}

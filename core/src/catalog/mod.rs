//! Instance types and their offerings: the built-in AWS catalog and custom `InstanceType`s.
//!
//! Raw facts (shapes, ENI limits, prices, zones) live in [`aws`], generated at build time from
//! `core/data/instance-types.csv`. What a NodePool can launch depends on its EC2NodeClass
//! (AMI family, kubelet settings, root volume), so the engine resolves the raw facts into
//! [`InstanceType`]s per node class with [`resolve`].

pub mod aws;

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{NodeClass, StringMap};
use crate::requirements::Requirements;
use crate::resources::Resources;

/// Micro-dollars per hour: $0.0081/h is 8_100.
pub type MicroDollars = i64;

/// A custom instance type from a `playground.karpenter.dev/v1alpha1` `InstanceType` document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceTypeSpec {
    pub name: String,
    /// Capacity: cpu, memory, pods and any extended resources.
    pub capacity: Resources,
    pub arch: String,
    pub os: String,
    pub labels: StringMap,
    /// Reserved resources; `None` applies the AWS formulas.
    pub overhead: Option<Resources>,
    pub offerings: Vec<OfferingSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferingSpec {
    pub zone: String,
    pub capacity_type: CapacityType,
    pub price: MicroDollars,
    pub available: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CapacityType {
    /// Karpenter prefers reserved, then spot, then on-demand.
    Reserved,
    Spot,
    OnDemand,
}

impl CapacityType {
    pub fn as_str(self) -> &'static str {
        match self {
            CapacityType::Reserved => "reserved",
            CapacityType::Spot => "spot",
            CapacityType::OnDemand => "on-demand",
        }
    }

    pub fn parse(s: &str) -> Option<CapacityType> {
        match s {
            "reserved" => Some(CapacityType::Reserved),
            "spot" => Some(CapacityType::Spot),
            "on-demand" => Some(CapacityType::OnDemand),
            _ => None,
        }
    }
}

/// Where a price came from, so the report can say when it is an approximation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriceSource {
    /// The region's own on-demand list price.
    Regional,
    /// The region had no price; us-east-1's was used, as Karpenter does before its pricing
    /// API answers.
    UsEast1Fallback,
    /// Spot: on-demand × (1 − the Spot Instance Advisor's saving for the type).
    SpotAdvisor,
    /// Spot: on-demand × (1 − the documented default saving).
    SpotDefault,
    /// Given in a custom `InstanceType` document.
    Custom,
}

impl PriceSource {
    pub fn as_str(self) -> &'static str {
        match self {
            PriceSource::Regional => "regional",
            PriceSource::UsEast1Fallback => "us-east-1-fallback",
            PriceSource::SpotAdvisor => "spot-advisor",
            PriceSource::SpotDefault => "spot-default",
            PriceSource::Custom => "custom",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offering {
    pub zone: String,
    pub capacity_type: CapacityType,
    pub price: MicroDollars,
    pub available: bool,
    pub price_source: PriceSource,
}

/// An instance type as a NodePool sees it through its node class.
#[derive(Clone, Debug)]
pub struct InstanceType {
    pub name: String,
    /// Every label a node of this type carries, as requirements (`In [v]`), plus
    /// `DoesNotExist` for the AWS labels the type lacks (no GPU, no local NVMe, ...).
    /// Zone and capacity type are `In` the values of its offerings.
    pub requirements: Requirements,
    /// The single-valued labels (without zone and capacity type).
    pub labels: StringMap,
    pub capacity: Resources,
    /// kube-reserved + system-reserved + eviction threshold.
    pub overhead: Resources,
    pub allocatable: Resources,
    pub offerings: Vec<Offering>,
}

impl InstanceType {
    /// The cheapest available offering, if any.
    pub fn cheapest_available(&self) -> Option<&Offering> {
        self.offerings.iter().filter(|o| o.available).min_by_key(|o| o.price)
    }
}

/// Errors resolving a catalog; the manifest reader turns these into diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatalogError {
    UnknownRegion(String),
    UnknownInstanceType(String),
    UnknownZone { region: String, zone: String },
}

/// Resolved instance types, kept across simulations by the caller.
///
/// Resolving the built-in catalog for a node class costs a few milliseconds (1,363 types
/// with their labels and requirements); the page re-simulates on every edit, so it keeps one
/// cache and only node classes whose shape changed are resolved again. The cache is an input
/// like the catalog itself: the engine holds no global state.
#[derive(Default, Clone)]
pub struct CatalogCache {
    entries: alloc::vec::Vec<(CacheKey, alloc::rc::Rc<Vec<InstanceType>>)>,
}

#[derive(Clone, PartialEq, Eq)]
struct CacheKey {
    region: String,
    zones: Vec<String>,
    shape: NodeClass,
    custom: Vec<InstanceTypeSpec>,
}

impl CatalogCache {
    pub fn new() -> CatalogCache {
        CatalogCache::default()
    }

    /// [`resolve`], remembering the answer. At most 16 entries are kept.
    pub fn resolve(
        &mut self,
        region: &str,
        zones: &[String],
        node_class: &NodeClass,
        custom: &[InstanceTypeSpec],
    ) -> Result<alloc::rc::Rc<Vec<InstanceType>>, CatalogError> {
        // The name does not change what a node class can launch.
        let mut shape = node_class.clone();
        shape.name = String::new();
        let key = CacheKey { region: region.into(), zones: zones.to_vec(), shape, custom: custom.to_vec() };
        if let Some((_, types)) = self.entries.iter().find(|(k, _)| *k == key) {
            return Ok(types.clone());
        }
        let types = alloc::rc::Rc::new(resolve(region, zones, node_class, custom)?);
        if self.entries.len() >= 16 {
            self.entries.remove(0);
        }
        self.entries.push((key, types.clone()));
        Ok(types)
    }
}

/// The instance types one node class can launch in the given zones.
///
/// With `custom` non-empty the built-in catalog is not used at all.
pub fn resolve(
    region: &str,
    zones: &[String],
    node_class: &NodeClass,
    custom: &[InstanceTypeSpec],
) -> Result<Vec<InstanceType>, CatalogError> {
    if custom.is_empty() {
        aws::instance_types(region, zones, node_class)
    } else {
        Ok(custom.iter().map(|spec| aws::custom_instance_type(spec, zones, node_class)).collect())
    }
}

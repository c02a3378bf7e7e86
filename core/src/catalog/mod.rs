//! Instance types and their offerings: the built-in AWS catalog and custom `InstanceType`s.
//!
//! Raw facts (shapes, ENI limits, prices, zones, accelerators) live in [`aws`], generated at
//! build time from `core/data/instance-types.csv` and `core/data/accelerators.csv`. What a
//! NodePool can launch depends on its EC2NodeClass (AMI family, kubelet settings, root
//! volume), so the engine resolves the raw facts into [`InstanceType`]s per node class with
//! [`resolve`].

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

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
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
    /// A NodeOverlay changed `price`: the overlay's name and the price before it.
    pub overlay: Option<(String, MicroDollars)>,
    /// A reserved offering's capacity reservation: its id and how many instances it has left.
    pub reservation: Option<(String, u32)>,
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
        self.offerings
            .iter()
            .filter(|o| o.available)
            .min_by_key(|o| o.price)
    }
}

/// Errors resolving a catalog; the manifest reader turns these into diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatalogError {
    UnknownRegion(String),
    UnknownInstanceType(String),
    UnknownZone { region: String, zone: String },
}

/// A cheap test on an instance type's raw facts (name, family, category, architecture),
/// built from the `In`/`NotIn` requirements of the NodePools that use a node class: a type
/// none of them could launch need not be resolved. An empty list of pools admits nothing;
/// a pool without such requirements admits everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prefilter {
    /// One entry per NodePool: the requirements on prefilterable keys (ANDed); pools are ORed.
    pools: Vec<Vec<crate::requirements::Requirement>>,
}

/// Keys whose values the raw catalog knows without resolving a type.
const PREFILTER_KEYS: [&str; 6] = [
    crate::wellknown::INSTANCE_TYPE,
    crate::wellknown::INSTANCE_FAMILY,
    crate::wellknown::INSTANCE_CATEGORY,
    crate::wellknown::ARCH,
    crate::automode::EKS_INSTANCE_FAMILY,
    crate::automode::EKS_INSTANCE_CATEGORY,
];

impl Prefilter {
    /// Admits every type.
    pub fn all() -> Prefilter {
        Prefilter {
            pools: alloc::vec![Vec::new()],
        }
    }

    /// The prefilter for the node pools using one node class.
    pub fn for_pools<'a>(pools: impl IntoIterator<Item = &'a crate::model::NodePool>) -> Prefilter {
        use crate::requirements::{Operator, Requirement};
        let pools = pools
            .into_iter()
            .map(|np| {
                np.requirements
                    .iter()
                    .filter(|r| matches!(r.operator, Operator::In | Operator::NotIn))
                    .map(|r| Requirement::new(&r.key, r.operator, r.values.iter().cloned()))
                    .chain(
                        np.template_labels
                            .iter()
                            .map(|(k, v)| Requirement::in_values(k, [v.clone()])),
                    )
                    .filter(|r| PREFILTER_KEYS.contains(&r.key.as_str()))
                    .collect()
            })
            .collect();
        Prefilter { pools }
    }

    pub fn admits(&self, e: &aws::CatalogEntry) -> bool {
        self.pools.iter().any(|reqs| {
            reqs.iter().all(|r| {
                let value = match r.key.as_str() {
                    crate::wellknown::INSTANCE_TYPE => e.name,
                    crate::wellknown::INSTANCE_FAMILY | crate::automode::EKS_INSTANCE_FAMILY => {
                        e.family
                    }
                    crate::wellknown::INSTANCE_CATEGORY
                    | crate::automode::EKS_INSTANCE_CATEGORY => e.category,
                    _ => e.arch.as_str(),
                };
                r.has(value)
            })
        })
    }
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
    prefilter: Prefilter,
}

impl CatalogCache {
    pub fn new() -> CatalogCache {
        CatalogCache::default()
    }

    /// [`resolve`] limited to what the prefilter admits (built-in catalog only), remembering
    /// the answer. At most 16 entries are kept.
    pub fn resolve(
        &mut self,
        region: &str,
        zones: &[String],
        node_class: &NodeClass,
        custom: &[InstanceTypeSpec],
        prefilter: &Prefilter,
    ) -> Result<alloc::rc::Rc<Vec<InstanceType>>, CatalogError> {
        // The name does not change what a node class can launch.
        let mut shape = node_class.clone();
        shape.name = String::new();
        let key = CacheKey {
            region: region.into(),
            zones: zones.to_vec(),
            shape,
            custom: custom.to_vec(),
            prefilter: prefilter.clone(),
        };
        if let Some((_, types)) = self.entries.iter().find(|(k, _)| *k == key) {
            return Ok(types.clone());
        }
        let types = if custom.is_empty() {
            aws::instance_types_where(region, zones, node_class, prefilter)?
        } else {
            resolve(region, zones, node_class, custom)?
        };
        let types = alloc::rc::Rc::new(types);
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
        Ok(custom
            .iter()
            .map(|spec| aws::custom_instance_type(spec, zones, node_class))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;
    use crate::requirements::{Operator, Requirements};

    fn pool(reqs: &[(&str, Operator, &[&str])]) -> NodePool {
        reqs.iter()
            .fold(NodePool::new("p", "default"), |np, (k, op, v)| {
                np.require(k, *op, v)
            })
    }

    /// The prefilter only skips types the pools could never launch: every resolved type that
    /// satisfies a pool's requirements was admitted.
    #[test]
    fn prefilter_never_drops_a_type_a_pool_could_use() {
        let nc = NodeClass::al2023("default");
        let pools = [
            pool(&[(
                "node.kubernetes.io/instance-type",
                Operator::In,
                &["t3.small", "m7i-flex.large"],
            )]),
            pool(&[
                (
                    "karpenter.k8s.aws/instance-category",
                    Operator::In,
                    &["c", "m"],
                ),
                ("kubernetes.io/arch", Operator::NotIn, &["arm64"]),
                (
                    "karpenter.k8s.aws/instance-generation",
                    Operator::Gt,
                    &["6"],
                ),
            ]),
        ];
        let prefilter = Prefilter::for_pools(pools.iter());
        let all = aws::instance_types("us-east-1", &[], &nc).unwrap();
        let admitted = aws::instance_types_where("us-east-1", &[], &nc, &prefilter).unwrap();
        assert!(
            admitted.len() < all.len() / 2,
            "the prefilter skips most of the catalog"
        );
        for it in &all {
            let usable = pools.iter().any(|np| {
                let reqs: Requirements = np
                    .requirements
                    .iter()
                    .map(|r| {
                        crate::requirements::Requirement::new(
                            &r.key,
                            r.operator,
                            r.values.iter().cloned(),
                        )
                    })
                    .collect();
                it.requirements.intersects_ok(&reqs)
            });
            if usable {
                assert!(
                    admitted.iter().any(|a| a.name == it.name),
                    "{} was dropped",
                    it.name
                );
            }
        }
        assert!(Prefilter::for_pools([].iter()).pools.is_empty());
    }
}

//! A catalog's instance types grouped by what requirement and offering checks look at.
//!
//! A NodeClaim's requirements are checked against every instance type still open to it,
//! and a big pass asks that hundreds of thousands of times over the same ~1,400 types.
//! The types share few distinct requirements per label key (two architectures, a handful
//! of zone sets, ...), so [`TypeIndex`] keeps, per key, the distinct requirements the types
//! carry and which one each type has; [`TypeIndex::matcher`] then settles a set of
//! requirements against each distinct one once, and a type's answer is a table look-up.
//! The answers are exactly [`Requirements::intersects_ok`] and
//! [`super::has_compatible_offering`] type by type.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::catalog::{CapacityType, InstanceType};
use crate::requirements::{Requirement, Requirements};
use crate::wellknown::{CAPACITY_TYPE, ZONE};

/// A type that does not carry the key.
const ABSENT: u32 = u32::MAX;

/// The distinct requirements the types carry for one label key.
#[derive(Debug)]
struct KeyClasses {
    key: String,
    classes: Vec<Requirement>,
    /// Per type (indexed like the catalog): its index into `classes`, or [`ABSENT`].
    class_of: Vec<u32>,
}

/// What the requirement and offering checks need of a catalog, built once per catalog.
#[derive(Debug)]
pub struct TypeIndex {
    /// One per key any type carries, sorted by key.
    keys: Vec<KeyClasses>,
    /// The distinct (zone, capacity type) of the types' available offerings.
    offerings: Vec<(String, CapacityType)>,
    /// Per type, indices into `offerings`: type `i`'s are
    /// `offered[offered_at[i]..offered_at[i + 1]]`.
    offered: Vec<u32>,
    offered_at: Vec<u32>,
}

impl TypeIndex {
    pub fn new(types: &[InstanceType]) -> TypeIndex {
        // Per key: the distinct requirements (by value) and each type's.
        let mut by_key: BTreeMap<&str, (BTreeMap<&Requirement, u32>, Vec<u32>)> = BTreeMap::new();
        for (i, it) in types.iter().enumerate() {
            for r in it.requirements.iter() {
                let (ids, class_of) = by_key
                    .entry(r.key.as_str())
                    .or_insert_with(|| (BTreeMap::new(), alloc::vec![ABSENT; types.len()]));
                let next = ids.len() as u32;
                class_of[i] = *ids.entry(r).or_insert(next);
            }
        }
        let keys = by_key
            .into_iter()
            .map(|(key, (ids, class_of))| {
                let mut classes: Vec<(u32, &Requirement)> =
                    ids.into_iter().map(|(r, id)| (id, r)).collect();
                classes.sort_unstable_by_key(|&(id, _)| id);
                KeyClasses {
                    key: key.into(),
                    classes: classes.into_iter().map(|(_, r)| r.clone()).collect(),
                    class_of,
                }
            })
            .collect();
        let mut offering_ids: BTreeMap<(&str, CapacityType), u32> = BTreeMap::new();
        let mut offerings = Vec::new();
        let mut offered = Vec::new();
        let mut offered_at = alloc::vec![0u32];
        for it in types {
            let start = offered.len();
            for o in it.offerings.iter().filter(|o| o.available) {
                let id = *offering_ids
                    .entry((o.zone.as_str(), o.capacity_type))
                    .or_insert_with(|| {
                        offerings.push((o.zone.clone(), o.capacity_type));
                        (offerings.len() - 1) as u32
                    });
                offered.push(id);
            }
            offered[start..].sort_unstable();
            let mut kept = start;
            for j in start..offered.len() {
                if j == start || offered[j] != offered[kept - 1] {
                    offered[kept] = offered[j];
                    kept += 1;
                }
            }
            offered.truncate(kept);
            offered_at.push(offered.len() as u32);
        }
        TypeIndex {
            keys,
            offerings,
            offered,
            offered_at,
        }
    }

    /// The distinct requirements the types carry for `key`.
    pub fn requirements_for(&self, key: &str) -> &[Requirement] {
        match self.keys.binary_search_by(|k| k.key.as_str().cmp(key)) {
            Ok(k) => &self.keys[k].classes,
            Err(_) => &[],
        }
    }

    /// `reqs` settled against every distinct requirement and offering of the catalog.
    pub fn matcher(&self, reqs: &Requirements) -> TypeMatch<'_> {
        let mut keys = Vec::new();
        for r in reqs.iter() {
            let Ok(k) = self
                .keys
                .binary_search_by(|k| k.key.as_str().cmp(r.key.as_str()))
            else {
                // No type carries the key: no type has it in common with `reqs`.
                continue;
            };
            let k = &self.keys[k];
            let agrees = k.classes.iter().map(|c| c.agrees_with(r)).collect();
            keys.push((k.class_of.as_slice(), agrees));
        }
        let zone = reqs.get(ZONE);
        let ct = reqs.get(CAPACITY_TYPE);
        let offerings = self
            .offerings
            .iter()
            .map(|(z, c)| zone.is_none_or(|r| r.has(z)) && ct.is_none_or(|r| r.has(c.as_str())))
            .collect();
        TypeMatch {
            index: self,
            keys,
            offerings,
        }
    }
}

/// A set of requirements settled against a [`TypeIndex`]'s distinct requirements and
/// offerings.
pub struct TypeMatch<'i> {
    index: &'i TypeIndex,
    /// Per key of the requirements that some type carries: which type has which distinct
    /// requirement, and whether each agrees with the requirements' own.
    keys: Vec<(&'i [u32], Vec<bool>)>,
    /// Per distinct offering: whether the requirements allow its zone and capacity type.
    offerings: Vec<bool>,
}

impl TypeMatch<'_> {
    /// `types[i].requirements.intersects_ok(reqs)`.
    pub fn requirements_ok(&self, i: u32) -> bool {
        self.keys.iter().all(|(class_of, agrees)| {
            let c = class_of[i as usize];
            c == ABSENT || agrees[c as usize]
        })
    }

    /// `has_compatible_offering(&types[i], reqs)`.
    pub fn offering_ok(&self, i: u32) -> bool {
        let i = i as usize;
        let (start, end) = (
            self.index.offered_at[i] as usize,
            self.index.offered_at[i + 1] as usize,
        );
        self.index.offered[start..end]
            .iter()
            .any(|&o| self.offerings[o as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Offering, PriceSource};
    use crate::model::NodeClass;
    use crate::requirements::Operator;
    use crate::scheduling::has_compatible_offering;
    use alloc::string::ToString;
    use proptest::prelude::*;

    /// Keys the built-in catalog carries (with `DoesNotExist` among them), one it never does,
    /// and zone and capacity type, which the offerings answer.
    const KEYS: [&str; 7] = [
        "kubernetes.io/arch",
        "karpenter.k8s.aws/instance-gpu-count",
        "karpenter.k8s.aws/instance-cpu",
        "karpenter.k8s.aws/instance-family",
        "team",
        "topology.kubernetes.io/zone",
        "karpenter.sh/capacity-type",
    ];
    const VALUES: [&str; 9] = [
        "amd64",
        "arm64",
        "1",
        "8",
        "m5",
        "c7g",
        "us-east-1a",
        "us-east-1c",
        "spot",
    ];
    const OPERATORS: [Operator; 8] = [
        Operator::In,
        Operator::NotIn,
        Operator::Exists,
        Operator::DoesNotExist,
        Operator::Gt,
        Operator::Lt,
        Operator::Gte,
        Operator::Lte,
    ];

    fn catalog() -> Vec<InstanceType> {
        let zones: Vec<String> = ["us-east-1a", "us-east-1b", "us-east-1c"]
            .iter()
            .map(|z| z.to_string())
            .collect();
        let mut types =
            crate::catalog::resolve("us-east-1", &zones, &NodeClass::al2023("default"), &[])
                .unwrap();
        // Some offerings unavailable, as the unavailable-offerings cache leaves them.
        for (i, it) in types.iter_mut().enumerate() {
            if let Some(o) = it.offerings.get_mut(i % 5) {
                o.available = false;
            }
            if i % 7 == 0 {
                it.offerings.push(Offering {
                    zone: "us-east-1b".into(),
                    capacity_type: CapacityType::Reserved,
                    price: 1,
                    available: true,
                    price_source: PriceSource::Custom,
                    overlay: None,
                    reservation: None,
                });
            }
        }
        types
    }

    fn arb_requirements() -> impl Strategy<Value = Requirements> {
        let one = (
            0..KEYS.len(),
            0..OPERATORS.len(),
            proptest::sample::subsequence(VALUES.to_vec(), 0..3),
        );
        proptest::collection::vec(one, 0..4).prop_map(|reqs| {
            reqs.into_iter()
                .map(|(k, op, values)| {
                    let op = OPERATORS[op];
                    let values = if matches!(
                        op,
                        Operator::Gt | Operator::Lt | Operator::Gte | Operator::Lte
                    ) {
                        alloc::vec!["4"]
                    } else {
                        values
                    };
                    Requirement::new(KEYS[k], op, values)
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The index answers exactly what the checks it replaces answer, type by type.
        #[test]
        fn matcher_agrees_with_the_direct_checks(reqs in arb_requirements()) {
            let types = catalog();
            let index = TypeIndex::new(&types);
            let m = index.matcher(&reqs);
            for (i, it) in types.iter().enumerate() {
                prop_assert_eq!(
                    m.requirements_ok(i as u32),
                    it.requirements.intersects_ok(&reqs),
                    "{} {:?}", it.name, reqs
                );
                prop_assert_eq!(
                    m.offering_ok(i as u32),
                    has_compatible_offering(it, &reqs),
                    "{} {:?}", it.name, reqs
                );
            }
        }
    }
}

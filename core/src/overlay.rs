//! NodeOverlay (`karpenter.sh/v1alpha1`, v1.7+, gate `NodeOverlay`): overrides of instance
//! types' prices and extended-resource capacity, chosen by requirements and combined by
//! weight.
//!
//! Read at v1.14.1 (`pkg/controllers/nodeoverlay/controller.go` `Reconcile`,
//! `validateAndUpdateInstanceTypeOverrides`, `getOverlaidOfferings`; `store.go`;
//! `pkg/cloudprovider/types.go` `AdjustedPrice`), with v1.7.0 and v1.9.0 compared:
//! - An overlay selects, per NodePool, the instance types whose requirements (the type's own,
//!   `karpenter.sh/nodepool In [pool]` and the pool's template labels) are compatible with its
//!   requirements, strictly: a key the type does not define matches only a negative
//!   requirement. Of such a type it selects the offerings whose zone and capacity type agree;
//!   a type with none is not selected.
//! - Overlays are taken by weight, highest first, then by name, later names first. The first
//!   to price an offering prices it (prices never stack); capacity merges per resource, the
//!   first to name a resource setting it.
//! - An overlay that meets an earlier one of the same weight (on a priced offering, or on a
//!   resource both name) conflicts and is applied nowhere (`ValidationSucceeded=False`,
//!   reason `Conflict`).
//! - `price` replaces the price, `+N`/`-N` adds dollars, `±N%` scales; never below zero.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::catalog::{InstanceType, MicroDollars};
use crate::model::StringMap;
use crate::requirements::{Requirement, Requirements, Undefined};
use crate::resources::ResourceName;
use crate::wellknown::{CAPACITY_TYPE, NODEPOOL, ZONE};

/// What an overlay does to a price (`price` or `priceAdjustment`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriceChange {
    /// `price: "0.05"`: the price becomes this.
    Set(MicroDollars),
    /// `priceAdjustment: "+0.01"`: dollars added (or taken, when negative).
    Add(MicroDollars),
    /// `priceAdjustment: "-15%"`: the price scaled by this many millionths of a percent.
    Percent(i64),
}

impl PriceChange {
    /// The price after the change (`AdjustedPrice`), never below zero.
    pub fn apply(self, price: MicroDollars) -> MicroDollars {
        let changed = match self {
            PriceChange::Set(p) => p,
            PriceChange::Add(d) => price.saturating_add(d),
            PriceChange::Percent(micro_percent) => {
                // p × (1 + v/100), rounded to the micro-dollar.
                let delta = i128::from(price) * i128::from(micro_percent);
                let scale = 100_000_000i128;
                let rounded = if delta >= 0 {
                    (delta + scale / 2) / scale
                } else {
                    (delta - scale / 2) / scale
                };
                price.saturating_add(rounded as i64)
            }
        };
        changed.max(0)
    }
}

/// A NodeOverlay as the reader gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeOverlay {
    pub name: String,
    pub requirements: Requirements,
    /// 1–10000; unset is 0.
    pub weight: i32,
    pub price: Option<PriceChange>,
    /// Extended resources the instance types get (never cpu, memory, ephemeral-storage or
    /// pods: the CRD refuses those).
    pub capacity: Vec<(ResourceName, i64)>,
}

/// A NodePool as overlays see it: its name, template labels and instance types.
pub struct PoolView<'a> {
    pub name: &'a str,
    pub labels: &'a StringMap,
    pub types: &'a [InstanceType],
}

/// What the overlays do to one instance type of one NodePool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeOverride {
    /// Per offering (indexed like the type's offerings): the overlay that prices it.
    pub prices: Vec<Option<(usize, PriceChange)>>,
    /// Per resource: the overlay that sets it and the amount.
    pub capacity: Vec<(ResourceName, i64, usize)>,
}

/// The outcome of one evaluation of every overlay against every NodePool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// Per NodePool name, per instance type (indexed like its catalog).
    pub pools: BTreeMap<String, Vec<Option<TypeOverride>>>,
    /// Overlays applied nowhere because they conflict with another of the same weight
    /// (indices into the overlays given).
    pub conflicts: Vec<usize>,
}

/// Where one evaluation keeps track of an offering or a type: the weight of the last overlay
/// that touched it (`lowestWeight`), and, for a type, the resources that overlay named.
#[derive(Clone, Default)]
struct Seen {
    offering_weight: Vec<Option<i32>>,
    capacity_weight: Option<i32>,
    capacity_names: Vec<ResourceName>,
}

/// Evaluates `overlays` (all valid) against the NodePools, as one reconcile of the
/// nodeoverlay controller does.
pub fn evaluate(overlays: &[NodeOverlay], pools: &[PoolView<'_>]) -> Evaluation {
    let mut order: Vec<usize> = (0..overlays.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&overlays[a], &overlays[b]);
        y.weight.cmp(&x.weight).then(y.name.cmp(&x.name))
    });
    let mut out = Evaluation::default();
    let mut seen: Vec<Vec<Seen>> = pools
        .iter()
        .map(|p| alloc::vec![Seen::default(); p.types.len()])
        .collect();
    for pool in pools {
        out.pools
            .insert(pool.name.into(), alloc::vec![None; pool.types.len()]);
    }
    for o in order {
        let overlay = &overlays[o];
        // Phase one: what it selects, and whether that conflicts anywhere.
        let mut selected: Vec<(usize, usize, Vec<usize>)> = Vec::new();
        let mut conflict = false;
        for (p, pool) in pools.iter().enumerate() {
            let mut reqs = Requirements::from_labels(pool.labels.iter());
            reqs.add(Requirement::in_values(NODEPOOL, [pool.name]));
            for (t, it) in pool.types.iter().enumerate() {
                let mut type_reqs = reqs.clone();
                type_reqs.add_all(&it.requirements);
                if type_reqs
                    .compatible(&overlay.requirements, Undefined::Deny)
                    .is_err()
                {
                    continue;
                }
                let offerings: Vec<usize> = (0..it.offerings.len())
                    .filter(|&i| offering_matches(overlay, it, i))
                    .collect();
                if offerings.is_empty() {
                    continue;
                }
                let s = &seen[p][t];
                if overlay.price.is_some()
                    && offerings.iter().any(|&i| {
                        s.offering_weight.get(i).copied().flatten() == Some(overlay.weight)
                    })
                {
                    conflict = true;
                }
                if !overlay.capacity.is_empty()
                    && s.capacity_weight == Some(overlay.weight)
                    && overlay
                        .capacity
                        .iter()
                        .any(|(name, _)| s.capacity_names.contains(name))
                {
                    conflict = true;
                }
                selected.push((p, t, offerings));
            }
        }
        if conflict {
            out.conflicts.push(o);
            continue;
        }
        // Phase two: apply it everywhere it selects.
        for (p, t, offerings) in selected {
            let it = &pools[p].types[t];
            let entry = out
                .pools
                .get_mut(pools[p].name)
                .and_then(|types| types.get_mut(t));
            let Some(entry) = entry else { continue };
            let ov = entry.get_or_insert_with(|| TypeOverride {
                prices: alloc::vec![None; it.offerings.len()],
                capacity: Vec::new(),
            });
            let s = &mut seen[p][t];
            if s.offering_weight.len() < it.offerings.len() {
                s.offering_weight.resize(it.offerings.len(), None);
            }
            if let Some(change) = overlay.price {
                for &i in &offerings {
                    if ov.prices[i].is_none() {
                        ov.prices[i] = Some((o, change));
                    }
                    s.offering_weight[i] = Some(overlay.weight);
                }
            }
            if !overlay.capacity.is_empty() {
                for &(name, amount) in &overlay.capacity {
                    if !ov.capacity.iter().any(|(n, _, _)| *n == name) {
                        ov.capacity.push((name, amount, o));
                    }
                }
                s.capacity_weight = Some(overlay.weight);
                s.capacity_names = overlay.capacity.iter().map(|(n, _)| *n).collect();
            }
        }
    }
    out
}

/// Whether the overlay selects offering `i` of `it`: the keys both define (zone, capacity
/// type) agree.
fn offering_matches(overlay: &NodeOverlay, it: &InstanceType, i: usize) -> bool {
    let o = &it.offerings[i];
    overlay
        .requirements
        .get(ZONE)
        .is_none_or(|z| z.has(&o.zone))
        && overlay
            .requirements
            .get(CAPACITY_TYPE)
            .is_none_or(|c| c.has(o.capacity_type.as_str()))
}

/// The instance types with their overrides applied: prices per offering (the list price
/// kept beside it), capacity merged (the overlay's amount wins) and allocatable with it.
pub fn apply(
    types: &[InstanceType],
    overrides: &[Option<TypeOverride>],
    overlays: &[NodeOverlay],
) -> Vec<InstanceType> {
    let mut out = types.to_vec();
    for (it, ov) in out.iter_mut().zip(overrides) {
        let Some(ov) = ov else { continue };
        for (offering, price) in it.offerings.iter_mut().zip(&ov.prices) {
            if let Some((o, change)) = price {
                let list = offering.price;
                offering.price = change.apply(list);
                offering.overlay = Some((overlays[*o].name.clone(), list));
            }
        }
        for &(name, amount, _) in &ov.capacity {
            // Extended resources have no overhead: allocatable is the capacity.
            it.capacity.set(name, amount);
            it.allocatable
                .set(name, amount - it.overhead.get(name).min(amount));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_change_as_adjusted_price_computes_them() {
        let p = 1_020_000;
        assert_eq!(PriceChange::Set(50_000).apply(p), 50_000);
        assert_eq!(PriceChange::Add(1_000_000_000).apply(p), 1_001_020_000);
        assert_eq!(PriceChange::Add(-5_000_000).apply(p), 0);
        assert_eq!(PriceChange::Percent(-100_000_000).apply(p), 0);
        assert_eq!(PriceChange::Percent(-15_000_000).apply(p), 867_000);
        assert_eq!(PriceChange::Percent(10_000_000).apply(96_000), 105_600);
        assert_eq!(PriceChange::Percent(-500_000).apply(96_000), 95_520);
    }
}

//! EC2 capacity as Karpenter meets it: the shortages a Timeline step declares (EC2 has no
//! capacity for some offerings for a while) and the AWS provider's unavailable-offerings
//! cache (`A@1.14.1:pkg/cache/unavailableofferings.go`, `UnavailableOfferingsTTL`).
//!
//! An offering (instance type, zone, capacity type) goes into the cache for 3 minutes when a
//! launch finds it without capacity (`InsufficientInstanceCapacity` in the CreateFleet
//! response, `pkg/providers/instance/instance.go` updateUnavailableOfferingsCache) and when
//! its spot instance gets an interruption warning (`pkg/controllers/interruption/utils.go`
//! markUnavailableOfferings). While cached the offering is unavailable to every decision:
//! provisioning, the capacity type, consolidation's replacements. So pods fall back to the
//! next-cheapest offering: another zone, another type, or on-demand once spot is gone.
//!
//! [`CloudProvider`] is the AWS provider's state (the resolved instance types per
//! EC2NodeClass, the AMI releases, the cache) and EC2's (the shortages). It never binds a
//! pod, creates a NodeClaim or emits an event: the controllers ask it, and the glue at the
//! bottom of this file turns its answers into queued actions and events.

use alloc::collections::BTreeSet;

use super::event::Offerings;
use super::*;
use crate::reservation::{CapacityReservation, Phase, ReservationTerm};

/// How long an offering stays in the unavailable-offerings cache.
pub(super) const UNAVAILABLE_TTL: Millis = 3 * 60_000;

/// EC2 has no capacity for the offerings it matches (`None` matches any) until `until`
/// (`None`: for the rest of the simulation).
#[derive(Clone, Debug)]
pub(super) struct Shortage {
    pub(super) offerings: Offerings,
    pub(super) until: Option<Millis>,
}

impl Shortage {
    fn covers(
        &self,
        instance_type: &str,
        zone: &str,
        capacity_type: CapacityType,
        now: Millis,
    ) -> bool {
        let o = &self.offerings;
        self.until.is_none_or(|u| now < u)
            && o.instance_type
                .as_deref()
                .is_none_or(|t| t == instance_type)
            && o.zone.as_deref().is_none_or(|z| z == zone)
            && o.capacity_type.is_none_or(|c| c == capacity_type)
    }
}

/// The AWS cloud provider and EC2 as the controllers meet them.
#[derive(Clone)]
pub(super) struct CloudProvider {
    region: String,
    zones: Vec<String>,
    /// The scenario's own instance types, if it gives any (then the built-in catalog is not
    /// used).
    custom_types: Vec<catalog::InstanceTypeSpec>,
    /// Each EC2NodeClass's instance types, resolved once.
    catalogs: BTreeMap<String, Rc<Vec<InstanceType>>>,
    /// AMIs released by Timeline steps, per alias family (`al2023`): `@latest` resolves to
    /// the newest.
    ami_releases: BTreeMap<String, u32>,
    /// Shortages of EC2 capacity declared by the Timeline (`insufficientCapacity`).
    shortages: Vec<Shortage>,
    /// The unavailable-offerings cache: (instance type, zone, capacity type) → until when.
    unavailable: BTreeMap<(String, String, CapacityType), Millis>,
    /// The node classes' catalogs with the cached offerings unavailable (rebuilt when the
    /// cache changes). An overlay's identity matters: the provisioner's candidate cache
    /// keeps the catalog it filtered, so one overlay serves every pass until the cache
    /// changes.
    availability_overlay: BTreeMap<String, Rc<Vec<InstanceType>>>,
    /// The latest cache expiry scheduled (marks made at one instant share it).
    offerings_expire_at: Option<Millis>,
    /// EC2's capacity reservations: each with the instances it has left
    /// (`AvailableInstanceCount`) and its phase. Empty unless the `ReservedCapacity` gate
    /// is on.
    reservations: Vec<(CapacityReservation, u32, Phase)>,
    /// Each EC2NodeClass's `capacityReservationSelectorTerms`.
    reservation_terms: BTreeMap<String, Vec<ReservationTerm>>,
}

impl CloudProvider {
    pub(super) fn new(
        region: String,
        zones: Vec<String>,
        custom_types: Vec<catalog::InstanceTypeSpec>,
    ) -> CloudProvider {
        CloudProvider {
            region,
            zones,
            custom_types,
            catalogs: BTreeMap::new(),
            ami_releases: BTreeMap::new(),
            shortages: Vec::new(),
            unavailable: BTreeMap::new(),
            availability_overlay: BTreeMap::new(),
            offerings_expire_at: None,
            reservations: Vec::new(),
            reservation_terms: BTreeMap::new(),
        }
    }

    /// The scenario's capacity reservations, when the `ReservedCapacity` gate is on.
    pub(super) fn set_reservations(&mut self, reservations: &[CapacityReservation]) {
        self.reservations = reservations
            .iter()
            .map(|r| (r.clone(), r.instance_count, r.phase(0)))
            .collect();
        self.availability_overlay.clear();
    }

    /// A node class's selector terms (kept when it resolves).
    fn keep_terms(&mut self, node_class: &NodeClass) {
        self.reservation_terms.insert(
            node_class.key().into_owned(),
            node_class.capacity_reservation_terms.clone(),
        );
        self.availability_overlay.clear();
    }

    /// The reservations, with what each has left and its phase.
    pub(super) fn reservations(&self) -> &[(CapacityReservation, u32, Phase)] {
        &self.reservations
    }

    /// What each active reservation has left, by id.
    pub(super) fn reservation_counts(&self) -> BTreeMap<String, u32> {
        self.reservations
            .iter()
            .filter(|(_, _, phase)| *phase == Phase::Active)
            .map(|(r, left, _)| (r.id.clone(), *left))
            .collect()
    }

    /// An instance launched into reservation `id` (`MarkLaunched`).
    pub(super) fn mark_launched(&mut self, id: &str) {
        if let Some(r) = self.reservations.iter_mut().find(|r| r.0.id == id) {
            r.1 = r.1.saturating_sub(1);
            self.availability_overlay.clear();
        }
    }

    /// An instance of reservation `id` terminated: its capacity is free again, while the
    /// reservation is active.
    pub(super) fn mark_terminated(&mut self, id: &str) {
        if let Some(r) = self
            .reservations
            .iter_mut()
            .find(|r| r.0.id == id && r.2 == Phase::Active)
        {
            r.1 = (r.1 + 1).min(r.0.instance_count);
            self.availability_overlay.clear();
        }
    }

    /// EC2 has no instances left in reservation `id` for now (`MarkUnavailable`).
    pub(super) fn mark_reservation_full(&mut self, id: &str) {
        if let Some(r) = self.reservations.iter_mut().find(|r| r.0.id == id) {
            r.1 = 0;
            self.availability_overlay.clear();
        }
    }

    /// Moves reservation `i` to its phase at `now`; the phase it had, if it changed.
    pub(super) fn update_phase(&mut self, i: usize, now: Millis) -> Option<(Phase, Phase)> {
        let r = self.reservations.get_mut(i)?;
        let phase = r.0.phase(now);
        if phase == r.2 {
            return None;
        }
        let was = r.2;
        r.2 = phase;
        self.availability_overlay.clear();
        Some((was, phase))
    }

    /// Whether node class `name` selects any reservation (its catalog then carries reserved
    /// offerings).
    fn selects_reservations(&self, name: &str) -> bool {
        !self.reservations.is_empty()
            && self
                .reservation_terms
                .get(name)
                .is_some_and(|terms| !terms.is_empty())
    }

    /// The reserved offerings of a node class's selected reservations, added to its catalog
    /// (`ReservedCapacityResolver`, v1.14.1): one per reservation, in its zone (one of the
    /// class's), priced at the on-demand price / 10⁷, available while the reservation is
    /// active and has instances left; and the types' requirements with `reserved` and the
    /// reservation labels.
    fn add_reserved(&self, name: &str, types: &mut [InstanceType]) {
        let Some(terms) = self.reservation_terms.get(name) else {
            return;
        };
        let mut reserved: BTreeMap<usize, Vec<&CapacityReservation>> = BTreeMap::new();
        for (r, left, phase) in &self.reservations {
            if *phase == Phase::Ended || !terms.iter().any(|t| t.selects(r)) {
                continue;
            }
            let Some(t) = types.iter().position(|t| t.name == r.instance_type) else {
                continue;
            };
            let it = &mut types[t];
            let Some(od) = it
                .offerings
                .iter()
                .find(|o| o.zone == r.zone && o.capacity_type == CapacityType::OnDemand)
                .cloned()
            else {
                continue;
            };
            it.offerings.push(catalog::Offering {
                zone: r.zone.clone(),
                capacity_type: CapacityType::Reserved,
                price: crate::reservation::reserved_price(od.price),
                available: *left > 0 && *phase == Phase::Active,
                price_source: od.price_source,
                overlay: None,
                reservation: Some((r.id.clone(), *left)),
            });
            reserved.entry(t).or_default().push(r);
        }
        for (t, rs) in reserved {
            let it = &mut types[t];
            let mut cts: Vec<String> = it
                .requirements
                .get(wk::CAPACITY_TYPE)
                .map(|r| r.values().to_vec())
                .unwrap_or_default();
            cts.push(CapacityType::Reserved.as_str().into());
            it.requirements
                .set(Requirement::in_values(wk::CAPACITY_TYPE, cts));
            let values = |f: &dyn Fn(&CapacityReservation) -> String| {
                let mut v: Vec<String> = rs.iter().map(|r| f(r)).collect();
                v.sort();
                v.dedup();
                v
            };
            it.requirements.set(Requirement::in_values(
                wk::RESERVATION_ID,
                values(&|r| r.id.clone()),
            ));
            it.requirements.set(Requirement::in_values(
                wk::RESERVATION_TYPE,
                values(&|r| r.reservation_type.as_str().into()),
            ));
            it.requirements.set(Requirement::in_values(
                wk::RESERVATION_INTERRUPTIBLE,
                values(&|r| r.interruptible.to_string()),
            ));
        }
    }

    pub(super) fn region(&self) -> &str {
        &self.region
    }

    /// Whether the instance types are the built-in catalog's (not the scenario's own).
    pub(super) fn builtin_catalog(&self) -> bool {
        self.custom_types.is_empty()
    }

    /// Resolves an EC2NodeClass's instance types at the start, through the caller's cache.
    pub(super) fn resolve_cached(
        &mut self,
        cache: &mut catalog::CatalogCache,
        node_class: &NodeClass,
        prefilter: &catalog::Prefilter,
    ) -> Result<(), catalog::CatalogError> {
        let types = cache.resolve(
            &self.region,
            &self.zones,
            node_class,
            &self.custom_types,
            prefilter,
        )?;
        self.catalogs.insert(node_class.key().into_owned(), types);
        self.keep_terms(node_class);
        Ok(())
    }

    /// Resolves an EC2NodeClass applied by a Timeline step; one that does not resolve keeps
    /// what it had.
    pub(super) fn resolve(&mut self, node_class: &NodeClass, prefilter: &catalog::Prefilter) {
        let types = if self.custom_types.is_empty() {
            catalog::aws::instance_types_where(&self.region, &self.zones, node_class, prefilter)
        } else {
            catalog::resolve(&self.region, &self.zones, node_class, &self.custom_types)
        };
        if let Ok(types) = types {
            self.catalogs
                .insert(node_class.key().into_owned(), Rc::new(types));
            self.keep_terms(node_class);
        }
    }

    /// Whether an EC2NodeClass has resolved instance types (it exists).
    pub(super) fn has_catalog(&self, node_class: &str) -> bool {
        self.catalogs.contains_key(node_class)
    }

    /// A deleted EC2NodeClass's instance types go with it.
    pub(super) fn forget_catalog(&mut self, node_class: &str) {
        self.catalogs.remove(node_class);
    }

    /// A managed node group's instance type, with the EKS-optimized AMI's overhead.
    pub(super) fn node_group_type(
        &self,
        group: &NodeGroup,
        nc: &NodeClass,
    ) -> Result<InstanceType, SimError> {
        if self.custom_types.is_empty() {
            catalog::aws::instance_type_named(&self.region, &self.zones, nc, &group.instance_type)
                .map_err(catalog_error)
        } else {
            let spec = self
                .custom_types
                .iter()
                .find(|t| t.name == group.instance_type)
                .ok_or_else(|| {
                    SimError::Catalog(format!(
                        "node group \"{}\": unknown instance type \"{}\"",
                        group.name, group.instance_type
                    ))
                })?;
            Ok(catalog::aws::custom_instance_type(spec, &self.zones, nc))
        }
    }

    /// The zones a node group spreads over when it names none.
    pub(super) fn zones(&self) -> &[String] {
        &self.zones
    }

    /// Whether EC2 would answer a launch of this offering now with insufficient capacity.
    pub(super) fn ec2_short(
        &self,
        instance_type: &str,
        zone: &str,
        capacity_type: CapacityType,
        now: Millis,
    ) -> bool {
        self.shortages
            .iter()
            .any(|s| s.covers(instance_type, zone, capacity_type, now))
    }

    /// Puts an offering into the unavailable-offerings cache for [`UNAVAILABLE_TTL`];
    /// returns when the entry runs out if no expiry is queued for that time yet.
    fn mark_unavailable(
        &mut self,
        instance_type: &str,
        zone: &str,
        capacity_type: CapacityType,
        now: Millis,
    ) -> Option<Millis> {
        let until = now + UNAVAILABLE_TTL;
        self.unavailable
            .insert((instance_type.into(), zone.into(), capacity_type), until);
        self.availability_overlay.clear();
        // A failed fleet request marks dozens of pools at once: one expiry for them all.
        if self.offerings_expire_at != Some(until) {
            self.offerings_expire_at = Some(until);
            return Some(until);
        }
        None
    }

    /// Drops the cache entries whose time is up; whether any went.
    fn expire_unavailable(&mut self, now: Millis) -> bool {
        let before = self.unavailable.len();
        self.unavailable.retain(|_, until| *until > now);
        if self.unavailable.len() != before {
            self.availability_overlay.clear();
            return true;
        }
        false
    }

    /// Whether the unavailable-offerings cache holds anything.
    pub(super) fn has_unavailable(&self) -> bool {
        !self.unavailable.is_empty()
    }

    /// How many cached unavailable offerings are of these instance types.
    pub(super) fn cached_unavailable(&self, names: &BTreeSet<&str>) -> u32 {
        self.unavailable
            .keys()
            .filter(|(name, _, _)| names.contains(name.as_str()))
            .count() as u32
    }

    /// A node class's instance types as Karpenter sees them now: the resolved catalog with
    /// the cached offerings unavailable. Without a warm overlay ([`Self::warm_catalogs`])
    /// the overlay is built for this answer alone.
    pub(super) fn catalog(&self, node_class: &str) -> Option<Rc<Vec<InstanceType>>> {
        let base = self.catalogs.get(node_class)?;
        if self.unavailable.is_empty() && !self.selects_reservations(node_class) {
            return Some(base.clone());
        }
        if let Some(overlay) = self.availability_overlay.get(node_class) {
            return Some(overlay.clone());
        }
        Some(Rc::new(self.overlay(node_class, base)))
    }

    /// Builds the overlays [`Self::catalog`] answers with until the cache next changes.
    pub(super) fn warm_catalogs(&mut self) {
        if self.unavailable.is_empty() && self.reservations.is_empty() {
            return;
        }
        for (name, base) in &self.catalogs {
            if (!self.unavailable.is_empty() || self.selects_reservations(name))
                && !self.availability_overlay.contains_key(name)
            {
                let overlay = Rc::new(self.overlay(name, base));
                self.availability_overlay.insert(name.clone(), overlay);
            }
        }
    }

    fn overlay(&self, name: &str, base: &[InstanceType]) -> Vec<InstanceType> {
        let mut types = base.to_vec();
        self.add_reserved(name, &mut types);
        for (name, zone, capacity_type) in self.unavailable.keys() {
            if let Some(it) = types.iter_mut().find(|t| &t.name == name) {
                for o in it.offerings.iter_mut() {
                    if &o.zone == zone && o.capacity_type == *capacity_type {
                        o.available = false;
                    }
                }
            }
        }
        types
    }

    /// A Timeline step released a new AMI of a family; its release number.
    pub(super) fn release_ami(&mut self, family: &str) -> u32 {
        let r = self.ami_releases.entry(family.into()).or_insert(0);
        *r += 1;
        *r
    }

    /// The AMI an EC2NodeClass resolves to now: an `@latest` alias follows the releases of
    /// its family, a pinned alias or a custom selection stays put.
    pub(super) fn current_image(&self, nc: &NodeClass) -> String {
        match nc.ami_alias.as_deref() {
            Some(alias) => {
                let (family, version) = alias.split_once('@').unwrap_or((alias, "latest"));
                if version == "latest" {
                    image_id(family, self.ami_releases.get(family).copied().unwrap_or(0))
                } else {
                    image_id(alias, 0)
                }
            }
            None => image_id(&format!("custom/{}", nc.name), 0),
        }
    }
}

impl Simulation {
    /// Whether EC2 would answer a launch of this offering now with insufficient capacity.
    pub(super) fn ec2_short(
        &self,
        instance_type: &str,
        zone: &str,
        capacity_type: CapacityType,
    ) -> bool {
        self.cloud
            .ec2_short(instance_type, zone, capacity_type, self.now)
    }

    /// Puts an offering into the unavailable-offerings cache for [`UNAVAILABLE_TTL`].
    pub(super) fn mark_unavailable(
        &mut self,
        instance_type: &str,
        zone: &str,
        capacity_type: CapacityType,
    ) {
        let expiry = self
            .cloud
            .mark_unavailable(instance_type, zone, capacity_type, self.now);
        self.cluster.version += 1;
        if let Some(until) = expiry {
            self.schedule(until, Action::OfferingsExpire);
        }
    }

    /// Drops the cache entries whose time is up: those offerings are tried again.
    pub(super) fn expire_unavailable(&mut self) {
        if self.cloud.expire_unavailable(self.now) {
            self.cluster.version += 1;
        }
    }

    /// The Timeline's `insufficientCapacity` step: EC2 runs out of the matching offerings.
    pub(super) fn start_shortage(&mut self, shortage: Shortage) {
        self.event(EventKind::ShortageStarted {
            offerings: shortage.offerings.clone(),
            until: shortage.until,
        });
        if let Some(until) = shortage.until {
            self.schedule(until, Action::ShortageEnds(self.cloud.shortages.len()));
        }
        self.cloud.shortages.push(shortage);
        self.cluster.version += 1;
    }

    /// A declared shortage is over: the offerings launch again once the cache lets
    /// Karpenter try them.
    pub(super) fn end_shortage(&mut self, i: usize) {
        let offerings = self.cloud.shortages[i].offerings.clone();
        self.event(EventKind::CapacityRestored { offerings });
        self.cluster.version += 1;
    }

    /// The fleet request behind a NodeClaim found no capacity in any pool it could use: the
    /// NodeClaim is deleted (`InsufficientCapacityError`) and its pods are provisioned again,
    /// now without the offerings the cache holds.
    pub(super) fn fail_launch(&mut self, n: usize) {
        let nodeclaim = self.cluster.nodes[n].claim_name();
        self.event(EventKind::LaunchFailed { nodeclaim });
        self.remove_nodeclaim(n, false);
    }
}

/// A plausible AMI ID, stable for an image name and release.
pub(super) fn image_id(name: &str, release: u32) -> String {
    let h = pod::stable_hash(&[name, &release.to_string()]);
    format!("ami-0{:016x}", h)
}

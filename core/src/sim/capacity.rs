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
        self.catalogs.insert(node_class.name.clone(), types);
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
                .insert(node_class.name.clone(), Rc::new(types));
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
        if self.unavailable.is_empty() {
            return Some(base.clone());
        }
        if let Some(overlay) = self.availability_overlay.get(node_class) {
            return Some(overlay.clone());
        }
        Some(Rc::new(self.overlay(base)))
    }

    /// Builds the overlays [`Self::catalog`] answers with until the cache next changes.
    pub(super) fn warm_catalogs(&mut self) {
        if self.unavailable.is_empty() {
            return;
        }
        for (name, base) in &self.catalogs {
            if !self.availability_overlay.contains_key(name) {
                let overlay = Rc::new(self.overlay(base));
                self.availability_overlay.insert(name.clone(), overlay);
            }
        }
    }

    fn overlay(&self, base: &[InstanceType]) -> Vec<InstanceType> {
        let mut types = base.to_vec();
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
        let nodeclaim = self.cluster.nodes[n].name.clone();
        self.event(EventKind::LaunchFailed { nodeclaim });
        self.remove_nodeclaim(n, false);
    }
}

/// A plausible AMI ID, stable for an image name and release.
pub(super) fn image_id(name: &str, release: u32) -> String {
    let h = pod::stable_hash(&[name, &release.to_string()]);
    format!("ami-0{:016x}", h)
}

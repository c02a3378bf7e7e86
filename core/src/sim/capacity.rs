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

use super::event::Offerings;
use super::*;

/// How long an offering stays in the unavailable-offerings cache.
pub(super) const UNAVAILABLE_TTL: Millis = 3 * 60_000;

/// EC2 has no capacity for the offerings it matches (`None` matches any) until `until`
/// (`None`: for the rest of the simulation).
#[derive(Clone, Debug)]
pub(super) struct Shortage {
    pub offerings: Offerings,
    pub until: Option<Millis>,
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

impl Simulation {
    /// Whether EC2 would answer a launch of this offering now with insufficient capacity.
    pub(super) fn ec2_short(
        &self,
        instance_type: &str,
        zone: &str,
        capacity_type: CapacityType,
    ) -> bool {
        self.shortages
            .iter()
            .any(|s| s.covers(instance_type, zone, capacity_type, self.now))
    }

    /// Puts an offering into the unavailable-offerings cache for [`UNAVAILABLE_TTL`].
    pub(super) fn mark_unavailable(
        &mut self,
        instance_type: &str,
        zone: &str,
        capacity_type: CapacityType,
    ) {
        let until = self.now + UNAVAILABLE_TTL;
        self.unavailable
            .insert((instance_type.into(), zone.into(), capacity_type), until);
        self.availability_overlay.clear();
        self.version += 1;
        // A failed fleet request marks dozens of pools at once: one expiry for them all.
        if self.offerings_expire_at != Some(until) {
            self.offerings_expire_at = Some(until);
            self.schedule(until, Action::OfferingsExpire);
        }
    }

    /// Drops the cache entries whose time is up: those offerings are tried again.
    pub(super) fn expire_unavailable(&mut self) {
        let now = self.now;
        let before = self.unavailable.len();
        self.unavailable.retain(|_, until| *until > now);
        if self.unavailable.len() != before {
            self.availability_overlay.clear();
            self.version += 1;
        }
    }

    /// A node class's instance types as Karpenter sees them now: the resolved catalog with
    /// the cached offerings unavailable.
    pub(super) fn catalog(&mut self, node_class: &str) -> Option<Rc<Vec<InstanceType>>> {
        let base = self.catalogs.get(node_class)?.clone();
        if self.unavailable.is_empty() {
            return Some(base);
        }
        if let Some(overlay) = self.availability_overlay.get(node_class) {
            return Some(overlay.clone());
        }
        let mut types = (*base).clone();
        for (name, zone, capacity_type) in self.unavailable.keys() {
            if let Some(it) = types.iter_mut().find(|t| &t.name == name) {
                for o in it.offerings.iter_mut() {
                    if &o.zone == zone && o.capacity_type == *capacity_type {
                        o.available = false;
                    }
                }
            }
        }
        let overlay = Rc::new(types);
        self.availability_overlay
            .insert(node_class.into(), overlay.clone());
        Some(overlay)
    }

    /// The Timeline's `insufficientCapacity` step: EC2 runs out of the matching offerings.
    pub(super) fn start_shortage(&mut self, shortage: Shortage) {
        self.event(EventKind::ShortageStarted {
            offerings: shortage.offerings.clone(),
            until: shortage.until,
        });
        if let Some(until) = shortage.until {
            self.schedule(until, Action::ShortageEnds(self.shortages.len()));
        }
        self.shortages.push(shortage);
        self.version += 1;
    }

    /// A declared shortage is over: the offerings launch again once the cache lets
    /// Karpenter try them.
    pub(super) fn end_shortage(&mut self, i: usize) {
        let offerings = self.shortages[i].offerings.clone();
        self.event(EventKind::CapacityRestored { offerings });
        self.version += 1;
    }

    /// The fleet request behind a NodeClaim found no capacity in any pool it could use: the
    /// NodeClaim is deleted (`InsufficientCapacityError`) and its pods are provisioned again,
    /// now without the offerings the cache holds.
    pub(super) fn fail_launch(&mut self, n: usize) {
        let nodeclaim = self.nodes[n].name.clone();
        self.event(EventKind::LaunchFailed { nodeclaim });
        self.remove_nodeclaim(n, false);
    }
}

//! Reserved capacity (gate `ReservedCapacity`, v1.3+, on by default from v1.6): what the
//! provisioner, the launch and the AWS provider's controllers do with capacity reservations.
//! Read at v1.14.1 in kubernetes-sigs/karpenter
//! (`provisioning/scheduling/reservationmanager.go`, `nodeclaim.go` `offeringsToReserve`,
//! `FinalizeScheduling`) and aws/karpenter-provider-aws (`pkg/providers/capacityreservation/`,
//! `pkg/providers/instancetype/offering/reserved_capacity_resolver.go`,
//! `pkg/controllers/capacityreservation/expiration` and `capacitytype`).
//!
//! - The provisioner holds, per simulation, what each reservation has left. A new NodeClaim
//!   takes one instance of every reservation it could launch into (pessimistically), and is
//!   then pinned to them (`capacity-type In [reserved]`, the reservation ids). One that could
//!   launch into a reservation but finds none left is deferred (strict mode): its pods wait
//!   for the next simulation, which sees the launches and falls back to on-demand or spot.
//! - The launch takes the reserved offering (reserved before spot and on-demand), the one
//!   with most instances left; EC2's count drops by one and rises again when the instance
//!   terminates.
//! - A capacity block is expiring 40 minutes before its end: nothing launches into it and
//!   Karpenter deletes its NodeClaims. A default reservation that ends leaves its instances
//!   running as on-demand: Karpenter relabels the nodes and NodeClaims.

use alloc::collections::BTreeSet;

use super::event::TerminationCause;
use super::*;
use crate::reservation::{Phase, ReservationType};

/// Why a NodeClaim's pods wait (the provisioner's log line).
pub const DEFERRED: &str = "deferring scheduling decision for provisionable pod(s) to future \
                            simulation due to limited reserved offering capacity";

impl Simulation {
    /// Whether reserved capacity runs: the gate is on (it exists from v1.3).
    pub(super) fn reserved_capacity_runs(&self) -> bool {
        self.karpenter.gate(Gate::ReservedCapacity)
    }

    /// EC2's capacity reservations now: each with the instances it has left and its phase
    /// (empty while the `ReservedCapacity` gate is off).
    pub fn reservations(&self) -> &[(crate::reservation::CapacityReservation, u32, Phase)] {
        self.cloud.reservations()
    }

    /// The reservations' phase changes, queued at the start.
    pub(super) fn schedule_reservation_phases(&mut self) {
        let changes: Vec<(Millis, usize)> = self
            .cloud
            .reservations()
            .iter()
            .enumerate()
            .flat_map(|(i, (r, _, _))| r.phase_changes().map(move |at| (at, i)))
            .collect();
        for (at, i) in changes {
            self.schedule(at, Action::ReservationPhase(i));
        }
    }

    /// The reservation ids a NodeClaim could launch into: the available reserved offerings
    /// of its options that its requirements allow.
    fn reservable(tpl: &Template, claim: &scheduling::NewClaim) -> BTreeSet<String> {
        let reqs = &claim.requirements;
        if reqs
            .get(wk::CAPACITY_TYPE)
            .is_some_and(|r| !r.has(CapacityType::Reserved.as_str()))
        {
            return BTreeSet::new();
        }
        let zone = reqs.get(wk::ZONE);
        let id_req = reqs.get(wk::RESERVATION_ID);
        claim
            .options
            .iter()
            .flat_map(|&i| tpl.instance_types[i as usize].offerings.iter())
            .filter(|o| {
                o.available
                    && o.capacity_type == CapacityType::Reserved
                    && zone.is_none_or(|z| z.has(&o.zone))
            })
            .filter_map(|o| o.reservation.as_ref().map(|r| r.0.clone()))
            .filter(|id| id_req.is_none_or(|r| r.has(id)))
            .collect()
    }

    /// The reservation manager over one provisioning simulation's new NodeClaims, in order:
    /// each takes one instance of every reservation it could use and is pinned to them, or,
    /// when it could use one but none is left, is deferred (its index is returned).
    pub(super) fn reserve_offerings(
        &self,
        templates: &[Template],
        claims: &mut [scheduling::NewClaim],
    ) -> BTreeSet<usize> {
        let mut deferred = BTreeSet::new();
        if !self.reserved_capacity_runs() || self.cloud.reservations().is_empty() {
            return deferred;
        }
        let mut left = self.cloud.reservation_counts();
        for (c, claim) in claims.iter_mut().enumerate() {
            let could = Self::reservable(&templates[claim.template], claim);
            if could.is_empty() {
                continue;
            }
            let taken: Vec<String> = could
                .into_iter()
                .filter(|id| left.get(id).is_some_and(|&n| n > 0))
                .collect();
            if taken.is_empty() {
                deferred.insert(c);
                continue;
            }
            for id in &taken {
                if let Some(n) = left.get_mut(id) {
                    *n -= 1;
                }
            }
            claim.requirements.set(Requirement::in_values(
                wk::CAPACITY_TYPE,
                [CapacityType::Reserved.as_str()],
            ));
            claim
                .requirements
                .set(Requirement::in_values(wk::RESERVATION_ID, taken));
        }
        deferred
    }

    /// A launch into a reservation: EC2's count drops, and the node carries the
    /// reservation's labels.
    pub(super) fn launched_into_reservation(&mut self, n: usize) {
        let Some(id) = self.cluster.nodes[n].reservation.clone() else {
            return;
        };
        self.cloud.mark_launched(&id);
        let Some((r, _, _)) = self.cloud.reservations().iter().find(|r| r.0.id == id) else {
            return;
        };
        let labels = [
            (wk::RESERVATION_ID, r.id.clone()),
            (
                wk::RESERVATION_TYPE,
                r.reservation_type.as_str().to_string(),
            ),
            (wk::RESERVATION_INTERRUPTIBLE, r.interruptible.to_string()),
        ];
        let node = &mut self.cluster.nodes[n];
        for (k, v) in labels {
            node.labels.insert(k.into(), v);
        }
        node.requirements = Requirements::from_labels(node.labels.iter());
    }

    /// A reserved instance terminated: its reservation has room again.
    pub(super) fn left_reservation(&mut self, n: usize) {
        if let Some(id) = self.cluster.nodes[n].reservation.clone() {
            self.cloud.mark_terminated(&id);
        }
    }

    /// Reservation `i` reaches a phase change.
    pub(super) fn reservation_phase(&mut self, i: usize) {
        let Some((_, phase)) = self.cloud.update_phase(i, self.now) else {
            return;
        };
        self.cluster.version += 1;
        let (id, kind) = {
            let r = &self.cloud.reservations()[i].0;
            (r.id.clone(), r.reservation_type)
        };
        let members: Vec<usize> = (0..self.cluster.nodes.len())
            .filter(|&n| {
                let node = &self.cluster.nodes[n];
                node.exists() && node.reservation.as_deref() == Some(id.as_str())
            })
            .collect();
        match (kind, phase) {
            // `initiating delete for capacity block expiration`: drained as any deletion.
            (ReservationType::CapacityBlock, Phase::Expiring) => {
                for n in members {
                    self.terminate(n, TerminationCause::CapacityBlockExpiring);
                }
            }
            // EC2 reclaims what is left of a capacity block.
            (ReservationType::CapacityBlock, Phase::Ended) => {
                for n in members {
                    self.cluster.nodes[n].termination_grace = Some(0);
                    self.terminate(n, TerminationCause::CapacityBlockExpiring);
                }
            }
            // An ended reservation's instances run on as on-demand (`capacitytype`
            // controller): relabelled, at the on-demand price.
            (ReservationType::Default, Phase::Ended) => {
                for n in members {
                    self.becomes_on_demand(n);
                }
            }
            _ => {}
        }
        self.event(EventKind::ReservationPhase {
            reservation: id,
            phase: phase_name(phase),
        });
    }

    fn becomes_on_demand(&mut self, n: usize) {
        let price = self.on_demand_price_of(n);
        let from = self.cluster.nodes[n].capacity_type;
        let node = &mut self.cluster.nodes[n];
        node.capacity_type = CapacityType::OnDemand;
        node.labels.insert(
            wk::CAPACITY_TYPE.into(),
            CapacityType::OnDemand.as_str().into(),
        );
        // The interruptible label stays: it is not one of `ReservedCapacityLabels`.
        node.labels.remove(wk::RESERVATION_ID);
        node.labels.remove(wk::RESERVATION_TYPE);
        node.requirements = Requirements::from_labels(node.labels.iter());
        node.reservation = None;
        if let Some(p) = price {
            node.price = p;
        }
        let (nodeclaim, price) = (node.name.clone(), node.price);
        self.event(EventKind::CapacityTypeChanged {
            nodeclaim,
            from,
            to: CapacityType::OnDemand,
            price,
        });
    }

    /// The on-demand price of node `n`'s instance type in its zone.
    fn on_demand_price_of(&self, n: usize) -> Option<MicroDollars> {
        let node = &self.cluster.nodes[n];
        let pool = node.nodepool?;
        let types = self.pool_catalog(pool)?;
        let it = types.iter().find(|t| t.name == node.instance_type)?;
        it.offerings
            .iter()
            .find(|o| o.zone == node.zone && o.capacity_type == CapacityType::OnDemand)
            .map(|o| o.price)
    }
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Active => "active",
        Phase::Expiring => "expiring",
        Phase::Ended => "ended",
    }
}

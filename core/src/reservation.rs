//! EC2 capacity reservations (a scenario's `CapacityReservation` documents: on-demand
//! capacity reservations and capacity blocks) and how an EC2NodeClass selects them with
//! `capacityReservationSelectorTerms` (aws/karpenter-provider-aws
//! `pkg/providers/capacityreservation/`, `pkg/apis/v1/ec2nodeclass.go`, v1.14.1).
//!
//! A term's fields are ANDed and the terms ORed. `id` stands alone in its term; `tags`
//! match by value (`"*"`: the key exists), `ownerID` and `instanceMatchCriteria` by
//! equality. Only active reservations are found (`state=active`, the end not passed). An
//! open reservation that no term selects is not used: with the `ReservedCapacity` gate on,
//! Karpenter launches on-demand instances with `CapacityReservationPreference: none`.

use alloc::string::String;

use crate::model::{Millis, StringMap};

/// `reservationType`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReservationType {
    /// An on-demand capacity reservation (ODCR).
    #[default]
    Default,
    /// An EC2 capacity block (for ML): it always ends, and EC2 reclaims its instances.
    CapacityBlock,
}

impl ReservationType {
    pub fn as_str(self) -> &'static str {
        match self {
            ReservationType::Default => "default",
            ReservationType::CapacityBlock => "capacity-block",
        }
    }
}

/// `instanceMatchCriteria`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MatchCriteria {
    #[default]
    Open,
    Targeted,
}

impl MatchCriteria {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchCriteria::Open => "open",
            MatchCriteria::Targeted => "targeted",
        }
    }
}

/// A `CapacityReservation` document (`playground.karpenter.dev/v1alpha1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapacityReservation {
    /// The document's name.
    pub name: String,
    /// `cr-...`.
    pub id: String,
    pub instance_type: String,
    pub zone: String,
    /// How many instances it holds at the start (EC2's `AvailableInstanceCount`).
    pub instance_count: u32,
    pub reservation_type: ReservationType,
    pub match_criteria: MatchCriteria,
    pub owner_id: Option<String>,
    pub tags: StringMap,
    /// When it ends, from the start of the simulation (a capacity block always ends).
    pub end: Option<Millis>,
    /// An interruptible reservation: its owner may reclaim it with a 2-minute notice.
    pub interruptible: bool,
}

/// One `capacityReservationSelectorTerms` item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReservationTerm {
    pub id: Option<String>,
    pub tags: StringMap,
    pub owner_id: Option<String>,
    pub match_criteria: Option<MatchCriteria>,
}

impl ReservationTerm {
    /// Whether the term selects `r`: every field it sets agrees.
    pub fn selects(&self, r: &CapacityReservation) -> bool {
        self.id.as_ref().is_none_or(|id| *id == r.id)
            && self
                .tags
                .iter()
                .all(|(k, v)| r.tags.get(k).is_some_and(|have| v == "*" || have == v))
            && self
                .owner_id
                .as_ref()
                .is_none_or(|o| r.owner_id.as_ref() == Some(o))
            && self.match_criteria.is_none_or(|m| m == r.match_criteria)
    }
}

/// A capacity block is `expiring` from 40 minutes before its end: no launch goes into it, and
/// Karpenter deletes its NodeClaims (`capacityReservationExpirationPeriod`; EC2 begins
/// reclaiming the instances 30 minutes before the end).
pub const CAPACITY_BLOCK_EXPIRING: Millis = 40 * 60_000;

/// A reserved offering's price: the on-demand price divided by 10⁷ (the AWS provider's
/// `ReservedCapacityResolver`), so that reserved capacity is taken first. In micro-dollars
/// this is 0 for every EC2 price below $10,000 an hour.
pub fn reserved_price(on_demand: crate::catalog::MicroDollars) -> crate::catalog::MicroDollars {
    on_demand / 10_000_000
}

/// Where a reservation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Active,
    /// A capacity block within 40 minutes of its end.
    Expiring,
    /// Past its end: EC2 no longer reports it.
    Ended,
}

impl CapacityReservation {
    /// Its phase at `now`.
    pub fn phase(&self, now: Millis) -> Phase {
        match self.end {
            Some(end) if now >= end => Phase::Ended,
            Some(end)
                if self.reservation_type == ReservationType::CapacityBlock
                    && now + CAPACITY_BLOCK_EXPIRING >= end =>
            {
                Phase::Expiring
            }
            _ => Phase::Active,
        }
    }

    /// The instants its phase changes.
    pub fn phase_changes(&self) -> impl Iterator<Item = Millis> {
        let expiring = self
            .end
            .filter(|_| self.reservation_type == ReservationType::CapacityBlock)
            .map(|end| end.saturating_sub(CAPACITY_BLOCK_EXPIRING));
        expiring.into_iter().chain(self.end)
    }
}

/// The reservations `terms` select that are still active at `now`, in `all`'s order.
pub fn selected<'a>(
    terms: &'a [ReservationTerm],
    all: &'a [CapacityReservation],
    now: Millis,
) -> impl Iterator<Item = &'a CapacityReservation> + 'a {
    all.iter()
        .filter(move |r| r.end.is_none_or(|end| end > now))
        .filter(move |r| terms.iter().any(|t| t.selects(r)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn reservation(id: &str, tags: &[(&str, &str)]) -> CapacityReservation {
        CapacityReservation {
            name: id.into(),
            id: id.into(),
            instance_type: "m5.large".into(),
            zone: "us-east-1a".into(),
            instance_count: 2,
            reservation_type: ReservationType::Default,
            match_criteria: MatchCriteria::Open,
            owner_id: None,
            tags: tags
                .iter()
                .map(|(k, v)| (String::from(*k), String::from(*v)))
                .collect(),
            end: Some(3_600_000),
            interruptible: false,
        }
    }

    #[test]
    fn fields_are_anded_within_a_term_and_terms_are_ored() {
        let all = [
            reservation("cr-a", &[("team", "web")]),
            reservation("cr-b", &[("team", "ml"), ("tier", "gold")]),
            reservation("cr-c", &[]),
        ];
        let term = |id: Option<&str>, tags: &[(&str, &str)]| ReservationTerm {
            id: id.map(String::from),
            tags: tags
                .iter()
                .map(|(k, v)| (String::from(*k), String::from(*v)))
                .collect(),
            ..ReservationTerm::default()
        };
        let ids = |terms: &[ReservationTerm], now| -> Vec<String> {
            selected(terms, &all, now).map(|r| r.id.clone()).collect()
        };
        assert_eq!(
            ids(&[term(None, &[("team", "ml"), ("tier", "gold")])], 0),
            ["cr-b"]
        );
        assert!(ids(&[term(None, &[("team", "ml"), ("tier", "silver")])], 0).is_empty());
        assert_eq!(ids(&[term(None, &[("team", "*")])], 0), ["cr-a", "cr-b"]);
        assert_eq!(
            ids(
                &[term(Some("cr-c"), &[]), term(None, &[("team", "web")])],
                0
            ),
            ["cr-a", "cr-c"]
        );
        // Targeted only, and an ended reservation is not found.
        let targeted = ReservationTerm {
            match_criteria: Some(MatchCriteria::Targeted),
            ..ReservationTerm::default()
        };
        assert!(ids(&[targeted], 0).is_empty());
        assert!(ids(&[term(Some("cr-a"), &[])], 3_600_000).is_empty());
    }
}

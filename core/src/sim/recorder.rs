//! What the controllers decided, as they decided it: the event stream (Kubernetes' events,
//! de-duplicated as Karpenter's recorder does) and the evidence behind each decision.
//!
//! Every controller writes here and none reads it back to decide: the stream and the
//! evidence are the simulation's output, not its state.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::event::{Event, EventKind};
use super::evidence::Evidence;
use crate::model::Millis;

#[derive(Clone, Debug, Default)]
pub(super) struct Recorder {
    events: Vec<Event>,
    /// What each decision saw ([`super::evidence`]).
    pub(super) evidence: Evidence,
    /// The cluster's figures over time ([`super::history`]).
    pub(super) history: super::history::History,
    /// The last `Unconsolidatable` / `DisruptionBlocked` / `FailedDraining` event per
    /// object, so that a repeated verdict is not repeated as an event.
    verdicts: BTreeMap<String, EventKind>,
}

impl Recorder {
    pub(super) fn events(&self) -> &[Event] {
        &self.events
    }

    /// Appends an event to the stream.
    pub(super) fn event(&mut self, time: Millis, kind: EventKind) {
        self.events.push(Event { time, kind });
    }

    /// Appends a verdict about an object unless the last verdict about it was the same
    /// (Karpenter's recorder also de-duplicates identical events).
    pub(super) fn verdict(&mut self, time: Millis, kind: EventKind) {
        let object = kind.object().to_string();
        if self.verdicts.get(&object) == Some(&kind) {
            return;
        }
        self.verdicts.insert(object, kind.clone());
        self.event(time, kind);
    }
}

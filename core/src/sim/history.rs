//! The cluster's figures over time: one point per instant at which they changed (nodes,
//! pods running and pending, the price of the nodes that exist), and the cost accrued from
//! time 0, which is the series' step integral.
//!
//! Observed after each instant is processed; like the event stream, it is output that no
//! controller reads.

use alloc::vec::Vec;

use super::Simulation;
use crate::catalog::MicroDollars;
use crate::model::Millis;
use crate::pod::Phase;

/// The cluster's figures from one instant until the next point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HistoryPoint {
    pub at: Millis,
    /// Nodes that exist, fixed ones and Karpenter's in any state (as the report lists them).
    pub nodes: u32,
    pub running: u32,
    pub pending: u32,
    /// What the nodes that exist cost per hour.
    pub cost_per_hour: MicroDollars,
}

impl HistoryPoint {
    fn same_figures(&self, other: &HistoryPoint) -> bool {
        (self.nodes, self.running, self.pending, self.cost_per_hour)
            == (
                other.nodes,
                other.running,
                other.pending,
                other.cost_per_hour,
            )
    }
}

/// The series, in time order, at most one point per instant.
#[derive(Clone, Debug, Default)]
pub(super) struct History {
    points: Vec<HistoryPoint>,
}

/// A millisecond of an hour: cost per hour × milliseconds / this = cost.
const MS_PER_HOUR: i128 = 3_600_000;

impl History {
    /// Keeps `point` if its figures differ from the last point's; a second observation at
    /// the same instant replaces the first (an instant is processed as a whole).
    pub(super) fn observe(&mut self, point: HistoryPoint) {
        if let Some(last) = self.points.last_mut()
            && last.at == point.at
        {
            *last = point;
            let n = self.points.len();
            if n >= 2 && self.points[n - 2].same_figures(&point) {
                self.points.pop();
            }
            return;
        }
        if self
            .points
            .last()
            .is_some_and(|last| last.same_figures(&point))
        {
            return;
        }
        self.points.push(point);
    }

    /// The points up to `now`.
    pub(super) fn until(&self, now: Millis) -> &[HistoryPoint] {
        let end = self.points.partition_point(|p| p.at <= now);
        &self.points[..end]
    }

    /// What the nodes cost from time 0 to `now`, in micro-dollars.
    pub(super) fn accrued(&self, now: Millis) -> MicroDollars {
        accrued(self.until(now), now)
    }
}

/// The figures that held at `at` in `points` (a series from time 0): the last point at or
/// before it, or nothing at all before the first.
pub fn figures_at(points: &[HistoryPoint], at: Millis) -> HistoryPoint {
    let i = points.partition_point(|p| p.at <= at);
    i.checked_sub(1).map(|i| points[i]).unwrap_or_default()
}

/// What the nodes cost over `points` (a series from time 0) until `now`, in micro-dollars
/// rounded to the nearest: each point's cost per hour for as long as it held.
pub fn accrued(points: &[HistoryPoint], now: Millis) -> MicroDollars {
    accrued_over(points.iter().map(|p| (p.at, p.cost_per_hour)), now)
}

/// [`accrued`] over `(instant, cost per hour)` steps in time order, for a consumer that keeps
/// the series in a shape of its own (the page's timeline).
pub fn accrued_over(
    steps: impl IntoIterator<Item = (Millis, MicroDollars)>,
    now: Millis,
) -> MicroDollars {
    let mut total: i128 = 0;
    let mut steps = steps.into_iter().peekable();
    while let Some((at, cost_per_hour)) = steps.next() {
        if at >= now {
            break;
        }
        let end = steps.peek().map_or(now, |&(next, _)| next.min(now));
        total += i128::from(cost_per_hour) * i128::from(end - at);
    }
    ((total + MS_PER_HOUR / 2) / MS_PER_HOUR) as MicroDollars
}

impl Simulation {
    /// The cluster's figures now.
    pub(super) fn figures(&self) -> HistoryPoint {
        let mut nodes = 0u32;
        let mut cost_per_hour: MicroDollars = 0;
        for node in self.cluster.nodes.iter().filter(|n| n.exists()) {
            nodes += 1;
            cost_per_hour += node.price + node.management_fee;
        }
        let (mut running, mut pending) = (0u32, 0u32);
        for pod in self.cluster.pods.iter().filter(|p| !p.deleted) {
            match pod.phase {
                Phase::Running => running += 1,
                Phase::Pending => pending += 1,
                _ => {}
            }
        }
        HistoryPoint {
            at: self.now,
            nodes,
            running,
            pending,
            cost_per_hour,
        }
    }

    pub(super) fn observe_figures(&mut self) {
        let point = self.figures();
        self.recorder.history.observe(point);
    }

    /// The cluster's figures from time 0 to now, one point per instant they changed.
    pub fn history(&self) -> &[HistoryPoint] {
        self.recorder.history.until(self.now)
    }

    /// What the nodes cost from time 0 to now, in micro-dollars.
    pub fn accrued_cost(&self) -> MicroDollars {
        self.recorder.history.accrued(self.now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(at: Millis, nodes: u32, cost_per_hour: MicroDollars) -> HistoryPoint {
        HistoryPoint {
            at,
            nodes,
            running: 0,
            pending: 0,
            cost_per_hour,
        }
    }

    #[test]
    fn the_accrued_cost_is_the_step_integral() {
        let mut h = History::default();
        h.observe(point(0, 0, 0));
        h.observe(point(60_000, 1, 20_800)); // one t3.small from 1m
        h.observe(point(90_000, 1, 20_800)); // same figures: no point
        h.observe(point(3_660_000, 0, 0)); // gone an hour later
        assert_eq!(h.until(u64::MAX).len(), 3);
        assert_eq!(h.accrued(3_660_000), 20_800);
        assert_eq!(h.accrued(7_200_000), 20_800);
        // Half an hour in: half the hourly price.
        assert_eq!(h.accrued(1_860_000), 10_400);
        assert_eq!(h.until(59_999).len(), 1);
    }

    #[test]
    fn an_instant_observed_twice_keeps_its_last_figures() {
        let mut h = History::default();
        h.observe(point(0, 0, 0));
        h.observe(point(10, 1, 5));
        h.observe(point(10, 2, 9));
        assert_eq!(h.until(u64::MAX), &[point(0, 0, 0), point(10, 2, 9)]);
        // Back to the previous figures within the instant: nothing changed at it.
        h.observe(point(10, 0, 0));
        assert_eq!(h.until(u64::MAX), &[point(0, 0, 0)]);
    }
}

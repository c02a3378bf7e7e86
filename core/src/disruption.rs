//! Karpenter's disruption rules that do not need the cluster: budgets and the
//! `consolidateAfter` clock. The simulation (`sim.rs`) applies them to its nodes.
//!
//! Sources: `K@1.14.1:pkg/apis/v1/nodepool.go` (GetAllowedDisruptionsByReason),
//! `pkg/controllers/disruption/helpers.go` (BuildDisruptionBudgetMapping) and
//! `pkg/controllers/nodeclaim/disruption/consolidation.go`, as summarised in
//! `karpenter-semantics.md` §1.1 and §5.

use crate::model::Millis;
use crate::model::{Budget, BudgetNodes};

/// Why Karpenter disrupts a node; budgets may name these in `reasons`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    Empty,
    Underutilized,
    Drifted,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Empty => "Empty",
            Reason::Underutilized => "Underutilized",
            Reason::Drifted => "Drifted",
        }
    }
}

/// How often the disruption controller looks for work when the last look found none.
pub const POLL: Millis = 10_000;
/// How long a computed command waits before it is validated and executed.
pub const VALIDATION_DELAY: Millis = 15_000;

/// How many nodes of a pool a budget lets be disrupting at once for `reason`, before the
/// nodes already disrupting are subtracted. `None` means no active budget limits it.
///
/// A budget applies when its `reasons` is empty or names `reason`, and, when it has a
/// `schedule`, while the window the schedule opens (for `duration`) is open at `now` (see
/// [`crate::cron`]). A schedule that does not parse allows nothing, as in Karpenter (fail
/// closed). A percentage is of the pool's initialized nodes, rounded up.
pub fn allowed(budgets: &[Budget], reason: Reason, nodes: u32, now: Millis) -> Option<u32> {
    budgets
        .iter()
        .filter(|b| b.reasons.is_empty() || b.reasons.iter().any(|r| r == reason.as_str()))
        .filter_map(|b| {
            let limit = match b.nodes {
                BudgetNodes::Count(n) => n,
                BudgetNodes::Percent(p) => (u64::from(p) * u64::from(nodes)).div_ceil(100) as u32,
            };
            match (&b.schedule, b.duration) {
                (None, _) => Some(limit),
                (Some(spec), Some(duration)) => match crate::cron::parse(spec) {
                    Ok(schedule) => schedule.is_active(duration, now).then_some(limit),
                    Err(_) => Some(0),
                },
                (Some(_), None) => Some(0),
            }
        })
        .min()
}

/// Nodes a pool may start disrupting now: `allowed − disrupting`, never negative.
pub fn remaining(budgets: &[Budget], reason: Reason, nodes: u32, disrupting: u32, now: Millis) -> u32 {
    allowed(budgets, reason, nodes, now).map_or(u32::MAX, |a| a.saturating_sub(disrupting))
}

/// When a node becomes `Consolidatable`: `consolidateAfter` after the later of its
/// initialization and its last pod event (a pod bound, finished or deleted). `None` when the
/// pool never consolidates or the node is not initialized.
pub fn consolidatable_at(initialized_at: Option<Millis>, last_pod_event: Option<Millis>, consolidate_after: Option<Millis>) -> Option<Millis> {
    let start = initialized_at?;
    let quiet_since = last_pod_event.map_or(start, |t| t.max(start));
    Some(quiet_since + consolidate_after?)
}

/// The disruption controller's next look at or after `t`: it polls every 10 s.
pub fn next_poll(t: Millis) -> Millis {
    t.div_ceil(POLL) * POLL
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec;

    fn budget(nodes: BudgetNodes, reasons: &[&str]) -> Budget {
        Budget { nodes, schedule: None, duration: None, reasons: reasons.iter().map(|r| String::from(*r)).collect() }
    }

    #[test]
    fn percentages_round_up_and_the_smallest_budget_wins() {
        let b = vec![budget(BudgetNodes::Percent(10), &[])];
        assert_eq!(allowed(&b, Reason::Empty, 5, 0), Some(1), "10 % of 5 nodes rounds up to 1");
        assert_eq!(allowed(&b, Reason::Empty, 0, 0), Some(0));
        assert_eq!(allowed(&b, Reason::Empty, 11, 0), Some(2));
        let two = vec![budget(BudgetNodes::Percent(50), &[]), budget(BudgetNodes::Count(1), &["Empty"])];
        assert_eq!(allowed(&two, Reason::Empty, 10, 0), Some(1));
        assert_eq!(allowed(&two, Reason::Drifted, 10, 0), Some(5), "a budget for other reasons does not apply");
        assert_eq!(allowed(&[], Reason::Empty, 10, 0), None);
    }

    #[test]
    fn nodes_already_disrupting_use_the_budget() {
        let b = vec![budget(BudgetNodes::Count(2), &[])];
        assert_eq!(remaining(&b, Reason::Empty, 10, 1, 0), 1);
        assert_eq!(remaining(&b, Reason::Empty, 10, 3, 0), 0);
        assert_eq!(remaining(&[], Reason::Empty, 10, 3, 0), u32::MAX);
        let zero = vec![budget(BudgetNodes::Percent(0), &[])];
        assert_eq!(remaining(&zero, Reason::Empty, 10, 0, 0), 0, "nodes: 0% blocks every disruption");
    }

    #[test]
    fn scheduled_budgets_apply_only_inside_their_window() {
        const HOUR: Millis = 3_600_000;
        // No disruption during business hours (from 09:00 for 8 h, Monday to Friday); day 4
        // of the simulated clock (1970-01-05) is a Monday.
        let freeze = Budget {
            nodes: BudgetNodes::Count(0),
            schedule: Some("0 9 * * mon-fri".into()),
            duration: Some(8 * HOUR),
            reasons: vec![],
        };
        let b = vec![budget(BudgetNodes::Percent(100), &[]), freeze];
        let monday = 4 * 24 * HOUR;
        assert_eq!(remaining(&b, Reason::Empty, 4, 0, monday + 10 * HOUR), 0, "inside the window");
        assert_eq!(remaining(&b, Reason::Empty, 4, 0, monday + 18 * HOUR), 4, "after it");
        let broken = vec![Budget { nodes: BudgetNodes::Count(5), schedule: Some("not cron".into()), duration: Some(HOUR), reasons: vec![] }];
        assert_eq!(remaining(&broken, Reason::Empty, 4, 0, 0), 0, "a schedule that does not parse fails closed");
    }

    #[test]
    fn consolidate_after_counts_from_the_last_pod_event() {
        assert_eq!(consolidatable_at(Some(50_000), None, Some(30_000)), Some(80_000));
        assert_eq!(consolidatable_at(Some(50_000), Some(180_000), Some(30_000)), Some(210_000));
        assert_eq!(consolidatable_at(Some(50_000), Some(10_000), Some(30_000)), Some(80_000), "events before initialization do not count");
        assert_eq!(consolidatable_at(None, None, Some(30_000)), None, "not initialized");
        assert_eq!(consolidatable_at(Some(50_000), None, None), None, "consolidateAfter: Never");
    }

    #[test]
    fn polls_land_on_ten_second_ticks() {
        assert_eq!(next_poll(0), 0);
        assert_eq!(next_poll(1), 10_000);
        assert_eq!(next_poll(210_000), 210_000);
        assert_eq!(next_poll(210_001), 220_000);
    }
}

//! Exercises: a lesson step can set the learner a task ("make the two pending pods run
//! without raising the limit") and the page recognises when the running cluster meets it.
//!
//! A task's goals are conditions over the cluster on screen (a [`Snapshot`]): pods pending and
//! running, nodes per NodePool, a pool's limit, the cost per hour. Most are judged once the
//! cluster is at rest (nothing left to happen), so a passing moment mid-run does not count;
//! a goal about where a Job's pods ran counts at any instant, because they finish and go.
//!
//! Pure: the page passes in the snapshot and whether the cluster is at rest.

use crate::i18n::Lang;
use crate::lessons::Text;
use crate::snapshot::{LaneKind, Snapshot};

/// One condition the cluster must meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// No pod is Pending.
    NothingPending,
    /// At least `at_least` pods of the workload (`Deployment/web`, `Job/batch`) run.
    Running {
        workload: &'static str,
        at_least: usize,
    },
    /// Every running pod of the workload runs on a node of `pool` (and at least one runs).
    RunsOn {
        workload: &'static str,
        pool: &'static str,
    },
    /// The NodePool has between `min` and `max` nodes.
    PoolNodes {
        pool: &'static str,
        min: usize,
        max: usize,
    },
    /// The NodePool's limit on `resource` (as Karpenter counts it, in the gauge's units:
    /// millicores for cpu) is still at most `limit`, and is set.
    LimitAtMost {
        pool: &'static str,
        resource: &'static str,
        limit: i64,
    },
    /// The cluster costs less than this many micro-dollars per hour.
    CostBelow(i64),
}

/// When the goals are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// Once nothing is left to happen.
    AtRest,
    /// At any instant (the learner sees it happen and the page remembers it).
    AnyInstant,
}

/// A task a lesson step sets.
pub struct Exercise {
    pub task: Text,
    /// Offered after the learner has tried for a while.
    pub hint: Text,
    /// What solves it, in words, shown on request.
    pub solution: Text,
    /// The solution as edits of the step's lab: each `find` (found once) becomes `replace`.
    /// The page can apply it, and the tests check it solves the task.
    pub edits: &'static [(&'static str, &'static str)],
    pub goals: &'static [Goal],
    pub judged: Judged,
}

impl Exercise {
    /// Whether the cluster on screen meets every goal, judged as the exercise says.
    pub fn met(&self, snapshot: &Snapshot, at_rest: bool) -> bool {
        (at_rest || self.judged == Judged::AnyInstant) && self.goals.iter().all(|g| g.met(snapshot))
    }

    /// The step's lab with the solution's edits applied; `None` if an edit's `find` is not
    /// in the text (the lab changed under the exercise: a test catches it).
    pub fn solved(&self, lab_text: &str) -> Option<String> {
        let mut text = lab_text.to_string();
        for (find, replace) in self.edits {
            let at = text.find(find)?;
            text.replace_range(at..at + find.len(), replace);
        }
        Some(text)
    }
}

impl Goal {
    pub fn met(&self, s: &Snapshot) -> bool {
        match *self {
            Goal::NothingPending => s.summary.pods_pending == 0,
            Goal::Running { workload, at_least } => running_of(s, workload).count() >= at_least,
            Goal::RunsOn { workload, pool } => {
                let mut any = false;
                let all_there = running_of(s, workload).all(|lane_pool| {
                    any = true;
                    lane_pool == Some(pool)
                });
                any && all_there
            }
            Goal::PoolNodes { pool, min, max } => {
                let n = s
                    .lanes
                    .iter()
                    .filter(|l| pool_name(&l.kind) == Some(pool))
                    .map(|l| l.nodes.len())
                    .sum::<usize>();
                (min..=max).contains(&n)
            }
            Goal::LimitAtMost {
                pool,
                resource,
                limit,
            } => s.lanes.iter().any(|l| match &l.kind {
                LaneKind::NodePool { name, limits, .. } if name == pool => limits
                    .iter()
                    .any(|g| g.resource == resource && g.limit <= limit),
                _ => false,
            }),
            Goal::CostBelow(micro) => s.summary.cost_per_hour < micro,
        }
    }
}

impl Goal {
    /// The goal in words, for the checklist under the task.
    pub fn describe(&self, lang: Lang) -> String {
        let ko = lang == Lang::Ko;
        match *self {
            Goal::NothingPending => if ko {
                "Pending 파드 없음"
            } else {
                "no pod Pending"
            }
            .into(),
            Goal::Running { workload, at_least } => {
                if ko {
                    format!("{workload} 파드 {at_least}개 이상 Running")
                } else {
                    let pods = crate::words::count(at_least, crate::words::Noun::Pod, lang);
                    format!("at least {pods} of {workload} Running")
                }
            }
            Goal::RunsOn { workload, pool } => {
                if ko {
                    format!("{workload}의 파드가 `{pool}` 풀의 노드에서 실행")
                } else {
                    format!("{workload}'s pods run on nodes of pool `{pool}`")
                }
            }
            Goal::PoolNodes { pool, min, max } => {
                let range = if min == max {
                    min.to_string()
                } else if max == usize::MAX {
                    format!("{min}+")
                } else {
                    format!("{min}–{max}")
                };
                if ko {
                    format!("`{pool}` 풀의 노드 {range}대")
                } else {
                    let noun = if (min, max) == (1, 1) {
                        "node"
                    } else {
                        "nodes"
                    };
                    format!("{range} {noun} in pool `{pool}`")
                }
            }
            Goal::LimitAtMost {
                pool,
                resource,
                limit,
            } => {
                let limit = if resource == "cpu" {
                    crate::snapshot::cores(limit)
                } else {
                    limit.to_string()
                };
                if ko {
                    format!("`{pool}` 풀의 {resource} 한도는 {limit} 이하 그대로")
                } else {
                    format!("pool `{pool}` keeps its {resource} limit at {limit} or less")
                }
            }
            Goal::CostBelow(micro) => {
                let dollars = crate::snapshot::dollars(micro);
                if ko {
                    format!("시간당 비용 {dollars} 미만")
                } else {
                    format!("under {dollars} an hour")
                }
            }
        }
    }
}

fn pool_name(kind: &LaneKind) -> Option<&str> {
    match kind {
        LaneKind::NodePool { name, .. } => Some(name),
        LaneKind::Fixed => None,
    }
}

/// For each running pod of `workload`, the NodePool of its node (`None`: a fixed node).
fn running_of<'a>(
    s: &'a Snapshot,
    workload: &'a str,
) -> impl Iterator<Item = Option<&'a str>> + 'a {
    s.lanes.iter().flat_map(move |lane| {
        let pool = pool_name(&lane.kind);
        lane.nodes
            .iter()
            .flat_map(|n| &n.pods)
            .filter(move |p| p.owner.as_deref() == Some(workload))
            .map(move |_| pool)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons::{LESSONS, Step};
    use crate::player::{Player, Rebuild};
    use crate::snapshot;

    /// Plays `text` from 0 to rest, asking at each instant whether the exercise is met.
    fn ever_met(ex: &Exercise, text: &str) -> bool {
        let mut p = Player::new();
        assert!(
            matches!(p.rebuild(text, 0), Rebuild::Rebuilt),
            "the scenario runs"
        );
        loop {
            let at_rest = p.next_event().is_none();
            if ex.met(&snapshot::take(p.sim().expect("a simulation")), at_rest) {
                return true;
            }
            match p.next_event() {
                Some(t) => p.advance(t),
                None => return false,
            }
        }
    }

    fn exercises() -> Vec<(&'static str, &'static Step, &'static Exercise)> {
        LESSONS
            .iter()
            .flat_map(|l| {
                l.steps
                    .iter()
                    .filter_map(move |s| s.exercise.map(|e| (l.id, s, e)))
            })
            .collect()
    }

    #[test]
    fn every_exercise_is_open_as_the_lesson_writes_it_and_met_by_its_solution() {
        let all = exercises();
        assert!(!all.is_empty());
        for (lesson, step, ex) in all {
            let lab = step.lab.text();
            assert!(
                !ever_met(ex, lab),
                "{lesson}/{}: met before the learner does anything",
                step.title.en
            );
            let solved = ex
                .solved(lab)
                .unwrap_or_else(|| panic!("{lesson}/{}: an edit no longer applies", step.title.en));
            assert!(
                ever_met(ex, &solved),
                "{lesson}/{}: the solution does not meet the goals",
                step.title.en
            );
        }
    }

    #[test]
    fn a_goal_judged_at_rest_waits_for_rest() {
        let ex = Exercise {
            task: Text { en: "", ko: "" },
            hint: Text { en: "", ko: "" },
            solution: Text { en: "", ko: "" },
            edits: &[],
            goals: &[Goal::NothingPending],
            judged: Judged::AtRest,
        };
        let s = Snapshot::default();
        assert!(ex.met(&s, true));
        assert!(!ex.met(&s, false), "mid-run does not count");
        let mut pending = s.clone();
        pending.summary.pods_pending = 2;
        assert!(!ex.met(&pending, true));
    }

    #[test]
    fn goals_count_in_english_with_the_right_number_and_in_korean_with_counters() {
        let one = Goal::Running {
            workload: "Deployment/web",
            at_least: 1,
        };
        assert_eq!(
            one.describe(Lang::En),
            "at least 1 pod of Deployment/web Running"
        );
        let three = Goal::Running {
            workload: "Deployment/web",
            at_least: 3,
        };
        assert_eq!(
            three.describe(Lang::En),
            "at least 3 pods of Deployment/web Running"
        );
        assert_eq!(
            three.describe(Lang::Ko),
            "Deployment/web 파드 3개 이상 Running"
        );
        let nodes = |min, max| Goal::PoolNodes {
            pool: "p",
            min,
            max,
        };
        assert_eq!(nodes(1, 1).describe(Lang::En), "1 node in pool `p`");
        assert_eq!(nodes(2, 2).describe(Lang::En), "2 nodes in pool `p`");
        assert_eq!(nodes(1, 2).describe(Lang::En), "1–2 nodes in pool `p`");
        assert_eq!(
            nodes(1, usize::MAX).describe(Lang::En),
            "1+ nodes in pool `p`"
        );
        assert_eq!(nodes(1, 1).describe(Lang::Ko), "`p` 풀의 노드 1대");
    }
}

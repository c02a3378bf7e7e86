//! Exercises: a step can set the learner a task ("make the two pending pods run without
//! raising the limit") and the page recognises when the running cluster meets it.
//!
//! A task's goals are conditions over the cluster on screen (a [`Snapshot`]): pods pending
//! and running, nodes per NodePool, a pool's limit, the cost per hour. Most are judged once
//! the cluster is at rest (nothing left to happen), so a passing moment mid-run does not
//! count; a goal about where a Job's pods ran counts at any instant, because they finish and
//! go. The same rules as the page's `web/src/exercise.rs`, which they come from.
//!
//! Pure: the caller passes in the snapshot and whether the cluster is at rest.

use kpg_scene::snapshot::{LaneKind, Snapshot};
use serde::{Deserialize, Serialize};

use crate::problem::Spot;

/// One condition the cluster must meet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Goal {
    /// No pod is Pending.
    NothingPending,
    /// At least `at_least` pods of the workload (`Deployment/web`, `Job/batch`) run.
    Running { workload: String, at_least: usize },
    /// Every running pod of the workload runs on a node of `pool` (and at least one runs).
    RunsOn { workload: String, pool: String },
    /// The NodePool has between `min` and `max` nodes (`usize::MAX`: no upper bound).
    PoolNodes {
        pool: String,
        min: usize,
        /// Left out of the JSON when unbounded: `usize::MAX` of a 64-bit machine (where the
        /// page's lessons are prepared) does not fit the page's 32-bit wasm.
        #[serde(default = "unbounded", skip_serializing_if = "is_unbounded")]
        max: usize,
    },
    /// The NodePool's limit on `resource` is set and still at most `limit`, in the engine's
    /// unit for it (millicores for cpu, bytes for memory, a count otherwise): the gauge's.
    LimitAtMost {
        pool: String,
        resource: String,
        limit: i64,
    },
    /// The cluster costs less than this many micro-dollars per hour.
    CostBelow(i64),
}

fn unbounded() -> usize {
    usize::MAX
}

fn is_unbounded(max: &usize) -> bool {
    *max == usize::MAX
}

/// When the goals are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Judged {
    /// Once nothing is left to happen.
    #[default]
    AtRest,
    /// At any instant (the learner sees it happen and the page remembers it).
    AnyInstant,
}

impl Judged {
    /// Whether goals met now count: at rest always, mid-run only for a task judged at any
    /// instant.
    pub fn counts(self, at_rest: bool) -> bool {
        at_rest || self == Judged::AnyInstant
    }
}

/// A text edit: `find`, which must occur exactly once, becomes `replace`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub find: String,
    pub replace: String,
    /// Where the lesson wrote it (for the checks' messages; never sent to the page).
    #[serde(skip)]
    pub spot: Spot,
}

/// Why an edit cannot be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditError {
    /// `find` is not in the text.
    Missing,
    /// `find` is in the text this many times.
    Repeated(usize),
}

/// A task a step sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Exercise {
    pub task: String,
    /// Offered after the learner has tried for a while.
    pub hint: String,
    /// What solves it, in words, shown on request.
    pub solution: String,
    /// The solution as edits of the step's scenario. The page can apply them, and
    /// `kpg lesson check` checks they solve the task.
    pub edits: Vec<Edit>,
    pub goals: Vec<Goal>,
    pub judged: Judged,
    pub spot: Spot,
}

impl Exercise {
    /// Whether the cluster on screen meets every goal, judged as the exercise says.
    pub fn met(&self, snapshot: &Snapshot, at_rest: bool) -> bool {
        self.judged.counts(at_rest) && self.goals.iter().all(|g| g.met(snapshot))
    }
}

/// `text` with each edit applied in turn; the first edit that cannot be, and why.
pub fn apply<'e>(
    text: &str,
    edits: impl IntoIterator<Item = &'e Edit>,
) -> Result<String, (&'e Edit, EditError)> {
    let mut text = text.to_string();
    for edit in edits {
        text = apply_one(&text, edit).map_err(|e| (edit, e))?;
    }
    Ok(text)
}

/// `text` with one edit applied.
pub fn apply_one(text: &str, edit: &Edit) -> Result<String, EditError> {
    if edit.find.is_empty() {
        return Err(EditError::Missing);
    }
    match text.matches(edit.find.as_str()).count() {
        0 => Err(EditError::Missing),
        1 => Ok(text.replacen(edit.find.as_str(), &edit.replace, 1)),
        n => Err(EditError::Repeated(n)),
    }
}

impl Goal {
    pub fn met(&self, s: &Snapshot) -> bool {
        match self {
            Goal::NothingPending => s.summary.pods_pending == 0,
            Goal::Running { workload, at_least } => running_of(s, workload).count() >= *at_least,
            Goal::RunsOn { workload, pool } => {
                let mut any = false;
                let all_there = running_of(s, workload).all(|lane_pool| {
                    any = true;
                    lane_pool == Some(pool.as_str())
                });
                any && all_there
            }
            Goal::PoolNodes { pool, min, max } => {
                let n = s
                    .lanes
                    .iter()
                    .filter(|l| pool_name(&l.kind) == Some(pool.as_str()))
                    .map(|l| l.nodes.len())
                    .sum::<usize>();
                (*min..=*max).contains(&n)
            }
            Goal::LimitAtMost {
                pool,
                resource,
                limit,
            } => s.lanes.iter().any(|l| match &l.kind {
                LaneKind::NodePool { name, limits, .. } if name == pool => limits
                    .iter()
                    .any(|g| &g.resource == resource && g.limit <= *limit),
                _ => false,
            }),
            Goal::CostBelow(micro) => s.summary.cost_per_hour < *micro,
        }
    }
}

impl Goal {
    /// The goal in English, for the checklist under the task and the CLI's messages.
    pub fn describe(&self) -> String {
        match self {
            Goal::NothingPending => "no pod Pending".into(),
            Goal::Running { workload, at_least } => {
                let pods = if *at_least == 1 { "pod" } else { "pods" };
                format!("at least {at_least} {pods} of {workload} Running")
            }
            Goal::RunsOn { workload, pool } => {
                format!("{workload}'s pods run on nodes of pool `{pool}`")
            }
            Goal::PoolNodes { pool, min, max } => {
                let noun = if (*min, *max) == (1, 1) {
                    "node"
                } else {
                    "nodes"
                };
                format!("{} {noun} in pool `{pool}`", range(*min, *max))
            }
            Goal::LimitAtMost {
                pool,
                resource,
                limit,
            } => {
                let amount = amount(resource, *limit);
                format!("pool `{pool}` keeps its {resource} limit at {amount} or less")
            }
            Goal::CostBelow(micro) => {
                format!("under {} an hour", kpg_scene::snapshot::dollars(*micro))
            }
        }
    }

    /// The goal in Korean, as the page words it.
    pub fn describe_ko(&self) -> String {
        match self {
            Goal::NothingPending => "Pending 파드 없음".into(),
            Goal::Running { workload, at_least } => {
                format!("{workload} 파드 {at_least}개 이상 Running")
            }
            Goal::RunsOn { workload, pool } => {
                format!("{workload}의 파드가 `{pool}` 풀의 노드에서 실행")
            }
            Goal::PoolNodes { pool, min, max } => {
                format!("`{pool}` 풀의 노드 {}대", range(*min, *max))
            }
            Goal::LimitAtMost {
                pool,
                resource,
                limit,
            } => {
                let amount = amount(resource, *limit);
                format!("`{pool}` 풀의 {resource} 한도는 {amount} 이하 그대로")
            }
            Goal::CostBelow(micro) => {
                format!("시간당 비용 {} 미만", kpg_scene::snapshot::dollars(*micro))
            }
        }
    }
}

/// `2`, `1–2`, `6+`.
fn range(min: usize, max: usize) -> String {
    if min == max {
        min.to_string()
    } else if max == usize::MAX {
        format!("{min}+")
    } else {
        format!("{min}–{max}")
    }
}

/// A limit in its resource's words: vCPU for cpu (`8`, `1.5`), quantities otherwise.
fn amount(resource: &str, limit: i64) -> String {
    match resource {
        "cpu" => kpg_scene::snapshot::cores(limit),
        "nodes" => limit.to_string(),
        r => kpg_core::quantity::format_for_resource(
            kpg_core::resources::ResourceName::parse(r),
            limit,
        ),
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

    fn edit(find: &str, replace: &str) -> Edit {
        Edit {
            find: find.into(),
            replace: replace.into(),
            spot: Spot::default(),
        }
    }

    #[test]
    fn a_goal_judged_at_rest_waits_for_rest() {
        let ex = Exercise {
            task: String::new(),
            hint: String::new(),
            solution: String::new(),
            edits: Vec::new(),
            goals: vec![Goal::NothingPending],
            judged: Judged::AtRest,
            spot: Spot::default(),
        };
        let s = Snapshot::default();
        assert!(ex.met(&s, true));
        assert!(!ex.met(&s, false), "mid-run does not count");
        let mut pending = s.clone();
        pending.summary.pods_pending = 2;
        assert!(!ex.met(&pending, true));
        let any = Exercise {
            judged: Judged::AnyInstant,
            ..ex
        };
        assert!(any.met(&s, false));
    }

    #[test]
    fn an_edit_applies_only_where_its_text_is_once() {
        assert_eq!(apply_one("a b c", &edit("b", "B")), Ok("a B c".into()));
        assert_eq!(apply_one("a b c", &edit("x", "X")), Err(EditError::Missing));
        assert_eq!(
            apply_one("b b", &edit("b", "B")),
            Err(EditError::Repeated(2))
        );
        assert_eq!(apply_one("abc", &edit("", "X")), Err(EditError::Missing));
        let edits = [edit("a", "x"), edit("x", "y")];
        assert_eq!(apply("a", &edits), Ok("y".into()));
        let broken = [edit("a", "x"), edit("a", "y")];
        assert_eq!(
            apply("a", &broken).map_err(|(e, why)| (e.replace.clone(), why)),
            Err(("y".into(), EditError::Missing))
        );
    }

    #[test]
    fn goals_say_themselves_in_english() {
        let nodes = |min, max| Goal::PoolNodes {
            pool: "p".into(),
            min,
            max,
        };
        assert_eq!(nodes(1, 1).describe(), "1 node in pool `p`");
        assert_eq!(nodes(1, 2).describe(), "1–2 nodes in pool `p`");
        assert_eq!(nodes(6, usize::MAX).describe(), "6+ nodes in pool `p`");
        let limit = Goal::LimitAtMost {
            pool: "platform".into(),
            resource: "cpu".into(),
            limit: 8_000,
        };
        assert_eq!(
            limit.describe(),
            "pool `platform` keeps its cpu limit at 8 or less"
        );
        assert_eq!(Goal::CostBelow(80_000).describe(), "under $0.0800 an hour");
        assert_eq!(nodes(1, 1).describe_ko(), "`p` 풀의 노드 1대");
        let three = Goal::Running {
            workload: "Deployment/web".into(),
            at_least: 3,
        };
        assert_eq!(
            three.describe(),
            "at least 3 pods of Deployment/web Running"
        );
        assert_eq!(three.describe_ko(), "Deployment/web 파드 3개 이상 Running");
        let memory = Goal::LimitAtMost {
            pool: "p".into(),
            resource: "memory".into(),
            limit: 16 << 30,
        };
        assert_eq!(
            memory.describe(),
            "pool `p` keeps its memory limit at 16Gi or less"
        );
    }

    #[test]
    fn cost_and_pending_goals_read_the_summary() {
        let mut s = Snapshot::default();
        s.summary.cost_per_hour = 80_000;
        assert!(!Goal::CostBelow(80_000).met(&s));
        assert!(Goal::CostBelow(80_001).met(&s));
        assert!(
            !Goal::RunsOn {
                workload: "Job/x".into(),
                pool: "p".into()
            }
            .met(&s),
            "no pod running is not every pod on the pool"
        );
    }
}

//! What the cluster view lights up while a pod is explained, and the NodePool × check
//! matrix: both read from the pod's [`Explanation`], so the page shows exactly the verdicts
//! `kpg explain` prints (the engine made them; nothing here judges).
//!
//! Pure Rust, tested natively.

use std::collections::BTreeMap;

use kpg_explain::{Explanation, Line, Status};

/// Whether a node or NodePool could take the selected pod, and the one line that says why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub fits: bool,
    /// The pod's node or the NodePool that launched for it.
    pub chosen: bool,
    pub why: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Focus {
    pub nodes: BTreeMap<String, Mark>,
    pub pools: BTreeMap<String, Mark>,
}

/// The pod × NodePool checks Karpenter splits a decision into, in its order.
pub const CHECKS: [&str; 5] = ["taints", "requirements", "resources", "offerings", "limits"];

#[derive(Clone, Debug, PartialEq)]
pub struct MatrixRow {
    pub pool: String,
    /// The NodePool's verdict: took the pod, refused it, or was not tried.
    pub verdict: Status,
    pub verdict_text: String,
    /// One cell per [`CHECKS`] entry; `None` where the evidence has no such line.
    pub cells: Vec<Option<(Status, String)>>,
}

impl MatrixRow {
    /// The NodePool's one-line reason: the first check it fails or, failing none (it took the
    /// pod, or it was not tried), its verdict in Karpenter's words.
    pub fn reason(&self) -> String {
        self.cells
            .iter()
            .flatten()
            .find(|(s, _)| *s == Status::Fail)
            .map_or_else(|| self.verdict_text.clone(), |(_, t)| t.clone())
    }

    fn fits(&self) -> bool {
        matches!(self.verdict, Status::Pass | Status::Chosen)
    }
}

/// A line's text without the subject it opens with (`node-x: didn't match ...` →
/// `didn't match ...`, `ns/pod cpu=1` → `cpu=1`), for places that show the subject on its
/// own. A sentence that merely starts with the name (`m7i-flex.large, spot in ...`) stays whole.
pub fn without_subject(l: &Line) -> &str {
    let rest = l.subject.as_deref().and_then(|s| l.text.strip_prefix(s));
    match rest {
        Some(r) if r.starts_with([':', ' ']) => r.trim_start_matches(':').trim_start(),
        _ => &l.text,
    }
}

fn lines<'a>(e: &'a Explanation, section: &str) -> impl Iterator<Item = &'a Line> + 'a {
    let section = section.to_string();
    e.sections
        .iter()
        .filter(move |s| s.id == section)
        .flat_map(|s| s.lines.iter())
}

/// The nodes kube-scheduler filtered and the NodePools Karpenter tried, each lit or dimmed.
pub fn focus(e: &Explanation) -> Focus {
    let mut out = Focus::default();
    if e.kind != "pod" {
        return out;
    }
    for l in lines(e, "kube-scheduler") {
        let Some(node) = &l.subject else { continue };
        let fits = matches!(l.status, Status::Pass | Status::Chosen);
        let why = without_subject(l).to_string();
        out.nodes.insert(
            node.clone(),
            Mark {
                fits,
                chosen: l.status == Status::Chosen,
                why,
            },
        );
    }
    for row in matrix(e) {
        let mark = Mark {
            fits: row.fits(),
            chosen: row.verdict == Status::Chosen,
            why: if row.fits() {
                row.verdict_text.clone()
            } else {
                row.reason()
            },
        };
        out.pools.insert(row.pool, mark);
    }
    out
}

/// The `nodepools` section pivoted: a row per NodePool (Karpenter's order), a column per check.
pub fn matrix(e: &Explanation) -> Vec<MatrixRow> {
    let mut rows: Vec<MatrixRow> = Vec::new();
    for l in lines(e, "nodepools") {
        let Some(pool) = &l.subject else { continue };
        let i = match rows.iter().position(|r| &r.pool == pool) {
            Some(i) => i,
            None => {
                rows.push(MatrixRow {
                    pool: pool.clone(),
                    verdict: Status::Skipped,
                    verdict_text: String::new(),
                    cells: vec![None; CHECKS.len()],
                });
                rows.len() - 1
            }
        };
        let row = &mut rows[i];
        match l.check.as_deref() {
            Some("verdict") => {
                row.verdict = l.status;
                row.verdict_text = l.text.clone();
            }
            Some(check) => {
                if let Some(c) = CHECKS.iter().position(|k| *k == check) {
                    row.cells[c] = Some((l.status, l.text.clone()));
                }
            }
            None => {}
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpg_core::sim::Simulation;
    use kpg_explain::{Lang, Subject, explain};

    fn run(lab: &str, until_ms: u64) -> Simulation {
        let loaded = kpg_manifests::load(lab);
        let mut sim = Simulation::new(loaded.scenario).expect("the lab runs");
        sim.run_until(until_ms);
        sim
    }

    fn pending_pod(sim: &Simulation) -> String {
        let r = sim.report();
        let p = r
            .pods
            .iter()
            .find(|p| p.phase == "Pending" && p.node.is_none())
            .expect("a pending pod");
        format!("{}/{}", p.namespace, p.name)
    }

    #[test]
    fn the_limits_labs_pending_pod_dims_every_node_and_names_the_limit() {
        let sim = run(crate::lessons::lab("seed002-limits"), 300_000);
        let e = explain(&sim, &Subject::Pod(pending_pod(&sim)), Lang::En).unwrap();
        let f = focus(&e);
        assert_eq!(f.nodes.len(), sim.report().nodes.len(), "{f:?}");
        assert!(f.nodes.values().all(|m| !m.fits && !m.why.is_empty()));
        let platform = &f.pools["platform"];
        assert!(!platform.fits);
        assert!(platform.why.contains("cpu 0 of 8 left"), "{}", platform.why);
        assert!(
            f.pools["service"].why.contains("taint"),
            "{:?}",
            f.pools["service"]
        );

        let m = matrix(&e);
        let names: Vec<&str> = m.iter().map(|r| r.pool.as_str()).collect();
        assert_eq!(names, ["service", "platform"], "Karpenter's order");
        let limits = CHECKS.iter().position(|c| *c == "limits").unwrap();
        assert_eq!(m[1].cells[limits].as_ref().map(|c| c.0), Some(Status::Fail));
        assert_eq!(m[0].cells[limits].as_ref().map(|c| c.0), Some(Status::Pass));
    }

    #[test]
    fn a_running_pod_lights_the_node_it_runs_on() {
        let sim = run(crate::lessons::lab("seed000-hello-world"), 180_000);
        let r = sim.report();
        let pod = r
            .pods
            .iter()
            .find(|p| {
                p.phase == "Running"
                    && !p
                        .owner
                        .as_deref()
                        .is_some_and(|o| o.starts_with("DaemonSet/"))
            })
            .expect("a running pod");
        let e = explain(
            &sim,
            &Subject::Pod(format!("{}/{}", pod.namespace, pod.name)),
            Lang::En,
        )
        .unwrap();
        let f = focus(&e);
        let node = pod.node.as_ref().unwrap();
        assert!(
            f.nodes.get(node).is_some_and(|m| m.fits && m.chosen),
            "{f:?}"
        );
    }

    #[test]
    fn a_subject_is_cut_only_where_it_opens_the_line() {
        let line = |subject: &str, text: &str| Line {
            status: Status::Info,
            subject: Some(subject.into()),
            check: None,
            text: text.into(),
            price_per_hour: None,
        };
        assert_eq!(
            without_subject(&line("n1", "n1: node(s) had untolerated taint")),
            "node(s) had untolerated taint"
        );
        assert_eq!(
            without_subject(&line("default/web", "default/web cpu=1")),
            "cpu=1"
        );
        assert_eq!(
            without_subject(&line("m7i.large", "m7i.large, spot in z1")),
            "m7i.large, spot in z1"
        );
    }

    #[test]
    fn a_node_lights_nothing() {
        let sim = run(crate::lessons::lab("seed000-hello-world"), 180_000);
        let node = sim.report().nodes[0].name.clone();
        let e = explain(&sim, &Subject::Node(node), Lang::En).unwrap();
        assert_eq!(focus(&e), Focus::default());
    }
}

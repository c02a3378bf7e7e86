//! Explanations: the answers to "why?" that Karpenter gives only as log lines.
//!
//! A consumer of the engine, like the CLI's table and the page: it reads what the engine
//! recorded when it decided ([`kpg_core::sim::evidence`]) and the cluster's state, and says
//! it as sentences a learner understands, in English or Korean. It decides nothing: where
//! a sentence needs a judgement (does this NodePool's check pass?), the engine made it.
//!
//! One [`Explanation`] shape serves every subject (a pod, a node, a NodeClaim): a summary and
//! sections of lines, each line with a status and, where it belongs to one, the NodePool,
//! node or instance type it is about and the check it reports. The CLI prints it as text
//! ([`Explanation::to_text`]) or JSON; the page draws the same lines (the pod × NodePool
//! matrix is the `nodepools` section pivoted on `subject` and `check`).

mod node;
mod pod;
mod say;

use kpg_core::model::Millis;
use kpg_core::sim::Simulation;
use std::borrow::Cow;

use serde::{Deserialize, Serialize};

pub use say::Lang;

/// What to explain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// `namespace/name` (a bare name means the `default` namespace).
    Pod(String),
    Node(String),
    NodeClaim(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// `pod`, `node` or `nodeclaim`.
    pub kind: Cow<'static, str>,
    pub name: String,
    /// The simulated time the explanation is for (Go duration).
    pub time: String,
    /// One or two sentences: the answer.
    pub summary: String,
    pub sections: Vec<Section>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Section {
    /// Stable: `karpenter`, `nodepools`, `kube-scheduler`, `launch`, `funnel`, `cheaper`,
    /// `capacity`, `pods`, `disruption`, `history`, `volumes`.
    pub id: Cow<'static, str>,
    pub title: String,
    /// When the evidence was recorded (Go duration), if it is from one decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    pub lines: Vec<Line>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    pub status: Status,
    /// The NodePool, node or instance type the line is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The check it reports: `taints`, `requirements`, `resources`, `offerings`, `limits`,
    /// `verdict` (NodePools); a kube-scheduler filter; a funnel stage; a blocker kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<Cow<'static, str>>,
    pub text: String,
    /// USD per hour, where the line is about a price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_per_hour: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Passed the check, or could take the pod.
    Pass,
    /// Failed the check, or could not take the pod.
    Fail,
    /// The one chosen: the NodePool, node or instance type that won.
    Chosen,
    /// Not evaluated, because an earlier step decided.
    Skipped,
    Info,
}

impl Status {
    fn mark(self) -> &'static str {
        match self {
            Status::Pass => "✓",
            Status::Fail => "✗",
            Status::Chosen => "→",
            Status::Skipped => "·",
            Status::Info => "-",
        }
    }
}

impl Line {
    fn new(status: Status, text: String) -> Line {
        Line {
            status,
            subject: None,
            check: None,
            text,
            price_per_hour: None,
        }
    }

    fn about(mut self, subject: &str) -> Line {
        self.subject = Some(subject.into());
        self
    }

    fn check(mut self, check: &'static str) -> Line {
        self.check = Some(Cow::Borrowed(check));
        self
    }

    fn price(mut self, micros: Option<i64>) -> Line {
        self.price_per_hour = micros.map(|m| m as f64 / 1_000_000.0);
        self
    }
}

/// Why the subject cannot be explained: it does not exist (with the names that do, so the
/// user can pick one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotFound {
    pub message: String,
}

impl core::fmt::Display for NotFound {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Explains the subject as the simulation stands now.
pub fn explain(sim: &Simulation, subject: &Subject, lang: Lang) -> Result<Explanation, NotFound> {
    match subject {
        Subject::Pod(name) => pod::explain(sim, name, lang),
        Subject::Node(name) => node::explain(sim, name, false, lang),
        Subject::NodeClaim(name) => node::explain(sim, name, true, lang),
    }
}

impl Explanation {
    /// Plain text: the summary, then each section with its lines, indented under their
    /// subject where lines share one.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        out.push_str(&self.summary);
        out.push('\n');
        for s in &self.sections {
            out.push('\n');
            out.push_str(&s.title);
            if let Some(at) = &s.at {
                out.push_str(&format!(" ({at})"));
            }
            out.push('\n');
            let mut last_subject: Option<&str> = None;
            for l in &s.lines {
                let grouped = l.check.is_some() && l.subject.is_some() && s.id == "nodepools";
                if grouped {
                    let subject = l.subject.as_deref().unwrap_or_default();
                    if last_subject != Some(subject) {
                        out.push_str(&format!("  {subject}\n"));
                        last_subject = Some(subject);
                    }
                    out.push_str(&format!(
                        "    {} {:<13} {}\n",
                        l.status.mark(),
                        l.check.as_deref().unwrap_or_default(),
                        l.text
                    ));
                } else {
                    out.push_str(&format!("  {} {}\n", l.status.mark(), l.text));
                }
            }
        }
        out
    }
}

/// A Go duration as Go prints it (`53.3s`, `2m0s`).
fn time(ms: Millis) -> String {
    if ms < 60_000 {
        let millis = ms % 1000;
        let frac = if millis == 0 {
            String::new()
        } else {
            format!(".{}", format!("{millis:03}").trim_end_matches('0'))
        };
        return format!("{}{frac}s", ms / 1000);
    }
    kpg_core::duration::format(ms)
}

//! "Report to Karpenter": a Markdown block for an upstream issue or discussion
//! (kubernetes-sigs/karpenter, aws/karpenter-provider-aws) made from a scenario at an
//! instant. `kpg share --issue` prints it and the page's Share dialog shows it; both call
//! [`issue`], so the same documents at the same instant give the same bytes.
//!
//! The block holds the scenario reduced to the documents that change what happened
//! ([`reduce`]) and redacted ([`redact`]: account ids, ARNs, resource ids, IPs, node,
//! cluster, role and tag values become stable placeholders), checked to simulate to the same
//! outcome as the original ([`outcome`]); the Karpenter version simulated and the
//! playground's; what happened (the figures, the pods pending and why, the deciding events,
//! Karpenter's log line for each disruption command); and the share link that opens the
//! redacted scenario at the instant. Pure: no I/O, no clock.

mod markdown;
pub mod outcome;
pub mod redact;

use kpg_core::manifest::Tree;
use kpg_core::model::Millis;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use outcome::Timing;
pub use redact::Category;

/// Without an instant, the clock stops when nothing more would change, or at this time (as
/// `kpg simulate`).
pub const REST_LIMIT: Millis = 60 * 60 * 1000;

/// GitHub's limit on an issue's or a comment's body, in characters. The block is measured in
/// bytes, which are never fewer.
pub const COMMENT_LIMIT: usize = 65_536;

/// Reduction simulates the scenario once per document: tried only up to this many
/// documents and pods, so a large scenario still answers at once (it is then shared whole).
pub const REDUCE_MAX_DOCUMENTS: usize = 40;
pub const REDUCE_MAX_PODS: usize = 400;

/// The playground that made the block (`kpg --version` prints the same).
pub const PLAYGROUND_VERSION: &str = env!("CARGO_PKG_VERSION");

/// What the engine found about a scenario at an instant: everything the block says, as data.
/// The page's worker makes it (it simulates); the page's own thread writes the block with the
/// link ([`block`]), with the deflate it already carries for share links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Findings {
    /// The instant reported, in milliseconds.
    pub at: Millis,
    /// The Karpenter version simulated (`v1.15`), and whether the scenario names it.
    pub version: String,
    pub version_named: bool,
    pub auto_mode: bool,
    /// The redacted scenario's figures at the instant.
    pub summary: Summary,
    /// The redacted scenario's pending pods: workload, pods, reason.
    pub pending: Vec<(String, u32, Option<String>)>,
    /// Every deciding event up to the instant, as a line (time, reason, object: message).
    pub events: Vec<String>,
    /// The redacted documents, as printed.
    pub documents: Vec<String>,
    /// How many documents the original had.
    pub original_documents: usize,
    /// `Kind/name` of the documents left out because they change nothing.
    pub left_out: Vec<String>,
    /// Whether each document was tried ([`REDUCE_MAX_DOCUMENTS`], [`REDUCE_MAX_PODS`]).
    pub reduction_tried: bool,
    /// The redacted scenario simulates to the same outcome as the original.
    pub reproduces: bool,
    /// Distinct values replaced, by category, with the first placeholder.
    pub redacted: Vec<(Category, usize, String)>,
    /// `userData` and `context` values replaced.
    pub opaque: usize,
    /// What was left out of the documents (annotations, container fields), with counts.
    pub dropped: Vec<(String, usize)>,
    /// The redacted scenario's cluster at the instant: the link's first frame, as `kpg share`
    /// puts it into a link of the same scenario. `None` when the redacted scenario does not run.
    pub figure: Option<kpg_scene::poster::Figure>,
}

/// The figures the block opens "what happened" with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub nodes: u32,
    pub nodes_by_nodepool: Vec<(String, u32)>,
    pub pods_running: u32,
    pub pods_pending: u32,
    pub cost_per_hour: i64,
    pub disruptions: u32,
    pub nodes_disrupted: u32,
}

/// The block and what went into it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// The Markdown block, ending in a newline.
    pub markdown: String,
    /// The redacted scenario the block holds, as one YAML stream.
    pub scenario: String,
    /// The link that opens it at the instant; `None` when too long for a comment.
    pub link: Option<String>,
    /// The block was cut to fit [`COMMENT_LIMIT`].
    pub truncated: bool,
    /// The redacted scenario simulates to the same outcome as the original.
    pub reproduces: bool,
}

/// Why no block was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// The reader found errors (this many; the first one's message).
    Invalid { errors: usize, first: String },
    /// The engine would not start it.
    Refused(String),
    /// Nothing but blank documents.
    Empty,
}

impl core::fmt::Display for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Refusal::Invalid { errors, first } => {
                write!(f, "the scenario has {errors} error(s), the first: {first}")
            }
            Refusal::Refused(why) => write!(f, "the engine refuses the scenario: {why}"),
            Refusal::Empty => f.write_str("the scenario holds no manifests"),
        }
    }
}

/// The block for `docs` (the tabs, or a file's documents) at `at` (`None`: at rest), with
/// its link on `base` (the page's own address, or `kpg share --base`): [`findings`], then
/// [`block`].
pub fn issue(docs: &[String], at: Option<Millis>, base: &str) -> Result<Issue, Refusal> {
    Ok(block(&findings(docs, at)?, base))
}

/// The Markdown block of `findings`, its link on `base`. Pure text: no simulation.
pub fn block(findings: &Findings, base: &str) -> Issue {
    let scenario = kpg_share::to_stream(&findings.documents);
    let mut shared = kpg_share::from_stream(&scenario, findings.at);
    shared.figure = findings.figure.clone();
    let link = kpg_share::link(base, &shared);
    let (markdown, link_kept, truncated) = markdown::block(&markdown::Facts {
        findings,
        link: &link,
    });
    Issue {
        markdown,
        scenario,
        link: link_kept.then_some(link),
        truncated,
        reproduces: findings.reproduces,
    }
}

/// What the block will say about `docs` at `at` (`None`: at rest): the scenario read, run,
/// reduced, redacted and run again.
pub fn findings(docs: &[String], at: Option<Millis>) -> Result<Findings, Refusal> {
    let mut text = kpg_share::to_stream(docs);
    if docs.iter().all(|d| d.trim().is_empty()) {
        return Err(Refusal::Empty);
    }
    let loaded = kpg_manifests::load(&text);
    if loaded.has_errors() {
        let errors: Vec<_> = loaded.errors().collect();
        return Err(Refusal::Invalid {
            errors: errors.len(),
            first: errors
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_default(),
        });
    }
    // What kubectl printed is shortened as `kpg import` does first: its status, managed
    // fields and every pod would be noise, and secrets.
    if kpg_import::is_cluster_output(&loaded.scenario) {
        text = kpg_import::import(&loaded.scenario, kpg_import::Options::default());
    }
    if let Err(e) = kpg_core::sim::Simulation::new(loaded.scenario) {
        return Err(Refusal::Refused(e.to_string()));
    }
    let original = outcome::run(&text, at, REST_LIMIT)
        .ok_or_else(|| Refusal::Refused(String::from("it does not read back")))?;
    let at = original.sim.now();
    let wanted = outcome::signature(&original, &|s| s.to_string(), Timing::Exact);

    let documents: Vec<(String, Tree)> = kpg_manifests::documents(&text)
        .into_iter()
        .filter_map(|d| Some((d.text, d.tree?)))
        .collect();
    let mut kept = reduce(&documents, at, &wanted, &original);
    // Kinds the engine never reads and whose whole point is to hold secrets go, always.
    kept.retain(|&i| !NEVER_SHARED.contains(&kind_of(&documents[i].1)));
    let left_out: Vec<String> = documents
        .iter()
        .enumerate()
        .filter(|(i, _)| !kept.contains(i))
        .map(|(_, (_, tree))| object_name(tree))
        .collect();

    let version_named = named_version(&documents);
    let version = original.sim.karpenter().version.to_string();
    let mut trees: Vec<Tree> = kept.iter().map(|&i| documents[i].1.clone()).collect();
    let redactor = redact::Redactor::redact(&mut trees, version_named.then(|| version.clone()));
    let rendered: Vec<String> = trees
        .iter()
        .map(|t| kpg_kubectl::yaml::render(&to_json(t)))
        .collect();
    let scenario = kpg_share::to_stream(&rendered);
    let redacted_run = outcome::run(&scenario, Some(at), REST_LIMIT);
    let reproduces = redacted_run.as_ref().is_some_and(|run| {
        outcome::signature(run, &|s| s.to_string(), Timing::Renamed)
            == outcome::signature(&original, &|s| redactor.text(s), Timing::Renamed)
    });
    // What happened is told from the redacted run: it names what the link opens. Should the
    // redacted scenario not run at all, the original's words go through the redactor.
    let figure = redacted_run.as_ref().map(|run| {
        let title = kpg_scene::poster::title_of(&rendered);
        kpg_scene::poster::Figure::of(&kpg_scene::snapshot::take(&run.sim), &title)
    });
    let run = redacted_run.as_ref().unwrap_or(&original);
    let say = |s: &str| match &redacted_run {
        Some(_) => s.to_string(),
        None => redactor.text(s),
    };
    let o = kpg_core::compare::Outcome::of(&run.sim, &run.report);
    let summary = Summary {
        nodes: o.nodes,
        nodes_by_nodepool: o.nodes_by_nodepool.into_iter().collect(),
        pods_running: o.pods_running,
        pods_pending: o.pods_pending,
        cost_per_hour: o.cost_per_hour,
        disruptions: o.disruptions,
        nodes_disrupted: o.nodes_disrupted,
    };
    let pending = kpg_core::compare::pending(&run.report)
        .into_iter()
        .map(|p| (say(&p.owner), p.pods, p.message.as_deref().map(say)))
        .collect();
    let events = run
        .sim
        .events()
        .iter()
        .filter(|e| e.time <= at && outcome::deciding(&e.kind))
        .map(|e| {
            say(&format!(
                "{:>8}  {:<26} {}: {}",
                kpg_core::duration::format(e.time),
                e.kind.reason(),
                e.kind.object(),
                e.kind
            ))
        })
        .collect();
    let redacted = redactor
        .counts()
        .into_iter()
        .map(|(c, n)| {
            let first = redactor
                .first_placeholder(&c)
                .unwrap_or_default()
                .to_string();
            (c, n, first)
        })
        .collect();
    Ok(Findings {
        at,
        version,
        version_named,
        auto_mode: !matches!(
            original.sim.karpenter().mode,
            kpg_core::automode::Mode::SelfManaged
        ),
        summary,
        pending,
        events,
        documents: rendered,
        original_documents: documents.len(),
        left_out,
        reduction_tried: reducible(&documents, original.report.pods.len()),
        reproduces,
        redacted,
        opaque: redactor.opaque,
        dropped: redactor
            .dropped
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(k, n)| (k.to_string(), *n))
            .collect(),
        figure,
    })
}

/// Whether [`reduce`] tries each document.
fn reducible(documents: &[(String, Tree)], pods: usize) -> bool {
    documents.len() <= REDUCE_MAX_DOCUMENTS && pods <= REDUCE_MAX_PODS
}

/// Kinds left out of every report: the engine skips them, and they hold secrets.
const NEVER_SHARED: [&str; 2] = ["Secret", "ConfigMap"];

/// The kinds a reduction may leave out. The Cluster says which Karpenter is simulated; the
/// Nodes and NodeClaims are the cluster a snapshot found; a Timeline or a List is many
/// things at once.
const REMOVABLE: [&str; 22] = [
    "NodePool",
    "EC2NodeClass",
    "NodeClass",
    "NodeOverlay",
    "InstanceType",
    "CapacityReservation",
    "Namespace",
    "PodDisruptionBudget",
    "PriorityClass",
    "RuntimeClass",
    "StorageClass",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "CapacityBuffer",
    "PodTemplate",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "Job",
    "Pod",
    "ConfigMap",
];

/// The documents (indices) that matter: each one whose removal leaves the scenario reading
/// as cleanly (no new warning) and simulating to the same signature is left out, one at a
/// time, in order.
fn reduce(
    documents: &[(String, Tree)],
    at: Millis,
    wanted: &outcome::Signature,
    original: &outcome::Run,
) -> Vec<usize> {
    let mut kept: Vec<usize> = (0..documents.len()).collect();
    if !reducible(documents, original.report.pods.len()) {
        return kept;
    }
    let decided = outcome::decisions(original, at);
    for i in 0..documents.len() {
        if !REMOVABLE.contains(&kind_of(&documents[i].1)) {
            continue;
        }
        let trial: Vec<String> = kept
            .iter()
            .filter(|&&k| k != i)
            .map(|&k| documents[k].0.clone())
            .collect();
        if trial.is_empty() {
            continue;
        }
        let same =
            outcome::run(&kpg_share::to_stream(&trial), Some(at), REST_LIMIT).is_some_and(|run| {
                run.warnings <= original.warnings
                    && outcome::signature(&run, &|s| s.to_string(), Timing::Exact) == *wanted
                    && outcome::decisions(&run, at) == decided
            });
        if same {
            kept.retain(|&k| k != i);
        }
    }
    kept
}

fn kind_of(tree: &Tree) -> &str {
    tree.get("kind").and_then(Tree::as_str).unwrap_or("")
}

/// `Kind/name` (`Kind/namespace/name` when namespaced) of a document.
fn object_name(tree: &Tree) -> String {
    let kind = kind_of(tree);
    let meta = |k: &str| tree.at(&["metadata", k]).and_then(Tree::as_str);
    match (meta("namespace"), meta("name")) {
        (Some(ns), Some(name)) => format!("{kind}/{ns}/{name}"),
        (None, Some(name)) => format!("{kind}/{name}"),
        _ => kind.to_string(),
    }
}

/// Whether a Cluster document names `spec.karpenter.version`.
fn named_version(documents: &[(String, Tree)]) -> bool {
    documents
        .iter()
        .any(|(_, t)| kind_of(t) == "Cluster" && t.at(&["spec", "karpenter", "version"]).is_some())
}

fn to_json(tree: &Tree) -> Value {
    match tree {
        Tree::Null => Value::Null,
        Tree::Bool(b) => Value::Bool(*b),
        Tree::Int(i) => Value::from(*i),
        Tree::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        Tree::Str(s) => Value::String(s.clone()),
        Tree::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        Tree::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), to_json(v)))
                .collect(),
        ),
    }
}

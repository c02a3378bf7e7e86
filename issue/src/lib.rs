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

/// The block and what went into it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// The Markdown block, ending in a newline.
    pub markdown: String,
    /// The redacted scenario the block holds, as one YAML stream.
    pub scenario: String,
    /// The link that opens it at the instant; `None` when too long for a comment.
    pub link: Option<String>,
    /// The instant reported, in milliseconds.
    pub at: Millis,
    /// Distinct values replaced, by category.
    pub redacted: Vec<(Category, usize)>,
    /// `Kind/name` of the documents left out because they change nothing.
    pub left_out: Vec<String>,
    /// The redacted scenario simulates to the same outcome as the original.
    pub reproduces: bool,
    /// The block was cut to fit [`COMMENT_LIMIT`].
    pub truncated: bool,
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
/// its link on `base` (the page's own address, or `kpg share --base`).
pub fn issue(docs: &[String], at: Option<Millis>, base: &str) -> Result<Issue, Refusal> {
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
    let kept = reduce(&documents, at, &wanted, &original);
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
    let shared = kpg_share::from_stream(&scenario, at);
    let link = kpg_share::link(base, &shared);

    let facts = markdown::Facts {
        at,
        version: &version,
        version_named,
        auto_mode: !matches!(
            original.sim.karpenter().mode,
            kpg_core::automode::Mode::SelfManaged
        ),
        run: redacted_run.as_ref().unwrap_or(&original),
        redactor: &redactor,
        scenario: &rendered,
        documents: documents.len(),
        left_out: &left_out,
        reduction_tried: reducible(&documents, original.report.pods.len()),
        reproduces,
        link: &link,
    };
    let (markdown, link_kept, truncated) = markdown::block(&facts);
    Ok(Issue {
        markdown,
        scenario,
        link: link_kept.then_some(link),
        at,
        redacted: redactor.counts(),
        left_out,
        reproduces,
        truncated,
    })
}

/// Whether [`reduce`] tries each document.
fn reducible(documents: &[(String, Tree)], pods: usize) -> bool {
    documents.len() <= REDUCE_MAX_DOCUMENTS && pods <= REDUCE_MAX_PODS
}

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

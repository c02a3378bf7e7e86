//! The messages between the page's main thread and the engine's worker.
//!
//! The main thread draws and takes input; the worker reads the manifests, simulates, explains
//! and answers the terminal ([`super::engine_host::Host`]). Everything that crosses is one of
//! the two enums below, serialised as JSON (the page already carries serde_json, and a frame
//! of a lesson is a few kilobytes), inside an envelope that carries [`VERSION`]: a page and a
//! worker from different builds refuse each other's messages instead of misreading them.
//!
//! Requests are answered in the order they were sent; a reply names the request it answers.

use std::collections::BTreeSet;

use kpg_explain::Subject;
use serde::{Deserialize, Serialize};

use crate::base::i18n::Lang;
use crate::base::series::SeriesUpdate;
use crate::base::snapshot::{EventLine, Snapshot};
use crate::editor::migration::Preview;
use crate::editor::workspace::{Problem, Workspace};

/// Bumped whenever a message changes shape.
pub const VERSION: u32 = 6;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToWorker {
    pub v: u32,
    pub id: u64,
    pub request: Request,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FromWorker {
    pub v: u32,
    /// The request this answers.
    pub reply_to: u64,
    pub reply: Reply,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// The workspace as it is now: read it (an [`Reply::Analysed`] comes first, before any
    /// simulation) and, if it reads cleanly, simulate it to `at`. When it does not and nothing
    /// runs yet, `fallback` (the last good manifests saved with the session) runs instead.
    Load {
        ws: Workspace,
        at: i64,
        fallback: Option<String>,
    },
    /// Simulate these manifests to `at` without reading a workspace: a worker started again
    /// after a stop goes back to the cluster that was on screen.
    Resume {
        text: String,
        at: i64,
    },
    /// Move the clock to `to` (an earlier instant replays from the start).
    Advance {
        to: i64,
    },
    /// Start the running scenario again from 0.
    Restart,
    Explain {
        selected: Selected,
        lang: Lang,
    },
    /// A terminal command; `files` are the tabs as `kubectl apply -f` sees them.
    Run {
        line: String,
        files: Vec<(String, String)>,
        at: i64,
    },
    /// Tab completion of a terminal line.
    Complete {
        line: String,
        files: Vec<(String, String)>,
    },
    StopWatch,
    /// The lanes (by key) that show every node card although they have more nodes than
    /// [`crate::base::snapshot::LANE_CARD_LIMIT`]: frames carry their pods. Answered with a frame.
    ShowLanes {
        lanes: BTreeSet<String>,
    },
    /// What "Migrate to v1" would change.
    Migrate {
        ws: Workspace,
    },
    /// Where `spec.karpenter.version` goes: the worker reads the documents (the edit parses
    /// YAML, which the page's own wasm does not carry).
    SetVersion {
        ws: Workspace,
        version: String,
    },
    /// An embed's host sent this YAML: its errors, where the host wrote them.
    Check {
        yaml: String,
    },
    /// Compare the running workspace (B) with these manifests (A), run on the same clock
    /// (`None`: stop comparing). Answered with a frame.
    Baseline {
        ws: Option<Workspace>,
    },
    /// A file the learner opened or dropped, or a paste of what kubectl printed: read it
    /// ([`crate::editor::opening::read`]). Answered with [`Reply::Opened`]. `text` never crosses as
    /// JSON: the page posts the `File` or the pasted string beside the message, and the
    /// worker puts what it reads here.
    Open {
        #[serde(skip)]
        text: String,
    },
    /// The Share dialog's "Report to Karpenter": what the block says about these documents
    /// (the tabs) at `at` ([`kpg_issue::findings`]); the page writes the block and its link
    /// ([`kpg_issue::block`]). Answered with [`Reply::Reported`].
    Report {
        docs: Vec<String>,
        at: u64,
    },
    /// The poster of these manifests at `at`, for the Share dialog's snippet and link
    /// preview: a simulation of its own, as `kpg share` draws it (the running one may be
    /// elsewhere in time). Answered with [`Reply::Poster`].
    Poster {
        yaml: String,
        at: i64,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// The worker listens (its first message, `reply_to` 0): what the page sent before this
    /// waited for it.
    Ready,
    /// The reader's verdict on a [`Request::Load`]'s workspace.
    Analysed {
        problems: Vec<Problem>,
        has_errors: bool,
    },
    /// The engine refused manifests the reader accepted (an unknown region, say).
    Refused {
        message: String,
    },
    /// A new simulation runs, built from `text` (the page keeps it as the last good one).
    Rebuilt {
        text: String,
        /// The Karpenter version it simulates (`v1.15`).
        karpenter: String,
    },
    /// Where the engine is after a request that moved it.
    Frame(Frame),
    /// Sent while a long simulation runs.
    Progress(Progress),
    /// `None`: nothing is running to explain.
    Explained {
        selected: Selected,
        explanation: Option<Result<kpg_explain::Explanation, String>>,
    },
    /// `None`: nothing is running to run it against.
    Ran(Option<TerminalReply>),
    Completed {
        line: String,
        start: usize,
        candidates: Vec<String>,
    },
    Migrated(Option<Preview>),
    /// The document that now names the version: an existing one's id and new text, or a new
    /// Cluster document (`doc: None`).
    VersionSet {
        doc: Option<u32>,
        text: String,
    },
    Checked {
        errors: Vec<CheckError>,
    },
    Opened(Result<crate::editor::opening::Opened, crate::editor::opening::Refusal>),
    /// The findings for a [`Request::Report`], or why there are none.
    Reported(Result<Box<kpg_issue::Findings>, String>),
    /// The figure a [`Request::Poster`] asked for, or why it cannot be drawn.
    Poster {
        at: i64,
        figure: Result<kpg_scene::poster::Figure, String>,
    },
    /// The request's last reply: the worker is free for the next one.
    Done,
    /// The worker could not read the request (a page from another build, most likely).
    Garbled {
        why: String,
    },
}

/// The cluster at the engine's instant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub now: i64,
    /// When something next happens within the page's horizon.
    pub next_event: Option<i64>,
    /// `None` when the cluster did not change since the last frame.
    pub snapshot: Option<Snapshot>,
    /// The newest event lines the page has not seen (at most
    /// [`crate::base::snapshot::EVENT_LINES_SHOWN`]), the first being line `events_from` of this
    /// simulation's log; `events_restart`: a new simulation, whose log starts over.
    pub events_restart: bool,
    pub events_from: usize,
    pub events: Vec<EventLine>,
    /// What a running `kubectl ... -w` printed since the last frame.
    pub watch: String,
    /// The cost timeline's points and markers the page has not seen (`None`: unchanged).
    pub series: Option<Box<SeriesUpdate>>,
    /// The comparison's baseline (A), when comparing and something of it changed.
    pub compare: Option<Box<CompareFrame>>,
    /// Karpenter's decisions the page has not had, for its live region
    /// ([`crate::bridge::narration`]).
    #[serde(default)]
    pub narration: crate::bridge::narration::Narration,
}

/// The baseline's side of a comparison: its timeline, and the counts that change only when
/// one of the two clusters does (the money and the pods come from the two timelines).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompareFrame {
    pub series: Option<SeriesUpdate>,
    pub comparison: Option<Comparison>,
    /// Why A does not run (its manifests do not read, or the engine refused them).
    pub error: Option<String>,
}

/// A (the baseline) and B (the workspace) at the engine's instant.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    pub a: kpg_core::compare::Outcome,
    pub b: kpg_core::compare::Outcome,
    /// The workloads whose pods landed differently.
    pub placements: Vec<kpg_core::compare::Placement>,
}

/// How far a long simulation has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The simulated instant reached, and the one it is going to.
    pub reached: i64,
    pub target: i64,
    pub pods_bound: usize,
    pub pods: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerminalReply {
    pub output: String,
    pub ok: bool,
    pub clear: bool,
    /// The Timeline steps the command's changes become, at the instant it ran (empty: it
    /// changed nothing).
    pub steps: String,
    /// A watch started (`-w`, `logs -f`); frames carry what it prints.
    pub watching: bool,
}

/// One error in an embed host's YAML.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckError {
    pub document: usize,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl ToWorker {
    pub fn new(id: u64, request: Request) -> ToWorker {
        ToWorker {
            v: VERSION,
            id,
            request,
        }
    }
}

/// Why a message could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum Garbled {
    /// From another build of the page.
    Version(u32),
    Malformed(String),
}

fn decode<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, Garbled> {
    // Read the version first: a newer message may not parse as this build's type at all.
    #[derive(Deserialize)]
    struct Versioned {
        v: u32,
    }
    let v = serde_json::from_str::<Versioned>(text)
        .map_err(|e| Garbled::Malformed(e.to_string()))?
        .v;
    if v != VERSION {
        return Err(Garbled::Version(v));
    }
    serde_json::from_str(text).map_err(|e| Garbled::Malformed(e.to_string()))
}

impl ToWorker {
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn decode(text: &str) -> Result<ToWorker, Garbled> {
        decode(text)
    }
}

impl FromWorker {
    pub fn new(reply_to: u64, reply: Reply) -> FromWorker {
        FromWorker {
            v: VERSION,
            reply_to,
            reply,
        }
    }

    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn decode(text: &str) -> Result<FromWorker, Garbled> {
        decode(text)
    }
}

/// What the Explain tab is about: a pod (`namespace/name`) or a node.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Selected {
    Pod(String),
    Node {
        name: String,
        nodeclaim: Option<String>,
    },
}

impl Selected {
    pub fn subject(&self) -> Subject {
        match self {
            Selected::Pod(key) => Subject::Pod(key.clone()),
            // A Karpenter node is explained through its NodeClaim, which adds the
            // candidate instance types to what the node alone would say.
            Selected::Node {
                nodeclaim: Some(nc),
                ..
            } => Subject::NodeClaim(nc.clone()),
            Selected::Node { name, .. } => Subject::Node(name.clone()),
        }
    }

    pub fn to_shared(&self) -> kpg_share::Selection {
        match self {
            Selected::Pod(key) => kpg_share::Selection::Pod(key.clone()),
            Selected::Node { name, .. } => kpg_share::Selection::Node(name.clone()),
        }
    }

    /// A saved or shared selection; a node's NodeClaim is looked up when it is explained.
    pub fn from_shared(s: &kpg_share::Selection) -> Selected {
        match s {
            kpg_share::Selection::Pod(key) => Selected::Pod(key.clone()),
            kpg_share::Selection::Node(name) => Selected::Node {
                name: name.clone(),
                nodeclaim: None,
            },
        }
    }

    /// Whether two selections are of the same pod or node (one may know the node's
    /// NodeClaim and the other not yet).
    pub(crate) fn same_subject(&self, other: &Selected) -> bool {
        match (self, other) {
            (Selected::Pod(a), Selected::Pod(b)) => a == b,
            (Selected::Node { name: a, .. }, Selected::Node { name: b, .. }) => a == b,
            _ => false,
        }
    }

    /// A node selected by name alone gets its NodeClaim from the cluster on screen.
    /// What an event line's object (`Pod/ns/name`, `Node/name`, `NodeClaim/name`) names,
    /// if it is something the Explain tab explains.
    pub fn of_event_object(object: &str) -> Option<Selected> {
        let (kind, rest) = object.split_once('/')?;
        match kind {
            "Pod" if rest.contains('/') => Some(Selected::Pod(rest.to_string())),
            "Node" => Some(Selected::Node {
                name: rest.to_string(),
                nodeclaim: None,
            }),
            // Named by its NodeClaim until the cluster on screen says which node it is.
            "NodeClaim" => Some(Selected::Node {
                name: String::new(),
                nodeclaim: Some(rest.to_string()),
            }),
            _ => None,
        }
    }

    pub(crate) fn resolved(self, snapshot: &Snapshot) -> Selected {
        let cards = || snapshot.lanes.iter().flat_map(|l| &l.nodes);
        match self {
            Selected::Node {
                name,
                nodeclaim: Some(nc),
            } if name.is_empty() => {
                let name = cards()
                    .find(|n| n.nodeclaim.as_deref() == Some(&nc))
                    .map_or_else(|| nc.clone(), |n| n.name.clone());
                Selected::Node {
                    name,
                    nodeclaim: Some(nc),
                }
            }
            Selected::Node {
                name,
                nodeclaim: None,
            } => {
                let nodeclaim = snapshot
                    .lanes
                    .iter()
                    .flat_map(|l| &l.nodes)
                    .find(|n| n.name == name)
                    .and_then(|n| n.nodeclaim.clone());
                Selected::Node { name, nodeclaim }
            }
            s => s,
        }
    }
}

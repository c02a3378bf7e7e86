use leptos::prelude::*;

use kpg_explain::{Explanation, Subject};

use crate::protocol::{Reply, Request};
use kpg_share::View;

use crate::focus::{self, Focus};
use crate::snapshot::Snapshot;
use crate::state::{Engine, Locale};

/// The tabs under the cluster view: the share link's own type, so a link carries it as is.
pub use kpg_share::BottomTab;

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
    fn same_subject(&self, other: &Selected) -> bool {
        match (self, other) {
            (Selected::Pod(a), Selected::Pod(b)) => a == b,
            (Selected::Node { name: a, .. }, Selected::Node { name: b, .. }) => a == b,
            _ => false,
        }
    }

    /// A node selected by name alone gets its NodeClaim from the cluster on screen.
    fn resolved(self, snapshot: &Snapshot) -> Selected {
        match self {
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

/// What the learner is looking at: the selected pod or node, the tab under the cluster (an
/// embed's part), and, derived from those and the engine, the explanation and what it lights
/// up in the cluster view.
#[derive(Clone, Copy)]
pub struct Selection {
    pub selected: RwSignal<Option<Selected>>,
    pub bottom: RwSignal<BottomTab>,
    /// The part an embed shows (one at a time when narrow).
    pub embed_view: RwSignal<View>,
    /// An embed that offers the Explain part shows it on a selection.
    embed_explains: bool,
    /// The selection explained at the current instant (`Err`: it no longer exists).
    pub explanation: RwSignal<Option<Result<Explanation, String>>>,
    /// What the cluster view lights up and dims for the selected pod.
    pub focus: Memo<Focus>,
}

impl Selection {
    pub fn new(
        selected: Option<Selected>,
        bottom: BottomTab,
        embed_view: View,
        embed_explains: bool,
        engine: Engine,
        clock: Signal<i64>,
        locale: Locale,
    ) -> Selection {
        let selected = RwSignal::new(selected);
        let explanation = RwSignal::new(None);
        // Derived, not synced: the explanation follows the selection, the language and the
        // engine; a node's also follows the clock, second by second, for its countdowns. The
        // worker explains; the answer replaces the last one when it comes (and one for a
        // selection since changed is dropped).
        let clock_second = Memo::new(move |_| clock.get() / 1000);
        Effect::new(move |_| {
            let Some(sel) = selected.get() else {
                explanation.set(None);
                return;
            };
            engine.track();
            if matches!(sel, Selected::Node { .. }) {
                // `get`, not `track`: a memo nobody has read yet must run to follow the clock.
                let _ = clock_second.get();
            }
            let lang = locale.lang.get();
            let sel = engine.snapshot.with_untracked(|s| sel.resolved(s));
            engine.explain(
                Request::Explain {
                    selected: sel,
                    lang,
                },
                move |reply| {
                    if let Reply::Explained {
                        selected: answered,
                        explanation: e,
                    } = reply
                        && selected.with_untracked(|s| {
                            s.as_ref().is_some_and(|s| s.same_subject(&answered))
                        })
                    {
                        explanation.set(e);
                    }
                },
            );
        });
        let focus = Memo::new(move |_| {
            explanation.with(|e| match e {
                Some(Ok(e)) => focus::focus(e),
                _ => Focus::default(),
            })
        });
        Selection {
            selected,
            bottom: RwSignal::new(bottom),
            embed_view: RwSignal::new(embed_view),
            embed_explains,
            explanation,
            focus,
        }
    }

    /// Explains a pod or a node: selects it and opens the Explain tab.
    pub fn select(&self, s: Selected) {
        self.selected.set(Some(s));
        self.bottom.set(BottomTab::Explain);
        if self.embed_explains {
            self.embed_view.set(View::Explain);
        }
    }

    /// Selects a node by name (its NodeClaim, if it has one, from the cluster on screen).
    pub fn select_node(&self, name: &str, engine: Engine) {
        let node = Selected::Node {
            name: name.to_string(),
            nodeclaim: None,
        };
        self.select(engine.snapshot.with_untracked(|s| node.resolved(s)));
    }
}

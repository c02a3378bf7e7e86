use std::sync::Arc;

use leptos::prelude::*;

use crate::base::series::{Point, Series};
use crate::editor::workspace::Workspace;
use crate::state::{Editor, Engine};

/// A comparison: the workspace (B, what the editor edits and the cluster shows) against a
/// copy of it taken when the learner forked it, or a lesson step set up (A, the baseline).
/// Both run on one clock in the engine's worker; the chart draws both curves.
#[derive(Clone, Copy)]
pub struct Compare {
    /// A's manifests; `None`: not comparing. Saved with the session.
    pub baseline: RwSignal<Option<Workspace>>,
    engine: Engine,
}

impl Compare {
    /// Pushes every change of the baseline to the engine.
    pub fn new(baseline: Option<Workspace>, engine: Engine) -> Compare {
        let compare = Compare {
            baseline: RwSignal::new(baseline),
            engine,
        };
        Effect::new(move |_| engine.compare_with(compare.baseline.get()));
        compare
    }

    pub fn is_on(&self) -> bool {
        self.baseline.with(Option::is_some)
    }

    /// Forks the workspace: what it is now becomes A, and the learner edits B.
    pub fn start(&self, editor: Editor) {
        self.baseline.set(Some(editor.ws.get_untracked()));
    }

    /// Compares the workspace with `a` (a lesson step's setup).
    pub fn start_with(&self, a: Workspace) {
        self.baseline.set(Some(a));
    }

    /// Stops comparing; the workspace (B) stays.
    pub fn stop(&self) {
        self.baseline.set(None);
    }

    /// A becomes the workspace and B the baseline, so A can be edited (and explained).
    pub fn swap(&self, editor: Editor) {
        let Some(a) = self.baseline.get_untracked() else {
            return;
        };
        self.baseline.set(Some(editor.ws.get_untracked()));
        editor.replace(a);
    }

    /// A's points, while comparing (tracked).
    pub fn other_points(&self) -> Option<Arc<Vec<Point>>> {
        self.is_on()
            .then(|| self.engine.baseline_series.with(|s| s.points.clone()))
    }

    /// A's timeline, while comparing (tracked).
    pub fn other_series(&self) -> Option<Series> {
        self.is_on().then(|| self.engine.baseline_series.get())
    }
}

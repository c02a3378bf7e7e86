use leptos::prelude::*;

use crate::base::browser;
use crate::base::i18n::T;
use crate::editor::undo::{self, Change, History, Place};
use crate::editor::workspace::{Analysis, Workspace};
use crate::state::{Selection, Transport};

/// What a download of the workspace is called.
pub const DOWNLOAD_NAME: &str = "karpenter-playground.yaml";

/// Which lesson, step and lab the manifests belong to: the lesson's signals, shared with
/// the editor so a step of its history knows where it was taken.
#[derive(Clone, Copy)]
pub struct Opened {
    pub lesson: RwSignal<String>,
    pub step: RwSignal<usize>,
    pub lab: RwSignal<String>,
}

impl Opened {
    pub fn new(lesson: String, step: usize, lab: String) -> Opened {
        Opened {
            lesson: RwSignal::new(lesson),
            step: RwSignal::new(step),
            lab: RwSignal::new(lab),
        }
    }

    fn place(&self) -> Place {
        Place {
            lesson: self.lesson.get_untracked(),
            step: self.step.get_untracked(),
            lab: self.lab.get_untracked(),
        }
    }
}

/// The manifests: the documents (one per tab), the open one, and the reader's analysis of
/// them, which the engine's worker sends back for each edit it reads (an edit is read once,
/// there, and the engine starts from that reading).
#[derive(Clone, Copy)]
pub struct Editor {
    pub ws: RwSignal<Workspace>,
    pub active_doc: RwSignal<u32>,
    pub analysis: RwSignal<Analysis>,
    /// A request to put the editor's caret at (document id, line, column); the counter
    /// makes a second click on the same problem a new request.
    pub jump: RwSignal<Option<(u32, usize, usize, u64)>>,
    /// The manifests cannot be edited (an embed's `readonly`).
    pub readonly: bool,
    /// Every change to the manifests, for Ctrl+Z and Ctrl+Shift+Z ([`crate::editor::undo`]).
    history: StoredValue<History>,
    /// Bumped when an undo or redo changes the open text, with where its caret goes (line,
    /// column), so the editor can put it there.
    pub caret: RwSignal<Option<(usize, usize, u64)>>,
    opened: Opened,
}

impl Editor {
    pub fn new(ws: Workspace, active_doc: u32, readonly: bool, opened: Opened) -> Editor {
        let ws = RwSignal::new(ws);
        Editor {
            ws,
            active_doc: RwSignal::new(active_doc),
            analysis: RwSignal::new(Analysis::default()),
            jump: RwSignal::new(None),
            readonly,
            history: StoredValue::new(History::default()),
            caret: RwSignal::new(None),
            opened,
        }
    }

    /// The workspace and open tab now (untracked).
    pub fn state(&self) -> undo::State {
        undo::State {
            ws: self.ws.get_untracked(),
            active: self.active_doc.get_untracked(),
            place: Some(self.opened.place()),
        }
    }

    /// Changes the documents (and perhaps the open tab) as one step of the history.
    pub fn change(&self, change: Change, f: impl FnOnce(&mut Workspace, &mut u32)) {
        let before = self.state();
        let mut active = before.active;
        let now = browser::now_ms();
        self.history.update_value(|h| h.record(before, change, now));
        self.ws.update(|w| f(w, &mut active));
        self.active_doc.set(active);
    }

    /// Puts `ws` in place of the documents, its first tab open: one step of the history.
    pub fn replace(&self, ws: Workspace) {
        let active = ws.docs.first().map_or(0, |d| d.id);
        self.change(Change::Replaced, move |w, a| {
            *w = ws;
            *a = active;
        });
    }

    /// Puts `ws` back with `active` open (a notice's Undo): itself a step of the history.
    pub fn restore(&self, active: u32, ws: Workspace) {
        self.change(Change::Replaced, move |w, a| {
            *w = ws;
            *a = active;
        });
    }

    /// Takes back the last change; false when there is none.
    pub fn undo(&self) -> bool {
        let now = self.state();
        let Some((back, _)) = self.history.try_update_value(|h| h.undo(now)).flatten() else {
            return false;
        };
        self.put(back);
        true
    }

    /// Does again what the last undo took back; false when there is nothing to redo.
    pub fn redo(&self) -> bool {
        let now = self.state();
        let Some((again, _)) = self.history.try_update_value(|h| h.redo(now)).flatten() else {
            return false;
        };
        self.put(again);
        true
    }

    /// Shows a state of the history: its tab open, the caret where the text changed.
    fn put(&self, state: undo::State) {
        let open = |ws: &Workspace, id: u32| {
            ws.docs
                .iter()
                .find(|d| d.id == id)
                .map(|d| d.text.clone())
                .unwrap_or_default()
        };
        let was = self.ws.with_untracked(|w| open(w, state.active));
        let (line, column) = undo::first_difference(&was, &open(&state.ws, state.active));
        if let Some(place) = state.place
            && place != self.opened.place()
        {
            self.opened.lesson.set(place.lesson);
            self.opened.step.set(place.step);
            self.opened.lab.set(place.lab);
        }
        self.active_doc.set(state.active);
        self.ws.set(state.ws);
        let n = self.caret.get_untracked().map_or(0, |c| c.2 + 1);
        self.caret.set(Some((line, column, n)));
    }

    /// Replaces the manifests with a YAML stream from outside (a file, a host's `load`): a
    /// new story from `at`, paused, nothing selected. `Err`: why there is nothing to open.
    pub fn open_stream(
        &self,
        text: &str,
        at: i64,
        transport: Transport,
        selection: Selection,
    ) -> Result<(), T> {
        if text.len() > kpg_share::MAX_DECODED_BYTES {
            return Err(T::FileTooLarge);
        }
        let ws = Workspace::from_stream(text);
        if ws.docs.is_empty() {
            return Err(T::FileEmpty);
        }
        selection.selected.set(None);
        transport.cue(at);
        self.replace(ws);
        Ok(())
    }

    /// Saves the documents as one multi-document YAML file.
    pub fn download(&self) {
        let text = self.ws.with_untracked(|w| w.to_stream());
        browser::download(DOWNLOAD_NAME, &text, "application/yaml");
    }
}

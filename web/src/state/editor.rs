use leptos::prelude::*;

use crate::browser;
use crate::i18n::T;
use crate::state::{Selection, Transport};
use crate::workspace::{Analysis, Workspace};

/// What a download of the workspace is called.
pub const DOWNLOAD_NAME: &str = "karpenter-playground.yaml";

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
}

impl Editor {
    pub fn new(ws: Workspace, active_doc: u32, readonly: bool) -> Editor {
        let ws = RwSignal::new(ws);
        Editor {
            ws,
            active_doc: RwSignal::new(active_doc),
            analysis: RwSignal::new(Analysis::default()),
            jump: RwSignal::new(None),
            readonly,
        }
    }

    /// Puts `ws` in place of the documents, its first tab open.
    pub fn replace(&self, ws: Workspace) {
        self.restore(ws.docs.first().map_or(0, |d| d.id), ws);
    }

    /// Puts `ws` back with `active` open (an undo).
    pub fn restore(&self, active: u32, ws: Workspace) {
        self.active_doc.set(active);
        self.ws.set(ws);
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

use leptos::prelude::*;

use crate::base::browser;
use crate::state::persist::{self, Session};
use crate::state::{Compare, Editor, Engine, LessonState, Locale, Selected, Selection, Transport};

/// All of the learner's choices, read together: what the saved session, a share link and an
/// embed's "Open in Karpenter Playground" carry. Only saving and sharing need it.
#[derive(Clone, Copy)]
pub struct SessionState {
    pub locale: Locale,
    pub editor: Editor,
    pub lesson: LessonState,
    pub transport: Transport,
    pub engine: Engine,
    pub selection: Selection,
    /// `None` in an embed, which never compares.
    pub compare: Option<Compare>,
}

impl SessionState {
    /// The session as it is now (untracked).
    pub fn now(&self) -> Session {
        let SessionState {
            locale,
            editor,
            lesson,
            transport,
            engine,
            selection,
            compare,
        } = *self;
        Session {
            version: persist::VERSION,
            lang: locale.lang.get_untracked(),
            workspace: editor.ws.get_untracked(),
            active_doc: editor.active_doc.get_untracked(),
            lesson: lesson.lesson.get_untracked(),
            step: lesson.step.get_untracked(),
            lab: lesson.lab.get_untracked(),
            clock_ms: transport.clock.get_untracked(),
            speed: transport.speed.get_untracked(),
            // The last good manifests are worth keeping only when they differ from the
            // workspace (an edit that does not read): otherwise they would double its size.
            last_good: engine
                .last_good
                .get_untracked()
                .filter(|good| editor.ws.with_untracked(|w| w.joined().0 != *good)),
            selected: selection
                .selected
                .with_untracked(|s| s.as_ref().map(Selected::to_shared)),
            tab: Some(selection.bottom.get_untracked()),
            baseline: compare.and_then(|c| c.baseline.get_untracked()),
            drafts: lesson.drafts.get_untracked(),
            elsewhere: crate::lessons::all_from_elsewhere(),
        }
    }

    /// Subscribes the running effect to every choice a session keeps. While playing, the
    /// clock moves every frame (at 60x, a save per frame would rewrite local storage sixty
    /// times a second): it counts when it stops (pause, step, seek, an embed's `until`).
    pub fn track_choices(&self) {
        self.locale.lang.track();
        self.editor.ws.track();
        self.editor.active_doc.track();
        self.lesson.lesson.track();
        self.lesson.step.track();
        self.lesson.lab.track();
        self.lesson.drafts.track();
        self.transport.speed.track();
        // Not `last_good`: it arrives from the engine's worker a moment after the edit that
        // made it (already saved), and it only matters with a later broken edit, whose save
        // reads it; the page's hide and leave save it too.
        self.selection.selected.track();
        self.selection.bottom.track();
        if let Some(c) = self.compare {
            c.baseline.track();
        }
        if !self.transport.playing.get() {
            self.transport.clock.track();
        }
    }

    /// What a link to the scenario as it is now carries: the session, and the cluster on
    /// screen as the link's first frame (a poster the opening page draws before its engine
    /// arrives). Not while the manifests do not read: the cluster on screen is then the last
    /// good one, not the link's.
    pub fn shared_now(&self) -> kpg_share::Shared {
        let session = self.now();
        let mut shared = session.to_shared();
        if session.last_good.is_none() {
            let title = crate::lessons::find(&session.lesson, session.lang)
                .filter(|l| l.id != crate::lessons::BLANK)
                .map(|l| l.title.clone())
                .unwrap_or_else(|| kpg_scene::poster::title_of(&shared.docs));
            shared.figure = Some(
                self.engine
                    .snapshot
                    .with_untracked(|s| kpg_scene::poster::Figure::of(s, &title)),
            );
        }
        shared
    }

    /// The full page's link to the scenario as it is now.
    pub fn share_link(&self) -> String {
        kpg_share::link(&browser::page_url(), &self.shared_now())
    }
}

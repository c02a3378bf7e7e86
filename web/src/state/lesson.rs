use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::i18n::T;
use crate::lessons::{self, Lab};
use crate::state::{Compare, Editor, Notice, Opened, Transport};
use crate::workspace::Workspace;

/// The learner's edited manifests of the labs not open now, by [`draft_key`]: switching to
/// another lesson or step keeps them, switching back finds them, and only "Reset the
/// manifests" drops one (and that can be undone).
pub type Drafts = BTreeMap<String, Workspace>;

/// A lab's place in [`Drafts`]: the lesson and the lab (two lessons may share a lab; each
/// keeps its own edits).
pub fn draft_key(lesson: &str, lab: Lab) -> String {
    format!("{lesson}/{lab:?}")
}

/// Whether `ws` holds exactly the lab's own manifests (nothing to keep).
pub fn is_pristine(ws: &Workspace, lab: Lab) -> bool {
    let own = Workspace::from_stream(lab.text());
    ws.docs.len() == own.docs.len() && ws.docs.iter().zip(&own.docs).all(|(a, b)| a.text == b.text)
}

/// The open lesson, its step, the lab whose manifests are open, and the edits kept of the
/// others.
#[derive(Clone, Copy)]
pub struct LessonState {
    pub lesson: RwSignal<String>,
    pub step: RwSignal<usize>,
    pub lab: RwSignal<Lab>,
    pub drafts: RwSignal<Drafts>,
    /// The page's comparison (none in an embed): a lab opened ends it, a step may set one up.
    compare: Option<Compare>,
    /// Where the page says that edits came back (the page's notice).
    notice: RwSignal<Option<Notice>>,
}

impl LessonState {
    pub fn new(
        opened: Opened,
        drafts: Drafts,
        compare: Option<Compare>,
        notice: RwSignal<Option<Notice>>,
    ) -> LessonState {
        LessonState {
            lesson: opened.lesson,
            step: opened.step,
            lab: opened.lab,
            drafts: RwSignal::new(drafts),
            compare,
            notice,
        }
    }

    /// Keeps the open manifests' edits under the open lesson and lab (or forgets the entry
    /// when they are the lab's own again).
    fn keep_edits(&self, editor: Editor) {
        let key = draft_key(&self.lesson.get_untracked(), self.lab.get_untracked());
        let lab = self.lab.get_untracked();
        let ws = editor.ws.get_untracked();
        self.drafts.update(|d| {
            if is_pristine(&ws, lab) {
                d.remove(&key);
            } else {
                d.insert(key, ws);
            }
        });
    }

    /// Opens `lab` in `lesson`, from time 0, paused: the learner's kept edits of it if any
    /// (and the notice says so), otherwise its own manifests. The open manifests' edits are
    /// kept first. A comparison of the manifests replaced ends.
    fn switch_to(&self, lesson: &str, lab: Lab, editor: Editor, transport: Transport) {
        self.keep_edits(editor);
        transport.cue(0);
        let kept = self
            .drafts
            .with_untracked(|d| d.get(&draft_key(lesson, lab)).cloned());
        let restored = kept.is_some();
        // The history records where the learner was: replace first, then move.
        editor.replace(kept.unwrap_or_else(|| Workspace::from_stream(lab.text())));
        self.lesson.set(lesson.into());
        self.lab.set(lab);
        if restored {
            self.notice.set(Some(Notice::plain(T::EditsKept)));
        }
        if let Some(compare) = self.compare {
            compare.stop();
        }
    }

    /// Opens a lab of the open lesson.
    pub fn open_lab(&self, lab: Lab, editor: Editor, transport: Transport) {
        self.switch_to(&self.lesson.get_untracked(), lab, editor, transport);
    }

    /// Opens a step's lab, and the comparison it sets up.
    pub fn open_step_lab(&self, step: &lessons::Step, editor: Editor, transport: Transport) {
        self.open_lab(step.lab, editor, transport);
        self.set_up_comparison(step);
    }

    /// Puts a step's lab back as the lesson wrote it, dropping the learner's edits of it; the
    /// notice offers them back (so does Ctrl+Z).
    pub fn reset_step_lab(&self, step: &lessons::Step, editor: Editor, transport: Transport) {
        let lesson = self.lesson.get_untracked();
        let open = self.lab.get_untracked();
        // What the reset drops: the open manifests if they are the step's lab, otherwise the
        // step's lab's kept edits (the open lab's are kept, as any switch keeps them).
        let dropped = if open == step.lab {
            Some((editor.ws.get_untracked(), editor.active_doc.get_untracked()))
        } else {
            self.keep_edits(editor);
            self.drafts
                .with_untracked(|d| d.get(&draft_key(&lesson, step.lab)).cloned())
                .map(|ws| (ws.docs.first().map_or(0, |d| d.id), ws))
                .map(|(active, ws)| (ws, active))
        };
        self.drafts.update(|d| {
            d.remove(&draft_key(&lesson, step.lab));
        });
        if let Some(compare) = self.compare {
            compare.stop();
        }
        transport.cue(0);
        editor.replace(Workspace::from_stream(step.lab.text()));
        self.lab.set(step.lab);
        let undo = dropped.filter(|(ws, _)| !is_pristine(ws, step.lab));
        self.notice.set(Some(Notice {
            undo,
            ..Notice::plain(T::ManifestsReset)
        }));
        self.set_up_comparison(step);
    }

    fn set_up_comparison(&self, step: &lessons::Step) {
        if let (Some(a), Some(compare)) = (step.compare, self.compare)
            && !compare.baseline.with_untracked(Option::is_some)
        {
            compare.start_with(Workspace::from_stream(a.text()));
        }
    }

    pub fn open_lesson(&self, id: &str, editor: Editor, transport: Transport) {
        let Some(lesson) = lessons::find(id) else {
            return;
        };
        self.switch_to(lesson.id, lesson.first_lab(), editor, transport);
        self.step.set(0);
    }

    /// Goes to a step of the open lesson, opening its lab if another one is loaded.
    pub fn go_to_step(&self, step: usize, editor: Editor, transport: Transport) {
        let Some(lesson) = lessons::find(&self.lesson.get_untracked()) else {
            return;
        };
        let Some(s) = lesson.steps.get(step) else {
            return;
        };
        if self.lab.get_untracked() != s.lab {
            self.open_lab(s.lab, editor, transport);
        }
        self.step.set(step);
        self.set_up_comparison(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_as_written_is_pristine_and_an_edit_is_not() {
        let mut ws = Workspace::from_stream(Lab::Limits.text());
        assert!(is_pristine(&ws, Lab::Limits));
        assert!(!is_pristine(&ws, Lab::HelloWorld));
        ws.docs[0].text.push_str("# mine\n");
        assert!(!is_pristine(&ws, Lab::Limits));
        assert_eq!(
            draft_key("labels-taints", Lab::Limits),
            "labels-taints/Limits"
        );
    }
}

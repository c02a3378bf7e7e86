use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::base::i18n::{Lang, T};
use crate::editor::workspace::Workspace;
use crate::lessons::{self, Prepared};
use crate::state::{Compare, Editor, Notice, Opened, Transport};

/// The learner's edited manifests of the labs not open now, by [`draft_key`]: switching to
/// another lesson or step keeps them, switching back finds them, and only "Reset the
/// manifests" drops one (and that can be undone).
pub type Drafts = BTreeMap<String, Workspace>;

/// A lab's place in [`Drafts`]: the lesson and the lab's key (two lessons may share a lab;
/// each keeps its own edits).
pub fn draft_key(lesson: &str, lab: &str) -> String {
    format!("{lesson}/{lab}")
}

/// Whether `ws` holds exactly `scenario`, a lab's own manifests (nothing to keep).
pub fn is_pristine(ws: &Workspace, scenario: &str) -> bool {
    let own = Workspace::from_stream(scenario);
    ws.docs.len() == own.docs.len() && ws.docs.iter().zip(&own.docs).all(|(a, b)| a.text == b.text)
}

/// The lesson's structure (ids, labs, changes) is the same in every language: the English
/// serves where no text is shown.
fn lesson_of(id: &str) -> Option<&'static Prepared> {
    lessons::find(id, Lang::En)
}

/// A step's lab: its key and the step's own scenario (`None` when the lesson could not
/// resolve it).
struct StepLab {
    key: String,
    scenario: Option<&'static str>,
}

impl StepLab {
    fn of(lesson: &Prepared, index: usize) -> Option<StepLab> {
        let step = lesson.steps.get(index)?;
        Some(StepLab {
            key: step.lab.clone(),
            scenario: lessons::step_scenario(lesson, index),
        })
    }
}

/// The open lesson, its step, the lab whose manifests are open, and the edits kept of the
/// others.
#[derive(Clone, Copy)]
pub struct LessonState {
    pub lesson: RwSignal<String>,
    pub step: RwSignal<usize>,
    /// The open lab's key ([`lessons::PreparedStep::lab`]).
    pub lab: RwSignal<String>,
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

    /// The open lesson's step `index`'s lab: its key and the step's scenario.
    fn step_lab(&self, index: usize) -> Option<StepLab> {
        let lesson = lesson_of(&self.lesson.get_untracked())?;
        StepLab::of(lesson, index)
    }

    /// Keeps the open manifests' edits under the open lesson and lab (or forgets the entry
    /// when they are the open step's scenario, or its lab's, again).
    fn keep_edits(&self, editor: Editor) {
        let lab = self.lab.get_untracked();
        let key = draft_key(&self.lesson.get_untracked(), &lab);
        let own = self
            .step_lab(self.step.get_untracked())
            .filter(|s| s.key == lab)
            .and_then(|s| s.scenario);
        let ws = editor.ws.get_untracked();
        self.drafts.update(|d| {
            if own.is_some_and(|own| is_pristine(&ws, own)) {
                d.remove(&key);
            } else {
                d.insert(key, ws);
            }
        });
    }

    /// Opens a step's lab in `lesson`, from time 0, paused: the learner's kept edits of it if
    /// any (and the notice says so), otherwise the step's scenario. The open manifests' edits
    /// are kept first. A comparison of the manifests replaced ends.
    fn switch_to(&self, lesson: &str, lab: StepLab, editor: Editor, transport: Transport) {
        self.keep_edits(editor);
        transport.cue(0);
        let kept = self
            .drafts
            .with_untracked(|d| d.get(&draft_key(lesson, &lab.key)).cloned());
        let restored = kept.is_some();
        let Some(ws) = kept.or_else(|| lab.scenario.map(Workspace::from_stream)) else {
            self.notice.set(Some(Notice::plain(T::LabMissing)));
            return;
        };
        // The history records where the learner was: replace first, then move.
        editor.replace(ws);
        self.lesson.set(lesson.into());
        self.lab.set(lab.key);
        if restored {
            self.notice.set(Some(Notice::plain(T::EditsKept)));
        }
        if let Some(compare) = self.compare {
            compare.stop();
        }
    }

    /// Opens step `index`'s lab, and the comparison it sets up.
    pub fn open_step_lab(&self, index: usize, editor: Editor, transport: Transport) {
        let Some(lab) = self.step_lab(index) else {
            return;
        };
        self.switch_to(&self.lesson.get_untracked(), lab, editor, transport);
        self.set_up_comparison(index);
    }

    /// Puts step `index`'s scenario back as the lesson wrote it, dropping the learner's edits
    /// of its lab; the notice offers them back (so does Ctrl+Z).
    pub fn reset_step_lab(&self, index: usize, editor: Editor, transport: Transport) {
        let lesson = self.lesson.get_untracked();
        let Some(lab) = self.step_lab(index) else {
            return;
        };
        let Some(scenario) = lab.scenario else {
            self.notice.set(Some(Notice::plain(T::LabMissing)));
            return;
        };
        let open = self.lab.get_untracked();
        // What the reset drops: the open manifests if they are the step's lab, otherwise the
        // step's lab's kept edits (the open lab's are kept, as any switch keeps them).
        let dropped = if open == lab.key {
            Some((editor.ws.get_untracked(), editor.active_doc.get_untracked()))
        } else {
            self.keep_edits(editor);
            self.drafts
                .with_untracked(|d| d.get(&draft_key(&lesson, &lab.key)).cloned())
                .map(|ws| (ws.docs.first().map_or(0, |d| d.id), ws))
                .map(|(active, ws)| (ws, active))
        };
        self.drafts.update(|d| {
            d.remove(&draft_key(&lesson, &lab.key));
        });
        if let Some(compare) = self.compare {
            compare.stop();
        }
        transport.cue(0);
        editor.replace(Workspace::from_stream(scenario));
        self.lab.set(lab.key);
        let undo = dropped.filter(|(ws, _)| !is_pristine(ws, scenario));
        self.notice.set(Some(Notice {
            undo,
            ..Notice::plain(T::ManifestsReset)
        }));
        self.set_up_comparison(index);
    }

    fn set_up_comparison(&self, index: usize) {
        let Some(lesson) = lesson_of(&self.lesson.get_untracked()) else {
            return;
        };
        let Some(step) = lesson.steps.get(index) else {
            return;
        };
        let a = step.compare.as_deref().and_then(lessons::scenario);
        if let (Some(a), Some(compare)) = (a, self.compare)
            && !compare.baseline.with_untracked(Option::is_some)
        {
            compare.start_with(Workspace::from_stream(a));
        }
    }

    /// Makes `id` (a lesson just read, which a link carried) the open lesson at `step`,
    /// around the manifests already open: the link's, which are the sharer's of that step.
    pub fn adopt(&self, id: &str, step: usize) {
        let Some(lesson) = lesson_of(id) else {
            return;
        };
        let step = step.min(lesson.steps.len().saturating_sub(1));
        let Some(lab) = StepLab::of(lesson, step) else {
            return;
        };
        self.lesson.set(lesson.id.clone());
        self.step.set(step);
        self.lab.set(lab.key);
    }

    pub fn open_lesson(&self, id: &str, editor: Editor, transport: Transport) {
        let Some(lesson) = lesson_of(id) else {
            return;
        };
        let Some(lab) = StepLab::of(lesson, 0) else {
            return;
        };
        self.switch_to(&lesson.id, lab, editor, transport);
        self.step.set(0);
        self.arrive(lesson, 0, transport);
    }

    /// Goes to a step of the open lesson, opening its lab if another one is loaded, or
    /// making the step's changes to the open manifests when it is the same lab's next step.
    pub fn go_to_step(&self, index: usize, editor: Editor, transport: Transport) {
        let Some(lesson) = lesson_of(&self.lesson.get_untracked()) else {
            return;
        };
        let Some(lab) = StepLab::of(lesson, index) else {
            return;
        };
        let from = self.step.get_untracked();
        if self.lab.get_untracked() != lab.key {
            self.switch_to(&lesson.id, lab, editor, transport);
            self.step.set(index);
        } else {
            self.step.set(index);
            if index > from {
                self.make_changes(lesson, from + 1..=index, editor, transport);
            }
        }
        self.set_up_comparison(index);
        self.arrive(lesson, index, transport);
    }

    /// The `change`s of steps `steps`, made to the open manifests as one step of the
    /// history (the notice offers it back). A change whose text the learner has edited away
    /// is not made, and the notice says how to get the step's scenario.
    fn make_changes(
        &self,
        lesson: &Prepared,
        steps: std::ops::RangeInclusive<usize>,
        editor: Editor,
        transport: Transport,
    ) {
        let edits: Vec<_> = lesson
            .steps
            .iter()
            .take(*steps.end() + 1)
            .skip(*steps.start())
            .flat_map(|s| s.change.iter())
            .collect();
        if edits.is_empty() {
            return;
        }
        let before = (editor.ws.get_untracked(), editor.active_doc.get_untracked());
        match kpg_lesson::exercise::apply(&before.0.to_stream(), edits) {
            Ok(text) => {
                transport.cue(0);
                editor.replace(Workspace::from_stream(&text));
                self.notice.set(Some(Notice {
                    undo: Some(before),
                    ..Notice::plain(T::StepChanged)
                }));
            }
            Err(_) => self.notice.set(Some(Notice::plain(T::StepChangeSkipped))),
        }
    }

    /// What a step does on arrival, after its manifests: it plays to its instant.
    fn arrive(&self, lesson: &Prepared, index: usize, transport: Transport) {
        if let Some(at) = lesson.steps.get(index).and_then(|s| s.play_to) {
            transport.seek(at as i64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_as_written_is_pristine_and_an_edit_is_not() {
        let limits = lessons::lab("seed002-limits");
        let mut ws = Workspace::from_stream(limits);
        assert!(is_pristine(&ws, limits));
        assert!(!is_pristine(&ws, lessons::lab("seed000-hello-world")));
        ws.docs[0].text.push_str("# mine\n");
        assert!(!is_pristine(&ws, limits));
        assert_eq!(
            draft_key("labels-taints", "tests/labs/seed002-limits.yaml"),
            "labels-taints/tests/labs/seed002-limits.yaml"
        );
    }
}

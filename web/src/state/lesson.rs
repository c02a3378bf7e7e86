use leptos::prelude::*;

use crate::lessons::{self, Lab};
use crate::state::{Compare, Editor, Transport};
use crate::workspace::Workspace;

/// The open lesson, its step, and the lab whose manifests were last loaded.
#[derive(Clone, Copy)]
pub struct LessonState {
    pub lesson: RwSignal<String>,
    pub step: RwSignal<usize>,
    pub lab: RwSignal<Lab>,
    /// The page's comparison (none in an embed): a lab opened ends it, a step may set one up.
    compare: Option<Compare>,
}

impl LessonState {
    pub fn new(lesson: String, step: usize, lab: Lab, compare: Option<Compare>) -> LessonState {
        LessonState {
            lesson: RwSignal::new(lesson),
            step: RwSignal::new(step),
            lab: RwSignal::new(lab),
            compare,
        }
    }

    /// Replaces the manifests with a lab's and starts it from time 0, paused. A comparison
    /// of the manifests replaced ends.
    pub fn open_lab(&self, lab: Lab, editor: Editor, transport: Transport) {
        transport.cue(0);
        self.lab.set(lab);
        editor.replace(Workspace::from_stream(lab.text()));
        if let Some(compare) = self.compare {
            compare.stop();
        }
    }

    /// Opens a step's lab, and the comparison it sets up.
    pub fn open_step_lab(&self, step: &lessons::Step, editor: Editor, transport: Transport) {
        self.open_lab(step.lab, editor, transport);
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
        self.lesson.set(lesson.id.into());
        self.step.set(0);
        self.open_lab(lesson.first_lab(), editor, transport);
    }

    /// Goes to a step of the open lesson, opening its lab if another one is loaded.
    pub fn go_to_step(&self, step: usize, editor: Editor, transport: Transport) {
        let Some(lesson) = lessons::find(&self.lesson.get_untracked()) else {
            return;
        };
        let Some(s) = lesson.steps.get(step) else {
            return;
        };
        self.step.set(step);
        if self.lab.get_untracked() != s.lab {
            self.open_lab(s.lab, editor, transport);
        }
        self.set_up_comparison(s);
    }
}

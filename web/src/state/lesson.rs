use leptos::prelude::*;

use crate::lessons::{self, Lab};
use crate::state::{Editor, Transport};
use crate::workspace::Workspace;

/// The open lesson, its step, and the lab whose manifests were last loaded.
#[derive(Clone, Copy)]
pub struct LessonState {
    pub lesson: RwSignal<String>,
    pub step: RwSignal<usize>,
    pub lab: RwSignal<Lab>,
}

impl LessonState {
    pub fn new(lesson: String, step: usize, lab: Lab) -> LessonState {
        LessonState {
            lesson: RwSignal::new(lesson),
            step: RwSignal::new(step),
            lab: RwSignal::new(lab),
        }
    }

    /// Replaces the manifests with a lab's and starts it from time 0, paused.
    pub fn open_lab(&self, lab: Lab, editor: Editor, transport: Transport) {
        transport.cue(0);
        self.lab.set(lab);
        editor.replace(Workspace::from_stream(lab.text()));
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
    }
}

//! The live page is built in steps, one browser task each, and shown whole when the last is
//! done.
//!
//! Building the whole view tree in the task that starts the wasm took 290–360 ms under a
//! phone's CPU (Lighthouse's 4x throttle): the Leptos views themselves, and V8 compiling each
//! wasm function the first time it runs (lazy compilation: about 1,600 functions on the
//! main thread during the first mount). One long task freezes whatever the learner does
//! meanwhile; several short ones let input and frames in between. While the steps run, the
//! live page is hidden (`display: none`, so it costs no layout) and the build's copy of a
//! first visit stays on screen; the last step shows the live page and retires the copy in
//! one task, so no frame shows both or neither.
//!
//! The build's drawing ([`crate::shell::prerender`]) uses [`Staging::whole`]: everything at once.
//! An embed runs the same steps; its regions appear as they are built (it has no drawn copy
//! to keep on screen meanwhile).

use leptos::prelude::*;

/// Which steps of the live page are built. A context, provided once by the app.
#[derive(Clone, Copy)]
pub struct Staging {
    built: RwSignal<u8>,
    /// What waits for a step: run in its task, before its views are built (by step number;
    /// the last step's is what waits for the live page to show).
    waiting: StoredValue<Vec<Waiting>, LocalStorage>,
}

/// Work that waits for a step (by number).
type Waiting = (u8, Box<dyn FnOnce()>);

/// The steps after the first, in the order they are built: each a region of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// The header: lesson choice, transport bar, links.
    Header = 1,
    /// The manifests pane: documents and the editor.
    Manifests = 2,
    /// The cluster pane's lesson card.
    Lesson = 3,
    /// The cluster: lanes, pending pods and the summary.
    Cluster = 4,
    /// The bottom panel: events, explanations, the terminal.
    Bottom = 5,
    /// Nothing more to build: the live page shows (a task of its own, since the browser then
    /// lays out the whole page).
    Shown = 6,
}

impl Step {
    const LAST: u8 = Step::Shown as u8;
}

impl Staging {
    /// Everything built from the start.
    pub fn whole() -> Staging {
        Staging {
            built: RwSignal::new(Step::LAST),
            waiting: StoredValue::new_local(Vec::new()),
        }
    }

    /// Nothing but the page's state built yet; [`Staging::run`] builds the rest.
    pub fn stepwise() -> Staging {
        Staging {
            built: RwSignal::new(0),
            waiting: StoredValue::new_local(Vec::new()),
        }
    }

    /// Whether `step` is built (reactive).
    pub fn has(&self, step: Step) -> bool {
        self.built.get() >= step as u8
    }

    /// Whether the live page is whole and on screen (reactive).
    pub fn shown(&self) -> bool {
        self.built.get() >= Step::LAST
    }

    /// Runs `f` once the live page shows: now if it does, else in the task that shows it.
    pub fn when_shown(&self, f: impl FnOnce() + 'static) {
        self.before(Step::Shown, f);
    }

    /// Runs `f` in the task that builds `step`, before its views: now if it is built. Work
    /// that a step's views read (the first cluster for the header's figures) but that need
    /// not block the first task.
    pub fn before(&self, step: Step, f: impl FnOnce() + 'static) {
        if self.built.get_untracked() >= step as u8 {
            f();
        } else {
            self.waiting
                .update_value(|w| w.push((step as u8, Box::new(f))));
        }
    }

    /// Builds the remaining steps, each in a task of its own.
    pub fn run(self) {
        if self.built.get_untracked() >= Step::LAST {
            return;
        }
        set_timeout(
            move || {
                let next = self.built.get_untracked() + 1;
                let due = self
                    .waiting
                    .try_update_value(|w| {
                        let (due, later) =
                            std::mem::take(w).into_iter().partition(|(s, _)| *s <= next);
                        *w = later;
                        due
                    })
                    .unwrap_or_else(Vec::new);
                for (_, f) in due {
                    f();
                }
                // The step's views build as this task ends (Leptos runs its render effects
                // as microtasks).
                self.built.set(next);
                self.run();
            },
            std::time::Duration::ZERO,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn a_whole_page_has_every_step_and_runs_waiting_work_at_once() {
        let staging = Staging::whole();
        assert!(staging.has(Step::Header) && staging.has(Step::Bottom) && staging.shown());
        let ran = Rc::new(RefCell::new(false));
        let r = ran.clone();
        staging.when_shown(move || *r.borrow_mut() = true);
        assert!(*ran.borrow());
    }

    #[test]
    fn a_stepwise_page_holds_work_until_its_step() {
        let staging = Staging::stepwise();
        assert!(!staging.has(Step::Header) && !staging.shown());
        let ran = Rc::new(RefCell::new(Vec::new()));
        let (a, b) = (ran.clone(), ran.clone());
        staging.when_shown(move || a.borrow_mut().push("shown"));
        staging.before(Step::Header, move || b.borrow_mut().push("header"));
        assert!(
            ran.borrow().is_empty(),
            "nothing runs before its step is built"
        );
    }
}

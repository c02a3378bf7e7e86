//! The workspace's undo and redo: one history for every change to the manifests (typing in
//! any tab, adding, removing and moving tabs, a migration, a file opened, a lab opened or
//! reset), so Ctrl+Z brings back what the last change took, whatever kind it was and
//! whichever tab is open now.
//!
//! The history keeps whole workspaces (a document's text is shared between them only by
//! value): simple and exact, and bounded by a count and a byte budget. Typing is coalesced
//! into one step per burst, as editors do. Time is passed in, never read.

use crate::editor::workspace::Workspace;

/// What changed the workspace, for coalescing and for saying what an undo undid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Typing (or a paste) in the document with this id.
    Typing(u32),
    /// A tab added, removed or moved.
    Tabs,
    /// "Migrate to v1" accepted.
    Migration,
    /// A `kubectl` command in the terminal, written into the Timeline.
    Command,
    /// The Karpenter version chosen in the top bar, written into the Cluster document.
    Version,
    /// The whole workspace replaced: a lab, a lesson, a file, a reset.
    Replaced,
}

/// The workspace, the open tab, and the lesson step and lab they belonged to, at one point
/// of the history: undoing a switch to another lesson goes back to the lesson too.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub ws: Workspace,
    pub active: u32,
    pub place: Option<Place>,
}

/// A lesson, its step, and the lab open in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub lesson: String,
    pub step: usize,
    /// The lab's key (`crate::lessons::lab_key`).
    pub lab: String,
}

impl State {
    fn bytes(&self) -> usize {
        self.ws.docs.iter().map(|d| d.text.len()).sum()
    }
}

#[derive(Clone, Debug)]
struct Entry {
    state: State,
    change: Change,
}

/// Typing within this long of the last keystroke, in the same tab, is one step.
pub const BURST_MS: f64 = 1_000.0;
/// At most this many steps back.
pub const MAX_STEPS: usize = 200;
/// And at most this much text kept for them (a few steps of a multi-megabyte paste).
pub const MAX_BYTES: usize = 48 * 1024 * 1024;

#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Entry>,
    redo: Vec<Entry>,
    /// The last typing recorded: its document and when, to coalesce a burst.
    last_typing: Option<(u32, f64)>,
}

impl History {
    /// Records that `change` is about to turn `before` into something else, at `now_ms`.
    pub fn record(&mut self, before: State, change: Change, now_ms: f64) {
        self.redo.clear();
        if let Change::Typing(doc) = change {
            let same_burst = self
                .last_typing
                .is_some_and(|(d, at)| d == doc && now_ms - at < BURST_MS);
            self.last_typing = Some((doc, now_ms));
            if same_burst && self.undo.last().is_some_and(|e| e.change == change) {
                return;
            }
        } else {
            self.last_typing = None;
        }
        self.undo.push(Entry {
            state: before,
            change,
        });
        self.trim();
    }

    /// The state before the last change, given the state now (which redo brings back).
    pub fn undo(&mut self, now: State) -> Option<(State, Change)> {
        let entry = self.undo.pop()?;
        self.last_typing = None;
        // Redoing typing opens the tab it was typed in, as undoing it does, whichever tab
        // is open when the learner undoes.
        let active = match entry.change {
            Change::Typing(doc) => doc,
            _ => now.active,
        };
        self.redo.push(Entry {
            state: State { active, ..now },
            change: entry.change,
        });
        Some((entry.state, entry.change))
    }

    /// The state the last undo left, given the state now.
    pub fn redo(&mut self, now: State) -> Option<(State, Change)> {
        let entry = self.redo.pop()?;
        self.last_typing = None;
        self.undo.push(Entry {
            state: now,
            change: entry.change,
        });
        Some((entry.state, entry.change))
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Drops the oldest steps past the count or the byte budget (the newest always stays).
    fn trim(&mut self) {
        let mut bytes: usize = self.undo.iter().map(|e| e.state.bytes()).sum();
        let mut drop = 0;
        while self.undo.len() - drop > 1
            && (self.undo.len() - drop > MAX_STEPS || bytes > MAX_BYTES)
        {
            bytes -= self.undo[drop].state.bytes();
            drop += 1;
        }
        self.undo.drain(..drop);
    }
}

/// Where two texts first differ, as a 1-based line and character column in `after`: where
/// the caret goes after an undo or redo.
pub fn first_difference(before: &str, after: &str) -> (usize, usize) {
    let (mut line, mut column) = (1, 1);
    for (a, b) in before.chars().zip(after.chars()) {
        if a != b {
            break;
        }
        if a == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(texts: &[&str], active: u32) -> State {
        let mut ws = Workspace::default();
        for t in texts {
            ws.push(t.to_string());
        }
        State {
            ws,
            active,
            place: None,
        }
    }

    #[test]
    fn a_burst_of_typing_is_one_step_and_a_pause_starts_another() {
        let mut h = History::default();
        h.record(state(&["a"], 0), Change::Typing(0), 0.0);
        h.record(state(&["ab"], 0), Change::Typing(0), 300.0);
        h.record(state(&["abc"], 0), Change::Typing(0), 600.0);
        // A pause longer than a burst.
        h.record(state(&["abcd"], 0), Change::Typing(0), 5_000.0);
        let (back, _) = h.undo(state(&["abcde"], 0)).expect("a step");
        assert_eq!(back, state(&["abcd"], 0));
        let (back, _) = h.undo(back).expect("another");
        assert_eq!(back, state(&["a"], 0), "the burst undoes at once");
        assert!(h.undo(back).is_none());
    }

    #[test]
    fn undo_crosses_tabs_and_replacements_and_redo_comes_back() {
        let mut h = History::default();
        let typed = state(&["one", "two"], 1);
        h.record(state(&["one", "tw"], 1), Change::Typing(1), 0.0);
        // The learner opens another lab: the workspace is replaced.
        h.record(typed.clone(), Change::Replaced, 100.0);
        let lab = state(&["lab"], 0);
        let (back, change) = h.undo(lab.clone()).expect("the lab switch undoes");
        assert_eq!((back.clone(), change), (typed.clone(), Change::Replaced));
        assert_eq!(back.active, 1, "the tab that was open comes back");
        let (again, _) = h.redo(back).expect("and redoes");
        assert_eq!(again, lab);
        assert!(h.can_undo() && !h.can_redo());
    }

    #[test]
    fn a_new_change_after_undo_drops_the_redo() {
        let mut h = History::default();
        h.record(state(&["a"], 0), Change::Tabs, 0.0);
        let (back, _) = h.undo(state(&["a", "b"], 0)).unwrap();
        assert!(h.can_redo());
        h.record(back, Change::Typing(0), 10.0);
        assert!(!h.can_redo());
    }

    #[test]
    fn redoing_typing_opens_the_tab_it_was_typed_in() {
        let mut h = History::default();
        h.record(state(&["a", "x"], 0), Change::Typing(0), 0.0);
        // The learner moved to tab 1, then undid the typing in tab 0.
        let (back, _) = h.undo(state(&["ab", "x"], 1)).unwrap();
        assert_eq!(back.active, 0);
        let (again, _) = h.redo(back).unwrap();
        assert_eq!(
            again,
            state(&["ab", "x"], 0),
            "tab 0, where the text changed"
        );
    }

    #[test]
    fn typing_in_another_tab_is_its_own_step() {
        let mut h = History::default();
        h.record(state(&["a", "x"], 0), Change::Typing(0), 0.0);
        h.record(state(&["ab", "x"], 1), Change::Typing(1), 100.0);
        let (back, _) = h.undo(state(&["ab", "xy"], 1)).unwrap();
        assert_eq!(back, state(&["ab", "x"], 1));
    }

    #[test]
    fn the_history_is_bounded_by_steps_and_bytes() {
        let mut h = History::default();
        for i in 0..(MAX_STEPS + 50) {
            h.record(state(&["x"], 0), Change::Tabs, i as f64);
        }
        assert_eq!(h.undo.len(), MAX_STEPS);
        let big = "y".repeat(MAX_BYTES / 3 + 1);
        let mut h = History::default();
        for i in 0..5 {
            h.record(state(&[&big], 0), Change::Replaced, i as f64);
        }
        assert_eq!(h.undo.len(), 2, "the byte budget keeps the newest few");
    }

    #[test]
    fn the_caret_goes_where_the_texts_first_differ() {
        assert_eq!(first_difference("a: 1\nb: 2\n", "a: 1\nb: 3\n"), (2, 4));
        assert_eq!(first_difference("한글\nx", "한글\ny"), (2, 1));
        assert_eq!(first_difference("same", "same"), (1, 5));
    }
}

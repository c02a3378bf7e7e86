//! The terminal tab's state, without browser types: the scrollback, the command history
//! (↑/↓, saved across reloads), the manifests tabs as the files `kubectl apply -f` reads,
//! and what a mutating command does to the manifests.
//!
//! A command that changes the cluster (`scale`, `apply`, `delete`, `run`, `annotate`,
//! `cordon`) does not poke the running simulation: it appends a step at the current instant
//! to the workspace's `Timeline/terminal` document, which the page then replays like any
//! edit. So the change is visible and editable as YAML, survives a reload, and the same
//! scenario still gives the same cluster, byte for byte.

use kpg_kubectl::Change;

use crate::editor::workspace::{Workspace, title};

/// How many commands the history keeps.
pub const HISTORY_LIMIT: usize = 200;
/// How many entries the scrollback keeps (a `-w` left running grows its own entry).
pub const SCROLLBACK_LIMIT: usize = 200;

/// The name of the Timeline document the terminal writes its changes to.
pub const TIMELINE_NAME: &str = "terminal";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Simulated milliseconds when the command ran.
    pub at_ms: i64,
    pub command: String,
    pub output: String,
    pub ok: bool,
}

/// The typed commands, oldest first, and where ↑/↓ has got to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    commands: Vec<String>,
    /// An index into `commands` while browsing; `None` at the fresh line.
    cursor: Option<usize>,
    /// What was on the fresh line when browsing began.
    draft: String,
}

impl History {
    pub fn from_saved(commands: Vec<String>) -> History {
        let mut h = History {
            commands,
            ..History::default()
        };
        h.trim();
        h
    }

    pub fn commands(&self) -> &[String] {
        &self.commands
    }

    fn trim(&mut self) {
        if self.commands.len() > HISTORY_LIMIT {
            let extra = self.commands.len() - HISTORY_LIMIT;
            self.commands.drain(..extra);
        }
    }

    /// Records a command run (a repeat of the last one is kept once, as bash's ignoredups).
    pub fn push(&mut self, command: &str) {
        self.cursor = None;
        self.draft.clear();
        let command = command.trim();
        if command.is_empty() || self.commands.last().is_some_and(|c| c == command) {
            return;
        }
        self.commands.push(command.to_string());
        self.trim();
    }

    /// ↑: the previous command, remembering the line being typed.
    pub fn up(&mut self, current: &str) -> Option<String> {
        let next = match self.cursor {
            None if self.commands.is_empty() => return None,
            None => {
                self.draft = current.to_string();
                self.commands.len() - 1
            }
            Some(0) => 0,
            Some(i) => i - 1,
        };
        self.cursor = Some(next);
        self.commands.get(next).cloned()
    }

    /// ↓: the next command, and finally the line that was being typed.
    pub fn down(&mut self) -> Option<String> {
        let i = self.cursor?;
        if i + 1 < self.commands.len() {
            self.cursor = Some(i + 1);
            self.commands.get(i + 1).cloned()
        } else {
            self.cursor = None;
            Some(std::mem::take(&mut self.draft))
        }
    }
}

/// The file name a tab goes by in the terminal: `nodepool-default.yaml` for
/// `NodePool/default`, `untitled-3.yaml` for a tab with no kind yet.
pub fn file_name(text: &str, id: u32) -> String {
    let t = title(text);
    if t.is_empty() {
        return format!("untitled-{id}.yaml");
    }
    let slug: String = t
        .to_ascii_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("{slug}.yaml")
}

/// The tabs as `kubectl apply -f` sees them: (file name, text), in tab order.
pub fn files(ws: &Workspace) -> Vec<(String, String)> {
    ws.docs
        .iter()
        .map(|d| (file_name(&d.text, d.id), d.text.clone()))
        .collect()
}

fn timeline_header() -> String {
    format!(
        "# What the terminal changed, at the simulated time it ran (kubectl scale, apply,\n\
         # delete, run, annotate, cordon). Edit or delete steps like any other document.\n\
         apiVersion: playground.karpenter.dev/v1alpha1\n\
         kind: Timeline\n\
         metadata:\n  name: {TIMELINE_NAME}\n\
         spec:\n  steps:\n"
    )
}

/// Appends the changes as steps at `at_ms` to the terminal's Timeline document, creating it
/// if need be, and returns its id (`None` when there is nothing to write).
pub fn record_changes(ws: &mut Workspace, changes: &[Change], at_ms: i64) -> Option<u32> {
    let at = at_ms.max(0) as u64;
    let steps: String = changes.iter().map(|c| c.timeline_step(at)).collect();
    record_steps(ws, &steps)
}

/// Appends Timeline steps (a command's changes, as the engine's worker wrote them) to the
/// terminal's Timeline document, creating it if needed; returns the document's id.
pub fn record_steps(ws: &mut Workspace, steps: &str) -> Option<u32> {
    if steps.is_empty() {
        return None;
    }
    let wanted = format!("Timeline/{TIMELINE_NAME}");
    let id = match ws.docs.iter().find(|d| title(&d.text) == wanted) {
        Some(d) => d.id,
        None => ws.push(timeline_header()),
    };
    let i = ws.index_of(id)?;
    let doc = &mut ws.docs[i];
    if !doc.text.ends_with('\n') {
        doc.text.push('\n');
    }
    doc.text.push_str(steps);
    if !doc.text.ends_with('\n') {
        doc.text.push('\n');
    }
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::workspace::analyse;

    #[test]
    fn history_browses_back_and_returns_to_the_draft() {
        let mut h = History::default();
        h.push("kubectl get nodes");
        h.push("kubectl get nodes");
        h.push("kubectl get pods -A");
        assert_eq!(h.commands().len(), 2, "a repeat is kept once");
        assert_eq!(h.up("kubectl desc").as_deref(), Some("kubectl get pods -A"));
        assert_eq!(h.up("").as_deref(), Some("kubectl get nodes"));
        assert_eq!(
            h.up("").as_deref(),
            Some("kubectl get nodes"),
            "stays at the oldest"
        );
        assert_eq!(h.down().as_deref(), Some("kubectl get pods -A"));
        assert_eq!(
            h.down().as_deref(),
            Some("kubectl desc"),
            "back to what was being typed"
        );
        assert_eq!(h.down(), None);
    }

    #[test]
    fn history_keeps_the_newest_commands() {
        let mut h = History::from_saved((0..HISTORY_LIMIT + 5).map(|i| format!("c{i}")).collect());
        assert_eq!(h.commands().len(), HISTORY_LIMIT);
        assert_eq!(h.commands()[0], "c5");
        h.push("new");
        assert_eq!(h.commands().last().map(String::as_str), Some("new"));
        assert_eq!(h.commands().len(), HISTORY_LIMIT);
    }

    #[test]
    fn tabs_are_files_named_after_their_objects() {
        let ws = Workspace::from_stream(crate::lessons::lab("seed002-scale-out"));
        let names: Vec<String> = files(&ws).into_iter().map(|(n, _)| n).collect();
        assert!(
            names.iter().any(|n| n.starts_with("nodepool-")),
            "{names:?}"
        );
        assert!(
            names
                .iter()
                .all(|n| n.ends_with(".yaml") && !n.contains('/')),
            "{names:?}"
        );
        assert_eq!(file_name("kind: \n", 7), "untitled-7.yaml");
    }

    #[test]
    fn a_change_becomes_a_step_of_the_terminals_timeline_that_reads_cleanly() {
        let mut ws = Workspace::from_stream(crate::lessons::lab("seed002-scale-out"));
        let before = ws.docs.len();
        let scale = Change::Scale {
            kind: "Deployment".into(),
            name: "inflate".into(),
            namespace: "default".into(),
            replicas: 3,
        };
        let id = record_changes(&mut ws, std::slice::from_ref(&scale), 90_000).expect("written");
        assert_eq!(ws.docs.len(), before + 1, "a Timeline document is added");
        let again = record_changes(&mut ws, &[scale], 120_000).expect("written");
        assert_eq!(id, again, "later changes go to the same document");
        assert_eq!(ws.docs.len(), before + 1);
        let text = &ws.docs[ws.index_of(id).unwrap()].text;
        assert!(text.contains("1m30s") && text.contains("2m"), "{text}");
        let a = analyse(&ws);
        let errors: Vec<_> = a.problems.iter().filter(|p| p.error).collect();
        assert!(errors.is_empty(), "{errors:?}\n{text}");
        assert_eq!(record_changes(&mut ws, &[], 0), None);
    }
}

//! A lesson as the reader gives it: text in one language, labs by path or inline, steps with
//! their changes and exercises, and where each part was written (for the checks' messages).

use kpg_core::model::Millis;

use crate::exercise::{Edit, Exercise};
use crate::problem::Spot;

/// A guided lesson: a scenario to open and steps of explanation, some setting a task.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// The file as the caller named it: messages name it, and relative paths (labs, links)
    /// are resolved from its folder.
    pub file: String,
    /// The file's text (the checks find a link's line in it).
    pub source: String,
    /// Stable: a saved session stores it, and a translation names it.
    pub id: String,
    pub title: String,
    /// One or two sentences for the lesson's card.
    pub summary: String,
    /// The scenario the lesson opens with (and the first step's, unless it names one).
    pub lab: Lab,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Unique in the lesson; `#id` links to the step.
    pub id: String,
    pub title: String,
    /// Markdown.
    pub text: String,
    /// The scenario this step is about, when it is not the previous step's: the page offers
    /// to open it when another is loaded. Earlier steps' `change`s do not carry over to it.
    pub lab: Option<Lab>,
    /// A comparison the step sets up: this lab is A, the step's scenario is B.
    pub compare: Option<Lab>,
    /// Edits of the scenario the step makes (each `find`, found once, becomes `replace`);
    /// they carry over to the following steps on the same lab.
    pub change: Vec<Edit>,
    /// The simulated instant the page plays to when the step opens.
    pub play_to: Option<Millis>,
    pub exercise: Option<Exercise>,
    /// The step in the file (its `id` field's place).
    pub spot: Spot,
    /// The `text` field's place (a link's line is found from here).
    pub text_spot: Spot,
}

/// A scenario a lesson opens.
#[derive(Clone, Debug, PartialEq)]
pub struct Lab {
    pub source: LabSource,
    /// What the page calls it ("Scale out") when it offers to open it; without one the
    /// step's title serves.
    pub name: Option<String>,
    pub spot: Spot,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LabSource {
    /// A scenario file, relative to the lesson file (`../../tests/labs/seed000-hello-world.yaml`).
    /// Its leading block of `#` comments is not part of the scenario the page shows.
    File(String),
    /// The scenario written in the lesson.
    Inline {
        text: String,
        /// The file's line of the text's first line when it is a block scalar (`inline: |`),
        /// else 0: a scenario's problem is then placed on the lesson file's own line.
        first_line: usize,
    },
}

impl Lesson {
    /// The index of the step whose `lab` (or the lesson's, for `None`) step `index` plays,
    /// with the earlier steps' changes since then.
    pub fn lab_of(&self, index: usize) -> (Option<usize>, &Lab) {
        let mut found = (None, &self.lab);
        for (i, step) in self.steps.iter().enumerate().take(index + 1) {
            if let Some(lab) = &step.lab {
                found = (Some(i), lab);
            }
        }
        found
    }

    /// The steps whose `change`s step `index`'s scenario has, in order: the step that named
    /// the lab (or the first) through `index`.
    pub fn changes_of(&self, index: usize) -> impl Iterator<Item = &Edit> {
        let from = self.lab_of(index).0.unwrap_or(0);
        self.steps
            .iter()
            .take(index + 1)
            .skip(from)
            .flat_map(|s| s.change.iter())
    }

    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }
}

/// Drops a lab file's leading block of `#` comment lines (and the blank lines among and
/// after them): the lab's header describes it for the CLI's readers, the lesson's steps
/// explain it in the reader's language.
pub fn strip_header(text: &str) -> &str {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('#') || t.is_empty() {
            offset += line.len();
        } else {
            break;
        }
    }
    &text[offset..]
}

/// How many lines [`strip_header`] drops.
pub fn header_lines(text: &str) -> usize {
    text[..text.len() - strip_header(text).len()]
        .matches('\n')
        .count()
}

/// `relative` read from the folder of `file`, with `.` and `..` folded where they can be
/// (`lessons/hello/lesson.yaml` + `../../tests/labs/x.yaml` = `tests/labs/x.yaml`). Pure
/// text: the caller's loader decides what the result means on its file system.
pub fn resolve(file: &str, relative: &str) -> String {
    if relative.starts_with('/') {
        return relative.to_string();
    }
    let dir = match file.rfind('/') {
        Some(i) => &file[..i],
        None => "",
    };
    let absolute = dir.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in dir.split('/').chain(relative.split('/')) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else if joined.is_empty() {
        ".".into()
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_from_the_lessons_folder() {
        let f = "lessons/hello/lesson.yaml";
        assert_eq!(resolve(f, "../../tests/labs/a.yaml"), "tests/labs/a.yaml");
        assert_eq!(resolve(f, "./pic.svg"), "lessons/hello/pic.svg");
        assert_eq!(resolve("lesson.yaml", "../x"), "../x");
        assert_eq!(resolve("/w/l/lesson.yaml", "../../../x"), "/x");
        assert_eq!(resolve(f, "/abs/y"), "/abs/y");
    }

    #[test]
    fn a_header_is_comments_and_blank_lines_up_to_the_first_document() {
        let text = "# a lab\n#\n\n# more\napiVersion: v1\n# kept\n";
        assert_eq!(strip_header(text), "apiVersion: v1\n# kept\n");
        assert_eq!(header_lines(text), 4);
        assert_eq!(header_lines("apiVersion: v1\n"), 0);
    }
}

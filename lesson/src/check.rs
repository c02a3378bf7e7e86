//! What `kpg lesson check` checks in a lesson that reads: that its labs are there and every
//! step's scenario loads, that each exercise is open as written and met by its solution,
//! that every edit finds its text exactly once, and that every Markdown link resolves.
//!
//! Files are the caller's: `load` gets a path (the lesson file's folder joined with what
//! the lesson wrote, `.` and `..` folded) and gives its text, or `None` when there is
//! nothing there. A directory may answer with an empty text: a link to it resolves.

use std::collections::{BTreeMap, BTreeSet};

use kpg_core::catalog::CatalogCache;
use kpg_manifests::Finding;
use kpg_scene::snapshot::clock;

use crate::exercise::{self, Edit, EditError, Exercise};
use crate::markdown::{self, Target};
use crate::model::{Lab, LabSource, Lesson, header_lines, resolve, strip_header};
use crate::play::{self, HORIZON_MS, Refusal};
use crate::problem::{Code, Problem, Spot};

/// Reads a file the lesson names: its path in, its text out (`None`: not there).
pub type Load<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Every problem of `lesson`, in the file's order.
pub fn check(lesson: &Lesson, load: Load) -> Vec<Problem> {
    let mut c = Checker {
        lesson,
        load,
        files: BTreeMap::new(),
        problems: Vec::new(),
        cache: CatalogCache::new(),
        reported: Vec::new(),
        loaded: BTreeSet::new(),
    };
    c.labs();
    c.steps();
    c.links();
    let mut problems = c.problems;
    problems.sort_by_key(|p| (p.line, p.column));
    problems
}

/// The scenario step `index` opens: its lab's text (a file's without its header comment)
/// with the changes of the steps since that lab was named, through this one. `None` when a
/// lab cannot be read or a change does not apply (`check` says which).
pub fn step_scenario(lesson: &Lesson, index: usize, load: Load) -> Option<String> {
    let (_, lab) = lesson.lab_of(index);
    let text = lab_text(lesson, lab, load)?;
    exercise::apply(&text, lesson.changes_of(index)).ok()
}

/// A lab's scenario text, as the page shows it.
pub fn lab_text(lesson: &Lesson, lab: &Lab, load: Load) -> Option<String> {
    match &lab.source {
        LabSource::Inline { text, .. } => Some(text.clone()),
        LabSource::File(path) => {
            load(&resolve(&lesson.file, path)).map(|t| strip_header(&t).to_string())
        }
    }
}

struct Checker<'a> {
    lesson: &'a Lesson,
    load: Load<'a>,
    /// Lab files read, by resolved path.
    files: BTreeMap<String, Option<String>>,
    problems: Vec<Problem>,
    cache: CatalogCache,
    /// Scenario texts already found not to load: a broken lab is reported once, not at
    /// every step that plays it.
    reported: Vec<String>,
    /// Scenario texts that loaded: steps on one lab are started once.
    loaded: BTreeSet<String>,
}

impl Checker<'_> {
    fn push(&mut self, problem: Problem) {
        self.problems.push(problem);
    }

    fn error(&mut self, code: Code, spot: &Spot, message: String, help: &str) {
        let mut p = Problem::error(code, &self.lesson.file, spot, message);
        if !help.is_empty() {
            p = p.help(help);
        }
        self.push(p);
    }

    /// A lab file's whole text (header included), read once.
    fn file(&mut self, path: &str) -> Option<String> {
        let resolved = resolve(&self.lesson.file, path);
        self.files
            .entry(resolved.clone())
            .or_insert_with(|| (self.load)(&resolved))
            .clone()
    }

    /// The labs named: each file must be there.
    fn labs(&mut self) {
        let lesson = self.lesson;
        let labs = std::iter::once(&lesson.lab).chain(
            lesson
                .steps
                .iter()
                .flat_map(|s| s.lab.iter().chain(s.compare.iter())),
        );
        for lab in labs {
            if let LabSource::File(path) = &lab.source
                && self.file(path).is_none()
            {
                let resolved = resolve(&lesson.file, path);
                self.error(
                    Code::Lab,
                    &lab.spot,
                    format!("cannot read the lab {resolved}"),
                    "a lab's path is relative to the lesson file",
                );
            }
        }
    }

    fn lab_text(&mut self, lab: &Lab) -> Option<String> {
        match &lab.source {
            LabSource::Inline { text, .. } => Some(text.clone()),
            LabSource::File(path) => self.file(path).map(|t| strip_header(&t).to_string()),
        }
    }

    fn steps(&mut self) {
        let lesson = self.lesson;
        let mut scenario: Option<String> = None;
        let mut edited = false;
        for (i, step) in lesson.steps.iter().enumerate() {
            if i == 0 || step.lab.is_some() {
                let lab = step.lab.as_ref().unwrap_or(&lesson.lab);
                scenario = self.lab_text(lab);
                edited = false;
            }
            for edit in &step.change {
                let Some(text) = &scenario else { break };
                match exercise::apply_one(text, edit) {
                    Ok(t) => {
                        scenario = Some(t);
                        edited = true;
                    }
                    Err(why) => {
                        self.edit_problem(edit, why, &format!("step `{}`'s scenario", step.id));
                        scenario = None;
                    }
                }
            }
            if let Some(play_to) = step.play_to
                && play_to > HORIZON_MS
            {
                self.error(
                    Code::Field,
                    &step.spot,
                    format!(
                        "step `{}` plays to {}, past the page's 24 hours",
                        step.id,
                        clock(play_to as i64)
                    ),
                    "the page's clock stops at 24h",
                );
            }
            let Some(text) = scenario.clone() else {
                continue;
            };
            let (_, lab) = lesson.lab_of(i);
            let place = match (&step.lab, step.change.first()) {
                (_, Some(edit)) => edit.spot.clone(),
                (Some(lab), None) => lab.spot.clone(),
                (None, None) if i == 0 => lesson.lab.spot.clone(),
                (None, None) => step.spot.clone(),
            };
            let what = format!("step `{}`'s scenario", step.id);
            let lab_origin = (!edited).then_some(lab);
            if !self.loads(&text, &place, &what, lab_origin) {
                continue;
            }
            if let Some(compare) = &step.compare
                && let Some(a) = self.lab_text(compare)
            {
                let what = format!("step `{}`'s comparison (A)", step.id);
                self.loads(&a, &compare.spot.clone(), &what, Some(compare));
            }
            if let Some(ex) = &step.exercise {
                self.exercise(&step.id, ex, &text);
            }
        }
    }

    fn edit_problem(&mut self, edit: &Edit, why: EditError, target: &str) {
        let (message, help) = match why {
            EditError::Missing => (
                format!("`find` is not in {target}"),
                "copy the text to find from the scenario as the step shows it (a lab file's \
                 leading comment is not part of it), spaces and line breaks included",
            ),
            EditError::Repeated(n) => (
                format!("`find` is in {target} {n} times"),
                "take in more of the text around it, so that it occurs once",
            ),
        };
        self.error(Code::Edit, &edit.spot, message, help);
    }

    /// Whether `text` reads without errors and the engine starts it; if not, a problem at
    /// `place` (once per text). `lab` is where the text came from when it is a lab as
    /// written: the first error is then placed in the lab file (or the lesson's inline text).
    fn loads(&mut self, text: &str, place: &Spot, what: &str, lab: Option<&Lab>) -> bool {
        if self.loaded.contains(text) {
            return true;
        }
        let refusal = match play::start(text, &mut self.cache) {
            Ok(_) => {
                self.loaded.insert(text.to_string());
                return true;
            }
            Err(r) => r,
        };
        if self.reported.iter().any(|t| t == text) {
            return false;
        }
        self.reported.push(text.to_string());
        let message = match refusal {
            Refusal::Engine(e) => format!("the engine refuses {what}: {e}"),
            Refusal::Invalid(diagnostics) => {
                let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
                let Some(first) = errors.first() else {
                    return false;
                };
                let at = self.origin_of(first.line, first.column, lab);
                let more = match errors.len() {
                    1 => String::new(),
                    n => format!(" (and {} more)", n - 1),
                };
                // The scenario's finding as `kpg validate` prints it, placed where the
                // lesson's author wrote that line (`at` carries the line and column, so
                // none is added); its help is the check's own, below.
                let place = first.place();
                let finding = Finding {
                    file: &at,
                    line: 0,
                    column: 0,
                    severity: first.severity,
                    code: first.code.as_str(),
                    place: &place,
                    message: &first.message,
                    help: None,
                };
                format!("{what} does not load: {finding}{more}")
            }
        };
        self.error(
            Code::Scenario,
            place,
            message,
            "kpg validate on the scenario lists every problem",
        );
        false
    }

    /// Where a scenario's line is: in the lab file (past the header the page drops), in the
    /// lesson file (an inline block), or in the scenario as the step builds it.
    fn origin_of(&self, line: usize, column: usize, lab: Option<&Lab>) -> String {
        match lab.map(|l| &l.source) {
            Some(LabSource::File(path)) => {
                let resolved = resolve(&self.lesson.file, path);
                let header = self
                    .files
                    .get(&resolved)
                    .and_then(|t| t.as_deref())
                    .map_or(0, header_lines);
                format!("{resolved}:{}:{column}", line + header)
            }
            Some(LabSource::Inline { first_line, .. }) if *first_line > 0 => {
                format!("{}:{}", self.lesson.file, first_line + line - 1)
            }
            Some(LabSource::Inline { .. }) => format!("line {line}:{column} of the inline lab"),
            _ => format!("line {line}:{column} of the scenario with its changes"),
        }
    }

    fn exercise(&mut self, step: &str, ex: &Exercise, text: &str) {
        let solved = match exercise::apply(text, &ex.edits) {
            Ok(t) => Some(t),
            Err((edit, why)) => {
                self.edit_problem(edit, why, &format!("step `{step}`'s scenario"));
                None
            }
        };
        match play::play(ex, text, &mut self.cache) {
            Ok(played) => {
                if let Some(at) = played.met_at {
                    let when = if at == 0 {
                        "from the start".to_string()
                    } else {
                        format!("at {}", clock(at as i64))
                    };
                    self.error(
                        Code::MetAsWritten,
                        &ex.spot,
                        format!(
                            "step `{step}`'s exercise is met {when}, before the learner changes \
                             anything"
                        ),
                        "make a goal ask for what the solution changes, one the scenario as \
                         written misses",
                    );
                }
            }
            // The scenario's own problem is reported by the step.
            Err(_) => return,
        }
        let Some(solved) = solved else { return };
        let place = ex.edits.first().map_or(&ex.spot, |e| &e.spot).clone();
        match play::play(ex, &solved, &mut self.cache) {
            Ok(played) if played.met_at.is_none() => {
                let unmet: Vec<String> = ex
                    .goals
                    .iter()
                    .filter(|g| !g.met(&played.snapshot))
                    .map(|g| g.describe())
                    .collect();
                let unmet = if unmet.is_empty() {
                    "every goal holds there, but only in passing: the goals are judged at rest"
                        .to_string()
                } else {
                    format!("not met: {}", unmet.join("; "))
                };
                self.error(
                    Code::NotSolved,
                    &ex.spot,
                    format!(
                        "step `{step}`'s solution does not meet its goals (played to {}: {unmet})",
                        clock(played.at as i64)
                    ),
                    "run the solved scenario with kpg simulate to see where it ends, then \
                     fix the edits or the goals",
                );
            }
            Ok(_) => {}
            Err(_) => {
                let what = format!("step `{step}`'s solution");
                self.loads(&solved, &place, &what, None);
            }
        }
    }

    /// Every link of every Markdown text.
    fn links(&mut self) {
        let lesson = self.lesson;
        let root = Spot {
            line: 1,
            column: 1,
            path: "summary".into(),
        };
        let mut texts: Vec<(&str, &Spot)> = vec![(lesson.summary.as_str(), &root)];
        for step in &lesson.steps {
            texts.push((step.text.as_str(), &step.text_spot));
            if let Some(ex) = &step.exercise {
                for t in [&ex.task, &ex.hint, &ex.solution] {
                    texts.push((t.as_str(), &ex.spot));
                }
            }
        }
        let ids: Vec<&str> = lesson.steps.iter().map(|s| s.id.as_str()).collect();
        let mut exists = |path: &str| self.file(path).is_some();
        let found = link_problems(&lesson.file, &lesson.source, &texts, &ids, &mut exists);
        self.problems.extend(found);
    }
}

/// The dead links among `texts` (each with the place of its field in `file`, whose text is
/// `source`): a `#id` no step in `ids` has, a relative path `exists` does not find, a web
/// address without a host, a scheme the page does not open.
pub(crate) fn link_problems(
    file: &str,
    source: &str,
    texts: &[(&str, &Spot)],
    ids: &[&str],
    exists: &mut dyn FnMut(&str) -> bool,
) -> Vec<Problem> {
    let mut out = Vec::new();
    for (text, spot) in texts {
        for target in markdown::links(text) {
            let (message, help) = match markdown::classify(&target) {
                Target::Web | Target::Mail => continue,
                Target::Step(id) if ids.contains(&id) => continue,
                Target::Step(id) => (
                    format!("no step has the id `{id}`"),
                    format!("the steps are: {}", ids.join(", ")),
                ),
                Target::File(path) if exists(path) => continue,
                Target::File(path) => (
                    format!("nothing at {}", resolve(file, path)),
                    "a link's path is relative to the lesson file".to_string(),
                ),
                Target::Refused(why) => (why.to_string(), String::new()),
            };
            let at = locate(source, spot, &target);
            let mut p = Problem::error(
                Code::Link,
                file,
                &at,
                format!("dead link `{target}`: {message}"),
            );
            if !help.is_empty() {
                p = p.help(help);
            }
            out.push(p);
        }
    }
    out
}

/// A link's own place in the file: its destination's first occurrence from its field's line
/// on (the field's place when it is not written plainly there).
fn locate(source: &str, spot: &Spot, target: &str) -> Spot {
    let from = spot.line.saturating_sub(1);
    for (n, line) in source.lines().enumerate().skip(from) {
        if let Some(col) = line.find(target) {
            return Spot {
                line: n + 1,
                column: line[..col].chars().count() + 1,
                path: spot.path.clone(),
            };
        }
    }
    spot.clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::read;

    const HELLO: &str = include_str!("../../tests/labs/seed000-hello-world.yaml");

    fn bad_lab() -> String {
        HELLO.replace(
            "operator: In\n          values: [\"amd64\"]",
            "operator: Within\n          values: [\"amd64\"]",
        )
    }

    fn load(path: &str) -> Option<String> {
        match path {
            "labs/hello.yaml" => Some(HELLO.to_string()),
            "labs/bad.yaml" => Some(bad_lab()),
            "lessons/x/notes.md" => Some(String::new()),
            _ => None,
        }
    }

    fn lesson(steps: &str) -> Lesson {
        let text = format!("id: x\ntitle: X\nlab: ../../labs/hello.yaml\nsteps:\n{steps}");
        read("lessons/x/lesson.yaml", &text).unwrap_or_else(|p| panic!("{p:#?}"))
    }

    #[test]
    fn changes_carry_over_until_a_step_names_a_lab() {
        let l = lesson(
            "  - {id: a, title: A, text: x,\n\
             \x20    change: [{find: 'app: hello-world', replace: 'app: hi'}]}\n\
             \x20 - {id: b, title: B, text: x}\n\
             \x20 - {id: c, title: C, text: x, lab: ../../labs/hello.yaml}\n",
        );
        assert!(check(&l, &load).is_empty(), "{:#?}", check(&l, &load));
        let b = step_scenario(&l, 1, &load).expect("b's scenario");
        assert!(b.contains("app: hi") && b.starts_with("apiVersion"), "{b}");
        let c = step_scenario(&l, 2, &load).expect("c's scenario");
        assert!(c.contains("app: hello-world"), "a named lab starts afresh");
    }

    #[test]
    fn a_broken_lab_is_reported_once_and_placed_in_its_file() {
        let l = lesson(
            "  - {id: a, title: A, text: x, lab: ../../labs/bad.yaml}\n\
             \x20 - {id: b, title: B, text: x}\n\
             \x20 - {id: c, title: C, text: x, lab: ../../labs/none.yaml}\n",
        );
        let problems = check(&l, &load);
        let codes: Vec<Code> = problems.iter().map(|p| p.code).collect();
        assert_eq!(codes, [Code::Scenario, Code::Lab], "{problems:#?}");
        let line = bad_lab()
            .lines()
            .position(|l| l.contains("Within"))
            .expect("the bad line")
            + 1;
        let message = &problems[0].message;
        assert!(
            message.starts_with("step `a`'s scenario does not load: labs/bad.yaml:")
                && message.contains(&format!("labs/bad.yaml:{line}:")),
            "{message} (line {line})"
        );
        assert_eq!(
            (problems[0].line, problems[0].path.as_str()),
            (5, "steps[0].lab")
        );
        assert!(
            problems[1]
                .message
                .contains("cannot read the lab labs/none.yaml")
        );
    }

    #[test]
    fn an_inline_labs_problem_is_placed_in_the_lesson_file() {
        let inline = bad_lab()
            .lines()
            .map(|l| format!("        {l}\n"))
            .collect::<String>();
        let l = lesson(&format!(
            "  - id: a\n    title: A\n    text: x\n    lab:\n      inline: |\n{inline}"
        ));
        let problems = check(&l, &load);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        // The inline text starts on the lesson's line 10; the lab's own header is kept.
        let line = 9
            + bad_lab()
                .lines()
                .position(|l| l.contains("Within"))
                .unwrap()
            + 1;
        assert!(
            problems[0]
                .message
                .contains(&format!("lessons/x/lesson.yaml:{line}:")),
            "{:#?} (line {line})",
            problems[0]
        );
    }

    #[test]
    fn an_exercise_already_met_is_found_and_a_solved_one_is_not() {
        let exercise = |goal: &str| {
            lesson(&format!(
                "  - id: a\n    title: A\n    text: x\n    exercise:\n      task: t\n      \
                 edits: [{{find: 'run: nginx', replace: 'run: web'}}]\n      goals: [{goal}]\n"
            ))
        };
        let met = check(&exercise("{nothingPending: true}"), &load);
        assert_eq!(met.len(), 1, "{met:#?}");
        assert_eq!(met[0].code, Code::MetAsWritten);
        let one = check(
            &exercise("{poolNodes: {pool: hello-world, min: 1, max: 1}}"),
            &load,
        );
        assert_eq!(one.len(), 1, "{one:#?}");
        assert_eq!(one[0].code, Code::MetAsWritten, "bounds are inclusive");
        let never = check(&exercise("{poolNodes: {pool: hello-world, min: 3}}"), &load);
        assert_eq!(never.len(), 1, "{never:#?}");
        assert_eq!(never[0].code, Code::NotSolved);
        assert!(
            never[0]
                .message
                .contains("not met: 3+ nodes in pool `hello-world`")
        );
    }

    #[test]
    fn links_resolve_against_the_loader_and_the_steps() {
        let l = lesson(
            "  - id: a\n    title: A\n    text: '[n](notes.md) [b](#b) [c](#c) [m](missing.md)'\n\
             \x20 - {id: b, title: B, text: x}\n",
        );
        let problems = check(&l, &load);
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "dead link `#c`: no step has the id `c`",
                "dead link `missing.md`: nothing at lessons/x/missing.md"
            ]
        );
        assert_eq!((problems[0].line, problems[0].column), (7, 38));
    }
}

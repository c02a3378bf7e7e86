//! A lesson in another language: `lesson.ko.yaml` beside `lesson.yaml`, with the same ids
//! and only text (titles, Markdown, lab names, an exercise's task, hint and solution).
//! What a translation lacks falls back to English, and each fallback is a notice (a
//! warning value, never an error): a lesson half translated still opens.

use kpg_manifests::{Located, LocatedValue};

use crate::check::{Load, link_problems};
use crate::model::{Lab, Lesson};
use crate::problem::{Code, Problem, Spot};
use crate::read::{Fields, Reader, join, spot};

/// The fields a lesson file has that a translation must leave to it.
const ENGLISH_ONLY: &[&str] = &[
    "file", "inline", "change", "playTo", "edits", "goals", "judged",
];

/// The file a translation into `code` has beside the English `file`: `lesson.ko.yaml` beside
/// `lesson.yaml` (a name without `.yaml` gets `.ko` added).
pub fn translation_file(file: &str, code: &str) -> String {
    match file.strip_suffix(".yaml") {
        Some(stem) => format!("{stem}.{code}.yaml"),
        None => format!("{file}.{code}"),
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Translation {
    /// The file as the caller named it (`lessons/hello/lesson.ko.yaml`).
    pub file: String,
    pub source: String,
    /// The lesson it translates, when it says (it must be the English's id).
    pub id: Option<(String, Spot)>,
    pub title: Option<String>,
    pub summary: Option<String>,
    pub lab_name: Option<String>,
    pub steps: Vec<StepText>,
}

/// One step's text in the translation, found by the English step's id.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StepText {
    pub id: String,
    pub spot: Spot,
    pub title: Option<String>,
    pub text: Option<String>,
    pub text_spot: Spot,
    pub lab_name: Option<String>,
    pub compare_name: Option<String>,
    pub task: Option<String>,
    pub hint: Option<String>,
    pub solution: Option<String>,
    pub exercise_spot: Spot,
}

/// Reads a translation file.
pub fn read_translation(file: &str, text: &str) -> Result<Translation, Vec<Problem>> {
    let mut r = Reader::new(file, text);
    let Some(root) = r.document() else {
        return Err(r.problems);
    };
    let translation = translation(&mut r, &root);
    r.problems.sort_by_key(|p| (p.line, p.column));
    match translation {
        Some(t) if r.problems.is_empty() => Ok(t),
        _ => Err(r.problems),
    }
}

/// Reports the fields of `f` that belong to the English file only.
fn english_only(r: &mut Reader, f: &Fields) {
    let LocatedValue::Map(entries) = &f.node.value else {
        return;
    };
    for (key, _) in entries {
        let name = key.scalar_text().unwrap_or_default();
        if ENGLISH_ONLY.contains(&name.as_str()) {
            r.error(
                key,
                &join(&f.path, &name),
                format!("`{name}` is not translated"),
                "a translation holds only text (titles, text, names, task, hint, solution): \
                 keep it in lesson.yaml",
            );
        }
    }
}

/// A translated lab: only its `name`.
fn lab_name(r: &mut Reader, node: &Located, path: &str) -> Option<String> {
    let f = r.fields(node, path, "a translated lab", &["name", "file", "inline"])?;
    english_only(r, &f);
    r.text(&f, "name", false)
}

fn translation(r: &mut Reader, root: &Located) -> Option<Translation> {
    let f = r.fields(
        root,
        "",
        "a translation",
        &["id", "title", "summary", "lab", "steps"],
    )?;
    let id = f
        .get("id")
        .and_then(|n| n.scalar_text().map(|t| (t, spot(n, "id"))));
    let title = r.text(&f, "title", false);
    let summary = r.text(&f, "summary", false);
    let lab = f.get("lab").and_then(|n| lab_name(r, n, "lab"));
    let mut steps = Vec::new();
    if let Some(node) = f.get("steps") {
        let LocatedValue::Seq(items) = &node.value else {
            r.error(
                node,
                "steps",
                format!("`steps` is a list, found {}", node.type_name()),
                "write each step as `- id: ...` with the English step's id",
            );
            return None;
        };
        for (i, item) in items.iter().enumerate() {
            if let Some(step) = step_text(r, item, &format!("steps[{i}]")) {
                steps.push(step);
            }
        }
    }
    Some(Translation {
        file: r.file.to_string(),
        source: r.source.to_string(),
        id,
        title,
        summary,
        lab_name: lab,
        steps,
    })
}

fn step_text(r: &mut Reader, node: &Located, path: &str) -> Option<StepText> {
    let known = [
        "id", "title", "text", "lab", "compare", "exercise", "change", "playTo",
    ];
    let f = r.fields(node, path, "a translated step", &known)?;
    english_only(r, &f);
    let id = r.text(&f, "id", true)?;
    let mut step = StepText {
        spot: spot(f.get("id").unwrap_or(node), path),
        id,
        title: r.text(&f, "title", false),
        text: r.text(&f, "text", false),
        text_spot: spot(f.get("text").unwrap_or(node), &f.path("text")),
        lab_name: f.get("lab").and_then(|n| lab_name(r, n, &f.path("lab"))),
        compare_name: f
            .get("compare")
            .and_then(|n| lab_name(r, n, &f.path("compare"))),
        ..StepText::default()
    };
    if let Some(ex) = f.get("exercise") {
        let path = f.path("exercise");
        let known = ["task", "hint", "solution", "edits", "goals", "judged"];
        if let Some(e) = r.fields(ex, &path, "a translated exercise", &known) {
            english_only(r, &e);
            step.task = r.text(&e, "task", false);
            step.hint = r.text(&e, "hint", false);
            step.solution = r.text(&e, "solution", false);
            step.exercise_spot = spot(ex, &path);
        }
    }
    Some(step)
}

/// What is wrong with `translation` of `lesson`: another lesson's id, a step the English
/// lacks, a step twice, a dead link in its own text.
pub fn check_translation(lesson: &Lesson, translation: &Translation, load: Load) -> Vec<Problem> {
    let file = translation.file.as_str();
    let mut out = Vec::new();
    if let Some((id, at)) = &translation.id
        && *id != lesson.id
    {
        out.push(
            Problem::error(
                Code::Translation,
                file,
                at,
                format!(
                    "this translates lesson `{id}`, but the English is `{}`",
                    lesson.id
                ),
            )
            .help("a translation sits beside its lesson.yaml and has its id"),
        );
    }
    for (i, step) in translation.steps.iter().enumerate() {
        if lesson.step(&step.id).is_none() {
            let ids: Vec<&str> = lesson.steps.iter().map(|s| s.id.as_str()).collect();
            out.push(
                Problem::error(
                    Code::Translation,
                    file,
                    &step.spot,
                    format!("the English lesson has no step `{}`", step.id),
                )
                .help(format!("translate the English's steps: {}", ids.join(", "))),
            );
        }
        if translation.steps[..i].iter().any(|s| s.id == step.id) {
            out.push(Problem::error(
                Code::Translation,
                file,
                &step.spot,
                format!("step `{}` is translated twice", step.id),
            ));
        }
    }
    let mut texts: Vec<(&str, &Spot)> = Vec::new();
    for step in &translation.steps {
        if let Some(t) = &step.text {
            texts.push((t, &step.text_spot));
        }
        for t in [&step.task, &step.hint, &step.solution]
            .into_iter()
            .flatten()
        {
            texts.push((t, &step.exercise_spot));
        }
    }
    let ids: Vec<&str> = lesson.steps.iter().map(|s| s.id.as_str()).collect();
    let mut exists = |path: &str| load(&crate::model::resolve(file, path)).is_some();
    out.extend(link_problems(
        file,
        &translation.source,
        &texts,
        &ids,
        &mut exists,
    ));
    out.sort_by_key(|p| (p.line, p.column));
    out
}

/// `lesson` in the translation's words, and a notice (a warning) for each text that falls
/// back to English.
pub fn localize(lesson: &Lesson, translation: &Translation) -> (Lesson, Vec<Problem>) {
    let mut out = lesson.clone();
    let mut notices = Vec::new();
    let file = translation.file.as_str();
    let whole = Spot::default();
    let mut fall_back = |at: &Spot, path: String| {
        notices.push(Problem::warning(
            Code::Untranslated,
            file,
            &Spot { path, ..at.clone() },
            "not translated: the English is shown",
        ));
    };
    take(&mut out.title, &translation.title, || {
        fall_back(&whole, "title".into())
    });
    if !lesson.summary.is_empty() {
        take(&mut out.summary, &translation.summary, || {
            fall_back(&whole, "summary".into())
        });
    }
    name(&mut out.lab, &translation.lab_name, || {
        fall_back(&whole, "lab.name".into())
    });
    for step in &mut out.steps {
        let Some(t) = translation.steps.iter().find(|t| t.id == step.id) else {
            fall_back(&whole, format!("steps[{}]", step.id));
            continue;
        };
        let id = step.id.clone();
        let path = |field: &str| format!("steps[{id}].{field}");
        let (title, text) = (path("title"), path("text"));
        take(&mut step.title, &t.title, || fall_back(&t.spot, title));
        take(&mut step.text, &t.text, || fall_back(&t.spot, text));
        let (lab, compare) = (path("lab.name"), path("compare.name"));
        if let Some(l) = &mut step.lab {
            name(l, &t.lab_name, || fall_back(&t.spot, lab));
        }
        if let Some(l) = &mut step.compare {
            name(l, &t.compare_name, || fall_back(&t.spot, compare));
        }
        if let Some(ex) = &mut step.exercise {
            let fields = [
                (&mut ex.task, &t.task, "task"),
                (&mut ex.hint, &t.hint, "hint"),
                (&mut ex.solution, &t.solution, "solution"),
            ];
            for (english, translated, field) in fields {
                if english.is_empty() {
                    continue;
                }
                let p = format!("steps[{}].exercise.{field}", t.id);
                take(english, translated, || fall_back(&t.spot, p));
            }
        }
    }
    (out, notices)
}

/// The translated text in place of the English, or the English kept and `missing` told.
fn take(english: &mut String, translated: &Option<String>, missing: impl FnOnce()) {
    match translated {
        Some(t) => *english = t.clone(),
        None => missing(),
    }
}

/// A lab's translated name, when the English names it.
fn name(lab: &mut Lab, translated: &Option<String>, missing: impl FnOnce()) {
    if lab.name.is_none() {
        return;
    }
    match translated {
        Some(t) => lab.name = Some(t.clone()),
        None => missing(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::read;

    const EN: &str = "\
id: two
title: Two steps
summary: A lesson.
lab: {file: lab.yaml, name: The lab}
steps:
  - id: first
    title: First
    text: See [the second](#second).
  - id: second
    title: Second
    text: Done.
    exercise:
      task: Do it.
      hint: Think.
      edits: [{find: a, replace: b}]
      goals: [{nothingPending: true}]
";

    #[test]
    fn what_a_translation_lacks_falls_back_with_a_notice() {
        let lesson = read("l/lesson.yaml", EN).unwrap();
        let ko = "id: two\ntitle: 두 단계\nsteps:\n  - id: first\n    title: 첫째\n    text: \
                  '[둘째](#second)를 보세요.'\n";
        let t = read_translation("l/lesson.ko.yaml", ko).unwrap();
        assert!(check_translation(&lesson, &t, &|_| None).is_empty());
        let (local, notices) = localize(&lesson, &t);
        assert_eq!(local.title, "두 단계");
        assert_eq!(local.steps[0].title, "첫째");
        assert_eq!(local.steps[1].title, "Second", "falls back");
        let paths: Vec<&str> = notices.iter().map(|n| n.path.as_str()).collect();
        assert_eq!(paths, ["summary", "lab.name", "steps[second]"]);
        assert!(notices.iter().all(|n| !n.is_error()));
    }

    #[test]
    fn a_translation_names_only_the_englishs_steps_and_only_text() {
        let lesson = read("l/lesson.yaml", EN).unwrap();
        let ko = "id: other\nsteps:\n  - id: third\n    title: 셋째\n  - id: first\n    \
                  text: '[x](#nowhere)'\n";
        let t = read_translation("l/lesson.ko.yaml", ko).unwrap();
        let problems = check_translation(&lesson, &t, &|_| None);
        let found: Vec<(usize, Code)> = problems.iter().map(|p| (p.line, p.code)).collect();
        assert_eq!(
            found,
            [
                (1, Code::Translation),
                (3, Code::Translation),
                (6, Code::Link)
            ],
            "{problems:#?}"
        );
        let goals = "steps:\n  - id: second\n    exercise:\n      goals: []\n";
        let refused = read_translation("l/lesson.ko.yaml", goals).unwrap_err();
        assert!(
            refused[0].message.contains("`goals` is not translated"),
            "{refused:#?}"
        );
        assert_eq!(
            (refused[0].line, refused[0].path.as_str()),
            (4, "steps[0].exercise.goals")
        );
    }
}

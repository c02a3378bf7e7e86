//! The page's Korean keeps to the product's glossary, [`kpg_manifests::glossary`]: one Korean
//! term per concept (가용 영역 for a zone, 인스턴스 유형 for an instance type, ...) wherever the
//! page shows it. The glossary lives with the reader, the lowest crate that writes Korean and
//! one every Korean-writing crate reaches; each crate's tests walk the Korean it can show. The
//! page's are here: every [`T`](crate::base::i18n::T) label, every lesson, exercise and lab
//! name, and every Korean string in the page's source (the chart's tips, the goals' checklist,
//! ...).
//! The explanations the page draws are `kpg-explain`'s, checked by its own tests on every lab.

use kpg_manifests::glossary::violations;

use crate::base::i18n::{ALL, Lang};
use crate::lessons;

fn check(what: &str, text: &str, failures: &mut Vec<String>) {
    for v in violations(text) {
        failures.push(format!("{what}: {v} in {text:?}"));
    }
}

#[test]
fn i18n_lists_every_label() {
    let source = include_str!("../base/i18n.rs");
    let start = source.find("pub enum T {").expect("the enum");
    let body = &source[start..];
    let body = &body[..body.find('}').expect("its end")];
    let variants = body
        .lines()
        .skip(1)
        .filter(|l| l.trim().ends_with(','))
        .count();
    assert!(variants > 100, "{variants}");
    assert_eq!(ALL.len(), variants, "i18n::ALL misses a variant of T");
}

#[test]
fn every_label_keeps_to_the_glossary() {
    let mut failures = Vec::new();
    for t in ALL {
        check(&format!("T::{t:?}"), t.ko(), &mut failures);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_lesson_keeps_to_the_glossary() {
    use kpg_lesson::rich_text::plain;
    let mut failures = Vec::new();
    let lessons = lessons::all(Lang::Ko);
    assert!(lessons.len() > 10, "{}", lessons.len());
    for lesson in lessons {
        check(
            &format!("{}: title", lesson.id),
            &lesson.title,
            &mut failures,
        );
        check(
            &format!("{}: summary", lesson.id),
            &lesson.summary,
            &mut failures,
        );
        for step in &lesson.steps {
            let at = format!("{} step {}", lesson.id, step.id);
            check(&format!("{at}: title"), &step.title, &mut failures);
            check(&format!("{at}: text"), &plain(&step.text), &mut failures);
            check(&format!("{at}: lab"), &step.lab_name, &mut failures);
            if let Some(e) = &step.exercise {
                let texts = [
                    ("task", &e.task),
                    ("hint", &e.hint),
                    ("solution", &e.solution),
                ];
                for (what, text) in texts {
                    check(&format!("{at}: {what}"), &plain(text), &mut failures);
                }
                for goal in &e.goal_texts {
                    check(&format!("{at}: goal"), &plain(goal), &mut failures);
                }
            }
        }
    }
    failures.dedup();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_korean_string_in_the_page_source_keeps_to_the_glossary() {
    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("the source")
            .map(|e| e.expect("an entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 30, "{files:?}");
    let mut failures = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file");
        let name = file
            .strip_prefix(&src)
            .unwrap_or(&file)
            .display()
            .to_string();
        failures.extend(kpg_manifests::glossary::check_source(&name, &text));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The example lesson that ships beside the page (`web/embed/what-spot-saves/`, read by an
/// article) keeps to the glossary too.
#[test]
fn the_example_lessons_korean_keeps_to_the_glossary() {
    let text = include_str!("../../embed/what-spot-saves/lesson.ko.yaml");
    let mut failures = Vec::new();
    for (i, line) in text.lines().enumerate() {
        check(&format!("lesson.ko.yaml:{}", i + 1), line, &mut failures);
    }
    assert!(text.contains("스팟"), "the file is the example's");
    assert!(failures.is_empty(), "{failures:#?}");
}

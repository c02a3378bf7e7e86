//! The lesson files (`lessons/<id>/lesson.yaml` and `lesson.ko.yaml`) say what the page's
//! own lessons (`web/src/lessons.rs`) say: the same titles and text in both languages, the
//! same labs, comparisons and exercises. It guards the conversion until the page reads the
//! files; then `web/src/lessons.rs`, and this test, go.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use kpg_web::exercise::{Goal as PageGoal, Judged as PageJudged};
use kpg_web::i18n::Lang;
use kpg_web::lessons::LESSONS;

fn root() -> PathBuf {
    let web = Path::new(env!("CARGO_MANIFEST_DIR"));
    web.parent().unwrap_or(web).to_path_buf()
}

fn load(path: &str) -> Option<String> {
    std::fs::read_to_string(root().join(path)).ok()
}

fn goal(g: &PageGoal) -> kpg_lesson::Goal {
    use kpg_lesson::Goal;
    match *g {
        PageGoal::NothingPending => Goal::NothingPending,
        PageGoal::Running { workload, at_least } => Goal::Running {
            workload: workload.into(),
            at_least,
        },
        PageGoal::RunsOn { workload, pool } => Goal::RunsOn {
            workload: workload.into(),
            pool: pool.into(),
        },
        PageGoal::PoolNodes { pool, min, max } => Goal::PoolNodes {
            pool: pool.into(),
            min,
            max,
        },
        PageGoal::LimitAtMost {
            pool,
            resource,
            limit,
        } => Goal::LimitAtMost {
            pool: pool.into(),
            resource: resource.into(),
            limit,
        },
        PageGoal::CostBelow(micro) => Goal::CostBelow(micro),
    }
}

#[test]
fn the_lesson_files_say_what_the_page_says() {
    for page in LESSONS {
        let file = format!("lessons/{}/lesson.yaml", page.id);
        let ko_file = format!("lessons/{}/lesson.ko.yaml", page.id);
        let en = kpg_lesson::read(&file, &load(&file).expect("the lesson file"))
            .unwrap_or_else(|p| panic!("{file}: {p:#?}"));
        let tr = kpg_lesson::read_translation(&ko_file, &load(&ko_file).expect("its translation"))
            .unwrap_or_else(|p| panic!("{ko_file}: {p:#?}"));
        let (ko, notices) = kpg_lesson::localize(&en, &tr);
        assert!(notices.is_empty(), "{notices:#?}");
        let id = page.id;
        assert_eq!(
            (en.title.as_str(), ko.title.as_str()),
            (page.title.en, page.title.ko)
        );
        assert_eq!(
            (en.summary.as_str(), ko.summary.as_str()),
            (page.summary.en, page.summary.ko),
            "{id}"
        );
        assert_eq!(
            en.steps.len(),
            page.steps.len(),
            "{id}: the number of steps"
        );
        for (i, ((e, k), p)) in en.steps.iter().zip(&ko.steps).zip(page.steps).enumerate() {
            let at = format!("{id}, step {}", i + 1);
            assert_eq!(
                (e.title.as_str(), k.title.as_str()),
                (p.title.en, p.title.ko),
                "{at}"
            );
            assert_eq!(
                (e.text.as_str(), k.text.as_str()),
                (p.body.en, p.body.ko),
                "{at}"
            );
            let (_, lab) = en.lab_of(i);
            let (_, ko_lab) = ko.lab_of(i);
            let text = kpg_lesson::lab_text(&en, lab, &load).expect("the lab");
            assert_eq!(text, p.lab.text(), "{at}: the lab");
            assert_eq!(lab.name.as_deref(), Some(p.lab.name(Lang::En)), "{at}");
            assert_eq!(ko_lab.name.as_deref(), Some(p.lab.name(Lang::Ko)), "{at}");
            assert!(e.change.is_empty(), "{at}: the page's steps change nothing");
            match (&e.compare, p.compare) {
                (None, None) => {}
                (Some(a), Some(page_a)) => {
                    let text = kpg_lesson::lab_text(&en, a, &load).expect("the compared lab");
                    assert_eq!(text, page_a.text(), "{at}: the comparison");
                    assert_eq!(a.name.as_deref(), Some(page_a.name(Lang::En)), "{at}");
                    let ko_a = k.compare.as_ref().and_then(|c| c.name.as_deref());
                    assert_eq!(ko_a, Some(page_a.name(Lang::Ko)), "{at}");
                }
                other => panic!("{at}: the comparison differs: {other:?}"),
            }
            match (&e.exercise, p.exercise) {
                (None, None) => {}
                (Some(ex), Some(page_ex)) => {
                    let kx = k.exercise.as_ref().expect("the same exercise");
                    for (en_text, ko_text, page_text) in [
                        (&ex.task, &kx.task, &page_ex.task),
                        (&ex.hint, &kx.hint, &page_ex.hint),
                        (&ex.solution, &kx.solution, &page_ex.solution),
                    ] {
                        assert_eq!(
                            (en_text.as_str(), ko_text.as_str()),
                            (page_text.en, page_text.ko),
                            "{at}"
                        );
                    }
                    let edits: Vec<(&str, &str)> = ex
                        .edits
                        .iter()
                        .map(|e| (e.find.as_str(), e.replace.as_str()))
                        .collect();
                    assert_eq!(edits, page_ex.edits, "{at}: the solution's edits");
                    let goals: Vec<kpg_lesson::Goal> = page_ex.goals.iter().map(goal).collect();
                    assert_eq!(ex.goals, goals, "{at}: the goals");
                    let judged = match page_ex.judged {
                        PageJudged::AtRest => kpg_lesson::Judged::AtRest,
                        PageJudged::AnyInstant => kpg_lesson::Judged::AnyInstant,
                    };
                    assert_eq!(ex.judged, judged, "{at}");
                }
                other => panic!("{at}: the exercise differs: {}", other.0.is_some()),
            }
        }
    }
    let folders = std::fs::read_dir(root().join("lessons"))
        .expect("lessons/")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("lesson.yaml").is_file())
        .count();
    assert_eq!(
        folders,
        LESSONS.len(),
        "a lesson file for each of the page's lessons"
    );
}

//! `kpg lesson check` through the binary: the shipped lessons pass, and each kind of mistake
//! in `tests/lessons/` is found and placed (file, line, column, field path).

mod common;

use common::{kpg_at_root, kpg_stdin, stderr, stdout, workspace};

/// Checks the fixture `tests/lessons/NAME`: it fails, and its report is `lines` (each
/// problem's first line, in order) and the count.
fn fails_with(name: &str, lines: &[&str]) -> String {
    let out = kpg_at_root(&["lesson", "check", &format!("tests/lessons/{name}")]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let firsts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("tests/lessons/"))
        .collect();
    assert_eq!(firsts.len(), lines.len(), "{text}");
    for (got, want) in firsts.iter().zip(lines) {
        assert!(
            got.starts_with(want),
            "expected\n  {want}\ngot\n  {got}\nin\n{text}"
        );
    }
    text
}

#[test]
fn every_shipped_lesson_passes() {
    let out = kpg_at_root(&["lesson", "check", "lessons/"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert_eq!(text, "13 lessons checked: 0 errors, 0 warnings\n");
    // One lesson by its folder, and by its file.
    for path in ["lessons/drift", "lessons/drift/lesson.yaml"] {
        let one = kpg_at_root(&["lesson", "check", path]);
        assert_eq!(stdout(&one), "1 lesson checked: 0 errors, 0 warnings\n");
    }
}

#[test]
fn a_change_that_breaks_the_scenario_is_placed_on_the_change() {
    let text = fails_with(
        "broken-scenario",
        &[
            "tests/lessons/broken-scenario/lesson.yaml:13:9: error[lesson-scenario]: \
           steps[1].change[0]: step `broken`'s scenario does not load: line ",
        ],
    );
    // The scenario's own finding, as `kpg validate` would print it, placed in the scenario.
    assert!(
        text.contains(
            "of the scenario with its changes: error[invalid-choice]: NodePool/hello-world \
             spec.template.spec.requirements[0].operator: `Within` is not a valid operator"
        ),
        "{text}"
    );
    assert!(text.contains("help: kpg validate"), "{text}");
}

/// A problem line cut at `": "`: where (`FILE:LINE:COL`), what (`error[code]`), the place
/// and the message; `None` when the line is not in that shape.
fn shape(line: &str) -> Option<(&str, &str, &str, &str)> {
    let mut parts = line.splitn(4, ": ");
    let (at, what, place, message) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let mut at_parts = at.rsplitn(3, ':');
    let column = at_parts.next()?;
    let row = at_parts.next()?;
    let numbers = [column, row]
        .iter()
        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let code = what.strip_prefix("error[")?.strip_suffix(']')?;
    let code_ok = !code.is_empty() && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
    (numbers && code_ok && at_parts.next().is_some()).then_some((at, what, place, message))
}

#[test]
fn a_lesson_problem_prints_as_validate_prints_a_scenario_finding() {
    let scenario = "\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: a}
spec:
  limits: {cpu: 12Gib}
  template: {spec: {nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: x}}}
";
    let validated = stdout(&kpg_stdin(&["validate", "-"], scenario.as_bytes()));
    let finding = validated.lines().next().unwrap_or_default();
    assert_eq!(
        shape(finding).map(|(at, what, place, _)| (at, what, place)),
        Some((
            "<stdin>:5:17",
            "error[invalid-quantity]",
            "NodePool/a spec.limits.cpu"
        )),
        "{validated}"
    );
    let checked = stdout(&kpg_at_root(&[
        "lesson",
        "check",
        "tests/lessons/bad-field",
    ]));
    let problem = checked.lines().next().unwrap_or_default();
    assert_eq!(
        shape(problem).map(|(at, what, place, _)| (at, what, place)),
        Some((
            "tests/lessons/bad-field/lesson.yaml:6:5",
            "error[lesson-field]",
            "steps[0]"
        )),
        "{checked}"
    );
}

#[test]
fn an_exercise_met_as_written_is_found() {
    fails_with(
        "met-as-written",
        &[
            "tests/lessons/met-as-written/lesson.yaml:10:7: error[exercise-met-as-written]: \
           steps[0].exercise: step `run-nginx`'s exercise is met at 1:20, before the learner \
           changes anything",
        ],
    );
}

#[test]
fn a_solution_that_does_not_meet_its_goals_says_which_goal() {
    let text = fails_with(
        "not-solved",
        &[
            "tests/lessons/not-solved/lesson.yaml:10:7: error[exercise-not-solved]: \
           steps[0].exercise: step `two-nodes`'s solution does not meet its goals (played to ",
        ],
    );
    assert!(
        text.contains("not met: 2+ nodes in pool `hello-world`)"),
        "{text}"
    );
}

#[test]
fn dead_links_are_placed_on_their_own_line() {
    let text = fails_with(
        "dead-link",
        &[
            "tests/lessons/dead-link/lesson.yaml:12:23: error[lesson-link]: steps[0].text: \
             dead link `../../labs/no-such-lab.yaml`: nothing at tests/labs/no-such-lab.yaml",
            "tests/lessons/dead-link/lesson.yaml:12:79: error[lesson-link]: steps[0].text: \
             dead link `#later`: no step has the id `later`",
            "tests/lessons/dead-link/lesson.yaml:13:18: error[lesson-link]: steps[0].text: \
             dead link `javascript:alert(1)`: the page opens only http(s) links",
        ],
    );
    assert!(text.contains("help: the steps are: links, next"), "{text}");
}

#[test]
fn a_bad_field_has_its_line_column_and_a_suggestion() {
    let text = fails_with(
        "bad-field",
        &[
            "tests/lessons/bad-field/lesson.yaml:6:5: error[lesson-field]: steps[0]: `title` is \
             missing",
            "tests/lessons/bad-field/lesson.yaml:7:5: error[lesson-field]: steps[0].titel: \
             `titel` is not a field of a step",
            "tests/lessons/bad-field/lesson.yaml:9:13: error[lesson-field]: steps[0].playTo: \
             \"soon\" is not a valid duration",
        ],
    );
    assert!(text.contains("help: did you mean `title`?"), "{text}");
}

#[test]
fn edits_must_find_their_text_exactly_once() {
    fails_with(
        "edit-not-once",
        &[
            "tests/lessons/edit-not-once/lesson.yaml:10:9: error[lesson-edit]: \
             steps[0].change[0]: `find` is in step `twice`'s scenario 2 times",
            "tests/lessons/edit-not-once/lesson.yaml:19:11: error[lesson-edit]: \
             steps[1].exercise.edits[0]: `find` is not in step `missing`'s scenario",
        ],
    );
}

#[test]
fn a_translation_names_only_the_englishs_steps_and_falls_back_with_a_warning() {
    let text = fails_with(
        "bad-translation",
        &[
            "tests/lessons/bad-translation/lesson.ko.yaml:8:9: error[lesson-translation]: \
             steps[1]: the English lesson has no step `third`",
            "tests/lessons/bad-translation/lesson.ko.yaml: warning[lesson-untranslated]: \
             steps[second]: not translated: the English is shown",
        ],
    );
    assert!(
        text.ends_with("1 lesson checked: 1 error, 1 warning\n"),
        "{text}"
    );
}

#[test]
fn a_lessons_folder_is_named_after_its_id() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lesson-renamed");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let lab = common::lab("seed000-hello-world.yaml");
    let lesson = format!(
        "id: hello\ntitle: T\nlab: {}\nsteps:\n  - {{id: a, title: A, text: x}}\n",
        lab.display()
    );
    std::fs::write(dir.join("lesson.yaml"), lesson).expect("written");
    let out = kpg_at_root(&["lesson", "check", &dir.display().to_string()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(
            "lesson.yaml:1:1: error[lesson-field]: id: the lesson's id is `hello` but its folder \
             is `lesson-renamed`"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_path_without_lessons_is_refused() {
    let out = kpg_at_root(&["lesson", "check", "tests/labs"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("tests/labs holds no lesson"),
        "{}",
        stderr(&out)
    );
    let missing = kpg_at_root(&["lesson", "check", "no/such/place"]);
    assert_eq!(missing.status.code(), Some(1));
    let usage = kpg_at_root(&["lesson", "check"]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(stderr(&usage).contains("Usage: kpg lesson check PATH"));
}

/// `kpg lesson link`: the link carries the lesson, its Korean file and its lab, opens at the
/// first step's scenario, and reads again as the page's lesson reader reads it.
#[test]
fn a_lesson_link_carries_the_lesson_whole() {
    let out = kpg_at_root(&[
        "lesson",
        "link",
        "web/embed/what-spot-saves",
        "--base",
        "https://example.com/kpg",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let link = stdout(&out);
    let fragment = link
        .trim_end()
        .strip_prefix("https://example.com/kpg/#")
        .expect("the playground's address, then the fragment");
    let shared = kpg_share::decode(fragment).expect("the link opens");
    assert_eq!(shared.lesson.as_deref(), Some("what-spot-saves"));
    let files = shared.lesson_files.expect("the lesson's files");
    assert_eq!(files.file, "web/embed/what-spot-saves/lesson.yaml");
    assert!(files.translations["ko"].contains("스팟 허용하기"));
    let lab = std::fs::read_to_string(workspace().join("web/embed/what-spot-saves/labs/web.yaml"))
        .unwrap();
    assert_eq!(
        files.labs.get("web/embed/what-spot-saves/labs/web.yaml"),
        Some(&lab)
    );
    assert!(shared.docs.iter().any(|d| d.contains("name: web")));
    assert!(shared.figure.is_some(), "a first frame to draw");
    // The page reads what the link carries with nothing more to fetch.
    let request = kpg_lesson::prepared::ReadRequest {
        file: files.file,
        text: files.text,
        translations: files.translations,
        files: files
            .labs
            .into_iter()
            .map(|(path, text)| (path, Some(text)))
            .collect(),
        base: files.base,
    };
    match kpg_lesson::prepared::answer(&request) {
        kpg_lesson::prepared::ReadReply::Prepared(bundle) => {
            assert_eq!(bundle.lessons[0].english.title, "What spot saves");
            assert_eq!(
                bundle.lessons[0].translations["ko"].title,
                "스팟으로 아끼는 만큼"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// A lesson with errors gets no link, and says why; a folder of lessons is not one lesson.
#[test]
fn a_lesson_link_needs_one_lesson_that_checks() {
    let out = kpg_at_root(&["lesson", "link", "tests/lessons/broken-scenario"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "", "no link");
    let why = stderr(&out);
    assert!(why.contains("error[lesson-scenario]"), "{why}");
    assert!(
        why.ends_with("kpg: no link: the lesson has errors\n"),
        "{why}"
    );
    let out = kpg_at_root(&["lesson", "link", "lessons/"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("a link carries one"),
        "{}",
        stderr(&out)
    );
}

//! `kpg lesson check PATH`: finds the lessons under PATH, reads their files, and prints what
//! `kpg_lesson` finds wrong with each, located as `kpg validate` locates a scenario's
//! problems. The checks themselves are `kpg_lesson`'s; this is the part that touches files.
//!
//! `kpg lesson link PATH`: the same check, then the lesson read as the page's lesson reader
//! reads it ([`kpg_lesson::prepared::answer`], given the files it asks for), and the share
//! link that carries those files.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use kpg_lesson::prepared::{ReadReply, ReadRequest};
use kpg_lesson::{Code, Problem, Spot};

use crate::{EXIT_FAILURE, EXIT_OK, emit};

/// The English lesson file of a folder.
const LESSON_FILE: &str = "lesson.yaml";

/// Checks every lesson under `path` and prints the problems and a count on stdout.
pub fn run_check(path: &Path, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let files = match lesson_files(path) {
        Ok(files) if files.is_empty() => {
            let _ = writeln!(
                stderr,
                "kpg: {} holds no lesson (no {LESSON_FILE} in it or in its folders)",
                path.display()
            );
            return EXIT_FAILURE;
        }
        Ok(files) => files,
        Err(message) => {
            let _ = writeln!(stderr, "kpg: {message}");
            return EXIT_FAILURE;
        }
    };
    let mut problems = Vec::new();
    for file in &files {
        problems.extend(check_lesson(file));
    }
    let mut out = String::new();
    for p in &problems {
        out.push_str(&p.to_string());
        out.push('\n');
    }
    let errors = problems.iter().filter(|p| p.is_error()).count();
    let warnings = problems.len() - errors;
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    out.push_str(&format!(
        "{} checked: {}, {}\n",
        plural(files.len(), "lesson"),
        plural(errors, "error"),
        plural(warnings, "warning")
    ));
    let status = emit(stdout, stderr, &out);
    if status != EXIT_OK {
        return status;
    }
    if errors > 0 { EXIT_FAILURE } else { EXIT_OK }
}

/// Prints the share link that carries the lesson at `path` (its folder or its file): checked
/// first, then read as the page will read it, so that a link this prints opens.
pub fn run_link(path: &Path, base: &str, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let english = match lesson_files(path) {
        Ok(files) if files.len() == 1 => files.into_iter().next().unwrap_or_default(),
        Ok(files) if files.is_empty() => {
            let _ = writeln!(
                stderr,
                "kpg: {} holds no lesson (no {LESSON_FILE} in it)",
                path.display()
            );
            return EXIT_FAILURE;
        }
        Ok(files) => {
            let _ = writeln!(
                stderr,
                "kpg: {} holds {} lessons: a link carries one, so name its folder",
                path.display(),
                files.len()
            );
            return EXIT_FAILURE;
        }
        Err(message) => {
            let _ = writeln!(stderr, "kpg: {message}");
            return EXIT_FAILURE;
        }
    };
    let problems = check_lesson(&english);
    for p in &problems {
        let _ = writeln!(stderr, "{p}");
    }
    if problems.iter().any(Problem::is_error) {
        let _ = writeln!(stderr, "kpg: no link: the lesson has errors");
        return EXIT_FAILURE;
    }
    match link_of(&english, base) {
        Ok(link) => {
            if link.len() > kpg_share::LONG_LINK_CHARS {
                let _ = writeln!(
                    stderr,
                    "kpg: the link is {} characters long: chat tools and issue trackers may \
                     cut it; an article that embeds the lesson (data-lesson) is the better way",
                    link.len()
                );
            }
            emit(stdout, stderr, &format!("{link}\n"))
        }
        Err(problems) => {
            for p in problems {
                let _ = writeln!(stderr, "{p}");
            }
            EXIT_FAILURE
        }
    }
}

/// The link: the lesson read as the page's reader reads it, with the files it asks for, and
/// its first step's scenario as the link's manifests, drawn for the link's first frame.
fn link_of(english: &Path, base: &str) -> Result<String, Vec<String>> {
    let file = name_of(english);
    let text = load(&file).ok_or_else(|| vec![unreadable(&file).to_string()])?;
    let translations: BTreeMap<String, String> = translations_of(english)
        .into_iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            let code = name.strip_suffix(".yaml")?.rsplit_once('.')?.1.to_string();
            Some((code, load(&name_of(&p))?))
        })
        .collect();
    let mut request = ReadRequest {
        file,
        text,
        translations,
        ..ReadRequest::default()
    };
    // The reader names every lab file at once; a second round is the last.
    let bundle = loop {
        match kpg_lesson::prepared::answer(&request) {
            ReadReply::Prepared(bundle) => break bundle,
            ReadReply::Needs(paths) if paths.iter().all(|p| !request.files.contains_key(p)) => {
                for path in paths {
                    let text = load(&path);
                    request.files.insert(path, text);
                }
            }
            ReadReply::Needs(paths) => {
                return Err(vec![format!("the lesson reader asked again for {paths:?}")]);
            }
            ReadReply::Problems(problems) => return Err(problems),
        }
    };
    let lesson = bundle
        .lessons
        .first()
        .map(|l| &l.english)
        .ok_or_else(|| vec!["the lesson reader found no lesson".to_string()])?;
    let first = lesson
        .steps
        .first()
        .and_then(|s| s.scenario.as_deref())
        .and_then(|key| bundle.scenario(key))
        .unwrap_or_default();
    let mut shared = kpg_share::from_stream(first, 0);
    shared.lesson = Some(lesson.id.clone());
    shared.lesson_files = Some(kpg_share::LessonFiles::of(&request));
    let loaded = kpg_manifests::load(first);
    if let Ok(sim) = kpg_core::sim::Simulation::new(loaded.scenario) {
        let snapshot = kpg_scene::snapshot::take(&sim);
        shared.figure = Some(kpg_scene::poster::Figure::of(&snapshot, &lesson.title));
    }
    let link = kpg_share::link(base, &shared);
    let fragment = link.split_once('#').map_or("", |(_, f)| f);
    match kpg_share::decode(fragment) {
        Ok(back) if back == shared => Ok(link),
        Ok(_) => Err(vec!["the link reads back differently".to_string()]),
        Err(e) => Err(vec![format!("the link does not open: {e}")]),
    }
}

/// The English lesson files PATH names: a file itself (a translation's English beside it),
/// a folder's `lesson.yaml`, or each subfolder's, in name order.
fn lesson_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if path.is_file() {
        return Ok(vec![english_of(path).unwrap_or_else(|| path.to_path_buf())]);
    }
    if !path.is_dir() {
        return Err(format!(
            "cannot read {}: no such file or folder",
            path.display()
        ));
    }
    let own = path.join(LESSON_FILE);
    if own.is_file() {
        return Ok(vec![own]);
    }
    let entries = std::fs::read_dir(path)
        .map_err(|e| format!("cannot read the folder {}: {e}", path.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path().join(LESSON_FILE))
        .filter(|f| f.is_file())
        .collect();
    files.sort();
    Ok(files)
}

/// `lesson.ko.yaml` → `lesson.yaml` beside it, when there is one.
fn english_of(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let stem = name.strip_suffix(".yaml")?;
    let (base, lang) = stem.rsplit_once('.')?;
    let english = path.with_file_name(format!("{base}.yaml"));
    (!lang.is_empty() && english.is_file()).then_some(english)
}

/// The translations beside an English file: `NAME.LANG.yaml` for `NAME.yaml`, by name.
fn translations_of(english: &Path) -> Vec<PathBuf> {
    let Some(base) = english
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".yaml"))
    else {
        return Vec::new();
    };
    let dir = english.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let lang = name
                .strip_prefix(base)?
                .strip_prefix('.')?
                .strip_suffix(".yaml")?
                .to_string();
            let ok =
                !lang.is_empty() && lang.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
            ok.then(|| english.with_file_name(name))
        })
        .collect();
    found.sort();
    found
}

/// What the checks load: a file's text; a folder answers too (a link may name one).
fn load(path: &str) -> Option<String> {
    let p = Path::new(path);
    if p.is_dir() {
        return Some(String::new());
    }
    let text = std::fs::read_to_string(p).ok()?;
    Some(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

fn name_of(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn unreadable(file: &str) -> Problem {
    Problem::error(Code::Yaml, file, &Spot::default(), "cannot read the file")
}

/// Every problem of one lesson and its translations.
fn check_lesson(path: &Path) -> Vec<Problem> {
    let file = name_of(path);
    let Some(text) = load(&file) else {
        return vec![unreadable(&file)];
    };
    let lesson = match kpg_lesson::read(&file, &text) {
        Ok(lesson) => lesson,
        Err(problems) => return problems,
    };
    let mut problems = Vec::new();
    if let Some(folder) = folder_mismatch(path, &lesson) {
        problems.push(folder);
    }
    problems.extend(kpg_lesson::check(&lesson, &load));
    for tr_path in translations_of(path) {
        let tr_file = name_of(&tr_path);
        let Some(tr_text) = load(&tr_file) else {
            problems.push(unreadable(&tr_file));
            continue;
        };
        match kpg_lesson::read_translation(&tr_file, &tr_text) {
            Err(found) => problems.extend(found),
            Ok(translation) => {
                problems.extend(kpg_lesson::check_translation(&lesson, &translation, &load));
                problems.extend(kpg_lesson::localize(&lesson, &translation).1);
            }
        }
    }
    problems
}

/// A `lesson.yaml` sits in a folder named by its id (`lessons/hello/`): the page finds a
/// saved session's lesson by it.
fn folder_mismatch(path: &Path, lesson: &kpg_lesson::Lesson) -> Option<Problem> {
    if path.file_name()? != LESSON_FILE {
        return None;
    }
    let folder = path
        .canonicalize()
        .ok()?
        .parent()?
        .file_name()?
        .to_str()?
        .to_string();
    if folder == lesson.id {
        return None;
    }
    let line = lesson
        .source
        .lines()
        .position(|l| l.starts_with("id:"))
        .map_or(0, |i| i + 1);
    let at = Spot {
        line,
        column: if line > 0 { 1 } else { 0 },
        path: "id".into(),
    };
    Some(
        Problem::error(
            Code::Field,
            &lesson.file,
            &at,
            format!(
                "the lesson's id is `{}` but its folder is `{folder}`",
                lesson.id
            ),
        )
        .help("name the folder after the id (saved sessions and links store the id)"),
    )
}

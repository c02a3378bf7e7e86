//! Prepares the lessons the page ships (`lessons/<id>/`): each read and localized by
//! `kpg_lesson` as `kpg lesson check` reads it, its labs resolved and its Markdown parsed,
//! into `$OUT_DIR/lessons.json`, which the page carries (`src/lessons/mod.rs`). The page
//! itself then holds no YAML or Markdown parser. A lesson that does not read fails the
//! build, with its problems located.

use std::path::{Path, PathBuf};

/// The lessons in the order the page offers them; the free-form `blank` comes last and is
/// never "the next lesson". `src/lessons/tests.rs` checks that every folder is here.
const LESSONS: &[&str] = &[
    "hello",
    "labels-taints",
    "multiarch-batch",
    "v1beta1-to-v1",
    "teardown",
    "drift",
    "spot-fallback",
    "protect",
    "zones",
    "karpenter-today",
    "byoc",
    "auto-mode",
    "blank",
];

/// The translations a page offers, by language code.
const TRANSLATIONS: &[&str] = &["ko"];

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("..")
        .canonicalize()
        .expect("the repository");
    let read = |path: &Path| {
        println!("cargo:rerun-if-changed={}", path.display());
        std::fs::read_to_string(path).ok()
    };
    println!("cargo:rerun-if-changed={}", root.join("lessons").display());
    let mut bundle = kpg_lesson::prepared::Bundle::default();
    let mut failures = Vec::new();
    for id in LESSONS {
        let name = format!("lessons/{id}/lesson.yaml");
        let Some(text) = read(&root.join(&name)) else {
            failures.push(format!("{name}: missing"));
            continue;
        };
        let lesson = match kpg_lesson::read(&name, &text) {
            Ok(lesson) => lesson,
            Err(problems) => {
                failures.extend(problems.iter().map(|p| p.to_string()));
                continue;
            }
        };
        let mut translations = Vec::new();
        for code in TRANSLATIONS {
            let name = format!("lessons/{id}/lesson.{code}.yaml");
            let Some(text) = read(&root.join(&name)) else {
                continue;
            };
            match kpg_lesson::read_translation(&name, &text) {
                Ok(t) => translations.push((*code, t)),
                Err(problems) => failures.extend(problems.iter().map(|p| p.to_string())),
            }
        }
        let translations: Vec<(&str, &kpg_lesson::Translation)> =
            translations.iter().map(|(c, t)| (*c, t)).collect();
        let load = |path: &str| read(&root.join(path));
        kpg_lesson::prepared::prepare(&mut bundle, &lesson, &translations, &load, None);
    }
    if !failures.is_empty() {
        panic!(
            "the page's lessons do not read (run `kpg lesson check lessons/`):\n{}",
            failures.join("\n")
        );
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("lessons.json");
    let json = serde_json::to_string(&bundle).expect("a bundle serializes");
    std::fs::write(out, json).expect("OUT_DIR is writable");
}

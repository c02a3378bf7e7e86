//! Karpenter Playground's lessons as content: a lesson is a folder with `lesson.yaml`
//! (English, the source) and a file per translation (`lesson.ko.yaml`), written without Rust.
//! `lessons/README.md` documents the format; `lessons/lesson.schema.json` is its schema.
//!
//! - [`read`] reads a lesson file from its text into a [`Lesson`], every problem a located
//!   [`Problem`] (file, line, column, field path, how to fix it);
//! - [`read_translation`], [`localize`] and [`check_translation`]: a translation, applied
//!   with a notice for each text that falls back to English;
//! - [`exercise`]: the goals an exercise sets and how they are judged over the cluster on
//!   screen (a `kpg_scene::snapshot::Snapshot`), which the CLI and the page share;
//! - [`check`]: what `kpg lesson check` checks (labs load, exercises open as written and met
//!   by their solution, edits apply, links resolve), playing scenarios with the engine.
//!
//! Pure: no files (the caller passes a loader), no clock, no HTML; never panics on a lesson.

#![forbid(unsafe_code)]

mod check;
pub mod exercise;
pub mod markdown;
mod model;
pub mod play;
pub mod prepared;
mod problem;
mod read;
pub mod rich_text;
mod translation;

pub use check::{Load, check, lab_text, step_scenario};
pub use exercise::{Edit, EditError, Exercise, Goal, Judged};
pub use model::{Lab, LabSource, Lesson, Step, header_lines, resolve, strip_header};
pub use problem::{Code, Problem, Severity, Spot};
pub use read::{dollars_per_hour, read};
pub use translation::{
    StepText, Translation, check_translation, localize, read_translation, translation_file,
};

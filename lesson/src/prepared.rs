//! A lesson as the page shows it: read, localized, its labs resolved into scenarios and its
//! Markdown parsed into trees. The page never reads YAML or Markdown: the lessons it ships
//! are prepared when it is built, a lesson from elsewhere by its engine's worker, and both
//! cross as JSON. [`prepare`] (the `prepare` feature) makes one.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::exercise::{Edit, Goal, Judged};
use crate::rich_text::Node;

/// Lessons in the languages a page offers, and the scenarios they open, each once.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    /// In the page's order: each lesson in English, then in each translation given.
    pub lessons: Vec<Languages>,
    /// Scenario texts by key (a lab's, or a lab's with a step's changes).
    pub scenarios: BTreeMap<String, String>,
}

/// One lesson in English and the translations prepared with it, by language code.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Languages {
    pub english: Prepared,
    pub translations: BTreeMap<String, Prepared>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Prepared {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub steps: Vec<PreparedStep>,
    /// How many texts fall back to English (0 in English).
    pub untranslated: usize,
    /// The lesson file's address, when it has one (relative links resolved against it).
    pub base: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PreparedStep {
    pub id: String,
    pub title: String,
    pub text: Vec<Node>,
    /// The lab in effect: its key (saved sessions and kept edits use it) and its name.
    pub lab: String,
    pub lab_name: String,
    /// The key of the step's scenario in [`Bundle::scenarios`]: the lab with the `change`s
    /// since it was named. `None` when the lab cannot be read or a change does not apply.
    pub scenario: Option<String>,
    /// This step's own changes, which the page makes to the learner's manifests when they
    /// come from the previous step on the same lab.
    pub change: Vec<Edit>,
    /// The comparison's scenario key (A), when the step sets one up.
    pub compare: Option<String>,
    pub play_to: Option<u64>,
    pub exercise: Option<PreparedExercise>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PreparedExercise {
    pub task: Vec<Node>,
    pub hint: Vec<Node>,
    pub solution: Vec<Node>,
    pub edits: Vec<Edit>,
    pub goals: Vec<Goal>,
    /// Each goal in the lesson's language, for the checklist under the task.
    pub goal_texts: Vec<Vec<Node>>,
    pub judged: Judged,
}

/// What the page asks of the lesson reader worker (`web/lesson-reader`) for a lesson from
/// elsewhere, as JSON.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReadRequest {
    /// The lesson file's name as the page knows it: its URL's path for a lesson on the web,
    /// or `lesson.yaml` for one written in an article.
    pub file: String,
    pub text: String,
    /// Translations' texts by language code (`ko`).
    #[serde(default)]
    pub translations: BTreeMap<String, String>,
    /// Lab files by the path the lesson resolves (`kpg_lesson::resolve`); `None`: not there.
    #[serde(default)]
    pub files: BTreeMap<String, Option<String>>,
    /// The lesson file's address, when it has one: relative links resolve against it.
    #[serde(default)]
    pub base: Option<String>,
}

/// The reader's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReadReply {
    Prepared(Bundle),
    /// Lab files to fetch (resolved paths), then ask again with them.
    Needs(Vec<String>),
    /// Why the lesson does not read, each located (`FILE:LINE:COL: error[code]: ...`).
    Problems(Vec<String>),
}

impl Bundle {
    pub fn scenario(&self, key: &str) -> Option<&str> {
        self.scenarios.get(key).map(String::as_str)
    }
}

#[cfg(feature = "prepare")]
pub use make::{MAX_FILE_BYTES, answer, prepare};

#[cfg(feature = "prepare")]
mod make {
    use super::*;
    use crate::check::{Load, lab_text, step_scenario};
    use crate::model::{Lab, LabSource, Lesson, resolve};
    use crate::rich_text::parse;
    use crate::translation::{Translation, localize};

    impl Bundle {
        fn add_scenario(&mut self, key: String, text: Option<String>) -> Option<String> {
            let text = text?;
            self.scenarios.entry(key.clone()).or_insert(text);
            Some(key)
        }
    }

    /// Adds `lesson`, in English and in each `(code, translation)`, to `bundle`, with the
    /// scenarios its steps open (lab files read with `load`). `base` is the lesson file's
    /// address when it has one.
    pub fn prepare(
        bundle: &mut Bundle,
        lesson: &Lesson,
        translations: &[(&str, &Translation)],
        load: Load,
        base: Option<&str>,
    ) {
        let english = one(bundle, lesson, "en", 0, load, base);
        let translations = translations
            .iter()
            .map(|(code, t)| {
                let (worded, fell_back) = localize(lesson, t);
                (
                    code.to_string(),
                    one(bundle, &worded, code, fell_back.len(), load, base),
                )
            })
            .collect();
        bundle.lessons.push(Languages {
            english,
            translations,
        });
    }

    fn one(
        bundle: &mut Bundle,
        lesson: &Lesson,
        code: &str,
        untranslated: usize,
        load: Load,
        base: Option<&str>,
    ) -> Prepared {
        let text = |t: &str| parse(t, base);
        let steps = (0..lesson.steps.len())
            .map(|i| {
                let step = &lesson.steps[i];
                let (named_at, lab) = lesson.lab_of(i);
                let key = lab_key(lesson, lab);
                let lab_name = lab.name.clone().unwrap_or_else(|| match named_at {
                    Some(at) => lesson.steps[at].title.clone(),
                    None => lesson.title.clone(),
                });
                // The step's scenario is `kpg lesson check`'s; a lab with no changes yet is
                // one scenario for all its steps.
                let changed = lesson.changes_of(i).next().is_some();
                let scenario_key = if changed {
                    format!("{key}#{}", step.id)
                } else {
                    key.clone()
                };
                let scenario = bundle.add_scenario(scenario_key, step_scenario(lesson, i, load));
                let compare = step.compare.as_ref().and_then(|c| {
                    let text = lab_text(lesson, c, load);
                    bundle.add_scenario(lab_key(lesson, c), text)
                });
                PreparedStep {
                    id: step.id.clone(),
                    title: step.title.clone(),
                    text: text(&step.text),
                    lab: key,
                    lab_name,
                    scenario,
                    change: step.change.clone(),
                    compare,
                    play_to: step.play_to,
                    exercise: step.exercise.as_ref().map(|e| PreparedExercise {
                        task: text(&e.task),
                        hint: text(&e.hint),
                        solution: text(&e.solution),
                        edits: e.edits.clone(),
                        goals: e.goals.clone(),
                        goal_texts: e
                            .goals
                            .iter()
                            .map(|g| match code {
                                "ko" => text(&g.describe_ko()),
                                _ => text(&g.describe()),
                            })
                            .collect(),
                        judged: e.judged,
                    }),
                }
            })
            .collect();
        Prepared {
            id: lesson.id.clone(),
            title: lesson.title.clone(),
            summary: lesson.summary.clone(),
            steps,
            untranslated,
            base: base.map(str::to_string),
        }
    }

    /// The largest lesson or lab file read: a share link's cap on what it carries.
    pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

    /// What the lesson reader answers: the lesson prepared, the lab files it still needs, or
    /// why it does not read.
    pub fn answer(request: &ReadRequest) -> ReadReply {
        let too_large = std::iter::once(&request.text)
            .chain(request.translations.values())
            .chain(request.files.values().flatten())
            .any(|t| t.len() > MAX_FILE_BYTES);
        if too_large {
            return ReadReply::Problems(vec![format!(
                "{}: a file is larger than {} MB",
                request.file,
                MAX_FILE_BYTES / (1024 * 1024)
            )]);
        }
        let lesson = match crate::read(&request.file, &request.text) {
            Ok(lesson) => lesson,
            Err(problems) => {
                return ReadReply::Problems(problems.iter().map(|p| p.to_string()).collect());
            }
        };
        let labs = lab_files(&lesson);
        let mut needs: Vec<String> = labs
            .iter()
            .map(|(path, _)| path.clone())
            .filter(|path| !request.files.contains_key(path))
            .collect();
        needs.dedup();
        if !needs.is_empty() {
            return ReadReply::Needs(needs);
        }
        let missing: Vec<String> = labs
            .iter()
            .filter(|(path, _)| matches!(request.files.get(path), Some(None)))
            .map(|(path, spot)| {
                let message = format!("the lab file {path} could not be read");
                crate::Problem::error(crate::Code::Lab, &request.file, spot, message)
                    .help("put the file beside the lesson, or write the scenario inline")
                    .to_string()
            })
            .collect();
        if !missing.is_empty() {
            return ReadReply::Problems(missing);
        }
        let mut translations: Vec<(String, Translation)> = Vec::new();
        let mut problems = Vec::new();
        for (code, text) in &request.translations {
            let name = crate::translation_file(&request.file, code);
            match crate::read_translation(&name, text) {
                Ok(t) => translations.push((code.clone(), t)),
                Err(p) => problems.extend(p.iter().map(|p| p.to_string())),
            }
        }
        if !problems.is_empty() {
            return ReadReply::Problems(problems);
        }
        let given: Vec<(&str, &Translation)> =
            translations.iter().map(|(c, t)| (c.as_str(), t)).collect();
        let load = |path: &str| request.files.get(path).cloned().flatten();
        let mut bundle = Bundle::default();
        prepare(&mut bundle, &lesson, &given, &load, request.base.as_deref());
        ReadReply::Prepared(bundle)
    }

    /// Every lab file the lesson names, resolved from its file, and where it names it.
    fn lab_files(lesson: &Lesson) -> Vec<(String, crate::Spot)> {
        let labs = std::iter::once(&lesson.lab).chain(
            lesson
                .steps
                .iter()
                .flat_map(|s| s.lab.iter().chain(s.compare.iter())),
        );
        let mut paths: Vec<(String, crate::Spot)> = labs
            .filter_map(|lab| match &lab.source {
                LabSource::File(path) => Some((resolve(&lesson.file, path), lab.spot.clone())),
                LabSource::Inline { .. } => None,
            })
            .collect();
        paths.sort_by(|a, b| a.0.cmp(&b.0));
        paths.dedup_by(|a, b| a.0 == b.0);
        paths
    }

    /// A lab's stable name: the lab file's path as the lesson resolves it
    /// (`tests/labs/seed000-hello-world.yaml` from `lessons/hello/lesson.yaml`), else
    /// `inline:` and a digest of the scenario written in the lesson.
    pub fn lab_key(lesson: &Lesson, lab: &Lab) -> String {
        match &lab.source {
            LabSource::File(path) => resolve(&lesson.file, path),
            LabSource::Inline { text, .. } => format!("inline:{:016x}", fnv1a(text)),
        }
    }

    /// FNV-1a, 64 bits: the same digest on every machine and build.
    fn fnv1a(text: &str) -> u64 {
        text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page is 32-bit wasm: a prepared lesson's JSON holds no number it cannot read.
    /// (An unbounded goal once wrote `usize::MAX` of the 64-bit machine that prepared it,
    /// and the page read no lesson at all.)
    #[test]
    fn a_prepared_goal_reads_back_on_a_32_bit_page() {
        let goals = vec![
            Goal::PoolNodes {
                pool: "p".into(),
                min: 1,
                max: usize::MAX,
            },
            Goal::PoolNodes {
                pool: "p".into(),
                min: 0,
                max: 3,
            },
        ];
        let json = serde_json::to_string(&goals).unwrap();
        let numbers = json
            .split(|c: char| !c.is_ascii_digit())
            .filter(|n| !n.is_empty())
            .map(|n| n.parse::<u64>().unwrap_or(u64::MAX));
        for n in numbers {
            assert!(n <= u64::from(u32::MAX), "{n} in {json}");
        }
        assert_eq!(serde_json::from_str::<Vec<Goal>>(&json).unwrap(), goals);
    }
}

//! Guided lessons on the page. A lesson is a file (`lessons/<id>/lesson.yaml`, a translation
//! beside it) that `kpg_lesson` reads; the page receives lessons *prepared*
//! ([`kpg_lesson::prepared`]): localized, each step's scenario resolved, its Markdown parsed
//! into a tree. The lessons the page ships are prepared when it is built (`web/build.rs`) and
//! carried as JSON, so the page's wasm holds no YAML or Markdown parser.
//!
//! A lesson lives as long as the page (`&'static`): views hold its steps and exercises, and a
//! page reads a handful of lessons at most.

pub mod elsewhere;
#[cfg(test)]
mod glossary;
pub mod markdown;

use std::cell::RefCell;

pub use kpg_lesson::prepared::{Bundle, Prepared, PreparedExercise, PreparedStep};
pub use kpg_lesson::{Goal, Judged};

use crate::base::i18n::Lang;

/// The lesson a first visit opens, and the one a page falls back to.
pub const FIRST: &str = "hello";
/// The free-form lesson: a scenario from a share link without a lesson opens in it.
pub const BLANK: &str = "blank";

/// The lessons the page ships, prepared by `build.rs`.
const SHIPPED: &str = include_str!(concat!(env!("OUT_DIR"), "/lessons.json"));

/// A lesson the page can open, in English and in Korean (the English where a translation is
/// missing).
struct Entry {
    english: &'static Prepared,
    korean: &'static Prepared,
}

struct Catalog {
    lessons: Vec<Entry>,
    scenarios: std::collections::BTreeMap<String, &'static str>,
    /// The lessons from elsewhere (an article's, a link's), by id, with the files they were
    /// read from: a share link carries those, and a saved session keeps both.
    elsewhere: std::collections::BTreeMap<String, FromElsewhere>,
}

/// A lesson from elsewhere as the page keeps it: the files it was read from, and what the
/// lesson reader made of them (which the page reads without the reader).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FromElsewhere {
    pub files: kpg_share::LessonFiles,
    /// The reader's answer ([`kpg_lesson::prepared::ReadReply::Prepared`]) as the JSON it
    /// sent: kept as text, the page needs no serializer for prepared lessons (2.2 KB of the
    /// page's wasm, gzipped, measured with `scripts/page-budget`).
    pub reply: String,
}

impl FromElsewhere {
    /// The bundle the reader prepared, if its answer is one.
    fn bundle(&self) -> Option<Bundle> {
        match serde_json::from_str(&self.reply) {
            Ok(kpg_lesson::prepared::ReadReply::Prepared(bundle)) => Some(bundle),
            _ => None,
        }
    }
}

thread_local! {
    /// Every lesson the page has, in the page's order. Built on first use.
    static CATALOG: RefCell<Option<Catalog>> = const { RefCell::new(None) };
}

fn with_catalog<R>(f: impl FnOnce(&mut Catalog) -> R) -> R {
    CATALOG.with(|c| {
        let mut c = c.borrow_mut();
        f(c.get_or_insert_with(|| {
            let mut catalog = Catalog {
                lessons: Vec::new(),
                scenarios: Default::default(),
                elsewhere: Default::default(),
            };
            // Built from this repository's files, checked by `kpg lesson check` and the tests
            // below: a bundle that does not read would leave the page with no lessons, not
            // broken.
            match serde_json::from_str::<Bundle>(SHIPPED) {
                Ok(bundle) => add(&mut catalog, bundle),
                Err(e) => leptos::logging::error!("the page's own lessons do not read: {e}"),
            }
            catalog
        }))
    })
}

fn add(catalog: &mut Catalog, bundle: Bundle) {
    for languages in bundle.lessons {
        let english: &'static Prepared = Box::leak(Box::new(languages.english));
        // No Korean file: the English, and the notice that every text of it falls back.
        let korean = Box::leak(Box::new(match languages.translations.get("ko") {
            Some(ko) => ko.clone(),
            None => Prepared {
                untranslated: texts(english),
                ..english.clone()
            },
        }));
        catalog.lessons.retain(|e| e.english.id != english.id);
        catalog.lessons.push(Entry { english, korean });
    }
    for (key, text) in bundle.scenarios {
        catalog
            .scenarios
            .entry(key)
            .or_insert_with(|| Box::leak(text.into_boxed_str()));
    }
}

/// How many texts a lesson has (titles, step texts, exercises' words): what a missing
/// translation leaves in English.
fn texts(lesson: &Prepared) -> usize {
    let steps: usize = lesson
        .steps
        .iter()
        .map(|s| 2 + s.exercise.as_ref().map_or(0, |_| 3))
        .sum();
    1 + usize::from(!lesson.summary.is_empty()) + steps
}

/// Makes a lesson from elsewhere (its files, and the bundle the reader prepared of them)
/// available beside the page's own; a lesson of the same id replaces the one there, and a
/// lesson from elsewhere never replaces one of the page's own. Its id, or `None` when the
/// bundle holds no lesson or would replace one of the page's own.
pub fn register(lesson: FromElsewhere) -> Option<String> {
    let bundle = lesson.bundle()?;
    let id = bundle.lessons.first()?.english.id.clone();
    with_catalog(|c| {
        let shipped = c
            .lessons
            .iter()
            .any(|e| e.english.id == id && !c.elsewhere.contains_key(&id));
        if shipped {
            return None;
        }
        add(c, bundle);
        c.elsewhere.insert(id.clone(), lesson);
        Some(id)
    })
}

/// The lesson from elsewhere `id`, if it is one.
pub fn from_elsewhere(id: &str) -> Option<FromElsewhere> {
    with_catalog(|c| c.elsewhere.get(id).cloned())
}

/// Every lesson from elsewhere the page has read (what a saved session keeps).
pub fn all_from_elsewhere() -> Vec<FromElsewhere> {
    with_catalog(|c| c.elsewhere.values().cloned().collect())
}

impl Entry {
    fn get(&self, lang: Lang) -> &'static Prepared {
        match lang {
            Lang::En => self.english,
            Lang::Ko => self.korean,
        }
    }
}

/// The lesson `id` in `lang`.
pub fn find(id: &str, lang: Lang) -> Option<&'static Prepared> {
    with_catalog(|c| {
        c.lessons
            .iter()
            .find(|e| e.english.id == id)
            .map(|e| e.get(lang))
    })
}

/// The lesson `id` in `lang`, or the first lesson when there is no such lesson.
pub fn find_or_first(id: &str, lang: Lang) -> &'static Prepared {
    find(id, lang).unwrap_or_else(|| first(lang))
}

/// The lesson a first visit opens.
pub fn first(lang: Lang) -> &'static Prepared {
    find(FIRST, lang)
        .or_else(|| with_catalog(|c| c.lessons.first().map(|e| e.get(lang))))
        .unwrap_or_else(empty)
}

/// Every lesson, in the page's order.
pub fn all(lang: Lang) -> Vec<&'static Prepared> {
    with_catalog(|c| c.lessons.iter().map(|e| e.get(lang)).collect())
}

/// The lesson after `id` in the page's order, if any (the free-form Blank comes after none).
pub fn after(id: &str, lang: Lang) -> Option<&'static Prepared> {
    with_catalog(|c| {
        let i = c.lessons.iter().position(|e| e.english.id == id)?;
        c.lessons
            .get(i + 1)
            .filter(|e| e.english.id != BLANK)
            .map(|e| e.get(lang))
    })
}

/// A scenario a lesson opens, by its key ([`PreparedStep::scenario`]).
pub fn scenario(key: &str) -> Option<&'static str> {
    with_catalog(|c| c.scenarios.get(key).copied())
}

/// Step `index`'s scenario.
pub fn step_scenario(lesson: &Prepared, index: usize) -> Option<&'static str> {
    lesson
        .steps
        .get(index)
        .and_then(|s| s.scenario.as_deref())
        .and_then(scenario)
}

/// A shipped lab by its file's name without `.yaml` (`seed000-hello-world`): for tests and
/// the page's own fixed scenarios. Empty when there is none (a test then fails loudly).
pub fn lab(stem: &str) -> &'static str {
    let suffix = format!("/{stem}.yaml");
    with_catalog(|c| {
        c.scenarios
            .iter()
            .find(|(k, _)| k.ends_with(&suffix))
            .map_or("", |(_, t)| *t)
    })
}

/// A page with no lesson at all (never the case with the shipped lessons, which the tests
/// read): one empty step, so the page still opens.
fn empty() -> &'static Prepared {
    thread_local! {
        static EMPTY: &'static Prepared = Box::leak(Box::new(Prepared {
            id: BLANK.into(),
            title: "Blank".into(),
            steps: vec![PreparedStep::default()],
            ..Prepared::default()
        }));
    }
    EMPTY.with(|l| *l)
}

/// The labs as the page's `Lab` enum named them before lessons were files (a session saved
/// then stores these names), and the files they are.
const OLD_LAB_NAMES: &[(&str, &str)] = &[
    ("HelloWorld", "tests/labs/seed000-hello-world.yaml"),
    ("ScaleOut", "tests/labs/seed002-scale-out.yaml"),
    ("Service6Gi", "tests/labs/seed002-service-6gi.yaml"),
    ("ScaleIn", "tests/labs/seed002-scale-in.yaml"),
    ("Consolidation", "tests/labs/seed002-consolidation.yaml"),
    ("Limits", "tests/labs/seed002-limits.yaml"),
    ("LimitsLifted", "tests/labs/seed002-limits-lifted.yaml"),
    ("BatchJob", "tests/labs/seed003-batch-job.yaml"),
    ("BatchJobFixed", "tests/labs/seed003-batch-job-fixed.yaml"),
    ("SpotShortage", "tests/labs/seed003-spot-shortage.yaml"),
    ("V1beta1", "tests/labs/seed000-v1beta1.yaml"),
    ("V1beta1Batch", "tests/labs/seed003-v1beta1.yaml"),
    ("Teardown", "tests/labs/seed000-teardown.yaml"),
    (
        "TeardownWrongOrder",
        "tests/labs/seed000-teardown-wrong-order.yaml",
    ),
    ("Drift", "tests/labs/seed000-drift.yaml"),
    ("SpotFallback", "tests/labs/seed003-spot-fallback.yaml"),
    ("Protect", "tests/labs/seed002-protect.yaml"),
    ("Zones", "tests/labs/seed002-zones.yaml"),
    ("Balanced", "tests/labs/v114-balanced.yaml"),
    ("BalancedEager", "tests/labs/v114-balanced-eager.yaml"),
    ("StaticReserved", "tests/labs/v114-static-reserved.yaml"),
    ("CapacityBuffer", "tests/labs/v114-capacity-buffer.yaml"),
    ("Byoc", "tests/labs/byoc-snapshot.yaml"),
    ("ByocOnDemand", "tests/labs/byoc-on-demand.yaml"),
    ("AutoModeBefore", "tests/labs/automode-before.yaml"),
    ("AutoModeMigrate", "tests/labs/automode-migrate.yaml"),
    ("Blank", "web/src/templates/blank.yaml"),
];

/// The lab key a session saved before lessons were files stores (`HelloWorld`): the same
/// lab's key now. Other keys are returned as they are.
pub fn migrate_lab_key(key: &str) -> String {
    OLD_LAB_NAMES
        .iter()
        .find(|(old, _)| *old == key)
        .map_or_else(|| key.to_string(), |(_, path)| path.to_string())
}

#[cfg(test)]
mod tests;

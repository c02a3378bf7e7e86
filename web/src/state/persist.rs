//! The saved session: what the page writes to local storage on every change and reads back
//! on load, so that nothing typed is lost on reload.
//!
//! Decoding is strict (a version, at least one document, sane numbers); anything else is
//! "corrupt", and the page opens the default lesson with a notice instead of a blank page.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use kpg_share::{BottomTab, Selection, Shared};

use crate::base::i18n::Lang;
use crate::editor::workspace::Workspace;
use crate::lessons;
use crate::state::{Drafts, draft_key};

pub const STORAGE_KEY: &str = "kpg.session";
/// The workspace opened from a share link, kept apart from the learner's own.
pub const LINKED_KEY: &str = "kpg.linked";
pub const VERSION: u32 = 1;
/// A session longer than this is packed ([`kpg_share::pack`]) before it is stored: local
/// storage holds about five million characters per page, and a workspace of a few megabytes
/// (with its last good copy) would not fit as it is.
pub const PACK_ABOVE: usize = 256 * 1024;
/// The most a packed session may unpack to (a defence against a damaged entry).
const UNPACK_LIMIT: usize = 64 * 1024 * 1024;

/// What goes into local storage for a session's (or linked session's) JSON: as it is, or
/// packed when large.
pub fn to_storage(json: String) -> String {
    if json.len() > PACK_ABOVE {
        kpg_share::pack(&json)
    } else {
        json
    }
}

/// The JSON a stored entry holds; an entry that is not packed is JSON already.
pub fn from_storage(stored: String) -> String {
    if stored.starts_with(kpg_share::PACKED_PREFIX) {
        kpg_share::unpack(&stored, UNPACK_LIMIT).unwrap_or_default()
    } else {
        stored
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub version: u32,
    pub lang: Lang,
    pub workspace: Workspace,
    /// The id of the document whose tab is open.
    pub active_doc: u32,
    pub lesson: String,
    pub step: usize,
    /// The key of the lab the workspace was opened from (edits may have changed it since):
    /// [`lessons::lab_key`]. A session saved before lessons were files stores the page's
    /// old name for it (`HelloWorld`), which [`Session::decode`] migrates.
    pub lab: String,
    pub clock_ms: i64,
    pub speed: u32,
    /// The last manifests that read without errors: after a reload with a broken edit, the
    /// cluster view shows these, as it did before the reload.
    #[serde(default)]
    pub last_good: Option<String>,
    /// The pod or node being explained, and the open bottom tab.
    #[serde(default)]
    pub selected: Option<Selection>,
    #[serde(default)]
    pub tab: Option<BottomTab>,
    /// When comparing: the manifests the workspace is compared with (A).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Workspace>,
    /// The learner's edits of the labs not open now (see [`crate::state::LessonState`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub drafts: Drafts,
    /// The lessons from elsewhere the page has read (a link's, an article's), as the reader
    /// prepared them: a reload opens them without reading them again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elsewhere: Vec<lessons::FromElsewhere>,
}

/// The workspace a share link opened, saved under [`LINKED_KEY`] with the link it came
/// from: a reload of the same link brings back the edits made since; another link starts
/// afresh.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Linked {
    pub fragment: String,
    pub session: Session,
}

impl Session {
    /// A lesson opened at its first step.
    pub fn for_lesson(lesson_id: &str, lang: Lang) -> Session {
        let lesson = lessons::find_or_first(lesson_id, lang);
        let workspace =
            Workspace::from_stream(lessons::step_scenario(lesson, 0).unwrap_or_default());
        Session {
            version: VERSION,
            lang,
            active_doc: workspace.docs.first().map_or(0, |d| d.id),
            workspace,
            lesson: lesson.id.clone(),
            step: 0,
            lab: lesson
                .steps
                .first()
                .map(|s| s.lab.clone())
                .unwrap_or_default(),
            clock_ms: 0,
            speed: 1,
            last_good: None,
            selected: None,
            tab: None,
            baseline: None,
            drafts: Drafts::new(),
            elsewhere: Vec::new(),
        }
    }

    /// The session a share link describes. An unknown lesson (a link from a later page, or
    /// a scenario from `kpg share`) opens as the free-form Blank lesson; an out-of-range step
    /// as the lesson's last.
    pub fn from_shared(shared: &Shared, fallback_lang: Lang) -> Session {
        let mut workspace = Workspace::default();
        for doc in &shared.docs {
            workspace.push(doc.clone());
        }
        let active_doc = workspace.docs.get(shared.active).map_or(0, |d| d.id);
        let found = shared
            .lesson
            .as_deref()
            .and_then(|id| lessons::find(id, Lang::En));
        let (lesson, step) = match found {
            Some(l) => (l, shared.step.min(l.steps.len().saturating_sub(1))),
            None => (lessons::find_or_first(lessons::BLANK, Lang::En), 0),
        };
        let lang = match shared.lang.as_deref() {
            Some("ko") => Lang::Ko,
            Some("en") => Lang::En,
            _ => fallback_lang,
        };
        Session {
            version: VERSION,
            lang,
            workspace,
            active_doc,
            lesson: lesson.id.clone(),
            step,
            lab: lesson
                .steps
                .get(step)
                .map(|s| s.lab.clone())
                .unwrap_or_default(),
            clock_ms: (shared.at as i64).clamp(0, crate::bridge::player::MAX_TIME_MS),
            speed: shared.speed.unwrap_or(1),
            last_good: None,
            selected: shared.selected.clone(),
            tab: shared.tab,
            baseline: None,
            drafts: Drafts::new(),
            elsewhere: Vec::new(),
        }
    }

    /// What a share link of this session carries.
    pub fn to_shared(&self) -> Shared {
        let blank = self.lesson == lessons::BLANK;
        Shared {
            docs: self.workspace.docs.iter().map(|d| d.text.clone()).collect(),
            active: self.workspace.index_of(self.active_doc).unwrap_or(0),
            lesson: (!blank).then(|| self.lesson.clone()),
            // A lesson from elsewhere travels whole: the opening page has only its own.
            lesson_files: lessons::from_elsewhere(&self.lesson).map(|l| l.files),
            step: if blank { 0 } else { self.step },
            at: self.clock_ms.max(0) as u64,
            selected: self.selected.clone(),
            tab: self.tab,
            speed: (self.speed != 1).then_some(self.speed),
            lang: Some(self.lang.code().to_string()),
            // The session knows no cluster: whoever shares adds what the page shows.
            figure: None,
        }
    }

    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a saved session; `Err` says why it cannot be used.
    pub fn decode(text: &str) -> Result<Session, String> {
        let mut s: Session = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if s.version != VERSION {
            return Err(format!("saved by version {} of the page", s.version));
        }
        if s.workspace.docs.is_empty() {
            return Err("no documents".into());
        }
        if s.workspace.docs.iter().any(|d| d.id >= s.workspace.next_id) {
            return Err("document ids out of range".into());
        }
        // The lessons from elsewhere join the page's own first: the session may be in one.
        for lesson in &s.elsewhere {
            lessons::register(lesson.clone());
        }
        let lesson = lessons::find(&s.lesson, Lang::En).ok_or("unknown lesson")?;
        if s.step >= lesson.steps.len()
            || !(0..=crate::bridge::player::MAX_TIME_MS).contains(&s.clock_ms)
        {
            return Err("position out of range".into());
        }
        if ![1, 10, 60].contains(&s.speed) {
            return Err("unknown speed".into());
        }
        // Labs named as the page named them before lessons were files.
        s.lab = lessons::migrate_lab_key(&s.lab);
        s.drafts = std::mem::take(&mut s.drafts)
            .into_iter()
            .map(|(key, ws)| match key.split_once('/') {
                Some((lesson, lab)) => (draft_key(lesson, &lessons::migrate_lab_key(lab)), ws),
                None => (key, ws),
            })
            .collect();
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_round_trips() {
        let mut s = Session::for_lesson("labels-taints", Lang::Ko);
        s.workspace.docs[0].text.push_str("# my edit\n");
        s.clock_ms = 42_000;
        assert_eq!(Session::decode(&s.encode()), Ok(s));
    }

    #[test]
    fn a_large_session_is_stored_packed_and_read_back() {
        let mut s = Session::for_lesson("hello", Lang::En);
        s.workspace.docs[0].text = "# filler line of a large paste\n".repeat(100_000);
        let json = s.encode();
        let stored = to_storage(json.clone());
        assert!(
            stored.len() * 4 < json.len(),
            "packed: {} of {}",
            stored.len(),
            json.len()
        );
        assert_eq!(Session::decode(&from_storage(stored)), Ok(s.clone()));
        let small = Session::for_lesson("hello", Lang::En).encode();
        assert_eq!(
            to_storage(small.clone()),
            small,
            "a small session is stored as it is"
        );
        assert_eq!(from_storage(small.clone()), small);
    }

    #[test]
    fn corrupt_sessions_are_refused_not_half_used() {
        let good = Session::for_lesson("hello", Lang::En);
        assert!(Session::decode("").is_err());
        assert!(Session::decode("{\"version\":1").is_err());
        assert!(Session::decode("null").is_err());
        let mut empty = good.clone();
        empty.workspace.docs.clear();
        assert!(Session::decode(&empty.encode()).is_err());
        let mut far = good.clone();
        far.step = 99;
        assert!(Session::decode(&far.encode()).is_err());
        let mut old = good.clone();
        old.version = 0;
        assert!(Session::decode(&old.encode()).is_err());
        let mut lesson = good;
        lesson.lesson = "gone".into();
        assert!(Session::decode(&lesson.encode()).is_err());
    }

    #[test]
    fn a_share_link_reopens_the_same_session() {
        let mut s = Session::for_lesson("labels-taints", Lang::Ko);
        s.step = 2;
        s.lab = lessons::find("labels-taints", Lang::En).unwrap().steps[2]
            .lab
            .clone();
        s.workspace.docs[1].text.push_str("# edited\n");
        s.active_doc = s.workspace.docs[1].id;
        s.clock_ms = 95_000;
        s.speed = 60;
        s.selected = Some(Selection::Node("ip-10-0-1-5".into()));
        s.tab = Some(BottomTab::Explain);
        let link = kpg_share::encode(&s.to_shared());
        let back = Session::from_shared(&kpg_share::decode(&link).unwrap(), Lang::En);
        assert_eq!(back.workspace, s.workspace);
        assert_eq!(
            (back.active_doc, back.lesson.as_str(), back.step, &back.lab),
            (s.active_doc, "labels-taints", 2, &s.lab)
        );
        assert_eq!(
            (back.clock_ms, back.speed, back.lang),
            (95_000, 60, Lang::Ko)
        );
        assert_eq!((&back.selected, back.tab), (&s.selected, s.tab));
        assert_eq!(Session::decode(&back.encode()), Ok(back));
        assert_eq!(
            s.to_shared().lesson_files,
            None,
            "the page's own lessons need no files"
        );
    }

    /// In a lesson from elsewhere, a link carries the lesson's files.
    #[test]
    fn a_share_link_of_a_lesson_from_elsewhere_carries_its_files() {
        let text = "id: carried\ntitle: Carried\nlab:\n  inline: |\n    kind: Pod\n    \
                    metadata: {name: a}\nsteps:\n  - id: one\n    title: One\n    text: Look.\n";
        let lesson = kpg_lesson::read("lesson.yaml", text).expect("it reads");
        let mut bundle = lessons::Bundle::default();
        kpg_lesson::prepared::prepare(&mut bundle, &lesson, &[], &|_| None, None);
        let files = kpg_share::LessonFiles {
            file: "lesson.yaml".into(),
            text: text.into(),
            ..Default::default()
        };
        let id = lessons::register(lessons::FromElsewhere {
            files: files.clone(),
            reply: serde_json::to_string(&kpg_lesson::prepared::ReadReply::Prepared(bundle))
                .unwrap(),
        });
        let s = Session::for_lesson(id.as_deref().unwrap(), Lang::En);
        assert_eq!(s.lesson, "carried");
        let shared = kpg_share::decode(&kpg_share::encode(&s.to_shared())).unwrap();
        assert_eq!(shared.lesson.as_deref(), Some("carried"));
        assert_eq!(shared.lesson_files, Some(files));
    }

    #[test]
    fn a_scenario_from_kpg_share_opens_in_the_blank_lesson() {
        let shared = kpg_share::from_stream("kind: Pod\n---\nkind: Node\n", 600_000);
        let s = Session::from_shared(&shared, Lang::Ko);
        assert_eq!(s.lesson, "blank");
        assert_eq!(s.workspace.docs.len(), 2);
        assert_eq!(
            (s.clock_ms, s.lang),
            (600_000, Lang::Ko),
            "no lang in the link: the reader's"
        );
        let mut odd = shared;
        odd.lesson = Some("hello".into());
        odd.step = 99;
        let last = lessons::find("hello", Lang::En).unwrap().steps.len() - 1;
        assert_eq!(
            Session::from_shared(&odd, Lang::En).step,
            last,
            "a step past the end opens the last"
        );
    }

    #[test]
    fn unknown_lessons_fall_back_to_the_first() {
        assert_eq!(Session::for_lesson("nope", Lang::En).lesson, lessons::FIRST);
    }

    /// A session saved before lessons were files names its lab, and its kept edits' labs,
    /// by the page's old `Lab` enum: they open the same files after the update.
    #[test]
    fn a_session_saved_before_lessons_were_files_keeps_its_lab_and_edits() {
        let mut s = Session::for_lesson("labels-taints", Lang::En);
        s.step = 3;
        s.workspace.docs[0].text.push_str("# mine\n");
        let mut kept = s.workspace.clone();
        kept.docs[0].text.push_str("# kept\n");
        let mut old: serde_json::Value = serde_json::from_str(&s.encode()).unwrap();
        old["lab"] = "Limits".into();
        old["drafts"] = serde_json::json!({ "labels-taints/ScaleOut": kept });
        let json = old.to_string();
        assert!(json.contains("\"lab\":\"Limits\""), "{json}");
        let back = Session::decode(&json).expect("an old session reads");
        assert_eq!(back.lab, "tests/labs/seed002-limits.yaml");
        assert_eq!(
            back.drafts.keys().collect::<Vec<_>>(),
            ["labels-taints/tests/labs/seed002-scale-out.yaml"]
        );
        assert_eq!(back.workspace, s.workspace);
    }
}

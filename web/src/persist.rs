//! The saved session: what the page writes to local storage on every change and reads back
//! on load, so that nothing typed is lost on reload.
//!
//! Decoding is strict (a version, at least one document, sane numbers); anything else is
//! "corrupt", and the page opens the default lesson with a notice instead of a blank page.

use serde::{Deserialize, Serialize};

use crate::i18n::Lang;
use crate::lessons::{self, Lab};
use crate::workspace::Workspace;

pub const STORAGE_KEY: &str = "kpg.session";
const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub version: u32,
    pub lang: Lang,
    pub workspace: Workspace,
    /// The id of the document whose tab is open.
    pub active_doc: u32,
    pub lesson: String,
    pub step: usize,
    /// The lab the workspace was opened from (edits may have changed it since).
    pub lab: Lab,
    pub clock_ms: i64,
    pub speed: u32,
    /// The last manifests that read without errors: after a reload with a broken edit, the
    /// cluster view shows these, as it did before the reload.
    #[serde(default)]
    pub last_good: Option<String>,
}

impl Session {
    /// A lesson opened at its first step.
    pub fn for_lesson(lesson_id: &str, lang: Lang) -> Session {
        let lesson = lessons::find(lesson_id).unwrap_or(&lessons::LESSONS[0]);
        let lab = lesson.first_lab();
        let workspace = Workspace::from_stream(lab.text());
        Session {
            version: VERSION,
            lang,
            active_doc: workspace.docs.first().map_or(0, |d| d.id),
            workspace,
            lesson: lesson.id.into(),
            step: 0,
            lab,
            clock_ms: 0,
            speed: 1,
            last_good: None,
        }
    }

    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a saved session; `Err` says why it cannot be used.
    pub fn decode(text: &str) -> Result<Session, String> {
        let s: Session = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if s.version != VERSION {
            return Err(format!("saved by version {} of the page", s.version));
        }
        if s.workspace.docs.is_empty() {
            return Err("no documents".into());
        }
        if s.workspace.docs.iter().any(|d| d.id >= s.workspace.next_id) {
            return Err("document ids out of range".into());
        }
        let lesson = lessons::find(&s.lesson).ok_or("unknown lesson")?;
        if s.step >= lesson.steps.len() || !(0..=crate::player::MAX_TIME_MS).contains(&s.clock_ms) {
            return Err("position out of range".into());
        }
        if ![1, 10, 60].contains(&s.speed) {
            return Err("unknown speed".into());
        }
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
    fn unknown_lessons_fall_back_to_the_first() {
        assert_eq!(
            Session::for_lesson("nope", Lang::En).lesson,
            lessons::LESSONS[0].id
        );
    }
}

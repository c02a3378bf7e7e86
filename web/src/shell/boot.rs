//! Where the page starts: from the address (a share link in the fragment, embed options in
//! the query) and what local storage holds. Pure, so every path is tested natively; `app`
//! only gathers the inputs and applies the result.
//!
//! The rules that keep a learner's work safe live here:
//! - a share link opens as its own workspace (saved under `kpg.linked`, never over the
//!   learner's `kpg.session`); reloading the same link brings back the edits made to it;
//! - a damaged link opens the learner's own workspace with a notice, never a blank page;
//! - an embed reads and writes no storage at all: an article can neither see nor change
//!   the learner's work.

use kpg_share::{EmbedOptions, LinkError};

use crate::base::i18n::{Lang, T};
use crate::editor::workspace::Workspace;
use crate::lessons;
use crate::state::Home;
use crate::state::persist::{Linked, Session};

/// What the address and the browser say.
pub struct Inputs<'a> {
    /// `location.search`, with or without `?`.
    pub query: &'a str,
    /// `location.hash`, with or without `#`.
    pub fragment: &'a str,
    /// The learner's own saved session (`kpg.session`).
    pub own: Option<&'a str>,
    /// The saved linked workspace (`kpg.linked`).
    pub linked: Option<&'a str>,
    pub browser_lang: Lang,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    pub session: Session,
    pub embed: Option<EmbedOptions>,
    pub home: Home,
    /// A notice to show.
    pub notice: Option<T>,
    /// An embed whose host will send the scenario (`scenario=message`).
    pub awaiting_host: bool,
    /// A lesson the link carries that the page has yet to read ([`crate::lessons::elsewhere`]),
    /// and the link's step in it: the session opens the link's manifests meanwhile.
    pub lesson_to_read: Option<(kpg_share::LessonFiles, usize)>,
}

/// The lesson a link carries, when the session opened from the link itself (not from the
/// edits saved of it, which know their lesson) and the page does not have it yet.
fn to_read(
    shared: &kpg_share::Shared,
    session: &Session,
) -> Option<(kpg_share::LessonFiles, usize)> {
    let files = shared.lesson_files.clone()?;
    (shared.lesson.as_deref() != Some(session.lesson.as_str())).then_some((files, shared.step))
}

pub fn start(i: &Inputs) -> Start {
    let fragment = i.fragment.trim_start_matches('#');
    let link: Option<Result<kpg_share::Shared, LinkError>> =
        kpg_share::is_link(fragment).then(|| kpg_share::decode(fragment));
    match EmbedOptions::from_query(i.query) {
        Some((options, _ignored)) => embed_start(i, options, link),
        None => match link {
            Some(Ok(shared)) => {
                let saved = i
                    .linked
                    .and_then(|t| serde_json::from_str::<Linked>(t).ok())
                    .filter(|l| l.fragment == fragment)
                    .and_then(|l| Session::decode(&l.session.encode()).ok());
                let (session, lesson_to_read) = match saved {
                    Some(saved) => (saved, None),
                    None => {
                        let session = Session::from_shared(&shared, i.browser_lang);
                        let read = to_read(&shared, &session);
                        (session, read)
                    }
                };
                Start {
                    session,
                    embed: None,
                    home: Home::Linked {
                        fragment: fragment.to_string(),
                    },
                    notice: None,
                    awaiting_host: false,
                    lesson_to_read,
                }
            }
            Some(Err(e)) => {
                let (session, _) = own(i);
                Start {
                    session,
                    embed: None,
                    home: Home::Own,
                    notice: Some(link_problem(&e)),
                    awaiting_host: false,
                    lesson_to_read: None,
                }
            }
            None => {
                let (session, notice) = own(i);
                Start {
                    session,
                    embed: None,
                    home: Home::Own,
                    notice,
                    awaiting_host: false,
                    lesson_to_read: None,
                }
            }
        },
    }
}

/// What the learner is told about a link that cannot be opened.
pub fn link_problem(e: &LinkError) -> T {
    match e {
        LinkError::NewerVersion(_) => T::LinkNewer,
        LinkError::TooLarge => T::LinkTooLarge,
        LinkError::NotALink | LinkError::Damaged(_) => T::LinkDamaged,
    }
}

/// The learner's saved session, the first lesson, or the first lesson with a notice.
fn own(i: &Inputs) -> (Session, Option<T>) {
    let first = || Session::for_lesson(lessons::FIRST, i.browser_lang);
    match i.own {
        None => (first(), None),
        Some(text) => match Session::decode(text) {
            Ok(s) => (s, None),
            Err(_) => (first(), Some(T::CorruptNotice)),
        },
    }
}

fn embed_start(
    i: &Inputs,
    options: EmbedOptions,
    link: Option<Result<kpg_share::Shared, LinkError>>,
) -> Start {
    let lang = match options.lang.as_deref() {
        Some("ko") => Some(Lang::Ko),
        Some("en") => Some(Lang::En),
        _ => None,
    };
    let mut notice = None;
    let mut awaiting_host = false;
    let mut lesson_to_read = None;
    let mut session = match link {
        Some(Ok(shared)) => {
            let session = Session::from_shared(&shared, i.browser_lang);
            lesson_to_read = to_read(&shared, &session);
            session
        }
        Some(Err(e)) => {
            notice = Some(link_problem(&e));
            Session::for_lesson(lessons::FIRST, i.browser_lang)
        }
        None if options.scenario_by_message => {
            awaiting_host = true;
            let mut s = Session::for_lesson("blank", i.browser_lang);
            s.workspace = Workspace::default();
            s
        }
        None => Session::for_lesson(lessons::FIRST, i.browser_lang),
    };
    if let Some(lang) = lang {
        session.lang = lang;
    }
    if let Some(speed) = options.speed {
        session.speed = speed;
    }
    if let Some(at) = options.at {
        session.clock_ms = at as i64;
    }
    if let Some(until) = options.until {
        session.clock_ms = session.clock_ms.min(until as i64);
    }
    session.clock_ms = session
        .clock_ms
        .clamp(0, crate::bridge::player::MAX_TIME_MS);
    Start {
        session,
        embed: Some(options),
        home: Home::Nowhere,
        notice,
        awaiting_host,
        lesson_to_read,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs<'a>(query: &'a str, fragment: &'a str) -> Inputs<'a> {
        Inputs {
            query,
            fragment,
            own: None,
            linked: None,
            browser_lang: Lang::En,
        }
    }

    fn mine() -> Session {
        let mut s = Session::for_lesson("labels-taints", Lang::En);
        s.workspace.docs[0].text.push_str("# my own work\n");
        s
    }

    fn a_link() -> String {
        let shared = kpg_share::from_stream(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: shared\n",
            120_000,
        );
        format!("#{}", kpg_share::encode(&shared))
    }

    /// A lesson from a blog, as the lesson reader prepares it (its lab inline).
    fn blog_lesson() -> lessons::FromElsewhere {
        let text = "id: blog-lesson\ntitle: From a blog\nlab:\n  inline: |\n    \
                    apiVersion: v1\n    kind: Pod\n    metadata: {name: a}\n    spec:\n      \
                    containers: [{name: c, image: nginx}]\nsteps:\n  - id: one\n    \
                    title: One\n    text: Look.\n  - id: two\n    title: Two\n    \
                    text: Again.\n";
        let lesson = kpg_lesson::read("/posts/lesson.yaml", text).expect("it reads");
        let mut bundle = lessons::Bundle::default();
        kpg_lesson::prepared::prepare(&mut bundle, &lesson, &[], &|_| None, None);
        lessons::FromElsewhere {
            files: kpg_share::LessonFiles {
                file: "/posts/lesson.yaml".into(),
                text: text.into(),
                ..Default::default()
            },
            reply: serde_json::to_string(&kpg_lesson::prepared::ReadReply::Prepared(bundle))
                .unwrap(),
        }
    }

    /// A link carrying a lesson opens its manifests at once and leaves the lesson to be read;
    /// once read, the edits saved of the link reopen in the lesson on a reload, which reads
    /// nothing again (the session keeps what the reader made).
    #[test]
    fn a_link_carrying_a_lesson_opens_it_and_a_reload_keeps_it() {
        let blog = blog_lesson();
        let shared = kpg_share::Shared {
            lesson: Some("blog-lesson".into()),
            step: 1,
            lesson_files: Some(blog.files.clone()),
            ..kpg_share::from_stream("kind: Pod\nmetadata: {name: shared}\n", 5_000)
        };
        let link = format!("#{}", kpg_share::encode(&shared));
        let first = start(&inputs("", &link));
        assert!(
            first.session.workspace.docs[0]
                .text
                .contains("name: shared")
        );
        assert_eq!(first.lesson_to_read, Some((blog.files.clone(), 1)));
        assert_eq!(first.session.lesson, lessons::BLANK, "until it is read");

        // Read (as the reader would), adopted at the link's step, edited, saved.
        let mut read = first.session.clone();
        read.lesson = lessons::register(blog.clone()).expect("registered");
        read.step = 1;
        read.elsewhere = lessons::all_from_elsewhere();
        read.workspace.docs[0].text.push_str("# edited\n");
        let saved = serde_json::to_string(&Linked {
            fragment: link[1..].to_string(),
            session: read.clone(),
        })
        .unwrap();
        // A reload is a fresh page: a thread whose page has read no lesson yet.
        let (link2, read2) = (link.clone(), read.clone());
        std::thread::spawn(move || {
            assert!(lessons::find("blog-lesson", Lang::En).is_none());
            let again = start(&Inputs {
                linked: Some(&saved),
                ..inputs("", &link2)
            });
            assert_eq!(again.session, read2);
            assert_eq!(again.lesson_to_read, None);
            assert_eq!(
                lessons::find("blog-lesson", Lang::En).map(|l| l.title.as_str()),
                Some("From a blog")
            );
        })
        .join()
        .expect("the reload");

        // A page that has read the lesson opens the link in it at once, in an embed too.
        let embedded = start(&inputs("?embed", &link));
        assert_eq!(embedded.lesson_to_read, None);
        assert_eq!(
            (embedded.session.lesson.as_str(), embedded.session.step),
            ("blog-lesson", 1)
        );
    }

    #[test]
    fn a_link_opens_as_its_own_workspace() {
        let own = mine().encode();
        let link = a_link();
        let s = start(&Inputs {
            own: Some(&own),
            ..inputs("", &link)
        });
        assert_eq!(
            s.home,
            Home::Linked {
                fragment: link[1..].to_string()
            }
        );
        assert!(s.session.workspace.docs[0].text.contains("name: shared"));
        assert_eq!(s.session.clock_ms, 120_000);
        assert_eq!(s.notice, None);
    }

    #[test]
    fn reloading_the_same_link_keeps_the_edits_made_to_it() {
        let link = a_link();
        let mut edited = start(&inputs("", &link)).session;
        edited.workspace.docs[0]
            .text
            .push_str("# edited after opening\n");
        let saved = serde_json::to_string(&Linked {
            fragment: link[1..].to_string(),
            session: edited.clone(),
        })
        .unwrap();
        let again = start(&Inputs {
            linked: Some(&saved),
            ..inputs("", &link)
        });
        assert_eq!(again.session, edited);
        // Another link starts from its own contents.
        let other = format!(
            "#{}",
            kpg_share::encode(&kpg_share::from_stream("kind: Pod\n", 0))
        );
        let fresh = start(&Inputs {
            linked: Some(&saved),
            ..inputs("", &other)
        });
        assert_eq!(fresh.session.workspace.docs[0].text, "kind: Pod\n");
    }

    #[test]
    fn a_damaged_link_opens_the_learners_own_work_with_a_notice() {
        let own = mine().encode();
        let link = a_link();
        let cut = &link[..link.len() - 20];
        let s = start(&Inputs {
            own: Some(&own),
            ..inputs("", cut)
        });
        assert_eq!(s.home, Home::Own);
        assert_eq!(s.session, mine());
        assert_eq!(s.notice, Some(T::LinkDamaged));
        // Some other anchor is not a link and says nothing.
        let s = start(&inputs("", "#section-2"));
        assert_eq!((s.home, s.notice), (Home::Own, None));
    }

    #[test]
    fn an_embed_never_reads_the_learners_work() {
        let own = mine().encode();
        let s = start(&Inputs {
            own: Some(&own),
            ..inputs(
                "?embed&scenario=message&lang=ko&speed=60&until=2m&at=5m",
                "",
            )
        });
        assert_eq!(s.home, Home::Nowhere);
        assert!(s.awaiting_host);
        assert!(s.session.workspace.docs.is_empty());
        assert_eq!(s.session.lang, Lang::Ko);
        assert_eq!(s.session.speed, 60);
        assert_eq!(s.session.clock_ms, 120_000, "at is clamped to until");
        let link = a_link();
        let s = start(&Inputs {
            own: Some(&own),
            ..inputs("?embed", &link)
        });
        assert!(s.session.workspace.docs[0].text.contains("name: shared"));
        assert!(!s.awaiting_host);
    }
}

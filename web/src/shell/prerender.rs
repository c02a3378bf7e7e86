//! The first visit's page, drawn at build time.
//!
//! A phone on a slow network needs seconds for the page's and the engine's wasm (about
//! 1.1 MB gzipped), yet a first visit always opens the same page: the first lesson, at time
//! 0, in English or (a Korean browser) in Korean. So the build plays that page once per
//! language, natively, with the same views and the same engine the browser runs: the
//! engine's replies to the first load (the reader's findings and the first cluster) are
//! recorded, the page is rendered to HTML from them (Leptos's server-side rendering), and
//! both go into `dist/index.html` ([`inject`]): the English copy in the body, the Korean one
//! in a `<template>` that a Korean browser swaps in before the first paint. The browser
//! paints that HTML as soon as it and the stylesheet arrive.
//!
//! The drawn copy is `inert`: nothing can be typed into it, so nothing typed can be lost
//! when the live page replaces it. When the page's wasm starts, [`adopt`] hands it the
//! recorded replies if the page starts exactly as the build drew it (the same session, byte
//! for byte), so its first render is the same cluster; the live page's last build step
//! ([`crate::state::Staging`]) then calls [`retire`], which removes the copy in the task that
//! shows the live page. A visit that starts elsewhere (a share link, an embed, a saved
//! workspace) never shows the copy: a script in `index.html` hides it before the first
//! paint, and the page starts as it always did.
//!
//! A returning learner gets the same from the page itself: when the page is hidden or left,
//! it saves a copy of itself as it is ([`Saved`], under
//! [`SAVED_KEY`](crate::base::browser::SAVED_KEY)) with the replies that put its cluster on
//! screen ([`crate::state::Engine::replies_on_screen`]). On the next visit `index.html`'s gate
//! shows that copy instead of the build's (`kpg-saved`) if it was saved by the same build with
//! the session now saved, byte for byte; [`adopt`] hands the live page its replies by the same
//! rule as the build's, and [`retire`] removes it the same way.

use serde::{Deserialize, Serialize};

use crate::base::i18n::Lang;

/// The element holding the drawn page.
pub const CONTAINER_ID: &str = "kpg-prerender";
/// The `<script type="application/json">` holding [`Recorded`].
pub const DATA_ID: &str = "kpg-prerendered";
/// The `<template>` holding the Korean copy and its [`Recorded`].
pub const KOREAN_ID: &str = "kpg-prerender-ko";
/// Copies whose JSON is longer than this (bytes) are not kept: the learner's work needs the
/// room more.
pub const SAVED_MAX_BYTES: usize = 1 << 20;

/// The page as the learner left it, for the next visit to show before its wasm arrives.
/// `index.html`'s gate reads it (the field names are that script's too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Saved {
    /// The build that drew it ([`build_in`](crate::base::browser::build_in)): another build's
    /// views or replies may differ.
    pub build: String,
    /// The session saved with it ([`crate::state::persist::Session::encode`]).
    pub session: String,
    /// The engine's replies that put its cluster on screen.
    pub replies: Vec<String>,
    /// The live page's `.app`, as HTML.
    pub html: String,
}

/// What the build recorded: the session it drew and the engine's replies to its first load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recorded {
    /// The session, encoded ([`crate::state::persist::Session::encode`]).
    pub session: String,
    /// The worker's messages, as it posts them ([`crate::bridge::protocol::FromWorker`]).
    pub replies: Vec<String>,
}

/// The start of a first visit: no address, no storage, a browser in `lang`.
pub fn first_visit(lang: Lang) -> crate::shell::boot::Start {
    crate::shell::boot::start(&crate::shell::boot::Inputs {
        query: "",
        fragment: "",
        own: None,
        linked: None,
        browser_lang: lang,
    })
}

/// The recorded replies, if the page starts with the session they were recorded for (the
/// engine's replies to the first load are a function of the session), and not as an embed,
/// which may open the same lesson but talks to its host. None otherwise.
pub fn matching(recorded: Option<Recorded>, start: &crate::shell::boot::Start) -> Vec<String> {
    match recorded {
        Some(r) if start.embed.is_none() && r.session == start.session.encode() => r.replies,
        _ => Vec::new(),
    }
}

/// In the browser: the build's replies for this start, read from the page.
pub fn adopt(start: &crate::shell::boot::Start) -> Vec<String> {
    let recorded = crate::base::browser::element_text(DATA_ID)
        .and_then(|text| serde_json::from_str::<Recorded>(&text).ok());
    matching(recorded, start)
}

/// In the browser, once the live page is mounted: the drawn copy goes.
pub fn retire() {
    crate::base::browser::remove_element(CONTAINER_ID);
    crate::base::browser::remove_element(DATA_ID);
}

/// A first visit's page drawn in one language, with what the engine replied.
pub struct Drawn {
    pub html: String,
    pub recorded: Recorded,
}

/// What goes into `<body>`: the English page, its recorded replies, the Korean page and its
/// replies in a `<template>`, the script that swaps in the Korean copy (`index.html` marks a
/// Korean first visit `kpg-ko` before the body is read) or a returning learner's saved one
/// ([`Saved`]: `kpg-saved`, handed over as `window.__kpgSaved`), and the mark the page's benchmark
/// reads as the first cluster render (set, as the live page sets it, in the animation frame
/// before the first paint). The copy is `inert` and hidden from assistive technology until it
/// is live; `index.html` hides it altogether for a visit it does not match.
pub fn body_html(english: &Drawn, korean: &Drawn) -> String {
    format!(
        "<div id=\"{CONTAINER_ID}\" inert aria-busy=\"true\">{}</div>\n\
         <script type=\"application/json\" id=\"{DATA_ID}\">{}</script>\n\
         <template id=\"{KOREAN_ID}\"><div>{}</div>\
         <script type=\"application/json\">{}</script></template>\n\
         <script>(function () {{\
         var html = document.documentElement;\
         var korean = document.getElementById('{KOREAN_ID}');\
         var saved = window.__kpgSaved;\
         delete window.__kpgSaved;\
         if (html.classList.contains('kpg-saved') && saved) {{\
         try {{\
         var box = document.getElementById('{CONTAINER_ID}');\
         box.innerHTML = saved.html;\
         document.getElementById('{DATA_ID}').textContent = \
         JSON.stringify({{ session: saved.session, replies: saved.replies }});\
         var lang = box.firstElementChild && box.firstElementChild.getAttribute('data-lang');\
         if (lang) html.lang = lang;\
         }} catch (e) {{ html.classList.add('kpg-no-prerender'); }}\
         }} else if (html.classList.contains('kpg-ko')) {{\
         var parts = korean.content.children;\
         document.getElementById('{CONTAINER_ID}').replaceChildren(...parts[0].childNodes);\
         document.getElementById('{DATA_ID}').textContent = parts[1].textContent;\
         html.lang = 'ko';\
         }}\
         korean.remove();\
         if (!html.classList.contains('kpg-no-prerender')) \
         requestAnimationFrame(function () {{ performance.mark('kpg-first-render'); }});\
         }})();</script>\n",
        english.html,
        script_json(&english.recorded),
        korean.html,
        script_json(&korean.recorded),
    )
}

/// `recorded` as JSON that cannot end its `<script>` element early: `</script>` or `<!--`
/// inside a string would; `\u003c` is the same JSON.
fn script_json(recorded: &Recorded) -> String {
    serde_json::to_string(recorded)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

/// `index.html` with `body` at the start of its `<body>`.
pub fn inject(index_html: &str, body: &str) -> Result<String, String> {
    if index_html.contains(&format!("id=\"{CONTAINER_ID}\"")) {
        return Err(format!(
            "the page already holds a drawn copy (#{CONTAINER_ID})"
        ));
    }
    // The body's tag after the head's end (a script or comment in the head may name it).
    let head_end = index_html
        .find("</head>")
        .ok_or("no `</head>` in the page")?;
    let body_tag = head_end
        + index_html[head_end..]
            .find("<body")
            .ok_or("no `<body>` tag in the page")?;
    let at = body_tag
        + index_html[body_tag..]
            .find('>')
            .ok_or("the `<body>` tag is not closed")?
        + 1;
    Ok(format!(
        "{}\n{}{}",
        &index_html[..at],
        body,
        &index_html[at..]
    ))
}

/// The engine's replies to the first load of `start`, as the worker would post them.
#[cfg(any(test, feature = "prerender"))]
pub fn record(start: &crate::shell::boot::Start) -> Recorded {
    use crate::bridge::engine_host::{Host, Outbox};
    use crate::bridge::protocol::{FromWorker, Reply, Request};

    struct Replies(Vec<String>);
    impl Outbox for Replies {
        fn send(&mut self, reply: Reply) {
            self.0.push(FromWorker::new(1, reply).encode());
        }
        fn progress_due(&mut self) -> bool {
            false
        }
    }
    let session = &start.session;
    let mut out = Replies(Vec::new());
    Host::new().handle(
        Request::Load {
            ws: session.workspace.clone(),
            at: session.clock_ms,
            fallback: session.last_good.clone(),
        },
        &mut out,
    );
    Recorded {
        session: session.encode(),
        replies: out.0,
    }
}

/// The page for `start` with the recorded replies shown, as HTML.
#[cfg(feature = "prerender")]
pub fn render(start: crate::shell::boot::Start, recorded: &Recorded) -> String {
    use leptos::prelude::*;

    let prerendered = recorded.replies.clone();
    // A server's shared context: Leptos then knows it is not in a browser (window listeners
    // and effects stay off).
    let owner = Owner::new_root(Some(std::sync::Arc::new(
        hydration_context::SsrSharedContext::new(),
    )));
    owner.with(|| {
        let staging = crate::state::Staging::whole();
        view! { <crate::shell::app::Playground start prerendered staging/> }
            .into_view()
            .to_html()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded(lang: Lang) -> Recorded {
        Recorded {
            session: first_visit(lang).session.encode(),
            replies: vec![format!("a reply in {}", lang.code())],
        }
    }

    #[test]
    fn the_replies_are_used_only_for_the_start_they_were_recorded_for() {
        let first = first_visit(Lang::En);
        assert_eq!(
            matching(Some(recorded(Lang::En)), &first),
            vec!["a reply in en"]
        );
        let mut edited = first_visit(Lang::En);
        edited.session.workspace.docs[0].text.push_str("# mine\n");
        assert!(matching(Some(recorded(Lang::En)), &edited).is_empty());
        // A Korean browser's first visit takes the Korean recording, never the English one.
        let korean = first_visit(Lang::Ko);
        assert_eq!(korean.session.lang, Lang::Ko);
        assert_eq!(
            matching(Some(recorded(Lang::Ko)), &korean),
            vec!["a reply in ko"]
        );
        assert!(matching(Some(recorded(Lang::En)), &korean).is_empty());
        assert!(matching(Some(recorded(Lang::Ko)), &first).is_empty());
        assert!(matching(None, &first).is_empty());
        // An embed of the same lesson starts from the same session, but it reports to its
        // host from its own first cluster.
        let embed = crate::shell::boot::start(&crate::shell::boot::Inputs {
            query: "?embed=1",
            fragment: "",
            own: None,
            linked: None,
            browser_lang: Lang::En,
        });
        assert_eq!(embed.session, first.session);
        assert!(matching(Some(recorded(Lang::En)), &embed).is_empty());
        // A build from other sources recorded another session.
        let mut other = recorded(Lang::En);
        other.session = edited.session.encode();
        assert!(matching(Some(other), &first).is_empty());
    }

    #[test]
    fn a_saved_copy_answers_the_session_it_was_saved_with() {
        // A returning learner: the replies the page saved with its session are used when the
        // page starts with that session again, never with another one, never in an embed.
        let mut mine = first_visit(Lang::En);
        mine.session.workspace.docs[0].text.push_str("# mine\n");
        mine.session.clock_ms = 90_000;
        let saved = Recorded {
            session: mine.session.encode(),
            replies: vec!["the cluster I left".into()],
        };
        let returning = crate::shell::boot::start(&crate::shell::boot::Inputs {
            query: "",
            fragment: "",
            own: Some(&mine.session.encode()),
            linked: None,
            browser_lang: Lang::En,
        });
        assert_eq!(returning.home, crate::state::Home::Own);
        assert_eq!(
            matching(Some(saved.clone()), &returning),
            vec!["the cluster I left"]
        );
        let mut later = returning.session.clone();
        later.clock_ms += 1;
        let moved = crate::shell::boot::start(&crate::shell::boot::Inputs {
            query: "",
            fragment: "",
            own: Some(&later.encode()),
            linked: None,
            browser_lang: Lang::En,
        });
        assert!(matching(Some(saved.clone()), &moved).is_empty());
        assert!(matching(Some(saved), &first_visit(Lang::En)).is_empty());
    }

    #[test]
    fn the_build_is_the_hash_in_the_page_script_name() {
        use crate::base::browser::build_in;

        let script = "import init, * as bindings from './kpg-web-5f2c47603675c71e.js';\n\
                      const wasm = await init({ \
                      module_or_path: './kpg-web-5f2c47603675c71e_bg.wasm' });";
        assert_eq!(build_in(script), Some("5f2c47603675c71e"));
        assert_eq!(build_in("import init from './kpg-web-.js';"), None);
        assert_eq!(build_in("import init from './other.js';"), None);
    }

    fn drawn(html: &str, recorded: Recorded) -> Drawn {
        Drawn {
            html: html.into(),
            recorded,
        }
    }

    #[test]
    fn the_data_cannot_end_its_script_element() {
        let r = Recorded {
            session: "</script><script>alert(1)</script>".into(),
            replies: vec!["<!-- x".into()],
        };
        let body = body_html(
            &drawn("<p>page</p>", r.clone()),
            &drawn("<p>쪽</p>", r.clone()),
        );
        let data = body
            .split("id=\"kpg-prerendered\">")
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .unwrap();
        assert!(!data.contains('<'));
        assert_eq!(serde_json::from_str::<Recorded>(data).unwrap(), r);
        let korean = body
            .split(concat!(
                "<template id=\"kpg-prerender-ko\"><div><p>쪽</p></div>",
                "<script type=\"application/json\">"
            ))
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .unwrap();
        assert_eq!(serde_json::from_str::<Recorded>(korean).unwrap(), r);
    }

    #[test]
    fn the_english_copy_shows_and_the_korean_one_waits_in_a_template() {
        let body = body_html(
            &drawn("<p>page</p>", recorded(Lang::En)),
            &drawn("<p>쪽</p>", recorded(Lang::Ko)),
        );
        assert!(
            body.starts_with(
                "<div id=\"kpg-prerender\" inert aria-busy=\"true\"><p>page</p></div>"
            )
        );
        let template = body.find("<template id=\"kpg-prerender-ko\">").unwrap();
        assert!(
            body.find("쪽").unwrap() > template,
            "the Korean page is only in the template"
        );
        assert!(body.contains("a reply in ko") && body.contains("a reply in en"));
    }

    #[test]
    fn the_copy_goes_first_in_the_body_once() {
        let page = "<html><head><script>// into <body></script></head><body class=\"x\">\n\
                    <noscript>js</noscript>\n</body></html>";
        let out = inject(page, "<div id=\"kpg-prerender\"></div>").unwrap();
        assert!(out.starts_with(
            "<html><head><script>// into <body></script></head><body class=\"x\">\n\
             <div id=\"kpg-prerender\">"
        ));
        assert!(out.contains("<noscript>js</noscript>"));
        assert!(inject(&out, "again").is_err());
        assert!(inject("<html></html>", "x").is_err());
    }

    #[test]
    fn the_replies_on_screen_draw_the_same_cluster_again() {
        // `state::Engine`'s saved replies, tested here where a first visit is recorded.
        use leptos::prelude::*;

        use crate::editor::workspace::Analysis;
        use crate::state::{Engine, Staging};

        let owner = Owner::new();
        owner.with(|| {
            let fresh = || Engine::new(None, RwSignal::new(Analysis::default()), Staging::whole());
            assert!(
                fresh().replies_on_screen().is_empty(),
                "nothing to save before the first cluster"
            );
            // The first lesson five minutes in: a node launched, pods bound, events logged.
            let mut start = crate::shell::prerender::first_visit(Lang::En);
            start.session.clock_ms = 300_000;
            let recorded = crate::shell::prerender::record(&start);
            let left = fresh();
            left.show_prerendered(&recorded.replies);
            assert!(!left.snapshot.with_untracked(|s| s.events.is_empty()));
            assert!(left.snapshot.with_untracked(|s| s.summary.nodes > 0));
            let replies = left.replies_on_screen();
            let back = fresh();
            back.show_prerendered(&replies);
            assert_eq!(back.snapshot.get_untracked(), left.snapshot.get_untracked());
            assert_eq!(back.now.get_untracked(), 300_000);
            assert_eq!(
                back.next_event.get_untracked(),
                left.next_event.get_untracked()
            );
            assert_eq!(
                back.last_good.get_untracked(),
                left.last_good.get_untracked()
            );
            assert_eq!(back.analysis.get_untracked(), left.analysis.get_untracked());
        });
    }
}

//! The page: where it starts, its state (the contexts of [`crate::state`], made and provided
//! here), the effects that push that state outward, and the layout. The panes live in their
//! own modules.

use leptos::prelude::*;

use kpg_share::View;

use crate::base::browser;
use crate::base::i18n::{Lang, T};
use crate::bridge::player::MAX_TIME_MS;
use crate::share::share_view::LinkedBanner;
use crate::shell::boot;
use crate::shell::prerender;
use crate::state::persist::{self, LINKED_KEY, Linked, STORAGE_KEY};
use crate::state::{
    BottomTab, Compare, Editor, Engine, Home, Host, LessonState, Locale, Notice, Opened, Page,
    PhoneView, Selected, Selection, SessionState, Staging, Step, Transport,
};
use crate::views::cluster_view::{ClusterPane, LessonPane};
use crate::views::manifests_pane::ManifestsPane;
use crate::views::terminal_view::Term;
use crate::views::topbar::{Header, NoticeBar};

/// How many of the open document's lines the page's saved copy shows in its editor.
const COPY_EDITOR_LINES: usize = 80;
/// How long typing in a large workspace pauses before it is saved.
const SAVE_PAUSE_MS: u64 = 700;

/// Where the page starts: the address and local storage, read once.
pub(crate) fn boot() -> boot::Start {
    let (query, fragment) = browser::address();
    let embedded = kpg_share::EmbedOptions::from_query(&query).is_some();
    // An embed reads no storage: an article must not see the learner's work.
    let own = (!embedded)
        .then(|| browser::load(STORAGE_KEY))
        .flatten()
        .map(persist::from_storage);
    let linked = (!embedded)
        .then(|| browser::load(LINKED_KEY))
        .flatten()
        .map(persist::from_storage);
    boot::start(&boot::Inputs {
        query: &query,
        fragment: &fragment,
        own: own.as_deref(),
        linked: linked.as_deref(),
        browser_lang: Lang::from_browser(browser::language().as_deref()),
    })
}

/// Writes the session where it belongs: the learner's own, the linked workspace, or (an
/// embed) nowhere. Returns the learner's own session as written, if that is where it went.
/// If the browser refuses even the packed session (storage full, or none), the learner is
/// told at once, not on the next reload.
fn save(session: SessionState, page: Page) -> Option<String> {
    let session = session.now();
    let (saved, own) = page.home.with_value(|home| match home {
        Home::Own => {
            let text = persist::to_storage(session.encode());
            (browser::save_work(STORAGE_KEY, &text), Some(text))
        }
        Home::Linked { fragment } => {
            let json = serde_json::to_string(&Linked {
                fragment: fragment.clone(),
                session,
            })
            .unwrap_or_default();
            (
                browser::save_work(LINKED_KEY, &persist::to_storage(json)),
                None,
            )
        }
        Home::Nowhere => (true, None),
    });
    let told = page
        .notice
        .with_untracked(|n| n.as_ref().is_some_and(|n| n.text == T::NotSaved));
    if !saved && !told {
        page.tell(T::NotSaved);
    } else if saved && told {
        page.notice.set(None);
    }
    own.filter(|_| saved)
}

/// On leaving (the page hidden or unloaded), after [`save`]: a copy of the learner's own page
/// as it is, with the replies that drew its cluster, for the next visit to show before the
/// wasm has arrived ([`prerender::Saved`]). While the page is still being built (a learner
/// who switches away during the load) there is nothing to copy, and the copy saved before
/// stays: it shows again only if it matches the session saved now.
fn save_copy(session: Option<String>, engine: Engine, staging: Staging, editor: Editor) {
    let Some(session) = session else {
        return;
    };
    if !staging.shown() {
        return;
    }
    // The copy shows the open document in the textarea editor, its first screenful coloured.
    let first_lines = editor.ws.with_untracked(|w| {
        let id = editor.active_doc.get_untracked();
        w.docs
            .iter()
            .find(|d| d.id == id)
            .map(|d| {
                d.text
                    .split_inclusive('\n')
                    .take(COPY_EDITOR_LINES)
                    .collect::<String>()
            })
            .unwrap_or_default()
    });
    let lines = first_lines.lines().count().max(1);
    let coloured = crate::editor::highlight::to_html(&first_lines, &[]);
    let (Some(html), Some(build)) = (
        browser::app_copy_html(&coloured, lines),
        browser::build_id(),
    ) else {
        return;
    };
    let replies = engine.replies_on_screen();
    if replies.is_empty() {
        return;
    }
    let saved = prerender::Saved {
        build,
        session,
        replies,
        html,
    };
    // A copy too large to keep, or one storage refuses, goes: the one before it would show
    // an older page.
    let text = serde_json::to_string(&saved)
        .ok()
        .filter(|text| text.len() <= prerender::SAVED_MAX_BYTES);
    if !text.is_some_and(|text| browser::save(browser::SAVED_KEY, &text)) {
        browser::forget(browser::SAVED_KEY);
    }
}

/// The page in the browser: where it starts, read from the address and local storage, and
/// the cluster the build drew for a first visit when this is that visit (see
/// [`crate::shell::prerender`]).
#[component]
pub fn App() -> impl IntoView {
    let mut start = boot();
    // The first visit of a new build says so, unless the start has its own notice.
    if crate::shell::offline::arrived(start.embed.is_some()) {
        start.notice.get_or_insert(T::NewBuild);
    }
    let prerendered = crate::shell::prerender::adopt(&start);
    let staging = Staging::stepwise();
    // The live page is whole: the build's copy of a first visit goes, in the same task, so no
    // frame shows both or neither.
    staging.when_shown(|| {
        crate::shell::prerender::retire();
        browser::mark("kpg-interactive");
    });
    view! { <Playground start prerendered staging/> }
}

/// The page from a given start. `prerendered` are the engine's replies to the first load,
/// recorded by the build: shown at once, while the worker computes the same again.
/// `staging` says which parts are built yet ([`Staging`]: in the browser the page is built in
/// steps, one task each).
#[component]
pub fn Playground(start: boot::Start, prerendered: Vec<String>, staging: Staging) -> impl IntoView {
    let session = start.session;
    let notice = start.notice.map(|text| Notice {
        text,
        after: (matches!(text, T::LinkDamaged | T::LinkTooLarge | T::LinkNewer)
            && start.home == Home::Own)
            .then_some(T::LinkBrokenAfter),
        detail: None,
        undo: None,
    });
    let embed = start.embed.clone();
    let page = Page::new(start.home, start.embed, notice);
    let locale = Locale::new(session.lang);
    let readonly = embed.as_ref().is_some_and(|o| o.readonly);
    let opened = Opened::new(session.lesson, session.step, session.lab);
    let editor = Editor::new(session.workspace, session.active_doc, readonly, opened);
    let engine = Engine::new(session.last_good, editor.analysis, staging);
    // The build's replies are decoded in the header's step, not the first task: the header
    // is the first view that reads them.
    staging.before(Step::Header, move || engine.show_prerendered(&prerendered));
    // The clock stops at an embed's `until`, otherwise at the page's horizon.
    let limit_ms = embed
        .as_ref()
        .and_then(|o| o.until)
        .map_or(MAX_TIME_MS, |u| (u as i64).min(MAX_TIME_MS));
    let transport = Transport::new(
        engine,
        session.clock_ms,
        session.speed,
        limit_ms,
        page.is_embed(),
    );
    // An embed shows one scenario; only the full page compares.
    let compare = (!page.is_embed()).then(|| Compare::new(session.baseline.clone(), engine));
    let lesson = LessonState::new(opened, session.drafts, compare, page.notice);
    let selection = Selection::new(
        session.selected.as_ref().map(Selected::from_shared),
        session.tab.unwrap_or(BottomTab::Events),
        embed
            .as_ref()
            .and_then(|o| o.views().first().copied())
            .unwrap_or(View::Cluster),
        if page.is_embed() {
            Host::Embed {
                explains: page.shows(View::Explain),
            }
        } else {
            Host::Page
        },
        engine,
        transport.clock.into(),
        locale,
    );
    let choices = SessionState {
        locale,
        editor,
        lesson,
        transport,
        engine,
        selection,
        compare,
    };
    if let Some(compare) = compare {
        provide_context(compare);
    }
    provide_context(staging);
    provide_context(page);
    provide_context(locale);
    provide_context(editor);
    provide_context(engine);
    provide_context(transport);
    provide_context(lesson);
    provide_context(selection);
    provide_context(choices);
    provide_context(Term::install(
        engine,
        editor,
        transport,
        locale,
        !page.is_embed(),
    ));

    // Every edit goes to the engine, to be read and, if it reads cleanly, simulated to the
    // current instant. Invalid manifests do not replace what runs: the last good simulation
    // stays on screen and the Problems panel says why. After a reload with a broken edit,
    // that means the last good manifests saved with the session.
    Effect::new(move |_| {
        editor
            .ws
            .with(|ws| engine.load(ws, transport.clock.get_untracked()))
    });

    // Save when what the learner chose changes; the clock while playing when it stops and
    // when the page is hidden or left.
    // A large workspace is saved once typing pauses: encoding and packing megabytes on
    // every key would make typing lag (leaving the page saves at once, below).
    let pending_save = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        choices.track_choices();
        let large = editor
            .ws
            .with_untracked(|w| w.docs.iter().map(|d| d.text.len()).sum::<usize>())
            > persist::PACK_ABOVE;
        if let Some(h) = pending_save.get_value() {
            h.clear();
        }
        if large {
            let later = set_timeout_with_handle(
                move || {
                    pending_save.set_value(None);
                    save(choices, page);
                },
                std::time::Duration::from_millis(SAVE_PAUSE_MS),
            );
            pending_save.set_value(later.ok());
        } else {
            save(choices, page);
        }
    });
    // A key typed in CodeMirror within its change delay is read first, so it is saved too.
    let hidden = window_event_listener(leptos::ev::visibilitychange, move |_| {
        crate::editor::code_editor::flush();
        let saved = save(choices, page);
        if browser::hidden() {
            save_copy(saved, engine, staging, editor);
        }
    });
    let leaving = window_event_listener(leptos::ev::pagehide, move |_| {
        crate::editor::code_editor::flush();
        save_copy(save(choices, page), engine, staging, editor)
    });
    on_cleanup(move || {
        hidden.remove();
        leaving.remove();
    });
    Effect::new(move |_| browser::set_document_lang(locale.lang.get().code()));

    // Space plays or pauses and `.` steps, unless the key is typed into something (the
    // editor, the terminal, a field) or is part of an IME composition: one rule, in the page
    // and in an embed (`browser::key_is_taken`).
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let typed = browser::key_is_typed(&ev);
        // Ctrl+Z outside a text field (after a click on a lesson's step, a tab, Reset) takes
        // back the last change to the manifests; the editor handles its own (and marks the
        // key handled).
        if let Some(redo) = crate::views::manifests_pane::undo_key(&ev)
            && !ev.default_prevented()
            && !typed
            && !editor.readonly
            && !page.is_embed()
        {
            ev.prevent_default();
            if redo {
                editor.redo()
            } else {
                editor.undo()
            };
            return;
        }
        if browser::key_is_taken(&ev)
            || ev.default_prevented()
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
        {
            return;
        }
        match ev.key().as_str() {
            " " => {
                ev.prevent_default();
                transport.toggle_play();
            }
            "." => transport.step_once(),
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    // Another share link pasted into the address bar of an open page changes only the
    // fragment: start afresh from it, as a new tab would.
    if !page.is_embed() {
        let hash = window_event_listener(leptos::ev::hashchange, move |_| {
            let (_, fragment) = browser::address();
            if kpg_share::is_link(&fragment) {
                browser::reload();
            }
        });
        on_cleanup(move || hash.remove());
    }

    // A lesson the link carries is read (by the lesson reader, fetched for it) and opened
    // around the link's manifests, which show meanwhile.
    if let Some((files, step)) = start.lesson_to_read {
        read_linked_lesson(&files, step, lesson, page);
    }

    // The remaining steps, each in a task of its own after this one.
    staging.run();
    if let Some(options) = embed {
        crate::shell::embed::install(&options, start.awaiting_host);
        return view! { <crate::shell::embed::EmbedApp/> }.into_any();
    }
    view! {
        <div class="app" class:staging=move || !staging.shown()
            data-lang=move || locale.lang.get().code()>
            // The first stop of Tab: straight to the cluster (its pending pods, its lanes),
            // past the header, the lesson and the editor. Not a `#fragment` link: the
            // fragment holds a shared scenario.
            <a class="skip-link" href="#cluster-title" on:click=move |ev| {
                ev.prevent_default();
                selection.phone_view.set(PhoneView::Cluster);
                browser::focus_selector(".pane.cluster");
            }>{move || locale.t(T::SkipToCluster)}</a>
            <Show when=move || staging.has(Step::Header)><Header/></Show>
            <LinkedBanner/>
            <NoticeBar/>
            // Karpenter's decisions, told to a screen reader as the clock passes them.
            <crate::views::narration_view::Narration/>
            <Show when=move || staging.has(Step::Header)><PhoneViews/></Show>
            <main class="panes" data-view=move || selection.phone_view.get().code()>
                <Show when=move || staging.has(Step::Lesson)><LessonPane/></Show>
                <Show when=move || staging.has(Step::Manifests)><ManifestsPane/></Show>
                <Show when=move || staging.has(Step::Cluster)><ClusterPane/></Show>
            </main>
        </div>
    }
    .into_any()
}

/// A phone's way between the page's panes, one shown at a time (hidden on a wide screen,
/// where they all show). It stays at the top with the transport, so Play is always in reach.
#[component]
fn PhoneViews() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let selection = expect_context::<Selection>();
    let engine = expect_context::<Engine>();
    // Another view starts at its top (the manifests' tabs, not where the cluster was
    // scrolled to).
    Effect::new(move |was: Option<PhoneView>| {
        let view = selection.phone_view.get();
        if was.is_some_and(|w| w != view) {
            browser::scroll_to_top(".panes");
        }
        view
    });
    let label = |view: PhoneView| match view {
        PhoneView::Lesson => T::Lesson,
        PhoneView::Cluster => T::Cluster,
        PhoneView::Manifests => T::Manifests,
        PhoneView::Inspect => T::InspectView,
    };
    view! {
        <nav class="phone-views" aria-label=move || locale.t(T::PhoneViews)>
            {PhoneView::ALL
                .into_iter()
                .map(|view| {
                    view! {
                        <button class="phone-view" data-view=view.code()
                            aria-pressed=move || (selection.phone_view.get() == view).to_string()
                            on:click=move |_| selection.phone_view.set(view)>
                            {move || locale.t(label(view))}
                            {(view == PhoneView::Cluster).then(|| view! {
                                <span class="pending-dot" class:some=move || {
                                    engine.snapshot.with(|s| s.summary.pods_pending > 0)
                                }></span>
                            })}
                        </button>
                    }
                })
                .collect_view()}
        </nav>
    }
}

/// Reads a lesson a share link carries and opens it at the link's step; a lesson that does
/// not read leaves the link's manifests open, and the notice says why.
fn read_linked_lesson(
    files: &kpg_share::LessonFiles,
    step: usize,
    lesson: LessonState,
    page: Page,
) {
    use crate::lessons::elsewhere;
    elsewhere::read(
        files.request(),
        elsewhere::Translations::Given,
        elsewhere::nothing_more(),
        Box::new(move |outcome| match outcome {
            Ok(id) => lesson.adopt(&id, step),
            Err(problems) => page.notice.set(Some(Notice {
                detail: Some(problems.join("; ")),
                ..Notice::plain(T::LessonDoesNotRead)
            })),
        }),
    );
}

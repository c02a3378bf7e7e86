//! Embed mode: the page inside an article's iframe (`index.html?embed&…`).
//!
//! The cluster and the clock come first; the manifests are a tab away, or beside the cluster
//! when the frame is wide enough. The embed saves nothing, reads no storage, never takes
//! focus on its own (so the article keeps its keyboard: Space scrolls the article unless the
//! reader clicked into the embed), sizes its iframe through `kpg:resize`, and talks to its
//! parent window only, in the messages of [`crate::bridge::embed_protocol`].

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use kpg_share::{EmbedOptions, Theme, View};

use crate::base::browser;
use crate::base::i18n::T;
use crate::base::snapshot::Snapshot;
use crate::bridge::embed_protocol::{self, EmbedMessage, HostMessage, LoadError, VERSION};
use crate::bridge::protocol::{Reply, Request};
use crate::lessons::elsewhere::{self, Fetch, Files};
use crate::state::{
    Editor, Engine, LessonState, Locale, Notice, Page, Selection, SessionState, Transport,
};
use crate::views::cluster_view::{ClusterBody, Events, LessonCard};
use crate::views::explain_view::ExplainPane;
use crate::views::manifests_pane::ManifestsPane;
use crate::views::terminal_view::TerminalPane;
use crate::views::topbar::{Cost, NoticeBar, TransportBar};

/// From this frame width the manifests sit beside the cluster.
const SPLIT_MIN_PX: f64 = 860.0;

/// Wires the embed to its host: theme, messages, size, the cluster's changes, and
/// `kpg:ready`. Runs in the app, after its contexts are provided.
pub fn install(options: &EmbedOptions, awaiting_host: bool) {
    let locale = expect_context::<Locale>();
    let page = expect_context::<Page>();
    let editor = expect_context::<Editor>();
    let engine = expect_context::<Engine>();
    let transport = expect_context::<Transport>();
    let selection = expect_context::<Selection>();
    if let Some(html) = document().document_element() {
        match options.theme {
            Theme::Light => {
                let _ = html.set_attribute("data-theme", "light");
            }
            Theme::Dark => {
                let _ = html.set_attribute("data-theme", "dark");
            }
            Theme::Auto => {}
        }
        let _ = html.set_attribute("data-embed", "");
    }
    let lesson_state = expect_context::<LessonState>();
    let waiting = RwSignal::new(awaiting_host);
    provide_context(Waiting(waiting));
    // A lesson from elsewhere (the host's, a link's) shows its card above the views.
    let lesson_open =
        Memo::new(move |_| crate::lessons::from_elsewhere(&lesson_state.lesson.get()).is_some());
    provide_context(LessonOpen(lesson_open));
    // The reply to the lab files a lesson asked the host for.
    let pending_files = StoredValue::new_local(None::<Box<dyn FnOnce(Files)>>);
    let autoplay = options.autoplay;
    let start_at = options.at.unwrap_or(0) as i64;

    let listener = window_event_listener(leptos::ev::message, move |ev| {
        let Some(json) = browser::message_from_parent(&ev) else {
            return;
        };
        let Some(message) = HostMessage::parse(&json) else {
            return;
        };
        match message {
            HostMessage::Load { yaml, at } => {
                waiting.set(false);
                let at = at.map_or(start_at, |t| t as i64);
                let opened = match editor.open_stream(&yaml, at, transport, selection) {
                    Ok(()) => true,
                    Err(why) => {
                        page.tell(why);
                        false
                    }
                };
                // Load now rather than in the next round of effects, so the answer (and any
                // command the host queued behind the load) sees the loaded cluster.
                if opened {
                    editor.ws.with_untracked(|ws| {
                        engine.load(ws, transport.clock.get_untracked());
                    });
                }
                report_loaded(engine, editor, transport, yaml, opened, autoplay);
            }
            HostMessage::Play => transport.set_playing(true),
            HostMessage::Pause => transport.set_playing(false),
            HostMessage::Seek { at } => transport.seek(at as i64),
            HostMessage::Lang(lang) => locale.lang.set(lang),
            HostMessage::Speed(speed) => transport.speed.set(speed),
            HostMessage::Lesson {
                text,
                url,
                translations,
            } => {
                waiting.set(false);
                // The lesson's name: its URL's path, so that its lab files resolve to paths
                // the host fetches beside it; one written in the article is `lesson.yaml`,
                // its labs beside the article.
                let file = url
                    .as_deref()
                    .and_then(|u| u.split_once("://").map(|(_, rest)| rest))
                    .and_then(|rest| rest.find('/').map(|i| &rest[i..]))
                    .map(|path| path.split(['?', '#']).next().unwrap_or(path).to_string())
                    .unwrap_or_else(|| "lesson.yaml".into());
                let request = kpg_lesson::prepared::ReadRequest {
                    file,
                    text,
                    base: url,
                    ..Default::default()
                };
                let fetch: Fetch = std::rc::Rc::new(move |paths, reply| {
                    pending_files.set_value(Some(reply));
                    browser::post_to_parent(&EmbedMessage::NeedFiles { paths }.to_json());
                });
                let done = Box::new(move |outcome: Result<String, Vec<String>>| match outcome {
                    Ok(id) => {
                        lesson_state.open_lesson(&id, editor, transport);
                        let yaml = editor.ws.with_untracked(|ws| {
                            engine.load(ws, transport.clock.get_untracked());
                            ws.to_stream()
                        });
                        report_loaded(engine, editor, transport, yaml, true, autoplay);
                    }
                    Err(problems) => {
                        page.notice.set(Some(Notice {
                            detail: Some(problems.join("; ")),
                            ..Notice::plain(T::LessonDoesNotRead)
                        }));
                        let message = EmbedMessage::Loaded {
                            ok: false,
                            documents: 0,
                            errors: problems
                                .into_iter()
                                .map(|message| LoadError {
                                    document: 0,
                                    line: 0,
                                    column: 0,
                                    message,
                                })
                                .collect(),
                            at: 0,
                        };
                        browser::post_to_parent(&message.to_json());
                    }
                });
                // A lesson on the web may have its translations beside it (the host names
                // them); one written in the article is in its own words only.
                let translations = if request.base.is_some() {
                    elsewhere::Translations::Beside(translations)
                } else {
                    elsewhere::Translations::Given
                };
                elsewhere::read(request, translations, fetch, done);
            }
            HostMessage::Files { files } => {
                if let Some(reply) = pending_files.try_update_value(Option::take).flatten() {
                    reply(files);
                }
            }
        }
    });
    on_cleanup(move || listener.remove());

    // Tells the host what changed in the cluster (a node launched, a pod scheduled) from one
    // snapshot to the next of the same story: a load, a seek back or a restart is not news.
    let last = StoredValue::new_local(None::<(u64, Snapshot)>);
    engine.on_change(move || {
        let now = engine.snapshot.get_untracked();
        let story = engine.story();
        let before = last.try_update_value(|l| l.replace((story, now.clone())));
        if let Some(Some((last_story, before))) = before
            && last_story == story
        {
            for event in embed_protocol::changes(&before, &now) {
                browser::post_to_parent(&EmbedMessage::Event { event }.to_json());
            }
        }
    });

    // A timer, not an animation frame: browsers give no frames to a cross-origin iframe
    // outside the viewport, and a host may script an embed before the reader scrolls to it.
    set_timeout(
        move || {
            observe_height();
            browser::post_to_parent(&EmbedMessage::Ready { version: VERSION }.to_json());
            if autoplay && !awaiting_host {
                transport.set_playing(true);
            }
        },
        std::time::Duration::ZERO,
    );
}

/// Whether the embed still waits for its host's scenario.
#[derive(Clone, Copy)]
struct Waiting(RwSignal<bool>);

/// Whether the embed holds a guided lesson from elsewhere (its host's, or one its link
/// carries): it then shows the lesson's card above the views.
#[derive(Clone, Copy)]
struct LessonOpen(Memo<bool>);

/// Answers a `load`: whether it read cleanly and, if not, each error at its line and column
/// in the YAML the host sent (the reader's own diagnostics of that text).
/// Then, if it opened without errors and the embed autoplays, plays it.
fn report_loaded(
    engine: Engine,
    editor: Editor,
    transport: Transport,
    yaml: String,
    opened: bool,
    autoplay: bool,
) {
    engine.ask(Request::Check { yaml }, move |reply| {
        let Reply::Checked { errors } = reply else {
            return;
        };
        let errors: Vec<LoadError> = errors
            .into_iter()
            .map(|e| LoadError {
                document: e.document,
                line: e.line,
                column: e.column,
                message: e.message,
            })
            .collect();
        let clean = errors.is_empty();
        let message = EmbedMessage::Loaded {
            ok: opened && clean,
            documents: editor.ws.with_untracked(|w| w.docs.len()),
            errors,
            at: transport.clock.get_untracked(),
        };
        browser::post_to_parent(&message.to_json());
        if opened && autoplay && clean {
            transport.set_playing(true);
        }
    });
}

/// Tells the host the content's height whenever it changes, so the iframe never scrolls.
fn observe_height() {
    let Some(app) = document().query_selector(".app.embed").ok().flatten() else {
        return;
    };
    let last = std::cell::Cell::new(0u32);
    let report = move |el: &web_sys::Element| {
        let height = el.get_bounding_client_rect().height().ceil() as u32;
        if height != last.get() {
            last.set(height);
            browser::post_to_parent(&EmbedMessage::Resize { height }.to_json());
        }
    };
    let target = app.clone();
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
        report(&target);
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        observer.observe(&app);
    }
    // The observer lives as long as the page.
    callback.forget();
}

fn view_label(v: View) -> T {
    match v {
        View::Cluster => T::Cluster,
        View::Manifests => T::Manifests,
        View::Events => T::Events,
        View::Explain => T::Explain,
        View::Terminal => T::Terminal,
    }
}

#[component]
pub fn EmbedApp() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let page = expect_context::<Page>();
    let selection = expect_context::<Selection>();
    let choices = expect_context::<SessionState>();
    let Waiting(waiting) = expect_context::<Waiting>();
    let LessonOpen(lesson_open) = expect_context::<LessonOpen>();
    let views = page
        .embed
        .with_value(|o| o.as_ref().map(EmbedOptions::views).unwrap_or_default());
    let width = || {
        window()
            .inner_width()
            .ok()
            .and_then(|w| w.as_f64())
            .unwrap_or(0.0)
    };
    let wide = RwSignal::new(width() >= SPLIT_MIN_PX);
    let resize = window_event_listener(leptos::ev::resize, move |_| {
        wide.set(width() >= SPLIT_MIN_PX)
    });
    on_cleanup(move || resize.remove());
    let has_manifests = views.contains(&View::Manifests);
    let others: Vec<View> = views
        .iter()
        .copied()
        .filter(|v| *v != View::Manifests)
        .collect();
    let first_other = others.first().copied();
    let split = Memo::new(move |_| wide.get() && has_manifests && first_other.is_some());
    let current = Memo::new(move |_| match selection.embed_view.get() {
        View::Manifests if split.get() => first_other.unwrap_or(View::Cluster),
        v => v,
    });
    // The full page, with the scenario as it is at the moment of the click.
    let refresh_href = move |ev: web_sys::Event| {
        if let Some(a) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            a.set_href(&choices.share_link());
        }
    };
    let tabs = views
        .iter()
        .copied()
        .map(|v| {
            view! {
                <button role="tab" class="embed-tab" data-view=v.name()
                    class:in-split=v == View::Manifests
                    aria-selected=move || (current.get() == v).to_string()
                    on:click=move |_| selection.embed_view.set(v)>{move || {
                        locale.t(view_label(v))
                    }}</button>
            }
        })
        .collect_view();
    view! {
        <div class="app embed" class:split=move || split.get()
            data-lang=move || locale.lang.get().code()
            data-view=move || current.get().name()>
            <header class="embed-bar">
                <TransportBar/>
                <Cost/>
                <a class="open-full" target="_blank" rel="noopener" href=browser::page_url()
                    title=move || locale.t(T::OpenInPlaygroundHelp)
                    on:pointerenter=move |ev| refresh_href(ev.into())
                    on:focus=move |ev| refresh_href(ev.into())
                    on:click=move |ev| refresh_href(ev.into())>{move || {
                        locale.t(T::OpenInPlayground)
                    }}</a>
            </header>
            <NoticeBar/>
            <Show when=move || waiting.get()>
                <p class="waiting" role="status">{move || locale.t(T::WaitingForScenario)}</p>
            </Show>
            <Show when=move || lesson_open.get()>
                <section class="pane lesson-pane embed-lesson"><LessonCard/></section>
            </Show>
            <div class="embed-main">
                <Show when=move || split.get()>
                    <div class="embed-manifests"><ManifestsPane/></div>
                </Show>
                <div class="embed-side">
                    <div class="embed-tabs" role="tablist"
                        aria-label=move || locale.t(T::EmbedTitle)>{tabs}</div>
                    <div class="embed-view">
                        {move || match current.get() {
                            View::Cluster => view! {
                                <section class="pane cluster embed-cluster"><ClusterBody/></section>
                            }.into_any(),
                            View::Manifests => view! { <ManifestsPane/> }.into_any(),
                            View::Events => {
                                view! { <div class="bottom"><Events/></div> }.into_any()
                            }
                            View::Explain => {
                                view! { <div class="bottom"><ExplainPane/></div> }.into_any()
                            }
                            View::Terminal => {
                                view! { <div class="bottom"><TerminalPane/></div> }.into_any()
                            }
                        }}
                    </div>
                </div>
            </div>
        </div>
    }
}

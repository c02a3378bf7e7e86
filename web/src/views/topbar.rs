//! The top bar: the brand, the lesson picker, the transport, the cost, Share and the
//! language switch; and the notice under it. An embed's bar reuses the transport, the cost
//! and the notice.

use leptos::prelude::*;

use crate::base::i18n::{Lang, T};
use crate::base::snapshot;
use crate::bridge::protocol::{Reply, Request};
use crate::editor::undo::Change;
use crate::lessons;
use crate::share::share_view::ShareButton;
use crate::state::{Editor, Engine, LessonState, Locale, Notice, Page, SPEEDS, Transport};
use kpg_core::karpenter::Version;

#[component]
pub fn Header() -> impl IntoView {
    let locale = expect_context::<Locale>();
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true"></span>
                <div>
                    <h1>{move || locale.t(T::AppTitle)}</h1>
                    // Under the title, so the bar keeps to one row at 1280 px: the tagline
                    // (wide screens only) and the book (docs/book, built into dist/docs/).
                    <p class="brand-sub">
                        <span class="tagline">{move || locale.t(T::Tagline)}</span>
                        <a class="guide-link" href="docs/" target="_blank" rel="noopener"
                            title=move || locale.t(T::GuideHelp)>{move || locale.t(T::Guide)}</a>
                    </p>
                </div>
            </div>
            <LessonPicker/>
            <VersionPicker/>
            <TransportBar/>
            <Cost/>
            <ShareButton/>
            <Langs/>
        </header>
    }
}

#[component]
pub fn NoticeBar() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let page = expect_context::<Page>();
    let editor = expect_context::<Editor>();
    let transport = expect_context::<Transport>();
    let notice = page.notice;
    let undo = move |_| {
        if let Some(Notice {
            undo: Some((ws, active)),
            ..
        }) = notice.get_untracked()
        {
            transport.cue(0);
            editor.restore(active, ws);
        }
        notice.set(None);
    };
    view! {
        <Show when=move || notice.with(Option::is_some)>
            <div class="notice" role="status">
                <span class="notice-text">
                    {move || notice.get().map(|n| {
                        // A detail goes where the sentence has `{}` (word order differs by
                        // language).
                        let mut text = locale
                            .t(n.text)
                            .replace("{}", n.detail.as_deref().unwrap_or_default());
                        if let Some(a) = n.after {
                            text.push(' ');
                            text.push_str(locale.t(a));
                        }
                        text
                    })}
                </span>
                <Show when=move || notice.with(|n| n.as_ref().is_some_and(|n| n.undo.is_some()))>
                    <button class="secondary undo"
                        on:click=undo>{move || locale.t(T::Undo)}</button>
                </Show>
                <button class="ghost"
                    on:click=move |_| notice.set(None)>{move || locale.t(T::Dismiss)}</button>
            </div>
        </Show>
    }
}

/// What the cluster costs per hour now.
#[component]
pub fn Cost() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let cost = move || engine.snapshot.with(|s| s.summary.cost_per_hour);
    view! {
        <div class="cost" title=move || locale.t(T::ApproxNote)>
            <strong class="per-hour">{move || snapshot::dollars(cost())}</strong>
            <span class="unit">{move || locale.t(T::PerHour)}</span>
        </div>
    }
}

/// Play, step, restart, the speeds and the clock.
#[component]
pub fn TransportBar() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let transport = expect_context::<Transport>();
    let Transport { playing, speed, .. } = transport;
    view! {
            <div class="transport" role="group" aria-label=move || locale.t(T::Clock)>
                <button class="primary play" aria-pressed=move || playing.get().to_string()
                    on:click=move |_| transport.toggle_play()
                    title=move || {
                        if playing.get() { locale.t(T::Pause) } else { locale.t(T::Play) }
                    }>
                    <span aria-hidden="true">{move || if playing.get() { "❚❚" } else { "▶" }}</span>
                    <span class="label">{move || {
                        if playing.get() { locale.t(T::Pause) } else { locale.t(T::Play) }
                    }}</span>
                </button>
                <button class="next-instant" on:click=move |_| transport.step_once()
                    title=move || locale.t(T::StepHelp)>
                    <span aria-hidden="true">"⇥"</span>
                    <span class="label">{move || locale.t(T::Step)}</span>
                </button>
                <button on:click=move |_| transport.restart() title=move || locale.t(T::Restart)>
                    <span aria-hidden="true">"↺"</span>
                    <span class="label">{move || locale.t(T::Restart)}</span>
                </button>
                <div class="speeds" role="group" aria-label=move || locale.t(T::Speed)>
                    {SPEEDS
                        .into_iter()
                        .map(|s| {
                            view! {
                                <button class="speed"
                                    aria-pressed=move || (speed.get() == s).to_string()
                                    on:click=move |_| speed.set(s)>{format!("{s}×")}</button>
                            }
                        })
                        .collect_view()}
                </div>
                <ClockGoTo/>
            </div>
    }
}

/// The clock, which is also the way to any instant: a click (or Enter) on it turns it into
/// a field; typing `2:30` or `5m` and Enter goes there, as the cost chart's seek does.
#[component]
fn ClockGoTo() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let transport = expect_context::<Transport>();
    let clock = transport.clock;
    let editing = RwSignal::new(false);
    let invalid = RwSignal::new(false);
    let field = NodeRef::<leptos::html::Input>::new();
    // The field opens with the clock's own text, selected, so typing replaces it.
    // (In the next frame: the field's value is set after it mounts.)
    Effect::new(move |_| {
        if let Some(input) = field.get() {
            request_animation_frame(move || {
                let _ = input.focus();
                input.select();
            });
        }
    });
    let close = move || {
        editing.set(false);
        invalid.set(false);
        // Once the clock is back in the field's place.
        request_animation_frame(|| crate::base::browser::focus_selector(".transport .clock-go"));
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "Enter" if !ev.is_composing() => {
            ev.prevent_default();
            let text = event_target_value(&ev);
            match snapshot::parse_clock(&text) {
                Some(t) => {
                    transport.seek(t);
                    close();
                }
                None => invalid.set(true),
            }
        }
        "Escape" => {
            ev.prevent_default();
            close();
        }
        _ => invalid.set(false),
    };
    view! {
        <Show when=move || editing.get() fallback=move || view! {
            <button class="clock-go" title=move || locale.t(T::GoToTimeHelp)
                on:click=move |_| editing.set(true)>
                <output class="clock" aria-label=move || locale.t(T::Clock)
                    data-ms=move || clock.get().to_string()>
                    {move || snapshot::clock(clock.get())}
                </output>
            </button>
        }>
            <input class="clock-input" type="text" node_ref=field spellcheck="false"
                autocomplete="off" aria-label=move || locale.t(T::GoToTime)
                title=move || locale.t(T::GoToTimeHelp)
                aria-invalid=move || invalid.get().to_string()
                prop:value=snapshot::clock(clock.get_untracked())
                on:keydown=on_key
                on:blur=move |_| {
                    editing.set(false);
                    invalid.set(false);
                }/>
        </Show>
    }
}

/// The language switch.
#[component]
pub fn Langs() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let lang = locale.lang;
    view! {
        <div class="langs" role="group" aria-label=move || locale.t(T::Language)>
            <button lang="en" aria-pressed=move || (lang.get() == Lang::En).to_string()
                on:click=move |_| lang.set(Lang::En)>"EN"</button>
            <button lang="ko" aria-pressed=move || (lang.get() == Lang::Ko).to_string()
                on:click=move |_| lang.set(Lang::Ko)>"한국어"</button>
        </div>
    }
}

/// The Karpenter version the simulation follows. Choosing one writes it into the Cluster
/// document (adding one if the scenario has none), so the choice is part of the manifests:
/// it is undone with them, saved with them and carried by a share link.
#[component]
fn VersionPicker() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let editor = expect_context::<Editor>();
    let choose = move |version: String| {
        if editor.readonly {
            return;
        }
        // The worker finds the Cluster document and edits it (that parses YAML).
        let ws = editor.ws.get_untracked();
        engine.ask(Request::SetVersion { ws, version }, move |reply| {
            let Reply::VersionSet { doc, text } = reply else {
                return;
            };
            editor.change(Change::Version, move |ws, active| match doc {
                Some(id) => {
                    if let Some(i) = ws.index_of(id) {
                        ws.docs[i].text = text;
                        *active = id;
                    }
                }
                None => *active = ws.push(text),
            });
        });
    };
    view! {
        <label class="version-picker">
            <span class="label">{move || locale.t(T::KarpenterVersion)}</span>
            <select title=move || locale.t(T::KarpenterVersionHelp)
                aria-label=move || locale.t(T::KarpenterVersionHelp)
                disabled=editor.readonly
                on:change=move |ev| choose(event_target_value(&ev))
                prop:value=move || engine.karpenter.get()>
                {move || {
                    let ko = locale.lang.get() == Lang::Ko;
                    Version::all()
                    .rev()
                    .map(|v| {
                        let name = v.to_string();
                        let label = match (v == Version::LATEST, v == Version::LTS, ko) {
                            (true, _, false) => format!("{name} (latest)"),
                            (true, _, true) => format!("{name} (최신)"),
                            (_, true, false) => format!("{name} (LTS)"),
                            (_, true, true) => format!("{name} (장기 지원)"),
                            _ => name.clone(),
                        };
                        let value = name.clone();
                        view! {
                            <option value=value
                                selected=move || engine.karpenter.get() == name>{label}</option>
                        }
                    })
                    .collect_view()
                }}
            </select>
        </label>
    }
}

#[component]
fn LessonPicker() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let lesson = expect_context::<LessonState>();
    let editor = expect_context::<Editor>();
    let transport = expect_context::<Transport>();
    view! {
        <label class="lesson-picker">
            <span class="label visually-hidden">{move || locale.t(T::Lessons)}</span>
            <select title=move || locale.t(T::LessonPickerHelp)
                on:change=move |ev| lesson.open_lesson(&event_target_value(&ev), editor, transport)
                prop:value=move || lesson.lesson.get()>
                {move || {
                    let lang = locale.lang.get();
                    // A lesson read from elsewhere (a link's) joins the list when it opens.
                    lesson.lesson.track();
                    lessons::all(lang)
                        .into_iter()
                        .map(|l| {
                            let id = l.id.clone();
                            view! {
                                <option value=l.id.clone()
                                    selected=move || lesson.lesson.with(|open| *open == id)>{
                                    l.title.clone()
                                }</option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

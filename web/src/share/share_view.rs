//! Sharing: the Share dialog (a link, the scenario as a file, an embed snippet with a live
//! preview, a report for an upstream Karpenter issue) and the banner over a workspace opened
//! from a link.

use leptos::prelude::*;

use kpg_share::{EmbedOptions, Theme};

use crate::base::browser;
use crate::base::i18n::T;
use crate::base::words::{self, Noun};
use crate::bridge::protocol::{Reply, Request};
use crate::share::share_poster;
use crate::state::Home;
use crate::state::persist::{LINKED_KEY, STORAGE_KEY};
use crate::state::{Editor, Engine, Locale, Page, SessionState};

/// Over a workspace opened from a share link: the learner's own is safe, and one click away.
#[component]
pub fn LinkedBanner() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let page = expect_context::<Page>();
    let choices = expect_context::<SessionState>();
    let linked = page.home.with_value(|h| matches!(h, Home::Linked { .. }));
    let back = move |_| browser::navigate(&browser::page_url());
    let keep = move |_| {
        if browser::confirm(locale.t(T::KeepConfirm)) {
            browser::save_work(
                STORAGE_KEY,
                &crate::state::persist::to_storage(choices.now().encode()),
            );
            browser::remove(LINKED_KEY);
            browser::navigate(&browser::page_url());
        }
    };
    linked.then(|| {
        view! {
            <div class="linked-banner" role="region" aria-label=move || locale.t(T::SharedBanner)>
                <span>{move || locale.t(T::SharedBanner)}</span>
                <button class="primary back-to-mine"
                    on:click=back>{move || locale.t(T::BackToMine)}</button>
                <button class="secondary keep-as-mine"
                    on:click=keep>{move || locale.t(T::KeepAsMine)}</button>
            </div>
        }
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Link,
    Embed,
    Report,
}

#[component]
pub fn ShareButton() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let open = RwSignal::new(false);
    let button: NodeRef<leptos::html::Button> = NodeRef::new();
    // Closing gives focus back to the button that opened the dialog.
    Effect::new(move |was_open: Option<bool>| {
        let now = open.get();
        if was_open == Some(true)
            && !now
            && let Some(b) = button.get_untracked()
        {
            let _ = b.focus();
        }
        now
    });
    view! {
        <button class="share-btn" node_ref=button aria-haspopup="dialog"
            on:click=move |_| open.set(true)>
            <span aria-hidden="true">"⤴ "</span>{move || locale.t(T::Share)}
        </button>
        <Show when=move || open.get()>
            <ShareDialog open/>
        </Show>
    }
}

/// The dialog opens on a picture of the scenario as it is when opened: the link does not
/// change under the learner's cursor while the clock runs.
#[component]
fn ShareDialog(open: RwSignal<bool>) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let editor = expect_context::<Editor>();
    let choices = expect_context::<SessionState>();
    let session = choices.now();
    let shared = choices.shared_now();
    let page = browser::page_url();
    let link = kpg_share::link(&page, &shared);
    let long = link.len() > kpg_share::LONG_LINK_CHARS;
    let tab = RwSignal::new(Tab::Link);
    let copied = RwSignal::new(false);
    let close = move || open.set(false);
    let keys = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            close();
        }
    };

    // Embed options, and the snippets and preview derived from them.
    let autoplay = RwSignal::new(false);
    let readonly = RwSignal::new(false);
    let start_here = RwSignal::new(shared.at > 0);
    let theme = RwSignal::new(Theme::Auto);
    let iframe_form = RwSignal::new(false);
    let live = RwSignal::new(kpg_share::Live::Visible);
    let at = shared.at;
    let options = Memo::new(move |_| EmbedOptions {
        autoplay: autoplay.get(),
        readonly: readonly.get(),
        at: (start_here.get() && at > 0).then_some(at),
        theme: theme.get(),
        live: live.get(),
        ..EmbedOptions::default()
    });
    let yaml = session.workspace.to_stream();
    // The cluster at each instant the dialog shows (the embed's, the link's), drawn by the
    // worker from the snippet's own YAML as `kpg share` draws it.
    let engine = expect_context::<Engine>();
    let figures = RwSignal::new(Vec::<(u64, Result<kpg_scene::poster::Figure, String>)>::new());
    let ask_figure = {
        let yaml = yaml.clone();
        move |at: u64| {
            if figures.with_untracked(|f| f.iter().any(|(t, _)| *t == at)) {
                return;
            }
            let request = Request::Poster {
                yaml: yaml.clone(),
                at: at as i64,
            };
            engine.ask(request, move |reply| {
                if let Reply::Poster { at, figure } = reply {
                    figures.update(|f| f.push((at as u64, figure)));
                }
            });
        }
    };
    let figure_at = move |at: u64| {
        figures.with(|f| {
            f.iter()
                .find(|(t, _)| *t == at)
                .and_then(|(_, r)| r.as_ref().ok().cloned())
        })
    };
    ask_figure(at);
    {
        let ask_figure = ask_figure.clone();
        Effect::new(move |_| ask_figure(options.get().at.unwrap_or(0)));
    }
    let dir = kpg_share::playground_dir(&page);
    let title = format!(
        "Karpenter Playground: {}",
        crate::editor::workspace::title(
            session
                .workspace
                .docs
                .first()
                .map_or("", |d| d.text.as_str())
        )
    );
    let (dir2, shared2, title2) = (dir.clone(), shared.clone(), title.clone());
    let yaml2 = yaml.clone();
    let snippet = Memo::new(move |_| {
        let o = options.get();
        if iframe_form.get() {
            kpg_share::iframe_snippet(&dir2, &shared2, &o, &title2, 480)
        } else if let Some(figure) = figure_at(o.at.unwrap_or(0)) {
            kpg_share::figure_snippet(&dir2, &yaml2, &o, &figure)
        } else {
            // Until the worker has drawn the poster (or where it cannot): the bare <pre>.
            kpg_share::script_snippet(&dir2, &yaml2, &o)
        }
    });
    let drawing = Memo::new(move |_| {
        !iframe_form.get()
            && figures.with(|f| {
                let at = options.get().at.unwrap_or(0);
                !f.iter().any(|(t, _)| *t == at)
            })
    });
    // The link preview page: where it will be published, and its downloads.
    let page_url = RwSignal::new(String::new());
    let page_url_ok = Memo::new(move |_| share_poster::is_page_url(&page_url.get()));
    let link_for_preview = link.clone();
    let download_page = move |_| {
        if let Some(figure) = figure_at(at) {
            let html = kpg_share::figure_preview_page(
                &figure,
                &link_for_preview,
                page_url.get_untracked().trim(),
            );
            browser::download("index.html", &html, "text/html");
        }
    };
    let download_image = move |_| {
        if let Some(figure) = figure_at(at) {
            share_poster::download_image(&figure);
        }
    };
    let (dir3, shared3) = (dir.clone(), shared.clone());
    let preview = Memo::new(move |_| {
        format!(
            "{dir3}index.html{}#{}",
            options.get().to_query(),
            kpg_share::encode(&shared3)
        )
    });
    let link_text = link.clone();
    let copy_link = move |_| {
        browser::copy_text(&link_text);
        copied.set(true);
    };
    let copy_snippet = move |_| {
        browser::copy_text(&snippet.get_untracked());
        copied.set(true);
    };
    // The report's findings come from the worker (it reads and simulates the scenario,
    // several times), once, when its tab is first opened; this thread writes the block with
    // the link, from the same documents, instant and address as the Link tab's: the block
    // `kpg share --issue --base ADDRESS --at INSTANT` prints.
    let report = RwSignal::new(None::<Result<kpg_issue::Issue, String>>);
    let asked = StoredValue::new(false);
    let (report_docs, report_at, report_base) = (shared.docs.clone(), shared.at, page.clone());
    let ask_report = move || {
        if asked.get_value() {
            return;
        }
        asked.set_value(true);
        let engine = expect_context::<Engine>();
        let request = Request::Report {
            docs: report_docs.clone(),
            at: report_at,
        };
        let base = report_base.clone();
        engine.ask(request, move |reply| {
            if let Reply::Reported(r) = reply {
                report.set(Some(r.map(|findings| kpg_issue::block(&findings, &base))));
            }
        });
    };
    let tab_button = move |which: Tab, label: T, class: &'static str| {
        let ask_report = ask_report.clone();
        view! {
            <button role="tab" class=class aria-selected=move || (tab.get() == which).to_string()
                on:click=move |_| {
                    if which == Tab::Report {
                        ask_report();
                    }
                    tab.set(which);
                    copied.set(false);
                }>{move || locale.t(label)}</button>
        }
    };
    let check = move |signal: RwSignal<bool>, label: T, class: &'static str| {
        view! {
            <label class=class>
                <input type="checkbox" prop:checked=move || signal.get()
                    on:change=move |ev| signal.set(event_target_checked(&ev))/>
                " "{move || locale.t(label)}
            </label>
        }
    };
    let link_len = link.len();
    // Opening moves focus into the dialog, onto its main action.
    let first: NodeRef<leptos::html::Button> = NodeRef::new();
    request_animation_frame(move || {
        if let Some(b) = first.get_untracked() {
            let _ = b.focus();
        }
    });
    view! {
        <div class="migration-backdrop share-backdrop" on:click=move |_| close()>
            <div class="migration share" role="dialog" aria-modal="true"
                aria-labelledby="share-title"
                on:keydown=keys on:click=|ev| ev.stop_propagation()>
                <h3 id="share-title">{move || locale.t(T::ShareTitle)}</h3>
                <div class="share-tabs" role="tablist">
                    {tab_button(Tab::Link, T::LinkTab, "tab-link")}
                    {tab_button(Tab::Embed, T::EmbedTab, "tab-embed")}
                    {tab_button(Tab::Report, T::ReportTab, "tab-report")}
                </div>
                <Show when=move || tab.get() == Tab::Link>
                    <p class="share-help">{move || locale.t(T::ShareLinkHelp)}</p>
                    <div class="share-row">
                        <input class="share-link" readonly prop:value=link.clone()
                            aria-label=move || locale.t(T::LinkTab)
                            on:focus=|ev| {
                                event_target::<web_sys::HtmlInputElement>(&ev).select()
                            }/>
                        <button class="primary copy-link" node_ref=first
                            on:click=copy_link.clone()>{move || locale.t(T::CopyLink)}</button>
                    </div>
                    <p class="share-size" class:long=long>
                        {move || {
                            let chars =
                                words::count(link_len, Noun::Character, locale.lang.get());
                            view! {
                                {chars.before}<span class="share-length"
                                    data-chars=link_len.to_string()>{chars.number}</span>
                                {chars.after}
                            }
                        }}
                        {long.then(|| view! {
                            " · "<strong class="too-long">{move || {
                                locale.t(T::LinkTooLong)
                            }}</strong>
                        })}
                    </p>
                    <div class="share-row">
                        <button
                            class=if long {
                                "primary download-yaml"
                            } else {
                                "secondary download-yaml"
                            }
                            title=move || locale.t(T::DownloadHelp)
                            on:click=move |_| editor.download()>
                            "⤓ "{move || locale.t(T::DownloadYaml)}
                        </button>
                    </div>
                    <h4 class="preview-page-title">{move || locale.t(T::PreviewPageTitle)}</h4>
                    <p class="share-help">{move || locale.t(T::PreviewPageHelp)}</p>
                    <label class="preview-page-url">{move || locale.t(T::PreviewPageUrl)}" "
                        <input type="url" placeholder="https://" prop:value=move || page_url.get()
                            on:input=move |ev| page_url.set(event_target_value(&ev))/>
                    </label>
                    <div class="share-row">
                        <button class="secondary download-preview-page"
                            disabled=move || !page_url_ok.get() || figure_at(at).is_none()
                            on:click=download_page.clone()>
                            "⤓ "{move || locale.t(T::DownloadPreviewPage)}
                        </button>
                        <button class="secondary download-preview-image"
                            disabled=move || figure_at(at).is_none()
                            on:click=download_image>
                            "⤓ "{move || locale.t(T::DownloadPreviewImage)}
                        </button>
                    </div>
                </Show>
                <Show when=move || tab.get() == Tab::Embed>
                    <p class="share-help">{move || locale.t(T::EmbedHelp)}</p>
                    <div class="embed-options">
                        {check(autoplay, T::Autoplay, "opt-autoplay")}
                        {check(readonly, T::ReadOnly, "opt-readonly")}
                        {(at > 0).then(|| check(start_here, T::StartHere, "opt-at"))}
                        <label class="opt-theme">{move || locale.t(T::Theme)}" "
                            <select on:change=move |ev| {
                                theme.set(match event_target_value(&ev).as_str() {
                                    "light" => Theme::Light,
                                    "dark" => Theme::Dark,
                                    _ => Theme::Auto,
                                })
                            }>
                                <option value="auto">{move || locale.t(T::ThemeAuto)}</option>
                                <option value="light">{move || locale.t(T::ThemeLight)}</option>
                                <option value="dark">{move || locale.t(T::ThemeDark)}</option>
                            </select>
                        </label>
                        <label class="opt-live">{move || locale.t(T::LiveWhen)}" "
                            <select on:change=move |ev| {
                                live.set(
                                    kpg_share::Live::parse(&event_target_value(&ev))
                                        .unwrap_or_default(),
                                )
                            }>
                                <option value="visible">{move || locale.t(T::LiveVisible)}</option>
                                <option value="click">{move || locale.t(T::LiveClick)}</option>
                                <option value="never">{move || locale.t(T::LiveNever)}</option>
                            </select>
                        </label>
                    </div>
                    <div class="embed-forms" role="radiogroup">
                        <label><input type="radio" name="embed-form"
                            prop:checked=move || !iframe_form.get()
                            on:change=move |_| iframe_form.set(false)/>" "{move || {
                            locale.t(T::EmbedScript)
                        }}</label>
                        <label><input type="radio" name="embed-form" class="form-iframe"
                            prop:checked=move || iframe_form.get()
                            on:change=move |_| iframe_form.set(true)/>" "{move || {
                            locale.t(T::EmbedIframe)
                        }}</label>
                    </div>
                    <p class="poster-drawing" role="status">{move || {
                        drawing.get().then(|| locale.t(T::PosterDrawing))
                    }}</p>
                    <textarea class="snippet" readonly rows="6" prop:value=move || snippet.get()
                        aria-label=move || locale.t(T::EmbedTab)></textarea>
                    <div class="share-row">
                        <button class="primary copy-snippet"
                            on:click=copy_snippet>{move || locale.t(T::CopySnippet)}</button>
                    </div>
                    <h4 class="preview-title">{move || locale.t(T::Preview)}</h4>
                    <iframe class="embed-preview" src=move || preview.get()
                        title=title.clone()></iframe>
                </Show>
                <Show when=move || tab.get() == Tab::Report>
                    <ReportPanel report copied/>
                </Show>
                <div class="migration-actions">
                    <span class="copied" role="status">{move || {
                        copied.get().then(|| locale.t(T::Copied))
                    }}</span>
                    <button class="secondary close"
                        on:click=move |_| close()>{move || locale.t(T::Close)}</button>
                </div>
            </div>
        </div>
    }
}

/// The "Report to Karpenter" tab: the block in a read-only text area, a Copy button, and what
/// was redacted. The block is English whatever the page's language: it is for upstream.
#[component]
fn ReportPanel(
    report: RwSignal<Option<Result<kpg_issue::Issue, String>>>,
    copied: RwSignal<bool>,
) -> impl IntoView {
    let locale = expect_context::<Locale>();
    view! {
        <p class="share-help">{move || locale.t(T::ReportHelp)}</p>
        <p class="share-help report-redacted">{move || locale.t(T::ReportRedacted)}</p>
        {move || match report.get() {
            None => view! {
                <p class="report-making" role="status">{move || locale.t(T::ReportMaking)}</p>
            }
            .into_any(),
            Some(Err(why)) => view! {
                <p class="report-failed" role="alert">
                    {move || locale.t(T::ReportFailed)}" "{why}
                </p>
            }
            .into_any(),
            Some(Ok(issue)) => {
                let markdown = issue.markdown.clone();
                let copy = move |_| {
                    browser::copy_text(&markdown);
                    copied.set(true);
                };
                view! {
                    {(!issue.reproduces).then(|| view! {
                        <p class="report-warning" role="alert">
                            {move || locale.t(T::ReportNotReproduced)}
                        </p>
                    })}
                    <textarea class="snippet report-block" readonly rows="14"
                        lang="en" prop:value=issue.markdown.clone()
                        aria-label=move || locale.t(T::ReportTab)></textarea>
                    <div class="share-row">
                        <button class="primary copy-report"
                            on:click=copy>{move || locale.t(T::CopyReport)}</button>
                    </div>
                }
                .into_any()
            }
        }}
    }
}

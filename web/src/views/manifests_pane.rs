//! The left pane: one tab per document, the YAML editor, and the Problems panel.

use leptos::html;
use leptos::prelude::*;

use crate::base::i18n::T;
use crate::bridge::protocol::{Reply, Request};
use crate::editor::code_editor::{self, Diagnostic};
use crate::editor::highlight::{self, Mark};
use crate::editor::migration::Preview;
use crate::editor::opening::Refusal;
use crate::editor::undo::Change;
use crate::editor::workspace::{Template, Workspace, title};
use crate::state::{Editor, Engine, Locale, Notice, Page, Selection, Staging, Transport};
use wasm_bindgen::JsCast;

/// Line height of the editor in pixels; `style.css` uses the same figure.
const LINE_PX: f64 = 20.0;
/// The largest document the textarea editor colours.
const HIGHLIGHT_MAX_BYTES: usize = 256 * 1024;
/// How long typing in CodeMirror pauses before the page reads the text: each read copies the
/// whole text across (2 MB: about 15 ms), so a burst of keys pays once.
const CHANGE_DELAY_MS: u32 = 150;
/// How long after the live page shows CodeMirror's bundle is fetched: after its first frames.
const CM_LOAD_DELAY_MS: u64 = 300;

#[component]
pub fn ManifestsPane() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let page = expect_context::<Page>();
    let editor = expect_context::<Editor>();
    let opener = FileOpener::from_context();
    // A YAML file dropped anywhere on the pane opens like one picked with "Open file…".
    let dragging = RwSignal::new(false);
    let accepts_files = !editor.readonly && !page.is_embed();
    let on_dragover = move |ev: leptos::ev::DragEvent| {
        if accepts_files {
            ev.prevent_default();
            dragging.set(true);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        dragging.set(false);
        if !accepts_files {
            return;
        }
        ev.prevent_default();
        if let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            opener.open(file);
        }
    };
    view! {
        <section class="pane manifests" aria-labelledby="manifests-title"
            class:dragging=move || dragging.get()
            on:dragover=on_dragover on:dragleave=move |_| dragging.set(false) on:drop=on_drop>
            <Show when=move || dragging.get()>
                <div class="drop-hint" aria-hidden="true">{move || locale.t(T::DropHere)}</div>
            </Show>
            <h2 id="manifests-title" class="visually-hidden">{move || locale.t(T::Manifests)}</h2>
            <DocTabs/>
            <YamlEditor/>
            <Problems/>
        </section>
    }
}

#[component]
fn DocTabs() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let page = expect_context::<Page>();
    let editor = expect_context::<Editor>();
    let opener = FileOpener::from_context();
    let tabs = Memo::new(move |_| {
        editor.ws.with(|w| {
            w.docs
                .iter()
                .map(|d| {
                    let errors = editor.analysis.with(|a| {
                        a.problems
                            .iter()
                            .filter(|p| p.doc_id == d.id && p.error)
                            .count()
                    });
                    (d.id, title(&d.text), errors)
                })
                .collect::<Vec<_>>()
        })
    });
    // Keep the open tab in view when it changes (a click in Problems, a new template). Not
    // in an embed: scrolling an element into view there would scroll the article too.
    Effect::new(move |_| {
        let id = editor.active_doc.get();
        if page.is_embed() {
            return;
        }
        request_animation_frame(move || {
            if let Some(el) = document()
                .query_selector(&format!("[data-doc=\"{id}\"]"))
                .ok()
                .flatten()
            {
                crate::base::browser::reveal(&el);
            }
        });
    });
    let add_open = RwSignal::new(false);
    let add = move |t: Template| {
        editor.change(Change::Tabs, |w: &mut Workspace, active| {
            let text = t.text(w);
            *active = w.push(text);
        });
        add_open.set(false);
    };
    let remove = move |_| {
        editor.change(Change::Tabs, |w, active| {
            if let Some(i) = w.index_of(*active) {
                w.docs.remove(i);
                *active = w.docs.get(i).or_else(|| w.docs.last()).map_or(0, |d| d.id);
            }
        });
    };
    let shift = move |delta: isize| {
        editor.change(Change::Tabs, |w, active| {
            w.shift(*active, delta);
        });
    };
    view! {
        <div class="doc-bar">
            <div class="doc-tabs" role="tablist" aria-label=move || locale.t(T::Manifests)>
                <For each=move || tabs.get() key=|t| t.clone() let:tab>
                    {
                        let (id, name, errors) = tab;
                        let selected = move || editor.active_doc.get() == id;
                        view! {
                            <button role="tab" class="doc-tab" class:has-errors={errors > 0}
                                aria-selected=move || selected().to_string()
                                tabindex=move || if selected() { "0" } else { "-1" }
                                data-doc=id.to_string()
                                on:click=move |_| editor.active_doc.set(id)
                                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                    let delta = match ev.key().as_str() {
                                        "ArrowRight" => 1,
                                        "ArrowLeft" => -1,
                                        _ => 0,
                                    };
                                    if delta != 0 {
                                        ev.prevent_default();
                                        let docs = tabs.get_untracked();
                                        if let Some(i) = docs.iter().position(|t| t.0 == id) {
                                            let j = (i as isize + delta)
                                                .rem_euclid(docs.len() as isize)
                                                as usize;
                                            editor.active_doc.set(docs[j].0);
                                            focus_tab(docs[j].0);
                                        }
                                    }
                                }>
                                <span class="kind">{if name.is_empty() {
                                    None
                                } else {
                                    Some(name.split('/').next().unwrap_or_default().to_string())
                                }}</span>
                                {name.is_empty().then(|| view! {
                                    <span class="name">{move || locale.t(T::Untitled)}</span>
                                })}
                                <span class="name">{
                                    name.split_once('/')
                                        .map(|(_, n)| n.to_string())
                                        .unwrap_or_default()
                                }</span>
                                {(errors > 0).then(|| view! {
                                    <span class="err-count"
                                        aria-label=move || locale.t(T::Problems)>{errors}</span>
                                })}
                            </button>
                        }
                    }
                </For>
            </div>
            <div class="doc-actions" class:readonly=editor.readonly>
                {(!page.is_embed()).then(|| view! {
                    <button class="icon download" title=move || locale.t(T::DownloadHelp)
                        aria-label=move || locale.t(T::DownloadYaml)
                        on:click=move |_| editor.download()>"⤓"</button>
                    <label class="icon open-file" title=move || locale.t(T::OpenFileHelp)>
                        <input type="file" class="visually-hidden"
                            accept=".yaml,.yml,.json,text/yaml,application/yaml,\
                                    application/json,text/plain"
                            aria-label=move || locale.t(T::OpenFile)
                            on:change=move |ev| {
                                let input = event_target::<web_sys::HtmlInputElement>(&ev);
                                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                                    opener.open(file);
                                }
                                // Picking the same file again must fire `change` again.
                                input.set_value("");
                            }/>
                        <span aria-hidden="true">"⤒"</span>
                    </label>
                })}
                // Labelled as moves: bare ‹ › read as scrolling through the tabs.
                <button class="icon move" title=move || locale.t(T::MoveLeft)
                    aria-label=move || locale.t(T::MoveLeft)
                    on:click=move |_| shift(-1)>"⇤ "{move || locale.t(T::MoveTab)}</button>
                <button class="icon move" title=move || locale.t(T::MoveRight)
                    aria-label=move || locale.t(T::MoveRight)
                    on:click=move |_| shift(1)>{move || locale.t(T::MoveTab)}" ⇥"</button>
                <button class="icon danger" title=move || locale.t(T::DeleteDocument)
                    aria-label=move || locale.t(T::DeleteDocument)
                    disabled=move || { editor.ws.with(|w| w.docs.len() <= 1) }
                    on:click=remove>"✕"</button>
                <div class="add">
                    <button class="add-btn" aria-haspopup="menu"
                        aria-expanded=move || add_open.get().to_string()
                        on:click=move |_| add_open.update(|o| *o = !*o)>
                        "+ " {move || locale.t(T::AddDocument)}
                    </button>
                    <Show when=move || add_open.get()>
                        <div class="menu" role="menu"
                            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                                if ev.key() == "Escape" {
                                    add_open.set(false)
                                }
                            }>
                            {Template::ALL
                                .into_iter()
                                .map(|t| view! {
                                    <button role="menuitem"
                                        on:click=move |_| add(t)>{t.kind()}</button>
                                })
                                .collect_view()}
                        </div>
                    </Show>
                </div>
            </div>
        </div>
    }
}

/// The contexts opening a file touches: it replaces the documents (a new story, nothing
/// selected) and says so in the notice, with the way back.
#[derive(Clone, Copy)]
struct FileOpener {
    page: Page,
    editor: Editor,
    engine: Engine,
    locale: Locale,
    transport: Transport,
    selection: Selection,
}

impl FileOpener {
    fn from_context() -> FileOpener {
        FileOpener {
            page: expect_context::<Page>(),
            editor: expect_context::<Editor>(),
            engine: expect_context::<Engine>(),
            locale: expect_context::<Locale>(),
            transport: expect_context::<Transport>(),
            selection: expect_context::<Selection>(),
        }
    }

    /// Opens a file the learner picked or dropped.
    fn open(self, file: web_sys::File) {
        if file.size() > crate::editor::opening::MAX_OPEN_BYTES as f64 {
            self.page.tell(T::SnapshotTooLarge);
            return;
        }
        self.read(file.clone().into(), file.name());
    }

    /// Opens what the learner pasted: what kubectl printed, or more than the editor holds.
    fn paste(self, text: wasm_bindgen::JsValue) {
        let name = self.locale.t(T::ThePaste).to_string();
        self.read(text, name);
    }

    /// The worker reads `source` ([`crate::editor::opening`]): its documents (a snapshot's import)
    /// replace the tabs, and the notice offers the old ones back.
    fn read(self, source: wasm_bindgen::JsValue, name: String) {
        let FileOpener {
            page,
            editor,
            engine,
            locale,
            transport,
            selection,
        } = self;
        page.tell(T::Reading);
        engine.open(source, move |result| {
            let opened = match result {
                Ok(opened) => opened,
                Err(Refusal::TooLargeToRead) => return page.tell(T::SnapshotTooLarge),
                Err(Refusal::TooLargeToEdit) => return page.tell(T::FileTooLarge),
                Err(Refusal::Unreadable) => return page.tell(T::FileUnreadable),
            };
            let before = (editor.ws.get_untracked(), editor.active_doc.get_untracked());
            if let Err(why) = editor.open_stream(&opened.text, 0, transport, selection) {
                return page.tell(why);
            }
            let (text, detail) = match &opened.imported {
                Some(imported) => (
                    T::ImportedSnapshot,
                    crate::editor::opening::describe(&name, imported, locale.lang.get_untracked()),
                ),
                None => (T::OpenedFile, name),
            };
            page.notice.set(Some(Notice {
                text,
                detail: Some(detail),
                after: None,
                undo: Some(before),
            }));
        });
    }
}

/// The text a paste carries, as the JS string it is.
fn pasted_text(ev: &web_sys::ClipboardEvent) -> Option<wasm_bindgen::JsValue> {
    let data = ev.clipboard_data()?;
    let get = js_sys::Reflect::get(&data, &"getData".into()).ok()?;
    let get = get.dyn_ref::<js_sys::Function>()?;
    get.call1(&data, &"text/plain".into())
        .ok()
        .filter(|t| t.is_string())
}

/// Whether a paste goes to the worker instead of into the editor: what the API server printed
/// (its `resourceVersion` or `managedFields`, which only it writes: `kpg_import::SERVER_SET`
/// but `uid`, which a hand-written `ownerReferences` may hold too), or more than the editor
/// holds; the worker then decides on the parsed objects ([`crate::editor::opening::read`]). Tested
/// on the JS string itself, never copied into this thread's wasm memory: a pasted 20 MB
/// snapshot costs a search of its first megabyte.
fn paste_is_for_the_worker(text: &wasm_bindgen::JsValue) -> bool {
    let Some(text) = text.dyn_ref::<js_sys::JsString>() else {
        return false;
    };
    if text.length() as usize > crate::editor::opening::MAX_WRITTEN_BYTES {
        return true;
    }
    let head = text.slice(0, 1 << 20);
    let server_set =
        js_sys::RegExp::new(r#"^[ \t-]*"?(resourceVersion|managedFields)"?[ \t]*:"#, "m");
    head.search(&server_set) >= 0
}

fn focus_tab(id: u32) {
    if let Some(el) = document()
        .query_selector(&format!("[data-doc=\"{id}\"]"))
        .ok()
        .flatten()
        && let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el)
    {
        let _ = el.focus();
    }
}

/// A `<textarea>` over a coloured `<pre>` of the same text, with a gutter of line numbers.
/// Both share one scroll box, so they cannot drift apart.
#[component]
fn YamlEditor() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let editor = expect_context::<Editor>();
    let page = expect_context::<Page>();
    // What kubectl printed, pasted on the full page, is imported as a dropped file is; an
    // embed's editor keeps the paste as it is.
    let opener = FileOpener::from_context();
    let accepts_snapshots = !editor.readonly && !page.is_embed();
    let textarea: NodeRef<html::Textarea> = NodeRef::new();
    let scroller: NodeRef<html::Div> = NodeRef::new();
    let text = Memo::new(move |_| {
        let id = editor.active_doc.get();
        editor.ws.with(|w| {
            w.docs
                .iter()
                .find(|d| d.id == id)
                .map(|d| d.text.clone())
                .unwrap_or_default()
        })
    });
    let marks = Memo::new(move |_| {
        let id = editor.active_doc.get();
        editor.analysis.with(|a| {
            a.problems
                .iter()
                .filter(|p| p.doc_id == id)
                .map(|p| Mark {
                    line: p.line,
                    column: p.column,
                    error: p.error,
                })
                .collect::<Vec<_>>()
        })
    });
    // CodeMirror once it runs (web/src/code_editor.rs holds it); until then, and where it
    // cannot load, the textarea under a coloured copy of its text is the editor (and it is
    // what the build draws for a first visit).
    let cm_ready = RwSignal::new(false);
    // Colouring is one pass over the text and a span per token: past this size it would make
    // every keystroke (and a multi-megabyte paste) wait, so a large document shows uncoloured.
    let plain = Memo::new(move |_| text.with(|t| t.len() > HIGHLIGHT_MAX_BYTES));
    // The textarea editor's costly parts (the whole text coloured, a number per line) only
    // while it is the editor.
    let html_text = Memo::new(move |_| {
        if plain.get() || cm_ready.get() {
            return String::new();
        }
        text.with(|t| highlight::to_html(t, &marks.get()))
    });
    let lines = Memo::new(move |_| text.with(|t| t.split('\n').count().max(1)));
    let longest = Memo::new(move |_| {
        text.with(|t| t.split('\n').map(|l| l.chars().count()).max().unwrap_or(0))
    });
    let gutter = move || {
        if cm_ready.get() {
            return String::new();
        }
        let marks = marks.get();
        let mut out = String::new();
        for i in 1..=lines.get() {
            match marks.iter().find(|m| m.line == i) {
                Some(m) => out.push_str(&format!(
                    "<span class=\"{}\">{i}</span>\n",
                    if m.error { "g-err" } else { "g-warn" }
                )),
                None => out.push_str(&format!("{i}\n")),
            }
        }
        out
    };
    // The learner's edit of document `id` (CodeMirror reports a change once typing pauses,
    // with the document it was made in, which may no longer be the open tab).
    let set_text_of = move |id: u32, value: String| {
        if editor.readonly {
            return;
        }
        editor.change(Change::Typing(id), |w, _| {
            if let Some(d) = w.docs.iter_mut().find(|d| d.id == id) {
                d.text = value;
            }
        });
    };
    // A paste that brings several documents becomes a tab per document (as opening a file
    // does), one step of the history after the paste itself, with Undo in the notice.
    let split_paste = move |id: u32| {
        if editor.readonly {
            return;
        }
        let before = (editor.ws.get_untracked(), editor.active_doc.get_untracked());
        let mut after = before.0.clone();
        let Some(tabs) = after.split(id) else { return };
        editor.change(Change::Tabs, move |w, active| {
            *w = after;
            *active = id;
        });
        page.notice.set(Some(Notice {
            text: T::PasteSplit,
            detail: Some(tabs.to_string()),
            after: None,
            undo: Some(before),
        }));
    };
    let set_text = move |value: String| set_text_of(editor.active_doc.get_untracked(), value);
    // What Tab does, as in CodeMirror (web/editor/editor.js, `tabKeys`): arriving without
    // the pointer it moves on; once the learner edits or clicks into the text it indents;
    // Escape goes back. The mode is the editor's data-tab attribute, which the hint reads.
    let tab_mode = move |moves: bool| {
        if let Some(el) = scroller.get_untracked() {
            let _ = el.set_attribute("data-tab", if moves { "moves" } else { "indents" });
        }
    };
    let pointed = StoredValue::new(false);
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        // The page's own history, not the textarea's: it spans tabs, lessons and migrations
        // (a textarea forgets its undo when its text is set from outside).
        if let Some(redo) = undo_key(&ev) {
            ev.prevent_default();
            if !editor.readonly {
                if redo {
                    editor.redo()
                } else {
                    editor.undo()
                };
            }
            return;
        }
        if key == "Escape" {
            tab_mode(true);
            return;
        }
        let moves = scroller
            .get_untracked()
            .and_then(|el| el.get_attribute("data-tab"))
            .is_none_or(|m| m == "moves");
        if key == "Tab"
            && !editor.readonly
            && !ev.shift_key()
            && !ev.ctrl_key()
            && !ev.alt_key()
            && !moves
            && let Some(ta) = textarea.get_untracked()
        {
            ev.prevent_default();
            let value = ta.value();
            let start = ta.selection_start().ok().flatten().unwrap_or(0) as usize;
            let end = ta.selection_end().ok().flatten().unwrap_or(0) as usize;
            let units: Vec<u16> = value.encode_utf16().collect();
            let (start, end) = (
                start.min(units.len()),
                end.min(units.len()).max(start.min(units.len())),
            );
            let mut next = String::from_utf16_lossy(&units[..start]);
            next.push_str("  ");
            next.push_str(&String::from_utf16_lossy(&units[end..]));
            ta.set_value(&next);
            let caret = (start + 2) as u32;
            let _ = ta.set_selection_range(caret, caret);
            set_text(next);
        }
    };
    let put_caret = move |ta: web_sys::HtmlTextAreaElement, line: usize, column: usize| {
        let value = ta.value();
        let offset = utf16_offset(&value, line, column);
        let _ = ta.focus();
        let _ = ta.set_selection_range(offset, offset);
        if let Some(sc) = scroller.get_untracked() {
            let top = (line as f64 - 4.0).max(0.0) * LINE_PX;
            sc.set_scroll_top(top as i32);
        }
    };
    // The caret to a line and column, in whichever editor runs; in CodeMirror after the tab's
    // text is in it (the effect below, this same turn).
    let reveal = move |line: usize, column: usize| {
        if cm_ready.get_untracked() {
            request_animation_frame(move || {
                code_editor::with_open(|c| c.reveal_line(line as u32, Some(column as u32)))
            });
        } else if let Some(ta) = textarea.get_untracked() {
            request_animation_frame(move || put_caret(ta, line, column));
        }
    };
    // A click in the Problems panel puts the caret on the problem.
    Effect::new(move |_| {
        let Some((doc, line, column, _)) = editor.jump.get() else {
            return;
        };
        if doc != editor.active_doc.get_untracked() {
            return;
        }
        reveal(line, column);
    });
    // An undo or redo puts it where the text changed, once the text is in the editor.
    Effect::new(move |_| {
        let Some((line, column, _)) = editor.caret.get() else {
            return;
        };
        reveal(line, column);
    });
    // CodeMirror, the first time the editor shows: this component mounts only where the
    // editor is on screen (the page's manifests pane, an embed's Manifests tab or split view).
    // The bundle is fetched once the live page shows and the first frames are drawn, so it
    // never delays the page's first interactive moment.
    let staging = use_context::<Staging>();
    Effect::new(move |_| {
        let Some(host) = scroller.get() else { return };
        let host: web_sys::Element = host.into();
        let start = move || {
            set_timeout(
                move || {
                    leptos::task::spawn_local(async move {
                        let id = editor.active_doc.get_untracked();
                        let first = text.get_untracked();
                        let options = code_editor::Options {
                            on_change: Box::new(move |value, key, pasted| {
                                let id = key.unwrap_or(id);
                                set_text_of(id, value);
                                if pasted {
                                    split_paste(id);
                                }
                            }),
                            on_undo: Some(Box::new(move |redo| {
                                if redo {
                                    editor.redo()
                                } else {
                                    editor.undo()
                                };
                            })),
                            on_paste: accepts_snapshots.then(|| {
                                Box::new(move |text: wasm_bindgen::JsValue| {
                                    let divert = paste_is_for_the_worker(&text);
                                    if divert {
                                        opener.paste(text);
                                    }
                                    divert
                                })
                                    as Box<dyn FnMut(wasm_bindgen::JsValue) -> bool>
                            }),
                            // One copy of the whole text per pause, not per key.
                            change_delay_ms: CHANGE_DELAY_MS,
                            read_only: editor.readonly,
                            label: locale.t(T::Editor).to_string(),
                            described_by: "editor-help".into(),
                            dark: crate::base::browser::dark(),
                        };
                        // The component may be gone by the time the bundle arrives.
                        if let Ok(c) = code_editor::open(&host, &first, options).await {
                            if !host.is_connected() {
                                c.destroy();
                                return;
                            }
                            c.set_doc(id, &first);
                            code_editor::set_open(c);
                            cm_ready.set(true);
                        }
                    })
                },
                std::time::Duration::from_millis(CM_LOAD_DELAY_MS),
            )
        };
        match staging {
            Some(staging) => staging.when_shown(start),
            None => start(),
        }
    });
    // Text from elsewhere (a tab, an undo, a migration, a lesson step, a share link): one
    // call, a no-op when it is the editor's own change coming back.
    Effect::new(move |_| {
        if !cm_ready.get() {
            return;
        }
        let id = editor.active_doc.get();
        text.with(|t| code_editor::with_open(|c| c.set_doc(id, t)));
    });
    Effect::new(move |_| {
        if !cm_ready.get() {
            return;
        }
        marks.with(|list| {
            let list: Vec<_> = list
                .iter()
                .map(|m| Diagnostic {
                    line: m.line,
                    column: m.column,
                    severity: if m.error { "error" } else { "warning" },
                    message: "",
                })
                .collect();
            code_editor::with_open(|c| c.set_diagnostics(&list))
        });
    });
    // One editor on a page: this component's, if it loaded.
    on_cleanup(code_editor::close);
    view! {
        <div class="editor" node_ref=scroller class:cm-ready=move || cm_ready.get()
            data-tab="moves">
            <pre class="gutter" aria-hidden="true" inner_html=gutter></pre>
            <div class="code" class:plain=move || plain.get()
                style:width=move || format!("max(100%, {}ch)", longest.get() + 4)>
                <pre class="hl" aria-hidden="true" inner_html=move || html_text.get()></pre>
                <textarea node_ref=textarea class="input" spellcheck="false" autocapitalize="off"
                    autocomplete="off"
                    wrap="off" aria-label=move || locale.t(T::Editor) aria-describedby="editor-help"
                    style:height=move || format!("{}px", lines.get() as f64 * LINE_PX + 16.0)
                    readonly=editor.readonly
                    prop:value=move || text.get()
                    on:input=move |ev| {
                        tab_mode(false);
                        set_text(event_target_value(&ev));
                        let kind = wasm_bindgen::JsCast::dyn_ref::<web_sys::InputEvent>(&ev)
                            .map(web_sys::InputEvent::input_type);
                        if kind.as_deref() == Some("insertFromPaste") {
                            split_paste(editor.active_doc.get_untracked());
                        }
                    }
                    on:paste=move |ev: leptos::ev::ClipboardEvent| {
                        if let Some(text) = pasted_text(&ev).filter(|_| accepts_snapshots)
                            && paste_is_for_the_worker(&text)
                        {
                            ev.prevent_default();
                            opener.paste(text);
                        }
                    }
                    on:pointerdown=move |_| {
                        pointed.set_value(true);
                        tab_mode(false);
                    }
                    on:focus=move |_| {
                        if !pointed.get_value() {
                            tab_mode(true);
                        }
                        pointed.set_value(false);
                    }
                    on:beforeinput=move |ev: leptos::ev::InputEvent| {
                        // Edit › Undo from the browser's menu.
                        let kind = ev.input_type();
                        if kind == "historyUndo" || kind == "historyRedo" {
                            ev.prevent_default();
                            if !editor.readonly {
                                if kind == "historyRedo" { editor.redo() } else { editor.undo() };
                            }
                        }
                    }
                    on:keydown=on_keydown></textarea>
            </div>
        </div>
    }
}

/// Whether a key press asks to undo (`Some(false)`) or redo (`Some(true)`): Ctrl+Z,
/// Ctrl+Shift+Z and Ctrl+Y, or ⌘ on a Mac.
pub fn undo_key(ev: &web_sys::KeyboardEvent) -> Option<bool> {
    if !(ev.ctrl_key() || ev.meta_key()) || ev.alt_key() {
        return None;
    }
    match ev.key().to_ascii_lowercase().as_str() {
        "z" => Some(ev.shift_key()),
        "y" if !ev.shift_key() => Some(true),
        _ => None,
    }
}

/// The textarea offset (UTF-16 code units) of a 1-based line and character column.
fn utf16_offset(text: &str, line: usize, column: usize) -> u32 {
    let mut offset = 0usize;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            let col: usize = l
                .chars()
                .take(column.saturating_sub(1))
                .map(char::len_utf16)
                .sum();
            return (offset + col) as u32;
        }
        offset += l.encode_utf16().count() + 1;
    }
    offset.saturating_sub(1) as u32
}

#[component]
fn Problems() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let editor = expect_context::<Editor>();
    let engine = expect_context::<Engine>();
    // Outer `Some`: the view is open; inner: what migrating would change.
    let preview = RwSignal::new(None::<Option<Preview>>);
    let offer = Memo::new(move |_| {
        editor
            .analysis
            .with(|a| a.problems.iter().any(|p| p.code.starts_with("v1beta1-")))
    });
    let counter = StoredValue::new(0u64);
    let count = move || editor.analysis.with(|a| a.problems.len());
    view! {
        <section class="problems" aria-labelledby="problems-title">
            <div class="problems-head">
                <h3 id="problems-title">
                    {move || locale.t(T::Problems)}
                    <span class="count"
                        class:bad=move || editor.analysis.with(|a| a.has_errors)>{count}</span>
                </h3>
                // What Tab does in the editor just above, always in sight (keyboard users, and
                // everyone who wonders why Tab left); the editor's data-tab picks the line.
                <p id="editor-help" class="editor-keys">
                    <span class="keys-moves">{move || locale.t(T::EditorTabMoves)}</span>
                    <span class="keys-indents">{move || locale.t(T::EditorHelp)}</span>
                </p>
            </div>
            <Show when=move || engine.error.get().is_some()>
                <p class="engine-error" role="alert"><strong>{move || {
                    locale.t(T::EngineError)
                }}": "</strong>{move || engine.error.get()}</p>
            </Show>
            <Show when=move || count() == 0 fallback=move || view! {
                <ul class="problem-list">
                    {move || editor.analysis.with(|a| a.problems.iter().map(|p| {
                        let (doc, line, column) = (p.doc_id, p.line, p.column);
                        let jump = move |_| {
                            editor.active_doc.set(doc);
                            counter.update_value(|c| *c += 1);
                            editor.jump.set(Some((doc, line, column, counter.get_value())));
                        };
                        view! {
                            <li>
                                <button class="problem" class:error=p.error class:warning=!p.error
                                    on:click=jump>
                                    <span class="sev">{if p.error { "✖" } else { "▲" }}</span>
                                    <span class="where">
                                        {if p.doc_title.is_empty() {
                                            locale.t(T::Untitled).to_string()
                                        } else {
                                            p.doc_title.clone()
                                        }}" · "{move || locale.t(T::Line)}" "{line}", "{move || {
                                            locale.t(T::Column)
                                        }}" "{column}
                                        {(!p.path.is_empty()).then(|| view! {
                                            <code class="path">{p.path.clone()}</code>
                                        })}
                                    </span>
                                    {
                                        let (label, meaning) = p.origin_text(locale.lang.get());
                                        view! {
                                            <span class="origin"
                                                data-origin=p.origin.as_str()
                                                title=meaning>{label}" · "<code>{
                                                    p.code.to_string()
                                                }</code></span>
                                        }
                                    }
                                    {
                                        let (message, help) = p.text(locale.lang.get());
                                        view! {
                                            <span class="msg">{message}</span>
                                            {help.map(|h| view! {
                                                <span class="help">{move || {
                                                    locale.t(T::Help)
                                                }}": "{h}</span>
                                            })}
                                        }
                                    }
                                </button>
                            </li>
                        }
                    }).collect_view())}
                </ul>
            }>
                <p class="all-good">{move || locale.t(T::NoProblems)}</p>
            </Show>
            <Show when=move || offer.get() && !editor.readonly>
                <div class="migrate-offer">
                    <span>{move || locale.t(T::MigrateOffer)}</span>
                    <button class="primary migrate"
                        on:click=move |_| {
                            // The worker reads the documents (the migration parses YAML).
                            let ws = editor.ws.get_untracked();
                            engine.ask(Request::Migrate { ws }, move |reply| {
                                if let Reply::Migrated(p) = reply {
                                    preview.set(Some(p));
                                }
                            });
                        }>
                        {move || locale.t(T::MigrateToV1)}
                    </button>
                </div>
            </Show>
            <MigrationView preview/>
            <Show when=move || editor.analysis.with(|a| a.has_errors)>
                <p class="keep-last">{move || locale.t(T::ProblemsKeepLast)}</p>
            </Show>
        </section>
    }
}

/// The side-by-side view of what "Migrate to v1" would change, with Accept and Reject.
#[component]
fn MigrationView(preview: RwSignal<Option<Option<Preview>>>) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let editor = expect_context::<Editor>();
    let close = move || preview.set(None);
    let accept = move |_| {
        if let Some(Some(p)) = preview.get_untracked() {
            editor.change(Change::Migration, |w, _| *w = p.apply(w));
        }
        close();
    };
    let keys = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" {
            close();
        }
    };
    view! {
        <Show when=move || preview.with(Option::is_some)>
            <div class="migration-backdrop">
                <div class="migration" role="dialog" aria-modal="true"
                    aria-labelledby="migration-title" on:keydown=keys>
                    <h3 id="migration-title">{move || locale.t(T::MigrateTitle)}</h3>
                    {move || preview.get().flatten().map(|p| {
                        let docs = p.docs.iter().map(|d| {
                            let rows = d.rows.iter().map(|r| {
                                let changed = r.changed();
                                let (ol, ot) = r.old.clone().map_or(
                                    (String::new(), String::new()),
                                    |(n, t)| (n.to_string(), t),
                                );
                                let (nl, nt) = r.new.clone().map_or(
                                    (String::new(), String::new()),
                                    |(n, t)| (n.to_string(), t),
                                );
                                let removed = r.old.is_some() && changed;
                                let added = r.new.is_some() && changed;
                                view! {
                                    <tr class:changed=changed>
                                        <td class="ln">{ol}</td><td class="old"
                                            class:removed=removed><code>{ot}</code></td>
                                        <td class="ln">{nl}</td><td class="new"
                                            class:added=added><code>{nt}</code></td>
                                    </tr>
                                }
                            }).collect_view();
                            view! {
                                <section class="migration-doc" data-doc=d.doc_id>
                                    <h4>{d.title.clone()}{d.inserted_after.map(|_| view! {
                                        " "<span class="new-tab">"("{move || {
                                            locale.t(T::MigrateNewTab)
                                        }}")"</span>
                                    })}</h4>
                                    <table class="diff">
                                        <thead><tr><th></th><th>{move || {
                                            locale.t(T::Before)
                                        }}</th><th></th><th>{move || {
                                            locale.t(T::After)
                                        }}</th></tr></thead>
                                        <tbody>{rows}</tbody>
                                    </table>
                                </section>
                            }
                        }).collect_view();
                        let notes = p.notes.iter().map(|n| {
                            let marker = n.manual.then(|| view! {
                                <strong class="manual">{move || {
                                    locale.t(T::NeedsPerson)
                                }}": "</strong>
                            });
                            view! {
                                <li class:manual=n.manual>{marker}<code>{
                                    n.object.clone()
                                }</code>" · "{move || locale.t(T::Line)}" "{n.line}": "{
                                    n.message.clone()
                                }</li>
                            }
                        }).collect_view();
                        view! {
                            <div class="migration-body">{docs}<ul
                                class="migration-notes">{notes}</ul></div>
                        }.into_any()
                    }).unwrap_or_else(|| {
                        view! { <p>{move || locale.t(T::MigrateNothing)}</p> }.into_any()
                    })}
                    <div class="migration-actions">
                        <button class="secondary"
                            on:click=move |_| close()>{move || locale.t(T::MigrateReject)}</button>
                        <button class="primary accept" autofocus on:click=accept
                            disabled=move || preview.with(|p| {
                                !matches!(p, Some(Some(p)) if !p.docs.is_empty())
                            })>
                            {move || locale.t(T::MigrateAccept)}
                        </button>
                    </div>
                </div>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::utf16_offset;

    #[test]
    fn caret_offsets_count_utf16_units() {
        let text = "a: 1\n한글: 값\nb: 2";
        assert_eq!(utf16_offset(text, 1, 1), 0);
        assert_eq!(utf16_offset(text, 2, 4), 5 + 3);
        assert_eq!(utf16_offset(text, 3, 2), 5 + 6 + 1);
        let emoji = "😀: x\ny";
        assert_eq!(utf16_offset(emoji, 1, 2), 2, "an emoji is two UTF-16 units");
    }
}

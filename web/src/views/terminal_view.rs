//! The Terminal tab: kubectl and eks-node-viewer over the simulated cluster
//! (`kpg-kubectl` answers; this draws the scrollback and the prompt).
//!
//! The terminal's state lives in [`Term`], provided by the app, so it outlives the tab
//! being hidden: a `kubectl get nodes -w` keeps following the clock while the learner
//! watches the Events tab, and the history survives a reload.

use leptos::prelude::*;

use crate::base::browser;
use crate::base::i18n::T;
use crate::base::snapshot;
use crate::bridge::protocol::{Reply, Request, TerminalReply};
use crate::editor::terminal::{self, Entry, History, SCROLLBACK_LIMIT, TIMELINE_NAME};
use crate::editor::undo::Change;
use crate::state::{Editor, Engine, Locale, Transport};

const HISTORY_KEY: &str = "kpg.terminal-history";

#[derive(Clone, Copy)]
pub struct Term {
    pub entries: RwSignal<Vec<Entry>>,
    pub line: RwSignal<String>,
    /// Completion candidates shown under the prompt after an ambiguous Tab.
    pub hints: RwSignal<Vec<String>>,
    history: StoredValue<History>,
    /// The entry a `-w` / `-f` command is appending to (the watch itself runs in the
    /// engine's worker, which sends what it prints with each frame).
    watch: StoredValue<Option<usize>>,
    pub watching: RwSignal<bool>,
    /// Commands and completions the engine's worker has not answered yet (the prompt's
    /// `data-pending`, which tests wait on).
    pub pending: RwSignal<u32>,
    /// What a command reads (the simulation, the documents as files, the clock) and where a
    /// `kubectl scale` writes its Timeline step (the documents).
    engine: Engine,
    editor: Editor,
    clock: RwSignal<i64>,
    locale: Locale,
    /// An embed keeps no history: it reads and writes no storage.
    keeps_history: bool,
}

impl Term {
    /// Made once by the app, with the follow effect that feeds a running watch.
    pub fn install(
        engine: Engine,
        editor: Editor,
        transport: Transport,
        locale: Locale,
        keeps_history: bool,
    ) -> Term {
        let saved: Vec<String> = keeps_history
            .then(|| browser::load(HISTORY_KEY))
            .flatten()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let term = Term {
            entries: RwSignal::new(Vec::new()),
            line: RwSignal::new(String::new()),
            hints: RwSignal::new(Vec::new()),
            history: StoredValue::new(History::from_saved(saved)),
            watch: StoredValue::new(None),
            watching: RwSignal::new(false),
            pending: RwSignal::new(0),
            engine,
            editor,
            clock: transport.clock,
            locale,
            keeps_history,
        };
        engine.on_watch(move |text| term.append_watch(&text));
        term
    }

    /// The tabs as the files `kubectl apply -f` reads.
    fn files(&self) -> Vec<(String, String)> {
        self.editor.ws.with_untracked(terminal::files)
    }

    fn append_watch(&self, text: &str) {
        if !self.watching.get_untracked() {
            return;
        }
        if let Some(i) = self.watch.get_value() {
            self.entries.update(|es| {
                if let Some(e) = es.get_mut(i) {
                    e.output.push_str(text);
                }
            });
        }
    }

    pub fn stop_watch(&self) {
        if self.watching.get_untracked() {
            self.engine.tell(Request::StopWatch);
        }
        self.watch.set_value(None);
        self.watching.set(false);
    }

    fn push_entry(&self, entry: Entry) -> usize {
        let mut index = 0;
        self.entries.update(|es| {
            if es.len() >= SCROLLBACK_LIMIT {
                es.remove(0);
                // The watched entry moves up with the rest.
                self.watch.update_value(|w| {
                    if let Some(i) = w {
                        *i = i.saturating_sub(1);
                    }
                });
            }
            es.push(entry);
            index = es.len() - 1;
        });
        index
    }

    /// Runs one command line over the simulation on screen.
    pub fn run(&self, line: &str) {
        self.stop_watch();
        self.hints.set(Vec::new());
        self.history.update_value(|h| h.push(line));
        let saved = self
            .history
            .with_value(|h| serde_json::to_string(h.commands()).unwrap_or_default());
        if self.keeps_history {
            browser::save_work(HISTORY_KEY, &saved);
        }
        let at_ms = self.clock.get_untracked();
        if line.trim().is_empty() {
            self.push_entry(Entry {
                at_ms,
                command: String::new(),
                output: String::new(),
                ok: true,
            });
            return;
        }
        let term = *self;
        let command = line.to_string();
        let request = Request::Run {
            line: command.clone(),
            files: self.files(),
            at: at_ms,
        };
        self.pending.update(|n| *n += 1);
        self.engine.ask(request, move |reply| {
            if let Reply::Ran(reply) = reply {
                term.pending.update(|n| *n = n.saturating_sub(1));
                term.ran(at_ms, &command, reply);
            }
        });
    }

    /// Shows what a command printed, records its changes as Timeline steps, and follows its
    /// watch.
    fn ran(&self, at_ms: i64, command: &str, reply: Option<TerminalReply>) {
        let Some(reply) = reply else {
            self.push_entry(Entry {
                at_ms,
                command: command.to_string(),
                output: format!("{}\n", self.locale.t(T::EngineError)),
                ok: false,
            });
            return;
        };
        if reply.clear {
            self.entries.set(Vec::new());
            return;
        }
        let mut output = reply.output;
        if !reply.steps.is_empty() {
            self.editor.change(Change::Command, |ws, _| {
                terminal::record_steps(ws, &reply.steps);
            });
            output.push_str(&format!(
                "# {} {} (Timeline/{TIMELINE_NAME})\n",
                self.locale.t(T::TerminalChanged),
                snapshot::clock(at_ms)
            ));
        }
        let i = self.push_entry(Entry {
            at_ms,
            command: command.to_string(),
            output,
            ok: reply.ok,
        });
        if reply.watching {
            self.watch.set_value(Some(i));
            self.watching.set(true);
        }
    }

    /// Tab: completes the word under the caret (the line's end), or lists the choices.
    fn complete(&self) {
        let term = *self;
        let request = Request::Complete {
            line: self.line.get_untracked(),
            files: self.files(),
        };
        self.pending.update(|n| *n += 1);
        self.engine.ask(request, move |reply| {
            if let Reply::Completed {
                line,
                start,
                candidates,
            } = reply
            {
                term.pending.update(|n| *n = n.saturating_sub(1));
                // The learner typed on meanwhile: the choices are for another line.
                if term.line.with_untracked(|l| *l == line) {
                    term.completed(&line, start, &candidates);
                }
            }
        });
    }

    fn completed(&self, line: &str, start: usize, candidates: &[String]) {
        let start = start.min(line.len());
        if !line.is_char_boundary(start) {
            return;
        }
        let word = &line[start..];
        match candidates {
            [] => self.hints.set(Vec::new()),
            [only] => {
                self.line.set(format!("{}{only} ", &line[..start]));
                self.hints.set(Vec::new());
            }
            many => {
                let prefix = common_prefix(many);
                if prefix.len() > word.len() {
                    self.line.set(format!("{}{prefix}", &line[..start]));
                }
                self.hints.set(many.to_vec());
            }
        }
    }
}

fn common_prefix(words: &[String]) -> String {
    let Some(first) = words.first() else {
        return String::new();
    };
    let mut end = first.len();
    for w in &words[1..] {
        end = end.min(
            first
                .bytes()
                .zip(w.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    while !first.is_char_boundary(end) {
        end -= 1;
    }
    first[..end].to_string()
}

#[component]
pub fn TerminalPane() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let term = expect_context::<Term>();
    let input = NodeRef::<leptos::html::Input>::new();
    let scroller = NodeRef::<leptos::html::Div>::new();
    // Keep the newest output in view.
    Effect::new(move |_| {
        term.entries.track();
        if let Some(el) = scroller.get() {
            request_animation_frame(move || el.set_scroll_top(el.scroll_height()));
        }
    });
    // Tab completes, as in a shell; Escape, then Tab, moves on (the editor's rule).
    let escaped = StoredValue::new(false);
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        // A key that ends an IME composition (Enter picks the syllable) is the IME's.
        if ev.is_composing() || ev.key_code() == 229 {
            return;
        }
        let was_escaped = escaped.get_value();
        escaped.set_value(ev.key() == "Escape");
        match ev.key().as_str() {
            "Tab" if was_escaped || ev.shift_key() => {}
            "Enter" => {
                ev.prevent_default();
                let line = term.line.get_untracked();
                term.line.set(String::new());
                term.run(&line);
            }
            "Tab" => {
                ev.prevent_default();
                term.complete();
            }
            "ArrowUp" => {
                ev.prevent_default();
                let current = term.line.get_untracked();
                if let Some(l) = term.history.try_update_value(|h| h.up(&current)).flatten() {
                    term.line.set(l);
                }
            }
            "ArrowDown" => {
                ev.prevent_default();
                if let Some(l) = term.history.try_update_value(|h| h.down()).flatten() {
                    term.line.set(l);
                }
            }
            // Ctrl+C stops a watch (or drops the line being typed), as in a shell.
            "c" if ev.ctrl_key() => {
                ev.prevent_default();
                if term.watching.get_untracked() {
                    term.stop_watch();
                    term.entries.update(|es| {
                        if let Some(last) = es.last_mut() {
                            last.output.push_str("^C\n");
                        }
                    });
                }
                term.line.set(String::new());
            }
            "l" if ev.ctrl_key() => {
                ev.prevent_default();
                term.entries.set(Vec::new());
            }
            _ => {}
        }
    };
    let numbered = move || {
        let entries: Vec<(usize, Entry)> = term.entries.get().into_iter().enumerate().collect();
        entries
    };
    view! {
        <div class="terminal" role="tabpanel" data-pending=move || term.pending.get()
            on:click=move |_| {
            // A click anywhere but on selected text puts the caret at the prompt.
            let selecting = window()
                .get_selection()
                .ok()
                .flatten()
                .is_some_and(|s| !s.is_collapsed());
            if !selecting && let Some(el) = input.get() { let _ = el.focus(); }
        }>
            <div class="scrollback" node_ref=scroller role="log" aria-live="polite">
                <Show when=move || term.entries.with(Vec::is_empty)>
                    <p class="muted hint">{move || locale.t(T::TerminalHelp)}</p>
                </Show>
                <For each=numbered
                    key=|(i, e)| (*i, e.at_ms, e.command.clone(), e.output.len()) let:item>
                    <div class="entry" class:failed=!item.1.ok>
                        <div class="cmd"><span class="prompt"
                            aria-hidden="true">"$ "</span>{item.1.command.clone()}</div>
                        <pre class="out">{item.1.output.clone()}</pre>
                    </div>
                </For>
                <Show when=move || term.watching.get()>
                    <p class="muted watching">{move || locale.t(T::Watching)}</p>
                </Show>
            </div>
            <Show when=move || !term.hints.with(Vec::is_empty)>
                <p class="hints">{move || term.hints.get().join("  ")}</p>
            </Show>
            <label class="prompt-line">
                <span class="prompt" aria-hidden="true">"$"</span>
                <input type="text" node_ref=input spellcheck="false" autocomplete="off"
                    autocapitalize="off" aria-label=move || locale.t(T::Terminal)
                    placeholder="kubectl get nodes -L karpenter.sh/nodepool"
                    prop:value=move || term.line.get()
                    on:input=move |ev| term.line.set(event_target_value(&ev))
                    on:keydown=on_key/>
            </label>
        </div>
    }
}

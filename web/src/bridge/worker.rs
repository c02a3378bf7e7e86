//! The worker's glue: messages in, [`Host`] replies out, and the wall clock that paces
//! progress reports. Nothing else: what the worker does is in [`crate::bridge::engine_host`].

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::bridge::engine_host::{Host, Outbox};
use crate::bridge::protocol::{FromWorker, Reply, ToWorker};

/// A run reports progress once it has taken this long (wall clock), then this often.
const PROGRESS_AFTER_MS: f64 = 250.0;
const PROGRESS_EVERY_MS: f64 = 100.0;

/// Starts answering the page's messages (the worker binary's `main`).
pub fn start() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let host = RefCell::new(Host::new());
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        // A message is its JSON text, or `[text, attachment]` when a request's text travels
        // beside it (see `Request::Open`).
        let data = ev.data();
        let (text, attachment) = match data.dyn_ref::<js_sys::Array>() {
            Some(pair) => (pair.get(0).as_string(), Some(pair.get(1))),
            None => (data.as_string(), None),
        };
        let text = text.unwrap_or_default();
        let mut out = Posting::new(reply_scope.clone(), 0);
        match ToWorker::decode(&text) {
            Ok(message) => {
                out.id = message.id;
                let attached = attachment.map(|a| read_attachment(&a));
                host.borrow_mut()
                    .handle_attached(message.request, attached, &mut out);
            }
            Err(why) => out.send(Reply::Garbled {
                why: format!("{why:?}"),
            }),
        }
        out.send(Reply::Done);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    // Messages the page posted while the wasm loaded found no handler: it holds them until
    // it hears this.
    Posting::new(scope, 0).send(Reply::Ready);
}

/// Posts each reply at once: a reading reaches the page before the simulation that follows
/// it, and progress while it runs.
struct Posting {
    scope: DedicatedWorkerGlobalScope,
    id: u64,
    started: f64,
    last_progress: Option<f64>,
}

impl Posting {
    fn new(scope: DedicatedWorkerGlobalScope, id: u64) -> Posting {
        let started = now(&scope);
        Posting {
            scope,
            id,
            started,
            last_progress: None,
        }
    }
}

impl Outbox for Posting {
    fn send(&mut self, reply: Reply) {
        let message = FromWorker::new(self.id, reply);
        let _ = self
            .scope
            .post_message(&wasm_bindgen::JsValue::from_str(&message.encode()));
    }

    fn progress_due(&mut self) -> bool {
        let t = now(&self.scope);
        let due = match self.last_progress {
            None => t - self.started >= PROGRESS_AFTER_MS,
            Some(last) => t - last >= PROGRESS_EVERY_MS,
        };
        if due {
            self.last_progress = Some(t);
        }
        due
    }
}

/// The text that came beside a message: a string as it is, a `File` (a `Blob`) read here, on
/// the worker's thread, where blocking is allowed (`FileReaderSync`; a 20 MB snapshot never
/// passes through the page's thread).
fn read_attachment(attachment: &wasm_bindgen::JsValue) -> Option<String> {
    if let Some(text) = attachment.as_string() {
        return Some(text);
    }
    let blob = attachment.dyn_ref::<web_sys::Blob>()?;
    web_sys::FileReaderSync::new()
        .and_then(|reader| reader.read_as_text(blob))
        .ok()
}

fn now(scope: &DedicatedWorkerGlobalScope) -> f64 {
    scope.performance().map_or(0.0, |p| p.now())
}

//! The worker's glue: messages in, [`Host`] replies out, and the wall clock that paces
//! progress reports. Nothing else: what the worker does is in [`crate::engine_host`].

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::engine_host::{Host, Outbox};
use crate::protocol::{FromWorker, Reply, ToWorker};

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
        let text = ev.data().as_string().unwrap_or_default();
        let mut out = Posting::new(reply_scope.clone(), 0);
        match ToWorker::decode(&text) {
            Ok(message) => {
                out.id = message.id;
                host.borrow_mut().handle(message.request, &mut out);
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

fn now(scope: &DedicatedWorkerGlobalScope) -> f64 {
    scope.performance().map_or(0.0, |p| p.now())
}

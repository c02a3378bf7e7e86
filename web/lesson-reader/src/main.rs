//! The lesson reader worker (trunk builds it with `data-type="worker"`): each message is a
//! request as JSON text ([`kpg_lesson_reader::Request`]); each answer is a reply as JSON text.
//! Its first message, an empty text, says it listens: a message sent to a worker before its
//! handler is set is lost, and the wasm takes a moment to start.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_to = scope.clone();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let request = ev.data().as_string().unwrap_or_default();
            let reply = kpg_lesson_reader::answer_json(&request);
            let _ = reply_to.post_message(&wasm_bindgen::JsValue::from_str(&reply));
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&wasm_bindgen::JsValue::from_str(""));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("kpg-lessons runs in a browser's Web Worker (see index.html)");
}

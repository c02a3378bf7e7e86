//! The first-frame worker (trunk builds it with `data-type="worker"`): it reads the link
//! from its own URL's fragment (the gate starts it as `kpg-poster_loader.js#kpg1...`, with
//! `?narrow` on a phone's width, so nothing waits on a message), posts the poster's SVG text,
//! or an empty text when the link carries no figure, and closes.

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::JsCast;
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let fragment = scope.location().hash();
    // `?narrow`: the gate saw a phone's width.
    let narrow = scope.location().search().contains("narrow");
    let svg = kpg_poster_worker::draw(&fragment, narrow).unwrap_or_default();
    let _ = scope.post_message(&wasm_bindgen::JsValue::from_str(&svg));
    scope.close();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("kpg-poster runs in a browser's Web Worker (see index.html)");
}

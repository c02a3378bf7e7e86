//! Everything the page asks of the browser, in one place: storage, language, motion
//! preference, the frame clock, and the pod-move animation. Each call degrades to a no-op
//! where the browser refuses (private mode storage, no `matchMedia`), never to a panic.

use std::collections::HashMap;

use wasm_bindgen::JsCast;

/// The browser's window; none off the browser, where the build's prerender draws the page
/// natively (`crate::shell::prerender`) and every call here is a no-op.
fn window() -> Option<web_sys::Window> {
    if cfg!(target_arch = "wasm32") {
        web_sys::window()
    } else {
        None
    }
}

pub fn load(key: &str) -> Option<String> {
    window()?
        .local_storage()
        .ok()
        .flatten()?
        .get_item(key)
        .ok()
        .flatten()
}

/// Writes `value` under `key`; false if the browser refused (no storage, or it is full).
pub fn save(key: &str, value: &str) -> bool {
    window()
        .and_then(|w| w.local_storage().ok().flatten())
        .is_some_and(|s| s.set_item(key, value).is_ok())
}

/// Where the page keeps the copy of itself a returning learner sees first (`prerender`'s
/// `Saved`): here, below the page's parts, because [`save_work`] makes room with it.
pub const SAVED_KEY: &str = "kpg.drawn";

/// Writes the learner's work under `key`. If storage is full, the page's saved copy of
/// itself ([`SAVED_KEY`]) goes first: it only speeds up the next visit,
/// and never takes the room the learner's work needs.
pub fn save_work(key: &str, value: &str) -> bool {
    save(key, value) || {
        forget(SAVED_KEY);
        save(key, value)
    }
}

pub fn forget(key: &str) {
    if let Some(s) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.remove_item(key);
    }
}

/// The `content` of `<meta name="NAME">` in the page's head, if there is one.
pub fn meta(name: &str) -> Option<String> {
    window()?
        .document()?
        .query_selector(&format!("meta[name={name}]"))
        .ok()??
        .get_attribute("content")
}

/// The build's id in the text of the module script that loads the page: the hash in
/// `kpg-web-<hash>.js`.
pub fn build_in(script: &str) -> Option<&str> {
    const PREFIX: &str = "kpg-web-";
    let at = script.find(PREFIX)? + PREFIX.len();
    let rest = &script[at..];
    let end = rest
        .find(|c: char| !matches!(c, '0'..='9' | 'a'..='f'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The page's build: the hash trunk put in the name of the page's wasm, read from the
/// module script that loads it (`index.html`'s gate reads the same). None where there is no
/// such script (the component tests).
pub fn build_id() -> Option<String> {
    let script = window()?
        .document()?
        .query_selector("script[type=module]")
        .ok()??;
    build_in(&script.text_content()?).map(str::to_string)
}

/// Whether the document is hidden (another tab, a minimised window, a phone's home screen).
pub fn hidden() -> bool {
    window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.visibility_state() == web_sys::VisibilityState::Hidden)
}

/// The text of the element with this id.
pub fn element_text(id: &str) -> Option<String> {
    window()?.document()?.get_element_by_id(id)?.text_content()
}

pub fn remove_element(id: &str) {
    if let Some(el) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        el.remove();
    }
}

pub fn language() -> Option<String> {
    window()?.navigator().language()
}

pub fn reduced_motion() -> bool {
    window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok())
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Whether the page is dark: an embed's `theme` (`data-theme` on `<html>`), else the reader's
/// preference, as `style.css` decides.
pub fn dark() -> bool {
    let Some(w) = window() else { return false };
    match w
        .document()
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("data-theme"))
        .as_deref()
    {
        Some("dark") => true,
        Some("light") => false,
        _ => w
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten()
            .is_some_and(|m| m.matches()),
    }
}

/// The page's `.app` as HTML for its saved copy, without the YAML editor's CodeMirror: that
/// holds only the lines on screen and its styles live in `<head>`, so the copy shows the
/// textarea editor instead, its first `lines` coloured by `fill`'s HTML and numbered.
pub fn app_copy_html(first_lines: &str, lines: usize) -> Option<String> {
    let doc = window()?.document()?;
    let app = doc.query_selector("body > .app").ok()??;
    let copy: web_sys::Element = app.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    if let Ok(editors) = copy.query_selector_all(".editor.cm-ready") {
        for i in 0..editors.length() {
            let Some(editor) = editors
                .get(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            else {
                continue;
            };
            let _ = editor.class_list().remove_1("cm-ready");
            if let Ok(Some(cm)) = editor.query_selector(".cm-editor") {
                cm.remove();
            }
            if let Ok(Some(pre)) = editor.query_selector("pre.hl") {
                pre.set_inner_html(first_lines);
            }
            if let Ok(Some(gutter)) = editor.query_selector("pre.gutter") {
                let numbers: String = (1..=lines).map(|i| format!("{i}\n")).collect();
                gutter.set_text_content(Some(&numbers));
            }
        }
    }
    Some(copy.outer_html())
}

/// Milliseconds since the page started (monotonic).
pub fn now_ms() -> f64 {
    window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

pub fn mark(name: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// A User Timing measure `name` from the mark `start` to now; the mark is cleared.
pub fn measure_since_mark(name: &str, start: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.measure_with_start_mark(name, start);
        p.clear_marks_with_mark_name(start);
    }
}

pub fn set_document_lang(code: &str) {
    if let Some(html) = window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = html.set_attribute("lang", code);
    }
}

/// Pod chips by key (`namespace/name`) with their position on screen.
pub type ChipPositions = HashMap<String, (f64, f64)>;

/// More moving chips than this and the move animation is skipped: it would cost more than it
/// shows.
const MAX_ANIMATED_CHIPS: usize = 400;

/// The chip of each of these pods that is on the page.
fn chips(keys: &[String]) -> Vec<(String, web_sys::HtmlElement)> {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    keys.iter()
        .filter_map(|key| {
            let el = doc
                .query_selector(&format!("[data-pod=\"{key}\"]"))
                .ok()
                .flatten()?;
            Some((key.clone(), el.dyn_into::<web_sys::HtmlElement>().ok()?))
        })
        .collect()
}

/// Where the chips of these pods are now ("First" of a FLIP animation); none when there are
/// too many to animate. Only the pods that change place are asked for
/// ([`crate::base::snapshot::Snapshot::chips_moved_to`]): a chip that merely shifts because cards
/// around it changed does not slide, and reading every chip's place would lay the page out
/// for nothing (at 60x with 200 node cards, that was most of each frame).
pub fn measure_chips(keys: &[String]) -> Option<ChipPositions> {
    if keys.is_empty() || keys.len() > MAX_ANIMATED_CHIPS {
        return None;
    }
    Some(
        chips(keys)
            .into_iter()
            .map(|(key, el)| {
                let r = el.get_bounding_client_rect();
                (key, (r.left(), r.top()))
            })
            .collect(),
    )
}

/// Slides each measured chip from where it was to where it is ("Last, Invert, Play").
pub fn play_chip_moves(before: &ChipPositions) {
    // FLIP in batches: every read, then every write, then one layout. Reading a chip's place
    // between two other chips' writes would lay the page out once per chip.
    let keys: Vec<String> = before.keys().cloned().collect();
    let moved: Vec<(web_sys::HtmlElement, f64, f64)> = chips(&keys)
        .into_iter()
        .filter_map(|(key, el)| {
            let &(x0, y0) = before.get(&key)?;
            let r = el.get_bounding_client_rect();
            let (dx, dy) = (x0 - r.left(), y0 - r.top());
            (dx.abs() >= 2.0 || dy.abs() >= 2.0).then_some((el, dx, dy))
        })
        .collect();
    for (el, dx, dy) in &moved {
        let style = el.style();
        let _ = style.set_property("transition", "none");
        let _ = style.set_property("transform", &format!("translate({dx:.0}px, {dy:.0}px)"));
    }
    // One layout commits every inverted position before the transitions start.
    if let Some((el, _, _)) = moved.first() {
        let _ = el.offset_width();
    }
    for (el, _, _) in &moved {
        let style = el.style();
        let _ = style.set_property("transition", "transform 600ms cubic-bezier(.2,.7,.2,1)");
        let _ = style.set_property("transform", "none");
    }
}

/// Whether a key is typed into text rather than meant for the page's shortcuts: a text field,
/// the code editor (CodeMirror is `contenteditable`) or any other editable element; and every
/// key of an IME composition (Korean syllables are built from several keys, and the one that
/// ends a syllable may be a space or a `.`).
pub fn key_is_typed(ev: &web_sys::KeyboardEvent) -> bool {
    if ev.is_composing() || ev.key() == "Process" || ev.key_code() == 229 {
        return true;
    }
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    if el
        .dyn_ref::<web_sys::HtmlElement>()
        .is_some_and(web_sys::HtmlElement::is_content_editable)
    {
        return true;
    }
    el.closest(TYPED_INTO).ok().flatten().is_some()
}

const TYPED_INTO: &str = "input, textarea, [contenteditable], [role=textbox], .cm-editor";

/// Whether a key goes to a control that has focus and takes it as its own (Space and Enter
/// press a button, open a select or a `<details>`), or is typed (`key_is_typed`).
pub fn key_is_taken(ev: &web_sys::KeyboardEvent) -> bool {
    key_is_typed(ev)
        || matches!(ev.key().as_str(), " " | "Enter")
            && ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|el| {
                    el.closest("button, select, summary, a[href]")
                        .ok()
                        .flatten()
                })
                .is_some()
}

/// Moves the keyboard focus to the first element the selector finds (which must be
/// focusable: a control, or `tabindex="-1"`), scrolling it into view.
pub fn focus_selector(selector: &str) {
    if let Some(el) = query(selector).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
        reveal(&el);
    }
}

/// Calls `on_width` with an element's inner width in CSS pixels when it starts and whenever
/// it changes (the window resized, a pane shown, a phone turned), until dropped.
pub struct WidthWatch {
    observer: web_sys::ResizeObserver,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

impl WidthWatch {
    pub fn new(el: &web_sys::Element, on_width: impl Fn(f64) + 'static) -> Option<WidthWatch> {
        let target = el.clone();
        let callback = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
            move |_: js_sys::Array| on_width(f64::from(target.client_width())),
        );
        let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        observer.observe(el);
        Some(WidthWatch {
            observer,
            _callback: callback,
        })
    }
}

impl Drop for WidthWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Scrolls the first element the selector finds back to its top.
pub fn scroll_to_top(selector: &str) {
    if let Some(el) = query(selector) {
        el.set_scroll_top(0);
    }
}

/// Scrolls an element into view without moving the page more than needed.
pub fn reveal(el: &web_sys::Element) {
    scroll_into_view(el, web_sys::ScrollLogicalPosition::Nearest);
}

fn scroll_into_view(el: &web_sys::Element, block: web_sys::ScrollLogicalPosition) {
    let opts = web_sys::ScrollIntoViewOptions::new();
    opts.set_block(block);
    el.scroll_into_view_with_scroll_into_view_options(&opts);
}

/// The first element of the document the selector finds.
fn query(selector: &str) -> Option<web_sys::Element> {
    window()?
        .document()?
        .query_selector(selector)
        .ok()
        .flatten()
}

/// Scrolls the first element the selector finds into view, as [`reveal`] does.
pub fn reveal_selector(selector: &str) {
    if let Some(el) = query(selector) {
        reveal(&el);
    }
}

/// Brings the first element the selector finds up from the lower half of the window (or
/// from below it): its top goes to its `scroll-margin-top` (the style sheet keeps the
/// upper part of the window for what the element is about). Higher up, nothing moves.
pub fn raise_selector(selector: &str) {
    let (Some(w), Some(el)) = (window(), query(selector)) else {
        return;
    };
    let height = w
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if el.get_bounding_client_rect().top() > height / 2.0 {
        scroll_into_view(&el, web_sys::ScrollLogicalPosition::Start);
    }
}

pub fn remove(key: &str) {
    if let Some(s) = window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.remove_item(key);
    }
}

/// `location.search` and `location.hash` (with their `?` and `#`).
pub fn address() -> (String, String) {
    let Some(loc) = window().map(|w| w.location()) else {
        return Default::default();
    };
    (
        loc.search().unwrap_or_default(),
        loc.hash().unwrap_or_default(),
    )
}

/// The page's URL without query or fragment: what share links and embeds build on.
pub fn page_url() -> String {
    let href = window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    href.split(['#', '?'])
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Leaves the current address for `url` (a full navigation, so the page starts afresh).
pub fn navigate(url: &str) {
    if let Some(w) = window() {
        let _ = w.location().set_href(url);
    }
}

pub fn reload() {
    if let Some(w) = window() {
        let _ = w.location().reload();
    }
}

pub fn confirm(message: &str) -> bool {
    window().is_some_and(|w| w.confirm_with_message(message).unwrap_or(false))
}

/// Puts text on the clipboard. Where the browser refuses (no permission, an insecure origin)
/// the text stays selectable in the dialog for Ctrl+C; the refusal is not an error to report.
pub fn copy_text(text: &str) {
    let Some(w) = window() else {
        return;
    };
    let promise = w.navigator().clipboard().write_text(text);
    leptos::task::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    });
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, text: &str, mime: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(doc) = window().and_then(|w| w.document())
        && let Ok(a) = doc.create_element("a")
        && let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>()
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// A JS string as it is, or a `Blob` (a `File` the learner picked or dropped) read as UTF-8
/// text, on this thread and without blocking; `None` if it is neither or cannot be read.
pub async fn read_text(source: wasm_bindgen::JsValue) -> Option<String> {
    if let Some(text) = source.as_string() {
        return Some(text);
    }
    let blob: web_sys::Blob = source.dyn_into().ok()?;
    wasm_bindgen_futures::JsFuture::from(blob.text())
        .await
        .ok()?
        .as_string()
}

/// Sends a message (JSON text, parsed back into an object) to the parent window.
pub fn post_to_parent(json: &str) {
    let Some(window) = window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if js_sys::Object::is(&parent, &window) {
        return;
    }
    if let Ok(value) = js_sys::JSON::parse(json) {
        let _ = parent.post_message(&value, "*");
    }
}

/// A message's data as JSON text, if it came from this page's parent window (and only
/// then: another frame, a popup or the page itself is ignored).
pub fn message_from_parent(ev: &web_sys::MessageEvent) -> Option<String> {
    let source = ev.source()?;
    let window = window()?;
    let parent = window.parent().ok().flatten()?;
    if js_sys::Object::is(&parent, &window) || !js_sys::Object::is(&source, &parent) {
        return None;
    }
    js_sys::JSON::stringify(&ev.data()).ok()?.as_string()
}

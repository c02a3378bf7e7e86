//! Everything the page asks of the browser, in one place: storage, language, motion
//! preference, the frame clock, and the pod-move animation. Each call degrades to a no-op
//! where the browser refuses (private mode storage, no `matchMedia`), never to a panic.

use std::collections::HashMap;

use leptos::prelude::window;
use wasm_bindgen::JsCast;

pub fn load(key: &str) -> Option<String> {
    window()
        .local_storage()
        .ok()
        .flatten()?
        .get_item(key)
        .ok()
        .flatten()
}

pub fn save(key: &str, value: &str) {
    if let Some(s) = window().local_storage().ok().flatten() {
        let _ = s.set_item(key, value);
    }
}

pub fn language() -> Option<String> {
    window().navigator().language()
}

pub fn reduced_motion() -> bool {
    window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Milliseconds since the page started (monotonic).
pub fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

pub fn mark(name: &str) {
    if let Some(p) = window().performance() {
        let _ = p.mark(name);
    }
}

pub fn set_document_lang(code: &str) {
    if let Some(html) = window().document().and_then(|d| d.document_element()) {
        let _ = html.set_attribute("lang", code);
    }
}

/// Pod chips by key (`namespace/name`) with their position on screen.
pub type ChipPositions = HashMap<String, (f64, f64)>;

/// More chips than this and the move animation is skipped: it would cost more than it shows.
const MAX_ANIMATED_CHIPS: u32 = 400;

/// Every pod chip on the page with its key, or `None` when there are too many to animate.
fn chips() -> Option<Vec<(String, web_sys::HtmlElement)>> {
    let list = window().document()?.query_selector_all("[data-pod]").ok()?;
    if list.length() > MAX_ANIMATED_CHIPS {
        return None;
    }
    Some(
        (0..list.length())
            .filter_map(|i| list.item(i)?.dyn_into::<web_sys::HtmlElement>().ok())
            .filter_map(|el| Some((el.get_attribute("data-pod")?, el)))
            .collect(),
    )
}

/// Where every pod chip is now ("First" of a FLIP animation).
pub fn measure_chips() -> Option<ChipPositions> {
    let chips = chips()?;
    Some(
        chips
            .into_iter()
            .map(|(key, el)| {
                let r = el.get_bounding_client_rect();
                (key, (r.left(), r.top()))
            })
            .collect(),
    )
}

/// Slides each chip that moved from where it was to where it is ("Last, Invert, Play").
pub fn play_chip_moves(before: &ChipPositions) {
    for (key, el) in chips().unwrap_or_default() {
        let Some(&(x0, y0)) = before.get(&key) else {
            continue;
        };
        let r = el.get_bounding_client_rect();
        let (dx, dy) = (x0 - r.left(), y0 - r.top());
        if dx.abs() < 2.0 && dy.abs() < 2.0 {
            continue;
        }
        let style = el.style();
        let _ = style.set_property("transition", "none");
        let _ = style.set_property("transform", &format!("translate({dx:.0}px, {dy:.0}px)"));
        // Reading layout commits the inverted position before the transition starts.
        let _ = el.offset_width();
        let _ = style.set_property("transition", "transform 600ms cubic-bezier(.2,.7,.2,1)");
        let _ = style.set_property("transform", "none");
    }
}

/// Scrolls an element into view without moving the page more than needed.
pub fn reveal(el: &web_sys::Element) {
    let opts = web_sys::ScrollIntoViewOptions::new();
    opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
    el.scroll_into_view_with_scroll_into_view_options(&opts);
}

//! Component tests in a real browser (wasm-bindgen-test-runner + chromedriver): the whole app
//! mounted, driven through DOM events, asserted on the DOM.
//!
//!   (. .wasm-tools/env.sh && cargo test -p kpg-web --target wasm32-unknown-unknown --test web)
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn doc() -> web_sys::Document {
    document()
}

/// Queries inside the app under test only (the runner writes its own report into the body).
fn all(selector: &str) -> Vec<web_sys::HtmlElement> {
    let root = doc().get_element_by_id("app-under-test").expect("mounted");
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect()
}

fn one(selector: &str) -> web_sys::HtmlElement {
    all(selector)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no {selector}"))
}

async fn settle() {
    for _ in 0..4 {
        leptos::task::tick().await;
    }
}

/// One task later (the live page builds in steps, a task each: `state::Staging`).
async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback(&resolve);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Mounts a fresh app (empty local storage: the default lesson) in its own element, and
/// waits until it is built and shown.
async fn mount() {
    mount_app();
    for _ in 0..100 {
        if all(".app.staging").is_empty() && !all(".app").is_empty() {
            return;
        }
        next_task().await;
    }
    panic!("the app never showed");
}

fn mount_app() {
    window().local_storage().unwrap().unwrap().clear().unwrap();
    if let Some(old) = doc().get_element_by_id("app-under-test") {
        old.remove();
    }
    let root: web_sys::HtmlElement = doc().create_element("div").unwrap().dyn_into().unwrap();
    root.set_id("app-under-test");
    doc().body().unwrap().append_child(&root).unwrap();
    // The previous test's app stays alive but detached; it is not queried again.
    leptos::mount::mount_to(root, kpg_web::shell::app::App).forget();
}

#[wasm_bindgen_test]
async fn the_overlay_shows_exactly_what_the_textarea_holds() {
    mount().await;
    settle().await;
    let ta: web_sys::HtmlTextAreaElement = one("textarea.input").dyn_into().unwrap();
    let overlay = one("pre.hl").text_content().unwrap();
    // The overlay ends with one extra space so a trailing newline keeps its height.
    assert_eq!(
        overlay.trim_end_matches(' '),
        ta.value().trim_end_matches(' ')
    );
    let gutter_lines = one("pre.gutter").text_content().unwrap().lines().count();
    assert_eq!(gutter_lines, ta.value().split('\n').count());
}

#[wasm_bindgen_test]
async fn typing_an_error_fills_problems_and_fixing_it_clears_them() {
    mount().await;
    settle().await;
    let ta: web_sys::HtmlTextAreaElement = one("textarea.input").dyn_into().unwrap();
    let good = ta.value();
    ta.set_value(&format!("{good}\nspec: [unclosed\n"));
    ta.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settle().await;
    assert!(
        !all(".problem.error").is_empty(),
        "a syntax error is listed"
    );
    assert!(!all(".hl .u-err").is_empty(), "and underlined");
    assert!(
        !all(".doc-tab.has-errors").is_empty(),
        "and its tab is marked"
    );
    ta.set_value(&good);
    ta.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    settle().await;
    assert!(all(".problem.error").is_empty());
    assert!(all(".doc-tab.has-errors").is_empty());
}

#[wasm_bindgen_test]
async fn adding_a_template_opens_it_in_a_new_tab() {
    mount().await;
    settle().await;
    let before = all(".doc-tab").len();
    one(".add-btn").click();
    settle().await;
    let job = all(".menu button")
        .into_iter()
        .find(|b| b.text_content().as_deref() == Some("Job"))
        .expect("a Job template");
    job.click();
    settle().await;
    let tabs = all(".doc-tab");
    assert_eq!(tabs.len(), before + 1);
    let selected = one(".doc-tab[aria-selected=\"true\"]")
        .text_content()
        .unwrap();
    assert!(
        selected.contains("batch"),
        "the new Job is the open tab: {selected}"
    );
    assert!(all(".problem.error").is_empty(), "the template is valid");
}

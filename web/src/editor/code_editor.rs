//! The YAML editor's CodeMirror side (web/editor/editor.js, bundled by scripts/editor-bundle
//! into `kpg-editor-<hash>.js`, named by index.html's `<meta name="kpg-editor">`), loaded the
//! first time the editor shows. Until it arrives, and wherever it cannot (the component tests'
//! runner serves no bundle, a build without the hook), the textarea editor stays.
//!
//! CodeMirror keeps only the lines on screen in the DOM and lays out only those, so line
//! numbers, colours, underlines and the caret are drawn together by one component at any
//! scroll position, and a key costs the same in a 5,000-line document as in a short one.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

// One dynamic import per page, resolved against the page's address (a bare `import('./…')`
// here would resolve against this snippet's own URL, `snippets/kpg-web-…/inline0.js`).
#[wasm_bindgen(inline_js = "let loading = null;\n\
export function load_editor(url) {\n\
  if (!loading) loading = import(new URL(url, document.baseURI).href);\n\
  return loading;\n\
}")]
extern "C" {
    fn load_editor(url: &str) -> js_sys::Promise;
}

#[wasm_bindgen]
extern "C" {
    /// The bundle's module namespace.
    pub type EditorModule;
    #[wasm_bindgen(method)]
    fn create(
        this: &EditorModule,
        parent: &web_sys::Element,
        text: &str,
        options: &js_sys::Object,
    ) -> CodeEditor;

    /// One editor (editor.js's `create` result).
    pub type CodeEditor;
    #[wasm_bindgen(method, js_name = setDoc)]
    pub fn set_doc(this: &CodeEditor, key: u32, text: &str);
    #[wasm_bindgen(method, js_name = setDiagnostics)]
    fn set_diagnostics_js(this: &CodeEditor, list: &JsValue);
    #[wasm_bindgen(method, js_name = revealLine)]
    pub fn reveal_line(this: &CodeEditor, line: u32, column: Option<u32>);
    #[wasm_bindgen(method)]
    pub fn text(this: &CodeEditor) -> String;
    #[wasm_bindgen(method)]
    pub fn destroy(this: &CodeEditor);
}

thread_local! {
    /// The editor on the page (one at a time; the page's only holder of it).
    static OPEN: RefCell<Option<CodeEditor>> = const { RefCell::new(None) };
}

/// Runs `f` with the editor on the page, if CodeMirror runs.
pub fn with_open(f: impl FnOnce(&CodeEditor)) {
    OPEN.with(|open| {
        if let Some(editor) = open.borrow().as_ref() {
            f(editor)
        }
    });
}

/// Reports a change that waits for its delay (a key typed less than `change_delay_ms` ago)
/// to the page now: before the session is saved on leaving.
pub fn flush() {
    with_open(|editor| {
        let _ = editor.text();
    });
}

/// Makes `editor` the editor on the page.
pub fn set_open(editor: CodeEditor) {
    OPEN.with(|open| *open.borrow_mut() = Some(editor));
}

/// Destroys the editor on the page (its component is gone).
pub fn close() {
    if let Some(editor) = OPEN.with(|open| open.borrow_mut().take()) {
        editor.destroy();
    }
}

/// A problem to underline: 1-based line and column (characters), as `highlight::Mark`.
#[derive(serde::Serialize)]
pub struct Diagnostic<'a> {
    pub line: usize,
    pub column: usize,
    pub severity: &'a str,
    pub message: &'a str,
}

impl CodeEditor {
    pub fn set_diagnostics(&self, list: &[Diagnostic]) {
        let json = serde_json::to_string(list).unwrap_or_else(|_| "[]".into());
        self.set_diagnostics_js(&js_sys::JSON::parse(&json).unwrap_or(JsValue::NULL));
    }
}

/// What the page hands the editor: its callbacks and settings.
pub struct Options {
    /// The learner's edits: the whole text, the `set_doc` key of the document they belong
    /// to (a change waiting for its delay is reported when the tab changes, with the old key),
    /// and whether a paste (or a drop) was among them.
    pub on_change: Box<dyn FnMut(String, Option<u32>, bool)>,
    /// The page's own undo history (Ctrl+Z goes there, not to CodeMirror's); `None`:
    /// CodeMirror's history per document.
    pub on_undo: Option<Box<dyn FnMut(bool)>>,
    /// Sees each paste's text (the JS string, uncopied) before CodeMirror inserts it;
    /// `true` takes it away from the editor.
    pub on_paste: Option<Box<dyn FnMut(JsValue) -> bool>>,
    pub change_delay_ms: u32,
    pub read_only: bool,
    pub label: String,
    pub described_by: String,
    pub dark: bool,
}

/// The bundle's address, if this build has one (`<meta name="kpg-editor">`).
pub fn bundle_url() -> Option<String> {
    web_sys::window()?
        .document()?
        .query_selector("meta[name=kpg-editor]")
        .ok()??
        .get_attribute("content")
}

/// Loads the bundle (once per page) and creates an editor in `parent`. `Err` when there is no
/// bundle or it fails to load: the caller keeps the textarea.
pub async fn open(
    parent: &web_sys::Element,
    text: &str,
    options: Options,
) -> Result<CodeEditor, JsValue> {
    let url = bundle_url().ok_or_else(|| JsValue::from_str("no editor bundle in this build"))?;
    let module: EditorModule = JsFuture::from(load_editor(&url)).await?.unchecked_into();
    let o = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    // `into_js_value`: the closures live as long as the editor's JS object refers to them.
    set(
        "onChange",
        &Closure::<dyn FnMut(String, Option<u32>, bool)>::new(options.on_change).into_js_value(),
    )?;
    if let Some(on_undo) = options.on_undo {
        set(
            "onUndo",
            &Closure::<dyn FnMut(bool)>::new(on_undo).into_js_value(),
        )?;
    }
    if let Some(on_paste) = options.on_paste {
        set(
            "onPaste",
            &Closure::<dyn FnMut(JsValue) -> bool>::new(on_paste).into_js_value(),
        )?;
    }
    set("changeDelay", &JsValue::from(options.change_delay_ms))?;
    set("readOnly", &JsValue::from(options.read_only))?;
    set("label", &JsValue::from_str(&options.label))?;
    set("describedBy", &JsValue::from_str(&options.described_by))?;
    set("dark", &JsValue::from(options.dark))?;
    Ok(module.create(parent, text, &o))
}

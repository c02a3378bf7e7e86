//! Karpenter Playground's page: a Leptos (client-side rendered) front end over the engine.
//!
//! The page holds no simulation logic: it edits documents, hands valid manifests to
//! `kpg-core` through [`bridge::player::Player`], and draws [`base::snapshot::Snapshot`]s. The
//! modules without browser types (`editor::{workspace, migration, highlight, terminal, opening}`,
//! `base::{snapshot, i18n, words}`, `bridge::player`, `state::{persist, focus}`, `lessons`) are
//! tested natively with `cargo test`.

#![forbid(unsafe_code)]
// Leptos's server-side rendering (the build's `prerender`) nests the views' types deeper than
// the default limit allows (256 overflowed by 258 in a clean build once CodeMirror's editor
// joined the view tree; an incremental build had not shown it).
#![recursion_limit = "512"]

// The page's parts, each a folder, in layers: `base` ← `lessons` ← `editor` ← `bridge` ←
// `state` ← `share` ← `views` ← `shell`; a folder imports only the folders before it
// (ARCHITECTURE.md's map; `scripts/import-circles web/src`, in `scripts/test`, checks it).
pub mod base;
pub mod bridge;
pub mod editor;
pub mod lessons;
pub mod share;
pub mod shell;
pub mod state;
pub mod views;

/// Mounts the page on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    // User Timing marks for profiling the load (a trace or `longtask` entries against them):
    // the page's start runs, and its first task is done but for the effects it queued.
    base::browser::mark("kpg-wasm-start");
    // The page's state and its first step; the rest follow in tasks of their own
    // (`state::Staging`), and the last retires the build's copy.
    leptos::mount::mount_to_body(shell::app::App);
    base::browser::mark("kpg-mounted");
}

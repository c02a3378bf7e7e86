//! Karpenter Playground's page: a Leptos (client-side rendered) front end over the engine.
//!
//! The page holds no simulation logic: it edits documents, hands valid manifests to
//! `kpg-core` through [`player::Player`], and draws [`snapshot::Snapshot`]s. The modules
//! without browser types (`workspace`, `migration`, `highlight`, `snapshot`, `player`,
//! `persist`, `lessons`, `i18n`, `focus`, `terminal`, `words`, `opening`) are tested natively with
//! `cargo test`.

#![forbid(unsafe_code)]
// Leptos's server-side rendering (the build's `prerender`) nests the views' types deeper than
// the default limit allows (256 overflowed by 258 in a clean build once CodeMirror's editor
// joined the view tree; an incremental build had not shown it).
#![recursion_limit = "512"]

pub mod app;
pub mod boot;
pub mod browser;
pub mod chart;
pub mod cluster_table;
pub mod cluster_view;
pub mod code_editor;
pub mod compare_view;
pub mod cost_view;
pub mod embed;
pub mod embed_protocol;
pub mod engine_host;
pub mod exercise_view;
pub mod explain_view;
pub mod first_frame;
pub mod focus;
#[cfg(test)]
mod glossary;
pub mod highlight;
pub mod i18n;
pub mod lessons;
pub mod manifests_pane;
pub mod migration;
pub mod narration;
pub mod offline;
pub mod opening;
pub mod persist;
pub mod player;
pub mod prerender;
pub mod protocol;
pub mod series;
pub mod share_poster;
pub mod share_view;
pub mod snapshot;
pub mod state;
pub mod terminal;
pub mod terminal_view;
pub mod topbar;
pub mod undo;
pub mod words;
pub mod worker;
pub mod workspace;

/// Mounts the page on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    // User Timing marks for profiling the load (a trace or `longtask` entries against them):
    // the page's start runs, and its first task is done but for the effects it queued.
    browser::mark("kpg-wasm-start");
    // The page's state and its first step; the rest follow in tasks of their own
    // (`state::Staging`), and the last retires the build's copy.
    leptos::mount::mount_to_body(app::App);
    browser::mark("kpg-mounted");
}

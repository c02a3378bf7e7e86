//! A share link's first frame: the cluster the link carries, drawn before the page's wasm
//! and the engine's have arrived.
//!
//! A link from the Share dialog or `kpg share` carries the cluster at its instant as the
//! sharer's engine saw it (a [`kpg_scene::poster::Figure`], see
//! [`crate::state::SessionState::shared_now`]). `index.html`'s gate sees the link before the
//! body is read, starts the small first-frame worker (`web/poster`: the link's codec and the
//! poster, tens of kilobytes) with the link in its URL, and holds back the page's module and
//! the engine's worker until the poster is drawn (or a few seconds have passed), so on a
//! phone's network the poster's bytes do not queue behind a megabyte and a half of wasm.
//! The poster shows as an image over the page (`#kpg-first-frame`, inert) until the live
//! page has answered the link's first load with a cluster, or with why it has none; then
//! [`retire`] removes it in the animation frame that shows the live cluster.

use std::sync::atomic::{AtomicBool, Ordering};

/// The element `index.html`'s gate draws the poster into.
pub const ID: &str = "kpg-first-frame";

static RETIRED: AtomicBool = AtomicBool::new(false);

/// Whether the first frame is gone (or never was: [`retire`] has run).
pub fn retired() -> bool {
    RETIRED.load(Ordering::Relaxed)
}

/// Removes the first frame, once: the live page's first answer is on screen.
pub fn retire() {
    if !RETIRED.swap(true, Ordering::Relaxed) {
        crate::base::browser::remove_element(ID);
    }
}

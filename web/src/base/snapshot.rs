//! The cluster view's data: [`kpg_scene::snapshot`], shared with the poster `kpg share`
//! draws, so the page and its static drawings read the engine the same way.

pub use kpg_scene::snapshot::*;

//! Where the page starts and what holds it together: `boot` (where it starts from), `app`
//! (the contexts made and provided, the layout of the panes), `embed` (the layout inside an
//! article), `prerender` (the build's drawing of a first visit) and `offline`. Nothing imports
//! it but the crate's root and binaries.

pub mod app;
pub mod boot;
pub mod embed;
pub mod offline;
pub mod prerender;

//! The cluster as the playground shows it at one instant, and its static drawing.
//!
//! [`snapshot`] reads the engine into plain data (NodePools as lanes, node cards, pods as
//! chips coloured by workload, the pending tray, the summary): what the page's views render.
//! [`poster`] draws the same data as one self-contained SVG, with no script and no
//! stylesheet of the page: the poster an embed shows before it runs (and in feed readers and
//! with JavaScript off), the link preview image, and a share link's first frame.
//!
//! Natively (`kpg share`) and in the page's wasm alike: no I/O, no clock, deterministic.

pub mod poster;
pub mod scenario;
pub mod snapshot;

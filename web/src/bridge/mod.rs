//! What crosses the page's edges: the messages to and from the engine's worker (`protocol`)
//! and the worker's side itself (`worker`, `engine_host`, `player`, `narration`'s narrator),
//! and the `kpg:` messages between an embed and its article (`embed_protocol`). It imports
//! `base`, `lessons` and `editor`, never the page's state, and never touches the DOM.

pub mod embed_protocol;
pub mod engine_host;
pub mod narration;
pub mod player;
pub mod protocol;
pub mod worker;

//! The page's state: small contexts of signals, each provided once by the app and taken by
//! the views that use it (`expect_context`), after Leptos's todomvc.
//!
//! - [`Locale`]: the language every word on the page follows;
//! - [`Page`]: where the page runs (the full page or an embed), where it saves, its notice;
//! - [`Editor`]: the documents, the open tab and the reader's analysis of them;
//! - [`Engine`]: the simulation (not reactive, in a `StoredValue`), a revision that moves when
//!   it changes, and the cluster on screen derived from that revision;
//! - [`Transport`]: the clock, the speed and Play, which drive the engine;
//! - [`Compare`]: the baseline the workspace is compared with, run on the same clock;
//! - [`LessonState`]: the open lesson, its step and the lab loaded;
//! - [`Selection`]: what is explained (and where), and its explanation, derived;
//! - [`SessionState`]: all of the learner's choices read together, for saving and sharing;
//! - [`Staging`]: which parts of the live page are built yet (it starts in steps).
//!
//! Signals hold what the learner chose; the rest is derived (`Memo`s); effects only push
//! outward (to the engine, storage, the host, the DOM). An action that spans contexts takes
//! the others as arguments, so a view's dependencies are the contexts it names.

mod compare;
mod editor;
mod engine;
pub mod focus;
mod lesson;
mod locale;
mod page;
pub mod persist;
mod selection;
mod session;
mod staging;
mod transport;

pub use compare::Compare;
pub use editor::{Editor, Opened};
pub use engine::Engine;
pub use lesson::{Drafts, LessonState, draft_key};
pub use locale::Locale;
pub use page::{Home, Notice, Page};
pub use selection::{BottomTab, Host, PhoneView, Selection};
// What the Explain tab is about crosses to the worker: the bridge defines it, below the state.
pub use crate::bridge::protocol::Selected;
pub use session::SessionState;
pub use staging::{Staging, Step};
pub use transport::{SPEEDS, Transport};

//! The learner's documents and what edits them, without the page's state: the workspace (its
//! tabs and their stream), its highlighting and code editor, undo, opening files, migrations
//! and the terminal's history. It imports `base` and `lessons` only.

pub mod code_editor;
pub mod highlight;
pub mod migration;
pub mod opening;
pub mod terminal;
pub mod undo;
pub mod workspace;

//! The page's panes and controls: each takes the state's contexts it uses and draws them. Views
//! import `base`, `lessons`, `editor`, `bridge`'s types, `state` and `share`, never `shell`.

pub mod cluster_table;
pub mod cluster_view;
pub mod compare_view;
pub mod cost_view;
pub mod exercise_view;
pub mod explain_view;
pub mod manifests_pane;
pub mod narration_view;
pub mod terminal_view;
pub mod topbar;

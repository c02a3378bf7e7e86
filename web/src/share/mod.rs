//! The Share dialog (`share_view`) and its posters (`share_poster`): a view the header opens,
//! above the state it reads and below the views that open it.

pub mod share_poster;
pub mod share_view;

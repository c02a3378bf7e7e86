//! What every part of the page stands on, and nothing of the page itself: the words in either
//! language (`i18n`, `words`), the cluster's data as the engine hands it over (`snapshot`,
//! `series`, `chart`), the browser's calls (`browser`, a no-op off the browser) and the share
//! link's first frame (`first_frame`). It imports no other folder.

pub mod browser;
pub mod chart;
pub mod first_frame;
pub mod i18n;
pub mod series;
pub mod snapshot;
pub mod words;

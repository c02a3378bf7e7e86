use leptos::prelude::*;

use kpg_share::{EmbedOptions, View};

use crate::base::i18n::T;
use crate::editor::workspace::Workspace;

/// Where the workspace on screen is saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Home {
    /// The learner's own workspace.
    Own,
    /// A workspace opened from this share link's fragment.
    Linked { fragment: String },
    /// An embed: nothing is saved.
    Nowhere,
}

/// A message across the top of the page: a text, a detail in the engine's words, a closing
/// sentence, and, after an action that replaced the workspace, the way back.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: T,
    pub detail: Option<String>,
    pub after: Option<T>,
    pub undo: Option<(Workspace, u32)>,
}

impl Notice {
    pub fn plain(text: T) -> Notice {
        Notice {
            text,
            detail: None,
            after: None,
            undo: None,
        }
    }
}

/// Where the page runs and what it says across its top: the full page or an embed in an
/// article, where the workspace on screen is saved, and the notice.
#[derive(Clone, Copy)]
pub struct Page {
    /// Where the workspace on screen is saved (the learner's own, a linked one, nowhere).
    pub home: StoredValue<Home>,
    /// The embed's options, when the page is embedded in an article.
    pub embed: StoredValue<Option<EmbedOptions>>,
    pub notice: RwSignal<Option<Notice>>,
}

impl Page {
    pub fn new(home: Home, embed: Option<EmbedOptions>, notice: Option<Notice>) -> Page {
        Page {
            home: StoredValue::new(home),
            embed: StoredValue::new(embed),
            notice: RwSignal::new(notice),
        }
    }

    pub fn is_embed(&self) -> bool {
        self.embed.with_value(Option::is_some)
    }

    /// Whether an embed offers this part (only embeds have parts).
    pub fn shows(&self, v: View) -> bool {
        self.embed
            .with_value(|o| o.as_ref().is_some_and(|o| o.views().contains(&v)))
    }

    pub fn tell(&self, text: T) {
        self.notice.set(Some(Notice::plain(text)));
    }
}

use leptos::prelude::*;

use crate::base::i18n::{Lang, T};

/// The page's language. Every view's words go through it, so a switch redraws them all.
#[derive(Clone, Copy)]
pub struct Locale {
    pub lang: RwSignal<Lang>,
}

impl Locale {
    pub fn new(lang: Lang) -> Locale {
        Locale {
            lang: RwSignal::new(lang),
        }
    }

    /// `key` in the page's language (tracked: a view that shows it follows a switch).
    pub fn t(&self, key: T) -> &'static str {
        key.get(self.lang.get())
    }
}

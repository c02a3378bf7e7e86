//! The page's side of keeping a build offline. The service worker (`web/offline/sw.js`) keeps
//! one build and takes a new one on the visit after it was found (see that file); this module
//! tells whether this visit is the first of a new build in this browser, for the page to say
//! so. The build's id is the one `web/offline/stamp.mjs` writes into `index.html`
//! (`<meta name="kpg-build">`), a digest of the whole build.

use crate::base::browser;

/// Where the page keeps the build this browser last ran.
pub const BUILD_KEY: &str = "kpg.build";

/// Whether `now` is new to this browser: another build ran here last. A first visit (no
/// build kept yet) is not a new version of anything.
pub fn is_new(last: Option<&str>, now: &str) -> bool {
    last.is_some_and(|last| last != now)
}

/// Notes this visit's build and says whether it is new here. Never for an embed: an embed
/// reads and writes no storage, and an article's reader was not told of an old version.
pub fn arrived(embed: bool) -> bool {
    if embed {
        return false;
    }
    let Some(now) = browser::meta("kpg-build") else {
        return false;
    };
    let last = browser::load(BUILD_KEY);
    if last.as_deref() != Some(now.as_str()) {
        browser::save(BUILD_KEY, &now);
    }
    is_new(last.as_deref(), &now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_build_other_than_the_last_one_is_new() {
        assert!(!is_new(None, "0123456789abcdef"), "a first visit");
        assert!(
            !is_new(Some("0123456789abcdef"), "0123456789abcdef"),
            "the same build"
        );
        assert!(is_new(Some("0123456789abcdef"), "fedcba9876543210"));
    }
}

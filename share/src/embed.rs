//! Embed mode: the options an article gives an embedded playground, as query parameters of
//! the page's URL (`index.html?embed&view=cluster&autoplay…`), and the HTML snippets an author
//! pastes.
//!
//! The same names serve three places: the `data-*` attributes `embed.js` reads from a
//! `<pre class="karpenter-playground">`, the query it puts on the iframe, and what the page
//! reads here. Unknown or malformed options are ignored (an article must never break because
//! of a typo), and [`EmbedOptions::from_query`] reports them so the page can say so.

use kpg_core::model::Millis;

use crate::html::escape;
use crate::{Shared, encode};

/// A part of the page an embed can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Cluster,
    Manifests,
    Events,
    Explain,
    Terminal,
}

impl View {
    pub const ALL: [View; 5] = [
        View::Cluster,
        View::Manifests,
        View::Events,
        View::Explain,
        View::Terminal,
    ];

    pub fn name(self) -> &'static str {
        match self {
            View::Cluster => "cluster",
            View::Manifests => "manifests",
            View::Events => "events",
            View::Explain => "explain",
            View::Terminal => "terminal",
        }
    }

    fn parse(s: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == s)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Follows the reader's `prefers-color-scheme`.
    #[default]
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub fn name(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// When an embed with a poster becomes the live playground (`data-live`, read by `embed.js`;
/// the page itself ignores it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Live {
    /// When it comes near the viewport (what every embed did before posters).
    #[default]
    Visible,
    /// When the reader clicks its poster.
    Click,
    /// Never: the poster is a static figure, the manifests a click away.
    Never,
}

impl Live {
    pub const ALL: [Live; 3] = [Live::Visible, Live::Click, Live::Never];

    pub fn name(self) -> &'static str {
        match self {
            Live::Visible => "visible",
            Live::Click => "click",
            Live::Never => "never",
        }
    }

    pub fn parse(s: &str) -> Option<Live> {
        Live::ALL.into_iter().find(|l| l.name() == s)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmbedOptions {
    /// What the embed shows, the first opening first; empty means every part.
    pub view: Vec<View>,
    /// Starts playing once the scenario is loaded.
    pub autoplay: bool,
    pub speed: Option<u32>,
    /// The clock stops here.
    pub until: Option<Millis>,
    /// The clock starts here.
    pub at: Option<Millis>,
    pub theme: Theme,
    /// `en` or `ko`.
    pub lang: Option<String>,
    /// The manifests can be read but not edited, and the terminal is not offered.
    pub readonly: bool,
    /// The host sends the scenario with a `kpg:load` message (what `embed.js` does) instead
    /// of in the fragment.
    pub scenario_by_message: bool,
    /// When `embed.js` turns a poster into the live playground.
    pub live: Live,
}

impl EmbedOptions {
    /// The embed options in a page URL's query (with or without `?`), or `None` when the
    /// page is not in embed mode. The second value lists the options that were ignored.
    pub fn from_query(query: &str) -> Option<(EmbedOptions, Vec<String>)> {
        let pairs: Vec<(String, String)> = query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (percent_decode(k), percent_decode(v))
            })
            .collect();
        if !pairs
            .iter()
            .any(|(k, v)| k == "embed" && flag(v) == Some(true))
        {
            return None;
        }
        let mut o = EmbedOptions::default();
        let mut ignored = Vec::new();
        for (key, value) in pairs {
            let ok = match key.as_str() {
                "embed" => true,
                "view" => {
                    let views: Option<Vec<View>> = value
                        .split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(View::parse)
                        .collect();
                    match views {
                        Some(mut v) if !v.is_empty() => {
                            let mut seen = Vec::new();
                            v.retain(|x| {
                                let new = !seen.contains(x);
                                seen.push(*x);
                                new
                            });
                            o.view = v;
                            true
                        }
                        _ => false,
                    }
                }
                "autoplay" => flag(&value).map(|b| o.autoplay = b).is_some(),
                "readonly" => flag(&value).map(|b| o.readonly = b).is_some(),
                "speed" => match value.parse::<u32>() {
                    Ok(s @ (1 | 10 | 60)) => {
                        o.speed = Some(s);
                        true
                    }
                    _ => false,
                },
                "until" => time(&value).map(|t| o.until = Some(t)).is_some(),
                "at" => time(&value).map(|t| o.at = Some(t)).is_some(),
                "theme" => match value.as_str() {
                    "auto" | "" => true,
                    "light" => {
                        o.theme = Theme::Light;
                        true
                    }
                    "dark" => {
                        o.theme = Theme::Dark;
                        true
                    }
                    _ => false,
                },
                "lang" => match value.as_str() {
                    "en" | "ko" => {
                        o.lang = Some(value.clone());
                        true
                    }
                    _ => false,
                },
                "live" => Live::parse(&value).map(|l| o.live = l).is_some(),
                "scenario" => match value.as_str() {
                    "message" => {
                        o.scenario_by_message = true;
                        true
                    }
                    "fragment" | "" => true,
                    _ => false,
                },
                _ => false,
            };
            if !ok {
                ignored.push(if value.is_empty() {
                    key
                } else {
                    format!("{key}={value}")
                });
            }
        }
        Some((o, ignored))
    }

    /// The query (with `?`) that [`from_query`](Self::from_query) reads back as `self`.
    pub fn to_query(&self) -> String {
        let mut q = String::from("?embed");
        if self.scenario_by_message {
            q.push_str("&scenario=message");
        }
        for (key, value) in self.attributes() {
            q.push('&');
            q.push_str(key);
            if !value.is_empty() {
                q.push('=');
                q.push_str(&value);
            }
        }
        q
    }

    /// The options as (name, value) pairs, for the query and the `data-*` attributes; only
    /// those that differ from the defaults.
    pub fn attributes(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if !self.view.is_empty() {
            let names: Vec<&str> = self.view.iter().map(|v| v.name()).collect();
            out.push(("view", names.join(",")));
        }
        if self.autoplay {
            out.push(("autoplay", String::new()));
        }
        if let Some(s) = self.speed {
            out.push(("speed", s.to_string()));
        }
        if let Some(t) = self.until {
            out.push(("until", kpg_core::duration::format(t)));
        }
        if let Some(t) = self.at {
            out.push(("at", kpg_core::duration::format(t)));
        }
        if self.theme != Theme::Auto {
            out.push(("theme", self.theme.name().to_string()));
        }
        if let Some(l) = &self.lang {
            out.push(("lang", l.clone()));
        }
        if self.readonly {
            out.push(("readonly", String::new()));
        }
        if self.live != Live::Visible {
            out.push(("live", self.live.name().to_string()));
        }
        out
    }

    /// What the embed shows, defaults applied.
    pub fn views(&self) -> Vec<View> {
        let mut v = if self.view.is_empty() {
            View::ALL.to_vec()
        } else {
            self.view.clone()
        };
        if self.readonly {
            v.retain(|x| *x != View::Terminal);
        }
        if v.is_empty() {
            v.push(View::Cluster);
        }
        v
    }
}

fn flag(v: &str) -> Option<bool> {
    match v {
        "" | "1" | "true" | "yes" => Some(true),
        "0" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// A Go duration (`90s`, `5m`) or plain milliseconds.
fn time(v: &str) -> Option<Millis> {
    if let Ok(ms) = v.parse::<u64>() {
        return Some(ms);
    }
    kpg_core::duration::parse(v).ok()
}

/// `%XX` and `+` as a browser's `URLSearchParams` writes them.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = core::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A playground address as an author gives it (`kpg share --base`), normalised:
/// `https://x.io/kpg` is read as `https://x.io/kpg/` (the playground is a directory: `index.html`
/// and `embed.js` side by side), a bare origin gets its `/`, and a path that names a file
/// (`.../index.html`) is kept. Any fragment is dropped (the link brings its own).
pub fn page_base(url: &str) -> String {
    let url = url.split('#').next().unwrap_or(url);
    let (path, query) = match url.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (url, None),
    };
    let after_scheme = path.find("://").map_or(0, |i| i + 3);
    let rest = &path[after_scheme..];
    // Ends with `/`, or names a file: as given. A bare origin (`http://127.0.0.1:8080`), a
    // relative name (`kpg`) or a last segment without a dot (`/kpg`): a directory.
    let as_given = match rest.rfind('/') {
        None => rest.is_empty(),
        Some(i) => {
            let last = &rest[i + 1..];
            last.is_empty() || last.contains('.')
        }
    };
    let mut out = path.to_string();
    if !as_given {
        out.push('/');
    }
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// The directory a page URL lives in (`https://x.io/kpg/index.html?a#b` → `https://x.io/kpg/`,
/// and `https://x.io/kpg` → `https://x.io/kpg/`, as [`page_base`] reads it): where
/// `embed.js` and `index.html` sit side by side.
pub fn playground_dir(url: &str) -> String {
    let base = page_base(url);
    let path = base.split('?').next().unwrap_or(&base);
    match path.rfind('/') {
        Some(i) => path[..=i].to_string(),
        None => String::new(),
    }
}

/// The snippet for an article that uses `embed.js`: the YAML stays readable as a `<pre>`
/// until the script turns it into a live embed (and without JavaScript, and in feeds).
pub fn script_snippet(dir: &str, yaml: &str, options: &EmbedOptions) -> String {
    let mut out = pre_element(yaml, options);
    out.push_str(&script_tag(dir));
    out
}

/// `<pre class="karpenter-playground" data-…>YAML</pre>` and a newline.
pub(crate) fn pre_element(yaml: &str, options: &EmbedOptions) -> String {
    let mut pre = String::from("<pre class=\"karpenter-playground\"");
    for (key, value) in options.attributes() {
        pre.push_str(&format!(" data-{key}"));
        if !value.is_empty() {
            pre.push_str(&format!("=\"{}\"", escape(&value)));
        }
    }
    pre.push('>');
    pre.push_str(&escape(yaml.trim_end()));
    pre.push_str("\n</pre>\n");
    pre
}

/// The `<script>` that loads `embed.js` from the playground's directory, and a newline.
pub(crate) fn script_tag(dir: &str) -> String {
    format!(
        "<script src=\"{}embed.js\" defer></script>\n",
        escape(&playground_dir(dir))
    )
}

/// A plain iframe for hosts that strip scripts: the scenario travels in the fragment.
pub fn iframe_snippet(
    dir: &str,
    shared: &Shared,
    options: &EmbedOptions,
    title: &str,
    height: u32,
) -> String {
    let dir = playground_dir(dir);
    let mut options = options.clone();
    options.scenario_by_message = false;
    let src = format!("{dir}index.html{}#{}", options.to_query(), encode(shared));
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"{height}\" loading=\"lazy\" \
         style=\"border:0;max-width:100%\"></iframe>\n",
        escape(&src),
        escape(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_an_embed_without_the_flag() {
        assert_eq!(EmbedOptions::from_query(""), None);
        assert_eq!(EmbedOptions::from_query("?lang=ko"), None);
        assert_eq!(EmbedOptions::from_query("?embed=0"), None);
        assert!(EmbedOptions::from_query("?embed").is_some());
        assert!(EmbedOptions::from_query("embed=1").is_some());
    }

    #[test]
    fn options_read_as_embed_js_writes_them() {
        let (o, ignored) = EmbedOptions::from_query(
            "?embed&scenario=message&view=cluster%2Cmanifests&autoplay=&speed=60&until=10m&at=90s&\
             theme=dark&lang=ko&readonly=1",
        )
        .unwrap();
        assert_eq!(ignored, Vec::<String>::new());
        assert_eq!(o.view, [View::Cluster, View::Manifests]);
        assert!(o.autoplay && o.readonly && o.scenario_by_message);
        assert_eq!(o.speed, Some(60));
        assert_eq!(o.until, Some(600_000));
        assert_eq!(o.at, Some(90_000));
        assert_eq!(o.theme, Theme::Dark);
        assert_eq!(o.lang.as_deref(), Some("ko"));
        assert_eq!(EmbedOptions::from_query(&o.to_query()).unwrap().0, o);
    }

    #[test]
    fn typos_are_ignored_and_named_not_fatal() {
        let (o, ignored) =
            EmbedOptions::from_query("?embed&speed=7&view=clster&theme=blue&lang=fr&x=1").unwrap();
        assert_eq!(o, EmbedOptions::default());
        assert_eq!(
            ignored,
            ["speed=7", "view=clster", "theme=blue", "lang=fr", "x=1"]
        );
    }

    #[test]
    fn readonly_never_offers_the_terminal() {
        let o = EmbedOptions {
            readonly: true,
            ..EmbedOptions::default()
        };
        assert!(!o.views().contains(&View::Terminal));
        assert_eq!(EmbedOptions::default().views().len(), 5);
    }

    #[test]
    fn the_base_is_the_playground_directory() {
        for (given, want) in [
            ("https://example.com/kpg/", "https://example.com/kpg/"),
            ("https://example.com/kpg", "https://example.com/kpg/"),
            ("https://example.com", "https://example.com/"),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080/"),
            (
                "https://example.com/kpg/index.html",
                "https://example.com/kpg/index.html",
            ),
            (
                "https://example.com/kpg?x=1#old",
                "https://example.com/kpg/?x=1",
            ),
            ("./", "./"),
            ("kpg", "kpg/"),
        ] {
            assert_eq!(page_base(given), want, "{given}");
        }
    }

    #[test]
    fn the_playground_sits_beside_the_page() {
        assert_eq!(
            playground_dir("https://x.io/kpg/index.html?embed#kpg1.a"),
            "https://x.io/kpg/"
        );
        assert_eq!(playground_dir("https://x.io/kpg/"), "https://x.io/kpg/");
        assert_eq!(playground_dir("https://x.io/kpg"), "https://x.io/kpg/");
        assert_eq!(playground_dir("https://x.io"), "https://x.io/");
        assert_eq!(playground_dir("./"), "./");
    }

    #[test]
    fn snippets_carry_the_scenario_as_text() {
        let yaml = "kind: Pod\nmetadata:\n  name: \"<img src=x onerror=alert(1)>\"\n";
        let o = EmbedOptions {
            autoplay: true,
            until: Some(300_000),
            ..EmbedOptions::default()
        };
        let s = script_snippet("https://x.io/kpg/", yaml, &o);
        assert!(
            s.starts_with("<pre class=\"karpenter-playground\" data-autoplay data-until=\"5m0s\">"),
            "{s}"
        );
        assert!(s.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(!s.contains("<img"));
        assert!(s.ends_with("<script src=\"https://x.io/kpg/embed.js\" defer></script>\n"));
        let shared = crate::from_stream(yaml, 0);
        let f = iframe_snippet(
            "https://x.io/kpg/index.html",
            &shared,
            &o,
            "A <b>pod</b>",
            480,
        );
        assert!(
            f.contains("src=\"https://x.io/kpg/index.html?embed&amp;autoplay&amp;until=5m0s#kpg1."),
            "{f}"
        );
        assert!(f.contains("title=\"A &lt;b&gt;pod&lt;/b&gt;\""));
        assert!(!f.contains("allow="));
    }
}

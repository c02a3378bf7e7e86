//! Posters in snippets and link previews: the HTML around a drawing of the cluster
//! (`kpg_scene::poster::svg`, made by the caller: this crate draws nothing and runs no engine).
//!
//! An embed snippet with a poster is the drawing, then the manifests folded away:
//!
//! ```html
//! <svg class="kpg-poster" …>…</svg>
//! <details class="karpenter-playground-manifests"><summary>Manifests (YAML)</summary>
//! <pre class="karpenter-playground" data-…>YAML</pre>
//! </details>
//! <script src="…/embed.js" defer></script>
//! ```
//!
//! Without JavaScript (feed readers, email, scripts off) the drawing is the figure and the
//! YAML a click away; `embed.js` finds the `<pre>` as it always did, and the drawing just
//! before its `<details>` becomes the embed's poster until the live playground takes over
//! (`data-live`). A bare `<pre class="karpenter-playground">` works as before.

use crate::embed::{EmbedOptions, pre_element, script_tag};
use crate::html::escape;

/// The class of the `<details>` that holds a poster's manifests: how `embed.js` knows the
/// drawing before it is this embed's poster.
pub const POSTER_MARK: &str = "karpenter-playground-manifests";

/// The embed snippet with `poster` (an `<svg>` element) as its figure. `lang` words the
/// summary (`en` or `ko`; anything else reads as English).
pub fn poster_snippet(
    dir: &str,
    yaml: &str,
    options: &EmbedOptions,
    poster: &str,
    lang: &str,
) -> String {
    let summary = match lang {
        "ko" => "매니페스트 (YAML)",
        _ => "Manifests (YAML)",
    };
    let mut out = String::with_capacity(poster.len() + yaml.len() * 2 + 256);
    out.push_str(poster.trim_end());
    out.push('\n');
    out.push_str(&format!(
        "<details class=\"{POSTER_MARK}\"><summary>{summary}</summary>\n"
    ));
    out.push_str(&pre_element(yaml, options));
    out.push_str("</details>\n");
    out.push_str(&script_tag(dir));
    out
}

/// What a link preview page says (`kpg share --page`, the page's Share dialog).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview<'a> {
    /// The scenario's title (the card's headline).
    pub title: &'a str,
    /// One line of figures (`3 nodes · $0.2310/h · …`).
    pub description: &'a str,
    /// The share link the page opens.
    pub link: &'a str,
    /// Where the preview page itself is published (a directory URL, or the page's own URL):
    /// cards want an absolute image URL, and the image sits beside the page.
    pub page_url: &'a str,
    /// The preview image's file name beside the page.
    pub image: &'a str,
    pub image_width: u32,
    pub image_height: u32,
    /// The poster, shown to readers without JavaScript.
    pub poster: &'a str,
    /// `en` or `ko`.
    pub lang: &'a str,
}

/// A static page with OpenGraph and Twitter card metadata, for a link that shows the cluster
/// where it is pasted. Crawlers read the `<meta>`s and never run scripts; a browser that runs
/// them goes on to the playground (`location.replace`, so Back skips this page); without
/// scripts the reader sees the poster and a link.
pub fn preview_page(p: &Preview) -> String {
    let dir = crate::playground_dir(p.page_url);
    let image = format!("{dir}{}", p.image);
    let title = format!("{} · Karpenter Playground", p.title);
    let (open, lang) = match p.lang {
        "ko" => ("Karpenter 플레이그라운드에서 열기", "ko"),
        _ => ("Open in Karpenter Playground", "en"),
    };
    let page_url = crate::page_base(p.page_url);
    let mut m = String::new();
    let mut meta = |attr: &str, name: &str, value: &str| {
        m.push_str(&format!(
            "<meta {attr}=\"{name}\" content=\"{}\">\n",
            escape(value)
        ));
    };
    meta("name", "description", p.description);
    meta("property", "og:type", "website");
    meta("property", "og:site_name", "Karpenter Playground");
    meta("property", "og:title", &title);
    meta("property", "og:description", p.description);
    meta("property", "og:url", &page_url);
    meta("property", "og:image", &image);
    meta("property", "og:image:type", "image/png");
    meta("property", "og:image:width", &p.image_width.to_string());
    meta("property", "og:image:height", &p.image_height.to_string());
    meta(
        "property",
        "og:image:alt",
        &format!("{}: {}", p.title, p.description),
    );
    meta("name", "twitter:card", "summary_large_image");
    meta("name", "twitter:title", &title);
    meta("name", "twitter:description", p.description);
    meta("name", "twitter:image", &image);
    format!(
        "<!doctype html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
         <title>{}</title>\n{m}<link rel=\"canonical\" href=\"{}\">\n\
         <style>body{{margin:0 auto;max-width:760px;padding:16px;font:16px/1.5 system-ui,\
         -apple-system,\"Segoe UI\",sans-serif}}a.open{{font-weight:600}}\
         @media (prefers-color-scheme:dark){{body{{background:#0e1115;color:#e5e8ed}}\
         a{{color:#56b4e9}}}}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p>{}</p>\n\
         <p><a class=\"open\" href=\"{}\">{open} →</a></p>\n<figure>\n{}\n</figure>\n\
         <script>location.replace(document.querySelector('a.open').href)</script>\n\
         </body>\n</html>\n",
        escape(&title),
        escape(&page_url),
        escape(p.title),
        escape(p.description),
        escape(p.link),
        p.poster.trim_end(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_poster_comes_first_and_the_yaml_is_folded_under_it() {
        let o = EmbedOptions {
            live: crate::Live::Click,
            ..EmbedOptions::default()
        };
        let s = poster_snippet(
            "https://x.io/kpg/",
            "kind: Pod\n",
            &o,
            "<svg class=\"kpg-poster\"></svg>",
            "en",
        );
        assert_eq!(
            s,
            "<svg class=\"kpg-poster\"></svg>\n<details class=\"karpenter-playground-manifests\">\
             <summary>Manifests (YAML)</summary>\n<pre class=\"karpenter-playground\" \
             data-live=\"click\">kind: Pod\n</pre>\n</details>\n\
             <script src=\"https://x.io/kpg/embed.js\" defer></script>\n"
        );
    }

    #[test]
    fn live_travels_as_an_attribute_and_reads_back() {
        let o = EmbedOptions {
            live: crate::Live::Never,
            ..EmbedOptions::default()
        };
        assert!(o.attributes().contains(&("live", String::from("never"))));
        let (back, ignored) = EmbedOptions::from_query(&o.to_query()).unwrap();
        assert_eq!(back, o);
        assert!(ignored.is_empty(), "{ignored:?}");
        let default = EmbedOptions::default().attributes();
        assert!(default.iter().all(|(k, _)| *k != "live"));
    }

    #[test]
    fn a_preview_page_carries_absolute_card_metadata_and_escapes_what_it_quotes() {
        let page = preview_page(&Preview {
            title: "NodePool/\"<b>\"",
            description: "3 nodes · $0.2310/h",
            link: "https://x.io/kpg/#kpg1.abc",
            page_url: "https://blog.example/previews/lab",
            image: "preview.png",
            image_width: 1200,
            image_height: 630,
            poster: "<svg class=\"kpg-poster\"></svg>",
            lang: "en",
        });
        assert!(page.contains(
            "<meta property=\"og:image\" content=\"https://blog.example/previews/lab/preview.png\">"
        ));
        assert!(page.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"));
        assert!(page.contains("content=\"3 nodes · $0.2310/h\""));
        assert!(page.contains("NodePool/&quot;&lt;b&gt;&quot;"));
        assert!(!page.contains("<b>"));
        assert!(page.contains("<a class=\"open\" href=\"https://x.io/kpg/#kpg1.abc\">"));
    }
}

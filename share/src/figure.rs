//! A cluster's figure ([`kpg_scene::poster::Figure`]) as each shared place shows it: the embed
//! snippet's poster in the embed's theme and language, the link preview page and its image.
//! `kpg share --embed`/`--page` and the page's Share dialog both call these, so what the
//! dialog offers is byte for byte what the command writes (`tests/browser/share.mjs` compares
//! them). The drawing is `kpg_scene`'s; this module only chooses its style and wraps it.

use kpg_scene::poster::{self, CARD_HEIGHT, CARD_WIDTH, Figure, Lang, Style};

use crate::embed::{EmbedOptions, Theme};
use crate::poster::{Preview, poster_snippet, preview_page};

/// The preview image's file name beside the preview page.
pub const PREVIEW_IMAGE: &str = "preview.png";

/// The poster an embed with `options` shows: in its theme and language (English unless the
/// embed sets Korean). Returns the SVG and the language's tag (`en` or `ko`).
pub fn embed_poster(figure: &Figure, options: &EmbedOptions) -> (String, &'static str) {
    let (lang, tag) = match options.lang.as_deref() {
        Some("ko") => (Lang::Ko, "ko"),
        _ => (Lang::En, "en"),
    };
    let theme = match options.theme {
        Theme::Light => poster::Theme::Light,
        Theme::Dark => poster::Theme::Dark,
        Theme::Auto => poster::Theme::Auto,
    };
    let style = Style {
        theme,
        lang,
        narrow: false,
    };
    (poster::svg(figure, style), tag)
}

/// The embed snippet for `yaml` with `figure`'s poster, the playground at `dir`.
pub fn figure_snippet(dir: &str, yaml: &str, options: &EmbedOptions, figure: &Figure) -> String {
    let (svg, lang) = embed_poster(figure, options);
    poster_snippet(dir, yaml, options, &svg, lang)
}

/// The link preview page of `figure`, opening `link`, to be published at `page_url`: in
/// English (crawlers read one language), its poster following the reader's colour scheme,
/// its image [`PREVIEW_IMAGE`] beside it at the card's size.
pub fn figure_preview_page(figure: &Figure, link: &str, page_url: &str) -> String {
    let poster = poster::svg(
        figure,
        Style {
            theme: poster::Theme::Auto,
            lang: Lang::En,
            narrow: false,
        },
    );
    let description = figure.description(Lang::En);
    preview_page(&Preview {
        title: &figure.title,
        description: &description,
        link,
        page_url,
        image: PREVIEW_IMAGE,
        image_width: CARD_WIDTH as u32,
        image_height: CARD_HEIGHT as u32,
        poster: &poster,
        lang: "en",
    })
}

/// The preview image's drawing, an SVG of the card's size, light and in English: `kpg`
/// rasterises it with resvg, the page on a canvas.
pub fn preview_card(figure: &Figure) -> String {
    poster::preview_card(
        figure,
        Style {
            theme: poster::Theme::Light,
            lang: Lang::En,
            narrow: false,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure() -> Figure {
        Figure {
            title: "NodePool/default".into(),
            at_ms: 180_000,
            nodes: 0,
            cost_per_hour: 0,
            pods_running: 0,
            pods_pending: 2,
            cpu: (0, 0),
            memory: (0, 0),
            decision: None,
            lanes: Vec::new(),
            pending: vec![0, 0],
            pending_groups: Vec::new(),
        }
    }

    #[test]
    fn the_snippet_draws_the_poster_in_the_embeds_theme_and_language() {
        let english = figure_snippet(
            "https://x.io/",
            "kind: Pod\n",
            &EmbedOptions::default(),
            &figure(),
        );
        assert!(english.starts_with("<svg "), "{english}");
        assert!(
            english.contains("<summary>Manifests (YAML)</summary>"),
            "{english}"
        );
        let korean = EmbedOptions {
            lang: Some("ko".into()),
            ..EmbedOptions::default()
        };
        let (svg, tag) = embed_poster(&figure(), &korean);
        assert_eq!(tag, "ko");
        assert!(svg.contains("대기"), "the poster speaks Korean: {svg}");
        let snippet = figure_snippet("https://x.io/", "kind: Pod\n", &korean, &figure());
        assert!(snippet.starts_with(&svg), "{snippet}");
        assert!(
            snippet.contains("<summary>매니페스트 (YAML)</summary>"),
            "{snippet}"
        );
        let dark = EmbedOptions {
            theme: Theme::Dark,
            ..EmbedOptions::default()
        };
        let light = EmbedOptions {
            theme: Theme::Light,
            ..EmbedOptions::default()
        };
        assert_ne!(
            embed_poster(&figure(), &dark).0,
            embed_poster(&figure(), &light).0
        );
    }

    #[test]
    fn the_preview_page_names_the_figure_and_its_image_beside_it() {
        let page = figure_preview_page(
            &figure(),
            "https://x.io/kpg/#kpg1.abc",
            "https://blog.example/previews/limits/",
        );
        let description = figure().description(Lang::En);
        for said in [
            "<meta property=\"og:title\" content=\"NodePool/default · Karpenter Playground\">"
                .to_string(),
            format!("<meta property=\"og:description\" content=\"{description}\">"),
            "<meta property=\"og:image\" \
             content=\"https://blog.example/previews/limits/preview.png\">"
                .to_string(),
            format!("<meta property=\"og:image:width\" content=\"{CARD_WIDTH}\">"),
            format!("<meta property=\"og:image:height\" content=\"{CARD_HEIGHT}\">"),
            "<a class=\"open\" href=\"https://x.io/kpg/#kpg1.abc\">".to_string(),
        ] {
            assert!(page.contains(&said), "{said} in\n{page}");
        }
        let card = preview_card(&figure());
        assert!(
            card.contains(&format!("width=\"{CARD_WIDTH}\" height=\"{CARD_HEIGHT}\"")),
            "{card}"
        );
    }
}

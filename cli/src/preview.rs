//! `kpg share --embed` and `--page`: the scenario's poster (`kpg_scene`), in an embed snippet
//! or a link preview page, and the preview's PNG, rasterised here with resvg.
//!
//! The PNG's text is set in fonts compiled into `kpg` (egui's `epaint_default_fonts`: Ubuntu
//! Light, Ubuntu Font Licence 1.0; Hack, MIT), never the machine's: the same scenario gives
//! the same image on every machine. Those fonts have no Hangul: a Korean title's syllables
//! are left out of the image (the page's text keeps them).

use std::sync::Arc;

use kpg_core::model::Millis;
use kpg_scene::poster::{self, CARD_HEIGHT, CARD_WIDTH, Figure, Lang, Style, Theme};
use kpg_share::EmbedOptions;

/// The preview image's file name beside the page.
pub const IMAGE: &str = "preview.png";

/// The poster a snippet for `options` shows: at the instant the embed opens at, in its
/// theme and language (English unless `--lang` says otherwise).
pub fn embed_poster(yaml: &str, options: &EmbedOptions) -> Result<(String, Lang), String> {
    let figure = kpg_scene::scenario::figure_at(yaml, options.at.unwrap_or(0))?;
    let lang = match options.lang.as_deref() {
        Some("ko") => Lang::Ko,
        _ => Lang::En,
    };
    let theme = match options.theme {
        kpg_share::Theme::Light => Theme::Light,
        kpg_share::Theme::Dark => Theme::Dark,
        kpg_share::Theme::Auto => Theme::Auto,
    };
    Ok((
        poster::svg(
            &figure,
            Style {
                theme,
                lang,
                narrow: false,
            },
        ),
        lang,
    ))
}

/// The embed snippet with its poster.
pub fn embed_snippet(base: &str, yaml: &str, options: &EmbedOptions) -> Result<String, String> {
    let (svg, lang) = embed_poster(yaml, options)?;
    let lang = if lang == Lang::Ko { "ko" } else { "en" };
    Ok(kpg_share::poster_snippet(base, yaml, options, &svg, lang))
}

/// A link preview page: its HTML and its PNG.
pub struct PreviewPage {
    pub html: String,
    pub png: Vec<u8>,
    pub figure: Figure,
}

/// The preview page of `yaml` at `at`, opening `link`, to be served at `page_url`.
pub fn preview_page(
    yaml: &str,
    at: Millis,
    link: &str,
    page_url: &str,
) -> Result<PreviewPage, String> {
    let figure = kpg_scene::scenario::figure_at(yaml, at)?;
    let style = Style {
        theme: Theme::Light,
        lang: Lang::En,
        narrow: false,
    };
    let png = rasterise(&poster::preview_card(&figure, style))?;
    let poster = poster::svg(
        &figure,
        Style {
            theme: Theme::Auto,
            lang: Lang::En,
            narrow: false,
        },
    );
    let description = figure.description(Lang::En);
    let html = kpg_share::preview_page(&kpg_share::Preview {
        title: &figure.title,
        description: &description,
        link,
        page_url,
        image: IMAGE,
        image_width: CARD_WIDTH as u32,
        image_height: CARD_HEIGHT as u32,
        poster: &poster,
        lang: "en",
    });
    Ok(PreviewPage { html, png, figure })
}

/// An SVG as a PNG of its own size, text in the compiled-in fonts.
pub fn rasterise(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
    fonts.load_font_data(epaint_default_fonts::HACK_REGULAR.to_vec());
    fonts.set_sans_serif_family("Ubuntu");
    fonts.set_monospace_family("Hack");
    let options = usvg::Options {
        fontdb: Arc::new(fonts),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| e.to_string())?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| String::from("the image has no area"))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| e.to_string())
}

//! `kpg share --embed` and `--page`: the scenario's poster (`kpg_scene`), in an embed snippet
//! or a link preview page, and the preview's PNG, rasterised here with resvg.
//!
//! The PNG's text is set in fonts compiled into `kpg` (egui's `epaint_default_fonts`: Ubuntu
//! Light, Ubuntu Font Licence 1.0; Hack, MIT), never the machine's: the same scenario gives
//! the same image on every machine. Those fonts have no Hangul: a Korean title's syllables
//! are left out of the image (the page's text keeps them).

use std::sync::Arc;

use kpg_core::model::Millis;
use kpg_scene::poster::Figure;
use kpg_share::EmbedOptions;

/// The embed snippet with its poster, drawn at the instant the embed opens at
/// ([`kpg_share::figure_snippet`], as the page's Share dialog makes it).
pub fn embed_snippet(base: &str, yaml: &str, options: &EmbedOptions) -> Result<String, String> {
    let figure = kpg_scene::scenario::figure_at(yaml, options.at.unwrap_or(0))?;
    Ok(kpg_share::figure_snippet(base, yaml, options, &figure))
}

/// A link preview page: its HTML and its PNG.
pub struct PreviewPage {
    pub html: String,
    pub png: Vec<u8>,
    pub figure: Figure,
}

/// The preview page of `yaml` at `at`, opening `link`, to be served at `page_url`
/// ([`kpg_share::figure_preview_page`], as the page's Share dialog makes it), and its image.
pub fn preview_page(
    yaml: &str,
    at: Millis,
    link: &str,
    page_url: &str,
) -> Result<PreviewPage, String> {
    let figure = kpg_scene::scenario::figure_at(yaml, at)?;
    let png = rasterise(&kpg_share::preview_card(&figure))?;
    let html = kpg_share::figure_preview_page(&figure, link, page_url);
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

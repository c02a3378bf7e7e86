//! The Share dialog's posters: the cluster drawn into the embed snippet, and the link preview
//! page and its image as downloads. The worker draws the figure ([`Request::Poster`]: a
//! simulation of the snippet's own YAML to the chosen instant, as `kpg share` runs it), this
//! thread turns it into the same SVG and HTML as `kpg share --embed` and `--page`; the PNG
//! is rasterised by the browser's canvas (resvg stays in `kpg`, out of the page's wasm).
//!
//! [`Request::Poster`]: crate::protocol::Request::Poster

use kpg_scene::poster::{self, CARD_HEIGHT, CARD_WIDTH, Figure, Lang, Style, Theme};
use kpg_share::EmbedOptions;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// The preview image's file name beside the page, as `kpg share --page` writes it.
pub const IMAGE: &str = "preview.png";

/// The embed snippet with the poster of `figure`, in the options' theme and language
/// (English unless the embed sets one): what `kpg share --embed` prints.
pub fn embed_snippet(dir: &str, yaml: &str, options: &EmbedOptions, figure: &Figure) -> String {
    let lang = match options.lang.as_deref() {
        Some("ko") => Lang::Ko,
        _ => Lang::En,
    };
    let theme = match options.theme {
        kpg_share::Theme::Light => Theme::Light,
        kpg_share::Theme::Dark => Theme::Dark,
        kpg_share::Theme::Auto => Theme::Auto,
    };
    let svg = poster::svg(
        figure,
        Style {
            theme,
            lang,
            narrow: false,
        },
    );
    let lang = if lang == Lang::Ko { "ko" } else { "en" };
    kpg_share::poster_snippet(dir, yaml, options, &svg, lang)
}

/// The link preview page for `link`, to be published at `page_url`: what `kpg share --page`
/// writes as `index.html`.
pub fn preview_html(figure: &Figure, link: &str, page_url: &str) -> String {
    let poster = poster::svg(
        figure,
        Style {
            theme: Theme::Auto,
            lang: Lang::En,
            narrow: false,
        },
    );
    let description = figure.description(Lang::En);
    kpg_share::preview_page(&kpg_share::Preview {
        title: &figure.title,
        description: &description,
        link,
        page_url,
        image: IMAGE,
        image_width: CARD_WIDTH as u32,
        image_height: CARD_HEIGHT as u32,
        poster: &poster,
        lang: "en",
    })
}

/// Whether `url` can be a card's absolute address.
pub fn is_page_url(url: &str) -> bool {
    let url = url.trim();
    (url.starts_with("https://") || url.starts_with("http://"))
        && url.len() > "https://".len()
        && !url.contains(char::is_whitespace)
}

/// Downloads the preview image: the card's SVG drawn on a canvas of its size, as PNG.
pub fn download_image(figure: &Figure) {
    let svg = poster::preview_card(
        figure,
        Style {
            theme: Theme::Light,
            lang: Lang::En,
            narrow: false,
        },
    );
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(img) = doc
        .create_element("img")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlImageElement>().ok())
    else {
        return;
    };
    let drawn = img.clone();
    let onload = Closure::once_into_js(move || {
        let Some(canvas) = doc
            .create_element("canvas")
            .ok()
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        canvas.set_width(CARD_WIDTH as u32);
        canvas.set_height(CARD_HEIGHT as u32);
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = ctx.draw_image_with_html_image_element_and_dw_and_dh(
            &drawn,
            0.0,
            0.0,
            f64::from(CARD_WIDTH),
            f64::from(CARD_HEIGHT),
        );
        let Ok(data) = canvas.to_data_url_with_type("image/png") else {
            return;
        };
        if let Ok(a) = doc.create_element("a")
            && let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>()
        {
            a.set_href(&data);
            a.set_download(IMAGE);
            a.click();
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    let src = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(&svg))
    );
    img.set_src(&src);
}

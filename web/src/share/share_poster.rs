//! The Share dialog's posters: the cluster drawn into the embed snippet, and the link preview
//! page and its image as downloads. The worker draws the figure ([`Request::Poster`]: a
//! simulation of the snippet's own YAML to the chosen instant, as `kpg share` runs it), this
//! thread turns it into the snippet and the page with the functions `kpg share --embed` and
//! `--page` call (`kpg_share::figure_snippet`, `figure_preview_page`, `preview_card`), so
//! the bytes are the same; the PNG is rasterised by the browser's canvas (resvg stays in
//! `kpg`, out of the page's wasm).
//!
//! [`Request::Poster`]: crate::bridge::protocol::Request::Poster

use kpg_scene::poster::{CARD_HEIGHT, CARD_WIDTH, Figure};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

/// Whether `url` can be a card's absolute address.
pub fn is_page_url(url: &str) -> bool {
    let url = url.trim();
    (url.starts_with("https://") || url.starts_with("http://"))
        && url.len() > "https://".len()
        && !url.contains(char::is_whitespace)
}

/// Downloads the preview image: the card's SVG drawn on a canvas of its size, as PNG.
pub fn download_image(figure: &Figure) {
    let svg = kpg_share::preview_card(figure);
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
            a.set_download(kpg_share::PREVIEW_IMAGE);
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

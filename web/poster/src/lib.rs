//! A share link's first frame, drawn before the page's wasm and the engine's have arrived.
//!
//! A link made by the page's Share dialog or `kpg share` carries, beside the scenario, the
//! cluster at its instant as the sharer's engine saw it ([`kpg_scene::poster::Figure`]).
//! This crate is only what it takes to draw that: the link's codec and the poster. Its
//! worker (`main.rs`) is tens of kilobytes where the page and the engine are over a
//! megabyte, so a phone shows the shared cluster in a second or two, and the live page
//! takes over when it has started (index.html's gate, `web/src/base/first_frame.rs`).

use kpg_scene::poster::{self, Lang, Style, Theme};

/// The poster of the link whose fragment is `fragment` (with or without its `#`), or
/// `None` when it is not a link, is damaged, or carries no figure (a link made before
/// links carried one): the page then starts as it always did. `narrow` draws it for a
/// phone's width.
pub fn draw(fragment: &str, narrow: bool) -> Option<String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let shared = kpg_share::decode(fragment).ok()?;
    let figure = shared.figure.as_ref()?;
    let lang = match shared.lang.as_deref() {
        Some("ko") => Lang::Ko,
        _ => Lang::En,
    };
    Some(poster::svg(
        figure,
        Style {
            theme: Theme::Auto,
            lang,
            narrow,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_without_a_figure_or_damaged_draws_nothing() {
        let plain = kpg_share::encode(&kpg_share::from_stream("kind: Pod\n", 0));
        assert_eq!(draw(&plain, false), None);
        assert_eq!(draw("#kpg1.AAAA", false), None);
        assert_eq!(draw("#section-2", true), None);
        assert_eq!(draw("", false), None);
    }

    #[test]
    fn a_link_with_a_figure_draws_its_cluster_in_its_language() {
        use kpg_scene::poster::{Figure, FigureLane};
        let mut shared = kpg_share::from_stream("kind: Pod\n", 0);
        shared.lang = Some("ko".into());
        shared.figure = Some(Figure {
            title: "Pod/web".into(),
            at_ms: 60_000,
            nodes: 0,
            cost_per_hour: 0,
            pods_running: 0,
            pods_pending: 1,
            cpu: (0, 0),
            memory: (0, 0),
            decision: None,
            lanes: vec![FigureLane {
                pool: Some("general".into()),
                nodes: Vec::new(),
                groups: Vec::new(),
            }],
            pending: vec![0],
            pending_groups: Vec::new(),
        });
        let link = format!("#{}", kpg_share::encode(&shared));
        let svg = draw(&link, false).expect("a poster");
        assert!(svg.starts_with("<svg"));
        assert!(
            svg.contains("viewBox=\"0 0 720 "),
            "as wide as an embed's poster"
        );
        let narrow = draw(&link, true).expect("a poster");
        assert!(
            narrow.contains("viewBox=\"0 0 384 "),
            "for a phone: {narrow}"
        );
        assert!(svg.contains("general") && svg.contains("Pod/web"));
        assert!(svg.contains("노드 없음"), "in the link's language");
    }
}

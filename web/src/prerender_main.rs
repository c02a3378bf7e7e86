//! Draws the first visit's page (in English, and in Korean for a Korean browser) into a built
//! `index.html` (trunk's post-build hook runs it on the staging copy; see `Trunk.toml` and
//! `prerender.rs`).
//!
//!   kpg-prerender path/to/index.html

use std::process::ExitCode;

use kpg_web::base::i18n::Lang;
use kpg_web::shell::prerender;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: kpg-prerender path/to/index.html");
        return ExitCode::from(2);
    };
    let page = match std::fs::read_to_string(&path) {
        Ok(page) => page,
        Err(e) => {
            eprintln!("kpg-prerender: cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let draw = |lang| {
        let start = prerender::first_visit(lang);
        let recorded = prerender::record(&start);
        prerender::Drawn {
            html: prerender::render(start, &recorded),
            recorded,
        }
    };
    let english = draw(Lang::En);
    let korean = draw(Lang::Ko);
    let body = prerender::body_html(&english, &korean);
    match prerender::inject(&page, &body) {
        Ok(out) => match std::fs::write(&path, out) {
            Ok(()) => {
                eprintln!(
                    "kpg-prerender: drew the first visit's page into {path} ({} B of HTML \
                     in English, {} B in Korean)",
                    english.html.len(),
                    korean.html.len()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("kpg-prerender: cannot write {path}: {e}");
                ExitCode::FAILURE
            }
        },
        Err(why) => {
            eprintln!("kpg-prerender: {path}: {why}");
            ExitCode::FAILURE
        }
    }
}

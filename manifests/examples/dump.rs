//! Prints the diagnostics and the typed scenario of a file: `cargo run -p kpg-manifests
//! --example dump -- FILE` (add `--case` to skip a conformance case's header document).

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: dump FILE [--case]");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let body = if args.next().as_deref() == Some("--case") {
        text.split_once("\n---\n")
            .map(|(_, rest)| rest.to_string())
            .unwrap_or_default()
    } else {
        text
    };
    let loaded = kpg_manifests::load(&body);
    for d in &loaded.diagnostics {
        println!("{}", d.in_file(&path));
    }
    println!("{:#?}", loaded.scenario);
}

fn main() {
    let path = std::env::args().nth(1).expect("file");
    let text = std::fs::read_to_string(&path).expect("read");
    let body = if std::env::args().nth(2).is_some() { text.split_once("\n---\n").map(|x| x.1.to_string()).unwrap_or_default() } else { text };
    let l = kpg_manifests::load(&body);
    for d in &l.diagnostics { println!("{d}"); }
    println!("{:#?}", l.scenario);
}

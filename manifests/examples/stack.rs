fn main() {
    let path = std::env::args().nth(1).expect("file");
    let kb: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(2048);
    let text = std::fs::read_to_string(&path).expect("read");
    let h = std::thread::Builder::new().stack_size(kb * 1024).spawn(move || {
        let l = kpg_manifests::load(&text);
        println!("{}", l.diagnostics.first().map(|d| d.to_string()).unwrap_or_default().chars().take(150).collect::<String>());
    }).unwrap();
    h.join().unwrap();
}

fn main() {
    let path = std::env::args().nth(1).expect("file");
    let n: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(100);
    let text = std::fs::read_to_string(&path).expect("read");
    let t = std::time::Instant::now();
    let mut d = 0;
    for _ in 0..n { d += kpg_manifests::load(&text).diagnostics.len(); }
    println!("{} bytes, {:?} per load, {d}", text.len(), t.elapsed() / n as u32);
}

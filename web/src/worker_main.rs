//! The engine's worker (trunk builds it with `data-type="worker"`).
fn main() {
    kpg_web::bridge::worker::start();
}

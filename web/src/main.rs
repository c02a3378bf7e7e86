fn main() {
    kpg_web::start();
}

fn main() {
    // `main` runs in the task that instantiates the wasm (V8 finishing its compile, the
    // glue's imports): the page starts in a task of its own, so neither is long.
    leptos::prelude::set_timeout(kpg_web::start, std::time::Duration::ZERO);
}

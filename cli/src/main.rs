//! `kpg`: the command-line front of Karpenter Playground. All logic lives in the library
//! (`kpg::run`); this only connects it to the process's arguments, streams and exit status.

fn main() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!(
            "kpg: internal error: {info}\n\
             This is a bug in kpg, not in your manifests; please report it with the scenario."
        );
    }));
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let status = kpg::run(
        std::env::args_os().skip(1),
        &mut stdin.lock(),
        &mut stdout.lock(),
        &mut stderr.lock(),
    );
    std::process::exit(status);
}

//! `kpg`, Karpenter Playground on the command line.
//!
//! Everything the binary does is here, callable in-process (tests, fuzzing): [`simulate`],
//! [`validate`] and [`share`] on a scenario's text, the renderers in [`table`] and [`json`],
//! and [`run`], the whole command line with its streams passed in. `main.rs` only wires `run`
//! to the process. Nothing here panics on any input; exit statuses are 0 (success), 1 (the scenario
//! has errors or cannot be read or run), 2 (bad command line, or a command not there yet) and
//! 3 (a condition of `compare`'s `--fail-on` or `--max-cost-increase` failed).

pub mod args;
pub mod compare;
pub mod csv;
pub mod json;
pub mod lesson;
pub mod preview;
pub mod table;

use std::ffi::OsString;
use std::io::{self, Read, Write};

use kpg_core::model::{Millis, Scenario};
use kpg_core::report::Report;
use kpg_core::sim::{SimError, Simulation};
use kpg_manifests::{Diagnostic, Severity};

use args::{Command, Input, ShareOutput, SimulateOutput, ValidateOutput};

/// Exit status: the command did what was asked.
pub const EXIT_OK: i32 = 0;
/// Exit status: the scenario has errors, cannot be read, or cannot be run.
pub const EXIT_FAILURE: i32 = 1;
/// Exit status: the command line is wrong (or the command is not implemented yet).
pub const EXIT_USAGE: i32 = 2;
/// Exit status: `kpg compare` ran both scenarios and a condition (`--fail-on`,
/// `--max-cost-increase`) failed.
pub const EXIT_CHECK_FAILED: i32 = 3;

/// Without `--until`, the clock stops when nothing more would change, or at this time.
pub const REST_LIMIT: Millis = 60 * 60 * 1000;

/// A finished simulation.
pub struct Simulated {
    /// The cluster at `now`.
    pub report: Report,
    /// The simulated time reached.
    pub now: Millis,
    /// The reader's warnings (the scenario ran anyway).
    pub warnings: Vec<Diagnostic>,
    /// The simulation itself, at `now` (what the tables and the terminal read).
    pub sim: Simulation,
}

/// Why a scenario was not simulated.
#[derive(Debug)]
pub enum Failure {
    /// The reader found errors; every diagnostic (errors and warnings) in document order.
    Invalid(Vec<Diagnostic>),
    /// The reader accepted the scenario but the engine could not start it.
    Sim {
        warnings: Vec<Diagnostic>,
        error: SimError,
    },
}

/// Reads and runs a scenario: to `until` when given, else until nothing more would change
/// (at most [`REST_LIMIT`]).
pub fn simulate(text: &str, until: Option<Millis>) -> Result<Simulated, Failure> {
    let (warnings, sim) = load_and_run(text, until)?;
    Ok(Simulated {
        report: sim.report(),
        now: sim.now(),
        warnings,
        sim,
    })
}

/// Reads and runs a scenario like [`simulate`] and explains one subject at the end.
pub fn explain(
    text: &str,
    subject: &kpg_explain::Subject,
    at: Option<Millis>,
    lang: kpg_explain::Lang,
) -> Result<
    (
        Vec<Diagnostic>,
        Result<kpg_explain::Explanation, kpg_explain::NotFound>,
    ),
    Failure,
> {
    let (warnings, sim) = load_and_run(text, at)?;
    Ok((warnings, kpg_explain::explain(&sim, subject, lang)))
}

/// The part [`simulate`] and [`explain`] share: read, start, run to `until` or to rest.
fn load_and_run(
    text: &str,
    until: Option<Millis>,
) -> Result<(Vec<Diagnostic>, Simulation), Failure> {
    let loaded = kpg_manifests::load(text);
    if loaded.has_errors() {
        return Err(Failure::Invalid(loaded.diagnostics));
    }
    let warnings = loaded.diagnostics;
    let mut sim = match Simulation::new(loaded.scenario) {
        Ok(sim) => sim,
        Err(error) => return Err(Failure::Sim { warnings, error }),
    };
    match until {
        Some(t) => sim.run_until(t),
        None => {
            sim.run_to_rest(REST_LIMIT);
        }
    }
    Ok((warnings, sim))
}

/// Prints why nothing could be simulated (the diagnostics, or the engine's refusal).
fn print_failure(file: &str, failure: Failure, stderr: &mut dyn Write) {
    print_refusal(file, failure, "nothing was simulated", stderr);
}

/// [`print_failure`] with the last line's ending (`nothing was simulated`) given.
fn print_refusal(file: &str, failure: Failure, outcome: &str, stderr: &mut dyn Write) {
    match failure {
        Failure::Invalid(diagnostics) => {
            for d in &diagnostics {
                let _ = writeln!(stderr, "{}", d.in_file(file));
            }
            let _ = writeln!(
                stderr,
                "kpg: {file}: {}; {outcome}",
                summary_line(&diagnostics)
            );
        }
        Failure::Sim { warnings, error } => {
            for d in &warnings {
                let _ = writeln!(stderr, "{}", d.in_file(file));
            }
            let _ = writeln!(stderr, "kpg: {file}: cannot simulate: {error}");
        }
    }
}

/// Reads a scenario and returns its diagnostics, without running it.
pub fn validate(text: &str) -> Vec<Diagnostic> {
    kpg_manifests::load(text).diagnostics
}

pub fn is_error(d: &Diagnostic) -> bool {
    matches!(d.severity, Severity::Error)
}

/// `N errors, M warnings`
pub fn summary_line(diagnostics: &[Diagnostic]) -> String {
    let errors = diagnostics.iter().filter(|d| is_error(d)).count();
    let warnings = diagnostics.len() - errors;
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!(
        "{}, {}",
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

/// Reads the scenario text from a file or standard input.
pub fn read_input(input: &Input, stdin: &mut dyn Read) -> Result<String, String> {
    let bytes = match input {
        Input::Stdin => {
            let mut buf = Vec::new();
            stdin
                .read_to_end(&mut buf)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            buf
        }
        Input::Path(path) => std::fs::read(path)
            .map_err(|e| format!("cannot read {}: {}", path.to_string_lossy(), io_message(&e)))?,
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            input.display_name(),
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

fn io_message(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => String::from("no such file"),
        io::ErrorKind::PermissionDenied => String::from("permission denied"),
        io::ErrorKind::IsADirectory => String::from("it is a directory"),
        _ => e.to_string(),
    }
}

/// The whole command line: parses `args` (without the program name), runs the command and
/// returns the exit status.
pub fn run<I>(args: I, stdin: &mut dyn Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = OsString>,
{
    let command = match args::parse(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(stderr, "kpg: {}\n\n{}", e.message, args::help_text(e.topic));
            return EXIT_USAGE;
        }
    };
    match command {
        Command::Help(topic) => emit(stdout, stderr, args::help_text(topic)),
        Command::Version => emit(
            stdout,
            stderr,
            &format!("kpg {}\n", env!("CARGO_PKG_VERSION")),
        ),
        Command::Migrate { input } => run_migrate(&input, stdin, stdout, stderr),
        Command::Import {
            input,
            keep_images,
            lists,
        } => {
            let options = kpg_import::Options { keep_images, lists };
            run_import(&input, options, stdin, stdout, stderr)
        }
        Command::Codes { code } => run_codes(code.as_deref(), stdout, stderr),
        Command::Explain {
            input,
            subject,
            at,
            output,
            lang,
        } => run_explain(&input, &subject, at, output, lang, stdin, stdout, stderr),
        Command::Kubectl {
            input,
            at,
            until,
            line,
        } => run_kubectl(&input, at, until, &line, stdin, stdout, stderr),
        Command::Share {
            input,
            base,
            at,
            output,
        } => run_share(&input, &base, at, &output, stdin, stdout, stderr),
        Command::Validate { input, output } => run_validate(&input, output, stdin, stdout, stderr),
        Command::LessonCheck { path } => lesson::run_check(&path, stdout, stderr),
        Command::LessonLink { path, base } => lesson::run_link(&path, &base, stdout, stderr),
        Command::Simulate {
            input,
            until,
            output,
        } => run_simulate(&input, until, output, stdin, stdout, stderr),
        Command::Compare {
            a,
            b,
            until,
            output,
            checks,
        } => run_compare(&a, &b, until, output, &checks, stdin, stdout, stderr),
    }
}

/// Reads and runs one file as `simulate` does, printing its warnings, or why it cannot run,
/// on stderr: the file's name, its text and the run.
fn simulate_file(
    input: &Input,
    until: Option<Millis>,
    stdin: &mut dyn Read,
    stderr: &mut dyn Write,
) -> Option<(String, String, Simulated)> {
    let file = input.display_name();
    let text = read_or_report(input, stdin, stderr)?;
    match simulate(&text, until) {
        Err(failure) => {
            print_failure(&file, failure, stderr);
            None
        }
        Ok(simulated) => {
            for d in &simulated.warnings {
                let _ = writeln!(stderr, "{}", d.in_file(&file));
            }
            Some((file, text, simulated))
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run_compare(
    a: &Input,
    b: &Input,
    until: Option<Millis>,
    output: args::CompareOutput,
    checks: &compare::Checks,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let Some((file_a, _, mut sim_a)) = simulate_file(a, until, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    let Some((file_b, _, mut sim_b)) = simulate_file(b, until, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    compare::align(&mut sim_a, &mut sim_b, until);
    let c = compare::compare((&file_a, &sim_a), (&file_b, &sim_b));
    let changes_b = compare::Changes::of(&sim_b);
    let verdicts = compare::verdicts(&c, &changes_b, checks);
    let rendered = match output {
        args::CompareOutput::Csv => compare::csv(&sim_a, &sim_b),
        args::CompareOutput::Table => compare::table(&c),
        args::CompareOutput::Markdown => {
            compare::markdown(&c, &compare::Changes::of(&sim_a), &changes_b, &verdicts)
        }
        args::CompareOutput::Json => match serde_json::to_string_pretty(&c) {
            Ok(mut s) => {
                s.push('\n');
                s
            }
            Err(e) => {
                let _ = writeln!(stderr, "kpg: cannot write the comparison as JSON: {e}");
                return EXIT_FAILURE;
            }
        },
    };
    let status = emit(stdout, stderr, &rendered);
    let failed: Vec<&compare::Verdict> = verdicts.iter().filter(|v| v.failed).collect();
    for v in &failed {
        let _ = writeln!(stderr, "kpg: {}", v.failure_line());
    }
    if status == EXIT_OK && !failed.is_empty() {
        EXIT_CHECK_FAILED
    } else {
        status
    }
}

/// Writes the result to stdout; a closed pipe is not an error worth a message.
fn emit(stdout: &mut dyn Write, stderr: &mut dyn Write, text: &str) -> i32 {
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_FAILURE,
        Err(e) => {
            let _ = writeln!(stderr, "kpg: cannot write the output: {e}");
            EXIT_FAILURE
        }
    }
}

/// Reads the scenario, or says on stderr why it cannot be read.
fn read_or_report(input: &Input, stdin: &mut dyn Read, stderr: &mut dyn Write) -> Option<String> {
    match read_input(input, stdin) {
        Ok(t) => Some(t),
        Err(m) => {
            let _ = writeln!(stderr, "kpg: {m}");
            None
        }
    }
}

fn run_validate(
    input: &Input,
    output: ValidateOutput,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let file = input.display_name();
    let Some(text) = read_or_report(input, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    let diagnostics = validate(&text);
    let rendered = match output {
        ValidateOutput::Text => {
            let mut out = String::new();
            for d in &diagnostics {
                out.push_str(&d.in_file(&file).to_string());
                out.push('\n');
            }
            out.push_str(&summary_line(&diagnostics));
            out.push('\n');
            out
        }
        ValidateOutput::Json => json::diagnostics(&file, &diagnostics),
    };
    let status = emit(stdout, stderr, &rendered);
    if status != EXIT_OK {
        return status;
    }
    if diagnostics.iter().any(is_error) {
        EXIT_FAILURE
    } else {
        EXIT_OK
    }
}

/// `kpg codes`: every code with its origin and summary, aligned; `kpg codes CODE`: one code
/// in both languages.
fn run_codes(code: Option<&str>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    use kpg_manifests::codes::{ALL, Code};
    let Some(name) = code else {
        let width = ALL.iter().map(|i| i.code.as_str().len()).max().unwrap_or(0);
        let mut out = String::new();
        for i in ALL {
            out.push_str(&format!(
                "{:width$}  {:10}  {}\n",
                i.code.as_str(),
                i.origin.as_str(),
                i.summary
            ));
        }
        return emit(stdout, stderr, &out);
    };
    let Some(c) = Code::parse(name) else {
        let guess = kpg_manifests::codes::closest(name);
        let hint = guess
            .map(|g| format!(" (did you mean {g}?)"))
            .unwrap_or_default();
        let _ = writeln!(
            stderr,
            "kpg: {name:?} is not a finding code{hint}; kpg codes lists them all"
        );
        return EXIT_FAILURE;
    };
    let i = c.info();
    let (meaning, meaning_ko) = i.origin.meaning();
    emit(
        stdout,
        stderr,
        &format!(
            "{}\n  origin: {} ({meaning})\n  {}\n\n  출처: {meaning_ko}\n  {}\n",
            c,
            i.origin.as_str(),
            i.summary,
            i.summary_ko
        ),
    )
}

/// `kpg migrate`: the migrated text on stdout, byte for byte where nothing changed; one line
/// per change on stderr (`file:line: migrated Kind/name: ...`, or `needs a person` for what
/// it could not do). Exit 0 unless the file cannot be read.
/// `kpg import`: the findings to standard error, the minimal scenario to standard output.
fn run_import(
    input: &Input,
    options: kpg_import::Options,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let file = input.display_name();
    let Some(text) = read_or_report(input, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    let loaded = kpg_manifests::load(&text);
    if loaded.has_errors() {
        print_refusal(
            &file,
            Failure::Invalid(loaded.diagnostics),
            "nothing was imported",
            stderr,
        );
        return EXIT_FAILURE;
    }
    for d in &loaded.diagnostics {
        let _ = writeln!(stderr, "{}", d.in_file(&file));
    }
    emit(
        stdout,
        stderr,
        &kpg_import::import(&loaded.scenario, options),
    )
}

fn run_migrate(
    input: &Input,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let file = input.display_name();
    let Some(text) = read_or_report(input, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    let migration = kpg_manifests::migrate(&text);
    let mut notes = String::new();
    for c in &migration.changes {
        let what = if c.manual {
            "needs a person"
        } else {
            "migrated"
        };
        notes.push_str(&format!(
            "{file}:{}: {what} {}: {}\n",
            c.line, c.object, c.message
        ));
    }
    if migration.changes.is_empty() {
        notes.push_str(&format!(
            "{file}: nothing to migrate: no karpenter.sh/v1beta1 or \
             karpenter.k8s.aws/v1beta1 objects\n"
        ));
    }
    if stderr.write_all(notes.as_bytes()).is_err() {
        return EXIT_FAILURE;
    }
    if stdout
        .write_all(migration.text.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return EXIT_FAILURE;
    }
    EXIT_OK
}

#[allow(clippy::too_many_arguments)]
fn run_explain(
    input: &Input,
    subject: &kpg_explain::Subject,
    at: Option<Millis>,
    output: args::ExplainOutput,
    lang: kpg_explain::Lang,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let file = input.display_name();
    let Some(text) = read_or_report(input, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    match explain(&text, subject, at, lang) {
        Err(failure) => {
            print_failure(&file, failure, stderr);
            EXIT_FAILURE
        }
        Ok((warnings, found)) => {
            for d in &warnings {
                let _ = writeln!(stderr, "{}", d.in_file(&file));
            }
            match found {
                Err(not_found) => {
                    let _ = writeln!(stderr, "kpg: {file}: {not_found}");
                    EXIT_FAILURE
                }
                Ok(explanation) => {
                    let rendered = match output {
                        args::ExplainOutput::Text => explanation.to_text(),
                        args::ExplainOutput::Json => {
                            match serde_json::to_string_pretty(&explanation) {
                                Ok(s) => s + "\n",
                                Err(e) => {
                                    let _ = writeln!(
                                        stderr,
                                        "kpg: cannot write the explanation as JSON: {e}"
                                    );
                                    return EXIT_FAILURE;
                                }
                            }
                        }
                    };
                    emit(stdout, stderr, &rendered)
                }
            }
        }
    }
}

fn run_simulate(
    input: &Input,
    until: Option<Millis>,
    output: SimulateOutput,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let Some((file, text, simulated)) = simulate_file(input, until, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    let rendered = match output {
        SimulateOutput::Json => match json::report(&simulated.report) {
            Ok(s) => s,
            Err(e) => {
                let _ = writeln!(stderr, "kpg: cannot write the report as JSON: {e}");
                return EXIT_FAILURE;
            }
        },
        SimulateOutput::Table => table::render(&simulated.sim, &simulated.report, &file, &text),
        SimulateOutput::Csv => csv::history(simulated.sim.history(), simulated.now),
    };
    emit(stdout, stderr, &rendered)
}

/// The files a terminal command sees: the scenario, and every other `-f FILE` it names that
/// can be read from disk (the page's tabs play this part there).
fn kubectl_files(input: &Input, scenario: &str, line: &str) -> Vec<(String, String)> {
    let mut files = vec![(input.display_name(), scenario.to_string())];
    let words: Vec<String> = kpg_kubectl::tokenize::split(line)
        .unwrap_or_default()
        .into_iter()
        .map(|w| w.text)
        .collect();
    let is_logs = words.iter().any(|w| w == "logs");
    for (i, w) in words.iter().enumerate() {
        let named = if (w == "-f" || w == "--filename") && !is_logs {
            words.get(i + 1).cloned()
        } else {
            w.strip_prefix("--filename=")
                .or_else(|| w.strip_prefix("-f="))
                .map(str::to_string)
        };
        let Some(path) = named else { continue };
        if files.iter().any(|(n, _)| *n == path) {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(&path) {
            files.push((path, text));
        }
    }
    files
}

/// `kpg kubectl`: one terminal command over the simulation at `--at`; with a watch, what
/// changes at each later event until `--until` or rest.
fn run_kubectl(
    input: &Input,
    at: Option<Millis>,
    until: Option<Millis>,
    line: &str,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let file = input.display_name();
    let Some(text) = read_or_report(input, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    let (warnings, mut sim) = match load_and_run(&text, at) {
        Ok(run) => run,
        Err(failure) => {
            print_failure(&file, failure, stderr);
            return EXIT_FAILURE;
        }
    };
    for d in &warnings {
        let _ = writeln!(stderr, "{}", d.in_file(&file));
    }
    let files = kubectl_files(input, &text, line);
    let reply = kpg_kubectl::run(
        &kpg_kubectl::Files {
            sim: &sim,
            files: &files,
            reader: kpg_manifests::documents,
        },
        line,
    );
    let mut out = reply.output;
    if !reply.changes.is_empty() {
        out.push_str(&format!(
            "\n# kpg: not saved; to make this happen, add to a Timeline's spec.steps in {file}:\n"
        ));
        for c in &reply.changes {
            out.push_str(&c.timeline_step(sim.now()));
        }
    }
    let status = emit(stdout, stderr, &out);
    if status != EXIT_OK {
        return status;
    }
    if let Some(mut watch) = reply.watch {
        let limit = until.unwrap_or(REST_LIMIT).max(sim.now());
        while let Some(next) = sim.next_event_time() {
            if next > limit {
                break;
            }
            // The clock always moves on, even if an action falls due at the present instant.
            sim.run_until(next.max(sim.now() + 1));
            let text = watch.poll(&kpg_kubectl::Files {
                sim: &sim,
                files: &files,
                reader: kpg_manifests::documents,
            });
            if !text.is_empty() {
                let status = emit(stdout, stderr, &text);
                if status != EXIT_OK {
                    return status;
                }
            }
        }
    }
    if reply.ok { EXIT_OK } else { EXIT_FAILURE }
}

/// What `kpg share` prints, or why it prints nothing.
#[derive(Debug)]
pub struct Shareable {
    /// The link, the `--embed` snippet or the `--iframe` snippet, ending in a newline.
    pub text: String,
    /// The share link in it (none in an `--embed` snippet, which carries the YAML as text).
    pub link: Option<String>,
    /// The reader's warnings (the scenario is shared anyway).
    pub warnings: Vec<Diagnostic>,
    /// `--page`: the files to write (the page and its image), under the directory given.
    pub files: Vec<(std::path::PathBuf, Vec<u8>)>,
}

/// Why a scenario was not shared.
#[derive(Debug)]
pub enum ShareFailure {
    /// The reader found errors, or the engine would not start it: the page would open on
    /// its Problems panel.
    Refused(Failure),
    /// Nothing but blank lines: the page has nothing to open.
    Empty,
    /// The link does not read back as the scenario (over the size a link may hold).
    Unreadable(kpg_share::LinkError),
    /// `--issue`: no report could be made.
    Report(kpg_issue::Refusal),
    /// `--page`: the preview could not be drawn.
    Preview(String),
}

/// `kpg share` on a scenario's text: reads it as [`validate`] does, starts it as
/// [`simulate`] does (without running it), and makes the link or the snippet with
/// `kpg_share`. `name` describes the scenario in an iframe's default title.
pub fn share(
    text: &str,
    name: Option<&str>,
    base: &str,
    at: Option<Millis>,
    output: &ShareOutput,
) -> Result<Shareable, ShareFailure> {
    let loaded = kpg_manifests::load(text);
    if loaded.has_errors() {
        return Err(ShareFailure::Refused(Failure::Invalid(loaded.diagnostics)));
    }
    let warnings = loaded.diagnostics;
    let name = name
        .map(str::to_string)
        .unwrap_or_else(|| describe(&loaded.scenario));
    let mut sim = match Simulation::new(loaded.scenario) {
        Ok(sim) => sim,
        Err(error) => return Err(ShareFailure::Refused(Failure::Sim { warnings, error })),
    };
    let mut shared = kpg_share::from_stream(text, at.unwrap_or(0));
    if shared.docs.iter().all(|d| d.trim().is_empty()) {
        return Err(ShareFailure::Empty);
    }
    if !matches!(output, ShareOutput::Embed(_) | ShareOutput::Issue) {
        // The cluster at the link's instant, which the page draws before its engine has
        // arrived: the page's Share dialog puts the same figure into its links.
        sim.run_until(shared.at);
        let snapshot = kpg_scene::snapshot::take(&sim);
        let title = kpg_scene::poster::title_of(&shared.docs);
        shared.figure = Some(kpg_scene::poster::Figure::of(&snapshot, &title));
    }
    let mut files = Vec::new();
    let (text, link) = match output {
        // The scenario was read and started above, so its poster can be drawn; were it not,
        // the snippet without one still works.
        ShareOutput::Embed(options) => (
            preview::embed_snippet(base, text, options)
                .unwrap_or_else(|_| kpg_share::script_snippet(base, text, options)),
            None,
        ),
        ShareOutput::Page { dir, page_url } => {
            let link = checked_link(base, &shared)?;
            let page = preview::preview_page(text, at.unwrap_or(0), &link, page_url)
                .map_err(ShareFailure::Preview)?;
            files.push((dir.join("index.html"), page.html.into_bytes()));
            files.push((dir.join(kpg_share::PREVIEW_IMAGE), page.png));
            (format!("{}\n", kpg_share::page_base(page_url)), Some(link))
        }
        ShareOutput::Issue => {
            let issue = kpg_issue::issue(&shared.docs, at, base).map_err(ShareFailure::Report)?;
            (issue.markdown, issue.link)
        }
        ShareOutput::Link => {
            let link = checked_link(base, &shared)?;
            (format!("{link}\n"), Some(link))
        }
        ShareOutput::Iframe {
            options,
            height,
            title,
        } => {
            let link = checked_link(base, &shared)?;
            let title = title
                .clone()
                .unwrap_or_else(|| format!("Karpenter Playground: {name}"));
            let html = kpg_share::iframe_snippet(base, &shared, options, &title, *height);
            (html, Some(link))
        }
    };
    Ok(Shareable {
        text,
        link,
        warnings,
        files,
    })
}

/// The link, once it is known to read back as `shared`: one over the size a link may hold
/// is refused here rather than found broken by the person it was sent to.
fn checked_link(base: &str, shared: &kpg_share::Shared) -> Result<String, ShareFailure> {
    let link = kpg_share::link(base, shared);
    let fragment = link.split_once('#').map_or("", |(_, f)| f);
    match kpg_share::decode(fragment) {
        Ok(back) if back == *shared => Ok(link),
        Ok(_) => Err(ShareFailure::Unreadable(kpg_share::LinkError::Damaged(
            String::from("it reads back differently"),
        ))),
        Err(e) => Err(ShareFailure::Unreadable(e)),
    }
}

/// A short description of a scenario read from standard input, for an iframe's title: its
/// cluster's name when it names one, else its first NodePool or workload.
fn describe(scenario: &Scenario) -> String {
    kpg_scene::scenario::title(scenario)
}

/// `kpg share`: the link (or the snippet) on stdout, warnings and the long-link note on
/// stderr; nothing on stdout when the scenario cannot be shared.
fn run_share(
    input: &Input,
    base: &str,
    at: Option<Millis>,
    output: &ShareOutput,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    let file = input.display_name();
    let Some(text) = read_or_report(input, stdin, stderr) else {
        return EXIT_FAILURE;
    };
    let name = match input {
        Input::Path(p) => p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty()),
        Input::Stdin => None,
    };
    let shareable = match share(&text, name.as_deref(), base, at, output) {
        Ok(s) => s,
        Err(ShareFailure::Refused(failure)) => {
            print_refusal(&file, failure, "no link was made", stderr);
            return EXIT_FAILURE;
        }
        Err(ShareFailure::Empty) => {
            let _ = writeln!(
                stderr,
                "kpg: {file}: nothing to share: it holds no manifests"
            );
            return EXIT_FAILURE;
        }
        Err(ShareFailure::Report(refusal)) => {
            let _ = writeln!(stderr, "kpg: {file}: no report was made: {refusal}");
            return EXIT_FAILURE;
        }
        Err(ShareFailure::Preview(e)) => {
            let _ = writeln!(stderr, "kpg: {file}: no preview was made: {e}");
            return EXIT_FAILURE;
        }
        Err(ShareFailure::Unreadable(e)) => {
            let _ = writeln!(
                stderr,
                "kpg: {file}: cannot be shared as a link: {e}; share the .yaml file instead"
            );
            return EXIT_FAILURE;
        }
    };
    for d in &shareable.warnings {
        let _ = writeln!(stderr, "{}", d.in_file(&file));
    }
    for (path, bytes) in &shareable.files {
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(path, bytes));
        if let Err(e) = written {
            let _ = writeln!(stderr, "kpg: cannot write {}: {e}", path.display());
            return EXIT_FAILURE;
        }
        let _ = writeln!(stderr, "kpg: wrote {}", path.display());
    }
    if let (ShareOutput::Link, Some(link)) = (output, &shareable.link) {
        let chars = link.chars().count();
        if chars > kpg_share::LONG_LINK_CHARS {
            let what = match input {
                Input::Path(_) => file.clone(),
                Input::Stdin => String::from("the .yaml file"),
            };
            let _ = writeln!(
                stderr,
                "kpg: note: the link is {chars} characters; links over {} KB are awkward to paste \
                 into chat tools and issue trackers: consider sharing {what} itself",
                kpg_share::LONG_LINK_CHARS / 1024
            );
        }
    }
    emit(stdout, stderr, &shareable.text)
}

//! Command-line parsing, by hand: a handful of subcommands and options do not need a parser
//! crate, and keeping the binary's dependency tree to the engine, the reader and serde_json
//! keeps it small and quick to build.

use std::ffi::OsString;
use std::path::PathBuf;

use kpg_core::model::Millis;

use crate::compare::{Checks, CostLimit};

/// Where the scenario comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Stdin,
    Path(PathBuf),
}

impl Input {
    /// How diagnostics name the input.
    pub fn display_name(&self) -> String {
        match self {
            Input::Stdin => String::from("<stdin>"),
            Input::Path(p) => p.to_string_lossy().into_owned(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimulateOutput {
    Table,
    Json,
    /// The cluster's figures over time ([`crate::csv`]).
    Csv,
}

/// What `kpg compare` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOutput {
    Table,
    Json,
    /// Both series on one time axis ([`crate::compare::csv`]).
    Csv,
    /// A summary for a pull request's comment ([`crate::compare::markdown`]).
    Markdown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValidateOutput {
    Text,
    Json,
}

/// A help page: the overview or one subcommand's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topic {
    Overview,
    Simulate,
    Compare,
    Validate,
    Migrate,
    Codes,
    Explain,
    Kubectl,
    Share,
    Import,
    Lesson,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainOutput {
    Text,
    Json,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help(Topic),
    Version,
    Simulate {
        input: Input,
        until: Option<Millis>,
        output: SimulateOutput,
    },
    Validate {
        input: Input,
        output: ValidateOutput,
    },
    Migrate {
        input: Input,
    },
    /// `kpg import SNAPSHOT [--keep-images] [--lists]`: a cluster snapshot as a minimal,
    /// redacted scenario.
    Import {
        input: Input,
        keep_images: bool,
        lists: bool,
    },
    /// `kpg compare A B [--until DURATION] [--output table|json|csv|markdown] [--fail-on
    /// pending,drift] [--max-cost-increase LIMIT]`: two scenarios side by side over the same
    /// simulated window, and the conditions that fail the comparison.
    Compare {
        a: Input,
        b: Input,
        until: Option<Millis>,
        output: CompareOutput,
        checks: Checks,
    },
    /// `kpg codes [CODE]`: the table of finding codes, or one code explained.
    Codes {
        code: Option<String>,
    },
    /// `kpg explain FILE --pod NS/NAME | --node NAME | --nodeclaim NAME [--at DURATION]`.
    Explain {
        input: Input,
        subject: kpg_explain::Subject,
        at: Option<Millis>,
        output: ExplainOutput,
        lang: kpg_explain::Lang,
    },
    /// `kpg kubectl FILE [--at DURATION] [--until DURATION] -- COMMAND...`: a terminal command
    /// (kubectl, eks-node-viewer) over the simulated cluster.
    Kubectl {
        input: Input,
        at: Option<Millis>,
        until: Option<Millis>,
        /// The command line, as the page's terminal would receive it.
        line: String,
    },
    /// `kpg share FILE [--base URL] [--at DURATION] [--embed | --iframe] [EMBED OPTIONS]`:
    /// the scenario as a share link, or as an article's embed snippet.
    Share {
        input: Input,
        /// Where the playground is hosted, normalised by [`playground_base`].
        base: String,
        /// The simulated instant the link (or the embed) opens at.
        at: Option<Millis>,
        output: ShareOutput,
    },
    /// `kpg lesson check PATH`: a lesson folder, a lesson file, or a folder of lessons,
    /// checked as `kpg_lesson::check` checks them.
    LessonCheck {
        path: PathBuf,
    },
    /// `kpg lesson link PATH [--base URL]`: the share link that carries the lesson whole.
    LessonLink {
        path: PathBuf,
        /// Where the playground is hosted, as `kpg share --base` takes it.
        base: String,
    },
}

/// What `kpg share` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareOutput {
    /// The share link, on one line.
    Link,
    /// `--embed`: the `<pre class="karpenter-playground">` and the `embed.js` script tag.
    Embed(kpg_share::EmbedOptions),
    /// `--issue`: the Markdown block for an upstream Karpenter issue (`kpg_issue`).
    Issue,
    /// `--page DIR --page-url URL`: a static link preview page (DIR/index.html, whose
    /// OpenGraph and Twitter card metadata show the cluster where the link is pasted, and
    /// DIR/preview.png) that opens the share link.
    Page {
        dir: PathBuf,
        /// Where DIR will be served from: cards want absolute image URLs.
        page_url: String,
    },
    /// `--iframe`: a plain iframe, for hosts that strip scripts.
    Iframe {
        options: kpg_share::EmbedOptions,
        height: u32,
        /// `--title`; by default the CLI makes one from the file's name.
        title: Option<String>,
    },
}

/// Where `scripts/serve` (trunk, see Trunk.toml) serves the playground.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

/// The iframe's height when `--height` is not given.
pub const DEFAULT_IFRAME_HEIGHT: u32 = 480;

/// A command line that cannot be run; `topic` says which usage text to show with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError {
    pub message: String,
    pub topic: Topic,
}

impl UsageError {
    fn new(topic: Topic, message: impl Into<String>) -> UsageError {
        UsageError {
            message: message.into(),
            topic,
        }
    }
}

pub const OVERVIEW: &str = "\
kpg: what would Karpenter do with these manifests, and what would it cost?

Usage:
  kpg simulate FILE [--until DURATION] [--output table|json|csv]
  kpg compare A B [--until DURATION] [--output table|json|csv|markdown]
                [--fail-on pending,drift] [--max-cost-increase PERCENT%|USD]
  kpg validate FILE [--output text|json]
  kpg migrate FILE
  kpg import SNAPSHOT [--keep-images] [--lists]
  kpg explain FILE (--pod NS/NAME | --node NAME | --nodeclaim NAME) [--at DURATION]
  kpg kubectl FILE [--at DURATION] [--until DURATION] -- COMMAND...
  kpg share FILE [--base URL] [--at DURATION] [--embed | --iframe | --page DIR | --issue]
            [OPTIONS]
  kpg lesson check PATH
  kpg lesson link PATH [--base URL]
  kpg codes [CODE]
  kpg help [COMMAND]
  kpg --version

Commands:
  simulate   Run a scenario (Kubernetes and Karpenter v1 manifests) on a simulated clock and
             print the cluster: `kubectl get nodes` and `kubectl get pods -A -o wide`, plus
             the cost per hour. `--output json` prints the whole report: time, costPerHour,
             nodes, pods (with why each pending pod waits), events, nodepools, nodeclaims,
             and the figures over time; `--output csv` the figures for a spreadsheet.
  compare    Run two scenarios over the same simulated window and print them side by side:
             cost per hour and month, cost accrued, nodes by NodePool, instance type and
             capacity type, pods pending, disruptions, and the workloads placed differently.
             `--output markdown` is a pull-request comment; --fail-on and
             --max-cost-increase make it a CI check (exit status 3 when one fails).
  validate   Check a scenario without running it: every problem with its file, line and column.
  migrate    Print the Karpenter v1 equivalent of v1beta1 manifests.
  import     Read a snapshot of a live cluster (what `kubectl get ... -o yaml` or -o json
             prints) and print it as a minimal, redacted scenario: only what the simulation
             reads, controllers rather than their pods, no env, commands or images.
  explain    Why a pod is Pending or landed where it did, why a NodeClaim got its instance
             type, why a node is (not) consolidated: as sentences, or --output json.
  kubectl    Answer a kubectl (or eks-node-viewer) command about the simulated cluster, in
             kubectl's own output formats: get, describe, logs, and the mutations, which are
             printed but not saved.
  share      Print the link that opens the scenario in the playground (the manifests travel
             in the URL's fragment), or with --embed / --iframe the HTML to embed it in an
             article, or with --issue a redacted report for an upstream Karpenter issue.
  lesson     Check a guided lesson (lessons/<id>/lesson.yaml and its translations): every
             step's scenario loads, every exercise is open as written and met by its
             solution, every edit applies, every link resolves. `lesson link` prints a
             share link that carries the lesson, its translations and its labs.
  codes      List the codes validate's findings carry, or explain one.

FILE is a path, or - to read standard input. Every command reads a cluster snapshot as a
scenario too: its nodes and pods are the cluster at time zero.

Exit status: 0 success; 1 the scenario has errors or cannot be read or run; 2 bad command
line (or a command that is not implemented yet); 3 a condition of compare's --fail-on or
--max-cost-increase failed.
";

pub const SIMULATE: &str = "\
Usage: kpg simulate FILE [--until DURATION] [--output table|json|csv]

Runs the scenario in FILE (- reads standard input) and prints the cluster at the end.

Options:
  --until DURATION      Stop the clock at DURATION (a Go duration: 90s, 5m, 1h30m).
                        Default: when nothing more would change, or 1h, whichever is first.
  -o, --output FORMAT   table (default): what kubectl get nodes / get pods -A -o wide would
                        show, the cost per hour and why pods are pending.
                        json: the full report (nodes, pods, events, nodepools, nodeclaims,
                        history: the figures over time, accruedCost: USD since 0s).
                        csv: the figures over time for a spreadsheet, a row per instant
                        they changed: time, seconds, nodes, running, pending, costPerHour,
                        accruedCost.
  -h, --help            Show this help.

Warnings go to standard error; errors in the scenario stop it with exit status 1.
";

pub const COMPARE: &str = "\
Usage: kpg compare A B [--until DURATION] [--output table|json|csv|markdown]
                   [--fail-on pending,drift] [--max-cost-increase PERCENT%|USD]

Runs the scenarios in files A and B (one of them may be -, standard input) over the same
simulated window and prints them side by side, with B - A: the cost per hour and per month
(730 h) at the end, the cost accrued over the window, nodes by NodePool, instance type and
capacity type, pods running and pending, the disruption decisions, and the workloads whose
pods landed differently (NodePool / instance type / capacity type, or Pending). `kpg explain`
on either file says why.

As a CI check for a NodePool change, A is the cluster before it and B after it (B can apply
the changed NodePool with a Timeline step, so the nodes A launched drift).

Options:
  --until DURATION      End the window at DURATION (a Go duration: 90s, 5m, 1h30m).
                        Default: when the later of the two comes to rest (at most 1h).
  -o, --output FORMAT   table (default), json (both summaries with their figures over time,
                        the differences and the workloads), csv (both series on one time
                        axis: a row per instant either changed), or markdown (a summary for a
                        pull request's comment: the cost before and after, nodes by NodePool,
                        instance type and capacity type, the pods B leaves pending and why,
                        the nodes that drift in B and why, B's disruptions, and the checks).
  --fail-on WHAT        Fail (exit status 3) when, in B,
                          pending: any pod is pending at the end of the window;
                          drift:   any node drifted during the window.
                        Comma-separated (--fail-on pending,drift) or repeated.
  --max-cost-increase LIMIT
                        Fail (exit status 3) when B's cost per hour at the end exceeds A's by
                        more than LIMIT:
                          5%, 2.5%         a percentage of A's cost per hour;
                          100, $100, $99.50 USD per month of 730 hours.
                        Repeatable; each limit is a condition of its own.
  -h, --help            Show this help.

Every failed condition is named on stderr, with its figures, in any output format; the
report still goes to stdout.

Exit status: 0 when both ran and every condition holds (without conditions, whatever they
cost); 1 when either cannot be read or run; 2 a bad command line; 3 a condition failed.
";

pub const VALIDATE: &str = "\
Usage: kpg validate FILE [--output text|json]

Reads the scenario in FILE (- reads standard input) and lists every problem as
FILE:LINE:COLUMN: error[code]: Kind/name field.path: message (warning[code] for a
warning; a help line when there is advice), then a count. Nothing is simulated.

Options:
  -o, --output FORMAT   text (default) or json (an array of diagnostics).
  -h, --help            Show this help.

Exit status: 1 if there is any error, 0 otherwise (warnings alone do not fail).
";

pub const MIGRATE: &str = "\
Usage: kpg migrate FILE

Prints FILE with its v1beta1 NodePools and EC2NodeClasses rewritten as Karpenter v1, and
every other byte as it was (comments, order, other documents). What changed, and what
needs a person, goes to stderr as FILE:LINE lines. FILE may be - for stdin.

Exit status: 0, or 1 if FILE cannot be read.
";

pub const CODES: &str = "\
Usage: kpg codes [CODE]

Without CODE, lists every code a finding of validate (or simulate) can carry, with its
origin: api-server (kubectl apply would be rejected), karpenter (accepted, then ignored or
refused by Karpenter at run time), v1beta1 (read as v1; kpg migrate rewrites it),
playground (the playground's own kinds and limits) or yaml. With CODE, explains that code
in English and Korean.

Exit status: 0, or 1 if CODE is not a code.
";

pub fn help_text(topic: Topic) -> &'static str {
    match topic {
        Topic::Overview => OVERVIEW,
        Topic::Simulate => SIMULATE,
        Topic::Compare => COMPARE,
        Topic::Validate => VALIDATE,
        Topic::Migrate => MIGRATE,
        Topic::Codes => CODES,
        Topic::Explain => EXPLAIN,
        Topic::Kubectl => KUBECTL,
        Topic::Share => SHARE,
        Topic::Import => IMPORT,
        Topic::Lesson => LESSON,
    }
}

pub const EXPLAIN: &str = "\
Usage: kpg explain FILE (--pod NS/NAME | --node NAME | --nodeclaim NAME)
                   [--at DURATION] [--output text|json] [--lang en|ko]

Runs the scenario in FILE (- reads standard input) and says why, from what the engine
recorded when it decided:
  --pod NS/NAME      Why the pod is Pending (each NodePool's checks: taints, requirements,
                     resources after DaemonSet overhead, offerings, limits; kube-scheduler's
                     filters per node), or why it runs where it does. A bare NAME means the
                     default namespace.
  --node NAME        The node's launch (the instance type, capacity type and zone, and the
                     cheaper types that lost) and its consolidation status: a candidate, or
                     what blocks it (consolidateAfter countdown, budget, do-not-disrupt, PDB,
                     pods that would not fit elsewhere, no cheaper replacement, ...).
  --nodeclaim NAME   The NodeClaim's instance types filter by filter, with prices, and the
                     pods it was launched for.

Options:
  --at DURATION      Explain the cluster at DURATION (a Go duration: 90s, 5m); default: when
                     it comes to rest, as simulate does.
  --output FORMAT    text (default) or json: {kind, name, time, summary, sections[{id, title,
                     at, lines[{status, subject, check, text, pricePerHour}]}]}.
  --lang LANG        en (default) or ko.
";

fn topic_named(name: &str) -> Option<Topic> {
    match name {
        "simulate" => Some(Topic::Simulate),
        "compare" => Some(Topic::Compare),
        "validate" => Some(Topic::Validate),
        "migrate" => Some(Topic::Migrate),
        "codes" => Some(Topic::Codes),
        "explain" => Some(Topic::Explain),
        "kubectl" => Some(Topic::Kubectl),
        "share" => Some(Topic::Share),
        "import" => Some(Topic::Import),
        "lesson" => Some(Topic::Lesson),
        _ => None,
    }
}

/// Parses the arguments after the program name.
pub fn parse<I>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator<Item = OsString>,
{
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.is_empty() {
        return Err(UsageError::new(Topic::Overview, "no command given"));
    }
    let first = args.remove(0);
    let Some(first) = first.to_str() else {
        return Err(UsageError::new(
            Topic::Overview,
            format!("unknown command {:?}", first.to_string_lossy()),
        ));
    };
    match first {
        "-h" | "--help" | "help" => {
            let Some(next) = args.first() else {
                return Ok(Command::Help(Topic::Overview));
            };
            let next = next.to_string_lossy();
            if args.len() > 1 {
                return Err(UsageError::new(
                    Topic::Overview,
                    "help takes at most one command",
                ));
            }
            match topic_named(&next) {
                Some(t) => Ok(Command::Help(t)),
                None if next == "help" => Ok(Command::Help(Topic::Overview)),
                None => Err(UsageError::new(
                    Topic::Overview,
                    format!("unknown command {next:?}"),
                )),
            }
        }
        "-V" | "--version" | "version" => {
            if let Some(extra) = args.first() {
                return Err(UsageError::new(
                    Topic::Overview,
                    format!("unexpected argument {:?}", extra.to_string_lossy()),
                ));
            }
            Ok(Command::Version)
        }
        "codes" => {
            let mut code = None;
            for a in args {
                let a = a.to_string_lossy().into_owned();
                if a == "-h" || a == "--help" {
                    return Ok(Command::Help(Topic::Codes));
                }
                if a.starts_with('-') {
                    return Err(unknown_flag(Topic::Codes, &a));
                }
                if code.is_some() {
                    return Err(UsageError::new(
                        Topic::Codes,
                        format!("unexpected argument {a:?}: give at most one CODE"),
                    ));
                }
                code = Some(a);
            }
            Ok(Command::Codes { code })
        }
        "kubectl" => parse_kubectl(args),
        "import" => parse_import(&args),
        "share" => parse_share(args),
        "lesson" => parse_lesson(&args),
        "simulate" | "compare" | "validate" | "migrate" | "explain" => {
            let topic = topic_named(first).unwrap_or(Topic::Overview);
            parse_subcommand(topic, args)
        }
        other if other.starts_with('-') && other != "-" => Err(UsageError::new(
            Topic::Overview,
            format!("unknown flag {other:?}"),
        )),
        other => Err(UsageError::new(
            Topic::Overview,
            format!("unknown command {other:?}"),
        )),
    }
}

pub const LESSON: &str = "\
Usage: kpg lesson check PATH
       kpg lesson link PATH [--base URL]

check: checks guided lessons. PATH is a lesson's folder (with lesson.yaml), a lesson file, or a
folder of lesson folders (lessons/ checks them all). For each lesson it reads lesson.yaml
and each translation beside it (lesson.ko.yaml, ...), and checks that:
  - every step's scenario (its lab, with this and the earlier steps' changes) loads
    without errors and the engine runs it;
  - every exercise's goals are not met by the scenario as written, and are met once its
    solution's edits are applied (played from 0s as the page plays it, to rest);
  - every edit's `find` occurs exactly once;
  - every Markdown link resolves: a relative path exists, #id names a step, an http(s)
    link is well formed (it is not fetched);
  - a translation names only the English's steps, and holds only text.
Each problem is printed as FILE:LINE:COLUMN: error[code]: field.path: message, with a
help line when there is advice; a translation's missing text is a warning (it falls back
to English). lessons/README.md documents the format.

link: prints the share link that opens one lesson (PATH: its folder or its lesson.yaml) in
the playground at its first step: the lesson file, its translations and its lab files
travel in the link's fragment, as a lesson embedded in an article travels in its
\"Open in Karpenter Playground\" link. No server keeps them; a learner who opens the link
can edit, reload and share it further. The lesson is checked first: a lesson with errors
gets no link. The paths of its files, as PATH names them, travel in the link.

  kpg lesson link lessons/mine/ --base https://example.com/kpg/

Options:
  --base URL   Where the playground is hosted (link only), as kpg share takes it.
               Default: http://127.0.0.1:8080/, where scripts/serve serves it.
  -h, --help   Show this help.

Exit status: 0 when no lesson has an error (warnings alone do not fail); 1 otherwise, or
when PATH holds no lesson; 2 bad command line.
";

/// `kpg lesson check PATH`.
fn parse_lesson(args: &[OsString]) -> Result<Command, UsageError> {
    let topic = Topic::Lesson;
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if words.iter().any(|w| w == "-h" || w == "--help") {
        return Ok(Command::Help(topic));
    }
    let link = match words.first().map(String::as_str) {
        Some("check") => false,
        Some("link") => true,
        Some(other) => {
            return Err(UsageError::new(
                topic,
                format!("unknown lesson command {other:?}: the commands are check and link"),
            ));
        }
        None => {
            return Err(UsageError::new(
                topic,
                "missing the command: kpg lesson check PATH, or kpg lesson link PATH",
            ));
        }
    };
    let mut path = None;
    let mut base = String::from(DEFAULT_BASE);
    let mut rest = words.iter().zip(args).skip(1);
    while let Some((word, raw)) = rest.next() {
        if link && (word == "--base" || word.starts_with("--base=")) {
            let value = match word.strip_prefix("--base=") {
                Some(v) => v.to_string(),
                None => rest
                    .next()
                    .map(|(w, _)| w.clone())
                    .ok_or_else(|| UsageError::new(topic, "--base needs a value"))?,
            };
            if value.is_empty() || value.contains(char::is_whitespace) {
                return Err(UsageError::new(
                    topic,
                    format!(
                        "invalid --base {value:?}: give the URL where the playground is \
                         hosted, such as https://example.com/kpg/"
                    ),
                ));
            }
            base = kpg_share::page_base(&value);
            continue;
        }
        if word.starts_with('-') {
            return Err(unknown_flag(topic, word));
        }
        if path.is_some() {
            return Err(UsageError::new(
                topic,
                format!("unexpected argument {word:?}: give one PATH"),
            ));
        }
        path = Some(PathBuf::from(raw));
    }
    match path {
        Some(path) if link => Ok(Command::LessonLink { path, base }),
        Some(path) => Ok(Command::LessonCheck { path }),
        None => Err(UsageError::new(
            topic,
            "missing PATH (a lesson folder, a lesson.yaml, or lessons/ for all)",
        )),
    }
}

/// `kpg import SNAPSHOT [--keep-images] [--lists]`.
fn parse_import(args: &[OsString]) -> Result<Command, UsageError> {
    let mut input = None;
    let mut keep_images = false;
    let mut lists = false;
    for a in args {
        let text = a.to_string_lossy().into_owned();
        match text.as_str() {
            "-h" | "--help" => return Ok(Command::Help(Topic::Import)),
            "--keep-images" => keep_images = true,
            "--lists" => lists = true,
            "-" => input = Some(Input::Stdin).filter(|_| input.is_none()).or(input),
            flag if flag.starts_with('-') => return Err(unknown_flag(Topic::Import, flag)),
            _ if input.is_some() => {
                return Err(UsageError::new(
                    Topic::Import,
                    format!("unexpected argument {text:?}: give exactly one SNAPSHOT"),
                ));
            }
            _ => input = Some(Input::Path(a.into())),
        }
    }
    match input {
        Some(input) => Ok(Command::Import {
            input,
            keep_images,
            lists,
        }),
        None => Err(UsageError::new(
            Topic::Import,
            "missing SNAPSHOT (a path, or - for standard input)",
        )),
    }
}

/// An option that takes a value, in any of the forms `--name VALUE`, `--name=VALUE`,
/// `-o VALUE`, `-oVALUE`, `-o=VALUE`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opt {
    Until,
    Output,
    Pod,
    Node,
    NodeClaim,
    At,
    Lang,
    FailOn,
    MaxCostIncrease,
}

impl Opt {
    const NAMED: [(&'static str, Opt); 9] = [
        ("--until", Opt::Until),
        ("--output", Opt::Output),
        ("--pod", Opt::Pod),
        ("--nodeclaim", Opt::NodeClaim),
        ("--node", Opt::Node),
        ("--at", Opt::At),
        ("--lang", Opt::Lang),
        ("--fail-on", Opt::FailOn),
        ("--max-cost-increase", Opt::MaxCostIncrease),
    ];

    fn flag(self) -> &'static str {
        Opt::NAMED
            .iter()
            .find(|(_, o)| *o == self)
            .map_or("--output", |(f, _)| f)
    }
}

fn compare_command(
    mut positional: Vec<Input>,
    until: Option<String>,
    output: Option<String>,
    conditions: Vec<(Opt, String)>,
) -> Result<Command, UsageError> {
    let topic = Topic::Compare;
    if positional.len() != 2 {
        return Err(UsageError::new(
            topic,
            format!(
                "give two FILEs, A and B (a path, or - for standard input once): {} given",
                positional.len()
            ),
        ));
    }
    if positional.iter().all(|i| *i == Input::Stdin) {
        return Err(UsageError::new(
            topic,
            "standard input can be read once: give at least one FILE as a path",
        ));
    }
    let output = match output.as_deref() {
        None | Some("table") => CompareOutput::Table,
        Some("json") => CompareOutput::Json,
        Some("csv") => CompareOutput::Csv,
        Some("markdown" | "md") => CompareOutput::Markdown,
        Some(other) => {
            return Err(UsageError::new(
                topic,
                format!("unknown --output {other:?}: use table, json, csv or markdown"),
            ));
        }
    };
    let until = match until {
        None => None,
        Some(text) => Some(parse_until(&text).map_err(|m| UsageError::new(topic, m))?),
    };
    let mut checks = Checks::default();
    for (opt, value) in conditions {
        match opt {
            Opt::FailOn => parse_fail_on(&value, &mut checks),
            _ => parse_cost_limit(&value).map(|limit| {
                if !checks.max_cost_increase.contains(&limit) {
                    checks.max_cost_increase.push(limit);
                }
            }),
        }
        .map_err(|m| UsageError::new(topic, m))?;
    }
    let b = positional.remove(1);
    let a = positional.remove(0);
    Ok(Command::Compare {
        a,
        b,
        until,
        output,
        checks,
    })
}

/// `--fail-on`: `pending`, `drift`, or both comma-separated.
fn parse_fail_on(value: &str, checks: &mut Checks) -> Result<(), String> {
    for part in value.split(',').map(str::trim) {
        match part {
            "pending" => checks.pending = true,
            "drift" => checks.drift = true,
            _ => {
                return Err(format!(
                    "unknown --fail-on {part:?}: use pending, drift, or both \
                     (--fail-on pending,drift, or the flag twice)"
                ));
            }
        }
    }
    Ok(())
}

/// `--max-cost-increase`: `5%` or `2.5%` (of A's cost per hour), or `100`, `$100`,
/// `$99.50`, optionally with `/month` (USD per 730-hour month).
pub fn parse_cost_limit(value: &str) -> Result<CostLimit, String> {
    let invalid = || {
        format!(
            "invalid --max-cost-increase {value:?}: use a percentage of A's cost per hour \
             (5%, 2.5%) or USD per 730-hour month (100, $100, $99.50)"
        )
    };
    let text = value.trim();
    if let Some(number) = text.strip_suffix('%') {
        // Thousandths of a percent.
        return decimal(number, 3)
            .map(CostLimit::Percent)
            .ok_or_else(invalid);
    }
    let text = text.strip_suffix("/month").unwrap_or(text);
    let number = text.strip_prefix('$').unwrap_or(text);
    decimal(number, 6)
        .map(|micros| CostLimit::PerMonth(micros as i64))
        .ok_or_else(invalid)
}

/// A non-negative decimal number (`12`, `12.5`, `.5`) in units of 10^-`scale`, if it has at
/// most `scale` decimals and at most 12 digits before the point.
fn decimal(text: &str, scale: u32) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty())
        || !digits(whole)
        || !digits(fraction)
        || whole.len() > 12
        || fraction.len() > scale as usize
    {
        return None;
    }
    let unit = 10u64.pow(scale);
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut frac: u64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().ok()?
    };
    frac *= 10u64.pow(scale - fraction.len() as u32);
    whole.checked_mul(unit)?.checked_add(frac)
}

fn parse_subcommand(topic: Topic, args: Vec<OsString>) -> Result<Command, UsageError> {
    let mut positional: Vec<Input> = Vec::new();
    let mut until: Option<String> = None;
    let mut output: Option<String> = None;
    let mut at: Option<String> = None;
    let mut lang: Option<String> = None;
    let mut subjects: Vec<(Opt, String)> = Vec::new();
    let mut conditions: Vec<(Opt, String)> = Vec::new();
    let mut only_positional = false;
    let mut it = args.into_iter();
    while let Some(raw) = it.next() {
        if only_positional {
            positional.push(input_from(raw));
            continue;
        }
        let Some(arg) = raw.to_str() else {
            // Not UTF-8: can only be a path.
            positional.push(input_from(raw));
            continue;
        };
        if arg == "--" {
            only_positional = true;
            continue;
        }
        if arg == "-" || !arg.starts_with('-') {
            positional.push(input_from(raw));
            continue;
        }
        if arg == "-h" || arg == "--help" {
            return Ok(Command::Help(topic));
        }
        let named = Opt::NAMED.iter().find_map(|&(flag, opt)| {
            let rest = arg.strip_prefix(flag)?;
            if rest.is_empty() {
                Some((opt, None))
            } else {
                rest.strip_prefix('=').map(|v| (opt, Some(v)))
            }
        });
        let (opt, inline): (Opt, Option<&str>) = if let Some(found) = named {
            found
        } else if let Some(rest) = arg.strip_prefix("-o") {
            if rest.is_empty() {
                (Opt::Output, None)
            } else {
                (Opt::Output, Some(rest.strip_prefix('=').unwrap_or(rest)))
            }
        } else {
            return Err(unknown_flag(topic, arg));
        };
        let allowed = match topic {
            Topic::Explain => !matches!(opt, Opt::FailOn | Opt::MaxCostIncrease),
            Topic::Compare => matches!(
                opt,
                Opt::Until | Opt::Output | Opt::FailOn | Opt::MaxCostIncrease
            ),
            _ => matches!(opt, Opt::Until | Opt::Output),
        };
        if !allowed {
            return Err(unknown_flag(topic, arg));
        }
        if topic == Topic::Explain && opt == Opt::Until {
            return Err(UsageError::new(
                topic,
                "explain takes --at DURATION, not --until",
            ));
        }
        let flag = opt.flag();
        let value = match inline {
            Some(v) => v.to_string(),
            None => match it.next() {
                Some(v) => v.to_string_lossy().into_owned(),
                None => return Err(UsageError::new(topic, format!("{flag} needs a value"))),
            },
        };
        match opt {
            Opt::Until => until = Some(value),
            Opt::Output => output = Some(value),
            Opt::At => at = Some(value),
            Opt::Lang => lang = Some(value),
            Opt::Pod | Opt::Node | Opt::NodeClaim => subjects.push((opt, value)),
            Opt::FailOn | Opt::MaxCostIncrease => conditions.push((opt, value)),
        }
    }

    if topic == Topic::Compare {
        return compare_command(positional, until, output, conditions);
    }
    let input = match positional.len() {
        0 => {
            return Err(UsageError::new(
                topic,
                "missing FILE (a path, or - for standard input)",
            ));
        }
        1 => positional.remove(0),
        _ => {
            let extra = match &positional[1] {
                Input::Stdin => String::from("-"),
                Input::Path(p) => p.to_string_lossy().into_owned(),
            };
            return Err(UsageError::new(
                topic,
                format!("unexpected argument {extra:?}: give exactly one FILE"),
            ));
        }
    };

    match topic {
        Topic::Simulate => {
            let output = match output.as_deref() {
                None | Some("table") => SimulateOutput::Table,
                Some("json") => SimulateOutput::Json,
                Some("csv") => SimulateOutput::Csv,
                Some(other) => {
                    return Err(UsageError::new(
                        topic,
                        format!("unknown --output {other:?}: use table, json or csv"),
                    ));
                }
            };
            let until = match until {
                None => None,
                Some(text) => Some(parse_until(&text).map_err(|m| UsageError::new(topic, m))?),
            };
            Ok(Command::Simulate {
                input,
                until,
                output,
            })
        }
        Topic::Validate => {
            if until.is_some() {
                return Err(UsageError::new(
                    topic,
                    "--until is an option of simulate, not validate",
                ));
            }
            let output = match output.as_deref() {
                None | Some("text") => ValidateOutput::Text,
                Some("json") => ValidateOutput::Json,
                Some(other) => {
                    return Err(UsageError::new(
                        topic,
                        format!("unknown --output {other:?}: use text or json"),
                    ));
                }
            };
            Ok(Command::Validate { input, output })
        }
        Topic::Explain => {
            let subject = match subjects.as_slice() {
                [] => {
                    return Err(UsageError::new(
                        topic,
                        "say what to explain: --pod NS/NAME, --node NAME or --nodeclaim NAME",
                    ));
                }
                [(opt, value)] => match opt {
                    Opt::Pod => kpg_explain::Subject::Pod(value.clone()),
                    Opt::Node => kpg_explain::Subject::Node(value.clone()),
                    _ => kpg_explain::Subject::NodeClaim(value.clone()),
                },
                _ => {
                    return Err(UsageError::new(
                        topic,
                        "explain one thing at a time: give one of --pod, --node, --nodeclaim",
                    ));
                }
            };
            let output = match output.as_deref() {
                None | Some("text") => ExplainOutput::Text,
                Some("json") => ExplainOutput::Json,
                Some(other) => {
                    return Err(UsageError::new(
                        topic,
                        format!("unknown --output {other:?}: use text or json"),
                    ));
                }
            };
            let lang = match lang.as_deref() {
                None => kpg_explain::Lang::En,
                Some(l) => kpg_explain::Lang::parse(l).ok_or_else(|| {
                    UsageError::new(topic, format!("unknown --lang {l:?}: use en or ko"))
                })?,
            };
            let at = match at {
                None => None,
                Some(text) => Some(kpg_core::duration::parse(&text).map_err(|e| {
                    UsageError::new(
                        topic,
                        format!(
                            "invalid --at {text:?}: {e} (use a Go duration \
                             such as 90s, 5m or 1h30m)"
                        ),
                    )
                })?),
            };
            Ok(Command::Explain {
                input,
                subject,
                at,
                output,
                lang,
            })
        }
        Topic::Migrate
        | Topic::Compare
        | Topic::Overview
        | Topic::Codes
        | Topic::Kubectl
        | Topic::Import
        | Topic::Lesson
        | Topic::Share => {
            if until.is_some() || output.is_some() {
                return Err(UsageError::new(topic, "migrate takes no options"));
            }
            Ok(Command::Migrate { input })
        }
    }
}

pub const IMPORT: &str = "\
Usage: kpg import SNAPSHOT [--keep-images] [--lists]

Reads a snapshot of a live cluster and prints the scenario it reads as: minimal, readable
and redacted, fit for a share link, an upstream issue or a repository. SNAPSHOT (- reads
standard input) is what kubectl prints for the kinds the simulation reads:

  kubectl get nodes,nodeclaims.karpenter.sh,nodepools.karpenter.sh,\\
ec2nodeclasses.karpenter.k8s.aws,pods,deployments,replicasets,statefulsets,daemonsets,\\
jobs,poddisruptionbudgets,namespaces -A -o yaml > snapshot.yaml

(-o json reads too.) What it keeps:
  - NodePools and EC2NodeClasses as written, without status;
  - every node (labels, taints, capacity, allocatable, its age) and Karpenter's NodeClaims
    (the drift hashes, expireAfter, the last pod event);
  - controllers rather than their pods: each lists its pods and the nodes they run on in
    its playground.karpenter.dev/pods annotation; pod templates keep only what scheduling
    reads (resources, node selectors, affinity, tolerations, spread, priority, host ports);
  - PodDisruptionBudgets and Namespaces.
It leaves out env values, commands, volumes, probes, managedFields, status and every
annotation but Karpenter's and the pod deletion cost.

Options:
  --keep-images   Keep the containers' images (left out otherwise).
  --lists         Gather the nodes into one kind: List document, and each namespace's
                  objects into one, as the page does when a snapshot is opened there.
  -h, --help      Show this help.

Findings go to standard error; a snapshot with errors prints nothing (exit status 1).
";

pub const KUBECTL: &str = "\
Usage: kpg kubectl FILE [--at DURATION] [--until DURATION] -- COMMAND...

Runs the scenario in FILE (- reads standard input) and answers one terminal command about
the simulated cluster, as the page's Terminal tab does, in kubectl's own formats:

  kpg kubectl lab.yaml --at 5m -- get nodes -L karpenter.sh/nodepool
  kpg kubectl lab.yaml --at 2m -- describe pod busybox
  kpg kubectl lab.yaml -- logs -n kube-system -l app.kubernetes.io/name=karpenter
  kpg kubectl lab.yaml --at 1m -- eks-node-viewer --resources cpu,memory
  kpg kubectl lab.yaml -- 'get nodeclaims -w'

COMMAND is kubectl's arguments (a leading `kubectl` is optional), or `eks-node-viewer ...`,
either as words after `--` or as one quoted line. `-f FILE` names the scenario file or
another file on disk. Mutations (scale, apply, delete, run, annotate, cordon) print
kubectl's confirmation and the Timeline step that would make them happen; the scenario
file is not changed.

Options:
  --at DURATION      Run the clock to DURATION first (a Go duration: 90s, 5m); default:
                     until the cluster comes to rest, as simulate does.
  --until DURATION   With -w or logs -f: keep printing what changes until DURATION (default:
                     until the cluster comes to rest, at most 1h).
  -h, --help         Show this help.

Exit status: 0 the command succeeded; 1 it failed as kubectl would (not found, invalid), or
the scenario cannot be read or run; 2 bad command line.
";

fn parse_kubectl(args: Vec<OsString>) -> Result<Command, UsageError> {
    let topic = Topic::Kubectl;
    let mut input: Option<Input> = None;
    let mut at = None;
    let mut until = None;
    let mut words: Option<Vec<String>> = None;
    let mut it = args.into_iter();
    while let Some(raw) = it.next() {
        let arg = raw.to_string_lossy().into_owned();
        if arg == "--" {
            words = Some(
                it.by_ref()
                    .map(|w| w.to_string_lossy().into_owned())
                    .collect(),
            );
            break;
        }
        if arg == "-h" || arg == "--help" {
            return Ok(Command::Help(topic));
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        if name == "--at" || name == "--until" {
            let value = match inline {
                Some(v) => v,
                None => it
                    .next()
                    .map(|v| v.to_string_lossy().into_owned())
                    .ok_or_else(|| UsageError::new(topic, format!("{name} needs a value")))?,
            };
            let ms = kpg_core::duration::parse(&value).map_err(|e| {
                UsageError::new(
                    topic,
                    format!(
                        "invalid {name} {value:?}: {e} (use a Go duration such as 90s, 5m or 1h30m)"
                    ),
                )
            })?;
            if name == "--at" {
                at = Some(ms)
            } else {
                until = Some(ms)
            }
            continue;
        }
        if arg.starts_with('-') && arg != "-" {
            return Err(UsageError::new(
                topic,
                format!("unknown flag {arg:?} (kubectl's own flags go after --)"),
            ));
        }
        if input.is_none() {
            input = Some(input_from(raw));
            continue;
        }
        // Without `--`, the rest of the line is the command.
        let mut rest = vec![arg];
        rest.extend(it.by_ref().map(|w| w.to_string_lossy().into_owned()));
        words = Some(rest);
        break;
    }
    let input = input
        .ok_or_else(|| UsageError::new(topic, "missing FILE (a path, or - for standard input)"))?;
    let words = words.unwrap_or_default();
    if words.is_empty() {
        return Err(UsageError::new(
            topic,
            "missing COMMAND: say what to run after --, e.g. -- get nodes",
        ));
    }
    let mut line = match words.as_slice() {
        [one] if one.contains(char::is_whitespace) => one.clone(),
        _ => words
            .iter()
            .map(|w| shell_quote(w))
            .collect::<Vec<_>>()
            .join(" "),
    };
    let first = line
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
    if !["kubectl", "k", "eks-node-viewer", "help", "clear", "$"].contains(&first.as_str()) {
        line = format!("kubectl {line}");
    }
    Ok(Command::Kubectl {
        input,
        at,
        until,
        line,
    })
}

/// Quotes a word for the terminal's tokenizer, so it reads back as the same word.
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=,:@%+^".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

pub const SHARE: &str = "\
Usage: kpg share FILE [--base URL] [--at DURATION]
       kpg share FILE --embed [--base URL] [EMBED OPTIONS]
       kpg share FILE --iframe [--base URL] [EMBED OPTIONS] [--height PX] [--title TEXT]
       kpg share FILE --issue [--base URL] [--at DURATION]
       kpg share FILE --page DIR --page-url URL [--base URL] [--at DURATION]

Prints the link that opens the scenario in FILE (- reads standard input) in the
playground: its documents as tabs, in the file's order, the first one open, and the clock
at --at. The whole scenario travels in the link's fragment (#kpg1....), which the browser
keeps to itself: it is never sent to a server, and the page decodes it. The same file
gives the same link, byte for byte, so scenarios can live in git and their links and
embeds be generated from them:

  kpg share lab.yaml --at 5m
  kpg share lab.yaml --base https://example.com/kpg/ --embed --view cluster --autoplay
  kpg share lab.yaml --base https://example.com/kpg/ --iframe --readonly --height 600
  kpg share lab.yaml --base https://example.com/kpg/ --issue --at 5m
  kpg share lab.yaml --at 5m --page out/lab --page-url https://blog.example/lab/

The scenario is read as validate reads it. Errors are printed as simulate prints them and
no link is made (it would open on the Problems panel); warnings go to standard error. Links
longer than about 8 KB are awkward to paste into chat tools and issue trackers: kpg says so
on standard error, and sharing the .yaml file itself is the better way then.

Options:
  --base URL          Where the playground (the built dist/) is hosted: the directory
                      holding index.html and embed.js (https://example.com/kpg reads as
                      https://example.com/kpg/). Default: http://127.0.0.1:8080/, where
                      scripts/serve serves it.
  --at DURATION       The simulated instant the link opens at (a Go duration: 90s, 5m);
                      default 0s. With --embed or --iframe, the instant the embed starts at.
  --embed             Print instead the HTML for an article: a drawing of the cluster at
                      --at (an inline <svg>, no script), then the YAML as text in a
                      <details><pre class=\"karpenter-playground\" data-...> (readable
                      without JavaScript and in feeds) and the <script> (BASE/embed.js)
                      that turns the drawing into a live playground (see --live).
  --page DIR          Write instead a link preview page: DIR/index.html, whose OpenGraph
                      and Twitter card tags show the cluster at --at where its address is
                      pasted, and DIR/preview.png (1200x630, the cards' image). A browser
                      that opens it goes on to the share link; without JavaScript it
                      shows the drawing and the link. Needs --page-url.
  --page-url URL      Where DIR will be served from (https://blog.example/lab/): the
                      cards' image must be an absolute URL, DIR/preview.png under it.
  --iframe            Print instead a plain <iframe> for hosts that strip scripts; the
                      scenario travels in the fragment of its src.
  --issue             Print instead a Markdown block for an issue or a discussion at
                      github.com/kubernetes-sigs/karpenter or aws/karpenter-provider-aws:
                      the Karpenter version simulated and kpg's; what happened at --at
                      (default: when nothing more would change, as simulate): the
                      figures, the pods pending and why, the events that decided it with
                      Karpenter's log line for each disruption command; the scenario
                      reduced to the documents that change what happened and redacted
                      (account ids, ARNs, subnet/security-group/AMI and other AWS ids,
                      IPs, node, cluster, role and tag values become stable placeholders;
                      comments, foreign annotations, env, commands and images go), checked
                      to simulate to the same outcome; and the link (on --base) that
                      opens the redacted scenario at that instant. It ends with the list
                      of what was redacted. The same file and --at give the same block,
                      byte for byte, as the page's Share → Report to Karpenter; it is cut
                      to fit GitHub's 65,536 characters, keeping the link.
  -h, --help          Show this help.

Embed options (only with --embed or --iframe):
  --view LIST         What the embed shows, the first one opened: a comma-separated list
                      of cluster, manifests, events, explain, terminal (default: all).
  --autoplay          Start the clock once the scenario is loaded.
  --speed N           1, 10 or 60 times real time.
  --until DURATION    Stop the clock at DURATION.
  --theme THEME       light, dark or auto (default: the reader's preference).
  --lang LANG         en or ko (default: the reader's browser).
  --readonly          The manifests can be read but not edited; no terminal.
  --live WHEN         --embed only: when the drawing becomes the live playground:
                      visible (when it comes near the viewport; default), click (when the
                      reader clicks it) or never (it stays a static figure).
  --height PX         --iframe only: its height in pixels (default 480).
  --title TEXT        --iframe only: its title, what screen readers announce (default:
                      \"Karpenter Playground: \" and the file's name).

Exit status: 0 printed; 1 the scenario has errors or cannot be read; 2 bad command line.
";

/// A flag of `kpg share`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ShareFlag {
    Base,
    At,
    Embed,
    Iframe,
    Issue,
    View,
    Autoplay,
    Speed,
    Until,
    Theme,
    Lang,
    Readonly,
    Height,
    Title,
    Live,
    Page,
    PageUrl,
}

/// For --embed and --iframe.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Needs {
    Nothing,
    Embedding,
    Iframe,
    /// --embed only.
    Script,
    /// --page only.
    Page,
}

impl ShareFlag {
    /// (flag, what it is, takes a value, what it needs).
    const ALL: [(&'static str, ShareFlag, bool, Needs); 17] = [
        ("--base", ShareFlag::Base, true, Needs::Nothing),
        ("--issue", ShareFlag::Issue, false, Needs::Nothing),
        ("--at", ShareFlag::At, true, Needs::Nothing),
        ("--embed", ShareFlag::Embed, false, Needs::Nothing),
        ("--iframe", ShareFlag::Iframe, false, Needs::Nothing),
        ("--view", ShareFlag::View, true, Needs::Embedding),
        ("--autoplay", ShareFlag::Autoplay, false, Needs::Embedding),
        ("--speed", ShareFlag::Speed, true, Needs::Embedding),
        ("--until", ShareFlag::Until, true, Needs::Embedding),
        ("--theme", ShareFlag::Theme, true, Needs::Embedding),
        ("--lang", ShareFlag::Lang, true, Needs::Embedding),
        ("--readonly", ShareFlag::Readonly, false, Needs::Embedding),
        ("--height", ShareFlag::Height, true, Needs::Iframe),
        ("--title", ShareFlag::Title, true, Needs::Iframe),
        ("--live", ShareFlag::Live, true, Needs::Script),
        ("--page", ShareFlag::Page, true, Needs::Nothing),
        ("--page-url", ShareFlag::PageUrl, true, Needs::Page),
    ];
}

fn parse_share(args: Vec<OsString>) -> Result<Command, UsageError> {
    use kpg_share::{EmbedOptions, Theme, View};
    let topic = Topic::Share;
    let usage = |m: String| UsageError::new(topic, m);
    let mut positional: Vec<Input> = Vec::new();
    let mut only_positional = false;
    let mut base = String::from(DEFAULT_BASE);
    let mut at = None;
    let mut embed = false;
    let mut iframe = false;
    let mut issue = false;
    let mut options = EmbedOptions::default();
    let mut height = DEFAULT_IFRAME_HEIGHT;
    let mut title = None;
    let mut page: Option<PathBuf> = None;
    let mut page_url: Option<String> = None;
    // The embed-only flags given, in order, to name the first when they cannot apply.
    let mut needing: Vec<(&'static str, Needs)> = Vec::new();
    let mut it = args.into_iter();
    while let Some(raw) = it.next() {
        let Some(arg) = raw.to_str().filter(|_| !only_positional) else {
            positional.push(input_from(raw));
            continue;
        };
        if arg == "--" {
            only_positional = true;
            continue;
        }
        if arg == "-" || !arg.starts_with('-') {
            positional.push(input_from(raw));
            continue;
        }
        if arg == "-h" || arg == "--help" {
            return Ok(Command::Help(topic));
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (arg, None),
        };
        let Some(&(flag_name, flag, takes_value, needs)) =
            ShareFlag::ALL.iter().find(|(n, ..)| *n == name)
        else {
            return Err(unknown_flag(topic, arg));
        };
        if needs != Needs::Nothing {
            needing.push((flag_name, needs));
        }
        let value = if takes_value {
            match inline {
                Some(v) => v.to_string(),
                None => it
                    .next()
                    .map(|v| v.to_string_lossy().into_owned())
                    .ok_or_else(|| usage(format!("{flag_name} needs a value")))?,
            }
        } else {
            if inline.is_some() {
                return Err(usage(format!("{flag_name} takes no value")));
            }
            String::new()
        };
        let duration = |value: &str| {
            kpg_core::duration::parse(value).map_err(|e| {
                usage(format!(
                    "invalid {flag_name} {value:?}: {e} (use a Go \
                     duration such as 90s, 5m or 1h30m)"
                ))
            })
        };
        match flag {
            ShareFlag::Base => {
                if value.is_empty() || value.contains(char::is_whitespace) {
                    return Err(usage(format!(
                        "invalid --base {value:?}: give the URL where the playground is hosted, \
                         such as https://example.com/kpg/"
                    )));
                }
                base = kpg_share::page_base(&value);
            }
            ShareFlag::At => at = Some(duration(&value)?),
            ShareFlag::Until => options.until = Some(duration(&value)?),
            ShareFlag::Embed => embed = true,
            ShareFlag::Issue => issue = true,
            ShareFlag::Iframe => iframe = true,
            ShareFlag::Autoplay => options.autoplay = true,
            ShareFlag::Readonly => options.readonly = true,
            ShareFlag::View => {
                let names: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
                let mut views = Vec::new();
                for part in value.split(',').map(str::trim) {
                    let view = View::ALL
                        .into_iter()
                        .find(|v| v.name() == part)
                        .ok_or_else(|| {
                            usage(format!(
                                "unknown --view {part:?}: use a comma-separated list of {}",
                                names.join(", ")
                            ))
                        })?;
                    if !views.contains(&view) {
                        views.push(view);
                    }
                }
                options.view = views;
            }
            ShareFlag::Speed => {
                options.speed = Some(match value.as_str() {
                    "1" => 1,
                    "10" => 10,
                    "60" => 60,
                    _ => {
                        return Err(usage(format!("unknown --speed {value:?}: use 1, 10 or 60")));
                    }
                });
            }
            ShareFlag::Theme => {
                options.theme = match value.as_str() {
                    "light" => Theme::Light,
                    "dark" => Theme::Dark,
                    "auto" => Theme::Auto,
                    _ => {
                        return Err(usage(format!(
                            "unknown --theme {value:?}: use light, dark or auto"
                        )));
                    }
                };
            }
            ShareFlag::Lang => {
                if value != "en" && value != "ko" {
                    return Err(usage(format!("unknown --lang {value:?}: use en or ko")));
                }
                options.lang = Some(value);
            }
            ShareFlag::Height => {
                height = match value.parse::<u32>() {
                    Ok(px) if (1..=10_000).contains(&px) => px,
                    _ => {
                        return Err(usage(format!(
                            "invalid --height {value:?}: use a number of pixels from \
                             1 to 10000, such as 480"
                        )));
                    }
                };
            }
            ShareFlag::Title => {
                if value.trim().is_empty() {
                    return Err(usage(String::from(
                        "--title needs a text, what screen readers announce for the iframe",
                    )));
                }
                title = Some(value);
            }
            ShareFlag::Live => {
                options.live = kpg_share::Live::parse(&value).ok_or_else(|| {
                    usage(format!(
                        "unknown --live {value:?}: use visible, click or never"
                    ))
                })?;
            }
            ShareFlag::Page => {
                if value.is_empty() {
                    return Err(usage(String::from(
                        "--page needs a directory to write index.html and preview.png into",
                    )));
                }
                page = Some(PathBuf::from(value));
            }
            ShareFlag::PageUrl => {
                if !(value.starts_with("https://") || value.starts_with("http://"))
                    || value.contains(char::is_whitespace)
                {
                    return Err(usage(format!(
                        "invalid --page-url {value:?}: give the absolute http(s) URL the page \
                         will be served from, such as https://blog.example/lab/"
                    )));
                }
                page_url = Some(value);
            }
        }
    }

    if page.is_some() && (embed || iframe) {
        return Err(usage(String::from(
            "give --page or --embed/--iframe, not both: --page writes a link preview page",
        )));
    }
    if page.is_some() && page_url.is_none() {
        return Err(usage(String::from(
            "--page needs --page-url: where the page will be served from (cards want an \
             absolute image URL)",
        )));
    }
    if embed && iframe {
        return Err(usage(String::from(
            "give --embed or --iframe, not both: --embed for pages that run scripts, --iframe for \
             hosts that strip them",
        )));
    }
    if issue && (embed || iframe) {
        return Err(usage(String::from(
            "give --issue on its own: it prints a report, not an embed",
        )));
    }
    for (flag, needs) in needing {
        match needs {
            Needs::Embedding if !embed && !iframe => {
                return Err(usage(format!(
                    "{flag} is an embed option: add --embed (or --iframe) to print the embed"
                )));
            }
            Needs::Iframe if !iframe => {
                return Err(usage(format!("{flag} is an option of --iframe")));
            }
            Needs::Script if !embed => {
                return Err(usage(format!("{flag} is an option of --embed")));
            }
            Needs::Page if page.is_none() => {
                return Err(usage(format!("{flag} is an option of --page")));
            }
            _ => {}
        }
    }
    if let (Some(at), Some(until)) = (at, options.until)
        && until < at
    {
        return Err(usage(String::from(
            "--until is before --at: the clock would stop before the embed starts",
        )));
    }

    let input = match positional.len() {
        0 => {
            return Err(usage(String::from(
                "missing FILE (a path, or - for standard input)",
            )));
        }
        1 => positional.remove(0),
        _ => {
            return Err(usage(format!(
                "unexpected argument {:?}: give exactly one FILE",
                positional[1].display_name()
            )));
        }
    };

    options.at = at;
    let output = if issue {
        ShareOutput::Issue
    } else if let (Some(dir), Some(page_url)) = (page, page_url) {
        ShareOutput::Page { dir, page_url }
    } else if embed {
        ShareOutput::Embed(options)
    } else if iframe {
        ShareOutput::Iframe {
            options,
            height,
            title,
        }
    } else {
        ShareOutput::Link
    };
    Ok(Command::Share {
        input,
        base,
        at,
        output,
    })
}

fn unknown_flag(topic: Topic, arg: &str) -> UsageError {
    UsageError::new(topic, format!("unknown flag {arg:?}"))
}

fn input_from(raw: OsString) -> Input {
    if raw == "-" {
        Input::Stdin
    } else {
        Input::Path(PathBuf::from(raw))
    }
}

/// `--until`: a Go duration (`90s`, `5m`, `1h30m`).
pub fn parse_until(text: &str) -> Result<Millis, String> {
    kpg_core::duration::parse(text).map_err(|e| {
        format!("invalid --until {text:?}: {e} (use a Go duration such as 90s, 5m or 1h30m)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, UsageError> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn help_and_version() {
        assert_eq!(p(&["--help"]), Ok(Command::Help(Topic::Overview)));
        assert_eq!(p(&["-h"]), Ok(Command::Help(Topic::Overview)));
        assert_eq!(p(&["help"]), Ok(Command::Help(Topic::Overview)));
        assert_eq!(p(&["help", "simulate"]), Ok(Command::Help(Topic::Simulate)));
        assert_eq!(
            p(&["simulate", "--help"]),
            Ok(Command::Help(Topic::Simulate))
        );
        assert_eq!(
            p(&["validate", "x.yaml", "-h"]),
            Ok(Command::Help(Topic::Validate))
        );
        assert_eq!(p(&["--version"]), Ok(Command::Version));
        assert_eq!(p(&["-V"]), Ok(Command::Version));
        assert!(p(&["help", "bogus"]).is_err());
    }

    #[test]
    fn usage_errors() {
        assert_eq!(p(&[]).unwrap_err().topic, Topic::Overview);
        assert!(
            p(&["bogus"])
                .unwrap_err()
                .message
                .contains("unknown command")
        );
        assert!(
            p(&["--bogus"])
                .unwrap_err()
                .message
                .contains("unknown flag")
        );
        assert!(
            p(&["simulate"])
                .unwrap_err()
                .message
                .contains("missing FILE")
        );
        assert!(
            p(&["simulate", "a", "b"])
                .unwrap_err()
                .message
                .contains("unexpected argument")
        );
        assert!(
            p(&["simulate", "a", "--bogus"])
                .unwrap_err()
                .message
                .contains("unknown flag")
        );
        assert!(
            p(&["simulate", "a", "--outputx"])
                .unwrap_err()
                .message
                .contains("unknown flag")
        );
        assert!(
            p(&["simulate", "a", "--output", "bogus"])
                .unwrap_err()
                .message
                .contains("bogus")
        );
        assert!(
            p(&["simulate", "a", "--output"])
                .unwrap_err()
                .message
                .contains("needs a value")
        );
        assert!(p(&["validate", "a", "--output", "table"]).is_err());
        assert!(p(&["validate", "a", "--until", "5m"]).is_err());
        assert!(p(&["migrate", "a", "-o", "json"]).is_err());
    }

    #[test]
    fn simulate_forms() {
        let want = Command::Simulate {
            input: Input::Path(PathBuf::from("lab.yaml")),
            until: None,
            output: SimulateOutput::Json,
        };
        assert_eq!(
            p(&["simulate", "lab.yaml", "--output", "json"]),
            Ok(want.clone())
        );
        assert_eq!(
            p(&["simulate", "--output=json", "lab.yaml"]),
            Ok(want.clone())
        );
        assert_eq!(p(&["simulate", "-o", "json", "lab.yaml"]), Ok(want.clone()));
        assert_eq!(p(&["simulate", "-ojson", "lab.yaml"]), Ok(want.clone()));
        assert_eq!(p(&["simulate", "-o=json", "lab.yaml"]), Ok(want.clone()));
        assert_eq!(
            p(&["simulate", "-o", "table", "--output", "json", "lab.yaml"]),
            Ok(want)
        );
        assert_eq!(
            p(&["simulate", "-"]),
            Ok(Command::Simulate {
                input: Input::Stdin,
                until: None,
                output: SimulateOutput::Table
            })
        );
        assert_eq!(
            p(&["simulate", "--", "-o"]),
            Ok(Command::Simulate {
                input: Input::Path(PathBuf::from("-o")),
                until: None,
                output: SimulateOutput::Table
            })
        );
        assert_eq!(
            p(&["validate", "-", "-o", "json"]),
            Ok(Command::Validate {
                input: Input::Stdin,
                output: ValidateOutput::Json
            })
        );
        assert_eq!(
            p(&["migrate", "old.yaml"]),
            Ok(Command::Migrate {
                input: Input::Path(PathBuf::from("old.yaml"))
            })
        );
    }

    #[test]
    fn until_durations() {
        let until = |s: &str| match p(&["simulate", "x", "--until", s]) {
            Ok(Command::Simulate { until, .. }) => until,
            other => panic!("{other:?}"),
        };
        assert_eq!(until("90s"), Some(90_000));
        assert_eq!(until("5m"), Some(300_000));
        assert_eq!(until("1h30m"), Some(5_400_000));
        let err = p(&["simulate", "x", "--until=soon"]).unwrap_err();
        assert!(
            err.message.contains("invalid --until \"soon\""),
            "{}",
            err.message
        );
        assert_eq!(err.topic, Topic::Simulate);
    }

    #[test]
    fn compare_conditions() {
        let checks = |extra: &[&str]| {
            let mut all = vec!["compare", "a.yaml", "b.yaml"];
            all.extend_from_slice(extra);
            match p(&all) {
                Ok(Command::Compare { checks, .. }) => Ok(checks),
                Ok(other) => panic!("{other:?}"),
                Err(e) => Err(e),
            }
        };
        assert_eq!(checks(&[]), Ok(Checks::default()));
        let both = Checks {
            pending: true,
            drift: true,
            max_cost_increase: vec![],
        };
        assert_eq!(checks(&["--fail-on", "pending,drift"]), Ok(both.clone()));
        assert_eq!(
            checks(&["--fail-on=drift", "--fail-on", " pending "]),
            Ok(both)
        );
        assert_eq!(
            checks(&[
                "--max-cost-increase",
                "5%",
                "--max-cost-increase=$99.50",
                "--max-cost-increase",
                "100/month",
                "--max-cost-increase",
                "5%",
            ])
            .map(|c| c.max_cost_increase),
            Ok(vec![
                CostLimit::Percent(5_000),
                CostLimit::PerMonth(99_500_000),
                CostLimit::PerMonth(100_000_000),
            ])
        );
        assert_eq!(parse_cost_limit("2.5%"), Ok(CostLimit::Percent(2_500)));
        assert_eq!(parse_cost_limit(".5%"), Ok(CostLimit::Percent(500)));
        assert_eq!(parse_cost_limit("0"), Ok(CostLimit::PerMonth(0)));
        assert_eq!(parse_cost_limit("$0.000001"), Ok(CostLimit::PerMonth(1)));
        for bad in [
            "",
            "abc",
            "%",
            "$",
            "-5%",
            "5%%",
            "$-1",
            "1.2.3",
            "5.0001%",
            "$0.0000001",
            "1e3",
            "5 %",
            "9999999999999",
            "$5/hour",
            "€5",
        ] {
            let err = parse_cost_limit(bad).unwrap_err();
            assert!(
                err.starts_with(&format!(
                    "invalid --max-cost-increase {bad:?}: use a percentage"
                )),
                "{bad}: {err}"
            );
        }
        let err = checks(&["--fail-on", "pending,nope"]).unwrap_err();
        assert_eq!(err.topic, Topic::Compare);
        assert!(
            err.message.contains("unknown --fail-on \"nope\""),
            "{}",
            err.message
        );
        assert_eq!(
            p(&["compare", "a", "b", "-o", "md"]).map(|c| match c {
                Command::Compare { output, .. } => output,
                other => panic!("{other:?}"),
            }),
            Ok(CompareOutput::Markdown)
        );
        assert!(p(&["simulate", "a", "--max-cost-increase", "5%"]).is_err());
        assert!(p(&["explain", "a", "--pod", "x", "--fail-on", "drift"]).is_err());
    }

    fn share(args: &[&str]) -> Result<(String, Option<Millis>, ShareOutput), UsageError> {
        let mut all = vec!["share", "lab.yaml"];
        all.extend_from_slice(args);
        match p(&all)? {
            Command::Share {
                input,
                base,
                at,
                output,
            } => {
                assert_eq!(input, Input::Path(PathBuf::from("lab.yaml")));
                Ok((base, at, output))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn share_forms() {
        assert_eq!(
            share(&[]),
            Ok((String::from(DEFAULT_BASE), None, ShareOutput::Link))
        );
        assert_eq!(
            share(&["--at", "5m", "--base=https://example.com/kpg/"]),
            Ok((
                String::from("https://example.com/kpg/"),
                Some(300_000),
                ShareOutput::Link
            ))
        );
        assert_eq!(p(&["help", "share"]), Ok(Command::Help(Topic::Share)));
        assert_eq!(p(&["share", "--help"]), Ok(Command::Help(Topic::Share)));
        let (_, at, output) = share(&[
            "--embed",
            "--view",
            "manifests, cluster,manifests",
            "--autoplay",
            "--speed=10",
            "--until",
            "10m",
            "--theme",
            "light",
            "--lang",
            "ko",
            "--readonly",
            "--at",
            "90s",
        ])
        .unwrap();
        assert_eq!(at, Some(90_000));
        let want = kpg_share::EmbedOptions {
            view: vec![kpg_share::View::Manifests, kpg_share::View::Cluster],
            autoplay: true,
            speed: Some(10),
            until: Some(600_000),
            at: Some(90_000),
            theme: kpg_share::Theme::Light,
            lang: Some(String::from("ko")),
            readonly: true,
            scenario_by_message: false,
            live: kpg_share::Live::Visible,
        };
        assert_eq!(output, ShareOutput::Embed(want.clone()));
        let (_, _, output) = share(&["--iframe", "--height", "600", "--title", "T"]).unwrap();
        assert_eq!(
            output,
            ShareOutput::Iframe {
                options: kpg_share::EmbedOptions::default(),
                height: 600,
                title: Some(String::from("T")),
            }
        );
        let (_, _, output) = share(&["--iframe"]).unwrap();
        assert!(matches!(
            output,
            ShareOutput::Iframe {
                height: DEFAULT_IFRAME_HEIGHT,
                title: None,
                ..
            }
        ));
    }

    #[test]
    fn share_usage_errors_name_the_flag() {
        let cases: &[(&[&str], &str)] = &[
            (
                &["--embed", "--speed", "7"],
                "--speed \"7\": use 1, 10 or 60",
            ),
            (
                &["--embed", "--theme", "blue"],
                "--theme \"blue\": use light, dark or auto",
            ),
            (&["--embed", "--lang", "fr"], "--lang \"fr\": use en or ko"),
            (&["--embed", "--view", "clster"], "--view \"clster\""),
            (&["--embed", "--view", ""], "--view \"\""),
            (&["--iframe", "--height", "0"], "--height \"0\""),
            (&["--iframe", "--height", "tall"], "--height \"tall\""),
            (&["--at", "soon"], "--at \"soon\""),
            (&["--embed", "--until", "-5m"], "--until \"-5m\""),
            (&["--autoplay"], "--autoplay is an embed option"),
            (&["--view", "cluster"], "--view is an embed option"),
            (
                &["--embed", "--height", "300"],
                "--height is an option of --iframe",
            ),
            (&["--title", "x"], "--title is an option of --iframe"),
            (&["--embed", "--iframe"], "not both"),
            (
                &["--embed", "--at", "5m", "--until", "1m"],
                "--until is before --at",
            ),
            (&["--readonly=yes", "--embed"], "--readonly takes no value"),
            (&["--base"], "--base needs a value"),
            (&["--base", "a b"], "invalid --base"),
            (&["--bogus"], "unknown flag"),
            (&["other.yaml"], "unexpected argument"),
        ];
        for (args, needle) in cases {
            let err = share(args).unwrap_err();
            assert_eq!(err.topic, Topic::Share, "{args:?}");
            assert!(err.message.contains(needle), "{args:?}: {}", err.message);
        }
        assert!(p(&["share"]).unwrap_err().message.contains("missing FILE"));
    }

    #[test]
    fn lesson_check_takes_one_path() {
        assert_eq!(
            p(&["lesson", "check", "lessons/"]),
            Ok(Command::LessonCheck {
                path: PathBuf::from("lessons/")
            })
        );
        assert_eq!(
            p(&[
                "lesson",
                "link",
                "lessons/mine",
                "--base",
                "https://example.com/kpg"
            ]),
            Ok(Command::LessonLink {
                path: PathBuf::from("lessons/mine"),
                base: "https://example.com/kpg/".into(),
            })
        );
        assert_eq!(
            p(&["lesson", "link", "--base=https://example.com/kpg/", "m"]),
            Ok(Command::LessonLink {
                path: PathBuf::from("m"),
                base: "https://example.com/kpg/".into(),
            })
        );
        assert_eq!(p(&["help", "lesson"]), Ok(Command::Help(Topic::Lesson)));
        assert_eq!(
            p(&["lesson", "check", "-h"]),
            Ok(Command::Help(Topic::Lesson))
        );
        for (args, needle) in [
            (&["lesson"][..], "missing the command"),
            (&["lesson", "lint", "x"][..], "unknown lesson command"),
            (&["lesson", "link"][..], "missing PATH"),
            (
                &["lesson", "link", "a", "--base"][..],
                "--base needs a value",
            ),
            (&["lesson", "check", "a", "--base", "x"][..], "unknown flag"),
            (&["lesson", "check"][..], "missing PATH"),
            (&["lesson", "check", "a", "b"][..], "give one PATH"),
            (&["lesson", "check", "--fix", "a"][..], "unknown flag"),
        ] {
            let err = p(args).unwrap_err();
            assert_eq!(err.topic, Topic::Lesson, "{args:?}");
            assert!(err.message.contains(needle), "{args:?}: {}", err.message);
        }
    }
}

//! Command-line parsing, by hand: three subcommands and three options do not need a parser
//! crate, and keeping the binary's dependency tree to the engine, the reader and serde_json
//! keeps it small and quick to build.

use std::ffi::OsString;
use std::path::PathBuf;

use kpg_core::model::Millis;

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
    Validate,
    Migrate,
    Codes,
    Explain,
    Kubectl,
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
}

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
  kpg simulate FILE [--until DURATION] [--output table|json]
  kpg validate FILE [--output text|json]
  kpg migrate FILE
  kpg explain FILE (--pod NS/NAME | --node NAME | --nodeclaim NAME) [--at DURATION]
  kpg kubectl FILE [--at DURATION] [--until DURATION] -- COMMAND...
  kpg codes [CODE]
  kpg help [COMMAND]
  kpg --version

Commands:
  simulate   Run a scenario (Kubernetes and Karpenter v1 manifests) on a simulated clock and
             print the cluster: `kubectl get nodes` and `kubectl get pods -A -o wide`, plus
             the cost per hour. `--output json` prints the whole report: time, costPerHour,
             nodes, pods (with why each pending pod waits), events, nodepools, nodeclaims.
  validate   Check a scenario without running it: every problem with its file, line and column.
  migrate    Print the Karpenter v1 equivalent of v1beta1 manifests.
  explain    Why a pod is Pending or landed where it did, why a NodeClaim got its instance
             type, why a node is (not) consolidated: as sentences, or --output json.
  kubectl    Answer a kubectl (or eks-node-viewer) command about the simulated cluster, in
             kubectl's own output formats: get, describe, logs, and the mutations, which are
             printed but not saved.
  codes      List the codes validate's findings carry, or explain one.

FILE is a path, or - to read standard input.

Exit status: 0 success; 1 the scenario has errors or cannot be read or run; 2 bad command
line (or a command that is not implemented yet).
";

pub const SIMULATE: &str = "\
Usage: kpg simulate FILE [--until DURATION] [--output table|json]

Runs the scenario in FILE (- reads standard input) and prints the cluster at the end.

Options:
  --until DURATION      Stop the clock at DURATION (a Go duration: 90s, 5m, 1h30m).
                        Default: when nothing more would change, or 1h, whichever is first.
  -o, --output FORMAT   table (default): what kubectl get nodes / get pods -A -o wide would
                        show, the cost per hour and why pods are pending.
                        json: the full report (nodes, pods, events, nodepools, nodeclaims).
  -h, --help            Show this help.

Warnings go to standard error; errors in the scenario stop it with exit status 1.
";

pub const VALIDATE: &str = "\
Usage: kpg validate FILE [--output text|json]

Reads the scenario in FILE (- reads standard input) and lists every problem as
FILE:LINE:COLUMN: severity code: Kind/name field.path: message (and a help line when
there is advice), then a count. Nothing is simulated.

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
        Topic::Validate => VALIDATE,
        Topic::Migrate => MIGRATE,
        Topic::Codes => CODES,
        Topic::Explain => EXPLAIN,
        Topic::Kubectl => KUBECTL,
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
        "validate" => Some(Topic::Validate),
        "migrate" => Some(Topic::Migrate),
        "codes" => Some(Topic::Codes),
        "explain" => Some(Topic::Explain),
        "kubectl" => Some(Topic::Kubectl),
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
        "simulate" | "validate" | "migrate" | "explain" => {
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
}

impl Opt {
    const NAMED: [(&'static str, Opt); 7] = [
        ("--until", Opt::Until),
        ("--output", Opt::Output),
        ("--pod", Opt::Pod),
        ("--nodeclaim", Opt::NodeClaim),
        ("--node", Opt::Node),
        ("--at", Opt::At),
        ("--lang", Opt::Lang),
    ];

    fn flag(self) -> &'static str {
        Opt::NAMED
            .iter()
            .find(|(_, o)| *o == self)
            .map_or("--output", |(f, _)| f)
    }
}

fn parse_subcommand(topic: Topic, args: Vec<OsString>) -> Result<Command, UsageError> {
    let mut positional: Vec<Input> = Vec::new();
    let mut until: Option<String> = None;
    let mut output: Option<String> = None;
    let mut at: Option<String> = None;
    let mut lang: Option<String> = None;
    let mut subjects: Vec<(Opt, String)> = Vec::new();
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
        if topic != Topic::Explain && !matches!(opt, Opt::Until | Opt::Output) {
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
        }
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
                Some(other) => {
                    return Err(UsageError::new(
                        topic,
                        format!("unknown --output {other:?}: use table or json"),
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
                Some(text) => Some(
                    kpg_core::duration::parse(&text)
                        .map_err(|e| UsageError::new(topic, format!("invalid --at {text:?}: {e} (use a Go duration such as 90s, 5m or 1h30m)")))?,
                ),
            };
            Ok(Command::Explain {
                input,
                subject,
                at,
                output,
                lang,
            })
        }
        Topic::Migrate | Topic::Overview | Topic::Codes | Topic::Kubectl => {
            if until.is_some() || output.is_some() {
                return Err(UsageError::new(topic, "migrate takes no options"));
            }
            Ok(Command::Migrate { input })
        }
    }
}

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
}

//! kubectl's flags (pflag's rules: `--name value`, `--name=value`, `-n value`, `-nvalue`,
//! `-n=value`, `--` ends the flags) for the subcommands the playground answers, and pflag's
//! error messages for the rest.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Takes {
    Nothing,
    Value,
}

/// (long, short, takes a value, the subcommands that accept it; empty: every one).
type Def = (&'static str, Option<char>, Takes, &'static [&'static str]);

const DEFS: &[Def] = &[
    ("namespace", Some('n'), Takes::Value, &[]),
    ("context", None, Takes::Value, &[]),
    ("kubeconfig", None, Takes::Value, &[]),
    (
        "all-namespaces",
        Some('A'),
        Takes::Nothing,
        &["get", "describe", "delete", "annotate"],
    ),
    (
        "output",
        Some('o'),
        Takes::Value,
        &["get", "apply", "delete", "run", "scale", "annotate"],
    ),
    (
        "selector",
        Some('l'),
        Takes::Value,
        &[
            "get", "describe", "delete", "annotate", "logs", "cordon", "uncordon", "scale",
        ],
    ),
    ("labels", Some('l'), Takes::Value, &["run"]),
    ("label-columns", Some('L'), Takes::Value, &["get"]),
    ("watch", Some('w'), Takes::Nothing, &["get"]),
    ("watch-only", None, Takes::Nothing, &["get"]),
    ("show-labels", None, Takes::Nothing, &["get"]),
    ("no-headers", None, Takes::Nothing, &["get"]),
    (
        "filename",
        Some('f'),
        Takes::Value,
        &["apply", "delete", "get", "describe", "scale", "annotate"],
    ),
    ("follow", Some('f'), Takes::Nothing, &["logs"]),
    (
        "all",
        None,
        Takes::Nothing,
        &["delete", "annotate", "scale"],
    ),
    ("replicas", None, Takes::Value, &["scale"]),
    ("current-replicas", None, Takes::Value, &["scale"]),
    ("image", None, Takes::Value, &["run"]),
    ("restart", None, Takes::Value, &["run"]),
    ("port", None, Takes::Value, &["run"]),
    ("env", None, Takes::Value, &["run"]),
    ("command", None, Takes::Nothing, &["run"]),
    (
        "dry-run",
        None,
        Takes::Value,
        &[
            "run", "apply", "delete", "scale", "annotate", "cordon", "uncordon",
        ],
    ),
    ("overwrite", None, Takes::Nothing, &["annotate"]),
    ("force", None, Takes::Nothing, &["delete", "apply"]),
    ("grace-period", None, Takes::Value, &["delete"]),
    ("now", None, Takes::Nothing, &["delete"]),
    ("wait", None, Takes::Value, &["delete"]),
    ("server-side", None, Takes::Nothing, &["apply"]),
    ("tail", None, Takes::Value, &["logs"]),
    ("container", Some('c'), Takes::Value, &["logs"]),
    ("all-containers", None, Takes::Nothing, &["logs"]),
    ("since", None, Takes::Value, &["logs"]),
    ("timestamps", None, Takes::Nothing, &["logs"]),
    ("show-events", None, Takes::Value, &["describe"]),
];

/// A parsed command line after `kubectl SUBCOMMAND`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    pub positional: Vec<String>,
    /// Every flag given, by long name, in order (a repeated flag appears more than once).
    pub flags: Vec<(&'static str, Option<String>)>,
}

impl Args {
    pub fn has(&self, name: &str) -> bool {
        self.flags
            .iter()
            .any(|(n, v)| *n == name && v.as_deref() != Some("false"))
    }

    /// The last value of a flag.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Every value of a repeatable flag, commas split (`-L a,b -L c`).
    pub fn values(&self, name: &str) -> Vec<String> {
        self.flags
            .iter()
            .filter(|(n, _)| *n == name)
            .filter_map(|(_, v)| v.as_deref())
            .flat_map(|v| v.split(','))
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// Every value of a flag as given (`-f a -f b`).
    pub fn all(&self, name: &str) -> Vec<String> {
        self.flags
            .iter()
            .filter(|(n, _)| *n == name)
            .filter_map(|(_, v)| v.clone())
            .collect()
    }
}

/// The flags a subcommand accepts (long names with `--`, and short forms), for completion.
pub fn flags_of(sub: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (long, short, _, subs) in DEFS {
        if subs.is_empty() || subs.contains(&sub) {
            out.push(format!("--{long}"));
            if let Some(s) = short {
                out.push(format!("-{s}"));
            }
        }
    }
    crate::order::texts(&mut out);
    out
}

fn find_long(sub: &str, name: &str) -> Option<&'static Def> {
    DEFS.iter()
        .find(|(long, _, _, subs)| *long == name && (subs.is_empty() || subs.contains(&sub)))
}

fn find_short(sub: &str, c: char) -> Option<&'static Def> {
    DEFS.iter()
        .find(|(_, short, _, subs)| *short == Some(c) && (subs.is_empty() || subs.contains(&sub)))
}

/// Parses the words after the subcommand; the error is kubectl's, with its usage hint.
pub fn parse(sub: &str, words: &[String]) -> Result<Args, String> {
    let usage = format!("See 'kubectl {sub} --help' for usage.");
    let mut args = Args::default();
    let mut it = words.iter();
    while let Some(word) = it.next() {
        if word == "--" {
            args.positional.extend(it.by_ref().cloned());
            break;
        }
        if let Some(rest) = word.strip_prefix("--") {
            let (name, inline) = match rest.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (rest, None),
            };
            let Some(&(long, _, takes, _)) = find_long(sub, name) else {
                return Err(format!("error: unknown flag: --{name}\n{usage}"));
            };
            let value = match (takes, inline) {
                (Takes::Nothing, v) => v,
                (Takes::Value, Some(v)) => Some(v),
                (Takes::Value, None) => match it.next() {
                    Some(v) => Some(v.clone()),
                    None => {
                        return Err(format!("error: flag needs an argument: --{name}\n{usage}"));
                    }
                },
            };
            args.flags.push((long, value));
            continue;
        }
        if let Some(rest) = word.strip_prefix('-')
            && !rest.is_empty()
        {
            // Bool shorthands may be combined (`-Aw`); a value-taking one takes the rest.
            let chars: Vec<char> = rest.chars().collect();
            let mut i = 0;
            while let Some(&c) = chars.get(i) {
                let Some(&(long, _, takes, _)) = find_short(sub, c) else {
                    return Err(format!(
                        "error: unknown shorthand flag: '{c}' in -{rest}\n{usage}"
                    ));
                };
                if takes == Takes::Nothing {
                    args.flags.push((long, None));
                    i += 1;
                    continue;
                }
                let tail: String = chars.get(i + 1..).unwrap_or_default().iter().collect();
                let value = if !tail.is_empty() {
                    tail.strip_prefix('=').unwrap_or(&tail).to_string()
                } else {
                    match it.next() {
                        Some(v) => v.clone(),
                        None => {
                            return Err(format!(
                                "error: flag needs an argument: '{c}' in -{c}\n{usage}"
                            ));
                        }
                    }
                };
                args.flags.push((long, Some(value)));
                break;
            }
            continue;
        }
        args.positional.push(word.clone());
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(sub: &str, words: &[&str]) -> Result<Args, String> {
        parse(
            sub,
            &words.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    }

    #[test]
    fn pflag_forms() {
        let a = p(
            "get",
            &[
                "nodes",
                "-L",
                "a,b",
                "-Lc",
                "--label-columns=d",
                "-owide",
                "-n=x",
                "-Aw",
            ],
        )
        .unwrap_or_default();
        assert_eq!(a.positional, ["nodes"]);
        assert_eq!(a.values("label-columns"), ["a", "b", "c", "d"]);
        assert_eq!(a.value("output"), Some("wide"));
        assert_eq!(a.value("namespace"), Some("x"));
        assert!(a.has("all-namespaces") && a.has("watch"));
        let l = p("logs", &["-f", "-n", "kube-system"]).unwrap_or_default();
        assert!(l.has("follow"));
        let d = p("delete", &["-f", "a.yaml", "-f", "b.yaml"]).unwrap_or_default();
        assert_eq!(d.all("filename"), ["a.yaml", "b.yaml"]);
    }

    #[test]
    fn pflag_errors() {
        assert_eq!(
            p("run", &["nginx", "--replicas=1"]),
            Err("error: unknown flag: --replicas\nSee 'kubectl run --help' for usage.".into())
        );
        assert_eq!(
            p("get", &["-x"]),
            Err(
                "error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage."
                    .into()
            )
        );
        assert!(
            p("get", &["-o"])
                .is_err_and(|e| e.starts_with("error: flag needs an argument: 'o' in -o"))
        );
    }
}

//! The playground's terminal: kubectl and eks-node-viewer over the simulated cluster.
//!
//! Pure: [`run`] reads a [`World`] (the simulation and the manifest files) and a command
//! line, and returns what the terminal prints, whether kubectl would have succeeded, and
//! the [`Change`]s a mutation asks for (the caller applies them: the page appends them to
//! the Timeline at `sim.now()`). No I/O, no clock (the simulation's time is the clock), no
//! panics on user input, the same output for the same input. Output follows kubectl's own
//! formats: Go's tab writer, the CRDs' printer columns, `describe`'s layout, kubectl's
//! error messages.
//!
//! Modules, one concept each: `tokenize` (the shell-like line), `args` (kubectl's flags),
//! `kinds` (resource type names), `selector` (`-l`), `state` (what the API server holds),
//! `objects` (objects as the API serves them), `yaml` (`-o yaml|json`), `get`, `describe`,
//! `mutate` (scale, apply, delete, run, annotate, cordon), `logs` (Karpenter's JSON log
//! lines), `viewer` (eks-node-viewer), `watch` (`-w`, `logs -f`), `complete`, `format`
//! (tab writer, durations, the wall clock).

pub mod args;
pub mod complete;
pub mod describe;
pub mod format;
pub mod get;
pub mod kinds;
pub mod logs;
pub mod mutate;
pub mod objects;
pub mod order;
pub mod selector;
pub mod state;
pub mod tokenize;
pub mod viewer;
pub mod watch;
pub mod yaml;

use kpg_core::manifest::Document;
use kpg_core::sim::Simulation;

pub use complete::{Completion, complete};
pub use mutate::Change;
pub use watch::Watch;

/// What a command sees: the simulation at the instant the terminal shows, and the manifest
/// files. The objects the API server holds come from the simulation ([`Simulation::applied`]:
/// the manifests the simulation was built from, parsed once by the reader); the files are
/// read only by the commands that name one (`apply -f`, `delete -f`), through
/// [`World::documents`], so this crate has no YAML parser of its own.
pub trait World {
    fn sim(&self) -> &Simulation;
    /// Manifest files by name, e.g. ("nodepool.yaml", text): the page's tabs, the CLI's files.
    fn files(&self) -> &[(String, String)];
    /// A file's documents, each read on its own by the manifest reader.
    fn documents(&self, text: &str) -> Vec<Document>;
}

/// A [`World`] of borrowed parts. `reader` is the manifest reader's
/// `kpg_manifests::documents` (tests may give another).
pub struct Files<'a> {
    pub sim: &'a Simulation,
    pub files: &'a [(String, String)],
    pub reader: fn(&str) -> Vec<Document>,
}

impl World for Files<'_> {
    fn sim(&self) -> &Simulation {
        self.sim
    }

    fn files(&self) -> &[(String, String)] {
        self.files
    }

    fn documents(&self, text: &str) -> Vec<Document> {
        (self.reader)(text)
    }
}

/// What a command did.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// What the terminal prints (stdout and stderr together, kubectl's wording).
    pub output: String,
    /// False when kubectl would exit non-zero.
    pub ok: bool,
    /// Mutations for the caller to apply.
    pub changes: Vec<Change>,
    /// Set by `-w` (and `logs -f`): poll it as the clock moves.
    pub watch: Option<Watch>,
    /// `clear`.
    pub clear: bool,
}

impl Reply {
    fn ok(output: impl Into<String>) -> Reply {
        Reply {
            output: output.into(),
            ok: true,
            ..Reply::default()
        }
    }

    fn fail(output: impl Into<String>) -> Reply {
        Reply {
            output: output.into(),
            ok: false,
            ..Reply::default()
        }
    }
}

/// The kubectl subcommands the playground answers.
pub const SUPPORTED: &[&str] = &[
    "annotate", "apply", "cordon", "delete", "describe", "get", "logs", "run", "scale", "uncordon",
];

/// kubectl's other subcommands: named as unsupported rather than unknown.
const KUBECTL_OTHERS: &[&str] = &[
    "create",
    "expose",
    "set",
    "explain",
    "edit",
    "rollout",
    "autoscale",
    "certificate",
    "cluster-info",
    "top",
    "drain",
    "taint",
    "attach",
    "exec",
    "port-forward",
    "proxy",
    "cp",
    "auth",
    "debug",
    "events",
    "diff",
    "patch",
    "replace",
    "wait",
    "kustomize",
    "label",
    "completion",
    "alpha",
    "api-resources",
    "api-versions",
    "config",
    "plugin",
    "version",
    "options",
];

pub const HELP: &str = "\
The playground's terminal answers these commands about the simulated cluster:

  kubectl get nodes|pods|nodeclaims|nodepools|ec2nodeclasses|deployments|... [NAME]
      [-o wide|yaml|json|name] [-L KEY,...] [-l SELECTOR] [--show-labels] [-n NS | -A] [-w]
  kubectl describe node|pod|nodeclaim|nodepool|ec2nodeclass NAME
  kubectl logs -n kube-system -l app.kubernetes.io/name=karpenter [-f]
  kubectl scale deployment|nodepool NAME --replicas=N
  kubectl apply -f FILE             kubectl delete -f FILE [-f FILE]
  kubectl delete KIND NAME | --all  kubectl run NAME --image=IMAGE
  kubectl annotate KIND NAME KEY=VALUE [KEY-] [--overwrite]
  kubectl cordon NODE               kubectl uncordon NODE
  eks-node-viewer [--resources cpu,memory] [--node-selector KEY=VALUE] [--extra-labels KEY,...]
  ls (the manifest files), help, clear

Changes (scale, apply, delete, run, annotate, cordon) happen at the simulated clock's
current time. FILE is one of the manifest files.
";

/// Answers one command line.
pub fn run(world: &dyn World, line: &str) -> Reply {
    let words = match tokenize::split(line) {
        Ok(w) => w,
        Err(e) => return Reply::fail(e.message() + "\n"),
    };
    let mut words: Vec<String> = words.into_iter().map(|w| w.text).collect();
    // Lines pasted from an article often keep the prompt.
    if words.first().is_some_and(|w| w == "$") {
        words.remove(0);
    }
    let Some(first) = words.first().cloned() else {
        return Reply::ok("");
    };
    let rest = &words[1..];
    match first.as_str() {
        "kubectl" | "k" => kubectl(world, rest),
        "eks-node-viewer" => viewer::run(world, rest),
        "help" | "--help" | "-h" => Reply::ok(HELP),
        // The manifest files `apply -f` and `delete -f` read (the page's tabs).
        "ls" => Reply::ok(
            world
                .files()
                .iter()
                .map(|(n, _)| format!("{n}\n"))
                .collect::<String>(),
        ),
        "clear" | "cls" => Reply {
            ok: true,
            clear: true,
            ..Reply::default()
        },
        other => Reply::fail(format!(
            "error: the playground's terminal runs kubectl and eks-node-viewer (and ls, help, \
             clear); \"{other}\" is not available here\n"
        )),
    }
}

fn kubectl(world: &dyn World, words: &[String]) -> Reply {
    // Global flags may come before the subcommand (`kubectl -n kube-system logs ...`).
    let mut words = words.to_vec();
    let mut leading = Vec::new();
    while let Some(w) = words.first() {
        if w == "-n" || w == "--namespace" || w == "--context" {
            let flag = words.remove(0);
            if !words.is_empty() {
                let v = words.remove(0);
                leading.push(flag);
                leading.push(v);
            }
        } else if w.starts_with("--namespace=")
            || w.starts_with("-n=")
            || (w.starts_with("-n") && w.len() > 2 && !w.starts_with("--"))
        {
            leading.push(words.remove(0));
        } else {
            break;
        }
    }
    let Some(sub) = words.first().cloned() else {
        return Reply::ok(HELP);
    };
    let mut rest: Vec<String> = words[1..].to_vec();
    rest.extend(leading);
    if sub == "help" || sub == "--help" || sub == "-h" {
        return Reply::ok(HELP);
    }
    if !SUPPORTED.contains(&sub.as_str()) {
        if KUBECTL_OTHERS.contains(&sub.as_str()) {
            return Reply::fail(format!(
                "error: the playground's kubectl does not support \"{sub}\"; it supports: {}\n",
                SUPPORTED.join(", ")
            ));
        }
        return Reply::fail(format!(
            "error: unknown command \"{sub}\" for \"kubectl\"\n\
             the playground's kubectl supports: {}\n",
            SUPPORTED.join(", ")
        ));
    }
    let args = match args::parse(&sub, &rest) {
        Ok(a) => a,
        Err(e) => {
            let mut msg = e + "\n";
            if sub == "run" && rest.iter().any(|r| r.starts_with("--replicas")) {
                msg.push_str(
                    "(kubectl run creates one Pod since v1.18 and has no --replicas; drop it, or \
                     scale a Deployment)\n",
                );
            }
            return Reply::fail(msg);
        }
    };
    let state = state::State::new(world);
    match sub.as_str() {
        "get" => {
            let req = match get::request(&args) {
                Ok(r) => r,
                Err(e) => return Reply::fail(e),
            };
            let watching = args.has("watch") || args.has("watch-only");
            let (output, ok) = get::render(&state, &req);
            // A watch prints what the list has (nothing for an empty one: no "No resources
            // found"), then each change.
            let empty = get::watched_rows(&state, &req).is_empty();
            let quiet = watching && empty && req.names.is_empty();
            let output = if args.has("watch-only") || quiet {
                String::new()
            } else {
                output
            };
            let ok = ok || quiet;
            let watch = if watching {
                Some(Watch::for_get(&state, req))
            } else {
                None
            };
            Reply {
                output,
                ok,
                watch,
                ..Reply::default()
            }
        }
        "describe" => describe::run(&state, &args),
        "scale" => mutate::scale(world, &state, &args),
        "apply" => mutate::apply(world, &state, &args),
        "delete" => mutate::delete(world, &state, &args),
        "run" => mutate::run(&state, &args),
        "annotate" => mutate::annotate(&state, &args),
        "cordon" => mutate::cordon(&state, &args, true),
        "uncordon" => mutate::cordon(&state, &args, false),
        "logs" => logs::run(&state, &args),
        _ => Reply::fail(format!(
            "error: unknown command \"{sub}\" for \"kubectl\"\n"
        )),
    }
}

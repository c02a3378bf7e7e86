//! The commands that change the cluster: `scale`, `apply -f`, `delete`, `run`, `annotate`,
//! `cordon`, `uncordon`. None changes the simulation: each returns [`Change`]s (the page
//! appends them to the Timeline at `sim.now()`) and prints kubectl's confirmation.

use std::collections::BTreeMap;

use kpg_core::manifest::{Document, Tree};
use kpg_core::model::{Millis, Scenario};
use serde_json::Value;

use crate::args::Args;
use crate::get::{namespace_of, not_found, parse_targets};
use crate::kinds::Kind;
use crate::state::{self, State};
use crate::{Reply, World};

/// A mutation for the caller to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Scale {
        kind: String,
        name: String,
        namespace: String,
        replicas: u32,
    },
    Delete {
        kind: String,
        name: String,
        namespace: String,
    },
    /// One object's YAML text.
    Apply {
        document: String,
    },
    Cordon {
        node: String,
        unschedulable: bool,
    },
    Annotate {
        kind: String,
        name: String,
        namespace: String,
        set: BTreeMap<String, String>,
        remove: Vec<String>,
    },
}

/// A flow-mapping scalar: plain when YAML reads it back as the same string, else quoted.
fn flow(s: &str) -> String {
    let plain = !s.is_empty()
        && !s.contains([
            ',', '[', ']', '{', '}', ':', '#', '"', '\'', ' ', '\n', '\t', '&', '*', '!', '|', '>',
            '%', '@', '`',
        ])
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
        )
        && !s.starts_with(['-', '?'])
        && s.parse::<f64>().is_err();
    if plain {
        s.to_string()
    } else {
        crate::yaml::quote(s)
    }
}

fn namespaced(kind: &str) -> bool {
    Kind::from_kind(kind).is_none_or(Kind::namespaced)
}

impl Change {
    /// One entry of a Timeline's `spec.steps`, block style, indented by two spaces, ending
    /// in a newline (scenario-format.md §1.3).
    pub fn timeline_step(&self, at: Millis) -> String {
        let head = format!("  - at: {}\n", kpg_core::duration::format(at));
        let target = |kind: &str, name: &str, namespace: &str| {
            let mut s = format!("kind: {}, name: {}", flow(kind), flow(name));
            if namespaced(kind) {
                s.push_str(&format!(", namespace: {}", flow(namespace)));
            }
            s
        };
        match self {
            Change::Scale {
                kind,
                name,
                namespace,
                replicas,
            } => {
                format!(
                    "{head}    scale: {{{}, replicas: {replicas}}}\n",
                    target(kind, name, namespace)
                )
            }
            Change::Delete {
                kind,
                name,
                namespace,
            } => format!("{head}    delete: {{{}}}\n", target(kind, name, namespace)),
            Change::Cordon {
                node,
                unschedulable,
            } => format!(
                "{head}    cordon: {{node: {}, unschedulable: {unschedulable}}}\n",
                flow(node)
            ),
            Change::Annotate {
                kind,
                name,
                namespace,
                set,
                remove,
            } => {
                let set: Vec<String> = set
                    .iter()
                    .map(|(k, v)| format!("{}: {}", flow(k), crate::yaml::quote(v)))
                    .collect();
                let remove: Vec<String> = remove.iter().map(|k| flow(k)).collect();
                format!(
                    "{head}    annotate: {{{}, set: {{{}}}, remove: [{}]}}\n",
                    target(kind, name, namespace),
                    set.join(", "),
                    remove.join(", ")
                )
            }
            Change::Apply { document } => {
                let mut out = format!("{head}    apply:\n");
                for line in document.lines() {
                    let t = line.trim_end();
                    if t == "---" || t == "..." {
                        continue;
                    }
                    if t.is_empty() {
                        out.push('\n');
                    } else {
                        out.push_str("      ");
                        out.push_str(t);
                        out.push('\n');
                    }
                }
                out
            }
        }
    }
}

fn fail(output: String) -> Reply {
    Reply {
        output,
        ok: false,
        ..Reply::default()
    }
}

/// The workload kinds `kubectl scale` takes.
pub fn scale(world: &dyn World, state: &State, args: &Args) -> Reply {
    let _ = world;
    let Some(replicas) = args.value("replicas") else {
        return fail(String::from(
            "error: The --replicas=COUNT flag is required, and COUNT must \
             be greater than or equal to 0\n",
        ));
    };
    let Ok(replicas) = replicas.parse::<u32>() else {
        return fail(format!(
            "error: invalid argument \"{replicas}\" for \"--replicas\" flag: strconv.ParseInt: \
             parsing \"{replicas}\": invalid syntax\nSee 'kubectl scale --help' for usage.\n"
        ));
    };
    let (kinds, names) = match parse_targets(&args.positional) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let namespace = namespace_of(args);
    let mut out = String::new();
    let mut changes = Vec::new();
    let mut ok = true;
    if names.is_empty() {
        return fail(String::from(
            "error: resource(s) were provided, but no name was specified\n",
        ));
    }
    for kind in kinds {
        if kind == Kind::NodePool {
            // A static NodePool's scale subresource (`spec.replicas`, v1.8+); a dynamic one
            // cannot become static (the CRD's CEL rule).
            for name in &names {
                let Some(d) = state.declared("NodePool", "", name) else {
                    out.push_str(&not_found(kind, name));
                    ok = false;
                    continue;
                };
                let Some(current) = d.value.pointer("/spec/replicas").and_then(Value::as_u64)
                else {
                    out.push_str(&format!(
                        "The NodePool \"{name}\" is invalid: spec: Invalid value: \"object\": \
                         Cannot transition NodePool between static (replicas set) and dynamic \
                         (replicas unset) provisioning modes\n"
                    ));
                    ok = false;
                    continue;
                };
                if current != u64::from(replicas) {
                    changes.push(Change::Scale {
                        kind: String::from("NodePool"),
                        name: name.clone(),
                        namespace: String::new(),
                        replicas,
                    });
                }
                out.push_str(&format!("{}/{name} scaled\n", kind.qualified_singular()));
            }
            continue;
        }
        if !matches!(
            kind,
            Kind::Deployment | Kind::StatefulSet | Kind::ReplicaSet
        ) {
            out.push_str(&format!(
                "error: no scaler has been implemented for {{\"{}\" \"{}\"}}\n",
                kind.group(),
                kind.kind()
            ));
            ok = false;
            continue;
        }
        for name in &names {
            let Some(d) = state.declared(kind.kind(), &namespace, name) else {
                out.push_str(&not_found(kind, name));
                ok = false;
                continue;
            };
            let current = d
                .value
                .pointer("/spec/replicas")
                .and_then(Value::as_u64)
                .unwrap_or(1);
            if current != u64::from(replicas) {
                changes.push(Change::Scale {
                    kind: kind.kind().to_string(),
                    name: name.clone(),
                    namespace: namespace.clone(),
                    replicas,
                });
            }
            out.push_str(&format!("{}/{name} scaled\n", kind.qualified_singular()));
        }
    }
    Reply {
        output: out,
        ok,
        changes,
        ..Reply::default()
    }
}

/// A file of `world.files` by name (exactly, or by its last path component).
pub fn find_file<'a>(world: &'a dyn World, name: &str) -> Option<&'a (String, String)> {
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    world
        .files()
        .iter()
        .find(|(n, _)| n == name)
        .or_else(|| world.files().iter().find(|(n, _)| base(n) == base(name)))
}

/// kubectl's message, and the files there are (`ls` lists them too).
fn missing_file(world: &dyn World, name: &str) -> String {
    let names: Vec<&str> = world.files().iter().map(|(n, _)| n.as_str()).collect();
    format!(
        "error: the path \"{name}\" does not exist\n# the files here: {}\n",
        names.join(" ")
    )
}

/// A document's objects as the reader made them, normalised so that two readings of the same
/// object compare equal (the document index is where the text sat, not what it says).
fn model(doc: &Document) -> Option<Scenario> {
    if doc.error.is_some() {
        return None;
    }
    let mut s = doc.scenario.clone();
    for w in &mut s.workloads {
        w.document = 0;
    }
    Some(s)
}

/// `created`, `configured` or `unchanged`: the object against what the cluster runs. The
/// engine's own model where it keeps one (NodePools; workloads through their pods' specs),
/// else the object as the files declare it.
fn verb(
    state: &State,
    kind: Kind,
    kind_name: &str,
    namespace: &str,
    name: &str,
    doc: &Document,
) -> &'static str {
    let new = model(doc);
    if kind == Kind::NodePool {
        return match (state.pool(name), new) {
            (None, _) => "created",
            (Some((_, np)), Some(m)) if m.node_pools.first() == Some(np) => "unchanged",
            _ => "configured",
        };
    }
    if let Some(wk) = kind.workload() {
        let pods: Vec<&kpg_core::pod::Pod> = if kind == Kind::Pod {
            state.pod(namespace, name).into_iter().collect()
        } else {
            state.pods_of(wk, namespace, name)
        };
        let Some(w) = new.as_ref().and_then(|m| m.workloads.first()) else {
            return "configured";
        };
        let Some(first) = pods.first() else {
            return if state.declared(kind_name, namespace, name).is_some() {
                "configured"
            } else {
                "created"
            };
        };
        let active = pods.iter().filter(|p| p.is_active()).count() as u32;
        let counted = matches!(
            kind,
            Kind::Deployment | Kind::StatefulSet | Kind::ReplicaSet
        );
        let same = *first.spec == w.template.spec
            && w.template
                .labels
                .iter()
                .all(|(k, v)| first.labels.get(k) == Some(v))
            && (!counted || active == w.replicas);
        return if same { "unchanged" } else { "configured" };
    }
    // Objects the engine keeps no model of compare as written, as `kubectl apply`'s patch
    // would: nothing to change is `unchanged`.
    match state.declared(kind_name, namespace, name) {
        None => "created",
        Some(d) if doc.tree.as_ref().map(state::json).as_ref() == Some(&d.value) => "unchanged",
        Some(_) => "configured",
    }
}

pub fn apply(world: &dyn World, state: &State, args: &Args) -> Reply {
    let files = args.all("filename");
    if files.is_empty() {
        return fail(String::from("error: must specify one of -f and -k\n"));
    }
    let mut out = String::new();
    let mut changes = Vec::new();
    let mut ok = true;
    for f in files {
        let Some((fname, text)) = find_file(world, &f) else {
            out.push_str(&missing_file(world, &f));
            ok = false;
            continue;
        };
        for doc in world.documents(text) {
            let Some(tree) = &doc.tree else { continue };
            let (kind_name, name, namespace) = state::identity(tree);
            let Some(kind) = Kind::from_kind(&kind_name) else {
                let what = if tree
                    .get("apiVersion")
                    .and_then(Tree::as_str)
                    .is_some_and(|a| a.starts_with("playground.karpenter.dev"))
                {
                    format!(
                        "{kind_name}/{name} skipped: the playground's own kinds are read when the \
                         scenario loads, not applied to a running cluster\n"
                    )
                } else {
                    format!(
                        "{}/{name} skipped: the playground does not simulate {kind_name} objects\n",
                        kind_name.to_ascii_lowercase()
                    )
                };
                out.push_str(&what);
                continue;
            };
            if let Some((path, message)) = &doc.error {
                // An apiVersion the API server does not serve fails before validation, in
                // kubectl's REST mapping: no object to call invalid.
                if path == "apiVersion" && message.starts_with("no matches for kind") {
                    // The namespace as written: kubectl has not defaulted it yet.
                    let written = tree
                        .at(&["metadata", "namespace"])
                        .and_then(Tree::as_str)
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "error: resource mapping not found for name: \"{name}\" namespace: \
                         \"{written}\" from \"{fname}\": {message}\nensure CRDs are installed \
                         first\n"
                    ));
                    ok = false;
                    continue;
                }
                out.push_str(&format!(
                    "The {kind_name} \"{name}\" is invalid: {}{message}\n",
                    if path.is_empty() {
                        String::new()
                    } else {
                        format!("{path}: ")
                    },
                ));
                ok = false;
                continue;
            }
            let verb = verb(state, kind, &kind_name, &namespace, &name, &doc);
            if verb != "unchanged" {
                changes.push(Change::Apply {
                    document: doc.text.clone(),
                });
            }
            out.push_str(&format!("{}/{name} {verb}\n", kind.qualified_singular()));
        }
    }
    Reply {
        output: out,
        ok,
        changes,
        ..Reply::default()
    }
}

fn deleted_line(kind: Kind, name: &str, namespace: &str) -> String {
    if kind.namespaced() {
        format!(
            "{} \"{name}\" deleted from {namespace} namespace\n",
            kind.qualified_singular()
        )
    } else {
        format!("{} \"{name}\" deleted\n", kind.qualified_singular())
    }
}

/// Whether an object of a kind exists now.
fn exists(state: &State, kind: Kind, namespace: &str, name: &str) -> bool {
    match kind {
        Kind::Node => state.node(name).is_some(),
        Kind::NodeClaim => state.claim(name).is_some(),
        Kind::NodePool => state.pool(name).is_some(),
        Kind::Pod => state.pod(namespace, name).is_some(),
        other => state.declared(other.kind(), namespace, name).is_some(),
    }
}

fn delete_one(
    state: &State,
    kind: Kind,
    namespace: &str,
    name: &str,
    out: &mut String,
    changes: &mut Vec<Change>,
) {
    let _ = state;
    out.push_str(&deleted_line(kind, name, namespace));
    // A controller's pod goes and its controller makes another (the engine's delete step).
    changes.push(Change::Delete {
        kind: kind.kind().to_string(),
        name: name.to_string(),
        namespace: if kind.namespaced() {
            namespace.to_string()
        } else {
            String::new()
        },
    });
}

/// An EC2NodeClass in use is not gone when kubectl says "deleted": its finalizer
/// (`karpenter.k8s.aws/termination`) holds it until no NodeClaim uses it, and kubectl waits
/// for that. A note after the command's lines names what it waits for.
fn finalizer_notes(state: &State, changes: &[Change]) -> String {
    let mut out = String::new();
    for c in changes {
        if let Change::Delete { kind, name, .. } = c
            && kind == "EC2NodeClass"
        {
            out.push_str(&class_finalizer_note(state, name));
        }
    }
    out
}

fn class_finalizer_note(state: &State, class: &str) -> String {
    let users: Vec<String> = state
        .claims()
        .into_iter()
        .filter(|n| {
            state
                .pool_name(n)
                .and_then(|p| state.pool(p))
                .is_some_and(|(_, np)| np.node_class_ref.name == class)
        })
        .filter_map(|n| n.nodeclaim.clone())
        .collect();
    if users.is_empty() {
        return String::new();
    }
    format!(
        "# kpg: kubectl waits until ec2nodeclass \"{class}\" is gone: it stays, marked for \
         deletion, until its finalizer (karpenter.k8s.aws/termination) sees no NodeClaim using \
         it: {}. Its NodePools launch nothing meanwhile.\n",
        users.join(", ")
    )
}

pub fn delete(world: &dyn World, state: &State, args: &Args) -> Reply {
    let namespace = namespace_of(args);
    let mut out = String::new();
    let mut changes = Vec::new();
    let mut ok = true;
    let files = args.all("filename");
    if !files.is_empty() {
        for f in files {
            let Some((fname, text)) = find_file(world, &f) else {
                out.push_str(&missing_file(world, &f));
                ok = false;
                continue;
            };
            for doc in world.documents(text) {
                let Some(tree) = &doc.tree else { continue };
                let (kind_name, name, ns) = state::identity(tree);
                let Some(kind) = Kind::from_kind(&kind_name) else {
                    continue;
                };
                if exists(state, kind, &ns, &name) {
                    delete_one(state, kind, &ns, &name, &mut out, &mut changes);
                } else {
                    out.push_str(&format!(
                        "Error from server (NotFound): error when deleting \"{fname}\": {} \
                         \"{name}\" not found\n",
                        kind.qualified_plural()
                    ));
                    ok = false;
                }
            }
        }
        out.push_str(&finalizer_notes(state, &changes));
        return Reply {
            output: out,
            ok,
            changes,
            ..Reply::default()
        };
    }
    let (kinds, names) = match parse_targets(&args.positional) {
        Ok(t) => t,
        Err(e) => {
            return fail(
                e.replace("kubectl get -h", "kubectl delete -h")
                    .replace("type of resource to get", "type of resource to delete"),
            );
        }
    };
    let all = args.has("all");
    if names.is_empty() && !all && args.value("selector").is_none() {
        return fail(String::from(
            "error: resource(s) were provided, but no name was specified\n",
        ));
    }
    for kind in kinds {
        if names.is_empty() {
            let req = crate::get::request(args);
            let Ok(mut req) = req else {
                return fail(req.err().unwrap_or_default());
            };
            req.kinds = vec![kind];
            req.output = crate::get::Output::Name;
            let rows = crate::get::rows(state, kind, &req);
            if rows.is_empty() {
                out.push_str(&crate::get::no_resources(&req, kind));
            }
            for r in rows {
                delete_one(state, kind, &r.namespace, &r.name, &mut out, &mut changes);
            }
            continue;
        }
        for name in &names {
            if exists(state, kind, &namespace, name) {
                delete_one(state, kind, &namespace, name, &mut out, &mut changes);
            } else {
                out.push_str(&not_found(kind, name));
                ok = false;
            }
        }
    }
    out.push_str(&finalizer_notes(state, &changes));
    Reply {
        output: out,
        ok,
        changes,
        ..Reply::default()
    }
}

/// `kubectl run NAME --image=IMAGE`: a bare Pod labelled `run=NAME`.
pub fn run(state: &State, args: &Args) -> Reply {
    let Some(name) = args.positional.first() else {
        return fail(String::from(
            "error: NAME is required for run\nSee 'kubectl run -h' for help and examples\n",
        ));
    };
    let Some(image) = args.value("image").filter(|i| !i.is_empty()) else {
        return fail(String::from("error: required flag(s) \"image\" not set\n"));
    };
    if let Err(e) = kpg_core::labels::validate_dns1123_subdomain(name) {
        return fail(format!(
            "The Pod \"{name}\" is invalid: metadata.name: Invalid value: \"{name}\": {e}\n"
        ));
    }
    let namespace = namespace_of(args);
    if state.pod(&namespace, name).is_some() {
        return fail(format!(
            "Error from server (AlreadyExists): pods \"{name}\" already exists\n"
        ));
    }
    let mut labels = vec![(String::from("run"), name.clone())];
    if let Some(l) = args.value("labels") {
        labels = l
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
    }
    let mut doc = String::from("apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n");
    for (k, v) in &labels {
        doc.push_str(&format!("    {}: {}\n", flow(k), flow(v)));
    }
    doc.push_str(&format!(
        "  name: {}\n  namespace: {}\nspec:\n  containers:\n  - image: {}\n    name: {}\n",
        flow(name),
        flow(&namespace),
        flow(image),
        flow(name)
    ));
    let rest: Vec<&String> = args.positional.iter().skip(1).collect();
    if !rest.is_empty() {
        let key = if args.has("command") {
            "command"
        } else {
            "args"
        };
        doc.push_str(&format!("    {key}:\n"));
        for a in rest {
            doc.push_str(&format!("    - {}\n", crate::yaml::quote(a)));
        }
    }
    if let Some(r) = args.value("restart") {
        doc.push_str(&format!("  restartPolicy: {}\n", flow(r)));
    }
    Reply {
        output: format!("pod/{name} created\n"),
        ok: true,
        changes: vec![Change::Apply { document: doc }],
        ..Reply::default()
    }
}

pub fn annotate(state: &State, args: &Args) -> Reply {
    let (kinds, mut names) = match parse_targets(&args.positional) {
        Ok(t) => t,
        Err(e) => {
            return fail(
                e.replace("kubectl get -h", "kubectl annotate -h")
                    .replace("type of resource to get", "type of resource to annotate"),
            );
        }
    };
    // Names are the words before the first `k=v` or `k-`.
    let split = names
        .iter()
        .position(|w| w.contains('=') || w.ends_with('-'))
        .unwrap_or(names.len());
    let updates: Vec<String> = names.split_off(split);
    if updates.is_empty() {
        return fail(String::from(
            "error: at least one annotation update is required\n\
             See 'kubectl annotate -h' for help and examples\n",
        ));
    }
    let mut set = BTreeMap::new();
    let mut remove = Vec::new();
    for u in &updates {
        if let Some((k, v)) = u.split_once('=') {
            if let Err(e) = kpg_core::labels::validate_qualified_name(k) {
                return fail(format!("error: invalid annotation format: {k}: {e}\n"));
            }
            set.insert(k.to_string(), v.to_string());
        } else if let Some(k) = u.strip_suffix('-') {
            remove.push(k.to_string());
        }
    }
    let namespace = namespace_of(args);
    let mut out = String::new();
    let mut changes = Vec::new();
    let mut ok = true;
    for kind in kinds {
        if !matches!(kind, Kind::Node | Kind::NodeClaim | Kind::Pod) {
            out.push_str(&format!(
                "error: the playground annotates nodes, nodeclaims and pods; to annotate a {}, \
                 change its manifest and apply it\n",
                kind.singular()
            ));
            ok = false;
            continue;
        }
        let targets: Vec<String> = if args.has("all") {
            let req = crate::get::Request {
                kinds: vec![kind],
                names: Vec::new(),
                namespace: namespace.clone(),
                all_namespaces: false,
                selector: Default::default(),
                label_columns: Vec::new(),
                output: crate::get::Output::Name,
                show_labels: false,
                no_headers: false,
            };
            crate::get::rows(state, kind, &req)
                .into_iter()
                .map(|r| r.name)
                .collect()
        } else {
            names.clone()
        };
        for name in targets {
            let current = match kind {
                Kind::Node => state.node(&name).map(|n| n.annotations.clone()),
                Kind::NodeClaim => state.claim(&name).map(|n| n.annotations.clone()),
                _ => state.pod(&namespace, &name).map(|p| p.annotations.clone()),
            };
            let Some(current) = current else {
                out.push_str(&not_found(kind, &name));
                ok = false;
                continue;
            };
            if !args.has("overwrite") {
                let clashes: Vec<String> = set
                    .iter()
                    .filter_map(|(k, v)| {
                        current
                            .get(k)
                            .filter(|c| *c != v)
                            .map(|c| format!("'{k}' already has a value ({c})"))
                    })
                    .collect();
                if !clashes.is_empty() {
                    out.push_str(&format!(
                        "error: --overwrite is false but found the following declared \
                         annotation(s): {}\n",
                        clashes.join("; ")
                    ));
                    ok = false;
                    continue;
                }
            }
            let changed = set.iter().any(|(k, v)| current.get(k) != Some(v))
                || remove.iter().any(|k| current.contains_key(k));
            if changed {
                changes.push(Change::Annotate {
                    kind: kind.kind().to_string(),
                    name: name.clone(),
                    namespace: if kind.namespaced() {
                        namespace.clone()
                    } else {
                        String::new()
                    },
                    set: set.clone(),
                    remove: remove.clone(),
                });
            }
            out.push_str(&format!("{}/{name} annotated\n", kind.qualified_singular()));
        }
    }
    Reply {
        output: out,
        ok,
        changes,
        ..Reply::default()
    }
}

pub fn cordon(state: &State, args: &Args, unschedulable: bool) -> Reply {
    let verb = if unschedulable {
        "cordoned"
    } else {
        "uncordoned"
    };
    let sub = if unschedulable { "cordon" } else { "uncordon" };
    let names: Vec<String> = match args.value("selector") {
        Some(sel) => match crate::selector::parse(sel) {
            Ok(s) => state
                .nodes()
                .into_iter()
                .filter(|n| s.matches(&n.labels))
                .map(|n| n.name.clone())
                .collect(),
            Err(e) => return fail(format!("error: {e}\n")),
        },
        None => args.positional.clone(),
    };
    if names.is_empty() {
        return fail(format!(
            "error: USAGE: {sub} NODE [flags]\nSee 'kubectl {sub} -h' for help and examples\n"
        ));
    }
    let mut out = String::new();
    let mut changes = Vec::new();
    let mut ok = true;
    for name in names {
        let name = name
            .strip_prefix("node/")
            .or_else(|| name.strip_prefix("nodes/"))
            .unwrap_or(&name)
            .to_string();
        let Some(node) = state.node(&name) else {
            out.push_str(&not_found(Kind::Node, &name));
            ok = false;
            continue;
        };
        if state::cordoned(node) == unschedulable {
            out.push_str(&format!("node/{name} already {verb}\n"));
            continue;
        }
        changes.push(Change::Cordon {
            node: name.clone(),
            unschedulable,
        });
        out.push_str(&format!("node/{name} {verb}\n"));
    }
    Reply {
        output: out,
        ok,
        changes,
        ..Reply::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeline_steps_render_as_the_format_says() {
        let s = Change::Scale {
            kind: "Deployment".into(),
            name: "inflate".into(),
            namespace: "default".into(),
            replicas: 3,
        };
        assert_eq!(
            s.timeline_step(150_000),
            "  - at: 2m30s\n    scale: {kind: Deployment, name: inflate, \
             namespace: default, replicas: 3}\n"
        );
        let d = Change::Delete {
            kind: "NodePool".into(),
            name: "default".into(),
            namespace: String::new(),
        };
        assert_eq!(
            d.timeline_step(0),
            "  - at: 0m0s\n    delete: {kind: NodePool, name: default}\n"
        );
        let c = Change::Cordon {
            node: "n1".into(),
            unschedulable: true,
        };
        assert_eq!(
            c.timeline_step(61_000),
            "  - at: 1m1s\n    cordon: {node: n1, unschedulable: true}\n"
        );
        let a = Change::Annotate {
            kind: "Node".into(),
            name: "n1".into(),
            namespace: String::new(),
            set: [(
                "karpenter.sh/do-not-disrupt".to_string(),
                "true".to_string(),
            )]
            .into_iter()
            .collect(),
            remove: vec!["note".into()],
        };
        assert_eq!(
            a.timeline_step(0),
            "  - at: 0m0s\n    annotate: {kind: Node, name: n1, set: {karpenter.sh/do-not-disrupt: \
             \"true\"}, remove: [note]}\n"
        );
        let p = Change::Apply {
            document: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n".into(),
        };
        assert_eq!(
            p.timeline_step(1_500),
            "  - at: 0m1.5s\n    apply:\n      apiVersion: v1\n      kind: Pod\
             \n      metadata:\n        name: x\n"
        );
    }
}

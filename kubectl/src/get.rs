//! `kubectl get`: the tables (kubectl's columns for built-in kinds, the CRDs'
//! additionalPrinterColumns for Karpenter's, priority-1 columns with `-o wide`), `-L`,
//! `--show-labels`, `-l`, `-n`/`-A`, `-o yaml|json|name`, and `-w` (see [`crate::watch`]).

use kpg_core::model::{Millis, StringMap};
use kpg_core::pod::Phase;
use serde_json::Value;

use crate::args::Args;
use crate::format::{self, age, tabulate};
use crate::kinds::Kind;
use crate::objects;
use crate::selector::{self, Selector};
use crate::state::{self, State};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Table,
    Wide,
    Yaml,
    Json,
    Name,
}

/// What to list: everything `get` needs to render again later (a watch keeps it).
#[derive(Clone, Debug)]
pub struct Request {
    pub kinds: Vec<Kind>,
    pub names: Vec<String>,
    pub namespace: String,
    pub all_namespaces: bool,
    pub selector: Selector,
    pub label_columns: Vec<String>,
    pub output: Output,
    pub show_labels: bool,
    pub no_headers: bool,
}

/// One object's row.
#[derive(Clone, Debug)]
pub struct Row {
    pub kind: Kind,
    pub namespace: String,
    pub name: String,
    pub labels: StringMap,
    pub cells: Vec<String>,
}

impl Row {
    pub fn key(&self) -> String {
        format!("{}/{}/{}", self.kind.plural(), self.namespace, self.name)
    }
}

const REQUIRED: &str = "You must specify the type of resource to get. Use \"kubectl \
                        api-resources\" for a complete list of supported resources.\n\n\
                        error: Required resource not specified.\nUse \"kubectl explain \
                        <resource>\" for a detailed description of that resource (e.g. kubectl \
                        explain pods).\nSee 'kubectl get -h' for help and examples\n";

pub fn unknown_type(word: &str) -> String {
    format!("error: the server doesn't have a resource type \"{word}\"\n")
}

pub fn not_found(kind: Kind, name: &str) -> String {
    format!(
        "Error from server (NotFound): {} \"{name}\" not found\n",
        kind.qualified_plural()
    )
}

/// The namespace a command works in (`-n`, else `default`).
pub fn namespace_of(args: &Args) -> String {
    args.value("namespace").unwrap_or("default").to_string()
}

/// Reads `TYPE[,TYPE] [NAME...]` or `TYPE/NAME...`.
pub fn parse_targets(positional: &[String]) -> Result<(Vec<Kind>, Vec<String>), String> {
    let Some(first) = positional.first() else {
        return Err(REQUIRED.to_string());
    };
    if first.contains('/') {
        let mut kinds = Vec::new();
        let mut names = Vec::new();
        for p in positional {
            let Some((t, n)) = p.split_once('/') else {
                return Err(String::from(
                    "error: there is no need to specify a resource type as a separate argument \
                     when passing arguments in resource/name form (e.g. 'kubectl get \
                     resource/<resource_name>' instead of 'kubectl get resource \
                     resource/<resource_name>'\n",
                ));
            };
            let k = Kind::parse(t).ok_or_else(|| unknown_type(t))?;
            if !kinds.contains(&k) {
                kinds.push(k);
            }
            names.push(n.to_string());
        }
        return Ok((kinds, names));
    }
    let mut kinds = Vec::new();
    for t in first.split(',').filter(|t| !t.is_empty()) {
        let k = Kind::parse(t).ok_or_else(|| unknown_type(t))?;
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    if kinds.is_empty() {
        return Err(REQUIRED.to_string());
    }
    Ok((kinds, positional.get(1..).unwrap_or_default().to_vec()))
}

pub fn request(args: &Args) -> Result<Request, String> {
    let (kinds, names) = parse_targets(&args.positional)?;
    let output = match args.value("output") {
        None | Some("") => Output::Table,
        Some("wide") => Output::Wide,
        Some("yaml") => Output::Yaml,
        Some("json") => Output::Json,
        Some("name") => Output::Name,
        Some(other) => {
            return Err(format!(
                "error: unable to match a printer suitable for the output format \"{other}\", \
                 allowed formats are: custom-columns,custom-columns-file,go-template,\
                 go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,\
                 templatefile,wide,yaml\n"
            ));
        }
    };
    let selector = match args.value("selector") {
        Some(s) => selector::parse(s).map_err(|e| format!("error: {e}\n"))?,
        None => Selector::default(),
    };
    Ok(Request {
        kinds,
        names,
        namespace: namespace_of(args),
        all_namespaces: args.has("all-namespaces"),
        selector,
        label_columns: args.values("label-columns"),
        output,
        show_labels: args.has("show-labels"),
        no_headers: args.has("no-headers"),
    })
}

pub fn header(kind: Kind, wide: bool) -> Vec<&'static str> {
    let (base, extra): (&[&str], &[&str]) = match kind {
        Kind::Node => (
            &["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
            &[
                "INTERNAL-IP",
                "EXTERNAL-IP",
                "OS-IMAGE",
                "KERNEL-VERSION",
                "CONTAINER-RUNTIME",
            ],
        ),
        Kind::Pod => (
            &["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
            &["IP", "NODE", "NOMINATED NODE", "READINESS GATES"],
        ),
        Kind::NodeClaim => (
            &["NAME", "TYPE", "CAPACITY", "ZONE", "NODE", "READY", "AGE"],
            &["IMAGEID", "ID", "NODEPOOL", "NODECLASS", "DRIFTED"],
        ),
        Kind::NodePool => (
            &["NAME", "NODECLASS", "NODES", "READY", "AGE"],
            &["WEIGHT", "CPU", "MEMORY"],
        ),
        Kind::EC2NodeClass => (&["NAME", "READY", "AGE"], &["ROLE"]),
        Kind::Deployment => (
            &["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
            &["CONTAINERS", "IMAGES", "SELECTOR"],
        ),
        Kind::StatefulSet => (&["NAME", "READY", "AGE"], &["CONTAINERS", "IMAGES"]),
        Kind::DaemonSet => (
            &[
                "NAME",
                "DESIRED",
                "CURRENT",
                "READY",
                "UP-TO-DATE",
                "AVAILABLE",
                "NODE SELECTOR",
                "AGE",
            ],
            &["CONTAINERS", "IMAGES", "SELECTOR"],
        ),
        Kind::ReplicaSet => (
            &["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
            &["CONTAINERS", "IMAGES", "SELECTOR"],
        ),
        Kind::Job => (
            &["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"],
            &["CONTAINERS", "IMAGES", "SELECTOR"],
        ),
        Kind::Namespace => (&["NAME", "STATUS", "AGE"], &[]),
        Kind::PodDisruptionBudget => (
            &[
                "NAME",
                "MIN AVAILABLE",
                "MAX UNAVAILABLE",
                "ALLOWED DISRUPTIONS",
                "AGE",
            ],
            &[],
        ),
        Kind::Unsimulated(_) => (&["NAME", "AGE"], &[]),
    };
    let mut h = base.to_vec();
    if wide {
        h.extend_from_slice(extra);
    }
    h
}

fn or_none(s: String) -> String {
    if s.is_empty() {
        String::from("<none>")
    } else {
        s
    }
}

fn node_row(state: &State, n: &kpg_core::sim::Node, wide: bool) -> Vec<String> {
    let mut status = String::from(if state::node_ready(n) {
        "Ready"
    } else {
        "NotReady"
    });
    if state::cordoned(n) {
        status.push_str(",SchedulingDisabled");
    }
    let mut cells = vec![
        n.name.clone(),
        status,
        String::from("<none>"),
        format::human_duration(n.age(state.now)),
        String::from(format::NODE_VERSION),
    ];
    if wide {
        let (os, kernel, runtime) = objects::node_info(state, n);
        cells.extend([
            format::node_ip(&n.name),
            String::from("<none>"),
            os.to_string(),
            kernel,
            runtime.to_string(),
        ]);
    }
    cells
}

fn claim_row(state: &State, n: &kpg_core::sim::Node, wide: bool) -> Vec<String> {
    let name = n.nodeclaim.clone().unwrap_or_default();
    let launched = state::launched(n);
    let registered = n.labels.contains_key(kpg_core::wellknown::REGISTERED);
    let shown = |s: &str| {
        if launched {
            s.to_string()
        } else {
            String::new()
        }
    };
    let ready = if n.initialized_at.is_some() {
        "True"
    } else {
        "Unknown"
    };
    let mut cells = vec![
        name.clone(),
        shown(&n.instance_type),
        shown(n.capacity_type.as_str()),
        shown(&n.zone),
        if registered {
            n.name.clone()
        } else {
            String::new()
        },
        ready.to_string(),
        format::human_duration(n.age(state.now)),
    ];
    if wide {
        cells.extend([
            shown(&n.image_id),
            if launched {
                format::provider_id(&n.zone, &name)
            } else {
                String::new()
            },
            state.pool_name(n).unwrap_or_default().to_string(),
            objects::node_class_name(state, n).unwrap_or_default(),
            if n.drifted.is_some() {
                String::from("True")
            } else {
                String::new()
            },
        ]);
    }
    cells
}

fn pool_row(
    state: &State,
    report: &kpg_core::report::Report,
    index: usize,
    np: &kpg_core::model::NodePool,
    wide: bool,
) -> Vec<String> {
    let r = report.nodepools.iter().find(|p| p.name == np.name);
    let ready = if state.sim.node_pool_ready(index) {
        "True"
    } else {
        "False"
    };
    let mut cells = vec![
        np.name.clone(),
        np.node_class_ref.name.clone(),
        r.map_or(0, |r| r.nodes).to_string(),
        ready.to_string(),
        age(state.pool_created(&np.name), state.now),
    ];
    if wide {
        let declared_weight = state
            .declared("NodePool", "", &np.name)
            .and_then(|d| d.value.pointer("/spec/weight").cloned());
        let weight = match declared_weight {
            Some(w) => w.to_string(),
            None if np.weight != 0 => np.weight.to_string(),
            None => String::new(),
        };
        let res = |k: &str| {
            r.and_then(|r| r.resources.get(k).cloned())
                .unwrap_or_else(|| String::from("0"))
        };
        cells.extend([weight, res("cpu"), res("memory")]);
    }
    cells
}

fn containers_and_images(state: &State, d: &crate::state::Declared) -> (String, String) {
    let spec = if d.kind == "Pod" {
        d.value.get("spec")
    } else {
        d.value.pointer("/spec/template/spec")
    };
    let list: Vec<&Value> = spec
        .and_then(|s| s.get("containers"))
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let _ = state;
    let names: Vec<&str> = list
        .iter()
        .filter_map(|c| c.get("name").and_then(Value::as_str))
        .collect();
    let images: Vec<&str> = list
        .iter()
        .filter_map(|c| c.get("image").and_then(Value::as_str))
        .collect();
    (names.join(","), images.join(","))
}

fn selector_text(d: &crate::state::Declared) -> String {
    let Some(sel) = d.value.pointer("/spec/selector") else {
        return String::from("<none>");
    };
    let mut parts: Vec<String> = Vec::new();
    if let Some(m) = sel.get("matchLabels").and_then(Value::as_object) {
        parts.extend(
            m.iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default())),
        );
    }
    if let Some(exprs) = sel.get("matchExpressions").and_then(Value::as_array) {
        for e in exprs {
            let key = e.get("key").and_then(Value::as_str).unwrap_or_default();
            let values: Vec<&str> = e
                .get("values")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            match e
                .get("operator")
                .and_then(Value::as_str)
                .unwrap_or_default()
            {
                "In" => parts.push(format!("{key} in ({})", values.join(","))),
                "NotIn" => parts.push(format!("{key} notin ({})", values.join(","))),
                "Exists" => parts.push(key.to_string()),
                _ => parts.push(format!("!{key}")),
            }
        }
    }
    if parts.is_empty() {
        String::from("<none>")
    } else {
        parts.join(",")
    }
}

fn declared_labels(d: &crate::state::Declared) -> StringMap {
    d.value
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str().map_or_else(|| v.to_string(), str::to_string),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn workload_rows(state: &State, kind: Kind, wide: bool) -> Vec<Row> {
    let Some(wk) = kind.workload() else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    if kind == Kind::ReplicaSet {
        // Each Deployment's current ReplicaSet, named after its pods.
        let mut seen: Vec<(String, String)> = Vec::new();
        for d in state.declared_of("Deployment") {
            let pods = state.pods_of(
                kpg_core::model::WorkloadKind::Deployment,
                &d.namespace,
                &d.name,
            );
            let rs = pods.iter().find_map(|p| state::replicaset_of(p));
            let Some(rs) = rs else { continue };
            if seen.contains(&(d.namespace.clone(), rs.clone())) {
                continue;
            }
            seen.push((d.namespace.clone(), rs.clone()));
            let desired = pods.iter().filter(|p| p.is_active()).count();
            let ready = pods.iter().filter(|p| p.phase == Phase::Running).count();
            let mut cells = vec![
                rs.clone(),
                desired.to_string(),
                desired.to_string(),
                ready.to_string(),
                age(d.created, state.now),
            ];
            if wide {
                let (c, i) = containers_and_images(state, d);
                let hash = rs.rsplit('-').next().unwrap_or_default();
                cells.extend([
                    c,
                    i,
                    format!("{},pod-template-hash={hash}", selector_text(d)),
                ]);
            }
            let mut labels = d
                .value
                .pointer("/spec/template/metadata/labels")
                .and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                        .collect::<StringMap>()
                })
                .unwrap_or_default();
            labels.insert(
                "pod-template-hash".into(),
                rs.rsplit('-').next().unwrap_or_default().to_string(),
            );
            rows.push(Row {
                kind,
                namespace: d.namespace.clone(),
                name: rs,
                labels,
                cells,
            });
        }
    }
    for d in state.declared_of(kind.kind()) {
        let pods = state.pods_of(wk, &d.namespace, &d.name);
        let active = pods.iter().filter(|p| p.is_active()).count();
        let ready = pods.iter().filter(|p| p.phase == Phase::Running).count();
        let desired = d
            .value
            .pointer("/spec/replicas")
            .and_then(Value::as_u64)
            .map_or(active, |r| r as usize);
        let created = age(d.created, state.now);
        let (containers, images) = containers_and_images(state, d);
        let mut cells = match kind {
            Kind::Deployment => vec![
                d.name.clone(),
                format!("{ready}/{desired}"),
                active.to_string(),
                ready.to_string(),
                created,
            ],
            Kind::StatefulSet => vec![d.name.clone(), format!("{ready}/{desired}"), created],
            Kind::ReplicaSet => vec![
                d.name.clone(),
                desired.to_string(),
                active.to_string(),
                ready.to_string(),
                created,
            ],
            Kind::DaemonSet => {
                let ns = d
                    .value
                    .pointer("/spec/template/spec/nodeSelector")
                    .and_then(Value::as_object)
                    .map(|m| {
                        m.iter()
                            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .unwrap_or_default();
                vec![
                    d.name.clone(),
                    active.to_string(),
                    active.to_string(),
                    ready.to_string(),
                    active.to_string(),
                    ready.to_string(),
                    or_none(ns),
                    created,
                ]
            }
            Kind::Job => {
                let succeeded = pods.iter().filter(|p| p.phase == Phase::Succeeded).count();
                let completions = d
                    .value
                    .pointer("/spec/completions")
                    .and_then(Value::as_u64)
                    .unwrap_or(1) as usize;
                let complete = succeeded >= completions;
                let end = if complete {
                    pods.iter()
                        .filter_map(|p| p.started_at.zip(p.runtime).map(|(s, r)| s + r))
                        .max()
                        .unwrap_or(state.now)
                } else {
                    state.now
                };
                let status = if complete { "Complete" } else { "Running" };
                vec![
                    d.name.clone(),
                    status.to_string(),
                    format!("{succeeded}/{completions}"),
                    format::human_duration(end.saturating_sub(d.created)),
                    created,
                ]
            }
            _ => continue,
        };
        if wide {
            cells.push(containers);
            cells.push(images);
            if kind != Kind::StatefulSet {
                cells.push(selector_text(d));
            }
        }
        rows.push(Row {
            kind,
            namespace: d.namespace.clone(),
            name: d.name.clone(),
            labels: declared_labels(d),
            cells,
        });
    }
    rows
}

fn pdb_rows(state: &State) -> Vec<Row> {
    state
        .declared_of("PodDisruptionBudget")
        .map(|d| {
            let get = |k: &str| {
                d.value
                    .pointer(&format!("/spec/{k}"))
                    .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                    .unwrap_or_else(|| String::from("N/A"))
            };
            let min = get("minAvailable");
            let max = get("maxUnavailable");
            let sel = d
                .value
                .pointer("/spec/selector/matchLabels")
                .and_then(Value::as_object);
            let healthy = state
                .pods()
                .iter()
                .filter(|p| p.namespace == d.namespace && p.phase == Phase::Running)
                .filter(|p| {
                    sel.is_some_and(|m| {
                        m.iter()
                            .all(|(k, v)| p.labels.get(k).map(String::as_str) == v.as_str())
                    })
                })
                .count() as i64;
            let allowed = match (min.parse::<i64>(), max.parse::<i64>()) {
                (Ok(m), _) => (healthy - m).max(0),
                (_, Ok(u)) => u.min(healthy),
                _ => 0,
            };
            Row {
                kind: Kind::PodDisruptionBudget,
                namespace: d.namespace.clone(),
                name: d.name.clone(),
                labels: declared_labels(d),
                cells: vec![
                    d.name.clone(),
                    min,
                    max,
                    allowed.to_string(),
                    age(d.created, state.now),
                ],
            }
        })
        .collect()
}

/// Every object of a kind in scope (namespace, selector), as rows; by namespace and name.
pub fn rows(state: &State, kind: Kind, req: &Request) -> Vec<Row> {
    let wide = req.output == Output::Wide;
    let mut rows: Vec<Row> = match kind {
        Kind::Node => state
            .nodes()
            .into_iter()
            .map(|n| Row {
                kind,
                namespace: String::new(),
                name: n.name.clone(),
                labels: n.labels.clone(),
                cells: node_row(state, n, wide),
            })
            .collect(),
        Kind::NodeClaim => state
            .claims()
            .into_iter()
            .map(|n| {
                let v = objects::nodeclaim(state, n);
                let labels = v
                    .pointer("/metadata/labels")
                    .and_then(Value::as_object)
                    .map(|m| {
                        m.iter()
                            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                            .collect()
                    })
                    .unwrap_or_default();
                Row {
                    kind,
                    namespace: String::new(),
                    name: n.nodeclaim.clone().unwrap_or_default(),
                    labels,
                    cells: claim_row(state, n, wide),
                }
            })
            .collect(),
        Kind::NodePool => {
            let report = state.sim.report();
            state
                .pools()
                .into_iter()
                .map(|(i, np)| {
                    let labels = state
                        .declared("NodePool", "", &np.name)
                        .map(declared_labels)
                        .unwrap_or_default();
                    Row {
                        kind,
                        namespace: String::new(),
                        name: np.name.clone(),
                        labels,
                        cells: pool_row(state, &report, i, np, wide),
                    }
                })
                .collect()
        }
        Kind::EC2NodeClass => state
            .node_classes()
            .into_iter()
            .map(|d| {
                let mut cells = vec![
                    d.name.clone(),
                    String::from("True"),
                    age(d.created, state.now),
                ];
                if wide {
                    cells.push(
                        d.value
                            .pointer("/spec/role")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                    );
                }
                Row {
                    kind,
                    namespace: String::new(),
                    name: d.name.clone(),
                    labels: declared_labels(d),
                    cells,
                }
            })
            .collect(),
        Kind::Pod => state
            .pods()
            .into_iter()
            .map(|p| {
                let total = state::container_count(p);
                let ready = if p.phase == Phase::Running { total } else { 0 };
                let bound = p.node.is_some();
                let mut cells = vec![
                    p.name.clone(),
                    format!("{ready}/{total}"),
                    format::pod_status(p.phase.as_str(), bound),
                    String::from("0"),
                    age(p.created_at, state.now),
                ];
                if wide {
                    let ip = if bound && p.phase != Phase::Pending {
                        format::pod_ip(&p.namespace, &p.name)
                    } else {
                        String::from("<none>")
                    };
                    let node = p
                        .node
                        .and_then(|n| state.node_name(n))
                        .unwrap_or("<none>")
                        .to_string();
                    // kube-scheduler's nomination after a preemption.
                    let nominated = p
                        .nominated_node
                        .filter(|_| !bound)
                        .and_then(|n| state.node_name(n))
                        .unwrap_or("<none>")
                        .to_string();
                    cells.extend([ip, node, nominated, String::from("<none>")]);
                }
                Row {
                    kind,
                    namespace: p.namespace.clone(),
                    name: p.name.clone(),
                    labels: objects::pod_labels(p),
                    cells,
                }
            })
            .collect(),
        Kind::Namespace => state
            .namespaces()
            .into_iter()
            .map(|(n, at)| Row {
                kind,
                namespace: String::new(),
                name: n.clone(),
                labels: [(String::from("kubernetes.io/metadata.name"), n.clone())]
                    .into_iter()
                    .collect(),
                cells: vec![n, String::from("Active"), age(at, state.now)],
            })
            .collect(),
        Kind::PodDisruptionBudget => pdb_rows(state),
        Kind::Unsimulated(_) => Vec::new(),
        _ => workload_rows(state, kind, wide),
    };
    rows.retain(|r| {
        (req.all_namespaces || !kind.namespaced() || r.namespace == req.namespace)
            && req.selector.matches(&r.labels)
    });
    crate::order::by_text(&mut rows, |r| crate::order::key(&[&r.namespace, &r.name]));
    rows
}

/// The object behind a row, for `-o yaml|json`.
pub fn value(state: &State, row: &Row) -> Value {
    let v = match row.kind {
        Kind::Node => state.node(&row.name).map(|n| objects::node(state, n)),
        Kind::NodeClaim => state.claim(&row.name).map(|n| objects::nodeclaim(state, n)),
        Kind::NodePool => objects::nodepool(state, &row.name),
        Kind::EC2NodeClass => state
            .declared("EC2NodeClass", "", &row.name)
            .map(|d| objects::nodeclass(state, d)),
        Kind::Pod => state
            .pod(&row.namespace, &row.name)
            .map(|p| objects::pod(state, p)),
        Kind::Namespace => Some(serde_json::json!({
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {
                "creationTimestamp": format::rfc3339(0),
                "labels": {"kubernetes.io/metadata.name": row.name},
                "name": row.name
            },
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"}
        })),
        _ => state
            .declared(row.kind.kind(), &row.namespace, &row.name)
            .map(|d| objects::workload(state, d)),
    };
    v.unwrap_or(Value::Null)
}

/// The header and row cells a request prints for a kind (label columns, namespace and
/// kind prefix included).
pub fn table_cells(
    req: &Request,
    kind: Kind,
    rows: &[Row],
    with_kind: bool,
) -> (Vec<String>, Vec<Vec<String>>) {
    let namespaced = req.all_namespaces && kind.namespaced();
    let mut head: Vec<String> = header(kind, req.output == Output::Wide)
        .iter()
        .map(|s| s.to_string())
        .collect();
    for l in &req.label_columns {
        head.push(l.rsplit('/').next().unwrap_or(l).to_uppercase());
    }
    if req.show_labels {
        head.push(String::from("LABELS"));
    }
    if namespaced {
        head.insert(0, String::from("NAMESPACE"));
    }
    let body = rows
        .iter()
        .map(|r| {
            let mut cells = r.cells.clone();
            if with_kind && let Some(first) = cells.first_mut() {
                *first = format!("{}/{}", kind.qualified_singular(), first);
            }
            for l in &req.label_columns {
                cells.push(r.labels.get(l).cloned().unwrap_or_default());
            }
            if req.show_labels {
                let all: Vec<String> = r.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
                cells.push(if all.is_empty() {
                    String::from("<none>")
                } else {
                    all.join(",")
                });
            }
            if namespaced {
                cells.insert(0, r.namespace.clone());
            }
            cells
        })
        .collect();
    (head, body)
}

pub fn no_resources(req: &Request, kind: Kind) -> String {
    if kind.namespaced() && !req.all_namespaces {
        format!("No resources found in {} namespace.\n", req.namespace)
    } else {
        String::from("No resources found\n")
    }
}

/// Renders a request: (output, every name found).
pub fn render(state: &State, req: &Request) -> (String, bool) {
    let mut out = String::new();
    let mut errors = String::new();
    let mut items: Vec<Value> = Vec::new();
    let with_kind = req.kinds.len() > 1;
    let mut tables = Vec::new();
    let mut any = false;
    for &kind in &req.kinds {
        let mut rows = rows(state, kind, req);
        if !req.names.is_empty() {
            let mut kept = Vec::new();
            for name in &req.names {
                match rows.iter().position(|r| &r.name == name) {
                    Some(i) => kept.push(rows.swap_remove(i)),
                    None if req.kinds.len() == 1 => errors.push_str(&not_found(kind, name)),
                    None => {}
                }
            }
            rows = kept;
        }
        if rows.is_empty() {
            continue;
        }
        any = true;
        match req.output {
            Output::Name => {
                for r in &rows {
                    out.push_str(&format!("{}/{}\n", kind.qualified_singular(), r.name));
                }
            }
            Output::Yaml | Output::Json => items.extend(rows.iter().map(|r| value(state, r))),
            Output::Table | Output::Wide => {
                let (head, body) = table_cells(req, kind, &rows, with_kind);
                let mut all = Vec::new();
                if !req.no_headers {
                    all.push(head);
                }
                all.extend(body);
                tables.push(tabulate(&all));
            }
        }
    }
    match req.output {
        Output::Yaml | Output::Json if !items.is_empty() => {
            let single = items.len() == 1 && !req.names.is_empty() && req.kinds.len() == 1;
            let v = if single {
                items.remove(0)
            } else {
                crate::yaml::list(items)
            };
            out.push_str(&if req.output == Output::Yaml {
                crate::yaml::render(&v)
            } else {
                crate::yaml::render_json(&v)
            });
        }
        _ => out.push_str(&tables.join("\n")),
    }
    let ok = errors.is_empty() || (any && req.names.is_empty());
    let ok = ok && !errors.starts_with("Error");
    // kubectl says so on stderr and still exits 0: an empty list is an answer, not a failure.
    if !any && req.names.is_empty() {
        let kind = req.kinds.first().copied().unwrap_or(Kind::Pod);
        errors.push_str(&no_resources(req, kind));
    }
    (out + &errors, ok)
}

/// The watch's starting point.
pub fn watched_rows(state: &State, req: &Request) -> Vec<Row> {
    let mut all = Vec::new();
    for &kind in &req.kinds {
        let mut rows = rows(state, kind, req);
        if !req.names.is_empty() {
            rows.retain(|r| req.names.contains(&r.name));
        }
        all.extend(rows);
    }
    all
}

/// Which cell of a kind's row is its AGE (it changes every second, not with the object).
pub fn age_index(req: &Request, kind: Kind) -> Option<usize> {
    let h = header(kind, req.output == Output::Wide);
    h.iter().position(|c| *c == "AGE")
}

pub fn now_of(state: &State) -> Millis {
    state.now
}

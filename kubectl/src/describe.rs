//! `kubectl describe`: kubectl's own describers for nodes and pods (k8s.io/kubectl
//! pkg/describe: `describeNode`, `describePod`), its generic describer for the Karpenter
//! kinds and the workloads (`printUnstructuredContent` over the object), and
//! `DescribeEvents` over the engine's events (plus the kubelet's and the node controller's,
//! which a real cluster would show at the same moments).

use kpg_core::model::Millis;
use kpg_core::pod::{Phase, Pod};
use kpg_core::resources::ResourceName;
use kpg_core::sim::{Event, EventKind, Node};
use kpg_core::taints::TolerationOperator;
use serde_json::Value;

use crate::Reply;
use crate::args::Args;
use crate::format::{self, human_duration, rfc1123z, tabwriter};
use crate::get::{not_found, parse_targets};
use crate::kinds::Kind;
use crate::objects;
use crate::state::{self, State};

/// kubectl's prefix writer over a tab-writer buffer: `LEVEL_n` indents by two spaces a
/// level; `flush` aligns what has been written so far on its own (describe flushes before
/// the events table).
struct Writer {
    done: String,
    text: String,
}

impl Writer {
    fn new() -> Writer {
        Writer {
            done: String::new(),
            text: String::new(),
        }
    }

    fn w(&mut self, level: usize, s: &str) {
        for _ in 0..level {
            self.text.push_str("  ");
        }
        self.text.push_str(s);
    }

    fn flush(&mut self) {
        self.done.push_str(&tabwriter(&self.text, 0, 2));
        self.text.clear();
    }

    fn finish(mut self) -> String {
        self.flush();
        self.done
    }

    fn labels(&mut self, title: &str, labels: &kpg_core::model::StringMap) {
        self.w(0, &format!("{title}:\t"));
        if labels.is_empty() {
            self.text.push_str("<none>\n");
            return;
        }
        for (i, (k, v)) in labels.iter().enumerate() {
            if i > 0 {
                self.text.push('\t');
            }
            self.text.push_str(&format!("{k}={v}\n"));
        }
    }

    fn annotations(&mut self, annotations: &kpg_core::model::StringMap) {
        self.w(0, "Annotations:\t");
        if annotations.is_empty() {
            self.text.push_str("<none>\n");
            return;
        }
        for (i, (k, v)) in annotations.iter().enumerate() {
            if i > 0 {
                self.text.push('\t');
            }
            let v = v.trim_end_matches('\n');
            if v.len() + k.len() + 2 > 140 || v.contains('\n') {
                self.text.push_str(&format!("{k}:\n"));
                for line in v.split('\n') {
                    let short = if line.len() > 138 {
                        format!("{}...", line.get(..138).unwrap_or(line))
                    } else {
                        line.to_string()
                    };
                    self.text.push_str(&format!("\t  {short}\n"));
                }
            } else {
                self.text.push_str(&format!("{k}: {v}\n"));
            }
        }
    }
}

/// One event row.
struct Ev {
    time: Millis,
    warning: bool,
    reason: &'static str,
    from: String,
    message: String,
}

impl Ev {
    /// The engine's event as `from` published it.
    fn of(e: &Event, from: impl Into<String>) -> Ev {
        Ev {
            time: e.time,
            warning: e.kind.warning(),
            reason: e.kind.reason(),
            from: from.into(),
            message: e.kind.to_string(),
        }
    }
}

fn events_section(w: &mut Writer, mut events: Vec<Ev>, now: Millis) {
    if events.is_empty() {
        w.w(0, "Events:\t<none>\n");
        return;
    }
    w.flush();
    crate::order::by_number(&mut events, |e| e.time);
    // The event recorder aggregates repeats of one event into a count.
    let mut merged: Vec<(Ev, u32, Millis)> = Vec::new();
    for e in events {
        if let Some(m) = merged.iter_mut().find(|(m, _, _)| {
            m.reason == e.reason
                && m.message == e.message
                && m.from == e.from
                && m.warning == e.warning
        }) {
            m.1 += 1;
            m.2 = e.time;
            continue;
        }
        let t = e.time;
        merged.push((e, 1, t));
    }
    crate::order::by_number(&mut merged, |(_, _, last)| *last);
    w.w(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n");
    w.w(1, "----\t------\t----\t----\t-------\n");
    for (e, count, last) in merged {
        let first = human_duration(now.saturating_sub(e.time));
        let age = if count > 1 {
            format!(
                "{} (x{count} over {first})",
                human_duration(now.saturating_sub(last))
            )
        } else {
            first
        };
        let kind = if e.warning { "Warning" } else { "Normal" };
        w.w(
            1,
            &format!(
                "{kind}\t{}\t{age}\t{}\t{}\n",
                e.reason,
                e.from,
                e.message.trim()
            ),
        );
    }
}

fn engine_events(
    state: &State,
    object: &str,
    from: impl Fn(&EventKind) -> &'static str,
) -> Vec<Ev> {
    state
        .events_of(object)
        .into_iter()
        .map(|e| Ev::of(e, from(&e.kind)))
        .collect()
}

pub fn run(state: &State, args: &Args) -> Reply {
    let (kinds, names) = match parse_targets(&args.positional) {
        Ok(t) => t,
        Err(e) => {
            return Reply {
                output: e
                    .replace("kubectl get -h", "kubectl describe -h")
                    .replace("type of resource to get", "type of resource to describe"),
                ok: false,
                ..Reply::default()
            };
        }
    };
    let namespace = crate::get::namespace_of(args);
    let mut outputs: Vec<String> = Vec::new();
    let mut errors = String::new();
    for kind in kinds {
        let mut req = match crate::get::request(args) {
            Ok(r) => r,
            Err(e) => {
                return Reply {
                    output: e,
                    ok: false,
                    ..Reply::default()
                };
            }
        };
        req.kinds = vec![kind];
        req.output = crate::get::Output::Name;
        let rows = crate::get::rows(state, kind, &req);
        let mut chosen: Vec<(String, String)> = Vec::new();
        if names.is_empty() {
            chosen = rows
                .iter()
                .map(|r| (r.namespace.clone(), r.name.clone()))
                .collect();
        }
        for name in &names {
            if let Some(r) = rows.iter().find(|r| &r.name == name) {
                chosen.push((r.namespace.clone(), r.name.clone()));
                continue;
            }
            // kubectl describe falls back to every object whose name starts with NAME.
            let prefixed: Vec<(String, String)> = rows
                .iter()
                .filter(|r| r.name.starts_with(name.as_str()))
                .map(|r| (r.namespace.clone(), r.name.clone()))
                .collect();
            if prefixed.is_empty() {
                errors.push_str(&not_found(kind, name));
            }
            chosen.extend(prefixed);
        }
        for (ns, name) in chosen {
            let ns = if ns.is_empty() { namespace.clone() } else { ns };
            if let Some(text) = describe(state, kind, &ns, &name) {
                outputs.push(text);
            }
        }
    }
    let ok = errors.is_empty();
    let mut output = outputs.join("\n\n");
    if output.is_empty() && errors.is_empty() {
        output = String::from("No resources found\n");
    }
    output.push_str(&errors);
    Reply {
        output,
        ok,
        ..Reply::default()
    }
}

pub fn describe(state: &State, kind: Kind, namespace: &str, name: &str) -> Option<String> {
    match kind {
        Kind::Node => state.node(name).map(|n| node(state, n)),
        Kind::Pod => state.pod(namespace, name).map(|p| pod(state, p)),
        Kind::NodeClaim => {
            let n = state.claim(name)?;
            let v = objects::nodeclaim(state, n);
            Some(generic(
                state,
                &v,
                engine_events(state, &format!("NodeClaim/{name}"), |_| "karpenter"),
            ))
        }
        Kind::NodePool => {
            let v = objects::nodepool(state, name)?;
            Some(generic(
                state,
                &v,
                engine_events(state, &format!("NodePool/{name}"), |_| "karpenter"),
            ))
        }
        Kind::EC2NodeClass => {
            let d = state.declared("EC2NodeClass", "", name)?;
            let v = objects::nodeclass(state, d);
            Some(generic(
                state,
                &v,
                engine_events(state, &format!("EC2NodeClass/{name}"), |_| "karpenter"),
            ))
        }
        Kind::Unsimulated(_) | Kind::Namespace => None,
        other => {
            let d = state.declared(other.kind(), namespace, name)?;
            let v = objects::workload(state, d);
            let from = match other {
                Kind::Deployment => "deployment-controller",
                Kind::Job => "job-controller",
                Kind::StatefulSet => "statefulset-controller",
                Kind::DaemonSet => "daemonset-controller",
                _ => "controllermanager",
            };
            Some(generic(
                state,
                &v,
                engine_events(
                    state,
                    &format!("{}/{namespace}/{name}", other.kind()),
                    |_| from,
                ),
            ))
        }
    }
}

fn value_map(v: Option<&Value>) -> kpg_core::model::StringMap {
    v.and_then(Value::as_object)
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

/// kubectl's `genericDescriber`.
fn generic(state: &State, v: &Value, events: Vec<Ev>) -> String {
    let mut w = Writer::new();
    let meta = v.get("metadata");
    w.w(
        0,
        &format!(
            "Name:\t{}\n",
            meta.and_then(|m| m.get("name"))
                .and_then(Value::as_str)
                .unwrap_or_default()
        ),
    );
    w.w(
        0,
        &format!(
            "Namespace:\t{}\n",
            meta.and_then(|m| m.get("namespace"))
                .and_then(Value::as_str)
                .unwrap_or_default()
        ),
    );
    w.labels("Labels", &value_map(meta.and_then(|m| m.get("labels"))));
    w.annotations(&value_map(meta.and_then(|m| m.get("annotations"))));
    if let Some(obj) = v.as_object() {
        unstructured(
            &mut w,
            0,
            obj,
            "",
            &[
                ".metadata.managedFields",
                ".metadata.name",
                ".metadata.namespace",
                ".metadata.labels",
                ".metadata.annotations",
            ],
        );
    }
    events_section(&mut w, events, state.now);
    w.finish()
}

fn go_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::from("<nil>"),
        other => other.to_string(),
    }
}

fn unstructured(
    w: &mut Writer,
    level: usize,
    content: &serde_json::Map<String, Value>,
    prefix: &str,
    skip: &[&str],
) {
    let mut fields: Vec<&String> = content.keys().collect();
    fields.sort();
    for field in fields {
        let Some(value) = content.get(field) else {
            continue;
        };
        let path = format!("{prefix}.{field}");
        if skip.contains(&path.as_str()) {
            continue;
        }
        match value {
            Value::Object(m) => {
                w.w(level, &format!("{}:\n", smart_label(field)));
                unstructured(w, level + 1, m, &path, skip);
            }
            Value::Array(items) => {
                w.w(level, &format!("{}:\n", smart_label(field)));
                for item in items {
                    match item {
                        Value::Object(m) => unstructured(w, level + 1, m, &path, skip),
                        other => w.w(level + 1, &format!("{}\n", go_value(other))),
                    }
                }
            }
            other => w.w(
                level,
                &format!("{}:\t{}\n", smart_label(field), go_value(other)),
            ),
        }
    }
}

/// fatih/camelcase's split: runs of one character class, an upper-case run's last letter
/// moving to a following lower-case run (`HTMLFile` → `HTML`, `File`).
fn camel_split(s: &str) -> Vec<String> {
    fn class(c: char) -> u8 {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_ascii_digit() {
            3
        } else {
            4
        }
    }
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in s.chars() {
        let k = class(c);
        match runs.last_mut() {
            Some(r) if k == last => r.push(c),
            _ => runs.push(vec![c]),
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        let upper = runs[i].first().is_some_and(|c| c.is_uppercase());
        let lower_next = runs[i + 1].first().is_some_and(|c| c.is_lowercase());
        if upper
            && lower_next
            && let Some(c) = runs[i].pop()
        {
            runs[i + 1].insert(0, c);
        }
    }
    runs.into_iter()
        .filter(|r| !r.is_empty())
        .map(|r| r.into_iter().collect())
        .collect()
}

/// kubectl's `smartLabelFor`: `apiVersion` → `API Version`, `imageID` → `Image ID`.
fn smart_label(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    let parts = camel_split(field);
    let mut merged: Vec<String> = Vec::new();
    let mut i = 0;
    while i < parts.len() {
        let part = &parts[i];
        if let Some(next) = parts.get(i + 1)
            && part.len() >= 2
            && part.chars().all(|c| !c.is_alphabetic() || c.is_uppercase())
            && next.chars().next().is_some_and(char::is_uppercase)
        {
            merged.push(format!("{part}{next}"));
            i += 2;
            continue;
        }
        merged.push(part.clone());
        i += 1;
    }
    let out: Vec<String> = merged
        .into_iter()
        .filter(|p| p != "_")
        .map(|p| {
            if ["API", "URL", "UID", "GUID"].contains(&p.to_uppercase().as_str()) {
                p.to_uppercase()
            } else if p.to_lowercase() == p {
                let mut c = p.chars();
                match c.next() {
                    Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                    None => p,
                }
            } else {
                p
            }
        })
        .collect();
    out.join(" ")
}

fn karpenter_node_events(state: &State, n: &Node) -> Vec<Ev> {
    let mut events = Vec::new();
    let claim_events = n
        .nodeclaim
        .as_ref()
        .map(|c| state.events_of(&format!("NodeClaim/{c}")))
        .unwrap_or_default();
    let registered = if n.nodeclaim.is_some() {
        claim_events
            .iter()
            .find(|e| matches!(e.kind, EventKind::Registered { .. }))
            .map(|e| e.time)
    } else {
        Some(n.created_at)
    };
    let ready = if n.nodeclaim.is_some() {
        claim_events
            .iter()
            .find(|e| matches!(e.kind, EventKind::Initialized { .. }))
            .map(|e| e.time)
    } else {
        Some(n.created_at)
    };
    if let Some(t) = registered {
        events.push(Ev {
            time: t,
            warning: false,
            reason: "Starting",
            from: "kubelet".into(),
            message: "Starting kubelet.".into(),
        });
        events.push(Ev {
            time: t,
            warning: false,
            reason: "RegisteredNode",
            from: "node-controller".into(),
            message: format!("Node {0} event: Registered Node {0} in Controller", n.name),
        });
    }
    if let Some(t) = ready {
        events.push(Ev {
            time: t,
            warning: false,
            reason: "NodeReady",
            from: "kubelet".into(),
            message: format!("Node {} status is now: NodeReady", n.name),
        });
    }
    // Karpenter publishes its disruption events on the Node as well as the NodeClaim.
    for e in claim_events {
        if matches!(
            e.kind,
            EventKind::Created { .. }
                | EventKind::Launched { .. }
                | EventKind::Registered { .. }
                | EventKind::Initialized { .. }
                | EventKind::DisruptionLaunching { .. }
        ) {
            continue;
        }
        events.push(Ev::of(e, "karpenter"));
    }
    // The engine's own events on the Node: cordon and uncordon (the kubelet's words), spot
    // interruption warnings (Karpenter's).
    for e in state.events_of(&format!("Node/{}", n.name)) {
        let from = match e.kind {
            EventKind::Cordoned { .. } => "kubelet",
            _ => "karpenter",
        };
        events.push(Ev::of(e, from));
    }
    events
}

fn node(state: &State, n: &Node) -> String {
    let mut w = Writer::new();
    let v = objects::node(state, n);
    w.w(0, &format!("Name:\t{}\n", n.name));
    w.w(0, "Roles:\t<none>\n");
    w.labels("Labels", &n.labels);
    w.annotations(&value_map(v.pointer("/metadata/annotations")));
    w.w(
        0,
        &format!("CreationTimestamp:\t{}\n", rfc1123z(n.created_at)),
    );
    let mut taints: Vec<&kpg_core::taints::Taint> =
        n.taints.iter().chain(n.startup_taints.iter()).collect();
    crate::order::by_text(&mut taints, |t| {
        crate::order::key(&[t.effect.as_str(), &t.key])
    });
    w.w(0, "Taints:\t");
    if taints.is_empty() {
        w.text.push_str("<none>\n");
    }
    for (i, t) in taints.iter().enumerate() {
        if i > 0 {
            w.text.push('\t');
        }
        w.text.push_str(&format!("{t}\n"));
    }
    w.w(0, &format!("Unschedulable:\t{}\n", state::cordoned(n)));
    w.w(0, "Lease:\n");
    w.w(1, &format!("HolderIdentity:\t{}\n", n.name));
    w.w(1, "AcquireTime:\t<unset>\n");
    w.w(1, &format!("RenewTime:\t{}\n", rfc1123z(state.now)));
    w.w(
        0,
        "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n",
    );
    w.w(
        1,
        "----\t------\t-----------------\t------------------\t------\t-------\n",
    );
    for c in v
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let s = |k: &str| {
            c.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        let at = kpg_core::duration::parse("0s").unwrap_or(0);
        let _ = at;
        let transition = if s("type") == "Ready" {
            n.initialized_at
                .filter(|_| state::node_ready(n))
                .unwrap_or(n.created_at)
        } else {
            n.created_at
        };
        w.w(
            1,
            &format!(
                "{} \t{} \t{} \t{} \t{} \t{}\n",
                s("type"),
                s("status"),
                rfc1123z(state.now),
                rfc1123z(transition),
                s("reason"),
                s("message")
            ),
        );
    }
    w.w(0, "Addresses:\n");
    w.w(1, &format!("InternalIP:\t{}\n", format::node_ip(&n.name)));
    w.w(1, &format!("Hostname:\t{}\n", n.name));
    let names = objects::node_resources(n);
    let mut shown: Vec<(String, i64, i64)> = names
        .iter()
        .map(|&r| {
            (
                r.as_str().to_string(),
                n.capacity.get(r),
                n.allocatable.get(r),
            )
        })
        .collect();
    shown.push((String::from("hugepages-1Gi"), 0, 0));
    shown.push((String::from("hugepages-2Mi"), 0, 0));
    shown.sort();
    w.w(0, "Capacity:\n");
    for (name, cap, _) in &shown {
        let r = ResourceName::parse(name);
        let value = if name.starts_with("hugepages") {
            String::from("0")
        } else {
            format::quantity(r, *cap)
        };
        w.w(0, &format!("  {name}:\t{value}\n"));
    }
    w.w(0, "Allocatable:\n");
    for (name, _, alloc) in &shown {
        let r = ResourceName::parse(name);
        let value = if name.starts_with("hugepages") {
            String::from("0")
        } else {
            format::quantity(r, *alloc)
        };
        w.w(0, &format!("  {name}:\t{value}\n"));
    }
    let (os, kernel, runtime) = objects::node_info(state, n);
    w.w(0, "System Info:\n");
    w.w(
        0,
        &format!(
            "  Machine ID:\tec2{:08x}{:08x}{:08x}{:08x}\n",
            format::fnv1a(&n.name),
            format::fnv1a("m"),
            format::fnv1a(&format!("{}m", n.name)),
            format::fnv1a(&format!("m{}", n.name))
        ),
    );
    w.w(
        0,
        &format!(
            "  System UUID:\t{}\n",
            format::uuid(&format!("system/{}", n.name))
        ),
    );
    w.w(
        0,
        &format!(
            "  Boot ID:\t{}\n",
            format::uuid(&format!("boot/{}", n.name))
        ),
    );
    w.w(0, &format!("  Kernel Version:\t{kernel}\n"));
    w.w(0, &format!("  OS Image:\t{os}\n"));
    w.w(
        0,
        &format!(
            "  Operating System:\t{}\n",
            n.labels
                .get("kubernetes.io/os")
                .map_or("linux", String::as_str)
        ),
    );
    w.w(0, &format!("  Architecture:\t{}\n", n.arch));
    w.w(0, &format!("  Container Runtime Version:\t{runtime}\n"));
    w.w(
        0,
        &format!("  Kubelet Version:\t{}\n", format::NODE_VERSION),
    );
    w.w(
        0,
        &format!("ProviderID:\t{}\n", format::provider_id(&n.zone, &n.name)),
    );
    let pods = state.pods_on(n);
    w.w(
        0,
        &format!("Non-terminated Pods:\t({} in total)\n", pods.len()),
    );
    w.w(
        1,
        "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n",
    );
    w.w(
        1,
        "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n",
    );
    let alloc_cpu = n.allocatable.get(ResourceName::Cpu);
    let alloc_mem = n.allocatable.get(ResourceName::Memory);
    let pct = |v: i64, of: i64| {
        if of == 0 {
            0
        } else {
            v.saturating_mul(100) / of
        }
    };
    let (mut cr, mut cl, mut mr, mut ml) = (0i64, 0i64, 0i64, 0i64);
    for p in &pods {
        let req = p.requests;
        let lim = limits_of(p);
        cr += req.get(ResourceName::Cpu);
        mr += req.get(ResourceName::Memory);
        cl += lim.get(ResourceName::Cpu);
        ml += lim.get(ResourceName::Memory);
        w.w(
            1,
            &format!(
                "{}\t{}\t\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}\n",
                p.namespace,
                p.name,
                format::quantity(ResourceName::Cpu, req.get(ResourceName::Cpu)),
                pct(req.get(ResourceName::Cpu), alloc_cpu),
                format::quantity(ResourceName::Cpu, lim.get(ResourceName::Cpu)),
                pct(lim.get(ResourceName::Cpu), alloc_cpu),
                format::quantity(ResourceName::Memory, req.get(ResourceName::Memory)),
                pct(req.get(ResourceName::Memory), alloc_mem),
                format::quantity(ResourceName::Memory, lim.get(ResourceName::Memory)),
                pct(lim.get(ResourceName::Memory), alloc_mem),
                human_duration(state.now.saturating_sub(p.created_at)),
            ),
        );
    }
    w.w(
        0,
        "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n",
    );
    w.w(1, "Resource\tRequests\tLimits\n");
    w.w(1, "--------\t--------\t------\n");
    w.w(
        1,
        &format!(
            "cpu\t{} ({}%)\t{} ({}%)\n",
            format::quantity(ResourceName::Cpu, cr),
            pct(cr, alloc_cpu),
            format::quantity(ResourceName::Cpu, cl),
            pct(cl, alloc_cpu)
        ),
    );
    w.w(
        1,
        &format!(
            "memory\t{} ({}%)\t{} ({}%)\n",
            format::quantity(ResourceName::Memory, mr),
            pct(mr, alloc_mem),
            format::quantity(ResourceName::Memory, ml),
            pct(ml, alloc_mem)
        ),
    );
    w.w(1, "ephemeral-storage\t0 (0%)\t0 (0%)\n");
    w.w(1, "hugepages-1Gi\t0 (0%)\t0 (0%)\n");
    w.w(1, "hugepages-2Mi\t0 (0%)\t0 (0%)\n");
    for (name, _, _) in &shown {
        let r = ResourceName::parse(name);
        if !["cpu", "memory", "ephemeral-storage", "pods"].contains(&name.as_str())
            && !name.starts_with("hugepages")
        {
            let used: i64 = pods.iter().map(|p| p.requests.get(r)).sum();
            w.w(1, &format!("{name}\t{used}\t{used}\n"));
        }
    }
    events_section(&mut w, karpenter_node_events(state, n), state.now);
    w.finish()
}

fn limits_of(p: &Pod) -> kpg_core::resources::Resources {
    let mut total = kpg_core::resources::Resources::ZERO;
    for c in &p.spec.containers {
        total += c.limits;
    }
    total
}

fn pod(state: &State, p: &Pod) -> String {
    let mut w = Writer::new();
    let bound = p.node.is_some();
    let node = p.node.and_then(|n| state.sim.nodes().get(n));
    w.w(0, &format!("Name:\t{}\n", p.name));
    w.w(0, &format!("Namespace:\t{}\n", p.namespace));
    w.w(0, &format!("Priority:\t{}\n", p.spec.priority));
    if let Some(pc) = &p.spec.priority_class_name {
        w.w(0, &format!("Priority Class Name:\t{pc}\n"));
    }
    w.w(0, "Service Account:\tdefault\n");
    match node {
        Some(n) => w.w(
            0,
            &format!("Node:\t{}/{}\n", n.name, format::node_ip(&n.name)),
        ),
        None => w.w(0, "Node:\t<none>\n"),
    }
    let started = p.started_at.unwrap_or(p.created_at);
    if bound {
        w.w(0, &format!("Start Time:\t{}\n", rfc1123z(started)));
    }
    w.labels("Labels", &objects::pod_labels(p));
    w.annotations(&p.annotations);
    w.w(0, &format!("Status:\t{}\n", p.phase.as_str()));
    let has_ip = bound && p.phase != Phase::Pending;
    let ip = if has_ip {
        format::pod_ip(&p.namespace, &p.name)
    } else {
        String::new()
    };
    w.w(0, &format!("IP:\t{ip}\n"));
    if has_ip {
        w.w(0, "IPs:\n");
        w.w(1, &format!("IP:\t{ip}\n"));
    } else {
        w.w(0, "IPs:\t<none>\n");
    }
    if let Some((kind, name)) = objects::controller(p) {
        w.w(0, &format!("Controlled By:\t{kind}/{name}\n"));
    }
    let api = format!(
        "kube-api-access-{}",
        &format!("{:05x}", format::fnv1a(&p.name) & 0xfffff)
            .chars()
            .map(|c| if c.is_ascii_digit() {
                ((c as u8 - b'0') + b'b') as char
            } else {
                c
            })
            .collect::<String>()
    );
    let containers = |w: &mut Writer, label: &str, list: &[kpg_core::model::Container]| {
        w.w(
            0,
            &format!("{label}:{}\n", if list.is_empty() { " <none>" } else { "" }),
        );
        for c in list {
            w.w(1, &format!("{}:\n", c.name));
            let image = state.image(p, &c.name).unwrap_or_default();
            if bound {
                w.w(
                    2,
                    &format!(
                        "Container ID:\t\
                         containerd://{:08x}{:08x}{:08x}{:08x}{:08x}{:08x}{:08x}{:08x}\n",
                        format::fnv1a(&p.name),
                        format::fnv1a(&c.name),
                        format::fnv1a(&format!("{}a", p.name)),
                        format::fnv1a(&format!("{}b", p.name)),
                        format::fnv1a(&format!("{}c", p.name)),
                        format::fnv1a(&format!("{}d", p.name)),
                        format::fnv1a(&format!("{}e", p.name)),
                        format::fnv1a(&format!("{}f", p.name))
                    ),
                );
            }
            w.w(2, &format!("Image:\t{image}\n"));
            if bound {
                let repo = if image.contains('/') {
                    format!("docker.io/{image}")
                } else {
                    format!("docker.io/library/{image}")
                };
                let repo = repo.split(':').next().unwrap_or(&repo).to_string();
                w.w(
                    2,
                    &format!(
                        "Image ID:\t\
                         {repo}@sha256:{:08x}{:08x}{:08x}{:08x}{:08x}{:08x}{:08x}{:08x}\n",
                        format::fnv1a(&image),
                        format::fnv1a(&format!("{image}1")),
                        format::fnv1a(&format!("{image}2")),
                        format::fnv1a(&format!("{image}3")),
                        format::fnv1a(&format!("{image}4")),
                        format::fnv1a(&format!("{image}5")),
                        format::fnv1a(&format!("{image}6")),
                        format::fnv1a(&format!("{image}7"))
                    ),
                );
            }
            let ports: Vec<String> = c
                .host_ports
                .iter()
                .map(|h| format!("{}/{}", h.port, h.protocol))
                .collect();
            if ports.len() > 1 {
                w.w(2, &format!("Ports:\t{}\n", ports.join(", ")));
                w.w(2, &format!("Host Ports:\t{}\n", ports.join(", ")));
            } else {
                w.w(
                    2,
                    &format!(
                        "Port:\t{}\n",
                        ports
                            .first()
                            .cloned()
                            .unwrap_or_else(|| String::from("<none>"))
                    ),
                );
                w.w(
                    2,
                    &format!(
                        "Host Port:\t{}\n",
                        ports
                            .first()
                            .cloned()
                            .unwrap_or_else(|| String::from("<none>"))
                    ),
                );
            }
            if !c.command.is_empty() {
                w.w(2, "Command:\n");
                for s in &c.command {
                    for line in s.split('\n') {
                        w.w(3, &format!("{line}\n"));
                    }
                }
            }
            if !c.args.is_empty() {
                w.w(2, "Args:\n");
                for s in &c.args {
                    for line in s.split('\n') {
                        w.w(3, &format!("{line}\n"));
                    }
                }
            }
            if bound {
                match p.phase {
                    Phase::Running => {
                        w.w(2, "State:\tRunning\n");
                        w.w(3, &format!("Started:\t{}\n", rfc1123z(started)));
                    }
                    Phase::Succeeded | Phase::Failed => {
                        let ok = p.phase == Phase::Succeeded;
                        w.w(2, "State:\tTerminated\n");
                        w.w(
                            3,
                            &format!("Reason:\t{}\n", if ok { "Completed" } else { "Error" }),
                        );
                        w.w(3, &format!("Exit Code:\t{}\n", if ok { 0 } else { 1 }));
                        w.w(3, &format!("Started:\t{}\n", rfc1123z(started)));
                        w.w(
                            3,
                            &format!(
                                "Finished:\t{}\n",
                                rfc1123z(started + p.runtime.unwrap_or(0))
                            ),
                        );
                    }
                    Phase::Pending => {
                        w.w(2, "State:\tWaiting\n");
                        w.w(3, "Reason:\tContainerCreating\n");
                    }
                }
                w.w(
                    2,
                    &format!(
                        "Ready:\t{}\n",
                        if p.phase == Phase::Running {
                            "True"
                        } else {
                            "False"
                        }
                    ),
                );
                w.w(2, "Restart Count:\t0\n");
            }
            let res = |w: &mut Writer, title: &str, r: &kpg_core::resources::Resources| {
                let items: Vec<(ResourceName, i64)> =
                    r.iter().filter(|(n, _)| *n != ResourceName::Pods).collect();
                if items.is_empty() {
                    return;
                }
                w.w(2, &format!("{title}:\n"));
                let mut items = items;
                crate::order::by_text(&mut items, |(n, _)| n.as_str().to_string());
                for (n, v) in items {
                    w.w(3, &format!("{}:\t{}\n", n.as_str(), format::quantity(n, v)));
                }
            };
            res(w, "Limits", &c.limits);
            res(w, "Requests", &c.requests);
            w.w(2, "Environment:\t<none>\n");
            w.w(2, "Mounts:\n");
            w.w(
                3,
                &format!("/var/run/secrets/kubernetes.io/serviceaccount from {api} (ro)\n"),
            );
        }
    };
    if !p.spec.init_containers.is_empty() {
        containers(&mut w, "Init Containers", &p.spec.init_containers);
    }
    containers(&mut w, "Containers", &p.spec.containers);
    w.w(0, "Conditions:\n  Type\tStatus\n");
    if bound {
        let running = p.phase == Phase::Running;
        let t = |b: bool| if b { "True" } else { "False" };
        for (kind, status) in [
            ("PodReadyToStartContainers", t(p.phase != Phase::Pending)),
            ("Initialized", "True"),
            ("Ready", t(running)),
            ("ContainersReady", t(running)),
            ("PodScheduled", "True"),
        ] {
            w.w(1, &format!("{kind} \t{status} \n"));
        }
    } else {
        w.w(1, "PodScheduled \tFalse \n");
    }
    w.w(0, "Volumes:\n");
    w.w(1, &format!("{api}:\n"));
    w.w(
        2,
        "Type:\tProjected (a volume that contains injected data from multiple sources)\n",
    );
    w.w(2, "TokenExpirationSeconds:\t3607\n");
    w.w(2, "ConfigMapName:\tkube-root-ca.crt\n");
    w.w(2, "Optional:\tfalse\n");
    w.w(2, "DownwardAPI:\ttrue\n");
    w.w(0, &format!("QoS Class:\t{}\n", objects::qos_class(p)));
    w.labels("Node-Selectors", &p.spec.node_selector);
    let mut tolerations: Vec<(String, String)> = p
        .spec
        .tolerations
        .iter()
        .map(|t| {
            let mut s = t.key.clone();
            if !t.value.is_empty() {
                s.push_str(&format!("={}", t.value));
            }
            if let Some(e) = t.effect {
                s.push_str(&format!(":{}", e.as_str()));
            }
            if t.operator == TolerationOperator::Exists && t.value.is_empty() {
                s.push_str(if t.key.is_empty() && t.effect.is_none() {
                    "op=Exists"
                } else {
                    " op=Exists"
                });
            }
            (t.key.clone(), s)
        })
        .collect();
    // The DefaultTolerationSeconds admission plugin adds these to every pod.
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        if !tolerations.iter().any(|(k, _)| k == key) {
            tolerations.push((
                key.to_string(),
                format!("{key}:NoExecute op=Exists for 300s"),
            ));
        }
    }
    crate::order::by_text(&mut tolerations, |t| t.0.clone());
    w.w(0, "Tolerations:\t");
    for (i, (_, t)) in tolerations.iter().enumerate() {
        if i > 0 {
            w.text.push('\t');
        }
        w.text.push_str(&format!("{t}\n"));
    }
    // kube-scheduler's binding, the kubelet's stop, Karpenter's nominations and failures (a
    // pod's completion is not shown).
    let object = format!("Pod/{}/{}", p.namespace, p.name);
    let mut events: Vec<Ev> = state
        .events_of(&object)
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Scheduled { .. } | EventKind::Preempted { .. } => {
                Some(Ev::of(e, "default-scheduler"))
            }
            EventKind::PodCompleted { .. } => None,
            EventKind::Killing { .. } => Some(Ev::of(e, "kubelet")),
            _ => Some(Ev::of(e, "karpenter")),
        })
        .collect();
    // kube-scheduler's own FailedScheduling for a pod it could not place (the engine keeps
    // its summary on the pod rather than as an event).
    if !bound
        && let Some(msg) = &p.scheduler_message
        && !events
            .iter()
            .any(|e| e.from == "default-scheduler" && e.reason == "FailedScheduling")
    {
        let index = state.sim.pods().iter().position(|q| std::ptr::eq(q, p));
        let at = index
            .and_then(|i| state.sim.evidence().scheduling(i))
            .map_or(p.created_at, |r| r.at);
        events.push(Ev {
            time: at,
            warning: true,
            reason: "FailedScheduling",
            from: "default-scheduler".into(),
            message: msg.clone(),
        });
    }
    if let (true, Some(t)) = (bound, p.started_at) {
        for c in &p.spec.containers {
            let image = state.image(p, &c.name).unwrap_or_default();
            events.push(Ev {
                time: t,
                warning: false,
                reason: "Pulling",
                from: "kubelet".into(),
                message: format!("Pulling image \"{image}\""),
            });
            events.push(Ev {
                time: t,
                warning: false,
                reason: "Pulled",
                from: "kubelet".into(),
                message: format!(
                    "Successfully pulled image \"{image}\" in 1.2s (1.2s including waiting). Image \
                     size: 2155458 bytes."
                ),
            });
            events.push(Ev {
                time: t,
                warning: false,
                reason: "Created",
                from: "kubelet".into(),
                message: format!("Created container: {}", c.name),
            });
            events.push(Ev {
                time: t,
                warning: false,
                reason: "Started",
                from: "kubelet".into(),
                message: format!("Started container {}", c.name),
            });
        }
    }
    events_section(&mut w, events, state.now);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_labels() {
        assert_eq!(smart_label("apiVersion"), "API Version");
        assert_eq!(smart_label("imageID"), "Image ID");
        assert_eq!(smart_label("providerID"), "Provider ID");
        assert_eq!(smart_label("nodeClassRef"), "Node Class Ref");
        assert_eq!(smart_label("amiSelectorTerms"), "Ami Selector Terms");
        assert_eq!(
            smart_label("karpenter.sh/discovery"),
            "karpenter.sh/discovery"
        );
        assert_eq!(smart_label("uid"), "UID");
        assert_eq!(smart_label("expireAfter"), "Expire After");
    }
}

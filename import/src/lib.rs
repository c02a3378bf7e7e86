//! `kpg import`: a snapshot of a live cluster (what `kubectl get … -o yaml` printed), read by
//! `kpg_manifests::load`, printed back as a minimal, readable scenario that simulates the
//! same, and that can go into a share link, an upstream issue or a repository.
//!
//! What it keeps is what the engine reads, and nothing else:
//! - NodePools, EC2NodeClasses, NodeOverlays and the playground's own kinds as written,
//!   without `status` and with only their name, namespace, labels and Karpenter's
//!   annotations in `metadata`;
//! - each node as a `Node` (labels, taints, capacity, allocatable, its creation and the
//!   instant the snapshot was taken) and, for Karpenter's, its `NodeClaim` (the drift
//!   hashes, `expireAfter`, its last pod event);
//! - controllers rather than their pods: each workload lists the pods it had and the nodes
//!   they were on in one annotation (`playground.karpenter.dev/pods`), and its pod template
//!   keeps only what scheduling reads (resources, selectors, affinity, tolerations, spread,
//!   priority, host ports);
//! - PodDisruptionBudgets and Namespaces.
//!
//! It is redacted: no environment variables, commands, volumes, probes or any annotation but
//! Karpenter's, the pod deletion cost and the playground's own; container images only when
//! asked (`keep_images`). Keys are printed sorted, as kubectl prints them.

use kpg_core::manifest::Tree;
use kpg_core::model::{ExistingNode, Millis, Scenario, WorkloadKind};
use kpg_core::resources::Resources;
use kpg_core::wellknown as wk;
use serde_json::{Map, Value, json};

/// What `kpg import` is asked for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Keep container images (`--keep-images`); they are left out otherwise.
    pub keep_images: bool,
    /// Gather objects into `kind: List` documents (`--lists`): the nodes and their NodeClaims
    /// in one, and each namespace's workloads and budgets in one. The Cluster, the node
    /// classes and the NodePools, which a change is made to, stay documents of their own.
    /// The page imports this way: a cluster of 80 nodes and 140 Deployments is 20 tabs, not
    /// 350.
    pub lists: bool,
}

/// Whether `scenario` was read from what the API server printed (`kubectl get … -o yaml` or
/// `-o json`) rather than written by hand: some object carries the fields only the server
/// sets (`metadata.uid`, `resourceVersion`, `managedFields`). That is what [`import`]
/// shortens and redacts; a scenario someone wrote, or one `import` printed, has none of them.
pub fn is_cluster_output(scenario: &Scenario) -> bool {
    scenario.written.iter().any(|w| {
        w.tree
            .get("metadata")
            .is_some_and(|m| SERVER_SET.iter().any(|k| m.get(k).is_some()))
    })
}

/// The `metadata` fields only the API server writes, which [`is_cluster_output`] looks for.
pub const SERVER_SET: [&str; 3] = ["uid", "resourceVersion", "managedFields"];

/// The scenario a snapshot reads as, printed as a multi-document YAML stream.
pub fn import(scenario: &Scenario, options: Options) -> String {
    let taken = scenario.snapshot_time.unwrap_or(0);
    let mut docs: Vec<Value> = Vec::new();
    let order = |kind: &str| -> usize {
        match kind {
            "Cluster" => 0,
            "InstanceType" => 1,
            "CapacityReservation" => 2,
            "EC2NodeClass" => 3,
            "NodePool" => 4,
            "NodeOverlay" => 5,
            "Namespace" => 8,
            "PodDisruptionBudget" => 10,
            "Timeline" => 11,
            _ => 9,
        }
    };
    let mut written: Vec<&kpg_core::manifest::Written> = scenario
        .written
        .iter()
        .filter(|w| w.step.is_none())
        .collect();
    written.sort_by_key(|w| order(&w.kind));
    let has_cluster = written.iter().any(|w| w.kind == "Cluster");
    if !has_cluster && let Some(region) = region_of(&scenario.nodes) {
        docs.push(json!({
            "apiVersion": "playground.karpenter.dev/v1alpha1",
            "kind": "Cluster",
            "metadata": {"name": "snapshot"},
            "spec": {"region": region},
        }));
    }
    let mut nodes_done = false;
    for w in written {
        if order(&w.kind) >= 8 && !nodes_done {
            push_nodes(&mut docs, &scenario.nodes, taken);
            nodes_done = true;
        }
        let mut object = to_json(&w.tree);
        match w.kind.as_str() {
            "Pod" | "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" => {
                let existing = scenario
                    .workloads
                    .iter()
                    .find(|x| {
                        x.kind.as_str() == w.kind
                            && x.name == w.name
                            && Some(x.namespace.as_str())
                                == w.namespace.as_deref().or(Some("default"))
                    })
                    .map(|x| (x.kind, x.existing.as_slice()));
                prune_workload(&mut object, &w.kind, options);
                if let Some((kind, pods)) = existing
                    && !pods.is_empty()
                {
                    if kind == WorkloadKind::Pod {
                        if let Some(node) = &pods[0].node {
                            set(&mut object, &["spec", "nodeName"], json!(node));
                        }
                    } else {
                        // `NAME [NODE] [KEY=VALUE ...]`: the pod's own annotations that
                        // differ from its template's.
                        let template = template_annotations(&object);
                        let lines: Vec<String> = pods
                            .iter()
                            .map(|p| {
                                let mut line = p.name.clone();
                                if let Some(n) = &p.node {
                                    line.push(' ');
                                    line.push_str(n);
                                }
                                for (k, v) in &p.annotations {
                                    if template.get(k.as_str()) != Some(&json!(v)) {
                                        line.push_str(&format!(" {k}={v}"));
                                    }
                                }
                                line
                            })
                            .collect();
                        set(
                            &mut object,
                            &["metadata", "annotations", wk::EXISTING_PODS],
                            json!(lines.join("\n") + "\n"),
                        );
                    }
                }
            }
            "EC2NodeClass" => {
                // The zones of the subnets Karpenter resolved: where its nodes launch.
                let zones: Vec<Value> = object["status"]["subnets"]
                    .as_array()
                    .map(|subnets| {
                        subnets
                            .iter()
                            .filter_map(|s| s.get("zone").cloned())
                            .map(|zone| json!({ "zone": zone }))
                            .collect()
                    })
                    .unwrap_or_default();
                prune_object(&mut object);
                if !zones.is_empty() {
                    object["status"] = json!({ "subnets": zones });
                }
            }
            _ => prune_object(&mut object),
        }
        docs.push(object);
    }
    if !nodes_done {
        push_nodes(&mut docs, &scenario.nodes, taken);
    }
    if options.lists {
        docs = gather_into_lists(docs);
    }
    let mut out = String::new();
    out.push_str(&format!(
        "# A cluster snapshot taken at {}, as `kpg import` reads it: only what the\n\
         # simulation uses, redacted (no env, commands, volumes or annotations but \
         Karpenter's{}).\n",
        rfc3339(taken),
        if options.keep_images {
            ""
        } else {
            "; no images"
        }
    ));
    for (i, doc) in docs.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(&kpg_kubectl::yaml::render(doc));
    }
    out
}

/// The documents `Options::lists` asks for: the nodes in one `List`, each namespace's objects
/// in one, the rest as they were; in the order their first object came.
fn gather_into_lists(docs: Vec<Value>) -> Vec<Value> {
    const NODES: &str = "nodes";
    enum Slot {
        Alone(Value),
        List(String),
    }
    let mut slots: Vec<Slot> = Vec::new();
    let mut lists: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
    for doc in docs {
        let kind = doc["kind"].as_str().unwrap_or_default();
        let group = match kind {
            "Node" | "NodeClaim" => Some(NODES.to_string()),
            "Namespace" => doc["metadata"]["name"].as_str().map(str::to_string),
            _ => doc["metadata"]["namespace"].as_str().map(str::to_string),
        };
        match group {
            Some(group) => {
                let items = lists.entry(group.clone()).or_default();
                if items.is_empty() {
                    slots.push(Slot::List(group));
                }
                items.push(doc);
            }
            None => slots.push(Slot::Alone(doc)),
        }
    }
    slots
        .into_iter()
        .map(|slot| match slot {
            Slot::Alone(doc) => doc,
            Slot::List(name) => json!({
                "apiVersion": "v1",
                "kind": "List",
                "metadata": {"name": name},
                "items": lists.remove(&name).unwrap_or_default(),
            }),
        })
        .collect()
}

/// The region the nodes are in (`topology.kubernetes.io/region`).
fn region_of(nodes: &[ExistingNode]) -> Option<String> {
    nodes.iter().find_map(|n| n.labels.get(wk::REGION).cloned())
}

/// Each node, and its NodeClaim when it is Karpenter's.
fn push_nodes(docs: &mut Vec<Value>, nodes: &[ExistingNode], taken: i64) {
    for n in nodes {
        let mut meta = Map::new();
        meta.insert("name".into(), json!(n.name));
        meta.insert(
            "creationTimestamp".into(),
            json!(rfc3339(before(taken, n.age))),
        );
        if !n.labels.is_empty() {
            meta.insert("labels".into(), json!(n.labels));
        }
        let annotations: Map<String, Value> = n
            .annotations
            .iter()
            .filter(|(k, _)| kept_annotation(k))
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        if !annotations.is_empty() {
            meta.insert("annotations".into(), Value::Object(annotations));
        }
        let mut spec = Map::new();
        if !n.taints.is_empty() {
            let taints: Vec<Value> = n
                .taints
                .iter()
                .map(|t| {
                    let mut m = Map::new();
                    m.insert("key".into(), json!(t.key));
                    if !t.value.is_empty() {
                        m.insert("value".into(), json!(t.value));
                    }
                    m.insert("effect".into(), json!(t.effect.as_str()));
                    Value::Object(m)
                })
                .collect();
            spec.insert("taints".into(), Value::Array(taints));
        }
        if n.unschedulable {
            spec.insert("unschedulable".into(), json!(true));
        }
        let mut node = json!({
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": meta,
            "status": {
                "capacity": resources(&n.capacity),
                "allocatable": resources(&n.allocatable),
                "conditions": [{
                    "type": "Ready",
                    "status": if n.ready { "True" } else { "False" },
                    "lastHeartbeatTime": rfc3339(taken),
                }],
            },
        });
        if !spec.is_empty() {
            node["spec"] = Value::Object(spec);
        }
        docs.push(node);
        let Some(c) = &n.claim else { continue };
        let mut meta = Map::new();
        meta.insert("name".into(), json!(c.name));
        meta.insert(
            "creationTimestamp".into(),
            json!(rfc3339(before(taken, c.age))),
        );
        meta.insert("labels".into(), json!({ wk::NODEPOOL: c.nodepool }));
        if !c.annotations.is_empty() {
            meta.insert("annotations".into(), json!(c.annotations));
        }
        let mut spec = Map::new();
        if let Some(expire) = c.expire_after {
            spec.insert(
                "expireAfter".into(),
                json!(expire.map_or("Never".to_string(), go_duration)),
            );
        }
        if let Some(grace) = c.termination_grace_period {
            spec.insert("terminationGracePeriod".into(), json!(go_duration(grace)));
        }
        let mut status = Map::new();
        status.insert("nodeName".into(), json!(n.name));
        status.insert(
            "lastPodEventTime".into(),
            json!(rfc3339(before(taken, c.quiet_for))),
        );
        if let Some(image) = &c.image_id {
            status.insert("imageID".into(), json!(image));
        }
        let mut claim = json!({
            "apiVersion": "karpenter.sh/v1",
            "kind": "NodeClaim",
            "metadata": meta,
            "status": status,
        });
        if !spec.is_empty() {
            claim["spec"] = Value::Object(spec);
        }
        docs.push(claim);
    }
}

fn before(taken: i64, age: Millis) -> i64 {
    taken.saturating_sub(i64::try_from(age).unwrap_or(i64::MAX))
}

fn resources(r: &Resources) -> Value {
    let m: Map<String, Value> = r
        .iter()
        .map(|(name, v)| {
            (
                name.as_str().to_string(),
                json!(Resources::format_amount(name, v)),
            )
        })
        .collect();
    Value::Object(m)
}

/// The annotations a snapshot keeps: Karpenter's (drift hashes, `do-not-disrupt`), the pod
/// deletion cost and the playground's own. Everything else may carry anything (a
/// `last-applied-configuration` holds the whole object, secrets included).
fn kept_annotation(key: &str) -> bool {
    key.starts_with("karpenter.sh/")
        || key.starts_with("karpenter.k8s.aws/")
        || key.starts_with("playground.karpenter.dev/")
        || key == "controller.kubernetes.io/pod-deletion-cost"
}

/// `metadata` down to name, namespace, labels and the annotations kept; no `status`.
fn prune_object(object: &mut Value) {
    if let Value::Object(m) = object {
        m.remove("status");
        if let Some(meta) = m.get_mut("metadata") {
            prune_meta(meta);
        }
    }
}

fn prune_meta(meta: &mut Value) {
    let Value::Object(m) = meta else { return };
    m.retain(|k, _| matches!(k.as_str(), "name" | "namespace" | "labels" | "annotations"));
    if let Some(Value::Object(a)) = m.get_mut("annotations") {
        a.retain(|k, _| kept_annotation(k));
        if a.is_empty() {
            m.remove("annotations");
        }
    }
}

/// A workload with only what scheduling reads in its pod template.
fn prune_workload(object: &mut Value, kind: &str, options: Options) {
    prune_object(object);
    let Value::Object(m) = object else { return };
    if kind == "Pod" {
        if let Some(spec) = m.get_mut("spec") {
            prune_pod_spec(spec, options);
        }
        return;
    }
    let Some(Value::Object(spec)) = m.get_mut("spec") else {
        return;
    };
    spec.retain(|k, _| {
        matches!(
            k.as_str(),
            "replicas" | "selector" | "template" | "parallelism" | "completions"
        )
    });
    if let Some(Value::Object(template)) = spec.get_mut("template") {
        template.retain(|k, _| matches!(k.as_str(), "metadata" | "spec"));
        if let Some(meta) = template.get_mut("metadata") {
            prune_meta(meta);
            if let Value::Object(mm) = meta {
                mm.remove("name");
                mm.remove("namespace");
            }
        }
        if let Some(spec) = template.get_mut("spec") {
            prune_pod_spec(spec, options);
        }
    }
}

/// A pod spec down to what scheduling reads.
fn prune_pod_spec(spec: &mut Value, options: Options) {
    let Value::Object(s) = spec else { return };
    s.retain(|k, _| {
        matches!(
            k.as_str(),
            "containers"
                | "initContainers"
                | "nodeSelector"
                | "affinity"
                | "tolerations"
                | "topologySpreadConstraints"
                | "priority"
                | "priorityClassName"
                | "terminationGracePeriodSeconds"
                | "overhead"
                | "hostNetwork"
                | "nodeName"
        )
    });
    for key in ["containers", "initContainers"] {
        if let Some(Value::Array(containers)) = s.get_mut(key) {
            for c in containers.iter_mut() {
                prune_container(c, options);
            }
        }
    }
}

fn prune_container(container: &mut Value, options: Options) {
    let Value::Object(c) = container else { return };
    c.retain(|k, _| {
        matches!(k.as_str(), "name" | "resources" | "ports" | "restartPolicy")
            || (k == "image" && options.keep_images)
    });
    if let Some(Value::Array(ports)) = c.get_mut("ports") {
        ports.retain(|p| p.get("hostPort").is_some());
        for p in ports.iter_mut() {
            if let Value::Object(pm) = p {
                pm.retain(|k, _| {
                    matches!(
                        k.as_str(),
                        "containerPort" | "hostPort" | "hostIP" | "protocol"
                    )
                });
            }
        }
        if ports.is_empty() {
            c.remove("ports");
        }
    }
}

/// A controller's pod template's annotations (after pruning).
fn template_annotations(object: &Value) -> Map<String, Value> {
    match &object["spec"]["template"]["metadata"]["annotations"] {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    }
}

/// Sets `path` in nested maps, making the maps on the way.
fn set(object: &mut Value, path: &[&str], value: Value) {
    let Some((last, init)) = path.split_last() else {
        return;
    };
    let mut at = object;
    for key in init {
        let Value::Object(m) = at else { return };
        at = m
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    if let Value::Object(m) = at {
        m.insert(last.to_string(), value);
    }
}

fn to_json(tree: &Tree) -> Value {
    match tree {
        Tree::Null => Value::Null,
        Tree::Bool(b) => json!(b),
        Tree::Int(i) => json!(i),
        Tree::Float(f) => json!(f),
        Tree::Str(s) => json!(s),
        Tree::Seq(items) => Value::Array(items.iter().map(to_json).collect()),
        Tree::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), to_json(v)))
                .collect(),
        ),
    }
}

/// A Go duration (`720h0m0s`, `30s`), as the reader reads it back.
fn go_duration(ms: Millis) -> String {
    kpg_core::duration::format(ms)
}

/// Milliseconds since the Unix epoch as the API server writes an instant.
fn rfc3339(ms: i64) -> String {
    kpg_core::calendar::format_rfc3339(ms)
}

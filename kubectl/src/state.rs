//! What the simulated API server holds at `sim.now()`: the engine's nodes, NodeClaims, pods
//! and NodePools, and, for what the engine does not expose (EC2NodeClasses, the workloads'
//! manifests, container images), the objects as the files declare them with the files'
//! Timeline steps replayed up to now (the page appends the terminal's changes there).

use kpg_core::model::{Millis, NodePool, WorkloadKind};
use kpg_core::pod::{Phase, Pod};
use kpg_core::sim::{Event, EventKind, Node, NodeState, Simulation};
use kpg_core::wellknown as wk;
use serde_json::Value;

use crate::World;
use crate::kinds::Kind;

/// One object as the files declare it, replayed to now.
#[derive(Clone, Debug)]
pub struct Declared {
    pub kind: String,
    pub name: String,
    /// Empty for cluster-scoped kinds.
    pub namespace: String,
    pub value: Value,
    /// When it was created (0, or the Timeline step that applied it first).
    pub created: Millis,
    /// A Timeline step deleted it at this time (an EC2NodeClass lingers until its NodeClaims
    /// are gone).
    pub deleted: Option<Millis>,
    /// Which file it came from.
    pub file: String,
}

pub struct State<'a> {
    pub sim: &'a Simulation,
    pub now: Millis,
    pub declared: Vec<Declared>,
    pub files: &'a [(String, String)],
}

/// The documents of a text, each parsed as a tree (documents that do not parse are skipped:
/// the reader reports them). Documents are found by the reader's own splitter.
pub fn documents(text: &str) -> Vec<(String, Value)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (first, last, _) in kpg_manifests::document_spans(text) {
        let (Some(from), Some(to)) = (first.checked_sub(1), Some(last)) else {
            continue;
        };
        let Some(slice) = lines.get(from..to.min(lines.len())) else {
            continue;
        };
        let doc = slice.join("\n") + "\n";
        let parsed = std::panic::catch_unwind(|| serde_saphyr::from_str::<Value>(&doc));
        if let Ok(Ok(value)) = parsed
            && value.is_object()
        {
            out.push((doc, value));
        }
    }
    out
}

/// `kind`, `metadata.name`, `metadata.namespace` (defaulted for namespaced kinds).
pub fn identity(value: &Value) -> (String, String, String) {
    let kind = value
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let name = value
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let namespaced = Kind::from_kind(&kind).is_none_or(Kind::namespaced);
    let namespace = if namespaced {
        value
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("default")
            .to_string()
    } else {
        String::new()
    };
    (kind, name, namespace)
}

fn step_time(step: &Value) -> Option<Millis> {
    match step.get("at")? {
        Value::String(s) => kpg_core::duration::parse(s).ok(),
        Value::Number(n) => n.as_u64().map(|s| s * 1000),
        _ => None,
    }
}

fn target(v: &Value, kind_default: &str) -> (String, String, String) {
    let kind = v
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or(kind_default)
        .to_string();
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let namespaced = Kind::from_kind(&kind).is_none_or(Kind::namespaced);
    let namespace = if namespaced {
        v.get("namespace")
            .and_then(Value::as_str)
            .unwrap_or("default")
            .to_string()
    } else {
        String::new()
    };
    (kind, name, namespace)
}

impl<'a> State<'a> {
    pub fn new(world: &World<'a>) -> State<'a> {
        let now = world.sim.now();
        let mut declared: Vec<Declared> = Vec::new();
        let mut steps: Vec<(Millis, usize, Value)> = Vec::new();
        for (file, text) in world.files {
            for (_, value) in documents(text) {
                let (kind, name, namespace) = identity(&value);
                if kind == "Timeline" {
                    let list = value
                        .pointer("/spec/steps")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default();
                    for step in list {
                        if let Some(at) = step_time(&step) {
                            let order = steps.len();
                            steps.push((at, order, step));
                        }
                    }
                    continue;
                }
                if kind.is_empty() || name.is_empty() {
                    continue;
                }
                declared
                    .retain(|d| !(d.kind == kind && d.name == name && d.namespace == namespace));
                declared.push(Declared {
                    kind,
                    name,
                    namespace,
                    value,
                    created: 0,
                    deleted: None,
                    file: file.clone(),
                });
            }
        }
        // The engine plays steps in time order, and steps at one instant in document order.
        // Pushed in document order, so a stable sort by time keeps that order within an instant.
        crate::order::by_number(&mut steps, |(at, _, _)| *at);
        for (at, _, step) in steps.into_iter().filter(|(at, _, _)| *at <= now) {
            if let Some(obj) = step.get("apply") {
                let (kind, name, namespace) = identity(obj);
                let created = declared
                    .iter()
                    .find(|d| {
                        d.kind == kind
                            && d.name == name
                            && d.namespace == namespace
                            && d.deleted.is_none()
                    })
                    .map_or(at, |d| d.created);
                declared
                    .retain(|d| !(d.kind == kind && d.name == name && d.namespace == namespace));
                declared.push(Declared {
                    kind,
                    name,
                    namespace,
                    value: obj.clone(),
                    created,
                    deleted: None,
                    file: String::from("Timeline"),
                });
            } else if let Some(t) = step.get("delete") {
                let (kind, name, namespace) = target(t, "");
                for d in declared
                    .iter_mut()
                    .filter(|d| d.kind == kind && d.name == name && d.namespace == namespace)
                {
                    d.deleted.get_or_insert(at);
                }
            } else if let Some(t) = step.get("scale") {
                let (kind, name, namespace) = target(t, "Deployment");
                let replicas = t.get("replicas").cloned().unwrap_or(Value::from(0));
                for d in declared
                    .iter_mut()
                    .filter(|d| d.kind == kind && d.name == name && d.namespace == namespace)
                {
                    if let Some(spec) = d.value.get_mut("spec").and_then(Value::as_object_mut) {
                        let key = if kind == "Job" {
                            "parallelism"
                        } else {
                            "replicas"
                        };
                        spec.insert(key.into(), replicas.clone());
                    }
                }
            }
        }
        let mut state = State {
            sim: world.sim,
            now,
            declared,
            files: world.files,
        };
        // Deleted objects are gone, except an EC2NodeClass whose deletion waits for its
        // NodeClaims (the engine says when it finally went).
        let finished: Vec<String> = world
            .sim
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::NodeClassDeleted { node_class } => Some(node_class.clone()),
                _ => None,
            })
            .collect();
        state.declared.retain(|d| match d.deleted {
            None => true,
            Some(_) if d.kind == "EC2NodeClass" => !finished.contains(&d.name),
            Some(_) => false,
        });
        crate::order::by_text(&mut state.declared, |d| {
            crate::order::key(&[&d.kind, &d.namespace, &d.name])
        });
        state
    }

    pub fn declared(&self, kind: &str, namespace: &str, name: &str) -> Option<&Declared> {
        self.declared.iter().find(|d| {
            d.kind == kind && d.name == name && (d.namespace == namespace || d.namespace.is_empty())
        })
    }

    pub fn declared_of(&self, kind: &str) -> impl Iterator<Item = &Declared> + '_ {
        let kind = kind.to_string();
        self.declared.iter().filter(move |d| d.kind == kind)
    }

    /// Node objects: fixed nodes, and Karpenter's once they registered; by name.
    pub fn nodes(&self) -> Vec<&'a Node> {
        let mut v: Vec<&Node> = self
            .sim
            .nodes()
            .iter()
            .filter(|n| is_node_object(n))
            .collect();
        crate::order::by_text(&mut v, |n| n.name.clone());
        v
    }

    pub fn node(&self, name: &str) -> Option<&'a Node> {
        self.sim
            .nodes()
            .iter()
            .find(|n| n.name == name && is_node_object(n))
    }

    /// NodeClaims that exist; by name.
    pub fn claims(&self) -> Vec<&'a Node> {
        let mut v: Vec<&Node> = self
            .sim
            .nodes()
            .iter()
            .filter(|n| !n.deleted && n.nodeclaim.is_some())
            .collect();
        crate::order::by_text(&mut v, |n| n.nodeclaim.clone().unwrap_or_default());
        v
    }

    pub fn claim(&self, name: &str) -> Option<&'a Node> {
        self.sim
            .nodes()
            .iter()
            .find(|n| !n.deleted && n.nodeclaim.as_deref() == Some(name))
    }

    /// Pods that exist (finished ones included, as the API server keeps them); by namespace
    /// and name.
    pub fn pods(&self) -> Vec<&'a Pod> {
        let mut v: Vec<&Pod> = self.sim.pods().iter().filter(|p| !p.deleted).collect();
        crate::order::by_text(&mut v, |p| crate::order::key(&[&p.namespace, &p.name]));
        v
    }

    pub fn pod(&self, namespace: &str, name: &str) -> Option<&'a Pod> {
        self.sim
            .pods()
            .iter()
            .find(|p| !p.deleted && p.name == name && p.namespace == namespace)
    }

    pub fn node_name(&self, index: usize) -> Option<&'a str> {
        self.sim.nodes().get(index).map(|n| n.name.as_str())
    }

    /// Live NodePools with their index (nodes refer to pools by index); by name.
    pub fn pools(&self) -> Vec<(usize, &'a NodePool)> {
        let mut v: Vec<(usize, &NodePool)> = self
            .sim
            .node_pools()
            .enumerate()
            .filter(|(_, (_, deleted))| !deleted)
            .map(|(i, (np, _))| (i, np))
            .collect();
        crate::order::by_text(&mut v, |p| p.1.name.clone());
        v
    }

    pub fn pool(&self, name: &str) -> Option<(usize, &'a NodePool)> {
        self.pools().into_iter().find(|(_, np)| np.name == name)
    }

    pub fn pool_name(&self, node: &Node) -> Option<&'a str> {
        let p = node.nodepool?;
        self.sim.node_pools().nth(p).map(|(np, _)| np.name.as_str())
    }

    /// EC2NodeClasses: as declared, by name.
    pub fn node_classes(&self) -> Vec<&Declared> {
        self.declared_of("EC2NodeClass").collect()
    }

    /// When a NodePool was created.
    pub fn pool_created(&self, name: &str) -> Millis {
        self.declared("NodePool", "", name).map_or(0, |d| d.created)
    }

    /// The engine's events about an object (`Kind/name` or `Kind/namespace/name`).
    pub fn events_of(&self, object: &str) -> Vec<&'a Event> {
        self.sim
            .events()
            .iter()
            .filter(|e| e.kind.object() == object)
            .collect()
    }

    /// The pods of a workload, by (kind, namespace, name).
    pub fn pods_of(&self, kind: WorkloadKind, namespace: &str, name: &str) -> Vec<&'a Pod> {
        self.pods()
            .into_iter()
            .filter(|p| {
                p.namespace == namespace
                    && p.owner
                        .as_ref()
                        .is_some_and(|(k, n)| *k == kind && n == name)
            })
            .collect()
    }

    /// Pods bound to a node, not finished (kubectl's "Non-terminated Pods").
    pub fn pods_on(&self, node: &Node) -> Vec<&'a Pod> {
        let index = self.sim.nodes().iter().position(|n| std::ptr::eq(n, node));
        self.pods()
            .into_iter()
            .filter(|p| p.node.is_some() && p.node == index && p.is_active())
            .collect()
    }

    /// The image of a pod's container, from its workload's manifest.
    pub fn image(&self, pod: &Pod, container: &str) -> Option<String> {
        let (kind, name) = match &pod.owner {
            Some((k, n)) => (k.as_str(), n.as_str()),
            None => ("Pod", pod.name.as_str()),
        };
        let d = self.declared(kind, &pod.namespace, name)?;
        let spec = if kind == "Pod" {
            d.value.get("spec")
        } else {
            d.value.pointer("/spec/template/spec")
        }?;
        for list in ["containers", "initContainers"] {
            for c in spec
                .get(list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if c.get("name").and_then(Value::as_str) == Some(container) {
                    return c.get("image").and_then(Value::as_str).map(str::to_string);
                }
            }
        }
        None
    }

    /// The namespaces: EKS's four, the declared ones and any a workload uses.
    pub fn namespaces(&self) -> Vec<(String, Millis)> {
        let mut out: Vec<(String, Millis)> =
            ["default", "kube-node-lease", "kube-public", "kube-system"]
                .iter()
                .map(|n| (n.to_string(), 0))
                .collect();
        for d in &self.declared {
            let name = if d.kind == "Namespace" {
                d.name.clone()
            } else {
                d.namespace.clone()
            };
            if !name.is_empty() && !out.iter().any(|(n, _)| *n == name) {
                out.push((name, d.created));
            }
        }
        out.sort();
        out
    }
}

/// A Node object exists for fixed nodes and for Karpenter's once registered.
pub fn is_node_object(n: &Node) -> bool {
    !n.deleted && (n.nodeclaim.is_none() || n.labels.contains_key(wk::REGISTERED))
}

/// The Node is cordoned (`spec.unschedulable`, which the node controller mirrors as the
/// `node.kubernetes.io/unschedulable` taint).
pub fn cordoned(n: &Node) -> bool {
    n.taints.iter().any(|t| t.key == wk::UNSCHEDULABLE_TAINT)
}

/// kubelet's Ready condition.
pub fn node_ready(n: &Node) -> bool {
    n.state == NodeState::Ready || (n.state == NodeState::Deleting && n.initialized_at.is_some())
}

/// When the NodeClaim registered (a node's Ready heartbeat before then is not known).
pub fn launched(n: &Node) -> bool {
    n.state != NodeState::Launching && (n.state != NodeState::Deleting || !n.image_id.is_empty())
}

/// Containers kubectl's READY column counts: containers and sidecars.
pub fn container_count(pod: &Pod) -> usize {
    (pod.spec.containers.len()
        + pod
            .spec
            .init_containers
            .iter()
            .filter(|c| c.restart_always)
            .count())
    .max(1)
}

pub fn pod_bound(pod: &Pod) -> bool {
    pod.node.is_some()
}

pub fn pod_running(pod: &Pod) -> bool {
    pod.phase == Phase::Running
}

/// The ReplicaSet a Deployment's pod belongs to: its name without the pod suffix.
pub fn replicaset_of(pod: &Pod) -> Option<String> {
    match &pod.owner {
        Some((WorkloadKind::Deployment, _)) => {
            pod.name.rsplit_once('-').map(|(rs, _)| rs.to_string())
        }
        _ => None,
    }
}

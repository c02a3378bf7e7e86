//! What the simulated API server holds at `sim.now()`: the engine's nodes, NodeClaims, pods
//! and NodePools, and, for what the engine keeps only as a model (EC2NodeClasses, the
//! workloads' manifests, container images), the objects as written that the engine applied
//! by now ([`Simulation::applied`]): one reading of the manifests, the engine's.

use kpg_core::manifest::Tree;
use kpg_core::model::{Millis, NodePool, WorkloadKind};
use kpg_core::pod::{Phase, Pod};
use kpg_core::sim::{Event, Node, NodeState, Simulation};
use kpg_core::wellknown as wk;
use serde_json::Value;

use crate::World;
use crate::kinds::Kind;

/// One object as written, as it stands now.
#[derive(Clone, Debug)]
pub struct Declared {
    pub kind: String,
    pub name: String,
    /// Empty for cluster-scoped kinds.
    pub namespace: String,
    /// The object as the API server serves it (JSON), before the server's own fields.
    pub value: Value,
    /// When it was created (0, or the Timeline step that applied it first).
    pub created: Millis,
    /// A Timeline step deleted it at this time (an EC2NodeClass lingers until its NodeClaims
    /// are gone).
    pub deleted: Option<Millis>,
}

pub struct State<'a> {
    pub sim: &'a Simulation,
    pub now: Millis,
    pub declared: Vec<Declared>,
}

/// `kind`, `metadata.name`, `metadata.namespace` (defaulted for namespaced kinds) of a tree.
pub fn identity(tree: &Tree) -> (String, String, String) {
    let text = |path: &[&str]| tree.at(path).and_then(Tree::as_str).map(str::to_string);
    let kind = text(&["kind"]).unwrap_or_default();
    let name = text(&["metadata", "name"]).unwrap_or_default();
    (
        kind.clone(),
        name,
        namespace_of(&kind, text(&["metadata", "namespace"]).as_deref()),
    )
}

/// The namespace kubectl shows: `default` when a namespaced object names none, empty for
/// cluster-scoped kinds.
fn namespace_of(kind: &str, written: Option<&str>) -> String {
    if Kind::from_kind(kind).is_none_or(Kind::namespaced) {
        written.unwrap_or("default").to_string()
    } else {
        String::new()
    }
}

/// A tree as JSON (what the API server serves and `-o yaml|json` print).
pub fn json(tree: &Tree) -> Value {
    match tree {
        Tree::Null => Value::Null,
        Tree::Bool(b) => Value::Bool(*b),
        Tree::Int(i) => Value::from(*i),
        Tree::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        Tree::Str(s) => Value::String(s.clone()),
        Tree::Seq(items) => Value::Array(items.iter().map(json).collect()),
        Tree::Map(entries) => {
            Value::Object(entries.iter().map(|(k, v)| (k.clone(), json(v))).collect())
        }
    }
}

impl<'a> State<'a> {
    pub fn new(world: &'a dyn World) -> State<'a> {
        let sim = world.sim();
        let mut declared: Vec<Declared> = sim
            .applied()
            .into_iter()
            .map(|a| {
                let w = a.written;
                let mut value = json(&w.tree);
                if let Some(replicas) = a.scaled
                    && let Some(spec) = value.get_mut("spec").and_then(Value::as_object_mut)
                {
                    let key = if w.kind == "Job" {
                        "parallelism"
                    } else {
                        "replicas"
                    };
                    spec.insert(key.into(), Value::from(replicas));
                }
                Declared {
                    kind: w.kind.clone(),
                    name: w.name.clone(),
                    namespace: namespace_of(&w.kind, w.namespace.as_deref()),
                    value,
                    created: a.created,
                    deleted: a.deleted,
                }
            })
            .collect();
        crate::order::by_text(&mut declared, |d| {
            crate::order::key(&[&d.kind, &d.namespace, &d.name])
        });
        State {
            sim,
            now: sim.now(),
            declared,
        }
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
    (n.state == NodeState::Ready || (n.state == NodeState::Deleting && n.initialized_at.is_some()))
        && !n.conditions.contains_key("Ready")
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

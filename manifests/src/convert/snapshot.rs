//! What a snapshot of a live cluster adds to a scenario: `Node`s and Karpenter's `NodeClaim`s
//! as `kubectl get -o yaml` prints them, and the facts about pods and controllers that say
//! who owns a pod and whether it still runs (`metadata.ownerReferences`, `status.phase`).
//!
//! Nodes and NodeClaims are observed state, written by the kubelet and Karpenter rather than
//! by the user: only the fields the engine reads are read, and the many others (addresses,
//! images, node info, heartbeats) pass without a word.

use kpg_core::model::Millis;
use kpg_core::model::StringMap;
use kpg_core::resources::Resources;
use kpg_core::taints::Taint;

use super::common::{self, ListSite, Meta, NameRule};
use super::{map_at, str_at};
use crate::reader::{Cx, Field, Fields};
use crate::yaml::{Node, Value};

/// A snapshot's `Node`, times still as instants (milliseconds since the Unix epoch).
#[derive(Clone, Debug)]
pub(crate) struct NodeDoc {
    pub name: String,
    pub labels: StringMap,
    pub annotations: StringMap,
    pub taints: Vec<Taint>,
    pub unschedulable: bool,
    pub capacity: Resources,
    pub allocatable: Resources,
    pub created: Option<i64>,
    /// The latest time its conditions were seen (`lastHeartbeatTime`).
    pub seen: Option<i64>,
    pub ready: bool,
    /// `metadata.ownerReferences` names a NodeClaim.
    pub owner_claim: Option<String>,
}

/// A snapshot's `NodeClaim`.
#[derive(Clone, Debug)]
pub(crate) struct ClaimDoc {
    pub name: String,
    pub nodepool: Option<String>,
    pub annotations: StringMap,
    pub created: Option<i64>,
    pub expire_after: Option<Option<Millis>>,
    pub termination_grace_period: Option<Millis>,
    pub node_name: Option<String>,
    pub last_pod_event: Option<i64>,
    pub initialized: Option<i64>,
    pub image_id: Option<String>,
}

/// Who owns a pod or a controller, and what a snapshot says of it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Facts {
    /// The controller reference (`ownerReferences[]` with `controller: true`): kind, name.
    pub owner: Option<(String, String)>,
    /// `status.phase`.
    pub phase: Option<String>,
    pub created: Option<i64>,
    /// A mirror pod (`kubernetes.io/config.mirror`): the kubelet runs it from a file.
    pub mirror: bool,
    /// A Job whose `Complete` or `Failed` condition is `True`: it creates no more pods.
    pub finished: bool,
    /// A workload's `playground.karpenter.dev/pods` annotation: the pods it had when the
    /// snapshot `kpg import` read was taken.
    pub existing_pods: Option<String>,
}

pub(crate) fn node(cx: &mut Cx, root: &Field<'_>) -> (Meta, NodeDoc) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let mut doc = NodeDoc {
        name: meta.name.clone(),
        labels: meta.labels.clone(),
        annotations: meta.annotations.clone(),
        taints: Vec::new(),
        unschedulable: false,
        capacity: Resources::ZERO,
        allocatable: Resources::ZERO,
        created: created(root.node),
        seen: None,
        ready: true,
        owner_claim: controller_of(root.node)
            .filter(|(kind, _)| kind == "NodeClaim")
            .map(|(_, name)| name),
    };
    if let Some(sf) = r.get("spec") {
        let mut s = Fields::of(cx, &sf);
        if let Some(t) = s.get("taints") {
            doc.taints = common::taints(cx, &t);
        }
        if let Some(u) = s.get("unschedulable") {
            doc.unschedulable = cx.bool(&u).unwrap_or(false);
        }
    }
    if let Some(st) = r.get("status") {
        let mut s = Fields::of(cx, &st);
        if let Some(c) = s.get("capacity") {
            doc.capacity = common::to_resources(&common::resource_list(cx, &c, ListSite::Node));
        }
        if let Some(a) = s.get("allocatable") {
            doc.allocatable = common::to_resources(&common::resource_list(cx, &a, ListSite::Node));
        }
        for condition in seq(s.get("conditions").map(|c| c.node)) {
            if let Some(t) = str_at(condition, "lastHeartbeatTime").and_then(rfc3339) {
                doc.seen = Some(doc.seen.map_or(t, |s| s.max(t)));
            }
            if str_at(condition, "type") == Some("Ready") {
                doc.ready = str_at(condition, "status") == Some("True");
            }
        }
    }
    if doc.allocatable == Resources::ZERO {
        doc.allocatable = doc.capacity;
    }
    (meta, doc)
}

pub(crate) fn node_claim(cx: &mut Cx, root: &Field<'_>) -> (Meta, ClaimDoc) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let mut doc = ClaimDoc {
        name: meta.name.clone(),
        nodepool: meta
            .labels
            .get(kpg_core::wellknown::NODEPOOL)
            .cloned()
            .or_else(|| {
                controller_of(root.node)
                    .filter(|(kind, _)| kind == "NodePool")
                    .map(|(_, name)| name)
            }),
        annotations: meta.annotations.clone(),
        created: created(root.node),
        expire_after: None,
        termination_grace_period: None,
        node_name: None,
        last_pod_event: None,
        initialized: None,
        image_id: None,
    };
    if let Some(sf) = r.get("spec") {
        let mut s = Fields::of(cx, &sf);
        if let Some(e) = s.get("expireAfter") {
            doc.expire_after = cx.duration(&e, true);
        }
        if let Some(g) = s.get("terminationGracePeriod") {
            doc.termination_grace_period = cx.duration(&g, false).flatten();
        }
    }
    if let Some(st) = r.get("status") {
        doc.node_name = str_at(st.node, "nodeName").map(String::from);
        doc.image_id = str_at(st.node, "imageID").map(String::from);
        doc.last_pod_event = str_at(st.node, "lastPodEventTime").and_then(rfc3339);
        for condition in seq(map_at(st.node, "conditions")) {
            if str_at(condition, "type") == Some("Initialized")
                && str_at(condition, "status") == Some("True")
            {
                doc.initialized = str_at(condition, "lastTransitionTime").and_then(rfc3339);
            }
        }
    }
    (meta, doc)
}

/// The snapshot facts of a pod or a controller, read straight from its tree (the converters
/// have checked the fields they read; these are only looked at).
pub(crate) fn facts(root: &Node) -> Facts {
    let meta = map_at(root, "metadata");
    Facts {
        owner: controller_of(root),
        phase: map_at(root, "status")
            .and_then(|s| str_at(s, "phase"))
            .map(String::from),
        created: created(root),
        mirror: meta
            .and_then(|m| map_at(m, "annotations"))
            .and_then(|a| map_at(a, "kubernetes.io/config.mirror"))
            .is_some(),
        existing_pods: meta
            .and_then(|m| map_at(m, "annotations"))
            .and_then(|a| str_at(a, kpg_core::wellknown::EXISTING_PODS))
            .map(String::from),
        finished: seq(map_at(root, "status").and_then(|s| map_at(s, "conditions")))
            .iter()
            .any(|c| {
                matches!(str_at(c, "type"), Some("Complete" | "Failed"))
                    && str_at(c, "status") == Some("True")
            }),
    }
}

fn created(root: &Node) -> Option<i64> {
    map_at(root, "metadata")
        .and_then(|m| str_at(m, "creationTimestamp"))
        .and_then(rfc3339)
}

/// `metadata.ownerReferences[]` with `controller: true`: (kind, name).
fn controller_of(root: &Node) -> Option<(String, String)> {
    let refs = map_at(root, "metadata").and_then(|m| map_at(m, "ownerReferences"));
    seq(refs)
        .iter()
        .find(|r| {
            matches!(
                map_at(r, "controller").map(|c| &c.value),
                Some(Value::Bool(true))
            )
        })
        .or_else(|| seq(refs).first())
        .and_then(|r| {
            Some((
                str_at(r, "kind")?.to_string(),
                str_at(r, "name")?.to_string(),
            ))
        })
}

fn seq(node: Option<&Node>) -> &[Node] {
    match node.map(|n| &n.value) {
        Some(Value::Seq(items)) => items,
        _ => &[],
    }
}

/// An RFC 3339 instant in milliseconds since the Unix epoch.
pub(crate) fn rfc3339(text: &str) -> Option<i64> {
    kpg_core::calendar::parse_rfc3339(text)
}

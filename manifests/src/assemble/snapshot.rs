//! A snapshot of a live cluster as the scenario's time zero: its Nodes (with their
//! NodeClaims) become the nodes that exist at the start, its pods join the controllers that
//! own them and stay on their nodes, and what the engine does not need is left out and
//! counted, one line per kind.
//!
//! Ownership follows `metadata.ownerReferences`, as the controllers do: a pod owned by a
//! ReplicaSet that a Deployment owns is one of the Deployment's replicas; pods of
//! StatefulSets and Jobs are theirs; a DaemonSet's pods are left to the DaemonSet, which
//! gives every node its pod again. Pods that finished (`Succeeded`, `Failed`) are ignored.
//! A pod whose owner the snapshot lacks, and a mirror pod, stay as they are, bound to their
//! node.
//!
//! Time zero is the instant the snapshot was taken: the latest timestamp in it (a node's
//! heartbeat, an object's creation, a NodeClaim's last pod event). Every timestamp becomes
//! an age before that instant.

use std::collections::BTreeMap;

use kpg_core::model::{ExistingClaim, ExistingNode, ExistingPod, Millis, WorkloadKind};

use super::{Accepted, WithKorean};
use crate::codes::Code;
use crate::convert::Object;
use crate::convert::snapshot::{ClaimDoc, NodeDoc};
use crate::diagnostic::{Diagnostic, Severity};

/// What became of a snapshot's objects, for the one-line summary.
#[derive(Default)]
struct Tally {
    nodes: usize,
    karpenter_nodes: usize,
    claims_without_node: usize,
    pods_kept: usize,
    pods_joined: usize,
    daemon_pods: usize,
    finished_pods: usize,
    finished_jobs: usize,
}

/// Turns a snapshot's objects into the nodes and pods that exist at time zero. Returns the
/// nodes; pods join their workloads (`Workload::existing`) and the objects folded into
/// others are marked dropped.
pub(super) fn resolve(
    accepted: &mut [Accepted],
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<ExistingNode>, Option<i64>) {
    let is_snapshot = accepted.iter().filter(|a| !a.dropped).any(|a| {
        matches!(a.converted.object, Object::Node(_) | Object::NodeClaim(_))
            || a.converted.facts.owner.is_some()
            || a.converted.facts.existing_pods.is_some()
    });
    if !is_snapshot {
        return (Vec::new(), None);
    }
    let mut tally = Tally::default();
    let taken_at = taken_at(accepted);
    let age =
        |t: Option<i64>| -> Millis { t.map_or(0, |t| taken_at.saturating_sub(t).max(0) as u64) };

    // Controllers by (kind, namespace, name), and which Deployment owns each ReplicaSet.
    let mut controllers: BTreeMap<(&'static str, String, String), usize> = BTreeMap::new();
    for (i, a) in accepted.iter().enumerate() {
        if let (Object::Workload(w), false) = (&a.converted.object, a.dropped)
            && w.kind != WorkloadKind::Pod
        {
            controllers.insert((w.kind.as_str(), w.namespace.clone(), w.name.clone()), i);
        }
    }
    let owner_of = |accepted: &[Accepted], i: usize| -> Option<usize> {
        let a = &accepted[i];
        let Object::Workload(w) = &a.converted.object else {
            return None;
        };
        let (kind, name) = a.converted.facts.owner.as_ref()?;
        let kind = crate::convert::workload_kind(kind)?;
        controllers
            .get(&(kind.as_str(), w.namespace.clone(), name.clone()))
            .copied()
    };
    // A ReplicaSet its Deployment owns is not a workload of its own.
    let mut folded: BTreeMap<usize, usize> = BTreeMap::new();
    for i in 0..accepted.len() {
        if let Object::Workload(w) = &accepted[i].converted.object
            && w.kind == WorkloadKind::ReplicaSet
            && let Some(d) = owner_of(accepted, i)
            && is_deployment(&accepted[d].converted.object)
        {
            folded.insert(i, d);
        }
    }
    for &rs in folded.keys() {
        accepted[rs].dropped = true;
    }
    // Finished Jobs create no more pods.
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        if let Object::Workload(w) = &a.converted.object
            && w.kind == WorkloadKind::Job
            && a.converted.facts.finished
        {
            a.dropped = true;
            tally.finished_jobs += 1;
        }
    }

    // Pods.
    let node_names: std::collections::BTreeSet<String> = accepted
        .iter()
        .filter_map(|a| match &a.converted.object {
            Object::Node(n) if !a.dropped => Some(n.name.clone()),
            _ => None,
        })
        .collect();
    let mut joined: Vec<(usize, ExistingPod)> = Vec::new();
    let mut quiet: BTreeMap<String, i64> = BTreeMap::new();
    for i in 0..accepted.len() {
        let a = &accepted[i];
        let Object::Workload(w) = &a.converted.object else {
            continue;
        };
        if a.dropped || w.kind != WorkloadKind::Pod {
            continue;
        }
        let facts = &a.converted.facts;
        if matches!(facts.phase.as_deref(), Some("Succeeded" | "Failed")) {
            accepted[i].dropped = true;
            tally.finished_pods += 1;
            continue;
        }
        let node = w
            .template
            .spec
            .node_name
            .clone()
            .filter(|n| node_names.contains(n));
        let pod = ExistingPod {
            name: w.name.clone(),
            node: node.clone(),
            annotations: w
                .template
                .annotations
                .iter()
                .filter(|(k, _)| kpg_core::wellknown::POD_ANNOTATIONS_KEPT.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        };
        let owner = if facts.mirror {
            None
        } else {
            owner_of(accepted, i).map(|o| folded.get(&o).copied().unwrap_or(o))
        };
        match owner.map(|o| (o, &accepted[o].converted.object)) {
            Some((o, Object::Workload(ow))) => {
                if ow.kind == WorkloadKind::DaemonSet {
                    tally.daemon_pods += 1;
                } else {
                    note_pod_on(&mut quiet, &node, facts.created);
                    joined.push((o, pod));
                    tally.pods_joined += 1;
                }
                accepted[i].dropped = true;
            }
            _ => {
                note_pod_on(&mut quiet, &node, facts.created);
                if let Object::Workload(w) = &mut accepted[i].converted.object {
                    w.existing = vec![pod];
                }
                tally.pods_kept += 1;
            }
        }
    }
    for (o, pod) in joined {
        if let Object::Workload(w) = &mut accepted[o].converted.object {
            w.existing.push(pod);
        }
    }
    // The pods a scenario `kpg import` wrote keeps on its workloads.
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        let Some(lines) = a.converted.facts.existing_pods.clone() else {
            continue;
        };
        if let Object::Workload(w) = &mut a.converted.object {
            for line in lines.lines() {
                // `NAME [NODE] [KEY=VALUE ...]`
                let mut words = line.split_whitespace();
                let Some(name) = words.next() else { continue };
                let mut node = None;
                let mut annotations = kpg_core::model::StringMap::new();
                for word in words {
                    match word.split_once('=') {
                        Some((k, v)) => {
                            annotations.insert(k.to_string(), v.to_string());
                        }
                        None if node.is_none() && node_names.contains(word) => {
                            node = Some(word.to_string());
                        }
                        None => {}
                    }
                }
                w.existing.push(ExistingPod {
                    name: name.to_string(),
                    node,
                    annotations,
                });
                tally.pods_joined += 1;
            }
        }
    }

    // Nodes and their NodeClaims.
    let mut claims: BTreeMap<String, (usize, ClaimDoc)> = BTreeMap::new();
    let mut claims_by_name: BTreeMap<String, String> = BTreeMap::new();
    for a in accepted.iter_mut() {
        if let Object::NodeClaim(c) = &a.converted.object {
            if !a.dropped {
                match &c.node_name {
                    Some(node) => {
                        claims_by_name.insert(c.name.clone(), node.clone());
                        claims.insert(node.clone(), (a.doc, c.clone()));
                    }
                    None => tally.claims_without_node += 1,
                }
            }
            a.dropped = true;
        }
    }
    let mut nodes = Vec::new();
    for a in accepted.iter_mut() {
        let Object::Node(n) = &a.converted.object else {
            continue;
        };
        let dropped = a.dropped;
        a.dropped = true;
        if dropped {
            continue;
        }
        tally.nodes += 1;
        let claim = claims
            .get(&n.name)
            .or_else(|| {
                let name = n.owner_claim.as_ref()?;
                claims_by_name.get(name).and_then(|node| claims.get(node))
            })
            .map(|(_, c)| claim_of(c, n, &age, quiet.get(&n.name).copied()))
            .or_else(|| {
                let pool = n.labels.get(kpg_core::wellknown::NODEPOOL)?;
                Some(ExistingClaim {
                    name: n.owner_claim.clone().unwrap_or_else(|| n.name.clone()),
                    nodepool: pool.clone(),
                    annotations: karpenters(&n.annotations),
                    age: age(n.created),
                    expire_after: None,
                    termination_grace_period: None,
                    quiet_for: age(quiet.get(&n.name).copied().or(n.created)),
                    image_id: None,
                })
            });
        if claim.is_some() {
            tally.karpenter_nodes += 1;
        }
        nodes.push(ExistingNode {
            name: n.name.clone(),
            labels: n.labels.clone(),
            annotations: n.annotations.clone(),
            taints: n.taints.clone(),
            unschedulable: n.unschedulable,
            capacity: n.capacity,
            allocatable: n.allocatable,
            age: age(n.created),
            ready: n.ready,
            claim,
            document: a.doc,
        });
    }
    summarise(&tally, accepted, diagnostics);
    (nodes, Some(taken_at))
}

/// The newest pod creation seen on a node: its last pod event, when the snapshot has no
/// NodeClaim saying so.
fn note_pod_on(newest: &mut BTreeMap<String, i64>, node: &Option<String>, created: Option<i64>) {
    if let (Some(n), Some(t)) = (node, created) {
        let e = newest.entry(n.clone()).or_insert(t);
        *e = (*e).max(t);
    }
}

/// A NodeClaim as the engine needs it, its times as ages.
fn claim_of(
    c: &ClaimDoc,
    node: &NodeDoc,
    age: &dyn Fn(Option<i64>) -> Millis,
    newest_pod: Option<i64>,
) -> ExistingClaim {
    // Karpenter's `lastPodEventTime`; without it, the newest pod on the node, else the
    // node's initialization.
    let quiet_since = c
        .last_pod_event
        .or(newest_pod)
        .or(c.initialized)
        .or(node.created)
        .or(c.created);
    ExistingClaim {
        name: c.name.clone(),
        nodepool: c
            .nodepool
            .clone()
            .or_else(|| node.labels.get(kpg_core::wellknown::NODEPOOL).cloned())
            .unwrap_or_default(),
        annotations: karpenters(&c.annotations),
        age: age(c.created.or(node.created)),
        expire_after: c.expire_after,
        termination_grace_period: c.termination_grace_period,
        quiet_for: age(quiet_since),
        image_id: c.image_id.clone(),
    }
}

/// Karpenter's own annotations (`karpenter.sh/...`, `karpenter.k8s.aws/...`).
fn karpenters(annotations: &kpg_core::model::StringMap) -> kpg_core::model::StringMap {
    annotations
        .iter()
        .filter(|(k, _)| k.starts_with("karpenter.sh/") || k.starts_with("karpenter.k8s.aws/"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The instant the snapshot was taken: the latest timestamp in it.
fn taken_at(accepted: &[Accepted]) -> i64 {
    let mut latest = i64::MIN;
    for a in accepted {
        let mut see = |t: Option<i64>| {
            if let Some(t) = t {
                latest = latest.max(t);
            }
        };
        see(a.converted.facts.created);
        match &a.converted.object {
            Object::Node(n) => see(n.seen),
            Object::NodeClaim(c) => {
                see(c.last_pod_event);
                see(c.initialized);
            }
            _ => {}
        }
    }
    if latest == i64::MIN { 0 } else { latest }
}

/// One finding that says what the snapshot held and what became of it.
///
/// It is a warning only because something was left out (DaemonSet pods, finished pods and
/// Jobs, NodeClaims without a node): a scenario `kpg import` wrote, which holds only what is
/// read, reads without a finding.
fn summarise(tally: &Tally, accepted: &[Accepted], diagnostics: &mut Vec<Diagnostic>) {
    let left_out =
        tally.daemon_pods + tally.finished_pods + tally.finished_jobs + tally.claims_without_node;
    let (Some(first), true) = (accepted.first(), left_out > 0) else {
        return;
    };
    let mut parts = vec![format!(
        "{} ({} Karpenter's, {} fixed)",
        count(tally.nodes, "node"),
        tally.karpenter_nodes,
        tally.nodes - tally.karpenter_nodes
    )];
    let mut ko = vec![format!(
        "노드 {}대(Karpenter {}대, 고정 {}대)",
        tally.nodes,
        tally.karpenter_nodes,
        tally.nodes - tally.karpenter_nodes
    )];
    parts.push(format!(
        "{} of their controllers, {} on {} own",
        count(tally.pods_joined, "pod"),
        count(tally.pods_kept, "pod"),
        if tally.pods_kept == 1 { "its" } else { "their" }
    ));
    ko.push(format!(
        "파드 {}개는 컨트롤러에 속하고 {}개는 그대로 남습니다",
        tally.pods_joined, tally.pods_kept
    ));
    if tally.daemon_pods > 0 {
        parts.push(format!(
            "{} left to {} DaemonSet",
            count(tally.daemon_pods, "DaemonSet pod"),
            if tally.daemon_pods == 1 {
                "its"
            } else {
                "their"
            }
        ));
        ko.push(format!(
            "DaemonSet 파드 {}개는 DaemonSet이 다시 만듭니다",
            tally.daemon_pods
        ));
    }
    if tally.finished_pods > 0 {
        parts.push(format!(
            "{} ignored",
            count(tally.finished_pods, "finished pod")
        ));
        ko.push(format!("끝난 파드 {}개는 무시합니다", tally.finished_pods));
    }
    if tally.finished_jobs > 0 {
        parts.push(format!(
            "{} ignored",
            count(tally.finished_jobs, "finished Job")
        ));
        ko.push(format!("끝난 Job {}개는 무시합니다", tally.finished_jobs));
    }
    if tally.claims_without_node > 0 {
        parts.push(format!(
            "{} without a node yet left out",
            count(tally.claims_without_node, "NodeClaim")
        ));
        ko.push(format!(
            "아직 노드가 없는 NodeClaim {}개는 뺍니다",
            tally.claims_without_node
        ));
    }
    diagnostics.push(
        Diagnostic {
            severity: Severity::Warning,
            code: Code::Snapshot,
            document: first.doc,
            object: None,
            path: String::new(),
            line: 1,
            column: 1,
            message: format!("a cluster snapshot: {}", parts.join("; ")),
            help: Some(
                "the simulation starts from the cluster as it was when the snapshot was taken"
                    .into(),
            ),
            ko: None,
        }
        .with_ko(
            format!("클러스터 스냅샷: {}", ko.join(", ")),
            Some("시뮬레이션은 스냅샷을 찍은 순간의 클러스터에서 시작합니다".into()),
        ),
    );
}

/// `1 node`, `3 nodes`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn is_deployment(object: &Object) -> bool {
    matches!(object, Object::Workload(w) if w.kind == WorkloadKind::Deployment)
}

//! kube-scheduler: the filters that decide whether a pod can bind to a Ready node, the
//! scores that choose among the nodes that pass, and the "0/N nodes are available" summary.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{HostPort, PodAffinityTerm, StringMap, WhenUnsatisfiable};
use crate::pod::{ClassAnswers, Pod, node_matches_pod_affinity};
use crate::resources::{ResourceName, Resources};
use crate::taints::{Taint, TaintEffect, scheduler_tolerates, tolerated};
use crate::wellknown::HOSTNAME;

/// A node as kube-scheduler sees it.
#[derive(Clone, Debug)]
pub struct KubeNode {
    pub id: usize,
    pub name: String,
    pub labels: StringMap,
    pub taints: Vec<Taint>,
    pub unschedulable: bool,
    pub allocatable: Resources,
    pub requested: Resources,
    pub host_ports: Vec<HostPort>,
}

impl KubeNode {
    fn domain(&self, key: &str) -> Option<&str> {
        match self.labels.get(key) {
            Some(v) => Some(v.as_str()),
            None if key == HOSTNAME => Some(&self.name),
            None => None,
        }
    }
}

/// Why a node was filtered out, in kube-scheduler's words.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rejection {
    Unschedulable,
    Taint(String),
    NodeAffinity,
    Ports,
    Insufficient(Vec<&'static str>),
    /// NodeVolumeLimits: the node's CSI driver cannot attach another volume.
    VolumeLimits,
    /// VolumeBinding: a bound volume's node affinity does not match the node.
    VolumeNodeConflict,
    /// VolumeBinding: an unbound claim cannot be provisioned for the node (its
    /// StorageClass's `allowedTopologies`).
    VolumeBindConflict,
    Spread,
    Affinity,
    AntiAffinity,
    ExistingAntiAffinity,
    /// DynamicResources: no node publishes a device for the pod's claims.
    DynamicResources,
}

impl Rejection {
    /// Whether removing pods from the node could lift it: the plugin's status is
    /// `Unschedulable`, not `UnschedulableAndUnresolvable` (node unschedulable, taints, node
    /// affinity and a pod's own affinity are unresolvable); DefaultPreemption looks only at
    /// such nodes (`preemption.go` `findCandidates`).
    pub fn resolvable_by_preemption(&self) -> bool {
        matches!(
            self,
            Rejection::Ports
                | Rejection::Insufficient(_)
                | Rejection::Spread
                | Rejection::AntiAffinity
                | Rejection::ExistingAntiAffinity
        )
    }

    /// kube-scheduler's words for the rejection (one phrase per missing resource).
    pub fn phrases(&self) -> Vec<String> {
        match self {
            Rejection::Unschedulable => alloc::vec!["node(s) were unschedulable".into()],
            Rejection::Taint(t) => alloc::vec![format!("node(s) had untolerated taint {t}")],
            Rejection::NodeAffinity => {
                alloc::vec!["node(s) didn't match Pod's node affinity/selector".into()]
            }
            Rejection::Ports => {
                alloc::vec!["node(s) didn't have free ports for the requested pod ports".into()]
            }
            Rejection::Insufficient(rs) => rs
                .iter()
                .map(|r| {
                    if *r == "pods" {
                        String::from("Too many pods")
                    } else {
                        format!("Insufficient {r}")
                    }
                })
                .collect(),
            Rejection::VolumeLimits => alloc::vec!["node(s) exceed max volume count".into()],
            Rejection::VolumeNodeConflict => {
                alloc::vec!["node(s) had volume node affinity conflict".into()]
            }
            Rejection::VolumeBindConflict => {
                alloc::vec!["node(s) didn't find available persistent volumes to bind".into()]
            }
            Rejection::Spread => {
                alloc::vec!["node(s) didn't match pod topology spread constraints".into()]
            }
            Rejection::Affinity => alloc::vec!["node(s) didn't match pod affinity rules".into()],
            Rejection::AntiAffinity => {
                alloc::vec!["node(s) didn't match pod anti-affinity rules".into()]
            }
            Rejection::ExistingAntiAffinity => {
                alloc::vec!["node(s) didn't satisfy existing pods anti-affinity rules".into()]
            }
            Rejection::DynamicResources => alloc::vec!["cannot allocate all claims".into()],
        }
    }
}

/// The cluster as kube-scheduler sees it for one binding decision.
pub struct Cluster<'a> {
    pub nodes: &'a [KubeNode],
    pub pods: &'a [Pod],
    /// Active pods bound to each node (indices into `pods`), by node position in `nodes`.
    pub bound: &'a [Vec<usize>],
    /// The pods of `bound` with required anti-affinity terms, in the same order
    /// ([`anti_affine`]): every pod's PreFilter looks at them, and walking all of `bound`
    /// for them made binding N pods cost N × the cluster's pods.
    pub anti_affine: &'a [Vec<usize>],
    pub namespaces: &'a BTreeMap<String, StringMap>,
}

/// The pods of `bound` (per node) that carry required anti-affinity terms, in order.
pub fn anti_affine(pods: &[Pod], bound: &[Vec<usize>]) -> Vec<Vec<usize>> {
    bound
        .iter()
        .map(|on_node| {
            on_node
                .iter()
                .copied()
                .filter(|&q| !pods[q].spec.pod_anti_affinity.is_empty())
                .collect()
        })
        .collect()
}

fn term_namespaces(cluster: &Cluster<'_>, pod_ns: &str, term: &PodAffinityTerm) -> Vec<String> {
    let mut out = term.namespaces.clone();
    if let Some(sel) = &term.namespace_selector {
        for (ns, labels) in cluster.namespaces {
            if sel.matches(labels) {
                out.push(ns.clone());
            }
        }
    }
    if out.is_empty() && term.namespace_selector.is_none() {
        out.push(pod_ns.into());
    }
    out
}

fn term_selects(cluster: &Cluster<'_>, owner: &Pod, term: &PodAffinityTerm, pod: &Pod) -> bool {
    let Some(sel) = &term.label_selector else {
        return false;
    };
    if !term_namespaces(cluster, &owner.namespace, term).contains(&pod.namespace) {
        return false;
    }
    if !sel.matches(&pod.labels) {
        return false;
    }
    term.match_label_keys
        .iter()
        .all(|k| owner.labels.get(k) == pod.labels.get(k))
}

/// Whether a node's pods count for a pod's spread constraint (nodeAffinityPolicy and
/// nodeTaintsPolicy).
fn spread_counts_node(
    pod: &Pod,
    tsc: &crate::model::TopologySpreadConstraint,
    node: &KubeNode,
) -> bool {
    (!tsc.node_affinity_honor || node_matches_pod_affinity(&pod.spec, &node.labels))
        && (!tsc.node_taints_honor
            || scheduler_tolerates(&node.taints, &pod.spec.tolerations).is_ok())
}

/// Whether a spread constraint of `pod` counts `other`.
fn spread_selects(pod: &Pod, tsc: &crate::model::TopologySpreadConstraint, other: &Pod) -> bool {
    other.namespace == pod.namespace
        && tsc
            .label_selector
            .as_ref()
            .is_some_and(|s| s.matches(&other.labels))
        && tsc
            .match_label_keys
            .iter()
            .all(|k| pod.labels.get(k) == other.labels.get(k))
}

/// Matching pods per domain for one spread constraint.
type SpreadCounts = Rc<BTreeMap<String, i32>>;

/// Spread counts computed during one kube-scheduler pass, shared by pods with the same spec
/// and labels (a workload's replicas) and updated as pods bind, so that binding N replicas
/// costs N updates rather than N scans of the cluster.
#[derive(Default)]
pub struct SpreadCache {
    entries: Vec<SpreadEntry>,
}

struct SpreadEntry {
    /// A representative pod: its spec, namespace and labels define the counts.
    pod: Pod,
    index: usize,
    /// Shared with the PreFilter state of the pod being scheduled, which is gone by the
    /// time a bind updates the counts: handing them over costs no copy.
    counts: SpreadCounts,
    /// Whether the constraint counts a pod, per label class.
    selects: ClassAnswers,
}

impl SpreadCache {
    fn find(&self, pod: &Pod, index: usize) -> Option<&SpreadCounts> {
        self.entries
            .iter()
            .find(|e| {
                e.index == index
                    && Rc::ptr_eq(&e.pod.spec, &pod.spec)
                    && e.pod.label_class == pod.label_class
            })
            .map(|e| &e.counts)
    }

    /// A pod was bound to `node`: count it wherever a cached constraint selects it.
    pub fn record(&mut self, bound: &Pod, node: &KubeNode) {
        for e in &mut self.entries {
            let tsc = &e.pod.spec.topology_spread[e.index];
            if spread_counts_node(&e.pod, tsc, node)
                && e.selects.answer(bound, |b| spread_selects(&e.pod, tsc, b))
                && let Some(d) = node.domain(&tsc.topology_key)
            {
                *Rc::make_mut(&mut e.counts)
                    .entry(String::from(d))
                    .or_insert(0) += 1;
            }
        }
    }
}

/// What kube-scheduler's PreFilter phase computes once per pod, so that filtering each node
/// does not walk every pod of the cluster again.
#[derive(Clone, Debug, Default)]
pub struct PreFiltered {
    /// Per DoNotSchedule spread constraint: matching pods per domain, the global minimum,
    /// and whether the pod counts itself.
    spread: Vec<(SpreadCounts, i32, i32)>,
    /// Per required affinity term: the domains holding a matching pod, and whether the pod
    /// may start the group itself (no pod matches anywhere and the term selects the pod).
    affinity: Vec<(Vec<String>, bool)>,
    /// Per required anti-affinity term: the domains holding a matching pod.
    anti_affinity: Vec<Vec<String>>,
    /// (topology key, domain) pairs where an existing pod's anti-affinity rejects this pod.
    existing_anti: Vec<(String, String)>,
    host_ports: Vec<HostPort>,
    /// Per node (by position), what the volume plugins (NodeVolumeLimits, VolumeBinding)
    /// say of it, worked out by the caller, who holds the claims and volumes
    /// (`sim::volumes`); empty for a pod without claims.
    pub volumes: Vec<Option<Rejection>>,
}

impl Cluster<'_> {
    /// kube-scheduler's PreFilter: the per-pod state the filters need.
    pub fn prefilter(&self, pod: &Pod) -> PreFiltered {
        self.prefilter_cached(pod, &mut SpreadCache::default())
    }

    /// Spread counts for one constraint of `pod`, over the nodes it counts on.
    fn spread_counts(
        &self,
        pod: &Pod,
        tsc: &crate::model::TopologySpreadConstraint,
        selects: &ClassAnswers,
    ) -> BTreeMap<String, i32> {
        let mut counts: BTreeMap<String, i32> = BTreeMap::new();
        for (i, node) in self.nodes.iter().enumerate() {
            if !spread_counts_node(pod, tsc, node) {
                continue;
            }
            let Some(d) = node.domain(&tsc.topology_key) else {
                continue;
            };
            let matching = self.bound[i]
                .iter()
                .filter(|&&q| {
                    selects.answer(&self.pods[q], |other| spread_selects(pod, tsc, other))
                })
                .count() as i32;
            *counts.entry(String::from(d)).or_insert(0) += matching;
        }
        counts
    }

    /// [`Cluster::prefilter`], sharing spread counts between the pods of one workload; the
    /// caller keeps the cache current with [`SpreadCache::record`] as pods bind.
    pub fn prefilter_cached(&self, pod: &Pod, cache: &mut SpreadCache) -> PreFiltered {
        let mut pre = PreFiltered {
            host_ports: crate::pod::host_ports(&pod.spec),
            ..Default::default()
        };
        let spreads = pod
            .spec
            .topology_spread
            .iter()
            .enumerate()
            .filter(|(_, t)| t.when_unsatisfiable == WhenUnsatisfiable::DoNotSchedule);
        for (index, tsc) in spreads {
            let counts = match cache.find(pod, index) {
                Some(counts) => counts.clone(),
                None => {
                    let selects = ClassAnswers::default();
                    let counts = Rc::new(self.spread_counts(pod, tsc, &selects));
                    cache.entries.push(SpreadEntry {
                        pod: pod.clone(),
                        index,
                        counts: counts.clone(),
                        selects,
                    });
                    counts
                }
            };
            let mut min = counts.values().copied().min().unwrap_or(0);
            if tsc.min_domains.is_some_and(|m| (counts.len() as i32) < m) {
                min = 0;
            }
            let self_match = i32::from(
                tsc.label_selector
                    .as_ref()
                    .is_some_and(|s| s.matches(&pod.labels)),
            );
            pre.spread.push((counts, min, self_match));
        }
        let domains_with = |term: &PodAffinityTerm| -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for (i, node) in self.nodes.iter().enumerate() {
                if let Some(d) = node.domain(&term.topology_key)
                    && self.bound[i]
                        .iter()
                        .any(|&q| term_selects(self, pod, term, &self.pods[q]))
                {
                    out.push(String::from(d));
                }
            }
            out.sort();
            out.dedup();
            out
        };
        for term in &pod.spec.pod_affinity {
            let domains = domains_with(term);
            let may_start = domains.is_empty() && term_selects(self, pod, term, pod);
            pre.affinity.push((domains, may_start));
        }
        for term in &pod.spec.pod_anti_affinity {
            pre.anti_affinity.push(domains_with(term));
        }
        for (i, node) in self.nodes.iter().enumerate() {
            for other in self.anti_affine[i].iter().map(|&q| &self.pods[q]) {
                for term in &other.spec.pod_anti_affinity {
                    if term_selects(self, other, term, pod)
                        && let Some(d) = node.domain(&term.topology_key)
                    {
                        pre.existing_anti
                            .push((term.topology_key.clone(), String::from(d)));
                    }
                }
            }
        }
        pre
    }

    /// Runs the filters in kube-scheduler's order; the first failure rejects the node.
    pub fn filter(&self, pod: &Pod, n: usize) -> Result<(), Rejection> {
        self.filter_with(pod, n, &self.prefilter(pod))
    }

    /// [`Cluster::filter`] with the pod's PreFilter state computed once for all nodes.
    pub fn filter_with(&self, pod: &Pod, n: usize, pre: &PreFiltered) -> Result<(), Rejection> {
        let node = &self.nodes[n];
        if node.unschedulable {
            return Err(Rejection::Unschedulable);
        }
        if let Err(t) = scheduler_tolerates(&node.taints, &pod.spec.tolerations) {
            return Err(Rejection::Taint(crate::taints::scheduler_taint_phrase(&t)));
        }
        if !node_matches_pod_affinity(&pod.spec, &node.labels) {
            return Err(Rejection::NodeAffinity);
        }
        if super::ports_conflict(&node.host_ports, &pre.host_ports) {
            return Err(Rejection::Ports);
        }
        let free = node.allocatable - node.requested;
        let short: Vec<&'static str> = pod
            .requests
            .exceeding(&free)
            .map(ResourceName::as_str)
            .collect();
        if !short.is_empty() {
            return Err(Rejection::Insufficient(short));
        }
        // VolumeRestrictions (nothing the playground models), NodeVolumeLimits, VolumeBinding
        // and VolumeZone come next in the default profile's order.
        if let Some(Some(r)) = pre.volumes.get(n) {
            return Err(r.clone());
        }
        let spreads = pod
            .spec
            .topology_spread
            .iter()
            .filter(|t| t.when_unsatisfiable == WhenUnsatisfiable::DoNotSchedule);
        for (tsc, (counts, min, self_match)) in spreads.zip(pre.spread.iter()) {
            let Some(here) = node.domain(&tsc.topology_key) else {
                return Err(Rejection::Spread);
            };
            let here_count = counts.get(here).copied().unwrap_or(0);
            if here_count + self_match - min > tsc.max_skew {
                return Err(Rejection::Spread);
            }
        }
        for (term, (domains, may_start)) in pod.spec.pod_affinity.iter().zip(pre.affinity.iter()) {
            let Some(here) = node.domain(&term.topology_key) else {
                return Err(Rejection::Affinity);
            };
            if !*may_start && !domains.iter().any(|d| d == here) {
                return Err(Rejection::Affinity);
            }
        }
        for (term, domains) in pod
            .spec
            .pod_anti_affinity
            .iter()
            .zip(pre.anti_affinity.iter())
        {
            if node
                .domain(&term.topology_key)
                .is_some_and(|here| domains.iter().any(|d| d == here))
            {
                return Err(Rejection::AntiAffinity);
            }
        }
        if pre
            .existing_anti
            .iter()
            .any(|(key, d)| node.domain(key) == Some(d.as_str()))
        {
            return Err(Rejection::ExistingAntiAffinity);
        }
        // The DynamicResources filter (after InterPodAffinity in the default profile): the
        // simulated nodes publish no ResourceSlice, so no claim can be allocated.
        if pod.spec.dynamic_resources {
            return Err(Rejection::DynamicResources);
        }
        Ok(())
    }

    /// Scores feasible nodes like the default profile's main plugins (NodeAffinity ×2,
    /// TaintToleration ×3, NodeResourcesFit least-allocated ×1) and returns the best.
    pub fn choose(&self, pod: &Pod, feasible: &[usize]) -> Option<usize> {
        if feasible.is_empty() {
            return None;
        }
        let affinity: Vec<i64> = feasible
            .iter()
            .map(|&n| {
                pod.spec
                    .node_affinity
                    .preferred
                    .iter()
                    .filter(|t| {
                        t.requirements
                            .iter()
                            .all(|r| crate::pod::label_requirement_holds(r, &self.nodes[n].labels))
                    })
                    .map(|t| i64::from(t.weight))
                    .sum()
            })
            .collect();
        let intolerable: Vec<i64> = feasible
            .iter()
            .map(|&n| {
                self.nodes[n]
                    .taints
                    .iter()
                    .filter(|t| {
                        t.effect == TaintEffect::PreferNoSchedule
                            && !tolerated(&pod.spec.tolerations, t)
                    })
                    .count() as i64
            })
            .collect();
        let max_aff = affinity.iter().copied().max().unwrap_or(0);
        let max_int = intolerable.iter().copied().max().unwrap_or(0);
        let mut best: Option<(i64, usize)> = None;
        for (k, &n) in feasible.iter().enumerate() {
            let node = &self.nodes[n];
            let aff = if max_aff > 0 {
                affinity[k] * 100 / max_aff
            } else {
                0
            };
            let taint = if max_int > 0 {
                100 - intolerable[k] * 100 / max_int
            } else {
                100
            };
            let after = node.requested + pod.requests;
            let least = |r: ResourceName| {
                let a = node.allocatable.get(r);
                if a <= 0 {
                    0
                } else {
                    ((a - after.get(r)).max(0) * 100) / a
                }
            };
            let fit = (least(ResourceName::Cpu) + least(ResourceName::Memory)) / 2;
            let score = aff * 2 + taint * 3 + fit;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, n));
            }
        }
        best.map(|(_, n)| n)
    }

    /// `0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {..}.`
    /// (the Filter part of `FitError`; DefaultPreemption's part follows it,
    /// [`crate::sim`]'s preemption).
    pub fn summary<'r>(&self, rejections: impl IntoIterator<Item = &'r Rejection>) -> String {
        let mut rejections = rejections.into_iter().peekable();
        if rejections.peek().is_none() {
            return String::from("no nodes available to schedule pods");
        }
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for r in rejections {
            for p in r.phrases() {
                *counts.entry(p).or_insert(0) += 1;
            }
        }
        let mut parts: Vec<String> = counts
            .into_iter()
            .map(|(p, c)| format!("{c} {p}"))
            .collect();
        parts.sort();
        let n = self.nodes.len();
        if parts.is_empty() {
            format!("0/{n} nodes are available.")
        } else {
            format!("0/{n} nodes are available: {}.", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labels::LabelSelector;
    use crate::model::{PodSpec, WorkloadKind};
    use alloc::rc::Rc;
    use alloc::vec;

    fn pod(name: &str, app: &str, cpu: i64, spec: PodSpec) -> Pod {
        Pod {
            name: name.into(),
            owner: Some((WorkloadKind::Deployment, app.into())),
            labels: [("app".to_string(), app.to_string())].into_iter().collect(),
            // Every test pod here is in one namespace and labelled `app=web`.
            label_class: 0,
            spec: Rc::new(spec),
            requests: Resources::ZERO
                .with(ResourceName::Cpu, cpu)
                .with(ResourceName::Pods, 1),
            ..Pod::blank()
        }
    }

    fn node(id: usize, zone: &str, cpu: i64, taints: Vec<Taint>) -> KubeNode {
        KubeNode {
            id,
            name: alloc::format!("node-{id}"),
            labels: [("topology.kubernetes.io/zone".to_string(), zone.to_string())]
                .into_iter()
                .collect(),
            taints,
            unschedulable: false,
            allocatable: Resources::ZERO
                .with(ResourceName::Cpu, cpu)
                .with(ResourceName::Pods, 110),
            requested: Resources::ZERO,
            host_ports: vec![],
        }
    }

    fn app_selector(app: &str) -> LabelSelector {
        LabelSelector {
            match_labels: [("app".to_string(), app.to_string())].into_iter().collect(),
            match_expressions: vec![],
        }
    }

    #[test]
    fn filters_name_the_first_failing_reason_and_summarise_like_kube_scheduler() {
        let nodes = vec![
            node(0, "a", 500, vec![]),
            node(
                1,
                "b",
                4000,
                vec![Taint::new("node", "service", TaintEffect::NoSchedule)],
            ),
            node(
                2,
                "c",
                4000,
                vec![Taint::new("soft", "", TaintEffect::PreferNoSchedule)],
            ),
        ];
        let pods = vec![pod("p", "web", 1000, PodSpec::default())];
        let bound = vec![vec![], vec![], vec![]];
        let namespaces = BTreeMap::new();
        let cluster = Cluster {
            nodes: &nodes,
            pods: &pods,
            bound: &bound,
            anti_affine: &anti_affine(&pods, &bound),
            namespaces: &namespaces,
        };
        assert_eq!(
            cluster.filter(&pods[0], 0),
            Err(Rejection::Insufficient(vec!["cpu"]))
        );
        assert_eq!(
            cluster.filter(&pods[0], 1),
            Err(Rejection::Taint("{node: service}".into()))
        );
        assert_eq!(
            cluster.filter(&pods[0], 2),
            Ok(()),
            "PreferNoSchedule only lowers the score"
        );
        let summary = cluster.summary(&[
            Rejection::Insufficient(vec!["cpu"]),
            Rejection::Taint("{node: service}".into()),
        ]);
        assert!(
            summary.starts_with(
                "0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had \
                 untolerated taint {node: service}."
            ),
            "{summary}"
        );
    }

    #[test]
    fn anti_affinity_and_spread_filters_count_bound_pods() {
        let nodes = vec![node(0, "a", 8000, vec![]), node(1, "b", 8000, vec![])];
        let anti = PodAffinityTerm {
            label_selector: Some(app_selector("web")),
            namespaces: vec![],
            namespace_selector: None,
            topology_key: "topology.kubernetes.io/zone".into(),
            match_label_keys: vec![],
            mismatch_label_keys: vec![],
        };
        let spec = PodSpec {
            pod_anti_affinity: vec![anti],
            ..Default::default()
        };
        let pods = vec![
            pod("running", "web", 100, PodSpec::default()),
            pod("new", "web", 100, spec),
        ];
        let bound = vec![vec![0], vec![]];
        let namespaces = BTreeMap::new();
        let cluster = Cluster {
            nodes: &nodes,
            pods: &pods,
            bound: &bound,
            anti_affine: &anti_affine(&pods, &bound),
            namespaces: &namespaces,
        };
        assert_eq!(cluster.filter(&pods[1], 0), Err(Rejection::AntiAffinity));
        assert_eq!(cluster.filter(&pods[1], 1), Ok(()));

        let spread = crate::model::TopologySpreadConstraint {
            max_skew: 1,
            topology_key: "topology.kubernetes.io/zone".into(),
            when_unsatisfiable: WhenUnsatisfiable::DoNotSchedule,
            label_selector: Some(app_selector("web")),
            min_domains: None,
            match_label_keys: vec![],
            node_affinity_honor: true,
            node_taints_honor: false,
        };
        let spec = PodSpec {
            topology_spread: vec![spread],
            ..Default::default()
        };
        let pods = vec![
            pod("a1", "web", 100, PodSpec::default()),
            pod("a2", "web", 100, PodSpec::default()),
            pod("new", "web", 100, spec),
        ];
        let bound = vec![vec![0, 1], vec![]];
        let cluster = Cluster {
            nodes: &nodes,
            pods: &pods,
            bound: &bound,
            anti_affine: &anti_affine(&pods, &bound),
            namespaces: &namespaces,
        };
        assert_eq!(
            cluster.filter(&pods[2], 0),
            Err(Rejection::Spread),
            "zone a would reach skew 3"
        );
        assert_eq!(cluster.filter(&pods[2], 1), Ok(()));
    }

    #[test]
    fn cached_spread_counts_follow_bindings() {
        let spread = crate::model::TopologySpreadConstraint {
            max_skew: 1,
            topology_key: "topology.kubernetes.io/zone".into(),
            when_unsatisfiable: WhenUnsatisfiable::DoNotSchedule,
            label_selector: Some(app_selector("web")),
            min_domains: None,
            match_label_keys: vec![],
            node_affinity_honor: true,
            node_taints_honor: false,
        };
        let replica = pod(
            "r1",
            "web",
            100,
            PodSpec {
                topology_spread: vec![spread],
                ..Default::default()
            },
        );
        let mut sibling = replica.clone();
        sibling.name = "r2".into();
        let nodes = vec![node(0, "a", 8000, vec![]), node(1, "b", 8000, vec![])];
        let pods = vec![replica, sibling];
        let namespaces = BTreeMap::new();
        let mut cache = SpreadCache::default();
        // r1 binds to zone a; the cache learns it and r2 is then kept out of zone a.
        let empty = vec![vec![], vec![]];
        let cluster = Cluster {
            nodes: &nodes,
            pods: &pods,
            bound: &empty,
            anti_affine: &anti_affine(&pods, &empty),
            namespaces: &namespaces,
        };
        let pre = cluster.prefilter_cached(&pods[0], &mut cache);
        assert_eq!(cluster.filter_with(&pods[0], 0, &pre), Ok(()));
        cache.record(&pods[0], &nodes[0]);
        let after = vec![vec![0], vec![]];
        let cluster = Cluster {
            nodes: &nodes,
            pods: &pods,
            bound: &after,
            anti_affine: &anti_affine(&pods, &after),
            namespaces: &namespaces,
        };
        let cached = cluster.prefilter_cached(&pods[1], &mut cache);
        let fresh = cluster.prefilter(&pods[1]);
        assert_eq!(
            cached.spread, fresh.spread,
            "the cache agrees with a fresh count"
        );
        assert_eq!(
            cluster.filter_with(&pods[1], 0, &cached),
            Err(Rejection::Spread),
            "zone a would have skew 2"
        );
        assert_eq!(cluster.filter_with(&pods[1], 1, &cached), Ok(()));
    }

    #[test]
    fn scoring_prefers_preferred_affinity_then_least_allocated() {
        let mut busy = node(0, "a", 4000, vec![]);
        busy.requested = Resources::ZERO.with(ResourceName::Cpu, 3000);
        let nodes = vec![busy, node(1, "a", 4000, vec![]), node(2, "b", 4000, vec![])];
        let pods = vec![pod("p", "web", 100, PodSpec::default())];
        let bound = vec![vec![], vec![], vec![]];
        let namespaces = BTreeMap::new();
        let cluster = Cluster {
            nodes: &nodes,
            pods: &pods,
            bound: &bound,
            anti_affine: &anti_affine(&pods, &bound),
            namespaces: &namespaces,
        };
        assert_eq!(
            cluster.choose(&pods[0], &[0, 1]),
            Some(1),
            "least allocated wins"
        );
        let mut spec = PodSpec::default();
        spec.node_affinity
            .preferred
            .push(crate::model::WeightedNodeSelectorTerm {
                weight: 50,
                requirements: vec![crate::model::NodeSelectorRequirement {
                    key: "topology.kubernetes.io/zone".into(),
                    operator: crate::requirements::Operator::In,
                    values: vec!["b".into()],
                    min_values: None,
                }],
            });
        let pods = vec![pod("p", "web", 100, spec)];
        let cluster = Cluster {
            nodes: &nodes,
            pods: &pods,
            bound: &bound,
            anti_affine: &anti_affine(&pods, &bound),
            namespaces: &namespaces,
        };
        assert_eq!(cluster.choose(&pods[0], &[0, 1, 2]), Some(2));
    }
}

//! Topology spread and inter-pod (anti-)affinity, as Karpenter's `topology.go` and
//! `topologygroup.go` track them during one scheduling simulation.
//!
//! A [`TopologyGroup`] counts the pods it selects per domain (a zone, a hostname, ...). Pods
//! constrained by a group ask it which domains they may go to; the answer becomes a
//! requirement (`zone In [a]`) that is intersected with the node's. A pod is recorded in a
//! domain only once its node's requirement for the key has collapsed to one value, which is
//! why zonal affinity resolves over several rounds ("late commitment").

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::labels::{LabelSelector, LabelSelectorRequirement, SelectorOperator};
use crate::model::{PodAffinityTerm, PodSpec, StringMap, TopologySpreadConstraint};
use crate::pod::{ClassAnswers, Pod};
use crate::requirements::{Operator, Requirement, Requirements};
use crate::taints::{Taint, karpenter_tolerates};
use crate::wellknown::HOSTNAME;

/// What topology needs of an existing node: its name (its hostname domain when it has no such
/// label), its labels and its taints (a spread's node filter may honour both).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeFacts {
    pub name: String,
    pub labels: StringMap,
    pub taints: Vec<Taint>,
}

impl NodeFacts {
    fn domain<'a>(&'a self, key: &str) -> Option<&'a str> {
        match self.labels.get(key) {
            Some(d) => Some(d.as_str()),
            None if key == HOSTNAME => Some(&self.name),
            None => None,
        }
    }
}

/// Where one domain of a topology key is offered, so that each group can tell whether it is
/// one of its domains: the NodePools that could launch there, with their taints (Karpenter's
/// `TopologyDomainGroup`), and the existing nodes labelled with it (`countDomains`).
#[derive(Clone, Debug, Default)]
pub struct Offered {
    /// The taints of each NodePool offering the domain; once one without taints offers it the
    /// list is just that one (every pod tolerates it), as `TopologyDomainGroup.Insert` keeps it.
    pools: Vec<Vec<Taint>>,
    /// The existing nodes labelled with it, by the simulation's node index (sorted).
    nodes: Vec<usize>,
    /// The existing node it is the hostname of: every group has it.
    host: Option<usize>,
}

/// Every domain of every topology key in use, and where each is offered (the input a
/// [`Topology`] seeds its groups from).
#[derive(Clone, Debug, Default)]
pub struct Universe {
    domains: BTreeMap<String, BTreeMap<String, Offered>>,
    nodes: BTreeMap<usize, NodeFacts>,
}

impl Universe {
    /// A key in use, even if nothing offers a domain of it.
    pub fn key(&mut self, key: &str) {
        self.domains.entry(key.into()).or_default();
    }

    /// A NodePool with these taints could launch a node in `domain`.
    pub fn offer_from_pool(&mut self, key: &str, domain: &str, taints: &[Taint]) {
        let offered = self
            .domains
            .entry(key.into())
            .or_default()
            .entry(domain.into())
            .or_default();
        if taints.is_empty() {
            offered.pools = alloc::vec![Vec::new()];
        } else if offered.pools.first().is_none_or(|t| !t.is_empty()) {
            offered.pools.push(taints.to_vec());
        }
    }

    /// A node the scheduler is given. Its hostname is every group's (`NewExistingNode`
    /// registers it, NodeClaims in flight included); once it has a Node object (`registered`)
    /// its domains of every key in use are a group's when the group's filter counts it
    /// (`countDomains`).
    pub fn offer_from_node(&mut self, id: usize, facts: NodeFacts, registered: bool) {
        for (key, offered) in self.domains.iter_mut() {
            if key == HOSTNAME {
                offered.entry(facts.name.clone()).or_default().host = Some(id);
            }
            if !registered {
                continue;
            }
            if let Some(d) = facts.domain(key) {
                let nodes = &mut offered.entry(d.into()).or_default().nodes;
                if let Err(i) = nodes.binary_search(&id) {
                    nodes.insert(i, id);
                }
            }
        }
        self.nodes.insert(id, facts);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GroupKind {
    Spread,
    Affinity,
    AntiAffinity,
}

impl GroupKind {
    fn phrase(self) -> &'static str {
        match self {
            GroupKind::Spread => "topology spread",
            GroupKind::Affinity => "pod affinity",
            GroupKind::AntiAffinity => "pod anti-affinity",
        }
    }
}

#[derive(Clone, Debug)]
pub struct TopologyGroup {
    pub kind: GroupKind,
    pub key: String,
    namespaces: Vec<String>,
    /// `None` selects nothing.
    selector: Option<LabelSelector>,
    max_skew: i32,
    min_domains: Option<i32>,
    /// For spreads honouring node affinity: the owner's spec, whose nodeSelector and
    /// required affinity decide which nodes' pods count.
    node_filter: Option<Rc<PodSpec>>,
    /// The spec of the pod the group was made for: its tolerations decide which domains a
    /// NodePool's taints leave it (`ForEachDomain`).
    owner: Option<Rc<PodSpec>>,
    /// NodePools' taints decide its domains: a spread with `nodeTaintsPolicy: Honor`, and pod
    /// (anti-)affinity, whose node filter upstream leaves unset, which `ForEachDomain` takes
    /// as not `Ignore`.
    pool_taints_honor: bool,
    /// Nodes' taints decide which nodes count (a spread with `nodeTaintsPolicy: Honor`).
    node_taints_honor: bool,
    pub domains: BTreeMap<String, i32>,
    /// Inverse anti-affinity groups are owned by the pods that carry the term.
    pub inverse: bool,
    /// Whether the group selects a pod, per label class: every placement asks it of every
    /// group.
    selected: ClassAnswers,
}

impl TopologyGroup {
    fn new(kind: GroupKind, key: &str, namespaces: Vec<String>) -> TopologyGroup {
        TopologyGroup {
            kind,
            key: key.into(),
            namespaces,
            selector: None,
            max_skew: 0,
            min_domains: None,
            node_filter: None,
            owner: None,
            pool_taints_honor: false,
            node_taints_honor: false,
            domains: BTreeMap::new(),
            inverse: false,
            selected: ClassAnswers::default(),
        }
    }

    pub fn selects(&self, pod: &Pod) -> bool {
        self.selected.answer(pod, |pod| match &self.selector {
            Some(sel) => self.namespaces.contains(&pod.namespace) && sel.matches(&pod.labels),
            None => false,
        })
    }

    /// The group's node filter (`TopologyNodeFilter.Matches`): whether a node with these
    /// labels and taints counts, its domain and its pods.
    fn node_counts(&self, labels: &StringMap, taints: &[Taint]) -> bool {
        let affinity = match &self.node_filter {
            Some(spec) => crate::pod::node_matches_pod_affinity(spec, labels),
            None => true,
        };
        affinity
            && (!self.node_taints_honor || karpenter_tolerates(taints, self.tolerations()).is_ok())
    }

    fn tolerations(&self) -> &[crate::taints::Toleration] {
        self.owner.as_ref().map_or(&[], |s| &s.tolerations)
    }

    /// Whether a domain offered so is one of this group's: a NodePool's taints it tolerates
    /// (or ignores), or an existing node its filter counts.
    fn admits(&self, offered: &Offered, nodes: &BTreeMap<usize, NodeFacts>) -> bool {
        offered.host.is_some()
            || offered.pools.iter().any(|taints| {
                !self.pool_taints_honor || karpenter_tolerates(taints, self.tolerations()).is_ok()
            })
            || offered.nodes.iter().any(|n| {
                nodes
                    .get(n)
                    .is_some_and(|f| self.node_counts(&f.labels, &f.taints))
            })
    }

    fn requirements_count(&self, reqs: &Requirements) -> bool {
        match &self.node_filter {
            Some(spec) => {
                let strict = crate::pod::pod_requirements(spec, 0, &[]).strict;
                reqs.intersects_ok(&strict)
            }
            None => true,
        }
    }

    pub fn record(&mut self, domain: &str) {
        self.add(domain, 1);
    }

    fn add(&mut self, domain: &str, delta: i32) {
        match self.domains.get_mut(domain) {
            Some(c) => *c += delta,
            None => {
                self.domains.insert(domain.into(), delta);
            }
        }
    }

    pub fn register(&mut self, domain: &str) {
        self.domains.entry(domain.into()).or_insert(0);
    }

    fn min_count(&self, pod_domains: &Requirement) -> i32 {
        if self.key == HOSTNAME {
            return 0;
        }
        let mut min = i32::MAX;
        let mut eligible = 0;
        for (d, c) in &self.domains {
            if pod_domains.has(d) {
                eligible += 1;
                min = min.min(*c);
            }
        }
        if self.min_domains.is_some_and(|m| eligible < m) {
            min = 0;
        }
        if min == i32::MAX { 0 } else { min }
    }

    /// [`TopologyGroup::min_count`] for a pod that allows every domain (`Exists`), without
    /// building that requirement for every pod.
    fn min_count_anywhere(&self) -> i32 {
        if self.key == HOSTNAME {
            return 0;
        }
        let min = self.domains.values().copied().min().unwrap_or(0);
        if self
            .min_domains
            .is_some_and(|m| (self.domains.len() as i64) < i64::from(m))
        {
            return 0;
        }
        min
    }

    /// The domains a pod may use, given its own (strict) requirement on the key and the
    /// node's.
    pub fn next_domains(
        &self,
        self_selecting: bool,
        pod_domains: &Requirement,
        node_domains: &Requirement,
    ) -> Requirement {
        match self.kind {
            GroupKind::Spread => {
                let min = self.min_count(pod_domains);
                let candidates: Vec<(&String, i32)> = if node_domains.operator() == Operator::In {
                    node_domains
                        .values()
                        .iter()
                        .filter_map(|d| self.domains.get_key_value(d).map(|(k, c)| (k, *c)))
                        .collect()
                } else {
                    self.domains
                        .iter()
                        .filter(|(d, _)| node_domains.has(d))
                        .map(|(d, c)| (d, *c))
                        .collect()
                };
                let mut best: Option<(&String, i32)> = None;
                for (d, c) in candidates {
                    let count = if self_selecting { c + 1 } else { c };
                    if count - min <= self.max_skew && best.is_none_or(|(_, bc)| count < bc) {
                        best = Some((d, count));
                    }
                }
                match best {
                    Some((d, _)) => Requirement::in_values(&self.key, [d]),
                    None => Requirement::does_not_exist(&self.key),
                }
            }
            GroupKind::Affinity => {
                let mut options: Vec<String> = self
                    .domains
                    .iter()
                    .filter(|(d, c)| **c > 0 && pod_domains.has(d))
                    .map(|(d, _)| d.clone())
                    .collect();
                if options.is_empty() && self_selecting {
                    let both = pod_domains.intersection(node_domains);
                    if let Some(d) = self.domains.keys().find(|d| both.has(d)) {
                        options.push(d.clone());
                    } else if let Some(d) = self.domains.keys().find(|d| pod_domains.has(d)) {
                        options.push(d.clone());
                    }
                }
                if options.is_empty() {
                    Requirement::does_not_exist(&self.key)
                } else {
                    Requirement::in_values(&self.key, options)
                }
            }
            GroupKind::AntiAffinity => {
                let options: Vec<String> = self
                    .domains
                    .iter()
                    .filter(|(d, c)| **c == 0 && pod_domains.has(d))
                    .map(|(d, _)| d.clone())
                    .collect();
                if options.is_empty() {
                    Requirement::does_not_exist(&self.key)
                } else {
                    Requirement::in_values(&self.key, options)
                }
            }
        }
    }
}

/// One of a pod's spread constraints settled for an attempt: what every node it tries
/// shares (the counts do not change until the pod is placed).
#[derive(Clone, Copy, Debug)]
pub struct SpreadCheck {
    group: usize,
    self_selecting: bool,
    min: i32,
}

/// What identifies a group, so pods sharing a constraint share its counts.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct GroupSignature {
    kind: GroupKind,
    inverse: bool,
    key: String,
    namespaces: Vec<String>,
    selector: String,
    max_skew: i32,
    min_domains: Option<i32>,
    filter: usize,
}

/// One constraint a pod is subject to during an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub group: usize,
}

/// All topology groups of one scheduling simulation.
#[derive(Clone, Debug, Default)]
pub struct Topology {
    pub groups: Vec<TopologyGroup>,
    index: BTreeMap<GroupSignature, usize>,
    /// Every domain per key and where it is offered: NodePools × instance types, existing
    /// nodes.
    universe: Universe,
    /// Namespace labels, for namespace selectors.
    namespaces: BTreeMap<String, StringMap>,
    /// Cache: (spec pointer, constraint kind, index, inverse) → group.
    cache: BTreeMap<(usize, u8, usize), usize>,
}

/// Why a pod's topology cannot be met on a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologyError {
    pub message: String,
}

fn selector_signature(sel: &Option<LabelSelector>) -> String {
    alloc::format!("{sel:?}")
}

impl Topology {
    pub fn new(universe: Universe, namespaces: BTreeMap<String, StringMap>) -> Topology {
        Topology {
            universe,
            namespaces,
            ..Default::default()
        }
    }

    /// Adds a domain every group has (a new NodeClaim's hostname).
    pub fn register_domain(&mut self, key: &str, domain: &str) {
        self.universe.offer_from_pool(key, domain, &[]);
        for g in self.groups.iter_mut().filter(|g| g.key == key) {
            g.register(domain);
        }
    }

    /// Whether any pod's required anti-affinity could constrain others.
    pub fn has_inverse(&self) -> bool {
        self.groups.iter().any(|g| g.inverse)
    }

    /// Forgets a placeholder hostname whose NodeClaim was not opened after all.
    pub fn unregister_domain(&mut self, key: &str, domain: &str) {
        if let Some(domains) = self.universe.domains.get_mut(key) {
            domains.remove(domain);
        }
        for g in self.groups.iter_mut().filter(|g| g.key == key) {
            if g.domains.get(domain) == Some(&0) {
                g.domains.remove(domain);
            }
        }
    }

    fn term_namespaces(&self, pod_namespace: &str, term: &PodAffinityTerm) -> Vec<String> {
        let mut out: Vec<String> = term.namespaces.clone();
        if let Some(sel) = &term.namespace_selector {
            for (ns, labels) in &self.namespaces {
                if sel.matches(labels) {
                    out.push(ns.clone());
                }
            }
        }
        if out.is_empty() && term.namespace_selector.is_none() {
            out.push(pod_namespace.into());
        }
        out.sort();
        out.dedup();
        out
    }

    fn with_label_keys(
        sel: &Option<LabelSelector>,
        keys: &[String],
        labels: &StringMap,
        mismatch: bool,
    ) -> Option<LabelSelector> {
        let mut sel = sel.clone()?;
        for k in keys {
            if let Some(v) = labels.get(k) {
                sel.match_expressions.push(LabelSelectorRequirement {
                    key: k.clone(),
                    operator: if mismatch {
                        SelectorOperator::NotIn
                    } else {
                        SelectorOperator::In
                    },
                    values: alloc::vec![v.clone()],
                });
            }
        }
        Some(sel)
    }

    fn intern(&mut self, sig: GroupSignature, make: impl FnOnce() -> TopologyGroup) -> usize {
        if let Some(i) = self.index.get(&sig) {
            return *i;
        }
        let mut g = make();
        if let Some(domains) = self.universe.domains.get(&g.key) {
            for (d, offered) in domains {
                if g.admits(offered, &self.universe.nodes) {
                    g.register(d);
                }
            }
        }
        self.groups.push(g);
        let i = self.groups.len() - 1;
        self.index.insert(sig, i);
        i
    }

    /// The group for a topology spread constraint of a pod.
    pub fn spread_group(&mut self, pod: &Pod, idx: usize, tsc: &TopologySpreadConstraint) -> usize {
        let ckey = (Rc::as_ptr(&pod.spec) as *const u8 as usize, 0u8, idx);
        if let Some(g) = self.cache.get(&ckey) {
            return *g;
        }
        let selector = Self::with_label_keys(
            &tsc.label_selector,
            &tsc.match_label_keys,
            &pod.labels,
            false,
        );
        let filter = if tsc.node_affinity_honor
            && (!pod.spec.node_selector.is_empty() || !pod.spec.node_affinity.required.is_empty())
        {
            Some(pod.spec.clone())
        } else {
            None
        };
        // Groups whose domains or counts depend on the pod's tolerations are its own.
        let by_spec = filter.is_some() || tsc.node_taints_honor;
        let sig = GroupSignature {
            kind: GroupKind::Spread,
            inverse: false,
            key: tsc.topology_key.clone(),
            namespaces: alloc::vec![pod.namespace.clone()],
            selector: selector_signature(&selector),
            max_skew: tsc.max_skew,
            min_domains: tsc.min_domains,
            filter: if by_spec {
                Rc::as_ptr(&pod.spec) as *const u8 as usize
            } else {
                0
            },
        };
        let g = self.intern(sig, || TopologyGroup {
            selector,
            max_skew: tsc.max_skew.max(1),
            min_domains: tsc.min_domains,
            node_filter: filter,
            owner: Some(pod.spec.clone()),
            pool_taints_honor: tsc.node_taints_honor,
            node_taints_honor: tsc.node_taints_honor,
            ..TopologyGroup::new(
                GroupKind::Spread,
                &tsc.topology_key,
                alloc::vec![pod.namespace.clone()],
            )
        });
        self.cache.insert(ckey, g);
        g
    }

    /// The group for a pod (anti-)affinity term. `slot` distinguishes required and preferred
    /// terms in the cache.
    pub fn affinity_group(
        &mut self,
        pod: &Pod,
        slot: u8,
        idx: usize,
        term: &PodAffinityTerm,
        kind: GroupKind,
        inverse: bool,
    ) -> usize {
        let ckey = (Rc::as_ptr(&pod.spec) as *const u8 as usize, slot, idx);
        if let Some(g) = self.cache.get(&ckey) {
            return *g;
        }
        let selector = {
            let s = Self::with_label_keys(
                &term.label_selector,
                &term.match_label_keys,
                &pod.labels,
                false,
            );
            Self::with_label_keys(&s, &term.mismatch_label_keys, &pod.labels, true)
        };
        let namespaces = self.term_namespaces(&pod.namespace, term);
        let sig = GroupSignature {
            kind,
            inverse,
            key: term.topology_key.clone(),
            namespaces: namespaces.clone(),
            selector: selector_signature(&selector),
            max_skew: 0,
            min_domains: None,
            filter: 0,
        };
        // The first pod to make the group decides its domains, as upstream's hash leaves the
        // tolerations out of an (anti-)affinity group's identity.
        let g = self.intern(sig, || TopologyGroup {
            selector,
            inverse,
            owner: Some(pod.spec.clone()),
            pool_taints_honor: true,
            ..TopologyGroup::new(kind, &term.topology_key, namespaces)
        });
        self.cache.insert(ckey, g);
        g
    }

    /// The inverse anti-affinity groups a pod owns (its required anti-affinity terms).
    pub fn inverse_groups(&mut self, pod: &Pod) -> Vec<usize> {
        let spec = pod.spec.clone();
        (0..spec.pod_anti_affinity.len())
            .map(|i| {
                self.affinity_group(
                    pod,
                    10,
                    i,
                    &spec.pod_anti_affinity[i],
                    GroupKind::AntiAffinity,
                    true,
                )
            })
            .collect()
    }

    /// Counts (`delta` 1) or takes back (−1: the node is going away) the running pods on one
    /// node. What depends only on the node (each group's domain there,
    /// whether its node filter counts the node) is worked out once, and a pod shares the
    /// previous one's selections when it has the same namespace and labels (a workload's
    /// replicas): the counts come out as pod by pod.
    pub fn count_on_node<'p>(
        &mut self,
        on_node: impl Iterator<Item = (&'p Pod, &'p [usize])>,
        node: &NodeFacts,
        delta: i32,
    ) {
        let (node_name, labels) = (node.name.as_str(), &node.labels);
        // Per group: the domain the node's pods count in, if they count at all.
        let domains: Vec<Option<&str>> = self
            .groups
            .iter()
            .map(|g| {
                if g.inverse {
                    return None;
                }
                let domain = match labels.get(&g.key) {
                    Some(d) => d.as_str(),
                    None if g.key == HOSTNAME => node_name,
                    None => return None,
                };
                g.node_counts(labels, &node.taints).then_some(domain)
            })
            .collect();
        let mut previous: Option<&Pod> = None;
        let mut selected: Vec<bool> = alloc::vec![false; self.groups.len()];
        for (pod, owned_inverse) in on_node {
            let same = previous.is_some_and(|q| q.label_class == pod.label_class);
            if !same {
                for (i, g) in self.groups.iter().enumerate() {
                    selected[i] = domains[i].is_some() && g.selects(pod);
                }
                previous = Some(pod);
            }
            for (i, domain) in domains.iter().enumerate() {
                if let (true, Some(d)) = (selected[i], domain) {
                    self.groups[i].add(d, delta);
                }
            }
            for gi in owned_inverse {
                let g = &mut self.groups[*gi];
                let domain = labels.get(&g.key).map(String::as_str).unwrap_or(node_name);
                g.add(domain, delta);
            }
        }
    }

    /// Takes an existing node out of the domains it offers (it is going away, as a
    /// consolidation's candidate): a domain stays a group's only while a NodePool or another
    /// node still gives it to that group.
    pub fn forget_node_domains(&mut self, id: usize) {
        let Some(facts) = self.universe.nodes.remove(&id) else {
            return;
        };
        for (key, domains) in self.universe.domains.iter_mut() {
            let Some(d) = facts.domain(key) else { continue };
            let Some(offered) = domains.get_mut(d) else {
                continue;
            };
            offered.nodes.retain(|&n| n != id);
            if offered.host == Some(id) {
                offered.host = None;
            }
            let gone =
                offered.pools.is_empty() && offered.nodes.is_empty() && offered.host.is_none();
            for g in self.groups.iter_mut().filter(|g| &g.key == key) {
                if g.domains.contains_key(d) && (gone || !g.admits(offered, &self.universe.nodes)) {
                    g.domains.remove(d);
                }
            }
            if gone {
                domains.remove(d);
            }
        }
    }

    /// Records a pod placed on a node with these requirements during the simulation.
    pub fn record(&mut self, pod: &Pod, reqs: &Requirements, owned_inverse: &[usize]) {
        for g in self.groups.iter_mut() {
            if g.inverse || !g.selects(pod) || !g.requirements_count(reqs) {
                continue;
            }
            let Some(r) = reqs.get(&g.key) else { continue };
            if g.kind == GroupKind::AntiAffinity {
                if !r.is_complement() {
                    for v in r.values().to_vec() {
                        g.record(&v);
                    }
                }
            } else if let Some(v) = r.single_value() {
                g.record(v);
            }
        }
        for gi in owned_inverse {
            let g = &mut self.groups[*gi];
            if let Some(r) = reqs.get(&g.key)
                && !r.is_complement()
            {
                for v in r.values().to_vec() {
                    g.record(&v);
                }
            }
        }
    }

    /// The pod's constraints as [`SpreadCheck`]s, when they are all topology spreads and no
    /// inverse anti-affinity group exists (`None`: only [`Topology::add_requirements`]
    /// answers).
    pub fn spread_checks(
        &self,
        pod: &Pod,
        own: &[usize],
        pod_strict: &Requirements,
    ) -> Option<Vec<SpreadCheck>> {
        if self.has_inverse() {
            return None;
        }
        own.iter()
            .map(|&gi| {
                let g = &self.groups[gi];
                if g.kind != GroupKind::Spread {
                    return None;
                }
                let min = match pod_strict.get(&g.key) {
                    Some(r) => g.min_count(r),
                    None => g.min_count_anywhere(),
                };
                Some(SpreadCheck {
                    group: gi,
                    self_selecting: g.selects(pod),
                    min,
                })
            })
            .collect()
    }

    /// [`Topology::add_requirements`] for a node whose requirements hold one value for every
    /// spread's key, without building requirements: each spread then allows that value or
    /// nothing, and what it allows the node already requires. `Some(allowed)`, or `None`
    /// when some key has no single value there.
    pub fn spreads_allow(&self, checks: &[SpreadCheck], node_reqs: &Requirements) -> Option<bool> {
        for c in checks {
            let value = node_reqs.get(&self.groups[c.group].key)?.single_value()?;
            if !self.spread_allows(c, value) {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Whether a spread allows a node whose requirements hold `value` for its key (the test
    /// [`Topology::spreads_allow`] makes per check).
    fn spread_allows(&self, c: &SpreadCheck, value: &str) -> bool {
        let g = &self.groups[c.group];
        g.domains
            .get(value)
            .is_some_and(|&count| count + i32::from(c.self_selecting) - c.min <= g.max_skew)
    }

    /// Narrows `node_reqs` for the pod's constraints; the result holds one requirement per
    /// constrained key. `own` are the groups constraining the pod by its own terms; every
    /// inverse group that selects the pod also applies.
    pub fn add_requirements(
        &self,
        pod: &Pod,
        own: &[usize],
        pod_strict: &Requirements,
        node_reqs: &Requirements,
        owned_inverse: &[usize],
        detail: bool,
    ) -> Result<Requirements, TopologyError> {
        let mut out = Requirements::new();
        let inverse = self
            .groups
            .iter()
            .enumerate()
            .filter(|(i, g)| g.inverse && !owned_inverse.contains(i) && g.selects(pod))
            .map(|(i, _)| i);
        for gi in own.iter().copied().chain(inverse) {
            let g = &self.groups[gi];
            let exists = Requirement::exists(&g.key);
            let pod_domains = pod_strict.get(&g.key).unwrap_or(&exists);
            let node_domains = node_reqs.get(&g.key).unwrap_or(&exists);
            let self_selecting = g.selects(pod);
            let domains = g.next_domains(self_selecting, pod_domains, node_domains);
            if domains.is_empty() {
                if !detail {
                    return Err(TopologyError {
                        message: String::from(g.kind.phrase()),
                    });
                }
                let counts: Vec<String> = g
                    .domains
                    .iter()
                    .map(|(d, c)| alloc::format!("{d}:{c}"))
                    .collect();
                return Err(TopologyError {
                    message: alloc::format!(
                        "unsatisfiable topology constraint for {}, key={} (counts = {{{}}}, \
                         podDomains = {}, nodeDomains = {})",
                        g.kind.phrase(),
                        g.key,
                        counts.join(", "),
                        pod_domains,
                        node_domains
                    ),
                });
            }
            out.add(domains);
        }
        Ok(out)
    }
}

/// One node's single value for each topology group's key, as its requirements hold it, for
/// [`Topology::spreads_allow`] over that node: every pod of a pass asks it of every node,
/// and finding a key among a node's requirements compares strings that share long
/// prefixes. The values are kept with the requirements they were read from (held, so their
/// address is not reused) and read again when the node's requirements are replaced.
#[derive(Clone, Debug, Default)]
pub struct NodeSpreadValues {
    read_from: Option<Rc<Requirements>>,
    /// Per group index: not read yet, or the key's single value (`None`: none or several).
    values: Vec<Option<Option<String>>>,
}

impl NodeSpreadValues {
    /// Exactly [`Topology::spreads_allow`]`(checks, node_reqs)`.
    pub fn spreads_allow(
        &mut self,
        topology: &Topology,
        checks: &[SpreadCheck],
        node_reqs: &Rc<Requirements>,
    ) -> Option<bool> {
        if !self
            .read_from
            .as_ref()
            .is_some_and(|r| Rc::ptr_eq(r, node_reqs))
        {
            self.read_from = Some(node_reqs.clone());
            self.values.clear();
        }
        for c in checks {
            if self.values.len() <= c.group {
                self.values.resize(c.group + 1, None);
            }
            let value = self.values[c.group].get_or_insert_with(|| {
                node_reqs
                    .get(&topology.groups[c.group].key)
                    .and_then(|r| r.single_value())
                    .map(String::from)
            });
            if !topology.spread_allows(c, value.as_deref()?) {
                return Some(false);
            }
        }
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn group(
        kind: GroupKind,
        key: &str,
        counts: &[(&str, i32)],
        max_skew: i32,
        min_domains: Option<i32>,
    ) -> TopologyGroup {
        TopologyGroup {
            selector: Some(LabelSelector::default()),
            max_skew,
            min_domains,
            domains: counts.iter().map(|(d, c)| (String::from(*d), *c)).collect(),
            ..TopologyGroup::new(kind, key, vec!["default".into()])
        }
    }

    const ZONE: &str = "topology.kubernetes.io/zone";

    #[test]
    fn the_minimum_over_every_domain_is_the_minimum_an_exists_requirement_sees() {
        for counts in [
            &[][..],
            &[("a", 3)],
            &[("a", 2), ("b", 0), ("c", 5)],
            &[("a", -1), ("b", 4)],
        ] {
            for min_domains in [None, Some(0), Some(1), Some(2), Some(3), Some(4)] {
                for key in [ZONE, HOSTNAME] {
                    let g = group(GroupKind::Spread, key, counts, 1, min_domains);
                    let any = Requirement::exists(key);
                    assert_eq!(
                        g.min_count_anywhere(),
                        g.min_count(&any),
                        "{counts:?} {min_domains:?} {key}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_node_s_remembered_spread_values_answer_as_its_requirements_do() {
        let mut topology = Topology {
            groups: vec![
                group(
                    GroupKind::Spread,
                    ZONE,
                    &[("a", 2), ("b", 1), ("c", 0)],
                    1,
                    None,
                ),
                group(
                    GroupKind::Spread,
                    HOSTNAME,
                    &[("n1", 0), ("n2", 3)],
                    2,
                    None,
                ),
            ],
            ..Default::default()
        };
        let check = |group, self_selecting, min| SpreadCheck {
            group,
            self_selecting,
            min,
        };
        let check_sets = [
            vec![],
            vec![check(0, true, 0)],
            vec![check(0, false, 1)],
            vec![check(1, true, 0)],
            vec![check(1, false, 0), check(0, true, 1)],
            vec![check(0, true, 0), check(1, true, 1)],
        ];
        let node = |zone: &[&str], host: Option<&str>| {
            let mut r = Requirements::new();
            if !zone.is_empty() {
                r.add(Requirement::in_values(ZONE, zone.iter().copied()));
            }
            if let Some(h) = host {
                r.add(Requirement::in_values(HOSTNAME, [h]));
            }
            Rc::new(r)
        };
        let nodes = [
            node(&["a"], Some("n1")),
            node(&["b"], Some("n2")),
            node(&["c"], Some("n1")),
            node(&["z"], Some("n9")),
            node(&["a", "b"], Some("n1")),
            node(&[], Some("n2")),
            node(&["c"], None),
        ];
        // One cache per node, asked in turn about every node's requirements (a node's
        // requirements are replaced as pods narrow them) and every set of checks, twice.
        let mut caches = vec![NodeSpreadValues::default(); 2];
        for round in 0..2 {
            // Counts change between rounds as pods are recorded; the values stay.
            topology.groups[0].record("c");
            topology.groups[1].record("n1");
            for (i, reqs) in nodes.iter().enumerate() {
                for checks in &check_sets {
                    let cache = &mut caches[(i + round) % 2];
                    assert_eq!(
                        cache.spreads_allow(&topology, checks, reqs),
                        topology.spreads_allow(checks, reqs),
                        "node {i}, checks {checks:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn spread_picks_the_least_populated_allowed_domain() {
        let g = group(
            GroupKind::Spread,
            ZONE,
            &[("a", 2), ("b", 1), ("c", 1)],
            1,
            None,
        );
        let any = Requirement::exists(ZONE);
        assert_eq!(g.next_domains(true, &any, &any).values(), ["b"]);
        // Only zone a on the node: 2 + 1 − 1 > 1, so nothing is allowed.
        let only_a = Requirement::in_values(ZONE, ["a"]);
        assert!(g.next_domains(true, &any, &only_a).is_empty());
    }

    #[test]
    fn min_domains_above_the_domain_count_makes_the_minimum_zero() {
        let g = group(GroupKind::Spread, ZONE, &[("a", 1), ("b", 1)], 1, Some(3));
        let any = Requirement::exists(ZONE);
        assert!(
            g.next_domains(true, &any, &any).is_empty(),
            "1 + 1 − 0 > 1 in every zone"
        );
    }

    #[test]
    fn anti_affinity_allows_only_empty_domains_and_affinity_only_populated_ones() {
        let any = Requirement::exists(ZONE);
        let anti = group(
            GroupKind::AntiAffinity,
            ZONE,
            &[("a", 1), ("b", 0)],
            0,
            None,
        );
        assert_eq!(anti.next_domains(true, &any, &any).values(), ["b"]);
        let aff = group(GroupKind::Affinity, ZONE, &[("a", 0), ("b", 2)], 0, None);
        assert_eq!(aff.next_domains(false, &any, &any).values(), ["b"]);
        // With no matching pod anywhere, a self-selecting pod may start in the node's domain.
        let empty = group(GroupKind::Affinity, ZONE, &[("a", 0), ("b", 0)], 0, None);
        assert_eq!(
            empty
                .next_domains(true, &any, &Requirement::in_values(ZONE, ["b"]))
                .values(),
            ["b"]
        );
        assert!(empty.next_domains(false, &any, &any).is_empty());
    }
}

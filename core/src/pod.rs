//! Pods: what controllers create from a workload, and what a pod asks of a node.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::Cell;

use crate::model::{HostPort, Millis, PodSpec, PodTemplate, StringMap, Workload, WorkloadKind};
use crate::requirements::{Requirement, Requirements};
use crate::resources::{ResourceName, Resources};
use crate::rng::Rng;

/// Annotation that tells the playground how long a Job's pod runs.
pub const RUNTIME_ANNOTATION: &str = "playground.karpenter.dev/runtime";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Pending,
    Running,
    Succeeded,
    Failed,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Pending => "Pending",
            Phase::Running => "Running",
            Phase::Succeeded => "Succeeded",
            Phase::Failed => "Failed",
        }
    }
}

/// A pod in the simulated cluster.
#[derive(Clone, Debug)]
pub struct Pod {
    pub name: String,
    pub namespace: String,
    /// Top-level controller: (kind, name).
    pub owner: Option<(WorkloadKind, String)>,
    /// Index of the workload that created it in the scenario.
    pub workload: usize,
    pub labels: StringMap,
    /// The pod's label class: two pods of a cluster share one exactly when their namespaces
    /// and labels are equal ([`LabelClasses`] numbers them as pods are created; a workload's
    /// replicas share one). What a label selector says of one pod of a class it says of all,
    /// so it is worked out once per class ([`ClassAnswers`]).
    pub label_class: u32,
    pub annotations: StringMap,
    pub spec: Rc<PodSpec>,
    /// Effective request (kube-scheduler's formula) plus one `pods`.
    pub requests: Resources,
    pub created_at: Millis,
    /// Creation order; stands in for the UID in tie breaks.
    pub seq: u64,
    pub node: Option<usize>,
    pub phase: Phase,
    /// How long the pod runs once started (Jobs); `None` runs forever.
    pub runtime: Option<Millis>,
    /// The NodeClaim Karpenter last nominated the pod for.
    pub nominated: Option<String>,
    /// Karpenter's last scheduling error for the pod.
    pub karpenter_message: Option<String>,
    /// kube-scheduler's last filter summary for the pod.
    pub scheduler_message: Option<String>,
    /// Whether the pod has triggered Karpenter's batcher since it became provisionable.
    pub triggered: bool,
    pub deleted: bool,
    /// When the pod was bound and started running.
    pub started_at: Option<Millis>,
    /// kube-scheduler's `status.nominatedNodeName`: the node where it preempted pods and
    /// waits for their room (Karpenter leaves such a pod alone).
    pub nominated_node: Option<usize>,
    /// kube-scheduler preempted this pod: it terminates until then (its grace period), still
    /// holding its room on the node.
    pub preempted_until: Option<Millis>,
}

impl Pod {
    pub fn key(&self) -> String {
        alloc::format!("{}/{}", self.namespace, self.name)
    }

    pub fn is_daemon(&self) -> bool {
        matches!(self.owner, Some((WorkloadKind::DaemonSet, _)))
    }

    /// Active: exists, not finished.
    pub fn is_active(&self) -> bool {
        !self.deleted && matches!(self.phase, Phase::Pending | Phase::Running)
    }

    pub fn is_pending(&self) -> bool {
        !self.deleted && self.phase == Phase::Pending && self.node.is_none()
    }

    pub fn owner_string(&self) -> Option<String> {
        self.owner
            .as_ref()
            .map(|(k, n)| alloc::format!("{}/{}", k.as_str(), n))
    }

    pub fn has_annotation(&self, key: &str, value: &str) -> bool {
        self.annotations.get(key).is_some_and(|v| v == value)
    }
}

/// Numbers the distinct (namespace, labels) pairs of a cluster's pods from 0, in the order
/// they first appear ([`Pod::label_class`]).
#[derive(Clone, Debug, Default)]
pub struct LabelClasses {
    by_namespace: BTreeMap<String, BTreeMap<StringMap, u32>>,
    count: u32,
}

impl LabelClasses {
    /// The class of pods with these namespace and labels, new if none had them yet.
    pub fn class_of(&mut self, namespace: &str, labels: &StringMap) -> u32 {
        if let Some(&class) = self
            .by_namespace
            .get(namespace)
            .and_then(|classes| classes.get(labels))
        {
            return class;
        }
        let class = self.count;
        self.count += 1;
        self.by_namespace
            .entry(namespace.into())
            .or_default()
            .insert(labels.clone(), class);
        class
    }

    /// How many classes there are.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// A yes/no question about pods that depends only on their namespace and labels (does a
/// selector pick them?), answered once per label class ([`Pod::label_class`]) and
/// remembered: the pods of a workload then cost one answer, not one each.
///
/// The answers sit in a `Cell` so that queries holding `&self` learn them too; the vector is
/// taken out while an answer is worked out, so nothing can observe it half-written.
#[derive(Default)]
pub struct ClassAnswers {
    answers: Cell<Vec<Answer>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Unknown,
    No,
    Yes,
}

impl ClassAnswers {
    /// `decide(pod)`, asked only for the first pod of its class.
    pub fn answer(&self, pod: &Pod, decide: impl FnOnce(&Pod) -> bool) -> bool {
        let class = pod.label_class as usize;
        let mut answers = self.answers.take();
        let answer = match answers.get(class).copied().unwrap_or(Answer::Unknown) {
            Answer::Yes => true,
            Answer::No => false,
            Answer::Unknown => {
                let yes = decide(pod);
                if answers.len() <= class {
                    answers.resize(class + 1, Answer::Unknown);
                }
                answers[class] = if yes { Answer::Yes } else { Answer::No };
                yes
            }
        };
        self.answers.set(answers);
        answer
    }
}

impl Clone for ClassAnswers {
    fn clone(&self) -> ClassAnswers {
        let answers = self.answers.take();
        let copy = answers.clone();
        self.answers.set(answers);
        ClassAnswers {
            answers: Cell::new(copy),
        }
    }
}

impl core::fmt::Debug for ClassAnswers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let answers = self.answers.take();
        let out = f.debug_list().entries(answers.iter()).finish();
        self.answers.set(answers);
        out
    }
}

/// kube-scheduler's effective request (`resourcehelper.PodRequests` in
/// k8s.io/component-helpers, which Karpenter's `resources.Ceiling` calls too): the containers'
/// aggregate, each pod-level request replacing the aggregate of its resource, plus pod
/// overhead, plus one `pods`.
pub fn effective_requests(spec: &PodSpec) -> Resources {
    let mut total = aggregate_container_requests(spec);
    for (&name, &amount) in &spec.pod_requests {
        total.set(name, amount);
    }
    total += spec.overhead;
    total.set(ResourceName::Pods, 1);
    total
}

/// The containers' aggregate request (`AggregateContainerRequests`): the larger of the steady
/// state (containers plus sidecars) and the peak while each init container runs (itself plus
/// the sidecars started before it). No overhead, no `pods`.
pub fn aggregate_container_requests(spec: &PodSpec) -> Resources {
    let mut steady = Resources::ZERO;
    for c in &spec.containers {
        steady += c.requests;
    }
    let mut sidecars = Resources::ZERO;
    let mut init_peak = Resources::ZERO;
    for c in &spec.init_containers {
        let during = if c.restart_always {
            steady += c.requests;
            sidecars += c.requests;
            sidecars
        } else {
            c.requests + sidecars
        };
        init_peak = init_peak.max(&during);
    }
    steady.max(&init_peak)
}

/// The node requirements a pod states, in Karpenter's split.
#[derive(Clone, Debug)]
pub struct PodRequirements {
    /// nodeSelector and the first (still considered) required node-affinity term.
    pub strict: Requirements,
    /// `strict` plus the heaviest preferred node-affinity term still considered.
    pub preferred: Requirements,
}

/// Builds requirements from nodeSelector, the `term_index`th required term and the heaviest
/// of the given preferred terms.
pub fn pod_requirements(
    spec: &PodSpec,
    term_index: usize,
    preferred_terms: &[usize],
) -> PodRequirements {
    let mut strict = Requirements::new();
    for (k, v) in &spec.node_selector {
        strict.add(Requirement::in_values(k, [v.clone()]));
    }
    if let Some(term) = spec.node_affinity.required.get(term_index) {
        for r in term {
            strict.add(Requirement::new(
                &r.key,
                r.operator,
                r.values.iter().cloned(),
            ));
        }
    }
    let mut preferred = strict.clone();
    if let Some(best) = preferred_terms.first()
        && let Some(term) = spec.node_affinity.preferred.get(*best)
    {
        for r in &term.requirements {
            preferred.add(Requirement::new(
                &r.key,
                r.operator,
                r.values.iter().cloned(),
            ));
        }
    }
    PodRequirements { strict, preferred }
}

/// The host ports a pod holds: every `hostPort` of its containers and init containers
/// (sidecars hold theirs all along). The one definition the schedulers, the DaemonSet
/// overhead and the node views share.
pub fn host_ports(spec: &PodSpec) -> Vec<HostPort> {
    spec.containers
        .iter()
        .chain(spec.init_containers.iter())
        .flat_map(|c| c.host_ports.iter().cloned())
        .collect()
}

/// Whether a node's labels satisfy the pod's nodeSelector and required node affinity
/// (any of the ORed terms), as kube-scheduler's NodeAffinity filter checks.
pub fn node_matches_pod_affinity(spec: &PodSpec, labels: &StringMap) -> bool {
    for (k, v) in &spec.node_selector {
        if labels.get(k) != Some(v) {
            return false;
        }
    }
    if spec.node_affinity.required.is_empty() {
        return true;
    }
    spec.node_affinity
        .required
        .iter()
        .any(|term| term.iter().all(|r| label_requirement_holds(r, labels)))
}

/// One node selector requirement against a node's labels.
pub fn label_requirement_holds(
    r: &crate::model::NodeSelectorRequirement,
    labels: &StringMap,
) -> bool {
    use crate::requirements::Operator::*;
    let key = crate::wellknown::normalize_key(&r.key);
    let value = labels.get(key).or_else(|| labels.get(&r.key));
    match r.operator {
        In => value.is_some_and(|v| r.values.iter().any(|x| x == v)),
        NotIn => value.is_none_or(|v| !r.values.iter().any(|x| x == v)),
        Exists => value.is_some(),
        DoesNotExist => value.is_none(),
        Gt | Lt | Gte | Lte => match (
            value.and_then(|v| v.parse::<i64>().ok()),
            r.values.first().and_then(|v| v.parse::<i64>().ok()),
        ) {
            (Some(v), Some(b)) => match r.operator {
                Gt => v > b,
                Lt => v < b,
                Gte => v >= b,
                _ => v <= b,
            },
            _ => false,
        },
    }
}

/// FNV-1a, for deriving stable per-object random streams.
pub fn stable_hash(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.as_bytes().iter().chain(core::iter::once(&0u8)) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Names pods the way their controllers do, deterministically from the seed.
#[derive(Clone)]
pub struct PodNamer {
    rng: Rng,
}

impl PodNamer {
    pub fn new(seed: u64) -> PodNamer {
        PodNamer {
            rng: Rng::new(seed),
        }
    }

    /// The ReplicaSet name a Deployment gets: `web-5d8f7c9b4` (a pod-template hash). Each
    /// change of the pod template (`revision`) makes a new ReplicaSet.
    pub fn replicaset_name(&self, workload: &Workload, revision: u32) -> String {
        let salt = if revision == 0 {
            stable_hash(&["rs", &workload.namespace, &workload.name])
        } else {
            stable_hash(&[
                "rs",
                &workload.namespace,
                &workload.name,
                &revision.to_string(),
            ])
        };
        let mut r = self.rng.fork(salt);
        alloc::format!("{}-{}", workload.name, r.k8s_suffix(10))
    }

    /// The name of the `ordinal`th pod a workload creates, at a template revision.
    pub fn pod_name(&self, workload: &Workload, ordinal: u32, revision: u32) -> String {
        let salt = stable_hash(&[
            "pod",
            workload.kind.as_str(),
            &workload.namespace,
            &workload.name,
            &ordinal.to_string(),
        ]);
        let mut r = self.rng.fork(salt);
        match workload.kind {
            WorkloadKind::Pod => workload.name.clone(),
            WorkloadKind::StatefulSet => alloc::format!("{}-{}", workload.name, ordinal),
            WorkloadKind::Deployment => alloc::format!(
                "{}-{}",
                self.replicaset_name(workload, revision),
                r.k8s_suffix(5)
            ),
            _ => alloc::format!("{}-{}", workload.name, r.k8s_suffix(5)),
        }
    }

    /// A DaemonSet pod for a node.
    pub fn daemon_pod_name(&self, workload: &Workload, node: &str) -> String {
        let mut r = self.rng.fork(stable_hash(&[
            "ds",
            &workload.namespace,
            &workload.name,
            node,
        ]));
        alloc::format!("{}-{}", workload.name, r.k8s_suffix(5))
    }
}

/// How long a Job pod runs: the runtime annotation, else `sleep N` in its command.
pub fn job_runtime(template: &PodTemplate) -> Option<Millis> {
    if let Some(v) = template.annotations.get(RUNTIME_ANNOTATION)
        && let Ok(ms) = crate::duration::parse(v)
    {
        return Some(ms);
    }
    for c in &template.spec.containers {
        let words: Vec<&str> = c
            .command
            .iter()
            .chain(c.args.iter())
            .flat_map(|s| {
                s.split(|ch: char| ch.is_whitespace() || ch == ';' || ch == '&' || ch == '|')
            })
            .filter(|w| !w.is_empty())
            .collect();
        for pair in words.windows(2) {
            if pair[0] == "sleep"
                && let Ok(secs) = pair[1].trim_end_matches('s').parse::<u64>()
            {
                return Some(secs.saturating_mul(1000));
            }
        }
    }
    None
}

/// A pending pod in `default` with no labels, spec or requests, for tests to fill in with
/// struct-update syntax (`Pod { requests, ..Pod::blank() }`).
#[cfg(test)]
impl Pod {
    pub(crate) fn blank() -> Pod {
        Pod {
            name: String::new(),
            namespace: "default".into(),
            owner: None,
            workload: 0,
            labels: StringMap::new(),
            label_class: 0,
            annotations: StringMap::new(),
            spec: Rc::new(PodSpec::default()),
            requests: Resources::ZERO,
            created_at: 0,
            seq: 0,
            node: None,
            phase: Phase::Pending,
            runtime: None,
            nominated: None,
            karpenter_message: None,
            scheduler_message: None,
            triggered: false,
            deleted: false,
            started_at: None,
            nominated_node: None,
            preempted_until: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Container;

    fn cpu(m: i64) -> Resources {
        Resources::ZERO.with(ResourceName::Cpu, m)
    }

    fn container(m: i64, sidecar: bool) -> Container {
        Container {
            requests: cpu(m),
            restart_always: sidecar,
            ..Default::default()
        }
    }

    fn labels(pairs: &[(&str, &str)]) -> StringMap {
        pairs
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect()
    }

    #[test]
    fn label_classes_are_equal_exactly_for_equal_namespaces_and_labels() {
        let mut classes = LabelClasses::default();
        let web = labels(&[("app", "web")]);
        let web_canary = labels(&[("app", "web"), ("track", "canary")]);
        let a = classes.class_of("default", &web);
        let b = classes.class_of("default", &web_canary);
        let c = classes.class_of("team-a", &web);
        assert_eq!([a, b, c], [0, 1, 2], "numbered from 0 as they first appear");
        assert_eq!(classes.class_of("default", &labels(&[("app", "web")])), a);
        assert_eq!(classes.class_of("team-a", &web), c);
        assert_eq!(classes.class_of("default", &StringMap::new()), 3);
        assert_eq!(classes.len(), 4);
    }

    #[test]
    fn class_answers_ask_once_per_class_and_say_what_the_question_says() {
        let mut classes = LabelClasses::default();
        let mut pod = |namespace: &str, app: &str| Pod {
            name: String::from(app),
            namespace: namespace.into(),
            labels: labels(&[("app", app)]),
            label_class: classes.class_of(namespace, &labels(&[("app", app)])),
            ..Pod::blank()
        };
        let pods = [
            pod("default", "web"),
            pod("default", "db"),
            pod("default", "web"),
            pod("team-a", "web"),
            pod("default", "db"),
        ];
        let question = |p: &Pod| p.namespace == "default" && p.labels.get("app").unwrap() == "web";
        let answers = ClassAnswers::default();
        let asked = Cell::new(0);
        for _ in 0..3 {
            for p in &pods {
                let answer = answers.answer(p, |p| {
                    asked.set(asked.get() + 1);
                    question(p)
                });
                assert_eq!(answer, question(p), "{}/{}", p.namespace, p.name);
            }
        }
        assert_eq!(asked.get(), 3, "once for each of the three classes");
        let copy = answers.clone();
        assert!(copy.answer(&pods[0], |_| unreachable!("a copy keeps the answers")));
    }

    #[test]
    fn sidecars_add_to_steady_state_and_init_peaks() {
        // The conformance case: init 4.5 first, then a 2.5 sidecar, containers 3 → 5.5.
        let spec = PodSpec {
            containers: alloc::vec![container(3000, false)],
            init_containers: alloc::vec![container(4500, false), container(2500, true)],
            ..Default::default()
        };
        assert_eq!(effective_requests(&spec).cpu(), 5500);
        // A sidecar started before a big init container adds to that init container's peak.
        let spec = PodSpec {
            containers: alloc::vec![container(1000, false)],
            init_containers: alloc::vec![container(500, true), container(4000, false)],
            ..Default::default()
        };
        assert_eq!(effective_requests(&spec).cpu(), 4500);
        assert_eq!(effective_requests(&spec).pods(), 1);
    }

    #[test]
    fn job_runtime_from_sleep_or_annotation() {
        let mut t = PodTemplate::default();
        t.spec.containers.push(Container {
            command: alloc::vec![
                "sh".into(),
                "-c".into(),
                "echo Processing... && sleep 60".into()
            ],
            ..Default::default()
        });
        assert_eq!(job_runtime(&t), Some(60_000));
        t.annotations
            .insert(RUNTIME_ANNOTATION.into(), "90s".into());
        assert_eq!(job_runtime(&t), Some(90_000));
    }
}

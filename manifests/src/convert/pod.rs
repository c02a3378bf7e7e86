//! Pod specs and pod templates: containers, resources, scheduling constraints, with the API
//! server's defaults (requests from limits, toleration operator `Equal`, spread policies) and
//! its validation rules.

use std::collections::BTreeMap;

use kpg_core::model::{
    Container, HostPort, NodeAffinity, PodAffinityTerm, PodSpec, PodTemplate, StringMap,
    TopologySpreadConstraint, WeightedNodeSelectorTerm, WeightedPodAffinityTerm, WhenUnsatisfiable,
};
use kpg_core::priority::PreemptionPolicy;
use kpg_core::resources::{ResourceName, Resources};
use kpg_core::taints::{TaintEffect, Toleration, TolerationOperator};

use super::common::{self, IGNORED_METADATA, ListSite};
use crate::codes::Code;
use crate::ext;
use crate::reader::{Cx, Field, Fields, join, truncate};
use crate::schema;

/// What owns the pod spec: the allowed `restartPolicy` values differ.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// A bare pod: any restart policy.
    Pod,
    /// Deployment, ReplicaSet, StatefulSet, DaemonSet: only `Always`.
    Controller,
    /// Job: `Never` or `OnFailure`, which must be written.
    Job,
}

/// `spec.template` of a controller.
pub(crate) fn pod_template(cx: &mut Cx, f: &Field<'_>, owner: Owner) -> PodTemplate {
    let mut t = Fields::typed(cx, f, schema::V1_POD_TEMPLATE_SPEC);
    let mut labels = StringMap::new();
    let mut annotations = StringMap::new();
    if let Some(mf) = t.get("metadata") {
        let mut m = Fields::typed(cx, &mf, schema::V1_OBJECT_META);
        if let Some(l) = m.get("labels") {
            labels = common::labels(cx, &l);
        }
        if let Some(a) = m.get("annotations") {
            annotations = common::annotations(cx, &a);
        }
        m.ignore(&["name", "namespace", "generateName"]);
        m.ignore(IGNORED_METADATA);
        m.finish(cx);
    }
    let spec = match t.req(cx, "spec") {
        Some(s) => pod_spec(cx, &s, owner),
        None => PodSpec::default(),
    };
    t.finish(cx);
    PodTemplate {
        labels,
        annotations,
        spec,
    }
}

const IGNORED_POD_FIELDS: &[&str] = &[
    "automountServiceAccountToken",
    "dnsConfig",
    "dnsPolicy",
    "enableServiceLinks",
    "ephemeralContainers",
    "hostAliases",
    "hostIPC",
    "hostPID",
    "hostUsers",
    "hostname",
    "hostnameOverride",
    "imagePullSecrets",
    "os",
    "readinessGates",
    "schedulerName",
    "securityContext",
    "serviceAccount",
    "serviceAccountName",
    "setHostnameAsFQDN",
    "shareProcessNamespace",
    "subdomain",
];

/// The marker [`Cx::refer`] files a pod's written `spec.overhead` under: admission refuses an
/// overhead that no RuntimeClass sets.
pub(crate) const POD_OVERHEAD: &str = "spec.overhead";

/// The reference kinds that mark where a pod writes `priority` and `preemptionPolicy`.
pub(crate) const PRIORITY_REF: &str = "pod:priority";
pub(crate) const POLICY_REF: &str = "pod:preemptionPolicy";

/// A pod's `spec`.
pub(crate) fn pod_spec(cx: &mut Cx, f: &Field<'_>, owner: Owner) -> PodSpec {
    let mut s = Fields::typed(cx, f, schema::V1_POD_SPEC);
    let mut spec = PodSpec::default();

    let host_network = s
        .get("hostNetwork")
        .and_then(|h| cx.bool(&h))
        .unwrap_or(false);
    spec.host_network = host_network;
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut seen_ports = PortSet::new();
    match s.get("containers") {
        Some(c) => {
            let items = cx.seq(&c);
            if items.is_empty() && matches!(c.node.value, crate::yaml::Value::Seq(_)) {
                cx.error(
                    Code::NoContainers,
                    &c.path,
                    c.pos(),
                    "a pod needs at least one container",
                    Some("add `- name: app` with an `image:`".into()),
                );
                cx.ko(
                    "파드에는 컨테이너가 하나 이상 있어야 합니다",
                    Some("`image:`가 있는 `- name: app`을 추가하세요".into()),
                );
            }
            for item in items {
                if let Some(container) =
                    container(cx, &item, false, host_network, &mut names, &mut seen_ports)
                {
                    spec.containers.push(container);
                }
            }
        }
        None => {
            cx.error(
                Code::MissingField,
                &s.child_path("containers"),
                s.anchor(),
                "missing required field `containers`",
                Some("add `containers:` with at least one `- name: ...` entry".into()),
            );
            cx.ko(
                "필수 필드 `containers`가 없습니다",
                Some("`- name: ...` 항목이 하나 이상 있는 `containers:`를 추가하세요".into()),
            );
        }
    }
    if let Some(c) = s.get("initContainers") {
        for item in cx.seq(&c) {
            if let Some(container) =
                container(cx, &item, true, host_network, &mut names, &mut seen_ports)
            {
                spec.init_containers.push(container);
            }
        }
    }

    if let Some(r) = s.get("resources") {
        spec.pod_requests = pod_resources(cx, &r, &spec);
    }
    let claims = s.get("resourceClaims");
    let claims_at = match &claims {
        Some(c) if !cx.seq(c).is_empty() => Some((c.path.clone(), c.pos())),
        _ => None,
    };
    let containers_claim = spec
        .containers
        .iter()
        .chain(&spec.init_containers)
        .any(|c| c.uses_claims);
    if claims_at.is_some() || containers_claim {
        spec.dynamic_resources = true;
        let (path, pos) = claims_at.unwrap_or_else(|| (f.path.clone(), f.pos()));
        dynamic_resources_notice(cx, &path, pos);
    }
    if let Some(o) = s.get("overhead") {
        let list = common::resource_list(cx, &o, ListSite::Container);
        spec.overhead = common::to_resources(&list);
        // Where the overhead is written, for admission's findings (`assemble::admission`).
        cx.refer(POD_OVERHEAD, "", "", &o);
    }
    if let Some(r) = s.get("runtimeClassName") {
        spec.runtime_class_name = cx.str(&r).filter(|n| !n.is_empty());
        if let Some(name) = &spec.runtime_class_name {
            cx.refer("RuntimeClass", "", name, &r);
        }
    }
    if let Some(ns) = s.get("nodeSelector") {
        spec.node_selector = common::labels(cx, &ns);
    }
    if let Some(a) = s.get("affinity") {
        affinity(cx, &a, &mut spec);
    }
    if let Some(t) = s.get("tolerations") {
        spec.tolerations = tolerations(cx, &t);
    }
    if let Some(t) = s.get("topologySpreadConstraints") {
        spec.topology_spread = spread_constraints(cx, &t);
    }
    // The Priority admission plugin's inputs; `assemble::priority` finds them again by these
    // references to say where a refusal comes from.
    let priority_field = s.get("priority");
    let priority = priority_field
        .as_ref()
        .and_then(|p| cx.int(p, i64::from(i32::MIN), i64::from(i32::MAX)));
    if let (Some(f), Some(p)) = (&priority_field, priority) {
        cx.refer(PRIORITY_REF, "", &p.to_string(), f);
    }
    let class_field = s.get("priorityClassName");
    spec.priority_class_name = class_field
        .as_ref()
        .and_then(|p| cx.str(p))
        .filter(|p| !p.is_empty());
    if let (Some(f), Some(name)) = (&class_field, &spec.priority_class_name) {
        cx.refer("PriorityClass", "", name, f);
    }
    // What the Priority admission plugin makes of these is settled once every PriorityClass
    // is known (`assemble::priority`); until then a system class's value stands in.
    spec.written_priority = priority.map(|p| p as i32);
    spec.priority = match priority {
        Some(p) => p as i32,
        None => spec
            .priority_class_name
            .as_deref()
            .and_then(kpg_core::priority::system_class)
            .map_or(0, |c| c.value),
    };
    let policy_field = s.get("preemptionPolicy");
    spec.written_preemption_policy = policy_field
        .as_ref()
        .and_then(|p| cx.choice(p, &["PreemptLowerPriority", "Never"], "preemption policy"))
        .inspect(|p| {
            if let Some(f) = &policy_field {
                cx.refer(POLICY_REF, "", p, f);
            }
        })
        .map(|p| match p {
            "Never" => PreemptionPolicy::Never,
            _ => PreemptionPolicy::PreemptLowerPriority,
        });
    spec.preemption_policy = spec.written_preemption_policy.unwrap_or_default();
    spec.termination_grace_seconds = s
        .get("terminationGracePeriodSeconds")
        .and_then(|t| cx.int(&t, 0, i64::MAX));
    spec.node_name = s
        .get("nodeName")
        .and_then(|n| cx.str(&n))
        .filter(|n| !n.is_empty());

    let restart = s.get("restartPolicy");
    let policy = restart
        .as_ref()
        .and_then(|r| cx.choice(r, &["Always", "OnFailure", "Never"], "restart policy"));
    match owner {
        Owner::Pod => {}
        Owner::Controller => {
            if let (Some(p), Some(r)) = (policy, &restart)
                && p != "Always"
            {
                cx.error(
                    Code::RestartPolicyNotAllowed,
                    &r.path,
                    r.pos(),
                    format!(
                        "restartPolicy {p} is not allowed here: a controller's pods always restart"
                    ),
                    Some("use `restartPolicy: Always` or remove it".into()),
                );
                cx.ko(
                    format!(
                        "restartPolicy {p}는 여기서 쓸 수 없습니다: 컨트롤러의 \
                         파드는 항상 다시 시작합니다"
                    ),
                    Some("`restartPolicy: Always`를 쓰거나 지우세요".into()),
                );
            }
        }
        Owner::Job => match (policy, &restart) {
            (Some("Always"), Some(r)) => {
                cx.error(
                    Code::RestartPolicyNotAllowed,
                    &r.path,
                    r.pos(),
                    "a Job's pods cannot use restartPolicy Always",
                    Some("use `restartPolicy: Never` or `OnFailure`".into()),
                );
                cx.ko(
                    "Job의 파드는 restartPolicy Always를 쓸 수 없습니다",
                    Some("`restartPolicy: Never`나 `OnFailure`를 쓰세요".into()),
                );
            }
            (None, None) => {
                cx.error(
                    Code::MissingField,
                    &s.child_path("restartPolicy"),
                    s.anchor(),
                    "a Job's pod template needs a restartPolicy (the \
                     default, Always, is not allowed)",
                    Some("add `restartPolicy: Never` (or OnFailure)".into()),
                );
                cx.ko(
                    "Job의 파드 템플릿에는 restartPolicy가 있어야 합니다(기본값 \
                     Always는 허용되지 않습니다)",
                    Some("`restartPolicy: Never`(또는 OnFailure)를 추가하세요".into()),
                );
            }
            _ => {}
        },
    }
    s.not_simulated(
        cx,
        "schedulingGates",
        "a real cluster keeps the pod `SchedulingGated` (kube-scheduler and Karpenter both \
         leave it alone) until a controller removes every gate; the playground schedules it as \
         if the gates were already removed",
        "실제 클러스터에서는 컨트롤러가 게이트를 모두 지울 때까지 파드가 `SchedulingGated`로 \
         남고 kube-scheduler와 Karpenter 모두 건드리지 않습니다. 플레이그라운드는 게이트가 이미 \
         지워진 것처럼 스케줄합니다",
    );
    if let Some(name) = s.peek_str("schedulerName")
        && name != "default-scheduler"
    {
        s.not_simulated(
            cx,
            "schedulerName",
            &format!(
                "in a real cluster kube-scheduler leaves the pod to the scheduler named \
                 `{name}`, and Karpenter provisions for it only once that scheduler marks it \
                 unschedulable; the playground schedules it with kube-scheduler"
            ),
            &format!(
                "실제 클러스터에서는 kube-scheduler가 이 파드를 `{name}` 스케줄러에 맡기고, \
                 Karpenter는 그 스케줄러가 스케줄할 수 없다고 표시한 뒤에야 용량을 띄웁니다. \
                 플레이그라운드는 kube-scheduler로 스케줄합니다"
            ),
        );
    }
    s.not_simulated(
        cx,
        "activeDeadlineSeconds",
        "a real kubelet fails the pod that many seconds after it starts \
         (`DeadlineExceeded`), which frees its node; the playground keeps it running",
        "실제 kubelet은 파드가 시작되고 그 시간이 지나면 파드를 실패시키고(`DeadlineExceeded`) \
         노드를 비웁니다. 플레이그라운드는 파드를 계속 실행합니다",
    );
    if let Some(v) = s.get("volumes") {
        spec.volumes = super::storage::pod_volumes(cx, &v);
    }
    s.ignore(IGNORED_POD_FIELDS);
    s.finish(cx);
    spec
}

/// What a real cluster does with a pod that claims DRA devices, which the playground models
/// only as far as its outcome: no simulated node publishes devices (no ResourceSlice), so
/// kube-scheduler's DynamicResources filter finds none, and Karpenter from v1.7 refuses to
/// provision for such a pod while `IGNORE_DRA_REQUESTS` is on, its default
/// (`K@v1.14.1:pkg/controllers/provisioning/scheduling/scheduler.go`).
fn dynamic_resources_notice(cx: &mut Cx, path: &str, pos: crate::yaml::Pos) {
    cx.warn(
        Code::DynamicResources,
        path,
        pos,
        "the pod claims devices through Dynamic Resource Allocation, which the playground \
         does not model: Karpenter (v1.7+, `IGNORE_DRA_REQUESTS` on by default) launches no \
         node for it, and no simulated node publishes a device, so it stays pending. In a real \
         cluster kube-scheduler binds it to a node whose DRA driver publishes a matching device",
        Some(
            "remove `resourceClaims` (and the containers' `resources.claims`) to simulate the \
             pod without its devices, or request the device as an extended resource \
             (e.g. `nvidia.com/gpu`), which the simulated nodes offer"
                .into(),
        ),
    );
    cx.ko(
        "파드가 Dynamic Resource Allocation으로 장치를 요청하는데, 플레이그라운드는 이를 \
         모델링하지 않습니다. Karpenter(v1.7+, 기본값 `IGNORE_DRA_REQUESTS`)는 이 파드를 위한 \
         노드를 띄우지 않고, 장치를 게시하는 시뮬레이션 노드도 없어 파드는 대기 상태로 \
         남습니다. 실제 클러스터에서는 kube-scheduler가 맞는 장치를 게시하는 DRA 드라이버의 \
         노드에 파드를 배치합니다",
        Some(
            "장치 없이 시뮬레이션하려면 `resourceClaims`(와 컨테이너의 `resources.claims`)를 \
             지우거나, 시뮬레이션 노드가 제공하는 확장 리소스(예: `nvidia.com/gpu`)로 \
             요청하세요"
                .into(),
        ),
    );
}

/// Whether the API server takes `name` in a pod's `spec.resources` (`IsSupportedPodLevelResource`
/// in k8s.io/component-helpers: cpu, memory and hugepages).
fn supported_at_pod_level(name: &str) -> bool {
    matches!(name, "cpu" | "memory") || name.starts_with("hugepages-")
}

/// A pod's `spec.resources` (KEP-2837, Kubernetes 1.34+ with PodLevelResources on by default):
/// the API server's defaulting (`defaultPodRequests` in `pkg/apis/core/v1/defaults.go`: with
/// pod-level limits, a missing pod-level request is the containers' aggregate request, or the
/// pod-level limit when no container requests that resource) and its validation (only cpu,
/// memory and hugepages; request <= limit; the containers' aggregate request <= the pod-level
/// request; no container limit above the pod-level limit). Returns the pod-level requests
/// kube-scheduler and Karpenter use in place of the aggregate. Hugepages are checked but not
/// modelled: no node offers them.
fn pod_resources(cx: &mut Cx, f: &Field<'_>, spec: &PodSpec) -> BTreeMap<ResourceName, i64> {
    let mut r = Fields::typed(cx, f, schema::V1_RESOURCE_REQUIREMENTS);
    let requests_field = r.get("requests");
    let limits_field = r.get("limits");
    let mut lists = Vec::new();
    for field in [&requests_field, &limits_field] {
        let list = field
            .as_ref()
            .map(|q| common::resource_list(cx, q, ListSite::Container))
            .unwrap_or_default();
        let mut kept = BTreeMap::new();
        for (name, resource, v) in list {
            if supported_at_pod_level(&name) {
                kept.insert(name, (resource, v));
                continue;
            }
            let at = field.as_ref().map(|q| q.pos()).unwrap_or(f.pos());
            let path = field
                .as_ref()
                .map(|q| join(&q.path, &name))
                .unwrap_or_default();
            cx.error(
                Code::PodLevelResource,
                &path,
                at,
                format!(
                    "`{}` cannot be set at pod level: only cpu, memory and hugepages can",
                    truncate(&name, 60)
                ),
                Some(format!(
                    "move `{}` to the containers' `resources`",
                    truncate(&name, 60)
                )),
            );
            cx.ko(
                format!(
                    "`{}`는 파드 수준에 둘 수 없습니다. cpu, memory, hugepages만 됩니다",
                    truncate(&name, 60)
                ),
                Some(format!(
                    "`{}`를 컨테이너의 `resources`로 옮기세요",
                    truncate(&name, 60)
                )),
            );
        }
        lists.push(kept);
    }
    r.ignore(&["claims"]);
    r.finish(cx);
    let limits = lists.pop().unwrap_or_default();
    let mut requests = lists.pop().unwrap_or_default();
    let at = |field: &Option<Field<'_>>| field.as_ref().map(|q| q.pos()).unwrap_or(f.pos());
    let path_of = |field: &Option<Field<'_>>, name: &str| {
        field
            .as_ref()
            .map(|q| join(&q.path, name))
            .unwrap_or_else(|| join(&f.path, name))
    };

    let written: Vec<String> = requests.keys().cloned().collect();
    // Defaulting happens only when pod-level limits are set.
    let aggregate = kpg_core::pod::aggregate_container_requests(spec);
    let containers_request = |resource: ResourceName| {
        spec.containers
            .iter()
            .chain(&spec.init_containers)
            .any(|c| c.requests.get(resource) > 0)
    };
    if !limits.is_empty() {
        for (name, &(resource, limit)) in &limits {
            if requests.contains_key(name) {
                continue;
            }
            let defaulted = if containers_request(resource) {
                aggregate.get(resource)
            } else {
                limit
            };
            requests.insert(name.clone(), (resource, defaulted));
        }
    }

    for (name, &(resource, request)) in &requests {
        if let Some(&(_, limit)) = limits.get(name)
            && request > limit
        {
            // A defaulted request (the containers' aggregate) is only seen in the limit.
            let (path, pos) = if written.contains(name) {
                (path_of(&requests_field, name), at(&requests_field))
            } else {
                (path_of(&limits_field, name), at(&limits_field))
            };
            cx.error(
                Code::RequestExceedsLimit,
                &path,
                pos,
                format!("the pod-level {name} request is larger than the pod-level limit"),
                Some(format!(
                    "raise the pod-level {name} limit or lower the request"
                )),
            );
            cx.ko(
                format!("파드 수준 {name} 요청량이 파드 수준 한도보다 큽니다"),
                Some(format!(
                    "파드 수준 {name} 한도를 올리거나 요청량을 낮추세요"
                )),
            );
            continue;
        }
        let containers = aggregate.get(resource);
        if resource != ResourceName::Other && containers > request {
            let shown = kpg_core::quantity::format_for_resource(resource, containers);
            cx.error(
                Code::PodLevelResource,
                &path_of(&requests_field, name),
                at(&requests_field),
                format!(
                    "the pod-level {name} request must be at least the containers' aggregate \
                     request, {shown}"
                ),
                Some(format!(
                    "raise the pod-level {name} request to {shown} or more, or lower the \
                     containers' requests"
                )),
            );
            cx.ko(
                format!(
                    "파드 수준 {name} 요청량은 컨테이너 요청량의 합계({shown}) 이상이어야 합니다"
                ),
                Some(format!(
                    "파드 수준 {name} 요청량을 {shown} 이상으로 올리거나 컨테이너 요청량을 \
                     낮추세요"
                )),
            );
        }
    }
    for (name, &(resource, limit)) in &limits {
        let over = spec
            .containers
            .iter()
            .chain(&spec.init_containers)
            .find(|c| c.limits.get(resource) > limit);
        if let Some(c) = over
            && resource != ResourceName::Other
        {
            cx.error(
                Code::PodLevelResource,
                &path_of(&limits_field, name),
                at(&limits_field),
                format!(
                    "container `{}` has a {name} limit above the pod-level limit",
                    c.name
                ),
                Some(format!(
                    "raise the pod-level {name} limit, or lower the container's"
                )),
            );
            cx.ko(
                format!(
                    "컨테이너 `{}`의 {name} 한도가 파드 수준 한도보다 큽니다",
                    c.name
                ),
                Some(format!(
                    "파드 수준 {name} 한도를 올리거나 컨테이너의 한도를 낮추세요"
                )),
            );
        }
    }
    requests
        .into_values()
        .filter(|(resource, _)| *resource != ResourceName::Other)
        .collect()
}

const IGNORED_CONTAINER_FIELDS: &[&str] = &[
    "env",
    "envFrom",
    "image",
    "imagePullPolicy",
    "lifecycle",
    "livenessProbe",
    "readinessProbe",
    "resizePolicy",
    "restartPolicyRules",
    "securityContext",
    "startupProbe",
    "stdin",
    "stdinOnce",
    "terminationMessagePath",
    "terminationMessagePolicy",
    "tty",
    "volumeDevices",
    "volumeMounts",
    "workingDir",
];

fn container(
    cx: &mut Cx,
    f: &Field<'_>,
    init: bool,
    host_network: bool,
    names: &mut BTreeMap<String, String>,
    seen_ports: &mut PortSet,
) -> Option<Container> {
    let mut c = Fields::typed(cx, f, schema::V1_CONTAINER);
    let mut out = Container::default();
    if let Some(n) = c.req(cx, "name")
        && let Some(name) = cx.nonempty_str(&n)
    {
        if let Err(e) = ext::dns1123_label(&name) {
            cx.error(
                Code::InvalidContainerName,
                &n.path,
                n.pos(),
                format!("invalid container name `{}`: {e}", truncate(&name, 60)),
                Some("use lower-case letters, digits and -, e.g. `app`".into()),
            );
            cx.ko(
                format!(
                    "컨테이너 이름 `{}`가 올바르지 않습니다: {e}",
                    truncate(&name, 60)
                ),
                Some("소문자, 숫자, -로 쓰세요. 예: `app`".into()),
            );
        }
        if let Some(first) = names.get(&name) {
            cx.error(
                Code::DuplicateContainerName,
                &n.path,
                n.pos(),
                format!("container name `{name}` is already used by {first}"),
                Some("give every container and init container a different name".into()),
            );
            cx.ko(
                format!("컨테이너 이름 `{name}`는 이미 {first}가 쓰고 있습니다"),
                Some("컨테이너와 init 컨테이너마다 다른 이름을 붙이세요".into()),
            );
        } else {
            names.insert(name.clone(), n.path.clone());
        }
        out.name = name;
    }
    if let Some(cmd) = c.get("command") {
        out.command = cx.string_list(&cmd);
    }
    if let Some(args) = c.get("args") {
        out.args = cx.string_list(&args);
    }
    if let Some(r) = c.get("resources") {
        let (requests, limits, claims) = container_resources(cx, &r);
        out.requests = requests;
        out.limits = limits;
        out.uses_claims = claims;
    }
    if let Some(p) = c.get("ports") {
        out.host_ports = ports(cx, &p, host_network, seen_ports);
    }
    let restart = c.get("restartPolicy");
    if let Some(r) = &restart {
        if init {
            if let Some(p) = cx.choice(r, &["Always"], "init container restart policy") {
                out.restart_always = p == "Always";
            }
        } else {
            // Per-container restart policies of regular containers (an alpha feature) do not
            // change scheduling.
            let _ = cx.choice(
                r,
                &["Always", "OnFailure", "Never"],
                "container restart policy",
            );
        }
    }
    c.ignore(IGNORED_CONTAINER_FIELDS);
    c.finish(cx);
    Some(out)
}

/// `resources.requests` and `resources.limits`, with requests defaulted from limits per
/// resource as the API server does, and its request <= limit rule.
fn container_resources(cx: &mut Cx, f: &Field<'_>) -> (Resources, Resources, bool) {
    let mut r = Fields::typed(cx, f, schema::V1_RESOURCE_REQUIREMENTS);
    let mut claims = false;
    let requests_field = r.get("requests");
    let limits_field = r.get("limits");
    let requests = requests_field
        .as_ref()
        .map(|q| common::resource_list(cx, q, ListSite::Container))
        .unwrap_or_default();
    let limits = limits_field
        .as_ref()
        .map(|l| common::resource_list(cx, l, ListSite::Container))
        .unwrap_or_default();
    if let Some(c) = r.get("claims") {
        claims = !cx.seq(&c).is_empty();
    }
    r.finish(cx);

    let limit_by_name = common::by_name(&limits);
    let mut effective = common::by_name(&requests);
    for (name, (resource, v)) in &limit_by_name {
        match effective.get(name) {
            Some((_, req)) if req > v => {
                let path = requests_field
                    .as_ref()
                    .map(|q| join(&q.path, name))
                    .unwrap_or_default();
                let pos = requests_field.as_ref().map(|q| q.pos()).unwrap_or(f.pos());
                cx.error(
                    Code::RequestExceedsLimit,
                    &path,
                    pos,
                    format!("the {name} request is larger than its limit"),
                    Some(format!("raise the {name} limit or lower the request")),
                );
                cx.ko(
                    format!("{name} 요청량이 한도보다 큽니다"),
                    Some(format!("{name} 한도를 올리거나 요청량을 낮추세요")),
                );
            }
            Some((_, req)) if is_extended(name) && req != v => {
                let pos = requests_field.as_ref().map(|q| q.pos()).unwrap_or(f.pos());
                cx.error(
                    Code::ExtendedResourceLimit,
                    &f.path,
                    pos,
                    format!(
                        "the {name} request must equal its limit (an extended \
                         resource cannot be overcommitted)"
                    ),
                    Some("set the request and the limit to the same value".into()),
                );
                cx.ko(
                    format!(
                        "{name} 요청량은 한도와 같아야 합니다(확장 \
                         리소스는 초과 할당할 수 없습니다)"
                    ),
                    Some("요청량과 한도를 같은 값으로 두세요".into()),
                );
            }
            Some(_) => {}
            None => {
                effective.insert(name.clone(), (*resource, *v));
            }
        }
    }
    for name in effective.keys() {
        if is_extended(name) && !limit_by_name.contains_key(name) {
            let pos = requests_field.as_ref().map(|q| q.pos()).unwrap_or(f.pos());
            cx.error(
                Code::ExtendedResourceLimit,
                &f.path,
                pos,
                format!("the extended resource {name} needs a limit equal to its request"),
                Some(format!("add `limits: {{{name}: ...}}`")),
            );
            cx.ko(
                format!("확장 리소스 {name}에는 요청량과 같은 한도가 있어야 합니다"),
                None,
            );
        }
    }
    let mut req = Resources::ZERO;
    for (resource, v) in effective.values() {
        req.set(*resource, req.get(*resource).saturating_add(*v));
    }
    (req, common::to_resources(&limits), claims)
}

fn is_extended(name: &str) -> bool {
    match name.split_once('/') {
        Some((domain, _)) => !(domain == "kubernetes.io" || domain.ends_with(".kubernetes.io")),
        None => false,
    }
}

/// Host ports already taken in the pod: (protocol, host IP, port).
type PortSet = std::collections::BTreeSet<(&'static str, String, u16)>;

fn ports(cx: &mut Cx, f: &Field<'_>, host_network: bool, seen: &mut PortSet) -> Vec<HostPort> {
    let mut out = Vec::new();
    for item in cx.seq(f) {
        let mut p = Fields::typed(cx, &item, schema::V1_CONTAINER_PORT);
        let container_port = p
            .req(cx, "containerPort")
            .and_then(|c| cx.int(&c, 1, 65535));
        let host_port = p.get("hostPort").and_then(|h| cx.int(&h, 0, 65535));
        let protocol = p
            .get("protocol")
            .and_then(|pr| cx.choice(&pr, &["TCP", "UDP", "SCTP"], "protocol"))
            .unwrap_or("TCP");
        let host_ip = p.get("hostIP").and_then(|h| cx.str(&h)).unwrap_or_default();
        p.ignore(&["name"]);
        p.finish(cx);
        // With hostNetwork the API server defaults hostPort to containerPort.
        let port = match host_port {
            Some(h) if h > 0 => Some(h),
            _ if host_network => container_port,
            _ => None,
        };
        if let Some(port) = port.and_then(|p| u16::try_from(p).ok()) {
            if !seen.insert((protocol, host_ip.clone(), port)) {
                cx.error(
                    Code::DuplicateHostPort,
                    &item.path,
                    item.pos(),
                    format!("host port {port}/{protocol} is used twice in this pod"),
                    Some("give each container its own host port".into()),
                );
                cx.ko(
                    format!("호스트 포트 {port}/{protocol}가 이 파드에서 두 번 쓰였습니다"),
                    Some("컨테이너마다 다른 호스트 포트를 쓰세요".into()),
                );
            }
            out.push(HostPort {
                protocol: protocol.to_string(),
                host_ip,
                port,
            });
        }
    }
    out
}

fn affinity(cx: &mut Cx, f: &Field<'_>, spec: &mut PodSpec) {
    let mut a = Fields::typed(cx, f, schema::V1_AFFINITY);
    if let Some(na) = a.get("nodeAffinity") {
        spec.node_affinity = node_affinity(cx, &na);
    }
    if let Some(pa) = a.get("podAffinity") {
        let (req, pref) = pod_affinity(cx, &pa);
        spec.pod_affinity = req;
        spec.preferred_pod_affinity = pref;
    }
    if let Some(pa) = a.get("podAntiAffinity") {
        let (req, pref) = pod_affinity(cx, &pa);
        spec.pod_anti_affinity = req;
        spec.preferred_pod_anti_affinity = pref;
    }
    a.finish(cx);
}

fn node_affinity(cx: &mut Cx, f: &Field<'_>) -> NodeAffinity {
    let mut n = Fields::typed(cx, f, schema::V1_NODE_AFFINITY);
    let mut out = NodeAffinity::default();
    if let Some(req) = n.get("requiredDuringSchedulingIgnoredDuringExecution") {
        let mut r = Fields::typed(cx, &req, schema::V1_NODE_SELECTOR);
        if let Some(terms) = r.req(cx, "nodeSelectorTerms") {
            let items = cx.seq(&terms);
            if items.is_empty() && matches!(terms.node.value, crate::yaml::Value::Seq(_)) {
                cx.error(
                    Code::EmptyNodeSelectorTerms,
                    &terms.path,
                    terms.pos(),
                    "at least one node selector term is required",
                    Some(
                        "add `- matchExpressions: [...]`, or remove the required node affinity"
                            .into(),
                    ),
                );
                cx.ko(
                    "노드 선택 조건이 하나 이상 있어야 합니다",
                    Some(
                        "`- matchExpressions: [...]`를 추가하거나 필수 node affinity를 지우세요"
                            .into(),
                    ),
                );
            }
            for term in items {
                if let Some(t) = common::node_selector_term(cx, &term) {
                    out.required.push(t);
                }
            }
        }
        r.finish(cx);
    }
    if let Some(pref) = n.get("preferredDuringSchedulingIgnoredDuringExecution") {
        for item in cx.seq(&pref) {
            let mut p = Fields::typed(cx, &item, schema::V1_PREFERRED_SCHEDULING_TERM);
            let weight = p.req(cx, "weight").and_then(|w| cx.int(&w, 1, 100));
            let term = p
                .req(cx, "preference")
                .and_then(|t| common::node_selector_term(cx, &t));
            p.finish(cx);
            if let (Some(weight), Some(requirements)) = (weight, term) {
                out.preferred.push(WeightedNodeSelectorTerm {
                    weight: weight as i32,
                    requirements,
                });
            }
        }
    }
    n.finish(cx);
    out
}

fn pod_affinity(
    cx: &mut Cx,
    f: &Field<'_>,
) -> (Vec<PodAffinityTerm>, Vec<WeightedPodAffinityTerm>) {
    // Pod affinity and pod anti-affinity have the same fields.
    let mut a = Fields::typed(cx, f, schema::V1_POD_AFFINITY);
    let mut required = Vec::new();
    let mut preferred = Vec::new();
    if let Some(req) = a.get("requiredDuringSchedulingIgnoredDuringExecution") {
        for item in cx.seq(&req) {
            if let Some(t) = pod_affinity_term(cx, &item) {
                required.push(t);
            }
        }
    }
    if let Some(pref) = a.get("preferredDuringSchedulingIgnoredDuringExecution") {
        for item in cx.seq(&pref) {
            let mut p = Fields::typed(cx, &item, schema::V1_WEIGHTED_POD_AFFINITY_TERM);
            let weight = p.req(cx, "weight").and_then(|w| cx.int(&w, 1, 100));
            let term = p
                .req(cx, "podAffinityTerm")
                .and_then(|t| pod_affinity_term(cx, &t));
            p.finish(cx);
            if let (Some(weight), Some(term)) = (weight, term) {
                preferred.push(WeightedPodAffinityTerm {
                    weight: weight as i32,
                    term,
                });
            }
        }
    }
    a.finish(cx);
    (required, preferred)
}

fn label_keys(cx: &mut Cx, f: &Field<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for item in cx.seq(f) {
        if let Some(k) = cx.str(&item)
            && common::check_label_key(cx, &item.path, item.pos(), &k)
        {
            out.push(k);
        }
    }
    out
}

fn pod_affinity_term(cx: &mut Cx, f: &Field<'_>) -> Option<PodAffinityTerm> {
    let errors = cx.error_count();
    let mut t = Fields::typed(cx, f, schema::V1_POD_AFFINITY_TERM);
    let label_selector = t
        .get("labelSelector")
        .map(|s| common::label_selector(cx, &s));
    let namespaces = match t.get("namespaces") {
        Some(ns) => {
            let mut out = Vec::new();
            for item in cx.seq(&ns) {
                if let Some(n) = cx.str(&item) {
                    if let Err(e) = ext::dns1123_label(&n) {
                        cx.error(
                            Code::InvalidNamespace,
                            &item.path,
                            item.pos(),
                            format!("invalid namespace `{}`: {e}", truncate(&n, 60)),
                            Some("use lower-case letters, digits and -, e.g. `team-a`".into()),
                        );
                        cx.ko(
                            format!(
                                "네임스페이스 `{}`가 올바르지 않습니다: {e}",
                                truncate(&n, 60)
                            ),
                            Some("소문자, 숫자, -로 쓰세요. 예: `team-a`".into()),
                        );
                    }
                    out.push(n);
                }
            }
            out
        }
        None => Vec::new(),
    };
    let namespace_selector = t
        .get("namespaceSelector")
        .map(|s| common::label_selector(cx, &s));
    let topology_key = t
        .req_help(
            cx,
            "topologyKey",
            "e.g. `topologyKey: kubernetes.io/hostname` or `topology.kubernetes.io/zone`",
        )
        .and_then(|k| {
            let s = cx.nonempty_str(&k)?;
            if common::check_label_key(cx, &k.path, k.pos(), &s) {
                Some(s)
            } else {
                None
            }
        });
    let match_label_keys = t
        .get("matchLabelKeys")
        .map(|k| label_keys(cx, &k))
        .unwrap_or_default();
    let mismatch_label_keys = t
        .get("mismatchLabelKeys")
        .map(|k| label_keys(cx, &k))
        .unwrap_or_default();
    t.finish(cx);
    if cx.error_count() > errors {
        return None;
    }
    Some(PodAffinityTerm {
        label_selector,
        namespaces,
        namespace_selector,
        topology_key: topology_key?,
        match_label_keys,
        mismatch_label_keys,
    })
}

const TOLERATION_OPERATORS: &[&str] = &["Equal", "Exists"];

pub(crate) fn tolerations(cx: &mut Cx, f: &Field<'_>) -> Vec<Toleration> {
    let mut out = Vec::new();
    for item in cx.seq(f) {
        let errors = cx.error_count();
        let mut t = Fields::typed(cx, &item, schema::V1_TOLERATION);
        let key_field = t.get("key");
        let key = match &key_field {
            Some(k) => cx.str(k).unwrap_or_default(),
            None => String::new(),
        };
        if let Some(k) = &key_field
            && !key.is_empty()
        {
            common::check_label_key(cx, &k.path, k.pos(), &key);
        }
        let op_field = t.get("operator");
        let operator = match &op_field {
            Some(o) => match cx.choice(o, TOLERATION_OPERATORS, "toleration operator") {
                Some("Exists") => TolerationOperator::Exists,
                _ => TolerationOperator::Equal,
            },
            None => TolerationOperator::Equal,
        };
        let value_field = t.get("value");
        let value = value_field
            .as_ref()
            .and_then(|v| cx.str(v))
            .unwrap_or_default();
        if let Some(v) = &value_field
            && !value.is_empty()
        {
            common::check_label_value(cx, &v.path, v.pos(), &value);
        }
        let effect = t
            .get("effect")
            .and_then(|e| cx.choice(&e, common::TAINT_EFFECTS, "taint effect"))
            .and_then(TaintEffect::parse);
        t.get("tolerationSeconds")
            .and_then(|s| cx.int(&s, i64::MIN, i64::MAX));
        t.finish(cx);
        if key.is_empty() && operator != TolerationOperator::Exists {
            let pos = op_field.as_ref().map(|o| o.pos()).unwrap_or(item.pos());
            cx.error(
                Code::TolerationWithoutKey,
                &join(&item.path, "operator"),
                pos,
                "a toleration without a key must use operator Exists",
                Some("add `operator: Exists` (tolerates every taint), or set `key`".into()),
            );
            cx.ko(
                "key가 없는 toleration은 operator Exists를 써야 합니다",
                Some("`operator: Exists`(모든 테인트 허용)를 추가하거나 `key`를 쓰세요".into()),
            );
        }
        if operator == TolerationOperator::Exists && !value.is_empty() {
            let pos = value_field.as_ref().map(|v| v.pos()).unwrap_or(item.pos());
            cx.error(
                Code::TolerationExistsWithValue,
                &join(&item.path, "value"),
                pos,
                "a toleration with operator Exists takes no value",
                Some("remove `value`, or use operator Equal".into()),
            );
            cx.ko(
                "operator가 Exists인 toleration에는 value를 쓰지 않습니다",
                Some("`value`를 지우거나 operator Equal을 쓰세요".into()),
            );
        }
        if cx.error_count() == errors {
            out.push(Toleration {
                key,
                operator,
                value,
                effect,
            });
        }
    }
    out
}

fn spread_constraints(cx: &mut Cx, f: &Field<'_>) -> Vec<TopologySpreadConstraint> {
    let mut out: Vec<TopologySpreadConstraint> = Vec::new();
    for item in cx.seq(f) {
        let errors = cx.error_count();
        let mut t = Fields::typed(cx, &item, schema::V1_TOPOLOGY_SPREAD_CONSTRAINT);
        let max_skew = t
            .req(cx, "maxSkew")
            .and_then(|m| cx.int(&m, 1, i64::from(i32::MAX)));
        let topology_key = t.req(cx, "topologyKey").and_then(|k| {
            let s = cx.nonempty_str(&k)?;
            if common::check_label_key(cx, &k.path, k.pos(), &s) {
                Some(s)
            } else {
                None
            }
        });
        let when = t
            .req(cx, "whenUnsatisfiable")
            .and_then(|w| {
                cx.choice(
                    &w,
                    &["DoNotSchedule", "ScheduleAnyway"],
                    "whenUnsatisfiable value",
                )
            })
            .map(|w| {
                if w == "DoNotSchedule" {
                    WhenUnsatisfiable::DoNotSchedule
                } else {
                    WhenUnsatisfiable::ScheduleAnyway
                }
            });
        let label_selector = t
            .get("labelSelector")
            .map(|s| common::label_selector(cx, &s));
        let min_domains_field = t.get("minDomains");
        let min_domains = min_domains_field
            .as_ref()
            .and_then(|m| cx.int(m, 1, i64::from(i32::MAX)))
            .map(|m| m as i32);
        let match_label_keys = t
            .get("matchLabelKeys")
            .map(|k| label_keys(cx, &k))
            .unwrap_or_default();
        let node_affinity_honor = t
            .get("nodeAffinityPolicy")
            .and_then(|p| cx.choice(&p, &["Honor", "Ignore"], "nodeAffinityPolicy"))
            .is_none_or(|p| p == "Honor");
        let node_taints_honor = t
            .get("nodeTaintsPolicy")
            .and_then(|p| cx.choice(&p, &["Honor", "Ignore"], "nodeTaintsPolicy"))
            .is_some_and(|p| p == "Honor");
        t.finish(cx);
        if let (Some(_), Some(WhenUnsatisfiable::ScheduleAnyway), Some(m)) =
            (min_domains, when, &min_domains_field)
        {
            cx.error(
                Code::MinDomainsNeedsDoNotSchedule,
                &m.path,
                m.pos(),
                "minDomains can only be used with whenUnsatisfiable: DoNotSchedule",
                Some("set `whenUnsatisfiable: DoNotSchedule`, or remove `minDomains`".into()),
            );
            cx.ko(
                "minDomains는 whenUnsatisfiable: DoNotSchedule과 함께만 쓸 수 있습니다",
                Some(
                    "`whenUnsatisfiable: DoNotSchedule`로 바꾸거나 `minDomains`를 지우세요".into(),
                ),
            );
        }
        if let (Some(key), Some(when)) = (&topology_key, when)
            && out
                .iter()
                .any(|c| &c.topology_key == key && c.when_unsatisfiable == when)
        {
            cx.error(
                Code::DuplicateSpreadConstraint,
                &item.path,
                item.pos(),
                format!(
                    "a second constraint with topologyKey {key} and the same whenUnsatisfiable"
                ),
                Some("merge the two constraints".into()),
            );
            cx.ko(
                format!("topologyKey {key}와 whenUnsatisfiable이 같은 제약이 두 번 있습니다"),
                Some("두 제약을 하나로 합치세요".into()),
            );
        }
        if cx.error_count() > errors {
            continue;
        }
        if let (Some(max_skew), Some(topology_key), Some(when_unsatisfiable)) =
            (max_skew, topology_key, when)
        {
            out.push(TopologySpreadConstraint {
                max_skew: max_skew as i32,
                topology_key,
                when_unsatisfiable,
                label_selector,
                min_domains,
                match_label_keys,
                node_affinity_honor,
                node_taints_honor,
            });
        }
    }
    out
}

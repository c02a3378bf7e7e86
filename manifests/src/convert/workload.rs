//! Pods and the controllers that create them, PodDisruptionBudgets and Namespaces.

use kpg_core::labels::LabelSelector;
use kpg_core::model::{
    IntOrPercent, Namespace, PodDisruptionBudget, PodTemplate, Workload, WorkloadKind,
};

use super::common::{self, Meta, NameRule};
use super::pod::{self, Owner};
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields};
use crate::schema;

const MAX_REPLICAS: i64 = i32::MAX as i64;

/// A bare `v1` Pod: a workload of one.
pub(crate) fn pod(cx: &mut Cx, root: &Field<'_>) -> (Meta, Workload) {
    let mut r = Fields::typed(cx, root, schema::V1_POD);
    let meta = common::metadata(cx, &mut r, true, NameRule::Subdomain);
    let spec = match r.req(cx, "spec") {
        Some(s) => pod::pod_spec(cx, &s, Owner::Pod),
        None => Default::default(),
    };
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    let workload = Workload {
        kind: WorkloadKind::Pod,
        name: meta.name.clone(),
        namespace: meta.namespace.clone(),
        labels: meta.labels.clone(),
        replicas: 1,
        completions: None,
        selector: None,
        template: PodTemplate {
            labels: meta.labels.clone(),
            annotations: meta.annotations.clone(),
            spec,
        },
        document: cx.doc,
        existing: Vec::new(),
    };
    (meta, workload)
}

/// Deployment, ReplicaSet, StatefulSet, DaemonSet and Job.
pub(crate) fn controller(cx: &mut Cx, root: &Field<'_>, kind: WorkloadKind) -> (Meta, Workload) {
    let (object_ty, spec_ty) = match kind {
        WorkloadKind::StatefulSet => (schema::V1_STATEFUL_SET, schema::V1_STATEFUL_SET_SPEC),
        WorkloadKind::DaemonSet => (schema::V1_DAEMON_SET, schema::V1_DAEMON_SET_SPEC),
        WorkloadKind::ReplicaSet => (schema::V1_REPLICA_SET, schema::V1_REPLICA_SET_SPEC),
        WorkloadKind::Job => (schema::V1_JOB, schema::V1_JOB_SPEC),
        _ => (schema::V1_DEPLOYMENT, schema::V1_DEPLOYMENT_SPEC),
    };
    let mut r = Fields::typed(cx, root, object_ty);
    let mut meta = common::metadata(cx, &mut r, true, NameRule::Subdomain);
    let mut workload = Workload {
        kind,
        name: meta.name.clone(),
        namespace: meta.namespace.clone(),
        labels: meta.labels.clone(),
        replicas: 1,
        completions: None,
        selector: None,
        template: PodTemplate::default(),
        document: cx.doc,
        existing: Vec::new(),
    };
    if let Some(sf) = r.req(cx, "spec") {
        let mut s = Fields::typed(cx, &sf, spec_ty);
        let owner = if kind == WorkloadKind::Job {
            Owner::Job
        } else {
            Owner::Controller
        };
        if let Some(t) = s.req(cx, "template") {
            workload.template = pod::pod_template(cx, &t, owner);
        }
        match kind {
            WorkloadKind::Job => {
                let parallelism_field = s.get("parallelism");
                if let Some(f) = &parallelism_field {
                    meta.count_at = Some((f.pos(), "spec.parallelism"));
                }
                let parallelism = parallelism_field.and_then(|p| cx.int(&p, 0, MAX_REPLICAS));
                let completions = s
                    .get("completions")
                    .and_then(|c| cx.int(&c, 0, MAX_REPLICAS));
                // batch/v1 defaulting: both unset means one pod, run once; an unset
                // parallelism is 1; an unset completions alone stays unset (a work queue).
                workload.replicas = parallelism.unwrap_or(1) as u32;
                workload.completions = match (parallelism, completions) {
                    (None, None) => Some(1),
                    (_, c) => c.map(|c| c as u32),
                };
                // A suspended Job's controller creates no pods (and deletes any it had) until
                // it is resumed: a Timeline `apply` with `suspend: false` resumes it.
                if s.get("suspend").and_then(|f| cx.bool(&f)) == Some(true) {
                    workload.replicas = 0;
                }
                s.not_simulated(
                    cx,
                    "activeDeadlineSeconds",
                    "a real Job controller stops the Job's pods that many seconds after the Job \
                     starts (`DeadlineExceeded`); the playground lets them run to completion",
                    "실제 Job 컨트롤러는 Job이 시작되고 그 시간이 지나면 Job의 파드를 \
                     멈춥니다(`DeadlineExceeded`). 플레이그라운드는 파드를 끝까지 실행합니다",
                );
                s.ignore(&[
                    "backoffLimit",
                    "backoffLimitPerIndex",
                    "completionMode",
                    "manualSelector",
                    "managedBy",
                    "maxFailedIndexes",
                    "podFailurePolicy",
                    "podReplacementPolicy",
                    "selector",
                    "successPolicy",
                    "ttlSecondsAfterFinished",
                ]);
            }
            _ => {
                if kind == WorkloadKind::DaemonSet {
                    // One pod per eligible node: the engine decides how many.
                    workload.replicas = 0;
                } else {
                    let replicas_field = s.get("replicas");
                    if let Some(f) = &replicas_field {
                        meta.count_at = Some((f.pos(), "spec.replicas"));
                    }
                    workload.replicas = replicas_field
                        .and_then(|n| cx.int(&n, 0, MAX_REPLICAS))
                        .unwrap_or(1) as u32;
                }
                let selector_field = s.req_help(
                    cx,
                    "selector",
                    "add `selector: {matchLabels: ...}` matching the template's labels",
                );
                if let Some(sel) = &selector_field {
                    let selector = common::label_selector(cx, sel);
                    if selector.match_labels.is_empty() && selector.match_expressions.is_empty() {
                        cx.error(
                            Code::EmptySelector,
                            &sel.path,
                            sel.pos(),
                            "an empty selector is not allowed here",
                            Some(
                                "select the template's labels, e.g. `matchLabels: {app: web}`"
                                    .into(),
                            ),
                        );
                        cx.ko(
                            "여기서는 빈 selector를 쓸 수 없습니다",
                            Some(
                                "템플릿의 레이블을 선택하세요. 예: `matchLabels: {app: web}`"
                                    .into(),
                            ),
                        );
                    } else if cx.error_count() == 0
                        && !selects(&selector, &workload.template.labels)
                    {
                        cx.error(
                            Code::SelectorMismatch,
                            &sel.path,
                            sel.pos(),
                            "the selector does not match the template's labels",
                            Some(
                                "make `spec.template.metadata.labels` carry every label the \
                                 selector asks for"
                                    .into(),
                            ),
                        );
                        cx.ko(
                            "selector가 템플릿의 레이블과 맞지 않습니다",
                            Some(
                                "`spec.template.metadata.labels`에 selector가 요구하는 \
                                 레이블을 모두 넣으세요"
                                    .into(),
                            ),
                        );
                    }
                    workload.selector = Some(selector);
                }
                s.ignore(&["minReadySeconds"]);
                if kind != WorkloadKind::ReplicaSet {
                    s.ignore(&["revisionHistoryLimit"]);
                }
                if kind == WorkloadKind::StatefulSet
                    && let Some(t) = s.get("volumeClaimTemplates")
                {
                    // The StatefulSet controller gives every pod a volume per template,
                    // replacing a template volume of the same name.
                    let templates = super::storage::claim_templates(cx, &t);
                    let volumes = &mut workload.template.spec.volumes;
                    volumes.retain(|v| !templates.iter().any(|t| t.name() == v.name()));
                    volumes.extend(templates);
                }
                match kind {
                    WorkloadKind::Deployment => {
                        s.ignore(&["strategy", "paused", "progressDeadlineSeconds"])
                    }
                    WorkloadKind::StatefulSet => s.ignore(&[
                        "serviceName",
                        "podManagementPolicy",
                        "updateStrategy",
                        "persistentVolumeClaimRetentionPolicy",
                        "ordinals",
                    ]),
                    WorkloadKind::DaemonSet => s.ignore(&["updateStrategy"]),
                    _ => {}
                }
            }
        }
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, workload)
}

/// Whether `selector` selects `labels`, as the apps/v1 validation checks a controller's
/// selector against its template.
fn selects(selector: &LabelSelector, labels: &kpg_core::model::StringMap) -> bool {
    use kpg_core::labels::SelectorOperator;
    selector
        .match_labels
        .iter()
        .all(|(k, v)| labels.get(k) == Some(v))
        && selector.match_expressions.iter().all(|e| {
            let value = labels.get(&e.key);
            match e.operator {
                SelectorOperator::In => value.is_some_and(|v| e.values.contains(v)),
                SelectorOperator::NotIn => value.is_none_or(|v| !e.values.contains(v)),
                SelectorOperator::Exists => value.is_some(),
                SelectorOperator::DoesNotExist => value.is_none(),
            }
        })
}

/// `policy/v1` PodDisruptionBudget. `None` when it selects nothing (no selector).
pub(crate) fn pdb(cx: &mut Cx, root: &Field<'_>) -> (Meta, Option<PodDisruptionBudget>) {
    let mut r = Fields::typed(cx, root, schema::V1_POD_DISRUPTION_BUDGET);
    let meta = common::metadata(cx, &mut r, true, NameRule::Subdomain);
    let mut out = None;
    if let Some(sf) = r.req(cx, "spec") {
        let mut s = Fields::typed(cx, &sf, schema::V1_POD_DISRUPTION_BUDGET_SPEC);
        let selector = s
            .get("selector")
            .map(|sel| common::label_selector(cx, &sel));
        let min_field = s.get("minAvailable");
        let max_field = s.get("maxUnavailable");
        let min_available = min_field.as_ref().and_then(|f| int_or_percent(cx, f));
        let max_unavailable = max_field.as_ref().and_then(|f| int_or_percent(cx, f));
        if let (Some(_), Some(m)) = (&min_field, &max_field) {
            cx.error(
                Code::PdbMinAndMax,
                &m.path,
                m.pos(),
                "minAvailable and maxUnavailable cannot both be set",
                Some("keep one of them".into()),
            );
            cx.ko(
                "minAvailable과 maxUnavailable을 함께 쓸 수 없습니다",
                Some("둘 중 하나만 남기세요".into()),
            );
        }
        s.ignore(&["unhealthyPodEvictionPolicy"]);
        s.finish(cx);
        match selector {
            Some(selector) => {
                out = Some(PodDisruptionBudget {
                    name: meta.name.clone(),
                    namespace: meta.namespace.clone(),
                    selector,
                    min_available,
                    max_unavailable,
                })
            }
            None => {
                cx.warn(
                    Code::PdbWithoutSelector,
                    &s_path(&sf, "selector"),
                    sf.key_pos,
                    "a PodDisruptionBudget without a selector selects no pods; it has no effect",
                    Some("add `selector: {matchLabels: ...}`".into()),
                );
                cx.ko(
                    "selector가 없는 PodDisruptionBudget은 아무 파드도 고르지 않아 효과가 없습니다",
                    Some("`selector: {matchLabels: ...}`를 추가하세요".into()),
                );
            }
        }
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, out)
}

fn s_path(f: &Field<'_>, key: &str) -> String {
    crate::reader::join(&f.path, key)
}

fn int_or_percent(cx: &mut Cx, f: &Field<'_>) -> Option<IntOrPercent> {
    match &f.node.value {
        crate::yaml::Value::Int(_) => cx
            .int(f, 0, MAX_REPLICAS)
            .map(|v| IntOrPercent::Int(v as i32)),
        crate::yaml::Value::Str(s) => {
            let pct = s
                .strip_suffix('%')
                .and_then(|n| n.parse::<i32>().ok())
                .filter(|n| (0..=100).contains(n));
            match pct {
                Some(p) => Some(IntOrPercent::Percent(p)),
                None => {
                    let help = if s.parse::<i64>().is_ok() {
                        format!("write a count without quotes ({s}) or a percentage (\"{s}%\")")
                    } else {
                        "use a count such as 1 or a percentage such as \"50%\"".into()
                    };
                    cx.error(
                        Code::InvalidIntOrPercent,
                        &f.path,
                        f.pos(),
                        format!("`{s}` is neither a count nor a percentage between 0% and 100%"),
                        Some(help),
                    );
                    cx.ko(
                        format!("`{s}`는 개수도 0%에서 100% 사이의 백분율도 아닙니다"),
                        None,
                    );
                    None
                }
            }
        }
        _ => {
            cx.error(
                Code::InvalidType,
                &f.path,
                f.pos(),
                format!(
                    "expected a count or a percentage, found {}",
                    f.node.type_name()
                ),
                Some("e.g. 1 or \"50%\"".into()),
            );
            cx.ko(
                format!("개수나 백분율이어야 하는데 {}입니다", f.node.type_name()),
                Some("예: 1 또는 \"50%\"".into()),
            );
            None
        }
    }
}

/// `v1` Namespace.
pub(crate) fn namespace(cx: &mut Cx, root: &Field<'_>) -> (Meta, Namespace) {
    let mut r = Fields::typed(cx, root, schema::V1_NAMESPACE);
    let meta = common::metadata(cx, &mut r, false, NameRule::Label);
    r.ignore(&["apiVersion", "kind", "spec", "status"]);
    r.finish(cx);
    let ns = Namespace {
        name: meta.name.clone(),
        labels: meta.labels.clone(),
    };
    (meta, ns)
}

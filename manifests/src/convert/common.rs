//! Pieces shared by several kinds: object metadata, labels, taints, node selector
//! requirements, label selectors and resource lists, validated as the API server would.

use std::collections::BTreeMap;

use kpg_core::karpenter::Behaviour;
use kpg_core::labels::{LabelSelector, LabelSelectorRequirement, SelectorOperator};
use kpg_core::model::{NodeSelectorRequirement, StringMap};
use kpg_core::requirements::Operator;
use kpg_core::resources::{ResourceName, Resources};
use kpg_core::taints::{Taint, TaintEffect};
use kpg_core::wellknown;

use crate::codes::Code;
use crate::ext;
use crate::reader::{Cx, Field, Fields, Need, truncate};
use crate::schema;
use crate::yaml::Pos;

/// Metadata fields the API server manages or that do not matter to the simulation.
pub(crate) const IGNORED_METADATA: &[&str] = &[
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "ownerReferences",
    "finalizers",
    "managedFields",
    "selfLink",
];

/// How an object's name is validated.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameRule {
    /// Most objects: a DNS-1123 subdomain.
    Subdomain,
    /// Namespaces (and the namespace field): a DNS-1123 label.
    Label,
    /// The playground's own kinds: any non-empty string.
    Free,
}

pub(crate) struct Meta {
    pub name: String,
    pub name_pos: Pos,
    /// Where a workload says how many pods it runs (`spec.replicas`, a Job's
    /// `spec.parallelism`), and that path: what a diagnostic about the pod count points at.
    pub count_at: Option<(Pos, &'static str)>,
    pub namespace: String,
    pub labels: StringMap,
    pub annotations: StringMap,
}

/// Reads `metadata` of the object whose fields are `root`. `namespaced` objects get the
/// `default` namespace when none is given.
pub(crate) fn metadata(
    cx: &mut Cx,
    root: &mut Fields<'_>,
    namespaced: bool,
    rule: NameRule,
) -> Meta {
    let mut meta = Meta {
        name: String::new(),
        name_pos: root.anchor(),
        count_at: None,
        namespace: if namespaced {
            String::from("default")
        } else {
            String::new()
        },
        labels: StringMap::new(),
        annotations: StringMap::new(),
    };
    let Some(mf) = root.req(cx, "metadata") else {
        return meta;
    };
    let mut m = Fields::typed(cx, &mf, schema::V1_OBJECT_META);
    let has_generate_name = m.get("generateName").is_some();
    match m.get("name") {
        Some(f) => {
            meta.name_pos = f.pos();
            if let Some(name) = cx.nonempty_str(&f) {
                let check = match rule {
                    NameRule::Subdomain => ext::dns1123_subdomain(&name),
                    NameRule::Label => ext::dns1123_label(&name),
                    NameRule::Free => Ok(()),
                };
                if let Err(e) = check {
                    cx.error(
                        Code::InvalidName,
                        &f.path,
                        f.pos(),
                        format!("invalid name `{}`: {e}", truncate(&name, 60)),
                        Some(name_help(rule)),
                    );
                    cx.ko(
                        format!("이름 `{}`이 올바르지 않습니다: {e}", truncate(&name, 60)),
                        None,
                    );
                }
                meta.name = name;
            }
        }
        None => {
            let help = if has_generate_name {
                "`generateName` is not supported: give the object a fixed `name`"
            } else {
                "add `name:` under `metadata`"
            };
            cx.error(
                Code::MissingField,
                &m.child_path("name"),
                m.anchor(),
                "missing required field `name`",
                Some(help.into()),
            );
            cx.ko("필수 필드 `name`이 없습니다", None);
        }
    }
    if let Some(f) = m.get("namespace")
        && let Some(ns) = cx.nonempty_str(&f)
        && namespaced
    {
        if let Err(e) = ext::dns1123_label(&ns) {
            cx.error(
                Code::InvalidNamespace,
                &f.path,
                f.pos(),
                format!("invalid namespace `{}`: {e}", truncate(&ns, 60)),
                Some(name_help(NameRule::Label)),
            );
            cx.ko(
                format!(
                    "네임스페이스 `{}`가 올바르지 않습니다: {e}",
                    truncate(&ns, 60)
                ),
                None,
            );
        }
        meta.namespace = ns;
    }
    if let Some(f) = m.get("labels") {
        meta.labels = labels(cx, &f);
    }
    if let Some(f) = m.get("annotations") {
        meta.annotations = annotations(cx, &f);
    }
    m.ignore(IGNORED_METADATA);
    m.finish(cx);
    meta
}

fn name_help(rule: NameRule) -> String {
    match rule {
        NameRule::Label => "use at most 63 lowercase letters, digits and '-', starting and ending \
                            with a letter or digit"
            .into(),
        _ => "use lowercase letters, digits, '-' and '.', starting and \
              ending with a letter or digit"
            .into(),
    }
}

/// Checks a label key; reports an `invalid-label` error at `pos`.
pub(crate) fn check_label_key(cx: &mut Cx, path: &str, pos: Pos, key: &str) -> bool {
    label_check(
        cx,
        path,
        pos,
        "key",
        key,
        ext::qualified_name(key),
        "a key is an optional DNS prefix and '/', then up to 63 letters, digits, '-', '_' or '.', \
         starting and ending with a letter or digit",
    )
}

/// Checks a label value; reports an `invalid-label` error at `pos`.
pub(crate) fn check_label_value(cx: &mut Cx, path: &str, pos: Pos, value: &str) -> bool {
    label_check(
        cx,
        path,
        pos,
        "value",
        value,
        ext::label_value(value),
        "a value is empty or up to 63 letters, digits, '-', '_' or '.', starting \
         and ending with a letter or digit",
    )
}

fn label_check<E: core::fmt::Display>(
    cx: &mut Cx,
    path: &str,
    pos: Pos,
    what: &str,
    text: &str,
    result: Result<(), E>,
    help: &str,
) -> bool {
    match result {
        Ok(()) => true,
        Err(e) => {
            cx.error(
                Code::InvalidLabel,
                path,
                pos,
                format!("invalid label {what} `{}`: {e}", truncate(text, 80)),
                Some(help.into()),
            );
            cx.ko(
                format!(
                    "레이블 {what} `{}`가 올바르지 않습니다: {e}",
                    truncate(text, 80)
                ),
                None,
            );
            false
        }
    }
}

/// A label map (`metadata.labels`, `nodeSelector`, `matchLabels`) with keys and values
/// validated.
pub(crate) fn labels(cx: &mut Cx, f: &Field<'_>) -> StringMap {
    let mut out = StringMap::new();
    for (key, key_pos, value) in cx.entries(f) {
        let ok_key = check_label_key(cx, &value.path, key_pos, &key);
        let v = if value.node.is_null() {
            Some(String::new())
        } else {
            cx.str(&value)
        };
        if let Some(v) = v {
            let ok_value = check_label_value(cx, &value.path, value.pos(), &v);
            if ok_key && ok_value {
                out.insert(key, v);
            }
        }
    }
    out
}

pub(crate) fn annotations(cx: &mut Cx, f: &Field<'_>) -> StringMap {
    let mut out = StringMap::new();
    for (key, key_pos, value) in cx.entries(f) {
        if let Err(e) = ext::qualified_name(&key) {
            cx.error(
                Code::InvalidAnnotationKey,
                &value.path,
                key_pos,
                format!("invalid annotation key `{}`: {e}", truncate(&key, 80)),
                Some("use a qualified name such as `example.com/owner`".into()),
            );
            cx.ko(
                format!(
                    "어노테이션 키 `{}`가 올바르지 않습니다: {e}",
                    truncate(&key, 80)
                ),
                Some("`example.com/owner` 같은 정규화된 이름을 쓰세요".into()),
            );
        }
        let v = if value.node.is_null() {
            Some(String::new())
        } else {
            cx.str(&value)
        };
        if let Some(v) = v {
            out.insert(key, v);
        }
    }
    out
}

/// Keys of the AWS provider's restricted domain that NodePools may use besides the
/// well-known labels (the CRD's exception list).
const AWS_ALLOWED: &[&str] = &[
    "karpenter.k8s.aws/instance-tenancy",
    "karpenter.k8s.aws/nitro-sandbox",
    "karpenter.k8s.aws/placement-group-id",
    "karpenter.k8s.aws/placement-group-partition",
];

/// Why Karpenter refuses a label key on a NodePool (template labels and requirement keys),
/// following `IsRestrictedLabel` of Karpenter v1.9+ and the AWS provider's restricted domain.
pub(crate) fn restricted_label(key: &str) -> Option<String> {
    if key == wellknown::NODEPOOL || key == wellknown::HOSTNAME {
        return Some(format!(
            "label `{key}` is restricted: Karpenter sets it itself"
        ));
    }
    if wellknown::is_well_known(wellknown::normalize_key(key)) || AWS_ALLOWED.contains(&key) {
        return None;
    }
    let domain = key.split_once('/').map(|(d, _)| d).unwrap_or("");
    for restricted in ["karpenter.sh", "karpenter.k8s.aws"] {
        if domain == restricted || domain.ends_with(&format!(".{restricted}")) {
            return Some(format!(
                "label domain `{restricted}` is restricted: only Karpenter's \
                 well-known labels may use it"
            ));
        }
    }
    None
}

/// Whether Karpenter v1.0 to v1.8 refused a label key that v1.9 and later accept: those versions
/// also restricted the `kubernetes.io` and `k8s.io` domains (`K@1.0.0` NodePool CRD; lifted by
/// kubernetes-sigs/karpenter#2586). `requirement` says whether the key is a requirement's
/// (`node.kubernetes.io/instance-type` was allowed there only).
pub(crate) fn restricted_before_v1_9(key: &str, requirement: bool) -> bool {
    let Some((domain, _)) = key.split_once('/') else {
        return false;
    };
    let allowed = matches!(
        key,
        "beta.kubernetes.io/instance-type"
            | "failure-domain.beta.kubernetes.io/region"
            | "failure-domain.beta.kubernetes.io/zone"
            | "beta.kubernetes.io/os"
            | "beta.kubernetes.io/arch"
            | "topology.kubernetes.io/zone"
            | "topology.kubernetes.io/region"
            | "kubernetes.io/arch"
            | "kubernetes.io/os"
            | "node.kubernetes.io/windows-build"
    ) || (requirement && key == "node.kubernetes.io/instance-type")
        || domain.ends_with("node.kubernetes.io")
        || domain.ends_with("node-restriction.kubernetes.io")
        || domain.ends_with("kops.k8s.io");
    !allowed
        && ["kubernetes.io", "k8s.io"]
            .iter()
            .any(|r| domain == *r || domain.ends_with(&format!(".{r}")))
}

pub(crate) const TAINT_EFFECTS: &[&str] = &["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// A list of node taints (`taints`, `startupTaints`, node group taints).
pub(crate) fn taints(cx: &mut Cx, f: &Field<'_>) -> Vec<Taint> {
    let mut out = Vec::new();
    for item in cx.seq(f) {
        let mut t = Fields::of(cx, &item);
        let key = t.req(cx, "key").and_then(|k| {
            let s = cx.nonempty_str(&k)?;
            if check_label_key(cx, &k.path, k.pos(), &s) {
                Some(s)
            } else {
                None
            }
        });
        let value = match t.get("value") {
            Some(v) => cx
                .str(&v)
                .filter(|s| check_label_value(cx, &v.path, v.pos(), s)),
            None => Some(String::new()),
        };
        let effect = t
            .req_help(
                cx,
                "effect",
                "add `effect: NoSchedule` (or PreferNoSchedule, NoExecute)",
            )
            .and_then(|e| cx.choice(&e, TAINT_EFFECTS, "taint effect"))
            .and_then(TaintEffect::parse);
        t.ignore(&["timeAdded"]);
        t.finish(cx);
        if let (Some(key), Some(value), Some(effect)) = (key, value, effect) {
            out.push(Taint { key, value, effect });
        }
    }
    out
}

pub(crate) const POD_NODE_OPERATORS: &[&str] =
    &["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];
pub(crate) const NODEPOOL_OPERATORS: &[&str] = &[
    "In",
    "NotIn",
    "Exists",
    "DoesNotExist",
    "Gt",
    "Lt",
    "Gte",
    "Lte",
];

/// Where a node selector requirement is written: the rules differ slightly.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReqSite {
    /// `spec.template.spec.requirements` of a NodePool (Karpenter's CRD rules).
    NodePool,
    /// A pod's node affinity (core Kubernetes rules).
    Pod,
    /// `spec.requirements` of a NodeOverlay: a NodePool's rules, but `karpenter.sh/nodepool`
    /// may be named and there is no `minValues`.
    NodeOverlay,
}

/// The CRDs' `maxItems: 100` on a NodePool's or a NodeOverlay's requirements.
pub(crate) fn at_most_100_requirements(cx: &mut Cx, f: &Field<'_>, count: usize) {
    if count > 100 {
        cx.error(
            Code::TooManyItems,
            &f.path,
            f.pos(),
            "at most 100 requirements are allowed",
            Some("merge requirements on the same key".into()),
        );
        cx.ko(
            "requirements는 최대 100개까지입니다",
            Some("같은 키의 요구 사항을 합치세요".into()),
        );
    }
}

/// One node selector requirement (`key`, `operator`, `values`, and on NodePools `minValues`).
pub(crate) fn requirement(
    cx: &mut Cx,
    item: &Field<'_>,
    site: ReqSite,
) -> Option<NodeSelectorRequirement> {
    let errors = cx.error_count();
    let mut r = match site {
        ReqSite::Pod => Fields::typed(cx, item, schema::V1_NODE_SELECTOR_REQUIREMENT),
        // Karpenter's requirement adds `minValues`: its fields are the reader's own.
        ReqSite::NodePool | ReqSite::NodeOverlay => Fields::of(cx, item),
    };
    let key = r.req(cx, "key").and_then(|k| {
        let s = cx.nonempty_str(&k)?;
        // The CRD's maxLength; a qualified name can be one character longer (253 + '/' + 63).
        if site != ReqSite::Pod && s.chars().count() > 316 {
            cx.error(
                Code::TooLong,
                &k.path,
                k.pos(),
                format!(
                    "the key is {} characters long; at most 316 are allowed",
                    s.chars().count()
                ),
                Some("use a shorter prefix or name".into()),
            );
            cx.ko(
                format!(
                    "키가 {}자입니다. 최대 316자까지 쓸 수 있습니다",
                    s.chars().count()
                ),
                Some("더 짧은 접두사나 이름을 쓰세요".into()),
            );
            return None;
        }
        if !check_label_key(cx, &k.path, k.pos(), &s) {
            return None;
        }
        if site != ReqSite::Pod {
            let restricted = match site {
                ReqSite::NodeOverlay if s == wellknown::NODEPOOL => None,
                _ => restricted_label(&s),
            };
            if let Some(why) = restricted {
                cx.error(
                    Code::RestrictedLabel,
                    &k.path,
                    k.pos(),
                    why,
                    Some(
                        "use a custom label key such as `example.com/team`, or a well-known label"
                            .into(),
                    ),
                );
                cx.ko(
                    format!("레이블 `{s}`는 Karpenter가 쓰지 못하게 막아 둔 키(또는 도메인)입니다"),
                    Some("`example.com/team` 같은 직접 만든 키나 잘 알려진 레이블을 쓰세요".into()),
                );
                return None;
            }
            if restricted_before_v1_9(&s, true) {
                cx.need_as(
                    Code::RestrictedBeforeV1_9,
                    Need::Version(Behaviour::GteLteAndOpenLabelDomains),
                    format!("label `{s}`"),
                    &k.path,
                    k.pos(),
                );
            }
        }
        Some(s)
    });
    let ops = if site != ReqSite::Pod {
        NODEPOOL_OPERATORS
    } else {
        POD_NODE_OPERATORS
    };
    let op_field = r.req(cx, "operator");
    let operator = op_field
        .as_ref()
        .and_then(|o| cx.choice(o, ops, "operator"))
        .and_then(Operator::parse);
    if let (Some(op @ (Operator::Gte | Operator::Lte)), Some(of)) = (operator, &op_field)
        && site != ReqSite::Pod
    {
        cx.need(
            Need::Version(Behaviour::GteLteAndOpenLabelDomains),
            format!("operator `{}`", op.as_str()),
            &of.path,
            of.pos(),
        );
    }
    let values_field = r.get("values");
    let values = match &values_field {
        Some(v) => {
            let mut out = Vec::new();
            for item in cx.seq(v) {
                if let Some(s) = cx.str(&item) {
                    if site != ReqSite::Pod {
                        check_label_value(cx, &item.path, item.pos(), &s);
                    }
                    out.push(s);
                }
            }
            out
        }
        None => Vec::new(),
    };
    let min_field = if site == ReqSite::NodePool {
        r.get("minValues")
    } else {
        None
    };
    let min_values = min_field
        .as_ref()
        .and_then(|m| cx.int(m, 1, 50))
        .map(|m| m as u32);
    r.finish(cx);

    if let (Some(op), Some(of)) = (operator, &op_field) {
        let vpath = r_child(&item.path, "values");
        let vpos = values_field.as_ref().map(|v| v.pos()).unwrap_or(of.pos());
        match op {
            Operator::In | Operator::NotIn
                if values.is_empty() && (site != ReqSite::NodePool || op == Operator::In) =>
            {
                cx.error(
                    Code::MissingValues,
                    &vpath,
                    vpos,
                    format!("operator {} needs at least one value", op.as_str()),
                    Some("add `values: [...]`, or use Exists".into()),
                );
                cx.ko(
                    format!("연산자 {}에는 값이 하나 이상 있어야 합니다", op.as_str()),
                    Some("`values: [...]`를 추가하거나 Exists를 쓰세요".into()),
                );
            }
            Operator::Exists | Operator::DoesNotExist if !values.is_empty() => {
                cx.error(
                    Code::UnexpectedValues,
                    &vpath,
                    vpos,
                    format!("operator {} takes no values", op.as_str()),
                    Some("remove `values`".into()),
                );
                cx.ko(
                    format!("연산자 {}에는 값을 쓰지 않습니다", op.as_str()),
                    Some("`values`를 지우세요".into()),
                );
            }
            Operator::Gt | Operator::Lt | Operator::Gte | Operator::Lte => {
                let ok = values.len() == 1
                    && values[0]
                        .parse::<i64>()
                        .is_ok_and(|n| site == ReqSite::Pod || n >= 0);
                if !ok {
                    let what = if site != ReqSite::Pod {
                        "a single non-negative integer value"
                    } else {
                        "a single integer value"
                    };
                    cx.error(
                        Code::InvalidBound,
                        &vpath,
                        vpos,
                        format!("operator {} needs {what}", op.as_str()),
                        Some("e.g. `values: [\"4\"]`".into()),
                    );
                    cx.ko(
                        format!("연산자 {}에는 양의 정수 값 하나가 필요합니다", op.as_str()),
                        None,
                    );
                }
            }
            _ => {}
        }
        if let (Some(m), Operator::In) = (min_values, op)
            && (m as usize) > values.len()
        {
            cx.error(
                Code::MinValuesExceedsValues,
                &r_child(&item.path, "minValues"),
                min_field.as_ref().map(|m| m.pos()).unwrap_or(of.pos()),
                format!(
                    "minValues is {m} but only {} values are listed",
                    values.len()
                ),
                Some("list at least minValues values, or lower minValues".into()),
            );
            cx.ko(
                format!("minValues가 {m}인데 나열된 값은 {}개뿐입니다", values.len()),
                Some("값을 minValues개 이상 나열하거나 minValues를 낮추세요".into()),
            );
        }
        if site != ReqSite::Pod
            && op == Operator::In
            && let Some(k) = key.as_deref()
        {
            well_known_values(cx, &vpath, vpos, k, &values);
        }
    }
    if cx.error_count() > errors {
        return None;
    }
    Some(NodeSelectorRequirement {
        key: key?,
        operator: operator?,
        values,
        min_values,
    })
}

fn r_child(path: &str, key: &str) -> String {
    crate::reader::join(path, key)
}

/// Karpenter's runtime validation (`ValidateRequirement`) fails a NodePool whose `In` on a
/// label with a closed set of values has no valid value, and ignores the invalid ones
/// otherwise. [`runtime_invalid`] says the same for the engine.
fn well_known_values(cx: &mut Cx, path: &str, pos: Pos, key: &str, values: &[String]) {
    let Some(allowed) = closed_values(key) else {
        return;
    };
    let bad: Vec<&str> = values
        .iter()
        .map(String::as_str)
        .filter(|v| !allowed.contains(v))
        .collect();
    if bad.is_empty() {
        return;
    }
    let help = Some(format!("use {}", allowed.join(", ")));
    if bad.len() == values.len() {
        // The API server accepts it; Karpenter's runtime validation fails the NodePool.
        cx.warn(
            Code::NodePoolNotReady,
            path,
            pos,
            format!(
                "no valid value for `{key}` ({}): Karpenter's validation fails this NodePool, so \
                 it is never Ready and never launches nodes",
                bad.join(", ")
            ),
            help,
        );
        cx.ko(
            format!(
                "`{key}`에 유효한 값이 없습니다({}). Karpenter의 검증에 실패해 이 NodePool은 \
                 Ready가 되지 않고 노드를 띄우지 않습니다",
                bad.join(", ")
            ),
            Some(format!("다음 값을 쓰세요: {}", allowed.join(", "))),
        );
    } else {
        cx.warn(
            Code::IgnoredWellKnownValue,
            path,
            pos,
            format!(
                "`{key}` values {} are not valid and are ignored by Karpenter",
                bad.join(", ")
            ),
            help,
        );
        cx.ko(
            format!(
                "`{key}`의 값 {}은(는) 유효하지 않아 Karpenter가 무시합니다",
                bad.join(", ")
            ),
            Some(format!("다음 값을 쓰세요: {}", allowed.join(", "))),
        );
    }
}

/// The labels whose values Karpenter checks at runtime (`ValidateRequirement`), with the
/// values it knows.
fn closed_values(key: &str) -> Option<&'static [&'static str]> {
    match key {
        wellknown::CAPACITY_TYPE => Some(&["on-demand", "spot", "reserved"]),
        "karpenter.k8s.aws/instance-tenancy" => Some(&["default", "dedicated"]),
        _ => None,
    }
}

/// Why Karpenter's runtime validation fails a NodePool with these requirements, if it does.
pub(crate) fn runtime_invalid(reqs: &[NodeSelectorRequirement]) -> Option<String> {
    reqs.iter().find_map(|r| {
        let allowed = closed_values(&r.key)?;
        if r.operator != Operator::In {
            return None;
        }
        let valid = r
            .values
            .iter()
            .filter(|v| allowed.contains(&v.as_str()))
            .count();
        if valid == 0 {
            Some(format!(
                "ValidationSucceeded=False: no valid value for requirement `{}` ({})",
                r.key,
                r.values.join(", ")
            ))
        } else if r.min_values.is_some_and(|m| m as usize > valid) {
            Some(format!(
                "ValidationSucceeded=False: requirement `{}` has minValues {} \
                 but only {valid} valid values",
                r.key,
                r.min_values.unwrap_or(0)
            ))
        } else {
            None
        }
    })
}

/// A list of node selector terms (`nodeSelectorTerms`, a preference): ANDed requirements.
pub(crate) fn node_selector_term(
    cx: &mut Cx,
    f: &Field<'_>,
) -> Option<Vec<NodeSelectorRequirement>> {
    let errors = cx.error_count();
    let mut t = Fields::typed(cx, f, schema::V1_NODE_SELECTOR_TERM);
    let mut reqs = Vec::new();
    if let Some(exprs) = t.get("matchExpressions") {
        for item in cx.seq(&exprs) {
            if let Some(r) = requirement(cx, &item, ReqSite::Pod) {
                reqs.push(r);
            }
        }
    }
    t.unsupported(
        cx,
        &["matchFields"],
        " (node names are generated by the simulation)",
    );
    t.finish(cx);
    if cx.error_count() > errors {
        None
    } else {
        Some(reqs)
    }
}

pub(crate) const SELECTOR_OPERATORS: &[&str] = &["In", "NotIn", "Exists", "DoesNotExist"];

/// A `metav1.LabelSelector`.
pub(crate) fn label_selector(cx: &mut Cx, f: &Field<'_>) -> LabelSelector {
    let mut s = Fields::typed(cx, f, schema::V1_LABEL_SELECTOR);
    let match_labels = s
        .get("matchLabels")
        .map(|m| labels(cx, &m))
        .unwrap_or_default();
    let mut match_expressions = Vec::new();
    if let Some(exprs) = s.get("matchExpressions") {
        for item in cx.seq(&exprs) {
            let mut e = Fields::typed(cx, &item, schema::V1_LABEL_SELECTOR_REQUIREMENT);
            let key = e.req(cx, "key").and_then(|k| {
                let v = cx.nonempty_str(&k)?;
                if check_label_key(cx, &k.path, k.pos(), &v) {
                    Some(v)
                } else {
                    None
                }
            });
            let op_field = e.req(cx, "operator");
            let operator = op_field
                .as_ref()
                .and_then(|o| cx.choice(o, SELECTOR_OPERATORS, "label selector operator"))
                .and_then(ext::selector_operator);
            let vf = e.get("values");
            let mut values = Vec::new();
            if let Some(vf) = &vf {
                for v in cx.seq(vf) {
                    if let Some(text) = cx.str(&v) {
                        check_label_value(cx, &v.path, v.pos(), &text);
                        values.push(text);
                    }
                }
            }
            e.finish(cx);
            if let (Some(op), Some(of)) = (operator, &op_field) {
                let vpath = r_child(&item.path, "values");
                let vpos = vf.as_ref().map(|v| v.pos()).unwrap_or(of.pos());
                match op {
                    SelectorOperator::In | SelectorOperator::NotIn if values.is_empty() => {
                        cx.error(
                            Code::MissingValues,
                            &vpath,
                            vpos,
                            "operator In and NotIn need at least one value",
                            Some("add `values: [...]`".into()),
                        );
                        cx.ko(
                            "연산자 In과 NotIn에는 값이 하나 이상 있어야 합니다",
                            Some("`values: [...]`를 추가하세요".into()),
                        );
                    }
                    SelectorOperator::Exists | SelectorOperator::DoesNotExist
                        if !values.is_empty() =>
                    {
                        cx.error(
                            Code::UnexpectedValues,
                            &vpath,
                            vpos,
                            "operator Exists and DoesNotExist take no values",
                            Some("remove `values`".into()),
                        );
                        cx.ko(
                            "연산자 Exists와 DoesNotExist에는 값을 쓰지 않습니다",
                            Some("`values`를 지우세요".into()),
                        );
                    }
                    _ => {}
                }
            }
            if let (Some(key), Some(operator)) = (key, operator) {
                match_expressions.push(LabelSelectorRequirement {
                    key,
                    operator,
                    values,
                });
            }
        }
    }
    s.finish(cx);
    LabelSelector {
        match_labels,
        match_expressions,
    }
}

/// Where a resource list is written, for the resource-name rules.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListSite {
    /// Container requests and limits, pod overhead.
    Container,
    /// NodePool limits, instance type capacity and overhead, kubelet reservations.
    Node,
}

/// A resource list, as (name, engine resource, amount) in the order written.
pub(crate) fn resource_list(
    cx: &mut Cx,
    f: &Field<'_>,
    site: ListSite,
) -> Vec<(String, ResourceName, i64)> {
    let mut out = Vec::new();
    for (name, key_pos, value) in cx.entries(f) {
        if !valid_resource_name(&name, site) {
            let known: &[&str] = match site {
                ListSite::Container => &["cpu", "memory", "ephemeral-storage"],
                ListSite::Node => &["cpu", "memory", "ephemeral-storage", "pods"],
            };
            let guess = crate::reader::suggest(&name, known.iter().copied());
            let help = match guess {
                Some(g) => format!(
                    "did you mean `{g}`? Extended resources need a domain, e.g. `nvidia.com/gpu`"
                ),
                None => format!(
                    "use {} or an extended resource with a domain, e.g. `nvidia.com/gpu`",
                    known.join(", ")
                ),
            };
            cx.error(
                Code::InvalidResourceName,
                &value.path,
                key_pos,
                format!("`{}` is not a resource name", truncate(&name, 60)),
                Some(help),
            );
            cx.ko(
                format!("`{}`는 리소스 이름이 아닙니다", truncate(&name, 60)),
                None,
            );
            continue;
        }
        let resource = ResourceName::parse(&name);
        if let Some(v) = cx.quantity(&value, resource) {
            out.push((name, resource, v));
        }
    }
    out
}

fn valid_resource_name(name: &str, site: ListSite) -> bool {
    if name.contains('/') {
        return ext::qualified_name(name).is_ok();
    }
    if name.starts_with("hugepages-") {
        return true;
    }
    match site {
        ListSite::Container => matches!(name, "cpu" | "memory" | "ephemeral-storage"),
        ListSite::Node => matches!(
            name,
            "cpu" | "memory" | "ephemeral-storage" | "pods" | "storage"
        ),
    }
}

/// Sums a resource list into the engine's vector.
pub(crate) fn to_resources(list: &[(String, ResourceName, i64)]) -> Resources {
    let mut r = Resources::ZERO;
    for (_, name, v) in list {
        r.set(*name, r.get(*name).saturating_add(*v));
    }
    r
}

/// Resource lists keyed by name, for per-resource defaulting.
pub(crate) fn by_name(
    list: &[(String, ResourceName, i64)],
) -> BTreeMap<String, (ResourceName, i64)> {
    list.iter().map(|(n, r, v)| (n.clone(), (*r, *v))).collect()
}

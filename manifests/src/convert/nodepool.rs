//! `karpenter.sh/v1` NodePool, and `v1beta1` read with its v1 meaning.
//!
//! Every v1beta1 difference (`spec.disruption.expireAfter`, `WhenUnderutilized`, a
//! `nodeClassRef` with only a name, the implicit `consolidateAfter`, the NodePool `kubelet`)
//! is converted and reported as a `v1beta1-*` warning at the field, so `kpg validate` doubles
//! as a migration checklist.

use kpg_core::karpenter::{Behaviour, Gate};
use kpg_core::model::{
    Budget, BudgetNodes, ConsolidationPolicy, KubeletConfig, Limits, NodeClassRef, NodePool,
};
use kpg_core::resources::ResourceName;
use kpg_core::taints::Taint;

use super::common::{self, Meta, NameRule, ReqSite};
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields, Need, join};
use crate::yaml::Pos;

const DEFAULT_EXPIRE_AFTER_MS: u64 = 720 * 3600 * 1000;
pub(crate) const NODE_CLASS_GROUP: &str = "karpenter.k8s.aws";
pub(crate) const NODE_CLASS_KIND: &str = "EC2NodeClass";

/// Karpenter's CRD patterns for durations: whole seconds, minutes and hours only
/// (`^([0-9]+(s|m|h))+$`), optionally `Never`.
fn karpenter_duration_ok(s: &str) -> bool {
    if s.is_empty() {
        return false;
    }
    let mut digits = 0;
    for c in s.chars() {
        match c {
            '0'..='9' => digits += 1,
            's' | 'm' | 'h' if digits > 0 => digits = 0,
            _ => return false,
        }
    }
    digits == 0
}

/// A NodePool duration: parsed, then held to the CRD's stricter pattern.
fn np_duration(cx: &mut Cx, f: &Field<'_>, never: bool) -> Option<Option<u64>> {
    let v = cx.duration(f, never)?;
    if let crate::yaml::Value::Str(s) = &f.node.value {
        let allowed = karpenter_duration_ok(s) || (never && s == "Never");
        if !allowed {
            let help = if never {
                "use whole s, m or h units, e.g. 90s, 30m or 720h, or Never"
            } else {
                "use whole s, m or h units, e.g. 90s, 30m or 48h"
            };
            cx.error(
                Code::InvalidNodePoolDuration,
                &f.path,
                f.pos(),
                format!("`{s}` does not match the NodePool duration format"),
                Some(help.into()),
            );
            cx.ko(
                format!("`{s}`는 NodePool의 기간 형식(초, 분, 시간 단위의 정수)에 맞지 않습니다"),
                None,
            );
            return None;
        }
    }
    Some(v)
}

/// A NodePool, and for a v1beta1 one the `kubelet` block its template carried (v1 keeps that
/// block in the EC2NodeClass; [`crate::assemble`] gives it to the class).
pub(crate) fn node_pool(
    cx: &mut Cx,
    root: &Field<'_>,
    v1beta1: bool,
) -> (Meta, NodePool, Option<KubeletConfig>) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let mut np = NodePool {
        name: meta.name.clone(),
        template_labels: Default::default(),
        template_annotations: Default::default(),
        node_class_ref: NodeClassRef {
            group: NODE_CLASS_GROUP.into(),
            kind: NODE_CLASS_KIND.into(),
            name: String::new(),
        },
        requirements: Vec::new(),
        taints: Vec::new(),
        startup_taints: Vec::new(),
        written_empty: Default::default(),
        expire_after: Some(DEFAULT_EXPIRE_AFTER_MS),
        termination_grace_period: None,
        consolidation_policy: ConsolidationPolicy::WhenEmptyOrUnderutilized,
        consolidate_after: Some(0),
        budgets: vec![Budget {
            nodes: BudgetNodes::Percent(10),
            schedule: None,
            duration: None,
            reasons: Vec::new(),
        }],
        limits: Limits::default(),
        weight: 0,
        replicas: None,
        invalid: None,
    };
    if v1beta1 && let Some(p) = r.key_pos("apiVersion") {
        cx.warn(
            Code::V1beta1Api,
            "apiVersion",
            p,
            "karpenter.sh/v1beta1 NodePool: read with its karpenter.sh/v1 meaning",
            Some(
                "`kpg migrate` prints the v1 manifest; the warnings below list each difference"
                    .into(),
            ),
        );
        cx.ko(
            "karpenter.sh/v1beta1 NodePool입니다. karpenter.sh/v1의 의미로 읽습니다",
            Some(
                "`kpg migrate`(페이지에서는 v1으로 옮기기)가 v1 매니페스트를 만들어 줍니다. 아래 \
                 경고가 달라진 점을 하나씩 짚습니다"
                    .into(),
            ),
        );
    }
    let Some(sf) = r.req(cx, "spec") else {
        r.ignore(&["apiVersion", "kind", "status"]);
        r.finish(cx);
        return (meta, np, None);
    };
    let mut s = Fields::of(cx, &sf);
    let mut kubelet = None;
    if let Some(t) = s.req(cx, "template") {
        template(cx, &t, v1beta1, &mut np, &mut kubelet)
    }
    let mut disruption_expire: Option<(Option<u64>, Field<'_>)> = None;
    let disruption = s.get("disruption");
    let mut consolidate_after_seen = false;
    let mut policy_underutilized_v1beta1 = false;
    let mut policy_pos = None;
    if let Some(d) = &disruption {
        let mut df = Fields::of(cx, d);
        let policies: &[&'static str] = if v1beta1 {
            &["WhenUnderutilized", "WhenEmpty"]
        } else {
            &["WhenEmptyOrUnderutilized", "WhenEmpty", "Balanced"]
        };
        if let Some(p) = df.get("consolidationPolicy") {
            policy_pos = Some(p.pos());
            match cx.choice(&p, policies, "consolidation policy") {
                Some("WhenEmpty") => np.consolidation_policy = ConsolidationPolicy::WhenEmpty,
                Some("WhenUnderutilized") => {
                    policy_underutilized_v1beta1 = true;
                    cx.warn(
                        Code::V1beta1ConsolidationPolicy,
                        &p.path,
                        p.pos(),
                        "WhenUnderutilized is called WhenEmptyOrUnderutilized in v1",
                        Some("write `consolidationPolicy: WhenEmptyOrUnderutilized`".into()),
                    );
                    cx.ko(
                        "v1에서는 WhenUnderutilized의 이름이 WhenEmptyOrUnderutilized입니다",
                        Some("`consolidationPolicy: WhenEmptyOrUnderutilized`로 쓰세요".into()),
                    );
                }
                Some("Balanced") => {
                    cx.need(
                        Need::Version(Behaviour::BalancedPolicy),
                        "`consolidationPolicy: Balanced`",
                        &p.path,
                        p.pos(),
                    );
                    np.consolidation_policy = ConsolidationPolicy::Balanced;
                }
                _ => {}
            }
        } else if v1beta1 {
            policy_underutilized_v1beta1 = true;
        }
        if let Some(c) = df.get("consolidateAfter") {
            consolidate_after_seen = true;
            if let Some(v) = np_duration(cx, &c, true) {
                np.consolidate_after = v;
            }
            if v1beta1 && policy_underutilized_v1beta1 {
                cx.warn(
                    Code::V1beta1ConsolidateAfter,
                    &c.path,
                    c.pos(),
                    "v1beta1 rejects consolidateAfter with WhenUnderutilized; read as v1, where it \
                     delays consolidation",
                    Some("migrate to v1, where both are allowed (`kpg migrate`)".into()),
                );
                cx.ko(
                    "v1beta1은 WhenUnderutilized와 consolidateAfter를 함께 쓰는 것을 거부합니다. \
                     v1의 의미대로, 통합을 그만큼 늦추는 값으로 읽습니다",
                    Some(
                        "v1으로 옮기세요(`kpg migrate`). v1에서는 둘을 함께 쓸 수 있습니다".into(),
                    ),
                );
            }
        }
        if let Some(b) = df.get("budgets") {
            np.budgets = budgets(cx, &b);
        }
        if let Some(e) = df.get("expireAfter") {
            if v1beta1 {
                if let Some(v) = np_duration(cx, &e, true) {
                    disruption_expire = Some((v, e));
                }
            } else {
                cx.warn(
                    Code::UnknownField,
                    &e.path,
                    e.key_pos,
                    "karpenter.sh/v1 has no spec.disruption.expireAfter; it is ignored \
                     (the API server rejects it)",
                    Some("move it to `spec.template.spec.expireAfter`".into()),
                );
                cx.ko(
                    "karpenter.sh/v1에는 spec.disruption.expireAfter가 없어 \
                     무시합니다(API 서버는 거부합니다)",
                    Some("`spec.template.spec.expireAfter`로 옮기세요".into()),
                );
            }
        }
        df.finish(cx);
    }
    // `consolidateAfter` has no default of its own (through v1.14.1): it is required inside a
    // `disruption` block the manifest writes. An omitted block is defaulted whole by the CRD
    // (`{consolidateAfter: 0s}`, then the policy and budget defaults inside it), which is what
    // `np` already holds.
    if let (false, Some(d)) = (consolidate_after_seen, &disruption) {
        let path = join(&d.path, "consolidateAfter");
        if v1beta1 {
            cx.warn(
                Code::V1beta1ConsolidateAfter,
                &path,
                policy_pos.unwrap_or(d.key_pos),
                "v1 requires consolidateAfter in a written disruption block; 0s \
                 is used, as v1beta1 behaved",
                Some("add `consolidateAfter: 0s` under `spec.disruption`".into()),
            );
            cx.ko(
                "v1에서는 직접 쓴 disruption 블록 안에 consolidateAfter가 필수입니다. v1beta1처럼 \
                 동작하도록 0s를 씁니다",
                Some("`spec.disruption` 아래에 `consolidateAfter: 0s`를 추가하세요".into()),
            );
        } else {
            cx.error(
                Code::MissingField,
                &path,
                d.key_pos,
                "karpenter.sh/v1 requires `consolidateAfter` in a written `spec.disruption` block \
                 (only an omitted block is defaulted, to `consolidateAfter: 0s`)",
                Some(
                    "add `consolidateAfter: 0s` (or a duration such as 1m, or Never), or remove \
                     the whole `disruption` block to take the defaults"
                        .into(),
                ),
            );
            cx.ko(
                "karpenter.sh/v1에서는 직접 쓴 `spec.disruption` 블록 안에 \
                 `consolidateAfter`가 필수입니다(블록 전체를 생략했을 때만 \
                 `consolidateAfter: 0s`로 기본값이 채워집니다)",
                Some(
                    "`consolidateAfter: 0s`(또는 1m 같은 기간이나 Never)를 추가하거나, 기본값을 \
                     쓰려면 `disruption` 블록 전체를 지우세요"
                        .into(),
                ),
            );
        }
    }
    if let Some((v, e)) = disruption_expire {
        cx.warn(
            Code::V1beta1ExpireAfter,
            &e.path,
            e.pos(),
            "in v1, expireAfter moved to spec.template.spec.expireAfter (and expiry no longer \
             waits for a replacement)",
            Some("move it under `spec.template.spec`".into()),
        );
        cx.ko(
            "v1에서 expireAfter는 spec.template.spec.expireAfter로 옮겨졌습니다(만료는 더 이상 \
             대체 노드를 기다리지 않습니다)",
            Some("`spec.template.spec` 아래로 옮기세요".into()),
        );
        np.expire_after = v;
    }
    // A static NodePool (alpha, v1.8+) keeps `replicas` nodes: the CRD then allows no weight
    // and no limits but `nodes`.
    let is_static = match s.get("replicas") {
        Some(r) => {
            np.replicas = cx
                .int(&r, 0, i64::from(MAX_STATIC_REPLICAS))
                .map(|n| n as u32);
            cx.need(
                Need::Version(Behaviour::StaticNodePools),
                "`replicas` (a static NodePool)",
                &r.path,
                r.pos(),
            );
            cx.need(
                Need::Gate(Gate::StaticCapacity),
                "`replicas` (a static NodePool)",
                &r.path,
                r.pos(),
            );
            true
        }
        None => false,
    };
    if let Some(l) = s.get("limits") {
        np.limits = limits(cx, &l, is_static);
        if is_static && np.limits.resources.iter().any(Option::is_some) {
            cx.error(
                Code::StaticNodePool,
                &l.path,
                l.pos(),
                "a static NodePool (with replicas) can only limit `nodes`",
                Some("keep only `nodes` under limits, or remove `replicas`".into()),
            );
            cx.ko(
                "정적 NodePool(replicas가 있는)은 limits에 `nodes`만 쓸 수 있습니다",
                Some("limits에 `nodes`만 남기거나 `replicas`를 지우세요".into()),
            );
        }
    }
    if let Some(w) = s.get("weight") {
        if is_static {
            cx.error(
                Code::StaticNodePool,
                &w.path,
                w.pos(),
                "a static NodePool (with replicas) takes no weight",
                Some("remove `weight`, or remove `replicas`".into()),
            );
            cx.ko(
                "정적 NodePool(replicas가 있는)에는 weight를 쓸 수 없습니다",
                Some("`weight`나 `replicas`를 지우세요".into()),
            );
        } else if let Some(w) = cx.int(&w, 1, 100) {
            np.weight = w as i32;
        }
    }
    s.finish(cx);
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, np, kubelet)
}

/// More static nodes than this in one NodePool cannot be simulated interactively.
pub(crate) const MAX_STATIC_REPLICAS: u32 = 1_000;

/// `labels: {}`, `taints: []`: written, but empty. The API server keeps such a field and
/// Karpenter's drift hash counts it (an empty Go map or slice is not a zero value); `null`
/// is the same as leaving the field out.
fn written_empty(f: &Field<'_>) -> bool {
    match &f.node.value {
        crate::yaml::Value::Map(entries) => entries.is_empty(),
        crate::yaml::Value::Seq(items) => items.is_empty(),
        _ => false,
    }
}

fn template(
    cx: &mut Cx,
    f: &Field<'_>,
    v1beta1: bool,
    np: &mut NodePool,
    kubelet: &mut Option<KubeletConfig>,
) {
    let mut t = Fields::of(cx, f);
    if let Some(mf) = t.get("metadata") {
        let mut m = Fields::of(cx, &mf);
        if let Some(l) = m.get("labels") {
            let labels = common::labels(cx, &l);
            if let crate::yaml::Value::Map(entries) = &l.node.value
                && entries.len() > 100
            {
                cx.error(
                    Code::TooManyItems,
                    &l.path,
                    l.pos(),
                    format!("{} labels; at most 100 are allowed", entries.len()),
                    Some("move some labels to requirements, or drop them".into()),
                );
                cx.ko(
                    format!(
                        "레이블이 {}개입니다. 최대 100개까지 쓸 수 있습니다",
                        entries.len()
                    ),
                    Some("일부를 requirements로 옮기거나 지우세요".into()),
                );
            }
            let entries = if matches!(l.node.value, crate::yaml::Value::Map(_)) {
                cx.entries(&l)
            } else {
                Vec::new()
            };
            for (key, _, value) in entries {
                if labels.contains_key(&key) {
                    if let Some(why) = common::restricted_label(&key) {
                        cx.error(
                            Code::RestrictedLabel,
                            &value.path,
                            value.key_pos,
                            why,
                            Some("use a custom label key such as `example.com/team`".into()),
                        );
                        cx.ko(
                            format!(
                                "레이블 `{key}`는 Karpenter가 쓰지 못하게 막아 \
                                 둔 키(또는 도메인)입니다"
                            ),
                            Some("`example.com/team` 같은 직접 만든 키를 쓰세요".into()),
                        );
                    } else if common::restricted_before_v1_9(&key, false) {
                        cx.need_as(
                            Code::RestrictedBeforeV1_9,
                            Need::Version(Behaviour::GteLteAndOpenLabelDomains),
                            format!("label `{key}`"),
                            &value.path,
                            value.key_pos,
                        );
                    }
                }
            }
            np.template_labels = labels;
            np.written_empty.labels = written_empty(&l);
        }
        if let Some(a) = m.get("annotations") {
            np.template_annotations = common::annotations(cx, &a);
            np.written_empty.annotations = written_empty(&a);
        }
        m.finish(cx);
    }
    let Some(sf) = t.req(cx, "spec") else {
        t.finish(cx);
        return;
    };
    let mut s = Fields::of(cx, &sf);
    if let Some(r) = s.req(cx, "nodeClassRef") {
        np.node_class_ref = node_class_ref(cx, &r, v1beta1)
    }
    if let Some(rf) = s.req_help(
        cx,
        "requirements",
        "add `requirements: []` (or requirements such as karpenter.sh/capacity-type In [spot])",
    ) {
        for item in cx.seq(&rf) {
            if let Some(req) = common::requirement(cx, &item, ReqSite::NodePool) {
                np.requirements.push(req);
            }
        }
        common::at_most_100_requirements(cx, &rf, np.requirements.len());
        np.invalid = common::runtime_invalid(&np.requirements);
    }
    let mut all_taints: Vec<(Taint, Pos)> = Vec::new();
    if let Some(tf) = s.get("taints") {
        np.taints = common::taints(cx, &tf);
        np.written_empty.taints = written_empty(&tf);
        all_taints.extend(np.taints.iter().map(|t| (t.clone(), tf.pos())));
    }
    if let Some(tf) = s.get("startupTaints") {
        np.startup_taints = common::taints(cx, &tf);
        np.written_empty.startup_taints = written_empty(&tf);
        all_taints.extend(np.startup_taints.iter().map(|t| (t.clone(), tf.pos())));
    }
    for (i, (t, pos)) in all_taints.iter().enumerate() {
        if all_taints[..i]
            .iter()
            .any(|(o, _)| o.key == t.key && o.effect == t.effect)
        {
            cx.error(
                Code::DuplicateTaint,
                &s.child_path("taints"),
                *pos,
                format!(
                    "taint {}:{} appears twice (taints and startupTaints together must \
                     be unique by key and effect)",
                    t.key,
                    t.effect.as_str()
                ),
                Some("keep the taint in one of the two lists".into()),
            );
            cx.ko(
                format!(
                    "테인트 {}:{}가 두 번 나옵니다(taints와 startupTaints를 합쳐 키와 effect의 \
                     조합이 겹치면 안 됩니다)",
                    t.key,
                    t.effect.as_str()
                ),
                Some("테인트를 두 목록 중 한 곳에만 두세요".into()),
            );
        }
    }
    if let Some(e) = s.get("expireAfter") {
        if v1beta1 {
            cx.warn(
                Code::UnknownField,
                &e.path,
                e.key_pos,
                "v1beta1 NodePools have no spec.template.spec.expireAfter (it is \
                 spec.disruption.expireAfter); read as v1",
                Some("migrate to v1 (`kpg migrate`), where this is the right place".into()),
            );
            cx.ko(
                "v1beta1 NodePool에는 spec.template.spec.expireAfter가 \
                 없습니다(spec.disruption.expireAfter입니다). v1으로 읽습니다",
                Some("v1으로 옮기세요(`kpg migrate`). v1에서는 이곳이 맞는 위치입니다".into()),
            );
        }
        if let Some(v) = np_duration(cx, &e, true) {
            np.expire_after = v;
        }
    }
    if let Some(g) = s.get("terminationGracePeriod")
        && let Some(v) = np_duration(cx, &g, false)
    {
        np.termination_grace_period = v;
    }
    if !v1beta1 {
        // Two common leftovers of a v1beta1 manifest, named precisely instead of as plain
        // unknown fields.
        if let Some(k) = s.get("kubelet") {
            cx.warn(
                Code::UnknownField,
                &k.path,
                k.key_pos,
                "karpenter.sh/v1 NodePools have no kubelet block; it is ignored",
                Some("move it to the EC2NodeClass's `spec.kubelet`".into()),
            );
            cx.ko(
                "karpenter.sh/v1 NodePool에는 kubelet 블록이 없어 무시합니다",
                Some("EC2NodeClass의 `spec.kubelet`으로 옮기세요".into()),
            );
        }
    }
    if v1beta1 {
        if let Some(k) = s.get("kubelet") {
            cx.warn(
                Code::V1beta1Kubelet,
                &k.path,
                k.key_pos,
                "in v1 the kubelet settings live in the EC2NodeClass (spec.kubelet); read as if \
                 the EC2NodeClass had them (a copy of it when NodePools sharing it disagree)",
                Some(
                    "move this block to the EC2NodeClass's `spec.kubelet` (`kpg migrate` does it)"
                        .into(),
                ),
            );
            cx.ko(
                "v1에서는 kubelet 설정이 EC2NodeClass(spec.kubelet)에 있습니다. \
                 EC2NodeClass에 있는 것처럼 읽습니다(그 클래스를 함께 쓰는 NodePool끼리 \
                 설정이 다르면 클래스의 사본에)",
                Some(
                    "이 블록을 EC2NodeClass의 `spec.kubelet`으로 \
                     옮기세요(`kpg migrate`가 해 줍니다)"
                        .into(),
                ),
            );
            *kubelet = Some(super::nodeclass::kubelet(cx, &k));
        }
        if let Some(res) = s.get("resources") {
            cx.warn(
                Code::V1beta1Resources,
                &res.path,
                res.key_pos,
                "spec.template.spec.resources was removed in v1 and is ignored",
                Some("delete it".into()),
            );
            cx.ko(
                "spec.template.spec.resources는 v1에서 없어졌으므로 무시합니다",
                Some("지우세요".into()),
            );
        }
    }
    s.finish(cx);
    t.finish(cx);
}

fn node_class_ref(cx: &mut Cx, f: &Field<'_>, v1beta1: bool) -> NodeClassRef {
    let mut r = Fields::of(cx, f);
    let mut out = NodeClassRef {
        group: NODE_CLASS_GROUP.into(),
        kind: NODE_CLASS_KIND.into(),
        name: String::new(),
    };
    let name_field = r.req(cx, "name");
    let name_pos = name_field.as_ref().map(|n| n.pos());
    if let Some(n) = name_field.and_then(|n| cx.nonempty_str(&n)) {
        out.name = n;
    }
    if v1beta1 {
        let api_version = r.get("apiVersion").and_then(|a| cx.str(&a));
        let kind = r.get("kind").and_then(|k| cx.str(&k));
        if let Some(group) = api_version
            .as_deref()
            .and_then(|a| a.split_once('/'))
            .map(|(g, _)| g)
        {
            out.group = group.to_string();
        }
        if let Some(kind) = kind {
            out.kind = kind;
        }
        cx.warn(
            Code::V1beta1NodeClassRef,
            &f.path,
            f.pos(),
            "v1 nodeClassRef needs group, kind and name (apiVersion is gone)",
            Some(format!(
                "write `nodeClassRef: {{group: {}, kind: {}, name: {}}}`",
                out.group, out.kind, out.name
            )),
        );
        cx.ko(
            "v1의 nodeClassRef에는 group, kind, name이 모두 있어야 \
             합니다(apiVersion은 없어졌습니다)",
            Some(format!(
                "`nodeClassRef: {{group: {}, kind: {}, name: {}}}`로 쓰세요",
                out.group, out.kind, out.name
            )),
        );
    } else {
        let has_api_version = r.has("apiVersion");
        let help = if has_api_version {
            "v1 uses `group: karpenter.k8s.aws` instead of `apiVersion`"
        } else {
            "add `group: karpenter.k8s.aws` and `kind: EC2NodeClass`"
        };
        if let Some(g) = r.req_help(cx, "group", help).and_then(|g| {
            let s = cx.nonempty_str(&g)?;
            if s.contains('/') {
                cx.error(
                    Code::InvalidNodeClassGroup,
                    &g.path,
                    g.pos(),
                    format!("group `{s}` must not contain '/'"),
                    Some("use `group: karpenter.k8s.aws` (no version)".into()),
                );
                cx.ko(
                    format!("group `{s}`에는 '/'가 들어가면 안 됩니다"),
                    Some("`group: karpenter.k8s.aws`(버전 없이)로 쓰세요".into()),
                );
                return None;
            }
            Some(s)
        }) {
            out.group = g;
        }
        if let Some(k) = r
            .req_help(cx, "kind", "add `kind: EC2NodeClass`")
            .and_then(|k| cx.nonempty_str(&k))
        {
            out.kind = k;
        }
    }
    r.finish(cx);
    let auto_mode = out.is_auto_mode();
    if !auto_mode && (out.group != NODE_CLASS_GROUP || out.kind != NODE_CLASS_KIND) {
        cx.warn(
            Code::UnknownReference,
            &f.path,
            f.pos(),
            format!(
                "node class {}/{} is not simulated: this NodePool never launches nodes",
                out.group, out.kind
            ),
            Some(format!(
                "reference an EC2NodeClass: `group: {NODE_CLASS_GROUP}`, `kind: {NODE_CLASS_KIND}`"
            )),
        );
        cx.ko(
            format!(
                "노드 클래스 {}/{}는 시뮬레이션하지 않습니다. 이 NodePool은 노드를 띄우지 않습니다",
                out.group, out.kind
            ),
            None,
        );
    } else if !out.name.is_empty() {
        let name_field = Field {
            node: f.node,
            path: join(&f.path, "name"),
            key_pos: f.key_pos,
        };
        let pos = name_pos.unwrap_or(f.pos());
        cx.refs.push(crate::reader::Ref {
            // An EKS Auto Mode NodeClass (`eks.amazonaws.com`) or an EC2NodeClass.
            kind: if auto_mode {
                kpg_core::automode::KIND.into()
            } else {
                NODE_CLASS_KIND.into()
            },
            namespace: String::new(),
            name: out.name.clone(),
            path: name_field.path,
            pos,
        });
    }
    out
}

fn budgets(cx: &mut Cx, f: &Field<'_>) -> Vec<Budget> {
    let mut out = Vec::new();
    let items = cx.seq(f);
    if items.len() > 50 {
        cx.error(
            Code::TooManyItems,
            &f.path,
            f.pos(),
            "at most 50 budgets are allowed",
            Some("merge budgets".into()),
        );
        cx.ko(
            "budgets는 최대 50개까지입니다",
            Some("예산을 합치세요".into()),
        );
    }
    for item in items {
        let mut b = Fields::of(cx, &item);
        let nodes = match b.get("nodes") {
            Some(n) => cx.str(&n).and_then(|s| {
                let parsed = parse_budget_nodes(&s);
                if parsed.is_none() {
                    cx.error(
                        Code::InvalidBudgetNodes,
                        &n.path,
                        n.pos(),
                        format!("`{s}` is not a node count or a percentage"),
                        Some("use a count such as \"1\" or a percentage such as \"10%\"".into()),
                    );
                    cx.ko(
                        format!("`{s}`는 노드 수나 백분율이 아닙니다"),
                        Some("\"1\" 같은 개수나 \"10%\" 같은 백분율을 쓰세요".into()),
                    );
                }
                parsed
            }),
            None => Some(BudgetNodes::Percent(10)),
        };
        let schedule_field = b.get("schedule");
        let schedule = schedule_field.as_ref().and_then(|s| cx.str(s)).filter(|s| {
            let ok = valid_cron(s);
            if !ok {
                if let Some(sf) = &schedule_field {
                    cx.error(
                        Code::InvalidSchedule,
                        &sf.path,
                        sf.pos(),
                        format!("`{s}` is not a cron schedule"),
                        Some(
                            "use five fields (\"0 9 * * mon-fri\") or a macro such as @daily"
                                .into(),
                        ),
                    );
                    cx.ko(
                        format!("`{s}`는 cron 일정이 아닙니다"),
                        Some("다섯 필드(\"0 9 * * mon-fri\")나 @daily 같은 매크로를 쓰세요".into()),
                    );
                }
            } else if let (Err(why), Some(sf)) = (kpg_core::cron::parse(s), &schedule_field) {
                // The API server's pattern accepts it, but Karpenter cannot parse it and
                // fails closed: the budget then allows no disruption at all.
                cx.warn(
                    Code::UnparsableSchedule,
                    &sf.path,
                    sf.pos(),
                    format!(
                        "Karpenter cannot parse `{s}` ({why}), so this \
                         budget blocks every disruption"
                    ),
                    Some("fix the schedule, e.g. \"0 9 * * mon-fri\"".into()),
                );
                cx.ko(
                    format!(
                        "Karpenter가 `{s}`를 해석하지 못하므로({why}) 이 \
                         예산은 모든 중단을 막습니다"
                    ),
                    Some("일정을 고치세요. 예: \"0 9 * * mon-fri\"".into()),
                );
            }
            ok
        });
        let duration_field = b.get("duration");
        let duration = duration_field.as_ref().and_then(|d| {
            let v = cx.duration(d, false)?.unwrap_or(0);
            if let crate::yaml::Value::Str(s) = &d.node.value
                && !valid_budget_duration(s)
            {
                cx.error(
                    Code::InvalidBudgetDuration,
                    &d.path,
                    d.pos(),
                    format!("`{s}` does not match the budget duration format"),
                    Some("use hours and minutes, e.g. 8h, 30m or 1h30m".into()),
                );
                cx.ko(
                    format!("`{s}`는 예산 기간 형식에 맞지 않습니다"),
                    Some("시간과 분으로 쓰세요. 예: 8h, 30m, 1h30m".into()),
                );
                return None;
            }
            Some(v)
        });
        if schedule_field.is_some() != duration_field.is_some() {
            cx.error(
                Code::ScheduleWithoutDuration,
                &item.path,
                item.pos(),
                "'schedule' must be set with 'duration'",
                Some("set both `schedule` and `duration`, or neither".into()),
            );
            cx.ko(
                "'schedule'은 'duration'과 함께 써야 합니다",
                Some("`schedule`과 `duration`을 둘 다 쓰거나 둘 다 빼세요".into()),
            );
        }
        let mut reasons: Vec<String> = Vec::new();
        if let Some(r) = b.get("reasons") {
            let items = cx.seq(&r);
            if items.len() > 50 {
                cx.error(
                    Code::TooManyItems,
                    &r.path,
                    r.pos(),
                    "at most 50 reasons are allowed",
                    Some("list each reason once".into()),
                );
                cx.ko(
                    "reasons는 최대 50개까지입니다",
                    Some("이유마다 한 번씩만 쓰세요".into()),
                );
            }
            for item in &items {
                let Some(reason) = cx.choice(
                    item,
                    &["Underutilized", "Empty", "Drifted", "Repair"],
                    "disruption reason",
                ) else {
                    continue;
                };
                if reason == "Repair" {
                    // The CRD's enum gains `Repair` with repair as a disruption (v1.15).
                    cx.need(
                        Need::Version(Behaviour::RepairAsDisruption),
                        "reason `Repair`",
                        &item.path,
                        item.pos(),
                    );
                }
                // `listType: set`: the API server refuses a repeated item.
                if reasons.iter().any(|r| r == reason) {
                    cx.error(
                        Code::DuplicateItem,
                        &item.path,
                        item.pos(),
                        format!("`{reason}` is listed twice"),
                        Some("list each reason once".into()),
                    );
                    cx.ko(
                        format!("`{reason}`가 두 번 나옵니다"),
                        Some("이유마다 한 번씩만 쓰세요".into()),
                    );
                    continue;
                }
                reasons.push(reason.to_string());
            }
        }
        b.finish(cx);
        if let Some(nodes) = nodes {
            out.push(Budget {
                nodes,
                schedule,
                duration,
                reasons,
            });
        }
    }
    out
}

/// `^((100|[0-9]{1,2})%|[0-9]+)$`
fn parse_budget_nodes(s: &str) -> Option<BudgetNodes> {
    if let Some(p) = s.strip_suffix('%') {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: u32 = p.parse().ok()?;
        if p.len() == 3 && v != 100 {
            return None;
        }
        return Some(BudgetNodes::Percent(v));
    }
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok().map(BudgetNodes::Count)
}

/// The CRD's cron pattern, loosely: a macro, or five space-separated fields.
fn valid_cron(s: &str) -> bool {
    const MACROS: &[&str] = &[
        "@annually",
        "@yearly",
        "@monthly",
        "@weekly",
        "@daily",
        "@midnight",
        "@hourly",
    ];
    if MACROS.contains(&s) {
        return true;
    }
    let fields: Vec<&str> = s.split_whitespace().collect();
    fields.len() == 5
        && fields.iter().all(|f| {
            f.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '*' | ',' | '-' | '/' | '?'))
        })
}

/// `^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$`
fn valid_budget_duration(s: &str) -> bool {
    let s = s
        .strip_suffix("0s")
        .filter(|r| !r.is_empty() && !r.ends_with(|c: char| c.is_ascii_digit()))
        .unwrap_or(s);
    let mut units = Vec::new();
    let mut digits = 0;
    for c in s.chars() {
        match c {
            '0'..='9' => digits += 1,
            'h' | 'm' if digits > 0 => {
                units.push(c);
                digits = 0;
            }
            _ => return false,
        }
    }
    digits == 0 && matches!(units.as_slice(), ['h'] | ['m'] | ['h', 'm'])
}

/// `limits`; `is_static` because static NodePools (v1.8+) had `nodes` before dynamic ones
/// (v1.11+).
fn limits(cx: &mut Cx, f: &Field<'_>, is_static: bool) -> Limits {
    let mut out = Limits::default();
    for (name, key_pos, value) in cx.entries(f) {
        if name == "nodes" {
            if let Some(v) = cx.quantity(&value, ResourceName::Pods) {
                out.nodes = Some(v);
                if !is_static {
                    cx.need(
                        Need::Effect(Behaviour::NodeLimits),
                        "`limits.nodes`",
                        &value.path,
                        key_pos,
                    );
                }
            }
            continue;
        }
        let resource = ResourceName::parse(&name);
        let known = name.contains('/')
            || matches!(
                name.as_str(),
                "cpu" | "memory" | "ephemeral-storage" | "pods" | "storage"
            )
            || name.starts_with("hugepages-");
        if !known {
            let guess = crate::reader::suggest(
                &name,
                ["cpu", "memory", "ephemeral-storage", "pods", "nodes"],
            );
            let help = match guess {
                Some(g) => format!("did you mean `{g}`?"),
                None => "use cpu, memory, ephemeral-storage, pods, nodes or an extended resource \
                         such as nvidia.com/gpu"
                    .into(),
            };
            cx.error(
                Code::InvalidResourceName,
                &value.path,
                key_pos,
                format!("`{name}` is not a resource name"),
                Some(help),
            );
            cx.ko(format!("`{name}`는 리소스 이름이 아닙니다"), None);
            continue;
        }
        if let Some(v) = cx.quantity(&value, resource) {
            let slot = &mut out.resources[resource as usize];
            *slot = Some(slot.unwrap_or(0).saturating_add(v));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duration_patterns_follow_the_crd() {
        assert!(karpenter_duration_ok("720h"));
        assert!(karpenter_duration_ok("1h30m"));
        assert!(!karpenter_duration_ok("1.5h"));
        assert!(!karpenter_duration_ok("500ms"));
        assert!(!karpenter_duration_ok("5"));
        assert!(valid_budget_duration("8h"));
        assert!(valid_budget_duration("1h30m"));
        assert!(valid_budget_duration("30m0s"));
        assert!(!valid_budget_duration("30s"));
        assert!(!valid_budget_duration("1m1h"));
    }

    #[test]
    fn budget_nodes_pattern() {
        assert_eq!(parse_budget_nodes("10%"), Some(BudgetNodes::Percent(10)));
        assert_eq!(parse_budget_nodes("100%"), Some(BudgetNodes::Percent(100)));
        assert_eq!(parse_budget_nodes("101%"), None);
        assert_eq!(parse_budget_nodes("3"), Some(BudgetNodes::Count(3)));
        assert_eq!(parse_budget_nodes("-1"), None);
        assert!(valid_cron("0 9 * * mon-fri"));
        assert!(valid_cron("@daily"));
        assert!(!valid_cron("every day"));
    }
}

//! `autoscaling.x-k8s.io/v1beta1` `CapacityBuffer` (Karpenter v1.14+, the `CapacityBuffer`
//! gate) and the `v1 PodTemplate` a buffer may name. The CRD's rules at v1.14.1
//! (`pkg/apis/crds/autoscaling.x-k8s.io_capacitybuffers.yaml`,
//! `pkg/apis/autoscaling/v1beta1/capacitybuffer.go`): `replicas` and `percentage` at least 0,
//! `podTemplateRef` only with `replicas` or `limits`, never both references,
//! `provisioningStrategy` defaulted to `buffer.x-k8s.io/active-capacity`. What the buffer
//! controller would refuse (no reference at all, a kind it cannot read) is a warning: the API
//! server accepts it and the buffer is never ready.

use kpg_core::capacity_buffer::{ACTIVE_CAPACITY, CapacityBuffer, NamedPodTemplate, ScalableRef};
use kpg_core::karpenter::Gate;

use super::common::{self, ListSite, Meta, NameRule};
use super::pod::{self, Owner};
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields, Need};

/// The most replicas the reader accepts (the field is an int32).
const MAX_INT32: i64 = i32::MAX as i64;

pub(crate) fn capacity_buffer(cx: &mut Cx, root: &Field<'_>) -> (Meta, CapacityBuffer) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, true, NameRule::Subdomain);
    let mut out = CapacityBuffer {
        name: meta.name.clone(),
        namespace: meta.namespace.clone(),
        pod_template_ref: None,
        scalable_ref: None,
        replicas: None,
        percentage: None,
        limits: None,
        provisioning_strategy: ACTIVE_CAPACITY.into(),
    };
    if let Some(sf) = r.req(cx, "spec") {
        cx.need(
            Need::Gate(Gate::CapacityBuffer),
            "the CapacityBuffer",
            &sf.path,
            sf.key_pos,
        );
        let mut s = Fields::of(cx, &sf);
        let template_ref = s.get("podTemplateRef");
        if let Some(t) = &template_ref {
            let mut tf = Fields::of(cx, t);
            if let Some(n) = tf.req(cx, "name")
                && let Some(name) = cx.nonempty_str(&n)
            {
                cx.refer("PodTemplate", &meta.namespace, &name, &n);
                out.pod_template_ref = Some(name);
            }
            tf.finish(cx);
        }
        let scalable = s.get("scalableRef");
        if let Some(sr) = &scalable {
            out.scalable_ref = scalable_ref(cx, sr, &meta.namespace);
        }
        let replicas = s.get("replicas");
        if let Some(f) = &replicas {
            out.replicas = cx.int(f, 0, MAX_INT32).map(|n| n as u32);
        }
        if let Some(f) = s.get("percentage") {
            out.percentage = cx.int(&f, 0, MAX_INT32).map(|n| n as u32);
        }
        let limits = s.get("limits");
        if let Some(f) = &limits {
            let list = common::resource_list(cx, f, ListSite::Node);
            out.limits = Some(list.into_iter().map(|(_, r, v)| (r, v)).collect());
        }
        if let Some(f) = s.get("provisioningStrategy")
            && let Some(v) = cx.str(&f)
        {
            out.provisioning_strategy = v;
        }
        // The CRD's CEL rules (`x-kubernetes-validations` on the spec).
        if let (Some(_), Some(sr)) = (&template_ref, &scalable) {
            cx.error(
                Code::CapacityBufferRule,
                &sr.path,
                sr.key_pos,
                "You must define either PodTemplateRef or ScalableRef, but not both",
                Some("keep `podTemplateRef` (a PodTemplate) or `scalableRef` (a workload)".into()),
            );
            cx.ko(
                "PodTemplateRef와 ScalableRef 중 하나만 정의해야 합니다",
                Some(
                    "`podTemplateRef`(PodTemplate)나 `scalableRef`(워크로드) 중 하나만 남기세요"
                        .into(),
                ),
            );
        } else if let (Some(t), None, None) = (&template_ref, &replicas, &limits) {
            cx.error(
                Code::CapacityBufferRule,
                &t.path,
                t.key_pos,
                "If podTemplateRef is set, replicas or limits must also be set",
                Some("add e.g. `replicas: 2`, or `limits: {cpu: 4}`".into()),
            );
            cx.ko(
                "podTemplateRef를 쓰면 replicas나 limits도 써야 합니다",
                Some("예: `replicas: 2` 또는 `limits: {cpu: 4}`를 더하세요".into()),
            );
        } else if template_ref.is_none() && scalable.is_none() {
            // The API server accepts it; the buffer controller never resolves it
            // (`ReadyForProvisioning: False`, `ResolutionFailed`).
            cx.warn(
                Code::CapacityBufferUnresolved,
                &sf.path,
                sf.key_pos,
                "the CapacityBuffer names neither a podTemplateRef nor a scalableRef: \
                 Karpenter never makes it ready and keeps no capacity for it",
                Some(
                    "add `podTemplateRef: {name: ...}` with `replicas`, or `scalableRef: \
                     {kind: Deployment, name: ...}`"
                        .into(),
                ),
            );
            cx.ko(
                "CapacityBuffer에 podTemplateRef도 scalableRef도 없습니다. Karpenter는 이를 \
                 준비 상태로 만들지 않으며 용량을 남겨 두지 않습니다",
                Some(
                    "`podTemplateRef: {name: ...}`와 `replicas`를, 또는 `scalableRef: {kind: \
                     Deployment, name: ...}`를 더하세요"
                        .into(),
                ),
            );
        }
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, out)
}

/// `spec.scalableRef`: `kind` and `name` required (min length 1); the buffer controller reads
/// only `apps` Deployments, StatefulSets and ReplicaSets, anything else stays unresolved.
fn scalable_ref(cx: &mut Cx, f: &Field<'_>, namespace: &str) -> Option<ScalableRef> {
    let mut r = Fields::of(cx, f);
    let api_group = r
        .get("apiGroup")
        .and_then(|g| cx.str(&g))
        .unwrap_or_default();
    let kind_field = r.req(cx, "kind");
    let kind = kind_field.as_ref().and_then(|k| cx.nonempty_str(k));
    let name_field = r.req(cx, "name");
    let name = name_field.as_ref().and_then(|n| cx.nonempty_str(n));
    r.finish(cx);
    let out = ScalableRef {
        api_group,
        kind: kind?,
        name: name?,
    };
    match out.workload_kind() {
        Ok(kind) => {
            if let Some(nf) = &name_field {
                cx.refer(kind.as_str(), namespace, &out.name, nf);
            }
        }
        Err(why) => {
            let (path, pos) = match &kind_field {
                Some(k) => (k.path.clone(), k.pos()),
                None => (f.path.clone(), f.pos()),
            };
            cx.warn(
                Code::CapacityBufferUnresolved,
                &path,
                pos,
                format!(
                    "Karpenter cannot resolve this scalableRef ({why}): the buffer is never \
                     ready and keeps no capacity"
                ),
                Some(
                    "name a Deployment, StatefulSet or ReplicaSet of `apps` (the default group)"
                        .into(),
                ),
            );
            cx.ko(
                format!(
                    "Karpenter는 이 scalableRef를 해석할 수 없습니다({why}). 버퍼는 준비 상태가 \
                     되지 않으며 용량을 남겨 두지 않습니다"
                ),
                Some("`apps`(기본 그룹)의 Deployment, StatefulSet, ReplicaSet을 쓰세요".into()),
            );
        }
    }
    Some(out)
}

/// A `v1 PodTemplate`: `template` is a pod template, read as a bare pod's would be.
pub(crate) fn pod_template(cx: &mut Cx, root: &Field<'_>) -> (Meta, NamedPodTemplate) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, true, NameRule::Subdomain);
    let mut out = NamedPodTemplate {
        name: meta.name.clone(),
        namespace: meta.namespace.clone(),
        template: Default::default(),
    };
    if let Some(t) = r.req(cx, "template") {
        out.template = pod::pod_template(cx, &t, Owner::Pod);
    }
    r.ignore(&["apiVersion", "kind"]);
    r.finish(cx);
    (meta, out)
}

//! `node.k8s.io/v1` `RuntimeClass`: what the RuntimeClass admission plugin gives the pods that
//! name it (`plugin/pkg/admission/runtimeclass/admission.go`, Kubernetes 1.37): its
//! `overhead.podFixed`, added to every request kube-scheduler and Karpenter count, and its
//! `scheduling` node selector and tolerations, merged into the pod's. The handler is the
//! container runtime's business and changes nothing here.

use kpg_core::model::StringMap;
use kpg_core::resources::Resources;
use kpg_core::taints::Toleration;

use super::common::{self, ListSite, Meta, NameRule};
use crate::codes::Code;
use crate::ext;
use crate::reader::{Cx, Field, Fields, truncate};

/// What admission takes from a RuntimeClass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct RuntimeClass {
    pub name: String,
    /// `overhead.podFixed`; `None` when the class sets no overhead.
    pub overhead: Option<Resources>,
    pub node_selector: StringMap,
    pub tolerations: Vec<Toleration>,
}

pub(crate) fn runtime_class(cx: &mut Cx, root: &Field<'_>) -> (Meta, RuntimeClass) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let mut out = RuntimeClass {
        name: meta.name.clone(),
        ..RuntimeClass::default()
    };
    // The handler is required and a DNS label (`ValidateRuntimeClass`).
    if let Some(h) = r.req_help(cx, "handler", "add e.g. `handler: runc`")
        && let Some(handler) = cx.nonempty_str(&h)
        && let Err(e) = ext::dns1123_label(&handler)
    {
        cx.error(
            Code::InvalidName,
            &h.path,
            h.pos(),
            format!("invalid handler `{}`: {e}", truncate(&handler, 60)),
            Some("use the runtime handler's name in lower case, e.g. `runc` or `kata`".into()),
        );
        cx.ko(
            format!(
                "handler `{}`가 올바르지 않습니다: {e}",
                truncate(&handler, 60)
            ),
            Some("런타임 핸들러 이름을 소문자로 쓰세요. 예: `runc`, `kata`".into()),
        );
    }
    if let Some(o) = r.get("overhead") {
        let mut overhead = Fields::of(cx, &o);
        if let Some(p) = overhead.get("podFixed") {
            let list = common::resource_list(cx, &p, ListSite::Container);
            out.overhead = Some(common::to_resources(&list));
        }
        overhead.finish(cx);
    }
    if let Some(s) = r.get("scheduling") {
        let mut scheduling = Fields::of(cx, &s);
        if let Some(ns) = scheduling.get("nodeSelector") {
            out.node_selector = common::labels(cx, &ns);
        }
        if let Some(t) = scheduling.get("tolerations") {
            out.tolerations = super::pod::tolerations(cx, &t);
        }
        scheduling.finish(cx);
    }
    r.ignore(&["apiVersion", "kind"]);
    r.finish(cx);
    (meta, out)
}

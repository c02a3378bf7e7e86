//! From a document's tree to the engine's model, one kind at a time.
//!
//! [`convert`] reads the type meta (`apiVersion`, `kind`), names the object for diagnostics and
//! hands the tree to the kind's converter. Converters never fail: they report into the
//! [`Cx`] and return their best value; the caller drops the object if errors were reported.

pub(crate) mod autonodeclass;
pub(crate) mod buffer;
pub(crate) mod common;
pub(crate) mod nodeclass;
pub(crate) mod nodepool;
pub(crate) mod overlay;
pub(crate) mod playground;
pub(crate) mod pod;
pub(crate) mod priority;
pub(crate) mod runtime_class;
pub(crate) mod snapshot;
pub(crate) mod storage;
pub(crate) mod workload;

use kpg_core::catalog::InstanceTypeSpec;
use kpg_core::manifest::Written;
use kpg_core::model::{
    Cluster, KubeletConfig, Namespace, NodeClass, NodePool, PodDisruptionBudget, Workload,
    WorkloadKind,
};

use crate::codes::Code;
use crate::reader::{Cx, Field, Fields, suggest};
use crate::yaml::{Node, Pos, Value};

/// A kind the playground reads.
pub(crate) struct KindInfo {
    pub kind: &'static str,
    /// Accepted apiVersions; the first is the current one.
    pub versions: &'static [&'static str],
    pub namespaced: bool,
}

pub(crate) const KINDS: &[KindInfo] = &[
    KindInfo {
        kind: "NodePool",
        versions: &["karpenter.sh/v1", "karpenter.sh/v1beta1"],
        namespaced: false,
    },
    KindInfo {
        kind: "EC2NodeClass",
        versions: &["karpenter.k8s.aws/v1", "karpenter.k8s.aws/v1beta1"],
        namespaced: false,
    },
    KindInfo {
        kind: "NodeClass",
        versions: &["eks.amazonaws.com/v1"],
        namespaced: false,
    },
    KindInfo {
        kind: "Pod",
        versions: &["v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "Deployment",
        versions: &["apps/v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "StatefulSet",
        versions: &["apps/v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "DaemonSet",
        versions: &["apps/v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "ReplicaSet",
        versions: &["apps/v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "Job",
        versions: &["batch/v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "PodDisruptionBudget",
        versions: &["policy/v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "PriorityClass",
        versions: &["scheduling.k8s.io/v1"],
        namespaced: false,
    },
    KindInfo {
        kind: "Namespace",
        versions: &["v1"],
        namespaced: false,
    },
    KindInfo {
        kind: "Node",
        versions: &["v1"],
        namespaced: false,
    },
    KindInfo {
        kind: "RuntimeClass",
        versions: &["node.k8s.io/v1"],
        namespaced: false,
    },
    KindInfo {
        kind: "NodeClaim",
        versions: &["karpenter.sh/v1"],
        namespaced: false,
    },
    KindInfo {
        kind: "NodeOverlay",
        versions: &["karpenter.sh/v1alpha1"],
        namespaced: false,
    },
    KindInfo {
        kind: "StorageClass",
        versions: &["storage.k8s.io/v1"],
        namespaced: false,
    },
    KindInfo {
        kind: "PersistentVolumeClaim",
        versions: &["v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "CapacityBuffer",
        versions: &["autoscaling.x-k8s.io/v1beta1"],
        namespaced: true,
    },
    KindInfo {
        kind: "PodTemplate",
        versions: &["v1"],
        namespaced: true,
    },
    KindInfo {
        kind: "PersistentVolume",
        versions: &["v1"],
        namespaced: false,
    },
    KindInfo {
        kind: "Cluster",
        versions: &["playground.karpenter.dev/v1alpha1"],
        namespaced: false,
    },
    KindInfo {
        kind: "InstanceType",
        versions: &["playground.karpenter.dev/v1alpha1"],
        namespaced: false,
    },
    KindInfo {
        kind: "CapacityReservation",
        versions: &["playground.karpenter.dev/v1alpha1"],
        namespaced: false,
    },
    KindInfo {
        kind: "Timeline",
        versions: &["playground.karpenter.dev/v1alpha1"],
        namespaced: false,
    },
];

pub(crate) fn kind_info(kind: &str) -> Option<&'static KindInfo> {
    KINDS.iter().find(|k| k.kind == kind)
}

/// `Kind/name` for cluster-scoped objects, `Kind/namespace/name` for namespaced ones.
pub(crate) fn object_label(kind: &str, namespace: Option<&str>, name: Option<&str>) -> String {
    let namespaced = kind_info(kind).map(|k| k.namespaced);
    let ns = match namespaced {
        Some(true) => Some(namespace.unwrap_or("default")),
        Some(false) => None,
        None => namespace,
    };
    match (ns, name) {
        (Some(ns), Some(name)) => format!("{kind}/{ns}/{name}"),
        (None, Some(name)) => format!("{kind}/{name}"),
        _ => kind.to_string(),
    }
}

/// A map's value at `key`, looked at without diagnostics.
pub(crate) fn map_at<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    match &node.value {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| matches!(&k.value, Value::Str(s) if s == key))
            .map(|(_, v)| v),
        _ => None,
    }
}

/// A map's string at `key`, looked at without diagnostics.
pub(crate) fn str_at<'a>(node: &'a Node, key: &str) -> Option<&'a str> {
    match map_at(node, key).map(|n| &n.value) {
        Some(Value::Str(s)) => Some(s.as_str()),
        _ => None,
    }
}

/// Kind, name and namespace read straight from the tree, without diagnostics, to label
/// the object in every diagnostic about it.
pub(crate) fn peek(root: &Node) -> (Option<&str>, Option<&str>, Option<&str>) {
    let kind = str_at(root, "kind");
    let meta = map_at(root, "metadata");
    let name = meta.and_then(|m| str_at(m, "name"));
    let namespace = meta.and_then(|m| str_at(m, "namespace"));
    (kind, name, namespace)
}

/// One converted object.
#[derive(Debug)]
pub(crate) enum Object {
    NodePool(NodePool),
    NodeClass(NodeClass),
    Workload(Workload),
    Pdb(PodDisruptionBudget),
    /// A PodDisruptionBudget that selects no pods.
    NoOp,
    Namespace(Namespace),
    PriorityClass(kpg_core::priority::PriorityClass),
    Cluster(Cluster),
    InstanceType(InstanceTypeSpec),
    NodeOverlay(kpg_core::overlay::NodeOverlay),
    CapacityReservation(kpg_core::reservation::CapacityReservation),
    Timeline(Vec<playground::Step>),
    StorageClass(kpg_core::volumes::StorageClass),
    Claim(kpg_core::volumes::Claim),
    Volume(kpg_core::volumes::PersistentVolume),
    /// A snapshot's Node and NodeClaim.
    Node(snapshot::NodeDoc),
    NodeClaim(snapshot::ClaimDoc),
    /// Read by admission (`assemble::admission`), which gives its pods what it says.
    RuntimeClass(runtime_class::RuntimeClass),
    CapacityBuffer(kpg_core::capacity_buffer::CapacityBuffer),
    PodTemplate(kpg_core::capacity_buffer::NamedPodTemplate),
}

#[derive(Debug)]
pub(crate) struct Converted {
    /// The canonical kind (`NodePool` for v1 and v1beta1 alike).
    pub kind: &'static str,
    pub name: String,
    /// The namespace of namespaced kinds, empty otherwise.
    pub namespace: String,
    pub name_pos: Pos,
    /// Where a workload's pod count is written ([`common::Meta::count_at`]).
    pub count_at: Option<(Pos, &'static str)>,
    pub object: Object,
    /// A v1beta1 NodePool's template `kubelet`, which v1 keeps in the EC2NodeClass.
    pub v1beta1_kubelet: Option<KubeletConfig>,
    /// The object as written, for what shows it as the API server serves it.
    pub written: Written,
    /// Its owner, phase and age, as a snapshot gives them.
    pub facts: snapshot::Facts,
}

/// Where an object is being read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site {
    /// A document of the stream, or an item of a `List`.
    Document,
    /// `spec.steps[i].apply` of a Timeline.
    TimelineApply,
}

/// Converts one object. `None` when it is not something the playground reads (reported as a
/// warning) or when its type meta is unusable or names a version the API server does not serve
/// the kind in (reported as an error).
pub(crate) fn convert(cx: &mut Cx, root: &Field<'_>, site: Site) -> Option<Converted> {
    if !matches!(root.node.value, Value::Map(_)) {
        cx.error(
            Code::InvalidType,
            &root.path,
            root.pos(),
            format!(
                "expected a Kubernetes object (a map with apiVersion and kind), found {}",
                root.node.type_name()
            ),
            Some("start the document with `apiVersion:` and `kind:` lines".into()),
        );
        cx.ko(
            "Kubernetes 오브젝트(apiVersion과 kind가 있는 맵)여야 합니다",
            Some("문서를 `apiVersion:`과 `kind:` 줄로 시작하세요".into()),
        );
        return None;
    }
    let mut tm = Fields::of(cx, root);
    let api_field = tm.req_help(cx, "apiVersion", "add e.g. `apiVersion: karpenter.sh/v1`");
    let api_version = api_field.as_ref().and_then(|a| cx.nonempty_str(a));
    let kind_field = tm.req_help(cx, "kind", "add e.g. `kind: NodePool`");
    let kind = kind_field.as_ref().and_then(|k| cx.nonempty_str(k));
    // `tm` is only for the type meta: the kind converters read the whole map again.
    let (Some(api_version), Some(api_field), Some(kind), Some(kind_field)) =
        (api_version, api_field, kind, kind_field)
    else {
        return None;
    };
    let Some(info) = kind_info(&kind) else {
        let mut message =
            format!("{kind} ({api_version}) is not simulated; the document is skipped");
        if site == Site::TimelineApply {
            message = format!("{kind} ({api_version}) is not simulated; this step is skipped");
        }
        let help = suggest(&kind, KINDS.iter().map(|k| k.kind))
            .map(|k| format!("did you mean `{k}`?"))
            .or_else(|| {
                Some(String::from(
                    "the playground simulates NodePools, EC2NodeClasses, workloads, \
                     PodDisruptionBudgets and Namespaces; other objects can stay, they are skipped",
                ))
            });
        cx.warn(
            Code::UnknownKind,
            &kind_field.path,
            kind_field.pos(),
            message,
            help,
        );
        let what = if site == Site::TimelineApply {
            "이 단계는"
        } else {
            "이 문서는"
        };
        let help_ko = suggest(&kind, KINDS.iter().map(|k| k.kind))
            .map(|k| format!("`{k}`를 쓰려던 것인가요?"))
            .or_else(|| {
                Some(String::from(
                    "플레이그라운드는 NodePool, EC2NodeClass, 워크로드, PodDisruptionBudget, \
                     Namespace를 시뮬레이션합니다. 다른 오브젝트는 두어도 되며 건너뜁니다",
                ))
            });
        cx.ko(
            format!("{kind}({api_version})는 시뮬레이션하지 않으므로 {what} 건너뜁니다"),
            help_ko,
        );
        return None;
    };
    if !info.versions.contains(&api_version.as_str()) {
        // The API server has no such resource: `kubectl apply` refuses the object before any
        // of its fields is looked at, so nothing else of it is read.
        cx.error(
            Code::UnexpectedApiVersion,
            &api_field.path,
            api_field.pos(),
            format!("no matches for kind \"{kind}\" in version \"{api_version}\""),
            Some(format!("use `apiVersion: {}`", info.versions[0])),
        );
        let what = if site == Site::TimelineApply {
            "이 단계의 오브젝트는"
        } else {
            "이 문서는"
        };
        cx.ko(
            format!(
                "API 서버에 {api_version} 버전의 {kind} 종류가 없어 {what} 거부됩니다 \
                 (no matches for kind \"{kind}\" in version \"{api_version}\")"
            ),
            Some(format!("`apiVersion: {}`를 쓰세요", info.versions[0])),
        );
        return None;
    }
    let v1beta1 = api_version.ends_with("/v1beta1");
    if site == Site::TimelineApply
        && matches!(
            info.kind,
            "Namespace"
                | "Node"
                | "NodeClaim"
                | "RuntimeClass"
                | "Cluster"
                | "InstanceType"
                | "Timeline"
                | "NodeOverlay"
                | "CapacityReservation"
                | "StorageClass"
                | "PersistentVolumeClaim"
                | "PersistentVolume"
        )
    {
        cx.error(
            Code::TimelineKind,
            &kind_field.path,
            kind_field.pos(),
            format!("a Timeline cannot apply a {}", info.kind),
            Some(
                "apply NodePools, EC2NodeClasses, workloads or PodDisruptionBudgets; put other \
                 objects in their own documents"
                    .into(),
            ),
        );
        cx.ko(
            format!("Timeline은 {}를 적용할 수 없습니다", info.kind),
            Some(
                "NodePool, EC2NodeClass, 워크로드, PodDisruptionBudget만 적용하세요. 다른 \
                 오브젝트는 별도 문서로 두세요"
                    .into(),
            ),
        );
        return None;
    }

    let mut v1beta1_kubelet = None;
    let (meta, object) = match info.kind {
        "NodePool" => {
            let (m, o, k) = nodepool::node_pool(cx, root, v1beta1);
            v1beta1_kubelet = k;
            (m, Object::NodePool(o))
        }
        "EC2NodeClass" => {
            let (m, o) = nodeclass::node_class(cx, root, v1beta1);
            (m, Object::NodeClass(o))
        }
        "NodeClass" => {
            let (m, o) = autonodeclass::node_class(cx, root);
            (m, Object::NodeClass(o))
        }
        "Pod" => {
            let (m, o) = workload::pod(cx, root);
            (m, Object::Workload(o))
        }
        "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet" | "Job" => {
            let wk = workload_kind(info.kind).unwrap_or(WorkloadKind::Deployment);
            let (m, o) = workload::controller(cx, root, wk);
            (m, Object::Workload(o))
        }
        "PodDisruptionBudget" => {
            let (m, o) = workload::pdb(cx, root);
            (m, o.map(Object::Pdb).unwrap_or(Object::NoOp))
        }
        "Namespace" => {
            let (m, o) = workload::namespace(cx, root);
            (m, Object::Namespace(o))
        }
        "PriorityClass" => {
            let (m, o) = priority::priority_class(cx, root);
            (m, Object::PriorityClass(o))
        }
        "Cluster" => {
            let (m, o) = playground::cluster(cx, root);
            (m, Object::Cluster(o))
        }
        "InstanceType" => {
            let (m, o) = playground::instance_type(cx, root);
            (m, Object::InstanceType(o))
        }
        "NodeOverlay" => {
            let (m, o) = overlay::node_overlay(cx, root);
            (m, Object::NodeOverlay(o))
        }
        "CapacityReservation" => {
            let (m, o) = playground::capacity_reservation(cx, root);
            (m, Object::CapacityReservation(o))
        }
        "StorageClass" => {
            let (m, o) = storage::storage_class(cx, root);
            (m, Object::StorageClass(o))
        }
        "PersistentVolumeClaim" => {
            let (m, o) = storage::claim(cx, root);
            (m, Object::Claim(o))
        }
        "PersistentVolume" => {
            let (m, o) = storage::volume(cx, root);
            (m, Object::Volume(o))
        }
        "Node" => {
            let (m, o) = snapshot::node(cx, root);
            (m, Object::Node(o))
        }
        "NodeClaim" => {
            let (m, o) = snapshot::node_claim(cx, root);
            (m, Object::NodeClaim(o))
        }
        "RuntimeClass" => {
            let (m, o) = runtime_class::runtime_class(cx, root);
            (m, Object::RuntimeClass(o))
        }
        "CapacityBuffer" => {
            let (m, o) = buffer::capacity_buffer(cx, root);
            (m, Object::CapacityBuffer(o))
        }
        "PodTemplate" => {
            let (m, o) = buffer::pod_template(cx, root);
            (m, Object::PodTemplate(o))
        }
        _ => {
            let (m, o) = playground::timeline(cx, root);
            (m, Object::Timeline(o))
        }
    };
    let written = Written {
        kind: info.kind.to_string(),
        name: meta.name.clone(),
        namespace: Some(meta.namespace.clone()).filter(|n| !n.is_empty()),
        document: cx.doc,
        lines: crate::yaml::line_span(root.node),
        step: None,
        tree: crate::yaml::tree(root.node),
    };
    Some(Converted {
        kind: info.kind,
        name: meta.name,
        namespace: meta.namespace,
        name_pos: meta.name_pos,
        count_at: meta.count_at,
        object,
        v1beta1_kubelet,
        written,
        facts: snapshot::facts(root.node),
    })
}

pub(crate) fn workload_kind(kind: &str) -> Option<WorkloadKind> {
    Some(match kind {
        "Pod" => WorkloadKind::Pod,
        "Deployment" => WorkloadKind::Deployment,
        "ReplicaSet" => WorkloadKind::ReplicaSet,
        "StatefulSet" => WorkloadKind::StatefulSet,
        "DaemonSet" => WorkloadKind::DaemonSet,
        "Job" => WorkloadKind::Job,
        _ => return None,
    })
}

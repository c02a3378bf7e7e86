//! StorageClasses, PersistentVolumeClaims, PersistentVolumes and the volumes a pod names: what
//! decides where a pod with a volume can run.
//!
//! Validation follows the API server (`ValidatePersistentVolumeClaimSpec`, the StorageClass
//! and PersistentVolume validation): claims need access modes and a storage request, a
//! StorageClass needs a provisioner and a known `volumeBindingMode` (defaulted to
//! `Immediate`). Nothing stricter.

use kpg_core::model::NodeSelectorRequirement;
use kpg_core::requirements::Operator;
use kpg_core::resources::ResourceName;
use kpg_core::volumes::{
    BindingMode, Claim, ClaimSpec, DEFAULT_CLASS_ANNOTATION, EBS_CSI_DRIVER, PersistentVolume,
    PodVolume, StorageClass,
};

use super::common::{self, Meta, NameRule};
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields};
use crate::schema;

const ACCESS_MODES: &[&str] = &[
    "ReadWriteOnce",
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOncePod",
];

/// `storage.k8s.io/v1` StorageClass.
pub(crate) fn storage_class(cx: &mut Cx, root: &Field<'_>) -> (Meta, StorageClass) {
    let mut r = Fields::typed(cx, root, schema::V1_STORAGE_CLASS);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let provisioner = r
        .req_help(cx, "provisioner", "e.g. `provisioner: ebs.csi.aws.com`")
        .and_then(|p| cx.nonempty_str(&p))
        .unwrap_or_default();
    let binding_mode = match r.get("volumeBindingMode") {
        Some(m) => match cx.choice(
            &m,
            &["Immediate", "WaitForFirstConsumer"],
            "volumeBindingMode",
        ) {
            Some("WaitForFirstConsumer") => BindingMode::WaitForFirstConsumer,
            _ => BindingMode::Immediate,
        },
        None => BindingMode::Immediate,
    };
    let mut allowed_topologies = Vec::new();
    if let Some(t) = r.get("allowedTopologies") {
        for term in cx.seq(&t) {
            let mut tf = Fields::typed(cx, &term, schema::V1_TOPOLOGY_SELECTOR_TERM);
            let mut exprs = Vec::new();
            if let Some(list) = tf.get("matchLabelExpressions") {
                for item in cx.seq(&list) {
                    let mut e =
                        Fields::typed(cx, &item, schema::V1_TOPOLOGY_SELECTOR_LABEL_REQUIREMENT);
                    let key = e.req(cx, "key").and_then(|k| cx.nonempty_str(&k));
                    let values = e.req(cx, "values").map(|v| (cx.string_list(&v), v));
                    if let Some((list, v)) = &values
                        && list.is_empty()
                    {
                        cx.error(
                            Code::MissingField,
                            &v.path,
                            v.pos(),
                            "must specify as least one value",
                            Some("list the zones the class may provision in".into()),
                        );
                        cx.ko(
                            "값을 하나 이상 써야 합니다",
                            Some("이 클래스가 볼륨을 만들 수 있는 가용 영역을 나열하세요".into()),
                        );
                    }
                    e.finish(cx);
                    if let (Some(key), Some((values, _))) = (key, values) {
                        exprs.push(NodeSelectorRequirement {
                            key,
                            operator: Operator::In,
                            values,
                            min_values: None,
                        });
                    }
                }
            }
            tf.finish(cx);
            allowed_topologies.push(exprs);
        }
    }
    r.ignore(&[
        "apiVersion",
        "kind",
        "parameters",
        "reclaimPolicy",
        "allowVolumeExpansion",
        "mountOptions",
    ]);
    r.finish(cx);
    let is_default = meta
        .annotations
        .get(DEFAULT_CLASS_ANNOTATION)
        .is_some_and(|v| v == "true");
    let class = StorageClass {
        name: meta.name.clone(),
        provisioner,
        binding_mode,
        allowed_topologies,
        is_default,
    };
    (meta, class)
}

/// `v1` PersistentVolumeClaim.
pub(crate) fn claim(cx: &mut Cx, root: &Field<'_>) -> (Meta, Claim) {
    let mut r = Fields::typed(cx, root, schema::V1_PERSISTENT_VOLUME_CLAIM);
    let meta = common::metadata(cx, &mut r, true, NameRule::Subdomain);
    let spec = match r.req(cx, "spec") {
        Some(s) => claim_spec(cx, &s),
        None => ClaimSpec::default(),
    };
    let phase = r.get("status").and_then(|s| {
        super::map_at(s.node, "phase").and_then(|p| match &p.value {
            crate::yaml::Value::Str(s) => Some(s.clone()),
            _ => None,
        })
    });
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    let claim = Claim {
        name: meta.name.clone(),
        namespace: meta.namespace.clone(),
        spec,
        phase,
    };
    (meta, claim)
}

/// A claim's spec: a PersistentVolumeClaim's, a StatefulSet's `volumeClaimTemplates` entry's
/// or a generic ephemeral volume's template's.
pub(crate) fn claim_spec(cx: &mut Cx, f: &Field<'_>) -> ClaimSpec {
    let mut s = Fields::typed(cx, f, schema::V1_PERSISTENT_VOLUME_CLAIM_SPEC);
    let mut spec = ClaimSpec {
        storage_class: s.get("storageClassName").and_then(|c| {
            let class = cx.str(&c)?;
            if !class.is_empty() {
                cx.refer("StorageClass", "", &class, &c);
            }
            Some(class)
        }),
        volume_name: s
            .get("volumeName")
            .and_then(|v| cx.str(&v))
            .filter(|v| !v.is_empty()),
        ..ClaimSpec::default()
    };
    match s.get("accessModes") {
        Some(m) => {
            for item in cx.seq(&m) {
                if let Some(mode) = cx.choice(&item, ACCESS_MODES, "access mode") {
                    spec.access_modes.push(mode.to_string());
                }
            }
            if spec.access_modes.is_empty() && cx.error_count() == 0 {
                missing_access_modes(cx, &m.path, m.pos());
            }
        }
        None => missing_access_modes(cx, &s.child_path("accessModes"), s.anchor()),
    }
    let storage = s.get("resources").and_then(|res| {
        let mut rf = Fields::typed(cx, &res, schema::V1_VOLUME_RESOURCE_REQUIREMENTS);
        let requests = rf.get("requests");
        rf.ignore(&["limits"]);
        rf.finish(cx);
        let requests = requests?;
        let entries = cx.entries(&requests);
        let mut storage = None;
        for (name, _, value) in entries {
            if name == "storage" {
                storage = cx.quantity(&value, ResourceName::EphemeralStorage);
            }
        }
        storage
    });
    match storage {
        Some(bytes) => spec.storage = bytes,
        None if cx.error_count() == 0 => {
            cx.error(
                Code::ClaimStorageRequest,
                &s.child_path("resources"),
                s.anchor(),
                "spec.resources[storage]: Required value",
                Some("add `resources: {requests: {storage: 10Gi}}`".into()),
            );
            cx.ko(
                "저장 용량 요청(resources.requests.storage)이 없습니다",
                Some("`resources: {requests: {storage: 10Gi}}`를 추가하세요".into()),
            );
        }
        None => {}
    }
    s.ignore(&[
        "selector",
        "volumeMode",
        "dataSource",
        "dataSourceRef",
        "volumeAttributesClassName",
    ]);
    s.finish(cx);
    spec
}

fn missing_access_modes(cx: &mut Cx, path: &str, pos: crate::yaml::Pos) {
    cx.error(
        Code::ClaimAccessModes,
        path,
        pos,
        "at least 1 access mode is required",
        Some("add `accessModes: [ReadWriteOnce]`".into()),
    );
    cx.ko(
        "접근 모드(accessModes)가 하나 이상 있어야 합니다",
        Some("`accessModes: [ReadWriteOnce]`를 추가하세요".into()),
    );
}

/// `v1` PersistentVolume.
pub(crate) fn volume(cx: &mut Cx, root: &Field<'_>) -> (Meta, PersistentVolume) {
    let mut r = Fields::typed(cx, root, schema::V1_PERSISTENT_VOLUME);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let mut pv = PersistentVolume {
        name: meta.name.clone(),
        storage_class: String::new(),
        node_affinity: Vec::new(),
        claim_ref: None,
        driver: None,
        local: false,
    };
    if let Some(sf) = r.req(cx, "spec") {
        let mut s = Fields::typed(cx, &sf, schema::V1_PERSISTENT_VOLUME_SPEC);
        pv.storage_class = s
            .get("storageClassName")
            .and_then(|c| cx.str(&c))
            .unwrap_or_default();
        if let Some(a) = s.get("nodeAffinity") {
            let mut af = Fields::typed(cx, &a, schema::V1_VOLUME_NODE_AFFINITY);
            if let Some(req) = af.get("required") {
                let mut rf = Fields::typed(cx, &req, schema::V1_NODE_SELECTOR);
                if let Some(terms) = rf.req(cx, "nodeSelectorTerms") {
                    for term in cx.seq(&terms) {
                        if let Some(t) = common::node_selector_term(cx, &term) {
                            pv.node_affinity.push(t);
                        }
                    }
                }
                rf.finish(cx);
            }
            af.finish(cx);
        }
        if let Some(c) = s.get("claimRef") {
            let namespace = super::str_at(c.node, "namespace").unwrap_or("default");
            if let Some(name) = super::str_at(c.node, "name") {
                pv.claim_ref = Some((namespace.to_string(), name.to_string()));
            }
        }
        if let Some(csi) = s.get("csi") {
            pv.driver = super::str_at(csi.node, "driver").map(str::to_string);
        }
        if s.has("awsElasticBlockStore") {
            pv.driver = Some(EBS_CSI_DRIVER.to_string());
        }
        pv.local = s.has("local") || s.has("hostPath");
        // Every other source and field is known to the API and changes nothing here.
        let others: Vec<&'static str> = schema::V1_PERSISTENT_VOLUME_SPEC
            .names()
            .filter(|n| !matches!(*n, "nodeAffinity" | "storageClassName"))
            .collect();
        s.ignore(&others);
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, pv)
}

/// A pod's `volumes`: those backed by a claim. Other volume types need no scheduling.
pub(crate) fn pod_volumes(cx: &mut Cx, f: &Field<'_>) -> Vec<PodVolume> {
    let mut out = Vec::new();
    for item in cx.seq(f) {
        let mut v = Fields::typed(cx, &item, schema::V1_VOLUME);
        let name = v.req(cx, "name").and_then(|n| cx.nonempty_str(&n));
        let claim = v.get("persistentVolumeClaim").and_then(|c| {
            let mut cf = Fields::typed(cx, &c, schema::V1_PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE);
            let field = cf.req(cx, "claimName");
            let name = field.as_ref().and_then(|n| cx.nonempty_str(n));
            if let (Some(name), Some(field)) = (&name, &field) {
                // The pod's namespace: the reference check fills it in.
                cx.refer("PersistentVolumeClaim", "", name, field);
            }
            cf.ignore(&["readOnly"]);
            cf.finish(cx);
            name
        });
        let ephemeral = v.get("ephemeral").and_then(|e| {
            let mut ef = Fields::typed(cx, &e, schema::V1_EPHEMERAL_VOLUME_SOURCE);
            let spec = ef.req(cx, "volumeClaimTemplate").and_then(|t| {
                let mut tf = Fields::typed(cx, &t, schema::V1_PERSISTENT_VOLUME_CLAIM_TEMPLATE);
                let spec = tf.req(cx, "spec").map(|s| claim_spec(cx, &s));
                tf.ignore(&["metadata"]);
                tf.finish(cx);
                spec
            });
            ef.finish(cx);
            spec
        });
        // The sources read above check their own fields; the rest are walked for unknown ones.
        let others: Vec<&'static str> = schema::V1_VOLUME
            .names()
            .filter(|n| !matches!(*n, "name" | "persistentVolumeClaim" | "ephemeral"))
            .collect();
        v.ignore(&others);
        v.finish(cx);
        match (name, claim, ephemeral) {
            (Some(name), Some(claim), _) => out.push(PodVolume::Claim { name, claim }),
            (Some(name), None, Some(spec)) => out.push(PodVolume::Ephemeral { name, spec }),
            _ => {}
        }
    }
    out
}

/// A StatefulSet's `volumeClaimTemplates`, as the volumes its controller gives every pod.
pub(crate) fn claim_templates(cx: &mut Cx, f: &Field<'_>) -> Vec<PodVolume> {
    let mut out = Vec::new();
    for item in cx.seq(f) {
        let mut t = Fields::typed(cx, &item, schema::V1_PERSISTENT_VOLUME_CLAIM);
        let name = t.req(cx, "metadata").and_then(|m| {
            let name = super::str_at(m.node, "name").map(str::to_string);
            if name.is_none() {
                cx.error(
                    Code::MissingField,
                    &crate::reader::join(&m.path, "name"),
                    m.pos(),
                    "missing required field `name`",
                    Some("name the template: the claims are NAME-STATEFULSET-ORDINAL".into()),
                );
                cx.ko(
                    "필수 필드 `name`이 없습니다",
                    Some(
                        "템플릿에 이름을 주세요. 클레임 이름은 NAME-STATEFULSET-ORDINAL입니다"
                            .into(),
                    ),
                );
            }
            name
        });
        let spec = t.req(cx, "spec").map(|s| claim_spec(cx, &s));
        t.ignore(&["apiVersion", "kind", "status"]);
        t.finish(cx);
        if let (Some(name), Some(spec)) = (name, spec) {
            out.push(PodVolume::Template { name, spec });
        }
    }
    out
}

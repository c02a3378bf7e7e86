//! `eks.amazonaws.com/v1` `NodeClass`: EKS Auto Mode's node class, as the EKS user guide's
//! *Create a Node Class for Amazon EKS* (`create-node-class`) specifies it.
//!
//! It shares the network selectors and capacity reservations with an EC2NodeClass (read by
//! the same functions), sets ephemeral storage instead of block devices, and has no AMI, user
//! data, kubelet or metadata settings: Auto Mode owns the image and the node. Those fields are
//! refused here with what Auto Mode does instead.

use kpg_core::automode::{self, AutoNodeClass};
use kpg_core::model::NodeClass;

use super::common::{self, Meta, NameRule};
use super::nodeclass;
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields};

/// EC2NodeClass fields a NodeClass does not have: (field, why, why in Korean, the Auto Mode
/// way, in English and Korean).
const EC2_ONLY: &[(&str, &str, &str, &str, &str)] = &[
    (
        "amiSelectorTerms",
        "EKS Auto Mode chooses and patches the node image itself",
        "EKS Auto Mode는 노드 이미지를 직접 고르고 패치합니다",
        "remove it: Auto Mode replaces nodes onto new images itself (every node within 21 days)",
        "지우세요. Auto Mode가 새 이미지로 노드를 직접 교체합니다(모든 노드는 21일 안에 교체)",
    ),
    (
        "amiFamily",
        "EKS Auto Mode runs its own Bottlerocket-based image; there is no AMI family to pick",
        "EKS Auto Mode는 자체 Bottlerocket 기반 이미지를 씁니다. 고를 AMI 계열이 없습니다",
        "remove it",
        "지우세요",
    ),
    (
        "userData",
        "EKS Auto Mode nodes run no user data",
        "EKS Auto Mode 노드는 user data를 실행하지 않습니다",
        "run node setup as a DaemonSet instead",
        "노드 설정은 DaemonSet으로 하세요",
    ),
    (
        "kubelet",
        "EKS Auto Mode configures the kubelet itself (at most 110 pods per node)",
        "EKS Auto Mode가 kubelet을 직접 설정합니다(노드당 파드 최대 110개)",
        "remove it; size nodes through the NodePool's requirements and the pods' requests",
        "지우세요. 노드 크기는 NodePool 요구 사항과 파드 요청으로 정하세요",
    ),
    (
        "blockDeviceMappings",
        "an EKS Auto Mode NodeClass has no block device mappings",
        "EKS Auto Mode NodeClass에는 블록 디바이스 매핑이 없습니다",
        "set `ephemeralStorage` (size, iops, throughput, kmsKeyID) instead",
        "대신 `ephemeralStorage`(size, iops, throughput, kmsKeyID)를 쓰세요",
    ),
    (
        "metadataOptions",
        "EKS Auto Mode configures the instance metadata service itself",
        "EKS Auto Mode가 인스턴스 메타데이터 서비스를 직접 설정합니다",
        "remove it",
        "지우세요",
    ),
    (
        "instanceStorePolicy",
        "EKS Auto Mode formats local NVMe (RAID 0 over several drives) and uses it for \
         ephemeral storage itself",
        "EKS Auto Mode가 로컬 NVMe를 직접 포맷하고(여러 개면 RAID 0) 임시 스토리지로 씁니다",
        "remove it",
        "지우세요",
    ),
    (
        "detailedMonitoring",
        "an EKS Auto Mode NodeClass has no detailed monitoring setting",
        "EKS Auto Mode NodeClass에는 세부 모니터링 설정이 없습니다",
        "remove it",
        "지우세요",
    ),
    (
        "associatePublicIPAddress",
        "an EKS Auto Mode NodeClass keeps this under `advancedNetworking`",
        "EKS Auto Mode NodeClass에서는 이 설정이 `advancedNetworking` 아래에 있습니다",
        "write `advancedNetworking: {associatePublicIPAddress: ...}`",
        "`advancedNetworking: {associatePublicIPAddress: ...}`로 쓰세요",
    ),
    (
        "context",
        "an EKS Auto Mode NodeClass has no launch context",
        "EKS Auto Mode NodeClass에는 launch context가 없습니다",
        "remove it",
        "지우세요",
    ),
    (
        "placementGroupSelector",
        "an EKS Auto Mode NodeClass has no placement groups",
        "EKS Auto Mode NodeClass에는 배치 그룹이 없습니다",
        "remove it",
        "지우세요",
    ),
];

pub(crate) fn node_class(cx: &mut Cx, root: &Field<'_>) -> (Meta, NodeClass) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    if meta.name == automode::DEFAULT_CLASS {
        cx.error(
            Code::AutoModeDefaultNodeClass,
            "metadata.name",
            meta.name_pos,
            "a custom NodeClass may not be named `default`: EKS Auto Mode owns the built-in \
             NodeClass of that name",
            Some(
                "give it another name, and point the NodePool's nodeClassRef at it; to use the \
                 built-in one, reference `default` without defining it"
                    .into(),
            ),
        );
        cx.ko(
            "사용자 NodeClass의 이름은 `default`일 수 없습니다. 그 이름의 내장 NodeClass는 EKS \
             Auto Mode의 것입니다",
            Some(
                "다른 이름을 붙이고 NodePool의 nodeClassRef가 그것을 가리키게 하세요. 내장 \
                 NodeClass를 쓰려면 정의하지 말고 `default`를 가리키세요"
                    .into(),
            ),
        );
    }
    let mut auto = AutoNodeClass::default();
    let subnet_zones = nodeclass::resolved_subnet_zones(root.node);
    let mut reservations = Vec::new();
    if let Some(sf) = r.get("spec") {
        let mut s = Fields::of(cx, &sf);
        for key in ["role", "instanceProfile"] {
            if let Some(v) = s.get(key) {
                cx.nonempty_str(&v);
            }
        }
        if s.has("role") && s.has("instanceProfile") {
            let pos = s.key_pos("instanceProfile").unwrap_or(s.anchor());
            cx.error(
                Code::RoleXorInstanceProfile,
                &s.child_path("instanceProfile"),
                pos,
                "set `role` or `instanceProfile`, not both",
                Some("remove one of them".into()),
            );
            cx.ko(
                "`role`과 `instanceProfile` 중 하나만 쓰세요",
                Some("둘 중 하나를 지우세요".into()),
            );
        }
        for (key, fields, exclusive, prefix) in [
            (
                "subnetSelectorTerms",
                &["tags", "id"][..],
                &["id"][..],
                "subnet-",
            ),
            (
                "securityGroupSelectorTerms",
                &["tags", "id", "name"][..],
                &["id", "name"][..],
                "sg-",
            ),
            (
                "podSubnetSelectorTerms",
                &["tags", "id"][..],
                &["id"][..],
                "subnet-",
            ),
            (
                "podSecurityGroupSelectorTerms",
                &["tags", "id"][..],
                &["id"][..],
                "sg-",
            ),
        ] {
            if let Some(t) = s.get(key) {
                nodeclass::selector_terms(cx, &t, fields, exclusive, prefix);
            }
        }
        if let Some(e) = s.get("ephemeralStorage") {
            ephemeral_storage(cx, &e, &mut auto);
        }
        if let Some(v) = s
            .get("snatPolicy")
            .and_then(|f| cx.choice(&f, &["Random", "Disabled"], "SNAT policy"))
        {
            auto.snat_policy = v.into();
        }
        if let Some(v) = s
            .get("networkPolicy")
            .and_then(|f| cx.choice(&f, &["DefaultAllow", "DefaultDeny"], "network policy"))
        {
            auto.network_policy = v.into();
        }
        if let Some(v) = s
            .get("networkPolicyEventLogs")
            .and_then(|f| cx.choice(&f, &["Disabled", "Enabled"], "network policy event logs"))
        {
            auto.network_policy_event_logs = v.into();
        }
        if let Some(c) = s.get("capacityReservationSelectorTerms") {
            reservations = nodeclass::capacity_reservation_terms(cx, &c);
        }
        if let Some(t) = s.get("tags") {
            nodeclass::tags(cx, &t);
            for (key, pos, _) in cx.entries(&t) {
                if key == automode::NODECLASS_LABEL {
                    cx.error(
                        Code::RestrictedTag,
                        &format!("{}[\"{key}\"]", t.path),
                        pos,
                        format!("tag `{key}` is restricted: EKS sets it on every instance"),
                        Some("remove the tag".into()),
                    );
                    cx.ko(
                        format!(
                            "태그 `{key}`는 쓸 수 없습니다: EKS가 모든 인스턴스에 직접 붙입니다"
                        ),
                        Some("태그를 지우세요".into()),
                    );
                }
            }
        }
        for &(key, why, why_ko, way, way_ko) in EC2_ONLY {
            if s.has(key) {
                let pos = s.key_pos(key).unwrap_or(s.anchor());
                cx.error(
                    Code::AutoModeEc2NodeClassField,
                    &s.child_path(key),
                    pos,
                    format!("`{key}` is an EC2NodeClass field, not a NodeClass one: {why}"),
                    Some(way.into()),
                );
                cx.ko(
                    format!("`{key}`는 EC2NodeClass의 필드이며 NodeClass에는 없습니다. {why_ko}"),
                    Some(way_ko.into()),
                );
            }
        }
        // Settings that change nothing the simulation shows (proxies, certificates, FIPS,
        // prefix sizes): accepted as written.
        s.ignore(&[
            "advancedNetworking",
            "advancedSecurity",
            "certificateBundles",
            "placementGroupSelectorTerms",
        ]);
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    let mut nc = automode::node_class(&meta.name, auto);
    nc.subnet_zones = subnet_zones;
    nc.capacity_reservation_terms = reservations;
    (meta, nc)
}

/// `ephemeralStorage`: size (the volume sizes an EC2NodeClass accepts), iops 3000–16000,
/// throughput 125–1000, kmsKeyID (`create-node-class`, the specification's ranges).
fn ephemeral_storage(cx: &mut Cx, f: &Field<'_>, auto: &mut AutoNodeClass) {
    let mut e = Fields::of(cx, f);
    if let Some(size) = e.get("size").and_then(|s| nodeclass::volume_size(cx, &s)) {
        auto.ephemeral_bytes = size;
    }
    if let Some(v) = e.get("iops").and_then(|i| cx.int(&i, 3000, 16000)) {
        auto.iops = v;
    }
    if let Some(v) = e.get("throughput").and_then(|t| cx.int(&t, 125, 1000)) {
        auto.throughput = v;
    }
    if let Some(k) = e.get("kmsKeyID") {
        auto.kms_key_id = cx.nonempty_str(&k);
    }
    e.finish(cx);
}

//! `karpenter.k8s.aws/v1` EC2NodeClass (and `v1beta1`), reduced to what shapes a node: the
//! AMI family, the kubelet settings and the root volume. The AWS selectors are validated as
//! the CRD does, but they select nothing here: the simulated account has what they ask for.

use std::collections::BTreeMap;

use kpg_core::model::{AmiFamily, KubeletConfig, NodeClass};
use kpg_core::reservation::{MatchCriteria, ReservationTerm};
use kpg_core::resources::ResourceName;

use super::common::{self, Meta, NameRule};
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields, truncate};
use crate::yaml::Value;

const V1_FAMILIES: &[&str] = &[
    "AL2",
    "AL2023",
    "Bottlerocket",
    "Custom",
    "Windows2019",
    "Windows2022",
    "Windows2025",
];
const V1BETA1_FAMILIES: &[&str] = &[
    "AL2",
    "AL2023",
    "Bottlerocket",
    "Ubuntu",
    "Custom",
    "Windows2019",
    "Windows2022",
];
pub(crate) const ALIAS_FAMILIES: &[&str] = &[
    "al2",
    "al2023",
    "bottlerocket",
    "windows2019",
    "windows2022",
    "windows2025",
];

fn family(name: &str) -> Option<AmiFamily> {
    Some(match name.to_ascii_lowercase().as_str() {
        "al2" => AmiFamily::Al2,
        "al2023" => AmiFamily::Al2023,
        "bottlerocket" => AmiFamily::Bottlerocket,
        "windows2019" => AmiFamily::Windows2019,
        "windows2022" => AmiFamily::Windows2022,
        "windows2025" => AmiFamily::Windows2025,
        "custom" => AmiFamily::Custom,
        _ => return None,
    })
}

/// The device whose volume backs ephemeral storage, per family.
fn root_device(family: AmiFamily) -> Option<&'static str> {
    match family {
        AmiFamily::Al2 | AmiFamily::Al2023 => Some("/dev/xvda"),
        AmiFamily::Bottlerocket => Some("/dev/xvdb"),
        AmiFamily::Windows2019 | AmiFamily::Windows2022 | AmiFamily::Windows2025 => {
            Some("/dev/sda1")
        }
        AmiFamily::Custom => None,
    }
}

/// The zones of the subnets Karpenter resolved (`status.subnets[].zone`), as a snapshot of
/// a live cluster has them: its nodes launch only there. Empty without a status (a
/// manifest as written), where the Cluster's zones say where subnets are.
pub(crate) fn resolved_subnet_zones(root: &crate::yaml::Node) -> Vec<String> {
    let subnets = super::map_at(root, "status").and_then(|s| super::map_at(s, "subnets"));
    let mut zones: Vec<String> = match subnets.map(|s| &s.value) {
        Some(crate::yaml::Value::Seq(items)) => items
            .iter()
            .filter_map(|i| super::str_at(i, "zone"))
            .map(String::from)
            .collect(),
        _ => Vec::new(),
    };
    zones.sort();
    zones.dedup();
    zones
}

pub(crate) fn node_class(cx: &mut Cx, root: &Field<'_>, v1beta1: bool) -> (Meta, NodeClass) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let mut nc = NodeClass {
        name: meta.name.clone(),
        ami_family: AmiFamily::Al2023,
        ami_alias: None,
        kubelet: KubeletConfig::default(),
        root_volume_bytes: None,
        instance_store_raid0: false,
        subnet_zones: resolved_subnet_zones(root.node),
        capacity_reservation_terms: Vec::new(),
        auto_mode: None,
    };
    let Some(sf) = r.req(cx, "spec") else {
        r.ignore(&["apiVersion", "kind", "status"]);
        r.finish(cx);
        return (meta, nc);
    };
    let mut s = Fields::of(cx, &sf);

    // AMI: an alias term (v1) or amiFamily.
    let families = if v1beta1 {
        V1BETA1_FAMILIES
    } else {
        V1_FAMILIES
    };
    let family_field = s.get("amiFamily");
    let declared = family_field
        .as_ref()
        .and_then(|f| cx.choice(f, families, "AMI family"));
    let terms_field = if v1beta1 {
        s.get("amiSelectorTerms")
    } else {
        s.req_help(
            cx,
            "amiSelectorTerms",
            "add `amiSelectorTerms: [{alias: al2023@latest}]`",
        )
    };
    let alias = terms_field.as_ref().and_then(|t| ami_terms(cx, t, v1beta1));
    if let Some((alias_text, _)) = &alias {
        nc.ami_alias = Some(alias_text.clone());
    }
    let alias_family = alias.as_ref().map(|(_, f)| *f);
    match (declared, alias_family) {
        (Some(d), Some(a)) => {
            let d_family = family(d);
            if d_family != Some(a)
                && d != "Custom"
                && let Some(f) = &family_field
            {
                cx.error(
                    Code::AmiFamilyMismatch,
                    &f.path,
                    f.pos(),
                    format!("amiFamily {d} does not match the alias family"),
                    Some("remove amiFamily (the alias sets it) or use Custom".into()),
                );
                cx.ko(
                    format!("amiFamily {d}가 alias의 계열과 다릅니다"),
                    Some("amiFamily를 지우거나(alias가 정합니다) Custom을 쓰세요".into()),
                );
            }
            nc.ami_family = d_family.unwrap_or(a);
        }
        (Some(d), None) => {
            nc.ami_family = match d {
                "Ubuntu" => {
                    if let Some(f) = &family_field {
                        cx.warn(
                            Code::V1beta1AmiFamily,
                            &f.path,
                            f.pos(),
                            "the Ubuntu family was removed in v1; it is simulated as AL2",
                            Some("use `amiSelectorTerms: [{alias: al2023@latest}]`".into()),
                        );
                        cx.ko(
                            "Ubuntu 계열은 v1에서 없어졌습니다. AL2로 시뮬레이션합니다",
                            Some("`amiSelectorTerms: [{alias: al2023@latest}]`를 쓰세요".into()),
                        );
                    }
                    AmiFamily::Al2
                }
                other => family(other).unwrap_or(AmiFamily::Custom),
            };
            // Without selector terms, v1beta1 ran the family's latest EKS-optimized AMI: what
            // a v1 `@latest` alias resolves to (and what a `releaseAmi` step moves).
            if v1beta1 && terms_field.is_none() && !matches!(d, "Custom" | "Ubuntu") {
                nc.ami_alias = Some(format!("{}@latest", d.to_ascii_lowercase()));
            }
            if v1beta1
                && d != "Ubuntu"
                && let Some(f) = &family_field
            {
                let help = match d {
                    "Custom" => "v1 needs amiSelectorTerms that select your AMIs".to_string(),
                    other => format!(
                        "in v1 write `amiSelectorTerms: [{{alias: {}@latest}}]`",
                        other.to_ascii_lowercase()
                    ),
                };
                cx.warn(
                    Code::V1beta1AmiFamily,
                    &f.path,
                    f.pos(),
                    "v1 requires amiSelectorTerms; an alias replaces amiFamily",
                    Some(help),
                );
                let help_ko = match d {
                    "Custom" => "v1에는 AMI를 고르는 amiSelectorTerms가 있어야 합니다".to_string(),
                    other => format!(
                        "v1에서는 `amiSelectorTerms: [{{alias: {}@latest}}]`로 쓰세요",
                        other.to_ascii_lowercase()
                    ),
                };
                cx.ko(
                    "v1에서는 amiSelectorTerms가 필수이며, amiFamily 대신 alias를 씁니다",
                    Some(help_ko),
                );
            }
        }
        (None, Some(a)) => nc.ami_family = a,
        (None, None) => {
            if v1beta1 {
                cx.warn(
                    Code::V1beta1AmiFamily,
                    &s.child_path("amiFamily"),
                    s.anchor(),
                    "no amiFamily: v1beta1 defaulted to AL2",
                    Some("in v1 write `amiSelectorTerms: [{alias: al2023@latest}]`".into()),
                );
                cx.ko(
                    "amiFamily가 없습니다. v1beta1의 기본값은 AL2였습니다",
                    Some("v1에서는 `amiSelectorTerms: [{alias: al2023@latest}]`로 쓰세요".into()),
                );
                nc.ami_family = AmiFamily::Al2;
                nc.ami_alias = Some("al2@latest".into());
            } else if family_field.is_none() && terms_field.is_some() && cx.error_count() == 0 {
                cx.error(
                    Code::MissingField,
                    &s.child_path("amiFamily"),
                    s.anchor(),
                    "amiFamily is required when amiSelectorTerms has no alias",
                    Some(
                        "add `amiFamily: AL2023` (or another family), or use an alias term".into(),
                    ),
                );
                cx.ko(
                    "amiSelectorTerms에 alias가 없으면 amiFamily가 필요합니다",
                    Some("`amiFamily: AL2023`(또는 다른 계열)을 추가하거나 alias를 쓰세요".into()),
                );
            }
        }
    }

    if let Some(t) = s.req_help(
        cx,
        "subnetSelectorTerms",
        "add `subnetSelectorTerms: [{tags: {karpenter.sh/discovery: my-cluster}}]`",
    ) {
        selector_terms(cx, &t, &["tags", "id"], &["id"], "subnet-")
    }
    if let Some(t) = s.req_help(
        cx,
        "securityGroupSelectorTerms",
        "add `securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: my-cluster}}]`",
    ) {
        selector_terms(cx, &t, &["tags", "id", "name"], &["id", "name"], "sg-")
    }
    let role = s.get("role").and_then(|r| cx.nonempty_str(&r));
    let profile = s.get("instanceProfile").and_then(|p| cx.nonempty_str(&p));
    match (&role, &profile) {
        (Some(_), Some(_)) => {
            let pos = s.key_pos("instanceProfile").unwrap_or(s.anchor());
            cx.error(
                Code::RoleXorInstanceProfile,
                &s.child_path("instanceProfile"),
                pos,
                "must specify exactly one of ['role', 'instanceProfile']",
                Some("remove one of them".into()),
            );
            cx.ko(
                "role과 instanceProfile 중 정확히 하나만 써야 합니다",
                Some("둘 중 하나를 지우세요".into()),
            );
        }
        (None, None) if !s.has("role") && !s.has("instanceProfile") => {
            cx.error(
                Code::RoleXorInstanceProfile,
                &s.child_path("role"),
                s.anchor(),
                "must specify exactly one of ['role', 'instanceProfile']",
                Some("add `role: KarpenterNodeRole-my-cluster`".into()),
            );
            cx.ko(
                "role과 instanceProfile 중 정확히 하나가 있어야 합니다",
                Some("`role: KarpenterNodeRole-my-cluster`를 추가하세요".into()),
            );
        }
        _ => {}
    }
    if let Some(k) = s.get("kubelet") {
        nc.kubelet = kubelet(cx, &k);
    }
    if let Some(b) = s.get("blockDeviceMappings") {
        nc.root_volume_bytes = block_devices(cx, &b, nc.ami_family);
    }
    if let Some(t) = s.get("tags") {
        tags(cx, &t);
    }
    if let Some(m) = s.get("metadataOptions") {
        metadata_options(cx, &m);
    }
    if let Some(c) = s.get("capacityReservationSelectorTerms") {
        nc.capacity_reservation_terms = capacity_reservation_terms(cx, &c);
    }
    if let Some(p) = s.get("instanceStorePolicy")
        && cx.choice(&p, &["RAID0"], "instance store policy").is_some()
    {
        nc.instance_store_raid0 = true;
    }
    // Launch details the simulation has no use for, held to their types.
    for key in ["associatePublicIPAddress", "detailedMonitoring"] {
        if let Some(b) = s.get(key) {
            cx.bool(&b);
        }
    }
    for key in ["userData", "context"] {
        if let Some(t) = s.get(key) {
            cx.str(&t);
        }
    }
    s.ignore(&[
        "placementGroupSelector",
        "placementGroupSelectorTerms",
        "networkInterfaces",
        "ipPrefixCount",
        "connectionTracking",
        "cpuOptions",
    ]);
    s.finish(cx);
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, nc)
}

/// Validates `amiSelectorTerms`; returns the alias and its family when an alias term is used.
fn ami_terms(cx: &mut Cx, f: &Field<'_>, v1beta1: bool) -> Option<(String, AmiFamily)> {
    let items = cx.seq(f);
    if items.is_empty() && matches!(f.node.value, Value::Seq(_)) && !v1beta1 {
        cx.error(
            Code::NoSelectorTerms,
            &f.path,
            f.pos(),
            "at least one AMI selector term is required",
            Some("use `- alias: al2023@latest`".into()),
        );
        cx.ko(
            "AMI 선택 조건이 하나 이상 있어야 합니다",
            Some("`- alias: al2023@latest`를 쓰세요".into()),
        );
    }
    if items.len() > 30 {
        cx.error(
            Code::TooManyItems,
            &f.path,
            f.pos(),
            "at most 30 terms are allowed",
            Some("merge terms or remove some".into()),
        );
        cx.ko(
            "조건은 최대 30개까지입니다",
            Some("조건을 합치거나 일부를 지우세요".into()),
        );
    }
    let count = items.len();
    let mut alias = None;
    for item in &items {
        let mut t = Fields::of(cx, item);
        let alias_field = if v1beta1 { None } else { t.get("alias") };
        let others: Vec<&'static str> = ["tags", "id", "name", "owner", "ssmParameter"]
            .into_iter()
            .filter(|k| (!v1beta1 || *k != "ssmParameter") && t.get(k).is_some())
            .collect();
        if let Some(tags) = t.get("tags") {
            selector_tags(cx, &tags);
        }
        if let Some(id) = t.get("id") {
            if let Some(v) = cx.str(&id)
                && !v.strip_prefix("ami-").is_some_and(|r| {
                    !r.is_empty()
                        && r.bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                })
            {
                cx.error(
                    Code::InvalidResourceId,
                    &id.path,
                    id.pos(),
                    format!("`{}` is not an id of the form ami-...", truncate(&v, 40)),
                    Some("copy the id from the AWS console or CLI".into()),
                );
                cx.ko(
                    format!("`{}`는 ami-... 형식의 id가 아닙니다", truncate(&v, 40)),
                    Some("AWS 콘솔이나 CLI에서 id를 복사해 오세요".into()),
                );
            }
            // CEL: an id term selects exactly that AMI; alias, tags, name and owner may not join
            // it.
            if others
                .iter()
                .any(|k| matches!(*k, "tags" | "name" | "owner"))
            {
                cx.error(
                    Code::ExclusiveSelectorField,
                    &item.path,
                    item.pos(),
                    "'id' is mutually exclusive, cannot be set with a combination of other fields \
                     in amiSelectorTerms",
                    Some("put the id in a term of its own".into()),
                );
                cx.ko(
                    "'id'는 amiSelectorTerms에서 다른 필드와 함께 쓸 수 없습니다",
                    Some("id만 있는 별도 조건으로 옮기세요".into()),
                );
            }
        }
        if let Some(a) = alias_field {
            if let Some(text) = cx.nonempty_str(&a) {
                if !others.is_empty() || count > 1 {
                    cx.error(
                        Code::AliasNotAlone,
                        &a.path,
                        a.pos(),
                        "an alias must be the only AMI selector term, alone in its term",
                        Some("remove the other terms".into()),
                    );
                    cx.ko(
                        "alias는 유일한 AMI 선택 조건이어야 하며, 한 조건 안에 홀로 있어야 합니다",
                        Some("다른 조건을 지우세요".into()),
                    );
                }
                if text.chars().count() > 30 {
                    cx.error(
                        Code::TooLong,
                        &a.path,
                        a.pos(),
                        format!(
                            "alias `{}` is longer than 30 characters",
                            truncate(&text, 40)
                        ),
                        Some("use family@version, e.g. al2023@v20240625".into()),
                    );
                    cx.ko(
                        format!("alias `{}`가 30자보다 깁니다", truncate(&text, 40)),
                        Some("계열@버전으로 쓰세요. 예: al2023@v20240625".into()),
                    );
                } else {
                    match parse_alias(&text) {
                        Ok(fam) => alias = Some((text, fam)),
                        Err(why) => {
                            cx.error(
                                Code::InvalidAlias,
                                &a.path,
                                a.pos(),
                                why,
                                Some(
                                    "use family@version, e.g. al2023@latest, bottlerocket@v1.20.0"
                                        .into(),
                                ),
                            );
                            cx.ko(
                                format!(
                                    "alias `{text}`가 올바르지 않습니다(계열@버전 형식, \
                                     계열은 al2, al2023, bottlerocket, windows2019, \
                                     windows2022, windows2025)"
                                ),
                                Some("예: al2023@latest, bottlerocket@v1.20.0".into()),
                            );
                        }
                    }
                }
            }
        } else if others.is_empty() && cx.error_count() == 0 {
            cx.error(
                Code::EmptySelectorTerm,
                &item.path,
                item.pos(),
                "an AMI selector term needs alias, tags, id, name or ssmParameter",
                Some("e.g. `- alias: al2023@latest`".into()),
            );
            cx.ko(
                "AMI 선택 조건에는 alias, tags, id, name, ssmParameter 중 하나가 있어야 합니다",
                Some("예: `- alias: al2023@latest`".into()),
            );
        }
        t.finish(cx);
    }
    alias
}

fn parse_alias(text: &str) -> Result<AmiFamily, String> {
    if text.chars().count() > 30 {
        return Err(format!(
            "alias `{}` is longer than 30 characters",
            truncate(text, 40)
        ));
    }
    let Some((fam, version)) = text.split_once('@') else {
        return Err(format!("alias `{text}` has no version"));
    };
    if version.is_empty() || fam.is_empty() || !fam.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!("alias `{text}` is not family@version"));
    }
    if !ALIAS_FAMILIES.contains(&fam) {
        return Err(format!(
            "`{fam}` is not an alias family (use one of {})",
            ALIAS_FAMILIES.join(", ")
        ));
    }
    if fam.starts_with("windows") && version != "latest" {
        return Err(format!(
            "Windows aliases only support @latest, not @{version}"
        ));
    }
    family(fam).ok_or_else(|| format!("`{fam}` is not an alias family"))
}

fn selector_tags(cx: &mut Cx, f: &Field<'_>) {
    let entries = cx.entries(f);
    if entries.is_empty() && matches!(f.node.value, Value::Map(_)) {
        cx.error(
            Code::EmptyTag,
            &f.path,
            f.pos(),
            "tags must not be empty",
            Some("add a tag such as `karpenter.sh/discovery: my-cluster`, or remove `tags`".into()),
        );
        cx.ko(
            "tags가 비어 있으면 안 됩니다",
            Some(
                "`karpenter.sh/discovery: my-cluster` 같은 태그를 넣거나 `tags`를 지우세요".into(),
            ),
        );
    }
    if entries.len() > 20 {
        cx.error(
            Code::TooManyItems,
            &f.path,
            f.pos(),
            format!("{} tags; a selector term takes at most 20", entries.len()),
            Some("split the term into two terms (terms are ORed), or drop tags".into()),
        );
        cx.ko(
            format!(
                "태그가 {}개입니다. 선택 조건 하나에는 최대 20개까지입니다",
                entries.len()
            ),
            Some("조건을 둘로 나누거나(조건끼리는 OR) 태그를 줄이세요".into()),
        );
    }
    for (key, key_pos, value) in entries {
        if key.is_empty() {
            cx.error(
                Code::EmptyTag,
                &value.path,
                key_pos,
                "a tag key must not be empty",
                Some("name the tag".into()),
            );
            cx.ko(
                "태그 키가 비어 있으면 안 됩니다",
                Some("태그 키를 쓰세요".into()),
            );
        }
        if let Some(v) = cx.str(&value)
            && v.is_empty()
        {
            cx.error(
                Code::EmptyTag,
                &value.path,
                value.pos(),
                "a tag value must not be empty (use \"*\" for any value)",
                Some("use \"*\" to match any value".into()),
            );
            cx.ko(
                "태그 값이 비어 있으면 안 됩니다(아무 값이나 허용하려면 \"*\"를 쓰세요)",
                Some("아무 값이나 허용하려면 \"*\"를 쓰세요".into()),
            );
        }
    }
}

/// subnet / security group selector terms: `tags`, `id`, (`name`); ids and names exclusive.
pub(crate) fn selector_terms(
    cx: &mut Cx,
    f: &Field<'_>,
    keys: &[&'static str],
    exclusive: &[&'static str],
    id_prefix: &str,
) {
    let items = cx.seq(f);
    if items.is_empty() && matches!(f.node.value, Value::Seq(_)) {
        cx.error(
            Code::NoSelectorTerms,
            &f.path,
            f.pos(),
            "at least one selector term is required",
            Some("e.g. `- tags: {karpenter.sh/discovery: my-cluster}`".into()),
        );
        cx.ko(
            "선택 조건이 하나 이상 있어야 합니다",
            Some("예: `- tags: {karpenter.sh/discovery: my-cluster}`".into()),
        );
    }
    if items.len() > 30 {
        cx.error(
            Code::TooManyItems,
            &f.path,
            f.pos(),
            "at most 30 terms are allowed",
            Some("merge terms or remove some".into()),
        );
        cx.ko(
            "조건은 최대 30개까지입니다",
            Some("조건을 합치거나 일부를 지우세요".into()),
        );
    }
    for item in items {
        let mut t = Fields::of(cx, &item);
        let present: Vec<&'static str> = keys
            .iter()
            .copied()
            .filter(|k| t.get(k).is_some())
            .collect();
        if let Some(tags) = t.get("tags") {
            selector_tags(cx, &tags);
        }
        if let Some(id) = t.get("id")
            && let Some(v) = cx.str(&id)
            && !is_aws_id(id_prefix, &v)
        {
            cx.error(
                Code::InvalidResourceId,
                &id.path,
                id.pos(),
                format!(
                    "`{}` is not an id of the form {id_prefix}...",
                    truncate(&v, 40)
                ),
                Some("copy the id from the AWS console or CLI".into()),
            );
            cx.ko(
                format!(
                    "`{}`는 {id_prefix}... 형식의 id가 아닙니다",
                    truncate(&v, 40)
                ),
                Some("AWS 콘솔이나 CLI에서 id를 복사해 오세요".into()),
            );
        }
        if let Some(n) = t.get("name") {
            cx.nonempty_str(&n);
        }
        if present.is_empty() && t_valid(&item) {
            cx.error(
                Code::EmptySelectorTerm,
                &item.path,
                item.pos(),
                format!("a selector term needs one of {}", keys.join(", ")),
                Some("e.g. `- tags: {karpenter.sh/discovery: my-cluster}`".into()),
            );
            cx.ko(
                format!("선택 조건에는 {} 중 하나가 있어야 합니다", keys.join(", ")),
                Some("예: `- tags: {karpenter.sh/discovery: my-cluster}`".into()),
            );
        }
        for ex in exclusive {
            if present.contains(ex) && present.len() > 1 {
                cx.error(
                    Code::ExclusiveSelectorField,
                    &item.path,
                    item.pos(),
                    format!(
                        "'{ex}' is mutually exclusive, cannot be set with a \
                         combination of other fields"
                    ),
                    Some("put it in a term of its own".into()),
                );
                cx.ko(
                    format!("'{ex}'는 다른 필드와 함께 쓸 수 없습니다"),
                    Some("그 필드만 있는 별도 조건으로 옮기세요".into()),
                );
            }
        }
        t.finish(cx);
    }
}

/// An AWS resource id: the prefix (`subnet-`, `sg-`, `cr-`), then lowercase letters and
/// digits, as the CRD's patterns have it.
pub(crate) fn is_aws_id(prefix: &str, v: &str) -> bool {
    v.strip_prefix(prefix).is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    })
}

/// `capacityReservationSelectorTerms` (v1.3+): each term's fields hold to their patterns; the
/// terms select the scenario's `CapacityReservation` documents.
pub(crate) fn capacity_reservation_terms(cx: &mut Cx, f: &Field<'_>) -> Vec<ReservationTerm> {
    let mut out = Vec::new();
    for item in cx.seq(f) {
        let mut term = ReservationTerm::default();
        let mut t = Fields::of(cx, &item);
        if let Some(tags) = t.get("tags") {
            selector_tags(cx, &tags);
            term.tags = cx
                .entries(&tags)
                .into_iter()
                .filter_map(|(k, _, v)| match &v.node.value {
                    // `selector_tags` has reported any value that is not a string.
                    Value::Str(s) => Some((k, s.clone())),
                    _ => None,
                })
                .collect();
        }
        for (key, ok, form) in [
            (
                "id",
                (|v: &str| is_aws_id("cr-", v)) as fn(&str) -> bool,
                "cr-...",
            ),
            (
                "ownerID",
                |v: &str| v.len() == 12 && v.bytes().all(|b| b.is_ascii_digit()),
                "a 12-digit account id",
            ),
        ] {
            let Some(field) = t.get(key) else { continue };
            let value = cx.str(&field);
            if key == "id" {
                term.id = value.clone();
            } else {
                term.owner_id = value.clone();
            }
            if let Some(v) = value
                && !ok(&v)
            {
                cx.error(
                    Code::InvalidResourceId,
                    &field.path,
                    field.pos(),
                    format!("`{}` is not {form}", truncate(&v, 40)),
                    Some("copy it from the AWS console or CLI".into()),
                );
                cx.ko(
                    format!("`{}`는 {form} 형식이 아닙니다", truncate(&v, 40)),
                    Some("AWS 콘솔이나 CLI에서 복사해 오세요".into()),
                );
            }
        }
        if let Some(m) = t.get("instanceMatchCriteria") {
            term.match_criteria = cx
                .choice(&m, &["open", "targeted"], "instanceMatchCriteria")
                .map(|c| match c {
                    "targeted" => MatchCriteria::Targeted,
                    _ => MatchCriteria::Open,
                });
        }
        t.finish(cx);
        out.push(term);
    }
    out
}

fn t_valid(f: &Field<'_>) -> bool {
    matches!(f.node.value, Value::Map(_) | Value::Null)
}

const RESERVED_KEYS: &[&str] = &["cpu", "memory", "ephemeral-storage", "pid"];
const EVICTION_SIGNALS: &[&str] = &[
    "memory.available",
    "nodefs.available",
    "nodefs.inodesFree",
    "imagefs.available",
    "imagefs.inodesFree",
    "pid.available",
];

pub(crate) fn kubelet(cx: &mut Cx, f: &Field<'_>) -> KubeletConfig {
    let mut k = Fields::of(cx, f);
    let mut out = KubeletConfig {
        max_pods: k
            .get("maxPods")
            .and_then(|m| cx.int(&m, 0, i64::from(i32::MAX))),
        pods_per_core: k
            .get("podsPerCore")
            .and_then(|m| cx.int(&m, 0, i64::from(i32::MAX))),
        ..KubeletConfig::default()
    };
    if let Some(r) = k.get("kubeReserved") {
        out.kube_reserved = reserved(cx, &r);
    }
    if let Some(r) = k.get("systemReserved") {
        out.system_reserved = reserved(cx, &r);
    }
    if let Some(e) = k.get("evictionHard") {
        out.eviction_hard = eviction(cx, &e);
    }
    let soft_field = k.get("evictionSoft");
    let soft: Vec<String> = soft_field
        .as_ref()
        .map(|e| eviction(cx, e).into_keys().collect())
        .unwrap_or_default();
    let grace_field = k.get("evictionSoftGracePeriod");
    let mut grace: Vec<String> = Vec::new();
    if let Some(g) = &grace_field {
        for (key, key_pos, value) in cx.entries(g) {
            grace.push(key.clone());
            if !EVICTION_SIGNALS.contains(&key.as_str()) {
                cx.error(
                    Code::InvalidEvictionSignal,
                    &value.path,
                    key_pos,
                    format!("`{key}` is not an eviction signal"),
                    Some(format!("use one of {}", EVICTION_SIGNALS.join(", "))),
                );
                cx.ko(
                    format!("`{key}`는 eviction 신호가 아닙니다"),
                    Some(format!(
                        "다음 중 하나를 쓰세요: {}",
                        EVICTION_SIGNALS.join(", ")
                    )),
                );
            }
            cx.duration(&value, false);
        }
    }
    // CEL: every soft threshold has a grace period, and every grace period a threshold.
    if let Some(sf) = &soft_field {
        for key in soft.iter().filter(|k| !grace.contains(k)) {
            cx.error(
                Code::EvictionSoftPairing,
                &format!("{}[\"{key}\"]", sf.path),
                sf.pos(),
                format!("evictionSoft `{key}` has no matching evictionSoftGracePeriod"),
                Some(format!("add `evictionSoftGracePeriod: {{{key}: 1m30s}}`")),
            );
            cx.ko(
                format!("evictionSoft `{key}`에 맞는 evictionSoftGracePeriod가 없습니다"),
                None,
            );
        }
    }
    if let Some(gf) = &grace_field {
        for key in grace
            .iter()
            .filter(|k| EVICTION_SIGNALS.contains(&k.as_str()) && !soft.contains(k))
        {
            cx.error(
                Code::EvictionSoftPairing,
                &format!("{}[\"{key}\"]", gf.path),
                gf.pos(),
                format!("evictionSoftGracePeriod `{key}` has no matching evictionSoft"),
                Some(format!(
                    "add `evictionSoft: {{{key}: 500Mi}}`, or remove the grace period"
                )),
            );
            cx.ko(
                format!("evictionSoftGracePeriod `{key}`에 맞는 evictionSoft가 없습니다"),
                None,
            );
        }
    }
    let high = k
        .get("imageGCHighThresholdPercent")
        .and_then(|v| cx.int(&v, 0, 100));
    let low_field = k.get("imageGCLowThresholdPercent");
    let low = low_field.as_ref().and_then(|v| cx.int(v, 0, 100));
    if let (Some(h), Some(l), Some(lf)) = (high, low, &low_field)
        && l >= h
    {
        cx.error(
            Code::ImageGcThresholds,
            &lf.path,
            lf.pos(),
            "imageGCLowThresholdPercent must be less than imageGCHighThresholdPercent",
            Some("e.g. imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80".into()),
        );
        cx.ko(
            "imageGCLowThresholdPercent는 imageGCHighThresholdPercent보다 작아야 합니다",
            Some("예: imageGCHighThresholdPercent: 85, imageGCLowThresholdPercent: 80".into()),
        );
    }
    if let Some(c) = k.get("cpuCFSQuota") {
        cx.bool(&c);
    }
    if let Some(m) = k.get("evictionMaxPodGracePeriod") {
        cx.int(&m, 0, i64::from(i32::MAX));
    }
    k.unsupported(
        cx,
        &["evictionSoft"],
        ": only evictionHard is subtracted from allocatable",
    );
    if let Some(d) = k.get("clusterDNS") {
        // A list of strings; kubelet reads them as addresses, the CRD checks nothing more.
        cx.string_list(&d);
    }
    k.finish(cx);
    out
}

fn reserved(cx: &mut Cx, f: &Field<'_>) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for (key, key_pos, value) in cx.entries(f) {
        if !RESERVED_KEYS.contains(&key.as_str()) {
            let help = match crate::reader::suggest(&key, RESERVED_KEYS.iter().copied()) {
                Some(g) => format!("did you mean `{g}`?"),
                None => format!("use {}", RESERVED_KEYS.join(", ")),
            };
            cx.error(
                Code::InvalidReservedResource,
                &value.path,
                key_pos,
                format!("`{key}` cannot be reserved"),
                Some(help),
            );
            cx.ko(format!("`{key}`는 예약할 수 있는 리소스가 아닙니다"), None);
            continue;
        }
        if let Some(v) = cx.quantity(&value, ResourceName::parse(&key)) {
            out.insert(key, v);
        }
    }
    out
}

fn eviction(cx: &mut Cx, f: &Field<'_>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (key, key_pos, value) in cx.entries(f) {
        if !EVICTION_SIGNALS.contains(&key.as_str()) {
            let help = match crate::reader::suggest(&key, EVICTION_SIGNALS.iter().copied()) {
                Some(g) => format!("did you mean `{g}`?"),
                None => format!("use one of {}", EVICTION_SIGNALS.join(", ")),
            };
            cx.error(
                Code::InvalidEvictionSignal,
                &value.path,
                key_pos,
                format!("`{key}` is not an eviction signal"),
                Some(help),
            );
            cx.ko(format!("`{key}`는 eviction 신호가 아닙니다"), None);
            continue;
        }
        let Some(text) = cx.str(&value) else { continue };
        let ok = match text.strip_suffix('%') {
            Some(p) => p
                .trim()
                .parse::<f64>()
                .is_ok_and(|v| (0.0..=100.0).contains(&v)),
            None => crate::ext::quantity(ResourceName::Memory, &text).is_ok_and(|v| v >= 0),
        };
        if !ok {
            cx.error(
                Code::InvalidEvictionThreshold,
                &value.path,
                value.pos(),
                format!(
                    "`{}` is neither a quantity nor a percentage",
                    truncate(&text, 40)
                ),
                Some("e.g. \"100Mi\" or \"10%\"".into()),
            );
            cx.ko(
                format!("`{}`는 수량도 백분율도 아닙니다", truncate(&text, 40)),
                Some("예: \"100Mi\" 또는 \"10%\"".into()),
            );
            continue;
        }
        out.insert(key, text);
    }
    out
}

/// Validates `blockDeviceMappings` and returns the size of the volume that backs ephemeral
/// storage: the one marked `rootVolume`, else the family's root device (for Custom, the last
/// mapping with a size).
fn block_devices(cx: &mut Cx, f: &Field<'_>, family: AmiFamily) -> Option<i64> {
    let items = cx.seq(f);
    if items.len() > 50 {
        cx.error(
            Code::TooManyItems,
            &f.path,
            f.pos(),
            "at most 50 block device mappings are allowed",
            Some("remove some mappings".into()),
        );
        cx.ko(
            "블록 디바이스 매핑은 최대 50개까지입니다",
            Some("매핑 일부를 지우세요".into()),
        );
    }
    let mut marked = None;
    let mut by_device = Vec::new();
    let mut roots = 0;
    for item in items {
        let mut b = Fields::of(cx, &item);
        let device = b.get("deviceName").and_then(|d| cx.nonempty_str(&d));
        let root_field = b.get("rootVolume");
        let root = root_field
            .as_ref()
            .and_then(|r| cx.bool(r))
            .unwrap_or(false);
        let mut size = None;
        if let Some(e) = b.get("ebs") {
            let mut ebs = Fields::of(cx, &e);
            if let Some(v) = ebs.get("volumeSize") {
                size = volume_size(cx, &v);
            }
            let has_snapshot = ebs.get("snapshotID").and_then(|s| cx.str(&s)).is_some();
            if let Some(rate) = ebs.get("volumeInitializationRate") {
                // MiB/s while a volume restored from a snapshot is hydrated: 100 to 300, and
                // only with a snapshot to restore.
                if cx.int(&rate, 100, 300).is_some() && !has_snapshot {
                    cx.error(
                        Code::InitializationRateNeedsSnapshot,
                        &rate.path,
                        rate.pos(),
                        "volumeInitializationRate needs a snapshotID to initialize from",
                        Some(
                            "add `snapshotID: snap-...`, or remove volumeInitializationRate".into(),
                        ),
                    );
                    cx.ko(
                        "volumeInitializationRate에는 초기화할 snapshotID가 있어야 합니다",
                        Some(
                            "`snapshotID: snap-...`를 추가하거나 \
                             volumeInitializationRate를 지우세요"
                                .into(),
                        ),
                    );
                }
            }
            if size.is_none() && !has_snapshot && cx.error_count() == 0 {
                cx.error(
                    Code::EbsNeedsSizeOrSnapshot,
                    &e.path,
                    e.pos(),
                    "an ebs block needs volumeSize or snapshotID",
                    Some("add `volumeSize: 20Gi`".into()),
                );
                cx.ko(
                    "ebs 블록에는 volumeSize나 snapshotID가 있어야 합니다",
                    Some("`volumeSize: 20Gi`를 추가하세요".into()),
                );
            }
            if let Some(t) = ebs.get("volumeType") {
                cx.choice(
                    &t,
                    &["standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"],
                    "volume type",
                );
            }
            for key in ["iops", "throughput"] {
                if let Some(v) = ebs.get(key) {
                    cx.int(&v, 0, i64::MAX);
                }
            }
            for key in ["encrypted", "deleteOnTermination"] {
                if let Some(v) = ebs.get(key) {
                    cx.bool(&v);
                }
            }
            ebs.ignore(&["kmsKeyID"]);
            ebs.finish(cx);
        }
        b.finish(cx);
        if root {
            roots += 1;
            if roots > 1
                && let Some(r) = &root_field
            {
                cx.error(
                    Code::MultipleRootVolumes,
                    &r.path,
                    r.pos(),
                    "at most one block device mapping can be the root volume",
                    Some("set `rootVolume: true` on one mapping only".into()),
                );
                cx.ko(
                    "루트 볼륨은 블록 디바이스 매핑 하나만 될 수 있습니다",
                    Some("`rootVolume: true`는 매핑 하나에만 두세요".into()),
                );
            }
            marked = marked.or(Some(size));
        }
        by_device.push((device, size));
    }
    if let Some(size) = marked {
        return size;
    }
    match root_device(family) {
        Some(dev) => by_device
            .iter()
            .find(|(d, _)| d.as_deref() == Some(dev))
            .and_then(|(_, s)| *s),
        None => by_device.iter().rev().find_map(|(_, s)| *s),
    }
}

/// `volumeSize`: whole Gi, G, Ti or T (the CRD's pattern), in bytes.
pub(crate) fn volume_size(cx: &mut Cx, f: &Field<'_>) -> Option<i64> {
    let Value::Str(s) = &f.node.value else {
        cx.error(
            Code::InvalidType,
            &f.path,
            f.pos(),
            format!(
                "expected a size such as \"20Gi\", found {}",
                f.node.type_name()
            ),
            Some("add a unit: Gi, G, Ti or T".into()),
        );
        cx.ko(
            format!("\"20Gi\" 같은 크기여야 하는데 {}입니다", f.node.type_name()),
            Some("단위를 붙이세요: Gi, G, Ti, T".into()),
        );
        return None;
    };
    let digits = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let unit = s.get(digits.len()..).unwrap_or("");
    let whole = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0');
    if !whole || !matches!(unit, "Gi" | "G" | "Ti" | "T") {
        cx.error(
            Code::InvalidVolumeSize,
            &f.path,
            f.pos(),
            format!("`{}` is not a volume size", truncate(s, 40)),
            Some("use whole Gi, G, Ti or T, e.g. 50Gi".into()),
        );
        cx.ko(
            format!("`{}`는 볼륨 크기가 아닙니다", truncate(s, 40)),
            Some("Gi, G, Ti, T 단위의 정수를 쓰세요. 예: 50Gi".into()),
        );
        return None;
    }
    if !volume_size_in_pattern(digits, unit) {
        cx.error(
            Code::InvalidVolumeSize,
            &f.path,
            f.pos(),
            format!(
                "`{s}` is outside the sizes the CRD's pattern accepts (1-59000Gi, 1-64000G, 1-64T, \
                 and 1-17, 20-27, 30-37, 40-47, 50-58Ti)"
            ),
            Some("write the size in Gi, e.g. 18432Gi for 18Ti".into()),
        );
        cx.ko(
            format!(
                "`{s}`는 CRD 패턴이 받아들이는 크기(1-59000Gi, 1-64000G, 1-64T, Ti는 1-17, 20-27, \
                 30-37, 40-47, 50-58)를 벗어납니다"
            ),
            Some("Gi로 쓰세요. 예: 18Ti는 18432Gi".into()),
        );
        return None;
    }
    cx.quantity(f, ResourceName::EphemeralStorage)
}

/// The numbers the CRD's volumeSize pattern accepts for each unit, as written upstream:
/// `([1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi`, `(...|64000)G`,
/// `([1-9]||[1-5][0-7]|58)Ti` (which leaves out 18, 19, 28, 29, ...) and
/// `([1-9]||[1-5][0-9]|6[0-3]|64)T`.
fn volume_size_in_pattern(digits: &str, unit: &str) -> bool {
    let Ok(n) = digits.parse::<u32>() else {
        return false;
    };
    match unit {
        "Gi" => (1..=59000).contains(&n),
        "G" => (1..=64000).contains(&n),
        "Ti" => (1..=9).contains(&n) || (10..=57).contains(&n) && n % 10 <= 7 || n == 58,
        "T" => (1..=64).contains(&n),
        _ => false,
    }
}

/// `spec.tags`: keys Karpenter sets on every instance itself may not be given (CRD CEL).
pub(crate) fn tags(cx: &mut Cx, f: &Field<'_>) {
    for (key, pos, value) in cx.entries(f) {
        let path = format!("{}[\"{key}\"]", f.path);
        let forbidden = key.is_empty()
            || key == "eks:eks-cluster-name"
            || key.starts_with("kubernetes.io/cluster")
            || matches!(
                key.as_str(),
                "karpenter.sh/nodepool"
                    | "karpenter.sh/nodeclaim"
                    | "karpenter.k8s.aws/ec2nodeclass"
            );
        if forbidden {
            let why = if key.is_empty() {
                "empty tag keys are not allowed".to_string()
            } else {
                format!("tag `{key}` is restricted: Karpenter sets it on every instance")
            };
            cx.error(
                Code::RestrictedTag,
                &path,
                pos,
                why,
                Some("remove the tag".into()),
            );
            cx.ko(
                format!("태그 `{key}`는 쓸 수 없습니다: Karpenter가 모든 인스턴스에 직접 붙입니다"),
                Some("태그를 지우세요".into()),
            );
        } else {
            cx.str(&value);
        }
    }
}

/// `spec.metadataOptions`: the instance metadata service settings.
fn metadata_options(cx: &mut Cx, f: &Field<'_>) {
    let mut m = Fields::of(cx, f);
    if let Some(v) = m.get("httpEndpoint") {
        cx.choice(&v, &["enabled", "disabled"], "httpEndpoint");
    }
    if let Some(v) = m.get("httpProtocolIPv6") {
        cx.choice(&v, &["enabled", "disabled"], "httpProtocolIPv6");
    }
    if let Some(v) = m.get("httpTokens") {
        cx.choice(&v, &["required", "optional"], "httpTokens");
    }
    if let Some(v) = m.get("httpPutResponseHopLimit") {
        cx.int(&v, 1, 64);
    }
    m.finish(cx);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volume_sizes_follow_the_crd_pattern_to_the_letter() {
        for ok in [
            ("1", "Gi"),
            ("59000", "Gi"),
            ("64000", "G"),
            ("17", "Ti"),
            ("58", "Ti"),
            ("64", "T"),
            ("9", "Ti"),
        ] {
            assert!(volume_size_in_pattern(ok.0, ok.1), "{ok:?}");
        }
        for bad in [
            ("59001", "Gi"),
            ("64001", "G"),
            ("18", "Ti"),
            ("59", "Ti"),
            ("65", "T"),
            ("0", "Gi"),
        ] {
            assert!(!volume_size_in_pattern(bad.0, bad.1), "{bad:?}");
        }
    }

    #[test]
    fn aliases() {
        assert_eq!(parse_alias("al2023@latest"), Ok(AmiFamily::Al2023));
        assert_eq!(
            parse_alias("bottlerocket@v1.20.0"),
            Ok(AmiFamily::Bottlerocket)
        );
        assert!(parse_alias("windows2022@v2024").is_err());
        assert!(parse_alias("ubuntu@latest").is_err());
        assert!(parse_alias("al2023").is_err());
    }
}

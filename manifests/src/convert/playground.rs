//! The playground's own kinds (`playground.karpenter.dev/v1alpha1`): `Cluster`,
//! `InstanceType` and `Timeline`.

use std::collections::BTreeSet;

use kpg_core::automode::{self, BuiltinPools, Mode};
use kpg_core::catalog::{CapacityType, InstanceTypeSpec, MicroDollars, OfferingSpec};
use kpg_core::karpenter::{
    Behaviour, Gate, Karpenter, MinValuesPolicy, PreferencePolicy, Version, VersionError,
};
use kpg_core::model::{
    AppliedObject, Cluster, NodeGroup, TimelineAction, TimelineStep, WorkloadKind,
};
use kpg_core::resources::{ResourceName, Resources};

use super::common::{self, ListSite, Meta, NameRule};
use super::{Object, Site, kind_info, workload_kind};
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields, Need, truncate};
use crate::yaml::{Pos, Value};

/// More fixed nodes than this cannot be simulated interactively.
pub(crate) const MAX_FIXED_NODES: i64 = 5_000;
/// Replicas above this in one place are refused outright (the scenario-wide cap is checked
/// when documents are assembled).
pub(crate) const MAX_PODS: i64 = 50_000;

const CAPACITY_TYPES: &[&str] = &["on-demand", "spot", "reserved"];

pub(crate) fn cluster(cx: &mut Cx, root: &Field<'_>) -> (Meta, Cluster) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Free);
    let mut out = Cluster {
        name: meta.name.clone(),
        ..Cluster::default()
    };
    if let Some(sf) = r.get("spec") {
        let mut s = Fields::of(cx, &sf);
        if let Some(rf) = s.get("region")
            && let Some(region) = cx.nonempty_str(&rf)
        {
            cx.refer("Region", "", &region, &rf);
            out.region = region;
        }
        if let Some(z) = s.get("zones") {
            out.zones = zones(cx, &z);
            refer_zones(cx, &z, &out.region, &out.zones);
        }
        if let Some(seed) = s.get("seed").and_then(|f| cx.int(&f, 0, i64::MAX)) {
            out.seed = seed as u64;
        }
        if let Some(k) = s.get("karpenter") {
            out.karpenter = karpenter(cx, &k);
        }
        if let Some(groups) = s.get("nodeGroups") {
            let mut total: i64 = 0;
            let mut names = BTreeSet::new();
            for item in cx.seq(&groups) {
                let mut g = Fields::of(cx, &item);
                let name_field = g.req(cx, "name");
                let name = name_field
                    .as_ref()
                    .and_then(|n| cx.nonempty_str(n))
                    .unwrap_or_default();
                if let Some(n) = &name_field
                    && !name.is_empty()
                    && !names.insert(name.clone())
                {
                    cx.error(
                        Code::DuplicateObject,
                        &n.path,
                        n.pos(),
                        format!("node group `{name}` is defined twice"),
                        Some("give each node group its own name".into()),
                    );
                    cx.ko(
                        format!("노드 그룹 `{name}`가 두 번 정의되었습니다"),
                        Some("노드 그룹마다 다른 이름을 붙이세요".into()),
                    );
                }
                let instance_type = match g.req(cx, "instanceType") {
                    Some(t) => {
                        let v = cx.nonempty_str(&t).unwrap_or_default();
                        if !v.is_empty() {
                            cx.refer("InstanceType", "", &v, &t);
                        }
                        v
                    }
                    None => String::new(),
                };
                let count_field = g.get("count");
                let count = count_field
                    .as_ref()
                    .and_then(|c| cx.int(c, 0, i64::from(u32::MAX)))
                    .unwrap_or(1);
                total = total.saturating_add(count);
                if total > MAX_FIXED_NODES {
                    let pos = count_field.as_ref().map(|c| c.pos()).unwrap_or(item.pos());
                    cx.error(
                        Code::TooLarge,
                        &item.path,
                        pos,
                        format!(
                            "the node groups add up to {total} nodes; the playground simulates at \
                             most {MAX_FIXED_NODES} fixed nodes"
                        ),
                        Some("lower `count`; a few nodes show the same behaviour".into()),
                    );
                    cx.ko(
                        format!(
                            "노드 그룹을 합치면 노드가 {total}대입니다. 플레이그라운드는 고정 \
                             노드를 최대 {MAX_FIXED_NODES}대까지 시뮬레이션합니다"
                        ),
                        Some(
                            "`count`를 줄이세요. 노드 몇 대로도 같은 동작을 볼 수 있습니다".into(),
                        ),
                    );
                    total = i64::MIN / 2; // report once
                }
                let group_zones = match g.get("zones") {
                    Some(z) => {
                        let list = zones(cx, &z);
                        if out.zones.is_empty() {
                            refer_zones(cx, &z, &out.region, &list);
                        }
                        list
                    }
                    None => Vec::new(),
                };
                if !out.zones.is_empty()
                    && let Some(zf) = g.get("zones")
                {
                    for z in &group_zones {
                        if !out.zones.contains(z) {
                            cx.warn(
                                Code::UnknownReference,
                                &zf.path,
                                zf.pos(),
                                format!("zone `{z}` is not one of the cluster's zones"),
                                Some(
                                    "add the zone to the Cluster's `zones`, or use one of them"
                                        .into(),
                                ),
                            );
                            cx.ko(
                                format!("가용 영역 `{z}`는 클러스터의 가용 영역이 아닙니다"),
                                Some(
                                    "Cluster의 `zones`에 이 가용 영역을 넣거나 그중 하나를 쓰세요"
                                        .into(),
                                ),
                            );
                        }
                    }
                }
                let capacity_type = g
                    .get("capacityType")
                    .and_then(|c| cx.choice(&c, CAPACITY_TYPES, "capacity type"))
                    .unwrap_or("on-demand")
                    .to_string();
                let labels = g
                    .get("labels")
                    .map(|l| common::labels(cx, &l))
                    .unwrap_or_default();
                let taints = g
                    .get("taints")
                    .map(|t| common::taints(cx, &t))
                    .unwrap_or_default();
                g.finish(cx);
                out.node_groups.push(NodeGroup {
                    name,
                    instance_type,
                    count: u32::try_from(count).unwrap_or(0),
                    zones: group_zones,
                    capacity_type,
                    labels,
                    taints,
                });
            }
        }
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, out)
}

/// `spec.karpenter`: the version, the feature gates and the settings the scenario assumes.
fn karpenter(cx: &mut Cx, f: &Field<'_>) -> Karpenter {
    let mut out = Karpenter::default();
    let mut k = Fields::of(cx, f);
    if let Some(v) = k.get("version") {
        // `version: 1.10` is a YAML number; its source text keeps the minor (not 1.1).
        let text = match &v.node.value {
            Value::Str(s) => Some(s.clone()),
            Value::Int(_) | Value::Float(_) => v.node.scalar_text(),
            _ => cx.str(&v),
        };
        if let Some(text) = text {
            match Version::parse(&text) {
                Ok(version) => out.version = version,
                Err(e) => {
                    let (why, why_ko) = match e {
                        VersionError::Malformed => (
                            "is not a version; write a minor such as `v1.14`".to_string(),
                            "버전이 아닙니다. `v1.14`처럼 마이너 버전을 쓰세요".to_string(),
                        ),
                        VersionError::NotV1 => (
                            "is not a Karpenter v1 release; the playground models v1.0 to \
                             v1.15 (v0.x manifests are v1beta1: `kpg migrate` rewrites them)"
                                .to_string(),
                            "Karpenter v1 릴리스가 아닙니다. 플레이그라운드는 v1.0부터 v1.15까지 \
                             다룹니다(v0.x 매니페스트는 v1beta1이며 `kpg migrate`가 고쳐 \
                             씁니다)"
                                .to_string(),
                        ),
                        VersionError::Unmodelled => (
                            format!("is newer than the playground models ({})", Version::LATEST),
                            format!(
                                "플레이그라운드가 다루는 버전({})보다 새 버전입니다",
                                Version::LATEST
                            ),
                        ),
                    };
                    cx.error(
                        Code::KarpenterVersion,
                        &v.path,
                        v.pos(),
                        format!("`{text}` {why}"),
                        Some(format!(
                            "use a minor from {} to {}, e.g. `version: {}`",
                            Version::OLDEST,
                            Version::LATEST,
                            Version::LTS
                        )),
                    );
                    cx.ko(
                        format!("`{text}`는 {why_ko}"),
                        Some(format!(
                            "{}부터 {} 사이의 마이너 버전을 쓰세요. 예: `version: {}`",
                            Version::OLDEST,
                            Version::LATEST,
                            Version::LTS
                        )),
                    );
                }
            }
        }
    }
    if let Some(g) = k.get("featureGates") {
        for (name, pos, value) in cx.entries(&g) {
            let Some(on) = cx.bool(&value) else { continue };
            match Gate::parse(&name) {
                Some(gate) => {
                    out.gates.insert(gate, on);
                    cx.need(
                        Need::GateExists(gate),
                        format!("`{name}`"),
                        &value.path,
                        pos,
                    );
                }
                None => {
                    let names: Vec<&str> = Gate::ALL.iter().map(|g| g.name()).collect();
                    let guess = crate::reader::suggest(&name, names.iter().copied());
                    let mut message =
                        format!("`{name}` is not a feature gate the playground knows");
                    let mut message_ko =
                        format!("`{name}`는 플레이그라운드가 아는 기능 게이트가 아닙니다");
                    if let Some(guess) = guess {
                        message.push_str(&format!(" (did you mean `{guess}`?)"));
                        message_ko.push_str(&format!(" (`{guess}`를 쓰려던 것인가요?)"));
                    }
                    cx.warn(
                        Code::UnknownFeatureGate,
                        &value.path,
                        pos,
                        message,
                        Some(format!("the gates are {}", names.join(", "))),
                    );
                    cx.ko(message_ko, Some(format!("게이트: {}", names.join(", "))));
                }
            }
        }
    }
    let mode = k
        .get("mode")
        .and_then(|m| cx.choice(&m, &["self-managed", "eks-auto-mode"], "Karpenter mode"));
    let mut builtin = BuiltinPools::default();
    if let Some(a) = k.get("autoMode") {
        let mut am = Fields::of(cx, &a);
        if let Some(pools) = am.get("nodePools") {
            builtin = BuiltinPools {
                general_purpose: false,
                system: false,
            };
            for item in cx.seq(&pools) {
                match cx.choice(
                    &item,
                    &[automode::GENERAL_PURPOSE, automode::SYSTEM],
                    "built-in NodePool",
                ) {
                    Some(automode::GENERAL_PURPOSE) => builtin.general_purpose = true,
                    Some(_) => builtin.system = true,
                    None => {}
                }
            }
        }
        am.finish(cx);
    }
    // `autoMode` alone says Auto Mode too; without either, the reader infers it from the
    // NodeClasses the scenario uses (`assemble::automode`).
    out.mode = match mode {
        Some("self-managed") => Mode::SelfManaged,
        Some(_) => Mode::EksAutoMode(builtin),
        None if k.has("autoMode") => Mode::EksAutoMode(builtin),
        None => Mode::SelfManaged,
    };
    if let Some(sf) = k.get("settings") {
        let mut st = Fields::of(cx, &sf);
        if let Some(f) = st.get("minValuesPolicy") {
            cx.need(
                Need::Effect(Behaviour::MinValuesPolicySetting),
                "`minValuesPolicy`",
                &f.path,
                f.pos(),
            );
        }
        if let Some(p) = st
            .get("minValuesPolicy")
            .and_then(|f| cx.choice(&f, &["Strict", "BestEffort"], "minValues policy"))
        {
            out.settings.min_values_policy = if p == "BestEffort" {
                MinValuesPolicy::BestEffort
            } else {
                MinValuesPolicy::Strict
            };
        }
        if let Some(f) = st.get("preferencePolicy") {
            cx.need(
                Need::Effect(Behaviour::PreferencePolicySetting),
                "`preferencePolicy`",
                &f.path,
                f.pos(),
            );
        }
        if let Some(p) = st
            .get("preferencePolicy")
            .and_then(|f| cx.choice(&f, &["Respect", "Ignore"], "preference policy"))
        {
            out.settings.preference_policy = if p == "Ignore" {
                PreferencePolicy::Ignore
            } else {
                PreferencePolicy::Respect
            };
        }
        if let Some(d) = st
            .get("batchMaxDuration")
            .and_then(|f| batch_duration(cx, &f))
        {
            out.settings.batch_max_duration = d;
        }
        if let Some(d) = st
            .get("batchIdleDuration")
            .and_then(|f| batch_duration(cx, &f))
        {
            out.settings.batch_idle_duration = d;
        }
        st.finish(cx);
    }
    k.finish(cx);
    out
}

/// A batch window: a positive Go duration of at most an hour (a longer one only hides the
/// simulation's first launch).
fn batch_duration(cx: &mut Cx, f: &Field<'_>) -> Option<u64> {
    let ms = cx.duration(f, false)??;
    if ms == 0 || ms > 3_600_000 {
        cx.error(
            Code::OutOfRange,
            &f.path,
            f.pos(),
            "a batch duration must be more than 0s and at most 1h",
            Some(
                "Karpenter's defaults are `batchMaxDuration: 10s` and `batchIdleDuration: 1s`"
                    .into(),
            ),
        );
        cx.ko(
            "배치 기간은 0초보다 길고 1시간 이하여야 합니다",
            Some(
                "Karpenter 기본값은 `batchMaxDuration: 10s`, `batchIdleDuration: 1s`입니다".into(),
            ),
        );
        return None;
    }
    Some(ms)
}

/// Zones are checked against the built-in catalog once it is known whether custom instance
/// types replace it (with them, zone names are free).
fn refer_zones(cx: &mut Cx, f: &Field<'_>, region: &str, zones: &[String]) {
    let items = match &f.node.value {
        Value::Seq(items) => items,
        _ => return,
    };
    for (i, node) in items.iter().enumerate() {
        if let Value::Str(z) = &node.value
            && zones.contains(z)
        {
            let item = Field {
                node,
                path: format!("{}[{i}]", f.path),
                key_pos: node.pos,
            };
            cx.refer("Zone", region, z, &item);
        }
    }
}

fn zones(cx: &mut Cx, f: &Field<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in cx.seq(f) {
        if let Some(z) = cx.nonempty_str(&item) {
            if out.contains(&z) {
                cx.warn(
                    Code::DuplicateZone,
                    &item.path,
                    item.pos(),
                    format!("zone `{z}` is listed twice"),
                    Some("remove the second one".into()),
                );
                cx.ko(
                    format!("가용 영역 `{z}`가 두 번 나옵니다"),
                    Some("두 번째 것을 지우세요".into()),
                );
            } else {
                out.push(z);
            }
        }
    }
    out
}

pub(crate) fn instance_type(cx: &mut Cx, root: &Field<'_>) -> (Meta, InstanceTypeSpec) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Free);
    let mut out = InstanceTypeSpec {
        name: meta.name.clone(),
        capacity: Resources::ZERO,
        arch: String::from("amd64"),
        os: String::from("linux"),
        labels: Default::default(),
        overhead: None,
        offerings: Vec::new(),
    };
    if let Some(sf) = r.req(cx, "spec") {
        let mut s = Fields::of(cx, &sf);
        if let Some(v) = s
            .req_help(cx, "cpu", "add e.g. `cpu: \"4\"`")
            .and_then(|f| cx.quantity(&f, ResourceName::Cpu))
        {
            out.capacity.set(ResourceName::Cpu, v);
        }
        if let Some(v) = s
            .req_help(cx, "memory", "add e.g. `memory: 16Gi`")
            .and_then(|f| cx.quantity(&f, ResourceName::Memory))
        {
            out.capacity.set(ResourceName::Memory, v);
        }
        // Left out, it comes from the node class's volumes, as for a catalog type.
        if let Some(v) = s
            .get("ephemeralStorage")
            .and_then(|f| cx.quantity(&f, ResourceName::EphemeralStorage))
        {
            out.capacity.set(ResourceName::EphemeralStorage, v);
        }
        // kubelet's default maxPods when the document does not say.
        let pods = s
            .get("pods")
            .and_then(|f| cx.quantity(&f, ResourceName::Pods))
            .unwrap_or(110);
        out.capacity.set(ResourceName::Pods, pods);
        if let Some(a) = s
            .get("arch")
            .and_then(|f| cx.choice(&f, &["amd64", "arm64"], "architecture"))
        {
            out.arch = a.to_string();
        }
        if let Some(o) = s
            .get("os")
            .and_then(|f| cx.choice(&f, &["linux", "windows"], "operating system"))
        {
            out.os = o.to_string();
        }
        if let Some(l) = s.get("labels") {
            out.labels = common::labels(cx, &l);
        }
        if let Some(o) = s.get("overhead") {
            let list = common::resource_list(cx, &o, ListSite::Node);
            out.overhead = Some(common::to_resources(&list));
        }
        if let Some(of) = s.get("offerings") {
            for item in cx.seq(&of) {
                if let Some(o) = offering(cx, &item) {
                    if out.offerings.iter().any(|x: &OfferingSpec| {
                        x.zone == o.zone && x.capacity_type == o.capacity_type
                    }) {
                        cx.error(
                            Code::DuplicateObject,
                            &item.path,
                            item.pos(),
                            format!(
                                "a second {} offering in zone {}",
                                o.capacity_type.as_str(),
                                o.zone
                            ),
                            Some("keep one offering per zone and capacity type".into()),
                        );
                        cx.ko(
                            format!(
                                "가용 영역 {}에 {} 오퍼링이 두 번 있습니다",
                                o.zone,
                                o.capacity_type.as_str()
                            ),
                            Some("가용 영역과 용량 유형마다 오퍼링을 하나만 두세요".into()),
                        );
                    }
                    out.offerings.push(o);
                }
            }
        }
        if out.offerings.is_empty() && cx.error_count() == 0 {
            cx.warn(
                Code::NoOfferings,
                &s.child_path("offerings"),
                s.anchor(),
                "no offerings: this instance type can never be launched",
                Some(
                    "add e.g. `offerings: [{zone: us-east-1a, \
                     capacityType: on-demand, price: 0.10}]`"
                        .into(),
                ),
            );
            cx.ko(
                "오퍼링이 없어 이 인스턴스 유형은 절대 띄울 수 없습니다",
                None,
            );
        }
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, out)
}

fn offering(cx: &mut Cx, f: &Field<'_>) -> Option<OfferingSpec> {
    let errors = cx.error_count();
    let mut o = Fields::of(cx, f);
    let zone = o.req(cx, "zone").and_then(|z| cx.nonempty_str(&z));
    let capacity_type = match o.get("capacityType") {
        Some(c) => cx
            .choice(&c, CAPACITY_TYPES, "capacity type")
            .and_then(CapacityType::parse),
        None => Some(CapacityType::OnDemand),
    };
    let price = o
        .req_help(
            cx,
            "price",
            "add the price in USD per hour, e.g. `price: 0.0416`",
        )
        .and_then(|p| price(cx, &p));
    let available = o.get("available").and_then(|a| cx.bool(&a)).unwrap_or(true);
    o.finish(cx);
    if cx.error_count() > errors {
        return None;
    }
    Some(OfferingSpec {
        zone: zone?,
        capacity_type: capacity_type?,
        price: price?,
        available,
    })
}

fn price(cx: &mut Cx, f: &Field<'_>) -> Option<MicroDollars> {
    let text = match &f.node.value {
        Value::Int(_) | Value::Float(_) | Value::Str(_) => f.node.scalar_text().unwrap_or_default(),
        _ => {
            cx.error(
                Code::InvalidType,
                &f.path,
                f.pos(),
                format!(
                    "expected a price in USD per hour, found {}",
                    f.node.type_name()
                ),
                Some("write a decimal such as 0.0416".into()),
            );
            cx.ko(
                format!("시간당 USD 가격이어야 하는데 {}입니다", f.node.type_name()),
                Some("0.0416 같은 소수로 쓰세요".into()),
            );
            return None;
        }
    };
    match micro_dollars(&text) {
        Ok((v, exact)) => {
            if !exact {
                cx.warn(
                    Code::RoundedPrice,
                    &f.path,
                    f.pos(),
                    format!("price {text} is rounded to 6 decimals"),
                    Some(
                        "the simulation counts micro-dollars; nothing to \
                         do unless the digits matter"
                            .into(),
                    ),
                );
                cx.ko(
                    format!("가격 {text}는 소수점 여섯째 자리로 반올림됩니다"),
                    Some(
                        "시뮬레이션은 백만분의 1달러 단위로 셉니다. 그 자릿수가 중요하지 않다면 \
                         고칠 것은 없습니다"
                            .into(),
                    ),
                );
            }
            Some(v)
        }
        Err(why) => {
            cx.error(
                Code::InvalidPrice,
                &f.path,
                f.pos(),
                format!("`{}` is not a price: {why}", truncate(&text, 40)),
                Some("write USD per hour as a decimal, e.g. 0.0416".into()),
            );
            cx.ko(
                format!("`{}`는 가격이 아닙니다: {why}", truncate(&text, 40)),
                Some("시간당 USD를 소수로 쓰세요. 예: 0.0416".into()),
            );
            None
        }
    }
}

/// A decimal (`0.14`, `2`, `1.5e-2`) as exact millionths, rounding half up beyond six decimals;
/// the flag says whether no rounding was needed.
pub(crate) fn micro_dollars(text: &str) -> Result<(i64, bool), String> {
    let t = text.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.starts_with('-') {
        return Err("it is negative".into());
    }
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (t.get(..i).unwrap_or(""), t.get(i + 1..).unwrap_or("")),
        None => (t, ""),
    };
    let exponent: i32 = if exponent.is_empty() {
        0
    } else {
        exponent.parse().map_err(|_| String::from("bad exponent"))?
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return Err("no digits".into());
    }
    if !int_part
        .bytes()
        .chain(frac_part.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return Err("not a decimal number".into());
    }
    let digits: String = format!("{int_part}{frac_part}");
    let digits = digits.trim_start_matches('0');
    if digits.len() > 30 {
        return Err("too many digits".into());
    }
    let mut value: i128 = if digits.is_empty() {
        0
    } else {
        digits
            .parse()
            .map_err(|_| String::from("not a decimal number"))?
    };
    // value × 10^(exponent − len(frac) + 6) micro-dollars.
    let scale = i64::from(exponent) - frac_part.len() as i64 + 6;
    let mut exact = true;
    if scale >= 0 {
        if scale > 20 || value.checked_mul(10i128.pow(scale as u32)).is_none() {
            return Err("too large".into());
        }
        value *= 10i128.pow(scale as u32);
    } else if scale < -38 {
        exact = value == 0;
        value = 0;
    } else {
        let div = 10i128.pow((-scale) as u32);
        let rem = value % div;
        value /= div;
        if rem != 0 {
            exact = false;
            if rem >= div - rem {
                value += 1;
            }
        }
    }
    // $10,000 per hour is beyond any EC2 instance; larger values are typos.
    if value > 10_000 * 1_000_000 {
        return Err("more than $10,000 per hour".into());
    }
    Ok((value as i64, exact))
}

/// A timeline step with where it was written, for cross-document checks.
#[derive(Debug)]
pub(crate) struct Step {
    pub step: TimelineStep,
    /// What an `apply` step applies, as written.
    pub written: Option<kpg_core::manifest::Written>,
    pub path: String,
    pub pos: Pos,
}

const ACTIONS: &[&str] = &[
    "scale",
    "delete",
    "apply",
    "interrupt",
    "releaseAmi",
    "cordon",
    "annotate",
    "insufficientCapacity",
    "nodeCondition",
];

/// Objects that exist only in the running cluster (Karpenter creates them), so a step that
/// names one is not checked against the scenario's documents.
const LIVE_KINDS: &[&str] = &["Node", "NodeClaim"];

/// Kinds an `annotate` step can annotate: the ones whose annotations the engine reads
/// (`karpenter.sh/do-not-disrupt`).
const ANNOTATABLE: &[&str] = &["Node", "NodeClaim", "Pod"];

pub(crate) fn timeline(cx: &mut Cx, root: &Field<'_>) -> (Meta, Vec<Step>) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Free);
    let mut steps = Vec::new();
    if let Some(sf) = r.req(cx, "spec") {
        let mut s = Fields::of(cx, &sf);
        if let Some(list) = s.req_help(
            cx,
            "steps",
            "add `steps: [{at: 2m, scale: {kind: Deployment, name: web, replicas: 8}}]`",
        ) {
            for item in cx.seq(&list) {
                if let Some(step) = timeline_step(cx, &item) {
                    steps.push(step);
                }
            }
        }
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, steps)
}

fn timeline_step(cx: &mut Cx, item: &Field<'_>) -> Option<Step> {
    let errors = cx.error_count();
    let mut f = Fields::of(cx, item);
    let at = f
        .req_help(
            cx,
            "at",
            "add `at: 2m` (time from the start of the simulation)",
        )
        .and_then(|a| cx.duration(&a, false))
        .flatten();
    let present: Vec<(&'static str, Field<'_>)> = ACTIONS
        .iter()
        .filter_map(|a| f.get(a).map(|v| (*a, v)))
        .collect();
    f.finish(cx);
    let mut written = None;
    let action = match present.as_slice() {
        [] => {
            cx.error(
                Code::MissingField,
                &item.path,
                item.pos(),
                "a step needs one action",
                Some(format!("add one of {}", ACTIONS.join(", "))),
            );
            cx.ko(
                "단계에는 동작이 하나 있어야 합니다",
                Some(format!("다음 중 하나를 추가하세요: {}", ACTIONS.join(", "))),
            );
            None
        }
        [(name, v)] => action(cx, name, v, &mut written),
        [_, (second, v), ..] => {
            cx.error(
                Code::TimelineStepActions,
                &v.path,
                v.key_pos,
                format!("a step takes exactly one action; `{second}` is a second one"),
                Some("split it into two steps with the same `at`".into()),
            );
            cx.ko(
                format!(
                    "단계에는 동작이 정확히 하나만 있어야 합니다. `{second}`는 두 번째 동작입니다"
                ),
                Some("같은 `at`으로 두 단계로 나누세요".into()),
            );
            None
        }
    };
    if cx.error_count() > errors {
        return None;
    }
    Some(Step {
        step: TimelineStep {
            at: at?,
            action: action?,
        },
        written,
        path: item.path.clone(),
        pos: item.pos(),
    })
}

/// Kinds a `scale` step can change.
const SCALABLE: &[&str] = &["Deployment", "ReplicaSet", "StatefulSet", "Job", "NodePool"];

/// One step's action; an `apply` also gives its object as written.
fn action(
    cx: &mut Cx,
    name: &str,
    v: &Field<'_>,
    written: &mut Option<kpg_core::manifest::Written>,
) -> Option<TimelineAction> {
    match name {
        "scale" => {
            let mut s = Fields::of(cx, v);
            let kind = s
                .req(cx, "kind")
                .and_then(|k| cx.choice(&k, SCALABLE, "kind to scale"));
            let name_field = s.req(cx, "name");
            let name = name_field.as_ref().and_then(|n| cx.nonempty_str(n));
            let namespace = s
                .get("namespace")
                .and_then(|n| cx.nonempty_str(&n))
                .unwrap_or_else(|| "default".into());
            let replicas = s
                .req(cx, "replicas")
                .and_then(|r| cx.int(&r, 0, MAX_PODS).map(|n| n as u32));
            s.finish(cx);
            if kind == Some("NodePool") {
                // Static NodePools (v1.8+) have a scale subresource.
                if let (Some(n), Some(nf)) = (&name, &name_field) {
                    cx.refer("NodePool", "", n, nf);
                    cx.need(
                        Need::Version(Behaviour::StaticNodePools),
                        "scaling a NodePool",
                        &nf.path,
                        nf.pos(),
                    );
                }
                return Some(TimelineAction::ScaleNodePool {
                    name: name?,
                    replicas: replicas?,
                });
            }
            if let (Some(k), Some(n), Some(nf)) = (kind, &name, &name_field) {
                cx.refer(k, &namespace, n, nf);
            }
            Some(TimelineAction::Scale {
                kind: workload_kind(kind?)?,
                name: name?,
                namespace,
                replicas: replicas?,
            })
        }
        "delete" => {
            let mut d = Fields::of(cx, v);
            let kind_field = d.req(cx, "kind");
            let kind = kind_field.as_ref().and_then(|k| {
                let s = cx.nonempty_str(k)?;
                if let Some(live) = LIVE_KINDS.iter().find(|l| **l == s) {
                    return Some((*live, false));
                }
                match kind_info(&s) {
                    Some(info)
                        if !matches!(info.kind, "Cluster" | "Timeline" | "PriorityClass") =>
                    {
                        Some((info.kind, info.namespaced))
                    }
                    _ => {
                        cx.error(
                            Code::TimelineKind,
                            &k.path,
                            k.pos(),
                            format!("cannot delete a {s}"),
                            Some(
                                "delete a NodePool, EC2NodeClass, workload, Pod, \
                                 PodDisruptionBudget, Namespace, InstanceType, Node or NodeClaim"
                                    .into(),
                            ),
                        );
                        cx.ko(
                            format!("{s}는 삭제할 수 없습니다"),
                            Some(
                                "NodePool, EC2NodeClass, 워크로드, Pod, PodDisruptionBudget, \
                                 Namespace, InstanceType, Node, NodeClaim을 삭제하세요"
                                    .into(),
                            ),
                        );
                        None
                    }
                }
            });
            let name_field = d.req(cx, "name");
            let name = name_field.as_ref().and_then(|n| cx.nonempty_str(n));
            let ns_field = d.get("namespace");
            let namespace = ns_field.as_ref().and_then(|n| cx.nonempty_str(n));
            d.finish(cx);
            let (kind, namespaced) = kind?;
            let namespace = if namespaced {
                namespace.unwrap_or_else(|| "default".into())
            } else {
                String::new()
            };
            // A Pod may be one a controller created (its name is not in any document).
            if let (Some(n), Some(nf)) = (&name, &name_field)
                && !LIVE_KINDS.contains(&kind)
                && kind != "Pod"
            {
                cx.refer(kind, &namespace, n, nf);
            }
            Some(TimelineAction::Delete {
                kind: kind.to_string(),
                name: name?,
                namespace,
            })
        }
        "apply" => {
            let converted = super::convert(cx, v, Site::TimelineApply)?;
            *written = Some(converted.written);
            let applied = match converted.object {
                Object::NodePool(np) => AppliedObject::NodePool(np),
                Object::NodeClass(nc) => AppliedObject::NodeClass(nc),
                Object::Workload(w) => AppliedObject::Workload(w),
                Object::Pdb(p) => AppliedObject::Pdb(p),
                Object::PriorityClass(c) => AppliedObject::PriorityClass(c),
                Object::CapacityBuffer(b) => AppliedObject::CapacityBuffer(b),
                _ => return None,
            };
            Some(TimelineAction::Apply(Box::new(applied)))
        }
        "interrupt" => {
            let mut i = Fields::of(cx, v);
            let nodepool_field = i.get("nodepool");
            let nodepool = nodepool_field.as_ref().and_then(|n| cx.nonempty_str(n));
            let node = i.get("node").and_then(|n| cx.nonempty_str(&n));
            i.finish(cx);
            if nodepool.is_some() == node.is_some() {
                cx.error(
                    Code::TimelineStepActions,
                    &v.path,
                    v.pos(),
                    "interrupt takes exactly one of `nodepool` and `node`",
                    Some("e.g. `interrupt: {nodepool: default}`".into()),
                );
                cx.ko(
                    "interrupt에는 `nodepool`과 `node` 중 정확히 하나만 씁니다",
                    Some("예: `interrupt: {nodepool: default}`".into()),
                );
                return None;
            }
            if let (Some(np), Some(nf)) = (&nodepool, &nodepool_field) {
                cx.refer("NodePool", "", np, nf);
            }
            Some(TimelineAction::Interrupt { nodepool, node })
        }
        "insufficientCapacity" => {
            let mut c = Fields::of(cx, v);
            let instance_type = c.get("instanceType").and_then(|t| cx.nonempty_str(&t));
            let zone = c.get("zone").and_then(|z| cx.nonempty_str(&z));
            let capacity_type = c.get("capacityType").and_then(|t| {
                cx.choice(&t, &["on-demand", "spot", "reserved"], "capacity type")
                    .and_then(kpg_core::catalog::CapacityType::parse)
            });
            let duration = match c.get("for") {
                Some(d) => Some(cx.duration(&d, false).flatten()?),
                None => None,
            };
            c.finish(cx);
            Some(TimelineAction::InsufficientCapacity {
                instance_type,
                zone,
                capacity_type,
                duration,
            })
        }
        "nodeCondition" => {
            let mut c = Fields::of(cx, v);
            let nodepool_field = c.get("nodepool");
            let nodepool = nodepool_field.as_ref().and_then(|n| cx.nonempty_str(n));
            let node = c.get("node").and_then(|n| cx.nonempty_str(&n));
            let condition = c
                .req_help(cx, "type", "e.g. `type: Ready` (a node condition's type)")
                .and_then(|t| cx.nonempty_str(&t));
            // A condition's status is a string in Kubernetes; the Timeline is the
            // playground's own, so `status: False` (a YAML boolean) means what it says.
            let status = c.req(cx, "status").and_then(|s| match s.node.value {
                Value::Bool(b) => Some(if b { "True" } else { "False" }.to_string()),
                _ => cx
                    .choice(&s, &["True", "False", "Unknown"], "condition status")
                    .map(str::to_string),
            });
            c.finish(cx);
            if nodepool.is_some() == node.is_some() {
                cx.error(
                    Code::TimelineStepActions,
                    &v.path,
                    v.pos(),
                    "nodeCondition takes exactly one of `nodepool` and `node`",
                    Some(
                        "e.g. `nodeCondition: {nodepool: default, type: Ready, status: False}`"
                            .into(),
                    ),
                );
                cx.ko(
                    "nodeCondition에는 `nodepool`과 `node` 중 정확히 하나만 씁니다",
                    Some(
                        "예: `nodeCondition: {nodepool: default, type: Ready, status: False}`"
                            .into(),
                    ),
                );
                return None;
            }
            if let (Some(np), Some(nf)) = (&nodepool, &nodepool_field) {
                cx.refer("NodePool", "", np, nf);
            }
            cx.need(
                Need::Gate(Gate::NodeRepair),
                "node repair",
                &v.path,
                v.key_pos,
            );
            Some(TimelineAction::NodeCondition {
                nodepool,
                node,
                condition: condition?,
                status: status?,
            })
        }
        "cordon" => {
            let mut c = Fields::of(cx, v);
            let node = c
                .req_help(cx, "node", "e.g. `cordon: {node: default-abcde}`")
                .and_then(|n| cx.nonempty_str(&n));
            let unschedulable = c
                .get("unschedulable")
                .and_then(|u| cx.bool(&u))
                .unwrap_or(true);
            c.finish(cx);
            Some(TimelineAction::Cordon {
                node: node?,
                unschedulable,
            })
        }
        "annotate" => {
            let mut a = Fields::of(cx, v);
            let kind = a
                .req(cx, "kind")
                .and_then(|k| cx.choice(&k, ANNOTATABLE, "kind to annotate"));
            let name = a.req(cx, "name").and_then(|n| cx.nonempty_str(&n));
            let namespace = a.get("namespace").and_then(|n| cx.nonempty_str(&n));
            let set = a
                .get("set")
                .map(|s| common::annotations(cx, &s))
                .unwrap_or_default();
            let remove: Vec<String> = a
                .get("remove")
                .map(|r| {
                    cx.seq(&r)
                        .iter()
                        .filter_map(|k| cx.nonempty_str(k))
                        .collect()
                })
                .unwrap_or_default();
            a.finish(cx);
            let kind = kind?;
            let namespace = if kind == "Pod" {
                namespace.unwrap_or_else(|| "default".into())
            } else {
                String::new()
            };
            if set.is_empty() && remove.is_empty() {
                cx.error(
                    Code::MissingField,
                    &v.path,
                    v.pos(),
                    "annotate needs `set` or `remove`",
                    Some(
                        "e.g. `annotate: {kind: Node, name: default-abcde, set: \
                         {karpenter.sh/do-not-disrupt: \"true\"}}`"
                            .into(),
                    ),
                );
                cx.ko("annotate에는 `set`이나 `remove`가 있어야 합니다", None);
                return None;
            }
            Some(TimelineAction::Annotate {
                kind: kind.to_string(),
                name: name?,
                namespace,
                set,
                remove,
            })
        }
        _ => {
            let mut a = Fields::of(cx, v);
            let alias = a.req(cx, "alias").and_then(|f| {
                let s = cx.nonempty_str(&f)?;
                let fam = s.split('@').next().unwrap_or("");
                if !super::nodeclass::ALIAS_FAMILIES.contains(&fam) {
                    cx.error(
                        Code::InvalidAlias,
                        &f.path,
                        f.pos(),
                        format!("`{fam}` is not an AMI alias family"),
                        Some(format!(
                            "use one of {}",
                            super::nodeclass::ALIAS_FAMILIES.join(", ")
                        )),
                    );
                    cx.ko(
                        format!("`{fam}`는 AMI alias 계열이 아닙니다"),
                        Some(format!(
                            "다음 중 하나를 쓰세요: {}",
                            super::nodeclass::ALIAS_FAMILIES.join(", ")
                        )),
                    );
                    return None;
                }
                Some(s)
            });
            a.finish(cx);
            Some(TimelineAction::ReleaseAmi { alias: alias? })
        }
    }
}

/// The replicas a timeline step sets for a workload, for the scenario-wide pod cap.
pub(crate) fn step_replicas(step: &TimelineStep) -> Option<(WorkloadKind, &str, &str, u32)> {
    match &step.action {
        TimelineAction::Scale {
            kind,
            name,
            namespace,
            replicas,
        } => Some((*kind, name, namespace, *replicas)),
        TimelineAction::Apply(obj) => match obj.as_ref() {
            AppliedObject::Workload(w) => Some((
                w.kind,
                &w.name,
                &w.namespace,
                if w.kind == WorkloadKind::Pod {
                    1
                } else {
                    w.replicas
                },
            )),
            _ => None,
        },
        _ => None,
    }
}

/// A `CapacityReservation` document: an EC2 capacity reservation (an ODCR or a capacity
/// block) that EC2NodeClasses select with `capacityReservationSelectorTerms`.
pub(crate) fn capacity_reservation(
    cx: &mut Cx,
    root: &Field<'_>,
) -> (Meta, kpg_core::reservation::CapacityReservation) {
    use kpg_core::reservation::{CapacityReservation, MatchCriteria, ReservationType};
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Free);
    let mut out = CapacityReservation {
        name: meta.name.clone(),
        id: String::new(),
        instance_type: String::new(),
        zone: String::new(),
        instance_count: 0,
        reservation_type: ReservationType::Default,
        match_criteria: MatchCriteria::Open,
        owner_id: None,
        tags: Default::default(),
        end: None,
        interruptible: false,
    };
    if let Some(sf) = r.req(cx, "spec") {
        cx.need(
            Need::Gate(Gate::ReservedCapacity),
            "the CapacityReservation",
            &sf.path,
            sf.key_pos,
        );
        let mut s = Fields::of(cx, &sf);
        if let Some(f) = s.req_help(cx, "id", "add e.g. `id: cr-0123456789abcdef0`")
            && let Some(id) = cx.nonempty_str(&f)
        {
            if !super::nodeclass::is_aws_id("cr-", &id) {
                cx.error(
                    Code::InvalidResourceId,
                    &f.path,
                    f.pos(),
                    format!("`{}` is not a capacity reservation id", truncate(&id, 40)),
                    Some("write `cr-` and lowercase letters or digits".into()),
                );
                cx.ko(
                    format!("`{}`는 용량 예약 ID가 아닙니다", truncate(&id, 40)),
                    Some("`cr-` 뒤에 소문자나 숫자를 쓰세요".into()),
                );
            }
            out.id = id;
        }
        if let Some(f) = s.req_help(cx, "instanceType", "add e.g. `instanceType: m5.large`")
            && let Some(t) = cx.nonempty_str(&f)
        {
            cx.refer("InstanceType", "", &t, &f);
            out.instance_type = t;
        }
        if let Some(f) = s.req_help(cx, "zone", "add e.g. `zone: us-east-1a`")
            && let Some(z) = cx.nonempty_str(&f)
        {
            if !out.instance_type.is_empty() {
                cx.refer("ReservationZone", &out.instance_type, &z, &f);
            }
            out.zone = z;
        }
        if let Some(n) = s
            .req_help(cx, "instanceCount", "add e.g. `instanceCount: 2`")
            .and_then(|f| cx.int(&f, 0, MAX_NODES_PER_RESERVATION))
        {
            out.instance_count = n as u32;
        }
        if let Some(t) = s
            .get("reservationType")
            .and_then(|f| cx.choice(&f, &["default", "capacity-block"], "reservation type"))
        {
            out.reservation_type = if t == "capacity-block" {
                ReservationType::CapacityBlock
            } else {
                ReservationType::Default
            };
        }
        if let Some(m) = s
            .get("instanceMatchCriteria")
            .and_then(|f| cx.choice(&f, &["open", "targeted"], "instanceMatchCriteria"))
        {
            out.match_criteria = if m == "targeted" {
                MatchCriteria::Targeted
            } else {
                MatchCriteria::Open
            };
        }
        if let Some(f) = s.get("ownerID") {
            out.owner_id = cx.nonempty_str(&f);
        }
        if let Some(f) = s.get("tags") {
            out.tags = common::annotations(cx, &f);
        }
        if let Some(f) = s.get("interruptible") {
            out.interruptible = cx.bool(&f).unwrap_or(false);
        }
        let end_field = s.get("end");
        if let Some(f) = &end_field {
            out.end = cx.duration(f, false).flatten();
        }
        if out.reservation_type == ReservationType::CapacityBlock {
            if end_field.is_none() {
                cx.error(
                    Code::MissingField,
                    &s.child_path("end"),
                    s.anchor(),
                    "a capacity block always ends: add `end`",
                    Some("e.g. `end: 2h` (from the start of the simulation)".into()),
                );
                cx.ko(
                    "용량 블록에는 항상 끝이 있습니다. `end`를 추가하세요",
                    Some("예: `end: 2h`(시뮬레이션 시작부터)".into()),
                );
            }
            if out.interruptible {
                cx.error(
                    Code::InvalidChoice,
                    &s.child_path("interruptible"),
                    s.anchor(),
                    "a capacity block cannot be interruptible",
                    Some("remove `interruptible`, or use `reservationType: default`".into()),
                );
                cx.ko(
                    "용량 블록은 중단 가능(interruptible)일 수 없습니다",
                    Some("`interruptible`을 지우거나 `reservationType: default`를 쓰세요".into()),
                );
            }
        }
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, out)
}

/// EC2 caps a reservation far above what the playground simulates (`MAX_NODES` nodes).
const MAX_NODES_PER_RESERVATION: i64 = 10_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_are_exact_micro_dollars() {
        assert_eq!(micro_dollars("0.14"), Ok((140_000, true)));
        assert_eq!(micro_dollars("0.2"), Ok((200_000, true)));
        assert_eq!(micro_dollars("2"), Ok((2_000_000, true)));
        assert_eq!(micro_dollars("0.0081"), Ok((8_100, true)));
        assert_eq!(micro_dollars("1.5e-2"), Ok((15_000, true)));
        assert_eq!(micro_dollars(".5"), Ok((500_000, true)));
        assert_eq!(micro_dollars("0.00000051"), Ok((1, false)));
        assert!(micro_dollars("-1").is_err());
        assert!(micro_dollars("abc").is_err());
        assert!(micro_dollars("1e30").is_err());
        assert!(micro_dollars("").is_err());
        assert_eq!(micro_dollars("1e-90"), Ok((0, false)));
    }
}

//! NodeOverlay (`karpenter.sh/v1alpha1`, v1.7+): the CRD's rules at v1.14.1
//! (`pkg/apis/crds/karpenter.sh_nodeoverlays.yaml`, `pkg/apis/v1alpha1/nodeoverlay.go`).

use kpg_core::karpenter::Gate;
use kpg_core::overlay::{NodeOverlay, PriceChange};
use kpg_core::requirements::{Requirement, Requirements};
use kpg_core::resources::ResourceName;

use super::common::{self, Meta, NameRule, ReqSite};
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields, Need};
use crate::yaml::Value;

pub(crate) fn node_overlay(cx: &mut Cx, root: &Field<'_>) -> (Meta, NodeOverlay) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let mut out = NodeOverlay {
        name: meta.name.clone(),
        requirements: Requirements::new(),
        weight: 0,
        price: None,
        capacity: Vec::new(),
    };
    if let Some(sf) = r.req(cx, "spec") {
        cx.need(
            Need::Gate(Gate::NodeOverlay),
            "the NodeOverlay",
            &sf.path,
            sf.key_pos,
        );
        let mut s = Fields::of(cx, &sf);
        if let Some(rf) = s.req_help(
            cx,
            "requirements",
            "add `requirements: []` (every instance type), or e.g. \
             `[{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]`",
        ) {
            let items = cx.seq(&rf);
            common::at_most_100_requirements(cx, &rf, items.len());
            for item in &items {
                if let Some(req) = common::requirement(cx, item, ReqSite::NodeOverlay) {
                    out.requirements
                        .add(Requirement::new(&req.key, req.operator, req.values));
                }
            }
        }
        if let Some(w) = s.get("weight") {
            out.weight = cx.int(&w, 1, 10_000).map_or(0, |w| w as i32);
        }
        let price = s.get("price");
        let adjustment = s.get("priceAdjustment");
        if let (Some(_), Some(a)) = (&price, &adjustment) {
            cx.error(
                Code::NodeOverlayRule,
                &a.path,
                a.key_pos,
                "cannot set both 'price' and 'priceAdjustment'",
                Some("keep one: `price` replaces the price, `priceAdjustment` changes it".into()),
            );
            cx.ko(
                "'price'와 'priceAdjustment'를 함께 쓸 수 없습니다",
                Some(
                    "하나만 남기세요. `price`는 가격을 바꾸고, `priceAdjustment`는 가격을 \
                     조정합니다"
                        .into(),
                ),
            );
        } else if let Some(p) = price {
            out.price = text(cx, &p).and_then(|t| match parse_price(&t) {
                Some(v) => Some(PriceChange::Set(v)),
                None => {
                    bad_format(cx, &p, &t, "price", "an unsigned decimal such as \"0.05\"");
                    None
                }
            });
        } else if let Some(a) = adjustment {
            out.price = text(cx, &a).and_then(|t| match parse_adjustment(&t) {
                Some(change) => Some(change),
                None => {
                    bad_format(
                        cx,
                        &a,
                        &t,
                        "priceAdjustment",
                        "a signed amount or percentage such as \"+0.01\", \"-15%\" or \"+10%\" \
                         (a decrease is at most -100%)",
                    );
                    None
                }
            });
        }
        if let Some(cf) = s.get("capacity") {
            for (name, pos, value) in cx.entries(&cf) {
                if matches!(
                    name.as_str(),
                    "cpu" | "memory" | "ephemeral-storage" | "pods"
                ) {
                    cx.error(
                        Code::NodeOverlayRule,
                        &value.path,
                        pos,
                        "invalid resource restricted",
                        Some(
                            "an overlay adds extended resources only (e.g. `nvidia.com/gpu`); \
                             cpu, memory, ephemeral-storage and pods come from the instance type"
                                .into(),
                        ),
                    );
                    cx.ko(
                        "제한된 리소스입니다",
                        Some(
                            "오버레이는 확장 리소스(예: `nvidia.com/gpu`)만 더합니다. cpu, \
                             memory, ephemeral-storage, pods는 인스턴스 유형에서 옵니다"
                                .into(),
                        ),
                    );
                    continue;
                }
                let resource = ResourceName::parse(&name);
                let Some(amount) = cx.quantity(&value, resource) else {
                    continue;
                };
                if resource == ResourceName::Other {
                    cx.warn(
                        Code::UnsupportedField,
                        &value.path,
                        pos,
                        format!(
                            "the playground does not model the resource `{name}`; this \
                             capacity is ignored"
                        ),
                        Some(format!(
                            "the modelled extended resources are {}",
                            modelled_extended().join(", ")
                        )),
                    );
                    cx.ko(
                        format!(
                            "플레이그라운드는 리소스 `{name}`를 다루지 않아 이 용량을 무시합니다"
                        ),
                        Some(format!(
                            "다루는 확장 리소스: {}",
                            modelled_extended().join(", ")
                        )),
                    );
                    continue;
                }
                out.capacity.push((resource, amount));
            }
        }
        s.finish(cx);
    }
    r.ignore(&["apiVersion", "kind", "status"]);
    r.finish(cx);
    (meta, out)
}

fn modelled_extended() -> Vec<&'static str> {
    ResourceName::ALL
        .iter()
        .filter(|r| {
            !matches!(
                r,
                ResourceName::Cpu
                    | ResourceName::Memory
                    | ResourceName::EphemeralStorage
                    | ResourceName::Pods
            )
        })
        .map(|r| r.as_str())
        .collect()
}

/// A price field's text: a string, or a number written bare (YAML reads `0.05` as one).
fn text(cx: &mut Cx, f: &Field<'_>) -> Option<String> {
    match &f.node.value {
        Value::Int(_) | Value::Float(_) => f.node.scalar_text(),
        _ => cx.str(f),
    }
}

fn bad_format(cx: &mut Cx, f: &Field<'_>, text: &str, field: &str, want: &str) {
    cx.error(
        Code::NodeOverlayRule,
        &f.path,
        f.pos(),
        format!("`{text}` is not a valid {field}"),
        Some(format!("write {want}")),
    );
    cx.ko(
        format!("`{text}`는 올바른 {field}가 아닙니다"),
        Some(format!("다음처럼 쓰세요: {want}")),
    );
}

/// `^\d+(\.\d+)?$` in micro-dollars (rounded to the micro-dollar).
fn parse_price(t: &str) -> Option<i64> {
    let (whole, frac) = match t.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (t, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || frac.is_some_and(|f| !digits(f)) {
        return None;
    }
    decimal_micro(whole, frac.unwrap_or(""))
}

/// `whole.frac` × 10⁶, rounded half up; `None` past $10¹².
fn decimal_micro(whole: &str, frac: &str) -> Option<i64> {
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole
            .parse()
            .ok()
            .filter(|w: &i64| *w < 1_000_000_000_000)?
    };
    let mut micro = 0i64;
    for (i, b) in frac.bytes().enumerate() {
        let d = i64::from(b - b'0');
        match i {
            0..=5 => micro += d * 10i64.pow(5 - i as u32),
            6 => {
                if d >= 5 {
                    micro += 1;
                }
                break;
            }
            _ => break,
        }
    }
    whole.checked_mul(1_000_000)?.checked_add(micro)
}

/// The CRD's `priceAdjustment` pattern: `±N` (dollars, `N` being `\d*\.?\d+`), `+N%`,
/// `-N%` with one or two integer digits, or exactly `-100%`.
fn parse_adjustment(t: &str) -> Option<PriceChange> {
    let (sign, rest) = match t.as_bytes().first()? {
        b'+' => (1, &t[1..]),
        b'-' => (-1, &t[1..]),
        _ => return None,
    };
    let (number, percent) = match rest.strip_suffix('%') {
        Some(n) => (n, true),
        None => (rest, false),
    };
    // `\d*\.?\d+`: digits, an optional point, and at least one digit after it.
    let (whole, frac) = match number.split_once('.') {
        Some((w, f)) => (w, f),
        None => ("", number),
    };
    let (whole, frac) = if number.contains('.') {
        (whole, frac)
    } else {
        (frac, "")
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || !all_digits(frac) || (whole.is_empty() && frac.is_empty()) {
        return None;
    }
    if number.contains('.') && frac.is_empty() {
        return None;
    }
    if percent && sign < 0 {
        // `-\d{1,2}(\.\d+)?%` or exactly `-100%`.
        let ok = number == "100" || ((1..=2).contains(&whole.len()) && !number.ends_with('.'));
        if !ok {
            return None;
        }
    }
    let micro = decimal_micro(whole, frac)?;
    Some(if percent {
        PriceChange::Percent(sign * micro)
    } else {
        PriceChange::Add(sign * micro)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_and_adjustments_read_as_the_crd_patterns_allow() {
        assert_eq!(parse_price("0.05"), Some(50_000));
        assert_eq!(parse_price("12"), Some(12_000_000));
        assert_eq!(parse_price("0"), Some(0));
        for bad in ["-1", "+1", ".5", "1.", "1e3", ""] {
            assert_eq!(parse_price(bad), None, "{bad}");
        }
        assert_eq!(parse_adjustment("+0.01"), Some(PriceChange::Add(10_000)));
        assert_eq!(parse_adjustment("-0.5"), Some(PriceChange::Add(-500_000)));
        assert_eq!(parse_adjustment("+.5"), Some(PriceChange::Add(500_000)));
        assert_eq!(
            parse_adjustment("+1000"),
            Some(PriceChange::Add(1_000_000_000))
        );
        assert_eq!(
            parse_adjustment("+10%"),
            Some(PriceChange::Percent(10_000_000))
        );
        assert_eq!(
            parse_adjustment("+250%"),
            Some(PriceChange::Percent(250_000_000))
        );
        assert_eq!(
            parse_adjustment("-15%"),
            Some(PriceChange::Percent(-15_000_000))
        );
        assert_eq!(
            parse_adjustment("-99.9%"),
            Some(PriceChange::Percent(-99_900_000))
        );
        assert_eq!(
            parse_adjustment("-100%"),
            Some(PriceChange::Percent(-100_000_000))
        );
        for bad in ["1.2", "-100.0%", "-150%", "-.5%", "10%", "+", "+1.", "+%"] {
            assert_eq!(parse_adjustment(bad), None, "{bad}");
        }
    }
}

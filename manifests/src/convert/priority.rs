//! `scheduling.k8s.io/v1` PriorityClass: its value, `globalDefault` and `preemptionPolicy`
//! (API default `PreemptLowerPriority`), with the API server's rules on one object
//! (`pkg/apis/scheduling/validation` and the Priority admission plugin's
//! `validatePriorityClass` in kubernetes/kubernetes): a user's class is worth at most
//! 1,000,000,000, and a `system-` name belongs to the system classes as they are. The rules
//! that span objects (one global default, pods naming a class) are `assemble::priority`'s.

use kpg_core::priority::{self, PreemptionPolicy, PriorityClass};

use super::common::{self, Meta, NameRule};
use crate::codes::Code;
use crate::reader::{Cx, Field, Fields};

pub(crate) fn priority_class(cx: &mut Cx, root: &Field<'_>) -> (Meta, PriorityClass) {
    let mut r = Fields::of(cx, root);
    let meta = common::metadata(cx, &mut r, false, NameRule::Subdomain);
    let value_field = r.req(cx, "value");
    let value = value_field
        .as_ref()
        .and_then(|v| cx.int(v, i64::from(i32::MIN), i64::from(i32::MAX)))
        .map_or(0, |v| v as i32);
    let global_default = r
        .get("globalDefault")
        .and_then(|g| cx.bool(&g))
        .unwrap_or(false);
    let preemption_policy = r
        .get("preemptionPolicy")
        .and_then(|p| cx.choice(&p, &["PreemptLowerPriority", "Never"], "preemption policy"))
        .map_or(PreemptionPolicy::PreemptLowerPriority, |p| match p {
            "Never" => PreemptionPolicy::Never,
            _ => PreemptionPolicy::PreemptLowerPriority,
        });
    let name_path = format!("{}.name", r.child_path("metadata"));
    r.ignore(&["apiVersion", "kind", "description"]);
    r.finish(cx);

    if meta.name.starts_with(priority::SYSTEM_PREFIX) {
        // `IsKnownSystemPriorityClass`: the name, value and globalDefault of a system class.
        let why = match priority::system_class(&meta.name) {
            None => Some(format!(
                "{} is not a known system priority class",
                meta.name
            )),
            Some(c) if c.value != value => Some(format!(
                "value of {} PriorityClass must be {}",
                meta.name, c.value
            )),
            Some(_) if global_default => Some(format!(
                "globalDefault of {} PriorityClass must be false",
                meta.name
            )),
            Some(_) => None,
        };
        if let Some(why) = why {
            cx.error(
                Code::ReservedPriorityClass,
                &name_path,
                meta.name_pos,
                format!(
                    "priority class names with '{}' prefix are reserved for system use only. \
                     error: {why}",
                    priority::SYSTEM_PREFIX
                ),
                Some("give the class a name that does not start with `system-`".into()),
            );
            cx.ko(
                format!(
                    "'{}'으로 시작하는 PriorityClass 이름은 시스템용으로 예약되어 있습니다 \
                     ({why})",
                    priority::SYSTEM_PREFIX
                ),
                Some("`system-`으로 시작하지 않는 이름을 쓰세요".into()),
            );
        }
    } else if value > priority::HIGHEST_USER_DEFINABLE
        && let Some(v) = &value_field
    {
        cx.error(
            Code::PriorityValueTooHigh,
            &v.path,
            v.pos(),
            format!(
                "maximum allowed value of a user defined priority is {}",
                priority::HIGHEST_USER_DEFINABLE
            ),
            Some(
                "use a value up to 1000000000; higher values belong to the system classes \
                 (system-cluster-critical, system-node-critical)"
                    .into(),
            ),
        );
        cx.ko(
            format!(
                "사용자가 정하는 priority 값은 최대 {}입니다",
                priority::HIGHEST_USER_DEFINABLE
            ),
            Some(
                "1000000000 이하로 쓰세요. 더 높은 값은 시스템 클래스(system-cluster-critical, \
                 system-node-critical)의 것입니다"
                    .into(),
            ),
        );
    }
    let class = PriorityClass {
        name: meta.name.clone(),
        value,
        global_default,
        preemption_policy,
    };
    (meta, class)
}

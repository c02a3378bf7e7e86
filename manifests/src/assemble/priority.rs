//! The PriorityClass rules that span objects, and the Priority admission plugin on every pod
//! template (`plugin/pkg/admission/priority/admission.go` in kubernetes/kubernetes).
//!
//! The classes are walked as the API server would see them arrive: the documents' at time
//! zero, then each Timeline `apply` in the order the steps run. A second `globalDefault`
//! class is refused (`PriorityClass X is already marked as default`), and so is a change of
//! an existing class's value or preemption policy (immutable). A pod, or a controller's pod
//! template, is admitted against the classes that exist when it is created: an unknown
//! class, or a written priority or policy other than the class gives, is refused, and the
//! object is left out (a controller's pods would all be refused). What admission computes
//! becomes the template's `priority` and `preemptionPolicy`; the engine re-admits a template
//! that names no class when a later global default changes the answer.
//!
//! Objects a snapshot found (a live cluster's) were admitted long ago, and a snapshot rarely
//! carries its PriorityClasses: their written priority stands.

use std::collections::BTreeSet;

use kpg_core::model::{AppliedObject, TimelineAction, Workload, WorkloadKind};
use kpg_core::priority::{PriorityClass, PriorityClasses, Refusal};

use super::{Accepted, WithKorean, diag};
use crate::codes::Code;
use crate::convert::Object;
use crate::convert::pod::{POLICY_REF, PRIORITY_REF};
use crate::diagnostic::{Diagnostic, Severity};
use crate::reader::Ref;
use crate::yaml::Pos;

pub(super) fn resolve(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>) {
    let mut classes = PriorityClasses::new(&[]);
    let mut default_name: Option<String> = None;
    // The documents' classes, in document order.
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        let Object::PriorityClass(c) = &a.converted.object else {
            continue;
        };
        match refuse_class(&classes, &default_name, c) {
            Some((code, message, ko)) => {
                let at = if code == Code::SecondGlobalDefault {
                    "globalDefault"
                } else {
                    "value"
                };
                diagnostics.push(refusal(a, code, at, a.converted.name_pos, message, ko));
                a.dropped = true;
            }
            None => {
                if c.global_default {
                    default_name = Some(c.name.clone());
                }
                classes.apply(c.clone());
            }
        }
    }
    // The documents' pods and templates, against every document's class.
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        let live = a.converted.facts.owner.is_some()
            || a.converted.facts.existing_pods.is_some()
            || a.converted.facts.phase.is_some();
        let refs = a.refs.clone();
        let Object::Workload(w) = &mut a.converted.object else {
            continue;
        };
        if let Err((code, path, pos, message, ko)) = admit(&classes, w, &refs, "", live) {
            diagnostics.push(refusal(a, code, &path, pos, message, ko));
            a.dropped = true;
        }
    }
    // The Timeline's steps, in the order they run.
    let mut steps: Vec<(kpg_core::model::Millis, usize, usize)> = Vec::new();
    for (i, a) in accepted.iter().enumerate().filter(|(_, a)| !a.dropped) {
        if let Object::Timeline(s) = &a.converted.object {
            steps.extend(s.iter().enumerate().map(|(j, st)| (st.step.at, i, j)));
        }
    }
    steps.sort();
    let mut refused: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (_, i, j) in steps {
        let a = &mut accepted[i];
        let refs = a.refs.clone();
        let mut problem = None;
        if let Object::Timeline(s) = &mut a.converted.object
            && let Some(st) = s.get_mut(j)
            && let TimelineAction::Apply(obj) = &mut st.step.action
        {
            let prefix = format!("{}.apply.", st.path);
            match obj.as_mut() {
                AppliedObject::PriorityClass(c) => match refuse_class(&classes, &default_name, c) {
                    Some((code, message, ko)) => {
                        let at = if code == Code::SecondGlobalDefault {
                            "globalDefault"
                        } else {
                            "value"
                        };
                        problem = Some((code, format!("{prefix}{at}"), st.pos, message, ko));
                    }
                    None => {
                        if c.global_default {
                            default_name = Some(c.name.clone());
                        } else if default_name.as_deref() == Some(c.name.as_str()) {
                            default_name = None;
                        }
                        classes.apply(c.clone());
                    }
                },
                AppliedObject::Workload(w) => {
                    if let Err(p) = admit(&classes, w, &refs, &prefix, false) {
                        problem = Some(p);
                    }
                }
                _ => {}
            }
        }
        if let Some((code, path, pos, message, ko)) = problem {
            diagnostics.push(refusal(&accepted[i], code, &path, pos, message, ko));
            refused.insert((i, j));
        }
    }
    // A refused step is left out; the rest of its Timeline runs.
    for &(i, j) in refused.iter().rev() {
        if let Object::Timeline(s) = &mut accepted[i].converted.object {
            s.remove(j);
        }
    }
}

/// Why the API server refuses a PriorityClass given the classes it holds: a second global
/// default, or a changed value or policy (both immutable). English and Korean messages.
fn refuse_class(
    classes: &PriorityClasses,
    default_name: &Option<String>,
    c: &PriorityClass,
) -> Option<(Code, String, String)> {
    if let Some(old) = classes.get(&c.name)
        && (old.value != c.value || old.preemption_policy != c.preemption_policy)
    {
        return Some((
            Code::ImmutableField,
            format!(
                "PriorityClass {} exists with value {} and preemptionPolicy {}; neither can \
                 change (field is immutable)",
                c.name,
                old.value,
                old.preemption_policy.as_str()
            ),
            format!(
                "PriorityClass {}는 이미 value {}, preemptionPolicy {}입니다. 둘 다 바꿀 수 \
                 없습니다",
                c.name,
                old.value,
                old.preemption_policy.as_str()
            ),
        ));
    }
    match default_name {
        Some(d) if c.global_default && *d != c.name => Some((
            Code::SecondGlobalDefault,
            format!("PriorityClass {d} is already marked as default. Only one default can exist"),
            format!(
                "PriorityClass {d}가 이미 기본(globalDefault) 클래스입니다. 기본 클래스는 하나만 \
                 둘 수 있습니다"
            ),
        )),
        _ => None,
    }
}

/// A refusal: code, field path, position, English and Korean messages.
type Problem = (Code, String, Pos, String, String);

/// The Priority admission plugin on a pod spec: sets its priority and preemption policy, or
/// says why the pod is refused (code, path, position, English and Korean). `prefix` is the
/// path of a Timeline step's object; `live` objects (a snapshot's) keep what they wrote.
fn admit(
    classes: &PriorityClasses,
    w: &mut Workload,
    refs: &[Ref],
    prefix: &str,
    live: bool,
) -> Result<(), Problem> {
    let spec = &mut w.template.spec;
    let class = spec.priority_class_name.clone();
    match classes.admit(
        class.as_deref(),
        spec.written_priority,
        spec.written_preemption_policy,
    ) {
        Ok(admitted) => {
            spec.priority = admitted.priority;
            spec.preemption_policy = admitted.preemption_policy;
            Ok(())
        }
        Err(_) if live => {
            let known = class.as_deref().and_then(|c| classes.get(c));
            spec.priority = spec
                .written_priority
                .or(known.map(|c| c.value))
                .unwrap_or(0);
            spec.preemption_policy = spec
                .written_preemption_policy
                .or(known.map(|c| c.preemption_policy))
                .unwrap_or_default();
            Ok(())
        }
        Err(refusal) => {
            let (kind, code) = match refusal {
                Refusal::UnknownClass(_) => ("PriorityClass", Code::UnknownPriorityClass),
                Refusal::Priority { .. } => (PRIORITY_REF, Code::PriorityNotAdmitted),
                Refusal::Policy { .. } => (POLICY_REF, Code::PriorityNotAdmitted),
            };
            let at = refs
                .iter()
                .find(|r| r.kind == kind && r.path.starts_with(prefix))
                .map(|r| (r.path.clone(), r.pos))
                .unwrap_or_default();
            let ko = match &refusal {
                Refusal::UnknownClass(name) => format!(
                    "이름이 {name}인 PriorityClass가 없어 Priority 어드미션 플러그인이 파드를 \
                     거부합니다 (no PriorityClass with name {name} was found)"
                ),
                Refusal::Priority { written, computed } => format!(
                    "파드에 priority ({written})를 쓸 수 없습니다. Priority 어드미션 플러그인이 \
                     PriorityClass에서 {computed}를 계산합니다"
                ),
                Refusal::Policy { written, computed } => format!(
                    "파드에 preemptionPolicy ({})를 쓸 수 없습니다. Priority 어드미션 플러그인이 \
                     PriorityClass에서 {}를 계산합니다",
                    written.as_str(),
                    computed.as_str()
                ),
            };
            let message = if w.kind == WorkloadKind::Pod {
                format!("pods \"{}\" is forbidden: {refusal}", w.name)
            } else {
                format!(
                    "every pod of {} {} would be refused: pods is forbidden: {refusal}",
                    w.kind.as_str(),
                    w.name
                )
            };
            let ko = if w.kind == WorkloadKind::Pod {
                ko
            } else {
                format!(
                    "{} {}의 파드가 모두 거부됩니다: {ko}",
                    w.kind.as_str(),
                    w.name
                )
            };
            Err((code, at.0, at.1, message, ko))
        }
    }
}

fn refusal(
    a: &Accepted,
    code: Code,
    path: &str,
    pos: Pos,
    message: String,
    ko: String,
) -> Diagnostic {
    let help = match code {
        Code::UnknownPriorityClass => Some(
            "define the PriorityClass (apiVersion: scheduling.k8s.io/v1) in a document of its \
             own or an earlier Timeline step, or name an existing one"
                .to_string(),
        ),
        Code::PriorityNotAdmitted => Some(
            "leave `priority` and `preemptionPolicy` out: admission fills them in from the \
             PriorityClass"
                .to_string(),
        ),
        Code::SecondGlobalDefault => {
            Some("set `globalDefault: false` on one of the two classes".to_string())
        }
        _ => Some(
            "keep the class's value and preemptionPolicy; a class with others needs a name of \
             its own"
                .to_string(),
        ),
    };
    let help_ko = match code {
        Code::UnknownPriorityClass => Some(
            "PriorityClass(apiVersion: scheduling.k8s.io/v1)를 별도 문서나 앞선 Timeline \
             단계에 정의하거나 있는 클래스를 쓰세요"
                .to_string(),
        ),
        Code::PriorityNotAdmitted => Some(
            "`priority`와 `preemptionPolicy`는 빼세요. 어드미션이 PriorityClass에서 채웁니다"
                .to_string(),
        ),
        Code::SecondGlobalDefault => {
            Some("두 클래스 중 하나를 `globalDefault: false`로 두세요".to_string())
        }
        _ => Some(
            "클래스의 value와 preemptionPolicy는 그대로 두세요. 다른 값에는 새 이름의 클래스가 \
             필요합니다"
                .to_string(),
        ),
    };
    diag(Severity::Error, code, a, path, pos, message, help).with_ko(ko, help_ko)
}

//! What the API server's admission plugins do to a pod on its way in, once every document is
//! read: the RuntimeClass plugin (`plugin/pkg/admission/runtimeclass/admission.go`, Kubernetes
//! 1.37) sets the pod's `overhead` from its class, merges the class's `scheduling` node
//! selector and tolerations into the pod's, and refuses a pod whose class does not exist,
//! whose written overhead differs from its class's, or that writes an overhead no class sets.
//!
//! Admission runs when a pod is created. A bare Pod it refuses is refused at `kubectl apply`
//! (an error: the pod is left out). A controller it refuses is still created, but every pod
//! its controller creates is refused (`FailedCreate`): the object is kept, as `kubectl get`
//! shows it, and simulated with no pods. A snapshot's pods were admitted in the cluster they
//! came from, so they are taken as they are.

use std::collections::BTreeMap;

use kpg_core::model::{AppliedObject, PodSpec, TimelineAction, WorkloadKind};
use kpg_core::resources::Resources;

use super::{Accepted, WithKorean, diag};
use crate::codes::Code;
use crate::convert::Object;
use crate::convert::pod::POD_OVERHEAD;
use crate::convert::runtime_class::RuntimeClass;
use crate::diagnostic::{Diagnostic, Severity};
use crate::reader::Ref;

/// Why admission refuses a pod, in the plugin's words.
#[derive(Debug, PartialEq, Eq)]
enum Refusal {
    ClassNotFound(String),
    OverheadMismatch,
    OverheadWithoutClass,
    SelectorConflict {
        key: String,
        class_value: String,
        pod_value: String,
    },
}

impl Refusal {
    fn message(&self) -> String {
        match self {
            Refusal::ClassNotFound(name) => {
                format!("pod rejected: RuntimeClass \"{name}\" not found")
            }
            Refusal::OverheadMismatch => {
                "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead".into()
            }
            Refusal::OverheadWithoutClass => {
                "pod rejected: Pod Overhead set without corresponding RuntimeClass defined \
                 Overhead"
                    .into()
            }
            Refusal::SelectorConflict {
                key,
                class_value,
                pod_value,
            } => format!(
                "conflict: runtimeClass.scheduling.nodeSelector[{key}] = {class_value}; \
                 pod.spec.nodeSelector[{key}] = {pod_value}"
            ),
        }
    }

    fn korean(&self) -> String {
        match self {
            Refusal::ClassNotFound(name) => {
                format!("RuntimeClass \"{name}\"가 없어 파드가 거부됩니다")
            }
            Refusal::OverheadMismatch => {
                "파드의 overhead가 RuntimeClass의 overhead와 달라 파드가 거부됩니다".into()
            }
            Refusal::OverheadWithoutClass => {
                "overhead를 정하는 RuntimeClass 없이 파드에 overhead가 있어 파드가 거부됩니다"
                    .into()
            }
            Refusal::SelectorConflict {
                key,
                class_value,
                pod_value,
            } => format!(
                "RuntimeClass의 nodeSelector[{key}] = {class_value}와 파드의 \
                 nodeSelector[{key}] = {pod_value}가 충돌해 파드가 거부됩니다"
            ),
        }
    }

    fn help(&self) -> (String, String) {
        match self {
            Refusal::ClassNotFound(name) => (
                format!(
                    "add a RuntimeClass document (`apiVersion: node.k8s.io/v1`, `kind: \
                     RuntimeClass`, `metadata: {{name: {name}}}`, `handler: ...`), or remove \
                     `runtimeClassName`"
                ),
                format!(
                    "RuntimeClass 문서(`apiVersion: node.k8s.io/v1`, `kind: RuntimeClass`, \
                     `metadata: {{name: {name}}}`, `handler: ...`)를 추가하거나 \
                     `runtimeClassName`을 지우세요"
                ),
            ),
            Refusal::OverheadMismatch | Refusal::OverheadWithoutClass => (
                "remove `overhead`: admission sets it from the RuntimeClass's `overhead.podFixed`"
                    .into(),
                "`overhead`를 지우세요. admission이 RuntimeClass의 `overhead.podFixed`로 \
                 채웁니다"
                    .into(),
            ),
            Refusal::SelectorConflict { key, .. } => (
                format!("remove `{key}` from the pod's nodeSelector, or use another class"),
                format!("파드의 nodeSelector에서 `{key}`를 지우거나 다른 클래스를 쓰세요"),
            ),
        }
    }

    /// Which written field the finding points at.
    fn anchor(&self) -> &'static str {
        match self {
            Refusal::OverheadWithoutClass | Refusal::OverheadMismatch => POD_OVERHEAD,
            _ => "RuntimeClass",
        }
    }
}

/// The RuntimeClass plugin's `Admit` then `Validate` on one pod spec.
fn admit(spec: &mut PodSpec, classes: &BTreeMap<String, RuntimeClass>) -> Result<(), Refusal> {
    let class = match &spec.runtime_class_name {
        None => None,
        Some(name) => Some(
            classes
                .get(name)
                .ok_or_else(|| Refusal::ClassNotFound(name.clone()))?,
        ),
    };
    let class_overhead = class.and_then(|c| c.overhead);
    // setOverhead, then validateOverhead: a written overhead must be the class's exactly.
    match class_overhead {
        Some(overhead) => {
            if spec.overhead != Resources::ZERO && spec.overhead != overhead {
                return Err(Refusal::OverheadMismatch);
            }
            spec.overhead = overhead;
        }
        None if spec.overhead != Resources::ZERO => return Err(Refusal::OverheadWithoutClass),
        None => {}
    }
    // setScheduling.
    if let Some(class) = class {
        for (key, class_value) in &class.node_selector {
            match spec.node_selector.get(key) {
                Some(pod_value) if pod_value != class_value => {
                    return Err(Refusal::SelectorConflict {
                        key: key.clone(),
                        class_value: class_value.clone(),
                        pod_value: pod_value.clone(),
                    });
                }
                _ => {
                    spec.node_selector.insert(key.clone(), class_value.clone());
                }
            }
        }
        // `tolerations.MergeTolerations` also drops a toleration another one covers; keeping
        // it changes nothing a toleration check answers.
        for t in &class.tolerations {
            if !spec.tolerations.contains(t) {
                spec.tolerations.push(t.clone());
            }
        }
    }
    Ok(())
}

/// The reference a refusal points at, among an object's references.
fn anchor_of<'a>(refs: &'a [Ref], refusal: &Refusal, class: Option<&str>) -> Option<&'a Ref> {
    let kind = refusal.anchor();
    refs.iter()
        .find(|r| r.kind == kind && (kind != "RuntimeClass" || Some(r.name.as_str()) == class))
        .or_else(|| refs.iter().find(|r| r.kind == kind))
}

pub(super) fn runtime_classes(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>) {
    let classes: BTreeMap<String, RuntimeClass> = accepted
        .iter()
        .filter(|a| !a.dropped)
        .filter_map(|a| match &a.converted.object {
            Object::RuntimeClass(c) => Some((c.name.clone(), c.clone())),
            _ => None,
        })
        .collect();
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        match &mut a.converted.object {
            Object::Workload(w) if w.existing.is_empty() => {
                let class = w.template.spec.runtime_class_name.clone();
                let Err(refusal) = admit(&mut w.template.spec, &classes) else {
                    continue;
                };
                let bare = w.kind == WorkloadKind::Pod;
                let kind = w.kind.as_str();
                let (severity, message, ko) = if bare {
                    (
                        Severity::Error,
                        format!("the API server refuses this Pod: {}", refusal.message()),
                        format!("API 서버가 이 Pod를 거부합니다: {}", refusal.korean()),
                    )
                } else {
                    (
                        Severity::Warning,
                        format!(
                            "the {kind} is created, but every pod it creates is refused \
                             (FailedCreate: {}); it runs no pods",
                            refusal.message()
                        ),
                        format!(
                            "{kind}는 만들어지지만 만드는 파드마다 거부되어(FailedCreate: {}) \
                             파드가 하나도 뜨지 않습니다",
                            refusal.korean()
                        ),
                    )
                };
                let (path, pos) = anchor_of(&a.refs, &refusal, class.as_deref())
                    .map(|r| (r.path.clone(), r.pos))
                    .unwrap_or_else(|| ("metadata.name".into(), a.converted.name_pos));
                let (help, help_ko) = refusal.help();
                diagnostics.push(
                    diag(
                        severity,
                        Code::PodAdmission,
                        a,
                        &path,
                        pos,
                        message,
                        Some(help),
                    )
                    .with_ko(ko, Some(help_ko)),
                );
                if bare {
                    a.dropped = true;
                } else {
                    a.inert = true;
                }
            }
            Object::Timeline(steps) => {
                let mut refused = Vec::new();
                for (i, step) in steps.iter_mut().enumerate() {
                    let TimelineAction::Apply(object) = &mut step.step.action else {
                        continue;
                    };
                    let AppliedObject::Workload(w) = object.as_mut() else {
                        continue;
                    };
                    let class = w.template.spec.runtime_class_name.clone();
                    if let Err(refusal) = admit(&mut w.template.spec, &classes) {
                        refused.push((i, refusal, class, w.kind.as_str()));
                    }
                }
                for (i, refusal, class, kind) in refused.iter().rev() {
                    let (path, pos) = anchor_of(&a.refs, refusal, class.as_deref())
                        .map(|r| (r.path.clone(), r.pos))
                        .unwrap_or_else(|| ("spec.steps".into(), a.converted.name_pos));
                    let (help, help_ko) = refusal.help();
                    diagnostics.push(
                        diag(
                            Severity::Warning,
                            Code::PodAdmission,
                            a,
                            &path,
                            pos,
                            format!(
                                "the API server refuses this step's {kind} pods ({}); the \
                                 step is skipped",
                                refusal.message()
                            ),
                            Some(help),
                        )
                        .with_ko(
                            format!(
                                "API 서버가 이 단계의 {kind} 파드를 거부하므로({}) 단계를 \
                                 건너뜁니다",
                                refusal.korean()
                            ),
                            Some(help_ko),
                        ),
                    );
                    if let Object::Timeline(steps) = &mut a.converted.object {
                        steps.remove(*i);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpg_core::resources::ResourceName;

    fn class(overhead_cpu: Option<i64>) -> BTreeMap<String, RuntimeClass> {
        let mut c = RuntimeClass {
            name: "kata".into(),
            overhead: overhead_cpu.map(|m| Resources::ZERO.with(ResourceName::Cpu, m)),
            ..RuntimeClass::default()
        };
        c.node_selector.insert("runtime".into(), "kata".into());
        BTreeMap::from([("kata".to_string(), c)])
    }

    #[test]
    fn a_class_gives_its_overhead_and_node_selector() {
        let mut spec = PodSpec {
            runtime_class_name: Some("kata".into()),
            ..PodSpec::default()
        };
        admit(&mut spec, &class(Some(250))).expect("admitted");
        assert_eq!(spec.overhead.cpu(), 250);
        assert_eq!(spec.node_selector["runtime"], "kata");
    }

    #[test]
    fn admission_refuses_what_the_plugin_refuses() {
        let mut missing = PodSpec {
            runtime_class_name: Some("gvisor".into()),
            ..PodSpec::default()
        };
        assert_eq!(
            admit(&mut missing, &class(None)),
            Err(Refusal::ClassNotFound("gvisor".into()))
        );
        let mut written = PodSpec {
            overhead: Resources::ZERO.with(ResourceName::Cpu, 100),
            ..PodSpec::default()
        };
        assert_eq!(
            admit(&mut written, &class(None)),
            Err(Refusal::OverheadWithoutClass)
        );
        written.runtime_class_name = Some("kata".into());
        assert_eq!(
            admit(&mut written.clone(), &class(Some(250))),
            Err(Refusal::OverheadMismatch)
        );
        assert_eq!(admit(&mut written, &class(Some(100))), Ok(()));
        let mut conflict = PodSpec {
            runtime_class_name: Some("kata".into()),
            ..PodSpec::default()
        };
        conflict
            .node_selector
            .insert("runtime".into(), "runc".into());
        assert!(matches!(
            admit(&mut conflict, &class(None)),
            Err(Refusal::SelectorConflict { .. })
        ));
    }
}

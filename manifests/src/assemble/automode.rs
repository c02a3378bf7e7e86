//! EKS Auto Mode across documents: which Karpenter runs the nodes (written in the Cluster, or
//! inferred from the NodeClasses the scenario uses), the built-in NodePools and NodeClass EKS
//! adds, and the pre-flight checks of EKS's *Migrate from Karpenter to EKS Auto Mode*
//! (`auto-migrate-karpenter`) and *Enable or Disable Built-in NodePools*
//! (`set-builtin-node-pools`) as findings.

use kpg_core::automode::{self, BuiltinPools, Mode};
use kpg_core::karpenter::Version;
use kpg_core::model::{AppliedObject, NodePool, TimelineAction};
use kpg_core::taints::TaintEffect;
use kpg_core::wellknown;

use super::{Accepted, WithKorean, diag};
use crate::codes::Code;
use crate::convert::Object;
use crate::diagnostic::{Diagnostic, Severity};

/// What the scenario's Auto Mode is, once every document is read.
pub(super) struct AutoMode {
    /// The mode the engine plays (`Cluster.spec.karpenter.mode`, or inferred).
    pub mode: Mode,
}

/// Decides the mode, drops NodePools that would replace a built-in one, and reports the
/// migration pre-flight checks. Runs before references are checked.
pub(super) fn resolve(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>) -> AutoMode {
    let cluster = accepted
        .iter()
        .rposition(|a| !a.dropped && matches!(a.converted.object, Object::Cluster(_)));
    let (written_mode, written) = match cluster.map(|i| &accepted[i].converted) {
        Some(c) => {
            let karpenter = c.written.tree.at(&["spec", "karpenter"]);
            let said =
                karpenter.is_some_and(|k| k.get("mode").is_some() || k.get("autoMode").is_some());
            let mode = match &c.object {
                Object::Cluster(cl) => cl.karpenter.mode.clone(),
                _ => Mode::SelfManaged,
            };
            (mode, said)
        }
        None => (Mode::SelfManaged, false),
    };

    // Where the scenario uses an Auto Mode NodeClass: a NodePool's reference, or a NodeClass.
    let mut uses: Vec<(usize, String, crate::yaml::Pos)> = Vec::new();
    for (i, a) in accepted.iter().enumerate().filter(|(_, a)| !a.dropped) {
        for r in a.refs.iter().filter(|r| r.kind == automode::KIND) {
            uses.push((i, r.path.clone(), r.pos));
        }
        if let Object::NodeClass(nc) = &a.converted.object
            && nc.auto_mode.is_some()
        {
            uses.push((i, "metadata.name".into(), a.converted.name_pos));
        }
        if let Object::Timeline(steps) = &a.converted.object {
            for s in steps {
                if let TimelineAction::Apply(obj) = &s.step.action {
                    let auto = match obj.as_ref() {
                        AppliedObject::NodePool(np) => np.node_class_ref.is_auto_mode(),
                        AppliedObject::NodeClass(nc) => nc.auto_mode.is_some(),
                        _ => false,
                    };
                    if auto {
                        uses.push((i, "spec.steps".into(), a.converted.name_pos));
                    }
                }
            }
        }
    }

    let mode = if written {
        if written_mode == Mode::SelfManaged {
            for (i, path, pos) in &uses {
                diagnostics.push(
                    diag(
                        Severity::Warning,
                        Code::AutoModeOff,
                        &accepted[*i],
                        path,
                        *pos,
                        "this is an EKS Auto Mode NodeClass, but the Cluster says \
                         `spec.karpenter.mode: self-managed`: no controller serves it, and its \
                         NodePools never launch nodes"
                            .into(),
                        Some(
                            "set `spec.karpenter.mode: eks-auto-mode` in the Cluster document, or \
                             point the NodePool at an EC2NodeClass"
                                .into(),
                        ),
                    )
                    .with_ko(
                        "EKS Auto Mode NodeClass인데 Cluster에는 `spec.karpenter.mode: \
                         self-managed`라고 되어 있습니다. 처리하는 컨트롤러가 없어 그 NodePool은 \
                         노드를 띄우지 않습니다"
                            .into(),
                        Some(
                            "Cluster 문서에 `spec.karpenter.mode: eks-auto-mode`를 쓰거나 \
                             NodePool이 EC2NodeClass를 가리키게 하세요"
                                .into(),
                        ),
                    ),
                );
            }
        }
        written_mode
    } else if let Some((i, path, pos)) = uses.first() {
        diagnostics.push(
            diag(
                Severity::Warning,
                Code::AutoModeInferred,
                &accepted[*i],
                path,
                *pos,
                "an EKS Auto Mode NodeClass (eks.amazonaws.com): the scenario is simulated as EKS \
                 Auto Mode, with its built-in NodeClass `default` and no built-in NodePool"
                    .into(),
                Some(
                    "say it in the Cluster document: `spec.karpenter.mode: eks-auto-mode` (which \
                     switches on the built-in NodePools general-purpose and system unless \
                     `spec.karpenter.autoMode.nodePools` lists others)"
                        .into(),
                ),
            )
            .with_ko(
                "EKS Auto Mode NodeClass(eks.amazonaws.com)가 있어 시나리오를 EKS Auto Mode로 \
                 시뮬레이션합니다. 내장 NodeClass `default`는 있고 내장 NodePool은 없습니다"
                    .into(),
                Some(
                    "Cluster 문서에 `spec.karpenter.mode: eks-auto-mode`로 쓰세요(따로 \
                     `spec.karpenter.autoMode.nodePools`를 쓰지 않으면 내장 NodePool \
                     general-purpose와 system이 켜집니다)"
                        .into(),
                ),
            ),
        );
        Mode::EksAutoMode(BuiltinPools {
            general_purpose: false,
            system: false,
        })
    } else {
        Mode::SelfManaged
    };

    if let Mode::EksAutoMode(builtin) = &mode {
        builtin_names(accepted, diagnostics, *builtin);
        preflight(accepted, diagnostics, *builtin, cluster);
    }
    AutoMode { mode }
}

/// "You cannot modify the built-in system and general-purpose node pools. You can only enable
/// or disable them." (`create-node-pool`): a NodePool document of that name is refused.
fn builtin_names(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>, on: BuiltinPools) {
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        let Object::NodePool(np) = &a.converted.object else {
            continue;
        };
        let taken = (np.name == automode::GENERAL_PURPOSE && on.general_purpose)
            || (np.name == automode::SYSTEM && on.system);
        if !taken {
            continue;
        }
        let name = np.name.clone();
        diagnostics.push(
            diag(
                Severity::Error,
                Code::AutoModeBuiltinNodePool,
                a,
                "metadata.name",
                a.converted.name_pos,
                format!(
                    "`{name}` is a built-in EKS Auto Mode NodePool the Cluster switches on: it \
                     cannot be modified, only switched off"
                ),
                Some(format!(
                    "give this NodePool another name, or leave `{name}` out of \
                     `spec.karpenter.autoMode.nodePools` in the Cluster document"
                )),
            )
            .with_ko(
                format!(
                    "`{name}`는 Cluster가 켜 둔 EKS Auto Mode 내장 NodePool입니다. 수정할 수 없고 \
                     끄기만 할 수 있습니다"
                ),
                Some(format!(
                    "이 NodePool에 다른 이름을 붙이거나 Cluster 문서의 \
                     `spec.karpenter.autoMode.nodePools`에서 `{name}`를 빼세요"
                )),
            ),
        );
        a.dropped = true;
    }
}

/// The checks EKS's migration guide asks for before Karpenter and Auto Mode run side by side.
fn preflight(
    accepted: &[Accepted],
    diagnostics: &mut Vec<Diagnostic>,
    builtin: BuiltinPools,
    cluster: Option<usize>,
) {
    let pools = || {
        accepted
            .iter()
            .filter(|a| !a.dropped)
            .filter_map(|a| match &a.converted.object {
                Object::NodePool(np) => Some((a, np)),
                _ => None,
            })
    };
    let karpenter_beside = pools().any(|(_, np)| !np.node_class_ref.is_auto_mode());
    for (a, np) in pools().filter(|(_, np)| np.node_class_ref.is_auto_mode()) {
        pool_labels(a, np, diagnostics);
        if np.requirements.is_empty() {
            diagnostics.push(
                diag(
                    Severity::Warning,
                    Code::AutoModeNoRequirement,
                    a,
                    "spec.template.spec.requirements",
                    a.converted.name_pos,
                    "an EKS Auto Mode NodePool without requirements; EKS's migration guide asks \
                     for at least one"
                        .into(),
                    Some(
                        "add the requirements of the Karpenter NodePool it replaces, e.g. \
                         `eks.amazonaws.com/instance-category In [c, m, r]`"
                            .into(),
                    ),
                )
                .with_ko(
                    "요구 사항이 없는 EKS Auto Mode NodePool입니다. EKS 마이그레이션 가이드는 \
                     하나 이상을 요구합니다"
                        .into(),
                    Some(
                        "대체하는 Karpenter NodePool의 요구 사항을 넣으세요. 예: \
                         `eks.amazonaws.com/instance-category In [c, m, r]`"
                            .into(),
                    ),
                ),
            );
        }
        let tainted = np
            .taints
            .iter()
            .any(|t| matches!(t.effect, TaintEffect::NoSchedule | TaintEffect::NoExecute));
        if karpenter_beside && !tainted {
            diagnostics.push(
                diag(
                    Severity::Warning,
                    Code::AutoModeNotSelective,
                    a,
                    "spec.template.spec.taints",
                    a.converted.name_pos,
                    "beside self-managed Karpenter NodePools, this untainted EKS Auto Mode \
                     NodePool takes any workload, moved on purpose or not"
                        .into(),
                    Some(
                        "taint it (`taints: [{key: eks-auto-mode, effect: NoSchedule}]`) and give \
                         the workloads you move a toleration and `nodeSelector: \
                         {eks.amazonaws.com/compute-type: auto}`"
                            .into(),
                    ),
                )
                .with_ko(
                    "자체 관리형 Karpenter NodePool 옆에 있는 이 테인트 없는 EKS Auto Mode \
                     NodePool은 일부러 옮기지 않은 워크로드까지 받습니다"
                        .into(),
                    Some(
                        "테인트를 걸고(`taints: [{key: eks-auto-mode, effect: NoSchedule}]`) \
                         옮길 워크로드에 톨러레이션과 `nodeSelector: \
                         {eks.amazonaws.com/compute-type: auto}`를 주세요"
                            .into(),
                    ),
                ),
            );
        }
    }
    let Some(ci) = cluster else { return };
    let c = &accepted[ci];
    if karpenter_beside && builtin.general_purpose {
        diagnostics.push(
            diag(
                Severity::Warning,
                Code::AutoModeNotSelective,
                c,
                "spec.karpenter.autoMode.nodePools",
                c.converted.name_pos,
                "the built-in general-purpose NodePool is on beside self-managed Karpenter \
                 NodePools: it is not selective, and takes workloads not yet moved"
                    .into(),
                Some(
                    "during a migration leave it off: `spec.karpenter.autoMode.nodePools: \
                     [system]`"
                        .into(),
                ),
            )
            .with_ko(
                "자체 관리형 Karpenter NodePool 옆에 내장 general-purpose NodePool이 켜져 \
                 있습니다. 선택적이지 않아 아직 옮기지 않은 워크로드까지 받습니다"
                    .into(),
                Some(
                    "마이그레이션 중에는 끄세요: `spec.karpenter.autoMode.nodePools: [system]`"
                        .into(),
                ),
            ),
        );
    }
    if let Object::Cluster(cl) = &c.converted.object
        && karpenter_beside
        && cl.karpenter.version < Version::v1(1).unwrap_or(Version::OLDEST)
    {
        let version = cl.karpenter.version;
        diagnostics.push(
            diag(
                Severity::Warning,
                Code::AutoModeKarpenterVersion,
                c,
                "spec.karpenter.version",
                c.converted.name_pos,
                format!(
                    "Karpenter {version} beside EKS Auto Mode: EKS's migration guide needs \
                     Karpenter v1.1 or later (the NodePool and NodeClaim CRDs are shared)"
                ),
                Some("upgrade Karpenter first: `spec.karpenter.version: v1.1` or later".into()),
            )
            .with_ko(
                format!(
                    "EKS Auto Mode 옆의 Karpenter {version}: EKS 마이그레이션 가이드는 Karpenter \
                     v1.1 이상을 요구합니다(NodePool과 NodeClaim CRD를 함께 씁니다)"
                ),
                Some("먼저 Karpenter를 올리세요: `spec.karpenter.version: v1.1` 이상".into()),
            ),
        );
    }
}

/// A `karpenter.k8s.aws/` requirement (Auto Mode's names are `eks.amazonaws.com/`) and a
/// Windows requirement (Auto Mode runs Linux only) on an Auto Mode NodePool.
fn pool_labels(a: &Accepted, np: &NodePool, diagnostics: &mut Vec<Diagnostic>) {
    for r in &np.requirements {
        if let Some(eks) = automode::eks_key(&r.key) {
            let key = &r.key;
            diagnostics.push(
                diag(
                    Severity::Warning,
                    Code::AutoModeKarpenterLabel,
                    a,
                    "spec.template.spec.requirements",
                    a.converted.name_pos,
                    format!(
                        "`{key}` is self-managed Karpenter's label: EKS Auto Mode nodes carry \
                         `{eks}`, so this requirement matches no instance type"
                    ),
                    Some(format!("write `{eks}`")),
                )
                .with_ko(
                    format!(
                        "`{key}`는 자체 관리형 Karpenter의 레이블입니다. EKS Auto Mode 노드에는 \
                         `{eks}`가 붙으므로 이 요구 사항과 맞는 인스턴스 유형이 없습니다"
                    ),
                    Some(format!("`{eks}`로 쓰세요")),
                ),
            );
        }
        let windows = r.key == wellknown::WINDOWS_BUILD
            || (r.key == wellknown::OS
                && r.operator == kpg_core::requirements::Operator::In
                && r.values.iter().all(|v| v == "windows"));
        if windows {
            diagnostics.push(
                diag(
                    Severity::Warning,
                    Code::AutoModeLinuxOnly,
                    a,
                    "spec.template.spec.requirements",
                    a.converted.name_pos,
                    format!(
                        "`{}` asks for Windows: EKS Auto Mode runs Linux only, so the NodePool \
                         launches nothing",
                        r.key
                    ),
                    Some(
                        "run Windows workloads on a managed node group or self-managed \
                          Karpenter"
                            .into(),
                    ),
                )
                .with_ko(
                    format!(
                        "`{}`가 Windows를 요구합니다. EKS Auto Mode는 Linux만 실행하므로 이 \
                         NodePool은 노드를 띄우지 않습니다",
                        r.key
                    ),
                    Some(
                        "Windows 워크로드는 관리형 노드 그룹이나 자체 관리형 Karpenter에서 \
                         실행하세요"
                            .into(),
                    ),
                ),
            );
        }
    }
}

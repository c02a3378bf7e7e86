//! Why a pod is Pending, or why it landed where it did: Karpenter's provisioning decision
//! (each NodePool's checks) and kube-scheduler's filters per node.

use kpg_core::pod::{Phase, Pod};
use kpg_core::requirements::Incompatibility;
use kpg_core::resources::ResourceName;
use kpg_core::scheduling::PoolVerdict;
use kpg_core::scheduling::checks::PoolChecks;
use kpg_core::scheduling::kube::Rejection;
use kpg_core::sim::Simulation;
use kpg_core::sim::event::{EventKind, PodRef};
use kpg_core::sim::evidence::{KubeRecord, ProvisioningOutcome, ProvisioningRecord};

use crate::say::{self, Lang, Noun, say};
use crate::{Explanation, Line, NotFound, Section, Status, time};

fn find<'s>(sim: &'s Simulation, name: &str) -> Result<(usize, &'s Pod), NotFound> {
    let (ns, name) = name.split_once('/').unwrap_or(("default", name));
    let found = sim
        .pods()
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, p)| p.namespace == ns && p.name == name)
        .min_by_key(|(_, p)| p.deleted);
    found.ok_or_else(|| {
        let mut names: Vec<String> = sim
            .pods()
            .iter()
            .filter(|p| !p.deleted)
            .map(|p| format!("{}/{}", p.namespace, p.name))
            .collect();
        names.sort();
        let shown = if names.len() > 12 {
            format!("{}, …", names[..12].join(", "))
        } else {
            names.join(", ")
        };
        NotFound {
            message: format!(
                "no pod {ns}/{name} in the simulation at {}; pods: {shown}",
                time(sim.now())
            ),
        }
    })
}

pub fn explain(sim: &Simulation, name: &str, lang: Lang) -> Result<Explanation, NotFound> {
    let (p, pod) = find(sim, name)?;
    let full = format!("{}/{}", pod.namespace, pod.name);
    let record = sim.evidence().provisioning(p);
    let kube = sim.evidence().scheduling(p);
    let mut sections = Vec::new();
    let checks = record.map(|r| r.pool_checks(pod)).unwrap_or_default();
    if let Some(r) = record {
        sections.push(karpenter_section(sim, r, lang));
        if r.pass.is_some() {
            sections.push(pools_section(sim, r, &checks, lang));
        }
    }
    if let Some(k) = kube {
        sections.push(kube_section(sim, k, lang));
    }
    let volumes = volumes_section(sim, p, lang);
    let mut summary = summary(sim, pod, &full, record, &checks, kube, lang);
    if let Some((section, zone)) = volumes {
        // The zone a volume decides is part of the answer.
        if let Some(zone) = zone {
            summary = format!("{summary} {zone}.");
        }
        sections.push(section);
    }
    Ok(Explanation {
        kind: "pod".into(),
        name: full,
        time: time(sim.now()),
        summary,
        sections,
    })
}

/// The pod's claims: what each is bound to, and the sentence that says which claim decides
/// the pod's zone ("zone us-east-1b: claim data-db-0 is bound to a volume in us-east-1b").
fn volumes_section(sim: &Simulation, p: usize, lang: Lang) -> Option<(Section, Option<String>)> {
    let claims = sim.pod_claim_states(p);
    if claims.is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    let mut decides = None;
    for (name, state, zone) in claims {
        let line = match (&state, &zone) {
            (None, _) => Line::new(
                Status::Fail,
                say!(
                    lang,
                    "claim {} does not exist: kube-scheduler keeps the pod off every node \
                     and Karpenter ignores it",
                    "클레임 {}이 없음: kube-scheduler는 파드를 어느 노드에도 두지 않고 \
                     Karpenter는 무시함",
                    name
                ),
            ),
            (Some(_), Some(zone)) => {
                let text = say!(
                    lang,
                    "zone {}: claim {} is bound to a volume in {}",
                    "가용 영역 {}: 클레임 {}은 {}의 볼륨에 바인딩되어 있음",
                    zone,
                    name,
                    zone
                );
                decides.get_or_insert_with(|| {
                    let mut t = text.clone();
                    if let Some(first) = t.get(..1) {
                        t = format!("{}{}", first.to_uppercase(), &t[1..]);
                    }
                    t
                });
                Line::new(Status::Chosen, text)
            }
            (Some(c), None) if c.lost => Line::new(
                Status::Fail,
                say!(
                    lang,
                    "claim {} is lost: its volume no longer exists",
                    "클레임 {}은 Lost 상태: 볼륨이 더 이상 없음",
                    name
                ),
            ),
            (Some(c), None) => match &c.volume {
                Some(v) => Line::new(
                    Status::Pass,
                    say!(
                        lang,
                        "claim {} is bound to volume {}, which every zone can reach",
                        "클레임 {}은 모든 가용 영역에서 쓸 수 있는 볼륨 {}에 바인딩되어 있음",
                        name,
                        v
                    ),
                ),
                None => Line::new(
                    Status::Info,
                    say!(
                        lang,
                        "claim {} is not bound yet: a WaitForFirstConsumer volume is \
                     provisioned in the zone of the node its first pod is bound to",
                        "클레임 {}은 아직 바인딩되지 않음: WaitForFirstConsumer 볼륨은 첫 \
                     파드가 바인딩된 노드의 가용 영역에 만들어짐",
                        name
                    ),
                ),
            },
        };
        lines.push(line.about(&name));
    }
    let section = Section {
        id: "volumes".into(),
        title: say!(lang, "Volumes", "볼륨"),
        at: None,
        lines,
    };
    Some((section, decides))
}

fn node_name(sim: &Simulation, n: usize) -> String {
    sim.nodes()
        .get(n)
        .map(|n| n.name.clone())
        .unwrap_or_default()
}

fn node_desc(sim: &Simulation, n: usize, lang: Lang) -> String {
    let Some(node) = sim.nodes().get(n) else {
        return String::new();
    };
    let pool = node
        .nodepool
        .and_then(|i| sim.node_pools().nth(i))
        .map(|(np, _)| np.name.clone());
    let owner = match (pool, &node.node_group) {
        (Some(p), _) => say!(lang, "NodePool {}", "NodePool {}", p),
        (None, Some(g)) => say!(
            lang,
            "node group {}, not managed by Karpenter",
            "노드 그룹 {}, Karpenter가 관리하지 않음",
            g
        ),
        (None, None) => say!(
            lang,
            "not managed by Karpenter",
            "Karpenter가 관리하지 않음"
        ),
    };
    format!(
        "{} ({}, {} {}, {})",
        node.name,
        node.instance_type,
        node.capacity_type.as_str(),
        node.zone,
        owner
    )
}

fn summary(
    sim: &Simulation,
    pod: &Pod,
    full: &str,
    record: Option<&ProvisioningRecord>,
    checks: &[(PoolChecks, PoolVerdict)],
    kube: Option<&KubeRecord>,
    lang: Lang,
) -> String {
    if let Some(s) = preemption(sim, pod, full, lang) {
        return s;
    }
    if pod.deleted {
        return say!(lang, "{} was deleted.", "{}는 삭제되었습니다.", full);
    }
    if let Some(n) = pod.node {
        let phase = if pod.phase == Phase::Succeeded {
            say!(
                lang,
                "ran to completion on",
                "다음 노드에서 실행을 마쳤습니다:"
            )
        } else {
            say!(lang, "runs on", "다음 노드에서 실행 중입니다:")
        };
        let mut s = format!("{full} {phase} {}.", node_desc(sim, n, lang));
        match record.map(|r| &r.outcome) {
            Some(ProvisioningOutcome::NewClaim(c)) if *c == n => {
                let pool = checks
                    .iter()
                    .find(|(_, v)| *v == PoolVerdict::Took)
                    .map(|(c, _)| c.nodepool.clone())
                    .unwrap_or_default();
                let earlier: Vec<String> = checks
                    .iter()
                    .take_while(|(_, v)| *v != PoolVerdict::Took)
                    .map(|(c, _)| c.nodepool.clone())
                    .collect();
                s.push(' ');
                if earlier.is_empty() {
                    s.push_str(&say!(
                        lang,
                        "Karpenter launched the node for it: {} is the first NodePool in \
                         Karpenter's order (weight, then name in reverse order), and the pod \
                         passed all its checks.",
                        "Karpenter가 이 파드를 위해 노드를 띄웠습니다. {}는 Karpenter가 NodePool을 \
                         시도하는 순서(가중치, 그다음 이름 역순)에서 첫 번째이고, 파드가 모든 \
                         검사를 통과했습니다.",
                        pool
                    ));
                } else {
                    s.push_str(&say!(
                        lang,
                        "Karpenter launched the node for it from NodePool {} \
                         after {} could not take it.",
                        "Karpenter가 {}에서 노드를 띄웠습니다. 앞선 {}는 이 \
                         파드를 받을 수 없었습니다.",
                        pool,
                        say::list(&earlier, lang)
                    ));
                }
            }
            Some(ProvisioningOutcome::NewClaim(c)) => {
                s.push(' ');
                s.push_str(&say!(
                    lang,
                    "Karpenter had launched {} for it, but kube-scheduler bound it to another node \
                     that had room first.",
                    "Karpenter가 이 파드를 위해 {}를 띄웠지만, kube-scheduler가 먼저 자리가 난 \
                     다른 노드에 배치했습니다.",
                    node_name(sim, *c)
                ));
            }
            Some(ProvisioningOutcome::Existing(e)) => {
                s.push(' ');
                s.push_str(&say!(
                    lang,
                    "Karpenter found room for it on {}, already running or \
                     launching, so it launched nothing.",
                    "Karpenter는 이미 실행 중이거나 뜨는 중인 {}에서 자리를 찾았으므로 \
                     새 노드를 띄우지 않았습니다.",
                    node_name(sim, *e)
                ));
            }
            _ => {
                s.push(' ');
                s.push_str(&say!(
                    lang,
                    "kube-scheduler placed it on an existing node with \
                     room; Karpenter was not needed.",
                    "kube-scheduler가 자리가 있는 기존 노드에 배치했으므로 \
                     Karpenter는 필요하지 않았습니다."
                ));
            }
        }
        if let Some(k) = kube.filter(|k| k.chosen == Some(n)) {
            s.push(' ');
            s.push_str(&say!(
                lang,
                "kube-scheduler bound it at {}: {} of {} passed its filters \
                 and this one scored highest.",
                "kube-scheduler가 {0}에 배치했습니다. {2} 중 {1}개가 필터를 통과했고 이 \
                 노드의 점수가 가장 높았습니다.",
                time(k.at),
                k.feasible,
                say::count(k.considered, Noun::Node, lang)
            ));
        }
        return s;
    }
    if pod.phase != Phase::Pending {
        return format!("{full}: {}", pod.phase.as_str());
    }
    match record.map(|r| &r.outcome) {
        Some(ProvisioningOutcome::Ignored(msg)) => say!(
            lang,
            "{} is Pending and Karpenter ignores it: {}",
            "{}는 Pending이며 Karpenter가 무시합니다: {}",
            full,
            msg
        ),
        Some(ProvisioningOutcome::Failed(_)) => {
            let reasons: Vec<String> = checks
                .iter()
                .map(|(c, v)| format!("{} ({})", c.nodepool, first_obstacle(c, v, lang)))
                .collect();
            let pools = if reasons.is_empty() {
                say!(
                    lang,
                    "there is no Ready NodePool",
                    "Ready 상태인 NodePool이 없습니다"
                )
            } else {
                say!(
                    lang,
                    "no NodePool can launch a node for it: {}",
                    "어떤 NodePool도 노드를 띄울 수 없습니다: {}",
                    reasons.join("; ")
                )
            };
            say!(
                lang,
                "{} is Pending: no existing node has room for it and {}.",
                "{}는 Pending입니다. 자리가 있는 기존 노드가 없고, {}.",
                full,
                pools
            )
        }
        Some(ProvisioningOutcome::NewClaim(n)) | Some(ProvisioningOutcome::Existing(n)) => say!(
            lang,
            "{} is Pending: Karpenter nominated it for {}; kube-scheduler \
             binds it once that node is Ready.",
            "{}는 Pending입니다. Karpenter가 {}에 배정했고, 그 노드가 Ready가 되면 \
             kube-scheduler가 배치합니다.",
            full,
            node_name(sim, *n)
        ),
        None if pod.spec.node_name.is_some() => say!(
            lang,
            "{} is Pending: it names its node (spec.nodeName), so neither scheduler places it.",
            "{}는 Pending입니다. spec.nodeName으로 노드를 지정했으므로 어느 \
             스케줄러도 배치하지 않습니다.",
            full
        ),
        None => say!(
            lang,
            "{} is Pending: Karpenter has not looked at it yet (its batch window waits 1 s of \
             quiet, at most 10 s).",
            "{}는 Pending입니다. Karpenter가 아직 보지 않았습니다(배치 창은 1초의 조용한 시간, \
             최대 10초를 기다립니다).",
            full
        ),
    }
}

/// kube-scheduler's preemption as it touched the pod: preempted (terminating, or gone), or
/// nominated to a node where it preempted pods and waits for their room.
fn preemption(sim: &Simulation, pod: &Pod, full: &str, lang: Lang) -> Option<String> {
    let is = |r: &PodRef| r.namespace == pod.namespace && r.name == pod.name;
    let preempted = sim.events().iter().rev().find_map(|e| match &e.kind {
        EventKind::Preempted {
            pod: victim,
            by,
            node,
        } if is(victim) => Some((e.time, by, node)),
        _ => None,
    });
    if let Some((at, by, node)) = preempted {
        let priority = |r: &PodRef| {
            sim.pods()
                .iter()
                .rev()
                .find(|p| p.namespace == r.namespace && p.name == r.name)
                .map_or(0, |p| p.spec.priority)
        };
        let what = say!(
            lang,
            "{} was preempted at {}: kube-scheduler deleted it (priority {}) to make room on {} \
             for {}/{} (priority {}), and its controller created a replacement.",
            "{}는 {}에 선점되었습니다. kube-scheduler가 우선순위 {}인 이 파드를 지워 {}에 \
             {}/{}(우선순위 {})의 자리를 만들었고, 컨트롤러가 대체 파드를 만들었습니다.",
            full,
            time(at),
            pod.spec.priority,
            node,
            by.namespace,
            by.name,
            priority(by)
        );
        return Some(match pod.preempted_until.filter(|_| !pod.deleted) {
            Some(until) => format!(
                "{what} {}",
                say!(
                    lang,
                    "It terminates until {} (its grace period) and holds its room until then.",
                    "유예 기간이 끝나는 {}까지 종료 중이며 그때까지 자리를 차지합니다.",
                    time(until)
                )
            ),
            None => what,
        });
    }
    let n = pod
        .nominated_node
        .filter(|_| pod.node.is_none() && !pod.deleted)?;
    let victims = sim
        .events()
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Preempted { by, .. } if is(by)))
        .count();
    Some(say!(
        lang,
        "{} is Pending: kube-scheduler preempted {} of lower priority on {} and nominated it \
         there (status.nominatedNodeName); it waits for their grace period to end and binds \
         then. Karpenter leaves a nominated pod alone and launches nothing for it.",
        "{0}는 Pending입니다. kube-scheduler가 {2}에서 우선순위가 낮은 {1}를 선점하고 이 파드를 \
         그 노드에 지명했습니다(status.nominatedNodeName). 유예 기간이 끝나면 배치됩니다. \
         Karpenter는 지명된 파드를 건드리지 않으며 노드를 띄우지 않습니다.",
        full,
        say::count(victims as u32, Noun::Pod, lang),
        node_name(sim, n)
    ))
}

/// The first check that fails, in a few words (for the summary).
fn first_obstacle(c: &PoolChecks, verdict: &PoolVerdict, lang: Lang) -> String {
    if let Err(t) = &c.taints {
        return say!(
            lang,
            "does not tolerate taint {}",
            "테인트 {}를 허용하지 않음",
            t
        );
    }
    if !c.requirements.passes() {
        return requirements_text(c, lang);
    }
    if !c.resources.passes() {
        return resources_text(c, lang);
    }
    if !c.offerings.passes() {
        return offerings_text(c, lang);
    }
    if !c.limits.passes() {
        return limits_text(c, lang);
    }
    match verdict {
        PoolVerdict::Refused(msg) => msg.clone(),
        _ => say!(lang, "passes every check", "모든 검사 통과"),
    }
}

fn karpenter_section(sim: &Simulation, r: &ProvisioningRecord, lang: Lang) -> Section {
    let mut lines = Vec::new();
    let line = match &r.outcome {
        ProvisioningOutcome::NewClaim(n) => Line::new(
            Status::Chosen,
            say!(
                lang,
                "launched NodeClaim {} for it",
                "이 파드를 위해 NodeClaim {}를 띄움",
                node_name(sim, *n)
            ),
        )
        .about(&node_name(sim, *n)),
        ProvisioningOutcome::Existing(n) => Line::new(
            Status::Chosen,
            say!(
                lang,
                "nominated it for {}, which had room",
                "자리가 있는 {}에 배정함",
                node_name(sim, *n)
            ),
        )
        .about(&node_name(sim, *n)),
        ProvisioningOutcome::Failed(msg) => Line::new(
            Status::Fail,
            say!(
                lang,
                "could not schedule it: {}",
                "스케줄할 수 없음: {}",
                msg
            ),
        ),
        ProvisioningOutcome::Ignored(msg) => Line::new(
            Status::Info,
            say!(lang, "ignores it: {}", "무시함: {}", msg),
        ),
    };
    lines.push(line);
    if r.relaxed {
        lines.push(Line::new(
            Status::Info,
            say!(
                lang,
                "its preferences (preferred affinity, ScheduleAnyway \
                 spreads) had to be relaxed first",
                "먼저 선호 조건(preferred affinity, ScheduleAnyway 분산)을 완화해야 했음"
            ),
        ));
    }
    Section {
        id: "karpenter".into(),
        title: say!(lang, "Karpenter", "Karpenter"),
        at: Some(time(r.at)),
        lines,
    }
}

fn pools_section(
    sim: &Simulation,
    r: &ProvisioningRecord,
    checks: &[(PoolChecks, PoolVerdict)],
    lang: Lang,
) -> Section {
    let mut lines = Vec::new();
    let took = checks.iter().any(|(_, v)| *v == PoolVerdict::Took);
    for (c, verdict) in checks {
        let pool = &c.nodepool;
        let weight = sim
            .node_pools()
            .find(|(np, _)| &np.name == pool)
            .map_or(0, |(np, _)| np.weight);
        let verdict_line = match verdict {
            PoolVerdict::Took => Line::new(
                Status::Chosen,
                say!(
                    lang,
                    "weight {}: took the pod",
                    "가중치 {}: 파드를 받음",
                    weight
                ),
            ),
            PoolVerdict::Refused(msg) => Line::new(
                Status::Fail,
                say!(
                    lang,
                    "weight {}: refused: {}",
                    "가중치 {}: 거절: {}",
                    weight,
                    msg
                ),
            ),
            PoolVerdict::NotTried if c.passes() => {
                let why = if took {
                    say!(
                        lang,
                        "a NodePool earlier in the order took it",
                        "순서상 앞선 NodePool이 받음"
                    )
                } else {
                    say!(
                        lang,
                        "an existing node or NodeClaim had room",
                        "기존 노드나 NodeClaim에 자리가 있었음"
                    )
                };
                Line::new(
                    Status::Pass,
                    say!(
                        lang,
                        "weight {}: could take it, not needed: {}",
                        "가중치 {}: 받을 수 있지만 필요 없었음: {}",
                        weight,
                        why
                    ),
                )
            }
            PoolVerdict::NotTried => Line::new(
                Status::Skipped,
                say!(
                    lang,
                    "weight {}: not tried",
                    "가중치 {}: 시도하지 않음",
                    weight
                ),
            ),
        };
        lines.push(verdict_line.about(pool).check("verdict"));
        let mark = |ok: bool| if ok { Status::Pass } else { Status::Fail };
        let taints = match &c.taints {
            Ok(()) => say!(
                lang,
                "tolerates every taint of the NodePool",
                "NodePool의 모든 테인트를 허용함"
            ),
            Err(t) => say!(
                lang,
                "does not tolerate taint {}",
                "테인트 {}를 허용하지 않음",
                t
            ),
        };
        lines.push(
            Line::new(mark(c.taints.is_ok()), taints)
                .about(pool)
                .check("taints"),
        );
        lines.push(
            Line::new(mark(c.requirements.passes()), requirements_text(c, lang))
                .about(pool)
                .check("requirements"),
        );
        lines.push(
            Line::new(mark(c.resources.passes()), resources_text(c, lang))
                .about(pool)
                .check("resources"),
        );
        lines.push(
            Line::new(mark(c.offerings.passes()), offerings_text(c, lang))
                .about(pool)
                .check("offerings"),
        );
        lines.push(
            Line::new(mark(c.limits.passes()), limits_text(c, lang))
                .about(pool)
                .check("limits"),
        );
    }
    // NodePools the pass did not consider at all.
    let considered: Vec<&str> = checks.iter().map(|(c, _)| c.nodepool.as_str()).collect();
    for (i, (np, deleted)) in sim.node_pools().enumerate() {
        if deleted || considered.contains(&np.name.as_str()) {
            continue;
        }
        let why = sim.node_pool_not_ready(i).unwrap_or_else(|| {
            say!(
                lang,
                "its requirements leave no instance type with an offering \
                 (NoCompatibleInstanceTypes)",
                "요구 사항에 맞고 오퍼링이 있는 인스턴스 유형이 없음(NoCompatibleInstanceTypes)"
            )
        });
        lines.push(
            Line::new(Status::Fail, say!(lang, "skipped: {}", "건너뜀: {}", why))
                .about(&np.name)
                .check("verdict"),
        );
    }
    let at = r.pass.as_ref().map(|p| time(p.at));
    Section {
        id: "nodepools".into(),
        title: say!(
            lang,
            "NodePools, in the order Karpenter tries them (weight, then name in reverse order)",
            "NodePool (Karpenter가 시도하는 순서: 가중치, 그다음 이름 역순)"
        ),
        at,
        lines,
    }
}

fn requirements_text(c: &PoolChecks, lang: Lang) -> String {
    match &c.requirements.pool {
        Err(Incompatibility::UndefinedKey { key, hint }) => {
            let hint = hint
                .as_ref()
                .map(|h| say!(lang, " (a typo of {}?)", " ({}의 오타?)", h))
                .unwrap_or_default();
            say!(
                lang,
                "the pod selects label {}{}, which this NodePool does not define: add it to the \
                 template's labels, or a requirement with operator Exists",
                "파드가 레이블 {}{}를 선택하지만 이 NodePool은 그 키를 정의하지 않음: 템플릿 \
                 레이블이나 operator Exists 요구 사항으로 추가해야 함",
                key,
                hint
            )
        }
        Err(Incompatibility::Disjoint {
            key,
            incoming,
            existing,
        }) => say!(
            lang,
            "{}: the pod needs {}, the NodePool allows {}",
            "{}: 파드는 {}가 필요하지만 NodePool은 {}만 허용함",
            key,
            incoming,
            existing
        ),
        Ok(()) if c.requirements.meeting == 0 => say!(
            lang,
            "none of the NodePool's {} meets the pod's requirements {}",
            "NodePool의 {} 중 파드의 요구 사항 {}를 만족하는 것이 없음",
            say::count(c.candidates, Noun::InstanceType, lang),
            c.requirements.pod
        ),
        Ok(()) => say!(
            lang,
            "{} of the NodePool's {} meet the pod's requirements",
            "NodePool의 {1} 중 {0}개가 파드의 요구 사항을 만족함",
            c.requirements.meeting,
            say::count(c.candidates, Noun::InstanceType, lang)
        ),
    }
}

fn resources_text(c: &PoolChecks, lang: Lang) -> String {
    let r = &c.resources;
    let overhead = if r
        .daemon_overhead
        .iter()
        .any(|(n, v)| n != ResourceName::Pods && v != 0)
    {
        say!(
            lang,
            " after DaemonSet overhead {}",
            " (DaemonSet 오버헤드 {} 제외)",
            say::resources(&r.daemon_overhead)
        )
    } else {
        String::new()
    };
    if let Some(p) = &r.port_held {
        return say!(
            lang,
            "asks for host port {}/{}, which the NodePool's DaemonSet pods already hold on every \
             instance type left: no new node of this pool could run it",
            "호스트 포트 {}/{}를 요청하지만 남은 모든 인스턴스 유형에서 NodePool의 DaemonSet \
             파드가 이미 그 포트를 쓰고 있음: 이 풀의 새 노드로는 실행할 수 없음",
            p.port,
            p.protocol
        );
    }
    let asks = r
        .requests
        .iter()
        .any(|(n, v)| n != ResourceName::Pods && v != 0);
    if r.passes() && !asks {
        return say!(
            lang,
            "the pod requests no cpu or memory; room for one more pod on {}",
            "파드가 cpu나 메모리를 요청하지 않음; {}에 파드 하나를 더 둘 자리가 있음",
            say::count(r.fitting, Noun::InstanceType, lang)
        );
    }
    if r.passes() {
        return say!(
            lang,
            "room for {1} on {0}{2}",
            "{0}에 {1}를 위한 자리가 있음{2}",
            say::count(r.fitting, Noun::InstanceType, lang),
            say::resources(&r.requests),
            overhead
        );
    }
    let short: Vec<String> = r
        .short
        .iter()
        .map(|&n| format!("{} {}", n.as_str(), say::amount(n, r.requests.get(n))))
        .collect();
    match &r.roomiest {
        Some((name, room)) => {
            let has: Vec<String> = r
                .short
                .iter()
                .map(|&n| format!("{} {}", n.as_str(), say::amount(n, room.get(n))))
                .collect();
            let (needs, has) = if short.is_empty() {
                (say::resources(&r.requests), say::resources(room))
            } else {
                (say::list(&short, lang), say::list(&has, lang))
            };
            say!(
                lang,
                "needs {}; the roomiest instance type, {}, has {}{}",
                "{}가 필요하지만 가장 여유 있는 인스턴스 유형 {}도 {}뿐임{}",
                needs,
                name,
                has,
                overhead
            )
        }
        None => say!(
            lang,
            "needs {}; no instance type is left to hold it",
            "{}가 필요하지만 남은 인스턴스 유형이 없음",
            say::resources(&r.requests)
        ),
    }
}

fn offerings_text(c: &PoolChecks, lang: Lang) -> String {
    let o = &c.offerings;
    let zones = o
        .zones
        .as_ref()
        .map_or_else(|| say!(lang, "any zone", "모든 가용 영역"), say::allowed);
    let cts = o.capacity_types.as_ref().map_or_else(
        || say!(lang, "any capacity type", "모든 용량 유형"),
        say::allowed,
    );
    if o.passes() {
        say!(
            lang,
            "{} offered in {} as {}",
            "{}가 {}에서 {}로 제공됨",
            say::count(o.offering, Noun::InstanceType, lang),
            zones,
            cts
        )
    } else {
        say!(
            lang,
            "no instance type left is offered in {} as {}",
            "남은 인스턴스 유형 중 {}에서 {}로 제공되는 것이 없음",
            zones,
            cts
        )
    }
}

fn limits_text(c: &PoolChecks, lang: Lang) -> String {
    let l = &c.limits;
    if l.resources.is_empty() && l.nodes.is_none() {
        return say!(
            lang,
            "the NodePool sets no limits",
            "NodePool에 limits가 없음"
        );
    }
    let mut parts: Vec<String> = l
        .resources
        .iter()
        .map(|&(r, limit, left)| {
            say!(
                lang,
                "{} {} of {} left",
                "{0} {2} 중 {1} 남음",
                r.as_str(),
                say::amount(r, left.max(0)),
                say::amount(r, limit)
            )
        })
        .collect();
    if let Some((limit, left)) = l.nodes {
        parts.push(say!(
            lang,
            "nodes {} of {} left",
            "nodes {1} 중 {0} 남음",
            left.max(0),
            limit
        ));
    }
    let needed = l.smallest.as_ref().map(|(name, cap)| {
        let needs: Vec<String> = l
            .resources
            .iter()
            .map(|&(r, _, _)| format!("{} {}", r.as_str(), say::amount(r, cap.get(r))))
            .collect();
        say!(
            lang,
            "; the smallest instance type that fits, {}, needs {}",
            "; 들어맞는 가장 작은 인스턴스 유형 {}에는 {}가 필요함",
            name,
            say::list(&needs, lang)
        )
    });
    format!("{}{}", parts.join(", "), needed.unwrap_or_default())
}

fn rejection_text(r: &Rejection, lang: Lang) -> String {
    match lang {
        Lang::En => r.phrases().join(", "),
        Lang::Ko => match r {
            Rejection::Unschedulable => "노드가 스케줄 불가(cordon) 상태".into(),
            Rejection::Taint(t) => format!("허용하지 않는 테인트 {t}"),
            Rejection::NodeAffinity => "파드의 node affinity/selector와 맞지 않음".into(),
            Rejection::Ports => "요청한 hostPort가 이미 사용 중".into(),
            Rejection::Insufficient(rs) => rs
                .iter()
                .map(|r| {
                    if *r == "pods" {
                        "파드 수 초과".to_string()
                    } else {
                        format!("{r} 부족")
                    }
                })
                .collect::<Vec<_>>()
                .join(", "),
            Rejection::VolumeLimits => "볼륨 연결 한도 초과".into(),
            Rejection::VolumeNodeConflict => "볼륨의 node affinity와 맞지 않음".into(),
            Rejection::VolumeBindConflict => "바인딩할 수 있는 퍼시스턴트 볼륨이 없음".into(),
            Rejection::Spread => "topology spread 제약을 만족하지 않음".into(),
            Rejection::Affinity => "pod affinity 규칙을 만족하지 않음".into(),
            Rejection::AntiAffinity => "pod anti-affinity 규칙을 만족하지 않음".into(),
            Rejection::ExistingAntiAffinity => {
                "기존 파드의 anti-affinity 규칙을 만족하지 않음".into()
            }
            Rejection::DynamicResources => {
                "리소스 클레임에 맞는 장치를 할당할 수 없음(DRA 장치를 게시하는 노드 없음)".into()
            }
        },
    }
}

fn rejection_check(r: &Rejection) -> &'static str {
    match r {
        Rejection::Unschedulable => "NodeUnschedulable",
        Rejection::Taint(_) => "TaintToleration",
        Rejection::NodeAffinity => "NodeAffinity",
        Rejection::Ports => "NodePorts",
        Rejection::Insufficient(_) => "NodeResourcesFit",
        Rejection::VolumeLimits => "NodeVolumeLimits",
        Rejection::VolumeNodeConflict | Rejection::VolumeBindConflict => "VolumeBinding",
        Rejection::Spread => "PodTopologySpread",
        Rejection::Affinity | Rejection::AntiAffinity | Rejection::ExistingAntiAffinity => {
            "InterPodAffinity"
        }
        Rejection::DynamicResources => "DynamicResources",
    }
}

fn kube_section(sim: &Simulation, k: &KubeRecord, lang: Lang) -> Section {
    let mut lines = Vec::new();
    if k.considered == 0 {
        lines.push(Line::new(
            Status::Info,
            say!(lang, "no node was Ready yet", "아직 Ready인 노드가 없었음"),
        ));
    }
    for (n, result) in &k.nodes {
        let name = node_name(sim, *n);
        let line = match result {
            Ok(()) if k.chosen == Some(*n) => Line::new(
                Status::Chosen,
                say!(
                    lang,
                    "{}: passed every filter and scored highest: bound here",
                    "{}: 모든 필터를 통과하고 점수가 가장 높아 여기에 배치됨",
                    name
                ),
            ),
            Ok(()) => Line::new(
                Status::Pass,
                say!(lang, "{}: passed every filter", "{}: 모든 필터 통과", name),
            ),
            Err(r) => Line::new(Status::Fail, format!("{name}: {}", rejection_text(r, lang)))
                .check(rejection_check(r)),
        };
        lines.push(line.about(&name));
    }
    for (r, count) in &k.counts {
        lines.push(
            Line::new(
                Status::Fail,
                say!(
                    lang,
                    "{}: {}",
                    "{}: {}",
                    say::count(*count, Noun::Node, lang),
                    rejection_text(r, lang)
                ),
            )
            .check(rejection_check(r)),
        );
    }
    if k.nodes.is_empty()
        && k.considered > 0
        && let Some(c) = k.chosen
    {
        lines.push(Line::new(
            Status::Chosen,
            say!(
                lang,
                "bound to {}, the highest score of {}",
                "{1} 중 점수가 가장 높은 {0}에 배치됨",
                node_name(sim, c),
                say::count(k.feasible, Noun::FeasibleNode, lang)
            ),
        ));
    }
    let title = say!(
        lang,
        "kube-scheduler: {} of {} passed its filters",
        "kube-scheduler: {1} 중 {0}개가 필터 통과",
        k.feasible,
        say::count(k.considered, Noun::Node, lang)
    );
    Section {
        id: "kube-scheduler".into(),
        title,
        at: Some(time(k.at)),
        lines,
    }
}

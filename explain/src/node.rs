//! Why a NodeClaim got its instance type, capacity type and zone (the candidate funnel), and
//! whether a node is a consolidation candidate now and, if not, what blocks it.

use kpg_core::karpenter::Karpenter;
use kpg_core::model::ConsolidationPolicy;
use kpg_core::sim::evidence::{
    BalancedScore, Blocker, CapacityReason, ClaimRecord, TypeStage, TypeVerdict,
};
use kpg_core::sim::{Candidacy, Node, Simulation};
use kpg_core::wellknown::ZONE;

use crate::say::{self, Lang, Noun, say};
use crate::{Explanation, Line, NotFound, Section, Status, time};

fn find<'s>(sim: &'s Simulation, name: &str, claim: bool) -> Result<(usize, &'s Node), NotFound> {
    let found = sim
        .nodes()
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, n)| n.name == name && (!claim || n.nodeclaim.is_some()))
        .min_by_key(|(_, n)| n.deleted);
    found.ok_or_else(|| {
        let names: Vec<String> = sim
            .nodes()
            .iter()
            .filter(|n| !n.deleted && (!claim || n.nodeclaim.is_some()))
            .map(|n| n.name.clone())
            .collect();
        let what = if claim { "NodeClaim" } else { "node" };
        let have = if names.is_empty() {
            String::from("none")
        } else {
            names.join(", ")
        };
        NotFound {
            message: format!(
                "no {what} {name} in the simulation at {}; {what}s: {have}",
                time(sim.now())
            ),
        }
    })
}

pub fn explain(
    sim: &Simulation,
    name: &str,
    claim_view: bool,
    lang: Lang,
) -> Result<Explanation, NotFound> {
    let (n, node) = find(sim, name, claim_view)?;
    let record = sim.evidence().claims.get(&n);
    let mut sections = Vec::new();
    if let Some(r) = record {
        if claim_view {
            sections.push(funnel_section(r, lang));
        }
        let mut launch = launch_section(node, r, zone_spread(sim, r), claim_view, lang);
        if let Some(line) = reservation_line(sim, node, lang) {
            launch.lines.insert(1.min(launch.lines.len()), line);
        }
        sections.push(launch);
        if claim_view {
            sections.push(pods_section(sim, r, lang));
        }
    }
    let (status, status_line) = disruption_status(sim, n, lang);
    let mut disruption = Section {
        id: "disruption".into(),
        title: say!(lang, "Disruption", "중단(disruption)"),
        at: None,
        lines: vec![status_line],
    };
    if let Some(d) = node.drifted {
        disruption.lines.push(
            Line::new(
                Status::Info,
                say!(
                    lang,
                    "drifted since {}: {}",
                    "{}부터 드리프트됨: {}",
                    time(d.0),
                    d.1.as_str()
                ),
            )
            .check("drift"),
        );
    }
    if let Some(line) = repair_line(sim, n, lang) {
        disruption.lines.push(line);
    }
    if let Some(line) = destinations_line(sim, n, lang) {
        disruption.lines.push(line);
    }
    sections.push(disruption);
    let history = history_section(sim, n, lang);
    if !history.lines.is_empty() {
        sections.push(history);
    }
    let summary = format!("{} {}", describe(sim, node, lang), status);
    let kind = if claim_view { "nodeclaim" } else { "node" };
    Ok(Explanation {
        kind: kind.into(),
        name: node.name.clone(),
        time: time(sim.now()),
        summary,
        sections,
    })
}

/// A node whose condition is not `True`: since when, and what node repair does about it,
/// naming the version and the gate that decide (`health.rs`).
fn repair_line(sim: &Simulation, n: usize, lang: Lang) -> Option<Line> {
    let node = &sim.nodes()[n];
    let (kind, (status, since)) = node.conditions.iter().next()?;
    let (kind, status, since) = match sim.repair_due(n) {
        Some((k, s, at)) => {
            let since = node.conditions.get(&k).map_or(at, |c| c.1);
            (k, s, since)
        }
        None => (kind.clone(), status.clone(), *since),
    };
    let k = sim.karpenter();
    let version = k.version;
    let (status_of_line, text) = match sim.repair_at(n) {
        Some(at) => {
            let how = if k.follows(kpg_core::karpenter::Behaviour::RepairAsDisruption) {
                say!(
                    lang,
                    "{version}: a disruption within the NodePool's `Repair` budget, before drift",
                    "{version}: NodePool의 `Repair` 예산 안에서, 드리프트보다 먼저 하는 중단"
                )
            } else {
                say!(
                    lang,
                    "{version}: unless more than 20% of the NodePool's nodes are unhealthy",
                    "{version}: NodePool 노드의 20%를 넘게 비정상이 아니라면"
                )
            };
            (
                Status::Fail,
                say!(
                    lang,
                    "{kind}={status} since {}: node repair (gate NodeRepair) deletes it at {} \
                     without waiting for PodDisruptionBudgets ({how})",
                    "{}부터 {kind}={status}: 노드 복구(게이트 NodeRepair)가 {}에 \
                     PodDisruptionBudget을 기다리지 않고 삭제합니다({how})",
                    time(since),
                    time(at)
                ),
            )
        }
        None if !k.gate(kpg_core::karpenter::Gate::NodeRepair) => (
            Status::Info,
            say!(
                lang,
                "{kind}={status} since {}: nothing repairs it, the NodeRepair gate is off in \
                 {version}",
                "{}부터 {kind}={status}: {version}에서 NodeRepair 게이트가 꺼져 있어 \
                 아무것도 복구하지 않습니다",
                time(since)
            ),
        ),
        None => (
            Status::Info,
            say!(
                lang,
                "{kind}={status} since {}",
                "{}부터 {kind}={status}",
                time(since)
            ),
        ),
    };
    Some(Line::new(status_of_line, text).check("repair"))
}

/// Why a consolidation found no place for a candidate's pods on nodes that have room: from
/// v1.14 (kubernetes-sigs/karpenter#3006) a consolidation's simulation keeps them off nodes
/// still inside their NodePool's `consolidateAfter`. Named when such nodes exist and the
/// candidate's consolidation was refused.
fn destinations_line(sim: &Simulation, n: usize, lang: Lang) -> Option<Line> {
    use kpg_core::karpenter::Behaviour;
    let refused = matches!(
        sim.candidacy(n),
        Some(Candidacy::Blocked {
            blocker: Blocker::NotCheaper(_)
                | Blocker::PodsWouldNotSchedule(_)
                | Blocker::TooManyReplacements(_),
            ..
        })
    );
    if !refused
        || !sim
            .karpenter()
            .follows(Behaviour::ConsolidationDestinations)
    {
        return None;
    }
    let settling: Vec<&str> = sim
        .nodes()
        .iter()
        .enumerate()
        .filter(|&(m, node)| {
            m != n && !node.deleted && node.nodeclaim.is_some() && sim.under_consolidate_after(m)
        })
        .map(|(_, node)| node.name.as_str())
        .collect();
    if settling.is_empty() {
        return None;
    }
    let version = sim.karpenter().version;
    Some(
        Line::new(
            Status::Info,
            say!(
                lang,
                "{version}: consolidation moves no pods onto nodes still inside their \
                 NodePool's consolidateAfter ({}), so they are no destination for this node's \
                 pods",
                "{version}: 통합은 아직 NodePool의 consolidateAfter 안에 있는 노드({})로 파드를 \
                 옮기지 않으므로, 그 노드들은 이 노드의 파드가 갈 곳이 되지 못합니다",
                settling.join(", ")
            ),
        )
        .check("destinations"),
    )
}

/// A reserved node's reservation: which, its price model, and what it has left now.
fn reservation_line(sim: &Simulation, node: &Node, lang: Lang) -> Option<Line> {
    let id = node.reservation.as_ref()?;
    let held = sim.reservations().iter().find(|r| &r.0.id == id);
    let (kind, left, count) = held.map_or(("default", 0, 0), |(r, left, _)| {
        (r.reservation_type.as_str(), *left, r.instance_count)
    });
    Some(
        Line::new(
            Status::Info,
            say!(
                lang,
                "in capacity reservation {} ({}): reserved capacity is priced at the on-demand \
                 price / 10^7, so Karpenter launches into it before spot and on-demand; {} of \
                 its {} instances are free now",
                "용량 예약 {}({}) 안에서 실행됩니다. 예약 용량은 온디맨드 가격 / 10^7로 \
                 매겨지므로 Karpenter는 스팟과 온디맨드보다 먼저 이곳에 띄웁니다. 지금 비어 \
                 있는 인스턴스는 {}대이고, 모두 {}대입니다",
                id,
                kind,
                left,
                count
            ),
        )
        .about(id)
        .check("reservation"),
    )
}

fn pool_name(sim: &Simulation, node: &Node) -> Option<String> {
    node.nodepool
        .and_then(|i| sim.node_pools().nth(i))
        .map(|(np, _)| np.name.clone())
}

fn describe(sim: &Simulation, node: &Node, lang: Lang) -> String {
    let pods = sim
        .pods()
        .iter()
        .filter(|p| {
            p.node.is_some_and(|n| sim.nodes()[n].name == node.name)
                && p.is_active()
                && !p.is_daemon()
        })
        .count();
    let state = if node.deleted {
        "Deleted"
    } else {
        node.state.report_state()
    };
    let owner = match (pool_name(sim, node), &node.node_group) {
        (Some(p), _) => say!(lang, "from NodePool {}", "NodePool {} 소속", p),
        (None, Some(g)) => say!(lang, "of node group {}", "노드 그룹 {} 소속", g),
        (None, None) => String::new(),
    };
    say!(
        lang,
        "{} ({}): {} {} in {} at {}, {}, {}.",
        "{} ({}): {} {}, {}, {}, {}, {}.",
        node.name,
        state,
        node.instance_type,
        node.capacity_type.as_str(),
        node.zone,
        say::dollars(node.price),
        owner,
        say::count(pods, Noun::Pod, lang)
    )
}

/// The node's disruption status now, as a sentence for the summary and a line.
fn disruption_status(sim: &Simulation, n: usize, lang: Lang) -> (String, Line) {
    // `None` only for an index with no node: as good as gone.
    let candidacy = sim.candidacy(n).unwrap_or(Candidacy::Gone);
    let check = candidacy.as_str();
    let (status, text) = match candidacy {
        Candidacy::Gone => (
            Status::Info,
            say!(lang, "It is gone.", "이미 사라졌습니다."),
        ),
        Candidacy::NotManaged => (
            Status::Info,
            say!(
                lang,
                "Karpenter does not manage it, so it never disrupts it.",
                "Karpenter가 관리하지 않으므로 중단하지 않습니다."
            ),
        ),
        Candidacy::Static { pool, replicas } => (
            Status::Info,
            say!(
                lang,
                "NodePool {} is static ({} replicas): Karpenter keeps that many nodes whatever \
                 the pods, never consolidates them, and removes one only when the pool is \
                 scaled down.",
                "NodePool {}은 정적 풀입니다(replicas {}). Karpenter는 파드와 상관없이 노드를 그 \
                 수만큼 유지하고, 통합하지 않으며, 풀을 줄일 때만 노드를 지웁니다.",
                pool,
                replicas
            ),
        ),
        Candidacy::Deleting => (
            Status::Info,
            say!(
                lang,
                "It is being deleted: drained, then terminated.",
                "삭제 중입니다: 드레인 후 종료됩니다."
            ),
        ),
        Candidacy::Disrupting(reason) => (
            Status::Info,
            say!(
                lang,
                "A {} command holds it: its replacement launches first, then it is drained.",
                "{} 명령이 이 노드를 잡고 있습니다: 대체 노드가 먼저 뜬 뒤 드레인됩니다.",
                reason.as_str()
            ),
        ),
        Candidacy::Chosen { method, savings } => (
            Status::Chosen,
            say!(
                lang,
                "{} chose it: the command waits out its 15 s validation, then runs (saves {}).",
                "{}가 이 노드를 골랐습니다: 15초 검증을 기다린 뒤 실행합니다({} 절약).",
                method,
                say::dollars(savings.max(0))
            ),
        ),
        Candidacy::NotInitialized => (
            Status::Info,
            say!(
                lang,
                "It is not Ready yet; only initialized nodes are candidates.",
                "아직 Ready가 아닙니다. 초기화된 노드만 후보가 됩니다."
            ),
        ),
        Candidacy::DoNotDisrupt => (
            Status::Fail,
            say!(
                lang,
                "Not disrupted: the node has karpenter.sh/do-not-disrupt: \"true\", so neither \
                 consolidation nor drift takes it (its expireAfter, a spot interruption or a \
                 deletion still do).",
                "중단되지 않음: 노드에 karpenter.sh/do-not-disrupt: \"true\"가 있어 통합도 \
                 드리프트도 이 노드를 건드리지 않습니다(expireAfter, 스팟 회수, 직접 삭제는 \
                 예외).",
            ),
        ),
        Candidacy::ConsolidationDisabled { pool } => (
            Status::Fail,
            say!(
                lang,
                "consolidateAfter: Never: NodePool {} does not consolidate.",
                "consolidateAfter: Never: NodePool {}는 통합하지 않습니다.",
                pool
            ),
        ),
        Candidacy::NotYetConsolidatable { at } => (
            Status::Info,
            say!(
                lang,
                "consolidateAfter: {} left (it becomes a candidate at {}, counted from its \
                 last pod event).",
                "consolidateAfter: {} 남음 ({}에 후보가 됩니다. 마지막 파드 이벤트부터 셉니다).",
                time(at.saturating_sub(sim.now())),
                time(at)
            ),
        ),
        Candidacy::Blocked { at, blocker } => (
            Status::Fail,
            say!(
                lang,
                "Not disrupted: {} (when the controller looked at {}).",
                "중단되지 않음: {} (컨트롤러가 {}에 확인).",
                blocker_text(&blocker, sim.karpenter(), lang),
                time(at)
            ),
        ),
        Candidacy::Candidate { since, policy } => {
            let what = if policy == ConsolidationPolicy::WhenEmpty {
                say!(lang, "a candidate once empty", "비면 후보")
            } else {
                say!(lang, "a consolidation candidate", "통합 후보")
            };
            (
                Status::Pass,
                say!(
                    lang,
                    "It is {} since {}; the disruption controller looks every 10 s.",
                    "{1}부터 {0}입니다. 중단 컨트롤러는 10초마다 확인합니다.",
                    what,
                    time(since)
                ),
            )
        }
    };
    (text.clone(), Line::new(status, text).check(check))
}

fn blocker_text(b: &Blocker, karpenter: &Karpenter, lang: Lang) -> String {
    let version = karpenter.version;
    match (b, lang) {
        (_, Lang::En) => match b {
            Blocker::Budget(reason) => format!(
                "the NodePool's disruption budget allows no more {} disruptions now",
                reason.as_str()
            ),
            Blocker::SpotToSpot => format!(
                "it is spot and the replacement would be spot too; spot-to-spot consolidation \
                 needs the SpotToSpotConsolidation feature gate, which is off in {version} (turn \
                 it on under the Cluster's spec.karpenter.featureGates)"
            ),
            Blocker::Balanced(score) => {
                let what = if score.best_case {
                    "even deleting it outright"
                } else {
                    "the cheapest move found"
                };
                format!(
                    "consolidationPolicy: Balanced ({version}): {what} saves {:.1} % of NodePool \
                     {}'s cost for {:.1} % of its disruption: {:.2} < {:.2}, kept (a move must \
                     save at least half as large a share of the cost as it disrupts; k = {})",
                    score.savings_fraction() * 100.0,
                    score.node_pool,
                    score.disruption_fraction() * 100.0,
                    score.score(),
                    BalancedScore::threshold(),
                    kpg_core::sim::evidence::BALANCED_K
                )
            }
            Blocker::SpotToSpotTooFew(n) => format!(
                "it is spot, and only {n} cheaper spot instance types could replace it; \
                 spot-to-spot consolidation of one node needs {} (SpotToSpotConsolidation gate), \
                 so that the replacement is not itself interrupted at once",
                kpg_core::disruption::SPOT_TO_SPOT_MIN_OPTIONS
            ),
            Blocker::BufferPods(_) => "the last provisioning pass kept CapacityBuffer \
                                       virtual pods on it, so it is not empty (deleting it \
                                       would launch it again)"
                .into(),
            _ => b.message(),
        },
        (Blocker::Nominated, Lang::Ko) => "Pending 파드가 이 노드에 배정되어 있음".into(),
        (Blocker::NodeDoNotDisrupt, Lang::Ko) => {
            "노드에 karpenter.sh/do-not-disrupt 어노테이션이 있음".into()
        }
        (Blocker::PodDoNotDisrupt(pod), Lang::Ko) => {
            format!("파드 {pod}에 karpenter.sh/do-not-disrupt 어노테이션이 있음")
        }
        (Blocker::Pdb(m), Lang::Ko) => format!("PodDisruptionBudget이 축출을 막음: {m}"),
        (Blocker::ConsolidationDisabled(p), Lang::Ko) => {
            format!("NodePool \"{p}\"는 통합이 꺼져 있음")
        }
        (Blocker::WhenEmptyOnly(p), Lang::Ko) => {
            format!("NodePool \"{p}\"는 빈 노드만 통합함(WhenEmpty)")
        }
        (Blocker::Budget(r), Lang::Ko) => format!(
            "NodePool의 disruption budget이 지금은 {} 중단을 더 허용하지 않음",
            r.as_str()
        ),
        (Blocker::PodsWouldNotSchedule(m), Lang::Ko) => {
            format!("일부 파드가 다른 곳에 스케줄되지 않음: {m}")
        }
        (Blocker::TooManyReplacements(k), Lang::Ko) => {
            format!("대체 노드가 {k}개 필요함(최대 1개)")
        }
        (Blocker::SpotToSpot, Lang::Ko) => format!(
            "스팟 노드를 스팟으로 대체하는 통합에는 SpotToSpotConsolidation 기능 게이트가 \
             필요한데 {version}에서는 꺼져 있음(Cluster의 spec.karpenter.featureGates에서 켜세요)"
        ),
        (Blocker::Balanced(score), Lang::Ko) => {
            let what = if score.best_case {
                "노드를 그냥 지워도"
            } else {
                "찾은 가장 나은 이동도"
            };
            format!(
                "consolidationPolicy: Balanced({version}): {what} NodePool {}의 비용 중 {:.1} %를 \
                 아끼는 데 중단은 {:.1} %를 일으킴: {:.2} < {:.2}, 유지함(이동은 일으키는 중단 \
                 비율의 절반 이상을 비용에서 아껴야 함, k = {})",
                score.node_pool,
                score.savings_fraction() * 100.0,
                score.disruption_fraction() * 100.0,
                score.score(),
                BalancedScore::threshold(),
                kpg_core::sim::evidence::BALANCED_K
            )
        }
        (Blocker::SpotToSpotTooFew(n), Lang::Ko) => format!(
            "스팟 노드이고, 대체할 더 싼 스팟 인스턴스 유형이 {n}개뿐임. 노드 하나를 스팟으로 \
             대체하려면 {}개가 필요함(SpotToSpotConsolidation 게이트). 대체 노드가 곧바로 \
             회수되지 않게 하려는 것",
            kpg_core::disruption::SPOT_TO_SPOT_MIN_OPTIONS
        ),
        (Blocker::MinValues, Lang::Ko) => "더 싼 대체 노드로는 minValues를 지킬 수 없음".into(),
        (Blocker::NotCheaper(_), Lang::Ko) => "더 싼 대체 노드가 없음".into(),
        (Blocker::BufferPods(_), Lang::Ko) => {
            "직전 프로비저닝 패스가 CapacityBuffer의 가상 파드를 이 노드에 두었으므로 비어 있지 \
             않음(지우면 다시 띄우게 됨)"
                .into()
        }
    }
}

fn history_section(sim: &Simulation, n: usize, lang: Lang) -> Section {
    let mut lines: Vec<(kpg_core::model::Millis, Line)> = Vec::new();
    for v in sim.evidence().disruption.get(&n).into_iter().flatten() {
        lines.push((
            v.at,
            Line::new(
                Status::Fail,
                format!(
                    "{}: {}",
                    time(v.at),
                    blocker_text(&v.blocker, sim.karpenter(), lang)
                ),
            )
            .check(v.blocker.kind()),
        ));
    }
    for c in sim
        .evidence()
        .commands
        .iter()
        .filter(|c| c.candidates.contains(&n))
    {
        let what = match &c.replacement {
            None => say!(lang, "delete", "삭제"),
            Some(types) => say!(
                lang,
                "replace with one of {}",
                "{} 중 하나로 대체",
                types.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
            ),
        };
        let outcome = if c.executed {
            say!(lang, "executed", "실행됨")
        } else {
            say!(lang, "rejected at validation", "검증에서 거부됨")
        };
        let text = say!(
            lang,
            "{}: {} ({}) decided to {}, saving {}: {}",
            "{}: {} ({}): {} 결정, {} 절약: {}",
            time(c.at),
            c.method,
            c.reason.as_str(),
            what,
            say::dollars(c.savings.max(0)),
            outcome
        );
        let status = if c.executed {
            Status::Chosen
        } else {
            Status::Info
        };
        lines.push((
            c.at,
            Line::new(status, text)
                .check("command")
                .price(Some(c.savings)),
        ));
    }
    lines.sort_by_key(|(at, _)| *at);
    Section {
        id: "history".into(),
        title: say!(
            lang,
            "The disruption controller over time",
            "시간에 따른 중단 컨트롤러의 판단"
        ),
        at: None,
        lines: lines.into_iter().map(|(_, l)| l).collect(),
    }
}

fn stage_text(v: &TypeVerdict, lang: Lang) -> String {
    let res = |items: &[(kpg_core::resources::ResourceName, i64, i64)], lang: Lang| -> String {
        let parts: Vec<String> = items
            .iter()
            .map(|&(r, need, have)| match lang {
                Lang::En => format!(
                    "needs {} {}, has {}",
                    r.as_str(),
                    say::amount(r, need),
                    say::amount(r, have)
                ),
                Lang::Ko => format!(
                    "{} {} 필요, {}뿐",
                    r.as_str(),
                    say::amount(r, need),
                    say::amount(r, have)
                ),
            })
            .collect();
        parts.join("; ")
    };
    match &v.stage {
        TypeStage::NodePool(Some(e)) => say!(
            lang,
            "excluded by the NodePool's requirements ({})",
            "NodePool 요구 사항에서 제외({})",
            e
        ),
        TypeStage::NodePool(None) => say!(
            lang,
            "no offering the NodePool allows",
            "NodePool이 허용하는 오퍼링 없음"
        ),
        TypeStage::Limits(over) => {
            let parts: Vec<String> = over
                .iter()
                .map(|&(r, cap, left)| {
                    format!(
                        "{} {} > {}",
                        r.as_str(),
                        say::amount(r, cap),
                        say::amount(r, left.max(0))
                    )
                })
                .collect();
            say!(
                lang,
                "exceeds what is left of the NodePool's limits ({})",
                "NodePool limits의 남은 양 초과({})",
                parts.join(", ")
            )
        }
        TypeStage::PodRequirements(Some(e)) => say!(
            lang,
            "excluded by the pods' requirements ({})",
            "파드 요구 사항에서 제외({})",
            e
        ),
        TypeStage::PodRequirements(None) => say!(
            lang,
            "does not suit the NodeClaim's pods together (topology or minValues)",
            "NodeClaim의 파드들을 함께 담을 수 없음(토폴로지 또는 minValues)"
        ),
        TypeStage::Resources(short) => say!(
            lang,
            "too small after DaemonSet overhead: {}",
            "DaemonSet 오버헤드를 빼면 부족: {}",
            res(short, lang)
        ),
        TypeStage::Offering => say!(
            lang,
            "no offering in the allowed zones and capacity types",
            "허용된 가용 영역과 용량 유형에 오퍼링 없음"
        ),
        TypeStage::Truncated => say!(
            lang,
            "beyond Karpenter's 600 cheapest",
            "Karpenter의 가장 싼 600개 밖"
        ),
        TypeStage::Exotic => say!(
            lang,
            "metal or accelerated: the AWS provider drops those while others remain",
            "metal 또는 가속기 인스턴스 유형: 다른 인스턴스 유형이 있으면 AWS 프로바이더가 제외"
        ),
        TypeStage::NotLaunched => say!(
            lang,
            "beyond the 60 cheapest sent to the launch",
            "실행 요청에 보낸 가장 싼 60개 밖"
        ),
        TypeStage::NoCapacity(zones) => say!(
            lang,
            "sent to the launch, but EC2 had no capacity for it in {} \
             (InsufficientInstanceCapacity): the fleet moved on, and Karpenter leaves that \
             offering out for 3 minutes",
            "실행 요청에 포함됐지만 EC2에 {}의 용량이 없었음(InsufficientInstanceCapacity): 플릿이 \
             다음 풀로 넘어갔고, Karpenter는 그 오퍼링을 3분 동안 제외함",
            zones.join(", ")
        ),
        TypeStage::Outbid => say!(
            lang,
            "sent to the launch; a cheaper offering won",
            "실행 요청에 포함됐지만 더 싼 오퍼링이 선택됨"
        ),
        TypeStage::Chosen => say!(
            lang,
            "chosen: the cheapest offering",
            "선택됨: 가장 싼 오퍼링"
        ),
    }
}

fn stage_check(s: &TypeStage) -> &'static str {
    match s {
        TypeStage::NodePool(_) => "nodepool",
        TypeStage::Limits(_) => "limits",
        TypeStage::PodRequirements(_) => "requirements",
        TypeStage::Resources(_) => "resources",
        TypeStage::Offering => "offerings",
        TypeStage::Truncated => "truncated",
        TypeStage::Exotic => "exotic",
        TypeStage::NotLaunched => "not-launched",
        TypeStage::NoCapacity(_) => "no-capacity",
        TypeStage::Outbid => "outbid",
        TypeStage::Chosen => "chosen",
    }
}

/// The `maxSkew` of a topology spread over zones among the pods the NodeClaim was opened
/// for, if one of them has such a spread: what narrows a NodeClaim to one zone most often.
fn zone_spread(sim: &Simulation, r: &ClaimRecord) -> Option<i32> {
    r.pods
        .iter()
        .filter_map(|&p| sim.pods().get(p))
        .flat_map(|p| p.spec.topology_spread.iter())
        .find(|c| c.topology_key == ZONE)
        .map(|c| c.max_skew)
}

fn launch_section(
    node: &Node,
    r: &ClaimRecord,
    zone_spread: Option<i32>,
    full: bool,
    lang: Lang,
) -> Section {
    let funnel = r.funnel();
    let chosen_price = funnel
        .iter()
        .find(|v| v.stage == TypeStage::Chosen)
        .and_then(|v| v.price);
    let mut lines = Vec::new();
    lines.push(
        Line::new(
            Status::Chosen,
            if r.launch.ice.is_empty() {
                say!(
                    lang,
                    "{}, {} in {}: the cheapest offering among the {} sent to the launch",
                    "{}, {} ({}): 실행 요청에 보낸 {} 중 가장 싼 오퍼링",
                    node.instance_type,
                    node.capacity_type.as_str(),
                    node.zone,
                    say::count(r.launch.launch.len(), Noun::InstanceType, lang)
                )
            } else {
                say!(
                    lang,
                    "{}, {} in {}: the cheapest offering EC2 had capacity for among the {} \
                     sent to the launch (EC2 had none in {} that cost less)",
                    "{}, {} ({}): 실행 요청에 보낸 {} 중 EC2에 용량이 있던 가장 싼 \
                     오퍼링(더 싼 {}에는 용량 없음)",
                    node.instance_type,
                    node.capacity_type.as_str(),
                    node.zone,
                    say::count(r.launch.launch.len(), Noun::InstanceType, lang),
                    say::count(r.launch.ice.len(), Noun::Offering, lang)
                )
            },
        )
        .about(&node.instance_type)
        .check("chosen")
        .price(Some(node.price)),
    );
    if let Some((overlay, list)) = &node.overlay {
        lines.push(
            Line::new(
                Status::Info,
                say!(
                    lang,
                    "priced at {} by NodeOverlay {} (list price {}): Karpenter compares and \
                     orders offerings at the overlay's price",
                    "가격 {}는 NodeOverlay {}가 정한 값입니다(정가 {}). Karpenter는 \
                     오버레이의 가격으로 오퍼링을 비교하고 정렬합니다",
                    say::dollars(node.price),
                    overlay,
                    say::dollars(*list)
                ),
            )
            .about(overlay)
            .check("overlay")
            .price(Some(node.price)),
        );
    }
    let l = &r.launch;
    let od = l
        .cheapest_on_demand
        .map(say::dollars)
        .unwrap_or_else(|| "-".into());
    let spot = l
        .cheapest_spot
        .map(say::dollars)
        .unwrap_or_else(|| "-".into());
    let capacity = match l.capacity_reason {
        CapacityReason::Reserved => say!(
            lang,
            "reserved: a reserved offering was available, and Karpenter always \
             takes reserved capacity first",
            "reserved: 예약 용량 오퍼링이 있었고 Karpenter는 항상 예약 용량을 먼저 씀"
        ),
        CapacityReason::SpotCheaper => say!(
            lang,
            "spot: both were allowed, and spot ({}) is no pricier than the cheapest on-demand ({})",
            "spot: 둘 다 허용됐고 spot({})이 가장 싼 on-demand({})보다 비싸지 않음",
            spot,
            od
        ),
        CapacityReason::SpotOnly => say!(
            lang,
            "spot: the requirements allow spot only",
            "spot: 요구 사항이 spot만 허용함"
        ),
        CapacityReason::SpotPricier => say!(
            lang,
            "on-demand: spot was allowed but no spot offering ({}) was as cheap as on-demand ({})",
            "on-demand: spot이 허용됐지만 spot 오퍼링({})이 on-demand({})만큼 싸지 않음",
            spot,
            od
        ),
        CapacityReason::NoSpotOffering => say!(
            lang,
            "on-demand: spot was allowed but no launch option offers it",
            "on-demand: spot이 허용됐지만 제공하는 인스턴스 유형이 없음"
        ),
        CapacityReason::OnDemandOnly => say!(
            lang,
            "on-demand: the requirements allow on-demand only",
            "on-demand: 요구 사항이 on-demand만 허용함"
        ),
    };
    lines.push(Line::new(Status::Info, capacity).check("capacity-type"));
    if l.cached_unavailable > 0 {
        lines.push(
            Line::new(
                Status::Info,
                say!(
                    lang,
                    "{} of these instance types left out: a launch or a spot interruption \
                     found no capacity there in the last 3 minutes, and the AWS provider skips \
                     them until then",
                    "이 인스턴스 유형의 {}는 제외됨: 최근 3분 안에 실행이나 스팟 중단에서 \
                     용량이 없었던 곳이라 AWS 프로바이더가 그때까지 건너뜀",
                    say::count(l.cached_unavailable, Noun::Offering, lang)
                ),
            )
            .check("unavailable-offerings"),
        );
    }
    // The zones the pods left the NodeClaim, when they are fewer than its NodePool allows
    // (a topology spread puts each new NodeClaim in the domain that keeps the skew; a zone
    // affinity or selector narrows it too): that, more than the price, picked the zone.
    let pool_zones = r
        .pass
        .templates
        .get(r.template)
        .and_then(|t| t.requirements.get(ZONE));
    let narrowed = r
        .requirements
        .get(ZONE)
        .filter(|z| pool_zones.is_none_or(|p| !p.is_subset_of(z)));
    let zone = if let Some(z) = narrowed {
        match zone_spread {
            Some(skew) => say!(
                lang,
                "zone {}: the pods' topology spread over zones (maxSkew {}) left this NodeClaim \
                 {}, and its {} offering there was the cheapest",
                "가용 영역 {}: 가용 영역에 걸친 파드의 토폴로지 분산(maxSkew {})이 이 NodeClaim에 \
                 {}만 남겼고, 그곳의 {} 오퍼링이 가장 쌌음",
                node.zone,
                skew,
                say::allowed(z),
                l.capacity_type.as_str()
            ),
            None => say!(
                lang,
                "zone {}: the pods' requirements allow {} only, and its {} offering there was \
                 the cheapest",
                "가용 영역 {}: 파드 요구 사항이 {}만 허용했고, 그곳의 {} 오퍼링이 가장 쌌음",
                node.zone,
                say::allowed(z),
                l.capacity_type.as_str()
            ),
        }
    } else if l.ties > 1 {
        say!(
            lang,
            "zone {}: {} offerings tied at the lowest {} price; one was picked at random (seeded)",
            "가용 영역 {0}: 가장 싼 {2} 가격에 오퍼링 {1}개가 같아 (시드로) 무작위로 골랐음",
            node.zone,
            l.ties,
            l.capacity_type.as_str()
        )
    } else {
        say!(
            lang,
            "zone {}: its {} offering was the cheapest",
            "가용 영역 {}: 이곳의 {} 오퍼링이 가장 쌌음",
            node.zone,
            l.capacity_type.as_str()
        )
    };
    lines.push(Line::new(Status::Info, zone).check("zone"));
    // The cheaper instance types that lost, and why.
    let cheaper: Vec<&TypeVerdict> = funnel
        .iter()
        .filter(|v| v.stage != TypeStage::Chosen && !matches!(v.stage, TypeStage::NodePool(_)))
        .filter(|v| chosen_price.is_some_and(|c| v.price.is_some_and(|p| p < c)))
        .collect();
    let limit = if full { 20 } else { 8 };
    for v in cheaper.iter().take(limit) {
        lines.push(
            Line::new(Status::Fail, format!("{}: {}", v.name, stage_text(v, lang)))
                .about(&v.name)
                .check(stage_check(&v.stage))
                .price(v.price),
        );
    }
    if cheaper.len() > limit {
        lines.push(Line::new(
            Status::Info,
            say!(
                lang,
                "and {} more cheaper types",
                "그 밖에 더 싼 인스턴스 유형 {}개",
                cheaper.len() - limit
            ),
        ));
    }
    // Why not the others: the next cheapest types that could have carried the pods (they
    // passed every filter and only lost on price), with what each would have cost more. A
    // winner "the cheapest of 3" means little until the other two prices are on the page.
    let next: Vec<&TypeVerdict> = funnel
        .iter()
        .filter(|v| matches!(v.stage, TypeStage::Outbid | TypeStage::NotLaunched))
        .filter(|v| chosen_price.is_some_and(|c| v.price.is_some_and(|p| p >= c)))
        .take(if full { 10 } else { 4 })
        .collect();
    for v in &next {
        let (Some(price), Some(chosen)) = (v.price, chosen_price) else {
            continue;
        };
        let why = if v.stage == TypeStage::NotLaunched {
            say!(
                lang,
                "beyond the 60 cheapest sent to the launch",
                "실행 요청에 보낸 가장 싼 60개 밖"
            )
        } else {
            say!(
                lang,
                "would fit the pods too",
                "이 인스턴스 유형도 파드를 담을 수 있었음"
            )
        };
        lines.push(
            Line::new(
                Status::Info,
                say!(
                    lang,
                    "{0}: {1} more than {2}; {3}",
                    "{0}: {2}보다 {1} 더 비쌈. {3}",
                    v.name,
                    say::dollars(price - chosen),
                    node.instance_type,
                    why
                ),
            )
            .about(&v.name)
            .check("pricier")
            .price(Some(price)),
        );
    }
    let excluded_cheaper = funnel
        .iter()
        .filter(|v| {
            matches!(v.stage, TypeStage::NodePool(_))
                && chosen_price.is_some_and(|c| v.price.is_some_and(|p| p < c))
        })
        .count();
    if excluded_cheaper > 0 {
        lines.push(Line::new(
            Status::Info,
            say!(
                lang,
                "cheaper in the catalog but outside the NodePool's requirements: {}",
                "카탈로그에서 더 싸지만 NodePool 요구 사항 밖: {}",
                say::count(excluded_cheaper, Noun::InstanceType, lang)
            ),
        ));
    }
    let title = say!(lang, "Why this instance type", "왜 이 인스턴스 유형인가");
    Section {
        id: "launch".into(),
        title,
        at: Some(time(r.pass.at)),
        lines,
    }
}

/// A funnel filter: its check id, its name, and which stages it removes.
type FunnelStage = (&'static str, String, fn(&TypeStage) -> bool);

fn funnel_section(r: &ClaimRecord, lang: Lang) -> Section {
    let funnel = r.funnel();
    let total = funnel.len();
    let stages: [FunnelStage; 10] = [
        (
            "nodepool",
            say!(
                lang,
                "the NodePool's requirements and offerings",
                "NodePool 요구 사항과 오퍼링"
            ),
            |s| matches!(s, TypeStage::NodePool(_)),
        ),
        (
            "limits",
            say!(lang, "the NodePool's limits", "NodePool limits"),
            |s| matches!(s, TypeStage::Limits(_)),
        ),
        (
            "requirements",
            say!(lang, "the pods' requirements", "파드 요구 사항"),
            |s| matches!(s, TypeStage::PodRequirements(_)),
        ),
        (
            "resources",
            say!(
                lang,
                "the pods' requests plus DaemonSet overhead",
                "파드 요청량과 DaemonSet 오버헤드"
            ),
            |s| matches!(s, TypeStage::Resources(_)),
        ),
        (
            "offerings",
            say!(
                lang,
                "an offering in the allowed zones and capacity types",
                "허용된 가용 영역·용량 유형의 오퍼링"
            ),
            |s| *s == TypeStage::Offering,
        ),
        (
            "truncated",
            say!(
                lang,
                "Karpenter's 600 cheapest",
                "Karpenter의 가장 싼 600개"
            ),
            |s| *s == TypeStage::Truncated,
        ),
        (
            "exotic",
            say!(
                lang,
                "the AWS provider's metal and accelerator filter",
                "AWS 프로바이더의 metal·가속기 필터"
            ),
            |s| *s == TypeStage::Exotic,
        ),
        (
            "not-launched",
            say!(
                lang,
                "the 60 cheapest sent to the launch",
                "실행 요청에 보낸 가장 싼 60개"
            ),
            |s| *s == TypeStage::NotLaunched,
        ),
        (
            "no-capacity",
            say!(
                lang,
                "EC2 capacity (InsufficientInstanceCapacity)",
                "EC2 용량(InsufficientInstanceCapacity)"
            ),
            |s| matches!(s, TypeStage::NoCapacity(_)),
        ),
        (
            "outbid",
            say!(lang, "the cheapest offering", "가장 싼 오퍼링"),
            |s| *s == TypeStage::Outbid,
        ),
    ];
    let mut lines = vec![
        Line::new(
            Status::Info,
            say!(
                lang,
                "{} considered: the region's catalog, narrowed to what this \
                 EC2NodeClass's NodePools could ever allow",
                "검토한 {}: 리전 카탈로그 중 이 EC2NodeClass의 \
                 NodePool들이 허용할 수 있는 것",
                say::count(total, Noun::InstanceType, lang)
            ),
        )
        .check("catalog"),
    ];
    let mut left = total;
    for (check, what, is) in stages {
        let out = funnel.iter().filter(|v| is(&v.stage)).count();
        // Shortages are rare: the line shows only when EC2 turned a pool down.
        if check == "no-capacity" && out == 0 {
            continue;
        }
        left -= out;
        let status = if left == 0 {
            Status::Fail
        } else {
            Status::Pass
        };
        lines.push(
            Line::new(
                status,
                say!(
                    lang,
                    "{}: {} left ({} out)",
                    "{}: {}개 남음 ({}개 제외)",
                    what,
                    left,
                    out
                ),
            )
            .check(check),
        );
    }
    Section {
        id: "funnel".into(),
        title: say!(
            lang,
            "Instance types, filter by filter",
            "필터별 인스턴스 유형"
        ),
        at: Some(time(r.pass.at)),
        lines,
    }
}

fn pods_section(sim: &Simulation, r: &ClaimRecord, lang: Lang) -> Section {
    let mut lines = Vec::new();
    for &p in &r.pods {
        if let Some(pod) = sim.pods().get(p) {
            let name = format!("{}/{}", pod.namespace, pod.name);
            lines.push(
                Line::new(
                    Status::Info,
                    format!("{name} {}", say::resources(&pod.requests)),
                )
                .about(&name),
            );
        }
    }
    if !r.buffer_pods.is_empty() {
        lines.push(Line::new(
            Status::Info,
            say!(
                lang,
                "{} CapacityBuffer virtual pods ({}): room kept warm, no pod runs for them",
                "CapacityBuffer 가상 파드 {}개({}): 데워 둔 자리이며, 이를 위해 도는 파드는 없음",
                r.buffer_pods.len(),
                r.buffer_pods.join(", ")
            ),
        ));
    }
    lines.push(Line::new(
        Status::Info,
        say!(
            lang,
            "together they request {}",
            "합계 요청량 {}",
            say::resources(&r.requests)
        ),
    ));
    Section {
        id: "pods".into(),
        title: say!(lang, "Launched for these pods", "이 파드들을 위해 띄움"),
        at: Some(time(r.pass.at)),
        lines,
    }
}

//! Disruption on the simulated clock: emptiness, consolidateAfter, budgets, do-not-disrupt,
//! termination and the NodePool deletion cascade. Scenarios are built in code (no YAML).

use kpg_core::model::*;
use kpg_core::requirements::Operator;
use kpg_core::resources::{ResourceName, Resources};
use kpg_core::sim::{EventKind, NodeState, Simulation};
mod common;
use common::instance_type;

const MIN: u64 = 60_000;

fn pool(name: &str, consolidate_after: Option<u64>, budget: BudgetNodes) -> NodePool {
    let mut np = NodePool::new(name, "default").require(
        "karpenter.sh/capacity-type",
        Operator::In,
        &["on-demand"],
    );
    np.consolidation_policy = ConsolidationPolicy::WhenEmpty;
    np.consolidate_after = consolidate_after;
    np.budgets = vec![Budget {
        nodes: budget,
        schedule: None,
        duration: None,
        reasons: vec![],
    }];
    np
}

/// `replicas` pods of 3 CPUs: one 4-CPU node each.
fn deployment(replicas: u32) -> Workload {
    let mut template = PodTemplate::default();
    template.labels.insert("app".into(), "web".into());
    template.spec.containers.push(Container {
        name: "app".into(),
        requests: Resources::ZERO.with(ResourceName::Cpu, 3000),
        ..Default::default()
    });
    template.spec.termination_grace_seconds = Some(0);
    Workload {
        kind: WorkloadKind::Deployment,
        name: "web".into(),
        namespace: "default".into(),
        labels: Default::default(),
        replicas,
        completions: None,
        selector: None,
        template,
        document: 0,
        existing: Vec::new(),
    }
}

fn scale_to_zero_at(at: u64) -> TimelineStep {
    TimelineStep {
        at,
        action: TimelineAction::Scale {
            kind: WorkloadKind::Deployment,
            name: "web".into(),
            namespace: "default".into(),
            replicas: 0,
        },
    }
}

fn scenario(pools: Vec<NodePool>, replicas: u32, timeline: Vec<TimelineStep>) -> Scenario {
    Scenario {
        node_pools: pools,
        node_classes: vec![NodeClass::al2023("default")],
        workloads: vec![deployment(replicas)],
        instance_types: vec![instance_type("four", 4, 200_000)],
        timeline,
        ..Default::default()
    }
}

fn live_nodes(sim: &Simulation) -> usize {
    sim.nodes().iter().filter(|n| !n.deleted).count()
}

fn deleted_at(sim: &Simulation) -> Vec<u64> {
    sim.events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::NodeClaimDeleted { .. }))
        .map(|e| e.time)
        .collect()
}

#[test]
fn an_empty_node_goes_after_consolidate_after_the_poll_and_the_validation_delay() {
    let s = scenario(
        vec![pool("default", Some(30_000), BudgetNodes::Percent(100))],
        2,
        vec![scale_to_zero_at(3 * MIN)],
    );
    let mut sim = Simulation::new(s).unwrap();
    sim.run_until(3 * MIN + 30_000 + 10_000);
    assert_eq!(
        live_nodes(&sim),
        2,
        "nothing happens before consolidateAfter, the poll and the 15 s validation"
    );
    let end = sim.run_to_rest(60 * MIN);
    assert_eq!(live_nodes(&sim), 0);
    let terminating: Vec<u64> = sim
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::DisruptionTerminating { .. }))
        .map(|e| e.time)
        .collect();
    // Empty at 3:00, consolidatable at 3:30, polled at 3:30, validated 15 s later.
    assert_eq!(
        terminating,
        vec![3 * MIN + 45_000; 2],
        "one command deletes every empty node the budget allows"
    );
    assert!(
        deleted_at(&sim)
            .iter()
            .all(|&t| t > 3 * MIN + 45_000 && t <= end)
    );
    assert!(
        end < 6 * MIN,
        "the cluster comes to rest: no endless polling ({end} ms)"
    );
}

#[test]
fn consolidate_after_never_keeps_empty_nodes_and_the_cluster_still_rests() {
    let s = scenario(
        vec![pool("default", None, BudgetNodes::Percent(100))],
        2,
        vec![scale_to_zero_at(3 * MIN)],
    );
    let mut sim = Simulation::new(s).unwrap();
    let end = sim.run_to_rest(60 * MIN);
    assert_eq!(live_nodes(&sim), 2);
    assert_eq!(end, 3 * MIN, "nothing is queued after the scale-down");
}

#[test]
fn a_budget_of_one_removes_empty_nodes_one_at_a_time() {
    let s = scenario(
        vec![pool("default", Some(30_000), BudgetNodes::Count(1))],
        4,
        vec![scale_to_zero_at(3 * MIN)],
    );
    let mut sim = Simulation::new(s).unwrap();
    sim.run_to_rest(60 * MIN);
    assert_eq!(live_nodes(&sim), 0);
    let mut commands: Vec<u64> = sim
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::DisruptionTerminating { .. }))
        .map(|e| e.time)
        .collect();
    commands.dedup();
    assert_eq!(commands.len(), 4, "four separate commands");
    let deleted = deleted_at(&sim);
    for pair in commands.windows(2) {
        // The next command starts only after the previous node is gone: a deleting node
        // uses the budget.
        assert!(
            deleted.iter().any(|&d| d > pair[0] && d <= pair[1]),
            "{commands:?} vs {deleted:?}"
        );
    }
}

#[test]
fn a_zero_budget_or_do_not_disrupt_keeps_nodes_without_keeping_the_clock_busy() {
    let zero = scenario(
        vec![pool("default", Some(30_000), BudgetNodes::Percent(0))],
        2,
        vec![scale_to_zero_at(3 * MIN)],
    );
    let mut sim = Simulation::new(zero).unwrap();
    // One look when the empty nodes become consolidatable (3:30), then none: the budget
    // has no schedule, so nothing changes until the cluster does.
    assert_eq!(sim.run_to_rest(60 * MIN), 3 * MIN + 30_000);
    assert_eq!(live_nodes(&sim), 2);

    let mut np = pool("default", Some(30_000), BudgetNodes::Percent(100));
    np.template_annotations
        .insert("karpenter.sh/do-not-disrupt".into(), "true".into());
    let mut sim = Simulation::new(scenario(vec![np], 2, vec![scale_to_zero_at(3 * MIN)])).unwrap();
    sim.run_to_rest(60 * MIN);
    assert_eq!(live_nodes(&sim), 2);
}

#[test]
fn a_scheduled_freeze_holds_empty_nodes_until_its_window_closes() {
    // Nodes go empty at 3:00; a budget of 0 from 00:00 for 1 hour (the simulated clock starts
    // at midnight UTC) holds them until 1:00:00, when the next poll removes them.
    let mut np = pool("default", Some(30_000), BudgetNodes::Percent(100));
    np.budgets.push(Budget {
        nodes: BudgetNodes::Count(0),
        schedule: Some("0 0 * * *".into()),
        duration: Some(60 * MIN),
        reasons: vec![],
    });
    let mut sim = Simulation::new(scenario(vec![np], 2, vec![scale_to_zero_at(3 * MIN)])).unwrap();
    sim.run_until(59 * MIN);
    assert_eq!(live_nodes(&sim), 2, "frozen inside the window");
    sim.run_to_rest(3 * 60 * MIN);
    assert_eq!(live_nodes(&sim), 0);
    let first = sim
        .events()
        .iter()
        .find(|e| matches!(e.kind, EventKind::DisruptionTerminating { .. }))
        .map(|e| e.time);
    assert_eq!(
        first,
        Some(60 * MIN + 15_000),
        "polled at 1:00:00, validated 15 s later"
    );
}

#[test]
fn a_busy_node_is_not_empty() {
    let s = scenario(
        vec![pool("default", Some(30_000), BudgetNodes::Percent(100))],
        2,
        vec![],
    );
    let mut sim = Simulation::new(s).unwrap();
    sim.run_to_rest(60 * MIN);
    assert_eq!(live_nodes(&sim), 2);
    assert!(sim.pods().iter().all(|p| p.node.is_some()));
}

#[test]
fn deleting_a_node_pool_drains_its_nodes_and_their_pods_move() {
    let doomed = pool("a-doomed", Some(30_000), BudgetNodes::Percent(10));
    let mut other = pool("b-other", Some(30_000), BudgetNodes::Percent(10));
    // Lower weight: pods go to the doomed pool first, then to this one once it is gone.
    other.weight = 0;
    let mut doomed = doomed;
    doomed.weight = 10;
    let delete = TimelineStep {
        at: 3 * MIN,
        action: TimelineAction::Delete {
            kind: "NodePool".into(),
            name: "a-doomed".into(),
            namespace: String::new(),
        },
    };
    let mut sim = Simulation::new(scenario(vec![doomed, other], 2, vec![delete])).unwrap();
    sim.run_until(3 * MIN - 1);
    let pool_of = |sim: &Simulation, n: usize| sim.nodes()[n].nodepool;
    assert!(
        (0..sim.nodes().len()).all(|n| pool_of(&sim, n) == Some(0)),
        "both nodes come from the heavier pool"
    );
    sim.run_until(3 * MIN);
    assert!(
        sim.nodes().iter().all(|n| n.state == NodeState::Deleting),
        "the cascade ignores budgets"
    );
    sim.run_to_rest(60 * MIN);
    let live: Vec<_> = sim.nodes().iter().filter(|n| !n.deleted).collect();
    assert_eq!(live.len(), 2);
    assert!(
        live.iter().all(|n| n.nodepool == Some(1)),
        "the pods' replacements land in the other pool"
    );
    let running = sim
        .pods()
        .iter()
        .filter(|p| !p.deleted && p.node.is_some())
        .count();
    assert_eq!(running, 2, "the Deployment keeps its two replicas");
}

#[test]
fn disruption_is_deterministic() {
    let run = || {
        let s = scenario(
            vec![pool("default", Some(30_000), BudgetNodes::Count(1))],
            3,
            vec![scale_to_zero_at(2 * MIN)],
        );
        let mut sim = Simulation::new(s).unwrap();
        sim.run_to_rest(60 * MIN);
        sim.report()
    };
    assert_eq!(run(), run());
}

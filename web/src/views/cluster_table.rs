//! The cluster as a table: a row per node (NodePool, node, instance type, zone, capacity
//! type, state, CPU and memory requested against allocatable, pods, $/hour), for a screen
//! reader or a keyboard, as the cost chart's **Table** shows its series.
//!
//! A toggle, not a visually-hidden table always present: a hidden copy would be read twice
//! by anyone who reads the page through (lanes, then table), and its focusable parts would be
//! Tab stops no one sees. A toggle gives one view at a time; a screen reader then has real
//! row and column headers to move by (a table's commands, "row 3, Zone, us-east-1a"), which
//! the lanes' cards cannot give. The toggle sits above the lanes, so it is the first thing
//! after the pending pods.

use leptos::prelude::*;

use crate::base::i18n::T;
use crate::base::snapshot::{self, CardState, LaneKind, NodeCard};
use crate::base::words::{self, Noun};
use crate::state::{Engine, Locale, Selected, Selection};
use kpg_core::catalog::CapacityType;

/// The lanes, or the same cluster as a table, and the button that switches.
#[component]
pub fn LanesOrTable(children: ChildrenFn) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let as_table = RwSignal::new(false);
    view! {
        <div class="cluster-view-switch">
            <button class="ghost cluster-as-table" aria-pressed=move || as_table.get().to_string()
                title=move || locale.t(T::ClusterAsTableHelp)
                on:click=move |_| as_table.update(|t| *t = !*t)>
                {move || locale.t(T::ClusterAsTable)}
            </button>
        </div>
        <Show when=move || as_table.get() fallback=move || children()>
            <ClusterTable/>
        </Show>
    }
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    pool: String,
    node: NodeCard,
}

/// Every node of the snapshot, lane by lane.
fn rows(s: &snapshot::Snapshot) -> Vec<Row> {
    s.lanes
        .iter()
        .flat_map(|lane| {
            let pool = match &lane.kind {
                LaneKind::NodePool { name, .. } => name.clone(),
                LaneKind::Fixed => String::new(),
            };
            lane.nodes.iter().map(move |n| Row {
                pool: pool.clone(),
                node: n.clone(),
            })
        })
        .collect()
}

#[component]
fn ClusterTable() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let selection = expect_context::<Selection>();
    let rows = Memo::new(move |_| engine.snapshot.with(rows));
    let caption = move || {
        let lang = locale.lang.get();
        engine.snapshot.with(|s| {
            locale
                .t(T::ClusterTableCaption)
                .replace("{clock}", &snapshot::clock(s.time_ms))
                .replace(
                    "{nodes}",
                    &words::count(s.summary.nodes, Noun::Node, lang).to_string(),
                )
                .replace("{cost}", &snapshot::dollars(s.summary.cost_per_hour))
        })
    };
    let state = move |s: CardState| match s {
        CardState::Launching => locale.t(T::Launching),
        CardState::Registering => locale.t(T::Registering),
        CardState::Ready => locale.t(T::Ready),
        CardState::NotReady => locale.t(T::NotReady),
        CardState::Cordoned => locale.t(T::Cordoned),
        CardState::Deleting => locale.t(T::Deleting),
    };
    let capacity = move |c: CapacityType| match c {
        CapacityType::Spot => locale.t(T::Spot),
        CapacityType::OnDemand => locale.t(T::OnDemand),
        CapacityType::Reserved => locale.t(T::Reserved),
    };
    view! {
        <div class="cluster-table-wrap">
            <table class="cluster-table">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{move || locale.t(T::NodePool)}</th>
                        <th scope="col">{move || locale.t(T::TableNode)}</th>
                        <th scope="col">{move || locale.t(T::TableInstanceType)}</th>
                        <th scope="col">{move || locale.t(T::TableZone)}</th>
                        <th scope="col">{move || locale.t(T::TableCapacityType)}</th>
                        <th scope="col">{move || locale.t(T::TableState)}</th>
                        <th scope="col">{move || locale.t(T::TableCpu)}</th>
                        <th scope="col">{move || locale.t(T::TableMemory)}</th>
                        <th scope="col">{move || locale.t(T::TablePods)}</th>
                        <th scope="col">{move || locale.t(T::TablePrice)}</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || rows.get() key=|r| (r.node.name.clone(), r.node.state as u8,
                        r.node.pod_count, r.node.cpu_requested_milli, r.node.memory_requested)
                        let:row>
                        {
                            let n = row.node;
                            let (name, nodeclaim) = (n.name.clone(), n.nodeclaim.clone());
                            let pool = if row.pool.is_empty() {
                                locale.t(T::FixedNodes).to_string()
                            } else {
                                row.pool
                            };
                            let (mem_used, mem_total) =
                                snapshot::bytes_pair(n.memory_requested, n.memory_allocatable);
                            view! {
                                <tr data-node=n.name.clone()>
                                    <td>{pool}</td>
                                    // The node's name explains it, as a click on its card does.
                                    <th scope="row">
                                        <button class="link" title=move || locale.t(T::ExplainThis)
                                            on:click=move |_| {
                                                selection.select(Selected::Node {
                                                    name: name.clone(),
                                                    nodeclaim: nodeclaim.clone(),
                                                })
                                            }>{n.name.clone()}</button>
                                    </th>
                                    <td>{n.instance_type.clone()}</td>
                                    <td>{n.zone.clone()}</td>
                                    <td>{capacity(n.capacity_type)}</td>
                                    <td>{state(n.state)}</td>
                                    <td>{format!("{} / {}", snapshot::cores(n.cpu_requested_milli),
                                        snapshot::cores(n.cpu_allocatable_milli))}</td>
                                    <td>{format!("{mem_used} / {mem_total}")}</td>
                                    <td>{snapshot::count(n.pod_count)}" / "{n.max_pods.max(0)}</td>
                                    <td>{snapshot::dollars(n.price_per_hour)}</td>
                                </tr>
                            }
                        }
                    </For>
                </tbody>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use crate::bridge::player::Player;

    #[test]
    fn the_table_has_a_row_for_every_node_of_every_lane() {
        let mut p = Player::new();
        p.rebuild(crate::lessons::lab("seed002-consolidation"), 0);
        p.advance(60_000);
        let s = p.fresh_snapshot().unwrap();
        let rows = super::rows(&s);
        let cards: usize = s.lanes.iter().map(|l| l.nodes.len()).sum();
        assert_eq!(rows.len(), cards);
        let pool = |name: &str| rows.iter().filter(|r| r.pool == name).count();
        assert_eq!(pool("platform"), 4, "the lab's four launched nodes");
        assert_eq!(pool(""), 2, "its node group's two, in no NodePool");
    }
}

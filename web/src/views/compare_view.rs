//! Compare: the button that forks the workspace into A (a copy) and B (what the learner
//! edits), and the side-by-side summary under the chart: cost per hour and month, what was
//! spent, nodes by NodePool, instance type and capacity type, pods, disruptions, and the
//! workloads whose pods landed differently, each one click from Explain.
//!
//! The money and pod figures come from the two timelines at the engine's instant; the
//! counts from the worker's [`crate::bridge::protocol::Comparison`], made when either cluster
//! changes.

use std::collections::BTreeSet;

use leptos::prelude::*;

use kpg_core::compare::Counts;

use crate::base::i18n::T;
use crate::base::series::Point;
use crate::base::snapshot;
use crate::state::{Compare, Editor, Engine, Locale, Selected, Selection};

#[component]
pub fn CompareButton(compare: Compare) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let editor = expect_context::<Editor>();
    view! {
        <Show when=move || compare.is_on()
            fallback=move || view! {
                <button class="ghost ct-compare" title=move || locale.t(T::CostCompareHelp)
                    on:click=move |_| compare.start(editor)>
                    {move || locale.t(T::CostCompare)}
                </button>
            }>
            <button class="ghost ct-swap" on:click=move |_| compare.swap(editor)>
                {move || locale.t(T::CompareSwap)}
            </button>
            <button class="ghost ct-stop" on:click=move |_| compare.stop()>
                {move || locale.t(T::CompareStop)}
            </button>
        </Show>
    }
}

/// One row of the summary: a label and A, B, B − A.
#[derive(Clone, PartialEq)]
struct Row {
    label: String,
    a: String,
    b: String,
    diff: String,
    /// B − A is not zero.
    differs: bool,
    /// A heading row (the groups of counts).
    group: bool,
}

fn money_row(label: &str, a: i64, b: i64, fmt: fn(i64) -> String) -> Row {
    let d = b - a;
    Row {
        label: label.into(),
        a: fmt(a),
        b: fmt(b),
        diff: match d.signum() {
            1 => format!("+{}", fmt(d)),
            -1 => format!("−{}", fmt(-d)),
            _ => fmt(0),
        },
        differs: d != 0,
        group: false,
    }
}

fn count_row(label: &str, a: u32, b: u32) -> Row {
    let d = i64::from(b) - i64::from(a);
    Row {
        label: label.into(),
        a: a.to_string(),
        b: b.to_string(),
        diff: match d.signum() {
            1 => format!("+{d}"),
            -1 => format!("−{}", -d),
            _ => String::from("0"),
        },
        differs: d != 0,
        group: false,
    }
}

fn group_rows(rows: &mut Vec<Row>, title: &str, a: &Counts, b: &Counts) {
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    if keys.is_empty() {
        return;
    }
    rows.push(Row {
        label: title.into(),
        a: String::new(),
        b: String::new(),
        diff: String::new(),
        differs: false,
        group: true,
    });
    for k in keys {
        let n = |m: &Counts| m.get(k).copied().unwrap_or(0);
        rows.push(count_row(k, n(a), n(b)));
    }
}

/// Where a workload's pods are: `3 × platform t3.small spot, 2 × Pending`.
fn places(m: &Counts, none: &str) -> String {
    if m.is_empty() {
        return none.into();
    }
    m.iter()
        .map(|(place, n)| format!("{n} × {place}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[component]
pub fn CompareSummary(compare: Compare) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let selection = expect_context::<Selection>();
    // Rows are memos, so the table is redrawn only when a figure in it changes; what was
    // spent grows every frame and has a row of its own.
    let rows = Memo::new(move |_| {
        let t = |k: T| locale.t(k);
        let now = engine.now.get();
        let pa = engine.baseline_series.with(|s| s.at(now));
        let pb = engine.series.with(|s| s.at(now));
        let money = vec![
            money_row(
                t(T::CostLegendCost),
                pa.cost_per_hour,
                pb.cost_per_hour,
                snapshot::dollars,
            ),
            money_row(
                t(T::ComparePerMonth),
                pa.cost_per_hour,
                pb.cost_per_hour,
                snapshot::dollars_per_month,
            ),
        ];
        let mut rows = Vec::new();
        let counts = |p: &Point| [p.nodes, p.running, p.pending];
        let labels = [T::Nodes, T::Running, T::Pending];
        for ((label, a), b) in labels.iter().zip(counts(&pa)).zip(counts(&pb)) {
            rows.push(count_row(t(*label), a, b));
        }
        engine.comparison.with(|c| {
            if let Some(c) = c {
                rows.push(count_row(
                    t(T::CompareDisruptions),
                    c.a.disruptions,
                    c.b.disruptions,
                ));
                group_rows(
                    &mut rows,
                    t(T::CompareByPool),
                    &c.a.nodes_by_nodepool,
                    &c.b.nodes_by_nodepool,
                );
                group_rows(
                    &mut rows,
                    t(T::CompareByType),
                    &c.a.nodes_by_instance_type,
                    &c.b.nodes_by_instance_type,
                );
                group_rows(
                    &mut rows,
                    t(T::CompareByCapacity),
                    &c.a.nodes_by_capacity_type,
                    &c.b.nodes_by_capacity_type,
                );
            }
        });
        (money, rows)
    });
    let spent = Memo::new(move |_| {
        let now = engine.now.get();
        let label = format!(
            "{} 0:00–{}",
            locale.t(T::CompareSpent),
            snapshot::clock(now)
        );
        money_row(
            &label,
            engine.baseline_series.with(|s| s.accrued(now)),
            engine.series.with(|s| s.accrued(now)),
            snapshot::dollars,
        )
    });
    let draw = |r: Row| {
        view! {
            <tr class:group=r.group class:differs=r.differs>
                <th scope="row">{r.label}</th>
                <td>{r.a}</td>
                <td>{r.b}</td>
                <td class="diff">{r.diff}</td>
            </tr>
        }
    };
    view! {
        <Show when=move || compare.is_on()>
            <div class="compare" aria-labelledby="compare-title">
                <p class="compare-hint">{move || locale.t(T::CompareHint)}</p>
                {move || engine.baseline_error.get().map(|why| view! {
                    <p class="compare-broken" role="alert">
                        {move || locale.t(T::CompareBroken)}" "{why}
                    </p>
                })}
                <table class="compare-table">
                    <caption id="compare-title" class="visually-hidden">
                        {move || locale.t(T::CostCompare)}
                    </caption>
                    <thead><tr>
                        <th scope="col"></th>
                        <th scope="col" class="variant-a">{move || locale.t(T::CompareA)}</th>
                        <th scope="col" class="variant-b">{move || locale.t(T::CompareB)}</th>
                        <th scope="col">{move || locale.t(T::CompareDiff)}</th>
                    </tr></thead>
                    <tbody>
                        {move || rows.with(|r| r.0.clone()).into_iter().map(draw).collect_view()}
                        <tr class="spent">
                            <th scope="row">{move || spent.with(|r| r.label.clone())}</th>
                            <td>{move || spent.with(|r| r.a.clone())}</td>
                            <td>{move || spent.with(|r| r.b.clone())}</td>
                            <td class="diff">{move || spent.with(|r| r.diff.clone())}</td>
                        </tr>
                        {move || rows.with(|r| r.1.clone()).into_iter().map(draw).collect_view()}
                    </tbody>
                </table>
                <h4>{move || locale.t(T::ComparePlaced)}</h4>
                {move || {
                    let lang = locale.lang.get();
                    let none = T::CompareNoPods.get(lang);
                    let placements = engine
                        .comparison
                        .with(|c| c.as_ref().map(|c| c.placements.clone()).unwrap_or_default());
                    if placements.is_empty() {
                        return view! {
                            <p class="muted placed-alike">{T::ComparePlacedAlike.get(lang)}</p>
                        }
                        .into_any();
                    }
                    view! {
                        <ul class="placements">
                            {placements.into_iter().map(|p| {
                                let pod = p.pod_in_b.clone();
                                view! {
                                    <li data-owner=p.owner.clone()>
                                        <strong>{p.owner.clone()}</strong>
                                        <span class="variant-a">"A: "{places(&p.a, none)}</span>
                                        <span class="variant-b">"B: "{places(&p.b, none)}</span>
                                        {pod.map(|key| view! {
                                            <button class="ghost explain-pod"
                                                on:click=move |_| selection
                                                    .select(Selected::Pod(key.clone()))>
                                                {T::Explain.get(lang)}
                                            </button>
                                        })}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }
                    .into_any()
                }}
            </div>
        </Show>
    }
}

//! The cost timeline under the cluster's summary: $/hour as a step line, nodes and pending
//! pods on the same time axis, a mark for each decision that changed the cluster, what was
//! spent so far; hover shows the figures at an instant, a click (or Enter) moves the clock
//! there, and a table shows the same series to a screen reader or a keyboard.
//!
//! Everything drawn is derived from the engine's series ([`crate::base::series::Series`]) and
//! computed by [`crate::base::chart`]; this module only places it.

use leptos::prelude::*;

use crate::base::chart::{self, Scale};
use crate::base::i18n::T;
use crate::base::series::{Point, Series};
use crate::base::snapshot;
use crate::state::{Compare, Engine, Locale, Transport};

/// How near a marker (in milliseconds per unit of the axis's span) a pointer snaps to it:
/// 0.8 % of the axis, about 6 px on a laptop.
const SNAP_PER_MILLE: i64 = 8;

#[component]
pub fn CostTimeline() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let transport = expect_context::<Transport>();
    let compare = use_context::<Compare>();
    let open = RwSignal::new(true);
    let as_table = RwSignal::new(false);
    // The instant the pointer or the keyboard inspects.
    let inspect = RwSignal::new(None::<i64>);
    let now = engine.now;
    let span = Memo::new(move |_| chart::span(now.get()));
    let other = move || compare.and_then(|c| c.other_points());
    let scale = Memo::new(move |_| {
        let mine = engine.series.with(|s| s.points.clone());
        match other() {
            Some(b) => Scale::of([&mine[..], &b[..]]),
            None => Scale::of([&mine[..]]),
        }
    });
    // The paths end at the last change; from there to the clock, a tail of four small
    // shapes follows `now`. At 60x the clock moves every frame: only the tails move with it,
    // not the paths and the area under them (which cost 10 fps when they did).
    let lines = Memo::new(move |_| {
        let (span, scale) = (span.get(), scale.get());
        engine.series.with(|s| Lines::of(&s.points, &scale, span))
    });
    let other_line = Memo::new(move |_| {
        let (span, scale) = (span.get(), scale.get());
        other().map(|b| {
            let end = b.last().map_or(0, |p| p.at);
            chart::step_path(&b, |p| scale.cost_y(p.cost_per_hour), span, end)
        })
    });
    let tail = Memo::new(move |_| {
        let (span, scale, now) = (span.get(), scale.get(), now.get());
        let last = engine
            .series
            .with(|s| s.points.last().copied().unwrap_or_default());
        let other = other().map(|b| b.last().copied().unwrap_or_default());
        Tail::of(&last, other.as_ref(), &scale, span, now)
    });
    let spent = Memo::new(move |_| engine.series.with(|s| s.accrued(now.get())));
    let snap_ms = move || span.get() * SNAP_PER_MILLE / 1000;
    // The pointer's instant: its fraction of the plot's width along the axis.
    let at_pointer = move |ev: &web_sys::MouseEvent| -> Option<i64> {
        let el = event_target::<web_sys::Element>(ev);
        let plot = el.closest(".ct-plot").ok().flatten()?;
        let rect = plot.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return None;
        }
        let f = ((f64::from(ev.client_x()) - rect.left()) / rect.width()).clamp(0.0, 1.0);
        let t = (f * span.get_untracked() as f64).round() as i64;
        Some(
            engine
                .series
                .with_untracked(|s| chart::snap(s, t, now.get_untracked(), snap_ms())),
        )
    };
    let on_move = move |ev: web_sys::PointerEvent| inspect.set(at_pointer(&ev));
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(t) = at_pointer(&ev) {
            inspect.set(Some(t));
            transport.seek(t);
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let instants = engine
            .series
            .with_untracked(|s| chart::instants(s, now.get_untracked()));
        let current = inspect.get_untracked().unwrap_or(now.get_untracked());
        let to = match ev.key().as_str() {
            "ArrowLeft" => instants.iter().rev().find(|&&t| t < current).copied(),
            "ArrowRight" => instants.iter().find(|&&t| t > current).copied(),
            "Home" => instants.first().copied(),
            "End" => Some(now.get_untracked()),
            "Enter" => {
                ev.prevent_default();
                transport.seek(current);
                return;
            }
            "Escape" => {
                inspect.set(None);
                return;
            }
            _ => return,
        };
        ev.prevent_default();
        if let Some(t) = to.or(Some(current)) {
            inspect.set(Some(t));
        }
    };
    let value_text = move || {
        let lang = locale.lang.get();
        let t = inspect.get().unwrap_or(now.get());
        engine.series.with(|s| {
            let mut text = format!(
                "{} {}",
                snapshot::clock(t),
                chart::figures_words(&s.at(t), lang)
            );
            for m in s.markers_between(t, t) {
                text += "; ";
                text += &chart::marker_words(m, lang);
            }
            text
        })
    };
    view! {
        <section class="cost-timeline" aria-labelledby="ct-title" class:closed=move || !open.get()>
            <div class="ct-head">
                <button class="ghost collapse" aria-expanded=move || open.get().to_string()
                    aria-controls="ct-body"
                    title=move || locale.t(if open.get() { T::CostCollapse } else { T::CostExpand })
                    on:click=move |_| open.update(|o| *o = !*o)>
                    {move || if open.get() { "▾" } else { "▸" }}
                </button>
                <h3 id="ct-title">{move || locale.t(T::CostOverTime)}</h3>
                <span class="ct-spent">
                    {move || locale.t(T::CostSpentSoFar)}" "
                    <strong>{move || snapshot::dollars(spent.get())}</strong>
                </span>
                <span class="ct-legend" aria-hidden="true">
                    <span class="key cost">{move || locale.t(T::CostLegendCost)}</span>
                    <span class="key nodes">{move || locale.t(T::CostLegendNodes)}</span>
                    <span class="key pending">{move || locale.t(T::CostLegendPending)}</span>
                    {move || other().is_some().then(|| view! {
                        <span class="key variant-a">"A"</span>
                        <span class="key variant-b">"B"</span>
                    })}
                </span>
                <button class="ghost ct-view" aria-pressed=move || as_table.get().to_string()
                    on:click=move |_| as_table.update(|t| *t = !*t)>
                    {move || locale.t(if as_table.get() { T::CostAsChart } else { T::CostAsTable })}
                </button>
                {move || compare.map(|c| view! { <super::compare_view::CompareButton compare=c/> })}
            </div>
            <div id="ct-body" class="ct-body" hidden=move || !open.get()>
                <Show when=move || !as_table.get()
                    fallback=move || view! { <CostTable inspect/> }>
                    <div class="ct-plot" tabindex="0" role="slider"
                        aria-label=move || locale.t(T::CostOverTime)
                        aria-valuemin="0"
                        aria-valuemax=move || now.get().to_string()
                        aria-valuenow=move || inspect.get().unwrap_or(now.get()).to_string()
                        aria-valuetext=value_text
                        aria-description=move || locale.t(T::CostChartHelp)
                        title=move || locale.t(T::CostChartHelp)
                        on:pointermove=on_move
                        on:pointerleave=move |_| inspect.set(None)
                        on:click=on_click
                        on:keydown=on_key
                        on:blur=move |_| inspect.set(None)>
                        <Marks span inspect scale/>
                        <svg class="ct-svg"
                            viewBox=format!("0 0 {} {}", chart::WIDTH, chart::HEIGHT)
                            preserveAspectRatio="none" aria-hidden="true">
                            <line class="ct-grid" x1="0" x2=chart::WIDTH
                                y1=chart::COST_BOTTOM y2=chart::COST_BOTTOM/>
                            <line class="ct-grid" x1="0" x2=chart::WIDTH
                                y1=chart::COUNT_BOTTOM y2=chart::COUNT_BOTTOM/>
                            <path class="ct-cost-area"
                                d=move || lines.with(|l| l.cost_area.clone())/>
                            <path class="ct-pending"
                                d=move || lines.with(|l| l.pending_area.clone())/>
                            <path class="ct-nodes" d=move || lines.with(|l| l.nodes.clone())/>
                            <path class="ct-cost" d=move || lines.with(|l| l.cost.clone())/>
                            {move || other_line.get().map(|d| view! {
                                <path class="ct-cost ct-other" d=d/>
                            })}
                            <path class="ct-tail-area" d=move || tail.with(|t| t.areas.clone())/>
                            <path class="ct-tail-pending"
                                d=move || tail.with(|t| t.pending.clone())/>
                            <path class="ct-nodes ct-tail"
                                d=move || tail.with(|t| t.nodes.clone())/>
                            <path class="ct-cost ct-tail" d=move || tail.with(|t| t.cost.clone())/>
                            {move || tail.with(|t| t.other.clone()).map(|d| view! {
                                <path class="ct-cost ct-other ct-tail" d=d/>
                            })}
                            <line class="ct-now" x1=move || chart::x_of(now.get(), span.get())
                                x2=move || chart::x_of(now.get(), span.get())
                                y1="0" y2=chart::HEIGHT/>
                        </svg>
                        <span class="ct-peak">{move || format!(
                            "{}{}", snapshot::dollars(scale.get().cost), locale.t(T::PerHour)
                        )}</span>
                        {move || (scale.get().cost_floor > 0).then(|| view! {
                            <span class="ct-floor">{move || format!(
                                "{}{}",
                                snapshot::dollars(scale.get().cost_floor),
                                locale.t(T::PerHour)
                            )}</span>
                        })}
                        <span class="ct-count-peak">{move || scale.get().count}</span>
                        {move || inspect.get().map(|t| view! { <Tip t span/> })}
                        {move || (now.get() == 0 && engine.series.with(|s| s.points.len() <= 1))
                            .then(|| view! {
                                <p class="ct-empty">{move || locale.t(T::CostChartEmpty)}</p>
                            })}
                    </div>
                    <div class="ct-axis" aria-hidden="true">
                        {move || chart::ticks(span.get()).into_iter().map(|(pct, label)| view! {
                            <span style=format!("left:{pct}%")>{label}</span>
                        }).collect_view()}
                    </div>
                </Show>
                {move || compare.map(|c| view! {
                    <crate::views::compare_view::CompareSummary compare=c/>
                })}
            </div>
        </section>
    }
}

/// The three lines of one run, as SVG paths.
#[derive(Clone, Debug, Default, PartialEq)]
struct Lines {
    cost: String,
    cost_area: String,
    nodes: String,
    pending_area: String,
}

impl Lines {
    /// From 0 to the last point.
    fn of(points: &[Point], scale: &Scale, span: i64) -> Lines {
        let end = points.last().map_or(0, |p| p.at);
        let cost = chart::step_path(points, |p| scale.cost_y(p.cost_per_hour), span, end);
        let pending = chart::step_path(points, |p| scale.count_y(p.pending), span, end);
        Lines {
            cost_area: chart::area_path(&cost, chart::COST_BOTTOM),
            cost,
            nodes: chart::step_path(points, |p| scale.count_y(p.nodes), span, end),
            pending_area: chart::area_path(&pending, chart::COUNT_BOTTOM),
        }
    }
}

/// The lines from their last point to the clock: the figures hold until `now`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Tail {
    cost: String,
    /// The cost's area and the pending pods' shading, as rectangles.
    areas: String,
    pending: String,
    nodes: String,
    /// A's cost, when comparing.
    other: Option<String>,
}

impl Tail {
    fn of(last: &Point, other: Option<&Point>, scale: &Scale, span: i64, now: i64) -> Tail {
        let (x0, x1) = (chart::x_of(last.at, span), chart::x_of(now, span));
        let flat = |y: f64| format!("M{x0:.1},{y:.1}H{x1:.1}");
        let block = |y: f64, bottom: f64| format!("M{x0:.1},{y:.1}H{x1:.1}V{bottom:.1}H{x0:.1}Z");
        let (cost_y, pending_y) = (
            scale.cost_y(last.cost_per_hour),
            scale.count_y(last.pending),
        );
        Tail {
            cost: flat(cost_y),
            areas: block(cost_y, chart::COST_BOTTOM),
            pending: block(pending_y, chart::COUNT_BOTTOM),
            nodes: flat(scale.count_y(last.nodes)),
            other: other.map(|a| {
                let y = scale.cost_y(a.cost_per_hour);
                format!("M{:.1},{y:.1}H{x1:.1}", chart::x_of(a.at, span))
            }),
        }
    }
}

/// The decisions along the top of the plot, one mark per kind and instant.
#[component]
fn Marks(span: Memo<i64>, inspect: RwSignal<Option<i64>>, scale: Memo<Scale>) -> impl IntoView {
    let engine = expect_context::<Engine>();
    let locale = expect_context::<Locale>();
    // The plot's width on screen, so labels close together can take rows; watched, so a
    // narrower window (or a phone turned) sorts them again.
    let marks = NodeRef::<leptos::html::Div>::new();
    let plot_width = RwSignal::new(0.0_f64);
    let watch = StoredValue::new_local(None::<crate::base::browser::WidthWatch>);
    Effect::new(move |_| {
        if let Some(plot) = marks.get().and_then(|m| m.parent_element()) {
            let on_width = move |w: f64| {
                if w > 0.0 && w != plot_width.get_untracked() {
                    plot_width.set(w);
                }
            };
            watch.set_value(crate::base::browser::WidthWatch::new(&plot, on_width));
        }
    });
    view! {
        <div class="ct-marks" aria-hidden="true" node_ref=marks>
            {move || {
                let span = span.get();
                let lang = locale.lang.get();
                let hot = inspect.get();
                let width = Some(plot_width.get()).filter(|w| *w > 0.0).unwrap_or(600.0);
                // The peak price, written at the plot's top left, in the first row's line.
                let peak = format!(
                    "{}{}", snapshot::dollars(scale.get().cost), locale.t(T::PerHour)
                );
                let first_row_from = 2.0 + label_px(&peak);
                engine.series.with(|s| {
                let saves: Vec<Option<String>> = s.markers.iter().map(|m| {
                    (m.savings > 0).then(|| format!("−{}", snapshot::dollars(m.savings)))
                }).collect();
                let boxes: Vec<(f64, f64)> = s.markers.iter().zip(&saves)
                    .filter_map(|(m, t)| t.as_ref().map(|t| {
                        (chart::percent_of(m.at, span) / 100.0 * width, label_px(t))
                    }))
                    .collect();
                let mut rows = chart::label_rows(&boxes, 4.0, first_row_from).into_iter();
                s.markers.iter().zip(saves).map(|(m, saves)| {
                    let row = if saves.is_some() { rows.next().flatten() } else { None };
                    let saves = saves.zip(row);
                    view! {
                        <span class=format!("ct-mark {}", m.kind.code())
                            class:hot=hot == Some(m.at)
                            data-kind=m.kind.code() data-at=m.at.to_string()
                            style=format!("left:{:.2}%", chart::percent_of(m.at, span))
                            title=chart::marker_words(m, lang)>
                            {chart::glyph(m.kind)}
                            {saves.map(|(s, row)| view! {
                                <span class="saves" data-row=row.to_string()
                                    style=format!("top:{}px", 15 + 13 * row)>{s}</span>
                            })}
                        </span>
                    }
                }).collect_view()})
            }}
        </div>
    }
}

/// A saving label's width on screen: 10 px tabular figures and its padding.
fn label_px(text: &str) -> f64 {
    text.chars().count() as f64 * 6.2 + 4.0
}

/// The figures at the inspected instant, beside its line.
#[component]
fn Tip(t: i64, span: Memo<i64>) -> impl IntoView {
    let engine = expect_context::<Engine>();
    let locale = expect_context::<Locale>();
    let compare = use_context::<Compare>();
    let pct = chart::percent_of(t, span.get_untracked());
    let side = if pct > 60.0 { "right" } else { "left" };
    view! {
        <div class="ct-cursor" style=format!("left:{pct:.2}%")></div>
        <div class=format!("ct-tip {side}") style=format!("left:{pct:.2}%") role="status">
            {move || {
                let lang = locale.lang.get();
                engine.series.with(|s| {
                    let other = compare.and_then(|c| c.other_series());
                    tip_lines(s, other.as_ref(), t, lang)
                })
                .into_iter()
                .map(|(class, text)| view! { <p class=class>{text}</p> })
                .collect_view()
            }}
        </div>
    }
}

/// The tip's lines: the instant, the figures (of A and B when comparing), what was spent,
/// and the decisions taken then.
fn tip_lines(
    s: &Series,
    other: Option<&Series>,
    t: i64,
    lang: crate::base::i18n::Lang,
) -> Vec<(&'static str, String)> {
    let mut lines = vec![("ct-tip-time", snapshot::clock(t))];
    match other {
        // The baseline is A; the workspace on screen is B.
        Some(a) => {
            let spent = |x: &Series| chart::spent_words(x.accrued(t), t, lang);
            lines.push((
                "ct-tip-a",
                format!("A: {}", chart::figures_words(&a.at(t), lang)),
            ));
            lines.push(("ct-tip-a", format!("A: {}", spent(a))));
            lines.push((
                "ct-tip-b",
                format!("B: {}", chart::figures_words(&s.at(t), lang)),
            ));
            lines.push(("ct-tip-b", format!("B: {}", spent(s))));
        }
        None => {
            lines.push(("ct-tip-figures", chart::figures_words(&s.at(t), lang)));
            lines.push(("ct-tip-spent", chart::spent_words(s.accrued(t), t, lang)));
        }
    }
    for m in s.markers_between(t, t) {
        lines.push(("ct-tip-marker", chart::marker_words(m, lang)));
    }
    lines
}

/// The same series as a table: one row per instant something changed, each with a button
/// that moves the clock there.
#[component]
fn CostTable(inspect: RwSignal<Option<i64>>) -> impl IntoView {
    let engine = expect_context::<Engine>();
    let locale = expect_context::<Locale>();
    let transport = expect_context::<Transport>();
    /// A long run lists its newest rows only.
    const ROWS: usize = 200;
    view! {
        <div class="ct-table-wrap">
            <table class="ct-table">
                <caption class="visually-hidden">{move || locale.t(T::CostOverTime)}</caption>
                <thead><tr>
                    <th scope="col">{move || locale.t(T::CostTime)}</th>
                    <th scope="col">{move || locale.t(T::CostLegendCost)}</th>
                    <th scope="col">{move || locale.t(T::CostLegendNodes)}</th>
                    <th scope="col">{move || locale.t(T::Running)}</th>
                    <th scope="col">{move || locale.t(T::Pending)}</th>
                    <th scope="col">{move || locale.t(T::CostSpent)}</th>
                    <th scope="col">{move || locale.t(T::CostWhat)}</th>
                </tr></thead>
                <tbody>
                    {move || {
                        let lang = locale.lang.get();
                        let now = engine.now.get();
                        engine.series.with(|s| {
                            let instants = chart::instants(s, now);
                            let skip = instants.len().saturating_sub(ROWS);
                            instants[skip..].iter().map(|&t| {
                                let p = s.at(t);
                                let what = s
                                    .markers_between(t, t)
                                    .iter()
                                    .map(|m| chart::marker_words(m, lang))
                                    .collect::<Vec<_>>()
                                    .join("; ");
                                view! {
                                    <tr class:hot=move || inspect.get() == Some(t)
                                        data-at=t.to_string()>
                                        <th scope="row">
                                            <button class="ghost go"
                                                title=locale.t(T::CostGo)
                                                on:click=move |_| transport.seek(t)>
                                                {snapshot::clock(t)}
                                            </button>
                                        </th>
                                        <td>{snapshot::dollars(p.cost_per_hour)}</td>
                                        <td>{p.nodes}</td>
                                        <td>{p.running}</td>
                                        <td>{p.pending}</td>
                                        <td>{snapshot::dollars(s.accrued(t))}</td>
                                        <td class="what">{what}</td>
                                    </tr>
                                }
                            }).collect_view()
                        })
                    }}
                </tbody>
            </table>
        </div>
    }
}

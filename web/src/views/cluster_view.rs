//! The right pane: the open lesson's step, the cluster drawn the way eks-node-viewer draws
//! it (NodePools as lanes, node cards, pods as chips), the pending tray, and the events.
//!
//! Lists are keyed by name and each item selects its own data from the snapshot through a
//! `Memo`, so a frame that changes one node re-renders that node only, and a card keeps its
//! DOM element (and its CSS transitions) from Launching to Ready.

use leptos::prelude::*;

use crate::base::i18n::{Lang, T};
use crate::base::snapshot::{self, CardState, Fate, Lane, LaneKind, NodeCard, PodChip};
use crate::base::words::{self, Noun};
use crate::lessons;
use crate::state::{
    BottomTab, Editor, Engine, LessonState, Locale, Page, Selected, Selection, Staging, Step,
    Transport,
};
use crate::views::explain_view::ExplainPane;
use crate::views::terminal_view::TerminalPane;
use kpg_core::catalog::CapacityType;

#[component]
pub fn ClusterPane() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let selection = expect_context::<Selection>();
    // The live page builds the lesson card, the cluster and the bottom panel in steps of
    // their own (all at once where no staging is provided).
    let staging = use_context::<Staging>();
    let tab = selection.bottom;
    let tab_button = move |which: BottomTab, label: T, id: &'static str| {
        view! {
            <button role="tab" id=id aria-selected=move || (tab.get() == which).to_string()
                on:click=move |_| tab.set(which)>
                {move || locale.t(label)}
                {(which == BottomTab::Events).then(|| view! {
                    <span class="count">{move || engine.snapshot.with(|s| s.events.len())}</span>
                })}
            </button>
        }
    };
    view! {
        <section class="pane cluster" aria-labelledby="cluster-title" tabindex="-1">
            <h2 id="cluster-title" class="visually-hidden">{move || locale.t(T::Cluster)}</h2>
            <ClusterBody/>
            <Show when=move || staging.is_none_or(|s| s.has(Step::Bottom))>
                // Under the lanes, so the cluster itself comes first: what it costs over
                // time, then the events and the explanations, which take the height left.
                <crate::views::cost_view::CostTimeline/>
                <div class="bottom">
                    <div class="bottom-tabs" role="tablist">
                        {tab_button(BottomTab::Events, T::Events, "tab-events")}
                        {tab_button(BottomTab::Explain, T::Explain, "tab-explain")}
                        {tab_button(BottomTab::Terminal, T::Terminal, "tab-terminal")}
                    </div>
                    {move || match tab.get() {
                        BottomTab::Events => view! { <Events/> }.into_any(),
                        BottomTab::Explain => view! { <ExplainPane/> }.into_any(),
                        BottomTab::Terminal => view! { <TerminalPane/> }.into_any(),
                    }}
                </div>
            </Show>
        </section>
    }
}

/// The cluster itself: the summary, the pending tray and the lanes.
#[component]
pub fn ClusterBody() -> impl IntoView {
    view! {
        <SimulationProgress/>
        <Summary/>
        <PendingTray/>
        <super::cluster_table::LanesOrTable><Lanes/></super::cluster_table::LanesOrTable>
    }
}

/// The open lesson's step, in a pane of its own beside the cluster (above the manifests on a
/// wide screen, a view of its own on a phone), so the cluster it talks about is never pushed
/// below the fold by the text.
#[component]
pub fn LessonPane() -> impl IntoView {
    view! {
        <section class="pane lesson-pane">
            <LessonCard/>
        </section>
    }
}

#[component]
pub fn LessonCard() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let editor = expect_context::<Editor>();
    let transport = expect_context::<Transport>();
    let lesson_state = expect_context::<LessonState>();
    let lesson = move || lessons::find_or_first(&lesson_state.lesson.get(), locale.lang.get());
    // The lesson's structure (steps, labs, exercises' goals), the same in every language:
    // what depends on it only is not rebuilt when the language changes.
    let structure = move || lessons::find_or_first(&lesson_state.lesson.get(), Lang::En);
    let index = move || {
        let last = structure().steps.len().saturating_sub(1);
        lesson_state.step.get().min(last)
    };
    let scenario = Memo::new(move |_| lessons::step_scenario(structure(), index()));
    let step = move || &lesson().steps[index()];
    let open_step_lab = move |_| lesson_state.open_step_lab(index(), editor, transport);
    let go_to = move |delta: isize| {
        let to = lesson_state
            .step
            .get_untracked()
            .saturating_add_signed(delta);
        lesson_state.go_to_step(to, editor, transport);
    };
    // A `[text](#step-id)` link in a step's text.
    let on_step = Callback::new(move |id: String| {
        if let Some(to) = lesson().steps.iter().position(|s| s.id == id) {
            lesson_state.go_to_step(to, editor, transport);
        }
    });
    // On a lesson's last step, the way on is the next lesson.
    let next_lesson = move || {
        let l = lesson();
        (lesson_state.step.get() + 1 >= l.steps.len())
            .then(|| lessons::after(&l.id, locale.lang.get()))
            .flatten()
    };
    let untranslated = move || lesson().untranslated > 0;
    let open = RwSignal::new(true);
    view! {
        <article class="lesson" aria-labelledby="lesson-title">
            <header>
                <button class="ghost collapse" aria-expanded=move || open.get().to_string()
                    on:click=move |_| open.update(|o| *o = !*o)
                    aria-controls="lesson-body"
                    aria-label=move || {
                        locale.t(if open.get() { T::LessonCollapse } else { T::LessonExpand })
                    }>
                    <span aria-hidden="true">{move || if open.get() { "▾" } else { "▸" }}</span>
                </button>
                <div class="lesson-head">
                    <span class="eyebrow">
                        {move || locale.t(T::Lesson)}" · "{move || lesson().title.clone()}
                    </span>
                    <h2 id="lesson-title">{move || step().title.clone()}</h2>
                </div>
                <span class="step-count">{move || {
                    format!(
                        "{} {} {}",
                        index() + 1,
                        locale.t(T::StepOf),
                        lesson().steps.len()
                    )
                }}</span>
            </header>
            <Show when=move || open.get()>
                <Show when=untranslated>
                    <p class="lesson-untranslated" role="note">
                        {move || locale.t(T::LessonUntranslated)}
                    </p>
                </Show>
                <div id="lesson-body" class="lesson-body">{move || {
                    lessons::markdown::render(&step().text, Some(on_step))
                }}</div>
                {move || {
                    let i = index();
                    let exercise = structure().steps[i].exercise.as_ref()?;
                    let worded = Signal::derive(move || {
                        lesson().steps[i].exercise.as_ref().unwrap_or(exercise)
                    });
                    let scenario = scenario.get().unwrap_or_default().to_string();
                    Some(view! {
                        <crate::views::exercise_view::ExerciseCard exercise worded scenario/>
                    })
                }}
                <Show when=move || lesson_state.lab.with(|open| *open != step().lab)>
                    <button class="secondary open-lab" on:click=open_step_lab>
                        {move || locale.t(T::OpenLab)}": "{move || step().lab_name.clone()}
                    </button>
                </Show>
                <nav class="lesson-nav">
                    <button class="ghost reset" title=move || locale.t(T::ResetLabHelp)
                        on:click=move |_| lesson_state.reset_step_lab(index(), editor, transport)>
                        {move || locale.t(T::ResetLab)}
                    </button>
                    <button disabled=move || lesson_state.step.get() == 0
                        on:click=move |_| go_to(-1)>
                        "← "{move || locale.t(T::Previous)}
                    </button>
                    <Show when=move || next_lesson().is_some() fallback=move || view! {
                        <button class="primary"
                            disabled=move || {
                                lesson_state.step.get() + 1 >= lesson().steps.len()
                            }
                            on:click=move |_| go_to(1)>
                            {move || locale.t(T::Next)}" →"
                        </button>
                    }>
                        <button class="primary next-lesson" on:click=move |_| {
                            if let Some(next) = next_lesson() {
                                lesson_state.open_lesson(&next.id, editor, transport);
                            }
                        }>
                            {move || locale.t(T::NextLesson)}": "{move || {
                                next_lesson().map(|l| l.title.clone())
                            }}" →"
                        </button>
                    </Show>
                </nav>
            </Show>
        </article>
    }
}

#[component]
fn Bar(
    #[prop(into)] label: Signal<String>,
    #[prop(into)] used: Signal<i64>,
    #[prop(into)] total: Signal<i64>,
    #[prop(into)] text: Signal<String>,
) -> impl IntoView {
    let pct = move || snapshot::percent(used.get(), total.get());
    view! {
        <div class="bar" role="meter" aria-label=move || label.get() aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=move || format!("{:.0}", pct()) aria-valuetext=move || text.get()>
            <span class="bar-label">{move || label.get()}</span>
            <span class="track"><span class="fill" class:hot=move || { pct() >= 90.0 }
                style:width=move || format!("{:.1}%", pct())></span></span>
            <span class="bar-text">{move || text.get()}</span>
        </div>
    }
}

/// A simulation that takes a while (the worker reports after a quarter of a second) says how
/// far it has got and can be stopped; the page stays live meanwhile.
#[component]
fn SimulationProgress() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let page = expect_context::<Page>();
    let transport = expect_context::<Transport>();
    let stop = move |_| {
        transport.playing.set(false);
        engine.stop();
        page.tell(T::SimulationStopped);
    };
    move || {
        engine.progress.get().map(|p| {
            let bound = words::count_of(p.pods_bound, p.pods, Noun::Pod, locale.lang.get());
            view! {
                <div class="sim-progress" role="status">
                    <span class="spinner" aria-hidden="true"></span>
                    <span>{locale.t(T::Simulating)}" "
                        <span class="reached">{snapshot::clock(p.reached)}</span>
                        " / "{snapshot::clock(p.target)}" · "
                        {bound.before}<span class="bound">{bound.number}</span>{bound.after}
                        " "{locale.t(T::PodsBound)}</span>
                    <progress max=p.target.max(1) value=p.reached></progress>
                    <button class="stop" on:click=stop>{locale.t(T::StopSimulation)}</button>
                </div>
            }
        })
    }
}

#[component]
fn Summary() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let s = Memo::new(move |_| engine.snapshot.with(|s| s.summary.clone()));
    view! {
        // Not a live region: at 60× its figures change every frame; the narration
        // (`crate::bridge::narration`) tells what changed, batched.
        <div class="summary"
            data-at=move || engine.snapshot.with(|s| s.time_ms.to_string())>
            <span class="stat">{move || {
                let nodes = words::count(s.get().nodes, Noun::Node, locale.lang.get());
                view! { {nodes.before}<strong>{nodes.number}</strong>{nodes.after} }
            }}</span>
            <Bar label=Signal::derive(move || locale.t(T::Cpu).to_string())
                used=Signal::derive(move || s.get().cpu_requested_milli)
                total=Signal::derive(move || s.get().cpu_allocatable_milli)
                text=Signal::derive(move || {
                    let s = s.get();
                    format!(
                        "{} / {} ({:.0}%)",
                        snapshot::cores(s.cpu_requested_milli),
                        snapshot::cores(s.cpu_allocatable_milli),
                        snapshot::percent(s.cpu_requested_milli, s.cpu_allocatable_milli)
                    )
                })/>
            <Bar label=Signal::derive(move || locale.t(T::Memory).to_string())
                used=Signal::derive(move || s.get().memory_requested)
                total=Signal::derive(move || s.get().memory_allocatable)
                text=Signal::derive(move || {
                    let s = s.get();
                    let (used, total) =
                        snapshot::bytes_pair(s.memory_requested, s.memory_allocatable);
                    format!(
                        "{used} / {total} ({:.0}%)",
                        snapshot::percent(s.memory_requested, s.memory_allocatable)
                    )
                })/>
            <span class="stat cost-stat">
                <strong>{move || snapshot::dollars(s.get().cost_per_hour)}</strong>{move || {
                    locale.t(T::PerHour)
                }}
                " · "{move || snapshot::dollars_per_month(s.get().cost_per_hour)}{move || {
                    locale.t(T::PerMonth)
                }}
            </span>
            <span class="stat pods-stat">
                <span class="pending-count"
                    class:some=move || { s.get().pods_pending > 0 }><strong>{move || {
                        s.get().pods_pending
                    }}</strong>" "{move || locale.t(T::Pending)}</span>
                " · "
                <span><strong>{move || s.get().pods_running}</strong>" "{move || {
                    locale.t(T::Running)
                }}</span>
            </span>
            {move || s.get().decision.map(|line| {
                let title = line.clone();
                view! {
                    <p class="decision"
                        title=title><span class="who">"karpenter"</span>" "{line}</p>
                }
            })}
        </div>
    }
}

#[component]
fn Lanes() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let keys = Memo::new(move |_| {
        engine
            .snapshot
            .with(|s| s.lanes.iter().map(Lane::key).collect::<Vec<_>>())
    });
    view! {
        <Show when=move || !keys.get().is_empty()
            fallback=move || view! { <p class="empty">{move || locale.t(T::EmptyScenario)}</p> }>
            <div class="lanes">
                <For each=move || keys.get() key=|k| k.clone() let:key>
                    <LaneView key=key/>
                </For>
            </div>
        </Show>
    }
}

#[component]
fn LaneView(key: String) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let selection = expect_context::<Selection>();
    let lane_key = key.clone();
    let lane = Memo::new(move |_| {
        engine.snapshot.with(|s| {
            s.lanes
                .iter()
                .find(|l| l.key() == lane_key)
                .map(|l| l.kind.clone())
        })
    });
    let node_key = key.clone();
    let nodes = Memo::new(move |_| {
        engine.snapshot.with(|s| {
            s.lanes
                .iter()
                .find(|l| l.key() == node_key)
                .map(|l| l.nodes.iter().map(|n| n.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    // Past LANE_CARD_LIMIT nodes the lane shows groups until asked for every card.
    let expanded = RwSignal::new(false);
    let many = Memo::new(move |_| nodes.with(|n| n.len() > snapshot::LANE_CARD_LIMIT));
    let grouped = Memo::new(move |_| many.get() && !expanded.get());
    let group_key = StoredValue::new(key.clone());
    let header = move || match lane.get() {
        Some(LaneKind::Fixed) => view! {
            <div class="lane-head">
                <h3><span class="lane-kind">{move || locale.t(T::FixedNodes)}</span></h3>
                <p class="lane-note">{move || locale.t(T::FixedNodesHelp)}</p>
            </div>
        }
        .into_any(),
        Some(LaneKind::NodePool {
            name,
            weight,
            labels,
            taints,
            requirements,
            limits,
            deleted,
            not_ready,
        }) => view! {
            <div class="lane-head">
                <h3>
                    <span class="lane-kind">{move || locale.t(T::NodePool)}</span>" "
                    <span class="lane-name">{name.clone()}</span>
                    {(weight != 0).then(|| view! {
                        <span class="weight">{move || locale.t(T::Weight)}" "{weight}</span>
                    })}
                    {deleted.then(|| view! {
                        <span class="weight">{move || locale.t(T::PoolDeleted)}</span>
                    })}
                </h3>
                {not_ready.map(|why| view! {
                    <p class="not-ready" role="note">{move || {
                        locale.t(T::PoolNotReady)
                    }}" "<code>{why.clone()}</code></p>
                })}
                <div class="chips">
                    {labels.iter().map(|(k, v)| view! {
                        <span class="label-chip"
                            title=move || locale.t(T::Labels)>{format!("{k}={v}")}</span>
                    }).collect_view()}
                    {if taints.is_empty() {
                        view! {
                            <span class="muted">{move || locale.t(T::NoTaints)}</span>
                        }.into_any()
                    } else {
                        taints.iter().map(|t| view! {
                            <span class="taint-chip"
                                title=move || locale.t(T::Taints)>{t.clone()}</span>
                        }).collect_view().into_any()
                    }}
                </div>
                <details class="reqs">
                    <summary>{move || {
                        locale.t(T::Requirements)
                    }}" ("{requirements.len()}")"</summary>
                    <ul>{requirements.iter().map(|r| view! {
                        <li><code>{r.clone()}</code></li>
                    }).collect_view()}</ul>
                </details>
                <div class="limits">
                    {if limits.is_empty() {
                        view! {
                            <span class="muted">{move || locale.t(T::NoLimits)}</span>
                        }.into_any()
                    } else {
                        limits.into_iter().map(|g| {
                            let label = format!("{} {}", locale.t(T::Limits), g.resource);
                            let text = format!("{} / {}", g.used_text, g.limit_text);
                            view! { <Bar label=label used=g.used total=g.limit text=text/> }
                        }).collect_view().into_any()
                    }}
                </div>
            </div>
        }
        .into_any(),
        None => ().into_any(),
    };
    let pool_name = key.strip_prefix("pool/").map(str::to_string);
    let pool_mark = Memo::new(move |_| {
        let name = pool_name.as_ref()?;
        selection.focus.with(|f| f.pools.get(name).cloned())
    });
    let lane_class = move || {
        let base = match lane.get() {
            Some(LaneKind::Fixed) => "lane fixed",
            _ => "lane pool",
        };
        match pool_mark.get() {
            Some(m) if m.chosen => format!("{base} lit chosen"),
            Some(m) if m.fits => format!("{base} lit"),
            Some(_) => format!("{base} dim"),
            None => base.to_string(),
        }
    };
    view! {
        <section class=lane_class data-lane=key.clone()>
            {header}
            {move || pool_mark.get().map(|m| view! {
                <p class="why pool-why" class:fits=m.fits>{m.why}</p>
            })}
            <div class="nodes">
                <Show when=move || !nodes.get().is_empty() fallback=move || view! {
                    <p class="muted no-nodes">{move || locale.t(T::NoNodes)}</p>
                }>
                    <Show when=move || !grouped.get() fallback=move || view! {
                        <NodeGroups key=group_key.get_value() expanded=expanded/>
                    }>
                        {move || many.get().then(|| view! {
                            <button class="ghost regroup" on:click=move |_| {
                                expanded.set(false);
                                engine.show_every_card(&group_key.get_value(), false);
                            }>
                                {move || locale.t(T::GroupNodesAgain)}
                            </button>
                        })}
                        <For each=move || nodes.get() key=|n| n.clone() let:name>
                            <NodeCardView name=name/>
                        </For>
                    </Show>
                </Show>
            </div>
        </section>
    }
}

/// A lane with more nodes than cards help with: a row per instance type, capacity type and
/// state, and a button that shows every card.
#[component]
fn NodeGroups(key: String, expanded: RwSignal<bool>) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let lane_key = StoredValue::new(key.clone());
    let groups = Memo::new(move |_| {
        engine.snapshot.with(|s| {
            s.lanes
                .iter()
                .find(|l| l.key() == key)
                .map(Lane::groups)
                .unwrap_or_default()
        })
    });
    let total = move || groups.with(|g| g.iter().map(|g| g.nodes).sum::<usize>());
    let state_label = move |state: CardState| match state {
        CardState::Launching => locale.t(T::Launching),
        CardState::Registering => locale.t(T::Registering),
        CardState::Ready => locale.t(T::Ready),
        CardState::NotReady => locale.t(T::NotReady),
        CardState::Cordoned => locale.t(T::Cordoned),
        CardState::Deleting => locale.t(T::Deleting),
    };
    view! {
        <div class="node-groups">
            <p class="muted">{move || locale.t(T::NodesGrouped)}</p>
            <table>
                <tbody>
                    {move || groups.get().into_iter().map(|g| {
                        let capacity = match g.capacity_type {
                            CapacityType::Spot => locale.t(T::Spot),
                            CapacityType::OnDemand => locale.t(T::OnDemand),
                            CapacityType::Reserved => locale.t(T::Reserved),
                        };
                        view! {
                            <tr class="node-group" data-instance-type=g.instance_type.clone()
                                data-nodes=g.nodes.to_string()>
                                <td class="group-count">{format!("{} ×", g.nodes)}</td>
                                <td class="itype">{g.instance_type.clone()}</td>
                                <td>{capacity}</td>
                                <td>{state_label(g.state)}</td>
                                <td>{words::count(g.pods, Noun::Pod, locale.lang.get())
                                    .to_string()}</td>
                                <td class="price">{format!(
                                    "{}{}",
                                    snapshot::dollars(g.price_per_hour),
                                    locale.t(T::PerHour)
                                )}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <button class="ghost show-all" on:click=move |_| {
                expanded.set(true);
                // The worker leaves a grouped lane's pods out of its frames until asked.
                engine.show_every_card(&lane_key.get_value(), true);
            }>
                {move || format!("{} ({})", locale.t(T::ShowEveryNode), total())}
            </button>
        </div>
    }
}

fn find_node<'a>(s: &'a snapshot::Snapshot, name: &str) -> Option<&'a NodeCard> {
    s.lanes
        .iter()
        .flat_map(|l| &l.nodes)
        .find(|n| n.name == name)
}

/// Node cards drawn in full in one frame at most when many arrive at once (a snapshot's
/// cluster, a lane shown card by card): a card with its pods costs the page's thread 2-3 ms,
/// and the twenty cards and 400 pods of a 20 MB snapshot's cluster made one task of 60-70 ms.
/// The rest are drawn in the frames that follow, this many a frame; until then a card is its
/// frame alone (its name, state and size). A scale-out of a few nodes draws at once.
const CARDS_PER_FRAME: usize = 6;

/// Paces node cards ([`CARDS_PER_FRAME`]): each new card asks to be drawn; one that finds
/// the frame's allowance spent waits its turn.
mod pacing {
    use std::cell::Cell;

    use leptos::prelude::*;

    use super::CARDS_PER_FRAME;

    thread_local! {
        /// Cards the current frame may still draw.
        static LEFT: Cell<usize> = const { Cell::new(CARDS_PER_FRAME) };
        /// Tickets handed to waiting cards so far, and whether a frame is asked for.
        static ISSUED: Cell<u64> = const { Cell::new(0) };
        static TICKING: Cell<bool> = const { Cell::new(false) };
        /// Tickets served: a waiting card draws once this reaches its ticket. Reference
        /// counted, not owned by the card that first made it: a card's owner is disposed with
        /// the card, and an arena signal with it.
        static SERVED: ArcRwSignal<u64> = ArcRwSignal::new(0);
    }

    /// `None`: draw now. `Some(ticket)`: wait until [`served`] reaches it.
    pub(super) fn admit() -> Option<u64> {
        // The build's drawing of a page (natively) has no frames: every card at once.
        if !cfg!(target_arch = "wasm32") {
            return None;
        }
        tick_next_frame();
        let left = LEFT.get();
        if left > 0 {
            LEFT.set(left - 1);
            return None;
        }
        let ticket = ISSUED.get() + 1;
        ISSUED.set(ticket);
        Some(ticket)
    }

    /// Whether the card holding `ticket` may draw (tracked: it draws when its turn comes).
    pub(super) fn served(ticket: u64) -> bool {
        SERVED.with(|s| s.get()) >= ticket
    }

    fn tick_next_frame() {
        if !TICKING.replace(true) {
            request_animation_frame(tick);
        }
    }

    /// A new frame: its allowance goes first to the cards waiting longest.
    fn tick() {
        TICKING.set(false);
        let served = SERVED.with(|s| s.get_untracked());
        let waiting = (ISSUED.get() - served) as usize;
        let now = waiting.min(CARDS_PER_FRAME);
        LEFT.set(CARDS_PER_FRAME - now);
        if now > 0 {
            SERVED.with(|s| s.set(served + now as u64));
            tick_next_frame();
        }
    }
}

#[component]
fn NodeCardView(name: String) -> impl IntoView {
    let ticket = pacing::admit();
    let drawn = move || ticket.is_none_or(pacing::served);
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let transport = expect_context::<Transport>();
    let selection = expect_context::<Selection>();
    let key = name.clone();
    let card = Memo::new(move |_| engine.snapshot.with(|s| find_node(s, &key).cloned()));
    let state = move || card.with(|c| c.as_ref().map_or(CardState::Ready, |c| c.state));
    let mark_key = name.clone();
    let node_mark = Memo::new(move |_| selection.focus.with(|f| f.nodes.get(&mark_key).cloned()));
    let selected_key = name.clone();
    let is_selected = Memo::new(move |_| {
        selection
            .selected
            .with(|s| matches!(s, Some(Selected::Node { name, .. }) if *name == selected_key))
    });
    let state_class = move || {
        let base = match state() {
            CardState::Launching => "node launching",
            CardState::Registering => "node launching registering",
            CardState::Ready => "node ready",
            CardState::NotReady => "node not-ready",
            CardState::Cordoned => "node cordoned",
            CardState::Deleting => "node deleting",
        };
        let focus = match node_mark.get() {
            Some(m) if m.chosen => " lit chosen",
            Some(m) if m.fits => " lit",
            Some(_) => " dim",
            None => "",
        };
        let selected = if is_selected.get() { " selected" } else { "" };
        format!("{base}{focus}{selected}")
    };
    let select_name = name.clone();
    let select = move || {
        let nodeclaim = card.with_untracked(|c| c.as_ref().and_then(|c| c.nodeclaim.clone()));
        selection.select(Selected::Node {
            name: select_name.clone(),
            nodeclaim,
        });
    };
    let select_key = select.clone();
    let state_text = move || {
        let c = card.get()?;
        let age = words::age(transport.clock.get() - c.created_at_ms, locale.lang.get());
        Some(match c.state {
            CardState::Launching => format!("{} · {age}", locale.t(T::Launching)),
            CardState::Registering => format!("{} · {age}", locale.t(T::Registering)),
            CardState::Ready => format!("{} · {age}", locale.t(T::Ready)),
            CardState::NotReady => format!("{} · {age}", locale.t(T::NotReady)),
            CardState::Cordoned => locale.t(T::Cordoned).to_string(),
            CardState::Deleting => locale.t(T::Deleting).to_string(),
        })
    };
    let chips =
        Memo::new(move |_| card.with(|c| c.as_ref().map(|c| c.pods.clone()).unwrap_or_default()));
    let c = move || card.get();
    view! {
        <article class=state_class data-node=name.clone()
            data-instance-type=move || c().map(|c| c.instance_type).unwrap_or_default()
            tabindex="0"
            aria-label=move || {
                c().map(|c| format!("{} {} {}", c.instance_type, c.zone, c.name))
                    .unwrap_or_default()
            }
            title=move || locale.t(T::ExplainThis)
            on:click=move |_| select()
            on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                // Enter or Space, as on a button (Space then does not also play).
                let on_card = ev.target() == ev.current_target();
                if matches!(ev.key().as_str(), "Enter" | " ") && on_card {
                    ev.prevent_default();
                    select_key()
                }
            }>
            <Show when=drawn>
                <header>
                    <span class="itype">{move || c().map(|c| c.instance_type)}</span>
                    {move || c().map(|c| {
                        let (class, label) = match c.capacity_type {
                            CapacityType::Spot => ("badge spot", locale.t(T::Spot)),
                            CapacityType::OnDemand => ("badge od", locale.t(T::OnDemand)),
                            CapacityType::Reserved => ("badge reserved", locale.t(T::Reserved)),
                        };
                        view! { <span class=class>{label}</span> }
                    })}
                </header>
                <div class="meta">
                    <span>{move || c().map(|c| c.zone)}</span>
                    <span>{move || c().map(|c| c.arch)}</span>
                    <span class="price">{move || c().map(|c| {
                        format!("{}{}", snapshot::dollars(c.price_per_hour), locale.t(T::PerHour))
                    })}</span>
                </div>
                {move || c().filter(|c| !c.labels.is_empty()).map(|c| view! {
                    <div class="node-labels" title=move || locale.t(T::TemplateLabels)>
                        {c.labels.into_iter().map(|(k, v)| view! {
                            <code class="label">{format!("{k}={v}")}</code>
                        }).collect_view()}
                    </div>
                })}
                <div class="status-row">
                    <span class="state-line">{state_text}</span>
                    <span class="podcount">{move || c().map(|c| {
                        let max = c.max_pods.max(0) as usize;
                        words::count_of(c.pods.len(), max, Noun::Pod, locale.lang.get()).to_string()
                    })}</span>
                </div>
                {move || node_mark.get().filter(|m| !m.chosen).map(|m| view! {
                    <div class="why" class:fits=m.fits>{m.why}</div>
                })}
                {move || c().and_then(|c| c.fate).map(|fate| {
                    let (class, text) = match fate {
                        Fate::Drifted(why) => {
                            ("fate drifted", format!("{}: {why}", locale.t(T::Drifted)))
                        }
                        Fate::Disrupting(why) => {
                            ("fate disrupting", format!("{}: {why}", locale.t(T::Disrupting)))
                        }
                        Fate::SpotInterrupted => {
                            ("fate interrupted", locale.t(T::SpotInterrupted).to_string())
                        }
                        Fate::ReservationInterrupted => {
                            ("fate interrupted", locale.t(T::ReservationInterrupted).to_string())
                        }
                        Fate::Expired => ("fate expired", locale.t(T::Expired).to_string()),
                        Fate::Unhealthy { condition, repair_in_ms, gate_off } => (
                            "fate unhealthy",
                            words::unhealthy(&condition, repair_in_ms, gate_off, locale.lang.get()),
                        ),
                    };
                    view! { <div class=class>{text}</div> }
                })}
                <Bar label=Signal::derive(move || locale.t(T::Cpu).to_string())
                    used=Signal::derive(move || c().map_or(0, |c| c.cpu_requested_milli))
                    total=Signal::derive(move || c().map_or(0, |c| c.cpu_allocatable_milli))
                    text=Signal::derive(move || {
                        c().map(|c| {
                            format!(
                                "{} / {}",
                                snapshot::cores(c.cpu_requested_milli),
                                snapshot::cores(c.cpu_allocatable_milli)
                            )
                        })
                        .unwrap_or_default()
                    })/>
                <Bar label=Signal::derive(move || locale.t(T::Memory).to_string())
                    used=Signal::derive(move || c().map_or(0, |c| c.memory_requested))
                    total=Signal::derive(move || c().map_or(0, |c| c.memory_allocatable))
                    text=Signal::derive(move || {
                        c().map(|c| {
                            let (used, total) =
                                snapshot::bytes_pair(c.memory_requested, c.memory_allocatable);
                            format!("{used} / {total}")
                        })
                        .unwrap_or_default()
                    })/>
                <div class="pods">
                    <For each=move || chips.get() key=|p| p.key.clone() let:pod>
                        <Chip pod=pod/>
                    </For>
                </div>
            </Show>
        </article>
    }
}

#[component]
fn Chip(pod: PodChip) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let selection = expect_context::<Selection>();
    let tip_id = format!("tip-{}", pod.key.replace(['/', '.'], "-"));
    let has_tip = pod.reason.is_some() || pod.nominated.is_some();
    let tip = {
        let pod = pod.clone();
        move || {
            let mut lines = vec![pod.key.clone()];
            if let Some(owner) = &pod.owner {
                lines.push(owner.clone());
            }
            lines.push(format!(
                "{} {} · {} {}",
                locale.t(T::Cpu),
                snapshot::cores(pod.cpu_milli),
                locale.t(T::Memory),
                snapshot::bytes(pod.memory)
            ));
            if let Some(n) = &pod.nominated {
                lines.push(format!("{} {n}", locale.t(T::Nominated)));
            }
            if let Some(r) = &pod.reason {
                lines.push(r.clone());
            }
            lines.join("\n")
        }
    };
    let class = format!(
        "pod w{}{}{}",
        pod.colour,
        if pod.daemon { " daemon" } else { "" },
        if pod.nominated.is_some() {
            " nominated"
        } else {
            ""
        }
    );
    let key = pod.key.clone();
    let selected_key = pod.key.clone();
    let is_selected = Memo::new(move |_| {
        selection
            .selected
            .with(|s| matches!(s, Some(Selected::Pod(k)) if *k == selected_key))
    });
    view! {
        <span class="pod-wrap">
            // Named by its text: the short name on the chip, the part it leaves out there
            // for screen readers (the whole name, which the visible text is part of).
            <button class=class data-pod=pod.key.clone() aria-describedby=tip_id.clone()
                class:selected=move || is_selected.get()
                aria-pressed=move || is_selected.get().to_string()
                on:click=move |ev| {
                    // The chip sits in a node card, which selects the node on click.
                    ev.stop_propagation();
                    selection.select(Selected::Pod(key.clone()));
                }>
                <span class="pod-name">{
                    let (head, hidden, tail) = name_parts(&pod.name);
                    view! {
                        {head}
                        <span class="visually-hidden">{hidden}</span>
                        {tail}
                    }
                }</span>
            </button>
            <span class="tip" role="tooltip" id=tip_id class:has-reason=has_tip>{tip}</span>
        </span>
    }
}

/// `busybox-7d9c-x2k4p` → (`busybox-`, `7d9c-`, `x2k4p`): the chip shows the workload and
/// the pod's own suffix, and keeps the part between for screen readers.
fn name_parts(name: &str) -> (String, String, String) {
    let parts: Vec<&str> = name.split('-').collect();
    if parts.len() >= 3 {
        (
            format!("{}-", parts[..parts.len() - 2].join("-")),
            format!("{}-", parts[parts.len() - 2]),
            parts[parts.len() - 1].to_string(),
        )
    } else {
        (name.to_string(), String::new(), String::new())
    }
}

#[component]
fn PendingTray() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let pending = Memo::new(move |_| engine.snapshot.with(|s| s.pending.clone()));
    // Past the chip limit the snapshot carries the pending pods by workload instead.
    let groups = Memo::new(move |_| {
        engine.snapshot.with(|s| match s.pending.is_empty() {
            true => s.pending_groups.clone(),
            false => Vec::new(),
        })
    });
    let count = Memo::new(move |_| {
        engine
            .snapshot
            .with(|s| s.pending_groups.iter().map(|g| g.pods).sum::<usize>())
    });
    view! {
        <section class="tray" aria-labelledby="tray-title"
            class:empty=move || { count.get() == 0 }>
            <h3 id="tray-title">{move || locale.t(T::PendingPods)}<span class="count">{move || {
                count.get()
            }}</span></h3>
            <Show when=move || { count.get() > 0 } fallback=move || view! {
                <p class="muted">{move || locale.t(T::NoPendingPods)}</p>
            }>
                <Show when=move || groups.with(Vec::is_empty) fallback=move || view! {
                    <p class="muted grouped-note">{move || locale.t(T::PendingGrouped)}</p>
                    <ul class="pending-groups">
                        <For each=move || groups.get()
                            key=|g| format!("{}|{}|{:?}", g.owner, g.pods, g.first.reason)
                            let:group>
                            <li class="pending-group" data-owner=group.owner.clone()>
                                <Chip pod=group.first.clone()/>
                                <span class="owner">{group.owner.clone()}</span>
                                <span class="times">"× "{snapshot::count(group.pods)}</span>
                                <span class="why muted">{
                                    group.first.reason.as_deref().and_then(|r| r.lines().next())
                                        .unwrap_or_default().to_string()
                                }</span>
                            </li>
                        </For>
                    </ul>
                }>
                    <div class="pods">
                        <For each=move || pending.get()
                            key=|p| format!("{}|{:?}|{:?}", p.key, p.reason, p.nominated) let:pod>
                            <Chip pod=pod/>
                        </For>
                    </div>
                </Show>
            </Show>
        </section>
    }
}

#[component]
pub fn Events() -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let transport = expect_context::<Transport>();
    let selection = expect_context::<Selection>();
    let count = Memo::new(move |_| engine.snapshot.with(|s| s.events.len()));
    view! {
        <div class="events" role="log" aria-live="off">
            <Show when=move || { count.get() > 0 } fallback=move || view! {
                <p class="muted">{move || locale.t(T::NoEvents)}</p>
            }>
                <ol>
                    // Keyed by the line's place in the log (and what it says, as a new
                    // simulation's log starts over): a frame adds its new lines and drops the
                    // oldest instead of building all 300 again.
                    <For each=move || engine.snapshot.with(|s| s.events.latest_numbered(300))
                        key=|(i, e)| (*i, e.time_ms, e.object.clone(), e.message.len())
                        let:numbered>
                        {
                            let e = numbered.1;
                            view! {
                            <li class:warning=e.warning>
                                <time>{snapshot::clock(e.time_ms)}</time>
                                <span class="etype">{
                                    if e.warning { "Warning" } else { "Normal" }
                                }</span>
                                <span class="reason">{camel_breaks(&e.reason).into_iter()
                                    .map(|part| view! { {part}<wbr/> }).collect_view()}</span>
                                {if Selected::of_event_object(&e.object).is_some() {
                                    let (object, at) = (e.object.clone(), e.time_ms);
                                    view! {
                                        <button class="object link"
                                            title=move || locale.t(T::ExplainAtEvent)
                                            on:click=move |_| {
                                                selection.explain_event(
                                                    &object, at, transport, engine,
                                                );
                                            }>{e.object}</button>
                                    }.into_any()
                                } else {
                                    view! { <span class="object">{e.object}</span> }.into_any()
                                }}
                                <span class="emsg">{e.message}</span>
                            </li>
                            }
                        }
                    </For>
                </ol>
            </Show>
        </div>
    }
}

/// An event reason cut before each capital (`Insufficient`, `Capacity`, `Error`), so that a
/// long reason wraps at its words in the narrow column instead of running into the next.
fn camel_breaks(reason: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for c in reason.chars() {
        match parts.last_mut() {
            Some(last) if !c.is_ascii_uppercase() => last.push(c),
            _ => parts.push(c.to_string()),
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    #[test]
    fn reasons_break_at_their_words() {
        assert_eq!(
            super::camel_breaks("InsufficientCapacityError"),
            ["Insufficient", "Capacity", "Error"]
        );
        assert_eq!(super::camel_breaks("Created"), ["Created"]);
        assert!(super::camel_breaks("").is_empty());
    }
}

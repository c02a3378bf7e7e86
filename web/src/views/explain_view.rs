//! The Explain tab: the selected pod's or node's [`Explanation`], drawn from the same lines
//! `kpg explain` prints. A pod's NodePools are a short list (lit or dimmed with the first
//! failing check) and, on demand, the NodePool × check matrix; a node's launch section is
//! its NodeClaim's candidate table; its disruption line carries the live countdown.

use leptos::prelude::*;

use kpg_explain::{Explanation, Line, Section, Status};

use crate::base::i18n::T;
use crate::state::focus::{self, CHECKS};
use crate::state::{Engine, Locale, Selected, Selection};

fn status_class(s: Status) -> &'static str {
    match s {
        Status::Pass => "st pass",
        Status::Fail => "st fail",
        Status::Chosen => "st chosen",
        Status::Skipped => "st skipped",
        Status::Info => "st info",
    }
}

fn mark(s: Status) -> &'static str {
    match s {
        Status::Pass => "✓",
        Status::Fail => "✗",
        Status::Chosen => "→",
        Status::Skipped => "·",
        Status::Info => "–",
    }
}

fn check_label(check: &str) -> T {
    match check {
        "taints" => T::CheckTaints,
        "requirements" => T::CheckRequirements,
        "resources" => T::CheckResources,
        "offerings" => T::CheckOfferings,
        _ => T::CheckLimits,
    }
}

/// What the Explain tab's parts use: the words, the selection, and the cluster on screen (a
/// linked node is selected with its NodeClaim).
#[derive(Clone, Copy)]
struct Contexts {
    locale: Locale,
    selection: Selection,
    engine: Engine,
}

impl Contexts {
    fn t(&self, key: T) -> &'static str {
        self.locale.t(key)
    }
}

#[component]
pub fn ExplainPane() -> impl IntoView {
    let ctx = Contexts {
        locale: expect_context::<Locale>(),
        selection: expect_context::<Selection>(),
        engine: expect_context::<Engine>(),
    };
    view! {
        <div class="explain" role="tabpanel" aria-live="polite">
            {move || match ctx.selection.explanation.get() {
                None => {
                    view! { <p class="muted hint">{move || ctx.t(T::ExplainHint)}</p> }.into_any()
                }
                Some(Err(message)) => view! {
                    <p class="muted hint">{move || {
                        ctx.t(T::ExplainGone)
                    }}" "<code>{message.clone()}</code></p>
                }.into_any(),
                Some(Ok(e)) => explanation_view(ctx, e).into_any(),
            }}
        </div>
    }
}

fn explanation_view(ctx: Contexts, e: Explanation) -> impl IntoView {
    let kind = match &*e.kind {
        "pod" => T::KindPod,
        "node" => T::KindNode,
        _ => T::KindNodeClaim,
    };
    let matrix = focus::matrix(&e);
    // A node's status and its candidate table first: they answer "why this node, and why
    // is it (not) going away"; the filter-by-filter funnel is the detail.
    let mut sections: Vec<&Section> = e.sections.iter().collect();
    if e.kind != "pod" {
        const FIRST: [&str; 3] = ["disruption", "launch", "funnel"];
        sections.sort_by_key(|s| {
            FIRST
                .iter()
                .position(|id| *id == s.id)
                .unwrap_or(FIRST.len())
        });
    }
    let sections = sections
        .into_iter()
        .map(|s| match &*s.id {
            "nodepools" => pools_view(ctx, s, matrix.clone()).into_any(),
            "launch" => launch_view(ctx, s).into_any(),
            _ => section_view(ctx, s).into_any(),
        })
        .collect_view();
    view! {
        <article class="explanation" data-kind=e.kind data-name=e.name.clone()>
            <header>
                <span class="kind">{move || ctx.t(kind)}</span>
                <strong class="subject">{e.name.clone()}</strong>
                <time>{e.time.clone()}</time>
                <button class="ghost clear" title=move || ctx.t(T::ClearSelection)
                    aria-label=move || ctx.t(T::ClearSelection)
                    on:click=move |_| ctx.selection.selected.set(None)>"×"</button>
            </header>
            <p class="answer">{e.summary.clone()}</p>
            {sections}
        </article>
    }
}

fn section_head(s: &Section) -> impl IntoView + use<> {
    view! {
        <h4>{s.title.clone()}{s.at.clone().map(|at| view! { " " <time>{at}</time> })}</h4>
    }
}

/// What a line's subject links to: the node kube-scheduler filtered, the pod a NodeClaim
/// was launched for. Following it explains that one instead.
#[derive(Clone, Copy)]
enum Link {
    None,
    Node,
    Pod,
}

fn line_view(ctx: Contexts, l: &Line, link: Link) -> impl IntoView + use<> {
    let price = l.price_per_hour.map(|p| format!("${p:.4}/h"));
    let subject = l.subject.clone();
    let (target, text) = match (&subject, link) {
        (Some(s), Link::Node | Link::Pod) if focus::without_subject(l) != l.text => {
            (Some(s.clone()), format!(" {}", focus::without_subject(l)))
        }
        _ => (None, l.text.clone()),
    };
    let link_view = target.map(|t| {
        let label = t.clone();
        view! {
            <button class="link" title=move || ctx.t(T::ExplainThis) on:click=move |_| match link {
                Link::Pod => ctx.selection.select(Selected::Pod(t.clone())),
                _ => ctx.selection.select_node(&t, ctx.engine),
            }>{label}</button>
        }
    });
    view! {
        <li class=status_class(l.status) data-check=l.check.clone().unwrap_or_default().into_owned()
            data-subject=subject.unwrap_or_default()>
            <span class="mark" aria-hidden="true">{mark(l.status)}</span>
            <span class="text">{link_view}{text}</span>
            {price.map(|p| view! { <span class="price">{p}</span> })}
        </li>
    }
}

fn section_view(ctx: Contexts, s: &Section) -> impl IntoView + use<> {
    let link = match &*s.id {
        "kube-scheduler" => Link::Node,
        "pods" => Link::Pod,
        _ => Link::None,
    };
    view! {
        <section class="ex-section" data-section=s.id.to_string()>
            {section_head(s)}
            <ul>{s.lines.iter().map(|l| line_view(ctx, l, link)).collect_view()}</ul>
        </section>
    }
}

/// A line per NodePool (its verdict and the first failing check), then the matrix on demand.
fn pools_view(ctx: Contexts, s: &Section, matrix: Vec<focus::MatrixRow>) -> impl IntoView + use<> {
    let rows = matrix.clone();
    let summary = rows
        .into_iter()
        .map(|r| {
            let why = r.reason();
            view! {
                <li class=status_class(r.verdict) data-pool=r.pool.clone()>
                    <span class="mark" aria-hidden="true">{mark(r.verdict)}</span>
                    <span class="text"><strong>{r.pool.clone()}</strong>" "{why}</span>
                </li>
            }
        })
        .collect_view();
    let table_rows = matrix
        .into_iter()
        .map(|r| {
            view! {
                <tr data-pool=r.pool.clone()>
                    <th scope="row">{r.pool.clone()}</th>
                    {r.cells.into_iter().map(|c| match c {
                        Some((st, text)) => {
                            let title = text.clone();
                            view! {
                                <td class=status_class(st)
                                    title=title><span aria-hidden="true">{mark(st)}</span><span
                                    class="cell-text">{text}</span></td>
                            }.into_any()
                        }
                        None => view! { <td class="st skipped">"·"</td> }.into_any(),
                    }).collect_view()}
                    <td class=status_class(r.verdict)
                        title=r.verdict_text.clone()><span aria-hidden="true">{
                            mark(r.verdict)
                        }</span></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="ex-section" data-section=s.id.to_string()>
            {section_head(s)}
            <ul>{summary}</ul>
            <details class="matrix">
                <summary>{move || ctx.t(T::Matrix)}</summary>
                <div class="matrix-scroll">
                    <table>
                        <thead><tr>
                            <th scope="col">{move || ctx.t(T::NodePool)}</th>
                            {CHECKS.iter().map(|c| {
                                let c = *c;
                                view! {
                                    <th scope="col"
                                        data-check=c>{move || ctx.t(check_label(c))}</th>
                                }
                            }).collect_view()}
                            <th scope="col">{move || ctx.t(T::Verdict)}</th>
                        </tr></thead>
                        <tbody>{table_rows}</tbody>
                    </table>
                </div>
            </details>
        </section>
    }
}

/// The NodeClaim's candidate table: the chosen type and the cheaper ones with why each lost;
/// the capacity-type and zone reasons above it.
fn launch_view(ctx: Contexts, s: &Section) -> impl IntoView + use<> {
    let (typed, notes): (Vec<&Line>, Vec<&Line>) =
        s.lines.iter().partition(|l| l.subject.is_some());
    let rows = typed
        .into_iter()
        .map(|l| {
            let name = l.subject.clone().unwrap_or_default();
            let reason = focus::without_subject(l).to_string();
            let label = name.clone();
            view! {
                <tr class=status_class(l.status) data-type=name>
                    <td><span class="mark"
                        aria-hidden="true">{mark(l.status)}</span>" "<code>{label}</code></td>
                    <td class="num">{l.price_per_hour.map(|p| format!("${p:.4}"))}</td>
                    <td>{reason}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="ex-section" data-section=s.id.to_string()>
            {section_head(s)}
            <ul>{notes.into_iter().map(|l| line_view(ctx, l, Link::None)).collect_view()}</ul>
            <table class="candidates">
                <thead><tr>
                    <th scope="col">{move || ctx.t(T::InstanceType)}</th>
                    <th scope="col" class="num">{move || ctx.t(T::PricePerHour)}</th>
                    <th scope="col">{move || ctx.t(T::Outcome)}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}

//! A lesson's text on the page: the tree `kpg_lesson::rich_text` made of its Markdown,
//! rendered as elements and text nodes. Nothing is ever set as HTML, so nothing a lesson
//! says can become markup; which links lead anywhere was decided when the tree was made.

use leptos::prelude::*;

use kpg_lesson::rich_text::{Kind, Node};

/// A lesson text on the page. `on_step` opens a step of the lesson by its id.
pub fn render(nodes: &[Node], on_step: Option<Callback<String>>) -> impl IntoView + use<> {
    nodes
        .iter()
        .cloned()
        .map(|n| view_of(n, on_step))
        .collect_view()
}

/// A lesson text that is one line of a list or a heading (a task, a goal): its paragraph's
/// contents, without the paragraph.
pub fn render_inline(nodes: &[Node]) -> impl IntoView + use<> {
    let inner: Vec<Node> = match <[Node; 1]>::try_from(nodes.to_vec()) {
        Ok([Node::Element(Kind::Paragraph, children)]) => children,
        Ok([other]) => vec![other],
        Err(nodes) => nodes,
    };
    inner.into_iter().map(|n| view_of(n, None)).collect_view()
}

fn children_of(nodes: Vec<Node>, on_step: Option<Callback<String>>) -> Vec<AnyView> {
    nodes.into_iter().map(|n| view_of(n, on_step)).collect()
}

fn view_of(node: Node, on_step: Option<Callback<String>>) -> AnyView {
    let (kind, children) = match node {
        Node::Text(t) => return t.into_any(),
        Node::Element(kind, children) => (kind, children),
    };
    let c = children_of(children, on_step);
    match kind {
        Kind::Paragraph => view! { <p>{c}</p> }.into_any(),
        Kind::Heading(3) => view! { <h3>{c}</h3> }.into_any(),
        Kind::Heading(4) => view! { <h4>{c}</h4> }.into_any(),
        Kind::Heading(_) => view! { <h5>{c}</h5> }.into_any(),
        Kind::Quote => view! { <blockquote>{c}</blockquote> }.into_any(),
        Kind::CodeBlock => view! { <pre><code>{c}</code></pre> }.into_any(),
        Kind::List { ordered: None } => view! { <ul>{c}</ul> }.into_any(),
        Kind::List {
            ordered: Some(start),
        } => view! { <ol start=start>{c}</ol> }.into_any(),
        Kind::Item => view! { <li>{c}</li> }.into_any(),
        Kind::Emphasis => view! { <em>{c}</em> }.into_any(),
        Kind::Strong => view! { <strong>{c}</strong> }.into_any(),
        Kind::Strikethrough => view! { <del>{c}</del> }.into_any(),
        Kind::Code => view! { <code>{c}</code> }.into_any(),
        Kind::StepLink(id) => {
            let href = format!("#{id}");
            view! {
                <a class="step-link" href=href on:click=move |ev| {
                    ev.prevent_default();
                    if let Some(open) = on_step {
                        open.run(id.clone());
                    }
                }>{c}</a>
            }
            .into_any()
        }
        Kind::Link(href) => view! {
            <a href=href target="_blank" rel="noopener noreferrer">{c}</a>
        }
        .into_any(),
        Kind::Image { src, alt } => view! { <img src=src alt=alt loading="lazy"/> }.into_any(),
        Kind::LineBreak => view! { <br/> }.into_any(),
        Kind::Rule => view! { <hr/> }.into_any(),
        Kind::Table => view! { <table class="md-table">{c}</table> }.into_any(),
        Kind::TableRow { .. } => view! { <tr>{c}</tr> }.into_any(),
        Kind::TableCell { head: true } => view! { <th>{c}</th> }.into_any(),
        Kind::TableCell { head: false } => view! { <td>{c}</td> }.into_any(),
    }
}

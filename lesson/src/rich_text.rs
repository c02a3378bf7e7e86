//! A lesson's Markdown as a tree of the elements a lesson may use, for the page to render
//! as elements and text nodes: nothing in it is ever HTML. [`parse`] (the `prepare`
//! feature) reads the text as CommonMark, with strikethrough and tables, using
//! `pulldown-cmark`. HTML written in a lesson becomes the text it is, and a link is a link
//! only when it leads to a step of the lesson, a web page, a mail address, or a file beside a
//! lesson that has an address of its own ([`classify`] decides, as `kpg lesson check` does).

use pulldown_cmark::Options;
#[cfg(feature = "prepare")]
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};

#[cfg(feature = "prepare")]
use crate::markdown::{Target, classify};

/// CommonMark with strikethrough and tables: how the page reads a lesson's Markdown, and so
/// how `kpg lesson check` finds its links.
pub(crate) const OPTIONS: Options = Options::ENABLE_STRIKETHROUGH.union(Options::ENABLE_TABLES);

/// The elements a lesson's text can hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Node {
    Text(String),
    Element(Kind, Vec<Node>),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Paragraph,
    /// `#` to `###`, shown two levels down (the lesson's step title is the card's heading).
    Heading(u8),
    Quote,
    /// A fenced or indented code block.
    CodeBlock,
    List {
        ordered: Option<u64>,
    },
    Item,
    Emphasis,
    Strong,
    Strikethrough,
    Code,
    /// A link to a step of the lesson (`#step-id`).
    StepLink(String),
    /// A link that leaves the page: a web page or a mail address (or a file beside a lesson
    /// that has an address).
    Link(String),
    Image {
        src: String,
        alt: String,
    },
    LineBreak,
    Rule,
    Table,
    TableRow {
        head: bool,
    },
    TableCell {
        head: bool,
    },
}

/// `text` as a tree. `base` is the lesson file's address when it has one (a lesson loaded
/// from a URL): relative links and images resolve against it; without one they are text.
#[cfg(feature = "prepare")]
pub fn parse(text: &str, base: Option<&str>) -> Vec<Node> {
    // Children of the open elements, innermost last; the root's at the bottom.
    let mut stack: Vec<(Option<Kind>, Vec<Node>)> = vec![(None, Vec::new())];
    let mut in_head = false;
    for event in Parser::new_ext(text, OPTIONS) {
        match event {
            Event::Start(tag) => {
                let kind = match tag {
                    Tag::Paragraph => Some(Kind::Paragraph),
                    Tag::Heading { level, .. } => Some(Kind::Heading(match level {
                        HeadingLevel::H1 => 3,
                        HeadingLevel::H2 => 4,
                        _ => 5,
                    })),
                    Tag::BlockQuote(_) => Some(Kind::Quote),
                    Tag::CodeBlock(_) => Some(Kind::CodeBlock),
                    Tag::List(start) => Some(Kind::List { ordered: start }),
                    Tag::Item => Some(Kind::Item),
                    Tag::Emphasis => Some(Kind::Emphasis),
                    Tag::Strong => Some(Kind::Strong),
                    Tag::Strikethrough => Some(Kind::Strikethrough),
                    Tag::Link { dest_url, .. } => link(&dest_url, base),
                    Tag::Image { dest_url, .. } => {
                        resolve(&dest_url, base).map(|src| Kind::Image {
                            src,
                            alt: String::new(),
                        })
                    }
                    Tag::Table(_) => Some(Kind::Table),
                    Tag::TableHead => {
                        in_head = true;
                        Some(Kind::TableRow { head: true })
                    }
                    Tag::TableRow => Some(Kind::TableRow { head: false }),
                    Tag::TableCell => Some(Kind::TableCell { head: in_head }),
                    // HTML blocks, footnotes, definition lists, metadata: their text is kept,
                    // in a plain element of no meaning.
                    _ => None,
                };
                stack.push((kind, Vec::new()));
            }
            Event::End(end) => {
                if end == TagEnd::TableHead {
                    in_head = false;
                }
                let Some((kind, children)) = stack.pop() else {
                    continue;
                };
                let Some(parent) = stack.last_mut() else {
                    continue;
                };
                match kind {
                    // An image's alt text is its children's text.
                    Some(Kind::Image { src, .. }) => {
                        let alt = plain(&children);
                        parent
                            .1
                            .push(Node::Element(Kind::Image { src, alt }, Vec::new()));
                    }
                    Some(kind) => parent.1.push(Node::Element(kind, children)),
                    None => parent.1.extend(children),
                }
                // A stray end (never from the parser) keeps the root in place.
                if stack.is_empty() {
                    stack.push((None, Vec::new()));
                }
            }
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => push_text(&mut stack, &t),
            Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                if let Some(top) = stack.last_mut() {
                    top.1
                        .push(Node::Element(Kind::Code, vec![Node::Text(t.to_string())]));
                }
            }
            Event::SoftBreak => push_text(&mut stack, "\n"),
            Event::HardBreak => push(&mut stack, Node::Element(Kind::LineBreak, Vec::new())),
            Event::Rule => push(&mut stack, Node::Element(Kind::Rule, Vec::new())),
            Event::FootnoteReference(t) => push_text(&mut stack, &format!("[{t}]")),
            Event::TaskListMarker(done) => push_text(&mut stack, if done { "☑ " } else { "☐ " }),
        }
    }
    // Unclosed elements (never from the parser) are closed in order.
    while stack.len() > 1 {
        let (kind, children) = stack.pop().unwrap_or_default();
        let parent = &mut stack.last_mut().expect("the root stays").1;
        match kind {
            Some(kind) => parent.push(Node::Element(kind, children)),
            None => parent.extend(children),
        }
    }
    stack.pop().map(|(_, nodes)| nodes).unwrap_or_default()
}

#[cfg(feature = "prepare")]
fn push(stack: &mut [(Option<Kind>, Vec<Node>)], node: Node) {
    if let Some(top) = stack.last_mut() {
        top.1.push(node);
    }
}

/// Text, joined to the text before it.
#[cfg(feature = "prepare")]
fn push_text(stack: &mut [(Option<Kind>, Vec<Node>)], text: &str) {
    if let Some(top) = stack.last_mut() {
        match top.1.last_mut() {
            Some(Node::Text(before)) => before.push_str(text),
            _ => top.1.push(Node::Text(text.to_string())),
        }
    }
}

/// What a link to `dest` becomes: a step link, a link out, or (refused) just its text.
#[cfg(feature = "prepare")]
fn link(dest: &str, base: Option<&str>) -> Option<Kind> {
    match classify(dest) {
        Target::Step(id) => Some(Kind::StepLink(id.to_string())),
        Target::Web | Target::Mail => Some(Kind::Link(dest.to_string())),
        Target::File(_) => resolve(dest, base).map(Kind::Link),
        Target::Refused(_) => None,
    }
}

/// An image's or a file link's address: a web address as it is, a relative path against the
/// lesson's address; `None` for anything else (a `data:` or `javascript:` address, or a
/// relative path in a lesson with no address).
#[cfg(feature = "prepare")]
fn resolve(dest: &str, base: Option<&str>) -> Option<String> {
    match classify(dest) {
        Target::Web => Some(dest.to_string()),
        Target::File(_) => {
            let base = base?;
            let dir = &base[..base.rfind('/')? + 1];
            let joined = format!("{dir}{dest}");
            matches!(classify(&joined), Target::Web).then_some(joined)
        }
        _ => None,
    }
}

/// The text of a tree, without its elements.
pub fn plain(nodes: &[Node]) -> String {
    let mut out = String::new();
    for node in nodes {
        match node {
            Node::Text(t) => out.push_str(t),
            Node::Element(_, children) => out.push_str(&plain(children)),
        }
    }
    out
}

#[cfg(all(test, feature = "prepare"))]
mod tests {
    use super::*;

    fn el(kind: Kind, children: Vec<Node>) -> Node {
        Node::Element(kind, children)
    }
    fn text(t: &str) -> Node {
        Node::Text(t.into())
    }

    #[test]
    fn paragraphs_code_and_emphasis_are_elements() {
        let nodes = parse(
            "Press **Play**. The `nginx` pod *waits*.\n\nThen look.",
            None,
        );
        assert_eq!(
            nodes,
            vec![
                el(
                    Kind::Paragraph,
                    vec![
                        text("Press "),
                        el(Kind::Strong, vec![text("Play")]),
                        text(". The "),
                        el(Kind::Code, vec![text("nginx")]),
                        text(" pod "),
                        el(Kind::Emphasis, vec![text("waits")]),
                        text("."),
                    ]
                ),
                el(Kind::Paragraph, vec![text("Then look.")]),
            ]
        );
    }

    #[test]
    fn html_in_a_lesson_is_text() {
        let hostile = "<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> there";
        let nodes = parse(hostile, None);
        assert_eq!(
            plain(&nodes),
            "<script>alert(1)</script>\nHi <img src=x onerror=alert(1)> there"
        );
        fn kinds(nodes: &[Node], out: &mut Vec<Kind>) {
            for n in nodes {
                if let Node::Element(k, c) = n {
                    out.push(k.clone());
                    kinds(c, out);
                }
            }
        }
        let mut found = Vec::new();
        kinds(&nodes, &mut found);
        assert_eq!(
            found,
            vec![Kind::Paragraph],
            "only the second block is a paragraph"
        );
    }

    #[test]
    fn links_lead_only_where_a_lesson_may_lead() {
        let link_of = |md: &str, base: Option<&str>| match parse(md, base).as_slice() {
            [Node::Element(Kind::Paragraph, c)] => c.first().cloned(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            link_of("[next](#scale-out)", None),
            Some(el(Kind::StepLink("scale-out".into()), vec![text("next")]))
        );
        assert_eq!(
            link_of("[docs](https://karpenter.sh/docs/)", None),
            Some(el(
                Kind::Link("https://karpenter.sh/docs/".into()),
                vec![text("docs")]
            ))
        );
        for hostile in [
            "[x](javascript:alert(1))",
            "[x](data:text/html,<b>)",
            "[x](vbscript:y)",
        ] {
            assert_eq!(link_of(hostile, None), Some(text("x")), "{hostile}");
        }
        // A file beside the lesson: a link when the lesson has an address, else its text.
        assert_eq!(link_of("[lab](lab.yaml)", None), Some(text("lab")));
        assert_eq!(
            link_of(
                "[lab](lab.yaml)",
                Some("https://blog.example/l/lesson.yaml")
            ),
            Some(el(
                Kind::Link("https://blog.example/l/lab.yaml".into()),
                vec![text("lab")]
            ))
        );
        assert_eq!(
            link_of("![a diagram](https://x.example/d.png)", None),
            Some(el(
                Kind::Image {
                    src: "https://x.example/d.png".into(),
                    alt: "a diagram".into()
                },
                vec![]
            ))
        );
        assert_eq!(
            link_of("![evil](javascript:alert(1))", None),
            Some(text("evil"))
        );
    }

    #[test]
    fn lists_headings_and_code_blocks() {
        let nodes = parse("# Title\n\n- one\n- two\n\n```yaml\nkind: Pod\n```\n", None);
        assert_eq!(nodes[0], el(Kind::Heading(3), vec![text("Title")]));
        assert!(
            matches!(&nodes[1], Node::Element(Kind::List { ordered: None }, items)
            if items.len() == 2)
        );
        assert_eq!(nodes[2], el(Kind::CodeBlock, vec![text("kind: Pod\n")]));
    }
}

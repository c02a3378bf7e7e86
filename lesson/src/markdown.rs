//! The links in a lesson's Markdown, and what each is: a step of the lesson (`#id`), a file
//! beside it (a relative path), or a web page (`http(s)://`). Only found, never followed or
//! rendered here. Read as the page's renderer reads the Markdown, so what the page shows as
//! code or text holds no link.

use pulldown_cmark::{Event, LinkType, Parser, Tag};

/// Every link and image destination in `text`, as the page's renderer reads the Markdown
/// (`rich_text::parse`: CommonMark with the same options), in the order written: inline
/// links and images, autolinks, then every reference definition (`[name]: dest`), used or
/// not. A link by reference is its definition's, counted once. Code holds no links.
pub fn links(text: &str) -> Vec<String> {
    let parser = Parser::new_ext(text, crate::rich_text::OPTIONS);
    let mut definitions: Vec<(usize, String)> = parser
        .reference_definitions()
        .iter()
        .map(|(_, def)| (def.span.start, def.dest.to_string()))
        .collect();
    definitions.sort();
    let mut out = Vec::new();
    for event in parser {
        if let Event::Start(
            Tag::Link {
                link_type,
                dest_url,
                ..
            }
            | Tag::Image {
                link_type,
                dest_url,
                ..
            },
        ) = event
        {
            let by_reference = matches!(
                link_type,
                LinkType::Reference
                    | LinkType::ReferenceUnknown
                    | LinkType::Collapsed
                    | LinkType::CollapsedUnknown
                    | LinkType::Shortcut
                    | LinkType::ShortcutUnknown
            );
            if !by_reference {
                out.push(dest_url.to_string());
            }
        }
    }
    out.extend(definitions.into_iter().map(|(_, dest)| dest));
    out
}

/// What a destination leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target<'a> {
    /// `#id`: a step of this lesson.
    Step(&'a str),
    /// A path relative to the lesson file (without its `#fragment` or `?query`).
    File(&'a str),
    /// `http://` or `https://`, with a host.
    Web,
    /// `mailto:` with an address.
    Mail,
    /// Anything else, and why the page will not open it.
    Refused(&'static str),
}

/// The scheme of an absolute URL (`https` of `https://...`), if it has one.
fn scheme(s: &str) -> Option<&str> {
    let colon = s.find(':')?;
    let name = &s[..colon];
    let mut chars = name.chars();
    let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    // `C:` is a drive, not a scheme; a scheme has two letters at least.
    (ok && name.len() > 1).then_some(name)
}

/// What a link's destination leads to.
pub fn classify(target: &str) -> Target<'_> {
    if target.is_empty() {
        return Target::Refused("the link has no destination");
    }
    if let Some(id) = target.strip_prefix('#') {
        return Target::Step(id);
    }
    match scheme(target).map(str::to_ascii_lowercase).as_deref() {
        Some("http" | "https") => {
            let rest = &target[target.find(':').unwrap_or(0) + 1..];
            let Some(after) = rest.strip_prefix("//") else {
                return Target::Refused("a web link is http(s)://host/...");
            };
            let host = after.split(['/', '?', '#']).next().unwrap_or("");
            let host = host.rsplit('@').next().unwrap_or(host);
            let well_formed = !host.is_empty()
                && !target.contains(char::is_whitespace)
                && host.chars().all(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']' | '_')
                });
            if well_formed {
                Target::Web
            } else {
                Target::Refused("the web address has no valid host")
            }
        }
        Some("mailto") if target.len() > "mailto:".len() => Target::Mail,
        Some(_) => Target::Refused(
            "the page opens only http(s) links, #step links and files beside the lesson",
        ),
        None if target.starts_with("//") => Target::Refused("write the scheme: https://..."),
        None => {
            let path = target.split(['#', '?']).next().unwrap_or("");
            if path.is_empty() {
                Target::Refused("the link has no path")
            } else {
                Target::File(path)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_images_autolinks_and_definitions_are_found_outside_code() {
        let text = "See [the docs](https://karpenter.sh/docs/) and ![a](img/a.svg \"t\").\n\
                    `[not](a-link)` nor ``[this](one)``, but [step](#limits).\n\
                    ```yaml\n[no](fenced)\n```\n\
                    <https://example.com/x> and <not a link>.\n\
                    [p](<with space.md>) [q](a_(b).md), [by name][ref] and [ref].\n\
                    \n    [indented](code-block.md)\n\
                    \n[ref]: ../other.md\n[unused]: #nowhere\n";
        assert_eq!(
            links(text),
            [
                "https://karpenter.sh/docs/",
                "img/a.svg",
                "#limits",
                "https://example.com/x",
                "with space.md",
                "a_(b).md",
                "../other.md",
                "#nowhere",
            ]
        );
    }

    #[test]
    fn what_the_page_shows_as_text_holds_no_link() {
        // A definition cannot interrupt a paragraph: the page shows this line as text.
        assert!(links("Some text.\n[ref]: ../other.md\n").is_empty());
        // HTML is text on the page, and so are the links in it.
        assert!(links("<a href=\"x.md\">x</a>\n").is_empty());
        // A link's destination is read as CommonMark reads it: escapes and entities resolved.
        assert_eq!(links(r"[a](a\)b.md) [c](c&amp;d.md)"), ["a)b.md", "c&d.md"]);
    }

    #[test]
    fn destinations_are_told_apart() {
        assert_eq!(classify("#zones"), Target::Step("zones"));
        assert_eq!(classify("../x.md#top"), Target::File("../x.md"));
        assert_eq!(classify("https://karpenter.sh"), Target::Web);
        assert_eq!(classify("mailto:a@b.c"), Target::Mail);
        assert!(matches!(
            classify("javascript:alert(1)"),
            Target::Refused(_)
        ));
        assert!(matches!(classify("https:/nohost"), Target::Refused(_)));
        assert!(matches!(classify("http://"), Target::Refused(_)));
        assert!(matches!(classify("https://a b"), Target::Refused(_)));
        assert!(matches!(classify(""), Target::Refused(_)));
    }
}

//! The links in a lesson's Markdown, and what each is: a step of the lesson (`#id`), a file
//! beside it (a relative path), or a web page (`http(s)://`). Only found, never followed or
//! rendered here: code spans and fenced code blocks hold no links.

/// A link's destination and where it starts in the text (a byte offset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub target: String,
    pub offset: usize,
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

/// Every inline link and image (`[text](dest)`, `![alt](src)`), autolink (`<https://...>`)
/// and reference definition (`[name]: dest`) outside code.
pub fn links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let start = line_start;
        line_start += line.len();
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if indent <= 3 {
            let run = |c: char| trimmed.chars().take_while(|&x| x == c).count();
            let (ch, n) = match trimmed.chars().next() {
                Some(c @ ('`' | '~')) => (c, run(c)),
                _ => (' ', 0),
            };
            match fence {
                Some((c, len)) if ch == c && n >= len && trimmed[n..].trim().is_empty() => {
                    fence = None;
                    continue;
                }
                None if n >= 3 => {
                    fence = Some((ch, n));
                    continue;
                }
                _ => {}
            }
        }
        if fence.is_some() {
            continue;
        }
        if let Some(link) = reference_definition(line, start) {
            out.push(link);
            continue;
        }
        inline_links(line, start, &mut out);
    }
    out
}

/// `[name]: destination` at the start of a line (up to three spaces in).
fn reference_definition(line: &str, start: usize) -> Option<Link> {
    let trimmed = line.trim_start();
    if line.len() - trimmed.len() > 3 || !trimmed.starts_with('[') {
        return None;
    }
    let close = trimmed.find("]:")?;
    if close < 2 || trimmed[1..close].contains(']') {
        return None;
    }
    let rest = &trimmed[close + 2..];
    let dest = rest.trim_start();
    let dest_at = start + (line.len() - trimmed.len()) + close + 2 + (rest.len() - dest.len());
    let (target, _) = destination(dest)?;
    Some(Link {
        target,
        offset: dest_at,
    })
}

fn inline_links(line: &str, start: usize, out: &mut Vec<Link>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'`' => {
                let n = bytes[i..].iter().take_while(|&&b| b == b'`').count();
                let ticks = &line[i..i + n];
                // The code span ends at the next run of exactly as many backticks.
                let mut j = i + n;
                let mut end = None;
                while let Some(k) = line[j..].find(ticks) {
                    let at = j + k;
                    let run = bytes[at..].iter().take_while(|&&b| b == b'`').count();
                    if run == n {
                        end = Some(at + n);
                        break;
                    }
                    j = at + run;
                }
                i = end.unwrap_or(i + n);
            }
            b']' if bytes.get(i + 1) == Some(&b'(') => {
                let dest_at = i + 2;
                let inner = line[dest_at..].trim_start_matches([' ', '\t']);
                let skipped = line[dest_at..].len() - inner.len();
                if let Some((target, used)) = destination(inner) {
                    out.push(Link {
                        target,
                        offset: start + dest_at + skipped,
                    });
                    i = dest_at + skipped + used;
                } else {
                    i += 2;
                }
            }
            b'<' => {
                let rest = &line[i + 1..];
                let end = rest.find(['>', ' ', '<']);
                match end {
                    Some(e) if rest.as_bytes()[e] == b'>' && scheme(&rest[..e]).is_some() => {
                        out.push(Link {
                            target: rest[..e].to_string(),
                            offset: start + i + 1,
                        });
                        i += e + 2;
                    }
                    _ => i += 1,
                }
            }
            _ => i += 1,
        }
    }
}

/// A link destination at the start of `s`: `<...>` or a run without spaces whose
/// parentheses balance. The destination and the bytes it took.
fn destination(s: &str) -> Option<(String, usize)> {
    if let Some(rest) = s.strip_prefix('<') {
        let end = rest.find(['>', '\n'])?;
        return Some((rest[..end].to_string(), end + 2));
    }
    let mut depth = 0usize;
    let mut end = s.len();
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                end = i;
                break;
            }
            ')' => depth -= 1,
            c if c.is_whitespace() => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    Some((s[..end].to_string(), end))
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

    fn targets(text: &str) -> Vec<String> {
        links(text).into_iter().map(|l| l.target).collect()
    }

    #[test]
    fn links_images_autolinks_and_definitions_are_found_outside_code() {
        let text = "See [the docs](https://karpenter.sh/docs/) and ![a](img/a.svg \"t\").\n\
                    `[not](a-link)` nor ``[this](one)``, but [step](#limits).\n\
                    ```yaml\n[no](fenced)\n```\n\
                    <https://example.com/x> and <not a link>.\n\
                    [ref]: ../other.md\n\
                    [p](<with space.md>) [q](a_(b).md)\n";
        assert_eq!(
            targets(text),
            [
                "https://karpenter.sh/docs/",
                "img/a.svg",
                "#limits",
                "https://example.com/x",
                "../other.md",
                "with space.md",
                "a_(b).md"
            ]
        );
        let l = &links(text)[0];
        assert_eq!(&text[l.offset..l.offset + 5], "https");
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

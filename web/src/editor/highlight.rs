//! YAML syntax colouring for the editor, and the diagnostics' underlines.
//!
//! The editor is a transparent `<textarea>` over a `<pre>` that shows the same text
//! coloured. This module turns text into that `<pre>`'s HTML. It is a line tokenizer, not a
//! parser: Kubernetes manifests are block mappings and sequences with plain or quoted
//! scalars, and a wrong colour in an exotic construct costs nothing. Every character of the
//! input appears exactly once in the output (escaped), so the overlay never drifts from the
//! caret.

use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Plain,
    Key,
    Str,
    Num,
    Bool,
    Comment,
    Punct,
    Marker,
    Anchor,
}

impl Tok {
    fn class(self) -> Option<&'static str> {
        match self {
            Tok::Plain => None,
            Tok::Key => Some("k"),
            Tok::Str => Some("s"),
            Tok::Num => Some("n"),
            Tok::Bool => Some("b"),
            Tok::Comment => Some("c"),
            Tok::Punct => Some("p"),
            Tok::Marker => Some("m"),
            Tok::Anchor => Some("a"),
        }
    }
}

/// Splits one line into coloured pieces that concatenate back to the line.
pub fn tokens(line: &str) -> Vec<(Tok, &str)> {
    let mut out = Vec::new();
    if line.starts_with("---") || line.starts_with("...") {
        out.push((Tok::Marker, line));
        return out;
    }
    let mut rest = line;
    // Indentation and sequence dashes.
    loop {
        let trimmed = rest.trim_start_matches(' ');
        let indent = rest.len() - trimmed.len();
        if indent > 0 {
            out.push((Tok::Plain, &rest[..indent]));
            rest = trimmed;
        }
        if rest == "-" || rest.starts_with("- ") {
            out.push((Tok::Punct, &rest[..1]));
            rest = &rest[1..];
            continue;
        }
        break;
    }
    if rest.starts_with('#') {
        out.push((Tok::Comment, rest));
        return out;
    }
    // `key:` at the start of the (sequence) item.
    if let Some(end) = key_end(rest) {
        out.push((Tok::Key, &rest[..end]));
        out.push((Tok::Punct, &rest[end..end + 1]));
        rest = &rest[end + 1..];
    }
    value_tokens(rest, &mut out);
    out
}

/// Byte index of the `:` that ends a plain or quoted key at the start of `s`.
fn key_end(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let first = *bytes.first()?;
    if first == b'"' || first == b'\'' {
        let close = s[1..].find(first as char)? + 1;
        return (bytes.get(close + 1) == Some(&b':')
            && matches!(bytes.get(close + 2), None | Some(b' ')))
        .then_some(close + 1);
    }
    if matches!(
        first,
        b'{' | b'[' | b'&' | b'*' | b'|' | b'>' | b'!' | b'%' | b'@' | b'`'
    ) {
        return None;
    }
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b':' if matches!(bytes.get(i + 1), None | Some(b' ')) => return Some(i),
            b' ' if bytes.get(i + 1) == Some(&b'#') => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

fn value_tokens<'a>(mut rest: &'a str, out: &mut Vec<(Tok, &'a str)>) {
    while !rest.is_empty() {
        let c = rest.as_bytes()[0];
        let len = match c {
            b' ' | b'\t' => {
                let n = rest.len() - rest.trim_start_matches([' ', '\t']).len();
                out.push((Tok::Plain, &rest[..n]));
                n
            }
            b'#' => {
                out.push((Tok::Comment, rest));
                rest.len()
            }
            b'"' | b'\'' => {
                let n = quoted_len(rest);
                out.push((Tok::Str, &rest[..n]));
                n
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' | b'|' | b'>' => {
                out.push((Tok::Punct, &rest[..1]));
                1
            }
            b'&' | b'*' | b'!' => {
                let n = rest.find([' ', ',', ']', '}']).unwrap_or(rest.len());
                out.push((Tok::Anchor, &rest[..n]));
                n
            }
            _ => {
                let n = scalar_len(rest);
                let word = &rest[..n];
                // A `key:` inside a flow mapping.
                if rest[n..].starts_with(':') {
                    out.push((Tok::Key, word));
                } else {
                    out.push((scalar_kind(word.trim_end()), word));
                }
                n
            }
        };
        rest = &rest[len.max(1).min(rest.len())..];
    }
}

fn quoted_len(s: &str) -> usize {
    let quote = s.as_bytes()[0];
    let mut escaped = false;
    for (i, b) in s.bytes().enumerate().skip(1) {
        if quote == b'"' && b == b'\\' && !escaped {
            escaped = true;
            continue;
        }
        if b == quote && !escaped {
            return i + 1;
        }
        escaped = false;
    }
    s.len()
}

/// A plain scalar runs to a flow indicator, a `: `, or a ` #`.
fn scalar_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b',' | b'[' | b']' | b'{' | b'}' if i > 0 => return i,
            b':' if i > 0
                && matches!(
                    bytes.get(i + 1),
                    None | Some(b' ') | Some(b',') | Some(b'}')
                ) =>
            {
                return i;
            }
            b' ' if bytes.get(i + 1) == Some(&b'#') => return s[..i].trim_end().len().max(1),
            _ => {}
        }
        i += 1;
    }
    // Stop before trailing spaces so they are not underlined as part of the word.
    s.trim_end().len().max(1)
}

fn scalar_kind(word: &str) -> Tok {
    match word {
        "true" | "false" | "True" | "False" | "null" | "~" | "yes" | "no" => Tok::Bool,
        _ if word.parse::<f64>().is_ok() => Tok::Num,
        _ => Tok::Str,
    }
}

/// An underline to draw: 1-based line and column, and whether it is an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub line: usize,
    pub column: usize,
    pub error: bool,
}

/// The `<pre>`'s HTML for `text`, with each mark underlining the word that starts at its
/// column (the rest of the line when the column is past the end, so it stays visible).
pub fn to_html(text: &str, marks: &[Mark]) -> String {
    let mut html = String::with_capacity(text.len() * 2);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            html.push('\n');
        }
        let line_marks: Vec<&Mark> = marks.iter().filter(|m| m.line == i + 1).collect();
        let underline = line_marks.first().map(|m| {
            let start = char_to_byte(line, m.column.saturating_sub(1));
            let end = if start >= line.len() {
                start
            } else {
                start
                    + line[start..]
                        .find([' ', ',', ']', '}'])
                        .unwrap_or(line.len() - start)
                        .max(1)
            };
            let error = line_marks.iter().any(|m| m.error);
            (start, end, error)
        });
        let mut pos = 0;
        for (tok, piece) in tokens(line) {
            let (a, b) = (pos, pos + piece.len());
            pos = b;
            match underline {
                Some((s, e, error)) if s < b && e > a => {
                    let (s, e) = (s.max(a), e.min(b));
                    push_tok(&mut html, tok, &line[a..s]);
                    let _ = write!(
                        html,
                        "<span class=\"{}\">",
                        if error { "u-err" } else { "u-warn" }
                    );
                    push_tok(&mut html, tok, &line[s..e]);
                    html.push_str("</span>");
                    push_tok(&mut html, tok, &line[e..b]);
                }
                _ => push_tok(&mut html, tok, piece),
            }
        }
        if let Some((s, _, error)) = underline
            && s >= line.len()
        {
            // Past the end of the line (a missing value): a visible marker after the text.
            let _ = write!(
                html,
                "<span class=\"{} u-eol\"> </span>",
                if error { "u-err" } else { "u-warn" }
            );
        }
    }
    // A trailing newline needs a character after it, or the <pre> is one line short of
    // the textarea and the last line's colours drift.
    html.push(' ');
    html
}

fn char_to_byte(line: &str, chars: usize) -> usize {
    line.char_indices()
        .nth(chars)
        .map_or(line.len(), |(b, _)| b)
}

fn push_tok(html: &mut String, tok: Tok, text: &str) {
    if text.is_empty() {
        return;
    }
    match tok.class() {
        Some(class) => {
            let _ = write!(html, "<span class=\"{class}\">");
            escape_into(html, text);
            html.push_str("</span>");
        }
        None => escape_into(html, text),
    }
}

fn escape_into(html: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '&' => html.push_str("&amp;"),
            '"' => html.push_str("&quot;"),
            c => html.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(Tok, &str)> {
        tokens(line)
            .into_iter()
            .filter(|(t, s)| *t != Tok::Plain || !s.trim().is_empty())
            .collect()
    }

    #[test]
    fn tokens_cover_the_line_exactly() {
        for line in [
            "  - key: node.kubernetes.io/instance-type   # the type",
            "      values: [\"m7i-flex.large\", 't3.small', 3]",
            "metadata: {name: x, labels: {a: b}}",
            "  cpu: \"8\"",
            "- \"quoted: key\": value",
            "url: http://example.com:8080/x",
            "  # only a comment",
            "---",
            "a: 'it''s'",
            "tricky: \"unterminated",
            "한글: 값 # 주석",
        ] {
            let joined: String = tokens(line).iter().map(|(_, s)| *s).collect();
            assert_eq!(joined, line);
        }
    }

    #[test]
    fn colours_keys_values_and_comments() {
        assert_eq!(
            kinds("  - key: node  # c"),
            vec![
                (Tok::Punct, "-"),
                (Tok::Key, "key"),
                (Tok::Punct, ":"),
                (Tok::Str, "node"),
                (Tok::Comment, "# c")
            ]
        );
        assert_eq!(
            kinds("replicas: 3"),
            vec![(Tok::Key, "replicas"), (Tok::Punct, ":"), (Tok::Num, "3")]
        );
        assert_eq!(kinds("x: true")[2], (Tok::Bool, "true"));
        assert_eq!(kinds("url: http://a:80")[2], (Tok::Str, "http://a:80"));
        assert_eq!(kinds("{name: x}")[1], (Tok::Key, "name"));
    }

    #[test]
    fn html_escapes_and_underlines_the_word_at_the_column() {
        let html = to_html(
            "a: <b>\ncpu: 1x y",
            &[Mark {
                line: 2,
                column: 6,
                error: true,
            }],
        );
        assert!(html.contains("&lt;b&gt;"));
        assert!(
            html.contains("<span class=\"u-err\"><span class=\"s\">1x</span></span>"),
            "{html}"
        );
        let eol = to_html(
            "name:",
            &[Mark {
                line: 1,
                column: 6,
                error: false,
            }],
        );
        assert!(eol.contains("u-warn u-eol"));
    }

    #[test]
    fn html_keeps_every_character() {
        let text = "a: 1\n  - \"x\" # c\n\n";
        let html = to_html(text, &[]);
        let mut plain = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => in_tag = false,
                c if !in_tag => plain.push(c),
                _ => {}
            }
        }
        assert_eq!(plain.replace("&quot;", "\""), format!("{text} "));
    }
}

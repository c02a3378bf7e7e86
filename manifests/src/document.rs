//! Splitting a YAML stream into documents before parsing.
//!
//! A YAML parser stops at the first syntax error of a stream, so one bad document would hide
//! every document after it. We therefore cut the text at document markers ourselves and parse
//! each piece on its own, remembering where it starts so positions can be shifted back.
//!
//! A line that begins with `---` (followed by nothing, a space or a tab) starts a document and a
//! line that begins with `...` ends one. YAML forbids these markers at column 0 inside block
//! scalars and quoted or plain multi-line scalars of a document, so cutting there is what a
//! YAML parser would do too. The one deliberate limitation: content after `---` on the marker
//! line (`--- {a: 1}`, `--- |`) is kept by blanking the three dashes, which shifts nothing but
//! makes such a document parse as if it started on that line. `%YAML`/`%TAG` directive lines
//! are blanked (directives are not used by Kubernetes manifests).

use std::borrow::Cow;

use crate::convert::object_label;

/// One non-empty document of the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece<'a> {
    /// 0-based index among the non-empty documents.
    pub index: usize,
    /// Number of input lines before the piece's first line (add it to piece-relative lines).
    pub line_offset: usize,
    /// 1-based input line of the first and last line holding content (not blank, not comment).
    pub first_content_line: usize,
    pub last_content_line: usize,
    pub text: Cow<'a, str>,
}

fn is_marker(line: &str, marker: &str) -> bool {
    match line.strip_prefix(marker) {
        Some(rest) => rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t'),
        None => false,
    }
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// Splits `text` into its non-empty documents.
pub(crate) fn split(text: &str) -> Vec<Piece<'_>> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut pieces = Vec::new();
    // The piece being collected: (line offset, start byte, text override when a line was edited).
    let mut start_line = 0usize;
    let mut start_byte = 0usize;
    let mut edited: Option<String> = None;
    let mut byte = 0usize;

    fn flush<'t>(pieces: &mut Vec<Piece<'t>>, start_line: usize, body: Cow<'t, str>) {
        let mut first = None;
        let mut last = 0;
        for (i, l) in body.lines().enumerate() {
            if !is_blank_or_comment(l) {
                if first.is_none() {
                    first = Some(i);
                }
                last = i;
            }
        }
        if let Some(first) = first {
            let index = pieces.len();
            pieces.push(Piece {
                index,
                line_offset: start_line,
                first_content_line: start_line + first + 1,
                last_content_line: start_line + last + 1,
                text: body,
            });
        }
    }

    // `line_no`: the 0-based index of the current line.
    for (line_no, raw_line) in text.split_inclusive('\n').enumerate() {
        let line = raw_line.trim_end_matches(['\n', '\r']);
        let line_end = byte + raw_line.len();
        if is_marker(line, "---") || is_marker(line, "...") {
            let body = match edited.take() {
                Some(s) => Cow::Owned(s),
                None => Cow::Borrowed(text.get(start_byte..byte).unwrap_or("")),
            };
            flush(&mut pieces, start_line, body);
            let rest = line.get(3..).unwrap_or("");
            if line.starts_with("---") && !is_blank_or_comment(rest) {
                // Content on the marker line: keep the line with the dashes blanked.
                let mut s = String::with_capacity(raw_line.len());
                s.push_str("   ");
                s.push_str(raw_line.get(3..).unwrap_or(""));
                edited = Some(s);
                start_line = line_no;
            } else {
                start_line = line_no + 1;
            }
            start_byte = line_end;
        } else if line.starts_with('%') {
            // A directive: blank it so line numbers stay put.
            let mut s = match edited.take() {
                Some(s) => s,
                None => text.get(start_byte..byte).unwrap_or("").to_string(),
            };
            s.push('\n');
            edited = Some(s);
        } else if let Some(s) = edited.as_mut() {
            s.push_str(raw_line);
        }
        byte = line_end;
    }
    let body = match edited.take() {
        Some(s) => Cow::Owned(s),
        None => Cow::Borrowed(text.get(start_byte..).unwrap_or("")),
    };
    flush(&mut pieces, start_line, body);
    pieces
}

/// Best-effort `kind`, `metadata.name` and `metadata.namespace` of a document, read from its
/// lines without parsing (used for documents that do not parse, and for the editor outline).
pub(crate) fn scan_identity(text: &str) -> (Option<String>, Option<String>, Option<String>) {
    let mut kind = None;
    let mut name = None;
    let mut namespace = None;
    let mut in_metadata = false;
    let mut metadata_indent: Option<usize> = None;
    for line in text.lines() {
        if is_blank_or_comment(line) {
            continue;
        }
        let indent = line.len() - line.trim_start_matches(' ').len();
        let body = line.trim();
        if indent == 0 {
            in_metadata = false;
            metadata_indent = None;
            if let Some(v) = body.strip_prefix("kind:") {
                kind = clean_scalar(v);
            } else if let Some(v) = body.strip_prefix("metadata:") {
                let v = v.trim();
                if v.starts_with('{') {
                    name = flow_field(v, "name");
                    namespace = flow_field(v, "namespace");
                } else {
                    in_metadata = true;
                }
            }
            continue;
        }
        if in_metadata {
            let expected = *metadata_indent.get_or_insert(indent);
            if indent != expected {
                continue;
            }
            if let Some(v) = body.strip_prefix("name:") {
                name = clean_scalar(v);
            } else if let Some(v) = body.strip_prefix("namespace:") {
                namespace = clean_scalar(v);
            }
        }
    }
    (kind, name, namespace)
}

fn clean_scalar(v: &str) -> Option<String> {
    let v = match v.find(" #") {
        Some(i) => v.get(..i).unwrap_or(v),
        None => v,
    };
    let v = v.trim().trim_matches(|c| c == '"' || c == '\'').trim();
    if v.is_empty() {
        None
    } else {
        Some(v.to_string())
    }
}

fn flow_field(flow: &str, field: &str) -> Option<String> {
    let inner = flow.trim().trim_start_matches('{');
    let inner = inner.split('}').next().unwrap_or("");
    inner.split(',').find_map(|part| {
        let (k, v) = part.split_once(':')?;
        if k.trim().trim_matches(|c| c == '"' || c == '\'') == field {
            clean_scalar(v)
        } else {
            None
        }
    })
}

/// A short title for the first document of `text` that shows its kind: `Kind/name` (a
/// namespaced object's namespace left out: kind and name say enough), `Kind` alone when it
/// has no name, `None` when no document shows a kind. The editor's tab titles and a
/// poster's fallback title.
pub fn document_title(text: &str) -> Option<String> {
    let label = document_spans(text).into_iter().find_map(|(_, _, l)| l)?;
    let mut parts = label.split('/');
    let kind = parts.next().unwrap_or_default();
    Some(match parts.next_back() {
        Some(name) => format!("{kind}/{name}"),
        None => kind.to_string(),
    })
}

/// The line span of every non-empty document, for an editor's outline and folding: 1-based
/// first and last content lines and the `Kind/name` label when it can be seen without parsing.
/// Index `i` of the result is document `i` of the diagnostics.
pub fn document_spans(text: &str) -> Vec<(usize, usize, Option<String>)> {
    split(text)
        .into_iter()
        .map(|p| {
            let (kind, name, namespace) = scan_identity(&p.text);
            let label = kind.map(|k| object_label(&k, namespace.as_deref(), name.as_deref()));
            (p.first_content_line, p.last_content_line, label)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_markers_and_skips_empty_documents() {
        let text = "---\n# only a comment\n---\na: 1\n---\n\nb: 2\n...\n---\n";
        let pieces = split(text);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].index, 0);
        assert_eq!(pieces[0].line_offset, 3);
        assert_eq!(pieces[0].text, "a: 1\n");
        assert_eq!(pieces[0].first_content_line, 4);
        assert_eq!(pieces[1].text, "\nb: 2\n");
        assert_eq!(pieces[1].line_offset, 5);
        assert_eq!(pieces[1].first_content_line, 7);
    }

    #[test]
    fn marker_lines_with_content_keep_the_content() {
        let pieces = split("a: 1\n--- {b: 2}\n");
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[1].text, "    {b: 2}\n");
        assert_eq!(pieces[1].line_offset, 1);
    }

    #[test]
    fn dashes_inside_content_do_not_split() {
        let pieces = split("a: |\n  ---\n  x\nb: ----\n");
        assert_eq!(pieces.len(), 1);
    }

    #[test]
    fn directives_are_blanked() {
        let pieces = split("%YAML 1.2\n---\na: 1\n");
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0].text, "a: 1\n");
        let pieces = split("a: 1\n%bad\nb: 2\n");
        assert_eq!(pieces[0].text, "a: 1\n\nb: 2\n");
    }

    #[test]
    fn spans_name_the_objects() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  labels: {a: b}\
                    \n  name: web # the pod\n  namespace: prod\n---\nkind: NodePool\n\
                    metadata: {name: \"platform\"}\n---\nfoo: [\n";
        assert_eq!(
            document_spans(text),
            vec![
                (1, 6, Some("Pod/prod/web".to_string())),
                (8, 9, Some("NodePool/platform".to_string())),
                (11, 11, None),
            ]
        );
    }
}

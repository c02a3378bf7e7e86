//! One rule for cutting a YAML stream into documents, used by the page's tabs, share links and
//! file import alike.

/// Cuts a YAML stream at its `---` lines. Leading comments stay with the document they
/// precede; documents holding nothing but blanks are dropped; each document ends with one
/// newline.
pub fn split_documents(text: &str) -> Vec<String> {
    let mut docs = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if is_document_marker(line) {
            // A file's header comment before its first `---` belongs to the document after
            // it, not to a tab of its own.
            if is_only_comments(&current) && !current.trim().is_empty() {
                continue;
            }
            push_nonblank(&mut docs, &current);
            current.clear();
            continue;
        }
        current.push_str(line);
        current.push('\n');
    }
    push_nonblank(&mut docs, &current);
    docs
}

fn is_only_comments(text: &str) -> bool {
    text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    })
}

fn push_nonblank(docs: &mut Vec<String>, text: &str) {
    if !text.trim().is_empty() {
        docs.push(text.trim_end().to_string() + "\n");
    }
}

fn is_document_marker(line: &str) -> bool {
    match line.strip_prefix("---") {
        Some(rest) => rest.trim().is_empty() || rest.starts_with(" #"),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::split_documents;

    #[test]
    fn a_header_comment_stays_with_the_first_document() {
        assert_eq!(
            split_documents("# scenario header\n# more\n---\nkind: Pod\n---\nkind: Node\n"),
            ["# scenario header\n# more\nkind: Pod\n", "kind: Node\n"]
        );
        assert_eq!(
            split_documents("kind: Pod\n---\n# only a comment\n"),
            ["kind: Pod\n", "# only a comment\n"],
            "a trailing comment is kept, not dropped"
        );
        assert_eq!(split_documents("---\n---\n\n"), Vec::<String>::new());
    }
}

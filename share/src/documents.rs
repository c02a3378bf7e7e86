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

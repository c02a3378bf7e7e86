//! Small edits a tool makes to a document the user wrote, keeping everything else as typed
//! (comments, order, quoting, flow or block style).

use crate::yaml::{self, Node, Value};

/// The entry of a mapping by key.
fn entry<'n>(map: &'n Node, key: &str) -> Option<(&'n Node, &'n Node)> {
    match &map.value {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| k.key_text() == key)
            .map(|(k, v)| (k, v)),
        _ => None,
    }
}

/// Byte offset of 1-based character column `col` in `line`.
fn byte_at(line: &str, col: usize) -> usize {
    line.char_indices()
        .nth(col.saturating_sub(1))
        .map_or(line.len(), |(b, _)| b)
}

/// Where a scalar written at byte `start` of `line` ends: its closing quote, or for a plain
/// scalar the first `,`, `}` or ` #` (in flow or block context), trailing blanks left out.
fn scalar_end(line: &str, start: usize) -> usize {
    let rest = &line[start..];
    if let Some(q @ ('"' | '\'')) = rest.chars().next() {
        return rest[1..].find(q).map_or(line.len(), |i| start + 1 + i + 1);
    }
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        if c == ',' || c == '}' || (c == '#' && i > 0 && rest[..i].ends_with(' ')) {
            end = i;
            break;
        }
    }
    start + rest[..end].trim_end().len()
}

/// The column (0-based) a block mapping's keys sit at, from its first key, if it is a block
/// mapping below `key_line`.
fn block_indent(map: &Node, key_line: usize) -> Option<usize> {
    match &map.value {
        Value::Map(entries) => entries
            .first()
            .filter(|(k, _)| k.pos.line > key_line)
            .map(|(k, _)| k.pos.col - 1),
        _ => None,
    }
}

/// Whether `value` is a flow mapping (`{...}`) starting on `line` at its position.
fn is_flow_map(lines: &[String], value: &Node) -> bool {
    matches!(value.value, Value::Map(_))
        && lines
            .get(value.pos.line.wrapping_sub(1))
            .is_some_and(|l| l[byte_at(l, value.pos.col)..].starts_with('{'))
}

/// Puts `entry` (`key: value`) first inside the flow mapping that starts at `value`'s position.
fn into_flow(lines: &mut [String], value: &Node, entry: &str) {
    let l = &mut lines[value.pos.line - 1];
    let at = byte_at(l, value.pos.col) + 1;
    let empty = l[at..].trim_start().starts_with('}');
    let text = if empty {
        entry.to_string()
    } else {
        format!("{entry}, ")
    };
    l.insert_str(at, &text);
}

/// `spec.karpenter.version` of a Cluster document set to `version`, the rest as written:
/// the value is replaced where it is, or the field (and the blocks above it) added in the
/// document's own style. `None` when the text is not a Cluster document this can edit.
pub fn set_karpenter_version(doc: &str, version: &str) -> Option<String> {
    let parsed = yaml::parse(doc, 0).ok()?;
    let root = &parsed.root;
    let kind = entry(root, "kind").and_then(|(_, v)| v.scalar_text());
    if kind.as_deref() != Some("Cluster") {
        return None;
    }
    let mut lines: Vec<String> = doc.lines().map(str::to_string).collect();
    let ending = if doc.contains("\r\n") { "\r\n" } else { "\n" };
    match entry(root, "spec") {
        None => {
            if !matches!(root.value, Value::Map(_)) || is_flow_map(&lines, root) {
                return None;
            }
            lines.push("spec:".into());
            lines.push("  karpenter:".into());
            lines.push(format!("    version: {version}"));
        }
        Some((spec_key, spec)) => match entry(spec, "karpenter") {
            None => {
                if is_flow_map(&lines, spec) {
                    into_flow(
                        &mut lines,
                        spec,
                        &format!("karpenter: {{version: {version}}}"),
                    );
                } else if matches!(spec.value, Value::Map(_) | Value::Null) {
                    let indent =
                        block_indent(spec, spec_key.pos.line).unwrap_or(spec_key.pos.col - 1 + 2);
                    let pad = " ".repeat(indent);
                    lines.insert(spec_key.pos.line, format!("{pad}  version: {version}"));
                    lines.insert(spec_key.pos.line, format!("{pad}karpenter:"));
                } else {
                    return None;
                }
            }
            Some((k_key, k)) => match entry(k, "version") {
                Some((_, v)) => {
                    let l = lines.get_mut(v.pos.line.checked_sub(1)?)?;
                    let start = byte_at(l, v.pos.col);
                    let end = scalar_end(l, start);
                    l.replace_range(start..end, version);
                }
                None => {
                    if is_flow_map(&lines, k) {
                        into_flow(&mut lines, k, &format!("version: {version}"));
                    } else if matches!(k.value, Value::Map(_) | Value::Null) {
                        let indent =
                            block_indent(k, k_key.pos.line).unwrap_or(k_key.pos.col - 1 + 2);
                        lines.insert(
                            k_key.pos.line,
                            format!("{}version: {version}", " ".repeat(indent)),
                        );
                    } else {
                        return None;
                    }
                }
            },
        },
    }
    let mut out = lines.join(ending);
    if doc.ends_with('\n') || doc.is_empty() {
        out.push_str(ending);
    }
    Some(out)
}

/// A Cluster document that only names a version (for a workspace without one).
pub fn cluster_with_version(version: &str) -> String {
    format!(
        "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\nmetadata:\n  name: \
         playground\nspec:\n  karpenter:\n    version: {version}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "apiVersion: playground.karpenter.dev/v1alpha1\nkind: Cluster\n\
                        metadata: {name: c}\n";

    fn version_of(text: &str) -> String {
        let l = crate::load(text);
        assert!(!l.has_errors(), "{:#?}\n{text}", l.diagnostics);
        l.scenario.cluster.karpenter.version.to_string()
    }

    #[test]
    fn every_shape_of_cluster_document_gets_the_version() {
        let cases = [
            // (written, expected after setting v1.9)
            (
                HEAD.to_string(),
                format!("{HEAD}spec:\n  karpenter:\n    version: v1.9\n"),
            ),
            (
                format!("{HEAD}spec:\n  region: us-west-2 # mine\n"),
                format!(
                    "{HEAD}spec:\n  karpenter:\n    version: v1.9\n  region: us-west-2 # mine\n"
                ),
            ),
            (
                format!(
                    "{HEAD}spec:\n    seed: 3\n    karpenter:\n      \
                     featureGates: {{NodeRepair: true}}\n"
                ),
                format!(
                    "{HEAD}spec:\n    seed: 3\n    karpenter:\n      version: v1.9\n      \
                     featureGates: {{NodeRepair: true}}\n"
                ),
            ),
            (
                format!("{HEAD}spec:\n  karpenter:\n    version: \"v1.14\"  # pinned\n"),
                format!("{HEAD}spec:\n  karpenter:\n    version: v1.9  # pinned\n"),
            ),
            (
                format!("{HEAD}spec:\n  karpenter: {{version: 1.10, featureGates: {{}}}}\n"),
                format!("{HEAD}spec:\n  karpenter: {{version: v1.9, featureGates: {{}}}}\n"),
            ),
            (
                format!("{HEAD}spec: {{region: us-east-1}}\n"),
                format!("{HEAD}spec: {{karpenter: {{version: v1.9}}, region: us-east-1}}\n"),
            ),
            (
                format!("{HEAD}spec:\n  karpenter: {{}}\n"),
                format!("{HEAD}spec:\n  karpenter: {{version: v1.9}}\n"),
            ),
        ];
        for (written, expected) in cases {
            let edited = set_karpenter_version(&written, "v1.9").expect("edited");
            assert_eq!(edited, expected, "from:\n{written}");
            assert_eq!(version_of(&edited), "v1.9");
        }
    }

    #[test]
    fn only_cluster_documents_are_edited() {
        assert_eq!(set_karpenter_version("kind: NodePool\n", "v1.9"), None);
        assert_eq!(set_karpenter_version("kind: [", "v1.9"), None);
        assert_eq!(version_of(&cluster_with_version("v1.3")), "v1.3");
    }
}

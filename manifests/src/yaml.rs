//! A document as a tree of positioned YAML values.
//!
//! Instead of deserializing straight into Kubernetes structs (where serde stops at the first
//! problem and `Spanned<T>` loses its position inside tagged enums and flattened maps), every
//! document is read once into this generic tree: each node knows its line and column, and
//! numbers and booleans keep their source spelling. The converters then walk the tree by hand,
//! which lets them report every problem of a document with an exact field path, warn about
//! unknown fields, and accept `cpu: 2` as well as `cpu: "2"` without float round-trips.
//!
//! The YAML work is granit-parser's (YAML 1.2 parsing); [`stream`] expands anchors and aliases
//! under budgets against alias bombs and deep nesting, [`scalar`] resolves scalars (YAML 1.1
//! booleans as Kubernetes' parser accepts them) and [`build`] builds the tree, merge keys
//! included. The tree is built from the parser's events directly: a serde layer would only
//! have been converted into this tree again.

mod build;
mod scalar;
mod stream;

use kpg_core::manifest::Tree;

use build::Builder;
use stream::Stream;

/// 1-based line and column in the whole input (0 when unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Pos {
    pub line: usize,
    pub col: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool),
    /// Integers that fit an i64; larger ones arrive as [`Value::Float`].
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub value: Value,
    /// The source spelling of a plain non-string scalar (`0.5`, `1e3`, `yes`); `None` for
    /// strings, collections and null.
    pub raw: Option<Box<str>>,
    pub pos: Pos,
}

impl Node {
    /// What the node is, for messages ("expected a string, found a map").
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a map",
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// The scalar as text: strings as they are, numbers and booleans as written.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            Value::Str(s) => Some(s.clone()),
            Value::Bool(b) => Some(
                self.raw
                    .as_deref()
                    .map(str::to_string)
                    .unwrap_or_else(|| b.to_string()),
            ),
            Value::Int(i) => Some(
                self.raw
                    .as_deref()
                    .map(str::to_string)
                    .unwrap_or_else(|| i.to_string()),
            ),
            Value::Float(f) => Some(
                self.raw
                    .as_deref()
                    .map(str::to_string)
                    .unwrap_or_else(|| f.to_string()),
            ),
            _ => None,
        }
    }

    /// A mapping key as a string: YAML allows any scalar as a key; Kubernetes' decoder turns
    /// non-string keys into strings, and so do we (using the spelling the user wrote).
    pub fn key_text(&self) -> String {
        self.scalar_text()
            .unwrap_or_else(|| String::from("<complex key>"))
    }
}

/// A YAML syntax (or structure) error: piece-relative position already shifted to the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub pos: Pos,
    pub message: String,
}

/// A key that appears twice in one mapping, with the path of the mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DuplicateKey {
    pub path: String,
    pub key: String,
    pub pos: Pos,
    pub first: Pos,
}

pub(crate) struct Parsed {
    pub root: Node,
    pub duplicates: Vec<DuplicateKey>,
}

/// How deeply collections may nest. Kubernetes objects the playground reads stay under 25
/// levels (a Timeline applying a Deployment with pod anti-affinity included), CRD schemas
/// under 30. The builder recurses once per level, so this also keeps a pathological document
/// well inside a 1 MiB wasm stack and a 2 MiB test thread.
pub(crate) const MAX_DEPTH: usize = 36;

/// Parses one document (the text of a [`crate::document::Piece`]); `line_offset` is added to
/// every line so positions refer to the whole input.
pub(crate) fn parse(text: &str, line_offset: usize) -> Result<Parsed, SyntaxError> {
    finish(text, line_offset, Builder::new(text, line_offset))
}

/// [`parse`], handing each item of the root's `items` list to `each` as soon as it is built
/// instead of keeping it in the tree (whose `items` is then empty): a `List` is read one
/// object at a time.
pub(crate) fn parse_items(
    text: &str,
    line_offset: usize,
    each: &mut dyn FnMut(Node),
) -> Result<Parsed, SyntaxError> {
    let text = without_managed_fields(text);
    finish(
        &text,
        line_offset,
        Builder::streaming(&text, line_offset, each),
    )
}

/// The text with every block `metadata.managedFields` list blanked, line for line (so every
/// other line keeps its number and columns), as `kubectl get -o yaml --show-managed-fields`
/// prints it: `managedFields:` under a `metadata:` line, then its items at the same
/// indentation (`- `) and their fields deeper. They are half of such a snapshot's bytes,
/// and nothing reads them ([`build`] skips whatever form they take); not parsing them
/// halves the time to read one. Lines inside block scalars are never taken for keys.
fn without_managed_fields(text: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if !text.contains("managedFields:\n") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    // Ancestors of the current line: (indentation, the line's text after it).
    let mut parents: Vec<(usize, &str)> = Vec::new();
    // The indentation of the key whose block scalar we are in.
    let mut block: Option<usize> = None;
    // The indentation of the `managedFields:` being blanked.
    let mut blanking: Option<usize> = None;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        let blank = body.is_empty() || body.starts_with('#');
        if let Some(at) = blanking {
            if blank || indent > at || (indent == at && body.starts_with("- ")) {
                out.push_str(&raw[line.len()..]);
                continue;
            }
            blanking = None;
        }
        if let Some(at) = block {
            if blank || indent > at {
                out.push_str(raw);
                continue;
            }
            block = None;
        }
        if blank {
            out.push_str(raw);
            continue;
        }
        while parents.last().is_some_and(|(i, _)| *i >= indent) {
            parents.pop();
        }
        if body == "managedFields:"
            && parents
                .last()
                .is_some_and(|(i, p)| *i + 2 == indent && p.trim_start_matches("- ") == "metadata:")
        {
            blanking = Some(indent);
            out.push_str(raw);
            continue;
        }
        if starts_block_scalar(body) {
            block = Some(indent);
        }
        parents.push((indent, body));
        out.push_str(raw);
    }
    Cow::Owned(out)
}

/// `key: |`, `- >-`, `key: |2+`: a block scalar's content follows on deeper lines.
fn starts_block_scalar(body: &str) -> bool {
    let body = body.split(" #").next().unwrap_or(body).trim_end();
    let Some(last) = body.rsplit([' ', '\t']).next() else {
        return false;
    };
    let mut chars = last.chars();
    matches!(chars.next(), Some('|' | '>'))
        && chars.all(|c| matches!(c, '-' | '+' | '1'..='9'))
        && (body.len() == last.len()
            || body[..body.len() - last.len()]
                .trim_end()
                .ends_with([':', '-']))
}

fn finish(
    text: &str,
    line_offset: usize,
    mut builder: Builder<'_, '_>,
) -> Result<Parsed, SyntaxError> {
    // No `catch_unwind` here: the page is built with `panic = "abort"`, where it would catch
    // nothing. The parser and this reader must not panic on any text, which
    // `tests/arbitrary_input.rs` drives them with (arbitrary bytes, mutated labs).
    let mut stream = Stream::new(text);
    let read = builder.node(&mut stream, 0).and_then(|root| {
        stream.finish()?;
        Ok(root)
    });
    match read {
        Ok(root) => Ok(Parsed {
            root,
            duplicates: builder.duplicates,
        }),
        Err(failure) => Err(SyntaxError {
            pos: failure
                .location()
                .map(|loc| build::shift(loc, line_offset))
                .filter(|p| p.line > 0)
                .unwrap_or(Pos {
                    line: line_offset + 1,
                    col: 1,
                }),
            message: clean_message(&failure.message()),
        }),
    }
}

/// Words the budget's message for deep nesting, and drops a parser's own location suffix: our
/// diagnostic carries line and column already.
fn clean_message(message: &str) -> String {
    let m = message.trim();
    if m.contains("Depth {") || m.contains("recursion limit") {
        return format!("the document nests deeper than {MAX_DEPTH} levels");
    }
    let m = match m.find(" at line ") {
        Some(i) => m.get(..i).unwrap_or(m),
        None => m,
    };
    m.to_string()
}

/// The node as the engine's [`Tree`]: what the terminal shows of an object as written.
pub(crate) fn tree(node: &Node) -> Tree {
    match &node.value {
        Value::Null => Tree::Null,
        Value::Bool(b) => Tree::Bool(*b),
        Value::Int(i) => Tree::Int(*i),
        Value::Float(f) => Tree::Float(*f),
        Value::Str(s) => Tree::Str(s.clone()),
        Value::Seq(items) => Tree::Seq(items.iter().map(tree).collect()),
        Value::Map(entries) => Tree::Map(
            entries
                .iter()
                .map(|(k, v)| (k.key_text(), tree(v)))
                .collect(),
        ),
    }
}

/// The first and last line a node's text covers (the last is the last line any of its values
/// starts on).
pub(crate) fn line_span(node: &Node) -> (usize, usize) {
    fn last(node: &Node) -> usize {
        let inner = match &node.value {
            Value::Seq(items) => items.iter().map(last).max(),
            Value::Map(entries) => entries.iter().map(|(k, v)| k.pos.line.max(last(v))).max(),
            _ => None,
        };
        inner.unwrap_or(0).max(node.pos.line)
    }
    (node.pos.line, last(node))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get<'a>(n: &'a Node, key: &str) -> &'a Node {
        match &n.value {
            Value::Map(m) => &m.iter().find(|(k, _)| k.key_text() == key).expect("key").1,
            _ => panic!("not a map"),
        }
    }

    const LISTED: &str = "\
apiVersion: v1
items:
- apiVersion: v1
  data:
    notes: |
      metadata:
        managedFields:
        - kept
  kind: ConfigMap
  metadata:
    managedFields:
    - apiVersion: v1
      fieldsV1:
        f:data: {}
      manager: kubectl
    - manager: kubelet
    name: notes
kind: List
";

    #[test]
    fn a_lists_managed_fields_are_blanked_line_for_line_but_not_inside_a_block_scalar() {
        let blanked = without_managed_fields(LISTED);
        assert_eq!(blanked.lines().count(), LISTED.lines().count());
        assert!(blanked.contains("        managedFields:\n        - kept\n"));
        assert!(!blanked.contains("manager:"), "{blanked}");
        assert!(blanked.contains("    managedFields:\n\n\n\n\n\n    name: notes"));
    }

    #[test]
    fn a_lists_items_are_handed_over_one_at_a_time_with_their_positions() {
        let mut items = Vec::new();
        let parsed = parse_items(LISTED, 0, &mut |item| items.push(item)).expect("parses");
        assert!(matches!(&get(&parsed.root, "items").value, Value::Seq(v) if v.is_empty()));
        assert_eq!(items.len(), 1);
        let meta = get(&items[0], "metadata");
        assert_eq!(get(meta, "name").pos, Pos { line: 17, col: 11 });
        let keys: Vec<String> = match &meta.value {
            Value::Map(m) => m.iter().map(|(k, _)| k.key_text()).collect(),
            _ => Vec::new(),
        };
        assert!(
            !keys.iter().any(|k| k == "managedFields"),
            "managedFields is not built"
        );
        let notes = get(get(&items[0], "data"), "notes");
        assert_eq!(
            notes.scalar_text().as_deref(),
            Some("metadata:\n  managedFields:\n  - kept\n")
        );
    }

    #[test]
    fn positions_are_shifted_and_raw_numbers_kept() {
        let p = parse("a: 1e3\nb:\n  c: '2'\n  d: 0.14\n  e: yes\n", 10).expect("parses");
        let a = get(&p.root, "a");
        assert_eq!(a.pos, Pos { line: 11, col: 4 });
        assert_eq!(a.raw.as_deref(), Some("1e3"));
        let c = get(get(&p.root, "b"), "c");
        assert_eq!(c.value, Value::Str("2".into()));
        assert_eq!(c.pos, Pos { line: 13, col: 6 });
        assert_eq!(get(get(&p.root, "b"), "d").raw.as_deref(), Some("0.14"));
        assert_eq!(get(get(&p.root, "b"), "e").value, Value::Bool(true));
    }

    #[test]
    fn aliases_resolve_with_the_definitions_spelling() {
        let p = parse("a: &x 0.5\nb: *x\n", 0).expect("parses");
        let b = get(&p.root, "b");
        assert_eq!(b.raw.as_deref(), Some("0.5"));
        assert_eq!(b.pos.line, 2);
    }

    #[test]
    fn syntax_errors_have_shifted_positions() {
        let e = parse("a: 1\nb: [1, 2\nc: 3\n", 4).err().expect("error");
        assert_eq!(e.pos.line, 7);
        assert!(!e.message.contains("line"), "{}", e.message);
    }

    #[test]
    fn duplicate_keys_are_collected_with_their_path() {
        let p = parse("spec:\n  x: 1\n  x: 2\n", 0).expect("parses");
        assert_eq!(p.duplicates.len(), 1);
        assert_eq!(p.duplicates[0].path, "spec");
        assert_eq!(p.duplicates[0].key, "x");
        assert_eq!(p.duplicates[0].pos.line, 3);
        assert_eq!(p.duplicates[0].first.line, 2);
    }

    fn keys(n: &Node) -> Vec<String> {
        match &n.value {
            Value::Map(m) => m.iter().map(|(k, _)| k.key_text()).collect(),
            _ => panic!("not a map"),
        }
    }

    fn error(text: &str) -> (usize, usize, String) {
        let e = parse(text, 0).err().expect("an error");
        (e.pos.line, e.pos.col, e.message)
    }

    #[test]
    fn merge_keys_add_what_the_mapping_lacks_used_where_merged() {
        let p = parse("base: &b {a: 1, b: 2}\nm:\n  <<: *b\n  b: 3\n", 0).expect("parses");
        let m = get(&p.root, "m");
        assert_eq!(keys(m), ["b", "a"]);
        assert_eq!(get(m, "b").value, Value::Int(3));
        // The merged entry is where the alias is; its spelling where it is defined.
        assert_eq!(get(m, "a").pos, Pos { line: 3, col: 7 });
        assert_eq!(get(m, "a").raw.as_deref(), Some("1"));
        assert!(p.duplicates.is_empty());
    }

    #[test]
    fn plain_scalars_resolve_as_before() {
        let p = parse("a: 0127\nb: 0X1F\nc: 1_000\nd: y\ne: 0x1F\n", 0).expect("parses");
        assert_eq!(get(&p.root, "a").value, Value::Float(127.0));
        assert_eq!(get(&p.root, "b").value, Value::Str("0X1F".into()));
        assert_eq!(get(&p.root, "c").value, Value::Int(1000));
        assert_eq!(get(&p.root, "d").value, Value::Bool(true));
        assert_eq!(get(&p.root, "e").value, Value::Int(31));
    }

    #[test]
    fn refusals_keep_their_wording_and_position() {
        let non_finite = "non-finite float `.inf` rejected by the configured policy";
        assert_eq!(error("a: .inf\n"), (1, 4, non_finite.into()));
        let deep = format!("a: {}1{}\n", "[".repeat(40), "]".repeat(40));
        let nests = "the document nests deeper than 36 levels";
        assert_eq!(error(&deep), (1, 39, nests.into()));
        let cycle = "recursive references require weak recursion types";
        assert_eq!(error("a: &a [*a]\n"), (1, 8, cycle.into()));
        let merge = "YAML merge value must be mapping or sequence of mappings";
        assert_eq!(error("m:\n  <<: 5\n"), (2, 7, merge.into()));
        assert_eq!(
            error("a: !!str [1]\n"),
            (1, 10, "unsupported tag `!!str`".into())
        );
        // A lone CR before `---` is a line break to YAML but not to the document splitter.
        let (line, _, message) = error("a: 1\rb: 2\r---\rc: 3\n");
        assert_eq!(line, 4);
        assert!(
            message.starts_with("multiple YAML documents detected"),
            "{message}"
        );
    }

    #[test]
    fn many_aliases_of_few_anchors_are_refused() {
        let aliases = vec!["*a"; 100].join(", ");
        let (line, _, message) = error(&format!("a: &a x\nb: [{aliases}]\n"));
        assert_eq!(line, 3);
        assert_eq!(
            message,
            "budget breached: AliasAnchorRatio { aliases: 100, anchors: 1 }"
        );
    }

    #[test]
    fn big_integers_become_floats_with_their_spelling() {
        let p = parse("a: 123456789012345678901234567890\n", 0).expect("parses");
        let a = get(&p.root, "a");
        assert!(matches!(a.value, Value::Float(_)));
        assert_eq!(a.raw.as_deref(), Some("123456789012345678901234567890"));
    }
}

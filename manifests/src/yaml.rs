//! A document as a tree of positioned YAML values.
//!
//! Instead of deserializing straight into Kubernetes structs (where serde stops at the first
//! problem and `Spanned<T>` loses its position inside tagged enums and flattened maps), every
//! document is read once into this generic tree: each node knows its line and column, and
//! numbers and booleans keep their source spelling. The converters then walk the tree by hand,
//! which lets them report every problem of a document with an exact field path, warn about
//! unknown fields, and accept `cpu: 2` as well as `cpu: "2"` without float round-trips.
//!
//! serde-saphyr does the YAML work (YAML 1.2 parsing, YAML 1.1 booleans as Kubernetes' parser
//! accepts them, anchors and merge keys, budgets against alias bombs and deep nesting). Its
//! `Spanned<T>` works here because the tree's own `Deserialize` impl is a plain
//! `deserialize_any` visitor, not a tagged enum.

use std::collections::HashMap;

use kpg_core::manifest::Tree;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{DuplicateKeyPolicy, Location, MessageFormatter, Spanned};

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

/// serde-saphyr's view of a node before positions are attached.
enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<Raw>, Spanned<Raw>)>),
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(match i64::try_from(v) {
            Ok(i) => Raw::Int(i),
            Err(_) => Raw::Float(v as f64),
        })
    }
    fn visit_i128<E>(self, v: i128) -> Result<Raw, E> {
        Ok(match i64::try_from(v) {
            Ok(i) => Raw::Int(i),
            Err(_) => Raw::Float(v as f64),
        })
    }
    fn visit_u128<E>(self, v: u128) -> Result<Raw, E> {
        Ok(match i64::try_from(v) {
            Ok(i) => Raw::Int(i),
            Err(_) => Raw::Float(v as f64),
        })
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Float(v))
    }
    fn visit_char<E>(self, v: char) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Raw, E> {
        Ok(Raw::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = a.next_element::<Spanned<Raw>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = a.next_key::<Spanned<Raw>>()? {
            let value = a.next_value::<Spanned<Raw>>()?;
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, _a: A) -> Result<Raw, A::Error> {
        Err(de::Error::custom("tagged values are not supported here"))
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
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
/// under 30. Each level costs serde-saphyr about 5 KiB of stack in a release build and 40 KiB
/// in a debug build, so this keeps a pathological document well inside a 1 MiB wasm stack and
/// a 2 MiB test thread instead of overflowing it.
pub(crate) const MAX_DEPTH: usize = 36;

fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        // Duplicates are reported by us, with a field path, rather than as a bare parse error.
        duplicate_keys: DuplicateKeyPolicy::PassThrough,
        budget: serde_saphyr::budget! {
            max_depth: MAX_DEPTH,
        },
    }
}

/// Parses one document (the text of a [`crate::document::Piece`]); `line_offset` is added to
/// every line so positions refer to the whole input.
pub(crate) fn parse(text: &str, line_offset: usize) -> Result<Parsed, SyntaxError> {
    // No `catch_unwind` here: the page is built with `panic = "abort"`, where it would catch
    // nothing. serde-saphyr and this reader must not panic on any text, which
    // `tests/arbitrary_input.rs` drives them with (arbitrary bytes, mutated labs).
    let spanned = match serde_saphyr::from_str_with_options::<Spanned<Raw>>(text, options()) {
        Ok(s) => s,
        Err(err) => {
            let inner = err.without_snippet();
            let message = serde_saphyr::DefaultMessageFormatter
                .format_message(inner)
                .into_owned();
            let pos = err
                .location()
                .map(|l| shift(l, line_offset))
                .filter(|p| p.line > 0)
                .unwrap_or(Pos {
                    line: line_offset + 1,
                    col: 1,
                });
            return Err(SyntaxError {
                pos,
                message: clean_message(&message),
            });
        }
    };
    let mut builder = Builder {
        text,
        line_offset,
        duplicates: Vec::new(),
        path: Vec::new(),
    };
    let root = builder.node(spanned);
    Ok(Parsed {
        root,
        duplicates: builder.duplicates,
    })
}

/// Drops serde-saphyr's own location suffix: our diagnostic carries line and column already.
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

fn shift(loc: Location, line_offset: usize) -> Pos {
    let line = usize::try_from(loc.line()).unwrap_or(0);
    let col = usize::try_from(loc.column()).unwrap_or(0);
    if line == 0 {
        Pos::default()
    } else {
        Pos {
            line: line.saturating_add(line_offset),
            col,
        }
    }
}

enum Seg {
    Key(String),
    Index(usize),
}

struct Builder<'t> {
    text: &'t str,
    line_offset: usize,
    duplicates: Vec<DuplicateKey>,
    /// Path of the node being built, only turned into a string when a duplicate is found.
    path: Vec<Seg>,
}

impl Builder<'_> {
    fn raw_text(&self, s: &Spanned<Raw>) -> Option<Box<str>> {
        let span = s.defined.span();
        let start = usize::try_from(span.byte_offset()?).ok()?;
        let len = usize::try_from(span.byte_len()?).ok()?;
        let raw = self.text.get(start..start.checked_add(len)?)?.trim();
        if raw.is_empty() || raw.starts_with('*') {
            None
        } else {
            Some(raw.into())
        }
    }

    fn node(&mut self, s: Spanned<Raw>) -> Node {
        let pos = shift(s.referenced, self.line_offset);
        let raw = match s.value {
            Raw::Bool(_) | Raw::Int(_) | Raw::Float(_) => self.raw_text(&s),
            _ => None,
        };
        let value = match s.value {
            Raw::Null => Value::Null,
            Raw::Bool(b) => Value::Bool(b),
            Raw::Int(i) => Value::Int(i),
            Raw::Float(f) => Value::Float(f),
            Raw::Str(v) => Value::Str(v),
            Raw::Seq(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    self.path.push(Seg::Index(i));
                    out.push(self.node(item));
                    self.path.pop();
                }
                Value::Seq(out)
            }
            Raw::Map(entries) => {
                let mut out: Vec<(Node, Node)> = Vec::with_capacity(entries.len());
                let mut seen: HashMap<String, Pos> = HashMap::with_capacity(entries.len());
                for (k, v) in entries {
                    let key = self.node(k);
                    let key_text = key.key_text();
                    if let Some(first) = seen.get(&key_text) {
                        self.duplicates.push(DuplicateKey {
                            path: self.path_string(),
                            key: key_text.clone(),
                            pos: key.pos,
                            first: *first,
                        });
                    } else {
                        seen.insert(key_text.clone(), key.pos);
                    }
                    self.path.push(Seg::Key(key_text));
                    let value = self.node(v);
                    self.path.pop();
                    out.push((key, value));
                }
                Value::Map(out)
            }
        };
        Node { value, raw, pos }
    }

    fn path_string(&self) -> String {
        let mut p = String::new();
        for seg in &self.path {
            match seg {
                Seg::Key(k) => crate::reader::push_key(&mut p, k),
                Seg::Index(i) => {
                    p.push('[');
                    p.push_str(&i.to_string());
                    p.push(']');
                }
            }
        }
        p
    }
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

    #[test]
    fn big_integers_become_floats_with_their_spelling() {
        let p = parse("a: 123456789012345678901234567890\n", 0).expect("parses");
        let a = get(&p.root, "a");
        assert!(matches!(a.value, Value::Float(_)));
        assert_eq!(a.raw.as_deref(), Some("123456789012345678901234567890"));
    }
}

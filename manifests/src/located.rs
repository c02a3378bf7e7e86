//! Any YAML document as a tree whose every node knows its line and column: the reader's own
//! tree ([`crate::yaml`]), for other formats that want its parsing (anchors under budgets,
//! Kubernetes' YAML 1.1 booleans, duplicate keys found, numbers with their spelling) and
//! located errors without writing a YAML reader of their own. A lesson file (`kpg-lesson`)
//! is read this way.

use crate::yaml::{self, Node, Value};

/// A node of the tree: its value, where it starts (1-based line and column in the text; a
/// block scalar's where its text starts, on the line after `|`), and for a plain number or
/// boolean its spelling as written (`0.5`, `yes`).
#[derive(Clone, Debug, PartialEq)]
pub struct Located {
    pub value: LocatedValue,
    pub line: usize,
    pub column: usize,
    pub raw: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LocatedValue {
    Null,
    Bool(bool),
    /// Integers that fit an i64; larger ones are [`LocatedValue::Float`].
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Located>),
    /// Entries in the order written; keys as text (`1: x` has the key `"1"`).
    Map(Vec<(Located, Located)>),
}

/// A document that is not YAML (or nests too deeply, or aliases too much), where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocatedError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A key written twice in one mapping: the mapping's field path, the key, and both places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatedKey {
    pub path: String,
    pub key: String,
    pub line: usize,
    pub column: usize,
    pub first_line: usize,
}

/// A parsed document: its root and the keys written twice (the later value is kept, as
/// Kubernetes' decoder keeps it).
#[derive(Clone, Debug, PartialEq)]
pub struct LocatedDocument {
    pub root: Located,
    pub repeated: Vec<RepeatedKey>,
}

impl Located {
    /// What the node is, for messages ("expected a string, found a map").
    pub fn type_name(&self) -> &'static str {
        match self.value {
            LocatedValue::Null => "null",
            LocatedValue::Bool(_) => "a boolean",
            LocatedValue::Int(_) => "an integer",
            LocatedValue::Float(_) => "a number",
            LocatedValue::Str(_) => "a string",
            LocatedValue::Seq(_) => "a list",
            LocatedValue::Map(_) => "a map",
        }
    }

    /// A scalar as text: strings as they are, numbers and booleans as written.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            LocatedValue::Str(s) => Some(s.clone()),
            LocatedValue::Bool(b) => Some(self.raw.clone().unwrap_or_else(|| b.to_string())),
            LocatedValue::Int(i) => Some(self.raw.clone().unwrap_or_else(|| i.to_string())),
            LocatedValue::Float(f) => Some(self.raw.clone().unwrap_or_else(|| f.to_string())),
            _ => None,
        }
    }

    /// A map's value at `key`.
    pub fn get(&self, key: &str) -> Option<&Located> {
        match &self.value {
            LocatedValue::Map(entries) => entries
                .iter()
                .find(|(k, _)| k.scalar_text().as_deref() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Parses one YAML document (a stream of several is an error, at the second's start).
pub fn parse_located(text: &str) -> Result<LocatedDocument, LocatedError> {
    match yaml::parse(text, 0) {
        Ok(parsed) => Ok(LocatedDocument {
            root: located(parsed.root),
            repeated: parsed
                .duplicates
                .into_iter()
                .map(|d| RepeatedKey {
                    path: d.path,
                    key: d.key,
                    line: d.pos.line,
                    column: d.pos.col,
                    first_line: d.first.line,
                })
                .collect(),
        }),
        Err(e) => Err(LocatedError {
            line: e.pos.line,
            column: e.pos.col,
            message: e.message,
        }),
    }
}

fn located(node: Node) -> Located {
    let value = match node.value {
        Value::Null => LocatedValue::Null,
        Value::Bool(b) => LocatedValue::Bool(b),
        Value::Int(i) => LocatedValue::Int(i),
        Value::Float(f) => LocatedValue::Float(f),
        Value::Str(s) => LocatedValue::Str(s),
        Value::Seq(items) => LocatedValue::Seq(items.into_iter().map(located).collect()),
        Value::Map(entries) => LocatedValue::Map(
            entries
                .into_iter()
                .map(|(k, v)| {
                    let text = k.key_text();
                    let key = Located {
                        value: LocatedValue::Str(text),
                        line: k.pos.line,
                        column: k.pos.col,
                        raw: None,
                    };
                    (key, located(v))
                })
                .collect(),
        ),
    };
    Located {
        value,
        line: node.pos.line,
        column: node.pos.col,
        raw: node.raw.map(String::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_keep_their_place_and_keys_are_text() {
        let doc = parse_located("id: hello\nsteps:\n  - id: 1\n    text: |\n      a\n").unwrap();
        let steps = doc.root.get("steps").expect("steps");
        let LocatedValue::Seq(items) = &steps.value else {
            panic!("a list")
        };
        let LocatedValue::Map(entries) = &items[0].value else {
            panic!("a map")
        };
        let key = &entries[1].0;
        assert_eq!((key.line, key.column), (4, 5), "a key where it is written");
        let id = items[0].get("id").expect("id");
        assert_eq!((id.line, id.column), (3, 9));
        assert_eq!(id.scalar_text().as_deref(), Some("1"));
        let text = items[0].get("text").expect("text");
        assert_eq!(text.scalar_text().as_deref(), Some("a\n"));
        assert_eq!(
            (text.line, text.column),
            (5, 7),
            "a block's text starts a line down"
        );
    }

    #[test]
    fn errors_and_repeated_keys_are_located() {
        let e = parse_located("a: [1\nb: 2\n").unwrap_err();
        assert!(e.line >= 1 && !e.message.is_empty());
        let doc = parse_located("a: 1\na: 2\n").unwrap();
        assert_eq!(doc.repeated.len(), 1);
        assert_eq!((doc.repeated[0].line, doc.repeated[0].first_line), (2, 1));
    }
}

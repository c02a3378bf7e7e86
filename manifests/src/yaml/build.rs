//! The tree built from a document's events.
//!
//! Mapping keys are captured whole before they are read (a key may be any node, and merge
//! keys are recognised by their captured form). `<<` entries are expanded after the mapping's
//! own entries, skipping keys it already has, as YAML 1.1's merge keys are read; the expansion
//! is checked when the `<<` is met and read when the mapping ends, which decides which of two
//! problems in one document is reported.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use granit_parser::ScalarStyle;

use super::scalar::{self, Resolved, TagKind};
use super::stream::{Breach, Ev, Events, Failure, Loc, Recorded, Replay};
use super::{DuplicateKey, MAX_DEPTH, Node, Pos, Value};

enum Seg {
    Key(String),
    Index(usize),
}

pub(super) struct Builder<'t, 's> {
    text: &'t str,
    line_offset: usize,
    pub duplicates: Vec<DuplicateKey>,
    /// Path of the node being built, only turned into a string when a duplicate is found.
    path: Vec<Seg>,
    /// Where the items of the root's `items` list go, one at a time, instead of into the
    /// tree (a `List` from `kubectl get` can hold tens of megabytes of objects: each is
    /// read and dropped before the next is built).
    items: Option<&'s mut dyn FnMut(Node)>,
}

impl<'t, 's> Builder<'t, 's> {
    pub(super) fn new(text: &'t str, line_offset: usize) -> Builder<'t, 's> {
        Builder {
            text,
            line_offset,
            duplicates: Vec::new(),
            path: Vec::new(),
            items: None,
        }
    }

    /// A builder that hands the root's `items` to `each` instead of keeping them.
    pub(super) fn streaming(
        text: &'t str,
        line_offset: usize,
        each: &'s mut dyn FnMut(Node),
    ) -> Builder<'t, 's> {
        Builder {
            items: Some(each),
            ..Builder::new(text, line_offset)
        }
    }

    /// The next node: positioned where it is used, numbers and booleans with the spelling
    /// where they are defined.
    pub(super) fn node<'a>(
        &mut self,
        events: &mut dyn Events<'a>,
        depth: usize,
    ) -> Result<Node, Failure> {
        let defined = match events.peek()? {
            Some(ev) => ev.loc(),
            None => events.last_location(),
        };
        let used = events.reference_location();
        let value = self.value(events, depth)?;
        let raw = match value {
            Value::Bool(_) | Value::Int(_) | Value::Float(_) => self.raw_text(defined),
            _ => None,
        };
        Ok(Node {
            value,
            raw,
            pos: shift(used, self.line_offset),
        })
    }

    fn raw_text(&self, loc: Loc) -> Option<Box<str>> {
        let (start, len) = loc.bytes()?;
        let raw = self.text.get(start..start.checked_add(len)?)?.trim();
        if raw.is_empty() || raw.starts_with('*') {
            None
        } else {
            Some(raw.into())
        }
    }

    fn value<'a>(&mut self, events: &mut dyn Events<'a>, depth: usize) -> Result<Value, Failure> {
        let (mapping, start) = match events.peek()? {
            Some(Ev::Scalar { .. }) => return scalar_value(events),
            Some(Ev::SeqStart { loc, .. }) => (false, *loc),
            Some(Ev::MapStart { loc, .. }) => (true, *loc),
            Some(Ev::RecursiveAlias { loc, .. }) => return Err(Failure::recursive_alias(*loc)),
            Some(Ev::SeqEnd { loc }) => return Err(Failure::new("unexpected sequence end", *loc)),
            Some(Ev::MapEnd { loc }) => return Err(Failure::new("unexpected mapping end", *loc)),
            None => return Ok(Value::Null),
        };
        let depth = depth + 1;
        if depth > MAX_DEPTH {
            return Err(Failure::budget(Breach::Depth { depth }, start));
        }
        events.next()?;
        if mapping {
            self.mapping(events, depth)
        } else {
            self.sequence(events, depth)
        }
    }

    fn sequence<'a>(
        &mut self,
        events: &mut dyn Events<'a>,
        depth: usize,
    ) -> Result<Value, Failure> {
        let mut items = Vec::new();
        self.each_item(events, depth, |_, item| items.push(item))?;
        Ok(Value::Seq(items))
    }

    /// A sequence's items up to and including its end (its start already read), each built
    /// under its index and handed to `take`.
    fn each_item<'a>(
        &mut self,
        events: &mut dyn Events<'a>,
        depth: usize,
        mut take: impl FnMut(&mut Self, Node),
    ) -> Result<(), Failure> {
        let mut index = 0;
        loop {
            let defined = match events.peek()? {
                Some(Ev::SeqEnd { .. }) => break,
                Some(ev) => ev.loc(),
                None => return Err(Failure::eof(events.last_location())),
            };
            let alias_use = events.alias_use();
            self.path.push(Seg::Index(index));
            let item = self
                .node(events, depth)
                .map_err(|e| e.within(alias_use, defined))?;
            self.path.pop();
            take(self, item);
            index += 1;
        }
        events.next()?;
        Ok(())
    }

    fn mapping<'a>(&mut self, events: &mut dyn Events<'a>, depth: usize) -> Result<Value, Failure> {
        let mut entries: Vec<(Node, Node)> = Vec::new();
        let mut seen: HashMap<String, Pos> = HashMap::new();
        let mut own_keys: Vec<KeyPrint<'a>> = Vec::new();
        let mut merged: Vec<Vec<Entry<'a>>> = Vec::new();
        loop {
            match events.peek()? {
                Some(Ev::MapEnd { .. }) => {
                    events.next()?;
                    break;
                }
                Some(_) => {}
                None => return Err(Failure::eof(events.last_location())),
            }
            let key = capture(events)?;
            if key.is_merge_key() {
                events.peek()?;
                let used_at = events.reference_location();
                let batch = merge_value(events, used_at)?;
                if !batch.is_empty() {
                    merged.push(batch);
                }
                continue;
            }
            own_keys.push(key.print);
            let key = self.key(key.events, depth)?;
            if self.skipped(&key) {
                skip(events)?;
                continue;
            }
            if self.items.is_some()
                && self.path.is_empty()
                && matches!(&key.value, Value::Str(k) if k == "items")
                && matches!(events.peek()?, Some(Ev::SeqStart { .. }))
            {
                let pos = match events.peek()? {
                    Some(ev) => shift(ev.loc(), self.line_offset),
                    None => key.pos,
                };
                seen.insert("items".into(), key.pos);
                self.stream_items(events, depth)?;
                entries.push((
                    key,
                    Node {
                        value: Value::Seq(Vec::new()),
                        raw: None,
                        pos,
                    },
                ));
                continue;
            }
            let defined = match events.peek()? {
                Some(ev) => ev.loc(),
                None => events.last_location(),
            };
            let alias_use = events.alias_use();
            let value = self.entry_value(&key, &mut seen, |builder| {
                builder
                    .node(events, depth)
                    .map_err(|e| e.within(alias_use, defined))
            })?;
            entries.push((key, value));
        }
        if !merged.is_empty() {
            let mut present: HashSet<KeyPrint<'a>> = own_keys.into_iter().collect();
            for entry in merged.into_iter().flatten() {
                if present.contains(&entry.key.print) {
                    continue;
                }
                let key = self.key(entry.key.events, depth)?;
                let mut replay = Replay::new(entry.value.events);
                let defined = match replay.peek()? {
                    Some(ev) => ev.loc(),
                    None => replay.last_location(),
                };
                let alias_use = replay.alias_use();
                let value = self.entry_value(&key, &mut seen, |builder| {
                    builder
                        .node(&mut replay, depth)
                        .map_err(|e| e.within(alias_use, defined))
                })?;
                entries.push((key, value));
                present.insert(entry.key.print);
            }
        }
        Ok(Value::Map(entries))
    }

    /// A captured key, read as a node of its own.
    fn key<'a>(&mut self, recorded: Recorded<'a>, depth: usize) -> Result<Node, Failure> {
        let mut replay = Replay::new(recorded);
        let used_at = replay.reference_location();
        self.node(&mut replay, depth).map_err(|e| e.or_at(used_at))
    }

    /// Notes a key given twice, then builds its value under the key's path.
    fn entry_value(
        &mut self,
        key: &Node,
        seen: &mut HashMap<String, Pos>,
        build: impl FnOnce(&mut Self) -> Result<Node, Failure>,
    ) -> Result<Node, Failure> {
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
        let value = build(self)?;
        self.path.pop();
        Ok(value)
    }

    /// The root's `items`, each built and handed over on its own.
    fn stream_items<'a>(
        &mut self,
        events: &mut dyn Events<'a>,
        depth: usize,
    ) -> Result<(), Failure> {
        events.next()?;
        self.path.push(Seg::Key("items".into()));
        self.each_item(events, depth + 1, |builder, item| {
            if let Some(each) = builder.items.as_mut() {
                each(item);
            }
        })?;
        self.path.pop();
        Ok(())
    }

    /// `metadata.managedFields`: the API server's field bookkeeping, about half of what
    /// `kubectl get -o yaml --show-managed-fields` prints for a cluster and read by nothing
    /// here, is not built (the events are still parsed and checked).
    fn skipped(&self, key: &Node) -> bool {
        matches!(&key.value, Value::Str(k) if k == "managedFields")
            && matches!(self.path.last(), Some(Seg::Key(k)) if k == "metadata")
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

/// Consumes one node's events without building it.
fn skip<'a>(events: &mut dyn Events<'a>) -> Result<(), Failure> {
    let mut open = 0usize;
    loop {
        match events.next()? {
            Some(Ev::MapStart { .. } | Ev::SeqStart { .. }) => open += 1,
            Some(Ev::MapEnd { .. } | Ev::SeqEnd { .. }) => open = open.saturating_sub(1),
            Some(_) => {}
            None => return Err(Failure::eof(events.last_location())),
        }
        if open == 0 {
            return Ok(());
        }
    }
}

fn scalar_value<'a>(events: &mut dyn Events<'a>) -> Result<Value, Failure> {
    let (value, tag, style, loc) = match events.next()? {
        Some(Ev::Scalar {
            value,
            tag,
            style,
            loc,
            ..
        }) => (value, tag, style, loc),
        Some(other) => return Err(Failure::new("expected string scalar", other.loc())),
        None => return Err(Failure::eof(events.last_location())),
    };
    Ok(
        match scalar::resolve(value, tag, style).map_err(|m| Failure::new(m, loc))? {
            Resolved::Null => Value::Null,
            Resolved::Bool(b) => Value::Bool(b),
            Resolved::Int(i) => Value::Int(i),
            Resolved::Float(f) => Value::Float(f),
            Resolved::Str(s) => Value::Str(s),
        },
    )
}

pub(super) fn shift(loc: Loc, line_offset: usize) -> Pos {
    if loc.line == 0 {
        Pos::default()
    } else {
        Pos {
            line: loc.line.saturating_add(line_offset),
            col: loc.col,
        }
    }
}

/// A key's identity for merge keys: `1` and `0x1` are one key, `"1"` and `1` are not, and a
/// mapping key's entries count in any order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum KeyPrint<'a> {
    Cycle(usize),
    Integer {
        negative: bool,
        magnitude: u128,
    },
    Scalar {
        value: Cow<'a, str>,
        tag: KeyTag<'a>,
    },
    Sequence {
        tag: KeyTag<'a>,
        items: Vec<KeyPrint<'a>>,
    },
    Mapping {
        tag: KeyTag<'a>,
        entries: Vec<(KeyPrint<'a>, KeyPrint<'a>)>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum KeyTag<'a> {
    Kind(TagKind),
    /// An application tag, by its resolved spelling.
    Custom(Cow<'a, str>),
}

fn key_tag<'a>(tag: TagKind, raw_tag: Option<&str>, implicit: TagKind) -> KeyTag<'a> {
    let local_map = implicit == TagKind::Map && tag == TagKind::Map && raw_tag == Some("!map");
    if (tag == TagKind::Other || local_map)
        && let Some(raw) = raw_tag
    {
        return KeyTag::Custom(Cow::Owned(raw.to_string()));
    }
    KeyTag::Kind(if matches!(tag, TagKind::None | TagKind::NonSpecific) {
        implicit
    } else if implicit == TagKind::Str && tag.can_be_string() {
        TagKind::Str
    } else {
        tag
    })
}

fn scalar_print<'a>(
    value: &Cow<'a, str>,
    tag: TagKind,
    raw_tag: Option<&str>,
    style: ScalarStyle,
) -> KeyPrint<'a> {
    let integer = tag == TagKind::Int || (tag == TagKind::None && style == ScalarStyle::Plain);
    if integer && let Some((negative, magnitude)) = scalar::integer_identity(value) {
        return KeyPrint::Integer {
            negative,
            magnitude,
        };
    }
    let tag = if tag == TagKind::None && scalar::is_null(tag, value, style) {
        TagKind::Null
    } else {
        tag
    };
    KeyPrint::Scalar {
        value: value.clone(),
        tag: key_tag(tag, raw_tag, TagKind::Str),
    }
}

/// A node read ahead and kept for replay, with its identity as a key.
struct Captured<'a> {
    print: KeyPrint<'a>,
    events: Recorded<'a>,
    loc: Loc,
}

impl Captured<'_> {
    /// `<<`, plain and untagged or tagged `!!merge`.
    fn is_merge_key(&self) -> bool {
        match self.events.events() {
            [
                Ev::Scalar {
                    value, tag, style, ..
                },
            ] => {
                value == "<<"
                    && (*tag == TagKind::Merge
                        || (*tag == TagKind::None && *style == ScalarStyle::Plain))
            }
            _ => false,
        }
    }
}

/// One entry a merge key brings in.
struct Entry<'a> {
    key: Captured<'a>,
    value: Captured<'a>,
}

fn capture<'a>(events: &mut dyn Events<'a>) -> Result<Captured<'a>, Failure> {
    let deferred = events.defer_cycles(true);
    let captured = capture_node(events);
    events.defer_cycles(deferred);
    captured
}

fn capture_node<'a>(events: &mut dyn Events<'a>) -> Result<Captured<'a>, Failure> {
    events.peek()?;
    let origin = events.origin();
    let Some(ev) = events.next()? else {
        return Err(Failure::eof(events.last_location()));
    };
    let loc = ev.loc();
    let (print, recorded) = match &ev {
        Ev::RecursiveAlias { anchor, .. } => (KeyPrint::Cycle(*anchor), None),
        Ev::Scalar {
            value,
            tag,
            raw_tag,
            style,
            ..
        } => (scalar_print(value, *tag, raw_tag.as_deref(), *style), None),
        Ev::SeqStart { tag, raw_tag, .. } => {
            let tag = key_tag(*tag, raw_tag.as_deref(), TagKind::Seq);
            let mut recorded = Recorded::one(ev.clone(), origin);
            let mut items = Vec::new();
            while !end_of_collection(events, &mut recorded)? {
                let item = capture_node(events)?;
                items.push(item.print);
                recorded.extend(item.events);
            }
            (KeyPrint::Sequence { tag, items }, Some(recorded))
        }
        Ev::MapStart { tag, raw_tag, .. } => {
            let tag = key_tag(*tag, raw_tag.as_deref(), TagKind::Map);
            let mut recorded = Recorded::one(ev.clone(), origin);
            let mut entries = Vec::new();
            while !end_of_collection(events, &mut recorded)? {
                let key = capture_node(events)?;
                let value = capture_node(events)?;
                entries.push((key.print, value.print));
                recorded.extend(key.events);
                recorded.extend(value.events);
            }
            entries.sort();
            (KeyPrint::Mapping { tag, entries }, Some(recorded))
        }
        Ev::SeqEnd { .. } | Ev::MapEnd { .. } => {
            return Err(Failure::new(
                "unexpected container end while reading key",
                loc,
            ));
        }
    };
    let events = match recorded {
        Some(recorded) => recorded,
        None => Recorded::one(ev, origin),
    };
    Ok(Captured { print, events, loc })
}

/// Consumes the collection's end if it is next.
fn end_of_collection<'a>(
    events: &mut dyn Events<'a>,
    recorded: &mut Recorded<'a>,
) -> Result<bool, Failure> {
    let end = match events.peek()? {
        Some(ev @ (Ev::SeqEnd { .. } | Ev::MapEnd { .. })) => ev.clone(),
        Some(_) => return Ok(false),
        None => return Err(Failure::eof(events.last_location())),
    };
    let origin = events.origin();
    events.next()?;
    recorded.push(end, origin);
    Ok(true)
}

const NOT_MERGEABLE: &str = "YAML merge value must be mapping or sequence of mappings";

fn peek_null<'a>(events: &mut dyn Events<'a>) -> Result<bool, Failure> {
    Ok(match events.peek()? {
        Some(Ev::Scalar {
            value, tag, style, ..
        }) => scalar::is_null(*tag, value, *style),
        _ => false,
    })
}

/// The entries a merge key's value brings in: a mapping's, or each mapping's of a sequence
/// in order (null brings none).
fn merge_value<'a>(events: &mut dyn Events<'a>, used_at: Loc) -> Result<Vec<Entry<'a>>, Failure> {
    if peek_null(events)? {
        events.next()?;
        return Ok(Vec::new());
    }
    let sequence = match events.peek()? {
        Some(Ev::RecursiveAlias { loc, .. }) => return Err(Failure::recursive_alias(*loc)),
        Some(Ev::MapStart { .. }) => false,
        Some(Ev::SeqStart { .. }) => true,
        Some(other) => return Err(Failure::new(NOT_MERGEABLE, other.loc())),
        None => return Err(Failure::eof(events.last_location())),
    };
    if !sequence {
        let node = capture(events)?;
        return merged_entries(node.events, node.loc, used_at);
    }
    events.next()?;
    let mut entries = Vec::new();
    loop {
        match events.peek()? {
            Some(Ev::SeqEnd { .. }) => {
                events.next()?;
                return Ok(entries);
            }
            Some(_) => {}
            None => return Err(Failure::eof(events.last_location())),
        }
        let item_used_at = events.reference_location();
        let item = capture(events)?;
        entries.extend(merged_entries(item.events, item.loc, item_used_at)?);
    }
}

/// The entries of a captured merge value, used at `used_at`.
fn merged_entries<'a>(
    recorded: Recorded<'a>,
    loc: Loc,
    used_at: Loc,
) -> Result<Vec<Entry<'a>>, Failure> {
    let mut replay = Replay::merged_at(recorded, used_at);
    if peek_null(&mut replay)? {
        return Ok(Vec::new());
    }
    let sequence = match replay.peek()? {
        Some(Ev::MapStart { .. }) => false,
        Some(Ev::SeqStart { .. }) => true,
        Some(other) => return Err(Failure::new(NOT_MERGEABLE, other.loc())),
        None => return Err(Failure::eof(loc)),
    };
    if !sequence {
        return mapping_entries(&mut replay);
    }
    replay.next()?;
    let mut entries = Vec::new();
    loop {
        match replay.peek()? {
            Some(Ev::SeqEnd { .. }) => {
                replay.next()?;
                return Ok(entries);
            }
            Some(_) => {}
            None => return Err(Failure::eof(replay.last_location())),
        }
        let item_used_at = replay.reference_location();
        let item = capture(&mut replay)?;
        entries.extend(merged_entries(item.events, item.loc, item_used_at)?);
    }
}

/// A merged mapping's entries, its own merge keys' entries after its own.
fn mapping_entries<'a>(events: &mut dyn Events<'a>) -> Result<Vec<Entry<'a>>, Failure> {
    if !matches!(events.next()?, Some(Ev::MapStart { .. })) {
        return Err(Failure::new(NOT_MERGEABLE, events.last_location()));
    }
    let mut entries = Vec::new();
    let mut nested = Vec::new();
    loop {
        match events.peek()? {
            Some(Ev::MapEnd { .. }) => {
                events.next()?;
                break;
            }
            Some(_) => {}
            None => return Err(Failure::eof(events.last_location())),
        }
        let key = capture(events)?;
        if key.is_merge_key() {
            events.peek()?;
            let used_at = events.reference_location();
            nested.push(merge_value(events, used_at)?);
            continue;
        }
        let value = capture(events)?;
        entries.push(Entry { key, value });
    }
    entries.extend(nested.into_iter().flatten());
    Ok(entries)
}

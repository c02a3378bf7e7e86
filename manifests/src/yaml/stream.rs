//! A document's events, as the tree is built from them.
//!
//! [`Stream`] reads granit-parser's events, skips the stream and document markers, records
//! every anchored node and replays it in place of each alias, so the builder sees aliases
//! already expanded. It also keeps the budgets that make a hostile document (an alias bomb,
//! thousands of nesting levels, millions of nodes) cost no more than a large honest one. The
//! limits, their order and their messages are the ones the reader had under serde-saphyr, so
//! a document that breaks one is reported exactly as before. (This module, `build.rs` and
//! `scalar.rs` port the logic of serde-saphyr 2.2's `deserialize_any` path, MIT OR
//! Apache-2.0, for this one use.)
//!
//! [`Replay`] plays back a node captured earlier (a mapping key, a merged entry), remembering
//! for each event whether it came from an alias or a merge key: a node's position is where it
//! is used, not where it was defined.

use std::borrow::Cow;
use std::collections::HashSet;

use granit_parser::{
    ErrorKind, Event, Marker, Parser, ScalarStyle, ScanError, Span, StrInput, Tag,
};

use super::MAX_DEPTH;
use super::scalar::{NodeKind, TagKind, YAML_NAMESPACE, is_merge_tag};

/// A position in the document: 1-based line and column, and the node's extent (compared when
/// deciding whether a value was used where it was defined).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Loc {
    pub line: usize,
    pub col: usize,
    chars: (usize, usize),
    bytes: Option<(usize, usize)>,
}

impl Loc {
    pub(super) const UNKNOWN: Loc = Loc {
        line: 0,
        col: 0,
        chars: (usize::MAX, usize::MAX),
        bytes: None,
    };

    fn of_span(span: &Span) -> Loc {
        let (start, end) = (&span.start, &span.end);
        let bytes = match (start.byte_offset(), end.byte_offset()) {
            (Some(from), Some(to)) => {
                let len = to.saturating_sub(from);
                let fits = |n: usize| u32::try_from(n).is_ok();
                (fits(from) && fits(len)).then_some((from, len))
            }
            _ => None,
        };
        Loc {
            line: start.line(),
            col: start.col() + 1,
            chars: (start.index(), end.index().wrapping_sub(start.index())),
            bytes,
        }
    }

    fn of_marker(mark: &Marker) -> Loc {
        Loc {
            line: mark.line(),
            col: mark.col() + 1,
            chars: (mark.index(), 1),
            bytes: None,
        }
    }

    /// The node's source text as (byte offset, byte length).
    pub(super) fn bytes(&self) -> Option<(usize, usize)> {
        self.bytes
    }

    fn known(self) -> Option<Loc> {
        (self != Loc::UNKNOWN).then_some(self)
    }
}

/// Why a document could not be read, and where (boxed: results travel up the recursion).
#[derive(Debug)]
pub(super) struct Failure(Box<Failed>);

#[derive(Debug)]
struct Failed {
    message: String,
    location: Loc,
    /// When the failure is inside a value that an alias brought in: where it was used and
    /// where it was defined. It is reported where it was used.
    used_at: Option<(Loc, Loc)>,
}

impl Failure {
    pub(super) fn new(message: impl Into<String>, location: Loc) -> Failure {
        Failure(Box::new(Failed {
            message: message.into(),
            location,
            used_at: None,
        }))
    }

    pub(super) fn budget(breach: Breach, location: Loc) -> Failure {
        Failure::new(format!("budget breached: {breach:?}"), location)
    }

    pub(super) fn eof(location: Loc) -> Failure {
        Failure::new("unexpected end of input", location)
    }

    pub(super) fn recursive_alias(location: Loc) -> Failure {
        Failure::new(
            "recursive references require weak recursion types",
            location,
        )
    }

    /// Places a failure that has no position yet.
    pub(super) fn or_at(mut self, location: Loc) -> Failure {
        if self.0.used_at.is_none() && self.location().is_none() {
            self.0.location = location;
        }
        self
    }

    pub(super) fn location(&self) -> Option<Loc> {
        match self.0.used_at {
            Some((used, defined)) => used.known().or(defined.known()),
            None => self.0.location.known(),
        }
    }

    pub(super) fn message(&self) -> Cow<'_, str> {
        if self.0.used_at.is_none() || !self.0.message.chars().any(needs_escape) {
            return Cow::Borrowed(&self.0.message);
        }
        let mut escaped = String::with_capacity(self.0.message.len());
        for c in self.0.message.chars() {
            if needs_escape(c) {
                escaped.extend(c.escape_debug());
            } else {
                escaped.push(c);
            }
        }
        Cow::Owned(escaped)
    }

    /// Attributes a failure inside a value to where the value is used when that differs from
    /// where it is defined (an alias's expansion), and gives an unplaced failure a position.
    pub(super) fn within(mut self, alias_use: Option<Loc>, defined: Loc) -> Failure {
        let used = alias_use.unwrap_or(defined);
        if used != Loc::UNKNOWN && defined != Loc::UNKNOWN && used != defined {
            match &mut self.0.used_at {
                Some((outer_use, outer_defined)) if *outer_use == used => *outer_defined = defined,
                _ => self.0.used_at = Some((used, defined)),
            }
            return self;
        }
        let fallback = if used == Loc::UNKNOWN { defined } else { used };
        self.or_at(fallback)
    }
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

fn scan_failure(error: &ScanError) -> Failure {
    let location = Loc::of_marker(error.marker());
    match error.kind() {
        ErrorKind::UnknownAnchor => Failure::new(UNKNOWN_ANCHOR, location),
        ErrorKind::MultipleDocumentsUnsupported => Failure::new(
            "multiple YAML documents detected; only one document is supported in this context",
            location,
        ),
        ErrorKind::InputIo { .. }
        | ErrorKind::InputDecoding { .. }
        | ErrorKind::InputByteLimitExceeded { .. } => Failure::new("IO error", Loc::UNKNOWN),
        _ => Failure::new(error.info(), location),
    }
}

const UNKNOWN_ANCHOR: &str = "alias references unknown anchor";

/// One node event; collections arrive as start, children, end.
#[derive(Clone, Debug)]
pub(super) enum Ev<'a> {
    Scalar {
        value: Cow<'a, str>,
        tag: TagKind,
        /// The resolved tag as text (`tag:yaml.org,2002:str`, `!foo`), when there is one.
        raw_tag: Option<Box<str>>,
        style: ScalarStyle,
        loc: Loc,
    },
    SeqStart {
        tag: TagKind,
        raw_tag: Option<Box<str>>,
        loc: Loc,
    },
    SeqEnd {
        loc: Loc,
    },
    MapStart {
        tag: TagKind,
        raw_tag: Option<Box<str>>,
        loc: Loc,
    },
    MapEnd {
        loc: Loc,
    },
    /// An alias inside the node its anchor names (`&a [*a]`): a cycle, refused when read.
    RecursiveAlias {
        anchor: usize,
        loc: Loc,
    },
}

impl Ev<'_> {
    pub(super) fn loc(&self) -> Loc {
        match self {
            Ev::Scalar { loc, .. }
            | Ev::SeqStart { loc, .. }
            | Ev::SeqEnd { loc }
            | Ev::MapStart { loc, .. }
            | Ev::MapEnd { loc }
            | Ev::RecursiveAlias { loc, .. } => *loc,
        }
    }

    /// Bytes a copy of the event allocates (text borrowed from the input costs nothing).
    fn owned_bytes(&self) -> usize {
        let tag_bytes = |raw_tag: &Option<Box<str>>| raw_tag.as_deref().map_or(0, str::len);
        match self {
            Ev::Scalar { value, raw_tag, .. } => {
                let value_bytes = match value {
                    Cow::Borrowed(_) => 0,
                    Cow::Owned(v) => v.len(),
                };
                value_bytes.saturating_add(tag_bytes(raw_tag))
            }
            Ev::SeqStart { raw_tag, .. } | Ev::MapStart { raw_tag, .. } => tag_bytes(raw_tag),
            Ev::SeqEnd { .. } | Ev::MapEnd { .. } | Ev::RecursiveAlias { .. } => 0,
        }
    }

    fn refuse_cycle(&self) -> Result<(), Failure> {
        match self {
            Ev::RecursiveAlias { loc, .. } => Err(Failure::recursive_alias(*loc)),
            _ => Ok(()),
        }
    }
}

/// Where a node came from: the text itself, an alias (used at), or a merge key (used at).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    Direct,
    Alias(Loc),
    Merge(Loc),
}

/// A source of node events.
pub(super) trait Events<'a> {
    fn next(&mut self) -> Result<Option<Ev<'a>>, Failure>;
    fn peek(&mut self) -> Result<Option<&Ev<'a>>, Failure>;
    /// Where the last event returned or peeked is.
    fn last_location(&self) -> Loc;
    /// Where the next node is used (an alias's position inside its expansion).
    fn reference_location(&self) -> Loc;
    fn origin(&self) -> Origin;
    /// While capturing a node, a cycle is kept as an event and refused when replayed.
    fn defer_cycles(&mut self, defer: bool) -> bool;

    fn alias_use(&self) -> Option<Loc> {
        match self.origin() {
            Origin::Alias(loc) => Some(loc),
            Origin::Direct | Origin::Merge(_) => None,
        }
    }
}

/// The replay of an alias: which anchor, how far, and where the alias is.
#[derive(Clone, Copy)]
struct Expansion {
    anchor: usize,
    next: usize,
    used_at: Loc,
}

/// An anchored collection being recorded (`depth` counts its open collections).
struct Recording<'a> {
    anchor: usize,
    depth: usize,
    events: Vec<Ev<'a>>,
}

/// How many events alias expansions may produce in one document.
const MAX_REPLAYED_EVENTS: usize = 1_000_000;

/// The document's events with aliases expanded.
pub(super) struct Stream<'a> {
    /// `None` once the parser failed: its errors are final.
    parser: Option<Parser<'a, StrInput<'a>>>,
    produced_any: bool,
    look: Option<Ev<'a>>,
    defer_cycles: bool,
    expanding: Vec<Expansion>,
    /// Recorded nodes by anchor id (granit-parser numbers anchors densely from 1).
    anchors: Vec<Option<Box<[Ev<'a>]>>>,
    recording: Vec<Recording<'a>>,
    budget: Budget,
    last_location: Loc,
    replayed: usize,
}

impl<'a> Stream<'a> {
    pub(super) fn new(text: &'a str) -> Stream<'a> {
        let mut options = granit_parser::Options::default();
        options.emit_comments = false;
        options.block_nesting_limit = options.block_nesting_limit.max(MAX_DEPTH + 1);
        Stream {
            parser: Some(Parser::with_options(StrInput::new(text), options)),
            produced_any: false,
            look: None,
            defer_cycles: false,
            expanding: Vec::new(),
            anchors: Vec::new(),
            recording: Vec::new(),
            budget: Budget::for_text(text.len()),
            last_location: Loc::UNKNOWN,
            replayed: 0,
        }
    }

    /// After the document's root: refuses a second document (a `---` only a lone CR
    /// separates from the first) and a document with far more aliases than anchors.
    pub(super) fn finish(&mut self) -> Result<(), Failure> {
        if self.peek()?.is_some() {
            return Err(Failure::new(
                "multiple YAML documents detected; use from_str_multiple or \
                 from_str_multiple_with_options",
                self.last_location,
            ));
        }
        match self.budget.alias_ratio() {
            Some(breach) => Err(Failure::budget(breach, self.last_location)),
            None => Ok(()),
        }
    }

    fn expansion_use(&self) -> Option<Loc> {
        self.expanding.last().map(|e| e.used_at)
    }

    fn pump(&mut self) -> Result<Option<Ev<'a>>, Failure> {
        // An alias's expansion first. A finished expansion stays on the stack until the next
        // event is asked for, so the last node it gave still reports where the alias is.
        while let Some(&Expansion { anchor, next, .. }) = self.expanding.last() {
            let Some(events) = self.anchors.get(anchor).and_then(Option::as_ref) else {
                return Err(Failure::new(UNKNOWN_ANCHOR, self.last_location));
            };
            let Some(ev) = events.get(next).cloned() else {
                self.expanding.pop();
                continue;
            };
            if let Some(expansion) = self.expanding.last_mut() {
                expansion.next += 1;
            }
            self.replayed = self.replayed.saturating_add(1);
            if self.replayed > MAX_REPLAYED_EVENTS {
                return Err(Failure::new(
                    format!(
                        "alias replay limit exceeded: total_replayed_events={} > \
                         {MAX_REPLAYED_EVENTS}",
                        self.replayed
                    ),
                    ev.loc(),
                ));
            }
            self.charge_replay(&ev)?;
            self.record(&ev, false)?;
            self.last_location = ev.loc();
            self.produced_any = true;
            return Ok(Some(ev));
        }

        while let Some(item) = self.parser.as_mut().and_then(Iterator::next) {
            let (event, span) = match item {
                Ok(pair) => pair,
                Err(error) => {
                    self.parser = None;
                    return Err(scan_failure(&error));
                }
            };
            let loc = Loc::of_span(&span);
            if !matches!(event, Event::Alias(_)) {
                self.budget
                    .observe(&event)
                    .map_err(|breach| Failure::budget(breach, loc))?;
            }
            let is_mapping = matches!(event, Event::MappingStart(..) | Event::MappingEnd);
            match event {
                Event::Scalar(value, style, anchor, tag) => {
                    let kind = TagKind::of(tag.as_deref());
                    check_tag(kind, tag.as_deref(), NodeKind::Scalar, loc)?;
                    let ev = Ev::Scalar {
                        value,
                        tag: kind,
                        raw_tag: tag.map(|t| t.to_string().into()),
                        style,
                        loc,
                    };
                    self.record(&ev, false)?;
                    if anchor != 0 {
                        self.charge_copy(&ev)?;
                        self.store(anchor, vec![ev.clone()].into_boxed_slice());
                    }
                    return Ok(Some(self.produced(ev)));
                }
                Event::SequenceStart(_, anchor, tag) | Event::MappingStart(_, anchor, tag) => {
                    let kind = TagKind::of(tag.as_deref());
                    let node = if is_mapping {
                        NodeKind::Mapping
                    } else {
                        NodeKind::Sequence
                    };
                    check_tag(kind, tag.as_deref(), node, loc)?;
                    let raw_tag = tag.map(|t| t.to_string().into());
                    let ev = if is_mapping {
                        Ev::MapStart {
                            tag: kind,
                            raw_tag,
                            loc,
                        }
                    } else {
                        Ev::SeqStart {
                            tag: kind,
                            raw_tag,
                            loc,
                        }
                    };
                    for recording in &mut self.recording {
                        recording.depth += 1;
                    }
                    if anchor != 0 {
                        self.charge_copy(&ev)?;
                        self.recording.push(Recording {
                            anchor,
                            depth: 1,
                            events: vec![ev.clone()],
                        });
                    }
                    self.record(&ev, anchor != 0)?;
                    return Ok(Some(self.produced(ev)));
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    let ev = if is_mapping {
                        Ev::MapEnd { loc }
                    } else {
                        Ev::SeqEnd { loc }
                    };
                    self.record(&ev, false)?;
                    for recording in &mut self.recording {
                        recording.depth = recording.depth.saturating_sub(1);
                    }
                    while let Some(done) = self.recording.pop_if(|r| r.depth == 0) {
                        self.store(done.anchor, done.events.into_boxed_slice());
                    }
                    return Ok(Some(self.produced(ev)));
                }
                Event::Alias(anchor) => {
                    self.budget
                        .observe_alias()
                        .map_err(|breach| Failure::budget(breach, loc))?;
                    if self.recording.iter().any(|r| r.anchor == anchor) {
                        let ev = Ev::RecursiveAlias { anchor, loc };
                        self.record(&ev, false)?;
                        return Ok(Some(self.produced(ev)));
                    }
                    if self.anchors.get(anchor).and_then(Option::as_ref).is_none() {
                        return Err(Failure::new(UNKNOWN_ANCHOR, loc));
                    }
                    self.expanding.push(Expansion {
                        anchor,
                        next: 0,
                        used_at: loc,
                    });
                    return self.pump();
                }
                Event::DocumentStart(..) | Event::DocumentEnd => {
                    // Anchors belong to their document.
                    self.expanding.clear();
                    self.recording.clear();
                    self.anchors.fill(None);
                    self.replayed = 0;
                    self.last_location = loc;
                }
                Event::StreamStart | Event::StreamEnd => self.last_location = loc,
                _ => return Err(Failure::new("unsupported event from granit-parser", loc)),
            }
        }

        // A stream without a document reads as null.
        if !self.produced_any {
            let ev = Ev::Scalar {
                value: Cow::Borrowed(""),
                tag: TagKind::Null,
                raw_tag: None,
                style: ScalarStyle::Plain,
                loc: self.last_location,
            };
            return Ok(Some(self.produced(ev)));
        }
        Ok(None)
    }

    fn produced(&mut self, ev: Ev<'a>) -> Ev<'a> {
        self.last_location = ev.loc();
        self.produced_any = true;
        ev
    }

    fn store(&mut self, anchor: usize, events: Box<[Ev<'a>]>) {
        if anchor >= self.anchors.len() {
            self.anchors.resize_with(anchor + 8, || None);
        }
        if let Some(slot) = self.anchors.get_mut(anchor) {
            *slot = Some(events);
        }
    }

    /// Copies an event into every anchored collection being recorded (`opened_anchor`: the
    /// event opened the innermost one, which holds it already).
    fn record(&mut self, ev: &Ev<'a>, opened_anchor: bool) -> Result<(), Failure> {
        let count = self.recording.len() - usize::from(opened_anchor && !self.recording.is_empty());
        for i in 0..count {
            self.charge_copy(ev)?;
            if let Some(recording) = self.recording.get_mut(i) {
                recording.events.push(ev.clone());
            }
        }
        Ok(())
    }

    fn charge_copy(&mut self, ev: &Ev<'a>) -> Result<(), Failure> {
        let used_at = self.expansion_use();
        self.budget
            .observe_copy(ev.owned_bytes())
            .map_err(|breach| Failure::budget(breach, ev.loc()).within(used_at, ev.loc()))
    }

    /// Counts a replayed event as the parser's own event would be counted.
    fn charge_replay(&mut self, ev: &Ev<'a>) -> Result<(), Failure> {
        let used_at = self.expansion_use();
        let result = match ev {
            Ev::Scalar {
                value, tag, style, ..
            } => {
                let merge_tag = *tag == TagKind::Merge;
                let tag_len = if merge_tag {
                    YAML_NAMESPACE.len() + "merge".len()
                } else {
                    0
                };
                let merge_key = value == "<<" && (merge_tag || matches!(style, ScalarStyle::Plain));
                self.budget.scalar(value.len(), tag_len, 0, merge_key)
            }
            Ev::SeqStart { .. } | Ev::MapStart { .. } => {
                self.budget.start(0, 0, matches!(ev, Ev::MapStart { .. }))
            }
            Ev::SeqEnd { .. } | Ev::MapEnd { .. } => {
                self.budget.end(matches!(ev, Ev::MapEnd { .. }))
            }
            Ev::RecursiveAlias { .. } => self.budget.scalar(0, 0, 0, false),
        };
        result.map_err(|breach| Failure::budget(breach, ev.loc()).within(used_at, ev.loc()))
    }
}

fn check_tag(kind: TagKind, tag: Option<&Tag>, node: NodeKind, loc: Loc) -> Result<(), Failure> {
    match kind.requires() {
        Some(required) if required != node => Err(if kind == TagKind::Include {
            Failure::new(
                "!include currently only supports the scalar form: !include <path>",
                loc,
            )
        } else {
            let spelling = tag.map(Tag::original).unwrap_or_default();
            Failure::new(format!("unsupported tag `{spelling}`"), loc)
        }),
        _ => Ok(()),
    }
}

impl<'a> Events<'a> for Stream<'a> {
    fn next(&mut self) -> Result<Option<Ev<'a>>, Failure> {
        if let Some(ev) = self.look.take() {
            if !self.defer_cycles {
                ev.refuse_cycle()?;
            }
            self.last_location = ev.loc();
            return Ok(Some(ev));
        }
        let ev = self.pump()?;
        if !self.defer_cycles
            && let Some(ev) = &ev
        {
            ev.refuse_cycle()?;
        }
        Ok(ev)
    }

    fn peek(&mut self) -> Result<Option<&Ev<'a>>, Failure> {
        if self.look.is_none() {
            self.look = self.pump()?;
        }
        if let Some(ev) = &self.look {
            if !self.defer_cycles {
                ev.refuse_cycle()?;
            }
            self.last_location = ev.loc();
        }
        Ok(self.look.as_ref())
    }

    fn last_location(&self) -> Loc {
        self.last_location
    }

    fn reference_location(&self) -> Loc {
        match self.expansion_use() {
            Some(used_at) => used_at,
            None => self.look.as_ref().map_or(self.last_location, Ev::loc),
        }
    }

    fn origin(&self) -> Origin {
        self.expansion_use().map_or(Origin::Direct, Origin::Alias)
    }

    fn defer_cycles(&mut self, defer: bool) -> bool {
        std::mem::replace(&mut self.defer_cycles, defer)
    }
}

/// A captured node's events, each node's start and end with its origin.
#[derive(Debug, Default)]
pub(super) struct Recorded<'a> {
    events: Vec<Ev<'a>>,
    /// (index, origin) for the events that do not come straight from the text, by index.
    origins: Vec<(usize, Origin)>,
}

impl<'a> Recorded<'a> {
    pub(super) fn one(ev: Ev<'a>, origin: Origin) -> Recorded<'a> {
        let mut recorded = Recorded::default();
        recorded.push(ev, origin);
        recorded
    }

    pub(super) fn push(&mut self, ev: Ev<'a>, origin: Origin) {
        if origin != Origin::Direct {
            self.origins.push((self.events.len(), origin));
        }
        self.events.push(ev);
    }

    pub(super) fn extend(&mut self, other: Recorded<'a>) {
        let offset = self.events.len();
        self.origins
            .extend(other.origins.into_iter().map(|(i, o)| (offset + i, o)));
        self.events.extend(other.events);
    }

    pub(super) fn events(&self) -> &[Ev<'a>] {
        &self.events
    }

    fn origin(&self, index: usize) -> Origin {
        self.origins
            .binary_search_by_key(&index, |(i, _)| *i)
            .map_or(Origin::Direct, |found| self.origins[found].1)
    }
}

/// Plays back a captured node. With `merged_at`, every node not from an alias counts as used
/// at that merge key's value.
pub(super) struct Replay<'a> {
    recorded: Recorded<'a>,
    next: usize,
    defer_cycles: bool,
    merged_at: Option<Loc>,
}

impl<'a> Replay<'a> {
    pub(super) fn new(recorded: Recorded<'a>) -> Replay<'a> {
        Replay {
            recorded,
            next: 0,
            defer_cycles: false,
            merged_at: None,
        }
    }

    pub(super) fn merged_at(recorded: Recorded<'a>, used_at: Loc) -> Replay<'a> {
        Replay {
            merged_at: Some(used_at),
            ..Replay::new(recorded)
        }
    }
}

impl<'a> Events<'a> for Replay<'a> {
    fn next(&mut self) -> Result<Option<Ev<'a>>, Failure> {
        let Some(slot) = self.recorded.events.get_mut(self.next) else {
            return Ok(None);
        };
        if !self.defer_cycles {
            slot.refuse_cycle()?;
        }
        // What stays behind is only ever asked for its position.
        let placeholder = Ev::SeqEnd { loc: slot.loc() };
        let ev = std::mem::replace(slot, placeholder);
        self.next += 1;
        Ok(Some(ev))
    }

    fn peek(&mut self) -> Result<Option<&Ev<'a>>, Failure> {
        let ev = self.recorded.events.get(self.next);
        if !self.defer_cycles
            && let Some(ev) = ev
        {
            ev.refuse_cycle()?;
        }
        Ok(ev)
    }

    fn last_location(&self) -> Loc {
        self.recorded
            .events
            .get(self.next.saturating_sub(1))
            .map_or(Loc::UNKNOWN, Ev::loc)
    }

    fn reference_location(&self) -> Loc {
        match self.origin() {
            Origin::Alias(loc) | Origin::Merge(loc) => loc,
            Origin::Direct => self
                .recorded
                .events
                .get(self.next)
                .map_or_else(|| self.last_location(), Ev::loc),
        }
    }

    fn origin(&self) -> Origin {
        match (self.recorded.origin(self.next), self.merged_at) {
            (alias @ Origin::Alias(_), _) => alias,
            (_, Some(used_at)) => Origin::Merge(used_at),
            (origin, None) => origin,
        }
    }

    fn defer_cycles(&mut self, defer: bool) -> bool {
        std::mem::replace(&mut self.defer_cycles, defer)
    }
}

/// What tripped a budget. The names and the `Debug` spelling are part of the message (which
/// is all that reads the fields).
#[allow(dead_code)]
#[derive(Debug)]
pub(super) enum Breach {
    Events { events: usize },
    Aliases { aliases: usize },
    Anchors { anchors: usize },
    Depth { depth: usize },
    Documents { documents: usize },
    Nodes { nodes: usize },
    ScalarBytes { total_scalar_bytes: usize },
    MergeKeys { merge_keys: usize },
    AliasAnchorRatio { aliases: usize, anchors: usize },
    SequenceUnbalanced,
    RecordedAnchorEvents { recorded_anchor_events: usize },
    RecordedAnchorBytes { recorded_anchor_bytes: usize },
}

const MAX_EVENTS: usize = 1_000_000;
const MAX_ALIASES: usize = 50_000;
const MAX_ANCHORS: usize = 50_000;
const MAX_RECORDED_EVENTS: usize = 1_000_000;
const MAX_RECORDED_BYTES: usize = 64 * 1024 * 1024;
const MAX_DOCUMENTS: usize = 1_024;
const MAX_NODES: usize = 250_000;
const MAX_SCALAR_BYTES: usize = 64 * 1024 * 1024;
const MAX_MERGE_KEYS: usize = 10_000;
/// Past this many aliases, a document needs one anchor per ten of them.
const RATIO_MIN_ALIASES: usize = 100;
const RATIO_ALIASES_PER_ANCHOR: usize = 10;

/// An open collection, as the budget follows key and value positions.
#[derive(Clone, Copy)]
struct Open {
    mapping: bool,
    expecting_key: bool,
    is_mapping_value: bool,
}

/// Counts what a document costs; every limit is for the whole document.
#[derive(Default)]
struct Budget {
    /// The document's length in bytes. A node, an event or a scalar's byte costs at least
    /// a byte of text unless an alias copies it, so the limits on them grow with the text
    /// (a cluster snapshot is a `List` of tens of megabytes): only what aliases add is
    /// bounded by the fixed limits.
    text: usize,
    events: usize,
    aliases: usize,
    anchors: HashSet<usize>,
    recorded_events: usize,
    recorded_bytes: usize,
    documents: usize,
    nodes: usize,
    depth: usize,
    deepest: usize,
    scalar_bytes: usize,
    merge_keys: usize,
    open: Vec<Open>,
}

fn tag_len(tag: Option<&Tag>) -> usize {
    tag.map_or(0, |t| {
        let (handle, suffix) = t.parts();
        handle.len().saturating_add(suffix.len())
    })
}

impl Budget {
    fn for_text(text: usize) -> Budget {
        Budget {
            text,
            ..Budget::default()
        }
    }

    fn observe(&mut self, event: &Event<'_>) -> Result<(), Breach> {
        self.count_event()?;
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                let merge_key = value == "<<"
                    && match tag.as_deref() {
                        Some(tag) => is_merge_tag(tag),
                        None => matches!(style, ScalarStyle::Plain),
                    };
                self.scalar(value.len(), tag_len(tag.as_deref()), *anchor, merge_key)
            }
            Event::MappingStart(_, anchor, tag) => {
                self.start(tag_len(tag.as_deref()), *anchor, true)
            }
            Event::SequenceStart(_, anchor, tag) => {
                self.start(tag_len(tag.as_deref()), *anchor, false)
            }
            Event::MappingEnd => self.end(true),
            Event::SequenceEnd => self.end(false),
            Event::DocumentStart(..) => {
                self.documents += 1;
                if self.documents > MAX_DOCUMENTS {
                    return Err(Breach::Documents {
                        documents: self.documents,
                    });
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn count_event(&mut self) -> Result<(), Breach> {
        self.events += 1;
        if self.events > MAX_EVENTS.max(self.text) {
            return Err(Breach::Events {
                events: self.events,
            });
        }
        Ok(())
    }

    fn observe_alias(&mut self) -> Result<(), Breach> {
        self.count_event()?;
        self.aliases += 1;
        if self.aliases > MAX_ALIASES {
            return Err(Breach::Aliases {
                aliases: self.aliases,
            });
        }
        Ok(())
    }

    fn observe_copy(&mut self, owned_bytes: usize) -> Result<(), Breach> {
        self.recorded_events = self.recorded_events.saturating_add(1);
        if self.recorded_events > MAX_RECORDED_EVENTS {
            return Err(Breach::RecordedAnchorEvents {
                recorded_anchor_events: self.recorded_events,
            });
        }
        self.recorded_bytes = self.recorded_bytes.saturating_add(owned_bytes);
        if self.recorded_bytes > MAX_RECORDED_BYTES {
            return Err(Breach::RecordedAnchorBytes {
                recorded_anchor_bytes: self.recorded_bytes,
            });
        }
        Ok(())
    }

    fn scalar(
        &mut self,
        len: usize,
        tag_len: usize,
        anchor: usize,
        merge_key: bool,
    ) -> Result<(), Breach> {
        self.count_node()?;
        self.count_scalar_bytes(len.saturating_add(tag_len))?;
        self.count_anchor(anchor)?;
        if let Some(open) = self.open.last_mut()
            && open.mapping
        {
            if open.expecting_key {
                if merge_key {
                    self.merge_keys += 1;
                    if self.merge_keys > MAX_MERGE_KEYS {
                        return Err(Breach::MergeKeys {
                            merge_keys: self.merge_keys,
                        });
                    }
                }
                open.expecting_key = false;
            } else {
                open.expecting_key = true;
            }
        }
        Ok(())
    }

    fn start(&mut self, tag_len: usize, anchor: usize, mapping: bool) -> Result<(), Breach> {
        self.count_node()?;
        self.depth = self.depth.saturating_add(1);
        self.deepest = self.deepest.max(self.depth);
        if self.deepest > MAX_DEPTH {
            return Err(Breach::Depth {
                depth: self.deepest,
            });
        }
        self.count_scalar_bytes(tag_len)?;
        let is_mapping_value = match self.open.last_mut() {
            Some(open) if open.mapping && open.expecting_key => {
                open.expecting_key = false;
                false
            }
            Some(open) => open.mapping,
            None => false,
        };
        self.open.push(Open {
            mapping,
            expecting_key: true,
            is_mapping_value,
        });
        self.count_anchor(anchor)
    }

    fn end(&mut self, mapping: bool) -> Result<(), Breach> {
        self.depth = self
            .depth
            .checked_sub(1)
            .ok_or(Breach::SequenceUnbalanced)?;
        match self.open.pop() {
            Some(open) if open.mapping == mapping => {
                if open.is_mapping_value
                    && let Some(parent) = self.open.last_mut()
                    && parent.mapping
                {
                    parent.expecting_key = true;
                }
                Ok(())
            }
            _ => Err(Breach::SequenceUnbalanced),
        }
    }

    fn count_node(&mut self) -> Result<(), Breach> {
        self.nodes += 1;
        if self.nodes > MAX_NODES.max(self.text) {
            return Err(Breach::Nodes { nodes: self.nodes });
        }
        Ok(())
    }

    fn count_scalar_bytes(&mut self, bytes: usize) -> Result<(), Breach> {
        self.scalar_bytes = self.scalar_bytes.saturating_add(bytes);
        if self.scalar_bytes > MAX_SCALAR_BYTES.max(self.text) {
            return Err(Breach::ScalarBytes {
                total_scalar_bytes: self.scalar_bytes,
            });
        }
        Ok(())
    }

    fn count_anchor(&mut self, anchor: usize) -> Result<(), Breach> {
        if anchor != 0 && self.anchors.insert(anchor) && self.anchors.len() > MAX_ANCHORS {
            return Err(Breach::Anchors {
                anchors: self.anchors.len(),
            });
        }
        Ok(())
    }

    /// Many aliases over few anchors is how an alias bomb looks.
    fn alias_ratio(&self) -> Option<Breach> {
        let anchors = self.anchors.len();
        (self.aliases >= RATIO_MIN_ALIASES
            && (anchors == 0 || self.aliases > RATIO_ALIASES_PER_ANCHOR.saturating_mul(anchors)))
        .then_some(Breach::AliasAnchorRatio {
            aliases: self.aliases,
            anchors,
        })
    }
}

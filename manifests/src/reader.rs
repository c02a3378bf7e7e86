//! Walking a positioned YAML tree with diagnostics: the small toolkit every converter uses.
//!
//! Converters never stop at the first problem. Each typed read reports what is wrong (with the
//! field path and the node's position) and returns `None`; the converter substitutes a default
//! and carries on, so one pass finds every problem of a document. Whether the document is used
//! is decided afterwards from [`Cx::error_count`].
//!
//! Unknown fields are found by bookkeeping: a [`Fields`] remembers which keys a converter asked
//! for (or declared as known but ignored) and warns about the rest when it is finished. A
//! [`Fields`] of a Kubernetes type ([`Fields::typed`]) also hands what the converter ignored to
//! [`crate::schema`], which checks it against the type's schema all the way down.

use kpg_core::karpenter::{Behaviour, Gate};
use kpg_core::resources::ResourceName;

use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Korean, Severity};
use crate::ext;
use crate::schema::{self, Ty};
use crate::yaml::{Node, Pos, Value};

/// A reference from one object to another, checked once every document is read.
#[derive(Clone, Debug)]
pub(crate) struct Ref {
    /// The kind referred to (`EC2NodeClass`, `NodePool`, `Deployment`, `InstanceType`, ...).
    pub kind: String,
    /// Empty for cluster-scoped kinds.
    pub namespace: String,
    pub name: String,
    pub path: String,
    pub pos: Pos,
}

/// What a field needs of the Karpenter the scenario assumes, checked once the Cluster document
/// (wherever it is) has been read.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Need {
    /// The CRDs of versions before this behaviour's have no such field or value.
    Version(Behaviour),
    /// Versions before this behaviour's accept the field and do nothing with it.
    Effect(Behaviour),
    /// Karpenter ignores the feature while the gate is off.
    Gate(Gate),
    /// A gate named in `featureGates` must exist at the version.
    GateExists(Gate),
}

#[derive(Clone, Debug)]
pub(crate) struct Needed {
    pub need: Need,
    /// The finding's code when the need is not met.
    pub code: Code,
    /// What is used, as the finding names it (`replicas`, `operator: Gte`).
    pub what: String,
    pub path: String,
    pub pos: Pos,
}

/// The diagnostics of one document (or one `List` item) being converted.
pub(crate) struct Cx {
    pub doc: usize,
    pub object: Option<String>,
    pub diags: Vec<Diagnostic>,
    /// References to other objects, for the cross-document checks.
    pub refs: Vec<Ref>,
    /// Version- and gate-dependent uses, for the check against the Cluster's Karpenter.
    pub needs: Vec<Needed>,
    errors: usize,
}

impl Cx {
    pub fn new(doc: usize, object: Option<String>) -> Cx {
        Cx {
            doc,
            object,
            diags: Vec::new(),
            refs: Vec::new(),
            needs: Vec::new(),
            errors: 0,
        }
    }

    /// Records that `what` at `path`/`pos` needs a version or a feature gate.
    pub fn need(&mut self, need: Need, what: impl Into<String>, path: &str, pos: Pos) {
        let code = match need {
            Need::Version(_) => Code::NeedsNewerKarpenter,
            Need::Effect(_) => Code::NeedsNewerKarpenter,
            Need::Gate(_) => Code::NeedsFeatureGate,
            Need::GateExists(_) => Code::UnknownFeatureGate,
        };
        self.need_as(code, need, what, path, pos);
    }

    /// [`Cx::need`] under a code of the rule's own.
    pub fn need_as(
        &mut self,
        code: Code,
        need: Need,
        what: impl Into<String>,
        path: &str,
        pos: Pos,
    ) {
        self.needs.push(Needed {
            need,
            code,
            what: what.into(),
            path: path.to_string(),
            pos,
        });
    }

    pub fn refer(&mut self, kind: &str, namespace: &str, name: &str, f: &Field<'_>) {
        self.refs.push(Ref {
            kind: kind.to_string(),
            namespace: namespace.to_string(),
            name: name.to_string(),
            path: f.path.clone(),
            pos: f.pos(),
        });
    }

    pub fn error_count(&self) -> usize {
        self.errors
    }

    pub fn report(
        &mut self,
        severity: Severity,
        code: Code,
        path: &str,
        pos: Pos,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        if severity == Severity::Error {
            self.errors += 1;
        }
        self.diags.push(Diagnostic {
            severity,
            code,
            document: self.doc,
            object: self.object.clone(),
            path: path.to_string(),
            line: pos.line.max(1),
            column: pos.col.max(1),
            message: message.into(),
            help,
            ko: None,
        });
    }

    /// Gives the finding just reported its Korean message (and help, when the English help is
    /// not specific enough to serve as it is).
    pub fn ko(&mut self, message: impl Into<String>, help: Option<String>) {
        if let Some(d) = self.diags.last_mut() {
            d.ko = Some(Korean {
                message: message.into(),
                help,
            });
        }
    }

    pub fn error(
        &mut self,
        code: Code,
        path: &str,
        pos: Pos,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        self.report(Severity::Error, code, path, pos, message, help);
    }

    pub fn warn(
        &mut self,
        code: Code,
        path: &str,
        pos: Pos,
        message: impl Into<String>,
        help: Option<String>,
    ) {
        self.report(Severity::Warning, code, path, pos, message, help);
    }

    fn wrong_type(&mut self, f: &Field<'_>, expected: &str) {
        let help = match (&f.node.value, expected) {
            (Value::Int(_) | Value::Float(_) | Value::Bool(_), "a string") => f
                .node
                .scalar_text()
                .map(|t| format!("quote the value: \"{t}\"")),
            (Value::Str(s), "an integer") if s.trim().parse::<i64>().is_ok() => {
                Some(format!("remove the quotes: {}", s.trim()))
            }
            (Value::Str(s), "a boolean") if matches!(s.as_str(), "true" | "false") => {
                Some(format!("remove the quotes: {s}"))
            }
            _ => Some(format!("write {expected} here")),
        };
        let found = match f.node.scalar_text() {
            Some(t) if !matches!(f.node.value, Value::Str(_)) => {
                format!("{} ({t})", f.node.type_name())
            }
            Some(t) => format!("{} (\"{}\")", f.node.type_name(), truncate(&t, 40)),
            None => f.node.type_name().to_string(),
        };
        self.error(
            Code::InvalidType,
            &f.path,
            f.pos(),
            format!("expected {expected}, found {found}"),
            help.clone(),
        );
        let found_ko = match f.node.scalar_text() {
            Some(t) if !matches!(f.node.value, Value::Str(_)) => {
                format!("{} ({t})", type_name_ko(f.node.type_name()))
            }
            Some(t) => format!(
                "{} (\"{}\")",
                type_name_ko(f.node.type_name()),
                truncate(&t, 40)
            ),
            None => type_name_ko(f.node.type_name()).to_string(),
        };
        let help_ko = help.map(|h| match h.split_once(": ") {
            Some(("quote the value", v)) => format!("값을 따옴표로 감싸세요: {v}"),
            Some(("remove the quotes", v)) => format!("따옴표를 빼세요: {v}"),
            _ => format!("여기에는 {}을(를) 쓰세요", type_name_ko(expected)),
        });
        self.ko(
            format!("{}이어야 하는데 {found_ko}입니다", type_name_ko(expected)),
            help_ko,
        );
    }

    /// A string scalar. Numbers and booleans are rejected as Kubernetes' decoder does
    /// (`name: 123` is a type error), with a hint to quote them.
    pub fn str(&mut self, f: &Field<'_>) -> Option<String> {
        match &f.node.value {
            Value::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(f, "a string");
                None
            }
        }
    }

    /// A non-empty string.
    pub fn nonempty_str(&mut self, f: &Field<'_>) -> Option<String> {
        let s = self.str(f)?;
        if s.is_empty() {
            self.error(
                Code::EmptyValue,
                &f.path,
                f.pos(),
                "must not be empty",
                Some("give it a value, or remove the field".into()),
            );
            self.ko(
                "비어 있으면 안 됩니다",
                Some("값을 쓰거나 필드를 지우세요".into()),
            );
            return None;
        }
        Some(s)
    }

    /// An integer within `[min, max]`.
    pub fn int(&mut self, f: &Field<'_>, min: i64, max: i64) -> Option<i64> {
        let v = match &f.node.value {
            Value::Int(i) => *i,
            Value::Float(x)
                if x.fract() == 0.0
                    && x.abs() < 9.0e18
                    && f.node
                        .raw
                        .as_deref()
                        .is_some_and(|r| !r.contains(['.', 'e', 'E'])) =>
            {
                // An integer too large for i64 arrives as a float; it is out of range anyway.
                *x as i64
            }
            _ => {
                self.wrong_type(f, "an integer");
                return None;
            }
        };
        if v < min || v > max {
            let (message, ko) = if max == i64::MAX {
                (
                    format!("must be at least {min}, found {v}"),
                    format!("{min} 이상이어야 하는데 {v}입니다"),
                )
            } else {
                (
                    format!("must be between {min} and {max}, found {v}"),
                    format!("{min}에서 {max} 사이여야 하는데 {v}입니다"),
                )
            };
            let (help, help_ko) = if max == i64::MAX {
                (
                    format!("use a whole number of at least {min}"),
                    format!("{min} 이상의 정수를 쓰세요"),
                )
            } else {
                (
                    format!("use a whole number from {min} to {max}"),
                    format!("{min}에서 {max} 사이의 정수를 쓰세요"),
                )
            };
            self.error(Code::OutOfRange, &f.path, f.pos(), message, Some(help));
            self.ko(ko, Some(help_ko));
            return None;
        }
        Some(v)
    }

    pub fn bool(&mut self, f: &Field<'_>) -> Option<bool> {
        match &f.node.value {
            Value::Bool(b) => Some(*b),
            _ => {
                self.wrong_type(f, "a boolean");
                None
            }
        }
    }

    /// The items of a list, each with its own path (`path[i]`).
    pub fn seq<'n>(&mut self, f: &Field<'n>) -> Vec<Field<'n>> {
        match &f.node.value {
            Value::Seq(items) => items
                .iter()
                .enumerate()
                .map(|(i, node)| Field {
                    node,
                    path: format!("{}[{i}]", f.path),
                    key_pos: node.pos,
                })
                .collect(),
            _ => {
                self.wrong_type(f, "a list");
                Vec::new()
            }
        }
    }

    pub fn string_list(&mut self, f: &Field<'_>) -> Vec<String> {
        self.seq(f)
            .iter()
            .filter_map(|item| self.str(item))
            .collect()
    }

    /// The entries of a map whose keys are free-form (labels, resource lists), each with the
    /// key's text and a field for the value.
    pub fn entries<'n>(&mut self, f: &Field<'n>) -> Vec<(String, Pos, Field<'n>)> {
        match &f.node.value {
            Value::Map(entries) => entries
                .iter()
                .map(|(k, v)| {
                    let key = k.key_text();
                    let mut path = f.path.clone();
                    push_key(&mut path, &key);
                    (
                        key,
                        k.pos,
                        Field {
                            node: v,
                            path,
                            key_pos: k.pos,
                        },
                    )
                })
                .collect(),
            _ => {
                self.wrong_type(f, "a map");
                Vec::new()
            }
        }
    }

    /// One of a fixed set of spellings; the help lists them all.
    pub fn choice(
        &mut self,
        f: &Field<'_>,
        valid: &[&'static str],
        what: &str,
    ) -> Option<&'static str> {
        let s = self.str(f)?;
        if let Some(v) = valid.iter().find(|v| **v == s) {
            return Some(v);
        }
        let mut message = format!("`{s}` is not a valid {what}");
        let mut ko = format!("`{s}`는 {what}로 쓸 수 없습니다");
        if let Some(guess) = suggest(&s, valid.iter().copied()) {
            message.push_str(&format!(" (did you mean `{guess}`?)"));
            ko.push_str(&format!(" (`{guess}`를 쓰려던 것인가요?)"));
        }
        self.error(
            Code::InvalidChoice,
            &f.path,
            f.pos(),
            message,
            Some(format!("use one of {}", valid.join(", "))),
        );
        self.ko(
            ko,
            Some(format!("다음 중 하나를 쓰세요: {}", valid.join(", "))),
        );
        None
    }

    /// A Kubernetes quantity for `resource`, as a string or a YAML number (`cpu: 2`,
    /// `cpu: 0.5`, `memory: 1e3`), in the engine's units (millicores, bytes, counts).
    pub fn quantity(&mut self, f: &Field<'_>, resource: ResourceName) -> Option<i64> {
        let text = match &f.node.value {
            Value::Str(s) => s.clone(),
            Value::Int(_) | Value::Float(_) => f.node.scalar_text().unwrap_or_default(),
            _ => {
                self.wrong_type(f, "a quantity (a string or a number)");
                return None;
            }
        };
        match ext::quantity(resource, &text) {
            Ok(v) if v < 0 => {
                self.error(
                    Code::InvalidQuantity,
                    &f.path,
                    f.pos(),
                    format!("`{text}` is negative"),
                    Some(String::from("quantities here must be zero or more")),
                );
                self.ko(
                    format!("`{text}`는 음수입니다"),
                    Some("여기에는 0 이상의 양만 쓸 수 있습니다".into()),
                );
                None
            }
            Ok(v) => Some(v),
            Err(e) => {
                self.error(
                    Code::InvalidQuantity,
                    &f.path,
                    f.pos(),
                    e,
                    Some(quantity_help(resource)),
                );
                self.ko(
                    format!("`{text}`는 Kubernetes 수량으로 읽을 수 없습니다"),
                    None,
                );
                None
            }
        }
    }

    /// A Go duration (`30s`, `1h30m`); with `never`, also `Never` (returned as `None`).
    pub fn duration(&mut self, f: &Field<'_>, never: bool) -> Option<Option<u64>> {
        let s = match &f.node.value {
            Value::Str(s) => s.clone(),
            Value::Int(_) | Value::Float(_) => {
                let t = f.node.scalar_text().unwrap_or_default();
                self.error(
                    Code::InvalidType,
                    &f.path,
                    f.pos(),
                    format!("expected a duration string, found the number {t}"),
                    Some(format!("add a unit: \"{t}s\"")),
                );
                self.ko(
                    format!("기간 문자열이어야 하는데 숫자 {t}입니다"),
                    Some(format!("단위를 붙이세요: \"{t}s\"")),
                );
                return None;
            }
            _ => {
                self.wrong_type(f, "a duration string");
                return None;
            }
        };
        let parsed = if never {
            ext::duration_or_never(&s)
        } else {
            ext::duration(&s).map(Some)
        };
        match parsed {
            Ok(v) => Some(v),
            Err(e) => {
                let help = if never {
                    "use a duration such as 30s, 5m or 720h, or Never"
                } else {
                    "use a duration such as 30s, 5m or 720h"
                };
                self.error(
                    Code::InvalidDuration,
                    &f.path,
                    f.pos(),
                    e,
                    Some(help.into()),
                );
                let help_ko = if never {
                    "30s, 5m, 720h 같은 기간이나 Never를 쓰세요"
                } else {
                    "30s, 5m, 720h 같은 기간을 쓰세요"
                };
                self.ko(
                    format!("`{s}`는 기간으로 읽을 수 없습니다"),
                    Some(help_ko.into()),
                );
                None
            }
        }
    }
}

fn quantity_help(resource: ResourceName) -> String {
    match resource {
        ResourceName::Cpu => "use cores or millicores, e.g. 2, 0.5 or 500m".into(),
        ResourceName::Memory | ResourceName::EphemeralStorage => {
            "use bytes with a suffix, e.g. 512Mi, 4Gi or 1G (binary suffixes are Ki, Mi, Gi, Ti)"
                .into()
        }
        _ => "use a whole number, e.g. 1".into(),
    }
}

pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

/// Appends a map key to a field path: `a.b` for plain keys, `a["karpenter.sh/x"]` otherwise.
pub(crate) fn push_key(path: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else {
        path.push_str("[\"");
        for c in key.chars() {
            if c == '"' || c == '\\' {
                path.push('\\');
            }
            path.push(c);
        }
        path.push_str("\"]");
    }
}

pub(crate) fn join(path: &str, key: &str) -> String {
    let mut p = path.to_string();
    push_key(&mut p, key);
    p
}

/// The closest candidate within a small edit distance, for "did you mean" hints.
pub(crate) fn suggest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let w = word.to_ascii_lowercase();
    let limit = (w.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&w, &c.to_ascii_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edits between two words: insertions, deletions, substitutions and swaps of two neighbouring
/// letters (`paht` is one edit from `path`), as the optimal-string-alignment distance counts them.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().take(64).collect();
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// A value found under some path.
#[derive(Clone, Debug)]
pub(crate) struct Field<'n> {
    pub node: &'n Node,
    pub path: String,
    /// Where the key that holds this value is (for values without a position of their own).
    pub key_pos: Pos,
}

impl<'n> Field<'n> {
    pub fn root(node: &'n Node, path: &str) -> Field<'n> {
        Field {
            node,
            path: path.to_string(),
            key_pos: node.pos,
        }
    }

    pub fn pos(&self) -> Pos {
        if self.node.pos.line > 0 {
            self.node.pos
        } else {
            self.key_pos
        }
    }
}

/// The fields of one object, with bookkeeping for unknown-field warnings.
pub(crate) struct Fields<'n> {
    entries: &'n [(Node, Node)],
    used: Vec<bool>,
    /// Keys declared with [`Fields::ignore`] or [`Fields::unsupported`]: known, but not read.
    skipped: Vec<bool>,
    known: Vec<&'static str>,
    /// The Kubernetes type of the object, when the schema table has it: what the converter
    /// does not read is then walked against the table, and its field names are known.
    schema: Option<Ty>,
    path: String,
    /// Where to point "missing field" errors: the key that names this object.
    anchor: Pos,
    /// False when the value was not a map: missing fields are then not reported again.
    valid: bool,
}

impl<'n> Fields<'n> {
    /// The fields of `f`, which must be a map (null counts as empty).
    pub fn of(cx: &mut Cx, f: &Field<'n>) -> Fields<'n> {
        let (entries, valid): (&'n [(Node, Node)], bool) = match &f.node.value {
            Value::Map(entries) => (entries.as_slice(), true),
            Value::Null => (&[], true),
            _ => {
                cx.wrong_type(f, "a map");
                (&[], false)
            }
        };
        Fields {
            entries,
            used: vec![false; entries.len()],
            skipped: vec![false; entries.len()],
            known: Vec::new(),
            schema: None,
            path: f.path.clone(),
            anchor: f.key_pos,
            valid,
        }
    }

    /// The fields of `f`, an object of the Kubernetes type `ty`: on [`Fields::finish`], the
    /// fields the converter did not read are checked against the schema table, deep down.
    pub fn typed(cx: &mut Cx, f: &Field<'n>, ty: Ty) -> Fields<'n> {
        let mut fields = Fields::of(cx, f);
        fields.schema = Some(ty);
        fields
    }

    pub fn anchor(&self) -> Pos {
        self.anchor
    }

    pub fn child_path(&self, key: &str) -> String {
        join(&self.path, key)
    }

    fn find(&mut self, key: &'static str) -> Option<usize> {
        if !self.known.contains(&key) {
            self.known.push(key);
        }
        let i = self
            .entries
            .iter()
            .position(|(k, _)| matches!(&k.value, Value::Str(s) if s == key))?;
        self.used[i] = true;
        Some(i)
    }

    /// The value of `key`; `None` when absent or null (Kubernetes treats `null` as unset).
    pub fn get(&mut self, key: &'static str) -> Option<Field<'n>> {
        let i = self.find(key)?;
        let (k, v) = &self.entries[i];
        if v.is_null() {
            return None;
        }
        Some(Field {
            node: v,
            path: self.child_path(key),
            key_pos: k.pos,
        })
    }

    /// Whether `key` is written at all (even as null).
    pub fn has(&mut self, key: &'static str) -> bool {
        self.find(key).is_some()
    }

    /// The position of `key` itself, if present.
    pub fn key_pos(&mut self, key: &'static str) -> Option<Pos> {
        let i = self.find(key)?;
        Some(self.entries[i].0.pos)
    }

    /// Like [`Fields::get`], reporting a missing-field error when absent.
    pub fn req(&mut self, cx: &mut Cx, key: &'static str) -> Option<Field<'n>> {
        self.require(cx, key, None)
    }

    /// Like [`Fields::req`] with a specific help text.
    pub fn req_help(&mut self, cx: &mut Cx, key: &'static str, help: &str) -> Option<Field<'n>> {
        self.require(cx, key, Some(help.to_string()))
    }

    fn require(
        &mut self,
        cx: &mut Cx,
        key: &'static str,
        help: Option<String>,
    ) -> Option<Field<'n>> {
        let f = self.get(key);
        if f.is_none() && self.valid {
            // A specific help (a value to type) serves both languages; otherwise say where.
            let within = if self.path.is_empty() {
                String::from("the document")
            } else {
                format!("`{}`", self.path)
            };
            let within_ko = if self.path.is_empty() {
                String::from("문서")
            } else {
                format!("`{}`", self.path)
            };
            let help_ko = if help.is_some() {
                None
            } else {
                Some(format!("{within_ko} 아래에 `{key}:`를 추가하세요"))
            };
            let help = help.or_else(|| Some(format!("add `{key}:` under {within}")));
            cx.error(
                Code::MissingField,
                &self.child_path(key),
                self.anchor,
                format!("missing required field `{key}`"),
                help,
            );
            cx.ko(format!("필수 필드 `{key}`가 없습니다"), help_ko);
        }
        f
    }

    /// Declares fields that exist in the real API but do not change the simulation.
    pub fn ignore(&mut self, keys: &[&'static str]) {
        for key in keys {
            self.skip(key);
        }
    }

    /// Marks `key` as known but not read (its content is checked against the schema).
    fn skip(&mut self, key: &'static str) -> Option<usize> {
        let i = self.find(key)?;
        self.skipped[i] = true;
        Some(i)
    }

    /// Declares fields that exist in the real API and would change behaviour, but that the
    /// playground does not simulate: a warning each, so nobody is misled.
    pub fn unsupported(&mut self, cx: &mut Cx, keys: &[&'static str], why: &str) {
        for key in keys {
            if let Some(i) = self.skip(key) {
                let (k, v) = &self.entries[i];
                if !v.is_null() {
                    cx.warn(
                        Code::UnsupportedField,
                        &self.child_path(key),
                        k.pos,
                        format!("`{key}` is not simulated and is ignored{why}"),
                        Some("remove it, or keep it: it does not change the simulation".into()),
                    );
                    cx.ko(
                        format!("`{key}`는 시뮬레이션하지 않으므로 무시합니다"),
                        Some("지우거나 그대로 두세요. 시뮬레이션에는 영향이 없습니다".into()),
                    );
                }
            }
        }
    }

    /// The string at `key`, looked at without taking the field or reporting anything.
    pub fn peek_str(&self, key: &str) -> Option<String> {
        self.entries
            .iter()
            .find_map(|(k, v)| match (&k.value, &v.value) {
                (Value::Str(name), Value::Str(value)) if name == key => Some(value.clone()),
                _ => None,
            })
    }

    /// Takes `key` when it is written, and says what a real cluster would do with it that the
    /// simulation does not (`real`, `real_ko`: a clause after "a real cluster ...").
    pub fn not_simulated(&mut self, cx: &mut Cx, key: &'static str, real: &str, real_ko: &str) {
        let Some(i) = self.skip(key) else {
            return;
        };
        let (k, v) = &self.entries[i];
        if v.is_null() {
            return;
        }
        cx.warn(
            Code::UnsupportedField,
            &self.child_path(key),
            k.pos,
            format!("`{key}` is not simulated: {real}"),
            Some("keep it if your cluster needs it; the simulation goes on without it".into()),
        );
        cx.ko(
            format!("`{key}`는 시뮬레이션하지 않습니다: {real_ko}"),
            Some("클러스터에 필요하면 그대로 두세요. 시뮬레이션은 이 필드 없이 진행됩니다".into()),
        );
    }

    /// Warns about every key nobody asked for, and, for a typed object, checks what the
    /// converter declared but did not read (and real fields it does not list) against the
    /// schema table. What the converter read is its own business: no field is reported twice.
    pub fn finish(self, cx: &mut Cx) {
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if self.used[i] && !self.skipped[i] {
                continue;
            }
            let key = k.key_text();
            if let Some(kind) = self.schema.and_then(|ty| ty.field(&key)) {
                let value = Field {
                    node: v,
                    path: join(&self.path, &key),
                    key_pos: k.pos,
                };
                schema::walk(cx, &value, kind);
                continue;
            }
            // A known key left unused is a second copy of a key: `duplicate-field` says so.
            if self.used[i] || self.known.contains(&key.as_str()) {
                continue;
            }
            let names = self.schema.map(Ty::names).into_iter().flatten();
            unknown_field(
                cx,
                &self.path,
                &key,
                k.pos,
                self.known.iter().copied().chain(names),
            );
        }
    }
}

/// Warns that `key`, found in the object at `parent`, is not one of its fields, suggesting the
/// closest of `candidates`.
pub(crate) fn unknown_field<'a>(
    cx: &mut Cx,
    parent: &str,
    key: &str,
    pos: Pos,
    candidates: impl IntoIterator<Item = &'a str>,
) {
    let guess = suggest(key, candidates);
    let help = guess
        .map(|s| format!("did you mean `{s}`?"))
        .unwrap_or_else(|| String::from("check its spelling and indentation, or remove it"));
    let within = if parent.is_empty() {
        String::from("the document")
    } else {
        format!("`{parent}`")
    };
    cx.warn(
        Code::UnknownField,
        &join(parent, key),
        pos,
        format!(
            "unknown field `{}` in {within}; it is ignored",
            truncate(key, 60)
        ),
        Some(help),
    );
    let within_ko = if parent.is_empty() {
        String::from("문서")
    } else {
        format!("`{parent}`")
    };
    let help_ko = guess
        .map(|s| format!("`{s}`를 쓰려던 것인가요?"))
        .unwrap_or_else(|| String::from("철자와 들여쓰기를 확인하거나 지우세요"));
    cx.ko(
        format!(
            "{within_ko}에 알 수 없는 필드 `{}`가 있어 무시합니다",
            truncate(key, 60)
        ),
        Some(help_ko),
    );
}

/// A YAML node kind as [`Node::type_name`] names it, in Korean.
fn type_name_ko(english: &str) -> &'static str {
    match english {
        "a string" => "문자열",
        "an integer" => "정수",
        "a number" => "숫자",
        "a boolean" => "불리언(true/false)",
        "a list" => "목록",
        "a map" => "맵",
        "null" => "null",
        _ => "다른 형식",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_quote_keys_with_dots_and_slashes() {
        let mut p = String::from("metadata");
        push_key(&mut p, "labels");
        push_key(&mut p, "karpenter.sh/discovery");
        assert_eq!(p, "metadata.labels[\"karpenter.sh/discovery\"]");
        assert_eq!(join("", "spec"), "spec");
    }

    #[test]
    fn suggestions_are_close_matches_only() {
        let ops = ["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"];
        assert_eq!(suggest("Inn", ops), Some("In"));
        assert_eq!(suggest("exist", ops), Some("Exists"));
        assert_eq!(
            suggest("requirments", ["requirements", "taints"]),
            Some("requirements")
        );
        // Two neighbouring letters swapped are one edit.
        assert_eq!(suggest("paht", ["path", "port"]), Some("path"));
        assert_eq!(suggest("nmae", ["name", "namespace"]), Some("name"));
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("ca", "abc"), 3);
        assert_eq!(suggest("banana", ops), None);
    }
}

//! What a scalar means: its tag's kind and the value a plain scalar resolves to.
//!
//! The rules are the ones the reader has always applied (they were serde-saphyr's, and the
//! golden reports and diagnostics depend on every detail): YAML 1.1 booleans (`yes`, `on`, `y`)
//! as Kubernetes' own parser takes them, YAML 1.2 integers and floats with `0x`/`0o`/`0b` and
//! underscores, leading-zero integers read as floats, upper-case radix prefixes and signed NaN
//! kept as strings, and non-finite floats (`.inf`, `1e999`) refused.

use std::borrow::Cow;

use granit_parser::{ScalarStyle, Tag};

pub(super) const YAML_NAMESPACE: &str = "tag:yaml.org,2002:";

/// What a node's tag asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum TagKind {
    None,
    Int,
    Float,
    Bool,
    Null,
    Seq,
    Map,
    Timestamp,
    /// The robotics extensions (`!!time`, `!degrees`, `!radians`): numbers the reader refuses.
    Time,
    Binary,
    Str,
    Merge,
    Value,
    /// `!`: no resolution, the scalar stays a string.
    NonSpecific,
    Include,
    Degrees,
    Radians,
    Other,
}

/// The kind of node a recognised tag may stand on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum NodeKind {
    Scalar,
    Sequence,
    Mapping,
}

impl TagKind {
    pub(super) fn of(tag: Option<&Tag>) -> TagKind {
        let Some(tag) = tag else {
            return TagKind::None;
        };
        if is_include(tag) {
            return TagKind::Include;
        }
        if let Some(kind) = tag.core_suffix().and_then(core_suffix_kind) {
            return kind;
        }
        match tag.suffix_in_namespace(YAML_NAMESPACE).as_deref() {
            Some("merge") => return TagKind::Merge,
            Some("value") => return TagKind::Value,
            Some(name) => return name_kind(name.strip_prefix('!').unwrap_or(name)),
            None => {}
        }
        let Some(suffix) = tag.suffix_in_namespace("!") else {
            return TagKind::Other;
        };
        match suffix.as_ref() {
            "" | "!" => TagKind::NonSpecific,
            "!timestamp" => TagKind::Timestamp,
            "!binary" => TagKind::Binary,
            name => match name.strip_prefix('!') {
                Some(name) => core_suffix_kind(name).unwrap_or(TagKind::Other),
                None => name_kind(name),
            },
        }
    }

    /// The node kind the tag requires, if it requires one.
    pub(super) fn requires(self) -> Option<NodeKind> {
        match self {
            TagKind::Seq => Some(NodeKind::Sequence),
            TagKind::Map => Some(NodeKind::Mapping),
            TagKind::None | TagKind::NonSpecific | TagKind::Other => None,
            _ => Some(NodeKind::Scalar),
        }
    }

    pub(super) fn forces_string(self) -> bool {
        matches!(self, TagKind::Str | TagKind::NonSpecific)
    }

    pub(super) fn can_be_string(self) -> bool {
        matches!(
            self,
            TagKind::None
                | TagKind::Str
                | TagKind::Merge
                | TagKind::Value
                | TagKind::Other
                | TagKind::Include
                | TagKind::NonSpecific
        )
    }

    fn is_core(self) -> bool {
        matches!(
            self,
            TagKind::Int
                | TagKind::Float
                | TagKind::Bool
                | TagKind::Null
                | TagKind::Seq
                | TagKind::Map
                | TagKind::Str
        )
    }
}

fn is_include(tag: &Tag) -> bool {
    [
        "!include",
        "tag:yaml.org,2002:include",
        "tag:yaml.org,2002:!include",
    ]
    .iter()
    .any(|prefix| {
        tag.suffix_in_namespace(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('#'))
    })
}

fn name_kind(name: &str) -> TagKind {
    match name {
        "int" => TagKind::Int,
        "float" => TagKind::Float,
        "bool" => TagKind::Bool,
        "null" => TagKind::Null,
        "seq" => TagKind::Seq,
        "map" => TagKind::Map,
        "str" => TagKind::Str,
        "timestamp" => TagKind::Timestamp,
        "time" => TagKind::Time,
        "binary" => TagKind::Binary,
        "include" => TagKind::Include,
        "degrees" => TagKind::Degrees,
        "radians" => TagKind::Radians,
        _ => TagKind::Other,
    }
}

fn core_suffix_kind(suffix: &str) -> Option<TagKind> {
    Some(match suffix {
        "null" => TagKind::Null,
        "bool" => TagKind::Bool,
        "int" => TagKind::Int,
        "float" => TagKind::Float,
        "map" => TagKind::Map,
        "seq" => TagKind::Seq,
        "str" => TagKind::Str,
        _ => return None,
    })
}

/// Whether a tagged `<<` key is a merge key: the resolved URI decides, not the spelling.
pub(super) fn is_merge_tag(tag: &Tag) -> bool {
    tag.suffix_in_namespace(YAML_NAMESPACE)
        .is_some_and(|suffix| suffix == "merge")
}

/// A scalar's value.
pub(super) enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

/// Resolves a scalar; the error is the message, the scalar's position is the caller's.
pub(super) fn resolve(
    value: Cow<'_, str>,
    tag: TagKind,
    style: ScalarStyle,
) -> Result<Resolved, String> {
    // Explicit core types win over null and string inference, quoted or not.
    match tag {
        TagKind::Null => return Ok(Resolved::Null),
        TagKind::Bool => {
            return yaml11_bool(&value)
                .map(Resolved::Bool)
                .ok_or_else(|| "invalid boolean".into());
        }
        TagKind::Int if trim(&value).starts_with('-') => {
            return signed(&value)
                .map(Resolved::Int)
                .ok_or_else(|| "invalid i64".into());
        }
        TagKind::Int => {
            return unsigned(&value)
                .map(from_u64)
                .ok_or_else(|| "invalid u64".into());
        }
        TagKind::Float => {
            return match float_or_overflow(&value, tag) {
                Some(f) => finite(f, &value),
                None => Err("invalid floating point".into()),
            };
        }
        TagKind::Time | TagKind::Degrees | TagKind::Radians => {
            return Err("invalid floating point".into());
        }
        _ => {}
    }
    if is_null(tag, &value, style) {
        return Ok(Resolved::Null);
    }
    let plain = matches!(style, ScalarStyle::Plain);
    if !plain || !tag.can_be_string() || tag == TagKind::Binary || tag.forces_string() {
        if tag == TagKind::Binary {
            let bytes = decode_base64(&value).ok_or("invalid !!binary base64")?;
            return String::from_utf8(bytes).map(Resolved::Str).map_err(|_| {
                "!!binary scalar is not valid UTF-8 so cannot be stored into string. If you \
                 just use !!binary for documentation/annotation, set \
                 ignore_binary_tag_for_string in Options"
                    .into()
            });
        }
        if !tag.can_be_string() {
            return Err("cannot deserialize tagged scalar into string".into());
        }
        return Ok(Resolved::Str(value.into_owned()));
    }
    if let Some(b) = yaml11_bool(&value) {
        return Ok(Resolved::Bool(b));
    }
    let t = trim(&value);
    let unsigned_text = t.strip_prefix(['+', '-']).unwrap_or(t);
    let uppercase_radix = matches!(unsigned_text.as_bytes(), [b'0', b'X' | b'O' | b'B', ..]);
    if uppercase_radix || is_signed_nan(t) {
        return Ok(Resolved::Str(value.into_owned()));
    }
    if t.starts_with('-') {
        if !leading_zero_decimal(t)
            && let Some(i) = signed(t)
        {
            return Ok(Resolved::Int(i));
        }
    } else if let Some(u) = unsigned(t) {
        return Ok(from_u64(u));
    }
    if let Some(f) = float_or_overflow(&value, tag) {
        return finite(f, &value);
    }
    Ok(Resolved::Str(value.into_owned()))
}

fn from_u64(u: u64) -> Resolved {
    match i64::try_from(u) {
        Ok(i) => Resolved::Int(i),
        Err(_) => Resolved::Float(u as f64),
    }
}

fn finite(f: f64, raw: &str) -> Result<Resolved, String> {
    if f.is_finite() {
        Ok(Resolved::Float(f))
    } else {
        Err(format!(
            "non-finite float `{raw}` rejected by the configured policy"
        ))
    }
}

/// YAML's null: an explicit `!!null`, or a plain empty, `~` or `null` scalar that no other
/// tag claims.
pub(super) fn is_null(tag: TagKind, value: &str, style: ScalarStyle) -> bool {
    tag == TagKind::Null
        || (!tag.is_core()
            && !tag.forces_string()
            && !matches!(
                tag,
                TagKind::Binary
                    | TagKind::Timestamp
                    | TagKind::Time
                    | TagKind::Degrees
                    | TagKind::Radians
            )
            && matches!(style, ScalarStyle::Plain)
            && matches!(value, "" | "~" | "null" | "Null" | "NULL"))
}

/// ASCII padding a conversion ignores; other Unicode white space is content.
fn trim(s: &str) -> &str {
    s.trim_matches([' ', '\t', '\r', '\n'])
}

fn yaml11_bool(s: &str) -> Option<bool> {
    let t = trim(s);
    let is = |words: [&str; 4]| words.iter().any(|w| t.eq_ignore_ascii_case(w));
    if is(["true", "yes", "y", "on"]) {
        Some(true)
    } else if is(["false", "no", "n", "off"]) {
        Some(false)
    } else {
        None
    }
}

fn is_signed_nan(t: &str) -> bool {
    t.strip_prefix(['+', '-'])
        .is_some_and(|u| matches!(u, ".nan" | ".NaN" | ".NAN"))
}

/// `0127`, `+0127`, `-0127`: a decimal integer with a redundant leading zero.
fn leading_zero_decimal(t: &str) -> bool {
    let s = trim(t);
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The magnitude of `digits` in `radix`; single underscores between digits are allowed.
fn magnitude(digits: &str, radix: u32) -> Option<u128> {
    let bytes = digits.as_bytes();
    let mut value: u128 = 0;
    let mut saw_digit = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            let prev_ok = i > 0 && bytes[i - 1] != b'_';
            let next_ok = bytes.get(i + 1).is_some_and(|&n| n != b'_');
            if !prev_ok || !next_ok {
                return None;
            }
            continue;
        }
        let d = char::from(b).to_digit(16)?;
        if d >= radix || (radix <= 10 && !b.is_ascii_digit()) {
            return None;
        }
        value = value
            .checked_mul(u128::from(radix))?
            .checked_add(u128::from(d))?;
        saw_digit = true;
    }
    saw_digit.then_some(value)
}

fn radix_and_digits(rest: &str) -> (u32, &str) {
    for (prefixes, radix) in [(["0x", "0X"], 16), (["0o", "0O"], 8), (["0b", "0B"], 2)] {
        if let Some(digits) = prefixes.iter().find_map(|p| rest.strip_prefix(p)) {
            return (radix, digits);
        }
    }
    (10, rest)
}

/// An integer key's identity: sign and magnitude, whatever the spelling.
pub(super) fn integer_identity(value: &str) -> Option<(bool, u128)> {
    let t = trim(value);
    if t.starts_with('-') {
        let i = signed_wide(t)?;
        Some((i < 0, i.unsigned_abs()))
    } else {
        Some((false, unsigned_wide(t)?))
    }
}

fn signed(s: &str) -> Option<i64> {
    i64::try_from(signed_wide(s)?).ok()
}

fn unsigned(s: &str) -> Option<u64> {
    u64::try_from(unsigned_wide(s)?).ok()
}

fn signed_wide(s: &str) -> Option<i128> {
    let t = trim(s);
    let (negative, rest) = match t.strip_prefix('+') {
        Some(r) => (false, r),
        None => match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t),
        },
    };
    let (radix, digits) = radix_and_digits(rest);
    if radix == 10 && digits.starts_with('0') && digits != "0" {
        return None;
    }
    let m = magnitude(digits, radix)?;
    if negative {
        if m == i128::MAX as u128 + 1 {
            Some(i128::MIN)
        } else {
            i128::try_from(m).ok()?.checked_neg()
        }
    } else {
        i128::try_from(m).ok()
    }
}

fn unsigned_wide(s: &str) -> Option<u128> {
    let t = trim(s);
    if t.starts_with('-') {
        return None;
    }
    let rest = t.strip_prefix('+').unwrap_or(t);
    let (radix, digits) = radix_and_digits(rest);
    if radix == 10 && digits.starts_with('0') && digits != "0" {
        return None;
    }
    magnitude(digits, radix)
}

/// A YAML 1.2 float, including `.inf` and `.nan`; a numeral that overflows `f64` counts as
/// infinite so that it is refused like `.inf` rather than read as a string.
fn float_or_overflow(s: &str, tag: TagKind) -> Option<f64> {
    let t = trim(s);
    if tag == TagKind::Float && is_signed_nan(t) {
        return Some(f64::NAN);
    }
    let (negative, u) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    match u {
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        ".inf" | ".Inf" | ".INF" if negative => return Some(f64::NEG_INFINITY),
        ".inf" | ".Inf" | ".INF" => return Some(f64::INFINITY),
        _ => {}
    }
    let parsed = t.parse::<f64>().ok()?;
    if parsed.is_finite() {
        return Some(parsed);
    }
    // Rust also parses `inf` and `nan`, which YAML keeps as strings.
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    (digits.as_bytes().first().is_some_and(u8::is_ascii_digit) && parsed.is_infinite())
        .then_some(parsed)
}

/// A `!!binary` scalar's bytes (ASCII white space inside the base64 text is allowed).
fn decode_base64(s: &str) -> Option<Vec<u8>> {
    fn sextet(b: u8) -> Option<u32> {
        Some(u32::from(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }
    let cleaned: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !cleaned.len().is_multiple_of(4) {
        return None;
    }
    let chunks = cleaned.as_chunks::<4>().0;
    let mut out = Vec::with_capacity(chunks.len() * 3);
    for (i, chunk) in chunks.iter().enumerate() {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 0 && i + 1 != chunks.len() {
            return None;
        }
        let a = sextet(chunk[0])?;
        let b = sextet(chunk[1])?;
        let c = match chunk[2] {
            b'=' if pad < 2 => return None,
            b'=' => 0,
            byte => sextet(byte)?,
        };
        let d = match chunk[3] {
            b'=' if pad == 0 => return None,
            b'=' => 0,
            byte => sextet(byte)?,
        };
        if (pad == 2 && b & 0x0F != 0) || (pad == 1 && c & 0x03 != 0) || pad > 2 {
            return None;
        }
        let triple = (a << 18) | (b << 12) | (c << 6) | d;
        out.push((triple >> 16) as u8);
        if pad < 2 {
            out.push((triple >> 8) as u8);
        }
        if pad == 0 {
            out.push(triple as u8);
        }
    }
    Some(out)
}

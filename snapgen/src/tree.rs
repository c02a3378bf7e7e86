//! One object at a time as a small tree, written out the way kubectl prints it.
//!
//! `kubectl get -o json` marshals the API server's objects as Go maps: keys in byte order,
//! `json.MarshalIndent` with four spaces, HTML characters escaped (`\u003c`, `\u003e`,
//! `\u0026`). `kubectl get -o yaml` goes through sigs.k8s.io/yaml: JSON → go-yaml v2
//! (`JSONToYAML`), so keys come out in go-yaml v2's own order (`keyList.Less`: runs of digits
//! compare as numbers, a non-letter sorts before a letter), sequences sit at their key's
//! indentation, a string is double-quoted when go-yaml would resolve it as something other
//! than a string (bools incl. `y`/`on`, null, ints incl. `0x`/`0o`/octal, floats, base-60
//! floats, timestamps), single-quoted when the emitter refuses it plain (indicators, `: `,
//! ` #`, leading/trailing space), a literal block (`|`, `|-`, `|+`) when it holds a line
//! break, and long plain or quoted strings fold at spaces past column 80 (best_width).

use std::borrow::Cow;
use std::cmp::Ordering;

pub type Key = Cow<'static, str>;

/// A JSON value; maps keep insertion order until [`V::sort`].
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    Null,
    Bool(bool),
    Int(i64),
    Str(Cow<'static, str>),
    Map(Vec<(Key, V)>),
    List(Vec<V>),
}

impl From<&'static str> for V {
    fn from(s: &'static str) -> V {
        V::Str(Cow::Borrowed(s))
    }
}
impl From<String> for V {
    fn from(s: String) -> V {
        V::Str(Cow::Owned(s))
    }
}
impl From<&String> for V {
    fn from(s: &String) -> V {
        V::Str(Cow::Owned(s.clone()))
    }
}
impl From<i64> for V {
    fn from(n: i64) -> V {
        V::Int(n)
    }
}
impl From<bool> for V {
    fn from(b: bool) -> V {
        V::Bool(b)
    }
}
impl From<Vec<V>> for V {
    fn from(l: Vec<V>) -> V {
        V::List(l)
    }
}

/// `map! { "k" => v, ... }`: a map in the given order (sorted later).
#[macro_export]
macro_rules! map {
    ($($k:expr => $v:expr),* $(,)?) => {
        $crate::tree::V::Map(vec![$((::std::borrow::Cow::from($k), $crate::tree::V::from($v))),*])
    };
}

/// `list![a, b]`.
#[macro_export]
macro_rules! list {
    ($($v:expr),* $(,)?) => {
        $crate::tree::V::List(vec![$($crate::tree::V::from($v)),*])
    };
}

impl V {
    pub fn empty_map() -> V {
        V::Map(Vec::new())
    }

    /// Sets `k: v` in a map, replacing an existing `k` (no-op on other values).
    pub fn put(&mut self, k: impl Into<Key>, v: impl Into<V>) {
        let k = k.into();
        if let V::Map(m) = self {
            m.retain(|(key, _)| *key != k);
            m.push((k, v.into()));
        }
    }

    pub fn with(mut self, k: impl Into<Key>, v: impl Into<V>) -> V {
        self.put(k, v);
        self
    }

    pub fn get(&self, k: &str) -> Option<&V> {
        match self {
            V::Map(m) => m.iter().find(|(key, _)| key == k).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn get_mut(&mut self, k: &str) -> Option<&mut V> {
        match self {
            V::Map(m) => m.iter_mut().find(|(key, _)| key == k).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            V::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Sorts every map's keys, recursively, as the given printer does.
    pub fn sort(&mut self, yaml: bool) {
        match self {
            V::Map(m) => {
                if yaml {
                    m.sort_by(|a, b| go_yaml_key_order(&a.0, &b.0));
                } else {
                    m.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                }
                for (_, v) in m.iter_mut() {
                    v.sort(yaml);
                }
            }
            V::List(l) => {
                for v in l.iter_mut() {
                    v.sort(yaml);
                }
            }
            _ => {}
        }
    }
}

/// go-yaml v2's `keyList.Less` for two string keys.
pub fn go_yaml_key_order(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    if less(a, b) {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

fn less(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        less_by(
            a.as_bytes(),
            b.as_bytes(),
            |c: &u8| c.is_ascii_alphabetic(),
            |c: &u8| c.is_ascii_digit(),
            |c: &u8| (c - b'0') as i64,
        )
    } else {
        let ar: Vec<char> = a.chars().collect();
        let br: Vec<char> = b.chars().collect();
        less_by(
            &ar,
            &br,
            |c: &char| c.is_alphabetic(),
            |c: &char| c.is_ascii_digit(),
            |c: &char| *c as i64 - '0' as i64,
        )
    }
}

fn less_by<T: PartialOrd + PartialEq>(
    ar: &[T],
    br: &[T],
    letter: impl Fn(&T) -> bool,
    digit: impl Fn(&T) -> bool,
    value: impl Fn(&T) -> i64,
) -> bool {
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = letter(&ar[i]);
        let bl = letter(&br[i]);
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if value(&ar[i]) == 0 && digit(&ar[i]) || value(&br[i]) == 0 && digit(&br[i]) {
            let mut j = i;
            while j > 0 && digit(&ar[j - 1]) {
                j -= 1;
                if value(&ar[j]) != 0 {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && digit(&ar[ai]) {
            an = an.wrapping_mul(10).wrapping_add(value(&ar[ai]));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && digit(&br[bi]) {
            bn = bn.wrapping_mul(10).wrapping_add(value(&br[bi]));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

// ---------------------------------------------------------------------------------------------
// JSON

/// Writes `v` as `json.MarshalIndent(v, prefix, "    ")` continuing at `level`.
pub fn write_json(v: &V, level: usize, out: &mut String) {
    match v {
        V::Null => out.push_str("null"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(n) => push_int(out, *n),
        V::Str(s) => json_string(s, out),
        V::Map(m) if m.is_empty() => out.push_str("{}"),
        V::List(l) if l.is_empty() => out.push_str("[]"),
        V::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('\n');
                spaces(out, (level + 1) * 4);
                json_string(k, out);
                out.push_str(": ");
                write_json(v, level + 1, out);
            }
            out.push('\n');
            spaces(out, level * 4);
            out.push('}');
        }
        V::List(l) => {
            out.push('[');
            for (i, v) in l.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('\n');
                spaces(out, (level + 1) * 4);
                write_json(v, level + 1, out);
            }
            out.push('\n');
            spaces(out, level * 4);
            out.push(']');
        }
    }
}

fn push_int(out: &mut String, n: i64) {
    use std::fmt::Write;
    let _ = write!(out, "{n}");
}

fn spaces(out: &mut String, n: usize) {
    const SP: &str = "                                                                ";
    let mut n = n;
    while n > SP.len() {
        out.push_str(SP);
        n -= SP.len();
    }
    out.push_str(&SP[..n]);
}

/// Go's encoding/json string encoding (HTML-safe, as kubectl's printer uses it).
pub fn json_string(s: &str, out: &mut String) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '<' => Some("\\u003c"),
            '>' => Some("\\u003e"),
            '&' => Some("\\u0026"),
            '\u{2028}' => Some("\\u2028"),
            '\u{2029}' => Some("\\u2029"),
            c if (c as u32) < 0x20 => None,
            _ => continue,
        };
        out.push_str(&s[start..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
        }
        start = i + c.len_utf8();
    }
    out.push_str(std::str::from_utf8(&bytes[start..]).unwrap_or(""));
    out.push('"');
}

// ---------------------------------------------------------------------------------------------
// YAML

const BEST_WIDTH: usize = 80;

/// Writes the entries of a map at `indent`; when `inline` the first key continues the
/// current line (after `- `).
pub fn write_yaml_map(m: &[(Key, V)], indent: usize, inline: bool, out: &mut String) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 || !inline {
            spaces(out, indent);
        }
        let before = out.len();
        write_key(k, out);
        let key_cols = if k.is_ascii() {
            out.len() - before
        } else {
            out[before..].chars().count()
        };
        out.push(':');
        match v {
            V::Map(c) if c.is_empty() => out.push_str(" {}\n"),
            V::List(c) if c.is_empty() => out.push_str(" []\n"),
            V::Map(c) => {
                out.push('\n');
                write_yaml_map(c, indent + 2, false, out);
            }
            V::List(c) => {
                out.push('\n');
                write_yaml_list(c, indent, false, out);
            }
            scalar => {
                out.push(' ');
                write_scalar(scalar, indent + key_cols + 2, indent + 2, out);
                out.push('\n');
            }
        }
    }
}

/// Writes a sequence's items with `- ` at `indent`.
pub fn write_yaml_list(l: &[V], indent: usize, inline: bool, out: &mut String) {
    for (i, v) in l.iter().enumerate() {
        if i > 0 || !inline {
            spaces(out, indent);
        }
        out.push_str("- ");
        match v {
            V::Map(c) if c.is_empty() => out.push_str("{}\n"),
            V::List(c) if c.is_empty() => out.push_str("[]\n"),
            V::Map(c) => write_yaml_map(c, indent + 2, true, out),
            V::List(c) => write_yaml_list(c, indent + 2, true, out),
            scalar => {
                write_scalar(scalar, indent + 2, indent + 2, out);
                out.push('\n');
            }
        }
    }
}

fn write_scalar(v: &V, column: usize, cont_indent: usize, out: &mut String) {
    match v {
        V::Null => out.push_str("null"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(n) => push_int(out, *n),
        V::Str(s) => write_string(s, column, cont_indent, false, out),
        _ => unreachable!("collections are written by the callers"),
    }
}

fn write_key(k: &str, out: &mut String) {
    write_string(k, 0, 0, true, out);
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

/// The style go-yaml v2 (through sigs.k8s.io/yaml) gives a string.
pub fn style_of(s: &str, simple_key: bool) -> Style {
    // Most strings: printable ASCII with no block indicator (the slow path decides the rest).
    if fast_plain(s) {
        if resolves_non_string(s) || is_base60_float(s) {
            return Style::Double;
        }
        return Style::Plain;
    }
    slow_style_of(s, simple_key)
}

fn slow_style_of(s: &str, simple_key: bool) -> Style {
    let a = analyze(s);
    if s.contains('\n') && !simple_key {
        if a.block_allowed {
            return Style::Literal;
        }
        return Style::Double;
    }
    if resolves_non_string(s) || is_base60_float(s) {
        return Style::Double;
    }
    if a.block_plain_allowed {
        return Style::Plain;
    }
    if a.single_quoted_allowed {
        return Style::Single;
    }
    Style::Double
}

/// Printable ASCII that go-yaml's analysis allows plain in block context: no indicator first,
/// no `: `, ` #`, trailing `:`, leading or trailing space, `---`/`...` start.
fn fast_plain(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if b"#,[]{}&*!|>'\"%@`?:- ".contains(&first) || last == b' ' || last == b':' {
        return false;
    }
    if b.len() >= 3 && (&b[..3] == b"---" || &b[..3] == b"...") {
        return false;
    }
    let mut prev = 0u8;
    for &c in b {
        if !(0x20..=0x7e).contains(&c) || (prev == b':' && c == b' ') || (prev == b' ' && c == b'#')
        {
            return false;
        }
        prev = c;
    }
    true
}

fn write_string(s: &str, column: usize, cont: usize, simple_key: bool, out: &mut String) {
    let allow_breaks = !simple_key;
    match style_of(s, simple_key) {
        Style::Plain => {
            if !allow_breaks || column + s.len() <= BEST_WIDTH || !s.contains(' ') {
                out.push_str(s);
            } else {
                write_plain_folded(s, column, cont, out);
            }
        }
        Style::Single => write_single(s, column, cont, allow_breaks, out),
        Style::Double => write_double(s, column, cont, allow_breaks, out),
        Style::Literal => write_literal(s, cont, out),
    }
}

fn newline_indent(out: &mut String, indent: usize) -> usize {
    out.push('\n');
    spaces(out, indent);
    indent
}

fn write_plain_folded(s: &str, mut column: usize, cont: usize, out: &mut String) {
    let chars: Vec<char> = s.chars().collect();
    let mut spaces_ = false;
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let next_space = chars.get(i + 1) == Some(&' ');
            if !spaces_ && column > BEST_WIDTH && !next_space {
                column = newline_indent(out, cont);
            } else {
                out.push(' ');
                column += 1;
            }
            spaces_ = true;
        } else {
            out.push(c);
            column += 1;
            spaces_ = false;
        }
    }
}

fn write_single(s: &str, mut column: usize, cont: usize, allow_breaks: bool, out: &mut String) {
    out.push('\'');
    column += 1;
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    let mut spaces_ = false;
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let next_space = chars.get(i + 1) == Some(&' ');
            if allow_breaks && !spaces_ && column > BEST_WIDTH && i > 0 && i < n - 1 && !next_space
            {
                column = newline_indent(out, cont);
            } else {
                out.push(' ');
                column += 1;
            }
            spaces_ = true;
        } else {
            if c == '\'' {
                out.push('\'');
                column += 1;
            }
            out.push(c);
            column += 1;
            spaces_ = false;
        }
    }
    out.push('\'');
}

fn write_double(s: &str, mut column: usize, cont: usize, allow_breaks: bool, out: &mut String) {
    out.push('"');
    column += 1;
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    let mut spaces_ = false;
    for (i, &c) in chars.iter().enumerate() {
        let needs_escape = !is_printable(c)
            || c == '\u{feff}'
            || c == '\n'
            || c == '\r'
            || c == '\u{85}'
            || c == '\u{2028}'
            || c == '\u{2029}'
            || c == '"'
            || c == '\\';
        if needs_escape {
            let e: String = match c {
                '\0' => "\\0".into(),
                '\u{7}' => "\\a".into(),
                '\u{8}' => "\\b".into(),
                '\t' => "\\t".into(),
                '\n' => "\\n".into(),
                '\u{b}' => "\\v".into(),
                '\u{c}' => "\\f".into(),
                '\r' => "\\r".into(),
                '\u{1b}' => "\\e".into(),
                '"' => "\\\"".into(),
                '\\' => "\\\\".into(),
                '\u{85}' => "\\N".into(),
                '\u{a0}' => "\\_".into(),
                '\u{2028}' => "\\L".into(),
                '\u{2029}' => "\\P".into(),
                c if (c as u32) <= 0xff => format!("\\x{:02X}", c as u32),
                c if (c as u32) <= 0xffff => format!("\\u{:04X}", c as u32),
                c => format!("\\U{:08X}", c as u32),
            };
            column += e.len();
            out.push_str(&e);
            spaces_ = false;
        } else if c == ' ' {
            if allow_breaks && !spaces_ && column > BEST_WIDTH && i != 0 && i != n - 1 {
                column = newline_indent(out, cont);
                if chars.get(i + 1) == Some(&' ') {
                    out.push('\\');
                    column += 1;
                }
            } else {
                out.push(' ');
                column += 1;
            }
            spaces_ = true;
        } else {
            out.push(c);
            column += 1;
            spaces_ = false;
        }
    }
    out.push('"');
}

fn write_literal(s: &str, indent: usize, out: &mut String) {
    out.push('|');
    if s.starts_with(' ') || s.starts_with('\n') {
        out.push('2');
    }
    let b = s.as_bytes();
    if !s.ends_with('\n') {
        out.push('-');
    } else if b.len() == 1 || b[b.len() - 2] == b'\n' {
        out.push('+');
    }
    out.push('\n');
    let mut breaks = true;
    for c in s.chars() {
        if c == '\n' {
            out.push('\n');
            breaks = true;
        } else {
            if breaks {
                spaces(out, indent);
            }
            out.push(c);
            breaks = false;
        }
    }
    // The caller ends the line; a value ending in a break already did.
    if s.ends_with('\n') {
        out.pop();
    }
}

fn is_printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0a
        || (0x20..=0x7e).contains(&u)
        || u == 0x85
        || (0xa0..=0xd7ff).contains(&u)
        || ((0xe000..=0xfffd).contains(&u) && u != 0xfeff)
        || (0x10000..=0x10ffff).contains(&u)
}

fn is_blank_or_end(c: Option<char>) -> bool {
    matches!(
        c,
        None | Some(' ')
            | Some('\t')
            | Some('\r')
            | Some('\n')
            | Some('\u{85}')
            | Some('\u{2028}')
            | Some('\u{2029}')
    )
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

struct Analysis {
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// go-yaml v2's `yaml_emitter_analyze_scalar`, the block-context answers.
fn analyze(s: &str) -> Analysis {
    if s.is_empty() {
        return Analysis {
            block_plain_allowed: false,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    let (mut block_ind, mut flow_ind) = (false, false);
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut prev_space, mut prev_break) = (false, false);
    if (s.starts_with("---") || s.starts_with("...")) && is_blank_or_end(chars.get(3).copied()) {
        block_ind = true;
        flow_ind = true;
    }
    let mut preceded_ws = true;
    let mut followed_ws = is_blank_or_end(chars.get(1).copied());
    for i in 0..n {
        let c = chars[i];
        if i == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(c) {
                flow_ind = true;
                block_ind = true;
            }
            if c == '?' || c == ':' {
                flow_ind = true;
                if followed_ws {
                    block_ind = true;
                }
            }
            if c == '-' && followed_ws {
                flow_ind = true;
                block_ind = true;
            }
        } else {
            if ",?[]{}".contains(c) {
                flow_ind = true;
            }
            if c == ':' {
                flow_ind = true;
                if followed_ws {
                    block_ind = true;
                }
            }
            if c == '#' && preceded_ws {
                flow_ind = true;
                block_ind = true;
            }
        }
        if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i == n - 1 {
                trailing_space = true;
            }
            if prev_break {
                break_space = true;
            }
            prev_space = true;
            prev_break = false;
        } else if is_break(c) {
            line_breaks = true;
            if i == 0 {
                leading_break = true;
            }
            if i == n - 1 {
                trailing_break = true;
            }
            if prev_space {
                space_break = true;
            }
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
        preceded_ws = is_blank_or_end(Some(c));
        followed_ws = is_blank_or_end(chars.get(i + 2).copied());
    }
    let mut block_plain = true;
    let mut single = true;
    let mut block = true;
    if leading_space || leading_break || trailing_space || trailing_break {
        block_plain = false;
    }
    if trailing_space {
        block = false;
    }
    if break_space {
        block_plain = false;
        single = false;
    }
    if space_break || special {
        block_plain = false;
        single = false;
        block = false;
    }
    if line_breaks {
        block_plain = false;
    }
    let _ = flow_ind;
    if block_ind {
        block_plain = false;
    }
    Analysis {
        block_plain_allowed: block_plain,
        single_quoted_allowed: single,
        block_allowed: block,
    }
}

/// go-yaml v2's `resolve("", s)` gives something other than `!!str`.
pub fn resolves_non_string(s: &str) -> bool {
    const WORDS: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no",
        "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null",
        "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF",
    ];
    let Some(first) = s.chars().next() else {
        return true; // null
    };
    let hint = match first {
        '+' | '-' => 'S',
        '0'..='9' => 'D',
        'y' | 'Y' | 'n' | 'N' | 't' | 'T' | 'f' | 'F' | 'o' | 'O' | '~' => 'M',
        '.' => '.',
        _ => return false,
    };
    if WORDS.contains(&s) {
        return true;
    }
    match hint {
        'M' => false,
        '.' => go_parse_float(s),
        _ => {
            if is_timestamp(s) {
                return true;
            }
            let plain: Cow<str> = if s.contains('_') {
                Cow::Owned(s.replace('_', ""))
            } else {
                Cow::Borrowed(s)
            };
            if go_parse_int_base0(&plain) || yaml_style_float(&plain) {
                return true;
            }
            if let Some(rest) = plain
                .strip_prefix("0b")
                .or_else(|| plain.strip_prefix("-0b"))
            {
                return !rest.is_empty() && rest.chars().all(|c| c == '0' || c == '1');
            }
            false
        }
    }
}

/// `strconv.ParseInt(s, 0, 64)` or `ParseUint` succeeds (range ignored past u64: a longer
/// run of digits is a float to `yamlStyleFloat` anyway).
fn go_parse_int_base0(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body.is_empty() {
        return false;
    }
    let (digits, radix) =
        if let Some(r) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (r, 16)
        } else if let Some(r) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
            (r, 8)
        } else if let Some(r) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (r, 2)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return false;
    }
    u64::from_str_radix(digits, radix).is_ok()
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let st = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - st
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// `strconv.ParseFloat` on a value starting with `.` (the only case it is asked).
fn go_parse_float(s: &str) -> bool {
    yaml_style_float(s)
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
pub fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    if i >= b.len() || !b[i].is_ascii_digit() {
        return false;
    }
    i += 1;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < b.len() && b[i] == b':' {
        i += 1;
        // [0-5]?[0-9]
        let st = i;
        while i < b.len() && b[i].is_ascii_digit() && i - st < 2 {
            i += 1;
        }
        match i - st {
            1 => {}
            2 if b[st] <= b'5' => {}
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// go-yaml v2's `parseTimestamp`: `2006-1-2T15:4:5.999999999Z07:00` (or `t`),
/// `2006-1-2 15:4:5.999999999`, `2006-1-2`.
pub fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut i = 5;
    let num = |i: &mut usize, max: usize| -> Option<u32> {
        let st = *i;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - st < max {
            *i += 1;
        }
        if *i == st {
            return None;
        }
        s[st..*i].parse().ok()
    };
    let Some(month) = num(&mut i, 2) else {
        return false;
    };
    if i >= b.len() || b[i] != b'-' {
        return false;
    }
    i += 1;
    let Some(day) = num(&mut i, 2) else {
        return false;
    };
    let year: u32 = s[..4].parse().unwrap_or(0);
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return false;
    }
    if i == b.len() {
        return true;
    }
    let zoned = match b[i] {
        b'T' | b't' => true,
        b' ' => false,
        _ => return false,
    };
    i += 1;
    let hms = |i: &mut usize| -> bool {
        let Some(h) = num(i, 2) else { return false };
        if *i >= b.len() || b[*i] != b':' {
            return false;
        }
        *i += 1;
        let Some(m) = num(i, 2) else { return false };
        if *i >= b.len() || b[*i] != b':' {
            return false;
        }
        *i += 1;
        let Some(sec) = num(i, 2) else { return false };
        h < 24 && m < 60 && sec < 60
    };
    if !hms(&mut i) {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        let st = i + 1;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == st {
            return false;
        }
    }
    if !zoned {
        return i == b.len();
    }
    if i < b.len() && b[i] == b'Z' {
        return i + 1 == b.len();
    }
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        let z = &b[i + 1..];
        return z.len() == 5
            && z[0].is_ascii_digit()
            && z[1].is_ascii_digit()
            && z[2] == b':'
            && z[3].is_ascii_digit()
            && z[4].is_ascii_digit();
    }
    false
}

fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml_of(v: &V) -> String {
        let mut v = v.clone();
        v.sort(true);
        let mut out = String::new();
        if let V::Map(m) = &v {
            write_yaml_map(m, 0, false, &mut out);
        }
        out
    }

    #[test]
    fn quoting_as_go_yaml_v2() {
        for (s, st) in [
            ("y", Style::Double),
            ("true", Style::Double),
            ("123", Style::Double),
            ("0o17", Style::Double),
            ("1e3", Style::Double),
            (".5", Style::Double),
            ("10:30", Style::Double),
            ("2024-01-02", Style::Double),
            ("2026-12-01T10:00:00Z", Style::Double),
            ("", Style::Double),
            ("a: b", Style::Single),
            ("a #b", Style::Single),
            ("- x", Style::Single),
            ("*x", Style::Single),
            ("%x", Style::Single),
            ("{\"a\":1}", Style::Single),
            ("<&>", Style::Plain),
            ("k:{\"type\":\"Ready\"}", Style::Plain),
            ("10%", Style::Plain),
            ("1930m", Style::Plain),
            ("v:\"a\"", Style::Plain),
            ("a\nb\n", Style::Literal),
            ("amd64", Style::Plain),
        ] {
            assert_eq!(style_of(s, false), st, "{s:?}");
        }
    }

    #[test]
    fn the_fast_path_agrees_with_the_analysis() {
        for s in [
            "a",
            "-x",
            "- x",
            "a:b",
            "a: b",
            "a:",
            "a #b",
            "a#b",
            "#a",
            "...",
            "...a",
            "---",
            "--a",
            "k:{\"name\":\"x\"}",
            "f:metadata",
            "0/3 nodes",
            "a  b",
            " a",
            "a ",
            "?a",
            "? a",
            ":a",
            "%x",
            "@x",
            "`x",
            "x,y",
            "[x]",
            "{x}",
            "x]",
            "a\tb",
            "2026-12-01T10:00:00Z",
            "10%",
            "0.5vCPU 1GB",
            "-XX:MaxRAMPercentage=75.0 -XX:+UseG1GC",
            "sk_live_x",
            "1:30",
        ] {
            assert_eq!(style_of(s, false), slow_style_of(s, false), "{s:?}");
            assert_eq!(style_of(s, true), slow_style_of(s, true), "{s:?}");
        }
    }

    #[test]
    fn key_order_is_go_yaml_v2s() {
        let mut keys = vec![
            "k:{\"containerPort\":10250}",
            "k:{\"containerPort\":9090}",
            "Ab",
            "_a",
        ];
        keys.sort_by(|a, b| go_yaml_key_order(a, b));
        assert_eq!(
            keys,
            [
                "_a",
                "Ab",
                "k:{\"containerPort\":9090}",
                "k:{\"containerPort\":10250}"
            ]
        );
    }

    #[test]
    fn long_strings_fold_past_column_80() {
        let v = crate::map! {
            "data" => crate::map!{ "m" => "0/3 nodes are available: 3 Insufficient cpu. \
                preemption: 0/3 nodes are available: 3 No preemption victims found for incoming \
                pod." },
        };
        assert_eq!(
            yaml_of(&v),
            "data:\n  m: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are \
                available:\n    3 No preemption victims found for incoming pod.'\n"
        );
    }

    #[test]
    fn json_is_go_marshal_indent() {
        let mut v = crate::map! {
            "b" => crate::list![1i64, "<&>"],
            "a" => V::empty_map(),
            "c" => V::List(vec![]),
        };
        v.sort(false);
        let mut out = String::new();
        write_json(&v, 0, &mut out);
        assert_eq!(
            out,
            "{\n    \"a\": {},\n    \"b\": [\n        1,\n        \"\\u003c\\u0026\\u003e\"\n    \
                ],\n    \"c\": []\n}"
        );
    }
}

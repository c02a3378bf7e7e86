//! Kubernetes resource quantities, read and rounded as k8s.io/apimachinery's
//! `resource.Quantity` does.
//!
//! ```text
//! <quantity>        ::= <signedNumber><suffix>
//! <signedNumber>    ::= <number> | <sign><number>
//! <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
//! <sign>            ::= "+" | "-"
//! <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
//! <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
//! <decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
//! <decimalExponent> ::= "e" <signedInteger> | "E" <signedInteger>
//! ```
//!
//! Where this module parts from apimachinery, it does so to report a mistake instead of
//! guessing: apimachinery reads `-`, `+` and `.` as zero (its grammar requires a digit, its
//! parser does not), caps amounts above 2^63 - 1 silently, and truncates exponents to 32 bits.
//! Here those are errors ([`QuantityError::MissingNumber`], `None` from [`Quantity::value`],
//! [`QuantityError::ExponentOutOfRange`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::resources::ResourceName;

/// An amount as the API server keeps it.
///
/// The API server rounds every quantity away from zero to a whole number of billionths (so
/// that asking for a sliver of a resource still asks for some), which makes a count of
/// nano-units an exact representation of what Kubernetes stores. `i128` holds about 1.7e29
/// units, far beyond anything a 64-bit consumer can use; larger inputs are rejected.
///
/// Equality and ordering compare amounts, so `1Ki == 1024` and `1000m == 1`, as
/// `Quantity.Cmp` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quantity {
    nanos: i128,
}

const NANOS_PER_MILLI: i128 = 1_000_000;
const NANOS_PER_UNIT: i128 = 1_000_000_000;

impl Quantity {
    /// `ceil(q * 1000)` as `Quantity.MilliValue`, or `None` when it does not fit an `i64`.
    ///
    /// Negative amounts round away from zero (`-0.0015` gives `-2`), as apimachinery's
    /// integer fast path does; the API server rejects negative requests anyway.
    pub fn milli_value(&self) -> Option<i64> {
        self.scaled_away_from_zero(NANOS_PER_MILLI)
    }

    /// `ceil(q)` as `Quantity.Value`, or `None` when it does not fit an `i64`. Negative
    /// amounts round away from zero, as in [`Quantity::milli_value`].
    pub fn value(&self) -> Option<i64> {
        self.scaled_away_from_zero(NANOS_PER_UNIT)
    }

    pub fn is_negative(&self) -> bool {
        self.nanos < 0
    }

    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }

    fn scaled_away_from_zero(&self, per: i128) -> Option<i64> {
        let quotient = self.nanos / per;
        let rounded = match (self.nanos % per).signum() {
            1 => quotient + 1,
            -1 => quotient - 1,
            _ => quotient,
        };
        i64::try_from(rounded).ok()
    }
}

impl FromStr for Quantity {
    type Err = QuantityError;
    fn from_str(s: &str) -> Result<Quantity, QuantityError> {
        parse(s)
    }
}

/// Why a string is not a quantity. Every variant keeps the offending text so that the
/// message can quote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuantityError {
    Empty,
    /// Spaces anywhere, including around the value (`" 1"`, `"1 Gi"`).
    Whitespace {
        input: String,
    },
    /// No digit where the number should be (`"Gi"`, `"-"`, `"."`).
    MissingNumber {
        input: String,
    },
    /// A character that can start neither a suffix nor an exponent (`"1.2.3"`, `"--1"`).
    /// `position` counts characters from 1.
    UnexpectedChar {
        input: String,
        ch: char,
        position: usize,
    },
    /// Letters after the number that are not a suffix (`"1Gib"`, `"1K"`).
    UnknownSuffix {
        input: String,
        suffix: String,
    },
    /// An `e`/`E` exponent that is not a signed whole number (`"1e"`, `"1e3.5"`).
    InvalidExponent {
        input: String,
        exponent: String,
    },
    /// An exponent beyond ±2^31, which apimachinery would silently truncate.
    ExponentOutOfRange {
        input: String,
    },
    /// An amount beyond what [`Quantity`] holds (about 1.7e29).
    OutOfRange {
        input: String,
    },
    /// A valid quantity whose millicores (CPU) or units do not fit an `i64`.
    TooLargeForResource {
        input: String,
        resource: ResourceName,
    },
}

const SUFFIX_HELP: &str = "use Ki, Mi, Gi, Ti, Pi, Ei (powers of 1024), k, M, G, T, P, E \
                           (powers of 1000) or m (thousandths)";
const EXAMPLES: &str = "as in 512Mi, 1.5 or 100m";

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuantityError::Empty => write!(
                f,
                "the quantity is empty; write a number with an optional suffix, {EXAMPLES}"
            ),
            QuantityError::Whitespace { input } => write!(
                f,
                "{} is not a valid quantity: it contains a space; write the number and its \
                 suffix together with no spaces, {EXAMPLES}",
                Quoted(input)
            ),
            QuantityError::MissingNumber { input } => write!(
                f,
                "{} is not a valid quantity: it must start with a number (digits with an \
                 optional sign and decimal point) followed by an optional suffix, {EXAMPLES}",
                Quoted(input)
            ),
            QuantityError::UnexpectedChar {
                input,
                ch,
                position,
            } => write!(
                f,
                "{} is not a valid quantity: unexpected {:?} at character {position}; a \
                 quantity is one number followed by an optional suffix, {EXAMPLES}",
                Quoted(input),
                ch
            ),
            QuantityError::UnknownSuffix { input, suffix } => {
                let case_hint = if KNOWN_SUFFIXES
                    .iter()
                    .any(|(k, _)| k.eq_ignore_ascii_case(suffix))
                {
                    " (suffixes are case-sensitive)"
                } else {
                    ""
                };
                write!(
                    f,
                    "{} is not a valid quantity: the suffix {} is unknown{case_hint}; \
                     {SUFFIX_HELP}, {EXAMPLES}",
                    Quoted(input),
                    Quoted(suffix)
                )
            }
            QuantityError::InvalidExponent { input, exponent } if exponent.is_empty() => write!(
                f,
                "{} is not a valid quantity: 'e' must be followed by a whole-number \
                 exponent, as in 1e3 or 25e-2",
                Quoted(input)
            ),
            QuantityError::InvalidExponent { input, exponent } => write!(
                f,
                "{} is not a valid quantity: the exponent {} after 'e' must be a whole \
                 number, as in 1e3 or 25e-2",
                Quoted(input),
                Quoted(exponent)
            ),
            QuantityError::ExponentOutOfRange { input } => write!(
                f,
                "{} is not a valid quantity: its exponent is far too large; check for extra \
                 digits (exponents look like 1e3 or 25e-2)",
                Quoted(input)
            ),
            QuantityError::OutOfRange { input } => write!(
                f,
                "{} is not a valid quantity: it is far too large (no resource amount comes \
                 near it); check for extra digits or a wrong suffix, {EXAMPLES}",
                Quoted(input)
            ),
            QuantityError::TooLargeForResource { input, resource } => {
                let unit = if resource.is_milli() {
                    "millicores"
                } else if is_bytes(*resource) {
                    "bytes"
                } else {
                    "units"
                };
                write!(
                    f,
                    "{} is too large for {}: it is counted in {unit} and must be less than \
                     2^63 {unit}",
                    Quoted(input),
                    resource.as_str()
                )
            }
        }
    }
}

impl core::error::Error for QuantityError {}

/// Quotes user text in a message, cut short so that a pasted blob does not swamp it.
pub(crate) struct Quoted<'a>(pub(crate) &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX_CHARS: usize = 64;
        match self.0.char_indices().nth(MAX_CHARS) {
            Some((cut, _)) => write!(f, "{:?}", format!("{}...", &self.0[..cut])),
            None => write!(f, "{:?}", self.0),
        }
    }
}

/// Suffix, (power of ten, power of two). Binary suffixes never combine with a power of ten.
const KNOWN_SUFFIXES: [(&str, (i64, u32)); 16] = [
    ("n", (-9, 0)),
    ("u", (-6, 0)),
    ("m", (-3, 0)),
    ("k", (3, 0)),
    ("M", (6, 0)),
    ("G", (9, 0)),
    ("T", (12, 0)),
    ("P", (15, 0)),
    ("E", (18, 0)),
    ("Ki", (0, 10)),
    ("Mi", (0, 20)),
    ("Gi", (0, 30)),
    ("Ti", (0, 40)),
    ("Pi", (0, 50)),
    ("Ei", (0, 60)),
    ("", (0, 0)),
];

/// Reads a quantity such as `100m`, `0.5`, `512Mi`, `6Gi`, `1e3` or `1.5G`.
pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
    if s.is_empty() {
        return Err(QuantityError::Empty);
    }
    if s.chars().any(char::is_whitespace) {
        return Err(QuantityError::Whitespace { input: s.into() });
    }
    let bytes = s.as_bytes();
    let (negative, number_start) = match bytes[0] {
        b'-' => (true, 1),
        b'+' => (false, 1),
        _ => (false, 0),
    };
    let int_end = skip_digits(bytes, number_start);
    let int_digits = &bytes[number_start..int_end];
    let mut frac_digits: &[u8] = &[];
    let mut pos = int_end;
    if bytes.get(pos) == Some(&b'.') {
        let frac_end = skip_digits(bytes, pos + 1);
        frac_digits = &bytes[pos + 1..frac_end];
        pos = frac_end;
    }
    if int_digits.is_empty() && frac_digits.is_empty() {
        return Err(match s[number_start..].chars().next() {
            Some(c) if c != '.' && !c.is_ascii_alphabetic() => unexpected(s, number_start),
            _ => QuantityError::MissingNumber { input: s.into() },
        });
    }
    let (exp10, exp2) = read_suffix(s, pos)?;
    let magnitude = nanos_rounded_up(int_digits, frac_digits, exp10, exp2)
        .ok_or_else(|| QuantityError::OutOfRange { input: s.into() })?;
    Ok(Quantity {
        nanos: if negative { -magnitude } else { magnitude },
    })
}

fn skip_digits(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
        pos += 1;
    }
    pos
}

fn unexpected(s: &str, byte_pos: usize) -> QuantityError {
    QuantityError::UnexpectedChar {
        input: s.into(),
        ch: s[byte_pos..].chars().next().unwrap_or(' '),
        position: s[..byte_pos].chars().count() + 1,
    }
}

/// The suffix starting at byte `pos` as (power of ten, power of two).
fn read_suffix(s: &str, pos: usize) -> Result<(i64, u32), QuantityError> {
    let rest = &s[pos..];
    if let Some((_, scale)) = KNOWN_SUFFIXES.iter().find(|(k, _)| *k == rest) {
        return Ok(*scale);
    }
    if let Some(exponent) = rest.strip_prefix(['e', 'E']) {
        // `1Ex` is a misspelt suffix, `1e`, `1e+` and `1e3.5` are broken exponents.
        let looks_numeric = exponent.is_empty()
            || exponent.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.'));
        if looks_numeric {
            return read_exponent(s, exponent).map(|e| (e, 0));
        }
    }
    match rest
        .char_indices()
        .find(|(_, c)| !c.is_ascii_alphanumeric())
    {
        Some((offset, _)) => Err(unexpected(s, pos + offset)),
        None => Err(QuantityError::UnknownSuffix {
            input: s.into(),
            suffix: rest.into(),
        }),
    }
}

fn read_exponent(s: &str, text: &str) -> Result<i64, QuantityError> {
    let invalid = || QuantityError::InvalidExponent {
        input: s.into(),
        exponent: text.into(),
    };
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let mut magnitude: i64 = 0;
    for b in digits.bytes() {
        magnitude = magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(i64::from(b - b'0')))
            .filter(|m| *m <= i64::from(i32::MAX))
            .ok_or_else(|| QuantityError::ExponentOutOfRange { input: s.into() })?;
    }
    Ok(if negative { -magnitude } else { magnitude })
}

/// `|int.frac| * 10^exp10 * 2^exp2` in billionths, rounded up to a whole billionth as the
/// API server rounds; `None` when it exceeds `i128`.
///
/// The digits are multiplied out exactly in decimal before any rounding, because a binary
/// suffix can lift a sub-nano digit (`0.0000000001Ei`) into whole units.
fn nanos_rounded_up(int: &[u8], frac: &[u8], exp10: i64, exp2: u32) -> Option<i128> {
    // Least significant digit first, so that carries append.
    let mut digits: Vec<u8> = int.iter().chain(frac).rev().map(|b| b - b'0').collect();
    while digits.last() == Some(&0) {
        digits.pop();
    }
    if digits.is_empty() {
        return Some(0);
    }
    for _ in 0..exp2 / 10 {
        multiply(&mut digits, 1024);
    }
    let low_zeros = digits.iter().take_while(|d| **d == 0).count();
    digits.drain(..low_zeros);

    // value = digits * 10^exponent, with digits' top digit non-zero.
    let exponent = i128::from(exp10) - frac.len() as i128 + low_zeros as i128;
    let shift = exponent + 9;
    let len = digits.len() as i128;
    let (kept, dropped_nonzero, zeros_to_add) = if shift >= 0 {
        // u128 holds 39 digits; anything longer cannot fit.
        if len + shift > 39 {
            return None;
        }
        (&digits[..], false, shift as u32)
    } else {
        let dropped = -shift;
        if dropped >= len {
            // Entirely below a billionth and non-zero: the API server makes it 1n.
            return Some(1);
        }
        let dropped = dropped as usize;
        if digits.len() - dropped > 39 {
            return None;
        }
        (
            &digits[dropped..],
            digits[..dropped].iter().any(|d| *d != 0),
            0,
        )
    };
    let mut n: u128 = 0;
    for d in kept.iter().rev() {
        n = n.checked_mul(10)?.checked_add(u128::from(*d))?;
    }
    n = n.checked_mul(10u128.checked_pow(zeros_to_add)?)?;
    if dropped_nonzero {
        n = n.checked_add(1)?;
    }
    i128::try_from(n).ok()
}

fn multiply(digits: &mut Vec<u8>, factor: u32) {
    let mut carry = 0u32;
    for d in digits.iter_mut() {
        let x = u32::from(*d) * factor + carry;
        *d = (x % 10) as u8;
        carry = x / 10;
    }
    while carry > 0 {
        digits.push((carry % 10) as u8);
        carry /= 10;
    }
}

/// Reads a quantity in the engine's unit for `name`: millicores for CPU, whole units
/// (bytes, pods, devices) rounded up for everything else.
///
/// Negative amounts come back negative: rejecting them is the manifest reader's call, as
/// it is the API server's validation and not the parser's in Kubernetes.
pub fn parse_for_resource(name: ResourceName, s: &str) -> Result<i64, QuantityError> {
    let q = parse(s)?;
    let amount = if name.is_milli() {
        q.milli_value()
    } else {
        q.value()
    };
    amount.ok_or_else(|| QuantityError::TooLargeForResource {
        input: s.into(),
        resource: name,
    })
}

fn is_bytes(name: ResourceName) -> bool {
    matches!(name, ResourceName::Memory | ResourceName::EphemeralStorage)
}

/// Prints an amount in the engine's unit for `name` the way kubectl shows it: `2` or
/// `1930m` for CPU, the largest exact binary suffix for bytes (`1418Mi`, `6Gi`), plain
/// integers otherwise. [`parse_for_resource`] reads every output back to the same value.
pub fn format_for_resource(name: ResourceName, value: i64) -> String {
    if name.is_milli() {
        return if value % 1000 == 0 {
            format!("{}", value / 1000)
        } else {
            format!("{value}m")
        };
    }
    if is_bytes(name) && value != 0 {
        const BINARY: [(u32, &str); 6] = [
            (60, "Ei"),
            (50, "Pi"),
            (40, "Ti"),
            (30, "Gi"),
            (20, "Mi"),
            (10, "Ki"),
        ];
        for (shift, suffix) in BINARY {
            let unit = 1i64 << shift;
            if value % unit == 0 {
                return format!("{}{suffix}", value / unit);
            }
        }
    }
    format!("{value}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use proptest::prelude::*;

    const GI: i64 = 1 << 30;

    #[test]
    fn valid_quantities() {
        // (input, milli_value, value)
        let table: &[(&str, Option<i64>, Option<i64>)] = &[
            ("0", Some(0), Some(0)),
            ("100m", Some(100), Some(1)),
            ("0.5", Some(500), Some(1)),
            ("1.5", Some(1500), Some(2)),
            (".5", Some(500), Some(1)),
            ("1.", Some(1000), Some(1)),
            ("+1", Some(1000), Some(1)),
            ("007", Some(7000), Some(7)),
            ("0.1", Some(100), Some(1)),
            ("512Mi", Some((512 << 20) * 1000), Some(512 << 20)),
            ("6Gi", Some(6 * GI * 1000), Some(6_442_450_944)),
            ("1Ki", Some(1_024_000), Some(1024)),
            ("1.5Ki", Some(1_536_000), Some(1536)),
            ("0.1Ki", Some(102_400), Some(103)),
            ("12.5Mi", Some(13_107_200_000), Some(13_107_200)),
            ("3Ti", Some(3 * (1 << 40) * 1000), Some(3 << 40)),
            ("5Pi", Some(5 * (1 << 50) * 1000), Some(5 << 50)),
            ("1Ei", None, Some(1 << 60)),
            ("7Ei", None, Some(7 << 60)),
            ("8Ei", None, None),
            ("1e3", Some(1_000_000), Some(1000)),
            ("1E3", Some(1_000_000), Some(1000)),
            ("1e+3", Some(1_000_000), Some(1000)),
            ("1.5e3", Some(1_500_000), Some(1500)),
            ("1e-3", Some(1), Some(1)),
            ("25e-2", Some(250), Some(1)),
            ("1e0", Some(1000), Some(1)),
            ("2k", Some(2_000_000), Some(2000)),
            ("1M", Some(1_000_000_000), Some(1_000_000)),
            ("1.5G", Some(1_500_000_000_000), Some(1_500_000_000)),
            ("1T", Some(1_000_000_000_000_000), Some(1_000_000_000_000)),
            (
                "1P",
                Some(1_000_000_000_000_000_000),
                Some(1_000_000_000_000_000),
            ),
            ("1E", None, Some(1_000_000_000_000_000_000)),
            ("9E", None, Some(9_000_000_000_000_000_000)),
            ("10E", None, None),
            ("1n", Some(1), Some(1)),
            ("1u", Some(1), Some(1)),
            ("1m", Some(1), Some(1)),
            ("1000m", Some(1000), Some(1)),
            ("1001m", Some(1001), Some(2)),
            ("0.0000000001", Some(1), Some(1)),
            ("1e-1000", Some(1), Some(1)),
            ("0e999999999", Some(0), Some(0)),
            ("0.000", Some(0), Some(0)),
            ("-0", Some(0), Some(0)),
            (
                "1.000000000000000000000000000000000000000000000000001",
                Some(1001),
                Some(2),
            ),
            (
                "100000000000000000000000000000000000000000000000e-40",
                Some(10_000_000_000),
                Some(10_000_000),
            ),
            ("0.0000000000000000000000000000001Ei", Some(1), Some(1)),
            ("9223372036854775807", None, Some(i64::MAX)),
            ("9223372036854775808", None, None),
            (
                "9223372036854775807m",
                Some(i64::MAX),
                Some(9_223_372_036_854_776),
            ),
            ("-1.5", Some(-1500), Some(-2)),
            ("-0.0015", Some(-2), Some(-1)),
            ("-9223372036854775808", None, Some(i64::MIN)),
            ("-9223372036854775809", None, None),
        ];
        for (input, milli, value) in table {
            let q = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(q.milli_value(), *milli, "milli_value of {input}");
            assert_eq!(q.value(), *value, "value of {input}");
        }
    }

    #[test]
    fn sign_and_equality() {
        assert!(parse("-1").unwrap().is_negative());
        assert!(parse("-100m").unwrap().is_negative());
        assert!(!parse("-0").unwrap().is_negative());
        assert!(parse("-0.000").unwrap().is_zero());
        assert!(!parse("1").unwrap().is_negative());
        assert_eq!(parse("1Ki").unwrap(), parse("1024").unwrap());
        assert_eq!(parse("1000m").unwrap(), parse("1").unwrap());
        assert_eq!(parse("1e3").unwrap(), parse("1k").unwrap());
        assert!(parse("1Mi").unwrap() > parse("1M").unwrap());
        assert_eq!("2Gi".parse::<Quantity>(), parse("2Gi"));
    }

    #[test]
    fn invalid_quantities() {
        for input in [
            "",
            " ",
            " 1",
            "1 ",
            "1 Gi",
            "\t1",
            "1.2.3",
            "1Gib",
            "M1",
            "--1",
            "-+1",
            "1K",
            "1x",
            "1e",
            "1e+",
            "1e-",
            "1e3.5",
            "1ee3",
            "1e3e3",
            "-",
            "+",
            ".",
            "-.",
            ".Gi",
            "Gi",
            "1,5",
            "1_000",
            "1e99999999999",
            "1e2147483648",
            "1e40",
            "1Mi1",
            "1Ex",
            "1mi",
            "1gi",
            "١",
            "1µ",
            "0x10",
            "1i",
            "inf",
            "NaN",
            "1.5.",
            "1..5",
            "1Ki2",
            "5%",
            "1/2",
        ] {
            assert!(parse(input).is_err(), "{input:?} should be rejected");
        }
    }

    #[test]
    fn error_kinds() {
        let e = |s: &str| parse(s).unwrap_err();
        assert_eq!(e(""), QuantityError::Empty);
        assert_eq!(
            e("1 Gi"),
            QuantityError::Whitespace {
                input: "1 Gi".into()
            }
        );
        assert_eq!(e("M1"), QuantityError::MissingNumber { input: "M1".into() });
        assert_eq!(e("-"), QuantityError::MissingNumber { input: "-".into() });
        assert_eq!(e("."), QuantityError::MissingNumber { input: ".".into() });
        assert_eq!(
            e("--1"),
            QuantityError::UnexpectedChar {
                input: "--1".into(),
                ch: '-',
                position: 2
            }
        );
        assert_eq!(
            e("1.2.3"),
            QuantityError::UnexpectedChar {
                input: "1.2.3".into(),
                ch: '.',
                position: 4
            }
        );
        assert_eq!(
            e("1µ"),
            QuantityError::UnexpectedChar {
                input: "1µ".into(),
                ch: 'µ',
                position: 2
            }
        );
        assert_eq!(
            e("1Gib"),
            QuantityError::UnknownSuffix {
                input: "1Gib".into(),
                suffix: "Gib".into()
            }
        );
        assert_eq!(
            e("1Ex"),
            QuantityError::UnknownSuffix {
                input: "1Ex".into(),
                suffix: "Ex".into()
            }
        );
        assert_eq!(
            e("1e3.5"),
            QuantityError::InvalidExponent {
                input: "1e3.5".into(),
                exponent: "3.5".into()
            }
        );
        assert_eq!(
            e("1e"),
            QuantityError::InvalidExponent {
                input: "1e".into(),
                exponent: "".into()
            }
        );
        assert_eq!(
            e("1e99999999999"),
            QuantityError::ExponentOutOfRange {
                input: "1e99999999999".into()
            }
        );
        assert_eq!(
            e("1e-99999999999"),
            QuantityError::ExponentOutOfRange {
                input: "1e-99999999999".into()
            }
        );
        assert_eq!(
            e("1e40"),
            QuantityError::OutOfRange {
                input: "1e40".into()
            }
        );
        assert_eq!(
            e("999999999999999999999999999999999999999999"),
            QuantityError::OutOfRange {
                input: "999999999999999999999999999999999999999999".into()
            }
        );
    }

    #[test]
    fn messages_quote_the_input_and_show_valid_forms() {
        assert_eq!(
            parse("12Gib").unwrap_err().to_string(),
            "\"12Gib\" is not a valid quantity: the suffix \"Gib\" is unknown; use Ki, Mi, Gi, \
             Ti, Pi, Ei (powers of 1024), k, M, G, T, P, E (powers of 1000) or m (thousandths), \
             as in 512Mi, 1.5 or 100m"
        );
        assert!(
            parse("1gi")
                .unwrap_err()
                .to_string()
                .contains("case-sensitive")
        );
        assert!(parse("").unwrap_err().to_string().contains("512Mi"));
        for input in [" 1", "Gi", "1.2.3", "1e3.5", "1e99999999999", "1e40"] {
            let message = parse(input).unwrap_err().to_string();
            assert!(message.contains(&format!("{input:?}")), "{message}");
            assert!(
                message.contains("1e3") || message.contains("512Mi"),
                "{message}"
            );
        }
        let long = "x".repeat(10_000);
        assert!(parse(&long).unwrap_err().to_string().len() < 400);
        let err = parse_for_resource(ResourceName::Cpu, "1E").unwrap_err();
        assert_eq!(
            err.to_string(),
            "\"1E\" is too large for cpu: it is counted in millicores and must be less than \
             2^63 millicores"
        );
    }

    #[test]
    fn resource_units() {
        use ResourceName::*;
        assert_eq!(parse_for_resource(Cpu, "1.5"), Ok(1500));
        assert_eq!(parse_for_resource(Cpu, "100m"), Ok(100));
        assert_eq!(parse_for_resource(Cpu, "0.0001"), Ok(1));
        assert_eq!(parse_for_resource(Cpu, "1e3"), Ok(1_000_000));
        assert_eq!(parse_for_resource(Memory, "0.1"), Ok(1));
        assert_eq!(parse_for_resource(Memory, "100m"), Ok(1));
        assert_eq!(parse_for_resource(Memory, "6Gi"), Ok(6_442_450_944));
        assert_eq!(parse_for_resource(Memory, "1.5G"), Ok(1_500_000_000));
        assert_eq!(parse_for_resource(EphemeralStorage, "1Ei"), Ok(1 << 60));
        assert_eq!(parse_for_resource(Pods, "110"), Ok(110));
        assert_eq!(parse_for_resource(NvidiaGpu, "1"), Ok(1));
        assert_eq!(parse_for_resource(Cpu, "-1"), Ok(-1000));
        assert!(matches!(
            parse_for_resource(Cpu, "1Ei"),
            Err(QuantityError::TooLargeForResource { resource: Cpu, .. })
        ));
        assert!(matches!(
            parse_for_resource(Memory, "8Ei"),
            Err(QuantityError::TooLargeForResource {
                resource: Memory,
                ..
            })
        ));
        assert!(matches!(
            parse_for_resource(Memory, "1Gib"),
            Err(QuantityError::UnknownSuffix { .. })
        ));
    }

    #[test]
    fn formatting() {
        use ResourceName::*;
        let cases: &[(ResourceName, i64, &str)] = &[
            (Cpu, 0, "0"),
            (Cpu, 2000, "2"),
            (Cpu, 1930, "1930m"),
            (Cpu, 500, "500m"),
            (Cpu, -500, "-500m"),
            (Cpu, -3000, "-3"),
            (Memory, 0, "0"),
            (Memory, 1418 << 20, "1418Mi"),
            (Memory, 6 * GI, "6Gi"),
            (Memory, 512 << 20, "512Mi"),
            (Memory, 1024, "1Ki"),
            // 1.5Ki: no binary suffix divides it, so it stays in bytes.
            (Memory, 1536, "1536"),
            (Memory, 1000, "1000"),
            (Memory, 1, "1"),
            (Memory, 1 << 60, "1Ei"),
            (Memory, i64::MIN, "-8Ei"),
            (Memory, -2048, "-2Ki"),
            (EphemeralStorage, 20 * GI, "20Gi"),
            (EphemeralStorage, 1_500_000_000, "1500000000"),
            (Pods, 110, "110"),
            (Pods, 1024, "1024"),
            (NvidiaGpu, 4, "4"),
        ];
        for (name, value, expected) in cases {
            assert_eq!(
                format_for_resource(*name, *value),
                *expected,
                "{name:?} {value}"
            );
        }
    }

    #[test]
    fn format_then_parse_round_trips_at_the_edges() {
        for name in ResourceName::ALL {
            for value in [
                0,
                1,
                -1,
                999,
                1000,
                1024,
                i64::MAX,
                i64::MIN,
                i64::MAX - 999,
                1 << 62,
            ] {
                let text = format_for_resource(name, value);
                assert_eq!(
                    parse_for_resource(name, &text),
                    Ok(value),
                    "{name:?} {text}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in any::<String>()) {
            let _ = parse(&s);
        }

        #[test]
        fn parse_never_panics_near_the_grammar(
            s in "[-+]?[0-9]{0,30}[.]?[0-9]{0,30}([eE][-+]?[0-9]{0,12}|[numkMGTPEiK.eE+-]{0,3})"
        ) {
            if let Ok(q) = parse(&s) {
                let _ = (q.milli_value(), q.value());
            }
            for name in ResourceName::ALL {
                let _ = parse_for_resource(name, &s);
            }
        }

        #[test]
        fn format_then_parse_round_trips(
            value in any::<i64>(),
            index in 0..ResourceName::ALL.len()
        ) {
            let name = ResourceName::ALL[index];
            let text = format_for_resource(name, value);
            prop_assert_eq!(parse_for_resource(name, &text), Ok(value));
        }

        #[test]
        fn binary_memory_round_trips(n in -(1i64 << 40)..(1i64 << 40), shift in 0u32..=20) {
            let value = n << shift;
            let text = format_for_resource(ResourceName::Memory, value);
            prop_assert_eq!(parse_for_resource(ResourceName::Memory, &text), Ok(value));
        }

        #[test]
        fn decimal_fractions_round_up(int in 0u32..1_000_000, frac in 0u32..1000) {
            let text = format!("{int}.{frac:03}");
            let exact_millis = i64::from(int) * 1000 + i64::from(frac);
            prop_assert_eq!(parse_for_resource(ResourceName::Cpu, &text), Ok(exact_millis));
            let units = i64::from(int) + i64::from(frac > 0);
            prop_assert_eq!(parse_for_resource(ResourceName::Memory, &text), Ok(units));
        }
    }
}

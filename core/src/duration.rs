//! Go-style durations (`300ms`, `1.5h`, `2h45m`), as Karpenter's manifests and the scenario's
//! Timeline write them, read with the grammar of Go's `time.ParseDuration`.
//!
//! The engine's clock is in whole milliseconds and never runs backwards, so only
//! non-negative durations are accepted and sub-millisecond remainders are dropped. The upper
//! bound is Go's (`time.Duration` is an `int64` of nanoseconds): a manifest Karpenter could
//! not read must not run here either.

use alloc::string::String;
use core::fmt;
use core::fmt::Write;

use crate::model::Millis;
use crate::quantity::Quoted;

const NANOS_PER_MILLI: u128 = 1_000_000;
/// Go's `time.Duration` is an `int64` of nanoseconds.
const MAX_NANOS: u128 = i64::MAX as u128;
/// Fraction digits after this many are ignored, as Go's `leadingFraction` stops once its
/// accumulator is full; they are far below a nanosecond even for hours.
const MAX_FRACTION_DIGITS: usize = 18;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DurationError {
    Empty,
    /// Spaces anywhere, including around the value.
    Whitespace {
        input: String,
    },
    Negative {
        input: String,
    },
    /// `Never` where only a duration is allowed (such as `terminationGracePeriod`).
    Never,
    /// A unit, a dot or another character where a number should start (`h`, `.s`, `1h.m`).
    MissingNumber {
        input: String,
    },
    /// A number with nothing after it (`90`, `1h30`); only a lone `0` may omit the unit.
    MissingUnit {
        input: String,
        number: String,
    },
    UnknownUnit {
        input: String,
        unit: String,
    },
    /// Longer than Go can represent (about 292 years).
    TooLong {
        input: String,
    },
}

const EXAMPLES: &str = "as in 300ms, 1.5h or 2h45m";
const UNITS: &str = "ns, us, ms, s, m or h";

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DurationError::Empty => {
                write!(
                    f,
                    "the duration is empty; write a number and a unit, {EXAMPLES}"
                )
            }
            DurationError::Whitespace { input } => write!(
                f,
                "{} is not a valid duration: it contains a space; write the numbers and \
                 units together with no spaces, {EXAMPLES}",
                Quoted(input)
            ),
            DurationError::Negative { input } => write!(
                f,
                "{} is not a valid duration: durations cannot be negative here; write a \
                 number and a unit, {EXAMPLES}",
                Quoted(input)
            ),
            DurationError::Never => {
                write!(
                    f,
                    "\"Never\" is not allowed here; give a duration, {EXAMPLES}"
                )
            }
            DurationError::MissingNumber { input } => write!(
                f,
                "{} is not a valid duration: every unit needs a number in front of it; use \
                 numbers followed by units ({UNITS}), {EXAMPLES}",
                Quoted(input)
            ),
            DurationError::MissingUnit { input, number } => write!(
                f,
                "{} is not a valid duration: the number {} has no unit; add one of {UNITS}, \
                 {EXAMPLES}",
                Quoted(input),
                Quoted(number)
            ),
            DurationError::UnknownUnit { input, unit } => {
                let hint = if matches!(unit.as_str(), "d" | "day" | "days" | "w" | "wk" | "y") {
                    " (Go durations have no days or weeks: write 24h for a day)"
                } else if unit_nanos(&unit.to_ascii_lowercase()).is_some() {
                    " (units are case-sensitive)"
                } else {
                    ""
                };
                write!(
                    f,
                    "{} is not a valid duration: the unit {} is unknown{hint}; use {UNITS}, \
                     {EXAMPLES}",
                    Quoted(input),
                    Quoted(unit)
                )
            }
            DurationError::TooLong { input } => write!(
                f,
                "{} is not a valid duration: it is longer than 2562047h47m16s (about 292 \
                 years), the longest duration Go and so Karpenter can hold",
                Quoted(input)
            ),
        }
    }
}

impl core::error::Error for DurationError {}

fn unit_nanos(unit: &str) -> Option<u128> {
    Some(match unit {
        "ns" => 1,
        // Go accepts both the micro sign (U+00B5) and the Greek mu (U+03BC).
        "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        _ => return None,
    })
}

/// Reads a non-negative Go duration (`300ms`, `1.5h`, `2h45m`, `90s`, `0`) in milliseconds,
/// rounding sub-millisecond remainders down.
pub fn parse(s: &str) -> Result<Millis, DurationError> {
    if s.is_empty() {
        return Err(DurationError::Empty);
    }
    if s == "Never" {
        return Err(DurationError::Never);
    }
    if s.chars().any(char::is_whitespace) {
        return Err(DurationError::Whitespace { input: s.into() });
    }
    if s.starts_with('-') {
        return Err(DurationError::Negative { input: s.into() });
    }
    let rest = s.strip_prefix('+').unwrap_or(s);
    // Go's one exception to "every number has a unit".
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(DurationError::MissingNumber { input: s.into() });
    }
    let too_long = || DurationError::TooLong { input: s.into() };
    let bytes = rest.as_bytes();
    let mut pos = 0;
    let mut total: u128 = 0;
    while pos < bytes.len() {
        let number_start = pos;
        let mut whole: u128 = 0;
        while let Some(d) = bytes.get(pos).filter(|b| b.is_ascii_digit()) {
            whole = whole
                .checked_mul(10)
                .and_then(|w| w.checked_add(u128::from(d - b'0')))
                .filter(|w| *w <= MAX_NANOS)
                .ok_or_else(too_long)?;
            pos += 1;
        }
        let has_whole = pos > number_start;
        // The fraction scaled to MAX_FRACTION_DIGITS places.
        let mut fraction: u128 = 0;
        let mut has_fraction = false;
        if bytes.get(pos) == Some(&b'.') {
            pos += 1;
            let mut places = 0;
            while let Some(d) = bytes.get(pos).filter(|b| b.is_ascii_digit()) {
                if places < MAX_FRACTION_DIGITS {
                    fraction = fraction * 10 + u128::from(d - b'0');
                    places += 1;
                }
                has_fraction = true;
                pos += 1;
            }
            fraction *= 10u128.pow((MAX_FRACTION_DIGITS - places) as u32);
        }
        if !has_whole && !has_fraction {
            return Err(DurationError::MissingNumber { input: s.into() });
        }
        let number_end = pos;
        while pos < bytes.len() && !(bytes[pos] == b'.' || bytes[pos].is_ascii_digit()) {
            pos += 1;
        }
        // Both ends sit next to ASCII bytes (digits, '.') or the ends of the string, so they
        // are char boundaries even when the unit is `µs`.
        let unit = &rest[number_end..pos];
        if unit.is_empty() {
            return Err(DurationError::MissingUnit {
                input: s.into(),
                number: rest[number_start..number_end].into(),
            });
        }
        let per_unit = unit_nanos(unit).ok_or_else(|| DurationError::UnknownUnit {
            input: s.into(),
            unit: unit.into(),
        })?;
        // Each part floors to a whole nanosecond, as Go's does; no product can overflow
        // u128 (whole <= 2^63, per_unit < 2^42, fraction < 10^18).
        let part = whole * per_unit + fraction * per_unit / 10u128.pow(MAX_FRACTION_DIGITS as u32);
        total = total
            .checked_add(part)
            .filter(|t| *t <= MAX_NANOS)
            .ok_or_else(too_long)?;
    }
    Ok((total / NANOS_PER_MILLI) as Millis)
}

/// Like [`parse`], but `Never` (Karpenter's `expireAfter`, `consolidateAfter`) is `None`.
pub fn parse_or_never(s: &str) -> Result<Option<Millis>, DurationError> {
    if s == "Never" {
        Ok(None)
    } else {
        parse(s).map(Some)
    }
}

/// The report's clock: `0m41s`, `5m0s`, `1h2m3s`, `0m1.5s`. Minutes and seconds are always
/// shown so that columns of times line up; hours only from one hour on. The output is also
/// a valid Go duration that [`parse`] reads back to the same value.
pub fn format(ms: Millis) -> String {
    let seconds = ms / 1000;
    let (hours, minutes, secs) = (seconds / 3600, seconds % 3600 / 60, seconds % 60);
    let mut out = String::new();
    // Writing into a String cannot fail.
    if hours > 0 {
        let _ = write!(out, "{hours}h");
    }
    let _ = write!(out, "{minutes}m{secs}");
    let millis = ms % 1000;
    if millis > 0 {
        let digits = alloc::format!("{millis:03}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    out.push('s');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;
    use proptest::prelude::*;

    const S: Millis = 1000;
    const M: Millis = 60 * S;
    const H: Millis = 60 * M;

    #[test]
    fn valid_durations() {
        let table: &[(&str, Millis)] = &[
            ("0", 0),
            ("+0", 0),
            ("0s", 0),
            ("0h0m0s", 0),
            ("300ms", 300),
            ("1.5h", H + 30 * M),
            ("2h45m", 2 * H + 45 * M),
            ("90s", 90 * S),
            ("+90s", 90 * S),
            ("720h", 720 * H),
            ("1h1h", 2 * H),
            ("1m30s", 90 * S),
            ("30s1m", 90 * S),
            (".5s", 500),
            ("1.s", S),
            ("1.5s", 1500),
            ("0.001s", 1),
            ("0.0009s", 0),
            ("999us", 0),
            ("1000us", 1),
            ("1000µs", 1),
            ("1000\u{3bc}s", 1),
            ("1500000ns", 1),
            ("999999ns", 0),
            ("500us500us", 1),
            ("0.5ms0.5ms", 1),
            ("1.0000000000000000000000000001h", H),
            ("00001s", S),
            ("2562047h", 2_562_047 * H),
            ("2562047h47m16.854s", 9_223_372_036_854),
            ("9223372036854775807ns", 9_223_372_036_854),
        ];
        for (input, expected) in table {
            assert_eq!(parse(input), Ok(*expected), "{input}");
        }
    }

    #[test]
    fn invalid_durations() {
        for input in [
            "",
            " ",
            "1h ",
            " 1h",
            "1 h",
            "-1s",
            "-0",
            "+",
            "-",
            "1",
            "00",
            "90",
            "1h30",
            "h",
            ".s",
            "1h.m",
            ".",
            "1d",
            "1H",
            "1S",
            "1sec",
            "5 min",
            "1e3s",
            "Never",
            "never",
            "1.5.5s",
            "1h-1m",
            "1h+1m",
            "2562048h",
            "9223372036854775808ns",
            "99999999999999999999999999999999999999999999h",
            "1µ",
            "s1",
        ] {
            assert!(parse(input).is_err(), "{input:?} should be rejected");
        }
    }

    #[test]
    fn error_kinds_and_messages() {
        let e = |s: &str| parse(s).unwrap_err();
        assert_eq!(e(""), DurationError::Empty);
        assert_eq!(
            e("1 h"),
            DurationError::Whitespace {
                input: "1 h".into()
            }
        );
        assert_eq!(
            e("-1s"),
            DurationError::Negative {
                input: "-1s".into()
            }
        );
        assert_eq!(e("Never"), DurationError::Never);
        assert_eq!(e("h"), DurationError::MissingNumber { input: "h".into() });
        assert_eq!(
            e("1h.m"),
            DurationError::MissingNumber {
                input: "1h.m".into()
            }
        );
        assert_eq!(
            e("1h30"),
            DurationError::MissingUnit {
                input: "1h30".into(),
                number: "30".into()
            }
        );
        assert_eq!(
            e("1d"),
            DurationError::UnknownUnit {
                input: "1d".into(),
                unit: "d".into()
            }
        );
        assert_eq!(
            e("1e3s"),
            DurationError::UnknownUnit {
                input: "1e3s".into(),
                unit: "e".into()
            }
        );
        assert_eq!(
            e("2562048h"),
            DurationError::TooLong {
                input: "2562048h".into()
            }
        );

        assert_eq!(
            e("1d").to_string(),
            "\"1d\" is not a valid duration: the unit \"d\" is unknown (Go durations have no \
             days or weeks: write 24h for a day); use ns, us, ms, s, m or h, as in 300ms, 1.5h \
             or 2h45m"
        );
        assert!(e("1H").to_string().contains("case-sensitive"));
        assert!(
            e("90")
                .to_string()
                .contains("the number \"90\" has no unit")
        );
        assert!(e("").to_string().contains("2h45m"));
        for input in ["1 h", "-1s", "Never", "h", "90", "1d", "2562048h"] {
            let message = e(input).to_string();
            assert!(message.contains(&format!("{input:?}")), "{message}");
        }
    }

    #[test]
    fn never() {
        assert_eq!(parse_or_never("Never"), Ok(None));
        assert_eq!(parse_or_never("720h"), Ok(Some(720 * H)));
        assert_eq!(parse_or_never("0s"), Ok(Some(0)));
        assert!(parse_or_never("never").is_err());
        assert!(parse_or_never("").is_err());
    }

    #[test]
    fn clock_format() {
        let table: &[(Millis, &str)] = &[
            (0, "0m0s"),
            (41 * S, "0m41s"),
            (5 * M, "5m0s"),
            (H + 2 * M + 3 * S, "1h2m3s"),
            (61 * H, "61h0m0s"),
            (1500, "0m1.5s"),
            (2 * M + 250, "2m0.25s"),
            (1, "0m0.001s"),
            (10, "0m0.01s"),
            (59 * M + 59 * S + 999, "59m59.999s"),
            (H, "1h0m0s"),
        ];
        for (ms, expected) in table {
            assert_eq!(format(*ms), *expected, "{ms}");
        }
        assert_eq!(format(Millis::MAX), "5124095576030h25m51.615s");
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in any::<String>()) {
            let _ = parse(&s);
            let _ = parse_or_never(&s);
        }

        #[test]
        fn parse_never_panics_near_the_grammar(
            s in "[-+]?([0-9]{0,22}[.]?[0-9]{0,22}(ns|us|µs|ms|s|m|h|d|)){1,4}"
        ) {
            let _ = parse(&s);
        }

        #[test]
        fn milliseconds_parse_to_themselves(n in 0u64..=9_223_372_036_854) {
            prop_assert_eq!(parse(&format!("{n}ms")), Ok(n));
        }

        #[test]
        fn units_add_up(h in 0u64..10_000, m in 0u64..1000, s in 0u64..1000, ms in 0u64..1000) {
            prop_assert_eq!(
                parse(&format!("{h}h{m}m{s}s{ms}ms")),
                Ok(h * H + m * M + s * S + ms)
            );
        }

        #[test]
        fn the_clock_format_reads_back(ms in 0u64..=9_223_372_036_854) {
            prop_assert_eq!(parse(&format(ms)), Ok(ms));
        }
    }
}

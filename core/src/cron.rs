//! Disruption budget windows: standard five-field cron schedules (as Karpenter parses them
//! with robfig/cron's `ParseStandard`) evaluated on the simulated clock.
//!
//! The simulated clock is read as UTC Unix time: time 0 is 1970-01-01T00:00:00Z, a
//! Thursday. A budget with `schedule` and `duration` is active when the schedule fired at a
//! minute in `(now − duration, now]` (Karpenter: `schedule.Next(now − duration) <= now`).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::model::Millis;

/// A parsed schedule: one bit per allowed value of each field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    minutes: u64,
    hours: u32,
    days_of_month: u32,
    months: u16,
    days_of_week: u8,
    /// The day-of-month or day-of-week field was `*` (or `?`): then a day must match both
    /// fields; otherwise either (cron's historical rule).
    day_star: bool,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/// Parses `m h dom mon dow` or one of `@yearly`, `@annually`, `@monthly`, `@weekly`,
/// `@daily`, `@midnight`, `@hourly`. The error says what is wrong.
pub fn parse(spec: &str) -> Result<Schedule, String> {
    let spec = spec.trim();
    let expanded = match spec {
        "@yearly" | "@annually" => "0 0 1 1 *",
        "@monthly" => "0 0 1 * *",
        "@weekly" => "0 0 * * 0",
        "@daily" | "@midnight" => "0 0 * * *",
        "@hourly" => "0 * * * *",
        s if s.starts_with('@') => return Err(alloc::format!("unknown schedule macro `{s}`")),
        s => s,
    };
    let fields: Vec<&str> = expanded.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(alloc::format!(
            "a schedule has 5 fields (minute hour day-of-month month day-of-week), found {}",
            fields.len()
        ));
    }
    let (minutes, _) = field(fields[0], 0, 59, &[])?;
    let (hours, _) = field(fields[1], 0, 23, &[])?;
    let (dom, dom_star) = field(fields[2], 1, 31, &[])?;
    let (months, _) = field(fields[3], 1, 12, &MONTHS)?;
    let (mut dow, dow_star) = field(fields[4], 0, 7, &DAYS)?;
    if dow & (1 << 7) != 0 {
        dow = (dow | 1) & !(1 << 7); // 7 is Sunday too
    }
    Ok(Schedule {
        minutes,
        hours: hours as u32,
        days_of_month: dom as u32,
        months: months as u16,
        days_of_week: dow as u8,
        day_star: dom_star || dow_star,
    })
}

/// One field: comma-separated `*`, `?`, `N`, `A-B`, each optionally `/step`. Returns the bit
/// set and whether the field was a bare star.
fn field(expr: &str, min: u32, max: u32, names: &[&str]) -> Result<(u64, bool), String> {
    let mut bits = 0u64;
    let mut star = false;
    for part in expr.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((r, s)) => (
                r,
                Some(
                    s.parse::<u32>()
                        .map_err(|_| alloc::format!("`{s}` is not a step"))?,
                ),
            ),
            None => (part, None),
        };
        if step == Some(0) {
            return Err("a step must be at least 1".to_string());
        }
        let (lo, hi, is_star) = if range == "*" || range == "?" {
            (min, max, true)
        } else if let Some((a, b)) = range.split_once('-') {
            (
                value(a, min, max, names)?,
                value(b, min, max, names)?,
                false,
            )
        } else {
            let v = value(range, min, max, names)?;
            // `N/step` means `N-max/step`.
            (v, if step.is_some() { max } else { v }, false)
        };
        if lo > hi {
            return Err(alloc::format!("the range `{range}` runs backwards"));
        }
        let step = step.unwrap_or(1);
        star |= is_star && step == 1;
        let mut v = lo;
        while v <= hi {
            bits |= 1 << v;
            v += step;
        }
    }
    Ok((bits, star))
}

fn value(s: &str, min: u32, max: u32, names: &[&str]) -> Result<u32, String> {
    let lower = s.to_ascii_lowercase();
    let v = match names.iter().position(|n| *n == lower) {
        Some(i) => i as u32 + if names.len() == 12 { 1 } else { 0 },
        None => s
            .parse::<u32>()
            .map_err(|_| alloc::format!("`{s}` is not a number or a name"))?,
    };
    if v < min || v > max {
        return Err(alloc::format!("{v} is outside {min}-{max}"));
    }
    Ok(v)
}

const MINUTE: Millis = 60_000;

impl Schedule {
    /// Whether the schedule fires at the minute starting at `t` (ms, UTC Unix time).
    pub fn fires_at(&self, t: Millis) -> bool {
        let minutes = t / MINUTE;
        let (minute, hour) = ((minutes % 60) as u32, ((minutes / 60) % 24) as u32);
        let days = minutes / (60 * 24);
        let (_, month, day) = crate::calendar::civil_from_days(days as i64);
        // 1970-01-01 was a Thursday (4).
        let weekday = ((days + 4) % 7) as u32;
        let dom_ok = self.days_of_month & (1 << day) != 0;
        let dow_ok = self.days_of_week & (1 << weekday) != 0;
        let day_ok = if self.day_star {
            dom_ok && dow_ok
        } else {
            dom_ok || dow_ok
        };
        self.minutes & (1 << minute) != 0
            && self.hours & (1 << hour) != 0
            && self.months & (1 << month) != 0
            && day_ok
    }

    /// Whether a window of `duration` opened by this schedule is open at `now`.
    pub fn is_active(&self, duration: Millis, now: Millis) -> bool {
        // Minute boundaries in (now − duration, now], newest first; before time 0 the
        // schedule never fired.
        let earliest = now as i128 - duration as i128;
        let mut t = now / MINUTE * MINUTE;
        while t as i128 > earliest {
            if self.fires_at(t) {
                return true;
            }
            if t < MINUTE {
                return false;
            }
            t -= MINUTE;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::civil_from_days;

    const HOUR: Millis = 3_600_000;
    const DAY: Millis = 24 * HOUR;

    #[test]
    fn the_clock_starts_on_a_thursday_in_january_1970() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(31), (1970, 2, 1));
        assert_eq!(civil_from_days(365), (1971, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        let thursday = parse("0 0 * * thu").unwrap();
        assert!(thursday.fires_at(0));
        assert!(!thursday.fires_at(DAY));
    }

    #[test]
    fn business_hours_window() {
        // Mondays to Fridays from 09:00 for 8 hours. Day 4 (1970-01-05) is a Monday.
        let s = parse("0 9 * * mon-fri").unwrap();
        let monday = 4 * DAY;
        assert!(!s.is_active(8 * HOUR, monday + 8 * HOUR + 59 * 60_000));
        assert!(s.is_active(8 * HOUR, monday + 9 * HOUR));
        assert!(s.is_active(8 * HOUR, monday + 16 * HOUR + 59 * 60_000));
        assert!(
            !s.is_active(8 * HOUR, monday + 17 * HOUR),
            "the window is (now − duration, now]"
        );
        assert!(!s.is_active(8 * HOUR, 2 * DAY + 10 * HOUR), "Saturday");
    }

    #[test]
    fn macros_steps_lists_and_names() {
        assert_eq!(parse("@daily").unwrap(), parse("0 0 * * *").unwrap());
        let every_15 = parse("*/15 * * * *").unwrap();
        assert!(every_15.fires_at(45 * 60_000));
        assert!(!every_15.fires_at(50 * 60_000));
        let list = parse("0 1,13 * JAN,jul *").unwrap();
        assert!(list.fires_at(13 * HOUR));
        assert!(!list.fires_at(40 * DAY + 13 * HOUR), "February");
        let sunday_seven = parse("0 0 * * 7").unwrap();
        assert!(sunday_seven.fires_at(3 * DAY), "1970-01-04 was a Sunday");
    }

    #[test]
    fn day_of_month_or_day_of_week_when_both_are_restricted() {
        // The 1st of the month OR any Monday.
        let s = parse("0 0 1 * mon").unwrap();
        assert!(s.fires_at(0), "Thursday the 1st");
        assert!(s.fires_at(4 * DAY), "Monday the 5th");
        assert!(!s.fires_at(5 * DAY));
        // With a star day-of-week, the day of month alone decides.
        let first = parse("0 0 1 * *").unwrap();
        assert!(!first.fires_at(4 * DAY));
    }

    #[test]
    fn mistakes_are_errors() {
        for bad in [
            "",
            "* * * *",
            "60 * * * *",
            "* 24 * * *",
            "* * 0 * *",
            "* * * 13 *",
            "*/0 * * * *",
            "5-1 * * * *",
            "@reboot",
            "x * * * *",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} should not parse");
        }
    }

    #[test]
    fn a_zero_duration_is_never_open() {
        let s = parse("* * * * *").unwrap();
        assert!(!s.is_active(0, 10 * 60_000));
        assert!(s.is_active(60_000, 10 * 60_000));
    }
}

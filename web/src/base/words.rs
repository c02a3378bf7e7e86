//! The small words the page puts around its numbers, in the learner's language: a count with
//! its noun (English has a singular and a plural; Korean has neither and counts with a counter
//! word, `파드 3개`, `노드 2대`) and a node's age as kubectl would tell it, not as a clock.
//!
//! Pure and tested natively: the views only lay the pieces out.

use std::fmt;

use crate::base::i18n::Lang;
use crate::base::snapshot;

/// Something the page counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Noun {
    Pod,
    Node,
    Character,
}

impl Noun {
    fn en(self, n: usize) -> &'static str {
        match (self, n == 1) {
            (Noun::Pod, true) => "pod",
            (Noun::Pod, false) => "pods",
            (Noun::Node, true) => "node",
            (Noun::Node, false) => "nodes",
            (Noun::Character, true) => "character",
            (Noun::Character, false) => "characters",
        }
    }

    /// The noun written before the number, and the counter after it.
    fn ko(self) -> (&'static str, &'static str) {
        match self {
            Noun::Pod => ("파드 ", "개"),
            Noun::Node => ("노드 ", "대"),
            Noun::Character => ("", "자"),
        }
    }
}

/// A count in words, cut around its number so that a view can set the number apart
/// (`<strong>3</strong> nodes`, `노드 <strong>3</strong>대`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    pub before: String,
    pub number: String,
    pub after: String,
}

impl fmt::Display for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.before, self.number, self.after)
    }
}

/// `1 pod`, `2 pods`, `1,234 characters`; `파드 1개`, `노드 2대`, `1,234자`.
pub fn count(n: usize, noun: Noun, lang: Lang) -> Counted {
    let number = snapshot::count(n);
    match lang {
        Lang::En => Counted {
            before: String::new(),
            number,
            after: format!(" {}", noun.en(n)),
        },
        Lang::Ko => {
            let (word, counter) = noun.ko();
            Counted {
                before: word.to_string(),
                number,
                after: counter.to_string(),
            }
        }
    }
}

/// `3 / 29 pods` (the noun agrees with the whole: `0 / 1 pod`); `파드 3 / 29`.
pub fn count_of(part: usize, whole: usize, noun: Noun, lang: Lang) -> Counted {
    let number = snapshot::count(part);
    let whole_text = snapshot::count(whole);
    match lang {
        Lang::En => Counted {
            before: String::new(),
            number,
            after: format!(" / {whole_text} {}", noun.en(whole)),
        },
        Lang::Ko => Counted {
            before: noun.ko().0.to_string(),
            number,
            after: format!(" / {whole_text}"),
        },
    }
}

/// How long something has existed, as kubectl's AGE column tells it but with spaces: `45s`,
/// `5m 9s`, `2h 5m`, `3d 4h` (the smaller unit left out when it is zero); `45초`, `5분 9초`,
/// `2시간 5분`, `3일 4시간`.
pub fn age(ms: i64, lang: Lang) -> String {
    let s = ms.max(0) / 1000;
    let (d, h, m, sec) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    let (big, small) = if d > 0 {
        ((d, 0), (h, 1))
    } else if h > 0 {
        ((h, 1), (m, 2))
    } else if m > 0 {
        ((m, 2), (sec, 3))
    } else {
        return unit(sec, 3, lang);
    };
    let mut out = unit(big.0, big.1, lang);
    if small.0 > 0 {
        out.push(' ');
        out.push_str(&unit(small.0, small.1, lang));
    }
    out
}

/// An unhealthy node's line: its condition, and when node repair deletes it (the countdown),
/// or that nothing will: `Unhealthy: Ready=False · node repair in 24m 10s`.
pub fn unhealthy(condition: &str, repair_in_ms: Option<i64>, gate_off: bool, lang: Lang) -> String {
    match (repair_in_ms, lang) {
        (None, Lang::En) if !gate_off => format!("Unhealthy: {condition}"),
        (None, Lang::Ko) if !gate_off => format!("비정상: {condition}"),
        (Some(ms), Lang::En) if ms > 0 => {
            format!("Unhealthy: {condition} · node repair in {}", age(ms, lang))
        }
        (Some(_), Lang::En) => format!("Unhealthy: {condition} · node repair is due"),
        (None, Lang::En) => format!("Unhealthy: {condition} · no repair (NodeRepair gate off)"),
        (Some(ms), Lang::Ko) if ms > 0 => {
            format!("비정상: {condition} · {} 후 노드 복구", age(ms, lang))
        }
        (Some(_), Lang::Ko) => format!("비정상: {condition} · 노드 복구 시점이 지났습니다"),
        (None, Lang::Ko) => {
            format!("비정상: {condition} · 복구 안 함(NodeRepair 게이트 꺼짐)")
        }
    }
}

/// `n` days, hours, minutes or seconds (0 to 3).
fn unit(n: i64, which: usize, lang: Lang) -> String {
    let suffix = match lang {
        Lang::En => ["d", "h", "m", "s"][which],
        Lang::Ko => ["일", "시간", "분", "초"][which],
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_counts_agree_with_their_number() {
        assert_eq!(count(1, Noun::Pod, Lang::En).to_string(), "1 pod");
        assert_eq!(count(2, Noun::Pod, Lang::En).to_string(), "2 pods");
        assert_eq!(count(0, Noun::Pod, Lang::En).to_string(), "0 pods");
        assert_eq!(count(1, Noun::Node, Lang::En).to_string(), "1 node");
        assert_eq!(count(3, Noun::Node, Lang::En).to_string(), "3 nodes");
        assert_eq!(
            count(1234, Noun::Character, Lang::En).to_string(),
            "1,234 characters"
        );
        assert_eq!(
            count(1, Noun::Character, Lang::En).to_string(),
            "1 character"
        );
        let c = count(3, Noun::Node, Lang::En);
        assert_eq!((c.before.as_str(), c.number.as_str()), ("", "3"));
    }

    #[test]
    fn korean_counts_with_a_counter_and_no_plural() {
        assert_eq!(count(1, Noun::Pod, Lang::Ko).to_string(), "파드 1개");
        assert_eq!(count(2, Noun::Pod, Lang::Ko).to_string(), "파드 2개");
        assert_eq!(count(2, Noun::Node, Lang::Ko).to_string(), "노드 2대");
        assert_eq!(
            count(1234, Noun::Character, Lang::Ko).to_string(),
            "1,234자"
        );
        let c = count(3, Noun::Node, Lang::Ko);
        assert_eq!(
            (c.before.as_str(), c.number.as_str(), c.after.as_str()),
            ("노드 ", "3", "대")
        );
    }

    #[test]
    fn a_part_of_a_whole_takes_the_whole_s_number() {
        assert_eq!(
            count_of(3, 29, Noun::Pod, Lang::En).to_string(),
            "3 / 29 pods"
        );
        assert_eq!(count_of(0, 1, Noun::Pod, Lang::En).to_string(), "0 / 1 pod");
        assert_eq!(count_of(1, 1, Noun::Pod, Lang::En).to_string(), "1 / 1 pod");
        assert_eq!(
            count_of(1200, 20_000, Noun::Pod, Lang::En).to_string(),
            "1,200 / 20,000 pods"
        );
        assert_eq!(
            count_of(3, 29, Noun::Pod, Lang::Ko).to_string(),
            "파드 3 / 29"
        );
        assert_eq!(count_of(3, 29, Noun::Pod, Lang::Ko).number, "3");
    }

    #[test]
    fn ages_read_as_durations_in_both_languages() {
        let cases = [
            (0, "0s", "0초"),
            (45_900, "45s", "45초"),
            (60_000, "1m", "1분"),
            (309_000, "5m 9s", "5분 9초"),
            (3_540_000, "59m", "59분"),
            (7_500_000, "2h 5m", "2시간 5분"),
            (7_200_000, "2h", "2시간"),
            (273_600_000, "3d 4h", "3일 4시간"),
            (86_400_000 + 59_000, "1d", "1일"),
            (-5_000, "0s", "0초"),
        ];
        for (ms, en, ko) in cases {
            assert_eq!(age(ms, Lang::En), en, "{ms}");
            assert_eq!(age(ms, Lang::Ko), ko, "{ms}");
        }
    }

    #[test]
    fn an_unhealthy_node_counts_down_to_its_repair_or_says_why_not() {
        let at = |ms, gate_off, lang| unhealthy("Ready=False", ms, gate_off, lang);
        assert_eq!(
            at(Some(1_450_000), false, Lang::En),
            "Unhealthy: Ready=False · node repair in 24m 10s"
        );
        assert_eq!(
            at(Some(1_450_000), false, Lang::Ko),
            "비정상: Ready=False · 24분 10초 후 노드 복구"
        );
        assert_eq!(
            at(None, true, Lang::En),
            "Unhealthy: Ready=False · no repair (NodeRepair gate off)"
        );
        assert_eq!(at(None, false, Lang::En), "Unhealthy: Ready=False");
        assert_eq!(
            at(Some(0), false, Lang::En),
            "Unhealthy: Ready=False · node repair is due"
        );
    }
}

//! The product's Korean glossary: for each concept a learner meets in several places (the
//! reader's findings, the explanations, the page and its lessons), the one Korean term every
//! place uses, and the other spellings that must not appear.
//!
//! It sits in this crate because this is the lowest crate that writes Korean: the page and the
//! CLI depend on it, and `kpg-explain` (which otherwise needs only the engine) reaches it
//! through the dev-dependency its tests already have. Nothing at run time reads it; each
//! crate's tests walk the Korean text that crate can show and ask [`violations`] about it.
//!
//! The terms follow AWS's Korean documentation where it has one (가용 영역, 인스턴스 유형), since
//! that is what a Korean learner meets in the console, and the Kubernetes Korean documentation
//! otherwise (파드, 요구 사항).

/// One concept and its Korean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Concept {
    /// The concept in English, to name it in a failure.
    pub english: &'static str,
    /// The one Korean term.
    pub korean: &'static str,
    /// Spellings that say the same thing another way.
    pub forbidden: &'static [Variant],
}

/// A spelling the glossary rules out, matched as a whole word: not preceded by a Hangul
/// syllable (so `존` is not found in `기존` or `의존`), and followed by nothing Korean or by a
/// particle (`존과`, `타입이`, `영역마다`; not `존재`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    pub text: &'static str,
    /// Text that, written just before, makes the match part of a term the glossary keeps
    /// (`가용 ` before `영역`).
    pub unless_after: &'static [&'static str],
}

const fn word(text: &'static str) -> Variant {
    Variant {
        text,
        unless_after: &[],
    }
}

/// Every concept with its term.
pub const GLOSSARY: &[Concept] = &[
    Concept {
        english: "(availability) zone",
        korean: "가용 영역",
        forbidden: &[
            word("존"),
            word("가용영역"),
            Variant {
                text: "영역",
                unless_after: &["가용 "],
            },
        ],
    },
    Concept {
        english: "instance type",
        korean: "인스턴스 유형",
        forbidden: &[
            word("인스턴스 타입"),
            word("인스턴스 종류"),
            word("인스턴스형"),
            word("인스턴스유형"),
            // Said alone, "type" is an instance type here; say it whole.
            word("타입"),
            Variant {
                text: "유형",
                unless_after: &["인스턴스 ", "용량 "],
            },
        ],
    },
    Concept {
        english: "capacity type",
        korean: "용량 유형",
        forbidden: &[word("용량 타입"), word("용량 종류"), word("용량유형")],
    },
    Concept {
        english: "requirements",
        korean: "요구 사항",
        forbidden: &[word("요구 조건"), word("요구사항"), word("요구조건")],
    },
    Concept {
        english: "pod",
        korean: "파드",
        forbidden: &[word("포드")],
    },
    Concept {
        english: "spot",
        korean: "스팟",
        forbidden: &[word("스폿")],
    },
    Concept {
        english: "on-demand",
        korean: "온디맨드",
        forbidden: &[word("온-디맨드"), word("온 디맨드")],
    },
];

/// What may follow a term in the same word: Korean particles and the copula's first syllable.
const PARTICLES: &[&str] = &[
    "이", "가", "은", "는", "을", "를", "의", "에", "와", "과", "도", "만", "로", "으로", "마다",
    "별", "까지", "부터", "보다", "처럼", "인", "입", "나", "뿐", "들", "끼리", "엔", "였", "랑",
];

/// One forbidden spelling found in a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    pub concept: &'static Concept,
    pub variant: &'static str,
    /// Byte offset in the text.
    pub at: usize,
}

impl core::fmt::Display for Violation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "`{}` for {}: the glossary says `{}`",
            self.variant, self.concept.english, self.concept.korean
        )
    }
}

fn hangul(c: char) -> bool {
    ('가'..='힣').contains(&c)
}

/// Every forbidden spelling in `text`, in order.
pub fn violations(text: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    for concept in GLOSSARY {
        for variant in concept.forbidden {
            for (at, _) in text.match_indices(variant.text) {
                let before = &text[..at];
                if before.chars().next_back().is_some_and(hangul) {
                    continue;
                }
                if variant.unless_after.iter().any(|a| before.ends_with(a)) {
                    continue;
                }
                let after = &text[at + variant.text.len()..];
                let rest: String = after.chars().take_while(|c| hangul(*c)).collect();
                if !rest.is_empty() && !PARTICLES.iter().any(|p| rest.starts_with(p)) {
                    continue;
                }
                out.push(Violation {
                    concept,
                    variant: variant.text,
                    at,
                });
            }
        }
    }
    out.sort_by_key(|v| v.at);
    out
}

/// Rust source as the strings in it read: a line ending in `\` continues on the next one
/// without its indentation, as in a string literal. Each logical line comes with the number
/// of the line it starts on.
pub fn source_lines(source: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut continued = false;
    for (i, line) in source.lines().enumerate() {
        let piece = if continued { line.trim_start() } else { line };
        let (piece, continues) = match piece.strip_suffix('\\') {
            Some(p) if !p.ends_with('\\') => (p, true),
            _ => (piece, false),
        };
        match out.last_mut() {
            Some((_, text)) if continued => text.push_str(piece),
            _ => out.push((i + 1, piece.to_string())),
        }
        continued = continues;
    }
    out
}

/// The forbidden spellings in a Rust source file, each as `path:line: the variant ... in
/// "the line"`, for a test to print.
pub fn check_source(path: &str, source: &str) -> Vec<String> {
    source_lines(source)
        .into_iter()
        .flat_map(|(line, text)| {
            violations(&text)
                .into_iter()
                .map(move |v| format!("{path}:{line}: {v} in {:?}", text.trim()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&'static str> {
        violations(text).into_iter().map(|v| v.variant).collect()
    }

    #[test]
    fn zone_is_found_as_a_word_and_not_inside_other_words() {
        for clean in [
            "기존 노드",
            "의존하는",
            "존재하지 않습니다",
            "보존됩니다",
            "존중",
            "가용 영역",
            "가용 영역이 셋",
            "가용 영역마다",
            "zone",
        ] {
            assert_eq!(found(clean), Vec::<&str>::new(), "{clean}");
        }
        assert_eq!(found("모든 존"), ["존"]);
        assert_eq!(found("존 ap-northeast-2a: 가장 쌌음"), ["존"]);
        assert_eq!(found("허용된 존과 용량 유형"), ["존"]);
        assert_eq!(found("허용된 존·용량 유형의 오퍼링"), ["존"]);
        assert_eq!(found("(존)"), ["존"]);
        assert_eq!(found("다른 영역에서"), ["영역"]);
        assert_eq!(found("영역마다 하나"), ["영역"]);
        assert_eq!(found("가용영역"), ["가용영역"]);
        assert_eq!(
            found("가용성 영역"),
            ["영역"],
            "only `가용 ` makes it the term"
        );
    }

    #[test]
    fn instance_type_is_said_whole() {
        for clean in [
            "인스턴스 유형",
            "인스턴스 유형별 노드",
            "인스턴스 유형이",
            "용량 유형",
            "용량 유형별",
            "타입스크립트",
        ] {
            assert_eq!(found(clean), Vec::<&str>::new(), "{clean}");
        }
        // The whole phrase is named, and its `타입` too: both are wrong.
        assert_eq!(found("인스턴스 타입 3개"), ["인스턴스 타입", "타입"]);
        assert_eq!(found("왜 이 인스턴스 타입인가"), ["인스턴스 타입", "타입"]);
        assert_eq!(found("더 싼 타입 2개"), ["타입"]);
        assert_eq!(found("다른 타입이 있으면"), ["타입"]);
        assert_eq!(found("세 유형의 스팟"), ["유형"]);
        assert_eq!(found("인스턴스 종류"), ["인스턴스 종류"]);
        assert_eq!(found("용량 타입별"), ["용량 타입", "타입"]);
    }

    #[test]
    fn violations_name_the_concept_and_the_term_to_use() {
        let v = violations("노드가 많아 인스턴스 타입별로")[0];
        assert_eq!(v.concept.korean, "인스턴스 유형");
        assert_eq!(v.at, "노드가 많아 ".len());
        assert_eq!(
            v.to_string(),
            "`인스턴스 타입` for instance type: the glossary says `인스턴스 유형`"
        );
        assert_eq!(found("요구 조건"), ["요구 조건"]);
        assert_eq!(found("파드 요구 사항"), Vec::<&str>::new());
        assert_eq!(found("포드를"), ["포드"]);
    }

    #[test]
    fn every_term_is_clean_by_its_own_rules() {
        for c in GLOSSARY {
            assert_eq!(violations(c.korean), Vec::new(), "{}", c.korean);
        }
    }

    #[test]
    fn source_lines_join_continued_strings() {
        let src = "let a = \"가용 \\\n         영역\";\nlet b = \"존\";\n";
        assert_eq!(
            source_lines(src),
            [
                (1, "let a = \"가용 영역\";".to_string()),
                (3, "let b = \"존\";".to_string())
            ]
        );
        assert_eq!(check_source("x.rs", src).len(), 1);
        assert!(check_source("x.rs", src)[0].starts_with("x.rs:3: `존` for (availability) zone"));
    }
}

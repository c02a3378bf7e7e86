//! The two languages and the small words every explanation uses: quantities, prices,
//! durations, lists.

use kpg_core::requirements::Requirement;
use kpg_core::resources::{ResourceName, Resources};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Ko,
}

impl Lang {
    /// `en` or `ko` (anything starting `ko` is Korean).
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            s if s.starts_with("ko") => Some(Lang::Ko),
            s if s.starts_with("en") => Some(Lang::En),
            _ => None,
        }
    }
}

/// One sentence in both languages; both must be written (the macro takes both).
macro_rules! say {
    ($lang:expr, $en:literal, $ko:literal $(, $arg:expr)* $(,)?) => {
        match $lang {
            $crate::say::Lang::En => format!($en $(, $arg)*),
            $crate::say::Lang::Ko => format!($ko $(, $arg)*),
        }
    };
}
pub(crate) use say;

/// `cpu=2, memory=6Gi` (pods left out: every pod requests one).
pub fn resources(r: &Resources) -> String {
    let parts: Vec<String> = r
        .iter()
        .filter(|(n, v)| *n != ResourceName::Pods && *v != 0)
        .map(|(n, v)| format!("{}={}", n.as_str(), Resources::format_amount(n, v)))
        .collect();
    if parts.is_empty() {
        String::from("{}")
    } else {
        parts.join(", ")
    }
}

pub fn amount(name: ResourceName, v: i64) -> String {
    Resources::format_amount(name, v)
}

/// `$0.0234/h`.
pub fn dollars(micros: i64) -> String {
    format!("${:.4}/h", micros as f64 / 1_000_000.0)
}

/// A requirement's allowed values as a reader says them: `ap-northeast-2a, ap-northeast-2b`,
/// or the requirement itself for other operators.
pub fn allowed(r: &Requirement) -> String {
    match r.operator() {
        kpg_core::requirements::Operator::In => r.values().join(", "),
        _ => r.to_string(),
    }
}

/// What a count counts, in both languages.
#[derive(Clone, Copy)]
pub enum Noun {
    Pod,
    InstanceType,
    Offering,
    Node,
    FeasibleNode,
}

/// A count with its noun as each language says it: `1 pod`, `3 pods`; `파드 3개` (Korean
/// counts with 개 and no plural).
pub fn count<N: core::fmt::Display + PartialEq + From<u8>>(n: N, noun: Noun, lang: Lang) -> String {
    let (one, many, ko) = match noun {
        Noun::Pod => ("pod", "pods", "파드"),
        Noun::InstanceType => ("instance type", "instance types", "인스턴스 유형"),
        Noun::Offering => ("offering", "offerings", "오퍼링"),
        Noun::Node => ("node", "nodes", "노드"),
        Noun::FeasibleNode => ("feasible node", "feasible nodes", "가능한 노드"),
    };
    match lang {
        Lang::En if n == N::from(1) => format!("1 {one}"),
        Lang::En => format!("{n} {many}"),
        Lang::Ko => format!("{ko} {n}개"),
    }
}

pub fn list(items: &[String], lang: Lang) -> String {
    match (items.len(), lang) {
        (0, _) => String::new(),
        (1, _) => items[0].clone(),
        (_, Lang::En) => format!(
            "{} and {}",
            items[..items.len() - 1].join(", "),
            items[items.len() - 1]
        ),
        (_, Lang::Ko) => items.join(", "),
    }
}

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

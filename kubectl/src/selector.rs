//! kubectl's `-l` label selector syntax (`k8s.io/apimachinery/pkg/labels.Parse`): `k=v`,
//! `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`, joined by commas. Parsed into
//! the engine's selector requirements, so matching is the engine's (`kpg_core::labels`).

use kpg_core::labels::{LabelSelectorRequirement, SelectorOperator};
use kpg_core::model::StringMap;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    pub requirements: Vec<LabelSelectorRequirement>,
}

impl Selector {
    pub fn matches(&self, labels: &StringMap) -> bool {
        self.requirements.iter().all(|r| r.matches(labels))
    }
}

/// Parses a selector; the error is kubectl's message after `error: `.
pub fn parse(text: &str) -> Result<Selector, String> {
    let mut requirements = Vec::new();
    for term in split_terms(text) {
        let term = term.trim();
        if term.is_empty() {
            continue;
        }
        requirements.push(parse_term(term)?);
    }
    Ok(Selector { requirements })
}

/// Splits at commas outside parentheses.
fn split_terms(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

fn requirement(
    key: &str,
    operator: SelectorOperator,
    values: Vec<String>,
) -> Result<LabelSelectorRequirement, String> {
    let key = key.trim();
    if let Err(e) = kpg_core::labels::validate_qualified_name(key) {
        return Err(format!(
            "unable to parse requirement: invalid label key \"{key}\": {e}"
        ));
    }
    for v in &values {
        if let Err(e) = kpg_core::labels::validate_label_value(v) {
            return Err(format!(
                "unable to parse requirement: invalid label value: \"{v}\": at key: \"{key}\": {e}"
            ));
        }
    }
    Ok(LabelSelectorRequirement {
        key: key.to_string(),
        operator,
        values,
    })
}

fn parse_term(term: &str) -> Result<LabelSelectorRequirement, String> {
    if let Some(key) = term.strip_prefix('!') {
        return requirement(key, SelectorOperator::DoesNotExist, Vec::new());
    }
    if let Some((k, v)) = term.split_once("!=") {
        return requirement(k, SelectorOperator::NotIn, vec![v.trim().to_string()]);
    }
    if let Some((k, v)) = term.split_once("==") {
        return requirement(k, SelectorOperator::In, vec![v.trim().to_string()]);
    }
    if let Some((k, v)) = term.split_once('=') {
        return requirement(k, SelectorOperator::In, vec![v.trim().to_string()]);
    }
    for (word, op) in [
        (" notin ", SelectorOperator::NotIn),
        (" in ", SelectorOperator::In),
    ] {
        if let Some((k, rest)) = term.split_once(word) {
            let rest = rest.trim();
            let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
                return Err(format!(
                    "unable to parse requirement: found '{rest}', expected: '('"
                ));
            };
            let values: Vec<String> = inner
                .split(',')
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect();
            return requirement(k, op, values);
        }
    }
    if term.contains(['(', ')', ' ', '<', '>']) {
        return Err(format!(
            "unable to parse requirement: found '{term}', expected: in, notin, =, ==, !=, gt, lt"
        ));
    }
    requirement(term, SelectorOperator::Exists, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> StringMap {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn every_form() {
        let l = labels(&[("app", "web"), ("tier", "front")]);
        let yes = [
            "app=web",
            "app==web",
            "app",
            "!db",
            "app in (web,api)",
            "tier notin (back)",
            "app=web,tier=front",
            "tier!=back",
            "",
        ];
        for s in yes {
            assert!(parse(s).is_ok_and(|sel| sel.matches(&l)), "{s}");
        }
        let no = [
            "app=api",
            "!app",
            "db",
            "app notin (web)",
            "app=web,tier=back",
            "app!=web",
        ];
        for s in no {
            assert!(parse(s).is_ok_and(|sel| !sel.matches(&l)), "{s}");
        }
    }

    #[test]
    fn bad_selectors_are_errors() {
        assert!(parse("app in web").is_err());
        assert!(parse("a b").is_err());
        assert!(parse("-x=1").is_err());
    }
}

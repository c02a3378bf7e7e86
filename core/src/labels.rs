//! Label keys, values, object names and label selectors, validated and matched as
//! k8s.io/apimachinery does (`validation.IsQualifiedName`, `IsValidLabelValue`,
//! `IsDNS1123Subdomain`, `IsDNS1123Label`, `metav1.LabelSelectorAsSelector`).
//!
//! Validation messages are apimachinery's own wording, without the field path and value
//! that the API server puts in front of them: the manifest reader knows those, this module
//! does not. When a value breaks several rules the messages are joined with `"; "`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::StringMap;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector {
    pub match_labels: StringMap,
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelSelectorRequirement {
    pub key: String,
    pub operator: SelectorOperator,
    pub values: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectorOperator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
}

impl SelectorOperator {
    /// The operator as the API spells it; case matters, as it does for the API server.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "In" => Some(SelectorOperator::In),
            "NotIn" => Some(SelectorOperator::NotIn),
            "Exists" => Some(SelectorOperator::Exists),
            "DoesNotExist" => Some(SelectorOperator::DoesNotExist),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SelectorOperator::In => "In",
            SelectorOperator::NotIn => "NotIn",
            SelectorOperator::Exists => "Exists",
            SelectorOperator::DoesNotExist => "DoesNotExist",
        }
    }
}

impl LabelSelector {
    /// Whether a set of labels is selected: every `matchLabels` entry present with that
    /// value, and every expression holding.
    ///
    /// An empty selector (`{}`) selects everything, as `LabelSelectorAsSelector` makes it
    /// `labels.Everything()`. A missing selector is a different thing: Kubernetes turns a nil
    /// selector into `labels.Nothing()`, so callers holding an `Option<LabelSelector>` must
    /// treat `None` as matching nothing and not call this with a default.
    pub fn matches(&self, labels: &StringMap) -> bool {
        self.match_labels
            .iter()
            .all(|(key, value)| labels.get(key) == Some(value))
            && self.match_expressions.iter().all(|r| r.matches(labels))
    }

    /// No `matchLabels` and no `matchExpressions`: the selector that selects everything.
    pub fn is_empty(&self) -> bool {
        self.match_labels.is_empty() && self.match_expressions.is_empty()
    }

    /// The checks of apimachinery's `ValidateLabelSelector`, with messages in the API
    /// server's `path: Invalid value: "x": detail` form, paths relative to the selector.
    /// A selector that fails these is one the API server would not have stored, so
    /// [`LabelSelector::matches`] gives no promise about it.
    pub fn validate(&self) -> Result<(), String> {
        let mut errors = Vec::new();
        for (key, value) in &self.match_labels {
            if let Err(msg) = validate_qualified_name(key) {
                errors.push(format!("matchLabels: Invalid value: {key:?}: {msg}"));
            }
            if let Err(msg) = validate_label_value(value) {
                errors.push(format!("matchLabels: Invalid value: {value:?}: {msg}"));
            }
        }
        for (i, r) in self.match_expressions.iter().enumerate() {
            let path = format!("matchExpressions[{i}]");
            match r.operator {
                SelectorOperator::In | SelectorOperator::NotIn if r.values.is_empty() => {
                    errors.push(format!(
                        "{path}.values: Required value: must be specified when `operator` is \
                         'In' or 'NotIn'"
                    ));
                }
                SelectorOperator::Exists | SelectorOperator::DoesNotExist
                    if !r.values.is_empty() =>
                {
                    errors.push(format!(
                        "{path}.values: Forbidden: may not be specified when `operator` is \
                         'Exists' or 'DoesNotExist'"
                    ));
                }
                _ => {}
            }
            if let Err(msg) = validate_qualified_name(&r.key) {
                errors.push(format!("{path}.key: Invalid value: {:?}: {msg}", r.key));
            }
            for (j, value) in r.values.iter().enumerate() {
                if let Err(msg) = validate_label_value(value) {
                    errors.push(format!(
                        "{path}.values[{j}]: Invalid value: {value:?}: {msg}"
                    ));
                }
            }
        }
        join(errors)
    }
}

impl LabelSelectorRequirement {
    /// `In` needs the key with one of the values; `NotIn` holds when the key is absent or
    /// its value is none of them (so a pod without the label passes, as in Kubernetes).
    /// An `In` with no values matches nothing and a `NotIn` with none matches everything;
    /// the API server rejects both (see [`LabelSelector::validate`]).
    pub fn matches(&self, labels: &StringMap) -> bool {
        let value = labels.get(&self.key);
        let listed = |v: &String| self.values.iter().any(|x| x == v);
        match self.operator {
            SelectorOperator::In => value.is_some_and(listed),
            SelectorOperator::NotIn => !value.is_some_and(listed),
            SelectorOperator::Exists => value.is_some(),
            SelectorOperator::DoesNotExist => value.is_none(),
        }
    }
}

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_ERR: &str = "must consist of alphanumeric characters, '-', '_' or '.', and \
                                  must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX: usize = 63;

const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric \
                               characters, '-', '_' or '.', and must start and end with an \
                               alphanumeric character";
const LABEL_VALUE_MAX: usize = 63;

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case \
                                 alphanumeric characters or '-', and must start and end with an \
                                 alphanumeric character";
const DNS1123_LABEL_MAX: usize = 63;

const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case \
                                     alphanumeric characters, '-' or '.', and must start and end \
                                     with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX: usize = 253;

/// apimachinery's `RegexError`, double spaces before "or" included, so that messages read
/// exactly as `kubectl apply` would print them.
fn regex_error(msg: &str, regex: &str, examples: &[&str]) -> String {
    let mut out = String::from(msg);
    out.push_str(" (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push('\'');
        out.push_str(example);
        out.push_str("', ");
    }
    out.push_str("regex used for validation is '");
    out.push_str(regex);
    out.push_str("')");
    out
}

fn max_len_error(max: usize) -> String {
    format!("must be no more than {max} characters")
}

fn join(errors: Vec<String>) -> Result<(), String> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`
fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
fn is_dns1123_label(s: &str) -> bool {
    let lower_alnum = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            lower_alnum(first)
                && lower_alnum(last)
                && b.iter().all(|c| lower_alnum(c) || *c == b'-')
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`: the length limit of 63
/// applies to a lone label, not to the dot-separated parts of a subdomain.
fn is_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(is_dns1123_label)
}

/// A label or annotation key, a taint key, a topology key: an optional DNS-subdomain prefix
/// and `/`, then a name of at most 63 characters (`IsQualifiedName`).
pub fn validate_qualified_name(key: &str) -> Result<(), String> {
    let mut errors = Vec::new();
    let mut parts = key.split('/');
    let (first, second, third) = (parts.next(), parts.next(), parts.next());
    let name = match (first, second, third) {
        (Some(name), None, _) => name,
        (Some(prefix), Some(name), None) => {
            if prefix.is_empty() {
                errors.push(String::from("prefix part must be non-empty"));
            } else {
                errors.extend(
                    dns1123_subdomain_errors(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            name
        }
        _ => {
            return Err(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. \
                 'example.com/MyName')",
                regex_error(
                    QUALIFIED_NAME_ERR,
                    QUALIFIED_NAME_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            ));
        }
    };
    if name.is_empty() {
        errors.push(String::from("name part must be non-empty"));
    } else if name.len() > QUALIFIED_NAME_MAX {
        errors.push(format!("name part {}", max_len_error(QUALIFIED_NAME_MAX)));
    }
    if !is_qualified_name_part(name) {
        errors.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    join(errors)
}

/// A label value: empty, or at most 63 characters of the name-part alphabet
/// (`IsValidLabelValue`).
pub fn validate_label_value(v: &str) -> Result<(), String> {
    let mut errors = Vec::new();
    if v.len() > LABEL_VALUE_MAX {
        errors.push(max_len_error(LABEL_VALUE_MAX));
    }
    if !v.is_empty() && !is_qualified_name_part(v) {
        errors.push(regex_error(
            LABEL_VALUE_ERR,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    join(errors)
}

/// Most object names (Deployments, NodePools, PDBs): lowercase dot-separated labels, at most
/// 253 characters (`IsDNS1123Subdomain`).
pub fn validate_dns1123_subdomain(name: &str) -> Result<(), String> {
    join(dns1123_subdomain_errors(name))
}

fn dns1123_subdomain_errors(name: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if name.len() > DNS1123_SUBDOMAIN_MAX {
        errors.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    if !is_dns1123_subdomain(name) {
        errors.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errors
}

/// Namespaces and other names that must be a single DNS label: lowercase, no dots, at most
/// 63 characters (`IsDNS1123Label`).
pub fn validate_dns1123_label(name: &str) -> Result<(), String> {
    let mut errors = Vec::new();
    if name.len() > DNS1123_LABEL_MAX {
        errors.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !is_dns1123_label(name) {
        // A valid subdomain that is not a valid label can only be failing on its dots.
        if is_dns1123_subdomain(name) {
            errors.push(String::from("must not contain dots"));
        } else {
            errors.push(regex_error(
                DNS1123_LABEL_ERR,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    join(errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::*;

    fn labels(pairs: &[(&str, &str)]) -> StringMap {
        pairs
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect()
    }

    fn expr(key: &str, operator: SelectorOperator, values: &[&str]) -> LabelSelectorRequirement {
        LabelSelectorRequirement {
            key: key.into(),
            operator,
            values: values.iter().map(|v| String::from(*v)).collect(),
        }
    }

    fn selector(
        match_labels: &[(&str, &str)],
        match_expressions: Vec<LabelSelectorRequirement>,
    ) -> LabelSelector {
        LabelSelector {
            match_labels: labels(match_labels),
            match_expressions,
        }
    }

    #[test]
    fn qualified_names() {
        let long_name = "a".repeat(63);
        let long_prefix = format!(
            "{}.{}.{}.{}",
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(61)
        );
        assert_eq!(long_prefix.len(), 253);
        for key in [
            "app",
            "A",
            "123",
            "a_b.c-d",
            "a..b",
            "MyName",
            "app.kubernetes.io/name",
            "kubernetes.io/hostname",
            "karpenter.sh/nodepool",
            "karpenter.k8s.aws/instance-category",
            "topology.kubernetes.io/zone",
            "x/Y",
            &long_name,
            &format!("{long_prefix}/{long_name}"),
        ] {
            assert_eq!(validate_qualified_name(key), Ok(()), "{key}");
        }
        for key in [
            "",
            "/",
            "a/",
            "/a",
            "a/b/c",
            "-a",
            "a-",
            "_a",
            "a_",
            ".a",
            "a b",
            "a:b",
            "é",
            "Example.com/a",
            "example_com/a",
            "a..b/c",
            "-a.com/b",
            "a.com-/b",
        ] {
            assert!(
                validate_qualified_name(key).is_err(),
                "{key:?} should be rejected"
            );
        }
        assert!(validate_qualified_name(&"a".repeat(64)).is_err());
        assert!(validate_qualified_name(&format!("{long_prefix}a/b")).is_err());
    }

    #[test]
    fn qualified_name_messages() {
        let regex_msg = "name part must consist of alphanumeric characters, '-', '_' or '.', and \
                         must start and end with an alphanumeric character (e.g. 'MyName',  or \
                         'my.name',  or '123-abc', regex used for validation is \
                         '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        assert_eq!(validate_qualified_name("-a"), Err(String::from(regex_msg)));
        assert_eq!(
            validate_qualified_name(&"a".repeat(64)),
            Err(String::from("name part must be no more than 63 characters"))
        );
        assert_eq!(
            validate_qualified_name("example.com/"),
            Err(format!("name part must be non-empty; {regex_msg}"))
        );
        assert_eq!(
            validate_qualified_name("/a"),
            Err(String::from("prefix part must be non-empty"))
        );
        assert_eq!(
            validate_qualified_name("Example.com/a"),
            Err(String::from(
                "prefix part a lowercase RFC 1123 subdomain must consist of lower case \
                 alphanumeric characters, '-' or '.', and must start and end with an \
                 alphanumeric character (e.g. 'example.com', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ))
        );
        let long_prefix = format!("{}/a", "a".repeat(254));
        let err = validate_qualified_name(&long_prefix).unwrap_err();
        assert_eq!(err, "prefix part must be no more than 253 characters");
        assert!(
            validate_qualified_name("a/b/c")
                .unwrap_err()
                .starts_with("a qualified name must consist of alphanumeric characters")
        );
        assert!(validate_qualified_name("a/b/c").unwrap_err().ends_with(
            "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ));
    }

    #[test]
    fn label_values() {
        for v in [
            "",
            "a",
            "A",
            "1",
            "v1.2.3",
            "my_value",
            "MyValue",
            "12345",
            "a-b_c.d",
            &"x".repeat(63),
        ] {
            assert_eq!(validate_label_value(v), Ok(()), "{v}");
        }
        for v in ["-a", "a-", "_a", ".a", "a b", "a/b", "ä", "a:b"] {
            assert!(validate_label_value(v).is_err(), "{v:?} should be rejected");
        }
        assert_eq!(
            validate_label_value(&"x".repeat(64)),
            Err(String::from("must be no more than 63 characters"))
        );
        assert_eq!(
            validate_label_value("-a"),
            Err(String::from(
                "a valid label must be an empty string or consist of alphanumeric characters, \
                 '-', '_' or '.', and must start and end with an alphanumeric character (e.g. \
                 'MyValue',  or 'my_value',  or '12345', regex used for validation is \
                 '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
            ))
        );
        let both = validate_label_value(&format!("-{}", "x".repeat(63))).unwrap_err();
        assert!(
            both.starts_with("must be no more than 63 characters; a valid label"),
            "{both}"
        );
    }

    #[test]
    fn dns1123_labels() {
        for name in ["default", "kube-system", "a", "0", "a1-b2", &"a".repeat(63)] {
            assert_eq!(validate_dns1123_label(name), Ok(()), "{name}");
        }
        for name in ["", "A", "-a", "a-", "a_b", "a b", "ä"] {
            let err = validate_dns1123_label(name).unwrap_err();
            assert!(
                err.starts_with("a lowercase RFC 1123 label must consist of"),
                "{name}: {err}"
            );
            assert!(
                err.contains("(e.g. 'my-name',  or '123-abc', regex used"),
                "{err}"
            );
        }
        assert_eq!(
            validate_dns1123_label("a.b"),
            Err(String::from("must not contain dots"))
        );
        assert_eq!(
            validate_dns1123_label(&"a".repeat(64)),
            Err(String::from("must be no more than 63 characters"))
        );
    }

    #[test]
    fn dns1123_subdomains() {
        let long = format!("{}.{}", "a".repeat(126), "b".repeat(126));
        assert_eq!(long.len(), 253);
        for name in [
            "example.com",
            "a",
            "my-app.v1",
            "default",
            "0.0",
            &"a".repeat(100),
            &long,
        ] {
            assert_eq!(validate_dns1123_subdomain(name), Ok(()), "{name}");
        }
        for name in [
            "", "Example", "a..b", ".a", "a.", "-a.b", "a.b-", "a_b", "a/b", "a b",
        ] {
            assert!(
                validate_dns1123_subdomain(name).is_err(),
                "{name:?} should be rejected"
            );
        }
        assert_eq!(
            validate_dns1123_subdomain(&format!("{long}a")),
            Err(String::from("must be no more than 253 characters"))
        );
    }

    #[test]
    fn operators() {
        for op in [
            SelectorOperator::In,
            SelectorOperator::NotIn,
            SelectorOperator::Exists,
            SelectorOperator::DoesNotExist,
        ] {
            assert_eq!(SelectorOperator::parse(op.as_str()), Some(op));
        }
        assert_eq!(SelectorOperator::parse("in"), None);
        assert_eq!(SelectorOperator::parse("Gt"), None);
        assert_eq!(SelectorOperator::parse(""), None);
    }

    #[test]
    fn each_operator_matches() {
        use SelectorOperator::*;
        let web = labels(&[("app", "web"), ("tier", "frontend")]);
        let db = labels(&[("app", "db")]);
        let none = labels(&[]);

        let is_in = expr("app", In, &["web", "api"]);
        assert!(is_in.matches(&web));
        assert!(!is_in.matches(&db));
        assert!(!is_in.matches(&none));

        let not_in = expr("app", NotIn, &["web", "api"]);
        assert!(!not_in.matches(&web));
        assert!(not_in.matches(&db));
        assert!(not_in.matches(&none), "NotIn holds when the key is absent");

        let exists = expr("tier", Exists, &[]);
        assert!(exists.matches(&web));
        assert!(!exists.matches(&db));

        let absent = expr("tier", DoesNotExist, &[]);
        assert!(!absent.matches(&web));
        assert!(absent.matches(&db));
        assert!(absent.matches(&none));

        assert!(!expr("app", In, &[]).matches(&web));
        assert!(expr("app", NotIn, &[]).matches(&web));
        // An empty value is a value: it is present and must equal "".
        let empty_value = labels(&[("flag", "")]);
        assert!(expr("flag", In, &[""]).matches(&empty_value));
        assert!(expr("flag", Exists, &[]).matches(&empty_value));
        assert!(!expr("flag", In, &[""]).matches(&none));
    }

    #[test]
    fn selectors_combine_with_and() {
        use SelectorOperator::*;
        let web = labels(&[("app", "web"), ("tier", "frontend"), ("env", "prod")]);

        assert!(LabelSelector::default().is_empty());
        assert!(LabelSelector::default().matches(&web));
        assert!(LabelSelector::default().matches(&labels(&[])));

        let by_labels = selector(&[("app", "web"), ("env", "prod")], vec![]);
        assert!(!by_labels.is_empty());
        assert!(by_labels.matches(&web));
        assert!(!by_labels.matches(&labels(&[("app", "web")])));
        assert!(!by_labels.matches(&labels(&[("app", "web"), ("env", "dev")])));

        let mixed = selector(
            &[("app", "web")],
            vec![
                expr("env", In, &["prod", "staging"]),
                expr("canary", DoesNotExist, &[]),
            ],
        );
        assert!(mixed.matches(&web));
        let mut canary = web.clone();
        canary.insert("canary".into(), "true".into());
        assert!(!mixed.matches(&canary));
        assert!(!mixed.matches(&labels(&[("env", "prod")])));

        let only_expressions = selector(&[], vec![expr("tier", Exists, &[])]);
        assert!(!only_expressions.is_empty());
        assert!(only_expressions.matches(&web));
        assert!(!only_expressions.matches(&labels(&[])));
    }

    #[test]
    fn selector_validation() {
        use SelectorOperator::*;
        let good = selector(
            &[("app.kubernetes.io/name", "web"), ("empty", "")],
            vec![expr("zone", In, &["a"]), expr("gpu", DoesNotExist, &[])],
        );
        assert_eq!(good.validate(), Ok(()));
        assert_eq!(LabelSelector::default().validate(), Ok(()));

        let err = selector(&[], vec![expr("zone", In, &[])])
            .validate()
            .unwrap_err();
        assert_eq!(
            err,
            "matchExpressions[0].values: Required value: must be specified when `operator` is \
             'In' or 'NotIn'"
        );
        let err = selector(
            &[],
            vec![expr("a", In, &["x"]), expr("gpu", Exists, &["x"])],
        )
        .validate()
        .unwrap_err();
        assert!(
            err.starts_with("matchExpressions[1].values: Forbidden: may not be specified"),
            "{err}"
        );
        let err = selector(&[("bad key", "v")], vec![])
            .validate()
            .unwrap_err();
        assert!(
            err.starts_with("matchLabels: Invalid value: \"bad key\": name part must consist"),
            "{err}"
        );
        let err = selector(&[], vec![expr("k", NotIn, &["-bad"])])
            .validate()
            .unwrap_err();
        assert!(
            err.starts_with(
                "matchExpressions[0].values[0]: Invalid value: \"-bad\": a valid label"
            ),
            "{err}"
        );
    }

    proptest! {
        #[test]
        fn validators_never_panic(s in any::<String>()) {
            let _ = validate_qualified_name(&s);
            let _ = validate_label_value(&s);
            let _ = validate_dns1123_subdomain(&s);
            let _ = validate_dns1123_label(&s);
        }

        #[test]
        fn negated_operators_are_complements(
            present in proptest::option::of("[abc]"),
            values in proptest::collection::vec("[abc]", 1..3),
        ) {
            let mut map = StringMap::new();
            if let Some(v) = present {
                map.insert("k".into(), v);
            }
            let values: Vec<&str> = values.iter().map(String::as_str).collect();
            prop_assert_ne!(
                expr("k", SelectorOperator::In, &values).matches(&map),
                expr("k", SelectorOperator::NotIn, &values).matches(&map)
            );
            prop_assert_ne!(
                expr("k", SelectorOperator::Exists, &[]).matches(&map),
                expr("k", SelectorOperator::DoesNotExist, &[]).matches(&map)
            );
        }

        #[test]
        fn a_label_value_is_a_valid_name_part_unless_empty(s in "[-A-Za-z0-9_.]{1,70}") {
            let as_value = validate_label_value(&s).is_ok();
            let as_key = validate_qualified_name(&s).is_ok();
            prop_assert_eq!(as_value, as_key);
        }
    }
}

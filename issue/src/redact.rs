//! Redaction: the values a user would not paste publicly, replaced by stable placeholders.
//!
//! The same value becomes the same placeholder everywhere (a subnet id in a selector term and
//! in a Cluster's subnets, a node's name in its labels and in a workload's pod list), so
//! references still hold. Placeholders are numbered in the sorted order of the values they
//! replace and padded to one width, so whatever the engine orders by name sorts the same way
//! after redaction. Three walks over the documents' trees: the values fields name
//! ([`Field`]), then the values found inside any other string ([`Found`]), then the rewrite.

use std::collections::{BTreeMap, BTreeSet};

use kpg_core::manifest::Tree;
use serde::{Deserialize, Serialize};

/// What was replaced, one kind of value each.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Category {
    AccountId,
    Arn,
    /// An AWS resource id with this prefix (`subnet`, `sg`, `ami`, `i`, ...).
    ResourceId(String),
    Ip,
    NodeName,
    ClusterName,
    Role,
    InstanceProfile,
    TagValue,
    SelectorName,
    KmsKey,
    SsmParameter,
    Image,
}

impl Category {
    /// What the block's list calls it.
    pub fn describe(&self) -> String {
        match self {
            Category::AccountId => "AWS account ids".into(),
            Category::Arn => "ARNs (the account and the resource part)".into(),
            Category::ResourceId(p) => format!("`{p}-` ids"),
            Category::Ip => "IP addresses (also as `ip-a-b-c-d` host names)".into(),
            Category::NodeName => "node names".into(),
            Category::ClusterName => "cluster names".into(),
            Category::Role => "IAM role names".into(),
            Category::InstanceProfile => "instance profile names".into(),
            Category::TagValue => "tag values".into(),
            Category::SelectorName => "security group and AMI names in selector terms".into(),
            Category::KmsKey => "KMS keys".into(),
            Category::SsmParameter => "SSM parameter names".into(),
            Category::Image => "container images from a registry".into(),
        }
    }

    /// The `n`th placeholder (1-based) of `count`, for `original`.
    fn placeholder(&self, n: usize, count: usize, original: &str) -> String {
        let width = count.to_string().len();
        match self {
            Category::AccountId => format!("{n:012}"),
            // The account is its own category; the ARN's placeholder is only its resource.
            Category::Arn => format!("redacted-{n:0width$}"),
            Category::ResourceId(prefix) => {
                let hex = original.len().saturating_sub(prefix.len() + 1).max(8);
                format!("{prefix}-{n:0hex$x}")
            }
            Category::Ip => {
                let (block, i) = ((n - 1) / 254, (n - 1) % 254 + 1);
                match block {
                    0 => format!("192.0.2.{i}"),
                    1 => format!("198.51.100.{i}"),
                    2 => format!("203.0.113.{i}"),
                    b => format!("10.{}.{}.{i}", (b / 256) % 256, b % 256),
                }
            }
            Category::NodeName => format!("node-{n:0width$}"),
            Category::ClusterName => format!("cluster-{n:0width$}"),
            Category::Role => format!("redacted-role-{n:0width$}"),
            Category::InstanceProfile => format!("redacted-instance-profile-{n:0width$}"),
            Category::TagValue => format!("redacted-{n:0width$}"),
            Category::SelectorName => format!("redacted-name-{n:0width$}"),
            Category::KmsKey => format!("redacted-kms-key-{n:0width$}"),
            Category::SsmParameter => format!("/redacted/parameter-{n:0width$}"),
            Category::Image => format!("image-{n:0width$}"),
        }
    }
}

/// Prefixes of the AWS resource ids that are replaced.
const RESOURCE_PREFIXES: [&str; 18] = [
    "subnet", "sg", "ami", "vpc", "snap", "vol", "eni", "i", "igw", "nat", "rtb", "lt", "cr",
    "fleet", "eipalloc", "pl", "vpce", "ocr",
];

/// Annotations kept as written: the ones the engine reads. Any other may hold anything (a
/// `last-applied-configuration` holds the whole object, secrets included).
fn kept_annotation(key: &str) -> bool {
    key.starts_with("karpenter.sh/")
        || key.starts_with("karpenter.k8s.aws/")
        || key.starts_with("playground.karpenter.dev/")
        || key.starts_with("eks.amazonaws.com/")
        || key == "controller.kubernetes.io/pod-deletion-cost"
        || key == "cluster-autoscaler.kubernetes.io/safe-to-evict"
        || key == "kubernetes.io/config.mirror"
        || key == kpg_core::volumes::DEFAULT_CLASS_ANNOTATION
        || key == "storageclass.beta.kubernetes.io/is-default-class"
}

/// Container fields dropped: they may hold secrets and scheduling never reads them.
const DROPPED_CONTAINER_FIELDS: [&str; 8] = [
    "env",
    "envFrom",
    "command",
    "args",
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
];

/// Label keys whose value is a cluster's name.
const CLUSTER_NAME_LABELS: [&str; 4] = [
    "alpha.eksctl.io/cluster-name",
    "eks.amazonaws.com/cluster-name",
    "eks:cluster-name",
    "aws:eks:cluster-name",
];

/// How a field's whole value is treated.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Whole(WholeKind),
    /// Replaced by the word `redacted` (user data, a NodeClass's opaque context).
    Opaque,
    /// Read for patterns like any string.
    Text,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum WholeKind {
    Node,
    Cluster,
    Role,
    Profile,
    Tag,
    Selector,
    Kms,
    Ssm,
    Image,
}

impl WholeKind {
    fn category(self) -> Category {
        match self {
            WholeKind::Node => Category::NodeName,
            WholeKind::Cluster => Category::ClusterName,
            WholeKind::Role => Category::Role,
            WholeKind::Profile => Category::InstanceProfile,
            WholeKind::Tag => Category::TagValue,
            WholeKind::Selector => Category::SelectorName,
            WholeKind::Kms => Category::KmsKey,
            WholeKind::Ssm => Category::SsmParameter,
            WholeKind::Image => Category::Image,
        }
    }
}

/// The field rule at `path` (map keys, `[]` for a list item) within an object of `kind`.
fn field(kind: &str, path: &[&str], value: &str) -> Field {
    let leaf = path.last().copied().unwrap_or("");
    let parent = path.len().checked_sub(2).map_or("", |i| path[i]);
    let is_class = matches!(kind, "EC2NodeClass" | "NodeClass");
    match (kind, path) {
        ("Node", ["metadata", "name"]) => return Field::Whole(WholeKind::Node),
        ("Cluster", ["metadata", "name"]) => return Field::Whole(WholeKind::Cluster),
        (_, ["spec", "role"]) if is_class => return Field::Whole(WholeKind::Role),
        (_, ["spec", "instanceProfile"]) if is_class => {
            return Field::Whole(WholeKind::Profile);
        }
        (_, ["spec", "userData" | "context"]) if is_class => return Field::Opaque,
        _ => {}
    }
    if parent == "tags" {
        if leaf == "karpenter.sh/discovery" || CLUSTER_NAME_LABELS.contains(&leaf) {
            return Field::Whole(WholeKind::Cluster);
        }
        // `*` selects any value: it names nothing.
        return if value == "*" {
            Field::Text
        } else {
            Field::Whole(WholeKind::Tag)
        };
    }
    if parent == "labels" && CLUSTER_NAME_LABELS.contains(&leaf) {
        return Field::Whole(WholeKind::Cluster);
    }
    if leaf == "name"
        && path.len() >= 3
        && matches!(
            path[path.len() - 3],
            "securityGroupSelectorTerms" | "amiSelectorTerms"
        )
    {
        return Field::Whole(WholeKind::Selector);
    }
    if leaf == "kmsKeyID" {
        return Field::Whole(WholeKind::Kms);
    }
    if leaf == "ssmParameter" && !value.starts_with("/aws/service/") {
        return Field::Whole(WholeKind::Ssm);
    }
    // An image from a registry names its owner; one of Docker Hub's official images
    // (`busybox`, `nginx:1.27`) names no one.
    if leaf == "image"
        && path.len() >= 3
        && matches!(path[path.len() - 3], "containers" | "initContainers")
        && value.contains('/')
    {
        return Field::Whole(WholeKind::Image);
    }
    Field::Text
}

/// A value found inside a string: its span and what it is.
struct Found {
    start: usize,
    end: usize,
    category: Category,
    /// The key in the category's table (an `ip-a-b-c-d` host name is keyed by its address).
    key: String,
    /// An ARN: its parts around the account and the resource.
    arn: Option<ArnParts>,
}

struct ArnParts {
    head: String,
    account: String,
}

/// Replaces identifying values in documents, the same value by the same placeholder.
#[derive(Default)]
pub struct Redactor {
    /// Category → original → placeholder (empty until [`Redactor::assign`]).
    tables: BTreeMap<Category, BTreeMap<String, String>>,
    /// Values replaced wherever a whole string or a word equals them (node and cluster names).
    words: BTreeMap<String, Category>,
    /// What was dropped (`annotations`, container fields), with counts.
    pub dropped: BTreeMap<&'static str, usize>,
    /// Opaque fields replaced.
    pub opaque: usize,
    /// Numbers written where the reader keeps their text (`version: 1.10`), set as text.
    versions: BTreeMap<String, String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Fields,
    Texts,
    Rewrite,
}

impl Redactor {
    /// Redacts `trees` in place (the documents' trees, in order); `version` is the Karpenter
    /// version the scenario names, written as text where it was a YAML number.
    pub fn redact(trees: &mut [Tree], version: Option<String>) -> Redactor {
        let mut r = Redactor::default();
        if let Some(v) = version {
            r.versions.insert("version".into(), v);
        }
        for pass in [Pass::Fields, Pass::Texts, Pass::Rewrite] {
            if pass == Pass::Texts {
                r.words = r
                    .tables
                    .iter()
                    .filter(|(c, _)| matches!(c, Category::NodeName | Category::ClusterName))
                    .flat_map(|(c, t)| t.keys().map(|k| (k.clone(), c.clone())))
                    .collect();
            }
            if pass == Pass::Rewrite {
                r.assign();
                r.dropped.clear();
                r.opaque = 0;
            }
            for tree in trees.iter_mut() {
                r.walk(tree, "", &mut Vec::new(), pass);
            }
        }
        r
    }

    /// How many distinct values of each category were replaced.
    pub fn counts(&self) -> Vec<(Category, usize)> {
        self.tables
            .iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(c, t)| (c.clone(), t.len()))
            .collect()
    }

    /// The first placeholder of a category (an ARN's resource part alone), for the block's
    /// list.
    pub fn first_placeholder(&self, category: &Category) -> Option<&str> {
        self.tables
            .get(category)?
            .values()
            .next()
            .map(String::as_str)
    }

    /// Every original value replaced (for tests: none may remain).
    pub fn originals(&self) -> impl Iterator<Item = (&Category, &String)> {
        self.tables
            .iter()
            .flat_map(|(c, t)| t.keys().map(move |k| (c, k)))
    }

    /// A free text (a pod's message, an event) as the redacted scenario would say it.
    pub fn text(&self, s: &str) -> String {
        self.rewrite_text(s)
    }

    fn assign(&mut self) {
        for (category, table) in self.tables.iter_mut() {
            let count = table.len();
            for (i, (original, placeholder)) in table.iter_mut().enumerate() {
                *placeholder = category.placeholder(i + 1, count, original);
            }
        }
    }

    fn note(&mut self, category: Category, key: &str) {
        self.tables
            .entry(category)
            .or_default()
            .entry(key.to_string())
            .or_default();
    }

    fn lookup(&self, category: &Category, key: &str) -> Option<&String> {
        self.tables
            .get(category)?
            .get(key)
            .filter(|p| !p.is_empty())
    }

    fn walk(&mut self, tree: &mut Tree, kind: &str, path: &mut Vec<String>, pass: Pass) {
        match tree {
            Tree::Map(entries) => {
                // An object (a document, a List's item, a Timeline step's object) starts
                // its own paths.
                let own_kind = entries
                    .iter()
                    .find(|(k, _)| k == "kind")
                    .and_then(|(_, v)| v.as_str())
                    .filter(|_| entries.iter().any(|(k, _)| k == "apiVersion"))
                    .map(str::to_string);
                let (kind, mut fresh, path) = match &own_kind {
                    Some(k) => (k.as_str(), Vec::new(), None),
                    None => (kind, Vec::new(), Some(path)),
                };
                let path: &mut Vec<String> = match path {
                    Some(p) => p,
                    None => &mut fresh,
                };
                let in_annotations = path.last().is_some_and(|k| k == "annotations");
                let in_container = path.len() >= 2
                    && path[path.len() - 1] == "[]"
                    && matches!(
                        path[path.len() - 2].as_str(),
                        "containers" | "initContainers"
                    );
                let in_tags = path.last().is_some_and(|k| k == "tags");
                if pass == Pass::Rewrite {
                    let before = entries.len();
                    if in_annotations {
                        entries.retain(|(k, _)| kept_annotation(k));
                        *self.dropped.entry("annotations").or_default() += before - entries.len();
                    } else if in_container {
                        let sleep = sleep_of(entries);
                        entries.retain(|(k, _)| !DROPPED_CONTAINER_FIELDS.contains(&k.as_str()));
                        if let Some(secs) = sleep {
                            entries.push((
                                "command".into(),
                                Tree::Seq(vec![Tree::Str("sleep".into()), Tree::Str(secs)]),
                            ));
                        }
                        *self
                            .dropped
                            .entry("container env, commands and probes")
                            .or_default() += before - entries.len();
                    }
                }
                // An annotations map left empty goes: `annotations: {}` says nothing.
                if pass == Pass::Rewrite {
                    let mut gone = 0;
                    entries.retain(|(k, v)| match v {
                        Tree::Map(m)
                            if k == "annotations" && m.iter().all(|(a, _)| !kept_annotation(a)) =>
                        {
                            gone += m.len();
                            false
                        }
                        _ => true,
                    });
                    if gone > 0 {
                        *self.dropped.entry("annotations").or_default() += gone;
                    }
                }
                for (key, value) in entries.iter_mut() {
                    // `kubernetes.io/cluster/NAME: owned` names the cluster in its key.
                    if in_tags && let Some(name) = key.strip_prefix("kubernetes.io/cluster/") {
                        match pass {
                            Pass::Fields => self.note(Category::ClusterName, name),
                            Pass::Texts => {}
                            Pass::Rewrite => {
                                if let Some(p) = self.lookup(&Category::ClusterName, name) {
                                    *key = format!("kubernetes.io/cluster/{p}");
                                }
                            }
                        }
                    }
                    if pass == Pass::Rewrite
                        && kind == "Cluster"
                        && key == "version"
                        && path.len() == 2
                        && path[0] == "spec"
                        && path[1] == "karpenter"
                        && let Some(v) = self.versions.get("version")
                    {
                        *value = Tree::Str(v.clone());
                        continue;
                    }
                    path.push(key.clone());
                    self.walk(value, kind, path, pass);
                    path.pop();
                }
            }
            Tree::Seq(items) => {
                for item in items.iter_mut() {
                    path.push("[]".into());
                    self.walk(item, kind, path, pass);
                    path.pop();
                }
            }
            Tree::Str(s) => {
                let keys: Vec<&str> = path.iter().map(String::as_str).collect();
                match (field(kind, &keys, s), pass) {
                    (Field::Whole(w), Pass::Fields) => {
                        let s = s.clone();
                        self.note(w.category(), &s);
                    }
                    (Field::Whole(w), Pass::Rewrite) => {
                        if let Some(p) = self.lookup(&w.category(), s) {
                            *s = p.clone();
                        }
                    }
                    (Field::Opaque, Pass::Rewrite) => {
                        *s = String::from("redacted");
                        self.opaque += 1;
                    }
                    (Field::Text, Pass::Texts) => {
                        for f in self.find(s) {
                            self.note(f.category.clone(), &f.key);
                            if let Some(arn) = &f.arn
                                && !arn.account.is_empty()
                            {
                                self.note(Category::AccountId, &arn.account);
                            }
                        }
                    }
                    (Field::Text, Pass::Rewrite) => *s = self.rewrite_text(s),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// The values inside a string, in order, not overlapping.
    fn find(&self, s: &str) -> Vec<Found> {
        let mut out = Vec::new();
        // A whole string, or a word of it, that is a node's or a cluster's name.
        if let Some(c) = self.words.get(s) {
            out.push(Found {
                start: 0,
                end: s.len(),
                category: c.clone(),
                key: s.to_string(),
                arn: None,
            });
            return out;
        }
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let at_boundary = i == 0 || !b[i - 1].is_ascii_alphanumeric();
            if at_boundary && let Some(f) = self.found_at(s, i) {
                i = f.end;
                out.push(f);
                continue;
            }
            i += 1;
            while i < b.len() && !s.is_char_boundary(i) {
                i += 1;
            }
        }
        out
    }

    /// A value starting at byte `i` (at a word boundary).
    fn found_at(&self, s: &str, i: usize) -> Option<Found> {
        let rest = &s[i..];
        let b = rest.as_bytes();
        let word_end = |from: usize| {
            from + rest[from..]
                .find(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == ',')
                .unwrap_or(rest.len() - from)
        };
        // A node's or a cluster's name as a word (a pod list's `NAME NODE` line).
        let word = &rest[..word_end(0)];
        if let Some(c) = self.words.get(word) {
            return Some(Found {
                start: i,
                end: i + word.len(),
                category: c.clone(),
                key: word.to_string(),
                arn: None,
            });
        }
        if rest.starts_with("arn:") {
            let end = word_end(0);
            let arn = &rest[..end];
            let parts: Vec<&str> = arn.splitn(6, ':').collect();
            if parts.len() == 6 {
                return Some(Found {
                    start: i,
                    end: i + end,
                    category: Category::Arn,
                    key: parts[5].to_string(),
                    arn: Some(ArnParts {
                        head: parts[..4].join(":"),
                        account: parts[4].to_string(),
                    }),
                });
            }
        }
        for prefix in RESOURCE_PREFIXES {
            let Some(after) = rest.strip_prefix(prefix).and_then(|r| r.strip_prefix('-')) else {
                continue;
            };
            let hex = after
                .bytes()
                .take_while(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
                .count();
            let next = after.as_bytes().get(hex);
            if (hex == 8 || hex == 17) && next.is_none_or(|c| !c.is_ascii_alphanumeric()) {
                let end = prefix.len() + 1 + hex;
                return Some(Found {
                    start: i,
                    end: i + end,
                    category: Category::ResourceId(prefix.to_string()),
                    key: rest[..end].to_string(),
                    arn: None,
                });
            }
        }
        // `ip-10-0-1-23` (an EC2 host name) and `10.0.1.23`.
        let (host, body) = match rest.strip_prefix("ip-") {
            Some(body) => (true, body),
            None => (false, rest),
        };
        let sep = if host { b'-' } else { b'.' };
        if let Some((octets, len)) = ipv4(body.as_bytes(), sep) {
            let offset = if host { 3 } else { 0 };
            return Some(Found {
                start: i,
                end: i + offset + len,
                category: Category::Ip,
                key: octets,
                arn: None,
            });
        }
        // Twelve digits, not part of a longer number, in a string that is not just a
        // number (a quantity): an AWS account id (an ECR registry, a role ARN's account).
        let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 12 && b.get(12).is_none_or(|c| !c.is_ascii_alphanumeric()) && s.len() > 12 {
            return Some(Found {
                start: i,
                end: i + 12,
                category: Category::AccountId,
                key: rest[..12].to_string(),
                arn: None,
            });
        }
        None
    }

    fn rewrite_text(&self, s: &str) -> String {
        let found = self.find(s);
        if found.is_empty() {
            return s.to_string();
        }
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        for f in found {
            out.push_str(&s[last..f.start]);
            let original = &s[f.start..f.end];
            let replaced = match (&f.category, &f.arn) {
                (Category::Arn, Some(arn)) => {
                    let account = self
                        .lookup(&Category::AccountId, &arn.account)
                        .cloned()
                        .unwrap_or_else(|| arn.account.clone());
                    let resource = self.lookup(&Category::Arn, &f.key);
                    resource.map(|r| format!("{}:{account}:{r}", arn.head))
                }
                (Category::Ip, _) => self.lookup(&Category::Ip, &f.key).map(|p| {
                    if original.starts_with("ip-") {
                        format!("ip-{}", p.replace('.', "-"))
                    } else {
                        p.clone()
                    }
                }),
                (c, _) => self.lookup(c, &f.key).cloned(),
            };
            out.push_str(replaced.as_deref().unwrap_or(original));
            last = f.end;
        }
        out.push_str(&s[last..]);
        out
    }
}

/// The `sleep N` in a container's command or arguments, which the engine reads as a Job
/// pod's run time (`kpg_core::pod::job_runtime`): the one part of a command kept.
fn sleep_of(container: &[(String, Tree)]) -> Option<String> {
    let mut words: Vec<&str> = Vec::new();
    for (key, value) in container {
        if key != "command" && key != "args" {
            continue;
        }
        let Tree::Seq(items) = value else { continue };
        for item in items.iter().filter_map(Tree::as_str) {
            words.extend(
                item.split(|c: char| c.is_whitespace() || c == ';' || c == '&' || c == '|')
                    .filter(|w| !w.is_empty()),
            );
        }
    }
    words
        .windows(2)
        .find(|pair| pair[0] == "sleep" && pair[1].trim_end_matches('s').parse::<u64>().is_ok())
        .map(|pair| pair[1].to_string())
}

/// Four octets (each 0 to 255, no longer number after) joined by `sep`: the address as
/// `a.b.c.d` and the bytes read.
fn ipv4(b: &[u8], sep: u8) -> Option<(String, usize)> {
    let mut i = 0;
    let mut octets = Vec::with_capacity(4);
    for n in 0..4 {
        if n > 0 {
            if b.get(i) != Some(&sep) {
                return None;
            }
            i += 1;
        }
        let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !(1..=3).contains(&digits) {
            return None;
        }
        let v: u32 = std::str::from_utf8(&b[i..i + digits]).ok()?.parse().ok()?;
        if v > 255 {
            return None;
        }
        octets.push(v.to_string());
        i += digits;
    }
    if b.get(i).is_some_and(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    Some((octets.join("."), i))
}

/// The values in `trees` that [`Redactor::redact`] would replace, as they are (a test's
/// check that none is left: `originals` of one run against the text of another).
pub fn leftovers<'a>(r: &'a Redactor, text: &str) -> Vec<&'a str> {
    let mut seen = BTreeSet::new();
    for (_, original) in r.originals() {
        if original.len() >= 4 && text.contains(original.as_str()) {
            seen.insert(original.as_str());
        }
    }
    seen.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Tree {
        Tree::Str(v.into())
    }

    fn map(entries: Vec<(&str, Tree)>) -> Tree {
        Tree::Map(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    }

    #[test]
    fn the_same_value_gets_the_same_placeholder_in_order() {
        let mut trees = vec![map(vec![
            ("apiVersion", s("karpenter.k8s.aws/v1")),
            ("kind", s("EC2NodeClass")),
            (
                "spec",
                map(vec![
                    ("role", s("KarpenterNodeRole-prod")),
                    (
                        "subnetSelectorTerms",
                        Tree::Seq(vec![
                            map(vec![("id", s("subnet-0bbbbbbbbbbbbbbbb"))]),
                            map(vec![("id", s("subnet-0aaaaaaaaaaaaaaaa"))]),
                        ]),
                    ),
                    (
                        "tags",
                        map(vec![(
                            "note",
                            s("arn:aws:iam::123456789012:role/admin subnet-0aaaaaaaaaaaaaaaa"),
                        )]),
                    ),
                    ("userData", s("#!/bin/bash\necho secret")),
                ]),
            ),
        ])];
        let r = Redactor::redact(&mut trees, None);
        let spec = trees[0].get("spec").unwrap();
        assert_eq!(
            spec.at(&["role"]).and_then(Tree::as_str),
            Some("redacted-role-1")
        );
        let Some(Tree::Seq(terms)) = spec.get("subnetSelectorTerms") else {
            panic!()
        };
        // Sorted order kept: b after a.
        assert_eq!(
            terms[0].get("id").and_then(Tree::as_str),
            Some("subnet-00000000000000002")
        );
        assert_eq!(
            terms[1].get("id").and_then(Tree::as_str),
            Some("subnet-00000000000000001")
        );
        // A tag value is replaced whole.
        assert_eq!(
            spec.at(&["tags", "note"]).and_then(Tree::as_str),
            Some("redacted-1")
        );
        assert_eq!(
            spec.at(&["userData"]).and_then(Tree::as_str),
            Some("redacted")
        );
        assert_eq!(
            r.text("see arn:aws:iam::123456789012:role/admin and 10.0.1.23 on ip-10-0-1-23"),
            "see arn:aws:iam::123456789012:role/admin and 10.0.1.23 on ip-10-0-1-23",
            "only values found in the documents are replaced"
        );
    }

    #[test]
    fn patterns_inside_strings() {
        let mut trees = vec![map(vec![
            ("apiVersion", s("v1")),
            ("kind", s("ConfigMap")),
            (
                "data",
                map(vec![
                    ("a", s("arn:aws:iam::123456789012:role/admin")),
                    ("b", s("10.0.1.23 ip-10-0-1-23.ec2.internal")),
                    ("c", s("123456789012.dkr.ecr.us-east-1.amazonaws.com/app")),
                    ("d", s("137438953472")),
                    ("e", s("api-deadbeef sg-0123abcd")),
                ]),
            ),
        ])];
        let _ = Redactor::redact(&mut trees, None);
        let data = trees[0].get("data").unwrap();
        let get = |k: &str| data.get(k).and_then(Tree::as_str).unwrap().to_string();
        assert_eq!(get("a"), "arn:aws:iam::000000000001:redacted-1");
        assert_eq!(get("b"), "192.0.2.1 ip-192-0-2-1.ec2.internal");
        assert_eq!(get("c"), "000000000001.dkr.ecr.us-east-1.amazonaws.com/app");
        assert_eq!(
            get("d"),
            "137438953472",
            "a plain number is a quantity, not an account"
        );
        assert_eq!(get("e"), "api-deadbeef sg-00000001");
    }
}

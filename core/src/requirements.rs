//! Node requirements as set algebra, the shape of Karpenter's `pkg/scheduling`.
//!
//! A [`Requirement`] is a set of allowed values for one label key, stored as a value list
//! that is either the set itself or its complement, plus optional integer bounds. `In` is a
//! set, `NotIn` and `Exists` are complements, `DoesNotExist` is the empty set and `Gt`/`Lt`/
//! `Gte`/`Lte` are a complement with bounds. [`Requirements`] is one requirement per key;
//! adding a requirement for a key already present intersects the two.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use crate::rng::Rng;
use crate::wellknown;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Gt,
    Lt,
    Gte,
    Lte,
}

impl Operator {
    pub fn as_str(self) -> &'static str {
        match self {
            Operator::In => "In",
            Operator::NotIn => "NotIn",
            Operator::Exists => "Exists",
            Operator::DoesNotExist => "DoesNotExist",
            Operator::Gt => "Gt",
            Operator::Lt => "Lt",
            Operator::Gte => "Gte",
            Operator::Lte => "Lte",
        }
    }

    pub fn parse(s: &str) -> Option<Operator> {
        Some(match s {
            "In" => Operator::In,
            "NotIn" => Operator::NotIn,
            "Exists" => Operator::Exists,
            "DoesNotExist" => Operator::DoesNotExist,
            "Gt" => Operator::Gt,
            "Lt" => Operator::Lt,
            "Gte" => Operator::Gte,
            "Lte" => Operator::Lte,
            _ => return None,
        })
    }

    /// NotIn and DoesNotExist: requirements that only exclude.
    pub fn is_negative(self) -> bool {
        matches!(self, Operator::NotIn | Operator::DoesNotExist)
    }
}

/// The allowed values of one label key. (Ordered only so that equal requirements can be
/// grouped: the order means nothing.)
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Requirement {
    pub key: String,
    /// When true, `values` are the excluded values and everything else is allowed.
    complement: bool,
    /// Sorted and deduplicated.
    values: Vec<String>,
    /// Inclusive integer bounds; only meaningful on complements (concrete sets are filtered).
    gte: Option<i64>,
    lte: Option<i64>,
    pub min_values: Option<u32>,
}

fn sorted(mut values: Vec<String>) -> Vec<String> {
    values.sort_unstable();
    values.dedup();
    values
}

impl Requirement {
    /// A requirement from a node selector operator. The key is normalised (deprecated
    /// aliases such as `failure-domain.beta.kubernetes.io/zone` become their current name).
    /// `Gt`/`Lt`/`Gte`/`Lte` with a non-integer value yield an empty set (nothing matches),
    /// which the API server would have rejected in the first place.
    pub fn new<I, S>(key: &str, operator: Operator, values: I) -> Requirement
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let key = wellknown::normalize_key(key).to_string();
        let values: Vec<String> = values.into_iter().map(Into::into).collect();
        let bound = || values.first().and_then(|v| v.trim().parse::<i64>().ok());
        let empty = Requirement {
            key: key.clone(),
            complement: false,
            values: Vec::new(),
            gte: None,
            lte: None,
            min_values: None,
        };
        match operator {
            Operator::In => Requirement {
                values: sorted(values),
                ..empty
            },
            Operator::NotIn => Requirement {
                complement: true,
                values: sorted(values),
                ..empty
            },
            Operator::Exists => Requirement {
                complement: true,
                ..empty
            },
            Operator::DoesNotExist => empty,
            Operator::Gt => match bound() {
                Some(n) => Requirement {
                    complement: true,
                    gte: n.checked_add(1),
                    ..empty
                },
                None => empty,
            },
            Operator::Gte => match bound() {
                Some(n) => Requirement {
                    complement: true,
                    gte: Some(n),
                    ..empty
                },
                None => empty,
            },
            Operator::Lt => match bound() {
                Some(n) => Requirement {
                    complement: true,
                    lte: n.checked_sub(1),
                    ..empty
                },
                None => empty,
            },
            Operator::Lte => match bound() {
                Some(n) => Requirement {
                    complement: true,
                    lte: Some(n),
                    ..empty
                },
                None => empty,
            },
        }
    }

    pub fn in_values<I, S>(key: &str, values: I) -> Requirement
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Requirement::new(key, Operator::In, values)
    }

    pub fn exists(key: &str) -> Requirement {
        Requirement::new(key, Operator::Exists, core::iter::empty::<String>())
    }

    pub fn does_not_exist(key: &str) -> Requirement {
        Requirement::new(key, Operator::DoesNotExist, core::iter::empty::<String>())
    }

    pub fn with_min_values(mut self, min_values: Option<u32>) -> Requirement {
        self.min_values = min_values;
        self
    }

    fn within_bounds(&self, value: &str) -> bool {
        if self.gte.is_none() && self.lte.is_none() {
            return true;
        }
        match value.parse::<i64>() {
            Ok(n) => self.gte.is_none_or(|g| n >= g) && self.lte.is_none_or(|l| n <= l),
            Err(_) => false,
        }
    }

    /// Whether the value is allowed.
    pub fn has(&self, value: &str) -> bool {
        let listed = self
            .values
            .binary_search_by(|v| v.as_str().cmp(value))
            .is_ok();
        if self.complement {
            !listed && self.within_bounds(value)
        } else {
            listed && self.within_bounds(value)
        }
    }

    /// The number of allowed values; complements are effectively unbounded.
    pub fn len(&self) -> usize {
        if self.complement {
            if let (Some(g), Some(l)) = (self.gte, self.lte) {
                if g > l {
                    return 0;
                }
                let span = (l as i128 - g as i128 + 1) as u128;
                return span.min(usize::MAX as u128 / 2) as usize;
            }
            usize::MAX - self.values.len()
        } else {
            self.values.len()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn is_complement(&self) -> bool {
        self.complement
    }

    /// The listed values: the allowed ones for `In`, the excluded ones for `NotIn`.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    pub fn bounds(&self) -> (Option<i64>, Option<i64>) {
        (self.gte, self.lte)
    }

    /// The operator this requirement is equivalent to.
    pub fn operator(&self) -> Operator {
        if self.complement {
            if !self.values.is_empty() {
                Operator::NotIn
            } else if self.gte.is_some() {
                Operator::Gte
            } else if self.lte.is_some() {
                Operator::Lte
            } else {
                Operator::Exists
            }
        } else if self.values.is_empty() {
            Operator::DoesNotExist
        } else {
            Operator::In
        }
    }

    /// Karpenter's `Requirement.Intersection`.
    pub fn intersection(&self, other: &Requirement) -> Requirement {
        let gte = match (self.gte, other.gte) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let lte = match (self.lte, other.lte) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let min_values = match (self.min_values, other.min_values) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let key = self.key.clone();
        if let (Some(g), Some(l)) = (gte, lte)
            && g > l
        {
            return Requirement {
                key,
                complement: false,
                values: Vec::new(),
                gte: None,
                lte: None,
                min_values,
            };
        }
        let complement = self.complement && other.complement;
        let values = match (self.complement, other.complement) {
            (true, true) => union(&self.values, &other.values),
            (true, false) => difference(&other.values, &self.values),
            (false, true) => difference(&self.values, &other.values),
            (false, false) => intersect(&self.values, &other.values),
        };
        let mut out = Requirement {
            key,
            complement,
            values,
            gte,
            lte,
            min_values,
        };
        if !complement {
            // A concrete set absorbs its bounds.
            if gte.is_some() || lte.is_some() {
                let filtered: Vec<String> = out
                    .values
                    .iter()
                    .filter(|v| out.within_bounds(v))
                    .cloned()
                    .collect();
                out.values = filtered;
            }
            out.gte = None;
            out.lte = None;
        }
        out
    }

    /// True when the two requirements share at least one value.
    pub fn intersects(&self, other: &Requirement) -> bool {
        // Fast paths for the common shapes, avoiding allocation.
        match (self.complement, other.complement) {
            (false, false)
                if self.gte.is_none()
                    && self.lte.is_none()
                    && other.gte.is_none()
                    && other.lte.is_none() =>
            {
                sorted_overlap(&self.values, &other.values)
            }
            (false, true) if self.gte.is_none() && self.lte.is_none() => {
                self.values.iter().any(|v| other.has(v))
            }
            (true, false) if other.gte.is_none() && other.lte.is_none() => {
                other.values.iter().any(|v| self.has(v))
            }
            _ => !self.intersection(other).is_empty(),
        }
    }

    /// Karpenter's rule for one key present on both sides of `Requirements.Intersects`: the
    /// two share a value, or both only exclude (NotIn/DoesNotExist), which always agree.
    pub fn agrees_with(&self, other: &Requirement) -> bool {
        self.intersects(other) || (other.operator().is_negative() && self.operator().is_negative())
    }

    /// A value from the set: the first listed value for `In` (or a seeded pick when asked),
    /// a random integer within bounds for complements, as Karpenter's `Requirement.Any`.
    pub fn any(&self, rng: &mut Rng) -> Option<String> {
        if !self.complement {
            if self.values.is_empty() {
                return None;
            }
            let i = rng.below(self.values.len() as u64) as usize;
            return Some(self.values[i].clone());
        }
        let lo = self.gte.unwrap_or(0).max(0);
        let hi = self.lte.unwrap_or(i64::from(i32::MAX));
        if lo > hi {
            return None;
        }
        for _ in 0..64 {
            let span = (hi - lo) as u64 + 1;
            let v = (lo + rng.below(span) as i64).to_string();
            if self.has(&v) {
                return Some(v);
            }
        }
        None
    }

    /// Whether every value this requirement allows is also allowed by `other` (so adding
    /// `other` would change nothing). Conservative: may answer false for some subsets.
    pub fn is_subset_of(&self, other: &Requirement) -> bool {
        if self.key != other.key
            || other
                .min_values
                .is_some_and(|m| self.min_values.is_none_or(|s| s < m))
        {
            return false;
        }
        match (self.complement, other.complement) {
            (false, _) => self.values.iter().all(|v| other.has(v)),
            (true, true) => {
                other
                    .values
                    .iter()
                    .all(|v| self.values.binary_search(v).is_ok() || !self.within_bounds(v))
                    && other.gte.is_none_or(|g| self.gte.is_some_and(|s| s >= g))
                    && other.lte.is_none_or(|l| self.lte.is_some_and(|s| s <= l))
            }
            (true, false) => false,
        }
    }

    /// The single allowed value, when the requirement is `In [v]`.
    pub fn single_value(&self) -> Option<&str> {
        if !self.complement && self.values.len() == 1 {
            Some(&self.values[0])
        } else {
            None
        }
    }
}

fn sorted_overlap(a: &[String], b: &[String]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => return true,
        }
    }
    false
}

fn union(a: &[String], b: &[String]) -> Vec<String> {
    let mut out: Vec<String> = a.iter().chain(b.iter()).cloned().collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn intersect(a: &[String], b: &[String]) -> Vec<String> {
    a.iter()
        .filter(|v| b.binary_search(v).is_ok())
        .cloned()
        .collect()
}

fn difference(a: &[String], b: &[String]) -> Vec<String> {
    a.iter()
        .filter(|v| b.binary_search(v).is_err())
        .cloned()
        .collect()
}

impl fmt::Display for Requirement {
    /// Karpenter's format: `key In [a b c d e and 3 others]`, `key Exists`, ` >=N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = self.operator();
        match op {
            Operator::Exists | Operator::DoesNotExist | Operator::Gte | Operator::Lte => {
                let shown = if matches!(op, Operator::Gte | Operator::Lte) {
                    Operator::Exists
                } else {
                    op
                };
                write!(f, "{} {}", self.key, shown.as_str())?;
            }
            _ => {
                write!(f, "{} {} [", self.key, op.as_str())?;
                for (i, v) in self.values.iter().take(5).enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    f.write_str(v)?;
                }
                if self.values.len() > 5 {
                    write!(f, " and {} others", self.values.len() - 5)?;
                }
                f.write_str("]")?;
            }
        }
        if let Some(g) = self.gte {
            write!(f, " >={g}")?;
        }
        if let Some(l) = self.lte {
            write!(f, " <={l}")?;
        }
        if let Some(m) = self.min_values {
            write!(f, " minValues {m}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One requirement per key, kept sorted by key.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Requirements {
    items: Vec<Requirement>,
}

/// Why two sets of requirements are not compatible, in Karpenter's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incompatibility {
    /// A custom key the other side does not define: `label "team" does not have known values`.
    UndefinedKey { key: String, hint: Option<String> },
    /// `key <k>, <incoming> not in <existing>`.
    Disjoint {
        key: String,
        incoming: String,
        existing: String,
    },
}

impl fmt::Display for Incompatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Incompatibility::UndefinedKey { key, hint } => {
                write!(f, "label \"{key}\" does not have known values")?;
                if let Some(h) = hint {
                    write!(f, " (typo of \"{h}\"?)")?;
                }
                Ok(())
            }
            Incompatibility::Disjoint {
                key,
                incoming,
                existing,
            } => {
                write!(f, "key {key}, {incoming} not in {existing}")
            }
        }
    }
}

/// Whether keys absent from `self` are allowed when they are well known (pod → NodePool
/// template) or never (pod → existing node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undefined {
    AllowWellKnown,
    Deny,
}

/// What [`Requirements::check_compatible`] found.
enum Compatibility<'a> {
    Compatible {
        covers: bool,
    },
    /// A key the incoming side may not bring undefined.
    Undefined(&'a Requirement),
    /// (existing, incoming) for the first shared key that disagrees.
    Disjoint(&'a Requirement, &'a Requirement),
}

fn disjoint(existing: &Requirement, incoming: &Requirement) -> Incompatibility {
    Incompatibility::Disjoint {
        key: existing.key.clone(),
        incoming: incoming.to_string(),
        existing: existing.to_string(),
    }
}

/// Whether looking `few` keys up one by one (a binary search each) in a list of `many`
/// compares fewer keys than walking both lists side by side.
fn looks_up_faster(few: usize, many: usize) -> bool {
    few * (usize::BITS - many.leading_zeros()) as usize + few < many
}

impl Requirements {
    pub fn new() -> Requirements {
        Requirements { items: Vec::new() }
    }

    /// Labels as `In [value]` requirements.
    pub fn from_labels<'a, I: IntoIterator<Item = (&'a String, &'a String)>>(
        labels: I,
    ) -> Requirements {
        Requirements::from_iter(
            labels
                .into_iter()
                .map(|(k, v)| Requirement::in_values(k, [v.clone()])),
        )
    }

    fn position(&self, key: &str) -> Result<usize, usize> {
        self.items.binary_search_by(|r| r.key.as_str().cmp(key))
    }

    /// Adds a requirement, intersecting with any existing one for the same key.
    pub fn add(&mut self, req: Requirement) {
        match self.position(&req.key) {
            Ok(i) => {
                let merged = self.items[i].intersection(&req);
                self.items[i] = merged;
            }
            Err(i) => self.items.insert(i, req),
        }
    }

    pub fn add_all(&mut self, other: &Requirements) {
        for r in &other.items {
            self.add(r.clone());
        }
    }

    /// Replaces the requirement for a key outright (no intersection).
    pub fn set(&mut self, req: Requirement) {
        match self.position(&req.key) {
            Ok(i) => self.items[i] = req,
            Err(i) => self.items.insert(i, req),
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Requirement> {
        self.position(key).ok().map(|i| self.items.remove(i))
    }

    pub fn get(&self, key: &str) -> Option<&Requirement> {
        self.position(key).ok().map(|i| &self.items[i])
    }

    pub fn has_key(&self, key: &str) -> bool {
        self.position(key).is_ok()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Requirement> {
        self.items.iter()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The first shared key (in key order) whose requirements have no value in common,
    /// unless both are purely negative (NotIn/DoesNotExist), which always agree.
    fn first_conflict<'a>(
        &'a self,
        other: &'a Requirements,
    ) -> Option<(&'a Requirement, &'a Requirement)> {
        // A node's or an instance type's requirements carry every label (dozens of keys), a
        // pod's a few: looking the few up in the long list compares fewer keys than walking
        // both. Either way the shared keys are visited in key order.
        if looks_up_faster(other.items.len(), self.items.len()) {
            return other.items.iter().find_map(|b| {
                self.get(&b.key)
                    .filter(|a| !a.agrees_with(b))
                    .map(|a| (a, b))
            });
        }
        if looks_up_faster(self.items.len(), other.items.len()) {
            return self.items.iter().find_map(|a| {
                other
                    .get(&a.key)
                    .filter(|b| !a.agrees_with(b))
                    .map(|b| (a, b))
            });
        }
        let (mut i, mut j) = (0, 0);
        while i < self.items.len() && j < other.items.len() {
            let (a, b) = (&self.items[i], &other.items[j]);
            match a.key.cmp(&b.key) {
                Ordering::Less => i += 1,
                Ordering::Greater => j += 1,
                Ordering::Equal => {
                    if !a.agrees_with(b) {
                        return Some((a, b));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        None
    }

    /// Karpenter's `Requirements.Intersects`: every key present on both sides must share a
    /// value, except that two purely negative requirements always agree.
    pub fn intersects(&self, other: &Requirements) -> Result<(), Incompatibility> {
        match self.first_conflict(other) {
            Some((existing, incoming)) => Err(disjoint(existing, incoming)),
            None => Ok(()),
        }
    }

    /// Boolean form of [`Requirements::intersects`] for hot loops (no message is built).
    pub fn intersects_ok(&self, other: &Requirements) -> bool {
        self.first_conflict(other).is_none()
    }

    /// Whether adding `other` would leave these requirements unchanged.
    pub fn covers(&self, other: &Requirements) -> bool {
        other
            .items
            .iter()
            .all(|o| self.get(&o.key).is_some_and(|mine| mine.is_subset_of(o)))
    }

    /// Karpenter's `Requirements.Compatible`: keys of `incoming` that `self` does not define
    /// are refused unless they are negative, or well known and `undefined` allows them;
    /// then the shared keys must intersect.
    pub fn compatible(
        &self,
        incoming: &Requirements,
        undefined: Undefined,
    ) -> Result<(), Incompatibility> {
        match self.check_compatible(incoming, undefined) {
            Compatibility::Compatible { .. } => Ok(()),
            Compatibility::Undefined(b) => Err(Incompatibility::UndefinedKey {
                key: b.key.clone(),
                hint: wellknown::typo_hint(&b.key),
            }),
            Compatibility::Disjoint(existing, incoming) => Err(disjoint(existing, incoming)),
        }
    }

    /// [`Requirements::compatible`] without the message, and with
    /// [`Requirements::covers`]`(incoming)` when compatible: `Some(covers)` or `None`.
    pub fn compatible_covers(&self, incoming: &Requirements, undefined: Undefined) -> Option<bool> {
        match self.check_compatible(incoming, undefined) {
            Compatibility::Compatible { covers } => Some(covers),
            _ => None,
        }
    }

    /// One walk over `incoming` for [`Requirements::compatible`]: an undefined key it may
    /// not bring is reported before any shared key that disagrees, as Karpenter checks
    /// them in that order.
    fn check_compatible<'a>(
        &'a self,
        incoming: &'a Requirements,
        undefined: Undefined,
    ) -> Compatibility<'a> {
        let mut conflict = None;
        let mut covers = true;
        for b in &incoming.items {
            match self.get(&b.key) {
                Some(a) => {
                    if conflict.is_none() && !a.agrees_with(b) {
                        conflict = Some((a, b));
                    }
                    covers = covers && a.is_subset_of(b);
                }
                None => {
                    covers = false;
                    let allowed = (undefined == Undefined::AllowWellKnown
                        && wellknown::is_well_known(&b.key))
                        || b.operator().is_negative();
                    if !allowed {
                        return Compatibility::Undefined(b);
                    }
                }
            }
        }
        match conflict {
            Some((a, b)) => Compatibility::Disjoint(a, b),
            None => Compatibility::Compatible { covers },
        }
    }

    /// The labels a node with these requirements gets: one value per key where one can be
    /// chosen (restricted keys excluded).
    pub fn labels(&self, rng: &mut Rng) -> crate::model::StringMap {
        let mut out = crate::model::StringMap::new();
        for r in &self.items {
            if wellknown::is_restricted_node_label(&r.key) {
                continue;
            }
            if let Some(v) = r.any(rng) {
                out.insert(r.key.clone(), v);
            }
        }
        out
    }
}

impl FromIterator<Requirement> for Requirements {
    /// Adds each requirement in turn (same keys intersect).
    fn from_iter<I: IntoIterator<Item = Requirement>>(reqs: I) -> Requirements {
        let mut r = Requirements::new();
        for req in reqs {
            r.add(req);
        }
        r
    }
}

impl fmt::Display for Requirements {
    /// Sorted, comma-joined requirement strings, hostname omitted, as Karpenter prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for r in &self.items {
            if r.key == wellknown::HOSTNAME {
                continue;
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Requirements {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Requirements[{self}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn req(key: &str, op: Operator, values: &[&str]) -> Requirement {
        Requirement::new(key, op, values.iter().copied())
    }

    #[test]
    fn operators_have_the_right_sets() {
        let r = req("k", Operator::In, &["a", "b"]);
        assert!(r.has("a") && !r.has("c"));
        let r = req("k", Operator::NotIn, &["a"]);
        assert!(!r.has("a") && r.has("c"));
        assert!(req("k", Operator::Exists, &[]).has("anything"));
        assert!(!req("k", Operator::DoesNotExist, &[]).has("anything"));
        let gt = req("k", Operator::Gt, &["5"]);
        assert!(
            gt.has("6") && !gt.has("5") && !gt.has("x"),
            "non-integers never satisfy bounds"
        );
        let lt = req("k", Operator::Lt, &["5"]);
        assert!(lt.has("4") && !lt.has("5"));
        assert!(req("k", Operator::Gte, &["5"]).has("5"));
        assert!(req("k", Operator::Lte, &["5"]).has("5"));
    }

    #[test]
    fn intersection_of_set_and_bounds_filters_and_drops_bounds() {
        let generation = req("gen", Operator::In, &["4", "5", "6", "7", "x"]);
        let r = generation.intersection(&req("gen", Operator::Gt, &["5"]));
        assert_eq!(r.operator(), Operator::In);
        assert_eq!(r.values(), ["6", "7"]);
        assert_eq!(r.bounds(), (None, None));
    }

    #[test]
    fn crossing_bounds_is_empty() {
        let r = req("k", Operator::Gt, &["5"]).intersection(&req("k", Operator::Lt, &["5"]));
        assert!(r.is_empty());
        assert_eq!(r.operator(), Operator::DoesNotExist);
    }

    #[test]
    fn negative_requirements_always_intersect() {
        let a = Requirements::from_iter([req("k", Operator::DoesNotExist, &[])]);
        let b = Requirements::from_iter([req("k", Operator::NotIn, &["a"])]);
        assert!(a.intersects(&b).is_ok());
        let c = Requirements::from_iter([req("k", Operator::In, &["a"])]);
        let err = a.intersects(&c).unwrap_err();
        assert_eq!(err.to_string(), "key k, k In [a] not in k DoesNotExist");
    }

    #[test]
    fn compatible_refuses_undefined_custom_keys_but_allows_well_known_and_negative() {
        let pool =
            Requirements::from_iter([req("karpenter.sh/capacity-type", Operator::In, &["spot"])]);
        let pod = Requirements::from_iter([req("team", Operator::In, &["a"])]);
        assert_eq!(
            pool.compatible(&pod, Undefined::AllowWellKnown)
                .unwrap_err()
                .to_string(),
            "label \"team\" does not have known values"
        );
        let pod = Requirements::from_iter([req("team", Operator::NotIn, &["a"])]);
        assert!(pool.compatible(&pod, Undefined::AllowWellKnown).is_ok());
        let pod =
            Requirements::from_iter([req("topology.kubernetes.io/zone", Operator::In, &["z"])]);
        assert!(pool.compatible(&pod, Undefined::AllowWellKnown).is_ok());
        assert!(pool.compatible(&pod, Undefined::Deny).is_err());
    }

    #[test]
    fn display_truncates_after_five_values() {
        let r = req("k", Operator::In, &["a", "b", "c", "d", "e", "f", "g"]);
        assert_eq!(r.to_string(), "k In [a b c d e and 2 others]");
        assert_eq!(req("k", Operator::Gt, &["3"]).to_string(), "k Exists >=4");
    }

    #[test]
    fn aliases_are_normalised() {
        let r = req(
            "failure-domain.beta.kubernetes.io/zone",
            Operator::In,
            &["z"],
        );
        assert_eq!(r.key, "topology.kubernetes.io/zone");
    }

    fn arb_req() -> impl Strategy<Value = Requirement> {
        let vals = proptest::collection::vec(
            prop_oneof![Just("1"), Just("2"), Just("3"), Just("a"), Just("b")],
            0..4,
        );
        (0..8usize, vals).prop_map(|(op, vals)| {
            let op = [
                Operator::In,
                Operator::NotIn,
                Operator::Exists,
                Operator::DoesNotExist,
                Operator::Gt,
                Operator::Lt,
                Operator::Gte,
                Operator::Lte,
            ][op];
            let vals = if matches!(
                op,
                Operator::Gt | Operator::Lt | Operator::Gte | Operator::Lte
            ) {
                alloc::vec![
                    vals.first()
                        .copied()
                        .filter(|v| v.parse::<i64>().is_ok())
                        .unwrap_or("2")
                ]
            } else {
                vals
            };
            Requirement::new("k", op, vals)
        })
    }

    const PROBES: [&str; 8] = ["0", "1", "2", "3", "4", "a", "b", "zz"];

    proptest! {
        /// The intersection allows exactly the values both sides allow.
        #[test]
        fn intersection_is_set_intersection(a in arb_req(), b in arb_req()) {
            let i = a.intersection(&b);
            for v in PROBES {
                prop_assert_eq!(i.has(v), a.has(v) && b.has(v), "value {}", v);
            }
        }

        /// Intersection is commutative and idempotent on membership.
        #[test]
        fn intersection_commutes(a in arb_req(), b in arb_req()) {
            let ab = a.intersection(&b);
            let ba = b.intersection(&a);
            let aa = a.intersection(&a);
            for v in PROBES {
                prop_assert_eq!(ab.has(v), ba.has(v));
                prop_assert_eq!(aa.has(v), a.has(v));
            }
        }

        /// `intersects` agrees with a non-empty intersection.
        #[test]
        fn intersects_agrees_with_intersection(a in arb_req(), b in arb_req()) {
            prop_assert_eq!(a.intersects(&b), !a.intersection(&b).is_empty());
        }

        /// `is_subset_of` never claims a subset that is not one.
        #[test]
        fn subset_is_sound(a in arb_req(), b in arb_req()) {
            if a.is_subset_of(&b) {
                for v in PROBES {
                    if a.has(v) { prop_assert!(b.has(v), "value {}", v); }
                }
            }
        }

        /// Adding to a Requirements map narrows: a value allowed after adding was allowed before.
        #[test]
        fn adding_only_narrows(a in arb_req(), b in arb_req()) {
            let mut rs = Requirements::from_iter([a.clone()]);
            rs.add(b.clone());
            let merged = rs.get("k").unwrap();
            for v in PROBES {
                if merged.has(v) { prop_assert!(a.has(v) && b.has(v)); }
            }
        }

        /// Matching by looking keys up and the fused compatibility check give what walking
        /// both lists and checking undefined keys first gave.
        #[test]
        fn matching_agrees_with_the_plain_walk(
            a in arb_requirements(40), b in arb_requirements(3), deny in any::<bool>()
        ) {
            let undefined = if deny { Undefined::Deny } else { Undefined::AllowWellKnown };
            for (x, y) in [(&a, &b), (&b, &a), (&a, &a)] {
                prop_assert_eq!(x.intersects(y), walked_intersects(x, y));
                let expected = walked_compatible(x, y, undefined);
                prop_assert_eq!(x.compatible(y, undefined), expected.clone());
                prop_assert_eq!(
                    x.compatible_covers(y, undefined),
                    expected.ok().map(|_| x.covers(y))
                );
            }
        }
    }

    const KEYS: [&str; 14] = [
        "a",
        "b",
        "c",
        "d",
        "e",
        "f",
        "g",
        "h",
        "i",
        "j",
        "k",
        "l",
        "kubernetes.io/arch",
        "team",
    ];

    fn arb_requirements(max: usize) -> impl Strategy<Value = Requirements> {
        proptest::collection::vec((0..KEYS.len(), arb_req()), 0..max).prop_map(|reqs| {
            reqs.into_iter()
                .map(|(k, mut r)| {
                    r.key = KEYS[k].into();
                    r
                })
                .collect()
        })
    }

    /// The merge walk `intersects` was written as first.
    fn walked_intersects(x: &Requirements, y: &Requirements) -> Result<(), Incompatibility> {
        let (mut i, mut j) = (0, 0);
        while i < x.items.len() && j < y.items.len() {
            let (a, b) = (&x.items[i], &y.items[j]);
            match a.key.cmp(&b.key) {
                Ordering::Less => i += 1,
                Ordering::Greater => j += 1,
                Ordering::Equal => {
                    let both_negative = b.operator().is_negative() && a.operator().is_negative();
                    if !(a.intersects(b) || both_negative) {
                        return Err(disjoint(a, b));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        Ok(())
    }

    /// `compatible` as first written: undefined keys, then the walk.
    fn walked_compatible(
        x: &Requirements,
        y: &Requirements,
        undefined: Undefined,
    ) -> Result<(), Incompatibility> {
        for b in &y.items {
            if x.has_key(&b.key)
                || (undefined == Undefined::AllowWellKnown && wellknown::is_well_known(&b.key))
                || b.operator().is_negative()
            {
                continue;
            }
            return Err(Incompatibility::UndefinedKey {
                key: b.key.clone(),
                hint: wellknown::typo_hint(&b.key),
            });
        }
        walked_intersects(x, y)
    }
}

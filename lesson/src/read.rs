//! Reads a lesson file (`lesson.yaml`, English) from its text: every problem a located
//! [`Problem`] (line, column, field path, how to fix it), as many as the file has, never a
//! panic. The YAML itself is the scenario reader's (`kpg_manifests::parse_located`).

use kpg_core::quantity::parse_for_resource;
use kpg_core::resources::ResourceName;
use kpg_manifests::{Located, LocatedValue};

use crate::exercise::{Edit, Exercise, Goal, Judged};
use crate::model::{Lab, LabSource, Lesson, Step};
use crate::problem::{Code, Problem, Spot};

const LESSON_FIELDS: &[&str] = &["id", "title", "summary", "lab", "steps"];
const STEP_FIELDS: &[&str] = &[
    "id", "title", "text", "lab", "compare", "change", "playTo", "exercise",
];
const LAB_FIELDS: &[&str] = &["file", "inline", "name"];
const EDIT_FIELDS: &[&str] = &["find", "replace"];
const EXERCISE_FIELDS: &[&str] = &["task", "hint", "solution", "edits", "goals", "judged"];
const GOALS: &[&str] = &[
    "nothingPending",
    "running",
    "runsOn",
    "poolNodes",
    "limitAtMost",
    "costBelow",
];

/// Reads the English lesson in `text`; `file` names it in problems and is where relative
/// paths start from.
pub fn read(file: &str, text: &str) -> Result<Lesson, Vec<Problem>> {
    let mut r = Reader::new(file, text);
    let Some(root) = r.document() else {
        return Err(r.problems);
    };
    let lesson = r.lesson(&root);
    r.problems.sort_by_key(|p| (p.line, p.column));
    match lesson {
        Some(lesson) if r.problems.is_empty() => Ok(lesson),
        _ => Err(r.problems),
    }
}

/// The walk over a document's tree, collecting problems as it goes.
pub(crate) struct Reader<'f> {
    pub file: &'f str,
    /// The file's text.
    pub source: &'f str,
    pub problems: Vec<Problem>,
}

/// A map being read: its node and its field path.
pub(crate) struct Fields<'n> {
    pub node: &'n Located,
    pub path: String,
}

impl<'n> Fields<'n> {
    pub fn get(&self, key: &str) -> Option<&'n Located> {
        self.node.get(key)
    }

    pub fn path(&self, key: &str) -> String {
        join(&self.path, key)
    }
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

pub(crate) fn spot(node: &Located, path: &str) -> Spot {
    Spot {
        line: node.line,
        column: node.column,
        path: path.to_string(),
    }
}

impl<'f> Reader<'f> {
    pub fn new(file: &'f str, source: &'f str) -> Reader<'f> {
        Reader {
            file,
            source,
            problems: Vec::new(),
        }
    }

    /// The document's root, or the syntax problem; keys written twice are problems too.
    pub fn document(&mut self) -> Option<Located> {
        match kpg_manifests::parse_located(self.source) {
            Err(e) => {
                let at = Spot {
                    line: e.line,
                    column: e.column,
                    path: String::new(),
                };
                self.problems.push(
                    Problem::error(Code::Yaml, self.file, &at, e.message)
                        .help("a lesson file is one YAML document (a map)"),
                );
                None
            }
            Ok(doc) => {
                for k in &doc.repeated {
                    let at = Spot {
                        line: k.line,
                        column: k.column,
                        path: join(&k.path, &k.key),
                    };
                    self.problems.push(
                        Problem::error(
                            Code::Field,
                            self.file,
                            &at,
                            format!(
                                "`{}` is written twice (first on line {})",
                                k.key, k.first_line
                            ),
                        )
                        .help("keep one of them"),
                    );
                }
                Some(doc.root)
            }
        }
    }

    pub fn error(&mut self, node: &Located, path: &str, message: impl Into<String>, help: &str) {
        let mut p = Problem::error(Code::Field, self.file, &spot(node, path), message);
        if !help.is_empty() {
            p = p.help(help);
        }
        self.problems.push(p);
    }

    /// `node` as a map whose keys are among `known` (each other key is a problem), or a
    /// problem saying it is not a map.
    pub fn fields<'n>(
        &mut self,
        node: &'n Located,
        path: &str,
        what: &str,
        known: &[&str],
    ) -> Option<Fields<'n>> {
        let LocatedValue::Map(entries) = &node.value else {
            self.error(
                node,
                path,
                format!("{what} is a map, found {}", node.type_name()),
                &format!("write {what}'s fields: {}", known.join(", ")),
            );
            return None;
        };
        for (key, _) in entries {
            let name = key.scalar_text().unwrap_or_default();
            if !known.contains(&name.as_str()) {
                self.error(
                    key,
                    &join(path, &name),
                    format!("`{name}` is not a field of {what}"),
                    &unknown_help(&name, known),
                );
            }
        }
        Some(Fields {
            node,
            path: path.to_string(),
        })
    }

    /// A text field: any scalar, as written. `None` (and a problem when `required`) when it
    /// is absent or not a scalar.
    pub fn text(&mut self, f: &Fields, key: &str, required: bool) -> Option<String> {
        let Some(node) = f.get(key) else {
            if required {
                self.missing(f, key);
            }
            return None;
        };
        match node.scalar_text() {
            Some(t) => Some(t),
            None if node.value == LocatedValue::Null && !required => None,
            None => {
                self.error(
                    node,
                    &f.path(key),
                    format!("`{key}` is text, found {}", node.type_name()),
                    "write it as a string; a block (`|`) keeps line breaks",
                );
                None
            }
        }
    }

    pub fn missing(&mut self, f: &Fields, key: &str) {
        self.error(
            f.node,
            &f.path,
            format!("`{key}` is missing"),
            &format!("add `{key}:`"),
        );
    }

    /// An id: lower-case letters, digits and dashes (it appears in links and saved sessions).
    pub fn id(&mut self, f: &Fields, key: &str) -> Option<String> {
        let id = self.text(f, key, true)?;
        let ok = !id.is_empty()
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !id.starts_with('-')
            && !id.ends_with('-');
        if !ok {
            let node = f.get(key).unwrap_or(f.node);
            self.error(
                node,
                &f.path(key),
                format!("{id:?} is not an id"),
                "use lower-case letters, digits and dashes (`scale-out`): ids appear in links \
                 and saved sessions",
            );
            return None;
        }
        Some(id)
    }

    fn lesson(&mut self, root: &Located) -> Option<Lesson> {
        let f = self.fields(root, "", "a lesson", LESSON_FIELDS)?;
        let id = self.id(&f, "id");
        let title = self.text(&f, "title", true);
        let summary = self.text(&f, "summary", false).unwrap_or_default();
        let lab = match f.get("lab") {
            Some(node) => self.lab(node, "lab"),
            None => {
                self.missing(&f, "lab");
                None
            }
        };
        let steps = self.steps(&f);
        Some(Lesson {
            file: self.file.to_string(),
            source: self.source.to_string(),
            id: id?,
            title: title?,
            summary,
            lab: lab?,
            steps: steps?,
        })
    }

    fn steps(&mut self, f: &Fields) -> Option<Vec<Step>> {
        let Some(node) = f.get("steps") else {
            self.missing(f, "steps");
            return None;
        };
        let LocatedValue::Seq(items) = &node.value else {
            self.error(
                node,
                "steps",
                format!("`steps` is a list, found {}", node.type_name()),
                "write each step as `- id: ...`",
            );
            return None;
        };
        if items.is_empty() {
            self.error(node, "steps", "a lesson has at least one step", "");
            return None;
        }
        let mut steps = Vec::new();
        let mut complete = true;
        for (i, item) in items.iter().enumerate() {
            match self.step(item, &format!("steps[{i}]")) {
                Some(step) => {
                    if let Some(first) = steps.iter().position(|s: &Step| s.id == step.id) {
                        let at = item.get("id").unwrap_or(item);
                        self.error(
                            at,
                            &format!("steps[{i}].id"),
                            format!("step id `{}` is also step {}'s", step.id, first + 1),
                            "give each step its own id: `#id` links name it",
                        );
                    }
                    steps.push(step);
                }
                None => complete = false,
            }
        }
        complete.then_some(steps)
    }

    fn step(&mut self, node: &Located, path: &str) -> Option<Step> {
        let f = self.fields(node, path, "a step", STEP_FIELDS)?;
        let id = self.id(&f, "id");
        let title = self.text(&f, "title", true);
        let text = self.text(&f, "text", true);
        let text_spot = spot(f.get("text").unwrap_or(node), &f.path("text"));
        let lab = f.get("lab").map(|n| self.lab(n, &f.path("lab")));
        let compare = f.get("compare").map(|n| self.lab(n, &f.path("compare")));
        let change = f.get("change").map(|n| self.edits(n, &f.path("change")));
        let play_to = f.get("playTo").map(|n| self.duration(n, &f.path("playTo")));
        let exercise = f
            .get("exercise")
            .map(|n| self.exercise(n, &f.path("exercise")));
        Some(Step {
            spot: spot(f.get("id").unwrap_or(node), path),
            id: id?,
            title: title?,
            text: text?,
            text_spot,
            lab: optional(lab)?,
            compare: optional(compare)?,
            change: optional(change)?.unwrap_or_default(),
            play_to: optional(play_to)?,
            exercise: optional(exercise)?,
        })
    }

    /// `lab: PATH`, `lab: {file: PATH, name: ...}` or `lab: {inline: |..., name: ...}`.
    fn lab(&mut self, node: &Located, path: &str) -> Option<Lab> {
        if let LocatedValue::Str(file) = &node.value {
            return Some(Lab {
                source: LabSource::File(file.clone()),
                name: None,
                spot: spot(node, path),
            });
        }
        let f = self.fields(node, path, "a lab", LAB_FIELDS)?;
        let name = self.text(&f, "name", false);
        let source = match (f.get("file"), f.get("inline")) {
            (Some(_), None) => LabSource::File(self.text(&f, "file", true)?),
            (None, Some(_)) => LabSource::Inline {
                text: self.text(&f, "inline", true)?,
                first_line: self.block_first_line(node, "inline"),
            },
            (Some(_), Some(_)) => {
                self.error(
                    node,
                    path,
                    "a lab is a `file` or `inline`, not both",
                    "keep one",
                );
                return None;
            }
            (None, None) => {
                self.error(
                    node,
                    path,
                    "a lab needs `file` (a scenario's path, relative to this file) or `inline` \
                     (the scenario itself)",
                    "lab: ../../tests/labs/seed000-hello-world.yaml",
                );
                return None;
            }
        };
        Some(Lab {
            source,
            name,
            spot: spot(node, path),
        })
    }

    /// The file's line of the first line of `map`'s `key` value when it is a block scalar
    /// (`key: |`: the text starts on the next line), else 0.
    pub fn block_first_line(&self, map: &Located, key: &str) -> usize {
        let LocatedValue::Map(entries) = &map.value else {
            return 0;
        };
        let Some((k, _)) = entries
            .iter()
            .find(|(k, _)| k.scalar_text().as_deref() == Some(key))
        else {
            return 0;
        };
        let Some(line) = self.source.lines().nth(k.line.saturating_sub(1)) else {
            return 0;
        };
        let after_key = line
            .char_indices()
            .nth(k.column.saturating_sub(1) + key.chars().count())
            .map_or("", |(i, _)| &line[i..]);
        let value = after_key.trim_start().trim_start_matches(':').trim_start();
        if value.starts_with('|') || value.starts_with('>') {
            k.line + 1
        } else {
            0
        }
    }

    fn edits(&mut self, node: &Located, path: &str) -> Option<Vec<Edit>> {
        let LocatedValue::Seq(items) = &node.value else {
            self.error(
                node,
                path,
                format!("edits are a list, found {}", node.type_name()),
                "write each edit as `- find: ...` with `replace: ...`",
            );
            return None;
        };
        let mut edits = Vec::new();
        let mut complete = true;
        for (i, item) in items.iter().enumerate() {
            let path = format!("{path}[{i}]");
            let Some(f) = self.fields(item, &path, "an edit", EDIT_FIELDS) else {
                complete = false;
                continue;
            };
            let find = self.text(&f, "find", true);
            let replace = match f.get("replace") {
                Some(n) if n.value == LocatedValue::Null => Some(String::new()),
                _ => self.text(&f, "replace", true),
            };
            if find.as_deref() == Some("") {
                self.error(
                    item,
                    &f.path("find"),
                    "`find` is empty",
                    "write the text to find",
                );
                complete = false;
            }
            match (find, replace) {
                (Some(find), Some(replace)) => edits.push(Edit {
                    find,
                    replace,
                    spot: spot(item, &path),
                }),
                _ => complete = false,
            }
        }
        complete.then_some(edits)
    }

    fn duration(&mut self, node: &Located, path: &str) -> Option<u64> {
        let text = node.scalar_text().unwrap_or_default();
        match kpg_core::duration::parse(&text) {
            Ok(ms) => Some(ms),
            Err(e) => {
                self.error(
                    node,
                    path,
                    e.to_string(),
                    "write a Go duration, as kpg simulate --until takes: 90s, 2m, 1h30m",
                );
                None
            }
        }
    }

    fn exercise(&mut self, node: &Located, path: &str) -> Option<Exercise> {
        let f = self.fields(node, path, "an exercise", EXERCISE_FIELDS)?;
        let task = self.text(&f, "task", true);
        let hint = self.text(&f, "hint", false).unwrap_or_default();
        let solution = self.text(&f, "solution", false).unwrap_or_default();
        let edits = match f.get("edits") {
            Some(n) => self.edits(n, &f.path("edits")),
            None => {
                self.missing(&f, "edits");
                None
            }
        };
        let goals = self.goals(&f);
        let judged = match self.text(&f, "judged", false).as_deref() {
            None | Some("atRest") => Some(Judged::AtRest),
            Some("anyInstant") => Some(Judged::AnyInstant),
            Some(other) => {
                let at = f.get("judged").unwrap_or(node);
                self.error(
                    at,
                    &f.path("judged"),
                    format!("{other:?} is not when goals are judged"),
                    "atRest (once nothing is left to happen; the default) or anyInstant (at \
                     any instant the cluster meets them)",
                );
                None
            }
        };
        Some(Exercise {
            task: task?,
            hint,
            solution,
            edits: edits?,
            goals: goals?,
            judged: judged?,
            spot: spot(node, path),
        })
    }

    fn goals(&mut self, f: &Fields) -> Option<Vec<Goal>> {
        let Some(node) = f.get("goals") else {
            self.missing(f, "goals");
            return None;
        };
        let path = f.path("goals");
        let items = match &node.value {
            LocatedValue::Seq(items) if !items.is_empty() => items,
            _ => {
                self.error(
                    node,
                    &path,
                    "`goals` is a list of at least one goal",
                    "- nothingPending: true",
                );
                return None;
            }
        };
        let mut goals = Vec::new();
        let mut complete = true;
        for (i, item) in items.iter().enumerate() {
            match self.goal(item, &format!("{path}[{i}]")) {
                Some(g) => goals.push(g),
                None => complete = false,
            }
        }
        complete.then_some(goals)
    }

    fn goal(&mut self, node: &Located, path: &str) -> Option<Goal> {
        let f = self.fields(node, path, "a goal", GOALS)?;
        let LocatedValue::Map(entries) = &node.value else {
            return None;
        };
        let [(key, value)] = entries.as_slice() else {
            self.error(
                node,
                path,
                "a goal is one of nothingPending, running, runsOn, poolNodes, limitAtMost, \
                 costBelow",
                "write each goal as its own list item",
            );
            return None;
        };
        let kind = key.scalar_text().unwrap_or_default();
        let path = f.path(&kind);
        match kind.as_str() {
            "nothingPending" => {
                if value.value == LocatedValue::Bool(true) {
                    Some(Goal::NothingPending)
                } else {
                    self.error(
                        value,
                        &path,
                        "nothingPending takes `true`",
                        "to let pods stay Pending, leave the goal out",
                    );
                    None
                }
            }
            "running" => {
                let g = self.fields(value, &path, "running", &["workload", "atLeast"])?;
                let workload = self.workload(&g);
                let at_least = match g.get("atLeast") {
                    None => Some(1),
                    Some(n) => self.count(n, &g.path("atLeast")),
                };
                Some(Goal::Running {
                    workload: workload?,
                    at_least: at_least?,
                })
            }
            "runsOn" => {
                let g = self.fields(value, &path, "runsOn", &["workload", "pool"])?;
                let workload = self.workload(&g);
                let pool = self.text(&g, "pool", true);
                Some(Goal::RunsOn {
                    workload: workload?,
                    pool: pool?,
                })
            }
            "poolNodes" => {
                let g = self.fields(value, &path, "poolNodes", &["pool", "min", "max"])?;
                let pool = self.text(&g, "pool", true);
                let min = g
                    .get("min")
                    .map_or(Some(0), |n| self.count(n, &g.path("min")));
                let max = g
                    .get("max")
                    .map_or(Some(usize::MAX), |n| self.count(n, &g.path("max")));
                if let (Some(lo), Some(hi)) = (min, max)
                    && lo > hi
                {
                    self.error(
                        value,
                        &path,
                        format!("min ({lo}) is more than max ({hi})"),
                        "leave out max for no upper bound",
                    );
                    return None;
                }
                Some(Goal::PoolNodes {
                    pool: pool?,
                    min: min?,
                    max: max?,
                })
            }
            "limitAtMost" => {
                let g = self.fields(value, &path, "limitAtMost", &["pool", "resource", "limit"])?;
                let pool = self.text(&g, "pool", true);
                let resource = self.text(&g, "resource", true)?;
                let limit = self.text(&g, "limit", true)?;
                let at = g.get("limit").unwrap_or(value);
                let amount = if resource == "nodes" {
                    limit
                        .parse::<i64>()
                        .map_err(|_| String::from("not a count"))
                } else if ResourceName::parse(&resource) == ResourceName::Other {
                    let at = g.get("resource").unwrap_or(value);
                    self.error(
                        at,
                        &g.path("resource"),
                        format!("the playground keeps no gauge of {resource:?}"),
                        "use cpu, memory, ephemeral-storage, pods, nodes or a device the \
                         catalog knows (nvidia.com/gpu, ...)",
                    );
                    return None;
                } else {
                    parse_for_resource(ResourceName::parse(&resource), &limit)
                        .map_err(|e| e.to_string())
                };
                match amount {
                    Ok(limit) => Some(Goal::LimitAtMost {
                        pool: pool?,
                        resource,
                        limit,
                    }),
                    Err(e) => {
                        self.error(
                            at,
                            &g.path("limit"),
                            format!("{limit:?} is not an amount of {resource}: {e}"),
                            "write it as the NodePool's limits do: \"8\" or 8000m cpu, 16Gi \
                             memory",
                        );
                        None
                    }
                }
            }
            "costBelow" => {
                let micro = match &value.value {
                    LocatedValue::Int(i) if *i > 0 => Some(*i),
                    LocatedValue::Str(s) => dollars_per_hour(s),
                    _ => None,
                };
                if micro.is_none() {
                    self.error(
                        value,
                        &path,
                        format!(
                            "{} is not a cost per hour",
                            value
                                .scalar_text()
                                .unwrap_or_else(|| value.type_name().into())
                        ),
                        "write dollars an hour as \"$0.08/h\", or micro-dollars as 80000",
                    );
                }
                micro.map(Goal::CostBelow)
            }
            // Not a goal: `fields` said so.
            _ => None,
        }
    }

    fn workload(&mut self, g: &Fields) -> Option<String> {
        let w = self.text(g, "workload", true)?;
        let ok = w
            .split_once('/')
            .is_some_and(|(kind, name)| !kind.is_empty() && !name.is_empty());
        if !ok {
            let at = g.get("workload").unwrap_or(g.node);
            self.error(
                at,
                &g.path("workload"),
                format!("{w:?} does not name a workload"),
                "write KIND/NAME, as the pods' owner: Deployment/web, Job/batch-job",
            );
            return None;
        }
        Some(w)
    }

    fn count(&mut self, node: &Located, path: &str) -> Option<usize> {
        match node.value {
            LocatedValue::Int(i) if i >= 0 => Some(i as usize),
            _ => {
                self.error(
                    node,
                    path,
                    format!(
                        "{} is not a count",
                        node.scalar_text()
                            .unwrap_or_else(|| node.type_name().into())
                    ),
                    "write a whole number, 0 or more",
                );
                None
            }
        }
    }
}

/// An optional field as read: absent (`None`) is fine, `Some(None)` (written, with a
/// problem) fails the whole, `Some(Some(v))` is the value.
fn optional<T>(field: Option<Option<T>>) -> Option<Option<T>> {
    match field {
        None => Some(None),
        Some(None) => None,
        Some(Some(v)) => Some(Some(v)),
    }
}

/// `$0.08/h`, `$0.08/hour`, `$0.08`: micro-dollars an hour (at most six decimals).
pub fn dollars_per_hour(text: &str) -> Option<i64> {
    let t = text.trim();
    let t = t
        .strip_suffix("/h")
        .or_else(|| t.strip_suffix("/hour"))
        .unwrap_or(t);
    let t = t.strip_prefix('$')?;
    let (whole, fraction) = t.split_once('.').unwrap_or((t, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty())
        || !digits(whole)
        || !digits(fraction)
        || fraction.len() > 6
        || whole.len() > 9
    {
        return None;
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut frac: i64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().ok()?
    };
    frac *= 10i64.pow(6 - fraction.len() as u32);
    let micro = whole * 1_000_000 + frac;
    (micro > 0).then_some(micro)
}

/// "did you mean" for a key close to a known one, else the list of fields.
fn unknown_help(name: &str, known: &[&str]) -> String {
    let close = known
        .iter()
        .map(|k| (distance(&name.to_lowercase(), &k.to_lowercase()), *k))
        .filter(|(d, _)| *d <= 2)
        .min();
    match close {
        Some((_, k)) => format!("did you mean `{k}`?"),
        None => format!("the fields are: {}", known.join(", ")),
    }
}

/// Levenshtein distance, for short keys.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = if ca == *cb {
                prev
            } else {
                1 + prev.min(row[j]).min(cur)
            };
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "\
id: tiny
title: Tiny
lab: ../../tests/labs/seed000-hello-world.yaml
steps:
  - id: one
    title: One
    text: |
      Press **Play**.
    playTo: 2m
    exercise:
      task: Run it.
      edits:
        - find: \"replicas: 1\"
          replace: \"replicas: 2\"
      goals:
        - nothingPending: true
        - running: {workload: Deployment/web, atLeast: 2}
        - poolNodes: {pool: default, min: 1}
        - limitAtMost: {pool: default, resource: cpu, limit: \"8\"}
        - limitAtMost: {pool: default, resource: memory, limit: 1Gi}
        - costBelow: \"$0.08/h\"
        - costBelow: 90000
      judged: anyInstant
";

    #[test]
    fn a_minimal_lesson_reads_with_every_goal_kind() {
        let l = read("l/lesson.yaml", MINIMAL).expect("reads");
        assert_eq!(l.id, "tiny");
        assert_eq!(
            l.lab.source,
            LabSource::File("../../tests/labs/seed000-hello-world.yaml".into())
        );
        let step = &l.steps[0];
        assert_eq!(step.text, "Press **Play**.\n");
        assert_eq!(step.play_to, Some(120_000));
        let ex = step.exercise.as_ref().expect("an exercise");
        assert_eq!(ex.judged, Judged::AnyInstant);
        assert_eq!(ex.edits[0].find, "replicas: 1");
        assert_eq!(
            ex.goals,
            vec![
                Goal::NothingPending,
                Goal::Running {
                    workload: "Deployment/web".into(),
                    at_least: 2
                },
                Goal::PoolNodes {
                    pool: "default".into(),
                    min: 1,
                    max: usize::MAX
                },
                Goal::LimitAtMost {
                    pool: "default".into(),
                    resource: "cpu".into(),
                    limit: 8_000
                },
                Goal::LimitAtMost {
                    pool: "default".into(),
                    resource: "memory".into(),
                    limit: 1 << 30
                },
                Goal::CostBelow(80_000),
                Goal::CostBelow(90_000),
            ]
        );
    }

    #[test]
    fn a_bad_field_is_located_with_its_path_and_a_suggestion() {
        let text = MINIMAL.replace("    playTo: 2m\n", "    playTo: soon\n    titel: x\n");
        let problems = read("l/lesson.yaml", &text).unwrap_err();
        let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(problems.len(), 2, "{shown:#?}");
        assert_eq!(
            (
                problems[0].line,
                problems[0].column,
                problems[0].path.as_str()
            ),
            (9, 13, "steps[0].playTo"),
            "{shown:#?}"
        );
        assert!(
            shown[0].contains("\"soon\" is not a valid duration"),
            "{shown:#?}"
        );
        assert_eq!((problems[1].line, problems[1].column), (10, 5));
        assert!(shown[1].contains("did you mean `title`?"), "{shown:#?}");
    }

    #[test]
    fn missing_and_mistyped_fields_each_say_what_to_write() {
        let problems = read("f", "id: Bad Id\nsteps: []\n").unwrap_err();
        let codes: Vec<(usize, &str)> = problems
            .iter()
            .map(|p| (p.line, p.message.as_str()))
            .collect();
        assert!(codes.contains(&(1, "\"Bad Id\" is not an id")), "{codes:?}");
        assert!(
            codes.iter().any(|(_, m)| m.contains("`title` is missing")),
            "{codes:?}"
        );
        assert!(
            codes.iter().any(|(_, m)| m.contains("`lab` is missing")),
            "{codes:?}"
        );
        assert!(
            codes
                .iter()
                .any(|(l, m)| *l == 2 && m.contains("at least one step"))
        );
        let yaml = read("f", "id: [\n").unwrap_err();
        assert_eq!(yaml[0].code, Code::Yaml);
    }

    #[test]
    fn goals_refuse_what_they_cannot_judge() {
        for (goal, says) in [
            ("nothingPending: false", "takes `true`"),
            ("running: {workload: web}", "does not name a workload"),
            ("poolNodes: {pool: p, min: 3, max: 1}", "more than max"),
            (
                "limitAtMost: {pool: p, resource: cpu, limit: lots}",
                "not an amount of cpu",
            ),
            (
                "limitAtMost: {pool: p, resource: bananas, limit: 1}",
                "no gauge",
            ),
            ("costBelow: 0.08", "not a cost per hour"),
            ("costBelow: $1.2345678", "not a cost per hour"),
            ("cheap: true", "not a field of a goal"),
        ] {
            let text = MINIMAL.replace("- nothingPending: true", &format!("- {goal}"));
            let problems = read("f", &text).unwrap_err();
            assert!(
                problems
                    .iter()
                    .any(|p| p.message.contains(says) && p.line == 16),
                "{goal}: {problems:#?}"
            );
        }
    }

    /// lessons/lesson.schema.json names the fields this reader reads, no more, no fewer.
    #[test]
    fn the_schema_has_the_readers_fields() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../lessons/lesson.schema.json"))
                .expect("the schema is JSON");
        let keys = |v: &serde_json::Value| -> Vec<String> {
            let mut k: Vec<String> = v["properties"]
                .as_object()
                .expect("properties")
                .keys()
                .cloned()
                .collect();
            k.sort();
            k
        };
        let sorted = |fields: &[&str]| -> Vec<String> {
            let mut f: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
            f.sort();
            f
        };
        let defs = &schema["$defs"];
        assert_eq!(keys(&schema), sorted(LESSON_FIELDS));
        assert_eq!(keys(&defs["step"]), sorted(STEP_FIELDS));
        assert_eq!(keys(&defs["lab"]["oneOf"][1]), sorted(LAB_FIELDS));
        assert_eq!(keys(&defs["edit"]), sorted(EDIT_FIELDS));
        assert_eq!(keys(&defs["exercise"]), sorted(EXERCISE_FIELDS));
        assert_eq!(keys(&defs["goal"]), sorted(GOALS));
    }

    #[test]
    fn dollars_read_to_micro_dollars() {
        assert_eq!(dollars_per_hour("$0.10/h"), Some(100_000));
        assert_eq!(dollars_per_hour("$1/hour"), Some(1_000_000));
        assert_eq!(dollars_per_hour("$.5"), Some(500_000));
        assert_eq!(dollars_per_hour("0.10"), None);
        assert_eq!(dollars_per_hour("$0"), None);
    }

    #[test]
    fn inline_labs_and_repeated_keys() {
        let text = "id: i\ntitle: T\nlab:\n  name: Mine\n  inline: |\n    apiVersion: v1\n\
                    steps:\n  - {id: a, title: A, text: x}\n  - {id: a, title: B, text: y}\n";
        let problems = read("f", text).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(problems[0].message.contains("also step 1's"));
        let ok = read("f", &text.replace("{id: a, title: B", "{id: b, title: B")).unwrap();
        assert_eq!(
            ok.lab.source,
            LabSource::Inline {
                text: "apiVersion: v1\n".into(),
                first_line: 6
            }
        );
        assert_eq!(ok.lab.name.as_deref(), Some("Mine"));
        let twice = read("f", "id: a\nid: b\n").unwrap_err();
        assert!(
            twice
                .iter()
                .any(|p| p.line == 2 && p.message.contains("written twice")),
            "{twice:#?}"
        );
    }
}

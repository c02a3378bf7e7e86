//! `karpenter.sh/v1beta1` and `karpenter.k8s.aws/v1beta1` to v1, as text edits.
//!
//! The migration rewrites only what v1 changed (`K@HEAD:designs/v1-api.md`, the v1 upgrade
//! guide; `karpenter-semantics.md` §1.4) and leaves every other byte of the input as it was:
//! comments, key order, quoting and the documents that need no change. It works on lines,
//! guided by the positions of the parsed tree, so it handles block-style YAML (what
//! Kubernetes manifests are written in); a part it cannot rewrite in place (a flow-style
//! `{...}` block that has to gain or lose a key) is left alone and reported as a manual change.
//!
//! What changes:
//! - NodePool: `apiVersion`; `spec.disruption.expireAfter` moves to
//!   `spec.template.spec.expireAfter`; `WhenUnderutilized` becomes `WhenEmptyOrUnderutilized`;
//!   `consolidateAfter: 0s` is added to a `disruption` block that leaves it out (v1 requires it
//!   inside a written block, and 0s is what v1beta1 did); a NodePool without a `disruption`
//!   block gets none, since v1's CRD defaults the omitted block to `{consolidateAfter: 0s}`
//!   with `WhenEmptyOrUnderutilized` and a 10 % budget, which is v1beta1's default behaviour
//!   (from v1.1.0, and v1.0.4 of the AWS chart; before that an omitted block left
//!   consolidation off); `nodeClassRef` gains `group` (from its `apiVersion`) and `kind`;
//!   `spec.template.spec.kubelet` moves to the referenced EC2NodeClass;
//!   `spec.template.spec.resources` (a dead field) goes.
//! - EC2NodeClass: `apiVersion`; an `amiFamily` without `amiSelectorTerms` becomes an
//!   `amiSelectorTerms` alias (`AL2023` → `al2023@latest`); it receives the `kubelet` of the
//!   NodePools that use it. When those NodePools set different kubelets, v1 needs one
//!   EC2NodeClass per kubelet configuration: the first keeps the class, and each other one gets
//!   a copy of it (`<class>-<nodepool>`, right after it) that its NodePools now refer to.

use std::collections::BTreeMap;

use crate::document;
use crate::yaml::{self, Node, Pos, Value};

/// The result of [`migrate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Migration {
    /// The input with every v1beta1 NodePool and EC2NodeClass rewritten as v1.
    pub text: String,
    /// What changed, in input order, and what needs a person.
    pub changes: Vec<Change>,
}

impl Migration {
    /// Whether anything was rewritten.
    pub fn changed(&self) -> bool {
        self.changes.iter().any(|c| !c.manual)
    }
}

/// One change the migration made (or could not make).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// 0-based index of the document among the non-empty documents.
    pub document: usize,
    /// `Kind/name` of the object.
    pub object: String,
    /// 1-based line of the input the change concerns.
    pub line: usize,
    pub message: String,
    /// The migration could not do it: the message says what to do by hand.
    pub manual: bool,
}

/// Line edits over the whole input.
#[derive(Default)]
struct LineEdit {
    replace: Option<String>,
    delete: bool,
    before: Vec<String>,
    after: Vec<String>,
}

struct Editor<'t> {
    lines: Vec<&'t str>,
    edits: BTreeMap<usize, LineEdit>,
}

impl<'t> Editor<'t> {
    fn new(text: &'t str) -> Editor<'t> {
        Editor {
            lines: text.split_inclusive('\n').collect(),
            edits: BTreeMap::new(),
        }
    }

    /// The line's text without its line ending.
    fn line(&self, i: usize) -> &'t str {
        self.lines
            .get(i)
            .map_or("", |l| l.trim_end_matches(['\n', '\r']))
    }

    fn ending(&self, i: usize) -> &'t str {
        let l = self.lines.get(i).copied().unwrap_or("");
        &l[l.trim_end_matches(['\n', '\r']).len()..]
    }

    fn edit(&mut self, i: usize) -> &mut LineEdit {
        self.edits.entry(i).or_default()
    }

    fn current(&self, i: usize) -> String {
        self.edits
            .get(&i)
            .and_then(|e| e.replace.clone())
            .unwrap_or_else(|| self.line(i).to_string())
    }

    /// Replaces the first `from` at or after character column `col` (1-based) of line `i`.
    fn replace_in(&mut self, i: usize, col: usize, from: &str, to: &str) -> bool {
        let text = self.current(i);
        let start = text
            .char_indices()
            .nth(col.saturating_sub(1))
            .map_or(text.len(), |(b, _)| b);
        let Some(at) = text[start..].find(from) else {
            return false;
        };
        let at = start + at;
        let new = format!("{}{}{}", &text[..at], to, &text[at + from.len()..]);
        self.edit(i).replace = Some(new);
        true
    }

    /// The exclusive end of the block that starts with a key on line `i` indented by
    /// `indent`: the next line with content at that indentation or less (comment and blank
    /// lines between stay outside the block).
    fn block_end(&self, i: usize, indent: usize) -> usize {
        let mut end = i + 1;
        let mut j = i + 1;
        while j < self.lines.len() {
            let l = self.line(j);
            let t = l.trim_start();
            if t.is_empty() || t.starts_with('#') {
                j += 1;
                continue;
            }
            if t == "---" || t.starts_with("--- ") || t == "..." {
                break;
            }
            if indent_of(l) <= indent {
                break;
            }
            j += 1;
            end = j;
        }
        end
    }

    fn delete_lines(&mut self, from: usize, to: usize) {
        for i in from..to {
            self.edit(i).delete = true;
        }
    }

    fn finish(self) -> String {
        self.render(0, self.lines.len())
    }

    /// Lines `from..to` with the edits made so far.
    fn render(&self, from: usize, to: usize) -> String {
        let mut out = String::new();
        for (i, raw) in self.lines.iter().enumerate().take(to).skip(from) {
            let ending = match self.ending(i) {
                "" => "\n",
                e => e,
            };
            let Some(e) = self.edits.get(&i) else {
                out.push_str(raw);
                continue;
            };
            for l in &e.before {
                out.push_str(l);
                out.push_str(ending);
            }
            if !e.delete {
                match &e.replace {
                    Some(r) => {
                        out.push_str(r);
                        out.push_str(self.ending(i));
                    }
                    None => out.push_str(raw),
                }
            }
            if !e.after.is_empty() && !raw.ends_with('\n') && !e.delete {
                out.push_str(ending);
            }
            for (k, l) in e.after.iter().enumerate() {
                out.push_str(l);
                if k + 1 < e.after.len() || raw.ends_with('\n') {
                    out.push_str(ending);
                }
            }
        }
        out
    }
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A mapping's entry by key.
fn entry<'n>(map: &'n Node, key: &str) -> Option<(&'n Node, &'n Node)> {
    match &map.value {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| k.key_text() == key)
            .map(|(k, v)| (k, v)),
        _ => None,
    }
}

fn get<'n>(map: &'n Node, key: &str) -> Option<&'n Node> {
    entry(map, key).map(|(_, v)| v)
}

fn text_of(node: &Node) -> Option<String> {
    node.scalar_text()
}

/// A value written on its key's line as a flow collection (`{...}` or `[...]`).
fn is_flow(key: &Node, value: &Node) -> bool {
    matches!(value.value, Value::Map(_) | Value::Seq(_)) && value.pos.line == key.pos.line
}

/// The indentation of a block mapping's keys (from its first key), if it is one.
fn child_indent(map: &Node, key_line_of_parent: usize) -> Option<usize> {
    match &map.value {
        Value::Map(entries) => entries
            .first()
            .filter(|(k, _)| k.pos.line > key_line_of_parent)
            .map(|(k, _)| k.pos.col - 1),
        _ => None,
    }
}

/// The `# comment` at the end of a line, with its leading space, if there is one outside
/// quotes.
fn trailing_comment(line: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let bytes = line.as_bytes();
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && i > 0 && bytes[i - 1] == b' ' => {
                let start = line[..i].trim_end().len();
                return &line[start..];
            }
            _ => {}
        }
    }
    ""
}

/// A v1beta1 `amiFamily` as a v1 alias family.
fn alias_family(family: &str) -> Option<&'static str> {
    match family {
        "AL2" => Some("al2"),
        "AL2023" => Some("al2023"),
        "Bottlerocket" => Some("bottlerocket"),
        "Windows2019" => Some("windows2019"),
        "Windows2022" => Some("windows2022"),
        _ => None,
    }
}

struct Doc {
    index: usize,
    /// 1-based input lines of the first and last line holding content.
    first_line: usize,
    last_line: usize,
    root: Node,
    kind: String,
    api_version: String,
    name: String,
}

impl Doc {
    fn label(&self) -> String {
        format!("{}/{}", self.kind, self.name)
    }
}

/// A NodePool's `kubelet` block on its way to the EC2NodeClass the NodePool refers to.
struct KubeletSource {
    /// The block with the `kubelet:` key's indentation taken off.
    block: Vec<String>,
    /// `NodePool/<name>`, and the bare name.
    pool: String,
    pool_name: String,
    /// The 1-based line of the NodePool's `kubelet:` key.
    line: usize,
    /// Where the NodePool's `nodeClassRef.name` value is, to point it at a copy of the class.
    class_name_at: Option<Pos>,
}

/// Rewrites every v1beta1 NodePool and EC2NodeClass of `text` as v1; see the module
/// documentation. Documents that do not parse, and every other document, are left as they
/// are.
pub fn migrate(text: &str) -> Migration {
    let mut docs = Vec::new();
    for piece in document::split(text) {
        let Ok(parsed) = yaml::parse(&piece.text, piece.line_offset) else {
            continue;
        };
        let root = parsed.root;
        let kind = get(&root, "kind").and_then(text_of).unwrap_or_default();
        let api_version = get(&root, "apiVersion")
            .and_then(text_of)
            .unwrap_or_default();
        let name = get(&root, "metadata")
            .and_then(|m| get(m, "name"))
            .and_then(text_of)
            .unwrap_or_default();
        docs.push(Doc {
            index: piece.index,
            first_line: piece.first_content_line,
            last_line: piece.last_content_line,
            root,
            kind,
            api_version,
            name,
        });
    }
    let mut ed = Editor::new(text.strip_prefix('\u{FEFF}').unwrap_or(text));
    let bom = if text.starts_with('\u{FEFF}') {
        "\u{FEFF}"
    } else {
        ""
    };
    let mut changes = Vec::new();
    // EC2NodeClass name -> the kubelet blocks of the NodePools that refer to it.
    let mut kubelets: BTreeMap<String, Vec<KubeletSource>> = BTreeMap::new();
    let names: Vec<String> = docs
        .iter()
        .filter(|d| d.kind == "EC2NodeClass")
        .map(|d| d.name.clone())
        .collect();
    for doc in docs
        .iter()
        .filter(|d| d.kind == "NodePool" && d.api_version == "karpenter.sh/v1beta1")
    {
        migrate_node_pool(&mut ed, doc, &mut changes, &mut kubelets);
    }
    for doc in docs.iter().filter(|d| d.kind == "EC2NodeClass") {
        let v1beta1 = doc.api_version == "karpenter.k8s.aws/v1beta1";
        let incoming = kubelets.remove(&doc.name).unwrap_or_default();
        if v1beta1 || !incoming.is_empty() {
            migrate_node_class(&mut ed, doc, v1beta1, incoming, &names, &mut changes);
        }
    }
    for (class, sources) in kubelets {
        for KubeletSource { pool, line, .. } in sources {
            changes.push(Change {
                document: 0,
                object: pool.clone(),
                line,
                message: format!(
                    "the kubelet block moved to the EC2NodeClass in v1, and EC2NodeClass \
                     \"{class}\" is not in this file: add it to that EC2NodeClass's spec by hand"
                ),
                manual: true,
            });
        }
    }
    changes.sort_by_key(|c| (c.line, c.manual));
    Migration {
        text: format!("{bom}{}", ed.finish()),
        changes,
    }
}

fn change(changes: &mut Vec<Change>, doc: &Doc, line: usize, message: impl Into<String>) {
    changes.push(Change {
        document: doc.index,
        object: doc.label(),
        line,
        message: message.into(),
        manual: false,
    });
}

fn manual(changes: &mut Vec<Change>, doc: &Doc, line: usize, message: impl Into<String>) {
    changes.push(Change {
        document: doc.index,
        object: doc.label(),
        line,
        message: message.into(),
        manual: true,
    });
}

fn migrate_node_pool(
    ed: &mut Editor<'_>,
    doc: &Doc,
    changes: &mut Vec<Change>,
    kubelets: &mut BTreeMap<String, Vec<KubeletSource>>,
) {
    let root = &doc.root;
    if let Some(v) = get(root, "apiVersion") {
        ed.replace_in(
            v.pos.line - 1,
            v.pos.col,
            "karpenter.sh/v1beta1",
            "karpenter.sh/v1",
        );
        change(
            changes,
            doc,
            v.pos.line,
            "apiVersion karpenter.sh/v1beta1 → karpenter.sh/v1",
        );
    }
    let Some((_, spec)) = entry(root, "spec") else {
        return;
    };
    let template = get(spec, "template");
    let tspec_entry = template.and_then(|t| entry(t, "spec"));
    // `disruption: null` is an omitted block (the API server prunes the null).
    let disruption = entry(spec, "disruption").filter(|(_, d)| !d.is_null());

    // expireAfter moves from the disruption block into the template.
    if let Some((dk, d)) = disruption
        && let Some((ek, ev)) = entry(d, "expireAfter")
    {
        let value = ed
            .line(ev.pos.line - 1)
            .chars()
            .skip(ev.pos.col - 1)
            .collect::<String>();
        let value = value
            .trim_end_matches(trailing_comment(&value))
            .trim()
            .to_string();
        match tspec_entry {
            Some((tk, tspec))
                if !is_flow(dk, d) && !is_flow(tk, tspec) && ev.pos.line == ek.pos.line =>
            {
                let indent = child_indent(tspec, tk.pos.line).unwrap_or(tk.pos.col - 1 + 2);
                let line = ek.pos.line - 1;
                let end = ed.block_end(line, ek.pos.col - 1);
                ed.delete_lines(line, end);
                let tend = ed.block_end(tk.pos.line - 1, tk.pos.col - 1);
                ed.edit(tend - 1)
                    .after
                    .push(format!("{}expireAfter: {value}", " ".repeat(indent)));
                change(
                    changes,
                    doc,
                    ek.pos.line,
                    format!(
                        "spec.disruption.expireAfter moved to spec.template.spec.expireAfter \
                         ({value}); in v1 expiry is forceful and changing it drifts nodes"
                    ),
                );
            }
            _ => manual(
                changes,
                doc,
                ek.pos.line,
                format!(
                    "move spec.disruption.expireAfter ({value}) to spec.template.spec.expireAfter"
                ),
            ),
        }
    }

    // Policy names, and the consolidateAfter v1 requires in a written block. An omitted block
    // stays omitted: v1 defaults it to what v1beta1 did.
    if let Some((dk, d)) = disruption {
        let policy = entry(d, "consolidationPolicy");
        if let Some((_, pv)) = policy
            && text_of(pv).as_deref() == Some("WhenUnderutilized")
        {
            ed.replace_in(
                pv.pos.line - 1,
                pv.pos.col,
                "WhenUnderutilized",
                "WhenEmptyOrUnderutilized",
            );
            change(
                changes,
                doc,
                pv.pos.line,
                "consolidationPolicy WhenUnderutilized → WhenEmptyOrUnderutilized",
            );
        }
        if get(d, "consolidateAfter").is_none() {
            match (policy, is_flow(dk, d)) {
                (Some((pk, _)), false) => {
                    let line = pk.pos.line - 1;
                    let end = ed.block_end(line, pk.pos.col - 1);
                    ed.edit(end - 1).after.push(format!(
                        "{}consolidateAfter: 0s",
                        " ".repeat(pk.pos.col - 1)
                    ));
                    change(
                        changes,
                        doc,
                        pk.pos.line,
                        "consolidateAfter: 0s added: v1 requires it in a written disruption block, \
                         and 0s is what v1beta1 did",
                    );
                }
                (None, false) => {
                    let indent = child_indent(d, dk.pos.line).unwrap_or(dk.pos.col - 1 + 2);
                    ed.edit(dk.pos.line - 1)
                        .after
                        .push(format!("{}consolidateAfter: 0s", " ".repeat(indent)));
                    change(
                        changes,
                        doc,
                        dk.pos.line,
                        "consolidateAfter: 0s added: v1 requires it in a written disruption block, \
                         and 0s is what v1beta1 did",
                    );
                }
                (_, true) => manual(
                    changes,
                    doc,
                    dk.pos.line,
                    "add consolidateAfter: 0s to spec.disruption (v1 requires it in \
                     a written disruption block)",
                ),
            }
        }
    }

    let Some((_, tspec)) = tspec_entry else {
        return;
    };
    // nodeClassRef: group and kind are required in v1.
    if let Some((rk, rv)) = entry(tspec, "nodeClassRef") {
        let class = get(rv, "name").and_then(text_of).unwrap_or_default();
        let group = get(rv, "apiVersion")
            .and_then(text_of)
            .map(|a| a.split('/').next().unwrap_or_default().to_string());
        let group = group
            .filter(|g| !g.is_empty())
            .unwrap_or_else(|| "karpenter.k8s.aws".into());
        let kind = get(rv, "kind")
            .and_then(text_of)
            .unwrap_or_else(|| "EC2NodeClass".into());
        if is_flow(rk, rv) {
            let line = ed.current(rk.pos.line - 1);
            let open = line.char_indices().nth(rv.pos.col - 1).map(|(b, _)| b);
            let close = open.and_then(|o| line[o..].find('}').map(|c| o + c));
            match (open, close) {
                (Some(o), Some(c)) if line[o..].starts_with('{') => {
                    let new = format!(
                        "{}{{group: {group}, kind: {kind}, name: {class}}}{}",
                        &line[..o],
                        &line[c + 1..]
                    );
                    ed.edit(rk.pos.line - 1).replace = Some(new);
                    change(
                        changes,
                        doc,
                        rk.pos.line,
                        "nodeClassRef gains group and kind (required in v1)",
                    );
                }
                _ => manual(
                    changes,
                    doc,
                    rk.pos.line,
                    "nodeClassRef needs group: karpenter.k8s.aws and kind: EC2NodeClass in v1",
                ),
            }
        } else if let Some(indent) = child_indent(rv, rk.pos.line) {
            let pad = " ".repeat(indent);
            let first = match &rv.value {
                Value::Map(entries) => entries.first().map(|(k, _)| k.pos.line - 1),
                _ => None,
            };
            if let Some((ak, _)) = entry(rv, "apiVersion") {
                let old = ed.line(ak.pos.line - 1);
                let comment = trailing_comment(old);
                ed.edit(ak.pos.line - 1).replace = Some(format!("{pad}group: {group}{comment}"));
            } else if let Some(first) = first {
                ed.edit(first).before.push(format!("{pad}group: {group}"));
            }
            if get(rv, "kind").is_none()
                && let Some(first) = first
            {
                ed.edit(first).before.push(format!("{pad}kind: {kind}"));
            }
            change(
                changes,
                doc,
                rk.pos.line,
                "nodeClassRef: group and kind added (required in v1), apiVersion dropped",
            );
        }
    }
    // kubelet moves to the EC2NodeClass.
    if let Some((kk, kv)) = entry(tspec, "kubelet") {
        let name_node = get(tspec, "nodeClassRef").and_then(|r| get(r, "name"));
        let class = name_node.and_then(text_of).unwrap_or_default();
        let source = |block| KubeletSource {
            block,
            pool: doc.label(),
            pool_name: doc.name.clone(),
            line: kk.pos.line,
            class_name_at: name_node.map(|n| n.pos),
        };
        if is_flow(kk, kv) || kv.pos.line == kk.pos.line {
            let rest: String = ed
                .line(kk.pos.line - 1)
                .chars()
                .skip(kk.pos.col - 1)
                .collect();
            ed.edit(kk.pos.line - 1).delete = true;
            kubelets
                .entry(class)
                .or_default()
                .push(source(vec![rest.trim_end().to_string()]));
        } else {
            let start = kk.pos.line - 1;
            let end = ed.block_end(start, kk.pos.col - 1);
            let base = kk.pos.col - 1;
            // The block with the key's indentation taken off, so it can go at any depth.
            let block: Vec<String> = (start..end)
                .map(|i| {
                    ed.line(i)
                        .get(base.min(indent_of(ed.line(i)))..)
                        .unwrap_or("")
                        .to_string()
                })
                .collect();
            ed.delete_lines(start, end);
            kubelets.entry(class).or_default().push(source(block));
        }
        change(
            changes,
            doc,
            kk.pos.line,
            "spec.template.spec.kubelet moved to the EC2NodeClass (v1 \
             configures the kubelet there)",
        );
    }
    if let Some((rk, _)) = entry(tspec, "resources") {
        let start = rk.pos.line - 1;
        let end = ed.block_end(start, rk.pos.col - 1);
        ed.delete_lines(start, end);
        change(
            changes,
            doc,
            rk.pos.line,
            "spec.template.spec.resources removed (v1 dropped this unused field)",
        );
    }
}

fn migrate_node_class(
    ed: &mut Editor<'_>,
    doc: &Doc,
    v1beta1: bool,
    incoming: Vec<KubeletSource>,
    names: &[String],
    changes: &mut Vec<Change>,
) {
    let root = &doc.root;
    if v1beta1 && let Some(v) = get(root, "apiVersion") {
        ed.replace_in(
            v.pos.line - 1,
            v.pos.col,
            "karpenter.k8s.aws/v1beta1",
            "karpenter.k8s.aws/v1",
        );
        change(
            changes,
            doc,
            v.pos.line,
            "apiVersion karpenter.k8s.aws/v1beta1 → karpenter.k8s.aws/v1",
        );
    }
    let Some((sk, spec)) = entry(root, "spec") else {
        return;
    };
    if v1beta1
        && let Some((fk, fv)) = entry(spec, "amiFamily")
        && get(spec, "amiSelectorTerms").is_none()
    {
        let family = text_of(fv).unwrap_or_default();
        match alias_family(&family) {
            Some(alias) if fv.pos.line == fk.pos.line => {
                let pad = " ".repeat(fk.pos.col - 1);
                let old = ed.line(fk.pos.line - 1);
                let comment = trailing_comment(old).to_string();
                let e = ed.edit(fk.pos.line - 1);
                e.replace = Some(format!("{pad}amiSelectorTerms:{comment}"));
                e.after.push(format!("{pad}  - alias: {alias}@latest"));
                change(
                    changes,
                    doc,
                    fk.pos.line,
                    format!(
                        "amiFamily: {family} → amiSelectorTerms: [{{alias: \
                         {alias}@latest}}] (v1 selects AMIs by alias; pin a version such as \
                         {alias}@v20240807 for production)"
                    ),
                );
            }
            Some(_) => manual(
                changes,
                doc,
                fk.pos.line,
                "replace amiFamily with amiSelectorTerms: [{alias: <family>@latest}]",
            ),
            None => manual(
                changes,
                doc,
                fk.pos.line,
                format!(
                    "amiFamily {family} has no v1 alias (Ubuntu was removed in v1; Custom needs \
                     amiSelectorTerms): add amiSelectorTerms by id, name or tags"
                ),
            ),
        }
    }
    if incoming.is_empty() {
        return;
    }
    // One group per distinct kubelet, in the order the NodePools come.
    let mut groups: Vec<(&Vec<String>, Vec<&KubeletSource>)> = Vec::new();
    for src in &incoming {
        match groups.iter_mut().find(|(b, _)| **b == src.block) {
            Some((_, members)) => members.push(src),
            None => groups.push((&src.block, vec![src])),
        }
    }
    let pools: Vec<String> = incoming.iter().map(|s| s.pool.clone()).collect();
    if let Some((kk, _)) = entry(spec, "kubelet") {
        manual(
            changes,
            doc,
            kk.pos.line,
            format!(
                "{} set kubelet in the NodePool and this EC2NodeClass has its own: merge them here",
                pools.join(", ")
            ),
        );
        return;
    }
    if is_flow(sk, spec) {
        manual(
            changes,
            doc,
            sk.pos.line,
            "add the NodePool's kubelet block to this EC2NodeClass's spec",
        );
        return;
    }
    let indent = child_indent(spec, sk.pos.line).unwrap_or(sk.pos.col - 1 + 2);
    let end = ed.block_end(sk.pos.line - 1, sk.pos.col - 1);
    let pad = " ".repeat(indent);
    let kubelet_lines = |block: &[String]| -> Vec<String> {
        block
            .iter()
            .map(|l| {
                if l.is_empty() {
                    l.clone()
                } else {
                    format!("{pad}{l}")
                }
            })
            .collect()
    };

    // The other kubelets each get a copy of the class, rendered with this class's edits so far
    // (before its own kubelet is added), renamed, with the kubelet at the end of its spec.
    let mut copies: Vec<String> = Vec::new();
    let mut taken: Vec<String> = names.to_vec();
    let name_at = get(&doc.root, "metadata")
        .and_then(|m| get(m, "name"))
        .map(|n| n.pos);
    for (block, members) in groups.iter().skip(1) {
        let base = format!("{}-{}", doc.name, members[0].pool_name);
        let copy_name = (1..)
            .map(|n| {
                if n == 1 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                }
            })
            .find(|c| !taken.contains(c))
            .unwrap_or(base);
        taken.push(copy_name.clone());
        let (Some(at), false) = (name_at, members.iter().any(|m| m.class_name_at.is_none())) else {
            for m in members {
                changes.push(Change {
                    document: doc.index,
                    object: m.pool.clone(),
                    line: m.line,
                    message: format!(
                        "NodePools {} give EC2NodeClass \"{}\" different kubelet \
                         settings: v1 needs one EC2NodeClass per kubelet configuration; \
                         make a copy of it for this NodePool",
                        pools.join(", "),
                        doc.name
                    ),
                    manual: true,
                });
            }
            continue;
        };
        let mut lines: Vec<String> = ed
            .render(doc.first_line - 1, end)
            .lines()
            .map(str::to_string)
            .collect();
        let rel = at.line - doc.first_line;
        if let Some(l) = lines.get_mut(rel) {
            let start = l.char_indices().nth(at.col - 1).map_or(l.len(), |(b, _)| b);
            if let Some(found) = l[start..].find(doc.name.as_str()) {
                l.replace_range(start + found..start + found + doc.name.len(), &copy_name);
            }
        }
        lines.extend(kubelet_lines(block));
        let after_spec = ed.render(end, doc.last_line);
        copies.push("---".into());
        copies.extend(lines);
        copies.extend(after_spec.lines().map(str::to_string));
        for m in members {
            if let Some(p) = m.class_name_at {
                ed.replace_in(p.line - 1, p.col, &doc.name, &copy_name);
            }
            changes.push(Change {
                document: doc.index,
                object: m.pool.clone(),
                line: m.line,
                message: format!(
                    "nodeClassRef now names EC2NodeClass \"{copy_name}\", a copy of \"{}\" with \
                     this NodePool's kubelet (v1 needs one EC2NodeClass per kubelet configuration)",
                    doc.name
                ),
                manual: false,
            });
        }
        let who: Vec<&str> = members.iter().map(|m| m.pool.as_str()).collect();
        change(
            changes,
            doc,
            sk.pos.line,
            format!(
                "copied as EC2NodeClass \"{copy_name}\" for {}, whose kubelet differs",
                who.join(", ")
            ),
        );
    }
    let (first_block, first_members) = &groups[0];
    ed.edit(end - 1).after.extend(kubelet_lines(first_block));
    if !copies.is_empty() {
        ed.edit(doc.last_line - 1).after.extend(copies);
    }
    let who: Vec<&str> = first_members.iter().map(|m| m.pool.as_str()).collect();
    change(
        changes,
        doc,
        sk.pos.line,
        format!(
            "kubelet received from {} (v1 configures the kubelet in the EC2NodeClass)",
            who.join(", ")
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_000: &str = r#"apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata:
  name: default
spec:
  # Amazon Linux 2023 AMI
  amiFamily: AL2023

  role: "KarpenterNodeRole-demo"  # change me
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery: "demo"
  securityGroupSelectorTerms:
    - tags:
        karpenter.sh/discovery: "demo"
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: hello-world
spec:
  template:
    metadata:
      labels:
        app: hello-world
    spec:
      nodeClassRef:
        name: default
      requirements:
        # amd64 only
        - key: kubernetes.io/arch
          operator: In
          values: ["amd64"]
  # unused nodes
  disruption:
    consolidationPolicy: WhenUnderutilized
    consolidateAfter: 30s
"#;

    #[test]
    fn the_seed_manifests_migrate_line_by_line() {
        let m = migrate(SEED_000);
        let expected = r#"apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  # Amazon Linux 2023 AMI
  amiSelectorTerms:
    - alias: al2023@latest

  role: "KarpenterNodeRole-demo"  # change me
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery: "demo"
  securityGroupSelectorTerms:
    - tags:
        karpenter.sh/discovery: "demo"
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: hello-world
spec:
  template:
    metadata:
      labels:
        app: hello-world
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        # amd64 only
        - key: kubernetes.io/arch
          operator: In
          values: ["amd64"]
  # unused nodes
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 30s
"#;
        assert_eq!(m.text, expected);
        assert!(m.changed());
        assert!(m.changes.iter().all(|c| !c.manual), "{:?}", m.changes);
    }

    #[test]
    fn expire_after_moves_and_consolidate_after_is_added_and_kubelet_moves_to_the_class() {
        let text = "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: p}\n\
                    spec:\n  template:\n    spec:\n      nodeClassRef:\
                    \n        apiVersion: karpenter.k8s.aws/v1beta1\n        kind: EC2NodeClass\
                    \n        name: c\n      kubelet:\n        maxPods: 20\n  disruption:\
                    \n    consolidationPolicy: WhenUnderutilized\n    expireAfter: 48h\n---\n\
                    apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\n\
                    metadata: {name: c}\nspec:\n  amiFamily: Bottlerocket\n  role: r\n";
        let m = migrate(text);
        let expected = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\n\
                        spec:\n  template:\n    spec:\n      nodeClassRef:\
                        \n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\
                        \n        name: c\n      expireAfter: 48h\n  disruption:\
                        \n    consolidationPolicy: WhenEmptyOrUnderutilized\
                        \n    consolidateAfter: 0s\n---\napiVersion: karpenter.k8s.aws/v1\n\
                        kind: EC2NodeClass\nmetadata: {name: c}\n\
                        spec:\n  amiSelectorTerms:\n    - alias: bottlerocket@latest\
                        \n  role: r\n  kubelet:\n    maxPods: 20\n";
        assert_eq!(m.text, expected, "{:?}", m.changes);
    }

    #[test]
    fn a_node_pool_without_a_disruption_block_gets_none() {
        // v1 defaults the omitted block to consolidateAfter: 0s, WhenEmptyOrUnderutilized and a
        // 10% budget: what v1beta1 did without one. A null block is an omitted one.
        for tail in [
            "",
            "  disruption: null\n",
            "  disruption:\n  limits:\n    cpu: 10\n",
        ] {
            let text = format!(
                "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: p\n\
                 spec:\n  template:\n    spec:\n      nodeClassRef:\n        name: c\
                 \n      requirements: []\n{tail}"
            );
            let m = migrate(&text);
            let expected = format!(
                "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: p\n\
                 spec:\n  template:\n    spec:\n      nodeClassRef:\
                 \n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: c\
                 \n      requirements: []\n{tail}"
            );
            assert_eq!(m.text, expected, "{tail:?}: {:?}", m.changes);
            assert!(
                m.changes.iter().all(|c| !c.message.contains("disruption")
                    && !c.message.contains("consolidateAfter")),
                "{:?}",
                m.changes
            );
            let loaded = crate::load(&m.text);
            assert!(
                loaded
                    .diagnostics
                    .iter()
                    .all(|d| d.code != crate::Code::MissingField),
                "{:?}",
                loaded.diagnostics
            );
        }
    }

    #[test]
    fn a_written_disruption_block_without_consolidate_after_gets_0s() {
        let head = "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: p\n\
                    spec:\n  template:\n    spec:\n      nodeClassRef: {name: c}\
                    \n      requirements: []\n";
        let m = migrate(&format!(
            "{head}  disruption:\n    budgets:\n      - nodes: \"1\"\n"
        ));
        assert!(
            m.text.ends_with(
                "  disruption:\n    consolidateAfter: 0s\n    budgets:\n      - nodes: \"1\"\n"
            ),
            "{}",
            m.text
        );
        assert!(
            m.changes.iter().any(|c| c.line == 10
                && c.message
                    == "consolidateAfter: 0s added: v1 requires it in a written disruption block, \
                        and 0s is what v1beta1 did"),
            "{:?}",
            m.changes
        );
        let m = migrate(&format!(
            "{head}  disruption: {{consolidationPolicy: WhenEmpty}}\n"
        ));
        assert!(
            m.changes
                .iter()
                .any(|c| c.manual && c.message.contains("add consolidateAfter: 0s")),
            "a flow block needs a person: {:?}",
            m.changes
        );
    }

    #[test]
    fn everything_else_is_left_byte_for_byte() {
        let text = "# a comment\napiVersion: apps/v1\nkind: Deployment\n\
                    metadata: {name: web}   # keep\nspec:\n  replicas: 2\r\n---\n\
                    apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: v1}\n\
                    spec: {template: {spec: {nodeClassRef: {group: karpenter.k8s.aws, kind: \
                    EC2NodeClass, name: d}}}, disruption: {consolidateAfter: 0s}}\n";
        let m = migrate(text);
        assert_eq!(m.text, text);
        assert!(!m.changed());
    }

    #[test]
    fn a_flow_style_reference_is_rewritten_in_place() {
        let text = "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: p\n\
                    spec:\n  template:\n    spec:\n      nodeClassRef: {name: default}\
                    \n  disruption:\n    consolidationPolicy: WhenEmpty\
                    \n    consolidateAfter: 1m\n";
        let m = migrate(text);
        assert!(
            m.text.contains(
                "      nodeClassRef: {group: karpenter.k8s.aws, kind: \
                 EC2NodeClass, name: default}\n"
            ),
            "{}",
            m.text
        );
        assert!(
            m.text
                .contains("consolidationPolicy: WhenEmpty\n    consolidateAfter: 1m\n")
        );
    }

    #[test]
    fn what_cannot_be_migrated_is_reported() {
        let text = "apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\n\
                    metadata: {name: u}\nspec:\n  amiFamily: Ubuntu\n  role: r\n";
        let m = migrate(text);
        assert!(m.text.starts_with("apiVersion: karpenter.k8s.aws/v1\n"));
        assert!(m.text.contains("amiFamily: Ubuntu"), "left for a person");
        assert!(
            m.changes
                .iter()
                .any(|c| c.manual && c.message.contains("Ubuntu was removed")),
            "{:?}",
            m.changes
        );
    }
}

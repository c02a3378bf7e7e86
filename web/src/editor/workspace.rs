//! The manifests the learner edits: an ordered list of YAML documents, one tab each.
//!
//! The engine reads one multi-document stream. The page keeps the documents apart (so each
//! has its own tab and undo history) and joins them with `---` to read them, remembering
//! where each starts so a diagnostic's line in the stream maps back to a tab and a line in it.

use std::borrow::Cow;
use std::sync::Arc;

use kpg_core::model::Scenario;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doc {
    /// Stable across edits and reordering, so tabs keep their identity.
    pub id: u32,
    pub text: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Workspace {
    pub docs: Vec<Doc>,
    pub next_id: u32,
}

/// Where a tab's text sits in the joined stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocRange {
    /// 1-based line of the document's first line in the stream.
    pub first_line: usize,
    pub lines: usize,
}

impl Workspace {
    /// Cuts a YAML stream at its `---` lines into tabs (the one rule share links and file
    /// import use too: [`kpg_share::split_documents`]).
    pub fn from_stream(text: &str) -> Workspace {
        let mut ws = Workspace::default();
        for doc in kpg_share::split_documents(text) {
            ws.push(doc);
        }
        ws
    }

    /// The documents as one multi-document YAML stream, as a download holds them.
    pub fn to_stream(&self) -> String {
        let docs: Vec<String> = self.docs.iter().map(|d| d.text.clone()).collect();
        kpg_share::to_stream(&docs)
    }

    /// Appends a document and returns its id.
    pub fn push(&mut self, text: String) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.docs.push(Doc { id, text });
        id
    }

    /// Cuts document `id` at its `---` lines into a tab per document, in its place and in
    /// order (the first keeps the id), as a pasted stream is opened. Returns the number of
    /// tabs it became, or `None` when it holds one document (or none) and stays as it is.
    pub fn split(&mut self, id: u32) -> Option<usize> {
        let i = self.index_of(id)?;
        let mut parts = kpg_share::split_documents(&self.docs[i].text).into_iter();
        let first = parts.next()?;
        let rest: Vec<String> = parts.collect();
        if rest.is_empty() {
            return None;
        }
        self.docs[i].text = first;
        let tabs = 1 + rest.len();
        for (k, text) in rest.into_iter().enumerate() {
            let id = self.next_id;
            self.next_id += 1;
            self.docs.insert(i + 1 + k, Doc { id, text });
        }
        Some(tabs)
    }

    pub fn index_of(&self, id: u32) -> Option<usize> {
        self.docs.iter().position(|d| d.id == id)
    }

    /// The stream the engine reads, and each document's place in it.
    pub fn joined(&self) -> (String, Vec<DocRange>) {
        let mut out = String::new();
        let mut ranges = Vec::with_capacity(self.docs.len());
        let mut line = 1;
        for (i, doc) in self.docs.iter().enumerate() {
            if i > 0 {
                out.push_str("---\n");
                line += 1;
            }
            let body = doc.text.strip_suffix('\n').unwrap_or(&doc.text);
            let lines = body.split('\n').count();
            ranges.push(DocRange {
                first_line: line,
                lines,
            });
            out.push_str(body);
            out.push('\n');
            line += lines;
        }
        (out, ranges)
    }

    /// Moves a document one place left (`-1`) or right (`+1`); false at the ends.
    pub fn shift(&mut self, id: u32, delta: isize) -> bool {
        let Some(i) = self.index_of(id) else {
            return false;
        };
        let j = i as isize + delta;
        if j < 0 || j as usize >= self.docs.len() {
            return false;
        }
        self.docs.swap(i, j as usize);
        true
    }
}

/// Maps a 1-based stream line to (document index, 1-based line inside it). A line on a
/// separator belongs to the document after it.
pub fn locate(ranges: &[DocRange], line: usize) -> Option<(usize, usize)> {
    for (i, r) in ranges.iter().enumerate() {
        if line < r.first_line + r.lines {
            let local = line.saturating_sub(r.first_line) + 1;
            return Some((i, local.min(r.lines)));
        }
    }
    ranges.last().map(|r| (ranges.len() - 1, r.lines))
}

/// A tab's title: `Kind/name` as the reader sees it, or empty when the document has no kind
/// yet (the page shows "untitled" in the reader's language).
pub fn title(text: &str) -> String {
    kpg_manifests::document_title(text).unwrap_or_default()
}

/// One diagnostic, placed on a tab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub doc_id: u32,
    /// The tab's title when the problem was found.
    pub doc_title: String,
    /// 1-based, inside the document.
    pub line: usize,
    pub column: usize,
    pub error: bool,
    pub code: Cow<'static, str>,
    /// Who would refuse it in a real cluster (the API server, Karpenter, ...).
    pub origin: kpg_manifests::Origin,
    /// Field path (`spec.limits.cpu`), empty for the document as a whole.
    pub path: String,
    pub message: String,
    pub help: Option<String>,
    /// The message and help in Korean, where the reader has them.
    pub ko: Option<(String, Option<String>)>,
}

impl Problem {
    /// The origin's tag and what it means, in `lang`.
    pub fn origin_text(&self, lang: crate::base::i18n::Lang) -> (&'static str, &'static str) {
        let ((label, label_ko), (meaning, meaning_ko)) =
            (self.origin.label(), self.origin.meaning());
        match lang {
            crate::base::i18n::Lang::Ko => (label_ko, meaning_ko),
            _ => (label, meaning),
        }
    }

    /// The message and help to show in `lang`: Korean where there is a translation (a help the
    /// translation leaves out is specific, such as a value to type, and stays as it is).
    pub fn text(&self, lang: crate::base::i18n::Lang) -> (String, Option<String>) {
        match (&self.ko, lang) {
            (Some((message, help)), crate::base::i18n::Lang::Ko) => {
                (message.clone(), help.clone().or_else(|| self.help.clone()))
            }
            _ => (self.message.clone(), self.help.clone()),
        }
    }
}

/// The reader's verdict on the whole workspace.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The stream the engine reads.
    pub text: String,
    pub problems: Vec<Problem>,
    pub has_errors: bool,
    /// What the reader made of `text`, when it read without errors: the engine starts from
    /// this, so an edit is read once.
    pub scenario: Option<Arc<Scenario>>,
}

/// Two analyses are equal when they read the same text to the same findings; the scenario
/// is a function of the text.
impl PartialEq for Analysis {
    fn eq(&self, other: &Analysis) -> bool {
        self.text == other.text
            && self.has_errors == other.has_errors
            && self.problems == other.problems
    }
}

/// Reads the workspace as the engine would and places every diagnostic on its tab.
pub fn analyse(ws: &Workspace) -> Analysis {
    let (text, ranges) = ws.joined();
    let loaded = kpg_manifests::load(&text);
    let problems = loaded
        .diagnostics
        .iter()
        .filter_map(|d| {
            let (index, line) = locate(&ranges, d.line)?;
            let doc = &ws.docs[index];
            Some(Problem {
                doc_id: doc.id,
                doc_title: title(&doc.text),
                line,
                column: d.column,
                error: d.is_error(),
                code: d.code.as_str().into(),
                origin: d.code.origin(),
                path: d.path.clone(),
                message: d.message.clone(),
                help: d.help.clone(),
                ko: d.ko.as_ref().map(|k| (k.message.clone(), k.help.clone())),
            })
        })
        .collect();
    let has_errors = loaded.has_errors();
    Analysis {
        has_errors,
        scenario: (!has_errors).then(|| Arc::new(loaded.scenario)),
        text,
        problems,
    }
}

/// The document templates offered by "Add".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    NodePool,
    EC2NodeClass,
    Deployment,
    Pod,
    Job,
    DaemonSet,
    PodDisruptionBudget,
}

impl Template {
    pub const ALL: [Template; 7] = [
        Template::NodePool,
        Template::EC2NodeClass,
        Template::Deployment,
        Template::Pod,
        Template::Job,
        Template::DaemonSet,
        Template::PodDisruptionBudget,
    ];

    pub fn kind(self) -> &'static str {
        match self {
            Template::NodePool => "NodePool",
            Template::EC2NodeClass => "EC2NodeClass",
            Template::Deployment => "Deployment",
            Template::Pod => "Pod",
            Template::Job => "Job",
            Template::DaemonSet => "DaemonSet",
            Template::PodDisruptionBudget => "PodDisruptionBudget",
        }
    }

    /// The template's text with a name that no document in `ws` uses yet.
    pub fn text(self, ws: &Workspace) -> String {
        let base = match self {
            Template::NodePool => "default",
            Template::EC2NodeClass => "default",
            Template::Deployment => "inflate",
            Template::Pod => "nginx",
            Template::Job => "batch",
            Template::DaemonSet => "log-agent",
            Template::PodDisruptionBudget => "inflate",
        };
        let taken = |name: &str| {
            ws.docs
                .iter()
                .any(|d| title(&d.text) == format!("{}/{name}", self.kind()))
        };
        let mut name = base.to_string();
        let mut n = 2;
        while taken(&name) {
            name = format!("{base}-{n}");
            n += 1;
        }
        self.body().replace("NAME", &name)
    }

    fn body(self) -> &'static str {
        match self {
            Template::NodePool => include_str!("../templates/nodepool.yaml"),
            Template::EC2NodeClass => include_str!("../templates/ec2nodeclass.yaml"),
            Template::Deployment => include_str!("../templates/deployment.yaml"),
            Template::Pod => include_str!("../templates/pod.yaml"),
            Template::Job => include_str!("../templates/job.yaml"),
            Template::DaemonSet => include_str!("../templates/daemonset.yaml"),
            Template::PodDisruptionBudget => include_str!("../templates/pdb.yaml"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_says_who_would_refuse_it_in_both_languages() {
        let mut ws = Workspace::default();
        ws.push(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n\
             spec:\n  replicas: -1\n  selector: {matchLabels: {app: web}}\
             \n  template:\n    metadata: {labels: {app: web}}\
             \n    spec: {containers: [{name: app, image: nginx}]}\n"
                .into(),
        );
        let a = analyse(&ws);
        let p = a
            .problems
            .iter()
            .find(|p| p.code == "out-of-range")
            .expect("replicas below 0");
        assert_eq!(p.origin_text(crate::base::i18n::Lang::En).0, "API server");
        assert!(
            p.origin_text(crate::base::i18n::Lang::En)
                .1
                .contains("kubectl apply")
        );
        assert_eq!(p.origin_text(crate::base::i18n::Lang::Ko).0, "API 서버");
    }

    #[test]
    fn a_pasted_stream_becomes_a_tab_per_document_in_its_place() {
        let mut ws = Workspace::from_stream("kind: A\n---\nkind: B\n");
        let b = ws.docs[1].id;
        assert_eq!(ws.split(b), None, "one document stays one tab");
        let a = ws.docs[0].id;
        ws.docs[0].text = "kind: A\n---\n# the DaemonSet\nkind: C\n---\nkind: D\n".into();
        assert_eq!(ws.split(a), Some(3));
        let texts: Vec<&str> = ws.docs.iter().map(|d| d.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "kind: A\n",
                "# the DaemonSet\nkind: C\n",
                "kind: D\n",
                "kind: B\n"
            ],
            "in order, where the paste was, before the tab that followed it"
        );
        assert_eq!(ws.docs[0].id, a, "the first keeps its tab");
        let ids: std::collections::BTreeSet<u32> = ws.docs.iter().map(|d| d.id).collect();
        assert_eq!(ids.len(), 4, "every tab has its own id");
        assert_eq!(ws.split(12345), None);
    }

    #[test]
    fn splits_a_stream_into_tabs_and_joins_it_back() {
        let ws = Workspace::from_stream(
            "# lead\na: 1\n---\n\n---\nkind: Pod\nmetadata: {name: x}\n--- # c\nb: 2\n",
        );
        assert_eq!(ws.docs.len(), 3);
        assert_eq!(ws.docs[0].text, "# lead\na: 1\n");
        let (text, ranges) = ws.joined();
        assert_eq!(
            text,
            "# lead\na: 1\n---\nkind: Pod\nmetadata: {name: x}\n---\nb: 2\n"
        );
        assert_eq!(
            ranges,
            vec![
                DocRange {
                    first_line: 1,
                    lines: 2
                },
                DocRange {
                    first_line: 4,
                    lines: 2
                },
                DocRange {
                    first_line: 7,
                    lines: 1
                },
            ]
        );
        assert_eq!(locate(&ranges, 5), Some((1, 2)));
        assert_eq!(locate(&ranges, 7), Some((2, 1)));
        assert_eq!(
            locate(&ranges, 3),
            Some((1, 1)),
            "a separator line belongs to the next document"
        );
    }

    #[test]
    fn diagnostics_land_on_the_tab_and_line_the_user_typed() {
        let mut ws = Workspace::default();
        ws.push(Template::EC2NodeClass.text(&ws));
        ws.push(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\
             \n    image: x\n    resources:\n      requests: {cpu: 1x}\n"
                .into(),
        );
        let (text, ranges) = ws.joined();
        let loaded = kpg_manifests::load(&text);
        let err = loaded
            .errors()
            .next()
            .expect("the bad quantity is an error");
        assert_eq!(locate(&ranges, err.line), Some((1, 10)));
    }

    #[test]
    fn analysis_names_the_tab_and_line_of_a_yaml_error() {
        let mut ws = Workspace::from_stream(crate::lessons::lab("seed002-scale-out"));
        let target = ws.docs.len() - 1;
        let id = ws.docs[target].id;
        ws.docs[target].text = ws.docs[target]
            .text
            .replacen("replicas: 4", "replicas: [4", 1);
        let a = analyse(&ws);
        assert!(a.has_errors);
        let p = a.problems.iter().find(|p| p.error).unwrap();
        assert_eq!(p.doc_id, id);
        assert_eq!(p.doc_title, "Deployment/busybox");
        let expected = ws.docs[target]
            .text
            .lines()
            .position(|l| l.contains("replicas: [4"))
            .unwrap()
            + 1;
        assert!(
            p.line >= expected,
            "error at {} for a bad line {expected}",
            p.line
        );
    }

    #[test]
    fn templates_are_valid_and_named_apart() {
        let mut ws = Workspace::default();
        for t in Template::ALL {
            ws.push(t.text(&ws));
        }
        ws.push(Template::NodePool.text(&ws));
        let titles: Vec<String> = ws.docs.iter().map(|d| title(&d.text)).collect();
        assert_eq!(titles[0], "NodePool/default");
        assert_eq!(titles[7], "NodePool/default-2");
        let (text, _) = ws.joined();
        let loaded = kpg_manifests::load(&text);
        let problems: Vec<String> = loaded.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(
            problems.is_empty(),
            "templates should read cleanly: {problems:#?}"
        );
        let mut sim = kpg_core::sim::Simulation::new(loaded.scenario).unwrap();
        sim.run_to_rest(600_000);
        assert!(
            sim.pods().iter().any(|p| p.node.is_some()),
            "the templates' workloads get nodes"
        );
    }

    #[test]
    fn shift_reorders_and_stops_at_the_ends() {
        let mut ws = Workspace::from_stream("a: 1\n---\nb: 2\n");
        let first = ws.docs[0].id;
        assert!(!ws.shift(first, -1));
        assert!(ws.shift(first, 1));
        assert_eq!(ws.docs[1].id, first);
    }
}

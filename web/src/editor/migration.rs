//! "Migrate to v1": what [`kpg_manifests::migrate`] would do to the workspace, per tab, as a
//! side-by-side line diff the learner accepts or rejects.

use serde::{Deserialize, Serialize};

use crate::editor::workspace::{Workspace, locate};

/// One tab the migration changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocChange {
    /// The tab; for a document the migration adds, the id its new tab will get.
    pub doc_id: u32,
    /// For a document the migration adds (a copy of an EC2NodeClass for a NodePool whose
    /// kubelet differs), the tab it goes after.
    pub inserted_after: Option<u32>,
    pub title: String,
    pub before: String,
    pub after: String,
    pub rows: Vec<Row>,
}

/// One line of the migration's change list, placed on a tab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    pub doc_id: Option<u32>,
    /// 1-based line inside the tab (before the migration).
    pub line: usize,
    pub object: String,
    pub message: String,
    /// The migration could not do it.
    pub manual: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preview {
    pub docs: Vec<DocChange>,
    pub notes: Vec<Note>,
}

impl Preview {
    /// The workspace with every change accepted; tab ids and order stay.
    pub fn apply(&self, ws: &Workspace) -> Workspace {
        let mut out = ws.clone();
        for change in &self.docs {
            match change.inserted_after {
                None => {
                    if let Some(i) = out.index_of(change.doc_id) {
                        out.docs[i].text = change.after.clone();
                    }
                }
                Some(prev) => {
                    let at = out.index_of(prev).map_or(out.docs.len(), |i| i + 1);
                    out.docs.insert(
                        at,
                        crate::editor::workspace::Doc {
                            id: change.doc_id,
                            text: change.after.clone(),
                        },
                    );
                    out.next_id = out.next_id.max(change.doc_id + 1);
                }
            }
        }
        out
    }
}

/// A row of the side-by-side view: the old line (number, text) and the new one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub old: Option<(usize, String)>,
    pub new: Option<(usize, String)>,
}

impl Row {
    pub fn changed(&self) -> bool {
        match (&self.old, &self.new) {
            (Some((_, a)), Some((_, b))) => a != b,
            _ => true,
        }
    }
}

/// What migrating the workspace would change, or `None` when nothing would (no v1beta1
/// object, or a stream whose tabs cannot be told apart again).
pub fn preview(ws: &Workspace) -> Option<Preview> {
    let (text, ranges) = ws.joined();
    let migration = kpg_manifests::migrate(&text);
    if migration.changes.is_empty() {
        return None;
    }
    // The migration keeps every document (kind and name stay) and only adds copies of an
    // EC2NodeClass, right after it, with names no document has: walking both streams in
    // order pairs each tab with its migrated text, and what does not pair is a new tab.
    let after = Workspace::from_stream(&migration.text);
    if after.docs.len() < ws.docs.len() {
        return None;
    }
    let mut docs: Vec<DocChange> = Vec::new();
    let mut next_id = ws.next_id;
    let mut i = 0;
    // The tab the previous document of the migrated stream is (or will be) in.
    let mut previous: Option<u32> = None;
    for b in &after.docs {
        let title = crate::editor::workspace::title(&b.text);
        match ws.docs.get(i) {
            Some(a)
                if crate::editor::workspace::title(&a.text) == title
                    || after.docs.len() == ws.docs.len() =>
            {
                if a.text != b.text {
                    docs.push(DocChange {
                        doc_id: a.id,
                        inserted_after: None,
                        title,
                        before: a.text.clone(),
                        after: b.text.clone(),
                        rows: side_by_side(&a.text, &b.text),
                    });
                }
                previous = Some(a.id);
                i += 1;
            }
            _ => {
                let after_id = previous?;
                docs.push(DocChange {
                    doc_id: next_id,
                    inserted_after: Some(after_id),
                    title,
                    before: String::new(),
                    after: b.text.clone(),
                    rows: side_by_side("", &b.text),
                });
                previous = Some(next_id);
                next_id += 1;
            }
        }
    }
    if i != ws.docs.len() {
        return None;
    }
    let notes = migration
        .changes
        .iter()
        .map(|c| {
            let place = locate(&ranges, c.line);
            Note {
                doc_id: place.map(|(i, _)| ws.docs[i].id),
                line: place.map_or(c.line, |(_, l)| l),
                object: c.object.clone(),
                message: c.message.clone(),
                manual: c.manual,
            }
        })
        .collect();
    if docs.is_empty() && !migration.changes.iter().any(|c| c.manual) {
        return None;
    }
    Some(Preview { docs, notes })
}

/// A line diff (longest common subsequence) laid out side by side: unchanged lines pair up,
/// a removed line next to the line added in its place shows as one changed row.
pub fn side_by_side(before: &str, after: &str) -> Vec<Row> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: the common subsequence length of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut rows = Vec::new();
    let (mut i, mut j) = (0, 0);
    let mut removed: Vec<(usize, String)> = Vec::new();
    let mut added: Vec<(usize, String)> = Vec::new();
    let flush = |rows: &mut Vec<Row>,
                 removed: &mut Vec<(usize, String)>,
                 added: &mut Vec<(usize, String)>| {
        let k = removed.len().max(added.len());
        for x in 0..k {
            rows.push(Row {
                old: removed.get(x).cloned(),
                new: added.get(x).cloned(),
            });
        }
        removed.clear();
        added.clear();
    };
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            flush(&mut rows, &mut removed, &mut added);
            rows.push(Row {
                old: Some((i + 1, a[i].to_string())),
                new: Some((j + 1, b[j].to_string())),
            });
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            added.push((j + 1, b[j].to_string()));
            j += 1;
        } else {
            removed.push((i + 1, a[i].to_string()));
            i += 1;
        }
    }
    flush(&mut rows, &mut removed, &mut added);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_lines_pair_and_a_replaced_line_is_one_row() {
        let rows = side_by_side("a\nb\nc\n", "a\nB\nc\nd\n");
        let shown: Vec<(Option<&str>, Option<&str>)> = rows
            .iter()
            .map(|r| {
                (
                    r.old.as_ref().map(|o| o.1.as_str()),
                    r.new.as_ref().map(|n| n.1.as_str()),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                (Some("a"), Some("a")),
                (Some("b"), Some("B")),
                (Some("c"), Some("c")),
                (None, Some("d"))
            ]
        );
        assert_eq!(rows.iter().filter(|r| r.changed()).count(), 2);
    }

    #[test]
    fn the_v1beta1_lesson_migrates_tab_by_tab_and_applies_to_the_hello_world_lab() {
        let ws = Workspace::from_stream(crate::lessons::lab("seed000-v1beta1"));
        let p = preview(&ws).expect("there is something to migrate");
        assert_eq!(
            p.docs.len(),
            2,
            "the EC2NodeClass and the NodePool; the pod stays"
        );
        assert!(p.notes.iter().all(|n| !n.manual && n.doc_id.is_some()));
        let accepted = p.apply(&ws);
        assert_eq!(accepted.docs.len(), ws.docs.len());
        assert!(
            accepted
                .docs
                .iter()
                .zip(&ws.docs)
                .all(|(a, b)| a.id == b.id),
            "tabs keep their ids"
        );
        let analysis = crate::editor::workspace::analyse(&accepted);
        assert!(
            analysis.problems.is_empty(),
            "the migrated manifests are clean: {:?}",
            analysis.problems
        );
        assert!(preview(&accepted).is_none(), "nothing left to migrate");
    }

    #[test]
    fn a_class_copy_for_a_different_kubelet_becomes_a_new_tab_after_its_class() {
        let class = "apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\n\
                     metadata:\n  name: default\nspec:\n  amiFamily: AL2023\n  role: R\
                     \n  subnetSelectorTerms:\n    - tags: {a: b}\n  securityGroupSelectorTerms:\
                     \n    - tags: {a: b}\n";
        let pool = |name: &str, pods: u32| {
            format!(
                "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: {name}\n\
                 spec:\n  template:\n    spec:\n      nodeClassRef:\n        name: default\
                 \n      requirements: []\n      kubelet:\n        maxPods: {pods}\n"
            )
        };
        let ws = Workspace::from_stream(&format!(
            "{class}---\n{}---\n{}",
            pool("web", 8),
            pool("batch", 110)
        ));
        let p = preview(&ws).expect("something to migrate");
        let accepted = p.apply(&ws);
        let titles: Vec<String> = accepted
            .docs
            .iter()
            .map(|d| crate::editor::workspace::title(&d.text))
            .collect();
        assert_eq!(
            titles,
            [
                "EC2NodeClass/default",
                "EC2NodeClass/default-batch",
                "NodePool/web",
                "NodePool/batch"
            ]
        );
        assert_eq!(accepted.docs[0].id, ws.docs[0].id);
        assert_eq!(
            accepted.docs[2].id, ws.docs[1].id,
            "old tabs keep their ids"
        );
        let new_id = accepted.docs[1].id;
        assert!(
            ws.index_of(new_id).is_none() && accepted.next_id > new_id,
            "a fresh id"
        );
        assert!(
            accepted.docs[3].text.contains("name: default-batch"),
            "{}",
            accepted.docs[3].text
        );
        let analysis = crate::editor::workspace::analyse(&accepted);
        assert!(analysis.problems.is_empty(), "{:?}", analysis.problems);
    }

    #[test]
    fn every_finding_of_the_v1beta1_lesson_reads_in_korean() {
        let ws = Workspace::from_stream(crate::lessons::lab("seed000-v1beta1"));
        let analysis = crate::editor::workspace::analyse(&ws);
        assert!(analysis.problems.len() >= 5, "{:?}", analysis.problems);
        for p in &analysis.problems {
            let (message, _) = p.text(crate::base::i18n::Lang::Ko);
            assert!(
                message.chars().any(|c| ('가'..='힣').contains(&c)),
                "{} has no Korean: {message}",
                p.code
            );
            assert_eq!(p.text(crate::base::i18n::Lang::En).0, p.message);
        }
    }
}

//! Objects as the manifests wrote them, and which of them exist at an instant.
//!
//! The engine simulates typed values ([`crate::model`]); the terminal also shows objects as
//! the API server would serve them (`kubectl get -o yaml`, `describe`, container images),
//! which needs the text's own tree. The reader parses every document once and hands over
//! both: the typed scenario and, for each object it accepted, a [`Written`] tree with where
//! it was written. [`replay`] plays the Timeline over them as the engine does, so the
//! terminal never reads YAML a second time and never disagrees with the engine about what
//! exists.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{Millis, TimelineAction, TimelineStep};

/// YAML's data model as Kubernetes reads it: no anchors, tags or styles left.
#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    Null,
    Bool(bool),
    /// Integers that fit an i64.
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Tree>),
    /// Keys in the order written (Kubernetes' decoder turns non-string keys into strings).
    Map(Vec<(String, Tree)>),
}

impl Tree {
    /// A map's value at `key`.
    pub fn get(&self, key: &str) -> Option<&Tree> {
        match self {
            Tree::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value at a path of map keys (`["spec", "template", "spec"]`).
    pub fn at(&self, path: &[&str]) -> Option<&Tree> {
        path.iter().try_fold(self, |node, key| node.get(key))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Tree::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// One object as written: a document of the stream, an item of a `List`, or the object of a
/// Timeline `apply` step.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// `kind` as written (`NodePool` for v1 and v1beta1 alike).
    pub kind: String,
    pub name: String,
    /// `metadata.namespace` as written (`None` when absent; the API server's default for
    /// namespaced kinds is the caller's to apply).
    pub namespace: Option<String>,
    /// The document of the stream it is in (0-based).
    pub document: usize,
    /// Its first and last line in the whole stream (1-based).
    pub lines: (usize, usize),
    /// The index in [`crate::model::Scenario::timeline`] of the step that applies it; `None`
    /// for an object of the stream itself.
    pub step: Option<usize>,
    pub tree: Tree,
}

impl Written {
    fn same_object(&self, kind: &str, name: &str, namespace: Option<&str>) -> bool {
        self.kind == kind && self.name == name && same_namespace(self.namespace(), namespace)
    }

    fn namespace(&self) -> Option<&str> {
        self.namespace.as_deref()
    }
}

/// An absent (or empty) namespace is `default`: for namespaced kinds that is the API
/// server's default, and cluster-scoped kinds are written without one.
fn same_namespace(a: Option<&str>, b: Option<&str>) -> bool {
    fn or_default(n: Option<&str>) -> &str {
        n.filter(|n| !n.is_empty()).unwrap_or("default")
    }
    or_default(a) == or_default(b)
}

/// One document of a file read on its own, as `kubectl apply -f` and `delete -f` take it.
#[derive(Clone, Debug)]
pub struct Document {
    /// The document's text (what an `apply` sends on as a Timeline step).
    pub text: String,
    /// Its tree; `None` when it is not YAML or not a map.
    pub tree: Option<Tree>,
    /// What the reader makes of it alone (empty when it has errors).
    pub scenario: crate::model::Scenario,
    /// Its first error: the field path (empty for the whole document) and the message.
    pub error: Option<(String, String)>,
}

/// An object that exists (or lingers) at an instant.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied<'a> {
    pub written: &'a Written,
    /// When it was created: 0, or the Timeline step that first applied it.
    pub created: Millis,
    /// When a Timeline step deleted it (an object with a finalizer lingers until it goes).
    pub deleted: Option<Millis>,
    /// The replicas (a Job's parallelism) a Timeline `scale` step set last.
    pub scaled: Option<u32>,
}

/// The objects that exist at `now`: those of the stream, with the Timeline's `apply`,
/// `delete` and `scale` steps up to `now` played over them in the engine's order (by time,
/// steps at one instant in the order listed). Deleted objects are kept with `deleted` set,
/// for the caller to decide which linger.
pub fn replay<'a>(
    written: &'a [Written],
    timeline: &[TimelineStep],
    now: Millis,
) -> Vec<Applied<'a>> {
    let mut out: Vec<Applied<'a>> = written
        .iter()
        .filter(|w| w.step.is_none())
        .map(|written| Applied {
            written,
            created: 0,
            deleted: None,
            scaled: None,
        })
        .collect();
    // In time order, steps at one instant in the order they are listed (the engine appends
    // steps of its own, e.g. the scale a re-applied workload implies, after the scenario's).
    let mut order: Vec<usize> = (0..timeline.len())
        .filter(|&i| timeline[i].at <= now)
        .collect();
    order.sort_by_key(|&i| timeline[i].at);
    for i in order {
        let step = &timeline[i];
        match &step.action {
            TimelineAction::Apply(_) => {
                let Some(new) = written.iter().find(|w| w.step == Some(i)) else {
                    continue;
                };
                let same =
                    |a: &Applied<'_>| a.written.same_object(&new.kind, &new.name, new.namespace());
                let created = out
                    .iter()
                    .find(|a| same(a) && a.deleted.is_none())
                    .map_or(step.at, |a| a.created);
                out.retain(|a| !same(a));
                out.push(Applied {
                    written: new,
                    created,
                    deleted: None,
                    scaled: None,
                });
            }
            TimelineAction::Delete {
                kind,
                name,
                namespace,
            } => {
                for a in out
                    .iter_mut()
                    .filter(|a| a.written.same_object(kind, name, Some(namespace)))
                {
                    a.deleted.get_or_insert(step.at);
                }
            }
            TimelineAction::Scale {
                kind,
                name,
                namespace,
                replicas,
            } => {
                for a in out
                    .iter_mut()
                    .filter(|a| a.written.same_object(kind.as_str(), name, Some(namespace)))
                {
                    a.scaled = Some(*replicas);
                }
            }
            TimelineAction::ScaleNodePool { name, replicas } => {
                for a in out
                    .iter_mut()
                    .filter(|a| a.written.same_object("NodePool", name, None))
                {
                    a.scaled = Some(*replicas);
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AppliedObject, PodDisruptionBudget, WorkloadKind};
    use alloc::boxed::Box;
    use alloc::string::ToString;
    use alloc::vec;

    fn object(kind: &str, name: &str, step: Option<usize>, tag: i64) -> Written {
        Written {
            kind: kind.to_string(),
            name: name.to_string(),
            namespace: None,
            document: 0,
            lines: (1, 1),
            step,
            tree: Tree::Int(tag),
        }
    }

    fn apply(at: Millis) -> TimelineStep {
        TimelineStep {
            at,
            action: TimelineAction::Apply(Box::new(AppliedObject::Pdb(PodDisruptionBudget {
                name: "web".into(),
                namespace: "default".into(),
                selector: Default::default(),
                min_available: None,
                max_unavailable: None,
            }))),
        }
    }

    #[test]
    fn the_timeline_replaces_deletes_and_scales_up_to_now() {
        let written = vec![
            object("Deployment", "web", None, 1),
            object("EC2NodeClass", "default", None, 2),
            object("Deployment", "web", Some(0), 3),
        ];
        let timeline = vec![
            apply(60_000),
            TimelineStep {
                at: 120_000,
                action: TimelineAction::Scale {
                    kind: WorkloadKind::Deployment,
                    name: "web".into(),
                    namespace: "default".into(),
                    replicas: 5,
                },
            },
            TimelineStep {
                at: 180_000,
                action: TimelineAction::Delete {
                    kind: "EC2NodeClass".into(),
                    name: "default".into(),
                    namespace: String::new(),
                },
            },
        ];
        let at = |now| replay(&written, &timeline, now);
        let start = at(0);
        assert_eq!(start.len(), 2);
        assert_eq!(start[0].written.tree, Tree::Int(1));

        // The apply replaces the object and keeps its creation time.
        let applied = at(60_000);
        let web = applied
            .iter()
            .find(|a| a.written.kind == "Deployment")
            .unwrap();
        assert_eq!((web.written.tree.clone(), web.created), (Tree::Int(3), 0));

        let scaled = at(120_000);
        let web = scaled
            .iter()
            .find(|a| a.written.kind == "Deployment")
            .unwrap();
        assert_eq!(web.scaled, Some(5));

        let deleted = at(180_000);
        let class = deleted
            .iter()
            .find(|a| a.written.kind == "EC2NodeClass")
            .unwrap();
        assert_eq!(class.deleted, Some(180_000));
        assert!(at(179_999).iter().all(|a| a.deleted.is_none()));
    }

    #[test]
    fn a_step_appended_later_plays_at_its_instant() {
        let written = vec![object("Deployment", "web", None, 1)];
        let scale = |at, replicas| TimelineStep {
            at,
            action: TimelineAction::Scale {
                kind: WorkloadKind::Deployment,
                name: "web".into(),
                namespace: "default".into(),
                replicas,
            },
        };
        // The engine appends the 60 s step after the scenario's 120 s one.
        let timeline = vec![scale(120_000, 5), scale(60_000, 3)];
        assert_eq!(replay(&written, &timeline, 90_000)[0].scaled, Some(3));
        assert_eq!(replay(&written, &timeline, 120_000)[0].scaled, Some(5));
    }

    #[test]
    fn paths_read_maps() {
        let tree = Tree::Map(vec![(
            "spec".into(),
            Tree::Map(vec![("role".into(), Tree::Str("KarpenterNodeRole".into()))]),
        )]);
        assert_eq!(
            tree.at(&["spec", "role"]).and_then(Tree::as_str),
            Some("KarpenterNodeRole")
        );
        assert_eq!(tree.at(&["spec", "missing"]), None);
    }
}

//! A file the learner opens or drops, or a paste of what kubectl printed: read by the engine's
//! worker ([`read`]), never on the page's thread, and never sent anywhere.
//!
//! What `kubectl get … -o yaml|json` printed for a cluster (a snapshot: megabytes of server
//! fields, `managedFields`, environment values) is imported: the tabs get the minimal,
//! redacted scenario `kpg import` prints (`kpg_import`), so the workspace, its saved copy and
//! any share link hold only that. Anything else opens as written.
//!
//! The text travels to the worker beside the message (a `File`, or the pasted string), not
//! through the page's wasm memory: a 20 MB snapshot costs the page's thread a `postMessage`
//! of a handle, and the worker reads it (`FileReaderSync`).

use serde::{Deserialize, Serialize};

use crate::base::i18n::Lang;
use crate::base::words::{Noun, count};

/// The largest text the worker reads: a snapshot of a few hundred nodes as kubectl prints it
/// (500 nodes and 10,000 pods are about 120 MB). Reading takes about four times its size in
/// memory; `kpg import` on the command line has no such limit.
pub const MAX_OPEN_BYTES: usize = 160 * 1024 * 1024;

/// The largest text that opens as written: what the editor and the saved session hold
/// (a share link's limit, [`kpg_share::MAX_DECODED_BYTES`]).
pub const MAX_WRITTEN_BYTES: usize = kpg_share::MAX_DECODED_BYTES;

/// How the page imports: redacted, images left out, and the nodes and each namespace's
/// objects gathered into `List` documents, so that a cluster is a few tabs.
const IMPORT: kpg_import::Options = kpg_import::Options {
    keep_images: false,
    lists: true,
};

/// What the tabs get.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opened {
    /// The multi-document YAML stream the tabs are cut from.
    pub text: String,
    /// Set when the text was a cluster's snapshot and `text` is its import.
    pub imported: Option<Imported>,
}

/// What an import read and kept.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    /// The snapshot's size as read.
    pub bytes: usize,
    pub nodes: usize,
    /// The pods it holds on their nodes (those of controllers and those on their own).
    pub pods: usize,
    /// Objects the reader refused (errors) and the import left out; the first one's error.
    pub refused: usize,
    pub first_refusal: Option<String>,
}

/// Why nothing opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// Larger than [`MAX_OPEN_BYTES`].
    TooLargeToRead,
    /// Not a snapshot, and larger than [`MAX_WRITTEN_BYTES`].
    TooLargeToEdit,
    /// The file could not be read as text.
    Unreadable,
}

/// Reads what the learner opened (in the worker).
pub fn read(text: String) -> Result<Opened, Refusal> {
    if text.len() > MAX_OPEN_BYTES {
        return Err(Refusal::TooLargeToRead);
    }
    // Only the API server writes these; a scenario without them opens as written, unread.
    let may_be_output = kpg_import::SERVER_SET.iter().any(|k| text.contains(k));
    if may_be_output {
        let loaded = kpg_manifests::load(&text);
        if kpg_import::is_cluster_output(&loaded.scenario) {
            let scenario = &loaded.scenario;
            let first_refusal = loaded
                .errors()
                .next()
                .map(|d| format!("{}:{}: {}", d.line, d.column, d.message));
            let imported = Imported {
                bytes: text.len(),
                nodes: scenario.nodes.len(),
                pods: scenario.workloads.iter().map(|w| w.existing.len()).sum(),
                refused: loaded.errors().count(),
                first_refusal,
            };
            return Ok(Opened {
                text: kpg_import::import(scenario, IMPORT),
                imported: Some(imported),
            });
        }
    }
    if text.len() > MAX_WRITTEN_BYTES {
        return Err(Refusal::TooLargeToEdit);
    }
    Ok(Opened {
        text,
        imported: None,
    })
}

/// `snapshot.yaml (20.1 MB: 85 nodes, 1,712 pods)`, and the objects left out, in the
/// learner's language: the `{}` of the notice that says a snapshot was imported.
pub fn describe(name: &str, imported: &Imported, lang: Lang) -> String {
    let size = megabytes(imported.bytes);
    let nodes = count(imported.nodes, Noun::Node, lang);
    let pods = count(imported.pods, Noun::Pod, lang);
    let mut out = match lang {
        Lang::En => format!("{name} ({size}: {nodes}, {pods})"),
        Lang::Ko => format!("{name}({size}: {nodes}, {pods})"),
    };
    if imported.refused > 0 {
        let first = imported.first_refusal.as_deref().unwrap_or_default();
        out.push_str(&match (lang, imported.refused) {
            (Lang::En, 1) => format!("; 1 object with an error was left out (line {first})"),
            (Lang::En, n) => format!(
                "; {} objects with errors were left out (the first at line {first})",
                crate::base::snapshot::count(n)
            ),
            (Lang::Ko, n) => format!(
                "; 오류가 있는 객체 {}개는 뺐습니다(첫 오류: {first}번째 줄)",
                crate::base::snapshot::count(n)
            ),
        });
    }
    out
}

/// `20.1 MB`, `812 KB`, `640 B` (decimal units, one decimal under 100).
fn megabytes(bytes: usize) -> String {
    let b = bytes as f64;
    if b >= 1e6 {
        if b >= 1e8 {
            format!("{:.0} MB", b / 1e6)
        } else {
            format!("{:.1} MB", b / 1e6)
        }
    } else if b >= 1e3 {
        format!("{:.0} KB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpg_snapgen::{Format, Params};

    fn snapshot(nodes: usize, pods: usize, format: Format) -> String {
        kpg_snapgen::snapshot(
            &Params {
                nodes,
                pods,
                ..Params::default()
            },
            format,
        )
    }

    #[test]
    fn a_snapshot_opens_as_its_import() {
        for format in [Format::Yaml, Format::Json] {
            let text = snapshot(6, 80, format);
            let opened = read(text.clone()).expect("a snapshot opens");
            let imported = opened.imported.expect("and is imported");
            assert_eq!(imported.bytes, text.len());
            assert_eq!(imported.nodes, 6);
            assert!(imported.pods > 40, "{imported:?}");
            assert_eq!(imported.refused, 0);
            let scenario = kpg_manifests::load(&text).scenario;
            assert_eq!(opened.text, kpg_import::import(&scenario, IMPORT));
            // A few tabs: the Cluster, the classes, the pools, the nodes, each namespace.
            let tabs = |text: &str| {
                crate::editor::workspace::Workspace::from_stream(text)
                    .docs
                    .len()
            };
            let documents = tabs(&kpg_import::import(&scenario, Default::default()));
            assert!(
                tabs(&opened.text) * 2 < documents,
                "{} tabs",
                tabs(&opened.text)
            );
            let again = kpg_manifests::load(&opened.text);
            assert!(!again.has_errors(), "{:?}", again.diagnostics);
            assert_eq!(again.scenario.nodes.len(), 6);
            // Redacted: nothing the server set is left.
            assert!(!opened.text.contains("managedFields"));
            assert!(!opened.text.contains("resourceVersion"));
        }
    }

    #[test]
    fn a_snapshot_too_large_for_the_editor_is_still_read() {
        let text = snapshot(40, 900, Format::Yaml);
        assert!(text.len() > MAX_WRITTEN_BYTES, "{} bytes", text.len());
        let opened = read(text).expect("read");
        assert!(opened.text.len() < MAX_WRITTEN_BYTES);
        assert_eq!(opened.imported.map(|i| i.nodes), Some(40));
    }

    #[test]
    fn a_written_scenario_opens_as_written() {
        let text = crate::lessons::lab("seed000-hello-world").to_string();
        assert_eq!(
            read(text.clone()),
            Ok(Opened {
                text,
                imported: None
            })
        );
        // Even when it names a uid (a label value, here), as long as the server wrote none.
        let text = format!(
            "# owner uid: none\n{}",
            crate::lessons::lab("seed000-hello-world")
        );
        assert_eq!(read(text).map(|o| o.imported), Ok(None));
    }

    #[test]
    fn too_large_is_refused_with_the_limit_that_applies() {
        let written = "# a comment\n".repeat(MAX_WRITTEN_BYTES / 12 + 1);
        assert_eq!(read(written), Err(Refusal::TooLargeToEdit));
        let huge = " ".repeat(MAX_OPEN_BYTES + 1);
        assert_eq!(read(huge), Err(Refusal::TooLargeToRead));
    }

    #[test]
    fn objects_with_errors_are_counted_and_the_first_is_located() {
        let mut text = snapshot(3, 20, Format::Yaml);
        // One container asks for a quantity no one can read.
        let pod = text.find("\n  kind: Deployment\n").expect("a Deployment");
        let requests = pod + text[pod..].find(" requests:\n").expect("requests");
        let at = requests + text[requests..].find("cpu: ").expect("a cpu request");
        text.replace_range(at..at + 5, "cpu: lots-");
        let imported = read(text).expect("read").imported.expect("imported");
        assert_eq!(imported.refused, 1);
        let first = imported.first_refusal.clone().expect("located");
        assert!(first.contains("is not a valid quantity"), "{first}");
        let en = describe("snap.yaml", &imported, Lang::En);
        assert!(en.contains("1 object with an error was left out"), "{en}");
        let ko = describe("snap.yaml", &imported, Lang::Ko);
        assert!(ko.contains("오류가 있는 객체 1개"), "{ko}");
    }

    #[test]
    fn the_notice_counts_in_the_learners_words() {
        let imported = Imported {
            bytes: 20_123_456,
            nodes: 85,
            pods: 1712,
            ..Imported::default()
        };
        assert_eq!(
            describe("snapshot.yaml", &imported, Lang::En),
            "snapshot.yaml (20.1 MB: 85 nodes, 1,712 pods)"
        );
        assert_eq!(
            describe("snapshot.yaml", &imported, Lang::Ko),
            "snapshot.yaml(20.1 MB: 노드 85대, 파드 1,712개)"
        );
        let one = Imported {
            bytes: 640,
            nodes: 1,
            pods: 1,
            ..Imported::default()
        };
        assert_eq!(describe("x", &one, Lang::En), "x (640 B: 1 node, 1 pod)");
        assert_eq!(megabytes(812_400), "812 KB");
        assert_eq!(megabytes(120_400_000), "120 MB");
    }
}

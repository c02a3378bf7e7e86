//! Reads Karpenter Playground scenarios: a multi-document Kubernetes YAML stream in, the
//! engine's typed [`Scenario`] and line-accurate [`Diagnostic`]s out.
//!
//! ```
//! let loaded = kpg_manifests::load("apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n");
//! assert!(!loaded.has_errors());
//! assert_eq!(loaded.scenario.namespaces[0].name, "team-a");
//! ```
//!
//! How it works, in order:
//! 1. [`document`] cuts the stream at `---` so that a syntax error only costs its own document.
//! 2. [`yaml`] builds each document from granit-parser's events into a tree where every node
//!    knows its line and column (and numbers keep their spelling).
//! 3. [`convert`] walks the tree per kind, applying the API server's defaults and validation,
//!    reporting problems with field paths through [`reader`]'s toolkit.
//! 4. [`assemble`] checks what spans documents (duplicates, references, size caps) and builds
//!    the scenario from the documents without errors.
//!
//! [`load`] never panics: everything wrong with the input is a diagnostic.

#![forbid(unsafe_code)]

mod assemble;
pub mod codes;
mod convert;
mod diagnostic;
mod document;
mod edit;
mod ext;
mod finding;
pub mod glossary;
mod located;
mod migrate;
mod reader;
mod schema;
mod yaml;

pub use codes::{Code, CodeInfo, Origin};
pub use diagnostic::{Diagnostic, Korean, Severity};
pub use document::{document_spans, document_title};
pub use edit::{cluster_with_version, set_karpenter_version};
pub use finding::Finding;
pub use kpg_core::model::Scenario;
pub use located::{
    Located, LocatedDocument, LocatedError, LocatedValue, RepeatedKey, parse_located,
};
pub use migrate::{Change, Migration, migrate};

/// Inputs larger than this are refused with one `too-large` error. A cluster snapshot is the
/// largest input there is: 500 nodes and 10,000 pods are 120 MB as `kubectl get -o yaml
/// --show-managed-fields` prints them, 267 MB as `-o json`.
pub const MAX_INPUT_BYTES: usize = 512 * 1024 * 1024;

/// The scenario read from a stream, and everything worth telling about it.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// Every document without errors, converted. Documents with errors are left out.
    pub scenario: Scenario,
    /// Errors and warnings, ordered by document, then line, then column.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| !d.is_error())
    }
}

/// Each document of a stream read on its own (cut where [`document_spans`] cuts): its text,
/// its tree, and what [`load`] makes of it alone. The terminal's `apply -f` and `delete -f`
/// take files this way; the simulation reads the whole stream with [`load`].
pub fn documents(text: &str) -> Vec<kpg_core::manifest::Document> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (first, last, _) in document_spans(text) {
        let Some(slice) = first
            .checked_sub(1)
            .and_then(|from| lines.get(from..last.min(lines.len())))
        else {
            continue;
        };
        let doc = slice.join("\n") + "\n";
        let tree = yaml::parse(&doc, 0)
            .ok()
            .map(|parsed| yaml::tree(&parsed.root))
            .filter(|tree| matches!(tree, kpg_core::manifest::Tree::Map(_)));
        let loaded = load(&doc);
        let error = loaded
            .errors()
            .next()
            .map(|d| (d.path.clone(), d.message.clone()));
        out.push(kpg_core::manifest::Document {
            text: doc,
            tree,
            scenario: loaded.scenario,
            error,
        });
    }
    out
}

/// Reads a scenario. Never panics; every problem is a diagnostic, and a document with errors
/// is left out while every other document is still read and checked.
pub fn load(text: &str) -> Loaded {
    if text.len() > MAX_INPUT_BYTES {
        return Loaded {
            scenario: Scenario::default(),
            diagnostics: vec![Diagnostic {
                severity: Severity::Error,
                code: Code::TooLarge,
                document: 0,
                object: None,
                path: String::new(),
                line: 1,
                column: 1,
                message: format!(
                    "the scenario is {} bytes; the playground reads at most {} bytes",
                    text.len(),
                    MAX_INPUT_BYTES
                ),
                help: Some(
                    "remove documents the simulation does not need (Services, ConfigMaps, ...)"
                        .into(),
                ),
                ko: Some(diagnostic::Korean {
                    message: format!(
                        "시나리오가 {} 바이트입니다. 플레이그라운드는 최대 {} 바이트까지 읽습니다",
                        text.len(),
                        MAX_INPUT_BYTES
                    ),
                    help: Some(
                        "시뮬레이션에 필요 없는 문서(Service, ConfigMap 등)를 지우세요".into(),
                    ),
                }),
            }],
        };
    }
    let mut diagnostics = Vec::new();
    let scenario = assemble::load(text, &mut diagnostics);
    Loaded {
        scenario,
        diagnostics,
    }
}

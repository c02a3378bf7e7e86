//! JSON output: the simulation report (`docs/scenario-format.md` §3) and validation
//! diagnostics.

use kpg_core::report::Report;
use kpg_manifests::Diagnostic;
use serde::Serialize;

/// The report, pretty-printed, with a trailing newline.
pub fn report(report: &Report) -> Result<String, serde_json::Error> {
    let mut s = serde_json::to_string_pretty(report)?;
    s.push('\n');
    Ok(s)
}

/// One diagnostic as it appears in `kpg validate --output json`.
#[derive(Serialize)]
pub struct DiagnosticJson<'a> {
    pub file: &'a str,
    pub line: usize,
    pub column: usize,
    pub severity: &'static str,
    pub code: &'static str,
    /// Who would refuse it in a real cluster: `api-server`, `karpenter`, `v1beta1`, `playground`
    /// or `yaml` (`kpg codes` explains each code).
    pub origin: &'static str,
    pub document: usize,
    pub object: Option<&'a str>,
    pub path: &'a str,
    pub message: &'a str,
    pub help: Option<&'a str>,
    /// The message and help in Korean, when the reader has them (`null` otherwise).
    pub ko: Option<KoreanJson<'a>>,
}

#[derive(Serialize)]
pub struct KoreanJson<'a> {
    pub message: &'a str,
    pub help: Option<&'a str>,
}

impl<'a> DiagnosticJson<'a> {
    pub fn new(file: &'a str, d: &'a Diagnostic) -> DiagnosticJson<'a> {
        DiagnosticJson {
            file,
            line: d.line,
            column: d.column,
            severity: if crate::is_error(d) {
                "error"
            } else {
                "warning"
            },
            code: d.code.as_str(),
            origin: d.code.origin().as_str(),
            document: d.document,
            object: d.object.as_deref(),
            path: &d.path,
            message: &d.message,
            help: d.help.as_deref(),
            ko: d.ko.as_ref().map(|k| KoreanJson {
                message: &k.message,
                help: k.help.as_deref(),
            }),
        }
    }
}

/// `kpg validate --output json`: an array of diagnostics, pretty-printed, trailing newline.
pub fn diagnostics(file: &str, ds: &[Diagnostic]) -> String {
    let items: Vec<DiagnosticJson<'_>> = ds.iter().map(|d| DiagnosticJson::new(file, d)).collect();
    // Strings and integers only: serialising cannot fail.
    let mut s = serde_json::to_string_pretty(&items).unwrap_or_else(|_| String::from("[]"));
    s.push('\n');
    s
}

//! What the reader tells the user: one [`Diagnostic`] per problem, with the document, the
//! object, the field path and the line and column, so the CLI can print it and the web page
//! can underline it.

use std::fmt;

use crate::codes::Code;
use crate::finding::Finding;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The document cannot be used: it is left out of the scenario.
    Error,
    /// The document is used, but something in it is ignored, converted or suspicious.
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem found while reading a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The rule's stable code (`yaml-syntax`, `unknown-field`, `invalid-quantity`, ...), for
    /// tests, filtering and documentation links; [`crate::codes`] explains each.
    pub code: Code,
    /// 0-based index of the document in the stream, counting only non-empty documents.
    pub document: usize,
    /// `Kind/name` for cluster-scoped objects, `Kind/namespace/name` otherwise, when known.
    pub object: Option<String>,
    /// Field path inside the document, e.g. `spec.template.spec.requirements[1].operator`;
    /// empty when the problem is the document as a whole.
    pub path: String,
    /// 1-based line in the whole input.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    pub message: String,
    /// How to fix it, when there is something specific to say.
    pub help: Option<String>,
    /// The finding in Korean, where the reader has a translation (the page shows it to Korean
    /// readers; the CLI prints English).
    pub ko: Option<Korean>,
}

/// A finding's message and help in Korean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Korean {
    pub message: String,
    /// `None` when the English help is specific (a value to type) and serves as it is.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Which document and field: `NodePool/platform spec.limits.cpu`, or `document 4 ...`
    /// (counted from 1) when the document's object is not known, so every finding names its
    /// document as the scenario format asks.
    pub fn place(&self) -> String {
        // People count documents from 1; the `document` field stays a 0-based index.
        let mut place = match &self.object {
            Some(object) => object.clone(),
            None => format!("document {}", self.document + 1),
        };
        if !self.path.is_empty() {
            place.push(' ');
            place.push_str(&self.path);
        }
        place
    }

    /// The finding as printed for `file`, in the shape every located problem has
    /// ([`Finding`]): `FILE:LINE:COL: error[code]: place: message` and a `help:` line.
    pub fn in_file<'a>(&'a self, file: &'a str) -> impl fmt::Display + 'a {
        InFile {
            diagnostic: self,
            file,
        }
    }
}

struct InFile<'a> {
    diagnostic: &'a Diagnostic,
    file: &'a str,
}

impl fmt::Display for InFile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.diagnostic;
        let place = d.place();
        Finding {
            file: self.file,
            line: d.line,
            column: d.column,
            severity: d.severity,
            code: d.code.as_str(),
            place: &place,
            message: &d.message,
            help: d.help.as_deref(),
        }
        .fmt(f)
    }
}

impl fmt::Display for Diagnostic {
    /// [`Diagnostic::in_file`] without the file: `12:14: error[invalid-quantity]:
    /// NodePool/platform spec.limits.cpu: ...` and a `help:` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.in_file("").fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_prints_as_a_finding_naming_its_document() {
        let d = Diagnostic {
            severity: Severity::Error,
            code: Code::InvalidQuantity,
            document: 3,
            object: Some("NodePool/platform".into()),
            path: "spec.limits.cpu".into(),
            line: 12,
            column: 14,
            message: "cannot parse `12Gib`".into(),
            help: Some("use a quantity such as 500m or 2".into()),
            ko: None,
        };
        assert_eq!(
            d.in_file("lab.yaml").to_string(),
            "lab.yaml:12:14: error[invalid-quantity]: NodePool/platform spec.limits.cpu: \
             cannot parse `12Gib`\n  help: use a quantity such as 500m or 2"
        );
        let bare = Diagnostic {
            object: None,
            path: String::new(),
            help: None,
            ko: None,
            ..d
        };
        assert_eq!(
            bare.to_string(),
            "12:14: error[invalid-quantity]: document 4: cannot parse `12Gib`"
        );
    }
}

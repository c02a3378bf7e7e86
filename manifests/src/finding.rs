//! The one printed shape of a problem found at a place in a file, for everything that reports
//! one to a person: `kpg validate`, the commands that refuse a scenario, `kpg lesson check`.
//! Two shapes for the same kind of line would make readers (and editors that jump to
//! `FILE:LINE:COL`) learn both, so the shape lives here, below every crate that prints one.

use std::fmt;

use crate::diagnostic::Severity;

/// `FILE:LINE:COL: error[code]: place: message`, then `  help: ...` on the next line when
/// there is help. Without a line (the file as a whole) `FILE: error[code]: ...`; without a
/// file name the line starts at `LINE:COL` (the caller knows the file and says it elsewhere).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding<'a> {
    /// The file as the caller named it (`-` read as `<stdin>`); empty when unknown.
    pub file: &'a str,
    /// 1-based line; 0 when the problem is the file as a whole.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    pub severity: Severity,
    /// The rule's stable code (`invalid-quantity`, `lesson-field`, ...).
    pub code: &'a str,
    /// What in the file: the object and the field path (`NodePool/platform spec.limits.cpu`,
    /// `steps[1].playTo`); empty when the place is the line itself.
    pub place: &'a str,
    pub message: &'a str,
    /// How to fix it, when there is something specific to say.
    pub help: Option<&'a str>,
}

impl fmt::Display for Finding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut at = self.file.to_string();
        if self.line > 0 {
            if !at.is_empty() {
                at.push(':');
            }
            at.push_str(&format!("{}:{}", self.line, self.column));
        }
        if !at.is_empty() {
            write!(f, "{at}: ")?;
        }
        write!(f, "{}[{}]: ", self.severity.as_str(), self.code)?;
        if !self.place.is_empty() {
            write!(f, "{}: ", self.place)?;
        }
        f.write_str(self.message)?;
        if let Some(help) = self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding() -> Finding<'static> {
        Finding {
            file: "lab.yaml",
            line: 12,
            column: 14,
            severity: Severity::Error,
            code: "invalid-quantity",
            place: "NodePool/platform spec.limits.cpu",
            message: "cannot parse `12Gib`",
            help: Some("use a quantity such as 500m or 2"),
        }
    }

    #[test]
    fn a_finding_prints_file_line_column_code_place_message_and_help() {
        assert_eq!(
            finding().to_string(),
            "lab.yaml:12:14: error[invalid-quantity]: NodePool/platform spec.limits.cpu: \
             cannot parse `12Gib`\n  help: use a quantity such as 500m or 2"
        );
    }

    #[test]
    fn what_is_unknown_is_left_out_without_a_stray_separator() {
        let whole_file = Finding {
            line: 0,
            place: "",
            help: None,
            severity: Severity::Warning,
            ..finding()
        };
        assert_eq!(
            whole_file.to_string(),
            "lab.yaml: warning[invalid-quantity]: cannot parse `12Gib`"
        );
        let no_file = Finding {
            file: "",
            help: None,
            ..finding()
        };
        assert_eq!(
            no_file.to_string(),
            "12:14: error[invalid-quantity]: NodePool/platform spec.limits.cpu: cannot parse \
             `12Gib`"
        );
    }
}

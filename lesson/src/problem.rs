//! What is wrong with a lesson, as a value: the file, the line and column, the field path,
//! what is wrong and how to fix it. The reader and the checks return these; the CLI prints
//! them as `kpg validate` prints a scenario's findings (`kpg_manifests::Finding`:
//! `file:line:col: error[code]: path: message` and a `help:` line), the page may show them.

use core::fmt;

use kpg_manifests::Finding;

/// Error or warning: the reader's own, so a lesson's problems and a scenario's findings are
/// one kind of line (a warning is worth saying, not wrong: a translation that falls back to
/// English).
pub use kpg_manifests::Severity;

/// The kind of problem, stable for tests and for filtering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Code {
    /// The file is not YAML (or not one document).
    Yaml,
    /// A field is missing, of the wrong type, not a field of the format, or has a value the
    /// format does not take.
    Field,
    /// A lab file the lesson names cannot be read.
    Lab,
    /// A step's scenario has errors, or the engine refuses to run it.
    Scenario,
    /// An edit's `find` is not in the text exactly once.
    Edit,
    /// An exercise's goals are met before the learner changes anything.
    MetAsWritten,
    /// An exercise's solution does not meet its goals.
    NotSolved,
    /// A Markdown link leads nowhere (a missing file, a step that is not there) or is not a
    /// link the page opens.
    Link,
    /// A translation names a step the English lacks, or another lesson.
    Translation,
    /// A translation lacks a text, which falls back to English.
    Untranslated,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Yaml => "lesson-yaml",
            Code::Field => "lesson-field",
            Code::Lab => "lesson-lab",
            Code::Scenario => "lesson-scenario",
            Code::Edit => "lesson-edit",
            Code::MetAsWritten => "exercise-met-as-written",
            Code::NotSolved => "exercise-not-solved",
            Code::Link => "lesson-link",
            Code::Translation => "lesson-translation",
            Code::Untranslated => "lesson-untranslated",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where in a lesson file something is: 1-based line and column (0 when the whole file), and
/// the field path (`steps[2].exercise.goals[0]`, empty for the file as a whole).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spot {
    pub line: usize,
    pub column: usize,
    pub path: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    pub code: Code,
    /// The lesson file as the caller named it.
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub path: String,
    pub message: String,
    /// How to fix it, when there is something specific to say.
    pub help: Option<String>,
}

impl Problem {
    pub fn error(code: Code, file: &str, spot: &Spot, message: impl Into<String>) -> Problem {
        Problem {
            severity: Severity::Error,
            code,
            file: file.to_string(),
            line: spot.line,
            column: spot.column,
            path: spot.path.clone(),
            message: message.into(),
            help: None,
        }
    }

    pub fn warning(code: Code, file: &str, spot: &Spot, message: impl Into<String>) -> Problem {
        Problem {
            severity: Severity::Warning,
            ..Problem::error(code, file, spot, message)
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    /// As every located problem prints ([`Finding`]): `file:line:col: error[code]: path:
    /// message`, then `  help: ...` on the next line when there is help (without a line:
    /// `file: error[code]: ...`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Finding {
            file: &self.file,
            line: self.line,
            column: self.column,
            severity: self.severity,
            code: self.code.as_str(),
            place: &self.path,
            message: &self.message,
            help: self.help.as_deref(),
        }
        .fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_prints_its_place_code_path_and_help() {
        let spot = Spot {
            line: 12,
            column: 7,
            path: "steps[1].playTo".into(),
        };
        let p = Problem::error(
            Code::Field,
            "lessons/x/lesson.yaml",
            &spot,
            "not a duration",
        )
        .help("write a Go duration such as 90s or 2m");
        assert_eq!(
            p.to_string(),
            "lessons/x/lesson.yaml:12:7: error[lesson-field]: steps[1].playTo: not a duration\n  \
             help: write a Go duration such as 90s or 2m"
        );
        let whole = Problem::warning(Code::Lab, "f.yaml", &Spot::default(), "m");
        assert_eq!(whole.to_string(), "f.yaml: warning[lesson-lab]: m");
    }
}

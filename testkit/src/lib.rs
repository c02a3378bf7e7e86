//! Test support shared by the workspace's golden tests (reports, explanations, the terminal).
//!
//! One rule for every golden file: with `UPDATE_GOLDEN` set to anything but empty or `0`, a
//! golden check writes what the code printed and passes; otherwise (unset, empty or `0`) it
//! compares, byte for byte, and fails on a missing or different file. After a deliberate
//! change in output:
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test ...
//! git diff tests/golden
//! ```

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The variable that turns comparing into rewriting.
pub const UPDATE_VAR: &str = "UPDATE_GOLDEN";

/// The rule, on the variable's value: set, non-empty and not `0` rewrites.
pub fn rewrites(value: Option<&OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// Whether this test run rewrites goldens (see [`rewrites`]).
pub fn updating() -> bool {
    rewrites(std::env::var_os(UPDATE_VAR).as_deref())
}

/// Checks `actual` against the golden file at `path` under this run's rule: rewrites it when
/// [`updating`], and otherwise panics, naming the first differing line, unless the file holds
/// exactly `actual`.
pub fn check(path: &Path, actual: &str) {
    if let Err(message) = check_or_update(path, actual, updating()) {
        panic!("{message}");
    }
}

/// [`check`] with the rule's answer given: `update` writes the file (creating its directory)
/// and returns `Ok`; otherwise the file must hold exactly `actual`, and the error says how not.
pub fn check_or_update(path: &Path, actual: &str, update: bool) -> Result<(), String> {
    if update {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        // Rewriting an unchanged golden leaves its modification time alone.
        if fs::read_to_string(path).ok().as_deref() != Some(actual) {
            fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        return Ok(());
    }
    let want = fs::read_to_string(path).map_err(|e| {
        format!(
            "golden {} cannot be read ({e}).\n\
             Create it with {UPDATE_VAR}=1 and review the new file.",
            path.display()
        )
    })?;
    if want == actual {
        return Ok(());
    }
    Err(difference(path, &want, actual))
}

/// The message for a golden that differs: where, the lines around it in both, and what to do.
fn difference(path: &Path, want: &str, got: &str) -> String {
    let (want_lines, got_lines): (Vec<&str>, Vec<&str>) =
        (want.lines().collect(), got.lines().collect());
    let first = got_lines
        .iter()
        .zip(&want_lines)
        .position(|(g, w)| g != w)
        .unwrap_or(got_lines.len().min(want_lines.len()));
    let from = first.saturating_sub(3);
    let show = |lines: &[&str]| {
        let mut s = String::new();
        for (i, l) in lines.iter().enumerate().skip(from).take(8) {
            let _ = writeln!(s, "{:>5} | {l}", i + 1);
        }
        if lines.len() <= from {
            s.push_str("      | (ends before this line)\n");
        }
        s
    };
    let ending = if want_lines == got_lines {
        "\n(the lines agree: the difference is in line endings or the final newline)"
    } else {
        ""
    };
    format!(
        "{} differs from line {} on{ending}\n--- golden ---\n{}--- now ---\n{}\
         If the change is intended: rerun with {UPDATE_VAR}=1, then review git diff {}",
        path.display(),
        first + 1,
        show(&want_lines),
        show(&got_lines),
        path.display(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn only_a_non_empty_value_other_than_zero_rewrites() {
        assert!(!rewrites(None));
        assert!(!rewrites(Some(OsStr::new(""))));
        assert!(!rewrites(Some(OsStr::new("0"))));
        assert!(rewrites(Some(OsStr::new("1"))));
        assert!(rewrites(Some(OsStr::new("yes"))));
        assert!(rewrites(Some(OsStr::new("00"))));
    }

    /// A fresh directory of this test process under the system's temporary directory.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kpg-testkit-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn comparing_fails_on_a_missing_or_different_file_and_passes_on_the_same_bytes() {
        let dir = scratch("compare");
        let path = dir.join("a/golden.txt");
        let missing = check_or_update(&path, "x\n", false).unwrap_err();
        assert!(missing.contains("cannot be read"), "{missing}");
        assert!(!path.exists(), "comparing never writes");

        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "one\ntwo\nthree\n").unwrap();
        assert_eq!(check_or_update(&path, "one\ntwo\nthree\n", false), Ok(()));
        let changed = check_or_update(&path, "one\nTWO\nthree\n", false).unwrap_err();
        assert!(changed.contains("differs from line 2 on"), "{changed}");
        assert!(changed.contains("    2 | two") && changed.contains("    2 | TWO"));
        let newline = check_or_update(&path, "one\ntwo\nthree", false).unwrap_err();
        assert!(newline.contains("final newline"), "{newline}");
        let shorter = check_or_update(&path, "one\n", false).unwrap_err();
        assert!(shorter.contains("differs from line 2 on"), "{shorter}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\ntwo\nthree\n");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn updating_writes_the_file_and_its_directory() {
        let dir = scratch("update");
        let path = dir.join("deep/er/golden.txt");
        assert_eq!(check_or_update(&path, "new\n", true), Ok(()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "new\n");
        assert_eq!(check_or_update(&path, "newer\n", true), Ok(()));
        assert_eq!(fs::read_to_string(&path).unwrap(), "newer\n");
        assert_eq!(check_or_update(&path, "newer\n", false), Ok(()));
        let _ = fs::remove_dir_all(&dir);
    }
}

//! The reader must not panic on any input, by construction: the page is built with
//! `panic = "abort"`, where `catch_unwind` catches nothing and a panic ends the page. These
//! property tests drive the YAML parser and the reader directly (no `catch_unwind` anywhere on
//! the way: a panic fails the case, and proptest shrinks it to a small input) with arbitrary
//! bytes, arbitrary UTF-8, YAML-ish text and the seed labs mutated: bytes flipped, text cut,
//! lines duplicated, dropped, swapped and re-indented, values replaced by huge numbers,
//! unicode and YAML punctuation. Texts that read cleanly are simulated, as the page would.
//!
//! 384 cases per property by default (under a second in release, seven in debug); for a
//! longer hunt: `PROPTEST_CASES=50000 cargo test --release -p kpg-manifests --test
//! arbitrary_input` (2.5 minutes on two cores; no panic found at 50,000).

use std::path::PathBuf;
use std::sync::OnceLock;

use kpg_core::sim::Simulation;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(384);
    ProptestConfig {
        cases,
        // A failure found here becomes a named test of its input (in `robustness.rs`), not a
        // proptest-regressions file beside this one.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The seed labs (the page's lessons) and the reader's own fixtures: what mutations start from.
fn labs() -> &'static [String] {
    static LABS: OnceLock<Vec<String>> = OnceLock::new();
    LABS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        for dir in [
            root.join("../tests/labs"),
            root.join("../tests/labs/volumes"),
            root.join("tests/fixtures/seeds"),
        ] {
            let mut paths: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect();
            paths.sort();
            for p in paths {
                out.push(std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{e}")));
            }
        }
        out.push(include_str!("fixtures/pod-template-full.yaml").to_string());
        assert!(out.len() > 10, "the labs are where they were");
        out
    })
}

/// Every event of a stream, to its end or its first error.
fn parse_events(text: &str) {
    for event in granit_parser::Parser::new_from_str(text) {
        if event.is_err() {
            break;
        }
    }
}

/// Everything the page and the terminal hand a text to, with the properties each promises.
fn read_everything(text: &str) {
    // The parser alone, over the whole stream.
    parse_events(text);
    // The terminal's `apply -f` / `delete -f`: each document on its own.
    let documents = kpg_manifests::documents(text);
    assert_eq!(documents.len(), kpg_manifests::document_spans(text).len());

    let loaded = kpg_manifests::load(text);
    // YAML breaks lines at CR, LF and CR LF; a diagnostic points into the text.
    let yaml_lines = text.replace("\r\n", "\n").split(['\r', '\n']).count();
    for d in &loaded.diagnostics {
        assert!(d.line >= 1 && d.column >= 1, "{d}");
        assert!(d.line <= yaml_lines, "line {} of {yaml_lines}: {d}", d.line);
        let _ = d.to_string();
        assert!(!d.message.is_empty(), "{d:?}");
    }
    let lines = text.lines().count();
    for (first, last, _) in kpg_manifests::document_spans(text) {
        assert!(
            1 <= first && first <= last && last <= lines,
            "{first}..{last} of {lines}"
        );
    }
    let migration = kpg_manifests::migrate(text);
    if migration.text != text {
        let _ = kpg_manifests::load(&migration.text);
    }
    if !loaded.has_errors() {
        // Every object the simulation can show as written points into the text.
        for w in loaded.scenario.written.iter() {
            assert!(1 <= w.lines.0 && w.lines.0 <= w.lines.1, "{:?}", w.lines);
            assert!(w.lines.1 <= yaml_lines, "{:?} of {yaml_lines}", w.lines);
        }
        simulate(loaded.scenario);
    }
}

/// What the page does with manifests that read cleanly. The reader turns away everything the
/// engine would refuse (an unknown region, zone or instance type, too many nodes or pods), so
/// the engine takes whatever it is given.
fn simulate(scenario: kpg_manifests::Scenario) -> Simulation {
    let mut sim = Simulation::new(scenario)
        .unwrap_or_else(|e| panic!("the reader accepted what the engine refuses: {e}"));
    sim.run_until(10 * 60_000);
    let _ = sim.report();
    sim
}

/// Pieces of YAML that readers get wrong: punctuation, tags, anchors, directives, markers.
const YAML: &[&str] = &[
    ":", ": ", "- ", "-", "[", "]", "{", "}", "'", "\"", "#", ",", "?", "? ", "&a ", "*a",
    "<<: *a", "!", "!!int ", "!!str ", "!!map ", "!x ", "|", "|-", ">", ">+", "---\n", "...\n",
    "--- |\n", "%YAML 1", "%TAG", "~", "null", "yes", "on", "\t", "\r", "\r\n", "\\",
];

/// Numbers past every integer and float type, and quantities and durations with odd suffixes.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "-1",
    "1e999",
    "-1e999",
    ".inf",
    ".nan",
    "0x",
    "0xffffffffffffffff",
    "0o777",
    "1_000",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "0.000000000000000000000000001",
    "1e-400",
    "999999999999Ti",
    "1Ei",
    "9Ei",
    "9e18",
    "99999999999m",
    "0.5m",
    "1.5.5",
    "-5Gi",
    "1Ki",
    "+1",
    "-1s",
    "99999999h",
    "720h720h",
    "1d",
];

/// Characters that are not one byte each, or not printable: BOM, NUL, DEL, right-to-left
/// override, line and paragraph separators, NEL, zero-width space, the replacement character.
const UNICODE: &[&str] = &[
    "é", "한글", "😀", "𝔘", "\u{FEFF}", "\u{0}", "\u{7F}", "\u{202E}", "\u{2028}", "\u{2029}",
    "\u{85}", "\u{200B}", "\u{FFFD}",
];

fn token() -> impl Strategy<Value = &'static str> {
    proptest::sample::select([YAML, NUMBERS, UNICODE].concat())
}

#[derive(Clone, Debug)]
enum Edit {
    /// Replaces one byte (which may leave invalid UTF-8, read back lossily).
    SetByte(Index, u8),
    Truncate(Index),
    DuplicateLine(Index),
    DeleteLine(Index),
    SwapLines(Index, Index),
    /// Indents a line by this many spaces, or a tab when 0.
    Indent(Index, u8),
    Dedent(Index),
    Insert(Index, &'static str),
    /// Replaces what follows a line's first `: ` (a mapping value) with the token.
    ReplaceValue(Index, &'static str),
    InsertBytes(Index, Vec<u8>),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::SetByte(i, b)),
        any::<Index>().prop_map(Edit::Truncate),
        any::<Index>().prop_map(Edit::DuplicateLine),
        any::<Index>().prop_map(Edit::DeleteLine),
        (any::<Index>(), any::<Index>()).prop_map(|(i, j)| Edit::SwapLines(i, j)),
        (any::<Index>(), 0u8..9).prop_map(|(i, n)| Edit::Indent(i, n)),
        any::<Index>().prop_map(Edit::Dedent),
        (any::<Index>(), token()).prop_map(|(i, t)| Edit::Insert(i, t)),
        (any::<Index>(), token()).prop_map(|(i, t)| Edit::ReplaceValue(i, t)),
        (any::<Index>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(i, b)| Edit::InsertBytes(i, b)),
    ]
}

fn lines_of(bytes: &[u8]) -> Vec<Vec<u8>> {
    bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect()
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let mut lines = lines_of(bytes);
    let line_count = lines.len();
    match edit {
        Edit::SetByte(i, b) if !bytes.is_empty() => {
            let at = i.index(bytes.len());
            bytes[at] = *b;
            return;
        }
        Edit::Truncate(i) => {
            bytes.truncate(i.index(bytes.len() + 1));
            return;
        }
        Edit::Insert(i, token) => {
            let at = i.index(bytes.len() + 1);
            bytes.splice(at..at, token.bytes());
            return;
        }
        Edit::InsertBytes(i, new) => {
            let at = i.index(bytes.len() + 1);
            bytes.splice(at..at, new.iter().copied());
            return;
        }
        Edit::SetByte(..) => return,
        Edit::DuplicateLine(i) => {
            let l = lines[i.index(line_count)].clone();
            lines.insert(i.index(line_count), l);
        }
        Edit::DeleteLine(i) => {
            lines.remove(i.index(line_count));
        }
        Edit::SwapLines(i, j) => lines.swap(i.index(line_count), j.index(line_count)),
        Edit::Indent(i, n) => {
            let pad: Vec<u8> = if *n == 0 {
                vec![b'\t']
            } else {
                vec![b' '; usize::from(*n)]
            };
            lines[i.index(line_count)].splice(0..0, pad);
        }
        Edit::Dedent(i) => {
            let l = &mut lines[i.index(line_count)];
            let spaces = l.iter().take_while(|&&b| b == b' ').count();
            l.drain(..spaces);
        }
        Edit::ReplaceValue(i, token) => {
            let l = &mut lines[i.index(line_count)];
            if let Some(at) = l.windows(2).position(|w| w == b": ") {
                l.truncate(at + 2);
                l.extend_from_slice(token.as_bytes());
            }
        }
    }
    *bytes = lines.join(&b'\n');
}

fn mutated_lab() -> impl Strategy<Value = Vec<u8>> {
    (any::<Index>(), proptest::collection::vec(edit(), 1..6)).prop_map(|(lab, edits)| {
        let labs = labs();
        let mut bytes = labs[lab.index(labs.len())].clone().into_bytes();
        for e in &edits {
            apply(&mut bytes, e);
        }
        bytes
    })
}

/// Text over YAML's punctuation, indentation and a few words, so most inputs get past the
/// scanner into the parser and the reader's checks.
fn yamlish() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            4 => token().prop_map(str::to_string),
            3 => proptest::sample::select(&[
                "apiVersion", "kind", "metadata", "name", "spec", "v1", "karpenter.sh/v1",
                "NodePool", "Pod", "Deployment", "Cluster", "Timeline", "replicas", "requests",
                "cpu", "memory", "template", "containers", "\n", "\n  ", "\n    ", "\n- ",
                "  ", " ",
            ][..])
            .prop_map(str::to_string),
            1 => "[a-z0-9]{1,6}",
        ],
        0..120,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(text) = std::str::from_utf8(&bytes) {
            parse_events(text);
        }
        read_everything(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        read_everything(&text);
    }

    #[test]
    fn yamlish_text_never_panics(text in yamlish()) {
        read_everything(&text);
    }

    #[test]
    fn mutated_labs_never_panic(bytes in mutated_lab()) {
        if let Ok(text) = std::str::from_utf8(&bytes) {
            parse_events(text);
        }
        read_everything(&String::from_utf8_lossy(&bytes));
    }
}

/// The mutations are not all noise: some mutated labs still read cleanly and reach the engine
/// (about one in seven), most do not, so both the reader's checks and the simulation are
/// exercised.
#[test]
fn mutated_labs_reach_both_the_diagnostics_and_the_engine() {
    let mut runner = TestRunner::deterministic();
    let strategy = mutated_lab();
    let (mut clean, mut refused) = (0, 0);
    for _ in 0..200 {
        let bytes = strategy
            .new_tree(&mut runner)
            .expect("a mutated lab")
            .current();
        let loaded = kpg_manifests::load(&String::from_utf8_lossy(&bytes));
        if loaded.has_errors() {
            refused += 1;
        } else {
            clean += 1;
            simulate(loaded.scenario);
        }
    }
    assert!(
        clean >= 15 && refused >= 40,
        "{clean} clean, {refused} refused"
    );
}

//! `kpg share`: the link decodes back to the file's documents, the snippets carry the
//! scenario only as escaped text, and a scenario with errors gives no link at all.

mod common;

use std::fs;
use std::path::PathBuf;

use common::*;
use kpg_share::{Shared, decode, split_documents};

/// A scratch file under the system temp dir, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        let dir = std::env::temp_dir().join(format!("kpg-share-test-{}", std::process::id()));
        fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        fs::write(&path, contents).expect("write temp file");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

fn lab_path(name: &str) -> String {
    lab(name).to_str().expect("UTF-8 path").to_string()
}

fn lab_text(name: &str) -> String {
    fs::read_to_string(lab(name)).expect("the lab reads")
}

/// Every lab in `tests/labs/`, by file name.
fn labs() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(lab(""))
        .expect("tests/labs")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "the labs are there: {names:?}");
    names
}

/// `kpg ARGS`, which must succeed; its stdout.
fn ok(args: &[&str]) -> String {
    let out = kpg(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "kpg {args:?}\n--- stderr ---\n{}",
        stderr(&out)
    );
    stdout(&out)
}

/// The one line `kpg share` prints, checked to start with `base#kpg1.`, decoded.
fn decoded_link(out: &str, base: &str) -> Shared {
    assert!(out.ends_with('\n'), "one line: {out:?}");
    let line = out.trim_end_matches('\n');
    assert!(!line.contains('\n'), "one line: {out}");
    let fragment = line
        .strip_prefix(base)
        .and_then(|rest| rest.strip_prefix('#'))
        .unwrap_or_else(|| panic!("the link starts with {base}#: {line}"));
    assert!(fragment.starts_with("kpg1."), "{line}");
    decode(fragment).unwrap_or_else(|e| panic!("the link decodes: {e}: {line}"))
}

/// What an HTML parser makes of text that `kpg_share::escape_html` wrote.
fn unescape(html: &str) -> String {
    html.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The value of the first `name="..."` attribute in `html`, unescaped.
fn attribute(html: &str, name: &str) -> String {
    let start = html
        .find(&format!(" {name}=\""))
        .unwrap_or_else(|| panic!("no {name}= in {html}"))
        + name.len()
        + 3;
    let len = html[start..].find('"').expect("the attribute ends");
    unescape(&html[start..start + len])
}

const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

/// Valid, with one warning (the unknown field), and markup an author's page must not run
/// wherever the reader lets it through: comments, an unknown field's name, annotations, an
/// image.
const HOSTILE: &str = r#"# <script>alert(1)</script> and "><img onerror=alert(1) src=x>
apiVersion: v1
kind: Pod
metadata:
  name: web
  annotations:
    note: "<script>alert(1)</script>"
    other: '"><img onerror=alert(1) src=x>'
  "<script>alert(1)</script>": ignored
spec:
  containers:
    - name: c
      # </pre><script>alert(1)</script>
      image: "\"><img onerror=alert(1) src=x>"
      resources: {requests: {cpu: 100m}}
---
# ' onmouseover='alert(1)' & </textarea>
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
"#;

/// The same strings where the reader refuses them: a name and a label value.
const HOSTILE_NAMES: &str = r#"apiVersion: v1
kind: Pod
metadata:
  name: "<script>alert(1)</script>"
  labels:
    app: '"><img onerror=alert(1) src=x>'
spec:
  containers:
    - name: c
      image: nginx
"#;

/// Strings that only ever reach the output escaped.
const RAW: [&str; 5] = [
    "<script>alert",
    "<img",
    "</pre><",
    "' onmouseover='",
    "</textarea>",
];

/// Line 15: `WhenUnderutilized` is the v1beta1 name; the v1 CRD rejects it. Line 6: an
/// unknown field (a warning, printed with the error).
const INVALID: &str = "\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: broken
spec:
  weigth: 10
  template:
    spec:
      requirements: []
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
  disruption:
    consolidationPolicy: WhenUnderutilized
    consolidateAfter: 30s
";

// ---- the link -----------------------------------------------------------------------------

#[test]
fn the_link_decodes_to_the_files_documents_and_instant() {
    for name in labs() {
        let text = lab_text(&name);
        let shared = decoded_link(
            &ok(&["share", &lab_path(&name), "--at", "5m"]),
            DEFAULT_BASE,
        );
        assert_eq!(shared.docs, split_documents(&text), "{name}");
        assert!(
            shared.docs.len() >= 3,
            "{name}: {} documents",
            shared.docs.len()
        );
        assert_eq!(shared.at, 300_000, "{name}");
        // Beside them, the cluster at that instant for the page's first frame: the nodes
        // and pods `kpg simulate` reports there.
        let figure = shared.figure.clone().expect("the link carries its cluster");
        let report = simulate_json(&text, "5m");
        let nodes = report["nodes"].as_array().expect("nodes").len();
        let pending = report["pods"]
            .as_array()
            .expect("pods")
            .iter()
            .filter(|p| p["node"].is_null())
            .count();
        assert_eq!(
            (figure.at_ms, figure.nodes, figure.pods_pending),
            (300_000, nodes, pending),
            "{name}: the figure is the cluster at 5m"
        );
        assert_eq!(
            Shared {
                figure: None,
                ..shared
            },
            Shared {
                docs: split_documents(&text),
                at: 300_000,
                ..Shared::default()
            },
            "{name}: the documents, the instant and the figure, nothing else"
        );
    }
    let shared = decoded_link(
        &ok(&["share", &lab_path("seed002-limits.yaml")]),
        DEFAULT_BASE,
    );
    assert_eq!(shared.at, 0, "without --at, the start");
}

#[test]
fn the_base_is_honoured() {
    let path = lab_path("seed000-hello-world.yaml");
    let docs = split_documents(&lab_text("seed000-hello-world.yaml"));
    let want = ok(&["share", &path, "--base", "https://example.com/kpg/"]);
    assert_eq!(
        decoded_link(&want, "https://example.com/kpg/").docs,
        docs,
        "{want}"
    );
    // The playground is a directory: without its slash, the link still points into it.
    assert_eq!(
        ok(&["share", &path, "--base=https://example.com/kpg"]),
        want
    );
    let out = ok(&[
        "share",
        &path,
        "--base",
        "https://example.com/kpg/index.html",
    ]);
    assert_eq!(
        decoded_link(&out, "https://example.com/kpg/index.html").docs,
        docs
    );
}

#[test]
fn standard_input_and_reruns_give_the_same_bytes() {
    for name in labs() {
        let path = lab_path(&name);
        for extra in [
            &["--at", "90s"][..],
            &["--embed", "--autoplay", "--view", "cluster,events"],
            &["--iframe", "--readonly"],
        ] {
            let mut args = vec!["share", path.as_str()];
            args.extend_from_slice(extra);
            let first = kpg(&args);
            assert_eq!(first.status.code(), Some(0), "{args:?}: {}", stderr(&first));
            let again = kpg(&args);
            assert_eq!(first.stdout, again.stdout, "kpg {args:?} twice");
            args[1] = "-";
            let piped = kpg_stdin(&args, lab_text(&name).as_bytes());
            if extra[0] == "--iframe" {
                // Only the default title differs: it names the file.
                let file_title = format!(
                    "title=\"Karpenter Playground: {}\"",
                    name.trim_end_matches(".yaml")
                );
                assert!(stdout(&first).contains(&file_title), "{}", stdout(&first));
                assert_eq!(
                    attribute(&stdout(&piped), "src"),
                    attribute(&stdout(&first), "src"),
                    "{name}"
                );
            } else {
                assert_eq!(first.stdout, piped.stdout, "{name}: file and stdin");
            }
        }
    }
}

#[test]
fn warnings_go_to_stderr_as_simulate_prints_them_and_the_link_is_made() {
    let f = TempFile::new("hostile.yaml", HOSTILE);
    let out = kpg(&["share", f.path()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let simulated = kpg(&["simulate", f.path()]);
    assert_eq!(simulated.status.code(), Some(0), "{}", stderr(&simulated));
    assert!(
        stderr(&out).contains("warning[unknown-field]"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stderr(&out), stderr(&simulated));
    assert_eq!(
        decoded_link(&stdout(&out), DEFAULT_BASE).docs,
        split_documents(HOSTILE)
    );
}

#[test]
fn a_long_link_gets_a_note_on_stderr() {
    // Hex that deflate cannot shrink much: well over 8 KB of link.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut yaml =
        String::from("apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  annotations:\n");
    for i in 0..300 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        yaml.push_str(&format!(
            "    note-{i}: \"{seed:016x}{:016x}\"\n",
            seed.rotate_left(29)
        ));
    }
    yaml.push_str("spec:\n  containers: [{name: c, image: nginx}]\n");
    let f = TempFile::new("long.yaml", &yaml);
    let out = kpg(&["share", f.path()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let link = stdout(&out);
    assert!(
        link.len() > kpg_share::LONG_LINK_CHARS,
        "{} chars",
        link.len()
    );
    assert_eq!(
        decoded_link(&link, DEFAULT_BASE).docs,
        split_documents(&yaml)
    );
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains(&format!("the link is {} characters", link.len() - 1)),
        "{err}"
    );
    assert!(err.contains("8 KB") && err.contains(f.path()), "{err}");

    let out = kpg(&["share", &lab_path("seed002-scale-out.yaml")]);
    assert!(
        stderr(&out).is_empty(),
        "a short link, no note: {}",
        stderr(&out)
    );
    // The note is about pasting links; an embed carries the YAML as text.
    let out = kpg(&["share", f.path(), "--embed"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

// ---- the snippets ---------------------------------------------------------------------------

#[test]
fn the_embed_snippet_carries_the_options_and_escaped_text() {
    let f = TempFile::new("hostile.yaml", HOSTILE);
    let html = ok(&[
        "share",
        f.path(),
        "--base",
        "https://example.com/kpg/",
        "--embed",
        "--view",
        "cluster,manifests",
        "--autoplay",
        "--speed",
        "60",
        "--until",
        "10m",
        "--at",
        "5m",
        "--theme",
        "dark",
        "--lang",
        "ko",
        "--readonly",
    ]);
    for raw in RAW {
        assert!(!html.contains(raw), "{raw:?} unescaped in:\n{html}");
    }
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    assert!(
        html.contains("&quot;&gt;&lt;img onerror=alert(1) src=x&gt;"),
        "{html}"
    );
    // The drawing first, in the embed's theme and language, then the YAML folded under it.
    assert!(html.starts_with("<svg "), "{html}");
    assert!(
        !html.contains("@media") && html.contains("#0e1115"),
        "dark: {html}"
    );
    assert!(html.contains("파드"), "in Korean: {html}");
    let html = &html[html.find("</svg>\n").expect("the drawing ends") + "</svg>\n".len()..];
    assert!(
        html.starts_with(
            "<details class=\"karpenter-playground-manifests\"><summary>매니페스트 (YAML)\
             </summary>\n<pre class=\"karpenter-playground\" data-view=\"cluster,manifests\" \
             data-autoplay data-speed=\"60\" data-until=\"10m0s\" data-at=\"5m0s\" \
             data-theme=\"dark\" data-lang=\"ko\" data-readonly>"
        ),
        "{html}"
    );
    assert!(
        html.ends_with(
            "</pre>\n</details>\n<script src=\"https://example.com/kpg/embed.js\" defer>\
             </script>\n"
        ),
        "{html}"
    );
    assert_eq!(html.matches("<script").count(), 1, "only embed.js: {html}");
    assert_eq!(html.matches("<pre").count(), 1, "{html}");
    assert_eq!(html.matches("</pre>").count(), 1, "{html}");
    // What the reader's browser shows in the <pre> (and embed.js reads) is the file.
    let pre = html.find("<pre").expect("a <pre>");
    let body_start = pre + html[pre..].find('>').expect("the <pre> tag ends") + 1;
    let body_end = html.find("</pre>").expect("the <pre> ends");
    assert_eq!(
        unescape(&html[body_start..body_end]),
        format!("{}\n", HOSTILE.trim_end())
    );

    // Defaults: no data attributes, the local playground.
    let html = ok(&["share", &lab_path("seed002-limits.yaml"), "--embed"]);
    assert!(
        html.contains("<pre class=\"karpenter-playground\"># Lab"),
        "{html}"
    );
    assert!(html.ends_with("<script src=\"http://127.0.0.1:8080/embed.js\" defer></script>\n"));
}

#[test]
fn the_iframe_snippet_carries_the_link() {
    let path = lab_path("seed002-limits.yaml");
    let html = ok(&[
        "share",
        &path,
        "--base",
        "https://example.com/kpg/",
        "--iframe",
        "--at",
        "5m",
        "--view",
        "cluster",
    ]);
    assert_eq!(html.lines().count(), 1, "{html}");
    assert!(
        html.starts_with("<iframe src=\"") && html.ends_with("></iframe>\n"),
        "{html}"
    );
    assert!(!html.contains("allow="), "{html}");
    assert!(html.contains(" height=\"480\""), "{html}");
    assert!(
        html.contains(" title=\"Karpenter Playground: seed002-limits\""),
        "{html}"
    );
    let src = attribute(&html, "src");
    let (page, fragment) = src.split_once('#').expect("a fragment");
    assert_eq!(
        page,
        "https://example.com/kpg/index.html?embed&view=cluster&at=5m0s"
    );
    let shared = decode(fragment).expect("the fragment decodes");
    assert_eq!(
        shared.docs,
        split_documents(&lab_text("seed002-limits.yaml"))
    );
    assert_eq!(shared.at, 300_000);

    let html = ok(&[
        "share",
        &path,
        "--iframe",
        "--height",
        "600",
        "--title",
        "<b onclick=\"x()\">'lab'</b>",
    ]);
    assert!(html.contains(" height=\"600\""), "{html}");
    assert_eq!(attribute(&html, "title"), "<b onclick=\"x()\">'lab'</b>");
    assert!(!html.contains("<b") && !html.contains("\"x()"), "{html}");

    let f = TempFile::new("hostile.yaml", HOSTILE);
    let html = ok(&["share", f.path(), "--iframe"]);
    for raw in RAW {
        assert!(!html.contains(raw), "{raw:?} unescaped in:\n{html}");
    }
    let src = attribute(&html, "src");
    let (_, fragment) = src.split_once('#').expect("a fragment");
    assert_eq!(decode(fragment).unwrap().docs, split_documents(HOSTILE));
}

// ---- no link -------------------------------------------------------------------------------

#[test]
fn a_scenario_with_errors_gives_its_diagnostics_and_no_link() {
    let f = TempFile::new("invalid.yaml", INVALID);
    let simulated = kpg(&["simulate", f.path()]);
    assert_eq!(simulated.status.code(), Some(1));
    let simulate_err = stderr(&simulated);
    let (diagnostics, last) = simulate_err
        .trim_end()
        .rsplit_once('\n')
        .expect("diagnostics, then a summary");
    assert!(diagnostics.contains(":15:26: error["), "{diagnostics}");
    assert!(
        diagnostics.contains(":6:3: warning[unknown-field]"),
        "{diagnostics}"
    );
    assert!(
        last.ends_with("1 error, 1 warning; nothing was simulated"),
        "{last}"
    );
    for extra in [&[][..], &["--embed"], &["--iframe"], &["--at", "5m"]] {
        let mut args = vec!["share", f.path()];
        args.extend_from_slice(extra);
        let out = kpg(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        assert_eq!(
            stderr(&out),
            format!(
                "{diagnostics}\nkpg: {}: 1 error, 1 warning; no link was made\n",
                f.path()
            ),
            "{args:?}"
        );
    }
}

#[test]
fn hostile_names_are_refused_not_shared() {
    let f = TempFile::new("names.yaml", HOSTILE_NAMES);
    for extra in [&[][..], &["--embed"], &["--iframe"]] {
        let mut args = vec!["share", f.path()];
        args.extend_from_slice(extra);
        let out = kpg(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
        assert!(
            stderr(&out).contains("error[invalid-name]")
                || stderr(&out).contains("error[invalid-label]"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn nothing_to_share() {
    for text in ["", "\n\n---\n\n"] {
        let f = TempFile::new("empty.yaml", text);
        let out = kpg(&["share", f.path()]);
        assert_eq!(out.status.code(), Some(1), "{text:?}");
        assert!(stdout(&out).is_empty());
        assert!(
            stderr(&out).contains("nothing to share"),
            "{}",
            stderr(&out)
        );
    }
    let out = kpg(&["share", "/nonexistent/kpg-share.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no such file"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_scenario_beyond_what_a_link_holds_gets_no_link_but_an_embed() {
    // Over the 1 MiB a link may inflate to (the reader takes up to 5 MiB).
    let mut seed: u64 = 7;
    let mut yaml = String::new();
    for i in 0..2500 {
        let mut note = String::new();
        for _ in 0..50 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            note.push_str(&format!("{:016x}", seed >> 1));
        }
        yaml.push_str(&format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p{i}\
             \n  annotations: {{n: \"{note}\"}}\nspec:\n  containers: [{{name: c, image: nginx}}]\n"
        ));
    }
    assert!(yaml.len() > 2 * kpg_share::MAX_DECODED_BYTES);
    let f = TempFile::new("huge.yaml", &yaml);
    for extra in [&[][..], &["--iframe"]] {
        let mut args = vec!["share", f.path()];
        args.extend_from_slice(extra);
        let out = kpg(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("cannot be shared as a link: larger than"),
            "{err}"
        );
        assert!(err.contains("share the .yaml file"), "{err}");
    }
    // An embed carries the YAML as text: no link to outgrow.
    let html = ok(&["share", f.path(), "--embed"]);
    assert!(html.len() > yaml.len(), "{}", html.len());
}

// ---- the command line ------------------------------------------------------------------------

#[test]
fn bad_flags_exit_2_naming_the_flag_and_what_it_takes() {
    let path = lab_path("seed002-limits.yaml");
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--embed", "--speed", "7"],
            &["--speed \"7\"", "1, 10 or 60"],
        ),
        (
            &["--iframe", "--speed=2"],
            &["--speed \"2\"", "1, 10 or 60"],
        ),
        (
            &["--embed", "--theme", "blue"],
            &["--theme \"blue\"", "light, dark or auto"],
        ),
        (&["--embed", "--lang", "fr"], &["--lang \"fr\"", "en or ko"]),
        (
            &["--embed", "--view", "cluster,clster"],
            &[
                "--view \"clster\"",
                "cluster, manifests, events, explain, terminal",
            ],
        ),
        (
            &["--iframe", "--height", "tall"],
            &["--height \"tall\"", "pixels"],
        ),
        (&["--at", "soon"], &["--at \"soon\"", "Go duration"]),
        (
            &["--embed", "--until", "1x"],
            &["--until \"1x\"", "Go duration"],
        ),
        (&["--autoplay"], &["--autoplay", "--embed"]),
        (&["--readonly"], &["--readonly", "--embed"]),
        (&["--theme", "dark"], &["--theme", "--embed"]),
        (&["--embed", "--height", "300"], &["--height", "--iframe"]),
        (&["--embed", "--iframe"], &["--embed or --iframe"]),
        (&["--bogus"], &["unknown flag \"--bogus\""]),
        (&["--base"], &["--base needs a value"]),
    ];
    for (extra, needles) in cases {
        let mut args = vec!["share", path.as_str()];
        args.extend_from_slice(extra);
        let out = kpg(&args);
        assert_eq!(out.status.code(), Some(2), "kpg {args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "kpg {args:?} printed to stdout");
        let err = stderr(&out);
        for needle in *needles {
            assert!(
                err.contains(needle),
                "kpg {args:?}: stderr lacks {needle:?}: {err}"
            );
        }
        assert!(
            err.contains("Usage: kpg share"),
            "kpg {args:?} shows usage: {err}"
        );
    }
    let out = kpg(&["share"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("missing FILE"), "{}", stderr(&out));
}

#[test]
fn help() {
    for args in [
        &["help", "share"][..],
        &["share", "--help"],
        &["share", "x.yaml", "-h"],
    ] {
        let out = kpg(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = stdout(&out);
        assert!(text.starts_with("Usage: kpg share FILE"), "{text}");
        for needle in [
            "fragment",
            "never sent to a server",
            "8 KB",
            "--embed",
            "--iframe",
            "--view LIST",
            "http://127.0.0.1:8080/",
        ] {
            assert!(text.contains(needle), "help lacks {needle:?}");
        }
    }
    let overview = stdout(&kpg(&["help"]));
    assert!(overview.contains("kpg share FILE"), "{overview}");
    assert!(overview.contains("  share      "), "{overview}");
}

/// The drawing in an embed snippet: its `aria-label` (title and figures).
fn poster_label(html: &str) -> String {
    assert!(
        html.starts_with("<svg "),
        "a drawing first: {}",
        &html[..80.min(html.len())]
    );
    attribute(
        &html[..html.find('>').expect("the <svg> tag ends")],
        "aria-label",
    )
}

fn gzipped(bytes: &[u8]) -> usize {
    // gzip is deflate plus 18 bytes of header and trailer.
    miniz_oxide::deflate::compress_to_vec(bytes, 9).len() + 18
}

#[test]
fn every_labs_embed_draws_its_cluster_at_the_instant_within_30_kb_gzipped() {
    let mut largest = (0, String::new());
    for name in labs() {
        for at in ["0s", "5m", "30m"] {
            let html = ok(&["share", &lab_path(&name), "--embed", "--at", at]);
            // The drawing is the engine's cluster at that instant: kpg simulate's nodes.
            let report: serde_json::Value = serde_json::from_str(&ok(&[
                "simulate",
                &lab_path(&name),
                "--until",
                at,
                "--output",
                "json",
            ]))
            .expect("JSON");
            let nodes = report["nodes"].as_array().expect("nodes").len();
            let label = poster_label(&html);
            let counted = if nodes == 1 {
                String::from(": 1 node · ")
            } else {
                format!(": {nodes} nodes · ")
            };
            assert!(
                label.contains(&counted),
                "{name} at {at}: {label} ({nodes} nodes)"
            );
            assert_eq!(html.matches("<script").count(), 1, "only embed.js: {name}");
            let size = gzipped(html.as_bytes());
            assert!(size <= 30 * 1024, "{name} at {at}: {size} B gzipped");
            if size > largest.0 {
                largest = (size, format!("{name} at {at}"));
            }
        }
    }
    eprintln!(
        "largest embed snippet: {} B gzipped ({})",
        largest.0, largest.1
    );
}

#[test]
fn live_is_an_option_of_the_embed() {
    for (live, attr) in [
        ("click", " data-live=\"click\">"),
        ("never", " data-live=\"never\">"),
    ] {
        let html = ok(&[
            "share",
            &lab_path("seed000-hello-world.yaml"),
            "--embed",
            "--live",
            live,
        ]);
        assert!(html.contains(attr), "{live}: {html}");
    }
    let html = ok(&[
        "share",
        &lab_path("seed000-hello-world.yaml"),
        "--embed",
        "--live",
        "visible",
    ]);
    assert!(!html.contains("data-live"), "the default goes unsaid");
    for (args, says) in [
        (&["--live", "click"][..], "--live is an option of --embed"),
        (
            &["--iframe", "--live", "click"][..],
            "--live is an option of --embed",
        ),
        (
            &["--embed", "--live", "soon"][..],
            "unknown --live \"soon\"",
        ),
    ] {
        let mut all = vec!["share", "x.yaml"];
        all.extend_from_slice(args);
        let out = kpg(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A PNG's width and height, from its IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&png[16..20]), be(&png[20..24]))
}

#[test]
fn the_page_flag_writes_a_preview_page_and_its_card_image() {
    let dir = std::env::temp_dir().join(format!("kpg-share-page-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let lab = lab_path("seed002-limits.yaml");
    let args = |d: &std::path::Path| {
        ok(&[
            "share",
            &lab,
            "--base",
            "https://example.com/kpg/",
            "--at",
            "5m",
            "--page",
            d.to_str().expect("UTF-8"),
            "--page-url",
            "https://blog.example/previews/limits",
        ])
    };
    let out = args(&dir);
    assert_eq!(out, "https://blog.example/previews/limits/\n");
    let html = fs::read_to_string(dir.join("index.html")).expect("index.html");
    let png = fs::read(dir.join("preview.png")).expect("preview.png");
    assert_eq!(png_size(&png), (1200, 630));
    let meta = |name: &str| {
        let at = html
            .find(&format!("=\"{name}\" content=\""))
            .unwrap_or_else(|| panic!("{name} in {html}"));
        let rest = &html[at + name.len() + 13..];
        unescape(&rest[..rest.find('"').expect("the value ends")])
    };
    assert_eq!(
        meta("og:image"),
        "https://blog.example/previews/limits/preview.png"
    );
    assert_eq!(meta("og:image:width"), "1200");
    assert_eq!(meta("twitter:card"), "summary_large_image");
    assert_eq!(meta("og:title"), "cluster mydev · Karpenter Playground");
    // The figures of kpg simulate at the same instant.
    let report: serde_json::Value = serde_json::from_str(&ok(&[
        "simulate", &lab, "--until", "5m", "--output", "json",
    ]))
    .expect("JSON");
    let nodes = report["nodes"].as_array().expect("nodes").len();
    let pending = report["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .filter(|p| p["phase"] == "Pending")
        .count();
    let description = meta("og:description");
    assert!(
        description.starts_with(&format!("{nodes} nodes · $"))
            && description.ends_with(&format!(" · {pending} pending")),
        "{description} ({nodes} nodes, {pending} pending)"
    );
    // It opens the share link, for browsers that run scripts and for those that do not.
    let link = ok(&[
        "share",
        &lab,
        "--base",
        "https://example.com/kpg/",
        "--at",
        "5m",
    ]);
    assert!(html.contains(&format!("<a class=\"open\" href=\"{}\">", link.trim())));
    assert!(html.contains("location.replace("));
    assert!(
        html.contains("<svg "),
        "the drawing, for readers without JavaScript"
    );
    // The same scenario gives the same image, byte for byte (the fonts are kpg's own).
    let again = dir.join("again");
    args(&again);
    assert_eq!(fs::read(again.join("preview.png")).expect("png"), png);
    let _ = fs::remove_dir_all(&dir);

    let out = kpg(&["share", &lab, "--page", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--page needs --page-url"));
    let out = kpg(&["share", &lab, "--page", "x", "--page-url", "blog/x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid --page-url"));
}

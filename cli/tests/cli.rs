//! The command line's contract: exit statuses, where output goes, and error messages.

mod common;

use std::fs;
use std::path::PathBuf;

use common::*;
use serde_json::Value;

/// A scratch file under the system temp dir, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &[u8]) -> TempFile {
        let dir = std::env::temp_dir().join(format!("kpg-cli-test-{}", std::process::id()));
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

/// Line 4 has a YAML syntax error.
const YAML_ERROR: &str = "\
apiVersion: v1
kind: Pod
metadata:
  name: x: y
spec:
  containers:
    - name: c
      image: nginx
";

/// Line 14: `WhenUnderutilized` is the v1beta1 name; the v1 CRD rejects it.
const INVALID_NODEPOOL: &str = "\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: broken
spec:
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
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiSelectorTerms:
    - alias: al2023@latest
  role: KarpenterNodeRole-playground
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery: playground
  securityGroupSelectorTerms:
    - tags:
        karpenter.sh/discovery: playground
";

// ---- help, version, usage errors -------------------------------------------------------

#[test]
fn help_goes_to_stdout() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let out = kpg(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = stdout(&out);
        assert!(text.contains("Usage:"), "{text}");
        assert!(text.contains("kpg simulate FILE"), "{text}");
        assert!(text.contains("kpg validate FILE"), "{text}");
        assert!(stderr(&out).is_empty());
    }
    let out = kpg(&["help", "simulate"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("--until DURATION"));
    let out = kpg(&["simulate", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("--output"));
}

#[test]
fn version() {
    for flag in ["--version", "-V"] {
        let out = kpg(&[flag]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(stdout(&out), format!("kpg {}\n", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn usage_errors_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "no command"),
        (&["bogus"], "unknown command"),
        (&["--bogus"], "unknown flag"),
        (&["simulate"], "missing FILE"),
        (&["simulate", "a.yaml", "--bogus"], "unknown flag"),
        (&["simulate", "a.yaml", "b.yaml"], "unexpected argument"),
        (&["simulate", "a.yaml", "--output", "bogus"], "bogus"),
        (&["simulate", "a.yaml", "--output"], "needs a value"),
        (&["simulate", "a.yaml", "--until", "soon"], "--until"),
        (&["simulate", "a.yaml", "--until", "-5m"], "--until"),
        (&["validate", "a.yaml", "--output", "table"], "table"),
    ];
    for (args, needle) in cases {
        let out = kpg(args);
        assert_eq!(out.status.code(), Some(2), "kpg {args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(needle),
            "kpg {args:?}: stderr lacks {needle:?}: {err}"
        );
        assert!(err.contains("Usage:"), "kpg {args:?} shows usage: {err}");
        assert!(stdout(&out).is_empty(), "kpg {args:?} printed to stdout");
    }
}

#[test]
fn output_bogus_is_checked_before_reading_the_file() {
    let out = kpg(&["simulate", "/nonexistent/kpg.yaml", "--output", "bogus"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unknown --output \"bogus\""),
        "{}",
        stderr(&out)
    );
}

// ---- unreadable and invalid scenarios ----------------------------------------------------

#[test]
fn missing_file() {
    let out = kpg(&["simulate", "/nonexistent/kpg-missing.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("/nonexistent/kpg-missing.yaml"), "{err}");
    assert!(err.contains("no such file"), "{err}");
    assert!(stdout(&out).is_empty());

    let out = kpg(&["validate", "/nonexistent/kpg-missing.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no such file"), "{}", stderr(&out));
}

#[test]
fn directory_is_not_a_scenario() {
    let dir = lab("");
    let out = kpg(&["simulate", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}

#[test]
fn not_utf8() {
    let f = TempFile::new(
        "latin1.yaml",
        b"apiVersion: v1\nkind: Pod\nmetadata: {name: caf\xe9}\n",
    );
    let out = kpg(&["simulate", f.path()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not UTF-8"), "{}", stderr(&out));
}

#[test]
fn yaml_syntax_error_names_the_line() {
    let f = TempFile::new("syntax.yaml", YAML_ERROR.as_bytes());
    let out = kpg(&["simulate", f.path(), "--output", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "no report: {}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains(f.path()), "stderr names the file: {err}");
    assert!(
        err.contains(&format!("{}:4:", f.path())),
        "stderr names line 4: {err}"
    );

    let out = kpg(&["validate", f.path()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("{}:4:", f.path())),
        "validate names line 4: {text}"
    );
    assert!(text.contains(": error["), "{text}");
}

#[test]
fn invalid_document_is_an_error() {
    let f = TempFile::new("invalid.yaml", INVALID_NODEPOOL.as_bytes());
    let out = kpg(&["simulate", f.path()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}: ", f.path())),
        "diagnostics are prefixed: {err}"
    );
    assert!(err.contains("nothing was simulated"), "{err}");

    let out = kpg(&["validate", f.path()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("{}:14:", f.path())),
        "validate names line 14: {text}"
    );
    assert!(
        text.contains("consolidationPolicy"),
        "validate names the field: {text}"
    );
    let last = text.lines().last().unwrap_or("");
    assert!(last.starts_with("1 error,"), "summary: {last}");
}

#[test]
fn validate_json() {
    let f = TempFile::new("invalid-json.yaml", INVALID_NODEPOOL.as_bytes());
    let out = kpg(&["validate", f.path(), "--output", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON array");
    let items = v.as_array().expect("an array");
    let error = items
        .iter()
        .find(|d| d["severity"] == "error")
        .unwrap_or_else(|| panic!("an error diagnostic in {v}"));
    assert_eq!(error["line"], 14, "{error}");
    assert_eq!(error["file"], f.path());
    for key in [
        "code", "origin", "document", "object", "path", "line", "column", "message", "help",
    ] {
        assert!(error.get(key).is_some(), "{key} in {error}");
    }
    // Every code in the output is one `kpg codes` explains, with the same origin.
    for d in items {
        let code = d["code"].as_str().expect("a code");
        let explained = kpg(&["codes", code]);
        assert_eq!(explained.status.code(), Some(0), "kpg codes {code}");
        let text = String::from_utf8_lossy(&explained.stdout);
        assert!(
            text.contains(&format!("origin: {}", d["origin"].as_str().unwrap_or("?"))),
            "{code}: {text}"
        );
    }
}

/// A typo deep inside a pod template that the simulation does not read: kubectl warns about
/// it (`unknown field "spec.template.spec.containers[0].securityContext..."`), and so does kpg.
const SECURITY_CONTEXT_TYPO: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: gpu
spec:
  selector:
    matchLabels: {app: gpu}
  template:
    metadata:
      labels: {app: gpu}
    spec:
      containers:
      - name: gpu
        image: public.ecr.aws/eks-distro/kubernetes/pause:3.2
        securityContext:
          allowPrivilegedEscalation: false
";

#[test]
fn validate_reports_unknown_fields_deep_in_a_pod_template() {
    let f = TempFile::new("unknown-field.yaml", SECURITY_CONTEXT_TYPO.as_bytes());
    let out = kpg(&["validate", f.path(), "--output", "json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a warning only: {}",
        stdout(&out)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON array");
    let items = v.as_array().expect("an array");
    let typo: Vec<&Value> = items
        .iter()
        .filter(|d| d["code"] == "unknown-field")
        .collect();
    assert_eq!(typo.len(), 1, "{v}");
    let d = typo[0];
    assert_eq!(
        d["path"],
        "spec.template.spec.containers[0].securityContext.allowPrivilegedEscalation"
    );
    assert_eq!(d["origin"], "api-server", "{d}");
    assert_eq!(d["severity"], "warning", "{d}");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(16), Some(11)),
        "{d}"
    );
    assert_eq!(d["help"], "did you mean `allowPrivilegeEscalation`?", "{d}");
    assert!(items.iter().all(|d| d["severity"] == "warning"), "{v}");
}

#[test]
fn codes_lists_every_code_and_explains_one() {
    let out = kpg(&["codes"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().collect();
    assert!(rows.len() > 60, "{text}");
    // One row per code: name, origin, summary.
    let row = rows
        .iter()
        .find(|r| r.starts_with("min-values-exceeds-values "))
        .expect("the minValues rule has its code");
    assert!(
        row.contains(" api-server ") && row.contains("minValues"),
        "{row}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("nodepool-not-ready ") && r.contains(" karpenter ")),
        "{text}"
    );
    assert!(
        !rows.iter().any(|r| r.starts_with("invalid-value ")),
        "no catch-all code"
    );

    let one = kpg(&["codes", "restricted-label"]);
    assert_eq!(one.status.code(), Some(0));
    let text = String::from_utf8_lossy(&one.stdout);
    assert!(
        text.starts_with("restricted-label\n  origin: api-server"),
        "{text}"
    );
    assert!(
        text.contains("karpenter.sh") && text.chars().any(|c| ('가'..='힣').contains(&c)),
        "both languages: {text}"
    );

    let typo = kpg(&["codes", "restricted-labl"]);
    assert_eq!(typo.status.code(), Some(1));
    let err = String::from_utf8_lossy(&typo.stderr);
    assert!(err.contains("did you mean restricted-label?"), "{err}");
    assert_eq!(kpg(&["codes", "a", "b"]).status.code(), Some(2));
}

#[test]
fn validate_good_lab() {
    for name in [
        "seed000-hello-world.yaml",
        "seed002-limits.yaml",
        "seed003-batch-job.yaml",
    ] {
        let out = kpg(&["validate", &lab_path(name)]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}{}",
            stdout(&out),
            stderr(&out)
        );
        let text = stdout(&out);
        assert!(
            text.lines().last().unwrap_or("").starts_with("0 errors, "),
            "{name}: {text}"
        );
        assert!(!text.contains(": error["), "{name}: {text}");
    }
}

#[test]
fn labs_load_without_warnings() {
    let dir = lab("");
    // The v1beta1 labs are written to warn: each difference from v1 is a finding.
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("tests/labs")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") && !n.ends_with("-v1beta1.yaml"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for name in names {
        let out = kpg(&["validate", &lab_path(&name)]);
        assert_eq!(
            stdout(&out).trim_end(),
            "0 errors, 0 warnings",
            "{name} should be clean:\n{}",
            stdout(&out)
        );
    }
}

// ---- running -----------------------------------------------------------------------------

#[test]
fn stdin_dash() {
    let path = lab_path("seed000-hello-world.yaml");
    let text = fs::read(&path).expect("lab");
    let from_stdin = kpg_stdin(&["simulate", "-", "--output", "json"], &text);
    assert_eq!(from_stdin.status.code(), Some(0), "{}", stderr(&from_stdin));
    let v: Value = serde_json::from_slice(&from_stdin.stdout).expect("JSON report");
    assert!(v["nodes"].is_array() && v["pods"].is_array(), "{v}");
    let from_file = kpg(&["simulate", &path, "--output", "json"]);
    assert_eq!(
        from_stdin.stdout, from_file.stdout,
        "stdin and file give the same report"
    );

    let out = kpg_stdin(&["validate", "-"], YAML_ERROR.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("<stdin>:4:"), "{}", stdout(&out));
}

#[test]
fn deterministic_output() {
    for name in ["seed002-limits.yaml", "seed003-batch-job.yaml"] {
        let path = lab_path(name);
        for extra in [
            &["--output", "json"][..],
            &["--output", "table"],
            &["--until", "45s"],
        ] {
            let mut args = vec!["simulate", path.as_str()];
            args.extend_from_slice(extra);
            let a = kpg(&args);
            let b = kpg(&args);
            assert_eq!(a.status.code(), Some(0), "{args:?}: {}", stderr(&a));
            assert!(
                a.stdout == b.stdout,
                "kpg {args:?} printed different output on two runs"
            );
            assert!(
                a.stderr == b.stderr,
                "kpg {args:?} printed different stderr on two runs"
            );
        }
    }
}

#[test]
fn until_stops_the_clock() {
    let r = report("seed002-scale-out.yaml", &["--until", "0s"]);
    assert!(r["time"].as_str().is_some(), "{r}");
    // At 0s only the fixed nodes exist and nothing has been launched yet.
    assert!(
        nodes(&r)
            .iter()
            .all(|n| n["nodepool"].is_null() || n["state"] != "Ready"),
        "{}",
        summary(&r)
    );
    let r = report("seed002-scale-out.yaml", &["--until", "1h30m"]);
    assert!(
        r["time"].as_str().is_some_and(|t| t.contains("1h30m")),
        "time: {}",
        r["time"]
    );
}

#[test]
fn json_report_has_the_contract_keys() {
    let r = report("seed002-limits.yaml", &[]);
    for key in ["time", "costPerHour", "nodes", "pods", "events"] {
        assert!(r.get(key).is_some(), "report key {key}");
    }
    let node_keys = [
        "name",
        "nodepool",
        "nodeGroup",
        "nodeclaim",
        "instanceType",
        "zone",
        "capacityType",
        "arch",
        "state",
        "labels",
        "taints",
        "allocatable",
        "requested",
        "pricePerHour",
        "createdAt",
        "pods",
    ];
    for n in nodes(&r) {
        for key in node_keys {
            assert!(n.get(key).is_some(), "node key {key} in {n}");
        }
    }
    let pod_keys = [
        "name",
        "namespace",
        "owner",
        "labels",
        "node",
        "phase",
        "reason",
        "message",
    ];
    for p in pods(&r) {
        for key in pod_keys {
            assert!(p.get(key).is_some(), "pod key {key} in {p}");
        }
    }
    let sum: f64 = nodes(&r)
        .iter()
        .filter_map(|n| n["pricePerHour"].as_f64())
        .sum();
    let cost = r["costPerHour"].as_f64().expect("costPerHour is a number");
    assert!(
        (cost - sum).abs() < 1e-6,
        "costPerHour {cost} is the sum of node prices {sum}"
    );
}

#[test]
fn table_output() {
    let out = kpg(&["simulate", &lab_path("seed002-limits.yaml")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let node_header = lines.first().copied().unwrap_or("");
    for col in [
        "NAME",
        "STATUS",
        "ROLES",
        "AGE",
        "VERSION",
        "NODEPOOL",
        "INSTANCE-TYPE",
        "ZONE",
        "CAPACITY-TYPE",
    ] {
        assert!(
            node_header.split_whitespace().any(|c| c == col),
            "{col} in {node_header}"
        );
    }
    let pod_header = lines
        .iter()
        .find(|l| l.starts_with("NAMESPACE"))
        .unwrap_or_else(|| panic!("a pods table in\n{text}"));
    for col in [
        "NAME",
        "READY",
        "STATUS",
        "RESTARTS",
        "AGE",
        "IP",
        "NODE",
        "NOMINATED NODE",
        "READINESS GATES",
    ] {
        assert!(pod_header.contains(col), "{col} in {pod_header}");
    }
    assert!(text.contains("t3.small"), "{text}");
    assert!(text.contains("platform"), "{text}");
    let cost = lines
        .iter()
        .find(|l| l.starts_with("Cost: $"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        cost.ends_with("/month)") && cost.contains("/hour ($"),
        "{cost}"
    );
    assert!(text.contains("Pending pods:"), "{text}");
    assert!(text.contains("exceed limits"), "{text}");
    // Columns line up: every node row has the STATUS column where the header has it.
    let status_at = node_header.find("STATUS").unwrap();
    for row in lines.iter().skip(1).take_while(|l| !l.is_empty()) {
        let before = &row[..status_at.min(row.len())];
        assert!(
            before.ends_with("   "),
            "columns are padded by at least 3 spaces: {row:?}"
        );
    }
}

// ---- robustness --------------------------------------------------------------------------

/// Whatever the input, kpg answers with 0 or 1, never a crash (101) or a signal.
#[test]
fn never_panics_on_odd_input() {
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let inputs: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"---\n".to_vec(),
        b"---\n---\n...\n".to_vec(),
        b"null\n".to_vec(),
        b"[]\n".to_vec(),
        b"42\n".to_vec(),
        b"kind: Pod\n".to_vec(),
        b"apiVersion: v1\nkind: Pod\n".to_vec(),
        b"apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {containers: 3}\n".to_vec(),
        b"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: -1}\n"
            .to_vec(),
        b"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n\
          spec: {replicas: 99999999999999999999}\n"
            .to_vec(),
        b"a: &a [*a]\n".to_vec(),
        b"\t\t:\n".to_vec(),
        b"\x00\x01\x02".to_vec(),
        deep.into_bytes(),
    ];
    for input in inputs {
        for cmd in [
            &["simulate", "-", "--output", "json"][..],
            &["simulate", "-"],
            &["validate", "-"],
        ] {
            let out = kpg_stdin(cmd, &input);
            let code = out.status.code();
            assert!(
                code == Some(0) || code == Some(1),
                "kpg {cmd:?} on {:?} exited {code:?}\n{}",
                String::from_utf8_lossy(&input)
                    .chars()
                    .take(80)
                    .collect::<String>(),
                stderr(&out)
            );
        }
    }
}

/// `simulate`'s tables are the terminal's `get nodes -L ...` and `get pods -A -o wide`, so
/// they agree with a real cluster where the old report-based tables did not: a NodeClaim that
/// has not registered has no Node object yet, and a node Karpenter is draining keeps kubelet's
/// `Ready` without `SchedulingDisabled` (Karpenter taints it `karpenter.sh/disrupted:NoSchedule`
/// and never sets `spec.unschedulable`: terminator.go's `Taint`).
#[test]
fn simulate_tables_are_the_terminals() {
    let lab = lab_path("seed002-consolidation.yaml");
    let table = |until: &str| {
        let out = kpg(&["simulate", &lab, "--until", until]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let terminal = |until: &str, line: &str| {
        let out = kpg(&["kubectl", &lab, "--at", until, "--", line]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let nodes_line = "get nodes -L karpenter.sh/nodepool,node.kubernetes.io/instance-type,\
                      topology.kubernetes.io/zone,karpenter.sh/capacity-type";
    for until in ["5s", "30s", "260s"] {
        let text = table(until);
        let nodes = terminal(until, nodes_line);
        let pods = terminal(until, "get pods -A -o wide");
        assert!(text.starts_with(&nodes), "at {until}:\n{text}\nvs\n{nodes}");
        assert!(text.contains(&pods), "at {until}:\n{text}\nvs\n{pods}");
    }
    // At 5 s the platform pool's NodeClaims are launching: only the fixed nodes are Nodes.
    let early = table("5s");
    let node_rows: Vec<&str> = early.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(
        node_rows.len(),
        3,
        "a header and the two fixed nodes:\n{early}"
    );
    assert!(!early.contains("NotReady"), "{early}");
    // At 260 s consolidation is draining a platform node: still Ready, not cordoned.
    let draining = table("260s");
    assert!(!draining.contains("SchedulingDisabled"), "{draining}");
    let platform: Vec<&str> = draining
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("platform-"))
        .collect();
    assert!(!platform.is_empty(), "{draining}");
    assert!(
        platform
            .iter()
            .all(|l| l.split_whitespace().nth(1) == Some("Ready"))
    );
}

//! Helpers shared by the integration tests: run the built `kpg` binary and read its report.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The workspace root (the CLI crate lives in `cli/`).
pub fn workspace() -> PathBuf {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    cli.parent().unwrap_or(cli).to_path_buf()
}

/// The workspace's `tests/labs/NAME`.
pub fn lab(name: &str) -> PathBuf {
    workspace().join("tests/labs").join(name)
}

/// The workspace's `tests/golden/NAME`.
pub fn golden(name: &str) -> PathBuf {
    workspace().join("tests/golden").join(name)
}

pub fn kpg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kpg"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the kpg binary runs")
}

/// `kpg ARGS` run from the workspace's root, so files are named (and printed) as a user there
/// names them, the same on every machine.
pub fn kpg_at_root(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kpg"))
        .args(args)
        .current_dir(workspace())
        .stdin(Stdio::null())
        .output()
        .expect("the kpg binary runs")
}

pub fn kpg_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kpg"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kpg binary runs");
    {
        let mut stdin = child.stdin.take().expect("stdin is piped");
        // The binary may exit before reading everything (e.g. on a usage error).
        let _ = stdin.write_all(input);
    }
    child.wait_with_output().expect("kpg finishes")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `kpg simulate tests/labs/LAB --output json [extra...]`, checked for success and parsed.
pub fn report(lab_name: &str, extra: &[&str]) -> Value {
    let path = lab(lab_name);
    let path = path.to_str().expect("UTF-8 path");
    let mut args = vec!["simulate", path, "--output", "json"];
    args.extend_from_slice(extra);
    let out = kpg(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "kpg {args:?} failed\n--- stderr ---\n{}\n--- stdout ---\n{}",
        stderr(&out),
        stdout(&out)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "kpg {args:?} printed no JSON report: {e}\n--- stdout ---\n{}",
            stdout(&out)
        )
    })
}

pub fn nodes(report: &Value) -> Vec<&Value> {
    report["nodes"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

pub fn pods(report: &Value) -> Vec<&Value> {
    report["pods"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default()
}

pub fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Nodes of a NodePool (`None`: the fixed nodes, which belong to no NodePool).
pub fn nodes_in<'a>(report: &'a Value, nodepool: Option<&str>) -> Vec<&'a Value> {
    nodes(report)
        .into_iter()
        .filter(|n| str_of(n, "nodepool") == nodepool)
        .collect()
}

/// Pods whose label `key` is `value`.
pub fn pods_labelled<'a>(report: &'a Value, key: &str, value: &str) -> Vec<&'a Value> {
    pods(report)
        .into_iter()
        .filter(|p| p["labels"].get(key).and_then(Value::as_str) == Some(value))
        .collect()
}

pub fn node_named<'a>(report: &'a Value, name: &str) -> Option<&'a Value> {
    nodes(report)
        .into_iter()
        .find(|n| str_of(n, "name") == Some(name))
}

/// The node a pod is bound to, which must be in the report.
pub fn node_of<'a>(report: &'a Value, pod: &Value) -> &'a Value {
    let name = str_of(pod, "node").unwrap_or_else(|| panic!("pod is not bound: {pod}"));
    node_named(report, name).unwrap_or_else(|| panic!("pod's node {name} is not in the report"))
}

/// A short description of the nodes, for assertion messages.
pub fn summary(report: &Value) -> String {
    let mut s = String::new();
    for n in nodes(report) {
        s.push_str(&format!(
            "  node {} pool={:?} group={:?} type={:?} {:?} {:?} state={:?} pods={}\n",
            str_of(n, "name").unwrap_or("?"),
            str_of(n, "nodepool"),
            str_of(n, "nodeGroup"),
            str_of(n, "instanceType"),
            str_of(n, "capacityType"),
            str_of(n, "zone"),
            str_of(n, "state"),
            n["pods"]
        ));
    }
    for p in pods(report) {
        s.push_str(&format!(
            "  pod {}/{} {:?} on {:?} reason={:?} message={:?}\n",
            str_of(p, "namespace").unwrap_or("?"),
            str_of(p, "name").unwrap_or("?"),
            str_of(p, "phase"),
            str_of(p, "node"),
            str_of(p, "reason"),
            str_of(p, "message"),
        ));
    }
    s
}

/// The EC2NodeClass `default` (AL2023, tag selectors) most scenario tests launch with.
pub const NODE_CLASS: &str = r#"
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  role: r
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {k: v}}]
  securityGroupSelectorTerms: [{tags: {k: v}}]
"#;

/// `kpg simulate - --until UNTIL --output json` on `text`, checked for success and parsed.
pub fn simulate_json(text: &str, until: &str) -> Value {
    let out = kpg_stdin(
        &["simulate", "-", "--until", until, "--output", "json"],
        text.as_bytes(),
    );
    assert!(
        out.status.success(),
        "kpg simulate failed: {}\n{text}",
        stderr(&out)
    );
    serde_json::from_slice(&out.stdout).expect("the report is JSON")
}

/// A run through both doors: `kpg simulate`'s JSON report (read through `Deref`, as the
/// contract's consumers read it) and the engine's typed events.
pub struct JsonRun {
    pub report: Value,
    pub events: Vec<kpg_core::sim::Event>,
}

impl std::ops::Deref for JsonRun {
    type Target = Value;
    fn deref(&self) -> &Value {
        &self.report
    }
}

/// Simulates `text` until `until` (a Go duration) with the binary and with the library.
pub fn simulate_run(text: &str, until: &str) -> JsonRun {
    let until_ms = kpg_core::duration::parse(until).expect("a duration");
    JsonRun {
        report: simulate_json(text, until),
        events: kpg::simulate(text, Some(until_ms))
            .expect("the scenario runs")
            .sim
            .events()
            .to_vec(),
    }
}

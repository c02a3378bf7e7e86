//! `kpg kubectl`: the terminal's commands from the command line, with their exit statuses.
//! (The output itself is the terminal crate's, checked by its goldens in
//! `tests/golden/kubectl/`.)

mod common;

use common::*;

fn lab_path(name: &str) -> String {
    lab(name).to_str().unwrap_or_default().to_string()
}

#[test]
fn a_command_after_the_double_dash_runs_at_the_given_time() {
    let path = lab_path("seed002-limits.yaml");
    let out = kpg(&[
        "kubectl",
        &path,
        "--at",
        "5m",
        "--",
        "get",
        "nodes",
        "-l",
        "node=platform",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("NAME "), "{text}");
    assert_eq!(text.lines().count(), 5, "{text}");
    let quoted = kpg(&["kubectl", &path, "--at", "5m", "kubectl get nodepools"]);
    assert_eq!(quoted.status.code(), Some(0));
    assert!(stdout(&quoted).contains("platform"));
}

#[test]
fn a_failed_command_exits_1_and_a_bad_line_2() {
    let path = lab_path("seed002-limits.yaml");
    let missing = kpg(&["kubectl", &path, "--", "get", "node", "nope"]);
    assert_eq!(missing.status.code(), Some(1));
    assert_eq!(
        stdout(&missing),
        "Error from server (NotFound): nodes \"nope\" not found\n"
    );
    assert_eq!(kpg(&["kubectl", &path]).status.code(), Some(2));
    assert_eq!(
        kpg(&["kubectl", &path, "--at", "soon", "--", "get", "nodes"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(kpg(&["kubectl", "--help"]).status.code(), Some(0));
}

#[test]
fn a_mutation_prints_the_timeline_step_it_would_take() {
    let path = lab_path("seed002-limits.yaml");
    let out = kpg(&[
        "kubectl",
        &path,
        "--at",
        "2m",
        "--",
        "scale",
        "deployment",
        "busybox",
        "--replicas=2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("deployment.apps/busybox scaled\n"),
        "{text}"
    );
    assert!(
        text.contains("not saved")
            && text.contains(
                "  - at: 2m0s\n    scale: {kind: Deployment, name: busybox, \
                 namespace: default, replicas: 2}\n"
            ),
        "{text}"
    );
}

#[test]
fn a_watch_prints_what_changes_until_the_clock_stops() {
    let path = lab_path("seed002-scale-out.yaml");
    let out = kpg(&[
        "kubectl",
        &path,
        "--at",
        "0s",
        "--until",
        "2m",
        "--",
        "get",
        "nodeclaims",
        "-w",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("NAME "), "{text}");
    assert!(
        text.lines().filter(|l| l.contains(" True ")).count() >= 2,
        "{text}"
    );
}

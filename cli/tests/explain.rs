//! `kpg explain` on the seed labs: golden text for each explanation kind (in
//! `tests/golden/explain/`, byte for byte) and the behaviour each lab is about, read from
//! the JSON so that a wording change does not hide a wrong answer.
//!
//! To accept new output after a deliberate change (any value of `UPDATE_GOLDEN` but empty or
//! `0` rewrites: `kpg_testkit`'s rule for every golden):
//! UPDATE_GOLDEN=1 cargo test -p kpg --test explain
//! git diff tests/golden/explain

mod common;

use common::*;
use serde_json::Value;

fn explain(lab_name: &str, args: &[&str]) -> (String, Value) {
    let path = lab(lab_name);
    let path = path.to_str().expect("UTF-8 path");
    let run = |extra: &[&str]| {
        let mut all = vec!["explain", path];
        all.extend_from_slice(args);
        all.extend_from_slice(extra);
        let out = kpg(&all);
        assert_eq!(
            out.status.code(),
            Some(0),
            "kpg {all:?} failed\n{}",
            stderr(&out)
        );
        stdout(&out)
    };
    let text = run(&[]);
    let json = run(&["--output", "json"]);
    let value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("not JSON: {e}\n{json}"));
    (text, value)
}

fn check_golden(name: &str, text: &str) {
    kpg_testkit::check(&golden(&format!("explain/{name}.txt")), text);
}

/// The lines of a section, optionally about one subject and check.
fn lines<'a>(e: &'a Value, section: &str) -> Vec<&'a Value> {
    e["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["id"] == section)
        .flat_map(|s| s["lines"].as_array().into_iter().flatten())
        .collect()
}

fn line<'a>(e: &'a Value, section: &str, subject: Option<&str>, check: &str) -> &'a Value {
    lines(e, section)
        .into_iter()
        .find(|l| l["check"] == check && subject.is_none_or(|s| l["subject"] == s))
        .unwrap_or_else(|| panic!("no {section}/{subject:?}/{check} line in\n{e:#}"))
}

fn pod_named(lab_name: &str, extra: &[&str], phase: &str, prefix: &str) -> String {
    let r = report(lab_name, extra);
    pods(&r)
        .into_iter()
        .find(|p| {
            str_of(p, "phase") == Some(phase)
                && str_of(p, "name").is_some_and(|n| n.starts_with(prefix))
        })
        .map(|p| {
            format!(
                "{}/{}",
                str_of(p, "namespace").unwrap_or("default"),
                str_of(p, "name").unwrap_or_default()
            )
        })
        .unwrap_or_else(|| panic!("no {phase} {prefix} pod in {lab_name}"))
}

fn node_named(lab_name: &str, extra: &[&str], prefix: &str) -> String {
    let r = report(lab_name, extra);
    nodes(&r)
        .into_iter()
        .filter_map(|n| str_of(n, "name"))
        .find(|n| n.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} node in {lab_name}"))
        .to_string()
}

#[test]
fn limits_lab_pending_pods_are_explained_by_the_limit_left_versus_needed() {
    let lab_name = "seed002-limits.yaml";
    let pod = pod_named(lab_name, &[], "Pending", "busybox");
    let (text, e) = explain(lab_name, &["--pod", &pod]);
    check_golden("seed002-limits-pending-pod", &text);
    assert!(
        str_of(&e, "summary").is_some_and(|s| s.contains("Pending")),
        "{e:#}"
    );
    // The platform pool: every check passes but the limits: 0 of 8 cpu left, 2 needed.
    let limits = line(&e, "nodepools", Some("platform"), "limits");
    assert_eq!(limits["status"], "fail", "{limits}");
    let text = limits["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("cpu 0 of 8 left") && text.contains("needs cpu 2"),
        "{text}"
    );
    for check in ["taints", "requirements", "resources", "offerings"] {
        assert_eq!(
            line(&e, "nodepools", Some("platform"), check)["status"],
            "pass",
            "platform {check}"
        );
    }
    // The service pool: its taint, and only its taint.
    assert_eq!(
        line(&e, "nodepools", Some("service"), "taints")["status"],
        "fail"
    );
    assert_eq!(
        line(&e, "nodepools", Some("service"), "limits")["status"],
        "pass"
    );
    // kube-scheduler: every node refuses it for its anti-affinity.
    let kube = lines(&e, "kube-scheduler");
    assert_eq!(kube.len(), 6, "{kube:#?}");
    assert!(
        kube.iter()
            .all(|l| l["status"] == "fail" && l["check"] == "InterPodAffinity"),
        "{kube:#?}"
    );

    let path = lab(lab_name);
    let out = kpg(&[
        "explain",
        path.to_str().unwrap_or_default(),
        "--pod",
        &pod,
        "--lang",
        "ko",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    check_golden("seed002-limits-pending-pod.ko", &stdout(&out));
    assert!(stdout(&out).contains("cpu 8 중 0 남음"), "{}", stdout(&out));
}

#[test]
fn six_gi_lab_nodeclaim_shows_the_smaller_types_rejected_for_memory() {
    let lab_name = "seed002-service-6gi.yaml";
    let claim = node_named(lab_name, &[], "service-");
    let (text, e) = explain(lab_name, &["--nodeclaim", &claim]);
    check_golden("seed002-service-6gi-nodeclaim", &text);
    assert_eq!(e["kind"], "nodeclaim");
    let chosen = line(&e, "launch", None, "chosen");
    assert_eq!(chosen["subject"], "m7i-flex.large", "{chosen}");
    for cheaper in ["t3.small", "c7i-flex.large"] {
        let l = line(&e, "launch", Some(cheaper), "resources");
        assert_eq!(l["status"], "fail");
        let t = l["text"].as_str().unwrap_or_default();
        assert!(t.contains("memory 6Gi"), "{cheaper}: {t}");
        assert!(
            l["pricePerHour"].as_f64() < chosen["pricePerHour"].as_f64(),
            "{cheaper} is cheaper: {l}"
        );
    }
    assert_eq!(
        line(&e, "funnel", None, "resources")["text"]
            .as_str()
            .map(|t| t.contains("1 left (2 out)")),
        Some(true)
    );
    let capacity = line(&e, "launch", None, "capacity-type");
    assert!(
        capacity["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("spot")),
        "{capacity}"
    );
}

#[test]
fn seed003_job_says_why_it_landed_on_the_general_pool() {
    let lab_name = "seed003-batch-job.yaml";
    let pod = pod_named(lab_name, &["--until", "90s"], "Running", "batch-job");
    let (text, e) = explain(lab_name, &["--pod", &pod, "--at", "90s"]);
    check_golden("seed003-batch-job-pod", &text);
    // general-multiarch comes first (names in reverse order at equal weight) and takes it,
    // though batch-spot (whose taint the Job tolerates) would have taken it too.
    let verdicts: Vec<(&str, &str)> = lines(&e, "nodepools")
        .into_iter()
        .filter(|l| l["check"] == "verdict")
        .map(|l| {
            (
                l["subject"].as_str().unwrap_or_default(),
                l["status"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [("general-multiarch", "chosen"), ("batch-spot", "pass")]
    );
    assert!(
        str_of(&e, "summary")
            .is_some_and(|s| s.contains("general-multiarch") && s.contains("first NodePool")),
        "{e:#}"
    );

    // The fixed lab: the selector rules general-multiarch out on its requirements.
    let lab_name = "seed003-batch-job-fixed.yaml";
    let pod = pod_named(lab_name, &["--until", "90s"], "Running", "batch-job");
    let (_, e) = explain(lab_name, &["--pod", &pod, "--at", "90s"]);
    let req = line(&e, "nodepools", Some("general-multiarch"), "requirements");
    assert_eq!(req["status"], "fail");
    assert!(
        req["text"]
            .as_str()
            .is_some_and(|t| t.contains("workload") && t.contains("Exists")),
        "{req}"
    );
    assert_eq!(
        line(&e, "nodepools", Some("batch-spot"), "verdict")["status"],
        "chosen"
    );
}

#[test]
fn scale_in_node_counts_down_consolidate_after_then_is_chosen() {
    let lab_name = "seed002-scale-in.yaml";
    let node = node_named(lab_name, &["--until", "3m"], "platform-");
    // Before the Deployment goes: the spot node cannot be replaced by a cheaper spot node.
    let (_, e) = explain(lab_name, &["--node", &node, "--at", "2m30s"]);
    assert_eq!(
        line(&e, "disruption", None, "spot-to-spot-disabled")["status"],
        "fail"
    );
    // Its pods are gone at 3m: consolidateAfter (1m) counts down from the last pod event.
    let (text, e) = explain(lab_name, &["--node", &node, "--at", "3m30s"]);
    check_golden("seed002-scale-in-node", &text);
    let wait = line(&e, "disruption", None, "consolidate-after");
    assert!(
        wait["text"].as_str().is_some_and(|t| t.contains("s left")),
        "{wait}"
    );
    // Then emptiness takes it: the history ends with an executed command saving its price.
    let (_, e) = explain(lab_name, &["--node", &node, "--at", "5m"]);
    let commands: Vec<&Value> = lines(&e, "history")
        .into_iter()
        .filter(|l| l["check"] == "command")
        .collect();
    let last = commands
        .last()
        .unwrap_or_else(|| panic!("no command in\n{e:#}"));
    assert_eq!(last["status"], "chosen");
    assert!(
        last["pricePerHour"].as_f64().is_some_and(|p| p > 0.0),
        "{last}"
    );
}

#[test]
fn a_do_not_disrupt_node_is_explained_as_left_alone_not_as_a_candidate() {
    // The protect lab's `pinned` pool puts karpenter.sh/do-not-disrupt on its node: past its
    // consolidateAfter, and drifted at 2m, it is still never a candidate.
    let lab_name = "seed002-protect.yaml";
    let node = node_named(lab_name, &["--until", "5m"], "pinned-");
    let (_, e) = explain(lab_name, &["--node", &node, "--at", "5m"]);
    let status = line(&e, "disruption", None, "do-not-disrupt");
    assert_eq!(status["status"], "fail", "{status}");
    let summary = e["summary"].as_str().unwrap_or_default();
    assert!(
        summary.contains("do-not-disrupt") && !summary.contains("candidate"),
        "{summary}"
    );
    // The pods' own nodes in the lab are still candidates: the annotation is the node's.
    let other = node_named(lab_name, &["--until", "1m30s"], "default-");
    let (_, e) = explain(lab_name, &["--node", &other, "--at", "1m30s"]);
    assert!(
        lines(&e, "disruption")
            .iter()
            .all(|l| l["check"] != "do-not-disrupt"),
        "{e:#}"
    );
}

#[test]
fn a_zone_picked_by_a_topology_spread_says_so() {
    // The zones lab spreads `web` over zones with maxSkew 1: the NodeClaims opened for it are
    // each narrowed to one zone, which decided the zone before any price did.
    let lab_name = "seed002-zones.yaml";
    let node = node_named(lab_name, &["--until", "2m"], "service-");
    let (_, e) = explain(lab_name, &["--node", &node, "--at", "2m"]);
    let zone = line(&e, "launch", None, "zone");
    let text = zone["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("topology spread") && text.contains("maxSkew 1"),
        "{text}"
    );
    // A NodeClaim the pods left every zone of its pool says the price decided.
    let (_, e) = explain(
        "seed002-scale-out.yaml",
        &[
            "--node",
            &node_named("seed002-scale-out.yaml", &[], "platform-"),
        ],
    );
    let text = line(&e, "launch", None, "zone")["text"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        !text.contains("spread") && !text.contains("allow"),
        "{text}"
    );
}

#[test]
fn explain_names_what_exists_when_the_subject_does_not() {
    let path = lab("seed002-limits.yaml");
    let out = kpg(&[
        "explain",
        path.to_str().unwrap_or_default(),
        "--pod",
        "default/nope",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no pod default/nope") && stderr(&out).contains("busybox-"),
        "{}",
        stderr(&out)
    );
    let out = kpg(&["explain", path.to_str().unwrap_or_default()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--pod NS/NAME"), "{}", stderr(&out));
    let out = kpg(&[
        "explain",
        path.to_str().unwrap_or_default(),
        "--pod",
        "a",
        "--node",
        "b",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

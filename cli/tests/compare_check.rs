//! `kpg compare` as a CI check: `--output markdown`, `--fail-on pending|drift` and
//! `--max-cost-increase`, through the built binary, on the NodePool changes in
//! `tests/compare/` (base.yaml against a NodePool restricted to t3.micro, one allowing only
//! m5.large, and one applied at 2m with a new template label).
//!
//! The markdown of base.yaml against drift.yaml is a golden file (`kpg_testkit`'s rule):
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test -p kpg --test compare_check
//! git diff tests/golden/compare
//! ```

mod common;

use common::*;
use serde_json::Value;

const BASE: &str = "tests/compare/base.yaml";
const PENDING: &str = "tests/compare/pending.yaml";
const PRICIER: &str = "tests/compare/pricier.yaml";
const DRIFT: &str = "tests/compare/drift.yaml";

fn compare(a: &str, b: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["compare", a, b];
    args.extend_from_slice(extra);
    let o = kpg_at_root(&args);
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

/// The `kpg: ...` lines on stderr (the reader's warnings, if any, are not).
fn failures(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.starts_with("kpg: ")).collect()
}

#[test]
fn fail_on_pending_fails_when_the_change_leaves_pods_pending_in_every_format() {
    for format in ["table", "json", "csv", "markdown"] {
        let (code, out, err) = compare(BASE, PENDING, &["--fail-on", "pending", "-o", format]);
        assert_eq!(code, 3, "{format}: {err}");
        assert_eq!(
            failures(&err),
            ["kpg: 3 pods pending in B at 1m30s (Deployment/web: 3), failing --fail-on pending"],
            "{format}"
        );
        assert!(!out.is_empty(), "{format}: the report still goes to stdout");
        if format == "json" {
            let c: Value = serde_json::from_str(&out).expect("JSON on stdout");
            assert_eq!(c["b"]["podsPending"], 3);
        }
    }
    // The same change checked for drift or cost only passes: no node drifts, the cost falls.
    let (code, _, err) = compare(
        BASE,
        PENDING,
        &["--fail-on", "drift", "--max-cost-increase", "0%"],
    );
    assert_eq!((code, failures(&err)), (0, vec![]), "{err}");
}

#[test]
fn fail_on_pending_passes_when_every_pod_runs() {
    for b in [BASE, PRICIER, DRIFT] {
        let (code, out, err) = compare(BASE, b, &["--fail-on", "pending"]);
        assert_eq!(code, 0, "{b}: {err}");
        assert!(failures(&err).is_empty(), "{b}: {err}");
        assert!(out.contains("pods pending"), "{b}: the table as ever");
    }
}

#[test]
fn fail_on_drift_fails_when_the_applied_nodepool_drifts_the_nodes() {
    let (code, _, err) = compare(BASE, DRIFT, &["--fail-on", "drift", "-o", "markdown"]);
    assert_eq!(code, 3, "{err}");
    let lines = failures(&err);
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("kpg: 3 nodes drifted in B (NodePoolDrifted: default-")
            && lines[0].ends_with("), failing --fail-on drift"),
        "{err}"
    );
    // Comma-separated and repeated are the same two conditions; pending holds here.
    for extra in [
        &["--fail-on", "pending,drift"][..],
        &["--fail-on", "drift", "--fail-on=pending"][..],
    ] {
        let (code, _, e) = compare(BASE, DRIFT, extra);
        assert_eq!(code, 3, "{extra:?}");
        assert_eq!(failures(&e), lines, "{extra:?}");
    }
    for b in [BASE, PRICIER, PENDING] {
        let (code, _, err) = compare(BASE, b, &["--fail-on", "drift"]);
        assert_eq!((code, failures(&err)), (0, vec![]), "{b}: {err}");
    }
}

#[test]
fn max_cost_increase_as_a_percentage_and_as_dollars_per_month() {
    // m5.large against t3a.small, three nodes: $0.0564/h to $0.288/h, +$0.2316/h, +410.6 %,
    // +$169.068 a month.
    let cases: &[(&str, Option<&str>)] = &[
        (
            "5%",
            Some("kpg: cost rises 410.6% ($0.2316/h, $169.07/month), over --max-cost-increase 5%"),
        ),
        ("410.6%", Some("over --max-cost-increase 410.6%")),
        ("410.7%", None),
        ("500%", None),
        (
            "100",
            Some(
                "kpg: cost rises $169.07/month ($0.2316/h, 410.6%), over --max-cost-increase \
                 $100/month",
            ),
        ),
        ("$100", Some("over --max-cost-increase $100/month")),
        ("$169.067", Some("over --max-cost-increase $169.067/month")),
        ("$169.068", None),
        ("$200/month", None),
    ];
    for (limit, want) in cases {
        let (code, out, err) = compare(BASE, PRICIER, &["--max-cost-increase", limit]);
        match want {
            Some(line) => {
                assert_eq!(code, 3, "{limit}: {err}");
                let lines = failures(&err);
                assert_eq!(lines.len(), 1, "{limit}: {err}");
                assert!(lines[0].contains(line), "{limit}: {err}");
            }
            None => assert_eq!((code, failures(&err)), (0, vec![]), "{limit}: {err}"),
        }
        assert!(
            out.contains("cost per hour"),
            "{limit}: the report on stdout"
        );
    }
    // A falling or unchanged cost passes any limit.
    for b in [BASE, PENDING, DRIFT] {
        let (code, _, err) = compare(BASE, b, &["--max-cost-increase", "0%"]);
        assert_eq!((code, failures(&err)), (0, vec![]), "{b}: {err}");
    }
    // Each failed condition gets its line, in the order pending, drift, cost.
    let (code, _, err) = compare(
        PRICIER,
        PENDING,
        &["--max-cost-increase", "0", "--fail-on", "drift,pending"],
    );
    assert_eq!(code, 3);
    assert_eq!(failures(&err).len(), 1, "only pending fails: {err}");
    let (code, _, err) = compare(
        PENDING,
        PRICIER,
        &[
            "--max-cost-increase=1%",
            "--max-cost-increase=$1",
            "--fail-on=pending",
        ],
    );
    assert_eq!(code, 3);
    let lines = failures(&err);
    assert_eq!(lines.len(), 2, "{err}");
    assert_eq!(
        lines[0],
        "kpg: cost rises from $0.00 to $0.288/h ($210.24/month), over --max-cost-increase 1%"
    );
    assert!(
        lines[1].ends_with("over --max-cost-increase $1/month"),
        "{err}"
    );
}

#[test]
fn markdown_gives_the_figures_a_reviewer_needs() {
    let (code, md, err) = compare(
        BASE,
        PRICIER,
        &["-o", "markdown", "--max-cost-increase", "5%"],
    );
    assert_eq!(code, 3, "{err}");
    for line in [
        "## kpg compare: `tests/compare/base.yaml` → `tests/compare/pricier.yaml`",
        "| $/hour | $0.0564 | $0.288 | +$0.2316 (+410.6%) |",
        "| $/month (730 h) | $41.17 | $210.24 | +$169.07 (+410.6%) |",
        "| default | 3 | 3 | 0 |",
        "| m5.large | 0 | 3 | +3 |",
        "| t3a.small | 3 | 0 | -3 |",
        "| on-demand | 3 | 3 | 0 |",
        "- ❌ `--max-cost-increase 5%`: cost rises 410.6% ($0.2316/h, $169.07/month)",
        "No pod is pending in B at 1m30s (A: 0).",
        "No node drifted in B (A: 0).",
    ] {
        assert!(md.lines().any(|l| l == line), "missing {line:?} in\n{md}");
    }

    let (code, md, _) = compare(BASE, PENDING, &["-o", "markdown", "--fail-on", "pending"]);
    assert_eq!(code, 3);
    assert!(
        md.contains("B leaves 3 pods pending at 1m30s (A: 0):"),
        "{md}"
    );
    let row = md
        .lines()
        .find(|l| l.starts_with("| Deployment/web | 3 | "))
        .unwrap_or_else(|| panic!("no pending row in\n{md}"));
    assert!(
        row.contains("Failed to schedule pod, incompatible with nodepool \"default\"")
            && row.contains("no instance type has enough resources")
            && row.contains("node.kubernetes.io/instance-type In \\[t3.micro\\]"),
        "Karpenter's reason, escaped for markdown: {row}"
    );

    // The drift section names each node base.yaml launched, its NodePool and the reason.
    let report = {
        let o = kpg_at_root(&["simulate", BASE, "-o", "json"]);
        serde_json::from_slice::<Value>(&o.stdout).expect("a report")
    };
    let (code, md, _) = compare(BASE, DRIFT, &["-o", "markdown"]);
    assert_eq!(code, 0, "no condition, no failure");
    assert!(md.contains("3 nodes drifted in B (A: 0):"), "{md}");
    for node in nodes(&report) {
        let name = node["name"].as_str().expect("a name");
        let row = format!(
            "| {name} | default | t3a.small | NodePoolDrifted | 2m0s | replaced or deleted |"
        );
        assert!(md.lines().any(|l| l == row), "missing {row:?} in\n{md}");
        assert!(
            md.lines().any(|l| l.contains("| Drifted | ")
                && l.contains(&format!("{name} (t3a.small on-demand)"))),
            "no disruption of {name} in\n{md}"
        );
    }
    assert!(
        md.contains("B's disruption controller carries out 3 decisions on 3 nodes"),
        "{md}"
    );
    assert!(
        !md.contains("**Checks"),
        "no conditions, no checks section:\n{md}"
    );
}

#[test]
fn markdown_is_the_same_byte_for_byte_and_matches_its_golden() {
    let args = [
        "-o",
        "markdown",
        "--fail-on",
        "pending,drift",
        "--max-cost-increase",
        "5%",
    ];
    let (code, first, _) = compare(BASE, DRIFT, &args);
    assert_eq!(code, 3);
    let (_, second, _) = compare(BASE, DRIFT, &args);
    assert_eq!(first, second);
    kpg_testkit::check(&golden("compare/base-drift.md"), &first);
}

#[test]
fn bad_conditions_are_usage_errors_naming_the_flag_and_its_forms() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--max-cost-increase", "abc"],
            "kpg: invalid --max-cost-increase \"abc\": use a percentage of A's cost per hour \
             (5%, 2.5%) or USD per 730-hour month (100, $100, $99.50)",
        ),
        (
            &["--max-cost-increase", "-5%"],
            "invalid --max-cost-increase \"-5%\"",
        ),
        (
            &["--max-cost-increase", "5%%"],
            "invalid --max-cost-increase \"5%%\"",
        ),
        (
            &["--max-cost-increase", "$"],
            "invalid --max-cost-increase \"$\"",
        ),
        (
            &["--max-cost-increase"],
            "--max-cost-increase needs a value",
        ),
        (
            &["--fail-on", "nope"],
            "kpg: unknown --fail-on \"nope\": use pending, drift, or both \
             (--fail-on pending,drift, or the flag twice)",
        ),
        (&["--fail-on", "pending,"], "unknown --fail-on \"\""),
        (&["--output", "html"], "use table, json, csv or markdown"),
    ];
    for (extra, needle) in cases {
        let (code, out, err) = compare(BASE, BASE, extra);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(out.is_empty(), "{extra:?}");
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert!(
            err.contains("Usage: kpg compare"),
            "{extra:?}: the compare usage follows"
        );
    }
    // The conditions are compare's alone.
    let o = kpg_at_root(&["simulate", BASE, "--fail-on", "pending"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown flag \"--fail-on\""));
    // A side that cannot run is still exit status 1, conditions or not.
    let (code, _, err) = compare(BASE, "/nonexistent/b.yaml", &["--fail-on", "pending"]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn help_documents_the_conditions_and_exit_status_3() {
    for args in [&["compare", "--help"][..], &["help", "compare"][..]] {
        let o = kpg_at_root(args);
        assert_eq!(o.status.code(), Some(0));
        let help = stdout(&o);
        for needle in [
            "--output table|json|csv|markdown",
            "--fail-on WHAT",
            "pending: any pod is pending at the end of the window",
            "drift:   any node drifted during the window",
            "--max-cost-increase LIMIT",
            "5%, 2.5%",
            "100, $100, $99.50 USD per month of 730 hours",
            "3 a condition failed",
        ] {
            assert!(help.contains(needle), "{args:?}: missing {needle:?}");
        }
    }
    let overview = stdout(&kpg_at_root(&["help"]));
    assert!(overview.contains("[--fail-on pending,drift] [--max-cost-increase PERCENT%|USD]"));
    assert!(
        overview.contains("3 a condition of compare's --fail-on or\n--max-cost-increase failed")
    );
}

//! The cost over time (the report's `history` and `accruedCost`, `--output csv`) and
//! `kpg compare`, through the built binary.

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

/// Every lab and example, as `kpg simulate --output json` at rest and at three instants (at
/// 2m the batch lab's Job has finished and its pod is still listed).
fn reports() -> Vec<(String, Value)> {
    let mut files: Vec<_> = [
        "tests/labs",
        "tests/examples/nodepools",
        "tests/examples/workloads",
    ]
    .iter()
    .flat_map(|d| std::fs::read_dir(workspace().join(d)).expect("the folder exists"))
    .map(|e| e.expect("an entry").path())
    .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
    .collect();
    files.sort();
    assert!(files.len() > 30, "labs and examples found: {}", files.len());
    let mut out = Vec::new();
    for f in &files {
        for until in [None, Some("45s"), Some("2m"), Some("6m")] {
            let path = f.to_string_lossy();
            let mut args = vec!["simulate", path.as_ref(), "--output", "json"];
            if let Some(u) = until {
                args.extend(["--until", u]);
            }
            let o = kpg(&args);
            if !o.status.success() {
                continue; // the examples that are refused have their own tests
            }
            let name = format!("{} --until {}", rel(f), until.unwrap_or("rest"));
            out.push((name, serde_json::from_slice(&o.stdout).expect("JSON")));
        }
    }
    assert!(out.len() > 60, "runs: {}", out.len());
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(workspace())
        .unwrap_or(p)
        .to_string_lossy()
        .into_owned()
}

fn seconds(v: &Value) -> f64 {
    v["seconds"].as_f64().expect("seconds")
}

fn cost(v: &Value) -> f64 {
    v["costPerHour"].as_f64().expect("costPerHour")
}

fn end_seconds(report: &Value) -> f64 {
    let time = report["time"].as_str().expect("time");
    kpg_core::duration::parse(time).expect("a duration") as f64 / 1000.0
}

#[test]
fn the_series_sums_to_the_accrued_cost_and_ends_as_the_report_does() {
    for (name, r) in reports() {
        let history = r["history"].as_array().expect("history");
        assert!(!history.is_empty(), "{name}: a series");
        assert_eq!(seconds(&history[0]), 0.0, "{name}: it starts at 0s");
        let end = end_seconds(&r);
        let mut sum = 0.0;
        for (i, h) in history.iter().enumerate() {
            let until = history.get(i + 1).map_or(end, seconds);
            assert!(
                until > seconds(h) || (i + 1 == history.len() && until >= seconds(h)),
                "{name}: points in time order, one per instant"
            );
            sum += cost(h) * (until - seconds(h)) / 3600.0;
        }
        let accrued = r["accruedCost"].as_f64().expect("accruedCost");
        assert!(
            (sum - accrued).abs() < 2e-6,
            "{name}: series sums to {sum}, report says {accrued}"
        );
        let last = history.last().expect("a point");
        let pods = r["pods"].as_array().expect("pods");
        let phase = |p: &str| pods.iter().filter(|x| x["phase"] == p).count() as u64;
        assert_eq!(
            last["nodes"].as_u64(),
            Some(r["nodes"].as_array().expect("nodes").len() as u64),
            "{name}: nodes"
        );
        assert_eq!(
            last["running"].as_u64(),
            Some(phase("Running")),
            "{name}: running"
        );
        assert_eq!(
            last["pending"].as_u64(),
            Some(phase("Pending")),
            "{name}: pending"
        );
        assert!(
            (cost(last) - cost(&r)).abs() < 1e-9,
            "{name}: cost per hour"
        );
    }
}

#[test]
fn every_change_of_cost_or_nodes_coincides_with_a_node_coming_or_going() {
    let mut changes = 0;
    for (name, r) in reports() {
        let history = r["history"].as_array().expect("history");
        let events = r["events"].as_array().expect("events");
        for pair in history.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            if cost(before) == cost(after) && before["nodes"] == after["nodes"] {
                continue;
            }
            changes += 1;
            let time = &after["time"];
            let cause = events.iter().any(|e| {
                e["time"] == *time
                    && ["NodeClaim/", "Node/"]
                        .iter()
                        .any(|k| e["object"].as_str().is_some_and(|o| o.starts_with(k)))
                    && [
                        "Created",
                        "Launched",
                        "Deleted",
                        "InsufficientCapacityError",
                        "SpotInterrupted",
                        // A reservation ended: the node is on-demand now, at that price.
                        "CapacityTypeChanged",
                    ]
                    .contains(&e["reason"].as_str().unwrap_or(""))
            });
            assert!(
                cause,
                "{name}: at {time} the cost went {} -> {} and nodes {} -> {} \
                 with no node created or deleted",
                cost(before),
                cost(after),
                before["nodes"],
                after["nodes"]
            );
        }
    }
    assert!(changes > 50, "cost changes seen: {changes}");
}

#[test]
fn the_consolidation_lab_shows_the_bill_falling_at_each_removal() {
    let r = report("seed002-consolidation.yaml", &[]);
    let history = r["history"].as_array().expect("history");
    let peak = history.iter().map(cost).fold(0.0, f64::max);
    let falls: Vec<f64> = history
        .windows(2)
        .filter(|w| cost(&w[1]) < cost(&w[0]))
        .map(|w| cost(&w[0]) - cost(&w[1]))
        .collect();
    assert_eq!(
        falls.len(),
        4,
        "one fall per platform node consolidated: {falls:?}"
    );
    assert!(cost(history.last().expect("a point")) < peak);
}

#[test]
fn csv_gives_the_series_with_the_cost_accrued_until_each_row() {
    let path = lab("seed002-consolidation.yaml");
    let path = path.to_string_lossy();
    let o = kpg(&["simulate", &path, "--output", "csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = stdout(&o);
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "time",
            "seconds",
            "nodes",
            "running",
            "pending",
            "costPerHour",
            "accruedCost"
        ]
    );
    let r = report("seed002-consolidation.yaml", &[]);
    let history = r["history"].as_array().expect("history");
    assert_eq!(
        rows.len() - 1,
        history.len(),
        "a row per point (the run ends on a change)"
    );
    for (row, h) in rows[1..].iter().zip(history) {
        assert_eq!(row[0], h["time"].as_str().expect("time"));
        assert_eq!(row[2].parse::<u64>().ok(), h["nodes"].as_u64());
        assert!((row[5].parse::<f64>().expect("a number") - cost(h)).abs() < 1e-9);
    }
    let last: f64 = rows.last().expect("rows")[6].parse().expect("a number");
    assert!((last - r["accruedCost"].as_f64().expect("accrued")).abs() < 1e-6);
}

fn compare(a: &str, b: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["compare", a, b];
    args.extend(extra);
    let o = kpg(&args);
    (o.status.code().unwrap_or(-1), stdout(&o) + &stderr(&o))
}

#[test]
fn a_scenario_compared_with_itself_shows_no_difference() {
    for lab_name in [
        "seed002-limits.yaml",
        "seed002-consolidation.yaml",
        "seed003-batch-job.yaml",
    ] {
        let path = lab(lab_name).to_string_lossy().into_owned();
        let (code, out) = compare(&path, &path, &["--output", "json"]);
        assert_eq!(code, 0, "{out}");
        let c: Value = serde_json::from_str(&out).expect("JSON");
        for (k, v) in c["difference"].as_object().expect("difference") {
            assert_eq!(v.as_f64(), Some(0.0), "{lab_name}: {k} differs: {v}");
        }
        assert_eq!(c["workloads"], Value::Array(vec![]), "{lab_name}");
        assert_eq!(c["a"]["history"], c["b"]["history"], "{lab_name}");
        let (code, table) = compare(&path, &path, &[]);
        assert_eq!(code, 0);
        assert!(
            table.contains("Every workload's pods are placed alike."),
            "{table}"
        );
    }
}

#[test]
fn raising_the_limits_labs_cpu_limit_shows_the_extra_nodes_and_what_they_cost() {
    let text = std::fs::read_to_string(lab("seed002-limits.yaml")).expect("the lab");
    assert_eq!(
        text.matches("cpu: \"8\"").count(),
        2,
        "the lab's two limits"
    );
    let raised = text.replace("cpu: \"8\"", "cpu: \"16\"");
    let dir = std::env::temp_dir().join(format!("kpg-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let b = dir.join("limits-16.yaml");
    std::fs::write(&b, raised).expect("written");
    let a = lab("seed002-limits.yaml").to_string_lossy().into_owned();
    let (code, out) = compare(&a, &b.to_string_lossy(), &["--output", "json"]);
    assert_eq!(code, 0, "{out}");
    let c: Value = serde_json::from_str(&out).expect("JSON");
    let d = &c["difference"];
    assert_eq!(
        c["a"]["podsPending"], 2,
        "the limit holds two replicas back"
    );
    assert_eq!(c["b"]["podsPending"], 0, "the raised limit runs them");
    assert_eq!(d["nodes"], 2, "two more nodes: {d}");
    assert_eq!(d["podsPending"], -2);
    assert!(
        d["costPerHour"].as_f64().expect("cost") > 0.0,
        "the two nodes cost: {d}"
    );
    assert!(
        (d["costPerMonth"].as_f64().expect("month")
            - d["costPerHour"].as_f64().expect("hour") * 730.0)
            .abs()
            < 1e-6
    );
    assert!(d["accruedCost"].as_f64().expect("accrued") > 0.0);
    assert_eq!(
        c["b"]["nodesByNodepool"]["platform"].as_u64(),
        c["a"]["nodesByNodepool"]["platform"]
            .as_u64()
            .map(|n| n + 2)
    );
    let busybox = c["workloads"]
        .as_array()
        .expect("workloads")
        .iter()
        .find(|w| w["owner"] == "Deployment/busybox")
        .expect("busybox placed differently");
    assert_eq!(busybox["a"]["Pending"], 2);
    assert!(busybox["b"].get("Pending").is_none());
    // The window is the same for both, and the CSV puts both series on it.
    let (code, csv) = compare(
        &a,
        &b.to_string_lossy(),
        &["--output", "csv", "--until", "3m"],
    );
    assert_eq!(code, 0, "{csv}");
    let last: Vec<&str> = csv.lines().last().expect("rows").split(',').collect();
    assert_eq!(last[0], "3m0s");
    assert_eq!(
        (last[2], last[4], last[7], last[9]),
        ("6", "2", "8", "0"),
        "{csv}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn compare_needs_two_files_and_says_why_a_side_cannot_run() {
    let a = lab("seed002-limits.yaml").to_string_lossy().into_owned();
    let (code, out) = compare(&a, "", &[]);
    assert_ne!(code, 0, "{out}");
    let o = kpg(&["compare", &a]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("give two FILEs"), "{}", stderr(&o));
    let (code, out) = compare(&a, "/nonexistent/b.yaml", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("/nonexistent/b.yaml"), "{out}");
}

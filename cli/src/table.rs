//! The table output: what `kubectl get nodes -L ...` and `kubectl get pods -A -o wide` print
//! for the simulated cluster (the terminal crate answers both, so the CLI's tables and the
//! page's terminal are one answer), then the cost and the pending pods' reasons.

use std::fmt::Write as _;

use kpg_core::report::{PodReport, Report};
use kpg_core::sim::Simulation;

/// Hours per month used for the monthly cost (AWS's convention).
pub const HOURS_PER_MONTH: f64 = 730.0;

/// The label columns `simulate` shows beside each node.
const NODE_LABEL_COLUMNS: &str = "karpenter.sh/nodepool,node.kubernetes.io/instance-type,\
topology.kubernetes.io/zone,karpenter.sh/capacity-type";

/// What the terminal prints for `line` over the simulation and the scenario's file.
fn kubectl(sim: &Simulation, files: &[(String, String)], line: &str) -> String {
    let world = kpg_kubectl::Files {
        sim,
        files,
        reader: kpg_manifests::documents,
    };
    kpg_kubectl::run(&world, line).output
}

/// `kubectl get nodes -L karpenter.sh/nodepool,node.kubernetes.io/instance-type,...`
pub fn nodes_table(sim: &Simulation, files: &[(String, String)]) -> String {
    kubectl(
        sim,
        files,
        &format!("kubectl get nodes -L {NODE_LABEL_COLUMNS}"),
    )
}

/// `kubectl get pods -A -o wide`
pub fn pods_table(sim: &Simulation, files: &[(String, String)]) -> String {
    kubectl(sim, files, "kubectl get pods -A -o wide")
}

/// `Cost: $0.0520/hour ($37.96/month)`
pub fn cost_line(cost_per_hour: f64) -> String {
    let hour = if cost_per_hour.is_finite() {
        cost_per_hour
    } else {
        0.0
    };
    format!(
        "Cost: ${hour:.4}/hour (${:.2}/month)",
        hour * HOURS_PER_MONTH
    )
}

/// The pending pods and why, or nothing when every pod is placed.
pub fn pending_section(report: &Report) -> String {
    let mut pending: Vec<&PodReport> = report
        .pods
        .iter()
        .filter(|p| p.phase == "Pending" && p.node.is_none())
        .collect();
    if pending.is_empty() {
        return String::new();
    }
    pending.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    let mut out = String::from("Pending pods:\n");
    for pod in pending {
        let why = match (&pod.reason, &pod.message) {
            (Some(r), Some(m)) => format!("{r}: {m}"),
            (Some(r), None) => r.clone(),
            (None, Some(m)) => m.clone(),
            (None, None) => match &pod.nominated {
                Some(nc) => format!("waiting for nodeclaim/{nc}"),
                None => String::from("not scheduled yet"),
            },
        };
        let _ = writeln!(out, "  {}/{}: {}", pod.namespace, pod.name, why);
    }
    out
}

/// The whole table output, for the simulation at its instant (`report` is its report) and
/// the scenario's file (`file` is its name, `text` its contents).
pub fn render(sim: &Simulation, report: &Report, file: &str, text: &str) -> String {
    let files = [(file.to_string(), text.to_string())];
    let mut out = nodes_table(sim, &files);
    out.push('\n');
    out.push_str(&pods_table(sim, &files));
    out.push('\n');
    out.push_str(&cost_line(report.cost_per_hour));
    out.push('\n');
    let _ = writeln!(out, "Time: {}", report.time);
    let pending = pending_section(report);
    if !pending.is_empty() {
        out.push('\n');
        out.push_str(&pending);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_line_format() {
        assert_eq!(cost_line(0.052), "Cost: $0.0520/hour ($37.96/month)");
        assert_eq!(cost_line(0.0), "Cost: $0.0000/hour ($0.00/month)");
        assert_eq!(cost_line(f64::NAN), "Cost: $0.0000/hour ($0.00/month)");
    }
}

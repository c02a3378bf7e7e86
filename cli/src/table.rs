//! The table output: what `kubectl get nodes -L ...` and `kubectl get pods -A -o wide` would
//! print for the cluster in a report, then the cost and the pending pods' reasons.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use kpg_core::model::Millis;
use kpg_core::report::{NodeReport, PodReport, Report};

// kubectl's formatting lives in the terminal crate, which the page shares.
pub use kpg_kubectl::format::{NODE_VERSION, human_duration, tabulate};

/// Hours per month used for the monthly cost (AWS's convention).
pub const HOURS_PER_MONTH: f64 = 730.0;

/// Age of an object created at `created_at` (a Go duration since the start), at `now`.
fn age(created_at: &str, now: Millis) -> String {
    match kpg_core::duration::parse(created_at) {
        Ok(t) => human_duration(now.saturating_sub(t)),
        Err(_) => String::from("<unknown>"),
    }
}

fn node_status(node: &NodeReport) -> String {
    let mut status = match node.state.as_str() {
        "Ready" | "Deleting" => String::from("Ready"),
        "Launching" | "Launched" | "Registered" => String::from("NotReady"),
        "" => String::from("Unknown"),
        other => other.to_string(),
    };
    let cordoned = node.state == "Deleting"
        || node
            .taints
            .iter()
            .any(|t| t.key == "node.kubernetes.io/unschedulable");
    if cordoned {
        status.push_str(",SchedulingDisabled");
    }
    status
}

/// A `-L` column: the node's label, or what the report knows the label would say.
fn label_column(node: &NodeReport, key: &str) -> String {
    if let Some(v) = node.labels.get(key) {
        return v.clone();
    }
    match key {
        "karpenter.sh/nodepool" => node.nodepool.clone().unwrap_or_default(),
        "node.kubernetes.io/instance-type" => node.instance_type.clone(),
        "topology.kubernetes.io/zone" => node.zone.clone(),
        // Only Karpenter labels its nodes with karpenter.sh/capacity-type.
        "karpenter.sh/capacity-type" if node.nodepool.is_some() => node.capacity_type.clone(),
        _ => String::new(),
    }
}

const NODE_LABEL_COLUMNS: [&str; 4] = [
    "karpenter.sh/nodepool",
    "node.kubernetes.io/instance-type",
    "topology.kubernetes.io/zone",
    "karpenter.sh/capacity-type",
];

/// `kubectl get nodes -L karpenter.sh/nodepool,node.kubernetes.io/instance-type,topology.kubernetes.io/zone,karpenter.sh/capacity-type`
pub fn nodes_table(report: &Report, now: Millis) -> String {
    if report.nodes.is_empty() {
        return String::from("No resources found\n");
    }
    let mut header: Vec<String> = ["NAME", "STATUS", "ROLES", "AGE", "VERSION"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for key in NODE_LABEL_COLUMNS {
        let short = key.rsplit('/').next().unwrap_or(key);
        header.push(short.to_uppercase());
    }
    let mut nodes: Vec<&NodeReport> = report.nodes.iter().collect();
    nodes.sort_by(|a, b| a.name.cmp(&b.name));
    let mut rows = vec![header];
    for node in nodes {
        let mut row = vec![
            node.name.clone(),
            node_status(node),
            String::from("<none>"),
            age(&node.created_at, now),
            String::from(NODE_VERSION),
        ];
        for key in NODE_LABEL_COLUMNS {
            row.push(label_column(node, key));
        }
        rows.push(row);
    }
    tabulate(&rows)
}

/// How many containers kubectl's READY column counts for each pod, by `(namespace, owner)`
/// where owner is `Kind/name` (`Pod/name` for bare pods). Pods not in the map count 1.
pub type ContainerCounts = BTreeMap<(String, String), usize>;

fn pod_status(pod: &PodReport) -> String {
    kpg_kubectl::format::pod_status(&pod.phase, pod.node.is_some())
}

/// A made-up but stable pod IP in 10.0.0.0/16, for pods that have one.
fn pod_ip(pod: &PodReport) -> String {
    if pod.node.is_none() || pod.phase == "Pending" {
        return String::from("<none>");
    }
    kpg_kubectl::format::pod_ip(&pod.namespace, &pod.name)
}

/// `kubectl get pods -A -o wide`
pub fn pods_table(report: &Report, now: Millis, containers: &ContainerCounts) -> String {
    if report.pods.is_empty() {
        return String::from("No resources found\n");
    }
    let header: Vec<String> = [
        "NAMESPACE",
        "NAME",
        "READY",
        "STATUS",
        "RESTARTS",
        "AGE",
        "IP",
        "NODE",
        "NOMINATED NODE",
        "READINESS GATES",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut pods: Vec<&PodReport> = report.pods.iter().collect();
    pods.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    let mut rows = vec![header];
    for pod in pods {
        let owner = pod
            .owner
            .clone()
            .unwrap_or_else(|| format!("Pod/{}", pod.name));
        let total = containers
            .get(&(pod.namespace.clone(), owner))
            .copied()
            .unwrap_or(1)
            .max(1);
        let ready = if pod.phase == "Running" { total } else { 0 };
        rows.push(vec![
            pod.namespace.clone(),
            pod.name.clone(),
            format!("{ready}/{total}"),
            pod_status(pod),
            String::from("0"),
            age(&pod.created_at, now),
            pod_ip(pod),
            pod.node.clone().unwrap_or_else(|| String::from("<none>")),
            String::from("<none>"),
            String::from("<none>"),
        ]);
    }
    tabulate(&rows)
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

/// The whole table output.
pub fn render(report: &Report, now: Millis, containers: &ContainerCounts) -> String {
    let mut out = nodes_table(report, now);
    out.push('\n');
    out.push_str(&pods_table(report, now, containers));
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
    fn tabulate_like_kubectl() {
        let rows = vec![
            vec![
                "NAME".to_string(),
                "STATUS".into(),
                "AGE".into(),
                "VERSION".into(),
            ],
            vec![
                "fixed-1".to_string(),
                "Ready".into(),
                "41s".into(),
                "v1".into(),
            ],
            vec![
                "platform-abcde".to_string(),
                "NotReady".into(),
                "2m3s".into(),
                "v1".into(),
            ],
        ];
        let got = tabulate(&rows);
        let want = "\
NAME             STATUS     AGE    VERSION
fixed-1          Ready      41s    v1
platform-abcde   NotReady   2m3s   v1
";
        assert_eq!(got, want);
    }

    #[test]
    fn cost_line_format() {
        assert_eq!(cost_line(0.052), "Cost: $0.0520/hour ($37.96/month)");
        assert_eq!(cost_line(0.0), "Cost: $0.0000/hour ($0.00/month)");
        assert_eq!(cost_line(f64::NAN), "Cost: $0.0000/hour ($0.00/month)");
    }
}

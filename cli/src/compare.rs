//! `kpg compare A B`: two scenarios over the same simulated window, side by side, with
//! B − A. The engine runs each as `simulate` would; this module only summarises the two
//! reports and their figures over time.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use kpg_core::catalog::MicroDollars;
use kpg_core::compare::{self as core, Counts, Outcome};
use kpg_core::duration;
use kpg_core::model::Millis;
use kpg_core::report::HistoryReport;
use serde::Serialize;

use crate::Simulated;
use crate::csv::{self, dollars as csv_dollars};

/// One side of the comparison, as printed.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub file: String,
    /// USD per hour of the nodes that exist at the end of the window.
    pub cost_per_hour: f64,
    /// The same for a month of 730 hours.
    pub cost_per_month: f64,
    /// USD the nodes cost over the window.
    pub accrued_cost: f64,
    pub nodes: u32,
    /// Karpenter's nodes by NodePool; fixed nodes under `nodeGroup/NAME`.
    pub nodes_by_nodepool: BTreeMap<String, u32>,
    pub nodes_by_instance_type: BTreeMap<String, u32>,
    pub nodes_by_capacity_type: BTreeMap<String, u32>,
    pub pods_running: u32,
    pub pods_pending: u32,
    /// Disruption decisions carried out or started (each `Disrupting` event), and the nodes
    /// they took.
    pub disruptions: u32,
    pub nodes_disrupted: u32,
    /// The report's `history`.
    pub history: Vec<HistoryReport>,
    /// The same in micro-dollars, so that differences are exact.
    #[serde(skip)]
    outcome: Outcome,
}

/// B − A.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    pub cost_per_hour: f64,
    pub cost_per_month: f64,
    pub accrued_cost: f64,
    pub nodes: i64,
    pub pods_running: i64,
    pub pods_pending: i64,
    pub disruptions: i64,
}

/// A workload whose pods are placed differently (owner, and its pods by place in A and B).
pub type Workload = core::Placement;

/// The whole comparison (`--output json`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Comparison {
    /// The end of the window both ran over, e.g. `7m52.729s`.
    pub until: String,
    pub a: Summary,
    pub b: Summary,
    pub difference: Difference,
    /// Only the workloads whose placement differs, by owner.
    pub workloads: Vec<Workload>,
}

/// The window both run over: `until`, or the later of the two rests. The earlier one is
/// run on to it (a deterministic run to a later instant is the same run, continued).
pub fn align(a: &mut Simulated, b: &mut Simulated, until: Option<Millis>) {
    let end = until.unwrap_or(a.now.max(b.now));
    for side in [a, b] {
        if side.now < end {
            side.sim.run_until(end);
            side.now = side.sim.now();
            side.report = side.sim.report();
        }
    }
}

pub fn compare(a: (&str, &Simulated), b: (&str, &Simulated)) -> Comparison {
    let (sa, sb) = (summary(a.0, a.1), summary(b.0, b.1));
    let d = core::Difference::between(&sa.outcome, &sb.outcome);
    let difference = Difference {
        cost_per_hour: to_dollars(d.cost_per_hour),
        cost_per_month: to_dollars(d.cost_per_month),
        accrued_cost: to_dollars(d.accrued),
        nodes: d.nodes,
        pods_running: d.pods_running,
        pods_pending: d.pods_pending,
        disruptions: d.disruptions,
    };
    Comparison {
        until: duration::format(a.1.now),
        a: sa,
        b: sb,
        difference,
        workloads: core::differing_placements(&a.1.report, &b.1.report),
    }
}

fn to_dollars(micros: MicroDollars) -> f64 {
    micros as f64 / 1_000_000.0
}

fn summary(file: &str, s: &Simulated) -> Summary {
    let o = Outcome::of(&s.sim, &s.report);
    Summary {
        file: file.to_string(),
        cost_per_hour: to_dollars(o.cost_per_hour),
        cost_per_month: to_dollars(o.cost_per_month()),
        accrued_cost: to_dollars(o.accrued),
        nodes: o.nodes,
        nodes_by_nodepool: o.nodes_by_nodepool.clone(),
        nodes_by_instance_type: o.nodes_by_instance_type.clone(),
        nodes_by_capacity_type: o.nodes_by_capacity_type.clone(),
        pods_running: o.pods_running,
        pods_pending: o.pods_pending,
        disruptions: o.disruptions,
        nodes_disrupted: o.nodes_disrupted,
        history: s.report.history.clone(),
        outcome: o,
    }
}

/// `$0.26662`: dollars with the digits a price has (at least two).
fn money(micros: MicroDollars) -> String {
    let text = csv_dollars(micros);
    let trimmed = text.trim_end_matches('0');
    let decimals = trimmed.split('.').nth(1).map_or(0, str::len);
    let shown = if decimals < 2 {
        format!("{:.2}", to_dollars(micros))
    } else {
        trimmed.to_string()
    };
    match shown.strip_prefix('-') {
        Some(rest) => format!("-${rest}"),
        None => format!("${shown}"),
    }
}

fn signed_money(micros: MicroDollars) -> String {
    if micros > 0 {
        format!("+{}", money(micros))
    } else {
        money(micros)
    }
}

/// `$206.02`: dollars rounded to the cent (half away from zero).
fn cents(micros: MicroDollars) -> String {
    let c = (micros.unsigned_abs() + 5_000) / 10_000;
    let sign = if micros < 0 && c > 0 { "-" } else { "" };
    format!("{sign}${}.{:02}", c / 100, c % 100)
}

fn signed_cents(micros: MicroDollars) -> String {
    if micros >= 5_000 {
        format!("+{}", cents(micros))
    } else {
        cents(micros)
    }
}

fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The table (`--output table`).
pub fn table(c: &Comparison) -> String {
    let (a, b) = (&c.a, &c.b);
    let (ma, mb) = (&a.outcome, &b.outcome);
    let mut rows: Vec<[String; 4]> = vec![
        [String::new(), "A".into(), "B".into(), "B - A".into()],
        [
            "cost per hour".into(),
            money(ma.cost_per_hour),
            money(mb.cost_per_hour),
            signed_money(mb.cost_per_hour - ma.cost_per_hour),
        ],
        [
            "cost per month (730 h)".into(),
            cents(ma.cost_per_month()),
            cents(mb.cost_per_month()),
            signed_cents(mb.cost_per_month() - ma.cost_per_month()),
        ],
        [
            format!("cost accrued, 0s to {}", c.until),
            money(ma.accrued),
            money(mb.accrued),
            signed_money(mb.accrued - ma.accrued),
        ],
    ];
    let count = |label: &str, x: u32, y: u32| {
        [
            label.to_string(),
            x.to_string(),
            y.to_string(),
            signed(i64::from(y) - i64::from(x)),
        ]
    };
    rows.push(count("nodes", a.nodes, b.nodes));
    rows.push(count("pods running", a.pods_running, b.pods_running));
    rows.push(count("pods pending", a.pods_pending, b.pods_pending));
    rows.push(count("disruption decisions", a.disruptions, b.disruptions));
    rows.push(count(
        "nodes disrupted",
        a.nodes_disrupted,
        b.nodes_disrupted,
    ));
    let groups: [(&str, &Counts, &Counts); 3] = [
        (
            "nodes by NodePool",
            &a.nodes_by_nodepool,
            &b.nodes_by_nodepool,
        ),
        (
            "nodes by instance type",
            &a.nodes_by_instance_type,
            &b.nodes_by_instance_type,
        ),
        (
            "nodes by capacity type",
            &a.nodes_by_capacity_type,
            &b.nodes_by_capacity_type,
        ),
    ];
    for (title, x, y) in groups {
        let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
        if keys.is_empty() {
            continue;
        }
        rows.push([
            title.to_string(),
            String::new(),
            String::new(),
            String::new(),
        ]);
        for k in keys {
            let (vx, vy) = (
                x.get(k).copied().unwrap_or(0),
                y.get(k).copied().unwrap_or(0),
            );
            rows.push(count(&format!("  {k}"), vx, vy));
        }
    }
    let widths: Vec<usize> = (0..4)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = format!("A: {}\nB: {}\n\n", a.file, b.file);
    for r in &rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            let pad = widths[i] - cell.chars().count();
            if i == 0 {
                line += cell;
                line += &" ".repeat(pad);
            } else {
                line += &" ".repeat(pad + 3);
                line += cell;
            }
        }
        out += line.trim_end();
        out.push('\n');
    }
    out.push('\n');
    if c.workloads.is_empty() {
        out += "Every workload's pods are placed alike.\n";
    } else {
        out += "Workloads placed differently (kpg explain FILE --pod NS/NAME says why):\n";
        let side = |m: &BTreeMap<String, u32>| {
            if m.is_empty() {
                return String::from("no pods");
            }
            m.iter()
                .map(|(place, n)| format!("{n} {place}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for w in &c.workloads {
            let _ = writeln!(
                out,
                "  {}\n    A: {}\n    B: {}",
                w.owner,
                side(&w.a),
                side(&w.b)
            );
        }
    }
    out
}

/// Both series on one time axis (`--output csv`): a row per instant either changed, and
/// the end of the window.
pub fn csv(a: &Simulated, b: &Simulated) -> String {
    let (ha, hb) = (a.sim.history(), b.sim.history());
    let mut instants: BTreeSet<Millis> = ha.iter().chain(hb.iter()).map(|p| p.at).collect();
    instants.insert(a.now.max(b.now));
    let mut out = String::from(
        "time,seconds,aNodes,aRunning,aPending,aCostPerHour,aAccruedCost,\
         bNodes,bRunning,bPending,bCostPerHour,bAccruedCost\n",
    );
    for t in instants {
        let _ = writeln!(
            out,
            "{},{},{}",
            csv::instant(t),
            csv::figures(ha, t),
            csv::figures(hb, t)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_reads_as_a_price_and_cents_round_half_away_from_zero() {
        assert_eq!(money(266_620), "$0.26662");
        assert_eq!(money(15_600), "$0.0156");
        assert_eq!(money(2_000_000), "$2.00");
        assert_eq!(signed_money(15_600), "+$0.0156");
        assert_eq!(signed_money(-15_600), "-$0.0156");
        assert_eq!(cents(206_020_600), "$206.02");
        assert_eq!(cents(5_000), "$0.01");
        assert_eq!(cents(4_999), "$0.00");
        assert_eq!(signed_cents(11_388_000), "+$11.39");
        assert_eq!(signed_cents(-11_388_000), "-$11.39");
        assert_eq!(signed_cents(0), "$0.00");
        assert_eq!(signed_cents(-4_000), "$0.00");
    }
}

//! `kpg compare A B`: two scenarios over the same simulated window, side by side, with
//! B − A. The engine runs each as `simulate` would; this module only summarises the two
//! reports, their figures over time and what B's events say the change set off (pending
//! pods, drifted nodes, disruption commands), checks the conditions of `--fail-on` and
//! `--max-cost-increase`, and prints a pull request's comment (`--output markdown`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use kpg_core::catalog::MicroDollars;
use kpg_core::compare::{self as core, Counts, Outcome};
use kpg_core::compare::{Command, DriftState, Drifted, Pending};
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
    /// The part of `costPerHour` that is EKS Auto Mode's management fee (absent without
    /// Auto Mode nodes).
    #[serde(skip_serializing_if = "is_zero")]
    pub management_fee_per_hour: f64,
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

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

fn summary(file: &str, s: &Simulated) -> Summary {
    let o = Outcome::of(&s.sim, &s.report);
    Summary {
        file: file.to_string(),
        cost_per_hour: to_dollars(o.cost_per_hour),
        cost_per_month: to_dollars(o.cost_per_month()),
        management_fee_per_hour: to_dollars(o.management_fee_per_hour),
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
    ];
    if ma.management_fee_per_hour != 0 || mb.management_fee_per_hour != 0 {
        // EKS Auto Mode's fee is part of the cost per hour above; its own line shows how much.
        rows.push([
            "  of which Auto Mode fee per hour".into(),
            money(ma.management_fee_per_hour),
            money(mb.management_fee_per_hour),
            signed_money(mb.management_fee_per_hour - ma.management_fee_per_hour),
        ]);
    }
    rows.extend([[
        format!("cost accrued, 0s to {}", c.until),
        money(ma.accrued),
        money(mb.accrued),
        signed_money(mb.accrued - ma.accrued),
    ]]);
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

/// A `--max-cost-increase` limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostLimit {
    /// Thousandths of a percent of A's cost per hour (`5%` is 5,000).
    Percent(u64),
    /// Micro-dollars per month of 730 hours.
    PerMonth(MicroDollars),
}

impl CostLimit {
    /// The limit as written back: `5%`, `2.5%`, `$100/month`, `$99.50/month`.
    pub fn label(self) -> String {
        match self {
            CostLimit::Percent(m) => {
                let fraction = format!("{:03}", m % 1000);
                let fraction = fraction.trim_end_matches('0');
                if fraction.is_empty() {
                    format!("{}%", m / 1000)
                } else {
                    format!("{}.{fraction}%", m / 1000)
                }
            }
            CostLimit::PerMonth(micros) if micros % 1_000_000 == 0 => {
                format!("${}/month", micros / 1_000_000)
            }
            CostLimit::PerMonth(micros) => format!("{}/month", money(micros)),
        }
    }
}

/// The conditions that fail a comparison (`--fail-on`, `--max-cost-increase`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Any pod pending in B at the end of the window.
    pub pending: bool,
    /// Any node drifted in B during the window.
    pub drift: bool,
    /// B's cost per hour over A's by more than each of these.
    pub max_cost_increase: Vec<CostLimit>,
}

/// What a run's report and events say happened in it: the pods pending at the end, the
/// NodeClaims that drifted, the disruption commands (`kpg_core::compare`'s readings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changes {
    pub pending: Vec<Pending>,
    pub drifted: Vec<Drifted>,
    pub commands: Vec<Command>,
}

impl Changes {
    pub fn of(s: &Simulated) -> Changes {
        Changes {
            pending: core::pending(&s.report),
            drifted: core::drifted(&s.sim),
            commands: core::commands(&s.sim),
        }
    }

    fn pods_pending(&self) -> u32 {
        self.pending.iter().map(|p| p.pods).sum()
    }
}

/// One condition and what the comparison found for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// `--fail-on pending`, `--max-cost-increase 5%`.
    pub condition: String,
    pub failed: bool,
    /// The figures: `cost rises 12.4% ($0.0832/h, $60.74/month)`.
    pub finding: String,
}

impl Verdict {
    /// The line on stderr for a failed condition (without `kpg: `).
    pub fn failure_line(&self) -> String {
        if self.condition.starts_with("--max-cost-increase") {
            format!("{}, over {}", self.finding, self.condition)
        } else {
            format!("{}, failing {}", self.finding, self.condition)
        }
    }
}

/// Each condition of `checks`, in the order pending, drift, then the cost limits as given.
pub fn verdicts(c: &Comparison, b: &Changes, checks: &Checks) -> Vec<Verdict> {
    let mut out = Vec::new();
    if checks.pending {
        let pods = b.pods_pending();
        let finding = if pods == 0 {
            format!("no pod pending in B at {}", c.until)
        } else {
            let mut by_owner: Vec<(&str, u32)> = Vec::new();
            for p in &b.pending {
                match by_owner.iter_mut().find(|(o, _)| *o == p.owner) {
                    Some((_, n)) => *n += p.pods,
                    None => by_owner.push((&p.owner, p.pods)),
                }
            }
            let named = listed(by_owner.iter().map(|(o, n)| format!("{o}: {n}")), 3);
            format!(
                "{} pending in B at {} ({named})",
                plural(pods, "pod"),
                c.until
            )
        };
        out.push(Verdict {
            condition: String::from("--fail-on pending"),
            failed: pods > 0,
            finding,
        });
    }
    if checks.drift {
        let finding = if b.drifted.is_empty() {
            String::from("no node drifted in B")
        } else {
            let mut reasons: Vec<(&str, Vec<String>)> = Vec::new();
            for d in &b.drifted {
                let name = d.node.clone().unwrap_or_else(|| d.nodeclaim.clone());
                let reason = d.reason.as_str();
                match reasons.iter_mut().find(|(r, _)| *r == reason) {
                    Some((_, names)) => names.push(name),
                    None => reasons.push((reason, vec![name])),
                }
            }
            let parts: Vec<String> = reasons
                .into_iter()
                .map(|(r, names)| format!("{r}: {}", listed(names.into_iter(), 5)))
                .collect();
            format!(
                "{} drifted in B ({})",
                plural(b.drifted.len() as u32, "node"),
                parts.join("; ")
            )
        };
        out.push(Verdict {
            condition: String::from("--fail-on drift"),
            failed: !b.drifted.is_empty(),
            finding,
        });
    }
    let (a_hour, b_hour) = (c.a.outcome.cost_per_hour, c.b.outcome.cost_per_hour);
    let rise = b_hour - a_hour;
    for &limit in &checks.max_cost_increase {
        let failed = match limit {
            CostLimit::Percent(m) => {
                if a_hour > 0 {
                    i128::from(rise) * 100_000 > i128::from(m) * i128::from(a_hour)
                } else {
                    rise > 0
                }
            }
            CostLimit::PerMonth(micros) => rise * core::HOURS_PER_MONTH > micros,
        };
        out.push(Verdict {
            condition: format!("--max-cost-increase {}", limit.label()),
            failed,
            finding: cost_finding(a_hour, b_hour, matches!(limit, CostLimit::PerMonth(_))),
        });
    }
    out
}

/// `cost rises 12.4% ($0.0832/h, $60.74/month)`; with `monthly`, the month first:
/// `cost rises $60.74/month ($0.0832/h, 12.4%)`.
fn cost_finding(a_hour: MicroDollars, b_hour: MicroDollars, monthly: bool) -> String {
    let d = b_hour - a_hour;
    let (hour, month) = (money(d.abs()), cents(d.abs() * core::HOURS_PER_MONTH));
    let verb = match d {
        0 => return format!("cost unchanged ({}/h)", money(b_hour)),
        d if d > 0 => "rises",
        _ => "falls",
    };
    let Some(pct) = percent(d.abs(), a_hour) else {
        return format!(
            "cost {verb} from $0.00 to {}/h ({}/month)",
            money(b_hour),
            cents(b_hour * core::HOURS_PER_MONTH)
        );
    };
    if monthly {
        format!("cost {verb} {month}/month ({hour}/h, {pct})")
    } else {
        format!("cost {verb} {pct} ({hour}/h, {month}/month)")
    }
}

/// `12.4%`: `part` of `whole`, to a tenth of a percent (half away from zero); `None` when
/// `whole` is zero.
fn percent(part: MicroDollars, whole: MicroDollars) -> Option<String> {
    if whole == 0 {
        return None;
    }
    let (p, w) = (i128::from(part), i128::from(whole));
    let tenths = (p.abs() * 2000 + w.abs()) / (2 * w.abs());
    let sign = if (p < 0) != (w < 0) && tenths > 0 {
        "-"
    } else {
        ""
    };
    Some(format!("{sign}{}.{}%", tenths / 10, tenths % 10))
}

fn plural(n: u32, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The first `most` items, comma-separated, and how many more.
fn listed(items: impl Iterator<Item = String>, most: usize) -> String {
    let items: Vec<String> = items.collect();
    let mut text = items
        .iter()
        .take(most)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > most {
        let _ = write!(text, " and {} more", items.len() - most);
    }
    text
}

/// Rows a markdown table shows before it says how many more there are.
const MARKDOWN_ROWS: usize = 20;

/// Text for GitHub-flavoured markdown: every character markdown or HTML could read as
/// markup is escaped, and a line break becomes a space, so that it stays in its table cell.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '~' | '&' | '!' => {
                out.push('\\');
                out.push(ch);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out
}

/// A code span holding `text` (a file name), fenced with more backticks than it holds.
fn code(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    if longest == 0 {
        return format!("`{text}`");
    }
    let fence = "`".repeat(longest + 1);
    format!("{fence} {} {fence}", text.replace('|', "\\|"))
}

/// `+$0.2316 (+410.6%)`: B − A in money, and as a share of A when A is not zero.
fn signed_change(d: MicroDollars, a: MicroDollars, text: &str) -> String {
    let signed = if d > 0 && !text.starts_with('-') {
        format!("+{text}")
    } else {
        text.to_string()
    };
    match percent(d, a) {
        Some(pct) if d > 0 => format!("{signed} (+{pct})"),
        Some(pct) => format!("{signed} ({pct})"),
        None if d > 0 => format!("{signed} (from $0)"),
        None => signed,
    }
}

fn push_table(out: &mut String, header: [&str; 4], rows: &[[String; 4]]) {
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} |",
        header[0], header[1], header[2], header[3]
    );
    out.push_str("|---|---:|---:|---:|\n");
    for r in rows {
        let _ = writeln!(out, "| {} | {} | {} | {} |", r[0], r[1], r[2], r[3]);
    }
}

/// A pull request's comment (`--output markdown`): the cost before and after, nodes by
/// NodePool, instance type and capacity type, the pods B leaves pending and why, the nodes
/// that drift in B and why, B's disruption commands, the workloads placed differently, and
/// each condition's verdict. Short tables; long lists stop at 20 rows and say how many more.
pub fn markdown(c: &Comparison, a: &Changes, b: &Changes, verdicts: &[Verdict]) -> String {
    let (ma, mb) = (&c.a.outcome, &c.b.outcome);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## kpg compare: {} → {}\n",
        code(&c.a.file),
        code(&c.b.file)
    );
    let _ = writeln!(
        out,
        "A is {}, B is {}; both simulated from 0s to {}.\n",
        code(&c.a.file),
        code(&c.b.file),
        c.until
    );

    if !verdicts.is_empty() {
        let failed = verdicts.iter().filter(|v| v.failed).count();
        if failed == 0 {
            out.push_str("**Checks: all passed.**\n\n");
        } else {
            let _ = writeln!(
                out,
                "**Checks: {} of {} failed.**\n",
                failed,
                verdicts.len()
            );
        }
        for v in verdicts {
            let _ = writeln!(
                out,
                "- {} {}: {}",
                if v.failed { "❌" } else { "✅" },
                code(&v.condition),
                md(&v.finding)
            );
        }
        out.push('\n');
    }

    out.push_str("### Cost\n\n");
    let d_hour = mb.cost_per_hour - ma.cost_per_hour;
    let d_month = mb.cost_per_month() - ma.cost_per_month();
    let d_accrued = mb.accrued - ma.accrued;
    push_table(
        &mut out,
        ["", "A", "B", "B - A"],
        &[
            [
                String::from("$/hour"),
                money(ma.cost_per_hour),
                money(mb.cost_per_hour),
                signed_change(d_hour, ma.cost_per_hour, &money(d_hour)),
            ],
            [
                String::from("$/month (730 h)"),
                cents(ma.cost_per_month()),
                cents(mb.cost_per_month()),
                signed_change(d_month, ma.cost_per_month(), &cents(d_month)),
            ],
            [
                format!("accrued, 0s to {}", c.until),
                money(ma.accrued),
                money(mb.accrued),
                signed_money(d_accrued),
            ],
        ],
    );
    out.push('\n');

    out.push_str("### Nodes\n\n");
    let count = |label: String, x: u32, y: u32| {
        [
            label,
            x.to_string(),
            y.to_string(),
            signed(i64::from(y) - i64::from(x)),
        ]
    };
    let groups: [(&str, &Counts, &Counts); 3] = [
        ("NodePool", &c.a.nodes_by_nodepool, &c.b.nodes_by_nodepool),
        (
            "Instance type",
            &c.a.nodes_by_instance_type,
            &c.b.nodes_by_instance_type,
        ),
        (
            "Capacity type",
            &c.a.nodes_by_capacity_type,
            &c.b.nodes_by_capacity_type,
        ),
    ];
    for (i, (title, x, y)) in groups.into_iter().enumerate() {
        let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
        let mut rows: Vec<[String; 4]> = keys
            .into_iter()
            .map(|k| {
                count(
                    md(k),
                    x.get(k).copied().unwrap_or(0),
                    y.get(k).copied().unwrap_or(0),
                )
            })
            .collect();
        if i == 0 {
            rows.push(count(String::from("**all nodes**"), c.a.nodes, c.b.nodes));
        } else if rows.is_empty() {
            continue;
        }
        push_table(&mut out, [title, "A", "B", "B - A"], &rows);
        out.push('\n');
    }

    out.push_str("### Pending pods\n\n");
    let (pa, pb) = (a.pods_pending(), b.pods_pending());
    if pb == 0 {
        let _ = writeln!(out, "No pod is pending in B at {} (A: {pa}).\n", c.until);
    } else {
        let _ = writeln!(
            out,
            "B leaves {} pending at {} (A: {pa}):\n",
            plural(pb, "pod"),
            c.until
        );
        out.push_str("| Workload | Pods | Why (Karpenter) | A pod to explain |\n");
        out.push_str("|---|---:|---|---|\n");
        for p in b.pending.iter().take(MARKDOWN_ROWS) {
            let why = p
                .message
                .as_deref()
                .map_or_else(|| String::from("(no reason given yet)"), md);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                md(&p.owner),
                p.pods,
                why,
                code(&p.pod)
            );
        }
        more(&mut out, b.pending.len(), "workloads and reasons");
        let _ = writeln!(
            out,
            "\n`kpg explain {} --pod NAMESPACE/NAME` says why, NodePool by NodePool.\n",
            c.b.file.replace('`', "'")
        );
    }

    out.push_str("### Drift\n\n");
    if b.drifted.is_empty() {
        let _ = writeln!(out, "No node drifted in B (A: {}).\n", a.drifted.len());
    } else {
        let _ = writeln!(
            out,
            "{} drifted in B (A: {}):\n",
            plural(b.drifted.len() as u32, "node"),
            a.drifted.len()
        );
        out.push_str("| Node | NodePool | Instance type | Reason | Drifted at | At the end |\n");
        out.push_str("|---|---|---|---|---:|---|\n");
        for d in b.drifted.iter().take(MARKDOWN_ROWS) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                md(d.node.as_deref().unwrap_or(&d.nodeclaim)),
                md(d.node_pool.as_deref().unwrap_or("")),
                md(d.instance_type.as_deref().unwrap_or("")),
                d.reason.as_str(),
                duration::format(d.at),
                match d.state {
                    DriftState::Deleted => "replaced or deleted",
                    s => s.as_str(),
                }
            );
        }
        more(&mut out, b.drifted.len(), "nodes");
        out.push('\n');
    }

    out.push_str("### Disruptions\n\n");
    if b.commands.is_empty() {
        let _ = writeln!(out, "B starts no disruption (A: {}).\n", a.commands.len());
    } else {
        let nodes: usize = b
            .commands
            .iter()
            .map(|c| c.disruption.candidates.len())
            .sum();
        let _ = writeln!(
            out,
            "B's disruption controller carries out {} on {} (A: {} on {}):\n",
            plural(b.commands.len() as u32, "decision"),
            plural(nodes as u32, "node"),
            a.commands.len(),
            a.commands
                .iter()
                .map(|c| c.disruption.candidates.len())
                .sum::<usize>()
        );
        out.push_str("| At | Reason | Nodes | Pods | Replaced by |\n");
        out.push_str("|---:|---|---|---:|---|\n");
        for cmd in b.commands.iter().take(MARKDOWN_ROWS) {
            let d = &cmd.disruption;
            let mut reason = d.reason.as_str().to_string();
            if let Some(saves) = d.savings.filter(|s| *s > 0) {
                let _ = write!(reason, ", saves {}/h", money(saves));
            }
            let candidates: Vec<String> = d
                .candidates
                .iter()
                .map(|n| {
                    format!(
                        "{} ({} {})",
                        md(&n.name),
                        md(&n.instance_type),
                        n.capacity_type.as_str()
                    )
                })
                .collect();
            let replacements: Vec<String> = if cmd.replacements.len() == d.replacements.len() {
                cmd.replacements
                    .iter()
                    .map(|r| match &r.launched {
                        Some((t, ct)) => {
                            format!("{} ({} {})", md(&r.nodeclaim), md(t), ct.as_str())
                        }
                        None => format!("{} (not launched yet)", md(&r.nodeclaim)),
                    })
                    .collect()
            } else {
                d.replacements
                    .iter()
                    .map(|r| {
                        format!(
                            "{} {}",
                            md(&listed(r.instance_types.iter().cloned(), 3)),
                            r.capacity_type.map_or("spot or on-demand", |c| c.as_str())
                        )
                    })
                    .collect()
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                duration::format(cmd.at),
                reason,
                candidates.join(", "),
                d.pods,
                if replacements.is_empty() {
                    String::from("none (deleted)")
                } else {
                    replacements.join(", ")
                }
            );
        }
        more(&mut out, b.commands.len(), "decisions");
        out.push('\n');
    }

    if !c.workloads.is_empty() {
        out.push_str("### Workloads placed differently\n\n");
        let side = |m: &BTreeMap<String, u32>| {
            if m.is_empty() {
                return String::from("no pods");
            }
            m.iter()
                .map(|(place, n)| format!("{n} {}", md(place)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str("| Workload | A | B |\n|---|---|---|\n");
        for w in c.workloads.iter().take(MARKDOWN_ROWS) {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                md(&w.owner),
                side(&w.a),
                side(&w.b)
            );
        }
        more(&mut out, c.workloads.len(), "workloads");
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// After a list cut at [`MARKDOWN_ROWS`], how many rows were left out.
fn more(out: &mut String, total: usize, what: &str) {
    if total > MARKDOWN_ROWS {
        let _ = writeln!(out, "\n… and {} more {what}.", total - MARKDOWN_ROWS);
    }
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

    #[test]
    fn percentages_round_to_a_tenth_half_away_from_zero() {
        assert_eq!(percent(231_600, 56_400).as_deref(), Some("410.6%"));
        assert_eq!(percent(1_249, 10_000).as_deref(), Some("12.5%"));
        assert_eq!(percent(12_449, 100_000).as_deref(), Some("12.4%"));
        assert_eq!(percent(12_450, 100_000).as_deref(), Some("12.5%"));
        assert_eq!(percent(-12_450, 100_000).as_deref(), Some("-12.5%"));
        assert_eq!(percent(-4, 100_000).as_deref(), Some("0.0%"));
        assert_eq!(percent(0, 5).as_deref(), Some("0.0%"));
        assert_eq!(percent(5, 0), None);
    }

    #[test]
    fn cost_limits_read_back_as_written() {
        assert_eq!(CostLimit::Percent(5_000).label(), "5%");
        assert_eq!(CostLimit::Percent(2_500).label(), "2.5%");
        assert_eq!(CostLimit::Percent(125).label(), "0.125%");
        assert_eq!(CostLimit::PerMonth(100_000_000).label(), "$100/month");
        assert_eq!(CostLimit::PerMonth(99_500_000).label(), "$99.50/month");
        assert_eq!(CostLimit::PerMonth(0).label(), "$0/month");
    }

    #[test]
    fn markdown_text_escapes_what_markdown_or_html_would_read() {
        assert_eq!(md("a|b <x> *y* [z]"), "a\\|b \\<x\\> \\*y\\* \\[z\\]");
        assert_eq!(md("one\ntwo"), "one two");
        assert_eq!(code("base.yaml"), "`base.yaml`");
        assert_eq!(code("a`b.yaml"), "`` a`b.yaml ``");
    }
}

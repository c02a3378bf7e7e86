//! `kpg simulate --output csv`: the cluster's figures over time, for a spreadsheet. One row
//! per instant at which they changed (the report's `history`), and a last row at the end of
//! the run when nothing changed at it, so that a chart reaches the end.

use std::fmt::Write as _;

use kpg_core::catalog::MicroDollars;
use kpg_core::duration;
use kpg_core::model::Millis;
use kpg_core::sim::history::{HistoryPoint, accrued, figures_at};

/// The header row: the report's `history` keys, then the cost accrued from time 0.
pub const HEADER: &str = "time,seconds,nodes,running,pending,costPerHour,accruedCost";

/// The series until `now` as CSV (RFC 4180: commas, CRLF-free lines, no field needs quoting).
pub fn history(points: &[HistoryPoint], now: Millis) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    let instants = points.iter().map(|p| p.at).chain(core::iter::once(now));
    let mut last = None;
    for at in instants {
        if last.replace(at) == Some(at) {
            continue;
        }
        let _ = writeln!(out, "{},{}", instant(at), figures(points, at));
    }
    out
}

/// The first two columns of a row: `time,seconds`.
pub fn instant(at: Millis) -> String {
    format!("{},{}", duration::format(at), seconds(at))
}

/// The figures that held at `at` and the cost accrued until then:
/// `nodes,running,pending,costPerHour,accruedCost`.
pub fn figures(points: &[HistoryPoint], at: Millis) -> String {
    let p = figures_at(points, at);
    format!(
        "{},{},{},{},{}",
        p.nodes,
        p.running,
        p.pending,
        dollars(p.cost_per_hour),
        dollars(accrued(points, at))
    )
}

/// Milliseconds as seconds with no trailing zeros: `41.717`, `180`.
fn seconds(ms: Millis) -> String {
    let (s, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        s.to_string()
    } else {
        format!("{s}.{frac:03}").trim_end_matches('0').to_string()
    }
}

/// Micro-dollars as dollars with all six decimals: a spreadsheet reads them as numbers.
pub fn dollars(micros: MicroDollars) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let m = micros.unsigned_abs();
    format!("{sign}{}.{:06}", m / 1_000_000, m % 1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(at: Millis, nodes: u32, cost_per_hour: MicroDollars) -> HistoryPoint {
        HistoryPoint {
            at,
            nodes,
            running: nodes * 2,
            pending: 0,
            cost_per_hour,
        }
    }

    #[test]
    fn rows_carry_the_cost_accrued_until_them_and_the_end_of_the_run() {
        let points = [
            point(0, 0, 0),
            point(1_500, 1, 20_800),
            point(1_801_500, 0, 0),
        ];
        let csv = history(&points, 3_600_000);
        let rows: Vec<&str> = csv.lines().collect();
        assert_eq!(rows[0], HEADER);
        assert_eq!(rows[1], "0m0s,0,0,0,0,0.000000,0.000000");
        assert_eq!(rows[2], "0m1.5s,1.5,1,2,0,0.020800,0.000000");
        // Half an hour at $0.0208/h.
        assert_eq!(rows[3], "30m1.5s,1801.5,0,0,0,0.000000,0.010400");
        assert_eq!(rows[4], "1h0m0s,3600,0,0,0,0.000000,0.010400");
        assert_eq!(rows.len(), 5);
    }

    #[test]
    fn a_run_that_ends_on_a_change_has_no_extra_row() {
        let points = [point(0, 1, 1_000_000), point(60_000, 0, 0)];
        let csv = history(&points, 60_000);
        assert_eq!(csv.lines().count(), 3);
        assert!(csv.ends_with("1m0s,60,0,0,0,0.000000,0.016667\n"), "{csv}");
    }
}

//! The cost timeline's drawing, without browser types: the time axis, the SVG paths of the
//! step lines, where a pointer's instant snaps to, and the words of the tip and the table.
//! The view ([`crate::views::cost_view`]) only places what this computes, so it is tested natively.
//!
//! The plot is one SVG in a fixed coordinate box ([`WIDTH`] × [`HEIGHT`]) stretched to the
//! pane's width: $/hour in the upper band, nodes and pending pods in the lower band, on one
//! time axis from 0 to a round span past the clock.

use std::fmt::Write as _;

use crate::base::i18n::Lang;
use crate::base::series::{Marker, MarkerKind, Point, Series};
use crate::base::snapshot;
use crate::base::words::{self, Noun};

pub const WIDTH: f64 = 1000.0;
pub const HEIGHT: f64 = 120.0;
/// The $/hour band.
pub const COST_TOP: f64 = 6.0;
pub const COST_BOTTOM: f64 = 72.0;
/// The nodes and pending band.
pub const COUNT_TOP: f64 = 82.0;
pub const COUNT_BOTTOM: f64 = 118.0;

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
/// The axis ends at the first of these past the clock: it rescales seldom, and a lesson's
/// few minutes fill it.
const SPANS: [i64; 12] = [
    MINUTE,
    2 * MINUTE,
    5 * MINUTE,
    10 * MINUTE,
    15 * MINUTE,
    30 * MINUTE,
    HOUR,
    2 * HOUR,
    3 * HOUR,
    6 * HOUR,
    12 * HOUR,
    24 * HOUR,
];

/// The axis's end for a run at `now`.
pub fn span(now: i64) -> i64 {
    SPANS
        .iter()
        .copied()
        .find(|&s| s >= now)
        .unwrap_or(SPANS[SPANS.len() - 1])
}

/// The x of instant `t`.
pub fn x_of(t: i64, span: i64) -> f64 {
    (t.clamp(0, span) as f64 / span.max(1) as f64) * WIDTH
}

/// `t`'s place along the axis, in percent (the HTML marks are placed with it).
pub fn percent_of(t: i64, span: i64) -> f64 {
    x_of(t, span) / WIDTH * 100.0
}

/// What the bands span, over every run drawn (A and B share one scale): the highest count,
/// and the cost from `cost_floor` to `cost`.
///
/// The cost band does not start at $0 when the cluster never costs less than some floor
/// (fixed nodes that always run): a consolidation that saves 3 % of the bill would be a step
/// of 3 % of the band, which no learner sees. The floor is the lowest cost less the range it
/// moves over, so the lowest cost sits mid-band and every change shows; the floor is
/// labelled on the chart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scale {
    pub cost: i64,
    pub cost_floor: i64,
    pub count: u32,
}

impl Scale {
    pub fn of<'a>(runs: impl IntoIterator<Item = &'a [Point]>) -> Scale {
        let mut s = Scale::default();
        let mut lowest = i64::MAX;
        for run in runs {
            for p in run {
                s.cost = s.cost.max(p.cost_per_hour);
                lowest = lowest.min(p.cost_per_hour);
                s.count = s.count.max(p.nodes).max(p.pending);
            }
        }
        if lowest != i64::MAX && lowest < s.cost {
            s.cost_floor = (lowest - (s.cost - lowest)).max(0);
        }
        s
    }

    pub fn cost_y(&self, micro: i64) -> f64 {
        let range = (self.cost - self.cost_floor).max(1) as f64;
        band_y(
            (micro - self.cost_floor) as f64,
            range,
            COST_TOP,
            COST_BOTTOM,
        )
    }

    pub fn count_y(&self, n: u32) -> f64 {
        band_y(
            f64::from(n),
            f64::from(self.count.max(1)),
            COUNT_TOP,
            COUNT_BOTTOM,
        )
    }
}

fn band_y(v: f64, max: f64, top: f64, bottom: f64) -> f64 {
    bottom - (v / max).clamp(0.0, 1.0) * (bottom - top)
}

/// A step line through `points` (each value holds until the next point) from time 0 to
/// `end`, as an SVG path. Points closer than half a unit apart along x are drawn as one
/// vertical stroke through their lowest and highest values, so a run with thousands of
/// changes draws at most a few thousand segments and hides no spike.
pub fn step_path(points: &[Point], y: impl Fn(&Point) -> f64, span: i64, end: i64) -> String {
    let mut d = String::new();
    let y0 = y(&Point::default());
    let _ = write!(d, "M0,{y0:.1}");
    let mut x_now = 0.0_f64;
    // The values at x_now not drawn yet: (lowest y, highest y, how many, the last).
    let mut bucket: Option<(f64, f64, u32, f64)> = None;
    let flush = |d: &mut String, bucket: &mut Option<(f64, f64, u32, f64)>| match bucket.take() {
        Some((_, _, 1, last)) => {
            let _ = write!(d, "V{last:.1}");
        }
        Some((lo, hi, _, last)) => {
            let _ = write!(d, "V{lo:.1}V{hi:.1}V{last:.1}");
        }
        None => {}
    };
    for p in points.iter().filter(|p| p.at <= end) {
        let x = x_of(p.at, span);
        let v = y(p);
        if x - x_now >= 0.5 {
            flush(&mut d, &mut bucket);
            let _ = write!(d, "H{x:.1}");
            x_now = x;
        }
        bucket = Some(match bucket {
            Some((lo, hi, n, _)) => (lo.min(v), hi.max(v), n + 1, v),
            None => (v, v, 1, v),
        });
    }
    flush(&mut d, &mut bucket);
    let _ = write!(d, "H{:.1}", x_of(end, span));
    d
}

/// The same line closed down to `bottom`, to fill.
pub fn area_path(line: &str, bottom: f64) -> String {
    format!("{line}V{bottom:.1}H0Z")
}

/// Where a pointer at `t` inspects: `t` within the run (`0..=now`), or the marker within
/// `snap` of it (a click near a marker lands on its decision).
pub fn snap(series: &Series, t: i64, now: i64, snap: i64) -> i64 {
    let t = t.clamp(0, now.max(0));
    series
        .markers_between(t - snap, t + snap)
        .iter()
        .min_by_key(|m| (m.at - t).abs())
        .map_or(t, |m| m.at)
}

/// The instants where something changed, in order, up to `now`: what the arrow keys step
/// through and the table lists.
pub fn instants(series: &Series, now: i64) -> Vec<i64> {
    let mut at: Vec<i64> = series
        .points
        .iter()
        .map(|p| p.at)
        .chain(series.markers.iter().map(|m| m.at))
        .filter(|&t| t <= now)
        .collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// A decision in the learner's words.
pub fn marker_words(m: &Marker, lang: Lang) -> String {
    let nodes = words::count(m.count as usize, Noun::Node, lang);
    let n = m.count;
    let saves = snapshot::dollars(m.savings);
    match (m.kind, lang) {
        (MarkerKind::Launch, Lang::En) => format!("{nodes} launched ({})", m.first),
        (MarkerKind::Launch, Lang::Ko) => format!("{nodes} 시작 ({})", m.first),
        (MarkerKind::Consolidation, Lang::En) => {
            format!("consolidation of {nodes}: saves {saves}/hour")
        }
        (MarkerKind::Consolidation, Lang::Ko) => {
            format!("{nodes} 통합(consolidation): 시간당 {saves} 절감")
        }
        (MarkerKind::Emptiness, Lang::En) => {
            format!("{nodes} empty, removed: saves {saves}/hour")
        }
        (MarkerKind::Emptiness, Lang::Ko) => {
            format!("빈 {nodes} 정리: 시간당 {saves} 절감")
        }
        (MarkerKind::Drift, Lang::En) => format!("{nodes} drifted, replaced"),
        (MarkerKind::Drift, Lang::Ko) => format!("{nodes} 드리프트로 교체"),
        (MarkerKind::Repair, Lang::En) => format!("{nodes} unhealthy, repaired ({})", m.first),
        (MarkerKind::Repair, Lang::Ko) => format!("비정상 {nodes} 복구 ({})", m.first),
        (MarkerKind::Expiry, Lang::En) => format!("{nodes} expired ({})", m.first),
        (MarkerKind::Expiry, Lang::Ko) => format!("{nodes} 만료 ({})", m.first),
        (MarkerKind::Interruption, Lang::En) => format!("spot interruption of {}", m.first),
        (MarkerKind::Interruption, Lang::Ko) => format!("스팟 중단: {}", m.first),
        (MarkerKind::Removal, Lang::En) => format!("{nodes} gone ({})", m.first),
        (MarkerKind::Removal, Lang::Ko) => format!("{nodes} 종료 ({})", m.first),
        (MarkerKind::Step, Lang::En) if n > 1 => {
            format!("Timeline: {} and {} more", m.first, n - 1)
        }
        (MarkerKind::Step, Lang::Ko) if n > 1 => {
            format!("Timeline: {} 외 {}개", m.first, n - 1)
        }
        (MarkerKind::Step, _) => format!("Timeline: {}", m.first),
    }
}

/// A mark's glyph: shape backs colour, so kinds differ without it.
pub fn glyph(kind: MarkerKind) -> &'static str {
    match kind {
        MarkerKind::Launch => "▲",
        MarkerKind::Removal => "▼",
        MarkerKind::Consolidation | MarkerKind::Emptiness => "◆",
        MarkerKind::Drift => "↻",
        MarkerKind::Repair => "✚",
        MarkerKind::Expiry => "●",
        MarkerKind::Interruption => "✕",
        MarkerKind::Step => "■",
    }
}

/// The figures at `t` in one line: `$0.2354/hour · 4 nodes · 8 running · 0 pending`.
pub fn figures_words(p: &Point, lang: Lang) -> String {
    let cost = snapshot::dollars(p.cost_per_hour);
    match lang {
        Lang::En => format!(
            "{cost}/hour · {} · {} running · {} pending",
            words::count(p.nodes as usize, Noun::Node, lang),
            p.running,
            p.pending
        ),
        Lang::Ko => format!(
            "시간당 {cost} · {} · Running {} · Pending {}",
            words::count(p.nodes as usize, Noun::Node, lang),
            p.running,
            p.pending
        ),
    }
}

/// What the nodes cost from 0 to `t`: `spent $0.0123 by 6:10`.
pub fn spent_words(micro: i64, t: i64, lang: Lang) -> String {
    let spent = snapshot::dollars(micro);
    let at = snapshot::clock(t);
    match lang {
        Lang::En => format!("spent {spent} by {at}"),
        Lang::Ko => format!("{at}까지 {spent} 지출"),
    }
}

/// The axis's tick labels: 0, the middle and the end.
pub fn ticks(span: i64) -> [(f64, String); 3] {
    [
        (0.0, snapshot::clock(0)),
        (50.0, snapshot::clock(span / 2)),
        (100.0, snapshot::clock(span)),
    ]
}

/// Rows a label may take under the marks before it is left out (its figure stays in the mark's
/// title, the tip and the table).
pub const LABEL_ROWS: usize = 3;

/// Where each label goes so none covers another: `labels` are (centre, width) in pixels, in
/// any order; the answer, in the same order, is the row each takes (0 is nearest the marks)
/// or `None` where every row is taken there. Labels further left are placed first, each in
/// the first row whose last label ends before it starts (with `gap` pixels between). Row 0
/// is free only from `first_row_from` on: the plot's peak price is written at its left end.
pub fn label_rows(labels: &[(f64, f64)], gap: f64, first_row_from: f64) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by(|&a, &b| labels[a].0.total_cmp(&labels[b].0).then(a.cmp(&b)));
    let mut ends = [f64::NEG_INFINITY; LABEL_ROWS];
    ends[0] = first_row_from;
    let mut rows = vec![None; labels.len()];
    for i in order {
        let (centre, width) = labels[i];
        let (start, end) = (centre - width / 2.0, centre + width / 2.0);
        if let Some(r) = ends.iter().position(|&e| e + gap <= start) {
            ends[r] = end;
            rows[i] = Some(r);
        }
    }
    rows
}

#[cfg(test)]
mod tests {

    #[test]
    fn saving_labels_close_together_take_rows_and_never_cover_each_other() {
        // Two consolidations 20 px apart, labels 40 px wide: the second goes under the first.
        assert_eq!(
            label_rows(&[(100.0, 40.0), (120.0, 40.0)], 4.0, 0.0),
            [Some(0), Some(1)]
        );
        // Far apart: one row.
        assert_eq!(
            label_rows(&[(300.0, 40.0), (100.0, 40.0)], 4.0, 0.0),
            [Some(0), Some(0)]
        );
        // Under the peak price written at the left end (to 80 px), a label takes the next row.
        assert_eq!(
            label_rows(&[(60.0, 40.0), (200.0, 40.0)], 4.0, 80.0),
            [Some(1), Some(0)]
        );
        // More at one place than there are rows: the rest are left out.
        let crowd = vec![(50.0, 40.0); LABEL_ROWS + 2];
        let rows = label_rows(&crowd, 4.0, 0.0);
        assert_eq!(rows.iter().flatten().count(), LABEL_ROWS);
        // Whatever the input, no two labels in a row overlap.
        let many: Vec<(f64, f64)> = (0..40)
            .map(|i| ((i * 37 % 500) as f64, 30.0 + (i % 3) as f64 * 10.0))
            .collect();
        let rows = label_rows(&many, 4.0, 0.0);
        for (a, ra) in rows.iter().enumerate() {
            for (b, rb) in rows.iter().enumerate().skip(a + 1) {
                if ra.is_some() && ra == rb {
                    let (ca, wa) = many[a];
                    let (cb, wb) = many[b];
                    assert!(
                        (ca - cb).abs() >= (wa + wb) / 2.0 + 4.0,
                        "{a} and {b} overlap"
                    );
                }
            }
        }
    }
    use super::*;
    use crate::base::series::SeriesUpdate;

    fn p(at: i64, nodes: u32, cost: i64) -> Point {
        Point {
            at,
            nodes,
            running: 0,
            pending: 0,
            cost_per_hour: cost,
        }
    }

    /// Fixed nodes cost $0.2354 an hour throughout; the platform nodes add $0.0312 and go:
    /// the band spans from $0.2042, so the lowest cost is mid-band and the steps show.
    #[test]
    fn the_cost_band_starts_below_the_lowest_cost_by_the_range_it_moves() {
        let points = [
            p(0, 2, 235_420),
            p(2_000, 6, 266_620),
            p(300_000, 2, 235_420),
        ];
        let s = Scale::of([&points[..]]);
        assert_eq!((s.cost_floor, s.cost), (204_220, 266_620));
        assert_eq!(s.cost_y(266_620), COST_TOP);
        assert_eq!(s.cost_y(235_420), (COST_TOP + COST_BOTTOM) / 2.0);
        // A run that goes to $0 (or never moves) keeps the band from $0.
        let to_zero = [p(0, 0, 0), p(1_000, 1, 10_000)];
        assert_eq!(Scale::of([&to_zero[..]]).cost_floor, 0);
        let flat = [p(0, 2, 235_420)];
        assert_eq!(Scale::of([&flat[..]]).cost_floor, 0);
    }

    #[test]
    fn the_axis_ends_at_a_round_span_past_the_clock() {
        assert_eq!(span(0), MINUTE);
        assert_eq!(span(61_000), 2 * MINUTE);
        assert_eq!(span(6 * MINUTE + 10_000), 10 * MINUTE);
        assert_eq!(span(48 * HOUR), 24 * HOUR);
        assert_eq!(x_of(5 * MINUTE, 10 * MINUTE), 500.0);
    }

    /// A falling cost is a step down at the instant it fell, and the line runs on to the
    /// clock.
    #[test]
    fn a_step_line_holds_each_value_until_the_next() {
        let points = [p(0, 2, 100), p(30_000, 3, 200), p(45_000, 2, 100)];
        let scale = Scale::of([&points[..]]);
        let d = step_path(&points, |p| scale.cost_y(p.cost_per_hour), MINUTE, 50_000);
        assert_eq!(d, "M0,72.0V39.0H500.0V6.0H750.0V39.0H833.3");
        assert_eq!(area_path(&d, COST_BOTTOM), format!("{d}V72.0H0Z"));
    }

    /// Thousands of changes within one unit of x are one stroke through their extremes.
    #[test]
    fn dense_changes_are_drawn_as_one_stroke_that_keeps_the_spike() {
        let mut points: Vec<Point> = (0..5_000).map(|i| p(i, 1, 100)).collect();
        points[2_500].cost_per_hour = 1_000;
        let scale = Scale::of([&points[..]]);
        let d = step_path(&points, |p| scale.cost_y(p.cost_per_hour), 24 * HOUR, 5_000);
        assert!(d.len() < 200, "{} bytes", d.len());
        assert!(d.contains("V6.0"), "the spike to the peak is drawn: {d}");
    }

    #[test]
    fn a_pointer_snaps_to_a_nearby_decision_and_never_past_the_clock() {
        let mut series = Series::default();
        series.extend(SeriesUpdate {
            restart: true,
            points: vec![p(0, 1, 1)],
            markers: vec![Marker {
                at: 255_000,
                kind: MarkerKind::Consolidation,
                count: 1,
                savings: 7_800,
                first: "platform-x".into(),
            }],
            ..SeriesUpdate::default()
        });
        assert_eq!(snap(&series, 250_000, 400_000, 6_000), 255_000);
        assert_eq!(snap(&series, 240_000, 400_000, 6_000), 240_000);
        assert_eq!(snap(&series, 500_000, 400_000, 6_000), 400_000);
        assert_eq!(instants(&series, 400_000), vec![0, 255_000]);
        assert_eq!(instants(&series, 100_000), vec![0]);
        assert_eq!(
            marker_words(&series.markers[0], Lang::En),
            "consolidation of 1 node: saves $0.0078/hour"
        );
        assert_eq!(
            marker_words(&series.markers[0], Lang::Ko),
            "노드 1대 통합(consolidation): 시간당 $0.0078 절감"
        );
    }
}

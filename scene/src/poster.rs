//! The cluster at one instant as one self-contained SVG: the poster.
//!
//! An article that embeds a scenario shows the poster until the live playground takes over
//! (and for good where scripts do not run: feed readers, email, JavaScript off); a link
//! preview is the poster rasterised (`kpg share --page`); a share link carries a
//! [`Figure`] so its first frame is drawn before the engine arrives.
//!
//! It is drawn from the same [`Snapshot`] the page's cluster view renders (NodePools as
//! lanes, node cards with their instance type, zone, capacity type, price, state, CPU and
//! memory bars and pods coloured by workload, the pending tray, the summary), so a poster
//! and the live page show one cluster. The drawing depends on nothing outside the `<svg>`:
//! no script, no stylesheet of the page, no font file, no `id` (an article may hold several
//! posters). Colours are classes under the `kpg-poster` class, whose rules (and their dark
//! variants, for [`Theme::Dark`] or the reader's preference under [`Theme::Auto`]) are in
//! the SVG's own `<style>`; every rule is scoped by that class, so nothing leaks into the
//! article. State is never told by colour alone (Okabe–Ito colours, text beside them).
//!
//! SVG text cannot be measured without the reader's fonts, so text is cut to a character
//! budget that fits its box in a proportional sans-serif at its size.

use std::fmt::Write as _;

use kpg_core::catalog::CapacityType;
use serde::{Deserialize, Serialize};

use crate::snapshot::{self, CardState, Fate, LANE_CARD_LIMIT, LaneKind, Snapshot};

/// Light, dark, or as the reader's system prefers (`prefers-color-scheme`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
    #[default]
    Auto,
}

impl Theme {
    /// `light`, `dark`, `auto`: the embed's `data-theme` values.
    pub fn parse(text: &str) -> Option<Theme> {
        match text {
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            "auto" => Some(Theme::Auto),
            _ => None,
        }
    }
}

/// The poster's few words, in the page's two languages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    #[serde(rename = "en")]
    En,
    #[serde(rename = "ko")]
    Ko,
}

/// What a poster draws: the snapshot without what only the live page shows (labels,
/// requirements, pods' names and reasons, events). Small enough for a share link to carry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    /// What the scenario is (the lesson's or the first object's name).
    pub title: String,
    pub at_ms: i64,
    pub nodes: usize,
    /// Micro-dollars per hour.
    pub cost_per_hour: i64,
    pub pods_running: usize,
    pub pods_pending: usize,
    /// Requested and allocatable millicores of every node.
    pub cpu: (i64, i64),
    /// Requested and allocatable bytes of every node.
    pub memory: (i64, i64),
    /// Karpenter's latest disruption decision while it is recent (its log line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
    pub lanes: Vec<FigureLane>,
    /// The pending pods' workload colours, one each, up to [`snapshot::PENDING_CHIP_LIMIT`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<u8>,
    /// Past [`snapshot::PENDING_CHIP_LIMIT`]: the pending pods by workload (owner, colour,
    /// how many).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_groups: Vec<(String, u8, usize)>,
}

/// A NodePool's lane, or the lane of the nodes no NodePool manages (`pool: None`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FigureLane {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    /// Its nodes, one card each, up to [`LANE_CARD_LIMIT`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<FigureNode>,
    /// Past [`LANE_CARD_LIMIT`] nodes, a row per instance type, capacity type and state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<FigureGroup>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FigureNode {
    pub instance_type: String,
    pub zone: String,
    pub capacity_type: CapacityType,
    pub state: CardState,
    pub price_per_hour: i64,
    pub cpu: (i64, i64),
    pub memory: (i64, i64),
    /// The colours of the workloads' pods it runs.
    pub pods: Vec<u8>,
    /// DaemonSet pods it runs (drawn as outlined chips before the others).
    #[serde(default)]
    pub daemons: usize,
    /// What disruption has in store for it, in a few words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fate: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FigureGroup {
    pub instance_type: String,
    pub capacity_type: CapacityType,
    pub state: CardState,
    pub nodes: usize,
    pub pods: usize,
    pub price_per_hour: i64,
}

impl Figure {
    /// What the poster of `snapshot` draws, titled `title`.
    pub fn of(snapshot: &Snapshot, title: &str) -> Figure {
        let s = &snapshot.summary;
        let lanes = snapshot
            .lanes
            .iter()
            .map(|lane| {
                let pool = match &lane.kind {
                    LaneKind::NodePool { name, .. } => Some(name.clone()),
                    LaneKind::Fixed => None,
                };
                if lane.nodes.len() > LANE_CARD_LIMIT {
                    let groups = lane
                        .groups()
                        .into_iter()
                        .map(|g| FigureGroup {
                            instance_type: g.instance_type,
                            capacity_type: g.capacity_type,
                            state: g.state,
                            nodes: g.nodes,
                            pods: g.pods,
                            price_per_hour: g.price_per_hour,
                        })
                        .collect();
                    return FigureLane {
                        pool,
                        nodes: Vec::new(),
                        groups,
                    };
                }
                let nodes = lane
                    .nodes
                    .iter()
                    .map(|n| FigureNode {
                        instance_type: n.instance_type.clone(),
                        zone: n.zone.clone(),
                        capacity_type: n.capacity_type,
                        state: n.state,
                        price_per_hour: n.price_per_hour,
                        cpu: (n.cpu_requested_milli, n.cpu_allocatable_milli),
                        memory: (n.memory_requested, n.memory_allocatable),
                        pods: n
                            .pods
                            .iter()
                            .filter(|p| !p.daemon)
                            .map(|p| colour(p.colour))
                            .collect(),
                        daemons: n.pods.iter().filter(|p| p.daemon).count(),
                        fate: n.fate.as_ref().map(fate_words),
                    })
                    .collect();
                FigureLane {
                    pool,
                    nodes,
                    groups: Vec::new(),
                }
            })
            .collect();
        Figure {
            title: title.to_string(),
            at_ms: snapshot.time_ms,
            nodes: s.nodes,
            cost_per_hour: s.cost_per_hour,
            pods_running: s.pods_running,
            pods_pending: s.pods_pending,
            cpu: (s.cpu_requested_milli, s.cpu_allocatable_milli),
            memory: (s.memory_requested, s.memory_allocatable),
            decision: s.decision.clone(),
            lanes,
            pending: snapshot.pending.iter().map(|p| colour(p.colour)).collect(),
            pending_groups: if snapshot.pending.is_empty() {
                snapshot
                    .pending_groups
                    .iter()
                    .map(|g| (g.owner.clone(), colour(g.colour), g.pods))
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    /// One line of figures: `3 nodes · $0.2310/h · 8 pods running · 2 pending`, what a link
    /// preview's description and the poster's accessible name say.
    pub fn description(&self, lang: Lang) -> String {
        let w = Words::of(lang);
        format!(
            "{} · {}{} · {} · {}",
            w.nodes(self.nodes),
            snapshot::dollars(self.cost_per_hour),
            w.per_hour,
            w.running(self.pods_running),
            w.pending(self.pods_pending),
        )
    }
}

/// A scenario's title when nothing better names it (a lesson does): its first object as a
/// tab names it, `Kind/name`, else "Karpenter Playground". The page's Share dialog and
/// `kpg share` both title a link's figure so, and get the same link for the same scenario.
pub fn title_of(docs: &[String]) -> String {
    docs.iter()
        .find_map(|doc| kpg_manifests::document_title(doc))
        .unwrap_or_else(|| String::from("Karpenter Playground"))
}

/// A workload colour index as the figure keeps it.
fn colour(c: usize) -> u8 {
    (c % snapshot::WORKLOAD_COLOURS) as u8
}

/// A node's fate in the words of its card (Karpenter's own identifiers, as the page).
fn fate_words(fate: &Fate) -> String {
    match fate {
        Fate::Unhealthy { condition, .. } => format!("{condition} not True"),
        Fate::Drifted(why) => format!("Drifted: {why}"),
        Fate::Disrupting(why) => format!("Disrupting: {why}"),
        Fate::SpotInterrupted => "Spot interrupted".into(),
        Fate::ReservationInterrupted => "Reservation interrupted".into(),
        Fate::Expired => "Expired".into(),
    }
}

struct Words {
    lang: Lang,
    per_hour: &'static str,
    per_month: &'static str,
    fixed: &'static str,
    pending_title: &'static str,
    no_nodes: &'static str,
    at: &'static str,
    cpu: &'static str,
    memory: &'static str,
}

impl Words {
    fn of(lang: Lang) -> Words {
        match lang {
            Lang::En => Words {
                lang,
                per_hour: "/h",
                per_month: "/mo",
                fixed: "Fixed nodes",
                pending_title: "Pending pods",
                no_nodes: "no nodes",
                at: "at",
                cpu: "CPU",
                memory: "memory",
            },
            Lang::Ko => Words {
                lang,
                per_hour: "/시간",
                per_month: "/월",
                fixed: "고정 노드",
                pending_title: "Pending 파드",
                no_nodes: "노드 없음",
                at: "시각",
                cpu: "CPU",
                memory: "메모리",
            },
        }
    }

    fn nodes(&self, n: usize) -> String {
        match self.lang {
            Lang::En if n == 1 => "1 node".into(),
            Lang::En => format!("{} nodes", snapshot::count(n)),
            Lang::Ko => format!("노드 {}대", snapshot::count(n)),
        }
    }

    fn pods(&self, n: usize) -> String {
        match self.lang {
            Lang::En if n == 1 => "1 pod".into(),
            Lang::En => format!("{} pods", snapshot::count(n)),
            Lang::Ko => format!("파드 {}개", snapshot::count(n)),
        }
    }

    fn running(&self, n: usize) -> String {
        match self.lang {
            Lang::En => format!("{} running", self.pods(n)),
            Lang::Ko => format!("실행 중 {}", self.pods(n)),
        }
    }

    fn pending(&self, n: usize) -> String {
        match self.lang {
            Lang::En => format!("{} pending", snapshot::count(n)),
            Lang::Ko => format!("대기 {}", snapshot::count(n)),
        }
    }

    fn capacity(&self, c: CapacityType) -> &'static str {
        match (self.lang, c) {
            (Lang::En, CapacityType::Spot) => "spot",
            (Lang::En, CapacityType::OnDemand) => "on-demand",
            (Lang::En, CapacityType::Reserved) => "reserved",
            (Lang::Ko, CapacityType::Spot) => "스팟",
            (Lang::Ko, CapacityType::OnDemand) => "온디맨드",
            (Lang::Ko, CapacityType::Reserved) => "예약",
        }
    }

    fn state(&self, s: CardState) -> &'static str {
        match (self.lang, s) {
            (Lang::En, CardState::Launching) => "Launching",
            (Lang::En, CardState::Registering) => "Registering",
            (Lang::En, CardState::Ready) => "Ready",
            (Lang::En, CardState::NotReady) => "NotReady",
            (Lang::En, CardState::Cordoned) => "Cordoned",
            (Lang::En, CardState::Deleting) => "Deleting",
            (Lang::Ko, CardState::Launching) => "시작 중",
            (Lang::Ko, CardState::Registering) => "등록 중",
            (Lang::Ko, CardState::Ready) => "준비됨",
            (Lang::Ko, CardState::NotReady) => "준비 안 됨",
            (Lang::Ko, CardState::Cordoned) => "Cordon됨",
            (Lang::Ko, CardState::Deleting) => "삭제 중",
        }
    }
}

/// How a poster is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    pub theme: Theme,
    pub lang: Lang,
    /// Drawn for a phone's width ([`NARROW_WIDTH`]: two node cards a row, the figures on three
    /// lines), so that its text stays readable where a wide drawing would be scaled to half.
    pub narrow: bool,
}

/// The drawing's width in SVG units; it scales to its box (`max-width: 100%`).
pub const WIDTH: i32 = 720;
/// A narrow drawing's width: two node cards and the lane's margins.
pub const NARROW_WIDTH: i32 = 2 * PAD + 2 * LANE_PAD + 2 * CARD_W + CARD_GAP;
const PAD: i32 = 16;
const LANE_PAD: i32 = 12;
const CARD_W: i32 = 160;
const CARD_GAP: i32 = 8;
const CHIP: i32 = 9;
const CHIP_GAP: i32 = 2;
const CHIPS_PER_ROW: usize = ((CARD_W - 16 + CHIP_GAP) / (CHIP + CHIP_GAP)) as usize;
const CHIP_ROWS_SHOWN: usize = 3;

/// The light palette (the page's `style.css` variables) and its dark variant, by class.
const LIGHT: &[(&str, &str)] = &[
    ("bg", "fill:#f5f6f8"),
    ("lane", "fill:#fff;stroke:#d9dde3"),
    ("card", "fill:#fff;stroke:#d9dde3"),
    ("spot", "fill:#fff;stroke:#d55e00;stroke-dasharray:4 3"),
    ("going", "fill:#fbeee5;stroke:#d55e00"),
    ("t", "fill:#1a1e24"),
    ("m", "fill:#5a6472"),
    ("a", "fill:#d55e00"),
    ("track", "fill:#e6e9ee"),
    ("bar", "fill:#0072b2"),
    ("hole", "fill:none;stroke:#5a6472"),
];
const DARK: &[(&str, &str)] = &[
    ("bg", "fill:#0e1115"),
    ("lane", "fill:#161a20;stroke:#2b313a"),
    ("card", "fill:#1b2028;stroke:#2b313a"),
    ("spot", "fill:#1b2028;stroke:#ff8a50;stroke-dasharray:4 3"),
    ("going", "fill:#2a1d16;stroke:#ff8a50"),
    ("t", "fill:#e5e8ed"),
    ("m", "fill:#9aa4b1"),
    ("a", "fill:#ff8a50"),
    ("track", "fill:#2b313a"),
    ("bar", "fill:#56b4e9"),
    ("hole", "fill:none;stroke:#9aa4b1"),
];
/// Okabe–Ito, as the page's `--w0` … `--w7`.
const WORKLOAD: [&str; snapshot::WORKLOAD_COLOURS] = [
    "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#8c8c8c",
];

const SCOPE: &str = "kpg-poster";

fn rules(out: &mut String, palette: &[(&str, &str)]) {
    for (class, decl) in palette {
        let _ = write!(out, ".{SCOPE} .{class}{{{decl}}}");
    }
}

/// The drawing's colours are presentation attributes in the base palette (light, or dark for
/// [`Theme::Dark`]), so a reader that drops `<style>` (many feed readers and mail clients)
/// still shows them; under [`Theme::Auto`] the dark rules override them, as author CSS does
/// presentation attributes, where the reader prefers dark.
fn style_element(theme: Theme) -> String {
    if theme != Theme::Auto {
        return String::new();
    }
    let mut css = String::from("@media (prefers-color-scheme:dark){");
    rules(&mut css, DARK);
    css.push('}');
    format!("<style>{css}</style>")
}

/// The font, on the root element: no rule needed.
const FONT: &str = "system-ui,-apple-system,'Segoe UI',Roboto,'Apple SD Gothic Neo',\
                    'Noto Sans KR',sans-serif";

/// A class's paint as presentation attributes (` fill="…" stroke="…"`), in `palette`.
fn paint(palette: &[(&str, &str)], class: &str) -> String {
    let mut out = String::new();
    for token in class.split(' ') {
        if token == "b" {
            out.push_str(" font-weight=\"600\"");
        } else if let Some(i) = token
            .strip_prefix('w')
            .and_then(|n| n.parse::<usize>().ok())
        {
            let _ = write!(out, " fill=\"{}\"", WORKLOAD[i % WORKLOAD.len()]);
        } else if let Some((_, decl)) = palette.iter().find(|(c, _)| *c == token) {
            for part in decl.split(';') {
                if let Some((k, v)) = part.split_once(':') {
                    let _ = write!(out, " {k}=\"{v}\"");
                }
            }
        }
    }
    out
}

/// `text` escaped for SVG text and attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `text` cut to what fits `width` units at `size`: an average sans-serif character is
/// about 0.56 em wide, a Hangul syllable a whole em.
fn fit(text: &str, width: i32, size: i32) -> String {
    let budget = (width * 100) / (size * 56);
    let mut used = 0;
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        let w = if (*c as u32) >= 0x1100 { 2 } else { 1 };
        if used + w > budget {
            if i < chars.len() {
                out.pop();
                out.push('…');
            }
            return out;
        }
        used += w;
        out.push(*c);
    }
    out
}

/// The SVG drawing, in an order a document is read in: what it is, when, its figures, the
/// lanes, the pending tray.
struct Canvas {
    body: String,
    y: i32,
    /// The drawing's width: [`WIDTH`], or [`NARROW_WIDTH`].
    width: i32,
    /// The base palette the presentation attributes come from.
    palette: &'static [(&'static str, &'static str)],
}

impl Canvas {
    fn text(&mut self, x: i32, y: i32, size: i32, class: &str, anchor: Option<&str>, text: &str) {
        let anchor = anchor
            .map(|a| format!(" text-anchor=\"{a}\""))
            .unwrap_or_default();
        let _ = write!(
            self.body,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" class=\"{class}\"{}{anchor}>{}</text>",
            paint(self.palette, class),
            esc(text)
        );
    }

    fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, rx: i32, class: &str) {
        let _ = write!(
            self.body,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"{rx}\" \
             class=\"{class}\"{}/>",
            paint(self.palette, class)
        );
    }

    fn bar(&mut self, x: i32, y: i32, w: i32, used: i64, total: i64) {
        self.rect(x, y, w, 5, 2, "track");
        let filled = (snapshot::percent(used, total) * w as f64 / 100.0).round() as i32;
        if filled > 0 {
            let class = if used > total { "a" } else { "bar" };
            self.rect(x, y, filled, 5, 2, class);
        }
    }

    fn chips(&mut self, x: i32, y: i32, per_row: usize, daemons: usize, pods: &[u8]) -> usize {
        let shown = per_row * CHIP_ROWS_SHOWN;
        let total = daemons + pods.len();
        let mut drawn = 0;
        for i in 0..total.min(shown) {
            let cx = x + (i % per_row) as i32 * (CHIP + CHIP_GAP);
            let cy = y + (i / per_row) as i32 * (CHIP + CHIP_GAP);
            if i < daemons {
                self.rect(cx, cy, CHIP - 1, CHIP - 1, 2, "hole");
            } else {
                let class = format!("w{}", pods[i - daemons] as usize % WORKLOAD.len());
                self.rect(cx, cy, CHIP, CHIP, 2, &class);
            }
            drawn += 1;
        }
        if total > shown {
            let row = CHIP_ROWS_SHOWN as i32 - 1;
            let cx = x + per_row as i32 * (CHIP + CHIP_GAP) + 2;
            self.text(
                cx,
                y + row * (CHIP + CHIP_GAP) + CHIP - 1,
                9,
                "m",
                None,
                &format!("+{}", total - shown),
            );
        }
        drawn
    }
}

fn chip_rows(n: usize, per_row: usize) -> i32 {
    n.div_ceil(per_row).min(CHIP_ROWS_SHOWN) as i32
}

fn card_height(node: &FigureNode) -> i32 {
    // The bars end 103 below the top (117 with a fate line); chips follow 4 below them.
    let rows = chip_rows(node.daemons + node.pods.len(), CHIPS_PER_ROW);
    let chips = if rows > 0 {
        4 + rows * (CHIP + CHIP_GAP) - CHIP_GAP
    } else {
        0
    };
    let fate = if node.fate.is_some() { 14 } else { 0 };
    103 + fate + chips + 8
}

fn card(c: &mut Canvas, w: &Words, x: i32, y: i32, h: i32, node: &FigureNode) {
    let going =
        matches!(node.state, CardState::Deleting | CardState::Cordoned) || node.fate.is_some();
    let class = if going {
        "going"
    } else if node.capacity_type == CapacityType::Spot {
        "spot"
    } else {
        "card"
    };
    c.rect(x, y, CARD_W, h, 6, class);
    let inner = CARD_W - 16;
    c.text(
        x + 8,
        y + 18,
        13,
        "t b",
        None,
        &fit(&node.instance_type, inner, 13),
    );
    let spot = node.capacity_type == CapacityType::Spot;
    // The capacity type on the right, the zone in the room it leaves.
    let capacity = w.capacity(node.capacity_type);
    let cap_class = if spot { "a" } else { "m" };
    c.text(x + CARD_W - 8, y + 33, 10, cap_class, Some("end"), capacity);
    let zone_room = inner - 6 - capacity.chars().count() as i32 * 10 * 56 / 100;
    c.text(
        x + 8,
        y + 33,
        10,
        "m",
        None,
        &fit(&node.zone, zone_room, 10),
    );
    let price = format!("{}{}", snapshot::dollars(node.price_per_hour), w.per_hour);
    c.text(x + 8, y + 48, 11, "m", None, &price);
    let pods = w.pods(node.daemons + node.pods.len());
    c.text(x + CARD_W - 8, y + 48, 11, "m", Some("end"), &pods);
    let state_class = if going { "a" } else { "t" };
    c.text(x + 8, y + 63, 11, state_class, None, w.state(node.state));
    let mut row = y + 69;
    if let Some(fate) = &node.fate {
        c.text(x + 8, row + 10, 10, "a", None, &fit(fate, inner, 10));
        row += 14;
    }
    let (cpu_used, cpu_total) = snapshot::cores_pair(node.cpu.0, node.cpu.1);
    c.text(x + 8, row + 8, 9, "m", None, w.cpu);
    c.text(
        x + CARD_W - 8,
        row + 8,
        9,
        "m",
        Some("end"),
        &format!("{cpu_used} / {cpu_total}"),
    );
    c.bar(x + 8, row + 11, inner, node.cpu.0, node.cpu.1);
    let (mem_used, mem_total) = snapshot::bytes_pair(node.memory.0, node.memory.1);
    c.text(x + 8, row + 26, 9, "m", None, w.memory);
    c.text(
        x + CARD_W - 8,
        row + 26,
        9,
        "m",
        Some("end"),
        &format!("{mem_used} / {mem_total}"),
    );
    c.bar(x + 8, row + 29, inner, node.memory.0, node.memory.1);
    c.chips(x + 8, row + 38, CHIPS_PER_ROW, node.daemons, &node.pods);
}

fn lane(c: &mut Canvas, w: &Words, lane: &FigureLane) {
    let x = PAD;
    let width = c.width - 2 * PAD;
    let cards_per_row = ((width - 2 * LANE_PAD + CARD_GAP) / (CARD_W + CARD_GAP)).max(1);
    let top = c.y;
    // The lane's frame goes under its content: drawn last, inserted first.
    let frame_at = c.body.len();
    let name = lane.pool.as_deref().unwrap_or(w.fixed);
    let (nodes, price): (usize, i64) = if lane.groups.is_empty() {
        (
            lane.nodes.len(),
            lane.nodes.iter().map(|n| n.price_per_hour).sum(),
        )
    } else {
        (
            lane.groups.iter().map(|g| g.nodes).sum(),
            lane.groups.iter().map(|g| g.price_per_hour).sum(),
        )
    };
    // The name keeps the lane's left half; its figures take the right.
    let name_room = (width - 2 * LANE_PAD) / 2 - 32;
    c.text(
        x + LANE_PAD,
        top + 20,
        13,
        "t b",
        None,
        &fit(name, name_room, 13),
    );
    c.text(
        x + width - LANE_PAD,
        top + 20,
        11,
        "m",
        Some("end"),
        &format!(
            "{} · {}{}",
            w.nodes(nodes),
            snapshot::dollars(price),
            w.per_hour
        ),
    );
    let mut y = top + 30;
    if lane.groups.is_empty() && lane.nodes.is_empty() {
        c.text(x + LANE_PAD, y + 12, 11, "m", None, w.no_nodes);
        y += 22;
    }
    for row in lane.nodes.chunks(cards_per_row as usize) {
        let h = row.iter().map(card_height).max().unwrap_or(0);
        for (i, node) in row.iter().enumerate() {
            let cx = x + LANE_PAD + i as i32 * (CARD_W + CARD_GAP);
            card(c, w, cx, y, h, node);
        }
        y += h + CARD_GAP;
    }
    for g in &lane.groups {
        let line = format!(
            "{} × {} · {} · {} · {} · {}{}",
            snapshot::count(g.nodes),
            g.instance_type,
            w.capacity(g.capacity_type),
            w.state(g.state),
            w.pods(g.pods),
            snapshot::dollars(g.price_per_hour),
            w.per_hour
        );
        c.text(
            x + LANE_PAD,
            y + 13,
            12,
            "t",
            None,
            &fit(&line, width - 2 * LANE_PAD, 12),
        );
        y += 20;
    }
    let bottom = y + LANE_PAD - CARD_GAP.min(y - top - 30);
    let frame = format!(
        "<rect x=\"{x}\" y=\"{top}\" width=\"{width}\" height=\"{}\" rx=\"8\" class=\"lane\"{}/>",
        bottom - top,
        paint(c.palette, "lane")
    );
    c.body.insert_str(frame_at, &frame);
    c.y = bottom + 10;
}

fn pending(c: &mut Canvas, w: &Words, figure: &Figure) {
    if figure.pods_pending == 0 {
        return;
    }
    let x = PAD;
    let width = c.width - 2 * PAD;
    let top = c.y;
    let frame_at = c.body.len();
    c.text(
        x + LANE_PAD,
        top + 20,
        13,
        "a b",
        None,
        &format!(
            "{} · {}",
            w.pending_title,
            snapshot::count(figure.pods_pending)
        ),
    );
    let mut y = top + 30;
    if !figure.pending.is_empty() {
        let per_row = ((width - 2 * LANE_PAD + CHIP_GAP) / (CHIP + CHIP_GAP)) as usize;
        c.chips(x + LANE_PAD, y, per_row, 0, &figure.pending);
        y += chip_rows(figure.pending.len(), per_row) * (CHIP + CHIP_GAP) + 4;
    }
    for (owner, colour, pods) in &figure.pending_groups {
        c.rect(
            x + LANE_PAD,
            y + 3,
            CHIP,
            CHIP,
            2,
            &format!("w{}", *colour as usize % WORKLOAD.len()),
        );
        let line = format!("{owner} × {}", snapshot::count(*pods));
        c.text(
            x + LANE_PAD + CHIP + 6,
            y + 12,
            12,
            "t",
            None,
            &fit(&line, width - 40, 12),
        );
        y += 18;
    }
    let bottom = y + 6;
    let frame = format!(
        "<rect x=\"{x}\" y=\"{top}\" width=\"{width}\" height=\"{}\" rx=\"8\" class=\"lane\"{}/>",
        bottom - top,
        paint(c.palette, "lane")
    );
    c.body.insert_str(frame_at, &frame);
    c.y = bottom + 10;
}

/// The poster of `figure`, as an `<svg>` element an HTML page, an SVG file or a rasteriser
/// takes as it is.
pub fn svg(figure: &Figure, style: Style) -> String {
    let w = Words::of(style.lang);
    let width = if style.narrow { NARROW_WIDTH } else { WIDTH };
    let mut c = Canvas {
        body: String::new(),
        y: 0,
        width,
        palette: if style.theme == Theme::Dark {
            DARK
        } else {
            LIGHT
        },
    };
    c.text(
        PAD,
        28,
        16,
        "t b",
        None,
        &fit(&figure.title, width - 2 * PAD - 90, 16),
    );
    c.text(
        width - PAD,
        28,
        13,
        "m",
        Some("end"),
        &format!("{} {}", w.at, snapshot::clock(figure.at_ms)),
    );
    let (cpu_used, cpu_total) = snapshot::cores_pair(figure.cpu.0, figure.cpu.1);
    let (mem_used, mem_total) = snapshot::bytes_pair(figure.memory.0, figure.memory.1);
    let cost = format!(
        "{} · {}{} · {}{}",
        w.nodes(figure.nodes),
        snapshot::dollars(figure.cost_per_hour),
        w.per_hour,
        snapshot::dollars_per_month(figure.cost_per_hour),
        w.per_month,
    );
    let pods = format!(
        "{} · {}",
        w.running(figure.pods_running),
        w.pending(figure.pods_pending)
    );
    let resources = format!(
        "{} {cpu_used} / {cpu_total} · {} {mem_used} / {mem_total}",
        w.cpu, w.memory,
    );
    let room = width - 2 * PAD;
    if style.narrow {
        // A phone's width holds a third of the line: one line each.
        for (i, line) in [cost, pods, resources].iter().enumerate() {
            c.text(PAD, 50 + 16 * i as i32, 12, "t", None, &fit(line, room, 12));
        }
        c.y = 94;
    } else {
        let figures = format!("{cost} · {pods} · {resources}");
        c.text(PAD, 50, 12, "t", None, &fit(&figures, room, 12));
        c.y = 62;
    }
    if let Some(decision) = &figure.decision {
        c.text(
            PAD,
            c.y + 12,
            10,
            "m",
            None,
            &fit(&format!("karpenter {decision}"), room, 10),
        );
        c.y += 22;
    }
    for l in &figure.lanes {
        lane(&mut c, &w, l);
    }
    pending(&mut c, &w, figure);
    c.text(
        width - PAD,
        c.y + 8,
        10,
        "m",
        Some("end"),
        "Karpenter Playground",
    );
    let height = c.y + 18;
    let label = format!("{}: {}", figure.title, figure.description(style.lang));
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{SCOPE}\" viewBox=\"0 0 {width} \
         {height}\" width=\"{width}\" height=\"{height}\" style=\"max-width:100%;height:auto\" \
         font-family=\"{FONT}\" role=\"img\" aria-label=\"{}\"><title>{}</title>{}\
         <rect width=\"{width}\" height=\"{height}\" rx=\"10\" class=\"bg\"{}/>{}</svg>",
        esc(&label),
        esc(&label),
        style_element(style.theme),
        paint(c.palette, "bg"),
        c.body
    )
}

/// The link preview's image: [`CARD_WIDTH`] × [`CARD_HEIGHT`] (what OpenGraph and Twitter
/// cards show), the title and the figures in large type on the left, the poster on the right
/// scaled to the card's height (no smaller than half size: a taller poster is cut at the
/// bottom, its top being the figures and the first lanes).
pub fn preview_card(figure: &Figure, style: Style) -> String {
    let w = Words::of(style.lang);
    let poster = svg(figure, style);
    let poster_height = poster_height(&poster).unwrap_or(WIDTH);
    let (px, py, pw, ph) = (440, 24, CARD_WIDTH - 440 - 24, CARD_HEIGHT - 48);
    // At most the box's width, at least half size; what is left below is cut.
    let scale = (f64::from(pw) / f64::from(WIDTH)).min(f64::from(ph) / f64::from(poster_height));
    let scale = scale.max(0.5);
    let shown = (f64::from(ph) / scale)
        .min(f64::from(poster_height))
        .round() as i32;
    let drawn_h = (f64::from(shown) * scale).round() as i32;
    let drawn_w = (f64::from(WIDTH) * scale).round() as i32;
    let x = px + (pw - drawn_w) / 2;
    // A short poster sits in the middle of the card's height.
    let py = py + (ph - drawn_h) / 2;
    // The poster's own svg element, placed and cut by a viewBox of its top `shown` units.
    let inner = poster.replacen(
        &format!(
            "viewBox=\"0 0 {WIDTH} {poster_height}\" width=\"{WIDTH}\" \
             height=\"{poster_height}\" style=\"max-width:100%;height:auto\""
        ),
        &format!(
            "x=\"{x}\" y=\"{py}\" width=\"{drawn_w}\" height=\"{drawn_h}\" \
             viewBox=\"0 0 {WIDTH} {shown}\" preserveAspectRatio=\"xMidYMin slice\""
        ),
        1,
    );
    let dark = style.theme == Theme::Dark;
    let (bg, fg, muted, accent) = if dark {
        ("#161a20", "#e5e8ed", "#9aa4b1", "#ff8a50")
    } else {
        ("#ffffff", "#1a1e24", "#5a6472", "#d55e00")
    };
    let mut c = Canvas {
        body: String::new(),
        y: 0,
        width: CARD_WIDTH,
        palette: if style.theme == Theme::Dark {
            DARK
        } else {
            LIGHT
        },
    };
    let line = |c: &mut Canvas, y: i32, size: i32, fill: &str, weight: bool, text: &str| {
        let _ = write!(
            c.body,
            "<text x=\"40\" y=\"{y}\" font-size=\"{size}\" fill=\"{fill}\"{}>{}</text>",
            if weight { " font-weight=\"600\"" } else { "" },
            esc(&fit(text, 380, size))
        );
    };
    line(&mut c, 64, 22, muted, false, "Karpenter Playground");
    // The title on up to two lines, cut at a character budget.
    let title: Vec<char> = figure.title.chars().collect();
    let per_line = (380 * 100 / (40 * 56)) as usize;
    let first: String = title.iter().take(per_line).collect();
    line(&mut c, 124, 40, fg, true, &first);
    let mut y = 124;
    if title.len() > per_line {
        let rest: String = title[per_line..].iter().collect();
        y += 48;
        line(&mut c, y, 40, fg, true, &rest);
    }
    y += 70;
    line(&mut c, y, 30, fg, false, &w.nodes(figure.nodes));
    y += 46;
    let cost = format!("{}{}", snapshot::dollars(figure.cost_per_hour), w.per_hour);
    line(&mut c, y, 30, fg, false, &cost);
    y += 46;
    line(&mut c, y, 30, fg, false, &w.running(figure.pods_running));
    y += 46;
    let pending_fill = if figure.pods_pending > 0 { accent } else { fg };
    line(
        &mut c,
        y,
        30,
        pending_fill,
        figure.pods_pending > 0,
        &w.pending(figure.pods_pending),
    );
    line(
        &mut c,
        CARD_HEIGHT - 40,
        22,
        muted,
        false,
        &format!("{} {}", w.at, snapshot::clock(figure.at_ms)),
    );
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {CARD_WIDTH} {CARD_HEIGHT}\" \
         width=\"{CARD_WIDTH}\" height=\"{CARD_HEIGHT}\" font-family=\"system-ui,-apple-system,\
         'Segoe UI',Roboto,'Apple SD Gothic Neo','Noto Sans KR',sans-serif\">\
         <rect width=\"{CARD_WIDTH}\" height=\"{CARD_HEIGHT}\" fill=\"{bg}\"/>{}{inner}</svg>",
        c.body
    )
}

/// A link preview image's size: what OpenGraph and Twitter's large cards show.
pub const CARD_WIDTH: i32 = 1200;
pub const CARD_HEIGHT: i32 = 630;

/// The height in a poster's `viewBox`.
fn poster_height(poster: &str) -> Option<i32> {
    let from =
        poster.find(&format!("viewBox=\"0 0 {WIDTH} "))? + format!("viewBox=\"0 0 {WIDTH} ").len();
    let rest = &poster[from..];
    rest[..rest.find('"')?].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpg_core::sim::Simulation;

    fn lab(name: &str, at_ms: u64) -> Snapshot {
        let text = std::fs::read_to_string(format!(
            "{}/../tests/labs/{name}.yaml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let loaded = kpg_manifests::load(&text);
        assert!(!loaded.has_errors());
        let mut sim = Simulation::new(loaded.scenario).unwrap();
        sim.run_until(at_ms);
        crate::snapshot::take(&sim)
    }

    #[test]
    fn the_poster_shows_each_node_its_type_zone_and_the_figures() {
        let snap = lab("seed002-limits", 600_000);
        let figure = Figure::of(&snap, "limits");
        let drawing = svg(&figure, Style::default());
        let nodes: Vec<_> = snap.lanes.iter().flat_map(|l| &l.nodes).collect();
        assert!(!nodes.is_empty());
        for n in &nodes {
            assert!(drawing.contains(&n.instance_type), "{}", n.instance_type);
            assert!(drawing.contains(&n.zone), "{}", n.zone);
        }
        assert!(drawing.contains(&snapshot::dollars(snap.summary.cost_per_hour)));
        assert!(drawing.contains(&format!("{} pending", snap.summary.pods_pending)));
        // Every pod on a node is a chip of its workload's colour.
        let chips = drawing.matches("class=\"w").count();
        let on_nodes: usize = nodes.iter().map(|n| n.pods.len()).sum();
        let daemons: usize = nodes
            .iter()
            .map(|n| n.pods.iter().filter(|p| p.daemon).count())
            .sum();
        assert_eq!(chips, on_nodes - daemons + snap.pending.len());
    }

    #[test]
    fn a_narrow_poster_keeps_every_node_in_two_columns_and_every_figure() {
        let snap = lab("seed002-limits", 600_000);
        let figure = Figure::of(&snap, "limits");
        let narrow = Style {
            narrow: true,
            ..Style::default()
        };
        let drawing = svg(&figure, narrow);
        assert!(drawing.contains("viewBox=\"0 0 384 "), "{drawing}");
        let nodes: Vec<_> = snap.lanes.iter().flat_map(|l| &l.nodes).collect();
        assert!(nodes.len() > 2, "a lab with more nodes than one row holds");
        for n in &nodes {
            assert!(drawing.contains(&n.instance_type), "{}", n.instance_type);
        }
        // The cards sit in two columns, inside the drawing.
        let columns: std::collections::BTreeSet<i32> = drawing
            .split("<rect x=\"")
            .skip(1)
            .filter(|r| r.contains("class=\"card\"") || r.contains("class=\"spot\""))
            .map(|r| r[..r.find('"').unwrap()].parse().unwrap())
            .collect();
        assert_eq!(columns.len(), 2, "{columns:?}");
        assert!(columns.iter().all(|x| x + CARD_W <= NARROW_WIDTH));
        // Both halves of the figures' line, neither cut.
        let (_, mem_total) = snapshot::bytes_pair(figure.memory.0, figure.memory.1);
        assert!(drawing.contains(&format!("{} pending", snap.summary.pods_pending)));
        assert!(drawing.contains(&format!("/ {mem_total}<")), "{drawing}");
        assert!(!drawing.contains('…'), "nothing cut: {drawing}");
    }

    #[test]
    fn nothing_written_in_a_scenario_escapes_into_markup() {
        let snap = lab("seed000-hello-world", 120_000);
        let figure = Figure::of(&snap, "<script>alert(1)</script> & \"q\"");
        let drawing = svg(&figure, Style::default());
        assert!(!drawing.contains("<script>"));
        assert!(drawing.contains("&lt;script&gt;"));
        assert_eq!(drawing.matches("<svg").count(), 1);
    }

    #[test]
    fn light_and_dark_follow_the_theme() {
        let snap = lab("seed000-hello-world", 120_000);
        let figure = Figure::of(&snap, "hello");
        let light = svg(
            &figure,
            Style {
                theme: Theme::Light,
                lang: Lang::En,
                narrow: false,
            },
        );
        let dark = svg(
            &figure,
            Style {
                theme: Theme::Dark,
                lang: Lang::En,
                narrow: false,
            },
        );
        let auto = svg(&figure, Style::default());
        assert!(light.contains("fill=\"#f5f6f8\"") && !light.contains("#0e1115"));
        assert!(dark.contains("fill=\"#0e1115\"") && !dark.contains("#f5f6f8"));
        // Without its <style> (a feed reader's sanitiser), the drawing keeps its colours.
        assert!(!light.contains("<style>") && !dark.contains("<style>"));
        assert!(auto.contains("fill=\"#f5f6f8\""));
        assert!(auto.contains("@media (prefers-color-scheme:dark){.kpg-poster .bg{fill:#0e1115}"));
        // Every rule is scoped to the poster: none can restyle the article around it.
        let css = &auto[auto.find("<style>").unwrap()..auto.find("</style>").unwrap()];
        for rule in css.trim_start_matches("<style>").split('}') {
            let selector = rule.rsplit('{').nth(1).unwrap_or("");
            assert!(selector.is_empty() || selector.contains(SCOPE), "{rule}");
        }
    }

    #[test]
    fn a_crowded_lane_is_drawn_as_groups_and_the_figure_stays_small() {
        // The page benchmark's 200 nodes: its Deployment beside the hello lab's pool.
        let read = |path: &str| {
            std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
        };
        let text = format!(
            "{}\n---\n{}",
            read("tests/labs/seed000-hello-world.yaml"),
            read("tests/browser/bench-200-nodes.yaml")
        );
        let loaded = kpg_manifests::load(&text);
        let mut sim = Simulation::new(loaded.scenario).unwrap();
        sim.run_to_rest(3_600_000);
        let snap = crate::snapshot::take(&sim);
        assert!(snap.summary.nodes > LANE_CARD_LIMIT);
        let figure = Figure::of(&snap, "200 nodes");
        let drawing = svg(&figure, Style::default());
        assert!(drawing.contains(" × "), "grouped rows");
        assert!(drawing.len() < 40_000, "{} bytes", drawing.len());
    }

    #[test]
    fn the_preview_card_is_the_cards_size_and_holds_the_poster_and_the_figures() {
        let snap = lab("seed002-limits", 600_000);
        let figure = Figure::of(&snap, "limits");
        let style = Style {
            theme: Theme::Light,
            lang: Lang::En,
            narrow: false,
        };
        let card = preview_card(&figure, style);
        assert!(card.starts_with(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {CARD_WIDTH} {CARD_HEIGHT}\""
        )));
        // The poster inside, placed on the right and cut to the card's height.
        assert_eq!(card.matches("<svg ").count(), 2);
        assert!(card.contains("preserveAspectRatio=\"xMidYMin slice\""));
        assert!(card.contains(&format!(
            ">{}</text>",
            Words::of(Lang::En).nodes(figure.nodes)
        )));
        assert!(card.contains(&format!(
            ">{}/h</text>",
            snapshot::dollars(figure.cost_per_hour)
        )));
        assert!(card.contains(">limits</text>"));
    }

    #[test]
    fn text_is_cut_to_its_box() {
        assert_eq!(fit("m5.large", 200, 13), "m5.large");
        let cut = fit("a-very-long-nodepool-name-that-goes-on-and-on", 100, 13);
        assert!(cut.ends_with('…') && cut.chars().count() < 20, "{cut}");
    }
}

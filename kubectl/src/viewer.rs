//! `eks-node-viewer` as plain text: awslabs/eks-node-viewer's `UIModel.View`, with its
//! ColorTabWriter (minwidth 0, padding 1, every cell padded, widths counted in bytes) and
//! bubbles' progress bar (40 cells; 35 and a percentage on node lines), without colour.
//! One page: every node.

use std::cmp::Ordering;

use kpg_core::pod::Phase;
use kpg_core::resources::ResourceName;
use kpg_core::sim::Node;

use crate::format::{self, human_duration};
use crate::selector;
use crate::state::{self, State};
use crate::{Reply, World};

const USAGE: &str = "Usage of eks-node-viewer:\n  -extra-labels string\
                     \n    \tA comma separated set of extra node labels to display\
                     \n  -node-selector string\n    \tNode label selector used to filter nodes, if \
                     empty all nodes are selected \n  -node-sort string\
                     \n    \tSort order for the nodes, either 'creation' or a label name. The sort \
                     order defaults to ascending and can be controlled by appending =asc or =dsc \
                     to the value. (default \"creation=dsc\")\n  -resources string\
                     \n    \tList of comma separated resources to monitor (default \"cpu\")\
                     \n  -disable-pricing\n    \tDisable pricing lookups\n";

/// The flags eks-node-viewer takes (Go's flag package: `-x`, `--x`, `-x=v`, `-x v`).
pub const FLAGS: &[&str] = &[
    "--disable-pricing",
    "--extra-labels",
    "--node-selector",
    "--node-sort",
    "--resources",
];

struct Opts {
    resources: Vec<String>,
    selector: selector::Selector,
    extra: Vec<String>,
    disable_pricing: bool,
    sort: String,
}

fn parse(words: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        resources: vec![String::from("cpu")],
        selector: Default::default(),
        extra: Vec::new(),
        disable_pricing: false,
        sort: String::from("creation=dsc"),
    };
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let flag = w.trim_start_matches('-');
        if flag.len() == w.len() {
            return Err(format!(
                "eks-node-viewer takes no arguments, only flags (got {w:?})\n{USAGE}"
            ));
        }
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        if name == "disable-pricing" {
            o.disable_pricing = inline.as_deref() != Some("false");
            continue;
        }
        if name == "h" || name == "help" {
            return Err(USAGE.to_string());
        }
        if ![
            "resources",
            "node-selector",
            "extra-labels",
            "node-sort",
            "context",
            "kubeconfig",
            "style",
        ]
        .contains(&name)
        {
            return Err(format!("flag provided but not defined: -{name}\n{USAGE}"));
        }
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .cloned()
                .ok_or_else(|| format!("flag needs an argument: -{name}\n{USAGE}"))?,
        };
        match name {
            "resources" => {
                o.resources = value
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            }
            "node-selector" => {
                o.selector =
                    selector::parse(&value).map_err(|e| format!("parsing node selector: {e}\n"))?
            }
            "extra-labels" => {
                o.extra = value
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect()
            }
            "node-sort" => o.sort = value,
            _ => {}
        }
    }
    Ok(o)
}

/// bubbles' progress bar: `width` cells, filled in proportion, and with `percent` its
/// ` %3.0f%%` after a bar five cells shorter.
fn bar(used: i64, total: i64, width: usize, percent: bool) -> String {
    let (used, total) = (used.max(0), total.max(0));
    let frac_num = if total == 0 { 0 } else { used.min(total) };
    let tw = if percent { width - 5 } else { width };
    let filled = if total == 0 {
        0
    } else {
        ((2 * tw as i64 * frac_num + total) / (2 * total)) as usize
    };
    let filled = filled.min(tw);
    let mut s: String = "█".repeat(filled);
    s.push_str(&"░".repeat(tw - filled));
    if percent {
        let pct = if total == 0 {
            0
        } else {
            (200 * frac_num + total) / (2 * total)
        };
        s.push_str(&format!(" {pct:>3}%"));
    }
    s
}

/// The ColorTabWriter: every cell (the last too) padded to its column's widest cell plus
/// one, widths in bytes, empty columns dropped.
fn color_tabwriter(text: &str) -> String {
    let lines: Vec<Vec<&str>> = text
        .split('\n')
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    let mut widths: Vec<usize> = Vec::new();
    for line in &lines {
        for (i, c) in line.iter().enumerate() {
            if widths.len() <= i {
                widths.push(0);
            }
            widths[i] = widths[i].max(c.len());
        }
    }
    let mut out = String::new();
    for line in &lines {
        for (i, c) in line.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            if w == 0 {
                continue;
            }
            out.push_str(c);
            out.extend(std::iter::repeat_n(' ', w + 1 - c.len()));
        }
        out.push('\n');
    }
    out
}

/// A node as eks-node-viewer sees it: a Node, or a launched NodeClaim not yet registered.
struct Seen<'a> {
    node: &'a Node,
    name: String,
}

fn natural_less(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (x.peek().copied(), y.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let mut n1 = String::new();
                while let Some(c) = x.peek().copied().filter(char::is_ascii_digit) {
                    n1.push(c);
                    x.next();
                }
                let mut n2 = String::new();
                while let Some(d) = y.peek().copied().filter(char::is_ascii_digit) {
                    n2.push(d);
                    y.next();
                }
                let o = n1
                    .trim_start_matches('0')
                    .len()
                    .cmp(&n2.trim_start_matches('0').len())
                    .then_with(|| n1.trim_start_matches('0').cmp(n2.trim_start_matches('0')));
                if o != Ordering::Equal {
                    return o;
                }
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                x.next();
                y.next();
            }
        }
    }
}

pub fn run(world: &dyn World, words: &[String]) -> Reply {
    let opts = match parse(words) {
        Ok(o) => o,
        Err(e) => {
            return Reply {
                output: e,
                ok: false,
                ..Reply::default()
            };
        }
    };
    let state = State::new(world);
    Reply {
        output: render(&state, &opts),
        ok: true,
        ..Reply::default()
    }
}

fn resource(name: &str) -> ResourceName {
    ResourceName::parse(name)
}

fn render(state: &State, o: &Opts) -> String {
    let mut seen: Vec<Seen> = Vec::new();
    for n in state.sim.nodes() {
        if n.deleted || !o.selector.matches(&n.labels) {
            continue;
        }
        if state::is_node_object(n) {
            seen.push(Seen {
                node: n,
                name: n.name.clone(),
            });
        } else if state::launched(n) {
            seen.push(Seen {
                node: n,
                name: format::instance_id(n.nodeclaim.as_deref().unwrap_or(&n.name)),
            });
        }
    }
    let descending = o.sort.ends_with("=dsc");
    let key = o
        .sort
        .trim_end_matches("=dsc")
        .trim_end_matches("=asc")
        .to_string();
    seen.sort_by(|a, b| {
        let o = if key == "creation" {
            // Ascending puts the newest first; `=dsc` (the default) the oldest.
            b.node
                .created_at
                .cmp(&a.node.created_at)
                .then_with(|| natural_less(&a.name, &b.name))
        } else {
            let la = a.node.labels.get(&key).cloned().unwrap_or_default();
            let lb = b.node.labels.get(&key).cloned().unwrap_or_default();
            natural_less(&la, &lb).then_with(|| natural_less(&a.name, &b.name))
        };
        if descending { o.reverse() } else { o }
    });
    let pods_on = |n: &Node| state.pods_on(n);
    let used =
        |n: &Node, r: ResourceName| -> i64 { pods_on(n).iter().map(|p| p.requests.get(r)).sum() };
    let mut out = String::new();
    let mut summary = String::new();
    let total_price: i64 = seen.iter().map(|s| s.node.price).sum();
    for (i, res) in o.resources.iter().enumerate() {
        let r = resource(res);
        let alloc: i64 = seen.iter().map(|s| s.node.allocatable.get(r)).sum();
        let u: i64 = seen.iter().map(|s| used(s.node, r)).sum();
        let tenths = if alloc == 0 {
            0
        } else {
            (2000 * u + alloc) / (2 * alloc)
        };
        let pct = format!("{}.{}%", tenths / 10, tenths % 10);
        let q = |v: i64| format::quantity(r, v);
        if i == 0 {
            let price = if o.disable_pricing {
                String::new()
            } else {
                format!(
                    "${}/hour | ${}/month",
                    format::dollars(total_price, 3, true),
                    format::dollars(total_price * 730, 3, true)
                )
            };
            summary.push_str(&format!(
                "{} nodes\t({:>10}/{})\t{pct}\t{res}\t{}\t{price}\n",
                format::thousands(seen.len() as u64),
                q(u),
                q(alloc),
                bar(u, alloc, 40, false)
            ));
        } else {
            summary.push_str(&format!(
                " \t{}/{}\t{pct}\t{res}\t{}\t\n",
                q(u),
                q(alloc),
                bar(u, alloc, 40, false)
            ));
        }
    }
    out.push_str(&color_tabwriter(&summary));
    let pods = state.pods();
    let pending = pods.iter().filter(|p| p.phase == Phase::Pending).count();
    let running = pods.iter().filter(|p| p.phase == Phase::Running).count();
    let bound = pods.iter().filter(|p| p.node.is_some()).count();
    out.push_str(&format!(
        "{} pods ({} pending {} running {} bound)\n",
        format::thousands(pods.len() as u64),
        format::thousands(pending as u64),
        format::thousands(running as u64),
        format::thousands(bound as u64)
    ));
    if seen.is_empty() {
        out.push_str("\nWaiting for update or no nodes found...\n•\n←/→ page • q: quit\n");
        return out;
    }
    out.push('\n');
    let mut body = String::new();
    for s in &seen {
        let n = s.node;
        for (i, res) in o.resources.iter().enumerate() {
            let r = resource(res);
            let b = bar(used(n, r), n.allocatable.get(r), 40, true);
            if i == 0 {
                let price = if o.disable_pricing {
                    String::new()
                } else {
                    format!("/${}", format::dollars(n.price, 4, false))
                };
                let capacity = match n.capacity_type.as_str() {
                    "on-demand" => "On-Demand",
                    "spot" => "Spot",
                    _ => "-",
                };
                let deleting = n.state == kpg_core::sim::NodeState::Deleting;
                let cordoned = state::cordoned(n);
                let status = match (cordoned, deleting) {
                    (true, true) => "Cordoned/Deleting",
                    (false, true) => "Deleting",
                    (true, false) => "Cordoned",
                    _ => "-",
                };
                let ready = if state::node_ready(n) && state::is_node_object(n) {
                    String::from("Ready")
                } else {
                    format!("NotReady/{}", human_duration(n.age(state.now)))
                };
                body.push_str(&format!(
                    "{}\t{res}\t{b}\t({}/{} pods)\t{}{price}\t{capacity}\t{status}\t{ready}",
                    s.name,
                    pods_on(n).len(),
                    n.allocatable.get(ResourceName::Pods),
                    n.instance_type
                ));
                for l in &o.extra {
                    body.push('\t');
                    body.push_str(n.labels.get(l).map_or("", String::as_str));
                }
            } else {
                body.push_str(&format!(" \t{res}\t{b}\t\t\t\t\t"));
                for _ in &o.extra {
                    body.push('\t');
                }
            }
            body.push('\n');
        }
    }
    out.push_str(&color_tabwriter(&body));
    out.push_str("•\n←/→ page • q: quit\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars() {
        assert_eq!(bar(0, 100, 40, false), "░".repeat(40));
        assert_eq!(
            bar(50, 100, 40, true),
            format!("{}{}  50%", "█".repeat(18), "░".repeat(17))
        );
        assert_eq!(bar(100, 100, 40, true), format!("{} 100%", "█".repeat(35)));
        assert_eq!(bar(1, 0, 40, true), format!("{}   0%", "░".repeat(35)));
    }

    #[test]
    fn natural_order() {
        assert_eq!(natural_less("node-2", "node-10"), Ordering::Less);
        assert_eq!(natural_less("a", "b"), Ordering::Less);
    }
}

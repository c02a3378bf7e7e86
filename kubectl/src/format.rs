//! kubectl's formatting primitives: Go's `text/tabwriter` (which every kubectl table and
//! `describe` goes through), apimachinery's `HumanDuration`, the wall clock the simulated
//! time maps to, and the small made-up facts a real cluster would have (node version, pod
//! IPs, instance IDs) derived stably from names.

use kpg_core::model::Millis;
use kpg_core::resources::{ResourceName, Resources};

/// Node version shown in the VERSION column: the simulated cluster runs EKS 1.34.
pub const NODE_VERSION: &str = "v1.34.1-eks-kpg";

/// kubectl's `HumanDuration` (k8s.io/apimachinery/pkg/util/duration), on milliseconds.
pub fn human_duration(ms: Millis) -> String {
    let seconds = ms / 1000;
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        return if dy == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{dy}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

/// The age of something created at `created`, seen at `now`.
pub fn age(created: Millis, now: Millis) -> String {
    human_duration(now.saturating_sub(created))
}

/// Go's `text/tabwriter` with padchar ' ' and no flags, on text whose cells end in `\t` and
/// lines in `\n`. Unlike a plain "widest cell per column" table, a column's width holds only
/// for a block of consecutive lines that have a cell in it: `describe` relies on that (a
/// `Labels:` line and the `Conditions` table below it align independently).
pub fn tabwriter(text: &str, minwidth: usize, padding: usize) -> String {
    let lines: Vec<Vec<&str>> = text.split('\n').map(|l| l.split('\t').collect()).collect();
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    let mut widths = Vec::new();
    format_block(
        &lines,
        0,
        lines.len(),
        &mut widths,
        minwidth,
        padding,
        &mut out,
    );
    out
}

fn format_block(
    lines: &[Vec<&str>],
    mut line0: usize,
    line1: usize,
    widths: &mut Vec<usize>,
    minwidth: usize,
    padding: usize,
    out: &mut String,
) {
    let column = widths.len();
    let mut this = line0;
    while this < line1 {
        if column + 1 >= lines[this].len() {
            this += 1;
            continue;
        }
        // A cell in this column: the lines before it are done with the columns so far.
        write_lines(lines, line0, this, widths, out);
        line0 = this;
        let mut width = minwidth;
        while this < line1 && column + 1 < lines[this].len() {
            width = width.max(lines[this][column].chars().count() + padding);
            this += 1;
        }
        widths.push(width);
        format_block(lines, line0, this, widths, minwidth, padding, out);
        widths.pop();
        line0 = this;
    }
    write_lines(lines, line0, line1, widths, out);
}

fn write_lines(
    lines: &[Vec<&str>],
    line0: usize,
    line1: usize,
    widths: &[usize],
    out: &mut String,
) {
    for (i, line) in lines.iter().enumerate().take(line1).skip(line0) {
        for (j, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if let Some(&w) = widths.get(j)
                && j + 1 < line.len()
            {
                out.extend(std::iter::repeat_n(
                    ' ',
                    w.saturating_sub(cell.chars().count()),
                ));
            }
        }
        if i + 1 < lines.len() {
            out.push('\n');
        }
    }
}

/// kubectl's table writer (`printers.GetNewTabWriter`: minwidth 6, padding 3) over rows of
/// cells; every row ends in a newline.
pub fn tabulate(rows: &[Vec<String>]) -> String {
    let mut text = String::new();
    for row in rows {
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    tabwriter(&text, 6, 3)
}

/// kubectl's STATUS column for a pod in the playground's phases.
pub fn pod_status(phase: &str, bound: bool) -> String {
    match phase {
        "Pending" if bound => String::from("ContainerCreating"),
        "Succeeded" => String::from("Completed"),
        "Failed" => String::from("Error"),
        other => other.to_string(),
    }
}

/// FNV-1a: a stable hash for made-up identifiers (no randomness, the same on every platform).
pub fn fnv1a(text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// A made-up but stable pod IP in 10.0.0.0/16 (for a pod that has one).
pub fn pod_ip(namespace: &str, name: &str) -> String {
    let h = fnv1a(&format!("{namespace}/{name}"));
    format!("10.0.{}.{}", (h >> 8) % 256, 1 + h % 254)
}

/// A made-up but stable node IP in 192.168.0.0/16.
pub fn node_ip(name: &str) -> String {
    let h = fnv1a(name);
    format!("192.168.{}.{}", (h >> 8) % 256, 1 + h % 254)
}

/// A made-up EC2 instance ID (`i-` and 17 hex digits), stable per NodeClaim or node name.
pub fn instance_id(name: &str) -> String {
    let a = fnv1a(name);
    let b = fnv1a(&format!("{name}#instance"));
    let hex = format!("{a:08x}{b:08x}");
    format!("i-0{hex}")
}

/// `aws:///ZONE/i-...`, the providerID the AWS provider sets.
pub fn provider_id(zone: &str, name: &str) -> String {
    format!("aws:///{zone}/{}", instance_id(name))
}

/// A made-up UUID (for uids and reconcile IDs), stable per seed text.
pub fn uuid(seed: &str) -> String {
    let a = fnv1a(seed);
    let b = fnv1a(&format!("{seed}/b"));
    let c = fnv1a(&format!("{seed}/c"));
    let d = fnv1a(&format!("{seed}/d"));
    format!(
        "{a:08x}-{:04x}-4{:03x}-{:04x}-{:04x}{d:08x}",
        b >> 16,
        b & 0xfff,
        0x8000 | (c >> 16 & 0x3fff),
        c & 0xffff
    )
}

/// The wall clock of simulated time `ms`: the simulation's time 0 is the Unix epoch, UTC
/// (the engine's budget schedules run on that clock, `kpg_core::cron`).
struct Wall {
    year: i64,
    month: u32,
    day: u32,
    hour: u64,
    minute: u64,
    second: u64,
    millis: u64,
    weekday: usize,
}

fn wall(ms: Millis) -> Wall {
    let seconds = ms / 1000;
    let days = (seconds / 86_400) as i64;
    let (year, month, day) = kpg_core::calendar::civil_from_days(days);
    let rest = seconds % 86_400;
    Wall {
        year,
        month,
        day,
        hour: rest / 3600,
        minute: rest % 3600 / 60,
        second: rest % 60,
        millis: ms % 1000,
        // 1970-01-01 was a Thursday.
        weekday: ((days + 4) % 7) as usize,
    }
}

/// `metav1.Time` in YAML and JSON: RFC 3339 to the second, `1970-01-01T00:05:00Z`.
pub fn rfc3339(ms: Millis) -> String {
    let w = wall(ms);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        w.year, w.month, w.day, w.hour, w.minute, w.second
    )
}

/// zap's ISO 8601 with milliseconds, as Karpenter's JSON logs write `time`.
pub fn log_time(ms: Millis) -> String {
    let w = wall(ms);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        w.year, w.month, w.day, w.hour, w.minute, w.second, w.millis
    )
}

/// Go's `time.RFC1123Z`, as `describe` prints timestamps: `Thu, 01 Jan 1970 00:05:00 +0000`.
pub fn rfc1123z(ms: Millis) -> String {
    const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let w = wall(ms);
    let day = DAYS.get(w.weekday).copied().unwrap_or("Thu");
    let month = MONTHS
        .get(w.month.saturating_sub(1) as usize)
        .copied()
        .unwrap_or("Jan");
    format!(
        "{day}, {:02} {month} {:04} {:02}:{:02}:{:02} +0000",
        w.day, w.year, w.hour, w.minute, w.second
    )
}

/// A resource amount as a Kubernetes quantity string (`1930m`, `1418Mi`, `11`).
pub fn quantity(name: ResourceName, value: i64) -> String {
    Resources::format_amount(name, value)
}

/// Thousands separators, as Go's `message.NewPrinter(language.English)` prints integers.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Micro-dollars as dollars with `places` decimals, rounded half up, with thousands
/// separators when `grouped`.
pub fn dollars(micro: i64, places: u32, grouped: bool) -> String {
    let micro = micro.max(0) as u64;
    let scale = 10u64.pow(6u32.saturating_sub(places));
    let units = (micro + scale / 2) / scale;
    let per = 10u64.pow(places);
    let whole = units / per;
    let frac = units % per;
    let whole = if grouped {
        thousands(whole)
    } else {
        whole.to_string()
    };
    if places == 0 {
        whole
    } else {
        format!("{whole}.{frac:0width$}", width = places as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_duration_matches_kubectl() {
        let s = 1000;
        let m = 60 * s;
        let h = 60 * m;
        let d = 24 * h;
        assert_eq!(human_duration(0), "0s");
        assert_eq!(human_duration(999), "0s");
        assert_eq!(human_duration(41 * s), "41s");
        assert_eq!(human_duration(119 * s), "119s");
        assert_eq!(human_duration(2 * m), "2m");
        assert_eq!(human_duration(2 * m + 3 * s), "2m3s");
        assert_eq!(human_duration(9 * m + 59 * s), "9m59s");
        assert_eq!(human_duration(10 * m + 30 * s), "10m");
        assert_eq!(human_duration(179 * m), "179m");
        assert_eq!(human_duration(3 * h), "3h");
        assert_eq!(human_duration(3 * h + 5 * m), "3h5m");
        assert_eq!(human_duration(8 * h + 5 * m), "8h");
        assert_eq!(human_duration(47 * h), "47h");
        assert_eq!(human_duration(2 * d), "2d");
        assert_eq!(human_duration(2 * d + 5 * h), "2d5h");
        assert_eq!(human_duration(30 * d), "30d");
        assert_eq!(human_duration(800 * d), "2y70d");
        assert_eq!(human_duration(3000 * d), "8y");
    }

    #[test]
    fn tabulate_like_kubectl() {
        let rows = vec![
            vec!["NAME".to_string(), "STATUS".into(), "AGE".into()],
            vec!["fixed-1".to_string(), "Ready".into(), "41s".into()],
            vec![
                "platform-abcde".to_string(),
                "NotReady".into(),
                "2m3s".into(),
            ],
        ];
        assert_eq!(
            tabulate(&rows),
            "NAME             STATUS     AGE\nfixed-1          Ready      41s\n\
             platform-abcde   NotReady   2m3s\n"
        );
    }

    #[test]
    fn tabwriter_aligns_blocks_of_lines_independently() {
        // The way describe writes: `Name:\tx`, then a two-line table of three columns.
        let text = "Name:\tweb\nLabels:\tapp=web\nConditions:\n  Type\tStatus\n  Ready \tTrue \n";
        let got = tabwriter(text, 0, 2);
        assert_eq!(
            got,
            "Name:    web\nLabels:  app=web\nConditions:\n  Type    Status\n  Ready   True \n"
        );
    }

    #[test]
    fn wall_clock_starts_at_the_epoch() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(300_000), "1970-01-01T00:05:00Z");
        assert_eq!(rfc1123z(41_717), "Thu, 01 Jan 1970 00:00:41 +0000");
        assert_eq!(rfc1123z(86_400_000 * 3), "Sun, 04 Jan 1970 00:00:00 +0000");
        assert_eq!(log_time(41_717), "1970-01-01T00:00:41.717Z");
        assert_eq!(rfc3339(86_400_000 * 59), "1970-03-01T00:00:00Z");
    }

    #[test]
    fn money() {
        assert_eq!(dollars(7_800, 4, false), "0.0078");
        assert_eq!(dollars(266_600, 3, true), "0.267");
        assert_eq!(dollars(1_234_567_890, 3, true), "1,234.568");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}

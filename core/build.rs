//! Generates `$OUT_DIR/aws_catalog.rs`, the built-in AWS instance-type table, from
//! `data/instance-types.csv` and the accelerator facts in `data/accelerators.csv` (see
//! `data/SOURCES.md`). Uses only `std`; any malformed cell fails the build with the file,
//! line, column and value.
//!
//! `data/regional-prices-extract.csv` is not read: every price in it is already in the main
//! CSV's regional columns (a unit test in `src/catalog/aws.rs` keeps that true).

use std::collections::{BTreeMap, BTreeSet};
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process;

const CSV: &str = "data/instance-types.csv";
/// Written by `data/gen-accelerators.py`; one row per type that has accelerator labels.
const ACCEL_CSV: &str = "data/accelerators.csv";

const ACCEL_COLUMNS: [&str; 6] = [
    "name",
    "accelerator_name",
    "accelerator_manufacturer",
    "accelerator_count",
    "neuron",
    "neuroncore",
];

/// The expected header, in order. Regions are emitted in the order of `aws::REGIONS`:
/// us-east-1, us-west-2, ap-northeast-2.
const COLUMNS: [&str; 33] = [
    "name",
    "category",
    "family",
    "generation",
    "size",
    "arch",
    "vcpu",
    "memory_mib",
    "gpu_count",
    "gpu_name",
    "gpu_memory_mib",
    "hypervisor",
    "max_pods",
    "alloc_cpu_m",
    "alloc_memory_mib",
    "ephemeral_storage_gi",
    "network_bandwidth_mbps",
    "local_nvme_gib",
    "bare_metal",
    "burstable",
    "od_price_us_east_1",
    "od_price_us_west_2",
    "od_price_ap_northeast_2",
    "enis",
    "ipv4_per_eni",
    "pod_eni",
    "current_gen",
    "flex",
    "azs_ap_northeast_2",
    "azs_us_east_1",
    "azs_us_west_2",
    "spot_savings_pct_ap_northeast_2",
    "spot_interrupt_ap_northeast_2",
];

fn fail(msg: String) -> ! {
    fail_in(CSV, msg)
}

fn fail_in(file: &str, msg: String) -> ! {
    eprintln!("error: core/{file}: {msg}");
    eprintln!(
        "hint: see core/data/SOURCES.md for the expected format and how to regenerate the file"
    );
    process::exit(1);
}

struct Row<'a> {
    line: usize,
    cells: Vec<&'a str>,
}

impl<'a> Row<'a> {
    fn get(&self, col: &str) -> &'a str {
        let i = COLUMNS
            .iter()
            .position(|c| *c == col)
            .expect("known column");
        self.cells[i]
    }

    fn bad(&self, col: &str, why: &str) -> ! {
        fail(format!(
            "line {}, column `{col}`: {why} (value {:?})",
            self.line,
            self.get(col)
        ))
    }

    fn text(&self, col: &str) -> &'a str {
        let v = self.get(col);
        if v.is_empty() {
            self.bad(col, "must not be empty");
        }
        v
    }

    fn uint(&self, col: &str, max: u64) -> u64 {
        let v = self.get(col);
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            self.bad(col, "expected a non-negative integer");
        }
        match v.parse::<u64>() {
            Ok(n) if n <= max => n,
            _ => self.bad(col, &format!("expected an integer in 0..={max}")),
        }
    }

    /// An optional unsigned integer: blank is `None`.
    fn opt_uint(&self, col: &str, max: u64) -> Option<u64> {
        if self.get(col).is_empty() {
            None
        } else {
            Some(self.uint(col, max))
        }
    }

    fn boolean(&self, col: &str) -> bool {
        match self.get(col) {
            "true" => true,
            "false" => false,
            _ => self.bad(col, "expected `true` or `false`"),
        }
    }

    /// A decimal USD/hour price as exact integer micro-dollars; blank is `None`.
    fn price(&self, col: &str) -> Option<i64> {
        let v = self.get(col);
        if v.is_empty() {
            return None;
        }
        let (int, frac) = v.split_once('.').unwrap_or((v, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty() || !digits(int) || !digits(frac) || (v.contains('.') && frac.is_empty()) {
            self.bad(col, "expected a decimal price such as 0.0208");
        }
        let frac = frac.trim_end_matches('0');
        if frac.len() > 6 {
            self.bad(
                col,
                "more than 6 decimal places cannot be held in micro-dollars",
            );
        }
        let whole: i64 = match int.parse::<i64>() {
            Ok(n) if n < 1_000_000 => n,
            _ => self.bad(col, "price out of range"),
        };
        let mut micro: i64 = 0;
        for b in frac.bytes().chain(std::iter::repeat(b'0')).take(6) {
            micro = micro * 10 + i64::from(b - b'0');
        }
        let total = whole * 1_000_000 + micro;
        if total == 0 {
            self.bad(col, "a zero price is not a price; leave the cell blank");
        }
        Some(total)
    }

    /// Zone letters (`abcd`) or `-` for "not offered in the region" (emitted as "").
    fn zones(&self, col: &str) -> &'a str {
        let v = self.get(col);
        if v == "-" {
            return "";
        }
        let ok = !v.is_empty()
            && v.bytes().all(|b| b.is_ascii_lowercase())
            && v.as_bytes().windows(2).all(|w| w[0] < w[1]);
        if !ok {
            self.bad(
                col,
                "expected zone letters in increasing order (e.g. `abd`) or `-`",
            );
        }
        v
    }
}

/// One row of `accelerators.csv`: a type's accelerator labels and Neuron resources.
struct Accelerator<'a> {
    name: &'a str,
    manufacturer: &'a str,
    count: u64,
    /// `aws.amazon.com/neuron` and `aws.amazon.com/neuroncore`; 0 for other accelerators.
    neuron: u64,
    neuroncore: u64,
}

struct AccelRow<'a> {
    line: usize,
    cells: Vec<&'a str>,
}

impl<'a> AccelRow<'a> {
    fn bad(&self, col: usize, why: &str) -> ! {
        fail_in(
            ACCEL_CSV,
            format!(
                "line {}, column `{}`: {why} (value {:?})",
                self.line, ACCEL_COLUMNS[col], self.cells[col]
            ),
        )
    }

    /// A lower-kebab-case name, as Karpenter's `lowerKabobCase` writes label values.
    fn kebab(&self, col: usize) -> &'a str {
        let v = self.cells[col];
        if v.is_empty()
            || !v
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            self.bad(col, "expected a lower-kebab-case name");
        }
        v
    }

    /// A positive integer up to `max`; blank is `None`.
    fn count(&self, col: usize, max: u64) -> Option<u64> {
        let v = self.cells[col];
        if v.is_empty() {
            return None;
        }
        match v.parse::<u64>() {
            Ok(n) if (1..=max).contains(&n) && v.bytes().all(|b| b.is_ascii_digit()) => Some(n),
            _ => self.bad(col, &format!("expected an integer in 1..={max} or blank")),
        }
    }
}

/// `accelerators.csv` by type name. The cross-checks are those of `data/gen-accelerators.py`:
/// a Neuron type (neuron and neuroncore set) is made by `aws`, its accelerator count is its
/// device count, and its NeuronCores are a whole number per device.
fn parse_accelerators(text: &str) -> BTreeMap<&str, Accelerator<'_>> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, h)) if h.split(',').eq(ACCEL_COLUMNS) => {}
        Some((_, h)) => fail_in(
            ACCEL_CSV,
            format!(
                "unexpected header.\n  expected: {}\n  found:    {h}",
                ACCEL_COLUMNS.join(",")
            ),
        ),
        None => fail_in(ACCEL_CSV, "the file is empty".into()),
    }
    let mut out = BTreeMap::new();
    for (idx, line) in lines {
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != ACCEL_COLUMNS.len() || cells.iter().any(|c| c.trim() != *c) {
            fail_in(
                ACCEL_CSV,
                format!(
                    "line {}: expected {} cells without quotes or spaces, found {line:?}",
                    idx + 1,
                    ACCEL_COLUMNS.len()
                ),
            );
        }
        let row = AccelRow {
            line: idx + 1,
            cells,
        };
        let name = row.cells[0];
        if name.is_empty() {
            row.bad(0, "must not be empty");
        }
        row.kebab(1);
        let manufacturer = row.kebab(2);
        let count = row
            .count(3, 255)
            .unwrap_or_else(|| row.bad(3, "must not be empty"));
        let (neuron, neuroncore) = match (row.count(4, 255), row.count(5, u64::from(u16::MAX))) {
            (None, None) => (0, 0),
            (Some(n), Some(c)) => {
                if manufacturer != "aws" {
                    row.bad(2, "a Neuron type's accelerator manufacturer is `aws`");
                }
                if n != count {
                    row.bad(4, "a Neuron type's device count is its accelerator count");
                }
                if c % n != 0 {
                    row.bad(5, "NeuronCores must be a whole number per device");
                }
                (n, c)
            }
            _ => row.bad(4, "neuron and neuroncore must be both set or both blank"),
        };
        let accelerator = Accelerator {
            name: row.cells[1],
            manufacturer,
            count,
            neuron,
            neuroncore,
        };
        if out.insert(name, accelerator).is_some() {
            row.bad(0, "duplicate instance type");
        }
    }
    out
}

fn main() {
    println!("cargo:rerun-if-changed={CSV}");
    println!("cargo:rerun-if-changed={ACCEL_CSV}");
    println!("cargo:rerun-if-changed=build.rs");

    let manifest_dir = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let path = Path::new(&manifest_dir).join(CSV);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => fail(format!("cannot read {}: {e}", path.display())),
    };

    let accel_path = Path::new(&manifest_dir).join(ACCEL_CSV);
    let accel_text = match fs::read_to_string(&accel_path) {
        Ok(t) => t,
        Err(e) => fail_in(
            ACCEL_CSV,
            format!("cannot read {}: {e}", accel_path.display()),
        ),
    };
    let mut accelerators = parse_accelerators(&accel_text);

    let mut lines = text.lines().enumerate();
    let header = match lines.next() {
        Some((_, h)) => h,
        None => fail("the file is empty".into()),
    };
    let header_cells: Vec<&str> = header.split(',').collect();
    if header_cells != COLUMNS {
        fail(format!(
            "unexpected header.\n  expected: {}\n  found:    {header}",
            COLUMNS.join(",")
        ));
    }

    let mut out = String::with_capacity(256 * 1024);
    let mut names: Vec<(&str, usize)> = Vec::new();
    let mut seen = BTreeSet::new();
    // Zone letters seen per region, in `REGIONS` order.
    let mut region_letters: [BTreeSet<u8>; 3] = Default::default();

    out.push_str(
        "// @generated by core/build.rs from core/data/instance-types.csv. Do not edit.\n",
    );
    out.push_str(
        "// row(name, category, family, generation, size, arm64, vcpu, \
         memory_mib, gpu_count, gpu_name,\n",
    );
    out.push_str(
        "//     gpu_memory_mib, hypervisor(0 none/1 nitro/2 xen), max_pods, \
         enis, ipv4_per_eni, pod_eni,\n",
    );
    out.push_str(
        "//     network_bandwidth_mbps(-1 none), local_nvme_gib(-1 none), flags(1 metal/2 \
         burstable/4 flex/8 current),\n",
    );
    out.push_str(
        "//     on-demand micro-dollars [use1, usw2, apne2] (-1 none), zone \
         letters [use1, usw2, apne2],\n",
    );
    out.push_str(
        "//     spot saving % apne2 (-1 none), spot interruption bucket apne2 (-1 none))\n",
    );
    out.push_str(
        "// accel(row(..), accelerator name, manufacturer, count, neuron devices, neuroncores)\n",
    );
    out.push_str("//     for the types in core/data/accelerators.csv\n");
    out.push_str("pub(super) static ENTRIES: &[CatalogEntry] = &[\n");

    for (idx, line) in lines {
        let line_no = idx + 1;
        if line.trim().is_empty() {
            fail(format!("line {line_no}: blank line"));
        }
        if line.contains('"') {
            fail(format!("line {line_no}: quoted cells are not supported"));
        }
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != COLUMNS.len() {
            fail(format!(
                "line {line_no}: expected {} cells, found {}",
                COLUMNS.len(),
                cells.len()
            ));
        }
        if let Some((i, c)) = cells.iter().enumerate().find(|(_, c)| c.trim() != **c) {
            fail(format!(
                "line {line_no}, column `{}`: stray whitespace in {c:?}",
                COLUMNS[i]
            ));
        }
        let row = Row {
            line: line_no,
            cells,
        };

        let name = row.text("name");
        if !seen.insert(name) {
            row.bad("name", "duplicate instance type");
        }
        let category = row.text("category");
        let family = row.text("family");
        let size = row.text("size");
        if name != format!("{family}.{size}") {
            row.bad("name", "name must be `<family>.<size>`");
        }
        if !family.starts_with(category) {
            row.bad("category", "family must start with the category");
        }
        let generation = row.uint("generation", 255);
        let arm64 = match row.get("arch") {
            "amd64" => false,
            "arm64" => true,
            _ => row.bad("arch", "expected amd64 or arm64"),
        };
        let vcpu = row.uint("vcpu", u64::from(u16::MAX));
        let memory_mib = row.uint("memory_mib", u64::from(u32::MAX));
        if vcpu == 0 || memory_mib == 0 {
            row.bad("vcpu", "vcpu and memory_mib must be positive");
        }
        let gpu_name = row.get("gpu_name");
        let gpu_count = row.opt_uint("gpu_count", 255);
        let gpu_memory = row.opt_uint("gpu_memory_mib", u64::from(u32::MAX));
        if gpu_name.is_empty() != gpu_count.is_none() || gpu_name.is_empty() != gpu_memory.is_none()
        {
            row.bad(
                "gpu_name",
                "gpu_count, gpu_name and gpu_memory_mib must be all set or all blank",
            );
        }
        if !gpu_name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            row.bad("gpu_name", "expected a lower-kebab-case name");
        }
        let hypervisor = match row.get("hypervisor") {
            "" => 0,
            "nitro" => 1,
            "xen" => 2,
            _ => row.bad("hypervisor", "expected nitro, xen or blank"),
        };
        let max_pods = row.uint("max_pods", u64::from(u16::MAX));
        if max_pods == 0 {
            row.bad("max_pods", "must be positive");
        }
        // Oracle columns: validated, not emitted (the unit tests read them from the CSV).
        row.uint("alloc_cpu_m", u64::from(u32::MAX));
        row.uint("alloc_memory_mib", u64::from(u32::MAX));
        row.uint("ephemeral_storage_gi", 1 << 20);
        let bandwidth = row.opt_uint("network_bandwidth_mbps", u64::from(u32::MAX));
        let nvme = row.opt_uint("local_nvme_gib", u64::from(u32::MAX));
        let bare_metal = row.boolean("bare_metal");
        let burstable = row.boolean("burstable");
        let prices = [
            row.price("od_price_us_east_1"),
            row.price("od_price_us_west_2"),
            row.price("od_price_ap_northeast_2"),
        ];
        let enis = row.opt_uint("enis", 255);
        let ipv4 = row.opt_uint("ipv4_per_eni", 255);
        match (enis, ipv4) {
            (Some(e), Some(i)) => {
                if i == 0 || e * (i - 1) + 2 != max_pods {
                    row.bad(
                        "max_pods",
                        &format!("must equal enis × (ipv4_per_eni − 1) + 2 = {e} × ({i} − 1) + 2"),
                    );
                }
            }
            (None, None) => {}
            _ => row.bad(
                "enis",
                "enis and ipv4_per_eni must be both set or both blank",
            ),
        }
        let pod_eni = row.opt_uint("pod_eni", u64::from(u16::MAX));
        let current_gen = row.boolean("current_gen");
        let flex = row.boolean("flex");
        if flex != family.contains("-flex") {
            row.bad(
                "flex",
                "flex must be true exactly when the family name contains `-flex`",
            );
        }
        let zones = [
            row.zones("azs_us_east_1"),
            row.zones("azs_us_west_2"),
            row.zones("azs_ap_northeast_2"),
        ];
        for (letters, set) in zones.iter().zip(region_letters.iter_mut()) {
            set.extend(letters.bytes());
        }
        let saving = row.opt_uint("spot_savings_pct_ap_northeast_2", 99);
        let interrupt = row.opt_uint("spot_interrupt_ap_northeast_2", 4);

        let opt = |v: Option<u64>| v.map_or(-1, |n| n as i64);
        let flags = u8::from(bare_metal)
            | u8::from(burstable) << 1
            | u8::from(flex) << 2
            | u8::from(current_gen) << 3;
        let p = |v: Option<i64>| v.unwrap_or(-1);
        let accelerator = accelerators.remove(name);
        if accelerator.is_some() {
            out.push_str("accel(");
        }
        write!(
            out,
            "row({name:?},{category:?},{family:?},{generation},{size:?},{arm64},{vcpu},\
             {memory_mib},{},{gpu_name:?},{},{hypervisor},{max_pods},{},{},{},{},{},{flags},[{},{},\
             {}],[{:?},{:?},{:?}],{},{})",
            gpu_count.unwrap_or(0),
            gpu_memory.unwrap_or(0),
            enis.unwrap_or(0),
            ipv4.unwrap_or(0),
            pod_eni.unwrap_or(0),
            opt(bandwidth),
            opt(nvme),
            p(prices[0]),
            p(prices[1]),
            p(prices[2]),
            zones[0],
            zones[1],
            zones[2],
            opt(saving),
            opt(interrupt),
        )
        .expect("write to String");
        if let Some(a) = accelerator {
            write!(
                out,
                ",{:?},{:?},{},{},{})",
                a.name, a.manufacturer, a.count, a.neuron, a.neuroncore
            )
            .expect("write to String");
        }
        out.push_str(",\n");
        names.push((name, names.len()));
    }
    out.push_str("];\n");

    if let Some(name) = accelerators.keys().next() {
        fail_in(
            ACCEL_CSV,
            format!("{name} is not a row of {CSV}; regenerate with data/gen-accelerators.py"),
        );
    }
    if names.is_empty() {
        fail("no rows".into());
    }
    if names.len() > usize::from(u16::MAX) {
        fail("too many rows for a u16 index".into());
    }

    // Entry indices sorted by name, for binary-search lookup.
    names.sort_unstable();
    out.push_str("pub(super) static BY_NAME: &[u16] = &[");
    for (i, (_, idx)) in names.iter().enumerate() {
        if i % 32 == 0 {
            out.push('\n');
        }
        write!(out, "{idx},").expect("write to String");
    }
    out.push_str("\n];\n");

    // Zone letters that occur per region (us-east-1, us-west-2, ap-northeast-2).
    out.push_str("pub(super) static REGION_ZONE_LETTERS: [&str; 3] = [");
    for set in &region_letters {
        if set.is_empty() {
            fail("a region has no zones at all".into());
        }
        let s: String = set.iter().map(|b| char::from(*b)).collect();
        write!(out, "{s:?},").expect("write to String");
    }
    out.push_str("];\n");

    let out_dir = env::var("OUT_DIR").expect("OUT_DIR");
    let dest = Path::new(&out_dir).join("aws_catalog.rs");
    if let Err(e) = fs::write(&dest, out) {
        fail(format!("cannot write {}: {e}", dest.display()));
    }
}

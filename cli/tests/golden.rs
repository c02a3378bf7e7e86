//! Golden reports: `kpg simulate tests/labs/LAB.yaml --output json` must print exactly
//! `tests/golden/LAB.json`, byte for byte.
//!
//! After a deliberate change in behaviour, regenerate them and review the diff (any value of
//! `UPDATE_GOLDEN` but empty or `0` rewrites: `kpg_testkit`'s rule for every golden):
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test -p kpg --test golden
//! git diff tests/golden
//! ```

mod common;

use std::fs;

use common::*;

fn check_golden(lab_name: &str) {
    let path = lab(&format!("{lab_name}.yaml"));
    let out = kpg(&[
        "simulate",
        path.to_str().expect("UTF-8 path"),
        "--output",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "kpg simulate {lab_name} failed\n--- stderr ---\n{}",
        stderr(&out)
    );
    kpg_testkit::check(&golden(&format!("{lab_name}.json")), &stdout(&out));
}

macro_rules! golden_tests {
    ($($test:ident => $lab:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check_golden($lab);
            }
        )*

        const LABS: &[&str] = &[$($lab),*];
    };
}

golden_tests! {
    seed000_hello_world => "seed000-hello-world",
    seed000_v1beta1 => "seed000-v1beta1",
    seed002_scale_out => "seed002-scale-out",
    seed002_service_6gi => "seed002-service-6gi",
    seed002_limits => "seed002-limits",
    seed002_limits_lifted => "seed002-limits-lifted",
    seed002_scale_in => "seed002-scale-in",
    seed002_consolidation => "seed002-consolidation",
    seed003_batch_job => "seed003-batch-job",
    seed003_batch_job_fixed => "seed003-batch-job-fixed",
    seed003_v1beta1 => "seed003-v1beta1",
    seed003_spot_shortage => "seed003-spot-shortage",
    seed000_teardown => "seed000-teardown",
    seed000_teardown_wrong_order => "seed000-teardown-wrong-order",
    seed000_drift => "seed000-drift",
    seed003_spot_fallback => "seed003-spot-fallback",
    seed002_protect => "seed002-protect",
    seed002_zones => "seed002-zones",
    v114_balanced => "v114-balanced",
    v114_balanced_eager => "v114-balanced-eager",
    v114_static_reserved => "v114-static-reserved",
    v114_capacity_buffer => "v114-capacity-buffer",
    byoc_snapshot => "byoc-snapshot",
    byoc_on_demand => "byoc-on-demand",
    priority_preemption => "priority-preemption",
    automode_builtin => "automode-builtin",
    automode_custom => "automode-custom",
    automode_migrate => "automode-migrate",
    automode_before => "automode-before",
}

/// A new lab needs a golden test (one line in the macro above).
#[test]
fn every_lab_has_a_golden_test() {
    let dir = lab("");
    let mut on_disk: Vec<String> = fs::read_dir(&dir)
        .expect("tests/labs exists")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".yaml"))
                .map(String::from)
        })
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = LABS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "tests/labs/*.yaml vs the golden tests in cli/tests/golden.rs"
    );
}

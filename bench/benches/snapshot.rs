//! Reading a snapshot of a live cluster (issue 32's target: a 500-node, 10,000-pod snapshot
//! as `kubectl get -o yaml --show-managed-fields` prints it, about 120 MB, in ≤ 5 s and
//! ≤ 1 GB on a 2-core machine). Criterion times a cluster a fifth that size (100 nodes,
//! 2,000 pods, 24 MB) so that a run stays short; the whole size is measured as the book's
//! Performance chapter says, with `/usr/bin/time` around `kpg validate` on `kpg-snapgen`'s output.
//!
//! - "read": `kpg_manifests::load`, the YAML with managedFields (what `kpg validate` does);
//! - "read, no managedFields": what a plain `kubectl get -o yaml` prints;
//! - "import": reading and printing the minimal scenario back (`kpg import`).

use criterion::{Criterion, criterion_group, criterion_main};
use kpg_snapgen::{Format, Params, snapshot};

fn params(managed_fields: bool) -> Params {
    Params {
        nodes: 100,
        pods: 2_000,
        managed_fields,
        ..Params::default()
    }
}

fn bench(c: &mut Criterion) {
    let with = snapshot(&params(true), Format::Yaml);
    let without = snapshot(&params(false), Format::Yaml);
    let mut group = c.benchmark_group("snapshot 100 nodes, 2,000 pods");
    group.sample_size(10);
    group.bench_function("read (24 MB, managedFields)", |b| {
        b.iter(|| {
            let loaded = kpg_manifests::load(&with);
            assert!(!loaded.has_errors());
            loaded.scenario.nodes.len()
        })
    });
    group.bench_function("read, no managedFields", |b| {
        b.iter(|| kpg_manifests::load(&without).scenario.nodes.len())
    });
    group.bench_function("import", |b| {
        b.iter(|| {
            let loaded = kpg_manifests::load(&with);
            kpg_import::import(&loaded.scenario, kpg_import::Options::default()).len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

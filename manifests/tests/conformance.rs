//! Every conformance scenario and every seed article's manifests must load without errors.

use std::path::PathBuf;

fn shared() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

/// A case file is a header document (the expectations) followed by the scenario.
fn scenario_of(text: &str) -> &str {
    match text.find("\n---\n") {
        Some(i) => &text[i + 5..],
        None => "",
    }
}

#[test]
fn all_conformance_scenarios_load_without_errors() {
    let dir = shared().join("conformance/cases");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "{} must exist (shared/ beside the repository): {e}",
                dir.display()
            )
        })
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    entries.sort();
    assert!(
        entries.len() >= 46,
        "expected the 46 conformance cases, found {}",
        entries.len()
    );
    let mut failures = Vec::new();
    for path in &entries {
        let text = std::fs::read_to_string(path).expect("readable");
        let loaded = kpg_manifests::load(scenario_of(&text));
        for d in &loaded.diagnostics {
            if d.is_error() {
                failures.push(d.in_file(&path.display().to_string()).to_string());
            } else {
                eprintln!("{}", d.in_file(&path.display().to_string()));
            }
        }
        assert!(
            !loaded.scenario.node_pools.is_empty(),
            "{}: no NodePool",
            path.display()
        );
        assert!(
            !loaded.scenario.instance_types.is_empty(),
            "{}: no InstanceType",
            path.display()
        );
    }
    assert!(failures.is_empty(), "errors:\n{}", failures.join("\n"));
}

fn seed(name: &str) -> kpg_manifests::Loaded {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/seeds")
        .join(name);
    kpg_manifests::load(&std::fs::read_to_string(&path).expect("fixture"))
}

#[test]
fn seed_articles_load_without_errors() {
    use kpg_core::model::{AmiFamily, ConsolidationPolicy};

    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seeds");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(Result::ok)
    {
        let text = std::fs::read_to_string(entry.path()).expect("readable");
        let loaded = kpg_manifests::load(&text);
        let errors: Vec<_> = loaded.errors().map(|d| d.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", entry.path().display());
        count += 1;
    }
    assert_eq!(count, 3);

    // 000: v1beta1 EC2NodeClass (amiFamily) and NodePool (WhenUnderutilized + 30s).
    let l = seed("000-nodeclass-nodepool-v1beta1.yaml");
    assert_eq!(l.scenario.node_classes[0].ami_family, AmiFamily::Al2023);
    let np = &l.scenario.node_pools[0];
    assert_eq!(
        np.consolidation_policy,
        ConsolidationPolicy::WhenEmptyOrUnderutilized
    );
    assert_eq!(np.consolidate_after, Some(30_000));
    assert_eq!(
        (
            np.node_class_ref.group.as_str(),
            np.node_class_ref.kind.as_str()
        ),
        ("karpenter.k8s.aws", "EC2NodeClass")
    );
    assert_eq!(np.requirements.len(), 3);
    assert!(
        l.warnings()
            .any(|d| d.code == "v1beta1-consolidation-policy")
    );

    // 002: v1 EC2NodeClass with a 50Gi root volume, two v1 NodePools, two Deployments.
    let l = seed("002-nodeclass-v1.yaml");
    assert_eq!(l.scenario.node_classes[0].root_volume_bytes, Some(50 << 30));
    assert_eq!(l.scenario.node_pools.len(), 2);
    assert_eq!(l.scenario.node_pools[0].taints.len(), 1);
    assert_eq!(l.scenario.workloads.len(), 2);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);

    // 003: a v1beta1 pool per purpose and a Job that tolerates the batch pool's taint.
    let l = seed("003-multiarch-v1beta1.yaml");
    assert_eq!(l.scenario.node_pools.len(), 2);
    let job = &l.scenario.workloads[0];
    assert_eq!((job.replicas, job.completions), (1, Some(1)));
    assert_eq!(job.template.spec.tolerations[0].key, "workload");
}

//! The NodePool hashes a snapshot's NodePools and NodeClaims carry are the ones Karpenter v1
//! computes for the NodePools as the generator writes them (`kpg_core::disruption::pool_hash`,
//! checked against real clusters' hashes), so a generated cluster at rest has not drifted
//! but for the NodeClaims meant to (`drifted_share`).

use kpg_snapgen::{Format, Params, snapshot};

#[test]
fn the_default_hashes_are_karpenters_for_the_nodepools_written() {
    let p = Params {
        nodes: 12,
        pods: 120,
        ..Params::default()
    };
    let loaded = kpg_manifests::load(&snapshot(&p, Format::Yaml));
    assert!(!loaded.has_errors(), "{:?}", loaded.errors().next());
    for (i, name) in ["default", "spot", "arm64"].iter().enumerate() {
        let np = loaded
            .scenario
            .node_pools
            .iter()
            .find(|np| np.name == *name)
            .expect("the NodePool is in the snapshot");
        assert_eq!(
            kpg_core::disruption::pool_hash(np),
            p.nodepool_hashes[i],
            "NodePool {name}'s karpenter.sh/nodepool-hash"
        );
        assert_ne!(p.drifted_nodepool_hashes[i], p.nodepool_hashes[i]);
    }
}

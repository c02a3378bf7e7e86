//! Which text the page imports when it is opened or pasted: what kubectl printed, never a
//! scenario someone wrote or one `kpg import` already printed.

use kpg_import::{Options, import, is_cluster_output};
use kpg_snapgen::{Format, Params};

fn small() -> Params {
    Params {
        nodes: 4,
        pods: 30,
        ..Params::default()
    }
}

fn read(text: &str) -> kpg_core::model::Scenario {
    kpg_manifests::load(text).scenario
}

#[test]
fn kubectl_output_is_cluster_output_in_yaml_and_json() {
    for format in [Format::Yaml, Format::Json] {
        let list = kpg_snapgen::snapshot(&small(), format);
        assert!(is_cluster_output(&read(&list)), "{format:?} List");
    }
}

#[test]
fn one_object_kubectl_printed_is_cluster_output() {
    // What `kubectl get nodepool default -o yaml` prints: the server's uid and version.
    let text = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\n  \
                resourceVersion: \"1234\"\n  uid: 6f1c0d1e-0000-4000-8000-000000000001\nspec:\n  \
                template:\n    spec:\n      nodeClassRef:\n        \
                group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: default\n      \
                requirements: []\n";
    assert!(is_cluster_output(&read(text)));
}

#[test]
fn a_written_scenario_and_an_imported_one_are_not() {
    let written = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\n\
                   spec:\n  template:\n    spec:\n      nodeClassRef:\n        group: \
                   karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: default\n      \
                   requirements: []\n";
    assert!(!is_cluster_output(&read(written)));
    let imported = import(
        &read(&kpg_snapgen::snapshot(&small(), Format::Yaml)),
        Options::default(),
    );
    let again = read(&imported);
    assert!(!again.nodes.is_empty(), "the import keeps the nodes");
    assert!(!is_cluster_output(&again));
}

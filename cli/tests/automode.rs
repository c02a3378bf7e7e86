//! EKS Auto Mode through `kpg simulate --output json` and `kpg validate`: the built-in
//! NodePools, the `eks.amazonaws.com/v1` NodeClass, the allow-list, the 110-pod cap, the
//! node lifetimes, the management fee on the bill, and the reader's refusals and notices
//! (fixtures `tests/labs/automode-*.yaml`, from the EKS user guide's examples).

mod common;

use common::*;
use serde_json::Value;

fn label<'a>(node: &'a Value, key: &str) -> Option<&'a str> {
    node["labels"].get(key).and_then(Value::as_str)
}

fn pods_capacity(node: &Value) -> i64 {
    str_of(&node["capacity"], "pods")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no pods capacity: {node}"))
}

fn dollars(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or(0.0)
}

fn validate(text: &str) -> (i32, String) {
    let out = kpg_stdin(&["validate", "-"], text.as_bytes());
    (
        out.status.code().unwrap_or(-1),
        stdout(&out) + &stderr(&out),
    )
}

/// An Auto Mode cluster with one custom NodePool (its requirements given) on the built-in
/// NodeClass and one Deployment (its pod's requests given), nothing built in.
fn auto_pool(requirements: &str, replicas: u32, cpu: &str) -> String {
    format!(
        r#"
apiVersion: playground.karpenter.dev/v1alpha1
kind: Cluster
metadata: {{name: c}}
spec:
  karpenter:
    mode: eks-auto-mode
    autoMode: {{nodePools: []}}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: auto}}
spec:
  template:
    spec:
      nodeClassRef: {{group: eks.amazonaws.com, kind: NodeClass, name: default}}
      requirements: {requirements}
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers:
        - name: web
          resources: {{requests: {{cpu: "{cpu}"}}}}
"#
    )
}

#[test]
fn the_built_in_pools_launch_on_demand_cmr_of_generation_five_or_newer() {
    let r = report("automode-builtin.yaml", &[]);
    let all = nodes(&r);
    assert_eq!(all.len(), 2, "{}", summary(&r));
    for n in &all {
        assert_eq!(str_of(n, "capacityType"), Some("on-demand"), "{n}");
        let category = label(n, "eks.amazonaws.com/instance-category").unwrap_or("?");
        assert!(["c", "m", "r"].contains(&category), "{n}");
        let generation: u32 = label(n, "eks.amazonaws.com/instance-generation")
            .and_then(|g| g.parse().ok())
            .unwrap_or(0);
        assert!(generation >= 5, "{n}");
        let size = label(n, "eks.amazonaws.com/instance-size").unwrap_or("?");
        assert!(!["nano", "micro", "small"].contains(&size), "{n}");
        assert_eq!(label(n, "eks.amazonaws.com/compute-type"), Some("auto"));
        assert_eq!(label(n, "eks.amazonaws.com/nodeclass"), Some("default"));
        // Auto Mode's labels replace self-managed Karpenter's.
        assert_eq!(label(n, "karpenter.k8s.aws/instance-family"), None, "{n}");
        assert_eq!(label(n, "karpenter.k8s.aws/ec2nodeclass"), None, "{n}");
        assert_eq!(str_of(&n["capacity"], "ephemeral-storage"), Some("80Gi"));
    }
    for n in nodes_in(&r, Some("general-purpose")) {
        assert_eq!(
            str_of(n, "arch"),
            Some("amd64"),
            "general-purpose is amd64 only"
        );
    }
    let inflate = pods_labelled(&r, "app", "inflate");
    assert_eq!(inflate.len(), 3);
    for p in inflate {
        assert_eq!(str_of(p, "phase"), Some("Running"), "{}", summary(&r));
        assert_eq!(str_of(node_of(&r, p), "nodepool"), Some("general-purpose"));
    }
}

#[test]
fn the_system_pool_is_tainted_critical_addons_only() {
    let r = report("automode-builtin.yaml", &[]);
    let system = nodes_in(&r, Some("system"));
    assert_eq!(system.len(), 1, "{}", summary(&r));
    let taints = system[0]["taints"].as_array().cloned().unwrap_or_default();
    assert!(
        taints
            .iter()
            .any(|t| str_of(t, "key") == Some("CriticalAddonsOnly")
                && str_of(t, "effect") == Some("NoSchedule")),
        "{taints:?}"
    );
    assert!(
        nodes_in(&r, Some("general-purpose"))[0]["taints"]
            .as_array()
            .is_some_and(Vec::is_empty)
    );
    for p in pods_labelled(&r, "k8s-app", "kube-dns") {
        assert_eq!(str_of(node_of(&r, p), "nodepool"), Some("system"));
    }
}

#[test]
fn the_allow_list_keeps_nano_micro_and_small_out() {
    // A tiny pod on a burstable-only pool: self-managed Karpenter takes a t*.nano; Auto Mode
    // never launches nano, micro or small.
    let r = simulate_json(
        &auto_pool(
            "[{key: eks.amazonaws.com/instance-category, operator: In, values: [t]}]",
            1,
            "10m",
        ),
        "2m",
    );
    let all = nodes(&r);
    assert_eq!(all.len(), 1, "{}", summary(&r));
    let size = label(all[0], "eks.amazonaws.com/instance-size").unwrap_or("?");
    assert_eq!(size, "medium", "{}", summary(&r));
    let family = label(all[0], "eks.amazonaws.com/instance-family").unwrap_or("?");
    assert!(["t3", "t3a", "t4g", "t2"].contains(&family), "{family}");
    // A family Auto Mode does not list (a1) is never launched: the pod stays pending.
    let r = simulate_json(
        &auto_pool(
            "[{key: eks.amazonaws.com/instance-family, operator: In, values: [a1]}]",
            1,
            "10m",
        ),
        "2m",
    );
    assert!(nodes(&r).is_empty(), "{}", summary(&r));
}

#[test]
fn max_pods_is_capped_at_110() {
    let r = simulate_json(
        &auto_pool(
            "[{key: eks.amazonaws.com/instance-cpu, operator: In, values: ['32']}, \
             {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]",
            1,
            "30",
        ),
        "2m",
    );
    let all = nodes(&r);
    assert_eq!(all.len(), 1, "{}", summary(&r));
    // Prefix delegation alone would give 250 pods to a 32-vCPU type.
    assert_eq!(pods_capacity(all[0]), 110, "{}", all[0]);
}

#[test]
fn built_in_nodes_expire_after_336_hours() {
    let before = report("automode-builtin.yaml", &["--until", "335h"]);
    let after = report("automode-builtin.yaml", &["--until", "337h"]);
    let names = |r: &Value| -> Vec<String> {
        nodes(r)
            .iter()
            .filter_map(|n| str_of(n, "name").map(String::from))
            .collect()
    };
    let first = names(&before);
    assert_eq!(first.len(), 2);
    for n in &first {
        assert!(!names(&after).contains(n), "{n} outlived 336h");
    }
    let expired: Vec<&Value> = after["events"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|e| str_of(e, "reason") == Some("Expired"))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(expired.len(), 2);
    assert!(
        expired
            .iter()
            .all(|e| str_of(e, "time") == Some("336h0m1s")),
        "{expired:?}"
    );
}

#[test]
fn custom_auto_mode_nodes_live_at_most_21_days() {
    // The custom pool leaves expireAfter to the CRD (720h); Auto Mode replaces at 21 days.
    let r = report("automode-custom.yaml", &["--until", "505h"]);
    let expired = r["events"]
        .as_array()
        .map(|e| {
            e.iter()
                .filter(|e| str_of(e, "reason") == Some("Expired"))
                .filter_map(|e| str_of(e, "time"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    assert!(
        !expired.is_empty() && expired.iter().all(|t| t.starts_with("504h")),
        "{expired:?}"
    );
}

#[test]
fn the_custom_node_class_sets_ephemeral_storage_and_the_pool_its_labels() {
    let r = report("automode-custom.yaml", &[]);
    let all = nodes(&r);
    assert!(!all.is_empty());
    for n in &all {
        assert_eq!(
            str_of(&n["capacity"], "ephemeral-storage"),
            Some("160Gi"),
            "{n}"
        );
        assert_eq!(label(n, "billing-team"), Some("my-team"));
        assert_eq!(
            label(n, "eks.amazonaws.com/nodeclass"),
            Some("private-compute")
        );
        let zone = str_of(n, "zone").unwrap_or("?");
        assert!(["us-west-2a", "us-west-2b"].contains(&zone), "{zone}");
        assert!(pods_capacity(n) <= 110);
    }
    assert!(
        pods(&r)
            .iter()
            .all(|p| str_of(p, "phase") == Some("Running"))
    );
}

#[test]
fn the_management_fee_is_on_the_bill() {
    let r = report("automode-builtin.yaml", &[]);
    let mut price = 0.0;
    let mut fees = 0.0;
    for n in nodes(&r) {
        let fee = dollars(n, "managementFeePerHour");
        // On-demand nodes: the fee is 12 % of the node's own price.
        assert!(
            (fee - 0.12 * dollars(n, "pricePerHour")).abs() < 1e-9,
            "{n}"
        );
        price += dollars(n, "pricePerHour");
        fees += fee;
    }
    assert!(fees > 0.0);
    assert!((dollars(&r, "managementFeePerHour") - fees).abs() < 1e-9);
    assert!(
        (dollars(&r, "costPerHour") - (price + fees)).abs() < 1e-9,
        "{r}"
    );

    // Self-managed Karpenter's node beside Auto Mode pays no fee.
    let m = report("automode-migrate.yaml", &[]);
    for p in pods_labelled(&m, "app", "catalog") {
        let n = node_of(&m, p);
        assert_eq!(str_of(n, "nodepool"), Some("default"));
        assert!(n.get("managementFeePerHour").is_none(), "{n}");
        assert_eq!(label(n, "karpenter.k8s.aws/ec2nodeclass"), Some("default"));
    }
    for p in pods_labelled(&m, "app", "checkout") {
        let n = node_of(&m, p);
        assert_eq!(str_of(n, "nodepool"), Some("eks-auto-mode"));
        assert!(dollars(n, "managementFeePerHour") > 0.0, "{n}");
    }
}

#[test]
fn compare_names_the_fee_on_its_own_line() {
    let a = lab("seed000-hello-world.yaml");
    let b = lab("automode-builtin.yaml");
    let out = kpg(&["compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.contains("Auto Mode fee"))
        .unwrap_or_else(|| panic!("no fee line:\n{text}"));
    assert!(line.contains("$0.0224"), "{line}");
    let out = kpg(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "-o",
        "json",
    ]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(json["a"].get("managementFeePerHour").is_none());
    assert!((dollars(&json["b"], "managementFeePerHour") - 0.02244).abs() < 1e-9);
}

#[test]
fn a_workload_selecting_compute_type_auto_stays_off_self_managed_karpenter() {
    // Without Auto Mode the label is no NodePool's: self-managed Karpenter launches nothing.
    let text = format!(
        "{NODE_CLASS}---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {{name: default}}
spec:
  template:
    spec:
      nodeClassRef: {{group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}
      requirements: []
---
apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  nodeSelector: {{eks.amazonaws.com/compute-type: auto}}
  containers: [{{name: c, resources: {{requests: {{cpu: 100m}}}}}}]
"
    );
    let r = simulate_json(&text, "2m");
    assert!(nodes(&r).is_empty(), "{}", summary(&r));
    assert_eq!(str_of(pods(&r)[0], "phase"), Some("Pending"));
}

#[test]
fn an_ec2nodeclass_field_on_a_node_class_is_refused_where_it_is() {
    let text = "apiVersion: eks.amazonaws.com/v1
kind: NodeClass
metadata: {name: custom}
spec:
  ephemeralStorage: {size: 100Gi}
  amiSelectorTerms: [{alias: al2023@latest}]
";
    let (code, out) = validate(text);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(":6:3: error[auto-mode-ec2nodeclass-field]"),
        "{out}"
    );
    assert!(
        out.contains("chooses and patches the node image itself"),
        "{out}"
    );
}

#[test]
fn a_custom_node_class_named_default_is_refused() {
    let text = "apiVersion: eks.amazonaws.com/v1
kind: NodeClass
metadata: {name: default}
spec: {}
";
    let (code, out) = validate(text);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error[auto-mode-default-nodeclass]"), "{out}");
}

#[test]
fn auto_mode_is_inferred_with_a_notice() {
    // The custom lab without its Cluster's `karpenter` block: the NodeClass says Auto Mode.
    let written = std::fs::read_to_string(lab("automode-custom.yaml")).expect("the lab");
    let said = "  karpenter:\n    mode: eks-auto-mode\n    autoMode:\n      nodePools: []\n";
    assert!(written.contains(said));
    let inferred = written.replace(said, "");
    let (code, text) = validate(&inferred);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("warning[auto-mode-inferred]"), "{text}");
    assert!(text.contains("0 errors, 1 warning"), "{text}");
    // Said in the Cluster: no notice.
    let (_, text) = validate(&written);
    assert!(!text.contains("auto-mode-inferred"), "{text}");
    // Inferred without built-in pools: only the custom pool launches, as Auto Mode's.
    let r = simulate_json(&inferred, "2m");
    assert!(!nodes(&r).is_empty());
    for n in nodes(&r) {
        assert_eq!(str_of(n, "nodepool"), Some("my-node-pool"));
        assert_eq!(label(n, "eks.amazonaws.com/compute-type"), Some("auto"));
    }
}

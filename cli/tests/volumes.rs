//! Volume topology through `kpg simulate --output json`: claims that bind where their first
//! pod lands, pods that go back to their volume's zone, volumes that pin a pod's zone, claims
//! that do not exist, and attach limits (`tests/labs/volumes/`).

mod common;

use std::collections::BTreeMap;

use common::*;
use serde_json::Value;

fn lab_report(name: &str, until: Option<&str>) -> Value {
    let path = lab(&format!("volumes/{name}"));
    let path = path.to_str().expect("UTF-8 path");
    let mut args = vec!["simulate", path, "--output", "json"];
    if let Some(u) = until {
        args.extend(["--until", u]);
    }
    let out = kpg(&args);
    assert!(out.status.success(), "kpg {args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("the report is JSON")
}

fn events<'a>(report: &'a Value, reason: &str) -> Vec<&'a Value> {
    report["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| str_of(e, "reason") == Some(reason))
        .collect()
}

/// The zone each claim was provisioned in, from `ProvisioningSucceeded` events
/// (`PersistentVolumeClaim/NS/NAME` → zone), and how many times each was provisioned.
fn provisioned(report: &Value) -> BTreeMap<String, (String, usize)> {
    let mut out: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for e in events(report, "ProvisioningSucceeded") {
        let claim = str_of(e, "object").unwrap().to_string();
        let zone = str_of(e, "message")
            .and_then(|m| m.rsplit(" in ").next())
            .unwrap()
            .to_string();
        let entry = out.entry(claim).or_insert((zone.clone(), 0));
        entry.0 = zone;
        entry.1 += 1;
    }
    out
}

fn pod_named<'a>(report: &'a Value, name: &str) -> &'a Value {
    pods(report)
        .into_iter()
        .find(|p| str_of(p, "name") == Some(name))
        .unwrap_or_else(|| panic!("no pod {name}\n{}", summary(report)))
}

fn zone_of_pod(report: &Value, name: &str) -> String {
    let pod = pod_named(report, name);
    str_of(node_of(report, pod), "zone").unwrap().to_string()
}

#[test]
fn a_statefulsets_claims_bind_in_the_zones_its_pods_landed_in() {
    let r = lab_report("volumes-statefulset.yaml", Some("2m"));
    let claims = provisioned(&r);
    let mut zones = Vec::new();
    for i in 0..3 {
        let claim = format!("PersistentVolumeClaim/default/data-db-{i}");
        let (zone, times) = claims
            .get(&claim)
            .unwrap_or_else(|| panic!("{claim} was not provisioned: {claims:?}"));
        assert_eq!(*times, 1);
        assert_eq!(
            zone,
            &zone_of_pod(&r, &format!("db-{i}")),
            "{claim} is not in its pod's zone\n{}",
            summary(&r)
        );
        zones.push(zone.clone());
    }
    zones.sort();
    zones.dedup();
    assert_eq!(zones.len(), 3, "the spread put one replica per zone");
}

#[test]
fn scaled_to_zero_and_back_each_pod_returns_to_its_volumes_zone() {
    let r = lab_report("volumes-statefulset.yaml", None);
    let claims = provisioned(&r);
    assert_eq!(
        claims.len(),
        3,
        "the claims are kept and never provisioned again"
    );
    assert!(claims.values().all(|(_, times)| *times == 1), "{claims:?}");
    // The first nodes went when the StatefulSet scaled to 0; the nodes now are new ones,
    // launched after the scale-up in the volumes' zones.
    let launched: Vec<&Value> = events(&r, "Launched")
        .into_iter()
        .filter(|e| str_of(e, "time").is_some_and(|t| t.starts_with('8')))
        .collect();
    assert_eq!(launched.len(), 3, "{}", summary(&r));
    for i in 0..3 {
        let pod = pod_named(&r, &format!("db-{i}"));
        assert_eq!(str_of(pod, "phase"), Some("Running"), "{}", summary(&r));
        let (zone, _) = &claims[&format!("PersistentVolumeClaim/default/data-db-{i}")];
        assert_eq!(
            &zone_of_pod(&r, &format!("db-{i}")),
            zone,
            "{}",
            summary(&r)
        );
        let node = str_of(pod, "node").unwrap();
        // Karpenter itself chose that node for the pod (not kube-scheduler picking the one
        // node of the right zone among three).
        let nominated = format!("Pod should schedule on: nodeclaim/{node}");
        assert!(
            events(&r, "Nominated").iter().any(|e| {
                str_of(e, "object") == Some(&format!("Pod/default/db-{i}"))
                    && str_of(e, "message") == Some(nominated.as_str())
            }),
            "Karpenter did not nominate db-{i} for {node}\n{}",
            summary(&r)
        );
        assert!(
            launched.iter().any(
                |e| str_of(e, "object") == Some(&format!("NodeClaim/{node}"))
                    && str_of(e, "message")
                        .unwrap()
                        .contains(&format!("zone={zone}"))
            ),
            "db-{i}'s node {node} was not launched in {zone} after the scale-up\n{}",
            summary(&r)
        );
    }
}

#[test]
fn a_pre_bound_volume_pins_its_pod_to_the_volumes_zone() {
    let r = lab_report("prebound-pv.yaml", None);
    assert_eq!(nodes(&r).len(), 1, "{}", summary(&r));
    assert_eq!(zone_of_pod(&r, "orders"), "us-east-1b", "{}", summary(&r));
    assert!(
        provisioned(&r).is_empty(),
        "a bound claim is never provisioned"
    );
}

#[test]
fn allowed_topologies_restrict_a_wait_for_first_consumer_class() {
    let r = lab_report("allowed-topologies.yaml", None);
    // Without the class's topology Karpenter would take us-east-1c here (the cheapest
    // offering's zone for this seed).
    assert_eq!(zone_of_pod(&r, "cache"), "us-east-1a", "{}", summary(&r));
    let claims = provisioned(&r);
    assert_eq!(
        claims
            .get("PersistentVolumeClaim/default/cache-scratch")
            .map(|(z, _)| z.as_str()),
        Some("us-east-1a"),
        "the ephemeral volume's claim is POD-VOLUME, provisioned in the pod's zone: {claims:?}"
    );
}

#[test]
fn a_missing_claim_leaves_the_pod_pending_with_kube_schedulers_reason() {
    let r = lab_report("missing-claim.yaml", None);
    assert!(nodes(&r).is_empty(), "nothing is launched\n{}", summary(&r));
    let pod = pod_named(&r, "reports");
    assert_eq!(str_of(pod, "phase"), Some("Pending"));
    let scheduler = str_of(pod, "schedulerMessage").unwrap_or_default();
    assert!(
        scheduler.contains("persistentvolumeclaim \"reports-data\" not found"),
        "{scheduler}"
    );
    let karpenter = str_of(pod, "message").unwrap_or_default();
    assert!(
        karpenter.contains("persistentvolumeclaims \"reports-data\" not found"),
        "{karpenter}"
    );
}

#[test]
fn a_node_attaches_no_more_volumes_than_its_instance_type_allows() {
    // When the first node is Ready, kube-scheduler binds 26 pods (an m5.xlarge's EBS limit
    // less the root volume) and refuses the rest.
    let early = lab_report("attach-limits.yaml", Some("1m"));
    let refused: Vec<&Value> = pods(&early)
        .into_iter()
        .filter(|p| {
            str_of(p, "schedulerMessage")
                .is_some_and(|m| m.contains("node(s) exceed max volume count"))
        })
        .collect();
    assert_eq!(refused.len(), 4, "{}", summary(&early));

    let r = lab_report("attach-limits.yaml", None);
    let mut per_node: BTreeMap<String, usize> = BTreeMap::new();
    for p in pods(&r) {
        assert_eq!(str_of(p, "phase"), Some("Running"), "{}", summary(&r));
        *per_node
            .entry(str_of(p, "node").unwrap().to_string())
            .or_default() += 1;
    }
    let mut counts: Vec<usize> = per_node.values().copied().collect();
    counts.sort();
    assert_eq!(counts, [4, 26], "{}", summary(&r));
}

#[test]
fn explain_names_the_claim_that_decides_a_pods_zone() {
    let r = lab_report("volumes-statefulset.yaml", None);
    let (zone, _) = &provisioned(&r)["PersistentVolumeClaim/default/data-db-0"];
    let path = lab("volumes/volumes-statefulset.yaml");
    let out = kpg(&[
        "explain",
        path.to_str().unwrap(),
        "--pod",
        "default/db-0",
        "--output",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let e: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let said = format!("zone {zone}: claim data-db-0 is bound to a volume in {zone}");
    let summary = str_of(&e, "summary").unwrap_or_default();
    assert!(
        summary.contains(&format!("Zone {zone}: claim data-db-0")),
        "{summary}"
    );
    let volumes = e["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| str_of(s, "id") == Some("volumes"))
        .expect("a volumes section");
    assert!(
        volumes["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| str_of(l, "text") == Some(said.as_str())),
        "{volumes}"
    );
}

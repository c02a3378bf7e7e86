//! The snapshot read back: counts, placement, ownership, NodeClaim ↔ Node, and the YAML and
//! JSON forms describing the same objects.

use std::collections::{BTreeMap, BTreeSet};

use granit_parser::{Event, Parser, ScalarStyle, StrInput};
use kpg_snapgen::{Format, Params, snapshot};
use serde_json::{Map, Value};

fn small(seed: u64) -> Params {
    Params {
        nodes: 40,
        pods: 700,
        seed,
        noise: true,
        ..Params::default()
    }
}

fn items(v: &Value) -> &Vec<Value> {
    v["items"].as_array().expect("items")
}

fn of_kind<'a>(v: &'a Value, kind: &str) -> Vec<&'a Value> {
    items(v).iter().filter(|o| o["kind"] == kind).collect()
}

/// `4`, `3920m` → millicores; `15227309Ki`, `1280Mi`, `2Gi`, `1024` → bytes.
fn cpu_m(q: &str) -> i64 {
    q.strip_suffix('m')
        .map(|m| m.parse().unwrap())
        .unwrap_or_else(|| q.parse::<i64>().unwrap() * 1000)
}

fn bytes(q: &str) -> i64 {
    for (suffix, mult) in [("Ki", 1i64 << 10), ("Mi", 1 << 20), ("Gi", 1 << 30)] {
        if let Some(n) = q.strip_suffix(suffix) {
            return n.parse::<i64>().unwrap() * mult;
        }
    }
    q.parse().unwrap()
}

#[test]
fn same_params_same_bytes_other_seed_other_bytes() {
    for format in [Format::Yaml, Format::Json] {
        let a = snapshot(&small(7), format);
        let b = snapshot(&small(7), format);
        assert!(a == b, "two runs differ ({format:?})");
        let c = snapshot(&small(8), format);
        assert_ne!(a, c, "another seed gave the same snapshot ({format:?})");
    }
}

#[test]
fn list_framing_is_kubectls() {
    let p = Params {
        nodes: 3,
        pods: 20,
        ..Params::default()
    };
    let y = snapshot(&p, Format::Yaml);
    assert!(
        y.starts_with("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n"),
        "{}",
        &y[..80]
    );
    assert!(y.ends_with("\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"));
    let j = snapshot(&p, Format::Json);
    assert!(j.starts_with(
        "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \
                \"apiVersion\": \"v1\",\n            \"kind\": \"Node\",\n",
    ),);
    assert!(j.ends_with(
        "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \
                \"\"\n    }\n}\n",
    ),);
}

#[test]
fn counts_placement_and_ownership() {
    let p = Params {
        nodes: 60,
        pods: 1500,
        seed: 3,
        ..Params::default()
    };
    let v: Value = serde_json::from_str(&snapshot(&p, Format::Json)).expect("JSON parses");
    let nodes = of_kind(&v, "Node");
    let pods = of_kind(&v, "Pod");
    assert_eq!(nodes.len(), p.nodes);
    assert_eq!(pods.len(), p.pods);

    // Every bound pod's node exists; the non-terminal pods' requests fit each node.
    let alloc: BTreeMap<&str, (i64, i64, i64)> = nodes
        .iter()
        .map(|n| {
            let a = &n["status"]["allocatable"];
            let name = n["metadata"]["name"].as_str().unwrap();
            (
                name,
                (
                    cpu_m(a["cpu"].as_str().unwrap()),
                    bytes(a["memory"].as_str().unwrap()),
                    a["pods"].as_str().unwrap().parse().unwrap(),
                ),
            )
        })
        .collect();
    let mut used: BTreeMap<&str, (i64, i64, i64)> = BTreeMap::new();
    let mut pending = 0;
    for pod in &pods {
        let phase = pod["status"]["phase"].as_str().unwrap();
        let Some(node) = pod["spec"]["nodeName"].as_str() else {
            assert_eq!(phase, "Pending");
            assert_eq!(pod["status"]["conditions"][0]["reason"], "Unschedulable");
            pending += 1;
            continue;
        };
        assert!(alloc.contains_key(node), "pod bound to unknown node {node}");
        if phase == "Succeeded" || phase == "Failed" {
            continue;
        }
        let (mut cpu, mut mem) = (0, 0);
        for c in pod["spec"]["containers"].as_array().unwrap() {
            let r = &c["resources"]["requests"];
            cpu += r["cpu"].as_str().map(cpu_m).unwrap_or(0);
            mem += r["memory"].as_str().map(bytes).unwrap_or(0);
        }
        let u = used.entry(node).or_default();
        u.0 += cpu;
        u.1 += mem;
        u.2 += 1;
    }
    assert!(pending >= 2, "the Pending pods are there");
    for (node, (cpu, mem, count)) in &used {
        let (ac, am, ap) = alloc[node];
        assert!(
            *cpu <= ac && *mem <= am && *count <= ap,
            "{node}: requests {cpu}m/{mem}B/{count} over {ac}m/{am}B/{ap}"
        );
    }
    // Some Karpenter node runs only DaemonSet pods; some are under half full.
    let ds_only = nodes.iter().filter(|n| {
        let name = n["metadata"]["name"].as_str().unwrap();
        n["metadata"]["labels"]["karpenter.sh/nodepool"].is_string()
            && pods
                .iter()
                .filter(|p| p["spec"]["nodeName"] == name)
                .all(|p| p["metadata"]["ownerReferences"][0]["kind"] == "DaemonSet")
    });
    assert!(ds_only.count() >= 1, "an empty node for the consolidator");

    // Pod → ReplicaSet → Deployment.
    let rs: BTreeMap<(&str, &str), &Value> = of_kind(&v, "ReplicaSet")
        .into_iter()
        .map(|r| {
            (
                (
                    r["metadata"]["namespace"].as_str().unwrap(),
                    r["metadata"]["name"].as_str().unwrap(),
                ),
                r,
            )
        })
        .collect();
    let deployments: BTreeSet<(&str, &str, &str)> = of_kind(&v, "Deployment")
        .into_iter()
        .map(|d| {
            (
                d["metadata"]["namespace"].as_str().unwrap(),
                d["metadata"]["name"].as_str().unwrap(),
                d["metadata"]["uid"].as_str().unwrap(),
            )
        })
        .collect();
    let mut rs_pods = 0;
    for pod in &pods {
        let owner = &pod["metadata"]["ownerReferences"][0];
        if owner["kind"] != "ReplicaSet" {
            continue;
        }
        rs_pods += 1;
        assert_eq!(owner["controller"], true);
        let ns = pod["metadata"]["namespace"].as_str().unwrap();
        let r = rs
            .get(&(ns, owner["name"].as_str().unwrap()))
            .expect("the pod's ReplicaSet is listed");
        assert_eq!(r["metadata"]["uid"], owner["uid"]);
        let hash = r["metadata"]["labels"]["pod-template-hash"]
            .as_str()
            .unwrap();
        assert_eq!(pod["metadata"]["labels"]["pod-template-hash"], hash);
        let d = &r["metadata"]["ownerReferences"][0];
        assert_eq!(d["kind"], "Deployment");
        assert!(deployments.contains(&(
            ns,
            d["name"].as_str().unwrap(),
            d["uid"].as_str().unwrap()
        )));
    }
    assert!(rs_pods > p.pods / 2);

    // DaemonSet pods: one per non-Fargate node, pinned with matchFields.
    for pod in pods
        .iter()
        .filter(|p| p["metadata"]["ownerReferences"][0]["kind"] == "DaemonSet")
    {
        let affinity = &pod["spec"]["affinity"]["nodeAffinity"];
        let required = &affinity["requiredDuringSchedulingIgnoredDuringExecution"];
        let term = &required["nodeSelectorTerms"][0];
        assert_eq!(term["matchFields"][0]["values"][0], pod["spec"]["nodeName"]);
    }

    // NodeClaim ↔ Node, and the hashes against the NodePools.
    let pool_hash: BTreeMap<&str, &str> = of_kind(&v, "NodePool")
        .into_iter()
        .map(|np| {
            (
                np["metadata"]["name"].as_str().unwrap(),
                np["metadata"]["annotations"]["karpenter.sh/nodepool-hash"]
                    .as_str()
                    .unwrap(),
            )
        })
        .collect();
    let by_name: BTreeMap<&str, &Value> = nodes
        .iter()
        .map(|n| (n["metadata"]["name"].as_str().unwrap(), *n))
        .collect();
    let claims = of_kind(&v, "NodeClaim");
    assert_eq!(
        claims.len(),
        nodes
            .iter()
            .filter(|n| n["metadata"]["labels"]["karpenter.sh/nodepool"].is_string())
            .count()
    );
    let mut drifted = 0;
    for c in &claims {
        let node = by_name[c["status"]["nodeName"].as_str().unwrap()];
        assert_eq!(
            node["metadata"]["ownerReferences"][0]["name"],
            c["metadata"]["name"]
        );
        assert_eq!(
            node["metadata"]["ownerReferences"][0]["uid"],
            c["metadata"]["uid"]
        );
        assert_eq!(node["spec"]["providerID"], c["status"]["providerID"]);
        let pool = c["metadata"]["labels"]["karpenter.sh/nodepool"]
            .as_str()
            .unwrap();
        assert_eq!(node["metadata"]["labels"]["karpenter.sh/nodepool"], pool);
        assert_eq!(c["metadata"]["ownerReferences"][0]["name"], pool);
        let hash = c["metadata"]["annotations"]["karpenter.sh/nodepool-hash"]
            .as_str()
            .unwrap();
        assert_eq!(
            node["metadata"]["annotations"]["karpenter.sh/nodepool-hash"],
            hash
        );
        let is_drifted = c["status"]["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["type"] == "Drifted");
        if is_drifted {
            drifted += 1;
            assert_ne!(hash, pool_hash[pool]);
        } else {
            assert_eq!(hash, pool_hash[pool]);
        }
    }
    assert!(drifted > 0);
}

/// The YAML form read back as JSON values (plain `null`/`true`/`false`/integers typed, every
/// quoted or block scalar a string).
fn yaml_to_json(text: &str) -> Value {
    enum Frame {
        Map(Map<String, Value>, Option<String>),
        Seq(Vec<Value>),
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut root = None;
    let push = |stack: &mut Vec<Frame>, v: Value, root: &mut Option<Value>| match stack.last_mut() {
        Some(Frame::Map(m, key)) => match key.take() {
            None => *key = Some(v.as_str().expect("string keys").to_string()),
            Some(k) => {
                m.insert(k, v);
            }
        },
        Some(Frame::Seq(s)) => s.push(v),
        None => *root = Some(v),
    };
    for ev in Parser::new(StrInput::new(text)) {
        let (ev, _) = ev.expect("the YAML parses");
        match ev {
            Event::MappingStart(..) => stack.push(Frame::Map(Map::new(), None)),
            Event::SequenceStart(..) => stack.push(Frame::Seq(Vec::new())),
            Event::MappingEnd => {
                let Some(Frame::Map(m, _)) = stack.pop() else {
                    panic!("unbalanced")
                };
                push(&mut stack, Value::Object(m), &mut root);
            }
            Event::SequenceEnd => {
                let Some(Frame::Seq(s)) = stack.pop() else {
                    panic!("unbalanced")
                };
                push(&mut stack, Value::Array(s), &mut root);
            }
            Event::Scalar(s, style, _, _) => {
                let v = if style == ScalarStyle::Plain
                    && !matches!(stack.last(), Some(Frame::Map(_, None)))
                {
                    match s.as_ref() {
                        "null" => Value::Null,
                        "true" => Value::Bool(true),
                        "false" => Value::Bool(false),
                        t => t
                            .parse::<i64>()
                            .map(Value::from)
                            .unwrap_or_else(|_| Value::String(t.to_string())),
                    }
                } else {
                    Value::String(s.into_owned())
                };
                push(&mut stack, v, &mut root);
            }
            _ => {}
        }
    }
    root.expect("a document")
}

#[test]
fn yaml_and_json_describe_the_same_objects() {
    let p = small(11);
    let from_json: Value = serde_json::from_str(&snapshot(&p, Format::Json)).expect("JSON parses");
    let from_yaml = yaml_to_json(&snapshot(&p, Format::Yaml));
    assert_eq!(items(&from_json).len(), items(&from_yaml).len());
    for (j, y) in items(&from_json).iter().zip(items(&from_yaml)) {
        assert!(j == y, "{} {} differs", j["kind"], j["metadata"]["name"]);
    }
    assert_eq!(from_json, from_yaml);
}

#[test]
fn managed_fields_and_size_follow_the_params() {
    let with = snapshot(
        &Params {
            nodes: 10,
            pods: 200,
            ..Params::default()
        },
        Format::Yaml,
    );
    let without = snapshot(
        &Params {
            nodes: 10,
            pods: 200,
            managed_fields: false,
            ..Params::default()
        },
        Format::Yaml,
    );
    assert!(with.contains("managedFields:") && !without.contains("managedFields:"));
    assert!(
        with.len() * 2 > 3 * without.len(),
        "managedFields are a large share of the bytes"
    );
    // A Karpenter node's labels and annotations as Karpenter writes them.
    assert!(with.contains("karpenter.sh/nodepool-hash-version: v3"));
    assert!(with.contains("karpenter.k8s.aws/ec2nodeclass-hash-version: v4"));
    assert!(
        with.contains("kind: Node\n") && with.contains("eks.amazonaws.com/compute-type: fargate")
    );
}

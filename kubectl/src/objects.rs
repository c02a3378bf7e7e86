//! The simulated cluster's objects as the API server would serve them (JSON trees): what
//! `-o yaml|json` prints and what `describe` of the Karpenter kinds walks. Spec comes from
//! the engine where it keeps it (nodes, NodeClaims, pods' scheduling) and from the
//! manifests otherwise; status is the engine's.

use kpg_core::model::{Millis, StringMap, WorkloadKind};
use kpg_core::pod::{Phase, Pod};
use kpg_core::resources::{ResourceName, Resources};
use kpg_core::sim::{EventKind, Node, NodeState};
use kpg_core::taints::Taint;
use serde_json::{Map, Value, json};

use crate::format::{self, rfc3339};
use crate::state::{self, State};

fn string_map(m: &StringMap) -> Value {
    Value::Object(
        m.iter()
            .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
            .collect(),
    )
}

pub fn resource_map(r: &Resources, names: &[ResourceName]) -> Value {
    Value::Object(
        names
            .iter()
            .map(|&n| {
                (
                    n.as_str().to_string(),
                    Value::from(format::quantity(n, r.get(n))),
                )
            })
            .collect(),
    )
}

/// Names of the resources a node reports, in the API's order.
pub fn node_resources(node: &Node) -> Vec<ResourceName> {
    let mut names = vec![
        ResourceName::Cpu,
        ResourceName::EphemeralStorage,
        ResourceName::Memory,
        ResourceName::Pods,
    ];
    for (r, _) in node.capacity.iter() {
        if !names.contains(&r) && r != ResourceName::Other {
            names.push(r);
        }
    }
    crate::order::by_text(&mut names, |r| r.as_str().to_string());
    names
}

fn taints(list: &[Taint]) -> Value {
    Value::Array(
        list.iter()
            .map(|t| {
                let mut m = Map::new();
                m.insert("effect".into(), Value::from(t.effect.as_str()));
                m.insert("key".into(), Value::from(t.key.as_str()));
                if !t.value.is_empty() {
                    m.insert("value".into(), Value::from(t.value.as_str()));
                }
                Value::Object(m)
            })
            .collect(),
    )
}

fn metadata(
    name: &str,
    namespace: Option<&str>,
    created: Millis,
    labels: &StringMap,
    annotations: &StringMap,
) -> Map<String, Value> {
    let mut m = Map::new();
    if !annotations.is_empty() {
        m.insert("annotations".into(), string_map(annotations));
    }
    m.insert("creationTimestamp".into(), Value::from(rfc3339(created)));
    if !labels.is_empty() {
        m.insert("labels".into(), string_map(labels));
    }
    m.insert("name".into(), Value::from(name));
    if let Some(ns) = namespace {
        m.insert("namespace".into(), Value::from(ns));
    }
    m.insert(
        "uid".into(),
        Value::from(format::uuid(&format!(
            "{}/{name}",
            namespace.unwrap_or_default()
        ))),
    );
    m
}

fn condition(kind: &str, status: bool, at: Millis, reason: &str, message: &str) -> Value {
    json!({
        "lastTransitionTime": rfc3339(at),
        "message": message,
        "reason": reason,
        "status": if status { "True" } else { "False" },
        "type": kind
    })
}

/// The OS image, kernel and runtime a node reports, by AMI family (from its EC2NodeClass).
pub fn node_info(state: &State, node: &Node) -> (&'static str, String, &'static str) {
    let family = ami_family(state, node);
    let arch = if node.arch == "arm64" {
        "aarch64"
    } else {
        "x86_64"
    };
    match family.as_str() {
        "bottlerocket" => (
            "Bottlerocket OS 1.49.0 (aws-k8s-1.34)",
            String::from("6.12.46"),
            "containerd://2.0.6+bottlerocket",
        ),
        "al2" => (
            "Amazon Linux 2",
            format!("5.10.245-241.976.amzn2.{arch}"),
            "containerd://1.7.27",
        ),
        f if f.starts_with("windows") => (
            "Windows Server 2022 Datacenter",
            String::from("10.0.20348.4405"),
            "containerd://1.7.27",
        ),
        _ => (
            "Amazon Linux 2023.9.20251117",
            format!("6.12.46-66.121.amzn2023.{arch}"),
            "containerd://2.1.4",
        ),
    }
}

/// The `amiSelectorTerms` alias family of a node's EC2NodeClass (`al2023` for fixed nodes).
pub fn ami_family(state: &State, node: &Node) -> String {
    let class = node_class_name(state, node);
    class
        .and_then(|c| state.declared("EC2NodeClass", "", &c))
        .and_then(|d| {
            d.value
                .pointer("/spec/amiSelectorTerms/0/alias")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .map(|a| a.split('@').next().unwrap_or("al2023").to_ascii_lowercase())
        .unwrap_or_else(|| String::from("al2023"))
}

pub fn node_class_name(state: &State, node: &Node) -> Option<String> {
    let p = node.nodepool?;
    state
        .sim
        .node_pools()
        .nth(p)
        .map(|(np, _)| np.node_class_ref.name.clone())
}

pub fn node(state: &State, node: &Node) -> Value {
    let mut annotations = StringMap::new();
    annotations.insert(
        "alpha.kubernetes.io/provided-node-ip".into(),
        format::node_ip(&node.name),
    );
    annotations.insert("node.alpha.kubernetes.io/ttl".into(), "0".into());
    annotations.insert(
        "volumes.kubernetes.io/controller-managed-attach-detach".into(),
        "true".into(),
    );
    if node.nodeclaim.is_some() {
        for (k, v) in &node.annotations {
            annotations.insert(k.clone(), v.clone());
        }
    }
    let labels = node.labels.clone();
    let mut meta = metadata(&node.name, None, node.created_at, &labels, &annotations);
    meta.remove("uid");
    meta.insert(
        "uid".into(),
        Value::from(format::uuid(&format!("node/{}", node.name))),
    );
    let mut spec = Map::new();
    spec.insert(
        "providerID".into(),
        Value::from(format::provider_id(&node.zone, &node.name)),
    );
    let all_taints: Vec<Taint> = node
        .taints
        .iter()
        .chain(node.startup_taints.iter())
        .cloned()
        .collect();
    if !all_taints.is_empty() {
        spec.insert("taints".into(), taints(&all_taints));
    }
    if state::cordoned(node) {
        spec.insert("unschedulable".into(), Value::from(true));
    }
    let names = node_resources(node);
    let ready_at = node.initialized_at.unwrap_or(node.created_at);
    let ready = state::node_ready(node);
    let (os, kernel, runtime) = node_info(state, node);
    let mut status = json!({
        "addresses": [
            {"address": format::node_ip(&node.name), "type": "InternalIP"},
            {"address": node.name, "type": "Hostname"},
        ],
        "allocatable": resource_map(&node.allocatable, &names),
        "capacity": resource_map(&node.capacity, &names),
        "conditions": [
            condition("MemoryPressure", false, node.created_at,
                "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
            condition("DiskPressure", false, node.created_at,
                "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            condition("PIDPressure", false, node.created_at,
                "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
            if ready {
                condition("Ready", true, ready_at,
                    "KubeletReady", "kubelet is posting ready status")
            } else if let Some((status, since)) = node.conditions.get("Ready") {
                // A Timeline `nodeCondition` step: the kubelet's words, or the node lifecycle
                // controller's once the kubelet stops posting.
                let mut c = if status == "Unknown" {
                    condition("Ready", false, *since, "NodeStatusUnknown",
                        "Kubelet stopped posting node status.")
                } else {
                    condition("Ready", false, *since, "KubeletNotReady",
                        "container runtime is down")
                };
                c["status"] = Value::from(status.as_str());
                c
            } else {
                condition("Ready", false, node.created_at, "KubeletNotReady",
                    "container runtime network not ready: NetworkReady=false \
                     reason:NetworkPluginNotReady message:Network plugin returns error: cni \
                     plugin not initialized")
            },
        ],
        "nodeInfo": {
            "architecture": node.arch,
            "containerRuntimeVersion": runtime,
            "kernelVersion": kernel,
            "kubeProxyVersion": "",
            "kubeletVersion": format::NODE_VERSION,
            "operatingSystem": node.labels.get("kubernetes.io/os").map_or("linux", String::as_str),
            "osImage": os,
        },
    });
    // The node monitoring agent's conditions a Timeline step set (`KernelReady`, ...).
    if let Some(list) = status["conditions"].as_array_mut() {
        for (kind, (s, since)) in node.conditions.iter().filter(|(k, _)| *k != "Ready") {
            let mut c = condition(kind, false, *since, kind, "set by the Timeline");
            c["status"] = Value::from(s.as_str());
            list.push(c);
        }
    }
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": Value::Object(meta),
        "spec": Value::Object(spec),
        "status": status
    })
}

pub fn nodeclaim(state: &State, node: &Node) -> Value {
    let name = node.nodeclaim.clone().unwrap_or_default();
    let pool = state.pool_name(node).unwrap_or_default().to_string();
    let launched = state::launched(node);
    let registered = node.labels.contains_key(kpg_core::wellknown::REGISTERED);
    let initialized = node.initialized_at.is_some();
    let mut labels = node.labels.clone();
    if !launched {
        for k in [
            kpg_core::wellknown::INSTANCE_TYPE,
            kpg_core::wellknown::ZONE,
            kpg_core::wellknown::CAPACITY_TYPE,
        ] {
            labels.remove(k);
        }
    }
    labels.remove(kpg_core::wellknown::HOSTNAME);
    labels.remove(kpg_core::wellknown::REGISTERED);
    labels.remove(kpg_core::wellknown::INITIALIZED);
    let mut annotations = node.annotations.clone();
    annotations.insert(
        "karpenter.k8s.aws/ec2nodeclass-hash".into(),
        node.node_class_hash.to_string(),
    );
    annotations.insert(
        "karpenter.sh/nodepool-hash".into(),
        node.pool_hash.to_string(),
    );
    let mut meta = metadata(&name, None, node.created_at, &labels, &annotations);
    meta.insert("finalizers".into(), json!(["karpenter.sh/termination"]));
    meta.insert(
        "ownerReferences".into(),
        json!([{
            "apiVersion": "karpenter.sh/v1",
            "blockOwnerDeletion": true,
            "kind": "NodePool",
            "name": pool,
            "uid": format::uuid(&format!("/{pool}"))
        }]),
    );
    if let Some(at) = node.deleting_since {
        meta.insert("deletionTimestamp".into(), Value::from(rfc3339(at)));
    }
    let class = node_class_name(state, node).unwrap_or_default();
    let mut spec = Map::new();
    spec.insert(
        "nodeClassRef".into(),
        json!({"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": class}),
    );
    let mut reqs: Vec<Value> = Vec::new();
    // What the NodeClaim was created with (its NodePool's and its pods' requirements), as
    // the provisioner recorded it; a NodeClaim without a record shows its node's labels.
    let index = state.sim.nodes().iter().position(|x| std::ptr::eq(x, node));
    let record = index.and_then(|i| state.sim.evidence().claims.get(&i));
    let requirements = record.map_or(&node.requirements, |r| &r.requirements);
    // Karpenter's scheduler pins a placeholder hostname while it packs pods; the NodeClaim
    // it creates carries no hostname requirement.
    for r in requirements
        .iter()
        .filter(|r| r.key != kpg_core::wellknown::HOSTNAME)
    {
        let values: Vec<Value> = r.values().iter().map(|v| Value::from(v.as_str())).collect();
        let mut m = Map::new();
        m.insert("key".into(), Value::from(r.key.as_str()));
        m.insert("operator".into(), Value::from(r.operator().as_str()));
        if !values.is_empty() {
            m.insert("values".into(), Value::Array(values));
        }
        reqs.push(Value::Object(m));
    }
    spec.insert("requirements".into(), Value::Array(reqs));
    if let Some(r) = record {
        spec.insert(
            "resources".into(),
            serde_json::json!({
                "requests": resource_map(&r.requests,
                    &[ResourceName::Cpu, ResourceName::Memory, ResourceName::Pods])
            }),
        );
    }
    if !node.taints.is_empty() {
        let own: Vec<Taint> = node
            .taints
            .iter()
            .filter(|t| t.key != kpg_core::wellknown::DISRUPTED_TAINT)
            .cloned()
            .collect();
        if !own.is_empty() {
            spec.insert("taints".into(), taints(&own));
        }
    }
    // The NodePool's own text where it declares one (the API keeps the string as written).
    let declared_expiry = state.declared("NodePool", "", &pool).and_then(|d| {
        d.value
            .pointer("/spec/template/spec/expireAfter")
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    match (
        declared_expiry,
        node.expire_at
            .map(|at| at.saturating_sub(node.created_at) + node.age_at_start),
    ) {
        (Some(text), _) => {
            spec.insert("expireAfter".into(), Value::from(text));
        }
        (None, Some(ms)) => {
            spec.insert(
                "expireAfter".into(),
                Value::from(kpg_core::duration::format(ms)),
            );
        }
        (None, None) => {
            spec.insert("expireAfter".into(), Value::from("Never"));
        }
    }
    let names = node_resources(node);
    let mut status = Map::new();
    let mut conditions = Vec::new();
    if launched {
        status.insert(
            "allocatable".into(),
            resource_map(&node.allocatable, &names),
        );
        status.insert("capacity".into(), resource_map(&node.capacity, &names));
        status.insert("imageID".into(), Value::from(node.image_id.as_str()));
        status.insert(
            "providerID".into(),
            Value::from(format::provider_id(&node.zone, &name)),
        );
    }
    if registered {
        status.insert("nodeName".into(), Value::from(node.name.as_str()));
    }
    let at = node.created_at;
    let event_at = |is: fn(&EventKind) -> bool| {
        state
            .events_of(&format!("NodeClaim/{name}"))
            .iter()
            .find(|e| is(&e.kind))
            .map_or(at, |e| e.time)
    };
    if let Some((since, why)) = node.drifted {
        conditions.push(json!({
            "lastTransitionTime": rfc3339(since),
            "message": "",
            "reason": why.as_str(),
            "status": "True",
            "type": "Drifted"
        }));
    }
    conditions.push(status_condition(
        "Initialized",
        initialized,
        node.initialized_at.unwrap_or(at),
    ));
    conditions.push(status_condition(
        "Launched",
        launched,
        if launched {
            event_at(|k| matches!(k, EventKind::Launched { .. }))
        } else {
            at
        },
    ));
    conditions.push(status_condition(
        "Registered",
        registered,
        if registered {
            event_at(|k| matches!(k, EventKind::Registered { .. }))
        } else {
            at
        },
    ));
    conditions.push(status_condition(
        "Ready",
        initialized,
        node.initialized_at.unwrap_or(at),
    ));
    status.insert("conditions".into(), Value::Array(conditions));
    json!({
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodeClaim",
        "metadata": Value::Object(meta),
        "spec": Value::Object(spec),
        "status": Value::Object(status)
    })
}

fn status_condition(kind: &str, done: bool, at: Millis) -> Value {
    if done {
        json!({
            "lastTransitionTime": rfc3339(at),
            "message": "",
            "observedGeneration": 1,
            "reason": kind,
            "status": "True",
            "type": kind
        })
    } else {
        let reason = match kind {
            "Launched" => "AwaitingLaunch",
            "Registered" => "AwaitingRegistration",
            "Initialized" => "AwaitingInitialization",
            _ => "AwaitingReconciliation",
        };
        json!({
            "lastTransitionTime": rfc3339(at),
            "message": "",
            "observedGeneration": 1,
            "reason": reason,
            "status": "Unknown",
            "type": kind
        })
    }
}

/// A declared object with its metadata filled in as the API server does.
fn declared_object(d: &crate::state::Declared) -> Map<String, Value> {
    let mut obj = d.value.as_object().cloned().unwrap_or_default();
    let meta = obj
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(m) = meta.as_object_mut() {
        m.insert("creationTimestamp".into(), Value::from(rfc3339(d.created)));
        if !d.namespace.is_empty() {
            m.insert("namespace".into(), Value::from(d.namespace.as_str()));
        }
        m.insert("generation".into(), Value::from(1));
        m.insert(
            "uid".into(),
            Value::from(format::uuid(&format!(
                "{}/{}/{}",
                d.kind, d.namespace, d.name
            ))),
        );
        if d.kind == "EC2NodeClass" {
            // The AWS provider's nodeclass controller adds it to every class it sees.
            m.insert(
                "finalizers".into(),
                json!(["karpenter.k8s.aws/termination"]),
            );
        }
        if let Some(at) = d.deleted {
            m.insert("deletionTimestamp".into(), Value::from(rfc3339(at)));
        }
    }
    obj.remove("status");
    obj
}

pub fn nodepool(state: &State, name: &str) -> Option<Value> {
    let (index, np) = state.pool(name)?;
    let mut obj = match state.declared("NodePool", "", name) {
        Some(d) => declared_object(d),
        None => {
            let mut m = Map::new();
            m.insert("apiVersion".into(), Value::from("karpenter.sh/v1"));
            m.insert("kind".into(), Value::from("NodePool"));
            m.insert(
                "metadata".into(),
                Value::Object(metadata(
                    name,
                    None,
                    0,
                    &StringMap::new(),
                    &StringMap::new(),
                )),
            );
            m
        }
    };
    let report = state.sim.report();
    let r = report.nodepools.iter().find(|p| p.name == name);
    let ready = state.sim.node_pool_ready(index);
    let mut resources = Map::new();
    if let Some(r) = r {
        for (k, v) in &r.resources {
            resources.insert(k.clone(), Value::from(v.as_str()));
        }
        resources.insert("nodes".into(), Value::from(r.nodes.to_string()));
    }
    let created = state.pool_created(name);
    let message = state.sim.node_pool_not_ready(index).unwrap_or_default();
    let status = json!({
        "conditions": [
            {
                "lastTransitionTime": rfc3339(created),
                "message": "",
                "observedGeneration": 1,
                "reason": "NodeClassReady",
                "status": if ready {"True"} else {"False"},
                "type": "NodeClassReady"
            },
            {
                "lastTransitionTime": rfc3339(created),
                "message": message,
                "observedGeneration": 1,
                "reason": if ready {"Ready"} else {"NodeClassNotReady"},
                "status": if ready {"True"} else {"False"},
                "type": "Ready"
            },
            {
                "lastTransitionTime": rfc3339(created),
                "message": np.invalid.clone().unwrap_or_default(),
                "observedGeneration": 1,
                "reason": if np.invalid.is_none() {"ValidationSucceeded"} else {"ValidationFailed"},
                "status": if np.invalid.is_none() {"True"} else {"False"},
                "type": "ValidationSucceeded"
            },
        ],
        "nodes": r.map_or(0, |r| r.nodes),
        "resources": Value::Object(resources),
    });
    obj.insert("status".into(), status);
    Some(Value::Object(obj))
}

pub fn nodeclass(state: &State, d: &crate::state::Declared) -> Value {
    let mut obj = declared_object(d);
    let at = d.created;
    let cond = |t: &str| {
        json!({
            "lastTransitionTime": rfc3339(at),
            "message": "",
            "observedGeneration": 1,
            "reason": t,
            "status": "True",
            "type": t
        })
    };
    let ami = state
        .sim
        .nodes()
        .iter()
        .filter(|n| !n.deleted && node_class_name(state, n).as_deref() == Some(d.name.as_str()))
        .map(|n| n.image_id.clone())
        .rfind(|i| !i.is_empty());
    let mut status = Map::new();
    if let Some(id) = ami {
        status.insert(
            "amis".into(),
            json!([{
                "id": id,
                "name": d.value.pointer("/spec/amiSelectorTerms/0/alias")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
            }]),
        );
    }
    status.insert(
        "conditions".into(),
        json!([
            cond("AMIsReady"),
            cond("InstanceProfileReady"),
            cond("Ready"),
            cond("SecurityGroupsReady"),
            cond("SubnetsReady"),
            cond("ValidationSucceeded")
        ]),
    );
    if let Some(role) = d.value.pointer("/spec/role").and_then(Value::as_str) {
        let cluster = role.rsplit('-').next().unwrap_or(role);
        status.insert(
            "instanceProfile".into(),
            Value::from(format!("{cluster}_{}", format::fnv1a(role))),
        );
    }
    obj.insert("status".into(), Value::Object(status));
    Value::Object(obj)
}

/// The labels a pod carries, with the ones its controller adds.
pub fn pod_labels(pod: &Pod) -> StringMap {
    let mut labels = pod.labels.clone();
    match &pod.owner {
        Some((WorkloadKind::Deployment, _)) => {
            if let Some(rs) = state::replicaset_of(pod) {
                let hash = rs.rsplit('-').next().unwrap_or_default().to_string();
                labels.insert("pod-template-hash".into(), hash);
            }
        }
        Some((WorkloadKind::Job, name)) => {
            labels.insert("batch.kubernetes.io/job-name".into(), name.clone());
            labels.insert("job-name".into(), name.clone());
        }
        Some((WorkloadKind::StatefulSet, _)) => {
            labels.insert(
                "statefulset.kubernetes.io/pod-name".into(),
                pod.name.clone(),
            );
        }
        _ => {}
    }
    labels
}

/// `Kind/name` of the pod's direct controller (`ReplicaSet/web-5d8f7c9b4` for a Deployment).
pub fn controller(pod: &Pod) -> Option<(String, String)> {
    match &pod.owner {
        Some((WorkloadKind::Deployment, _)) => {
            state::replicaset_of(pod).map(|rs| (String::from("ReplicaSet"), rs))
        }
        Some((WorkloadKind::DaemonSet, n)) => Some((String::from("DaemonSet"), n.clone())),
        Some((k, n)) if *k != WorkloadKind::Pod => Some((k.as_str().to_string(), n.clone())),
        _ => None,
    }
}

pub fn pod(state: &State, pod: &Pod) -> Value {
    let labels = pod_labels(pod);
    let mut meta = metadata(
        &pod.name,
        Some(&pod.namespace),
        pod.created_at,
        &labels,
        &pod.annotations,
    );
    if let Some((kind, name)) = controller(pod) {
        let api = if kind == "Job" { "batch/v1" } else { "apps/v1" };
        meta.insert(
            "ownerReferences".into(),
            json!([{
                "apiVersion": api,
                "blockOwnerDeletion": true,
                "controller": true,
                "kind": kind,
                "name": name,
                "uid": format::uuid(&format!("{kind}/{}/{name}", pod.namespace))
            }]),
        );
    }
    let (kind, name) = match &pod.owner {
        Some((k, n)) => (k.as_str(), n.as_str()),
        None => ("Pod", pod.name.as_str()),
    };
    let template = state.declared(kind, &pod.namespace, name).and_then(|d| {
        if kind == "Pod" {
            d.value.get("spec")
        } else {
            d.value.pointer("/spec/template/spec")
        }
    });
    let mut spec = template
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if !spec.contains_key("containers") {
        spec.insert(
            "containers".into(),
            Value::Array(
                pod.spec
                    .containers
                    .iter()
                    .map(|c| json!({"name": c.name}))
                    .collect(),
            ),
        );
    }
    if let Some(n) = pod.node.and_then(|n| state.node_name(n)) {
        spec.insert("nodeName".into(), Value::from(n));
    }
    spec.entry("restartPolicy")
        .or_insert_with(|| Value::from(if kind == "Job" { "Never" } else { "Always" }));
    spec.entry("schedulerName")
        .or_insert_with(|| Value::from("default-scheduler"));
    spec.entry("serviceAccountName")
        .or_insert_with(|| Value::from("default"));
    spec.entry("terminationGracePeriodSeconds")
        .or_insert_with(|| Value::from(30));
    let mut status = Map::new();
    let bound = pod.node.is_some();
    let mut conditions = Vec::new();
    let started = pod.started_at.unwrap_or(pod.created_at);
    if bound {
        let running = pod.phase == Phase::Running;
        conditions.push(json!({
            "lastTransitionTime": rfc3339(started),
            "status": if running {"True"} else {"False"},
            "type": "Ready"
        }));
        conditions.push(json!({
            "lastTransitionTime": rfc3339(started),
            "status": "True",
            "type": "PodScheduled"
        }));
        if let Some(node) = pod.node.and_then(|n| state.sim.nodes().get(n)) {
            status.insert("hostIP".into(), Value::from(format::node_ip(&node.name)));
        }
        if pod.phase != Phase::Pending {
            let ip = format::pod_ip(&pod.namespace, &pod.name);
            status.insert("podIP".into(), Value::from(ip.as_str()));
            status.insert("podIPs".into(), json!([{"ip": ip}]));
        }
        status.insert("startTime".into(), Value::from(rfc3339(started)));
    } else {
        let message = pod
            .karpenter_message
            .clone()
            .or_else(|| pod.scheduler_message.clone())
            .unwrap_or_default();
        conditions.push(json!({
            "lastTransitionTime": rfc3339(pod.created_at),
            "message": message,
            "reason": "Unschedulable",
            "status": "False",
            "type": "PodScheduled"
        }));
    }
    status.insert("conditions".into(), Value::Array(conditions));
    // kube-scheduler's nomination after it preempted pods for this one.
    if let Some(n) = pod
        .nominated_node
        .filter(|_| !bound)
        .and_then(|n| state.node_name(n))
    {
        status.insert("nominatedNodeName".into(), Value::from(n));
    }
    status.insert("phase".into(), Value::from(pod.phase.as_str()));
    status.insert("qosClass".into(), Value::from(qos_class(pod)));
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": Value::Object(meta),
        "spec": Value::Object(spec),
        "status": Value::Object(status)
    })
}

/// `qos.GetPodQOS`: Guaranteed when every container's cpu and memory requests equal their
/// limits, BestEffort with no requests or limits at all, Burstable otherwise.
pub fn qos_class(pod: &Pod) -> &'static str {
    let all: Vec<&kpg_core::model::Container> = pod
        .spec
        .containers
        .iter()
        .chain(pod.spec.init_containers.iter())
        .collect();
    let any = all
        .iter()
        .any(|c| !c.requests.is_zero() || !c.limits.is_zero());
    if !any {
        return "BestEffort";
    }
    let guaranteed = all.iter().all(|c| {
        [ResourceName::Cpu, ResourceName::Memory]
            .iter()
            .all(|&r| c.limits.get(r) > 0 && c.limits.get(r) == c.requests.get(r))
    });
    if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// A workload as declared, with the status its pods give it.
pub fn workload(state: &State, d: &crate::state::Declared) -> Value {
    let mut obj = declared_object(d);
    let kind = crate::kinds::Kind::from_kind(&d.kind).and_then(crate::kinds::Kind::workload);
    let pods = kind
        .map(|k| state.pods_of(k, &d.namespace, &d.name))
        .unwrap_or_default();
    let active = pods.iter().filter(|p| p.is_active()).count();
    let ready = pods.iter().filter(|p| p.phase == Phase::Running).count();
    let status = match d.kind.as_str() {
        "Job" => {
            let succeeded = pods.iter().filter(|p| p.phase == Phase::Succeeded).count();
            json!({
                "active": active,
                "ready": ready,
                "startTime": rfc3339(d.created),
                "succeeded": succeeded
            })
        }
        "DaemonSet" => {
            json!({
                "currentNumberScheduled": active,
                "desiredNumberScheduled": active,
                "numberAvailable": ready,
                "numberReady": ready,
                "updatedNumberScheduled": active
            })
        }
        _ => {
            json!({
                "availableReplicas": ready,
                "readyReplicas": ready,
                "replicas": active,
                "updatedReplicas": active
            })
        }
    };
    obj.insert("status".into(), status);
    Value::Object(obj)
}

pub fn node_state_word(node: &Node) -> &'static str {
    match node.state {
        NodeState::Launching | NodeState::Launched => "Launching",
        NodeState::Registered => "Registered",
        NodeState::Ready => "Ready",
        NodeState::Deleting => "Deleting",
    }
}

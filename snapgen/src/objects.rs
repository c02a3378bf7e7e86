//! Each object as the API server holds it (defaults, admission, controllers' status), and its
//! `managedFields` derived from the parts each manager owns.

use std::borrow::Cow;

use crate::plan::{
    CLASSES, NAMESPACES, NodeKind, POOL_CLASS, POOLS, Phase, Snapshot, WlKind, Workload, ip_string,
};
use crate::time::format as ts;
use crate::tree::V;
use crate::{list, map};

type Emit<'a> = dyn FnMut(V, &mut String) + 'a;

const KUBELET_VERSION: &str = "v1.33.5-eks-113cf36";
const FARGATE_KUBELET: &str = "v1.33.4-eks-3025e55";
const ECR: &str = "602401143452.dkr.ecr.us-east-1.amazonaws.com";
const PAUSE: &str = "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/pause:3.10";

/// Every object in kubectl's order.
pub(crate) fn each(s: &mut Snapshot, emit: &mut Emit, out: &mut String) {
    let mut by_node: Vec<Vec<usize>> = vec![Vec::new(); s.nodes.len()];
    for (i, p) in s.pods.iter().enumerate() {
        if let Some(n) = p.node {
            by_node[n].push(i);
        }
    }
    let mut order: Vec<usize> = (0..s.nodes.len()).collect();
    order.sort_by(|&a, &b| s.nodes[a].name.cmp(&s.nodes[b].name));
    for &n in &order {
        let o = node(s, n, &by_node[n]);
        emit(o, out);
    }
    let mut claims: Vec<usize> = (0..s.nodes.len())
        .filter(|&n| matches!(s.nodes[n].kind, NodeKind::Karpenter { .. }))
        .collect();
    claims.sort_by(|&a, &b| s.nodes[a].claim_name.cmp(&s.nodes[b].claim_name));
    for &n in &claims {
        let o = nodeclaim(s, n, &by_node[n]);
        emit(o, out);
    }
    for pool in [2usize, 0, 1] {
        let o = nodepool(s, pool);
        emit(o, out);
    }
    for class in 0..2 {
        let o = ec2nodeclass(s, class);
        emit(o, out);
    }
    let mut pods: Vec<usize> = (0..s.pods.len()).collect();
    pods.sort_by(|&a, &b| {
        let (pa, pb) = (&s.pods[a], &s.pods[b]);
        (s.workloads[pa.wl].ns, &pa.name).cmp(&(s.workloads[pb.wl].ns, &pb.name))
    });
    for &i in &pods {
        let o = pod(s, i);
        emit(o, out);
    }
    let sorted = |s: &Snapshot, kind: WlKind| {
        let mut v: Vec<usize> = (0..s.workloads.len())
            .filter(|&w| s.workloads[w].kind == kind)
            .collect();
        v.sort_by(|&a, &b| {
            (s.workloads[a].ns, &s.workloads[a].name)
                .cmp(&(s.workloads[b].ns, &s.workloads[b].name))
        });
        v
    };
    let deployments = sorted(s, WlKind::Deployment);
    for &w in &deployments {
        let o = deployment(s, w);
        emit(o, out);
    }
    // ReplicaSets: current and old, by namespace and name.
    let mut rs: Vec<(&'static str, String, usize, bool)> = Vec::new();
    for &w in &deployments {
        let wl = &s.workloads[w];
        rs.push((wl.ns, format!("{}-{}", wl.name, wl.hash), w, false));
        if let Some((h, _, _)) = &wl.old_rs {
            rs.push((wl.ns, format!("{}-{}", wl.name, h), w, true));
        }
    }
    rs.sort();
    for (_, _, w, old) in rs {
        let o = replicaset(s, w, old);
        emit(o, out);
    }
    for w in sorted(s, WlKind::StatefulSet) {
        let o = statefulset(s, w);
        emit(o, out);
    }
    for w in sorted(s, WlKind::DaemonSet) {
        let o = daemonset(s, w);
        emit(o, out);
    }
    for w in sorted(s, WlKind::Job) {
        let o = job(s, w);
        emit(o, out);
    }
    let mut pdbs: Vec<usize> = (0..s.workloads.len())
        .filter(|&w| s.workloads[w].pdb.is_some())
        .collect();
    pdbs.sort_by(|&a, &b| {
        (s.workloads[a].ns, &s.workloads[a].name).cmp(&(s.workloads[b].ns, &s.workloads[b].name))
    });
    for w in pdbs {
        let o = pdb(s, w);
        emit(o, out);
    }
    for i in 0..NAMESPACES.len() {
        let o = namespace(s, i);
        emit(o, out);
    }
    if s.p.noise {
        crate::objects::noise(s, emit, out, &deployments);
    }
}

// ---------------------------------------------------------------------------------------------
// metadata and managedFields

fn meta(
    s: &mut Snapshot,
    name: impl Into<V>,
    ns: Option<&'static str>,
    uid: &str,
    created: i64,
) -> V {
    let mut m = map! {
        "creationTimestamp" => ts(created),
        "name" => name.into(),
        "resourceVersion" => s.next_rv(),
        "uid" => uid.to_string(),
    };
    if let Some(ns) = ns {
        m.put("namespace", ns);
    }
    m
}

/// One `managedFields` entry: who, how, when, and the paths of the object it owns (a path
/// starting with `!` is taken out again).
struct Mf<'a> {
    manager: &'static str,
    op: &'static str,
    sub: Option<&'static str>,
    time: i64,
    api: &'static str,
    paths: &'a [&'a [&'a str]],
}

fn set_managed(s: &Snapshot, obj: &mut V, entries: &[Mf]) {
    if !s.p.managed_fields {
        return;
    }
    let mut list = Vec::with_capacity(entries.len());
    for e in entries {
        let mut proj = V::empty_map();
        for path in e.paths {
            if let Some(rest) = path.first().and_then(|f| f.strip_prefix('!')) {
                let mut p: Vec<&str> = vec![rest];
                p.extend_from_slice(&path[1..]);
                remove_path(&mut proj, &p);
                continue;
            }
            if let Some(v) = get_path(obj, path) {
                insert_path(&mut proj, path, v.clone());
            }
        }
        let mut entry = map! {
            "apiVersion" => e.api,
            "fieldsType" => "FieldsV1",
            "fieldsV1" => fields(&proj),
            "manager" => e.manager,
            "operation" => e.op,
            "time" => ts(e.time),
        };
        if let Some(sub) = e.sub {
            entry.put("subresource", sub);
        }
        list.push(entry);
    }
    if let Some(m) = obj.get_mut("metadata") {
        m.put("managedFields", V::List(list));
    }
}

fn get_path<'v>(v: &'v V, path: &[&str]) -> Option<&'v V> {
    let mut cur = v;
    for k in path {
        cur = cur.get(k)?;
    }
    Some(cur)
}

fn insert_path(root: &mut V, path: &[&str], v: V) {
    if path.len() == 1 {
        if let V::Map(m) = root {
            m.retain(|(k, _)| k != path[0]);
            m.push((Cow::Owned(path[0].to_string()), v));
        }
        return;
    }
    if root.get(path[0]).is_none() {
        root.put(path[0].to_string(), V::empty_map());
    }
    if let Some(child) = root.get_mut(path[0]) {
        insert_path(child, &path[1..], v);
    }
}

fn remove_path(root: &mut V, path: &[&str]) {
    if path.len() == 1 {
        if let V::Map(m) = root {
            m.retain(|(k, _)| k != path[0]);
        }
        return;
    }
    if let Some(child) = root.get_mut(path[0]) {
        remove_path(child, &path[1..]);
    }
}

/// fieldsV1 of a map: `f:<key>` per field, `k:{...}` per keyed list item, `v:"..."` per set
/// member, `.` where the manager owns the container itself.
fn fields(v: &V) -> V {
    let V::Map(m) = v else { return V::empty_map() };
    V::Map(
        m.iter()
            .map(|(k, c)| (Cow::Owned(format!("f:{k}")), field_value(k, c)))
            .collect(),
    )
}

fn field_value(k: &str, c: &V) -> V {
    match c {
        V::Map(m) if m.is_empty() => V::empty_map(),
        V::Map(_) if k == "selector" => V::empty_map(),
        V::Map(_) => {
            let mut inner = fields(c);
            if !matches!(
                k,
                "metadata"
                    | "spec"
                    | "status"
                    | "template"
                    | "strategy"
                    | "nodeInfo"
                    | "daemonEndpoints"
                    | "kubeletEndpoint"
            ) && let V::Map(im) = &mut inner
            {
                im.insert(0, (Cow::Borrowed("."), V::empty_map()));
            }
            inner
        }
        V::List(l) if k == "finalizers" => {
            let mut m = vec![(Cow::Borrowed("."), V::empty_map())];
            for item in l {
                let mut key = String::from("v:");
                crate::tree::json_string(item.as_str().unwrap_or(""), &mut key);
                m.push((Cow::Owned(key), V::empty_map()));
            }
            V::Map(m)
        }
        V::List(l) => {
            let Some(first) = l.first() else {
                return V::empty_map();
            };
            let keys: &[&str] = match k {
                "containers" | "initContainers" | "volumes" | "env" | "imagePullSecrets" => {
                    &["name"]
                }
                "volumeMounts" => &["mountPath"],
                "ports" if first.get("containerPort").is_some() => &["containerPort", "protocol"],
                "ports" if first.get("port").is_some() => &["port", "protocol"],
                "conditions" => &["type"],
                "ownerReferences" => &["uid"],
                "podIPs" | "hostIPs" => &["ip"],
                _ => return V::empty_map(),
            };
            let mut m = Vec::with_capacity(l.len());
            for item in l {
                let mut key = String::from("k:{");
                for (i, kf) in keys.iter().enumerate() {
                    if i > 0 {
                        key.push(',');
                    }
                    crate::tree::json_string(kf, &mut key);
                    key.push(':');
                    match item.get(kf) {
                        Some(V::Int(n)) => key.push_str(&n.to_string()),
                        Some(V::Str(s)) => crate::tree::json_string(s, &mut key),
                        _ => key.push_str("null"),
                    }
                }
                key.push('}');
                let mut inner = fields(item);
                if let V::Map(im) = &mut inner {
                    im.insert(0, (Cow::Borrowed("."), V::empty_map()));
                }
                m.push((Cow::Owned(key), inner));
            }
            V::Map(m)
        }
        _ => V::empty_map(),
    }
}

fn condition(t: i64, reason: &str, status: &str, typ: &str, message: &str) -> V {
    map! {
        "lastTransitionTime" => ts(t),
        "message" => message.to_string(),
        "reason" => reason.to_string(),
        "status" => status.to_string(),
        "type" => typ.to_string(),
    }
}

fn karpenter_condition(
    t: i64,
    typ: &str,
    status: &str,
    reason: &str,
    message: &str,
    generation: i64,
) -> V {
    condition(t, reason, status, typ, message).with("observedGeneration", generation)
}

fn quantity_mi(mi: i64) -> String {
    if mi % 1024 == 0 {
        format!("{}Gi", mi / 1024)
    } else {
        format!("{mi}Mi")
    }
}

fn cpu_q(m: i64) -> String {
    if m % 1000 == 0 {
        format!("{}", m / 1000)
    } else {
        format!("{m}m")
    }
}

// ---------------------------------------------------------------------------------------------
// Nodes and Karpenter

fn cpu_manufacturer(family: &str) -> &'static str {
    if family.ends_with('g')
        || family.contains("g.")
        || family.starts_with("m6g")
        || family.starts_with("c6g")
        || family.starts_with("r6g")
    {
        "aws"
    } else if family.ends_with('a') {
        "amd"
    } else {
        "intel"
    }
}

fn node_labels(s: &Snapshot, n: usize) -> V {
    let node = &s.nodes[n];
    let zone = &s.zones[node.zone];
    let region = s.p.region.as_str();
    let mut l: Vec<(String, String)> = vec![
        ("kubernetes.io/arch".into(), node.it.arch.clone()),
        ("kubernetes.io/hostname".into(), node.name.clone()),
        ("kubernetes.io/os".into(), "linux".into()),
        ("topology.k8s.aws/zone-id".into(), zone.id.clone()),
        ("topology.kubernetes.io/region".into(), region.into()),
        ("topology.kubernetes.io/zone".into(), zone.name.clone()),
        ("beta.kubernetes.io/arch".into(), node.it.arch.clone()),
        ("beta.kubernetes.io/os".into(), "linux".into()),
        (
            "failure-domain.beta.kubernetes.io/region".into(),
            region.into(),
        ),
        (
            "failure-domain.beta.kubernetes.io/zone".into(),
            zone.name.clone(),
        ),
    ];
    match node.kind {
        NodeKind::Fargate => {
            l.push(("eks.amazonaws.com/compute-type".into(), "fargate".into()));
            l.push((
                "eks.amazonaws.com/fargate-profile".into(),
                "fp-monitoring".into(),
            ));
            return V::Map(
                l.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), V::from(v)))
                    .collect(),
            );
        }
        NodeKind::Managed => {
            l.push(("eks.amazonaws.com/capacityType".into(), "ON_DEMAND".into()));
            l.push(("eks.amazonaws.com/nodegroup".into(), "system".into()));
            l.push(("eks.amazonaws.com/nodegroup-image".into(), node.ami.clone()));
            l.push((
                "eks.amazonaws.com/sourceLaunchTemplateId".into(),
                s.lt_id.clone(),
            ));
            l.push((
                "eks.amazonaws.com/sourceLaunchTemplateVersion".into(),
                "1".into(),
            ));
        }
        NodeKind::Karpenter { .. } => {}
    }
    l.push((
        "beta.kubernetes.io/instance-type".into(),
        node.it.name.clone(),
    ));
    l.push((
        "node.kubernetes.io/instance-type".into(),
        node.it.name.clone(),
    ));
    l.push((
        "k8s.io/cloud-provider-aws".into(),
        format!("{:016x}{:016x}", hash64(&s.cluster), hash64(&s.account)),
    ));
    if s.ds_count >= 3 {
        l.push(("topology.ebs.csi.aws.com/zone".into(), zone.name.clone()));
    }
    if let NodeKind::Karpenter { .. } = node.kind {
        for (k, v) in claim_labels(s, n) {
            if !l.iter().any(|(lk, _)| *lk == k) {
                l.push((k, v));
            }
        }
        l.push(("karpenter.sh/initialized".into(), "true".into()));
        l.push(("karpenter.sh/registered".into(), "true".into()));
    }
    V::Map(
        l.into_iter()
            .map(|(k, v)| (Cow::Owned(k), V::from(v)))
            .collect(),
    )
}

fn hash64(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The labels Karpenter puts on a NodeClaim (and so on its Node).
fn claim_labels(s: &Snapshot, n: usize) -> Vec<(String, String)> {
    let node = &s.nodes[n];
    let NodeKind::Karpenter { pool, .. } = node.kind else {
        return Vec::new();
    };
    let it = &node.it;
    let zone = &s.zones[node.zone];
    let mut l = vec![
        (
            "karpenter.k8s.aws/ec2nodeclass".to_string(),
            CLASSES[POOL_CLASS[pool]].to_string(),
        ),
        (
            "karpenter.k8s.aws/instance-category".into(),
            it.category.clone(),
        ),
        ("karpenter.k8s.aws/instance-cpu".into(), it.vcpu.to_string()),
        (
            "karpenter.k8s.aws/instance-cpu-manufacturer".into(),
            cpu_manufacturer(&it.family).into(),
        ),
        (
            "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz".into(),
            if it.arch == "arm64" { "2500" } else { "3100" }.into(),
        ),
        (
            "karpenter.k8s.aws/instance-ebs-bandwidth".into(),
            (it.network_mbps * 2 + 750).to_string(),
        ),
        (
            "karpenter.k8s.aws/instance-encryption-in-transit-supported".into(),
            (it.generation.as_str() >= "6").to_string(),
        ),
        (
            "karpenter.k8s.aws/instance-family".into(),
            it.family.clone(),
        ),
        (
            "karpenter.k8s.aws/instance-generation".into(),
            it.generation.clone(),
        ),
        (
            "karpenter.k8s.aws/instance-hypervisor".into(),
            it.hypervisor.clone(),
        ),
        (
            "karpenter.k8s.aws/instance-memory".into(),
            it.memory_mib.to_string(),
        ),
        (
            "karpenter.k8s.aws/instance-network-bandwidth".into(),
            it.network_mbps.to_string(),
        ),
        ("karpenter.k8s.aws/instance-size".into(), it.size.clone()),
        (
            "karpenter.sh/capacity-type".into(),
            if node.spot { "spot" } else { "on-demand" }.into(),
        ),
        ("karpenter.sh/do-not-sync-taints".into(), "true".into()),
        ("karpenter.sh/nodepool".into(), POOLS[pool].into()),
        ("kubernetes.io/arch".into(), it.arch.clone()),
        ("kubernetes.io/os".into(), "linux".into()),
        ("node.kubernetes.io/instance-type".into(), it.name.clone()),
        ("topology.k8s.aws/zone-id".into(), zone.id.clone()),
        ("topology.kubernetes.io/region".into(), s.p.region.clone()),
        ("topology.kubernetes.io/zone".into(), zone.name.clone()),
    ];
    if pool == 1 {
        l.push(("workload-type".into(), "interruptible".into()));
    }
    l
}

fn pool_taints(pool: usize) -> Option<V> {
    (pool == 2)
        .then(|| list![map! { "effect" => "NoSchedule", "key" => "arch", "value" => "arm64" }])
}

fn claim_annotations(s: &Snapshot, n: usize) -> Vec<(&'static str, String)> {
    let NodeKind::Karpenter { pool, drifted } = s.nodes[n].kind else {
        return Vec::new();
    };
    let hash = if drifted {
        s.p.drifted_nodepool_hashes[pool]
    } else {
        s.p.nodepool_hashes[pool]
    };
    vec![
        (
            "karpenter.k8s.aws/ec2nodeclass-hash",
            s.p.ec2nodeclass_hashes[POOL_CLASS[pool]].to_string(),
        ),
        ("karpenter.k8s.aws/ec2nodeclass-hash-version", "v4".into()),
        ("karpenter.sh/nodepool-hash", hash.to_string()),
        ("karpenter.sh/nodepool-hash-version", "v3".into()),
    ]
}

fn node(s: &mut Snapshot, n: usize, pods_here: &[usize]) -> V {
    let mut r = s.rng.fork(n as u64 ^ 0x6e6f_6465);
    let node = &s.nodes[n];
    let name = node.name.clone();
    let created = node.created;
    let uid = node.uid.clone();
    let ip = ip_string(node.ip);
    let kind = node.kind;
    let it = node.it.clone();
    let zone = s.zones[node.zone].name.clone();
    let mut md = meta(s, name.clone(), None, &uid, created);
    md.put("labels", node_labels(s, n));
    let node = &s.nodes[n];
    let mut ann = vec![
        ("alpha.kubernetes.io/provided-node-ip", ip.clone()),
        ("node.alpha.kubernetes.io/ttl", "0".to_string()),
        (
            "volumes.kubernetes.io/controller-managed-attach-detach",
            "true".to_string(),
        ),
    ];
    if s.ds_count >= 3 && kind != NodeKind::Fargate {
        ann.push((
            "csi.volume.kubernetes.io/nodeid",
            format!("{{\"ebs.csi.aws.com\":\"{}\"}}", node.instance_id),
        ));
    }
    ann.extend(claim_annotations(s, n));
    md.put(
        "annotations",
        V::Map(
            ann.into_iter()
                .map(|(k, v)| (Cow::Borrowed(k), V::from(v)))
                .collect(),
        ),
    );
    if let NodeKind::Karpenter { .. } = kind {
        md.put("finalizers", list!["karpenter.sh/termination"]);
        md.put(
            "ownerReferences",
            list![map! {
                "apiVersion" => "karpenter.sh/v1",
                "blockOwnerDeletion" => true,
                "kind" => "NodeClaim",
                "name" => node.claim_name.clone(),
                "uid" => node.claim_uid.clone(),
            }],
        );
    }
    let provider = match kind {
        NodeKind::Fargate => format!("aws:///{zone}/{}/{name}", r.hex(10)),
        _ => format!("aws:///{zone}/{}", node.instance_id),
    };
    let mut spec = map! { "providerID" => provider };
    match kind {
        NodeKind::Karpenter { pool, .. } => {
            if let Some(t) = pool_taints(pool) {
                spec.put("taints", t);
            }
        }
        NodeKind::Fargate => spec.put(
            "taints",
            list![map! {
                "effect" => "NoSchedule",
                "key" => "eks.amazonaws.com/compute-type",
                "value" => "fargate",
            },],
        ),
        NodeKind::Managed => {}
    }
    // Capacity as the kubelet reports it; allocatable at least what the catalog says.
    let cap_ki = it.memory_mib * 1024 * 97 / 100 - r.range(0, 60_000);
    let reserved_mi = 255 + 11 * it.max_pods + 100;
    let alloc_ki =
        (cap_ki - reserved_mi * 1024).max(it.alloc_memory_mib * 1024 + r.range(20_000, 150_000));
    let eph_cap_ki = 20_959_212 + r.range(-4000, 4000) * 4;
    let eph_alloc = eph_cap_ki * 1024 * 9 / 10 - 1_000_000;
    let bottlerocket = matches!(kind, NodeKind::Karpenter { pool, .. } if POOL_CLASS[pool] == 0);
    let ready_at = created + r.range(25, 70);
    let hb = s.now - r.range(1, 50);
    let conds = list![
        node_cond(
            hb,
            created + 5,
            "kubelet has sufficient memory available",
            "KubeletHasSufficientMemory",
            "False",
            "MemoryPressure"
        ),
        node_cond(
            hb,
            created + 5,
            "kubelet has no disk pressure",
            "KubeletHasNoDiskPressure",
            "False",
            "DiskPressure"
        ),
        node_cond(
            hb,
            created + 5,
            "kubelet has sufficient PID available",
            "KubeletHasSufficientPID",
            "False",
            "PIDPressure"
        ),
        node_cond(
            hb,
            ready_at,
            "kubelet is posting ready status",
            "KubeletReady",
            "True",
            "Ready"
        ),
    ];
    // Images: pause, then each distinct image of the pods here.
    let mut images: Vec<V> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let pause_digest = hash64(PAUSE);
    images.push(map! {
        "names" => list![
            format!(
                "{ECR}/eks/pause@sha256:{:016x}{:016x}{:016x}{:016x}",
                pause_digest,
                pause_digest >> 3,
                pause_digest >> 5,
                pause_digest >> 7,
            ),
            PAUSE,
        ],
        "sizeBytes" => 318_731i64,
    });
    for &p in pods_here {
        let w = s.pods[p].wl;
        for c in &s.workloads[w].containers {
            if seen.insert(c.image.clone()) {
                let size = 20_000_000 + (hash64(&c.image) % 400_000_000) as i64;
                images.push(map! {
                    "names" => list![c.image_id.clone(), c.image.clone()],
                    "sizeBytes" => size,
                });
            }
        }
    }
    // The kubelet lists images largest first.
    images.sort_by_key(|i| {
        std::cmp::Reverse(match i.get("sizeBytes") {
            Some(V::Int(n)) => *n,
            _ => 0,
        })
    });
    let (os_image, runtime, kernel) = if kind == NodeKind::Fargate {
        (
            "Amazon Linux 2023.9.20251105",
            "containerd://1.7.27",
            "6.1.155-176.282.amzn2023.x86_64",
        )
    } else if bottlerocket {
        (
            "Bottlerocket OS 1.50.0 (aws-k8s-1.33)",
            "containerd://2.0.6+bottlerocket",
            "6.12.46",
        )
    } else if it.arch == "arm64" {
        (
            "Amazon Linux 2023.9.20251105",
            "containerd://1.7.27",
            "6.1.155-176.282.amzn2023.aarch64",
        )
    } else {
        (
            "Amazon Linux 2023.9.20251105",
            "containerd://1.7.27",
            "6.1.155-176.282.amzn2023.x86_64",
        )
    };
    let mut res_cap = map! {
        "cpu" => cpu_q(it.vcpu * 1000),
        "ephemeral-storage" => format!("{eph_cap_ki}Ki"),
        "hugepages-1Gi" => "0",
        "hugepages-2Mi" => "0",
        "memory" => format!("{cap_ki}Ki"),
        "pods" => it.max_pods.to_string(),
    };
    let mut res_alloc = map! {
        "cpu" => cpu_q(it.alloc_cpu_m),
        "ephemeral-storage" => eph_alloc.to_string(),
        "hugepages-1Gi" => "0",
        "hugepages-2Mi" => "0",
        "memory" => format!("{alloc_ki}Ki"),
        "pods" => it.max_pods.to_string(),
    };
    if it.arch == "arm64" {
        res_cap.put("hugepages-32Mi", "0");
        res_cap.put("hugepages-64Ki", "0");
        res_alloc.put("hugepages-32Mi", "0");
        res_alloc.put("hugepages-64Ki", "0");
    }
    let kubelet = if kind == NodeKind::Fargate {
        FARGATE_KUBELET
    } else {
        KUBELET_VERSION
    };
    let handler = |name: &'static str| {
        map! {
            "features" => map!{ "recursiveReadOnlyMounts" => true, "userNamespaces" => true },
            "name" => name,
        }
    };
    let status = map! {
        "addresses" => list![
            map! { "address" => ip.clone(), "type" => "InternalIP" },
            map! { "address" => name.clone(), "type" => "InternalDNS" },
            map! { "address" => name.clone(), "type" => "Hostname" },
        ],
        "allocatable" => res_alloc,
        "capacity" => res_cap,
        "conditions" => conds,
        "daemonEndpoints" => map! { "kubeletEndpoint" => map! { "Port" => 10250i64 } },
        "features" => map! { "supplementalGroupsPolicy" => true },
        "images" => V::List(images),
        "nodeInfo" => map! {
            "architecture" => it.arch.clone(),
            "bootID" => r.uuid(),
            "containerRuntimeVersion" => runtime,
            "kernelVersion" => kernel,
            "kubeProxyVersion" => "",
            "kubeletVersion" => kubelet,
            "machineID" => format!("ec2{}", r.hex(29)),
            "operatingSystem" => "linux",
            "osImage" => os_image,
            "systemUUID" => format!(
                "ec2{}-{}-{}-{}-{}",
                r.hex(5),
                r.hex(4),
                r.hex(4),
                r.hex(4),
                r.hex(12),
            ),
        },
        "runtimeHandlers" => list![handler("runc"), handler("")],
    };
    let mut obj = map! {
        "apiVersion" => "v1",
        "kind" => "Node",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    let registered = created + r.range(20, 40);
    let last = s.now - r.range(60, 3600);
    let mut entries = vec![
        Mf {
            manager: "kubelet",
            op: "Update",
            sub: None,
            time: registered,
            api: "v1",
            paths: &[
                &[
                    "metadata",
                    "annotations",
                    "alpha.kubernetes.io/provided-node-ip",
                ],
                &[
                    "metadata",
                    "annotations",
                    "volumes.kubernetes.io/controller-managed-attach-detach",
                ],
                &["metadata", "labels", "beta.kubernetes.io/arch"],
                &["metadata", "labels", "beta.kubernetes.io/os"],
                &["metadata", "labels", "kubernetes.io/arch"],
                &["metadata", "labels", "kubernetes.io/hostname"],
                &["metadata", "labels", "kubernetes.io/os"],
                &["metadata", "labels", "node.kubernetes.io/instance-type"],
                &["spec", "providerID"],
            ],
        },
        Mf {
            manager: "kube-controller-manager",
            op: "Update",
            sub: None,
            time: registered + 1,
            api: "v1",
            paths: &[&["metadata", "annotations", "node.alpha.kubernetes.io/ttl"]],
        },
        Mf {
            manager: "aws-cloud-controller-manager",
            op: "Update",
            sub: None,
            time: registered + 2,
            api: "v1",
            paths: &[
                &["metadata", "labels", "k8s.io/cloud-provider-aws"],
                &["metadata", "labels", "topology.k8s.aws/zone-id"],
                &["metadata", "labels", "topology.kubernetes.io/region"],
                &["metadata", "labels", "topology.kubernetes.io/zone"],
                &[
                    "metadata",
                    "labels",
                    "failure-domain.beta.kubernetes.io/region",
                ],
                &[
                    "metadata",
                    "labels",
                    "failure-domain.beta.kubernetes.io/zone",
                ],
                &["metadata", "labels", "beta.kubernetes.io/instance-type"],
            ],
        },
    ];
    let karpenter_labels: Vec<String> = claim_labels(s, n)
        .into_iter()
        .map(|(k, _)| k)
        .chain([
            "karpenter.sh/initialized".to_string(),
            "karpenter.sh/registered".to_string(),
        ])
        .collect();
    let mut karpenter_paths: Vec<Vec<&str>> = vec![
        vec![
            "metadata",
            "annotations",
            "karpenter.k8s.aws/ec2nodeclass-hash",
        ],
        vec![
            "metadata",
            "annotations",
            "karpenter.k8s.aws/ec2nodeclass-hash-version",
        ],
        vec!["metadata", "annotations", "karpenter.sh/nodepool-hash"],
        vec![
            "metadata",
            "annotations",
            "karpenter.sh/nodepool-hash-version",
        ],
        vec!["metadata", "finalizers"],
        vec!["metadata", "ownerReferences"],
        vec!["spec", "taints"],
    ];
    for k in &karpenter_labels {
        karpenter_paths.push(vec!["metadata", "labels", k.as_str()]);
    }
    let karpenter_refs: Vec<&[&str]> = karpenter_paths.iter().map(|p| p.as_slice()).collect();
    if let NodeKind::Karpenter { .. } = kind {
        entries.push(Mf {
            manager: "karpenter",
            op: "Update",
            sub: None,
            time: ready_at + 2,
            api: "v1",
            paths: &karpenter_refs,
        });
    }
    if s.ds_count >= 3 && kind != NodeKind::Fargate {
        entries.push(Mf {
            manager: "kubelet",
            op: "Update",
            sub: None,
            time: ready_at + 20,
            api: "v1",
            paths: &[
                &["metadata", "annotations", "csi.volume.kubernetes.io/nodeid"],
                &["metadata", "labels", "topology.ebs.csi.aws.com/zone"],
            ],
        });
    }
    entries.push(Mf {
        manager: "kubelet",
        op: "Update",
        sub: Some("status"),
        time: last,
        api: "v1",
        paths: &[&["status"]],
    });
    set_managed(s, &mut obj, &entries);
    obj
}

fn node_cond(hb: i64, t: i64, message: &str, reason: &str, status: &str, typ: &str) -> V {
    map! {
        "lastHeartbeatTime" => ts(hb),
        "lastTransitionTime" => ts(t),
        "message" => message.to_string(),
        "reason" => reason.to_string(),
        "status" => status.to_string(),
        "type" => typ.to_string(),
    }
}

fn pool_requirements(pool: usize) -> Vec<V> {
    let req = |key: &'static str, op: &'static str, values: &[&'static str]| {
        map! {
            "key" => key,
            "operator" => op,
            "values" => V::List(values.iter().map(|v| V::from(*v)).collect()),
        }
    };
    match pool {
        0 => vec![
            req(
                "karpenter.k8s.aws/instance-category",
                "In",
                &["c", "m", "r"],
            ),
            req("karpenter.k8s.aws/instance-generation", "Gt", &["4"]),
            req("kubernetes.io/arch", "In", &["amd64"]),
            req("karpenter.sh/capacity-type", "In", &["on-demand"]),
        ],
        1 => vec![
            req(
                "karpenter.k8s.aws/instance-category",
                "In",
                &["c", "m", "r"],
            ),
            req(
                "karpenter.k8s.aws/instance-size",
                "NotIn",
                &["nano", "micro", "small", "medium", "large"],
            ),
            req("kubernetes.io/arch", "In", &["amd64"]),
            req("karpenter.sh/capacity-type", "In", &["spot"]),
        ],
        _ => vec![
            req(
                "karpenter.k8s.aws/instance-family",
                "In",
                &["c6g", "m6g", "r6g", "c7g", "m7g"],
            ),
            req("kubernetes.io/arch", "In", &["arm64"]),
            req("karpenter.sh/capacity-type", "In", &["on-demand"]),
        ],
    }
}

const POOL_CONSOLIDATE_AFTER: [(&str, i64); 3] = [("1m", 60), ("30s", 30), ("5m", 300)];

fn nodeclaim(s: &mut Snapshot, n: usize, _pods_here: &[usize]) -> V {
    let mut r = s.rng.fork(n as u64 ^ 0x636c_6169);
    let node = &s.nodes[n];
    let NodeKind::Karpenter { pool, drifted } = node.kind else {
        return V::Null;
    };
    let (name, uid, created, it) = (
        node.claim_name.clone(),
        node.claim_uid.clone(),
        node.created - r.range(30, 90),
        node.it.clone(),
    );
    let (node_name, instance, zone, ami, last_event) = (
        node.name.clone(),
        node.instance_id.clone(),
        s.zones[node.zone].name.clone(),
        node.ami.clone(),
        node.last_pod_event,
    );
    let mut md = meta(s, name.clone(), None, &uid, created);
    md.put("generateName", format!("{}-", POOLS[pool]));
    md.put("generation", 1i64);
    md.put("finalizers", list!["karpenter.sh/termination"]);
    let mut ann: Vec<(&'static str, String)> = vec![
        (
            "compatibility.karpenter.k8s.aws/cluster-name-tagged",
            "true".into(),
        ),
        ("karpenter.k8s.aws/tagged", "true".into()),
    ];
    ann.extend(claim_annotations(s, n));
    md.put(
        "annotations",
        V::Map(
            ann.into_iter()
                .map(|(k, v)| (Cow::Borrowed(k), V::from(v)))
                .collect(),
        ),
    );
    md.put(
        "labels",
        V::Map(
            claim_labels(s, n)
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k), V::from(v)))
                .collect(),
        ),
    );
    md.put(
        "ownerReferences",
        list![map! {
            "apiVersion" => "karpenter.sh/v1",
            "blockOwnerDeletion" => true,
            "kind" => "NodePool",
            "name" => POOLS[pool],
            "uid" => s.pool_uids[pool].clone(),
        },],
    );
    let mut reqs = pool_requirements(pool);
    reqs.push(map! {
        "key" => "karpenter.sh/nodepool",
        "operator" => "In",
        "values" => list![POOLS[pool]],
    });
    reqs.push(map! {
        "key" => "karpenter.k8s.aws/ec2nodeclass",
        "operator" => "In",
        "values" => list![CLASSES[POOL_CLASS[pool]]],
    });
    let mut types: Vec<String> = vec![it.name.clone()];
    let alts: &[&str] = match pool {
        0 => &[
            "c5.2xlarge",
            "c6i.2xlarge",
            "m5.2xlarge",
            "m5.xlarge",
            "m6i.2xlarge",
            "m6i.xlarge",
            "m7i.xlarge",
            "r5.xlarge",
        ],
        1 => &[
            "c5.2xlarge",
            "c5.4xlarge",
            "c5.xlarge",
            "m5.2xlarge",
            "m5.xlarge",
            "r5.2xlarge",
            "r5.xlarge",
        ],
        _ => &["c6g.xlarge", "m6g.2xlarge", "m6g.xlarge"],
    };
    for a in alts.iter().take(2 + r.below(5) as usize) {
        if !types.iter().any(|t| t == a) {
            types.push(a.to_string());
        }
    }
    types.sort();
    reqs.push(map! {
        "key" => "node.kubernetes.io/instance-type",
        "operator" => "In",
        "values" => V::List(types.into_iter().map(V::from).collect()),
    });
    let mut spec = map! {
        "expireAfter" => "720h",
        "nodeClassRef" => map! {
            "group" => "karpenter.k8s.aws",
            "kind" => "EC2NodeClass",
            "name" => CLASSES[POOL_CLASS[pool]],
        },
        "requirements" => V::List(reqs),
        "resources" => map! {
            "requests" => map! {
                "cpu" => cpu_q(r.range(2, 30) * 50),
                "memory" => quantity_mi(r.range(4, 40) * 64),
                "pods" => r.range(3, 12).to_string(),
            },
        },
    };
    if let Some(t) = pool_taints(pool) {
        spec.put("taints", t);
    }
    let eni = |m: &mut V| {
        if it.pod_eni > 0 {
            m.put("vpc.amazonaws.com/pod-eni", it.pod_eni.to_string());
        }
    };
    let mut cap = map! {
        "cpu" => cpu_q(it.vcpu * 1000),
        "ephemeral-storage" => "20Gi",
        "memory" => quantity_mi(it.memory_mib * 925 / 1000),
        "pods" => it.max_pods.to_string(),
    };
    eni(&mut cap);
    let mut alloc = map! {
        "cpu" => cpu_q(it.alloc_cpu_m),
        "ephemeral-storage" => format!("{}Gi", it.ephemeral_gi),
        "memory" => quantity_mi(it.alloc_memory_mib),
        "pods" => it.max_pods.to_string(),
    };
    eni(&mut alloc);
    let launched = created + r.range(2, 5);
    let registered = created + r.range(25, 45);
    let initialized = registered + r.range(5, 20);
    let mut conds = Vec::new();
    let (ca_str, ca) = POOL_CONSOLIDATE_AFTER[pool];
    if s.now - last_event >= ca {
        conds.push(karpenter_condition(
            last_event + ca,
            "Consolidatable",
            "True",
            "Consolidatable",
            "",
            1,
        ));
    }
    if drifted {
        conds.push(karpenter_condition(
            s.now - r.range(600, 7200),
            "Drifted",
            "True",
            "NodePoolDrifted",
            "",
            1,
        ));
    }
    conds.push(karpenter_condition(
        initialized,
        "Initialized",
        "True",
        "Initialized",
        "",
        1,
    ));
    conds.push(karpenter_condition(
        launched, "Launched", "True", "Launched", "", 1,
    ));
    conds.push(karpenter_condition(
        initialized,
        "Ready",
        "True",
        "Ready",
        "",
        1,
    ));
    conds.push(karpenter_condition(
        registered,
        "Registered",
        "True",
        "Registered",
        "",
        1,
    ));
    let _ = ca_str;
    let status = map! {
        "allocatable" => alloc,
        "capacity" => cap,
        "conditions" => V::List(conds),
        "imageID" => ami,
        "lastPodEventTime" => ts(last_event),
        "nodeName" => node_name,
        "providerID" => format!("aws:///{zone}/{instance}"),
    };
    let mut obj = map! {
        "apiVersion" => "karpenter.sh/v1",
        "kind" => "NodeClaim",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: "karpenter",
                op: "Update",
                sub: None,
                time: launched,
                api: "karpenter.sh/v1",
                paths: &[
                    &["metadata", "annotations"],
                    &["metadata", "finalizers"],
                    &["metadata", "generateName"],
                    &["metadata", "labels"],
                    &["metadata", "ownerReferences"],
                    &["spec"],
                ],
            },
            Mf {
                manager: "karpenter",
                op: "Update",
                sub: Some("status"),
                time: last_event.max(initialized),
                api: "karpenter.sh/v1",
                paths: &[&["status"]],
            },
        ],
    );
    obj
}

fn last_applied(v: &V) -> String {
    let mut v = v.clone();
    v.sort(false);
    let mut out = String::new();
    compact_json(&v, &mut out);
    out.push('\n');
    out
}

fn compact_json(v: &V, out: &mut String) {
    match v {
        V::Map(m) => {
            out.push('{');
            for (i, (k, c)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                crate::tree::json_string(k, out);
                out.push(':');
                compact_json(c, out);
            }
            out.push('}');
        }
        V::List(l) => {
            out.push('[');
            for (i, c) in l.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                compact_json(c, out);
            }
            out.push(']');
        }
        V::Str(s) => crate::tree::json_string(s, out),
        V::Int(n) => out.push_str(&n.to_string()),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Null => out.push_str("null"),
    }
}

fn nodepool(s: &mut Snapshot, pool: usize) -> V {
    let mut r = s.rng.fork(pool as u64 ^ 0x706f_6f6c);
    let created = s.pool_created[pool];
    let uid = s.pool_uids[pool].clone();
    let mut template_spec = map! {
        "expireAfter" => "720h",
        "nodeClassRef" => map! {
            "group" => "karpenter.k8s.aws",
            "kind" => "EC2NodeClass",
            "name" => CLASSES[POOL_CLASS[pool]],
        },
        "requirements" => V::List(pool_requirements(pool)),
    };
    if let Some(t) = pool_taints(pool) {
        template_spec.put("taints", t);
    }
    let mut template = map! { "spec" => template_spec };
    if pool == 1 {
        template.put(
            "metadata",
            map! { "labels" => map! { "workload-type" => "interruptible" } },
        );
    }
    let (ca, _) = POOL_CONSOLIDATE_AFTER[pool];
    let budgets = if pool == 0 {
        list![
            map! { "nodes" => "10%" },
            map! {
                "duration" => "8h",
                "nodes" => "0",
                "reasons" => list!["Drifted", "Underutilized"],
                "schedule" => "0 9 * * mon-fri",
            }
        ]
    } else {
        list![map! { "nodes" => "10%" }]
    };
    let spec_user = map! {
        "disruption" => map! {
            "budgets" => budgets,
            "consolidateAfter" => ca,
            "consolidationPolicy" => "WhenEmptyOrUnderutilized",
        },
        "limits" => map! {
            "cpu" => ["4000", "2000", "1000"][pool],
            "memory" => ["16000Gi", "8000Gi", "4000Gi"][pool],
        },
        "template" => template,
        "weight" => [50i64, 10, 1][pool],
    };
    let applied = map! {
        "apiVersion" => "karpenter.sh/v1",
        "kind" => "NodePool",
        "metadata" => map!{ "annotations" => map!{}, "name" => POOLS[pool] },
        "spec" => spec_user.clone(),
    };
    let mut md = meta(s, POOLS[pool], None, &uid, created);
    md.put("generation", 1i64);
    md.put(
        "annotations",
        map! {
            "karpenter.sh/nodepool-hash" => s.p.nodepool_hashes[pool].to_string(),
            "karpenter.sh/nodepool-hash-version" => "v3",
            "kubectl.kubernetes.io/last-applied-configuration" => last_applied(&applied),
        },
    );
    // Status: what its nodes add up to.
    let (mut cpu, mut mem_mi, mut pods, mut count) = (0i64, 0i64, 0i64, 0i64);
    for node in &s.nodes {
        if node.kind
            == (NodeKind::Karpenter {
                pool,
                drifted: false,
            })
            || node.kind
                == (NodeKind::Karpenter {
                    pool,
                    drifted: true,
                })
        {
            cpu += node.it.vcpu;
            mem_mi += node.it.memory_mib * 925 / 1000;
            pods += node.it.max_pods;
            count += 1;
        }
    }
    let t0 = created + 3;
    let status = map! {
        "conditions" => list![
            karpenter_condition(t0, "NodeClassReady", "True", "NodeClassReady", "", 1),
            karpenter_condition(
                t0 + r.range(60, 86_400),
                "NodeRegistrationHealthy",
                "True",
                "NodeRegistrationHealthy",
                "",
                1,
            ),
            karpenter_condition(t0, "Ready", "True", "Ready", "", 1),
            karpenter_condition(
                t0 - 1,
                "ValidationSucceeded",
                "True",
                "ValidationSucceeded",
                "",
                1,
            ),
        ],
        "nodes" => count,
        "resources" => map! {
            "cpu" => cpu.to_string(),
            "ephemeral-storage" => format!("{}Gi", 20 * count),
            "hugepages-1Gi" => "0",
            "hugepages-2Mi" => "0",
            "memory" => quantity_mi(mem_mi),
            "nodes" => count.to_string(),
            "pods" => pods.to_string(),
        },
    };
    let mut obj = map! {
        "apiVersion" => "karpenter.sh/v1",
        "kind" => "NodePool",
        "metadata" => md,
        "spec" => spec_user,
        "status" => status,
    };
    let now = s.now;
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: "kubectl-client-side-apply",
                op: "Update",
                sub: None,
                time: created,
                api: "karpenter.sh/v1",
                paths: &[
                    &[
                        "metadata",
                        "annotations",
                        "kubectl.kubernetes.io/last-applied-configuration",
                    ],
                    &["spec"],
                ],
            },
            Mf {
                manager: "karpenter",
                op: "Update",
                sub: None,
                time: created + 1,
                api: "karpenter.sh/v1",
                paths: &[
                    &["metadata", "annotations", "karpenter.sh/nodepool-hash"],
                    &[
                        "metadata",
                        "annotations",
                        "karpenter.sh/nodepool-hash-version",
                    ],
                ],
            },
            Mf {
                manager: "karpenter",
                op: "Update",
                sub: Some("status"),
                time: now - r.range(5, 600),
                api: "karpenter.sh/v1",
                paths: &[&["status"]],
            },
        ],
    );
    obj
}

fn ec2nodeclass(s: &mut Snapshot, class: usize) -> V {
    let mut r = s.rng.fork(class as u64 ^ 0x6563_3263);
    let created = s.class_created[class];
    let uid = s.class_uids[class].clone();
    let alias = if class == 0 {
        "bottlerocket@latest"
    } else {
        "al2023@latest"
    };
    let disc = map! { "tags" => map! { "karpenter.sh/discovery" => s.cluster.clone() } };
    let mut spec = map! {
        "amiSelectorTerms" => list![map! { "alias" => alias }],
        "metadataOptions" => map! {
            "httpEndpoint" => "enabled",
            "httpProtocolIPv6" => "disabled",
            "httpPutResponseHopLimit" => 1i64,
            "httpTokens" => "required",
        },
        "role" => format!("KarpenterNodeRole-{}", s.cluster),
        "securityGroupSelectorTerms" => list![disc.clone()],
        "subnetSelectorTerms" => list![disc],
        "tags" => map! { "team" => "platform", "cost-center" => "cc-1042" },
    };
    if class == 0 {
        spec.put("blockDeviceMappings", list![
            map! {
                "deviceName" => "/dev/xvda",
                "ebs" => map! { "encrypted" => true, "volumeSize" => "4Gi", "volumeType" => "gp3" },
            },
            map! {
                "deviceName" => "/dev/xvdb",
                "ebs" => map! {
                    "encrypted" => true,
                    "volumeSize" => "20Gi",
                    "volumeType" => "gp3",
                },
            },
        ]);
    } else {
        // No maxPods: the nodes keep the catalog's ENI-limited max pods.
        spec.put(
            "kubelet",
            map! { "systemReserved" => map! { "cpu" => "100m", "memory" => "100Mi" } },
        );
    }
    let mut md = meta(s, CLASSES[class], None, &uid, created);
    md.put("generation", 1i64);
    md.put("finalizers", list!["karpenter.k8s.aws/termination"]);
    let applied = map! {
        "apiVersion" => "karpenter.k8s.aws/v1",
        "kind" => "EC2NodeClass",
        "metadata" => map!{ "annotations" => map!{}, "name" => CLASSES[class] },
        "spec" => spec.clone(),
    };
    md.put(
        "annotations",
        map! {
            "karpenter.k8s.aws/ec2nodeclass-hash" => s.p.ec2nodeclass_hashes[class].to_string(),
            "karpenter.k8s.aws/ec2nodeclass-hash-version" => "v4",
            "kubectl.kubernetes.io/last-applied-configuration" => last_applied(&applied),
        },
    );
    let family = if class == 0 { "bottlerocket" } else { "al2023" };
    let amis: Vec<V> = s
        .amis
        .iter()
        .filter(|a| a.3 == family)
        .flat_map(|(id, name, arch, _)| {
            let mk = |gpu: bool| {
                let mut reqs = vec![map! {
                    "key" => "kubernetes.io/arch",
                    "operator" => "In",
                    "values" => list![*arch],
                }];
                if gpu {
                    reqs.push(map! {
                        "key" => "karpenter.k8s.aws/instance-gpu-count",
                        "operator" => "Exists",
                    });
                } else {
                    reqs.push(map! {
                        "key" => "karpenter.k8s.aws/instance-gpu-count",
                        "operator" => "DoesNotExist",
                    });
                    reqs.push(map! {
                        "key" => "karpenter.k8s.aws/instance-accelerator-count",
                        "operator" => "DoesNotExist",
                    });
                }
                map! { "id" => id.clone(), "name" => name.clone(), "requirements" => V::List(reqs) }
            };
            vec![mk(false)]
        })
        .collect();
    let t0 = created + 2;
    let status = map! {
        "amis" => V::List(amis),
        "conditions" => list![
            karpenter_condition(t0, "AMIsReady", "True", "AMIsReady", "", 1),
            karpenter_condition(
                t0,
                "CapacityReservationsReady",
                "True",
                "CapacityReservationsReady",
                "",
                1,
            ),
            karpenter_condition(t0, "InstanceProfileReady", "True", "InstanceProfileReady", "", 1),
            karpenter_condition(t0, "Ready", "True", "Ready", "", 1),
            karpenter_condition(t0, "SecurityGroupsReady", "True", "SecurityGroupsReady", "", 1),
            karpenter_condition(t0, "SubnetsReady", "True", "SubnetsReady", "", 1),
            karpenter_condition(t0, "ValidationSucceeded", "True", "ValidationSucceeded", "", 1),
        ],
        "instanceProfile" => s.profile.clone(),
        "securityGroups" => list![map! { "id" => s.sg.0.clone(), "name" => s.sg.1.clone() }],
        "subnets" => V::List(
            s.zones.iter().map(
                |z| map! {
                    "id" => z.subnet.clone(),
                    "zone" => z.name.clone(),
                    "zoneID" => z.id.clone(),
                },
            ).collect(),
        ),
    };
    let mut obj = map! {
        "apiVersion" => "karpenter.k8s.aws/v1",
        "kind" => "EC2NodeClass",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    let now = s.now;
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: "kubectl-client-side-apply",
                op: "Update",
                sub: None,
                time: created,
                api: "karpenter.k8s.aws/v1",
                paths: &[
                    &[
                        "metadata",
                        "annotations",
                        "kubectl.kubernetes.io/last-applied-configuration",
                    ],
                    &["spec"],
                ],
            },
            Mf {
                manager: "karpenter",
                op: "Update",
                sub: None,
                time: created + 1,
                api: "karpenter.k8s.aws/v1",
                paths: &[
                    &[
                        "metadata",
                        "annotations",
                        "karpenter.k8s.aws/ec2nodeclass-hash",
                    ],
                    &[
                        "metadata",
                        "annotations",
                        "karpenter.k8s.aws/ec2nodeclass-hash-version",
                    ],
                    &["metadata", "finalizers"],
                ],
            },
            Mf {
                manager: "karpenter",
                op: "Update",
                sub: Some("status"),
                time: now - r.range(60, 3000),
                api: "karpenter.k8s.aws/v1",
                paths: &[&["status"]],
            },
        ],
    );
    obj
}

// ---------------------------------------------------------------------------------------------
// Workloads and pods

fn pod_labels(s: &Snapshot, w: &Workload) -> Vec<(String, String)> {
    let mut l = vec![("app".to_string(), w.app.clone())];
    match w.kind {
        WlKind::Deployment => {
            if w.helm {
                l = vec![
                    ("app.kubernetes.io/name".into(), w.app.clone()),
                    ("app.kubernetes.io/instance".into(), w.app.clone()),
                ];
            }
            if w.ns == "kube-system" {
                l = vec![
                    (
                        "k8s-app".into(),
                        if w.name == "coredns" {
                            "kube-dns".into()
                        } else {
                            w.app.clone()
                        },
                    ),
                    ("eks.amazonaws.com/component".into(), w.app.clone()),
                ];
            }
        }
        WlKind::DaemonSet => l = vec![("k8s-app".into(), w.app.clone())],
        WlKind::Job => {
            l = vec![
                ("batch.kubernetes.io/controller-uid".into(), w.uid.clone()),
                ("batch.kubernetes.io/job-name".into(), w.name.clone()),
                ("controller-uid".into(), w.uid.clone()),
                ("job-name".into(), w.name.clone()),
            ]
        }
        _ => {}
    }
    let _ = s;
    l
}

fn selector_labels(s: &Snapshot, w: &Workload) -> Vec<(String, String)> {
    match w.kind {
        WlKind::Job => vec![("batch.kubernetes.io/controller-uid".into(), w.uid.clone())],
        _ => pod_labels(s, w),
    }
}

fn to_map(pairs: Vec<(String, String)>) -> V {
    V::Map(
        pairs
            .into_iter()
            .map(|(k, v)| (Cow::Owned(k), V::from(v)))
            .collect(),
    )
}

fn container_v(c: &crate::plan::Container, with_status_mount: Option<&str>) -> V {
    let mut m = map! {
        "image" => c.image.clone(),
        "imagePullPolicy" => "IfNotPresent",
        "name" => c.name,
        "terminationMessagePath" => "/dev/termination-log",
        "terminationMessagePolicy" => "File",
    };
    let mut requests = V::empty_map();
    if c.cpu_m > 0 {
        requests.put("cpu", cpu_q(c.cpu_m));
    }
    if c.mem_mi > 0 {
        requests.put("memory", quantity_mi(c.mem_mi));
    }
    let mut limits = V::empty_map();
    if c.limits.0 > 0 {
        limits.put("cpu", cpu_q(c.limits.0));
    }
    if c.limits.1 > 0 {
        limits.put("memory", quantity_mi(c.limits.1));
    }
    let mut res = V::empty_map();
    if limits != V::empty_map() {
        res.put("limits", limits);
    }
    if requests != V::empty_map() {
        res.put("requests", requests);
    }
    m.put("resources", res);
    if !c.env.is_empty() {
        m.put(
            "env",
            V::List(
                c.env
                    .iter()
                    .map(|(k, v)| map! { "name" => k.clone(), "value" => v.clone() })
                    .collect(),
            ),
        );
    }
    if !c.ports.is_empty() {
        m.put(
            "ports",
            V::List(
                c.ports
                    .iter()
                    .enumerate()
                    .map(|(i, (n, p))| {
                        map! {
                            "containerPort" => *p,
                            "name" => *n,
                            "protocol" => if *n == "dns" && i == 0 { "UDP" } else { "TCP" },
                        }
                    })
                    .collect(),
            ),
        );
    }
    if !c.args.is_empty() {
        m.put("args", V::List(c.args.iter().map(V::from).collect()));
    }
    if c.name == "app" && c.image.len().is_multiple_of(2) {
        m.put(
            "readinessProbe",
            map! {
                "failureThreshold" => 3i64,
                "httpGet" => map!{ "path" => "/healthz", "port" => "http", "scheme" => "HTTP" },
                "periodSeconds" => 10i64,
                "successThreshold" => 1i64,
                "timeoutSeconds" => 1i64,
            },
        );
    }
    if let Some(vol) = with_status_mount {
        m.put(
            "volumeMounts",
            list![map! {
                "mountPath" => "/var/run/secrets/kubernetes.io/serviceaccount",
                "name" => vol.to_string(),
                "readOnly" => true,
            },],
        );
    }
    m
}

/// The pod template as the API server defaults it in a controller's spec.
fn template(s: &Snapshot, w: &Workload) -> V {
    let mut spec = map! {
        "containers" => V::List(w.containers.iter().map(|c| container_v(c, None)).collect()),
        "dnsPolicy" => if w.host_network { "ClusterFirstWithHostNet" } else { "ClusterFirst" },
        "restartPolicy" => if w.kind == WlKind::Job { "Never" } else { "Always" },
        "schedulerName" => "default-scheduler",
        "securityContext" => V::empty_map(),
        "terminationGracePeriodSeconds" => 30i64,
    };
    if !w.init.is_empty() {
        spec.put(
            "initContainers",
            V::List(w.init.iter().map(|c| container_v(c, None)).collect()),
        );
    }
    if w.host_network {
        spec.put("hostNetwork", true);
    }
    if let Some(pc) = w.priority_class {
        spec.put("priorityClassName", pc);
    }
    if let Some(sa) = &w.service_account {
        spec.put("serviceAccount", sa.clone());
        spec.put("serviceAccountName", sa.clone());
    }
    match w.kind {
        WlKind::DaemonSet => {
            spec.put("tolerations", list![map! { "operator" => "Exists" }]);
            spec.put(
                "affinity",
                map! { "nodeAffinity" => map! {
                "requiredDuringSchedulingIgnoredDuringExecution" => map! {
                "nodeSelectorTerms" => list![map! { "matchExpressions" => list![
                    map! {
                        "key" => "kubernetes.io/os",
                        "operator" => "In",
                        "values" => list!["linux"],
                    },
                    map! {
                        "key" => "kubernetes.io/arch",
                        "operator" => "In",
                        "values" => list!["amd64", "arm64"],
                    },
                    map! {
                        "key" => "eks.amazonaws.com/compute-type",
                        "operator" => "NotIn",
                        "values" => list!["fargate", "hybrid", "auto"],
                    },
                ] }] } } },
            );
        }
        WlKind::Deployment if w.ns == "karpenter" || w.ns == "kube-system" => {
            spec.put(
                "tolerations",
                list![map! { "key" => "CriticalAddonsOnly", "operator" => "Exists" }],
            );
            spec.put("nodeSelector", map! { "kubernetes.io/os" => "linux" });
        }
        WlKind::Deployment if w.name.starts_with("ml-") => {
            spec.put(
                "nodeSelector",
                map! { "karpenter.sh/capacity-type" => "on-demand" },
            );
        }
        WlKind::StatefulSet => {
            if let Some(V::List(cs)) = spec.get_mut("containers") {
                cs[0].put(
                    "volumeMounts",
                    list![map! { "mountPath" => "/var/lib/data", "name" => "data" }],
                );
            }
        }
        _ => {}
    }
    if w.fargate {
        spec.put("schedulerName", "fargate-scheduler");
    }
    let mut meta = map! { "creationTimestamp" => V::Null, "labels" => to_map(pod_labels(s, w)) };
    let metrics_port = w
        .containers
        .first()
        .is_some_and(|c| c.ports.iter().any(|p| p.1 == 9090));
    if w.kind == WlKind::Deployment && w.ns != "kube-system" && !w.helm && metrics_port {
        meta.put(
            "annotations",
            map! { "prometheus.io/scrape" => "true", "prometheus.io/port" => "9090" },
        );
    }
    if w.fargate {
        meta.put(
            "labels",
            to_map(vec![
                ("app".into(), w.app.clone()),
                (
                    "eks.amazonaws.com/fargate-profile".into(),
                    "fp-monitoring".into(),
                ),
            ]),
        );
    }
    map! { "metadata" => meta, "spec" => spec }
}

fn owner(api: &'static str, kind: &'static str, name: String, uid: String) -> V {
    map! {
        "apiVersion" => api,
        "blockOwnerDeletion" => true,
        "controller" => true,
        "kind" => kind,
        "name" => name,
        "uid" => uid,
    }
}

fn pod(s: &mut Snapshot, i: usize) -> V {
    let mut r = s.rng.fork(i as u64 ^ 0x0070_6f64);
    let p = &s.pods[i];
    let w = &s.workloads[p.wl];
    let (name, uid, created, phase, node_i, ip) = (
        p.name.clone(),
        p.uid.clone(),
        p.created,
        p.phase,
        p.node,
        p.ip,
    );
    let vol = format!("kube-api-access-{}", p.api_suffix);
    let tmpl = template(s, w);
    let mut md = tmpl.get("metadata").cloned().unwrap_or_else(V::empty_map);
    if let V::Map(m) = &mut md {
        m.retain(|(k, _)| k != "creationTimestamp");
    }
    let mut labels = pod_labels(s, w);
    let owner_ref = match w.kind {
        WlKind::Deployment => {
            labels.push(("pod-template-hash".into(), w.hash.clone()));
            md.put("generateName", format!("{}-{}-", w.name, w.hash));
            Some(owner(
                "apps/v1",
                "ReplicaSet",
                format!("{}-{}", w.name, w.hash),
                w.rs_uid.clone(),
            ))
        }
        WlKind::StatefulSet => {
            labels.push(("apps.kubernetes.io/pod-index".into(), p.ordinal.to_string()));
            labels.push((
                "controller-revision-hash".into(),
                format!("{}-{}", w.name, w.hash),
            ));
            labels.push(("statefulset.kubernetes.io/pod-name".into(), name.clone()));
            md.put("generateName", format!("{}-", w.name));
            Some(owner(
                "apps/v1",
                "StatefulSet",
                w.name.clone(),
                w.uid.clone(),
            ))
        }
        WlKind::DaemonSet => {
            labels.push(("controller-revision-hash".into(), w.hash.clone()));
            labels.push(("pod-template-generation".into(), "1".into()));
            md.put("generateName", format!("{}-", w.name));
            Some(owner("apps/v1", "DaemonSet", w.name.clone(), w.uid.clone()))
        }
        WlKind::Job => {
            md.put("generateName", format!("{}-", w.name));
            Some(owner("batch/v1", "Job", w.name.clone(), w.uid.clone()))
        }
        WlKind::Mirror => None,
    };
    md.put("labels", to_map(labels));
    let node = node_i.map(|n| {
        (
            s.nodes[n].name.clone(),
            s.nodes[n].uid.clone(),
            ip_string(s.nodes[n].ip),
            s.nodes[n].created,
        )
    });
    if w.kind == WlKind::Mirror {
        let (nname, nuid, _, _) = node.clone().unwrap_or_default();
        let hash = r.hex(32);
        md.put(
            "annotations",
            map! {
                "kubernetes.io/config.hash" => hash.clone(),
                "kubernetes.io/config.mirror" => hash,
                "kubernetes.io/config.seen" => format!(
                    "{}.{:09}Z",
                    ts(created).trim_end_matches('Z'),
                    r.below(1_000_000_000),
                ),
                "kubernetes.io/config.source" => "file",
            },
        );
        md.put(
            "ownerReferences",
            list![map! {
                "apiVersion" => "v1",
                "controller" => true,
                "kind" => "Node",
                "name" => nname,
                "uid" => nuid,
            },],
        );
        md.put(
            "labels",
            to_map(vec![
                ("app".into(), "node-exporter".into()),
                ("tier".into(), "node".into()),
            ]),
        );
    } else if let Some(o) = owner_ref {
        md.put("ownerReferences", list![o]);
    }
    if w.fargate {
        md.put(
            "annotations",
            map! {
                "CapacityProvisioned" => "0.5vCPU 1GB",
                "Logging" => "LoggingDisabled: LOGGING_CONFIGMAP_NOT_FOUND",
            },
        );
    }
    if let V::Map(m) = &mut md {
        m.push((Cow::Borrowed("creationTimestamp"), V::from(ts(created))));
        m.push((Cow::Borrowed("name"), V::from(name.clone())));
        m.push((Cow::Borrowed("namespace"), V::from(w.ns)));
        m.push((Cow::Borrowed("resourceVersion"), V::from(s.next_rv())));
        m.push((Cow::Borrowed("uid"), V::from(uid.clone())));
    }
    let w = &s.workloads[s.pods[i].wl];
    // Spec: the template plus what admission and the controllers add.
    let mut spec = tmpl.get("spec").cloned().unwrap_or_else(V::empty_map);
    let mirror = w.kind == WlKind::Mirror;
    if !mirror {
        if let Some(V::List(cs)) = spec.get_mut("containers") {
            for c in cs.iter_mut() {
                let mut mounts = match c.get("volumeMounts") {
                    Some(V::List(l)) => l.clone(),
                    _ => Vec::new(),
                };
                mounts.push(map! {
                    "mountPath" => "/var/run/secrets/kubernetes.io/serviceaccount",
                    "name" => vol.clone(),
                    "readOnly" => true,
                });
                if let V::Map(m) = c {
                    m.retain(|(k, _)| k != "volumeMounts");
                }
                c.put("volumeMounts", V::List(mounts));
            }
        }
        if spec.get("serviceAccountName").is_none() {
            spec.put("serviceAccount", "default");
            spec.put("serviceAccountName", "default");
        }
        let mut vols = vec![map! {
            "name" => vol.clone(),
            "projected" => map! {
                "defaultMode" => 420i64,
                "sources" => list![
                    map! {
                        "serviceAccountToken" => map! {
                            "expirationSeconds" => 3607i64,
                            "path" => "token",
                        },
                    },
                    map! {
                        "configMap" => map! {
                            "items" => list![map! { "key" => "ca.crt", "path" => "ca.crt" }],
                            "name" => "kube-root-ca.crt",
                        },
                    },
                    map! {
                        "downwardAPI" => map! {
                            "items" => list![
                                map! {
                                    "fieldRef" => map! {
                                        "apiVersion" => "v1",
                                        "fieldPath" => "metadata.namespace",
                                    },
                                    "path" => "namespace",
                                },
                            ],
                        },
                    },
                ],
            },
        }];
        if w.kind == WlKind::StatefulSet {
            vols.insert(
                0,
                map! {
                    "name" => "data",
                    "persistentVolumeClaim" => map! { "claimName" => format!("data-{name}") },
                },
            );
            spec.put("hostname", name.clone());
            spec.put("subdomain", w.name.clone());
        }
        spec.put("volumes", V::List(vols));
    }
    spec.put("enableServiceLinks", true);
    spec.put("preemptionPolicy", "PreemptLowerPriority");
    let priority = match w.priority_class {
        Some("system-node-critical") => 2_000_001_000i64,
        Some("system-cluster-critical") => 2_000_000_000,
        _ => 0,
    };
    spec.put("priority", priority);
    // Tolerations: the DaemonSet controller's, or DefaultTolerationSeconds'.
    let mut tols = match spec.get("tolerations") {
        Some(V::List(l)) => l.clone(),
        _ => Vec::new(),
    };
    if let V::Map(m) = &mut spec {
        m.retain(|(k, _)| k != "tolerations");
    }
    let exec = |key: &'static str, secs: Option<i64>| {
        let mut t = map! { "effect" => "NoExecute", "key" => key, "operator" => "Exists" };
        if let Some(s) = secs {
            t.put("tolerationSeconds", s);
        }
        t
    };
    let sched =
        |key: &'static str| map! { "effect" => "NoSchedule", "key" => key, "operator" => "Exists" };
    if w.kind == WlKind::DaemonSet {
        tols.push(exec("node.kubernetes.io/not-ready", None));
        tols.push(exec("node.kubernetes.io/unreachable", None));
        tols.push(sched("node.kubernetes.io/disk-pressure"));
        tols.push(sched("node.kubernetes.io/memory-pressure"));
        tols.push(sched("node.kubernetes.io/pid-pressure"));
        tols.push(sched("node.kubernetes.io/unschedulable"));
        if w.host_network {
            tols.push(sched("node.kubernetes.io/network-unavailable"));
        }
        if let Some((nname, ..)) = &node {
            spec.put(
                "affinity",
                map! {
                    "nodeAffinity" => map! {
                        "requiredDuringSchedulingIgnoredDuringExecution" => map! {
                            "nodeSelectorTerms" => list![
                                map! {
                                    "matchFields" => list![
                                        map! {
                                            "key" => "metadata.name",
                                            "operator" => "In",
                                            "values" => list![nname.clone()],
                                        },
                                    ],
                                },
                            ],
                        },
                    },
                },
            );
        }
    } else if mirror {
        tols.push(map! { "effect" => "NoExecute", "operator" => "Exists" });
    } else {
        tols.push(exec("node.kubernetes.io/not-ready", Some(300)));
        tols.push(exec("node.kubernetes.io/unreachable", Some(300)));
    }
    spec.put("tolerations", V::List(tols));
    if let Some((nname, ..)) = &node {
        spec.put("nodeName", nname.clone());
    }
    // Status.
    let qos = {
        let all_guaranteed = w.containers.iter().all(|c| {
            c.limits.0 == c.cpu_m && c.limits.1 == c.mem_mi && c.cpu_m > 0 && c.mem_mi > 0
        });
        let none = w
            .containers
            .iter()
            .all(|c| c.cpu_m == 0 && c.mem_mi == 0 && c.limits == (0, 0));
        if all_guaranteed {
            "Guaranteed"
        } else if none {
            "BestEffort"
        } else {
            "Burstable"
        }
    };
    let scheduled = created + r.range(0, 2);
    let started = scheduled + r.range(1, 4);
    let ready = started + r.range(2, 25);
    let cond = |t: i64, status: &str, typ: &str| {
        map! {
            "lastProbeTime" => V::Null,
            "lastTransitionTime" => ts(t),
            "status" => status.to_string(),
            "type" => typ.to_string(),
        }
    };
    let status = match phase {
        Phase::Pending => {
            let total = s.nodes.len();
            let msg = format!(
                "0/{total} nodes are available: {total} Insufficient cpu, {total} Insufficient \
                    memory. preemption: 0/{total} nodes are available: {total} No preemption \
                    victims found for incoming pod."
            );
            map! {
                "conditions" => list![
                    map! {
                        "lastProbeTime" => V::Null,
                        "lastTransitionTime" => ts(created + 1),
                        "message" => msg,
                        "reason" => "Unschedulable",
                        "status" => "False",
                        "type" => "PodScheduled",
                    },
                ],
                "phase" => "Pending",
                "qosClass" => qos,
            }
        }
        _ => {
            let (nname, _, host_ip, _) = node.clone().unwrap_or_default();
            let terminal = matches!(phase, Phase::Succeeded | Phase::Failed);
            let finished = started + r.range(30, 400);
            let ready_status = if terminal { "False" } else { "True" };
            let mut conds = vec![
                cond(
                    if terminal { finished } else { started },
                    ready_status,
                    "PodReadyToStartContainers",
                ),
                cond(started, "True", "Initialized"),
                cond(
                    if terminal { finished } else { ready },
                    ready_status,
                    "Ready",
                ),
                cond(
                    if terminal { finished } else { ready },
                    ready_status,
                    "ContainersReady",
                ),
                cond(scheduled, "True", "PodScheduled"),
            ];
            if terminal {
                for c in conds.iter_mut().skip(2).take(2) {
                    c.put("reason", "PodCompleted");
                }
            }
            let statuses: Vec<V> = w
                .containers
                .iter()
                .map(|c| {
                    let cid = format!("containerd://{}", r.hex(64));
                    let state = match phase {
                        Phase::Succeeded => map! {
                            "terminated" => map! {
                                "containerID" => cid.clone(),
                                "exitCode" => 0i64,
                                "finishedAt" => ts(finished),
                                "reason" => "Completed",
                                "startedAt" => ts(started),
                            },
                        },
                        Phase::Failed => map! {
                            "terminated" => map! {
                                "containerID" => cid.clone(),
                                "exitCode" => 1i64,
                                "finishedAt" => ts(finished),
                                "message" => "migration 42 failed: relation \"orders_v2\" already \
                                    exists",
                                "reason" => "Error",
                                "startedAt" => ts(started),
                            },
                        },
                        _ => map! { "running" => map! { "startedAt" => ts(started) } },
                    };
                    let mut cs = map! {
                        "containerID" => cid,
                        "image" => c.image.clone(),
                        "imageID" => c.image_id.clone(),
                        "lastState" => V::empty_map(),
                        "name" => c.name,
                        "ready" => !terminal,
                        "restartCount" => s.pods[i].restarts,
                        "started" => !terminal,
                        "state" => state,
                    };
                    if !mirror {
                        cs.put(
                            "volumeMounts",
                            list![map! {
                                "mountPath" => "/var/run/secrets/kubernetes.io/serviceaccount",
                                "name" => vol.clone(),
                                "readOnly" => true,
                                "recursiveReadOnly" => "Disabled",
                            },],
                        );
                    }
                    let mut res = V::empty_map();
                    if let Some(rv) = container_v(c, None).get("resources") {
                        res = rv.clone();
                    }
                    if res != V::empty_map() {
                        cs.put("resources", res);
                    }
                    if s.pods[i].restarts > 0 && !terminal {
                        let died = started - r.range(60, 3000);
                        cs.put(
                            "lastState",
                            map! {
                                "terminated" => map! {
                                    "containerID" => format!("containerd://{}", r.hex(64)),
                                    "exitCode" => 137i64,
                                    "finishedAt" => ts(started),
                                    "reason" => "OOMKilled",
                                    "startedAt" => ts(died),
                                },
                            },
                        );
                    }
                    cs
                })
                .collect();
            let pod_ip = ip_string(ip);
            let mut st = map! {
                "conditions" => V::List(conds),
                "containerStatuses" => V::List(statuses),
                "hostIP" => host_ip.clone(),
                "hostIPs" => list![map! { "ip" => host_ip }],
                "phase" => match phase {
                    Phase::Succeeded => "Succeeded",
                    Phase::Failed => "Failed",
                    _ => "Running",
                },
                "qosClass" => qos,
                "startTime" => ts(scheduled),
            };
            if !terminal || w.kind == WlKind::Job {
                st.put("podIP", pod_ip.clone());
                st.put("podIPs", list![map! { "ip" => pod_ip }]);
            }
            if !w.init.is_empty() {
                let ics: Vec<V> = w
                    .init
                    .iter()
                    .map(|c| {
                        map! {
                            "containerID" => format!("containerd://{}", r.hex(64)),
                            "image" => c.image.clone(),
                            "imageID" => c.image_id.clone(),
                            "lastState" => V::empty_map(),
                            "name" => c.name,
                            "ready" => true,
                            "restartCount" => 0i64,
                            "started" => false,
                            "state" => map! {
                                "terminated" => map! {
                                    "containerID" => format!("containerd://{}", r.hex(64)),
                                    "exitCode" => 0i64,
                                    "finishedAt" => ts(started),
                                    "reason" => "Completed",
                                    "startedAt" => ts(scheduled + 1),
                                },
                            },
                        }
                    })
                    .collect();
                st.put("initContainerStatuses", V::List(ics));
            }
            let _ = nname;
            st
        }
    };
    let mut obj = map! {
        "apiVersion" => "v1",
        "kind" => "Pod",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    let manager = match s.workloads[s.pods[i].wl].kind {
        WlKind::Mirror => "kubelet",
        WlKind::Job => "kube-controller-manager",
        _ => "kube-controller-manager",
    };
    let status_time = if matches!(phase, Phase::Pending) {
        created + 1
    } else {
        ready.min(s.now)
    };
    let node_bound = node.is_some();
    let mut entries = vec![Mf {
        manager,
        op: "Update",
        sub: None,
        time: created,
        api: "v1",
        paths: &[
            &["metadata", "generateName"],
            &["metadata", "labels"],
            &["metadata", "ownerReferences"],
            &["metadata", "annotations"],
            &["spec"],
            &["!spec", "nodeName"],
        ],
    }];
    if node_bound {
        entries.push(Mf {
            manager: "kubelet",
            op: "Update",
            sub: Some("status"),
            time: status_time,
            api: "v1",
            paths: &[&["status"]],
        });
    } else {
        entries.push(Mf {
            manager: "kube-scheduler",
            op: "Update",
            sub: Some("status"),
            time: status_time,
            api: "v1",
            paths: &[&["status", "conditions"]],
        });
    }
    set_managed(s, &mut obj, &entries);
    obj
}

fn workload_meta(s: &mut Snapshot, w: usize) -> V {
    let wl = &s.workloads[w];
    let (name, ns, uid, created, helm) =
        (wl.name.clone(), wl.ns, wl.uid.clone(), wl.created, wl.helm);
    let labels = if helm {
        vec![
            ("app.kubernetes.io/instance".to_string(), name.clone()),
            ("app.kubernetes.io/managed-by".into(), "Helm".into()),
            ("app.kubernetes.io/name".into(), name.clone()),
            ("app.kubernetes.io/version".into(), "1.8.1".into()),
            ("helm.sh/chart".into(), format!("{name}-1.8.1")),
        ]
    } else {
        vec![("app".to_string(), wl.app.clone())]
    };
    let mut md = meta(s, name.clone(), Some(ns), &uid, created);
    md.put("labels", to_map(labels));
    md.put("generation", s.workloads[w].generation);
    if helm {
        md.put(
            "annotations",
            map! { "meta.helm.sh/release-name" => name, "meta.helm.sh/release-namespace" => ns },
        );
    }
    md
}

fn selector(s: &Snapshot, w: &Workload) -> V {
    map! { "matchLabels" => to_map(selector_labels(s, w)) }
}

fn apply_manager(helm: bool) -> &'static str {
    if helm {
        "helm"
    } else {
        "kubectl-client-side-apply"
    }
}

fn deployment(s: &mut Snapshot, w: usize) -> V {
    let mut r = s.rng.fork(w as u64 ^ 0x6465_706c);
    let mut md = workload_meta(s, w);
    let wl = &s.workloads[w];
    let revision = if wl.old_rs.is_some() { "2" } else { "1" };
    let spec = map! {
        "progressDeadlineSeconds" => 600i64,
        "replicas" => wl.replicas,
        "revisionHistoryLimit" => 10i64,
        "selector" => selector(s, wl),
        "strategy" => map! {
            "rollingUpdate" => map! { "maxSurge" => "25%", "maxUnavailable" => "25%" },
            "type" => "RollingUpdate",
        },
        "template" => template(s, wl),
    };
    let mut ann = match md.get("annotations") {
        Some(a) => a.clone(),
        None => V::empty_map(),
    };
    ann.put("deployment.kubernetes.io/revision", revision);
    if !wl.helm {
        let applied = map! {
            "apiVersion" => "apps/v1",
            "kind" => "Deployment",
            "metadata" => map!{
                "annotations" => map!{},
                "labels" => md.get("labels").cloned().unwrap_or(V::Null),
                "name" => wl.name.clone(),
                "namespace" => wl.ns,
            },
            "spec" => map! {
                "replicas" => wl.replicas,
                "selector" => selector(s, wl),
                "template" => template(s, wl),
            },
        };
        ann.put(
            "kubectl.kubernetes.io/last-applied-configuration",
            last_applied(&applied),
        );
    }
    if let V::Map(m) = &mut md {
        m.retain(|(k, _)| k != "annotations");
    }
    md.put("annotations", ann);
    let ready = if wl.pending { 0 } else { wl.replicas };
    let rs_name = format!("{}-{}", wl.name, wl.hash);
    let progressed = wl.rs_created + r.range(20, 90);
    let mut conds = vec![];
    if wl.pending {
        conds.push(
            condition(
                wl.created + 2,
                "MinimumReplicasUnavailable",
                "False",
                "Available",
                "Deployment does not have minimum availability.",
            )
            .with("lastUpdateTime", ts(wl.created + 2)),
        );
        conds.push(
            condition(
                wl.created + 1,
                "ReplicaSetUpdated",
                "True",
                "Progressing",
                &format!("ReplicaSet \"{rs_name}\" is progressing."),
            )
            .with("lastUpdateTime", ts(wl.created + 1)),
        );
    } else {
        conds.push(
            condition(
                wl.created + r.range(10, 60),
                "MinimumReplicasAvailable",
                "True",
                "Available",
                "Deployment has minimum availability.",
            )
            .with("lastUpdateTime", ts(wl.created + 60)),
        );
        conds.push(
            condition(
                wl.created + 1,
                "NewReplicaSetAvailable",
                "True",
                "Progressing",
                &format!("ReplicaSet \"{rs_name}\" has successfully progressed."),
            )
            .with("lastUpdateTime", ts(progressed)),
        );
    }
    let mut status = map! {
        "conditions" => V::List(conds),
        "observedGeneration" => wl.generation,
        "replicas" => wl.replicas,
        "updatedReplicas" => wl.replicas,
    };
    if ready > 0 {
        status.put("availableReplicas", ready);
        status.put("readyReplicas", ready);
    } else {
        status.put("unavailableReplicas", wl.replicas);
    }
    let helm = wl.helm;
    let created = wl.created;
    let mut obj = map! {
        "apiVersion" => "apps/v1",
        "kind" => "Deployment",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: apply_manager(helm),
                op: "Update",
                sub: None,
                time: created,
                api: "apps/v1",
                paths: &[
                    &[
                        "metadata",
                        "annotations",
                        "kubectl.kubernetes.io/last-applied-configuration",
                    ],
                    &["metadata", "annotations", "meta.helm.sh/release-name"],
                    &["metadata", "annotations", "meta.helm.sh/release-namespace"],
                    &["metadata", "labels"],
                    &["spec"],
                ],
            },
            Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: Some("status"),
                time: progressed,
                api: "apps/v1",
                paths: &[
                    &[
                        "metadata",
                        "annotations",
                        "deployment.kubernetes.io/revision",
                    ],
                    &["status"],
                ],
            },
        ],
    );
    obj
}

fn replicaset(s: &mut Snapshot, w: usize, old: bool) -> V {
    let wl = &s.workloads[w];
    let (hash, uid, created) = match (&wl.old_rs, old) {
        (Some((h, u, c)), true) => (h.clone(), u.clone(), *c),
        _ => (wl.hash.clone(), wl.rs_uid.clone(), wl.rs_created),
    };
    let name = format!("{}-{}", wl.name, hash);
    let (ns, dname, duid, replicas, pending) = (
        wl.ns,
        wl.name.clone(),
        wl.uid.clone(),
        if old { 0 } else { wl.replicas },
        wl.pending,
    );
    let mut tmpl = template(s, wl);
    let mut labels = pod_labels(s, wl);
    labels.push(("pod-template-hash".into(), hash.clone()));
    if let Some(m) = tmpl.get_mut("metadata") {
        m.put("labels", to_map(labels.clone()));
    }
    let mut sel = selector_labels(s, wl);
    sel.push(("pod-template-hash".into(), hash.clone()));
    let revision = if old {
        "1"
    } else if wl.old_rs.is_some() {
        "2"
    } else {
        "1"
    };
    let mut md = meta(s, name, Some(ns), &uid, created);
    md.put("generation", if old { 3i64 } else { 1 });
    let max_replicas = s.workloads[w].replicas + (s.workloads[w].replicas + 3) / 4;
    md.put("labels", to_map(labels));
    md.put(
        "annotations",
        map! {
            "deployment.kubernetes.io/desired-replicas" => s.workloads[w].replicas.to_string(),
            "deployment.kubernetes.io/max-replicas" => max_replicas.to_string(),
            "deployment.kubernetes.io/revision" => revision,
        },
    );
    md.put(
        "ownerReferences",
        list![owner("apps/v1", "Deployment", dname, duid)],
    );
    let spec = map! {
        "replicas" => replicas,
        "selector" => map! { "matchLabels" => to_map(sel) },
        "template" => tmpl,
    };
    let mut status =
        map! { "observedGeneration" => if old { 3i64 } else { 1 }, "replicas" => replicas };
    if replicas > 0 {
        status.put("fullyLabeledReplicas", replicas);
        if !pending {
            status.put("availableReplicas", replicas);
            status.put("readyReplicas", replicas);
        }
    }
    let mut obj = map! {
        "apiVersion" => "apps/v1",
        "kind" => "ReplicaSet",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    let later = created + 30;
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: None,
                time: created,
                api: "apps/v1",
                paths: &[
                    &["metadata", "annotations"],
                    &["metadata", "labels"],
                    &["metadata", "ownerReferences"],
                    &["spec"],
                ],
            },
            Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: Some("status"),
                time: later,
                api: "apps/v1",
                paths: &[&["status"]],
            },
        ],
    );
    obj
}

fn statefulset(s: &mut Snapshot, w: usize) -> V {
    let md = workload_meta(s, w);
    let wl = &s.workloads[w];
    let rev = format!("{}-{}", wl.name, wl.hash);
    let spec = map! {
        "persistentVolumeClaimRetentionPolicy" => map! {
            "whenDeleted" => "Retain",
            "whenScaled" => "Retain",
        },
        "podManagementPolicy" => "OrderedReady",
        "replicas" => wl.replicas,
        "revisionHistoryLimit" => 10i64,
        "selector" => selector(s, wl),
        "serviceName" => wl.name.clone(),
        "template" => template(s, wl),
        "updateStrategy" => map! {
            "rollingUpdate" => map! { "partition" => 0i64 },
            "type" => "RollingUpdate",
        },
        "volumeClaimTemplates" => list![map! {
            "apiVersion" => "v1",
            "kind" => "PersistentVolumeClaim",
            "metadata" => map! { "creationTimestamp" => V::Null, "name" => "data" },
            "spec" => map! {
                "accessModes" => list!["ReadWriteOnce"],
                "resources" => map! { "requests" => map! { "storage" => "50Gi" } },
                "storageClassName" => "gp3",
                "volumeMode" => "Filesystem",
            },
            "status" => map! { "phase" => "Pending" },
        }],
    };
    let n = wl.replicas;
    let status = map! {
        "availableReplicas" => n,
        "collisionCount" => 0i64,
        "currentReplicas" => n,
        "currentRevision" => rev.clone(),
        "observedGeneration" => 1i64,
        "readyReplicas" => n,
        "replicas" => n,
        "updateRevision" => rev,
        "updatedReplicas" => n,
    };
    let (helm, created) = (wl.helm, wl.created);
    let mut obj = map! {
        "apiVersion" => "apps/v1",
        "kind" => "StatefulSet",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: apply_manager(helm),
                op: "Update",
                sub: None,
                time: created,
                api: "apps/v1",
                paths: &[&["metadata", "labels"], &["spec"]],
            },
            Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: Some("status"),
                time: created + 300,
                api: "apps/v1",
                paths: &[&["status"]],
            },
        ],
    );
    obj
}

fn daemonset(s: &mut Snapshot, w: usize) -> V {
    let mut md = workload_meta(s, w);
    md.put(
        "annotations",
        map! { "deprecated.daemonset.template.generation" => "1" },
    );
    let wl = &s.workloads[w];
    let spec = map! {
        "revisionHistoryLimit" => 10i64,
        "selector" => selector(s, wl),
        "template" => template(s, wl),
        "updateStrategy" => map! {
            "rollingUpdate" => map! {
                "maxSurge" => 0i64,
                "maxUnavailable" => if wl.name == "aws-node" { V::from("10%") } else { V::Int(1) },
            },
            "type" => "RollingUpdate",
        },
    };
    let n = wl.replicas;
    let status = map! {
        "currentNumberScheduled" => n,
        "desiredNumberScheduled" => n,
        "numberAvailable" => n,
        "numberMisscheduled" => 0i64,
        "numberReady" => n, "observedGeneration" => 1i64, "updatedNumberScheduled" => n,
    };
    let created = wl.created;
    let mut obj = map! {
        "apiVersion" => "apps/v1",
        "kind" => "DaemonSet",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    let now = s.now;
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: "eks",
                op: "Update",
                sub: None,
                time: created,
                api: "apps/v1",
                paths: &[&["metadata", "labels"], &["spec"]],
            },
            Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: None,
                time: created + 1,
                api: "apps/v1",
                paths: &[&["metadata", "annotations"]],
            },
            Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: Some("status"),
                time: now - 900,
                api: "apps/v1",
                paths: &[&["status"]],
            },
        ],
    );
    obj
}

fn job(s: &mut Snapshot, w: usize) -> V {
    let mut md = workload_meta(s, w);
    let wl = &s.workloads[w];
    let succeeded = s
        .pods
        .iter()
        .filter(|p| p.wl == w && p.phase == Phase::Succeeded)
        .count() as i64;
    let failed = s
        .pods
        .iter()
        .filter(|p| p.wl == w && p.phase == Phase::Failed)
        .count() as i64;
    let labels = pod_labels(s, wl);
    md.put("labels", to_map(labels.clone()));
    let mut tmpl = template(s, wl);
    if let Some(m) = tmpl.get_mut("metadata") {
        m.put("labels", to_map(labels));
    }
    let spec = map! {
        "backoffLimit" => 6i64,
        "completionMode" => "NonIndexed",
        "completions" => succeeded.max(1),
        "manualSelector" => false,
        "parallelism" => 1i64,
        "podReplacementPolicy" => "TerminatingOrFailed",
        "selector" => selector(s, wl),
        "suspend" => false,
        "template" => tmpl,
    };
    let start = wl.created + 1;
    let done = start + 95 * (succeeded + failed) + 60;
    let mut status = map! {
        "completionTime" => ts(done),
        "conditions" => list![
            map! {
                "lastProbeTime" => ts(done),
                "lastTransitionTime" => ts(done),
                "message" => "Reached expected number of succeeded pods",
                "reason" => "CompletionsReached",
                "status" => "True",
                "type" => "SuccessCriteriaMet",
            },
            map! {
                "lastProbeTime" => ts(done),
                "lastTransitionTime" => ts(done),
                "message" => "Reached expected number of succeeded pods",
                "reason" => "CompletionsReached",
                "status" => "True",
                "type" => "Complete",
            },
        ],
        "ready" => 0i64,
        "startTime" => ts(start),
        "succeeded" => succeeded,
        "terminating" => 0i64,
        "uncountedTerminatedPods" => V::empty_map(),
    };
    if failed > 0 {
        status.put("failed", failed);
    }
    let created = wl.created;
    let mut obj = map! {
        "apiVersion" => "batch/v1",
        "kind" => "Job",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: "kubectl-create",
                op: "Update",
                sub: None,
                time: created,
                api: "batch/v1",
                paths: &[&["spec"], &["!spec", "selector"]],
            },
            Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: Some("status"),
                time: done,
                api: "batch/v1",
                paths: &[&["status"]],
            },
        ],
    );
    obj
}

fn pdb(s: &mut Snapshot, w: usize) -> V {
    let wl = &s.workloads[w];
    let Some((field, value)) = wl.pdb.clone() else {
        return V::Null;
    };
    let (name, ns, created) = (format!("{}-pdb", wl.name), wl.ns, wl.created + 1);
    let running = s
        .pods
        .iter()
        .filter(|p| p.wl == w && p.phase == Phase::Running)
        .count() as i64;
    let expected = wl.replicas;
    let desired = if field == "minAvailable" {
        if let Some(pct) = value.strip_suffix('%') {
            (expected * pct.parse::<i64>().unwrap_or(0) + 99) / 100
        } else {
            value.parse().unwrap_or(0)
        }
    } else {
        (expected - value.parse::<i64>().unwrap_or(1)).max(0)
    };
    let allowed = (running - desired).max(0);
    let sel = selector(s, wl);
    let uid = s.rng.uuid();
    let mut md = meta(s, name, Some(ns), &uid, created);
    md.put("generation", 1i64);
    let val = if value.ends_with('%') {
        V::from(value.clone())
    } else {
        V::Int(value.parse().unwrap_or(1))
    };
    let spec = map! { field.clone() => val, "selector" => sel };
    let (reason, st) = if allowed > 0 {
        ("SufficientPods", "True")
    } else {
        ("InsufficientPods", "False")
    };
    let status = map! {
        "conditions" => list![
            karpenter_condition(created + 5, "DisruptionAllowed", st, reason, "", 1),
        ],
        "currentHealthy" => running,
        "desiredHealthy" => desired,
        "disruptionsAllowed" => allowed,
        "expectedPods" => expected,
        "observedGeneration" => 1i64,
    };
    let mut obj = map! {
        "apiVersion" => "policy/v1",
        "kind" => "PodDisruptionBudget",
        "metadata" => md,
        "spec" => spec,
        "status" => status,
    };
    let now = s.now;
    set_managed(
        s,
        &mut obj,
        &[
            Mf {
                manager: "kubectl-client-side-apply",
                op: "Update",
                sub: None,
                time: created,
                api: "policy/v1",
                paths: &[&["spec"]],
            },
            Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: Some("status"),
                time: now - 3600,
                api: "policy/v1",
                paths: &[&["status"]],
            },
        ],
    );
    obj
}

fn namespace(s: &mut Snapshot, i: usize) -> V {
    let (ns, uid, created) = s.ns_uids[i].clone();
    let mut md = meta(s, ns, None, &uid, created);
    md.put("labels", map! { "kubernetes.io/metadata.name" => ns });
    let mut obj = map! {
        "apiVersion" => "v1", "kind" => "Namespace", "metadata" => md,
        "spec" => map! { "finalizers" => list!["kubernetes"] },
        "status" => map! { "phase" => "Active" },
    };
    let manager = if ns.starts_with("kube-") || ns == "default" {
        "kube-apiserver"
    } else {
        "kubectl-create"
    };
    set_managed(
        s,
        &mut obj,
        &[Mf {
            manager,
            op: "Update",
            sub: None,
            time: created,
            api: "v1",
            paths: &[&["metadata", "labels"]],
        }],
    );
    obj
}

// ---------------------------------------------------------------------------------------------
// Noise: what a snapshot of everything would also hold.

pub(crate) fn noise(s: &mut Snapshot, emit: &mut Emit, out: &mut String, deployments: &[usize]) {
    // Services: one per Deployment, and kubernetes.
    let mut svcs: Vec<(&'static str, String, Option<usize>)> =
        vec![("default", "kubernetes".into(), None)];
    for &w in deployments {
        let wl = &s.workloads[w];
        let name = if wl.name == "coredns" {
            "kube-dns".to_string()
        } else {
            wl.name.clone()
        };
        svcs.push((wl.ns, name, Some(w)));
    }
    svcs.sort();
    let mut cluster_ip = 0x0A64_0000u32 + 10;
    for (ns, name, w) in &svcs {
        cluster_ip += 1 + s.rng.below(50) as u32;
        let uid = s.rng.uuid();
        let created = w
            .map(|w| s.workloads[w].created)
            .unwrap_or(s.cluster_created);
        let mut md = meta(s, name.clone(), Some(ns), &uid, created);
        let ip = if w.is_none() {
            "10.100.0.1".to_string()
        } else {
            ip_string(cluster_ip)
        };
        let (ports, sel) = match w {
            None => (
                list![map! {
                    "name" => "https",
                    "port" => 443i64,
                    "protocol" => "TCP",
                    "targetPort" => 443i64,
                }],
                None,
            ),
            Some(w) => {
                let wl = &s.workloads[*w];
                md.put("labels", to_map(pod_labels(s, wl)));
                (
                    list![map! {
                        "name" => "http",
                        "port" => 80i64,
                        "protocol" => "TCP",
                        "targetPort" => "http",
                    }],
                    Some(to_map(selector_labels(s, wl))),
                )
            }
        };
        let mut spec = map! {
            "clusterIP" => ip.clone(),
            "clusterIPs" => list![ip],
            "internalTrafficPolicy" => "Cluster",
            "ipFamilies" => list!["IPv4"], "ipFamilyPolicy" => "SingleStack", "ports" => ports,
            "sessionAffinity" => "None", "type" => "ClusterIP",
        };
        if let Some(sel) = sel {
            spec.put("selector", sel);
        }
        let mut obj = map! {
            "apiVersion" => "v1",
            "kind" => "Service",
            "metadata" => md,
            "spec" => spec,
            "status" => map! { "loadBalancer" => V::empty_map() },
        };
        set_managed(
            s,
            &mut obj,
            &[Mf {
                manager: "kubectl-client-side-apply",
                op: "Update",
                sub: None,
                time: created,
                api: "v1",
                paths: &[
                    &["metadata", "labels"],
                    &["spec"],
                    &["!spec", "clusterIP"],
                    &["!spec", "clusterIPs"],
                ],
            }],
        );
        emit(obj, out);
    }
    // ConfigMaps: kube-root-ca.crt in every namespace (a multi-line value), one app config.
    let ca = {
        let mut pem = String::from("-----BEGIN CERTIFICATE-----\n");
        for _ in 0..18 {
            let line: String = (0..64)
                .map(|_| {
                    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                        [s.rng.below(64) as usize] as char
                })
                .collect();
            pem.push_str(&line);
            pem.push('\n');
        }
        pem.push_str("-----END CERTIFICATE-----\n");
        pem
    };
    let mut cms: Vec<(&'static str, &'static str)> = NAMESPACES
        .iter()
        .map(|ns| (*ns, "kube-root-ca.crt"))
        .collect();
    cms.push(("checkout", "checkout-config"));
    cms.sort();
    for (ns, name) in cms {
        let uid = s.rng.uuid();
        let created = s
            .ns_uids
            .iter()
            .find(|n| n.0 == ns)
            .map(|n| n.2)
            .unwrap_or(s.cluster_created);
        let mut md = meta(s, name, Some(ns), &uid, created);
        let data = if name == "kube-root-ca.crt" {
            md.put(
                "annotations",
                map! { "kubernetes.io/description" => "Contains a CA bundle that can be used to \
                verify the kube-apiserver when using internal endpoints such as the internal \
                service IP or kubernetes.default.svc. No other usage is guaranteed across \
                distributions of Kubernetes clusters." },
            );
            map! { "ca.crt" => ca.clone() }
        } else {
            map! {
                "application.yaml" => "server:\n  port: 8080\nfeatures:\n  newCheckout: true\n",
                "LOG_FORMAT" => "json",
                "retries" => "3",
                "enabled" => "yes",
                "timeout" => "1:30",
            }
        };
        let mut obj =
            map! { "apiVersion" => "v1", "data" => data, "kind" => "ConfigMap", "metadata" => md };
        set_managed(
            s,
            &mut obj,
            &[Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: None,
                time: created,
                api: "v1",
                paths: &[&["data"], &["metadata", "annotations"]],
            }],
        );
        emit(obj, out);
    }
    // Secrets.
    for (ns, name) in [("checkout", "checkout-db"), ("payments", "stripe-keys")] {
        let uid = s.rng.uuid();
        let created = s.cluster_created + 86_400 * 30;
        let md = meta(s, name, Some(ns), &uid, created);
        let b64 = |r: &mut crate::rng::Rng, n: usize| -> String {
            (0..n)
                .map(|_| {
                    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                        [r.below(64) as usize] as char
                })
                .collect::<String>()
                + "="
        };
        let data = map! { "password" => b64(&mut s.rng, 31), "username" => "YXBw" };
        let mut obj = map! {
            "apiVersion" => "v1",
            "data" => data,
            "kind" => "Secret",
            "metadata" => md,
            "type" => "Opaque",
        };
        set_managed(
            s,
            &mut obj,
            &[Mf {
                manager: "kubectl-create",
                op: "Update",
                sub: None,
                time: created,
                api: "v1",
                paths: &[&["data"], &["type"]],
            }],
        );
        emit(obj, out);
    }
    // Events: a few about Karpenter's NodeClaims and the Pending pods.
    let mut evs: Vec<(&'static str, String, V, &'static str, String, &'static str)> = Vec::new();
    for n in 0..s.nodes.len().min(5) {
        if let NodeKind::Karpenter { .. } = s.nodes[n].kind {
            let nc = &s.nodes[n];
            evs.push((
                "default",
                format!("{}.{:x}", nc.claim_name, s.rng.next_u64() >> 1),
                map! {
                    "apiVersion" => "karpenter.sh/v1",
                    "kind" => "NodeClaim",
                    "name" => nc.claim_name.clone(),
                    "uid" => nc.claim_uid.clone(),
                },
                "DisruptionBlocked",
                "Nominated for a pending pod".to_string(),
                "Normal",
            ));
        }
    }
    for p in s.pods.iter().filter(|p| p.phase == Phase::Pending) {
        let wl = &s.workloads[p.wl];
        evs.push((
            wl.ns,
            format!("{}.{:x}", p.name, s.rng.next_u64() >> 1),
            map! {
                "apiVersion" => "v1",
                "kind" => "Pod",
                "name" => p.name.clone(),
                "namespace" => wl.ns,
                "uid" => p.uid.clone(),
            },
            "FailedScheduling",
            "Failed to schedule pod, incompatible with nodepool \"arm64\", daemonset \
                overhead={\"cpu\":\"160m\",\"memory\":\"120Mi\",\"pods\":\"3\"}, did not tolerate \
                    taint (arch=arm64:NoSchedule); incompatible with nodepool \"spot\", daemonset \
                        overhead={\"cpu\":\"160m\",\"memory\":\"120Mi\",\"pods\":\"3\"}, \
                            incompatible requirements, label \"karpenter.sh/capacity-type\" does \
                                not have known values"
                .to_string(),
            "Warning",
        ));
    }
    evs.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    for (ns, name, involved, reason, message, typ) in evs {
        let uid = s.rng.uuid();
        let t = s.now - s.rng.range(30, 3000);
        let md = meta(s, name, Some(ns), &uid, t);
        let mut obj = map! {
            "apiVersion" => "v1", "count" => s.rng.range(
                1,
                40,
            ), "eventTime" => V::Null, "firstTimestamp" => ts(t - 3600),
            "involvedObject" => involved,
            "kind" => "Event",
            "lastTimestamp" => ts(t),
            "message" => message,
            "metadata" => md,
            "reason" => reason,
            "reportingComponent" => "karpenter",
            "reportingInstance" => "",
            "source" => map! { "component" => "karpenter" },
            "type" => typ,
        };
        set_managed(
            s,
            &mut obj,
            &[Mf {
                manager: "karpenter",
                op: "Update",
                sub: None,
                time: t,
                api: "v1",
                paths: &[
                    &["count"],
                    &["firstTimestamp"],
                    &["involvedObject"],
                    &["lastTimestamp"],
                    &["message"],
                    &["reason"],
                    &["source"],
                    &["type"],
                ],
            }],
        );
        emit(obj, out);
    }
    // Endpoints for the first few Deployments.
    let mut eps: Vec<usize> = deployments.iter().copied().take(5).collect();
    eps.sort_by(|&a, &b| {
        (s.workloads[a].ns, &s.workloads[a].name).cmp(&(s.workloads[b].ns, &s.workloads[b].name))
    });
    for w in eps {
        let wl = &s.workloads[w];
        let addresses: Vec<V> = s
            .pods
            .iter()
            .filter(|p| p.wl == w && p.phase == Phase::Running)
            .map(|p| {
                map! {
                    "ip" => ip_string(p.ip),
                    "nodeName" => p.node.map(|n| s.nodes[n].name.clone()).unwrap_or_default(),
                    "targetRef" => map! {
                        "kind" => "Pod",
                        "name" => p.name.clone(),
                        "namespace" => wl.ns,
                        "uid" => p.uid.clone(),
                    },
                }
            })
            .collect();
        let (name, ns, created) = (
            if wl.name == "coredns" {
                "kube-dns".to_string()
            } else {
                wl.name.clone()
            },
            wl.ns,
            wl.created,
        );
        let labels = to_map(pod_labels(s, wl));
        let uid = s.rng.uuid();
        let mut md = meta(s, name, Some(ns), &uid, created);
        md.put(
            "labels",
            labels.with("endpoints.kubernetes.io/managed-by", "endpoint-controller"),
        );
        md.put(
            "annotations",
            map! { "endpoints.kubernetes.io/last-change-trigger-time" => ts(created + 40) },
        );
        let subsets = if addresses.is_empty() {
            V::List(vec![])
        } else {
            list![map! {
                "addresses" => V::List(addresses),
                "ports" => list![
                    map! { "name" => "http", "port" => 8080i64, "protocol" => "TCP" },
                ],
            }]
        };
        let mut obj = map! { "apiVersion" => "v1", "kind" => "Endpoints", "metadata" => md };
        if subsets != V::List(vec![]) {
            obj.put("subsets", subsets);
        }
        set_managed(
            s,
            &mut obj,
            &[Mf {
                manager: "kube-controller-manager",
                op: "Update",
                sub: None,
                time: created + 40,
                api: "v1",
                paths: &[
                    &["metadata", "annotations"],
                    &["metadata", "labels"],
                    &["subsets"],
                ],
            }],
        );
        emit(obj, out);
    }
    // A custom resource.
    let uid = s.rng.uuid();
    let created = s.cluster_created + 86_400 * 40;
    let mut md = meta(s, "karpenter", Some("karpenter"), &uid, created);
    md.put("generation", 1i64);
    md.put("labels", map! { "release" => "kube-prometheus-stack" });
    let mut obj = map! {
        "apiVersion" => "monitoring.coreos.com/v1", "kind" => "ServiceMonitor", "metadata" => md,
        "spec" => map! {
            "endpoints" => list![
                map! { "interval" => "30s", "path" => "/metrics", "port" => "http-metrics" },
            ],
            "namespaceSelector" => map! { "matchNames" => list!["karpenter"] },
            "selector" => map! {
                "matchLabels" => map! { "app.kubernetes.io/name" => "karpenter" },
            },
        },
    };
    set_managed(
        s,
        &mut obj,
        &[Mf {
            manager: "helm",
            op: "Update",
            sub: None,
            time: created,
            api: "monitoring.coreos.com/v1",
            paths: &[&["metadata", "labels"], &["spec"]],
        }],
    );
    emit(obj, out);
}

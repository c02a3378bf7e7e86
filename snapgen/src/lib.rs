//! Deterministic snapshots of an EKS cluster running Karpenter v1, in the exact text of
//! `kubectl get nodes,nodeclaims,nodepools,ec2nodeclasses,pods,deployments,replicasets,
//! statefulsets,daemonsets,jobs,poddisruptionbudgets,namespaces -A -o yaml|json
//! --show-managed-fields`, at any size: tests and benchmarks of the snapshot reader use them.
//!
//! [`snapshot`] plans the cluster first ([`Params`]: nodes, pods, seed, the share of
//! Karpenter's nodes, region, managedFields, noise, Fargate, the snapshot instant, the
//! NodePool/EC2NodeClass hashes), then writes each object as a small tree straight into one
//! `String` (about 120 MB of YAML for 500 nodes and 10,000 pods, in about 3 s). Randomness
//! is SplitMix64 from the seed; every collection in the output is a `Vec` in a fixed order;
//! no clock: the same `Params` give the same bytes.
//!
//! What a snapshot holds: Karpenter's Nodes and NodeClaims (NodePools `default`, `spot`,
//! `arm64`; EC2NodeClasses `default` (AL2023) and `bottlerocket`), the managed node group
//! `system`, optionally one Fargate node; DaemonSets (aws-node, kube-proxy, ebs-csi-node, one
//! pod per EC2 node pinned with `matchFields`), Deployments → ReplicaSets (an older one at 0
//! replicas for some) → Pods, two StatefulSets, a Job with Succeeded pods and a Failed one,
//! two unschedulable Pending pods, a mirror pod, PodDisruptionBudgets, Namespaces; with
//! `noise`, Services, ConfigMaps, Secrets, Events, Endpoints and a ServiceMonitor. Pods fit:
//! on every node the requests of its non-terminal pods stay within the catalog's allocatable
//! (`core/data/instance-types.csv`) and max pods; about one Karpenter node in eight is under
//! a third full and one runs only DaemonSet pods. Each NodeClaim carries its NodePool's
//! `karpenter.sh/nodepool-hash` unless it is one of the `drifted_share` (an older hash and a
//! `Drifted` condition).
//!
//! # The shape, and what it was checked against
//!
//! * **kubectl's printer, byte for byte.** kubectl v1.32.4 is installed on the development
//!   machine (Debian package `kubectl`, the Google Cloud SDK build; it is in the machine
//!   image of every kind, so CI has it too). `tests/kubectl-shape.sh` (a) feeds the JSON
//!   snapshot to `kubectl patch --local -p '{}' --show-managed-fields -o yaml|json`, which
//!   re-reads and re-prints every object, and requires the output to equal
//!   `kpg-snapgen --objects` (each object alone) byte for byte, for three parameter sets
//!   (with noise: multi-line ConfigMap values as `|` blocks, long Event messages folded at
//!   column 80); (b) takes kubectl's own `create deployment|namespace|job|configmap
//!   --dry-run=client` objects as `-o json` and requires `kpg-snapgen --reprint` to print
//!   kubectl's `-o yaml` of them (`creationTimestamp: null`, `strategy: {}`, `image: "y"`,
//!   quoting of `true`, `123`, `0o17`, `2024-01-02`, `10:30`, `a: b`, `a #b`, `- x`, empty
//!   strings, `{"a":1}`; key order `_u` < `Up`, `k9090` < `k10250`). The rules behind it
//!   ([`tree`]): go-yaml v2's resolver and emitter analysis, its `keyList.Less` key order
//!   (YAML) against Go's byte order (JSON), folding at best_width 80, `json.MarshalIndent`
//!   with four spaces and HTML escapes. The `kind: List` frame (`items:`, `kind: List`,
//!   `metadata: {resourceVersion: ""}`) is kubectl's multi-resource `get` (unit test).
//!   Note: kubectl hides managedFields unless `--show-managed-fields`;
//!   `Params::managed_fields = false` is what a plain `kubectl get -o yaml` prints.
//! * **NodeClaim**: `kubectl get nodeclaim -o yaml` pasted in aws/karpenter-provider-aws#7935
//!   and kubernetes-sigs/karpenter#2169: annotations `compatibility.karpenter.k8s.aws/
//!   cluster-name-tagged`, `karpenter.k8s.aws/ec2nodeclass-hash` (quoted decimal) with
//!   `-hash-version: v4` (v3 in the older paste), `karpenter.k8s.aws/tagged: "true"`,
//!   `karpenter.sh/nodepool-hash` with `-hash-version: v3`; `finalizers:
//!   [karpenter.sh/termination]`, `generateName: <pool>-`, `generation`, the
//!   `karpenter.k8s.aws/instance-*` labels with numbers quoted, `karpenter.sh/capacity-type`,
//!   `karpenter.sh/nodepool`; the conditions (Launched, Registered, Initialized, Ready,
//!   with `message: ""` and `observedGeneration`) as in #8032's describe output.
//! * **EC2NodeClass**: aws/karpenter-provider-aws#9098 (`-o yaml`, 2026): hash annotation and
//!   `v4`, `finalizers: [karpenter.k8s.aws/termination]`, `metadataOptions` fields,
//!   `amiSelectorTerms`; the status conditions from #9203/#9476 (AMIsReady, SubnetsReady,
//!   SecurityGroupsReady, InstanceProfileReady, ValidationSucceeded, CapacityReservationsReady,
//!   Ready).
//! * **NodePool**: aws/karpenter-provider-aws#7320 (`-o yaml`): `karpenter.sh/nodepool-hash:
//!   "4458080172936680623"`, `-hash-version: v3`, `budgets: - nodes: 10%`,
//!   `consolidateAfter`; NodeRegistrationHealthy from #9476.
//! * **Node**: aws/karpenter-provider-aws#5733 (`kubectl get node -o yaml`): `providerID:
//!   aws:///<zone>/i-...`, addresses InternalIP/Hostname/InternalDNS, allocatable `cpu:
//!   1930m`, `ephemeral-storage: "18233774458"` (bytes, quoted), `hugepages-1Gi: "0"` (and
//!   `hugepages-32Mi`/`64Ki` on arm64), memory in `Ki`, `pods` quoted; conditions with
//!   lastHeartbeatTime and the kubelet's messages; labels from #7251 and #4969 (beta labels,
//!   `k8s.io/cloud-provider-aws`, `karpenter.sh/initialized`/`registered`,
//!   `topology.k8s.aws/zone-id`).
//! * **managedFields**: kubernetes-sigs/karpenter#660 (`kubectl get node -o json`): entries
//!   `apiVersion`/`fieldsType: FieldsV1`/`fieldsV1`/`manager`/`operation`/`time`, managers
//!   `aws-cloud-controller-manager` (`f:k8s.io/cloud-provider-aws`) and `karpenter`
//!   (`f:finalizers: {.: {}, v:"karpenter.sh/termination": {}}`). Here each manager's
//!   `fieldsV1` is derived from the parts of the object it owns (`k:{...}` for keyed lists,
//!   `v:"..."` for finalizers, `{}` for atomic lists).
//! * **Not compared with a pasted real object** (written from the Kubernetes API's defaults
//!   and controllers): Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, PDB and
//!   Namespace field sets (admission's tolerations, the projected `kube-api-access-*` volume,
//!   `status.containerStatuses[].volumeMounts` of 1.30+, `runtimeHandlers`, the DaemonSet
//!   controller's `matchFields` term), and which `.` markers each fieldsV1 node has.

pub mod catalog;
mod objects;
mod plan;
pub mod rng;
pub mod time;
pub mod tree;

/// What a snapshot holds; [`Params::default`] is a 500-node, 10,000-pod EKS cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Nodes in all: Karpenter's, the managed node group's and (with `fargate`) one Fargate node.
    pub nodes: usize,
    /// Pod objects in all: DaemonSet pods, the fixed system pods, StatefulSet, Job, mirror and
    /// Pending pods, and Deployment pods for the rest. With too few for one pod of each
    /// DaemonSet per node, fewer DaemonSets run.
    pub pods: usize,
    pub seed: u64,
    /// Fraction (0..=1) of the non-Fargate nodes that Karpenter launched; the rest belong to
    /// the managed node group `system`.
    pub karpenter_share: f64,
    /// Fraction (0..=1) of the NodeClaims (and their Nodes) that carry an older
    /// `karpenter.sh/nodepool-hash` than their NodePool (already drifted, condition `Drifted`).
    pub drifted_share: f64,
    pub region: String,
    /// `metadata.managedFields` on every object (most of a real snapshot's bytes).
    pub managed_fields: bool,
    /// Services, ConfigMaps, Secrets, Events, Endpoints and ServiceMonitors besides.
    pub noise: bool,
    /// One of the nodes is a Fargate node running one pod.
    pub fargate: bool,
    /// The instant the snapshot was taken (RFC 3339, UTC): every timestamp is before it.
    pub instant: String,
    /// `karpenter.sh/nodepool-hash` of the NodePools `default`, `spot`, `arm64`.
    pub nodepool_hashes: [u64; 3],
    /// The older hash drifted NodeClaims carry, per NodePool.
    pub drifted_nodepool_hashes: [u64; 3],
    /// `karpenter.k8s.aws/ec2nodeclass-hash` of the EC2NodeClasses `bottlerocket`, `default`.
    pub ec2nodeclass_hashes: [u64; 2],
}

impl Default for Params {
    fn default() -> Params {
        Params {
            nodes: 500,
            pods: 10_000,
            seed: 1,
            karpenter_share: 0.9,
            drifted_share: 0.05,
            region: "us-east-1".into(),
            managed_fields: true,
            noise: false,
            fargate: true,
            instant: "2026-12-01T10:00:00Z".into(),
            nodepool_hashes: [
                6_821_555_240_594_823_858,
                858_331_932_740_828_693,
                8_819_568_790_251_686_296,
            ],
            drifted_nodepool_hashes: [
                11_307_262_409_761_826_203,
                7_960_402_153_917_383_591,
                14_092_838_551_246_731_305,
            ],
            ec2nodeclass_hashes: [9_203_412_518_877_210_046, 2_718_930_574_441_196_821],
        }
    }
}

/// `-o yaml` or `-o json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

/// The snapshot as `kubectl get nodes,nodeclaims,nodepools,ec2nodeclasses,pods,deployments,
/// replicasets,statefulsets,daemonsets,jobs,poddisruptionbudgets,namespaces -A -o yaml|json`
/// (plus `services,configmaps,secrets,events,endpoints,servicemonitors` with `noise`) prints
/// it: one `kind: List`. The same `Params` give the same bytes.
pub fn snapshot(params: &Params, format: Format) -> String {
    plan::Snapshot::plan(params).render(format, false)
}

/// Each object alone, concatenated, as `kubectl patch --local -f snapshot.json -p '{}' -o
/// yaml|json` prints them: what `tests/kubectl-shape.sh` holds the generator against.
pub fn objects(params: &Params, format: Format) -> String {
    plan::Snapshot::plan(params).render(format, true)
}

/// Any JSON object (or `kind: List`) printed as `kubectl -o yaml|json` prints it: what
/// `tests/kubectl-shape.sh` holds against kubectl's own output of the objects it makes.
pub fn reprint(json: &str, format: Format) -> Result<String, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let mut v = from_json(&value);
    v.sort(format == Format::Yaml);
    let mut out = String::new();
    match (&v, format) {
        (tree::V::Map(m), Format::Yaml) if !m.is_empty() => {
            tree::write_yaml_map(m, 0, false, &mut out)
        }
        (_, Format::Yaml) => return Err("not a JSON object".into()),
        (_, Format::Json) => {
            tree::write_json(&v, 0, &mut out);
            out.push('\n');
        }
    }
    Ok(out)
}

fn from_json(v: &serde_json::Value) -> tree::V {
    use serde_json::Value as J;
    match v {
        J::Null => tree::V::Null,
        J::Bool(b) => tree::V::Bool(*b),
        J::Number(n) => tree::V::Int(n.as_i64().unwrap_or(0)),
        J::String(s) => tree::V::from(s.clone()),
        J::Array(a) => tree::V::List(a.iter().map(from_json).collect()),
        J::Object(m) => tree::V::Map(
            m.iter()
                .map(|(k, v)| (std::borrow::Cow::Owned(k.clone()), from_json(v)))
                .collect(),
        ),
    }
}

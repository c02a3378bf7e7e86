//! The cluster, planned before a byte is written: nodes, NodeClaims, workloads and where each
//! pod runs (requests fit what each node has allocatable), then every object in kubectl's
//! order.

use crate::catalog::{self, InstanceType};
use crate::rng::Rng;
use crate::tree::{self, V};
use crate::{Format, Params};

pub(crate) const POOLS: [&str; 3] = ["default", "spot", "arm64"];
pub(crate) const CLASSES: [&str; 2] = ["bottlerocket", "default"];
/// Each pool's EC2NodeClass (index into `CLASSES`).
pub(crate) const POOL_CLASS: [usize; 3] = [1, 1, 0];
const POOL_TYPES: [&[&str]; 3] = [
    &[
        "m5.xlarge",
        "m5.2xlarge",
        "m6i.xlarge",
        "m6i.2xlarge",
        "m7i.xlarge",
        "c5.xlarge",
        "c5.2xlarge",
        "c6i.2xlarge",
        "r5.xlarge",
        "m5.4xlarge",
    ],
    &[
        "m5.xlarge",
        "m5.2xlarge",
        "c5.xlarge",
        "c5.2xlarge",
        "c5.4xlarge",
        "r5.xlarge",
        "r5.2xlarge",
        "m6i.2xlarge",
    ],
    &["m6g.xlarge", "m6g.2xlarge", "c6g.xlarge"],
];
const MNG_TYPE: &str = "m5.xlarge";
const ECR: &str = "602401143452.dkr.ecr.us-east-1.amazonaws.com";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NodeKind {
    Karpenter { pool: usize, drifted: bool },
    Managed,
    Fargate,
}

pub(crate) struct NodeP {
    pub name: String,
    pub ip: u32,
    pub zone: usize,
    pub kind: NodeKind,
    pub it: InstanceType,
    pub spot: bool,
    pub instance_id: String,
    pub uid: String,
    pub created: i64,
    pub claim_name: String,
    pub claim_uid: String,
    pub ami: String,
    /// Requests of the non-terminal pods bound here (millicores, MiB, count).
    pub used: (i64, i64, i64),
    /// Fill target in per mille of allocatable for workload pods.
    pub target: i64,
    pub last_pod_event: i64,
}

impl NodeP {
    pub fn alloc(&self) -> (i64, i64, i64) {
        (
            self.it.alloc_cpu_m,
            self.it.alloc_memory_mib,
            self.it.max_pods,
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum WlKind {
    Deployment,
    StatefulSet,
    DaemonSet,
    Job,
    Mirror,
}

/// One container of a workload's template.
#[derive(Clone)]
pub(crate) struct Container {
    pub name: &'static str,
    pub image: String,
    pub image_id: String,
    pub cpu_m: i64,
    pub mem_mi: i64,
    /// Limits: (cpu millicores or 0 for none, memory MiB or 0).
    pub limits: (i64, i64),
    pub env: Vec<(String, String)>,
    pub ports: Vec<(&'static str, i64)>,
    pub args: Vec<String>,
}

pub(crate) struct Workload {
    pub kind: WlKind,
    pub ns: &'static str,
    pub name: String,
    pub uid: String,
    pub app: String,
    pub replicas: i64,
    pub containers: Vec<Container>,
    pub init: Vec<Container>,
    pub created: i64,
    pub host_network: bool,
    pub priority_class: Option<&'static str>,
    pub service_account: Option<String>,
    /// The current ReplicaSet (Deployments) or controller revision hash.
    pub hash: String,
    pub rs_uid: String,
    pub rs_created: i64,
    /// An older ReplicaSet scaled to 0 (Deployments): (hash, uid, created).
    pub old_rs: Option<(String, String, i64)>,
    pub pdb: Option<(String, String)>,
    pub helm: bool,
    pub pending: bool,
    pub fargate: bool,
    pub generation: i64,
}

impl Workload {
    pub fn requests(&self) -> (i64, i64) {
        let cpu: i64 = self.containers.iter().map(|c| c.cpu_m).sum();
        let mem: i64 = self.containers.iter().map(|c| c.mem_mi).sum();
        let icpu = self.init.iter().map(|c| c.cpu_m).max().unwrap_or(0);
        let imem = self.init.iter().map(|c| c.mem_mi).max().unwrap_or(0);
        (cpu.max(icpu), mem.max(imem))
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Phase {
    Running,
    Succeeded,
    Failed,
    Pending,
}

pub(crate) struct PodP {
    pub wl: usize,
    pub name: String,
    pub uid: String,
    pub node: Option<usize>,
    pub ip: u32,
    pub phase: Phase,
    pub created: i64,
    pub ordinal: i64,
    pub api_suffix: String,
    /// Pods of the Job: its completion order.
    pub restarts: i64,
}

pub(crate) struct Zone {
    pub name: String,
    pub id: String,
    pub subnet: String,
    pub next: u32,
}

pub(crate) struct Snapshot<'p> {
    pub p: &'p Params,
    pub rng: Rng,
    pub now: i64,
    pub rv: u64,
    pub zones: Vec<Zone>,
    pub nodes: Vec<NodeP>,
    pub workloads: Vec<Workload>,
    pub pods: Vec<PodP>,
    pub account: String,
    pub cluster: String,
    pub cluster_created: i64,
    pub pool_uids: [String; 3],
    pub pool_created: [i64; 3],
    pub class_uids: [String; 2],
    pub class_created: [i64; 2],
    pub amis: Vec<(String, String, &'static str, &'static str)>,
    pub ns_uids: Vec<(&'static str, String, i64)>,
    pub sg: (String, String),
    pub subnet_ids: Vec<String>,
    pub lt_id: String,
    pub profile: String,
    pub ds_count: usize,
}

pub(crate) fn ip_string(ip: u32) -> String {
    format!(
        "{}.{}.{}.{}",
        ip >> 24,
        (ip >> 16) & 255,
        (ip >> 8) & 255,
        ip & 255
    )
}

fn zone_id(region: &str, i: usize) -> String {
    let parts: Vec<&str> = region.split('-').collect();
    if parts.len() != 3 {
        return format!("{region}-az{}", i + 1);
    }
    let dir = match parts[1] {
        "east" => "e",
        "west" => "w",
        "north" => "n",
        "south" => "s",
        "central" => "c",
        "northeast" => "ne",
        "southeast" => "se",
        "northwest" => "nw",
        "southwest" => "sw",
        other => &other[..1],
    };
    let az = if region == "us-east-1" {
        [4, 6, 1][i]
    } else {
        i + 1
    };
    format!("{}{}{}-az{az}", parts[0], dir, parts[2])
}

pub(crate) const NAMESPACES: [&str; 12] = [
    "analytics",
    "checkout",
    "data",
    "default",
    "karpenter",
    "kube-node-lease",
    "kube-public",
    "kube-system",
    "monitoring",
    "payments",
    "search",
    "web",
];
const APP_NAMESPACES: [&str; 6] = [
    "analytics",
    "checkout",
    "payments",
    "search",
    "web",
    "monitoring",
];
const PREFIXES: [&str; 16] = [
    "cart",
    "catalog",
    "checkout",
    "orders",
    "payments",
    "ledger",
    "search",
    "ranking",
    "users",
    "auth",
    "notifications",
    "inventory",
    "pricing",
    "reviews",
    "shipping",
    "recommendations",
];
const SUFFIXES: [&str; 10] = [
    "api",
    "worker",
    "frontend",
    "consumer",
    "gateway",
    "scheduler",
    "indexer",
    "sync",
    "cache",
    "web",
];

impl<'p> Snapshot<'p> {
    pub fn plan(p: &'p Params) -> Snapshot<'p> {
        let mut rng = Rng::new(p.seed ^ 0x5eed_0fc1_u64.wrapping_mul(0x1000_0000_01b3));
        let now = crate::time::parse(&p.instant).unwrap_or(1_796_119_200);
        let zones = (0..3)
            .map(|i| Zone {
                name: format!("{}{}", p.region, ["a", "b", "c"][i]),
                id: zone_id(&p.region, i),
                subnet: format!("subnet-0{}", rng.hex(16)),
                next: 10,
            })
            .collect();
        let account = format!("{:012}", rng.below(900_000_000_000) + 100_000_000_000);
        let mut s = Snapshot {
            p,
            now,
            rv: 100_000_000 + rng.below(900_000_000),
            zones,
            nodes: Vec::new(),
            workloads: Vec::new(),
            pods: Vec::new(),
            account,
            cluster: "prod-use".to_string() + &rng.alnum(3),
            cluster_created: now - 400 * 86_400 - rng.range(0, 86_400),
            pool_uids: [rng.uuid(), rng.uuid(), rng.uuid()],
            pool_created: [0; 3],
            class_uids: [rng.uuid(), rng.uuid()],
            class_created: [0; 2],
            amis: Vec::new(),
            ns_uids: Vec::new(),
            sg: (format!("sg-0{}", rng.hex(16)), String::new()),
            subnet_ids: Vec::new(),
            lt_id: format!("lt-0{}", rng.hex(16)),
            profile: String::new(),
            ds_count: 0,
            rng,
        };
        s.sg.1 = format!(
            "eks-cluster-sg-{}-{}",
            s.cluster,
            s.rng.range(100_000_000, 999_999_999)
        );
        s.profile = format!(
            "{}_{}",
            s.cluster,
            s.rng.range(1_000_000_000_000_000, 9_999_999_999_999_999)
        );
        s.subnet_ids = s.zones.iter().map(|z| z.subnet.clone()).collect();
        for i in 0..3 {
            s.pool_created[i] =
                s.cluster_created + 86_400 * (10 + i as i64 * 30) + s.rng.range(0, 86_400);
        }
        for i in 0..2 {
            s.class_created[i] =
                s.cluster_created + 86_400 * (9 + i as i64 * 20) + s.rng.range(0, 86_400);
        }
        // AMIs: (id, name, arch, family) — the EC2NodeClasses' status and the nodes' images.
        s.amis = vec![
            (
                format!("ami-0{}", s.rng.hex(16)),
                "amazon-eks-node-al2023-x86_64-standard-1.33-v20261112".into(),
                "amd64",
                "al2023",
            ),
            (
                format!("ami-0{}", s.rng.hex(16)),
                "amazon-eks-node-al2023-arm64-standard-1.33-v20261112".into(),
                "arm64",
                "al2023",
            ),
            (
                format!("ami-0{}", s.rng.hex(16)),
                "bottlerocket-aws-k8s-1.33-x86_64-v1.50.0-1b7a1c2e".into(),
                "amd64",
                "bottlerocket",
            ),
            (
                format!("ami-0{}", s.rng.hex(16)),
                "bottlerocket-aws-k8s-1.33-aarch64-v1.50.0-1b7a1c2e".into(),
                "arm64",
                "bottlerocket",
            ),
        ];
        for ns in NAMESPACES {
            let created = if ns.starts_with("kube-") || ns == "default" {
                s.cluster_created
            } else {
                s.cluster_created + s.rng.range(3_600, 20 * 86_400)
            };
            let uid = s.rng.uuid();
            s.ns_uids.push((ns, uid, created));
        }
        s.plan_nodes();
        s.plan_workloads();
        s
    }

    fn next_ip(&mut self, zone: usize) -> u32 {
        let z = &mut self.zones[zone];
        z.next += 1 + self.rng.below(3) as u32;
        let c = z.next;
        let base = 0x0A00_0000u32;
        if c < 0x4000 {
            base + zone as u32 * 0x4000 + c
        } else {
            base + 0x1_0000 * (1 + zone as u32) + c
        }
    }

    fn hostname(&self, ip: u32) -> String {
        let dashed = ip_string(ip).replace('.', "-");
        if self.p.region == "us-east-1" {
            format!("ip-{dashed}.ec2.internal")
        } else {
            format!("ip-{dashed}.{}.compute.internal", self.p.region)
        }
    }

    fn plan_nodes(&mut self) {
        let p = self.p;
        let fargate = p.fargate && p.nodes >= 2;
        let ec2 = p.nodes - fargate as usize;
        let share = p.karpenter_share.clamp(0.0, 1.0);
        let mut karp = ((ec2 as f64) * share).round() as usize;
        if karp > ec2 {
            karp = ec2;
        }
        let mng = ec2 - karp;
        let mng_type = catalog::lookup(&[MNG_TYPE]).remove(0);
        let pool_types: Vec<Vec<InstanceType>> =
            POOL_TYPES.iter().map(|n| catalog::lookup(n)).collect();
        let fargate_type = InstanceType {
            name: "fargate".into(),
            category: String::new(),
            family: String::new(),
            generation: String::new(),
            size: String::new(),
            arch: "amd64".into(),
            hypervisor: String::new(),
            vcpu: 2,
            memory_mib: 4096,
            max_pods: 1,
            alloc_cpu_m: 2000,
            alloc_memory_mib: 3788,
            ephemeral_gi: 20,
            network_mbps: 0,
            pod_eni: 0,
        };
        let drifted_count = ((karp as f64) * p.drifted_share.clamp(0.0, 1.0)).round() as usize;
        for i in 0..p.nodes {
            let kind = if i < mng {
                NodeKind::Managed
            } else if i < mng + karp {
                let k = i - mng;
                // 50% default, 35% spot, 15% arm64.
                let pool = match (k * 20) / karp.max(1) {
                    0..=9 => 0,
                    10..=16 => 1,
                    _ => 2,
                };
                NodeKind::Karpenter {
                    pool,
                    drifted: false,
                }
            } else {
                NodeKind::Fargate
            };
            let zone = if kind == NodeKind::Fargate { 0 } else { i % 3 };
            let ip = self.next_ip(zone);
            let it = match kind {
                NodeKind::Managed => mng_type.clone(),
                NodeKind::Karpenter { pool, .. } => self.rng.pick(&pool_types[pool]).clone(),
                NodeKind::Fargate => fargate_type.clone(),
            };
            let created = match kind {
                NodeKind::Managed => self.now - self.rng.range(20 * 86_400, 60 * 86_400),
                NodeKind::Karpenter { .. } => self.now - self.rng.range(20 * 60, 21 * 86_400),
                NodeKind::Fargate => self.now - self.rng.range(2 * 86_400, 9 * 86_400),
            };
            let (claim_name, claim_uid, ami) = match kind {
                NodeKind::Karpenter { pool, .. } => {
                    let bottlerocket = POOL_CLASS[pool] == 0;
                    let ami_i = (it.arch == "arm64") as usize + 2 * bottlerocket as usize;
                    (
                        format!("{}-{}", POOLS[pool], self.rng.alnum(5)),
                        self.rng.uuid(),
                        self.amis[ami_i].0.clone(),
                    )
                }
                _ => (
                    String::new(),
                    String::new(),
                    format!("ami-0{}", self.rng.hex(16)),
                ),
            };
            let name = match kind {
                NodeKind::Fargate => format!("fargate-{}", self.hostname(ip)),
                _ => self.hostname(ip),
            };
            let spot = matches!(kind, NodeKind::Karpenter { pool: 1, .. });
            self.nodes.push(NodeP {
                name,
                ip,
                zone,
                kind,
                it,
                spot,
                instance_id: format!("i-0{}", self.rng.hex(16)),
                uid: self.rng.uuid(),
                created,
                claim_name,
                claim_uid,
                ami,
                used: (0, 0, 0),
                target: 850,
                last_pod_event: created,
            });
        }
        // Drifted: every k-th Karpenter node.
        if let Some(step) = karp.checked_div(drifted_count) {
            for j in 0..drifted_count {
                if let NodeKind::Karpenter { pool, .. } = self.nodes[mng + j * step.max(1)].kind {
                    self.nodes[mng + j * step.max(1)].kind = NodeKind::Karpenter {
                        pool,
                        drifted: true,
                    };
                }
            }
        }
        // Fill targets: about one Karpenter node in eight under-utilized, the last one empty.
        for i in mng..mng + karp {
            if self.rng.chance(125) {
                self.nodes[i].target = self.rng.range(150, 350);
            }
        }
        if karp > 0 {
            self.nodes[mng + karp - 1].target = 0;
        }
    }

    fn fits(&self, n: usize, cpu: i64, mem: i64, limit_per_mille: i64) -> bool {
        let node = &self.nodes[n];
        let (ac, am, ap) = node.alloc();
        node.used.2 < ap
            && (node.used.0 + cpu) * 1000 <= ac * limit_per_mille
            && (node.used.1 + mem) * 1000 <= am * limit_per_mille
    }

    fn bind(&mut self, n: usize, cpu: i64, mem: i64) {
        let u = &mut self.nodes[n].used;
        u.0 += cpu;
        u.1 += mem;
        u.2 += 1;
    }

    fn new_workload(
        &mut self,
        kind: WlKind,
        ns: &'static str,
        name: String,
        replicas: i64,
        containers: Vec<Container>,
    ) -> usize {
        let ns_created = self
            .ns_uids
            .iter()
            .find(|n| n.0 == ns)
            .map(|n| n.2)
            .unwrap_or(self.cluster_created);
        let created = ns_created + self.rng.range(600, 5 * 86_400);
        let hash = match kind {
            WlKind::Deployment => {
                let n = if self.rng.chance(500) { 9 } else { 10 };
                self.rng.alnum(n)
            }
            _ => self.rng.alnum(10),
        };
        let rs_created = created + self.rng.range(0, 30 * 86_400).min((self.now - created) / 2);
        let old_rs = if kind == WlKind::Deployment && self.rng.chance(400) {
            Some((self.rng.alnum(10), self.rng.uuid(), created))
        } else {
            None
        };
        let app = name.clone();
        let w = Workload {
            kind,
            ns,
            uid: self.rng.uuid(),
            app,
            name,
            replicas,
            containers,
            init: Vec::new(),
            created,
            host_network: false,
            priority_class: None,
            service_account: None,
            hash,
            rs_uid: self.rng.uuid(),
            rs_created: if old_rs.is_some() {
                rs_created
            } else {
                created
            },
            old_rs,
            pdb: None,
            helm: false,
            pending: false,
            fargate: false,
            generation: 1,
        };
        self.workloads.push(w);
        self.workloads.len() - 1
    }

    fn image(&mut self, repo: &str, tag: &str) -> (String, String) {
        let digest = self.rng.hex(64);
        let (image, id_repo) = if repo.contains('/') && !repo.contains('.') {
            (
                format!("docker.io/{repo}:{tag}"),
                format!("docker.io/{repo}"),
            )
        } else if repo.contains('/') {
            (format!("{repo}:{tag}"), repo.to_string())
        } else {
            (
                format!(
                    "{}.dkr.ecr.{}.amazonaws.com/{repo}:{tag}",
                    self.account, self.p.region
                ),
                format!(
                    "{}.dkr.ecr.{}.amazonaws.com/{repo}",
                    self.account, self.p.region
                ),
            )
        };
        (image, format!("{id_repo}@sha256:{digest}"))
    }

    #[allow(clippy::too_many_arguments)]
    fn container(
        &mut self,
        name: &'static str,
        repo: &str,
        tag: &str,
        cpu_m: i64,
        mem_mi: i64,
        limits: (i64, i64),
        ports: Vec<(&'static str, i64)>,
    ) -> Container {
        let (image, image_id) = self.image(repo, tag);
        Container {
            name,
            image,
            image_id,
            cpu_m,
            mem_mi,
            limits,
            env: Vec::new(),
            ports,
            args: Vec::new(),
        }
    }

    fn secretish_env(&mut self, app: &str) -> Vec<(String, String)> {
        let mut env = vec![
            (
                "DATABASE_URL".to_string(),
                format!(
                    "postgres://{}:{}@postgres-0.postgres.data.svc.cluster.local:5432/{}",
                    app.replace('-', "_"),
                    self.rng.alnum(20),
                    app.replace('-', "_")
                ),
            ),
            (
                "API_KEY".to_string(),
                format!("sk_live_{}", self.rng.alnum(32)),
            ),
        ];
        if self.rng.chance(500) {
            env.push((
                "LOG_LEVEL".to_string(),
                self.rng.pick(&["info", "debug", "warn"]).to_string(),
            ));
        }
        if self.rng.chance(500) {
            env.push(("REDIS_PASSWORD".into(), self.rng.alnum(24)));
        }
        if self.rng.chance(300) {
            env.push((
                "FEATURE_FLAGS".into(),
                "new-checkout: true, dark-mode: false".into(),
            ));
        }
        if self.rng.chance(300) {
            env.push((
                "JAVA_OPTS".into(),
                "-XX:MaxRAMPercentage=75.0 -XX:+UseG1GC".into(),
            ));
        }
        env
    }

    fn plan_workloads(&mut self) {
        let p = self.p;
        let ec2_nodes: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].kind != NodeKind::Fargate)
            .collect();
        let fargate_node = (0..self.nodes.len()).find(|&i| self.nodes[i].kind == NodeKind::Fargate);
        let mut budget = p.pods;
        // Fixed pods first (minus what the DaemonSets need), DaemonSets as many as fit.
        let fixed_want = 2 + 2 + 6 + 1 + 4 + 2 + fargate_node.is_some() as usize;
        let for_ds = budget.saturating_sub(fixed_want);
        let ds_count = if ec2_nodes.is_empty() {
            0
        } else {
            (for_ds / ec2_nodes.len()).min(3)
        };
        self.ds_count = ds_count;
        budget -= ds_count * ec2_nodes.len();

        // DaemonSets: aws-node, kube-proxy, ebs-csi-node.
        let mut ds_idx = Vec::new();
        for d in 0..ds_count {
            let idx = match d {
                0 => {
                    let mut c = self.container(
                        "aws-node",
                        "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni",
                        "v1.20.4-eksbuild.1",
                        25,
                        0,
                        (0, 0),
                        vec![("metrics", 61678)],
                    );
                    c.env = vec![
                        ("ADDITIONAL_ENI_TAGS".into(), "{}".into()),
                        ("ANNOTATE_POD_IP".into(), "false".into()),
                        ("AWS_VPC_CNI_NODE_PORT_SUPPORT".into(), "true".into()),
                        ("AWS_VPC_ENI_MTU".into(), "9001".into()),
                        ("AWS_VPC_K8S_CNI_EXTERNALSNAT".into(), "false".into()),
                        ("AWS_VPC_K8S_CNI_LOGLEVEL".into(), "DEBUG".into()),
                        ("ENABLE_PREFIX_DELEGATION".into(), "false".into()),
                        ("WARM_ENI_TARGET".into(), "1".into()),
                        ("VPC_ID".into(), format!("vpc-0{}", self.rng.hex(16))),
                        ("CLUSTER_NAME".into(), self.cluster.clone()),
                    ];
                    let mut agent = self.container(
                        "aws-eks-nodeagent",
                        &format!("{ECR}/amazon/aws-network-policy-agent"),
                        "v1.2.7-eksbuild.1",
                        25,
                        0,
                        (0, 0),
                        vec![],
                    );
                    agent.args = vec![
                        "--enable-ipv6=false".into(),
                        "--enable-network-policy=false".into(),
                        "--metrics-bind-addr=:8162".into(),
                        "--health-probe-bind-addr=:8163".into(),
                    ];
                    let init = self.container(
                        "aws-vpc-cni-init",
                        "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni-init",
                        "v1.20.4-eksbuild.1",
                        25,
                        0,
                        (0, 0),
                        vec![],
                    );
                    let w = self.new_workload(
                        WlKind::DaemonSet,
                        "kube-system",
                        "aws-node".into(),
                        ec2_nodes.len() as i64,
                        vec![c, agent],
                    );
                    self.workloads[w].init = vec![init];
                    self.workloads[w].host_network = true;
                    self.workloads[w].priority_class = Some("system-node-critical");
                    self.workloads[w].service_account = Some("aws-node".into());
                    w
                }
                1 => {
                    let mut c = self.container(
                        "kube-proxy",
                        "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/kube-proxy",
                        "v1.33.5-minimal-eksbuild.2",
                        100,
                        0,
                        (0, 0),
                        vec![],
                    );
                    c.args = vec![
                        "--v=2".into(),
                        "--config=/var/lib/kube-proxy-config/config".into(),
                        "--hostname-override=$(NODE_NAME)".into(),
                    ];
                    let w = self.new_workload(
                        WlKind::DaemonSet,
                        "kube-system",
                        "kube-proxy".into(),
                        ec2_nodes.len() as i64,
                        vec![c],
                    );
                    self.workloads[w].host_network = true;
                    self.workloads[w].priority_class = Some("system-node-critical");
                    self.workloads[w].service_account = Some("kube-proxy".into());
                    w
                }
                _ => {
                    let mut plugin = self.container(
                        "ebs-plugin",
                        "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/aws-ebs-csi-driver",
                        "v1.51.1",
                        10,
                        40,
                        (0, 256),
                        vec![("healthz", 9808)],
                    );
                    plugin.args = vec![
                        "node".into(),
                        "--endpoint=$(CSI_ENDPOINT)".into(),
                        concat!(
                            "--csi-mount-point-prefix=",
                            "/var/lib/kubelet/plugins/kubernetes.io/csi/ebs.csi.aws.com/"
                        )
                        .into(),
                        "--logging-format=text".into(),
                        "--v=2".into(),
                    ];
                    plugin.env = vec![("CSI_ENDPOINT".into(), "unix:/csi/csi.sock".into())];
                    let reg = self.container(
                        "node-driver-registrar",
                        &format!("{ECR}/eks/csi-node-driver-registrar"),
                        "v2.15.0-eks-1-34-7",
                        10,
                        40,
                        (0, 256),
                        vec![],
                    );
                    let live = self.container(
                        "liveness-probe",
                        "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/livenessprobe",
                        "v2.17.0-eks-1-34-7",
                        10,
                        40,
                        (0, 256),
                        vec![],
                    );
                    let w = self.new_workload(
                        WlKind::DaemonSet,
                        "kube-system",
                        "ebs-csi-node".into(),
                        ec2_nodes.len() as i64,
                        vec![plugin, reg, live],
                    );
                    self.workloads[w].priority_class = Some("system-node-critical");
                    self.workloads[w].service_account = Some("ebs-csi-node-sa".into());
                    w
                }
            };
            ds_idx.push(idx);
        }
        for &w in &ds_idx {
            let (cpu, mem) = self.workloads[w].requests();
            for &n in &ec2_nodes {
                let created = self.nodes[n].created + self.rng.range(5, 40);
                let uid = self.rng.uuid();
                let name = format!("{}-{}", self.workloads[w].name, self.rng.alnum(5));
                let ip = if self.workloads[w].host_network {
                    self.nodes[n].ip
                } else {
                    self.next_ip(self.nodes[n].zone)
                };
                self.bind(n, cpu, mem);
                let api_suffix = self.rng.alnum(5);
                self.pods.push(PodP {
                    wl: w,
                    name,
                    uid,
                    node: Some(n),
                    ip,
                    phase: Phase::Running,
                    created,
                    ordinal: 0,
                    api_suffix,
                    restarts: 0,
                });
            }
        }

        let managed: Vec<usize> = ec2_nodes
            .iter()
            .copied()
            .filter(|&i| self.nodes[i].kind == NodeKind::Managed)
            .collect();
        let system_nodes = if managed.is_empty() {
            ec2_nodes.clone()
        } else {
            managed
        };

        let mut take = |want: usize| -> usize {
            let t = want.min(budget);
            budget -= t;
            t
        };
        let n_karpenter = take(2);
        let n_coredns = take(2);
        let n_mirror = take(1);
        let n_pg = take(3);
        let n_redis = take(3);
        let n_job = take(4);
        let n_pending = take(2);
        let n_fargate = if fargate_node.is_some() { take(1) } else { 0 };
        let rest = budget;

        // System Deployments on the managed node group.
        // (workload, replicas) to place on the system nodes.
        let mut placed: Vec<(usize, i64)> = Vec::new();
        if n_karpenter > 0 {
            let mut c = self.container(
                "controller",
                "public.ecr.aws/karpenter/controller",
                "1.8.1",
                1000,
                1024,
                (1000, 1024),
                vec![
                    ("http-metrics", 8080),
                    ("webhook-metrics", 8001),
                    ("http", 8081),
                ],
            );
            c.env = vec![
                ("KUBERNETES_MIN_VERSION".into(), "1.19.0-0".into()),
                ("KARPENTER_SERVICE".into(), "karpenter".into()),
                ("WEBHOOK_PORT".into(), "8443".into()),
                ("DISABLE_WEBHOOK".into(), "true".into()),
                ("LOG_LEVEL".into(), "info".into()),
                ("BATCH_MAX_DURATION".into(), "10s".into()),
                ("BATCH_IDLE_DURATION".into(), "1s".into()),
                ("CLUSTER_NAME".into(), self.cluster.clone()),
                ("INTERRUPTION_QUEUE".into(), self.cluster.clone()),
                (
                    "FEATURE_GATES".into(),
                    "ReservedCapacity=true,SpotToSpotConsolidation=false,NodeRepair=false".into(),
                ),
            ];
            let w = self.new_workload(
                WlKind::Deployment,
                "karpenter",
                "karpenter".into(),
                n_karpenter as i64,
                vec![c],
            );
            self.workloads[w].helm = true;
            self.workloads[w].priority_class = Some("system-cluster-critical");
            self.workloads[w].service_account = Some("karpenter".into());
            self.workloads[w].pdb = Some(("maxUnavailable".into(), "1".into()));
            placed.push((w, n_karpenter as i64));
        }
        if n_coredns > 0 {
            let mut c = self.container(
                "coredns",
                "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns",
                "v1.12.4-eksbuild.1",
                100,
                70,
                (0, 170),
                vec![("dns", 53), ("dns-tcp", 53), ("metrics", 9153)],
            );
            c.args = vec!["-conf".into(), "/etc/coredns/Corefile".into()];
            let w = self.new_workload(
                WlKind::Deployment,
                "kube-system",
                "coredns".into(),
                n_coredns as i64,
                vec![c],
            );
            self.workloads[w].priority_class = Some("system-cluster-critical");
            self.workloads[w].service_account = Some("coredns".into());
            self.workloads[w].pdb = Some(("maxUnavailable".into(), "1".into()));
            placed.push((w, n_coredns as i64));
        }
        if n_pg > 0 {
            let mut c = self.container(
                "postgres",
                "library/postgres",
                "16.4",
                500,
                1024,
                (2000, 2048),
                vec![("postgres", 5432)],
            );
            c.env = vec![
                ("POSTGRES_PASSWORD".into(), self.rng.alnum(28)),
                ("PGDATA".into(), "/var/lib/postgresql/data/pgdata".into()),
            ];
            let w = self.new_workload(
                WlKind::StatefulSet,
                "data",
                "postgres".into(),
                n_pg as i64,
                vec![c],
            );
            self.workloads[w].pdb = Some(("minAvailable".into(), "2".into()));
            placed.push((w, n_pg as i64));
        }
        if n_redis > 0 {
            let mut c = self.container(
                "redis",
                "library/redis",
                "7.4.1",
                250,
                512,
                (0, 512),
                vec![("redis", 6379)],
            );
            c.env = vec![("REDIS_PASSWORD".into(), self.rng.alnum(24))];
            let w = self.new_workload(
                WlKind::StatefulSet,
                "data",
                "redis".into(),
                n_redis as i64,
                vec![c],
            );
            placed.push((w, n_redis as i64));
        }
        // The mirror pod: on the first system node.
        if n_mirror > 0
            && let Some(&n) = system_nodes.first()
        {
            let c = self.container(
                "node-exporter",
                "quay.io/prometheus/node-exporter",
                "v1.8.2",
                100,
                100,
                (0, 0),
                vec![("metrics", 9100)],
            );
            let w = self.new_workload(
                WlKind::Mirror,
                "kube-system",
                format!("node-exporter-{}", self.nodes[n].name),
                1,
                vec![c],
            );
            self.workloads[w].host_network = true;
            self.bind(n, 100, 100);
            let created = self.nodes[n].created + 12;
            let uid = self.rng.uuid();
            let name = self.workloads[w].name.clone();
            let ip = self.nodes[n].ip;
            self.pods.push(PodP {
                wl: w,
                name,
                uid,
                node: Some(n),
                ip,
                phase: Phase::Running,
                created,
                ordinal: 0,
                api_suffix: String::new(),
                restarts: 0,
            });
        }
        // The Job: completed pods, then one failed.
        if n_job > 0 {
            let mut c = self.container("migrate", "db-migrate", "v42", 200, 256, (0, 512), vec![]);
            c.env = vec![(
                "DATABASE_URL".into(),
                format!(
                    "postgres://migrator:{}@postgres-0.postgres.data.svc.cluster.local:5432/app",
                    self.rng.alnum(20)
                ),
            )];
            c.args = vec!["migrate".into(), "--to".into(), "42".into()];
            let w = self.new_workload(
                WlKind::Job,
                "data",
                "db-migrate-v42".into(),
                n_job as i64,
                vec![c],
            );
            let start = self.now - self.rng.range(3 * 3600, 20 * 3600);
            self.workloads[w].created = start;
            for k in 0..n_job {
                let n = system_nodes[k % system_nodes.len()];
                let uid = self.rng.uuid();
                let name = format!("db-migrate-v42-{}", self.rng.alnum(5));
                let ip = self.next_ip(self.nodes[n].zone);
                let phase = if k + 1 == n_job && n_job > 1 {
                    Phase::Failed
                } else {
                    Phase::Succeeded
                };
                let api_suffix = self.rng.alnum(5);
                self.pods.push(PodP {
                    wl: w,
                    name,
                    uid,
                    node: Some(n),
                    ip,
                    phase,
                    created: start + k as i64 * 95,
                    ordinal: k as i64,
                    api_suffix,
                    restarts: 0,
                });
            }
        }
        if n_fargate > 0 {
            let c = self.container(
                "collector",
                "public.ecr.aws/aws-observability/aws-otel-collector",
                "v0.43.1",
                500,
                1024,
                (0, 0),
                vec![("otlp", 4317)],
            );
            let w = self.new_workload(
                WlKind::Deployment,
                "monitoring",
                "otel-collector".into(),
                1,
                vec![c],
            );
            self.workloads[w].fargate = true;
            let n = fargate_node.unwrap_or(0);
            self.place_replicas(w, 1, &[n]);
        }
        for (w, r) in placed {
            let nodes = system_nodes.clone();
            self.place_replicas(w, r, &nodes);
        }

        // Application Deployments for the rest.
        let karp_or_all: Vec<usize> = {
            let k: Vec<usize> = ec2_nodes
                .iter()
                .copied()
                .filter(|&i| matches!(self.nodes[i].kind, NodeKind::Karpenter { .. }))
                .collect();
            if k.is_empty() { ec2_nodes.clone() } else { k }
        };
        let app_nodes: Vec<usize> = karp_or_all
            .iter()
            .copied()
            .filter(|&i| self.nodes[i].target > 0)
            .collect();
        let app_nodes = if app_nodes.is_empty() {
            karp_or_all.clone()
        } else {
            app_nodes
        };
        let (free_cpu, free_mem, min_cpu, min_mem) =
            app_nodes
                .iter()
                .fold((0i64, 0i64, i64::MAX, i64::MAX), |acc, &n| {
                    let node = &self.nodes[n];
                    let (ac, am, _) = node.alloc();
                    let fc = (ac * node.target / 1000 - node.used.0).max(0);
                    let fm = (am * node.target / 1000 - node.used.1).max(0);
                    (
                        acc.0 + fc,
                        acc.1 + fm,
                        acc.2.min(ac - node.used.0),
                        acc.3.min(am - node.used.1),
                    )
                });
        let rest_i = rest.max(1) as i64;
        let mean_cpu = (free_cpu * 7 / 10 / rest_i).clamp(10, 4000);
        let mean_mem = (free_mem * 7 / 10 / rest_i).clamp(16, 16_384);
        let max_cpu = (min_cpu.max(20) / 2).max(10);
        let max_mem = (min_mem.max(32) / 2).max(16);
        let mut remaining = rest as i64;
        let mut names_used = std::collections::BTreeSet::new();
        let mut app_wls: Vec<usize> = Vec::new();
        while remaining > 0 {
            let r = (*self
                .rng
                .pick(&[1i64, 2, 2, 3, 3, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 30, 40]))
            .min(remaining);
            remaining -= r;
            let ns = *self.rng.pick(&APP_NAMESPACES);
            let mut name = format!("{}-{}", self.rng.pick(&PREFIXES), self.rng.pick(&SUFFIXES));
            let mut k = 2;
            while names_used.contains(&name) {
                name = format!(
                    "{}-{}-{k}",
                    self.rng.pick(&PREFIXES),
                    self.rng.pick(&SUFFIXES)
                );
                k += 1;
            }
            names_used.insert(name.clone());
            let f = *self
                .rng
                .pick(&[250i64, 500, 750, 1000, 1000, 1250, 1500, 2000]);
            let cpu = round_to(
                (mean_cpu * f / 1000).clamp(10, max_cpu),
                if mean_cpu > 200 { 50 } else { 5 },
            );
            let fm = *self
                .rng
                .pick(&[250i64, 500, 750, 1000, 1000, 1250, 1500, 2000]);
            let mem = round_to(
                (mean_mem * fm / 1000).clamp(16, max_mem),
                if mean_mem > 512 { 64 } else { 8 },
            );
            let limits = match self.rng.below(3) {
                0 => (0, mem),
                1 => (cpu * 2, mem * 2),
                _ => (0, 0),
            };
            let tag = format!(
                "v{}.{}.{}",
                self.rng.range(1, 4),
                self.rng.range(0, 30),
                self.rng.range(0, 12)
            );
            let mut c = self.container("app", &name, &tag, cpu, mem, limits, vec![("http", 8080)]);
            if self.rng.chance(400) {
                c.ports.push(("metrics", 9090));
            }
            c.env = self.secretish_env(&name);
            let mut containers = vec![c];
            if self.rng.chance(150) {
                let mut side = self.container(
                    "envoy",
                    "envoyproxy/envoy",
                    "v1.32.1",
                    50,
                    64,
                    (0, 128),
                    vec![("admin", 9901)],
                );
                side.cpu_m = 10.min(cpu);
                side.mem_mi = 16;
                containers.push(side);
            }
            let w = self.new_workload(WlKind::Deployment, ns, name, r, containers);
            if self.rng.chance(250) {
                self.workloads[w].pdb = Some(if self.rng.chance(500) {
                    ("minAvailable".into(), "50%".into())
                } else {
                    ("maxUnavailable".into(), "1".into())
                });
            }
            self.workloads[w].helm = self.rng.chance(500);
            app_wls.push(w);
        }
        // Interleave the replicas, then place each on a node with room under its target.
        let mut queue: Vec<usize> = Vec::with_capacity(rest);
        for &w in &app_wls {
            for _ in 0..self.workloads[w].replicas {
                queue.push(w);
            }
        }
        for i in (1..queue.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            queue.swap(i, j);
        }
        for w in queue {
            self.place_replicas(w, 1, &app_nodes.clone());
        }

        // Pending pods: a Deployment no node has room for.
        if n_pending > 0 {
            let biggest = self
                .nodes
                .iter()
                .map(|n| n.it.alloc_cpu_m)
                .max()
                .unwrap_or(4000);
            let cpu = (biggest / 1000 + 2) * 1000;
            let c = self.container(
                "trainer",
                "ml-trainer",
                "v3.1.0",
                cpu,
                65_536,
                (cpu, 65_536),
                vec![],
            );
            let w = self.new_workload(
                WlKind::Deployment,
                "analytics",
                "ml-trainer".into(),
                n_pending as i64,
                vec![c],
            );
            self.workloads[w].pending = true;
            for _ in 0..n_pending {
                self.push_pod(w, None);
            }
        }
        // lastPodEventTime: the latest pod bound to each node.
        for i in 0..self.pods.len() {
            if let Some(n) = self.pods[i].node {
                let t = self.pods[i].created;
                if t > self.nodes[n].last_pod_event {
                    self.nodes[n].last_pod_event = t;
                }
            }
        }
    }

    fn push_pod(&mut self, w: usize, node: Option<usize>) {
        let wl = &self.workloads[w];
        let ordinal = self.pods.iter().rev().take_while(|p| p.wl == w).count() as i64;
        let name = match wl.kind {
            WlKind::StatefulSet => format!("{}-{}", wl.name, ordinal),
            WlKind::Deployment => format!("{}-{}-{}", wl.name, wl.hash, self.rng.alnum(5)),
            _ => format!("{}-{}", wl.name, self.rng.alnum(5)),
        };
        let base = self.workloads[w]
            .rs_created
            .max(node.map(|n| self.nodes[n].created).unwrap_or(0));
        let created = if self.now - base > 120 {
            base + self.rng.range(5, ((self.now - base) / 3).max(6))
        } else {
            base
        };
        let created = created.min(self.now - 1);
        let (ip, phase) = match node {
            Some(n) if self.workloads[w].host_network => (self.nodes[n].ip, Phase::Running),
            Some(n) => (self.next_ip(self.nodes[n].zone), Phase::Running),
            None => (0, Phase::Pending),
        };
        let uid = self.rng.uuid();
        let api_suffix = self.rng.alnum(5);
        let restarts = if self.rng.chance(50) {
            self.rng.range(1, 4)
        } else {
            0
        };
        self.pods.push(PodP {
            wl: w,
            name,
            uid,
            node,
            ip,
            phase,
            created,
            ordinal,
            api_suffix,
            restarts,
        });
    }

    /// Places `r` replicas of `w` on `nodes`: under each node's fill target when possible,
    /// within allocatable otherwise, Pending when no node has room.
    fn place_replicas(&mut self, w: usize, r: i64, nodes: &[usize]) {
        let (cpu, mem) = self.workloads[w].requests();
        for _ in 0..r {
            let start = self.rng.below(nodes.len().max(1) as u64) as usize;
            let mut chosen = None;
            'outer: for pass in 0..2 {
                for k in 0..nodes.len() {
                    let n = nodes[(start + k) % nodes.len()];
                    let limit = if pass == 0 {
                        self.nodes[n].target
                    } else {
                        1000
                    };
                    if (pass == 1 && self.nodes[n].target == 0 && nodes.len() > 1)
                        || !self.fits(n, cpu, mem, limit)
                    {
                        continue;
                    }
                    chosen = Some(n);
                    break 'outer;
                }
            }
            if let Some(n) = chosen {
                self.bind(n, cpu, mem);
            }
            self.push_pod(w, chosen);
        }
    }

    pub fn next_rv(&mut self) -> String {
        self.rv += 1 + self.rng.below(40_000);
        self.rv.to_string()
    }

    /// Every object, in kubectl's order: by resource as asked, then by namespace and name.
    pub fn render(mut self, format: Format, separate: bool) -> String {
        let est = if self.p.managed_fields { 11_000 } else { 6_000 }
            * (self.pods.len() + 2 * self.nodes.len())
            + 4096;
        let mut out = String::with_capacity(est);
        let yaml = format == Format::Yaml;
        if !separate {
            if yaml {
                out.push_str("apiVersion: v1\nitems:\n");
            } else {
                out.push_str("{\n    \"apiVersion\": \"v1\",\n    \"items\": [");
            }
        }
        let mut count = 0usize;
        let mut emit = |mut obj: V, out: &mut String| {
            obj.sort(yaml);
            let V::Map(m) = &obj else { return };
            match (yaml, separate) {
                (true, false) => {
                    out.push_str("- ");
                    tree::write_yaml_map(m, 2, true, out);
                }
                (true, true) => tree::write_yaml_map(m, 0, false, out),
                (false, false) => {
                    if count > 0 {
                        out.push(',');
                    }
                    out.push_str("\n        ");
                    tree::write_json(&obj, 2, out);
                }
                (false, true) => {
                    tree::write_json(&obj, 0, out);
                    out.push('\n');
                }
            }
            count += 1;
        };
        crate::objects::each(
            &mut self,
            &mut |obj, out_ref: &mut String| emit(obj, out_ref),
            &mut out,
        );
        if !separate {
            if yaml {
                if count == 0 {
                    out.truncate(out.len() - "items:\n".len());
                    out.push_str("items: []\n");
                }
                out.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
            } else {
                if count == 0 {
                    out.push(']');
                } else {
                    out.push_str("\n    ]");
                }
                out.push_str(
                    ",\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \
                        \"\"\n    }\n}\n",
                );
            }
        }
        out
    }
}

fn round_to(x: i64, step: i64) -> i64 {
    ((x / step).max(1)) * step
}

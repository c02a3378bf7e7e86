//! `kubectl logs -l app.kubernetes.io/name=karpenter`: Karpenter's JSON log lines (zap's
//! encoder: level, time, logger, message, then the controller's fields in the order
//! Karpenter adds them), one per decision, made from the engine's events and evidence.
//! Messages and keys are Karpenter's own (kubernetes-sigs/karpenter v1.x: provisioner.go,
//! scheduler.go, lifecycle/launch.go, registration.go, initialization.go, disruption
//! queue.go, node/termination). Time 0 is the Unix epoch, UTC, as the engine's cron clock.

use kpg_core::resources::ResourceName;
use kpg_core::sim::event::FLEET_INSUFFICIENT_CAPACITY;
use kpg_core::sim::{EventKind, Node};

use crate::args::Args;
use crate::format::{self, log_time};
use crate::objects;
use crate::state::State;
use crate::{Reply, Watch};

/// The commit the playground's Karpenter claims in every line.
const COMMIT: &str = "kpg-sim";

#[derive(Clone, Debug, Default)]
pub struct Request {
    pub tail: Option<usize>,
}

/// A JSON object written field by field, in order (zap keeps insertion order).
struct Line(String);

impl Line {
    fn new(level: &str, at: u64, message: &str) -> Line {
        Line(format!(
            "{{\"level\":\"{level}\",\"time\":\"{}\",\"logger\":\"controller\",\"message\":{},\
             \"commit\":\"{COMMIT}\"",
            log_time(at),
            json(message)
        ))
    }

    fn raw(mut self, key: &str, value: &str) -> Line {
        self.0.push_str(&format!(",{}:{value}", json(key)));
        self
    }

    fn s(self, key: &str, value: &str) -> Line {
        let v = json(value);
        self.raw(key, &v)
    }

    fn n(self, key: &str, value: usize) -> Line {
        self.raw(key, &value.to_string())
    }

    fn obj(self, key: &str, name: &str) -> Line {
        self.raw(key, &format!("{{\"name\":{}}}", json(name)))
    }

    fn controller(self, controller: &str, group: &str, kind: &str, name: &str, seed: &str) -> Line {
        let mut l = self.s("controller", controller);
        if !kind.is_empty() {
            l = l
                .s("controllerGroup", group)
                .s("controllerKind", kind)
                .obj(kind, name);
        }
        l.s("namespace", "")
            .s("name", name)
            .s("reconcileID", &format::uuid(seed))
    }

    fn done(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}

fn allocatable(node: &Node) -> String {
    let names = objects::node_resources(node);
    let mut out = String::from("{");
    let mut first = true;
    for r in names {
        let v = node.allocatable.get(r);
        if v == 0 && r != ResourceName::Cpu && r != ResourceName::Memory {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(&format!(
            "{}:{}",
            json(r.as_str()),
            json(&format::quantity(r, v))
        ));
    }
    out.push('}');
    out
}

/// Karpenter's `pretty.Slice(list, n)`: the first n, then "and N other(s)".
fn pretty(list: &[String], n: usize) -> String {
    if list.len() <= n {
        return list.join(", ");
    }
    format!(
        "{} and {} other(s)",
        list.get(..n).unwrap_or(list).join(", "),
        list.len() - n
    )
}

fn claim_node<'a>(state: &State<'a>, name: &str) -> Option<&'a Node> {
    state
        .sim
        .nodes()
        .iter()
        .find(|n| n.nodeclaim.as_deref() == Some(name))
}

/// Every log line up to now, in order.
pub fn lines(state: &State, req: &Request) -> Vec<String> {
    let sim = state.sim;
    let events = sim.events();
    let created_at = |i: usize, t: u64| match events.get(i) {
        Some(c) if c.time == t => match &c.kind {
            EventKind::Created {
                nodeclaim,
                node_pool,
                requests,
                instance_types,
            } => Some((nodeclaim, node_pool, requests, instance_types)),
            _ => None,
        },
        _ => None,
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let e = &events[i];
        let t = e.time;
        // A provisioning pass: its NodeClaims are created at one instant.
        if created_at(i, t).is_some() {
            let mut j = i;
            let mut created = Vec::new();
            while let Some(c) = created_at(j, t) {
                created.push(c);
                j += 1;
            }
            let mut pods: Vec<String> = Vec::new();
            for (nodeclaim, ..) in &created {
                if let Some(n) = sim
                    .nodes()
                    .iter()
                    .position(|n| n.nodeclaim.as_deref() == Some(nodeclaim.as_str()))
                    && let Some(rec) = sim.evidence().claims.get(&n)
                {
                    pods.extend(
                        rec.pods
                            .iter()
                            .filter_map(|&p| sim.pods().get(p))
                            .map(|p| p.key()),
                    );
                }
            }
            let seed = format!("provisioner/{t}");
            let replacement = created.iter().any(|(nodeclaim, ..)| {
                events.iter().any(|d| {
                    d.time == t
                        && matches!(&d.kind, EventKind::DisruptionLaunching { nodeclaim: c, .. }
                            if c == *nodeclaim)
                })
            });
            if !replacement {
                out.push(
                    Line::new("INFO", t, "found provisionable pod(s)")
                        .controller("provisioner", "", "", "", &seed)
                        .s("Pods", &pretty(&pods, 5))
                        .s("duration", "21.529384ms")
                        .done(),
                );
                out.push(
                    Line::new("INFO", t, "computed new nodeclaim(s) to fit pod(s)")
                        .controller("provisioner", "", "", "", &seed)
                        .n("nodeclaims", created.len())
                        .n("pods", pods.len())
                        .done(),
                );
            }
            for (nodeclaim, node_pool, requests, instance_types) in created {
                let controller = if replacement {
                    "disruption"
                } else {
                    "provisioner"
                };
                out.push(
                    Line::new("INFO", t, "created nodeclaim")
                        .controller(controller, "", "", "", &seed)
                        .obj("NodePool", node_pool)
                        .obj("NodeClaim", nodeclaim)
                        .raw("requests", &requests.to_string())
                        .s("instance-types", &pretty(instance_types, 5))
                        .done(),
                );
            }
            i = j;
            continue;
        }
        let seed = format!("{}/{}/{t}", e.kind.reason(), e.kind.object());
        match &e.kind {
            EventKind::Launched { nodeclaim, .. } => {
                if let Some(n) = claim_node(state, nodeclaim) {
                    out.push(
                        Line::new("INFO", t, "launched nodeclaim")
                            .controller(
                                "nodeclaim.lifecycle",
                                "karpenter.sh",
                                "NodeClaim",
                                nodeclaim,
                                &seed,
                            )
                            .s("provider-id", &format::provider_id(&n.zone, nodeclaim))
                            .s("instance-type", &n.instance_type)
                            .s("zone", &n.zone)
                            .s("capacity-type", n.capacity_type.as_str())
                            .raw("allocatable", &allocatable(n))
                            .done(),
                    );
                }
            }
            EventKind::Registered { nodeclaim, .. } => {
                if let Some(n) = claim_node(state, nodeclaim) {
                    out.push(
                        Line::new("INFO", t, "registered nodeclaim")
                            .controller(
                                "nodeclaim.lifecycle",
                                "karpenter.sh",
                                "NodeClaim",
                                nodeclaim,
                                &seed,
                            )
                            .s("provider-id", &format::provider_id(&n.zone, nodeclaim))
                            .obj("Node", &n.name)
                            .done(),
                    );
                }
            }
            EventKind::Initialized { nodeclaim, .. } => {
                if let Some(n) = claim_node(state, nodeclaim) {
                    out.push(
                        Line::new("INFO", t, "initialized nodeclaim")
                            .controller(
                                "nodeclaim.lifecycle",
                                "karpenter.sh",
                                "NodeClaim",
                                nodeclaim,
                                &seed,
                            )
                            .s("provider-id", &format::provider_id(&n.zone, nodeclaim))
                            .obj("Node", &n.name)
                            .raw("allocatable", &allocatable(n))
                            .done(),
                    );
                }
            }
            // Karpenter logs the launch error, then deletes the NodeClaim.
            EventKind::LaunchFailed { nodeclaim } => {
                out.push(failed_launch(
                    t,
                    nodeclaim,
                    FLEET_INSUFFICIENT_CAPACITY,
                    &seed,
                ));
            }
            EventKind::ReplacementLaunchFailed { node_pool } => {
                out.push(failed_launch(t, node_pool, &e.kind.to_string(), &seed));
            }
            EventKind::FailedScheduling { pod, error } => {
                out.push(
                    Line::new("ERROR", t, "could not schedule pod")
                        .controller("provisioner", "", "", "", &format!("provisioner/{t}"))
                        .raw(
                            "Pod",
                            &format!(
                                "{{\"name\":{},\"namespace\":{}}}",
                                json(&pod.name),
                                json(&pod.namespace)
                            ),
                        )
                        .s("error", error)
                        .done(),
                );
            }
            EventKind::Disrupting(_) => {
                if let Some(cmd) = sim
                    .evidence()
                    .commands
                    .iter()
                    .find(|c| c.at == t && c.executed)
                {
                    out.push(disrupting(state, cmd, t));
                }
            }
            EventKind::SpotInterrupted { node, .. } => {
                if let Some(n) = state.sim.nodes().iter().find(|n| &n.name == node) {
                    out.push(
                        Line::new("INFO", t, "initiating delete from interruption message")
                            .controller("interruption", "", "", "", &seed)
                            .s("queue", "Karpenter-playground")
                            .s("messageKind", "SpotInterruptionKind")
                            .obj("NodeClaim", n.nodeclaim.as_deref().unwrap_or(node))
                            .s("action", "CordonAndDrain")
                            .obj("Node", &n.name)
                            .done(),
                    );
                }
            }
            EventKind::Terminating { nodeclaim, .. } => {
                if let Some(n) = claim_node(state, nodeclaim) {
                    out.push(
                        Line::new("INFO", t, "tainted node")
                            .controller("node.termination", "", "Node", &n.name, &seed)
                            .obj("NodeClaim", nodeclaim)
                            .s("taint.Key", kpg_core::wellknown::DISRUPTED_TAINT)
                            .s("taint.Value", "")
                            .s("taint.Effect", "NoSchedule")
                            .done(),
                    );
                }
            }
            EventKind::NodeClaimDeleted { nodeclaim, .. } => {
                if let Some(n) = claim_node(state, nodeclaim) {
                    out.push(
                        Line::new("INFO", t, "deleted node")
                            .controller("node.termination", "", "Node", &n.name, &seed)
                            .obj("NodeClaim", nodeclaim)
                            .done(),
                    );
                    out.push(
                        Line::new("INFO", t, "deleted nodeclaim")
                            .controller(
                                "nodeclaim.lifecycle",
                                "karpenter.sh",
                                "NodeClaim",
                                nodeclaim,
                                &format!("{seed}/nc"),
                            )
                            .s("provider-id", &format::provider_id(&n.zone, nodeclaim))
                            .obj("Node", &n.name)
                            .done(),
                    );
                }
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(n) = req.tail {
        let skip = out.len().saturating_sub(n);
        out.drain(..skip);
    }
    out
}

/// `failed launching nodeclaim` for the NodeClaim (or the replacement's NodePool) `name`.
fn failed_launch(t: u64, name: &str, error: &str, seed: &str) -> String {
    Line::new("ERROR", t, "failed launching nodeclaim")
        .controller(
            "nodeclaim.lifecycle",
            "karpenter.sh",
            "NodeClaim",
            name,
            seed,
        )
        .s("error", error)
        .done()
}

fn disrupting(state: &State, cmd: &kpg_core::sim::evidence::CommandRecord, t: u64) -> String {
    let pod_count = cmd.pods;
    let sim = state.sim;
    let nodes: Vec<&Node> = cmd
        .candidates
        .iter()
        .filter_map(|&n| sim.nodes().get(n))
        .collect();
    let decision = if cmd.replacement.is_some() {
        "replace"
    } else {
        "delete"
    };
    let mut pools: Vec<String> = nodes
        .iter()
        .filter_map(|n| state.pool_name(n))
        .map(str::to_string)
        .collect();
    pools.dedup();
    let names: Vec<String> = nodes.iter().map(|n| n.name.clone()).collect();
    let id = format::uuid(&format!("command/{t}"));
    let savings = format::dollars(cmd.savings, 2, false);
    let command = match &cmd.replacement {
        Some(_) => format!(
            "{}/{id}: {decision}: nodepools=[{}]: [{}] -> [1 replacement] (savings: ${savings})",
            cmd.reason.as_str(),
            pools.join(","),
            names.join(", ")
        ),
        None => format!(
            "{}/{id}: {decision}: nodepools=[{}]: [{}] (savings: ${savings})",
            cmd.reason.as_str(),
            pools.join(","),
            names.join(", ")
        ),
    };
    let disrupted: Vec<String> = nodes
        .iter()
        .map(|n| {
            format!(
                "{{\"Node\":{{\"name\":{}}},\"NodeClaim\":{{\"name\":{}}},\"capacity-type\":{},\
                 \"instance-type\":{}}}",
                json(&n.name),
                json(n.nodeclaim.as_deref().unwrap_or(&n.name)),
                json(n.capacity_type.as_str()),
                json(&n.instance_type)
            )
        })
        .collect();
    let replacements: Vec<String> = cmd
        .replacement
        .iter()
        .map(|types| {
            let ct = if nodes.iter().any(|n| n.capacity_type.as_str() == "spot") {
                "spot"
            } else {
                "on-demand"
            };
            format!(
                "{{\"capacity-type\":{},\"instance-types\":{}}}",
                json(ct),
                json(&pretty(types, 5))
            )
        })
        .collect();
    Line::new("INFO", t, "disrupting node(s)")
        .controller("disruption", "", "", "", &format!("disruption/{t}"))
        .s("command", &command)
        .s("decision", decision)
        .n("disrupted-node-count", nodes.len())
        .n("replacement-node-count", replacements.len())
        .n("pod-count", pod_count)
        .raw("disrupted-nodes", &format!("[{}]", disrupted.join(",")))
        .raw(
            "replacement-nodes",
            &format!("[{}]", replacements.join(",")),
        )
        .done()
}

/// Whether a `kubectl logs` target is Karpenter: its label, its Deployment, or its pods.
fn is_karpenter(args: &Args) -> Result<(), String> {
    let namespace = crate::get::namespace_of(args);
    let ns_ok = namespace == "kube-system" || namespace == "karpenter";
    if let Some(sel) = args.value("selector") {
        let s = crate::selector::parse(sel).map_err(|e| format!("error: {e}\n"))?;
        let karpenter: kpg_core::model::StringMap = [
            (
                "app.kubernetes.io/name".to_string(),
                "karpenter".to_string(),
            ),
            (
                "app.kubernetes.io/instance".to_string(),
                "karpenter".to_string(),
            ),
        ]
        .into_iter()
        .collect();
        if ns_ok && s.matches(&karpenter) && !s.requirements.is_empty() {
            return Ok(());
        }
        return Err(format!("No resources found in {namespace} namespace.\n"));
    }
    match args.positional.first() {
        None => Err(String::from(
            "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\n\
             POD or TYPE/NAME is a required argument for the logs command\n\
             See 'kubectl logs -h' for help and examples\n",
        )),
        Some(p)
            if ns_ok
                && (p == "deployment/karpenter"
                    || p == "deploy/karpenter"
                    || p.starts_with("karpenter-")
                    || p.starts_with("pod/karpenter-")) =>
        {
            Ok(())
        }
        Some(p) => {
            let name = p.rsplit('/').next().unwrap_or(p);
            Err(format!(
                "Error from server (NotFound): pods \"{name}\" not found\n\
                 (the playground keeps logs only for Karpenter: kubectl logs -n kube-system -l \
                 app.kubernetes.io/name=karpenter)\n"
            ))
        }
    }
}

pub fn run(state: &State, args: &Args) -> Reply {
    if let Err(e) = is_karpenter(args) {
        return Reply {
            output: e,
            ok: false,
            ..Reply::default()
        };
    }
    let tail = args
        .value("tail")
        .and_then(|t| t.parse::<i64>().ok())
        .and_then(|t| usize::try_from(t).ok());
    let req = Request { tail };
    let mut output: String = lines(state, &req).into_iter().map(|l| l + "\n").collect();
    if output.is_empty() {
        output = String::new();
    }
    let watch = if args.has("follow") {
        Some(Watch::for_logs(state, Request { tail: None }))
    } else {
        None
    };
    Reply {
        output,
        ok: true,
        watch,
        ..Reply::default()
    }
}

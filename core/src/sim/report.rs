//! Renders the simulation at the current instant as the contract's report
//! ([`crate::report`]).

use super::*;

impl Simulation {
    /// The cluster at the current time.
    pub fn report(&self) -> Report {
        let fmt_res = |r: &Resources, names: &[ResourceName]| -> BTreeMap<String, String> {
            names
                .iter()
                .map(|n| {
                    (
                        String::from(n.as_str()),
                        Resources::format_amount(*n, r.get(*n)),
                    )
                })
                .collect()
        };
        let shown = [ResourceName::Cpu, ResourceName::Memory, ResourceName::Pods];
        let mut node_order: Vec<usize> = (0..self.cluster.nodes.len())
            .filter(|&n| self.cluster.nodes[n].exists())
            .collect();
        node_order.sort_by(|&a, &b| {
            self.cluster.nodes[a]
                .created_order(&self.cluster.nodes[b])
                .then(self.cluster.nodes[a].name.cmp(&self.cluster.nodes[b].name))
        });
        let by_node = self.cluster.active_pods_by_node();
        let mut nodes = Vec::new();
        let mut cost: MicroDollars = 0;
        let mut fees: MicroDollars = 0;
        for &n in &node_order {
            let node = &self.cluster.nodes[n];
            cost += node.price + node.management_fee;
            fees += node.management_fee;
            let mut pods: Vec<String> = by_node[n]
                .iter()
                .map(|&p| self.cluster.pods[p].key())
                .collect();
            pods.sort();
            let taints: Vec<TaintReport> = node
                .taints
                .iter()
                .chain(node.startup_taints.iter())
                .map(|t| TaintReport {
                    key: t.key.clone(),
                    value: t.value.clone(),
                    effect: t.effect.as_str().into(),
                })
                .collect();
            let mut capacity_names: Vec<ResourceName> = shown.to_vec();
            for (r, _) in node.capacity.iter() {
                if !capacity_names.contains(&r) {
                    capacity_names.push(r);
                }
            }
            nodes.push(NodeReport {
                name: node.name.clone(),
                nodepool: node
                    .nodepool
                    .map(|p| self.cluster.node_pools[p].name.clone()),
                node_group: node.node_group.clone(),
                nodeclaim: node.nodeclaim.clone(),
                instance_type: node.instance_type.clone(),
                zone: node.zone.clone(),
                capacity_type: node.capacity_type.as_str().into(),
                arch: node.arch.clone(),
                state: node.state.report_state().into(),
                labels: node.labels.clone(),
                taints,
                allocatable: fmt_res(&node.allocatable, &capacity_names),
                capacity: fmt_res(&node.capacity, &capacity_names),
                requested: fmt_res(&self.cluster.requests_of(&by_node[n]), &shown),
                price_per_hour: to_dollars(node.price),
                price_source: node.price_source.as_str().into(),
                node_overlay: node.overlay.as_ref().map(|(name, _)| name.clone()),
                list_price_per_hour: node.overlay.as_ref().map(|&(_, list)| to_dollars(list)),
                management_fee_per_hour: (node.management_fee > 0)
                    .then(|| to_dollars(node.management_fee)),
                created_at: created(node),
                pods,
            });
        }
        let mut pod_order: Vec<usize> = (0..self.cluster.pods.len())
            .filter(|&p| !self.cluster.pods[p].deleted)
            .collect();
        pod_order.sort_by(|&a, &b| {
            (&self.cluster.pods[a].namespace, &self.cluster.pods[a].name)
                .cmp(&(&self.cluster.pods[b].namespace, &self.cluster.pods[b].name))
        });
        let pods = pod_order
            .iter()
            .map(|&p| {
                let pod = &self.cluster.pods[p];
                let pending = pod.phase == Phase::Pending && pod.node.is_none();
                let (reason, message) = if pending {
                    let message = match (
                        &pod.karpenter_message,
                        &pod.nominated,
                        &pod.scheduler_message,
                    ) {
                        (Some(k), _, _) => Some(k.clone()),
                        (None, Some(n), _) => {
                            Some(format!("Pod should schedule on: nodeclaim/{n}"))
                        }
                        (None, None, s) => s.clone(),
                    };
                    (Some(String::from("Unschedulable")), message)
                } else {
                    (None, None)
                };
                PodReport {
                    name: pod.name.clone(),
                    namespace: pod.namespace.clone(),
                    owner: pod.owner_string(),
                    labels: pod.labels.clone(),
                    node: pod.node.map(|n| self.cluster.nodes[n].name.clone()),
                    phase: pod.phase.as_str().into(),
                    reason,
                    message,
                    nominated: if pending { pod.nominated.clone() } else { None },
                    scheduler_message: if pending {
                        pod.scheduler_message.clone()
                    } else {
                        None
                    },
                    requests: fmt_res(&pod.requests, &shown),
                    created_at: duration::format(pod.created_at),
                    priority: pod.spec.priority,
                    nominated_node_name: pod
                        .nominated_node
                        .filter(|_| pending)
                        .map(|n| self.cluster.nodes[n].name.clone()),
                }
            })
            .collect();
        let events = self
            .recorder
            .events()
            .iter()
            .map(|e| EventReport {
                time: duration::format(e.time),
                kind: if e.kind.warning() {
                    "Warning".into()
                } else {
                    "Normal".into()
                },
                reason: e.kind.reason().into(),
                object: e.kind.object().to_string(),
                message: e.kind.to_string(),
            })
            .collect();
        let nodepools = self
            .cluster
            .ordered_pools()
            .into_iter()
            .map(|p| {
                let np = &self.cluster.node_pools[p];
                let (used, count) = self.cluster.pool_usage(p);
                let ready = self.node_pool_ready(p);
                let mut limits = BTreeMap::new();
                for r in ResourceName::ALL {
                    if let Some(l) = np.limits.resources[r as usize] {
                        limits.insert(String::from(r.as_str()), Resources::format_amount(r, l));
                    }
                }
                if let Some(n) = np.limits.nodes {
                    limits.insert("nodes".into(), n.to_string());
                }
                NodePoolReport {
                    name: np.name.clone(),
                    weight: np.weight,
                    nodes: count as usize,
                    resources: fmt_res(&used, &[ResourceName::Cpu, ResourceName::Memory]),
                    limits,
                    ready,
                    message: self.node_pool_not_ready(p),
                }
            })
            .collect();
        let nodeclaims = node_order
            .iter()
            .filter(|&&n| self.cluster.nodes[n].nodeclaim.is_some())
            .map(|&n| {
                let node = &self.cluster.nodes[n];
                NodeClaimReport {
                    name: node.nodeclaim.clone().unwrap_or_default(),
                    nodepool: node
                        .nodepool
                        .map(|p| self.cluster.node_pools[p].name.clone())
                        .unwrap_or_default(),
                    instance_type: node.instance_type.clone(),
                    zone: node.zone.clone(),
                    capacity_type: node.capacity_type.as_str().into(),
                    node: if node.state >= NodeState::Registered {
                        Some(node.name.clone())
                    } else {
                        None
                    },
                    state: match node.state {
                        NodeState::Launching => "Launching",
                        NodeState::Launched => "Launched",
                        NodeState::Registered => "Registered",
                        NodeState::Ready => "Ready",
                        NodeState::Deleting => "Deleting",
                    }
                    .into(),
                    created_at: created(node),
                    instance_type_options: node
                        .options
                        .iter()
                        .take(MAX_LAUNCH_TYPES)
                        .cloned()
                        .collect(),
                    price_per_hour: to_dollars(node.price),
                    drifted: node.drifted.map(|d| d.1.as_str().into()),
                    disruption_reason: node.disruption.map(|r| r.as_str().into()),
                    image_id: node.image_id.clone(),
                }
            })
            .collect();
        let mut notes = self.notes.clone();
        if self
            .cluster
            .nodes
            .iter()
            .any(|n| n.exists() && n.price_source == PriceSource::UsEast1Fallback)
        {
            notes.push(format!(
                "Some on-demand prices for {} are us-east-1's: the built-in catalog has no \
                 regional price for those types, and Karpenter itself uses us-east-1's table until \
                 its pricing API answers.",
                self.cloud.region()
            ));
        }
        Report {
            time: duration::format(self.now),
            cost_per_hour: to_dollars(cost),
            management_fee_per_hour: to_dollars(fees),
            nodes,
            pods,
            events,
            nodepools,
            nodeclaims,
            notes,
            history: self
                .history()
                .iter()
                .map(|p| HistoryReport {
                    time: duration::format(p.at),
                    seconds: p.at as f64 / 1000.0,
                    nodes: p.nodes,
                    running: p.running,
                    pending: p.pending,
                    cost_per_hour: to_dollars(p.cost_per_hour),
                })
                .collect(),
            accrued_cost: to_dollars(self.accrued_cost()),
            capacity_buffers: self.buffer_reports(),
        }
    }
}

/// When the node was created, on the simulation's clock: a snapshot's node was created
/// before time zero, `-72h0m0s`.
fn created(node: &Node) -> String {
    if node.age_at_start > 0 {
        alloc::format!("-{}", duration::format(node.age_at_start))
    } else {
        duration::format(node.created_at)
    }
}

//! The cluster a snapshot found: nodes that exist at time zero, Karpenter's with their
//! NodeClaims, and the pods already bound to them.
//!
//! A snapshot's time zero is the instant it was taken; the reader has turned its timestamps
//! into ages (`ExistingNode::age`, `ExistingClaim::quiet_for`), so a node created three days
//! before is three days old here, its `expireAfter` counts from then and its
//! `consolidateAfter` from its last pod event.

use super::*;

impl Simulation {
    /// A snapshot's node joins the cluster as it was: Ready (or not, as its `Ready`
    /// condition said), with its labels, taints, capacity and allocatable. A node with a
    /// NodeClaim whose NodePool the scenario has is Karpenter's to manage; every other node
    /// is fixed (a managed node group, a self-managed group, Fargate).
    pub(super) fn add_existing_node(&mut self, existing: &ExistingNode) {
        let labels = existing.labels.clone();
        let instance_type = labels.get(wk::INSTANCE_TYPE).cloned().unwrap_or_default();
        let zone = labels.get(wk::ZONE).cloned().unwrap_or_default();
        let capacity_type = capacity_type_of(&labels);
        let claim = existing.claim.as_ref();
        let pool = claim.and_then(|c| {
            self.cluster
                .node_pools
                .iter()
                .position(|np| np.name == c.nodepool)
        });
        let class = pool.map(|p| self.cluster.node_pools[p].node_class_ref.key().into_owned());
        let (price, price_source, overlay) =
            self.existing_price(class.as_deref(), &instance_type, &zone, capacity_type);
        let mut taints = existing.taints.clone();
        if existing.unschedulable && !taints.iter().any(|t| t.key == wk::UNSCHEDULABLE_TAINT) {
            taints.push(Taint::new(
                wk::UNSCHEDULABLE_TAINT,
                "",
                TaintEffect::NoSchedule,
            ));
        }
        let mut conditions = BTreeMap::new();
        if !existing.ready {
            conditions.insert("Ready".into(), ("False".into(), 0));
        }
        let mut node = Node {
            nodepool: pool,
            nodeclaim: claim.map(|c| c.name.clone()),
            capacity_type,
            price,
            price_source,
            overlay,
            reservation: labels.get(wk::RESERVATION_ID).cloned(),
            taints,
            conditions,
            age_at_start: existing.age,
            ..Node::ready_at_start(
                existing.name.clone(),
                instance_type,
                labels,
                existing.capacity,
                existing.allocatable,
            )
        };
        match (claim, pool) {
            (Some(claim), Some(p)) => {
                self.give_claim(&mut node, claim, p);
                // What Karpenter reads on the Node itself (`karpenter.sh/do-not-disrupt`).
                for (k, v) in &existing.annotations {
                    if k.starts_with("karpenter.sh/") {
                        node.annotations
                            .entry(k.clone())
                            .or_insert_with(|| v.clone());
                    }
                }
            }
            (Some(claim), None) => {
                node.annotations = claim.annotations.clone();
                node.node_group = Some(alloc::format!("nodepool/{}", claim.nodepool));
            }
            (None, _) => node.node_group = Some(fixed_group_of(&node.labels)),
        }
        self.cluster.nodes.push(node);
    }

    /// What Karpenter knows of a node through its NodeClaim: the NodePool and node class
    /// hashes it launched with, its expiry, its quiet time, its image.
    ///
    /// The NodePool hash is the one the snapshot's NodeClaim carries when it is of the hash
    /// version this Karpenter writes (`karpenter.sh/nodepool-hash-version`); a NodeClaim
    /// without one, or of another version, is re-annotated with the NodePool's current hash
    /// by Karpenter's hash controller (`nodepool/hash/controller.go`), so it does not drift
    /// by hash. The node class hash and image are taken as current: a snapshot's EC2NodeClass
    /// drift is not read (the engine's node class hash is not AWS's).
    fn give_claim(&self, node: &mut Node, claim: &ExistingClaim, pool: usize) {
        let np = &self.cluster.node_pools[pool];
        let current = disruption::pool_hash(np);
        let written = claim
            .annotations
            .get(wk::NODEPOOL_HASH_VERSION)
            .filter(|v| v.as_str() == disruption::NODEPOOL_HASH_VERSION)
            .and_then(|_| claim.annotations.get(wk::NODEPOOL_HASH))
            .and_then(|h| h.parse::<u64>().ok());
        node.pool_hash = written.unwrap_or(current);
        let node_class = self
            .cluster
            .node_classes
            .get(np.node_class_ref.key().as_ref());
        node.node_class_hash = node_class.map_or(0, disruption::node_class_hash);
        node.image_id = node_class
            .map(|nc| self.cloud.current_image(nc))
            .unwrap_or_default();
        node.annotations = claim.annotations.clone();
        let expire_after = claim.expire_after.unwrap_or(np.expire_after);
        node.expire_at = expire_after.map(|e| e.saturating_sub(claim.age));
        node.termination_grace = claim
            .termination_grace_period
            .or(np.termination_grace_period);
        node.quiet_at_start = claim.quiet_for;
    }

    /// The price of a snapshot's node: its instance type's offering in its zone and
    /// capacity type, as its NodePool's EC2NodeClass sees it (overlays included), else as
    /// the built-in catalog lists it. A type the catalog does not know costs nothing, and a
    /// note says so.
    fn existing_price(
        &mut self,
        class: Option<&str>,
        instance_type: &str,
        zone: &str,
        capacity_type: CapacityType,
    ) -> (MicroDollars, PriceSource, Option<(String, MicroDollars)>) {
        let from_class = class.and_then(|c| self.cloud.catalog(c)).and_then(|types| {
            let it = types.iter().find(|t| t.name == instance_type)?;
            pick_offering(&it.offerings, zone, capacity_type)
                .map(|o| (o.price, o.price_source, o.overlay.clone()))
        });
        if let Some(found) = from_class {
            return found;
        }
        let nc = Self::default_node_class();
        let group = NodeGroup {
            name: String::new(),
            instance_type: instance_type.into(),
            count: 1,
            zones: Vec::new(),
            capacity_type: capacity_type.as_str().into(),
            labels: StringMap::new(),
            taints: Vec::new(),
        };
        match self.cloud.node_group_type(&group, &nc) {
            Ok(it) => pick_offering(&it.offerings, zone, capacity_type)
                .map_or((0, PriceSource::Regional, None), |o| {
                    (o.price, o.price_source, None)
                }),
            Err(_) => {
                let note = alloc::format!(
                    "Instance type \"{instance_type}\" is not in the catalog: its nodes are \
                     counted at $0/hour."
                );
                if !instance_type.is_empty() && !self.notes.contains(&note) {
                    self.notes.push(note);
                }
                (0, PriceSource::Regional, None)
            }
        }
    }

    /// Queues the expiry of every snapshot node that expires (from time zero on): at time
    /// zero, the only nodes of a NodePool are a snapshot's.
    pub(super) fn schedule_existing_expiries(&mut self) {
        for n in 0..self.cluster.nodes.len() {
            let node = &self.cluster.nodes[n];
            if let (Some(at), Some(_)) = (node.expire_at, node.nodepool) {
                self.schedule(at, Action::Expire(n));
            }
        }
    }

    /// A workload's pods that a snapshot found: each keeps its name, and a bound one runs
    /// on its node from time zero (its binding is not a pod event: the node's quiet time
    /// goes on). Returns how many there were.
    pub(super) fn start_existing_pods(&mut self, w: usize) -> u32 {
        let existing = core::mem::take(&mut self.cluster.workloads[w].existing);
        // Looked up once per workload, not once per pod: a snapshot has thousands of pods.
        let named: BTreeMap<&str, usize> = self
            .cluster
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.exists())
            .map(|(n, node)| (node.name.as_str(), n))
            .collect();
        let nodes: Vec<Option<usize>> = existing
            .iter()
            .map(|pod| pod.node.as_deref().and_then(|n| named.get(n).copied()))
            .collect();
        for (pod, node) in existing.iter().zip(nodes) {
            let p = self.new_pod(w, pod.name.clone(), node);
            for (k, v) in &pod.annotations {
                self.cluster.pods[p]
                    .annotations
                    .insert(k.clone(), v.clone());
            }
            if let Some(n) = node
                && self.cluster.nodes[n].state == NodeState::Ready
            {
                self.cluster.pods[p].phase = Phase::Running;
                self.cluster.pods[p].started_at = Some(0);
            }
        }
        let count = existing.len() as u32;
        // A StatefulSet's next pod takes the ordinal after the highest found.
        let wl = &self.cluster.workloads[w];
        if wl.kind == WorkloadKind::StatefulSet {
            let prefix = alloc::format!("{}-", wl.name);
            let next = existing
                .iter()
                .filter_map(|p| p.name.strip_prefix(&prefix)?.parse::<u32>().ok())
                .map(|o| o + 1)
                .max()
                .unwrap_or(0);
            let state = &mut self.cluster.workload_state[w];
            state.next_ordinal = state.next_ordinal.max(next);
        }
        self.cluster.workloads[w].existing = existing;
        count
    }
}

/// The offering in the node's zone and capacity type, else any of its capacity type.
fn pick_offering<'a>(
    offerings: &'a [catalog::Offering],
    zone: &str,
    capacity_type: CapacityType,
) -> Option<&'a catalog::Offering> {
    offerings
        .iter()
        .find(|o| o.zone == zone && o.capacity_type == capacity_type)
        .or_else(|| offerings.iter().find(|o| o.capacity_type == capacity_type))
}

/// A node's capacity type from Karpenter's label, EKS's node group label or Fargate's.
fn capacity_type_of(labels: &StringMap) -> CapacityType {
    if let Some(ct) = labels
        .get(wk::CAPACITY_TYPE)
        .and_then(|v| CapacityType::parse(v))
    {
        return ct;
    }
    match labels
        .get("eks.amazonaws.com/capacityType")
        .map(String::as_str)
    {
        Some("SPOT") => CapacityType::Spot,
        _ => CapacityType::OnDemand,
    }
}

/// The group a fixed node belongs to, for the report's `nodeGroup`: its EKS managed node
/// group, its eksctl node group, Fargate, or a self-managed node.
fn fixed_group_of(labels: &StringMap) -> String {
    if let Some(g) = labels
        .get("eks.amazonaws.com/nodegroup")
        .or_else(|| labels.get("alpha.eksctl.io/nodegroup-name"))
    {
        return g.clone();
    }
    if labels
        .get("eks.amazonaws.com/compute-type")
        .is_some_and(|v| v == "fargate")
    {
        return "fargate".into();
    }
    "self-managed".into()
}

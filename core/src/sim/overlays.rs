//! The nodeoverlay controller (`pkg/controllers/nodeoverlay/`, v1.7+, gate `NodeOverlay`) and
//! the cloud provider decorator that applies what it stored
//! (`pkg/cloudprovider/overlay/cloudprovider.go`): every NodePool's instance types with the
//! overlays' prices and capacity. The rules are [`crate::overlay`]'s.
//!
//! Its state is [`NodeOverlays`]: the overlays, and the last evaluation with the inputs it
//! was made from, so a NodePool's overlaid catalog keeps its identity (the provisioner's
//! candidate cache compares catalogs by identity) until a NodePool or a catalog changes.

use super::*;
use crate::overlay::{self, NodeOverlay, PoolView};

/// What an evaluation sees of one NodePool: its name, template labels and catalog.
type PoolInput = (String, StringMap, Rc<Vec<InstanceType>>);

/// One evaluation: what it saw, the overlaid catalog per NodePool name, the overlays in
/// conflict.
type Evaluated = (
    Vec<PoolInput>,
    BTreeMap<String, Rc<Vec<InstanceType>>>,
    Vec<String>,
);

#[derive(Clone, Debug, Default)]
pub(super) struct NodeOverlays {
    specs: Vec<NodeOverlay>,
    /// What the last evaluation saw, per NodePool: name, template labels, catalog.
    inputs: Vec<PoolInput>,
    /// Its outcome: per NodePool name, the overlaid catalog.
    overlaid: BTreeMap<String, Rc<Vec<InstanceType>>>,
    /// The overlays in conflict, by name (reported once each).
    conflicts: Vec<String>,
}

impl NodeOverlays {
    pub(super) fn new(specs: Vec<NodeOverlay>) -> NodeOverlays {
        NodeOverlays {
            specs,
            ..NodeOverlays::default()
        }
    }
}

impl Simulation {
    /// Whether overlays change anything: there are some, and the gate is on (it exists from
    /// v1.7).
    fn overlays_apply(&self) -> bool {
        !self.overlays.specs.is_empty() && self.karpenter.gate(Gate::NodeOverlay)
    }

    /// The NodePools overlays are evaluated against, with their catalogs now.
    fn overlay_inputs(&self) -> impl Iterator<Item = (&NodePool, Rc<Vec<InstanceType>>)> {
        self.cluster
            .node_pools
            .iter()
            .enumerate()
            .filter(|&(p, _)| !self.cluster.pool_deleted[p])
            .filter_map(|(_, np)| Some((np, self.cloud.catalog(&np.node_class_ref.key())?)))
    }

    /// Whether the last evaluation was made from the NodePools and catalogs as they are.
    fn overlays_fresh(&self) -> bool {
        let mut kept = self.overlays.inputs.iter();
        for (np, types) in self.overlay_inputs() {
            match kept.next() {
                Some((name, labels, seen))
                    if *name == np.name
                        && *labels == np.template_labels
                        && Rc::ptr_eq(seen, &types) => {}
                _ => return false,
            }
        }
        kept.next().is_none()
    }

    fn evaluate_overlays(&self) -> Evaluated {
        let inputs: Vec<PoolInput> = self
            .overlay_inputs()
            .map(|(np, types)| (np.name.clone(), np.template_labels.clone(), types))
            .collect();
        let views: Vec<PoolView<'_>> = inputs
            .iter()
            .map(|(name, labels, types)| PoolView {
                name,
                labels,
                types,
            })
            .collect();
        let evaluation = overlay::evaluate(&self.overlays.specs, &views);
        let overlaid = inputs
            .iter()
            .map(|(name, _, types)| {
                let overrides = &evaluation.pools[name];
                let out = if overrides.iter().all(Option::is_none) {
                    types.clone()
                } else {
                    Rc::new(overlay::apply(types, overrides, &self.overlays.specs))
                };
                (name.clone(), out)
            })
            .collect();
        let mut conflicts: Vec<String> = evaluation
            .conflicts
            .iter()
            .map(|&o| self.overlays.specs[o].name.clone())
            .collect();
        conflicts.sort();
        (inputs, overlaid, conflicts)
    }

    /// NodePool `pool`'s instance types as the scheduler and the disruption controller see
    /// them: its node class's catalog, with the overlays applied.
    pub(super) fn pool_catalog(&self, pool: usize) -> Option<Rc<Vec<InstanceType>>> {
        let np = &self.cluster.node_pools[pool];
        let base = self.cloud.catalog(&np.node_class_ref.key())?;
        if !self.overlays_apply() {
            return Some(base);
        }
        if self.overlays_fresh() {
            return self.overlays.overlaid.get(&np.name).cloned().or(Some(base));
        }
        let (_, overlaid, _) = self.evaluate_overlays();
        overlaid.get(&np.name).cloned().or(Some(base))
    }

    /// A reconcile of the nodeoverlay controller, when what it evaluates changed: keeps the
    /// overlaid catalogs, and reports an overlay that newly conflicts.
    pub(super) fn warm_overlays(&mut self) {
        if !self.overlays_apply() || self.overlays_fresh() {
            return;
        }
        let (inputs, overlaid, conflicts) = self.evaluate_overlays();
        self.overlays.inputs = inputs;
        self.overlays.overlaid = overlaid;
        for name in &conflicts {
            if !self.overlays.conflicts.contains(name) {
                self.event(EventKind::NodeOverlayConflict {
                    overlay: name.clone(),
                });
            }
        }
        self.overlays.conflicts = conflicts;
    }
}

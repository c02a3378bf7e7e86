//! What a scheduling pass knows of volumes: per pod, the topology its claims ask of a node
//! and the volumes it would attach; per existing node, the CSI drivers' attach limits and
//! the volumes its pods attach (Karpenter's `VolumeUsage`,
//! `K@v1.14.1:pkg/scheduling/volumeusage.go`).
//!
//! The simulation works these out (`sim::volumes`), since only it holds the claims and
//! volumes; the solver only reads them. A pass without volumes carries none of this.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::rc::Rc;
use alloc::string::String;

use crate::requirements::Requirements;

/// One pod's volumes as Karpenter's scheduler reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodVolumes {
    /// The topology its claims ask of a node (`VolumeTopology.GetRequirements`, folded:
    /// [`crate::volumes::fold_alternatives`]): added to the node's requirements only, never
    /// to the pod's own, so topology spread counts the pod's own affinity (v1.9+,
    /// `K@v1.14.1:pkg/controllers/provisioning/scheduling/nodeclaim.go`).
    pub requirements: Option<Rc<Requirements>>,
    /// The volumes it attaches, per CSI driver: `namespace/claim` (`GetVolumes`).
    pub attaches: BTreeMap<String, BTreeSet<String>>,
}

/// What an existing node's CSI drivers can attach and have attached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeVolumes {
    /// Per driver, `CSINode` `allocatable.count`; a driver without one has no limit.
    pub limits: BTreeMap<String, u32>,
    /// Per driver, the volumes the node's pods attach.
    pub attached: BTreeMap<String, BTreeSet<String>>,
}

impl NodeVolumes {
    /// Whether adding `pod`'s volumes would take a driver past its limit
    /// (`VolumeUsage.ExceedsLimits`): volumes already attached count once.
    pub fn exceeds_limits(&self, pod: &PodVolumes) -> bool {
        pod.attaches.iter().any(|(driver, volumes)| {
            let Some(&limit) = self.limits.get(driver) else {
                return false;
            };
            let attached = self.attached.get(driver);
            let new = volumes
                .iter()
                .filter(|v| attached.is_none_or(|a| !a.contains(*v)))
                .count();
            attached.map_or(0, BTreeSet::len) + new > limit as usize
        })
    }

    /// Counts `pod`'s volumes as attached (`VolumeUsage.Add`).
    pub fn add(&mut self, pod: &PodVolumes) {
        for (driver, volumes) in &pod.attaches {
            self.attached
                .entry(driver.clone())
                .or_default()
                .extend(volumes.iter().cloned());
        }
    }
}

/// A pass's volumes: the pods that have claims, and the existing nodes (by the simulation's
/// node index) that have attach limits or attached volumes.
#[derive(Clone, Debug, Default)]
pub struct PassVolumes {
    pub pods: BTreeMap<usize, PodVolumes>,
    pub nodes: BTreeMap<usize, NodeVolumes>,
}

impl PassVolumes {
    pub fn is_empty(&self) -> bool {
        self.pods.is_empty() && self.nodes.is_empty()
    }
}

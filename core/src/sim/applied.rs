//! The objects the API server holds at the current instant, as the manifests wrote them.

use alloc::vec::Vec;

use super::Simulation;
use crate::manifest::{self, Applied};

impl Simulation {
    /// Every object of the scenario that exists now, with the Timeline played to now:
    /// objects of the stream, replaced by `apply` steps, scaled by `scale` steps; a deleted
    /// object is gone, except an EC2NodeClass whose finalizer waits for its NodeClaims
    /// (it stays, with `deleted` set, until they are gone). In the order written.
    pub fn applied(&self) -> Vec<Applied<'_>> {
        let mut objects = manifest::replay(&self.written, &self.timeline, self.now);
        objects.retain(|a| match a.deleted {
            None => true,
            Some(_) => {
                (a.written.kind == "EC2NodeClass"
                    && self.cluster.node_classes_deleting.contains(&a.written.name))
                    || (a.written.kind == crate::automode::KIND
                        && self
                            .cluster
                            .node_classes_deleting
                            .contains(&crate::automode::class_key(&a.written.name)))
            }
        });
        objects
    }
}

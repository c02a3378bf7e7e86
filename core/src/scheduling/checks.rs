//! The pod × NodePool checks behind a provisioning decision, in Karpenter's own split:
//! taints and tolerations, requirements, resources (after DaemonSet overhead), offerings
//! (zone and capacity type) and limits.
//!
//! Karpenter stops at the first obstacle and reports it; a learner wants every obstacle. So
//! each check is evaluated here on its own, over the instance types the earlier checks left
//! (or over all of the NodePool's types when an earlier check left none, so that a failed
//! requirement does not hide a resource problem too). The inputs are what the solver saw
//! when it decided ([`super::Considered`], the template and its limits at that moment), so
//! this answers for that moment, not for the cluster as it is later.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Considered, Limits, Template, has_compatible_offering};
use crate::model::HostPort;
use crate::pod::Pod;
use crate::requirements::{Incompatibility, Requirement, Requirements, Undefined};
use crate::resources::{RESOURCE_COUNT, ResourceName, Resources};
use crate::taints::{Taint, karpenter_tolerates};
use crate::wellknown::{CAPACITY_TYPE, ZONE};

/// Every check of one NodePool for one pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolChecks {
    pub nodepool: String,
    /// Instance types the NodePool's own requirements allow (with an offering): the start.
    pub candidates: u32,
    /// The first NodePool taint the pod does not tolerate.
    pub taints: Result<(), Taint>,
    pub requirements: RequirementsCheck,
    pub resources: ResourcesCheck,
    pub offerings: OfferingsCheck,
    pub limits: LimitsCheck,
}

impl PoolChecks {
    /// Whether a new NodeClaim from this NodePool could take the pod (topology and
    /// minValues aside, which depend on the other pods of the pass).
    pub fn passes(&self) -> bool {
        self.taints.is_ok()
            && self.requirements.passes()
            && self.resources.passes()
            && self.offerings.passes()
            && self.limits.passes()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequirementsCheck {
    /// The pod's node selector and required affinity against the NodePool's requirements
    /// and template labels (a custom key the NodePool does not define fails here).
    pub pool: Result<(), Incompatibility>,
    /// Of the candidates, how many instance types also meet the pod's requirements
    /// (`node.kubernetes.io/instance-type`, `kubernetes.io/arch`, …).
    pub meeting: u32,
    /// The pod's requirements as Karpenter read them.
    pub pod: Requirements,
}

impl RequirementsCheck {
    pub fn passes(&self) -> bool {
        self.pool.is_ok() && self.meeting > 0
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourcesCheck {
    pub requests: Resources,
    /// The least DaemonSet overhead over the NodePool's types (what Karpenter prints).
    pub daemon_overhead: Resources,
    /// Of the types left by the requirements, how many have room after DaemonSet overhead.
    pub fitting: u32,
    /// Of those types, the one with the most room for the scarcest resource, and that room
    /// (allocatable minus DaemonSet overhead).
    pub roomiest: Option<(String, Resources)>,
    /// Resources the pod requests more of than any of those types offers.
    pub short: Vec<ResourceName>,
    /// A host port of the pod that the NodePool's DaemonSet pods hold on every type the
    /// requirements left: no node of the pool could ever run the pod.
    pub port_held: Option<HostPort>,
}

impl ResourcesCheck {
    pub fn passes(&self) -> bool {
        self.fitting > 0
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferingsCheck {
    /// The zones and capacity types allowed once the pod's requirements are added (None:
    /// any).
    pub zones: Option<Requirement>,
    pub capacity_types: Option<Requirement>,
    /// Of the types left by the checks before, how many have an available offering there.
    pub offering: u32,
}

impl OfferingsCheck {
    pub fn passes(&self) -> bool {
        self.offering > 0
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitsCheck {
    /// Per limited resource: (resource, limit, left when the pod was considered).
    pub resources: Vec<(ResourceName, i64, i64)>,
    /// `limits.nodes`: (limit, left).
    pub nodes: Option<(i64, i64)>,
    /// The smallest type (by the first limited resource) the other checks left, and its
    /// capacity: what a NodeClaim would need from the limits at least.
    pub smallest: Option<(String, Resources)>,
    /// Of the types left by the checks before, how many fit in what is left.
    pub within: u32,
}

impl LimitsCheck {
    pub fn passes(&self) -> bool {
        self.within > 0 && self.nodes.is_none_or(|(_, left)| left > 0)
    }
}

/// The types of `set` passing `keep`, or `set` itself when none does (so the next check
/// still has something to say).
fn narrow(set: &[u32], keep: impl Fn(u32) -> bool) -> (Vec<u32>, u32) {
    let kept: Vec<u32> = set.iter().copied().filter(|&i| keep(i)).collect();
    let n = kept.len() as u32;
    if kept.is_empty() {
        (set.to_vec(), 0)
    } else {
        (kept, n)
    }
}

/// Evaluates every check of `template` for `pod`, as the solver saw it (`considered`, and
/// the template's `limits` at that moment). `configured` is the NodePool's `spec.limits`.
pub fn pool_checks(
    template: &Template,
    limits: &Limits,
    configured: &crate::model::Limits,
    considered: &Considered,
    pod: &Pod,
) -> PoolChecks {
    let types = &template.instance_types;
    let tolerations = considered
        .tolerations
        .as_deref()
        .unwrap_or(&pod.spec.tolerations);
    let taints = karpenter_tolerates(&template.taints, tolerations);

    let pod_reqs = &considered.requirements.preferred;
    let pool = template
        .requirements
        .compatible(pod_reqs, Undefined::AllowWellKnown);
    let combined = if pool.is_ok() {
        let mut r = template.requirements.clone();
        r.add_all(pod_reqs);
        r
    } else {
        template.requirements.clone()
    };
    let candidates: &[u32] = &template.candidates;
    let (after_reqs, meeting) = narrow(candidates, |i| {
        pool.is_ok() && types[i as usize].requirements.intersects_ok(&combined)
    });
    let meeting = if pool.is_ok() { meeting } else { 0 };

    let requests = pod.requests;
    let extended = requests.has_extended();
    let fits = |i: u32| {
        let h = &template.headroom[i as usize];
        if extended {
            requests.fits_in(h)
        } else {
            requests.fits_in_core(h)
        }
    };
    // Karpenter drops a whole daemon group whose DaemonSets hold one of the pod's host
    // ports before it looks at resources.
    let ports = crate::pod::host_ports(&pod.spec);
    let (after_ports, port_free) =
        narrow(&after_reqs, |i| !template.daemon_port_conflict(i, &ports));
    let port_held = if port_free == 0 && !ports.is_empty() {
        ports
            .iter()
            .find(|p| {
                after_reqs
                    .iter()
                    .all(|&i| template.daemon_port_conflict(i, core::slice::from_ref(p)))
            })
            .or(ports.first())
            .cloned()
    } else {
        None
    };
    let after_reqs = after_ports;
    let (after_fit, fitting) = narrow(&after_reqs, fits);
    let fitting = if port_held.is_some() { 0 } else { fitting };
    let mut best_room = Resources::ZERO;
    for &i in &after_reqs {
        best_room = best_room.max(&template.headroom[i as usize]);
    }
    let short: Vec<ResourceName> = ResourceName::ALL
        .iter()
        .copied()
        .filter(|&r| requests.get(r) > 0 && requests.get(r) > best_room.get(r))
        .collect();
    let scarce = short.first().copied().unwrap_or(ResourceName::Cpu);
    let roomiest = after_reqs
        .iter()
        .copied()
        .max_by(|&a, &b| {
            let (ha, hb) = (
                template.headroom[a as usize].get(scarce),
                template.headroom[b as usize].get(scarce),
            );
            ha.cmp(&hb)
                .then(types[b as usize].name.cmp(&types[a as usize].name))
        })
        .map(|i| {
            (
                types[i as usize].name.clone(),
                template.headroom[i as usize],
            )
        });
    let daemon_overhead = candidates
        .iter()
        .map(|&i| template.daemon_overhead[i as usize])
        .fold(None, |acc: Option<Resources>, o| {
            Some(acc.map_or(o, |a| a.min(&o)))
        })
        .unwrap_or(Resources::ZERO);

    let (after_off, offering) = narrow(&after_fit, |i| {
        has_compatible_offering(&types[i as usize], &combined)
    });

    let smallest_by = configured
        .resources
        .iter()
        .position(Option::is_some)
        .map_or(ResourceName::Cpu, |i| ResourceName::ALL[i]);
    let smallest = after_off
        .iter()
        .copied()
        .min_by(|&a, &b| {
            let (ca, cb) = (
                types[a as usize].capacity.get(smallest_by),
                types[b as usize].capacity.get(smallest_by),
            );
            ca.cmp(&cb)
                .then(types[a as usize].name.cmp(&types[b as usize].name))
        })
        .map(|i| (types[i as usize].name.clone(), types[i as usize].capacity));
    let (_, within) = narrow(&after_off, |i| {
        !super::exceeds(&limits.resources, &types[i as usize].capacity)
    });
    let limit_lines = (0..RESOURCE_COUNT)
        .filter_map(|i| {
            configured.resources[i]
                .map(|l| (ResourceName::ALL[i], l, limits.resources[i].unwrap_or(l)))
        })
        .collect();

    PoolChecks {
        nodepool: template.name.clone(),
        candidates: candidates.len() as u32,
        taints,
        requirements: RequirementsCheck {
            pool,
            meeting,
            pod: pod_reqs.clone(),
        },
        resources: ResourcesCheck {
            requests,
            daemon_overhead,
            fitting,
            roomiest,
            short,
            port_held,
        },
        offerings: OfferingsCheck {
            zones: combined.get(ZONE).cloned(),
            capacity_types: combined.get(CAPACITY_TYPE).cloned(),
            offering,
        },
        limits: LimitsCheck {
            resources: limit_lines,
            nodes: configured.nodes.map(|l| (l, limits.nodes.unwrap_or(l))),
            smallest,
            within,
        },
    }
}

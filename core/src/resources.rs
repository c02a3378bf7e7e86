//! Resource vectors: requests, capacity and allocatable as fixed-size integer arrays.
//!
//! Scheduling compares resource vectors millions of times per provisioning pass, so a
//! [`Resources`] is a `Copy` array indexed by [`ResourceName`], not a map. CPU is in
//! millicores, memory and ephemeral storage in bytes, everything else in whole units.
//! Extended resources that no instance type advertises are summed into
//! [`ResourceName::Other`], which no node ever offers, so a pod asking for one never fits.

use alloc::string::String;
use core::fmt;
use core::ops::{Add, AddAssign, Sub};

/// The resources the engine knows by name. The order is the order of the report's maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResourceName {
    Cpu,
    Memory,
    EphemeralStorage,
    Pods,
    NvidiaGpu,
    AmdGpu,
    AwsNeuron,
    AwsNeuronCore,
    HabanaGaudi,
    PodEni,
    Efa,
    /// Any extended resource the engine does not model; never offered by a node.
    Other,
}

pub const RESOURCE_COUNT: usize = 12;

impl ResourceName {
    pub const ALL: [ResourceName; RESOURCE_COUNT] = [
        ResourceName::Cpu,
        ResourceName::Memory,
        ResourceName::EphemeralStorage,
        ResourceName::Pods,
        ResourceName::NvidiaGpu,
        ResourceName::AmdGpu,
        ResourceName::AwsNeuron,
        ResourceName::AwsNeuronCore,
        ResourceName::HabanaGaudi,
        ResourceName::PodEni,
        ResourceName::Efa,
        ResourceName::Other,
    ];

    /// The Kubernetes name of the resource (`cpu`, `nvidia.com/gpu`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ResourceName::Cpu => "cpu",
            ResourceName::Memory => "memory",
            ResourceName::EphemeralStorage => "ephemeral-storage",
            ResourceName::Pods => "pods",
            ResourceName::NvidiaGpu => "nvidia.com/gpu",
            ResourceName::AmdGpu => "amd.com/gpu",
            ResourceName::AwsNeuron => "aws.amazon.com/neuron",
            ResourceName::AwsNeuronCore => "aws.amazon.com/neuroncore",
            ResourceName::HabanaGaudi => "habana.ai/gaudi",
            ResourceName::PodEni => "vpc.amazonaws.com/pod-eni",
            ResourceName::Efa => "vpc.amazonaws.com/efa",
            ResourceName::Other => "other",
        }
    }

    /// Maps a Kubernetes resource name to the engine's; unknown extended resources map to
    /// [`ResourceName::Other`].
    pub fn parse(name: &str) -> ResourceName {
        match name {
            "cpu" => ResourceName::Cpu,
            "memory" => ResourceName::Memory,
            "ephemeral-storage" => ResourceName::EphemeralStorage,
            "pods" => ResourceName::Pods,
            "nvidia.com/gpu" => ResourceName::NvidiaGpu,
            "amd.com/gpu" => ResourceName::AmdGpu,
            "aws.amazon.com/neuron" => ResourceName::AwsNeuron,
            "aws.amazon.com/neuroncore" => ResourceName::AwsNeuronCore,
            "habana.ai/gaudi" => ResourceName::HabanaGaudi,
            "vpc.amazonaws.com/pod-eni" => ResourceName::PodEni,
            "vpc.amazonaws.com/efa" => ResourceName::Efa,
            _ => ResourceName::Other,
        }
    }

    /// Whether quantities of this resource are kept in thousandths (only CPU).
    pub fn is_milli(self) -> bool {
        matches!(self, ResourceName::Cpu)
    }
}

/// A vector of resource amounts. Amounts may go negative in intermediate arithmetic
/// (remaining capacity after overcommit), which the fit checks treat as "does not fit".
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Resources(pub [i64; RESOURCE_COUNT]);

impl Resources {
    pub const ZERO: Resources = Resources([0; RESOURCE_COUNT]);

    pub fn get(&self, name: ResourceName) -> i64 {
        self.0[name as usize]
    }

    pub fn set(&mut self, name: ResourceName, value: i64) {
        self.0[name as usize] = value;
    }

    pub fn with(mut self, name: ResourceName, value: i64) -> Self {
        self.set(name, value);
        self
    }

    pub fn cpu(&self) -> i64 {
        self.get(ResourceName::Cpu)
    }

    pub fn memory(&self) -> i64 {
        self.get(ResourceName::Memory)
    }

    pub fn pods(&self) -> i64 {
        self.get(ResourceName::Pods)
    }

    /// True when every requested amount is available in `capacity`. Only resources the
    /// request asks for (non-zero) are compared, as kube-scheduler's NodeResourcesFit does.
    #[inline]
    pub fn fits_in(&self, capacity: &Resources) -> bool {
        // The common dimensions first: most misfits are decided here.
        if self.0[0] > capacity.0[0] || self.0[1] > capacity.0[1] || self.0[3] > capacity.0[3] {
            return false;
        }
        let mut i = 0;
        while i < RESOURCE_COUNT {
            if self.0[i] > 0 && self.0[i] > capacity.0[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The resources for which `self` exceeds `capacity`, for error messages.
    pub fn exceeding(&self, capacity: &Resources) -> impl Iterator<Item = ResourceName> + '_ {
        let capacity = *capacity;
        ResourceName::ALL
            .into_iter()
            .filter(move |r| self.get(*r) > 0 && self.get(*r) > capacity.get(*r))
    }

    /// Whether any extended resource (GPU, ENI, ...) is requested.
    #[inline]
    pub fn has_extended(&self) -> bool {
        self.0[4..].iter().any(|v| *v > 0)
    }

    /// [`Resources::fits_in`] for requests known to ask only for cpu, memory, ephemeral
    /// storage and pods.
    #[inline]
    pub fn fits_in_core(&self, capacity: &Resources) -> bool {
        self.0[0] <= capacity.0[0]
            && self.0[1] <= capacity.0[1]
            && self.0[3] <= capacity.0[3]
            && self.0[2] <= capacity.0[2]
    }

    /// Element-wise maximum (for init containers and daemon overhead groups).
    pub fn max(&self, other: &Resources) -> Resources {
        let mut out = *self;
        for i in 0..RESOURCE_COUNT {
            out.0[i] = out.0[i].max(other.0[i]);
        }
        out
    }

    /// Element-wise minimum.
    pub fn min(&self, other: &Resources) -> Resources {
        let mut out = *self;
        for i in 0..RESOURCE_COUNT {
            out.0[i] = out.0[i].min(other.0[i]);
        }
        out
    }

    /// Subtraction clamped at zero.
    pub fn saturating_sub(&self, other: &Resources) -> Resources {
        let mut out = *self;
        for i in 0..RESOURCE_COUNT {
            out.0[i] = (out.0[i].saturating_sub(other.0[i])).max(0);
        }
        out
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|v| *v == 0)
    }

    /// Non-zero entries in a stable order.
    pub fn iter(&self) -> impl Iterator<Item = (ResourceName, i64)> + '_ {
        ResourceName::ALL
            .into_iter()
            .map(|r| (r, self.get(r)))
            .filter(|(_, v)| *v != 0)
    }

    /// Renders the amount in Kubernetes quantity notation: `1930m`, `1418Mi`, `11`.
    pub fn format_amount(name: ResourceName, value: i64) -> String {
        crate::quantity::format_for_resource(name, value)
    }
}

impl Add for Resources {
    type Output = Resources;
    fn add(mut self, rhs: Resources) -> Resources {
        self += rhs;
        self
    }
}

impl AddAssign for Resources {
    fn add_assign(&mut self, rhs: Resources) {
        for i in 0..RESOURCE_COUNT {
            self.0[i] = self.0[i].saturating_add(rhs.0[i]);
        }
    }
}

impl Sub for Resources {
    type Output = Resources;
    fn sub(mut self, rhs: Resources) -> Resources {
        for i in 0..RESOURCE_COUNT {
            self.0[i] = self.0[i].saturating_sub(rhs.0[i]);
        }
        self
    }
}

impl fmt::Debug for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = f.debug_map();
        for (r, v) in self.iter() {
            m.entry(&r.as_str(), &v);
        }
        m.finish()
    }
}

impl fmt::Display for Resources {
    /// `{"cpu":"400m","memory":"512Mi","pods":"1"}`, the shape Karpenter prints requests in.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        let mut first = true;
        for (r, v) in self.iter() {
            if !first {
                f.write_str(",")?;
            }
            first = false;
            write!(
                f,
                "\"{}\":\"{}\"",
                r.as_str(),
                Resources::format_amount(r, v)
            )?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_ignores_resources_not_requested() {
        let cap = Resources::ZERO.with(ResourceName::Cpu, 1000);
        let req = Resources::ZERO.with(ResourceName::Cpu, 500);
        assert!(req.fits_in(&cap));
        let gpu = req.with(ResourceName::NvidiaGpu, 1);
        assert!(!gpu.fits_in(&cap));
        assert_eq!(
            gpu.exceeding(&cap).collect::<alloc::vec::Vec<_>>(),
            [ResourceName::NvidiaGpu]
        );
    }

    #[test]
    fn unknown_extended_resources_never_fit() {
        assert_eq!(ResourceName::parse("example.com/foo"), ResourceName::Other);
        let req = Resources::ZERO.with(ResourceName::Other, 1);
        let mut cap = Resources::ZERO;
        for r in ResourceName::ALL {
            if r != ResourceName::Other {
                cap.set(r, i64::MAX);
            }
        }
        assert!(!req.fits_in(&cap));
    }
}

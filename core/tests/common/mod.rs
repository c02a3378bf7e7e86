//! Builders shared by the engine's integration tests.

use kpg_core::catalog::{CapacityType, InstanceTypeSpec, OfferingSpec};
use kpg_core::resources::{ResourceName, Resources};

/// An amd64 Linux type with `cpu` vCPUs, 4 GiB per vCPU, 110 pods and one on-demand
/// offering in zone `z1` at `price` micro-dollars per hour.
pub fn instance_type(name: &str, cpu: i64, price: i64) -> InstanceTypeSpec {
    InstanceTypeSpec {
        name: name.into(),
        capacity: Resources::ZERO
            .with(ResourceName::Cpu, cpu * 1000)
            .with(ResourceName::Memory, (cpu * 4) << 30)
            .with(ResourceName::Pods, 110),
        arch: "amd64".into(),
        os: "linux".into(),
        labels: Default::default(),
        overhead: None,
        offerings: vec![OfferingSpec {
            zone: "z1".into(),
            capacity_type: CapacityType::OnDemand,
            price,
            available: true,
        }],
    }
}

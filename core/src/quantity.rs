//! Kubernetes resource quantities. (stub: being written)
use alloc::string::String;
use crate::resources::ResourceName;
pub fn format_for_resource(_name: ResourceName, value: i64) -> String { alloc::format!("{value}") }

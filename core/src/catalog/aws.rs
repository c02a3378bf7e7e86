//! The built-in AWS catalog. (stub: being written)
use alloc::vec::Vec;
use alloc::string::String;
use super::{CatalogError, InstanceType, InstanceTypeSpec};
use crate::model::NodeClass;
pub fn instance_types(_region: &str, _zones: &[String], _node_class: &NodeClass) -> Result<Vec<InstanceType>, CatalogError> { todo!() }
pub fn custom_instance_type(_spec: &InstanceTypeSpec, _zones: &[String], _node_class: &NodeClass) -> InstanceType { todo!() }

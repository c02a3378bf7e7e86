//! The engine's parsers and validators that the reader relies on, behind one narrow seam.
//!
//! Quantities, durations and label syntax belong to `kpg-core` (the engine formats and compares
//! them too); the reader only needs "parse or explain why not". Keeping every call here means a
//! change in those signatures touches one file.

use kpg_core::labels::SelectorOperator;
use kpg_core::resources::ResourceName;

pub(crate) fn quantity(resource: ResourceName, text: &str) -> Result<i64, String> {
    kpg_core::quantity::parse_for_resource(resource, text).map_err(|e| e.to_string())
}

/// Milliseconds.
pub(crate) fn duration(text: &str) -> Result<u64, String> {
    kpg_core::duration::parse(text).map_err(|e| e.to_string())
}

/// Milliseconds, `None` for `Never`.
pub(crate) fn duration_or_never(text: &str) -> Result<Option<u64>, String> {
    kpg_core::duration::parse_or_never(text).map_err(|e| e.to_string())
}

pub(crate) fn qualified_name(text: &str) -> Result<(), String> {
    kpg_core::labels::validate_qualified_name(text)
}

pub(crate) fn label_value(text: &str) -> Result<(), String> {
    kpg_core::labels::validate_label_value(text)
}

pub(crate) fn dns1123_subdomain(text: &str) -> Result<(), String> {
    kpg_core::labels::validate_dns1123_subdomain(text)
}

pub(crate) fn dns1123_label(text: &str) -> Result<(), String> {
    kpg_core::labels::validate_dns1123_label(text)
}

pub(crate) fn selector_operator(text: &str) -> Option<SelectorOperator> {
    SelectorOperator::parse(text)
}

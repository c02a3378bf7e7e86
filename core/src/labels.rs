//! Label keys, values and selectors. (stub: being written)
use alloc::string::String;
use alloc::vec::Vec;
use crate::model::StringMap;
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector { pub match_labels: StringMap, pub match_expressions: Vec<LabelSelectorRequirement> }
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelSelectorRequirement { pub key: String, pub operator: SelectorOperator, pub values: Vec<String> }
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectorOperator { In, NotIn, Exists, DoesNotExist }
impl LabelSelector { pub fn matches(&self, _labels: &StringMap) -> bool { todo!() } }

//! Pods. (stub)

//! Report. (stub)

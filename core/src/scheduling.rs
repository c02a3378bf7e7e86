//! Scheduling. (stub)

//! Scenario reader. (stub)

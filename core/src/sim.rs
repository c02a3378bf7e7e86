//! Simulation. (stub)

//! Karpenter Playground's engine.
//!
//! A pure, deterministic model of Kubernetes scheduling and Karpenter v1 provisioning.
//! Everything it needs comes in as a value: the [`model::Scenario`], the instance-type
//! [`catalog::Catalog`], the seed and the time to run until. It never reads a clock, a file or
//! the environment, and it never panics on user input: malformed input is rejected earlier by
//! the manifest reader, and the engine itself only reports errors as values.
//!
//! The map of the crate is in `ARCHITECTURE.md` at the repository root.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod automode;
pub mod calendar;
pub mod capacity_buffer;
pub mod catalog;
pub mod compare;
pub mod cron;
pub mod disruption;
pub mod duration;
mod hashstructure;
pub mod karpenter;
pub mod labels;
pub mod manifest;
pub mod model;
pub mod overlay;
pub mod pod;
pub mod priority;
pub mod quantity;
pub mod report;
pub mod requirements;
pub mod reservation;
pub mod resources;
pub mod rng;
pub mod scheduling;
pub mod sim;
pub mod taints;
pub mod volumes;
pub mod wellknown;

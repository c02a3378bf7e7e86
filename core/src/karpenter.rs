//! Which Karpenter a scenario assumes: the minor version, the feature gates and the operator
//! settings (`Cluster.spec.karpenter`).
//!
//! Karpenter changes behaviour between minors. Every behaviour the engine keys on the version
//! is a [`Behaviour`], with the minor that introduced it and the upstream file that decides it,
//! so the book's version table, the explanations and the engine read one list. Feature gates
//! default per version as `pkg/operator/options/options.go` sets them at that version's tag.

use alloc::collections::BTreeMap;
use core::fmt;

use crate::model::Millis;

/// A Karpenter v1 minor version (`v1.0` … `v1.15`). Patch releases are not told apart: the
/// engine follows the newest patch of each minor that upstream has tagged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(u8);

impl Version {
    pub const OLDEST: Version = Version(0);
    /// The newest minor the engine models.
    pub const LATEST: Version = Version(15);
    /// The long-term-support release (supported until February 2027).
    pub const LTS: Version = Version(9);

    /// `v1.<minor>`, if the engine models it.
    pub fn v1(minor: u8) -> Option<Version> {
        (minor <= Self::LATEST.0).then_some(Version(minor))
    }

    pub fn minor(self) -> u8 {
        self.0
    }

    /// Every modelled minor, oldest first.
    pub fn all() -> impl DoubleEndedIterator<Item = Version> {
        (Self::OLDEST.0..=Self::LATEST.0).map(Version)
    }

    /// Reads `v1.14`, `1.14`, `v1.14.1` (the patch is accepted and not told apart).
    /// `Err` says what is wrong in words a user can act on.
    pub fn parse(text: &str) -> Result<Version, VersionError> {
        let t = text.trim();
        let body = t.strip_prefix('v').unwrap_or(t);
        let mut parts = body.split('.');
        let major = parts.next().unwrap_or("");
        let minor = parts.next();
        let patch = parts.next();
        let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let Some(minor) = minor else {
            return Err(VersionError::Malformed);
        };
        if !numeric(major)
            || !numeric(minor)
            || patch.is_some_and(|p| !numeric(p))
            || parts.next().is_some()
        {
            return Err(VersionError::Malformed);
        }
        if major != "1" {
            return Err(VersionError::NotV1);
        }
        let minor: u32 = minor.parse().map_err(|_| VersionError::Malformed)?;
        u8::try_from(minor)
            .ok()
            .and_then(Version::v1)
            .ok_or(VersionError::Unmodelled)
    }
}

impl Default for Version {
    fn default() -> Self {
        Version::LATEST
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v1.{}", self.0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionError {
    Malformed,
    NotV1,
    Unmodelled,
}

/// A feature gate of `FEATURE_GATES` that changes what the engine does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gate {
    SpotToSpotConsolidation,
    NodeRepair,
    ReservedCapacity,
    NodeOverlay,
    StaticCapacity,
    CapacityBuffer,
}

impl Gate {
    pub const ALL: [Gate; 6] = [
        Gate::SpotToSpotConsolidation,
        Gate::NodeRepair,
        Gate::ReservedCapacity,
        Gate::NodeOverlay,
        Gate::StaticCapacity,
        Gate::CapacityBuffer,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Gate::SpotToSpotConsolidation => "SpotToSpotConsolidation",
            Gate::NodeRepair => "NodeRepair",
            Gate::ReservedCapacity => "ReservedCapacity",
            Gate::NodeOverlay => "NodeOverlay",
            Gate::StaticCapacity => "StaticCapacity",
            Gate::CapacityBuffer => "CapacityBuffer",
        }
    }

    pub fn parse(name: &str) -> Option<Gate> {
        Gate::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The first minor whose `options.go` has the gate.
    pub fn since(self) -> Version {
        Version(match self {
            Gate::SpotToSpotConsolidation => 0,
            Gate::NodeRepair => 1,
            Gate::ReservedCapacity => 3,
            Gate::NodeOverlay => 7,
            // The gate is in options.go from v1.7; `spec.replicas` arrives in v1.8.
            Gate::StaticCapacity => 7,
            Gate::CapacityBuffer => 14,
        })
    }

    /// The gate's default at `version` (`options.go` at that tag); `None` where the gate
    /// does not exist yet.
    pub fn default_at(self, version: Version) -> Option<bool> {
        if version < self.since() {
            return None;
        }
        Some(match self {
            // Alpha (false) when added in v1.3; beta and on by default from v1.6.0.
            Gate::ReservedCapacity => version >= Version(6),
            _ => false,
        })
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `MIN_VALUES_POLICY` (v1.6+): whether a NodeClaim that cannot meet `minValues` is refused
/// (`Strict`) or launched with the requirement relaxed (`BestEffort`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MinValuesPolicy {
    #[default]
    Strict,
    BestEffort,
}

/// `PREFERENCE_POLICY`: whether preferred affinities and `ScheduleAnyway` spreads are tried
/// first (`Respect`) or left out of Karpenter's scheduling altogether (`Ignore`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PreferencePolicy {
    #[default]
    Respect,
    Ignore,
}

/// Operator settings the scenario may set (`Cluster.spec.karpenter.settings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub min_values_policy: MinValuesPolicy,
    pub preference_policy: PreferencePolicy,
    /// `BATCH_MAX_DURATION`: the longest a provisioning batch stays open.
    pub batch_max_duration: Millis,
    /// `BATCH_IDLE_DURATION`: a batch closes after this long without a new pending pod.
    pub batch_idle_duration: Millis,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            min_values_policy: MinValuesPolicy::Strict,
            preference_policy: PreferencePolicy::Respect,
            batch_max_duration: 10_000,
            batch_idle_duration: 1_000,
        }
    }
}

/// The Karpenter a scenario assumes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Karpenter {
    pub version: Version,
    /// Gates the scenario names; the others take the version's default.
    pub gates: BTreeMap<Gate, bool>,
    pub settings: Settings,
    /// Self-managed Karpenter or EKS Auto Mode (`spec.karpenter.mode`).
    pub mode: crate::automode::Mode,
}

impl Karpenter {
    /// Karpenter `version` with its default gates and settings.
    pub fn at(version: Version) -> Karpenter {
        Karpenter {
            version,
            ..Karpenter::default()
        }
    }

    /// Whether `gate` is on: as the scenario sets it, else the version's default. A gate the
    /// version does not have is off whatever the scenario says.
    pub fn gate(&self, gate: Gate) -> bool {
        // EKS Auto Mode runs node repair ("enabled by default in EKS Auto Mode", EKS
        // `node-repair`) and spot-to-spot consolidation for you; its Karpenter has no gates to
        // set.
        if self.is_auto_mode() && matches!(gate, Gate::NodeRepair | Gate::SpotToSpotConsolidation) {
            return true;
        }
        match gate.default_at(self.version) {
            None => false,
            Some(default) => self.gates.get(&gate).copied().unwrap_or(default),
        }
    }

    /// Whether EKS Auto Mode runs the cluster's nodes.
    pub fn is_auto_mode(&self) -> bool {
        matches!(self.mode, crate::automode::Mode::EksAutoMode(_))
    }

    /// Whether the behaviour applies at this version.
    pub fn follows(&self, behaviour: Behaviour) -> bool {
        self.version >= behaviour.since()
    }
}

/// A behaviour that changed between minors, keyed on the version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Behaviour {
    /// `preferencePolicy` (`PREFERENCE_POLICY`) exists.
    PreferencePolicySetting,
    /// Emptiness runs before drift.
    EmptinessFirst,
    /// `minValuesPolicy` (`MIN_VALUES_POLICY`) exists.
    MinValuesPolicySetting,
    /// Static NodePools (`spec.replicas`).
    StaticNodePools,
    /// `Gte`/`Lte` requirement operators; labels under kubernetes.io and k8s.io are free.
    GteLteAndOpenLabelDomains,
    /// `limits.nodes` caps dynamic NodePools.
    NodeLimits,
    /// `consolidationPolicy: Balanced`.
    BalancedPolicy,
    /// Consolidation does not move pods onto nodes inside `consolidateAfter`.
    ConsolidationDestinations,
    /// Candidates sorted by price per unit of disruption; a node's price is its own offering.
    PricePerDisruptionOrder,
    /// Node repair is a disruption method: budgeted (reason `Repair`), run before drift, no
    /// 20 % breaker.
    RepairAsDisruption,
    /// A static NodePool at its `limits.nodes` drifts by deleting first, then replacing.
    StaticDriftTerminateFirst,
    /// Pods with DRA resource claims get no capacity (`IGNORE_DRA_REQUESTS`, on by default)
    /// and DaemonSet pods with claims are left out of daemon overhead; before, claims were
    /// not looked at.
    DraPodsNotProvisioned,
}

impl Behaviour {
    pub const ALL: [Behaviour; 12] = [
        Behaviour::PreferencePolicySetting,
        Behaviour::EmptinessFirst,
        Behaviour::MinValuesPolicySetting,
        Behaviour::DraPodsNotProvisioned,
        Behaviour::StaticNodePools,
        Behaviour::GteLteAndOpenLabelDomains,
        Behaviour::NodeLimits,
        Behaviour::BalancedPolicy,
        Behaviour::ConsolidationDestinations,
        Behaviour::PricePerDisruptionOrder,
        Behaviour::RepairAsDisruption,
        Behaviour::StaticDriftTerminateFirst,
    ];

    /// The first minor that behaves so.
    pub fn since(self) -> Version {
        Version(match self {
            Behaviour::PreferencePolicySetting => 4,
            Behaviour::EmptinessFirst => 5,
            Behaviour::MinValuesPolicySetting => 6,
            Behaviour::DraPodsNotProvisioned => 7,
            Behaviour::StaticNodePools => 8,
            Behaviour::GteLteAndOpenLabelDomains => 9,
            Behaviour::NodeLimits => 11,
            Behaviour::BalancedPolicy
            | Behaviour::ConsolidationDestinations
            | Behaviour::PricePerDisruptionOrder => 14,
            Behaviour::RepairAsDisruption | Behaviour::StaticDriftTerminateFirst => 15,
        })
    }

    /// The upstream file (kubernetes-sigs/karpenter) that decides it.
    pub fn source(self) -> &'static str {
        match self {
            Behaviour::PreferencePolicySetting => "pkg/operator/options/options.go",
            Behaviour::EmptinessFirst => "pkg/controllers/disruption/controller.go",
            Behaviour::MinValuesPolicySetting => "pkg/operator/options/options.go",
            Behaviour::StaticNodePools => "pkg/controllers/static/",
            Behaviour::DraPodsNotProvisioned => {
                "pkg/controllers/provisioning/scheduling/scheduler.go"
            }
            Behaviour::GteLteAndOpenLabelDomains => "pkg/apis/v1/labels.go",
            Behaviour::NodeLimits => "pkg/controllers/provisioning/scheduling/scheduler.go",
            Behaviour::BalancedPolicy => "pkg/controllers/disruption/balanced.go",
            Behaviour::ConsolidationDestinations => "pkg/utils/disruption/disruption.go",
            Behaviour::PricePerDisruptionOrder => "pkg/controllers/disruption/types.go",
            // kubernetes-sigs/karpenter#3192 (the RFC) and #3311; no v1.15 tag was readable.
            Behaviour::RepairAsDisruption => "designs/making-node-repair-voluntary.md",
            // As issue 31 states v1.15; no v1.15 tag was readable.
            Behaviour::StaticDriftTerminateFirst => "pkg/controllers/disruption/staticdrift.go",
        }
    }

    /// What changed, in a few words.
    pub fn what(self) -> &'static str {
        match self {
            Behaviour::PreferencePolicySetting => {
                "`preferencePolicy: Ignore` schedules without preferences"
            }
            Behaviour::EmptinessFirst => "empty nodes are removed before drifted ones are replaced",
            Behaviour::MinValuesPolicySetting => {
                "`minValuesPolicy: BestEffort` can relax minValues"
            }
            Behaviour::StaticNodePools => "static NodePools (`spec.replicas`)",
            Behaviour::DraPodsNotProvisioned => {
                "pods with DRA resource claims get no capacity (`IGNORE_DRA_REQUESTS`)"
            }
            Behaviour::GteLteAndOpenLabelDomains => {
                "`Gte`/`Lte` operators; labels under kubernetes.io and k8s.io allowed"
            }
            Behaviour::NodeLimits => "`limits.nodes` caps a NodePool's node count",
            Behaviour::BalancedPolicy => "`consolidationPolicy: Balanced`",
            Behaviour::ConsolidationDestinations => {
                "consolidation moves no pods onto nodes inside `consolidateAfter`"
            }
            Behaviour::PricePerDisruptionOrder => {
                "consolidation tries the most dollars saved per unit of disruption first"
            }
            Behaviour::RepairAsDisruption => {
                "node repair is budgeted (reason `Repair`) and runs before drift"
            }
            Behaviour::StaticDriftTerminateFirst => {
                "a static NodePool at its node limit drifts by deleting before replacing"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_read_as_users_write_them() {
        assert_eq!(Version::parse("v1.14"), Ok(Version(14)));
        assert_eq!(Version::parse("1.9"), Ok(Version(9)));
        assert_eq!(Version::parse("v1.14.1"), Ok(Version(14)));
        assert_eq!(Version::parse("v1.10"), Ok(Version(10)));
        assert_eq!(Version::parse("v1.16"), Err(VersionError::Unmodelled));
        assert_eq!(Version::parse("v0.37"), Err(VersionError::NotV1));
        assert_eq!(Version::parse("latest"), Err(VersionError::Malformed));
        assert_eq!(Version::parse("v1"), Err(VersionError::Malformed));
        assert_eq!(Version::parse("v1.x"), Err(VersionError::Malformed));
        assert_eq!(Version::LATEST.to_string(), "v1.15");
    }

    #[test]
    fn gates_take_the_versions_default_unless_named() {
        let lts = Karpenter::at(Version::LTS);
        assert!(lts.gate(Gate::ReservedCapacity));
        assert!(!lts.gate(Gate::SpotToSpotConsolidation));
        assert!(!Karpenter::at(Version(5)).gate(Gate::ReservedCapacity));
        let mut k = Karpenter::at(Version(5));
        k.gates.insert(Gate::ReservedCapacity, true);
        assert!(k.gate(Gate::ReservedCapacity));
        // v1.2 has no ReservedCapacity gate: naming it changes nothing.
        k.version = Version(2);
        assert!(!k.gate(Gate::ReservedCapacity));
    }
}

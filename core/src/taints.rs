//! Taints and tolerations, as kube-scheduler's TaintToleration plugin and Karpenter's
//! `scheduling.Taints.ToleratesPod` apply them.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaintEffect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute,
}

impl TaintEffect {
    pub fn as_str(self) -> &'static str {
        match self {
            TaintEffect::NoSchedule => "NoSchedule",
            TaintEffect::PreferNoSchedule => "PreferNoSchedule",
            TaintEffect::NoExecute => "NoExecute",
        }
    }

    pub fn parse(s: &str) -> Option<TaintEffect> {
        match s {
            "NoSchedule" => Some(TaintEffect::NoSchedule),
            "PreferNoSchedule" => Some(TaintEffect::PreferNoSchedule),
            "NoExecute" => Some(TaintEffect::NoExecute),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Taint {
    pub key: String,
    pub value: String,
    pub effect: TaintEffect,
}

impl Taint {
    pub fn new(key: &str, value: &str, effect: TaintEffect) -> Taint {
        Taint {
            key: key.into(),
            value: value.into(),
            effect,
        }
    }
}

impl fmt::Display for Taint {
    /// `key=value:Effect`, or `key:Effect` without a value, as kubectl prints taints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}:{}", self.key, self.effect.as_str())
        } else {
            write!(f, "{}={}:{}", self.key, self.value, self.effect.as_str())
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TolerationOperator {
    Equal,
    Exists,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toleration {
    /// Empty with `Exists` tolerates every taint.
    pub key: String,
    pub operator: TolerationOperator,
    pub value: String,
    /// `None` matches every effect.
    pub effect: Option<TaintEffect>,
}

impl Toleration {
    /// `v1.Toleration.ToleratesTaint`.
    pub fn tolerates(&self, taint: &Taint) -> bool {
        if let Some(effect) = self.effect
            && effect != taint.effect
        {
            return false;
        }
        if !self.key.is_empty() && self.key != taint.key {
            return false;
        }
        match self.operator {
            // An empty key with Exists matches all keys and values.
            TolerationOperator::Exists => true,
            TolerationOperator::Equal => self.value == taint.value,
        }
    }

    /// A toleration for every `PreferNoSchedule` taint, which Karpenter adds when relaxing.
    pub fn all_prefer_no_schedule() -> Toleration {
        Toleration {
            key: String::new(),
            operator: TolerationOperator::Exists,
            value: String::new(),
            effect: Some(TaintEffect::PreferNoSchedule),
        }
    }
}

/// True when some toleration tolerates the taint.
pub fn tolerated(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations.iter().any(|t| t.tolerates(taint))
}

/// The first taint (of the given effects) that no toleration tolerates.
pub fn first_untolerated<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
    effects: &[TaintEffect],
) -> Option<&'a Taint> {
    taints
        .iter()
        .filter(|t| effects.contains(&t.effect))
        .find(|t| !tolerated(tolerations, t))
}

/// Karpenter's check: every taint, PreferNoSchedule included, must be tolerated.
pub fn karpenter_tolerates(taints: &[Taint], tolerations: &[Toleration]) -> Result<(), Taint> {
    match karpenter_untolerated(taints, tolerations) {
        Some(t) => Err(t.clone()),
        None => Ok(()),
    }
}

/// The taint [`karpenter_tolerates`] refuses, without copying it.
pub fn karpenter_untolerated<'a>(
    taints: &'a [Taint],
    tolerations: &[Toleration],
) -> Option<&'a Taint> {
    first_untolerated(
        taints,
        tolerations,
        &[
            TaintEffect::NoSchedule,
            TaintEffect::PreferNoSchedule,
            TaintEffect::NoExecute,
        ],
    )
}

/// kube-scheduler's filter: NoSchedule and NoExecute taints must be tolerated;
/// PreferNoSchedule only lowers a node's score.
pub fn scheduler_tolerates(taints: &[Taint], tolerations: &[Toleration]) -> Result<(), Taint> {
    match first_untolerated(
        taints,
        tolerations,
        &[TaintEffect::NoSchedule, TaintEffect::NoExecute],
    ) {
        Some(t) => Err(t.clone()),
        None => Ok(()),
    }
}

/// Taints with the given key removed (used when startup taints are lifted).
pub fn without<'a>(taints: &'a [Taint], remove: &'a [Taint]) -> impl Iterator<Item = &'a Taint> {
    taints.iter().filter(move |t| {
        !remove
            .iter()
            .any(|r| r.key == t.key && r.effect == t.effect)
    })
}

/// Renders a list the way kube-scheduler names untolerated taints: `{key: value}`.
pub fn scheduler_taint_phrase(taint: &Taint) -> String {
    alloc::format!("{{{}: {}}}", taint.key, taint.value)
}

pub fn collect_effects(taints: &[Taint]) -> Vec<TaintEffect> {
    let mut v: Vec<_> = taints.iter().map(|t| t.effect).collect();
    v.sort();
    v.dedup();
    v
}

/// The tolerations the DaemonSet controller adds to every pod it creates
/// (`AddOrUpdateDaemonPodTolerations`, kubernetes `pkg/controller/daemon/util`): DaemonSet
/// pods survive a node going not-ready or unreachable, and run despite the node-condition
/// taints and cordoning; host-network pods also despite `network-unavailable`.
pub fn daemon_pod_tolerations(host_network: bool) -> Vec<Toleration> {
    let exists = |key: &str, effect: TaintEffect| Toleration {
        key: key.into(),
        operator: TolerationOperator::Exists,
        value: String::new(),
        effect: Some(effect),
    };
    let mut out = alloc::vec![
        exists("node.kubernetes.io/not-ready", TaintEffect::NoExecute),
        exists("node.kubernetes.io/unreachable", TaintEffect::NoExecute),
        exists("node.kubernetes.io/disk-pressure", TaintEffect::NoSchedule),
        exists(
            "node.kubernetes.io/memory-pressure",
            TaintEffect::NoSchedule
        ),
        exists("node.kubernetes.io/pid-pressure", TaintEffect::NoSchedule),
        exists("node.kubernetes.io/unschedulable", TaintEffect::NoSchedule),
    ];
    if host_network {
        out.push(exists(
            "node.kubernetes.io/network-unavailable",
            TaintEffect::NoSchedule,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(
        key: &str,
        op: TolerationOperator,
        value: &str,
        effect: Option<TaintEffect>,
    ) -> Toleration {
        Toleration {
            key: key.into(),
            operator: op,
            value: value.into(),
            effect,
        }
    }

    #[test]
    fn toleration_matching_follows_kubernetes() {
        let taint = Taint::new("node", "service", TaintEffect::NoSchedule);
        use TolerationOperator::*;
        assert!(tol("node", Equal, "service", Some(TaintEffect::NoSchedule)).tolerates(&taint));
        assert!(tol("node", Equal, "service", None).tolerates(&taint));
        assert!(tol("node", Exists, "", None).tolerates(&taint));
        assert!(
            tol("", Exists, "", None).tolerates(&taint),
            "empty key + Exists tolerates all"
        );
        assert!(
            !tol("node", Equal, "", None).tolerates(&taint),
            "Equal without value"
        );
        assert!(!tol("other", Exists, "", None).tolerates(&taint));
        assert!(!tol("node", Equal, "service", Some(TaintEffect::NoExecute)).tolerates(&taint));
    }

    #[test]
    fn karpenter_requires_prefer_no_schedule_tolerated_but_scheduler_does_not() {
        let taints = [Taint::new("soft", "", TaintEffect::PreferNoSchedule)];
        assert!(karpenter_tolerates(&taints, &[]).is_err());
        assert!(scheduler_tolerates(&taints, &[]).is_ok());
        assert!(karpenter_tolerates(&taints, &[Toleration::all_prefer_no_schedule()]).is_ok());
    }

    #[test]
    fn display_matches_kubectl() {
        assert_eq!(
            alloc::format!("{}", Taint::new("node", "service", TaintEffect::NoSchedule)),
            "node=service:NoSchedule"
        );
        assert_eq!(
            alloc::format!("{}", Taint::new("gpu", "", TaintEffect::NoExecute)),
            "gpu:NoExecute"
        );
    }
}

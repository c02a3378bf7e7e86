//! Pod priority: `scheduling.k8s.io/v1` PriorityClasses and the Priority admission plugin
//! that gives a pod its `spec.priority` and `spec.preemptionPolicy` when it is created
//! (`plugin/pkg/admission/priority/admission.go` in kubernetes/kubernetes).
//!
//! The classes a cluster has are its own ones and the two system classes the API server
//! creates itself. A pod that names a class gets its value and preemption policy; a pod that
//! names none gets the global default class's, or 0 and `PreemptLowerPriority` when no class is
//! the default. A pod that names an unknown class, or writes a priority (or policy) other than
//! the one its class gives, is refused.

use alloc::collections::BTreeMap;
use alloc::string::String;
use core::fmt;

/// The highest value a user's PriorityClass may have (`HighestUserDefinablePriority`).
pub const HIGHEST_USER_DEFINABLE: i32 = 1_000_000_000;

/// Names with this prefix are reserved for the system classes.
pub const SYSTEM_PREFIX: &str = "system-";

/// The classes the API server creates itself (`SystemPriorityClasses`).
pub const SYSTEM_CLASSES: [(&str, i32); 2] = [
    ("system-cluster-critical", 2_000_000_000),
    ("system-node-critical", 2_000_001_000),
];

/// `preemptionPolicy` of a PriorityClass and of a pod.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum PreemptionPolicy {
    /// The API default: the pod may preempt pods of lower priority.
    #[default]
    PreemptLowerPriority,
    /// The pod waits in the queue and never preempts.
    Never,
}

impl PreemptionPolicy {
    pub fn as_str(self) -> &'static str {
        match self {
            PreemptionPolicy::PreemptLowerPriority => "PreemptLowerPriority",
            PreemptionPolicy::Never => "Never",
        }
    }
}

/// A `scheduling.k8s.io/v1` PriorityClass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriorityClass {
    pub name: String,
    pub value: i32,
    pub global_default: bool,
    pub preemption_policy: PreemptionPolicy,
}

/// The system class of that name, if it is one (`IsKnownSystemPriorityClass` checks the
/// value too; the reader does that).
pub fn system_class(name: &str) -> Option<PriorityClass> {
    SYSTEM_CLASSES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(n, value)| PriorityClass {
            name: n.into(),
            value,
            global_default: false,
            preemption_policy: PreemptionPolicy::PreemptLowerPriority,
        })
}

/// What the Priority admission plugin gives a pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Admitted {
    pub priority: i32,
    pub preemption_policy: PreemptionPolicy,
}

/// Why the Priority admission plugin refuses a pod (`Forbidden`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    UnknownClass(String),
    Priority {
        written: i32,
        computed: i32,
    },
    Policy {
        written: PreemptionPolicy,
        computed: PreemptionPolicy,
    },
}

/// The API server's words.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownClass(name) => write!(f, "no PriorityClass with name {name} was found"),
            Refusal::Priority { written, computed } => write!(
                f,
                "the integer value of priority ({written}) must not be provided in pod spec; \
                 priority admission controller computed {computed} from the given \
                 PriorityClass name"
            ),
            Refusal::Policy { written, computed } => write!(
                f,
                "the string value of PreemptionPolicy ({}) must not be provided in pod spec; \
                 priority admission controller computed {} from the given PriorityClass name",
                written.as_str(),
                computed.as_str()
            ),
        }
    }
}

/// The PriorityClasses a cluster has at one instant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PriorityClasses {
    classes: BTreeMap<String, PriorityClass>,
}

impl PriorityClasses {
    /// The system classes and `classes`.
    pub fn new<'a>(classes: impl IntoIterator<Item = &'a PriorityClass>) -> PriorityClasses {
        let mut all = PriorityClasses::default();
        for (name, _) in SYSTEM_CLASSES {
            if let Some(c) = system_class(name) {
                all.apply(c);
            }
        }
        for c in classes {
            all.apply(c.clone());
        }
        all
    }

    /// Creates or replaces a class (its value and policy are immutable: the reader refuses a
    /// change; `globalDefault` may change).
    pub fn apply(&mut self, class: PriorityClass) {
        self.classes.insert(class.name.clone(), class);
    }

    pub fn get(&self, name: &str) -> Option<&PriorityClass> {
        self.classes.get(name)
    }

    /// The global default class: the one with the lowest value when (after a race) several
    /// are (`getDefaultPriorityClass`).
    pub fn global_default(&self) -> Option<&PriorityClass> {
        self.classes
            .values()
            .filter(|c| c.global_default)
            .min_by_key(|c| c.value)
    }

    /// The Priority admission plugin on a pod's creation (`admitPod`): the class named, or
    /// the global default, or 0 and `PreemptLowerPriority`; a written priority or policy must
    /// agree with what it computes.
    pub fn admit(
        &self,
        class_name: Option<&str>,
        written_priority: Option<i32>,
        written_policy: Option<PreemptionPolicy>,
    ) -> Result<Admitted, Refusal> {
        let computed = match class_name {
            Some(name) => {
                let class = self
                    .get(name)
                    .ok_or_else(|| Refusal::UnknownClass(name.into()))?;
                Admitted {
                    priority: class.value,
                    preemption_policy: class.preemption_policy,
                }
            }
            None => match self.global_default() {
                Some(class) => Admitted {
                    priority: class.value,
                    preemption_policy: class.preemption_policy,
                },
                None => Admitted {
                    priority: 0,
                    preemption_policy: PreemptionPolicy::PreemptLowerPriority,
                },
            },
        };
        if let Some(written) = written_priority
            && written != computed.priority
        {
            return Err(Refusal::Priority {
                written,
                computed: computed.priority,
            });
        }
        if let Some(written) = written_policy
            && written != computed.preemption_policy
        {
            return Err(Refusal::Policy {
                written,
                computed: computed.preemption_policy,
            });
        }
        Ok(computed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn class(name: &str, value: i32, default: bool) -> PriorityClass {
        PriorityClass {
            name: name.into(),
            value,
            global_default: default,
            preemption_policy: PreemptionPolicy::PreemptLowerPriority,
        }
    }

    #[test]
    fn admission_resolves_names_defaults_and_refuses() {
        let none = PriorityClasses::new(&[]);
        assert_eq!(none.admit(None, None, None).unwrap().priority, 0);
        assert_eq!(
            none.admit(Some("system-node-critical"), None, None)
                .unwrap()
                .priority,
            2_000_001_000
        );
        assert_eq!(
            none.admit(Some("high"), None, None),
            Err(Refusal::UnknownClass("high".into()))
        );
        let classes = vec![class("high", 1000, false), class("low", -5, true)];
        let some = PriorityClasses::new(&classes);
        assert_eq!(some.admit(None, None, None).unwrap().priority, -5);
        assert_eq!(some.admit(Some("high"), None, None).unwrap().priority, 1000);
        assert!(some.admit(Some("high"), Some(1000), None).is_ok());
        assert_eq!(
            some.admit(Some("high"), Some(7), None),
            Err(Refusal::Priority {
                written: 7,
                computed: 1000
            })
        );
        assert!(matches!(
            some.admit(Some("high"), None, Some(PreemptionPolicy::Never)),
            Err(Refusal::Policy { .. })
        ));
    }

    #[test]
    fn the_lowest_default_wins_a_race() {
        let classes = vec![class("a", 10, true), class("b", 3, true)];
        assert_eq!(
            PriorityClasses::new(&classes)
                .global_default()
                .unwrap()
                .name,
            "b"
        );
    }
}

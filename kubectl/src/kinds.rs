//! The resource types the playground's API server knows: their kubectl names (plural,
//! singular, short names, `plural.group`), group and scope, as the API server's discovery
//! (and the Karpenter CRDs' `names`) define them.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Node,
    Pod,
    NodeClaim,
    NodePool,
    EC2NodeClass,
    Deployment,
    StatefulSet,
    DaemonSet,
    ReplicaSet,
    Job,
    Namespace,
    PodDisruptionBudget,
    /// A type a real cluster has but the playground does not simulate: always empty.
    Unsimulated(&'static Unsimulated),
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unsimulated {
    pub plural: &'static str,
    pub names: &'static [&'static str],
    pub namespaced: bool,
}

const UNSIMULATED: &[Unsimulated] = &[
    Unsimulated {
        plural: "services",
        names: &["service", "svc"],
        namespaced: true,
    },
    Unsimulated {
        plural: "ingresses",
        names: &["ingress", "ing", "ingresses.networking.k8s.io"],
        namespaced: true,
    },
    Unsimulated {
        plural: "persistentvolumeclaims",
        names: &["persistentvolumeclaim", "pvc"],
        namespaced: true,
    },
    Unsimulated {
        plural: "persistentvolumes",
        names: &["persistentvolume", "pv"],
        namespaced: false,
    },
    Unsimulated {
        plural: "configmaps",
        names: &["configmap", "cm"],
        namespaced: true,
    },
    Unsimulated {
        plural: "secrets",
        names: &["secret"],
        namespaced: true,
    },
    Unsimulated {
        plural: "serviceaccounts",
        names: &["serviceaccount", "sa"],
        namespaced: true,
    },
    Unsimulated {
        plural: "storageclasses",
        names: &["storageclass", "sc"],
        namespaced: false,
    },
    Unsimulated {
        plural: "cronjobs",
        names: &["cronjob", "cj"],
        namespaced: true,
    },
    Unsimulated {
        plural: "horizontalpodautoscalers",
        names: &["horizontalpodautoscaler", "hpa"],
        namespaced: true,
    },
    Unsimulated {
        plural: "endpoints",
        names: &["endpoint", "ep"],
        namespaced: true,
    },
    Unsimulated {
        plural: "nodeoverlays",
        names: &["nodeoverlay", "nodeoverlays.karpenter.sh"],
        namespaced: false,
    },
];

/// The simulated kinds, in the order `kubectl api-resources` would list them by name.
pub const SIMULATED: [Kind; 12] = [
    Kind::DaemonSet,
    Kind::Deployment,
    Kind::EC2NodeClass,
    Kind::Job,
    Kind::Namespace,
    Kind::NodeClaim,
    Kind::NodePool,
    Kind::Node,
    Kind::PodDisruptionBudget,
    Kind::Pod,
    Kind::ReplicaSet,
    Kind::StatefulSet,
];

impl Kind {
    /// The type a command-line word names (`nodes`, `no`, `nodepool.karpenter.sh`, `deploy`).
    pub fn parse(word: &str) -> Option<Kind> {
        let w = word.to_ascii_lowercase();
        for k in SIMULATED {
            if k.names().contains(&w.as_str())
                || w == k.plural()
                || w == k.singular()
                || w == k.qualified_plural()
                || w == k.qualified_singular()
            {
                return Some(k);
            }
        }
        UNSIMULATED
            .iter()
            .find(|u| u.plural == w || u.names.contains(&w.as_str()))
            .map(Kind::Unsimulated)
    }

    /// Every word that names a simulated type, for completion.
    pub fn all_names() -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for k in SIMULATED {
            out.push(k.plural());
            out.push(k.singular());
            out.extend(k.names());
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    pub fn kind(self) -> &'static str {
        match self {
            Kind::Node => "Node",
            Kind::Pod => "Pod",
            Kind::NodeClaim => "NodeClaim",
            Kind::NodePool => "NodePool",
            Kind::EC2NodeClass => "EC2NodeClass",
            Kind::Deployment => "Deployment",
            Kind::StatefulSet => "StatefulSet",
            Kind::DaemonSet => "DaemonSet",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Job => "Job",
            Kind::Namespace => "Namespace",
            Kind::PodDisruptionBudget => "PodDisruptionBudget",
            Kind::Unsimulated(u) => u.plural,
        }
    }

    pub fn plural(self) -> &'static str {
        match self {
            Kind::Node => "nodes",
            Kind::Pod => "pods",
            Kind::NodeClaim => "nodeclaims",
            Kind::NodePool => "nodepools",
            Kind::EC2NodeClass => "ec2nodeclasses",
            Kind::Deployment => "deployments",
            Kind::StatefulSet => "statefulsets",
            Kind::DaemonSet => "daemonsets",
            Kind::ReplicaSet => "replicasets",
            Kind::Job => "jobs",
            Kind::Namespace => "namespaces",
            Kind::PodDisruptionBudget => "poddisruptionbudgets",
            Kind::Unsimulated(u) => u.plural,
        }
    }

    pub fn singular(self) -> &'static str {
        match self {
            Kind::Unsimulated(u) => u.names.first().copied().unwrap_or(u.plural),
            other => match other {
                Kind::Node => "node",
                Kind::Pod => "pod",
                Kind::NodeClaim => "nodeclaim",
                Kind::NodePool => "nodepool",
                Kind::EC2NodeClass => "ec2nodeclass",
                Kind::Deployment => "deployment",
                Kind::StatefulSet => "statefulset",
                Kind::DaemonSet => "daemonset",
                Kind::ReplicaSet => "replicaset",
                Kind::Job => "job",
                Kind::Namespace => "namespace",
                _ => "poddisruptionbudget",
            },
        }
    }

    /// Short names (kubectl's discovery `shortNames`).
    fn names(self) -> &'static [&'static str] {
        match self {
            Kind::Node => &["no"],
            Kind::Pod => &["po"],
            Kind::EC2NodeClass => &["ec2nc", "ec2ncs"],
            Kind::Deployment => &["deploy"],
            Kind::StatefulSet => &["sts"],
            Kind::DaemonSet => &["ds"],
            Kind::ReplicaSet => &["rs"],
            Kind::Namespace => &["ns"],
            Kind::PodDisruptionBudget => &["pdb"],
            _ => &[],
        }
    }

    pub fn group(self) -> &'static str {
        match self {
            Kind::NodeClaim | Kind::NodePool => "karpenter.sh",
            Kind::EC2NodeClass => "karpenter.k8s.aws",
            Kind::Deployment | Kind::StatefulSet | Kind::DaemonSet | Kind::ReplicaSet => "apps",
            Kind::Job => "batch",
            Kind::PodDisruptionBudget => "policy",
            _ => "",
        }
    }

    pub fn api_version(self) -> &'static str {
        match self.group() {
            "" => "v1",
            "karpenter.sh" => "karpenter.sh/v1",
            "karpenter.k8s.aws" => "karpenter.k8s.aws/v1",
            "apps" => "apps/v1",
            "batch" => "batch/v1",
            _ => "policy/v1",
        }
    }

    pub fn namespaced(self) -> bool {
        match self {
            Kind::Node
            | Kind::NodeClaim
            | Kind::NodePool
            | Kind::EC2NodeClass
            | Kind::Namespace => false,
            Kind::Unsimulated(u) => u.namespaced,
            _ => true,
        }
    }

    /// `nodepool.karpenter.sh`, `deployment.apps`, `node`: how `-o name` and the mutation
    /// confirmations name the type.
    pub fn qualified_singular(self) -> String {
        match self.group() {
            "" => self.singular().to_string(),
            g => format!("{}.{g}", self.singular()),
        }
    }

    /// `nodepools.karpenter.sh`, `deployments.apps`, `nodes`: how API errors name the type.
    pub fn qualified_plural(self) -> String {
        match self.group() {
            "" => self.plural().to_string(),
            g => format!("{}.{g}", self.plural()),
        }
    }

    /// The engine's name for a workload kind.
    pub fn workload(self) -> Option<kpg_core::model::WorkloadKind> {
        use kpg_core::model::WorkloadKind as W;
        match self {
            Kind::Pod => Some(W::Pod),
            Kind::Deployment => Some(W::Deployment),
            Kind::StatefulSet => Some(W::StatefulSet),
            Kind::DaemonSet => Some(W::DaemonSet),
            Kind::ReplicaSet => Some(W::ReplicaSet),
            Kind::Job => Some(W::Job),
            _ => None,
        }
    }

    pub fn from_workload(kind: kpg_core::model::WorkloadKind) -> Kind {
        use kpg_core::model::WorkloadKind as W;
        match kind {
            W::Pod => Kind::Pod,
            W::Deployment => Kind::Deployment,
            W::ReplicaSet => Kind::ReplicaSet,
            W::StatefulSet => Kind::StatefulSet,
            W::DaemonSet => Kind::DaemonSet,
            W::Job => Kind::Job,
        }
    }

    /// The kind a manifest's `kind:` names.
    pub fn from_kind(kind: &str) -> Option<Kind> {
        SIMULATED.into_iter().find(|k| k.kind() == kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(Kind::parse("no"), Some(Kind::Node));
        assert_eq!(Kind::parse("Nodes"), Some(Kind::Node));
        assert_eq!(Kind::parse("nodepools.karpenter.sh"), Some(Kind::NodePool));
        assert_eq!(Kind::parse("ec2nc"), Some(Kind::EC2NodeClass));
        assert_eq!(Kind::parse("deploy"), Some(Kind::Deployment));
        assert!(matches!(Kind::parse("pvc"), Some(Kind::Unsimulated(_))));
        assert_eq!(Kind::parse("foo"), None);
        assert_eq!(Kind::NodePool.qualified_plural(), "nodepools.karpenter.sh");
        assert_eq!(Kind::Deployment.qualified_singular(), "deployment.apps");
        assert_eq!(Kind::Pod.qualified_singular(), "pod");
    }
}

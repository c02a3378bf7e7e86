//! CapacityBuffers (`autoscaling.x-k8s.io/v1beta1`, Karpenter v1.14+ behind the
//! `CapacityBuffer` feature gate): spare capacity described as pods that do not exist. The
//! buffer names a pod template (a `v1 PodTemplate`, or the template of a Deployment,
//! StatefulSet or ReplicaSet) and how many copies of it to keep room for; Karpenter's
//! provisioner and its consolidation simulations schedule that many virtual pods beside the
//! real ones, so a node is launched (and kept) with room for them, and a real pod that
//! arrives later lands at once.
//!
//! This module holds the objects as the reader gives them and the arithmetic of the buffer
//! controller (`K@v1.14.1:pkg/controllers/capacitybuffer/controller.go`, `helpers.go`); the
//! controller itself is `sim::buffers`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{PodTemplate, WorkloadKind};
use crate::resources::{ResourceName, Resources};

/// The annotation every virtual pod carries (`FakePodAnnotationKey`,
/// `K@v1.14.1:pkg/apis/autoscaling/v1beta1/constants.go`).
pub const FAKE_POD_ANNOTATION: &str = "karpenter.sh/capacity-buffer-fake-pod";
/// The buffer a virtual pod belongs to (`BufferNameAnnotation`, `BufferNamespaceAnnotation`).
pub const BUFFER_NAME_ANNOTATION: &str = "karpenter.sh/capacity-buffer-name";
pub const BUFFER_NAMESPACE_ANNOTATION: &str = "karpenter.sh/capacity-buffer-namespace";
/// The only strategy there is, and the CRD's default for `spec.provisioningStrategy`.
pub const ACTIVE_CAPACITY: &str = "buffer.x-k8s.io/active-capacity";
/// How often Karpenter's buffer controller looks at each buffer again (`RequeueAfter`).
pub const RECHECK: crate::model::Millis = 30_000;

/// A `CapacityBuffer` as written, after the CRD's defaulting and validation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapacityBuffer {
    pub name: String,
    pub namespace: String,
    /// `spec.podTemplateRef.name`: a PodTemplate in the buffer's namespace.
    pub pod_template_ref: Option<String>,
    /// `spec.scalableRef`: a workload in the buffer's namespace.
    pub scalable_ref: Option<ScalableRef>,
    pub replicas: Option<u32>,
    pub percentage: Option<u32>,
    /// `spec.limits`: per resource, the most the buffer's pods may request together. `None`
    /// when the field is absent (an empty map is `Some` and limits nothing).
    pub limits: Option<Vec<(ResourceName, i64)>>,
    pub provisioning_strategy: String,
}

/// `spec.scalableRef`: `apiGroup` (empty means `apps`), `kind` and `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalableRef {
    pub api_group: String,
    pub kind: String,
    pub name: String,
}

impl ScalableRef {
    /// The workload kind the buffer controller can read (`ResolveScalableRef`): a
    /// Deployment, StatefulSet or ReplicaSet of `apps`; anything else fails to resolve.
    pub fn workload_kind(&self) -> Result<WorkloadKind, String> {
        let group = if self.api_group.is_empty() {
            "apps"
        } else {
            self.api_group.as_str()
        };
        if group != "apps" {
            return Err(alloc::format!(
                "unsupported scalableRef API group \"{}\"",
                self.api_group
            ));
        }
        match self.kind.as_str() {
            "Deployment" => Ok(WorkloadKind::Deployment),
            "StatefulSet" => Ok(WorkloadKind::StatefulSet),
            "ReplicaSet" => Ok(WorkloadKind::ReplicaSet),
            other => Err(alloc::format!("unsupported kind \"{other}\"")),
        }
    }
}

/// A `v1 PodTemplate`: a named pod template in a namespace, which a buffer's
/// `podTemplateRef` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedPodTemplate {
    pub name: String,
    pub namespace: String,
    pub template: PodTemplate,
}

/// How many virtual pods a buffer keeps room for (`computeReplicas`): the largest of
/// `spec.replicas` and the percentage of the scalable workload's replicas (only when it has
/// some), then no more than `spec.limits` allow; with neither a count nor a percentage, as
/// many as the limits allow; with nothing, none.
pub fn desired_replicas(
    buffer: &CapacityBuffer,
    requests: &Resources,
    scalable_replicas: Option<u32>,
) -> u32 {
    let mut candidates: Vec<u32> = Vec::new();
    if let (Some(pct), Some(n)) = (buffer.percentage, scalable_replicas)
        && n > 0
    {
        candidates.push(percentage_replicas(n, pct));
    }
    if let Some(r) = buffer.replicas {
        candidates.push(r);
    }
    let desired = candidates.iter().copied().max();
    let limited = buffer
        .limits
        .as_deref()
        .and_then(|limits| limit_replicas(limits, requests));
    match (desired, limited) {
        (Some(d), Some(l)) => d.min(l),
        (None, Some(l)) => l,
        (Some(d), None) => d,
        (None, None) => 0,
    }
}

/// `calculatePercentageReplicas`: `ceil(replicas × percentage / 100)`, at least 1 when both
/// are positive.
pub fn percentage_replicas(scalable_replicas: u32, percentage: u32) -> u32 {
    let n = u64::from(scalable_replicas) * u64::from(percentage);
    let ceil = n.div_ceil(100).min(u64::from(i32::MAX as u32)) as u32;
    if ceil < 1 && percentage > 0 && scalable_replicas > 0 {
        1
    } else {
        ceil
    }
}

/// `calculateLimitReplicas`: over the resources both the limits and the pod's requests name
/// (a zero request does not count), the fewest whole pods a limit holds; `None` when no
/// resource is in both. `pods` is not a request (`RequestsForSpec` has none).
pub fn limit_replicas(limits: &[(ResourceName, i64)], requests: &Resources) -> Option<u32> {
    limits
        .iter()
        .filter(|(r, _)| *r != ResourceName::Pods && *r != ResourceName::Other)
        .filter_map(|&(r, limit)| {
            let request = requests.get(r);
            (request > 0).then(|| (limit.max(0) / request).min(i64::from(i32::MAX)) as u32)
        })
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer() -> CapacityBuffer {
        CapacityBuffer {
            name: "warm".into(),
            namespace: "default".into(),
            pod_template_ref: Some("t".into()),
            scalable_ref: None,
            replicas: None,
            percentage: None,
            limits: None,
            provisioning_strategy: ACTIVE_CAPACITY.into(),
        }
    }

    fn cpu(milli: i64) -> Resources {
        let mut r = Resources::ZERO;
        r.set(ResourceName::Cpu, milli);
        r.set(ResourceName::Pods, 1);
        r
    }

    #[test]
    fn percentage_rounds_up_with_a_floor_of_one() {
        assert_eq!(percentage_replicas(10, 20), 2);
        assert_eq!(percentage_replicas(10, 25), 3);
        assert_eq!(percentage_replicas(3, 1), 1);
        assert_eq!(percentage_replicas(0, 50), 0);
        assert_eq!(percentage_replicas(5, 0), 0);
    }

    #[test]
    fn replicas_are_the_larger_of_count_and_percentage_then_capped_by_limits() {
        let mut b = buffer();
        b.replicas = Some(2);
        b.percentage = Some(50);
        assert_eq!(desired_replicas(&b, &cpu(1000), Some(10)), 5);
        assert_eq!(desired_replicas(&b, &cpu(1000), Some(2)), 2);
        // The percentage counts only when the workload has replicas.
        assert_eq!(desired_replicas(&b, &cpu(1000), Some(0)), 2);
        b.limits = Some(alloc::vec![(ResourceName::Cpu, 3500)]);
        assert_eq!(desired_replicas(&b, &cpu(1000), Some(10)), 3);
        // Limits alone: as many as fit.
        b.replicas = None;
        b.percentage = None;
        assert_eq!(desired_replicas(&b, &cpu(500), None), 7);
        // A limit on a resource the pod does not request limits nothing.
        b.limits = Some(alloc::vec![(ResourceName::NvidiaGpu, 4)]);
        b.replicas = Some(4);
        assert_eq!(desired_replicas(&b, &cpu(500), None), 4);
        b.replicas = None;
        assert_eq!(desired_replicas(&b, &cpu(500), None), 0);
    }
}

//! Every finding's code: one stable kebab-case name per rule, with where in a real cluster the
//! rule lives and what it means, in English and Korean.
//!
//! A code is a [`Code`] value, never a bare string, so a finding cannot be reported under a code
//! this table does not explain. `kpg codes` prints the table; `kpg codes CODE` explains one.
//! Codes are part of the reader's contract (tests, CI filters and documentation links use them):
//! rename one only with a changelog line.

use std::fmt;

/// Who would refuse (or quietly mishandle) the manifest in a real cluster.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Origin {
    /// The text is not YAML a Kubernetes client would send.
    Yaml,
    /// The API server rejects the object at `kubectl apply`: OpenAPI schema, CEL rules of
    /// Karpenter's CRDs, or core Kubernetes object validation.
    ApiServer,
    /// The API server accepts it; Karpenter then ignores it, fails the NodePool's
    /// `ValidationSucceeded`, or behaves differently from what the manifest suggests.
    Karpenter,
    /// A v1beta1 manifest: read with its v1 meaning, and `kpg migrate` rewrites it.
    V1beta1,
    /// The playground's own kinds (Cluster, InstanceType, Timeline) and limits, or a field the
    /// simulation does not model.
    Playground,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Yaml => "yaml",
            Origin::ApiServer => "api-server",
            Origin::Karpenter => "karpenter",
            Origin::V1beta1 => "v1beta1",
            Origin::Playground => "playground",
        }
    }

    /// A short tag for the origin, in English and Korean (the page shows it beside a finding).
    pub fn label(self) -> (&'static str, &'static str) {
        match self {
            Origin::Yaml => ("YAML", "YAML"),
            Origin::ApiServer => ("API server", "API 서버"),
            Origin::Karpenter => ("Karpenter", "Karpenter"),
            Origin::V1beta1 => ("v1beta1", "v1beta1"),
            Origin::Playground => ("playground", "플레이그라운드"),
        }
    }

    /// One line saying what the origin means for a user, in English and Korean.
    pub fn meaning(self) -> (&'static str, &'static str) {
        match self {
            Origin::Yaml => ("not valid YAML", "올바른 YAML이 아닙니다"),
            Origin::ApiServer => (
                "the API server rejects this at kubectl apply",
                "kubectl apply 때 API 서버가 거부합니다",
            ),
            Origin::Karpenter => (
                "the API server accepts this; Karpenter ignores or refuses it at run time",
                "API 서버는 받아들이지만 Karpenter가 실행 중에 무시하거나 거부합니다",
            ),
            Origin::V1beta1 => (
                "a v1beta1 difference: read as v1, and kpg migrate rewrites it",
                "v1beta1과의 차이: v1으로 읽으며 kpg migrate가 고쳐 씁니다",
            ),
            Origin::Playground => (
                "the playground's own kinds and limits",
                "플레이그라운드 고유의 종류와 한도",
            ),
        }
    }
}

/// What the table knows about one code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeInfo {
    pub code: Code,
    pub origin: Origin,
    /// What the rule says, in a sentence.
    pub summary: &'static str,
    pub summary_ko: &'static str,
}

macro_rules! codes {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $name:literal, $origin:ident, $en:literal, $ko:literal;
    )*) => {
        /// A finding's stable code (see the module documentation).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        /// Every code, in the order the table lists them.
        pub const ALL: &[CodeInfo] = &[
            $(
                CodeInfo {
                    code: Code::$variant,
                    origin: Origin::$origin,
                    summary: $en,
                    summary_ko: $ko,
                },
            )*
        ];

        impl Code {
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Code::$variant => $name, )*
                }
            }
        }
    };
}

codes! {
    // The text and the document as a whole.
    YamlSyntax = "yaml-syntax", Yaml,
        "The document is not valid YAML.",
        "문서가 올바른 YAML이 아닙니다.";
    DuplicateField = "duplicate-field", Yaml,
        "A key appears twice in one mapping; Kubernetes would keep only one of them.",
        "한 매핑에 같은 키가 두 번 나옵니다. Kubernetes는 그중 하나만 남깁니다.";
    UnknownKind = "unknown-kind", Playground,
        "A kind the playground does not simulate; the document is skipped.",
        "플레이그라운드가 시뮬레이션하지 않는 종류라 문서를 건너뜁니다.";
    Snapshot = "snapshot", Playground,
        "What a snapshot of a live cluster held and how it is read: its nodes, its NodeClaims, \
         the pods that stay on their nodes, and the kinds and pods left out.",
        "라이브 클러스터 스냅샷에 무엇이 있었고 어떻게 읽었는지: 노드, NodeClaim, 노드에 그대로 \
         남는 파드, 그리고 빼놓은 종류와 파드.";
    UnexpectedApiVersion = "unexpected-api-version", ApiServer,
        "The API server has no such kind in this apiVersion (`no matches for kind`); it \
         refuses the object, so the document is not read.",
        "API 서버의 이 apiVersion에는 그 종류가 없습니다(`no matches for kind`). API 서버가 \
         오브젝트를 거부하므로 문서를 읽지 않습니다.";
    TooLarge = "too-large", Playground,
        "The input or a count in it is larger than the playground simulates.",
        "입력이나 그 안의 개수가 플레이그라운드가 시뮬레이션하는 것보다 큽니다.";
    DuplicateObject = "duplicate-object", ApiServer,
        "Two objects of the same kind share a name (and namespace).",
        "같은 종류의 오브젝트 둘이 이름(과 네임스페이스)이 같습니다.";
    UnknownReference = "unknown-reference", Karpenter,
        "A reference to an object (or zone, or instance type) that is not defined.",
        "정의되지 않은 오브젝트(또는 가용 영역, 인스턴스 유형)를 가리킵니다.";

    // Field shapes every document goes through.
    UnknownField = "unknown-field", ApiServer,
        "A field the kind does not have; the API server drops it (or \
         rejects it with strict validation).",
        "그 종류에 없는 필드입니다. API 서버가 버립니다(엄격한 검증에서는 거부합니다).";
    UnsupportedField = "unsupported-field", Playground,
        "A real field that the simulation does not model; it is ignored.",
        "실제로 있는 필드지만 시뮬레이션이 다루지 않아 무시합니다.";
    MissingField = "missing-field", ApiServer,
        "A required field is missing.",
        "필수 필드가 없습니다.";
    InvalidType = "invalid-type", ApiServer,
        "A value of the wrong type (a number where a string goes, a map where a list goes).",
        "값의 자료형이 틀렸습니다(문자열 자리에 숫자, 목록 자리에 매핑 등).";
    EmptyValue = "empty-value", ApiServer,
        "A field that must not be empty is empty.",
        "비어 있으면 안 되는 필드가 비어 있습니다.";
    OutOfRange = "out-of-range", ApiServer,
        "A number outside the range the schema allows.",
        "스키마가 허용하는 범위를 벗어난 숫자입니다.";
    InvalidChoice = "invalid-choice", ApiServer,
        "A value that is not one of the field's allowed spellings (an enum).",
        "필드가 허용하는 값(열거형) 중 하나가 아닙니다.";
    TooManyItems = "too-many-items", ApiServer,
        "A list or map longer than the schema's maxItems or maxProperties.",
        "목록이나 매핑이 스키마의 maxItems 또는 maxProperties보다 깁니다.";
    DuplicateItem = "duplicate-item", ApiServer,
        "A list the API treats as a set repeats an item.",
        "집합으로 다루는 목록에 같은 항목이 두 번 나옵니다.";
    TooLong = "too-long", ApiServer,
        "A string longer than the schema's maxLength.",
        "문자열이 스키마의 maxLength보다 깁니다.";
    InvalidQuantity = "invalid-quantity", ApiServer,
        "Not a Kubernetes quantity (such as 500m, 2 or 4Gi), or negative where it may not be.",
        "Kubernetes 수량(500m, 2, 4Gi 등)이 아니거나, 음수일 수 없는 곳에 음수입니다.";
    InvalidDuration = "invalid-duration", ApiServer,
        "Not a Go duration (such as 30s, 5m or 720h).",
        "Go 기간(30s, 5m, 720h 등)이 아닙니다.";
    InvalidIntOrPercent = "invalid-int-or-percent", ApiServer,
        "Neither a count nor a percentage between 0% and 100%.",
        "개수도 0%에서 100% 사이의 백분율도 아닙니다.";
    InvalidResourceName = "invalid-resource-name", ApiServer,
        "Not a resource name (cpu, memory, pods, or a qualified name such as nvidia.com/gpu).",
        "리소스 이름(cpu, memory, pods 또는 nvidia.com/gpu 같은 정규화된 이름)이 아닙니다.";

    // Object metadata.
    InvalidName = "invalid-name", ApiServer,
        "An object name that is not a DNS-1123 subdomain (or label, for the kinds that need one).",
        "오브젝트 이름이 DNS-1123 서브도메인(종류에 따라 레이블)이 아닙니다.";
    InvalidNamespace = "invalid-namespace", ApiServer,
        "A namespace name that is not a DNS-1123 label.",
        "네임스페이스 이름이 DNS-1123 레이블이 아닙니다.";
    InvalidLabel = "invalid-label", ApiServer,
        "A label key that is not a qualified name, or a value that is not a label value.",
        "레이블 키가 정규화된 이름이 아니거나 값이 레이블 값 형식이 아닙니다.";
    InvalidAnnotationKey = "invalid-annotation-key", ApiServer,
        "An annotation key that is not a qualified name.",
        "어노테이션 키가 정규화된 이름이 아닙니다.";

    // Requirements and node selector terms (NodePools and pods).
    MissingValues = "missing-values", ApiServer,
        "An In or NotIn requirement without values.",
        "값이 없는 In 또는 NotIn 요구 사항입니다.";
    UnexpectedValues = "unexpected-values", ApiServer,
        "An Exists or DoesNotExist requirement with values.",
        "값이 있는 Exists 또는 DoesNotExist 요구 사항입니다.";
    InvalidBound = "invalid-bound", ApiServer,
        "A Gt, Lt, Gte or Lte requirement without exactly one integer value.",
        "Gt, Lt, Gte, Lte 요구 사항에 정수 값이 정확히 하나가 아닙니다.";
    MinValuesExceedsValues = "min-values-exceeds-values", ApiServer,
        "A requirement's minValues is larger than the number of values it lists.",
        "요구 사항의 minValues가 나열된 값의 개수보다 큽니다.";
    RestrictedLabel = "restricted-label", ApiServer,
        "A label or requirement key Karpenter reserves for itself (karpenter.sh, \
         karpenter.k8s.aws, kubernetes.io/hostname).",
        "Karpenter가 스스로 쓰려고 막아 둔 레이블이나 요구 사항 키입니다(karpenter.sh, \
         karpenter.k8s.aws, kubernetes.io/hostname).";
    RestrictedBeforeV1_9 = "restricted-before-v1-9", Karpenter,
        "A key in the kubernetes.io or k8s.io domain: Karpenter v1.0 to v1.8 \
         rejects it, v1.9 and later accept it.",
        "kubernetes.io 또는 k8s.io 도메인의 키입니다. Karpenter v1.0~v1.8은 \
         거부하고 v1.9부터 받아들입니다.";
    IgnoredWellKnownValue = "ignored-well-known-value", Karpenter,
        "A value Karpenter does not know for a well-known label (such as capacity type \
         `cheap`); Karpenter ignores it.",
        "Karpenter가 모르는 잘 알려진 레이블 값입니다(예: capacity type \
         `cheap`). Karpenter가 무시합니다.";
    NodePoolNotReady = "nodepool-not-ready", Karpenter,
        "The NodePool fails Karpenter's runtime validation: it is never \
         Ready and provisioning skips it.",
        "NodePool이 Karpenter의 실행 중 검증을 통과하지 못합니다. Ready가 되지 않으며 \
         프로비저닝에서 빠집니다.";
    EmptyNodeSelectorTerms = "empty-node-selector-terms", ApiServer,
        "A required node affinity with no node selector terms.",
        "노드 선택 조건이 없는 필수 node affinity입니다.";

    // NodePool.
    InvalidNodePoolDuration = "invalid-nodepool-duration", ApiServer,
        "A NodePool duration outside the CRD's pattern (whole s, m or \
         h units; Never where allowed).",
        "CRD 패턴(초, 분, 시간 단위의 정수, 허용되는 곳에서는 Never)에 \
         맞지 않는 NodePool 기간입니다.";
    InvalidNodeClassGroup = "invalid-node-class-group", ApiServer,
        "A nodeClassRef group that contains '/' (a group has no version).",
        "nodeClassRef의 group에 '/'가 있습니다(group에는 버전이 없습니다).";
    ImmutableField = "immutable-field", ApiServer,
        "A change to a field the API server does not let change after creation.",
        "생성한 뒤에는 바꿀 수 없는 필드를 바꿨습니다.";
    DuplicateTaint = "duplicate-taint", Karpenter,
        "Taints and startupTaints together repeat a key and effect.",
        "taints와 startupTaints를 합쳐 같은 키와 effect가 반복됩니다.";
    InvalidBudgetNodes = "invalid-budget-nodes", ApiServer,
        "A disruption budget's nodes is neither a count nor a percentage up to 100%.",
        "중단 예산의 nodes가 개수도 100% 이하의 백분율도 아닙니다.";
    InvalidSchedule = "invalid-schedule", ApiServer,
        "A disruption budget's schedule is not a cron expression.",
        "중단 예산의 schedule이 cron 식이 아닙니다.";
    UnparsableSchedule = "unparsable-schedule", Karpenter,
        "A schedule the CRD accepts but Karpenter cannot parse; the \
         budget then blocks every disruption.",
        "CRD는 받아들이지만 Karpenter가 해석하지 못하는 일정입니다. \
         그 예산은 모든 중단을 막습니다.";
    InvalidBudgetDuration = "invalid-budget-duration", ApiServer,
        "A disruption budget's duration outside the CRD's pattern (hours and minutes).",
        "CRD 패턴(시간과 분)에 맞지 않는 중단 예산 duration입니다.";
    ScheduleWithoutDuration = "schedule-without-duration", ApiServer,
        "A disruption budget has a schedule without a duration, or a duration without a schedule.",
        "중단 예산에 duration 없는 schedule이나 schedule 없는 duration이 있습니다.";
    StaticNodePool = "static-nodepool", ApiServer,
        "A static NodePool (spec.replicas) uses a field only dynamic NodePools have.",
        "정적 NodePool(spec.replicas)이 동적 NodePool에만 있는 필드를 씁니다.";
    NeedsNewerKarpenter = "needs-newer-karpenter", Karpenter,
        "A field or value that only recent Karpenter versions know.",
        "최근 Karpenter 버전만 아는 필드나 값입니다.";

    // EC2NodeClass.
    RoleXorInstanceProfile = "role-xor-instance-profile", ApiServer,
        "An EC2NodeClass needs exactly one of role and instanceProfile.",
        "EC2NodeClass에는 role과 instanceProfile 중 정확히 하나가 있어야 합니다.";
    NoSelectorTerms = "no-selector-terms", ApiServer,
        "A subnet, security group or AMI selector with no terms.",
        "서브넷, 보안 그룹, AMI 선택자에 조건이 하나도 없습니다.";
    EmptySelectorTerm = "empty-selector-term", ApiServer,
        "A selector term that selects by nothing.",
        "아무것도 고르지 않는 선택 조건입니다.";
    ExclusiveSelectorField = "exclusive-selector-field", ApiServer,
        "A selector term combines a field that must stand alone (id, name, \
         alias, ssmParameter) with others.",
        "단독으로 써야 하는 필드(id, name, alias, ssmParameter)를 다른 \
         필드와 함께 쓴 선택 조건입니다.";
    InvalidResourceId = "invalid-resource-id", ApiServer,
        "An AWS id of the wrong form (subnet-..., sg-..., ami-..., cr-...).",
        "형식이 틀린 AWS id입니다(subnet-..., sg-..., ami-..., cr-...).";
    EmptyTag = "empty-tag", ApiServer,
        "Empty selector tags, or a tag with an empty key or value.",
        "선택자 tags가 비어 있거나 키 또는 값이 빈 태그가 있습니다.";
    RestrictedTag = "restricted-tag", ApiServer,
        "A tag key Karpenter sets itself (kubernetes.io/cluster/*, karpenter.sh/nodepool, ...).",
        "Karpenter가 직접 다는 태그 키입니다(kubernetes.io/cluster/*, karpenter.sh/nodepool 등).";
    InvalidAlias = "invalid-alias", ApiServer,
        "An AMI alias that is not family@version with a known family (Windows only @latest).",
        "알려진 계열의 계열@버전 형식이 아닌 AMI alias입니다(Windows는 @latest만).";
    AliasNotAlone = "alias-not-alone", ApiServer,
        "An AMI alias that shares amiSelectorTerms with other terms or fields.",
        "AMI alias가 amiSelectorTerms에서 다른 조건이나 필드와 함께 쓰였습니다.";
    AmiFamilyMismatch = "ami-family-mismatch", ApiServer,
        "An amiFamily that contradicts the alias family (other than Custom).",
        "amiFamily가 alias의 계열과 다릅니다(Custom 제외).";
    InvalidEvictionSignal = "invalid-eviction-signal", ApiServer,
        "A kubelet eviction key that is not an eviction signal.",
        "kubelet eviction 키가 eviction 신호가 아닙니다.";
    InvalidEvictionThreshold = "invalid-eviction-threshold", ApiServer,
        "A kubelet eviction threshold that is neither a quantity nor a percentage.",
        "kubelet eviction 임곗값이 수량도 백분율도 아닙니다.";
    EvictionSoftPairing = "eviction-soft-pairing", ApiServer,
        "evictionSoft and evictionSoftGracePeriod must name the same signals.",
        "evictionSoft와 evictionSoftGracePeriod는 같은 신호를 써야 합니다.";
    InvalidReservedResource = "invalid-reserved-resource", ApiServer,
        "A kubeReserved or systemReserved key other than cpu, memory, ephemeral-storage and pid.",
        "kubeReserved나 systemReserved에 cpu, memory, ephemeral-storage, pid가 아닌 키가 있습니다.";
    ImageGcThresholds = "image-gc-thresholds", ApiServer,
        "imageGCLowThresholdPercent must be below imageGCHighThresholdPercent.",
        "imageGCLowThresholdPercent는 imageGCHighThresholdPercent보다 작아야 합니다.";
    MultipleRootVolumes = "multiple-root-volumes", ApiServer,
        "More than one block device mapping is the root volume.",
        "루트 볼륨인 블록 디바이스 매핑이 둘 이상입니다.";
    EbsNeedsSizeOrSnapshot = "ebs-needs-size-or-snapshot", ApiServer,
        "An EBS volume needs a volumeSize or a snapshotID.",
        "EBS 볼륨에는 volumeSize나 snapshotID가 있어야 합니다.";
    InvalidVolumeSize = "invalid-volume-size", ApiServer,
        "A volumeSize that is not whole Gi, G, Ti or T.",
        "volumeSize가 Gi, G, Ti, T 단위의 정수가 아닙니다.";
    InitializationRateNeedsSnapshot = "initialization-rate-needs-snapshot", ApiServer,
        "volumeInitializationRate applies only to a volume restored from a snapshotID.",
        "volumeInitializationRate는 snapshotID로 복원하는 볼륨에만 쓸 수 있습니다.";

    // Pods and workloads.
    NoContainers = "no-containers", ApiServer,
        "A pod without containers.",
        "컨테이너가 없는 파드입니다.";
    InvalidContainerName = "invalid-container-name", ApiServer,
        "A container name that is not a DNS-1123 label.",
        "컨테이너 이름이 DNS-1123 레이블이 아닙니다.";
    DuplicateContainerName = "duplicate-container-name", ApiServer,
        "Two containers (or init containers) of one pod share a name.",
        "한 파드의 컨테이너(또는 init 컨테이너) 둘이 이름이 같습니다.";
    RestartPolicyNotAllowed = "restart-policy-not-allowed", ApiServer,
        "A restartPolicy the controller does not allow (Always for \
         Jobs; only Always for the others).",
        "컨트롤러가 허용하지 않는 restartPolicy입니다(Job에는 Always \
         불가, 나머지는 Always만 가능).";
    RequestExceedsLimit = "request-exceeds-limit", ApiServer,
        "A container requests more than its limit.",
        "컨테이너의 요청량이 한도보다 큽니다.";
    DynamicResources = "dynamic-resources", Karpenter,
        "The pod claims devices through Dynamic Resource Allocation (`resourceClaims`). \
         Karpenter v1.7+ launches nothing for it while `IGNORE_DRA_REQUESTS` is on (its \
         default), and the playground's nodes publish no devices: the pod stays pending.",
        "파드가 Dynamic Resource Allocation(`resourceClaims`)으로 장치를 요청합니다. \
         Karpenter v1.7+는 `IGNORE_DRA_REQUESTS`가 켜져 있으면(기본값) 이 파드를 위해 아무것도 \
         띄우지 않고, 플레이그라운드의 노드는 장치를 게시하지 않아 파드가 대기 상태로 \
         남습니다.";
    PodAdmission = "pod-admission", ApiServer,
        "An admission plugin refuses the pod when it is created (the RuntimeClass plugin: a \
         class that does not exist, an overhead the class does not set, a node selector that \
         conflicts with the class's). A bare Pod is refused at `kubectl apply`; a controller's \
         pods are refused one by one (`FailedCreate`).",
        "파드를 만들 때 admission 플러그인이 거부합니다(RuntimeClass 플러그인: 없는 클래스, \
         클래스가 정하지 않은 overhead, 클래스와 충돌하는 nodeSelector). 파드 하나는 `kubectl \
         apply` 때 거부되고, 컨트롤러의 파드는 만들어질 때마다 거부됩니다(`FailedCreate`).";
    PodLevelResource = "pod-level-resource", ApiServer,
        "A pod's own `spec.resources` that the API server refuses: a resource other than cpu, \
         memory and hugepages, or a pod-level request below the containers' aggregate or a \
         container limit above the pod-level limit.",
        "API 서버가 거부하는 파드 자체의 `spec.resources`: cpu, memory, hugepages가 아닌 \
         리소스, 컨테이너 합계보다 작은 파드 수준 요청량, 파드 수준 한도보다 큰 컨테이너 \
         한도.";
    ExtendedResourceLimit = "extended-resource-limit", ApiServer,
        "An extended resource (such as nvidia.com/gpu) needs a limit equal to its request.",
        "확장 리소스(nvidia.com/gpu 등)에는 요청량과 같은 한도가 있어야 합니다.";
    DuplicateHostPort = "duplicate-host-port", ApiServer,
        "One pod uses a host port and protocol twice.",
        "한 파드가 같은 호스트 포트와 프로토콜을 두 번 씁니다.";
    TolerationWithoutKey = "toleration-without-key", ApiServer,
        "A toleration without a key must use operator Exists.",
        "key가 없는 toleration은 operator Exists를 써야 합니다.";
    TolerationExistsWithValue = "toleration-exists-with-value", ApiServer,
        "A toleration with operator Exists takes no value.",
        "operator가 Exists인 toleration에는 value를 쓰지 않습니다.";
    MinDomainsNeedsDoNotSchedule = "min-domains-needs-do-not-schedule", ApiServer,
        "A topology spread constraint's minDomains needs whenUnsatisfiable: DoNotSchedule.",
        "토폴로지 분산 제약의 minDomains에는 whenUnsatisfiable: DoNotSchedule이 필요합니다.";
    DuplicateSpreadConstraint = "duplicate-spread-constraint", ApiServer,
        "Two topology spread constraints with the same topologyKey and whenUnsatisfiable.",
        "topologyKey와 whenUnsatisfiable이 같은 토폴로지 분산 제약이 둘 있습니다.";
    EmptySelector = "empty-selector", ApiServer,
        "A workload with an empty selector.",
        "selector가 비어 있는 워크로드입니다.";
    SelectorMismatch = "selector-mismatch", ApiServer,
        "A workload's selector does not match its pod template's labels.",
        "워크로드의 selector가 파드 템플릿의 레이블과 맞지 않습니다.";
    PdbMinAndMax = "pdb-min-and-max", ApiServer,
        "A PodDisruptionBudget sets both minAvailable and maxUnavailable.",
        "PodDisruptionBudget에 minAvailable과 maxUnavailable이 둘 다 있습니다.";
    PriorityValueTooHigh = "priority-value-too-high", ApiServer,
        "A user's PriorityClass above 1,000,000,000, the highest value a user may define.",
        "사용자 PriorityClass의 값이 사용자가 정할 수 있는 최댓값 1,000,000,000을 넘습니다.";
    ReservedPriorityClass = "reserved-priority-class", ApiServer,
        "A PriorityClass named `system-...` that is not one of the system classes as they are.",
        "`system-`으로 시작하는 이름은 시스템 PriorityClass(그 값 그대로)에만 쓸 수 있습니다.";
    SecondGlobalDefault = "second-global-default", ApiServer,
        "A second PriorityClass with globalDefault: true; only one default can exist.",
        "globalDefault: true인 PriorityClass가 이미 있습니다. 기본 클래스는 하나만 둘 수 있습니다.";
    UnknownPriorityClass = "unknown-priority-class", ApiServer,
        "A pod names a PriorityClass the cluster does not have: the Priority admission plugin \
         refuses it.",
        "파드가 클러스터에 없는 PriorityClass를 가리킵니다. Priority 어드미션 플러그인이 파드를 \
         거부합니다.";
    PriorityNotAdmitted = "priority-not-admitted", ApiServer,
        "A pod writes a priority or preemptionPolicy other than the one its PriorityClass gives.",
        "파드에 쓴 priority나 preemptionPolicy가 PriorityClass가 주는 값과 다릅니다.";
    PdbWithoutSelector = "pdb-without-selector", Karpenter,
        "A PodDisruptionBudget without a selector selects no pods and protects nothing.",
        "selector가 없는 PodDisruptionBudget은 아무 파드도 고르지 않아 아무것도 보호하지 않습니다.";

    // Storage.
    ClaimAccessModes = "claim-access-modes", ApiServer,
        "A PersistentVolumeClaim (or a claim template) without access modes.",
        "접근 모드(accessModes)가 없는 PersistentVolumeClaim(또는 클레임 템플릿)입니다.";
    ClaimStorageRequest = "claim-storage-request", ApiServer,
        "A PersistentVolumeClaim (or a claim template) without `resources.requests.storage`.",
        "`resources.requests.storage`가 없는 PersistentVolumeClaim(또는 클레임 템플릿)입니다.";
    ClaimNotFound = "claim-not-found", Karpenter,
        "A pod names a PersistentVolumeClaim that no document defines and no controller \
         creates: kube-scheduler leaves the pod pending and Karpenter ignores it.",
        "어떤 문서도 정의하지 않고 어떤 컨트롤러도 만들지 않는 PersistentVolumeClaim을 파드가 \
         가리킵니다. kube-scheduler는 파드를 Pending으로 두고 Karpenter는 무시합니다.";
    StorageClassNotFound = "storage-class-not-found", Karpenter,
        "A claim names a StorageClass that no document defines: no volume is provisioned for \
         it, and its pods stay pending.",
        "어떤 문서도 정의하지 않는 StorageClass를 클레임이 가리킵니다. 볼륨이 만들어지지 않아 \
         그 파드는 Pending으로 남습니다.";

    // The playground's kinds.
    DuplicateZone = "duplicate-zone", Playground,
        "A zone listed twice.",
        "같은 가용 영역이 두 번 나옵니다.";
    NoOfferings = "no-offerings", Playground,
        "An InstanceType with no offerings can never be launched.",
        "오퍼링이 없는 InstanceType은 절대 띄울 수 없습니다.";
    InvalidPrice = "invalid-price", Playground,
        "A price that is not a non-negative decimal in USD per hour.",
        "가격이 시간당 USD의 0 이상 소수가 아닙니다.";
    RoundedPrice = "rounded-price", Playground,
        "A price with more than 6 decimals is rounded to micro-dollars.",
        "소수점 여섯째 자리를 넘는 가격은 백만분의 1달러로 반올림됩니다.";
    TimelineStepActions = "timeline-step-actions", Playground,
        "A Timeline step needs exactly one action (and interrupt exactly one target).",
        "Timeline 단계에는 동작이 정확히 하나(interrupt에는 대상이 정확히 하나) 있어야 합니다.";
    KarpenterVersion = "karpenter-version", Playground,
        "A Karpenter version the playground cannot read or does not model (it models v1.0 to \
         v1.15).",
        "플레이그라운드가 읽을 수 없거나 다루지 않는 Karpenter 버전입니다(v1.0부터 v1.15까지 \
         다룹니다).";
    UnknownFeatureGate = "unknown-feature-gate", Karpenter,
        "A feature gate the chosen Karpenter version does not have; Karpenter refuses to start \
         with it, and the playground ignores it.",
        "고른 Karpenter 버전에 없는 기능 게이트입니다. Karpenter는 이 게이트로는 시작하지 \
         않으며, 플레이그라운드는 무시합니다.";
    NeedsFeatureGate = "needs-feature-gate", Karpenter,
        "A feature used while its feature gate is off; Karpenter ignores it until the gate is \
         on.",
        "기능 게이트가 꺼진 채로 쓴 기능입니다. 게이트를 켜기 전까지 Karpenter는 이를 \
         무시합니다.";
    NodeOverlayRule = "nodeoverlay-rule", ApiServer,
        "A NodeOverlay the CRD refuses: both `price` and `priceAdjustment`, a price or an \
         adjustment not in the CRD's format, or capacity for cpu, memory, ephemeral-storage or \
         pods.",
        "CRD가 거부하는 NodeOverlay입니다: `price`와 `priceAdjustment`를 함께 쓰거나, CRD \
         형식이 아닌 가격이나 조정값을 쓰거나, cpu, memory, ephemeral-storage, pods의 용량을 \
         바꾸려 했습니다.";
    CapacityBufferRule = "capacitybuffer-rule", ApiServer,
        "A CapacityBuffer the CRD refuses: both `podTemplateRef` and `scalableRef`, or a \
         `podTemplateRef` with neither `replicas` nor `limits`.",
        "CRD가 거부하는 CapacityBuffer입니다: `podTemplateRef`와 `scalableRef`를 함께 쓰거나, \
         `podTemplateRef`에 `replicas`도 `limits`도 없습니다.";
    CapacityBufferUnresolved = "capacitybuffer-unresolved", Karpenter,
        "A CapacityBuffer Karpenter's buffer controller cannot resolve (no reference, or a \
         scalableRef kind it does not read): it is never ready and keeps no capacity.",
        "Karpenter의 버퍼 컨트롤러가 해석할 수 없는 CapacityBuffer입니다(참조가 없거나 읽지 \
         않는 scalableRef 종류): 준비 상태가 되지 않으며 용량을 남겨 두지 않습니다.";
    TimelineKind = "timeline-kind", Playground,
        "A Timeline step names a kind it cannot apply or delete.",
        "Timeline 단계가 적용하거나 삭제할 수 없는 종류를 가리킵니다.";

    // v1beta1.
    V1beta1Api = "v1beta1-api", V1beta1,
        "A karpenter.sh/v1beta1 or karpenter.k8s.aws/v1beta1 object, read with its v1 meaning.",
        "karpenter.sh/v1beta1 또는 karpenter.k8s.aws/v1beta1 오브젝트입니다. v1의 의미로 읽습니다.";
    V1beta1ExpireAfter = "v1beta1-expire-after", V1beta1,
        "v1 moved expireAfter from spec.disruption to \
         spec.template.spec, and made expiry forceful.",
        "v1에서 expireAfter는 spec.disruption에서 spec.template.spec으로 \
         옮겨졌고, 만료는 강제가 되었습니다.";
    V1beta1ConsolidationPolicy = "v1beta1-consolidation-policy", V1beta1,
        "v1 renamed WhenUnderutilized to WhenEmptyOrUnderutilized.",
        "v1에서 WhenUnderutilized의 이름이 WhenEmptyOrUnderutilized로 바뀌었습니다.";
    V1beta1ConsolidateAfter = "v1beta1-consolidate-after", V1beta1,
        "v1 requires consolidateAfter in a disruption block it is given (an omitted block defaults \
         to consolidateAfter: 0s); v1beta1 forbade it with WhenUnderutilized.",
        "v1은 직접 쓴 disruption 블록 안에 consolidateAfter를 요구합니다(블록을 \
         생략하면 consolidateAfter: 0s가 기본값입니다). v1beta1은 \
         WhenUnderutilized와 함께 쓰지 못하게 했습니다.";
    V1beta1NodeClassRef = "v1beta1-node-class-ref", V1beta1,
        "v1's nodeClassRef needs group and kind besides name.",
        "v1의 nodeClassRef에는 name 말고도 group과 kind가 있어야 합니다.";
    V1beta1Kubelet = "v1beta1-kubelet", V1beta1,
        "v1 moved kubelet from the NodePool to the EC2NodeClass.",
        "v1에서 kubelet은 NodePool에서 EC2NodeClass로 옮겨졌습니다.";
    V1beta1Resources = "v1beta1-resources", V1beta1,
        "v1 removed the dead spec.template.spec.resources field.",
        "v1에서 쓰이지 않던 spec.template.spec.resources 필드가 없어졌습니다.";
    V1beta1AmiFamily = "v1beta1-ami-family", V1beta1,
        "v1 selects AMIs with amiSelectorTerms (an alias such as al2023@latest); \
         amiFamily alone is not enough.",
        "v1은 amiSelectorTerms(al2023@latest 같은 alias)로 AMI를 \
         고릅니다. amiFamily만으로는 부족합니다.";

    // EKS Auto Mode (`Cluster.spec.karpenter.mode: eks-auto-mode`, `eks.amazonaws.com/v1`
    // NodeClass), from the EKS user guide.
    AutoModeInferred = "auto-mode-inferred", Playground,
        "The Cluster does not say which Karpenter runs the nodes, but a NodePool points at an \
         eks.amazonaws.com NodeClass (or a NodeClass document is present): the scenario is \
         simulated as EKS Auto Mode.",
        "Cluster에 어떤 Karpenter가 노드를 관리하는지 적혀 있지 않지만, NodePool이 \
         eks.amazonaws.com NodeClass를 가리키거나 NodeClass 문서가 있어 EKS Auto Mode로 \
         시뮬레이션합니다.";
    AutoModeOff = "auto-mode-off", Karpenter,
        "An EKS Auto Mode NodeClass in a cluster whose Cluster says self-managed Karpenter: \
         no controller serves it, and its NodePools never launch nodes.",
        "Cluster가 자체 관리형 Karpenter라고 하는 클러스터의 EKS Auto Mode NodeClass입니다. \
         처리하는 컨트롤러가 없어 그 NodePool은 노드를 띄우지 않습니다.";
    AutoModeEc2NodeClassField = "auto-mode-ec2nodeclass-field", ApiServer,
        "A field an EC2NodeClass has and an EKS Auto Mode NodeClass does not (AMIs, user data, \
         kubelet, block devices, metadata options, ...): the API server refuses it; Auto Mode \
         does it another way or not at all.",
        "EC2NodeClass에는 있지만 EKS Auto Mode NodeClass에는 없는 필드입니다(AMI, user data, \
         kubelet, 블록 디바이스, 메타데이터 옵션 등). API 서버가 거부하며, Auto Mode에서는 \
         다른 방법을 쓰거나 지원하지 않습니다.";
    AutoModeDefaultNodeClass = "auto-mode-default-nodeclass", ApiServer,
        "A custom NodeClass named default: EKS owns the built-in NodeClass of that name and \
         refuses another.",
        "default라는 이름의 사용자 NodeClass입니다. 그 이름은 EKS의 내장 NodeClass 것이므로 \
         EKS가 거부합니다.";
    AutoModeBuiltinNodePool = "auto-mode-builtin-nodepool", ApiServer,
        "A NodePool named like a built-in one (general-purpose, system) that the Cluster \
         switches on: EKS owns it, and it cannot be modified, only switched off.",
        "Cluster가 켜 둔 내장 NodePool(general-purpose, system)과 이름이 같은 NodePool입니다. \
         EKS가 관리하므로 수정할 수 없고 끄기만 할 수 있습니다.";
    AutoModeKarpenterLabel = "auto-mode-karpenter-label", Karpenter,
        "A karpenter.k8s.aws/ label key on an EKS Auto Mode NodePool or a pod meant for it: \
         Auto Mode's labels are eks.amazonaws.com/, so the key matches no Auto Mode node.",
        "EKS Auto Mode NodePool이나 그쪽으로 보낼 파드에 karpenter.k8s.aws/ 레이블 키가 \
         있습니다. Auto Mode의 레이블은 eks.amazonaws.com/이므로 어떤 Auto Mode 노드와도 \
         맞지 않습니다.";
    AutoModeNoRequirement = "auto-mode-no-requirement", Karpenter,
        "An EKS Auto Mode NodePool without requirements; EKS's migration guide asks for at \
         least one.",
        "요구 사항이 없는 EKS Auto Mode NodePool입니다. EKS 마이그레이션 가이드는 하나 이상을 \
         요구합니다.";
    AutoModeNotSelective = "auto-mode-not-selective", Karpenter,
        "Beside self-managed Karpenter NodePools, an EKS Auto Mode NodePool without a taint (or \
         the built-in general-purpose pool) takes workloads that were not moved on purpose; \
         the migration guide taints it.",
        "자체 관리형 Karpenter NodePool 옆에 테인트 없는 EKS Auto Mode NodePool(또는 내장 \
         general-purpose)이 있으면 일부러 옮기지 않은 워크로드까지 받습니다. 마이그레이션 \
         가이드는 테인트를 겁니다.";
    AutoModeKarpenterVersion = "auto-mode-karpenter-version", Karpenter,
        "Running Karpenter beside EKS Auto Mode needs Karpenter v1.1 or later (the CRDs are \
         shared).",
        "EKS Auto Mode 옆에서 Karpenter를 돌리려면 v1.1 이상이어야 합니다(CRD를 함께 씁니다).";
    AutoModeLinuxOnly = "auto-mode-linux-only", Karpenter,
        "EKS Auto Mode runs Linux only: a Windows requirement on its NodePool matches nothing.",
        "EKS Auto Mode는 Linux만 실행합니다. NodePool의 Windows 요구 사항은 아무것과도 맞지 \
         않습니다.";
}

impl Code {
    /// The table's entry for this code.
    pub fn info(self) -> &'static CodeInfo {
        // The table is built from the same list as the enum, in the same order.
        &ALL[self as usize]
    }

    pub fn origin(self) -> Origin {
        self.info().origin
    }

    /// The code with this name, if there is one.
    pub fn parse(name: &str) -> Option<Code> {
        ALL.iter().map(|i| i.code).find(|c| c.as_str() == name)
    }
}

/// The code whose name is closest to `name` (a typo, or an old spelling), if one is close.
pub fn closest(name: &str) -> Option<&'static str> {
    crate::reader::suggest(name, ALL.iter().map(|i| i.code.as_str()))
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_and_the_enum_agree() {
        for (i, info) in ALL.iter().enumerate() {
            assert_eq!(info.code as usize, i);
            assert_eq!(Code::parse(info.code.as_str()), Some(info.code));
        }
    }

    #[test]
    fn names_are_unique_kebab_case_and_every_summary_reads_in_both_languages() {
        let mut seen = std::collections::BTreeSet::new();
        for info in ALL {
            let name = info.code.as_str();
            assert!(seen.insert(name), "{name} twice");
            assert!(
                name.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{name}"
            );
            assert!(
                !name.starts_with('-') && !name.ends_with('-') && !name.contains("--"),
                "{name}"
            );
            assert!(info.summary.ends_with('.'), "{name}: {}", info.summary);
            assert!(
                info.summary_ko.chars().any(|c| ('가'..='힣').contains(&c)),
                "{name}: {}",
                info.summary_ko
            );
        }
        assert_eq!(
            Code::parse("invalid-value"),
            None,
            "the coarse code is gone"
        );
    }
}

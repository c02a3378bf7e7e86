//! Guided lessons: each is a scenario (one of the seed labs in `tests/labs/`, the same files
//! the CLI's golden tests run) and steps of explanation in English and Korean.
//!
//! Step text uses `backticks` for code; the page renders them as `<code>`.

use crate::exercise::{Exercise, Goal, Judged};
use crate::i18n::Lang;

/// A scenario the page can open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Lab {
    HelloWorld,
    ScaleOut,
    Service6Gi,
    ScaleIn,
    Consolidation,
    Limits,
    LimitsLifted,
    BatchJob,
    BatchJobFixed,
    SpotShortage,
    V1beta1,
    V1beta1Batch,
    Teardown,
    TeardownWrongOrder,
    Drift,
    SpotFallback,
    Protect,
    Zones,
    Balanced,
    BalancedEager,
    StaticReserved,
    CapacityBuffer,
    Byoc,
    ByocOnDemand,
    AutoModeBefore,
    AutoModeMigrate,
    Blank,
}

impl Lab {
    /// The scenario's YAML, without the lab file's header comment (the lesson's steps
    /// explain it, in the reader's language).
    pub fn text(self) -> &'static str {
        let raw = match self {
            Lab::HelloWorld => include_str!("../../tests/labs/seed000-hello-world.yaml"),
            Lab::ScaleOut => include_str!("../../tests/labs/seed002-scale-out.yaml"),
            Lab::Service6Gi => include_str!("../../tests/labs/seed002-service-6gi.yaml"),
            Lab::ScaleIn => include_str!("../../tests/labs/seed002-scale-in.yaml"),
            Lab::Consolidation => include_str!("../../tests/labs/seed002-consolidation.yaml"),
            Lab::Limits => include_str!("../../tests/labs/seed002-limits.yaml"),
            Lab::LimitsLifted => include_str!("../../tests/labs/seed002-limits-lifted.yaml"),
            Lab::BatchJob => include_str!("../../tests/labs/seed003-batch-job.yaml"),
            Lab::BatchJobFixed => include_str!("../../tests/labs/seed003-batch-job-fixed.yaml"),
            Lab::SpotShortage => include_str!("../../tests/labs/seed003-spot-shortage.yaml"),
            Lab::V1beta1 => include_str!("../../tests/labs/seed000-v1beta1.yaml"),
            Lab::V1beta1Batch => include_str!("../../tests/labs/seed003-v1beta1.yaml"),
            Lab::Teardown => include_str!("../../tests/labs/seed000-teardown.yaml"),
            Lab::TeardownWrongOrder => {
                include_str!("../../tests/labs/seed000-teardown-wrong-order.yaml")
            }
            Lab::Drift => include_str!("../../tests/labs/seed000-drift.yaml"),
            Lab::SpotFallback => include_str!("../../tests/labs/seed003-spot-fallback.yaml"),
            Lab::Protect => include_str!("../../tests/labs/seed002-protect.yaml"),
            Lab::Zones => include_str!("../../tests/labs/seed002-zones.yaml"),
            Lab::Balanced => include_str!("../../tests/labs/v114-balanced.yaml"),
            Lab::BalancedEager => include_str!("../../tests/labs/v114-balanced-eager.yaml"),
            Lab::StaticReserved => include_str!("../../tests/labs/v114-static-reserved.yaml"),
            Lab::CapacityBuffer => include_str!("../../tests/labs/v114-capacity-buffer.yaml"),
            Lab::Byoc => include_str!("../../tests/labs/byoc-snapshot.yaml"),
            Lab::ByocOnDemand => include_str!("../../tests/labs/byoc-on-demand.yaml"),
            Lab::AutoModeBefore => include_str!("../../tests/labs/automode-before.yaml"),
            Lab::AutoModeMigrate => include_str!("../../tests/labs/automode-migrate.yaml"),
            Lab::Blank => include_str!("templates/blank.yaml"),
        };
        strip_header(raw)
    }

    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Lab::HelloWorld => lang.pick("Hello, Karpenter", "Hello, Karpenter"),
            Lab::ScaleOut => lang.pick("Scale out", "스케일 아웃"),
            Lab::Service6Gi => lang.pick("A 6Gi service", "6Gi 서비스"),
            Lab::ScaleIn => lang.pick("Scale in", "스케일 인"),
            Lab::Consolidation => lang.pick("Consolidation", "통합(Consolidation)"),
            Lab::Limits => lang.pick("Limits", "한도"),
            Lab::LimitsLifted => lang.pick("Limits, lifted", "한도를 뺀 경우"),
            Lab::BatchJob => lang.pick("The Job as written", "원문 그대로의 Job"),
            Lab::BatchJobFixed => lang.pick("The Job, fixed", "고친 Job"),
            Lab::SpotShortage => lang.pick("When spot runs out", "스팟이 바닥나면"),
            Lab::V1beta1 => lang.pick(
                "Hello, Karpenter in v1beta1",
                "v1beta1로 쓴 Hello, Karpenter",
            ),
            Lab::V1beta1Batch => lang.pick("Batch pools in v1beta1", "v1beta1로 쓴 배치 풀"),
            Lab::Teardown => lang.pick("Tearing down", "정리하기"),
            Lab::TeardownWrongOrder => {
                lang.pick("Tearing down, wrong order", "잘못된 순서로 정리하기")
            }
            Lab::Drift => lang.pick("Drift", "드리프트"),
            Lab::SpotFallback => lang.pick("Spot fallback", "스팟 대체"),
            Lab::Protect => lang.pick("Protecting workloads", "워크로드 보호"),
            Lab::Zones => lang.pick("Zones", "가용 영역"),
            Lab::Balanced => lang.pick("Balanced consolidation", "Balanced 통합"),
            Lab::BalancedEager => lang.pick(
                "The same cluster, WhenEmptyOrUnderutilized",
                "같은 클러스터, WhenEmptyOrUnderutilized",
            ),
            Lab::StaticReserved => {
                lang.pick("A static pool next to a reservation", "예약 옆의 정적 풀")
            }
            Lab::CapacityBuffer => lang.pick(
                "Warm capacity with no placeholder Deployment",
                "자리 표시용 Deployment 없이 데워 둔 용량",
            ),
            Lab::Byoc => lang.pick("An imported cluster", "가져온 클러스터"),
            Lab::ByocOnDemand => lang.pick(
                "The imported cluster, on-demand only",
                "가져온 클러스터, 온디맨드만",
            ),
            Lab::AutoModeBefore => lang.pick("Before Auto Mode", "Auto Mode 이전"),
            Lab::AutoModeMigrate => lang.pick(
                "Karpenter and Auto Mode, side by side",
                "Karpenter와 Auto Mode를 나란히",
            ),
            Lab::Blank => lang.pick("Blank", "빈 시나리오"),
        }
    }
}

/// Drops the leading block of `#` comment lines (and the blank lines after it).
fn strip_header(text: &str) -> &str {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('#') || t.is_empty() {
            offset += line.len();
        } else {
            break;
        }
    }
    &text[offset..]
}

pub struct Text {
    pub en: &'static str,
    pub ko: &'static str,
}

impl Text {
    pub fn get(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.ko)
    }
}

pub struct Step {
    pub title: Text,
    pub body: Text,
    /// The lab this step is about; the page offers to open it when another is loaded.
    pub lab: Lab,
    /// A comparison the step sets up: this lab is A, `lab` is B (what the learner edits).
    pub compare: Option<Lab>,
    /// A task the step sets, which the page checks on the running cluster.
    pub exercise: Option<&'static Exercise>,
}

pub struct Lesson {
    /// Stable, stored in the saved session.
    pub id: &'static str,
    pub title: Text,
    pub summary: Text,
    pub steps: &'static [Step],
}

impl Lesson {
    pub fn first_lab(&self) -> Lab {
        self.steps[0].lab
    }
}

pub fn find(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

/// The lesson after `id` in the page's order, if any (the free-form Blank comes after none).
pub fn after(id: &str) -> Option<&'static Lesson> {
    let i = LESSONS.iter().position(|l| l.id == id)?;
    LESSONS.get(i + 1).filter(|l| l.id != "blank")
}

pub static LESSONS: &[Lesson] = &[
    Lesson {
        id: "hello",
        title: Text {
            en: "Hello, Karpenter",
            ko: "Hello, Karpenter",
        },
        summary: Text {
            en: "An EC2NodeClass, a NodePool and one pod: where the first node comes from.",
            ko: "EC2NodeClass, NodePool, 파드 하나로 첫 노드가 어디서 오는지 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::HelloWorld,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Two objects, two jobs",
                    ko: "두 오브젝트, 두 가지 역할",
                },
                body: Text {
                    en: "Look at the manifests' tabs, one per document. The `EC2NodeClass` \
                         describes how a node is built on AWS: its AMI (`al2023@latest`), IAM \
                         role, subnets and security groups. The `NodePool` is the policy: which \
                         nodes Karpenter may launch \
                         (here on-demand, amd64, the `t` family), the labels they carry, and when \
                         they may be removed.\n\nNeither object starts anything. Karpenter only \
                         acts when a pod cannot be placed.",
                    ko: "매니페스트의 탭(문서마다 하나)을 보세요. `EC2NodeClass`는 AWS에서 \
                         노드를 어떻게 만들지 정합니다. AMI(`al2023@latest`), IAM 역할, \
                         서브넷, 보안 그룹이 여기에 들어갑니다. \
                         `NodePool`은 정책입니다. Karpenter가 어떤 노드를 띄워도 되는지(여기서는 \
                         온디맨드, amd64, `t` 계열), 노드에 어떤 레이블을 붙일지, 언제 노드를 \
                         정리할지를 정합니다.\n\n두 오브젝트만으로는 아무것도 생기지 않습니다. \
                         Karpenter는 배치될 곳이 없는 파드가 생겼을 때만 움직입니다.",
                },
            },
            Step {
                lab: Lab::HelloWorld,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A pod with nowhere to go",
                    ko: "갈 곳 없는 파드",
                },
                body: Text {
                    en: "The `nginx` pod is what `kubectl run nginx --image=nginx` creates. The \
                         cluster has no node, so it waits in the Pending tray.\n\n\
                         Press Play. Karpenter collects pending pods for a moment (it waits until \
                         no new pod has arrived for 1 second), then picks the cheapest instance \
                         type the NodePool allows that fits them, and creates a NodeClaim.",
                    ko: "`nginx` 파드는 `kubectl run nginx --image=nginx`가 만드는 파드와 \
                         같습니다. 클러스터에 노드가 하나도 없으니 Pending 트레이에서 기다립니다.\n\
                         \n재생을 눌러 보세요. Karpenter는 Pending 파드를 잠시 모았다가(1초 동안 \
                         새 파드가 없을 때까지), NodePool이 허용하는 인스턴스 유형 중 파드가 \
                         들어가는 가장 싼 것을 골라 NodeClaim을 만듭니다.",
                },
            },
            Step {
                lab: Lab::HelloWorld,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Watch the node come up",
                    ko: "노드가 뜨는 과정",
                },
                body: Text {
                    en: "The new node is drawn dashed while EC2 launches it and the kubelet \
                         registers, about 40 to 55 seconds in all. It turns solid when Ready, and \
                         only then does the pod move onto it.\n\nThe node carries the NodePool's \
                         template label `app=hello-world`: every node a pool launches gets the \
                         pool's labels, which is how workloads can ask for a pool by name.",
                    ko: "EC2가 인스턴스를 띄우고 kubelet이 등록을 마칠 때까지(모두 합쳐 \
                         40~55초 정도) 새 노드는 점선으로 그려집니다. Ready가 되면 실선으로 \
                         바뀌고, 그제야 파드가 노드로 옮겨 갑니다.\n\n\
                         노드에는 NodePool 템플릿의 레이블 `app=hello-world`가 붙습니다. \
                         NodePool이 띄운 노드에는 모두 그 풀의 레이블이 붙기 때문에, \
                         워크로드는 이 레이블로 원하는 풀을 지정할 수 있습니다.",
                },
            },
            Step {
                lab: Lab::HelloWorld,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Change one line",
                    ko: "한 줄만 바꿔 보기",
                },
                body: Text {
                    en: "Give the pod a request: under the container add `resources: {requests: \
                         {cpu: \"3\", memory: 4Gi}}`. The simulation restarts from your edit: a \
                         larger `t` instance appears, because the cheapest type must now fit 3 \
                         vCPU.\n\nThen try `spot` in the NodePool's `capacity-type` values and \
                         compare the price on the node card.",
                    ko: "파드에 요청량을 줘 보세요. 컨테이너 아래에 `resources: {requests: {cpu: \
                         \"3\", memory: 4Gi}}`를 추가하면 시뮬레이션이 수정한 내용으로 다시 \
                         돌아갑니다. 이제 3 vCPU가 들어가야 하므로 더 큰 `t` 인스턴스가 뜹니다.\n\n\
                         이어서 NodePool의 `capacity-type` 값에 `spot`을 넣어 보고 노드 카드의 \
                         가격을 비교해 보세요.",
                },
            },
        ],
    },
    Lesson {
        id: "labels-taints",
        title: Text {
            en: "Labels vs taints: service and platform pools",
            ko: "레이블과 테인트: service 풀과 platform 풀",
        },
        summary: Text {
            en: "Two NodePools that differ by one taint, in four labs: scale out, requests pick \
                 the type, scale in, limits.",
            ko: "테인트 하나만 다른 NodePool 두 개로 네 가지 실습을 합니다. 스케일 아웃, 요청량에 \
                 따른 인스턴스 유형 선택, 스케일 인, 한도.",
        },
        steps: &[
            Step {
                lab: Lab::ScaleOut,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Two pools, one taint apart",
                    ko: "테인트 하나 차이인 두 풀",
                },
                body: Text {
                    en: "This cluster already has two fixed `m7i-flex.large` nodes from a managed \
                         node group; Karpenter does not manage them. It adds two NodePools with \
                         the same requirements (three 2-vCPU types, spot only):\n\n\
                         `service` has the label `node=service` and the taint \
                         `node=service:NoSchedule`. `platform` has the label `node=platform` and \
                         no taint.\n\nA label attracts: a pod may ask for it. A taint repels: only \
                         pods that tolerate it may land. So every pod that asks for nothing ends \
                         up in `platform`, the cluster's de facto default pool.",
                    ko: "이 클러스터에는 관리형 노드 그룹의 고정 노드 `m7i-flex.large` 두 대가 \
                         이미 있습니다. 이 노드들은 Karpenter가 관리하지 않습니다. 여기에 요구 \
                         사항이 같은(2 vCPU 인스턴스 유형 세 가지, 스팟만) NodePool 두 개를 \
                         더합니다.\n\n`service`에는 레이블 `node=service`와 테인트 \
                         `node=service:NoSchedule`이 있고, `platform`에는 레이블 `node=platform`만 \
                         있고 테인트는 없습니다.\n\n레이블은 끌어당깁니다. 파드가 그 레이블을 \
                         요구할 수 있습니다. 테인트는 밀어냅니다. 테인트를 용인(toleration)하는 \
                         파드만 들어올 수 있습니다. 그래서 아무것도 요구하지 않는 파드는 모두 \
                         `platform`으로 가고, 이 풀이 사실상 클러스터의 기본 풀이 됩니다.",
                },
            },
            Step {
                lab: Lab::ScaleOut,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Scale out",
                    ko: "스케일 아웃",
                },
                body: Text {
                    en: "The `busybox` Deployment has four replicas (400m CPU, 512Mi each) with a \
                         required anti-affinity on the hostname: no two on one node.\n\n\
                         Press Play. Two replicas fit on the fixed nodes. The other two do not \
                         tolerate the service taint, so Karpenter launches two nodes in \
                         `platform`, and because the requests are small, the cheapest allowed type \
                         wins: `t3.small`. The pending tray empties once both nodes are Ready.",
                    ko: "`busybox` Deployment은 레플리카 4개(각각 CPU 400m, 메모리 512Mi)이고, \
                         호스트 이름 기준의 필수 anti-affinity가 있어서 한 노드에 두 개가 함께 \
                         올라갈 수 없습니다.\n\n재생을 눌러 보세요. 레플리카 두 개는 고정 \
                         노드에 들어갑니다. 나머지 두 개는 service 테인트를 용인하지 않으므로 \
                         Karpenter가 `platform`에 노드 두 대를 띄웁니다. 요청량이 작아서 허용된 \
                         인스턴스 유형 중 가장 싼 `t3.small`이 선택됩니다. 두 노드가 Ready가 되면 \
                         Pending 트레이가 비워집니다.",
                },
            },
            Step {
                lab: Lab::Service6Gi,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Requests pick the instance type",
                    ko: "요청량이 인스턴스 유형을 고른다",
                },
                body: Text {
                    en: "To run in the service pool, the `httpd` app needs both halves: a \
                         toleration for `node=service:NoSchedule` (permission to land there) and a \
                         required node affinity on `node=service` (the obligation to).\n\n\
                         Each replica requests 6Gi of memory. After the kubelet's reservations, a \
                         `t3.small` or `c7i-flex.large` has well under 6Gi allocatable; only \
                         `m7i-flex.large` (8 GiB) fits. The service pool allows the same three \
                         types the platform pool picked `t3.small` from, and it launches \
                         `m7i-flex.large`.",
                    ko: "`httpd` 앱이 service 풀에서 돌려면 두 가지가 모두 필요합니다. \
                         `node=service:NoSchedule`에 대한 toleration(들어가도 된다는 허락)과 \
                         `node=service`에 대한 필수 node affinity(반드시 그곳으로 가라는 \
                         조건)입니다.\n\n레플리카마다 메모리 6Gi를 요청합니다. kubelet 예약분을 \
                         빼고 나면 `t3.small`이나 `c7i-flex.large`의 할당 가능 메모리는 6Gi에 \
                         한참 못 미칩니다. 들어가는 인스턴스 유형은 `m7i-flex.large`(8 \
                         GiB)뿐입니다. service 풀은 platform 풀이 `t3.small`을 골랐던 것과 같은 세 \
                         인스턴스 유형을 허용하는데, 여기서는 `m7i-flex.large`를 띄웁니다.",
                },
            },
            Step {
                lab: Lab::ScaleIn,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Scale in",
                    ko: "스케일 인",
                },
                body: Text {
                    en: "This lab repeats the scale-out, then a Timeline step deletes the \
                         Deployment at 3:00. The two `platform` nodes are left empty. Play at 60× \
                         and watch the cost line.\n\nAn empty node becomes a candidate once the \
                         pool's `consolidateAfter` (1 minute here) has passed since its last pod \
                         left. Karpenter looks every 10 seconds, waits 15 seconds to confirm, then \
                         taints the node, drains it and terminates it. The pool's default budget \
                         (`nodes: 10%`, rounded up) lets one node go at a time, so the second \
                         follows the first. The fixed nodes stay: no NodePool owns them.\n\n\
                         The next step is the article's other way to scale in.",
                    ko: "이 실습은 스케일 아웃을 그대로 한 뒤, Timeline 단계가 3:00에 Deployment를 \
                         삭제합니다. `platform` 노드 두 대가 빈 채로 남습니다. 60× 속도로 \
                         재생하면서 비용 줄을 지켜보세요.\n\n빈 노드는 마지막 파드가 떠난 뒤 풀의 \
                         `consolidateAfter`(여기서는 1분)가 지나면 정리 후보가 됩니다. Karpenter는 \
                         10초마다 후보를 살피고, 15초 동안 다시 확인한 다음 노드에 테인트를 걸고 \
                         드레인한 뒤 종료합니다. 풀의 기본 예산(`nodes: 10%`, 올림)은 한 번에 한 \
                         대만 허용하므로 두 번째 노드는 첫 번째가 사라진 뒤에 정리됩니다. 고정 \
                         노드는 어떤 NodePool에도 속하지 않으므로 그대로 남습니다.\n\n\
                         다음 단계는 원문이 보여 주는 또 다른 스케일 인 방법입니다.",
                },
            },
            Step {
                lab: Lab::Consolidation,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Consolidating underutilized nodes",
                    ko: "사용률이 낮은 노드 통합",
                },
                body: Text {
                    en: "The lecture's way to watch consolidation: eight anti-affine replicas fill \
                         the `platform` pool up to its limit, then at 3:00 the Deployment is \
                         applied again without its `podAntiAffinity`. Its pods are replaced, and \
                         without the anti-affinity several of them fit on one node.\n\n\
                         The pool consolidates `WhenEmptyOrUnderutilized`. A minute after a node's \
                         pods last changed, Karpenter simulates scheduling its pods on the other \
                         nodes (the fixed ones included). When they all fit, it deletes the node, \
                         and when one cheaper node would hold them, it replaces it. Read its \
                         decision line above the lanes: the method, the nodes and the saving per \
                         hour. The budget (`nodes: 10%` of four nodes, rounded up to one) makes \
                         the nodes go one by one.",
                    ko: "강의에서 통합을 보여 주는 방법입니다. anti-affinity가 걸린 레플리카 8개가 \
                         `platform` 풀을 한도까지 채운 뒤, 3:00에 `podAntiAffinity`를 뺀 \
                         Deployment를 다시 적용합니다. 파드가 새로 바뀌고, anti-affinity가 없으니 \
                         한 노드에 여러 개가 들어갈 수 있습니다.\n\n이 풀은 \
                         `WhenEmptyOrUnderutilized`로 통합합니다. 노드의 파드가 마지막으로 바뀐 뒤 \
                         1분이 지나면, Karpenter는 그 노드의 파드를 다른 노드(고정 노드 포함)에 \
                         올리는 스케줄링을 시뮬레이션합니다. 모두 들어가면 노드를 삭제하고, 더 싼 \
                         노드 하나로 충분하면 그 노드로 교체합니다. 레인 위의 결정 줄에서 방식, \
                         대상 노드, 시간당 절감액을 읽어 보세요. 예산(노드 네 대의 `nodes: 10%`, \
                         올림하면 한 대) 때문에 노드는 한 대씩 사라집니다.",
                },
            },
            Step {
                lab: Lab::Consolidation,
                compare: None,
                exercise: None,
                title: Text {
                    en: "What consolidation saved",
                    ko: "통합으로 아낀 비용",
                },
                body: Text {
                    en: "The same lab, read from the cost chart under the lanes. Play it to \
                         8:00. The line at the top is what the nodes cost per hour; below it, \
                         the node count and, shaded, the pods Pending.\n\n\
                         Each ◆ is a consolidation decision, with the saving Karpenter computed \
                         for it. The ▼ that follows is the node actually gone, once its pods \
                         were evicted and the instance terminated: that is where the line steps \
                         down. Four platform nodes, four steps, and what was spent so far grows \
                         more slowly after each.\n\n\
                         Hover over the chart to read the cluster at any instant, or click a \
                         step to move the clock back to it: the run replays to exactly that \
                         point. **Table** lists the same figures for a screen reader.",
                    ko: "같은 랩을 레인 아래의 비용 차트로 읽어 봅니다. 8:00까지 재생하세요. 위쪽 \
                         선은 노드의 시간당 비용이고, 그 아래는 노드 수와 (음영으로) Pending \
                         파드 수입니다.\n\n\
                         ◆는 통합 결정이며 Karpenter가 계산한 절감액이 함께 붙습니다. 뒤따르는 \
                         ▼는 파드가 축출되고 인스턴스가 종료되어 노드가 실제로 사라진 \
                         시점이고, 선은 거기서 내려갑니다. platform 노드 네 대, 계단 네 번. \
                         지금까지의 지출은 계단마다 더 느리게 늘어납니다.\n\n\
                         차트에 마우스를 올리면 그 시각의 클러스터가 보이고, 계단을 클릭하면 \
                         시계가 그 시점으로 돌아갑니다. 실행이 정확히 그 지점까지 다시 \
                         재생됩니다. **표**는 같은 수치를 스크린 리더용으로 보여 줍니다.",
                },
            },
            Step {
                lab: Lab::Limits,
                compare: None,
                exercise: Some(&LIMITS_WITHOUT_RAISING),
                title: Text {
                    en: "Limits as a cost guard",
                    ko: "비용 안전장치로서의 한도",
                },
                body: Text {
                    en: "Now eight anti-affine replicas, one node each. The fixed nodes take two. \
                         The `platform` pool has `limits: {cpu: \"8\"}`, counted as the capacity \
                         of its nodes: four 2-vCPU nodes and the limit is reached (watch the gauge \
                         in its lane).\n\nKarpenter refuses to launch a fifth node, so two \
                         replicas stay Pending. Hover over or focus a pending pod to read why: the \
                         service pool's taint, and the platform pool's limit.",
                    ko: "이번에는 anti-affinity가 걸린 레플리카 8개로, 노드 하나에 하나씩 \
                         올라갑니다. 고정 노드가 두 개를 받습니다. `platform` 풀에는 `limits: \
                         {cpu: \"8\"}`가 있고, 한도는 풀에 속한 노드의 용량으로 계산합니다. 2 vCPU \
                         노드 네 대면 한도에 닿습니다(레인의 게이지를 보세요).\n\n\
                         Karpenter는 다섯 번째 노드를 띄우지 않으므로 레플리카 두 개는 Pending으로 \
                         남습니다. Pending 파드에 마우스를 올리거나 포커스를 주면 이유가 나옵니다. \
                         service 풀의 테인트와 platform 풀의 한도입니다.",
                },
            },
            Step {
                lab: Lab::LimitsLifted,
                compare: Some(Lab::Limits),
                exercise: None,
                title: Text {
                    en: "What the limit costs, and what it prevents",
                    ko: "한도가 막는 것과 그 대가",
                },
                body: Text {
                    en: "This step compares two runs on one clock. **A** is the limits lab as \
                         it was; **B**, the manifests now in the editor, is the same lab with the \
                         `platform` pool's `limits` block removed. The chart draws A's cost as a \
                         dashed line and B's as the solid one, and the table under it puts them \
                         side by side.\n\n\
                         Play to 2:00. Without the limit Karpenter launches two more t3.small \
                         spot nodes: no replica stays Pending, and the bill is higher by their \
                         price, every hour (see $/month). With it, the bill is capped and two \
                         pods wait. Under **Pods placed differently**, **Explain** tells why a \
                         busybox pod runs in B.\n\n\
                         Edit B (try `cpu: \"12\"`) and watch both sides follow. **Edit A \
                         instead** swaps them; **Stop comparing** keeps B.",
                    ko: "이 단계는 두 실행을 한 시계로 비교합니다. **A**는 원래의 한도 랩이고, \
                         편집기에 있는 **B**는 같은 랩에서 `platform` 풀의 `limits` 블록을 뺀 \
                         것입니다. 차트는 A의 비용을 점선으로, B의 비용을 실선으로 그리고, 그 \
                         아래 표가 둘을 나란히 보여 줍니다.\n\n\
                         2:00까지 재생하세요. 한도가 없으면 Karpenter는 t3.small 스팟 노드를 두 \
                         대 더 띄웁니다. Pending으로 남는 레플리카는 없고, 요금은 두 노드의 \
                         가격만큼 매시간 더 나옵니다($/월을 보세요). 한도가 있으면 요금에 상한이 \
                         생기고 파드 두 개가 기다립니다. **다르게 배치된 파드**에서 **설명**을 \
                         누르면 B에서 busybox 파드가 왜 실행되는지 알려 줍니다.\n\n\
                         B를 고쳐 보세요(`cpu: \"12\"`). 양쪽이 함께 따라옵니다. **A를 \
                         편집하기**는 둘을 맞바꾸고, **비교 끝내기**는 B를 남깁니다.",
                },
            },
        ],
    },
    Lesson {
        id: "multiarch-batch",
        title: Text {
            en: "A multi-arch general pool and a spot batch pool",
            ko: "멀티 아키텍처 범용 풀과 스팟 배치 풀",
        },
        summary: Text {
            en: "Where a batch Job lands when it only tolerates its pool's taint, and \
                 the one line that fixes it.",
            ko: "배치 Job이 풀의 테인트만 용인할 때 어디에 배치되는지, 그리고 \
                 이를 고치는 한 줄을 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::BatchJob,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Two pools for two kinds of work",
                    ko: "두 종류의 작업, 두 개의 풀",
                },
                body: Text {
                    en: "`general-multiarch` allows amd64 and arm64, on-demand and spot, in the \
                         `t`, `m` and `c` families, with no taint: anything may land there.\n\n\
                         `batch-spot` is spot only, labelled `workload=batch`, and tainted \
                         `workload=batch:NoSchedule` so that ordinary pods stay out.",
                    ko: "`general-multiarch`는 amd64와 arm64, 온디맨드와 스팟, \
                         `t`·`m`·`c` 계열을 허용하고 테인트가 없습니다. 어떤 파드든 \
                         들어올 수 있습니다.\n\n`batch-spot`은 스팟 전용이고 레이블 \
                         `workload=batch`가 있으며, 일반 파드가 들어오지 못하도록 \
                         `workload=batch:NoSchedule` 테인트가 걸려 있습니다.",
                },
            },
            Step {
                lab: Lab::BatchJob,
                compare: None,
                exercise: Some(&BATCH_JOB_WEIGHT),
                title: Text {
                    en: "The Job as written",
                    ko: "원문 그대로의 Job",
                },
                body: Text {
                    en: "The Job tolerates the batch taint but selects nothing. Press Play and see \
                         where it lands: in `general-multiarch`, not in `batch-spot`.\n\n\
                         A toleration is permission, not a destination. Karpenter tries NodePools \
                         by weight, highest first, and breaks ties by name in reverse alphabetical \
                         order. Both weights are 0, `general-multiarch` sorts after `batch-spot`, \
                         so it is tried first, and it accepts the pod.",
                    ko: "이 Job은 배치 테인트를 용인하지만 아무 풀도 지정하지 않습니다. 재생을 \
                         눌러 어디에 배치되는지 보세요. `batch-spot`이 아니라 \
                         `general-multiarch`로 갑니다.\n\ntoleration은 허락일 뿐 목적지가 \
                         아닙니다. Karpenter는 가중치가 높은 NodePool부터 시도하고, 가중치가 \
                         같으면 이름의 역순(알파벳 내림차순)으로 시도합니다. 두 풀의 가중치가 모두 \
                         0이고 `general-multiarch`가 `batch-spot`보다 뒤에 정렬되므로 먼저 \
                         시도되고, 이 풀이 파드를 받아들입니다.",
                },
            },
            Step {
                lab: Lab::BatchJobFixed,
                compare: None,
                exercise: None,
                title: Text {
                    en: "The fix: select the pool too",
                    ko: "해결: 풀도 지정하기",
                },
                body: Text {
                    en: "This version adds `nodeSelector: {workload: batch}` to the Job's pod \
                         template. `general-multiarch` does not have that label, so only \
                         `batch-spot` is eligible: the Job gets a spot node, labelled and tainted \
                         for batch.\n\nTo pin a workload to a dedicated pool, give it both: the \
                         toleration to get in, and a selector so nothing else qualifies.",
                    ko: "이 버전은 Job의 파드 템플릿에 `nodeSelector: {workload: batch}`를 \
                         추가했습니다. `general-multiarch`에는 이 레이블이 없으므로 `batch-spot`만 \
                         남고, Job은 배치용 레이블과 테인트가 붙은 스팟 노드를 받습니다.\n\n\
                         워크로드를 전용 풀에 고정하려면 둘 다 필요합니다. 들어가기 위한 \
                         toleration과, 다른 풀이 후보가 되지 않도록 하는 selector입니다.",
                },
            },
            Step {
                lab: Lab::BatchJobFixed,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Jobs finish",
                    ko: "Job은 끝난다",
                },
                body: Text {
                    en: "The Job's pod runs for 60 seconds and completes, and its node is left \
                         empty. Once the pool's `consolidateAfter` (30 seconds) has passed, \
                         Karpenter removes it, and the cost goes back to zero.\n\n\
                         Try raising the Job's `parallelism` and `completions` to 5 and play \
                         again: how many nodes, and which types?",
                    ko: "Job의 파드는 60초 동안 실행된 뒤 완료되고, 노드는 빈 채로 남습니다. 풀의 \
                         `consolidateAfter`(30초)가 지나면 Karpenter가 이 노드를 정리하고, 비용은 \
                         다시 0이 됩니다.\n\nJob의 `parallelism`과 `completions`를 5로 올리고 다시 \
                         재생해 보세요. 노드가 몇 대, 어떤 인스턴스 유형으로 뜨나요?",
                },
            },
            Step {
                lab: Lab::SpotShortage,
                compare: None,
                exercise: None,
                title: Text {
                    en: "When spot runs out",
                    ko: "스팟이 바닥나면",
                },
                body: Text {
                    en: "The same two pools, a two-replica `web` Deployment beside the Job, and a \
                         Timeline step, `insufficientCapacity: {capacityType: spot, for: 6m}`: for \
                         six minutes EC2 has no spot capacity anywhere.\n\n\
                         Play and open Events. Each spot launch comes back \
                         `InsufficientCapacityError` and its NodeClaim is deleted. The AWS \
                         provider remembers every offering that failed for 3 minutes, so the next \
                         try, seconds later, picks others. `general-multiarch` allows on-demand, \
                         so `web` soon runs on an on-demand node. `batch-spot` is spot only: the \
                         Job waits, and Karpenter tries again each time the memory of a failed \
                         offering runs out.\n\nWhen spot returns, the Job gets its spot node, and \
                         consolidation swaps the on-demand node for a cheaper spot one. Click a \
                         node to see which offerings had no capacity. Try `instanceType` or `zone` \
                         in the step to take away just one offering.",
                    ko: "같은 두 풀에, Job 옆에 복제본 2개짜리 `web` Deployment와 Timeline 단계 \
                         `insufficientCapacity: {capacityType: spot, for: 6m}`를 더했습니다. 6분 \
                         동안 EC2 어디에도 스팟 용량이 없습니다.\n\n재생하고 Events를 열어 보세요. \
                         스팟 실행은 매번 `InsufficientCapacityError`로 돌아오고 그 NodeClaim은 \
                         삭제됩니다. AWS 프로바이더는 실패한 오퍼링을 3분 동안 기억하므로, 몇 초 \
                         뒤의 다음 시도는 다른 오퍼링을 고릅니다. `general-multiarch`는 온디맨드를 \
                         허용하므로 `web`은 곧 온디맨드 노드에서 실행됩니다. `batch-spot`은 스팟 \
                         전용이라 Job은 기다리고, Karpenter는 실패한 오퍼링의 기억이 끝날 때마다 \
                         다시 시도합니다.\n\n스팟이 돌아오면 Job은 스팟 노드를 받고, 통합이 \
                         온디맨드 노드를 더 싼 스팟 노드로 바꿉니다. 노드를 클릭하면 어떤 오퍼링에 \
                         용량이 없었는지 볼 수 있습니다. 단계에 `instanceType`이나 `zone`을 넣어 \
                         오퍼링 하나만 없애 보세요.",
                },
            },
        ],
    },
    Lesson {
        id: "v1beta1-to-v1",
        title: Text {
            en: "From v1beta1 to v1",
            ko: "v1beta1에서 v1으로",
        },
        summary: Text {
            en: "Course manifests written for Karpenter v0.3x: what changed in \
                 v1, and how to move them over.",
            ko: "Karpenter v0.3x 시절에 쓴 강의 매니페스트: v1에서 무엇이 \
                 바뀌었고 어떻게 옮기는지 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::V1beta1,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Read the findings",
                    ko: "지적 사항 읽기",
                },
                body: Text {
                    en: "These are the hello-world manifests exactly as the first article wrote \
                         them, in `karpenter.sh/v1beta1`. A v1 cluster rejects them; the \
                         playground reads them with their v1 meaning, so Play still works, and \
                         marks each difference as a warning at its field. Open Problems below the \
                         editor.\n\n- Both `apiVersion`s are now `v1`.\n\
                         - The EC2NodeClass picks its AMI with `amiSelectorTerms` and an alias \
                         such as `al2023@latest` instead of `amiFamily`.\n\
                         - `nodeClassRef` needs `group` and `kind` as well as `name`.\n\
                         - `WhenUnderutilized` is renamed `WhenEmptyOrUnderutilized`.\n\
                         - v1beta1 rejected `consolidateAfter` together with `WhenUnderutilized`, \
                         so the article's manifest would not have applied as written. v1 accepts \
                         it, and requires it in any `disruption` block you write; leave the whole \
                         block out and v1 fills in `consolidateAfter: 0s`, \
                         `WhenEmptyOrUnderutilized` and a `nodes: 10%` budget, which is what \
                         v1beta1 did by default.",
                    ko: "첫 번째 글이 쓴 그대로의 hello-world 매니페스트이며 \
                         `karpenter.sh/v1beta1`입니다. v1 클러스터는 이를 거부합니다. \
                         플레이그라운드는 v1의 의미로 읽기 때문에 재생은 되지만, 달라진 곳마다 \
                         해당 필드에 경고를 붙입니다. 편집기 아래의 Problems를 열어 보세요.\n\n\
                         - 두 `apiVersion` 모두 이제 `v1`입니다.\n- EC2NodeClass는 `amiFamily` \
                         대신 `amiSelectorTerms`와 `al2023@latest` 같은 alias로 AMI를 고릅니다.\n\
                         - `nodeClassRef`에는 `name`과 함께 `group`과 `kind`가 있어야 합니다.\n\
                         - `WhenUnderutilized`의 이름이 `WhenEmptyOrUnderutilized`로 바뀌었습니다.\
                         \n- v1beta1은 `consolidateAfter`를 `WhenUnderutilized`와 함께 쓰는 것을 \
                         거부했으므로, 글의 매니페스트는 쓰인 그대로는 적용되지 않았을 것입니다. \
                         v1은 이를 받아들이며, 직접 쓴 `disruption` 블록 안에서는 필수 항목입니다. \
                         블록 전체를 빼면 v1이 `consolidateAfter: 0s`, `WhenEmptyOrUnderutilized`, \
                         `nodes: 10%` 예산을 채워 넣는데, 이는 v1beta1의 기본 동작과 같습니다.",
                },
            },
            Step {
                lab: Lab::V1beta1,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Migrate to v1",
                    ko: "v1으로 옮기기",
                },
                body: Text {
                    en: "Press **Migrate to v1** in Problems. The playground rewrites only what \
                         v1 changed, in place: your comments, order and quoting stay. Each \
                         changed tab is shown side by side, old on the left and new on the right, \
                         with the list of changes. Anything it cannot do for you is marked as \
                         needing a person. Accept it, and the warnings are gone and the \
                         simulation runs the same cluster as before.\n\n\
                         The same rewrite works on the command line: `kpg migrate manifests.yaml \
                         > v1.yaml`. It prints each change with its line to stderr.",
                    ko: "Problems에서 **v1으로 옮기기**를 누르세요. 플레이그라운드는 v1에서 바뀐 \
                         부분만 제자리에서 고쳐 씁니다. 주석, 순서, 따옴표는 그대로 남습니다. 바뀐 \
                         탭마다 왼쪽에 이전, 오른쪽에 새 내용을 나란히 보여 주고 변경 목록을 함께 \
                         보여 줍니다. 자동으로 할 수 없는 일은 사람이 해야 한다고 표시합니다. \
                         수락하면 경고가 사라지고, 시뮬레이션은 이전과 같은 클러스터를 돌립니다.\n\
                         \n명령줄에서도 똑같이 고칠 수 있습니다. `kpg migrate manifests.yaml > \
                         v1.yaml`을 실행하면 각 변경을 줄 번호와 함께 stderr로 출력합니다.",
                },
            },
            Step {
                lab: Lab::V1beta1Batch,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Two pools, one node class",
                    ko: "풀 두 개, 노드 클래스 하나",
                },
                body: Text {
                    en: "The third article's cluster, also in v1beta1: a multi-arch general pool \
                         and a tainted spot pool for batch Jobs, both pointing at one \
                         EC2NodeClass, plus the article's Job. Read the nine findings, then \
                         migrate. Both `nodeClassRef`s gain their `group` and `kind`, both \
                         policies are renamed, and the Job is left exactly as it was.\n\n\
                         Play it after accepting. The Job still lands in the general pool, not in \
                         the batch pool: migrating the API version does not change what the \
                         manifests mean. The lesson \"A multi-arch general pool and a spot batch \
                         pool\" explains why and fixes it.",
                    ko: "세 번째 글의 클러스터도 v1beta1로 되어 있습니다. 멀티 아키텍처 범용 풀과 \
                         배치 Job용 테인트가 걸린 스팟 풀이 EC2NodeClass 하나를 함께 가리키고, \
                         글의 Job이 있습니다. 아홉 가지 지적 사항을 읽은 뒤 옮겨 보세요. 두 \
                         `nodeClassRef` 모두 `group`과 `kind`를 얻고, 두 정책 이름이 바뀌며, Job은 \
                         그대로 남습니다.\n\n수락한 뒤 재생해 보세요. Job은 여전히 배치 풀이 \
                         아니라 범용 풀에 올라갑니다. API 버전을 옮긴다고 매니페스트의 의미가 \
                         바뀌지는 않습니다. 이유와 고치는 방법은 \"멀티 아키텍처 범용 풀과 스팟 \
                         배치 풀\" 레슨에서 다룹니다.",
                },
            },
        ],
    },
    Lesson {
        id: "teardown",
        title: Text {
            en: "Tearing down without leaving EC2 behind",
            ko: "EC2를 남기지 않고 정리하기",
        },
        summary: Text {
            en: "Workloads, then the NodePool, then the EC2NodeClass: the order that leaves no \
                 instance running before `terraform destroy`.",
            ko: "워크로드, NodePool, EC2NodeClass 순서로 지워야 `terraform destroy` 전에 \
                 인스턴스가 하나도 남지 않습니다.",
        },
        steps: &[
            Step {
                lab: Lab::Teardown,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Nodes Terraform does not know about",
                    ko: "Terraform이 모르는 노드",
                },
                body: Text {
                    en: "Karpenter launches its EC2 instances itself, so they are in no Terraform \
                         state: `terraform destroy` would leave them running, and billing. They \
                         have to be cleaned up while Karpenter still runs.\n\nThis cluster has no \
                         managed node group, so every node in the lanes is Karpenter's: three \
                         `t3a.small` nodes, one `web` pod on each, $0.0564 per hour on the cost \
                         chart.",
                    ko: "Karpenter는 EC2 인스턴스를 직접 띄우기 때문에 이 인스턴스들은 어떤 \
                         Terraform state에도 없습니다. `terraform destroy`를 해도 그대로 남아 \
                         요금이 계속 나갑니다. 그래서 Karpenter가 살아 있을 때 먼저 정리해야 \
                         합니다.\n\n이 클러스터에는 관리형 노드 그룹이 없어서 레인의 노드는 모두 \
                         Karpenter가 띄운 것입니다. `t3a.small` 세 대에 `web` 파드가 하나씩 있고, \
                         비용 차트는 시간당 $0.0564를 가리킵니다.",
                },
            },
            Step {
                lab: Lab::Teardown,
                compare: None,
                exercise: None,
                title: Text {
                    en: "The right order",
                    ko: "올바른 순서",
                },
                body: Text {
                    en: "Press Play. At 3:00 a Timeline step deletes the `web` Deployment, and the \
                         three nodes are left empty. Once `consolidateAfter` (30 seconds) has \
                         passed, Karpenter removes them one at a time, since the default budget \
                         (`nodes: 10%` of three, rounded up) allows one: open Events and read the \
                         three `Disrupting ... Empty` lines. The cost line reaches $0 at about \
                         4:53.\n\nThe NodePool is deleted at 6:00 and the EC2NodeClass at 7:00, \
                         and neither waits: no NodeClaim is left to wait for.",
                    ko: "재생을 눌러 보세요. 3:00에 Timeline 단계가 `web` Deployment를 삭제하면 \
                         노드 세 대가 비게 됩니다. `consolidateAfter`(30초)가 지나면 Karpenter가 \
                         노드를 한 대씩 정리합니다. 기본 예산(`nodes: 10%`, 세 대면 올림해서 한 \
                         대)이 한 번에 한 대만 허용하기 때문입니다. Events를 열어 `Disrupting ... \
                         Empty` 세 줄을 확인해 보세요. 비용 선은 4:53쯤 $0에 닿습니다.\n\n\
                         NodePool은 6:00에, EC2NodeClass는 7:00에 삭제되는데, 둘 다 기다리지 \
                         않습니다. 기다릴 NodeClaim이 하나도 남아 있지 않기 때문입니다.",
                },
            },
            Step {
                lab: Lab::Teardown,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Check it as the article does",
                    ko: "원문처럼 확인하기",
                },
                body: Text {
                    en: "The article ends its checklist with `kubectl get nodeclaims`, which must \
                         come back empty, and an `aws ec2 describe-instances` filtered on the \
                         `karpenter.sh/nodepool` tag.\n\nOpen the Terminal and move the clock: at \
                         5:00 `kubectl get nodeclaims` prints `No resources found`; at 6:30 \
                         `kubectl get ec2nodeclass` still lists `default` while `kubectl get \
                         nodepools` is empty; at 7:30 both are gone. Here the empty NodeClaim list \
                         and the $0 line stand in for the EC2 console.",
                    ko: "원문의 체크리스트는 `kubectl get nodeclaims`가 비어 있는지, 그리고 \
                         `karpenter.sh/nodepool` 태그로 거른 `aws ec2 describe-instances` 결과가 \
                         비어 있는지 확인하며 끝납니다.\n\n터미널을 열고 시계를 옮겨 보세요. \
                         5:00에는 `kubectl get nodeclaims`가 `No resources found`를 출력합니다. \
                         6:30에는 `kubectl get nodepools`는 비어 있지만 `kubectl get \
                         ec2nodeclass`에는 아직 `default`가 보이고, 7:30에는 둘 다 없습니다. \
                         여기서는 비어 있는 NodeClaim 목록과 $0인 비용 선이 EC2 콘솔을 대신합니다.",
                },
            },
            Step {
                lab: Lab::TeardownWrongOrder,
                compare: Some(Lab::Teardown),
                exercise: None,
                title: Text {
                    en: "The wrong order: the class first",
                    ko: "잘못된 순서: 클래스부터",
                },
                body: Text {
                    en: "B, in the editor, deletes the EC2NodeClass first, at 3:00, while three \
                         NodeClaims still use it. Nothing happens to the nodes: the class waits on \
                         its finalizer (Events: `Waiting`, \"waiting on NodeClaim termination for \
                         ...\"), and on the cost chart B's solid line stays at $0.0564 long after \
                         A's dashed line has dropped to zero.\n\nIn the Terminal, `kubectl get \
                         ec2nodeclass default -o yaml` shows its `deletionTimestamp`, and `kubectl \
                         describe nodepool default` shows `NodeClassReady` False. A pool without a \
                         usable class launches nothing: the replica added at 4:00 stays in the \
                         Pending tray (hover it: `no nodepools found`).",
                    ko: "편집기에 있는 B는 NodeClaim 세 개가 아직 쓰고 있는데도 3:00에 \
                         EC2NodeClass부터 삭제합니다. 노드에는 아무 일도 일어나지 않습니다. \
                         클래스는 finalizer 때문에 기다리고(Events의 `Waiting`, \"waiting on \
                         NodeClaim termination for ...\"), 비용 차트에서 A의 점선이 0으로 떨어진 \
                         뒤에도 B의 실선은 한참 동안 $0.0564에 머뭅니다.\n\n터미널에서 `kubectl \
                         get ec2nodeclass default -o yaml`을 실행하면 `deletionTimestamp`가 \
                         보이고, `kubectl describe nodepool default`에는 `NodeClassReady`가 \
                         False로 나옵니다. 쓸 수 있는 클래스가 없는 풀은 노드를 띄우지 못하므로, \
                         4:00에 늘어난 레플리카는 Pending 트레이에 남습니다(마우스를 올리면 `no \
                         nodepools found`가 보입니다).",
                },
            },
            Step {
                lab: Lab::TeardownWrongOrder,
                compare: Some(Lab::Teardown),
                exercise: Some(&TEARDOWN_IN_ORDER),
                title: Text {
                    en: "The NodePool takes its nodes with it",
                    ko: "NodePool은 노드를 데리고 사라진다",
                },
                body: Text {
                    en: "At 6:00 the NodePool is deleted, and its NodeClaims with it: all three \
                         nodes drain at once (no budget applies to a deleted pool), and the \
                         running pods are evicted with nowhere to go, so four `web` pods wait in \
                         the Pending tray. The EC2NodeClass's finalizer lets go only when the last \
                         instance is gone, at about 6:42.\n\nB also ends at $0, but later, with \
                         more spent (compare the two totals under the chart), and the app went \
                         down on the way.",
                    ko: "6:00에 NodePool이 삭제되면 그 NodeClaim도 함께 삭제됩니다. 삭제된 풀에는 \
                         예산이 적용되지 않으므로 노드 세 대가 한꺼번에 드레인되고, 실행 중이던 \
                         파드는 갈 곳 없이 축출되어 `web` 파드 네 개가 Pending 트레이에서 \
                         기다립니다. EC2NodeClass의 finalizer는 마지막 인스턴스가 사라진 \
                         6:42쯤에야 풀립니다.\n\nB도 결국 $0이 되지만 더 늦게, 더 많이 쓴 \
                         뒤이고(차트 아래의 두 합계를 비교해 보세요), 그 사이 앱은 한 번 \
                         멈췄습니다.",
                },
            },
        ],
    },
    Lesson {
        id: "drift",
        title: Text {
            en: "Drift: a new AMI rolls the nodes",
            ko: "드리프트: 새 AMI가 노드를 바꾼다",
        },
        summary: Text {
            en: "What `al2023@latest` does when AWS publishes an AMI, and how disruption budgets \
                 pace the replacement and hold it for a window.",
            ko: "AWS가 새 AMI를 내면 `al2023@latest`가 무엇을 하는지, 그리고 중단 예산이 교체 \
                 속도와 시간대를 어떻게 정하는지 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::Drift,
                compare: None,
                exercise: None,
                title: Text {
                    en: "`@latest` moves",
                    ko: "`@latest`는 움직인다",
                },
                body: Text {
                    en: "The EC2NodeClass picks its AMI with the alias `al2023@latest`. At 2:00 a \
                         Timeline step (`releaseAmi`) publishes a new Amazon Linux 2023 AMI, and \
                         the alias now points at it. The four nodes were launched with the old \
                         one, so all four are now Drifted: Events shows `AMIReleased` and four \
                         `Drifted` lines with the reason `AMIDrift`.\n\nIn the Terminal, `kubectl \
                         get nodeclaims -o wide` shows the `IMAGEID` each node runs and `DRIFTED` \
                         True.",
                    ko: "EC2NodeClass는 `al2023@latest`라는 alias로 AMI를 고릅니다. 2:00에 \
                         Timeline 단계(`releaseAmi`)가 새 Amazon Linux 2023 AMI를 내놓으면 alias는 \
                         이제 그 AMI를 가리킵니다. 노드 네 대는 이전 AMI로 떠 있으므로 모두 \
                         Drifted 상태가 됩니다. Events에 `AMIReleased` 한 줄과 사유가 `AMIDrift`인 \
                         `Drifted` 네 줄이 보입니다.\n\n터미널에서 `kubectl get nodeclaims -o \
                         wide`를 실행하면 각 노드의 `IMAGEID`와 `DRIFTED` True를 볼 수 있습니다.",
                },
            },
            Step {
                lab: Lab::Drift,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A change freeze",
                    ko: "변경 금지 시간대",
                },
                body: Text {
                    en: "Nothing is replaced yet. The NodePool's second budget is `nodes: \"0\"` \
                         for `Drifted` with `schedule: \"@daily\"` and `duration: 6m`: no drift \
                         replacement from 00:00 to 00:06 UTC every day. Karpenter reads schedules \
                         in UTC, and the playground's clock starts at 00:00 UTC, so the freeze \
                         covers the lab's first six minutes.\n\nThe lanes stay still from 2:00 to \
                         6:00 although every node is Drifted. Consolidation is not frozen: both \
                         budgets name only `Drifted`.",
                    ko: "아직 아무것도 교체되지 않습니다. NodePool의 두 번째 예산은 `Drifted`에 \
                         대해 `nodes: \"0\"`이고 `schedule: \"@daily\"`, `duration: 6m`입니다. \
                         매일 UTC 00:00부터 00:06까지는 드리프트 교체를 하지 않는다는 뜻입니다. \
                         Karpenter는 스케줄을 UTC로 읽고 플레이그라운드의 시계는 UTC 00:00에서 \
                         시작하므로, 이 금지 시간대가 실습의 처음 6분을 덮습니다.\n\n모든 노드가 \
                         Drifted인데도 2:00부터 6:00까지 레인은 그대로입니다. 두 예산 모두 \
                         `Drifted`만 지정했으므로 통합(consolidation)은 막히지 않습니다.",
                },
            },
            Step {
                lab: Lab::Drift,
                compare: None,
                exercise: Some(&DRIFT_TWO_AT_A_TIME),
                title: Text {
                    en: "One node at a time",
                    ko: "한 번에 한 대씩",
                },
                body: Text {
                    en: "At 6:00 the window closes and the first budget, `nodes: \"1\"`, takes \
                         over. Karpenter launches a replacement first (drawn dashed), and drains \
                         and terminates the old node only once the new one is initialized; so \
                         while a pair overlaps, the lanes show five nodes and the cost chart a \
                         small bump to $0.094.\n\nThe four replacements start at 6:00, 7:40, 9:10 \
                         and 10:50; by 12:10 every node runs the new AMI, and the Pending tray \
                         stayed empty the whole time.",
                    ko: "6:00에 금지 시간대가 끝나면 첫 번째 예산 `nodes: \"1\"`이 적용됩니다. \
                         Karpenter는 대체 노드를 먼저 띄우고(점선), 새 노드가 초기화된 다음에야 \
                         이전 노드를 드레인하고 종료합니다. 그래서 두 노드가 겹치는 동안 레인에는 \
                         노드가 다섯 대 보이고 비용 차트는 $0.094로 살짝 올라갑니다.\n\n교체는 \
                         6:00, 7:40, 9:10, 10:50에 시작하고, 12:10이면 모든 노드가 새 AMI로 돌며, \
                         그동안 Pending 트레이는 한 번도 차지 않습니다.",
                },
            },
            Step {
                lab: Lab::Drift,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Pin the AMI in production",
                    ko: "운영에서는 AMI 버전 고정",
                },
                body: Text {
                    en: "The article's advice: `@latest` is handy for a lab, but in production pin \
                         a version and choose when to move. With a pinned alias a new release \
                         changes nothing: the nodes keep the AMI they were launched with until you \
                         edit the alias, and that edit is what drifts them, inside your budgets \
                         and windows.",
                    ko: "원문의 조언처럼 `@latest`는 실습에는 편하지만 운영에서는 버전을 고정하고 \
                         옮길 시점을 직접 정하는 편이 좋습니다. alias를 고정하면 새 AMI가 나와도 \
                         아무 일도 일어나지 않습니다. 노드는 처음 뜬 AMI를 계속 쓰고, alias를 직접 \
                         고치는 순간에 드리프트가 일어나며, 그때도 예산과 시간대를 따릅니다.",
                },
            },
        ],
    },
    Lesson {
        id: "spot-fallback",
        title: Text {
            en: "When spot gets scarce: another zone, another type, then on-demand",
            ko: "스팟이 부족할 때: 다른 가용 영역, 다른 인스턴스 유형, 그리고 온디맨드",
        },
        summary: Text {
            en: "A spot interruption and two capacity shortages, one after the other: how far \
                 Karpenter falls back, and how it comes back.",
            ko: "스팟 회수와 두 번의 용량 부족이 차례로 일어날 때 Karpenter가 어디까지 물러서고 \
                 어떻게 돌아오는지 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::SpotFallback,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Three types, two capacity types",
                    ko: "인스턴스 유형 셋, 용량 유형 둘",
                },
                body: Text {
                    en: "The NodePool `web` allows three 2-vCPU types, `c6a.large`, `c6i.large` \
                         and `c7i.large`, both spot and on-demand, in three zones of us-east-1. \
                         Each `web` replica requests 1.5 vCPU, so it needs a node of its own.\n\n\
                         When both capacity types are allowed, Karpenter prefers spot: the first \
                         three nodes are `c6a.large` spot, the cheapest pool, at $0.078 an hour \
                         for the three.",
                    ko: "NodePool `web`은 2 vCPU 인스턴스 유형 세 가지(`c6a.large`, `c6i.large`, \
                         `c7i.large`)를 스팟과 온디맨드 모두로, us-east-1의 세 가용 영역에서 \
                         허용합니다. `web` 레플리카는 각각 1.5 vCPU를 요청하므로 노드 하나를 혼자 \
                         씁니다.\n\n두 용량 유형이 모두 허용되면 Karpenter는 스팟을 고릅니다. 처음 \
                         뜨는 세 노드는 가장 싼 풀인 `c6a.large` 스팟이고, 세 대에 시간당 \
                         $0.078입니다.",
                },
            },
            Step {
                lab: Lab::SpotFallback,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A spot interruption: another zone",
                    ko: "스팟 회수: 다른 가용 영역으로",
                },
                body: Text {
                    en: "At 1:30 EC2 reclaims the oldest spot node (Events: `SpotInterrupted`, two \
                         minutes' notice). Karpenter does not wait for the two minutes: it drains \
                         the node at once, and the AWS provider marks that offering (`c6a.large`, \
                         that zone, spot) unavailable for three minutes.\n\nSo the replacement is \
                         the same type, still spot, in another zone. Click the new node: Explain \
                         says one offering was left out because a spot interruption found no \
                         capacity there.",
                    ko: "1:30에 EC2가 가장 오래된 스팟 노드를 회수합니다(Events의 \
                         `SpotInterrupted`, 2분 전 통지). Karpenter는 2분을 기다리지 않고 바로 \
                         노드를 드레인하고, AWS 프로바이더는 그 오퍼링(`c6a.large`, 해당 가용 \
                         영역, 스팟)을 3분 동안 쓸 수 없다고 표시합니다.\n\n그래서 대체 노드는 \
                         같은 인스턴스 유형의 스팟이지만 다른 가용 영역에 뜹니다. 새 노드를 \
                         클릭하면 Explain에 스팟 회수로 용량이 없었던 오퍼링 하나가 제외되었다고 \
                         나옵니다.",
                },
            },
            Step {
                lab: Lab::SpotFallback,
                compare: None,
                exercise: Some(&SPOT_SHORTAGE_ONE_ZONE),
                title: Text {
                    en: "A type runs out: another type",
                    ko: "인스턴스 유형이 바닥나면: 다른 인스턴스 유형으로",
                },
                body: Text {
                    en: "At 3:00 `c6a.large` spot runs out in every zone and a second node is \
                         reclaimed. This time no launch fails: the fleet request lists every spot \
                         pool of the three types by price, and EC2 skips the empty ones.\n\nThe \
                         replacement is a `c6i.large` spot, a little dearer ($0.081 an hour for \
                         the three nodes). Explain on that node names the pool that had no \
                         capacity and says Karpenter now leaves it out for three minutes.",
                    ko: "3:00에 `c6a.large` 스팟이 모든 가용 영역에서 바닥나고 두 번째 노드가 \
                         회수됩니다. 이번에는 실패한 실행이 없습니다. fleet 요청에는 세 인스턴스 \
                         유형의 스팟 풀이 가격순으로 모두 들어 있고, EC2는 빈 풀을 건너뜁니다.\n\n\
                         대체 노드는 조금 더 비싼 `c6i.large` 스팟입니다(세 노드에 시간당 $0.081). \
                         그 노드의 Explain은 용량이 없던 풀을 짚고, Karpenter가 그 풀을 3분 동안 \
                         뺀다고 알려 줍니다.",
                },
            },
            Step {
                lab: Lab::SpotFallback,
                compare: None,
                exercise: None,
                title: Text {
                    en: "No spot anywhere: on-demand",
                    ko: "스팟이 전혀 없으면: 온디맨드로",
                },
                body: Text {
                    en: "At 4:30 spot runs out everywhere for three minutes, and a third node is \
                         reclaimed. Now the spot launch fails: Events shows \
                         `InsufficientCapacityError`, the NodeClaim is deleted, and every spot \
                         offering it tried is marked unavailable.\n\nTen seconds later the next \
                         NodeClaim launches on-demand, as `c6a.large`, the cheapest on-demand \
                         type. The pod waits in the Pending tray for about a minute, and the cost \
                         chart jumps to $0.131 an hour.",
                    ko: "4:30에 모든 스팟이 3분 동안 바닥나고 세 번째 노드가 회수됩니다. 이번에는 \
                         스팟 실행이 실패합니다. Events에 `InsufficientCapacityError`가 뜨고 \
                         NodeClaim은 삭제되며, 시도했던 스팟 오퍼링은 모두 쓸 수 없다고 \
                         표시됩니다.\n\n10초 뒤 다음 NodeClaim은 가장 싼 온디맨드 인스턴스 유형인 \
                         `c6a.large` 온디맨드로 뜹니다. 파드는 1분쯤 Pending 트레이에서 기다리고, \
                         비용 차트는 시간당 $0.131로 뜁니다.",
                },
            },
            Step {
                lab: Lab::SpotFallback,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Back to spot",
                    ko: "다시 스팟으로",
                },
                body: Text {
                    en: "Spot returns at 7:30, and consolidation replaces the on-demand node with \
                         a cheaper spot one. Such a replacement is pinned to spot, so when its \
                         first launch finds `c6a.large` still short, the command is dropped \
                         (`DisruptionFailed`) rather than buying another on-demand node; the next \
                         try lands on `c6i.large` spot, and the on-demand node is gone at about \
                         9:36 ($0.084 an hour).\n\nTry making the pool spot only (`values: \
                         [\"spot\"]`): the third pod then waits in the Pending tray from 4:30 to \
                         8:28. That wait is what the on-demand fallback buys.",
                    ko: "7:30에 스팟이 돌아오면 통합이 온디맨드 노드를 더 싼 스팟 노드로 바꿉니다. \
                         이런 교체는 스팟으로 고정되므로, 첫 실행에서 `c6a.large`가 여전히 \
                         부족하면 온디맨드를 다시 사지 않고 명령을 버립니다(`DisruptionFailed`). \
                         다음 시도는 `c6i.large` 스팟에 자리를 잡고, 온디맨드 노드는 9:36쯤 \
                         사라집니다(시간당 $0.084).\n\n풀을 스팟 전용(`values: [\"spot\"]`)으로 \
                         바꿔 보세요. 그러면 세 번째 파드가 4:30부터 8:28까지 Pending 트레이에서 \
                         기다립니다. 온디맨드 대체가 막아 주는 것이 바로 이 기다림입니다.",
                },
            },
        ],
    },
    Lesson {
        id: "protect",
        title: Text {
            en: "Protecting workloads from disruption",
            ko: "중단으로부터 워크로드 지키기",
        },
        summary: Text {
            en: "A PodDisruptionBudget, the `karpenter.sh/do-not-disrupt` annotation on a pod and \
                 on a pool's nodes, and the `terminationGracePeriod` that bounds them.",
            ko: "PodDisruptionBudget, 파드와 풀의 노드에 붙이는 `karpenter.sh/do-not-disrupt` \
                 어노테이션, 그리고 이들에 상한을 두는 `terminationGracePeriod`를 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::Protect,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Three brakes and a deadline",
                    ko: "브레이크 셋과 마감 시간 하나",
                },
                body: Text {
                    en: "Karpenter replaces nodes often, so workloads say what they can bear. \
                         `web` has a PodDisruptionBudget: at most one of its three pods down at a \
                         time. `report`, a long task someone started by hand, carries \
                         `karpenter.sh/do-not-disrupt: \"true\"`. The NodePool `pinned` puts the \
                         same annotation in its template, so its node (running `db-0`) carries \
                         it.\n\nBefore 2:00, open Events: `DisruptionBlocked` on both nodes, one \
                         for the pod's annotation and one for the node's.",
                    ko: "Karpenter는 노드를 자주 바꾸므로 워크로드가 어디까지 견딜 수 있는지 알려 \
                         줘야 합니다. `web`에는 PodDisruptionBudget이 있어서 파드 세 개 중 한 번에 \
                         하나까지만 내려갈 수 있습니다. 누군가 직접 띄운 긴 작업 `report`에는 \
                         `karpenter.sh/do-not-disrupt: \"true\"`가 붙어 있습니다. NodePool \
                         `pinned`는 같은 어노테이션을 템플릿에 넣었으므로 그 노드(`db-0`이 도는 \
                         노드)에도 붙습니다.\n\n2:00 전에 Events를 열어 보세요. 두 노드에 \
                         `DisruptionBlocked`가 하나씩 있습니다. 하나는 파드의 어노테이션, 하나는 \
                         노드의 어노테이션 때문입니다.",
                },
            },
            Step {
                lab: Lab::Protect,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A PDB paces the drain",
                    ko: "PDB가 드레인 속도를 정한다",
                },
                body: Text {
                    en: "At 2:00 a new AMI drifts both nodes. The `default` pool gets a \
                         `t3a.medium` replacement, and at 2:42 the old node starts draining. Read \
                         Events: the first `web` pod is evicted, the next two are refused \
                         (\"Cannot evict pod as it would violate the pod's disruption budget\"), \
                         and they follow one at a time once the evicted pod runs on the new node.\n\
                         \nIn the playground a pod is ready the moment it is bound, so the steps \
                         are a second apart; in a real cluster each one waits for the new pod's \
                         readiness probe.",
                    ko: "2:00에 새 AMI가 나와 두 노드 모두 드리프트됩니다. `default` 풀에는 \
                         `t3a.medium` 대체 노드가 뜨고, 2:42에 이전 노드의 드레인이 시작됩니다. \
                         Events를 읽어 보세요. 첫 번째 `web` 파드는 축출되고, 나머지 둘은 \
                         거절됩니다(\"Cannot evict pod as it would violate the pod's disruption \
                         budget\"). 축출된 파드가 새 노드에서 돌기 시작하면 나머지도 하나씩 \
                         뒤따릅니다.\n\n플레이그라운드에서는 파드가 배치되는 순간 준비 상태가 \
                         되므로 1초 간격이지만, 실제 클러스터에서는 새 파드의 readiness probe를 \
                         통과할 때마다 다음 단계로 넘어갑니다.",
                },
            },
            Step {
                lab: Lab::Protect,
                compare: None,
                exercise: None,
                title: Text {
                    en: "do-not-disrupt holds; terminationGracePeriod ends it",
                    ko: "do-not-disrupt는 붙잡고, terminationGracePeriod는 끝낸다",
                },
                body: Text {
                    en: "`report` is never evicted. Without a deadline its annotation would block \
                         the drift outright; but the pool sets `terminationGracePeriod: 5m`, so \
                         drift went ahead and the old node waits in the Deleting state, still \
                         billed, with `report` on it (`kubectl get pods -o wide` at 5:00).\n\nAt \
                         7:42, five minutes into the drain, Karpenter deletes `report` (Events: \
                         \"Deleted pod: terminationGracePeriod\") and the node is gone at about \
                         8:25. `report` was a bare pod: nothing brings it back.",
                    ko: "`report`는 끝까지 축출되지 않습니다. 마감 시간이 없었다면 이 어노테이션이 \
                         드리프트 자체를 막았을 것입니다. 하지만 풀에 `terminationGracePeriod: \
                         5m`이 있으므로 드리프트는 진행되고, 이전 노드는 `report`를 태운 채 \
                         Deleting 상태로 기다리며 요금도 계속 나옵니다(5:00에 `kubectl get pods -o \
                         wide`로 확인해 보세요).\n\n드레인이 시작되고 5분이 지난 7:42에 \
                         Karpenter가 `report`를 삭제하고(Events의 \"Deleted pod: \
                         terminationGracePeriod\"), 노드는 8:25쯤 사라집니다. `report`는 컨트롤러 \
                         없는 파드라서 다시 만들어지지 않습니다.",
                },
            },
            Step {
                lab: Lab::Protect,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A node Karpenter leaves alone",
                    ko: "Karpenter가 건드리지 않는 노드",
                },
                body: Text {
                    en: "The `pinned` node drifted at 2:00 too and is still there: `kubectl get \
                         nodeclaims -o wide` shows it `DRIFTED` True with the old `IMAGEID`, and \
                         `kubectl describe node` shows the annotation it got from the pool's \
                         template. A node-level do-not-disrupt holds every voluntary disruption, \
                         drift included, and `terminationGracePeriod` does not apply because the \
                         node is never deleted. What still removes it: its `expireAfter`, a spot \
                         interruption, or you.\n\nTry removing `terminationGracePeriod` from the \
                         `default` pool: `report` then blocks the drift of its node for good.",
                    ko: "`pinned` 노드도 2:00에 드리프트되었지만 그대로 있습니다. `kubectl get \
                         nodeclaims -o wide`에는 이전 `IMAGEID`와 `DRIFTED` True가 보이고, \
                         `kubectl describe node`에는 풀 템플릿에서 받은 어노테이션이 보입니다. \
                         노드에 붙은 do-not-disrupt는 드리프트를 포함한 모든 자발적 중단을 막고, \
                         노드가 삭제되지 않으니 `terminationGracePeriod`도 적용되지 않습니다. \
                         그래도 이 노드를 없애는 것은 `expireAfter`, 스팟 회수, 그리고 \
                         사람입니다.\n\n`default` 풀에서 `terminationGracePeriod`를 빼 보세요. \
                         그러면 `report`가 자기 노드의 드리프트를 끝까지 막습니다.",
                },
            },
        ],
    },
    Lesson {
        id: "zones",
        title: Text {
            en: "Which zone, and why",
            ko: "어느 가용 영역에, 왜",
        },
        summary: Text {
            en: "A spread over zones, a type that only one zone offers, and a zone with no \
                 capacity: how Karpenter places three replicas.",
            ko: "가용 영역 분산, 한 가용 영역에만 있는 인스턴스 유형, 용량이 없는 가용 영역 속에서 \
                 Karpenter가 레플리카 세 개를 어떻게 배치하는지 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::Zones,
                compare: None,
                exercise: None,
                title: Text {
                    en: "One replica per zone",
                    ko: "가용 영역마다 레플리카 하나",
                },
                body: Text {
                    en: "The `web` Deployment runs in the service pool (a toleration and a node \
                         affinity, as in the 6Gi lab) with three replicas of 1.5 vCPU and 2Gi, one \
                         per node. Its `topologySpreadConstraints` ask for `maxSkew: 1` over \
                         `topology.kubernetes.io/zone`: the zones' counts may differ by at most \
                         one.\n\nThe fixed nodes do not count: the pods require `node=service`, \
                         and a spread only counts the nodes a pod could use.",
                    ko: "`web` Deployment은 service 풀에서 돕니다(6Gi 실습처럼 toleration과 node \
                         affinity가 있습니다). 레플리카 세 개가 각각 1.5 vCPU와 2Gi를 요청하므로 \
                         노드 하나에 하나씩 들어갑니다. `topologySpreadConstraints`는 \
                         `topology.kubernetes.io/zone` 기준으로 `maxSkew: 1`을 요구합니다. 가용 \
                         영역별 파드 수 차이가 1을 넘으면 안 된다는 뜻입니다.\n\n고정 노드는 세지 \
                         않습니다. 파드가 `node=service`를 요구하는데, 분산은 파드가 쓸 수 있는 \
                         노드만 세기 때문입니다.",
                },
            },
            Step {
                lab: Lab::Zones,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A type only some zones offer",
                    ko: "일부 가용 영역에만 있는 인스턴스 유형",
                },
                body: Text {
                    en: "Press Play and look at the node cards. Same pool, same pods, different \
                         types: `c7i-flex.large` is the cheapest type that fits, but of this \
                         cluster's zones only ap-northeast-2b offers it, so 2b gets a \
                         `c7i-flex.large` and 2a an `m7i-flex.large`. Click the 2a node: Explain \
                         lists `c7i-flex.large` as excluded by the zone.\n\nThis is the article's \
                         observation: a managed node group with that type fails in the other \
                         zones, while Karpenter knows which zone offers what.",
                    ko: "재생을 누르고 노드 카드를 보세요. 같은 풀, 같은 파드인데 인스턴스 유형이 \
                         다릅니다. `c7i-flex.large`가 들어가는 인스턴스 유형 중 가장 싸지만, 이 \
                         클러스터의 가용 영역 가운데 이 인스턴스 유형을 제공하는 곳은 \
                         ap-northeast-2b뿐입니다. 그래서 2b에는 `c7i-flex.large`가, 2a에는 \
                         `m7i-flex.large`가 뜹니다. 2a 노드를 클릭하면 Explain에 \
                         `c7i-flex.large`가 가용 영역 때문에 제외되었다고 나옵니다.\n\n원문이 짚은 \
                         지점입니다. 관리형 노드 그룹에 이 인스턴스 유형을 넣으면 다른 가용 \
                         영역에서 실패하지만, Karpenter는 어느 가용 영역이 무엇을 제공하는지 알고 \
                         있습니다.",
                },
            },
            Step {
                lab: Lab::Zones,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A zone with no capacity",
                    ko: "용량이 없는 가용 영역",
                },
                body: Text {
                    en: "A Timeline step takes all capacity away from ap-northeast-2c for five \
                         minutes. The launch for 2c fails at once (Events: \
                         `InsufficientCapacityError`). The spread says `whenUnsatisfiable: \
                         ScheduleAnyway`, a preference, so on the next round Karpenter relaxes it \
                         and puts the pod where it is cheapest: a second `c7i-flex.large` in 2b.\n\
                         \nAll three pods run by about 1:02, two of them in 2b; Explain on that \
                         pod says its preferences had to be relaxed first.",
                    ko: "Timeline 단계가 ap-northeast-2c의 용량을 5분 동안 모두 없앱니다. 2c로 \
                         가는 실행은 바로 실패합니다(Events의 `InsufficientCapacityError`). 분산 \
                         조건이 `whenUnsatisfiable: ScheduleAnyway`, 즉 선호 조건이므로 \
                         Karpenter는 다음 차례에 이를 완화하고 파드를 가장 싼 곳에 둡니다. 2b의 두 \
                         번째 `c7i-flex.large`입니다.\n\n1:02쯤이면 파드 세 개가 모두 돌고, 그중 \
                         둘이 2b에 있습니다. 그 파드의 Explain은 선호 조건을 먼저 완화해야 했다고 \
                         알려 줍니다.",
                },
            },
            Step {
                lab: Lab::Zones,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A strict spread",
                    ko: "엄격한 분산",
                },
                body: Text {
                    en: "Change `ScheduleAnyway` to `DoNotSchedule`. Now the spread is a \
                         requirement and 2c stays a zone Karpenter must fill: the third pod waits \
                         in the Pending tray, Karpenter tries 2c again each time its memory of the \
                         failure expires, and the pod runs only at about 7:08, after 2c is back. A \
                         strict spread buys balance with waiting.",
                    ko: "`ScheduleAnyway`를 `DoNotSchedule`로 바꿔 보세요. 이제 분산은 필수 \
                         조건이고 2c는 Karpenter가 채워야 하는 가용 영역으로 남습니다. 세 번째 \
                         파드는 Pending 트레이에서 기다리고, Karpenter는 실패의 기억이 사라질 \
                         때마다 2c를 다시 시도하며, 파드는 2c가 돌아온 뒤인 7:08쯤에야 실행됩니다. \
                         엄격한 분산은 균형을 얻는 대신 기다림을 치릅니다.",
                },
            },
            Step {
                lab: Lab::Zones,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Nothing moves back",
                    ko: "돌아가지 않는다",
                },
                body: Text {
                    en: "At 5:00 ap-northeast-2c has capacity again, and nothing happens: two pods \
                         stay in 2b. Karpenter places pods when they are pending and removes nodes \
                         it no longer needs; it does not move running pods to rebalance a spread.\n\
                         \nIf the balance matters, something has to evict a pod (a rollout, or a \
                         descheduler); the new pod would then go to 2c.",
                    ko: "5:00에 ap-northeast-2c의 용량이 돌아와도 아무 일도 일어나지 않습니다. \
                         파드 둘은 그대로 2b에 있습니다. Karpenter는 Pending 파드를 배치하고 필요 \
                         없어진 노드를 정리할 뿐, 분산을 맞추려고 실행 중인 파드를 옮기지는 \
                         않습니다.\n\n균형이 중요하다면 무언가가 파드를 내보내야 합니다(롤아웃이나 \
                         descheduler). 그러면 새 파드가 2c로 갑니다.",
                },
            },
        ],
    },
    Lesson {
        id: "karpenter-today",
        title: Text {
            en: "Karpenter as it runs today",
            ko: "지금의 Karpenter",
        },
        summary: Text {
            en: "Choose the Karpenter version, see Balanced consolidation (v1.14) keep a node \
                 that WhenEmptyOrUnderutilized would replace, a static pool beside a capacity \
                 reservation, and warm capacity kept by a CapacityBuffer.",
            ko: "Karpenter 버전을 고르고, WhenEmptyOrUnderutilized라면 대체했을 노드를 \
                 Balanced 통합(v1.14)이 그대로 두는 것과, 용량 예약 옆의 정적 풀, \
                 CapacityBuffer로 데워 둔 용량을 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::Balanced,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A move that saves too little",
                    ko: "아끼는 것이 너무 적은 이동",
                },
                body: Text {
                    en: "The **Karpenter** menu in the top bar says which version the \
                         simulation follows; this lab's Cluster document asks for `v1.14`, the \
                         first with `consolidationPolicy: Balanced`. Choose `v1.13` and the \
                         NodePool is refused: that version's API server has no such policy.\n\n\
                         Play to 5:00. At 2:00 `web` scales down to one replica, which an \
                         m5.large at half the price could hold. Balanced weighs the move: it \
                         saves $0.096/h, 10 % of the pool's cost, and disrupts one node and one \
                         pod, 2 of the pool's 6 units of disruption (33 %). A move must save at \
                         least half as large a share of the cost as it disrupts: 0.10 / 0.33 = \
                         0.30 < 0.5, so the m5.xlarge stays. Select it to read this in its \
                         explanation.",
                    ko: "위쪽 막대의 **Karpenter** 메뉴는 시뮬레이션이 따르는 버전을 알려 \
                         줍니다. 이 랩의 Cluster 문서는 `consolidationPolicy: Balanced`가 처음 \
                         들어온 `v1.14`를 씁니다. `v1.13`을 고르면 NodePool이 거부됩니다. 그 \
                         버전의 API 서버에는 이 정책이 없기 때문입니다.\n\n\
                         5:00까지 재생하세요. 2:00에 `web`이 레플리카 하나로 줄어들고, 절반 \
                         가격인 m5.large 하나면 충분해집니다. Balanced는 이 이동을 따져 봅니다. \
                         시간당 $0.096, 곧 풀 비용의 10 %를 아끼는 대신 노드 하나와 파드 하나를 \
                         중단시킵니다. 풀 전체의 중단 6단위 중 2단위(33 %)입니다. 이동은 일으키는 \
                         중단 비율의 절반 이상을 비용에서 아껴야 합니다. 0.10 / 0.33 = 0.30 < \
                         0.5이므로 m5.xlarge는 남습니다. 노드를 선택하면 설명에서 이 계산을 \
                         읽을 수 있습니다.",
                },
            },
            Step {
                lab: Lab::Balanced,
                compare: Some(Lab::BalancedEager),
                exercise: None,
                title: Text {
                    en: "Balanced against WhenEmptyOrUnderutilized",
                    ko: "Balanced와 WhenEmptyOrUnderutilized 비교",
                },
                body: Text {
                    en: "**A** is the same cluster under `WhenEmptyOrUnderutilized`; **B**, in \
                         the editor, keeps `Balanced`. Play to 5:00. A replaces the m5.xlarge \
                         as soon as a cheaper node would do, and pays for it with a moved pod; B \
                         keeps the node and pays $0.096/h more (see $/month under the chart).\n\n\
                         Now make the move worth it in B: scale `web` to zero at 2:00 instead of \
                         one, or add replicas to `api` so the pool's cost grows. Watch when \
                         Balanced starts to agree.",
                    ko: "**A**는 같은 클러스터를 `WhenEmptyOrUnderutilized`로 돌린 것이고, \
                         편집기의 **B**는 `Balanced`를 유지합니다. 5:00까지 재생하세요. A는 더 싼 \
                         노드로 충분해지는 즉시 m5.xlarge를 대체하고, 그 대가로 파드 하나를 \
                         옮깁니다. B는 노드를 남기고 시간당 $0.096을 더 냅니다(차트 아래의 \
                         $/월을 보세요).\n\n\
                         이제 B에서 이동할 가치가 생기게 해 보세요. 2:00에 `web`을 하나가 아니라 \
                         0으로 줄이거나, `api`에 레플리카를 더해 풀 비용을 키워 보세요. Balanced가 \
                         언제부터 동의하는지 보세요.",
                },
            },
            Step {
                lab: Lab::StaticReserved,
                compare: None,
                exercise: None,
                title: Text {
                    en: "A static pool next to a reservation",
                    ko: "예약 옆의 정적 풀",
                },
                body: Text {
                    en: "Two NodePools share one EC2NodeClass, whose \
                         `capacityReservationSelectorTerms` select the `CapacityReservation` \
                         tagged `purpose: batch`: two m5.xlarge in us-east-1a, until 40:00.\n\n\
                         `baseline` is static (`replicas: 2`): it holds two m5.large whatever \
                         the pods and is never consolidated. `burst` allows `reserved` and \
                         `on-demand`. Play to 1:00: two `batch` replicas land in the \
                         reservation (their cards say reserved; reserved capacity is priced at \
                         almost nothing, so it comes first), and the third waits one round, \
                         because the reservation is full, before it launches on-demand.\n\n\
                         Play to 12:00: `batch` scales down to two at 10:00 and consolidation \
                         deletes the on-demand node, the dearest. Then play past 40:00: the \
                         reservation ends, and its two nodes run on as on-demand at the list \
                         price (watch $/hour). Try `replicas: 3` on `baseline`, or \
                         `instanceCount: 3` on the reservation.",
                    ko: "NodePool 두 개가 EC2NodeClass 하나를 함께 씁니다. 이 EC2NodeClass의 \
                         `capacityReservationSelectorTerms`는 `purpose: batch` 태그가 붙은 \
                         `CapacityReservation`을 고릅니다. us-east-1a의 m5.xlarge 두 대를 \
                         40:00까지 예약한 것입니다.\n\n\
                         `baseline`은 정적 풀(`replicas: 2`)입니다. 파드와 상관없이 m5.large \
                         두 대를 유지하고, 통합 대상이 되지 않습니다. `burst`는 `reserved`와 \
                         `on-demand`를 허용합니다. 1:00까지 재생하세요. `batch` 레플리카 두 개는 \
                         예약으로 들어가고(카드에 reserved로 표시됩니다. 예약 용량은 거의 \
                         공짜로 매겨지므로 먼저 쓰입니다), 세 번째는 예약이 가득 차서 한 번을 \
                         기다린 뒤 온디맨드로 뜹니다.\n\n\
                         12:00까지 재생하세요. 10:00에 `batch`가 둘로 줄고, 통합이 가장 비싼 \
                         온디맨드 노드를 지웁니다. 이어서 40:00을 넘겨 재생하세요. 예약이 \
                         끝나고, 그 두 노드는 정가의 온디맨드로 계속 돕니다($/시간을 보세요). \
                         `baseline`에 `replicas: 3`을, 예약에 `instanceCount: 3`을 써 보세요.",
                },
            },
            Step {
                lab: Lab::CapacityBuffer,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Warm capacity with no placeholder Deployment",
                    ko: "자리 표시용 Deployment 없이 데워 둔 용량",
                },
                body: Text {
                    en: "To have a node ready before pods arrive, clusters used to run a \
                         placeholder Deployment of low-priority pause pods. From v1.14, with \
                         the `CapacityBuffer` feature gate on (see the Cluster document), a \
                         `CapacityBuffer` says it directly: keep room for two copies of the \
                         PodTemplate `web-size`.\n\n\
                         Play to 1:00. Karpenter schedules two *virtual* pods, which exist only \
                         in its own simulation, and launches an m5.xlarge for them. No pod runs \
                         there, yet emptiness leaves it alone: select it and read why (a node \
                         holding buffer pods is not empty). The Events tab shows the buffer's \
                         `Provisioning` condition: `RequiresNewCapacity`, then \
                         `FitsExistingCapacity`.\n\n\
                         Play to 4:00. At 3:00 `web` scales to two, and both pods are bound to \
                         the warm node in the same second: no NodeClaim to wait for. The \
                         buffer's pods no longer fit, so at its next check (every 30 s) \
                         Karpenter warms new capacity. Try `replicas: 4`, or turn the gate off.",
                    ko: "파드가 오기 전에 노드를 준비해 두려고, 예전에는 우선순위가 낮은 pause \
                         파드로 된 자리 표시용 Deployment를 돌렸습니다. v1.14부터는 \
                         `CapacityBuffer` 기능 게이트를 켜면(Cluster 문서를 보세요) \
                         `CapacityBuffer`로 이를 바로 말할 수 있습니다. PodTemplate `web-size` \
                         두 개분의 자리를 남겨 두라는 것입니다.\n\n\
                         1:00까지 재생하세요. Karpenter는 자기 시뮬레이션 안에만 있는 *가상* \
                         파드 두 개를 스케줄하고, 이를 위해 m5.xlarge를 띄웁니다. 거기서 도는 \
                         파드는 없지만 비어 있는 노드로 지워지지 않습니다. 노드를 선택해 이유를 \
                         읽어 보세요(버퍼 파드를 둔 노드는 비어 있지 않습니다). Events 탭에는 \
                         버퍼의 `Provisioning` 조건이 `RequiresNewCapacity`에서 \
                         `FitsExistingCapacity`로 바뀌는 것이 보입니다.\n\n\
                         4:00까지 재생하세요. 3:00에 `web`이 둘로 늘고, 두 파드는 같은 초에 \
                         데워 둔 노드에 바인딩됩니다. 기다릴 NodeClaim이 없습니다. 버퍼의 가상 \
                         파드가 더는 들어가지 않으므로, 다음 확인 때(30초마다) Karpenter가 새 \
                         용량을 데웁니다. `replicas: 4`를 써 보거나 게이트를 꺼 보세요.",
                },
            },
        ],
    },
    Lesson {
        id: "byoc",
        title: Text {
            en: "Bring your own cluster",
            ko: "내 클러스터 가져오기",
        },
        summary: Text {
            en: "Take a snapshot of a live cluster, import it, and see what Karpenter would do \
                 to it now and after a NodePool change: on the page, then as a CI check.",
            ko: "운영 중인 클러스터의 스냅샷을 찍어 가져오고, Karpenter가 지금 그리고 NodePool을 \
                 바꾼 뒤에 무엇을 할지 페이지에서, 이어서 CI 검사로 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::Byoc,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Take a snapshot",
                    ko: "스냅샷 찍기",
                },
                body: Text {
                    en: "What would Karpenter do with the cluster you run now? Ask the cluster. \
                         One command reads every kind the playground simulates:\n\n\
                         `kubectl get nodes,nodeclaims.karpenter.sh,nodepools.karpenter.sh,\
                         ec2nodeclasses.karpenter.k8s.aws,pods,deployments,replicasets,\
                         statefulsets,daemonsets,jobs,poddisruptionbudgets,namespaces -A -o yaml \
                         > snapshot.yaml`\n\n\
                         Then `kpg import snapshot.yaml > cluster.yaml` keeps only what the \
                         simulation reads: each node with its NodeClaim, labels, taints, capacity \
                         and age; the NodePools and EC2NodeClasses; each Deployment with its pods \
                         and the node each one runs on (the `playground.karpenter.dev/pods` \
                         annotation); the PDBs. Env, commands, volumes, probes, images and every \
                         annotation but Karpenter's are left out, so the file can be shared.\n\n\
                         The manifests here are such a file: a small shop's cluster, imported. \
                         `kpg simulate cluster.yaml` plays it in a terminal as this page does.",
                    ko: "지금 운영 중인 클러스터에서 Karpenter는 무엇을 할까요? 클러스터에 직접 \
                         물어보세요. 플레이그라운드가 시뮬레이션하는 모든 종류를 명령 하나로 \
                         읽습니다.\n\n\
                         `kubectl get nodes,nodeclaims.karpenter.sh,nodepools.karpenter.sh,\
                         ec2nodeclasses.karpenter.k8s.aws,pods,deployments,replicasets,\
                         statefulsets,daemonsets,jobs,poddisruptionbudgets,namespaces -A -o yaml \
                         > snapshot.yaml`\n\n\
                         이어서 `kpg import snapshot.yaml > cluster.yaml`은 시뮬레이션이 읽는 \
                         것만 남깁니다. 노드마다 NodeClaim, 레이블, 테인트, 용량, 나이, 그리고 \
                         NodePool과 EC2NodeClass, Deployment마다 그 파드와 각 파드가 도는 \
                         노드(`playground.karpenter.dev/pods` 어노테이션), PDB입니다. env, \
                         명령, 볼륨, 프로브, 이미지, Karpenter의 것이 아닌 어노테이션은 모두 \
                         빠지므로 파일을 공유해도 됩니다.\n\n\
                         여기 있는 매니페스트가 바로 그런 파일입니다. 작은 쇼핑몰 클러스터를 \
                         가져온 것입니다. `kpg simulate cluster.yaml`은 터미널에서 이 페이지와 \
                         똑같이 시뮬레이션합니다.",
                },
            },
            Step {
                lab: Lab::Byoc,
                compare: None,
                exercise: None,
                title: Text {
                    en: "The cluster at time zero",
                    ko: "0:00의 클러스터",
                },
                body: Text {
                    en: "At 0:00 the cluster is what the snapshot saw: the real node names \
                         (`ip-10-0-...ec2.internal`, in the Node tabs and a card's Explain), each \
                         node as old as it was. \
                         `ip-10-0-1-10` belongs to the managed node group `system`: it sits in \
                         the fixed lane, and Karpenter never touches it. The five others have a \
                         NodeClaim and the `karpenter.sh/nodepool: default` label: they are \
                         Karpenter's, with the pods that ran on them.\n\n\
                         Press Play at 10×. At 0:00 the r5.large's NodeClaim carries a \
                         `karpenter.sh/nodepool-hash` the NodePool no longer has: it has \
                         drifted, and Karpenter deletes it at once (its `cache` pod fits on the \
                         m5.xlarge). Then consolidation, one node at a time, because the budget \
                         is `nodes: 10%` of five, rounded up: the m5.large that holds one \
                         `worker` pod at 0:55, the m5.xlarge at 1:55 (the `web` PDB, \
                         `minAvailable: 2`, lets one web pod go at a time, and `cache` waits for \
                         a new r7a.medium spot node), the m5.large spot at 2:55.\n\n\
                         At rest, at 4:00: three nodes for $0.148 an hour, against $0.569 at \
                         0:00. The c6a.large spot stays: replacing a spot node with a cheaper \
                         spot one is off (`SpotToSpotConsolidation`). Select a node to read why.",
                    ko: "0:00의 클러스터는 스냅샷이 본 그대로입니다. 노드 이름은 실제 \
                         이름(`ip-10-0-...ec2.internal`, Node 탭과 설명 탭에서 보입니다)이고, \
                         노드의 나이도 그때와 같습니다. \
                         `ip-10-0-1-10`은 관리형 노드 그룹 `system`의 노드라서 고정 노드 레인에 \
                         있고, Karpenter는 이 노드를 건드리지 않습니다. 나머지 다섯 대에는 \
                         NodeClaim과 `karpenter.sh/nodepool: default` 레이블이 있으니 \
                         Karpenter의 노드이고, 그 위에서 돌던 파드도 그대로 있습니다.\n\n\
                         10×로 재생하세요. 0:00에 r5.large의 NodeClaim에 붙은 \
                         `karpenter.sh/nodepool-hash`는 지금의 NodePool에는 없는 값입니다. \
                         드리프트된 것이고, Karpenter는 곧바로 이 노드를 지웁니다(`cache` 파드는 \
                         m5.xlarge에 들어갑니다). 이어서 통합이 한 번에 한 대씩 진행됩니다. 예산이 \
                         다섯 대의 `nodes: 10%`, 올림해서 한 대이기 때문입니다. 0:55에 `worker` \
                         파드 하나만 있는 m5.large, 1:55에 m5.xlarge(`web` PDB의 \
                         `minAvailable: 2` 때문에 web 파드는 하나씩 나가고, `cache`는 새 \
                         r7a.medium 스팟 노드를 기다립니다), 2:55에 m5.large 스팟이 \
                         사라집니다.\n\n\
                         4:00에 멈추면 노드 세 대, 시간당 $0.148입니다. 0:00에는 $0.569였습니다. \
                         c6a.large 스팟은 남습니다. 스팟 노드를 더 싼 스팟 노드로 바꾸는 \
                         기능(`SpotToSpotConsolidation`)이 꺼져 있기 때문입니다. 노드를 선택하면 \
                         이유를 읽을 수 있습니다.",
                },
            },
            Step {
                lab: Lab::ByocOnDemand,
                compare: Some(Lab::Byoc),
                exercise: None,
                title: Text {
                    en: "Change the NodePool, read what drifts",
                    ko: "NodePool을 바꾸고 드리프트 읽기",
                },
                body: Text {
                    en: "This step compares two runs on one clock. **A** is the cluster as \
                         imported; **B**, in the editor, is the same with one line gone: the \
                         `default` NodePool's `karpenter.sh/capacity-type` allows only \
                         `on-demand`.\n\n\
                         At 0:00 B finds three drifted NodeClaims, not five. The two spot nodes \
                         drift by `RequirementsDrifted`: their labels no longer meet the \
                         NodePool's requirements. Requirements are not part of \
                         `karpenter.sh/nodepool-hash`, so the on-demand nodes keep their hash, \
                         and the r5.large is drifted as before. Karpenter takes them one at a \
                         time (their pods fit elsewhere), and consolidation goes on after them: \
                         at 3:25 the m5.xlarge is replaced by an r5a.large on-demand.\n\n\
                         Play to 6:00 and read the table under the chart: at rest B costs $0.209 \
                         an hour against A's $0.148, +41 % ($44.62 a month), with no spot node \
                         left. Now put `spot` back and add a template label instead \
                         (`metadata: {labels: {team: shop}}` under `template`): the hash \
                         changes, and all five of Karpenter's nodes drift.",
                    ko: "이 단계는 두 실행을 한 시계로 비교합니다. **A**는 가져온 그대로의 \
                         클러스터이고, 편집기의 **B**는 한 줄만 뺀 것입니다. `default` \
                         NodePool의 `karpenter.sh/capacity-type`이 `on-demand`만 \
                         허용합니다.\n\n\
                         0:00에 B에서 드리프트된 NodeClaim은 다섯이 아니라 셋입니다. 스팟 노드 \
                         두 대는 `RequirementsDrifted`입니다. 노드의 레이블이 NodePool의 요구 \
                         사항을 더는 만족하지 않습니다. 요구 사항은 `karpenter.sh/nodepool-hash`에 \
                         들어가지 않으므로 온디맨드 노드의 해시는 그대로이고, r5.large는 전처럼 \
                         드리프트된 상태입니다. Karpenter는 이들을 한 대씩 지우고(파드가 다른 \
                         곳에 들어갑니다), 그 뒤에 통합이 이어집니다. 3:25에 m5.xlarge가 \
                         r5a.large 온디맨드로 교체됩니다.\n\n\
                         6:00까지 재생하고 차트 아래 표를 읽어 보세요. 멈춘 뒤 B는 시간당 \
                         $0.209, A는 $0.148입니다. +41 %(한 달에 $44.62)이고, 스팟 노드는 하나도 \
                         남지 않습니다. 이제 `spot`을 되돌리고 대신 템플릿 레이블을 더해 \
                         보세요(`template` 아래에 `metadata: {labels: {team: shop}}`). 해시가 \
                         바뀌고, Karpenter의 노드 다섯 대가 모두 드리프트됩니다.",
                },
            },
            Step {
                lab: Lab::ByocOnDemand,
                compare: Some(Lab::Byoc),
                exercise: None,
                title: Text {
                    en: "The same check in CI",
                    ko: "같은 검사를 CI에서",
                },
                body: Text {
                    en: "What you just read under the chart, `kpg compare` prints for a pull \
                         request: A is the NodePool before the change, B after it.\n\n\
                         `kpg compare base.yaml changed.yaml --output markdown --fail-on \
                         pending --max-cost-increase 10%`\n\n\
                         With this step's A and B as `base.yaml` and `changed.yaml` it exits 3 \
                         and says why: `cost rises 41.3% ($0.061123/h, $44.62/month), over \
                         --max-cost-increase 10%`. `--fail-on pending` holds: no pod is left \
                         pending in B. The markdown carries the figures of the table under the \
                         chart (cost, nodes by NodePool, instance type and capacity type), the \
                         drifted nodes and each disruption, ready for a review comment.\n\n\
                         `scripts/ci/nodepool-check` runs the same comparison on a repository: \
                         the snapshot kept in it, with its NodePool files at the base branch (A) \
                         and in the change (B).",
                    ko: "방금 차트 아래에서 읽은 내용을 `kpg compare`는 풀 리퀘스트용으로 \
                         출력합니다. A는 바꾸기 전의 NodePool, B는 바꾼 뒤입니다.\n\n\
                         `kpg compare base.yaml changed.yaml --output markdown --fail-on \
                         pending --max-cost-increase 10%`\n\n\
                         이 단계의 A와 B를 `base.yaml`과 `changed.yaml`로 쓰면 종료 코드 3으로 \
                         끝나며 이유를 알려 줍니다. `cost rises 41.3% ($0.061123/h, \
                         $44.62/month), over --max-cost-increase 10%`. `--fail-on pending`은 \
                         통과합니다. B에 Pending으로 남은 파드가 없습니다. 마크다운에는 차트 \
                         아래 표의 수치(비용, NodePool·인스턴스 유형·용량 유형별 노드 수)와 \
                         드리프트된 노드, 각 중단 결정이 들어가서 리뷰 댓글로 바로 쓸 수 \
                         있습니다.\n\n\
                         `scripts/ci/nodepool-check`는 같은 비교를 저장소에서 합니다. 저장소에 \
                         둔 스냅샷에 기준 브랜치의 NodePool 파일을 더한 것이 A, 변경된 파일을 \
                         더한 것이 B입니다.",
                },
            },
        ],
    },
    Lesson {
        id: "auto-mode",
        title: Text {
            en: "From Karpenter to Auto Mode",
            ko: "Karpenter에서 Auto Mode로",
        },
        summary: Text {
            en: "Run EKS Auto Mode beside self-managed Karpenter as EKS's migration guide does: \
                 a tainted Auto Mode NodePool, workloads moved one by one with \
                 `eks.amazonaws.com/compute-type: auto`, and what the move costs.",
            ko: "EKS 마이그레이션 가이드처럼 자체 관리형 Karpenter 옆에서 EKS Auto Mode를 \
                 돌립니다. 테인트를 건 Auto Mode NodePool, \
                 `eks.amazonaws.com/compute-type: auto`로 하나씩 옮기는 워크로드, 그리고 옮기는 \
                 비용을 봅니다.",
        },
        steps: &[
            Step {
                lab: Lab::AutoModeMigrate,
                compare: None,
                exercise: None,
                title: Text {
                    en: "Two autoscalers, one cluster",
                    ko: "오토스케일러 둘, 클러스터 하나",
                },
                body: Text {
                    en: "The Cluster document says `mode: eks-auto-mode` with only the built-in \
                         `system` NodePool: the guide says not to turn `general-purpose` on \
                         during a migration, because it takes any pod. Karpenter's NodePool \
                         `default` and its EC2NodeClass stay as they were.\n\n\
                         Beside them, the NodePool `eks-auto-mode` points at \
                         `group: eks.amazonaws.com, kind: NodeClass, name: default`, the \
                         NodeClass EKS creates itself, and is tainted `eks-auto-mode`. Only \
                         `checkout` has been moved: it tolerates the taint and selects \
                         `eks.amazonaws.com/compute-type: auto`, a label every Auto Mode node has \
                         and no Karpenter node does. Play to 2:00 and select the two nodes: the \
                         Auto Mode node's labels are `eks.amazonaws.com/instance-*`, not \
                         `karpenter.k8s.aws/instance-*`, and its pods are capped at 110.",
                    ko: "Cluster 문서는 내장 NodePool `system`만 켠 `mode: eks-auto-mode`입니다. \
                         가이드는 마이그레이션 중에는 `general-purpose`를 켜지 말라고 합니다. 어떤 \
                         파드든 받기 때문입니다. Karpenter의 NodePool `default`와 그 \
                         EC2NodeClass는 그대로입니다.\n\n\
                         그 옆의 NodePool `eks-auto-mode`는 EKS가 직접 만드는 NodeClass인 \
                         `group: eks.amazonaws.com, kind: NodeClass, name: default`를 가리키고, \
                         `eks-auto-mode` 테인트가 걸려 있습니다. 옮긴 것은 `checkout`뿐입니다. \
                         테인트를 용인하고 `eks.amazonaws.com/compute-type: auto`를 고릅니다. 모든 \
                         Auto Mode 노드에 있고 Karpenter 노드에는 없는 레이블입니다. 2:00까지 \
                         재생하고 두 노드를 선택해 보세요. Auto Mode 노드의 레이블은 \
                         `karpenter.k8s.aws/instance-*`가 아니라 \
                         `eks.amazonaws.com/instance-*`이고, 파드는 최대 110개입니다.",
                },
            },
            Step {
                lab: Lab::AutoModeMigrate,
                compare: Some(Lab::AutoModeBefore),
                exercise: None,
                title: Text {
                    en: "What the move costs",
                    ko: "옮기는 데 드는 비용",
                },
                body: Text {
                    en: "**A** is the cluster before the move, Karpenter only; **B**, in the \
                         editor, has `checkout` on Auto Mode. Play to 2:00. A runs both \
                         Deployments on one c6g.2xlarge; B on two c6g.xlarge, one of them Auto \
                         Mode's. Two halves cost what the whole did on EC2, so the difference \
                         is Auto Mode's management fee, 12 % of the Auto Mode node's on-demand \
                         price whatever its capacity type: about $0.016 an hour, $11.91 a \
                         month. `kpg compare` prints it on a line of its own.\n\n\
                         Now move `catalog` too: give it the same toleration and nodeSelector, \
                         then delete the NodePool `default`, the guide's step 5. Every node is \
                         then Auto Mode's, and so is every dollar of the fee.",
                    ko: "**A**는 옮기기 전의 클러스터로 Karpenter만 있습니다. 편집기의 **B**에서는 \
                         `checkout`이 Auto Mode에 있습니다. 2:00까지 재생하세요. A는 두 \
                         Deployment를 c6g.2xlarge 하나에서 돌리고, B는 c6g.xlarge 두 대에서 \
                         돌립니다. 그중 하나가 Auto Mode 노드입니다. 절반 두 개의 EC2 비용은 \
                         전체 하나와 같으므로, 차이는 Auto Mode 관리 요금입니다. 용량 유형과 \
                         상관없이 Auto Mode 노드 온디맨드 가격의 12 %로, 시간당 약 $0.016, 월 \
                         $11.91입니다. `kpg compare`는 이 요금을 따로 한 줄로 보여 줍니다.\n\n\
                         이제 `catalog`도 옮겨 보세요. 같은 톨러레이션과 nodeSelector를 주고, \
                         가이드의 5단계처럼 NodePool `default`를 지우세요. 그러면 모든 노드가 \
                         Auto Mode의 것이 되고, 관리 요금도 모든 노드에 붙습니다.",
                },
            },
        ],
    },
    Lesson {
        id: "blank",
        title: Text {
            en: "Blank scenario",
            ko: "빈 시나리오",
        },
        summary: Text {
            en: "An EC2NodeClass and one NodePool: add workloads from the \
                 templates and build your own.",
            ko: "EC2NodeClass와 NodePool 하나로 시작합니다. 템플릿에서 \
                 워크로드를 추가해 직접 만들어 보세요.",
        },
        steps: &[Step {
            lab: Lab::Blank,
            compare: None,
            exercise: None,
            title: Text {
                en: "Your own cluster",
                ko: "나만의 클러스터",
            },
            body: Text {
                en: "Use Add to insert a Deployment, a Job, a DaemonSet or a PodDisruptionBudget, \
                     edit it, and press Play. A `Cluster` document (`apiVersion: \
                     playground.karpenter.dev/v1alpha1`) sets the region, zones and fixed nodes; \
                     without one the cluster is in us-east-1 with no fixed nodes.",
                ko: "추가 버튼으로 Deployment, Job, DaemonSet, PodDisruptionBudget을 넣고 고친 \
                     다음 재생을 눌러 보세요. `Cluster` 문서(`apiVersion: \
                     playground.karpenter.dev/v1alpha1`)로 리전, 가용 영역, 고정 노드를 정할 수 \
                     있습니다. 이 문서가 없으면 고정 노드 없이 us-east-1 리전으로 시작합니다.",
            },
        }],
    },
];

/// Labels vs taints, the limits step: every replica running, the limit as it is.
static LIMITS_WITHOUT_RAISING: Exercise = Exercise {
    task: Text {
        en: "Make the two pending pods run without raising the `platform` pool's limit.",
        ko: "`platform` 풀의 한도를 올리지 않고 Pending 파드 두 개를 실행시켜 보세요.",
    },
    hint: Text {
        en: "Why does each replica need a node of its own? Look at the Deployment's \
             `affinity`: a required anti-affinity on `kubernetes.io/hostname`.",
        ko: "레플리카마다 노드가 하나씩 필요한 이유는 무엇일까요? Deployment의 `affinity`를 \
             보세요. `kubernetes.io/hostname`에 대한 필수 anti-affinity입니다.",
    },
    solution: Text {
        en: "Make the anti-affinity preferred instead of required \
             (`preferredDuringSchedulingIgnoredDuringExecution` with a `weight`). \
             kube-scheduler then spreads the replicas where it can and packs the rest: all \
             eight run on the nodes there are, and Karpenter launches nothing more. Another \
             answer works too: a toleration for `node=service:NoSchedule` lets the service \
             pool, with its own limit, take the rest, at the price of platform pods on the \
             app pool.",
        ko: "anti-affinity를 필수 대신 선호(`preferredDuringSchedulingIgnoredDuringExecution`와 \
             `weight`)로 바꾸세요. 그러면 kube-scheduler가 가능한 만큼 흩어 놓고 나머지는 \
             채워 넣어서, 여덟 개가 모두 지금 있는 노드에서 돌고 Karpenter는 노드를 더 띄우지 \
             않습니다. 다른 답도 됩니다. `node=service:NoSchedule`에 대한 toleration을 주면 \
             자기 한도를 가진 service 풀이 나머지를 받지만, platform 파드가 앱 풀에 \
             올라가게 됩니다.",
    },
    edits: &[(
        "          requiredDuringSchedulingIgnoredDuringExecution:\n\
         \x20           - labelSelector:\n\
         \x20               matchExpressions:\n\
         \x20                 - key: app\n\
         \x20                   operator: In\n\
         \x20                   values: [\"busybox\"]\n\
         \x20             topologyKey: kubernetes.io/hostname\n",
        "          preferredDuringSchedulingIgnoredDuringExecution:\n\
         \x20           - weight: 100\n\
         \x20             podAffinityTerm:\n\
         \x20               labelSelector:\n\
         \x20                 matchExpressions:\n\
         \x20                   - key: app\n\
         \x20                     operator: In\n\
         \x20                     values: [\"busybox\"]\n\
         \x20               topologyKey: kubernetes.io/hostname\n",
    )],
    goals: &[
        Goal::NothingPending,
        Goal::Running {
            workload: "Deployment/busybox",
            at_least: 8,
        },
        Goal::LimitAtMost {
            pool: "platform",
            resource: "cpu",
            limit: 8_000,
        },
    ],
    judged: Judged::AtRest,
};

// Lesson `teardown`, step "The NodePool takes its nodes with it" (lab TeardownWrongOrder, compare
// Teardown).
// Rephrased: the draft's condition (every node gone by 4:00, no `Evicted` event, no `Waiting` on
// the EC2NodeClass, $0 at rest) has no goal: the lab as written and the solution both end with no
// node, no pod and $0/h, and "never" cannot be judged. Checked instead, at any instant: the pool
// `default` is part-way through losing its nodes (1 or 2 left) and no pod is Pending, i.e. the
// nodes go with nothing left on them.
// Verified with `kpg simulate --output json` (header stripped, edits applied, sampled at every
// event and history instant):
//   as written: never met. 3 nodes from 0:01 to 6:36; then 2 (6:36.3), 1 (6:38.06), 0 (6:42.368),
//     with 4 web pods Pending throughout (3 evicted at 6:00 plus the 4:00 replica) until the
//     Deployment goes at 7:00. Rest 7:00, $0/h, $0.006234 spent.
//   solved: met first at 3:36.3 (2 t3a.small left, $0.0376/h, nothing Pending). Nodes gone at
//     3:36.3, 3:38.06, 3:42.368; EC2NodeClass deleted at 4:00 with no `Waiting`; no `Evicted`. Rest
//     4:00, $0/h, $0.003414 spent (A, seed000-teardown, spends $0.004119 and would meet the goals
//     too: its nodes go one by one from 3:57 with nothing Pending).
static TEARDOWN_IN_ORDER: Exercise = Exercise {
    task: Text {
        en: "Reorder B's Timeline so that its nodes go with nothing left on them to evict: while \
             they are being removed, the Pending tray stays empty.",
        ko: "B의 Timeline 순서를 바꿔서 노드가 축출할 파드 없이 정리되게 해 보세요. 노드가 \
             사라지는 동안 Pending 트레이가 비어 있어야 합니다.",
    },
    hint: Text {
        en: "Delete the app first. The NodePool does not have to wait for emptiness: deleting it \
             terminates its NodeClaims at once.",
        ko: "앱부터 지우세요. NodePool은 노드가 빌 때까지 기다릴 필요가 없습니다. 삭제하면 그 \
             NodeClaim을 바로 종료합니다.",
    },
    solution: Text {
        en: "Delete the `web` Deployment at 3:00, the NodePool at 3:30 and the EC2NodeClass at \
             4:00, and drop the `scale` step. The nodes are gone at about 3:36, 3:38 and 3:42 with \
             no pod on them, no pod is evicted, and the EC2NodeClass goes at 4:00 without \
             `Waiting`. It also spends less than A, which waits for emptiness consolidation.",
        ko: "3:00에 `web` Deployment를, 3:30에 NodePool을, 4:00에 EC2NodeClass를 삭제하고 `scale` \
             단계는 빼세요. 노드는 파드 없이 3:36, 3:38, 3:42쯤 사라지고, 축출되는 파드가 없으며, \
             EC2NodeClass는 `Waiting` 없이 4:00에 삭제됩니다. 빈 노드 통합을 기다리는 A보다 비용도 \
             덜 듭니다.",
    },
    edits: &[(
        "    # kubectl delete ec2nodeclass --all (too early: three NodeClaims still use it)\n\
         \x20   - at: 3m\n\
         \x20     delete: {kind: EC2NodeClass, name: default}\n\
         \x20   # meanwhile the app scales out (kubectl scale deployment web --replicas=4)\n\
         \x20   - at: 4m\n\
         \x20     scale: {kind: Deployment, name: web, replicas: 4}\n\
         \x20   # kubectl delete nodepool --all\n\
         \x20   - at: 6m\n\
         \x20     delete: {kind: NodePool, name: default}\n\
         \x20   # kubectl delete deployment web\n\
         \x20   - at: 7m\n\
         \x20     delete: {kind: Deployment, name: web}\n",
        "    # kubectl delete deployment web\n\
         \x20   - at: 3m\n\
         \x20     delete: {kind: Deployment, name: web}\n\
         \x20   # kubectl delete nodepool --all (its NodeClaims go with it)\n\
         \x20   - at: 3m30s\n\
         \x20     delete: {kind: NodePool, name: default}\n\
         \x20   # kubectl delete ec2nodeclass --all (nothing left to wait for)\n\
         \x20   - at: 4m\n\
         \x20     delete: {kind: EC2NodeClass, name: default}\n",
    )],
    goals: &[
        Goal::PoolNodes {
            pool: "default",
            min: 1,
            max: 2,
        },
        Goal::NothingPending,
    ],
    judged: Judged::AnyInstant,
};

// Lesson `drift`, step "One node at a time" (lab Drift).
// Rephrased: the draft's condition (roll finished by 10:30, no NodeClaim drifted, every imageId
// new) needs time and NodeClaim fields. Checked instead, at any instant: six or more nodes in pool
// `default` and no pod Pending; with four nodes that means two replacements in flight at once.
// Verified with `kpg simulate --output json`:
//   as written: never met; at most 5 nodes (one replacement at a time from 6:00, 7:40, 9:10,
//     10:50), nothing Pending after 1:00. Rest 12:10, 4 t3a.small, $0.0752/h, $0.017025 spent.
//   solved (`nodes: "2"`): met first at 6:50 (6 t3a.small, $0.1128/h, nothing Pending). Commands at
//     6:00, 6:50, 7:50, 8:40; last old node gone at 10:06.791. Rest 10:10, $0.0752/h, $0.014582
//     spent.
static DRIFT_TWO_AT_A_TIME: Exercise = Exercise {
    task: Text {
        en: "Speed the roll up: let drift replace two nodes at a time (six nodes in the lane at \
             once) with no pod Pending. Leave the freeze as it is.",
        ko: "교체 속도를 높여 보세요. 드리프트가 한 번에 두 대씩 교체하게 해서(레인에 노드가 \
             한꺼번에 여섯 대), Pending 파드 없이 진행되게 하세요. 금지 시간대는 그대로 둡니다.",
    },
    hint: Text {
        en: "One budget says how many nodes may be disrupted at once.",
        ko: "한 번에 몇 대를 중단할 수 있는지 정하는 예산이 있습니다.",
    },
    solution: Text {
        en: "Set the first budget to `nodes: \"2\"` (or `\"50%\"`, half of four). The freeze still \
             holds everything until 6:00; then two replacements run side by side, with commands at \
             6:00, 6:50, 7:50 and 8:40, and the last old node is gone at about 10:07 instead of \
             12:10. No pod is Pending on the way.",
        ko: "첫 번째 예산을 `nodes: \"2\"`(또는 네 대의 절반인 `\"50%\"`)로 바꾸세요. 금지 \
             시간대는 여전히 6:00까지 모든 교체를 막고, 그 뒤 교체가 두 개씩 나란히 진행됩니다. \
             명령은 6:00, 6:50, 7:50, 8:40에 나오고, 마지막 이전 노드는 12:10이 아니라 10:07쯤 \
             사라집니다. 그동안 Pending 파드는 없습니다.",
    },
    edits: &[
        (
            "      # drift replaces at most one node at a time\n",
            "      # drift replaces at most two nodes at a time\n",
        ),
        ("      - nodes: \"1\"\n", "      - nodes: \"2\"\n"),
    ],
    goals: &[
        Goal::PoolNodes {
            pool: "default",
            min: 6,
            max: usize::MAX,
        },
        Goal::NothingPending,
    ],
    judged: Judged::AnyInstant,
};

// Lesson `spot-fallback`, step "A type runs out: another type" (lab SpotFallback).
// Rephrased: the draft checks the node types at 4:00; checked instead at rest: all three web pods
// Running, nothing Pending, under $0.080/h (only three c6a.large spot nodes, $0.07803, are that
// cheap).
// Verified with `kpg simulate --output json`:
//   as written: not met at rest. Rest 11:10: c6a.large spot (1b) and two c6i.large spot (1b, 1c),
//     $0.08381/h, 3 Running.
//   solved: met at rest. The 3:00 replacement launches as c6a.large spot in us-east-1c at 3:02.6
//     ($0.07803/h at 4:00); c6a.large on-demand from 4:43 to consolidation (one
//     InsufficientCapacityError at 7:46, spot relaunch at 8:06). Rest 10:50: three c6a.large spot
//     (1b, 1c, 1c), $0.07803/h, 3 Running, nothing Pending, $0.019432 spent.
// Deleting the 3:00 `insufficientCapacity` step altogether would also pass.
static SPOT_SHORTAGE_ONE_ZONE: Exercise = Exercise {
    task: Text {
        en: "Make the 3:00 shortage hit one zone only, so that the cluster ends on `c6a.large` \
             spot alone: all three replicas running, for under $0.080 an hour.",
        ko: "3:00의 용량 부족이 한 가용 영역에만 일어나게 바꿔서, 클러스터가 `c6a.large` \
             스팟만으로 끝나게 해 보세요. 레플리카 세 개가 모두 돌고 시간당 $0.080 미만이어야 \
             합니다.",
    },
    hint: Text {
        en: "The `insufficientCapacity` step also takes a `zone`. The node reclaimed at 3:00 is in \
             us-east-1b.",
        ko: "`insufficientCapacity` 단계에는 `zone`도 쓸 수 있습니다. 3:00에 회수되는 노드는 \
             us-east-1b에 있습니다.",
    },
    solution: Text {
        en: "Give the 3:00 step a zone: `insufficientCapacity: {instanceType: c6a.large, zone: \
             us-east-1b, capacityType: spot}`. The 3:00 replacement is then a `c6a.large` spot \
             node in us-east-1c, and after the on-demand detour at 4:30 consolidation brings the \
             cluster back to three `c6a.large` spot nodes: $0.07803 an hour at rest, against \
             $0.08381 as written.",
        ko: "3:00 단계에 가용 영역을 넣으세요. `insufficientCapacity: {instanceType: c6a.large, \
             zone: us-east-1b, capacityType: spot}`. 그러면 3:00의 대체 노드는 us-east-1c의 \
             `c6a.large` 스팟이 되고, 4:30의 온디맨드 우회가 지나면 통합이 클러스터를 `c6a.large` \
             스팟 세 대로 되돌립니다. 쓰인 그대로는 시간당 $0.08381이지만, 이제는 $0.07803으로 \
             끝납니다.",
    },
    edits: &[
        (
            "    # c6a.large spot runs out in every zone, and another spot instance is reclaimed\n",
            "    # c6a.large spot runs out in us-east-1b, and another spot instance is reclaimed\n",
        ),
        (
            "      insufficientCapacity: {instanceType: c6a.large, capacityType: spot}\n",
            "      insufficientCapacity: {instanceType: c6a.large, zone: us-east-1b, capacityType: \
             spot}\n",
        ),
    ],
    goals: &[
        Goal::Running {
            workload: "Deployment/web",
            at_least: 3,
        },
        Goal::NothingPending,
        Goal::CostBelow(80_000),
    ],
    judged: Judged::AtRest,
};

// E3. Lesson `multiarch-batch`, step "The Job as written" (lab BatchJob): set that step's
// `exercise: Some(&BATCH_JOB_WEIGHT)`. The Job is `batch-job`, so its pods' owner is
// `Job/batch-job`.
// The draft's second condition (no NodeClaim of `general-multiarch` created) has no goal; RunsOn
// covers the intent. Judged AnyInstant: the Job's pod finishes after 60 s and its node goes.
// Verified with `kpg simulate --output json`:
//   as written: never met; the pod runs on a general-multiarch t4g.nano spot node (at 0:50). Rest
//     2:46.5, $0/h.
//   solved (`weight: 10`): met first at 0:46.002, the pod Running on a batch-spot t4g.nano spot
//     node in us-east-1c ($0.001428/h). Rest 2:44.5, $0/h.
static BATCH_JOB_WEIGHT: Exercise = Exercise {
    task: Text {
        en: "Send the Job to `batch-spot` without changing the Job.",
        ko: "Job은 그대로 두고 Job이 `batch-spot`으로 가게 해 보세요.",
    },
    hint: Text {
        en: "NodePools are tried by weight before name.",
        ko: "NodePool은 이름보다 가중치를 먼저 봅니다.",
    },
    solution: Text {
        en: "Give the `batch-spot` NodePool `weight: 10` in its `spec`: it is now tried before \
             `general-multiarch`, and the Job gets a spot node there. This works only because \
             ordinary pods cannot tolerate the batch taint, so the weight changes nothing for \
             them; the `nodeSelector` of the next step is still the fix that states the intent.",
        ko: "`batch-spot` NodePool의 `spec`에 `weight: 10`을 넣으세요. 이제 이 풀이 \
             `general-multiarch`보다 먼저 시도되고, Job은 여기서 스팟 노드를 받습니다. 일반 파드는 \
             배치 테인트를 용인하지 못하니 가중치가 그들에게는 아무것도 바꾸지 않기 때문에 되는 \
             방법입니다. 의도를 드러내는 해결은 여전히 다음 단계의 `nodeSelector`입니다.",
    },
    edits: &[(
        "  name: batch-spot\n\
         spec:\n",
        "  name: batch-spot\n\
         spec:\n\
         \x20 weight: 10\n",
    )],
    goals: &[Goal::RunsOn {
        workload: "Job/batch-job",
        pool: "batch-spot",
    }],
    judged: Judged::AnyInstant,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lab_reads_cleanly_without_its_header() {
        for lab in [
            Lab::HelloWorld,
            Lab::ScaleOut,
            Lab::Service6Gi,
            Lab::ScaleIn,
            Lab::Consolidation,
            Lab::Limits,
            Lab::LimitsLifted,
            Lab::BatchJob,
            Lab::BatchJobFixed,
            Lab::SpotShortage,
            Lab::V1beta1,
            Lab::V1beta1Batch,
            Lab::Teardown,
            Lab::TeardownWrongOrder,
            Lab::Drift,
            Lab::SpotFallback,
            Lab::Protect,
            Lab::Zones,
            Lab::Balanced,
            Lab::BalancedEager,
            Lab::StaticReserved,
            Lab::CapacityBuffer,
            Lab::Byoc,
            Lab::ByocOnDemand,
            Lab::AutoModeBefore,
            Lab::AutoModeMigrate,
            Lab::Blank,
        ] {
            let text = lab.text();
            assert!(
                text.starts_with("apiVersion"),
                "{lab:?} should start at its first document"
            );
            let loaded = kpg_manifests::load(text);
            let errors: Vec<String> = loaded.errors().map(|d| d.to_string()).collect();
            assert!(errors.is_empty(), "{lab:?}: {errors:#?}");
        }
    }

    #[test]
    fn every_step_is_written_in_both_languages() {
        for lesson in LESSONS {
            assert!(!lesson.steps.is_empty());
            for step in lesson.steps {
                for text in [&step.title, &step.body] {
                    assert!(!text.en.is_empty());
                    // Titles may be product names ("Hello, Karpenter"); bodies never are.
                    if std::ptr::eq(text, &step.body) {
                        assert!(
                            text.ko.chars().any(|c| ('가'..='힣').contains(&c)),
                            "{}: untranslated body",
                            lesson.id
                        );
                    }
                    // Code spans stay code in both languages.
                    assert_eq!(text.en.matches('`').count() % 2, 0);
                    assert_eq!(text.ko.matches('`').count() % 2, 0);
                }
            }
        }
        assert!(find("labels-taints").is_some());
    }

    /// The v1beta1 lesson says v1 requires `consolidateAfter` only in a written `disruption`
    /// block and defaults an omitted one; the reader agrees on the lesson's own lab.
    #[test]
    fn the_v1beta1_lesson_states_the_consolidate_after_rule_the_reader_applies() {
        let step = &find("v1beta1-to-v1").expect("the v1beta1 lesson").steps[0].body;
        assert!(
            step.en
                .contains("requires it in any `disruption` block you write")
                && step.en.contains("`consolidateAfter: 0s`"),
            "{}",
            step.en
        );
        assert!(
            step.ko.contains("직접 쓴 `disruption` 블록 안에서는 필수")
                && step.ko.contains("`consolidateAfter: 0s`"),
            "{}",
            step.ko
        );
        let text = Lab::V1beta1.text();
        let codes = |t: &str| {
            kpg_manifests::load(t)
                .diagnostics
                .iter()
                .map(|d| d.code.as_str())
                .collect::<Vec<_>>()
        };
        let written = text.replace("    consolidateAfter: 30s\n", "");
        assert_ne!(written, text);
        assert!(
            codes(&written).contains(&"v1beta1-consolidate-after"),
            "a written block without it"
        );
        let omitted = text.replace(
            "  disruption:\n    consolidationPolicy: WhenUnderutilized\
             \n    consolidateAfter: 30s\n",
            "",
        );
        assert_ne!(omitted, text);
        assert!(
            !codes(&omitted).contains(&"v1beta1-consolidate-after"),
            "no block: v1 defaults it"
        );
        let v1 = kpg_manifests::migrate(&omitted).text;
        let loaded = kpg_manifests::load(&v1);
        assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
        assert!(
            loaded
                .scenario
                .node_pools
                .iter()
                .all(|np| np.consolidate_after == Some(0))
        );
    }

    /// The Auto Mode lesson's figures are the engine's: the migration puts `checkout` on an
    /// Auto Mode node and `catalog` on Karpenter's, and B − A is exactly the fee.
    #[test]
    fn the_auto_mode_lesson_says_what_the_engine_does() {
        let run = |lab: Lab| {
            let loaded = kpg_manifests::load(lab.text());
            let mut sim = kpg_core::sim::Simulation::new(loaded.scenario).expect("it runs");
            sim.run_until(120_000);
            sim.report()
        };
        let (a, b) = (run(Lab::AutoModeBefore), run(Lab::AutoModeMigrate));
        assert_eq!(a.management_fee_per_hour, 0.0);
        assert!((b.management_fee_per_hour - 0.01632).abs() < 1e-9, "{b:?}");
        assert!((b.cost_per_hour - a.cost_per_hour - b.management_fee_per_hour).abs() < 1e-9);
        let pool_of = |app: &str| -> Vec<Option<String>> {
            b.pods
                .iter()
                .filter(|p| p.labels.get("app").map(String::as_str) == Some(app))
                .map(|p| {
                    let node = p.node.as_deref();
                    b.nodes
                        .iter()
                        .find(|n| Some(n.name.as_str()) == node)
                        .and_then(|n| n.nodepool.clone())
                })
                .collect()
        };
        assert!(
            pool_of("checkout")
                .iter()
                .all(|p| p.as_deref() == Some("eks-auto-mode"))
        );
        assert!(
            pool_of("catalog")
                .iter()
                .all(|p| p.as_deref() == Some("default"))
        );
        let body = &find("auto-mode").expect("the lesson").steps[1].body;
        assert!(body.en.contains("$11.91") && body.ko.contains("$11.91"));
    }
}

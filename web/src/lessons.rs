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
                    en: "Look at the tabs on the left. The `EC2NodeClass` describes how a node is \
                         built on AWS: its AMI (`al2023@latest`), IAM role, subnets and security \
                         groups. The `NodePool` is the policy: which nodes Karpenter may launch \
                         (here on-demand, amd64, the `t` family), the labels they carry, and when \
                         they may be removed.\n\nNeither object starts anything. Karpenter only \
                         acts when a pod cannot be placed.",
                    ko: "왼쪽 탭을 보세요. `EC2NodeClass`는 AWS에서 노드를 어떻게 만들지 정합니다. \
                         AMI(`al2023@latest`), IAM 역할, 서브넷, 보안 그룹이 여기에 들어갑니다. \
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
                 따른 유형 선택, 스케일 인, 한도.",
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
                         조건이 같은(2 vCPU 유형 세 가지, 스팟만) NodePool 두 개를 더합니다.\n\n\
                         `service`에는 레이블 `node=service`와 테인트 `node=service:NoSchedule`이 \
                         있고, `platform`에는 레이블 `node=platform`만 있고 테인트는 없습니다.\n\n\
                         레이블은 끌어당깁니다. 파드가 그 레이블을 요구할 수 있습니다. 테인트는 \
                         밀어냅니다. 테인트를 용인(toleration)하는 파드만 들어올 수 있습니다. \
                         그래서 아무것도 요구하지 않는 파드는 모두 `platform`으로 가고, 이 풀이 \
                         사실상 클러스터의 기본 풀이 됩니다.",
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
                         유형 중 가장 싼 `t3.small`이 선택됩니다. 두 노드가 Ready가 되면 \
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
                         한참 못 미칩니다. 들어가는 유형은 `m7i-flex.large`(8 GiB)뿐입니다. \
                         service 풀은 platform 풀이 `t3.small`을 골랐던 것과 같은 세 유형을 \
                         허용하는데, 여기서는 `m7i-flex.large`를 띄웁니다.",
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
                    en: "The same lab, read from the cost chart under the summary. Play it to \
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
                    ko: "같은 랩을 요약 아래의 비용 차트로 읽어 봅니다. 8:00까지 재생하세요. 위쪽 \
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
                exercise: None,
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
                         재생해 보세요. 노드가 몇 대, 어떤 유형으로 뜨나요?",
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
}

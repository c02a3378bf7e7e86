//! Every string the page shows, in English and Korean.
//!
//! One enum, one `match` per language: adding a string without its translation does not
//! compile. Korean follows the register Korean engineering blogs use (합니다체 for prose,
//! noun phrases for labels), and keeps Kubernetes' own terms (NodePool, Pending, spot) in
//! English where Korean engineers write them in English.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    #[serde(rename = "en")]
    En,
    #[serde(rename = "ko")]
    Ko,
}

impl Lang {
    /// The language the browser asks for: Korean when its first preference is Korean.
    pub fn from_browser(tag: Option<&str>) -> Lang {
        match tag {
            Some(t)
                if {
                    let t = t.to_ascii_lowercase();
                    t == "ko" || t.starts_with("ko-") || t.starts_with("ko_")
                } =>
            {
                Lang::Ko
            }
            _ => Lang::En,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
        }
    }

    pub fn pick<'a>(self, en: &'a str, ko: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Ko => ko,
        }
    }
}

/// A UI string. Lesson prose lives in `lessons.rs`, in the same two languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum T {
    AppTitle,
    Tagline,
    Guide,
    GuideHelp,
    Lesson,
    Lessons,
    LessonPickerHelp,
    KarpenterVersion,
    KarpenterVersionHelp,
    Play,
    Pause,
    Step,
    StepHelp,
    Restart,
    Speed,
    Clock,
    PerHour,
    PerMonth,
    Language,
    Manifests,
    AddDocument,
    DeleteDocument,
    MoveLeft,
    MoveRight,
    MoveTab,
    Problems,
    NoProblems,
    ProblemsKeepLast,
    MigrateOffer,
    MigrateToV1,
    MigrateTitle,
    MigrateAccept,
    MigrateReject,
    MigrateNothing,
    MigrateNewTab,
    NeedsPerson,
    Before,
    After,
    Line,
    Column,
    Help,
    Cluster,
    PhoneViews,
    InspectView,
    Nodes,
    TemplateLabels,
    ExplainAtEvent,
    Cpu,
    Memory,
    Pending,
    Running,
    PendingPods,
    NoPendingPods,
    FixedNodes,
    FixedNodesHelp,
    NodePool,
    Weight,
    Labels,
    Taints,
    NoTaints,
    Requirements,
    Limits,
    NoLimits,
    NoNodes,
    NodesGrouped,
    ShowEveryNode,
    GroupNodesAgain,
    Simulating,
    PendingGrouped,
    PodsBound,
    StopSimulation,
    SimulationStopped,
    Launching,
    Registering,
    Ready,
    Cordoned,
    NotReady,
    Deleting,
    Drifted,
    Disrupting,
    SpotInterrupted,
    ReservationInterrupted,
    Expired,
    Spot,
    OnDemand,
    Reserved,
    Events,
    NoEvents,
    Previous,
    Next,
    NextLesson,
    Exercise,
    ExerciseSolved,
    ExerciseWaitRest,
    ExerciseOpen,
    Hint,
    ShowSolution,
    ApplySolution,
    SolutionApplied,
    OpenLab,
    CorruptNotice,
    NewBuild,
    Dismiss,
    LinkDamaged,
    LinkTooLarge,
    LinkNewer,
    LinkBrokenAfter,
    SharedBanner,
    BackToMine,
    KeepAsMine,
    KeepConfirm,
    Share,
    ShareTitle,
    ShareLinkHelp,
    CopyLink,
    Copied,
    LinkTooLong,
    DownloadYaml,
    DownloadHelp,
    OpenFile,
    OpenFileHelp,
    DropHere,
    OpenedFile,
    Undo,
    FileTooLarge,
    FileUnreadable,
    FileEmpty,
    Reading,
    ThePaste,
    ImportedSnapshot,
    SnapshotTooLarge,
    LinkTab,
    EmbedTab,
    EmbedHelp,
    EmbedScript,
    EmbedIframe,
    Autoplay,
    ReadOnly,
    StartHere,
    Theme,
    ThemeAuto,
    ThemeLight,
    ThemeDark,
    Preview,
    Close,
    CopySnippet,
    ReportTab,
    ReportHelp,
    ReportRedacted,
    ReportMaking,
    ReportNotReproduced,
    ReportFailed,
    CopyReport,
    OpenInPlayground,
    OpenInPlaygroundHelp,
    WaitingForScenario,
    EmbedTitle,
    EngineError,
    ApproxNote,
    EmptyScenario,
    Editor,
    EditorHelp,
    EditorTabMoves,
    SkipToCluster,
    GoToTime,
    GoToTimeHelp,
    PasteSplit,
    StepOf,
    Nominated,
    PoolDeleted,
    ResetLab,
    ResetLabHelp,
    EditsKept,
    ManifestsReset,
    StepChanged,
    StepChangeSkipped,
    LabMissing,
    LessonUntranslated,
    LessonDoesNotRead,
    NotSaved,
    PoolNotReady,
    Untitled,
    Explain,
    ExplainHint,
    ExplainGone,
    ClearSelection,
    ExplainThis,
    Matrix,
    Verdict,
    CheckTaints,
    CheckRequirements,
    CheckResources,
    CheckOfferings,
    CheckLimits,
    InstanceType,
    PricePerHour,
    Outcome,
    KindPod,
    KindNode,
    KindNodeClaim,
    Terminal,
    TerminalHelp,
    TerminalChanged,
    Watching,
    CostOverTime,
    CostChartHelp,
    CostChartEmpty,
    CostLegendCost,
    CostLegendNodes,
    CostLegendPending,
    CostAsTable,
    CostAsChart,
    CostTime,
    CostSpent,
    CostWhat,
    CostGo,
    CostSpentSoFar,
    CostCompare,
    CostCompareHelp,
    CostCollapse,
    CostExpand,
    LessonCollapse,
    LessonExpand,
    CompareStop,
    CompareSwap,
    CompareA,
    CompareB,
    CompareDiff,
    CompareHint,
    ComparePerMonth,
    CompareSpent,
    CompareDisruptions,
    CompareByPool,
    CompareByType,
    CompareByCapacity,
    ComparePlaced,
    ComparePlacedAlike,
    CompareNoPods,
    CompareBroken,
    NarrateLaunched,
    NarrateForPod,
    NarrateForPods,
    NarrateConsolidated,
    NarrateReplaced,
    NarrateConsolidatedMany,
    NarrateEmptied,
    NarrateDrifted,
    NarrateRepaired,
    NarrateInterrupted,
    NarrateExpired,
    NarrateBatch,
    NarrateBatchLaunched,
    NarrateBatchConsolidated,
    NarrateBatchDrifted,
    NarrateBatchRepaired,
    NarrateBatchInterrupted,
    NarrateBatchExpired,
    NarrateClockAt,
    ClusterAsTable,
    ClusterAsTableHelp,
    ClusterTableCaption,
    TableNode,
    TableInstanceType,
    TableZone,
    TableCapacityType,
    TableState,
    TableCpu,
    TableMemory,
    TablePods,
    TablePrice,
    LiveWhen,
    LiveVisible,
    LiveClick,
    LiveNever,
    PosterDrawing,
    PreviewPageTitle,
    PreviewPageHelp,
    PreviewPageUrl,
    DownloadPreviewPage,
    DownloadPreviewImage,
}

impl T {
    pub fn en(self) -> &'static str {
        use T::*;
        match self {
            AppTitle => "Karpenter Playground",
            Tagline => "Karpenter, simulated in your browser",
            Guide => "Guide",
            GuideHelp => {
                "The guide: scenario files, the command line, embedding, writing lessons, what \
                 is modelled"
            }
            Lesson => "Lesson",
            Lessons => "Lessons",
            LessonPickerHelp => "Open a lesson or start from a blank scenario",
            KarpenterVersion => "Karpenter",
            KarpenterVersionHelp => {
                "The Karpenter version the simulation follows (v1.9 is the long-term release). \
                 Choosing one writes it into the Cluster document."
            }
            Play => "Play",
            Pause => "Pause",
            Step => "Step",
            StepHelp => "Jump to the next thing that happens (key: .)",
            Restart => "Restart",
            Speed => "Speed",
            Clock => "Simulated time",
            PerHour => "/hour",
            PerMonth => "/month",
            Language => "Language",
            Manifests => "Manifests",
            AddDocument => "Add",
            DeleteDocument => "Delete this document",
            MoveLeft => "Move this tab left",
            MoveRight => "Move this tab right",
            MoveTab => "move",
            Problems => "Problems",
            NoProblems => "No problems: the simulation follows your manifests.",
            ProblemsKeepLast => {
                "The cluster shows the last valid manifests until these errors are fixed."
            }
            MigrateOffer => "These manifests use Karpenter's v1beta1 API.",
            MigrateToV1 => "Migrate to v1",
            MigrateTitle => "Migrate to Karpenter v1",
            MigrateAccept => "Accept",
            MigrateReject => "Reject",
            MigrateNothing => "Nothing here can be rewritten automatically.",
            MigrateNewTab => "new tab",
            NeedsPerson => "needs a person",
            Before => "before",
            After => "after",
            Line => "line",
            Column => "column",
            Help => "help",
            Cluster => "Cluster",
            PhoneViews => "Views",
            InspectView => "Events & Explain",
            Nodes => "nodes",
            TemplateLabels => "Labels from the NodePool's template",
            ExplainAtEvent => "Explain it as of this event: the clock goes back to this instant",
            Cpu => "CPU",
            Memory => "Memory",
            Pending => "pending",
            Running => "running",
            PendingPods => "Pending pods",
            NoPendingPods => "No pending pods",
            FixedNodes => "Fixed nodes",
            FixedNodesHelp => "A managed node group: Karpenter does not launch or remove these.",
            NodePool => "NodePool",
            Weight => "weight",
            Labels => "labels",
            Taints => "taints",
            NoTaints => "no taints",
            Requirements => "requirements",
            Limits => "limits",
            NoLimits => "no limits",
            NoNodes => "No nodes yet",
            NodesGrouped => {
                "Too many nodes for a card each: grouped by instance type, \
                             capacity type and state"
            }
            ShowEveryNode => "Show every node",
            GroupNodesAgain => "Group the nodes again",
            Simulating => "Simulating",
            PendingGrouped => {
                "Too many pending pods for a chip each: grouped by workload, with why the \
                 first one waits"
            }
            PodsBound => "bound",
            StopSimulation => "Stop",
            SimulationStopped => {
                "Simulation stopped: the cluster shows the last manifests that finished. \
                 Edit again to simulate your change."
            }
            Launching => "Launching",
            Registering => "Registering",
            Ready => "Ready",
            Cordoned => "Cordoned",
            NotReady => "NotReady",
            Deleting => "Deleting",
            Drifted => "Drifted",
            Disrupting => "Being replaced or removed",
            SpotInterrupted => "Spot interruption: EC2 reclaims it within 2 minutes",
            ReservationInterrupted => {
                "Capacity reservation interrupted: its owner takes it back within 2 minutes"
            }
            Expired => "Expired (expireAfter)",
            Spot => "spot",
            OnDemand => "on-demand",
            Reserved => "reserved",
            Events => "Events",
            NoEvents => "Nothing has happened yet. Press play.",
            Previous => "Back",
            Next => "Next",
            NextLesson => "Next lesson",
            Exercise => "Try it",
            ExerciseSolved => "Solved: the cluster meets every goal.",
            ExerciseWaitRest => {
                "Every goal is met now; play on until nothing is left to happen to be sure it \
                 holds."
            }
            ExerciseOpen => {
                "Edit the manifests and play: the goals tick as the cluster meets them."
            }
            Hint => "Hint",
            ShowSolution => "Solution",
            ApplySolution => "Put the solution in the manifests",
            SolutionApplied => "The solution is in the manifests; press Play to see it work.",
            OpenLab => "Open this lab",
            CorruptNotice => {
                "Your saved session could not be read, so the default lesson was opened instead."
            }
            NewBuild => "A new version of the playground was loaded.",
            Dismiss => "Dismiss",
            LinkDamaged => "This share link could not be opened: it is damaged or was cut short.",
            LinkTooLarge => {
                "This share link could not be opened: it holds more than \
                 the 1 MiB a link may carry."
            }
            LinkNewer => {
                "This share link could not be opened: it was made by a newer version of the \
                 playground. Reload the page to update it."
            }
            LinkBrokenAfter => "Your own workspace is shown instead.",
            SharedBanner => {
                "You are looking at a shared scenario. Your own workspace is kept as it was."
            }
            BackToMine => "Back to my workspace",
            KeepAsMine => "Keep this as my workspace",
            KeepConfirm => "Replace your own saved workspace with this shared scenario?",
            Share => "Share",
            ShareTitle => "Share this scenario",
            ShareLinkHelp => {
                "The link reopens exactly what you see: every tab in order, the lesson step, the \
                 instant, the selection, the open tab, speed and language. It all travels after \
                 the # of the address, which browsers never send to a server."
            }
            CopyLink => "Copy link",
            Copied => "Copied",
            LinkTooLong => {
                "This link is longer than 8 KB: chat tools and issue trackers may cut it short. \
                 Send the scenario as a file instead."
            }
            DownloadYaml => "Download .yaml",
            DownloadHelp => "Every tab, in order, as one multi-document YAML file",
            OpenFile => "Open file…",
            OpenFileHelp => {
                "Open a YAML file, or a cluster snapshot kubectl printed: its documents \
                 replace the tabs (Undo brings yours back)"
            }
            DropHere => "Drop a YAML file or a cluster snapshot to open it",
            OpenedFile => "Opened {}.",
            Undo => "Undo",
            FileTooLarge => "That file is larger than 1 MiB, the most a scenario may be here.",
            FileUnreadable => "That file could not be read as text.",
            FileEmpty => "That file holds no YAML documents.",
            Reading => "Reading it in the engine's worker…",
            ThePaste => "the paste",
            ImportedSnapshot => {
                "Imported the cluster snapshot {}. The tabs hold only what the simulation \
                 reads, redacted: no environment values, images or annotations but \
                 Karpenter's. The snapshot never left this browser."
            }
            SnapshotTooLarge => {
                "That is larger than 160 MiB, the most the page reads. kpg import reads any \
                 size on the command line and prints a scenario that opens here."
            }
            LinkTab => "Link",
            EmbedTab => "Embed",
            EmbedHelp => {
                "Paste this into an article. embed.js turns the <pre> into a live \
                 playground when a reader scrolls near it; without JavaScript, and in feed \
                 readers, the YAML stays readable."
            }
            EmbedScript => "With embed.js (recommended)",
            EmbedIframe => "A plain iframe, for hosts that remove scripts",
            Autoplay => "Play on load",
            ReadOnly => "Read-only manifests",
            StartHere => "Start at the current instant",
            Theme => "Theme",
            ThemeAuto => "Follow the reader",
            ThemeLight => "Light",
            ThemeDark => "Dark",
            Preview => "Preview",
            Close => "Close",
            CopySnippet => "Copy snippet",
            ReportTab => "Report to Karpenter",
            ReportHelp => {
                "A Markdown block for an issue or a discussion at github.com/kubernetes-sigs/\
                 karpenter or aws/karpenter-provider-aws: the Karpenter version simulated, what \
                 happened at this instant and the events that decided it, the scenario and a \
                 link that opens it. The same as `kpg share --issue` prints."
            }
            ReportRedacted => {
                "Redacted before it leaves the page: account IDs, ARNs, subnet, security group, \
                 AMI and other AWS IDs, IP addresses, node, cluster, role and tag values become \
                 stable placeholders; comments, other annotations, env, commands and private \
                 images are left out; documents that change nothing are dropped. The block ends \
                 with the full list. Read it before you post it."
            }
            ReportMaking => {
                "Reducing and redacting the scenario, and checking it still does the same…"
            }
            ReportNotReproduced => {
                "The redacted scenario does not simulate exactly as yours does; the block says \
                 so. Check what changed before you post it."
            }
            ReportFailed => "No report could be made:",
            CopyReport => "Copy Markdown",
            OpenInPlayground => "Open in Karpenter Playground ↗",
            OpenInPlaygroundHelp => {
                "Opens this scenario, as it is now, in the full playground (a new tab)"
            }
            WaitingForScenario => "Waiting for the article's scenario…",
            EmbedTitle => "Karpenter Playground (embedded)",
            EngineError => "The simulation cannot start",
            ApproxNote => "Spot prices are approximations",
            EmptyScenario => "Add a NodePool, an EC2NodeClass and a workload to see Karpenter act.",
            Editor => "YAML editor",
            EditorHelp => "Tab indents · Esc, then Tab, leaves the editor · Ctrl+M: Tab moves on",
            SkipToCluster => "Skip to the cluster",
            GoToTime => "Go to a time",
            PasteSplit => "The paste held {} documents: each has its own tab now.",
            GoToTimeHelp => "Go to a time: click, type 2:30 or 5m, then Enter",
            EditorTabMoves => "Tab moves on · type to edit, then Tab indents · Ctrl+M: Tab indents",
            StepOf => "of",
            Nominated => "nominated for",
            PoolDeleted => "deleted",
            ResetLab => "Reset the manifests",
            ResetLabHelp => "Put back this lab's manifests as the lesson wrote them",
            EditsKept => {
                "Your edits to this lab are back, as you left them. “Reset the manifests” \
                 starts it over."
            }
            ManifestsReset => "The manifests are back as the lesson wrote them.",
            StepChanged => "This step changed the manifests, as the lesson says.",
            StepChangeSkipped => {
                "This step changes text your edits have changed, so it was not changed. \
                 “Reset the manifests” gives you the step's own."
            }
            LabMissing => "This lesson's lab could not be read, so the manifests stay as they are.",
            LessonUntranslated => {
                "Parts of this lesson are not translated yet and are shown in English."
            }
            LessonDoesNotRead => "This lesson does not read: {}",
            NotSaved => {
                "This workspace is too large for this browser to keep: it is not saved, and a \
                 reload would lose it. Download it (⤓) to keep it."
            }
            Untitled => "untitled",
            Explain => "Explain",
            ExplainHint => {
                "Select a pod or a node in the cluster to see why: which nodes and NodePools could \
                 take a pod, why a node got its instance type, why it is or is not consolidated."
            }
            ExplainGone => "It no longer exists in the cluster.",
            ClearSelection => "Clear the selection",
            ExplainThis => "Select to see why",
            Matrix => "NodePool × check matrix",
            Verdict => "verdict",
            CheckTaints => "taints",
            CheckRequirements => "requirements",
            CheckResources => "resources",
            CheckOfferings => "offerings",
            CheckLimits => "limits",
            InstanceType => "instance type",
            PricePerHour => "$/hour",
            Outcome => "outcome",
            KindPod => "Pod",
            KindNode => "Node",
            KindNodeClaim => "NodeClaim",
            Terminal => "Terminal",
            TerminalHelp => {
                "Type a command, e.g. kubectl get nodes -L karpenter.sh/nodepool (Tab completes, ↑ \
                 recalls, help lists the commands; Esc, then Tab, moves on)."
            }
            TerminalChanged => "Added to the Timeline document at",
            Watching => "watching: press Ctrl+C to stop",
            PoolNotReady => "Not Ready, so Karpenter skips it:",
            CostOverTime => "Cost over time",
            CostChartHelp => {
                "Click the chart, or use the arrow keys \
                 and Enter, to move the clock to that instant."
            }
            CostChartEmpty => "The chart fills in as the clock runs.",
            CostLegendCost => "$/hour",
            CostLegendNodes => "nodes",
            CostLegendPending => "pending pods",
            CostAsTable => "Table",
            CostAsChart => "Chart",
            CostTime => "time",
            CostSpent => "spent",
            CostWhat => "what happened",
            CostGo => "Go there",
            CostSpentSoFar => "spent so far",
            CostCompare => "Compare",
            CostCompareHelp => {
                "Copy these manifests into a variant B, change \
                 it, and see both runs on one timeline."
            }
            CostCollapse => "Hide the cost chart",
            CostExpand => "Show the cost chart",
            LessonCollapse => "Hide the lesson text",
            LessonExpand => "Show the lesson text",
            CompareStop => "Stop comparing",
            CompareSwap => "Edit A instead",
            CompareA => "A: the copy",
            CompareB => "B: these manifests",
            CompareDiff => "B − A",
            CompareHint => "B is what you edit; A runs beside it on the same clock.",
            ComparePerMonth => "$/month (730 h)",
            CompareSpent => "spent",
            CompareDisruptions => "disruption decisions",
            CompareByPool => "nodes by NodePool",
            CompareByType => "nodes by instance type",
            CompareByCapacity => "nodes by capacity type",
            ComparePlaced => "Pods placed differently",
            ComparePlacedAlike => "Every workload's pods are placed alike.",
            CompareNoPods => "no pods",
            CompareBroken => "A does not run:",
            NarrateLaunched => "Karpenter launched {a} {type} ({capacity}) in {zone}{for}.",
            NarrateForPod => " for {n} pending pod",
            NarrateForPods => " for {n} pending pods",
            NarrateConsolidated => {
                "Karpenter consolidated node {node} ({type}), saving {savings}/h."
            }
            NarrateReplaced => {
                "Karpenter replaced node {node} ({type}) with a cheaper one, saving {savings}/h."
            }
            NarrateConsolidatedMany => "Karpenter consolidated {nodes}, saving {savings}/h.",
            NarrateEmptied => {
                "Karpenter removed the empty node {node} ({type}), saving {savings}/h."
            }
            NarrateDrifted => "Karpenter is replacing the drifted node {node} ({type}).",
            NarrateRepaired => "Karpenter is removing the unhealthy node {node} ({type}).",
            NarrateInterrupted => "EC2 is reclaiming the node {node}.",
            NarrateExpired => "NodeClaim {node} expired: Karpenter replaces it.",
            NarrateBatch => "Karpenter: {parts}.",
            NarrateBatchLaunched => "launched {nodes} ({types}){for}",
            NarrateBatchConsolidated => "consolidated {nodes}, saving {savings}/h",
            NarrateBatchDrifted => "replacing {nodes} that drifted",
            NarrateBatchRepaired => "removing {nodes} that are unhealthy",
            NarrateBatchInterrupted => "{nodes} interrupted by EC2",
            NarrateBatchExpired => "{nodes} expired",
            NarrateClockAt => {
                "Clock at {clock}: {nodes}, {running} running, {pending} pending, {cost}/h."
            }
            ClusterAsTable => "Table",
            ClusterAsTableHelp => "The same cluster as a table: a row per node",
            ClusterTableCaption => "The cluster at {clock}: {nodes}, {cost}/h",
            TableNode => "Node",
            TableInstanceType => "Instance type",
            TableZone => "Zone",
            TableCapacityType => "Capacity type",
            TableState => "State",
            TableCpu => "CPU requested / allocatable",
            TableMemory => "Memory requested / allocatable",
            TablePods => "Pods",
            TablePrice => "$/hour",
            LiveWhen => "Becomes live",
            LiveVisible => "When it comes into view",
            LiveClick => "When the reader clicks it",
            LiveNever => "Never: a static figure",
            PosterDrawing => "Drawing the cluster for the snippet…",
            PreviewPageTitle => "Link preview page",
            PreviewPageHelp => {
                "A static page whose card shows this cluster where its address is pasted \
                 (chat, social media); it opens this link. Publish both files in one folder \
                 at the address below."
            }
            PreviewPageUrl => "Where you will publish it (https://…/)",
            DownloadPreviewPage => "Download index.html",
            DownloadPreviewImage => "Download preview.png",
        }
    }

    pub fn ko(self) -> &'static str {
        use T::*;
        match self {
            AppTitle => "Karpenter 플레이그라운드",
            Tagline => "브라우저에서 돌려 보는 Karpenter",
            Guide => "안내서",
            GuideHelp => "안내서: 시나리오 파일, 명령줄, 임베드, 레슨 쓰기, 시뮬레이션 범위",
            Lesson => "레슨",
            Lessons => "레슨",
            LessonPickerHelp => "레슨을 열거나 빈 시나리오에서 시작하세요",
            KarpenterVersion => "Karpenter",
            KarpenterVersionHelp => {
                "시뮬레이션이 따르는 Karpenter 버전입니다(v1.9는 장기 지원 릴리스). 고르면 \
                 Cluster 문서에 적습니다."
            }
            Play => "재생",
            Pause => "일시정지",
            Step => "한 단계",
            StepHelp => "다음 사건이 일어나는 시점으로 이동합니다 (단축키: .)",
            Restart => "처음부터",
            Speed => "속도",
            Clock => "시뮬레이션 시각",
            PerHour => "/시간",
            PerMonth => "/월",
            Language => "언어",
            Manifests => "매니페스트",
            AddDocument => "추가",
            DeleteDocument => "이 문서 삭제",
            MoveLeft => "이 탭을 왼쪽으로 옮기기",
            MoveRight => "이 탭을 오른쪽으로 옮기기",
            MoveTab => "옮기기",
            Problems => "문제",
            NoProblems => "문제 없음: 시뮬레이션이 지금 매니페스트를 그대로 따릅니다.",
            ProblemsKeepLast => {
                "오류를 고칠 때까지 클러스터 화면은 마지막으로 유효했던 \
                 매니페스트 기준으로 유지됩니다."
            }
            MigrateOffer => "이 매니페스트는 Karpenter v1beta1 API를 씁니다.",
            MigrateToV1 => "v1으로 옮기기",
            MigrateTitle => "Karpenter v1으로 옮기기",
            MigrateAccept => "수락",
            MigrateReject => "거절",
            MigrateNothing => "자동으로 고칠 수 있는 부분이 없습니다.",
            MigrateNewTab => "새 탭",
            NeedsPerson => "직접 고쳐야 함",
            Before => "이전",
            After => "이후",
            Line => "줄",
            Column => "열",
            Help => "해결 방법",
            Cluster => "클러스터",
            PhoneViews => "보기",
            InspectView => "이벤트·설명",
            Nodes => "노드",
            TemplateLabels => "NodePool 템플릿이 붙인 레이블",
            ExplainAtEvent => "이 이벤트 시점으로 시계를 돌려 설명합니다",
            Cpu => "CPU",
            Memory => "메모리",
            Pending => "대기",
            Running => "실행 중",
            PendingPods => "Pending 파드",
            NoPendingPods => "Pending 파드 없음",
            FixedNodes => "고정 노드",
            FixedNodesHelp => "관리형 노드 그룹입니다. Karpenter가 띄우거나 지우지 않습니다.",
            NodePool => "NodePool",
            Weight => "가중치",
            Labels => "레이블",
            Taints => "테인트",
            NoTaints => "테인트 없음",
            Requirements => "요구 사항",
            Limits => "한도",
            NoLimits => "한도 없음",
            NoNodes => "아직 노드가 없습니다",
            NodesGrouped => "노드가 많아 인스턴스 유형, 용량 유형, 상태별로 묶어 보여 줍니다",
            ShowEveryNode => "모든 노드 보기",
            GroupNodesAgain => "다시 묶어 보기",
            Simulating => "시뮬레이션 중",
            PendingGrouped => {
                "대기 중인 파드가 많아 워크로드별로 묶어 보여 줍니다. 첫 파드가 기다리는 \
                 이유를 함께 표시합니다"
            }
            PodsBound => "배치됨",
            StopSimulation => "중지",
            SimulationStopped => {
                "시뮬레이션을 중지했습니다. 클러스터는 마지막으로 끝까지 실행된 매니페스트를 \
                 보여 줍니다. 다시 편집하면 변경 내용을 시뮬레이션합니다."
            }
            Launching => "시작 중",
            Registering => "등록 중",
            Ready => "준비됨",
            Cordoned => "Cordon됨",
            NotReady => "준비 안 됨",
            Deleting => "삭제 중",
            Drifted => "드리프트됨",
            Disrupting => "교체 또는 제거 진행 중",
            SpotInterrupted => "스팟 중단: 2분 안에 EC2가 회수합니다",
            ReservationInterrupted => "용량 예약 중단: 2분 안에 예약 소유자가 회수합니다",
            Expired => "만료됨(expireAfter)",
            Spot => "스팟",
            OnDemand => "온디맨드",
            Reserved => "예약",
            Events => "이벤트",
            NoEvents => "아직 아무 일도 일어나지 않았습니다. 재생을 눌러 보세요.",
            Previous => "이전",
            Next => "다음",
            NextLesson => "다음 레슨",
            Exercise => "직접 해 보기",
            ExerciseSolved => "해결했습니다. 클러스터가 목표를 모두 만족합니다.",
            ExerciseWaitRest => {
                "지금은 목표를 모두 만족합니다. 더 일어날 일이 없을 때까지 재생해서 그대로인지 \
                 확인하세요."
            }
            ExerciseOpen => {
                "매니페스트를 고치고 재생해 보세요. 클러스터가 목표를 만족하면 체크됩니다."
            }
            Hint => "힌트",
            ShowSolution => "정답 보기",
            ApplySolution => "정답을 매니페스트에 넣기",
            SolutionApplied => "정답을 매니페스트에 넣었습니다. 재생해서 확인해 보세요.",
            OpenLab => "이 실습 열기",
            CorruptNotice => "저장된 작업을 읽을 수 없어 기본 레슨을 열었습니다.",
            NewBuild => "플레이그라운드의 새 버전을 불러왔습니다.",
            Dismiss => "닫기",
            LinkDamaged => "이 공유 링크를 열 수 없습니다. 링크가 손상되었거나 잘렸습니다.",
            LinkTooLarge => "이 공유 링크를 열 수 없습니다. 링크에 담을 수 있는 1MiB를 넘습니다.",
            LinkNewer => {
                "이 공유 링크를 열 수 없습니다. 더 새로운 버전의 플레이그라운드에서 만든 \
                 링크입니다. 페이지를 새로 고쳐 업데이트하세요."
            }
            LinkBrokenAfter => "대신 내 작업 공간을 보여 드립니다.",
            SharedBanner => {
                "공유받은 시나리오를 보고 있습니다. 내 작업 공간은 그대로 남아 있습니다."
            }
            BackToMine => "내 작업 공간으로 돌아가기",
            KeepAsMine => "이 시나리오를 내 작업 공간으로",
            KeepConfirm => "내 작업 공간을 이 공유 시나리오로 바꿀까요?",
            Share => "공유",
            ShareTitle => "이 시나리오 공유",
            ShareLinkHelp => {
                "이 링크는 지금 보이는 그대로를 다시 엽니다. 모든 탭과 순서, 레슨 단계, 시각, \
                 선택한 대상, 열린 탭, 속도, 언어까지 담깁니다. 모든 내용은 주소의 # 뒤에 \
                 들어가며, 브라우저는 이 부분을 서버로 보내지 않습니다."
            }
            CopyLink => "링크 복사",
            Copied => "복사했습니다",
            LinkTooLong => {
                "이 링크는 8KB가 넘어 메신저나 이슈 트래커에서 잘릴 수 있습니다. 대신 \
                 시나리오를 파일로 보내세요."
            }
            DownloadYaml => "YAML 내려받기",
            DownloadHelp => "모든 탭을 순서대로 담은 멀티 도큐먼트 YAML 파일",
            OpenFile => "파일 열기…",
            OpenFileHelp => {
                "YAML 파일이나 kubectl이 출력한 클러스터 스냅샷을 엽니다. 파일의 문서가 \
                 지금 탭을 대신합니다(실행 취소로 되돌릴 수 있습니다)"
            }
            DropHere => "YAML 파일이나 클러스터 스냅샷을 놓으면 열립니다",
            OpenedFile => "{} 파일을 열었습니다.",
            Undo => "실행 취소",
            FileTooLarge => {
                "파일이 1MiB보다 큽니다. 이곳에서 열 수 있는 시나리오는 1MiB까지입니다."
            }
            FileUnreadable => "이 파일을 텍스트로 읽을 수 없습니다.",
            FileEmpty => "이 파일에는 YAML 문서가 없습니다.",
            Reading => "엔진의 워커에서 읽는 중…",
            ThePaste => "붙여 넣은 내용",
            ImportedSnapshot => {
                "클러스터 스냅샷 {}을(를) 가져왔습니다. 탭에는 시뮬레이션이 읽는 내용만 \
                 가려서 남겼습니다. 환경 변수 값, 이미지, Karpenter 외의 어노테이션은 \
                 없습니다. 스냅샷은 이 브라우저 밖으로 나가지 않았습니다."
            }
            SnapshotTooLarge => {
                "160MiB보다 큽니다. 페이지가 읽을 수 있는 최대 크기입니다. 명령줄의 kpg \
                 import는 크기 제한 없이 읽고, 여기서 열리는 시나리오를 출력합니다."
            }
            LinkTab => "링크",
            EmbedTab => "임베드",
            EmbedHelp => {
                "글에 붙여 넣으세요. 독자가 가까이 스크롤하면 embed.js가 <pre>를 실제로 \
                 동작하는 플레이그라운드로 바꿉니다. JavaScript가 꺼져 있거나 피드 \
                 리더에서는 YAML이 그대로 보입니다."
            }
            EmbedScript => "embed.js 사용(권장)",
            EmbedIframe => "스크립트를 지우는 호스트용 iframe",
            Autoplay => "불러오면 바로 재생",
            ReadOnly => "매니페스트 읽기 전용",
            StartHere => "현재 시각에서 시작",
            Theme => "테마",
            ThemeAuto => "독자 설정 따르기",
            ThemeLight => "밝게",
            ThemeDark => "어둡게",
            Preview => "미리 보기",
            Close => "닫기",
            CopySnippet => "코드 복사",
            ReportTab => "Karpenter에 보고",
            ReportHelp => {
                "github.com/kubernetes-sigs/karpenter나 aws/karpenter-provider-aws의 이슈 또는 \
                 디스커션에 붙여 넣을 Markdown 블록입니다. 시뮬레이션한 Karpenter 버전, 이 시점에 \
                 일어난 일과 그것을 결정한 이벤트, 시나리오와 그 시나리오를 여는 링크가 담깁니다. \
                 `kpg share --issue`가 출력하는 것과 같습니다. 업스트림용이므로 블록은 영어입니다."
            }
            ReportRedacted => {
                "페이지를 떠나기 전에 가립니다. 계정 ID, ARN, 서브넷·보안 그룹·AMI 등 AWS ID, \
                 IP 주소, 노드·클러스터·역할 이름과 태그 값은 일관된 자리 표시자로 바뀌고, 주석, \
                 그 밖의 애너테이션, env, command, 비공개 이미지는 빠지며, 결과를 바꾸지 않는 \
                 문서도 뺍니다. 전체 목록은 블록 끝에 있습니다. 올리기 전에 한 번 읽어 보세요."
            }
            ReportMaking => "시나리오를 줄이고 가린 뒤 같은 결과가 나오는지 확인하는 중…",
            ReportNotReproduced => {
                "가린 시나리오가 원래 시나리오와 똑같이 시뮬레이션되지 않습니다. 블록에도 그렇게 \
                 적혀 있습니다. 올리기 전에 무엇이 달라졌는지 확인하세요."
            }
            ReportFailed => "보고서를 만들 수 없습니다:",
            CopyReport => "Markdown 복사",
            OpenInPlayground => "Karpenter 플레이그라운드에서 열기 ↗",
            OpenInPlaygroundHelp => {
                "지금 이 상태의 시나리오를 전체 플레이그라운드에서 엽니다(새 탭)"
            }
            WaitingForScenario => "글의 시나리오를 기다리는 중…",
            EmbedTitle => "Karpenter 플레이그라운드(임베드)",
            EngineError => "시뮬레이션을 시작할 수 없습니다",
            ApproxNote => "스팟 가격은 근삿값입니다",
            EmptyScenario => {
                "NodePool, EC2NodeClass, 워크로드를 추가하면 Karpenter가 움직이기 시작합니다."
            }
            Editor => "YAML 편집기",
            EditorHelp => "Tab: 들여쓰기 · Esc 다음 Tab: 편집기 벗어나기 · Ctrl+M: Tab으로 이동",
            SkipToCluster => "클러스터로 건너뛰기",
            GoToTime => "시각으로 이동",
            PasteSplit => "붙여 넣은 내용에 문서가 {}개 있어 문서마다 탭을 하나씩 만들었습니다.",
            GoToTimeHelp => "시각으로 이동: 클릭하고 2:30이나 5m을 입력한 뒤 Enter",
            EditorTabMoves => {
                "Tab: 다음 항목으로 이동 · 입력하면 Tab이 들여쓰기 · Ctrl+M: Tab으로 들여쓰기"
            }
            StepOf => "/",
            Nominated => "배정 예정",
            PoolDeleted => "삭제됨",
            ResetLab => "매니페스트 되돌리기",
            ResetLabHelp => "이 실습의 매니페스트를 레슨 원본으로 되돌립니다",
            EditsKept => {
                "이 실습에서 고친 내용을 그대로 되살렸습니다. 처음부터 하려면 \
                 ‘매니페스트 되돌리기’를 누르세요."
            }
            ManifestsReset => "매니페스트를 레슨 원본으로 되돌렸습니다.",
            StepChanged => "레슨에 적힌 대로 이 단계가 매니페스트를 바꿨습니다.",
            StepChangeSkipped => {
                "이 단계가 바꾸려는 부분을 이미 고치셔서 바꾸지 않았습니다. 이 단계의 \
                 매니페스트를 보려면 ‘매니페스트 되돌리기’를 누르세요."
            }
            LabMissing => "이 레슨의 실습 파일을 읽지 못해 매니페스트를 그대로 두었습니다.",
            LessonUntranslated => "이 레슨의 일부는 아직 번역되지 않아 영어로 보여 드립니다.",
            LessonDoesNotRead => "이 레슨을 읽을 수 없습니다: {}",
            NotSaved => {
                "이 작업 공간은 브라우저에 저장하기에 너무 큽니다. 저장되지 않았으니 새로 \
                 고치면 사라집니다. 보관하려면 내려받으세요(⤓)."
            }
            Untitled => "제목 없음",
            Explain => "설명",
            ExplainHint => {
                "클러스터에서 파드나 노드를 선택하면 이유를 보여 줍니다. 어떤 노드와 NodePool이 \
                 파드를 받을 수 있는지, 노드가 왜 그 인스턴스 유형이 되었는지, 왜 통합되거나 \
                 통합되지 않는지 알 수 있습니다."
            }
            ExplainGone => "클러스터에 더 이상 없습니다.",
            ClearSelection => "선택 해제",
            ExplainThis => "선택하면 이유를 보여 줍니다",
            Matrix => "NodePool × 검사 표",
            Verdict => "판정",
            CheckTaints => "테인트",
            CheckRequirements => "요구 사항",
            CheckResources => "리소스",
            CheckOfferings => "오퍼링",
            CheckLimits => "한도",
            InstanceType => "인스턴스 유형",
            PricePerHour => "시간당 요금",
            Outcome => "결과",
            KindPod => "파드",
            KindNode => "노드",
            KindNodeClaim => "NodeClaim",
            Terminal => "터미널",
            TerminalHelp => {
                "명령을 입력하세요. 예: kubectl get nodes -L karpenter.sh/nodepool (Tab은 자동 \
                 완성, ↑는 이전 명령, help는 명령 목록, Esc 다음 Tab은 다음 항목으로 이동)"
            }
            TerminalChanged => "Timeline 문서에 추가됨:",
            Watching => "감시 중: Ctrl+C로 멈춥니다",
            PoolNotReady => "Ready 상태가 아니라서 Karpenter가 건너뜁니다:",
            CostOverTime => "시간에 따른 비용",
            CostChartHelp => "차트를 클릭하거나 화살표 키와 Enter로 그 시각으로 시계를 옮깁니다.",
            CostChartEmpty => "시계가 흐르면 차트가 채워집니다.",
            CostLegendCost => "시간당 요금",
            CostLegendNodes => "노드",
            CostLegendPending => "Pending 파드",
            CostAsTable => "표",
            CostAsChart => "차트",
            CostTime => "시각",
            CostSpent => "누적 비용",
            CostWhat => "일어난 일",
            CostGo => "이동",
            CostSpentSoFar => "지금까지 지출",
            CostCompare => "비교",
            CostCompareHelp => {
                "이 매니페스트를 변형 B로 복사해 고친 뒤, 두 실행을 한 타임라인에서 비교합니다."
            }
            CostCollapse => "비용 차트 숨기기",
            CostExpand => "비용 차트 보이기",
            LessonCollapse => "레슨 본문 숨기기",
            LessonExpand => "레슨 본문 보이기",
            CompareStop => "비교 끝내기",
            CompareSwap => "A를 편집하기",
            CompareA => "A: 복사본",
            CompareB => "B: 지금 매니페스트",
            CompareDiff => "B − A",
            CompareHint => "편집하는 것은 B이고, A는 같은 시계로 나란히 실행됩니다.",
            ComparePerMonth => "월 요금 (730시간)",
            CompareSpent => "누적 비용",
            CompareDisruptions => "중단(disruption) 결정",
            CompareByPool => "NodePool별 노드",
            CompareByType => "인스턴스 유형별 노드",
            CompareByCapacity => "용량 유형별 노드",
            ComparePlaced => "다르게 배치된 파드",
            ComparePlacedAlike => "모든 워크로드의 파드가 똑같이 배치됐습니다.",
            CompareNoPods => "파드 없음",
            CompareBroken => "A가 실행되지 않습니다:",
            NarrateLaunched => "Karpenter가 노드를 띄웠습니다: {zone}의 {type} {capacity}{for}.",
            NarrateForPod => ", Pending 파드 {n}개용",
            NarrateForPods => ", Pending 파드 {n}개용",
            NarrateConsolidated => {
                "Karpenter가 노드를 통합했습니다: {node}({type}), 시간당 {savings} 절감."
            }
            NarrateReplaced => {
                "Karpenter가 노드를 더 싼 노드로 교체했습니다: {node}({type}), \
                 시간당 {savings} 절감."
            }
            NarrateConsolidatedMany => "Karpenter가 {nodes}를 통합했습니다: 시간당 {savings} 절감.",
            NarrateEmptied => {
                "Karpenter가 빈 노드를 삭제했습니다: {node}({type}), 시간당 {savings} 절감."
            }
            NarrateDrifted => "Karpenter가 드리프트된 노드를 교체합니다: {node}({type}).",
            NarrateRepaired => "Karpenter가 비정상 노드를 제거합니다: {node}({type}).",
            NarrateInterrupted => "EC2가 노드를 회수합니다: {node}.",
            NarrateExpired => "NodeClaim이 만료되었습니다: {node}. Karpenter가 교체합니다.",
            NarrateBatch => "Karpenter의 결정: {parts}.",
            NarrateBatchLaunched => "{nodes} 시작({types}{for})",
            NarrateBatchConsolidated => "{nodes} 통합(시간당 {savings} 절감)",
            NarrateBatchDrifted => "드리프트된 {nodes} 교체",
            NarrateBatchRepaired => "비정상 {nodes} 제거",
            NarrateBatchInterrupted => "EC2가 {nodes} 회수",
            NarrateBatchExpired => "{nodes} 만료",
            NarrateClockAt => {
                "시각 {clock}: {nodes}, 실행 중인 {running}, Pending {pending}개, 시간당 {cost}."
            }
            ClusterAsTable => "표",
            ClusterAsTableHelp => "같은 클러스터를 표로 보기: 노드마다 한 행",
            ClusterTableCaption => "{clock} 시점의 클러스터: {nodes}, 시간당 {cost}",
            TableNode => "노드",
            TableInstanceType => "인스턴스 유형",
            TableZone => "가용 영역",
            TableCapacityType => "용량 유형",
            TableState => "상태",
            TableCpu => "CPU 요청 / 할당 가능",
            TableMemory => "메모리 요청 / 할당 가능",
            TablePods => "파드",
            TablePrice => "시간당 요금",
            LiveWhen => "라이브 전환",
            LiveVisible => "화면에 보일 때",
            LiveClick => "독자가 클릭할 때",
            LiveNever => "안 함: 정적 그림",
            PosterDrawing => "코드에 넣을 클러스터 그림을 그리는 중…",
            PreviewPageTitle => "링크 미리보기 페이지",
            PreviewPageHelp => {
                "주소를 붙여 넣은 곳(채팅, 소셜 미디어)에 이 클러스터를 카드로 보여 주는 정적 \
                 페이지입니다. 열면 이 링크로 이동합니다. 두 파일을 아래 주소의 한 폴더에 \
                 올리세요."
            }
            PreviewPageUrl => "올릴 주소 (https://…/)",
            DownloadPreviewPage => "index.html 내려받기",
            DownloadPreviewImage => "preview.png 내려받기",
        }
    }

    pub fn get(self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en(),
            Lang::Ko => self.ko(),
        }
    }
}

/// Every string, in the enum's order: what the tests walk (each translated, each keeping
/// to the glossary). A test checks that it lists every variant.
pub const ALL: &[T] = &[
    T::AppTitle,
    T::Tagline,
    T::Guide,
    T::GuideHelp,
    T::Lesson,
    T::Lessons,
    T::LessonPickerHelp,
    T::KarpenterVersion,
    T::KarpenterVersionHelp,
    T::Play,
    T::Pause,
    T::Step,
    T::StepHelp,
    T::Restart,
    T::Speed,
    T::Clock,
    T::PerHour,
    T::PerMonth,
    T::Language,
    T::Manifests,
    T::AddDocument,
    T::DeleteDocument,
    T::MoveLeft,
    T::MoveRight,
    T::MoveTab,
    T::Problems,
    T::NoProblems,
    T::ProblemsKeepLast,
    T::MigrateOffer,
    T::MigrateToV1,
    T::MigrateTitle,
    T::MigrateAccept,
    T::MigrateReject,
    T::MigrateNothing,
    T::MigrateNewTab,
    T::NeedsPerson,
    T::Before,
    T::After,
    T::Line,
    T::Column,
    T::Help,
    T::Cluster,
    T::PhoneViews,
    T::InspectView,
    T::Nodes,
    T::TemplateLabels,
    T::ExplainAtEvent,
    T::Cpu,
    T::Memory,
    T::Pending,
    T::Running,
    T::PendingPods,
    T::NoPendingPods,
    T::FixedNodes,
    T::FixedNodesHelp,
    T::NodePool,
    T::Weight,
    T::Labels,
    T::Taints,
    T::NoTaints,
    T::Requirements,
    T::Limits,
    T::NoLimits,
    T::NoNodes,
    T::NodesGrouped,
    T::ShowEveryNode,
    T::GroupNodesAgain,
    T::Simulating,
    T::PendingGrouped,
    T::PodsBound,
    T::StopSimulation,
    T::SimulationStopped,
    T::Launching,
    T::Registering,
    T::Ready,
    T::Cordoned,
    T::NotReady,
    T::Deleting,
    T::Drifted,
    T::Disrupting,
    T::SpotInterrupted,
    T::ReservationInterrupted,
    T::Expired,
    T::Spot,
    T::OnDemand,
    T::Reserved,
    T::Events,
    T::NoEvents,
    T::Previous,
    T::Next,
    T::NextLesson,
    T::Exercise,
    T::ExerciseSolved,
    T::ExerciseWaitRest,
    T::ExerciseOpen,
    T::Hint,
    T::ShowSolution,
    T::ApplySolution,
    T::SolutionApplied,
    T::OpenLab,
    T::CorruptNotice,
    T::NewBuild,
    T::Dismiss,
    T::LinkDamaged,
    T::LinkTooLarge,
    T::LinkNewer,
    T::LinkBrokenAfter,
    T::SharedBanner,
    T::BackToMine,
    T::KeepAsMine,
    T::KeepConfirm,
    T::Share,
    T::ShareTitle,
    T::ShareLinkHelp,
    T::CopyLink,
    T::Copied,
    T::LinkTooLong,
    T::DownloadYaml,
    T::DownloadHelp,
    T::OpenFile,
    T::OpenFileHelp,
    T::DropHere,
    T::OpenedFile,
    T::Undo,
    T::FileTooLarge,
    T::FileUnreadable,
    T::FileEmpty,
    T::Reading,
    T::ThePaste,
    T::ImportedSnapshot,
    T::SnapshotTooLarge,
    T::LinkTab,
    T::EmbedTab,
    T::EmbedHelp,
    T::EmbedScript,
    T::EmbedIframe,
    T::Autoplay,
    T::ReadOnly,
    T::StartHere,
    T::Theme,
    T::ThemeAuto,
    T::ThemeLight,
    T::ThemeDark,
    T::Preview,
    T::Close,
    T::CopySnippet,
    T::ReportTab,
    T::ReportHelp,
    T::ReportRedacted,
    T::ReportMaking,
    T::ReportNotReproduced,
    T::ReportFailed,
    T::CopyReport,
    T::OpenInPlayground,
    T::OpenInPlaygroundHelp,
    T::WaitingForScenario,
    T::EmbedTitle,
    T::EngineError,
    T::ApproxNote,
    T::EmptyScenario,
    T::Editor,
    T::EditorHelp,
    T::EditorTabMoves,
    T::SkipToCluster,
    T::GoToTime,
    T::GoToTimeHelp,
    T::PasteSplit,
    T::StepOf,
    T::Nominated,
    T::PoolDeleted,
    T::ResetLab,
    T::ResetLabHelp,
    T::EditsKept,
    T::ManifestsReset,
    T::StepChanged,
    T::StepChangeSkipped,
    T::LabMissing,
    T::LessonUntranslated,
    T::LessonDoesNotRead,
    T::NotSaved,
    T::PoolNotReady,
    T::Untitled,
    T::Explain,
    T::ExplainHint,
    T::ExplainGone,
    T::ClearSelection,
    T::ExplainThis,
    T::Matrix,
    T::Verdict,
    T::CheckTaints,
    T::CheckRequirements,
    T::CheckResources,
    T::CheckOfferings,
    T::CheckLimits,
    T::InstanceType,
    T::PricePerHour,
    T::Outcome,
    T::KindPod,
    T::KindNode,
    T::KindNodeClaim,
    T::Terminal,
    T::TerminalHelp,
    T::TerminalChanged,
    T::Watching,
    T::CostOverTime,
    T::CostChartHelp,
    T::CostChartEmpty,
    T::CostLegendCost,
    T::CostLegendNodes,
    T::CostLegendPending,
    T::CostAsTable,
    T::CostAsChart,
    T::CostTime,
    T::CostSpent,
    T::CostWhat,
    T::CostGo,
    T::CostSpentSoFar,
    T::CostCompare,
    T::CostCompareHelp,
    T::CostCollapse,
    T::CostExpand,
    T::LessonCollapse,
    T::LessonExpand,
    T::CompareStop,
    T::CompareSwap,
    T::CompareA,
    T::CompareB,
    T::CompareDiff,
    T::CompareHint,
    T::ComparePerMonth,
    T::CompareSpent,
    T::CompareDisruptions,
    T::CompareByPool,
    T::CompareByType,
    T::CompareByCapacity,
    T::ComparePlaced,
    T::ComparePlacedAlike,
    T::CompareNoPods,
    T::CompareBroken,
    T::NarrateLaunched,
    T::NarrateForPod,
    T::NarrateForPods,
    T::NarrateConsolidated,
    T::NarrateReplaced,
    T::NarrateConsolidatedMany,
    T::NarrateEmptied,
    T::NarrateDrifted,
    T::NarrateRepaired,
    T::NarrateInterrupted,
    T::NarrateExpired,
    T::NarrateBatch,
    T::NarrateBatchLaunched,
    T::NarrateBatchConsolidated,
    T::NarrateBatchDrifted,
    T::NarrateBatchRepaired,
    T::NarrateBatchInterrupted,
    T::NarrateBatchExpired,
    T::NarrateClockAt,
    T::ClusterAsTable,
    T::ClusterAsTableHelp,
    T::ClusterTableCaption,
    T::TableNode,
    T::TableInstanceType,
    T::TableZone,
    T::TableCapacityType,
    T::TableState,
    T::TableCpu,
    T::TableMemory,
    T::TablePods,
    T::TablePrice,
    T::LiveWhen,
    T::LiveVisible,
    T::LiveClick,
    T::LiveNever,
    T::PosterDrawing,
    T::PreviewPageTitle,
    T::PreviewPageHelp,
    T::PreviewPageUrl,
    T::DownloadPreviewPage,
    T::DownloadPreviewImage,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_language_picks_korean_only_for_korean() {
        assert_eq!(Lang::from_browser(Some("ko-KR")), Lang::Ko);
        assert_eq!(Lang::from_browser(Some("ko")), Lang::Ko);
        assert_eq!(Lang::from_browser(Some("en-US")), Lang::En);
        assert_eq!(
            Lang::from_browser(Some("kok")),
            Lang::En,
            "Konkani is not Korean"
        );
        assert_eq!(Lang::from_browser(None), Lang::En);
    }

    #[test]
    fn every_label_is_translated() {
        // A Korean string identical to the English one is a forgotten translation, except
        // for the Kubernetes terms Korean engineers write in English.
        let same_on_purpose = [
            T::Cpu,
            T::NodePool,
            T::StepOf,
            T::KindNodeClaim,
            T::CompareDiff,
            T::KarpenterVersion,
        ];
        for &t in ALL {
            if same_on_purpose.contains(&t) {
                continue;
            }
            assert_ne!(t.en(), t.ko(), "{t:?} is not translated");
            assert!(
                t.ko().chars().any(|c| ('가'..='힣').contains(&c)),
                "{t:?}: {:?} has no Hangul",
                t.ko()
            );
        }
    }
}

//! Unknown fields anywhere in a pod or workload, as kubectl's field validation reports them:
//! a warning with the full path, the key's position and the nearest real field name, also deep
//! inside the parts of a pod spec the simulation does not read (probes, volumes, security
//! contexts, ...).

use kpg_manifests::{Diagnostic, Loaded, Severity, load};

fn unknown(l: &Loaded) -> Vec<&Diagnostic> {
    l.diagnostics
        .iter()
        .filter(|d| d.code == "unknown-field")
        .collect()
}

/// The one unknown-field finding of `text`, after checking it is a warning with a Korean
/// message and that nothing else was found.
fn the_warning(text: &str) -> Diagnostic {
    let l = load(text);
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    assert_eq!(l.diagnostics.len(), 1, "{:#?}", l.diagnostics);
    let d = l.diagnostics[0].clone();
    assert_eq!(d.code, "unknown-field");
    assert_eq!(d.severity, Severity::Warning);
    let ko = d.ko.as_ref().expect("a Korean message");
    assert!(ko.message.contains("알 수 없는 필드"), "{ko:?}");
    assert!(ko.help.is_some(), "{ko:?}");
    d
}

/// 1-based line and column of the `n`th (0-based) occurrence of `needle` in `text`.
fn position(text: &str, needle: &str, n: usize) -> (usize, usize) {
    let at = text
        .match_indices(needle)
        .nth(n)
        .unwrap_or_else(|| panic!("`{needle}` #{n} in the text"))
        .0;
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

fn did_you_mean(d: &Diagnostic, name: &str) {
    assert_eq!(
        d.help.as_deref(),
        Some(format!("did you mean `{name}`?").as_str()),
        "{d}"
    );
}

/// Wraps a pod spec (indented for `spec.template.spec`) in a Deployment.
fn deployment(pod_spec: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {{app: web}}
  template:
    metadata:
      labels: {{app: web}}
    spec:
{pod_spec}"
    )
}

#[test]
fn a_misspelt_security_context_field_is_reported_where_kubectl_reports_it() {
    // The typo of aws/karpenter-provider-aws' examples/workloads/gpu-nvidia.yaml.
    let text = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: gpu
spec:
  replicas: 1
  selector:
    matchLabels:
      app: gpu
  template:
    metadata:
      labels:
        app: gpu
    spec:
      containers:
      - name: gpu
        image: public.ecr.aws/eks-distro/kubernetes/pause:3.2
        securityContext:
          allowPrivilegedEscalation: false
        resources:
          limits:
            nvidia.com/gpu: \"1\"
";
    let d = the_warning(text);
    assert_eq!(
        d.path,
        "spec.template.spec.containers[0].securityContext.allowPrivilegedEscalation"
    );
    assert_eq!((d.line, d.column), (19, 11));
    assert_eq!(d.document, 0);
    assert_eq!(d.object.as_deref(), Some("Deployment/default/gpu"));
    did_you_mean(&d, "allowPrivilegeEscalation");
    assert!(
        d.message.contains("allowPrivilegedEscalation"),
        "{}",
        d.message
    );
    assert_eq!(
        d.ko.as_ref().and_then(|k| k.help.as_deref()),
        Some("`allowPrivilegeEscalation`를 쓰려던 것인가요?")
    );
    // A warning only: the Deployment is still simulated.
    assert_eq!(load(text).scenario.workloads.len(), 1);
}

#[test]
fn a_misspelt_probe_field() {
    let text = deployment(
        "      containers:
      - name: app
        livenessProbe:
          httpGet:
            paht: /healthz
            port: http
          periodSeconds: 10
",
    );
    let d = the_warning(&text);
    assert_eq!(
        d.path,
        "spec.template.spec.containers[0].livenessProbe.httpGet.paht"
    );
    assert_eq!((d.line, d.column), position(&text, "paht", 0));
    did_you_mean(&d, "path");
}

#[test]
fn a_misspelt_volume_source_field() {
    let text = deployment(
        "      containers:
      - name: app
        volumeMounts:
        - {name: config, mountPath: /etc/app}
      volumes:
      - name: config
        configMap:
          nmae: app-config
",
    );
    let d = the_warning(&text);
    assert_eq!(d.path, "spec.template.spec.volumes[0].configMap.nmae");
    assert_eq!((d.line, d.column), position(&text, "nmae", 0));
    did_you_mean(&d, "name");
}

#[test]
fn a_misspelt_volume_claim_template_field() {
    let text = "\
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      volumMode: Filesystem
      accessModes: [ReadWriteOnce]
      resources:
        requests: {storage: 10Gi}
";
    let d = the_warning(text);
    assert_eq!(d.path, "spec.volumeClaimTemplates[0].spec.volumMode");
    assert_eq!((d.line, d.column), (14, 7));
    did_you_mean(&d, "volumeMode");
}

#[test]
fn a_misspelt_pod_failure_policy_field() {
    let text = "\
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCode: {operator: In, values: [42]}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: work}]
";
    let d = the_warning(text);
    assert_eq!(d.path, "spec.podFailurePolicy.rules[0].onExitCode");
    assert_eq!((d.line, d.column), (8, 7));
    did_you_mean(&d, "onExitCodes");
}

#[test]
fn a_misspelt_update_strategy_field() {
    let text = "\
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {maxUnavailble: 1}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent}]
";
    let d = the_warning(text);
    assert_eq!(d.path, "spec.updateStrategy.rollingUpdate.maxUnavailble");
    assert_eq!((d.line, d.column), (8, 21));
    did_you_mean(&d, "maxUnavailable");
}

#[test]
fn a_misspelt_pdb_field() {
    let text = "\
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
  unhealthyPodEvictionPolicey: AlwaysAllow
";
    let d = the_warning(text);
    assert_eq!(d.path, "spec.unhealthyPodEvictionPolicey");
    assert_eq!((d.line, d.column), (7, 3));
    did_you_mean(&d, "unhealthyPodEvictionPolicy");
}

#[test]
fn misspelt_object_meta_fields() {
    let text = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: 1234, controler: true}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      anotations: {note: x}
    spec:
      containers: [{name: app}]
";
    let l = load(text);
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    let w = unknown(&l);
    assert_eq!(w.len(), 2, "{w:#?}");
    assert_eq!(w[0].path, "metadata.ownerReferences[0].controler");
    assert_eq!((w[0].line, w[0].column), position(text, "controler", 0));
    did_you_mean(w[0], "controller");
    assert_eq!(w[1].path, "spec.template.metadata.anotations");
    assert_eq!((w[1].line, w[1].column), (12, 7));
    did_you_mean(w[1], "annotations");
    // A Namespace's spec too.
    let d = the_warning(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n\
         spec: {finalizer: [kubernetes]}\n",
    );
    assert_eq!(d.path, "spec.finalizer");
    did_you_mean(&d, "finalizers");
}

#[test]
fn every_part_of_a_pod_spec_is_checked() {
    let text = deployment(concat!(
        "      initContainers:
      - name: init
        env: [{name: A, valueFrom: {secretKeyRef: {name: s, kye: k}}}]
      ephemeralContainers:
      - {name: debug, targetContainerNam: app}
      containers:
      - name: app
        lifecycle: {preStop: {sleep: {second: 5}}}
        envFrom: [{configMapRef: {name: c}, prefx: APP_}]
        volumeMounts: [{name: data, mountPath: /data, readonly: true}]
      securityContext: {seccompProfile: {typ: RuntimeDefault}}
      dnsConfig: {nameserver: [1.1.1.1]}
      hostAliases: [{ip: 10.0.0.1, hostnamess: [db]}]
      readinessGates: [{conditionTyp: Ready}]
      schedulingGates: [{nme: wait}]
      os: {nam: linux}
      tolerations: [{key: a, operator: Exists, efect: NoSchedule}]
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, ",
        "labelSelectr: {}}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists, value: []}]}]
      volumes:
      - {name: data, emptyDir: {sizeLimt: 1Gi}}
      - {name: token, projected: {sources: [{serviceAccountToken: {path: t, ",
        "expirationSecond: 600}}]}}
      - {name: cache, ephemeral: {volumeClaimTemplate: {spec: {storageClasName: gp3, ",
        "accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}}}
"
    ));
    let l = load(&text);
    assert!(!l.has_errors(), "{:#?}", l.diagnostics);
    let got: Vec<(&str, Option<&str>)> = unknown(&l)
        .iter()
        .map(|d| (d.path.as_str(), d.help.as_deref()))
        .collect();
    let p = "spec.template.spec.";
    let want = [
        ("initContainers[0].env[0].valueFrom.secretKeyRef.kye", "key"),
        (
            "ephemeralContainers[0].targetContainerNam",
            "targetContainerName",
        ),
        ("containers[0].lifecycle.preStop.sleep.second", "seconds"),
        ("containers[0].envFrom[0].prefx", "prefix"),
        ("containers[0].volumeMounts[0].readonly", "readOnly"),
        ("securityContext.seccompProfile.typ", "type"),
        ("dnsConfig.nameserver", "nameservers"),
        ("hostAliases[0].hostnamess", "hostnames"),
        ("readinessGates[0].conditionTyp", "conditionType"),
        ("schedulingGates[0].nme", "name"),
        ("os.nam", "name"),
        ("tolerations[0].efect", "effect"),
        ("topologySpreadConstraints[0].labelSelectr", "labelSelector"),
        (
            "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.\
             nodeSelectorTerms[0].matchExpressions[0].value",
            "values",
        ),
        ("volumes[0].emptyDir.sizeLimt", "sizeLimit"),
        (
            "volumes[1].projected.sources[0].serviceAccountToken.expirationSecond",
            "expirationSeconds",
        ),
        (
            "volumes[2].ephemeral.volumeClaimTemplate.spec.storageClasName",
            "storageClassName",
        ),
    ];
    for (path, name) in want {
        let full = format!("{p}{path}");
        let help = format!("did you mean `{name}`?");
        assert!(
            got.contains(&(full.as_str(), Some(help.as_str()))),
            "missing {full} ({help}) in {got:#?}"
        );
    }
    assert_eq!(got.len(), want.len(), "{got:#?}");
    // schedulingGates is real but not simulated: its own warning, and the typo inside it.
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.code == "unsupported-field" && d.path == format!("{p}schedulingGates"))
    );
}

/// A pod template as people write them, every part spelt right: nothing to report.
const FULL_TEMPLATE: &str = include_str!("fixtures/pod-template-full.yaml");

#[test]
fn a_realistic_pod_template_spelt_right_has_no_findings() {
    let l = load(FULL_TEMPLATE);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    assert_eq!(l.scenario.workloads.len(), 1);
}

#[test]
fn the_other_kinds_spelt_right_have_no_findings() {
    let text = "\
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 2
  podManagementPolicy: Parallel
  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 0, maxUnavailable: 1}}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}
  ordinals: {start: 1}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:16}]
  volumeClaimTemplates:
  - metadata: {name: data, annotations: {x: y}}
    spec:
      accessModes: [ReadWriteOnce]
      volumeMode: Filesystem
      selector: {matchLabels: {disk: fast}}
      dataSourceRef: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: base}
      resources: {requests: {storage: 10Gi}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 10%, maxSurge: 0}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  completions: 4
  parallelism: 2
  completionMode: Indexed
  backoffLimitPerIndex: 1
  maxFailedIndexes: 2
  podReplacementPolicy: Failed
  ttlSecondsAfterFinished: 60
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {containerName: work, operator: In, values: [42]}
    - action: Ignore
      onPodConditions: [{type: DisruptionTarget, status: \"True\"}]
  successPolicy:
    rules: [{succeededIndexes: 0-1, succeededCount: 1}]
  template:
    spec:
      restartPolicy: Never
      containers: [{name: work}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  minReadySeconds: 1
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec:
      containers: [{name: c}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db}
spec:
  maxUnavailable: 1
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector: {matchLabels: {app: db}}
---
apiVersion: v1
kind: Pod
metadata: {name: solo, creationTimestamp: null}
spec:
  containers: [{name: c, stdin: true, tty: true}]
status: {phase: Pending}
---
apiVersion: v1
kind: Namespace
metadata: {name: shop}
spec: {finalizers: [kubernetes]}
";
    let l = load(text);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
}

#[test]
fn a_field_the_reader_reads_is_reported_once() {
    // `resources` and `tolerations` are read by the converter: their typos are reported by it,
    // and the schema walk does not report them again.
    let text = deployment(
        "      containers:
      - name: app
        resources: {request: {cpu: 1}}
      tolerations: [{key: a, operator: Exists, efect: NoSchedule}]
",
    );
    let l = load(&text);
    let paths: Vec<_> = unknown(&l).iter().map(|d| d.path.clone()).collect();
    assert_eq!(
        paths,
        [
            "spec.template.spec.containers[0].resources.request",
            "spec.template.spec.tolerations[0].efect"
        ],
        "{:#?}",
        l.diagnostics
    );
}

#[test]
fn free_maps_take_any_key() {
    let text = deployment(
        "      nodeSelector: {whatever.example.com/anything: x}
      runtimeClassName: sandboxed
      overhead: {cpu: 100m}
      containers:
      - name: app
        resources:
          requests: {example.com/widget: 1}
          limits: {example.com/widget: 1}
      volumes:
      - name: v
        csi: {driver: d, volumeAttributes: {nmae: not-a-field-name, x: y}}
      - name: f
        flexVolume: {driver: d, options: {paht: kept}}
",
    ) + "---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: sandboxed}
handler: kata
overhead: {podFixed: {cpu: 100m}}
";
    let l = load(&text);
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
}

#[test]
fn a_field_newer_than_the_table_is_only_a_warning() {
    let text = deployment(
        "      containers:
      - name: app
        someFieldFromKubernetes2: {enabled: true}
",
    );
    let d = the_warning(&text);
    assert_eq!(
        d.path,
        "spec.template.spec.containers[0].someFieldFromKubernetes2"
    );
    assert_eq!(
        d.help.as_deref(),
        Some("check its spelling and indentation, or remove it")
    );
    assert_eq!(load(&text).scenario.workloads.len(), 1);
}

#[test]
fn one_bad_document_does_not_hide_anothers_unknown_fields() {
    let bad = "apiVersion: v1\nkind: Pod\nmetadata: {name: broken\nspec: {}\n";
    let typo = deployment(
        "      containers:
      - {name: app, readinessProbe: {tcpSocket: {prot: 80}}}
",
    );
    let missing = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n\
                   spec:\n  containers: [{image: x, startupProbe: {exec: {comand: [x]}}}]\n";
    let l = load(&format!("{bad}---\n{typo}---\n{missing}"));
    let w = unknown(&l);
    assert_eq!(w.len(), 2, "{:#?}", l.diagnostics);
    assert_eq!(
        (w[0].document, w[0].path.as_str()),
        (
            1,
            "spec.template.spec.containers[0].readinessProbe.tcpSocket.prot"
        )
    );
    did_you_mean(w[0], "port");
    // The third document has an error (no container name) and its typo is still reported.
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.document == 2 && d.code == "missing-field")
    );
    assert_eq!(
        (w[1].document, w[1].path.as_str()),
        (2, "spec.containers[0].startupProbe.exec.comand")
    );
    did_you_mean(w[1], "command");
    assert!(
        l.diagnostics
            .iter()
            .any(|d| d.document == 0 && d.code == "yaml-syntax")
    );
}

#[test]
fn a_timelines_applied_workload_is_checked_too() {
    let text = "\
apiVersion: playground.karpenter.dev/v1alpha1
kind: Timeline
metadata: {name: lab}
spec:
  steps:
  - at: 1m
    apply:
      apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        containers: [{name: c, securityContext: {runAsNonRot: true}}]
";
    let l = load(text);
    let w = unknown(&l);
    assert_eq!(w.len(), 1, "{:#?}", l.diagnostics);
    assert_eq!(
        w[0].path,
        "spec.steps[0].apply.spec.containers[0].securityContext.runAsNonRot"
    );
    did_you_mean(w[0], "runAsNonRoot");
}

#[test]
fn the_labs_seeds_and_conformance_cases_have_no_unknown_fields() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        (root.join("../tests/labs"), false),
        (root.join("tests/fixtures/seeds"), false),
        (root.join("../../shared/conformance/cases"), true),
    ];
    let mut read = 0;
    for (dir, case) in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            panic!("{} must exist", dir.display())
        };
        for path in entries.filter_map(Result::ok).map(|e| e.path()) {
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            // A conformance case starts with its expectations document.
            let body = if case {
                text.split_once("\n---\n").map_or("", |(_, rest)| rest)
            } else {
                &text
            };
            let l = load(body);
            let w = unknown(&l);
            assert!(w.is_empty(), "{}: {w:#?}", path.display());
            read += 1;
        }
    }
    assert!(read > 50, "{read} files");
}

//! `kpg migrate` as a user runs it: the seeds' v1beta1 manifests become the playground's
//! hand-written v1 labs byte for byte, validate clean and simulate to the same report.

mod common;
use common::{kpg, kpg_stdin, lab, stderr, stdout};

/// A v1 lab as the seed articles wrote it in v1beta1: the same objects with v1beta1's
/// spellings (what the articles' authors applied to their clusters).
fn as_v1beta1(v1: &str) -> String {
    let mut out = String::new();
    let mut lines = v1.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let pad = &line[..line.len() - t.len()];
        if t.starts_with('#') {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        if t == "group: karpenter.k8s.aws" || t == "kind: EC2NodeClass" && pad.len() > 4 {
            continue;
        }
        if t == "amiSelectorTerms:"
            && lines
                .peek()
                .is_some_and(|n| n.trim() == "- alias: al2023@latest")
        {
            lines.next();
            out.push_str(&format!("{pad}amiFamily: AL2023\n"));
            continue;
        }
        let line = line
            .replace(
                "apiVersion: karpenter.sh/v1",
                "apiVersion: karpenter.sh/v1beta1",
            )
            .replace(
                "apiVersion: karpenter.k8s.aws/v1",
                "apiVersion: karpenter.k8s.aws/v1beta1",
            )
            .replace("WhenEmptyOrUnderutilized", "WhenUnderutilized");
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn lab_text(name: &str) -> String {
    std::fs::read_to_string(lab(name)).expect("lab exists")
}

#[test]
fn the_seed_labs_written_in_v1beta1_migrate_to_the_hand_written_v1_byte_for_byte() {
    for name in [
        "seed000-hello-world.yaml",
        "seed003-batch-job.yaml",
        "seed003-batch-job-fixed.yaml",
    ] {
        let v1 = lab_text(name);
        let old = as_v1beta1(&v1);
        assert_ne!(old, v1, "{name} has v1beta1 spellings to migrate");
        let out = kpg_stdin(&["migrate", "-"], old.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(
            stdout(&out),
            v1,
            "{name}: the migration is the hand-written v1"
        );
        let notes = stderr(&out);
        assert!(
            notes
                .lines()
                .all(|l| l.starts_with("<stdin>:") && l.contains(": migrated ")),
            "{notes}"
        );
        assert!(
            notes.contains("WhenUnderutilized → WhenEmptyOrUnderutilized"),
            "{notes}"
        );
    }
}

#[test]
fn the_v1beta1_manifests_warn_and_the_migrated_ones_validate_clean_and_simulate_the_same() {
    let v1 = lab_text("seed000-hello-world.yaml");
    let old = as_v1beta1(&v1);
    let before = kpg_stdin(&["validate", "-"], old.as_bytes());
    assert_eq!(
        before.status.code(),
        Some(0),
        "v1beta1 still loads, with its v1 meaning"
    );
    assert!(
        stdout(&before).contains("v1beta1"),
        "each difference is a warning: {}",
        stdout(&before)
    );
    let migrated = stdout(&kpg_stdin(&["migrate", "-"], old.as_bytes()));
    let after = kpg_stdin(&["validate", "-"], migrated.as_bytes());
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(stdout(&after).trim(), "0 errors, 0 warnings", "clean");
    let a = stdout(&kpg_stdin(
        &["simulate", "-", "--output", "json"],
        old.as_bytes(),
    ));
    let b = stdout(&kpg_stdin(
        &["simulate", "-", "--output", "json"],
        migrated.as_bytes(),
    ));
    assert_eq!(a, b, "the same cluster either way");
}

#[test]
fn the_v1beta1_lab_migrates_to_the_hello_world_lab_and_warns_at_each_difference() {
    let old = lab_text("seed000-v1beta1.yaml");
    let out = kpg(&["validate", lab("seed000-v1beta1.yaml").to_str().unwrap()]);
    let findings = stdout(&out);
    for code in [
        "v1beta1-api",
        "v1beta1-ami-family",
        "v1beta1-node-class-ref",
        "v1beta1-consolidation-policy",
        "v1beta1-consolidate-after",
    ] {
        assert!(
            findings.contains(&format!(": warning[{code}]: ")),
            "{code} in\n{findings}"
        );
    }
    let migrated = stdout(&kpg_stdin(&["migrate", "-"], old.as_bytes()));
    let body = |t: &str| {
        t.lines()
            .skip_while(|l| l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // The article's comment on amiFamily stays, above the alias that replaces it.
    let v1 = lab_text("seed000-hello-world.yaml").replace(
        "spec:\n  amiSelectorTerms:",
        "spec:\n  # Amazon Linux 2023 AMI\n  amiSelectorTerms:",
    );
    assert_eq!(body(&migrated), body(&v1));
}

#[test]
fn the_seed003_v1beta1_lab_migrates_to_the_batch_job_lab() {
    let migrated = stdout(&kpg_stdin(
        &["migrate", "-"],
        lab_text("seed003-v1beta1.yaml").as_bytes(),
    ));
    let body = |t: &str| {
        t.lines()
            .skip_while(|l| l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&migrated), body(&lab_text("seed003-batch-job.yaml")));
}

#[test]
fn a_file_without_v1beta1_is_printed_unchanged() {
    let path = lab("seed002-limits.yaml");
    let out = kpg(&["migrate", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), lab_text("seed002-limits.yaml"));
    assert!(
        stderr(&out).contains("nothing to migrate"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn what_needs_a_person_is_said_with_its_line() {
    let text = "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata:\n  name: p\n\
                spec:\n  template:\n    spec:\n      nodeClassRef:\n        name: elsewhere\
                \n      kubelet:\n        maxPods: 30\n  disruption:\
                \n    consolidationPolicy: WhenEmpty\n    consolidateAfter: 1m\n";
    let out = kpg_stdin(&["migrate", "-"], text.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains(
            "<stdin>:10: needs a person NodePool/p: the kubelet block moved to the EC2NodeClass"
        ),
        "{}",
        stderr(&out)
    );
    assert!(
        !stdout(&out).contains("kubelet"),
        "the block leaves the NodePool: {}",
        stdout(&out)
    );
}

/// Two v1beta1 NodePools share an EC2NodeClass but set different kubelets; a third repeats
/// the first one's. v1 keeps the kubelet in the EC2NodeClass, one class per configuration.
const SHARED_CLASS_V1BETA1: &str = "apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: AL2023
  role: KarpenterNodeRole-demo
  subnetSelectorTerms:
    - tags: {karpenter.sh/discovery: demo}
  securityGroupSelectorTerms:
    - tags: {karpenter.sh/discovery: demo}
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: web
spec:
  template:
    metadata:
      labels: {tier: web}
    spec:
      nodeClassRef:
        name: default
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
      kubelet:
        maxPods: 8
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: batch
spec:
  template:
    metadata:
      labels: {tier: batch}
    spec:
      nodeClassRef: {name: default}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
      kubelet:
        maxPods: 110
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: api
spec:
  template:
    metadata:
      labels: {tier: api}
    spec:
      nodeClassRef:
        name: default
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
      kubelet:
        maxPods: 8
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 12
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {tier: web}
      containers: [{name: app, image: nginx, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: batch}
spec:
  replicas: 12
  selector: {matchLabels: {app: batch}}
  template:
    metadata: {labels: {app: batch}}
    spec:
      nodeSelector: {tier: batch}
      containers: [{name: app, image: busybox, resources: {requests: {cpu: 10m, memory: 16Mi}}}]
";

#[test]
fn node_pools_with_different_kubelets_get_a_copy_of_their_class_and_simulate_alike() {
    let out = kpg_stdin(&["migrate", "-"], SHARED_CLASS_V1BETA1.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let migrated = stdout(&out);
    let notes = stderr(&out);
    assert!(
        notes.contains("copied as EC2NodeClass \"default-batch\" for NodePool/batch"),
        "{notes}"
    );
    assert!(!notes.contains("needs a person"), "{notes}");
    // The class keeps the first kubelet; the copy follows it with batch's; batch points at it.
    let copy_at = migrated
        .find("  name: default-batch\n")
        .expect("a copy of the class");
    assert!(
        migrated[..copy_at].contains("  kubelet:\n    maxPods: 8\n"),
        "{migrated}"
    );
    assert!(
        migrated[copy_at..].starts_with(
            "  name: default-batch\nspec:\n  amiSelectorTerms:\n    - alias: al2023@latest\n"
        ),
        "{migrated}"
    );
    assert!(
        migrated.contains("  kubelet:\n    maxPods: 110\n---\napiVersion: karpenter.sh/v1\n"),
        "{migrated}"
    );
    assert!(
        migrated.contains(
            "nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default-batch}"
        ),
        "{migrated}"
    );
    assert_eq!(
        migrated.matches("name: default\n").count(),
        3,
        "the class and the web and api pools: {migrated}"
    );

    let after = kpg_stdin(&["validate", "-"], migrated.as_bytes());
    assert_eq!(
        stdout(&after).trim(),
        "0 errors, 0 warnings",
        "{}",
        stdout(&after)
    );
    let a = stdout(&kpg_stdin(
        &["simulate", "-", "--output", "json"],
        SHARED_CLASS_V1BETA1.as_bytes(),
    ));
    let b = stdout(&kpg_stdin(
        &["simulate", "-", "--output", "json"],
        migrated.as_bytes(),
    ));
    assert_eq!(
        a, b,
        "the v1beta1 kubelets take effect as the migrated classes do"
    );
    // And they do take effect: web's nodes hold 8 pods, batch's 110.
    let report: serde_json::Value = serde_json::from_str(&a).expect("json");
    let pods_of = |pool: &str| -> Vec<String> {
        report["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .filter(|n| n["nodepool"] == pool)
            .map(|n| n["allocatable"]["pods"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert!(
        pods_of("web").len() >= 2 && pods_of("web").iter().all(|p| p == "8"),
        "{:?}",
        pods_of("web")
    );
    assert_eq!(pods_of("batch"), ["110"]);
}

/// A v1beta1 NodePool as many were written: no `disruption` block (v1beta1 defaulted it to
/// `WhenUnderutilized`, at once). v1's CRD defaults the omitted block to the same behaviour,
/// so the migration adds none; a written block that leaves out `consolidateAfter` still gets
/// `consolidateAfter: 0s`, which v1 requires there.
const NO_DISRUPTION_V1BETA1: &str = concat!(
    "apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: AL2023
  role: KarpenterNodeRole-demo
  subnetSelectorTerms:
    - tags: {karpenter.sh/discovery: demo}
  securityGroupSelectorTerms:
    - tags: {karpenter.sh/discovery: demo}
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: defaults
spec:
  template:
    spec:
      nodeClassRef:
        name: default
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large, m5.xlarge]}
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: written
spec:
  template:
    spec:
      nodeClassRef:
        name: default
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
  disruption:
    budgets:
      - nodes: \"1\"
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: inflate}
spec:
  replicas: 3
  selector: {matchLabels: {app: inflate}}
  template:
    metadata: {labels: {app: inflate}}
    spec:
      containers: [{name: pause, image: public.ecr.aws/eks-distro/kubernetes/pause:3.2, ",
    "resources: {requests: {cpu: '1'}}}]
"
);

#[test]
fn an_omitted_disruption_block_stays_omitted_and_a_written_one_gets_consolidate_after() {
    let before = kpg_stdin(&["validate", "-"], NO_DISRUPTION_V1BETA1.as_bytes());
    let findings = stdout(&before);
    assert_eq!(before.status.code(), Some(0), "{findings}");
    let flagged: Vec<&str> = findings
        .lines()
        .filter(|l| l.contains("v1beta1-consolidate-after"))
        .collect();
    assert_eq!(flagged.len(), 1, "only the written block: {findings}");
    assert!(
        flagged[0].starts_with(
            "<stdin>:36:3: warning[v1beta1-consolidate-after]: NodePool/written \
             spec.disruption.consolidateAfter:"
        ),
        "{}",
        flagged[0]
    );

    let out = kpg_stdin(&["migrate", "-"], NO_DISRUPTION_V1BETA1.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let migrated = stdout(&out);
    let notes = stderr(&out);
    let pool = |name: &str| -> String {
        let at = migrated
            .find(&format!("  name: {name}\n"))
            .expect("the pool");
        migrated[at..]
            .split("\n---\n")
            .next()
            .unwrap_or("")
            .to_string()
    };
    assert!(
        !pool("defaults").contains("disruption"),
        "no block added: {migrated}"
    );
    assert!(
        pool("written").ends_with(
            "  disruption:\n    consolidateAfter: 0s\n    budgets:\n      - nodes: \"1\""
        ),
        "{migrated}"
    );
    assert!(
        notes.contains(
            "<stdin>:36: migrated NodePool/written: consolidateAfter: 0s added: v1 requires it in \
             a written disruption block"
        ),
        "{notes}"
    );
    assert!(
        !notes.contains("NodePool/defaults: spec.disruption"),
        "{notes}"
    );

    let after = kpg_stdin(&["validate", "-"], migrated.as_bytes());
    assert_eq!(
        stdout(&after).trim(),
        "0 errors, 0 warnings",
        "{}",
        stdout(&after)
    );
    let a = stdout(&kpg_stdin(
        &["simulate", "-", "--output", "json"],
        NO_DISRUPTION_V1BETA1.as_bytes(),
    ));
    let b = stdout(&kpg_stdin(
        &["simulate", "-", "--output", "json"],
        migrated.as_bytes(),
    ));
    assert_eq!(a, b, "the defaulted block behaves as v1beta1's default did");
}

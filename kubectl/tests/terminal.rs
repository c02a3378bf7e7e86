//! The terminal on the seed labs: golden output per command (in `tests/golden/kubectl/`, byte
//! for byte, each file opening with the lab, the time and the command line), and the
//! behaviour a user would notice, checked directly.
//!
//! To accept new output after a deliberate change (any value of `UPDATE_GOLDEN` but empty or
//! `0` rewrites: `kpg_testkit`'s rule for every golden):
//! UPDATE_GOLDEN=1 cargo test -p kpg-kubectl --test terminal
//! git diff tests/golden/kubectl

use std::path::{Path, PathBuf};

use kpg_core::model::Millis;
use kpg_core::sim::Simulation;
use kpg_kubectl::{Change, Files, complete, run};

fn workspace() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

struct Lab {
    name: String,
    files: Vec<(String, String)>,
    sim: Simulation,
}

fn lab(name: &str, at: Millis) -> Lab {
    let path = workspace().join("tests/labs").join(format!("{name}.yaml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let loaded = kpg_manifests::load(&text);
    assert!(!loaded.has_errors(), "{name} has errors");
    let mut sim = Simulation::new(loaded.scenario).unwrap_or_else(|e| panic!("{name}: {e}"));
    sim.run_until(at);
    Lab {
        name: name.to_string(),
        files: vec![(format!("{name}.yaml"), text)],
        sim,
    }
}

impl Lab {
    fn world(&self) -> Files<'_> {
        Files {
            sim: &self.sim,
            files: &self.files,
            reader: kpg_manifests::documents,
        }
    }

    fn run(&self, line: &str) -> kpg_kubectl::Reply {
        run(&self.world(), line)
    }

    fn out(&self, line: &str) -> String {
        self.run(line).output
    }

    /// The first pod whose name starts with `prefix` and whose STATUS is `status`.
    fn pod(&self, prefix: &str, status: &str) -> String {
        self.out("kubectl get pods -A --no-headers")
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|c| c.get(1).is_some_and(|n| n.starts_with(prefix)) && c.get(3) == Some(&status))
            .and_then(|c| c.get(1).map(|s| s.to_string()))
            .unwrap_or_else(|| panic!("no {status} pod {prefix}* in {}", self.name))
    }

    fn node(&self, prefix: &str) -> String {
        self.out("kubectl get nodes -o name")
            .lines()
            .filter_map(|l| l.strip_prefix("node/"))
            .find(|n| n.starts_with(prefix))
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no node {prefix}* in {}", self.name))
    }
}

fn check_golden(name: &str, lab: &Lab, line: &str, text: &str) {
    let path = workspace()
        .join("tests/golden/kubectl")
        .join(format!("{name}.txt"));
    let body = format!(
        "# {} at {}\n$ {line}\n{text}",
        lab.name,
        kpg_core::duration::format(lab.sim.now())
    );
    kpg_testkit::check(&path, &body);
}

fn golden(name: &str, lab: &Lab, line: &str) {
    let reply = lab.run(line);
    check_golden(name, lab, line, &reply.output);
}

/// A mutation's golden: kubectl's confirmation, then the Timeline steps the caller writes.
fn golden_change(name: &str, lab: &Lab, line: &str) {
    let reply = lab.run(line);
    let steps: String = reply
        .changes
        .iter()
        .map(|c| c.timeline_step(lab.sim.now()))
        .collect();
    check_golden(
        name,
        lab,
        line,
        &format!("{}--- Timeline steps ---\n{steps}", reply.output),
    );
}

const LABEL_COLUMNS: &str =
    "-L karpenter.sh/nodepool,node.kubernetes.io/instance-type,topology.kubernetes.io/zone";

#[test]
fn golden_limits_lab_at_5m() {
    let l = lab("seed002-limits", 300_000);
    golden(
        "limits-get-nodes-L",
        &l,
        &format!("kubectl get nodes {LABEL_COLUMNS}"),
    );
    golden("limits-get-nodes-wide", &l, "kubectl get nodes -o wide");
    golden("limits-get-pods-wide", &l, "kubectl get pods -o wide");
    golden(
        "limits-get-nodeclaims-wide",
        &l,
        "kubectl get nodeclaims -o wide",
    );
    golden(
        "limits-get-nodepools-wide",
        &l,
        "kubectl get nodepools -o wide",
    );
    golden(
        "limits-get-ec2nodeclasses-wide",
        &l,
        "kubectl get ec2nc -o wide",
    );
    golden("limits-get-deploy-rs", &l, "kubectl get deploy,rs");
    let pending = l.pod("busybox", "Pending");
    golden(
        "limits-describe-pending-pod",
        &l,
        &format!("kubectl describe pod {pending}"),
    );
    let node = l.node("platform-");
    golden(
        "limits-describe-node",
        &l,
        &format!("kubectl describe node {node}"),
    );
    golden(
        "limits-describe-nodepool",
        &l,
        "kubectl describe nodepool platform",
    );
    golden(
        "limits-nodepool-yaml",
        &l,
        "kubectl get nodepool platform -o yaml",
    );
    golden(
        "limits-logs",
        &l,
        "kubectl logs -n kube-system -l app.kubernetes.io/name=karpenter",
    );
    golden(
        "limits-eks-node-viewer-platform",
        &l,
        "eks-node-viewer --node-selector node=platform",
    );
    golden_change(
        "limits-annotate-node",
        &l,
        &format!("kubectl annotate node {node} karpenter.sh/do-not-disrupt=true"),
    );
    golden_change("limits-cordon", &l, &format!("kubectl cordon {node}"));
    golden_change(
        "limits-delete-pod",
        &l,
        &format!("kubectl delete pod {pending}"),
    );
    golden_change(
        "limits-scale-down",
        &l,
        "kubectl scale deploy/busybox --replicas 6",
    );
    let edited = l.files[0].1.replace("cpu: \"8\"", "cpu: \"16\"");
    assert_ne!(
        edited, l.files[0].1,
        "the lab caps the platform pool at 8 CPUs"
    );
    let with_edit = Lab {
        files: vec![("nodepools.yaml".into(), edited)],
        ..lab("seed002-limits", 300_000)
    };
    golden_change(
        "limits-apply-raised-limit",
        &with_edit,
        "kubectl apply -f nodepools.yaml",
    );
}

#[test]
fn golden_limits_lab_while_nodes_launch() {
    let l = lab("seed002-limits", 20_000);
    golden("limits-20s-get-nodeclaims", &l, "kubectl get nodeclaims");
    golden(
        "limits-20s-eks-node-viewer",
        &l,
        "eks-node-viewer --resources cpu,memory",
    );
}

#[test]
fn golden_scale_out_at_2m() {
    let l = lab("seed002-scale-out", 120_000);
    golden(
        "scale-out-get-nodes-L",
        &l,
        &format!("kubectl get nodes {LABEL_COLUMNS}"),
    );
    golden("scale-out-get-nodeclaims", &l, "kubectl get nodeclaims");
    golden(
        "scale-out-get-pods-l",
        &l,
        "kubectl get pod -l app=busybox -o wide",
    );
    golden(
        "scale-out-scale",
        &l,
        "kubectl scale deployment busybox --replicas=6",
    );
}

#[test]
fn golden_scale_out_watch_from_the_start() {
    let mut l = lab("seed002-scale-out", 0);
    let line = "kubectl get nodeclaims -w";
    let first = l.run(line);
    let mut text = first.output.clone();
    let mut watch = first.watch.unwrap_or_else(|| panic!("-w gives a watch"));
    while let Some(next) = l.sim.next_event_time() {
        if next > 120_000 {
            break;
        }
        l.sim.run_until(next.max(l.sim.now() + 1));
        text.push_str(&watch.poll(&l.world()));
    }
    check_golden("scale-out-watch-nodeclaims", &l, line, &text);
}

#[test]
fn golden_service_6gi() {
    let l = lab("seed002-service-6gi", 120_000);
    golden(
        "service-6gi-get-nodes-L",
        &l,
        "kubectl get nodes -L karpenter.sh/nodepool,node.kubernetes.io/instance-type",
    );
    golden(
        "service-6gi-describe-nodeclaim",
        &l,
        "kubectl describe nodeclaim service-fvk4q",
    );
    golden(
        "service-6gi-nodeclaim-yaml",
        &l,
        "kubectl get nodeclaim service-fvk4q -o yaml",
    );
}

#[test]
fn golden_batch_job() {
    let l = lab("seed003-batch-job", 150_000);
    golden("batch-job-get-pods-wide", &l, "kubectl get pods -o wide");
    golden("batch-job-get-jobs", &l, "kubectl get jobs");
    golden(
        "batch-job-logs",
        &l,
        "kubectl logs -n kube-system -l app.kubernetes.io/name=karpenter",
    );
    golden(
        "batch-job-describe-ec2nodeclass",
        &l,
        "kubectl describe ec2nodeclass default",
    );
}

#[test]
fn golden_consolidation_and_teardown() {
    let l = lab("seed002-consolidation", 280_000);
    golden(
        "consolidation-logs",
        &l,
        "kubectl logs -n karpenter -l app.kubernetes.io/name=karpenter --tail=6",
    );
    golden("consolidation-get-nodes", &l, "kubectl get nodes");
    let t = lab("seed002-scale-in", 120_000);
    golden(
        "scale-in-delete-nodepools",
        &t,
        "kubectl delete nodepool --all          # Karpenter terminates its nodes",
    );
    golden(
        "scale-in-delete-f",
        &t,
        "kubectl delete -f seed002-scale-in.yaml",
    );
}

#[test]
fn golden_hello_world() {
    let l = lab("seed000-hello-world", 80_000);
    golden(
        "hello-world-get-nodes-l",
        &l,
        "kubectl get nodes -l app=hello-world",
    );
    golden(
        "hello-world-run",
        &l,
        "kubectl run nginx --image=nginx --replicas=1",
    );
    golden_change("hello-world-run-nginx", &l, "kubectl run web --image=nginx");
    golden("hello-world-errors", &l, "kubectl port-forward svc/x 8080");
}

// ----- behaviour -----

#[test]
fn a_label_selector_filters() {
    let l = lab("seed002-limits", 300_000);
    let all = l.out("kubectl get nodes");
    let platform = l.out("kubectl get nodes -l node=platform");
    assert_eq!(all.lines().count(), 7, "{all}");
    assert_eq!(platform.lines().count(), 5, "{platform}");
    assert!(
        platform.lines().skip(1).all(|r| r.starts_with("platform-")),
        "{platform}"
    );
    let set = l.run("kubectl get nodes -l 'karpenter.sh/nodepool in (service)'");
    assert_eq!(set.output, "No resources found\n");
    assert!(set.ok, "an empty list is an answer: kubectl exits 0");
    let not = l.out("kubectl get nodes -l '!karpenter.sh/nodepool'");
    assert!(
        not.lines().skip(1).all(|r| r.starts_with("mydev-ng-")),
        "{not}"
    );
}

#[test]
fn label_columns_show_the_label_value() {
    let l = lab("seed002-limits", 300_000);
    let out = l
        .out("kubectl get nodes -L node.kubernetes.io/instance-type -L karpenter.sh/capacity-type");
    let head = out.lines().next().unwrap_or_default();
    assert!(head.ends_with("INSTANCE-TYPE    CAPACITY-TYPE"), "{head}");
    assert!(
        out.lines()
            .any(|r| r.starts_with("platform-") && r.contains("t3.small") && r.ends_with("spot")),
        "{out}"
    );
}

#[test]
fn a_watch_prints_the_row_of_a_node_that_becomes_ready() {
    let mut l = lab("seed002-limits", 38_000);
    let reply = l.run("kubectl get nodes -w");
    assert!(reply.output.contains("NotReady"), "{}", reply.output);
    let mut watch = reply.watch.unwrap_or_else(|| panic!("-w gives a watch"));
    l.sim.run_until(39_000);
    assert_eq!(watch.poll(&l.world()), "", "nothing changed but the age");
    l.sim.run_until(60_000);
    let printed = watch.poll(&l.world());
    let ready: Vec<&str> = printed.lines().filter(|r| r.contains(" Ready ")).collect();
    assert_eq!(ready.len(), 4, "{printed}");
    assert!(!printed.contains("NAME"), "no header: {printed}");
}

#[test]
fn an_unsupported_command_names_what_is_supported() {
    let l = lab("seed002-limits", 0);
    let r = l.run("kubectl port-forward pod/x 8080");
    assert!(!r.ok);
    assert!(
        r.output.contains("\"port-forward\"") && r.output.contains("get, logs")
            || r.output.contains("get"),
        "{}",
        r.output
    );
    assert!(
        r.output.contains("describe") && r.output.contains("scale"),
        "{}",
        r.output
    );
    let t = l.run("kubectl get foo");
    assert_eq!(
        t.output,
        "error: the server doesn't have a resource type \"foo\"\n"
    );
    let n = l.run("kubectl get node x");
    assert_eq!(
        n.output,
        "Error from server (NotFound): nodes \"x\" not found\n"
    );
    assert!(!n.ok);
    let p = l.run("kubectl get pods | wc -l");
    assert!(p.output.contains("pipes") && !p.ok, "{}", p.output);
}

#[test]
fn a_quoted_argument_is_one_word() {
    let l = lab("seed002-limits", 300_000);
    let node = l.node("platform-");
    let r = l.run(&format!(
        "kubectl annotate node {node} 'example.com/note=hello world' \
         karpenter.sh/do-not-disrupt=\"true\""
    ));
    assert_eq!(r.output, format!("node/{node} annotated\n"));
    let Some(Change::Annotate { set, .. }) = r.changes.first() else {
        panic!("{:?}", r.changes)
    };
    assert_eq!(
        set.get("example.com/note").map(String::as_str),
        Some("hello world")
    );
    assert_eq!(
        set.get("karpenter.sh/do-not-disrupt").map(String::as_str),
        Some("true")
    );
}

#[test]
fn completion_offers_nodepools() {
    let l = lab("seed002-limits", 300_000);
    let c = complete(&l.world(), "kubectl get nodep");
    assert_eq!(c.start, 12);
    assert_eq!(c.candidates, ["nodepool", "nodepools"]);
    let names = complete(&l.world(), "kubectl describe nodepool ");
    assert_eq!(names.candidates, ["platform", "service"]);
    let files = complete(&l.world(), "kubectl apply -f seed");
    assert_eq!(files.candidates, ["seed002-limits.yaml"]);
    let sub = complete(&l.world(), "kubectl de");
    assert_eq!(sub.candidates, ["delete", "describe"]);
}

/// An apiVersion the API server does not serve: kubectl's REST mapping refuses it before
/// anything is sent, in kubectl's own words.
#[test]
fn applying_an_unknown_api_version_is_refused_as_kubectl_refuses_it() {
    let l = lab("seed002-limits", 300_000);
    let mut files = l.files.clone();
    files.push((
        String::from("v2.yaml"),
        String::from(
            "apiVersion: apps/v2\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  \
             replicas: 1\n",
        ),
    ));
    let world = Files {
        sim: &l.sim,
        files: &files,
        reader: kpg_manifests::documents,
    };
    let r = run(&world, "kubectl apply -f v2.yaml");
    assert!(!r.ok);
    assert_eq!(
        r.output,
        "error: resource mapping not found for name: \"web\" namespace: \"\" from \
         \"v2.yaml\": no matches for kind \"Deployment\" in version \"apps/v2\"\nensure CRDs \
         are installed first\n"
    );
    assert!(r.changes.is_empty(), "{:?}", r.changes);
}

#[test]
fn applying_an_unchanged_object_changes_nothing() {
    let l = lab("seed002-limits", 300_000);
    let r = l.run("kubectl apply -f seed002-limits.yaml");
    assert!(r.ok, "{}", r.output);
    assert!(
        r.output
            .contains("nodepool.karpenter.sh/platform unchanged"),
        "{}",
        r.output
    );
    assert!(
        r.output.contains("deployment.apps/busybox unchanged"),
        "{}",
        r.output
    );
    assert!(r.changes.is_empty(), "{:?}", r.changes);
    let mut files = l.files.clone();
    files.push((
        String::from("np.yaml"),
        l.files[0].1.replace("cpu: \"8\"", "cpu: \"16\""),
    ));
    let world = Files {
        sim: &l.sim,
        files: &files,
        reader: kpg_manifests::documents,
    };
    let changed = run(&world, "kubectl apply -f np.yaml");
    assert!(
        changed
            .output
            .contains("nodepool.karpenter.sh/platform configured"),
        "{}",
        changed.output
    );
    assert_eq!(changed.changes.len(), 2, "{:?}", changed.changes);
    let new = run(&world, "kubectl run web --image=nginx");
    assert_eq!(new.output, "pod/web created\n");
}

#[test]
fn mutations_print_kubectl_confirmations() {
    let l = lab("seed002-limits", 300_000);
    assert_eq!(
        l.out("kubectl scale deploy/busybox --replicas 3"),
        "deployment.apps/busybox scaled\n"
    );
    let node = l.node("platform-");
    assert_eq!(
        l.out(&format!("kubectl cordon {node}")),
        format!("node/{node} cordoned\n")
    );
    assert_eq!(
        l.out(&format!("kubectl uncordon {node}")),
        format!("node/{node} already uncordoned\n")
    );
    assert_eq!(
        l.out("kubectl delete nodepool service"),
        "nodepool.karpenter.sh \"service\" deleted\n"
    );
    let pod = l.pod("busybox", "Running");
    assert_eq!(
        l.out(&format!("kubectl delete pod {pod}")),
        format!("pod \"{pod}\" deleted from default namespace\n")
    );
    let run = l.run("kubectl run nginx --image=nginx --replicas=1");
    assert!(
        !run.ok && run.output.starts_with("error: unknown flag: --replicas\n"),
        "{}",
        run.output
    );
}

const NGINX: &str = "\
apiVersion: v1
kind: Pod
metadata:
  labels:
    run: nginx
  name: nginx
  namespace: default
spec:
  containers:
  - image: nginx
    name: nginx
";

/// Every step kind reads back through the reader inside a Timeline, without diagnostics.
#[test]
fn timeline_steps_read_back_without_diagnostics() {
    let base = std::fs::read_to_string(workspace().join("tests/labs/seed002-limits.yaml"))
        .unwrap_or_default();
    let changes = [
        Change::Scale {
            kind: "Deployment".into(),
            name: "busybox".into(),
            namespace: "default".into(),
            replicas: 3,
        },
        Change::Delete {
            kind: "NodePool".into(),
            name: "service".into(),
            namespace: String::new(),
        },
        Change::Delete {
            kind: "Deployment".into(),
            name: "busybox".into(),
            namespace: "default".into(),
        },
        Change::Delete {
            kind: "Node".into(),
            name: "platform-b44dr".into(),
            namespace: String::new(),
        },
        Change::Delete {
            kind: "NodeClaim".into(),
            name: "platform-b44dr".into(),
            namespace: String::new(),
        },
        Change::Apply {
            document: NGINX.into(),
        },
        Change::Cordon {
            node: "platform-b44dr".into(),
            unschedulable: true,
        },
        Change::Cordon {
            node: "platform-b44dr".into(),
            unschedulable: false,
        },
        Change::Annotate {
            kind: "Node".into(),
            name: "platform-b44dr".into(),
            namespace: String::new(),
            set: [(
                "karpenter.sh/do-not-disrupt".to_string(),
                "true".to_string(),
            )]
            .into_iter()
            .collect(),
            remove: vec!["example.com/note".into()],
        },
        Change::Annotate {
            kind: "Pod".into(),
            name: "busybox-x".into(),
            namespace: "default".into(),
            set: [("example.com/note".to_string(), "hello: world".to_string())]
                .into_iter()
                .collect(),
            remove: Vec::new(),
        },
    ];
    for c in &changes {
        let step = c.timeline_step(150_000);
        let text = format!(
            "{base}\n---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\n\
             metadata:\n  name: terminal\nspec:\n  steps:\n{step}"
        );
        let loaded = kpg_manifests::load(&text);
        assert!(
            loaded.diagnostics.is_empty(),
            "{step}\n{:#?}",
            loaded.diagnostics
        );
        assert_eq!(loaded.scenario.timeline.len(), 1, "{step}");
        assert_eq!(loaded.scenario.timeline[0].at, 150_000, "{step}");
    }
}

#[test]
fn no_input_panics() {
    let l = lab("seed002-limits", 60_000);
    let lines = [
        "",
        "   ",
        "kubectl",
        "kubectl get",
        "kubectl get -o",
        "kubectl get nodes -o bogus",
        "kubectl describe",
        "kubectl describe node",
        "kubectl scale",
        "kubectl scale deploy",
        "kubectl scale deploy x --replicas=-1",
        "kubectl apply",
        "kubectl apply -f nope.yaml",
        "kubectl delete",
        "kubectl delete pods",
        "kubectl run",
        "kubectl run x",
        "kubectl annotate",
        "kubectl annotate node",
        "kubectl cordon",
        "kubectl logs",
        "kubectl logs x",
        "kubectl get nodes -l 'a in'",
        "kubectl get nodes -L",
        "'",
        "\"",
        "eks-node-viewer --resources",
        "eks-node-viewer --node-selector '(('",
        "kubectl get nodes,pods,nodeclaims -o yaml",
        "kubectl get node/",
        "kubectl describe pod busybox",
        "kubectl get all",
        "kubectl get pods -A -o json",
        "ls -la",
        "$ kubectl get nodes",
        "kubectl get ns",
        "kubectl get pdb -A",
        "kubectl get ds,sts,jobs -A -o wide",
        "kubectl -n kube-system logs -l app.kubernetes.io/name=karpenter -f",
    ];
    for line in lines {
        let _ = l.run(line);
        let _ = complete(&l.world(), line);
    }
}

/// Thousands of lines put together from the terminal's own vocabulary, and every prefix of
/// each for completion: whatever a learner types, the terminal answers and the page lives.
#[test]
fn no_combination_of_words_panics() {
    let l = lab("seed002-limits", 300_000);
    let node = l.node("platform-");
    let pod = l.pod("busybox", "Pending");
    let words: Vec<String> = [
        "kubectl",
        "get",
        "describe",
        "scale",
        "apply",
        "delete",
        "run",
        "annotate",
        "cordon",
        "uncordon",
        "logs",
        "eks-node-viewer",
        "nodes",
        "node",
        "no",
        "pods",
        "po",
        "nodeclaims",
        "nodepools",
        "nodepool",
        "ec2nodeclasses",
        "ec2nc",
        "deploy",
        "deploy/busybox",
        "rs",
        "jobs",
        "all",
        "busybox",
        "platform",
        "default",
        &node,
        &pod,
        "-o",
        "wide",
        "yaml",
        "json",
        "name",
        "-L",
        "-l",
        "-n",
        "-A",
        "-w",
        "-f",
        "--all",
        "--replicas=3",
        "--replicas",
        "0",
        "--image=nginx",
        "k=v",
        "k-",
        "karpenter.sh/do-not-disrupt=true",
        "app=busybox",
        "node!=x",
        "'a b'",
        "--resources",
        "cpu,memory",
        "--node-selector",
        "node=platform",
        "seed002-limits.yaml",
        "--tail=2",
        "--overwrite",
        "=",
        "-",
        "--",
        "#",
        "\"",
        "é",
        "/",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // A fixed linear congruential stream: the same lines every run.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % n
    };
    for _ in 0..1500 {
        let len = 1 + next(6);
        let mut line = String::from(if next(4) == 0 {
            "eks-node-viewer"
        } else {
            "kubectl"
        });
        for _ in 0..len {
            line.push(' ');
            line.push_str(&words[next(words.len())]);
        }
        let reply = l.run(&line);
        if let Some(mut w) = reply.watch {
            let _ = w.poll(&l.world());
        }
        for (i, _) in line.char_indices() {
            let c = complete(&l.world(), &line[..i]);
            assert!(c.start <= i, "{line:?}: completion starts past the line");
        }
    }
}

/// A pathologically nested document in a tab (the reader refuses it by depth) must not
/// overflow the stack when the terminal reads the files: in wasm that kills the page.
#[test]
fn a_deeply_nested_file_does_not_overflow_the_stack() {
    let mut l = lab("seed002-limits", 60_000);
    let deep = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: deep}}\ndata: {}{}\n",
        "[".repeat(20_000),
        "]".repeat(20_000)
    );
    l.files.push(("deep.yaml".into(), deep));
    let out = l.out("kubectl get nodes");
    assert!(out.starts_with("NAME"), "{out}");
    let _ = l.run("kubectl apply -f deep.yaml");
}

/// The terminal shows what the simulation runs: the objects the engine applied from the last
/// manifests that read cleanly, not the files' current (here half-typed, invalid) text, and
/// Timeline steps exactly as the engine reads them (the reader refuses `at: 30`, so the
/// terminal never plays it either).
#[test]
fn the_terminal_reads_the_simulations_manifests_not_the_tabs() {
    let l = lab("seed000-hello-world", 60_000);
    let edited = l.files[0].1.replace(
        "kind: EC2NodeClass\nmetadata:\n  name: default",
        "kind: EC2NodeClass\nmetadata:\n  name: [",
    ) + "---\napiVersion: playground.karpenter.dev/v1alpha1\nkind: Timeline\nmetadata: {name: t}\n\
           spec:\n  steps:\n    - {at: 30, delete: {kind: EC2NodeClass, name: default}}\n";
    assert!(
        kpg_manifests::load(&edited).has_errors(),
        "the edit does not read"
    );
    let files = vec![(l.files[0].0.clone(), edited)];
    let world = Files {
        sim: &l.sim,
        files: &files,
        reader: kpg_manifests::documents,
    };
    let classes = run(&world, "kubectl get ec2nodeclasses").output;
    let rows: Vec<&str> = classes.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{classes}");
    assert!(rows[0].starts_with("default "), "{classes}");
    let yaml = run(&world, "kubectl get ec2nodeclass default -o yaml").output;
    assert!(
        yaml.contains("name: default") && !yaml.contains("deletionTimestamp"),
        "{yaml}"
    );
}

//! `scripts/ci/nodepool-check` and `scripts/ci/pre-commit-nodepools`, run as a CI job and a
//! git hook would run them: in a temporary git repository holding a snapshot
//! (`cluster/snapshot.yaml`: tests/compare/base.yaml's Deployment) and the NodePool and
//! EC2NodeClass files (`karpenter/`), with the built `kpg` as `KPG`. Needs bash and git.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

/// A git repository of its own under the target's temporary directory.
struct Repo {
    dir: PathBuf,
}

impl Repo {
    fn new(name: &str) -> Repo {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ci-scripts-{name}"));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("cluster")).expect("a temp dir");
        fs::create_dir_all(dir.join("karpenter")).expect("a temp dir");
        let repo = Repo { dir };
        // tests/compare/base.yaml: the EC2NodeClass, the NodePool, the Deployment.
        let base = fs::read_to_string(workspace().join("tests/compare/base.yaml")).expect("base");
        let docs: Vec<&str> = base.split("\n---\n").collect();
        assert_eq!(docs.len(), 3, "base.yaml's three documents");
        let class = &docs[0][docs[0].find("apiVersion:").expect("the class")..];
        repo.write("karpenter/ec2nodeclass.yaml", &format!("{class}\n"));
        repo.write("karpenter/nodepool.yaml", &format!("{}\n", docs[1]));
        repo.write("cluster/snapshot.yaml", docs[2]);
        repo.write("README.md", "not a NodePool\n");
        repo.git(&["init", "-q", "-b", "main"]);
        repo.git(&["add", "-A"]);
        repo.git(&["commit", "-q", "-m", "the cluster"]);
        repo
    }

    fn write(&self, path: &str, text: &str) {
        fs::write(self.dir.join(path), text).expect("written");
    }

    fn read(&self, path: &str) -> String {
        fs::read_to_string(self.dir.join(path)).unwrap_or_default()
    }

    /// A command in the repository, away from the machine's git configuration and hooks.
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.current_dir(&self.dir)
            .env("HOME", &self.dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "kpg test")
            .env("GIT_AUTHOR_EMAIL", "kpg@example.com")
            .env("GIT_COMMITTER_NAME", "kpg test")
            .env("GIT_COMMITTER_EMAIL", "kpg@example.com")
            .env("KPG", env!("CARGO_BIN_EXE_kpg"))
            .env_remove("KPG_SNAPSHOT")
            .env_remove("KPG_CHECK_FLAGS");
        c
    }

    fn git(&self, args: &[&str]) -> Output {
        let o = self.command("git").args(args).output().expect("git runs");
        assert!(
            o.status.success() || args[0] == "commit",
            "git {args:?}: {}",
            stderr(&o)
        );
        o
    }

    /// `scripts/ci/nodepool-check ARGS` in the repository.
    fn check(&self, args: &[&str]) -> (i32, String, String) {
        let script = workspace().join("scripts/ci/nodepool-check");
        let o = self
            .command("bash")
            .arg(script)
            .args(args)
            .output()
            .expect("bash runs");
        (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
    }

    fn head(&self) -> String {
        stdout(&self.git(&["rev-parse", "HEAD"]))
    }

    /// The NodePool file as committed, with its instance-category requirement replaced by
    /// `requirement`.
    fn change_nodepool(&self, requirement: &str) {
        let np = stdout(&self.git(&["show", "HEAD:karpenter/nodepool.yaml"]));
        let old = requirement_in("karpenter.k8s.aws/instance-category", r#""c", "m", "t""#);
        assert!(np.contains(&old), "{np}");
        self.write("karpenter/nodepool.yaml", &np.replace(&old, requirement));
    }
}

/// A NodePool requirement `KEY In [VALUES]` as the fixture writes it.
fn requirement_in(key: &str, values: &str) -> String {
    format!("        - key: {key}\n          operator: In\n          values: [{values}]\n")
}

fn t3_micro() -> String {
    requirement_in("node.kubernetes.io/instance-type", r#""t3.micro""#)
}

fn m5_large() -> String {
    requirement_in("node.kubernetes.io/instance-type", r#""m5.large""#)
}

fn t_only() -> String {
    requirement_in("karpenter.k8s.aws/instance-category", r#""t""#)
}

fn kpg_lines(err: &str) -> Vec<&str> {
    err.lines().filter(|l| l.starts_with("kpg: ")).collect()
}

#[test]
fn nodepool_check_fails_when_the_change_leaves_pods_pending_and_passes_when_not() {
    let repo = Repo::new("check");
    let base = "main";

    // Nothing changed: no report, exit 0.
    let (code, out, err) = repo.check(&[base]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("no NodePool or EC2NodeClass file changed against main"),
        "{err}"
    );
    assert!(!repo.dir.join("kpg-nodepool-check.md").exists());

    // t3.micro only: every web pod stays Pending.
    repo.change_nodepool(&t3_micro());
    let (code, out, err) = repo.check(&[base]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(
        kpg_lines(&err),
        ["kpg: 3 pods pending in B at 1m30s (Deployment/web: 3), failing --fail-on pending"]
    );
    let md = repo.read("kpg-nodepool-check.md");
    assert_eq!(out, md, "the report on stdout and in the file");
    for needle in [
        "## kpg compare: `base.yaml` → `changed.yaml`",
        "- ❌ `--fail-on pending`: 3 pods pending in B at 1m30s (Deployment/web: 3)",
        "- ✅ `--max-cost-increase 10%`: cost falls 100.0% ($0.0564/h, $41.17/month)",
        "B leaves 3 pods pending at 1m30s (A: 0):",
        "| Deployment/web | 3 | Failed to schedule pod, incompatible with nodepool \"default\"",
        "; both with `cluster/snapshot.yaml`. Changed: `karpenter/nodepool.yaml`.",
        "A: the NodePool files at `main` (",
    ] {
        assert!(md.contains(needle), "missing {needle:?} in\n{md}");
    }

    // The t family only: t3a.small as before, every pod runs; exit 0, the report written.
    repo.change_nodepool(&t_only());
    let (code, _, err) = repo.check(&[base, "--out", "comment.md"]);
    assert_eq!(code, 0, "{err}");
    assert!(kpg_lines(&err).is_empty(), "{err}");
    let md = repo.read("comment.md");
    assert!(md.contains("**Checks: all passed.**"), "{md}");
    assert!(
        md.contains("No pod is pending in B at 1m30s (A: 0)."),
        "{md}"
    );

    // m5.large only: every pod runs, but the cost rises 410.6 %, over the default 10 %.
    repo.change_nodepool(&m5_large());
    let (code, _, err) = repo.check(&[base, "--out", "-"]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(
        kpg_lines(&err),
        ["kpg: cost rises 410.6% ($0.2316/h, $169.07/month), over --max-cost-increase 10%"]
    );
    // Conditions of one's own replace the defaults.
    let (code, _, err) = repo.check(&[base, "--out", "-", "--", "--max-cost-increase", "$200"]);
    assert_eq!((code, kpg_lines(&err)), (0, vec![]), "{err}");

    // A side that cannot be read: exit 1, and the report says why.
    repo.write("karpenter/nodepool.yaml", "kind: NodePool\nspec: [\n");
    let (code, out, _) = repo.check(&[base]);
    assert_eq!(code, 1);
    assert!(
        out.contains("## kpg compare: the NodePool change could not be simulated"),
        "{out}"
    );
    assert!(out.contains("YAML syntax error"), "{out}");
}

#[test]
fn nodepool_check_rollout_applies_the_change_to_the_running_nodes() {
    let repo = Repo::new("rollout");
    let np = repo.read("karpenter/nodepool.yaml");
    repo.write(
        "karpenter/nodepool.yaml",
        &np.replace(
            "  template:\n    spec:\n",
            "  template:\n    metadata:\n      labels:\n        team: web\n    spec:\n",
        ),
    );
    let keep = repo.dir.with_extension("scenarios");
    let keep = keep.to_str().expect("UTF-8");
    // Started fresh, B's nodes carry the label from the start: nothing drifts.
    let (code, _, err) = repo.check(&["HEAD", "--", "--fail-on", "drift,pending"]);
    assert_eq!((code, kpg_lines(&err)), (0, vec![]), "{err}");
    // Applied at 2m over A's nodes, the three drift and are replaced.
    let (code, md, err) = repo.check(&[
        "HEAD",
        "--rollout",
        "2m",
        "--keep",
        keep,
        "--",
        "--fail-on",
        "drift,pending",
    ]);
    assert_eq!(code, 3, "{err}");
    let lines = kpg_lines(&err);
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("kpg: 3 nodes drifted in B (NodePoolDrifted: "),
        "{err}"
    );
    assert_eq!(md.matches("| NodePoolDrifted | 2m0s |").count(), 3, "{md}");
    assert_eq!(md.matches("| Drifted | default-").count(), 3, "{md}");
    assert!(
        md.contains("as in the working tree, applied to A at 2m"),
        "{md}"
    );
    let changed = fs::read_to_string(Path::new(keep).join("changed.yaml")).expect("kept");
    assert!(changed.contains("    - at: 2m\n      apply:\n        apiVersion: karpenter.sh/v1\n"));

    // A NodePool file removed by the change becomes a delete step.
    repo.git(&["checkout", "-q", "."]);
    repo.write(
        "karpenter/spare.yaml",
        &np.replace("  name: default\n", "  name: spare\n"),
    );
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "spare"]);
    repo.git(&["rm", "-q", "karpenter/spare.yaml"]);
    let (code, _, err) = repo.check(&["HEAD", "--staged", "--rollout", "3m", "--keep", keep]);
    assert_eq!(code, 0, "{err}");
    let changed = fs::read_to_string(Path::new(keep).join("changed.yaml")).expect("kept");
    assert!(
        changed.contains("    - at: 3m\n      delete: {kind: NodePool, name: spare}\n"),
        "{changed}"
    );
}

#[test]
fn the_pre_commit_hook_refuses_invalid_and_failing_nodepools() {
    let repo = Repo::new("hook");
    let hook = workspace().join("scripts/ci/pre-commit-nodepools");
    std::os::unix::fs::symlink(&hook, repo.dir.join(".git/hooks/pre-commit")).expect("linked");
    let first = repo.head();

    // The change leaves the web pods pending: the compare against HEAD fails, no commit.
    repo.change_nodepool(&t3_micro());
    repo.git(&["add", "-A"]);
    let o = repo.git(&["commit", "-q", "-m", "t3.micro"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("kpg: 3 pods pending in B at 1m30s"), "{err}");
    assert!(err.contains("commit refused"), "{err}");
    assert_eq!(repo.head(), first);

    // Broken YAML: kpg validate names the file and line, no commit.
    repo.write("karpenter/nodepool.yaml", "kind: NodePool\nspec: [\n");
    repo.git(&["add", "-A"]);
    let o = repo.git(&["commit", "-q", "-m", "broken"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("karpenter/nodepool.yaml:2:") && err.contains("YAML syntax error"),
        "{err}"
    );
    assert!(
        err.contains("pre-commit: kpg validate found errors in the staged NodePool files"),
        "refused by the validation, before any compare: {err}"
    );
    assert!(!err.contains("A: base.yaml"), "{err}");
    assert_eq!(repo.head(), first);

    // The t family only: valid and every pod runs: committed. Only the staged content counts:
    // a broken working-tree copy after staging does not matter.
    repo.git(&["checkout", "-q", "HEAD", "--", "karpenter/nodepool.yaml"]);
    repo.change_nodepool(&t_only());
    repo.git(&["add", "-A"]);
    repo.write("karpenter/nodepool.yaml", "kind: NodePool\nspec: [\n");
    let o = repo.git(&["commit", "-q", "-m", "t family"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(repo.head(), first);
    // (git shows a hook's output on stderr.)
    assert!(
        stderr(&o).contains("pods pending"),
        "the table: {}",
        stderr(&o)
    );

    // A commit that touches no NodePool file runs nothing.
    repo.write("README.md", "still not a NodePool\n");
    repo.git(&["add", "README.md"]);
    let o = repo.git(&["commit", "-q", "-m", "docs"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).is_empty() && stderr(&o).is_empty(),
        "{}",
        stderr(&o)
    );
}

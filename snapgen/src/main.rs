//! `kpg-snapgen`: a deterministic snapshot of an EKS cluster running Karpenter v1, as
//! `kubectl get ... -A -o yaml|json` prints it, on standard output.

use std::io::Write;
use std::process::ExitCode;

use kpg_snapgen::{Format, Params};

const USAGE: &str =
    "usage: kpg-snapgen [--nodes N] [--pods N] [--seed S] [--json] [--no-managed-fields]
                   [--noise] [--no-fargate] [--karpenter-share F] [--drifted-share F]
                   [--region R] [--instant RFC3339] [--objects] [--reprint]

Prints a `kind: List` snapshot (kubectl get nodes,nodeclaims,nodepools,ec2nodeclasses,pods,
deployments,replicasets,statefulsets,daemonsets,jobs,poddisruptionbudgets,namespaces -A -o yaml).
Defaults: --nodes 500 --pods 10000 --seed 1 --karpenter-share 0.9 --drifted-share 0.05
--region us-east-1 --instant 2026-12-01T10:00:00Z. The same arguments print the same bytes.
--objects prints each object alone, as `kubectl patch --local -f ... -o yaml|json` would;
--reprint prints the JSON object on standard input as kubectl -o yaml (or --json) would.";

fn main() -> ExitCode {
    let mut p = Params::default();
    let mut format = Format::Yaml;
    let mut objects = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i).cloned()
        };
        let ok = match a {
            "--nodes" => value()
                .and_then(|v| v.parse().ok())
                .map(|v| p.nodes = v)
                .is_some(),
            "--pods" => value()
                .and_then(|v| v.parse().ok())
                .map(|v| p.pods = v)
                .is_some(),
            "--seed" => value()
                .and_then(|v| v.parse().ok())
                .map(|v| p.seed = v)
                .is_some(),
            "--karpenter-share" => value()
                .and_then(|v| v.parse().ok())
                .map(|v| p.karpenter_share = v)
                .is_some(),
            "--drifted-share" => value()
                .and_then(|v| v.parse().ok())
                .map(|v| p.drifted_share = v)
                .is_some(),
            "--region" => value().map(|v| p.region = v).is_some(),
            "--instant" => value()
                .filter(|v| kpg_snapgen::time::parse(v).is_some())
                .map(|v| p.instant = v)
                .is_some(),
            "--json" => {
                format = Format::Json;
                true
            }
            "--no-managed-fields" => {
                p.managed_fields = false;
                true
            }
            "--noise" => {
                p.noise = true;
                true
            }
            "--no-fargate" => {
                p.fargate = false;
                true
            }
            "--reprint" => {
                let mut json = String::new();
                if std::io::Read::read_to_string(&mut std::io::stdin(), &mut json).is_err() {
                    return ExitCode::from(1);
                }
                let fmt = if args.iter().any(|a| a == "--json") {
                    Format::Json
                } else {
                    Format::Yaml
                };
                return match kpg_snapgen::reprint(&json, fmt) {
                    Ok(text) => {
                        print!("{text}");
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("kpg-snapgen: {e}");
                        ExitCode::from(1)
                    }
                };
            }
            "--objects" => {
                objects = true;
                true
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => false,
        };
        if !ok {
            eprintln!("kpg-snapgen: bad argument {a:?}\n{USAGE}");
            return ExitCode::from(2);
        }
        i += 1;
    }
    let text = if objects {
        kpg_snapgen::objects(&p, format)
    } else {
        kpg_snapgen::snapshot(&p, format)
    };
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

#!/usr/bin/env bash
# Holds kpg-snapgen's text against kubectl's own printer (no cluster needed):
#  1. kubectl's objects: `kubectl create deployment|namespace|job|configmap --dry-run=client`
#     printed by kubectl as -o json and -o yaml; `kpg-snapgen --reprint` must print the same
#     YAML (and JSON) from the JSON.
#  2. kpg-snapgen's objects: the JSON snapshot through `kubectl patch --local -p '{}'
#     --show-managed-fields -o yaml|json` (kubectl re-reads and re-prints every object) must
#     equal `kpg-snapgen --objects` byte for byte.
# Skips (exit 0, says so) when kubectl is not installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v kubectl >/dev/null; then
    echo "kubectl-shape: SKIPPED (no kubectl on PATH)"
    exit 0
fi
cargo build -q -p kpg-snapgen
bin=target/debug/kpg-snapgen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() { # name, expected file, actual file
    if cmp -s "$2" "$3"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "kubectl-shape: $1 differs:"
        diff "$2" "$3" | head -20
    fi
}

i=0
while IFS= read -r cmd; do
    i=$((i + 1))
    eval "kubectl ${cmd/DRY/--dry-run=client -o json}" >"$tmp/c$i.json"
    eval "kubectl ${cmd/DRY/--dry-run=client -o yaml}" >"$tmp/c$i.yaml"
    "$bin" --reprint <"$tmp/c$i.json" >"$tmp/r$i.yaml"
    check "kubectl $cmd (yaml)" "$tmp/c$i.yaml" "$tmp/r$i.yaml"
done <<'CMDS'
create deployment x DRY --image=y
create deployment web DRY --image=nginx:1.27 --replicas=3 --port=8080 -- sh -c 'echo a: b; sleep 10'
create namespace foo DRY
create job j DRY --image=busybox -- echo hi
create configmap c DRY --from-literal=t=true --from-literal=n=123 --from-literal=o=0o17 --from-literal=ts=2024-01-02 --from-literal=b60=10:30 --from-literal=col='a: b' --from-literal=hash='a #b' --from-literal=lead='- x' --from-literal=e= --from-literal=y=y --from-literal=m='0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.' --from-literal=k9090=x --from-literal=k10250=y --from-literal=_u=1 --from-literal=Up=2 --from-literal=amp='<&>' --from-literal=json='{"a":1}'
CMDS

for args in "--nodes 7 --pods 60 --noise" "--nodes 12 --pods 150 --seed 9 --region eu-central-1 --no-fargate" "--nodes 5 --pods 40 --no-managed-fields --noise"; do
    # shellcheck disable=SC2086
    "$bin" $args --json >"$tmp/s.json"
    # shellcheck disable=SC2086
    "$bin" $args --objects >"$tmp/mine.yaml"
    # shellcheck disable=SC2086
    "$bin" $args --objects --json >"$tmp/mine.json"
    kubectl patch --local -f "$tmp/s.json" -p '{}' --type merge --show-managed-fields -o yaml >"$tmp/k.yaml"
    kubectl patch --local -f "$tmp/s.json" -p '{}' --type merge --show-managed-fields -o json >"$tmp/k.json"
    check "snapshot $args (yaml)" "$tmp/k.yaml" "$tmp/mine.yaml"
    check "snapshot $args (json)" "$tmp/k.json" "$tmp/mine.json"
done
echo "kubectl-shape: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

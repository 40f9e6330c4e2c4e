#!/bin/bash
# Threads pinned one per core (--bind compact) against unpinned (--bind none), on a quiet
# machine and beside one busy process: the CLI's PageRanks, BFS, Afforest, k-core and SSSP on
# road-NY (symmetric, from ../shared/data through bench/peers.py) and kron20.
#   bench/pinning_under_load.sh [THREADS]     (default: every core)
# Environment: NUMAGRAPH_BIN (default build/numagraph), WORKDIR (default a temp dir),
# QUIET_ROUNDS (3), BUSY_ROUNDS (2), KRON_SCALE (20). Prints, per kernel and graph, each
# process's median trial in ms and none / compact. Measured: docs/numa.md, "Pinning and other
# work on the machine".
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${NUMAGRAPH_BIN:-build/numagraph}
T=${1:-$(nproc)}
W=${WORKDIR:-$(mktemp -d)}
R=$W/pinning-runs
mkdir -p "$R"
[ -f "$W/road-NY-sym.ngr" ] || NUMAGRAPH_BIN=$BIN python3 bench/peers.py --threads "$T" --workdir "$W" \
  --graphs road-NY --kernels pr --rounds 1 --trials 1 > /dev/null
[ -f "$W/kron20.ngr" ] || "$BIN" generate kron --scale "${KRON_SCALE:-20}" -o "$W/kron20.ngr" > /dev/null
one() {  # TAG GRAPH KERNEL-ARGS...: one process per binding, output to a file (no pipe)
  local tag=$1 g=$2 name
  shift 2
  name=$(echo "$*" | tr ' ' '_')
  for b in compact none; do
    "$BIN" "$@" "$W/$g.ngr" -t "$T" -n 10 --bind $b --json -q > "$R/$tag.$g.$name.$b.$RANDOM.json"
  done
}
round() {
  for g in road-NY-sym kron20; do
    one "$1" $g pr --variant gauss-seidel
    one "$1" $g pr --variant jacobi
    for k in bfs cc kcore sssp; do one "$1" $g $k; done
  done
}
for _ in $(seq "${QUIET_ROUNDS:-3}"); do round quiet; done
bash -c 'while :; do :; done' &
BUSY=$!
trap 'kill $BUSY 2> /dev/null' EXIT
for _ in $(seq "${BUSY_ROUNDS:-2}"); do round busy; done
kill $BUSY
python3 - "$R" <<'PY'
import collections, glob, json, os, statistics, sys
runs = collections.defaultdict(list)
for f in glob.glob(sys.argv[1] + "/*.json"):
    tag, graph, kernel, bind, _, _ = os.path.basename(f).split(".")
    rec = json.loads([l for l in open(f) if l.startswith("{")][-1])
    runs[(tag, graph, kernel, bind)].append(statistics.median(rec["trials"]))
for tag in ("quiet", "busy"):
    for (t, graph, kernel, bind) in sorted(runs):
        if t != tag or bind != "compact":
            continue
        c, n = runs[(t, graph, kernel, "compact")], runs[(t, graph, kernel, "none")]
        fmt = lambda xs: " ".join(f"{x * 1e3:.2f}" for x in sorted(xs))
        print(f"{tag:5} {graph:11} {kernel:26} compact {fmt(c)}  none {fmt(n)} ms  "
              f"none/compact {statistics.median(n) / statistics.median(c):.2f}")
PY

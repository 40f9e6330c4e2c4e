#!/usr/bin/env python3
"""Two numagraph binaries, every kernel, interleaved: is the new one slower?

Usage:
    bench/ab_binaries.py --old OLD_BIN --new NEW_BIN --graph kron20.ngr --graph roadNY.ngr \
        [--rounds 5] [--kernels bfs,sssp,...] [--engine auto|flat|numa] [--extra "-t 2"]

Each round runs every (graph, kernel) once with each binary, the order of
the two binaries alternating between rounds, so both see the same noise.
A run is `BIN KERNEL GRAPH -n TRIALS --json`; its median trial is taken,
and a cell's figure is new/old of the medians over the rounds. Graphs that
the kernel needs undirected (bp, tc) must be stored undirected.
"""
import argparse
import json
import statistics
import subprocess

# kernel: flags common to both binaries (the old one may not know newer flags)
KERNELS = {
    "bfs": ["--sources", "8"],
    "sssp": ["--sources", "4"],
    "bc": ["--sources", "2"],
    "diameter": ["-n", "3"],
    "pr": ["-n", "3"],
    "spmv": ["-n", "3"],
    "bp": ["-n", "3"],
    "cc": ["-n", "3"],
    "tc": ["-n", "1"],
}


def median_trial(binary, kernel, graph, extra):
    cmd = [binary, kernel, graph, *KERNELS[kernel], *extra, "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()}")
    record = json.loads(proc.stdout.strip().splitlines()[-1])
    return statistics.median(record["trials"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--graph", action="append", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--extra", default="", help="flags for both binaries, e.g. '--engine numa'")
    args = ap.parse_args()
    kernels = args.kernels.split(",")
    extra = args.extra.split()
    times = {(g, k, b): [] for g in args.graph for k in kernels for b in ("old", "new")}
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for g in args.graph:
            for k in kernels:
                for b in order:
                    times[(g, k, b)].append(median_trial(getattr(args, b), k, g, extra))
    print(f"{'graph':24} {'kernel':9} {'old s':>10} {'new s':>10} {'new/old':>8}  (medians of {args.rounds} rounds)")
    for g in args.graph:
        for k in kernels:
            old = statistics.median(times[(g, k, "old")])
            new = statistics.median(times[(g, k, "new")])
            print(f"{g.split('/')[-1]:24} {k:9} {old:10.5f} {new:10.5f} {new / old:8.3f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Memory-bandwidth yardstick for PageRank and SpMV.

Usage: bench/bandwidth_yardstick.py [--graph urand22] [--iterations 10]

1. Measures streaming bandwidth with `numagraph bench-stream` (STREAM triad).
2. Computes the minimum bytes one iteration must move (a lower bound that
   assumes every vertex value is fetched from memory once and the edge arrays
   are streamed once):
     PageRank (pull, Jacobi, float contributions):
       offsets 8(n+1) + neighbour ids 4m + contributions read 4n
       + scores read and written 16n + contributions written 4n (+ out-degrees via offsets, counted)
     SpMV (rows over out-edges, weighted):
       offsets 8(n+1) + neighbour ids 4m + weights 4m + x read 8n + y written 8n + x written 8n
   (m = stored arcs). The bound is bytes / bandwidth. A second, line-granular
   bound charges every random read of a vertex value (one per arc) a whole
   64-byte cache line, which is what a random graph much larger than the
   caches really costs.
3. Times `numagraph pr --variant spmv --tolerance 0 -i N` and `numagraph spmv -i N`
   (median of 3 trials), divides by N and prints achieved time / bound.
"""
import argparse
import json
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NUMAGRAPH = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))


def run(*args):
    out = subprocess.run([str(NUMAGRAPH), *map(str, args)], capture_output=True, text=True, check=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")][-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", default="urand22")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    gen = ["--uniform", args.graph[5:]] if args.graph.startswith("urand") else ["--kron", args.graph[4:]]
    bw = run("bench-stream", "--json", "-t", args.threads)["gb_per_s"] * 1e9
    pr = run("pr", *gen, "--variant", "spmv", "--tolerance", "0", "-i", args.iterations, "-n", "3", "--json",
             "-t", args.threads, "--engine", "flat")
    n, m = pr["num_vertices"], 2 * pr["num_edges"]  # undirected generators store both directions
    sp = run("spmv", *gen, "--weighted", "-i", args.iterations, "-n", "3", "--json", "-t", args.threads, "--engine", "flat")
    pr_bytes = 8 * (n + 1) + 4 * m + 4 * n + 16 * n + 4 * n
    sp_bytes = 8 * (n + 1) + 8 * m + 8 * n + 8 * n + 8 * n
    print(f"streaming bandwidth (STREAM triad, {args.threads} threads): {bw / 1e9:.2f} GB/s")
    print(f"graph {args.graph}: n = {n:,}, stored arcs m = {m:,}")
    for name, rec, bytes_, value in (("PageRank", pr, pr_bytes, 4), ("SpMV", sp, sp_bytes, 8)):
        per_iter = rec["median_s"] / args.iterations
        bound = bytes_ / bw
        line_bytes = bytes_ + (64 - value) * m
        line_bound = line_bytes / bw
        print(f"{name:8s}: {bytes_ / 1e6:.0f} MB per iteration, bound {bound * 1e3:.1f} ms, "
              f"achieved {per_iter * 1e3:.1f} ms = {per_iter / bound:.2f}x the bound; "
              f"line-granular {line_bytes / 1e9:.1f} GB, bound {line_bound * 1e3:.0f} ms = {per_iter / line_bound:.2f}x")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Memory-bandwidth yardstick for PageRank and SpMV.

Usage: bench/bandwidth_yardstick.py [--graph urand22] [--iterations 10] [--rounds 3]
       [--sg urand22.sg --wsg urand22.wsg]   (the same graph from files: no generation per run)

1. Measures streaming bandwidth with `numagraph bench-stream` (STREAM triad),
   once per round between the kernel runs, and takes the best (STREAM's own
   convention: on this noisy VM single measurements ranged 18-41 GB/s, and
   the best gives the tightest bound); the range is printed too.
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
3. Times `numagraph pr --variant jacobi --tolerance 0 -i N` and `numagraph spmv -i N`
   (3 trials per round; the cache-blocked sweep that the default `--cache-block
   auto` picks, with its tiles built inside every trial) and prints achieved
   time / bound two ways: the whole run over N (the copy included), and the
   steady state, (run - copy) / N, where the copy is the same trials' own
   `cache_copy_s` (the seconds the kernel spent building its tiles). Then the
   unblocked kernels (`--cache-block off`) in the same rounds, and the ratio
   blocked / unblocked of the whole runs. The runs alternate for `--rounds`
   rounds (this machine is noisy) and every time is the median of all trials.
4. The compute floor (bench/arc_floor.cpp, compiled here with $CXX or c++):
   one random `+= 1.0` per stored arc into an L2-resident buffer of doubles
   per thread, the size each kernel's tiles use (`tile_row_bits` in its
   JSON), with no value read at all, in the faster of a plain loop and the
   tiled sweep's prefetched one. Every pull sweep makes at least that update
   per arc; what the floor leaves of 3x the bound is the time the sweep has
   for everything else (reading the values, the arcs' bytes, finishing).
"""
import argparse
import json
import os
import statistics
import shutil
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NUMAGRAPH = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))


def run(*args):
    out = subprocess.run([str(NUMAGRAPH), *map(str, args)], capture_output=True, text=True, check=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")][-1]


def arc_floor(arcs, row_bits, threads, rounds):
    """Median seconds of bench/arc_floor.cpp for `arcs` updates into 2^row_bits doubles, or None without a compiler."""
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if not cxx:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "arc_floor"
        subprocess.run([cxx, "-O3", "-march=x86-64-v3", "-fopenmp", str(REPO / "bench" / "arc_floor.cpp"), "-o", str(exe)],
                       check=True)
        out = subprocess.run([str(exe), str(arcs), str(row_bits), str(max(3, 2 * rounds + 1)), str(threads)],
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out)["median_s"]


def merge(records):
    """One record whose median is over every trial of `records`."""
    rec = dict(records[0])
    rec["trials"] = [t for r in records for t in r["trials"]]
    rec["median_s"] = statistics.median(rec["trials"])
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graph", default="urand22")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sg", help="read this .sg for PageRank instead of generating --graph")
    ap.add_argument("--wsg", help="read this .wsg for SpMV instead of generating --graph")
    args = ap.parse_args()
    if args.iterations < 3:
        ap.error("--iterations must be at least 3 (the kernels tile only for 3 or more sweeps)")
    gen = ["--uniform", args.graph[5:]] if args.graph.startswith("urand") else ["--kron", args.graph[4:]]

    pr_graph = [args.sg] if args.sg else gen
    sp_graph = [args.wsg] if args.wsg else [*gen, "--weighted"]

    def pr_run(block):
        return run("pr", *pr_graph, "--variant", "jacobi", "--tolerance", "0", "-i", args.iterations, "-n", "3",
                   "--json", "-t", args.threads, "--engine", "flat", "--cache-block", block)

    def spmv_run(block):
        return run("spmv", *sp_graph, "-i", args.iterations, "-n", "3", "--json", "-t", args.threads,
                   "--engine", "flat", "--cache-block", block)

    runs = {key: [] for key in ("pr", "pr_off", "sp", "sp_off")}
    bandwidths = []
    for _ in range(args.rounds):
        bandwidths.append(run("bench-stream", "--json", "-t", args.threads)["gb_per_s"] * 1e9)
        runs["pr"].append(pr_run("auto"))
        runs["pr_off"].append(pr_run("off"))
        runs["sp"].append(spmv_run("auto"))
        runs["sp_off"].append(spmv_run("off"))
    pr, pr_off, sp, sp_off = (merge(runs[k]) for k in ("pr", "pr_off", "sp", "sp_off"))
    n = pr["num_vertices"]
    m = pr["num_edges"] if pr["directed"] else 2 * pr["num_edges"]  # undirected graphs store both directions
    pr_bytes = 8 * (n + 1) + 4 * m + 4 * n + 16 * n + 4 * n
    sp_bytes = 8 * (n + 1) + 8 * m + 8 * n + 8 * n + 8 * n
    bw = max(bandwidths)
    print(f"streaming bandwidth (STREAM triad, {args.threads} threads, best of {len(bandwidths)}): {bw / 1e9:.2f} GB/s "
          f"(measured {min(bandwidths) / 1e9:.2f}-{bw / 1e9:.2f})")
    print(f"graph {args.graph}: n = {n:,}, stored arcs m = {m:,}")
    for name, rec, off, bytes_, value in (("PageRank", pr, pr_off, pr_bytes, 4), ("SpMV", sp, sp_off, sp_bytes, 8)):
        per_iter = rec["median_s"] / args.iterations
        copy = statistics.median(r["cache_copy_s"] for r in runs["pr" if rec is pr else "sp"])
        steady = (rec["median_s"] - copy) / args.iterations
        off_iter = off["median_s"] / args.iterations
        bound = bytes_ / bw
        line_bytes = bytes_ + (64 - value) * m
        line_bound = line_bytes / bw
        print(f"{name:8s}: {bytes_ / 1e6:.0f} MB per iteration, bound {bound * 1e3:.1f} ms; tiles of 2^{rec['tile_row_bits']} "
              f"rows x {rec['cache_segments']} column ranges: {per_iter * 1e3:.1f} ms per iteration with the copy "
              f"({copy * 1e3:.0f} ms) = {per_iter / bound:.2f}x the bound; steady state {steady * 1e3:.1f} ms = "
              f"{steady / bound:.2f}x")
        print(f"{'':8s}  unblocked: {off_iter * 1e3:.1f} ms = {off_iter / bound:.2f}x the bound, "
              f"{off_iter / line_bound:.2f}x the line-granular bound ({line_bytes / 1e9:.1f} GB, "
              f"{line_bound * 1e3:.0f} ms); blocked / unblocked = {per_iter / off_iter:.2f}")
        floor = arc_floor(m, rec["tile_row_bits"], args.threads, args.rounds) if rec["tile_row_bits"] else None
        if floor is None:
            print(f"{'':8s}  compute floor: not measured (not tiled, or no C++ compiler: $CXX, c++ or g++)")
        else:
            print(f"{'':8s}  compute floor (bench/arc_floor.cpp: {m:,} random += into 2^{rec['tile_row_bits']} doubles "
                  f"per thread, nothing else): {floor * 1e3:.1f} ms = {floor / bound:.2f}x the bound, leaving "
                  f"{(3 * bound - floor) * 1e3:.1f} ms of 3x the bound for the rest of an iteration")


if __name__ == "__main__":
    main()

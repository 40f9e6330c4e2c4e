#!/usr/bin/env python3
"""NUMA engine benchmarks: overhead on this machine and access accounting.

Usage: bench/engine_bench.py overhead [--graph kron20|STEM] [--rounds 5] [--kernels pr,spmv,...]
                                     [--in-process] [--baseline BIN]
       bench/engine_bench.py account  [--graph kron20] [--topology "pack:8 numa:1 core:1"] [--kernels ...]

Kernels: pr, spmv, bfs, cc (Afforest on both engines), cc_lp (the engine's
label propagation, against the flat Afforest), sssp, bc.

overhead: for each kernel, times the flat kernel, the NUMA
  engine on this machine's real topology, and the NUMA engine on a synthetic
  2-node topology (same thread count), alternating round by round (rotating
  which goes first), and prints median times and the ratios engine / flat.
  --graph kronN / uniformN generates the graph in every process; a path stem
  (one with a '/', e.g. /tmp/vsg/kron20) reads STEM.sg, or STEM.wsg for sssp,
  as bench/vs_gapbs.py writes them. --baseline BIN adds the engine run by
  another binary (say, the previous commit's), as two more ratio columns.
  --in-process does the same through the Python package in one process: the
  graph is generated (or read) once and the three configurations alternate
  call by call (PageRank runs the Jacobi variant there), so every configuration sees the same pages and the same moments of
  a noisy host (between processes, the same binary measured up to 1.5x
  apart on this VM). Needs `import numagraph` (make test builds it).
account: runs each kernel with --account under the synthetic topology, once
  with --engine flat and once with --engine numa, and prints the fractions of
  local/remote x random/sequential accesses.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NUMAGRAPH = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))

# name: (subcommand, flags, flags for the flat engine when they differ)
KERNELS = {
    "pr": ("pr", ["--iterations", "10", "--tolerance", "0", "--variant", "jacobi"]),
    "spmv": ("spmv", ["--iterations", "5"]),
    "bfs": ("bfs", ["--sources", "4"]),
    "cc": ("cc", []),
    "cc_lp": ("cc", ["--variant", "lp"], []),
    "sssp": ("sssp", ["--sources", "2"]),
    "bc": ("bc", ["--sources", "2"]),
}


def kernel_args(name, engine):
    command, flags, *flat = KERNELS[name]
    return [command, *(flat[0] if flat and engine == "flat" else flags)]


def run(args, binary=None):
    proc = subprocess.run([str(a) for a in [binary or NUMAGRAPH, *args]], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: numagraph {' '.join(map(str, args))}\n{proc.stderr}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]


def graph_args(graph, kernel):
    if "/" in graph:  # a file stem: STEM.sg, or STEM.wsg for SSSP (bench/vs_gapbs.py writes both)
        return [f"{graph}.wsg" if kernel == "sssp" else f"{graph}.sg"]
    kind, scale = ("--kron", graph[4:]) if graph.startswith("kron") else ("--uniform", graph[5:])
    return [kind, scale] + (["--weighted"] if kernel == "sssp" else [])


def overhead(args):
    names = ["flat", "numa1", "numa2"] + (["base1", "base2"] if args.baseline else [])
    head = f"{'kernel':6s} {'flat s':>9s} {'numa 1-node s':>14s} {'numa 2-node s':>14s} {'1-node ratio':>13s} {'2-node ratio':>13s}"
    print(head + (f" {'baseline 1-node':>16s} {'baseline 2-node':>16s}" if args.baseline else ""))
    for kernel in args.kernels.split(","):
        times = {name: [] for name in names}

        def base(engine):
            command, *flags = kernel_args(kernel, engine)
            return [command, *graph_args(args.graph, kernel), *flags, "-n", "3", "-t", str(args.threads), "--json",
                    "--engine", engine]
        two_nodes = ["--topology", f"pack:2 numa:1 core:{args.threads // 2 or 1}"]
        configs = [("flat", base("flat"), None), ("numa1", base("numa"), None), ("numa2", base("numa") + two_nodes, None)]
        if args.baseline:  # the same engine runs with another binary (e.g. the previous commit's)
            configs += [("base1", base("numa"), args.baseline), ("base2", base("numa") + two_nodes, args.baseline)]
        for r in range(args.rounds):
            # Rotate which configuration goes first: on a noisy host a process
            # run right after another measured up to 7 % slower.
            k = r % len(configs)
            for name, command, binary in configs[k:] + configs[:k]:
                times[name] += run(command, binary)["trials"]
        m = {k: statistics.median(v) for k, v in times.items()}
        line = f"{kernel:6s} {m['flat']:9.4f} {m['numa1']:14.4f} {m['numa2']:14.4f} {m['numa1'] / m['flat']:13.2f} {m['numa2'] / m['flat']:13.2f}"
        if args.baseline:
            line += f" {m['base1'] / m['flat']:16.2f} {m['base2'] / m['flat']:16.2f}"
        print(line, flush=True)


# In-process calls: name -> (graph needs weights, f(ng, g, sources, engine)).
CALLS = {
    "pr": (False, lambda ng, g, s, e: ng.pagerank(g, max_iterations=10, tolerance=0, variant="jacobi", engine=e)),
    "spmv": (False, lambda ng, g, s, e: ng.spmv(g, 5, engine=e)),
    "bfs": (False, lambda ng, g, s, e: [ng.bfs(g, v, engine=e) for v in s[:4]]),
    "cc": (False, lambda ng, g, s, e: ng.connected_components(g, engine=e)),
    "cc_lp": (False, lambda ng, g, s, e: ng.connected_components(g, variant="lp" if e == "numa" else "afforest",
                                                                   engine=e)),
    "sssp": (True, lambda ng, g, s, e: [ng.sssp(g, v, engine=e) for v in s[:2]]),
    "bc": (False, lambda ng, g, s, e: ng.betweenness(g, sources=s[:2], engine=e)),
}


def overhead_in_process(args):
    import time
    import numpy as np
    import numagraph as ng
    graphs = {}

    def load(weighted):
        if "/" in args.graph:  # a file stem, as in overhead()
            return ng.read(f"{args.graph}.wsg" if weighted else f"{args.graph}.sg")
        kind, scale = ("kronecker", int(args.graph[4:])) if args.graph.startswith("kron") else ("uniform", int(args.graph[5:]))
        return getattr(ng.generate, kind)(scale, weighted=weighted)
    configs = [("flat", "flat", ""), ("numa1", "numa", ""),
               ("numa2", "numa", f"pack:2 numa:1 core:{args.threads // 2 or 1} pu:1")]
    print(f"{'kernel':6s} {'flat s':>9s} {'numa 1-node s':>14s} {'numa 2-node s':>14s} {'1-node ratio':>13s} {'2-node ratio':>13s}")
    for kernel in args.kernels.split(","):
        weighted, call = CALLS[kernel]
        if weighted not in graphs:
            graphs[weighted] = load(weighted)
        g = graphs[weighted]
        rng = np.random.default_rng(27491095)  # fixed roots: non-isolated vertices
        degree = np.asarray(g.out_degree)
        sources = [int(v) for v in rng.permutation(np.flatnonzero(degree > 0))[:4]]
        times = {name: [] for name, _, _ in configs}
        for r in range(args.rounds):
            for name, engine, topology in configs[r % 3:] + configs[:r % 3]:
                with ng.config(threads=args.threads, topology=topology):
                    call(ng, g, sources, engine)  # builds the partitioned copy for this topology; not timed
                    for _ in range(3):
                        t0 = time.perf_counter()
                        call(ng, g, sources, engine)
                        times[name].append(time.perf_counter() - t0)
        m = {k: statistics.median(v) for k, v in times.items()}
        print(f"{kernel:6s} {m['flat']:9.4f} {m['numa1']:14.4f} {m['numa2']:14.4f} {m['numa1'] / m['flat']:13.2f} {m['numa2'] / m['flat']:13.2f}",
              flush=True)


def account(args):
    print(f"topology {args.topology}, graph {args.graph}")
    print(f"{'kernel':6s} {'engine':6s} {'local rnd':>10s} {'local seq':>10s} {'remote rnd':>11s} {'remote seq':>11s} {'remote random accesses':>24s}")
    for kernel in args.kernels.split(","):
        for engine in ("flat", "numa"):
            command, *flags = kernel_args(kernel, engine)
            rec = run([command, *graph_args(args.graph, kernel), *flags, "-n", "1", "--json", "--account",
                       "--engine", engine, "--topology", args.topology])
            a = rec["account"]
            total = sum(a.values())
            frac = {k: 100.0 * v / total for k, v in a.items()}
            print(f"{kernel:6s} {engine:6s} {frac['local_random']:9.1f}% {frac['local_sequential']:9.1f}% "
                  f"{frac['remote_random']:10.1f}% {frac['remote_sequential']:10.1f}% {a['remote_random']:24,d}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["overhead", "account"])
    ap.add_argument("--graph", default="kron20")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--topology", default="pack:8 numa:1 core:1")
    ap.add_argument("--kernels", default=",".join(KERNELS), help="which kernels (default: all)")
    ap.add_argument("--in-process", action="store_true",
                    help="overhead: time through the Python package, one process, one graph")
    ap.add_argument("--baseline", metavar="BIN",
                    help="overhead: also time the engine with this numagraph binary (ratios to the flat kernel)")
    args = ap.parse_args()
    if args.baseline and (args.in_process or args.mode == "account"):
        ap.error("--baseline works with overhead without --in-process (it runs another binary)")
    if args.mode == "account":
        account(args)
    else:
        overhead_in_process(args) if args.in_process else overhead(args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""NUMA engine benchmarks: overhead on this machine and access accounting.

Usage: bench/engine_bench.py overhead [--graph kron20] [--rounds 5] [--kernels pr,spmv,...]
       bench/engine_bench.py account  [--graph kron20] [--topology "pack:8 numa:1 core:1"] [--kernels ...]

Kernels: pr, spmv, bfs, cc (Afforest on both engines), cc_lp (the engine's
label propagation, against the flat Afforest), sssp, bc.

overhead: for each kernel, times the flat kernel, the NUMA
  engine on this machine's real topology, and the NUMA engine on a synthetic
  2-node topology (same thread count), alternating round by round (rotating
  which goes first), and prints median times and the ratios engine / flat.
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
    "pr": ("pr", ["--iterations", "10", "--tolerance", "0", "--variant", "spmv"]),
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


def run(args):
    proc = subprocess.run([str(a) for a in [NUMAGRAPH, *args]], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: numagraph {' '.join(map(str, args))}\n{proc.stderr}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]


def graph_args(graph, kernel):
    kind, scale = ("--kron", graph[4:]) if graph.startswith("kron") else ("--uniform", graph[5:])
    return [kind, scale] + (["--weighted"] if kernel == "sssp" else [])


def overhead(args):
    print(f"{'kernel':6s} {'flat s':>9s} {'numa 1-node s':>14s} {'numa 2-node s':>14s} {'1-node ratio':>13s} {'2-node ratio':>13s}")
    for kernel in args.kernels.split(","):
        times = {"flat": [], "numa1": [], "numa2": []}

        def base(engine):
            command, *flags = kernel_args(kernel, engine)
            return [command, *graph_args(args.graph, kernel), *flags, "-n", "3", "-t", str(args.threads), "--json",
                    "--engine", engine]
        configs = [("flat", base("flat")), ("numa1", base("numa")),
                   ("numa2", base("numa") + ["--topology", f"pack:2 numa:1 core:{args.threads // 2 or 1}"])]
        for r in range(args.rounds):
            # Rotate which configuration goes first: on a noisy host a process
            # run right after another measured up to 7 % slower.
            for name, command in configs[r % 3:] + configs[:r % 3]:
                times[name] += run(command)["trials"]
        m = {k: statistics.median(v) for k, v in times.items()}
        print(f"{kernel:6s} {m['flat']:9.4f} {m['numa1']:14.4f} {m['numa2']:14.4f} {m['numa1'] / m['flat']:13.2f} {m['numa2'] / m['flat']:13.2f}")


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
    args = ap.parse_args()
    overhead(args) if args.mode == "overhead" else account(args)


if __name__ == "__main__":
    main()

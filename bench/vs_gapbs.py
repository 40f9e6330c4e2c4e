#!/usr/bin/env python3
"""numagraph vs the GAP Benchmark Suite, side by side on the same graph files.

Usage:
  GAPBS_DIR=/path/to/gapbs bench/vs_gapbs.py [--kernels bfs,sssp,...] [--graphs kron20,urand22,...]
                                            [--rounds 5] [--threads 2] [--delta 32|gap] [--out results.json]
                                            [--baseline OLD_NUMAGRAPH_BINARY]

For each graph the script writes one .sg/.wsg file with `numagraph generate`
(or converts a road graph from ../shared/data) and runs both tools on that
same file with the same roots and iteration counts, alternating the tools
round by round (and which goes first) so machine noise hits both alike. Each round runs a tool's
trials in one process (graph loading is not timed by either tool); the
per-trial times of all rounds are pooled and the medians compared.
Prints a table of medians and the ratio numagraph / gapbs (below 1: faster).
Without GAPBS_DIR it only times numagraph. With --baseline, a second numagraph
binary (say, a build of the previous commit) takes its turn in every round
too, and the table adds the ratio new / baseline: an A/B of a change under
the same noise as the comparison with gapbs.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NUMAGRAPH = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))
SHARED = REPO.parent / "shared" / "data"

# kernel -> (gapbs binary, weighted graph?, gapbs flags, numagraph flags); {root} filled in.
# Matching: bfs/sssp/bc use one fixed root; pr runs gapbs's default L1 tolerance
# 1e-4 with at most 20 iterations, and numagraph the same, each against the same
# method (pr: Gauss-Seidel, pr_spmv: Jacobi, named whatever --variant auto picks);
# cc/tc have no parameters.
KERNELS = {
    "bfs": ("bfs", False, ["-r", "{root}"], ["--source", "{root}"]),
    "sssp": ("sssp", True, ["-r", "{root}", "-d", "{delta}"], ["--source", "{root}", "--delta", "{delta}"]),
    "bc": ("bc", False, ["-r", "{root}", "-i", "1"], ["--source", "{root}"]),
    "pr": ("pr", False, ["-i", "20", "-t", "1e-4"], ["--iterations", "20", "--tolerance", "1e-4", "--variant", "gauss-seidel"]),
    "pr_spmv": ("pr_spmv", False, ["-i", "20", "-t", "1e-4"], ["--iterations", "20", "--tolerance", "1e-4", "--variant", "jacobi"]),
    "cc": ("cc", False, [], ["--variant", "afforest"]),
    "cc_sv": ("cc_sv", False, [], ["--variant", "sv"]),
    "tc": ("tc", False, [], []),
}
NUMAGRAPH_COMMAND = {"pr_spmv": "pr", "cc_sv": "cc"}


def sh(cmd, env=None):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


def make_graph(name, weighted, workdir):
    ext = "wsg" if weighted else "sg"
    path = Path(workdir) / f"{name}.{ext}"
    if path.exists():
        return path
    if name.startswith("kron"):
        sh([NUMAGRAPH, "generate", "kron", "--scale", name[4:], "-o", path] + (["--weighted"] if weighted else []))
    elif name.startswith("urand"):
        sh([NUMAGRAPH, "generate", "uniform", "--scale", name[5:], "-o", path] + (["--weighted"] if weighted else []))
    elif name.startswith("grid"):
        sh([NUMAGRAPH, "generate", "grid", "--scale", name[4:], "-o", path, "--weighted"])
    elif name == "road-NY":
        src = SHARED / "USA-road-d.NY" / "USA-road-d.NY.gr.gz"
        sh([NUMAGRAPH, "convert", src, path, "--dedupe"])
    else:
        sys.exit(f"unknown graph {name}")
    return path


def sssp_delta(choice, graph):
    """The SSSP delta for `graph`: a number as given, or gapbs's benchmark value."""
    if choice != "gap":
        return choice
    return "50000" if graph.startswith("road") else "2"


def pick_root(path):
    out = sh([NUMAGRAPH, "bfs", path, "--sources", "1", "-n", "1", "--json"])
    return json.loads(out)["roots"][0]


def gapbs_trials(gapbs, kernel, path, flags, trials, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = sh([Path(gapbs) / KERNELS[kernel][0], "-f", path, "-n", trials, *flags], env=env)
    return [float(x) for x in re.findall(r"Trial Time:\s+([0-9.eE+-]+)", out)]


def numagraph_trials(binary, kernel, path, flags, trials, threads):
    cmd = NUMAGRAPH_COMMAND.get(kernel, kernel)
    engine = [] if cmd in ("tc", "diameter") else ["--engine", "flat"]
    out = sh([binary, cmd, path, "-n", trials, "-t", threads, "--json", *engine, *flags])
    recs = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return [t for r in recs for t in r["trials"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", default="bfs,sssp,bc")
    ap.add_argument("--graphs", default="kron20,urand20")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--trials", type=int, default=4, help="trials per process and round")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--delta", default="32",
                    help="SSSP delta for both tools, or 'gap': the deltas of gapbs's own benchmark "
                         "(benchmark/bench.mk: 50000 for road graphs, 2 for the others)")
    ap.add_argument("--workdir", default=None, help="where graph files go (default: a temp dir)")
    ap.add_argument("--out", default=None, help="also write the table as JSON here")
    ap.add_argument("--baseline", default=None,
                    help="another numagraph binary to time in the same rounds (reports new / baseline)")
    args = ap.parse_args()
    if args.baseline and not Path(args.baseline).is_file():
        sys.exit(f"--baseline {args.baseline}: no such file (give the path of a numagraph binary)")
    gapbs = os.environ.get("GAPBS_DIR")
    workdir = args.workdir or tempfile.mkdtemp(prefix="numagraph-bench-")
    rows = []
    for graph in args.graphs.split(","):
        for kernel in args.kernels.split(","):
            if kernel == "tc" and graph.startswith("road"):
                # DIMACS road files are directed (both arcs listed); both tools refuse them for tc.
                print(f"{graph:10s} {kernel:8s} skipped: triangle counting needs an undirected graph", flush=True)
                continue
            weighted = KERNELS[kernel][1]
            path = make_graph(graph, weighted, workdir)
            root = pick_root(path)
            delta = sssp_delta(args.delta, graph)
            fill = lambda fl: [f.format(root=root, delta=delta) for f in fl]
            ours, theirs, base = [], [], []
            ours_flags = fill(KERNELS[kernel][3])
            for r in range(args.rounds):
                # Alternate which tool goes first: on a noisy host the second
                # process of a pair measured up to 7 % slower than the first.
                runs = [lambda: ours.extend(numagraph_trials(NUMAGRAPH, kernel, path, ours_flags, args.trials,
                                                             args.threads))]
                if gapbs:
                    runs.append(lambda: theirs.extend(gapbs_trials(gapbs, kernel, path, fill(KERNELS[kernel][2]),
                                                                   args.trials, args.threads)))
                if args.baseline:
                    runs.append(lambda: base.extend(numagraph_trials(args.baseline, kernel, path, ours_flags,
                                                                     args.trials, args.threads)))
                for run in (runs if r % 2 == 0 else runs[::-1]):
                    run()
            row = {"graph": graph, "kernel": kernel, "numagraph_median_s": statistics.median(ours)}
            if kernel == "sssp":
                row["delta"] = delta
            if theirs:
                row["gapbs_median_s"] = statistics.median(theirs)
                row["ratio"] = row["numagraph_median_s"] / row["gapbs_median_s"]
            if base:
                row["baseline_median_s"] = statistics.median(base)
                row["vs_baseline"] = row["numagraph_median_s"] / row["baseline_median_s"]
            rows.append(row)
            print(f"{graph:10s} {kernel + (f' d={delta}' if kernel == 'sssp' else ''):8s} numagraph {row['numagraph_median_s']:.5f} s"
                  + (f"  gapbs {row['gapbs_median_s']:.5f} s  ratio {row['ratio']:.3f}" if theirs else "")
                  + (f"  baseline {row['baseline_median_s']:.5f} s  new/baseline {row['vs_baseline']:.3f}" if base else ""),
                  flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

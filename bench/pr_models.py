#!/usr/bin/env python3
"""What the NetworkX PageRank model costs against the default (gapbs) model.

Usage: bench/pr_models.py [--scale 20] [--rounds 5] [--threads 0] [--workdir DIR]

Writes kron<scale> once as .ngr, then runs, round by round (configurations
interleaved so machine noise hits each alike), each as one command of three
trials whose median counts (the first trial of a process pays page faults
the others do not):
  fixed 20 iterations (--tolerance 0), the cost per iteration:
    gs        default variant (Gauss-Seidel, float contributions, dangling mass dropped)
    jacobi    --variant jacobi (float contributions, dangling mass dropped)
    nx        --networkx (Jacobi, double contributions, dangling mass spread)
  to convergence, what a user gets:
    default   the CLI's defaults (tolerance 1e-4)
    nx-conv   --networkx with NetworkX's defaults (L1 < n * 1e-6, 100 iterations at most)
    nx-1e-4   --networkx stopping where the default does (L1 < 1e-4: --tolerance 1e-4 / n)
and prints the median over rounds of those medians, iterations, score sums and the ratios nx/jacobi
(the model's own cost: the dangling spread and double contributions), nx/gs and
nx-conv/default and nx-1e-4/default, with the load average before and after.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NUMAGRAPH = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))

CONFIGS = {
    "gs": ["--tolerance", "0", "-i", "20"],
    "jacobi": ["--tolerance", "0", "-i", "20", "--variant", "jacobi"],
    "nx": ["--tolerance", "0", "-i", "20", "--networkx"],
    "default": [],
    "nx-conv": ["--networkx"],
}


def run_pr(graph, threads, flags):
    out = subprocess.run([str(NUMAGRAPH), "pr", str(graph), "-n", "3", "-q", "--json", "-t", str(threads), *flags],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="0: all cores")
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="pr_models_"))
    graph = work / f"kron{args.scale}.ngr"
    if not graph.exists():
        subprocess.run([str(NUMAGRAPH), "generate", "kron", "--scale", str(args.scale), "-o", str(graph)],
                       check=True, capture_output=True)
    print("load before:", os.getloadavg())
    CONFIGS["nx-1e-4"] = ["--networkx", "--tolerance", repr(1e-4 / 2**args.scale)]
    seconds = {k: [] for k in CONFIGS}
    last = {}
    for _ in range(args.rounds):
        for name, flags in CONFIGS.items():
            rec = run_pr(graph, args.threads, flags)
            seconds[name].append(rec["median_s"])
            last[name] = rec
    print("load after: ", os.getloadavg())
    med = {k: statistics.median(v) for k, v in seconds.items()}
    print(f"kron{args.scale}, {args.rounds} rounds, threads {last['gs']['threads']}")
    print(f"{'config':10} {'median_s':>9} {'iterations':>10} {'score_sum':>10}  variant")
    for name in CONFIGS:
        r = last[name]
        print(f"{name:10} {med[name]:9.4f} {r['iterations']:10d} {r['score_sum']:10.6f}  {r['variant']}")
    print(f"nx / jacobi  (20 iterations each): {med['nx'] / med['jacobi']:.3f}")
    print(f"nx / gs      (20 iterations each): {med['nx'] / med['gs']:.3f}")
    print(f"nx-conv / default (to convergence): {med['nx-conv'] / med['default']:.3f}")
    print(f"nx-1e-4 / default (both to L1 < 1e-4): {med['nx-1e-4'] / med['default']:.3f}")


if __name__ == "__main__":
    main()

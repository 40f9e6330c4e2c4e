#!/usr/bin/env python3
"""numagraph's RCM (include/numagraph/reorder/rcm.hpp) against SciPy's
scipy.sparse.csgraph.reverse_cuthill_mckee: bandwidth and seconds, on the
symmetric real graphs of ../shared/data.

Usage: bench/rcm_vs_scipy.py [--driver build-r1a/bench_reorder_bench] [--rounds 5] [GRAPH...]

For each graph, bench_reorder_bench (built with -DNUMAGRAPH_BENCH=ON) loads it
symmetrized (both directions of every edge, deduplicated, no self-loops: the
same matrix for both), times compute_order(rcm) (median of 7 in the process,
the permutation and its inverse included) and dumps the arcs and its
permutation; this script builds the same matrix in SciPy, times
reverse_cuthill_mckee (symmetric_mode=True, the matrix is symmetric; median of
7), and computes both bandwidths (max |new(u) - new(v)| over edges) itself,
from the permutations. Both are serial, and timed in CPU seconds of the
calling thread: on a shared, busy machine wall seconds mostly measure the
other tenants. The two alternate --rounds times (the load moves within
seconds); the table gives the median over the rounds of each, and the median
of the rounds' ratios as the speed-up. Prints a Markdown table:
docs/reordering.md has it.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

TRIALS = 7  # per process (ours) and per round (SciPy's)
DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
GRAPHS = ["USA-road-d.NY/USA-road-d.NY.gr.gz", "PGPgiantcompo/PGPgiantcompo.graph",
          "email-Enron/email-Enron.txt.gz", "facebook_combined/facebook_combined.txt.gz",
          "netscience/netscience.mtx", "rome99/rome99.gr", "soc-Slashdot0902/soc-Slashdot0902.txt.gz"]


def bandwidth(src, dst, old_of_new):
    new_of_old = np.empty_like(old_of_new)
    new_of_old[old_of_new] = np.arange(len(old_of_new), dtype=old_of_new.dtype)
    return int(np.abs(new_of_old[src].astype(np.int64) - new_of_old[dst].astype(np.int64)).max())


def ours(driver, path, dump=None):
    """(n, CPU seconds): the median of TRIALS in one process."""
    cmd = [driver, str(path), str(TRIALS), "rcm", "--symmetrize"] + (["--dump", dump] if dump else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    fields = dict(zip(*[iter(out.splitlines()[1].split()[1:])] * 2))
    return int(out.split()[3]), float(fields["cpu_seconds"])


def theirs(a):
    """(permutation, CPU seconds): the median of TRIALS calls."""
    secs = []
    for _ in range(TRIALS):
        t = time.thread_time()
        perm = reverse_cuthill_mckee(a, symmetric_mode=True)
        secs.append(time.thread_time() - t)
    return perm, statistics.median(secs)


def run(driver, path, rounds):
    with tempfile.TemporaryDirectory() as tmp:
        n, first = ours(driver, path, tmp)
        arcs = np.fromfile(os.path.join(tmp, "arcs.u32"), dtype=np.uint32)
        perm = np.fromfile(os.path.join(tmp, "rcm.u32"), dtype=np.uint32)
    src, dst = arcs[: len(arcs) // 2], arcs[len(arcs) // 2:]
    a = sp.csr_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    scipy_perm, _ = theirs(a)  # warm-up
    our_s, scipy_s = [], []
    for _ in range(rounds):
        our_s.append(ours(driver, path)[1])
        scipy_s.append(theirs(a)[1])
    return {"n": n, "edges": len(src) // 2, "ours_bw": bandwidth(src, dst, perm),
            "ours_s": statistics.median(our_s), "scipy_bw": bandwidth(src, dst, scipy_perm.astype(np.uint32)),
            "scipy_s": statistics.median(scipy_s), "input_bw": bandwidth(src, dst, np.arange(n, dtype=np.uint32)),
            "speedup": statistics.median(t / o for o, t in zip(our_s, scipy_s))}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--driver", default="build-r1a/bench_reorder_bench")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("graphs", nargs="*")
    args = ap.parse_args()
    graphs = [Path(g) for g in args.graphs] or [DATA / g for g in GRAPHS if (DATA / g).exists()]
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.rounds} rounds")
    print("| graph | vertices | edges | input bandwidth | numagraph RCM | SciPy RCM | ratio | "
          "numagraph CPU s | SciPy CPU s | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for g in graphs:
        r = run(args.driver, g, args.rounds)
        print(f"| {g.parent.name} | {r['n']:,} | {r['edges']:,} | {r['input_bw']:,} | {r['ours_bw']:,} | "
              f"{r['scipy_bw']:,} | {r['ours_bw'] / max(1, r['scipy_bw']):.3f} | {r['ours_s']:.4f} | "
              f"{r['scipy_s']:.4f} | {r['speedup']:.1f}x |", flush=True)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()

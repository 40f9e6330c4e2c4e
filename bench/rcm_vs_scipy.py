#!/usr/bin/env python3
"""numagraph's RCM (include/numagraph/reorder/rcm.hpp) against SciPy's
scipy.sparse.csgraph.reverse_cuthill_mckee: bandwidth and seconds, on the
symmetric real graphs of ../shared/data.

Usage: bench/rcm_vs_scipy.py [--driver build-r1a/bench_reorder_bench] [--trials 5] [GRAPH...]

For each graph, bench_reorder_bench (built with -DNUMAGRAPH_BENCH=ON) loads it
symmetrized (both directions of every edge, deduplicated, no self-loops: the
same matrix for both), times compute_order(rcm) (median of --trials, the
permutation and its inverse included) and dumps the arcs and its permutation;
this script builds the same matrix in SciPy, times reverse_cuthill_mckee
(symmetric_mode=True, the matrix is symmetric; median of --trials), and
computes both bandwidths (max |new(u) - new(v)| over edges) itself, from the
permutations. Prints a Markdown table: docs/reordering.md has it.
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

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
GRAPHS = ["USA-road-d.NY/USA-road-d.NY.gr.gz", "PGPgiantcompo/PGPgiantcompo.graph",
          "email-Enron/email-Enron.txt.gz", "facebook_combined/facebook_combined.txt.gz",
          "netscience/netscience.mtx", "rome99/rome99.gr"]


def bandwidth(src, dst, old_of_new):
    new_of_old = np.empty_like(old_of_new)
    new_of_old[old_of_new] = np.arange(len(old_of_new), dtype=old_of_new.dtype)
    return int(np.abs(new_of_old[src].astype(np.int64) - new_of_old[dst].astype(np.int64)).max())


def run(driver, path, trials):
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([driver, str(path), str(trials), "rcm", "--symmetrize", "--dump", tmp],
                             check=True, capture_output=True, text=True).stdout
        fields = dict(zip(*[iter(out.splitlines()[1].split()[1:])] * 2))
        n = int(out.split()[3])
        arcs = np.fromfile(os.path.join(tmp, "arcs.u32"), dtype=np.uint32)
        perm = np.fromfile(os.path.join(tmp, "rcm.u32"), dtype=np.uint32)
    src, dst = arcs[: len(arcs) // 2], arcs[len(arcs) // 2:]
    a = sp.csr_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    secs = []
    for _ in range(trials):
        t = time.perf_counter()
        scipy_perm = reverse_cuthill_mckee(a, symmetric_mode=True)
        secs.append(time.perf_counter() - t)
    return {"n": n, "edges": len(src) // 2, "ours_bw": bandwidth(src, dst, perm),
            "ours_s": float(fields["seconds"]), "scipy_bw": bandwidth(src, dst, scipy_perm.astype(np.uint32)),
            "scipy_s": statistics.median(secs), "input_bw": bandwidth(src, dst, np.arange(n, dtype=np.uint32))}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--driver", default="build-r1a/bench_reorder_bench")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("graphs", nargs="*")
    args = ap.parse_args()
    graphs = [Path(g) for g in args.graphs] or [DATA / g for g in GRAPHS if (DATA / g).exists()]
    print("| graph | vertices | edges | input bandwidth | numagraph RCM | SciPy RCM | ratio | "
          "numagraph s | SciPy s | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for g in graphs:
        r = run(args.driver, g, args.trials)
        print(f"| {g.parent.name} | {r['n']:,} | {r['edges']:,} | {r['input_bw']:,} | {r['ours_bw']:,} | "
              f"{r['scipy_bw']:,} | {r['ours_bw'] / max(1, r['scipy_bw']):.3f} | {r['ours_s']:.4f} | "
              f"{r['scipy_s']:.4f} | {r['scipy_s'] / max(r['ours_s'], 1e-9):.1f}x |", flush=True)


if __name__ == "__main__":
    main()

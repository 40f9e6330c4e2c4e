#!/usr/bin/env python3
"""numagraph's RCM (include/numagraph/reorder/rcm.hpp) against SciPy's
scipy.sparse.csgraph.reverse_cuthill_mckee: bandwidth and seconds, on the
symmetric real graphs of ../shared/data.

Usage: bench/rcm_vs_scipy.py [--driver build-r1a/bench_reorder_bench] [--rounds 5] [--meshes] [GRAPH...]

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

--meshes: the same table for the finite-element meshes and stencil grids of
tests/python/meshes.py (vertex ids shuffled, seeded), instead of the real
graphs: each written to a temporary edge list and measured the same way.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

TRIALS = 7  # per process (ours) and per round (SciPy's)
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / ".." / "shared" / "data"
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


def mesh_files(folder):
    """(name, path) of each mesh of tests/python/meshes.py, written to folder
    as an edge list (one "u v" line per edge, ids 0..n-1, every id used)."""
    sys.path.insert(0, str(ROOT / "tests" / "python"))
    import meshes

    for i, name in enumerate(meshes.MESHES):
        n, src, dst = meshes.mesh(name)
        path = Path(folder) / f"mesh{i}.el"
        np.savetxt(path, np.column_stack([src, dst]), fmt="%d")
        yield name, path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--driver", default="build-r1a/bench_reorder_bench")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--meshes", action="store_true", help="the meshes of tests/python/meshes.py, not real graphs")
    ap.add_argument("graphs", nargs="*")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.meshes:
            graphs = mesh_files(tmp)
        else:
            paths = [Path(g) for g in args.graphs] or [DATA / g for g in GRAPHS if (DATA / g).exists()]
            graphs = ((p.parent.name, p) for p in paths)
        load = os.getloadavg()
        print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.rounds} rounds")
        print(f"| {'mesh' if args.meshes else 'graph'} | vertices | edges | input bandwidth | numagraph RCM | "
              "SciPy RCM | ratio | numagraph CPU s | SciPy CPU s | speed-up |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, g in graphs:
            r = run(args.driver, g, args.rounds)
            print(f"| {name} | {r['n']:,} | {r['edges']:,} | {r['input_bw']:,} | {r['ours_bw']:,} | "
                  f"{r['scipy_bw']:,} | {r['ours_bw'] / max(1, r['scipy_bw']):.3f} | {r['ours_s']:.4f} | "
                  f"{r['scipy_s']:.4f} | {r['speedup']:.1f}x |", flush=True)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()

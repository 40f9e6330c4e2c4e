#!/usr/bin/env python3
"""numagraph-mpi against the distributed peers on the same graph and ranks.

    python3 bench/mpi_peers.py [--ngmpi /tmp/peers/ngmpi] [--reps 3]
        [--square-ranks 1 4] [--sssp-ranks 1 2 4] [--roots 16]
        [--kernels bfs cc sssp] [--combblas DIR] [--graph500 BIN]

Peers (built outside the repository, never committed; how to fetch and build
them, with their pitfalls: ../shared/notes/peers.md):
  * CombBLAS (PASSIONLab/CombBLAS): `cmake` at the top of the extracted tree
    with mpicc/mpicxx, `make tdbfs lacc`, FastSV compiled by hand against
    libCombBLAS.a into the same Applications folder (--combblas). It needs a
    perfect-square rank count. BFS: `tdbfs Input F.mtx` (top-down SpMSpV, 16
    random roots; its "Median time" is per BFS). CC: `fastsv -M F.mtx` and
    `lacc -M F.mtx` ("Total time" is the CC kernel only).
  * Graph500 reference 3.0.1 (graph500/graph500): `make
    graph500_reference_bfs_sssp` in src/ with -fcommon added to its CFLAGS.
    It generates its own Kronecker graph, so for the same edges the driver
    lets it write them out (TMPFILE=F REUSEFILE=1 keeps F and F.weights),
    converts them to a weighted edge list for numagraph-mpi, and reruns the
    reference on that file at every rank count. A copy patched to read its
    root count from G500_NBFS (default 64) and print its roots
    ("g500_root K V", rank 0, right after the root loop in main.c) saves
    time and adds a same-root row; the SSSP kernel itself is untouched (its
    delta is fixed at 0.1). SKIP_BFS=1 SKIP_VALIDATION=1 time SSSP alone.

Rows: BFS against numagraph-mpi's direction-optimizing BFS and its top-down
only run (--alpha 1e-9); CC, one numagraph-mpi run against FastSV and LACC
(component counts compared); SSSP with --roots random roots each (the same
graph, not the same roots) and from the reference's first root for both.

Graphs: --el (a `numagraph generate kron` edge list, 0-based) is converted to
a 1-based pattern Matrix Market file under --data; both tools read that file,
numagraph-mpi with -s (CombBLAS treats the graph as undirected). Every run
is `mpirun -n R --bind-to none` with OMP_NUM_THREADS=1 and numagraph-mpi at
`-t 1`; each repetition takes the measurement lock (--lock) and runs the peer
and numagraph-mpi back to back. Seconds are medians over the repetitions of
each run's per-root (or per-trial) median; ratio = peer / numagraph-mpi
(above 1: numagraph-mpi is faster). The load average is printed with them.
"""
import argparse
import array
import fcntl
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMPI_MCA_pml": "ob1",
           "OMPI_MCA_btl": "self,vader", "OMPI_MCA_osc": "sm,ucx", "OMP_NUM_THREADS": "1"}
TOP_DOWN_ONLY = ["--alpha", "1e-9"]  # bottom-up never pays off: a top-down-only BFS


def mpirun(a, ranks, cmd, extra_env=None, cwd=None):
    env = dict(os.environ, **MPI_ENV, **(extra_env or {}))
    full = ["timeout", "-k", "10", str(a.timeout), a.mpirun, "-n", str(ranks), "--bind-to", "none"] + cmd
    p = subprocess.run(full, capture_output=True, text=True, env=env, cwd=cwd, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}; 124 = timed out): {' '.join(full)}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p.stdout, p.stderr + p.stdout  # CombBLAS prints its statistics to stderr, the rest to stdout


def grab(pattern, text, what):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"no '{pattern}' in the output of {what}: run it by hand to see why")
    return float(m.group(1))


def ngmpi(a, ranks, kernel, path, flags):
    out, _ = mpirun(a, ranks, [a.ngmpi, kernel, str(path), "-s", "-t", "1", "--json"] + flags)
    return json.loads(out.strip().splitlines()[-1])


def prepare_mtx(a):
    mtx = a.data / (Path(a.el).stem + ".mtx")
    if mtx.exists():
        return mtx
    print(f"writing {mtx} from {a.el}", file=sys.stderr)
    def edges():
        with open(a.el) as f:
            for line in f:
                if line.strip() and line[0] not in "#%":
                    u, v = line.split()[:2]
                    yield int(u), int(v)
    m, top = 0, 0
    for u, v in edges():
        m, top = m + 1, max(top, u, v)
    with open(mtx, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate pattern general\n{top + 1} {top + 1} {m}\n")
        f.writelines(f"{u + 1} {v + 1}\n" for u, v in edges())
    return mtx


def prepare_graph500(a):
    """The reference's own edges and weights as F (packed 12-byte edges) and F.weights, plus F.wel."""
    base = a.data / f"g500_s{a.scale}.bin"
    wel = a.data / f"g500_s{a.scale}.wel"
    if not base.exists():
        mpirun(a, 1, [a.graph500, str(a.scale), "16"], {"TMPFILE": str(base), "REUSEFILE": "1", "SKIP_BFS": "1",
                                                          "SKIP_VALIDATION": "1", "G500_NBFS": "1"})
    if not wel.exists():
        e = array.array("I")
        e.frombytes(base.read_bytes())
        w = array.array("f")
        w.frombytes(Path(str(base) + ".weights").read_bytes())
        if len(e) != 3 * len(w) or any(e[2::3]):
            sys.exit(f"{base}: not 12-byte packed edges with ids below 2^32; delete it to regenerate")
        with open(wel, "w") as f:
            for i in range(0, len(w), 1 << 20):
                j = min(len(w), i + (1 << 20))
                f.write("".join("%d %d %.9g\n" % t for t in zip(e[3 * i:3 * j:3], e[3 * i + 1:3 * j:3], w[i:j])))
    return base, wel


def run_graph500(a, ranks, base):
    env = {"TMPFILE": str(base), "REUSEFILE": "1", "SKIP_BFS": "1", "SKIP_VALIDATION": "1", "G500_NBFS": str(a.roots)}
    out, err = mpirun(a, ranks, [a.graph500, str(a.scale), "16"], env)
    times = [float(t) for t in re.findall(r"Time for SSSP \d+ is ([0-9.eE+-]+)", err)]
    roots = [int(r) for r in re.findall(r"g500_root \d+ (\d+)", err)]
    return grab(r"sssp median_time:\s+(\S+)", out, "the Graph500 reference"), times, roots


def one_rep(a, mtx, g500, ranks, kernels, rows):
    cb = Path(a.combblas)
    if "bfs" in kernels and ranks in a.square_ranks:
        _, out = mpirun(a, ranks, [str(cb / "tdbfs"), "Input", str(mtx)], cwd=a.data)
        do = ngmpi(a, ranks, "bfs", mtx, ["--sources", str(a.roots)])
        td = ngmpi(a, ranks, "bfs", mtx, ["--sources", str(a.roots)] + TOP_DOWN_ONLY)
        peer = grab(r"Median time: (\S+) seconds", out, "tdbfs")
        teps = grab(r"Median MTEPS: (\S+)", out, "tdbfs")
        for name, r in (("direction-optimizing", do), ("top-down only", td)):
            rows.setdefault((mtx.name, "BFS", ranks, "CombBLAS tdbfs (top-down)", name), []).append(
                (peer, r["median_s"], f"MTEPS {teps:.0f} vs {statistics.median(r['teps']) / 1e6:.0f}"))
    if "cc" in kernels and ranks in a.square_ranks:
        ours = ngmpi(a, ranks, "cc", mtx, ["-n", "3"])
        for peer, label in (("fastsv", "Number of components"), ("lacc", "Number of clusters")):
            _, out = mpirun(a, ranks, [str(cb / peer), "-M", str(mtx)], cwd=a.data)
            count = int(grab(label + r": (\d+)", out, peer))
            agree = "agree" if count == ours["num_components"] else "DIFFER"
            rows.setdefault((mtx.name, "CC", ranks, f"CombBLAS {peer}", ours["variant"]), []).append(
                (grab(r"Total time: (\S+)", out, peer), ours["median_s"],
                 f"components {count} vs {ours['num_components']} ({agree})"))
    if "sssp" in kernels and ranks in a.sssp_ranks:
        base, wel = g500
        peer, times, roots = run_graph500(a, ranks, base)
        ours = ngmpi(a, ranks, "sssp", wel, ["--sources", str(a.roots)])
        rows.setdefault((wel.name, "SSSP", ranks, f"Graph500 ref ({a.roots} roots)",
                         f"delta-stepping ({a.roots} roots)"), []).append(
            (peer, ours["median_s"], f"delta {ours['delta']:.3g} vs 0.1"))
        if roots and times:
            same = ngmpi(a, ranks, "sssp", wel, ["-r", str(roots[0]), "-n", "3"])
            rows.setdefault((wel.name, "SSSP", ranks, f"Graph500 ref (root {roots[0]})",
                             f"delta-stepping (root {roots[0]})"), []).append(
                (times[0], same["median_s"], f"reached {same['reached']}"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ngmpi", default="/tmp/peers/ngmpi", help="a copy of build/mpi/numagraph-mpi")
    ap.add_argument("--combblas", default="/tmp/peers/CombBLAS/build/Applications",
                    help="folder holding tdbfs, lacc and fastsv")
    ap.add_argument("--graph500", default="/tmp/peers/graph500-dump/src/graph500_reference_bfs_sssp")
    ap.add_argument("--el", default="/tmp/numagraph-bench/kron20.el", help="graph for BFS and CC")
    ap.add_argument("--data", type=Path, default=Path("/tmp/peers/data"), help="conversions and scratch")
    ap.add_argument("--scale", type=int, default=20, help="Graph500 SCALE for SSSP (edge factor 16)")
    ap.add_argument("--square-ranks", type=int, nargs="+", default=[1, 4])
    ap.add_argument("--sssp-ranks", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--roots", type=int, default=16, help="BFS/SSSP roots per run")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--kernels", nargs="+", default=["bfs", "cc", "sssp"])
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--lock", default="/tmp/ng-measure.lock")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per mpirun")
    a = ap.parse_args()
    a.data.mkdir(parents=True, exist_ok=True)
    mtx = prepare_mtx(a) if {"bfs", "cc"} & set(a.kernels) else None
    g500 = prepare_graph500(a) if "sssp" in a.kernels else None
    rows, loads = {}, []
    for rep in range(a.reps):
        for ranks in sorted(set(a.square_ranks) | set(a.sssp_ranks)):
            with open(a.lock, "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                loads.append(os.getloadavg()[0])
                one_rep(a, mtx, g500, ranks, a.kernels, rows)
            print(f"rep {rep + 1}/{a.reps}, {ranks} ranks done (load {loads[-1]:.2f})", file=sys.stderr)
    print(f"load average (1 min) at the start of each block: {' '.join(f'{x:.2f}' for x in loads)}\n")
    print("| graph | kernel | ranks | peer | peer s | numagraph-mpi | numagraph-mpi s | peer / ngmpi | notes |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (graph, kernel, ranks, peer, ours), runs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][2])):
        p = statistics.median(r[0] for r in runs)
        o = statistics.median(r[1] for r in runs)
        print(f"| {graph} | {kernel} | {ranks} | {peer} | {p:.4g} | {ours} | {o:.4g} | {p / o:.2f} | {runs[-1][2]} |")


if __name__ == "__main__":
    main()

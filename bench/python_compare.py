#!/usr/bin/env python3
"""numagraph (Python) vs NetworKit vs igraph on a Kronecker graph, NetworkX on a
small one, and the Python overhead over the CLI for the same kernel.

Kernels: BFS (hop counts from one root), PageRank (20 iterations max, tol 1e-4
as gapbs), connected components, betweenness from k sampled sources (the same
k roots for every library). Graph load (build from the same NumPy edge arrays)
is timed separately. Trials are interleaved (library A, B, C, A, B, C, ...)
and medians reported, because the machine is shared and noisy.

Usage: python bench/python_compare.py [--scale 20] [--small-scale 14] [--trials 3] [--bc-sources 8] [--threads N]
       NUMAGRAPH_BIN=build/numagraph for the CLI overhead column (skipped when absent).
Needs: pip install networkit igraph (skips a library that is not installed).
"""
import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np

import numagraph as ng


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def edge_arrays(g):
    """Each undirected edge once (u < v) as int64 arrays."""
    src = np.repeat(np.arange(g.num_vertices, dtype=np.int64), g.out_degree)
    dst = np.asarray(g.indices, dtype=np.int64)
    keep = src < dst
    return src[keep], dst[keep]


def libraries(n, src, dst, root, bc_roots, with_networkx):
    """name -> (load(), {kernel: fn(graph)})."""
    libs = {}
    libs["numagraph"] = (lambda: ng.Graph.from_edges(src, dst, num_vertices=n), {
        "bfs": lambda g: ng.bfs(g, root),
        "pagerank": lambda g: ng.pagerank(g, max_iterations=20, tolerance=1e-4),
        "cc": lambda g: ng.connected_components(g),
        "bc": lambda g: ng.betweenness(g, sources=bc_roots),
    })
    try:
        import networkit as nk

        def nk_load():
            G = nk.Graph(n, weighted=False, directed=False)
            G.addEdges((src, dst))
            G.indexEdges()
            return G

        def nk_pr(G):
            pr = nk.centrality.PageRank(G, damp=0.85, tol=1e-4)
            pr.maxIterations = 20
            return pr.run().scores()

        libs["networkit"] = (nk_load, {
            "bfs": lambda G: nk.distance.BFS(G, root, storePaths=False).run().getDistances(asarray=True),
            "pagerank": nk_pr,
            "cc": lambda G: nk.components.ConnectedComponents(G).run().getPartition(),
            # Brandes from k pivots: the same work as sampled Brandes.
            "bc": lambda G: nk.centrality.EstimateBetweenness(G, len(bc_roots), False, True).run().scores(),
        })
    except ImportError:
        print("networkit not installed: skipped")
    try:
        import igraph as ig

        libs["igraph"] = (lambda: ig.Graph(n=n, edges=np.column_stack([src, dst]), directed=False), {
            "bfs": lambda G: G.distances(source=[root])[0] if n <= 1 << 16 else G.bfs(root),
            "pagerank": lambda G: G.pagerank(implementation="prpack"),
            "cc": lambda G: G.connected_components().membership,
            "bc": lambda G: G.betweenness(sources=bc_roots),
        })
    except ImportError:
        print("igraph not installed: skipped")
    if with_networkx:
        import networkx as nx

        def nx_load():
            G = nx.Graph()
            G.add_nodes_from(range(n))
            G.add_edges_from(zip(src.tolist(), dst.tolist()))
            return G

        libs["networkx"] = (nx_load, {
            "bfs": lambda G: nx.single_source_shortest_path_length(G, root),
            "pagerank": lambda G: nx.pagerank(G, max_iter=20, tol=1e-4),
            "cc": lambda G: list(nx.connected_components(G)),
            "bc": lambda G: nx.betweenness_centrality(G, k=len(bc_roots), seed=1, normalized=False),
        })
    return libs


def compare(scale, trials, bc_sources, with_networkx):
    base = ng.generate.kronecker(scale)
    n = base.num_vertices
    src, dst = edge_arrays(base)
    deg = base.out_degree
    root = int(np.argmax(deg > 0))
    rng = np.random.default_rng(1)
    bc_roots = rng.choice(np.flatnonzero(deg > 0), bc_sources, replace=False).tolist()
    libs = libraries(n, src, dst, root, bc_roots, with_networkx)
    times = {name: {"load": []} for name in libs}
    graphs = {}
    for t in range(trials):
        for name, (load, _) in libs.items():
            s, graphs[name] = timed(load)
            times[name]["load"].append(s)
    for kernel in ("bfs", "pagerank", "cc", "bc"):
        for t in range(trials):
            for name, (_, kernels) in libs.items():
                s, _ = timed(lambda: kernels[kernel](graphs[name]))
                times[name].setdefault(kernel, []).append(s)
    med = {name: {k: statistics.median(v) for k, v in d.items()} for name, d in times.items()}
    print(f"\nkron{scale}: {n} vertices, {src.size} edges, {ng.config.current()['threads']} threads, "
          f"median of {trials} (seconds)")
    cols = ["load", "bfs", "pagerank", "cc", "bc"]
    print(f"{'library':<12}" + "".join(f"{c:>12}" for c in cols))
    for name, m in med.items():
        print(f"{name:<12}" + "".join(f"{m[c]:>12.4f}" for c in cols))
    for name in med:
        if name != "numagraph":
            ratios = ", ".join(f"{c} {med[name][c] / med['numagraph'][c]:.1f}x" for c in cols)
            print(f"  {name} / numagraph: {ratios}")
    return med


def cli_overhead(scale, trials, rounds=9):
    """Kernel time in Python vs the CLI's own timing of the same kernel on the same graph."""
    binary = Path(os.environ.get("NUMAGRAPH_BIN", Path(__file__).resolve().parents[1] / "build" / "numagraph"))
    if not binary.exists():
        print(f"\nCLI overhead: {binary} not found (set NUMAGRAPH_BIN): skipped")
        return None
    ng.config(bind="compact")  # the CLI's runtime defaults: compact binding, THP
    g = ng.generate.kronecker(scale)
    root = int(np.argmax(g.out_degree > 0))
    py_calls = {
        "pr": lambda: ng.pagerank(g),
        "cc": lambda: ng.connected_components(g),
        # Parents only: the CLI times the Graph500 output (no depth array).
        "bfs": lambda: ng.bfs(g, root, depth=False, parents=True),
    }
    cli_args = {"pr": [], "cc": [], "bfs": ["--source", str(root)]}
    print(f"\nPython overhead vs CLI, kron{scale}: median over {rounds} interleaved rounds of the median of "
          f"{trials} back-to-back trials (seconds)")
    out = {}
    threads = ["-t", str(ng.config.current()["threads"])]
    for kernel, call in py_calls.items():
        py, cli = [], []
        # Steady state on both sides: the CLI's trial loop reuses its arrays,
        # Python calls get recycled result arrays (ResultPool) after the first.
        for _ in range(rounds):
            rec = json.loads(subprocess.run([str(binary), kernel, "--kron", str(scale), "--json", "-n", str(trials),
                                             *threads, *cli_args[kernel]], capture_output=True, text=True,
                                            check=True).stdout.splitlines()[-1])
            cli.append(rec["median_s"])
            py.append(statistics.median(timed(call)[0] for _ in range(trials)))
        p, c = statistics.median(py), statistics.median(cli)
        out[kernel] = (p, c)
        print(f"  {kernel:<4} python {p:.4f}  cli {c:.4f}  overhead {100 * (p / c - 1):+.1f} %", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--small-scale", type=int, default=14, help="graph size for the NetworkX comparison")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--bc-sources", type=int, default=8)
    ap.add_argument("--skip-small", action="store_true")
    ap.add_argument("--overhead-only", action="store_true", help="only the Python-vs-CLI overhead")
    ap.add_argument("--threads", type=int, default=0, help="threads for numagraph and NetworKit (0: all cores)")
    a = ap.parse_args()
    if a.threads:
        ng.config(threads=a.threads, bind="none")
        try:
            import networkit as nk
            nk.setNumberOfThreads(a.threads)
        except ImportError:
            pass
    if not a.overhead_only:
        if not a.skip_small:
            compare(a.small_scale, a.trials, a.bc_sources, with_networkx=True)
        compare(a.scale, a.trials, a.bc_sources, with_networkx=False)
    cli_overhead(a.scale, max(a.trials, 10))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Small graphs: one thread against two, for the thread cut-offs.

--sweep: for each problem, Kronecker graphs of growing scale with every
  cut-off off (NUMAGRAPH_SERIAL_BELOW=0), 1 and 2 threads interleaved; prints
  the time ratio t2/t1 per size and the smallest arc count from which two
  threads are no slower on this and every larger size: the cut-off to put in
  include/numagraph/kernels/thread_budget.hpp.
default: the NetworkX backend (backend="numagraph") on the graphs of
  ../shared/data, 1 and 2 threads interleaved, with the cut-offs in force
  and with them off, so one run shows both ratios.

Medians over --rounds rounds; each round runs every configuration once, in
turn, so load that comes and goes hits them alike. The sweep also prints the
ratio of the fastest rounds, the estimate of a quiet machine when other work
shares the cores (a descheduled second thread makes the medians of two
threads arbitrarily slow); the cut-offs come from those. Say the load (uptime).

Usage: python bench/small_graph_threads.py [--sweep] [--rounds 7] [--min-scale 8] [--max-scale 17]
       [--problems clustering strongly_connected_components]
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numagraph as ng

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"


def timed(fn, repeat):
    """Seconds per call: `repeat` back-to-back calls, so sub-millisecond calls
    are not lost in the timer."""
    t = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t) / repeat


def compare(fn, rounds, cutoff_settings):
    """{(setting, threads): median seconds} for fn(), interleaving every
    (cut-off setting, thread count) each round."""
    fn()  # warm: workspaces, partitioned graph, result pool
    one = timed(fn, 1)
    repeat = max(1, min(200, int(0.02 / max(one, 1e-6))))
    samples = {}
    for _ in range(rounds):
        for setting in cutoff_settings:
            if setting is None:
                os.environ.pop("NUMAGRAPH_SERIAL_BELOW", None)
            else:
                os.environ["NUMAGRAPH_SERIAL_BELOW"] = setting
            for threads in (1, 2):
                with ng.config(threads=threads):
                    samples.setdefault((setting, threads), []).append(timed(fn, repeat))
    os.environ.pop("NUMAGRAPH_SERIAL_BELOW", None)
    return {k: statistics.median(v) for k, v in samples.items()}, {k: min(v) for k, v in samples.items()}


def directed_by_parity(g):
    """g's edges, each once, oriented by the parity of their ends (as bench/vs_networkit.py
    orients Kronecker graphs for directed kernels): a digraph with cycles, and big SCCs."""
    import numpy as np
    n = int(g.num_vertices)
    src = np.repeat(np.arange(n, dtype=np.int64), g.out_degree)
    dst = np.asarray(g.indices, dtype=np.int64)
    keep = src < dst
    src, dst = src[keep], dst[keep]
    flip = ((src + dst) & 1) == 1
    return ng.Graph.from_edges(np.where(flip, dst, src), np.where(flip, src, dst), num_vertices=n, directed=True)


def problems(g, root):
    return {
        "bfs": lambda: ng.bfs(g, root),
        "sssp": lambda: ng.sssp(g, root),
        "betweenness": lambda: ng.betweenness(g, sources=[root]),
        "pagerank": lambda: ng.pagerank(g),
        "spmv": lambda: ng.spmv(g, 1),
        "belief_propagation": lambda: ng.belief_propagation(g, 1),
        "connected_components": lambda: ng.connected_components(g),
        "triangles": lambda: ng.triangles(g),
        "core_numbers": lambda: ng.core_number(g),
        "clustering": lambda: ng.clustering(g),
        # A digraph (directed_by_parity), built once per scale when the problem is swept.
        "strongly_connected_components": lambda: ng.strongly_connected_components(directed_by_parity.cached),
    }


def sweep(args):
    rows = {}
    for scale in range(args.min_scale, args.max_scale + 1):
        g = ng.generate.kronecker(scale, 16, weighted=True)
        arcs = int(g.num_arcs)
        root = int(g.out_degree.argmax())
        if "strongly_connected_components" in args.problems:
            directed_by_parity.cached = directed_by_parity(g)
        for name, fn in problems(g, root).items():
            if name not in args.problems if args.problems else name == "strongly_connected_components":
                continue
            t, fastest = compare(fn, args.rounds, ["0"])
            ratio = t[("0", 2)] / t[("0", 1)]
            best = fastest[("0", 2)] / fastest[("0", 1)]
            a = int(directed_by_parity.cached.num_arcs) if name == "strongly_connected_components" else arcs
            rows.setdefault(name, []).append((a, t[("0", 1)], t[("0", 2)], best))
            print(f"{name:22s} scale {scale:2d} arcs {a:10d}  1t {t[('0', 1)] * 1e3:9.3f} ms  "
                  f"2t {t[('0', 2)] * 1e3:9.3f} ms  2t/1t {ratio:5.2f}  fastest 2t/1t {best:5.2f}", flush=True)
    print("\nproblem                smallest arcs from which 2 threads are no slower (fastest rounds: t2/t1 <= 1 "
          "there and above)")
    for name, r in rows.items():
        crossover = None
        for i in range(len(r)):
            if all(x[3] <= 1.0 for x in r[i:]):
                crossover = r[i][0]
                break
        print(f"{name:22s} {crossover if crossover is not None else 'never in range'}")


def backend_calls(G, source):
    import networkx as nx
    return {
        "pagerank": lambda: nx.pagerank(G, weight=None),
        "betweenness_centrality(k=16)": lambda: nx.betweenness_centrality(G, k=16, seed=1),
        "connected_components": lambda: list(nx.connected_components(G)) if not G.is_directed() else None,
        "single_source_shortest_path_length": lambda: nx.single_source_shortest_path_length(G, source),
        "triangles": lambda: nx.triangles(G) if not G.is_directed() else None,
        "core_number": lambda: nx.core_number(G),
    }


def backend(args):
    import networkx as nx
    import warnings
    warnings.filterwarnings("ignore")
    from numagraph.nx_backend import BackendInterface
    files = {
        "facebook_combined": ("facebook_combined/facebook_combined.txt.gz", False),
        "p2p-Gnutella05": ("p2p-Gnutella05/p2p-Gnutella05.txt", True),
        "wiki-Vote": ("wiki-Vote/wiki-Vote.txt.gz", True),
        "email-Enron": ("email-Enron/email-Enron.txt.gz", False),
        "soc-Slashdot0902": ("soc-Slashdot0902/soc-Slashdot0902.txt.gz", True),
        "PGPgiantcompo": ("PGPgiantcompo/PGPgiantcompo.graph", False),
        "USA-road-d.NY": ("USA-road-d.NY/USA-road-d.NY.gr.gz", False),
    }
    if not SHARED.is_dir():
        sys.exit(f"{SHARED} is absent: the backend benchmark needs the shared graphs")
    print(f"{'graph':18s} {'call':36s} {'1 thread':>10s} {'2 threads':>10s} {'2t/1t':>6s} "
          f"{'2t/1t no cut-off':>17s}")
    worst = 0.0
    for name, (path, directed) in files.items():
        g = ng.read(str(SHARED / path), directed=directed)
        G = g.to_networkx()
        if G.is_directed() and name == "soc-Slashdot0902":
            G.remove_edges_from(nx.selfloop_edges(G))
        B = BackendInterface.convert_from_nx(G)
        source = next(iter(G.nodes))
        for call, fn in backend_calls(B, source).items():
            try:
                if fn() is None:
                    continue
            except NotImplementedError:  # e.g. core_number of a directed graph: NetworkX's own code would run
                continue
            t, _ = compare(fn, args.rounds, [None, "0"])
            ratio, raw = t[(None, 2)] / t[(None, 1)], t[("0", 2)] / t[("0", 1)]
            worst = max(worst, ratio)
            print(f"{name:18s} {call:36s} {t[(None, 1)] * 1e3:8.2f}ms {t[(None, 2)] * 1e3:8.2f}ms "
                  f"{ratio:6.2f} {raw:17.2f}", flush=True)
    print(f"\nworst 2t/1t with the cut-offs: {worst:.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sweep", action="store_true")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--min-scale", type=int, default=8)
    p.add_argument("--max-scale", type=int, default=17)
    p.add_argument("--problems", nargs="+", default=[], help="--sweep only these (default: every problem "
                   "but strongly_connected_components, which builds a digraph per scale)")
    args = p.parse_args()
    print(f"load: {os.getloadavg()}")
    sweep(args) if args.sweep else backend(args)


if __name__ == "__main__":
    main()

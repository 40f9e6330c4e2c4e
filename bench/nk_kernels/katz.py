"""Katz centrality for bench/vs_networkit.py.

Both run alpha = 1 / (1 + max degree) (NetworKit's default, below
1 / largest eigenvalue so both converge) and beta = 1. Accuracy: as
eigenvector.py, each library against its own tight run (NetworKit's Katz
sums walks differently from NetworkX's, so the two vectors differ), both
scaled to L2 norm 1 (docs/kernels/eigenvector.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _power_accuracy import error  # noqa: E402

DIRECTED = False
NG_TOL = float(os.environ.get("NG_KATZ_TOL", "1e-11"))
NK_TOL = float(os.environ.get("NK_KATZ_TOL", "1e-8"))  # NetworKit's default


def numagraph_run(ng, g):
    alpha = 1.0 / (1 + int(g.out_degree.max()))

    def run(tol):
        return ng.katz_centrality(g, alpha=alpha, beta=1.0, tol=tol, max_iter=100000, weight=None, return_info=True)
    x, iterations, _ = run(NG_TOL)
    key = f"ng_katz_{g.num_vertices}_{g.num_edges}"
    return {"iterations": iterations, "error": error(key, x, lambda: run(1e-15)[0])}


def networkit_run(nk, G):
    alpha = 1.0 / (1 + nk.graphtools.maxDegree(G))

    def run(tol):
        kc = nk.centrality.KatzCentrality(G, alpha, 1.0, tol)
        kc.run()
        return kc.scores()
    key = f"nk_katz_{G.numberOfNodes()}_{G.numberOfEdges()}"
    return {"error": error(key, run(NK_TOL), lambda: run(1e-13))}

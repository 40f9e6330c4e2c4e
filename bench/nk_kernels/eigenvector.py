"""Eigenvector centrality for bench/vs_networkit.py.

Accuracy: each library's answer is compared, scaled to L2 norm 1, with its
own run at a tight tolerance (the `error` column, L1). numagraph stops as
NetworkX (L1 change < n * tol), NetworKit when the norm of A x changes by
less than tol; the tolerances below give numagraph an error no larger than
NetworKit's at its default (docs/kernels/eigenvector.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _power_accuracy import error  # noqa: E402

DIRECTED = False
NG_TOL = float(os.environ.get("NG_EIGEN_TOL", "1e-10"))
NK_TOL = float(os.environ.get("NK_EIGEN_TOL", "1e-8"))  # NetworKit's default


def numagraph_run(ng, g):
    x, iterations, _ = ng.eigenvector_centrality(g, tol=NG_TOL, max_iter=10000, weight=None, return_info=True)
    key = f"ng_eigen_{g.num_vertices}_{g.num_edges}"
    return {"iterations": iterations,
            "error": error(key, x, lambda: ng.eigenvector_centrality(g, tol=1e-15, max_iter=100000, weight=None))}


def networkit_run(nk, G):
    def run(tol):
        ec = nk.centrality.EigenvectorCentrality(G, tol)
        ec.run()
        return ec.scores()
    key = f"nk_eigen_{G.numberOfNodes()}_{G.numberOfEdges()}"
    return {"error": error(key, run(NK_TOL), lambda: run(1e-13))}

"""PageRank, damping 0.85, at equal accuracy: numagraph and NetworKit both stop when
the L1 change of the scores is below 1e-4, after at most 20 iterations (NetworKit
with norm=L1_NORM); igraph has no such stopping rule (PRPACK solves to ~1e-10).

Figures: iterations, and `error`: the L1 distance of the scores, scaled to sum 1,
to the same library's converged answer (tolerance 1e-12), so each library's
accuracy is measured against its own model (numagraph drops the dangling mass of
isolated vertices as gapbs does). The scores are saved for the parent, which
states the L1 difference between the libraries."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _power_accuracy import error, unit_sum  # noqa: E402
from _shared import graph_key, save  # noqa: E402

DIRECTED = False
TOL, MAX_ITER = 1e-4, 20


def numagraph_kernel(ng, g):
    return ng.pagerank(g, max_iterations=MAX_ITER, tolerance=TOL, return_info=True)


def numagraph_figures(ng, g, result, kernel="pagerank"):
    scores, iterations, _ = result
    save(kernel, "numagraph", g, unit_sum(scores))
    exact = lambda: ng.pagerank(g, max_iterations=1000, tolerance=1e-12)
    return {"iterations": int(iterations),
            "error": error(f"ng_{kernel}_{graph_key('numagraph', g)}", scores, exact, scale=unit_sum)}


def _networkit(nk, G, tol, iterations):
    pr = nk.centrality.PageRank(G, damp=0.85, tol=tol)
    pr.norm = nk.centrality.Norm.L1_NORM
    pr.maxIterations = iterations
    return pr.run()


def networkit_kernel(nk, G):
    return _networkit(nk, G, TOL, MAX_ITER)


def networkit_figures(nk, G, pr, kernel="pagerank"):
    scores = np.asarray(pr.scores())
    save(kernel, "networkit", G, unit_sum(scores))
    exact = lambda: _networkit(nk, G, 1e-12, 1000).scores()
    return {"iterations": int(pr.numberOfIterations()),
            "error": error(f"nk_pr_{graph_key('networkit', G)}", scores, exact, scale=unit_sum)}


def igraph_kernel(ig, G):
    return G.pagerank(damping=0.85)


def igraph_figures(ig, G, scores):
    save("pagerank", "igraph", G, unit_sum(scores))
    return {"solver": "prpack"}

"""PageRank as pagerank.py, numagraph with variant="jacobi": docs/kernels/pr.md
advises it on Kronecker graphs, where Jacobi needs fewer sweeps than the default
Gauss-Seidel for the same stopping rule (and Gauss-Seidel runs a graph of at most
16384 vertices as one chunk, on one thread). NetworKit as in pagerank.py; igraph
has no variants (its row is pagerank's)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import pagerank  # noqa: E402

DIRECTED = False
networkit_kernel = pagerank.networkit_kernel


def networkit_figures(nk, G, pr):
    return pagerank.networkit_figures(nk, G, pr, kernel="pagerank_jacobi")


def numagraph_kernel(ng, g):
    return ng.pagerank(g, max_iterations=pagerank.MAX_ITER, tolerance=pagerank.TOL, variant="jacobi",
                       return_info=True)


def numagraph_figures(ng, g, result):
    return pagerank.numagraph_figures(ng, g, result, kernel="pagerank_jacobi")

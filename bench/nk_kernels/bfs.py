"""BFS hop counts from one source (the vertex of highest degree): numagraph.bfs,
NetworKit's BFS (storePaths=False), igraph's Graph.bfs (visit order, layers and
parents, its one BFS call). Figures: vertices reached and the deepest level."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _shared import bfs_source  # noqa: E402

DIRECTED = False


def numagraph_kernel(ng, g):
    return ng.bfs(g, bfs_source("numagraph", g))


def numagraph_figures(ng, g, depth):
    return {"reached": int((depth >= 0).sum()), "depth": int(depth.max())}


def networkit_kernel(nk, G):
    return nk.distance.BFS(G, bfs_source("networkit", G), storePaths=False).run()


def networkit_figures(nk, G, bfs):
    dist = np.asarray(bfs.getDistances(asarray=True))
    reached = dist[dist < 1e300]
    return {"reached": int(reached.size), "depth": int(reached.max())}


def igraph_kernel(ig, G):
    return G.bfs(bfs_source("igraph", G))


def igraph_figures(ig, G, result):
    order, layers, _ = result
    return {"reached": len(order), "depth": len(layers) - 2}

"""Shared by the plug-ins that bench/python_compare.py runs in numagraph, NetworKit
and igraph: each library's degrees, the BFS source and the BC sources picked from
them (the same vertices in every library, since all build the same edge arrays),
and a saved copy of a result for the parent to compare across libraries."""
import os

import numpy as np

CACHE = os.environ.get("NUMAGRAPH_NK_CACHE", "/tmp/numagraph-vs-networkit")
BC_SOURCES = int(os.environ.get("NG_BC_SOURCES", "8"))
_memo = {}


def degrees(library, graph):
    """Degree per vertex as an int64 array (computed once per worker)."""
    if library not in _memo:
        if library == "numagraph":
            d = np.asarray(graph.out_degree)
        elif library == "networkit":
            d = np.fromiter((graph.degree(v) for v in range(graph.numberOfNodes())), dtype=np.int64)
        else:
            d = np.asarray(graph.degree())
        _memo[library] = d.astype(np.int64)
    return _memo[library]


def bfs_source(library, graph):
    """The vertex of highest degree (the smallest such id)."""
    return int(np.argmax(degrees(library, graph)))


def bc_sources(library, graph):
    """BC_SOURCES vertices of nonzero degree, drawn with a fixed seed."""
    d = degrees(library, graph)
    return np.random.default_rng(1).choice(np.flatnonzero(d > 0), BC_SOURCES, replace=False).tolist()


def graph_key(library, graph):
    n = graph.num_vertices if library == "numagraph" else (
        graph.numberOfNodes() if library == "networkit" else graph.vcount())
    return f"{n}_{int(degrees(library, graph).sum())}"


def save(name, library, graph, values):
    """Keeps `values` under CACHE for the parent (python_compare.saved) to compare libraries."""
    os.makedirs(CACHE, exist_ok=True)
    np.save(os.path.join(CACHE, f"{name}_{library}_{graph_key(library, graph)}.npy"), np.asarray(values))

"""The NetworkX backend's shortest-path functions (nx_backend.py registers them).

Distances come from numagraph's SSSP (weights) or BFS (hops), paths from its
predecessor arrays (numagraph.paths): where several shortest paths tie, the
path may differ from NetworkX's; its length does not. NetworkX's errors:
NodeNotFound for a missing source, NetworkXNoPath for an unreachable target."""
from __future__ import annotations

import numpy as np

from . import _core
from .nx_backend import NxGraph, _nx, _node_index, _unwrap
from .paths import _all_paths, _path_indices, _reached_in_order

# name -> the note NetworkX shows in its docs for this backend.
FUNCTIONS = {
    "shortest_path": "source given (source=None is not supported); weight=None or an attribute of weights >= 0 "
                     "(stored as float32); method 'dijkstra' or 'bellman-ford' (the same answer without negative "
                     "weights). Paths may differ from NetworkX's where shortest paths tie.",
    "shortest_path_length": "As shortest_path.",
    "single_source_shortest_path": "Hop counts from a parallel BFS; paths as shortest_path.",
    "single_source_dijkstra": "Weights >= 0 (stored as float32); paths as shortest_path.",
    "single_source_dijkstra_path": "As single_source_dijkstra.",
    "single_source_dijkstra_path_length": "As single_source_dijkstra.",
    "dijkstra_path": "As single_source_dijkstra (one search from the source).",
    "dijkstra_path_length": "As single_source_dijkstra.",
    "bidirectional_shortest_path": "One BFS from the source; paths as shortest_path.",
    "bidirectional_dijkstra": "One search from the source; weights >= 0; paths as shortest_path.",
    "predecessor": "Every predecessor, each list in the graph's node order (NetworkX lists them in its BFS order).",
}

_WEIGHTED = {  # function -> (position of weight, its default)
    "shortest_path": (3, None), "shortest_path_length": (3, None),
    "single_source_dijkstra": (4, "weight"), "single_source_dijkstra_path": (3, "weight"),
    "single_source_dijkstra_path_length": (3, "weight"), "dijkstra_path": (3, "weight"),
    "dijkstra_path_length": (3, "weight"), "bidirectional_dijkstra": (3, "weight"),
}


def verdict(name, args, kwargs):
    """True, or why numagraph declines this call (BackendInterface.can_run)."""
    def arg(i, key, default=None):
        return args[i] if len(args) > i else kwargs.get(key, default)

    G = arg(0, "G")
    if name in ("shortest_path", "shortest_path_length"):
        if arg(1, "source") is None:
            return "source=None (every pair, or every source to one target) is not supported"
        method = arg(4, "method", "dijkstra")
        if method not in ("dijkstra", "bellman-ford"):
            return f"method={method!r} is not a method (NetworkX raises its ValueError)"
    if name not in _WEIGHTED:
        return True
    position, default = _WEIGHTED[name]
    weight = arg(position, "weight", default)
    if callable(weight):
        return "a weight function is not supported (numagraph reads one edge attribute: give its name)"
    if weight is not None and G is not None:
        if isinstance(G, NxGraph):
            w = G.graph.weights
            negative = w is not None and bool((np.asarray(w) < 0).any())
        else:
            negative = any(d.get(weight, 1) < 0 for _, _, d in G.edges(data=True))
        if negative:
            return ("negative edge weights are not supported (numagraph's SSSP needs weights >= 0; NetworkX's "
                    "bellman-ford functions handle them)")
    return True


def _search(G, source, weight):
    """(graph, distances, predecessors, dense source, hops?): SSSP over the
    weights when `weight` is given and the graph has them, else BFS."""
    G = _unwrap(G)
    g = G.graph
    s = _node_index(g, source)
    if weight is not None and g.weighted:
        dist, pred = _core.sssp_paths(g._g, s, None, "auto")
        return g, dist, pred, s, False
    depth, pred = _core.hop_paths(g._g, s, False, "auto")
    return g, depth, pred, s, True


def _within(dist, hops, cutoff):
    """Which vertices are reached (at most `cutoff` away when given)."""
    dist = np.asarray(dist)
    keep = dist >= 0 if hops else np.isfinite(dist)
    if cutoff is not None:
        keep &= dist <= cutoff
    return keep


def _lengths(g, dist, hops, keep):
    nodes = g.nodes
    order = _reached_in_order(dist)
    order = order[keep[order]]
    values = np.asarray(dist)[order].tolist()
    return {nodes[v]: (int(d) if hops else d) for v, d in zip(order.tolist(), values)}


def _target_index(g, target, missing):
    """The dense id of `target`; `missing` is NetworkX's error when it is not a node."""
    try:
        return g._vertex(target)
    except Exception:
        raise missing from None


def _one_path(G, source, target, weight, missing_target):
    nx = _nx()
    g, dist, pred, s, hops = _search(G, source, weight)
    t = _target_index(g, target, missing_target(nx))
    path = _path_indices(pred, s, t)
    if path is None:
        raise nx.NetworkXNoPath(f"No path between {source} and {target}.")
    d = dist[t]
    return (int(d) if hops else float(d)), [g.nodes[i] for i in path]


def _no_path_to(target):
    return lambda nx: nx.NetworkXNoPath(f"No path to {target}.")


def _not_in_g(source, target):
    return lambda nx: nx.NodeNotFound(f"Either source {source} or target {target} is not in G")


def _paths(G, source, weight, cutoff=None):
    g, dist, pred, s, hops = _search(G, source, weight)
    keep = _within(dist, hops, cutoff)
    return g, dist, hops, keep, _all_paths(g.nodes, dist, pred, s, keep)


def shortest_path(G, source=None, target=None, weight=None, method="dijkstra", *, backend=None, **backend_kwargs):
    if target is None:
        return _paths(G, source, weight)[4]
    return _one_path(G, source, target, weight, _not_in_g(source, target))[1]


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra", *, backend=None,
                         **backend_kwargs):
    if target is None:
        g, dist, _, s, hops = _search(G, source, weight)
        return _lengths(g, dist, hops, _within(dist, hops, None))
    missing = _not_in_g(source, target) if weight is None else _no_path_to(target)
    return _one_path(G, source, target, weight, missing)[0]


def single_source_shortest_path(G, source, cutoff=None, *, backend=None, **backend_kwargs):
    return _paths(G, source, None, cutoff)[4]


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight", *, backend=None, **backend_kwargs):
    nx = _nx()
    g, dist, hops, keep, paths = _paths(G, source, weight, cutoff)
    if target is None:
        return _lengths(g, dist, hops, keep), paths
    if target not in paths:
        raise nx.NetworkXNoPath(f"No path to {target}.")
    d = dist[g._vertex(target)]
    return (int(d) if hops else float(d)), paths[target]


def single_source_dijkstra_path(G, source, cutoff=None, weight="weight", *, backend=None, **backend_kwargs):
    return _paths(G, source, weight, cutoff)[4]


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight", *, backend=None, **backend_kwargs):
    g, dist, _, s, hops = _search(G, source, weight)
    return _lengths(g, dist, hops, _within(dist, hops, cutoff))


def dijkstra_path(G, source, target, weight="weight", *, backend=None, **backend_kwargs):
    return _one_path(G, source, target, weight, _no_path_to(target))[1]


def dijkstra_path_length(G, source, target, weight="weight", *, backend=None, **backend_kwargs):
    return _one_path(G, source, target, weight, _no_path_to(target))[0]


def bidirectional_shortest_path(G, source, target, *, backend=None, **backend_kwargs):
    return _one_path(G, source, target, None, _not_in_g(source, target))[1]


def bidirectional_dijkstra(G, source, target, weight="weight", *, backend=None, **backend_kwargs):
    return _one_path(G, source, target, weight, _not_in_g(source, target))


def predecessor(G, source, target=None, cutoff=None, return_seen=None, *, backend=None, **backend_kwargs):
    nx = _nx()
    G = _unwrap(G)
    g = G.graph
    if source not in G:
        raise nx.NodeNotFound(f"Source {source} not in G")
    s = _node_index(g, source)
    depth, offsets, sources = _core.hop_paths(g._g, s, True, "auto")
    depth = np.asarray(depth)
    keep = depth >= 0
    if cutoff:  # NetworkX: a cutoff of 0 (or None) stops nowhere
        keep &= depth <= cutoff
    nodes = g.nodes
    order = _reached_in_order(depth)
    order = order[keep[order]]
    offsets, sources = np.asarray(offsets), np.asarray(sources)
    pred = {nodes[v]: [nodes[u] for u in sources[offsets[v]:offsets[v + 1]].tolist()] for v in order.tolist()}
    if target is not None:
        if target not in pred:
            return ([], -1) if return_seen else []
        return (pred[target], int(depth[g._vertex(target)])) if return_seen else pred[target]
    if return_seen:
        return pred, {nodes[v]: int(depth[v]) for v in order.tolist()}
    return pred

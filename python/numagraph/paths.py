"""Shortest paths: predecessor arrays and paths in the user's ids.

Predecessors come from a post-pass over the finished distances
(docs/kernels/paths.md): each reached vertex takes the smallest dense id
among its in-neighbours u with dist[u] + w(u, v) == dist[v], so the answer is
the same on every engine, topology and thread count. Paths may differ from
NetworkX's where several shortest paths tie; their lengths do not."""
from __future__ import annotations

import numpy as np

from . import _core
from .graph import Graph

__all__ = ["shortest_path", "shortest_path_length", "predecessors", "NoPathError"]


class NoPathError(_core.Error, LookupError):
    """No path joins the two vertices (the target is unreachable from the source)."""


def _core_of(g):
    if not isinstance(g, Graph):
        raise TypeError(f"expected a numagraph.Graph (got {type(g).__name__}); "
                        "build one with numagraph.Graph.from_networkx / from_scipy / from_edges")
    return g._g


def _dense(g, v):
    """The dense index (what result arrays are indexed by) of user vertex `v`."""
    i = g._vertex(v)  # node objects give their index; otherwise the user's id, checked here
    if g.nodes is None:
        ids = np.asarray(g.vertex_ids())
        if g.relabelled:
            j = int(np.searchsorted(ids, i))
            if j == len(ids) or ids[j] != i:
                raise _core.UsageError(f"vertex {v} does not appear in the graph")
            return j
        if i >= g.num_vertices:
            raise _core.UsageError(f"vertex {v} is out of range: the graph has {g.num_vertices} vertices "
                                   f"(ids 0..{g.num_vertices - 1})")
    return i


def _search(g, source, weighted, engine="auto", delta=None):
    """(distances, predecessors as dense ids, dense source): SSSP with the weights
    when `weighted` and the graph has them, else BFS hop counts (int32)."""
    core, s = _core_of(g), g._vertex(source)
    if weighted and g.weighted:
        dist, pred = _core.sssp_paths(core, s, None if delta is None else float(delta), str(engine))
    else:
        dist, pred = _core.hop_paths(core, s, False, str(engine))
    return dist, pred, _dense(g, source)


def _ids(g):
    ids = g.vertex_ids()
    return ids.tolist() if isinstance(ids, np.ndarray) else ids


def _as_user_ids(g, pred):
    """Dense predecessor ids -> original labels for a relabelled graph (-1 stays), as bfs's parents."""
    if not g.relabelled:
        return pred
    labels = np.asarray(g.vertex_ids()).astype(np.int64)
    return np.where(pred >= 0, labels[np.maximum(pred, 0)], -1)


def predecessors(g, source, *, weighted=True, engine="auto"):
    """Each vertex's predecessor on a shortest path from ``source`` (int64; -1
    when unreached, the source its own): the smallest id among those that
    qualify, the same on every engine. ``weighted=True`` (default) follows the
    edge weights when the graph has them (numagraph.sssp's distances),
    ``weighted=False`` counts hops (numagraph.bfs's depths). Ids as
    numagraph.bfs's parents: dense ids, original labels for relabelled graphs."""
    return _as_user_ids(g, _search(g, source, weighted, engine)[1])


def _path_indices(pred, s, t):
    if pred[t] < 0:
        return None
    path = [t]
    while path[-1] != s:
        path.append(int(pred[path[-1]]))
    return path[::-1]


def shortest_path(g, source, target=None, *, weighted=True, engine="auto"):
    """A shortest path from ``source`` to ``target`` as a list of user ids
    (node objects, labels or dense ids; source first), or with ``target=None``
    a dict {vertex: path} for every vertex reachable from ``source``, nearest
    first. ``weighted`` as in :func:`predecessors`. Raises NoPathError when
    ``target`` is unreachable. Where several shortest paths tie, the one
    through the smaller ids is returned (NetworkX may return another of the
    same length)."""
    dist, pred, s = _search(g, source, weighted, engine)
    ids = _ids(g)
    if target is not None:
        t = _dense(g, target)
        path = _path_indices(pred, s, t)
        if path is None:
            raise NoPathError(f"no path from {source!r} to {target!r}: {target!r} is not reachable from {source!r}"
                              + (" along the arcs' direction" if g.directed else ""))
        return [ids[i] for i in path]
    return _all_paths(ids, dist, pred, s)


def _reached_in_order(dist):
    """Reached dense ids, nearest first (ties by id)."""
    dist = np.asarray(dist)
    reached = np.flatnonzero(np.isfinite(dist) & (dist >= 0)) if dist.dtype.kind == "f" else np.flatnonzero(dist >= 0)
    return reached[np.argsort(dist[reached], kind="stable")]


def _all_paths(ids, dist, pred, s, keep=None):
    """{user id: path} for the reached vertices (those `keep` accepts), each path
    its predecessor's path plus itself (predecessors are nearer, so come first)."""
    order = _reached_in_order(dist)
    pred = np.asarray(pred)
    by_index = {}
    paths = {}
    for v, p in zip(order.tolist(), pred[order].tolist()):
        path = [ids[v]] if v == s else by_index[p] + [ids[v]]
        by_index[v] = path
        if keep is None or keep[v]:
            paths[ids[v]] = path
    return paths


def shortest_path_length(g, source, target=None, *, weighted=True, engine="auto"):
    """The length of a shortest path (weight sum, or hops with
    ``weighted=False`` or an unweighted graph) from ``source`` to ``target``, or
    with ``target=None`` a dict {vertex: length} over the reachable vertices,
    nearest first. Raises NoPathError when ``target`` is unreachable."""
    dist, _, _ = _search(g, source, weighted, engine)
    hops = np.asarray(dist).dtype.kind != "f"
    if target is not None:
        d = dist[_dense(g, target)]
        if (hops and d < 0) or (not hops and not np.isfinite(d)):
            raise NoPathError(f"no path from {source!r} to {target!r}: {target!r} is not reachable from {source!r}")
        return int(d) if hops else float(d)
    ids = _ids(g)
    order = _reached_in_order(dist)
    return {ids[v]: (int(d) if hops else float(d)) for v, d in zip(order.tolist(), np.asarray(dist)[order].tolist())}

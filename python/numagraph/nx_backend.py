"""NetworkX backend: ``nx.pagerank(G, backend="numagraph")``.

Registered through the ``networkx.backends`` entry point (NetworkX >= 3.2
dispatching). NetworkX graphs are converted once per call (or taken from
NetworkX's conversion cache) into :class:`NxGraph`, which wraps a
numagraph.Graph plus the node list; results come back as NetworkX returns them
(dicts keyed by node, generators of sets, ...). Calls numagraph cannot serve
exactly (endpoints=True, sort_neighbors, multigraphs, ...) are declined in
``can_run`` so NetworkX runs them itself; each refusal is also one
:class:`BackendDeclined` warning naming the reason (NetworkX itself logs it only
at DEBUG level).

>>> import networkx as nx
>>> G = nx.path_graph(4)
>>> sorted(nx.single_source_shortest_path_length(G, 0, backend="numagraph").items())
[(0, 0), (1, 1), (2, 2), (3, 3)]
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np

from .algorithms import bfs as _bfs, betweenness as _betweenness, connected_components as _cc, \
    pagerank as _pagerank, triangles as _triangles
from .algorithms import clustering as _clustering, transitivity as _transitivity
from .algorithms import core_number as _core_number
from .algorithms import louvain_communities as _louvain, modularity as _modularity
from .algorithms import closeness_centrality as _closeness, harmonic_centrality as _harmonic
from .algorithms import strongly_connected_components as _scc
from . import _core
from .graph import Graph

__all__ = ["BackendDeclined", "BackendInterface", "NxGraph", "get_info"]


class BackendDeclined(UserWarning):
    """numagraph's backend did not run a NetworkX call; the message says why.
    NetworkX then runs the call itself, or raises NotImplementedError when the
    call asked for backend="numagraph"."""


_FUNCTIONS = {
    "pagerank": "weight='weight' or None, personalization and dangling as NetworkX (weights stored as float32); "
                "nstart is not supported.",
    "betweenness_centrality": "Unweighted, endpoints=False; k samples the same sources as NetworkX for the same seed.",
    "connected_components": "Undirected graphs.",
    "number_connected_components": "Undirected graphs.",
    "strongly_connected_components": "Directed graphs; the sets come in another order than NetworkX's.",
    "number_strongly_connected_components": "Directed graphs.",
    "is_strongly_connected": "Directed graphs.",
    "weakly_connected_components": "Directed graphs (connected components of the arcs taken both ways); "
                                   "the sets come in another order than NetworkX's.",
    "number_weakly_connected_components": "Directed graphs.",
    "single_source_shortest_path_length": "Hop counts from a direction-optimizing parallel BFS.",
    "bfs_edges": "A valid BFS tree, edges level by level; the parent of a vertex may differ from "
                 "NetworkX's when several neighbours qualify. sort_neighbors and reverse=True are not supported.",
    "bfs_tree": "As bfs_edges.",
    "triangles": "Undirected graphs.",
    "clustering": "Undirected graphs, weight=None (NetworkX computes the directed and weighted coefficients).",
    "average_clustering": "Undirected graphs, weight=None (NetworkX computes the directed and weighted ones).",
    "transitivity": "Undirected graphs (NetworkX itself runs directed graphs).",
    "core_number": "Undirected graphs without self-loops (NetworkX itself runs directed graphs).",
    "louvain_communities": "Undirected graphs, weight='weight' or None (weights >= 0, stored as float32); parallel "
                           "Louvain, one answer per int seed, modularity within about 1 % of NetworkX's (another "
                           "partition than NetworkX's).",
    "modularity": "Undirected graphs, weight='weight' or None; communities must be a partition of the nodes.",
    "closeness_centrality": "All vertices (u=None); distance=None or an attribute of whole-number weights "
                            "(stored as float32); incoming distances on directed graphs, as NetworkX.",
    "harmonic_centrality": "nbunch, sources as NetworkX; distance=None or an attribute of whole-number weights.",
    "eigenvector_centrality": "weight=None or 'weight' (weights stored as float32); nstart is not supported.",
    "katz_centrality": "One beta for every vertex (a beta dict is not supported); weight=None or 'weight' (weights "
                       "stored as float32); nstart is not supported.",
}


def get_info():
    """The networkx.backend_info entry point."""
    return {
        "backend_name": "numagraph",
        "project": "numagraph",
        "package": "numagraph",
        "url": "https://github.com/numagraph/numagraph",
        "short_summary": "NUMA-aware parallel graph kernels (C++/OpenMP).",
        "functions": {name: {"additional_docs": doc} for name, doc in _FUNCTIONS.items()},
        "default_config": {},
    }


class NxGraph:
    """A NetworkX graph converted for numagraph: the CSR graph and the node list."""

    __networkx_backend__ = "numagraph"

    def __init__(self, graph: Graph, directed: bool, weighted: bool, G=None):
        self.graph = graph
        self._directed = directed
        self.weighted = weighted  # some edge has a weight other than 1
        self._nx = G  # the original graph, when converted from one (convert_to_nx returns it)
        self.__networkx_cache__ = {}

    def is_directed(self):
        return self._directed

    def is_multigraph(self):
        return False

    def number_of_nodes(self):
        return self.graph.num_vertices

    def __len__(self):
        return self.graph.num_vertices

    def __iter__(self):
        return iter(self.graph.nodes)

    def __contains__(self, node):
        try:
            self.graph._vertex(node)
            return True
        except Exception:
            return False


def _nx():
    import networkx as nx
    return nx


def _has_weights(G, attr):
    return attr is not None and any(d.get(attr, 1) != 1 for _, _, d in G.edges(data=True))


def _user_stacklevel():
    """warnings.warn's stacklevel, from can_run, for the first frame outside
    NetworkX and numagraph: the line of the user's call."""
    import networkx
    inside = (os.path.dirname(networkx.__file__), os.path.dirname(__file__))

    def ours(frame):  # NetworkX's dispatch, its compiled decorators ("<class 'networkx...'> compilation 4"), ours
        name = frame.f_code.co_filename
        return name.startswith(inside) or name.startswith("<class 'networkx.")

    frame, level = sys._getframe(2), 2  # the frame above can_run
    while frame is not None and ours(frame):
        frame, level = frame.f_back, level + 1
    return level


def _hop_counts(kernel, *args, **kwargs):
    """Calls an unweighted kernel without its "does not use weights" warning: the
    NetworkX functions served here are unweighted by definition, and a graph
    converted for a weighted call may come back from NetworkX's cache."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"numagraph\.\w+: the graph has edge weights")
        return kernel(*args, **kwargs)


def _component_sets(g, comp):
    """A generator of node sets, one per distinct label in `comp` (NetworkX's
    form of components)."""
    comp = np.asarray(comp)
    order = np.argsort(comp, kind="stable")
    bounds = np.flatnonzero(np.diff(comp[order])) + 1
    nodes = g.nodes

    def sets():
        for part in np.split(order, bounds) if order.size else []:
            yield {nodes[i] for i in part.tolist()}
    return sets()


def _number_of_components(g, kernel):
    return 0 if g.num_vertices == 0 else int(np.unique(np.asarray(_hop_counts(kernel, g))).size)


def _directed_only(G):
    """The converted graph; NetworkX's error for an undirected one."""
    G = _unwrap(G)
    if not G.is_directed():
        raise _nx().NetworkXNotImplemented("not implemented for undirected type")
    return G


def _unwrap(G) -> NxGraph:
    if isinstance(G, NxGraph):
        return G
    return BackendInterface.convert_from_nx(G)


def _node_index(g: Graph, source):
    nx = _nx()
    try:
        return g._vertex(source)
    except Exception:
        raise nx.NodeNotFound(f"Source {source} is not in G") from None


class BackendInterface:
    """What NetworkX loads from the entry point: conversions, can_run and the algorithms."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False, preserve_node_attrs=False,
                        preserve_graph_attrs=False, name=None, graph_name=None):
        if isinstance(G, NxGraph):
            return G
        weight = None
        if edge_attrs:
            weight = next(iter(edge_attrs))
        elif preserve_edge_attrs:
            weight = "weight"
        weighted = _has_weights(G, weight)
        g = Graph.from_networkx(G, weight=weight if weighted else None)
        return NxGraph(g, G.is_directed(), weighted, G)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        if isinstance(obj, NxGraph):
            return obj._nx if obj._nx is not None else obj.graph.to_networkx()
        if isinstance(obj, Graph):
            return obj.to_networkx()
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """True, or the reason numagraph declines the call: returned to NetworkX
        (which shows it only in its DEBUG log) and shown once as one
        BackendDeclined warning, on one line."""
        verdict = BackendInterface._verdict(name, args, kwargs)
        if verdict is True:
            return True
        reason = verdict if isinstance(verdict, str) else "not implemented by numagraph"
        warnings.warn(f"numagraph backend declines {name}: {reason}; NetworkX's own {name} runs such calls "
                      f"(a call with backend='numagraph' raises NotImplementedError instead)", BackendDeclined,
                      stacklevel=_user_stacklevel())
        return reason

    @staticmethod
    def _verdict(name, args, kwargs):
        """True, or why numagraph cannot serve this call exactly (can_run)."""
        nx = _nx()
        G = args[0] if args else kwargs.get("G")
        if G is not None and not isinstance(G, NxGraph) and getattr(G, "is_multigraph", lambda: False)():
            return "multigraphs are not supported (numagraph keeps one edge per vertex pair)"

        def arg(i, key, default=None):
            return args[i] if len(args) > i else kwargs.get(key, default)

        if name == "pagerank":
            if arg(5, "nstart") is not None:
                return "nstart is not supported (numagraph starts from the uniform vector)"
            weight = arg(6, "weight", "weight")
            if weight not in (None, "weight"):
                return f"weight={weight!r} is not supported (numagraph keeps the 'weight' attribute: weight='weight' or None)"
            for key, i in (("personalization", 2), ("dangling", 7)):
                values = arg(i, key)
                if values is not None and any(not x >= 0 for x in values.values()):
                    return f"negative {key} values are not supported (numagraph's PageRank needs values >= 0)"
            if weight is not None and G is not None:
                if isinstance(G, NxGraph):
                    w = G.graph.weights
                    negative = w is not None and bool((w < 0).any())
                else:
                    negative = any(d.get(weight, 1) < 0 for _, _, d in G.edges(data=True))
                if negative:
                    return "negative edge weights are not supported (numagraph's PageRank needs weights >= 0)"
            return True
        if name in ("eigenvector_centrality", "katz_centrality"):
            katz = name == "katz_centrality"
            if arg(5 if katz else 3, "nstart") is not None:
                return "nstart is not supported (numagraph starts from NetworkX's default vector)"
            weight = arg(7 if katz else 4, "weight")
            if weight not in (None, "weight"):
                return f"weight={weight!r} is not supported (numagraph keeps the 'weight' attribute: weight='weight' or None)"
            if katz and isinstance(arg(2, "beta", 1.0), dict):
                return "a beta dict is not supported (numagraph takes one beta for every vertex)"
            return True
        if name == "betweenness_centrality":
            if arg(3, "weight") is not None:
                return f"weight={arg(3, 'weight')!r} is not supported (numagraph's betweenness counts hops: weight=None)"
            if arg(4, "endpoints", False):
                return "endpoints=True is not supported (endpoints=False runs here)"
            return True
        if name in ("bfs_edges", "bfs_tree"):
            if arg(4, "sort_neighbors") is not None:
                return "sort_neighbors is not supported"
            if arg(2, "reverse", False) and G is not None and G.is_directed():
                return "reverse=True on a directed graph is not supported"
            return True
        if name == "single_source_shortest_path_length":
            return True
        if name in _nx_paths.FUNCTIONS:
            return _nx_paths.verdict(name, args, kwargs)
        if name in ("clustering", "average_clustering", "transitivity"):
            if name != "transitivity" and arg(2, "weight") is not None:
                return (f"weight={arg(2, 'weight')!r} is not supported (numagraph's clustering is unweighted: "
                        f"weight=None; networkx.{name} computes the weighted coefficients)")
            if G is not None and G.is_directed():
                return f"directed graphs are not supported (networkx.{name} computes the directed coefficients)"
            return True
        if name in ("louvain_communities", "modularity"):
            louvain = name == "louvain_communities"
            if G is not None and G.is_directed():
                return ("directed graphs are not supported (NetworkX uses directed modularity there; numagraph's "
                        "needs an undirected graph)")
            weight = arg(1 if louvain else 2, "weight", "weight")
            if weight not in (None, "weight"):
                return f"weight={weight!r} is not supported (numagraph keeps the 'weight' attribute: weight='weight' or None)"
            if weight is not None and G is not None:
                if isinstance(G, NxGraph):
                    w = G.graph.weights
                    negative = w is not None and bool((np.asarray(w) < 0).any())
                else:
                    negative = any(d.get(weight, 1) < 0 for _, _, d in G.edges(data=True))
                if negative:
                    return "negative edge weights are not supported"
            if louvain:
                seed = arg(5, "seed")
                if seed is not None and not isinstance(seed, (int, np.integer)) and not hasattr(seed, "getrandbits"):
                    return "seed must be an int, None or a random.Random (numagraph draws its vertex order from it)"
                max_level = arg(4, "max_level")
                if max_level is not None and max_level < 1:
                    return "max_level must be at least 1"
            return True
        if name == "core_number":
            if G is not None and G.is_directed():
                return "directed graphs are not supported (NetworkX's core_number counts in + out degree)"
            if G is not None and not isinstance(G, NxGraph) and nx.number_of_selfloops(G) > 0:
                return "graphs with self-loops are not supported (NetworkX raises its own error)"
            return True
        if name in ("closeness_centrality", "harmonic_centrality"):
            if name == "closeness_centrality" and arg(1, "u") is not None:
                return "u is not supported (numagraph computes every vertex; NetworkX's u= runs one search)"
            distance = arg(2, "distance")
            if distance is not None and G is not None:
                if isinstance(G, NxGraph):
                    w = G.graph.weights
                    values = [] if w is None else np.asarray(w, dtype=np.float64)
                else:
                    values = np.asarray([d.get(distance, 1) for _, _, d in G.edges(data=True)], dtype=np.float64)
                if len(values) and not (np.all(values >= 0) and np.all(values == np.round(values))
                                        and np.all(values < 2 ** 24)):
                    return (f"distance={distance!r} needs whole-number weights in [0, 2**24) (numagraph stores "
                            "weights as float32; negative ones are refused)")
            return True
        return name in _FUNCTIONS

    @staticmethod
    def should_run(name, args, kwargs):
        return True

    # ---- algorithms -----------------------------------------------------------
    @staticmethod
    def pagerank(G, alpha=0.85, personalization=None, max_iter=100, tol=1.0e-6, nstart=None, weight="weight",
                 dangling=None, *, backend=None, **backend_kwargs):
        nx = _nx()
        G = _unwrap(G)
        g = G.graph
        if g.num_vertices == 0:
            return {}
        if max_iter < 1:
            raise nx.PowerIterationFailedConvergence(max_iter)
        # NetworkX's rules: keys that are not nodes are ignored; an all-zero
        # personalization raises ZeroDivisionError.
        p = {v: x for v, x in personalization.items() if v in G} if personalization is not None else None
        if p is not None and not sum(p.values()) > 0:
            raise ZeroDivisionError("personalization values sum to 0")
        d = {v: x for v, x in dangling.items() if v in G} if dangling is not None else None
        # weight=None ignores weights even when NetworkX hands over a graph
        # converted, and cached, for a weighted call.
        scores, iterations, change = _pagerank(g, damping=alpha, max_iterations=max_iter, tolerance=tol,
                                               networkx=True, variant="jacobi", return_info=True,
                                               weight=weight, personalization=p, dangling=d)
        if iterations >= max_iter and change >= g.num_vertices * tol:
            raise nx.PowerIterationFailedConvergence(max_iter)
        return g.to_dict(scores)

    @staticmethod
    def _power_centrality(name, G, max_iter, tol, weight, **extra):
        """Runs numagraph's eigenvector or Katz centrality with NetworkX's rules and errors."""
        nx = _nx()
        G = _unwrap(G)
        g = G.graph
        if max_iter < 1:
            raise nx.PowerIterationFailedConvergence(max_iter)
        weighted = weight is not None  # weight=None ignores weights of a graph converted for a weighted call
        if name == "katz":
            result = _core.katz_centrality(g._g, extra["alpha"], extra["beta"], int(max_iter), float(tol),
                                           extra["normalized"], weighted, "auto", "auto")
        else:
            result = _core.eigenvector_centrality(g._g, int(max_iter), float(tol), weighted, "auto", "auto")
        values, _, _, converged = result
        if not converged:
            raise nx.PowerIterationFailedConvergence(max_iter)
        return g.to_dict(values)

    @staticmethod
    def eigenvector_centrality(G, max_iter=100, tol=1e-06, nstart=None, weight=None, *, backend=None,
                               **backend_kwargs):
        nx = _nx()
        if _unwrap(G).graph.num_vertices == 0:
            raise nx.NetworkXPointlessConcept("cannot compute centrality for the null graph")
        return BackendInterface._power_centrality("eigenvector", G, max_iter, tol, weight)

    @staticmethod
    def katz_centrality(G, alpha=0.1, beta=1.0, max_iter=1000, tol=1e-06, nstart=None, normalized=True, weight=None,
                        *, backend=None, **backend_kwargs):
        if _unwrap(G).graph.num_vertices == 0:
            return {}
        return BackendInterface._power_centrality("katz", G, max_iter, tol, weight, alpha=float(alpha),
                                                  beta=float(beta), normalized=bool(normalized))

    @staticmethod
    def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None, *,
                               backend=None, **backend_kwargs):
        G = _unwrap(G)
        g = G.graph
        if k is not None and k != g.num_vertices:
            import random
            rng = seed if isinstance(seed, random.Random) else random.Random(seed)
            sources = rng.sample(list(g.nodes), k)  # NetworkX's sample, and its errors
            if k == 0:
                raise ZeroDivisionError("betweenness with k=0 sampled sources")  # as NetworkX
            scores = _hop_counts(_betweenness, g, sources=sources, normalized=normalized)
        else:  # k=None: exact, as NetworkX (not numagraph.betweenness's size rule)
            scores = _hop_counts(_betweenness, g, exact=True, normalized=normalized)
        return g.to_dict(scores)

    @staticmethod
    def connected_components(G, *, backend=None, **backend_kwargs):
        nx = _nx()
        G = _unwrap(G)
        if G.is_directed():
            raise nx.NetworkXNotImplemented("not implemented for directed type")
        return _component_sets(G.graph, _hop_counts(_cc, G.graph))

    @staticmethod
    def number_connected_components(G, *, backend=None, **backend_kwargs):
        nx = _nx()
        G = _unwrap(G)
        if G.is_directed():
            raise nx.NetworkXNotImplemented("not implemented for directed type")
        if G.graph.num_vertices == 0:
            return 0
        return int(np.unique(np.asarray(_hop_counts(_cc, G.graph))).size)

    @staticmethod
    def strongly_connected_components(G, *, backend=None, **backend_kwargs):
        G = _directed_only(G)
        return _component_sets(G.graph, _hop_counts(_scc, G.graph))

    @staticmethod
    def number_strongly_connected_components(G, *, backend=None, **backend_kwargs):
        G = _directed_only(G)
        return _number_of_components(G.graph, _scc)

    @staticmethod
    def is_strongly_connected(G, *, backend=None, **backend_kwargs):
        nx = _nx()
        G = _directed_only(G)
        if G.graph.num_vertices == 0:
            raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
        return _number_of_components(G.graph, _scc) == 1

    @staticmethod
    def weakly_connected_components(G, *, backend=None, **backend_kwargs):
        G = _directed_only(G)
        return _component_sets(G.graph, _hop_counts(_cc, G.graph))

    @staticmethod
    def number_weakly_connected_components(G, *, backend=None, **backend_kwargs):
        G = _directed_only(G)
        return _number_of_components(G.graph, _cc)

    @staticmethod
    def single_source_shortest_path_length(G, source, cutoff=None, *, backend=None, **backend_kwargs):
        G = _unwrap(G)
        g = G.graph
        depth = np.asarray(_hop_counts(_bfs, g, source if source in G else _node_index(g, source)))
        if cutoff is None:
            cutoff = float("inf")
        reached = np.flatnonzero((depth >= 0) & (depth <= cutoff))
        # Level by level, as NetworkX yields them.
        reached = reached[np.argsort(depth[reached], kind="stable")]
        nodes = g.nodes
        return {nodes[i]: int(d) for i, d in zip(reached.tolist(), depth[reached].tolist())}

    @staticmethod
    def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None, *, backend=None,
                  **backend_kwargs):
        G = _unwrap(G)
        g = G.graph
        if source not in G:
            _node_index(g, source)
        depth, parent = _hop_counts(_bfs, g, source, parents=True)
        depth = np.asarray(depth)
        keep = depth > 0
        if depth_limit is not None:
            keep &= depth <= depth_limit
        children = np.flatnonzero(keep)
        children = children[np.argsort(depth[children], kind="stable")]
        nodes = g.nodes
        parent = np.asarray(parent)
        edges = [(nodes[p], nodes[c]) for p, c in zip(parent[children].tolist(), children.tolist())]
        return iter(edges)

    @staticmethod
    def bfs_tree(G, source, reverse=False, depth_limit=None, sort_neighbors=None, *, backend=None,
                 **backend_kwargs):
        nx = _nx()
        T = nx.DiGraph()
        T.add_node(source)
        T.add_edges_from(BackendInterface.bfs_edges(G, source, reverse=reverse, depth_limit=depth_limit))
        return T

    @staticmethod
    def triangles(G, nodes=None, *, backend=None, **backend_kwargs):
        nx = _nx()
        G = _unwrap(G)
        if G.is_directed():
            raise nx.NetworkXNotImplemented("not implemented for directed type")
        g = G.graph
        counts = np.asarray(_hop_counts(_triangles, g, per_vertex=True)) if g.num_vertices else np.zeros(0, np.int64)
        if nodes is not None and nodes in G:
            return int(counts[g._vertex(nodes)])
        result = g.to_dict(counts)
        if nodes is None:
            return result
        return {v: result[v] for v in nodes if v in result}

    @staticmethod
    def clustering(G, nodes=None, weight=None, *, backend=None, **backend_kwargs):
        nx = _nx()
        G = _unwrap(G)
        if G.is_directed():
            raise nx.NetworkXNotImplemented("not implemented for directed type")
        g = G.graph
        coefficients = np.asarray(_hop_counts(_clustering, g)) if g.num_vertices else np.zeros(0)
        if nodes is not None and nodes in G:
            return float(coefficients[g._vertex(nodes)])
        result = g.to_dict(coefficients)
        if nodes is None:
            return result
        return {v: result[v] for v in nodes if v in result}

    @staticmethod
    def average_clustering(G, nodes=None, weight=None, count_zeros=True, *, backend=None, **backend_kwargs):
        values = BackendInterface.clustering(G, nodes, weight)
        values = list(values.values()) if isinstance(values, dict) else [values]
        if not count_zeros:
            values = [c for c in values if abs(c) > 0]
        return sum(values) / len(values)  # NetworkX's sum, and its ZeroDivisionError when empty

    @staticmethod
    def transitivity(G, *, backend=None, **backend_kwargs):
        nx = _nx()
        G = _unwrap(G)
        if G.is_directed():
            raise nx.NetworkXNotImplemented("not implemented for directed type")
        return float(_hop_counts(_transitivity, G.graph)) if G.graph.num_vertices else 0.0

    @staticmethod
    def louvain_communities(G, weight="weight", resolution=1, threshold=1e-07, max_level=None, seed=None, *,
                            backend=None, **backend_kwargs):
        nx = _nx()
        G = _unwrap(G)
        if G.is_directed():
            raise nx.NetworkXNotImplemented("numagraph's louvain_communities needs an undirected graph")
        g = G.graph
        if g.num_vertices == 0:
            return []
        # NetworkX hands over seed as a random.Random (py_random_state): one draw
        # from it seeds numagraph's order, so an int seed gives one answer.
        if seed is not None and hasattr(seed, "getrandbits"):
            seed = seed.getrandbits(63)
        labels = _louvain(g, resolution=resolution, threshold=threshold, max_level=max_level, seed=seed)
        ids = g.vertex_ids()
        ids = ids.tolist() if isinstance(ids, np.ndarray) else list(ids)
        parts = [set() for _ in range(int(labels.max()) + 1)]
        for node, c in zip(ids, labels.tolist()):
            parts[c].add(node)
        return parts

    @staticmethod
    def modularity(G, communities, weight="weight", resolution=1, *, backend=None, **backend_kwargs):
        from networkx.algorithms.community.quality import NotAPartition
        G = _unwrap(G)
        g = G.graph
        communities = [set(c) for c in communities]
        labels = np.full(g.num_vertices, -1, dtype=np.int64)
        for i, part in enumerate(communities):
            for node in part:
                if node not in G:
                    raise NotAPartition(G, communities)
                v = g._vertex(node)
                if labels[v] != -1:
                    raise NotAPartition(G, communities)
                labels[v] = i
        if (labels < 0).any():
            raise NotAPartition(G, communities)
        return _modularity(g, labels, resolution=resolution)

    @staticmethod
    def core_number(G, *, backend=None, **backend_kwargs):
        nx = _nx()
        G = _unwrap(G)
        if G.is_directed():
            raise nx.NetworkXNotImplemented("numagraph's core_number needs an undirected graph")
        g = G.graph
        if g.num_vertices == 0:
            return {}
        return g.to_dict(_hop_counts(_core_number, g))

    @staticmethod
    def on_start_tests(items):
        """NetworkX's own test suite run with --backend numagraph: mark tests that compare
        an exact BFS parent choice (any valid BFS tree is a correct answer here)."""
        import pytest
        for item in items:
            if "bfs" in item.name and ("test_bfs_tree" in item.name or "test_bfs_edges" in item.name):
                item.add_marker(pytest.mark.xfail(reason="numagraph may pick another valid BFS parent"))

    @staticmethod
    def closeness_centrality(G, u=None, distance=None, wf_improved=True, *, backend=None, **backend_kwargs):
        G = _unwrap(G)
        g = G.graph
        if g.num_vertices == 0:
            return {}
        # distance=None counts hops even on a graph NetworkX converted (and cached) with weights.
        values = _closeness(g, wf_improved=wf_improved, weighted=distance is not None)
        return g.to_dict(values)

    @staticmethod
    def harmonic_centrality(G, nbunch=None, distance=None, sources=None, *, backend=None, **backend_kwargs):
        G = _unwrap(G)
        g = G.graph
        if g.num_vertices == 0:
            return {}
        def members(nodes):  # as G.nbunch_iter: one node, or the nodes of an iterable that are in G
            return {nodes} if nodes in G else {v for v in nodes if v in G}

        if sources is not None:
            sources = members(sources)
        values = _harmonic(g, sources=sources, weighted=distance is not None)
        result = g.to_dict(values)
        if nbunch is None:
            return result
        return {v: result[v] for v in members(nbunch)}


# The shortest-path functions live in nx_paths.py (which imports this module).
from . import nx_paths as _nx_paths  # noqa: E402

_FUNCTIONS.update(_nx_paths.FUNCTIONS)
for _name in _nx_paths.FUNCTIONS:
    setattr(BackendInterface, _name, staticmethod(getattr(_nx_paths, _name)))

"""The kernels, one function each. Every function takes a numagraph.Graph and
returns NumPy arrays indexed by dense vertex id (see Graph.vertex_ids /
Graph.to_dict for the user's ids). Vertex arguments are the user's ids (node
objects for graphs from NetworkX, original labels for relabelled graphs).

``engine`` (every kernel with a NUMA variant): "flat" runs the NUMA-oblivious
kernel; "numa" the partitioned one (Polymer-style: per-node partitions of the
graph, see docs/numa-engine.md); "auto" (default) the NUMA one when the
topology in force (numagraph.config(topology=...)) has more than one node, as
the CLI's --engine auto. The partitioned copy of the graph is built on the first
NUMA call and kept with the graph until the configuration changes.

``place`` (every kernel): placement of the kernel's own arrays for this call,
by role, as the CLI's --place: "ranks=interleave,contrib=bind:1" or
{"ranks": "interleave"} (roles and policies: docs/numa.md); it adds to the
roles numagraph.config(place=...) sets. The graph is placed when it is built
(numagraph.config(place="graph=...") before building it), so a kernel's
place= refuses the graph role. ``placement_report=True`` returns
``Placed(result, placement)``: the result as without it, and per role the
bytes, the policy asked and obtained, the page size and the sampled pages per
node of the arrays the call made (as the CLI's --placement-report). Results
are the same whatever the placement."""
from __future__ import annotations

import functools
import warnings
from typing import NamedTuple

import numpy as np

from . import _core, openmp
from .graph import Graph
from .runtime import place_text

__all__ = ["bfs", "sssp", "betweenness", "diameter", "Diameter", "pagerank", "spmv", "belief_propagation",
           "connected_components", "strongly_connected_components", "triangles", "clustering",
           "average_clustering", "transitivity", "core_number", "communities", "Communities", "louvain_communities",
           "modularity", "eigenvector_centrality", "katz_centrality",
           "closeness_centrality", "harmonic_centrality", "Placed"]


class Placed(NamedTuple):
    """A kernel's result with the placement report of its own arrays (placement_report=True)."""
    result: object
    placement: list


def _roles(text):
    return {item.split("=", 1)[0]: item.split("=", 1)[1] if "=" in item else "" for item in text.split(",") if item}


def _placed(kernel):
    """Adds place= and placement_report= to a kernel (see the module docstring)."""
    @functools.wraps(kernel)
    def call(*args, place=None, placement_report=False, **kw):
        openmp.check()  # a second OpenMP runtime in the process: warned once
        if place is None and not placement_report:
            return kernel(*args, **kw)
        asked = _roles(place_text(place) if place is not None else "")
        if "graph" in asked:
            raise _core.UsageError("place= on a kernel places the kernel's own arrays; the graph is placed when it "
                                   "is built: numagraph.config(place='graph=...') before building it")
        before = _core.place()
        roles = {**_roles(before), **asked}
        _core.set_place(",".join(f"{role}={policy}" for role, policy in roles.items()))
        try:
            _core.set_placement_report(bool(placement_report))
            result = kernel(*args, **kw)
            report = _core.placement_report() if placement_report else None
        finally:
            _core.set_placement_report(False)
            _core.set_place(before)
        return Placed(result, report) if placement_report else result
    return call


def _frame(g, as_frame, columns, ids_in=()):
    """The result as NumPy (default) or, with as_frame=True, a DataFrame indexed by g.vertex_ids()."""
    if not as_frame:
        return columns if len(columns) > 1 else next(iter(columns.values()))
    from .dataframes import frame

    return frame(g, columns, ids_in=ids_in)


def _note_unused_weights(g, kernel, instead):
    """Kernels that cannot use edge weights say so on a weighted graph (one
    warning per calling line, as Python shows warnings), as the CLI does."""
    _core_of(g)  # a Graph, or the TypeError saying how to build one
    if g.weighted:
        warnings.warn(f"numagraph.{kernel}: the graph has edge weights; {kernel} does not use them ({instead}); "
                      "numagraph.sssp does", stacklevel=4)  # past the kernel and its _placed wrapper


def _core_of(g):
    if not isinstance(g, Graph):
        raise TypeError(f"expected a numagraph.Graph (got {type(g).__name__}); "
                        "build one with numagraph.Graph.from_networkx / from_scipy / from_edges")
    return g._g


@_placed
def bfs(g, source, *, depth=True, parents=False, alpha=15.0, beta=18.0, engine="auto", as_frame=False):
    """Direction-optimizing BFS (Beamer et al., SC 2012).

    Returns the hop count of every vertex from ``source`` (int32, -1 when
    unreached). ``parents=True`` also returns the BFS-tree parent of every
    vertex (-1 unreached, the source is its own parent; the graph's signed id
    dtype, or int64 original ids for relabelled graphs): ``(depth, parents)``.
    ``depth=False, parents=True`` returns the parents only and skips the depth
    array (the Graph500 output; as the CLI times BFS). ``alpha``/``beta`` tune
    the top-down/bottom-up switch. ``engine``: see the module docstring.
    ``as_frame=True`` returns a pandas DataFrame instead, indexed by
    :meth:`Graph.vertex_ids` (index name ``vertex``), with the columns
    ``depth`` and/or ``parent`` (parents in the user's ids; for graphs with
    :attr:`Graph.nodes`, node objects, missing when unreached).
    """
    _note_unused_weights(g, "bfs", "depths count hops")
    out = _core.bfs(_core_of(g), g._vertex(source), bool(depth), bool(parents), float(alpha), float(beta),
                    str(engine))
    if not as_frame:
        return out
    if depth and parents:
        columns = {"depth": out[0], "parent": out[1]}
    else:
        columns = {"depth" if depth else "parent": out}
    return _frame(g, True, columns, ids_in=("parent",))


@_placed
def sssp(g, source, *, delta=None, predecessors=False, engine="auto", as_frame=False):
    """Single-source shortest paths by delta-stepping: float64 distances (inf: unreachable).

    Unweighted graphs count hops. ``delta`` is the bucket width (default:
    chosen from the weights, the average degree and, on road-like graphs,
    the thread count; 32 times the weight when every edge weighs the same,
    unweighted graphs included; see docs/kernels/sssp.md). Negative weights
    raise UsageError.
    ``predecessors=True`` also returns each vertex's predecessor on a
    shortest path, ``(distances, predecessors)`` (as numagraph.predecessors:
    int64, -1 unreachable, the smallest qualifying id; a post-pass, so the
    plain call pays nothing for it).
    ``as_frame=True``: a pandas DataFrame indexed by :meth:`Graph.vertex_ids`
    with the column ``distance`` (and ``predecessor``).
    """
    if predecessors:
        from .paths import _as_user_ids

        dist, pred = _core.sssp_paths(_core_of(g), g._vertex(source), None if delta is None else float(delta),
                                      str(engine))
        pred = _as_user_ids(g, pred)
        if not as_frame:
            return dist, pred
        return _frame(g, True, {"distance": dist, "predecessor": pred}, ids_in=("predecessor",))
    return _frame(g, as_frame, {"distance": _core.sssp(_core_of(g), g._vertex(source),
                                                      None if delta is None else float(delta), str(engine))})


@_placed
def betweenness(g, k=None, *, sources=None, exact=False, normalized=False, seed=_core.DEFAULT_SEED, engine="auto",
                variant="auto", as_frame=False):
    """Betweenness centrality (Brandes, unweighted: paths count hops), scaled as
    networkx.betweenness_centrality.

    ``k`` samples k sources deterministically from ``seed``; ``sources`` lists
    them explicitly; ``exact=True`` makes every vertex a source (O(n*m)).
    With none of them, the CLI's rule: exact while vertices x stored arcs is
    at most 2**30 (about a second on two cores), else 4 sources sampled from
    ``seed``, with a warning saying so. Returns float64 scores. ``variant`` picks the flat
    kernel as the CLI's --variant: 'brandes', 'direction-optimizing',
    'batched' (up to 16 sources share each edge sweep), 'source-parallel'
    (one serial search per thread at a time), 'work-queues' (the
    BC paper's NUMA-aware work queues: each thread's discoveries are its next
    queue, dry threads steal by NUMA distance; the CLI's --schedule picks the
    paper's dynamic baseline instead) or 'auto' (on graphs of average
    degree 8+, batched for 8+ sources when its lanes fit a quarter of
    memory (at most 8 GiB), else direction-optimizing; on sparser graphs
    source-parallel for as many sources as threads, else brandes); the
    NUMA engine has one ('auto' or
    'work-queues'). ``as_frame=True``: a pandas DataFrame indexed by
    :meth:`Graph.vertex_ids` with the column ``betweenness``.
    """
    if sources is not None and k is not None:
        raise _core.UsageError("give k or sources, not both")
    if exact and (k is not None or sources is not None):
        raise _core.UsageError("exact=True uses every vertex as a source: drop k or sources")
    _note_unused_weights(g, "betweenness", "shortest paths count hops")
    work = float(g.num_vertices) * float(g.num_arcs)
    if not exact and k is None and sources is None and work > _core.BC_EXACT_WORK:
        k = _core.BC_DEFAULT_SAMPLES
        warnings.warn(f"numagraph.betweenness estimates the scores from {k} random sources: exact betweenness here "
                      f"would visit {work:.0f} arcs (vertices x arcs), more than the default's 2**30 "
                      f"({_core.BC_EXACT_WORK:.0f}); exact=True "
                      "runs every vertex, k=K samples K", stacklevel=3)
    src = None if sources is None else [g._vertex(s) for s in sources]
    scores = _core.betweenness(_core_of(g), src, None if k is None else int(k), int(seed), bool(normalized),
                               str(engine), str(variant))
    return _frame(g, as_frame, {"betweenness": scores})


class Diameter(NamedTuple):
    """A lower bound on the diameter and two vertices that realise it."""
    bound: int
    endpoints: tuple
    sweeps: int


@_placed
def diameter(g, *, engine="auto"):
    """Approximate diameter by repeated double-sweep BFS: a lower bound (exact on trees)
    for the component of a maximum-degree vertex, with its endpoints (user ids).
    engine: as for bfs (the sweeps are BFS runs on that engine)."""
    _note_unused_weights(g, "diameter", "distances count hops")
    bound, u, v, sweeps = _core.diameter(_core_of(g), str(engine))
    if g.nodes is not None:
        u, v = g.nodes[u], g.nodes[v]
    return Diameter(bound, (u, v), sweeps)


def _distribution(g, values, name):
    """(user ids, values) for the core from a dict {vertex: value} (vertices
    as the other kernels take them; the others get 0), or (None, values) for
    an array of one value per vertex in dense order; (None, None) for None."""
    if values is None:
        return None, None
    if hasattr(values, "items"):  # a dict, or a pandas Series indexed by vertex
        items = list(values.items())
        for v, x in items:
            if not np.isfinite(x) or x < 0:
                raise _core.UsageError(f"{name}[{v!r}] = {x}: values must be finite and >= 0")
        ids = np.array([g._vertex(v) for v, _ in items], dtype=np.uint64)
        return ids, np.array([x for _, x in items], dtype=np.float64)
    a = np.ascontiguousarray(values, dtype=np.float64)
    if a.ndim != 1 or a.shape[0] != g.num_vertices:
        raise _core.UsageError(f"{name} must be a dict {{vertex: value}} or an array of one value per vertex "
                               f"({g.num_vertices}), got shape {a.shape}")
    return None, a


def _weight_choice(weight):
    """pagerank's weight=: True for the graph's weights, False for none."""
    if weight is None or weight is False:
        return False
    if weight is True or weight == "weight":
        return True
    raise _core.UsageError(f"weight={weight!r}: a numagraph.Graph has one weight per edge; pass weight='weight' "
                           "(or True) to use it, None (or False) to ignore it")


@_placed
def pagerank(g, *, damping=0.85, max_iterations=None, tolerance=None, networkx=False, variant="auto",
             return_info=False, engine="auto", cache_block="auto", as_frame=False, weight="weight",
             personalization=None, dangling=None):
    """PageRank (pull): float64 scores.

    Default model as gapbs: the score mass of dangling vertices (no
    out-edges) is dropped, so on graphs with such vertices the scores sum to
    less than 1 (0.754 on kron16) and differ from ``networkx.pagerank``'s.
    ``networkx=True`` spreads that mass as NetworkX does (sum 1): pass it to
    get NetworkX's answer (the NetworkX backend does). Its cost is in
    docs/kernels/pr.md.

    Stops after ``max_iterations`` (default 20) or when the L1 change is
    below ``tolerance`` (default 1e-4; 0: run every iteration).
    ``networkx=True`` follows networkx.pagerank, defaults included as the
    CLI's ``--networkx`` does: dangling mass spread uniformly, stop at L1 < n
    * tolerance, tolerance 1e-6 and 100 iterations unless given.
    ``variant``: 'auto' (default: 'gauss-seidel', gapbs's default, on the
    flat engine; 'jacobi' with networkx=True or on the NUMA engine, which
    has Jacobi only), 'gauss-seidel' (flat engine only) or 'jacobi'
    (thread-count independent). Which one comes closer to the fixed point
    per sweep depends on the graph: Jacobi on Kronecker graphs and some
    skewed undirected ones, Gauss-Seidel on road networks and most others
    (docs/kernels/pr.md, "Which variant gets closer").
    ``return_info``: also return (iterations, last L1 change).
    ``cache_block``: cache blocking of the sweep as the CLI's --cache-block:
    'auto' (the CLI's rule: Jacobi tiles once the contributions outgrow one
    core's L2, Gauss-Seidel segments once they exceed a quarter of the
    last-level cache; docs/kernels/pr.md),
    'off', or bytes of contributions per block (an int, or a string such as
    '4M').
    ``as_frame=True``: the scores as a pandas DataFrame indexed by
    :meth:`Graph.vertex_ids` with the column ``score`` (with
    ``return_info``: ``(frame, iterations, change)``).

    Weights and personalization follow networkx.pagerank (docs/kernels/pr.md,
    "Weights and personalization"). ``weight``: "weight" (default) uses the
    graph's edge weights when it has them: an edge passes on its source's
    score in proportion to its weight over the source's out-weight, and a
    vertex whose out-weight is 0 is dangling; None (or False) ignores them.
    Weights must be >= 0. ``personalization``: the teleport distribution, a
    dict {vertex: value} (the other vertices get 0) or an array of one value
    per vertex in :meth:`Graph.vertex_ids` order; values >= 0, not all 0,
    normalized to sum 1. ``dangling`` (``networkx=True`` only): where the
    dangling mass goes, in the same forms (default: as the personalization,
    else uniform). Weights or a distribution run the Jacobi variant ('auto'
    picks it; 'gauss-seidel' is refused).
    """
    if max_iterations is None:
        max_iterations = 100 if networkx else 20
    if tolerance is None:
        tolerance = 1e-6 if networkx else 1e-4
    core = _core_of(g)
    p_ids, p = _distribution(g, personalization, "personalization")
    d_ids, d = _distribution(g, dangling, "dangling")
    scores, iterations, change = _core.pagerank(core, float(damping), int(max_iterations),
                                                 float(tolerance), bool(networkx), str(variant), str(engine),
                                                 str(cache_block), _weight_choice(weight), p_ids, p, d_ids, d)
    scores = _frame(g, as_frame, {"score": scores})
    return (scores, iterations, change) if return_info else scores


@_placed
def spmv(g, iterations=5, *, engine="auto", cache_block="auto", as_frame=False):
    """Repeated sparse matrix-vector product y = A x (power iteration from x = 1/n, normalised
    each step); returns the last y (float64). ``cache_block`` as for pagerank (bytes of x).
    ``as_frame=True``: a pandas DataFrame indexed by :meth:`Graph.vertex_ids`
    with the column ``value``."""
    return _frame(g, as_frame, {"value": _core.spmv(_core_of(g), int(iterations), str(engine), str(cache_block))})


def _converged(what, result, max_iter, tol, n, hint=""):
    """The values of a power iteration, or UsageError when it did not converge."""
    values, iterations, change, converged = result
    if not converged:
        raise _core.UsageError(f"{what} did not converge in {iterations} iterations (L1 change {change:.3g}, needs "
                               f"< n * tol = {n * tol:.3g}): raise max_iter or tol{hint}")
    return values, iterations, change


@_placed
def eigenvector_centrality(g, *, max_iter=100, tol=1e-6, weight="weight", engine="auto", cache_block="auto",
                           return_info=False, as_frame=False):
    """Eigenvector centrality as networkx.eigenvector_centrality: float64, L2 norm 1.

    The power iteration on A^T + I from x = 1/n (in-edges for directed
    graphs), normalized every iteration; stops after the first iteration
    whose L1 change is below n * ``tol`` and raises UsageError after
    ``max_iter`` iterations. ``weight``: "weight" (default) sums the edge
    weights when the graph has them, None ignores them (NetworkX's default
    is weight=None). ``cache_block`` as for pagerank. ``return_info``: also
    return (iterations, last L1 change). ``as_frame=True``: a pandas
    DataFrame indexed by :meth:`Graph.vertex_ids` with the column
    ``centrality``. docs/kernels/eigenvector.md."""
    values, iterations, change = _converged(
        "eigenvector centrality",
        _core.eigenvector_centrality(_core_of(g), int(max_iter), float(tol), _weight_choice(weight), str(engine),
                                     str(cache_block)), max_iter, tol, g.num_vertices)
    values = _frame(g, as_frame, {"centrality": values})
    return (values, iterations, change) if return_info else values


@_placed
def katz_centrality(g, *, alpha=0.1, beta=1.0, max_iter=1000, tol=1e-6, normalized=True, weight="weight",
                    engine="auto", cache_block="auto", return_info=False, as_frame=False):
    """Katz centrality as networkx.katz_centrality (one beta for all vertices): float64.

    x = alpha A^T x + beta iterated from x = 0 (in-edges for directed
    graphs); stops after the first iteration whose L1 change is below n *
    ``tol`` and raises UsageError after ``max_iter`` iterations (it
    converges when alpha < 1 / the largest eigenvalue of A).
    ``normalized=True`` scales the result to L2 norm 1. ``weight``,
    ``cache_block``, ``return_info`` and ``as_frame`` as for
    eigenvector_centrality. docs/kernels/eigenvector.md."""
    values, iterations, change = _converged(
        "Katz centrality",
        _core.katz_centrality(_core_of(g), float(alpha), float(beta), int(max_iter), float(tol), bool(normalized),
                              _weight_choice(weight), str(engine), str(cache_block)), max_iter, tol, g.num_vertices,
        ", or lower alpha below 1 / (largest eigenvalue)")
    values = _frame(g, as_frame, {"centrality": values})
    return (values, iterations, change) if return_info else values


@_placed
def belief_propagation(g, iterations=5, *, coupling=0.7, seed=_core.DEFAULT_SEED, engine="auto", as_frame=False):
    """Loopy belief propagation on a pairwise binary MRF (undirected graphs): P(x_v = 1) per vertex.

    Edge potential psi(x,x) = coupling, psi(x,1-x) = 1-coupling; per-vertex priors
    come from ``seed`` (as the CLI's --prior-seed).
    ``as_frame=True``: a pandas DataFrame indexed by :meth:`Graph.vertex_ids`
    with the column ``probability``."""
    _note_unused_weights(g, "belief_propagation", "every edge has the same coupling")
    return _frame(g, as_frame, {"probability": _core.belief_propagation(_core_of(g), int(iterations), float(coupling),
                                                                          int(seed), str(engine))})


@_placed
def connected_components(g, *, variant="afforest", engine="auto", as_frame=False):
    """Connected components (weakly connected for directed graphs).

    Returns, per vertex, the id of a member of its component (one representative
    per component; the user's id when relabelled): dtype is the graph's id
    type. ``np.unique(result).size`` is the number of components.
    ``variant``: 'afforest' (Sutton et al., IPDPS 2018; both engines), 'sv'
    (Shiloach-Vishkin; flat engine only) or 'lp' (min-label propagation; NUMA
    engine only). With ``engine='auto'`` an explicit 'sv' runs flat and 'lp' on
    the NUMA engine. The NUMA engine labels each component with its smallest id
    (uint64).
    ``as_frame=True``: a pandas DataFrame indexed by :meth:`Graph.vertex_ids`
    with the column ``component`` (a member in the user's ids: node objects for
    graphs with :attr:`Graph.nodes`).
    """
    _note_unused_weights(g, "connected_components", "components depend only on which edges exist")
    return _frame(g, as_frame, {"component": _core.connected_components(_core_of(g), str(variant), str(engine))},
                  ids_in=("component",))


@_placed
def strongly_connected_components(g, *, engine="auto", as_frame=False):
    """Strongly connected components of a directed graph.

    Returns, per vertex, the smallest id in its strongly connected component
    (the user's id when relabelled): dtype is the graph's id type.
    ``np.unique(result).size`` is the number of components. Forward-backward
    search with trimming (flat engine only: ``engine='numa'`` raises
    UsageError). On an undirected graph every edge goes both ways: the
    result is the connected components, each labelled by its smallest id.
    ``as_frame=True``: a pandas DataFrame indexed by :meth:`Graph.vertex_ids`
    with the column ``component`` (the smallest member in the user's ids: node
    objects for graphs with :attr:`Graph.nodes`).
    """
    _note_unused_weights(g, "strongly_connected_components", "components depend only on which edges exist")
    return _frame(g, as_frame, {"component": _core.strongly_connected_components(_core_of(g), str(engine))},
                  ids_in=("component",))


@_placed
def triangles(g, *, per_vertex=False, as_frame=False):
    """Triangle count of an undirected graph (int), or per vertex (int64 array, as networkx.triangles).

    ``as_frame=True`` (implies ``per_vertex``): a pandas DataFrame indexed by
    :meth:`Graph.vertex_ids` with the column ``triangles``."""
    _note_unused_weights(g, "triangles", "triangles depend only on which edges exist")
    if as_frame:
        return _frame(g, True, {"triangles": _core.triangles(_core_of(g), True)})
    return _core.triangles(_core_of(g), bool(per_vertex))


def _note_clustering_weights(g, kernel):
    """Clustering of a weighted graph: the unweighted coefficients, said once per calling line."""
    _core_of(g)  # a Graph, or the TypeError saying how to build one
    if g.weighted:
        warnings.warn(f"numagraph.{kernel}: the graph has edge weights; {kernel} does not use them (unweighted "
                      f"coefficients; networkx.{kernel}(G, weight=...) computes the weighted ones)", stacklevel=4)


@_placed
def clustering(g, *, as_frame=False):
    """Local clustering coefficient of each vertex of an undirected graph
    (float64 array, as networkx.clustering of an unweighted Graph): 2 T(v) /
    (d(v) (d(v) - 1)) with T(v) the triangles through v and d(v) its degree
    without self-loops; 0 when d(v) < 2. From the per-vertex triangle count
    (flat engine only). A directed graph raises UsageError (networkx.clustering
    computes the directed coefficients). ``as_frame=True``: a pandas DataFrame
    indexed by :meth:`Graph.vertex_ids` with the column ``clustering``."""
    _note_clustering_weights(g, "clustering")
    return _frame(g, as_frame, {"clustering": _core.clustering(_core_of(g))[0]})


@_placed
def average_clustering(g, *, count_zeros=True):
    """Mean local clustering coefficient (float, as networkx.average_clustering):
    over all vertices, or with ``count_zeros=False`` over those with a nonzero
    coefficient; 0.0 when there are none (NetworkX raises ZeroDivisionError)."""
    _note_clustering_weights(g, "average_clustering")
    _, every, nonzero, _ = _core.clustering(_core_of(g))
    return every if count_zeros else nonzero


@_placed
def transitivity(g):
    """Fraction of connected triples that close into triangles, 3 triangles /
    triples (float, as networkx.transitivity); 0.0 without triangles."""
    _note_unused_weights(g, "transitivity", "triangles depend only on which edges exist")
    return _core.clustering(_core_of(g))[3]


@_placed
def core_number(g, *, engine="auto", as_frame=False):
    """k-core decomposition: the coreness of every vertex (int32), as networkx.core_number.

    The coreness of v is the largest k such that v belongs to the k-core, the
    maximal subgraph in which every vertex has at least k neighbours. Needs an
    undirected graph without self-loops (``numagraph.read(..., directed=False)``;
    ``from_edges``/``from_networkx`` with ``drop_self_loops=True``); raises
    UsageError otherwise. Level-synchronous parallel peeling on both engines.
    ``as_frame=True``: a pandas DataFrame indexed by :meth:`Graph.vertex_ids`
    with the column ``core``."""
    _note_unused_weights(g, "core_number", "core numbers count neighbours")
    return _frame(g, as_frame, {"core": _core.core_number(_core_of(g), str(engine))})


class Communities(NamedTuple):
    """numagraph.communities' answer: labels (int64 per vertex, dense ids 0..communities-1
    numbered by each community's smallest member), their number, the modularity
    (networkx.community.modularity's, at the resolution asked) and the levels run."""
    labels: np.ndarray
    communities: int
    modularity: float
    levels: int


@_placed
def communities(g, *, resolution=1.0, threshold=1e-7, seed=_core.DEFAULT_SEED, variant="louvain", max_level=None):
    """Modularity communities by parallel Louvain (variant="louvain", as
    networkx.louvain_communities) or Leiden (variant="leiden": refined, every
    community connected). Returns :class:`Communities`. Needs an undirected
    graph (directed modularity is not implemented: build it with
    directed=False); edge weights are used when the graph has them (>= 0).
    ``threshold``: the last level is the first whose modularity gain is at most
    this (NetworkX's). The answer is the same on every run and every thread
    count for one ``seed`` (None: the default seed)."""
    seed = _core.DEFAULT_SEED if seed is None else int(seed)
    if max_level is not None and int(max_level) < 1:
        raise _core.UsageError("max_level must be at least 1 (None: no limit)")
    labels, count, q, levels = _core.communities(_core_of(g), float(resolution), float(threshold), seed, str(variant),
                                                 0 if max_level is None else int(max_level))
    return Communities(labels, int(count), float(q), int(levels))


@_placed
def louvain_communities(g, *, resolution=1.0, threshold=1e-7, seed=_core.DEFAULT_SEED, variant="louvain",
                        max_level=None, as_frame=False):
    """The community of every vertex (int64, dense ids numbered by smallest
    member): :func:`communities`' labels (see there for the arguments).
    ``as_frame=True``: a DataFrame with the column ``community``."""
    r = communities.__wrapped__(g, resolution=resolution, threshold=threshold, seed=seed, variant=variant,
                                max_level=max_level)
    return _frame(g, as_frame, {"community": r.labels})


def modularity(g, labels, *, resolution=1.0):
    """Modularity of a partition given as one label per vertex (any integers),
    as networkx.community.modularity(G, communities, weight="weight",
    resolution=resolution). Undirected graphs."""
    labels = np.asarray(labels)
    if labels.shape != (g.num_vertices,):
        raise _core.UsageError(f"modularity needs one label per vertex ({g.num_vertices}), got shape {labels.shape}")
    _, dense = np.unique(labels, return_inverse=True)
    dense = np.ascontiguousarray(dense.reshape(-1), dtype=np.int64)
    return float(_core.modularity(_core_of(g), dense, int(dense.max()) + 1 if len(dense) else 0, float(resolution)))


def _closeness(g, wf_improved, samples, seed, weighted, sources=None):
    if samples is not None and sources is not None:
        raise _core.UsageError("give samples or sources, not both")
    src = None if sources is None else [g._vertex(s) for s in sources]
    return _core.closeness(_core_of(g), bool(wf_improved), None if samples is None else int(samples), int(seed),
                           bool(weighted), src)


@_placed
def closeness_centrality(g, *, wf_improved=True, samples=None, seed=_core.DEFAULT_SEED, weighted=True,
                         as_frame=False):
    """Closeness centrality of every vertex (float64), as
    networkx.closeness_centrality: INCOMING distances (from the vertices that
    reach v), r / S times r / (n - 1) with ``wf_improved`` (r vertices reach v,
    S the sum of their distances), 0 when none does.

    Exact by bit-parallel multi-source BFS (256 sources per sweep), or on a
    weighted graph with ``weighted=True`` by one Dijkstra search per source
    (negative weights raise UsageError); ``weighted=False`` counts hops.
    ``samples=K`` estimates from K sources drawn uniformly from ``seed``
    (Eppstein-Wang; error bound in docs/kernels/closeness.md); K >= n is exact.
    Flat engine only. ``as_frame=True``: a pandas DataFrame indexed by
    :meth:`Graph.vertex_ids` with the column ``closeness``."""
    return _frame(g, as_frame, {"closeness": _closeness(g, wf_improved, samples, seed, weighted)[0]})


@_placed
def harmonic_centrality(g, *, samples=None, sources=None, seed=_core.DEFAULT_SEED, weighted=True, as_frame=False):
    """Harmonic centrality of every vertex (float64), as
    networkx.harmonic_centrality: the sum of 1 / d(u, v) over the vertices u
    at a finite nonzero distance INTO v.

    ``sources`` sums over those vertices only (NetworkX's sources=);
    ``samples=K`` estimates from K uniformly sampled sources, scaled by
    (n - 1) / K. Same kernels as :func:`closeness_centrality`. ``as_frame=True``:
    a pandas DataFrame indexed by :meth:`Graph.vertex_ids` with the column
    ``harmonic``."""
    if sources is not None:
        sources = list(sources)
        if not sources:
            import numpy as np
            return _frame(g, as_frame, {"harmonic": np.zeros(g.num_vertices)})
    return _frame(g, as_frame, {"harmonic": _closeness(g, True, samples, seed, weighted, sources)[1]})

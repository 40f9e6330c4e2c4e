"""numagraph.Graph: a read-only CSR graph held in C++, and its constructors."""
from __future__ import annotations

import os

import numpy as np

from . import _core
from ._core import InputError, UsageError
from .notes import announce, cleaning_notes

_ID_DTYPES = (np.int32, np.int64, np.uint32, np.uint64)
_MAX_EXACT_INTEGER_WEIGHT = 1 << 24


def _relabel_arg(relabel):
    if relabel is True:
        return "on"
    if relabel is False:
        return "off"
    if relabel in ("on", "off", "auto"):
        return relabel
    raise UsageError(f"relabel must be True, False or 'auto' (got {relabel!r})")


def _id_array(name, a):
    a = np.asarray(a)
    if a.ndim != 1:
        raise UsageError(f"{name} must be a 1-D array of vertex ids (got shape {a.shape})")
    if a.dtype.kind not in "iu" or a.dtype == np.bool_:
        raise TypeError(f"{name} must hold integer vertex ids (got dtype {a.dtype}); "
                        f"convert with {name}.astype(np.int64) if the values are whole numbers")
    if a.dtype.type not in _ID_DTYPES:
        a = a.astype(np.int64)
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "i" and a.size and a.min() < 0:
        i = int(np.argmax(a < 0))
        raise UsageError(f"{name}[{i}] = {int(a[i])} is negative: vertex ids must be >= 0")
    return a


def _check_sparse_arrays(matrix):
    """Checks the index arrays of a SciPy sparse matrix before SciPy's own
    conversions read them: those trust indptr, and a lying one corrupts the
    heap. Raises InputError naming the array and what is wrong."""
    fmt = matrix.format
    rows, cols = matrix.shape
    if fmt in ("csr", "csc", "bsr"):
        major, minor = (rows, cols) if fmt != "csc" else (cols, rows)
        if fmt == "bsr":
            r, c = matrix.blocksize
            major, minor = rows // r, cols // c
        indptr, indices = np.asarray(matrix.indptr), np.asarray(matrix.indices)
        data = np.asarray(matrix.data)
        if indptr.ndim != 1 or indptr.shape[0] != major + 1:
            raise InputError(f"{fmt} matrix: indptr has {indptr.size} entries, the shape {matrix.shape} "
                             f"needs {major + 1}: rebuild the matrix")
        if indices.ndim != 1 or data.shape[:1] != indices.shape:
            raise InputError(f"{fmt} matrix: {indices.size} indices but {data.shape[0] if data.ndim else 0} "
                             f"values: rebuild the matrix")
        if indptr[0] != 0 or int(indptr[-1]) != indices.shape[0]:
            raise InputError(f"{fmt} matrix: indptr must run from 0 to the number of stored entries "
                             f"({indices.shape[0]}), it runs from {int(indptr[0])} to {int(indptr[-1])}: "
                             f"rebuild the matrix")
        steps = np.diff(indptr)
        if steps.size and steps.min() < 0:
            i = int(np.argmax(steps < 0))
            raise InputError(f"{fmt} matrix: indptr decreases at position {i + 1} "
                             f"({int(indptr[i])} then {int(indptr[i + 1])}): rebuild the matrix")
        if indices.size and (indices.min() < 0 or indices.max() >= minor):
            bad = int(indices.min()) if indices.min() < 0 else int(indices.max())
            raise InputError(f"{fmt} matrix: index {bad} is outside 0..{minor - 1}: rebuild the matrix")
    elif fmt == "coo":
        row, col, data = (np.asarray(a) for a in (matrix.row, matrix.col, matrix.data))
        if not (row.shape == col.shape == data.shape[:1]) or row.ndim != 1:
            raise InputError(f"coo matrix: {row.size} rows, {col.size} columns and {data.size} values "
                             f"must have one entry each: rebuild the matrix")
        for name, a, bound in (("row", row, rows), ("col", col, cols)):
            if a.size and (a.min() < 0 or a.max() >= bound):
                bad = int(a.min()) if a.min() < 0 else int(a.max())
                raise InputError(f"coo matrix: {name} index {bad} is outside 0..{bound - 1}: rebuild the matrix")


def _weight_array(w, m):
    w = np.asarray(w)
    if w.ndim != 1 or w.shape[0] != m:
        raise UsageError(f"weights must be a 1-D array with one value per edge ({m}), got shape {w.shape}")
    if w.dtype.kind not in "iuf" or w.dtype == np.bool_:
        raise TypeError(f"weights must be integers or floats (got dtype {w.dtype})")
    integer = w.dtype.kind in "iu"
    if integer and w.size and np.abs(w).max() > _MAX_EXACT_INTEGER_WEIGHT:
        raise UsageError(f"integer weights above 2^24 cannot be stored exactly (weights are float32)")
    if not integer and w.size and not np.isfinite(w).all():
        i = int(np.argmax(~np.isfinite(w)))
        raise UsageError(f"weights[{i}] = {w[i]} is not a finite number")
    if not integer and w.size and np.abs(w).max() > np.finfo(np.float32).max:
        i = int(np.argmax(np.abs(w) > np.finfo(np.float32).max))
        raise UsageError(f"weights[{i}] = {w[i]} is beyond the range of float32 (about 3.4e38), "
                         f"the type weights are stored in: scale the weights down")
    return np.ascontiguousarray(w, dtype=np.float32), integer


_DIRECTED_NOTE = "edges taken as directed, one arc each (directed=False for undirected)"


def _with_notes(g, source, *, directed_given, drop_self_loops_given, dedupe_given, notes=(), decisions=None,
                settled=(), stacklevel=3):
    """Records in `g` what its builder decided by default and says it once
    (numagraph.notes): the direction when not given, the relabelling of
    sparse ids, and the self-loops and parallel edges removed."""
    core = g._g
    said = list(notes)
    found = {}
    for key, value, note in core.decisions:  # the C++ reader's and builder's, notes in Python's spelling
        found[key] = value
        if note and key not in settled:  # `settled`: the caller passed the argument that decides it
            said.append(note)
    if not directed_given and "directed" not in found:
        said.insert(0, _DIRECTED_NOTE)
    if core.notice and "relabel" not in found:
        said.append(core.notice)
    said += cleaning_notes(core, drop_self_loops_given, dedupe_given)
    found.update(decisions or {})
    found = {k: (v == "true") if v in ("true", "false") else v for k, v in found.items()}
    found.setdefault("directed", bool(core.directed))
    found.setdefault("relabel", "on" if core.relabelled else "off")
    found["self_loops_removed"] = int(core.self_loops_removed)
    found["duplicates_removed"] = int(core.duplicates_removed)
    g._decisions = found
    announce(source, said, stacklevel=stacklevel)
    return g


class Graph:
    """A compressed-sparse-row graph: built once, read-only afterwards.

    Build one with :meth:`from_edges`, :meth:`from_scipy`, :meth:`from_networkx`,
    :func:`numagraph.read` or :mod:`numagraph.generate`. Vertices are dense ids
    ``0..num_vertices-1``; every per-vertex result array is indexed by them.
    When the input ids were relabelled (sparse ids, ``relabel=True``),
    :attr:`labels` maps dense id -> original id, and every function that takes a
    vertex takes the original id. Graphs made from NetworkX keep their node
    objects in :attr:`nodes`.

    A graph made by :meth:`reorder` (or read from a ``.ngr`` written by
    ``numagraph reorder``) is stored renumbered, and remembers how in
    :attr:`permutation`; kernels on it still take and return the ids of the
    graph it was made from, so only its CSR arrays (:attr:`indptr`,
    :attr:`indices`, :attr:`labels`...) show the new order.
    """

    __slots__ = ("_g", "_nodes", "_node_index", "_decisions", "__weakref__")

    def __init__(self, core, nodes=None):
        if not isinstance(core, _core.Graph):
            raise TypeError("use Graph.from_edges, Graph.from_scipy, Graph.from_networkx, "
                            "numagraph.read or numagraph.generate to build a Graph")
        self._g = core
        self._nodes = nodes
        self._node_index = None
        self._decisions = {}

    # ---- constructors -----------------------------------------------------
    @classmethod
    def from_edges(cls, src, dst, weights=None, num_vertices=None, directed=None, *,
                   drop_self_loops=None, dedupe=None, relabel="auto", name="edges"):
        """Graph from two id arrays (edge i is ``src[i] -> dst[i]``).

        The defaults are numagraph's one set, shared with :func:`read`,
        :meth:`from_pandas` and the CLI (docs/formats.md): edges are directed
        (``directed=False`` stores every edge both ways); self-loops are
        dropped (``drop_self_loops=False`` keeps them); parallel edges are
        merged, the smallest weight kept (``dedupe=False`` keeps them); ids are
        compacted to 0..k-1 when sparse (``relabel='auto'``; True always, False
        never; originals in :attr:`labels`), else used as given
        (``num_vertices`` defaults to max id + 1). A default that changed the
        graph (or chose the direction) is said once as an :class:`InputNote`
        warning naming the argument; pass the argument to settle it and
        silence the note. Weights: any integer or float array, stored as
        float32 (integers exact up to 2^24).
        """
        src = _id_array("src", src)
        dst = _id_array("dst", dst)
        if src.shape[0] != dst.shape[0]:
            raise UsageError(f"src and dst must have the same length (got {src.shape[0]} and {dst.shape[0]})")
        integer = False
        if weights is not None:
            weights, integer = _weight_array(weights, src.shape[0])
        if num_vertices is not None:
            num_vertices = int(num_vertices)
            if num_vertices < 0:
                raise UsageError(f"num_vertices must be >= 0 (got {num_vertices})")
        core = _core.from_edges(src, dst, weights, integer, num_vertices, directed is not False,
                                drop_self_loops is not False, dedupe is not False, _relabel_arg(relabel), str(name),
                                table_ids=True)
        return _with_notes(cls(core), f"{name} arrays", directed_given=directed is not None,
                           drop_self_loops_given=drop_self_loops is not None, dedupe_given=dedupe is not None)

    @classmethod
    def from_scipy(cls, matrix, directed=True, *, weighted=None, drop_self_loops=False):
        """Graph from a SciPy sparse adjacency matrix (row = source).

        ``directed=False`` treats the matrix as undirected: every stored entry
        becomes an edge both ways (a symmetric matrix gives each edge once).
        ``weighted`` (default: True unless every value is 1) keeps the values
        as weights.
        """
        import scipy.sparse as sp

        if not sp.issparse(matrix):
            raise TypeError(f"expected a scipy.sparse matrix or array (got {type(matrix).__name__})")
        if matrix.shape[0] != matrix.shape[1]:
            raise UsageError(f"an adjacency matrix must be square (got shape {matrix.shape})")
        _check_sparse_arrays(matrix)
        coo = matrix.tocoo()
        data = coo.data
        if weighted is None:
            weighted = bool(data.size) and not np.all(data == 1)
        return cls.from_edges(coo.row, coo.col, data if weighted else None, num_vertices=matrix.shape[0],
                              directed=bool(directed), drop_self_loops=bool(drop_self_loops), dedupe=True,
                              relabel=False, name="scipy")

    @classmethod
    def from_networkx(cls, G, weight=None, *, drop_self_loops=False):
        """Graph from a NetworkX (Di)Graph; node objects are kept in :attr:`nodes`.

        Node ``G.nodes`` order gives the dense ids. ``weight`` names the edge
        attribute to use as weight (missing values count 1); None: unweighted.
        """
        if G.is_multigraph():
            raise UsageError("multigraphs are not supported: convert with nx.Graph(G) or nx.DiGraph(G)")
        nodes = list(G)
        index = {u: i for i, u in enumerate(nodes)}
        m = G.number_of_edges()
        src = np.empty(m, dtype=np.int64)
        dst = np.empty(m, dtype=np.int64)
        w = np.empty(m, dtype=np.float64) if weight is not None else None
        if weight is None:
            for i, (u, v) in enumerate(G.edges()):
                src[i] = index[u]
                dst[i] = index[v]
        else:
            for i, (u, v, x) in enumerate(G.edges(data=weight, default=1)):
                src[i] = index[u]
                dst[i] = index[v]
                w[i] = x
        core = _core.from_edges(src, dst, *(_weight_array(w, m) if w is not None else (None, False)),
                                len(nodes), G.is_directed(), bool(drop_self_loops), True, "off", "networkx")
        return cls(core, nodes)

    # ---- reordering ---------------------------------------------------------
    def reorder(self, order, root=None):
        """A new Graph, renumbered in a vertex order, that answers in this graph's ids.

        ``order``: "none", "degree" (descending degree), "dbg" (degree-based
        grouping), "rcm" (reverse Cuthill-McKee), "adl" or "adl-serial" (the
        BC paper's adaptive data layout); docs/reordering.md. ``root`` (a
        vertex id as the kernels take it) is where rcm and adl start their first
        search; default: the highest-degree vertex. Every kernel on the result
        returns arrays indexed by, and ids equal to, this graph's ids (the
        graph the user loaded, when this one was itself reordered: reorders
        compose). :attr:`permutation` says where each vertex went;
        :meth:`save` to ``.ngr`` keeps it. This is the way to run kernels in
        another order from Python: reorder once, call the kernels many times.
        Cost of the order: :attr:`reorder_seconds`.
        """
        r = None if root is None else self._vertex(root)
        return Graph(_core.reorder(self._g, str(order), r), self._nodes)

    permutation = property(lambda self: self._g.permutation,
                           doc="For a reordered graph, the original id of each stored vertex (a read-only view "
                               "of old_of_new: stored vertex i is vertex permutation[i] of the graph the user "
                               "loaded); None when the graph is in its own order.")
    reorder_seconds = property(lambda self: self._g.reorder_s,
                               doc="Seconds :meth:`reorder` spent computing the order (0 for other graphs).")
    reorder_bfs_equiv = property(lambda self: self._g.reorder_bfs_equiv,
                                 doc="reorder_seconds in runs of one flat BFS on the same graph.")

    # ---- output -------------------------------------------------------------
    def save(self, path, format=None):
        """Writes the graph: .el, .wel, .mtx, .csv, .tsv or .ngr (numagraph's binary CSR, mmap-loaded).

        A reordered graph keeps its order and :attr:`permutation` in .ngr;
        edge lists get the original ids; .mtx has no place for them and is
        refused. A graph read with vertex names keeps them in .ngr, .csv and
        .tsv (``numagraph.read`` gives :attr:`nodes` back); the other formats
        would lose them and are refused. So are node objects that exist only
        in Python (graphs from NetworkX, names that are not all strings): no
        file format keeps them.
        """
        if (self._nodes is not None and self._g.vertex_names is None
                and list(self._nodes) != list(range(self.num_vertices))):
            raise UsageError("this graph's vertices are Python objects (from NetworkX or a table whose names are "
                             "not all strings), which no graph file keeps: save g.to_pandas() with pandas "
                             "(e.g. .to_csv(path, index=False)), or build the graph from string names")
        _core.save(self._g, os.fspath(path), format or "")

    def to_scipy(self):
        """The out-adjacency as a scipy.sparse.csr_array (weights, or ones).

        SciPy needs signed index arrays, so uint32 column ids are converted
        (one copy of the column array); the values are a view when weighted.
        """
        import scipy.sparse as sp

        n = self.num_vertices
        indptr = self.indptr if self.indptr is not None else np.zeros(n + 1, dtype=np.int64)
        indices = self.indices if self.indices is not None else np.zeros(0, dtype=np.int64)
        data = self.weights if self.weights is not None else np.ones(indices.shape[0], dtype=np.float32)
        idx_dtype = np.int32 if indptr[-1] < 2**31 and n < 2**31 else np.int64
        return sp.csr_array((data, indices.astype(idx_dtype), indptr.astype(idx_dtype)), shape=(n, n))

    def to_networkx(self):
        """A NetworkX Graph/DiGraph with the same vertices (node objects or labels) and edges."""
        import networkx as nx

        G = nx.DiGraph() if self.directed else nx.Graph()
        ids = self.vertex_ids()
        G.add_nodes_from(ids)
        indptr, indices, w = self.indptr, self.indices, self.weights
        if indptr is None or indices is None:
            return G
        p = self.permutation
        if p is not None:  # stored ids -> the caller's ids vertex_ids() is indexed by
            ids = [ids[i] for i in p.tolist()] if not isinstance(ids, np.ndarray) else ids[p]
        src = np.repeat(np.arange(self.num_vertices), np.diff(indptr))
        if w is None:
            G.add_edges_from((ids[u], ids[v]) for u, v in zip(src.tolist(), indices.tolist()))
        else:
            G.add_weighted_edges_from((ids[u], ids[v], x) for u, v, x in zip(src.tolist(), indices.tolist(), w.tolist()))
        return G

    # ---- edge tables: pandas, Arrow, Parquet (numagraph.dataframes) ----------
    @classmethod
    def from_pandas(cls, df, source=None, target=None, weight="auto", *, directed=None,
                    drop_self_loops=None, dedupe=None, relabel="auto", num_vertices=None):
        """Graph from the edge table in a pandas DataFrame (one row per edge).

        The defaults read a table as :func:`numagraph.read` and the CLI read
        the same table written with ``df.to_csv``: the same columns, weights,
        direction, relabelling and cleaning, so the same graph and the same
        results (docs/formats.md). Every choice the table does not settle is
        said once as an :class:`InputNote` naming the argument that settles it.

        Parameters
        ----------
        df : pandas.DataFrame
        source, target : str, optional
            Column names of the edge endpoints; default: the columns named
            ``source`` and ``target``, else the first two (a leftover row
            index such as ``Unnamed: 0`` counting 0, 1, 2, ... is skipped).
            Integer columns are vertex ids
            (NumPy dtypes are passed on as views; nullable ``Int64`` columns
            are copied once). Float columns are accepted when every value is a
            whole number (copied to int64). String, categorical and object
            columns are vertex names: both columns are numbered together in
            order of first appearance, row by row (source, then target), and
            the names are kept in :attr:`nodes`, so kernels take names as
            vertices and :meth:`vertex_ids` / :meth:`to_dict` give them back.
        weight : str, "auto" or None
            Column of edge weights (integers or floats, stored as float32).
            "auto" (default): the column named ``weight``, else the first other
            column when it is numeric and its name is not that of a date, a
            time or an id (``since``, ``year``, ``timestamp``, ``user_id``...);
            None: unweighted.
        directed, drop_self_loops, dedupe, relabel, num_vertices
            As :meth:`from_edges`: directed, self-loops dropped, parallel
            edges merged, sparse ids relabelled (``relabel`` and
            ``num_vertices`` apply to integer ids only).

        Raises
        ------
        ImportError
            pandas is missing (``pip install numagraph[dataframe]``).
        UsageError
            A column is missing (the message lists the columns there are), or
            an id is negative or a float id is not a whole number.
        InputError
            An id or weight is null (the message names the column and row).
        TypeError
            A column has a type that cannot be ids, names or weights.
        """
        from . import dataframes

        return dataframes.from_pandas(cls, df, source, target, weight, directed=directed,
                                      drop_self_loops=drop_self_loops, dedupe=dedupe, relabel=relabel,
                                      num_vertices=num_vertices, name="pandas")

    @classmethod
    def from_arrow(cls, table, source=None, target=None, weight="auto", *, directed=None,
                   drop_self_loops=None, dedupe=None, relabel="auto", num_vertices=None):
        """Graph from the edge table in a pyarrow Table or RecordBatch.

        Columns are read as in :meth:`from_pandas`: an integer column without
        nulls in one chunk reaches the builder as a zero-copy NumPy view
        (several chunks, as Parquet row groups give, are concatenated: one
        copy); string and dictionary columns are vertex names kept in
        :attr:`nodes`. Keywords as :meth:`from_edges`. Errors as
        :meth:`from_pandas` (ImportError names ``numagraph[dataframe]`` when
        pyarrow is missing).
        """
        from . import dataframes

        return dataframes.from_arrow(cls, table, source, target, weight, directed=directed,
                                     drop_self_loops=drop_self_loops, dedupe=dedupe, relabel=relabel,
                                     num_vertices=num_vertices, name="arrow")

    def to_pandas(self, source="source", target="target", weight="weight"):
        """The edges as a pandas DataFrame, in the caller's ids (see :meth:`vertex_ids`).

        One row per arc of a directed graph, one per edge ``u <= v`` of an
        undirected one. Ids have the graph's id dtype (uint32 or uint64; the
        labels of a relabelled graph); a graph with :attr:`nodes` gives
        categorical columns whose categories are the node objects. A weighted
        graph adds the ``weight`` column (float32). The arrays are new (O(m)).
        """
        from . import dataframes

        return dataframes.to_pandas(self, source, target, weight)

    def to_arrow(self, source="source", target="target", weight="weight"):
        """The edges as a pyarrow Table: the columns of :meth:`to_pandas`.

        Node objects become dictionary-encoded columns (they must be of one
        Arrow type, e.g. all strings). The schema metadata records whether the
        graph is directed, for :func:`numagraph.read_parquet`.
        """
        from . import dataframes

        return dataframes.to_arrow(self, source, target, weight)

    def to_parquet(self, path, source="source", target="target", weight="weight", **kwargs):
        """Writes :meth:`to_arrow`'s table to a Parquet file (needs pyarrow).

        Keyword arguments go to ``pyarrow.parquet.write_table`` (e.g.
        ``compression="zstd"``). :func:`numagraph.read_parquet` reads the file
        back into the same graph (undirected graphs stay undirected).
        """
        from . import dataframes

        dataframes.to_parquet(self, path, source, target, weight, **kwargs)

    # ---- properties ---------------------------------------------------------
    num_vertices = property(lambda self: self._g.num_vertices, doc="Number of vertices.")
    num_edges = property(lambda self: self._g.num_edges,
                         doc="Edges: arcs for directed graphs; undirected edges counted once.")
    num_arcs = property(lambda self: self._g.num_arcs, doc="Stored arcs (undirected: both directions).")
    directed = property(lambda self: self._g.directed, doc="True for directed graphs.")
    weighted = property(lambda self: self._g.weighted, doc="True when edges carry weights.")
    relabelled = property(lambda self: self._g.relabelled, doc="True when ids were compacted (see labels).")
    id_bits = property(lambda self: self._g.id_bits, doc="32 or 64: the width of vertex ids in C++.")
    nbytes = property(lambda self: self._g.nbytes, doc="Bytes held by the graph's arrays.")
    name = property(lambda self: self._g.name, doc="File name or generator description.")
    self_loops_removed = property(lambda self: self._g.self_loops_removed, doc="Self-loops the builder dropped.")
    duplicates_removed = property(lambda self: self._g.duplicates_removed,
                                  doc="Duplicate arcs the builder dropped (undirected: both directions count).")
    indptr = property(lambda self: self._g.indptr,
                      doc="Out-edge offsets (int64, n+1 entries): a read-only zero-copy view.")
    indices = property(lambda self: self._g.indices,
                       doc="Out-neighbours, sorted per vertex (uint32/uint64): a read-only zero-copy view.")
    weights = property(lambda self: self._g.weights, doc="Out-edge weights (float32 view) or None.")
    in_indptr = property(lambda self: self._g.in_indptr, doc="In-edge offsets (the out ones when undirected).")
    in_indices = property(lambda self: self._g.in_indices, doc="In-neighbours (the out ones when undirected).")
    labels = property(lambda self: self._g.labels,
                      doc="Original id of each dense id (uint64 view) when relabelled, else None.")
    nodes = property(lambda self: self._nodes,
                     doc="Node objects (graphs from NetworkX), vertex names (CSV/TSV with names), else None.")
    decisions = property(lambda self: dict(self._decisions),
                         doc="What was decided while reading or building this graph (a new dict): keys such as "
                             "'header', 'weight_column', 'directed', 'relabel', 'ids', 'self_loops_removed', with "
                             "the values the CLI's --json 'input' record has; docs/formats.md lists them. Empty for "
                             "generated graphs.")

    @property
    def out_degree(self):
        """Out-degree per vertex: np.diff(indptr), a new int64 array (O(n), not a view)."""
        p = self.indptr
        return np.diff(p) if p is not None else np.zeros(self.num_vertices, dtype=np.int64)

    @property
    def in_degree(self):
        """In-degree per vertex: np.diff(in_indptr), a new int64 array."""
        p = self.in_indptr
        return np.diff(p) if p is not None else np.zeros(self.num_vertices, dtype=np.int64)

    def vertex_ids(self):
        """The user-facing id of every dense vertex, as result arrays are indexed:
        node objects, labels, or 0..n-1 (for a reordered graph, in its original order)."""
        if self._nodes is not None:
            return self._nodes
        labels = self.labels
        if labels is not None:
            p = self.permutation
            if p is None:
                return labels
            ordered = np.empty_like(labels)
            ordered[p] = labels  # stored vertex i is original vertex p[i]
            return ordered
        return np.arange(self.num_vertices)

    def to_dict(self, values):
        """{vertex id: value} for a per-vertex result array."""
        ids = self.vertex_ids()
        ids = ids.tolist() if isinstance(ids, np.ndarray) else ids
        return dict(zip(ids, np.asarray(values).tolist()))

    def _vertex(self, v):
        """The id C++ expects for user vertex `v` (node object, label or dense id)."""
        if self._nodes is not None:
            if self._node_index is None:
                self._node_index = {u: i for i, u in enumerate(self._nodes)}
            try:
                return self._node_index[v]
            except (KeyError, TypeError):
                raise UsageError(f"vertex {v!r} is not in the graph") from None
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"vertex ids are integers (got {type(v).__name__})")
        if v < 0:
            raise UsageError(f"vertex {v} is negative: vertex ids are >= 0")
        return int(v)

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        w = ", weighted" if self.weighted else ""
        from ._words import count_of

        return (f"<numagraph.Graph {self.name!r}: {count_of(self.num_vertices, 'vertex', 'vertices')}, "
                f"{count_of(self.num_edges, 'edge')}, {kind}{w}>")


def read(path, format=None, *, directed=None, drop_self_loops=None, dedupe=None, relabel="auto", header=None,
         weight="auto"):
    """Reads a graph file: .el .wel .txt (SNAP) .mtx .gr .graph (METIS) .sg .wsg .ngr .csv .tsv, optionally .gz.

    The format comes from the extension unless ``format`` names one ("el",
    "wel", "snap", "mtx", "gr", "metis", "sg", "wsg", "ngr", "csv", "tsv",
    "parquet"). Formats that say whether edges are directed are read as they
    say (mtx symmetric and METIS: undirected); edge lists and tables are read
    as directed, with a note, unless ``directed`` is given (False stores every
    edge both ways). Self-loops and duplicate edges are dropped as the CLI
    kernels do (``drop_self_loops=False``, ``dedupe=False`` keep them); sparse
    ids are relabelled (``relabel='auto'``; originals in
    :attr:`Graph.labels`). Errors: IoError (missing file), InputError
    (file:line: what is wrong, and what to do).

    Nothing about the file is guessed silently: each decision the file does
    not settle (header line, weight column, index column, direction, names,
    relabelling, dropped self-loops) is said once as an :class:`InputNote`
    warning naming the argument that settles it, and kept in
    :attr:`Graph.decisions`. docs/formats.md has the rules and a table of
    common file shapes.

    ``header``: None detects a header line (CSV, TSV and edge lists with
    names), True/False say whether the first line is one. ``weight``: "auto"
    takes a third column as weights when it is numeric and not named like a
    date or an id; a column number (1-based) or header name chooses one; None
    ignores weights, in every format. When any id is not a non-negative
    integer, every id is a name: the graph's :attr:`Graph.nodes` are then the
    names (str, numbered in order of first appearance): kernels take names
    (``numagraph.bfs(g, "alice")``) and ``g.to_dict(result)`` is keyed by them.

    Parquet (``.parquet`` or ``format="parquet"``, needs pyarrow): columns are
    chosen as :func:`numagraph.read_parquet` chooses them.
    """
    if format == "parquet" or (format is None and os.fspath(path).endswith(".parquet")):
        from .dataframes import read_parquet

        if header is not None:
            raise UsageError("header= applies to text files, not Parquet")
        return read_parquet(path, weight=weight, directed=directed, drop_self_loops=drop_self_loops,
                            dedupe=dedupe, relabel=relabel, _stacklevel=6)
    if weight == "auto":
        weight_column = ""
    elif weight is None or weight is False:
        weight_column = "none"
    elif isinstance(weight, (int, np.integer)) and not isinstance(weight, bool):
        weight_column = str(int(weight))
    elif isinstance(weight, str) and weight:
        weight_column = weight
    else:
        raise UsageError(f"weight must be 'auto', None, a column number or a column name (got {weight!r})")
    core = _core.read(os.fspath(path), format or "", None if directed is None else bool(directed),
                      drop_self_loops is not False, dedupe is not False, _relabel_arg(relabel),
                      None if header is None else bool(header), weight_column)
    if directed is True and not core.directed:
        raise UsageError(f"{os.fspath(path)} declares its edges undirected (a symmetric Matrix Market or a METIS "
                         f"file), so directed=True cannot apply: leave directed unset")
    g = Graph(core, core.vertex_names)
    return _with_notes(g, os.fspath(path), directed_given=True, drop_self_loops_given=drop_self_loops is not None,
                       dedupe_given=dedupe is not None, settled=("directed",) if directed is not None else ())

"""Edge tables: graphs from and to pandas DataFrames, Arrow tables and Parquet files.

pandas and pyarrow are optional (``pip install numagraph[dataframe]``); each
function imports what it needs and says which extra to install when it is
missing. The graph-facing entry points are :meth:`numagraph.Graph.from_pandas`,
:meth:`~numagraph.Graph.from_arrow`, :meth:`~numagraph.Graph.to_pandas`,
:meth:`~numagraph.Graph.to_arrow`, :meth:`~numagraph.Graph.to_parquet` and
:func:`numagraph.read_parquet`; this module holds their column handling.

Id columns are read as follows. Integer columns without nulls are handed to
the C++ builder as NumPy views (no copy in Python; the builder copies them once
into its own 64-bit edge arrays, as it does for every ``from_edges`` input).
Float columns are accepted when every value is a whole number (one copy to
int64). String, categorical, dictionary and object columns are vertex names:
the two columns are numbered together in order of first appearance, row by
row (source, then target), and the names become :attr:`Graph.nodes`.
"""
from __future__ import annotations

import numpy as np

from . import _core
from ._core import InputError, UsageError
from ._words import count_of

_EXTRA = "pip install numagraph[dataframe]"
_DIRECTED_KEY = b"numagraph.directed"
# Largest float that still holds every smaller integer exactly.
_MAX_EXACT_FLOAT_ID = float(1 << 53)


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError(f"this needs pandas, which is not installed: {_EXTRA} (or pip install pandas)") from None
    return pandas


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.compute  # noqa: F401  (the submodule is not imported by pyarrow itself)
    except ImportError:
        raise ImportError(f"this needs pyarrow, which is not installed: {_EXTRA} (or pip install pyarrow)") from None
    return pyarrow


def _parquet():
    _pyarrow()
    import pyarrow.parquet

    return pyarrow.parquet


# ---- one id column -> (kind, values) ---------------------------------------
# kind "ids": a 1-D integer NumPy array; kind "names": a column to factorize.

def _whole_floats(column, values):
    """int64 copy of a float id column, or an error naming the first bad row."""
    ok = np.isfinite(values) & (values == np.floor(values)) & (np.abs(values) < _MAX_EXACT_FLOAT_ID)
    if not ok.all():
        row = int(np.argmax(~ok))
        raise UsageError(f"column {column!r} row {row}: {float(values[row])!r} is not a whole number, so it cannot be a "
                         f"vertex id; integer ids in a float column are accepted, anything else must be cast "
                         f"to strings to be used as vertex names")
    return values.astype(np.int64)


def _check_ids(column, ids):
    if ids.dtype.kind == "i" and ids.size and ids.min() < 0:
        row = int(np.argmax(ids < 0))
        raise UsageError(f"column {column!r} row {row}: id {int(ids[row])} is negative: vertex ids must be >= 0 "
                         f"(cast the column to strings to use the values as vertex names)")
    return ids


def _missing(role, column, available):
    return UsageError(f"{role} column {column!r} is not in the table; its columns are: "
                      f"{', '.join(repr(c) for c in available)}")


def _pandas_column(df, column, role):
    pd = _pandas()
    if column not in df.columns:
        raise _missing(role, column, list(df.columns))
    s = df[column]
    if isinstance(s, pd.DataFrame):
        raise UsageError(f"{role} column {column!r} appears {s.shape[1]} times in the DataFrame: rename the copies")
    dtype = s.dtype
    if pd.api.types.is_bool_dtype(dtype):
        raise TypeError(f"column {column!r} holds booleans (dtype {dtype}): vertex ids must be integers or names")
    numeric = pd.api.types.is_integer_dtype(dtype) or pd.api.types.is_float_dtype(dtype)
    if not (isinstance(dtype, np.dtype) and dtype.kind in "iu"):  # only NumPy integer columns cannot hold nulls
        null = s.isna().to_numpy()
        if null.any():
            row = int(np.argmax(null))
            raise InputError(f"column {column!r} row {row} (index {s.index[row]!r}) is null: every edge needs a "
                             f"{role}; drop such rows first, e.g. df.dropna(subset=[{column!r}])")
    if pd.api.types.is_integer_dtype(dtype):
        # NumPy dtypes: a view; nullable Int64 & co (checked free of nulls above): one copy.
        np_dtype = dtype if isinstance(dtype, np.dtype) else np.dtype(dtype.numpy_dtype)
        return "ids", _check_ids(column, s.to_numpy(dtype=np_dtype))
    if numeric:
        return "ids", _check_ids(column, _whole_floats(column, s.to_numpy(dtype=np.float64)))
    return "names", s


def _arrow_column(table, column, role):
    pa = _pyarrow()
    names = table.schema.names
    if column not in names:
        raise _missing(role, column, names)
    if names.count(column) > 1:
        raise UsageError(f"{role} column {column!r} appears {names.count(column)} times in the table: rename the copies")
    col = table.column(column)
    if isinstance(col, pa.Array):
        col = pa.chunked_array([col], type=col.type)
    t = col.type
    if col.null_count:
        row = pa.compute.index(pa.compute.is_null(col), True).as_py()
        raise InputError(f"column {column!r} row {row} is null: every edge needs a {role}; drop such rows first, "
                         f"e.g. table.filter(pyarrow.compute.is_valid(table[{column!r}]))")
    if pa.types.is_boolean(t):
        raise TypeError(f"column {column!r} holds booleans ({t}): vertex ids must be integers or names")
    if pa.types.is_integer(t):
        np_type = t.to_pandas_dtype()
        if col.num_chunks == 1:
            ids = col.chunk(0).to_numpy(zero_copy_only=True)  # a view of Arrow's buffer
        elif col.num_chunks == 0:
            ids = np.zeros(0, dtype=np_type)
        else:
            ids = col.to_numpy()  # several chunks (Parquet row groups): one concatenating copy
        return "ids", _check_ids(column, ids)
    if pa.types.is_floating(t):
        return "ids", _check_ids(column, _whole_floats(column, col.to_numpy().astype(np.float64, copy=False)))
    if pa.types.is_dictionary(t):
        col = col.cast(t.value_type)
        t = col.type
    if (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t)
            or pa.types.is_large_binary(t) or getattr(pa.types, "is_string_view", lambda _: False)(t)):
        return "names", col
    raise TypeError(f"column {column!r} has type {t}: vertex ids must be integers, or strings used as vertex names")


# ---- which columns: source, target, weight ------------------------------------
# One rule for every table (DataFrame, Arrow, Parquet) and, in C++, for CSV and
# TSV files (docs/formats.md): a table written to CSV and read back is read the
# same way.

def _is_index(name, values):
    """A leftover row index: pandas' unnamed index ('' or 'Unnamed: 0' once a CSV
    was read back) counting 0, 1, 2, ... or 1, 2, 3, ..."""
    if not (name in ("", "index") or str(name).startswith("Unnamed: ")):
        return False
    v = np.asarray(values)
    if v.dtype.kind not in "iu" or v.size == 0:
        return False
    return bool(v[0] in (0, 1) and np.array_equal(v, np.arange(v[0], v[0] + v.size)))


def _weight_name_verdict(name):
    """(True, why) when a numeric column named `name` may hold weights,
    (False, why) when its name says it holds something else."""
    return _core.weight_column_name_verdict(str(name))


def choose_columns(columns, values_of, numeric, source, target, weight):
    """(source, target, weight, notes, decisions): the columns to read.

    `values_of(c)` gives a column's values as a NumPy array (only called for a
    possible index), `numeric(c)` whether a column holds numbers. source and
    target None: the columns named "source" and "target", else the first two
    (after a leftover index); weight "auto": the column named "weight", else
    the first other column when it is numeric and not named like a date or an
    id; None: no weights.
    """
    notes, decisions = [], {}
    cols = list(columns)
    if source is None and target is None:
        if "source" in cols and "target" in cols:
            source, target = "source", "target"
        else:
            data = cols
            if len(cols) >= 3 and _is_index(cols[0], values_of(cols[0])):
                notes.append(f"skipped column {cols[0]!r}: a row index (0, 1, 2, ...)")
                decisions["index_column"] = str(cols[0])
                data = cols[1:]
            if len(data) < 2:
                raise UsageError(f"an edge table needs a source and a target column; its columns are: "
                                 f"{', '.join(repr(c) for c in cols)}")
            source, target = data[0], data[1]
            notes.append(f"edges from column {source!r} to column {target!r} (the first two; source=, target= "
                         f"choose others)")
    elif source is None or target is None:
        raise UsageError("give both source= and target= (or neither: the columns named source and target, else "
                         "the first two)")
    decisions["source_column"], decisions["target_column"] = str(source), str(target)
    rest = [c for c in cols if c not in (source, target) and c != decisions.get("index_column")]
    if weight == "auto":
        weight = None
        if "weight" in rest:
            weight = "weight"
            if not numeric("weight"):
                raise UsageError("column 'weight' does not hold numbers: pass weight=None to ignore it, or convert it")
        elif rest:
            first = rest[0]
            ok, why = _weight_name_verdict(first)
            if ok and numeric(first):
                weight = first
                notes.append(f"weights from column {first!r} ({why}; weight=None ignores it)")
            else:
                reason = why if not ok else "not numeric"
                notes.append(f"column {first!r} is not used as weights ({reason}; weight={first!r} uses it)")
        noted = weight if weight is not None else (rest[0] if rest else None)  # said above
        others = [c for c in rest if c != noted]
        if others:
            notes.append(f"ignored {count_of(len(others), 'column')}: {', '.join(repr(c) for c in others)}")
    decisions["weight_column"] = "none" if weight is None else str(weight)
    return source, target, weight, notes, decisions


# ---- names -> dense ids ------------------------------------------------------

def _first_appearance(codes, m, k):
    """Renumbers codes 0..k-1 of the concatenation [sources; targets] (length
    2m) in order of first appearance row by row: source 0, target 0, source 1..."""
    inter = np.empty(2 * m, dtype=np.int64)
    inter[0::2] = codes[:m]
    inter[1::2] = codes[m:]
    _, first = np.unique(inter, return_index=True)  # every code occurs, so the uniques are 0..k-1
    order = np.argsort(first, kind="stable")        # old codes, first seen first
    rank = np.empty(k, dtype=np.int64)
    rank[order] = np.arange(k, dtype=np.int64)
    return rank[inter[0::2]], rank[inter[1::2]], order


def _names_pandas(src, dst):
    pd = _pandas()
    m = len(src)
    if src.dtype != dst.dtype:  # e.g. categorical and string: compare the values
        src, dst = src.astype(object), dst.astype(object)
    both = pd.concat([src, dst], ignore_index=True)
    codes, uniques = pd.factorize(both, sort=False)
    uniques = list(uniques)
    s, d, order = _first_appearance(np.asarray(codes, dtype=np.int64), m, len(uniques))
    return s, d, [uniques[i] for i in order]


def _names_arrow(src, dst, columns):
    pa = _pyarrow()
    if src.type != dst.type:
        try:
            dst = dst.cast(src.type)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            raise TypeError(f"columns {columns[0]!r} ({src.type}) and {columns[1]!r} ({dst.type}) must hold names "
                            f"of one type: cast one to the other's type") from None
    m = len(src)
    both = pa.chunked_array(src.chunks + dst.chunks, type=src.type)
    uniques = pa.compute.unique(both)
    codes = pa.compute.index_in(both, value_set=uniques).to_numpy().astype(np.int64, copy=False)
    s, d, order = _first_appearance(codes, m, len(uniques))
    names = uniques.to_pylist()
    return s, d, [names[i] for i in order]


def _mixed(columns, kinds):
    named = columns[0] if kinds[0] == "names" else columns[1]
    other = columns[1] if kinds[0] == "names" else columns[0]
    return TypeError(f"column {named!r} holds vertex names but {other!r} holds integer ids: both must be of one "
                     f"kind; cast the integer column to strings (pandas: df[{other!r}].astype(str))")


# ---- the builder ----------------------------------------------------------

def _build(cls, src, dst, kinds, weights, names_of, columns, *, directed, drop_self_loops, dedupe, relabel,
           num_vertices, name, notes=(), decisions=None, stacklevel=5):
    from .graph import _relabel_arg, _weight_array, _with_notes

    if kinds[0] != kinds[1]:
        raise _mixed(columns, kinds)
    nodes = None
    if kinds[0] == "names":
        if num_vertices is not None:
            raise UsageError("num_vertices applies to integer ids; with vertex names the graph has one vertex per name")
        if relabel not in (False, "off", "auto"):
            raise UsageError("relabel=True applies to integer ids; vertex names are numbered densely already")
        src, dst, nodes = names_of(src, dst)
        num_vertices, relabel = len(nodes), "off"
    m = src.shape[0]
    w, integer = (None, False) if weights is None else _weight_array(weights, m)
    if num_vertices is not None:
        num_vertices = int(num_vertices)
        if num_vertices < 0:
            raise UsageError(f"num_vertices must be >= 0 (got {num_vertices})")
    src, dst = np.ascontiguousarray(src), np.ascontiguousarray(dst)
    if src.dtype.type not in (np.int32, np.int64, np.uint32, np.uint64):
        src = src.astype(np.int64)
    if dst.dtype.type not in (np.int32, np.int64, np.uint32, np.uint64):
        dst = dst.astype(np.int64)
    # String names are kept by the C++ graph too, so save() to .ngr keeps them.
    names = list(nodes) if nodes is not None and all(isinstance(x, str) for x in nodes) else None
    core = _core.from_edges(src, dst, w, integer, num_vertices, directed is not False, drop_self_loops is not False,
                            dedupe is not False, _relabel_arg(relabel), str(name), names=names,
                            table_ids=nodes is None)
    decisions = dict(decisions or {})
    decisions["ids"] = "names" if nodes is not None else "integers"
    return _with_notes(cls(core, nodes), name, directed_given=directed is not None,
                       drop_self_loops_given=drop_self_loops is not None, dedupe_given=dedupe is not None,
                       notes=notes, decisions=decisions, stacklevel=stacklevel)


def from_pandas(cls, df, source, target, weight, *, directed, drop_self_loops, dedupe, relabel, num_vertices, name):
    pd = _pandas()
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame (got {type(df).__name__})")
    numeric = lambda c: (pd.api.types.is_numeric_dtype(df[c].dtype)  # noqa: E731
                         and not pd.api.types.is_bool_dtype(df[c].dtype))
    source, target, weight, notes, decisions = choose_columns(
        df.columns, lambda c: df[c].to_numpy(), numeric, source, target, weight)
    ks, s = _pandas_column(df, source, "source")
    kt, t = _pandas_column(df, target, "target")
    w = None
    if weight is not None:
        if weight not in df.columns:
            raise _missing("weight", weight, list(df.columns))
        col = df[weight]
        if col.isna().any():
            row = int(np.argmax(col.isna().to_numpy()))
            raise InputError(f"column {weight!r} row {row} (index {col.index[row]!r}) is null: give every edge a "
                             f"weight, e.g. df.fillna({{{weight!r}: 1}})")
        if not (pd.api.types.is_integer_dtype(col.dtype) or pd.api.types.is_float_dtype(col.dtype)) \
                or pd.api.types.is_bool_dtype(col.dtype):
            raise TypeError(f"weight column {weight!r} has dtype {col.dtype}: weights must be integers or floats")
        w = col.to_numpy(dtype=col.dtype if isinstance(col.dtype, np.dtype) else np.dtype(col.dtype.numpy_dtype))
    return _build(cls, s, t, (ks, kt), w, _names_pandas, (source, target), directed=directed,
                  drop_self_loops=drop_self_loops, dedupe=dedupe, relabel=relabel, num_vertices=num_vertices,
                  name=name, notes=notes, decisions=decisions)


def from_arrow(cls, table, source, target, weight, *, directed, drop_self_loops, dedupe, relabel, num_vertices,
               name, stacklevel=5):
    pa = _pyarrow()
    if not isinstance(table, (pa.Table, pa.RecordBatch)):
        raise TypeError(f"expected a pyarrow Table or RecordBatch (got {type(table).__name__})")
    numeric = lambda c: (pa.types.is_integer(table.schema.field(c).type)  # noqa: E731
                         or pa.types.is_floating(table.schema.field(c).type))
    source, target, weight, notes, decisions = choose_columns(
        table.schema.names, lambda c: table.column(c).to_numpy(), numeric, source, target, weight)
    ks, s = _arrow_column(table, source, "source")
    kt, t = _arrow_column(table, target, "target")
    w = None
    if weight is not None:
        if weight not in table.schema.names:
            raise _missing("weight", weight, table.schema.names)
        col = table.column(weight)
        if col.null_count:
            row = pa.compute.index(pa.compute.is_null(col), True).as_py()
            raise InputError(f"column {weight!r} row {row} is null: give every edge a weight, e.g. "
                             f"table.set_column(..., pyarrow.compute.fill_null(table[{weight!r}], 1))")
        if not (pa.types.is_integer(col.type) or pa.types.is_floating(col.type)):
            raise TypeError(f"weight column {weight!r} has type {col.type}: weights must be integers or floats")
        w = col.to_numpy()
    return _build(cls, s, t, (ks, kt), w, lambda a, b: _names_arrow(a, b, (source, target)), (source, target),
                  directed=directed, drop_self_loops=drop_self_loops, dedupe=dedupe, relabel=relabel,
                  num_vertices=num_vertices, name=name, notes=notes, decisions=decisions, stacklevel=stacklevel)


def read_parquet(path, source=None, target=None, weight="auto", *, directed=None, drop_self_loops=None,
                 dedupe=None, relabel="auto", _stacklevel=5):
    """Reads a graph from the edge table in a Parquet file (needs pyarrow).

    Columns are chosen as :meth:`Graph.from_pandas` chooses them, and as the
    CSV reader does for the same table written as CSV: ``source`` and
    ``target`` default to the columns of those names, else the first two (a
    leftover row index skipped); ``weight="auto"`` takes the column named
    ``weight``, else the first other column when it is numeric and not named
    like a date or an id (``weight=None``: unweighted). Each such choice is
    said once as an :class:`numagraph.InputNote`.

    Parameters
    ----------
    path : str or os.PathLike
        The Parquet file.
    source, target : str, optional
        Columns of edge endpoints: integer ids, or vertex names (strings,
        dictionary-encoded strings) that become :attr:`Graph.nodes`, numbered
        in order of first appearance.
    weight : str, "auto" or None
        Column of edge weights (integers or floats, stored as float32).
    directed : bool, optional
        Default: what the file says when :meth:`Graph.to_parquet` wrote it, else
        directed (as an ``.el`` file is read, with a note). ``directed=False``
        stores every edge both ways.
    drop_self_loops, dedupe, relabel
        As :func:`numagraph.read`: self-loops and duplicate edges are dropped,
        sparse integer ids are relabelled (``relabel='auto'``).

    Returns
    -------
    Graph
        The same graph :func:`numagraph.read` gives for the same edges in an
        ``.el`` or ``.csv`` file, built with the same options.

    Raises
    ------
    ImportError
        pyarrow is missing (``pip install numagraph[dataframe]``).
    UsageError
        A column is missing (the message lists those present).
    InputError
        An id or weight is null (the message names the column and row).
    """
    import os

    from .graph import Graph

    pq = _parquet()
    path = os.fspath(path)
    if not os.path.exists(path):
        raise _core.IoError(f"{path}: no such file")
    schema = pq.read_schema(path)
    if source is not None and target is not None and weight != "auto":
        wanted = [source, target] + ([weight] if weight is not None else [])
        for role, c in zip(("source", "target", "weight"), wanted):
            if c not in schema.names:
                raise _missing(role, c, schema.names)
        table = pq.read_table(path, columns=list(dict.fromkeys(wanted)), memory_map=True)
    else:  # the columns are chosen from the whole table
        table = pq.read_table(path, memory_map=True)
    if directed is None and (schema.metadata or {}).get(_DIRECTED_KEY) is not None:
        directed = schema.metadata[_DIRECTED_KEY] != b"false"  # written by Graph.to_parquet: settled
    return from_arrow(Graph, table, source, target, weight, directed=directed, drop_self_loops=drop_self_loops,
                      dedupe=dedupe, relabel=relabel, num_vertices=None, name=path, stacklevel=_stacklevel)


# ---- graph -> edge table ------------------------------------------------------

def _edge_arrays(g):
    """(src, dst, weights, names) of every edge in the caller's ids; undirected edges once (u <= v)."""
    n = g.num_vertices
    indptr, indices, w = g.indptr, g.indices, g.weights
    if indptr is None or indices is None:
        idx = np.zeros(0, dtype=np.uint32 if g.id_bits == 32 else np.uint64)
        return idx, idx, (None if not g.weighted else np.zeros(0, dtype=np.float32)), g.nodes
    src = np.repeat(np.arange(n, dtype=indices.dtype), np.diff(indptr))
    dst = indices
    p = g.permutation
    if p is not None:  # stored ids -> the ids of the graph the user loaded
        p = np.asarray(p).astype(indices.dtype, copy=False)
        src, dst = p[src], p[dst]
    if not g.directed:
        keep = src <= dst
        src, dst = src[keep], dst[keep]
        w = w[keep] if w is not None else None
    labels = g.labels
    if g.nodes is None and labels is not None:
        ordered = g.vertex_ids()  # labels in the original order
        src, dst = ordered[src], ordered[dst]
    return src, dst, w, g.nodes


def to_pandas(g, source, target, weight):
    pd = _pandas()
    src, dst, w, nodes = _edge_arrays(g)
    if nodes is not None:
        categories = pd.Index(nodes, tupleize_cols=False)
        src = pd.Categorical.from_codes(src.astype(np.int64), categories=categories)
        dst = pd.Categorical.from_codes(dst.astype(np.int64), categories=categories)
    data = {source: src, target: dst}
    if w is not None:
        data[weight] = w
    return pd.DataFrame(data, copy=False)


def to_arrow(g, source, target, weight):
    pa = _pyarrow()
    src, dst, w, nodes = _edge_arrays(g)
    if nodes is not None:
        try:
            dictionary = pa.array(nodes)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            raise TypeError("the graph's node objects cannot be stored in Arrow (mixed or non-scalar types): "
                            "use Graph.to_pandas, which keeps them") from None
        src = pa.DictionaryArray.from_arrays(pa.array(src.astype(np.int64)), dictionary)
        dst = pa.DictionaryArray.from_arrays(pa.array(dst.astype(np.int64)), dictionary)
    arrays, names = [pa.array(src), pa.array(dst)], [source, target]
    if w is not None:
        arrays.append(pa.array(w))
        names.append(weight)
    metadata = {_DIRECTED_KEY: b"true" if g.directed else b"false"}
    return pa.Table.from_arrays(arrays, names=names, metadata=metadata)


def to_parquet(g, path, source, target, weight, **kwargs):
    import os

    pq = _parquet()
    pq.write_table(to_arrow(g, source, target, weight), os.fspath(path), **kwargs)


# ---- per-vertex results as DataFrames ------------------------------------------

def _user_ids(g, values):
    """Dense ids in a result (BFS parents, component members) -> the caller's ids.
    Only graphs with node objects need it: relabelled graphs already return labels."""
    if g.nodes is None:
        return values
    nodes = np.empty(len(g.nodes) + 1, dtype=object)
    nodes[:-1] = g.nodes
    nodes[-1] = None  # index -1 (unreached) -> None
    return nodes[np.asarray(values).astype(np.int64)]


def frame(g, columns, *, ids_in=()):
    """A pandas DataFrame of per-vertex arrays, indexed by g.vertex_ids()."""
    pd = _pandas()
    ids = g.vertex_ids()
    index = pd.Index(ids, tupleize_cols=False, name="vertex") if not isinstance(ids, np.ndarray) \
        else pd.Index(ids, name="vertex")
    data = {k: (_user_ids(g, v) if k in ids_in else v) for k, v in columns.items()}
    return pd.DataFrame(data, index=index, copy=False)

"""Edge tables: pandas, Arrow and Parquet in and out, vertex names, as_frame results.
The text readers and NetworkX are the oracles."""
import sys

import networkx as nx
import numpy as np
import pytest

pd = pytest.importorskip("pandas", reason="pandas is not installed (pip install numagraph[dataframe])")
pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install numagraph[dataframe])")
import pyarrow.parquet as pq  # noqa: E402

import numagraph as ng  # noqa: E402
from numagraph import dataframes  # noqa: E402


def random_edges(n=60, m=400, seed=7, weights=False):
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)  # with self-loops and duplicates
    w = rng.integers(1, 10, m) if weights else None
    return src, dst, w


def assert_same_csr(a, b):
    assert (a.num_vertices, a.directed, a.weighted) == (b.num_vertices, b.directed, b.weighted)
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.indices, b.indices)
    if a.weighted:
        np.testing.assert_array_equal(a.weights, b.weights)
    if a.labels is None or b.labels is None:
        assert a.labels is None and b.labels is None
    else:
        np.testing.assert_array_equal(a.labels, b.labels)


@pytest.mark.parametrize("weighted", [False, True])
def test_pandas_arrow_parquet_equal_the_text_reader(tmp_path, weighted):
    src, dst, w = random_edges(weights=weighted)
    cols = [src, dst] + ([w] if weighted else [])
    el = tmp_path / ("g.wel" if weighted else "g.el")
    np.savetxt(el, np.column_stack(cols), fmt="%d")
    text = ng.read(el)  # directed, self-loops and duplicates dropped
    df = pd.DataFrame({"u": src, "v": dst, **({"w": w} if weighted else {})})
    wname = "w" if weighted else None
    opts = dict(directed=True, drop_self_loops=True, dedupe=True)
    assert_same_csr(text, ng.Graph.from_pandas(df, "u", "v", wname, **opts))
    assert_same_csr(text, ng.Graph.from_arrow(pa.Table.from_pandas(df), "u", "v", wname, **opts))
    df.to_parquet(tmp_path / "pandas.parquet")  # written by pandas, no numagraph metadata: directed
    assert_same_csr(text, ng.read_parquet(tmp_path / "pandas.parquet", "u", "v", wname))
    text.to_parquet(tmp_path / "ng.parquet")
    back = ng.read_parquet(tmp_path / "ng.parquet", weight="weight" if weighted else None)
    assert_same_csr(text, back)
    assert_same_csr(text, ng.read(tmp_path / "ng.parquet"))  # read() finds the weight column itself


def test_parquet_round_trip_keeps_undirected_and_sparse_labels(tmp_path):
    src, dst, _ = random_edges()
    g = ng.Graph.from_pandas(pd.DataFrame({"source": src * 1000 + 5, "target": dst * 1000 + 5}), relabel=True, directed=False)
    assert g.relabelled and not g.directed
    g.to_parquet(tmp_path / "g.parquet")
    back = ng.read_parquet(tmp_path / "g.parquet", drop_self_loops=False, relabel=True)
    assert not back.directed
    assert_same_csr(g, back)
    edges = g.to_pandas()
    assert len(edges) == g.num_edges and (edges["source"] <= edges["target"]).all()  # each edge once
    assert set(edges["source"]) | set(edges["target"]) <= set((np.arange(60) * 1000 + 5).tolist())


def test_to_pandas_of_a_reordered_graph_gives_the_original_ids():
    src, dst, _ = random_edges()
    g = ng.Graph.from_edges(src, dst, directed=True)
    r = g.reorder("degree")
    assert r.permutation is not None
    key = lambda df: sorted(zip(df["source"].tolist(), df["target"].tolist()))  # noqa: E731
    assert key(r.to_pandas()) == key(g.to_pandas())
    assert key(r.to_arrow().to_pandas()) == key(g.to_pandas())


NAMED = [("paris", "lyon"), ("lyon", "nice"), ("nice", "paris"), ("oslo", "bergen"), ("lyon", "lille"),
         ("bergen", "tromso"), ("rome", "rome")]


def named_frame():
    return pd.DataFrame(NAMED, columns=["a", "b"])


def test_names_are_numbered_in_order_of_first_appearance_row_by_row():
    g = ng.Graph.from_pandas(named_frame(), "a", "b", directed=False)
    assert g.nodes == ["paris", "lyon", "nice", "oslo", "bergen", "lille", "tromso", "rome"]
    cat = named_frame().astype("category")  # categories sorted alphabetically: the order must not follow them
    assert ng.Graph.from_pandas(cat, "a", "b", directed=False).nodes == g.nodes
    assert ng.Graph.from_arrow(pa.Table.from_pandas(named_frame()), "a", "b", directed=False).nodes == g.nodes
    dict_table = pa.table({"a": pa.array([a for a, _ in NAMED]).dictionary_encode(),
                           "b": pa.array([b for _, b in NAMED]).dictionary_encode()})
    assert ng.Graph.from_arrow(dict_table, "a", "b", directed=False).nodes == g.nodes


@pytest.mark.parametrize("how", ["pandas", "arrow", "parquet"])
def test_names_match_networkx(tmp_path, how):
    df = named_frame()
    if how == "pandas":
        g = ng.Graph.from_pandas(df, "a", "b", directed=False, drop_self_loops=False)
    elif how == "arrow":
        g = ng.Graph.from_arrow(pa.Table.from_pandas(df), "a", "b", directed=False, drop_self_loops=False)
    else:  # names written by numagraph as dictionary columns, read back
        ng.Graph.from_pandas(df, "a", "b", directed=False, drop_self_loops=False).to_parquet(tmp_path / "n.parquet")
        g = ng.read_parquet(tmp_path / "n.parquet", drop_self_loops=False)
    G = nx.Graph(NAMED)
    assert sorted(g.vertex_ids()) == sorted(G)
    depth = g.to_dict(ng.bfs(g, "paris"))
    expect = nx.single_source_shortest_path_length(G, "paris")
    assert {k: v for k, v in depth.items() if v >= 0} == expect
    assert all(depth[k] == -1 for k in G if k not in expect)
    comp = g.to_dict(ng.connected_components(g))
    ours = {frozenset(k for k in G if comp[k] == c) for c in set(comp.values())}
    assert ours == {frozenset(c) for c in nx.connected_components(G)}
    assert set(map(frozenset, g.to_networkx().edges())) == set(map(frozenset, G.edges()))


def test_edge_table_of_a_named_graph_keeps_the_names():
    g = ng.Graph.from_pandas(named_frame(), "a", "b", directed=True, drop_self_loops=False)
    out = g.to_pandas()
    assert isinstance(out["source"].dtype, pd.CategoricalDtype)
    assert sorted(zip(out["source"].astype(str), out["target"].astype(str))) == sorted(NAMED)
    table = g.to_arrow()
    assert pa.types.is_dictionary(table.schema.field("source").type)
    assert table.schema.metadata[b"numagraph.directed"] == b"true"


def test_float_ids_holding_integers_are_accepted():
    src, dst, _ = random_edges()
    a = ng.Graph.from_pandas(pd.DataFrame({"source": src, "target": dst}), directed=False)
    b = ng.Graph.from_pandas(pd.DataFrame({"source": src.astype(float), "target": dst.astype(np.float32)}), directed=False)
    assert_same_csr(a, b)
    c = ng.Graph.from_arrow(pa.table({"source": src.astype(float), "target": dst.astype(float)}), directed=False)
    assert_same_csr(a, c)
    nullable = pd.DataFrame({"source": pd.array(src, dtype="Int64"), "target": pd.array(dst, dtype="UInt32")})
    assert_same_csr(a, ng.Graph.from_pandas(nullable, directed=False))


def test_integer_columns_reach_the_builder_without_a_copy():
    ids = np.arange(10, dtype=np.int64)
    df = pd.DataFrame({"source": ids})
    assert np.shares_memory(dataframes._pandas_column(df, "source", "source")[1], df["source"].to_numpy())
    table = pa.table({"source": ids})
    kind, view = dataframes._arrow_column(table, "source", "source")
    buffer = np.frombuffer(table.column("source").chunk(0).buffers()[1], dtype=np.int64)
    assert kind == "ids" and np.shares_memory(view, buffer)


def test_errors_name_the_column_and_row():
    with pytest.raises(ng.UsageError, match=r"source column 'src' is not in the table; its columns are: 'u', 'v'"):
        ng.Graph.from_pandas(pd.DataFrame({"u": [0], "v": [1]}), "src", "v", directed=False)
    with pytest.raises(ng.UsageError, match=r"weight column 'w' is not in the table; its columns are: 'u', 'v'"):
        ng.Graph.from_arrow(pa.table({"u": [0], "v": [1]}), "u", "v", "w", directed=False)
    with pytest.raises(ng.InputError, match=r"column 'v' row 2 .*is null"):
        ng.Graph.from_pandas(pd.DataFrame({"u": [0, 1, 2], "v": pd.array([1, 2, None], dtype="Int64")}), "u", "v", directed=False)
    with pytest.raises(ng.InputError, match=r"column 'u' row 1 .*is null"):
        ng.Graph.from_pandas(pd.DataFrame({"u": [0.0, np.nan], "v": [1, 2]}), "u", "v", directed=False)
    with pytest.raises(ng.InputError, match=r"column 'a' row 1 .*is null"):
        ng.Graph.from_pandas(pd.DataFrame({"a": ["x", None], "b": ["y", "z"]}), "a", "b", directed=False)
    with pytest.raises(ng.InputError, match=r"column 'v' row 1 is null"):
        ng.Graph.from_arrow(pa.table({"u": [0, 1], "v": [1, None]}), "u", "v", directed=False)
    with pytest.raises(ng.InputError, match=r"column 'w' row 0 .*is null"):
        ng.Graph.from_pandas(pd.DataFrame({"u": [0], "v": [1], "w": [np.nan]}), "u", "v", "w", directed=False)
    with pytest.raises(ng.UsageError, match=r"column 'u' row 1: 2.5 is not a whole number"):
        ng.Graph.from_pandas(pd.DataFrame({"u": [0.0, 2.5], "v": [1, 2]}), "u", "v", directed=False)
    with pytest.raises(ng.UsageError, match=r"column 'v' row 0: id -3 is negative"):
        ng.Graph.from_arrow(pa.table({"u": [0], "v": [-3]}), "u", "v", directed=False)
    with pytest.raises(TypeError, match=r"column 'u' holds booleans"):
        ng.Graph.from_pandas(pd.DataFrame({"u": [True], "v": [1]}), "u", "v", directed=False)
    with pytest.raises(TypeError, match=r"column 'b' holds vertex names but 'a' holds integer ids"):
        ng.Graph.from_pandas(pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}), "a", "b", directed=False)
    with pytest.raises(TypeError, match=r"weight column 'w' has dtype"):
        ng.Graph.from_pandas(pd.DataFrame({"u": [0], "v": [1], "w": ["heavy"]}), "u", "v", "w", directed=False)
    with pytest.raises(TypeError, match=r"expected a pandas DataFrame"):
        ng.Graph.from_pandas({"source": [0], "target": [1]}, directed=False)
    with pytest.raises(ng.UsageError, match=r"target column 'target' is not in the table"):
        ng.read_parquet(_write(pa.table({"source": [0], "dst": [1]})), "source", "target")


def _write(table):
    import tempfile

    path = tempfile.NamedTemporaryFile(suffix=".parquet", delete=False).name
    pq.write_table(table, path)
    return path


def test_missing_pandas_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(ImportError, match=r"numagraph\[dataframe\]"):
        ng.Graph.from_pandas(None, directed=False)
    g = ng.Graph.from_edges([0], [1])
    with pytest.raises(ImportError, match=r"numagraph\[dataframe\]"):
        ng.bfs(g, 0, as_frame=True)


def test_as_frame_index_and_columns():
    src, dst, _ = random_edges()
    g = ng.Graph.from_edges(src * 10 + 3, dst * 10 + 3, directed=False, relabel=True, drop_self_loops=True)
    ids = g.vertex_ids()
    cases = {
        "depth": lambda f: ng.bfs(g, 3, as_frame=f),
        "distance": lambda f: ng.sssp(g, 3, as_frame=f),
        "score": lambda f: ng.pagerank(g, as_frame=f),
        "betweenness": lambda f: ng.betweenness(g, k=4, as_frame=f),
        "value": lambda f: ng.spmv(g, as_frame=f),
        "probability": lambda f: ng.belief_propagation(g, as_frame=f),
        "component": lambda f: ng.connected_components(g, as_frame=f),
        "core": lambda f: ng.core_number(g, as_frame=f),
    }
    for column, call in cases.items():
        frame, array = call(True), call(False)
        assert isinstance(frame, pd.DataFrame) and list(frame.columns) == [column], column
        assert frame.index.name == "vertex"
        np.testing.assert_array_equal(frame.index.to_numpy(), ids)
        np.testing.assert_array_equal(frame[column].to_numpy(), array)
    tri = ng.triangles(g, as_frame=True)
    np.testing.assert_array_equal(tri["triangles"].to_numpy(), ng.triangles(g, per_vertex=True))
    both = ng.bfs(g, 3, parents=True, as_frame=True)
    depth, parents = ng.bfs(g, 3, parents=True)
    assert list(both.columns) == ["depth", "parent"]
    np.testing.assert_array_equal(both["parent"].to_numpy(), parents)  # already original ids
    frame, iterations, change = ng.pagerank(g, as_frame=True, return_info=True)
    assert list(frame.columns) == ["score"] and iterations >= 1


def test_as_frame_on_named_graphs_gives_names():
    g = ng.Graph.from_pandas(named_frame(), "a", "b", drop_self_loops=True, directed=False)
    f = ng.bfs(g, "paris", parents=True, as_frame=True)
    assert list(f.index) == g.nodes
    assert f.loc["nice", "depth"] == 1 and f.loc["nice", "parent"] == "paris"
    assert f.loc["lille", "parent"] == "lyon" and pd.isna(f.loc["oslo", "parent"])
    comp = ng.connected_components(g, as_frame=True)["component"]
    assert comp["tromso"] == comp["oslo"] and comp["tromso"] in g.nodes and comp["paris"] != comp["oslo"]

"""Graph construction, conversions, zero-copy results and errors for bad input."""
import gc
import subprocess
import sys
import textwrap

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import numagraph as ng


def test_from_edges_undirected_and_views():
    g = ng.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=False)
    assert (g.num_vertices, g.num_edges, g.directed, g.weighted) == (3, 3, False, False)
    assert g.indptr.tolist() == [0, 2, 4, 6] and g.indices.tolist() == [1, 2, 0, 2, 0, 1]
    assert g.out_degree.tolist() == [2, 2, 2]
    assert not g.indptr.flags.writeable  # a read-only view of C++ memory
    assert not g.indptr.flags.owndata


def test_from_edges_directed_weighted_num_vertices():
    g = ng.Graph.from_edges(np.array([0, 0], np.uint32), np.array([1, 2], np.int32), weights=[2.5, 1.0],
                            num_vertices=5, directed=True)
    assert (g.num_vertices, g.num_edges, g.directed, g.weighted) == (5, 2, True, True)
    assert g.weights.tolist() == [2.5, 1.0]
    assert g.in_degree.tolist() == [0, 1, 1, 0, 0]
    np.testing.assert_array_equal(ng.sssp(g, 0), [0, 2.5, 1, np.inf, np.inf])


def test_scipy_round_trip():
    A = sp.random(50, 50, density=0.1, format="csr", random_state=3)
    g = ng.Graph.from_scipy(A)
    B = g.to_scipy()
    assert g.weighted and abs(B - A.astype(np.float32)).max() < 1e-6


def test_networkx_round_trip_keeps_node_objects():
    G = nx.Graph([("a", "b"), ("b", "c")])
    g = ng.Graph.from_networkx(G)
    assert g.nodes == ["a", "b", "c"]
    assert g.to_dict(ng.bfs(g, "a")) == {"a": 0, "b": 1, "c": 2}
    assert nx.utils.graphs_equal(g.to_networkx(), G)
    with pytest.raises(ng.UsageError, match="not in the graph"):
        ng.bfs(g, "z")


def test_relabel_keeps_original_ids():
    g = ng.Graph.from_edges([10**9, 5], [7, 10**9], relabel=True)
    assert g.relabelled and g.num_vertices == 3 and g.labels.tolist() == [5, 7, 10**9]
    depth = ng.bfs(g, 5)
    assert g.to_dict(depth) == {5: 0, 10**9: 1, 7: 2}
    parents = ng.bfs(g, 5, depth=False, parents=True)  # parents in original ids
    assert parents.dtype == np.int64 and g.to_dict(parents) == {5: 5, 10**9: 5, 7: 10**9}


def test_bfs_parents_only_uses_graph_id_dtype():
    g = ng.Graph.from_edges([0, 1], [1, 2], num_vertices=4)
    parents = ng.bfs(g, 0, depth=False, parents=True)
    assert parents.dtype == np.int32 and parents.tolist() == [0, 0, 1, -1]
    with pytest.raises(ng.UsageError):
        ng.bfs(g, 0, depth=False)


def test_save_and_read(tmp_path):
    g = ng.generate.kronecker(8)
    for ext in ("el", "ngr", "mtx"):
        path = tmp_path / f"g.{ext}"
        g.save(path)
        h = ng.read(path, directed=False if ext == "el" else None)
        assert (h.num_vertices if ext != "el" else h.num_vertices <= g.num_vertices)
        assert h.num_edges == g.num_edges


def test_generators_are_deterministic():
    a, b = ng.generate.kronecker(9, seed=3), ng.generate.kronecker(9, seed=3)
    np.testing.assert_array_equal(a.indices, b.indices)
    assert ng.generate.uniform(8).num_vertices == 256
    assert ng.generate.grid(8).num_edges == 2 * 16 * 15
    assert ng.generate.kronecker(8, weighted=True).weighted


# ---- zero-copy results ---------------------------------------------------------
def test_result_arrays_own_cpp_memory_without_copy():
    g = ng.generate.kronecker(10)
    depth = ng.bfs(g, 1)
    # NumPy did not allocate: the data belongs to the capsule that owns the NumaArray.
    assert not depth.flags.owndata and depth.base is not None
    assert depth.flags.writeable and depth.dtype == np.int32
    depth[0] = 7  # writable, and it is ours: the graph is unaffected
    del g
    gc.collect()
    assert depth[0] == 7 and depth.shape == (1024,)


def test_graph_views_keep_graph_alive():
    indptr = ng.generate.kronecker(9).indptr  # the Graph itself is dropped at once
    gc.collect()
    assert indptr[-1] > 0 and np.all(np.diff(indptr) >= 0)


RSS_CHILD = textwrap.dedent("""
    import resource, numpy as np, numagraph as ng
    g = ng.generate.kronecker(20)
    r = []
    def rss(): return int(open('/proc/self/statm').read().split()[1]) * 4096
    before = rss()
    scores = ng.pagerank(g, max_iterations=2)           # 8 MiB of float64 for 2^20 vertices
    after = rss()
    print(scores.nbytes, after - before)
""")


def test_kron20_result_does_not_double_rss():
    out = subprocess.run([sys.executable, "-c", RSS_CHILD], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    nbytes, grew = map(int, out.stdout.split())
    # A copy would leave 2x the result resident; the hand-over leaves 1x (plus
    # the kernel's freed scratch, which the allocator may keep).
    assert grew < 2.5 * nbytes, f"RSS grew {grew} for a {nbytes}-byte result"


# ---- errors -----------------------------------------------------------------------
def test_exception_hierarchy():
    assert issubclass(ng.InputError, ng.Error) and issubclass(ng.InputError, ValueError)
    assert issubclass(ng.UsageError, ValueError) and issubclass(ng.IoError, OSError)
    assert issubclass(ng.ResourceError, MemoryError) and issubclass(ng.VerifyError, ng.Error)


def test_bad_edge_arrays():
    with pytest.raises(TypeError, match="integer vertex ids"):
        ng.Graph.from_edges([0.5, 1.0], [1, 2])
    with pytest.raises(ng.UsageError, match="same length"):
        ng.Graph.from_edges([0, 1, 2], [1, 2])
    with pytest.raises(ng.UsageError, match=r"src\[1\] = -3 is negative"):
        ng.Graph.from_edges([0, -3], [1, 2])
    with pytest.raises(ng.UsageError, match="one value per edge"):
        ng.Graph.from_edges([0, 1], [1, 2], weights=[1.0])
    with pytest.raises(ng.InputError):
        ng.Graph.from_edges([0, 9], [1, 2], num_vertices=4)
    with pytest.raises(TypeError):
        ng.bfs("not a graph", 0)


def test_bad_vertex_and_parameters():
    g = ng.generate.kronecker(8)
    with pytest.raises(ng.UsageError, match="out of range"):
        ng.bfs(g, 10**6)
    with pytest.raises(ng.UsageError):
        ng.pagerank(g, damping=2)
    with pytest.raises(ng.UsageError, match="directed"):
        ng.triangles(ng.Graph.from_edges([0], [1], directed=True))


def test_missing_and_malformed_files(tmp_path):
    with pytest.raises(ng.IoError) as e:
        ng.read(tmp_path / "nope.el")
    assert isinstance(e.value, OSError) and "nope.el" in str(e.value)
    bad = tmp_path / "bad.el"
    bad.write_text("0 1\n1\n")  # line 2 lacks its target
    with pytest.raises(ng.InputError, match="bad.el:2"):
        ng.read(bad)


def test_config_threads_context():
    before = ng.config.current()["threads"]
    with ng.config(threads=1):
        assert ng.config.current()["threads"] == 1
        assert ng.bfs(ng.generate.kronecker(8), 1).max() > 0
    assert ng.config.current()["threads"] == before
    with pytest.raises(ng.UsageError):
        ng.config(bind="sideways")

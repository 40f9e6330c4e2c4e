"""`numagraph info --locality`: the bandwidth and average log2 gap equal an
independent computation from the Matrix Market file (and, after --reorder
rcm, SciPy's RCM bandwidth within 25 %, far below the shuffled input's); the
per-thread working sets equal a Python model of the same rules
(include/numagraph/reorder/working_set.hpp): a level-synchronous search from
the root, each level cut into equal slices, listed by id (bfs) or in discovery
order (bc); a thread touches the vertices of its slices and their
neighbours."""
import math
import random

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

from cli.cli_util import write_mtx
from harness import run_cli, run_json


def shuffled_grid(side, seed):
    """A side x side grid with its vertices numbered at random."""
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(side, side))
    perm = list(range(G.number_of_nodes()))
    random.Random(seed).shuffle(perm)
    return nx.relabel_nodes(G, dict(enumerate(perm)))


def gaps(G, new_of_old=None):
    """Bandwidth and mean log2(1 + |u - v|) over both directions of every edge."""
    f = (lambda v: v) if new_of_old is None else (lambda v: int(new_of_old[v]))
    d = [abs(f(u) - f(v)) for u, v in G.edges()]
    return max(d), sum(math.log2(1 + x) for x in d) / len(d)


def model(G, root, threads, by_id):
    """Per thread: distinct vertices and 64-byte lines (16 vertices) touched."""
    seen, level = {root}, [root]
    verts = [set() for _ in range(threads)]
    while level:
        if by_id:
            level = sorted(level)
        nxt = []
        for t in range(threads):
            for u in level[t * len(level) // threads:(t + 1) * len(level) // threads]:
                verts[t].add(u)
                for w in sorted(G[u]):
                    verts[t].add(w)
                    if w not in seen:
                        seen.add(w)
                        nxt.append(w)
        level = nxt
    return [len(s) for s in verts], [len({v // 16 for v in s}) for s in verts], len(seen)


def locality(path, *flags):
    return run_json("info", "--locality", path, *flags)[0]


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    G = shuffled_grid(24, seed=5)
    return G, write_mtx(tmp_path_factory.mktemp("loc") / "grid.mtx", G)


def test_gaps_of_the_file_as_numbered(grid):
    G, path = grid
    rec = locality(path)
    bw, log_gap = gaps(G)
    assert rec["order"] == "none"
    assert rec["bandwidth"] == bw
    assert rec["average_log_gap"] == pytest.approx(log_gap, rel=1e-8)  # JSON keeps 9 digits


def test_rcm_narrows_the_band_like_scipy(grid):
    G, path = grid
    none, rcm = locality(path), locality(path, "--reorder", "rcm")
    n = G.number_of_nodes()
    a = nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr")
    scipy_order = reverse_cuthill_mckee(sp.csr_matrix(a), symmetric_mode=True)
    new_of_old = np.empty(n, dtype=np.int64)
    new_of_old[scipy_order] = np.arange(n)
    scipy_bw, scipy_gap = gaps(G, new_of_old)
    assert rcm["bandwidth"] <= 1.25 * scipy_bw
    assert rcm["bandwidth"] < none["bandwidth"] / 5
    assert rcm["average_log_gap"] < none["average_log_gap"] - 2
    assert rcm["order_s"] >= 0


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_working_sets_match_the_model(grid, threads):
    G, path = grid
    rec = locality(path, "-t", threads)
    root = max(G, key=lambda v: (G.degree(v), -v))  # highest degree, smallest id
    assert rec["root"] == root and rec["threads"] == threads
    for kind, by_id in (("bfs", True), ("bc", False)):
        verts, lines, reached = model(G, root, threads, by_id)
        assert rec["reached"] == reached == G.number_of_nodes()
        assert rec[f"{kind}_working_set_vertices_per_thread"] == verts
        assert rec[f"{kind}_working_set_lines_per_thread"] == lines
        assert rec[f"{kind}_working_set_vertices"] == pytest.approx(sum(verts) / threads)
    assert rec["ideal_vertices"] == pytest.approx(reached / threads)
    if threads == 1:  # one thread touches exactly what the search reaches
        assert rec["bfs_working_set_vertices_per_thread"] == [reached]


def test_root_and_reorder_keep_the_users_ids(tmp_path):
    G = nx.path_graph(40)
    G.add_nodes_from(range(102))
    G.add_edges_from([(100, 101)])  # a second component; ids 40..99 isolated
    path = write_mtx(tmp_path / "p.mtx", G)
    for order in ("none", "rcm", "adl", "degree"):
        rec = locality(path, "--root", 100, "--reorder", order)
        assert rec["root"] == 100 and rec["reached"] == 2


def test_rcm_and_adl_shrink_the_working_set_of_a_shuffled_grid(tmp_path):
    # 64 x 64: levels of a few lines each, so every thread of the shuffled
    # numbering touches nearly every line, and a banded one far fewer.
    path = write_mtx(tmp_path / "g64.mtx", shuffled_grid(64, seed=5))
    none = locality(path, "-t", 4)
    assert none["bfs_working_set_lines"] > 0.9 * none["ideal_lines"] * 4
    for order in ("rcm", "adl-serial"):
        rec = locality(path, "-t", 4, "--reorder", order)
        assert rec["bfs_working_set_vertices"] < none["bfs_working_set_vertices"] / 2, order
        assert rec["bfs_working_set_lines"] < 0.8 * none["bfs_working_set_lines"], order
        assert rec["bc_working_set_lines"] < 0.9 * none["bc_working_set_lines"], order


def test_reorder_without_locality_is_refused(grid):
    _, path = grid
    proc = run_cli("info", path, "--reorder", "rcm", check=False)
    assert proc.returncode != 0 and "--locality" in proc.stderr

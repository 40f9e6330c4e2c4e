"""Repeated SpMV through the CLI against SciPy: random weighted graphs, a
weighted Matrix Market file and an unweighted directed real graph from
../shared/data, with and without cache blocking. Every run also passes the
kernel's verifier."""
import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

from cli.cli_util import GRAPHS, kernel_output, output_of_one_run, random_graph, read_snap, write_mtx


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_spmv_matches_scipy(cli, tmp_path, seed, directed):
    G = random_graph(seed, directed, weighted=True)
    path = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    y, _ = kernel_output(cli, tmp_path, "spmv", path, "-i", "5")
    A = nx.to_scipy_sparse_array(G, nodelist=sorted(G.nodes), weight="weight", format="csr")
    x = np.full(A.shape[0], 1.0 / A.shape[0])
    for it in range(5):
        out = A @ x
        if it < 4:
            x = out / np.abs(out).sum()
    for v in G.nodes:
        assert y[v] == pytest.approx(out[v], rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("block", ["auto", "1K"])
def test_spmv_weighted_matrix_market_matches_scipy(cli, shared_data, tmp_path, block):
    path = shared_data / "netscience/netscience.mtx"
    A = sp.csr_matrix(scipy.io.mmread(str(path)))  # a symmetric file comes back with both halves
    A.setdiag(0)
    A.eliminate_zeros()
    A.data = A.data.astype(np.float32).astype(float)  # numagraph stores float weights
    y, rec = output_of_one_run(tmp_path, "spmv", path, "-i", "5", "--engine", "flat", "--cache-block", block)
    assert rec["cache_segments"] == (1 if block == "auto" else 13)  # 1589 vertices, 128 per block
    x = np.full(A.shape[0], 1.0 / A.shape[0])
    for it in range(5):
        out = A @ x
        if it < 4:
            x = out / np.abs(out).sum()
    assert {v for v in range(A.shape[0]) if A.indptr[v + 1] > A.indptr[v]} <= set(y)
    for v, value in y.items():  # vertices without edges may be relabelled away
        assert value == pytest.approx(out[v], rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("block", ["off", "8K"])
def test_spmv_unweighted_directed_real_graph(cli, shared_data, tmp_path, block):
    name = "p2p-Gnutella05/p2p-Gnutella05.txt"
    G = read_snap(shared_data / name, directed=True)
    nodes = sorted(G.nodes)
    A = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=None, format="csr").astype(float)
    y, rec = output_of_one_run(tmp_path, "spmv", shared_data / name, "-i", "3", "--engine", "flat", "--cache-block", block)
    assert (rec["cache_segments"] > 1) == (block != "off")
    x = np.full(len(nodes), 1.0 / len(nodes))
    for it in range(3):
        out = A @ x
        if it < 2:
            x = out / np.abs(out).sum()
    for i, v in enumerate(nodes):
        assert y[v] == pytest.approx(out[i], rel=1e-9, abs=1e-300)

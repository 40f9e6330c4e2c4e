"""Sparse kernels (pr, spmv, bp, cc, tc) against NetworkX and SciPy beyond
the basic random-graph checks of test_kernels_oracle.py: real graphs from
../shared/data (directed ones with dangling vertices and sparse ids that get
relabelled), NetworkX's default PageRank stopping rule, fixed-iteration
PageRank against SciPy, weighted SpMV on a Matrix Market file, per-vertex
triangles, and the refusals. Every run also passes the kernel's verifier."""
import functools
import gzip
import os
import subprocess

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

from conftest import numagraph_bin, read_vertex_values, run_cli, run_json
from test_kernels_oracle import random_graph, write_mtx


def output_of(tmp_path, kernel, graph, *flags, cast=float):
    out = tmp_path / f"{kernel}.out"
    recs = run_json(kernel, graph, "--verify", "-n", "1", "--output", out, *flags)
    assert recs and all(r["verified"] is True for r in recs), recs
    return read_vertex_values(out, cast), recs[-1]


@functools.lru_cache(maxsize=None)
def read_snap(path, directed):
    """A SNAP edge list as NetworkX reads it, without self-loops (numagraph drops them)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        G = nx.read_edgelist(f, nodetype=int, create_using=nx.DiGraph if directed else nx.Graph)
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    return G


DIRECTED = ["wiki-Vote/wiki-Vote.txt.gz", "p2p-Gnutella05/p2p-Gnutella05.txt"]


@pytest.mark.parametrize("name", DIRECTED)
@pytest.mark.parametrize("block", ["off", "4K"])
def test_pagerank_networkx_defaults_on_directed_real_graphs(cli, shared_data, tmp_path, name, block):
    """Dangling vertices and NetworkX's own defaults (tol 1e-6 on L1 < n tol,
    100 iterations): the same stopping rule gives the same iterate, with and
    without cache blocking (4K blocks cut these graphs into 14 and 18 segments)."""
    G = read_snap(shared_data / name, directed=True)
    scores, rec = output_of(tmp_path, "pr", shared_data / name, "--networkx", "--relabel", "on",
                            "--engine", "flat", "--cache-block", block)
    assert (rec["cache_segments"] > 1) == (block != "off")
    expected = nx.pagerank(G, weight=None)
    assert set(scores) == set(G.nodes)  # sparse ids come back as the file's ids
    for v, s in expected.items():
        assert scores[v] == pytest.approx(s, abs=1e-9)


def test_pagerank_fixed_iterations_match_scipy(cli, shared_data, tmp_path):
    """Polymer-style fixed count (--tolerance 0), gapbs's dangling rule (mass
    dropped), on a directed graph whose self-loops numagraph removes."""
    name = "soc-Slashdot0902/soc-Slashdot0902.txt.gz"
    G = read_snap(shared_data / name, directed=True)
    nodes = sorted(G.nodes)
    A = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=None, format="csr").astype(float)
    outdeg = np.asarray(A.sum(axis=1)).ravel()
    inv = np.divide(1.0, outdeg, out=np.zeros_like(outdeg), where=outdeg > 0)
    n = len(nodes)
    x = np.full(n, 1.0 / n)
    for _ in range(5):
        x = 0.15 / n + 0.85 * (A.T @ (x * inv))
    for variant, block in (("jacobi", "off"), ("jacobi", "16K"), ("gauss-seidel", "auto"), ("gauss-seidel", "16K")):
        scores, rec = output_of(tmp_path, "pr", shared_data / name, "--tolerance", "0", "-i", "5",
                                "--variant", variant, "--engine", "flat", "--cache-block", block)
        assert rec["iterations"] == 5
        assert rec["cache_segments"] == (21 if block == "16K" else 1)  # 82168 vertices, 4096 per block
        if variant == "jacobi":  # Gauss-Seidel is another iteration: only the fixed point is shared
            for i, v in enumerate(nodes):
                assert scores[v] == pytest.approx(x[i], rel=1e-5, abs=1e-12)


def test_pagerank_undirected_real_graph_networkx_mode(cli, shared_data, tmp_path):
    name = "email-Enron/email-Enron.txt.gz"
    G = read_snap(shared_data / name, directed=False)
    scores, _ = output_of(tmp_path, "pr", shared_data / name, "-s", "--networkx", "--tolerance", "1e-10", "-i", "500")
    expected = nx.pagerank(G, weight=None, tol=1e-10, max_iter=500)
    for v, s in expected.items():
        assert scores[v] == pytest.approx(s, abs=1e-10)


@pytest.mark.parametrize("name,directed", [("wiki-Vote/wiki-Vote.txt.gz", True),
                                           ("soc-Slashdot0902/soc-Slashdot0902.txt.gz", True),
                                           ("email-Enron/email-Enron.txt.gz", False),
                                           ("facebook_combined/facebook_combined.txt.gz", False)])
@pytest.mark.parametrize("variant", ["afforest", "sv"])
def test_components_partition_on_real_graphs(cli, shared_data, tmp_path, name, directed, variant):
    G = read_snap(shared_data / name, directed)
    flags = ["--relabel", "on"] + ([] if directed else ["-s"])  # wiki-Vote's unused ids are not vertices in NetworkX
    labels, rec = output_of(tmp_path, "cc", shared_data / name, "--variant", variant, "--engine", "flat", *flags,
                            cast=int)
    comps = list(nx.weakly_connected_components(G) if directed else nx.connected_components(G))
    assert rec["num_components"] == len(comps)
    # The same partition: one label per component, a different one for each.
    assert len({labels[next(iter(c))] for c in comps}) == len(comps)
    for c in comps:
        assert len({labels[v] for v in c}) == 1


@pytest.mark.parametrize("seed", [5, 6])
def test_components_many_small_ones(cli, tmp_path, seed):
    """Sparse random digraphs: hundreds of weak components, no giant one to skip."""
    G = random_graph(seed, True, n=400, p=0.002)
    path = write_mtx(tmp_path / "g.mtx", G)
    for variant in ("afforest", "sv"):
        labels, rec = output_of(tmp_path, "cc", path, "--variant", variant, cast=int)
        comps = list(nx.weakly_connected_components(G))
        assert rec["num_components"] == len(comps)
        for c in comps:
            assert len({labels[v] for v in c}) == 1


@pytest.mark.parametrize("name,symmetrize", [("email-Enron/email-Enron.txt.gz", False),
                                             ("wiki-Vote/wiki-Vote.txt.gz", True)])
def test_triangles_per_vertex_on_real_graphs(cli, shared_data, tmp_path, name, symmetrize):
    G = read_snap(shared_data / name, directed=False)  # Graph() merges u->v and v->u, as -s does
    per_vertex, rec = output_of(tmp_path, "tc", shared_data / name, "-s", "--relabel", "on", cast=int)
    expected = nx.triangles(G)
    assert rec["triangles"] == sum(expected.values()) // 3
    assert per_vertex == expected


@pytest.mark.parametrize("block", ["auto", "1K"])
def test_spmv_weighted_matrix_market_matches_scipy(cli, shared_data, tmp_path, block):
    path = shared_data / "netscience/netscience.mtx"
    A = sp.csr_matrix(scipy.io.mmread(str(path)))  # a symmetric file comes back with both halves
    A.setdiag(0)
    A.eliminate_zeros()
    A.data = A.data.astype(np.float32).astype(float)  # numagraph stores float weights
    y, rec = output_of(tmp_path, "spmv", path, "-i", "5", "--engine", "flat", "--cache-block", block)
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
    y, rec = output_of(tmp_path, "spmv", shared_data / name, "-i", "3", "--engine", "flat", "--cache-block", block)
    assert (rec["cache_segments"] > 1) == (block != "off")
    x = np.full(len(nodes), 1.0 / len(nodes))
    for it in range(3):
        out = A @ x
        if it < 2:
            x = out / np.abs(out).sum()
    for i, v in enumerate(nodes):
        assert y[v] == pytest.approx(out[i], rel=1e-9, abs=1e-300)


def test_belief_propagation_real_graph_passes_verifier(cli, shared_data, tmp_path):
    belief, rec = output_of(tmp_path, "bp", shared_data / "facebook_combined/facebook_combined.txt.gz", "-s",
                            "--engine", "flat")
    assert len(belief) == 4039 and all(0 <= b <= 1 for b in belief.values())  # hubs may round to 1
    assert rec["iterations"] == 5


def test_refusals_say_what_to_do(cli, tmp_path):
    G = random_graph(1, True)
    path = write_mtx(tmp_path / "g.mtx", G)
    for kernel in ("tc", "bp"):
        proc = run_cli(kernel, path, check=False)
        assert proc.returncode == 2 and "-s" in proc.stderr, proc.stderr
    dup = tmp_path / "dup.el"
    dup.write_text("0 1\n1 2\n2 0\n0 1\n")
    proc = run_cli("tc", dup, "-s", "--keep-duplicates", check=False)
    assert proc.returncode == 2 and "--keep-duplicates" in proc.stderr, proc.stderr
    proc = run_cli("pr", path, "--networkx", "--variant", "gauss-seidel", check=False)
    assert proc.returncode == 2 and "jacobi" in proc.stderr, proc.stderr
    for bad in ("4X", "-1", "lots"):
        proc = run_cli("spmv", path, "--cache-block", bad, check=False)
        assert proc.returncode == 2 and "'auto', 'off' or a size in bytes" in proc.stderr, proc.stderr
    for args, why in ((("pr", "--tolerance", "-1"), "--tolerance: must be zero or positive (got -1)"),
                      (("spmv", "--iterations", "0"), "--iterations: must be positive (got 0)"),
                      (("bp", "-s", "--iterations", "0"), "--iterations: must be positive (got 0)")):
        proc = run_cli(args[0], path, *args[1:], check=False)
        assert proc.returncode == 2 and why in proc.stderr and len(proc.stderr) < 200, proc.stderr


def test_components_variant_decides_the_engine(cli, tmp_path):
    """sv runs flat only, lp on the NUMA engine only: engine auto follows the
    variant, an explicit contradiction is a usage error that says what to do."""
    path = write_mtx(tmp_path / "g.mtx", random_graph(8, True, n=300, p=0.01))
    want = run_json("cc", path, "--variant", "afforest", "--engine", "flat")[-1]["num_components"]
    for variant, engine, ran in (("sv", "auto", "flat"), ("lp", "auto", "numa"), ("afforest", "numa", "numa")):
        rec = run_json("cc", path, "--variant", variant, "--engine", engine, "--verify")[-1]
        assert rec["variant"] == variant and rec["engine"] == ran
        assert rec["verified"] is True and rec["num_components"] == want
    proc = run_cli("cc", path, "--variant", "sv", "--engine", "numa", check=False)
    assert proc.returncode == 2 and "--engine flat" in proc.stderr, proc.stderr
    proc = run_cli("cc", path, "--variant", "lp", "--engine", "flat", check=False)
    assert proc.returncode == 2 and "--engine numa" in proc.stderr, proc.stderr
    proc = run_cli("cc", path, "--variant", "sv", "--account", check=False)
    assert proc.returncode == 2 and "--account" in proc.stderr, proc.stderr


@pytest.mark.parametrize("kernel,flags", [("pr", ["--variant", "jacobi", "--tolerance", "0", "-i", "4"]),
                                          ("spmv", ["-i", "4"])])
def test_tiled_runs_report_their_shape_and_copy_time(cli, kernel, flags):
    """pr (Jacobi) and spmv say how they tiled (tile_row_bits, cache_segments)
    and how long each run spent building its tiles (cache_copy_s, part of the
    trial's time; bench/bandwidth_yardstick.py subtracts it for the steady
    state); an unblocked run reports 0 for both."""
    tiled = run_json(kernel, "-g", "12", *flags, "--engine", "flat", "--cache-block", "2K", "-n", "2", "--verify")[-1]
    assert tiled["verified"] is True
    assert tiled["cache_segments"] > 1 and tiled["tile_row_bits"] >= 10
    assert 0 < tiled["cache_copy_s"] < max(tiled["trials"])
    plain = run_json(kernel, "-g", "12", *flags, "--engine", "flat", "--cache-block", "off", "-n", "2", "--verify")[-1]
    assert plain["verified"] is True
    assert plain["cache_segments"] == 1 and plain["tile_row_bits"] == 0 and plain["cache_copy_s"] == 0


def test_recycle_limit_comes_from_the_environment(cli, tmp_path):
    """NUMAGRAPH_RECYCLE_BYTES (docs/numa.md): 0 turns the recycling of
    kernel arrays off, a size caps it, anything else is named on stderr and
    the default kept. The scores are the same bits every way (a recycled
    array is overwritten before it is read)."""
    outputs = []
    for value in ("0", "64M", "", "lots"):
        out = tmp_path / f"pr-{value or 'default'}.txt"
        env = dict(os.environ, NUMAGRAPH_RECYCLE_BYTES=value)
        proc = subprocess.run([str(numagraph_bin()), "pr", "-g", "18", "--variant", "jacobi", "-n", "3", "--verify",
                               "--engine", "flat", "--output", str(out)], capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        noted = "NUMAGRAPH_RECYCLE_BYTES='lots' is not a size" in proc.stderr
        assert noted == (value == "lots"), proc.stderr
        outputs.append(out.read_text())
    assert all(o == outputs[0] for o in outputs)


# Every kernel path that takes recycled working arrays (NumaArray::for_overwrite):
# PageRank Jacobi and Gauss-Seidel (flat only), SpMV, tiled or not, flat or the NUMA engine.
POISON_RUNS = [(kernel, variant, block, engine)
               for kernel, variants in (("pr", ("jacobi", "gauss-seidel")), ("spmv", (None,)))
               for variant in variants for block in ("off", "64K") for engine in ("flat", "numa")
               if not (variant == "gauss-seidel" and engine == "numa")]


@pytest.mark.parametrize("kernel,variant,block,engine", POISON_RUNS)
def test_recycled_arrays_are_written_before_they_are_read(cli, tmp_path, kernel, variant, block, engine):
    """NUMAGRAPH_RECYCLE_POISON=1 (docs/numa.md) hands every recycled array
    back full of NaNs. Three trials in one process recycle the arrays of the
    first two; the last trial's output must be the same bits as a run that
    never recycles (Gauss-Seidel: the same fixed point), which fails if any
    kernel reads an element of a recycled array before writing it."""
    flags = ["-g", "18", "-k", "8", "--cache-block", block, "--engine", engine, "--verify"]
    if engine == "numa":
        flags += ["--topology", "pack:2 numa:1 core:1 pu:1"]
    # Vertex-by-vertex Gauss-Seidel reads whatever its neighbours' threads
    # have written so far (4 sweeps differ by 8 % from run to run): compare
    # the fixed point it converges to.
    converged = kernel == "pr" and variant == "gauss-seidel"
    flags += ["-i", "100", "--tolerance", "1e-12"] if converged else ["-i", "4"]
    if kernel == "pr":
        flags += ["--variant", variant] + ([] if converged else ["--tolerance", "0"])
    outputs = []
    for env_extra, trials in (({"NUMAGRAPH_RECYCLE_BYTES": "0"}, "1"), ({"NUMAGRAPH_RECYCLE_POISON": "1"}, "3")):
        out = tmp_path / f"{kernel}-{trials}.txt"
        env = dict(os.environ, **env_extra)
        proc = subprocess.run([str(numagraph_bin()), kernel, *flags, "-n", trials, "--output", str(out)],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        values = read_vertex_values(out)
        outputs.append(np.array([values[v] for v in range(len(values))]))
    fresh, recycled = outputs
    assert np.isfinite(recycled).all()
    if converged:
        np.testing.assert_allclose(recycled, fresh, rtol=1e-6, atol=1e-9 * np.abs(fresh).max())
    else:
        np.testing.assert_array_equal(recycled, fresh)

"""numagraph-graph500 under mpirun: every BFS tree validates at 1, 2, 3 and 4
ranks, in every sharing / allgather mode, and the depths equal the
shared-memory `numagraph bfs` and a SciPy BFS on the same graph.

Binary: $NUMAGRAPH_GRAPH500_BIN, else mpi/numagraph-graph500 next to
$NUMAGRAPH_BIN (default build/). Every launch is wrapped in `timeout` (a hung
collective shows as exit 124) and asserts the communicator size, because a
binary started by another MPI implementation's mpirun runs as N 1-rank jobs.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from harness import numagraph_bin, read_vertex_values, run_cli

MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_pml": "ob1",
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_osc": "sm,ucx",
    "OMP_NUM_THREADS": "1",
}


def graph500_bin() -> Path:
    if "NUMAGRAPH_GRAPH500_BIN" in os.environ:
        return Path(os.environ["NUMAGRAPH_GRAPH500_BIN"])
    return numagraph_bin().parent / "mpi" / "numagraph-graph500"


@pytest.fixture(scope="module", autouse=True)
def need_mpi():
    if shutil.which("mpirun") is None:
        pytest.skip("mpirun not found: install openmpi-bin libopenmpi-dev (docs/distributed.md)")
    if not graph500_bin().exists():
        pytest.skip(f"{graph500_bin()} not built (needs MPI at configure time)")


def launch(ranks, *args, expect_rc=0):
    env = dict(os.environ)
    env.update(MPI_ENV)
    cmd = ["timeout", "-k", "10", "120", "mpirun", "-n", str(ranks), str(graph500_bin()), *map(str, args)]
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env)
    assert p.returncode != 124, f"hung: {' '.join(cmd)}"
    assert p.returncode == expect_rc, f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}"
    return p


def run(ranks, *args):
    """Runs with --json; checks the communicator size and that every tree validated."""
    rec = json.loads(launch(ranks, *args, "--json").stdout.strip().splitlines()[-1])
    assert rec["ranks"] == ranks, "wrong communicator size: is mpirun from the MPI the binary was built with?"
    if "--no-validate" not in args:
        assert rec["verified"] is True, rec.get("verify_message")
        assert rec["validated_roots"] == len(rec["roots"])
    return rec


@pytest.mark.parametrize("ranks,scale", [(1, 14), (2, 15), (3, 12), (4, 16)])
def test_every_root_validates(ranks, scale):
    rec = run(ranks, "--scale", scale, "--share", "all")
    assert len(rec["roots"]) == 64
    assert all(t > 0 for t in rec["teps"])


def test_same_graph_and_roots_as_shared_memory(cli):
    shm = json.loads(run_cli("bfs", "--kron", 13, "--sources", 8, "--json").stdout.splitlines()[-1])
    rec = run(2, "--scale", 13, "--roots", 8)
    assert rec["roots"] == shm["roots"]
    assert rec["num_edges"] == shm["num_edges"]


def depths(tmp_path, name, ranks, scale, root, *flags):
    out = tmp_path / name
    run(ranks, "--scale", scale, "--source", root, "--output", out, *flags)
    return read_vertex_values(out, int)


@pytest.mark.parametrize("ranks", [1, 2, 4])
def test_depths_equal_shared_memory_bfs(cli, tmp_path, ranks):
    scale = 13
    root = run(1, "--scale", scale, "--roots", 1, "--no-validate")["roots"][0]
    run_cli("bfs", "--kron", scale, "--source", root, "-n", 1, "--output", tmp_path / "shm.txt")
    assert depths(tmp_path, "dist.txt", ranks, scale, root) == read_vertex_values(tmp_path / "shm.txt", int)


def test_depths_equal_scipy_bfs(cli, tmp_path):
    scipy_sparse = pytest.importorskip("scipy.sparse")
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    scale, n = 12, 1 << 12
    run_cli("generate", "kron", "--scale", scale, "-o", tmp_path / "g.el")
    edges = np.loadtxt(tmp_path / "g.el", dtype=np.int64, comments="#", ndmin=2)
    a = scipy_sparse.coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n)).tocsr()
    root = run(1, "--scale", scale, "--roots", 1, "--no-validate")["roots"][0]
    dist = csgraph.shortest_path(a, directed=False, unweighted=True, indices=root)
    expected = {v: (-1 if np.isinf(d) else int(d)) for v, d in enumerate(dist)}
    assert depths(tmp_path, "dist.txt", 4, scale, root) == expected


MODES = [(share, par, rpn) for share in ("none", "in", "all") for par in (False, True) for rpn in (0, 2)]


@pytest.mark.parametrize("share,parallel,ranks_per_node", MODES)
def test_share_and_allgather_modes(tmp_path, share, parallel, ranks_per_node):
    flags = ["--share", share, "--ranks-per-node", ranks_per_node, "--roots", 16]
    if parallel:
        flags.append("--parallel-allgather")
    rec = run(4, "--scale", 13, *flags)
    assert rec["nodes"] == (2 if ranks_per_node == 2 else 1)
    assert rec["parallel_allgather"] is parallel
    base = depths(tmp_path, "base.txt", 4, 13, rec["roots"][0])
    assert depths(tmp_path, "mode.txt", 4, 13, rec["roots"][0], *flags) == base


@pytest.mark.parametrize("flags", [["--alpha", "1e-9"], ["--alpha", "1e9", "--beta", "1e-9"],
                                   ["--summary-bits", "64"], ["--summary-bits", "4096"],
                                   ["--ranks-per-node", "3", "--share", "all", "--parallel-allgather"]])
def test_direction_and_summary_variants(tmp_path, flags):
    """Top-down only, bottom-up almost only, both summary extremes, and unequal
    simulated nodes (3 + 1 ranks: the parallel allgather falls back) agree."""
    rec = run(4, "--scale", 12, "--roots", 16, *flags)
    root = rec["roots"][3]
    assert depths(tmp_path, "v.txt", 4, 12, root, *flags) == depths(tmp_path, "b.txt", 4, 12, root)


def test_graph500_text_block():
    out = launch(2, "--scale", 10, "--roots", 4).stdout
    for key in ("SCALE:", "edgefactor:", "NBFS:", "graph_generation:", "construction_time:", "bfs  min_time:",
                "bfs  firstquartile_time:", "bfs  median_time:", "bfs  thirdquartile_time:", "bfs  max_time:",
                "bfs  harmonic_mean_TEPS:     !", "bfs  harmonic_stddev_TEPS:", "num_mpi_processes:"):
        assert key in out, key
    assert "PASSED (4 of 4 roots)" in out


@pytest.mark.parametrize("args,message", [(["--scale", "10", "--summary-bits", "100"], "--summary-bits"),
                                          (["--scale", "33"], "--scale"),
                                          (["--scale", "10", "--source", "5000"], "not a vertex")])
def test_bad_arguments(args, message):
    p = launch(2, *args, expect_rc=2)
    assert message in p.stderr


def test_profile_per_rank_with_bfs_phases(tmp_path):
    """--profile: one file per rank, each with a bfs phase per root and, in
    them, levels with compute, communication and direction switches."""
    rec = run(2, "--scale", "12", "--roots", "3", "--profile", tmp_path / "g.json", "--profile-interval", "1")
    assert rec["ranks"] == 2
    for rank in (0, 1):
        doc = json.loads((tmp_path / f"g.rank{rank}.json").read_text())
        assert doc["format"] == "numagraph-profile" and doc["metadata"]["rank"] == rank
        names = [p["name"] for p in doc["phases"]]
        assert names.count("bfs") == 3 and names.count("validate") == 3
        levels = names.count("level top-down") + names.count("level bottom-up")
        assert levels >= 3 and names.count("compute") >= levels
        assert names.count("communication") >= levels  # every level ends with an all-reduce
        if "level bottom-up" in names:
            assert "direction switch" in names
    assert not (tmp_path / "g.json").exists()
    bad = launch(1, "--scale", "10", "--profile", tmp_path / "x.json", "--profile-interval", "0", expect_rc=2)
    assert "--profile-interval" in bad.stderr

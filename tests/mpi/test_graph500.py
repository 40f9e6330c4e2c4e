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
        pytest.skip("mpirun not found: install openmpi-bin libopenmpi-dev (docs/graph500.md)")
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


MODES = [(share, ag, rpn) for share in ("none", "in", "all") for ag in ("flat", "leader", "parallel")
         for rpn in (0, 2)]


@pytest.mark.parametrize("share,allgather,ranks_per_node", MODES)
def test_share_and_allgather_modes(tmp_path, share, allgather, ranks_per_node):
    flags = ["--share", share, "--ranks-per-node", ranks_per_node, "--roots", 16, "--allgather", allgather]
    rec = run(4, "--scale", 13, *flags)
    assert rec["nodes"] == (2 if ranks_per_node == 2 else 1)
    assert rec["allgather"] == allgather
    assert rec["parallel_allgather"] is (allgather == "parallel")
    base = depths(tmp_path, "base.txt", 4, 13, rec["roots"][0])
    assert depths(tmp_path, "mode.txt", 4, 13, rec["roots"][0], *flags) == base


@pytest.mark.parametrize("ranks,ranks_per_node", [(1, 0), (2, 0), (2, 1), (4, 0), (4, 2), (3, 2)])
def test_leader_allgather_same_depths(tmp_path, ranks, ranks_per_node):
    """The leader-based allgather of private bitmaps (gather in the node,
    leaders exchange, broadcast in the node) validates every tree and gives
    the flat allgather's depths, on one node, several, and unequal ones."""
    flags = ["--allgather", "leader", "--ranks-per-node", ranks_per_node]
    rec = run(ranks, "--scale", 13, "--roots", 16, *flags)
    assert rec["allgather"] == "leader" and any(rec["bottom_up_steps"]), "no bottom-up step used the allgather"
    root = rec["roots"][1]
    assert depths(tmp_path, "l.txt", ranks, 13, root, *flags) == depths(tmp_path, "f.txt", ranks, 13, root)


def test_parallel_allgather_alias_and_conflict():
    assert run(2, "--scale", 10, "--roots", 2, "--parallel-allgather")["allgather"] == "parallel"
    assert run(2, "--scale", 10, "--roots", 2, "--parallel-allgather", "--allgather", "parallel")["parallel_allgather"]
    p = launch(2, "--scale", 10, "--parallel-allgather", "--allgather", "leader", expect_rc=2)
    assert "--parallel-allgather contradicts --allgather leader" in p.stderr
    assert "--allgather" in launch(1, "--scale", 10, "--allgather", "ring", expect_rc=2).stderr


PHASES = ("top_down", "bottom_up", "exchange", "switch", "wait")


@pytest.mark.parametrize("ranks,flags", [(1, []), (2, []), (4, ["--share", "all"]), (4, ["--allgather", "leader"])])
def test_phase_times_add_up(ranks, flags):
    """Per root, the ranks' mean phase times are non-negative and add up to at
    most the BFS time; compute phases are present exactly when their steps ran."""
    rec = run(ranks, "--scale", 13, "--roots", 8, *flags)
    per_root = rec["phase_trials_s"]
    assert any(rec["bottom_up_steps"]), "the direction switch never happened: the test checks nothing"
    for i, bfs_s in enumerate(rec["trials"]):
        times = [per_root[p][i] for p in PHASES]
        assert all(t >= 0 for t in times), times
        assert sum(times) <= bfs_s * 1.01 + 1e-4, (times, bfs_s)
        assert sum(times) <= rec["rank_mean_trials"][i] + 1e-6
        assert per_root["top_down"][i] > 0  # the first step is always top-down
        assert (per_root["bottom_up"][i] > 0) == (rec["bottom_up_steps"][i] > 0)
        assert per_root["exchange"][i] > 0 and per_root["switch"][i] > 0
    for p in PHASES:
        assert rec["phase_s"][p] == pytest.approx(sum(per_root[p]) / len(rec["trials"]), rel=1e-6, abs=1e-9)
        assert rec["phase_max_rank_s"][p] >= rec["phase_s"][p] * (1 - 1e-6)
    assert rec["phase_s"]["other"] >= 0


def test_graph500_text_block():
    out = launch(2, "--scale", 10, "--roots", 4).stdout
    for key in ("SCALE:", "edgefactor:", "NBFS:", "graph_generation:", "construction_time:", "bfs  min_time:",
                "bfs  firstquartile_time:", "bfs  median_time:", "bfs  thirdquartile_time:", "bfs  max_time:",
                "bfs  harmonic_mean_TEPS:     !", "bfs  harmonic_stddev_TEPS:", "num_mpi_processes:",
                "bfs  mean_top_down_time:", "bfs  mean_bottom_up_time:", "bfs  mean_exchange_time:",
                "bfs  mean_switch_time:", "bfs  mean_wait_time:", "bfs  mean_other_time:",
                "bfs  maxrank_wait_time:", "allgather:"):
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

"""The fast Brandes kernels (kernels/bc/brandes_direction_optimizing.hpp and
brandes_batched.hpp) against networkx.betweenness_centrality, exact (every vertex
a source), directed and undirected, through the in-process bench driver
(bench/bc_sssp_driver.cpp, mode `scores`) until the CLI calls them.

Needs the driver (NUMAGRAPH_DRIVER, which make test sets to build/bench_bc_sssp_driver; default
build-bc/bc_sssp_driver) and the CLI (NUMAGRAPH_BIN, default build-bc/numagraph); skipped when
either is missing.
"""
import os
import subprocess
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(os.environ.get("NUMAGRAPH_DRIVER", REPO / "build-bc" / "bc_sssp_driver"))
CLI = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build-bc" / "numagraph"))

pytestmark = pytest.mark.skipif(not (DRIVER.is_file() and CLI.is_file()),
                                reason="bench driver or CLI not built (see bench/bc_sssp_driver.cpp)")

# The push-only search; always push, the default switch, pull from the first big level on (also from a packed frontier,
# with the branchy gathers, every level on the team), every hub frontier pushed by owner (every level on the team),
# none; batches of 16 and of 3, batches whose backward pass pushes from every level, batches that push every forward
# level (hub frontiers by owner) and skip empty lines in every backward gather, and batches that do neither; batches
# whose lanes start on levels 0, 1 and 2 in turn, and batches with every lane on level 0; serial searches, one per
# thread.
VARIANTS = ["brandes", "do:0", "do", "do:1e12", "do:1e12:0:4:0:1", "do:10:0:4:-1:-1:1e-12", "do:10:512:4:-1:-1:0",
            "batched:16", "batched:3:1e12", "batched:16:4:1e-12", "batched:16:0:8:1:1", "batched:16:10:8:0:0",
            "batched:16:10:8:1:-1:=0120120120120120", "batched:16:10:8:1:-1:0", "source-parallel"]


def raw_scores(G, tmp_path):
    """{variant: {vertex: raw Brandes sum}} from one driver run over every variant."""
    el = tmp_path / "g.el"
    el.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    ngr = tmp_path / "g.ngr"
    subprocess.run([CLI, "convert", el, ngr, "--relabel", "off"] + ([] if G.is_directed() else ["-s"]),
                   check=True, capture_output=True)
    out = subprocess.run([DRIVER, ngr, "scores", "all", *VARIANTS], check=True, capture_output=True, text=True,
                         env=dict(os.environ, OMP_NUM_THREADS="2")).stdout
    raw = {v: {} for v in VARIANTS}
    for line in out.splitlines():
        variant, vertex, score = line.split()
        raw[variant][int(vertex)] = float(score)
    return raw


def check(G, tmp_path):
    expected = nx.betweenness_centrality(G, normalized=False)
    halve = 1 if G.is_directed() else 0.5  # NetworkX counts each unordered pair once
    for variant, raw in raw_scores(G, tmp_path).items():
        for v, want in expected.items():
            got = raw.get(v, 0.0) * halve  # ids past the last edge are not in the file: isolated, score 0
            assert got == pytest.approx(want, rel=1e-9, abs=1e-9), f"{variant}: vertex {v}"


@pytest.mark.parametrize("directed", [False, True])
def test_random_graphs_match_networkx(tmp_path, directed):
    check(nx.gnp_random_graph(80, 0.06, seed=1, directed=directed), tmp_path)


def test_ring_with_shortcuts(tmp_path):
    check(nx.connected_watts_strogatz_graph(300, 4, 0.02, seed=3), tmp_path)  # many levels


def test_karate_club(tmp_path):
    check(nx.convert_node_labels_to_integers(nx.karate_club_graph()), tmp_path)


def test_scale_free_digraph(tmp_path):
    G = nx.DiGraph(nx.scale_free_graph(400, seed=5))
    G.remove_edges_from(nx.selfloop_edges(G))
    check(G, tmp_path)


@pytest.mark.parametrize("threads", [1, 3])
def test_driver_pins_as_many_threads_as_it_runs(tmp_path, threads):
    # A runtime configured for fewer threads than OMP_NUM_THREADS pinned the whole team onto
    # that many cores: bench/peers.py --threads 16 then timed 16 threads on 2 cores.
    G = nx.gnp_random_graph(60, 0.1, seed=2)
    el = tmp_path / "g.el"
    el.write_text("".join(f"{u} {v}\n" for u, v in G.edges()))
    ngr = tmp_path / "g.ngr"
    subprocess.run([CLI, "convert", el, ngr, "--relabel", "off", "-s"], check=True, capture_output=True)
    for mode in ("bc", "sssp"):
        out = subprocess.run([DRIVER, ngr, mode, "0", "1", "auto"], check=True, capture_output=True, text=True,
                             env=dict(os.environ, OMP_NUM_THREADS=str(threads))).stdout
        assert f"pinned threads: {threads}\n" in out, out

"""Betweenness centrality through the CLI against NetworkX: exact scores on
random graphs and a real graph from ../shared/data, raw and normalized, and
NetworkX's sampled scaling from the same sources. Every run also passes the
kernel's verifier."""
import random

import networkx as nx
import pytest

from cli.cli_util import GRAPHS, kernel_output, output_of, random_graph, read_mtx_undirected, write_mtx
from harness import run_cli, run_json


@pytest.mark.parametrize("seed,directed", GRAPHS)
@pytest.mark.parametrize("normalized", [False, True])
def test_exact_betweenness_matches_networkx(cli, tmp_path, seed, directed, normalized):
    G = random_graph(seed, directed, n=60, p=0.06)
    path = write_mtx(tmp_path / "g.mtx", G)
    flags = ["--exact"] + (["--normalized"] if normalized else [])
    scores, _ = kernel_output(cli, tmp_path, "bc", path, *flags)
    expected = nx.betweenness_centrality(G, normalized=normalized)
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("normalized", [False, True])
def test_sampled_betweenness_matches_networkx_k(cli, tmp_path, directed, normalized):
    """NetworkX draws k sources with random.Random(seed).sample(list(G), k);
    the same sources through --roots must give NetworkX's scaled scores."""
    G = random_graph(8, directed, n=80, p=0.05)
    path = write_mtx(tmp_path / "g.mtx", G)
    k, seed = 7, 12
    sources = random.Random(seed).sample(list(G.nodes()), k)
    roots = tmp_path / "roots.txt"
    roots.write_text("".join(f"{s}\n" for s in sources))
    flags = ["--roots", roots, "-n", "1"] + (["--normalized"] if normalized else [])
    scores, rec = output_of(tmp_path, "bc", path, *flags)
    assert rec["sources"] == sources
    expected = nx.betweenness_centrality(G, k=k, seed=seed, normalized=normalized)
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], rel=1e-9, abs=1e-12)


def test_exact_betweenness_on_real_graph(cli, shared_data, tmp_path):
    path = shared_data / "netscience" / "netscience.mtx"
    G = read_mtx_undirected(path)
    scores, _ = output_of(tmp_path, "bc", path, "--exact", "-n", "1")
    expected = nx.betweenness_centrality(G, normalized=False)
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("variant", ["brandes", "direction-optimizing", "batched", "source-parallel"])
@pytest.mark.parametrize("directed", [False, True])
def test_every_flat_variant_matches_networkx(cli, shared_data, tmp_path, variant, directed):
    """Each flat kernel the entry point can pick, exact against NetworkX on a
    random graph dense enough for the batched kernel's pull levels, and
    sampled (through --roots) on a real one."""
    G = random_graph(21, directed, n=120, p=0.15)
    path = write_mtx(tmp_path / "g.mtx", G)
    scores, rec = kernel_output(cli, tmp_path, "bc", path, "--exact", "--variant", variant)
    assert rec["variant"] == variant
    expected = nx.betweenness_centrality(G, normalized=False)
    for v in G.nodes:
        assert scores[v] == pytest.approx(expected[v], rel=1e-9, abs=1e-12)
    real = shared_data / "facebook_combined/facebook_combined.txt.gz"
    F = nx.read_edgelist(real, nodetype=int)
    k, seed = 9, 5
    roots = tmp_path / "roots.txt"
    roots.write_text("".join(f"{s}\n" for s in random.Random(seed).sample(list(F), k)))
    scores, rec = output_of(tmp_path, "bc", real, "-s", "--roots", roots, "-n", "1", "--variant", variant)
    want = nx.betweenness_centrality(F, k=k, seed=seed, normalized=False)
    for v in F.nodes:
        assert scores[v] == pytest.approx(want[v], rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("schedule", ["nwq", "dynamic"])
@pytest.mark.parametrize("directed", [False, True])
def test_work_queues_variant_matches_networkx(cli, tmp_path, schedule, directed):
    """The BC paper's work-queue schedule and its dynamic baseline, exact
    against NetworkX on a graph with several components and isolated
    vertices, on 1 to 3 threads and with tasks of 1 and 16 vertices."""
    G = nx.disjoint_union(random_graph(31, directed, n=70, p=0.06), random_graph(32, directed, n=50, p=0.08))
    path = write_mtx(tmp_path / "g.mtx", G)
    expected = nx.betweenness_centrality(G, normalized=False)
    for threads in (1, 2, 3):
        for task in (1, 16):
            scores, rec = kernel_output(cli, tmp_path, "bc", path, "--exact", "--engine", "flat", "--variant",
                                        "work-queues", "--schedule", schedule, "--threads", threads,
                                        "--task-size", task)
            assert rec["variant"] == "work-queues" and rec["schedule"] == schedule and rec["task_size"] == task
            if schedule == "dynamic":
                assert rec["stolen_tasks"] == 0
            for v in G.nodes:
                assert scores[v] == pytest.approx(expected[v], rel=1e-9, abs=1e-12), (threads, task, v)


def test_work_queues_working_set_and_refusals(cli, tmp_path):
    """--working-set reports each thread's distinct vertices per source (one
    thread on a connected graph: all of them); the work-queue options are
    refused, exit 2, where they do not apply."""
    G = nx.path_graph(40)
    path = write_mtx(tmp_path / "g.mtx", G)
    rec = run_json("bc", path, "--engine", "flat", "--variant", "work-queues", "--working-set", "--threads", "1",
                   "--sources", "3", "--verify")[-1]
    assert rec["verified"] is True and rec["working_set"] == 40 and rec["working_set_per_thread"] == [40]
    for flags, hint in ((["--schedule", "dynamic"], "--variant work-queues"),
                        (["--working-set"], "--variant work-queues"),
                        (["--variant", "brandes", "--task-size", "4"], "--task-size"),
                        (["--variant", "work-queues", "--schedule", "dynamic", "--engine", "numa"], "--engine flat"),
                        (["--variant", "work-queues", "--working-set", "--engine", "numa"], "--engine flat"),
                        (["--variant", "work-queues", "--schedule", "static"], "--schedule")):
        proc = run_cli("bc", path, *flags, check=False)
        assert proc.returncode == 2 and hint in proc.stderr, (flags, proc.stderr)


@pytest.mark.parametrize("sources, threads, expected", [
    (8, 2, "source-parallel"),  # a sparse graph, a source per thread or more
    (1, 2, "brandes"),  # one source: the parallelism must be inside the search (push-only when sparse)
    (3, 4, "brandes"),  # fewer sources than threads
])
def test_auto_takes_source_parallel_on_sparse_graphs_with_a_source_per_thread(cli, tmp_path, sources, threads,
                                                                            expected):
    grid = tmp_path / "grid.ngr"
    run_cli("generate", "grid", "--scale", "10", "-o", grid, "-q")
    rec = run_json("bc", grid, "--sources", sources, "-t", threads, "-n", "1", "--verify", "-q")[-1]
    assert rec["variant"] == expected and rec["verified"] is True

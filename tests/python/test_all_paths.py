"""Every kernel through every path: the CLI and Python, each on the flat
kernel and on the NUMA engine (one node and two synthetic nodes), on the same
graphs, must give the same answer and, for iterative kernels, stop after the
same number of iterations. Integer results exactly; floating-point ones to
1e-9 relative (engine and flat sum in the same order); component labels as
partitions. This is what catches a front end that translates an option for
one engine and not the other (PageRank's NetworkX tolerance once ran 60
iterations instead of 8 on the CLI's engine path)."""
import json
import subprocess

import numpy as np
import pytest

import numagraph as ng
from harness import numagraph_bin, read_vertex_values

GRAPHS = {
    "email-Enron": ("email-Enron/email-Enron.txt.gz", True),  # (path, symmetrize)
    "p2p-Gnutella05": ("p2p-Gnutella05/p2p-Gnutella05.txt", False),
}
TOPOLOGIES = {"one node": "pack:1 numa:1 core:2 pu:1", "two nodes": "pack:2 numa:1 core:1 pu:1"}
ENGINES = ["flat", "numa"]


def cli(kernel, path, symmetrize, engine, topology, flags, tmp_path):
    """Runs one CLI kernel; returns (values by user id, the JSON record)."""
    out = tmp_path / f"{kernel}-{engine}.txt"
    args = [str(numagraph_bin()), kernel, str(path), "--engine", engine, "--topology", topology, "--bind", "none",
            "-n", "1", "--json", "--output", str(out), *map(str, flags)]
    if symmetrize:
        args.append("-s")
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout.splitlines()[-1])
    assert record["engine"] == engine
    return read_vertex_values(out), record


def as_array(values, g):
    """CLI values (by user id) in the Python graph's vertex order."""
    ids = g.labels if g.labels is not None else range(g.num_vertices)
    return np.array([values[int(u)] for u in ids])


def partition(labels):
    groups = {}
    for v, label in enumerate(labels):
        groups.setdefault(label, []).append(v)
    return sorted(groups.values())


@pytest.fixture(scope="module", params=sorted(GRAPHS))
def graph(request, shared_data):
    path, symmetrize = GRAPHS[request.param]
    return shared_data / path, symmetrize, ng.read(shared_data / path, directed=False if symmetrize else None)


# kernel: (CLI flags, Python call, how to compare)
KERNELS = {
    "bfs": (["--source", "{root}"], lambda g, root, e: ng.bfs(g, root, engine=e), "exact"),
    "sssp": (["--source", "{root}"], lambda g, root, e: ng.sssp(g, root, engine=e), "float"),
    "bc": (["--sources", "4"], lambda g, root, e: ng.betweenness(g, 4, engine=e), "float"),
    "pr": (["--networkx"], lambda g, root, e: ng.pagerank(g, networkx=True, tolerance=1e-6, max_iterations=100,
                                                         return_info=True, engine=e), "pagerank"),
    "spmv": (["-i", "5"], lambda g, root, e: ng.spmv(g, 5, engine=e), "float"),
    "bp": (["-i", "5"], lambda g, root, e: ng.belief_propagation(g, 5, engine=e), "float"),
    "cc": ([], lambda g, root, e: ng.connected_components(g, engine=e), "partition"),
    "kcore": ([], lambda g, root, e: ng.core_number(g, engine=e), "exact"),
    "eigenvector": (["--unweighted", "--max-iterations", "1000"],
                    lambda g, root, e: ng.eigenvector_centrality(g, max_iter=1000, weight=None, engine=e), "float"),
    "katz": (["--unweighted", "--alpha", "0.005"],
             lambda g, root, e: ng.katz_centrality(g, alpha=0.005, weight=None, engine=e), "float"),
}


@pytest.mark.parametrize("topology", sorted(TOPOLOGIES))
@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_every_path_gives_the_same_answer(graph, kernel, topology, tmp_path):
    path, symmetrize, g = graph
    if kernel in ("bp", "kcore") and not symmetrize:
        pytest.skip(f"{kernel} needs an undirected graph")
    flags, call, compare = KERNELS[kernel]
    root = int(g.labels[0]) if g.labels is not None else 0
    flags = [f.replace("{root}", str(root)) for f in flags]
    answers = {}
    for engine in ENGINES:
        values, record = cli(kernel, path, symmetrize, engine, TOPOLOGIES[topology], flags, tmp_path)
        answers[("cli", engine)] = (as_array(values, g), record["iterations"] if compare == "pagerank" else None)
        with ng.config(topology=TOPOLOGIES[topology], bind="none"):
            result = call(g, root, engine)
        if compare == "pagerank":
            scores, iterations, _ = result
            answers[("python", engine)] = (np.asarray(scores), iterations)
        else:
            answers[("python", engine)] = (np.asarray(result), None)
    (first_path, (want, want_iterations)), *others = answers.items()
    for where, (got, iterations) in others:
        assert iterations == want_iterations, f"{where}: {iterations} iterations, {first_path}: {want_iterations}"
        if compare == "exact":
            np.testing.assert_array_equal(got, want, err_msg=str(where))
        elif compare == "partition":
            assert partition(got.tolist()) == partition(want.tolist()), where
        else:
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=str(where))


def test_betweenness_refuses_empty_sources():
    g = ng.generate.kronecker(8)
    with pytest.raises(ng.UsageError, match="at least one source"):
        ng.betweenness(g, sources=[])

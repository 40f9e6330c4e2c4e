"""Shared helpers of the CLI tests: random NetworkX graphs written as Matrix
Market files, readers of the real graphs in ../shared/data as NetworkX sees
them, and verified runs whose --output is read back."""
import functools
import gzip
import random

import networkx as nx
import scipy.io

from harness import read_vertex_values, run_json


def write_mtx(path, G, weighted=False):
    """Writes G as Matrix Market (declares n, so isolated vertices survive)."""
    directed = G.is_directed()
    edges = [(u, v, d.get("weight", 1)) for u, v, d in G.edges(data=True)]
    if not directed:
        edges = [(max(u, v), min(u, v), w) for u, v, w in edges]
    field = "integer" if weighted else "pattern"
    with open(path, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate {field} {'general' if directed else 'symmetric'}\n")
        f.write(f"{G.number_of_nodes()} {G.number_of_nodes()} {len(edges)}\n")
        for u, v, w in edges:
            f.write(f"{u + 1} {v + 1}" + (f" {w}" if weighted else "") + "\n")
    return path


def random_graph(seed, directed, n=120, p=0.03, weighted=False):
    """G(n, p) with 5 isolated vertices after the last; weights 1..255 when `weighted`."""
    rng = random.Random(seed)
    G = nx.gnp_random_graph(n, p, seed=seed, directed=directed)
    G.add_nodes_from(range(n + 5))  # isolated vertices at the end
    if weighted:
        for u, v in G.edges():
            G[u][v]["weight"] = rng.randint(1, 255)
    return G


GRAPHS = [(seed, directed) for seed in (1, 2) for directed in (False, True)]


def kernel_output(cli, tmp_path, kernel, graph_file, *flags, cast=float):
    """One verified trial (-n 1): the --output values and the last JSON record."""
    out = tmp_path / f"{kernel}.out"
    recs = run_json(kernel, graph_file, "--verify", "-n", "1", "--output", out, *flags)
    assert all(r["verified"] is True for r in recs), recs
    return read_vertex_values(out, cast), recs[-1]


def output_of(tmp_path, kernel, graph, *flags, cast=float):
    """A verified run, its trial count in `flags`: the --output values and the last record."""
    out = tmp_path / f"{kernel}.out"
    recs = run_json(kernel, graph, "--verify", "--output", out, *flags)
    assert recs and all(r["verified"] is True for r in recs), recs
    return read_vertex_values(out, cast), recs[-1]


def output_of_one_run(tmp_path, kernel, graph, *flags, cast=float):
    """One verified trial (-n 1): the --output values and the last JSON record."""
    out = tmp_path / f"{kernel}.out"
    recs = run_json(kernel, graph, "--verify", "-n", "1", "--output", out, *flags)
    assert recs and all(r["verified"] is True for r in recs), recs
    return read_vertex_values(out, cast), recs[-1]


def read_mtx_undirected(path):
    """A Matrix Market file as an undirected NetworkX graph without self-loops."""
    A = scipy.io.mmread(str(path)).tocoo()
    G = nx.Graph()
    G.add_nodes_from(range(A.shape[0]))
    G.add_edges_from((int(u), int(v)) for u, v in zip(A.row, A.col) if u != v)
    return G


@functools.lru_cache(maxsize=None)
def read_snap(path, directed):
    """A SNAP edge list as NetworkX reads it, without self-loops (numagraph drops them)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        G = nx.read_edgelist(f, nodetype=int, create_using=nx.DiGraph if directed else nx.Graph)
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    return G

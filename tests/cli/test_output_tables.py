"""--output follows its extension: .csv and .tsv files with a header row
`vertex,<column>` that pandas.read_csv reads back in the user's ids or names
(checked against NetworkX and against the header-less 'id value' lines, which
other names keep); .parquet and .gz are refused before any work."""
import math

import networkx as nx
import pandas as pd
import pytest

from cli.cli_util import random_graph, write_mtx
from harness import read_vertex_values, run_cli

# kernel, its flags, the value column the header names, how the value reads.
KERNELS = [
    ("bfs", ("--source", "3"), "depth", int),
    ("sssp", ("--source", "3"), "distance", float),
    ("bc", (), "betweenness", float),
    ("pr", (), "score", float),
    ("spmv", (), "value", float),
    ("bp", (), "probability", float),
    ("cc", (), "component", int),
    ("tc", (), "triangles", int),
    ("kcore", (), "core", int),
]


@pytest.fixture(scope="module")
def graph(tmp_path_factory):
    """An undirected weighted G(n, p) with isolated vertices, as .mtx, and its NetworkX graph."""
    G = random_graph(5, directed=False, n=60, p=0.08, weighted=True)
    path = write_mtx(tmp_path_factory.mktemp("out") / "g.mtx", G, weighted=True)
    return path, G


def outputs(tmp_path, graph_file, kernel, flags, *names):
    """One run of `kernel` per output name (-n 1), the paths in `names` order."""
    paths = []
    for name in names:
        out = tmp_path / name
        run_cli(kernel, graph_file, "-n", "1", "-q", *flags, "--output", out)
        paths.append(out)
    return paths


@pytest.mark.parametrize("kernel,flags,column,cast", KERNELS, ids=[k[0] for k in KERNELS])
def test_csv_and_tsv_read_back_as_the_lines(cli, tmp_path, graph, kernel, flags, column, cast):
    path, G = graph
    lines, csv, tsv = outputs(tmp_path, path, kernel, flags, f"{kernel}.txt", f"{kernel}.csv", f"{kernel}.tsv")
    expected = read_vertex_values(lines, cast)
    assert not lines.read_text().startswith("vertex")  # other names keep the header-less lines
    for table in (pd.read_csv(csv), pd.read_csv(tsv, sep="\t")):
        assert list(table.columns) == ["vertex", column]
        assert table["vertex"].tolist() == sorted(G.nodes)  # every vertex once, in id order
        got = dict(zip(table["vertex"], table[column]))
        assert got.keys() == expected.keys()
        for v, value in expected.items():
            assert got[v] == value or (math.isinf(value) and math.isinf(got[v])), (v, got[v], value)


def test_csv_values_match_networkx(cli, tmp_path, graph):
    path, G = graph
    depth = pd.read_csv(outputs(tmp_path, path, "bfs", ("--source", "3"), "d.csv")[0], index_col="vertex")
    reached = nx.single_source_shortest_path_length(G, 3)
    assert depth["depth"].to_dict() == {v: reached.get(v, -1) for v in G}
    dist = pd.read_csv(outputs(tmp_path, path, "sssp", ("--source", "3"), "s.csv")[0], index_col="vertex")
    lengths = nx.single_source_dijkstra_path_length(G, 3)
    assert dist["distance"].to_dict() == {v: float(lengths.get(v, math.inf)) for v in G}
    core = pd.read_csv(outputs(tmp_path, path, "kcore", (), "k.csv")[0], index_col="vertex")
    assert core["core"].to_dict() == nx.core_number(G)
    tri = pd.read_csv(outputs(tmp_path, path, "tc", (), "t.csv")[0], index_col="vertex")
    assert tri["triangles"].to_dict() == nx.triangles(G)


NAMES_CSV = (
    "source,target\n"
    '"Smith, Ann","O\'Hara ""Red"""\n'
    '"O\'Hara ""Red""",bob\n'
    'bob,"Smith, Ann"\n'
    "bob,#7\n"
    "lone,pair\n"
)


def named_graph():
    G = nx.DiGraph()
    G.add_edges_from([("Smith, Ann", 'O\'Hara "Red"'), ('O\'Hara "Red"', "bob"), ("bob", "Smith, Ann"),
                      ("bob", "#7"), ("lone", "pair")])
    return G


@pytest.mark.parametrize("sep,ext", [(",", "csv"), ("\t", "tsv")])
def test_names_with_commas_and_quotes_read_back(cli, tmp_path, sep, ext):
    src = tmp_path / "names.csv"
    src.write_text(NAMES_CSV)
    G = named_graph()
    out = tmp_path / f"depth.{ext}"
    run_cli("bfs", src, "--source", "Smith, Ann", "-n", "1", "-q", "--output", out)
    depth = pd.read_csv(out, sep=sep, index_col="vertex", keep_default_na=False)["depth"].to_dict()
    reached = nx.single_source_shortest_path_length(G, "Smith, Ann")
    assert depth == {v: reached.get(v, -1) for v in G}
    comp = tmp_path / f"cc.{ext}"
    run_cli("cc", src, "-n", "1", "-q", "--output", comp)
    rep = pd.read_csv(comp, sep=sep, index_col="vertex", keep_default_na=False)["component"].to_dict()
    groups = {}
    for name, r in rep.items():
        groups.setdefault(r, set()).add(name)
    assert {frozenset(g) for g in groups.values()} == {frozenset(c) for c in nx.weakly_connected_components(G)}
    assert all(r in members for r, members in groups.items())  # representatives are member names


@pytest.mark.parametrize("kernel,python", [("bfs", "numagraph.bfs("), ("bc", "numagraph.betweenness("),
                                           ("kcore", "numagraph.core_number(")])
def test_parquet_is_refused_before_loading_with_the_python_call(cli, tmp_path, kernel, python):
    out = tmp_path / "scores.parquet"
    missing = tmp_path / "not-there.el"  # refused before loading: the missing graph is never read
    proc = run_cli(kernel, missing, "--output", out, check=False)
    assert proc.returncode == 2, proc.stderr
    assert python in proc.stderr and "as_frame=True).to_parquet(" in proc.stderr, proc.stderr
    assert "scores.csv" in proc.stderr and "not-there" not in proc.stderr, proc.stderr
    assert not out.exists()


def test_gz_is_refused_with_the_plain_name(cli, tmp_path):
    out = tmp_path / "scores.csv.gz"
    proc = run_cli("pr", "--kron", "6", "--output", out, check=False)
    assert proc.returncode == 2 and "scores.csv and compress" in proc.stderr, proc.stderr
    assert not out.exists()

"""Every real-world edge-file shape of tests/file_shapes.py through the CLI:
what numagraph decided (the --json record's "input" object) equals what the
file means, each decision's note is on stderr, and the graph (vertices,
edges, components, PageRank, BFS depths, SSSP distances when weighted)
equals the NetworkX graph of the same data."""
import csv
import json
import math

import networkx as nx
import pytest

from file_shapes import SHAPES, nx_graph, write_shape
from harness import run_cli, run_json


def read_values(path):
    """An --output .csv file: {vertex (as text): value}."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0][0] == "vertex", rows[0]
    return {r[0]: float(r[1]) for r in rows[1:]}


@pytest.fixture(params=sorted(SHAPES))
def shape(request, tmp_path):
    return write_shape(request.param, tmp_path)


def test_decisions_notes_and_size(cli, shape):
    if not shape.cli:
        proc = run_cli("info", shape.path, check=False)
        assert proc.returncode != 0 and shape.refusal in proc.stderr, proc.stderr
        return
    proc = run_cli("info", shape.path, "--json")
    rec = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]
    decided = rec.get("input", {})
    for key, value in shape.expected.items():
        if value is None:
            assert key not in decided, (key, decided)
        else:
            assert decided.get(key) == value, (key, decided, proc.stderr)
    for text in shape.notes:
        assert text in proc.stderr, (text, proc.stderr)
    # Every note once, each naming the file.
    notes = [line for line in proc.stderr.splitlines() if line.startswith("numagraph: note:")]
    assert len(notes) == len(set(notes)), notes
    assert all(f"note: {shape.path}: " in n for n in notes), notes
    G = nx_graph(shape)
    assert rec["num_vertices"] == G.number_of_nodes(), (rec, sorted(G.nodes))
    assert rec["num_edges"] == G.number_of_edges()
    assert rec["weighted"] == (len(shape.edges[0]) == 3)


def test_components_match_networkx(cli, shape):
    if not shape.cli:
        pytest.skip("refused by the CLI")
    rec = run_json("cc", shape.path, "-n", "1")[-1]
    assert rec["num_components"] == nx.number_weakly_connected_components(nx_graph(shape))


def test_pagerank_and_bfs_match_networkx(cli, shape, tmp_path):
    if not shape.cli:
        pytest.skip("refused by the CLI")
    G = nx_graph(shape)
    out = tmp_path / "pr.csv"
    run_json("pr", shape.path, "--networkx", "--tolerance", "1e-12", "-i", "1000", "-n", "1", "--verify",
             "--output", out)
    scores = read_values(out)
    expected = nx.pagerank(G, tol=1e-12, max_iter=1000)  # weighted when the file has weights
    assert set(scores) == {str(v) for v in G}
    for v, s in expected.items():
        assert scores[str(v)] == pytest.approx(s, abs=1e-8), v
    root = shape.edges[0][0]
    out = tmp_path / "bfs.csv"
    run_json("bfs", shape.path, "--source", root, "-n", "1", "--verify", "--output", out)
    depth = read_values(out)
    expected = nx.single_source_shortest_path_length(G, root)
    assert {v: int(d) for v, d in depth.items() if d >= 0} == {str(v): d for v, d in expected.items()}


def test_weights_match_networkx(cli, shape, tmp_path):
    if not shape.cli or len(shape.edges[0]) != 3:
        pytest.skip("no weights")
    G = nx_graph(shape)
    root = shape.edges[0][0]
    out = tmp_path / "sssp.csv"
    run_json("sssp", shape.path, "--source", root, "-n", "1", "--verify", "--output", out)
    dist = read_values(out)
    expected = nx.single_source_dijkstra_path_length(G, root)
    assert {v: d for v, d in dist.items() if math.isfinite(d)} == pytest.approx(
        {str(v): float(d) for v, d in expected.items()})


def test_weight_column_none_reads_any_format_unweighted(cli, tmp_path):
    shape = write_shape("r_write_csv", tmp_path)
    rec = run_json("info", shape.path, "--weight-column", "none")[-1]
    assert rec["input"]["weight_column"] == "none" and not rec.get("weighted", False)
    wel = tmp_path / "g.wel"
    wel.write_text("0 1 5\n1 2 7\n")
    rec = run_json("bfs", wel, "--weight-column", "none", "-n", "1")[-1]
    assert rec["weighted"] is False and rec["input"]["weight_column"] == "none"
    mtx = tmp_path / "g.mtx"
    mtx.write_text("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0.5\n2 3 1.5\n")
    rec = run_json("bfs", mtx, "--weight-column", "none", "-n", "1")[-1]
    assert rec["weighted"] is False


def test_weight_column_by_name_and_number(cli, tmp_path):
    shape = write_shape("pandas_no_index", tmp_path)
    rec = run_json("info", shape.path, "--weight-column", "since")[-1]
    assert rec["input"]["weight_column"] == "since"
    rec = run_json("info", shape.path, "--weight-column", "3")[-1]
    assert rec["input"]["weight_column"] == "since"
    proc = run_cli("info", shape.path, "--weight-column", "cost", check=False)
    assert proc.returncode == 2 and "is not a column of the file" in proc.stderr, proc.stderr


def test_text_chosen_as_weight_is_an_error_with_the_fix(cli, tmp_path):
    p = tmp_path / "labels.csv"
    p.write_text("source,target,weight\na,b,1\nb,c,heavy\n")
    proc = run_cli("info", p, check=False)
    assert proc.returncode != 0, proc.stderr
    assert f"{p}:3:" in proc.stderr and "--weight-column none" in proc.stderr, proc.stderr


def test_symmetrize_settles_direction_without_a_note(cli, tmp_path):
    shape = write_shape("person_friend", tmp_path)
    proc = run_cli("cc", shape.path, "-s", "-n", "1", "--json")
    assert "directed" not in proc.stderr, proc.stderr
    rec = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")][-1]
    assert rec["input"]["directed"] is False and rec["num_components"] == 1 and rec["num_vertices"] == 3


def test_headers_need_no_flag_and_flags_override(cli, tmp_path):
    shape = write_shape("person_friend", tmp_path)
    rec = run_json("info", shape.path, "--no-header")[-1]
    assert rec["num_vertices"] == 5 and rec["input"]["header"] is False
    names = tmp_path / "names.el"
    names.write_text("from to\na b\nb c\n")
    rec = run_json("info", names)[-1]
    assert rec["num_vertices"] == 3 and rec["input"]["header"] is True


def test_empty_and_header_only_files_are_clear_errors(cli, tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    proc = run_cli("info", empty, check=False)
    assert proc.returncode != 0 and "no edges" in proc.stderr, proc.stderr
    only = tmp_path / "only.csv"
    only.write_text("source,target\n")
    proc = run_cli("info", only, check=False)
    assert proc.returncode != 0 and "only a header line" in proc.stderr and "--no-header" in proc.stderr


def test_huge_ids_are_names_with_a_note(cli, tmp_path):
    p = tmp_path / "huge.el"
    p.write_text("18446744073709551615 1\n1 2\n")
    proc = run_cli("info", p, "--json")
    assert "2^63 or more" in proc.stderr, proc.stderr
    rec = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")][-1]
    assert rec["input"]["ids"] == "names" and rec["num_vertices"] == 3


def test_weight_column_is_refused_for_generated_graphs(cli):
    proc = run_cli("bfs", "--kron", "6", "--weight-column", "none", "-n", "1", check=False)
    assert proc.returncode == 2 and "--weight-column picks a column of a graph file" in proc.stderr, proc.stderr

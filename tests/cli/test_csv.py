"""CSV/TSV input: a header line and string vertex names, checked against
NetworkX graphs built from the same files with the csv module; names in
--output, --json and --source; convert keeps names or refuses to lose them."""
import csv
import json

import networkx as nx
import pytest

from harness import REPO, run_cli, run_json

DATA = REPO / "tests" / "data"
HEADER_CSV = DATA / "tiny_header.csv"  # source,target,weight with integer ids
NAMES_TSV = DATA / "tiny_names.tsv"  # from<TAB>to with names, one quoted ("mary ann")


def nx_graph(path, delimiter, directed=True):
    """The file as NetworkX reads it with the csv module: header skipped, names as str."""
    G = nx.DiGraph() if directed else nx.Graph()
    with open(path, newline="") as f:
        rows = list(csv.reader(f, delimiter=delimiter))
    for row in rows[1:]:
        u, v = row[0], row[1]
        if delimiter == ",":
            u, v = int(u), int(v)
        G.add_edge(u, v, weight=float(row[2]) if len(row) > 2 else 1.0)
    return G


def read_named_values(path):
    """An --output file of a named graph: "name value" lines, names quoted when needed."""
    with open(path, newline="") as f:
        return {row[0]: row[1] for row in csv.reader(f, delimiter=" ")}


def test_bfs_from_a_name_matches_networkx(cli, tmp_path):
    out = tmp_path / "bfs.out"
    proc = run_cli("bfs", NAMES_TSV, "--source", "alice", "-n", "1", "--verify", "--output", out, "--json")
    assert "line 1 ('from', 'to') is read as a header" in proc.stderr and "--no-header" in proc.stderr, proc.stderr
    rec = [line for line in proc.stdout.splitlines() if line.startswith("{")][-1]
    assert '"roots": ["alice"]' in rec and '"header": true' in rec, rec
    depth = {k: int(v) for k, v in read_named_values(out).items()}
    expected = nx.single_source_shortest_path_length(nx_graph(NAMES_TSV, "\t"), "alice")
    assert set(depth) == set(nx_graph(NAMES_TSV, "\t"))  # every name, "mary ann" unquoted
    assert {k: d for k, d in depth.items() if d >= 0} == expected


def test_unknown_name_is_a_clear_error(cli):
    proc = run_cli("bfs", NAMES_TSV, "--source", "Alice", "-n", "1", check=False)
    assert proc.returncode == 2 and "'Alice' is not a name" in proc.stderr, proc.stderr


def test_roots_file_of_names(cli, tmp_path):
    roots = tmp_path / "roots.txt"
    roots.write_text("carol\nmary ann\n")
    rec = run_json("sssp", NAMES_TSV, "--roots", roots)[-1]
    assert rec["roots"] == ["carol", "mary ann"], rec


def test_cc_on_names_matches_networkx(cli, tmp_path):
    out = tmp_path / "cc.out"
    run_cli("cc", NAMES_TSV, "-n", "1", "--verify", "--output", out)
    rep = read_named_values(out)
    groups = {}
    for name, r in rep.items():
        groups.setdefault(r, set()).add(name)
    expected = {frozenset(c) for c in nx.weakly_connected_components(nx_graph(NAMES_TSV, "\t"))}
    assert {frozenset(g) for g in groups.values()} == expected
    assert all(r in groups[r] for r in groups)  # representatives are names of members


def test_pagerank_on_header_csv_matches_networkx(cli, tmp_path):
    out = tmp_path / "pr.out"
    recs = run_json("pr", HEADER_CSV, "--networkx", "--tolerance", "1e-10", "-i", "1000", "-n", "1",
                    "--output", out)
    assert recs[-1]["header"] is True and recs[-1]["weighted"] is True
    assert recs[-1]["weights_used"] is True  # PageRank weighs the edges, as networkx.pagerank's default
    expected = nx.pagerank(nx_graph(HEADER_CSV, ","), tol=1e-10, max_iter=1000)
    with open(out) as f:
        got = {int(k): float(v) for k, v in (line.split() for line in f)}
    assert got.keys() == expected.keys()
    for v, s in expected.items():
        assert got[v] == pytest.approx(s, abs=1e-8), v


def test_top_ids_are_names_in_json_and_table(cli):
    rec = run_json("pr", NAMES_TSV, "-n", "1")[-1]
    assert all(isinstance(i, str) for i in rec["top_ids"]) and "mary ann" in rec["top_ids"], rec
    table = run_cli("pr", NAMES_TSV, "-n", "1").stdout
    assert "mary ann" in table and "alice" in table, table


def test_header_flags(cli):
    # --no-header makes "source,target,weight" an edge: ids become names, and the third
    # column, text on line 1, no weights; both said on stderr.
    proc = run_cli("info", HEADER_CSV, "--no-header", "--json")
    rec = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]
    assert rec["input"]["ids"] == "names" and rec["input"]["weight_column"] == "none", rec
    assert "line 1 has 'weight', not a number" in proc.stderr and "line 1 has 'source'" in proc.stderr, proc.stderr
    # The names file's first line "from<TAB>to" is a header, or with --no-header one more edge.
    with_header = run_json("cc", NAMES_TSV, "--header", "-n", "1")[-1]
    without = run_json("cc", NAMES_TSV, "--no-header", "-n", "1")[-1]
    assert without["num_edges"] == with_header["num_edges"] + 1
    assert without["header"] is False and with_header["header"] is True


def test_convert_keeps_names_in_csv_and_refuses_to_lose_them(cli, tmp_path):
    out = tmp_path / "names.csv"
    run_cli("convert", NAMES_TSV, out)
    assert out.read_text().splitlines()[0] == "source,target"
    G = nx.DiGraph()  # names are str: not nx_graph, which reads CSV ids as int
    with open(out, newline="") as f:
        G.add_edges_from(tuple(r) for r in list(csv.reader(f))[1:])
    assert set(G.edges) == set(nx_graph(NAMES_TSV, "\t").edges)
    for target in ("names.el", "names.mtx"):  # .ngr keeps names: tests/cli/test_ngr_names.py
        proc = run_cli("convert", NAMES_TSV, tmp_path / target, check=False)
        assert proc.returncode == 2 and "vertex names" in proc.stderr and ".ngr, .csv" in proc.stderr, proc.stderr
        assert not (tmp_path / target).exists()


def test_more_columns_are_ignored_with_a_note(cli, tmp_path):
    wide = tmp_path / "wide.csv"
    wide.write_text("a,b,w,extra\n0,1,2,3\n1,2,5,6\n")
    proc = run_cli("info", wide, "--json")
    rec = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]
    assert rec["input"]["weight_column"] == "w" and rec["input"]["extra_columns"] == "extra", rec
    assert rec["weighted"] and rec["num_edges"] == 2
    assert "column 4 ('extra') is ignored" in proc.stderr and "--weight-column" in proc.stderr, proc.stderr


def test_unknown_format_lists_csv(cli):
    proc = run_cli("info", HEADER_CSV, "--format", "xlsx", check=False)
    assert proc.returncode == 2 and "csv tsv" in proc.stderr, proc.stderr


def test_info_says_names_and_header(cli):
    names = run_json("info", NAMES_TSV)[0]
    ids = run_json("info", HEADER_CSV)[0]
    assert (names["vertex_names"], names["header"], names["num_vertices"]) == (True, True, 9), names
    assert (ids["vertex_names"], ids["header"], ids["weight_kind"]) == (False, True, "integer"), ids
    assert "(named by the file)" in run_cli("info", NAMES_TSV).stdout


def test_reorder_root_and_locality_root_take_names(cli, tmp_path):
    plain, reordered = tmp_path / "plain.out", tmp_path / "rcm.out"
    run_cli("bfs", NAMES_TSV, "--source", "alice", "-n", "1", "--output", plain)
    proc = run_cli("bfs", NAMES_TSV, "--source", "alice", "-n", "1", "--output", reordered,
                   "--reorder", "rcm", "--reorder-root", "mary ann")
    assert proc.returncode == 0, proc.stderr
    assert read_named_values(reordered) == read_named_values(plain)  # the order changes, not the answer
    bad = run_cli("bfs", NAMES_TSV, "--reorder", "rcm", "--reorder-root", "zoe", "-n", "1", check=False)
    assert bad.returncode == 2 and "--reorder-root" in bad.stderr and "'zoe'" in bad.stderr, bad.stderr
    rec = run_json("info", NAMES_TSV, "--locality", "--reorder", "rcm", "--reorder-root", "dave", "--root", "bob")[0]
    assert rec["num_vertices"] == 9, rec
    bad = run_cli("info", NAMES_TSV, "--locality", "--root", "Bob", check=False)
    assert bad.returncode == 2 and "--root" in bad.stderr and "'Bob'" in bad.stderr, bad.stderr

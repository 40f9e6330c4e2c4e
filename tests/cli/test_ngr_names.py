"""Vertex names survive .ngr: a graph read with names converts and reorders to
.ngr and back, kernels on the .ngr answer in names (checked against NetworkX),
and a damaged or truncated names section is refused, with or without the
checksum."""
import csv
import struct

import networkx as nx
import pandas as pd

from harness import NAMES_TSV, REPO, nx_names_graph, run_cli, run_json

NAMES_OFFSET = 120  # header field: byte offset of the names section (docs/formats.md)


def edges_of_csv(path):
    with open(path, newline="") as f:
        return {tuple(r) for r in list(csv.reader(f))[1:]}


def test_reorder_names_to_ngr_and_run_in_names(cli, tmp_path):
    ngr = tmp_path / "rcm.ngr"
    run_cli("reorder", NAMES_TSV, ngr, "--order", "rcm")
    info = run_json("info", ngr)[0]
    assert info["vertex_names"] is True and info["num_vertices"] == 9, info
    out = tmp_path / "depth.csv"
    run_cli("bfs", ngr, "--source", "mary ann", "-n", "1", "--verify", "--output", out)
    depth = pd.read_csv(out, index_col="vertex")["depth"].to_dict()
    G = nx_names_graph()
    reached = nx.single_source_shortest_path_length(G, "mary ann")
    assert depth == {v: reached.get(v, -1) for v in G}
    back = tmp_path / "back.csv"  # and back to a table: the same edges, in names
    run_cli("convert", ngr, back)
    assert edges_of_csv(back) == set(G.edges)


def test_convert_names_to_ngr_and_back(cli, tmp_path):
    ngr, back = tmp_path / "names.ngr", tmp_path / "back.tsv"
    run_cli("convert", NAMES_TSV, ngr)
    run_cli("convert", ngr, back)
    with open(back, newline="") as f:
        assert {tuple(r) for r in list(csv.reader(f, delimiter="\t"))[1:]} == set(nx_names_graph().edges)
    bad = run_cli("bfs", ngr, "--source", "Alice", "-n", "1", check=False)
    assert bad.returncode == 2 and "'Alice' is not a name" in bad.stderr, bad.stderr


def test_reorder_to_a_table_points_to_ngr(cli, tmp_path):
    proc = run_cli("reorder", NAMES_TSV, tmp_path / "x.csv", "--order", "rcm", check=False)
    assert proc.returncode == 2, proc.stderr
    assert "must be a .ngr file" in proc.stderr and "numagraph convert OUT.ngr" in proc.stderr, proc.stderr
    assert not (tmp_path / "x.csv").exists()


def test_files_without_names_have_no_names_section(cli, tmp_path):
    ngr = tmp_path / "plain.ngr"
    run_cli("convert", REPO / "tests" / "data" / "tiny.el", ngr)
    data = ngr.read_bytes()
    assert struct.unpack_from("<I", data, 12)[0] & 16 == 0 and struct.unpack_from("<Q", data, NAMES_OFFSET)[0] == 0
    assert run_json("info", ngr)[0]["vertex_names"] is False


def damaged(tmp_path, change):
    good = tmp_path / "names.ngr"
    run_cli("convert", NAMES_TSV, good)
    data = bytearray(good.read_bytes())
    assert struct.unpack_from("<I", data, 12)[0] & 16  # the names flag
    path = tmp_path / "damaged.ngr"
    path.write_bytes(change(data, struct.unpack_from("<Q", data, NAMES_OFFSET)[0]))
    return path


def refusals(path):
    """(with the checksum, without it): each load's stderr, after checking it was refused."""
    said = []
    for flags in ((), ("--no-checksum",)):
        proc = run_cli("info", path, *flags, check=False)
        assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
        said.append(proc.stderr)
    return said


def test_truncated_names_section_is_refused(cli, tmp_path):
    path = damaged(tmp_path, lambda data, at: data[: at + 40])  # cut inside the name ends
    checked, unchecked = refusals(path)
    assert "checksum mismatch" in checked, checked
    assert "the names section lies outside the file" in unchecked, unchecked


def test_damaged_names_sections_are_refused(cli, tmp_path):
    def count(data, at):
        struct.pack_into("<Q", data, at, 8)  # 8 names for 9 vertices
        return data
    assert "8 names for 9 vertices" in refusals(damaged(tmp_path, count))[1]

    def repeat(data, at):
        text = data.index(b"bob", at)
        data[text:text + 3] = b"eve"  # two vertices named eve
        return data
    assert "the name 'eve' appears twice" in refusals(damaged(tmp_path, repeat))[1]

    def undeclared(data, at):
        struct.pack_into("<I", data, 12, struct.unpack_from("<I", data, 12)[0] & ~16)
        return data
    assert "a names section the flags do not declare" in refusals(damaged(tmp_path, undeclared))[1]

"""Readers agree with the verified counts of the real graphs in ../shared/data,
CLI round trips through `numagraph convert`, and bad files give one-line
errors with documented exit codes."""
import json
import struct

import pytest

from harness import run_cli, run_json

# path, vertices, edges as `info` reports them (undirected: each edge once), directed, extra flags
REAL_GRAPHS = [
    ("facebook_combined/facebook_combined.txt.gz", 4039, 88234, True, []),
    # wiki-Vote's ids start at 3: relabelled by default (no isolated vertices 0..2), as NetworkX reads it
    ("wiki-Vote/wiki-Vote.txt.gz", 7115, 103689, True, []),
    ("wiki-Vote/wiki-Vote.txt.gz", 8298, 103689, True, ["--relabel", "off"]),
    ("wiki-Vote/wiki-Vote.txt.gz", 7115, 103689, True, ["--relabel", "on"]),
    ("p2p-Gnutella05/p2p-Gnutella05.txt", 8846, 31839, True, []),
    ("email-Enron/email-Enron.txt.gz", 36692, 367662, True, []),
    ("soc-Slashdot0902/soc-Slashdot0902.txt.gz", 82168, 948464, True, []),
    ("rome99/rome99.gr", 3353, 8870, True, []),
    ("USA-road-d.NY/USA-road-d.NY.gr.gz", 264346, 733846, True, []),
    ("netscience/netscience.mtx", 1589, 2742, False, []),
    ("PGPgiantcompo/PGPgiantcompo.graph", 10680, 24316, False, []),
]


@pytest.mark.parametrize("rel,n,m,directed,flags", REAL_GRAPHS)
def test_real_graph_counts(cli, shared_data, rel, n, m, directed, flags):
    info = run_json("info", shared_data / rel, *flags)[0]
    assert info["num_vertices"] == n
    assert info["num_edges"] == m
    assert info["directed"] == directed


def test_symmetrized_enron_has_183831_distinct_edges(cli, shared_data):
    # Both directions are stored, so -s (info keeps duplicates) doubles every arc.
    info = run_json("info", shared_data / "email-Enron/email-Enron.txt.gz", "-s")[0]
    assert not info["directed"]
    assert (info["num_arcs"] - info["duplicate_arcs"]) // 2 == 183831


def test_known_duplicates_and_self_loops(cli, shared_data):
    rome = run_json("info", shared_data / "rome99/rome99.gr")[0]
    assert rome["duplicate_arcs"] == 8870 - 8859
    slash = run_json("info", shared_data / "soc-Slashdot0902/soc-Slashdot0902.txt.gz")[0]
    assert slash["self_loops"] == 78303


@pytest.mark.parametrize("ext", ["ngr", "el", "mtx", "sg"])
def test_convert_round_trip_keeps_counts(cli, shared_data, tmp_path, ext):
    src = shared_data / "netscience/netscience.mtx"
    out = tmp_path / f"net.{ext}"
    run_cli("convert", src, out)
    flags = ["-s"] if ext == "el" else []
    before = run_json("info", src)[0]
    after = run_json("info", out, *flags)[0]
    assert after["num_edges"] == before["num_edges"]
    assert after["directed"] == before["directed"]


@pytest.mark.parametrize("rel,exts", [
    ("rome99/rome99.gr", ["ngr", "wel", "mtx", "wsg"]),
    ("PGPgiantcompo/PGPgiantcompo.graph", ["ngr", "el", "mtx", "sg"]),
    ("wiki-Vote/wiki-Vote.txt.gz", ["ngr", "el"]),
])
def test_real_graph_round_trips_through_every_writer(cli, shared_data, tmp_path, rel, exts):
    """file -> convert -> X -> convert -> .ngr: same counts, weights, self-loops and duplicates."""
    src = shared_data / rel
    before = run_json("info", src)[0]
    for ext in exts:
        out = tmp_path / f"g.{ext}"
        run_cli("convert", src, out)
        again = tmp_path / f"g_{ext}.ngr"
        flags = ["-s"] if ext in ("el", "wel") and not before["directed"] else []
        run_cli("convert", out, again, *flags)
        after = run_json("info", again)[0]
        for key in ("num_vertices", "num_edges", "num_arcs", "directed", "self_loops", "duplicate_arcs"):
            if key == "num_vertices" and ext in ("el", "wel"):
                continue  # edge lists cannot record isolated vertices past the largest id
            assert after[key] == before[key], (ext, key)
        if ext in ("wel", "mtx", "wsg", "ngr"):
            assert after["weight_kind"] == before["weight_kind"], ext


def test_wiki_vote_relabelled_keeps_labels_through_ngr(cli, shared_data, tmp_path):
    out = tmp_path / "wiki.ngr"
    run_cli("convert", shared_data / "wiki-Vote/wiki-Vote.txt.gz", out, "--relabel", "on")
    info = run_json("info", out)[0]
    assert info["num_vertices"] == 7115 and info["relabelled"]
    back = tmp_path / "wiki.el"
    run_cli("convert", out, back)
    first_ids = {int(t) for line in back.read_text().splitlines()[:1000] for t in line.split()}
    assert max(first_ids) > 7115 - 1  # original ids, not the compact ones


def test_ngr_checksum_can_be_skipped(cli, tmp_path):
    path = tmp_path / "g.ngr"
    run_cli("generate", "kron", "--scale", "8", "-o", path)
    data = bytearray(path.read_bytes())
    n, offsets_at = struct.unpack_from("<Q", data, 16)[0], struct.unpack_from("<Q", data, 56)[0]
    pad = offsets_at + (n + 1) * 8  # zero padding after the out offsets (257 x 8 bytes, then 56 to align)
    assert pad % 64 != 0
    data[pad] ^= 0x5A  # covered by the checksum, checked by nothing else
    path.write_bytes(bytes(data))
    proc = run_cli("info", path, check=False)
    assert proc.returncode == 3 and "checksum mismatch" in proc.stderr
    assert run_cli("info", path, "--no-checksum", check=False).returncode == 0


def test_generate_then_load_every_writable_format(cli, tmp_path):
    for ext in ["ngr", "el", "wel", "mtx", "sg", "wsg"]:
        out = tmp_path / f"g.{ext}"
        run_cli("generate", "kron", "--scale", "10", "--weighted", "-o", out)
        info = run_json("info", out, *(["-s"] if ext in ("el", "wel") else []))[0]
        assert info["num_edges"] > 0


BAD_FILES = [
    ("bad.el", "0 1\n1\n", 3, "bad.el:2: missing target id"),
    ("bad.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n3 1\n", 3, "bad.mtx:3: row index 3"),
    ("count.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 4\n1 2\n", 3, "count.mtx:2: the size line"),
    ("bad.gr", "p sp 2 2\na 1 2 1\n", 3, "bad.gr:1: the problem line declares 2 arcs"),
    ("neg.gr", "p sp 2 1\na 1 2 -1\n", 3, "neg.gr:2: negative weight"),
    ("bad.wel", "0 1 nan\n", 3, "bad.wel:1: weight is not a finite number"),
    ("asym.graph", "3 2\n2\n1 3\n2 1\n", 3, "asym.graph:4: the adjacency is not symmetric"),
    ("short.graph", "3 1\n2\n1\n", 3, "short.graph:1: the header declares 3 vertices"),
    ("empty.el", "", 3, "empty.el:1: no edges"),
    ("bad.ngr", "NOTAGRAPHFILE" * 20, 3, "bad magic"),
    ("short.sg", "\x01" + "\x00" * 30, 3, "truncated"),
]


@pytest.mark.parametrize("name,text,code,fragment", BAD_FILES)
def test_bad_files_give_one_line_errors(cli, tmp_path, name, text, code, fragment):
    path = tmp_path / name
    path.write_text(text)
    proc = run_cli("info", path, check=False)
    assert proc.returncode == code
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("numagraph: error: ")
    assert fragment in lines[0]


def test_missing_file_is_an_io_error(cli):
    proc = run_cli("info", "/no/such/graph.el", check=False)
    assert proc.returncode == 4
    assert "No such file" in proc.stderr


def test_usage_error_exit_code(cli):
    proc = run_cli("info", check=False)
    assert proc.returncode == 2
    proc = run_cli("info", "--kron", "5", "--uniform", "5", check=False)
    assert proc.returncode == 2
    assert "exactly one graph" in proc.stderr


def test_relabel_notice_and_labels_in_output(cli, tmp_path):
    path = tmp_path / "huge.el"
    path.write_text(f"{2**40} {2**40 + 7}\n{2**40 + 7} 3\n")
    proc = run_cli("info", path, "--json")
    assert "relabelled" in proc.stderr
    assert json.loads(proc.stdout)["num_vertices"] == 3
    out = tmp_path / "back.el"
    run_cli("convert", path, out)
    assert out.read_text().split("\n")[0] == f"{2**40 + 7} 3" or f"{2**40} {2**40 + 7}" in out.read_text()

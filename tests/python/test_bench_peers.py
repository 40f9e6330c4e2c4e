"""bench/peers.py's CLI kernels (bfs, pr, pr_spmv, cc, tc, kcore) without any peer: one row per
kernel with numagraph's times and answers, the answers those of networkx on the same graph;
the Ligra adjacency it writes from a .sg equals the one the experiments write from the edge
list; an unknown kernel is refused; a graph outside ../shared/data is read from
$NUMAGRAPH_EXTRA_DATA or named with where to get it. Needs the CLI (NUMAGRAPH_BIN, default build/numagraph)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from numagraph.experiments.peers import write_adjacency

from bench_scripts import load_bench

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "bench" / "peers.py"
CLI = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))
pytestmark = pytest.mark.skipif(not CLI.is_file(), reason=f"numagraph CLI not built ({CLI}); set NUMAGRAPH_BIN")
KERNELS = ["bfs", "pr", "pr_spmv", "cc", "tc", "kcore"]


def no_peers_env():
    env = {k: v for k, v in os.environ.items() if k not in ("GAPBS_DIR", "GBBS_DIR", "LIGRA_DIR")}
    env["NUMAGRAPH_BIN"] = str(CLI)
    return env


def test_cli_kernels_without_peers_answer_as_networkx(tmp_path):
    out = tmp_path / "rows.json"
    proc = subprocess.run([sys.executable, SCRIPT, "--graphs", "kron9", "--kernels", ",".join(KERNELS),
                           "--rounds", "2", "--trials", "1", "--threads", "2", "--workdir", tmp_path,
                           "--out", out], capture_output=True, text=True, env=no_peers_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = {r["kernel"]: r for r in json.loads(out.read_text())}
    assert list(rows) == KERNELS
    assert len(proc.stdout.strip().splitlines()) == len(KERNELS)  # one summary line each
    for k, row in rows.items():
        assert row["graph"] == "kron9" and row["peers"] == {} and "ratio" not in row
        assert all(t > 0 for t in row["numagraph"].values()), row
        assert set(row["numagraph"]) == set(row["numagraph_fastest"])
    assert set(rows["cc"]["numagraph"]) == {"afforest", "sv"}
    assert rows["pr_spmv"]["iterations"]["jacobi"] <= 20

    subprocess.run([CLI, "convert", tmp_path / "kron9.ngr", tmp_path / "kron9.el", "-q"], check=True)
    g = nx.read_edgelist(tmp_path / "kron9.el", nodetype=int)
    root = rows["bfs"]["roots"][0]
    assert rows["bfs"]["checks"]["numagraph"] == len(nx.node_connected_component(g, root))
    isolated = 2 ** 9 - g.number_of_nodes()  # vertices without edges are not in the edge list
    assert rows["cc"]["checks"]["numagraph"] == nx.number_connected_components(g) + isolated
    assert rows["tc"]["checks"]["numagraph"] == sum(nx.triangles(g).values()) // 3
    assert rows["kcore"]["checks"]["numagraph"] == max(nx.core_number(g).values())
    # Gauss-Seidel and Jacobi approach the same scores (L1 change below 1e-4 for both).
    gs, jacobi = rows["pr"]["checks"]["numagraph"], rows["pr_spmv"]["checks"]["numagraph"]
    assert 0 < gs and abs(gs - jacobi) <= 0.01 * gs


def test_adjacency_from_sg_matches_the_edge_list_one(tmp_path):
    peers = load_bench("peers")
    ngr, sg, el = tmp_path / "g.ngr", tmp_path / "g.sg", tmp_path / "g.el"
    for cmd in (["generate", "uniform", "--scale", "8", "-o", ngr], ["convert", ngr, sg], ["convert", ngr, el]):
        subprocess.run([CLI, *cmd, "-q"], check=True)
    peers.write_adjacency_from_sg(sg, tmp_path / "from_sg.adj")
    write_adjacency(el, tmp_path / "from_el.adj", weighted=False)
    assert (tmp_path / "from_sg.adj").read_text() == (tmp_path / "from_el.adj").read_text()


def test_unknown_kernel_is_refused(tmp_path):
    proc = subprocess.run([sys.executable, SCRIPT, "--graphs", "kron8", "--kernels", "bfs,nope",
                           "--workdir", tmp_path], capture_output=True, text=True, env=no_peers_env(), timeout=60)
    assert proc.returncode != 0 and "unknown kernel(s) nope" in proc.stderr


def test_extra_graph_is_read_from_its_folder_or_named_where_to_get_it(tmp_path, monkeypatch):
    peers = load_bench("peers")
    monkeypatch.delenv("NUMAGRAPH_EXTRA_DATA", raising=False)
    with pytest.raises(SystemExit) as missing:
        peers.unit_weight_source("mesh4elt", tmp_path)
    assert f"{tmp_path / '4elt.graph'} is missing" in str(missing.value)
    assert "github.com/KarypisLab/METIS" in str(missing.value) and "NUMAGRAPH_EXTRA_DATA" in str(missing.value)
    folder = tmp_path / "metis"
    folder.mkdir()
    (folder / "4elt.graph").write_text("3 3\n2 3\n1 3\n1 2\n")
    monkeypatch.setenv("NUMAGRAPH_EXTRA_DATA", str(folder))
    assert peers.unit_weight_source("mesh4elt", tmp_path) == folder / "4elt.graph"
    assert peers.graph_class("mesh4elt") == "mesh" and "mesh4elt" in peers.UNDIRECTED_SOURCES


def test_peers_table_prints_ratio_and_notes(tmp_path):
    rows = [{"graph": "kron20", "kernel": "sssp", "numagraph": {"auto": 0.08, "8": 0.075},
             "peers": {"gapbs": 0.1, "GBBS": 0.2}, "peer_settings": {"gapbs": "1", "GBBS": "4"},
             "fastest_peer": "gapbs", "ratio": 0.8, "best_delta": "8"},
            {"graph": "road-NY", "kernel": "bc16", "numagraph": {"auto": 0.11, "do": 0.22},
             "peers": {}, "auto_vs_16_single": 0.5}]
    results = tmp_path / "rows.json"
    results.write_text(json.dumps(rows))
    out = subprocess.run([sys.executable, REPO / "bench" / "peers_table.py", results], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[0].startswith("| graph | kernel |") and len(out) == 4
    assert "| kron20 | sssp | 0.0800 (auto) | 0.1000 (1) | 0.2000 (4) | – | **0.80** (gapbs) |" in out[2]
    assert "best delta 8: 0.0750, auto/best 1.07" in out[2]
    assert "| road-NY | bc16 | 0.1100 (auto) | – | – | – | – | auto / 16 single (do) 0.50 |" == out[3]


def test_several_gapbs_builds_are_swept_as_a_parameter(tmp_path, monkeypatch):
    # GAPBS_DIR may list builds of gapbs with different flags: every setting is then tried once
    # per build ('SETTING#K', K its place in the list), and a build that lacks a program is
    # left out of that kernel only; one build keeps the settings' plain names.
    peers = load_bench("peers")
    v3, plain = tmp_path / "v3", tmp_path / "plain"
    for tree in (v3, plain):
        tree.mkdir()
        (tree / "pr").write_text("")
    (v3 / "tc").write_text("")
    builds = [str(v3), str(plain)]
    monkeypatch.setenv("GAPBS_DIR", os.pathsep.join(builds))
    monkeypatch.delenv("GBBS_DIR", raising=False)
    monkeypatch.delenv("LIGRA_DIR", raising=False)
    assert peers.gapbs_builds() == builds
    assert peers.with_builds([1, 2], builds) == ["1#1", "1#2", "2#1", "2#2"]
    assert peers.with_builds(None, builds) == ["#1", "#2"]  # bc sweeps nothing but the build
    assert peers.with_builds([1, 2], builds[:1]) == [1, 2]
    assert peers.split_build("16#2", builds) == ("16", str(plain))
    assert peers.split_build("#1", builds) == (None, str(v3))
    assert peers.split_build(16, builds[:1]) == (16, str(v3))
    cli = peers.CliPeers(args=None, env={})
    assert cli.settings("pr") == {"gapbs": ["pr#1", "pr#2"]}
    assert cli.settings("tc") == {"gapbs": ["tc#1"]}
    monkeypatch.setenv("GAPBS_DIR", str(v3))
    assert peers.CliPeers(args=None, env={}).settings("pr") == {"gapbs": ["pr"]}

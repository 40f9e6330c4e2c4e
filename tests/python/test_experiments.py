"""numagraph-experiments (python -m numagraph.experiments): `list` names all six experiments
and marks the planned ones; running a planned one exits 2; each implemented experiment runs
at its --smoke size (seconds) and writes results.json/.csv, report.md with its tables and
(with matplotlib) PNGs; peers given by GAPBS_DIR appear in the report; a missing CLI is
refused with what to do. Needs the CLI (NUMAGRAPH_BIN, default build/numagraph)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from numagraph.experiments.peers import write_adjacency
from numagraph.experiments.registry import EXPERIMENTS

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))
needs_cli = pytest.mark.skipif(not CLI.is_file(), reason=f"numagraph CLI not built ({CLI}); set NUMAGRAPH_BIN")
PLANNED = [e.name for e in EXPERIMENTS if not e.implemented]
ALL_SIX = {"bc-numa", "graph500", "xsbench", "galois-profile", "polymer", "scaling"}


def experiments(*args, env=None):
    return subprocess.run([sys.executable, "-m", "numagraph.experiments", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=120)


def test_list_names_all_six_and_marks_the_planned():
    proc = experiments("list")
    assert proc.returncode == 0, proc.stderr
    lines = {line.split()[0]: line for line in proc.stdout.splitlines()}
    assert set(lines) == ALL_SIX
    for e in EXPERIMENTS:
        assert ("not implemented yet" in lines[e.name]) == (not e.implemented), lines[e.name]
        if e.paper:
            assert e.paper in lines[e.name]
    assert "NUMA-Aware Graph-Structured Analytics" in lines["polymer"]


def test_scale_and_trials_override_the_size(tmp_path):
    from numagraph.experiments.runner import ExperimentError, Runner
    runner = Runner("scaling", sys.executable, tmp_path / "o", "quick", [1], overrides={"scale": 9, "trials": None})
    assert runner.sized({"quick": {"scale": 17, "trials": 5}}) == {"scale": 9, "trials": 5}
    with pytest.raises(ExperimentError, match="no --scale parameter"):
        runner.sized({"quick": {"trials": 5}})
    proc = experiments("run", "scaling", "--smoke", "--scale", "0", "--out", tmp_path / "p")
    assert proc.returncode == 2 and "not a positive whole number" in proc.stderr


def test_threads_refused_where_the_experiment_sets_them(tmp_path):
    proc = experiments("run", "graph500", "--threads", "1,2", "--out", tmp_path / "o")
    assert proc.returncode == 2 and "takes no --threads" in proc.stderr
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("name", PLANNED + ["no-such-experiment"])
def test_planned_or_unknown_experiment_exits_2(name, tmp_path):
    proc = experiments("run", name, "--out", tmp_path / "o")
    assert proc.returncode == 2
    assert ("not implemented yet" if name in PLANNED else "no experiment named") in proc.stderr
    assert not (tmp_path / "o").exists()


def test_missing_cli_is_refused_with_what_to_do(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMAGRAPH_BIN"}
    env["PATH"] = str(tmp_path)  # no numagraph there
    proc = experiments("run", "scaling", "--smoke", "--out", tmp_path / "o", env=env)
    assert proc.returncode == 1 and "--cli PATH" in proc.stderr and "NUMAGRAPH_BIN" in proc.stderr
    proc = experiments("run", "scaling", "--smoke", "--out", tmp_path / "o", "--cli", tmp_path / "nope")
    assert proc.returncode == 1 and "not an executable file" in proc.stderr


def check_outputs(out, tables, pngs):
    doc = json.loads((out / "results.json").read_text())
    assert doc["machine"]["cores"] >= 1 and doc["machine"]["cpu_model"]
    assert doc["commands"] and all(c["returncode"] == 0 for c in doc["commands"])
    assert doc["rows"]
    header = (out / "results.csv").read_text().splitlines()[0]
    assert "kernel" in header.split(",")
    report = (out / "report.md").read_text()
    for table in tables:
        assert table in report, f"report.md lacks {table!r}"
    pytest.importorskip("matplotlib")
    for png in pngs:
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return doc, report


@needs_cli
def test_scaling_smoke(tmp_path):
    out = tmp_path / "scaling"
    proc = experiments("run", "scaling", "--smoke", "--threads", "1,2", "--scale", "7", "--out", out, "--cli", CLI)
    assert proc.returncode == 0, proc.stderr
    doc, report = check_outputs(out, ["| kernel | 1 thr | 2 thr | efficiency at 2 |"], ["scaling.png"])
    assert all(r["num_vertices"] == 2 ** 7 for r in doc["rows"]) and "kron7" in report
    kernels = {r["kernel"] for r in doc["rows"]}
    assert kernels == {"bfs", "sssp", "pr", "cc", "bc", "tc", "spmv", "bp", "diameter", "kcore"}
    assert len(doc["rows"]) == 2 * len(kernels)
    assert all(r["speedup"] == 1.0 for r in doc["rows"] if r["threads"] == 1)


@needs_cli
def test_polymer_smoke_with_a_fake_gapbs(tmp_path):
    gapbs = tmp_path / "gapbs"
    gapbs.mkdir()
    for program in ("pr", "bfs", "cc", "sssp"):
        script = gapbs / program
        script.write_text("#!/bin/sh\necho 'Trial Time:          0.25000'\necho 'Trial Time:          0.50000'\n"
                          "echo 'Trial Time:          0.75000'\n")
        script.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("GBBS_DIR", "LIGRA_DIR")}
    env["GAPBS_DIR"] = str(gapbs)
    out = tmp_path / "polymer"
    proc = experiments("run", "polymer", "--smoke", "--threads", "2", "--out", out, "--cli", CLI, env=env)
    assert proc.returncode == 0, proc.stderr
    doc, report = check_outputs(out, ["| kernel | flat | numa |", "| kernel | nodes | engine | local random |"],
                                ["polymer_times.png", "polymer_remote_random.png"])
    assert "NUMA-Aware Graph-Structured Analytics" in report
    peers = {r["kernel"]: r["median_s"] for r in doc["rows"] if r["part"] == "peer"}
    assert peers == {"pr": 0.5, "bfs": 0.5, "cc": 0.5, "sssp": 0.5}
    pr_row = next(line for line in report.splitlines() if line.startswith("| pr |"))
    assert "500 ms" in pr_row and "not given" in pr_row  # gapbs given, GBBS and Ligra not
    acc = [r for r in doc["rows"] if r["part"] == "account"]
    # The engine's PR and SpMV make no remote random access; the flat kernels do on 2+ nodes.
    for kernel in ("pr", "spmv"):
        assert all(r["remote_random"] == 0 for r in acc if r["kernel"] == kernel and r["engine"] == "numa")
        assert all(r["remote_random"] > 0 for r in acc if r["kernel"] == kernel and r["engine"] == "flat")


@pytest.mark.parametrize("weighted", [False, True])
def test_ligra_adjacency_matches_networkx(tmp_path, weighted):
    G = nx.gnm_random_graph(30, 70, seed=3)
    G.add_edge(5, 5)  # a self-loop, dropped
    el = tmp_path / "g.el"
    el.write_text("".join(f"{u} {v}" + (f" {u + v + 1}" if weighted else "") + "\n" for u, v in G.edges()))
    lines = write_adjacency(el, tmp_path / "g.adj", weighted).read_text().split()
    assert lines[0] == ("WeightedAdjacencyGraph" if weighted else "AdjacencyGraph")
    n, m = int(lines[1]), int(lines[2])
    offsets = list(map(int, lines[3:3 + n]))
    targets = list(map(int, lines[3 + n:3 + n + m]))
    weights = list(map(int, lines[3 + n + m:]))
    G.remove_edge(5, 5)
    assert n == max(G.nodes) + 1 and m == 2 * G.number_of_edges()
    for u in range(n):
        end = offsets[u + 1] if u + 1 < n else m
        assert targets[offsets[u]:end] == sorted(G.neighbors(u)) if u in G else offsets[u] == end
        if weighted:
            assert weights[offsets[u]:end] == [u + v + 1 for v in sorted(G.neighbors(u))]

"""numagraph-experiments run graph500 --smoke: the MPI driver runs the ablation, the
summary sweep and the phase breakdown, and the report's figures are the runs' own.
Needs numagraph-graph500 ($NUMAGRAPH_GRAPH500_BIN, else mpi/ beside $NUMAGRAPH_BIN,
default build/) and mpirun; skipped with the reason otherwise."""
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))
GRAPH500 = Path(os.environ.get("NUMAGRAPH_GRAPH500_BIN", CLI.parent / "mpi" / "numagraph-graph500"))
PHASES = ["top_down", "bottom_up", "exchange", "switch", "wait", "other"]


def missing():
    """Why the smoke run cannot happen here, or None."""
    if not CLI.is_file():
        return f"numagraph CLI not built ({CLI}); set NUMAGRAPH_BIN"
    if not GRAPH500.is_file():
        return f"{GRAPH500} not built (cmake builds it only when MPI is found); set NUMAGRAPH_GRAPH500_BIN"
    if shutil.which("mpirun") is None:
        return "mpirun not on PATH (apt-get install openmpi-bin)"
    return None


needs_mpi = pytest.mark.skipif(missing() is not None, reason=missing() or "")


def experiments(*args, env=None):
    return subprocess.run([sys.executable, "-m", "numagraph.experiments", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    out = tmp_path_factory.mktemp("graph500")
    env = dict(os.environ, NUMAGRAPH_GRAPH500_BIN=str(GRAPH500))
    proc = experiments("run", "graph500", "--smoke", "--out", out, "--cli", CLI, env=env)
    assert proc.returncode == 0, proc.stderr
    return out


@needs_mpi
def test_smoke_writes_every_file(smoke):
    for name in ("report.md", "results.json", "results.csv"):
        assert (smoke / name).stat().st_size > 0, name
    pytest.importorskip("matplotlib")
    for name in ("phases.png", "summary_sweep.png"):
        assert (smoke / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


@needs_mpi
def test_phase_numbers_come_from_the_runs(smoke):
    doc = json.loads((smoke / "results.json").read_text())
    rows = doc["rows"]
    assert {r["part"] for r in rows} == {"ablation", "sweep", "phases"}
    assert {r["config"] for r in rows if r["part"] == "ablation"} == {"baseline", "leader", "parallel", "shared",
                                                                       "all-on"}
    assert {r["allgather"] for r in rows if r["part"] == "ablation"} == {"flat", "leader", "parallel"}
    assert {r["summary_bits"] for r in rows if r["part"] == "sweep"} == {64, 256, 4096}
    phases = [r for r in rows if r["part"] == "phases"]
    assert sorted(r["ranks"] for r in phases) == [1, 2]
    commands = [c["command"] for c in doc["commands"]]
    assert len(commands) == len(rows) and all(c.startswith("mpirun -n ") for c in commands)
    for r in rows:
        assert r["verified"] is True and r["teps_hmean"] > 0
        assert all(r[f"{p}_s"] >= 0 for p in PHASES)
        assert sum(r[f"{p}_s"] for p in PHASES if p != "other") <= r["mean_s"] * 1.01 + 1e-4
        assert r["top_down_s"] > 0
    # the CSV holds the same numbers, and the report prints them
    with open(smoke / "results.csv") as f:
        csv_rows = list(csv.DictReader(f))
    assert [float(r["exchange_s"]) for r in csv_rows] == pytest.approx([r["exchange_s"] for r in rows])
    report = (smoke / "report.md").read_text()
    for r in phases:
        assert f"{r['top_down_s'] * 1e3:.3g} (" in report
        assert f"{r['teps_hmean'] / 1e6:.1f} M" in report
    assert "39.2 G" in report and "Evaluation and Optimization of Breadth-First Search on NUMA Cluster" in report
    assert "Cannot be shown here" in report and "--map-by ppr:1:socket" in report


def test_missing_driver_is_refused_with_what_to_do(tmp_path):
    env = dict(os.environ, NUMAGRAPH_GRAPH500_BIN=str(tmp_path / "nope"))
    proc = experiments("run", "graph500", "--smoke", "--out", tmp_path / "o", "--cli", sys.executable, env=env)
    assert proc.returncode == 1
    assert "NUMAGRAPH_GRAPH500_BIN" in proc.stderr and "numagraph-graph500" in proc.stderr


def test_driver_found_beside_the_cli(tmp_path, monkeypatch):
    from numagraph.experiments.graph500 import find_graph500
    from numagraph.experiments.runner import ExperimentError
    monkeypatch.delenv("NUMAGRAPH_GRAPH500_BIN", raising=False)
    (tmp_path / "mpi").mkdir()
    fake = tmp_path / "mpi" / "numagraph-graph500"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert find_graph500(tmp_path / "numagraph") == fake.resolve()
    with pytest.raises(ExperimentError, match="only when cmake finds MPI"):
        find_graph500(tmp_path / "elsewhere" / "numagraph")

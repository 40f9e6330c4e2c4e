"""numagraph-experiments run bc-numa: with a stand-in CLI whose times, working sets and RAPL
energy are known (fake_numagraph.py), the speedups over serial BC, working-set fractions and
energy savings in results.json and report.md are exactly those the runs gave; without RAPL the
report gives the profile's reason; the road graph is used when $NUMAGRAPH_DATA holds it and
skipped with a note when not. With the real CLI (NUMAGRAPH_BIN, default build/numagraph) the
smoke size runs and the grid's one-thread working set is all its vertices."""
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from fake_numagraph import install

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))


def experiment(*args, env_extra=None):
    env = {**os.environ, **(env_extra or {})}
    proc = subprocess.run([sys.executable, "-m", "numagraph.experiments", "run", "bc-numa", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc


def rows_by_key(out):
    doc = json.loads((out / "results.json").read_text())
    return doc, {(r["graph"], r["config"], r["threads"]): r for r in doc["rows"]}


def test_numbers_are_the_runs_numbers(tmp_path):
    out = tmp_path / "out"
    experiment("--smoke", "--threads", "2", "--out", out, "--cli", install(tmp_path), env_extra={"FAKE_RAPL": "1"})
    doc, rows = rows_by_key(out)
    assert doc["threads_run"] == [1, 2]  # serial BC is always run
    assert len(rows) == 2 * 4 * 2
    # fake times: 1/threads, x0.8 under ADL, x0.9 under NWQ; the warm (second) trial is kept
    assert rows[("kron8", "BC", 1)]["speedup_vs_serial_bc"] == 1.0
    assert rows[("kron8", "ADL+NWQ", 2)]["median_s"] == pytest.approx(0.36)
    assert rows[("kron8", "ADL+NWQ", 2)]["speedup_vs_serial_bc"] == pytest.approx(1 / 0.36)
    assert rows[("grid8", "ADL", 2)]["speedup_vs_serial_bc"] == pytest.approx(2.5)
    assert rows[("kron8", "NWQ", 2)]["working_set_fraction"] == 0.5
    assert rows[("kron8", "BC", 2)]["working_set_fraction"] == 0.8
    # energy: the package (not its dram subdomain) over the last betweenness phase, 6 J x time
    assert rows[("kron8", "BC", 2)]["energy_j"] == pytest.approx(3.0)
    assert rows[("kron8", "ADL+NWQ", 2)]["energy_j"] == pytest.approx(2.16)
    assert rows[("kron8", "ADL+NWQ", 2)]["energy_reduction"] == pytest.approx(0.28)
    report = (out / "report.md").read_text()
    assert "2.04x" in report and "52.4 %" in report
    assert "| kron8 | 2.00x | 2.50x | 2.22x | 2.78x | 1.39x |" in report
    assert "| kron8 | 2 | ADL+NWQ | 360 ms | 2.78x | 100 | 0.50 (0.40) | 2.16 J | 28.0 % |" in report
    commands = [c["command"] for c in doc["commands"]]
    assert any("--schedule dynamic" in c and "--reorder adl" not in c for c in commands)
    assert any("--schedule nwq" in c and "--reorder adl" in c for c in commands)
    assert all("--variant work-queues" in c and "--engine flat" in c for c in commands if c.startswith("numagraph bc"))


def test_without_rapl_the_report_gives_the_profiles_reason(tmp_path):
    out = tmp_path / "out"
    experiment("--smoke", "--threads", "1", "--out", out, "--cli", install(tmp_path))
    doc, rows = rows_by_key(out)
    assert all(r["energy_j"] is None and r["energy_reduction"] is None for r in rows.values())
    assert doc["energy_unavailable"] == ["fake: no RAPL"]
    assert "fake: no RAPL" in (out / "report.md").read_text()


@pytest.mark.parametrize("present", [True, False])
def test_road_graph_used_when_present_else_a_note(tmp_path, present):
    data = tmp_path / "data"
    (data / "USA-road-d.NY").mkdir(parents=True)
    if present:
        (data / "USA-road-d.NY" / "USA-road-d.NY.gr.gz").write_bytes(b"")
    out = tmp_path / "out"
    experiment("--quick", "--threads", "1", "--trials", "1", "--out", out, "--cli", install(tmp_path),
               env_extra={"NUMAGRAPH_DATA": str(data)})
    doc, _ = rows_by_key(out)
    report = (out / "report.md").read_text()
    assert doc["graphs_used"] == (["kron16", "road-NY"] if present else ["kron16"])
    assert ("USA-road-d.NY was skipped" in report) != present
    assert any(c["command"].startswith("numagraph convert") for c in doc["commands"]) == present


@pytest.mark.skipif(not CLI.is_file(), reason=f"numagraph CLI not built ({CLI}); set NUMAGRAPH_BIN")
def test_smoke_with_the_real_cli(tmp_path):
    out = tmp_path / "out"
    experiment("--smoke", "--threads", "1,2", "--out", out, "--cli", CLI)
    doc, rows = rows_by_key(out)
    assert len(rows) == 2 * 4 * 2
    for r in rows.values():
        warm = [float(x) for x in r["warm_trials_s"].split(";")]
        assert r["median_s"] == pytest.approx(statistics.median(warm), rel=1e-5)
        if r["graph"] == "grid8" and r["threads"] == 1:
            assert r["working_set"] == r["num_vertices"] == 256  # one thread touches the whole connected grid
    report = (out / "report.md").read_text()
    assert "| graph | BC | ADL | NWQ | ADL+NWQ | ADL+NWQ over BC |" in report
    pytest.importorskip("matplotlib")
    assert (out / "bc_numa.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

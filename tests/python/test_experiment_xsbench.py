"""numagraph-experiments run xsbench: a smoke run through the real CLI writes report.md (the
paper's 70 % -> 95 % beside ours, placement x threads), results.json/.csv and efficiency.png,
with efficiencies that follow from the measured lookups/s; and a stand-in CLI with known
rates checks the efficiency arithmetic (own base and the paper's Eq. 2) exactly.
Needs the CLI for the smoke run (NUMAGRAPH_BIN, default build/numagraph)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))
needs_cli = pytest.mark.skipif(not CLI.is_file(), reason=f"numagraph CLI not built ({CLI}); set NUMAGRAPH_BIN")
VARIANTS = ["serial-init", "parallel-init", "interleave", "replicate", "replicate-2m"]


def experiments(*args):
    return subprocess.run([sys.executable, "-m", "numagraph.experiments", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@needs_cli
def test_xsbench_smoke(tmp_path):
    out = tmp_path / "xsbench"
    proc = experiments("run", "xsbench", "--smoke", "--threads", "1,2", "--out", out, "--cli", CLI)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((out / "results.json").read_text())
    assert [c["returncode"] for c in doc["commands"]] == [0]
    assert "bench-xs --threads 1,2" in doc["commands"][0]["command"]
    rows = doc["rows"]
    assert sorted((r["variant"], r["threads"]) for r in rows) == sorted((v, t) for v in VARIANTS for t in (1, 2))
    base = {r["variant"]: r["lookups_per_s"] for r in rows if r["threads"] == 1}
    for r in rows:
        assert r["lookups_per_s"] > 0
        assert r["efficiency"] == pytest.approx(r["lookups_per_s"] / (r["threads"] * base[r["variant"]]))
        assert r["efficiency_vs_default"] == pytest.approx(
            r["lookups_per_s"] / (r["threads"] * base["serial-init"]))
    assert doc["bench_xs"]["checksums_agree"] is True
    assert "variant" in (out / "results.csv").read_text().splitlines()[0].split(",")
    report = (out / "report.md").read_text()
    assert "Improving the scalability of neutron cross-section lookup codes on multicore NUMA system" in report
    assert ("| placement | the paper's name | 1 thr: lookups/s (eff.); trials min–max "
            "| 2 thr: lookups/s (eff.); trials min–max |") in report
    assert "70 %" in report and "95 %" in report
    two = next(r for r in rows if r["variant"] == "replicate" and r["threads"] == 2)
    assert f"{100 * two['efficiency']:.0f} %" in report
    pytest.importorskip("matplotlib")
    assert (out / "efficiency.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def fake_cli(tmp_path, rates):
    """A stand-in numagraph whose bench-xs --json reports `rates[(variant, threads)]` lookups/s."""
    results = []
    for (variant, threads), rate in rates.items():
        where = {"pages_per_node": [8], "not_present": 0, "sampled": 8, "page_size": "4k", "huge_bytes": 0}
        results.append({"variant": variant, "paper": "", "threads": threads, "lookups_per_s": rate,
                        "trials_lookups_per_s": [rate], "init_s": 0.5, "checksum": "00",
                        "nuclide_grids": [where], "unionized_grid": where})
    rec = {"kernel": "bench-xs", "threads": sorted({t for _, t in rates}), "numa_nodes": 1,
           "nuclide_grid_bytes": 1 << 20, "unionized_grid_bytes": 1 << 22, "results": results,
           "checksums_agree": True}
    script = tmp_path / "numagraph"
    script.write_text(f"#!{sys.executable}\nimport sys\n"
                      f"print({json.dumps(json.dumps(rec))} if 'bench-xs' in sys.argv else 'numagraph 0.0')\n")
    script.chmod(0o755)
    return script


def test_efficiency_follows_the_measured_rates(tmp_path):
    rates = {}
    for v in VARIANTS:
        rates[(v, 1)] = 100.0 if v != "interleave" else 80.0
        rates[(v, 4)] = 300.0  # serial-init: 300 / (4 x 100) = 75 %; interleave: 300 / (4 x 80) = 94 %
    out = tmp_path / "out"
    proc = experiments("run", "xsbench", "--smoke", "--threads", "1,4", "--out", out,
                       "--cli", fake_cli(tmp_path, rates))
    assert proc.returncode == 0, proc.stderr
    rows = {(r["variant"], r["threads"]): r for r in json.loads((out / "results.json").read_text())["rows"]}
    assert rows[("serial-init", 4)]["efficiency"] == pytest.approx(0.75)
    assert rows[("interleave", 4)]["efficiency"] == pytest.approx(300 / 320)
    assert rows[("interleave", 4)]["efficiency_vs_default"] == pytest.approx(0.75)
    assert rows[("interleave", 1)]["efficiency_vs_default"] == pytest.approx(0.8)
    report = (out / "report.md").read_text()
    assert "| `serial-init` | default | 70 % | 75 % | 75 % |" in report
    assert "| `interleave` | numactl --interleave=all | 80 % | 94 % | 75 % |" in report

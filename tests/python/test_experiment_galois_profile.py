"""numagraph-experiments run galois-profile: with a stand-in CLI whose times, page faults and
dTLB misses are known (fake_numagraph.py), the THP-vs-4 KiB ratios, the cuts and the per-epoch
summaries in results.json and report.md are exactly those of the runs' profiles, and the dTLB
columns appear when the profile has the counter. With the real CLI (NUMAGRAPH_BIN, default
build/numagraph) the smoke size runs, every row's epochs are its profile's, and on a kernel with
THP enabled the THP runs take fewer page faults than the 4 KiB runs."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fake_numagraph import install
from numagraph.experiments.galois_profile import KERNELS, thp_mode

REPO = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))


def experiment(*args):
    proc = subprocess.run([sys.executable, "-m", "numagraph.experiments", "run", "galois-profile", *map(str, args)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((args[args.index("--out") + 1] / "results.json").read_text())
    return doc, {(r["graph"], r["kernel"], r["threads"], r["pages"]): r for r in doc["rows"]}


def test_numbers_are_the_profiles_numbers(tmp_path):
    out = tmp_path / "out"
    doc, rows = experiment("--smoke", "--threads", "2", "--out", out, "--cli", install(tmp_path))
    assert len(rows) == 2 * len(KERNELS) * 2
    thp, small = rows[("kron8", "pr", 2, "thp")], rows[("kron8", "pr", 2, "4k")]
    # fake: 4 KiB runs take 1.5x; page faults per 10 ms epoch [4, 0, 0, 6] vs [40, 10, 10, 40]
    assert thp["time_4k_over_thp"] == pytest.approx(1.5)
    assert (thp["page_faults_total"], small["page_faults_total"]) == (10, 100)
    assert thp["page_fault_cut"] == pytest.approx(0.9) and thp["dtlb_miss_cut"] == pytest.approx(0.9)
    assert thp["page_faults_median"] == pytest.approx(200)  # per second: median of 400, 0, 0, 600
    assert thp["page_faults_max"] == pytest.approx(600)
    assert thp["page_faults_zero_share"] == 0.5
    assert thp["page_faults_top5_share"] == pytest.approx(0.6)  # the busiest epoch holds 6 of 10
    assert thp["task_clock_mean"] == pytest.approx(1.0)  # 10 ms of CPU per 10 ms epoch
    report = (out / "report.md").read_text()
    assert "30-63 %" in report
    assert "| kron8 | pr | 2 | 500 ms | 750 ms | 1.50 | 10 | 100 | 90 % | 10,000 | 100,000 | 90 % |" in report
    assert "dTLB load misses cut by 90 % to 90 %" in report
    assert "- `rapl`: fake: no RAPL" in report
    pytest.importorskip("matplotlib")
    for kernel, _ in KERNELS:
        assert (out / f"profile_{kernel}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.skipif(not CLI.is_file(), reason=f"numagraph CLI not built ({CLI}); set NUMAGRAPH_BIN")
def test_smoke_with_the_real_cli(tmp_path):
    out = tmp_path / "out"
    doc, rows = experiment("--smoke", "--threads", "2", "--out", out, "--cli", CLI)
    assert len(rows) == 2 * len(KERNELS) * 2
    assert all(r["samples"] >= 1 and r["page_faults_epochs"] == r["samples"] for r in rows.values())
    report = (out / "report.md").read_text()
    if "perf_events:dtlb_load_misses" in doc["unavailable"]:
        assert "That cannot be measured here" in report
    if thp_mode() in ("always", "madvise"):
        for (g, kernel, t, pages), r in rows.items():
            if pages == "thp":
                assert r["page_faults_total"] < rows[(g, kernel, t, "4k")]["page_faults_total"], (g, kernel)

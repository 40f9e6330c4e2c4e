"""bench/python_compare.py: --help, a tiny run where NetworKit and igraph are absent
(skipped with a message, numagraph still measured, answers checked), its record
rendered by bench/perf_page.py, and --mixed skipping without NetworKit."""
import json
import subprocess
import sys
from pathlib import Path

from bench_scripts import load_bench

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "bench" / "python_compare.py"
ABSENT = "/nonexistent/python"


def run(*args, timeout=180):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)


def test_help():
    proc = run("--help")
    assert proc.returncode == 0 and "--mixed" in proc.stdout and "igraph" in proc.stdout


def test_tiny_run_without_the_peers(tmp_path):
    record = tmp_path / "results" / "fake-cpu-2c" / "python-compare.json"
    proc = run("--graphs", "kron8", "--rounds", "1", "--reps", "1", "--networkit-python", ABSENT,
               "--igraph-python", ABSENT, "--cache-dir", tmp_path / "cache", "--record", record)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "networkit is not importable" in proc.stdout and "igraph is not importable" in proc.stdout
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert [r["kernel"] for r in rows] == ["bfs", "pagerank", "pagerank_jacobi", "cc", "bc"]
    assert all(r["agree"] and r["seconds"]["numagraph"] > 0 and r["speedup"] == {} for r in rows)
    assert rows[1]["figures"]["numagraph"]["iterations"] <= 20
    rec = json.loads(record.read_text())
    assert rec["kind"] == "python-compare" and rec["facts"]["libraries"] == ["numagraph"]
    page = load_bench("perf_page").render(tmp_path / "results")
    assert "### numagraph from Python against NetworKit and igraph" in page
    assert "| bfs | kron8 |" in page and "agree: " in page


def test_table_with_all_three_libraries():
    rec = {"machine": {"threads": 2}, "facts": {"rounds": 3, "reps": 5, "bc_sources": 8,
                                                "libraries": ["numagraph", "networkit", "igraph"],
                                                "graphs": {"kron18": [262144, 3800000]}},
           "rows": [{"kernel": "pagerank", "graph": "kron18",
                     "seconds": {"numagraph": 0.05, "networkit": 0.45, "igraph": 2.2},
                     "speedup": {"networkit": 9.0, "igraph": 44.0}, "agree": True,
                     "figures": {"numagraph": {"iterations": 10, "error": 1e-4},
                                 "networkit": {"iterations": 8, "error": 7e-5}, "igraph": {"solver": "prpack"}},
                     "l1_to_numagraph": {"networkit": 1.2e-4, "igraph": 1.1e-4}}]}
    lines = load_bench("python_compare").table_lines(rec)
    assert "| pagerank | kron18 | 50.0 | 450 | 2,200 | 9.0x | 44.0x | agree: iterations 10/8" in lines[-1]


def test_mixed_skips_without_networkit(tmp_path):
    proc = run("--mixed", "--graphs", "kron8", "--networkit-python", ABSENT, "--cache-dir", tmp_path)
    assert proc.returncode == 0 and "skipped" in proc.stdout


def test_mixed_table():
    rec = {"machine": {"threads": 2}, "facts": {"rounds": 5, "reps": 30},
           "rows": [{"graph": "kron14", "kernel": "bfs", "setting": "default", "ng_alone": 1.2e-4,
                     "ng_after_nk": 2.9e-3, "nk_alone": 2.2e-3, "nk_after_ng": 3.0e-3}]}
    lines = load_bench("python_compare").mixed_table_lines(rec)
    assert lines[-1] == "| kron14 | bfs | default | 0.120 | 2.900 | 2.200 | 3.000 |"

"""bench/perf_page.py: the committed docs/performance.md is what the committed records render to,
and a tiny fake record of each kind renders with its machine, versions, command and table."""
import json
import subprocess
import sys
from pathlib import Path

from bench_scripts import load_bench

REPO = Path(__file__).resolve().parents[2]


def test_committed_page_matches_the_records():
    proc = subprocess.run([sys.executable, REPO / "bench" / "perf_page.py", "--check"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    assert len((REPO / "docs" / "performance.md").read_text().splitlines()) <= 400


MACHINE = {"name": "fake-cpu-2c", "cpu": "Fake CPU 9000", "cores": 2, "threads": 2, "memory_gib": 8.0,
           "kernel": "6.1.0", "compiler": "GCC: (Debian 12.2.0) 12.2.0", "numagraph_commit": "abc1234567"}


def write(folder, name, record):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(record))


def test_fake_records_render(tmp_path):
    folder = tmp_path / "fake-cpu-2c"
    peers_row = {"graph": "kron9", "kernel": "bfs", "roots": [3], "numagraph": {"do": 0.002},
                 "numagraph_fastest": {"do": 0.0019}, "peers": {"gapbs": 0.004},
                 "peers_fastest": {"gapbs": 0.0039}, "peer_settings": {"gapbs": "#2"},
                 "fastest_peer": "gapbs", "ratio": 0.5, "checks": {"numagraph": 500, "gapbs": 500}}
    write(folder, "peers.json", {"kind": "peers", "command": "GAPBS_DIR=/x bench/peers.py --graphs kron9",
                                 "date": "2026-01-02T03:04Z", "machine": MACHINE,
                                 "versions": {"gapbs": "sbeamer/gapbs @ b5e3e19c"},
                                 "facts": {"rounds": 3, "trials": 3, "peers": ["gapbs"]}, "rows": [peers_row]})
    sssp_row = dict(peers_row, kernel="sssp", numagraph={"auto": 0.003}, numagraph_fastest={"auto": 0.003})
    write(folder, "peers-sssp.json", {"kind": "peers", "command": "GAPBS_DIR=/x bench/peers.py --kernels sssp",
                                      "date": "2026-01-02T03:10Z", "machine": MACHINE, "versions": {},
                                      "facts": {"rounds": 5, "trials": 1, "peers": ["gapbs"]}, "rows": [sssp_row]})
    write(folder, "networkit.json", {"kind": "networkit", "command": "bench/vs_networkit.py --kernels scc",
                                     "date": "2026-01-02T04:00Z", "machine": MACHINE,
                                     "versions": {"NetworKit": "11.3"}, "facts": {"rounds": 3, "reps": 3},
                                     "rows": [{"kernel": "scc", "graph": "kron18", "numagraph_s": 0.05,
                                               "networkit_s": 0.1, "ratio": 0.5,
                                               "numagraph": {"components": 7}, "networkit": {"components": 7}}]})
    write(folder, "load.json", {"kind": "load", "command": "bench/load_table.py --gapbs /g",
                                "date": "2026-01-02T03:30Z", "machine": MACHINE, "versions": {},
                                "facts": {"scale": 9, "arcs": 16000, "el_bytes": 2_000_000, "rounds": 3},
                                "rows": [{"contender": "numagraph info kron9.el", "bytes": 2_000_000, "load": 0.01,
                                          "parse": 0.004, "build": 0.006, "rss": 30 * 2**20, "ratio": 1.0}]})
    page = load_bench("perf_page").render(tmp_path)
    lines = page.splitlines()
    assert lines[0].startswith("# Performance")
    assert "## fake-cpu-2c" in lines
    assert "Fake CPU 9000, 2 cores, 8 GiB, Linux 6.1.0; numagraph built with GCC: (Debian 12.2.0) 12.2.0." in lines
    assert "| gapbs | sbeamer/gapbs @ b5e3e19c |" in lines and "| NetworKit | 11.3 |" in lines
    # Tables in kind order (peers, load, networkit), each after its command.
    heads = [l for l in lines if l.startswith("### ")]
    assert heads == ["### Kernels against gapbs, GBBS and Ligra", "### Loading a text graph",
                     "### Kernels against NetworKit"]
    # Every peers record of a machine in one table: a line per run, the runs' commands, then
    # each kernel row with its run's number.
    assert "| 1 | 2026-01-02 03:04 | abc1234567 | `fake-cpu-2c/peers.json` | gapbs | 2 | 3 x 3 |" in lines
    assert "| 2 | 2026-01-02 03:10 | abc1234567 | `fake-cpu-2c/peers-sssp.json` | gapbs | 2 | 5 x 1 |" in lines
    cmd = lines.index("GAPBS_DIR=/x bench/peers.py --graphs kron9")
    assert lines[cmd - 1] == "# run 1" and lines[cmd - 2] == "```sh" and "docs-run: skip (" in lines[cmd - 3]
    assert lines[cmd + 1] == "# run 2" and lines[cmd + 3] == "```"
    assert any(l.startswith("| 1 | kron9 | bfs | 0.0020 (do) | 0.0040 (#2) |") and "**0.50** (gapbs)" in l
               and "answers agree" in l for l in lines)
    assert any(l.startswith("| 2 | kron9 | sssp | 0.0030 (auto) |") for l in lines)
    assert any(l.startswith("| `numagraph info kron9.el` | 2 | 0.01 |") for l in lines)
    assert "| scc | kron18 | 0.0500 | 0.1000 | 0.50 | components 7 | components 7 |" in lines
    # The page is a function of the records alone: rendering twice gives the same text.
    assert load_bench("perf_page").render(tmp_path) == page

"""Profiles: the plot module (python/numagraph/plot_profile.py) on a
hand-made profile whose rates are known — counters become rates over each
epoch, per-thread and energy columns are not default rows, a PNG is written,
a profile of something else is refused, a missing matplotlib is named. And
the CLI's --profile (the file, its schema, the inner phases), intervals out
of range, the progress line on a terminal only, --prefetchers where the
machine refuses."""
import importlib.util
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from harness import numagraph_bin

REPO = Path(__file__).resolve().parents[2]


def plot_module():
    # Loaded by path: the plots read JSON only and need no compiled extension.
    spec = importlib.util.spec_from_file_location("plot_profile", REPO / "python/numagraph/plot_profile.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def handmade(path):
    """Epochs of 10, 10 and 20 ms; task clock at 1, 2 and 1 CPUs busy."""
    doc = {
        "format": "numagraph-profile", "version": 1,
        "metadata": {"command": "test", "interval_ms": 10, "threads": 2, "host": "h"},
        "metrics": [
            {"name": "perf.task_clock", "source": "perf_events", "unit": "ns", "kind": "counter"},
            {"name": "perf.task_clock.t0", "source": "perf_events", "unit": "ns", "kind": "counter"},
            {"name": "perf.page_faults", "source": "perf_events", "unit": "count", "kind": "counter"},
            {"name": "rapl.package-0.energy", "source": "rapl", "unit": "J", "kind": "counter"},
            {"name": "rapl.package-0.power", "source": "rapl", "unit": "W", "kind": "gauge"},
            {"name": "numa.node0.other_node", "source": "numastat", "unit": "pages", "kind": "counter"},
        ],
        "unavailable": [],
        "samples": {
            "t": [0.01, 0.02, 0.04], "phase": [0, 1, 1],
            "perf.task_clock": [1e7, 2e7, 2e7], "perf.task_clock.t0": [1e7, 1e7, 1e7],
            "perf.page_faults": [5, None, 40], "rapl.package-0.energy": [0.5, 0.5, 1.0],
            "rapl.package-0.power": [50, 50, 50], "numa.node0.other_node": [0, 0, 0],
        },
        "phases": [
            {"name": "run", "parent": -1, "depth": 0, "begin": 0, "end": 0.04, "samples": 1, "totals": {}, "means": {}},
            {"name": "pagerank", "parent": 0, "depth": 1, "begin": 0.01, "end": 0.04, "samples": 2, "totals": {},
             "means": {}},
        ],
    }
    path.write_text(json.dumps(doc))
    return path


def test_rates_and_default_rows(tmp_path):
    pp = plot_module()
    doc = pp.load_profile(handmade(tmp_path / "p.json"))
    busy, unit = pp.rates(doc, "perf.task_clock")
    assert unit == "CPUs busy"
    np.testing.assert_allclose(busy, [1.0, 2.0, 1.0])
    faults, unit = pp.rates(doc, "perf.page_faults")
    assert unit == "count/s" and np.isnan(faults[1])
    np.testing.assert_allclose(faults[[0, 2]], [500, 2000])
    watts, unit = pp.rates(doc, "rapl.package-0.power")
    assert unit == "W" and list(watts) == [50, 50, 50]
    # Per-thread columns, energy (drawn as power) and metrics that never moved are not default rows.
    assert pp.default_metrics(doc) == ["perf.task_clock", "perf.page_faults", "rapl.package-0.power"]
    with pytest.raises(KeyError, match="no metric"):
        pp.rates(doc, "perf.cycles")


def test_plot_writes_a_png_of_two_profiles(tmp_path):
    pytest.importorskip("matplotlib")
    pp = plot_module()
    a, b = handmade(tmp_path / "a.json"), handmade(tmp_path / "b.json")
    out = tmp_path / "p.png"
    assert pp.main([str(a), str(b), "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_not_a_profile_is_refused(tmp_path, capsys):
    pp = plot_module()
    other = tmp_path / "x.json"
    other.write_text('{"command": "pr"}')
    assert pp.main([str(other), "-o", str(tmp_path / "x.png")]) == 2
    assert "not a numagraph profile" in capsys.readouterr().err


def test_missing_matplotlib_says_what_to_install(tmp_path, monkeypatch, capsys):
    pp = plot_module()
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    assert pp.main([str(handmade(tmp_path / "p.json")), "-o", str(tmp_path / "p.png")]) == 2
    assert "pip install" in capsys.readouterr().err
    assert not (tmp_path / "p.png").exists()


# ---- the CLI: --profile, progress, --prefetchers --------------------------------

def profiled(cli, tmp_path, *args, name="p.json"):
    out = tmp_path / name
    proc = cli(*args, "--profile", out, "--profile-interval", "1", "--json")
    rec = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]
    return out, rec


def test_pr_profile_has_the_schema_and_one_phase_per_iteration(cli, tmp_path):
    out, rec = profiled(cli, tmp_path, "pr", "--kron", "10", "-n", "2", "--tolerance", "0", "-i", "6")
    assert rec["profile"] == str(out) and rec["profile_samples"] >= 1
    doc = json.loads(out.read_text())
    assert doc["format"] == "numagraph-profile" and doc["version"] == 1
    for key in ("metadata", "metrics", "unavailable", "samples", "phases"):
        assert key in doc, key
    meta = doc["metadata"]
    for key in ("command", "host", "date", "threads", "topology", "page_size", "interval_ms", "samples"):
        assert key in meta, key
    assert meta["interval_ms"] == 1 and meta["record"]["iterations"] == 6 and "pr" in meta["command"]
    for m in doc["metrics"]:
        assert set(m) >= {"name", "source", "unit", "kind"} and m["kind"] in ("counter", "gauge")
        assert len(doc["samples"][m["name"]]) == len(doc["samples"]["t"])
    for u in doc["unavailable"]:
        assert u["reason"], u  # every missing source says why
    names = [p["name"] for p in doc["phases"]]
    assert names[0] == "run" and names.count("pagerank") == 2  # one per trial
    assert names.count("iteration") == 2 * 6  # the iterations of both trials
    for p in doc["phases"]:
        if p["name"] == "iteration":
            parent = doc["phases"][p["parent"]]
            assert parent["name"] == "pagerank" and parent["begin"] <= p["begin"] <= p["end"] <= parent["end"]
    assert max(doc["samples"]["phase"]) < len(names)


def test_bfs_and_bc_profiles_name_their_inner_phases(cli, tmp_path):
    out, _ = profiled(cli, tmp_path, "bfs", "--kron", "12", "-n", "2", "--engine", "flat")
    names = [p["name"] for p in json.loads(out.read_text())["phases"]]
    assert names.count("bfs") == 2
    assert all(n in ("run", "bfs", "level top-down", "level bottom-up") for n in names), set(names)
    assert names.count("level top-down") + names.count("level bottom-up") >= 4
    out, _ = profiled(cli, tmp_path, "bc", "--kron", "9", "-n", "1", "--sources", "3", "--variant", "brandes",
                      name="bc.json")
    names = [p["name"] for p in json.loads(out.read_text())["phases"]]
    assert names.count("forward") == 3 and names.count("backward") == 3


def test_profile_csv_export(cli, tmp_path):
    out, _ = profiled(cli, tmp_path, "cc", "--kron", "9", "-n", "1", name="p.csv")
    lines = out.read_text().splitlines()
    assert lines[0].startswith("t[s],phase,") and len(lines) >= 2
    assert all(len(x.split(",")) == len(lines[0].split(",")) for x in lines[1:])


@pytest.mark.parametrize("ms", ["0", "1001", "-5", "abc"])
def test_profile_interval_out_of_range_exits_2(cli, tmp_path, ms):
    proc = cli("pr", "--kron", "8", "--profile", tmp_path / "p.json", "--profile-interval", ms, check=False)
    assert proc.returncode == 2, proc.stderr
    assert "--profile-interval" in proc.stderr and not (tmp_path / "p.json").exists()


def run_on_a_terminal(*args):
    """Runs the CLI with stderr on a pseudo-terminal; returns (exit code, what it wrote there)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([str(numagraph_bin()), *map(str, args)], stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return proc.wait(timeout=60), seen.decode(errors="replace")


def test_progress_line_on_a_terminal_only(cli):
    args = ["pr", "--kron", "10", "-n", "2", "--tolerance", "0", "-i", "5"]
    rc, seen = run_on_a_terminal(*args)
    assert rc == 0 and "numagraph pr:" in seen and "iterations" in seen, seen
    assert "\x1b[K" in seen  # drawn in place, and cleared at the end
    rc, seen = run_on_a_terminal(*args, "--quiet")
    assert rc == 0 and "numagraph pr:" not in seen, seen
    proc = cli(*args)  # stderr a pipe: no progress line
    assert "iterations," not in proc.stderr and "\x1b[K" not in proc.stderr, proc.stderr


def test_prefetchers_unavailable_is_reported_not_fatal(cli):
    if os.access("/dev/cpu/0/msr", os.W_OK):
        pytest.skip("this machine lets us write MSRs: the refusal path is not reachable")
    proc = cli("pr", "--kron", "8", "-n", "1", "--json", "--prefetchers", "off")
    rec = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]
    assert rec["prefetchers"].startswith("unavailable: "), rec["prefetchers"]
    assert "--prefetchers off: unavailable" in proc.stderr
    bad = cli("pr", "--kron", "8", "--prefetchers", "maybe", check=False)
    assert bad.returncode == 2


def test_generate_and_convert_say_what_they_do_on_a_terminal(tmp_path):
    el = tmp_path / "g.el"
    rc, seen = run_on_a_terminal("generate", "kron", "--scale", "8", "-o", el)
    assert rc == 0 and "numagraph generate: generating kron scale 8" in seen and "writing" in seen, seen
    assert "\x1b[Kwrote " in seen  # the line is erased before the status line
    rc, seen = run_on_a_terminal("convert", el, tmp_path / "g.mtx")
    assert rc == 0 and "numagraph convert: loading" in seen, seen
    rc, seen = run_on_a_terminal("convert", el, tmp_path / "h.mtx", "-q")
    assert rc == 0 and "numagraph convert:" not in seen and "wrote" in seen, seen

"""Profiles: the plot module (python/numagraph/plot_profile.py) on a
hand-made profile whose rates are known — counters become rates over each
epoch, per-thread and energy columns are not default rows, a PNG is written,
a profile of something else is refused, a missing matplotlib is named."""
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

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

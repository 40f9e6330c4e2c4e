"""Plots of numagraph profiles (the JSON files ``--profile FILE`` writes;
format in docs/profiling.md): for each metric, its time series with the
run's phases as coloured bands, and beside it the CDF of its per-epoch
values, the way the Galois study reads bursts that averages hide. Several
profiles go on one figure, one line each, to compare runs (THP on and off,
two placements).

Counters are drawn as rates (the epoch's change over the epoch's length):
task clock in CPUs busy, page faults per second, joules as watts. Needs
matplotlib (``pip install 'numagraph[plot]'`` or ``pip install
matplotlib``). It reads JSON only, so it also runs as a plain script::

    python -m numagraph.plot_profile run.json [other.json ...] -o out.png
    python python/numagraph/plot_profile.py run.json -o out.png --metric perf.page_faults
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys

import numpy as np

__all__ = ["load_profile", "rates", "default_metrics", "plot_profiles", "main"]

_THREAD_COLUMN = re.compile(r"\.t\d+$")


def load_profile(path):
    """Reads a profile JSON file: a dict with the document's fields, and
    ``samples`` as NumPy float arrays (null values become NaN)."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != "numagraph-profile":
        raise ValueError(f"{path} is not a numagraph profile (no \"format\": \"numagraph-profile\")")
    doc["samples"] = {k: np.array([np.nan if x is None else x for x in v], dtype=float)
                      for k, v in doc["samples"].items()}
    doc["path"] = str(path)
    return doc


def rates(doc, name):
    """The metric ``name`` per epoch, as drawn: counters divided by the
    epoch's length (per second; ns of task clock become CPUs busy), gauges
    as they are. Returns (values, unit label)."""
    meta = next((m for m in doc["metrics"] if m["name"] == name), None)
    if meta is None:
        raise KeyError(f"{doc['path']} has no metric {name!r}; it has "
                       + ", ".join(m["name"] for m in doc["metrics"][:12]))
    v = doc["samples"][name]
    if meta["kind"] == "gauge":
        return v, meta["unit"]
    t = doc["samples"]["t"]
    dt = np.diff(np.concatenate(([0.0], t)))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(dt > 0, v / dt, np.nan)
    unit = meta["unit"]
    if unit == "ns":
        return r * 1e-9, "CPUs busy"
    if unit == "J":
        return r, "W"
    return r, f"{unit}/s"


def default_metrics(doc, limit=6):
    """Metrics worth a row: totals (not per-thread columns) that changed
    during the run, task clock and page faults first, then the others in file
    order, at most ``limit``."""
    out = []
    for m in doc["metrics"]:
        name = m["name"]
        if _THREAD_COLUMN.search(name) or (m["kind"] == "counter" and name.endswith(".energy")
                                           and any(x["name"] == name[:-7] + ".power" for x in doc["metrics"])):
            continue  # a thread's column, or energy also drawn as power
        v = doc["samples"][name]
        if np.all(np.isnan(v)) or np.nanmax(np.abs(v)) == 0:
            continue
        out.append(name)
    first = [n for n in ("perf.task_clock", "perf.page_faults") if n in out]
    return (first + [n for n in out if n not in first])[:limit]


def _pyplot():
    try:
        import matplotlib
        if not os.environ.get("DISPLAY"):
            matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("numagraph.plot_profile needs matplotlib: pip install 'numagraph[plot]' "
                          "(or pip install matplotlib)") from e
    return plt


def _phase_bands(ax, doc, colors):
    """Shades each phase below "run" (depth >= 1); deeper phases darker, and
    back-to-back phases of one name (PageRank's iterations, BFS levels)
    alternately lighter, so that each one shows."""
    seen = {}
    for ph in doc["phases"]:
        if ph["depth"] < 1:
            continue
        c = colors.setdefault(ph["name"], f"C{len(colors) % 10}")
        k = seen[(ph["parent"], ph["name"])] = seen.get((ph["parent"], ph["name"]), -1) + 1
        alpha = min(0.12 * ph["depth"], 0.4) * (1.0 if k % 2 == 0 else 0.45)
        ax.axvspan(ph["begin"], ph["end"], color=c, alpha=alpha, lw=0)


def plot_profiles(profiles, path=None, metrics=None, cdf=True, threads=True, labels=None):
    """Draws one row per metric: time series (left) and CDF of per-epoch
    values (right, when ``cdf``). ``profiles``: paths or load_profile()
    dicts. ``metrics``: names (default: default_metrics of the first).
    ``threads``: with one profile, also each thread's column of perf
    metrics, thin. Saves to ``path`` when given; returns the figure."""
    # The files are read and checked first: a wrong file is named even where matplotlib is missing.
    docs = [p if isinstance(p, dict) else load_profile(p) for p in profiles]
    if not docs:
        raise ValueError("no profile to plot")
    names = list(metrics) if metrics else default_metrics(docs[0])
    if not names:
        raise ValueError(f"{docs[0]['path']}: no metric changed during the run; name one with metrics=")
    plt = _pyplot()
    labels = labels or [os.path.splitext(os.path.basename(d["path"]))[0] if "path" in d else f"run {i}"
                        for i, d in enumerate(docs)]
    cols = 2 if cdf else 1
    fig, axes = plt.subplots(len(names), cols, figsize=(6.5 * cols, 2.2 * len(names) + 0.8), squeeze=False,
                             gridspec_kw={"width_ratios": [2, 1] if cdf else [1]})
    phase_colors = {}
    for row, name in enumerate(names):
        ts, dist = axes[row][0], axes[row][1] if cdf else None
        _phase_bands(ts, docs[0], phase_colors)
        unit = ""
        for k, doc in enumerate(docs):
            if name not in doc["samples"]:
                continue
            v, unit = rates(doc, name)
            t = doc["samples"]["t"]
            ts.plot(t, v, lw=1.2, color=f"C{k}" if len(docs) > 1 else "black", label=labels[k])
            if threads and len(docs) == 1:
                for m in doc["metrics"]:
                    if _THREAD_COLUMN.search(m["name"]) and m["name"].rsplit(".", 1)[0] == name:
                        tv, _ = rates(doc, m["name"])
                        ts.plot(t, tv, lw=0.6, alpha=0.7, label=m["name"].rsplit(".", 1)[1])
            if dist is not None:
                x = np.sort(v[~np.isnan(v)])
                if x.size:
                    dist.step(x, np.arange(1, x.size + 1) / x.size, where="post", color=f"C{k}" if len(docs) > 1
                              else "black", label=labels[k])
        ts.set_ylabel(unit, fontsize=8)
        ts.set_title(name, fontsize=9, loc="left")
        ts.tick_params(labelsize=8)
        if len(docs) > 1 or (threads and any(_THREAD_COLUMN.search(m["name"]) and m["name"].startswith(name + ".t")
                                             for m in docs[0]["metrics"])):
            ts.legend(fontsize=7, loc="upper right", ncol=4)
        if dist is not None:
            dist.set_xlabel(unit, fontsize=8)
            dist.set_ylabel("fraction of epochs", fontsize=8)
            dist.set_ylim(0, 1.02)
            dist.tick_params(labelsize=8)
            dist.grid(alpha=0.3)
    axes[-1][0].set_xlabel("seconds since start")
    height = fig.get_figheight()
    meta = docs[0].get("metadata", {})
    fig.suptitle(f"{meta.get('command', '')}  ({meta.get('interval_ms', '?')} ms epochs, "
                 f"{meta.get('threads', '?')} threads, {meta.get('host', '')})", fontsize=9, y=1 - 0.08 / height,
                 va="top")
    if phase_colors:
        from matplotlib.patches import Patch
        fig.legend(handles=[Patch(color=c, alpha=0.3, label=n) for n, c in phase_colors.items()],
                   loc="upper center", bbox_to_anchor=(0.5, 1 - 0.3 / height), ncol=min(len(phase_colors), 8),
                   fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 1 - (0.6 if phase_colors else 0.35) / height))
    if path:
        fig.savefig(path, dpi=110)
    return fig


def main(argv=None, prog="python -m numagraph.plot_profile"):
    ap = argparse.ArgumentParser(prog=prog,
                                 description="Plot numagraph profiles: time series with phase bands and "
                                             "per-epoch CDFs (docs/profiling.md).")
    ap.add_argument("files", nargs="+", help="profile JSON files (--profile FILE); several are overlaid")
    ap.add_argument("-o", "--output", required=True, help="image to write (.png, .pdf, .svg)")
    ap.add_argument("--metric", action="append", help="a metric to draw (repeatable; default: the ones that moved)")
    ap.add_argument("--no-cdf", action="store_true", help="time series only")
    ap.add_argument("--no-threads", action="store_true", help="no per-thread lines")
    a = ap.parse_args(argv)
    try:
        plot_profiles(a.files, a.output, metrics=a.metric, cdf=not a.no_cdf, threads=not a.no_threads)
    except (ImportError, ValueError, KeyError, OSError) as e:
        print(f"plot_profile: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

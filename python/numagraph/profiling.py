"""Profiling Python calls: counters, NUMA traffic and energy sampled over a
block, with the phases of the numagraph calls made inside it (the same
sampler and JSON document as the CLI's ``--profile``; docs/profiling.md)::

    with numagraph.profile(interval=0.01) as p:
        numagraph.pagerank(g)
    p.t                       # end of each epoch, seconds
    p["perf.task_clock"]      # one NumPy array per metric
    p.phases                  # name, parent, depth, begin, end, totals...
    p.unavailable             # {"rapl": "no /sys/class/powercap ...", ...}
    p.to_pandas()             # samples as a DataFrame (needs pandas)

One block at a time per process; calls made inside it from any Python
thread are sampled (the sampler watches numagraph's worker threads).
"""
from __future__ import annotations

import json

import numpy as np

from . import _core

__all__ = ["Profile", "profile"]


class Profile:
    """A profile: opened by ``numagraph.profile()``, filled when its block ends.

    Attributes after the block: ``t`` (epoch ends, s), ``samples`` (dict:
    metric name -> NumPy array, plus "t" and "phase", the index of each
    sample's innermost phase), ``metrics`` (name, source, unit, kind),
    ``phases`` (list of dicts: name, parent, depth, begin, end, samples,
    totals per counter, means per gauge), ``unavailable`` (dict: "source" or
    "source:what" -> reason), ``metadata`` and ``document`` (the whole JSON
    document, as the CLI writes it)."""

    def __init__(self, interval=0.01, path=None):
        ms = interval * 1000.0
        if not (1 <= ms <= 1000) or abs(ms - round(ms)) > 1e-9:
            raise _core.UsageError(f"profile interval {interval!r} s: give 0.001 to 1 s in whole milliseconds "
                                   "(default 0.01)")
        self.interval = interval
        self.path = None if path is None else str(path)
        self.document = None
        self._open = False

    def __enter__(self):
        _core._profile_start(int(round(self.interval * 1000)))
        self._open = True
        return self

    def __exit__(self, *exc):
        self._open = False
        self._load(json.loads(_core._profile_stop(self.path or "", "python numagraph.profile()")))
        return False

    def _load(self, doc):
        self.document = doc
        self.metadata = doc["metadata"]
        self.metrics = doc["metrics"]
        self.phases = doc["phases"]
        self.unavailable = {}
        for u in doc["unavailable"]:
            key = f"{u['source']}:{u['what']}" if u["what"] else u["source"]
            self.unavailable[key] = u["reason"]
        self.samples = {k: np.array([np.nan if x is None else x for x in v],
                                    dtype=np.int64 if k == "phase" else float)
                        for k, v in doc["samples"].items()}

    def _need(self):
        if self.document is None:
            raise _core.UsageError("the profile is filled when its `with` block ends: read it after the block")

    @property
    def t(self):
        self._need()
        return self.samples["t"]

    def __getitem__(self, name):
        """The per-epoch values of metric ``name`` (counters: the change in
        the epoch; gauges: the value at its end)."""
        self._need()
        if name not in self.samples:
            raise KeyError(f"no metric {name!r} in this profile; it has "
                           + ", ".join(m["name"] for m in self.metrics[:12]))
        return self.samples[name]

    def phase_names(self):
        """The innermost phase's name for every sample."""
        self._need()
        names = [p["name"] for p in self.phases]
        return [names[i] for i in self.samples["phase"]]

    def to_pandas(self):
        """The samples as a pandas DataFrame: t, phase (name), one column per metric."""
        self._need()
        try:
            import pandas as pd
        except ImportError as e:
            raise ImportError("Profile.to_pandas needs pandas: pip install pandas") from e
        cols = {"t": self.samples["t"], "phase": self.phase_names()}
        cols.update({m["name"]: self.samples[m["name"]] for m in self.metrics})
        return pd.DataFrame(cols)

    def save(self, path):
        """Writes the JSON document (the CLI's format) to ``path``."""
        self._need()
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.document, f)

    def __repr__(self):
        if self.document is None:
            return f"<numagraph.Profile interval={self.interval} s, {'open' if self._open else 'not started'}>"
        return (f"<numagraph.Profile {len(self.t)} samples of {len(self.metrics)} metrics, "
                f"{len(self.phases)} phases, {len(self.unavailable)} unavailable>")


def profile(interval=0.01, path=None):
    """A context manager that samples every metric the machine offers every
    ``interval`` seconds (0.001 to 1) while its block runs, and marks the
    phases of the numagraph calls made inside (PageRank iterations, BFS
    levels...). ``path``: also write the profile there (JSON, or CSV when it
    ends in .csv) for ``python -m numagraph.plot_profile``."""
    return Profile(interval, path)

"""Progress of long calls, from the phases the kernels mark (the phase stream
that numagraph.profile() and the CLI's progress line read)::

    def show(u):                  # u: numagraph.ProgressUpdate
        print(u.call, u.phase, u.done, "/", u.total, u.unit, f"{u.elapsed:.1f} s")

    with numagraph.progress(show):
        numagraph.betweenness(g, k=256)      # betweenness backward 16 / 256 sources 0.3 s ...
    with numagraph.progress():             # a tqdm bar when tqdm is installed
        numagraph.pagerank(g, max_iterations=100, tolerance=0)

What is counted: PageRank iterations (of ``max_iterations``; ``at_most``
when ``tolerance`` may stop it earlier), betweenness sources whose backward
sweep is done (of the sources asked; the batched kernel completes 16 at a
time), and for other calls the inner phases that ended (BFS levels, the
connected-components link rounds...), total unknown.

The callback runs on the thread that made the call, with the GIL held,
between waits for the kernel (which runs on numagraph's worker thread): at
most every ``interval`` seconds, plus once when each call ends
(``final=True``). An exception raised by the callback asks the kernel to
stop (kernels that poll the cancel flag stop early, the others finish) and
is then raised from the call. Ctrl-C works as without a block.
"""
from __future__ import annotations

import time
from typing import NamedTuple, Optional

from . import _core

__all__ = ["ProgressUpdate", "Progress", "progress"]


class ProgressUpdate(NamedTuple):
    """One progress update of a numagraph call."""
    call: str               # the kernel: "pagerank", "betweenness", "bfs", ...
    phase: str              # what `done` counts ("iteration", "backward"), or the phase running now
    done: int               # units done so far
    total: Optional[int]    # units in all; None when unknown
    unit: str               # "iterations", "sources", or "phases" when nothing is expected
    elapsed: float          # seconds since the call started
    final: bool             # the call's last update (it has returned)
    at_most: bool           # total is an upper bound: the call may stop earlier (PageRank's tolerance)
    call_index: int         # 1, 2, ... for the calls made in the block


def _find_tqdm(required):
    try:
        from tqdm.auto import tqdm
    except ImportError as e:
        if required:
            raise ImportError("numagraph.progress(bar=True) needs tqdm: pip install tqdm "
                              "(or pip install 'numagraph[progress]'), or pass a callback") from e
        return None
    return tqdm


class _Bar:
    """One tqdm bar per call: made on its first update, closed on its last."""

    def __init__(self, tqdm):
        self._tqdm = tqdm
        self._bar = None
        self._index = None

    def __call__(self, u):
        if self._index != u.call_index:
            self.close()
            self._bar = self._tqdm(total=u.total, desc=u.call, unit=" " + u.unit, dynamic_ncols=True)
            if hasattr(self._bar, "start_t"):  # the rate counts from the call's start, not the first update
                self._bar.start_t = time.time() - u.elapsed
            self._index = u.call_index
        if u.unit == "phases":
            self._bar.set_postfix_str(u.phase, refresh=False)
        if u.final and u.at_most:
            self._bar.total = u.done  # converged early: the bar ends full
        self._bar.n = u.done
        self._bar.refresh()
        if u.final:
            self.close()

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class Progress:
    """The context manager numagraph.progress() returns; ``updates`` counts
    the updates delivered in the block."""

    def __init__(self, callback=None, *, bar=None, interval=0.1):
        if callback is not None and not callable(callback):
            raise TypeError(f"numagraph.progress: callback must be callable (got {type(callback).__name__})")
        if not interval >= 0:
            raise _core.UsageError(f"progress interval {interval!r} s: give 0 or more seconds (default 0.1)")
        self.interval = float(interval)
        self._sinks = [] if callback is None else [callback]
        self._bar = None
        if bar or (bar is None and callback is None):
            tqdm = _find_tqdm(required=bool(bar))
            if tqdm is not None:
                self._bar = _Bar(tqdm)
                self._sinks.append(self._bar)
        self.updates = 0
        self._open = False

    def _deliver(self, call_index, call, phase, done, total, unit, elapsed, final, at_most):
        u = ProgressUpdate(call, phase, done, total, unit, elapsed, final, at_most, call_index)
        self.updates += 1
        for sink in self._sinks:
            sink(u)

    def __enter__(self):
        if self._sinks:
            _core._progress_start(self._deliver, self.interval)
            self._open = True
        return self

    def __exit__(self, *exc):
        if self._open:
            self._open = False
            try:
                _core._progress_stop()
            finally:
                if self._bar is not None:
                    self._bar.close()
        return False

    def __repr__(self):
        return f"<numagraph.Progress interval={self.interval} s, {self.updates} updates>"


def progress(callback=None, *, bar=None, interval=0.1):
    """A context manager that reports the progress of the numagraph calls
    made in its block: ``callback(update)`` with a ``ProgressUpdate`` (call,
    phase, done, total, unit, elapsed, final, at_most, call_index), and/or a
    tqdm bar: ``bar=None`` (default) shows one when there is no callback and
    tqdm is installed, ``bar=True`` requires tqdm, ``bar=False`` never.
    ``interval``: at least this many seconds between a call's updates (its
    last one is always sent). Composes with ``numagraph.profile()``; one
    progress block at a time per process."""
    return Progress(callback, bar=bar, interval=interval)

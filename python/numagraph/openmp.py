"""A second OpenMP runtime in the process, said once.

numagraph runs on the system's libgomp; a wheel such as NetworKit's brings its own
copy, so importing both gives the process two OpenMP runtimes with a thread pool each.
After a parallel call, each runtime's idle threads spin for a while before they sleep,
and on a machine with few cores they take the cores from the other runtime's next
call (docs/python.md, "Two OpenMP runtimes in one process", has the figures).

The first kernel call after a module is imported looks at the libraries mapped into the
process; when it finds more than one OpenMP runtime and none of the variables that tame
their spinning is set, it warns once with an :class:`OpenMPWarning`. To hide it::

    import warnings, numagraph
    warnings.filterwarnings("ignore", category=numagraph.OpenMPWarning)
"""
from __future__ import annotations

import os
import re
import sys
import warnings

__all__ = ["OpenMPWarning", "openmp_runtimes"]

# GNU (libgomp, also as an auditwheel copy libgomp-<hash>.so), LLVM (libomp) and Intel (libiomp5).
_RUNTIME = re.compile(r"/lib(gomp|omp|iomp5)(-[0-9a-f]+)?\.so(\.[0-9.]+)?$")
# Any of these set in the environment: the user has chosen how idle threads wait.
KNOBS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")
_seen = {"modules": -1, "done": False}


class OpenMPWarning(RuntimeWarning):
    """Another OpenMP runtime shares the process, and the idle threads of each slow the other's calls."""


def openmp_runtimes(maps="/proc/self/maps"):
    """The OpenMP runtime libraries mapped into this process, as sorted paths (empty where
    the platform has no /proc/self/maps)."""
    try:
        with open(maps) as f:
            paths = {parts[5].strip() for parts in (line.split(maxsplit=5) for line in f) if len(parts) == 6}
    except OSError:
        return []
    return sorted(p for p in paths if _RUNTIME.search(p))


def check(stacklevel=3):
    """Warns once when a second OpenMP runtime is loaded; cheap unless sys.modules has grown."""
    if _seen["done"] or len(sys.modules) == _seen["modules"]:
        return
    _seen["modules"] = len(sys.modules)
    if any(os.environ.get(k) for k in KNOBS):
        _seen["done"] = True
        return
    found = openmp_runtimes()
    if len(found) > 1:
        _seen["done"] = True
        names = ", ".join(os.path.basename(p) for p in found)
        warnings.warn(f"numagraph: {len(found)} OpenMP runtimes share this process ({names}): after each call the "
                      "idle threads of one spin and slow the other's next call (on 2 cores, a 0.16 ms BFS takes "
                      "1.8 ms right after a NetworKit PageRank, 134 ms while a compiler runs). Set "
                      "OMP_WAIT_POLICY=passive (or GOMP_SPINCOUNT=10000, faster on an idle machine) in the "
                      "environment before starting Python, or run the libraries in separate processes "
                      "(docs/python.md, 'Two OpenMP runtimes in one process')", OpenMPWarning, stacklevel=stacklevel)

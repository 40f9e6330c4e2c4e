"""Shared by eigenvector.py and katz.py: the error of a centrality vector
against a tight reference of the same library's own definition (NetworKit's
Katz is not NetworkX's), both scaled to L2 norm 1; the reference is computed
once per graph and cached, and the error once per worker (on its untimed
warm-up call: the vector is the same on every call)."""
import os

import numpy as np

CACHE = os.environ.get("NUMAGRAPH_NK_CACHE", "/tmp/numagraph-vs-networkit")
_errors = {}


def unit(x):
    x = np.asarray(x, dtype=np.float64)
    norm = np.linalg.norm(x)
    return x / norm if norm > 0 else x


def error(key, values, reference):
    """L1 distance of unit(values) to unit(reference()), computed on the first call per key."""
    if key not in _errors:
        path = os.path.join(CACHE, f"ref_{key}.npy")
        if os.path.exists(path):
            ref = np.load(path)
        else:
            ref = unit(reference())
            os.makedirs(CACHE, exist_ok=True)
            np.save(path, ref)
        _errors[key] = float(np.abs(unit(values) - ref).sum())
    return _errors[key]

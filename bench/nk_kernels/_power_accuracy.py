"""Shared by eigenvector.py, katz.py and pagerank.py: the error of a centrality vector
against a tight reference of the same library's own definition (NetworKit's
Katz is not NetworkX's), both scaled to L2 norm 1 (PageRank: to sum 1); the
reference is computed once per graph and cached, and the error once per worker
(the vector is the same on every call)."""
import os

import numpy as np

CACHE = os.environ.get("NUMAGRAPH_NK_CACHE", "/tmp/numagraph-vs-networkit")
_errors = {}


def unit(x):
    x = np.asarray(x, dtype=np.float64)
    norm = np.linalg.norm(x)
    return x / norm if norm > 0 else x


def unit_sum(x):
    x = np.asarray(x, dtype=np.float64)
    total = x.sum()
    return x / total if total > 0 else x


def error(key, values, reference, scale=unit):
    """L1 distance of scale(values) to scale(reference()), computed on the first call per key."""
    if key not in _errors:
        path = os.path.join(CACHE, f"ref_{key}.npy")
        if os.path.exists(path):
            ref = np.load(path)
        else:
            ref = scale(reference())
            os.makedirs(CACHE, exist_ok=True)
            np.save(path, ref)
        _errors[key] = float(np.abs(scale(values) - ref).sum())
    return _errors[key]

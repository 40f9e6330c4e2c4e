"""bench/pr_true_error.py: its fixed point is SciPy's solution of the PageRank system (gapbs's
model), the sweeps it reports for the other variant are the fewest that come as close, and
the script prints one row per graph, tolerance and variant."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import numagraph

from bench_scripts import load_bench

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "bench" / "pr_true_error.py"


def scipy_fixed_point(g, damping=0.85):
    """Solves x = (1 - d) / n + d * A^T D^-1 x, dangling vertices' mass dropped."""
    a = g.to_scipy().tocsr().astype(float)
    n = a.shape[0]
    out = np.asarray(a.sum(axis=1)).ravel()
    inv = np.divide(1.0, out, out=np.zeros(n), where=out > 0)
    m = (a.T @ sp.diags(inv)).tocsc()
    return spla.spsolve((sp.identity(n, format="csc") - damping * m), np.full(n, (1 - damping) / n))


@pytest.fixture(scope="module")
def bench():
    return load_bench("pr_true_error")


@pytest.mark.parametrize("make", [lambda: numagraph.generate.kronecker(10),
                                  lambda: numagraph.generate.grid(10)], ids=["kron10", "grid10"])
def test_reference_is_scipys_solution_and_matches_are_the_fewest(bench, make):
    g = make()
    fixed, _, change = bench.run(g, "jacobi", 1e-13, 100000)
    assert change < 1e-13
    np.testing.assert_allclose(fixed, scipy_fixed_point(g), rtol=0, atol=1e-12)
    for variant, other in (("gauss-seidel", "jacobi"), ("jacobi", "gauss-seidel")):
        scores, sweeps, _ = bench.run(g, variant, 1e-4, 200)
        error = float(np.abs(scores - fixed).sum())
        k = bench.sweeps_to_reach(g, other, error, fixed, 200)
        assert k is not None and k >= 1

        def distance(j):
            return float(np.abs(bench.run(g, other, 0.0, j)[0] - fixed).sum())
        assert distance(k) <= error
        if k > 1:
            assert distance(k - 1) > error


def test_prints_a_row_per_graph_tolerance_and_variant():
    proc = subprocess.run([sys.executable, SCRIPT, "kron:9", "urand:9", "--tolerances", "1e-4,1e-6", "--trials", "1"],
                          capture_output=True, text=True, check=True)
    rows = [line.split(" | ") for line in proc.stdout.splitlines()[1:]]
    assert [(r[0], r[1], r[2]) for r in rows] == [(g, t, v) for g in ("kron:9", "urand:9") for t in ("0.0001", "1e-06")
                                                  for v in ("gauss-seidel", "jacobi")]
    for r in rows:
        assert int(r[3]) >= 1 and float(r[4]) < float(r[1]) and float(r[5]) > 0
        assert r[8].split()[0] in ("gauss-seidel", "jacobi") and int(r[8].split()[1]) >= 1

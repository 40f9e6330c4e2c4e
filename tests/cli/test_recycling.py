"""Recycled kernel arrays through the CLI (NUMAGRAPH_RECYCLE_BYTES and
NUMAGRAPH_RECYCLE_POISON, docs/numa.md): the limit comes from the
environment, and PageRank and SpMV write every recycled array before they
read it."""
import os
import subprocess

import numpy as np
import pytest

from harness import numagraph_bin, read_vertex_values


def test_recycle_limit_comes_from_the_environment(cli, tmp_path):
    """NUMAGRAPH_RECYCLE_BYTES (docs/numa.md): 0 turns the recycling of
    kernel arrays off, a size caps it, anything else is named on stderr and
    the default kept. The scores are the same bits every way (a recycled
    array is overwritten before it is read)."""
    outputs = []
    for value in ("0", "64M", "", "lots"):
        out = tmp_path / f"pr-{value or 'default'}.txt"
        env = dict(os.environ, NUMAGRAPH_RECYCLE_BYTES=value)
        proc = subprocess.run([str(numagraph_bin()), "pr", "-g", "18", "--variant", "jacobi", "-n", "3", "--verify",
                               "--engine", "flat", "--output", str(out)], capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        noted = "NUMAGRAPH_RECYCLE_BYTES='lots' is not a size" in proc.stderr
        assert noted == (value == "lots"), proc.stderr
        outputs.append(out.read_text())
    assert all(o == outputs[0] for o in outputs)


# Every kernel path that takes recycled working arrays (NumaArray::for_overwrite):
# PageRank Jacobi and Gauss-Seidel (flat only), SpMV, tiled or not, flat or the NUMA engine.
POISON_RUNS = [(kernel, variant, block, engine)
               for kernel, variants in (("pr", ("jacobi", "gauss-seidel")), ("spmv", (None,)))
               for variant in variants for block in ("off", "64K") for engine in ("flat", "numa")
               if not (variant == "gauss-seidel" and engine == "numa")]


@pytest.mark.parametrize("kernel,variant,block,engine", POISON_RUNS)
def test_recycled_arrays_are_written_before_they_are_read(cli, tmp_path, kernel, variant, block, engine):
    """NUMAGRAPH_RECYCLE_POISON=1 (docs/numa.md) hands every recycled array
    back full of NaNs. Three trials in one process recycle the arrays of the
    first two; the last trial's output must be the same bits as a run that
    never recycles (Gauss-Seidel: the same fixed point), which fails if any
    kernel reads an element of a recycled array before writing it."""
    flags = ["-g", "18", "-k", "8", "--cache-block", block, "--engine", engine, "--verify"]
    if engine == "numa":
        flags += ["--topology", "pack:2 numa:1 core:1 pu:1"]
    # Vertex-by-vertex Gauss-Seidel reads whatever its neighbours' threads
    # have written so far (4 sweeps differ by 8 % from run to run): compare
    # the fixed point it converges to.
    converged = kernel == "pr" and variant == "gauss-seidel"
    flags += ["-i", "100", "--tolerance", "1e-12"] if converged else ["-i", "4"]
    if kernel == "pr":
        flags += ["--variant", variant] + ([] if converged else ["--tolerance", "0"])
    outputs = []
    for env_extra, trials in (({"NUMAGRAPH_RECYCLE_BYTES": "0"}, "1"), ({"NUMAGRAPH_RECYCLE_POISON": "1"}, "3")):
        out = tmp_path / f"{kernel}-{trials}.txt"
        env = dict(os.environ, **env_extra)
        proc = subprocess.run([str(numagraph_bin()), kernel, *flags, "-n", trials, "--output", str(out)],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        values = read_vertex_values(out)
        outputs.append(np.array([values[v] for v in range(len(values))]))
    fresh, recycled = outputs
    assert np.isfinite(recycled).all()
    if converged:
        np.testing.assert_allclose(recycled, fresh, rtol=1e-6, atol=1e-9 * np.abs(fresh).max())
    else:
        np.testing.assert_array_equal(recycled, fresh)

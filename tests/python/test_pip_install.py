"""The installed package, as a user gets it: a wheel of this checkout
installed into a fresh virtual environment, then BFS on a generated graph,
imported from outside the source tree.

The wheel is packed from the build directory that `make python` compiled
(build-py: the same CMake configuration a `pip install .` uses), so the test
checks what the wheel holds and that it imports and runs, in seconds rather
than a second compile of the extension. The isolated build's own inputs are
checked separately: the build requirements of pyproject.toml must resolve.
`make wheel-test` builds a wheel from scratch in isolation and installs it
where no compiler is. NUMAGRAPH_WHEEL=path/to.whl installs that wheel instead.
Marked `slow`; needs PyPI (or pip's cache) for NumPy, skipped when offline.
"""
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OFFLINE = ("NewConnectionError", "Temporary failure in name resolution", "No matching distribution found")


def fresh_venv(path):
    venv.create(path, with_pip=True)
    return path / "bin" / "python"


def pip(py, *args, cwd):
    proc = subprocess.run([str(py), "-m", "pip", *args], capture_output=True, text=True, timeout=900, cwd=cwd)
    if proc.returncode != 0 and any(m in proc.stderr for m in OFFLINE):
        pytest.skip("PyPI unreachable: the fresh venv cannot fetch its requirements")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return proc


def wheel_of_this_checkout(out_dir):
    """A wheel packed from build-py (compiles only what `make python` left stale)."""
    if os.environ.get("NUMAGRAPH_WHEEL"):
        return os.environ["NUMAGRAPH_WHEEL"]
    pip(sys.executable, "wheel", str(REPO), "--no-build-isolation", "--no-deps", "-q",
        f"-Cbuild-dir={REPO / 'build-py'}", "-w", str(out_dir), cwd=out_dir)
    (wheel,) = out_dir.glob("numagraph-*.whl")
    return str(wheel)


@pytest.mark.slow
def test_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    wheel = wheel_of_this_checkout(tmp_path)
    py = fresh_venv(tmp_path / "venv")
    pip(py, "install", "-q", wheel, cwd=tmp_path)
    code = ("import numagraph as ng; g = ng.generate.kronecker(12); d = ng.bfs(g, 1); "
            "print(g.num_vertices, int(d.max()), ng.__file__)")
    run = subprocess.run([str(py), "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    n, depth, where = run.stdout.split()
    assert int(n) == 4096 and int(depth) > 0
    assert Path(where).is_relative_to(tmp_path / "venv"), where  # the installed copy, not the tree


@pytest.mark.slow
def test_isolated_build_requirements_resolve(tmp_path):
    """What `pip install .` puts in its isolated build environment exists for
    this Python: pyproject's build-system requirements and its backend."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    requires = project["build-system"]["requires"]
    assert project["build-system"]["build-backend"] == "scikit_build_core.build"
    py = fresh_venv(tmp_path / "venv")
    pip(py, "install", "-q", *requires, cwd=tmp_path)
    run = subprocess.run([str(py), "-c", "import scikit_build_core.build, nanobind; print(nanobind.cmake_dir())"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (Path(run.stdout.strip()) / "nanobind-config.cmake").exists()

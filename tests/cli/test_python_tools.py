"""The Python tools as numagraph commands (apps/numagraph/cmd_python_tools.cpp):
`numagraph plot profile` draws a real --profile file, `numagraph plot spy` a
graph, `numagraph experiments list` names the experiments; their flags and
exit codes are the tools' own, and a Python without the package gets one
error that says what to install."""
import os
import subprocess
import sys

import pytest

from harness import numagraph_bin


def tool(*args, python=sys.executable):
    env = dict(os.environ, NUMAGRAPH_PYTHON=python, MPLBACKEND="Agg")
    return subprocess.run([str(numagraph_bin()), *map(str, args)], capture_output=True,
                          text=True, timeout=300, env=env)


def test_plot_profile_draws_a_run(tmp_path):
    pytest.importorskip("matplotlib")
    run = tmp_path / "run.json"
    subprocess.run([str(numagraph_bin()), "pr", "--kron", "12", "-n", "2", "-q", "--profile", run],
                   check=True, capture_output=True, timeout=300)
    png = tmp_path / "run.png"
    proc = tool("plot", "profile", run, "-o", png)
    assert proc.returncode == 0, proc.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_spy_draws_a_graph(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "spy.png"
    proc = tool("plot", "spy", "--kron", "10", png, "--orders", "none", "rcm")
    assert proc.returncode == 0, proc.stderr
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_tool_flags_and_errors_are_the_tools_own(tmp_path):
    proc = tool("plot", "profile", "--help")
    assert proc.returncode == 0 and proc.stdout.startswith("usage: numagraph plot profile"), proc.stdout
    proc = tool("plot", "profile", tmp_path / "missing.json")
    assert proc.returncode == 2 and "-o/--output" in proc.stderr, proc.stderr


def test_experiments_lists_them():
    proc = tool("experiments", "list")
    assert proc.returncode == 0, proc.stderr
    assert "graph500" in proc.stdout and "xsbench" in proc.stdout


def test_a_python_without_the_package_is_named(tmp_path):
    bare = tmp_path / "python"
    bare.write_text(f"#!/bin/sh\nexec {sys.executable} -I -S \"$@\"\n")  # no site-packages
    bare.chmod(0o755)
    proc = tool("plot", "profile", "run.json", "-o", "x.png", python=bare)
    assert proc.returncode == 6, proc.stderr
    assert proc.stderr.startswith("numagraph: error: `numagraph plot profile` needs the numagraph "
                                  "Python package"), proc.stderr
    assert "NUMAGRAPH_PYTHON" in proc.stderr


def test_a_missing_interpreter_is_named(tmp_path):
    proc = tool("plot", "spy", "g.el", "g.png", python=tmp_path / "no-python")
    assert proc.returncode == 6
    assert "cannot be started" in proc.stderr and "NUMAGRAPH_PYTHON" in proc.stderr, proc.stderr

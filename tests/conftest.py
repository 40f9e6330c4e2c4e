"""Shared pytest fixtures: where the CLI binary and the real data sets are."""
import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = (REPO.parent / "shared" / "data").resolve()


def numagraph_bin() -> Path:
    return Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))


def run_cli(*args, check=True, timeout=600):
    """Runs the numagraph CLI; returns the CompletedProcess (text mode)."""
    proc = subprocess.run([str(numagraph_bin()), *map(str, args)], capture_output=True,
                          text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError(f"numagraph {' '.join(map(str, args))} exited {proc.returncode}:\n"
                             f"{proc.stdout}\n{proc.stderr}")
    return proc


def run_json(*args, **kw):
    """Runs the CLI with --json and returns the parsed objects (one per line)."""
    out = run_cli(*args, "--json", **kw).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def read_vertex_values(path, cast=float):
    """Reads an --output file ("id value" per line) into a dict."""
    values = {}
    with open(path) as f:
        for line in f:
            key, value = line.split()
            values[int(key)] = cast(value)
    return values


@pytest.fixture(scope="session")
def shared_data():
    """Path of ../shared/data; skips (saying why) when the folder is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} is absent: real-graph tests need ../shared/data beside the repo")
    return SHARED_DATA


@pytest.fixture(scope="session")
def cli():
    if not numagraph_bin().exists():
        pytest.fail(f"{numagraph_bin()} not built: run `make build` (or set NUMAGRAPH_BIN)")
    return run_cli

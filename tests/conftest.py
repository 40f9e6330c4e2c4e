"""Shared pytest fixtures: where the CLI binary and the real data sets are
(helpers in harness.py)."""
import os

import pytest

from harness import SHARED_DATA, numagraph_bin, run_cli

# The tests' graphs are small and exist to exercise the parallel kernels: turn
# the serial cut-offs (kernels/thread_budget.hpp) off for every kernel the
# tests run, in process and in CLI subprocesses, unless the caller set them.
# tests/cli/test_thread_budget.py checks the cut-offs themselves.
os.environ.setdefault("NUMAGRAPH_SERIAL_BELOW", "0")


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

"""The API reference (docs/api) builds from the docstrings with warnings as
errors, and the docstrings' >>> examples pass as doctests: what `make docs`
runs. Skipped when Sphinx is not installed (scripts/install-deps.sh installs it)."""
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "api"


@pytest.mark.parametrize("builder", ["html", "doctest"])
def test_api_docs_build_without_warnings(builder, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-b", builder, "-W", "--keep-going", "-q",
                           "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / builder)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"sphinx -b {builder} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"

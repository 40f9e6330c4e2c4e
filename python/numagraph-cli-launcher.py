#!python
"""The `numagraph` command of a wheel install: runs the CLI executable bundled
in the package (numagraph/bin/numagraph). find_spec locates the package without
importing it, so the command starts without loading NumPy or the extension."""
import importlib.util
import os
import sys

spec = importlib.util.find_spec("numagraph")
exe = os.path.join(spec.submodule_search_locations[0], "bin", "numagraph")
if not os.access(exe, os.X_OK):
    sys.exit(f"numagraph: {exe} is missing; reinstall the wheel (pip install --force-reinstall numagraph)")
# `numagraph plot` and `numagraph experiments` run Python tools: this interpreter has the package.
os.environ.setdefault("NUMAGRAPH_PYTHON", sys.executable)
os.execv(exe, ["numagraph"] + sys.argv[1:])

"""Helpers every test group imports: where the CLI binary and the real data sets
are, and runs of the CLI. A module of its own, not conftest.py: tests/python has
a conftest.py too, and `from conftest import` would find whichever pytest
loaded last."""
import json
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = (REPO.parent / "shared" / "data").resolve()


def numagraph_bin() -> Path:
    return Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph")).absolute()


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


# A small TSV with a header and vertex names (one of them "mary ann"):
# from<TAB>to per line, read by the .ngr names tests of the CLI and Python.
NAMES_TSV = REPO / "tests" / "data" / "tiny_names.tsv"


def nx_names_graph():
    """NetworkX's DiGraph of NAMES_TSV's edges."""
    import csv

    import networkx as nx

    with open(NAMES_TSV, newline="") as f:
        rows = list(csv.reader(f, delimiter="\t"))[1:]
    G = nx.DiGraph()
    G.add_edges_from((u, v) for u, v in rows)
    return G

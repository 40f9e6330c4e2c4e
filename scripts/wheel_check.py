"""Checks an installed numagraph wheel; scripts/test-wheel.sh runs it inside a
fresh virtual environment whose PATH has no compiler. Exits non-zero, naming
the check, on the first failure."""
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import networkx as nx
import numpy as np

import numagraph as ng

site = Path(sysconfig.get_paths()["purelib"]).resolve()
pkg = Path(ng.__file__).resolve().parent
assert pkg.parent == site, f"numagraph imported from {pkg}, not from this venv's {site}"
for tool in ("cc", "gcc", "g++", "c++", "clang", "cmake"):
    assert shutil.which(tool) is None, f"{tool} is on PATH: the no-compiler check is void"
print(f"import numagraph: {pkg}")
nx.config.warnings_to_ignore.add("cache")  # the backend's converted graphs are cached, as meant

# The libraries auditwheel vendored are the ones loaded, not the system's.
libs = (site / "numagraph.libs").resolve()
maps = Path("/proc/self/maps").read_text()
for name in ("libgomp", "libhwloc", "libnuma"):
    paths = {line.split()[-1] for line in maps.splitlines() if f"/{name}" in line}
    assert paths and all(Path(p).parent == libs for p in paths), f"{name} loaded from {paths}, not {libs}"
exe = pkg / "bin" / "numagraph"
trace = subprocess.run([str(exe)], env={"LD_TRACE_LOADED_OBJECTS": "1"}, capture_output=True, text=True).stdout
for name in ("libgomp", "libhwloc", "libnuma"):
    line = next((l for l in trace.splitlines() if name in l), "")
    where = line.split("=>")[-1].split("(")[0].strip()
    assert where and Path(where).resolve().parent == libs, f"bin/numagraph resolves {name} as {line.strip()!r}"
print(f"vendored libgomp, hwloc, numa: loaded from {libs}")

# Kernels against NetworkX on a small random graph with isolated vertices.
G = nx.gnm_random_graph(300, 700, seed=7)
g = ng.Graph.from_networkx(G)
depth = ng.bfs(g, 0)
want = nx.single_source_shortest_path_length(G, 0)
got = {v: int(d) for v, d in zip(G, depth) if d >= 0}
assert got == want, "bfs differs from networkx.single_source_shortest_path_length"
comp = ng.connected_components(g)
parts = {}
for v, c in zip(G, comp):
    parts.setdefault(int(c), set()).add(v)
assert sorted(map(sorted, parts.values())) == sorted(map(sorted, nx.connected_components(G))), \
    "connected_components differs from networkx"
tri = ng.triangles(g, per_vertex=True)
assert [int(t) for t in tri] == [nx.triangles(G)[v] for v in G], "triangles differs from networkx"
print(f"kernels: bfs, connected_components, triangles match networkx on gnm(300, 700)")

# The NetworkX backend, through NetworkX's dispatching.
assert "numagraph" in nx.utils.backends.backends, "networkx does not see the numagraph backend entry point"
pr = nx.pagerank(G, backend="numagraph")
ref = nx.pagerank(G)
err = max(abs(pr[v] - ref[v]) for v in G)
assert err < 1e-4, f"nx.pagerank(backend='numagraph') differs from networkx by {err}"
cc = nx.number_connected_components(G, backend="numagraph")
assert cc == nx.number_connected_components(G), "nx.number_connected_components(backend='numagraph') differs"
print(f"networkx backend: pagerank max error {err:.1e}, {cc} components")

# The CLI: the `numagraph` command of this venv runs the bundled executable.
exe = shutil.which("numagraph")
assert exe and Path(exe).parent == Path(sys.executable).parent, f"numagraph command: {exe}, not this venv's"
run = subprocess.run(["numagraph", "--help"], capture_output=True, text=True, timeout=60)
assert run.returncode == 0 and "Usage: numagraph" in run.stdout, f"numagraph --help: {run.returncode} {run.stderr}"
run = subprocess.run(["numagraph", "cc", "--kron", "8", "--verify", "-t", "2"], capture_output=True, text=True,
                     timeout=120)
assert run.returncode == 0 and "verified             true" in run.stdout, f"numagraph cc --verify:\n{run.stdout}{run.stderr}"
edges = Path("path.el")
edges.write_text("0 1\n1 2\n3 4\n")
run = subprocess.run(["numagraph", "cc", str(edges), "--output", "cc.txt"], capture_output=True, text=True, timeout=60)
assert run.returncode == 0, f"numagraph cc path.el: {run.stderr}"
labels = dict(tuple(map(int, line.split())) for line in Path("cc.txt").read_text().split("\n") if line)
assert labels[0] == labels[1] == labels[2] != labels[3] == labels[4], f"numagraph cc --output: {labels}"
print(f"CLI: {exe} --help, cc --kron 8 --verify, cc --output on a file: ok")
print("wheel check: all passed")

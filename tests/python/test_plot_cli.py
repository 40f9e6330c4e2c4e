"""python -m numagraph.plot: the spy-plot entry point docs/reordering.md uses
writes an image for a graph file and for --kron, and refuses a missing
output with a message saying what to give."""
import subprocess
import sys

import networkx as nx
import pytest

pytest.importorskip("matplotlib")


def run_plot(*args):
    return subprocess.run([sys.executable, "-m", "numagraph.plot", *map(str, args)], capture_output=True, text=True)


def test_file_and_kron_make_images(tmp_path):
    path = tmp_path / "grid.el"
    nx.write_edgelist(nx.convert_node_labels_to_integers(nx.grid_2d_graph(20, 20)), path, data=False)
    out = tmp_path / "grid.png"
    proc = run_plot(path, out, "--undirected", "--bins", "64")
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    kron = tmp_path / "kron.png"
    proc = run_plot("--kron", 8, kron, "--orders", "none", "degree")
    assert proc.returncode == 0, proc.stderr
    assert kron.stat().st_size > 1000


def test_missing_output_is_refused(tmp_path):
    proc = run_plot(tmp_path / "g.el")
    assert proc.returncode != 0 and "output image" in proc.stderr

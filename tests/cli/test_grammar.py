"""No output of any command says "1 connected components", "1 vertices",
"1 triangles"...: every command, text and --json, stdout and stderr, on the
smallest graphs it accepts (one vertex, one edge, one triangle) and on
one-component graphs, where counts of 1 are everywhere."""
import re

import pytest

from harness import run_cli

# "1" then up to three words, the last a plural: "1 vertices", "1 connected
# components", "1 BFS sweeps", "1 dangling vertices".
ONE_PLURAL = re.compile(r"(?<![\w.])1 ((?:[A-Za-z-]+ ){0,2}[A-Za-z-]+s)\b")
NOT_PLURALS = {"is", "was", "has", "does", "this", "its", "as", "us", "ms", "ns", "plus", "bits"}


def bad_phrases(text):
    return [m.group(0) for m in ONE_PLURAL.finditer(text) if m.group(1).split()[-1] not in NOT_PLURALS]


def test_the_check_catches_what_it_must():
    assert bad_phrases("1 connected components (weak); 2 of 1 vertices") == ["1 connected components", "1 vertices"]
    assert bad_phrases("(1 dangling vertices: ...), 3 BFS sweeps, 1 BFS sweeps") == ["1 dangling vertices",
                                                                                     "1 BFS sweeps"]
    assert bad_phrases("1 vertex, 1 of 2 vertices, 0.1 s, 11 triangles, vertex 1 is") == []


def write(path, text):
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    d = tmp_path_factory.mktemp("tiny")
    return {
        "loop": (write(d / "loop.el", "0 0\n"), ["--keep-self-loops"]),  # one vertex, one (kept) self-loop
        "edge": (write(d / "edge.el", "0 1\n"), ["-s"]),  # one edge, one component
        "triangle": (write(d / "tri.el", "0 1\n1 2\n2 0\n"), ["-s"]),  # one triangle
        "path": (write(d / "path.el", "0 1\n1 2\n"), []),  # directed, one weak component, one dangling vertex
        "weighted": (write(d / "w.wel", "0 1 5\n1 2 7\n"), ["-s"]),  # one component, edge weights
    }


KERNELS = ["bfs", "sssp", "bc", "cc", "pr", "spmv", "bp", "diameter", "tc", "kcore"]
EXTRA = {"bfs": ["--source", "0"], "sssp": ["--source", "0"]}  # one root, three trials: not "the last of 3 roots"


@pytest.mark.parametrize("graph", ["loop", "edge", "triangle", "path", "weighted"])
@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_outputs(cli, graphs, kernel, graph, tmp_path):
    path, flags = graphs[graph]
    if kernel in ("bp", "tc", "kcore") and "-s" not in flags:
        flags = flags + ["-s"]  # undirected kernels
    for json in ([], ["--json"]):
        for extra in ([], EXTRA.get(kernel, [])):
            proc = run_cli(kernel, path, *flags, *extra, "-n", "3", "--verify", *json, check=False)
            text = proc.stdout + proc.stderr
            if proc.returncode != 0:  # refusals must read well too, but say why they refused
                assert "numagraph: error:" in proc.stderr, text
            assert bad_phrases(text) == [], (kernel, graph, extra, json, text)
            if extra:
                assert "the last of" not in text, text  # one root given


def test_kernel_summaries_name_one_of_each(cli, graphs):
    """The counts of one read as one, on graphs where they are one."""
    tri, flags = graphs["triangle"]
    assert run_cli("tc", tri, *flags, "-n", "1").stdout.startswith("1 triangle\n")
    assert run_cli("cc", tri, *flags, "-n", "1").stdout.startswith("1 connected component;")
    path, _ = graphs["path"]
    pr = run_cli("pr", path, "-n", "1").stdout.splitlines()[0]
    assert "(1 dangling vertex:" in pr, pr
    bfs = run_cli("bfs", path, "--source", "0", "-n", "3").stdout.splitlines()[0]
    assert bfs.startswith("BFS from vertex 0: reached 3 of 3 vertices (100%) in 3 levels"), bfs
    loop, flags = graphs["loop"]
    bfs = run_cli("bfs", loop, *flags, "-n", "1").stdout.splitlines()[0]
    assert "reached 1 of 1 vertex (100%) in 1 level " in bfs, bfs


def test_several_roots_still_say_which(cli, graphs, tmp_path):
    path, _ = graphs["path"]
    roots = write(tmp_path / "roots", "0\n1\n")
    for kernel in ("bfs", "sssp"):
        first = run_cli(kernel, path, "--roots", roots).stdout.splitlines()[0]
        assert "from vertex 1 (the last of 2 roots)" in first, first


@pytest.mark.parametrize("graph", ["loop", "edge", "triangle", "path", "weighted"])
def test_tool_outputs(cli, graphs, graph, tmp_path):
    path, flags = graphs[graph]
    sym = [f for f in flags if f == "-s"]  # info and convert load files as they are: no --keep-self-loops
    runs = [("info", path, *sym), ("info", path, "--json"), ("info", path, "--locality", "-t", "1", *sym),
            ("convert", path, tmp_path / "out.el"), ("convert", path, tmp_path / "out.mtx", *sym),
            ("reorder", path, tmp_path / "out.ngr", "--order", "degree", *flags)]
    for args in runs:
        proc = run_cli(*args, check=False)
        text = proc.stdout + proc.stderr
        assert proc.returncode == 0, text
        assert bad_phrases(text) == [], (args, text)


def test_convert_counts_what_it_removed(cli, graphs, tmp_path):
    path, _ = graphs["loop"]
    text = run_cli("convert", path, tmp_path / "out.el", "--drop-self-loops").stderr
    assert "removed 1 self-loop, 0 duplicate arcs" in text, text

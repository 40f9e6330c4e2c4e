"""Flag-parser errors speak as every other error (`numagraph: error: ...`,
exit 2), suggest the closest command or flag, and the Python function
names work as command names."""
import pytest

from harness import run_cli, run_json


@pytest.mark.parametrize("args,expected", [
    (["pagerrank", "-g", "8"], "unknown command 'pagerrank' (did you mean 'pagerank'?)"),
    (["pr", "-g", "8", "--iteration", "5"], "unknown flag '--iteration' (did you mean '--iterations'?)"),
    (["bfs", "-g", "8", "--sources", "0"], "--sources: must be positive (got 0)"),
])
def test_parse_errors_are_one_line_with_a_suggestion(args, expected):
    proc = run_cli(*args, check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("numagraph: error: ") and expected in lines[0], proc.stderr
    assert "--help" in lines[0]


@pytest.mark.parametrize("alias,name", [("pagerank", "pr"), ("betweenness", "bc"), ("connected_components", "cc"),
                                        ("triangles", "tc"), ("belief_propagation", "bp")])
def test_python_names_are_command_aliases(alias, name):
    flags = ["-g", "8", "-n", "1"] + (["-s"] if name in ("tc", "bp") else [])
    assert run_json(alias, *flags)[-1]["kernel"] == name


def test_one_graph_file(tmp_path):
    proc = run_cli("bfs", tmp_path / "a.el", "-f", tmp_path / "b.el", check=False)
    assert proc.returncode == 2 and "FILE excludes --file" in proc.stderr, proc.stderr

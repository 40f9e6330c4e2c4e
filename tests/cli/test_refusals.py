"""Requests the kernels cannot honour, across kernels: each is refused with
a short message that names the flag or says what to do."""
from cli.cli_util import random_graph, write_mtx
from harness import run_cli


def test_bad_requests_give_clear_errors(cli, tmp_path):
    G = random_graph(1, True)
    path = write_mtx(tmp_path / "g.mtx", G)
    proc = run_cli("bfs", path, "--source", "99999", check=False)
    assert proc.returncode == 2 and "out of range" in proc.stderr
    proc = run_cli("tc", path, check=False)
    assert proc.returncode == 2 and "-s" in proc.stderr
    neg = tmp_path / "neg.wel"
    neg.write_text("0 1 -3\n1 2 4\n")
    proc = run_cli("sssp", neg, "--source", "0", check=False)
    assert proc.returncode == 2 and "negative weight" in proc.stderr


def test_bad_traversal_requests(cli, tmp_path):
    G = random_graph(1, False)
    path = write_mtx(tmp_path / "g.mtx", G)
    proc = run_cli("bfs", path, "--summary-bits", "100", check=False)
    assert proc.returncode == 2 and "summary-bits" in proc.stderr
    for delta, why in (("-1", "must be positive (got -1)"), ("0", "must be positive (got 0)"),
                       ("abc", "expects a number (got 'abc')"), ("1e-320", "is out of the range of a double")):
        proc = run_cli("sssp", path, "--delta", delta, check=False)
        assert proc.returncode == 2 and f"--delta: {why}" in proc.stderr
        assert len(proc.stderr) < 200  # one short line, not CLI11's 309-digit range
    proc = run_cli("bfs", path, "--sources", "0", check=False)
    assert proc.returncode == 2 and "--sources: must be positive (got 0)" in proc.stderr
    roots = tmp_path / "roots.txt"
    roots.write_text("1\nxyz\n")
    proc = run_cli("bc", path, "--roots", roots, check=False)
    assert proc.returncode != 0 and "xyz" in proc.stderr


def test_refusals_say_what_to_do(cli, tmp_path):
    G = random_graph(1, True)
    path = write_mtx(tmp_path / "g.mtx", G)
    for kernel in ("tc", "bp"):
        proc = run_cli(kernel, path, check=False)
        assert proc.returncode == 2 and "-s" in proc.stderr, proc.stderr
    dup = tmp_path / "dup.el"
    dup.write_text("0 1\n1 2\n2 0\n0 1\n")
    proc = run_cli("tc", dup, "-s", "--keep-duplicates", check=False)
    assert proc.returncode == 2 and "--keep-duplicates" in proc.stderr, proc.stderr
    proc = run_cli("pr", path, "--networkx", "--variant", "gauss-seidel", check=False)
    assert proc.returncode == 2 and "jacobi" in proc.stderr, proc.stderr
    for bad in ("4X", "-1", "lots"):
        proc = run_cli("spmv", path, "--cache-block", bad, check=False)
        assert proc.returncode == 2 and "'auto', 'off' or a size in bytes" in proc.stderr, proc.stderr
    for args, why in ((("pr", "--tolerance", "-1"), "--tolerance: must be zero or positive (got -1)"),
                      (("spmv", "--iterations", "0"), "--iterations: must be positive (got 0)"),
                      (("bp", "-s", "--iterations", "0"), "--iterations: must be positive (got 0)")):
        proc = run_cli(args[0], path, *args[1:], check=False)
        assert proc.returncode == 2 and why in proc.stderr and len(proc.stderr) < 200, proc.stderr

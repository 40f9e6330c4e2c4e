"""Kernels that cannot use edge weights say so on a weighted graph: one note
on stderr per run (not per trial), naming what they compute instead and sssp,
the command that uses weights; --json stdout stays one record per line, with
"weights_used": false. Weighted commands and unweighted graphs get no note."""
import json

import pytest

from harness import run_cli

UNWEIGHTED = {"bfs": "depths count hops", "bc": "shortest paths count hops", "diameter": "distances count hops",
              "cc": "components depend only on which edges exist", "tc": "triangles depend only on which edges exist",
              "kcore": "core numbers count neighbours", "bp": "every edge has the same coupling, --coupling"}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("w")
    weighted = d / "w.wel"
    weighted.write_text("0 1 5\n1 2 7\n2 0 1.5\n2 3 2\n")
    plain = d / "p.el"
    plain.write_text("0 1\n1 2\n2 0\n2 3\n")
    return weighted, plain


def notes(stderr):
    return [line for line in stderr.splitlines() if "does not use them" in line]


@pytest.mark.parametrize("kernel", sorted(UNWEIGHTED))
def test_one_note_per_run(cli, files, kernel):
    weighted, plain = files
    proc = run_cli(kernel, weighted, "-s", "-n", "3", "--verify")
    said = notes(proc.stderr)
    assert said == [f"numagraph: note: {weighted} has edge weights; {kernel} does not use them "
                    f"({UNWEIGHTED[kernel]}); sssp does"], proc.stderr
    assert "does not use them" not in proc.stdout
    proc = run_cli(kernel, weighted, "-s", "-n", "3", "--json")
    records = [json.loads(line) for line in proc.stdout.splitlines()]  # stdout: JSON lines only
    assert len(records) == 1 and records[0]["weights_used"] is False and records[0]["weighted"] is True
    assert len(notes(proc.stderr)) == 1
    quiet = run_cli(kernel, plain, "-s", "-n", "1", "--json")
    assert notes(quiet.stderr) == [] and "weights_used" not in json.loads(quiet.stdout)


@pytest.mark.parametrize("kernel", ["sssp", "spmv"])  # pr: its own weights_used (tests/cli/test_pr.py)
def test_weighted_kernels_say_nothing(cli, files, kernel):
    weighted, _ = files
    proc = run_cli(kernel, weighted, "-s", "-n", "1", "--json")
    assert notes(proc.stderr) == [] and "weights_used" not in json.loads(proc.stdout)

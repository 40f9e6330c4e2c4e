"""The execution context through the CLI: the machine picture is read from
the process's CPUs before pinning, and an option means the same on both
engines."""
import os

import pytest

from harness import run_cli, run_json


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs 2 CPUs for 2 threads of their own")
def test_pinned_run_steals_across_nodes_when_every_thread_has_a_cpu():
    # configure() pins the main thread to one CPU; reading the CPU count from
    # its mask afterwards turned cross-node stealing off in every pinned run.
    for bind in ("compact", "none"):
        rec = run_json("bc", "-g", "10", "--engine", "numa", "-t", "2", "--bind", bind, "-n", "1")[-1]
        assert rec["engine"] == "numa" and rec["steal_across_nodes"] is True, (bind, rec)
    # More threads than CPUs (a synthetic topology bigger than the machine): off.
    cpus = len(os.sched_getaffinity(0))
    rec = run_json("bc", "-g", "10", "--engine", "numa", "-t", str(2 * cpus), "--topology",
                   f"pack:2 numa:1 core:{cpus}", "-n", "1")[-1]
    assert rec["steal_across_nodes"] is False, rec


def test_networkx_pagerank_stops_alike_on_both_engines(shared_data):
    path = shared_data / "email-Enron/email-Enron.txt.gz"
    runs = {engine: run_json("pr", path, "--networkx", "--engine", engine, "-n", "1")[-1] for engine in ("flat", "numa")}
    assert runs["flat"]["iterations"] == runs["numa"]["iterations"] < 100, runs


@pytest.mark.parametrize("args,why", [
    (["bfs", "-g", "8", "--source", "-1"], "--source"),
    (["bfs", "-g", "8", "--summary-bits", "512", "--engine", "numa"], "--summary-bits"),
    (["bfs", "-g", "8", "--alpha", "0"], "--alpha"),
    (["bc", "-g", "8", "--exact", "--sources", "2"], "--exact"),
    (["bc", "-g", "8", "--task-size", "8", "--engine", "flat"], "--task-size"),
    (["pr", "-g", "8", "--damping", "nan"], "damping"),
    (["pr", "-g", "8", "--variant", "gauss-seidel", "--engine", "numa"], "--engine flat"),
    (["cc", "-g", "8", "--variant", "sv", "--engine", "numa"], "--engine flat"),
])
def test_flags_that_cannot_be_honoured_are_refused(args, why):
    # Each once ran with the flag silently ignored or with a NaN result.
    proc = run_cli(*args, check=False)
    assert proc.returncode == 2 and why in proc.stderr, proc.stderr


@pytest.mark.parametrize("line", ["1x", "-1", "0x10", "3 4"])
def test_roots_file_lines_are_whole_ids(tmp_path, line):
    # "1x" was read as 1 and "-1" wrapped to 2^64 - 1.
    roots = tmp_path / "roots.txt"
    roots.write_text(f"2\n{line}\n")
    proc = run_cli("bfs", "-g", "8", "--roots", roots, check=False)
    assert proc.returncode == 3 and "roots.txt:2: expected a vertex id" in proc.stderr, proc.stderr

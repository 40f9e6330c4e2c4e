"""The execution context through the CLI: the machine picture is read from
the process's CPUs before pinning, and an option means the same on both
engines."""
import os

import pytest

from conftest import run_json


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

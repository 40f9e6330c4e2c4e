"""Serial cut-offs (kernels/thread_budget.hpp, docs/kernels/sssp.md,
"Threads on small graphs"): below a kernel's cut-off a flat call runs on one thread and
the record says so (kernel_threads); NUMAGRAPH_SERIAL_BELOW overrides the
cut-offs (0: never serial); a bad value exits 2 naming the variable. The
answer is the same either way."""
import os
import subprocess

from harness import numagraph_bin, read_vertex_values


def run(env_value, *args):
    env = dict(os.environ)
    env.pop("NUMAGRAPH_SERIAL_BELOW", None)
    if env_value is not None:
        env["NUMAGRAPH_SERIAL_BELOW"] = env_value
    return subprocess.run([str(numagraph_bin()), *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=300)


def record(proc):
    import json
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]


def test_small_graph_runs_on_one_thread_by_default(cli, tmp_path):
    flags = ["--kron", "10", "-t", "2", "-n", "1", "--json", "--verify"]
    serial = record(run(None, "cc", *flags, "--output", tmp_path / "serial.out"))
    assert serial["threads"] == 2 and serial["kernel_threads"] == 1 and serial["verified"] is True
    parallel = record(run("0", "cc", *flags, "--output", tmp_path / "parallel.out"))
    assert parallel["kernel_threads"] == 2 and parallel["verified"] is True
    a = read_vertex_values(tmp_path / "serial.out", int)
    b = read_vertex_values(tmp_path / "parallel.out", int)
    assert a == b  # component ids are the smallest vertex of each component either way


def test_large_graph_keeps_every_thread(cli):
    rec = record(run(None, "pr", "--kron", "16", "-t", "2", "-n", "1", "--json"))
    assert rec["kernel_threads"] == 2


def test_bad_value_is_refused(cli):
    proc = run("lots", "bfs", "--kron", "8", "-n", "1")
    assert proc.returncode == 2
    assert "NUMAGRAPH_SERIAL_BELOW" in proc.stderr


def test_small_sssp_starts_alone_and_answers_as_the_team(cli, tmp_path):
    # Below SSSP's cut-off the search starts on one thread and calls the team at its first
    # round with enough arcs for the extra threads (sssp_detail::team_round_entries; on two
    # threads neither of these small graphs gets there): the same distances as the team
    # throughout, verified against Dijkstra.
    for name, graph in (("kron", ["--kron", "10"]), ("grid", ["--grid", "12"])):
        flags = [*graph, "--weighted", "-t", "2", "-n", "2", "--json", "--verify"]
        alone = record(run(None, "sssp", *flags, "--output", tmp_path / f"{name}-alone.out"))
        team = record(run("0", "sssp", *flags, "--output", tmp_path / f"{name}-team.out"))
        assert alone["verified"] is True and team["verified"] is True
        assert alone["kernel_threads"] == 2
        a = read_vertex_values(tmp_path / f"{name}-alone.out", float)
        b = read_vertex_values(tmp_path / f"{name}-team.out", float)
        assert a == b and len(a) > 1000, name

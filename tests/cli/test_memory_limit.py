"""NUMAGRAPH_MEMORY_LIMIT counts the heap numagraph holds (its arrays), not the
pages of a mapped .ngr file: a kernel on a clean .ngr runs under a limit far
below the file's size, a limit below the kernel's own arrays is refused with
the guard's message, and a .ngr the kernels must rebuild (to drop duplicate
arcs) is refused saying why and how to avoid the rebuild."""
import os
import subprocess

import pytest

from harness import numagraph_bin, read_vertex_values, run_cli

ROAD = "USA-road-d.NY/USA-road-d.NY.gr.gz"  # 264,346 vertices, 733,846 arcs, 3,746 of them duplicates


@pytest.fixture(scope="module")
def road(shared_data, tmp_path_factory):
    """The NY road graph as a .ngr as convert writes it (duplicate arcs kept) and a cleaned one."""
    d = tmp_path_factory.mktemp("road")
    raw, clean = d / "road.ngr", d / "clean.ngr"
    run_cli("convert", shared_data / ROAD, raw)
    run_cli("convert", "--dedupe", "--drop-self-loops", raw, clean)
    return raw, clean


def run_limited(limit, *args):
    env = {**os.environ, "NUMAGRAPH_MEMORY_LIMIT": limit}
    return subprocess.run([str(numagraph_bin()), *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=300)


def test_kernel_on_a_mapped_ngr_runs_under_a_limit_below_the_file(cli, road, tmp_path):
    _, clean = road
    assert clean.stat().st_size > 15 << 20  # the file is about twice the limit
    limited, free = tmp_path / "limited.txt", tmp_path / "free.txt"
    proc = run_limited("8M", "bfs", clean, "--source", "0", "-n", "1", "-q", "--output", limited)
    assert proc.returncode == 0, proc.stderr
    run_cli("bfs", clean, "--source", "0", "-n", "1", "-q", "--output", free)
    assert read_vertex_values(limited, int) == read_vertex_values(free, int)


def test_limit_below_the_kernels_arrays_is_refused(cli, road):
    _, clean = road
    # BFS's parent array alone is 264,346 x 4 bytes, just over 1 MiB.
    proc = run_limited("1M", "bfs", clean, "--source", "0", "-n", "1", "-q")
    assert proc.returncode == 6, proc.stderr
    assert "'parents' array" in proc.stderr and "1048576 bytes) is allowed (NUMAGRAPH_MEMORY_LIMIT" in proc.stderr
    assert "NUMAGRAPH_MEMORY_LIMIT=off" in proc.stderr


def test_a_rebuild_is_heap_and_the_refusal_says_why(cli, road):
    raw, _ = road
    assert run_limited("8M", "info", raw).returncode == 0  # info uses the file as it is mapped
    proc = run_limited("8M", "bfs", raw, "--source", "0", "-n", "1", "-q")
    assert proc.returncode == 6, proc.stderr
    assert "is rebuilt on the heap (dropping its 3746 duplicate arcs)" in proc.stderr, proc.stderr
    assert "numagraph convert --dedupe --drop-self-loops" in proc.stderr and "--keep-duplicates" in proc.stderr
    kept = run_limited("8M", "bfs", raw, "--source", "0", "-n", "1", "-q", "--keep-duplicates")
    assert kept.returncode == 0, kept.stderr

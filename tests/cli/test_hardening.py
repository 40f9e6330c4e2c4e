"""Hardening of the CLI's files (issue #27): outputs are written whole or not
at all, never over an input, status text never goes into the data; .ngr files
are validated structurally; gzip and memory guards refuse before allocating.

Every test here failed on the code before the hardening; the data-loss cases
use real signals and real concurrent processes."""
import os
import resource
import signal
import struct
import subprocess
import time
from pathlib import Path

import pytest

from harness import REPO, numagraph_bin, run_cli, run_json

TINY = REPO / "tests" / "data"


def temps_in(directory):
    return sorted(p.name for p in Path(directory).iterdir() if ".tmp-" in p.name)


@pytest.fixture(scope="module")
def kron16(tmp_path_factory):
    path = tmp_path_factory.mktemp("graphs") / "k16.ngr"
    run_cli("generate", "kron", "--scale", "16", "-o", path)
    return path


@pytest.fixture(scope="module")
def kron18(tmp_path_factory):
    path = tmp_path_factory.mktemp("graphs") / "k18.ngr"
    run_cli("generate", "kron", "--scale", "18", "-o", path)
    return path


# ---- outputs onto inputs ---------------------------------------------------

def test_convert_onto_its_input_is_refused_and_keeps_the_file(cli, kron16, tmp_path):
    path = tmp_path / "self.ngr"
    path.write_bytes(kron16.read_bytes())
    before = path.read_bytes()
    proc = run_cli("convert", path, path, check=False)
    assert proc.returncode == 2, proc.stderr
    assert "is the input graph" in proc.stderr and "another file name" in proc.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize("kernel", ["bfs", "pr"])
def test_output_onto_the_input_graph_is_refused_before_running(cli, kron16, tmp_path, kernel):
    path = tmp_path / "c.ngr"
    path.write_bytes(kron16.read_bytes())
    before = path.read_bytes()
    proc = run_cli(kernel, path, "-n", "1", "--output", path, check=False)
    assert proc.returncode == 2, proc.stderr
    assert "--output" in proc.stderr and "is the input graph" in proc.stderr
    assert path.read_bytes() == before
    # A hard link is the same file under another name.
    link = tmp_path / "link.txt"
    os.link(path, link)
    proc = run_cli(kernel, path, "-n", "1", "--output", link, check=False)
    assert proc.returncode == 2, proc.stderr
    assert path.read_bytes() == before


# ---- signals, errors and concurrent writers ---------------------------------

def start_and_signal_while_writing(args, out, sig):
    """Starts the CLI, waits until it starts writing `out` (a temporary file
    beside it appears, or `out` itself changes), sends `sig`, and returns the
    exit status."""
    proc = subprocess.Popen([str(numagraph_bin()), *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    wait_until_writing(proc, out, out.stat())
    proc.send_signal(sig)
    proc.communicate(timeout=120)
    return proc.returncode


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("ext", ["el", "ngr"])
def test_signal_during_convert_leaves_the_old_file_and_no_temporary(cli, kron18, tmp_path, sig, ext):
    out = tmp_path / f"out.{ext}"
    out.write_bytes(b"0 1\n" if ext == "el" else (TINY / "tiny.el").read_bytes())
    before = out.read_bytes()
    rc = start_and_signal_while_writing(["convert", kron18, out, "-t", "1"], out, sig)
    if rc == 0:
        pytest.skip("the conversion finished before the signal arrived")
    assert rc == -sig
    assert out.read_bytes() == before, "the interrupted write damaged the existing file"
    assert temps_in(tmp_path) == []


def test_write_error_leaves_no_partial_file(cli, kron16, tmp_path):
    out = tmp_path / "big.el"

    def limit_file_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write beyond the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))

    proc = subprocess.run([str(numagraph_bin()), "convert", kron16, out], capture_output=True, text=True,
                          preexec_fn=limit_file_size)
    assert proc.returncode == 4, proc.stderr
    assert not out.exists()
    assert temps_in(tmp_path) == []


def test_refused_write_leaves_no_empty_file(cli, tmp_path):
    # gapbs files cannot hold original ids: refused after the output was opened.
    out = tmp_path / "x.sg"
    proc = run_cli("convert", TINY / "tiny.el", out, "--relabel", "on", check=False)
    assert proc.returncode == 2, proc.stderr
    assert not out.exists()
    assert temps_in(tmp_path) == []


def wait_until_writing(proc, out, old_stat):
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if temps_in(out.parent):
            return
        if old_stat is not None:
            st = out.stat()
            # Written in place (the old way): wait for the first data, not the truncation.
            if st.st_size > 0 and (st.st_size != old_stat.st_size or st.st_mtime_ns != old_stat.st_mtime_ns):
                return
        elif out.exists():
            return
        time.sleep(0.0005)


def test_concurrent_writers_leave_one_complete_file(cli, tmp_path):
    # Writer A is frozen in the middle of its write while writer B writes the
    # whole file, then A finishes: the file must be one writer's complete output.
    out = tmp_path / "shared.ngr"
    refs = {}
    for seed in (1, 2):
        ref = tmp_path / f"ref{seed}.ngr"
        run_cli("generate", "uniform", "--scale", "17", "--seed", seed, "-o", ref)
        refs[seed] = ref.read_bytes()
    out.write_bytes(refs[2])
    a = subprocess.Popen([str(numagraph_bin()), "generate", "uniform", "--scale", "17", "--seed", "1", "-t", "1",
                          "-o", str(out)], stderr=subprocess.PIPE)
    wait_until_writing(a, out, out.stat())
    a.send_signal(signal.SIGSTOP)
    try:
        run_cli("generate", "uniform", "--scale", "17", "--seed", "2", "-t", "1", "-o", out)
    finally:
        a.send_signal(signal.SIGCONT)
    a.communicate(timeout=120)
    assert a.returncode == 0
    assert out.read_bytes() == refs[1]
    assert run_json("info", out)[0]["num_vertices"] == 1 << 17
    assert temps_in(tmp_path) == []


def test_regenerating_a_graph_under_a_running_job_does_not_kill_it(cli, tmp_path):
    path = tmp_path / "live.ngr"
    run_cli("generate", "kron", "--scale", "16", "-o", path)
    job = subprocess.Popen([str(numagraph_bin()), "pr", str(path), "-n", "400", "-t", "1"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)  # the job has mapped the file and runs its trials
    for seed in (5, 6, 7):
        run_cli("generate", "kron", "--scale", "16", "--seed", seed, "-o", path)
    out, err = job.communicate(timeout=600)
    assert job.returncode == 0, err


# ---- status text and non-regular outputs -----------------------------------

def test_convert_to_stdout_gives_clean_data(cli, tmp_path):
    proc = subprocess.run([str(numagraph_bin()), "convert", TINY / "tiny.el", "/dev/stdout", "--to", "el"],
                          capture_output=True)
    assert proc.returncode == 0, proc.stderr
    assert b"wrote" not in proc.stdout and b"wrote" in proc.stderr
    copy = tmp_path / "copy.el"
    copy.write_bytes(proc.stdout)
    assert run_json("info", copy)[0]["num_edges"] == run_json("info", TINY / "tiny.el")[0]["num_edges"]


def test_convert_ngr_into_a_pipe(cli, tmp_path):
    proc = subprocess.run([str(numagraph_bin()), "convert", TINY / "tiny.el", "/dev/stdout", "--to", "ngr"],
                          capture_output=True)
    assert proc.returncode == 0, proc.stderr
    copy = tmp_path / "copy.ngr"
    copy.write_bytes(proc.stdout)
    assert run_json("info", copy)[0]["num_edges"] == run_json("info", TINY / "tiny.el")[0]["num_edges"]


def test_output_file_keeps_its_permissions(cli, tmp_path):
    out = tmp_path / "scores.txt"
    out.write_text("old\n")
    out.chmod(0o640)
    run_cli("bfs", TINY / "tiny.el", "-n", "1", "--source", "0", "--output", out)
    assert (out.stat().st_mode & 0o777) == 0o640
    assert out.read_text() != "old\n"


# ---- .ngr structural validation ---------------------------------------------

def patched_ngr(src, dst, patch):
    data = bytearray(src.read_bytes())
    patch(data)
    dst.write_bytes(bytes(data))
    return dst


def section(data, s):
    return struct.unpack_from("<Q", data, 56 + 8 * s)[0]


@pytest.mark.parametrize("kernel", ["info", "bfs", "cc", "sssp"])
def test_ngr_with_a_neighbour_beyond_n_is_refused_not_a_crash(cli, kron16, tmp_path, kernel):
    def bad_id(d):
        struct.pack_into("<I", d, section(d, 1) + 4 * 1000, 0xFFFFFFF0)
    path = patched_ngr(kron16, tmp_path / "bad_id.ngr", bad_id)
    args = [kernel, path, "--no-checksum"] + ([] if kernel == "info" else ["-n", "1"])
    proc = run_cli(*args, check=False)
    assert proc.returncode == 3, (proc.returncode, proc.stderr)
    assert "4294967280" in proc.stderr and "not below the vertex count" in proc.stderr


def test_ngr_with_decreasing_offsets_is_refused(cli, kron16, tmp_path):
    def bad_offsets(d):
        struct.pack_into("<q", d, section(d, 0) + 8 * 100, 1 << 40)
    path = patched_ngr(kron16, tmp_path / "bad_off.ngr", bad_offsets)
    proc = run_cli("bfs", path, "--no-checksum", "-n", "1", check=False)
    assert proc.returncode == 3, (proc.returncode, proc.stderr)
    assert "offsets" in proc.stderr


@pytest.mark.parametrize("kernel", ["tc", "bc"])
def test_ngr_with_an_unsorted_list_is_refused(cli, kron16, tmp_path, kernel):
    # Triangle counting merges lists and betweenness searches them: an unsorted list would give a wrong answer.
    def swap_two(d):  # the first two ids of the first list that has two different ones
        offsets, neighbours = section(d, 0), section(d, 1)
        for v in range(1000):
            first, end = struct.unpack_from("<2q", d, offsets + 8 * v)
            a, b = struct.unpack_from("<2I", d, neighbours + 4 * first) if end - first >= 2 else (0, 0)
            if a < b:
                struct.pack_into("<2I", d, neighbours + 4 * first, b, a)
                swap_two.vertex = v
                return
        raise AssertionError("no list with two different ids among the first 1000 vertices")
    path = patched_ngr(kron16, tmp_path / "unsorted.ngr", swap_two)
    proc = run_cli(kernel, path, "--no-checksum", "-n", "1", check=False)
    assert proc.returncode == 3, (proc.returncode, proc.stderr)
    assert f"the list of vertex {swap_two.vertex} is not sorted" in proc.stderr


def test_ngr_that_declares_weights_it_lacks_is_refused_by_sssp(cli, kron16, tmp_path):
    path = patched_ngr(kron16, tmp_path / "no_w.ngr", lambda d: struct.pack_into("<I", d, 36, 1))
    proc = run_cli("sssp", path, "--no-checksum", "-n", "1", check=False)
    assert proc.returncode == 3, (proc.returncode, proc.stderr)
    assert "weights section it declares is absent" in proc.stderr


# ---- gzip ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tiny.sg", "tiny.wsg"])
def test_gzipped_gapbs_files_load(cli, tmp_path, name):
    import gzip
    gz = tmp_path / (name + ".gz")
    gz.write_bytes(gzip.compress((TINY / name).read_bytes()))
    assert run_json("info", gz)[0] == {**run_json("info", TINY / name)[0], "graph": str(gz)} or \
        run_json("info", gz)[0]["num_arcs"] == run_json("info", TINY / name)[0]["num_arcs"]


def test_gzipped_ngr_loads(cli, kron16, tmp_path):
    import gzip
    gz = tmp_path / "k16.ngr.gz"
    gz.write_bytes(gzip.compress(kron16.read_bytes(), compresslevel=1))
    a, b = run_json("info", gz)[0], run_json("info", kron16)[0]
    for key in ("num_vertices", "num_arcs", "duplicate_arcs", "self_loops"):
        assert a[key] == b[key]


def test_gzip_bomb_is_refused_quickly_without_the_memory(cli, tmp_path):
    import zlib
    member = zlib.compressobj(9, zlib.DEFLATED, 31)
    one = member.compress(b"\0" * (1 << 20)) + member.flush()
    bomb = tmp_path / "bomb.el.gz"
    bomb.write_bytes(one * 2048)  # 2 GiB of zeros in about 2 MB

    def limit_memory():  # the old inflater would have needed 2-3 GiB
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    proc, cpu = run_counting_cpu([str(numagraph_bin()), "info", str(bomb)], preexec_fn=limit_memory,
                                 env=small_address_space_env())
    assert proc.returncode == 6, proc.stderr
    assert "gzip bomb" in proc.stderr and "gunzip" in proc.stderr
    assert cpu < 1.0, cpu


# ---- memory guard -----------------------------------------------------------------

def small_address_space_env():
    """Threads and malloc arenas reserve address space per core: keep both
    small so an RLIMIT_AS that only the old code's allocations exceed holds
    on a many-core machine too."""
    return {**os.environ, "OMP_NUM_THREADS": "2", "MALLOC_ARENA_MAX": "2"}


def run_limited(*args, env_limit=None):
    env = small_address_space_env()
    if env_limit:
        env["NUMAGRAPH_MEMORY_LIMIT"] = env_limit

    def limit_memory():  # safety net for the old code, which allocated first
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    return run_counting_cpu([str(numagraph_bin()), *map(str, args)], env=env, preexec_fn=limit_memory)


def run_counting_cpu(argv, **kw):
    """Runs argv; returns the CompletedProcess and the CPU seconds it used
    (user + system). "At once" is judged by CPU time, not wall time: on a
    loaded machine a process waits for a core, but the work it does to
    refuse the input stays the same."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, capture_output=True, text=True, **kw)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return proc, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def test_generating_kron_36_is_refused_at_once(cli, tmp_path):
    proc, cpu = run_limited("generate", "kron", "--scale", "36", "-o", tmp_path / "huge.ngr")
    assert proc.returncode == 6, proc.stderr
    assert "kron36" in proc.stderr and "68719476736 vertices" in proc.stderr
    assert "needs about" in proc.stderr and "available" in proc.stderr and "NUMAGRAPH_MEMORY_LIMIT" in proc.stderr
    assert cpu < 1.0, cpu
    assert not (tmp_path / "huge.ngr").exists()


@pytest.mark.parametrize("name,text", [
    ("lie.mtx", "%%MatrixMarket matrix coordinate pattern general\n400000000 400000000 1\n1 2\n"),
    ("lie.gr", "p sp 400000000 1\na 1 2 1\n"),
])
def test_header_declaring_4e8_vertices_is_refused_before_allocating(cli, tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    proc, cpu = run_limited("info", path, env_limit="1G")
    assert proc.returncode == 6, proc.stderr
    assert str(path) in proc.stderr and "400000000 vertices (declared by its header)" in proc.stderr
    assert "1.0 GiB is allowed" in proc.stderr and "NUMAGRAPH_MEMORY_LIMIT=off" in proc.stderr
    assert cpu < 1.0, cpu


def test_lying_metis_header_is_refused_at_once(cli, tmp_path):
    path = tmp_path / "lie.graph"
    path.write_text("400000000 1\n2\n1\n")
    proc, cpu = run_limited("info", path)
    assert proc.returncode == 3, proc.stderr
    assert "400000000 vertices" in proc.stderr
    assert cpu < 1.0, cpu


def test_gapbs_header_with_absurd_arc_count_is_an_input_error(cli, tmp_path):
    data = bytearray((TINY / "tiny.sg").read_bytes())
    struct.pack_into("<q", data, 1, 1 << 62)
    path = tmp_path / "absurd.sg"
    path.write_bytes(bytes(data))
    proc, _ = run_limited("info", path)
    assert proc.returncode == 3, proc.stderr
    assert "truncated" in proc.stderr


def test_memory_limit_override_must_be_a_size(cli):
    proc, _ = run_limited("info", TINY / "tiny.gr", env_limit="lots")
    assert proc.returncode == 2, proc.stderr
    assert "NUMAGRAPH_MEMORY_LIMIT" in proc.stderr


# ---- weights that do not fit a float --------------------------------------------------

@pytest.mark.parametrize("name,text,why", [
    ("big.wel", "0 1 1e40\n1 2 3\n", "beyond the range of a 32-bit float"),
    ("inexact.wel", "0 1 16777217\n1 2 3\n", "cannot be stored exactly"),
    ("big.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1e40\n",
     "beyond the range of a 32-bit float"),
])
def test_weights_a_float_cannot_hold_are_refused(cli, tmp_path, name, text, why):
    path = tmp_path / name
    path.write_text(text)
    proc = run_cli("info", path, check=False)
    assert proc.returncode == 3, proc.stderr
    assert why in proc.stderr and f"{name}:" in proc.stderr


# ---- the MPI driver ------------------------------------------------------------------

def graph500_bin():
    return numagraph_bin().parent / "mpi" / "numagraph-graph500"


@pytest.mark.parametrize("args", [["--no-such-flag"], ["--scale", "abc"], ["--scale"]])
def test_graph500_flag_errors_exit_2(tmp_path, args):
    if not graph500_bin().exists():
        pytest.skip("numagraph-graph500 not built (no MPI)")
    proc = subprocess.run([str(graph500_bin()), *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)


def test_graph500_output_is_written_whole(tmp_path):
    if not graph500_bin().exists():
        pytest.skip("numagraph-graph500 not built (no MPI)")
    out = tmp_path / "depth.txt"
    proc = subprocess.run([str(graph500_bin()), "--scale", "10", "--roots", "1", "--output", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert len(out.read_text().splitlines()) == 1 << 10
    assert temps_in(tmp_path) == []


MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMPI_MCA_pml": "ob1", "OMPI_MCA_btl": "self,vader"}


@pytest.mark.parametrize("threads,warns", [("cpus", True), ("1", False)])
def test_graph500_warns_when_ranks_times_threads_exceed_the_cores(threads, warns):
    import shutil
    if not graph500_bin().exists() or shutil.which("mpirun") is None:
        pytest.skip("numagraph-graph500 or mpirun not available")
    # 2 ranks with as many threads each as this process has CPUs: always oversubscribed.
    cpus = len(os.sched_getaffinity(0))
    env = {**os.environ, **MPI_ENV, "OMP_NUM_THREADS": str(cpus) if threads == "cpus" else threads}
    proc = subprocess.run(["timeout", "-k", "10", "120", "mpirun", "--bind-to", "none", "-n", "2",
                           str(graph500_bin()), "--scale", "8", "--roots", "1"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert ("oversubscribed" in proc.stderr) == warns, proc.stderr
    if warns:
        assert "--threads" in proc.stderr and proc.stderr.count("warning") == 1

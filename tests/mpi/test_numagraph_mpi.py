"""numagraph-mpi gives numagraph's answers: on every graph of ../shared/data and
on generated files (Kronecker, uniform, grid, a CSV with names, 1-based ids,
sparse 10^12 ids, real weights), at 1 to 4 ranks, the BFS depths and SSSP
distances are equal, the components are the same partition and the PageRank
scores agree to 1e-9 after the same number of iterations, all read from the
--output files in the user's ids or names. And faults end the job quickly
with one message, numagraph's exit code and no file left behind.

Binary: $NUMAGRAPH_MPI_BIN, else mpi/numagraph-mpi next to $NUMAGRAPH_BIN
(default build/). Every launch is wrapped in `timeout` (a hung collective
shows as exit 124) and asserts the communicator size from --json "ranks".
numagraph's answers are computed once per graph and flag set, and shared by
every rank count (a module-level cache).
"""
import contextlib
import csv
import json
import math
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from harness import SHARED_DATA, numagraph_bin, run_cli

MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_pml": "ob1",
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_osc": "sm,ucx",
    "OMP_NUM_THREADS": "1",
}

ERROR_PREFIX = "numagraph-mpi: error:"
PR_TOLERANCE = 1e-9  # absolute, per vertex
FAULT_SECONDS = 5.0  # a fault must end the whole job within this


def mpi_bin() -> Path:
    if "NUMAGRAPH_MPI_BIN" in os.environ:
        return Path(os.environ["NUMAGRAPH_MPI_BIN"])
    return numagraph_bin().parent / "mpi" / "numagraph-mpi"


@pytest.fixture(scope="module", autouse=True)
def need_mpi():
    if shutil.which("mpirun") is None:
        pytest.skip("mpirun not found: install openmpi-bin libopenmpi-dev (docs/graph500.md)")
    if not mpi_bin().exists():
        pytest.skip(f"{mpi_bin()} not built (needs MPI at configure time)")
    if not numagraph_bin().exists():
        pytest.fail(f"{numagraph_bin()} not built: run `make build` (or set NUMAGRAPH_BIN)")


def mpi_command(ranks, args, limit=120):
    return ["timeout", "-k", "10", str(limit), "mpirun", "-n", str(ranks), str(mpi_bin()), *map(str, args)]


@contextlib.contextmanager
def mpi_env():
    """The launch environment, with a session folder of its own: mpiruns
    started at the same moment (this module's, other tests') race to create
    the shared /tmp/ompi.HOST.UID and one fails ("mkdir ... File exists")."""
    session = tempfile.mkdtemp(prefix="ompi")
    env = dict(os.environ)
    env.update(MPI_ENV)
    env["OMPI_MCA_orte_tmpdir_base"] = session
    try:
        yield env
    finally:
        shutil.rmtree(session, ignore_errors=True)


def launch(ranks, *args, limit=120):
    """Runs numagraph-mpi under mpirun; returns (CompletedProcess, seconds)."""
    cmd = mpi_command(ranks, args, limit)
    with mpi_env() as env:
        start = time.monotonic()
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env)
        seconds = time.monotonic() - start
    assert p.returncode != 124, f"hung (killed after {limit} s): {' '.join(cmd)}\n{p.stderr}"
    return p, seconds


def last_json(stdout):
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    assert lines, f"no JSON record on stdout:\n{stdout}"
    return json.loads(lines[-1])


def run_mpi(ranks, *args):
    """Runs with --json, expects success and the asked communicator size."""
    p, _ = launch(ranks, *args, "--json")
    assert p.returncode == 0, f"numagraph-mpi {' '.join(map(str, args))} at {ranks} ranks exited {p.returncode}:\n" \
                              f"{p.stdout}\n{p.stderr}"
    rec = last_json(p.stdout)
    assert rec["ranks"] == ranks, "wrong communicator size: is mpirun from the MPI the binary was built with?"
    return rec


def run_shm(*args):
    return last_json(run_cli(*args, "--json").stdout)


def read_output(path):
    """An --output file as {id or name text: value text}: .csv and .tsv with
    their 'vertex,<value>' header, other names 'id value' lines (names with
    blanks quoted as in CSV)."""
    suffix = Path(path).suffix.lower()
    delimiter = {".csv": ",", ".tsv": "\t"}.get(suffix, " ")
    values = {}
    with open(path, newline="") as f:
        rows = csv.reader(f, delimiter=delimiter)
        if delimiter != " ":
            header = next(rows)
            assert header[0] == "vertex", f"{path}: header {header}"
        for row in rows:
            assert len(row) == 2, f"{path}: line {row}"
            assert row[0] not in values, f"{path}: vertex {row[0]!r} written twice"
            values[row[0]] = row[1]
    return values


# ---------------------------------------------------------------- graphs

def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines))


def random_pairs(rng, n, m):
    return [(rng.randrange(n), rng.randrange(n)) for _ in range(m)]


def make_names_csv(path):
    """A CSV with a header, names with blanks, commas and quotes, and real weights."""
    rng = random.Random(11)
    names = []
    for i in range(400):
        names.append([f"user{i}", f"mary ann {i}", f"Smith, J{i}", f'say "hi" {i}'][i % 4])
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["from", "to", "weight"])
        for u, v in random_pairs(rng, len(names), 2000):
            w.writerow([names[u], names[v], f"{rng.uniform(0.5, 10):.3f}"])


def make_one_based(path):
    """An edge list whose ids run from 1 (no vertex 0), named .dat: read with --format el."""
    rng = random.Random(12)
    write_lines(path, [f"{u + 1} {v + 1}" for u, v in random_pairs(rng, 500, 2500)])


def make_huge_ids(path):
    """Sparse ids around 10^12 (above 2^32), a CSV without a header."""
    rng = random.Random(13)
    ids = [10**12 + 1_000_003 * k + rng.randrange(1000) for k in range(600)]
    write_lines(path, [f"{ids[u]},{ids[v]}" for u, v in random_pairs(rng, len(ids), 3000)])


def make_real_wel(path):
    """A weighted edge list with real weights (sums that round)."""
    rng = random.Random(14)
    write_lines(path, [f"{u} {v} {rng.uniform(0.01, 3):.6f}" for u, v in random_pairs(rng, 800, 4000)])


def generator(*args):
    def make(path):
        run_cli("generate", *args, "-o", path, "-q")
    return make


def shared_ngr(file, *flags):
    """A .ngr that numagraph convert writes from a file of ../shared/data."""
    def make(path):
        if not SHARED_DATA.is_dir():
            pytest.skip(f"{SHARED_DATA} is absent: real-graph tests need ../shared/data beside the repo")
        run_cli("convert", SHARED_DATA / file, path, *flags)
    return make


def without_in_lists(make):
    """A directed .ngr whose header no longer declares its in-lists (flag bit 1
    and the three in-sections cleared): readers must turn the out-lists
    around. The checksum no longer matches: read it with --no-checksum."""
    def make_stripped(path):
        make(path)
        data = bytearray(path.read_bytes())
        flags = struct.unpack_from("<I", data, 12)[0]
        assert flags & 1 and flags & 2, "expected a directed .ngr with in-lists"
        struct.pack_into("<I", data, 12, flags & ~2)
        struct.pack_into("<3Q", data, 56 + 8 * 3, 0, 0, 0)
        path.write_bytes(bytes(data))
    return make_stripped


def made_ngr(make_source, source_name, *flags, order=None):
    """A .ngr from a generated file: convert, or reorder --order ORDER (a renumbered .ngr)."""
    def make(path):
        source = path.parent / source_name
        make_source(source)
        if order:
            run_cli("reorder", source, path, "--order", order, *flags)
        else:
            run_cli("convert", source, path, *flags)
    return make


@dataclass
class Run:
    """One command with its flags, on both tools."""
    id: str
    kernel: str  # bfs, sssp, cc, pr
    flags: tuple = ()
    ranks: tuple = None  # None: the graph's rank counts
    output: str = ".txt"
    mpi_flags: tuple = ()  # for numagraph-mpi only
    variant: str = None  # the numagraph-mpi record's "variant", when the run pins it


@dataclass
class Graph:
    name: str
    file: str  # under ../shared/data, or a file name in the module's temporary folder
    flags: tuple = ()
    ranks: tuple = (1, 2, 3, 4)
    make: object = None  # writes a generated file; None: a file of ../shared/data
    runs: list = field(default_factory=list)


BASE = [Run("bfs", "bfs", output=".csv"), Run("sssp", "sssp", output=".txt"), Run("cc", "cc", output=".tsv"),
        Run("pr", "pr", ("--variant", "jacobi"), output=".txt")]
VARIANT_RANKS = (2, 3)  # flag variants: two splittings (the four base kernels run at every rank count)
# cc ties the ranks' components by gathering them (the default on these small
# graphs) or, when told so or when there are too many, by label rounds.
CC_GATHERED = Run("cc-gathered", "cc", ranks=VARIANT_RANKS, variant="union-find+gathered")
CC_ROUNDS = Run("cc-rounds", "cc", ranks=VARIANT_RANKS, mpi_flags=("--gather-limit", "0"),
                variant="union-find+rounds")
NX = Run("pr-networkx", "pr", ("--variant", "jacobi", "--networkx"), VARIANT_RANKS, ".csv")
PERSONALIZED = Run("pr-personalized", "pr", ("--variant", "jacobi", "--personalization", "{pers}"), VARIANT_RANKS,
                   ".csv")

GRAPHS = [
    Graph("facebook", "facebook_combined/facebook_combined.txt.gz", ("-s",),
          runs=BASE + [NX, Run("bfs-alpha-beta", "bfs", ("--alpha", "2", "--beta", "4"), VARIANT_RANKS)]),
    Graph("wiki-Vote", "wiki-Vote/wiki-Vote.txt.gz", runs=BASE + [NX, CC_GATHERED, CC_ROUNDS]),
    Graph("p2p-Gnutella05", "p2p-Gnutella05/p2p-Gnutella05.txt", runs=BASE + [PERSONALIZED]),
    Graph("email-Enron", "email-Enron/email-Enron.txt.gz", ("-s",), runs=list(BASE)),
    Graph("rome99", "rome99/rome99.gr",
          runs=BASE + [Run("sssp-delta", "sssp", ("--delta", "500"), VARIANT_RANKS),
                       Run("pr-unweighted", "pr", ("--variant", "jacobi", "--unweighted"), VARIANT_RANKS),
                       Run("pr-keep-duplicates", "pr", ("--variant", "jacobi", "--keep-duplicates"), VARIANT_RANKS)]),
    Graph("netscience", "netscience/netscience.mtx", runs=BASE + [NX]),
    Graph("PGPgiantcompo", "PGPgiantcompo/PGPgiantcompo.graph", runs=list(BASE)),
    Graph("soc-Slashdot0902", "soc-Slashdot0902/soc-Slashdot0902.txt.gz", ranks=(2, 3), runs=list(BASE)),
    Graph("USA-road-d.NY", "USA-road-d.NY/USA-road-d.NY.gr.gz", ranks=(2, 3), runs=BASE + [CC_GATHERED, CC_ROUNDS]),
    Graph("kron11", "kron11.el", ("-s",), make=generator("kron", "--scale", "11"),
          runs=BASE + [NX, CC_GATHERED, CC_ROUNDS]),
    Graph("kron10-raw", "kron10_raw.el", ("-s", "--keep-self-loops", "--keep-duplicates"),
          make=generator("kron", "--scale", "10", "--keep-self-loops", "--keep-duplicates"),
          runs=[Run("cc", "cc"), Run("pr", "pr", ("--variant", "jacobi"))]),
    Graph("uniform11-weighted", "uniform11.wel",
          make=generator("uniform", "--scale", "11", "-k", "8", "--weighted"), runs=BASE + [NX]),
    Graph("grid10", "grid10.el", ("-s",), make=generator("grid", "--scale", "10"), runs=list(BASE)),
    Graph("names-csv", "names.csv", ("--header", "--weight-column", "weight"), make=make_names_csv,
          runs=BASE + [PERSONALIZED]),
    Graph("one-based", "one_based.dat", ("--format", "el"), make=make_one_based,
          runs=BASE + [Run("bfs-relabel-off", "bfs", ("--relabel", "off"), VARIANT_RANKS)]),
    Graph("huge-ids", "huge_ids.csv", ("--no-header",), make=make_huge_ids, runs=BASE + [PERSONALIZED]),
    Graph("real-weights", "real.wel", make=make_real_wel, runs=list(BASE)),
    # .ngr: each rank reads its own block's slices.
    Graph("enron-ngr", "enron.ngr", make=shared_ngr("email-Enron/email-Enron.txt.gz"), runs=list(BASE)),
    Graph("enron-ngr-no-in-lists", "enron_out.ngr", ("--no-checksum",),
          make=without_in_lists(shared_ngr("email-Enron/email-Enron.txt.gz")), ranks=(1, 2, 3), runs=list(BASE)),
    Graph("enron-ngr-no-in-lists-symmetrized", "enron_out_s.ngr", ("--no-checksum", "-s"),
          make=without_in_lists(shared_ngr("email-Enron/email-Enron.txt.gz")), ranks=(3,), runs=list(BASE)),
    Graph("enron-ngr-symmetrized", "enron_s.ngr", ("-s",), make=shared_ngr("email-Enron/email-Enron.txt.gz"),
          ranks=(1, 3), runs=list(BASE)),
    Graph("facebook-ngr", "facebook.ngr", make=shared_ngr("facebook_combined/facebook_combined.txt.gz", "-s"),
          runs=BASE + [NX]),
    Graph("rome99-ngr", "rome99.ngr", make=shared_ngr("rome99/rome99.gr"),
          runs=BASE + [Run("sssp-delta", "sssp", ("--delta", "500"), VARIANT_RANKS)]),
    Graph("names-ngr", "names.ngr", make=made_ngr(make_names_csv, "names_src.csv", "--header",
                                                  "--weight-column", "weight"), runs=BASE + [PERSONALIZED]),
    Graph("huge-ids-ngr", "huge_ids.ngr", make=made_ngr(make_huge_ids, "huge_src.csv", "--no-header"),
          runs=BASE + [PERSONALIZED]),
    Graph("kron11-rcm-ngr", "kron11_rcm.ngr", make=made_ngr(generator("kron", "--scale", "11"), "kron11_src.el", "-s",
                                                          order="rcm"), runs=BASE + [NX]),
    Graph("names-rcm-ngr", "names_rcm.ngr", make=made_ngr(make_names_csv, "names_rcm_src.csv", "--header",
                                                        "--weight-column", "weight", order="rcm"),
          ranks=(1, 3), runs=list(BASE)),
]
GRAPH_BY_NAME = {g.name: g for g in GRAPHS}


class Cache:
    """numagraph's answers and the graph files, shared by the module's tests,
    and the comparison runs, started ahead in a few threads: a launch is
    mostly MPI start-up and shut-down, waiting rather than computing, so
    PARALLEL_LAUNCHES of them overlap well on 2 cores. Each test waits for
    its own run and checks it; the fault tests, later in the file, run
    alone (every run started ahead has finished by then)."""

    def __init__(self, folder):
        self.folder = folder
        self.files = {}
        self.roots = {}
        self.refs = {}
        self.lock = threading.RLock()  # files, roots and references: made once
        self.pool = ThreadPoolExecutor(max_workers=PARALLEL_LAUNCHES)
        self.jobs = {}

    def result(self, key, work):
        """work()'s result (or exception), run ahead or now."""
        with self.lock:
            if key not in self.jobs:
                self.jobs[key] = self.pool.submit(work)
        return self.jobs[key].result()


PARALLEL_LAUNCHES = 3


@pytest.fixture(scope="module")
def cache(tmp_path_factory, request):
    c = Cache(tmp_path_factory.mktemp("numagraph_mpi_graphs"))
    # Start the selected comparison runs in the order the tests will ask.
    for item in request.session.items:
        if getattr(item, "module", None) is None or item.module.__name__ != __name__:
            continue
        params = getattr(item, "callspec", None) and item.callspec.params
        if item.originalname == "test_same_answers_as_numagraph":
            c.jobs[exact_key(**params)] = c.pool.submit(exact_run, c, **params)
        elif item.originalname == "test_info_same_sizes_and_input_decisions":
            c.jobs[info_key(**params)] = c.pool.submit(info_run, c, **params)
    yield c
    c.pool.shutdown(wait=True, cancel_futures=True)


def graph_file(cache, g):
    with cache.lock:
        return graph_file_locked(cache, g)


def graph_file_locked(cache, g):
    if g.name not in cache.files:
        if g.make is None:
            if not SHARED_DATA.is_dir():
                pytest.skip(f"{SHARED_DATA} is absent: real-graph tests need ../shared/data beside the repo")
            path = SHARED_DATA / g.file
            assert path.exists(), f"{path} is missing from ../shared/data"
        else:
            path = cache.folder / g.file
            g.make(path)
        cache.files[g.name] = path
    return cache.files[g.name]


def root_of(cache, g):
    """A root numagraph draws (--sources) whose BFS reaches much of the graph."""
    with cache.lock:
        return root_locked(cache, g)


def root_locked(cache, g):
    if g.name not in cache.roots:
        path = graph_file(cache, g)
        candidates = run_shm("bfs", path, *g.flags, "--sources", 4, "-n", 1)["roots"]
        n = None
        best = None
        for r in candidates:
            rec = run_shm("bfs", path, *g.flags, "--source", r, "-n", 1)
            n = rec["num_vertices"]
            if best is None or rec["reached"] > best[1]:
                best = (str(r), rec["reached"])
            if rec["reached"] >= 0.3 * n:
                break
        cache.roots[g.name] = best[0]
    return cache.roots[g.name]


def personalization_file(cache, g):
    """Five vertices of the graph (from numagraph's BFS output), weights 1..5."""
    path = cache.folder / f"{g.name}.pers"
    with cache.lock:
        if path.exists():
            return path
        ids = sorted(reference(cache, g, BASE[0])[0])
        picked = [ids[k * len(ids) // 5] for k in range(5)]
        write_lines(path, [f"{v} {k + 1}" for k, v in enumerate(picked)])
        return path


def command_args(cache, g, run, out):
    args = [run.kernel, graph_file(cache, g), *g.flags]
    for flag in run.flags:
        args.append(personalization_file(cache, g) if flag == "{pers}" else flag)
    if run.kernel in ("bfs", "sssp"):
        args += ["--source", root_of(cache, g)]
    return args + ["-n", 1, "--output", out]


def reference(cache, g, run):
    """numagraph's output values and --json record (computed once)."""
    key = (g.name, run.id)
    with cache.lock:
        if key not in cache.refs:
            out = cache.folder / f"ref-{g.name}-{run.id}{run.output}"
            rec = run_shm(*command_args(cache, g, run, out))
            cache.refs[key] = (read_output(out), rec)
        return cache.refs[key]


def canonical_partition(labels):
    """Each vertex mapped to the smallest member of its class (labels are any texts)."""
    rep = {}
    for v in sorted(labels):
        rep.setdefault(labels[v], v)
    return {v: rep[label] for v, label in labels.items()}


def first_differences(expected, got, count=5):
    diff = [(k, expected.get(k), got.get(k)) for k in sorted(set(expected) | set(got))
            if expected.get(k) != got.get(k)]
    return f"{len(diff)} vertices differ, e.g. (vertex, numagraph, numagraph-mpi): {diff[:count]}"


def comparable_input(rec):
    """A record's input decisions, less those of numagraph's rebuild of a .ngr
    it must clean (it rebuilds the graph from its labels in their original
    order, deciding relabelling and order again); numagraph-mpi reads a .ngr
    as stored and cleans each rank's lists instead."""
    decisions = dict(rec.get("input", {}))
    if str(rec["graph"]).endswith(".ngr"):
        decisions.pop("relabel", None)
        decisions.pop("order", None)
    return decisions


def compare(kernel, ref_values, ref_rec, values, rec):
    assert set(values) == set(ref_values), \
        f"vertex ids differ: {len(set(ref_values) - set(values))} missing, e.g. " \
        f"{sorted(set(ref_values) - set(values))[:5]}; {len(set(values) - set(ref_values))} extra, e.g. " \
        f"{sorted(set(values) - set(ref_values))[:5]}"
    if kernel == "bfs":
        expected = {k: int(v) for k, v in ref_values.items()}
        got = {k: int(v) for k, v in values.items()}
        assert got == expected, first_differences(expected, got)
    elif kernel == "sssp":
        expected = {k: float(v) for k, v in ref_values.items()}
        got = {k: float(v) for k, v in values.items()}
        assert got == expected, first_differences(expected, got)
    elif kernel == "cc":
        expected, got = canonical_partition(ref_values), canonical_partition(values)
        assert got == expected, "not the same partition: " + first_differences(expected, got)
        assert rec["num_components"] == ref_rec["num_components"]
        assert rec["largest_component"] == ref_rec["largest_component"]
    elif kernel == "pr":
        worst = max(values, key=lambda k: abs(float(values[k]) - float(ref_values[k])))
        error = abs(float(values[worst]) - float(ref_values[worst]))
        assert error <= PR_TOLERANCE, \
            f"score of vertex {worst}: numagraph {ref_values[worst]}, numagraph-mpi {values[worst]} (|diff| {error:.3g})"
        assert rec["iterations"] == ref_rec["iterations"], \
            f"iterations: numagraph {ref_rec['iterations']}, numagraph-mpi {rec['iterations']}"
    if kernel in ("bfs", "sssp"):
        assert [str(r) for r in rec["roots"]] == [str(r) for r in ref_rec["roots"]]
    for key in ("num_vertices", "num_edges", "directed", "weighted"):
        assert rec[key] == ref_rec[key], f"{key}: numagraph {ref_rec[key]}, numagraph-mpi {rec[key]}"
    assert comparable_input(rec) == comparable_input(ref_rec), \
        f"input decisions: numagraph {ref_rec.get('input', {})}, numagraph-mpi {rec.get('input', {})}"


EXACT_CASES = [pytest.param(g.name, run.id, ranks, id=f"{g.name}-{run.id}-np{ranks}")
               for g in GRAPHS for run in g.runs for ranks in (run.ranks or g.ranks)]


def exact_key(graph, run_id, ranks):
    return ("exact", graph, run_id, ranks)


def exact_run(cache, graph, run_id, ranks):
    """Both tools' answers: (kernel, numagraph values, record, numagraph-mpi values, record)."""
    g = GRAPH_BY_NAME[graph]
    run = next(r for r in g.runs if r.id == run_id)
    ref_values, ref_rec = reference(cache, g, run)
    out = cache.folder / f"mpi-{g.name}-{run.id}-np{ranks}{run.output}"
    rec = run_mpi(ranks, *command_args(cache, g, run, out), *run.mpi_flags)
    values = read_output(out)
    out.unlink()
    return run.kernel, ref_values, ref_rec, values, rec


@pytest.mark.parametrize("graph,run_id,ranks", EXACT_CASES)
def test_same_answers_as_numagraph(cache, graph, run_id, ranks):
    result = cache.result(exact_key(graph, run_id, ranks), lambda: exact_run(cache, graph, run_id, ranks))
    compare(*result)
    variant = next(r for r in GRAPH_BY_NAME[graph].runs if r.id == run_id).variant
    if variant:
        assert result[4]["variant"] == variant


INFO_CASES = [pytest.param(g.name, ranks, id=f"{g.name}-np{ranks}") for g in GRAPHS for ranks in (1, max(g.ranks))]


def info_key(graph, ranks):
    return ("info", graph, ranks)


def info_run(cache, graph, ranks):
    """Both tools' info records. `numagraph info` has no --keep-* flags (it
    reports the file as stored): both run without them."""
    g = GRAPH_BY_NAME[graph]
    path = graph_file(cache, g)
    flags = [f for f in g.flags if f not in ("--keep-self-loops", "--keep-duplicates")]
    return run_shm("info", path, *flags), run_mpi(ranks, "info", path, *flags)


@pytest.mark.parametrize("graph,ranks", INFO_CASES)
def test_info_same_sizes_and_input_decisions(cache, graph, ranks):
    ref, rec = cache.result(info_key(graph, ranks), lambda: info_run(cache, graph, ranks))
    for key in ("num_vertices", "num_edges", "directed", "weighted"):
        assert rec[key] == ref[key], f"{key}: numagraph info {ref[key]}, numagraph-mpi info {rec[key]}"
    assert comparable_input(rec) == comparable_input(ref), \
        f"input decisions: numagraph info {ref.get('input', {})}, numagraph-mpi info {rec.get('input', {})}"


def test_random_roots_are_numagraphs(cache):
    """--sources draws the same roots from --seed as numagraph, at 3 ranks."""
    g = GRAPH_BY_NAME["p2p-Gnutella05"]
    path = graph_file(cache, g)
    ref = run_shm("bfs", path, "--sources", 5, "--seed", 7, "-n", 1)
    rec = run_mpi(3, "bfs", path, "--sources", 5, "--seed", 7, "-n", 1)
    assert rec["roots"] == ref["roots"]
    assert rec["reached"] == ref["reached"] and rec["max_depth"] == ref["max_depth"]


def test_random_roots_of_a_renumbered_ngr_are_numagraphs(cache):
    """A renumbered .ngr answers in its original ids: --sources draws the same
    roots (in those ids) as numagraph, at 3 ranks."""
    g = GRAPH_BY_NAME["kron11-rcm-ngr"]
    path = graph_file(cache, g)
    ref = run_shm("bfs", path, "--sources", 5, "--seed", 7, "-n", 1)
    rec = run_mpi(3, "bfs", path, "--sources", 5, "--seed", 7, "-n", 1)
    assert rec["roots"] == ref["roots"]
    assert rec["reached"] == ref["reached"] and rec["max_depth"] == ref["max_depth"]


# ---------------------------------------------------------------- faults

def error_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith(ERROR_PREFIX)]


def fault(tmp_path, ranks, args, code):
    """Runs a failing command in `tmp_path`; checks the code, one message, the
    time and that the folder holds only what it held before. Returns the message."""
    before = sorted(os.listdir(tmp_path))
    p, seconds = launch(ranks, *args, limit=60)
    errors = error_lines(p.stderr)
    assert p.returncode == code, f"exit {p.returncode}, numagraph's is {code}:\n{p.stderr}"
    assert len(errors) == 1, f"{len(errors)} '{ERROR_PREFIX}' lines, one expected:\n{p.stderr}"
    assert seconds < FAULT_SECONDS, f"took {seconds:.1f} s"
    assert sorted(os.listdir(tmp_path)) == before, "a file was left behind"
    return errors[0]


def numagraph_error(*args):
    p = run_cli(*args, check=False)
    lines = [line for line in p.stderr.splitlines() if line.startswith("numagraph: error:")]
    assert len(lines) == 1, p.stderr
    return p.returncode, lines[0].replace("numagraph: error:", ERROR_PREFIX, 1)


def make_long_edge_list(path, lines=40000, bad_line=None):
    rng = random.Random(3)
    rows = [f"{rng.randrange(5000)} {rng.randrange(5000)}" for _ in range(lines)]
    if bad_line is not None:
        rows[bad_line - 1] = "4321"  # a source without a target
    write_lines(path, rows)


def test_missing_file(tmp_path):
    missing = tmp_path / "missing.el"
    message = fault(tmp_path, 3, ["bfs", missing, "--output", tmp_path / "out.txt"], code=4)
    assert str(missing) in message


@pytest.mark.parametrize("ranks", [4, 3])
def test_malformed_line_names_file_and_global_line(tmp_path, ranks):
    """Line 27,001 of 40,000 lies in the third or fourth rank's byte range:
    the message names the file and the line's number in the whole file."""
    path = tmp_path / "bad.el"
    make_long_edge_list(path, bad_line=27001)
    message = fault(tmp_path, ranks, ["cc", path, "--output", tmp_path / "out.csv"], code=3)
    assert f"{path}:27001:" in message, message


def test_malformed_line_message_is_numagraphs(tmp_path):
    path = tmp_path / "bad.el"
    make_long_edge_list(path, bad_line=27001)
    code, expected = numagraph_error("cc", path, "-n", 1)
    assert fault(tmp_path, 4, ["cc", path, "--output", tmp_path / "out.txt"], code=code) == expected


def test_memory_guard_per_rank_names_the_ranks_that_fit(tmp_path, monkeypatch):
    """The guard applies to each rank: under a limit one rank cannot meet,
    the job stops with the rank count that would fit, and that many run."""
    path = tmp_path / "big.el"
    rng = random.Random(5)
    write_lines(path, [f"{rng.randrange(200000)} {rng.randrange(200000)}" for _ in range(1000000)])
    monkeypatch.setenv("NUMAGRAPH_MEMORY_LIMIT", "40M")
    message = fault(tmp_path, 1, ["cc", path, "--output", tmp_path / "out.txt"], code=6)
    fit = re.search(r"at 1 rank to build, .* run with at least (\d+) ranks", message)
    assert fit, message
    rec = run_mpi(int(fit.group(1)), "cc", path)
    assert rec["num_vertices"] > 0


def damaged_ngr(tmp_path, at_fraction):
    """A .ngr with one byte flipped at a fraction of its length."""
    path = tmp_path / "damaged.ngr"
    make_long_edge_list(tmp_path / "src.el", lines=20000)
    run_cli("convert", tmp_path / "src.el", path)
    (tmp_path / "src.el").unlink()
    data = bytearray(path.read_bytes())
    data[int(len(data) * at_fraction)] ^= 0x40
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("ranks", [1, 3])
def test_damaged_ngr_fails_the_checksum_once(tmp_path, ranks):
    """A flipped byte in the last rank's share of the checksum blocks: one
    message, numagraph's, whichever rank summed it."""
    path = damaged_ngr(tmp_path, 0.9)
    code, expected = numagraph_error("cc", path, "-n", 1)
    assert fault(tmp_path, ranks, ["cc", path, "--output", tmp_path / "out.txt"], code=code) == \
        expected.replace("(regenerate or re-copy it)", "(regenerate or re-copy it; --no-checksum skips the check)")


def test_damaged_ngr_without_checksum_fails_the_structure_checks(tmp_path):
    """With --no-checksum the owner of the damaged list still refuses it."""
    path = damaged_ngr(tmp_path, 0.9)
    message = fault(tmp_path, 3, ["cc", path, "--no-checksum", "--output", tmp_path / "out.txt"], code=3)
    assert str(path) in message and "corrupt" in message, message


def test_truncated_ngr(tmp_path):
    path = damaged_ngr(tmp_path, 0.5)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    code, expected = numagraph_error("cc", path, "-n", 1)
    assert fault(tmp_path, 2, ["cc", path, "--output", tmp_path / "out.txt"], code=code) == expected


def test_text_flags_on_an_ngr_are_refused(tmp_path):
    path = damaged_ngr(tmp_path, 0.0)  # byte 0 flipped back below: an intact file
    data = bytearray(path.read_bytes())
    data[0] ^= 0x40
    path.write_bytes(bytes(data))
    message = fault(tmp_path, 2, ["cc", path, "--header", "--output", tmp_path / "out.txt"], code=2)
    assert "--header" in message and ".ngr" in message, message


def test_bad_flag(tmp_path):
    path = tmp_path / "g.el"
    make_long_edge_list(path, lines=100)
    message = fault(tmp_path, 3, ["bfs", path, "--bogus", "--output", tmp_path / "out.txt"], code=2)
    assert "--bogus" in message


@pytest.mark.parametrize("ranks", [1, 3])
def test_source_not_a_vertex(tmp_path, ranks):
    path = tmp_path / "g.el"
    make_long_edge_list(path, lines=2000)
    message = fault(tmp_path, ranks, ["sssp", path, "--source", 123456789, "--output", tmp_path / "out.txt"], code=2)
    assert "123456789" in message and "--source" in message


def test_source_not_a_name(tmp_path):
    path = tmp_path / "names.csv"
    make_names_csv(path)
    message = fault(tmp_path, 2, ["bfs", path, "--source", "nobody", "--output", tmp_path / "out.csv"], code=2)
    assert "'nobody'" in message


def process_tree():
    """{pid: ppid} of every process."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        parents[int(entry)] = int(stat[stat.rindex(")") + 2:].split()[1])
    return parents


def rank_pids(root_pid):
    """{MPI rank: pid} of the numagraph-mpi processes under root_pid."""
    parents = process_tree()
    family, grew = {root_pid}, True
    while grew:
        more = {pid for pid, ppid in parents.items() if ppid in family} - family
        family |= more
        grew = bool(more)
    ranks = {}
    for pid in family - {root_pid}:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = dict(item.split(b"=", 1) for item in f.read().split(b"\0") if b"=" in item)
        except OSError:
            continue
        if argv and Path(argv[0].decode()).name == mpi_bin().name and b"OMPI_COMM_WORLD_RANK" in env:
            ranks[int(env[b"OMPI_COMM_WORLD_RANK"])] = pid
    return ranks


@pytest.mark.parametrize("victim", [0, 2])
def test_killed_rank_ends_the_job(tmp_path, victim):
    """kill -9 of one rank in the middle of a long PageRank: the job ends
    within FAULT_SECONDS, non-zero, and leaves no output or temporary file."""
    path = tmp_path / "u.el"
    run_cli("generate", "uniform", "--scale", "13", "-o", path, "-q")
    before = sorted(os.listdir(tmp_path))
    cmd = mpi_command(3, ["pr", path, "-n", 100000, "-i", 20, "--tolerance", 0, "--output", tmp_path / "pr.txt"],
                      limit=120)
    with mpi_env() as env:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env, start_new_session=True)
        seconds, stderr = kill_one_rank(proc, victim)
    assert proc.returncode != 0
    assert proc.returncode != 124, "hung: timeout killed it"
    assert seconds < FAULT_SECONDS, f"the job ended {seconds:.1f} s after the kill"
    assert len(error_lines(stderr)) <= 1, stderr
    assert sorted(os.listdir(tmp_path)) == before, "a file was left behind"


def kill_one_rank(proc, victim):
    """Waits for proc's 3 ranks, kills rank `victim` 2 s in, and returns the
    seconds from the kill to the job's end, and its stderr."""
    try:
        deadline = time.monotonic() + 30
        pids = {}
        while len(pids) < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
            pids = rank_pids(proc.pid)
        assert len(pids) == 3, f"found the ranks {pids} of 3"
        time.sleep(2.0)  # loaded, in the trials
        assert proc.poll() is None, "the run ended before the kill: make it longer"
        os.kill(pids[victim], signal.SIGKILL)
        killed_at = time.monotonic()
        try:
            _, stderr = proc.communicate(timeout=FAULT_SECONDS + 10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {FAULT_SECONDS + 10:.0f} s after kill -9 of rank {victim}")
        seconds = time.monotonic() - killed_at
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    return seconds, stderr

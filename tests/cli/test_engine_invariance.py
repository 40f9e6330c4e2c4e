"""Topology invariance through the CLI: every NUMA-engine kernel gives the
flat kernel's answer under synthetic topologies with 1, 2, 4 and 8 nodes, on
real graphs from ../shared/data and a random graph; integer results exactly,
floating-point ones to 1e-9 relative, with and without forced cache
blocking of PageRank and SpMV."""
import pytest

from harness import read_vertex_values, run_json

TOPOLOGIES = ["pack:1 numa:1 core:2", "pack:2 numa:1 core:1", "pack:4 numa:1 core:1", "pack:8 numa:1 core:1"]

# kernel, flags, how to compare ("exact", "float", "partition" for component labels)
KERNELS = [
    ("bfs", ["--source", "{root}"], "exact"),
    ("sssp", ["--source", "{root}"], "float"),
    ("pr", ["--variant", "jacobi", "--tolerance", "0", "-i", "10"], "float"),
    ("spmv", ["-i", "5"], "float"),
    # Forced cache blocking (8 KiB blocks: 2-36 ranges on these graphs), flat and engine alike.
    ("pr", ["--variant", "jacobi", "--tolerance", "0", "-i", "10", "--cache-block", "8K"], "float"),
    ("spmv", ["-i", "5", "--cache-block", "8K"], "float"),
    ("cc", [], "partition"),
    ("cc", ["--variant", "lp"], "partition"),
    ("bc", ["--source", "{root}"], "float"),
    ("bp", ["-i", "5"], "float"),
    ("kcore", [], "exact"),
    ("eigenvector", ["--unweighted", "--max-iterations", "1000"], "float"),
    ("katz", ["--unweighted", "--alpha", "0.005"], "float"),
]

GRAPHS = [
    ("email-Enron/email-Enron.txt.gz", ["-s"]),
    ("rome99/rome99.gr", ["-s"]),
    ("netscience/netscience.mtx", []),
]


def partition(labels):
    groups = {}
    for v, l in labels.items():
        groups.setdefault(l, set()).add(v)
    return sorted(sorted(g) for g in groups.values())


def compare(kind, a, b):
    assert a.keys() == b.keys()
    if kind == "exact":
        assert a == b
    elif kind == "partition":
        assert partition(a) == partition(b)
    else:
        for v in a:
            assert a[v] == pytest.approx(b[v], rel=1e-9, abs=1e-12, nan_ok=True), v


@pytest.mark.parametrize("rel,flags", GRAPHS)
@pytest.mark.parametrize("kernel,kflags,kind", KERNELS)
def test_numa_engine_matches_flat_on_every_topology(cli, shared_data, tmp_path, rel, flags, kernel, kflags, kind):
    path = shared_data / rel
    root = run_json("bfs", path, *flags, "--sources", "1", "-n", "1")[0]["roots"][0]
    kflags = [f.format(root=root) for f in kflags]
    cast = int if kind == "exact" else float
    flat_out = tmp_path / "flat.txt"
    flat_kflags = [] if kernel == "cc" else kflags  # lp exists on the engine only: compare with Afforest
    rec = run_json(kernel, path, *flags, *flat_kflags, "-n", "1", "--verify", "--engine", "flat", "--output", flat_out)[-1]
    assert rec["verified"] is True
    flat = read_vertex_values(flat_out, cast)
    for topo in TOPOLOGIES:
        out = tmp_path / "numa.txt"
        rec = run_json(kernel, path, *flags, *kflags, "-n", "1", "--verify", "--engine", "numa", "--topology", topo,
                       "--output", out)[-1]
        assert rec["verified"] is True and rec["engine"] == "numa"
        compare(kind, flat, read_vertex_values(out, cast))


def test_accounting_on_eight_nodes(cli, tmp_path):
    """Polymer's claim on a synthetic 8-socket machine: no remote random
    access for PageRank and SpMV in the numa engine; many in the flat one."""
    for kernel in ("pr", "spmv"):
        counts = {}
        for engine in ("flat", "numa"):
            rec = run_json(kernel, "--kron", "14", "-n", "1", "--account", "--engine", engine,
                           "--topology", "pack:8 numa:1 core:1")[-1]
            counts[engine] = rec["account"]
        assert counts["numa"]["remote_random"] == 0
        assert counts["flat"]["remote_random"] > counts["flat"]["local_random"]


# The kernels with a flat version only: the topology moves their threads and
# pages, never their answer (same thread count, so even Louvain's seeded
# moves repeat exactly).
FLAT_ONLY = [
    ("communities", ["--seed", "3"], "exact"),
    ("leiden", ["--seed", "3"], "exact"),
    ("clustering", [], "float"),
    ("closeness", [], "float"),
    ("harmonic", [], "float"),
    ("scc", [], "partition"),
    ("tc", [], "exact"),
]


@pytest.mark.parametrize("kernel,kflags,kind", FLAT_ONLY)
def test_flat_only_kernels_ignore_the_topology(cli, shared_data, tmp_path, kernel, kflags, kind):
    path = shared_data / "email-Enron/email-Enron.txt.gz"
    cast = int if kind == "exact" else float
    answers = []
    for topo in ["machine"] + TOPOLOGIES:
        out = tmp_path / f"{len(answers)}.txt"
        rec = run_json(kernel, path, "-s", *kflags, "-n", "1", "-t", "2", "--verify", "--topology", topo,
                       "--output", out)[-1]
        assert rec["verified"] is True, rec
        answers.append(read_vertex_values(out, cast))
    for other in answers[1:]:
        compare(kind, answers[0], other)

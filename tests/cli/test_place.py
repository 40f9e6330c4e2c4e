"""Per-array placement (--place ROLE=POLICY,..., docs/numa.md "Placement per
array"): results are the same whatever each array's placement, unknown roles
and policies and replicas of written arrays are refused with exit 2 and the
valid names, and --placement-report reports the kernel's own arrays."""
import pytest

from harness import read_vertex_values, run_json

TWO_NODES = "pack:2 numa:1 core:1 pu:1"

# Each kernel with every role it allocates; the values compared exactly.
RUNS = [
    ("pr", ["--variant", "jacobi", "--tolerance", "0", "-i", "10"], "graph=interleave,ranks=bind:1,contrib=partitioned"),
    ("sssp", ["--weighted"], "graph=partitioned,dist=interleave"),
    ("cc", [], "graph=bind:0,labels=interleave"),
    ("spmv", ["-i", "5"], "graph=interleave,x=bind:1,y=partitioned"),
    ("kcore", [], "graph=interleave,core=bind:1"),
]


@pytest.mark.parametrize("engine", ["flat", "numa"])
@pytest.mark.parametrize("kernel,extra,place", RUNS, ids=[r[0] for r in RUNS])
def test_results_are_identical_whatever_the_placement(cli, tmp_path, kernel, extra, place, engine):
    values = []
    for i, flags in enumerate(([], ["--place", place]), start=0):
        out = tmp_path / f"{i}.txt"
        cli(kernel, "-g", "10", "-n", "1", "--topology", TWO_NODES, "--engine", engine, *extra, *flags,
            "--output", out)
        values.append(read_vertex_values(out))
    assert values[0] == values[1]


def test_bfs_and_bc_verify_under_every_role(cli):
    """BFS parents and BC scores may differ in ties between threads, so these
    are checked by their verifiers instead."""
    for kernel, place in (("bfs", "graph=interleave,parents=bind:1,depth=partitioned,frontier=interleave"),
                          ("bc", "graph=partitioned,scores=interleave,sigma=bind:0,delta=bind:1,depth=local")):
        for engine in ("flat", "numa"):
            cli(kernel, "-g", "10", "-n", "1", "--topology", TWO_NODES, "--engine", engine, "--place", place,
                "--verify")


@pytest.mark.parametrize("place,message", [
    ("rank=interleave", "unknown --place role 'rank' (use one of: graph, ranks, contrib, parents"),
    ("ranks=spread", "use one of: local, interleave, partitioned, bind:N, replicate"),
    ("ranks", "--place expects ROLE=POLICY"),
    ("ranks=replicate", "is written by the kernel, and replicas are for read-only arrays"),
    ("dist=bind:7", "the topology has 2 nodes (use bind:0 to bind:1)"),
])
def test_refusals_exit_2_with_the_valid_names(cli, place, message):
    proc = cli("pr", "-g", "8", "-n", "1", "--topology", TWO_NODES, "--place", place, check=False)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr, proc.stderr


def test_report_lists_the_kernels_own_arrays(cli):
    [rec] = run_json("pr", "-g", "10", "-n", "2", "--topology", TWO_NODES, "--engine", "flat", "--variant",
                     "jacobi", "--place", "ranks=interleave,contrib=bind:1", "--placement-report")
    assert rec["place"] == "contrib=bind:1,ranks=interleave"
    report = {r["role"]: r for r in rec["placement_report"]}
    assert list(report) == ["graph", "ranks", "contrib"]
    n = rec["num_vertices"]
    assert report["ranks"]["bytes"] == 8 * n
    # Obtained: the policy applied, and what it could not do here (a synthetic node that
    # is not this machine's gets no placement, docs/numa.md).
    assert report["ranks"]["asked"] == "interleave" and report["ranks"]["obtained"].startswith("interleave")
    assert report["contrib"]["asked"] == "bind:1" and report["contrib"]["obtained"].startswith("bind:1")
    assert "unplaced" in report["contrib"]["obtained"]
    assert report["contrib"]["arrays"] == 2  # the last trial's two buffers, not every trial's
    assert report["graph"]["asked"] == "default (local)"
    for r in report.values():
        assert sum(r["pages_per_node"]) + r["not_present"] == r["sampled"] > 0
        assert r["pages"] in ("4k", "thp", "2m", "1g")


def test_engine_arrays_keep_their_layout_unless_asked(cli):
    [rec] = run_json("pr", "-g", "10", "-n", "1", "--topology", TWO_NODES, "--engine", "numa",
                     "--place", "contrib=interleave", "--placement-report")
    report = {r["role"]: r for r in rec["placement_report"]}
    assert report["ranks"]["asked"] == "default (partitioned)"
    assert report["contrib"]["obtained"].startswith("interleave")


def test_report_in_text_goes_to_stderr(cli):
    proc = cli("sssp", "-g", "9", "-n", "1", "--weighted", "--place", "dist=interleave", "--placement-report")
    assert "placement report" in proc.stderr and "dist" in proc.stderr, proc.stderr
    assert "placement_report" not in proc.stdout


def test_help_lists_the_roles(cli):
    text = cli("pr", "--help").stdout
    assert "--place" in text and "--placement-report" in text
    assert "ranks = pr: PageRank scores" in text


@pytest.mark.parametrize("command", [["topology"], ["bench-stream"], ["bench-xs", "--nuclides", "2"]])
def test_commands_without_array_roles_refuse_the_flags(cli, command):
    for flag in (["--place", "graph=interleave"], ["--placement-report"]):
        proc = cli(*command, *flag, check=False)
        assert proc.returncode != 0 and flag[0] in proc.stderr, proc.stderr

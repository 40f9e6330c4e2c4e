"""numagraph bench-xs (the XSBench paper's lookups): --json is one object with an entry per
variant and thread count, every variant of the paper present, the checksums agree across
placements and thread counts, pages are reported per node, and bad --threads / --variants
values exit 2 with a message saying what to give. Tiny sizes: each run takes well under a second."""
import json

import pytest

from harness import run_cli

TINY = ["--nuclides", "6", "--gridpoints", "64", "--lookups", "3000", "-n", "2"]
VARIANTS = ["serial-init", "parallel-init", "interleave", "replicate", "replicate-2m"]


def bench_json(*args):
    out = run_cli("bench-xs", *TINY, *args, "--json").stdout
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out  # one JSON object, nothing else on stdout
    return json.loads(lines[0])


def test_json_has_every_variant_and_the_runtime_fields():
    rec = bench_json("-t", "1")
    assert rec["kernel"] == "bench-xs" and rec["threads"] == [1] and rec["trials"] == 2
    for key in ("topology", "numa_nodes", "bind", "placement", "pages", "nuclide_grid_bytes", "unionized_grid_bytes"):
        assert key in rec, key
    assert [r["variant"] for r in rec["results"]] == VARIANTS
    assert rec["checksums_agree"] is True and len({r["checksum"] for r in rec["results"]}) == 1
    for r in rec["results"]:
        assert r["threads"] == 1 and len(r["trials_lookups_per_s"]) == 2
        assert sorted(r["trials_lookups_per_s"])[0] <= r["lookups_per_s"] <= sorted(r["trials_lookups_per_s"])[-1]
        assert r["init_s"] >= 0
        for where in r["nuclide_grids"] + [r["unionized_grid"]]:
            assert sum(where["pages_per_node"]) + where["not_present"] == where["sampled"] > 0
            assert where["page_size"] in ("4k", "thp", "2m", "1g")
    # replicate: one copy per node of the topology; the others: one array
    by = {r["variant"]: r for r in rec["results"]}
    assert len(by["replicate"]["nuclide_grids"]) == rec["numa_nodes"]
    assert [g.get("copy") for g in by["replicate"]["nuclide_grids"]] == [str(k) for k in range(rec["numa_nodes"])]
    assert len(by["serial-init"]["nuclide_grids"]) == 1 and "copy" not in by["serial-init"]["nuclide_grids"][0]


def test_thread_list_gives_one_entry_per_count_and_one_checksum():
    rec = bench_json("--threads", "2,1", "--variants", "serial-init,replicate")
    assert rec["threads"] == [1, 2]
    got = [(r["variant"], r["threads"]) for r in rec["results"]]
    assert got == [("serial-init", 1), ("replicate", 1), ("serial-init", 2), ("replicate", 2)]
    # the lookups do not depend on the thread running them, so neither does the checksum
    assert rec["checksums_agree"] is True and len({r["checksum"] for r in rec["results"]}) == 1


def test_synthetic_nodes_get_one_replica_each():
    rec = bench_json("-t", "2", "--topology", "pack:2 numa:1 core:1 pu:1", "--variants", "replicate")
    assert rec["numa_nodes"] == 2 and len(rec["results"][0]["nuclide_grids"]) == 2


def test_people_table_names_every_variant():
    out = run_cli("bench-xs", *TINY, "-t", "1").stdout
    for name in VARIANTS:
        assert name in out
    assert "checksums agree" in out


@pytest.mark.parametrize("args,expected", [
    (["--threads", "1,x"], "give a thread count or a comma list"),
    (["--threads", "1,,2"], "give a thread count or a comma list"),
    (["--threads", "-1"], "give a thread count or a comma list"),
    (["--threads", "5000"], "give a thread count or a comma list"),
    (["--variants", "replicate,numag"], "no variant named 'numag'"),
    (["--variants", "all,replicate"], "no variant named 'all'"),
    (["--variants", ""], "no variant named ''"),
])
def test_bad_values_exit_2_with_what_to_give(args, expected):
    proc = run_cli("bench-xs", *TINY, *args, check=False)
    assert proc.returncode == 2, proc.stderr
    assert expected in proc.stderr, proc.stderr
    assert proc.stdout == ""  # refused before measuring anything


def test_help_documents_the_flags():
    out = run_cli("bench-xs", "--help").stdout
    for flag in ("--threads", "--variants", "--json", "--nuclides", "--gridpoints", "--lookups", "--trials"):
        assert flag in out
    for name in VARIANTS:
        assert name in out

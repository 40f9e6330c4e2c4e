"""Every kernel prints its answer: the summary fields of the --json record
(reached, depth, components, top vertices, triangles, ...) against NetworkX on
small graphs, in the user's ids (relabelled files, --reorder), the summary
lines above the table in the human output, and peak_rss_bytes/result_bytes."""
import networkx as nx
import numpy as np
import pytest

from cli.cli_util import random_graph, write_mtx
from harness import read_vertex_values, run_cli, run_json

SEED = 2  # random_graph(2, ...) has no ties among its ten best PageRank and BC scores (checked below)
OFFSET, STRIDE = 1000, 7  # sparse ids for the relabelled copies: user id = OFFSET + STRIDE * v


def one(*args):
    """The record of one trial."""
    return run_json(*args, "-n", "1")[-1]


def write_sparse_el(path, G):
    """G as an edge list whose ids are sparse (relabelled on load: --relabel auto)."""
    with open(path, "w") as f:
        for u, v in G.edges():
            f.write(f"{OFFSET + STRIDE * u} {OFFSET + STRIDE * v}\n")
    return path


def user(v):
    return OFFSET + STRIDE * v


def top10(scores):
    """The ten best vertices, asserting the ranking has no near-ties (else the order is noise)."""
    ranked = sorted(scores, key=lambda v: (-scores[v], v))
    values = [scores[v] for v in ranked[:11]]
    assert min(a - b for a, b in zip(values, values[1:])) > 1e-6, "pick a graph without near-ties"
    return ranked[:10]


@pytest.fixture(params=[False, True], ids=["undirected", "directed"])
def graph(request, tmp_path):
    G = random_graph(SEED, request.param, p=0.05)
    return G, write_mtx(tmp_path / "g.mtx", G)


@pytest.mark.parametrize("reorder", ["none", "rcm"])
def test_bfs_reached_and_depth(cli, graph, reorder):
    G, path = graph
    rec = one("bfs", path, "--source", 3, "--reorder", reorder)
    depth = nx.single_source_shortest_path_length(G, 3)
    assert rec["reached"] == len(depth)
    assert rec["max_depth"] == max(depth.values())
    assert rec["result_bytes"] == G.number_of_nodes() * 4  # one 32-bit parent per vertex


def test_bfs_several_roots_summarise_the_last(cli, graph, tmp_path):
    G, path = graph
    (tmp_path / "roots").write_text("0\n7\n")
    rec = one("bfs", path, "--roots", tmp_path / "roots")
    assert rec["roots"] == [0, 7]
    assert rec["reached"] == len(nx.single_source_shortest_path_length(G, 7))


def test_sssp_reached_and_farthest(cli, tmp_path):
    G = random_graph(SEED, True, p=0.05, weighted=True)
    path = write_mtx(tmp_path / "w.mtx", G, weighted=True)
    rec = one("sssp", path, "--source", 5)
    dist = nx.single_source_dijkstra_path_length(G, 5)
    assert rec["reached"] == len(dist)
    assert rec["max_distance"] == pytest.approx(max(dist.values()))


def test_cc_count_and_largest(cli, graph):
    G, path = graph
    comps = list(nx.weakly_connected_components(G) if G.is_directed() else nx.connected_components(G))
    rec = one("cc", path)
    assert rec["num_components"] == len(comps)
    assert rec["largest_component"] == max(map(len, comps))


@pytest.mark.parametrize("reorder", ["none", "degree"])
def test_pr_top10_in_networkx_order(cli, graph, reorder):
    G, path = graph
    rec = one("pr", path, "--networkx", "--reorder", reorder)
    assert rec["top_ids"] == top10(nx.pagerank(G))
    assert rec["score_sum"] == pytest.approx(1.0, abs=1e-9)
    assert rec["dangling_vertices"] == sum(1 for v in G if len(G[v]) == 0)  # no out-neighbours


def test_pr_default_drops_dangling_mass(cli, graph):
    G, path = graph  # five isolated vertices: dangling
    rec = one("pr", path)
    assert rec["dangling_vertices"] >= 5 and rec["score_sum"] < 0.99


def test_pr_top10_in_user_ids_of_a_relabelled_file(cli, tmp_path):
    G = random_graph(SEED, True, p=0.05)
    G.remove_nodes_from(list(nx.isolates(G)))  # an edge list cannot hold them
    rec = one("pr", write_sparse_el(tmp_path / "sparse.el", G), "--networkx")
    assert rec["top_ids"] == [user(v) for v in top10(nx.pagerank(G))]


def test_bc_top10_in_networkx_order(cli, graph):
    G, path = graph
    rec = one("bc", path, "--exact")
    bc = nx.betweenness_centrality(G, normalized=False)
    assert rec["top_ids"] == top10(bc)
    assert rec["top_scores"] == pytest.approx([bc[v] for v in rec["top_ids"]], rel=1e-8)  # the record keeps 9 digits


def test_tc_and_kcore(cli, tmp_path):
    G = random_graph(SEED, False, p=0.08)
    path = write_mtx(tmp_path / "u.mtx", G)
    assert one("tc", path)["triangles"] == sum(nx.triangles(G).values()) // 3
    core = nx.core_number(G)
    rec = one("kcore", path)
    assert rec["max_core"] == max(core.values())
    assert rec["max_core_size"] == sum(1 for c in core.values() if c == rec["max_core"])


def test_diameter_endpoints_are_that_far_apart(cli, graph):
    G, path = graph
    rec = one("diameter", path)
    a, b = rec["endpoints"]
    assert nx.shortest_path_length(G, a, b) == rec["diameter_lower_bound"]


def test_spmv_and_bp_summaries_agree_with_their_output(cli, tmp_path):
    G = random_graph(SEED, False, p=0.05)
    path = write_mtx(tmp_path / "u.mtx", G)
    rec = one("spmv", path, "--output", tmp_path / "y")
    y = np.array(list(read_vertex_values(tmp_path / "y").values()))
    assert rec["y_l1"] == pytest.approx(np.abs(y).sum()) and rec["y_l2"] == pytest.approx(np.linalg.norm(y))
    rec = one("bp", path, "--output", tmp_path / "b")
    b = np.array(list(read_vertex_values(tmp_path / "b").values()))
    assert rec["belief_mean"] == pytest.approx(b.mean()) and rec["belief_above_half"] == int((b > 0.5).sum())


@pytest.mark.parametrize("kernel", ["bfs", "sssp", "bc", "cc", "pr", "spmv", "bp", "diameter", "kcore", "tc"])
def test_every_record_has_peak_rss(cli, kernel):
    flags = ["-s"] if kernel in ("bp", "kcore", "tc") else []
    rec = one(kernel, "-g", "8", *flags)
    assert rec["peak_rss_bytes"] > 1 << 20  # at least a megabyte: the binary alone is larger
    if kernel not in ("tc", "diameter"):
        assert rec["result_bytes"] >= rec["num_vertices"] * 4


def test_human_output_puts_the_answer_above_the_table(cli, graph):
    G, path = graph
    lines = run_cli("pr", path, "-n", "1", "--networkx").stdout.splitlines()
    assert lines[0].startswith("PageRank of 125 vertices")
    assert lines[1] == "top 10 by score:"
    best = top10(nx.pagerank(G))[0]
    assert lines[3].split()[:2] == ["1", str(best)]
    keys = [line.split()[0] for line in lines[13:] if line]
    assert "top_ids" not in keys and keys.index("kernel") < keys.index("median_s")
    bfs = run_cli("bfs", path, "--source", 3, "-n", "1").stdout.splitlines()[0]
    assert bfs.startswith("BFS from vertex 3: reached ") and "levels" in bfs


@pytest.mark.parametrize("args,expected", [
    (["pagernk", "-g", "8"], "(did you mean 'pagerank'?)"),
    (["bsf", "-g", "8"], "(did you mean 'bfs'?)"),
    (["cc", "-g", "8", "--varient", "sv"], "unknown flag '--varient' (did you mean '--variant'?)"),
    (["bc", "-g", "8", "--exakt"], "unknown flag '--exakt' (did you mean '--exact'?)"),
    (["--verison"], "unknown flag '--verison' (did you mean '--version'?) (the command comes first"),
    (["pr", "-g", "8", "--variant", "jacoby"], "jacoby not in {jacobi,gauss-seidel,auto} (did you mean 'jacobi'?)"),
    (["pr", "-g", "8", "-iterations", "5"], "('-iterations': long flags take two dashes, '--iterations')"),
    (["pr", "-g", "8", "--zzzzzz"], "unknown flag '--zzzzzz'; run `numagraph pr --help`"),
    (["kcore", "-g", "8", "-x"], "unknown flag '-x'; run"),  # no guess among one-letter flags
    (["bfs", "a.el", "b.el"], "unexpected argument 'b.el'"),
])
def test_parse_errors_suggest(cli, args, expected):
    proc = run_cli(*args, check=False)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("numagraph: error: ") and expected in lines[0], proc.stderr


@pytest.mark.parametrize("alias,name", [("core_number", "kcore"), ("shortest_paths", "sssp"),
                                        ("betweenness_centrality", "bc"), ("pagerank", "pr")])
def test_python_and_networkx_names_are_aliases(cli, alias, name):
    flags = ["-s"] if name == "kcore" else []
    assert one(alias, "-g", "8", *flags)["kernel"] == name

"""Shortest paths through the CLI against NetworkX: `numagraph path` (valid
path, NetworkX's weight or hop count, exit 1 when unreachable) and the
--predecessors column of sssp/bfs --output (exactly the smallest tight
in-neighbour), on random graphs with unreachable parts and on real graphs;
the same column on every engine and topology."""
import math

import networkx as nx
import pytest

from cli.cli_util import GRAPHS, random_graph, read_snap, write_mtx
from harness import run_cli, run_json

TOPOLOGIES = ["pack:2 numa:1 core:1", "pack:4 numa:1 core:1", "pack:8 numa:1 core:1"]


def read_gr(path):
    """A DIMACS .gr file as NetworkX sees it, parallel arcs merged to the lightest (as numagraph)."""
    G = nx.DiGraph()
    with open(path) as f:
        for line in f:
            if line.startswith("p "):
                G.add_nodes_from(range(int(line.split()[2])))
            if line.startswith("a "):
                _, u, v, w = line.split()
                u, v, w = int(u) - 1, int(v) - 1, int(w)
                if not G.has_edge(u, v) or G[u][v]["weight"] > w:
                    G.add_edge(u, v, weight=w)
    return G


def read_columns(path):
    """An --output file with a predecessor column: {vertex: (value, predecessor)}."""
    out = {}
    with open(path) as f:
        for line in f:
            v, value, pred = line.split()
            out[int(v)] = (float(value), int(pred))
    return out


def path_weight(G, path, weight="weight"):
    for u, v in zip(path, path[1:]):
        assert G.has_edge(u, v), (u, v)
    return sum(G[u][v].get(weight, 1) if weight else 1 for u, v in zip(path, path[1:]))


def run_path(graph, source, target, *flags):
    proc = run_cli("path", graph, "--source", source, "--target", target, "--json", "--verify", "-n", "1", *flags,
                   check=False)
    if proc.returncode == 1:
        return None, proc.stderr
    assert proc.returncode == 0, proc.stderr
    rec = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    import json
    rec = json.loads(rec[-1])
    assert rec["verified"] is True
    return rec, proc.stderr


def smallest_tight(G, dist, v, weight="weight"):
    ins = G.predecessors(v) if G.is_directed() else G.neighbors(v)
    return min(u for u in ins if u in dist and dist[u] < dist[v]
               and dist[u] + (G[u][v].get(weight, 1) if weight else 1) == dist[v])


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_path_weight_is_networkx_dijkstra_and_unreachable_exits_1(cli, tmp_path, seed, directed):
    G = random_graph(seed, directed, weighted=True)
    f = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    s = max(G.nodes, key=G.out_degree if directed else G.degree)
    dist = nx.single_source_dijkstra_path_length(G, s)
    targets = sorted(dist, key=dist.get)[1::max(1, len(dist) // 6)] + [len(G) - 1]  # the last is isolated
    for t in targets:
        rec, err = run_path(f, s, t)
        if t not in dist:
            assert rec is None and f"no path from {s} to {t}: {t} is not reachable from {s}" in err
            continue
        assert rec["path"][0] == s and rec["path"][-1] == t
        assert path_weight(G, rec["path"]) == dist[t] == rec["distance"]
        assert rec["hops"] == len(rec["path"]) - 1
    rec, _ = run_path(f, s, targets[0], "--hops")
    assert rec["hops"] == nx.shortest_path_length(G, s, targets[0]) == path_weight(G, rec["path"], None)


@pytest.mark.parametrize("seed,directed", GRAPHS)
def test_predecessor_columns_are_the_smallest_tight_in_neighbour(cli, tmp_path, seed, directed):
    G = random_graph(seed, directed, weighted=True)
    f = write_mtx(tmp_path / "g.mtx", G, weighted=True)
    s = max(G.nodes, key=G.out_degree if directed else G.degree)
    out = tmp_path / "sssp.txt"
    assert run_json("sssp", f, "--source", s, "-n", "1", "--verify", "--output", out, "--predecessors")[-1]["verified"]
    got = read_columns(out)
    dist = nx.single_source_dijkstra_path_length(G, s)
    for v in G.nodes:
        d, p = got[v]
        if v not in dist:
            assert (d, p) == (math.inf, -1)
        else:
            assert d == dist[v] and p == (s if v == s else smallest_tight(G, dist, v))
    run_json("bfs", f, "--source", s, "-n", "1", "--verify", "--output", out, "--predecessors")
    got = read_columns(out)
    depth = nx.single_source_shortest_path_length(G, s)
    every = nx.predecessor(G, s)
    for v in G.nodes:
        d, p = got[v]
        assert d == depth.get(v, -1)
        assert p == (-1 if v not in depth else s if v == s else min(every[v]))


def test_predecessors_without_output_is_refused(cli, tmp_path):
    proc = run_cli("sssp", "--kron", "6", "--source", "0", "--predecessors", check=False)
    assert proc.returncode == 2 and "give --output FILE too" in proc.stderr


def test_path_in_names(cli, tmp_path):
    f = tmp_path / "names.csv"
    f.write_text("from,to,weight\nann,bob,1\nbob,cy,1\nann,cy,5\ndee,cy,1\n")
    rec, _ = run_path(f, "ann", "cy")
    assert rec["path"] == ["ann", "bob", "cy"] and rec["distance"] == 2
    rec, err = run_path(f, "ann", "dee")
    assert rec is None and "dee is not reachable from ann along the arcs' direction" in err
    out = tmp_path / "o.csv"
    run_json("sssp", f, "--source", "ann", "-n", "1", "--output", out, "--predecessors")
    assert out.read_text().splitlines() == ["vertex,distance,predecessor", "ann,0,ann", "bob,1,ann", "cy,2,bob",
                                            "dee,inf,"]


def test_rome99_paths_match_networkx(cli, shared_data):
    f = shared_data / "rome99" / "rome99.gr"
    G = read_gr(f)
    s = 0
    dist = nx.single_source_dijkstra_path_length(G, s)
    for t in (1, 1000, 2500, max(dist, key=dist.get)):
        rec, _ = run_path(f, s, t)  # numagraph numbers .gr vertices from 0, as read_gr
        path = rec["path"]
        assert path[0] == s and path[-1] == t and path_weight(G, path) == dist[t] == rec["distance"]
        rec, _ = run_path(f, s, t, "--hops")
        assert rec["hops"] == nx.shortest_path_length(G, s, t)


@pytest.mark.parametrize("rel,flags", [("rome99/rome99.gr", ["-s"]), ("email-Enron/email-Enron.txt.gz", ["-s"]),
                                       ("wiki-Vote/wiki-Vote.txt.gz", [])])
def test_predecessors_are_the_same_on_every_engine_and_topology(cli, shared_data, tmp_path, rel, flags):
    f = shared_data / rel
    if not f.exists():
        pytest.skip(f"{f} is absent")
    root = run_json("bfs", f, *flags, "--sources", "1", "-n", "1")[0]["roots"][0]
    for kernel in ("sssp", "bfs"):
        base = tmp_path / "flat.txt"
        run_json(kernel, f, *flags, "--source", root, "-n", "1", "--engine", "flat", "--output", base, "--predecessors")
        for topo in TOPOLOGIES:
            out = tmp_path / "numa.txt"
            rec = run_json(kernel, f, *flags, "--source", root, "-n", "1", "--engine", "numa", "--topology", topo,
                           "--output", out, "--predecessors")[-1]
            assert rec["engine"] == "numa"
            assert out.read_text() == base.read_text(), (kernel, topo)


def test_wiki_vote_directed_path(cli, shared_data):
    f = shared_data / "wiki-Vote" / "wiki-Vote.txt.gz"
    G = read_snap(f, True)
    s = max(G.nodes, key=G.out_degree)
    depth = nx.single_source_shortest_path_length(G, s)
    for t in sorted(depth)[:: max(1, len(depth) // 5)]:
        rec, _ = run_path(f, s, t)
        assert rec["path"][0] == s and rec["path"][-1] == t
        assert path_weight(G, rec["path"], None) == depth[t] == rec["hops"]
    t = next(v for v in sorted(G.nodes) if v not in depth)
    rec, err = run_path(f, s, t)
    assert rec is None and "is not reachable" in err

"""Every call the NetworkX backend declines says why where the user sees it:
one BackendDeclined warning line, at Python's default warning and logging
settings (NetworkX itself logs can_run's reason only at DEBUG level), once per
calling line. Run in a fresh interpreter: pytest changes the warning filters."""
import json
import os
import subprocess
import sys

import pytest

nx = pytest.importorskip("networkx")

# (function, call on the graphs below, what the warning must name). Each
# declined argument of each backend function; multigraphs for every function.
DECLINED = [
    ("pagerank", "nx.pagerank(G, nstart=dict.fromkeys(G, 1){b})", "nstart"),
    ("betweenness_centrality", "nx.betweenness_centrality(W, weight='weight'{b})", "weight='weight' is not supported"),
    ("betweenness_centrality", "nx.betweenness_centrality(G, endpoints=True{b})", "endpoints=True is not supported"),
    ("bfs_edges", "list(nx.bfs_edges(G, 0, sort_neighbors=sorted{b}))", "sort_neighbors is not supported"),
    ("bfs_tree", "nx.bfs_tree(G, 0, sort_neighbors=sorted{b})", "sort_neighbors is not supported"),
    ("bfs_edges", "list(nx.bfs_edges(D, 0, reverse=True{b}))", "reverse=True on a directed graph is not supported"),
    ("bfs_tree", "nx.bfs_tree(D, 0, reverse=True{b})", "reverse=True on a directed graph is not supported"),
    ("core_number", "nx.core_number(D{b})", "directed graphs are not supported"),
    ("core_number", "nx.core_number(L{b})", "graphs with self-loops are not supported"),
] + [(name, f"{call.replace('(G', '(M')}", "multigraphs are not supported") for name, call in [
    ("pagerank", "nx.pagerank(G{b})"),
    ("betweenness_centrality", "nx.betweenness_centrality(G{b})"),
    ("connected_components", "list(nx.connected_components(G{b}))"),
    ("number_connected_components", "nx.number_connected_components(G{b})"),
    ("single_source_shortest_path_length", "nx.single_source_shortest_path_length(G, 0{b})"),
    ("bfs_edges", "list(nx.bfs_edges(G, 0{b}))"),
    ("bfs_tree", "nx.bfs_tree(G, 0{b})"),
    ("triangles", "nx.triangles(G{b})"),
]]  # core_number: NetworkX refuses multigraphs itself, before asking a backend
ACCEPTED = ["nx.pagerank(G, weight=None{b})", "nx.betweenness_centrality(G{b})", "nx.core_number(G{b})",
            "list(nx.bfs_edges(G, 0{b}))", "nx.triangles(G{b})"]

SETUP = """
import json, sys
import networkx as nx
G = nx.karate_club_graph()
W = nx.Graph(G)
for i, (u, v) in enumerate(W.edges()):
    W[u][v]["weight"] = 1 + i % 3
D = nx.gnp_random_graph(30, 0.1, seed=1, directed=True)
L = nx.path_graph(6)
L.add_edge(2, 2)
M = nx.MultiGraph(G)
nx.config.warnings_to_ignore.add("cache")
nx.config.backend_priority.algos = ["numagraph"]  # calls without backend= try numagraph first
nx.config.backend_priority.generators = ["numagraph"]  # bfs_tree returns a graph: NetworkX's generator priority

def out(tag, outcome):
    sys.stderr.flush()
    print(json.dumps([tag, outcome]), flush=True)
"""
CALL = """
print("@@ {tag}", file=sys.stderr, flush=True)
try:
    {code}
    out("{tag}", "ran")
except NotImplementedError:
    out("{tag}", "NotImplementedError")
except nx.NetworkXException as e:  # NetworkX's own refusal, after numagraph declined
    out("{tag}", type(e).__name__)
"""


def run_default_settings(calls):
    """Runs the calls, each on its own line of a script, in a fresh interpreter
    at default warning and logging settings; returns ({tag: outcome}, {tag: stderr lines})."""
    script = SETUP + "".join(CALL.format(tag=tag, code=code) for tag, code in calls)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "NETWORKX_BACKEND_PRIORITY")}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    outcomes = dict(json.loads(line) for line in proc.stdout.splitlines() if line.startswith("["))
    seen, tag = {}, None
    for line in proc.stderr.splitlines():
        if line.startswith("@@ "):
            tag = line[3:]
            seen[tag] = []
        elif tag is not None:
            seen[tag].append(line)
    return outcomes, seen


def test_every_refusal_says_why_once_on_one_line():
    calls = []
    for i, (name, call, _) in enumerate(DECLINED):
        calls.append((f"{i} explicit", call.format(b=", backend='numagraph'")))
        calls.append((f"{i} priority", call.format(b="")))
        calls.append((f"{i} priority again", call.format(b="")))  # the same call on another line: said there too
    outcomes, seen = run_default_settings(calls)
    for i, (name, call, reason) in enumerate(DECLINED):
        for mode in ("explicit", "priority", "priority again"):
            tag = f"{i} {mode}"
            # NetworkX's own bfs_tree calls bfs_edges, which numagraph declines too: a line of its own.
            said = [line for line in seen[tag] if f"BackendDeclined: numagraph backend declines {name}: " in line]
            assert len(said) == 1, (tag, call, seen[tag])
            assert reason in said[0], (tag, said)
        # backend="numagraph" insists: NetworkX refuses; otherwise NetworkX runs the call (or refuses it itself).
        assert outcomes[f"{i} explicit"] == "NotImplementedError", (call, outcomes[f"{i} explicit"])
        assert outcomes[f"{i} priority"] != "NotImplementedError", (call, outcomes[f"{i} priority"])


def test_a_repeated_call_says_it_once():
    _, seen = run_default_settings([("loop", "[nx.betweenness_centrality(G, endpoints=True) for _ in range(3)]")])
    assert len([line for line in seen["loop"] if "BackendDeclined" in line]) == 1, seen["loop"]


def test_accepted_calls_say_nothing():
    outcomes, seen = run_default_settings([(str(i), call.format(b=", backend='numagraph'"))
                                           for i, call in enumerate(ACCEPTED)])
    for i, call in enumerate(ACCEPTED):
        assert outcomes[str(i)] == "ran" and seen[str(i)] == [], (call, seen[str(i)])

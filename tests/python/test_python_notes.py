"""What the Python calls say, beyond their results: no "1 vertices"-style
text in any warning or repr on the smallest graphs; one warning per call from
the kernels that cannot use edge weights (none from sssp, none through the
NetworkX backend); betweenness's size rule (tests/cli/test_bc_default.py has
the threshold on both faces)."""
import warnings

import networkx as nx
import numpy as np
import pytest

import numagraph as ng
from cli.test_grammar import bad_phrases

UNWEIGHTED = {"bfs": lambda g: ng.bfs(g, 0), "diameter": ng.diameter, "belief_propagation": ng.belief_propagation,
              "connected_components": ng.connected_components, "triangles": ng.triangles,
              "core_number": ng.core_number, "betweenness": ng.betweenness}
WEIGHTED = {"sssp": lambda g: ng.sssp(g, 0), "spmv": ng.spmv}


def graphs():
    """One vertex with a self-loop kept, one edge, one triangle, a weighted path."""
    return {
        "loop": ng.Graph.from_edges([0], [0], directed=False, drop_self_loops=False, dedupe=True),
        "edge": ng.Graph.from_edges([0], [1], directed=False, drop_self_loops=True, dedupe=True),
        "triangle": ng.Graph.from_edges([0, 1, 2], [1, 2, 0], directed=False, drop_self_loops=True, dedupe=True),
        "weighted": ng.Graph.from_edges([0, 1], [1, 2], [2.0, 3.0], directed=False, drop_self_loops=True,
                                        dedupe=True),
    }


def said(call):
    """The result and every warning's text, each warning shown (filters at "always")."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(w.message) for w in caught]


@pytest.mark.parametrize("kernel", sorted({**UNWEIGHTED, **WEIGHTED, "pagerank": ng.pagerank}))
def test_no_one_plural_in_what_calls_say(kernel):
    call = {**UNWEIGHTED, **WEIGHTED, "pagerank": ng.pagerank}[kernel]
    for name, g in graphs().items():
        try:
            result, messages = said(lambda: call(g))
        except ng.UsageError as e:  # a refusal (core_number on a self-loop) must read well too
            result, messages = None, [str(e)]
        text = "\n".join(messages + [repr(g), repr(result)])
        assert bad_phrases(text) == [], (kernel, name, text)


def test_graph_repr_counts():
    g = graphs()
    assert "1 vertex, 0 edges" in repr(ng.Graph.from_edges([0], [0], num_vertices=1, drop_self_loops=True,
                                                            dedupe=True, directed=True))
    assert "2 vertices, 1 edge," in repr(g["edge"])


@pytest.mark.parametrize("kernel", sorted(UNWEIGHTED))
def test_kernels_without_weights_say_so_once(kernel):
    gs = graphs()
    _, messages = said(lambda: UNWEIGHTED[kernel](gs["weighted"]))
    notes = [m for m in messages if "does not use them" in m]
    assert len(notes) == 1 and notes[0].startswith(f"numagraph.{kernel}: the graph has edge weights; ") \
        and notes[0].endswith("numagraph.sssp does"), messages
    _, messages = said(lambda: UNWEIGHTED[kernel](gs["triangle"]))
    assert not [m for m in messages if "does not use them" in m], messages
    with warnings.catch_warnings(record=True) as caught:  # default filters: once per calling line
        warnings.simplefilter("default")
        for _ in range(3):
            UNWEIGHTED[kernel](gs["weighted"])
    assert len([w for w in caught if "does not use them" in str(w.message)]) == 1


@pytest.mark.parametrize("kernel", sorted(WEIGHTED))
def test_weighted_kernels_say_nothing(kernel):
    _, messages = said(lambda: WEIGHTED[kernel](graphs()["weighted"]))
    assert not [m for m in messages if "does not use them" in m], messages


def test_networkx_backend_adds_no_weight_notes():
    G = nx.karate_club_graph()  # its edges carry weights
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nx.config.warnings_to_ignore.add("cache")
        try:
            for f in (nx.triangles, nx.core_number, nx.betweenness_centrality):
                f(G, backend="numagraph")
            list(nx.bfs_edges(G, 0, backend="numagraph"))
        finally:
            nx.config.warnings_to_ignore.discard("cache")
    assert not [w for w in caught if "does not use them" in str(w.message)], [str(w.message) for w in caught]


def test_betweenness_small_graph_is_exact_and_says_nothing():
    G = nx.petersen_graph()
    g = ng.Graph.from_networkx(G)
    scores, messages = said(lambda: ng.betweenness(g, normalized=True))
    assert messages == []
    want = nx.betweenness_centrality(G, normalized=True)
    assert np.allclose(scores, [want[v] for v in g.nodes], atol=1e-12)
    assert np.allclose(ng.betweenness(g, exact=True, normalized=True), scores)


@pytest.mark.parametrize("kw", [{"k": 3}, {"sources": [0]}])
def test_betweenness_exact_takes_no_sample(kw):
    g = graphs()["triangle"]
    with pytest.raises(ng.UsageError, match="exact=True uses every vertex as a source"):
        ng.betweenness(g, exact=True, **kw)

"""Per-array placement from Python (place= on the kernels and numagraph.config,
placement_report=True; docs/numa.md "Placement per array"): the same answers
whatever the placement, the refusals, and the report of the call's arrays."""
import networkx as nx
import numpy as np
import pytest

import numagraph as ng

TWO_NODES = "pack:2 numa:1 core:1 pu:1"


@pytest.fixture(scope="module")
def g():
    return ng.Graph.from_networkx(nx.gnp_random_graph(400, 0.02, seed=3))


@pytest.mark.parametrize("engine", ["flat", "numa"])
def test_results_are_identical_whatever_the_placement(g, engine):
    with ng.config(topology=TWO_NODES, bind="none"):
        calls = [
            (lambda **kw: ng.pagerank(g, variant="jacobi", tolerance=0, engine=engine, **kw),
             {"ranks": "interleave", "contrib": "bind:1"}),
            (lambda **kw: ng.sssp(g, 0, engine=engine, **kw), "dist=bind:1"),
            (lambda **kw: ng.bfs(g, 0, engine=engine, **kw), "depth=interleave,parents=partitioned"),
            (lambda **kw: ng.connected_components(g, engine=engine, **kw), "labels=interleave"),
            (lambda **kw: ng.spmv(g, engine=engine, **kw), {"x": "bind:0", "y": "interleave"}),
            (lambda **kw: ng.core_number(g, engine=engine, **kw), "core=bind:1"),
        ]
        for run, place in calls:
            np.testing.assert_array_equal(run(), run(place=place))


def test_report_lists_the_calls_own_arrays(g):
    with ng.config(topology=TWO_NODES, bind="none", place="contrib=bind:1"):
        out = ng.pagerank(g, variant="jacobi", engine="flat", place={"ranks": "interleave"}, placement_report=True)
        assert isinstance(out, ng.Placed)
        np.testing.assert_array_equal(out.result, ng.pagerank(g, variant="jacobi", engine="flat"))
        report = {r["role"]: r for r in out.placement}
        assert list(report) == ["ranks", "contrib"]  # the graph was built before: not this call's
        assert report["ranks"]["bytes"] == 8 * g.num_vertices
        assert report["ranks"]["asked"] == "interleave" and report["ranks"]["obtained"].startswith("interleave")
        assert report["contrib"]["asked"] == "bind:1" and report["contrib"]["arrays"] == 2
        for r in report.values():
            assert sum(r["pages_per_node"]) + r["not_present"] == r["sampled"] > 0
        # The call's roles are for the call: the config's stay.
        assert ng.config.current()["place"] == "contrib=bind:1"


def test_config_places_the_graph_when_it_is_built():
    with ng.config(place="graph=interleave"):
        g = ng.Graph.from_networkx(nx.path_graph(5))
        assert ng.bfs(g, 0).tolist() == [0, 1, 2, 3, 4]
        assert ng.config.current()["place"] == "graph=interleave"


@pytest.mark.parametrize("place,message", [
    ("rank=interleave", "use one of: graph, ranks"),
    ({"ranks": "spread"}, "bind:N, replicate"),
    ("ranks=replicate", "written by the kernel"),
    ("graph=interleave", "the graph is placed when it is built"),
])
def test_refusals_name_what_is_valid(g, place, message):
    with pytest.raises(ng.UsageError, match=message.replace("(", r"\(")):
        ng.pagerank(g, place=place)


def test_place_must_be_a_str_or_a_dict(g):
    with pytest.raises(TypeError, match="place must be a str"):
        ng.pagerank(g, place=["ranks=interleave"])

"""Errors raised in Python name Python's arguments, not the CLI's flags."""
import numpy as np
import pytest

import numagraph as ng


def directed_path():
    return ng.Graph.from_edges(np.array([0, 1]), np.array([1, 2]), directed=True)


def test_kcore_on_a_directed_graph_says_directed_false():
    with pytest.raises(ng.UsageError) as e:
        ng.core_number(directed_path())
    assert "directed=False" in str(e.value)
    assert "--" not in str(e.value) and "-s " not in str(e.value)


def test_kcore_with_self_loops_says_drop_self_loops():
    g = ng.Graph.from_edges(np.array([0, 1]), np.array([1, 1]), directed=False, drop_self_loops=False)
    with pytest.raises(ng.UsageError) as e:
        ng.core_number(g)
    assert "drop_self_loops=True" in str(e.value)
    assert "--" not in str(e.value)


def test_engine_choice_is_named_as_the_argument():
    g = ng.Graph.from_edges(np.array([0, 1]), np.array([1, 2]), directed=False)
    with pytest.raises(ng.UsageError) as e:
        ng.connected_components(g, variant="lp", engine="flat")
    assert "engine='numa'" in str(e.value)
    assert "--engine" not in str(e.value)


def test_relabel_notice_names_the_argument(tmp_path):
    path = tmp_path / "sparse.el"
    path.write_text("0 1000000000\n1000000000 5\n")
    with pytest.warns(UserWarning) as w:
        ng.read(path)
    text = " ".join(str(x.message) for x in w)
    assert "relabel='off'" in text and "--relabel" not in text

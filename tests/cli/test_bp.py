"""Belief propagation through the CLI: exact marginals on a tree against
enumeration in Python, and a real graph from ../shared/data that passes the
kernel's verifier."""
import networkx as nx
import pytest

from cli.cli_util import kernel_output, output_of_one_run, write_mtx


def test_belief_propagation_on_a_tree_is_exact(cli, tmp_path):
    """On a tree BP's marginals are exact: compare with enumeration in Python."""
    T = nx.random_labeled_tree(10, seed=3)
    path = write_mtx(tmp_path / "t.mtx", T)
    belief, _ = kernel_output(cli, tmp_path, "bp", path, "-i", "20")
    coupling, seed = 0.7, 27491095

    def prior(v):  # the model of kernels/bp/model.hpp, re-derived in Python
        mask = (1 << 64) - 1
        x = seed ^ ((v * 0x9E3779B97F4A7C15) & mask)
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
        x ^= x >> 31
        return 0.1 + 0.8 * (x >> 11) * 2.0 ** -53

    n = T.number_of_nodes()
    z, p1 = 0.0, [0.0] * n
    for state in range(1 << n):
        bits = [(state >> v) & 1 for v in range(n)]
        w = 1.0
        for v in range(n):
            w *= prior(v) if bits[v] else 1 - prior(v)
        for u, v in T.edges():
            w *= coupling if bits[u] == bits[v] else 1 - coupling
        z += w
        for v in range(n):
            p1[v] += w * bits[v]
    for v in range(n):
        assert belief[v] == pytest.approx(p1[v] / z, abs=1e-9)


def test_belief_propagation_real_graph_passes_verifier(cli, shared_data, tmp_path):
    belief, rec = output_of_one_run(tmp_path, "bp", shared_data / "facebook_combined/facebook_combined.txt.gz", "-s",
                            "--engine", "flat")
    assert len(belief) == 4039 and all(0 <= b <= 1 for b in belief.values())  # hubs may round to 1
    assert rec["iterations"] == 5

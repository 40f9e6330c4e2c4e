"""One set of defaults across the faces: the same DataFrame through
Graph.from_pandas, written to CSV (with and without pandas' index) and read by
numagraph.read and by the CLI, gives the same graph and the same results.
NetworkX, building the graph from the same rows, is the oracle."""
import json
import subprocess
import warnings

import networkx as nx
import numpy as np
import pytest

pd = pytest.importorskip("pandas", reason="pandas is not installed (pip install numagraph[dataframe])")

import numagraph as ng  # noqa: E402
from harness import numagraph_bin  # noqa: E402


def friends():
    """Names and a 'since' year, which is not a weight."""
    rng = np.random.default_rng(3)
    people = [f"user{i}" for i in range(40)]
    rows = [(people[a], people[b], int(y)) for a, b, y in
            zip(rng.integers(0, 40, 150), rng.integers(0, 40, 150), rng.integers(2005, 2024, 150))]
    return pd.DataFrame(rows, columns=["user_a", "user_b", "since"]), None


def twelve_digit_weighted():
    """12-digit ids (relabelled), a 'weight' column, a self-loop and duplicates."""
    rng = np.random.default_rng(5)
    ids = 100000000000 + rng.choice(10**11, 50, replace=False)
    src, dst = ids[rng.integers(0, 50, 200)], ids[rng.integers(0, 50, 200)]
    w = rng.integers(1, 20, 200).astype(float)
    return pd.DataFrame({"src_id": src, "dst_id": dst, "weight": w}), "weight"


def one_based_cost():
    """Ids 1..n (no vertex 0) and a 'cost' column, a weight by its name."""
    rng = np.random.default_rng(9)
    src, dst = rng.integers(1, 31, 120), rng.integers(1, 31, 120)
    return pd.DataFrame({"from": src, "to": dst, "cost": rng.integers(1, 9, 120)}), "cost"


CASES = {"friends": friends, "twelve_digit_weighted": twelve_digit_weighted, "one_based_cost": one_based_cost}


def oracle(df, weight):
    """The DiGraph NetworkX builds from the rows, self-loops dropped and
    parallel edges merged to the lightest, as numagraph's defaults do."""
    G = nx.DiGraph()
    a, b = df.columns[0], df.columns[1]
    weights = df[weight].tolist() if weight else [1.0] * len(df)
    for u, v, w in zip(df[a].tolist(), df[b].tolist(), weights):
        G.add_nodes_from((u, v))
        if u == v:
            continue
        w = float(w)
        if not G.has_edge(u, v) or G[u][v]["weight"] > w:
            G.add_edge(u, v, weight=w)
    return G


def cli_values(path, kernel, tmp_path, *flags):
    out = tmp_path / f"{kernel}.csv"
    run = subprocess.run([str(numagraph_bin()), kernel, str(path), "--json", "-n", "1", "--verify",
                          "--output", str(out), *flags], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    record = json.loads([line for line in run.stdout.splitlines() if line.startswith("{")][-1])
    table = pd.read_csv(out, keep_default_na=False)
    ids = table.iloc[:, 0].tolist()
    return dict(zip(ids, table.iloc[:, 1].tolist())), record, run.stderr


def keyed(g, values):
    return {(k.item() if hasattr(k, "item") else k): v for k, v in g.to_dict(values).items()}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("index", [False, True])
def test_from_pandas_read_and_cli_agree(tmp_path, case, index):
    df, weight = CASES[case]()
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        g_frame = ng.Graph.from_pandas(df)
    notes = [str(w.message) for w in said if issubclass(w.category, ng.InputNote)]
    assert len(notes) == 1 and "directed" in notes[0], notes  # one note, naming the direction guess
    path = tmp_path / f"{case}.csv"
    df.to_csv(path, index=index)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ng.InputNote)
        g_file = ng.read(path)
    G = oracle(df, weight)
    for g in (g_frame, g_file):
        assert g.directed and g.weighted == (weight is not None)
        assert (g.num_vertices, g.num_edges) == (G.number_of_nodes(), G.number_of_edges())
        ids = g.vertex_ids()
        assert set(ids.tolist() if isinstance(ids, np.ndarray) else ids) == set(G.nodes)
    assert g_frame.decisions["weight_column"] == (weight or "none")
    assert g_file.decisions["weight_column"] in ((weight, "3", "4") if weight else ("none",))

    want = nx.pagerank(G, weight="weight" if weight else None)
    pr_frame = keyed(g_frame, ng.pagerank(g_frame, networkx=True))
    pr_file = keyed(g_file, ng.pagerank(g_file, networkx=True))
    for got in (pr_frame, pr_file):
        assert got.keys() == want.keys()
        assert max(abs(got[k] - want[k]) for k in want) < 1e-9

    comps = {frozenset(c) for c in nx.weakly_connected_components(G)}
    for g in (g_frame, g_file):
        label = keyed(g, ng.connected_components(g))
        assert len(set(label.values())) == len(comps)

    cli_pr, _, _ = cli_values(path, "pr", tmp_path, "--networkx")
    assert {str(k) for k in cli_pr} == {str(k) for k in want}
    assert max(abs(cli_pr[k] - want[type(next(iter(want)))(k)]) for k in cli_pr) < 1e-9

    cli_cc, record, stderr = cli_values(path, "cc", tmp_path)
    assert record["num_vertices"] == G.number_of_nodes()
    assert {str(k) for k in cli_cc} == {str(k) for k in G.nodes}
    assert len(set(cli_cc.values())) == len(comps)
    assert "note" in stderr  # the CLI says what it decided too

"""Real-world shapes of a user's edge file, written at test time the way the
tools that make them write them (pandas, NetworkX, R's write.csv, Excel,
igraph, SNAP), with what numagraph should decide about each and the graph
NetworkX builds from the same data (the oracle).

    from file_shapes import SHAPES, write_shape, write_all, nx_graph

    shape = write_shape("pandas_index", tmp_path)   # a Shape
    shape.path            # the file written
    shape.expected        # {"header": True, "index_column": "1", ...}: the CLI's --json "input"
    shape.notes           # substrings the CLI's stderr notes must hold
    shape.edges           # [(u, v)] or [(u, v, w)]: the edges as the data holds them
    nx_graph(shape)       # nx.DiGraph of those edges (directed=False: nx.Graph)

A Shape whose `cli` is False (Parquet) is refused by the CLI; `refusal` is a
substring of the message. A shape whose writer is missing (pyarrow) is
skipped with pytest.skip.
"""
from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

# A small social graph: the first edge's ends appear in later edges (as in
# any file whose edges meet), weights and a "since" year per edge.
NAMES_EDGES = [
    ("alice", "bob", 3), ("bob", "carol", 1), ("carol", "alice", 2), ("carol", "dave", 4),
    ("dave", "erin", 1), ("erin", "frank", 5), ("frank", "dave", 2), ("grace", "heidi", 1),
    ("bob", "dave", 7), ("heidi", "alice", 3), ("ivan", "judy", 2),
]
SINCE = [2015, 2016, 2017, 2018, 2019, 2020, 2015, 2016, 2017, 2018, 2019]
# Sparse integer ids for the same graph (ids that look like user numbers).
USER_ID = {name: 1001 + i for i, name in enumerate(
    ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"])}


@dataclass
class Shape:
    name: str
    path: Path
    edges: list              # (u, v) or (u, v, w): what the file means
    expected: dict           # decision key -> value in the CLI's --json "input" (None: must be absent)
    notes: list = field(default_factory=list)  # substrings the notes on stderr must hold
    cli: bool = True         # False: the CLI refuses the file
    refusal: str = ""        # a substring of that refusal
    description: str = ""    # the tool and call that writes this shape


def nx_graph(shape: Shape, directed: bool = True):
    """NetworkX's graph of the shape's edges (weights as 'weight')."""
    G = nx.DiGraph() if directed else nx.Graph()
    for e in shape.edges:
        if len(e) == 3:
            G.add_edge(e[0], e[1], weight=float(e[2]))
        else:
            G.add_edge(e[0], e[1])
    return G


def _frame(ids="names"):
    import pandas as pd
    key = (lambda n: n) if ids == "names" else (lambda n: USER_ID[n])
    return pd.DataFrame({"user_a": [key(u) for u, _, _ in NAMES_EDGES],
                         "user_b": [key(v) for _, v, _ in NAMES_EDGES],
                         "since": SINCE})


def _unweighted(ids="names"):
    key = (lambda n: n) if ids == "names" else (lambda n: USER_ID[n])
    return [(key(u), key(v)) for u, v, _ in NAMES_EDGES]


def _weighted():
    return [(u, v, w) for u, v, w in NAMES_EDGES]


def _nx_weighted():
    G = nx.DiGraph()
    for u, v, w in NAMES_EDGES:
        G.add_edge(u, v, weight=float(w))
    return G


def _pandas_no_index(d):
    p = d / "friends.csv"
    _frame("integers").to_csv(p, index=False)
    return Shape("pandas_no_index", p, _unweighted("integers"),
                 {"header": True, "weight_column": "none", "ids": "integers", "relabel": "on",
                  "directed": True, "index_column": None},
                 ["line 1 ('user_a', 'user_b') is read as a header", "--no-header",
                  "column 3 ('since') is not read as weights", "--weight-column since",
                  "ids are sparse", "directed", "-s/--symmetrize"],
                 description="pandas: df.to_csv('friends.csv', index=False), integer user ids, a 'since' year")


def _pandas_index(d):
    p = d / "friends_index.csv"
    _frame("integers").to_csv(p)
    return Shape("pandas_index", p, _unweighted("integers"),
                 {"header": True, "index_column": "1", "weight_column": "none", "ids": "integers"},
                 ["column 1 a row index", "index=False", "column 4 ('since') is not read as weights"],
                 description="pandas: df.to_csv('friends_index.csv') (with its index)")


def _r_write_csv(d):
    p = d / "r_edges.csv"
    lines = ['"","from","to","weight"']
    for i, (u, v, w) in enumerate(NAMES_EDGES, start=1):
        lines.append(f'"{i}","{u}","{v}",{w}')
    p.write_text("\n".join(lines) + "\n")
    return Shape("r_write_csv", p, _weighted(),
                 {"header": True, "index_column": "1", "weight_column": "weight", "ids": "names"},
                 ["column 1 a row index", "row.names=FALSE", "column 4 ('weight') is read as edge weights"],
                 description="R: write.csv(df, 'r_edges.csv') (row names as a first column)")


def _excel_bom_crlf(d):
    p = d / "excel.csv"
    rows = ["Person,Friend,Weight"] + [f"{u.title()},{v.title()},{w}" for u, v, w in NAMES_EDGES]
    p.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(rows).encode() + b"\r\n")
    return Shape("excel_bom_crlf", p, [(u.title(), v.title(), w) for u, v, w in NAMES_EDGES],
                 {"header": True, "weight_column": "Weight", "ids": "names"},
                 ["line 1 ('Person', 'Friend') is read as a header", "column 3 ('Weight') is read as edge weights"],
                 description="Excel: Save As 'CSV UTF-8' (byte order mark, CRLF line ends)")


def _nx_edgelist(d):
    p = d / "nx.edgelist"
    nx.write_edgelist(_nx_weighted(), p)  # data=True: "alice bob {'weight': 3.0}"
    return Shape("nx_write_edgelist", p, _weighted(),
                 {"format": "el", "header": False, "weight_column": "weight", "ids": "names"},
                 ["does not say its format", "line 1 ('alice', 'bob') is read as an edge", "--header",
                  "the edge data's 'weight' is read as edge weights"],
                 description="NetworkX: nx.write_edgelist(G, 'nx.edgelist') (edge data as a dict)")


def _nx_edgelist_plain(d):
    p = d / "plain.edgelist"
    G = nx.DiGraph()
    G.add_edges_from((u, v) for u, v, _ in NAMES_EDGES)
    nx.write_edgelist(G, p)  # "alice bob {}"
    return Shape("nx_write_edgelist_plain", p, _unweighted(),
                 {"format": "el", "header": False, "weight_column": "none", "ids": "names"},
                 ["line 1 ('alice', 'bob') is read as an edge"],
                 description="NetworkX: nx.write_edgelist(G, 'plain.edgelist') of a graph without weights ({})")


def _nx_weighted_edgelist(d):
    p = d / "weighted.txt"
    nx.write_weighted_edgelist(_nx_weighted(), p)  # "alice bob 3.0"
    return Shape("nx_write_weighted_edgelist", p, _weighted(),
                 {"header": False, "weight_column": "3", "ids": "names"},
                 ["column 3 holds numbers and is read as edge weights", "--weight-column none"],
                 description="NetworkX: nx.write_weighted_edgelist(G, 'weighted.txt')")


def _igraph_ncol(d):
    p = d / "graph.ncol"
    p.write_text("".join(f"{u} {v} {w}\n" for u, v, w in NAMES_EDGES))
    return Shape("igraph_ncol", p, _weighted(),
                 {"format": "el", "header": False, "weight_column": "3", "ids": "names"},
                 ["does not say its format", "--format NAME"],
                 description="igraph: g.write_ncol('graph.ncol') (names, then the weight)")


def _snap_comments(d):
    p = d / "snap.txt"
    ids = {n: i for i, n in enumerate(USER_ID)}
    lines = ["# Directed graph (each unordered pair of nodes is saved once): snap.txt",
             "# Friendships of a few users", f"# Nodes: {len(ids)} Edges: {len(NAMES_EDGES)}",
             "# FromNodeId\tToNodeId"]
    lines += [f"{ids[u]}\t{ids[v]}" for u, v, _ in NAMES_EDGES]
    p.write_text("\n".join(lines) + "\n")
    return Shape("snap_comments", p, [(ids[u], ids[v]) for u, v, _ in NAMES_EDGES],
                 {"header": False, "ids": "integers", "relabel": "off", "directed": True, "weight_column": None},
                 ["directed"],
                 description="SNAP: '#' comment lines, then tab-separated integer ids from 0")


def _tsv_header(d):
    p = d / "edges.tsv"
    rows = ["source\ttarget\tweight"] + [f"{u}\t{v}\t{w}" for u, v, w in NAMES_EDGES]
    p.write_text("\n".join(rows) + "\n")
    return Shape("tsv_header", p, _weighted(),
                 {"header": True, "weight_column": "weight", "ids": "names"},
                 ["line 1 ('source', 'target') is read as a header"],
                 description="a TSV with a header: source<TAB>target<TAB>weight, names")


def _gzip_csv(d):
    p = d / "friends.csv.gz"
    _frame("names").to_csv(p, index=False, compression="gzip")
    return Shape("gzip_csv", p, _unweighted(),
                 {"header": True, "weight_column": "none", "ids": "names"},
                 ["line 1 ('user_a', 'user_b') is read as a header", "column 3 ('since') is not read as weights"],
                 description="pandas: df.to_csv('friends.csv.gz', index=False) (names, gzip'd)")


def _person_friend(d):
    p = d / "two.csv"
    p.write_text("person,friend\nAlice,Bob\nBob,Carol\n")
    return Shape("person_friend", p, [("Alice", "Bob"), ("Bob", "Carol")],
                 {"header": True, "ids": "names"},
                 ["line 1 ('person', 'friend') is read as a header"],
                 description="a hand-written CSV: person,friend then names")


def _twelve_digit(d):
    p = d / "big_ids.el"
    big = {n: 100000000000 + 7 * i for i, n in enumerate(USER_ID)}
    p.write_text("".join(f"{big[u]} {big[v]}\n" for u, v, _ in NAMES_EDGES))
    return Shape("twelve_digit_ids", p, [(big[u], big[v]) for u, v, _ in NAMES_EDGES],
                 {"ids": "integers", "relabel": "on"},
                 ["ids are sparse (max id 100000000063)", "--relabel off"],
                 description="an edge list of 12-digit ids (phone numbers, account ids)")


def _one_based(d):
    p = d / "one_based.el"
    ids = {n: i + 1 for i, n in enumerate(USER_ID)}
    p.write_text("".join(f"{ids[u]} {ids[v]}\n" for u, v, _ in NAMES_EDGES))
    return Shape("one_based_ids", p, [(ids[u], ids[v]) for u, v, _ in NAMES_EDGES],
                 {"ids": "integers", "relabel": "on"},
                 ["ids start at 1, not 0", "--relabel off"],
                 description="an edge list whose ids count from 1 (MATLAB, R, Julia)")


def _parquet(d):
    p = d / "friends.parquet"
    try:
        _frame("names").to_parquet(p)
    except ImportError:
        import pytest
        pytest.skip("pandas cannot write Parquet here (no pyarrow)")
    return Shape("parquet", p, _unweighted(), {}, [], cli=False,
                 refusal="numagraph.read_parquet",
                 description="pandas: df.to_parquet('friends.parquet')")


SHAPES = {
    "pandas_no_index": _pandas_no_index,
    "pandas_index": _pandas_index,
    "r_write_csv": _r_write_csv,
    "excel_bom_crlf": _excel_bom_crlf,
    "nx_write_edgelist": _nx_edgelist,
    "nx_write_edgelist_plain": _nx_edgelist_plain,
    "nx_write_weighted_edgelist": _nx_weighted_edgelist,
    "igraph_ncol": _igraph_ncol,
    "snap_comments": _snap_comments,
    "tsv_header": _tsv_header,
    "gzip_csv": _gzip_csv,
    "person_friend": _person_friend,
    "twelve_digit_ids": _twelve_digit,
    "one_based_ids": _one_based,
    "parquet": _parquet,
}


def write_shape(name: str, directory) -> Shape:
    """Writes shape `name` (a key of SHAPES) into `directory`."""
    return SHAPES[name](Path(directory))


def write_all(directory) -> list:
    """Writes every shape the installed writers can make into `directory`."""
    shapes = []
    for name in SHAPES:
        try:
            shapes.append(write_shape(name, directory))
        except Exception as e:  # pytest.skip of a missing writer
            if type(e).__name__ != "Skipped":
                raise
    return shapes

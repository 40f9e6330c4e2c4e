"""Spy plots: where a graph's edges sit in its adjacency matrix, to see what a
vertex order does (numagraph.Graph.reorder, docs/reordering.md).

The matrix is drawn as a 2-D histogram: the n x n matrix is cut into
``bins`` x ``bins`` cells and each cell is coloured by the number of arcs
(u, v) in it, on a log scale, so both the dense diagonal band of a good order
and the sparse scatter of a poor one show. Needs matplotlib
(``pip install numagraph[plot]``).
"""
from __future__ import annotations

import numpy as np

from .graph import Graph

__all__ = ["spy", "spy_compare", "adjacency_histogram"]



def _sizes(g):
    """"9 vertices, 1 edge": the graph's size for a title."""
    from ._words import count_of

    return f"{count_of(g.num_vertices, 'vertex', 'vertices')}, {count_of(g.num_edges, 'edge')}"

def _pyplot():
    try:
        import matplotlib.pyplot as plt  # without a display matplotlib falls back to Agg (files)
        from matplotlib.colors import LogNorm
    except ImportError as e:
        raise ImportError("numagraph.plot needs matplotlib: pip install 'numagraph[plot]' (or pip install "
                          "matplotlib)") from e
    return plt, LogNorm


def adjacency_histogram(graph, bins=512):
    """Arc counts of the adjacency matrix in ``bins`` x ``bins`` cells, in the
    graph's stored order (row = source): an int64 array (bins, bins).
    ``bins`` is capped at the vertex count."""
    if not isinstance(graph, Graph):
        raise TypeError(f"expected a numagraph.Graph (got {type(graph).__name__})")
    n = graph.num_vertices
    bins = int(bins)
    if bins < 1:
        raise ValueError(f"bins must be at least 1 (got {bins})")
    bins = max(1, min(bins, n))
    counts = np.zeros((bins, bins), dtype=np.int64)
    indptr, indices = graph.indptr, graph.indices
    if n == 0 or indices is None or indices.size == 0:
        return counts
    # Cell of id x: x * bins // n (int64: no overflow below 2^63 / bins).
    degree = np.diff(indptr)
    row_cell = (np.arange(n, dtype=np.int64) * bins) // n
    rows = np.repeat(row_cell, degree)
    cols = (indices.astype(np.int64) * bins) // n
    counts += np.bincount(rows * bins + cols, minlength=bins * bins).reshape(bins, bins)
    return counts


def _draw(ax, graph, bins, title, LogNorm):
    counts = adjacency_histogram(graph, bins)
    n = graph.num_vertices
    masked = np.ma.masked_equal(counts, 0)
    vmax = max(1, int(counts.max()))
    im = ax.imshow(masked, cmap="viridis", norm=LogNorm(vmin=1, vmax=vmax), extent=(0, n, n, 0),
                   interpolation="nearest", aspect="equal")
    ax.set_facecolor("white")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("target id")
    ax.set_ylabel("source id")
    return im


def _reordered(graph, order):
    return graph if order in (None, "none") else graph.reorder(order)


def spy(graph, path=None, ax=None, order=None, bins=512):
    """Draws the adjacency matrix density of ``graph`` (renumbered in ``order``
    first when given: "degree", "dbg", "rcm", "adl", "adl-serial").

    Draws into ``ax`` when given (returns it), else into a new figure, saved
    to ``path`` when given (PNG, PDF... by extension) and returned.
    """
    plt, LogNorm = _pyplot()
    g = _reordered(graph, order)
    fig = None
    if ax is None:
        fig, ax = plt.subplots(figsize=(4.6, 4))
    title = f"{graph.name}: {order or ('stored order' if g.permutation is not None else 'own order')}"
    im = _draw(ax, g, bins, title, LogNorm)
    if fig is None:
        return ax
    fig.colorbar(im, ax=ax, label="arcs per cell")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=100)
        plt.close(fig)
    return fig


def spy_compare(graph, orders=("none", "rcm", "adl"), path=None, bins=512):
    """The adjacency matrix of ``graph`` in each of ``orders`` side by side
    (one panel each, shared colour scale), saved to ``path`` when given.
    Returns the figure."""
    plt, LogNorm = _pyplot()
    orders = list(orders)
    if not orders:
        raise ValueError("give at least one order")
    graphs = [_reordered(graph, o) for o in orders]
    fig, axes = plt.subplots(1, len(orders), figsize=(3.4 * len(orders) + 0.8, 3.6), squeeze=False)
    vmax = max(1, max(int(adjacency_histogram(g, bins).max()) for g in graphs))
    for i, (ax, g, o) in enumerate(zip(axes[0], graphs, orders)):
        im = _draw(ax, g, bins, o or "none", LogNorm)
        im.set_norm(LogNorm(vmin=1, vmax=vmax))
        if i:
            ax.set_ylabel("")  # the panels share the axes: one label, no overlap
    fig.suptitle(f"{graph.name}: {_sizes(graph)}", fontsize=10)
    fig.colorbar(im, ax=list(axes[0]), label="arcs per cell", shrink=0.85)
    if path is not None:
        fig.savefig(path, dpi=90)
        plt.close(fig)
    return fig


def main(argv=None, prog="python -m numagraph.plot"):
    """python -m numagraph.plot GRAPH OUT.png [--orders none rcm adl] [--bins 512] [--undirected]:
    spy_compare of a graph file (any format numagraph.read takes), or with
    --kron SCALE (and OUT.png alone) of a generated Kronecker graph."""
    import argparse

    from .graph import read

    ap = argparse.ArgumentParser(prog=prog, description=main.__doc__.split(":")[0])
    ap.add_argument("graph", help="graph file (leave out with --kron)")
    ap.add_argument("out", nargs="?", help="output image (PNG, PDF... by extension)")
    ap.add_argument("--kron", type=int, metavar="SCALE", help="plot a Graph500 Kronecker graph of 2^SCALE vertices")
    ap.add_argument("--orders", nargs="+", default=["none", "rcm", "adl"])
    ap.add_argument("--bins", type=int, default=512)
    ap.add_argument("--undirected", action="store_true", help="symmetrize the graph on reading")
    ap.add_argument("--name", help="title (default: the file name)")
    args = ap.parse_args(argv)
    if args.kron is not None:
        if args.out is not None:
            ap.error(f"with --kron give only the output image: {prog} --kron 16 OUT.png")
        from .generate import kronecker

        g, args.out = kronecker(args.kron), args.graph
        args.name = args.name or f"kron{args.kron}"
    elif args.out is None:
        ap.error(f"give the graph file and the output image: {prog} GRAPH OUT.png")
    else:
        g = read(args.graph, directed=False if args.undirected else None)
    fig = spy_compare(g, orders=args.orders, bins=args.bins)
    if args.name:
        fig.suptitle(f"{args.name}: {_sizes(g)}", fontsize=10)
    fig.savefig(args.out, dpi=90)


if __name__ == "__main__":
    main()

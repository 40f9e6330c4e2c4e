"""Deterministic parallel graph generators (the same graph for the same
arguments on any thread count, and the same as the CLI's --kron/--uniform/--grid).

Like the CLI kernels, self-loops and duplicate edges are dropped by default
(``clean=False`` keeps the raw multigraph)."""
from . import _core
from .graph import Graph

DEFAULT_SEED = _core.DEFAULT_SEED

__all__ = ["kronecker", "uniform", "grid", "DEFAULT_SEED"]


def kronecker(scale, edge_factor=16, seed=DEFAULT_SEED, *, weighted=False, clean=True):
    """Graph500 Kronecker graph (A=0.57, B=C=0.19): 2^scale vertices,
    edge_factor * 2^scale undirected edges before cleaning, scrambled ids.
    ``weighted``: integer weights uniform in [1, 255].

    >>> numagraph.generate.kronecker(8).num_vertices
    256
    """
    return Graph(_core.generate("kron", int(scale), int(edge_factor), int(seed), bool(weighted), clean, clean))


def uniform(scale, edge_factor=16, seed=DEFAULT_SEED, *, weighted=False, clean=True):
    """Uniform random graph (Erdos-Renyi-like): 2^scale vertices, edge_factor * 2^scale edges."""
    return Graph(_core.generate("uniform", int(scale), int(edge_factor), int(seed), bool(weighted), clean, clean))


def grid(scale, seed=DEFAULT_SEED, *, weighted=False, clean=True):
    """2-D 4-neighbour grid of 2^(scale//2) x 2^(scale - scale//2) vertices (road-like, high diameter)."""
    return Graph(_core.generate("grid", int(scale), 16, int(seed), bool(weighted), clean, clean))

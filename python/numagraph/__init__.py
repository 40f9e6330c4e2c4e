"""numagraph: a NUMA-aware graph analytics engine (C++20 + OpenMP), from Python.

The C++ library is wrapped one-to-one (``numagraph._core``); this package adds
the NumPy/SciPy/NetworkX conversions and the NetworkX backend. Every kernel runs
with the GIL released on numagraph's worker thread, returns NumPy arrays that
own the C++ result memory (no copies), and answers Ctrl-C within about 0.1 s.

Quick start (run as a doctest by ``make docs``):

>>> import numagraph as ng
>>> g = ng.generate.kronecker(10)          # Graph500 graph, 2^10 vertices
>>> g.num_vertices
1024
>>> depth = ng.bfs(g, 0)                   # int32 hop counts, -1 = unreached
>>> depth.dtype, int(depth[0])
(dtype('int32'), 0)
>>> pr = ng.pagerank(g)                    # float64 scores
>>> with ng.config(threads=2):
...     comp = ng.connected_components(g)
"""
from . import _core
from ._core import Error, UsageError, InputError, IoError, VerifyError, ResourceError
from .graph import Graph, read
from .notes import InputNote
from .openmp import OpenMPWarning, openmp_runtimes
from .dataframes import read_parquet
from . import generate
from .algorithms import (
    bfs,
    sssp,
    betweenness,
    diameter,
    Diameter,
    pagerank,
    spmv,
    belief_propagation,
    connected_components,
    strongly_connected_components,
    triangles,
    clustering,
    average_clustering,
    transitivity,
    core_number,
    communities,
    Communities,
    louvain_communities,
    modularity,
    eigenvector_centrality,
    katz_centrality,
    closeness_centrality,
    harmonic_centrality,
    Placed,
)
from .paths import shortest_path, shortest_path_length, predecessors, NoPathError
from .runtime import config
from .profiling import Profile, profile
from .progress_updates import Progress, ProgressUpdate, progress

__version__ = "0.1.0"

__all__ = [
    "Graph",
    "read",
    "InputNote",
    "OpenMPWarning",
    "openmp_runtimes",
    "read_parquet",
    "generate",
    "config",
    "profile",
    "Profile",
    "progress",
    "Progress",
    "ProgressUpdate",
    "bfs",
    "sssp",
    "betweenness",
    "diameter",
    "Diameter",
    "pagerank",
    "spmv",
    "belief_propagation",
    "connected_components",
    "strongly_connected_components",
    "triangles",
    "clustering",
    "average_clustering",
    "transitivity",
    "core_number",
    "communities",
    "Communities",
    "louvain_communities",
    "modularity",
    "eigenvector_centrality",
    "katz_centrality",
    "closeness_centrality",
    "harmonic_centrality",
    "shortest_path",
    "shortest_path_length",
    "predecessors",
    "NoPathError",
    "Error",
    "UsageError",
    "InputError",
    "IoError",
    "VerifyError",
    "ResourceError",
]

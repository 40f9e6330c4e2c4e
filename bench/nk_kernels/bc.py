"""Betweenness from k sources (NG_BC_SOURCES, default 8; the same vertices for
numagraph and igraph, drawn with a fixed seed among those of nonzero degree):
numagraph.betweenness(sources=), igraph's betweenness(sources=); NetworKit has no
sources argument, so its EstimateBetweenness from k random pivots does the same
amount of work (k single-source passes). Figure: the vertex of highest score."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _shared import BC_SOURCES, bc_sources  # noqa: E402

DIRECTED = False


def numagraph_kernel(ng, g):
    return ng.betweenness(g, sources=bc_sources("numagraph", g))


def networkit_kernel(nk, G):
    return nk.centrality.EstimateBetweenness(G, BC_SOURCES, False, True).run()


def igraph_kernel(ig, G):
    return G.betweenness(sources=bc_sources("igraph", G))


def numagraph_figures(ng, g, scores):
    return {"top": int(np.argmax(scores))}


def networkit_figures(nk, G, bc):
    return {"top": int(np.argmax(bc.scores()))}


def igraph_figures(ig, G, scores):
    return {"top": int(np.argmax(scores))}

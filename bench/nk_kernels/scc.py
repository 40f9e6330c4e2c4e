"""Strongly connected components of a directed graph.

Timed on both sides: the kernel alone. numagraph's call returns a label per
vertex (a NumPy array); NetworKit's run() leaves one per vertex in the
object. Counting the components (a Python pass over numagraph's labels,
NetworKit's stored count) is not timed."""
DIRECTED = True


def numagraph_kernel(ng, g):
    return ng.strongly_connected_components(g)


def numagraph_figures(ng, g, labels):
    import numpy as np
    return {"components": int(np.unique(labels).size)}


def networkit_kernel(nk, G):
    scc = nk.components.StronglyConnectedComponents(G)
    scc.run()
    return scc


def networkit_figures(nk, G, scc):
    return {"components": int(scc.numberOfComponents())}

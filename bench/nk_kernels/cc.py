"""Connected components; the kernel alone is timed (counting the components is a
pass of the figures). igraph's call returns its membership as a Python list."""
import numpy as np

DIRECTED = False


def numagraph_kernel(ng, g):
    return ng.connected_components(g)


def numagraph_figures(ng, g, labels):
    return {"components": int(np.unique(labels).size)}


def networkit_kernel(nk, G):
    return nk.components.ConnectedComponents(G).run()


def networkit_figures(nk, G, cc):
    return {"components": int(cc.numberOfComponents())}


def igraph_kernel(ig, G):
    return G.connected_components()


def igraph_figures(ig, G, clustering):
    return {"components": len(clustering)}

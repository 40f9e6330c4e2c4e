"""Local clustering coefficients (and their average) of an undirected graph;
NetworKit's turbo mode, its fastest.

Timed on both sides: the kernel alone, which leaves a coefficient per vertex
(numagraph's call returns them as a NumPy array; NetworKit's run() keeps them
in the object). The average, and NetworKit's scores() (a copy into a Python
list), are not timed."""
DIRECTED = False


def numagraph_kernel(ng, g):
    return ng.clustering(g)


def numagraph_figures(ng, g, coefficients):
    return {"average": float(coefficients.mean())}


def networkit_kernel(nk, G):
    lcc = nk.centrality.LocalClusteringCoefficient(G, turbo=True)
    lcc.run()
    return lcc


def networkit_figures(nk, G, lcc):
    scores = lcc.scores()
    return {"average": float(sum(scores) / len(scores))}

"""Local clustering coefficients (and their average) of an undirected graph;
NetworKit's turbo mode, its fastest."""
DIRECTED = False


def numagraph_run(ng, g):
    return {"average": float(ng.clustering(g).mean())}


def networkit_run(nk, G):
    lcc = nk.centrality.LocalClusteringCoefficient(G, turbo=True)
    lcc.run()
    scores = lcc.scores()
    return {"average": float(sum(scores) / len(scores))}

"""Strongly connected components of a directed graph."""
DIRECTED = True


def numagraph_run(ng, g):
    labels = ng.strongly_connected_components(g)
    return {"components": int(len(set(labels.tolist())))}


def networkit_run(nk, G):
    scc = nk.components.StronglyConnectedComponents(G)
    scc.run()
    return {"components": int(scc.numberOfComponents())}

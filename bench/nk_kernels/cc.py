"""Connected components: the plug-in example for bench/vs_networkit.py."""
DIRECTED = False


def numagraph_run(ng, g):
    labels = ng.connected_components(g)
    return {"components": int(len(set(labels.tolist())))}


def networkit_run(nk, G):
    cc = nk.components.ConnectedComponents(G)
    cc.run()
    return {"components": int(cc.numberOfComponents())}

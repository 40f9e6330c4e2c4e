"""BFS predecessors from one source: numagraph.predecessors(g, s,
weighted=False) (direction-optimizing BFS, then the parallel predecessor
post-pass) against NetworKit's BFS with storePaths=True. The source: the
vertex of highest degree (the smallest such id)."""
DIRECTED = False

_source = {}


def _highest_degree(degrees):
    import numpy as np
    return int(np.argmax(np.asarray(degrees)))


def numagraph_run(ng, g):
    s = _source.setdefault("ng", _highest_degree(g.out_degree))
    pred = ng.predecessors(g, s, weighted=False)
    return {"reached": int((pred >= 0).sum())}


def networkit_run(nk, G):
    import numpy as np
    s = _source.setdefault("nk", _highest_degree([G.degree(v) for v in range(G.numberOfNodes())]))
    b = nk.distance.BFS(G, s, storePaths=True)
    b.run()
    dist = np.asarray(b.getDistances())
    return {"reached": int((dist < 1e300).sum())}

"""Shortest paths with predecessors from one source: numagraph.sssp(...,
predecessors=True) (delta-stepping, then the parallel predecessor post-pass)
against NetworKit's Dijkstra with storePaths=True. The driver builds both
graphs unweighted (weight 1 per edge), so a road graph is searched by hops.
The source: the vertex of highest degree (the smallest such id)."""
DIRECTED = False

_source = {}


def _highest_degree(degrees):
    import numpy as np
    return int(np.argmax(np.asarray(degrees)))


def numagraph_run(ng, g):
    s = _source.setdefault("ng", _highest_degree(g.out_degree))
    dist, pred = ng.sssp(g, s, predecessors=True)
    reached = dist < float("inf")
    return {"reached": int(reached.sum()), "sum_dist": float(dist[reached].sum())}


def networkit_run(nk, G):
    import numpy as np
    s = _source.setdefault("nk", _highest_degree([G.degree(v) for v in range(G.numberOfNodes())]))
    d = nk.distance.Dijkstra(G, s, storePaths=True)
    d.run()
    dist = np.asarray(d.getDistances())
    reached = dist < 1e300
    return {"reached": int(reached.sum()), "sum_dist": float(dist[reached].sum())}

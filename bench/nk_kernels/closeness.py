"""Exact closeness centrality (NetworkX's wf_improved definition, which is
NetworKit's GENERALIZED variant, normalized): numagraph's bit-parallel
multi-source BFS against NetworKit's one BFS per source."""
DIRECTED = False


def numagraph_run(ng, g):
    c = ng.closeness_centrality(g)
    return {"max_closeness": round(float(c.max()), 12), "sum_closeness": round(float(c.sum()), 6)}


def networkit_run(nk, G):
    cc = nk.centrality.Closeness(G, True, nk.centrality.ClosenessVariant.GENERALIZED)
    cc.run()
    s = cc.scores()
    return {"max_closeness": round(float(max(s)), 12), "sum_closeness": round(float(sum(s)), 6)}

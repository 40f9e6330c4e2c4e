"""Exact harmonic centrality (unnormalized, as networkx.harmonic_centrality):
numagraph's bit-parallel multi-source BFS against NetworKit's
HarmonicCloseness (one BFS per source)."""
DIRECTED = False


def numagraph_run(ng, g):
    h = ng.harmonic_centrality(g)
    return {"max_harmonic": round(float(h.max()), 6)}


def networkit_run(nk, G):
    hc = nk.centrality.HarmonicCloseness(G, False)
    hc.run()
    return {"max_harmonic": round(float(max(hc.scores())), 6)}

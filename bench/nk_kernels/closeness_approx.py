"""Approximate closeness from 256 sampled sources: numagraph's sampled mode
(Eppstein-Wang estimator, one 256-wide bit-parallel BFS) against NetworKit's
ApproxCloseness (Cohen et al., 256 samples, epsilon 0.1, normalized). The
quality figure is the highest estimated score (exact on these graphs would
take minutes)."""
DIRECTED = False
SAMPLES = 256


def numagraph_run(ng, g):
    c = ng.closeness_centrality(g, samples=SAMPLES, seed=1)
    return {"max_closeness": round(float(c.max()), 4)}


def networkit_run(nk, G):
    ac = nk.centrality.ApproxCloseness(G, SAMPLES, 0.1, True)
    ac.run()
    return {"max_closeness": round(float(max(ac.scores())), 4)}

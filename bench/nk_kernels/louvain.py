"""Louvain communities: numagraph's parallel Louvain against NetworKit's PLM
(refine=False, gamma = the resolution), both at resolution 1; the quality
figure is the modularity each reaches (NetworKit's own Modularity measure for
its partition, numagraph's reported one: both networkx.community.modularity's
definition)."""
DIRECTED = False
RESOLUTION = 1.0


def numagraph_run(ng, g):
    r = ng.communities(g, resolution=RESOLUTION)
    return {"modularity": float(r.modularity), "communities": int(r.communities)}


def networkit_run(nk, G):
    plm = nk.community.PLM(G, refine=False, gamma=RESOLUTION)
    plm.run()
    partition = plm.getPartition()
    return {"modularity": float(nk.community.Modularity().getQuality(partition, G)),
            "communities": int(partition.numberOfSubsets())}

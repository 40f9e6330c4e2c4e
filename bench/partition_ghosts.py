#!/usr/bin/env python3
"""How much a 2-D or vertex-cut partition could save over 1-D blocks, from the ghosts.

Usage:
    python bench/partition_ghosts.py GRAPH [--ranks 2 4 8] [--hub-degree 100]

Cuts the graph into P contiguous blocks balanced by degree + 1 (as numagraph-mpi's
bfs/cc cut, on all arcs) and prints, per P: the ghosts of the largest rank as a share
of n (the values it receives per step; a 2-D partition moves about 2/sqrt(P) n), and the
share of those ghosts with degree >= --hub-degree (all a vertex-cut of such hubs could
remove), with the share of vertices and arcs the hubs hold. Degrees count both directions.
"""
import argparse

import numpy as np

import numagraph as ng


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("graph")
    ap.add_argument("--ranks", type=int, nargs="+", default=[2, 4, 8])
    ap.add_argument("--hub-degree", type=int, default=100)
    args = ap.parse_args()
    a = ng.read(args.graph, directed=True).to_scipy().tocsr()  # both directions are counted below
    t = a.tocsc()
    n = a.shape[0]
    deg = np.diff(a.indptr) + np.diff(t.indptr)
    hubs = deg >= args.hub_degree
    print(f"{args.graph}: n = {n}; degree >= {args.hub_degree}: {hubs.mean():.1%} of the vertices, "
          f"{deg[hubs].sum() / deg.sum():.0%} of the arc ends")
    print("| ranks | ghosts of the largest rank / n | 2-D: 2/sqrt(P) | ghosts that are hubs |")
    print("|---:|---:|---:|---:|")
    cum = np.cumsum(deg + 1)
    for p in args.ranks:
        cuts = [0] + [int(np.searchsorted(cum, cum[-1] * k / p)) for k in range(1, p)] + [n]
        worst, worst_hubs = 0, 0
        for r in range(p):
            lo, hi = cuts[r], cuts[r + 1]
            ends = np.concatenate([a.indices[a.indptr[lo]:a.indptr[hi]], t.indices[t.indptr[lo]:t.indptr[hi]]])
            ghosts = np.unique(ends[(ends < lo) | (ends >= hi)])
            if len(ghosts) > worst:
                worst, worst_hubs = len(ghosts), int(hubs[ghosts].sum())
        print(f"| {p} | {worst / n:.2f} | {2 / np.sqrt(p):.2f} | {worst_hubs / max(worst, 1):.0%} |")


if __name__ == "__main__":
    main()

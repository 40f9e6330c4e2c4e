#!/usr/bin/env python3
"""How far from PageRank's fixed point each variant stops, and what it costs.

Usage: bench/pr_true_error.py GRAPH [GRAPH ...] [--tolerances 1e-4,1e-6] [--cap 200]
                              [--trials 3] [--undirected]

GRAPH is a file numagraph.read() takes, or kron:SCALE / urand:SCALE for a generated
graph (numagraph.generate's defaults); --undirected reads the files as undirected (each
edge both ways, as bench/peers.py's symmetric graphs). Both variants stop by the same
rule, the L1 change of one sweep below the tolerance; this script asks what that rule
buys. For each graph it computes the fixed point (Jacobi with double contributions until
the change falls below 1e-13), then for each variant and tolerance (at most --cap sweeps)
prints one row:
  sweeps          the sweeps the run took
  change          the last sweep's L1 change (what the stopping rule saw)
  error           the L1 distance of its scores from the fixed point
  error / change  how far from the fixed point the rule left the run, per unit of change
  seconds         the median of --trials calls through the Python package
  other variant to match
                  the fewest fixed sweeps (tolerance 0) of the other variant that come as
                  close to the fixed point as this run did; fewer than `sweeps` means the
                  other variant gets the same accuracy in fewer sweeps
Gapbs's model (dangling mass dropped, damping 0.85), the package's default thread count.
"""
import argparse
import statistics
import time

import numpy as np

import numagraph

VARIANTS = ("gauss-seidel", "jacobi")


def load(spec, undirected):
    kind, _, scale = spec.partition(":")
    if kind == "kron" and scale:
        return numagraph.generate.kronecker(int(scale))
    if kind == "urand" and scale:
        return numagraph.generate.uniform(int(scale))
    return numagraph.read(spec, directed=False) if undirected else numagraph.read(spec)


def run(g, variant, tolerance, iterations):
    # Fixed sweeps would let Gauss-Seidel block by cache segments, a different
    # (block) iteration; the runs to a tolerance do not block it.
    block = "off" if variant == "gauss-seidel" and tolerance == 0 else "auto"
    return numagraph.pagerank(g, variant=variant, tolerance=tolerance, max_iterations=iterations,
                              return_info=True, cache_block=block)


def sweeps_to_reach(g, variant, error, fixed, cap):
    """The fewest fixed sweeps of `variant` whose scores lie within `error` of the fixed point."""
    def close(k):
        return float(np.abs(run(g, variant, 0.0, k)[0] - fixed).sum()) <= error
    lo, hi = 0, 1  # lo sweeps are known not to be close enough
    while not close(hi):
        if hi >= cap:
            return None
        lo, hi = hi, min(2 * hi, cap)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if close(mid) else (mid, hi)
    return hi


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--tolerances", default="1e-4,1e-6")
    ap.add_argument("--cap", type=int, default=200, help="most sweeps of any run (default 200)")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--undirected", action="store_true", help="read the files as undirected graphs")
    args = ap.parse_args()
    tolerances = [float(t) for t in args.tolerances.split(",")]
    print("graph | tolerance | variant | sweeps | change | error | error / change | seconds | other variant to match")
    for spec in args.graphs:
        g = load(spec, args.undirected)
        fixed, sweeps, change = run(g, "jacobi", 1e-13, 100000)
        if change >= 1e-13:
            raise SystemExit(f"{spec}: the reference did not converge ({sweeps} sweeps, change {change:.2e})")
        for tol in tolerances:
            for variant in VARIANTS:
                times = []
                for _ in range(args.trials):
                    start = time.perf_counter()
                    scores, sweeps, change = run(g, variant, tol, args.cap)
                    times.append(time.perf_counter() - start)
                error = float(np.abs(scores - fixed).sum())
                other = VARIANTS[1 - VARIANTS.index(variant)]
                match = sweeps_to_reach(g, other, error, fixed, args.cap)
                ratio = f"{error / change:.2f}" if change > 0 else "-"
                print(f"{spec} | {tol:g} | {variant} | {sweeps} | {change:.2e} | {error:.2e} | {ratio} | "
                      f"{statistics.median(times):.4f} | {other} {match if match is not None else f'> {args.cap}'}",
                      flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""What each vertex order (docs/reordering.md) costs and buys, through the CLI:
per graph and order, the reorder cost (`reorder_s`, `reorder_bfs_equiv`), the
locality (`numagraph info --locality`: bandwidth, average log2 gap, per-thread
working-set lines of one BFS), and the median time of BFS, PageRank, CC and
BC (4 sources) relative to `none`.

Each kernel run is one process `numagraph KERNEL G --reorder ORDER --json -n
TRIALS`; its median_s leaves out loading and the renumbering (timed apart as
reorder_s). Orders are interleaved inside each of --reps rounds (ratios in one
run: every order of a graph sees the same machine state), and the table gives
the median over the rounds of each order's median_s, divided by none's.
BFS and BC take the same random roots in every order (--seed; the roots are
the user's ids). Graphs are converted to .ngr once (loading is not timed).

Usage:
  bench/reorder_kernels.py --bin build-h1/numagraph [--reps 3] [--trials 3]
      [--orders none,degree,dbg,rcm,adl] [--graph NAME=PATH ...] [--kron 20] [--json out.json]
Without --graph: USA-road-d.NY, PGPgiantcompo and soc-Slashdot0902 from ../shared/data.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
DEFAULT_GRAPHS = [("road-NY", "USA-road-d.NY/USA-road-d.NY.gr.gz"), ("PGPgiantcompo", "PGPgiantcompo/PGPgiantcompo.graph"),
                  ("Slashdot", "soc-Slashdot0902/soc-Slashdot0902.txt.gz")]
KERNELS = [("bfs", []), ("pr", []), ("cc", []), ("bc", ["--sources", "4"])]


def run_json(binary, *args):
    cmd = [binary, *map(str, args), "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.strip()}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")][-1]


def to_ngr(binary, name, src, tmp):
    out = os.path.join(tmp, f"{name}.ngr")
    if src.startswith("kron:"):
        subprocess.run([binary, "reorder", "--kron", src[5:], out, "--order", "none"], check=True, capture_output=True)
    else:
        subprocess.run([binary, "convert", src, out, "--drop-self-loops", "--dedupe"], check=True, capture_output=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build-h1/numagraph")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--orders", default="none,degree,dbg,rcm,adl")
    ap.add_argument("--graph", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("--kron", type=int, help="also a Kronecker graph of 2^N vertices (kronN)")
    ap.add_argument("--json", help="write the raw figures here")
    args = ap.parse_args()
    orders = args.orders.split(",")
    if orders[0] != "none":
        orders.insert(0, "none")
    graphs = [tuple(g.split("=", 1)) for g in args.graph]
    if not graphs:
        graphs = [(n, str(DATA / p)) for n, p in DEFAULT_GRAPHS if (DATA / p).exists()]
    if args.kron:
        graphs.insert(0, (f"kron{args.kron}", f"kron:{args.kron}"))
    load = os.getloadavg()
    print(f"load before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; reps {args.reps}, trials {args.trials}", flush=True)
    rows = []
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for name, src in graphs:
            path = to_ngr(args.bin, name, src, tmp)
            loc = {o: run_json(args.bin, "info", "--locality", path, "--reorder", o) for o in orders}
            times = {(k, o): [] for k, _ in KERNELS for o in orders}
            cost = {o: [] for o in orders}
            for _ in range(args.reps):
                for kernel, flags in KERNELS:
                    for o in orders:
                        rec = run_json(args.bin, kernel, path, "--reorder", o, "-n", args.trials, *flags)
                        times[(kernel, o)].append(rec["median_s"])
                        if o != "none":
                            cost[o].append((rec["reorder_s"], rec["reorder_bfs_equiv"]))
            for o in orders:
                med = {k: statistics.median(times[(k, o)]) for k, _ in KERNELS}
                ratio = {k: med[k] / statistics.median(times[(k, "none")]) for k, _ in KERNELS}
                rs = statistics.median(c[0] for c in cost[o]) if cost[o] else 0.0
                rb = statistics.median(c[1] for c in cost[o]) if cost[o] else 0.0
                rows.append({"graph": name, "order": o, "reorder_s": rs, "reorder_bfs_equiv": rb,
                             "bandwidth": loc[o]["bandwidth"], "log_gap": loc[o]["average_log_gap"],
                             "ws_lines": loc[o]["bfs_working_set_lines"], "ideal_lines": loc[o]["ideal_lines"],
                             "n": loc[o]["num_vertices"], "seconds": med, "ratio": ratio})
            print(f"# {name} done at {time.time() - start:.0f} s", flush=True)
    load = os.getloadavg()
    print(f"load after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; wall {time.time() - start:.0f} s\n")
    print("| graph | order | reorder s | BFS-equiv | bandwidth | avg log2 gap | BFS lines/thread (ideal) | "
          "BFS | PR | CC | BC(4) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        cells = " | ".join(f"{r['ratio'][k]:.2f}" if r["order"] != "none" else f"{r['seconds'][k] * 1e3:.1f} ms"
                           for k, _ in KERNELS)
        print(f"| {r['graph']} | {r['order']} | {r['reorder_s']:.3f} | {r['reorder_bfs_equiv']:.1f} | "
              f"{r['bandwidth']:,} | {r['log_gap']:.2f} | {r['ws_lines']:,.0f} ({r['ideal_lines']:,.0f}) | {cells} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

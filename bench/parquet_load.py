#!/usr/bin/env python3
"""Parquet vs .el: time to a CSR graph in Python, the same edges either way.

Usage: .venv/bin/python bench/parquet_load.py [--scale 20] [--rounds 5] [--threads 2]
                                              [--compression snappy] [--workdir DIR]

Writes the Kronecker graph of --scale (numagraph.generate.kronecker, cleaned:
the graph `numagraph generate kron --scale N` gives) once as x.el
(Graph.save: each undirected edge once, text) and once as x.parquet
(Graph.to_parquet: the same edges, uint32 columns, undirected in the schema
metadata). Then alternates, round by round so machine noise hits both alike:
  - numagraph.read(x.el, directed=False)   : C++ parallel text parser + CSR build
  - numagraph.read_parquet(x.parquet)      : pyarrow read_table + Graph.from_arrow
    (+ the same CSR build), split into read_table and build
and prints medians and the ratio parquet / el (below 1: Parquet loads faster).
Both graphs are checked equal (indptr, indices). Files stay in the page cache
(written just before), so this times parsing and building, not the disk.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

import numagraph as ng


def timed(f):
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--compression", default="snappy", help="Parquet codec: snappy, zstd, lz4, none...")
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="numagraph-parquet-"))
    work.mkdir(parents=True, exist_ok=True)
    ng.config(threads=args.threads)
    import pyarrow

    pyarrow.set_cpu_count(args.threads)
    el, parquet = work / f"kron{args.scale}.el", work / f"kron{args.scale}.parquet"
    g = ng.generate.kronecker(args.scale)
    g.save(el)
    g.to_parquet(parquet, compression=args.compression)
    del g
    print(f"kron{args.scale}: .el {el.stat().st_size / 1e6:.0f} MB, .parquet ({args.compression}) "
          f"{parquet.stat().st_size / 1e6:.0f} MB; {args.threads} threads, {args.rounds} interleaved rounds, "
          f"files in {work}")
    t_el, t_pq, t_read, t_build = [], [], [], []
    for _ in range(args.rounds):
        a, s = timed(lambda: ng.read(el, directed=False))
        t_el.append(s)
        del a
        table, s1 = timed(lambda: pq.read_table(parquet, memory_map=True))
        b, s2 = timed(lambda: ng.Graph.from_arrow(table, drop_self_loops=True))
        del table, b
        t_read.append(s1)
        t_build.append(s2)
        b, s = timed(lambda: ng.read_parquet(parquet))
        t_pq.append(s)
        del b
    a, b = ng.read(el, directed=False), ng.read_parquet(parquet)
    assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices), "graphs differ"
    med = statistics.median
    print(f"  read(.el)            median {med(t_el):.3f} s   (runs {', '.join(f'{x:.3f}' for x in t_el)})")
    print(f"  read_parquet(.pq)    median {med(t_pq):.3f} s   (runs {', '.join(f'{x:.3f}' for x in t_pq)})")
    print(f"    of which read_table {med(t_read):.3f} s, from_arrow + build {med(t_build):.3f} s")
    print(f"  ratio parquet / el: {med(t_pq) / med(t_el):.2f}  ({a.num_vertices} vertices, {a.num_edges} edges)")
    print("  load:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if not args.workdir:
        os.remove(el)
        os.remove(parquet)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Load benchmark: parse throughput of .el and load time of .ngr.

Usage: bench/load_bench.py [--scales 20,22] [--rounds 5] [--workdir DIR]
       GAPBS_DIR=/path/to/gapbs bench/load_bench.py   (adds gapbs's converter side by side)

For each Kronecker scale the script writes the graph once as .el and .ngr
(numagraph generate), then alternates, round by round:
  - numagraph info x.el   : read_s = parse time (text -> edge arrays), build_s = CSR build
  - numagraph info x.ngr  : load_s = mmap + checksum (the file is in the page cache)
  - gapbs converter -f x.el -b x.sg : its "Read Time" (parse) and "Build Time"
and prints medians: MB/s and edges/s of parsing, GB/s of .ngr loading, and the
parse-time ratio gapbs / numagraph (above 1: numagraph parses faster).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NUMAGRAPH = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))


def run(cmd, env=None):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=True, env=env).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="20,22")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    gapbs = os.environ.get("GAPBS_DIR")
    work = Path(args.workdir or tempfile.mkdtemp(prefix="numagraph-load-"))
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    for scale in map(int, args.scales.split(",")):
        el, ngr, sg = work / f"kron{scale}.el", work / f"kron{scale}.ngr", work / f"kron{scale}_conv.sg"
        if not el.exists():
            run([NUMAGRAPH, "generate", "kron", "--scale", scale, "-o", el])
        if not ngr.exists():
            run([NUMAGRAPH, "generate", "kron", "--scale", scale, "-o", ngr])
        size_el, size_ngr = el.stat().st_size, ngr.stat().st_size
        parse, build, load, gparse, gbuild = [], [], [], [], []
        edges = 0
        for _ in range(args.rounds):
            info = json.loads(run([NUMAGRAPH, "info", el, "--json", "-t", args.threads]))
            parse.append(info["read_s"])
            build.append(info["build_s"])
            edges = info["num_arcs"]
            load.append(json.loads(run([NUMAGRAPH, "info", ngr, "--json", "-t", args.threads]))["load_s"])
            if gapbs:
                out = run([Path(gapbs) / "converter", "-f", el, "-b", sg], env=env)
                gparse.append(float(re.search(r"Read Time:\s+([0-9.]+)", out).group(1)))
                gbuild.append(float(re.search(r"Build Time:\s+([0-9.]+)", out).group(1)))
        p, b, l = statistics.median(parse), statistics.median(build), statistics.median(load)
        print(f"kron{scale}: .el {size_el / 2**20:.0f} MiB, {edges:,} edges")
        print(f"  numagraph parse   {p:.3f} s  {size_el / p / 1e6:.0f} MB/s  {edges / p / 1e6:.1f} M edges/s; build {b:.3f} s")
        print(f"  numagraph .ngr    {l:.4f} s  {size_ngr / l / 1e9:.2f} GB/s ({size_ngr / 2**20:.0f} MiB)")
        if gparse:
            gp, gb = statistics.median(gparse), statistics.median(gbuild)
            print(f"  gapbs converter   parse {gp:.3f} s  {size_el / gp / 1e6:.0f} MB/s; build {gb:.3f} s")
            print(f"  parse speedup gapbs/numagraph: {gp / p:.2f}x")


if __name__ == "__main__":
    main()

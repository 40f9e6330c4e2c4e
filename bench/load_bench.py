#!/usr/bin/env python3
"""Load benchmark: parse throughput of .el, load speed of .ngr, peak memory of building.

Usage: bench/load_bench.py [--scales 20,22] [--rounds 5] [--threads 2] [--workdir DIR] [--old BIN]
       GAPBS_DIR=/path/to/gapbs bench/load_bench.py   (adds gapbs's converter side by side)

For each Kronecker scale the script writes the graph once as .el and .ngr
(`numagraph generate kron --scale N -o FILE`), then alternates, round by round
(trials interleaved so machine noise hits every contender alike):
  - numagraph info x.el --json   : read_s = parse (text -> edge arrays), build_s = CSR build
  - numagraph info x.ngr --json  : load_s = mmap + checksum (file in the page cache)
  - ... --no-checksum            : load_s = mmap only
  - gapbs converter -f x.el -b x.sg : its "Read Time" (parse) and "Build Time"
  - with --old BIN: BIN info x.el --json and x.el -s (another build of numagraph)
and prints medians: MB/s and edges/s of parsing, GB/s of .ngr loading, and the
parse-time ratio gapbs / numagraph (above 1: numagraph parses faster); with
--old, the CSR build of both binaries, directed (with in-edges) and -s, and new/old.
Finally it runs `numagraph convert x.el x_clean.ngr --dedupe --drop-self-loops`
under /usr/bin/time -v and reports peak RSS against the final CSR and the
parsed edge list (16 bytes per edge).
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
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=True, env=env)
    return proc.stdout, proc.stderr


def info(path, threads, *flags, binary=NUMAGRAPH):
    return json.loads(run([binary, "info", path, "--json", "-t", threads, *flags])[0])


def peak_rss_bytes(cmd, env=None):
    _, err = run(["/usr/bin/time", "-v", *cmd], env=env)
    return int(re.search(r"Maximum resident set size \(kbytes\):\s+(\d+)", err).group(1)) * 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="20,22")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--no-rss", action="store_true", help="skip the peak-memory measurement")
    ap.add_argument("--old", default=None, help="another numagraph binary: compare CSR builds and peak RSS")
    args = ap.parse_args()
    gapbs = os.environ.get("GAPBS_DIR")
    work = Path(args.workdir or tempfile.mkdtemp(prefix="numagraph-load-"))
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    print(f"numagraph {NUMAGRAPH}, {args.threads} threads, {args.rounds} interleaved rounds, files in {work}")
    for scale in map(int, args.scales.split(",")):
        el, ngr, sg = work / f"kron{scale}.el", work / f"kron{scale}.ngr", work / f"kron{scale}_conv.sg"
        if not el.exists():
            run([NUMAGRAPH, "generate", "kron", "--scale", scale, "-o", el])
        if not ngr.exists():
            run([NUMAGRAPH, "generate", "kron", "--scale", scale, "-o", ngr])
        size_el, size_ngr = el.stat().st_size, ngr.stat().st_size
        parse, build, load, load_nosum, gparse, gbuild = [], [], [], [], [], []
        builds = {(b, f): [] for b in ("new", "old") for f in ("", "-s")} if args.old else {}
        edges = 0
        for r in range(args.rounds):
            for b, f in sorted(builds, reverse=r % 2 == 1):  # the binaries alternate who goes first
                builds[(b, f)].append(info(el, args.threads, *([f] if f else []),
                                           binary=args.old if b == "old" else NUMAGRAPH)["build_s"])
            i = info(el, args.threads)
            parse.append(i["read_s"])
            build.append(i["build_s"])
            edges = i["num_arcs"]
            load.append(info(ngr, args.threads)["load_s"])
            load_nosum.append(info(ngr, args.threads, "--no-checksum")["load_s"])
            if gapbs:
                out, _ = run([Path(gapbs) / "converter", "-f", el, "-b", sg], env=env)
                gparse.append(float(re.search(r"Read Time:\s+([0-9.]+)", out).group(1)))
                gbuild.append(float(re.search(r"Build Time:\s+([0-9.]+)", out).group(1)))
        p, b = statistics.median(parse), statistics.median(build)
        l, ln = statistics.median(load), statistics.median(load_nosum)
        print(f"kron{scale}: .el {size_el / 1e6:.0f} MB, {edges:,} edges; .ngr {size_ngr / 1e6:.0f} MB")
        print(f"  numagraph .el parse  {p:.3f} s  {size_el / p / 1e6:.0f} MB/s  {edges / p / 1e6:.1f} M edges/s"
              f"   (CSR build {b:.3f} s)")
        print(f"  numagraph .ngr load  {l:.4f} s  {size_ngr / l / 1e9:.2f} GB/s with checksum;"
              f"  {ln:.4f} s  {size_ngr / ln / 1e9:.2f} GB/s without")
        if gparse:
            gp, gb = statistics.median(gparse), statistics.median(gbuild)
            print(f"  gapbs converter      parse {gp:.3f} s  {size_el / gp / 1e6:.0f} MB/s   (build {gb:.3f} s)")
            print(f"  parse speedup gapbs/numagraph: {gp / p:.2f}x")
        for f in ("", "-s") if builds else ():
            o, n = statistics.median(builds[("old", f)]), statistics.median(builds[("new", f)])
            print(f"  CSR build {f or 'directed'}: new {n:.3f} s, old {o:.3f} s, new/old {n / o:.2f} "
                  f"(new {min(builds[('new', f)]):.3f}-{max(builds[('new', f)]):.3f} s)")
        if not args.no_rss:
            clean = work / f"kron{scale}_clean.ngr"
            for binary in [NUMAGRAPH] + ([args.old] if args.old else []):
                rss = peak_rss_bytes([binary, "convert", el, clean, "--dedupe", "--drop-self-loops", "-t",
                                      args.threads])
                csr = info(clean, args.threads)["bytes"]
                edge_list = 16 * edges
                print(f"  peak RSS of {Path(binary).name} convert --dedupe --drop-self-loops: {rss / 1e6:.0f} MB = "
                      f"{rss / csr:.2f}x the final CSR ({csr / 1e6:.0f} MB), {rss / size_el:.2f} bytes per input "
                      f"byte; edge list {edge_list / 1e6:.0f} MB; 2x CSR + edge list = "
                      f"{(2 * csr + edge_list) / 1e6:.0f} MB")


if __name__ == "__main__":
    main()

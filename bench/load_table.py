#!/usr/bin/env python3
"""Loading a user's text graph: numagraph against gapbs's converter and NetworKit's reader.

The input is gapbs's own Kronecker graph as an edge list (`converter -gSCALE -e`:
both directions of every edge, one arc per line), the same arcs as a CSV with a
header line, and the gzip of each. Every round runs every contender once, in a
fresh process, rounds interleaved, so machine noise hits all alike; the table
holds medians.

  numagraph info FILE --json -t T   load_s (parse read_s + CSR build_s), and peak RSS
  gapbs converter -f FILE.el -b out.sg   its Read Time and Build Time (the .sg write is
                                   not counted), and peak RSS
  NetworKit graphio.readGraph(FILE.el, EdgeListSpaceZero)   wall time of the call (in a
                                   worker process), and that process's peak RSS

Usage: bench/load_table.py --gapbs DIR [--scale 20] [--rounds 5] [--threads 2]
           [--networkit-python PY] [--workdir DIR] [--markdown] [--record FILE]
The files are written once into --workdir (default /tmp/numagraph-load-table).
"""
import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_record  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
NUMAGRAPH = Path(os.environ.get("NUMAGRAPH_BIN", REPO / "build" / "numagraph"))

NETWORKIT_WORKER = """
import sys, time, networkit as nk
nk.setNumberOfThreads(int(sys.argv[2]))
t = time.perf_counter()
G = nk.graphio.readGraph(sys.argv[1], nk.Format.EdgeListSpaceZero)
print(time.perf_counter() - t, G.numberOfNodes(), G.numberOfEdges())
"""


def timed_rss(cmd, env=None):
    """(stdout, peak RSS bytes) of cmd under /usr/bin/time."""
    p = subprocess.run(["/usr/bin/time", "-f", "peak_kb %M", *map(str, cmd)], capture_output=True, text=True,
                       env=env)
    if p.returncode != 0:
        sys.exit(f"load_table: {' '.join(map(str, cmd))} failed:\n{p.stderr}")
    kb = int(re.search(r"peak_kb (\d+)", p.stderr).group(1))
    return p.stdout, kb * 1024


def make_inputs(gapbs, scale, work):
    el = work / f"kron{scale}.el"
    if not el.exists():
        subprocess.run([gapbs / "converter", f"-g{scale}", "-e", el], check=True, capture_output=True)
    csv = work / f"kron{scale}.csv"
    if not csv.exists():
        with open(el) as src, open(csv, "w") as dst:
            dst.write("source,target\n")
            for line in src:
                dst.write(line.replace(" ", ",", 1))
    for f in (el, csv):
        gz = Path(str(f) + ".gz")
        if not gz.exists():
            with open(f, "rb") as src, gzip.open(gz, "wb", compresslevel=6) as dst:
                shutil.copyfileobj(src, dst, 1 << 24)
    return [el, csv, Path(str(el) + ".gz"), Path(str(csv) + ".gz")]


def numagraph_row(path, threads):
    out, rss = timed_rss([NUMAGRAPH, "info", path, "--json", "-t", threads])
    rec = json.loads(out.strip().splitlines()[-1])
    return {"load": rec["load_s"], "parse": rec["read_s"], "build": rec["build_s"], "rss": rss}


def gapbs_row(gapbs, path, threads, work):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out, rss = timed_rss([gapbs / "converter", "-f", path, "-b", work / "out.sg"], env=env)
    parse = float(re.search(r"Read Time:\s+([\d.]+)", out).group(1))
    build = float(re.search(r"Build Time:\s+([\d.]+)", out).group(1))
    return {"load": parse + build, "parse": parse, "build": build, "rss": rss}


def networkit_row(python, path, threads):
    out, rss = timed_rss([python, "-c", NETWORKIT_WORKER, path, threads])
    return {"load": float(out.split()[0]), "parse": None, "build": None, "rss": rss}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gapbs", type=Path, required=True, help="a built gapbs tree (its converter)")
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--networkit-python", default=os.environ.get("NETWORKIT_PYTHON"),
                    help="a python that imports networkit (default $NETWORKIT_PYTHON; none: no NetworKit row)")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/numagraph-load-table"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--record", default=None,
                    help="also write a result record here (bench/bench_record.py) for bench/perf_page.py")
    a = ap.parse_args()
    a.workdir.mkdir(parents=True, exist_ok=True)
    inputs = make_inputs(a.gapbs, a.scale, a.workdir)
    el = inputs[0]
    contenders = [(f"numagraph info {p.name}", p, lambda p=p: numagraph_row(p, a.threads)) for p in inputs]
    contenders.append((f"gapbs converter -f {el.name}", el, lambda: gapbs_row(a.gapbs, el, a.threads, a.workdir)))
    if a.networkit_python:
        contenders.append((f"NetworKit readGraph {el.name}", el, lambda: networkit_row(a.networkit_python, el, a.threads)))
    results = {name: [] for name, _, _ in contenders}
    for r in range(a.rounds):
        order = contenders if r % 2 == 0 else list(reversed(contenders))
        for name, _, run in order:
            results[name].append(run())
    (a.workdir / "out.sg").unlink(missing_ok=True)

    def median(name, key):
        vals = [x[key] for x in results[name] if x[key] is not None]
        return statistics.median(vals) if vals else None

    base = median(contenders[0][0], "load")
    rows = []
    for name, path, _ in contenders:
        row = {"contender": name, "bytes": path.stat().st_size, **{k: median(name, k) for k in ("load", "parse", "build", "rss")}}
        row["ratio"] = row["load"] / base
        rows.append(row)
        print(json.dumps(row), flush=True)
    facts = {"scale": a.scale, "arcs": sum(1 for _ in open(el, "rb")), "el_bytes": el.stat().st_size,
             "rounds": a.rounds}
    if a.record or a.markdown:
        versions = {"gapbs converter": bench_record.peer_version(a.gapbs)}
        if a.networkit_python:
            versions["NetworKit"] = subprocess.run([a.networkit_python, "-c", "import networkit; print(networkit.__version__)"],
                                                   capture_output=True, text=True).stdout.strip()
        record = bench_record.make("load", rows, a.threads, NUMAGRAPH, versions, facts)
        if a.record:
            bench_record.write(a.record, record)
    if a.markdown:
        print("\n" + "\n".join(bench_record.markdown_header(record) + table_lines(record)))


def table_lines(record):
    """The caption and Markdown table of a load record."""
    f, threads = record["facts"], record["machine"]["threads"]
    lines = [f"Kronecker scale {f['scale']} from gapbs's converter: {f['arcs']:,} arcs, {f['el_bytes'] / 1e6:.0f} MB "
             f"as .el; {threads} threads, {f['rounds']} rounds interleaved, medians; ratio = load / numagraph's .el load",
             "",
             "| contender | input MB | load s | parse s | CSR build s | peak RSS MiB | ratio |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    fmt = lambda x: "—" if x is None else f"{x:.2f}"
    for w in record["rows"]:
        lines.append(f"| `{w['contender']}` | {w['bytes'] / 1e6:.0f} | {fmt(w['load'])} | {fmt(w['parse'])} | "
                     f"{fmt(w['build'])} | {w['rss'] / 2**20:.0f} | {w['ratio']:.2f} |")
    return lines


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""numagraph from Python against NetworKit and igraph, each library in its own process.

Kernels (plug-ins of bench/nk_kernels/, run by bench/vs_networkit.py's workers):
  bfs       hop counts from the vertex of highest degree
  pagerank  damping 0.85; numagraph and NetworKit stop at an L1 change < 1e-4 or 20
            iterations; igraph's PRPACK has no tolerance and solves to ~1e-10
  pagerank_jacobi  the same, numagraph with variant="jacobi" (advised on Kronecker graphs)
  cc        connected components
  bc        betweenness from 8 sources (the same for numagraph and igraph; NetworKit's
            EstimateBetweenness from 8 random pivots, the same work)
Each round starts one worker process per library, in an order that reverses every other
round; a worker builds its graph from the same edge arrays (not timed), runs each kernel
once to warm up, then times --reps calls. The table gives the medians over the rounds, and
checks that the answers agree (vertices reached and depth, number of components, top
vertex of BC and of PageRank); for PageRank it states each library's L1 error to its own
converged scores and the L1 difference between the libraries' scores (scaled to sum 1).

--mixed measures the case the separate processes avoid: numagraph and NetworKit in ONE
process (numagraph's package added to NetworKit's python): each numagraph kernel alone and
right after a NetworKit PageRank (a parallel call), and the same for NetworKit's kernels
after numagraph's PageRank; once per OpenMP setting of MIXED_SETTINGS, each setting in its
own process, settings interleaved over the rounds.

--cli-overhead: each kernel from Python against the CLI's own timing on the same graph.

Usage:
  python bench/python_compare.py [--graphs kron14 kron18] [--kernels bfs pagerank ...]
      [--rounds 5] [--reps 5] [--threads 2] [--networkit-python PY] [--igraph-python PY]
      [--record FILE] [--markdown]
  python bench/python_compare.py --mixed [--graphs kron14] [--rounds 5] [--reps 30] [--record FILE]
  NUMAGRAPH_BIN=build/numagraph python bench/python_compare.py --cli-overhead [--graphs kron18]
Needs: networkit and igraph importable by --networkit-python / --igraph-python (default:
$NETWORKIT_PYTHON, else this python); a library that is not is skipped, with a message.
"""
import argparse
import json
import os
import site
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench_record  # noqa: E402
import vs_networkit  # noqa: E402

KERNELS = ["bfs", "pagerank", "pagerank_jacobi", "cc", "bc"]
MIXED_KERNELS = ["bfs", "pagerank", "cc", "bc"]
NAMES = {"numagraph": "numagraph", "networkit": "NetworKit", "igraph": "igraph"}
# OpenMP variables the comparison clears, so that every library runs as it comes.
OMP_KNOBS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")
# --mixed: the environment each setting's process starts with (each OpenMP runtime reads it
# when it is loaded), and what is set between importing numagraph and importing networkit.
MIXED_SETTINGS = {"default": ({}, {}), "GOMP_SPINCOUNT=10000": ({"GOMP_SPINCOUNT": "10000"}, {}),
                  "OMP_WAIT_POLICY=passive": ({"OMP_WAIT_POLICY": "passive"}, {}),
                  "passive, NetworKit only": ({}, {"OMP_WAIT_POLICY": "passive"})}


def importable(python, module):
    try:
        return subprocess.run([python, "-c", f"import {module}"], capture_output=True, timeout=120).returncode == 0
    except OSError:
        return False


def version_of(python, module):
    return subprocess.run([python, "-c", f"import {module}; print({module}.__version__)"],
                          capture_output=True, text=True).stdout.strip() or None


def worker_env(threads, cache_dir, extra=None):
    env = {k: v for k, v in os.environ.items() if k not in OMP_KNOBS}
    env.update(OMP_NUM_THREADS=str(threads), NUMAGRAPH_THREADS=str(threads), NUMAGRAPH_NK_CACHE=cache_dir,
               **(extra or {}))
    return env


def saved_pagerank(cache_dir, kernel, library, n, m):
    path = Path(cache_dir) / f"{kernel}_{library}_{n}_{2 * m}.npy"
    if not path.exists():
        return None
    import numpy as np
    return np.load(path)


def graph_size(graph, cache_dir):
    n, src, _ = vs_networkit.edge_arrays(graph, False, cache_dir)
    return n, int(src.size)


def agreement(kernel, figures, pagerank=None):
    """(do the answers agree, the differences stated) for one row."""
    libs = list(figures)
    if kernel.startswith("pagerank"):
        import numpy as np
        tops = {lib: int(np.argmax(v)) for lib, v in (pagerank or {}).items() if v is not None}
        l1 = {lib: float(np.abs(v - pagerank["numagraph"]).sum()) for lib, v in (pagerank or {}).items()
              if v is not None and lib != "numagraph" and pagerank.get("numagraph") is not None}
        return len(set(tops.values())) <= 1, {"top": tops, "l1_to_numagraph": l1}
    keys = {"bfs": ("reached", "depth"), "cc": ("components",), "bc": ("top",)}[kernel]
    if kernel == "bc":  # NetworKit's pivots are random, not the same sources
        libs = [lib for lib in libs if lib != "networkit"]
    answers = {lib: tuple(figures[lib].get(k) for k in keys) for lib in libs}
    return len(set(answers.values())) == 1, {}


def compare(args):
    pythons = {"numagraph": sys.executable}
    for lib, py in (("networkit", args.networkit_python), ("igraph", args.igraph_python)):
        if importable(py, lib):
            pythons[lib] = py
        else:
            print(f"python_compare: {lib} is not importable by {py}: skipped "
                  f"(pip install {lib}, or pass --{lib}-python)", flush=True)
    env = worker_env(args.threads, args.cache_dir)
    args.load_start = os.getloadavg()[0]
    rows, sizes = [], {}
    for graph in args.graphs:
        sizes[graph] = graph_size(graph, args.cache_dir)
        results = vs_networkit.measure_rounds(args.kernels, graph, pythons, args, env)
        for kernel in args.kernels:
            ran = [lib for lib in pythons if results[lib][kernel]]  # igraph has no pagerank_jacobi
            seconds = {lib: statistics.median(x["seconds"] for x in results[lib][kernel]) for lib in ran}
            figures = {lib: vs_networkit.figures_of(results[lib][kernel]) for lib in ran}
            scores = ({lib: saved_pagerank(args.cache_dir, kernel, lib, *sizes[graph]) for lib in ran}
                      if kernel.startswith("pagerank") else None)
            agree, stated = agreement(kernel, figures, scores)
            row = {"kernel": kernel, "graph": graph, "seconds": seconds,
                   "speedup": {lib: s / seconds["numagraph"] for lib, s in seconds.items() if lib != "numagraph"},
                   "figures": figures, "agree": agree, **stated}
            rows.append(row)
            print(json.dumps(row), flush=True)
            if not agree:
                print(f"python_compare: {kernel} on {graph}: the answers differ: {figures} {stated}", flush=True)
        if args.record:  # after every graph: a run that stops later keeps the earlier ones
            bench_record.write(args.record, make_record(rows, sizes, pythons, args))
    record = make_record(rows, sizes, pythons, args)
    if args.markdown:
        print("\n" + "\n".join(bench_record.markdown_header(record) + table_lines(record)))
    return record


def core_file():
    """numagraph's compiled module, what the comparison times (its compiler goes in the record)."""
    try:
        import numagraph._core
        return numagraph._core.__file__
    except ImportError:
        return None


def make_record(rows, sizes, pythons, args):
    versions = {NAMES[lib]: version_of(py, lib) for lib, py in pythons.items() if lib != "numagraph"}
    facts = {"rounds": args.rounds, "reps": args.reps, "libraries": list(pythons),
             "graphs": {g: list(nm) for g, nm in sizes.items()}, "bc_sources": int(os.environ.get("NG_BC_SOURCES", 8)),
             "load": [args.load_start, os.getloadavg()[0]]}
    return bench_record.make("python-compare", rows, args.threads, core_file(), versions, facts)


def load_note(facts):
    """The machine's 1-minute load average at the start and end of the run, when recorded."""
    load = facts.get("load")
    return (f" Load average (1 min) at start and end: {load[0]:.1f}, {load[1]:.1f} (the run's own threads make "
            "about 2)." if load else "")


def _ms(seconds):
    """Milliseconds, three significant digits below 100 ms (the table's unit)."""
    if seconds is None:
        return "-"
    ms = seconds * 1e3
    return f"{ms:.3f}" if ms < 1 else f"{ms:.2f}" if ms < 10 else f"{ms:.1f}" if ms < 100 else f"{ms:,.0f}"


def _answers(row, libs):
    f = row["figures"]
    ng = f["numagraph"]
    if row["kernel"] == "bfs":
        text = f"{ng['reached']:,} reached, depth {ng['depth']}"
    elif row["kernel"] == "cc":
        text = f"{ng['components']:,} components"
    elif row["kernel"] == "bc":
        nk = f.get("networkit", {}).get("top")
        text = f"top vertex {ng['top']}" + (f" (NetworKit's random pivots: {nk})" if nk not in (None, ng["top"]) else "")
    else:
        libs = [lib for lib in libs if lib in f]
        iters = "/".join(str(f[lib].get("iterations", "-")) for lib in libs if lib != "igraph")
        errors = "/".join(f"{f[lib]['error']:.1e}" for lib in libs if "error" in f[lib])
        l1 = ", ".join(f"{NAMES[lib]} {v:.1e}" for lib, v in row.get("l1_to_numagraph", {}).items())
        text = f"iterations {iters}, L1 error {errors}; L1 to numagraph: {l1}"
    return ("agree: " if row["agree"] else "DIFFER: ") + text


def table_lines(record):
    """The caption and Markdown table of a python-compare record."""
    f = record["facts"]
    libs = f["libraries"]
    others = [lib for lib in libs if lib != "numagraph"]
    sizes = "; ".join(f"{g}: {n:,} vertices, {m:,} edges" for g, (n, m) in f["graphs"].items())
    lines = [f"{record['machine']['threads']} threads, {f['rounds']} rounds x {f['reps']} calls per library, "
             f"each library in its own process, medians; speedup = the library's time / numagraph's "
             f"(above 1: numagraph is faster). BC from {f['bc_sources']} sources. {sizes}. PageRank: iterations "
             "and L1 error (to the library's own converged scores) of numagraph/NetworKit; igraph's is PRPACK's "
             "solve, which has no tolerance; pagerank_jacobi: numagraph with variant=\"jacobi\", which "
             "[pr.md](kernels/pr.md#variants-and-the-automatic-choice) advises on Kronecker graphs."
             + load_note(f), "",
             "| kernel | graph | numagraph ms | " + " | ".join(f"{NAMES[lib]} ms" for lib in others) + " | "
             + " | ".join(f"speedup vs {NAMES[lib]}" for lib in others) + " | answers |",
             "|---|---|---:|" + "---:|" * (2 * len(others)) + "---|"]
    for r in record["rows"]:
        s = r["seconds"]
        lines.append(f"| {r['kernel']} | {r['graph']} | {_ms(s['numagraph'])} | "
                     + " | ".join(_ms(s.get(lib)) for lib in others) + " | "
                     + " | ".join(f"{r['speedup'][lib]:.1f}x" if lib in r["speedup"] else "-" for lib in others)
                     + f" | {_answers(r, libs)} |")
    return lines


# ---- --mixed: numagraph and NetworKit in one process ------------------------------------------

def mixed_worker(args):
    """In NetworKit's python: numagraph right after NetworKit, and alone, per kernel."""
    for path in args.site:
        site.addsitedir(path)
    import warnings
    warnings.simplefilter("ignore")  # numagraph's warning about the second OpenMP runtime: measured here
    n, src, dst = vs_networkit.edge_arrays(args.graph, False, args.cache_dir)
    ng, g = vs_networkit.build_graph("numagraph", n, src, dst, False, args.threads)
    os.environ.update(json.loads(args.late_env))
    nk, G = vs_networkit.build_graph("networkit", n, src, dst, False, args.threads)
    # The call before each timed one: the other library's PageRank, a parallel call (NetworKit's
    # BFS is serial), after which that library's idle threads spin.
    pagerank = vs_networkit.load_plugin("pagerank")
    their_pr = vs_networkit.timed_call(pagerank, "networkit", nk, G)[0]
    our_pr = vs_networkit.timed_call(pagerank, "numagraph", ng, g)[0]

    def clock(call, after=None):
        if after is not None:
            after()
        t = time.perf_counter()
        call()
        return time.perf_counter() - t

    for kernel in args.kernels:
        plugin = vs_networkit.load_plugin(kernel)
        ours = vs_networkit.timed_call(plugin, "numagraph", ng, g)[0]
        theirs = vs_networkit.timed_call(plugin, "networkit", nk, G)[0]
        ours(), theirs(), our_pr(), their_pr()
        time.sleep(0.05)
        alone = [clock(ours) for _ in range(args.reps)]
        after = [clock(ours, their_pr) for _ in range(args.reps)]
        time.sleep(0.05)
        nk_alone = [clock(theirs) for _ in range(args.reps)]
        nk_after = [clock(theirs, our_pr) for _ in range(args.reps)]
        print(json.dumps({"kernel": kernel, "ng_alone": statistics.median(alone),
                          "ng_after_nk": statistics.median(after), "nk_alone": statistics.median(nk_alone),
                          "nk_after_ng": statistics.median(nk_after)}), flush=True)


def mixed(args):
    py = args.networkit_python
    if not importable(py, "networkit"):
        print(f"python_compare --mixed: networkit is not importable by {py}: skipped", flush=True)
        return []
    ours = f"{sys.version_info.major}.{sys.version_info.minor}"
    theirs = subprocess.run([py, "-c", "import sys; print(f'{sys.version_info.major}.{sys.version_info.minor}')"],
                            capture_output=True, text=True).stdout.strip()
    if theirs != ours:
        sys.exit(f"python_compare --mixed: {py} is Python {theirs}, numagraph's is {ours}: "
                 "pass a --networkit-python of the same version")
    sites = [p for p in site.getsitepackages() if Path(p).is_dir()]
    load_start = os.getloadavg()[0]
    rows = []
    for graph in args.graphs:
        graph_size(graph, args.cache_dir)  # the cached arrays, before the timed processes
        results = {name: {k: [] for k in args.kernels} for name in MIXED_SETTINGS}
        for r in range(args.rounds):
            order = list(MIXED_SETTINGS) if r % 2 == 0 else list(reversed(MIXED_SETTINGS))
            for name in order:
                p = subprocess.run([py, __file__, "--mixed-worker", "--graph", graph, "--kernels", *args.kernels,
                                    "--reps", str(args.reps), "--threads", str(args.threads),
                                    "--cache-dir", args.cache_dir, "--late-env", json.dumps(MIXED_SETTINGS[name][1]),
                                    "--site", *sites],
                                   env=worker_env(args.threads, args.cache_dir, MIXED_SETTINGS[name][0]),
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    sys.exit(f"python_compare --mixed: {name} on {graph} failed:\n{p.stderr}")
                for line in p.stdout.splitlines():
                    if line.startswith("{"):
                        out = json.loads(line)
                        results[name][out.pop("kernel")].append(out)
        for kernel in args.kernels:
            for name in MIXED_SETTINGS:
                runs = results[name][kernel]
                row = {"graph": graph, "kernel": kernel, "setting": name,
                       **{k: statistics.median(x[k] for x in runs) for k in runs[0]}}
                rows.append(row)
                print(json.dumps(row), flush=True)
    version = version_of(py, "networkit")
    record = bench_record.make("python-mixed", rows, args.threads, core_file(), {"NetworKit": version},
                               {"rounds": args.rounds, "reps": args.reps, "load": [load_start, os.getloadavg()[0]]})
    if args.record:
        bench_record.write(args.record, record)
    print("\n" + "\n".join(mixed_table_lines(record)))
    return rows


def mixed_table_lines(record):
    """The caption and Markdown table of a python-mixed record."""
    f = record["facts"]
    lines = [f"{record['machine']['threads']} threads; numagraph and NetworKit in one process, one process per "
             f"setting and round, {f['rounds']} rounds x {f['reps']} calls, medians in milliseconds. \"after\": "
             "right after the other library's PageRank (a parallel call); the settings are environment "
             "variables set before the process starts (\"NetworKit only\": set after importing numagraph, "
             "before importing networkit)." + load_note(f), "",
             "| graph | kernel | setting | numagraph alone | numagraph after NetworKit | "
             "NetworKit alone | NetworKit after numagraph |", "|---|---|---|---:|---:|---:|---:|"]
    for r in record["rows"]:
        lines.append(f"| {r['graph']} | {r['kernel']} | {r['setting']} | {1e3 * r['ng_alone']:.3f} | "
                     f"{1e3 * r['ng_after_nk']:.3f} | {1e3 * r['nk_alone']:.3f} | {1e3 * r['nk_after_ng']:.3f} |")
    return lines


# ---- --cli-overhead: Python against the CLI ---------------------------------------------------

def cli_overhead(args, rounds=9, trials=10):
    """Kernel time in Python against the CLI's own timing of the same kernel on the same graph."""
    import numpy as np
    import numagraph as ng
    binary = Path(os.environ.get("NUMAGRAPH_BIN", HERE.parent / "build" / "numagraph"))
    if not binary.exists():
        print(f"python_compare: {binary} not found (set NUMAGRAPH_BIN): CLI overhead skipped")
        return None
    ng.config(threads=args.threads, bind="compact")  # the CLI's runtime defaults: compact binding, THP
    out = {}
    for graph in args.graphs:
        scale = int(graph.removeprefix("kron"))
        g = ng.generate.kronecker(scale)
        root = int(np.argmax(g.out_degree > 0))
        py_calls = {"pr": lambda: ng.pagerank(g), "cc": lambda: ng.connected_components(g),
                    # Parents only: the CLI times the Graph500 output (no depth array).
                    "bfs": lambda: ng.bfs(g, root, depth=False, parents=True)}
        cli_args = {"pr": [], "cc": [], "bfs": ["--source", str(root)]}
        print(f"\nPython vs CLI, {graph}: median over {rounds} interleaved rounds of the median of {trials} "
              "back-to-back calls (seconds)")
        for kernel, call in py_calls.items():
            py, cli = [], []
            for _ in range(rounds):
                rec = json.loads(subprocess.run(
                    [str(binary), kernel, "--kron", str(scale), "--json", "-n", str(trials), "-t", str(args.threads),
                     *cli_args[kernel]], capture_output=True, text=True, check=True).stdout.splitlines()[-1])
                cli.append(rec["median_s"])
                times = []
                for _ in range(trials):
                    t = time.perf_counter()
                    call()
                    times.append(time.perf_counter() - t)
                py.append(statistics.median(times))
            p, c = statistics.median(py), statistics.median(cli)
            out[(graph, kernel)] = (p, c)
            print(f"  {kernel:<4} python {p:.4f}  cli {c:.4f}  overhead {100 * (p / c - 1):+.1f} %", flush=True)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graphs", nargs="+", default=None, help="kronN or data:NAME (default: kron14 kron18; "
                    "--mixed: kron14)")
    ap.add_argument("--kernels", nargs="+", default=None, choices=KERNELS,
                    help=f"default: {' '.join(KERNELS)} (--mixed: {' '.join(MIXED_KERNELS)})")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=5, help="timed calls per kernel and worker (--mixed: pairs)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--record", default=None,
                    help="also write a result record here (bench/bench_record.py) for bench/perf_page.py")
    default_py = os.environ.get("NETWORKIT_PYTHON", sys.executable)
    ap.add_argument("--networkit-python", default=default_py, help="python that can import networkit")
    ap.add_argument("--igraph-python", default=default_py, help="python that can import igraph")
    ap.add_argument("--cache-dir", default="/tmp/numagraph-vs-networkit")
    ap.add_argument("--mixed", action="store_true", help="numagraph and NetworKit in one process (see above)")
    ap.add_argument("--cli-overhead", action="store_true", help="numagraph from Python against its CLI")
    ap.add_argument("--mixed-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--graph", help=argparse.SUPPRESS)
    ap.add_argument("--site", nargs="*", default=[], help=argparse.SUPPRESS)
    ap.add_argument("--late-env", default="{}", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.mixed_worker:
        return mixed_worker(args)
    if args.graphs is None:
        args.graphs = ["kron14"] if args.mixed else ["kron14", "kron18"]
    if args.kernels is None:
        args.kernels = MIXED_KERNELS if args.mixed else KERNELS
    if args.mixed:
        return mixed(args)
    if args.cli_overhead:
        return cli_overhead(args)
    return compare(args)


if __name__ == "__main__":
    main()

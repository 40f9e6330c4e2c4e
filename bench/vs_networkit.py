#!/usr/bin/env python3
"""numagraph against NetworKit, kernel by kernel, each library in its own process.

Every round starts one worker process per library (numagraph, then NetworKit,
alternating which goes first), so two OpenMP runtimes never share a process and
rounds of the two libraries interleave on the noisy machine. A worker builds the
graph from the same edge arrays, runs the kernel once to warm up, then times
``--reps`` calls and prints one JSON line: the median seconds and the kernel's
quality figure (modularity, number of components, ...) when it has one.

Kernels are plug-ins: ``bench/nk_kernels/<name>.py`` defines

    DIRECTED = False                      # build both graphs directed?
    def numagraph_run(ng, g): ...         # g: numagraph.Graph; returns a dict (may be empty)
    def networkit_run(nk, G): ...         # G: networkit.Graph;  returns a dict (may be empty)

and the whole call is timed (``igraph_run(ig, G)`` too, for bench/python_compare.py,
which runs the same workers for igraph). A plug-in whose figures cost time of their own
(a Python pass over the result) times the kernel alone instead:

    def numagraph_kernel(ng, g): ...              # timed: the library call; returns its result
    def numagraph_figures(ng, g, result): ...     # not timed: the dict, from the last call's result
    def networkit_kernel(nk, G): ...              # timed: build the algorithm and run(); returns it
    def networkit_figures(nk, G, result): ...     # not timed

Graphs: ``kron18``, ``kron20`` (numagraph's Kronecker generator, default seed;
each edge oriented by the parity of its ends for directed kernels) and any file under ../shared/data given as ``data:NAME`` (e.g.
``data:soc-Slashdot0902``), read by numagraph and handed to NetworKit as arrays.

Usage:
  python bench/vs_networkit.py --kernels louvain closeness --graphs kron18 data:soc-Slashdot0902 \\
      [--threads 2] [--rounds 5] [--reps 3] [--markdown] [--record FILE]
Needs: networkit importable by --networkit-python (default: the running python).
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench_record  # noqa: E402
SHARED = HERE.parent.parent / "shared" / "data"


def load_plugin(name):
    path = HERE / "nk_kernels" / f"{name}.py"
    if not path.exists():
        sys.exit(f"vs_networkit: no kernel plug-in {path}; have: "
                 + ", ".join(sorted(p.stem for p in (HERE / 'nk_kernels').glob('*.py'))))
    spec = importlib.util.spec_from_file_location(f"nk_kernel_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def data_file(name):
    folder = SHARED / name
    files = [p for p in folder.iterdir() if p.is_file() and p.name != "SOURCE.txt"
             and not p.name.lower().startswith("readme") and p.suffix != ".md"]
    files.sort(key=lambda p: p.stat().st_size, reverse=True)
    if not files:
        sys.exit(f"vs_networkit: no graph file in {folder}")
    return files[0]


def edge_arrays(graph, directed, cache_dir):
    """(n, src, dst) as int64 arrays, cached as .npz so workers do not regenerate."""
    import numpy as np
    cache = Path(cache_dir) / f"{graph.replace(':', '_')}_{'d' if directed else 'u'}.npz"
    if cache.exists():
        z = np.load(cache)
        return int(z["n"]), z["src"], z["dst"]
    import numagraph as ng
    if graph.startswith("kron"):
        g = ng.generate.kronecker(int(graph[4:]))
    elif graph.startswith("data:"):
        g = ng.read(str(data_file(graph[5:])), directed=directed)
    else:
        sys.exit(f"vs_networkit: unknown graph {graph!r} (kron18, kron20, data:NAME)")
    n = g.num_vertices
    src = np.repeat(np.arange(n, dtype=np.int64), g.out_degree)
    dst = np.asarray(g.indices, dtype=np.int64)
    if not directed or graph.startswith("kron"):
        # The generator is undirected: keep each edge once; for a directed run,
        # orient it by the parity of its ends so that cycles (and big SCCs) exist.
        keep = src < dst
        src, dst = src[keep], dst[keep]
        if directed:
            flip = ((src + dst) & 1) == 1
            src, dst = np.where(flip, dst, src), np.where(flip, src, dst)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, n=n, src=src, dst=dst)
    return n, src, dst


def build_graph(library, n, src, dst, directed, threads):
    """(the library's module, its graph built from the edge arrays)."""
    if library == "numagraph":
        import numagraph as ng
        return ng, ng.Graph.from_edges(src, dst, num_vertices=n, directed=directed)
    if library == "networkit":
        import networkit as nk
        nk.setNumberOfThreads(threads)
        G = nk.Graph(n, weighted=False, directed=directed)
        G.addEdges((src, dst))
        G.indexEdges()
        return nk, G
    import igraph as ig
    import numpy as np
    return ig, ig.Graph(n=n, edges=np.column_stack([src, dst]), directed=directed)


def worker(args):
    """Times each kernel of --kernel (comma-separated, one graph built for all of
    them) and prints one JSON line per kernel."""
    plugins = {name: load_plugin(name) for name in args.kernel.split(",")}
    directed = {bool(getattr(p, "DIRECTED", False)) for p in plugins.values()}
    if len(directed) > 1:
        sys.exit("vs_networkit: one worker's kernels must all be directed or all undirected")
    is_directed = directed.pop()
    n, src, dst = edge_arrays(args.graph, is_directed, args.cache_dir)
    if args.reps == 0:  # only build the cached arrays
        return
    module, graph = build_graph(args.library, n, src, dst, is_directed, args.threads)
    for name, plugin in plugins.items():
        if not any(hasattr(plugin, f"{args.library}_{what}") for what in ("run", "kernel")):
            continue  # the library has no such kernel
        run, figures = timed_call(plugin, args.library, module, graph)
        out = run()
        times = []
        for _ in range(args.reps):
            t = time.perf_counter()
            out = run()
            times.append(time.perf_counter() - t)
        print(json.dumps({"kernel": name, "seconds": statistics.median(times) if times else None,
                          **(figures(out) or {})}), flush=True)


def timed_call(plugin, library, module, graph):
    """(the call to time, the figures from its result): `library`_kernel and
    `library`_figures when the plug-in has them, else `library`_run, whose dict
    is its result."""
    kernel = getattr(plugin, f"{library}_kernel", None)
    if kernel is None:
        run = getattr(plugin, f"{library}_run")
        return (lambda: run(module, graph)), (lambda out: out)
    figures = getattr(plugin, f"{library}_figures", lambda module, graph, result: {})
    return (lambda: kernel(module, graph)), (lambda result: figures(module, graph, result))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", nargs="+", default=[])
    ap.add_argument("--graphs", nargs="+", default=["kron18"])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--record", default=None,
                    help="also write a result record here (bench/bench_record.py) for bench/perf_page.py")
    ap.add_argument("--networkit-python", default=os.environ.get("NETWORKIT_PYTHON", sys.executable),
                    help="python that can import networkit (default: $NETWORKIT_PYTHON or this one)")
    ap.add_argument("--cache-dir", default="/tmp/numagraph-vs-networkit")
    ap.add_argument("--worker", choices=["numagraph", "networkit", "igraph"], help=argparse.SUPPRESS)
    ap.add_argument("--kernel", help=argparse.SUPPRESS)
    ap.add_argument("--graph", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        args.library = args.worker
        return worker(args)
    if not args.kernels:
        ap.error("name at least one kernel with --kernels")
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), NUMAGRAPH_THREADS=str(args.threads))
    rows = []
    for kernel in args.kernels:
        for graph in args.graphs:
            results = measure_rounds([kernel], graph, {"numagraph": sys.executable,
                                                       "networkit": args.networkit_python}, args, env)
            results = {lib: runs[kernel] for lib, runs in results.items()}
            ours = statistics.median(x["seconds"] for x in results["numagraph"])
            theirs = statistics.median(x["seconds"] for x in results["networkit"])
            extra, extra_nk = figures_of(results["numagraph"]), figures_of(results["networkit"])
            row = {"kernel": kernel, "graph": graph, "numagraph_s": ours, "networkit_s": theirs,
                   "ratio": ours / theirs, "numagraph": extra, "networkit": extra_nk}
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.record:  # after every row: a run that stops later keeps the earlier ones
                bench_record.write(args.record, make_record(rows, args))
    if args.markdown:
        record = make_record(rows, args)
        print("\n" + "\n".join(bench_record.markdown_header(record) + table_lines(record)))


def measure_rounds(kernels, graph, pythons, args, env):
    """{library: {kernel: [one result dict per round]}}: each round starts one
    worker process per library (the python of `pythons`), which builds the graph
    once and times every kernel of `kernels`; the order of the libraries reverses
    every other round."""
    # Build the cached arrays once, outside the timed workers.
    subprocess.run([sys.executable, __file__, "--worker", "numagraph", "--kernel", ",".join(kernels),
                    "--graph", graph, "--reps", "0", "--cache-dir", args.cache_dir], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    results = {lib: {k: [] for k in kernels} for lib in pythons}
    for r in range(args.rounds):
        order = list(pythons) if r % 2 == 0 else list(reversed(pythons))
        for lib in order:
            p = subprocess.run([pythons[lib], __file__, "--worker", lib, "--kernel", ",".join(kernels),
                                "--graph", graph, "--reps", str(args.reps), "--threads", str(args.threads),
                                "--cache-dir", args.cache_dir], env=env, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"vs_networkit: {lib} {','.join(kernels)} on {graph} failed:\n{p.stderr}")
            for line in p.stdout.strip().splitlines():
                if line.startswith("{"):
                    out = json.loads(line)
                    results[lib][out.pop("kernel")].append(out)
    return results


def figures_of(runs):
    """The last round's figures (all but the time) of one library and kernel."""
    return {k: v for k, v in runs[-1].items() if k != "seconds"}


def make_record(rows, args):
    version = subprocess.run([args.networkit_python, "-c", "import networkit; print(networkit.__version__)"],
                             capture_output=True, text=True).stdout.strip()
    try:  # the compiled module is what the comparison times
        import numagraph._core
        core = numagraph._core.__file__
    except ImportError:
        core = None
    facts = {"rounds": args.rounds, "reps": args.reps}
    return bench_record.make("networkit", rows, args.threads, core, {"NetworKit": version}, facts)


def table_lines(record):
    """The caption and Markdown table of a networkit record."""
    f = record["facts"]
    fmt = lambda d: ", ".join(f"{k} {v:.6g}" if isinstance(v, float) else f"{k} {v}" for k, v in d.items())
    lines = [f"{record['machine']['threads']} threads, {f['rounds']} rounds x {f['reps']} calls, medians; "
             "ratio = numagraph / NetworKit", "",
             "| kernel | graph | numagraph s | NetworKit s | ratio | numagraph | NetworKit |",
             "|---|---|---:|---:|---:|---|---|"]
    for r in record["rows"]:
        lines.append(f"| {r['kernel']} | {r['graph']} | {r['numagraph_s']:.4f} | {r['networkit_s']:.4f} | "
                     f"{r['ratio']:.2f} | {fmt(r['numagraph'])} | {fmt(r['networkit'])} |")
    return lines


if __name__ == "__main__":
    main()

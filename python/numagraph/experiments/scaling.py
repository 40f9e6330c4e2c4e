"""Strong scaling of every kernel: the same graph at 1..N threads, medians of the CLI's
trials (--json), speedup over one thread and parallel efficiency."""
import tempfile
from pathlib import Path

from .runner import fmt_s, generate_graph, load_range, machine_section, md_table, pyplot, save_png

# CLI name, extra flags; sssp reads the weighted copy of the graph.
KERNELS = [
    ("bfs", []), ("sssp", []), ("pr", []), ("cc", []), ("bc", ["--sources", "4"]), ("tc", []),
    ("spmv", []), ("bp", []), ("diameter", []), ("kcore", []),
]
WEIGHTED = {"sssp"}
SIZES = {"smoke": {"scale": 8, "trials": 1}, "quick": {"scale": 17, "trials": 5}, "full": {"scale": 22, "trials": 10}}


def run(runner):
    size = runner.sized(SIZES)
    rows = []
    with tempfile.TemporaryDirectory(prefix="numagraph-scaling-") as tmp:
        runner.graph_dir = tmp
        plain = generate_graph(runner, size["scale"], Path(tmp) / f"kron{size['scale']}.ngr")
        weighted = generate_graph(runner, size["scale"], Path(tmp) / f"kron{size['scale']}w.ngr", weighted=True)
        for kernel, flags in KERNELS:
            graph = weighted if kernel in WEIGHTED else plain
            for t in runner.threads:
                runner.say(f"{kernel} at {t} thread(s)")
                rec = runner.run_json([kernel, graph, "-t", t, "-n", size["trials"], *flags])
                rows.append({
                    "kernel": kernel, "threads": t, "median_s": rec["median_s"], "min_s": rec.get("min_s"),
                    "trials_s": ";".join(f"{x:.6g}" for x in rec.get("trials", [])),
                    "engine": rec.get("engine", "flat"), "num_vertices": rec.get("num_vertices"),
                    "num_edges": rec.get("num_edges"),
                })
    for kernel, _ in KERNELS:
        mine = [r for r in rows if r["kernel"] == kernel]
        t1 = mine[0]
        for r in mine:
            r["speedup"] = t1["median_s"] / r["median_s"] if r["median_s"] > 0 else None
            r["efficiency"] = r["speedup"] * t1["threads"] / r["threads"] if r["speedup"] else None
    doc = runner.write(rows, {"graph": f"kron{size['scale']} (Kronecker, edge factor 16)", "trials": size["trials"]})
    plot(runner, rows)
    report(runner, doc)
    return doc


def plot(runner, rows):
    plt = pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    threads = runner.threads
    for kernel, _ in KERNELS:
        mine = [r for r in rows if r["kernel"] == kernel]
        ax.plot([r["threads"] for r in mine], [r["speedup"] for r in mine], marker="o", label=kernel)
    ax.plot(threads, [t / threads[0] for t in threads], "k--", linewidth=1, label="ideal")
    ax.set_xlabel("threads")
    ax.set_ylabel(f"speedup over {threads[0]} thread(s) (median)")
    ax.set_xticks(threads)
    ax.set_title(f"Strong scaling, kron{runner.sized(SIZES)['scale']}, {runner.machine['cores']} cores, "
                 f"{load_range(runner.commands)}")
    ax.grid(alpha=0.3)
    ax.legend(ncol=2, fontsize=8)
    return save_png(plt, fig, runner.out, "scaling.png")


def report(runner, doc):
    rows = doc["rows"]
    threads = runner.threads
    table = []
    for kernel, _ in KERNELS:
        mine = {r["threads"]: r for r in rows if r["kernel"] == kernel}
        cells = [kernel]
        for t in threads:
            r = mine[t]
            cells.append(f"{fmt_s(r['median_s'])} ({r['speedup']:.2f}x)")
        last = mine[threads[-1]]
        cells.append(f"{last['efficiency'] * 100:.0f} %")
        table.append(cells)
    headers = ["kernel"] + [f"{t} thr" for t in threads] + [f"efficiency at {threads[-1]}"]
    size = runner.sized(SIZES)
    text = [
        f"# Strong scaling of every kernel ({runner.size})",
        "",
        "numagraph's own experiment (no paper): each kernel on one graph at every thread count,"
        f" {size['trials']} timed trials per run, the median kept; the speedup is the median at"
        f" {threads[0]} thread(s) over the median at t threads, the efficiency the speedup over t / {threads[0]}.",
        "",
        f"Graph: {doc['graph']}, {rows[0]['num_vertices']:,} vertices, {rows[0]['num_edges']:,} edges"
        " (sssp: the same graph with integer weights 1-255). bc: 4 sampled sources.",
        "",
        "## Median time (speedup)",
        "",
        md_table(headers, table),
        "",
        "![speedup over threads](scaling.png)" if (runner.out / "scaling.png").exists() else
        "(no plot: matplotlib is not installed)",
        "",
        machine_section(runner.machine, runner.commands),
        "",
        runner.rerun(),
        "",
    ]
    (runner.out / "report.md").write_text("\n".join(text))

"""Polymer (NUMA-Aware Graph-Structured Analytics): the flat kernels against the NUMA
engine for the paper's six applications, times on this machine, and the engine's access
accounting (local/remote x random/sequential) on synthetic 2-, 4- and 8-node topologies."""
import tempfile
from pathlib import Path

from . import peers as peers_mod
from .runner import fmt_s, generate_graph, load_range, machine_section, md_table, pyplot, save_png

PAPER = "NUMA-Aware Graph-Structured Analytics"
ITERS = 5  # the paper times PR, SpMV and BP over 5 iterations
# label, CLI subcommand, flags on both engines, flags on the flat engine when they differ
KERNELS = [
    ("pr", "pr", ["--iterations", str(ITERS), "--tolerance", "0", "--variant", "jacobi"], None),
    ("spmv", "spmv", ["--iterations", str(ITERS)], None),
    ("bp", "bp", ["--iterations", str(ITERS)], None),
    ("bfs", "bfs", [], None),
    ("cc", "cc", [], None),
    ("cc-lp", "cc", ["--variant", "lp"], []),  # the engine's label propagation against the flat Afforest
    ("sssp", "sssp", [], None),
]
WEIGHTED = {"sssp"}
# The paper's Twitter row on its 80-core, 8-socket Intel machine: (Polymer s, Ligra s, the speedup it prints).
PAPER_TWITTER = {"pr": (5.3, 15.0, 2.85), "spmv": (7.6, 29.0, 3.84), "bp": (38.0, 63.1, 1.66),
                 "bfs": (0.90, 1.13, 1.26), "cc": (4.60, 5.51, 1.20), "sssp": (2.26, 3.17, 1.40)}
SIZES = {
    "smoke": {"scale": 8, "account_scale": 8, "trials": 1, "rounds": 1, "nodes": [2, 4]},
    "quick": {"scale": 17, "account_scale": 16, "trials": 3, "rounds": 2, "nodes": [2, 4, 8]},
    "full": {"scale": 24, "account_scale": 20, "trials": 5, "rounds": 3, "nodes": [2, 4, 8]},
}
ACCESS = ["local_random", "local_sequential", "remote_random", "remote_sequential"]


def kernel_args(label, engine):
    _, command, flags, flat = next(k for k in KERNELS if k[0] == label)
    return [command, *(flat if flat is not None and engine == "flat" else flags)]


def synthetic(nodes, cores_per_node):
    return f"pack:{nodes} numa:1 core:{cores_per_node} pu:1"


def configurations(runner):
    """(name, engine, extra flags) timed on this machine; one synthetic 2-node run on a one-node host
    shows what the partitioned execution costs where no remote memory exists to save."""
    t = runner.threads[-1]
    configs = [("flat", "flat", ["-t", t]), ("numa", "numa", ["-t", t])]
    if runner.machine["numa_nodes"] == 1 and t >= 2:
        # same threads, split over two nodes (an odd count loses one)
        configs.append(("numa, 2 synthetic nodes", "numa", ["-t", t // 2 * 2, "--topology", synthetic(2, t // 2)]))
    return configs


def time_kernels(runner, graphs, size):
    rows = []
    configs = configurations(runner)
    for label, command, _, _ in KERNELS:
        graph = graphs["weighted" if command in WEIGHTED else "plain"]
        pooled = {name: [] for name, _, _ in configs}
        for r in range(size["rounds"]):
            order = configs if r % 2 == 0 else configs[::-1]  # alternate who goes first
            for name, engine, extra in order:
                runner.say(f"time {label} {name} (round {r + 1})")
                rec = runner.run_json([*kernel_args(label, engine), graph, "-n", size["trials"],
                                       "--engine", engine, *extra])
                pooled[name] += rec.get("trials", [rec["median_s"]])
        for name, engine, extra in configs:
            trials = sorted(pooled[name])
            rows.append({"part": "time", "kernel": label, "config": name, "engine": engine,
                         "threads": runner.threads[-1], "median_s": trials[len(trials) // 2] if len(trials) % 2
                         else (trials[len(trials) // 2 - 1] + trials[len(trials) // 2]) / 2,
                         "trials_s": ";".join(f"{x:.6g}" for x in trials)})
    return rows


def account(runner, graphs, size):
    rows = []
    for nodes in size["nodes"]:
        topo = synthetic(nodes, 1)
        for label, command, _, _ in KERNELS:
            graph = graphs["acc_weighted" if command in WEIGHTED else "acc_plain"]
            for engine in ("flat", "numa"):
                if label == "cc-lp" and engine == "flat":
                    continue  # label propagation exists on the engine only; flat cc is Afforest above
                runner.say(f"account {label} {engine} on {nodes} nodes")
                rec = runner.run_json([*kernel_args(label, engine), graph, "-n", 1, "--engine", engine,
                                       "--topology", topo, "-t", nodes, "--account"])
                counts = rec.get("account") or {}
                total = sum(counts.get(k, 0) for k in ACCESS)
                row = {"part": "account", "kernel": label, "nodes": nodes, "engine": engine, "topology": topo}
                for k in ACCESS:
                    row[k] = counts.get(k, 0)
                    row[k + "_share"] = counts.get(k, 0) / total if total else None
                rows.append(row)
    return rows


def peer_rows(runner, graphs, size):
    tools = peers_mod.given()
    if not tools:
        return []
    runner.say(f"peers given: {', '.join(tools)}")
    p = peers_mod.Peers(runner, graphs, size["trials"], ITERS)
    rows = []
    for peer in tools:
        for label, *_ in KERNELS:
            if label == "cc-lp":
                continue
            seconds = p.time(peer, label, runner.threads[-1])
            if seconds is not None:
                rows.append({"part": "peer", "kernel": label, "config": peer, "threads": runner.threads[-1],
                             "median_s": seconds})
    return rows


def run(runner):
    size = runner.sized(SIZES)
    with tempfile.TemporaryDirectory(prefix="numagraph-polymer-") as tmp:
        runner.graph_dir = tmp
        s, a = size["scale"], size["account_scale"]
        graphs = {
            "plain": generate_graph(runner, s, Path(tmp) / f"kron{s}.ngr"),
            "weighted": generate_graph(runner, s, Path(tmp) / f"kron{s}w.ngr", weighted=True),
            "acc_plain": generate_graph(runner, a, Path(tmp) / f"kron{a}.ngr"),
            "acc_weighted": generate_graph(runner, a, Path(tmp) / f"kron{a}w.ngr", weighted=True),
        }
        rows = time_kernels(runner, graphs, size) + peer_rows(runner, graphs, size) + account(runner, graphs, size)
    doc = runner.write(rows, {"graph": f"kron{s}", "account_graph": f"kron{a}", "iterations": ITERS,
                              "peers_given": sorted(peers_mod.given())})
    plots = [plot_times(runner, rows), plot_account(runner, rows)]
    report(runner, doc, [p for p in plots if p])
    return doc


def plot_times(runner, rows):
    plt = pyplot()
    if plt is None:
        return None
    timed = [r for r in rows if r["part"] in ("time", "peer")]
    configs = list(dict.fromkeys(r["config"] for r in timed))
    labels = [k[0] for k in KERNELS]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    width = 0.8 / len(configs)
    for i, c in enumerate(configs):
        values = {r["kernel"]: r["median_s"] * 1e3 for r in timed if r["config"] == c}
        xs = [j + i * width for j, k in enumerate(labels) if k in values]
        ax.bar(xs, [values[k] for k in labels if k in values], width, label=c)
    ax.set_xticks([j + width * (len(configs) - 1) / 2 for j in range(len(labels))])
    ax.set_xticklabels(labels)
    ax.set_yscale("log")
    ax.set_ylabel("median time (ms, log scale)")
    ax.set_title(f"Polymer's kernels, flat vs NUMA engine: kron{runner.sized(SIZES)['scale']}, "
                 f"{runner.threads[-1]} threads, {load_range(runner.commands)}")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return save_png(plt, fig, runner.out, "polymer_times.png")


def plot_account(runner, rows):
    plt = pyplot()
    if plt is None:
        return None
    acc = [r for r in rows if r["part"] == "account"]
    nodes = sorted({r["nodes"] for r in acc})
    fig, ax = plt.subplots(figsize=(9.5, 4.5), dpi=100)
    colors = {}
    for label, *_ in KERNELS:
        for engine, style in (("flat", "-"), ("numa", "--")):
            mine = sorted((r for r in acc if r["kernel"] == label and r["engine"] == engine), key=lambda r: r["nodes"])
            if not mine:
                continue
            line, = ax.plot([r["nodes"] for r in mine], [100 * (r["remote_random_share"] or 0) for r in mine],
                            style, marker="o" if engine == "flat" else "s", color=colors.get(label),
                            label=f"{label} {engine}")
            colors[label] = line.get_color()
    ax.set_xticks(nodes)
    ax.set_xlabel("NUMA nodes (synthetic topology, one thread per node)")
    ax.set_ylabel("remote random accesses (% of all counted)")
    ax.set_title(f"Remote random accesses: flat (solid) vs NUMA engine (dashed), "
                 f"kron{runner.sized(SIZES)['account_scale']}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=7)  # outside: the lines fill the box
    return save_png(plt, fig, runner.out, "polymer_remote_random.png")


def pct(x):
    return "—" if x is None else f"{100 * x:.1f} %"


def report(runner, doc, plots):
    rows = doc["rows"]
    size = runner.sized(SIZES)
    configs = list(dict.fromkeys(r["config"] for r in rows if r["part"] == "time"))
    given = doc["peers_given"]
    time_table = []
    for label, *_ in KERNELS:
        t = {r["config"]: r["median_s"] for r in rows if r["kernel"] == label and r["part"] in ("time", "peer")}
        cells = [label] + [fmt_s(t.get(c)) for c in configs]
        cells.append(f"{t['numa'] / t['flat']:.2f}" if t.get("flat") else "—")
        cells += [fmt_s(t[p]) if p in t else ("not given" if p not in given else "no such kernel")
                  for p in peers_mod.PEERS]
        paper = PAPER_TWITTER.get(label)
        cells.append(f"{paper[0]} s vs {paper[1]} s ({paper[2]:.2f}x)" if paper else "—")
        time_table.append(cells)
    headers = (["kernel"] + configs + ["numa / flat"] + list(peers_mod.PEERS)
               + ["paper: Polymer vs Ligra, Twitter, 80 cores"])
    acc_table = []
    for r in (r for r in rows if r["part"] == "account"):
        acc_table.append([r["kernel"], r["nodes"], r["engine"], *(pct(r[k + "_share"]) for k in ACCESS),
                          f"{r['remote_random']:,}"])
    numa_rr = [r for r in rows if r["part"] == "account" and r["engine"] == "numa"]
    zero = sorted({r["kernel"] for r in numa_rr if r["remote_random"] == 0}, key=[k[0] for k in KERNELS].index)
    nonzero = sorted({r["kernel"] for r in numa_rr if r["remote_random"] > 0}, key=[k[0] for k in KERNELS].index)
    t = runner.threads[-1]
    text = [
        f"# Polymer: flat vs NUMA engine ({runner.size})",
        "",
        f"Paper: *{PAPER}* (Zhang, Chen and Chen, PPoPP 2015; [references](../../references.md)).",
        "Its claim: put each partition's data and computation on one NUMA node, each node handling part of"
        " the edges of every vertex, so that no access is both remote and random. Its headline numbers, on an"
        " 80-core 8-socket Intel Xeon: PageRank (5 iterations) on Twitter in 5.3 s against Ligra's 15.0 s"
        " (2.85x), and remote random reads at 348 MB/s against 720 MB/s local (2.07x slower).",
        "",
        f"## Times on this machine ({t} threads)",
        "",
        f"Graph kron{size['scale']} (Kronecker, edge factor 16; sssp on the same graph with weights 1-255)."
        f" Medians of {size['trials']} trials x {size['rounds']} rounds per configuration, the configurations"
        " alternating which goes first. pr, spmv and bp run 5 iterations as in the paper (pr: Jacobi, no early"
        " stop, on both engines); cc is Afforest on both engines, cc-lp the engine's label propagation"
        " against the flat Afforest. The paper's column is its Twitter graph (41.7 M vertices, 1.47 B edges)"
        " on 80 cores: a scale for orientation, not a comparison with ours.",
        "",
        md_table(headers, time_table),
        "",
        "gapbs, GBBS and Ligra run only when GAPBS_DIR, GBBS_DIR or LIGRA_DIR name their built trees"
        f" ({'given: ' + ', '.join(given) if given else 'none was given here'}).",
        "",
    ]
    if runner.machine["numa_nodes"] == 1:
        text += ["This machine has one NUMA node, so the NUMA engine has no remote memory to avoid here: its"
                 " time against the flat kernel is the cost of the partitioned execution, not the gain the paper"
                 " measures on 8 sockets. The accounting below predicts what a multi-node machine would see.", ""]
    if any(p.name == "polymer_times.png" for p in plots):
        text += ["![times](polymer_times.png)", ""]
    text += [
        "## Access accounting on synthetic topologies",
        "",
        f"Graph kron{size['account_scale']}; each kernel run once with `--account` under `--topology \"pack:N"
        " numa:1 core:1 pu:1\"` (N nodes, one thread each; docs/numa-engine.md says why the counts predict the"
        " real machine), shares of all counted vertex-data and edge accesses.",
        "",
        md_table(["kernel", "nodes", "engine", "local random", "local sequential", "remote random",
                  "remote sequential", "remote random accesses"], acc_table),
        "",
        f"Paper's claim beside ours: no remote random access. On the NUMA engine here: none for"
        f" {', '.join(zero) or 'no kernel'}" + (f"; some for {', '.join(nonzero)}" if nonzero else "") +
        " (cc: Afforest links to neighbours' roots wherever they live, by design; sssp: reads of hub distances"
        " to skip stale entries; docs/numa-engine.md).",
        "",
    ]
    if any(p.name == "polymer_remote_random.png" for p in plots):
        text += ["![remote random share](polymer_remote_random.png)", ""]
    elif not plots:
        text += ["(no plots: matplotlib is not installed)", ""]
    text += [machine_section(runner.machine, runner.commands), "",
             runner.rerun([t]), ""]
    (runner.out / "report.md").write_text("\n".join(text))

"""XSBench (Improving the scalability of neutron cross-section lookup codes on multicore NUMA
system): cross-section lookups under the paper's data placements at every thread count, one
`numagraph bench-xs --json` run, and the scaling efficiency of each placement."""
import json

from .runner import ExperimentError, load_range, loads_during, machine_section, md_table, pyplot, save_png

PAPER = "Improving the scalability of neutron cross-section lookup codes on multicore NUMA system"
# bench-xs variant -> the paper's name for it (Section IV) and its efficiency at 16 threads on the
# paper's 2-socket, 16-core Sandy Bridge (Section V-A, Fig. 14); None where the paper gives none.
VARIANTS = [
    ("serial-init", "default", 70),
    ("parallel-init", "first touch, parallel init ('gen' mode)", None),
    ("interleave", "numactl --interleave=all", 80),
    ("replicate", "numag", 95),
    ("replicate-2m", "numag+hugetlb", None),
]
SIZES = {
    # nuclides x gridpoints: 'small' is XSBench's 68 x 11303 (35 MiB of grids, 205 MiB unionized
    # grid); 'large' 355 x 11303 is the paper's (184 MiB of grids, 5.4 GiB unionized grid).
    "smoke": {"nuclides": 8, "gridpoints": 200, "lookups": 20000, "trials": 1},
    "quick": {"nuclides": 68, "gridpoints": 11303, "lookups": 2000000, "trials": 5},
    "full": {"nuclides": 355, "gridpoints": 11303, "lookups": 15000000, "trials": 5},
}


def nodes_text(where):
    """'node0: 100 %' style text for one page report (pages per kernel node, of those present)."""
    counts = where.get("pages_per_node") or []
    present = sum(counts)
    if not present:
        return "not present"
    return ", ".join(f"node{k} {100 * c / present:.0f} %" for k, c in enumerate(counts) if c)


def measure(runner, size):
    args = ["bench-xs", "--threads", ",".join(map(str, runner.threads)), "--nuclides", size["nuclides"],
            "--gridpoints", size["gridpoints"], "--lookups", size["lookups"], "-n", size["trials"], "--json"]
    runner.say(f"bench-xs at {runner.threads} thread(s), {len(VARIANTS)} variants, {size['trials']} trial(s)")
    records = [line for line in runner.run(args).splitlines() if line.startswith("{")]
    if not records:
        raise ExperimentError("numagraph bench-xs --json printed no JSON record: is the CLI older than this "
                              "experiment? Rebuild it (cmake --build build --target numagraph)")
    return json.loads(records[-1])


def rows_of(rec):
    paper = {name: (label, eff) for name, label, eff in VARIANTS}
    rows = []
    for r in rec["results"]:
        grids = r["nuclide_grids"]
        rows.append({
            "kernel": "bench-xs", "variant": r["variant"], "paper_name": paper.get(r["variant"], ("", None))[0],
            "threads": r["threads"], "lookups_per_s": r["lookups_per_s"],
            "trials_lookups_per_s": ";".join(f"{x:.6g}" for x in r["trials_lookups_per_s"]),
            "init_s": r["init_s"], "checksum": r["checksum"],
            "grid_pages": " | ".join(nodes_text(g) for g in grids),
            "grid_page_size": ",".join(sorted({g["page_size"] for g in grids})),
            "union_pages": nodes_text(r["unionized_grid"]), "union_page_size": r["unionized_grid"]["page_size"],
        })
    return rows


def add_efficiency(rows):
    """Scaling efficiency of each placement over its own lowest thread count t1,
    E(t) = P(t) / (t / t1 * P(t1)), and the paper's Eq. 2, over serial-init at t1."""
    t1 = min(r["threads"] for r in rows)
    base = {r["variant"]: r["lookups_per_s"] for r in rows if r["threads"] == t1}
    default = base.get("serial-init")
    for r in rows:
        ideal = r["threads"] / t1
        r["efficiency"] = r["lookups_per_s"] / (ideal * base[r["variant"]])
        r["efficiency_vs_default"] = r["lookups_per_s"] / (ideal * default) if default else None
    return t1


def run(runner):
    size = runner.sized(SIZES)
    rec = measure(runner, size)
    rows = rows_of(rec)
    t1 = add_efficiency(rows)
    doc = runner.write(rows, {"sizes": size, "bench_xs": {k: v for k, v in rec.items() if k != "results"}})
    plot(runner, rows)
    report(runner, doc, rec, t1)
    return doc


def plot(runner, rows):
    plt = pyplot()
    if plt is None:
        return None
    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=100)
    threads = sorted({r["threads"] for r in rows})
    width = 0.04 * (threads[-1] - threads[0] or 1)  # spreads the variants' bars apart
    for i, (name, label, _) in enumerate(VARIANTS):
        mine = sorted((r for r in rows if r["variant"] == name), key=lambda r: r["threads"])
        if not mine:
            continue
        x = [r["threads"] + (i - 2) * width for r in mine]
        y = [100 * r["efficiency"] for r in mine]
        # bars: the slowest and fastest trial at t over the median at t1 (the trial spread)
        lo = [100 * r["efficiency"] * min(trial_rates(r)) / r["lookups_per_s"] for r in mine]
        hi = [100 * r["efficiency"] * max(trial_rates(r)) / r["lookups_per_s"] for r in mine]
        bars = [[max(0, a - b) for a, b in zip(y, lo)], [max(0, b - a) for a, b in zip(y, hi)]]
        ax.errorbar(x, y, yerr=bars, marker="o", capsize=3, label=f"{name} ({label})")
    ax.axhline(100, color="k", linestyle="--", linewidth=1, label="ideal")
    ax.axhline(70, color="tab:red", linestyle=":", linewidth=1, label="paper, 16 thr: default 70 %")
    ax.axhline(95, color="tab:green", linestyle=":", linewidth=1, label="paper, 16 thr: numag 95 %")
    ax.set_xlabel("threads")
    ax.set_ylabel(f"scaling efficiency over {threads[0]} thread(s) (%)\nbars: slowest to fastest trial")
    ax.set_xticks(threads)
    low = min(60, min(100 * r["efficiency"] * min(trial_rates(r)) / r["lookups_per_s"] for r in rows) - 5)
    high = max(110, max(100 * r["efficiency"] * max(trial_rates(r)) / r["lookups_per_s"] for r in rows) + 5)
    ax.set_ylim(low, high)
    ax.set_title(f"bench-xs, {runner.machine['cores']} cores, "
                 f"{runner.machine['numa_nodes']} NUMA node(s), {load_range(runner.commands)}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return save_png(plt, fig, runner.out, "efficiency.png")


def trial_rates(row):
    return [float(x) for x in row["trials_lookups_per_s"].split(";")]


def noise_text(spread, nodes):
    """What the trial spread says about the differences between placements."""
    if spread is None:
        return ("Noise: one trial per placement and thread count, so no spread was measured; rerun with"
                " --trials 3 or more to see it.")
    text = f"Noise: the fastest trial of one placement at one thread count was up to {spread:.2f}x its slowest"
    if nodes == 1:
        return text + (" here. On one NUMA node the placements put the same pages in the same memory, so"
                       " differences between them, and efficiencies that differ by less than that spread, are"
                       " noise from the shared cores, not placement effects.")
    return text + "; differences between placements within that spread are noise."


def pct(x):
    return "—" if x is None else f"{100 * x:.0f} %"


def report(runner, doc, rec, t1):
    rows = doc["rows"]
    threads = sorted({r["threads"] for r in rows})
    tmax = threads[-1]
    cell = {(r["variant"], r["threads"]): r for r in rows}
    nodes = rec.get("numa_nodes", runner.machine["numa_nodes"])
    names = [v for v in VARIANTS if (v[0], t1) in cell]
    table = []
    for name, label, _ in names:
        cells = [f"`{name}`", label]
        for t in threads:
            r = cell[(name, t)]
            trials = trial_rates(r)
            cells.append(f"{r['lookups_per_s'] / 1e6:.2f} M ({pct(r['efficiency'])}); "
                         f"{min(trials) / 1e6:.2f}–{max(trials) / 1e6:.2f}")
        table.append(cells)
    headers = ["placement", "the paper's name"] + [f"{t} thr: lookups/s (eff.); trials min–max" for t in threads]
    several = [trial_rates(r) for r in rows if len(trial_rates(r)) > 1]
    spread = max(max(x) / min(x) for x in several) if several else None

    head = []
    for name, label, paper_eff in names:
        r = cell[(name, tmax)]
        head.append([f"`{name}`", label, f"{paper_eff} %" if paper_eff else "—", pct(r["efficiency"]),
                     pct(r["efficiency_vs_default"])])
    head_table = md_table(["placement", "the paper's name", "paper: efficiency at 16 threads",
                           f"ours at {tmax} threads (own {t1}-thread base)",
                           f"ours at {tmax} threads (Eq. 2: serial-init's {t1}-thread base)"], head)

    where = []
    for name, _, _ in names:
        r = cell[(name, tmax)]
        where.append([f"`{name}`", r["grid_pages"], r["grid_page_size"], r["union_pages"], r["union_page_size"],
                      f"{r['init_s']:.3f} s"])
    where_table = md_table(["placement", f"nuclide grids at {tmax} thr (pages per node)", "page size",
                            "unionized grid", "page size", "initialisation"], where)

    def ratio(a, b, t):
        if (a, t) in cell and (b, t) in cell:
            return cell[(a, t)]["lookups_per_s"] / cell[(b, t)]["lookups_per_s"]
        return None

    par = ratio("parallel-init", "serial-init", tmax)
    huge = ratio("replicate-2m", "replicate", tmax)
    huge_default = ratio("replicate-2m", "serial-init", tmax)
    agree = rec.get("checksums_agree")
    size = doc["sizes"]
    grid_mib = rec["nuclide_grid_bytes"] / 2**20
    union_mib = rec["unionized_grid_bytes"] / 2**20
    text = [
        f"# XSBench: cross-section lookups under NUMA placements ({runner.size})",
        "",
        *(["**Smoke size: a check that the experiment runs; its figures mean nothing.**", ""]
          if runner.size == "smoke" else []),
        f"Paper: *{PAPER}*. XSBench's lookup kernel (a random energy and material, one binary search of the"
        " unionized energy grid, then 5 cross sections interpolated from the nuclide grid of every nuclide in"
        " the material) under the placements the paper compares: first touch after a serial initialisation"
        " (the paper's `default`: XSBench reads its data in its serial region), first touch after a parallel"
        " initialisation, everything interleaved (`numactl --interleave=all`), the nuclide grids replicated on"
        " every node with the unionized grid interleaved (the paper's `numag` library), and the same with the"
        " nuclide grids — only they — on 2 MB pages (`numag+hugetlb`). Every other array is on 4 KB pages"
        " (the paper's machine had transparent huge pages off). Threads are pinned (numagraph's compact"
        " binding), as `numag` pins them.",
        "",
        f"Size: {size['nuclides']} nuclides x {size['gridpoints']} grid points ({grid_mib:.1f} MiB of nuclide"
        f" grids, {union_mib:.1f} MiB unionized grid), {size['lookups']:,} lookups per run, {size['trials']}"
        " trial(s) per placement and thread count (placements interleaved, the median kept). Every placement"
        " and thread count computed the same lookups: the checksums "
        + ("agree." if agree else "DIFFER (a bug: the placements did not compute the same lookups)."),
        "",
        f"Scaling efficiency, per placement: E(t) = P(t) / (t/{t1} x P({t1})), P = median lookups/s and"
        f" {t1} the lowest thread count measured. The paper's Eq. 2 divides by the `default` placement's"
        " one-thread rate instead; that column is in the headline table.",
        "",
        "## The paper's headline beside ours",
        "",
        "The paper: on a two-socket, 16-core Sandy Bridge, the scaling efficiency at 16 threads goes from 70 %"
        " (`default`) to 80 % (`numactl`) and about 95 % (`numag`); its page-size optimization (2 MB pages for"
        " the nuclide grids) gave 1.5x lookups/s over the non-optimized code.",
        "",
        head_table,
        "",
        *([f"This machine has one NUMA node, where no placement can move memory closer to a thread: read the"
           f" efficiencies above as the timing noise of {runner.machine['cores']} shared cores (the trial"
           " spread is below), not as a reproduction of the paper's figure.", ""] if nodes == 1 else []),
        "## Lookups/s and efficiency, placement x threads",
        "",
        md_table(headers, table),
        "",
        noise_text(spread, nodes),
        "",
        "![scaling efficiency per placement](efficiency.png)" if (runner.out / "efficiency.png").exists() else
        "(no plot: matplotlib is not installed)",
        "",
        "## Serial against parallel initialisation, and where the pages landed",
        "",
        where_table,
        "",
    ]
    if par is not None:
        text += [f"At {tmax} threads parallel-init reaches {par:.2f}x the lookups/s of serial-init. With first"
                 " touch, the thread that writes a page first decides its node: a serial initialisation puts"
                 " every page on the master thread's node, a parallel one spreads them over the nodes of the"
                 " threads.", ""]
    if huge is not None:
        versus = f", replicate-2m / serial-init = {huge_default:.2f}x" if huge_default is not None else ""
        text += [f"2 MB pages for the nuclide grids: replicate-2m / replicate = {huge:.2f}x{versus} at {tmax}"
                 " threads (the paper: its page-size optimization gave 1.5x over the non-optimized code)."
                 " The page size column says what the kernel gave: `thp` where no"
                 " hugetlbfs pool exists (the 2 MB request falls back to transparent huge pages).", ""]
    text += [
        "## What this machine can and cannot show",
        "",
        f"This machine has {runner.machine['cores']} cores and {nodes} NUMA node(s)."
        + (" With one node every placement puts every page on node 0 (the table above shows it): serial and"
           " parallel initialisation, interleave and replicate place the same memory, so their lookups/s"
           " differ only by noise and by the work each does (replicate keeps one copy, as one node needs);"
           " the NUMA effect the paper measures — half the threads reading a remote socket — cannot occur."
           " What remains is the page size (TLB reach: the nuclide grids on 2 MB pages) and how the lookups"
           " share one memory system between threads."
           + (f" With {runner.machine['cores']} cores the efficiency is measured up to {tmax} threads only,"
              " where the paper's loss shows at 16; hyper-threads of one core would not show it either."
              if tmax < 16 else "")
           if nodes == 1 else
           " The placements differ here in where the pages are; efficiency at the largest thread count is the"
           " paper's figure of merit.")
        + (" The cores were shared: the load average rose above the run's own threads (other work ran on the"
           " same machine; the load is in the plot title and below), so each figure carries that noise."
           if max(loads_during(runner.commands), default=0) > tmax + 1 else ""),
        "",
        "To see the NUMA effect, run it on a multi-socket machine: `numagraph-experiments run xsbench --full"
        " --threads 1,2,4,8,16 --out DIR` (XSBench 'large', the paper's size: about 12 GiB of memory, the"
        " data generated once plus one placed copy, and one more 184 MiB copy of the grids per node).",
        "",
        machine_section(runner.machine, runner.commands),
        "",
        runner.rerun(threads) + "; the command it ran is in `results.json`.",
        "",
    ]
    (runner.out / "report.md").write_text("\n".join(text))

"""The Galois study (Parallel Graph Processing on Modern Multi-Core Servers: New Findings and
Remaining Challenges): PR, BFS, BC, CC and approximate diameter with transparent huge pages
on and off (--pages thp / --pages 4k) over thread counts, each run sampled in 10 ms epochs
(--profile); the time each page size takes, the per-epoch metrics as summaries and CDFs (the
study's point: averages hide bursts), and the hardware counters the machine offers."""
import tempfile
from pathlib import Path

import numpy as np

from .runner import fmt_s, generate_graph, load_range, machine_section, md_table, pyplot

PAPER = "Parallel Graph Processing on Modern Multi-Core Servers: New Findings and Remaining Challenges"
KERNELS = [("pr", []), ("bfs", []), ("bc", ["--sources", "4"]), ("cc", []), ("diameter", [])]
PAGES = [("thp", "THP"), ("4k", "4 KiB")]
INTERVAL_MS = 10
# Per-epoch metrics summarised; the hardware ones appear only where the machine has a PMU.
EPOCH_METRICS = ["perf.task_clock", "perf.page_faults", "perf.dtlb_load_misses", "perf.llc_load_misses",
                 "perf.instructions", "perf.cycles"]
SIZES = {
    "smoke": {"scale": 8, "trials": 1},
    "quick": {"scale": 19, "trials": 3},
    "full": {"scale": 23, "trials": 5},
}  # scale: the Kronecker graph's and the grid's (2^scale vertices each)


def thp_mode():
    """The kernel's THP setting, e.g. 'madvise' (the bracketed word of the sysfs file), or why unknown."""
    try:
        text = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text()
    except OSError as e:
        return f"unknown ({e.strerror})"
    return next((w[1:-1] for w in text.split() if w.startswith("[")), text.strip())


def profile_tools():
    """numagraph.plot_profile (NumPy only; matplotlib is imported when a plot is drawn)."""
    from .. import plot_profile
    return plot_profile


def epoch_summary(doc, name):
    """Per-epoch rate of one metric (counters per second; task clock in CPUs busy): mean, median, p90,
    p99, max, the share of epochs at zero, and the share of the run's total in its busiest 5 % of epochs."""
    v, unit = profile_tools().rates(doc, name)
    v = v[~np.isnan(v)]
    raw = doc["samples"][name]
    raw = np.sort(raw[~np.isnan(raw)])[::-1]
    top = max(1, int(np.ceil(0.05 * raw.size))) if raw.size else 0
    total = float(raw.sum()) if raw.size else 0.0
    return {"unit": unit, "epochs": int(v.size), "total": total,
            "mean": float(v.mean()) if v.size else None, "median": float(np.median(v)) if v.size else None,
            "p90": float(np.percentile(v, 90)) if v.size else None,
            "p99": float(np.percentile(v, 99)) if v.size else None, "max": float(v.max()) if v.size else None,
            "zero_share": float(np.mean(v == 0)) if v.size else None,
            "top5_share": float(raw[:top].sum() / total) if total > 0 else None}


def run_one(runner, kernel, flags, graph, threads, pages, trials, prof):
    rec = runner.run_json([kernel, graph, "-t", threads, "-n", trials, "--pages", pages, *flags,
                           "--profile", prof, "--profile-interval", INTERVAL_MS])
    doc = profile_tools().load_profile(prof)
    row = {"kernel": kernel, "threads": threads, "pages": pages, "median_s": rec["median_s"],
           "trials_s": ";".join(f"{x:.6g}" for x in rec.get("trials", [])),
           "num_vertices": rec.get("num_vertices"), "num_edges": rec.get("num_edges"),
           "samples": doc["metadata"]["samples"], "profile_duration_s": doc["metadata"]["duration_s"]}
    names = {m["name"] for m in doc["metrics"]}
    for name in EPOCH_METRICS:
        short = name.split(".", 1)[1]
        if name in names:
            for k, x in epoch_summary(doc, name).items():
                row[f"{short}_{k}"] = x
        else:
            row[f"{short}_total"] = None
    return row, doc


def run(runner):
    size = runner.sized(SIZES)
    rows, unavailable, figures = [], {}, []
    with tempfile.TemporaryDirectory(prefix="numagraph-galois-") as tmp:
        runner.graph_dir = tmp
        s = size["scale"]
        kron = generate_graph(runner, s, Path(tmp) / f"kron{s}.ngr")
        grid = Path(tmp) / f"grid{s}.ngr"
        runner.run(["generate", "grid", "--scale", s, "-o", grid, "-q"])
        graphs = [(f"kron{s}", kron), (f"grid{s}", grid)]
        for gname, path in graphs:
            for kernel, flags in KERNELS:
                for i, t in enumerate(runner.threads):
                    docs = {}
                    for pages, _ in (PAGES if i % 2 == 0 else PAGES[::-1]):  # alternate who goes first
                        runner.say(f"{gname} {kernel} at {t} thread(s), pages {pages}")
                        prof = Path(tmp) / f"{gname}-{kernel}-{t}-{pages}.json"
                        row, docs[pages] = run_one(runner, kernel, flags, path, t, pages, size["trials"], prof)
                        row["graph"] = gname
                        rows.append(row)
                        for u in docs[pages]["unavailable"]:
                            unavailable.setdefault(f"{u['source']}:{u['what']}" if u["what"] else u["source"],
                                                   u["reason"])
                    if gname == graphs[0][0] and t == runner.threads[-1]:
                        png = plot_kernel(runner, gname, kernel, t, docs)
                        if png:
                            figures.append((kernel, png))
    for r in rows:
        other = next(o for o in rows if (o["graph"], o["kernel"], o["threads"]) == (r["graph"], r["kernel"],
                                                                                    r["threads"])
                     and o["pages"] != r["pages"])
        thp, small = (r, other) if r["pages"] == "thp" else (other, r)
        r["time_4k_over_thp"] = small["median_s"] / thp["median_s"] if thp["median_s"] > 0 else None
        pf_thp, pf_4k = thp.get("page_faults_total"), small.get("page_faults_total")
        r["page_fault_cut"] = 1 - pf_thp / pf_4k if pf_thp is not None and pf_4k else None
        tlb_thp, tlb_4k = thp.get("dtlb_load_misses_total"), small.get("dtlb_load_misses_total")
        r["dtlb_miss_cut"] = 1 - tlb_thp / tlb_4k if tlb_thp is not None and tlb_4k else None
    doc = runner.write(rows, {"graphs": [g for g, _ in graphs], "interval_ms": INTERVAL_MS, "trials": size["trials"],
                              "thp_mode": thp_mode(), "unavailable": unavailable,
                              "figures": [p.name for _, p in figures]})
    report(runner, doc, figures)
    return doc


def plot_kernel(runner, gname, kernel, threads, docs):
    """numagraph.plot_profile's figure for one kernel: task clock and page faults over time (phases of
    the THP run shaded) and their per-epoch CDFs, THP and 4 KiB overlaid."""
    plt = pyplot()
    if plt is None:
        return None
    tools = profile_tools()
    names = [n for n in ("perf.task_clock", "perf.page_faults", "perf.dtlb_load_misses")
             if all(n in d["samples"] for d in docs.values())]
    path = runner.out / f"profile_{kernel}.png"
    fig = tools.plot_profiles([docs["thp"], docs["4k"]], None, metrics=names, threads=False,
                              labels=[label for _, label in PAGES])
    # the same place as plot_profiles' own title (the first run's command line), which this replaces
    fig.suptitle(f"{kernel} on {gname}, {threads} threads, THP vs 4 KiB pages, {INTERVAL_MS} ms epochs, "
                 f"{load_range(runner.commands)}", fontsize=9, y=1 - 0.08 / fig.get_figheight(), va="top")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def pct(x):
    return "—" if x is None else f"{100 * x:.0f} %"


def num(x, unit=""):
    if x is None:
        return "—"
    return f"{x:,.0f}{unit}" if abs(x) >= 100 else f"{x:.3g}{unit}"


def report(runner, doc, figures):
    rows = doc["rows"]
    size = runner.sized(SIZES)
    top = runner.threads[-1]
    pick = {(r["graph"], r["kernel"], r["threads"], r["pages"]): r for r in rows}
    has_tlb = any(r.get("dtlb_load_misses_total") is not None for r in rows)
    time_table = []
    for g in doc["graphs"]:
        for kernel, _ in KERNELS:
            for t in runner.threads:
                thp, small = pick[(g, kernel, t, "thp")], pick[(g, kernel, t, "4k")]
                cells = [g, kernel, t, fmt_s(thp["median_s"]), fmt_s(small["median_s"]),
                         f"{thp['time_4k_over_thp']:.2f}", num(thp.get("page_faults_total")),
                         num(small.get("page_faults_total")), pct(thp["page_fault_cut"])]
                if has_tlb:
                    cells += [num(thp.get("dtlb_load_misses_total")), num(small.get("dtlb_load_misses_total")),
                              pct(thp["dtlb_miss_cut"])]
                time_table.append(cells)
    time_headers = ["graph", "kernel", "threads", "THP", "4 KiB", "4 KiB / THP", "page faults THP",
                    "page faults 4 KiB", "faults cut by THP"]
    if has_tlb:
        time_headers += ["dTLB misses THP", "dTLB misses 4 KiB", "dTLB misses cut by THP"]
    epoch_table = []
    for g in doc["graphs"]:
        for kernel, _ in KERNELS:
            for pages, label in PAGES:
                r = pick[(g, kernel, top, pages)]
                epoch_table.append([g, kernel, label, r["samples"],
                                    num(r.get("task_clock_mean")), num(r.get("task_clock_median")),
                                    num(r.get("task_clock_p90")), num(r.get("page_faults_mean")),
                                    num(r.get("page_faults_median")), num(r.get("page_faults_max")),
                                    pct(r.get("page_faults_zero_share")), pct(r.get("page_faults_top5_share"))])
    cuts = [r["page_fault_cut"] for r in rows if r["pages"] == "thp" and r["page_fault_cut"] is not None]
    ratios = [r["time_4k_over_thp"] for r in rows if r["pages"] == "thp" and r["time_4k_over_thp"]]
    tlb_missing = doc["unavailable"].get("perf_events:dtlb_load_misses")
    hw_missing = sorted(k.split(":", 1)[1] for k in doc["unavailable"] if k.startswith("perf_events:"))
    text = [
        f"# Galois study: THP on and off, profiled in {INTERVAL_MS} ms epochs ({runner.size})",
        "",
        f"Paper: *{PAPER}* (Eisenman, Cherkasova, Magalhaes, Cai and Katti, MASCOTS 2016;"
        " [references](../../references.md)). It runs Galois' PR, BFS, BC, CC and approximate diameter on"
        " scale-free graphs and meshes on a multi-core Intel server and samples hardware counters in 10 ms and"
        " 100 ms epochs, because averages hide the bursts that time series and CDFs show. Its headline (Twitter"
        " graph, 2 MiB THP pages against 4 KiB): **transparent huge pages cut TLB misses by 30-63 %** and"
        " page-walk durations by 50-70 % across all five applications, and help the hardware prefetchers.",
        "",
        "## Setup",
        "",
        f"Every kernel (`numagraph KERNEL GRAPH -t T -n {size['trials']} --pages thp|4k --profile FILE"
        f" --profile-interval {INTERVAL_MS}`; bc with 4 sampled sources, bfs from random roots) on"
        f" {doc['graphs'][0]} (Graph500 Kronecker, edge factor 16: the social-graph stand-in) and"
        f" {doc['graphs'][1]} (a 2-D grid: the mesh), at {', '.join(map(str, runner.threads))} thread(s), THP"
        " and 4 KiB runs alternating which goes first. Times are the CLI's median of"
        f" {size['trials']} trial(s); the metrics are the profile's, over the whole sampled run (every trial)."
        f" The kernel's THP mode here: `{doc['thp_mode']}` (`--pages thp` asks for huge pages with"
        " madvise, `--pages 4k` asks for none).",
        "",
        "## Time and page faults, THP vs 4 KiB",
        "",
        md_table(time_headers, time_table),
        "",
    ]
    if has_tlb:
        tlb = [r["dtlb_miss_cut"] for r in rows if r["pages"] == "thp" and r["dtlb_miss_cut"] is not None]
        text += [f"Paper: THP cuts TLB misses by 30-63 %. Here: dTLB load misses cut by {pct(min(tlb))} to"
                 f" {pct(max(tlb))}.", ""]
    else:
        text += ["Paper: THP cuts TLB misses by 30-63 %. **That cannot be measured here**: this machine has no"
                 " hardware counters (the profile lists `dtlb_load_misses` as unavailable: "
                 f"{tlb_missing or 'not sampled'}). What stands in is the page-fault count, a software event:"
                 " with THP one fault maps a 2 MiB page instead of a 4 KiB one, the same reach a TLB entry"
                 f" gains. THP cut the page faults by {pct(min(cuts)) if cuts else '—'} to"
                 f" {pct(max(cuts)) if cuts else '—'} over these runs" + (f"; the time 4 KiB / THP ranged"
                 f" {min(ratios):.2f} to {max(ratios):.2f}." if ratios else "."), ""]
    text += [
        f"## Per-epoch metrics at {top} thread(s)",
        "",
        f"Each {INTERVAL_MS} ms epoch's rate: task clock in CPUs busy (at most {top}), page faults per second;"
        " mean against median and p90 shows what an average hides: the share of epochs with no fault, and"
        " the share of all faults that fall in the busiest 5 % of epochs.",
        "",
        md_table(["graph", "kernel", "pages", "epochs", "CPUs busy mean", "median", "p90", "faults/s mean",
                  "median", "max", "epochs without a fault", "faults in busiest 5 % of epochs"], epoch_table),
        "",
    ]
    thp_rows = [r for r in rows if r["pages"] == "thp" and r["threads"] == top]
    quiet = [r for r in rows if r["threads"] == top and r.get("page_faults_median") == 0
             and (r.get("page_faults_mean") or 0) > 0]
    text += [f"Bursts: in {len(quiet)} of {2 * len(thp_rows)} runs at {top} thread(s) the median epoch took no"
             " page fault at all while the mean rate is above zero: the faults come in a few epochs (the last"
             " column), which an average over the run reports as a steady rate.", ""]
    for kernel, png in figures:
        text += [f"![{kernel}: THP vs 4 KiB over time and per-epoch CDFs]({png.name})", ""]
    if not figures:
        text += ["(no plots: matplotlib is not installed)", ""]
    text += [
        "The figures (numagraph.plot_profile, one per kernel on"
        f" {doc['graphs'][0]} at {top} threads): left, each metric over time with the THP run's phases shaded;"
        " right, the CDF of its per-epoch values, THP and 4 KiB overlaid.",
        "",
        "## What this machine does not measure",
        "",
        ("Hardware counters: " + ", ".join(f"`{h}`" for h in hw_missing) + " are unavailable: "
         + (doc["unavailable"][f"perf_events:{hw_missing[0]}"] if hw_missing else "")) if hw_missing
        else "Every hardware counter opened.",
        "",
        *(f"- `{k}`: {v}" for k, v in sorted(doc["unavailable"].items()) if not k.startswith("perf_events:")),
        "",
    ]
    if runner.machine["numa_nodes"] == 1:
        text += [f"This machine has {runner.machine['cores']} cores and one NUMA node; the study's servers have"
                 " 2-4 sockets, where the bandwidth and latency effects it measures live. Here only the page"
                 " size's own effect on faults and time can show.", ""]
    text += [machine_section(runner.machine, runner.commands), "",
             runner.rerun(), ""]
    (runner.out / "report.md").write_text("\n".join(text))

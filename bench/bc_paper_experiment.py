#!/usr/bin/env python3
"""The BC paper's experiment (seed 000, Fig. 5/6 and 12/13) on this machine.

Four configurations of the flat work-queues kernel (kernels/bc/brandes_work_queues.hpp):

  BC       the paper's baseline: Brandes top-down, OpenMP dynamic schedule, chunk 16
           (--variant work-queues --schedule dynamic)
  ADL      BC on the graph renumbered by the adaptive data layout (--reorder adl)
  NWQ      NUMA-aware work queues (--schedule nwq): each thread's discoveries are its next queue
  ADL+NWQ  both

at each thread count, with trials of every configuration interleaved (one process per trial;
each process runs --trials 2 and keeps the second, warm, trial; loading, partitioning and the
renumbering are not timed, as in the paper). Reports the median over the repetitions, the
speedup over serial BC (BC at 1 thread, the paper's T_BC(1)), and each configuration's
per-thread working set: distinct vertices a thread touches per source in the forward sweep,
mean over threads (--working-set, measured in a separate run, as the paper measures apart).

Parts that need features not built yet (ADL: `numagraph bc --reorder`; the locality report:
`numagraph info --locality`) are skipped and named in the output.

Usage:
  bench/bc_paper_experiment.py --bin build-r4/numagraph \\
      --graph kron20=/tmp/kron20.ngr --graph road-NY=/work/shared/data/USA-road-d.NY/USA-road-d.NY.gr.gz \\
      [--threads 1,2] [--sources 16] [--reps 3] [--json out.json] [--plot docs/img/bc_paper_fig5.png]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

CONFIGS = [  # name, schedule, reorder
    ("BC", "dynamic", False),
    ("ADL", "dynamic", True),
    ("NWQ", "nwq", False),
    ("ADL+NWQ", "nwq", True),
]


def run_json(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr.strip()}")
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1])


def help_text(binary, *sub):
    out = subprocess.run([binary, *sub, "--help"], capture_output=True, text=True)
    return out.stdout + out.stderr


def adl_runs(args, path):
    """Whether this build computes the ADL order (the flag may exist before the order does)."""
    cmd = [args.bin, "bc", path, "--sources", "1", "--trials", "1", "--reorder", "adl", "--json"]
    return subprocess.run(cmd, capture_output=True, text=True).returncode == 0


def bc_cmd(args, path, threads, schedule, reorder, extra=()):
    cmd = [args.bin, "bc", path, "--engine", "flat", "--variant", "work-queues", "--schedule", schedule,
           "--threads", str(threads), "--sources", str(args.sources), "--seed", str(args.seed), "--json", *extra]
    if reorder:
        cmd += ["--reorder", "adl"]
    return cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.environ.get("NUMAGRAPH_BIN", "build/numagraph"))
    ap.add_argument("--graph", action="append", required=True, help="NAME=PATH (repeat)")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--sources", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", help="write every measurement here")
    ap.add_argument("--plot", help="write a Fig. 5-style PNG here")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    graphs = [g.split("=", 1) for g in args.graph]

    bc_help = help_text(args.bin, "bc")
    have = {"schedule": "--schedule" in bc_help, "adl": "--reorder" in bc_help and adl_runs(args, graphs[0][1]),
            "locality": "--locality" in help_text(args.bin, "info")}
    if not have["schedule"]:
        raise SystemExit(f"{args.bin} bc has no --schedule: build the work-queues variant first")
    missing = []
    if not have["adl"]:
        missing.append("ADL (numagraph bc --reorder adl): ADL and ADL+NWQ skipped")
    if not have["locality"]:
        missing.append("locality report (numagraph info --locality): skipped")
    configs = [c for c in CONFIGS if have["adl"] or not c[2]]
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; cores: {os.cpu_count()}", flush=True)
    for m in missing:
        print("missing:", m, flush=True)

    times = {}  # (graph, config, threads) -> [seconds]
    extra = {}  # (graph, config, threads) -> last record
    for rep in range(args.reps):
        for name, path in graphs:
            for p in threads:
                for cname, schedule, reorder in configs:
                    rec = run_json(bc_cmd(args, path, p, schedule, reorder, ["--trials", "2"]))
                    times.setdefault((name, cname, p), []).append(rec["trials"][-1])
                    extra[(name, cname, p)] = rec
                    print(f"rep {rep} {name} {cname} p={p}: {rec['trials'][-1]:.4f} s", flush=True)

    working = {}
    for name, path in graphs:
        for p in threads:
            for cname, schedule, reorder in configs:
                rec = run_json(bc_cmd(args, path, p, schedule, reorder, ["--trials", "1", "--working-set"]))
                working[(name, cname, p)] = rec["working_set"]

    locality = {}
    if have["locality"]:
        for name, path in graphs:
            for order in ["none", "adl"] if have["adl"] else ["none"]:
                cmd = [args.bin, "info", path, "--locality"]
                if order != "none":
                    cmd += ["--reorder", order]
                out = subprocess.run(cmd, capture_output=True, text=True)
                locality[(name, order)] = (out.stdout + out.stderr).strip()

    load_after = os.getloadavg()
    print(f"load average after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    rows = []
    for name, _ in graphs:
        serial = statistics.median(times[(name, "BC", 1)]) if (name, "BC", 1) in times else None
        for p in threads:
            for cname, _, _ in configs:
                t = statistics.median(times[(name, cname, p)])
                rec = extra[(name, cname, p)]
                rows.append({
                    "graph": name, "config": cname, "threads": p, "median_s": t, "all_s": times[(name, cname, p)],
                    "speedup_vs_serial_bc": serial / t if serial else None,
                    "working_set": working[(name, cname, p)], "vertices": rec.get("num_vertices"),
                    "stolen_tasks": rec.get("stolen_tasks"), "reorder_s": rec.get("reorder_s"),
                })
    print("\n| graph | threads | config | median s | speedup vs serial BC | working set per thread |")
    print("|---|---:|---|---:|---:|---:|")
    for r in rows:
        sp = f"{r['speedup_vs_serial_bc']:.2f}x" if r["speedup_vs_serial_bc"] else "-"
        print(f"| {r['graph']} | {r['threads']} | {r['config']} | {r['median_s']:.3f} | {sp} | "
              f"{r['working_set']:,.0f} |")
    for (name, order), text in locality.items():
        print(f"\nlocality {name} order={order}:\n{text}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "missing": missing, "load_before": load, "load_after": load_after,
                       "sources": args.sources, "reps": args.reps,
                       "locality": {f"{k[0]}:{k[1]}": v for k, v in locality.items()}}, f, indent=1)
    if args.plot:
        plot(rows, graphs, threads, [c[0] for c in configs], args.plot, load)


def plot(rows, graphs, threads, configs, path, load):
    """Fig. 5 of the paper (speedup over serial BC per graph, one panel per thread count) beside
    Fig. 12's measure (per-thread working set as a fraction of |V|)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(threads), 2, figsize=(10, 2.8 * len(threads)), squeeze=False)
    width = 0.8 / len(configs)
    colors = {"BC": "#4c72b0", "ADL": "#dd8452", "NWQ": "#55a868", "ADL+NWQ": "#c44e52"}
    top = max(1.2, max(r["speedup_vs_serial_bc"] or 0 for r in rows) * 1.25)
    for row, p in enumerate(threads):
        for col, (key, label) in enumerate((("speedup_vs_serial_bc", "speedup over serial BC"),
                                            ("ws_fraction", "working set / |V|"))):
            ax = axes[row, col]
            for i, c in enumerate(configs):
                ys = []
                for name, _ in graphs:
                    r = [r for r in rows if r["graph"] == name and r["config"] == c and r["threads"] == p][0]
                    ys.append(r["speedup_vs_serial_bc"] if key == "speedup_vs_serial_bc"
                              else r["working_set"] / r["vertices"])
                xs = [g + (i - (len(configs) - 1) / 2) * width for g in range(len(graphs))]
                ax.bar(xs, ys, width, label=c, color=colors.get(c))
                for x, y in zip(xs, ys):
                    ax.text(x, y, f"{y:.2f}", ha="center", va="bottom", fontsize=7)
            if key == "speedup_vs_serial_bc":
                ax.axhline(1.0, color="grey", lw=0.6, ls="--")
                ax.set_ylim(0, top)
            else:
                ax.set_ylim(0, 1.15)
            ax.set_ylabel(f"{label}\n{p} thread{'s' if p > 1 else ''}", fontsize=8)
            ax.set_xticks(range(len(graphs)))
            ax.set_xticklabels([g[0] for g in graphs])
    axes[0, 0].legend(ncol=len(configs), fontsize=7, loc="upper left")
    fig.suptitle("BC paper's experiment on this machine: T_BC(1)/T(p) (left, as Fig. 5) and distinct vertices "
                 f"per thread per source (right, as Fig. 12); load avg {load[0]:.1f} on {os.cpu_count()} cores",
                 fontsize=9)
    fig.tight_layout()
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    sys.exit(main())

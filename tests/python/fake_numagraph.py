"""A stand-in numagraph CLI for the experiment tests: it answers `generate`, `convert`,
`--version` and kernel commands with `--json` records and `--profile` files whose numbers are
a fixed function of the arguments, so a test can check that a report's figures are exactly
those the runs gave. `install(folder)` writes it as an executable script and returns its path.

Times: 1 s / threads, times 0.8 with --reorder adl and 0.9 with --schedule nwq; 4 KiB pages
take 1.5x. --working-set: 100 vertices per thread under nwq, 160 otherwise (|V| = 200).
Profiles: page faults per epoch [4, 0, 0, 6] with --pages thp, [40, 10, 10, 40] with 4k;
dTLB misses the same x 1000; RAPL package energy 3 J per epoch when $FAKE_RAPL is set, else
RAPL is listed unavailable with the reason "fake: no RAPL"."""
import os
import stat
import sys
from pathlib import Path

SCRIPT = r'''
import json, os, sys
args = sys.argv[1:]
if args == ["--version"]:
    print("numagraph 0.0-fake"); sys.exit(0)
def opt(name, default=None):
    return args[args.index(name) + 1] if name in args else default
if args[0] in ("generate", "convert"):
    open(opt("-o") or args[2], "w").close(); sys.exit(0)
threads = int(opt("-t", "1"))
t = 1.0 / threads * (0.8 if opt("--reorder") == "adl" else 1.0) * (0.9 if opt("--schedule") == "nwq" else 1.0)
t *= 1.5 if opt("--pages") == "4k" else 1.0
trials = int(opt("-n", "3"))
rec = {"kernel": args[0], "num_vertices": 200, "num_edges": 800, "trials": [2 * t] + [t] * (trials - 1),
       "median_s": t, "num_sources": int(opt("--sources", "4")), "stolen_tasks": 0}
if "--working-set" in args:
    rec["working_set"] = 100.0 if opt("--schedule") == "nwq" else 160.0
prof = opt("--profile")
if prof:
    faults = [4, 0, 0, 6] if opt("--pages", "thp") == "thp" else [40, 10, 10, 40]
    metrics = [{"name": "perf.task_clock", "source": "perf_events", "unit": "ns", "kind": "counter"},
               {"name": "perf.page_faults", "source": "perf_events", "unit": "count", "kind": "counter"},
               {"name": "perf.dtlb_load_misses", "source": "perf_events", "unit": "count", "kind": "counter"}]
    samples = {"t": [0.01, 0.02, 0.03, 0.04], "phase": [1, 1, 2, 2], "perf.task_clock": [1e7] * 4,
               "perf.page_faults": faults, "perf.dtlb_load_misses": [1000 * f for f in faults]}
    unavailable = []
    phases = [{"name": "run", "parent": -1, "depth": 0, "begin": 0, "end": 0.04, "totals": {}},
              {"name": "betweenness", "parent": 0, "depth": 1, "begin": 0, "end": 0.02, "totals": {}},
              {"name": "betweenness", "parent": 0, "depth": 1, "begin": 0.02, "end": 0.04, "totals": {}}]
    if os.environ.get("FAKE_RAPL"):
        metrics.append({"name": "rapl.package-0.energy", "source": "rapl", "unit": "J", "kind": "counter"})
        metrics.append({"name": "rapl.package-0.dram.energy", "source": "rapl", "unit": "J", "kind": "counter"})
        samples["rapl.package-0.energy"] = [3.0] * 4
        samples["rapl.package-0.dram.energy"] = [1.0] * 4
        for p in phases[1:]:
            p["totals"] = {"rapl.package-0.energy": 6.0 * t, "rapl.package-0.dram.energy": 2.0 * t}
    else:
        unavailable.append({"source": "rapl", "what": "", "reason": "fake: no RAPL"})
    doc = {"format": "numagraph-profile", "version": 1,
           "metadata": {"command": "numagraph " + " ".join(args), "threads": threads, "interval_ms": 10,
                        "duration_s": 0.04, "samples": 4, "host": "fake"},
           "metrics": metrics, "unavailable": unavailable, "samples": samples, "phases": phases}
    json.dump(doc, open(prof, "w"))
    rec["profile"], rec["profile_samples"] = prof, 4
print(json.dumps(rec))
'''


def install(folder):
    path = Path(folder) / "numagraph"
    path.write_text(f"#!{sys.executable}\n{SCRIPT}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path

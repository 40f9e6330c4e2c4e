#!/usr/bin/env python3
"""Graph500 BFS benchmark: numagraph-graph500 with each seed-001 optimisation
on and off, side by side with the Graph500 reference under the same mpirun.

    python3 bench/graph500_bench.py [--bin build/mpi/numagraph-graph500]
        [--scales 16 18 20] [--ranks 1 2 4] [--repeats 3] [--validate]

The reference (public repository graph500/graph500, built outside this repo,
see docs/graph500.md) is taken from $GRAPH500_DIR/src/graph500_reference_bfs
and skipped when GRAPH500_DIR is unset. Our configurations run interleaved,
`--repeats` times each; the table shows the median of their harmonic-mean
TEPS. The reference runs once per cell (it always does 64 top-down BFS).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

# name -> numagraph-graph500 flags; the first is the paper's "Original":
# private bitmaps, a summary bit per 64 vertices.
CONFIGS = {
    "base": ["--share", "none", "--summary-bits", "64"],
    "summary256": ["--share", "none", "--summary-bits", "256"],
    "share-in": ["--share", "in", "--summary-bits", "64"],
    "share-all": ["--share", "all", "--summary-bits", "64"],
    "all-on": ["--share", "all", "--parallel-allgather", "--summary-bits", "256"],
}
# Two simulated nodes of ranks/2 ranks (only when ranks >= 4): the leaders'
# allgather against the parallel (per-stripe) one.
SIM_CONFIGS = {
    "2nodes-leaders": ["--share", "all", "--summary-bits", "256"],
    "2nodes-parallel": ["--share", "all", "--parallel-allgather", "--summary-bits", "256"],
}

MPI_ENV = {  # root, 2-core oversubscription, shared-memory transports (docs/graph500.md)
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_pml": "ob1",
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_osc": "sm,ucx",
    # Busy-polling ranks lose their time slices to other work on a loaded
    # box; yielding when idle applies to both programs alike.
    "OMPI_MCA_mpi_yield_when_idle": "1",
}


def env():
    e = dict(os.environ)
    for k, v in MPI_ENV.items():
        e.setdefault(k, v)
    return e


def mpirun(args, ranks, cmd, extra_env=None, timeout=1800):
    full = ["timeout", "-k", "10", str(timeout)] + args.mpirun.split() + ["-n", str(ranks)] + cmd
    e = env()
    if extra_env:
        e.update(extra_env)
    p = subprocess.run(full, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=e)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(full)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return p.stdout


def ours(args, scale, ranks, flags):
    cmd = [args.bin, "--scale", str(scale), "--roots", str(args.roots), "--json"] + flags
    if not args.validate:
        cmd.append("--no-validate")
    rec = json.loads(mpirun(args, ranks, cmd).strip().splitlines()[-1])
    if args.validate and rec["verified"] is not True:
        raise RuntimeError(f"validation failed: {rec}")
    return rec["teps_harmonic_mean"]


def reference(args, scale, ranks):
    exe = os.path.join(os.environ["GRAPH500_DIR"], "src", "graph500_reference_bfs")
    extra = {} if args.validate else {"SKIP_VALIDATION": "1"}
    out = mpirun(args, ranks, [exe, str(scale), "16"], extra)
    m = re.search(r"harmonic_mean_TEPS:\s*!\s*([0-9.eE+-]+)", out)
    if not m:
        raise RuntimeError("no harmonic_mean_TEPS in the reference's output:\n" + out[-2000:])
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/mpi/numagraph-graph500")
    ap.add_argument("--mpirun", default="mpirun", help="launcher command (default: mpirun)")
    ap.add_argument("--scales", type=int, nargs="+", default=[16, 18, 20])
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--roots", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--validate", action="store_true", help="validate every tree (ours and the reference's)")
    ap.add_argument("--json-out", help="write all measurements to this file")
    args = ap.parse_args()
    have_ref = bool(os.environ.get("GRAPH500_DIR"))
    if not have_ref:
        print("GRAPH500_DIR is unset: the reference column is skipped", file=sys.stderr)

    rows = []
    for scale in args.scales:
        for ranks in args.ranks:
            runs = {name: [] for name in CONFIGS}
            if ranks >= 4 and ranks % 2 == 0:
                runs.update({name: [] for name in SIM_CONFIGS})
            for _ in range(args.repeats):  # interleaved: noise hits every configuration alike
                for name in runs:
                    flags = CONFIGS.get(name) or SIM_CONFIGS[name] + ["--ranks-per-node", str(ranks // 2)]
                    runs[name].append(ours(args, scale, ranks, flags))
            row = {"scale": scale, "ranks": ranks}
            row.update({name: statistics.median(v) for name, v in runs.items()})
            row["reference"] = reference(args, scale, ranks) if have_ref else None
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)

    names = list(CONFIGS) + list(SIM_CONFIGS)
    print("Harmonic-mean TEPS (millions), median of %d interleaved runs; ratio = all-on / reference" % args.repeats)
    print("| SCALE | ranks | " + " | ".join(names) + " | reference | ratio |")
    print("|---" * (len(names) + 4) + "|")
    for r in rows:
        cells = ["%.1f" % (r[n] / 1e6) if r.get(n) else "-" for n in names]
        ref = r["reference"]
        ratio = "%.1fx" % (r["all-on"] / ref) if ref else "-"
        print(f"| {r['scale']} | {r['ranks']} | " + " | ".join(cells) + f" | {'%.1f' % (ref / 1e6) if ref else '-'} | {ratio} |")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

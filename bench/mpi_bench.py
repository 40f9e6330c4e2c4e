#!/usr/bin/env python3
"""numagraph-mpi against numagraph on the same cores, rounds interleaved.

    python3 bench/mpi_bench.py [--scale 20] [--ranks 2 4] [--rounds 3]
        [--kernels info bfs cc pr sssp] [--file GRAPH] [--markdown]

For each kernel: `numagraph K FILE -t T` (T = the cores, default 2) against
`mpirun -n R numagraph-mpi K FILE -t T/R` for each R of --ranks (at least one
thread per rank), each run in a fresh process, alternating, --rounds times;
the table shows medians of the kernel's median_s and the ratio
shared / distributed (above 1: the distributed run is faster). `info` compares
the loads: load_s in the table, the parse throughput (input bytes / read_s)
below it. Peak RSS is the largest rank's. Without --file a Kronecker graph of --scale is written as
a text edge list (numagraph generate kron) under $NUMAGRAPH_BENCH_DATA (default
/tmp/numagraph-bench) and reused.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1",
    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_pml": "ob1",
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_osc": "sm,ucx",
}
KERNEL_FLAGS = {"bfs": [], "sssp": [], "cc": [], "pr": ["--variant", "jacobi"], "info": []}


def run_json(cmd, env):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=3600)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--numagraph", default=str(ROOT / "build" / "numagraph"))
    ap.add_argument("--mpi-bin", default=str(ROOT / "build" / "mpi" / "numagraph-mpi"))
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--file")
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--ranks", type=int, nargs="+", default=[2])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=3, help="trials inside each run (-n)")
    ap.add_argument("--kernels", nargs="+", default=["info", "bfs", "cc", "pr"])
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()

    env = dict(os.environ)
    for k, v in MPI_ENV.items():
        env.setdefault(k, v)
    path = a.file
    if not path:
        data = Path(os.environ.get("NUMAGRAPH_BENCH_DATA", "/tmp/numagraph-bench"))
        data.mkdir(parents=True, exist_ok=True)
        path = str(data / f"kron{a.scale}.el")
        if not Path(path).exists():
            subprocess.run([a.numagraph, "generate", "kron", "--scale", str(a.scale), "-o", path, "-q"], check=True)
    size_mb = Path(path).stat().st_size / 1e6

    def shared(kernel):
        cmd = [a.numagraph, kernel, path, "-t", str(a.cores), "--json"] + KERNEL_FLAGS[kernel]
        if kernel != "info":
            cmd += ["-n", str(a.trials)]
        return run_json(cmd, env)

    def dist(kernel, ranks):
        threads = max(1, a.cores // ranks)
        cmd = a.mpirun.split() + ["-n", str(ranks), a.mpi_bin, kernel, path, "-t", str(threads), "--json"]
        cmd += KERNEL_FLAGS[kernel] + ([] if kernel == "info" else ["-n", str(a.trials)])
        rec = run_json(cmd, env)
        assert rec["ranks"] == ranks, "wrong communicator size: is mpirun from the MPI numagraph-mpi was built with?"
        return rec

    rows = []
    for kernel in a.kernels:
        runs = {"shared": []}
        runs.update({r: [] for r in a.ranks})
        for _ in range(a.rounds):
            runs["shared"].append(shared(kernel))
            for r in a.ranks:
                runs[r].append(dist(kernel, r))
        key = "load_s" if kernel == "info" else "median_s"
        base = statistics.median(x[key] for x in runs["shared"])
        for r in a.ranks:
            t = statistics.median(x[key] for x in runs[r])
            rss = statistics.median(max(p["peak_rss_bytes"] for p in x["per_rank"]) for x in runs[r])
            row = {"kernel": kernel, "ranks": r, "threads_per_rank": max(1, a.cores // r), "shared_s": base,
                   "mpi_s": t, "ratio": base / t if t > 0 else float("nan"), "mpi_peak_rss_mb": rss / 2**20}
            if kernel == "info":
                read = statistics.median(x["read_s"] for x in runs[r])
                row["mpi_parse_mb_s"] = size_mb / read if read > 0 else float("nan")
                shared_read = statistics.median(x["read_s"] for x in runs["shared"])
                row["shared_parse_mb_s"] = size_mb / shared_read if shared_read > 0 else float("nan")
                row["shared_rss_mb"] = statistics.median(
                    x.get("peak_rss_bytes", 0) for x in runs["shared"]) / 2**20
            rows.append(row)
    head = f"{Path(path).name} ({size_mb:.0f} MB), {a.cores} cores, medians of {a.rounds} interleaved rounds"
    if a.markdown:
        print(f"{head}\n\n| kernel | ranks x threads | numagraph (s) | numagraph-mpi (s) | numagraph / mpi | peak RSS per rank (MB) |")
        print("|---|---|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['kernel']} | {r['ranks']} x {r['threads_per_rank']} | {r['shared_s']:.3f} | {r['mpi_s']:.3f} "
                  f"| {r['ratio']:.2f} | {r['mpi_peak_rss_mb']:.0f} |")
        for r in rows:
            if "mpi_parse_mb_s" in r:
                print(f"\nParse throughput (file bytes / parse seconds, the slowest rank's): numagraph "
                      f"{r['shared_parse_mb_s']:.0f} MB/s, numagraph-mpi at {r['ranks']} x {r['threads_per_rank']} "
                      f"{r['mpi_parse_mb_s']:.0f} MB/s.")
    else:
        print(head)
        for r in rows:
            print(json.dumps(r))


if __name__ == "__main__":
    main()

"""make demo: one generated graph, every kernel verified, one results table.

Usage: demo.py NUMAGRAPH_BINARY [SCALE]
"""
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.argv[1]).resolve()
SCALE = int(sys.argv[2]) if len(sys.argv) > 2 else 18

# kernel -> extra flags; sssp needs weights, so it runs on the weighted copy.
KERNELS = [
    ("bfs", ["--sources", "8"]),
    ("sssp", ["--sources", "4"]),
    ("bc", ["--sources", "4"]),
    ("diameter", []),
    ("pr", ["--iterations", "20"]),
    ("spmv", ["--iterations", "5"]),
    ("bp", ["--iterations", "5"]),
    ("cc", []),
    ("kcore", []),
    ("eigenvector", []),
    ("tc", []),
    ("communities", []),
]


def run(*args):
    t = time.perf_counter()
    proc = subprocess.run([str(BIN), *map(str, args)], capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if proc.returncode != 0:
        sys.exit(f"demo: numagraph {' '.join(map(str, args))} failed ({proc.returncode}):\n"
                 f"{proc.stderr.strip()}")
    return proc.stdout, elapsed


def has_command(name):
    return subprocess.run([str(BIN), name, "--help"], capture_output=True).returncode == 0


def main():
    rows = []
    with tempfile.TemporaryDirectory(prefix="numagraph-demo-") as tmp:
        ngr = Path(tmp) / f"kron{SCALE}.ngr"
        wngr = Path(tmp) / f"kron{SCALE}w.ngr"
        el = Path(tmp) / f"kron{SCALE}.el"
        _, t_gen = run("generate", "kron", "--scale", SCALE, "-o", ngr)
        run("generate", "kron", "--scale", SCALE, "--weighted", "-o", wngr)
        _, t_conv = run("convert", ngr, el)
        info_el = json.loads(run("info", el, "--json")[0])
        info_ngr = json.loads(run("info", ngr, "--json")[0])
        n, m = info_ngr["num_vertices"], info_ngr["num_edges"]
        rows.append(("generate+build+write .ngr", f"{t_gen:.3f}", "", "-"))
        rows.append(("convert .ngr -> .el", f"{t_conv:.3f}", f"{el.stat().st_size / 2**20:.0f} MiB", "-"))
        rows.append(("load .el (parse+build)", f"{info_el['load_s']:.3f}",
                     f"{el.stat().st_size / 2**20 / max(info_el['load_s'], 1e-9):.0f} MiB/s", "-"))
        rows.append(("load .ngr (mmap)", f"{info_ngr['load_s']:.3f}",
                     f"{ngr.stat().st_size / 2**30 / max(info_ngr['load_s'], 1e-9):.1f} GiB/s", "-"))
        failed = []
        for kernel, flags in KERNELS:
            if not has_command(kernel):
                rows.append((kernel, "-", "not built yet", "-"))
                continue
            graph = wngr if kernel == "sssp" else ngr
            out, _ = run(kernel, graph, "--verify", "--json", "-n", "3", *flags)
            recs = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
            rec = recs[-1]
            rate = ""
            if "teps_harmonic_mean" in rec:
                rate = f"{rec['teps_harmonic_mean'] / 1e6:.1f} MTEPS"
            elif rec.get("median_s"):
                rate = f"{m / rec['median_s'] / 1e6:.1f} M edges/s"
            ok = all(r.get("verified") is True for r in recs)
            if not ok:
                failed.append(kernel)
            rows.append((kernel, f"{rec['median_s']:.4f}", rate, "PASS" if ok else "FAIL"))
    print(f"\nnumagraph demo: Graph500 Kronecker scale {SCALE}: |V| = {n:,}, |E| = {m:,} (undirected)\n")
    widths = [max(len(str(r[i])) for r in rows + [("step", "median s", "rate", "verified")]) for i in range(4)]
    header = ("step", "median s", "rate", "verified")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    if failed:
        sys.exit(f"\ndemo: verification FAILED for {', '.join(failed)}")


if __name__ == "__main__":
    main()

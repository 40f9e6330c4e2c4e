#!/usr/bin/env python3
"""numagraph's betweenness and SSSP against gapbs, GBBS and Ligra, on the same graphs.

Usage:
  GAPBS_DIR=... GBBS_DIR=... LIGRA_DIR=... bench/peers.py [--graphs kron20,urand22,road-NY]
      [--kernels bc,bc16,sssp] [--rounds 3] [--trials 3] [--threads 2] [--workdir DIR] [--out FILE]

Each peer directory is optional; a peer whose variable is unset is left out.
  GAPBS_DIR  a built gapbs tree (its bc, sssp binaries)
  GBBS_DIR   a built GBBS tree (benchmarks/SSBetweenessCentrality/Brandes/SSBetweennessCentrality,
             benchmarks/PositiveWeightSSSP/DeltaStepping/DeltaStepping)
  LIGRA_DIR  a built Ligra tree (apps/BC, apps/BellmanFord)
numagraph is timed in process by bench/bc_sssp_driver.cpp (NUMAGRAPH_DRIVER, default
build-bc/bc_sssp_driver; its header says how to build it) and graphs are made with the
numagraph CLI (NUMAGRAPH_BIN, default build-bc/numagraph, else build/numagraph).

Kernels:
  bc    one source: numagraph's direction-optimizing Brandes (do) and the push-only one
        (brandes); gapbs bc -i 1; Ligra BC; GBBS SSBetweennessCentrality in each of its
        three modes (default, -fa, -ligra), the fastest kept.
  bc16  16 sampled sources: numagraph in one call (auto: the entry point's choice, which
        the ratio uses; do: one source after the other, i.e. sixteen single-source runs;
        batched:16: all 16 sharing each sweep; source-parallel: one serial search per thread). The peers take one source per run, so
        their time is the sum over the sources of each source's median trial; with
        --peer-roots N < 16 they run the first N sources and the sum is scaled by 16 / N
        (each run loads the graph again, which takes longer than the search).
  sssp  one source: numagraph at its automatic delta (choose_delta) and at the best delta
        of a sweep; gapbs sssp and GBBS DeltaStepping each at the best delta of their own
        sweep. Ligra has no delta-stepping; its BellmanFord runs only with --ligra-sssp
        (on road graphs it takes hundreds of rounds, tens of seconds a trial).
Graphs: kron20 / urand22 (numagraph generate; --weighted for sssp), road-NY (DIMACS, from
../shared/data or $NUMAGRAPH_DATA; weights dropped for bc), grid20 (weighted 1024 x 1024 mesh, sssp only),
slashdot (soc-Slashdot0902, unit weights as the CLI gives unweighted inputs, sssp only).
Every tool reads the same vertex ids: .sg/.wsg for gapbs from `numagraph convert`, and
Ligra's (Weighted)AdjacencyGraph text (read by Ligra and GBBS) from the driver's adj mode.

Parameter sweeps run first (one process per setting, TRIALS trials each); then, for each
graph and kernel, ROUNDS rounds in which every tool runs its trials at its chosen setting,
the tools' order reversed every other round. Medians of the pooled trials; the table gives
numagraph / fastest peer (below 1: numagraph is faster).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("NUMAGRAPH_DATA", REPO.parent / "shared" / "data"))  # where road-NY lives


def default_bin():
    for p in (REPO / "build-bc" / "numagraph", REPO / "build" / "numagraph"):
        if p.is_file():
            return p
    return REPO / "build" / "numagraph"


NUMAGRAPH = Path(os.environ.get("NUMAGRAPH_BIN", default_bin()))
DRIVER = Path(os.environ.get("NUMAGRAPH_DRIVER", REPO / "build-bc" / "bc_sssp_driver"))

SSSP_DELTAS = {  # the sweeps (numagraph, gapbs and GBBS alike)
    "kron": [1, 2, 4, 8, 16, 32, 64],
    "urand": [1, 2, 4, 8, 16, 32, 64],
    "road": [1000, 2000, 4000, 8000, 16000, 32000, 64000],
    "grid": [16, 32, 64, 128, 256, 512, 1024],
    "slashdot": [1, 2, 4],
}


PROCESS_TIMEOUT_S = float(os.environ.get("PEERS_PROCESS_TIMEOUT", "120"))


def sh(cmd, env=None):
    """Runs one tool; one that outlives PEERS_PROCESS_TIMEOUT seconds (default 120) is killed with its
    threads, and the run stops saying which (a spinning peer must not load the next measurements)."""
    try:
        proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env,
                              timeout=PROCESS_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        sys.exit(f"timed out after {PROCESS_TIMEOUT_S:.0f} s (PEERS_PROCESS_TIMEOUT): {' '.join(map(str, cmd))}")
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return proc.stdout


def graph_class(name):
    for c in SSSP_DELTAS:
        if name.startswith(c):
            return c
    sys.exit(f"unknown graph {name}")


def make_graph(name, weighted, workdir):
    """The graph as .ngr, with its .sg/.wsg and .adj twins; returns (ngr, sg, adj, symmetric)."""
    base = Path(workdir) / (name + ("-w" if weighted else ""))
    ngr = base.with_suffix(".ngr")
    if not ngr.exists():
        if name.startswith("kron") or name.startswith("urand"):
            kind, scale = ("kron", name[4:]) if name.startswith("kron") else ("uniform", name[5:])
            sh([NUMAGRAPH, "generate", kind, "--scale", scale, "-o", ngr] + (["--weighted"] if weighted else []))
        elif name.startswith("grid"):
            sh([NUMAGRAPH, "generate", "grid", "--scale", name[4:], "--weighted", "-o", ngr])
        elif name == "road-NY":
            src = SHARED / "USA-road-d.NY" / "USA-road-d.NY.gr.gz"
            if weighted:
                sh([NUMAGRAPH, "convert", src, ngr])
            else:  # through an edge list, which drops the weights and keeps the ids
                el = base.with_suffix(".el")
                sh([NUMAGRAPH, "convert", src, el])
                sh([NUMAGRAPH, "convert", el, ngr, "--relabel", "off"])
        elif name == "slashdot":
            src = SHARED / "soc-Slashdot0902" / "soc-Slashdot0902.txt.gz"
            if weighted:  # weight 1 on every arc, as the CLI searches unweighted inputs (gapbs needs a .wsg)
                el, wel = base.with_suffix(".el"), base.with_suffix(".wel")
                sh([NUMAGRAPH, "convert", src, el])
                wel.write_text("".join(line.rstrip("\n") + " 1\n" for line in el.open()))
                sh([NUMAGRAPH, "convert", wel, ngr, "--relabel", "off"])
            else:
                sh([NUMAGRAPH, "convert", src, ngr])
        else:
            sys.exit(f"unknown graph {name}")
    sg = base.with_suffix(".wsg" if weighted else ".sg")
    if not sg.exists():
        sh([NUMAGRAPH, "convert", ngr, sg])
    adj = base.with_suffix(".adj")
    kind_file = base.with_suffix(".adjkind")
    if not adj.exists():
        kind_file.write_text(sh([DRIVER, ngr, "adj", adj] + ([] if weighted else ["plain"])).strip())
    return ngr, sg, adj, kind_file.read_text() == "symmetric"


def times(out, pattern):
    return [float(x) for x in re.findall(pattern, out)]


def env_threads(threads):
    return dict(os.environ, OMP_NUM_THREADS=str(threads), PARLAY_NUM_THREADS=str(threads))


class Tools:
    def __init__(self, args):
        self.args = args
        self.gapbs = os.environ.get("GAPBS_DIR")
        self.gbbs = os.environ.get("GBBS_DIR")
        self.ligra = os.environ.get("LIGRA_DIR")
        self.env = env_threads(args.threads)

    # Each returns the list of trial times of one process.
    def numagraph(self, g, mode, roots, setting):
        out = sh([DRIVER, g["ngr"], mode, ",".join(map(str, roots)), self.args.trials, setting], env=self.env)
        return times(out, r"Trial Time: ([0-9.eE+-]+)")

    def gapbs_run(self, g, kernel, root, setting):
        if kernel == "bc":
            cmd = [Path(self.gapbs) / "bc", "-f", g["sg"], "-r", root, "-i", 1, "-n", self.args.trials]
        else:
            cmd = [Path(self.gapbs) / "sssp", "-f", g["sg"], "-r", root, "-d", setting, "-n", self.args.trials]
        return times(sh(cmd, env=self.env), r"Trial Time:\s+([0-9.eE+-]+)")

    def ligra_run(self, g, kernel, root, setting):
        app = "BC" if kernel == "bc" else "BellmanFord"
        cmd = [Path(self.ligra) / "apps" / app] + (["-s"] if g["symmetric"] else [])
        cmd += ["-r", root, "-rounds", self.args.trials, g["adj"]]
        return times(sh(cmd, env=self.env), r"Running time : ([0-9.eE+-]+)")

    def gbbs_run(self, g, kernel, root, setting):
        if kernel == "bc":
            exe = Path(self.gbbs) / "benchmarks/SSBetweenessCentrality/Brandes/SSBetweennessCentrality"
            extra = [] if setting == "default" else [setting]
        else:
            exe = Path(self.gbbs) / "benchmarks/PositiveWeightSSSP/DeltaStepping/DeltaStepping"
            extra = ["-delta", setting]
        cmd = [exe] + (["-s"] if g["symmetric"] else []) + ["-src", root, "-rounds", self.args.trials] + extra + [g["adj"]]
        return times(sh(cmd, env=self.env), r"### Running Time: ([0-9.eE+-]+)")

    def peers(self, kernel):
        """(name, run function, settings to sweep) of the peers present."""
        out = []
        if self.gapbs:
            out.append(("gapbs", self.gapbs_run, None if kernel == "bc" else "deltas"))
        if self.gbbs:
            out.append(("GBBS", self.gbbs_run, ["default", "-fa", "-ligra"] if kernel == "bc" else "deltas"))
        if self.ligra and (kernel == "bc" or self.args.ligra_sssp):
            out.append(("Ligra", self.ligra_run, None))
        return out


def best_setting(run, settings):
    """The setting whose trials have the smallest median (one process each)."""
    if not settings:
        return None, {}
    medians = {s: statistics.median(run(s)) for s in settings}
    return min(medians, key=medians.get), medians


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graphs", default="kron20,urand22,road-NY")
    ap.add_argument("--kernels", default="bc,bc16,sssp")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=3, help="trials per process")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--ligra-sssp", action="store_true", help="also time Ligra's BellmanFord for sssp")
    ap.add_argument("--peer-roots", type=int, default=16, help="bc16: sources the peers run (scaled to 16)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the roots (vertices with out-edges)")
    ap.add_argument("--workdir", default=None, help="where graph files go (default: a temp dir)")
    ap.add_argument("--out", default=None, help="also write the rows as JSON here")
    args = ap.parse_args()
    if not DRIVER.is_file():
        sys.exit(f"{DRIVER}: build bench/bc_sssp_driver.cpp first (see its header), or set NUMAGRAPH_DRIVER")
    tools = Tools(args)
    workdir = args.workdir or tempfile.mkdtemp(prefix="numagraph-peers-")
    Path(workdir).mkdir(parents=True, exist_ok=True)
    rows = []
    for graph in args.graphs.split(","):
        for kernel in args.kernels.split(","):
            base_kernel = "bc" if kernel.startswith("bc") else "sssp"
            if base_kernel == "bc" and graph_class(graph) in ("grid", "slashdot"):
                continue
            ngr, sg, adj, symmetric = make_graph(graph, base_kernel == "sssp", workdir)
            g = {"ngr": ngr, "sg": sg, "adj": adj, "symmetric": symmetric}
            k = 16 if kernel == "bc16" else 1
            roots = [int(r) for r in sh([DRIVER, ngr, "roots", k, args.seed]).split(",")]
            # Settings: numagraph's variants, and each peer's best parameter.
            if base_kernel == "bc":
                ours = ["do", "brandes"] if k == 1 else ["auto", "do", "batched:16", "source-parallel"]
                mode = "bc"
            else:
                deltas = SSSP_DELTAS[graph_class(graph)]
                best, sweep = best_setting(lambda d: tools.numagraph(g, "sssp", roots, str(d)), deltas)
                print(f"{graph} sssp numagraph delta sweep: " + ", ".join(f"{d}: {t:.4f}" for d, t in sweep.items()),
                      flush=True)
                ours = ["auto", str(best)]
                mode = "sssp"
            peer_settings = {}
            for name, run, settings in tools.peers(base_kernel):
                if settings == "deltas":
                    settings = SSSP_DELTAS[graph_class(graph)]
                choice, sweep = best_setting(lambda s: run(g, base_kernel, roots[0], s), settings)
                peer_settings[name] = choice
                if sweep:
                    print(f"{graph} {kernel} {name} sweep: " + ", ".join(f"{s}: {t:.4f}" for s, t in sweep.items()),
                          flush=True)
            ours_trials = {s: [] for s in ours}
            peer_trials = {name: [] for name in peer_settings}
            for r in range(args.rounds):
                runs = [("numagraph", None)] + [(name, run) for name, run, _ in tools.peers(base_kernel)]
                for name, run in (runs if r % 2 == 0 else runs[::-1]):
                    if name == "numagraph":
                        out = sh([DRIVER, ngr, mode, ",".join(map(str, roots)), args.trials, *ours], env=tools.env)
                        for s in ours:
                            ours_trials[s] += times(out, rf"(?m)^{re.escape(s)} Trial Time: ([0-9.eE+-]+)")
                    else:
                        # One source per process: per-root medians summed (bc16), else the trials.
                        if k == 1:
                            peer_trials[name] += run(g, base_kernel, roots[0], peer_settings[name])
                        else:
                            some = roots[:max(1, min(args.peer_roots, k))]
                            total = sum(statistics.median(run(g, base_kernel, root, peer_settings[name])) for root in some)
                            peer_trials[name].append(total * k / len(some))
            row = {"graph": graph, "kernel": kernel, "roots": roots if k == 1 else len(roots),
                   "numagraph": {s: statistics.median(t) for s, t in ours_trials.items()},
                   "numagraph_fastest": {s: min(t) for s, t in ours_trials.items()},
                   "peers": {n: statistics.median(t) for n, t in peer_trials.items() if t},
                   "peers_fastest": {n: min(t) for n, t in peer_trials.items() if t},
                   "peer_settings": peer_settings}
            if base_kernel == "sssp":
                row["best_delta"] = ours[1]
            ng = row["numagraph"][ours[0]]
            if row["peers"]:
                fastest = min(row["peers"], key=row["peers"].get)
                row["fastest_peer"] = fastest
                row["ratio"] = ng / row["peers"][fastest]
                row["ratio_of_fastest_trials"] = row["numagraph_fastest"][ours[0]] / min(row["peers_fastest"].values())
            if kernel == "bc16":
                row["auto_vs_16_single"] = row["numagraph"]["auto"] / row["numagraph"]["do"]
            rows.append(row)
            print(f"{graph:9s} {kernel:5s} numagraph " +
                  " ".join(f"{s}={t:.4f}" for s, t in row["numagraph"].items()) +
                  "".join(f"  {n} {t:.4f}" + (f" ({peer_settings[n]})" if peer_settings.get(n) else "")
                          for n, t in row["peers"].items()) +
                  (f"  ratio {ours[0]}/{row['fastest_peer']} {row['ratio']:.3f}"
                   f" (fastest trials {row['ratio_of_fastest_trials']:.3f})" if "ratio" in row else "") +
                  (f"  auto/do {row['auto_vs_16_single']:.3f}" if "auto_vs_16_single" in row else ""), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

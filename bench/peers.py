#!/usr/bin/env python3
"""numagraph against gapbs, GBBS and Ligra on the same graphs: every kernel they share.

Usage:
  GAPBS_DIR=... GBBS_DIR=... LIGRA_DIR=... bench/peers.py [--graphs kron20,urand22,road-NY]
      [--kernels bc,bc16,sssp,bfs,pr,pr_spmv,cc,tc,kcore] [--rounds 3] [--trials 3] [--threads 2]
      [--engine flat] [--workdir DIR] [--out FILE] [--record FILE] [--markdown]

--out writes the rows as JSON; --record writes them as a result record (bench/bench_record.py:
with the command, the machine and the peers' versions) for bench/perf_page.py, which renders
docs/performance.md from bench/results/MACHINE/*.json; --markdown prints the table at the end.

Each peer directory is optional; a peer whose variable is unset is left out, and so is a
program missing from a tree (a note says which).
  GAPBS_DIR  a built gapbs tree (bc, sssp; bfs, pr, pr_spmv, cc, cc_sv, tc), or several builds of
             it with different compiler flags, separated by ':' (the build is then swept as one
             more parameter, named #1, #2, ... in the order given: its default Makefile and
             -march=x86-64-v3 each win some kernels on some machines)
  GBBS_DIR   a built GBBS tree (benchmarks/SSBetweenessCentrality/Brandes/SSBetweennessCentrality,
             benchmarks/PositiveWeightSSSP/DeltaStepping/DeltaStepping; BFS/NonDeterministicBFS/BFS,
             PageRank/PageRank, Connectivity/WorkEfficientSDB14/Connectivity and optionally
             Connectivity/ConnectIt/mains/unite_rem_cas_kout, TriangleCounting/ShunTangwongsan15/Triangle,
             KCore/JulienneDBS17/KCore, all under benchmarks/)
  LIGRA_DIR  a built Ligra tree (apps/BC, apps/BellmanFord; apps/BFS, BFS-Bitvector, PageRank,
             Components, Components-Shortcut, Triangle, KCore)
bc, bc16 and sssp: numagraph is timed in process by bench/bc_sssp_driver.cpp (NUMAGRAPH_DRIVER,
default build-bc/bc_sssp_driver; its header says how to build it). The other kernels need no
driver: numagraph runs as its CLI (`numagraph KERNEL GRAPH -n TRIALS -t THREADS --json`, engine
--engine, default flat as bench/vs_gapbs.py; tc has no engine switch), whose per-trial times
exclude loading the graph, as gapbs's Trial Time, GBBS's Running Time and Ligra's Running time
do. Graphs are made with the numagraph CLI (NUMAGRAPH_BIN, default build-bc/numagraph, else
build/numagraph).

Kernels:
  bc    one source: numagraph's entry point (auto, which the ratio uses), its
        direction-optimizing Brandes (do) and the push-only one (brandes); gapbs bc -i 1;
        Ligra BC; GBBS SSBetweennessCentrality in each of its three modes (default, -fa,
        -ligra), the fastest kept.
  bc16  16 sampled sources: numagraph in one call (auto: the entry point's choice, which
        the ratio uses; do and brandes: one source after the other, i.e. sixteen
        single-source runs, the faster of which is the row's "auto_vs_16_single" baseline;
        batched:16: all 16 sharing each sweep; source-parallel: one serial search per
        thread, source after source). The peers take one source per run, so
        their time is the sum over the sources of each source's median trial; with
        --peer-roots N < 16 they run the first N sources and the sum is scaled by 16 / N
        (each run loads the graph again, which takes longer than the search).
  sssp  one source: numagraph at its automatic delta (choose_delta) and at the best delta
        of a sweep; gapbs sssp and GBBS DeltaStepping each at the best delta of their own
        sweep. Ligra has no delta-stepping; its BellmanFord runs only with --ligra-sssp
        (on road graphs it takes hundreds of rounds, tens of seconds a trial).
  bfs   one root (numagraph bfs --sources 1 --seed SEED picks a vertex with edges): numagraph
        bfs --source ROOT (direction-optimizing; it times the parent array, as gapbs); gapbs
        bfs -r ROOT; GBBS BFS -src ROOT; Ligra BFS and BFS-Bitvector -r ROOT (sweep).
  pr    Gauss-Seidel to the same stopping rule: numagraph pr --variant gauss-seidel --iterations
        20 --tolerance 1e-4; gapbs pr -i 20 -t 1e-4 (both stop once the L1 change of the scores
        is below 1e-4, at most 20 iterations). GBBS and Ligra have no Gauss-Seidel PageRank.
  pr_spmv  Jacobi (power iteration): numagraph pr --variant jacobi --iterations 20 --tolerance
        1e-4; gapbs pr_spmv -i 20 -t 1e-4; GBBS PageRank -eps 1e-4 -iters 20 (the same rule: L1
        change of the scores below 1e-4; its default and -em edgeMap versions swept; its
        -delta PageRankDelta is approximate and left out); Ligra PageRank has a fixed stopping
        rule (L1 change below 1e-7, -maxiters at most), so it runs with -maxiters K, K being the
        iterations numagraph's jacobi takes to 1e-4 (a 1e-7 rule cannot stop it sooner): every
        tool does the same K sweeps. numagraph's iterations and per-iteration time are in the
        row; the largest score of gapbs (-a), GBBS (max_pr; it prints 0 when it stopped at
        -iters, then no check) and numagraph is shown beside it.
        The model is gapbs's for all four (damping 0.85, dangling mass dropped, start 1/n).
  cc    numagraph cc --variant afforest (ratio) and sv; gapbs cc (Afforest) and cc_sv, GBBS
        Connectivity (WorkEfficientSDB14, its default) and ConnectIt's unite_rem_cas_kout
        (when built; its fastest of the finds it runs), Ligra Components and
        Components-Shortcut: each peer's fastest of its sweep.
  tc    numagraph tc; gapbs tc; GBBS Triangle -ordering degree and goodrich (sweep); Ligra Triangle.
  kcore numagraph kcore; GBBS KCore default and -fa (sweep); Ligra KCore. gapbs has none.
  Where a tool prints its answer (components, triangles, reached vertices, largest core,
  largest score) the row's "checks" hold it beside numagraph's (MISMATCH on the line when a
  count differs); a swept setting whose count differs from numagraph's is left out of the
  choice and named (row key "left_out"): GBBS KCore -fa printed k_max 69 on kron12, 45 on
  urand12 and 6 on road-NY, where numagraph, Ligra and GBBS's default said 65, 23 and 3
  (networkx: 65 on kron12). Rows have the keys of the bc/sssp rows ("roots": [ROOT] for bfs,
  [] otherwise), and for pr/pr_spmv "iterations", "numagraph_per_iteration" and
  "ligra_maxiters".
Graphs: kron20 / urand22 (numagraph generate; --weighted for sssp; any scale: kron16, urand10),
road-NY (DIMACS, from ../shared/data or $NUMAGRAPH_DATA; weights dropped for bc), grid20 (weighted
1024 x 1024 mesh, sssp only), slashdot (soc-Slashdot0902, unit weights as the CLI gives unweighted
inputs, sssp only for the driver's kernels), pgp (PGPgiantcompo, the METIS-format graph of
../shared/data, unit weights, sssp only), rome99 (DIMACS road graph of Rome, sssp only),
mesh4elt (METIS's 4elt.graph, a 2-D finite-element mesh of 15,606 vertices and 45,878 edges,
unit weights, sssp only; not in ../shared/data: copy graphs/4elt.graph of the METIS repository,
github.com/KarypisLab/METIS, into $NUMAGRAPH_EXTRA_DATA, default the workdir).
bfs, pr, pr_spmv, cc, tc and kcore run on the graph
made undirected, without self-loops or parallel edges (kron and urand are generated so; road-NY
and slashdot are converted with -s --drop-self-loops --dedupe into NAME-sym files).
Every tool reads the same vertex ids: .sg/.wsg for gapbs from `numagraph convert`, and
Ligra's (Weighted)AdjacencyGraph text (read by Ligra and GBBS) from the driver's adj mode
(bc, sssp) or, for the undirected graphs, written here from the .sg (the same CSR).

Parameter sweeps run first (one process per setting, TRIALS trials each); then, for each
graph and kernel, ROUNDS rounds in which every tool runs its trials at its chosen setting,
the tools' order reversed every other round; numagraph runs a process per setting too, so
every tool's trials run back to back. Medians of the pooled trials; the table gives
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_record  # noqa: E402
import peers_table  # noqa: E402

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
    "slashdot": [1, 2, 4, 8, 16, 32, 64],
    "pgp": [1, 2, 4, 8, 16, 32, 64],
    "rome": [250, 500, 1000, 2000, 4000, 8000, 16000],
    "mesh": [1, 2, 4, 8, 16, 32, 64],
}
# Graphs read from ../shared/data (or $NUMAGRAPH_DATA) whose SSSP runs with weight 1 on every
# arc, as the CLI searches unweighted inputs (gapbs needs a .wsg).
# The edge list in between lists an undirected graph's edges once: those get -s back.
UNIT_WEIGHT_SOURCES = {
    "slashdot": ("soc-Slashdot0902", "soc-Slashdot0902.txt.gz"),
    "pgp": ("PGPgiantcompo", "PGPgiantcompo.graph"),  # METIS, undirected
}
# Unit-weight graphs that ../shared/data lacks, read from $NUMAGRAPH_EXTRA_DATA (default the
# workdir): name -> (file, where to get it).
EXTRA_SOURCES = {
    "mesh4elt": ("4elt.graph", "graphs/4elt.graph of the METIS repository (github.com/KarypisLab/METIS)"),
}
UNDIRECTED_SOURCES = {"pgp", "mesh4elt"}
# DIMACS road graphs in ../shared/data, their distances as SSSP weights.
DIMACS_SOURCES = {
    "road-NY": ("USA-road-d.NY", "USA-road-d.NY.gr.gz"),
    "rome99": ("rome99", "rome99.gr"),  # Rome, 3,353 vertices
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


def generate_synthetic(name, ngr, weighted):
    """kronN / urandN with numagraph generate (undirected, no self-loops or parallel edges)."""
    kind, scale = ("kron", name[4:]) if name.startswith("kron") else ("uniform", name[5:])
    sh([NUMAGRAPH, "generate", kind, "--scale", scale, "-o", ngr] + (["--weighted"] if weighted else []))


def convert_without_weights(src, el, ngr, extra=()):
    """src to ngr through an edge list, which drops the weights and keeps the ids."""
    sh([NUMAGRAPH, "convert", src, el])
    sh([NUMAGRAPH, "convert", el, ngr, "--relabel", "off", *extra])


def unit_weight_source(name, workdir):
    """The input file of a unit-weight graph: ../shared/data's, or an extra one (exits saying
    where to get it when it is missing)."""
    if name in UNIT_WEIGHT_SOURCES:
        return SHARED.joinpath(*UNIT_WEIGHT_SOURCES[name])
    file, origin = EXTRA_SOURCES[name]
    src = Path(os.environ.get("NUMAGRAPH_EXTRA_DATA", workdir)) / file
    if not src.is_file():
        sys.exit(f"{name}: {src} is missing; copy {origin} there (or set NUMAGRAPH_EXTRA_DATA to its folder)")
    return src


def make_graph(name, weighted, workdir):
    """The graph as .ngr, with its .sg/.wsg and .adj twins; returns (ngr, sg, adj, symmetric)."""
    base = Path(workdir) / (name + ("-w" if weighted else ""))
    ngr = base.with_suffix(".ngr")
    if not ngr.exists():
        if name.startswith("kron") or name.startswith("urand"):
            generate_synthetic(name, ngr, weighted)
        elif name.startswith("grid"):
            sh([NUMAGRAPH, "generate", "grid", "--scale", name[4:], "--weighted", "-o", ngr])
        elif name in DIMACS_SOURCES:
            src = SHARED.joinpath(*DIMACS_SOURCES[name])
            if weighted:
                sh([NUMAGRAPH, "convert", src, ngr])
            else:
                convert_without_weights(src, base.with_suffix(".el"), ngr)
        elif name in UNIT_WEIGHT_SOURCES or name in EXTRA_SOURCES:
            src = unit_weight_source(name, workdir)
            if weighted:  # weight 1 on every arc, as the CLI searches unweighted inputs (gapbs needs a .wsg)
                el, wel = base.with_suffix(".el"), base.with_suffix(".wel")
                sh([NUMAGRAPH, "convert", src, el])
                wel.write_text("".join(line.rstrip("\n") + " 1\n" for line in el.open()))
                sh([NUMAGRAPH, "convert", wel, ngr, "--relabel", "off"] + (["-s"] if name in UNDIRECTED_SOURCES else []))
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


def gapbs_builds():
    """GAPBS_DIR's builds: one folder, or several separated by os.pathsep."""
    return [p for p in os.environ.get("GAPBS_DIR", "").split(os.pathsep) if p]


def with_builds(settings, builds):
    """A peer's settings times its builds: unchanged for one build, else each setting (or, for a
    peer that sweeps nothing, the empty setting) once per build, as 'SETTING#K'."""
    if len(builds) < 2:
        return settings
    return [f"{s}#{k}" for s in (settings or [""]) for k in range(1, len(builds) + 1)]


def split_build(setting, builds):
    """(the setting without its build, the build's folder) of a with_builds setting."""
    if len(builds) < 2 or setting is None:
        return setting, builds[0]
    value, k = str(setting).rsplit("#", 1)
    return (value or None), builds[int(k) - 1]


class Tools:
    def __init__(self, args):
        self.args = args
        self.gapbs = gapbs_builds()
        self.gbbs = os.environ.get("GBBS_DIR")
        self.ligra = os.environ.get("LIGRA_DIR")
        self.env = env_threads(args.threads)

    # Each returns the list of trial times of one process.
    def numagraph(self, g, mode, roots, setting):
        out = sh([DRIVER, g["ngr"], mode, ",".join(map(str, roots)), self.args.trials, setting], env=self.env)
        return times(out, r"Trial Time: ([0-9.eE+-]+)")

    def gapbs_run(self, g, kernel, root, setting):
        setting, tree = split_build(setting, self.gapbs)
        if kernel == "bc":
            cmd = [Path(tree) / "bc", "-f", g["sg"], "-r", root, "-i", 1, "-n", self.args.trials]
        else:
            cmd = [Path(tree) / "sssp", "-f", g["sg"], "-r", root, "-d", setting, "-n", self.args.trials]
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


# ---- Kernels timed through the numagraph CLI (bfs, pr, pr_spmv, cc, tc, kcore) ----

CLI_KERNELS = ("bfs", "pr", "pr_spmv", "cc", "tc", "kcore")
PR_RULE = ["--iterations", "20", "--tolerance", "1e-4"]

# numagraph's settings per kernel: name -> (CLI command, flags); the first is the ratio's.
OURS = {
    "bfs": {"do": ("bfs", ["--source", "{root}"])},
    "pr": {"gauss-seidel": ("pr", ["--variant", "gauss-seidel", *PR_RULE])},
    "pr_spmv": {"jacobi": ("pr", ["--variant", "jacobi", *PR_RULE])},
    "cc": {"afforest": ("cc", ["--variant", "afforest"]), "sv": ("cc", ["--variant", "sv"])},
    "tc": {"tc": ("tc", [])},
    "kcore": {"kcore": ("kcore", [])},
}
# What numagraph's JSON says of its answer, beside what the peers print (CHECKS).
OUR_CHECK = {"bfs": "reached", "pr": "top_score", "pr_spmv": "top_score", "cc": "num_components",
             "tc": "triangles", "kcore": "max_core"}

TIME = {"gapbs": r"Trial Time:\s+([0-9.eE+-]+)", "GBBS": r"### Running Time: ([0-9.eE+-]+)",
        "Ligra": r"Running time : ([0-9.eE+-]+)"}
GBBS_B = "benchmarks/"
# peer -> kernel -> setting -> (program in the tree, flags); {root}, {pr_iters} filled in.
# Every setting of a peer and kernel is run in the sweep; the fastest median is kept.
PEER_SETTINGS = {
    "gapbs": {
        "bfs": {"bfs": ("bfs", ["-r", "{root}", "-a"])},
        "pr": {"pr": ("pr", ["-i", "20", "-t", "1e-4", "-a"])},
        "pr_spmv": {"pr_spmv": ("pr_spmv", ["-i", "20", "-t", "1e-4", "-a"])},
        "cc": {"cc": ("cc", ["-a"]), "cc_sv": ("cc_sv", ["-a"])},
        "tc": {"tc": ("tc", ["-a"])},
    },
    "GBBS": {
        "bfs": {"default": (GBBS_B + "BFS/NonDeterministicBFS/BFS", ["-src", "{root}"])},
        "pr_spmv": {"default": (GBBS_B + "PageRank/PageRank", ["-eps", "1e-4", "-iters", "20"]),
                    "-em": (GBBS_B + "PageRank/PageRank", ["-eps", "1e-4", "-iters", "20", "-em"])},
        "cc": {"WorkEfficientSDB14": (GBBS_B + "Connectivity/WorkEfficientSDB14/Connectivity", ["-stats"]),
               "ConnectIt-kout": (GBBS_B + "Connectivity/ConnectIt/mains/unite_rem_cas_kout", [])},
        "tc": {"degree": (GBBS_B + "TriangleCounting/ShunTangwongsan15/Triangle", ["-ordering", "degree"]),
               "goodrich": (GBBS_B + "TriangleCounting/ShunTangwongsan15/Triangle", ["-ordering", "goodrich"])},
        "kcore": {"default": (GBBS_B + "KCore/JulienneDBS17/KCore", []),
                  "-fa": (GBBS_B + "KCore/JulienneDBS17/KCore", ["-fa"])},
    },
    "Ligra": {
        "bfs": {"BFS": ("apps/BFS", ["-r", "{root}"]), "BFS-Bitvector": ("apps/BFS-Bitvector", ["-r", "{root}"])},
        "pr_spmv": {"PageRank": ("apps/PageRank", ["-maxiters", "{pr_iters}"])},
        "cc": {"Components": ("apps/Components", []), "Components-Shortcut": ("apps/Components-Shortcut", [])},
        "tc": {"Triangle": ("apps/Triangle", [])},
        "kcore": {"KCore": ("apps/KCore", [])},
    },
}
# (peer, kernel) -> pattern of the answer it prints; the last match counts (Ligra prints its
# untimed warm-up run's too). gapbs prints with -a, after its last trial, untimed.
CHECKS = {
    ("gapbs", "bfs"): r"BFS Tree has (\d+) nodes", ("GBBS", "bfs"): r"Reachable: (\d+)",
    ("gapbs", "pr"): r"(?m)^\d+:([0-9.eE+-]+)$", ("gapbs", "pr_spmv"): r"(?m)^\d+:([0-9.eE+-]+)$",
    ("GBBS", "pr_spmv"): r"max_pr = ([0-9.eE+-]+)",
    ("gapbs", "cc"): r"There are (\d+) components", ("GBBS", "cc"): r"# n_cc = (\d+)",
    ("gapbs", "tc"): r"(\d+) triangles", ("GBBS", "tc"): r"### Num triangles = (\d+)",
    ("Ligra", "tc"): r"triangle count = (\d+)",
    ("GBBS", "kcore"): r"k_\{max\} = (\d+)", ("Ligra", "kcore"): r"largestCore was (\d+)",
}


def write_adjacency_from_sg(sg, adj):
    """Ligra's AdjacencyGraph text of an undirected .sg (gapbs's layout: a directed flag byte,
    int64 edge count, int64 vertex count n, n + 1 int64 offsets, int32 neighbours); the same
    CSR, so the same ids and arcs as the .sg and the .ngr it came from."""
    from array import array
    chunk = 1 << 20
    tmp = Path(str(adj) + ".tmp")
    with open(sg, "rb") as f, open(tmp, "w") as out:
        directed = f.read(1)[0]
        f.read(8)
        n = int.from_bytes(f.read(8), "little")
        if directed:
            sys.exit(f"{sg}: directed; the undirected kernels need an undirected graph")
        offsets = array("q")
        offsets.fromfile(f, n + 1)
        m = offsets[n]
        out.write(f"AdjacencyGraph\n{n}\n{m}\n")
        for i in range(0, n, chunk):
            out.write("\n".join(map(str, offsets[i:min(i + chunk, n)])) + "\n")
        for i in range(0, m, chunk):
            nbrs = array("i")
            nbrs.fromfile(f, min(chunk, m - i))
            out.write("\n".join(map(str, nbrs)) + "\n")
    tmp.rename(adj)


def make_undirected_graph(name, workdir):
    """The graph undirected, without self-loops or parallel edges: (ngr, sg, adj). kron and
    urand are generated so and share their files with make_graph's unweighted ones."""
    if name.startswith("kron") or name.startswith("urand"):
        base = Path(workdir) / name
        ngr = base.with_suffix(".ngr")
        if not ngr.exists():
            generate_synthetic(name, ngr, weighted=False)
    else:
        base = Path(workdir) / (name + "-sym")
        ngr = base.with_suffix(".ngr")
        clean = ["-s", "--drop-self-loops", "--dedupe"]
        if not ngr.exists():
            if name == "road-NY":
                convert_without_weights(SHARED.joinpath(*DIMACS_SOURCES[name]), base.with_suffix(".el"), ngr, clean)
            elif name == "slashdot":
                sh([NUMAGRAPH, "convert", SHARED.joinpath(*UNIT_WEIGHT_SOURCES[name]), ngr, *clean])
            else:
                sys.exit(f"{name}: no undirected version (kron*, urand*, road-NY, slashdot)")
    sg = base.with_suffix(".sg")
    if not sg.exists():
        sh([NUMAGRAPH, "convert", ngr, sg])
    adj = base.with_suffix(".adj")
    if not adj.exists():
        write_adjacency_from_sg(sg, adj)
        base.with_suffix(".adjkind").write_text("symmetric")
    return ngr, sg, adj


def cli_numagraph(args, env, kernel, ngr, setting, root, trials=None):
    """(trial times, JSON record) of one CLI process at one of numagraph's settings."""
    cmd, flags = OURS[kernel][setting]
    engine = [] if cmd == "tc" else ["--engine", args.engine]
    out = sh([NUMAGRAPH, cmd, ngr, "-n", trials or args.trials, "-t", args.threads, "--json", "-q", *engine,
              *[f.format(root=root) for f in flags]], env=env)
    recs = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    rec = recs[-1]
    if "top_scores" in rec:
        rec["top_score"] = rec["top_scores"][0]
    return [t for r in recs for t in r["trials"]], rec


def connectit_times(out):
    """ConnectIt prints each find it runs as '### t = S' lines closed by a JSON block; the times
    of the find with the smallest median."""
    blocks, cur = [], []
    for line in out.splitlines():
        m = re.match(r"### t = ([0-9.eE+-]+)", line)
        if m:
            cur.append(float(m.group(1)))
        elif '"test_name"' in line and cur:
            blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    return min(blocks, key=statistics.median) if blocks else []


class CliPeers:
    """The peers' programs for the CLI kernels: settings present in the trees, and runs."""

    def __init__(self, args, env):
        self.args, self.env = args, env
        # Each peer's build folders: gapbs's may be several (gapbs_builds), the others one.
        self.trees = {"gapbs": gapbs_builds(),
                      **{p: [os.environ[v]] if os.environ.get(v) else [] for p, v in (("GBBS", "GBBS_DIR"),
                                                                                       ("Ligra", "LIGRA_DIR"))}}

    def settings(self, kernel):
        """{peer: [setting, ...]} of the programs present (one per build, with_builds); prints a
        note for each one missing."""
        out = {}
        for peer, trees in self.trees.items():
            if not trees or kernel not in PEER_SETTINGS[peer]:
                continue
            present = []
            for s, (prog, _) in PEER_SETTINGS[peer][kernel].items():
                for named in with_builds([s], trees):
                    tree = split_build(named, trees)[1]
                    if (Path(tree) / prog).is_file():
                        present.append(named)
                    else:
                        print(f"note: {peer} {kernel} {named}: {Path(tree) / prog} not built, left out", flush=True)
            if present:
                out[peer] = present
        return out

    def run(self, peer, kernel, setting, g, fill):
        """(trial times, the answer it printed or None) of one process."""
        setting, tree = split_build(setting, self.trees[peer])
        prog, flags = PEER_SETTINGS[peer][kernel][setting]
        exe = Path(tree) / prog
        flags = [f.format(**fill) for f in flags]
        if peer == "gapbs":
            cmd = [exe, "-f", g["sg"], "-n", self.args.trials, *flags]
        elif "ConnectIt" in setting:
            cmd = [exe, "-s", "-r", self.args.trials, *flags, g["adj"]]
        else:
            cmd = [exe, "-s", "-rounds", self.args.trials, *flags, g["adj"]]
        out = sh(cmd, env=self.env)
        trials = connectit_times(out) if "ConnectIt" in setting else times(out, TIME[peer])
        if not trials:
            sys.exit(f"no times in the output of {' '.join(map(str, cmd))}:\n{out[-2000:]}")
        found = re.findall(CHECKS[(peer, kernel)], out) if (peer, kernel) in CHECKS else []
        if not found:
            answer = None
        elif kernel in ("pr", "pr_spmv"):
            # gapbs prints its top scores, GBBS its max_pr, which reads 0 when it stopped at
            # -iters (its last swap leaves the zeroed array there): no answer then.
            answer = max(float(x) for x in found) or None
        else:
            answer = int(found[-1])
        return trials, answer


def same_answer(kernel, ours, theirs):
    """Counts must be equal; PageRank's largest score is only shown (parallel Gauss-Seidel
    reads scores of the same sweep in any order, so the digits may differ a little)."""
    if ours is None or theirs is None or kernel in ("pr", "pr_spmv"):
        return True
    return ours == theirs


def cli_row(graph, kernel, args, workdir):
    """One row (the keys of the bc/sssp rows, plus checks and PageRank's iterations)."""
    env = env_threads(args.threads)
    ngr, sg, adj = make_undirected_graph(graph, workdir)
    g = {"ngr": ngr, "sg": sg, "adj": adj}
    root = None
    if kernel == "bfs":
        pick = sh([NUMAGRAPH, "bfs", ngr, "--sources", 1, "--seed", args.seed, "-n", 1, "-t", args.threads,
                   "--json", "-q"], env=env)
        root = json.loads(pick.splitlines()[-1])["roots"][0]
    ours = list(OURS[kernel])
    # A first numagraph run: its answer (and for pr_spmv its iterations, Ligra's -maxiters).
    _, first = cli_numagraph(args, env, kernel, ngr, ours[0], root, trials=1)
    our_answer = first.get(OUR_CHECK[kernel])
    fill = {"root": root, "pr_iters": first.get("iterations", 20)}
    peers = CliPeers(args, env)
    peer_settings, answers, left_out = {}, {}, {}
    for peer, settings in peers.settings(kernel).items():
        results = {s: peers.run(peer, kernel, s, g, fill) for s in settings}
        medians = {s: statistics.median(t) for s, (t, _) in results.items()}
        agreeing = [s for s, (_, a) in results.items() if same_answer(kernel, our_answer, a)]
        for s in settings:
            if s not in agreeing:
                left_out.setdefault(peer, {})[s] = results[s][1]
                print(f"{graph} {kernel} {peer} {s} left out: it reports {results[s][1]}, numagraph {our_answer}",
                      flush=True)
        if not agreeing:
            continue
        choice = min(agreeing, key=medians.get)
        peer_settings[peer] = choice
        answers[peer] = results[choice][1]
        if len(settings) > 1:
            print(f"{graph} {kernel} {peer} sweep: " + ", ".join(f"{s}: {t:.4f}" for s, t in medians.items()),
                  flush=True)
    ours_trials = {s: [] for s in ours}
    peer_trials = {p: [] for p in peer_settings}
    iterations = {}
    for r in range(args.rounds):
        runs = [("numagraph", s) for s in ours] + [(p, s) for p, s in peer_settings.items()]
        for name, s in (runs if r % 2 == 0 else runs[::-1]):
            if name == "numagraph":
                t, rec = cli_numagraph(args, env, kernel, ngr, s, root)
                ours_trials[s] += t
                if "iterations" in rec:
                    iterations[s] = rec["iterations"]
            else:
                peer_trials[name] += peers.run(name, kernel, s, g, fill)[0]
    row = {"graph": graph, "kernel": kernel, "roots": [root] if root is not None else [],
           "numagraph": {s: statistics.median(t) for s, t in ours_trials.items()},
           "numagraph_fastest": {s: min(t) for s, t in ours_trials.items()},
           "peers": {n: statistics.median(t) for n, t in peer_trials.items() if t},
           "peers_fastest": {n: min(t) for n, t in peer_trials.items() if t},
           "peer_settings": peer_settings,
           "checks": {"numagraph": our_answer, **answers}, "left_out": left_out}
    if iterations:
        row["iterations"] = iterations
        row["numagraph_per_iteration"] = {s: row["numagraph"][s] / k for s, k in iterations.items()}
        if "Ligra" in peer_settings:  # -maxiters set to numagraph's count
            row["ligra_maxiters"] = fill["pr_iters"]
    if row["peers"]:
        fastest = min(row["peers"], key=row["peers"].get)
        row["fastest_peer"] = fastest
        row["ratio"] = row["numagraph"][ours[0]] / row["peers"][fastest]
        row["ratio_of_fastest_trials"] = row["numagraph_fastest"][ours[0]] / min(row["peers_fastest"].values())
    fmt = (lambda v: f"{v:.6g}") if kernel in ("pr", "pr_spmv") else str
    mismatch = any(not same_answer(kernel, our_answer, a) for a in answers.values())
    print(f"{graph:9s} {kernel:5s} numagraph " +
          " ".join(f"{s}={t:.6f}" for s, t in row["numagraph"].items()) +
          "".join(f"  {n} {t:.4f} ({peer_settings[n]})" for n, t in row["peers"].items()) +
          (f"  ratio {ours[0]}/{row['fastest_peer']} {row['ratio']:.3f}"
           f" (fastest trials {row['ratio_of_fastest_trials']:.3f})" if "ratio" in row else "") +
          "".join(f"  {s} iterations {k}" for s, k in iterations.items()) +
          ("  check " + " ".join(f"{n}={fmt(a)}" for n, a in row["checks"].items() if a is not None) +
           (" MISMATCH" if mismatch else "") if our_answer is not None else "") +
          "".join(f"  left out: {p} {s} (reports {a})" for p, d in left_out.items() for s, a in d.items()),
          flush=True)
    return row


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
    ap.add_argument("--record", default=None,
                    help="also write a result record here (bench/bench_record.py: rows, command, machine, "
                         "peer versions), e.g. bench/results/MACHINE/peers.json for bench/perf_page.py")
    ap.add_argument("--markdown", action="store_true",
                    help="at the end, print the table (bench/peers_table.py) with the machine and versions")
    ap.add_argument("--engine", default="flat", choices=["flat", "numa", "auto"],
                    help="numagraph's engine for the CLI kernels (not tc, which has one)")
    args = ap.parse_args()
    kernels = args.kernels.split(",")
    unknown = [k for k in kernels if k not in ("bc", "bc16", "sssp") + CLI_KERNELS]
    if unknown:
        sys.exit(f"unknown kernel(s) {','.join(unknown)}: bc, bc16, sssp, " + ", ".join(CLI_KERNELS))
    if any(k in ("bc", "bc16", "sssp") for k in kernels) and not DRIVER.is_file():
        sys.exit(f"{DRIVER}: build bench/bc_sssp_driver.cpp first (see its header), or set NUMAGRAPH_DRIVER")
    tools = Tools(args)
    workdir = args.workdir or tempfile.mkdtemp(prefix="numagraph-peers-")
    Path(workdir).mkdir(parents=True, exist_ok=True)
    rows = []

    def save(rows):  # after every row: a run that stops on a later graph keeps the earlier ones
        if args.out:
            Path(args.out).write_text(json.dumps(rows, indent=1))
        if args.record or args.markdown:
            record = make_record(rows, args, tools)
            if args.record:
                bench_record.write(args.record, record)
            return record

    for graph in args.graphs.split(","):
        for kernel in kernels:
            if kernel in CLI_KERNELS:
                rows.append(cli_row(graph, kernel, args, workdir))
                save(rows)
                continue
            base_kernel = "bc" if kernel.startswith("bc") else "sssp"
            if base_kernel == "bc" and graph_class(graph) in ("grid", "slashdot", "pgp", "rome", "mesh"):
                continue
            ngr, sg, adj, symmetric = make_graph(graph, base_kernel == "sssp", workdir)
            g = {"ngr": ngr, "sg": sg, "adj": adj, "symmetric": symmetric}
            k = 16 if kernel == "bc16" else 1
            roots = [int(r) for r in sh([DRIVER, ngr, "roots", k, args.seed]).split(",")]
            # Settings: numagraph's variants, and each peer's best parameter.
            if base_kernel == "bc":
                ours = ["auto", "do", "brandes"] + ([] if k == 1 else ["batched:16", "source-parallel"])
                mode = "bc"
            else:
                # numagraph's sweep in one process, every delta and auto alternating trial by
                # trial (a process per delta would compare moments of a noisy host, not deltas).
                deltas = ["auto"] + [str(d) for d in SSSP_DELTAS[graph_class(graph)]]
                out = sh([DRIVER, ngr, "sssp", ",".join(map(str, roots)), max(9, 3 * args.trials), *deltas],
                         env=tools.env)
                our_sweep = {d: statistics.median(times(out, rf"(?m)^{re.escape(d)} Trial Time: ([0-9.eE+-]+)"))
                         for d in deltas}
                best = min((d for d in deltas if d != "auto"), key=our_sweep.get)
                print(f"{graph} sssp numagraph delta sweep (one process): " +
                      ", ".join(f"{d}: {t:.6f}" for d, t in our_sweep.items()) +
                      (f"  auto/best {our_sweep['auto'] / our_sweep[best]:.3f}" if our_sweep[best] > 0 else ""),
                      flush=True)
                ours = ["auto", best]
                mode = "sssp"
            peer_settings = {}
            for name, run, settings in tools.peers(base_kernel):
                if settings == "deltas":
                    settings = SSSP_DELTAS[graph_class(graph)]
                if name == "gapbs":
                    settings = with_builds(settings, tools.gapbs)
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
                        # A process per setting, its trials back to back, as each peer runs
                        # its own: trials of other settings in between would leave its
                        # caches cold where the peers' are warm.
                        for s in ours:
                            out = sh([DRIVER, ngr, mode, ",".join(map(str, roots)), args.trials, s], env=tools.env)
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
                row["delta_sweep"] = our_sweep
                row["auto_vs_best_in_sweep"] = (our_sweep["auto"] / our_sweep[ours[1]]
                                                if our_sweep[ours[1]] > 0 else None)
            ng = row["numagraph"][ours[0]]
            if row["peers"] and min(row["peers"].values()) <= 0:
                # A peer printed 0: its timer's resolution (gapbs: 10 us) is coarser than the run.
                row["below_peer_resolution"] = True
            elif row["peers"]:
                fastest = min(row["peers"], key=row["peers"].get)
                row["fastest_peer"] = fastest
                row["ratio"] = ng / row["peers"][fastest]
                row["ratio_of_fastest_trials"] = row["numagraph_fastest"][ours[0]] / min(row["peers_fastest"].values())
            if kernel == "bc16":
                # Sixteen single-source searches: the faster of the two sequential kernels.
                single = min(("do", "brandes"), key=row["numagraph"].get)
                row["single_variant"] = single
                row["auto_vs_16_single"] = row["numagraph"]["auto"] / row["numagraph"][single]
            rows.append(row)
            save(rows)
            print(f"{graph:9s} {kernel:5s} numagraph " +
                  " ".join(f"{s}={t:.6f}" for s, t in row["numagraph"].items()) +
                  "".join(f"  {n} {t:.4f}" + (f" ({peer_settings[n]})" if peer_settings.get(n) else "")
                          for n, t in row["peers"].items()) +
                  (f"  ratio {ours[0]}/{row['fastest_peer']} {row['ratio']:.3f}"
                   f" (fastest trials {row['ratio_of_fastest_trials']:.3f})" if "ratio" in row else "") +
                  (f"  auto/{row['single_variant']} {row['auto_vs_16_single']:.3f}" if "auto_vs_16_single" in row else ""), flush=True)
    if args.markdown:
        print_markdown(save(rows))


def make_record(rows, args, tools):
    """The rows as a bench/bench_record.py record, with each peer tree's version."""
    versions = {}
    for i, tree in enumerate(tools.gapbs or []):
        versions["gapbs" + (f" #{i + 1}" if len(tools.gapbs) > 1 else "")] = bench_record.peer_version(tree)
    versions["GBBS"] = bench_record.peer_version(tools.gbbs)
    versions["Ligra"] = bench_record.peer_version(tools.ligra)
    facts = {"rounds": args.rounds, "trials": args.trials, "engine": args.engine,
             "peers": [p for p, on in (("gapbs", tools.gapbs), ("GBBS", tools.gbbs), ("Ligra", tools.ligra)) if on]}
    return bench_record.make("peers", rows, args.threads, NUMAGRAPH, versions, facts)


def print_markdown(record):
    print("\n" + "\n".join(bench_record.markdown_header(record) + peers_table.table_lines(record["rows"])))


if __name__ == "__main__":
    main()

"""gapbs, GBBS and Ligra beside numagraph, each only when its built tree is named by
GAPBS_DIR, GBBS_DIR or LIGRA_DIR. Every tool reads the same graph: gapbs its .sg/.wsg
(numagraph convert), GBBS and Ligra the Ligra adjacency text written here."""
import os
import re
import statistics
import subprocess
from pathlib import Path

from .runner import ExperimentError

PEERS = {"gapbs": "GAPBS_DIR", "GBBS": "GBBS_DIR", "Ligra": "LIGRA_DIR"}

# kernel -> (program relative to the tree, flags); {iters} and {trials} are filled in.
GAPBS = {
    "pr": ("pr", ["-i", "{iters}", "-t", "0"]), "bfs": ("bfs", []), "cc": ("cc", []), "sssp": ("sssp", []),
}
GBBS = {
    "pr": ("benchmarks/PageRank/PageRank", []),
    "bfs": ("benchmarks/BFS/NonDeterministicBFS/BFS", []),
    "cc": ("benchmarks/Connectivity/WorkEfficientSDB14/Connectivity", []),
    "sssp": ("benchmarks/PositiveWeightSSSP/DeltaStepping/DeltaStepping", []),
}
LIGRA = {
    "pr": ("apps/PageRank", ["-maxiters", "{iters}"]), "bfs": ("apps/BFS", []), "cc": ("apps/Components", []),
    "sssp": ("apps/BellmanFord", []),
}
TIME_PATTERNS = {"gapbs": r"Trial Time:\s+([0-9.eE+-]+)", "GBBS": r"### Running Time: ([0-9.eE+-]+)",
                 "Ligra": r"Running time : ([0-9.eE+-]+)"}


def given():
    """{peer: tree} for the peers whose variable is set."""
    return {name: Path(os.environ[var]) for name, var in PEERS.items() if os.environ.get(var)}


def write_adjacency(el_path, out_path, weighted):
    """Ligra's (Weighted)AdjacencyGraph text from a numagraph edge list, both directions of
    every edge (the graphs here are undirected), sorted, without duplicates."""
    import numpy as np

    data = np.loadtxt(el_path, dtype=np.int64, comments="#", ndmin=2)
    src, dst = data[:, 0], data[:, 1]
    w = data[:, 2] if weighted and data.shape[1] > 2 else np.ones_like(src)
    src, dst, w = np.concatenate([src, dst]), np.concatenate([dst, src]), np.concatenate([w, w])
    keep = src != dst
    src, dst, w = src[keep], dst[keep], w[keep]
    order = np.lexsort((dst, src))
    src, dst, w = src[order], dst[order], w[order]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    src, dst, w = src[first], dst[first], w[first]
    n = int(max(src.max(initial=-1), dst.max(initial=-1))) + 1
    offsets = np.searchsorted(src, np.arange(n))
    with open(out_path, "w") as f:
        f.write("WeightedAdjacencyGraph\n" if weighted else "AdjacencyGraph\n")
        f.write(f"{n}\n{len(dst)}\n")
        np.savetxt(f, offsets, fmt="%d")
        np.savetxt(f, dst, fmt="%d")
        if weighted:
            np.savetxt(f, w, fmt="%d")
    return out_path


class Peers:
    """Runs the given peers on the experiment's graph files; times are medians of their trials."""

    def __init__(self, runner, graphs, trials, iters):
        self.runner, self.graphs, self.trials, self.iters = runner, graphs, trials, iters
        self.trees = given()
        self._files = {}

    def _file(self, kind, weighted):
        key = (kind, weighted)
        if key not in self._files:
            ngr = self.graphs["weighted" if weighted else "plain"]
            if kind == "sg":
                path = ngr.with_suffix(".wsg" if weighted else ".sg")
                self.runner.run(["convert", ngr, path])
            else:
                el = ngr.with_suffix(".wel" if weighted else ".el")
                self.runner.run(["convert", ngr, el])
                path = write_adjacency(el, ngr.with_suffix(".wadj" if weighted else ".adj"), weighted)
            self._files[key] = path
        return self._files[key]

    def command(self, peer, kernel):
        tree = self.trees[peer]
        table = {"gapbs": GAPBS, "GBBS": GBBS, "Ligra": LIGRA}[peer]
        if kernel not in table:
            return None
        program, flags = table[kernel]
        flags = [f.format(iters=self.iters, trials=self.trials) for f in flags]
        weighted = kernel == "sssp"
        if peer == "gapbs":
            return [tree / program, "-f", self._file("sg", weighted), "-n", self.trials, *flags]
        rounds = ["-rounds", self.trials]
        return [tree / program, "-s", *rounds, *flags, self._file("adj", weighted)]

    def time(self, peer, kernel, threads):
        """Median trial time of `peer` on `kernel`, or None when the peer has no such kernel."""
        cmd = self.command(peer, kernel)
        if cmd is None:
            return None
        cmd = [str(c) for c in cmd]
        env = dict(os.environ, OMP_NUM_THREADS=str(threads), PARLAY_NUM_THREADS=str(threads),
                   CILK_NWORKERS=str(threads))
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        except OSError as e:
            raise ExperimentError(f"{peer}: cannot run {cmd[0]} ({e}); build the tree named by {PEERS[peer]} "
                                  "or unset the variable") from None
        line = " ".join(cmd).replace(str(self.runner.graph_dir), "$GRAPHS") if self.runner.graph_dir else " ".join(cmd)
        self.runner.commands.append({"command": line, "returncode": proc.returncode, "peer": peer})
        times = [float(x) for x in re.findall(TIME_PATTERNS[peer], proc.stdout)]
        if proc.returncode != 0 or not times:
            raise ExperimentError(f"{peer} {kernel}: `{' '.join(cmd)}` failed or printed no time "
                                  f"(exit {proc.returncode}): {proc.stderr.strip()[-500:]}")
        return statistics.median(times)

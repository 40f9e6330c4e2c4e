"""What every experiment shares: finding the CLI, running it with --json, the machine's
facts, thread lists, and writing raw results (JSON, CSV), markdown tables and plots."""
import csv
import datetime
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path


class ExperimentError(RuntimeError):
    """A failure the user can act on; the message says what to do."""


def find_cli(given=None):
    """The numagraph CLI from --cli, $NUMAGRAPH_BIN or PATH, else an error saying how to give it."""
    for source, candidate in (("--cli", given), ("NUMAGRAPH_BIN", os.environ.get("NUMAGRAPH_BIN"))):
        if candidate:
            path = Path(candidate)
            if path.is_file() and os.access(path, os.X_OK):
                return path.resolve()
            raise ExperimentError(f"{source} names {candidate}, which is not an executable file: "
                                  "give the numagraph binary built by cmake (build/numagraph)")
    found = shutil.which("numagraph")
    if found:
        return Path(found).resolve()
    raise ExperimentError("no numagraph CLI found: pass --cli PATH, set NUMAGRAPH_BIN, or put numagraph on PATH "
                          "(build it with `cmake -S . -B build && cmake --build build --target numagraph`)")


def parse_threads(text):
    """'1,2,4' or '1-4' or '1-8:2' (a range with a step) into a sorted list of distinct counts."""
    counts = set()
    for part in text.split(","):
        part = part.strip()
        try:
            if "-" in part:
                lo, _, rest = part.partition("-")
                hi, _, step = rest.partition(":")
                counts.update(range(int(lo), int(hi) + 1, int(step or 1)))
            elif part:
                counts.add(int(part))
        except ValueError:
            raise ExperimentError(f"--threads {text!r}: give counts as 1,2,4 or a range 1-8 or 1-8:2") from None
    if not counts or min(counts) < 1:
        raise ExperimentError(f"--threads {text!r}: give positive counts, e.g. 1,2,4 or 1-8")
    return sorted(counts)


def default_threads(size):
    """Smoke: 1 and 2. Quick: every count 1..cores up to 4, then powers of two and the core count.
    Full: powers of two and the core count."""
    cores = os.cpu_count() or 1
    if size == "smoke":
        return [1, 2] if cores >= 2 else [1]
    counts = {cores}
    counts.update(c for c in range(1, min(cores, 4) + 1))
    c = 1
    while c < cores:
        counts.add(c)
        c *= 2
    return sorted(counts)


def _read(path):
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def machine_facts(cli):
    """CPU model, cores, NUMA nodes, kernel, numagraph version and commit, when and how run."""
    model = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                  if line.startswith("model name")), platform.processor() or "unknown")
    nodes = sorted(p.name for p in Path("/sys/devices/system/node").glob("node[0-9]*"))
    commit = os.environ.get("NUMAGRAPH_COMMIT")  # for a copied tree whose .git is not the build's
    for where in () if commit else (Path(cli).parent, Path(__file__).resolve().parent):
        try:
            proc = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=where, capture_output=True,
                                  text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if proc.returncode == 0:
            commit = proc.stdout.strip()
            break
    try:
        version = subprocess.run([str(cli), "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        version = None
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {
        "cpu_model": model,
        "cores": os.cpu_count(),
        "numa_nodes": len(nodes) or 1,
        "kernel": f"{platform.system()} {platform.release()}",
        "hostname": platform.node(),
        "numagraph_version": version,
        "numagraph_commit": commit,
        "cli": str(cli),
        "python": sys.version.split()[0],
        "started_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "load_average_start": load,
    }


class Runner:
    """Runs the CLI, keeps every command line it ran and the rows an experiment measured."""

    def __init__(self, name, cli, out, size, threads, log=None, overrides=None):
        self.name, self.cli, self.out, self.size, self.threads = name, Path(cli), Path(out), size, threads
        self.overrides = {k: v for k, v in (overrides or {}).items() if v is not None}
        self.out.mkdir(parents=True, exist_ok=True)
        self.commands = []
        self.machine = machine_facts(self.cli)
        self.log = log if log is not None else sys.stderr
        self.graph_dir = None  # the temporary folder of the generated graphs, written $GRAPHS in commands

    def sized(self, sizes):
        """The experiment's parameters for this run's size, with --scale/--trials applied where the
        experiment has such a parameter (an override it has no use for is refused)."""
        params = dict(sizes[self.size])
        for key, value in self.overrides.items():
            if key not in params:
                raise ExperimentError(f"experiment {self.name!r} has no --{key} parameter; its parameters are: "
                                      + ", ".join(sorted(params)))
            params[key] = value
        return params

    def rerun(self, threads=None):
        """The command that reruns this experiment as it ran: size, threads, overrides."""
        counts = threads if threads is not None else self.threads
        parts = ["numagraph-experiments", "run", self.name, f"--{self.size}", "--threads",
                 ",".join(map(str, counts))]
        for key, value in self.overrides.items():
            parts += [f"--{key}", str(value)]
        return "Rerun: `" + " ".join(parts + ["--out", "DIR"]) + "`"

    def say(self, text):
        print(f"[{self.name}] {text}", file=self.log, flush=True)

    def run(self, args, env=None):
        """Runs `numagraph ARGS` and returns its stdout; a failure stops the experiment with stderr."""
        cmd = [str(self.cli), *map(str, args)]
        started = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - started
        line = shlex.join(["numagraph", *map(str, args)])
        if self.graph_dir:
            line = line.replace(str(self.graph_dir), "$GRAPHS")
        self.commands.append({"command": line, "wall_s": round(wall, 3), "returncode": proc.returncode,
                              "load_1min": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None})
        if proc.returncode != 0:
            raise ExperimentError(f"numagraph {shlex.join(map(str, args))} failed (exit {proc.returncode}):\n"
                                  f"{proc.stderr.strip()}")
        return proc.stdout

    def run_json(self, args):
        """Runs a kernel with --json -q and returns its last JSON record."""
        out = self.run([*args, "--json", "-q"])
        records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        if not records:
            raise ExperimentError(f"numagraph {shlex.join(map(str, args))} printed no JSON record")
        return records[-1]

    def write(self, rows, extra=None):
        """results.json (machine, commands, rows, extra) and results.csv (rows) under the output folder."""
        try:
            self.machine["load_average_end"] = os.getloadavg()
        except OSError:
            pass
        doc = {"experiment": self.name, "size": self.size, "threads": self.threads, "machine": self.machine,
               "graphs": "$GRAPHS in the commands: a temporary folder, removed after the run; the first "
                         "commands generate its graphs",
               "commands": self.commands, "rows": rows, **(extra or {})}
        (self.out / "results.json").write_text(json.dumps(doc, indent=1) + "\n")
        write_csv(self.out / "results.csv", rows)
        return doc


def write_csv(path, rows):
    fields = []
    for row in rows:
        fields += [k for k in row if k not in fields]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def md_table(headers, rows):
    align = ["---"] + ["---:"] * (len(headers) - 1)  # first column left, numbers right
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def fmt_s(seconds):
    """Seconds with 3 significant digits, in ms below one second."""
    if seconds is None:
        return "—"
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def loads_during(commands):
    """The 1-minute load average recorded after each of the run's commands."""
    return [c["load_1min"] for c in commands if c.get("load_1min") is not None]


def load_range(commands):
    """'load A-B': the 1-minute load average over the run's commands, for plot titles."""
    during = loads_during(commands)
    return f"load {min(during):.1f}-{max(during):.1f}" if during else "load unknown"


def machine_section(machine, commands=(), commands_file="results.json"):
    load = machine.get("load_average_start")
    load_end = machine.get("load_average_end")
    during = loads_during(commands)
    loads = ", ".join(f"{x:.2f}" for x in load) if load else "unknown"
    lines = [
        "## Machine",
        "",
        f"- CPU: {machine['cpu_model']}, {machine['cores']} logical cores, {machine['numa_nodes']} NUMA node(s)",
        f"- kernel: {machine['kernel']}; {machine.get('numagraph_version') or 'numagraph (version unknown)'}, "
        f"commit {machine.get('numagraph_commit') or 'unknown (not a git checkout)'}",
        f"- run at {machine['started_utc']} UTC; load average (1, 5, 15 min) at the start: {loads}"
        + (f"; at the end: {', '.join(f'{x:.2f}' for x in load_end)}" if load_end else ""),
        f"- every command run is listed with its wall time in `{commands_file}`",
    ]
    if during:
        lines.insert(-1, f"- 1-minute load average after each command: {min(during):.2f} to {max(during):.2f} "
                     "(the run itself adds up to its thread count; more means other work shared the cores)")
    return "\n".join(lines)


def pyplot():
    """matplotlib.pyplot with the Agg backend, or None (plots skipped with a message)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("numagraph-experiments: matplotlib is not installed, so no PNG plots are written "
              "(pip install 'numagraph[plot]' or pip install matplotlib, then run again)", file=sys.stderr)
        return None
    return plt


def save_png(plt, fig, out, name):
    """Lays out and writes `fig` as out/name, closes it, and returns the path."""
    fig.tight_layout()
    path = out / name
    fig.savefig(path)
    plt.close(fig)
    return path


def generate_graph(runner, scale, path, weighted=False, edge_factor=16):
    """A Kronecker graph written once (numagraph generate), so every kernel reads the same file."""
    if not Path(path).exists():
        args = ["generate", "kron", "--scale", scale, "-k", edge_factor, "-o", path, "-q"]
        runner.run(args + (["--weighted"] if weighted else []))
    return path

#!/usr/bin/env python3
"""The result record the benchmark drivers write with --record FILE, and bench/perf_page.py reads.

A record is one JSON object:

  kind      "peers" (bench/peers.py), "load" (bench/load_table.py) or "networkit"
            (bench/vs_networkit.py): which table renders its rows
  command   the command line that produced it, as typed (script path relative to the repository,
            the environment variables that name the peers in front)
  date      UTC time the run finished, ISO 8601 to the minute
  machine   CPU model, cores, threads used, memory, Linux kernel, numagraph's compiler and the
            repository's git commit (with "+changes" when the tree differed from it)
  versions  what is known of the other tools: {name: version text}
  facts     what the table's caption needs (graph sizes, rounds, ...), free per kind
  rows      the driver's rows, as its --out / JSON lines give them

`python bench/bench_record.py` prints this machine's name: the folder of bench/results/ its
records go to (CPU model and core count, e.g. amd-epyc-2c).
"""
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results"
# Environment variables that change what a driver measures: shown in front of its command.
COMMAND_ENV = ("GAPBS_DIR", "GBBS_DIR", "LIGRA_DIR", "NETWORKIT_PYTHON")


def _run(cmd, cwd=None):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_name():
    """Short, stable name of this machine: the CPU model's words and the core count."""
    words = re.sub(r"\((R|TM)\)|CPU|Processor|\d+-Core|@.*", " ", cpu_model(), flags=re.I)
    slug = "-".join(w.lower() for w in re.findall(r"[A-Za-z0-9]+", words))
    return f"{slug or 'cpu'}-{os.cpu_count()}c"


def memory_gib():
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        return None


def compiler_of(binary):
    """The compiler that built BINARY, from its ELF .comment section (GCC/clang write it)."""
    text = _run(["readelf", "-p", ".comment", str(binary)]) if binary and Path(binary).is_file() else ""
    found = re.findall(r"\]\s+(.+)", text)
    return found[0].strip().replace("GCC: ", "GCC ") if found else None


def git_commit():
    head = _run(["git", "rev-parse", "--short=10", "HEAD"], cwd=REPO)
    if not head:
        return None
    changed = _run(["git", "status", "--porcelain", "--untracked-files=no", "--", "src", "include", "python",
                    "CMakeLists.txt"], cwd=REPO)
    return head + ("+changes" if changed else "")


def peer_version(tree):
    """What a peer's tree is: the first line of its PEER_SOURCE file (written when it was fetched,
    e.g. "ParAlg/gbbs @ b1a90f5f"), else its git commit, else None."""
    if not tree:
        return None
    marker = Path(tree) / "PEER_SOURCE"
    if marker.is_file():
        return marker.read_text().strip().splitlines()[0]
    head = _run(["git", "-C", str(tree), "rev-parse", "--short=8", "HEAD"])
    return f"{Path(tree).name} @ {head}" if head else None


def machine(threads, numagraph_binary=None):
    return {"name": machine_name(), "cpu": cpu_model(), "cores": os.cpu_count(), "threads": threads,
            "memory_gib": memory_gib(), "kernel": platform.release(),
            "compiler": compiler_of(numagraph_binary), "numagraph_commit": git_commit()}


def command_line(argv=None):
    """The command as typed: peer variables in front, the script relative to the repository."""
    argv = list(sys.argv if argv is None else argv)
    script = Path(argv[0]).resolve()
    try:
        argv[0] = str(script.relative_to(REPO))
    except ValueError:
        pass
    env = [f"{k}={shlex.quote(os.environ[k])}" for k in COMMAND_ENV if os.environ.get(k)]
    return " ".join(env + [shlex.join(argv)])


def make(kind, rows, threads, numagraph_binary=None, versions=None, facts=None, argv=None):
    return {"kind": kind, "command": command_line(argv),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
            "machine": machine(threads, numagraph_binary),
            "versions": {k: v for k, v in (versions or {}).items() if v},
            "facts": facts or {}, "rows": rows}


def markdown_header(record):
    """The lines a driver's --markdown prints above its table: machine, versions, command."""
    m = record["machine"]
    lines = [f"{m['cpu']}, {m['threads']} threads of {m['cores']} cores, {record['date']}, "
             f"numagraph {m['numagraph_commit']} ({m['compiler']})"]
    if record["versions"]:
        lines.append("; ".join(f"{k}: {v}" for k, v in record["versions"].items()))
    return lines + ["", "    " + record["command"], ""]


def write(path, record):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    print(machine_name())

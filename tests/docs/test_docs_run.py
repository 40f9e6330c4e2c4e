"""Docs that run: every shell, console and Python example in README.md and
docs/ (docs/*.md, docs/kernels/*.md) is executed, one test per block, named
`FILE:LINE` (the line of the block's opening fence).

The rules (kept here, in one place):

Which blocks run
  ```sh / ```bash / ```shell   run as one bash script (set -euo pipefail); it must exit 0.
  ```console                   `$ CMD` lines are commands, the lines after one, up to the
                               next `$ `, are its output (stdout and stderr together); the
                               output must match (below). The command must exit 0 unless its
                               output shows a `numagraph: error:` line, then non-zero.
  ```python                    the blocks of one page run in one Python process, in page
                               order, in one namespace (like a notebook); a block after a
                               failed one is reported as skipped.
  ``` (no language), cpp, ...  never run: output samples, diagrams, C++ excerpts.

  A sh block that builds, installs or starts MPI (make, cmake, ninja, pip, apt-get, sudo,
  mpirun, mpiexec) fails unless marked skip: it is never run by accident.

Markers (an HTML comment on the last non-blank line before the fence; invisible on GitHub)
  <!-- docs-run: skip (REASON) -->      not run here (MPI on many ranks, builds, minutes of
                                        work, a 4-node VM); REASON is required.
  <!-- docs-run: no-compare (REASON) --> console block: run, check the exit status only
                                        (the output describes one machine).

Where and with what
  Each page gets its own working directory `<tmp>/<page>/work`, holding the stand-ins (blocks
  of a page share it, in page order; the environment is pytest's, plus MPLBACKEND=Agg). `numagraph` resolves to $NUMAGRAPH_BIN (default build/numagraph) and
  `python` to the interpreter running pytest, through wrappers first on PATH. The repository's
  `python/`, `bench/` and `tests/data/` are linked into the working directory (REPO_LINKS), so
  examples may name repo-relative scripts and the small committed test graphs.
  Graphs a page names but does not make are small stand-ins under the same relative names
  (STAND_INS below), `../shared/data/...` included: the real data sets are never read.
  In sh and Python blocks (never in console blocks, whose output is compared) generated
  graphs are capped at scale 12: `--kron/-g/--uniform/-u/--scale/--grid N` and
  `generate.kronecker(N)`/`generate.uniform(N)` with N > 12 run as 12, so the example
  is checked in seconds; the page shows the size it means.

How output is compared (console blocks)
  Both sides are normalized: trailing blanks dropped, and every number followed by a time
  or rate unit (`0.101 s`, `12 ms`, `77.0 MTEPS`, `211 MiB/s`, `3.6 M edges/s`) becomes `<T>`,
  unit included.
  Expected lines must then equal the actual ones, except: a line `...` matches any number of
  lines (zero included), and `[...]` inside a line matches any text.

Run: NUMAGRAPH_BIN=build/numagraph .venv/bin/python -m pytest -q tests/docs
"""
import gzip
import json
import os
import random
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from harness import REPO, numagraph_bin

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")),
         *sorted((REPO / "docs" / "kernels").glob("*.md"))]
SCALE_CAP = 12
REPO_LINKS = ("python", "bench", "tests/data")  # repo-relative paths examples may name
BLOCK_TIMEOUT_S = 120
LANGS = {"sh": "sh", "bash": "sh", "shell": "sh", "console": "console", "python": "python"}
MARKER = re.compile(r"<!--\s*docs-run:\s*(skip|no-compare)\s*(?:\((.*)\))?\s*-->")


@dataclass
class Block:
    page: Path
    line: int          # 1-based line of the opening fence
    lang: str          # sh, console, python
    text: str
    marker: str = ""   # "", "skip", "no-compare"
    reason: str = ""
    id: str = field(init=False)

    def __post_init__(self):
        name = self.page.relative_to(REPO) if self.page.is_relative_to(REPO) else self.page.name
        self.id = f"{name}:{self.line}"


def parse_page(page):
    """The runnable blocks of one Markdown page, with their markers."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)```+\s*([\w+-]*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, lang, start = m.group(1), m.group(2).lower(), i
        i += 1
        body = []
        while i < len(lines) and not re.match(r"^\s*```+\s*$", lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1  # the closing fence
        if lang not in LANGS:
            continue
        prev = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        mk = MARKER.search(prev)
        blocks.append(Block(page, start + 1, LANGS[lang], "\n".join(body) + "\n",
                            mk.group(1) if mk else "", (mk.group(2) or "").strip() if mk else ""))
    return blocks


BLOCKS = [b for page in PAGES for b in parse_page(page)]

# --- stand-ins --------------------------------------------------------------------------


def _grid_arcs(side, seed):
    """A weighted side x side grid, both directions of each edge (a small road map)."""
    rng = random.Random(seed)
    arcs = []
    for r in range(side):
        for c in range(side):
            v = r * side + c
            for u in ((v + 1) if c + 1 < side else None, (v + side) if r + 1 < side else None):
                if u is not None:
                    w = rng.randint(1, 100)
                    arcs += [(v, u, w), (u, v, w)]
    return side * side, arcs


def _dimacs(n, arcs):
    return (f"c stand-in road map\np sp {n} {len(arcs)}\n"
            + "".join(f"a {u + 1} {v + 1} {w}\n" for u, v, w in arcs))


def _snap(seed, n=300, m=1500, dense=False):
    """A SNAP-style edge list with sparse ids (relabelled on load), or with dense ids 0..n-1
    as facebook_combined has."""
    rng = random.Random(seed)
    ids = list(range(n)) if dense else rng.sample(range(10 * n), n)
    edges = {(ids[rng.randrange(n)], ids[rng.randrange(n)]) for _ in range(m)}
    return ("# stand-in SNAP graph\n# FromNodeId\tToNodeId\n"
            + "".join(f"{u}\t{v}\n" for u, v in sorted(edges) if u != v))


def _write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".gz":
        with gzip.open(path, "wt") as f:
            f.write(data)
    else:
        path.write_text(data)


def make_stand_ins(root):
    """Writes the stand-ins under `root` (the working directory is root/work)."""
    work, data = root / "work", root / "shared" / "data"
    n, arcs = _grid_arcs(16, 1)
    road = _dimacs(n, arcs)
    for p in (work / "road.gr", data / "rome99" / "rome99.gr",
              data / "USA-road-d.NY" / "USA-road-d.NY.gr.gz"):
        _write(p, road)
    _write(work / "truncated.gr", "p sp 3 3\na 1 2 1\na 2 3 1\n")  # declares 3 arcs, has 2
    for p in (work / "email-Enron.txt.gz", data / "email-Enron" / "email-Enron.txt.gz"):
        _write(p, _snap(2))
    _write(data / "facebook_combined" / "facebook_combined.txt.gz", _snap(2, dense=True))
    _write(work / "graph.el", "".join(f"{u} {v}\n" for u, v, _ in arcs[::2]))
    _write(work / "bad.el", "0 1\n1\n")  # line 2 lacks its target
    ng = str(numagraph_bin())
    run = lambda *a: subprocess.run([ng, *a], cwd=work, check=True, capture_output=True)
    run("convert", "road.gr", "road.ngr")
    for name in ("kron20.ngr", "web.ngr"):
        run("generate", "kron", "--scale", "10", "-o", name)
    run("generate", "kron", "--scale", "8", "-o", "corrupt.ngr")
    with open(work / "corrupt.ngr", "r+b") as f:  # flip one byte of the arrays
        f.seek(-16, os.SEEK_END)
        b = f.read(1)
        f.seek(-16, os.SEEK_END)
        f.write(bytes([b[0] ^ 0xFF]))
    for name, pages in (("run.json", "thp"), ("thp.json", "thp"), ("4k.json", "4k")):
        run("pr", "--kron", "8", "-n", "1", "-q", "--pages", pages, "--profile", name)


STAND_INS = ("road.gr road.ngr graph.el email-Enron.txt.gz kron20.ngr web.ngr bad.el "
             "truncated.gr corrupt.ngr run.json thp.json 4k.json ../shared/data/rome99/rome99.gr "
             "../shared/data/USA-road-d.NY/USA-road-d.NY.gr.gz "
             "../shared/data/email-Enron/email-Enron.txt.gz "
             "../shared/data/facebook_combined/facebook_combined.txt.gz").split()

# --- the environment ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def docs_env(tmp_path_factory):
    """The stand-ins made once, the wrappers, and a per-page working directory maker."""
    if not numagraph_bin().exists():
        pytest.fail(f"{numagraph_bin()} not built: run `make build` (or set NUMAGRAPH_BIN)")
    base = tmp_path_factory.mktemp("docs-run")
    template = base / "template"
    make_stand_ins(template)
    missing = [p for p in STAND_INS if not (template / "work" / p).exists()]
    assert not missing, f"STAND_INS lists files make_stand_ins did not make: {missing}"
    bindir = base / "bin"
    bindir.mkdir()
    for name, target in (("numagraph", numagraph_bin().resolve()), ("python", Path(sys.executable)),
                         ("python3", Path(sys.executable))):
        (bindir / name).write_text(f'#!/bin/sh\nexec "{target}" "$@"\n')
        (bindir / name).chmod(0o755)
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
               MPLBACKEND="Agg")
    pages = {}

    def workdir(page):
        key = page.relative_to(REPO).as_posix().replace("/", "_")
        if key not in pages:
            root = base / key
            shutil.copytree(template, root, symlinks=True)
            for rel in REPO_LINKS:
                (root / "work" / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / "work" / rel).symlink_to(REPO / rel)
            pages[key] = root / "work"
        return pages[key]

    return env, workdir


def cap_scales(text, lang):
    """Generated graphs above SCALE_CAP run at SCALE_CAP (sh and Python blocks only)."""
    cap = lambda m: m.group(1) + str(min(int(m.group(2)), SCALE_CAP))
    if lang == "sh":
        return re.sub(r"((?<![\w-])(?:--kron|-g|--uniform|-u|--scale|--grid)(?:\s+|=))(\d+)\b",
                      cap, text)
    return re.sub(r"((?:kronecker|uniform)\()(\d+)\b", cap, text)


# Commands a block may not run unmarked: they build, install, need root or MPI ranks, or
# would run this very test (make test).
_HEAVY = re.compile(r"(?m)(?:^|[;&|(]\s*|\s)(?:\S*/)?(?:make|cmake|ninja|pip3?|apt-get|apt|sudo|"
                    r"mpirun|mpiexec(?:\.\w+)?|docker)\s")

# --- console comparison -------------------------------------------------------------------

_TIMED = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?\s?(?:s|ms|us|µs|ns|[MGK]?TEPS|[KMG]iB/s|"
                    r"M edges/s)(?![\w/])")


def normalize(line):
    return _TIMED.sub("<T>", line.rstrip())


def line_matches(expected, actual):
    if "[...]" not in expected:
        return expected == actual
    parts = [re.escape(p) for p in expected.split("[...]")]
    return re.fullmatch(".*?".join(parts), actual) is not None


def output_matches(expected, actual):
    """Expected lines against actual ones; `...` lines match any run of lines."""
    memo = {}

    def go(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(expected):
            r = j == len(actual)
        elif expected[i] == "...":
            r = any(go(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and line_matches(expected[i], actual[j]) and go(i + 1, j + 1)
        memo[i, j] = r
        return r

    return go(0, 0)


def console_steps(text):
    steps = []
    for line in text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"console block: output before the first `$ ` line: {line!r}")
    for _, out in steps:
        while out and not out[-1].strip():
            out.pop()
    return steps


# --- Python pages ---------------------------------------------------------------------------

_RUNNER = textwrap.dedent("""
    import json, sys, traceback
    blocks = json.load(open(sys.argv[1]))
    ns, results, failed = {"__name__": "__main__"}, {}, None
    for b in blocks:
        if failed:
            results[b["id"]] = {"status": "skipped", "detail": "after the failed block " + failed}
            continue
        try:
            exec(compile(b["code"], b["id"], "exec"), ns)
            results[b["id"]] = {"status": "ok"}
        except BaseException:
            results[b["id"]] = {"status": "failed", "detail": traceback.format_exc()}
            failed = b["id"]
        json.dump(results, open(sys.argv[2], "w"))
""")
_python_results = {}


def python_page_results(page, env, workdir):
    """Runs every runnable Python block of `page` once; results by block id."""
    if page not in _python_results:
        blocks = [b for b in BLOCKS if b.page == page and b.lang == "python" and b.marker != "skip"]
        wd = workdir(page)
        spec, out = wd.parent / "python-blocks.json", wd.parent / "python-results.json"
        spec.write_text(json.dumps([{"id": b.id, "code": cap_scales(b.text, "python")}
                                    for b in blocks]))
        proc = subprocess.run([sys.executable, "-c", _RUNNER, str(spec), str(out)], cwd=wd,
                              env=env, capture_output=True, text=True,
                              timeout=BLOCK_TIMEOUT_S * max(1, len(blocks)))
        results = json.loads(out.read_text()) if out.exists() else {}
        for b in blocks:
            results.setdefault(b.id, {"status": "failed", "detail":
                                      f"the page's Python process died (exit {proc.returncode}):\n"
                                      f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"})
        _python_results[page] = results
    return _python_results[page]


# --- the test --------------------------------------------------------------------------------


def test_markers_have_reasons():
    bad = [b.id for b in BLOCKS if b.marker and not b.reason]
    assert not bad, f"docs-run markers without a (reason): {bad}"


_COMMAND_LINE = re.compile(r"^(?:\$ |numagraph [a-z][\w-]*(?:\s|$))")


def test_no_command_blocks_untagged():
    """A fence without a language holding `$ ` or `numagraph ` lines is a command block in
    disguise: tag it ```console or ```sh (or mark it skip, with the reason)."""
    bad = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        inside = False
        for n, line in enumerate(lines, 1):
            m = re.match(r"^\s*```+\s*([\w+-]*)\s*$", line)
            if m:
                if not inside:
                    inside, lang, start, shown = True, m.group(1), n, False
                else:
                    inside = False
            elif inside and not lang and _COMMAND_LINE.match(line) and not shown:
                bad.append(f"{page.relative_to(REPO)}:{start}")
                shown = True
    assert not bad, f"tag these blocks ```console or ```sh: {bad}"


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_doc_block(block, docs_env):
    env, workdir = docs_env
    if block.marker == "skip":
        pytest.skip(f"docs-run: skip ({block.reason})")
    heavy = _HEAVY.search(re.sub(r"(?m)(^|\s)#.*$", "", block.text))
    if block.lang == "sh" and heavy:
        pytest.fail(f"{block.id}: the block builds, installs or starts MPI "
                    f"(`{heavy.group(0).strip()}`): mark it "
                    "<!-- docs-run: skip (REASON) --> or make it a quick example")
    wd = workdir(block.page)
    if block.lang == "sh":
        script = "set -euo pipefail\n" + cap_scales(block.text, "sh")
        proc = subprocess.run(["bash", "-c", script], cwd=wd, env=env, capture_output=True,
                              text=True, timeout=BLOCK_TIMEOUT_S)
        assert proc.returncode == 0, (f"{block.id}: the block exited {proc.returncode}\n"
                                      f"--- script\n{script}--- stdout\n{proc.stdout[-4000:]}"
                                      f"--- stderr\n{proc.stderr[-4000:]}")
    elif block.lang == "console":
        for cmd, expected in console_steps(block.text):
            proc = subprocess.run(["bash", "-c", cmd], cwd=wd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=BLOCK_TIMEOUT_S)
            actual = [normalize(x) for x in proc.stdout.splitlines()]
            while actual and not actual[-1]:
                actual.pop()
            wants_error = any(x.startswith("numagraph: error:") for x in expected)
            assert (proc.returncode != 0) == wants_error, (
                f"{block.id}: `{cmd}` exited {proc.returncode}, the page shows "
                f"{'an error' if wants_error else 'success'}:\n{proc.stdout[-4000:]}")
            if block.marker == "no-compare":
                continue
            want = [normalize(x) for x in expected]
            assert output_matches(want, actual), (
                f"{block.id}: `{cmd}` printed other lines than the page shows\n--- page\n"
                + "\n".join(want) + "\n--- actual\n" + "\n".join(actual))
    else:
        result = python_page_results(block.page, env, workdir)[block.id]
        if result["status"] == "skipped":
            pytest.skip(result["detail"])
        assert result["status"] == "ok", f"{block.id}:\n{result['detail']}"


def test_comparison_rules_can_fail(tmp_path):
    """The rules of the docstring, including that a drifted line fails."""
    assert normalize("load time       0.100 s ") == "load time       <T>"
    assert normalize("bfs  1100.2 MTEPS  PASS") == "bfs  <T>  PASS"
    assert normalize("reached 882 of 1024 vertices (86.1%)") == "reached 882 of 1024 vertices (86.1%)"
    assert output_matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert output_matches(["a", "...", "b"], ["a", "b"])
    assert not output_matches(["a", "...", "d"], ["a", "b", "c"])
    assert not output_matches(["reached 882 of 1024"], ["reached 881 of 1024"])
    assert output_matches(["but [...] GiB is free"], ["but 17.8 GiB is free"])
    assert not output_matches(["but [...] GiB is free"], ["but 17.8 TiB is free"])
    page = tmp_path / "p.md"
    page.write_text("x\n<!-- docs-run: skip (too big) -->\n\n```sh\nmake demo\n```\n"
                    "```console\n$ numagraph info g.el\nout\n```\n```\n$ not run\n```\n")
    blocks = parse_page(page)
    assert [(b.line, b.lang, b.marker, b.reason) for b in blocks] == [
        (4, "sh", "skip", "too big"), (7, "console", "", "")]
    assert console_steps("$ a\nx\ny\n$ b\n") == [("a", ["x", "y"]), ("b", [])]

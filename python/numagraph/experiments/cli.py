"""numagraph-experiments: list the experiments, or run one into a folder.

  numagraph-experiments list
  numagraph-experiments run NAME [--smoke|--quick|--full] [--threads LIST] [--scale N] [--trials N]
                             --out DIR [--cli PATH]

The CLI comes from --cli, else $NUMAGRAPH_BIN, else `numagraph` on PATH.
"""
import argparse
import importlib
import sys
import time

from .registry import EXPERIMENTS, find
from .runner import ExperimentError, Runner, default_threads, find_cli, parse_threads


def cmd_list(_args):
    width = max(len(e.name) for e in EXPERIMENTS)
    for e in EXPERIMENTS:
        state = "" if e.implemented else "  [not implemented yet]"
        paper = f" (paper: {e.paper})" if e.paper else " (numagraph's own)"
        print(f"{e.name:<{width}}  {e.summary}{paper}{state}")
    return 0


def cmd_run(args):
    exp = find(args.experiment)
    if exp is None:
        names = ", ".join(e.name for e in EXPERIMENTS)
        print(f"numagraph-experiments: no experiment named {args.experiment!r}; the experiments are: {names}",
              file=sys.stderr)
        return 2
    if not exp.implemented:
        done = ", ".join(e.name for e in EXPERIMENTS if e.implemented)
        print(f"numagraph-experiments: experiment {exp.name!r} is planned but not implemented yet "
              f"(issue #32); implemented: {done}", file=sys.stderr)
        return 2
    if args.threads and not exp.threads:
        print(f"numagraph-experiments: {exp.name} takes no --threads: its ranks and threads per rank come with "
              "the size (docs/experiments/README.md); drop --threads", file=sys.stderr)
        return 2
    size = args.size or "quick"
    try:
        cli = find_cli(args.cli)
        threads = parse_threads(args.threads) if args.threads else default_threads(size)
        module = importlib.import_module(f"{__package__}.{exp.module}")
        runner = Runner(exp.name, cli, args.out, size, threads,
                        overrides={"scale": args.scale, "trials": args.trials})
        started = time.perf_counter()
        module.run(runner)
    except ExperimentError as e:
        print(f"numagraph-experiments: {e}", file=sys.stderr)
        return 1
    print(f"{exp.name}: wrote {args.out}/report.md, results.json, results.csv and plots "
          f"in {time.perf_counter() - started:.0f} s")
    return 0


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return value


def parser(prog="numagraph-experiments"):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="name every experiment, marking those not implemented yet")
    run = sub.add_parser("run", help="run one experiment and write its report")
    run.add_argument("experiment", help="an experiment name from `list`")
    sizes = run.add_mutually_exclusive_group()
    sizes.add_argument("--quick", dest="size", action="store_const", const="quick",
                       help="minutes on 2 cores (default)")
    sizes.add_argument("--full", dest="size", action="store_const", const="full",
                       help="paper-sized graphs for a big many-core or many-node machine (hours on a small one)")
    sizes.add_argument("--smoke", dest="size", action="store_const", const="smoke",
                       help="tiny graphs, seconds: checks the experiment runs (CI); the figures mean nothing")
    run.add_argument("--threads", help="thread counts: 1,2,4 or 1-8 or 1-16:2 (default: 1..cores, "
                     "powers of two above 4, and the core count); polymer times at the largest count")
    run.add_argument("--scale", type=positive_int, help="Kronecker scale of the generated graphs, instead of the "
                     "size's (e.g. --full --scale 20 on a machine with less memory)")
    run.add_argument("--trials", type=positive_int, help="trials per measurement, instead of the size's")
    run.add_argument("--out", required=True, help="folder for report.md, results.json/.csv and the PNGs")
    run.add_argument("--cli", help="the numagraph binary (default: $NUMAGRAPH_BIN, else numagraph on PATH)")
    return ap


def main(argv=None, prog="numagraph-experiments"):
    args = parser(prog).parse_args(argv)
    return cmd_list(args) if args.command == "list" else cmd_run(args)


if __name__ == "__main__":
    sys.exit(main())

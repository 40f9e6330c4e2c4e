"""Experiments of the papers numagraph is built from, rerun with one command.

`numagraph-experiments list` names them; `numagraph-experiments run NAME --quick --out DIR`
writes raw results (JSON, CSV), report.md and PNG plots (docs/experiments/README.md).
"""
from .registry import EXPERIMENTS, Experiment, find

__all__ = ["EXPERIMENTS", "Experiment", "find"]

"""The experiments, planned and implemented: name, the paper it reproduces and its module."""
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Experiment:
    name: str
    paper: Optional[str]  # title of the paper (docs/references.md), None for our own experiment
    summary: str
    module: Optional[str]  # module under numagraph.experiments; None while not implemented
    threads: bool = True   # whether --threads means something to it (graph500: ranks x threads by size)

    @property
    def implemented(self):
        return self.module is not None


EXPERIMENTS = [
    Experiment("bc-numa", "NUMA-aware graph mining techniques for performance and energy efficiency",
               "BC baseline / ADL / NUMA work queues over thread counts, working set, energy", "bc_numa"),
    Experiment("graph500", "Evaluation and Optimization of Breadth-First Search on NUMA Cluster",
               "MPI BFS optimization ablation, summary-bitmap granularity, phase breakdown", "graph500",
               threads=False),
    Experiment("xsbench", "Improving the scalability of neutron cross-section lookup codes on multicore NUMA system",
               "bench-xs placements x threads: scaling efficiency", "xsbench"),
    Experiment("galois-profile", "Parallel Graph Processing on Modern Multi-Core Servers: New Findings and Remaining Challenges",
               "PR, BFS, BC, CC, diameter x THP on/off x threads with profile CDFs", "galois_profile"),
    Experiment("polymer", "NUMA-Aware Graph-Structured Analytics",
               "flat vs NUMA engine for PR, SpMV, BP, BFS, CC, SSSP: times and access accounting on 2/4/8 nodes",
               "polymer"),
    Experiment("scaling", None, "every kernel over 1..N threads: strong-scaling speedup", "scaling"),
]


def find(name):
    for e in EXPERIMENTS:
        if e.name == name:
            return e
    return None

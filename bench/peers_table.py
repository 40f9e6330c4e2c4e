#!/usr/bin/env python3
"""Markdown table of bench/peers.py results (its --out JSON files), for docs/performance.md.

Usage: bench/peers_table.py RESULTS.json [RESULTS.json ...]   (--out or --record files)

One row per graph and kernel: numagraph's time at the setting the ratio uses (the first of
its settings: do for bc, auto for bc16 and sssp, the CLI's default variant otherwise), each
peer's median with the setting its sweep chose, and numagraph / fastest peer. Times are
medians of the pooled trials in seconds; a ratio below 1 means numagraph is faster. Rows of
bc16 add auto / do (16 sources in one call against sixteen single-source searches) and rows
of sssp numagraph's best swept delta with auto / best.
"""
import json
import sys

PEERS = ("gapbs", "GBBS", "Ligra")


def fmt(t):
    if t is None:
        return "–"
    if t < 0.001:
        return f"{t * 1e6:.1f} µs"
    return f"{t:.4f}" if t < 10 else f"{t:.2f}"


def row_cells(row):
    ours = row["numagraph"]
    first = next(iter(ours))
    cells = [row["graph"], row["kernel"], f"{fmt(ours[first])} ({first})"]
    for p in PEERS:
        t = row["peers"].get(p)
        setting = row.get("peer_settings", {}).get(p)
        cells.append(fmt(t) + (f" ({setting})" if t is not None and setting not in (None, "", "default") else ""))
    ratio = row.get("ratio")
    cells.append("below a peer's timer" if row.get("below_peer_resolution")
                 else "–" if ratio is None else f"**{ratio:.2f}** ({row['fastest_peer']})")
    notes = []
    if "auto_vs_16_single" in row:
        notes.append(f"auto / 16 single ({row.get('single_variant', 'do')}) {row['auto_vs_16_single']:.2f}")
    if row.get("auto_vs_best_in_sweep") is not None:
        notes.append(f"in-process sweep: best delta {row['best_delta']}, "
                     f"auto/best {row['auto_vs_best_in_sweep']:.2f}")
    elif "best_delta" in row and row["best_delta"] in ours and ours[row["best_delta"]] > 0:
        notes.append(f"best delta {row['best_delta']}: {fmt(ours[row['best_delta']])}, "
                     f"auto/best {ours[first] / ours[row['best_delta']]:.2f}")
    iterations = row.get("iterations")
    if isinstance(iterations, dict):
        iterations = iterations.get(first)
    if iterations:
        notes.append(f"{iterations} iterations")
    if row.get("checks"):
        bad = [k for k, v in row["checks"].items() if isinstance(v, dict) and v.get("mismatch")]
        notes.append("answers differ: " + ", ".join(bad) if bad else "answers agree")
    cells.append("; ".join(notes))
    return cells


def table_lines(rows):
    """The Markdown table of bench/peers.py rows, one line per table line."""
    head = ["graph", "kernel", "numagraph (setting)", *PEERS, "numagraph / fastest", "notes"]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join(["---"] * 2 + ["---:"] * (len(head) - 3) + ["---"]) + "|"]
    return lines + ["| " + " | ".join(row_cells(row)) + " |" for row in rows]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = []
    for path in sys.argv[1:]:
        data = json.load(open(path))
        rows += data["rows"] if isinstance(data, dict) else data  # a --record file or an --out file
    print("\n".join(table_lines(rows)))


if __name__ == "__main__":
    main()

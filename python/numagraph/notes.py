"""What numagraph decided about an input it had to guess about, said once.

A file or table does not always say how to read it: whether its first line is a
header, which column holds weights, whether edges are directed, whether sparse
ids are compacted, whether self-loops and parallel edges are kept. numagraph
never decides such things silently: each guess is one :class:`InputNote`
warning naming the argument that settles it, and the graph keeps what was
decided in :attr:`numagraph.Graph.decisions`.

Passing the argument explicitly settles the question, and the note is not
shown. To hide every note instead::

    import warnings, numagraph
    warnings.filterwarnings("ignore", category=numagraph.InputNote)
"""
from __future__ import annotations

import warnings

from ._words import count_of


class InputNote(UserWarning):
    """A decision numagraph took about an input (header, weight column,
    direction, relabelling, names, dropped self-loops or duplicates); the
    message names the argument that settles it."""


def announce(source, notes, stacklevel=2):
    """One InputNote for `source` (a file name or "DataFrame") listing `notes`."""
    notes = [n for n in notes if n]
    if notes:
        warnings.warn(f"numagraph: {source}: " + "; ".join(notes), InputNote, stacklevel=stacklevel + 1)


def cleaning_notes(core, drop_self_loops_given, dedupe_given):
    """Notes for what the builder removed by default (none when the caller
    passed drop_self_loops= / dedupe= explicitly, or nothing was removed)."""
    notes = []
    loops = int(core.self_loops_removed)
    if loops and not drop_self_loops_given:
        notes.append(f"dropped {count_of(loops, 'self-loop')} (drop_self_loops=False keeps them)")
    dups = int(core.duplicates_removed)
    if dups and not dedupe_given:
        lightest = ", keeping the lightest weight" if core.weighted else ""
        notes.append(f"merged {count_of(dups, 'parallel arc')} into one each{lightest} (dedupe=False keeps them)")
    return notes

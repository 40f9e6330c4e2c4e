"""numagraph.config: threads, topology, binding, page size and placement."""
from __future__ import annotations

from . import _core

_DEFAULTS = dict(threads=0, topology="", bind="compact", smt=False, pages="thp", placement="local", place="")
_state = None  # settings in force (None: never configured, OpenMP defaults, no pinning)
_initial_threads = None
_MAX_THREADS = 4096  # numa::kMaxThreads, the CLI's -t range


def _apply(settings):
    global _state
    if settings is None:
        # Back to the unconfigured state: the initial thread count, no pinning.
        _core.configure(_initial_threads, "", "none", False, "thp", "local")
        _core.set_place("")
        _state = None
        return
    _core.configure(settings["threads"], settings["topology"], settings["bind"], settings["smt"],
                    settings["pages"], settings["placement"])
    _core.set_place(settings["place"])  # after configure: bind:N is checked against the topology's nodes
    _state = dict(settings)


def place_text(place):
    """A place= value (the CLI's "role=policy,..." string or a dict role -> policy) as the string."""
    if isinstance(place, str):
        return place
    if isinstance(place, dict):
        return ",".join(f"{role}={policy}" for role, policy in place.items())
    raise TypeError(f"place must be a str such as 'ranks=interleave' or a dict such as {{'ranks': 'interleave'}} "
                    f"(got {type(place).__name__})")


class config:
    """Sets the runtime configuration now; as a context manager, restores the previous one on exit.

    ``numagraph.config(threads=4)`` sets 4 threads for every later call;
    ``with numagraph.config(threads=1): ...`` only inside the block.
    threads: 0 = one per core. topology: "" (the machine, or NUMAGRAPH_TOPOLOGY),
    an hwloc synthetic string such as "pack:2 numa:1 core:4 pu:1", or an XML file.
    bind: "compact", "scatter" or "none". smt: use every hardware thread.
    pages: "4k", "thp", "2m" or "1g". placement: "local", "interleave" or "partitioned".
    place: placement per array role, as the CLI's --place: "graph=interleave,ranks=partitioned"
    or {"graph": "interleave", "ranks": "partitioned"} (roles and policies: docs/numa.md); a
    graph is placed when it is built, so set graph=... before building it.
    ``numagraph.config.current()`` returns what is in force.

    >>> with numagraph.config(threads=1):
    ...     numagraph.config.current()["threads"]
    1
    """

    def __init__(self, threads=None, topology=None, bind=None, smt=None, pages=None, placement=None, place=None):
        global _initial_threads
        if _initial_threads is None:
            _initial_threads = _core.current_config()["threads"]
        self._previous = None if _state is None else dict(_state)
        settings = dict(_DEFAULTS if _state is None else _state)
        given = dict(threads=threads, topology=topology, bind=bind, smt=smt, pages=pages, placement=placement,
                     place=None if place is None else place_text(place))
        for key, value in given.items():
            if value is not None:
                settings[key] = value
        if not isinstance(settings["threads"], int) or isinstance(settings["threads"], bool):
            raise TypeError(f"threads must be an int (got {type(settings['threads']).__name__})")
        if not 0 <= settings["threads"] <= _MAX_THREADS:
            raise _core.UsageError(f"threads must be in 0..{_MAX_THREADS} (0 = one per core); "
                                   f"got {settings['threads']}")
        _apply(settings)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _apply(self._previous)
        return False

    @staticmethod
    def current():
        """The configuration in force: threads, and topology/bind/pages/placement/place once configured."""
        current = _core.current_config()
        if current.get("configured"):
            current["place"] = _core.place()
        return current

"""numagraph.progress(): updates from the phases of the calls in the block
(PageRank iterations, betweenness sources, inner phases otherwise), on the
calling thread; composed with numagraph.profile(); a callback's exception
raised from the call; Ctrl-C inside a block; the tqdm bar."""
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

import numagraph as ng

if not hasattr(ng._core, "_progress_start"):
    pytest.skip("the installed extension predates numagraph.progress: rebuild it "
                "(pip install --no-build-isolation -e . -Cbuild-dir=build-py)", allow_module_level=True)


@pytest.fixture(scope="module")
def g():
    return ng.generate.kronecker(11)


def collect(fn, interval=0):
    updates = []
    with ng.progress(updates.append, interval=interval):
        result = fn()
    return updates, result


def check_run(updates, call, unit, total):
    """One call's updates: non-decreasing done and elapsed, one final update
    last, done never above total."""
    assert updates, "no update at all: the final one is always sent"
    assert all(u.call == call and u.unit == unit and u.total == total for u in updates), updates
    assert [u.final for u in updates] == [False] * (len(updates) - 1) + [True]
    assert len({u.call_index for u in updates}) == 1
    done = [u.done for u in updates]
    assert done == sorted(done) and done[0] >= 0
    assert [u.elapsed for u in updates] == sorted(u.elapsed for u in updates)
    if total is not None:
        assert done[-1] <= total


def test_pagerank_counts_iterations_up_to_max(g):
    updates, _ = collect(lambda: ng.pagerank(g, max_iterations=400, tolerance=0))
    check_run(updates, "pagerank", "iterations", 400)
    assert updates[-1].done == 400 and updates[-1].phase == "iteration" and not updates[-1].at_most
    # The sink is polled every 50 ms: a call that ran a second got updates on the way.
    if updates[-1].elapsed > 1.0:
        assert len(updates) >= 2 and 0 < updates[0].done < 400


def test_pagerank_with_tolerance_is_at_most(g):
    updates, (_, iterations, _) = collect(lambda: ng.pagerank(g, max_iterations=100, tolerance=1e-3,
                                                              return_info=True))
    check_run(updates, "pagerank", "iterations", 100)
    assert updates[-1].at_most and updates[-1].done == iterations < 100


@pytest.mark.parametrize("variant, k", [("auto", 40), ("batched", 21), ("brandes", 7), ("direction-optimizing", 5),
                                        ("source-parallel", 9)])
def test_betweenness_counts_sources_up_to_k(g, variant, k):
    updates, _ = collect(lambda: ng.betweenness(g, k=k, variant=variant))
    check_run(updates, "betweenness", "sources", k)
    assert updates[-1].done == k and updates[-1].phase == "backward"


def test_other_calls_count_inner_phases(g):
    updates, depth = collect(lambda: ng.bfs(g, 0))
    check_run(updates, "bfs", "phases", None)
    assert updates[-1].done >= 1 and updates[-1].phase == "bfs"


def test_calls_are_numbered_and_callback_runs_on_calling_thread(g):
    threads = set()
    updates = []

    def cb(u):
        threads.add(threading.get_ident())
        updates.append(u)

    with ng.progress(cb, interval=0) as p:
        ng.pagerank(g, max_iterations=5, tolerance=0)
        ng.betweenness(g, k=3)
    assert threads == {threading.get_ident()}
    assert [u.call_index for u in updates if u.final] == [1, 2]
    assert p.updates == len(updates)
    # After the block nothing is reported.
    ng.pagerank(g, max_iterations=5, tolerance=0)
    assert p.updates == len(updates)


def test_interval_throttles_to_the_final_update(g):
    updates, _ = collect(lambda: ng.pagerank(g, max_iterations=300, tolerance=0), interval=1e9)
    assert [u.final for u in updates] == [True] and updates[0].done == 300


@pytest.mark.parametrize("progress_outside", [True, False])
def test_composes_with_profile(g, progress_outside):
    updates = []
    if progress_outside:
        with ng.progress(updates.append, interval=0), ng.profile(interval=0.001) as p:
            ng.pagerank(g, max_iterations=9, tolerance=0)
    else:
        with ng.profile(interval=0.001) as p, ng.progress(updates.append, interval=0):
            ng.pagerank(g, max_iterations=9, tolerance=0)
    assert [ph["name"] for ph in p.phases].count("iteration") == 9
    check_run(updates, "pagerank", "iterations", 9)
    assert updates[-1].done == 9
    # Each closes on its own: a later profile sees its calls only.
    with ng.profile(interval=0.001) as q:
        ng.pagerank(g, max_iterations=4, tolerance=0)
    assert [ph["name"] for ph in q.phases].count("iteration") == 4


class Boom(Exception):
    pass


def test_callback_exception_stops_the_call_and_is_raised(g):
    seen = []

    def cb(u):
        seen.append(u)
        raise Boom("from the callback")

    with pytest.raises(Boom, match="from the callback"):
        with ng.progress(cb, interval=0):
            # Hours without the stop (PageRank polls the cancel flag per iteration).
            ng.pagerank(g, max_iterations=10**8, tolerance=0)
    assert len(seen) == 1
    # The worker is free and the next call right.
    ref = ng.pagerank(g, max_iterations=20, tolerance=0)
    updates, again = collect(lambda: ng.pagerank(g, max_iterations=20, tolerance=0))
    assert (ref == again).all() and updates[-1].done == 20


def test_callback_exception_on_the_final_update(g):
    def cb(u):
        raise Boom(f"final={u.final}")

    with pytest.raises(Boom, match="final=True"):
        with ng.progress(cb, interval=1e9):
            ng.betweenness(g, k=3)


def test_refusals(g):
    with pytest.raises(TypeError, match="callable"):
        ng.progress(42)
    with pytest.raises(ng.UsageError, match="interval"):
        ng.progress(print, interval=-1)
    with ng.progress(lambda u: None):
        with pytest.raises(ng.UsageError, match="already open"):
            with ng.progress(lambda u: None):
                pass
    # bar=False without a callback: a block that reports nothing.
    with ng.progress(bar=False) as p:
        ng.pagerank(g, max_iterations=3, tolerance=0)
    assert p.updates == 0


def test_tqdm_bar(g, capsys):
    pytest.importorskip("tqdm")
    for bar in (True, None):
        with ng.progress(bar=bar, interval=0) as p:
            ng.pagerank(g, max_iterations=50, tolerance=0)
            ng.betweenness(g, k=8)
        err = capsys.readouterr().err
        assert p.updates >= 2
        assert "pagerank" in err and "50/50" in err and "iterations" in err
        assert "betweenness" in err and "8/8" in err and "sources" in err


def test_bar_true_without_tqdm_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError, match="pip install tqdm"):
        ng.progress(bar=True)
    # No callback and no tqdm: the default block reports nothing, and says nothing.
    with ng.progress() as p:
        pass
    assert p.updates == 0


CHILD = textwrap.dedent("""
    import signal; signal.signal(signal.SIGINT, signal.default_int_handler)
    import numagraph as ng
    g = ng.generate.kronecker(11)
    told = []
    def cb(u):
        if not told:
            told.append(1)
            print("running", flush=True)
    try:
        with ng.progress(cb, interval=0):
            ng.pagerank(g, max_iterations=10**9, tolerance=0)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    print(ng.pagerank(g, max_iterations=3, tolerance=0).size, flush=True)
""")


def test_ctrl_c_inside_a_block():
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "running"
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
        assert out.split() == ["interrupted", str(2**11)]
        assert proc.returncode == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_calls_from_two_threads_get_their_own_updates(g):
    seen = []  # (thread, update)
    with ng.progress(lambda u: seen.append((threading.get_ident(), u)), interval=0):
        workers = [threading.Thread(target=ng.pagerank, args=(g,), kwargs={"max_iterations": 200, "tolerance": 0})
                   for _ in range(2)]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
    by_call = {}
    for thread, u in seen:
        by_call.setdefault(u.call_index, set()).add(thread)
    assert sorted(by_call) == [1, 2]
    assert all(len(threads) == 1 for threads in by_call.values())  # delivered to the thread that called
    assert by_call[1] != by_call[2] and by_call[1] | by_call[2] == {t.ident for t in workers}
    assert sorted(u.done for _, u in seen if u.final) == [200, 200]

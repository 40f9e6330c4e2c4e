"""Python constructors and Graph.save never kill the interpreter (issue #27).

Each bad call runs in a child interpreter: a crash (SIGSEGV, SIGBUS, heap
corruption at exit) fails the test instead of ending the pytest run. The child
prints the exception class it caught; the test checks it is the documented one."""
import subprocess
import sys
import textwrap

import pytest

PRELUDE = """
import numpy as np
import numagraph as ng
def expect(call, *classes):
    try:
        call()
    except classes as e:
        print("RAISED", type(e).__name__, e)
    else:
        print("NO ERROR")
"""


def child(code, timeout=120):
    proc = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f"the child interpreter died ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.mark.parametrize("call,expected", [
    ("ng.Graph.from_edges(np.array([0], dtype=np.uint64), np.array([2**64 - 1], dtype=np.uint64), relabel=False)",
     "InputError"),
    ("ng.Graph.from_edges(np.array([0], dtype=np.uint64), np.array([2**64 - 1], dtype=np.uint64))", "InputError"),
    ("ng.Graph.from_edges([0, 1], [1, 2], num_vertices=2**62)", "ResourceError"),
    ("ng.Graph.from_edges([0, 1], [1, 2], num_vertices=2**63)", "InputError"),
    ("ng.Graph.from_edges([0, 1], [1, 5], num_vertices=3)", "InputError"),
    ("ng.Graph.from_edges([0, 1], [1, 2], weights=[1.0, 1e40])", "UsageError"),
])
def test_from_edges_refuses_what_it_cannot_build(call, expected):
    out = child(f"expect(lambda: {call}, ng.Error, MemoryError)")
    assert f"RAISED {expected}" in out, out
    if expected == "ResourceError":
        assert "needs about" in out and "NUMAGRAPH_MEMORY_LIMIT" in out


def test_resource_error_is_a_memory_error():
    out = child("expect(lambda: ng.Graph.from_edges([0, 1], [1, 2], num_vertices=2**62), MemoryError)")
    assert "RAISED ResourceError" in out, out


LYING_MATRICES = {
    "indptr_not_monotone": "m = sp.csr_matrix((np.ones(3), np.array([0, 1, 2]), np.array([0, 3, 1, 3])), shape=(3, 3))",
    "indptr_wrong_length": "m = sp.csr_matrix((3, 3)); m.indptr = np.array([0, 0], dtype=np.int32)",
    "indptr_end_beyond_nnz": "m = sp.csr_matrix(np.eye(3)); m.indptr = np.array([0, 1, 2, 1000], dtype=np.int32)",
    "indptr_start_not_zero": "m = sp.csr_matrix(np.eye(3)); m.indptr = np.array([1, 1, 2, 3], dtype=np.int32)",
    "index_out_of_range": "m = sp.csr_matrix(np.eye(3)); m.indices = np.array([0, 1, 1 << 30], dtype=np.int32)",
    "negative_index": "m = sp.csr_matrix(np.eye(3)); m.indices = np.array([0, -7, 2], dtype=np.int32)",
    "csc_indptr_lies": "m = sp.csc_matrix(np.eye(3)); m.indptr = np.array([0, 2, 1, 3], dtype=np.int32)",
    "coo_row_out_of_range": "m = sp.coo_matrix(np.eye(3)); m.row = np.array([0, 1, 99], dtype=np.int32)",
}


@pytest.mark.parametrize("name", sorted(LYING_MATRICES))
def test_from_scipy_refuses_a_lying_matrix(name):
    out = child(f"""
        import gc
        import scipy.sparse as sp
        {LYING_MATRICES[name]}
        expect(lambda: ng.Graph.from_scipy(m), ng.InputError)
        del m
        gc.collect()
    """)
    assert "RAISED InputError" in out, out


def test_from_scipy_still_takes_good_matrices():
    out = child("""
        import scipy.sparse as sp
        for fmt in ("csr", "csc", "coo", "bsr", "lil"):
            m = sp.random(50, 50, density=0.1, format=fmt, random_state=1)
            g = ng.Graph.from_scipy(m)
            assert g.num_edges == sp.csr_matrix(m).nnz, fmt
        print("OK")
    """)
    assert "OK" in out


def test_save_over_the_mapped_input_keeps_file_and_graph(tmp_path):
    path = tmp_path / "x.ngr"
    out = child(f"""
        g = ng.generate.kronecker(12)
        g.save({str(path)!r})
        h = ng.read({str(path)!r})
        before = h.out_degree.copy()
        h.save({str(path)!r})           # over the file h is mapped from
        h.save({str(path)!r})
        assert (h.out_degree == before).all()
        again = ng.read({str(path)!r})
        assert again.num_edges == h.num_edges and (again.out_degree == before).all()
        print("OK")
    """)
    assert "OK" in out
    assert [p.name for p in tmp_path.iterdir()] == ["x.ngr"]


def test_failed_save_leaves_no_file(tmp_path):
    path = tmp_path / "x.sg"
    out = child(f"""
        g = ng.Graph.from_edges([10**12, 5], [5, 7], relabel=True)  # relabelled: .sg cannot keep the ids
        expect(lambda: g.save({str(path)!r}), ng.UsageError)
    """)
    assert "RAISED UsageError" in out, out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("threads", [10**6, 4097, -1, 10**20])
def test_config_refuses_thread_counts_out_of_range(threads):
    out = child(f"""
        expect(lambda: ng.config(threads={threads}), ng.Error)
        g = ng.Graph.from_edges([0, 1], [1, 2])
        print("STILL WORKS", int(ng.bfs(g, 0)[2]))
    """)
    assert "RAISED UsageError" in out and "0..4096" in out, out
    assert "STILL WORKS 2" in out, out

"""numagraph.openmp: a second OpenMP runtime in the process is spotted in
/proc/self/maps and said once as an OpenMPWarning naming the knob; setting the
knob, or a process with one runtime, says nothing."""
import sys
import warnings

import pytest

import numagraph as ng
from numagraph import openmp

MAPS = """\
7f00-7f01 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0
7f01-7f02 r--p 00001000 08:01 1 /usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0
7f02-7f03 r-xp 00000000 08:01 2 /venv/site-packages/networkit.libs/libgomp-e985bcbb.so.1.0.0
7f03-7f04 r-xp 00000000 08:01 3 /opt/lib/libomptarget.so
7f04-7f05 rw-p 00000000 00:00 0
7f05-7f06 r-xp 00000000 08:01 4 /usr/lib/libiomp5.so
"""


def test_runtimes_are_read_from_the_maps(tmp_path):
    maps = tmp_path / "maps"
    maps.write_text(MAPS)
    assert openmp.openmp_runtimes(maps) == ["/usr/lib/libiomp5.so", "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0",
                                            "/venv/site-packages/networkit.libs/libgomp-e985bcbb.so.1.0.0"]
    assert openmp.openmp_runtimes(tmp_path / "missing") == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_this_process_has_numagraphs_runtime():
    assert any("gomp" in p for p in ng.openmp_runtimes())


@pytest.fixture
def two_runtimes(monkeypatch):
    monkeypatch.setattr(openmp, "openmp_runtimes", lambda: ["/a/libgomp.so.1", "/b/libgomp-e985bcbb.so.1"])
    monkeypatch.setattr(openmp, "_seen", {"modules": -1, "done": False})
    for knob in openmp.KNOBS:
        monkeypatch.delenv(knob, raising=False)


def test_two_runtimes_warn_once_naming_the_knob(two_runtimes):
    g = ng.generate.kronecker(6)
    with pytest.warns(ng.OpenMPWarning, match="OMP_WAIT_POLICY=passive") as said:
        ng.bfs(g, 0)
    assert "libgomp-e985bcbb.so.1" in str(said[0].message) and said[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ng.bfs(g, 0)
        ng.connected_components(g)


def test_the_knob_silences_it(two_runtimes, monkeypatch):
    monkeypatch.setenv("GOMP_SPINCOUNT", "10000")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ng.bfs(ng.generate.kronecker(6), 0)

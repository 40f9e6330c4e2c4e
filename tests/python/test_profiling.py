"""numagraph.profile(): samples over a block, the phases of the calls inside
(one "iteration" per PageRank iteration, through the default listener),
the file it writes, the refusals (bad interval, reading before the end,
nested blocks)."""
import json

import numpy as np
import pytest

import numagraph as ng

if not hasattr(ng._core, "_profile_start"):
    pytest.skip("the installed extension predates numagraph.profile: rebuild it "
                "(pip install --no-build-isolation -e . -Cbuild-dir=build-py)", allow_module_level=True)


def test_pagerank_iterations_are_phases(tmp_path):
    g = ng.generate.kronecker(10)
    out = tmp_path / "p.json"
    with ng.profile(interval=0.001, path=out) as p:
        ng.pagerank(g, max_iterations=9, tolerance=0)
    names = [ph["name"] for ph in p.phases]
    assert names[0] == "run" and names.count("pagerank") == 1
    assert names.count("iteration") == 9
    assert len(p.t) >= 1 and np.all(np.diff(p.t) > 0)
    for m in p.metrics:
        assert p[m["name"]].shape == p.t.shape
    assert all(isinstance(v, str) and v for v in p.unavailable.values())
    assert len(p.phase_names()) == len(p.t)
    assert json.loads(out.read_text())["format"] == "numagraph-profile"
    # After the block, calls report to no one: a second block starts clean.
    ng.pagerank(g, max_iterations=3, tolerance=0)
    with ng.profile() as q:
        pass
    assert [ph["name"] for ph in q.phases] == ["run"]


def test_to_pandas_when_installed():
    pd = pytest.importorskip("pandas")
    with ng.profile(interval=0.002) as p:
        ng.bfs(ng.generate.kronecker(9), 0)
    df = p.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(p.t) and {"t", "phase"} <= set(df.columns)


@pytest.mark.parametrize("interval", [0, 0.0005, 2, 0.0015])
def test_bad_interval_is_refused(interval):
    with pytest.raises(ng.UsageError, match="interval"):
        ng.profile(interval=interval)


def test_reading_inside_the_block_and_nesting_are_refused():
    with ng.profile() as p:
        with pytest.raises(ng.UsageError, match="after the block"):
            p.t
        with pytest.raises(ng.UsageError, match="already open"):
            with ng.profile():
                pass

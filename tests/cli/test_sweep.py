"""The sweep layer's cache tiling through the CLI: tiled PageRank (Jacobi) and
SpMV runs report their tile shape and the time spent copying the tiles."""
import pytest

from harness import run_json


@pytest.mark.parametrize("kernel,flags", [("pr", ["--variant", "jacobi", "--tolerance", "0", "-i", "4"]),
                                          ("spmv", ["-i", "4"])])
def test_tiled_runs_report_their_shape_and_copy_time(cli, kernel, flags):
    """pr (Jacobi) and spmv say how they tiled (tile_row_bits, cache_segments)
    and how long each run spent building its tiles (cache_copy_s, part of the
    trial's time; bench/bandwidth_yardstick.py subtracts it for the steady
    state); an unblocked run reports 0 for both."""
    tiled = run_json(kernel, "-g", "12", *flags, "--engine", "flat", "--cache-block", "2K", "-n", "2", "--verify")[-1]
    assert tiled["verified"] is True
    assert tiled["cache_segments"] > 1 and tiled["tile_row_bits"] >= 10
    assert 0 < tiled["cache_copy_s"] < max(tiled["trials"])
    plain = run_json(kernel, "-g", "12", *flags, "--engine", "flat", "--cache-block", "off", "-n", "2", "--verify")[-1]
    assert plain["verified"] is True
    assert plain["cache_segments"] == 1 and plain["tile_row_bits"] == 0 and plain["cache_copy_s"] == 0

"""Python package tests: collected only when the numagraph package is importable
(`make python`, or pip install --no-build-isolation -e . -Cbuild-dir=build-py)."""
import importlib.util
import warnings

if importlib.util.find_spec("numagraph") is None:
    warnings.warn("numagraph is not installed: tests/python skipped (run `make python`)")
    collect_ignore_glob = ["test_*.py"]


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: compiles or installs (deselect with -m 'not slow')")

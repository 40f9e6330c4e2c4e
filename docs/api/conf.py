# Sphinx configuration of the numagraph API reference (make docs).
# The pages are generated from the docstrings of the *installed* numagraph
# package (autodoc imports it), so build the package first (make python).
# Docstring examples (>>> lines) run as doctests: make docs runs the doctest
# builder after the HTML one.
import numagraph

project = "numagraph"
copyright = "numagraph authors"
release = numagraph.__version__
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.doctest", "sphinx.ext.viewcode"]
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
# Keep signatures as written (no evaluated defaults such as DEFAULT_SEED's value
# inlined differently per build).
autodoc_preserve_defaults = True
# Every doctest starts with these names, as the examples in the docstrings assume.
doctest_global_setup = """
import numpy as np
import numagraph
import numagraph as ng
"""

html_theme = "alabaster"
html_static_path = []
exclude_patterns = ["_build"]


# Some docstrings use NumPy-style sections ("Parameters" over a dashed line);
# napoleon converts those, and only those: on a property it would also read a
# first line such as "Out-degree per vertex: ..." as "type: description".
def _numpy_sections(app, what, name, obj, options, lines):
    from sphinx.ext.napoleon import Config
    from sphinx.ext.napoleon.docstring import NumpyDocstring

    if any(a.strip() and set(b.strip()) == {"-"} and len(b.strip()) >= 3 for a, b in zip(lines, lines[1:])):
        lines[:] = NumpyDocstring(lines, Config(napoleon_use_rtype=False), app, what, name, obj, options).lines()


def setup(app):
    app.connect("autodoc-process-docstring", _numpy_sections)

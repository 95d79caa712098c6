"""Sphinx configuration of cuarray's documentation: the Markdown pages of docs/ (MyST) and an API reference
generated from the installed package. `import cuarray` needs no GPU, so the docs build on any machine:

    pip install --group docs && sphinx-build -W --keep-going -b html docs build/docs
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent / "_ext"))

import cuarray  # the package the reference documents: the installed one, or PYTHONPATH's)

project = "cuarray"
release = version = cuarray.__version__
copyright = "the cuarray authors"

extensions = ["myst_parser", "sphinx.ext.autodoc", "cuarray_api"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3  # README-style links to sections (page.md#a-heading)

# Signatures as the functions take them; the docstrings are plain reStructuredText.
autodoc_member_order = "bysource"
autodoc_typehints = "none"
autodoc_default_options = {"no-value": True}

html_theme = "alabaster"
html_title = f"cuarray {release}"

"""`cupy._indexing` for CuPy's own tests: a stand-in whose `generate` holds cuarray's index-expression
classes; any other name is a placeholder that fails the test using it (Note [Stand-ins] in
_cupy_suite_alias.py)."""

import sys

import _cupy_suite_alias

from cupy._indexing import generate  # noqa: F401  (before the class changes: a file here, not a placeholder)

sys.modules[__name__].__class__ = _cupy_suite_alias.Standin

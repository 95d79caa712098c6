"""`cupy._creation` for CuPy's own tests: a stand-in whose `from_data` holds cuarray's array-from-data
functions; any other name is a placeholder that fails the test using it (Note [Stand-ins] in
_cupy_suite_alias.py)."""

import sys

import _cupy_suite_alias

from cupy._creation import from_data  # noqa: F401  (before the class changes: a file here, not a placeholder)

sys.modules[__name__].__class__ = _cupy_suite_alias.Standin

"""`cupy._indexing.generate`: CuPy's module of the index-expression objects that cupy exports (r_, c_);
its AxisConcatenator, their base class, is cuarray's (test_generate.py builds one). Any other name is a
placeholder (Note [Stand-ins] in _cupy_suite_alias.py)."""

import sys

import _cupy_suite_alias
from cuarray._index_tricks import AxisConcatenator  # noqa: F401

sys.modules[__name__].__class__ = _cupy_suite_alias.Standin

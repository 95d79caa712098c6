"""`cupy._creation.from_data`: CuPy's module of the functions that make arrays from data, which cupy exports
as cupy.array, cupy.asarray, ...; here they are those very objects of cuarray's (test_stream.py calls
`from_data.array`). Any other name is a placeholder (Note [Stand-ins] in _cupy_suite_alias.py)."""

import sys

import _cupy_suite_alias
from cuarray import array, asanyarray, asarray, ascontiguousarray, copy  # noqa: F401

sys.modules[__name__].__class__ = _cupy_suite_alias.Standin

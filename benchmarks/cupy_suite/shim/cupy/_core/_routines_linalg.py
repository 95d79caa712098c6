"""`cupy._core._routines_linalg` for CuPy's tests: its compute-type constants and switches are cuarray's own
(cuarray.linalg's COMPUTE_TYPE_*, get_compute_type and set_compute_type: the same objects, which change how
cuarray's products compute); any other name is a placeholder (Note [Stand-ins] in _cupy_suite_alias.py)."""

import sys

import _cupy_suite_alias
from cuarray.linalg import _compute_types

globals().update({name: getattr(_compute_types, name) for name in _compute_types.__all__})

sys.modules[__name__].__class__ = _cupy_suite_alias.Standin

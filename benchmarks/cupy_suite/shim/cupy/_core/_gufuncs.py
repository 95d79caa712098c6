"""`cupy._core._gufuncs` for CuPy's tests: cuarray's counterpart of CuPy's `_GUFunc`, the class itself
(cuarray._gufuncs), not a copy (Note [Names, not copies] in _cupy_suite_alias.py)."""

from cuarray._gufuncs import _GUFunc, _parse_gufunc_signature  # noqa: F401

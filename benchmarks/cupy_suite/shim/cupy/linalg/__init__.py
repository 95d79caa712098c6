"""`cupy.linalg` for CuPy's own test suite: cuarray.linalg under CuPy's name (Note [Names, not copies] in
_cupy_suite_alias.py); a package here only so that `_util`, CuPy's test helper, can be a file of the shim."""

import _cupy_suite_alias

_cupy_suite_alias.forward(__import__("sys").modules[__name__], "cuarray.linalg")

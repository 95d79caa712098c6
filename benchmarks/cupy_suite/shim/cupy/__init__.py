"""`cupy` for CuPy's own test suite: cuarray under CuPy's name (Note [Names, not copies] in
_cupy_suite_alias.py)."""

import _cupy_suite_alias

_cupy_suite_alias.install()
_cupy_suite_alias.forward(__import__("sys").modules[__name__], "cuarray")

"""`cupy._core.flags` for CuPy's own tests: its Flags class is cuarray's ndarray.flags class (Note [Names, not
copies] in _cupy_suite_alias.py)."""

from cuarray._ndarray import Flags  # noqa: F401

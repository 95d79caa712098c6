"""`cupy_backends` for CuPy's own test suite: only cupy_backends.cuda.api (PREFIXES in _cupy_suite_alias.py)."""

import _cupy_suite_alias

_cupy_suite_alias.install()

"""`cupy_backends` for CuPy's own test suite: cupy_backends.cuda.api forwards to cuarray.cuda (PREFIXES in
_cupy_suite_alias.py); anything else of it is a stand-in."""

import _cupy_suite_alias

_cupy_suite_alias.install()

"""`cupy._core` for CuPy's own tests: a stand-in, not cuarray (cuarray's `_core` is its extension module).
Its accelerator switches are _accelerator's; `internal.prod` serves cupy.testing and `get_size` the random
tests' expectations; get_compute_type and set_compute_type are cuarray.linalg's (through _routines_linalg, as
in CuPy); any other name is a placeholder that fails the test using it (Note [Stand-ins] in
_cupy_suite_alias.py)."""

import sys

import _cupy_suite_alias

from cupy._core import internal  # noqa: F401  (before the class changes: a file here, not a placeholder)
from cupy._core._accelerator import (  # noqa: F401
    get_elementwise_accelerators,
    get_reduction_accelerators,
    get_routine_accelerators,
    set_elementwise_accelerators,
    set_reduction_accelerators,
    set_routine_accelerators,
)
from cupy._core._routines_linalg import get_compute_type, set_compute_type  # noqa: F401
from cupy._core.internal import get_size  # noqa: F401  (Note [Expectation helpers] in internal.py)

sys.modules[__name__].__class__ = _cupy_suite_alias.Standin

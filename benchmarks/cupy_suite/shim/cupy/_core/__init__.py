"""`cupy._core` for CuPy's own tests: a stand-in, not cuarray (cuarray's `_core` is its extension module).
Its accelerator switches are _accelerator's; `internal.prod` serves cupy.testing and `get_size` the random
tests' expectations; get_compute_type and set_compute_type are cuarray.linalg's (through _routines_linalg, as
in CuPy); CuPy's core classes that cuarray has (ndarray, the kernel classes, flags.Flags, fusion.Fusion) and
create_reduction_func are cuarray's own (Note [Names, not copies]); any other name is a placeholder that fails
the test using it (Note [Stand-ins] in _cupy_suite_alias.py)."""

import sys

import _cupy_suite_alias
import cuarray
from cuarray._reduction_kernel import create_reduction_func  # noqa: F401

from cupy._core import flags, fusion, internal  # noqa: F401  (before the class changes: files here, not placeholders)
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

ndarray = cuarray.ndarray
ElementwiseKernel = cuarray.ElementwiseKernel
ReductionKernel = cuarray.ReductionKernel

sys.modules[__name__].__class__ = _cupy_suite_alias.Standin

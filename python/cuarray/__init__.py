"""cuarray: NumPy-compatible arrays on NVIDIA GPUs.

``import cuarray as cp`` gives CuPy's names with NumPy's semantics. Importing needs no GPU, driver or CUDA
library: the first call that needs a device says so if there is none.
"""

import atexit as _atexit
import os as _os

from cuarray import _cuda_start  # first: CUDA starts while the rest is imported

_os.register_at_fork(before=_cuda_start.finish, after_in_child=_cuda_start.forked_child)
_atexit.register(_cuda_start.finish)

import numpy as _numpy  # noqa: E402

from cuarray import _core  # noqa: E402

_cuda_start.warm_nvrtc(_core.jit._warm_up)

from cuarray import _ndarray  # noqa: E402,F401  (attaches the Python-level ndarray methods)
from cuarray import cuda  # noqa: E402
from cuarray import profiler  # noqa: E402,F401
from cuarray._creation import *  # noqa: E402,F401,F403
from cuarray._joining import *  # noqa: E402,F401,F403
from cuarray._logic import *  # noqa: E402,F401,F403
from cuarray._manipulation import *  # noqa: E402,F401,F403
from cuarray._ndarray import ndarray  # noqa: E402
from cuarray._products import *  # noqa: E402,F401,F403
from cuarray._transfer import *  # noqa: E402,F401,F403
from cuarray._ufuncs import *  # noqa: E402,F401,F403
from cuarray._ufuncs import ufunc  # noqa: E402,F401
from cuarray._math import *  # noqa: E402,F401,F403
from cuarray._reduction import *  # noqa: E402,F401,F403
from cuarray._scan import *  # noqa: E402,F401,F403
from cuarray._indexing import *  # noqa: E402,F401,F403
from cuarray._sorting import *  # noqa: E402,F401,F403
from cuarray._histogram import *  # noqa: E402,F401,F403
from cuarray._interop import *  # noqa: E402,F401,F403
from cuarray._pad import *  # noqa: E402,F401,F403
from cuarray._statistics import *  # noqa: E402,F401,F403
from cuarray._array_api import *  # noqa: E402,F401,F403
from cuarray.cuda.memory import get_default_memory_pool, get_default_pinned_memory_pool  # noqa: E402,F401

__version__ = "0.1.0"
__array_api_version__ = "2024.12"

# NumPy's scalar types and dtype helpers, as CuPy re-exports them (bool is the array API's name for bool_).
bool = bool_ = _numpy.bool_
int8, int16, int32, int64 = _numpy.int8, _numpy.int16, _numpy.int32, _numpy.int64
uint8, uint16, uint32, uint64 = _numpy.uint8, _numpy.uint16, _numpy.uint32, _numpy.uint64
float16, float32, float64 = _numpy.float16, _numpy.float32, _numpy.float64
complex64, complex128 = _numpy.complex64, _numpy.complex128
byte, short, intc, intp, int_ = _numpy.byte, _numpy.short, _numpy.intc, _numpy.intp, _numpy.int_
ubyte, ushort, uintc, uintp = _numpy.ubyte, _numpy.ushort, _numpy.uintc, _numpy.uintp
half, single, double = _numpy.half, _numpy.single, _numpy.double
csingle, cdouble = _numpy.csingle, _numpy.cdouble
dtype = _numpy.dtype
newaxis = None
pi, e, inf, nan = _numpy.pi, _numpy.e, _numpy.inf, _numpy.nan
promote_types, issubdtype = _numpy.promote_types, _numpy.issubdtype


# Imported on first use, to keep `import cuarray` fast.
_LAZY = {"ElementwiseKernel": "cuarray._kernel", "RawKernel": "cuarray._kernel", "RawModule": "cuarray._kernel",
         "ReductionKernel": "cuarray._reduction_kernel",
         "fuse": "cuarray._fusion", "linalg": "cuarray.linalg", "einsum": "cuarray._einsum", "testing": "cuarray.testing",
         "bfloat16": "ml_dtypes", "random": "cuarray.random", "fft": "cuarray.fft", "convolve": "cuarray._convolution",
         "correlate": "cuarray._convolution", "show_config": "cuarray._config"}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cuarray' has no attribute '{name}'")
    import importlib

    try:
        imported = importlib.import_module(module)
    except ImportError as e:  # bfloat16 without ml_dtypes: hasattr() must say False, not raise
        raise AttributeError(f"cuarray.{name} needs the '{e.name}' package (pip install {e.name})") from e
    value = imported if module == f"{__name__}.{name}" else getattr(imported, name)
    globals()[name] = value
    return value


def get_array_module(*args):
    """cuarray if any argument is a cuarray.ndarray, else numpy."""
    import sys

    import builtins

    return sys.modules[__name__] if builtins.any(isinstance(a, ndarray) for a in args) else _numpy


def is_available():
    return cuda.is_available()

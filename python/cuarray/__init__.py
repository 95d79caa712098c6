"""cuarray: NumPy-compatible arrays on NVIDIA GPUs.

``import cuarray as cp`` gives CuPy's names with NumPy's semantics. Importing needs no GPU, driver or CUDA
library, and touches none: CUDA starts on the first call that needs a device, which says so if there is none
(Note [Starting CUDA on first use] in cpp/cuarray/cuda/device.h).
"""

import atexit as _atexit
import os as _os

import numpy as _numpy

from cuarray import _core  # after NumPy: loading it first made a later `import ml_dtypes` crash

_os.register_at_fork(before=_core.cuda._prepare_fork, after_in_child=_core.cuda._note_forked_child)
_atexit.register(_core.cuda._finish_threads)
# Registered last, so run first at exit: waits of other threads then stop (Note [Exit while waiting] in
# python/src/gil.h).
_atexit.register(_core.cuda._begin_exit)

from cuarray import _cuda_libs, _errors, _indexing, _interop, _products, _structured, cuda

# What the extension calls back into (Note [Hooks] in python/src/hooks.h), installed before anything can need it.
_core._set_hooks(
    {
        "getitem": _indexing._getitem,
        "setitem": _indexing._setitem,
        "MemoryPointer": (cuda.memory._ArrayPointer, cuda.memory.MemoryPointer),
        "OutOfMemoryError": _errors.OutOfMemoryError,
        "CompileException": _errors.CompileException,
        "CUDARuntimeError": _errors.CUDARuntimeError,
        "log_kernel": cuda.compiler._log_kernel,
        "locate_library": _cuda_libs.locate,
        "allocate": cuda.memory._allocate_for_core,
        "structured": _structured,
        "device_operand": _interop._device_operand,
        "matmul_axes": _products._matmul_axes,
        "cache_in_memory": cuda.compiler._cache_in_memory,
        "log_fusion": cuda.compiler._log_fusion,
    }
)

from cuarray import (
    _docstrings,  # noqa: F401  (help() and signatures of the extension's objects)
    _ndarray,  # noqa: F401  (installs ndarray's Python members)
    _ufunc_at,  # noqa: F401  (installs ufunc.at)
    _ufunc_keywords,  # noqa: F401  (installs ufunc calls' where= and signature=)
    _ufunc_methods,  # noqa: F401  (installs ufunc.reduce, accumulate, outer, reduceat)
    profiler,  # noqa: F401
)
from cuarray._array_api import *
from cuarray._block import *
from cuarray._core import ndarray
from cuarray._creation import *
from cuarray._histogram import *
from cuarray._indexing import *
from cuarray._interop import *
from cuarray._joining import *
from cuarray._logic import *
from cuarray._manipulation import *
from cuarray._math import *
from cuarray._pad import *
from cuarray._products import *
from cuarray._reduction import *
from cuarray._scan import *
from cuarray._sorting import *
from cuarray._statistics import *
from cuarray._structured import *
from cuarray._transfer import *
from cuarray._ufuncs import *
from cuarray._ufuncs import ufunc  # noqa: F401
from cuarray._vector_products import *
from cuarray.cuda.memory import get_default_memory_pool  # noqa: F401
from cuarray.cuda.pinned_memory import get_default_pinned_memory_pool  # noqa: F401

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
datetime64, timedelta64 = _numpy.datetime64, _numpy.timedelta64


# NumPy's abstract scalar types, its C-named aliases and constants, and its helpers that take dtypes or
# scalars: the same objects, as CuPy re-exports them.
generic, number, integer, signedinteger, unsignedinteger = (
    _numpy.generic,
    _numpy.number,
    _numpy.integer,
    _numpy.signedinteger,
    _numpy.unsignedinteger,
)
inexact, floating, complexfloating = _numpy.inexact, _numpy.floating, _numpy.complexfloating
long, ulong, longlong, ulonglong, uint = (
    _numpy.long,
    _numpy.ulong,
    _numpy.longlong,
    _numpy.ulonglong,
    _numpy.uint,
)
euler_gamma = _numpy.euler_gamma
exceptions, ndindex, index_exp, s_ = _numpy.exceptions, _numpy.ndindex, _numpy.index_exp, _numpy.s_
# CuPy's top-level names of NumPy's exceptions (cupy.exceptions' own).
AxisError, ComplexWarning = _numpy.exceptions.AxisError, _numpy.exceptions.ComplexWarning
TooHardError, VisibleDeprecationWarning = (
    _numpy.exceptions.TooHardError,
    _numpy.exceptions.VisibleDeprecationWarning,
)
mintypecode, typename = _numpy.mintypecode, _numpy.typename
format_float_positional, format_float_scientific = (
    _numpy.format_float_positional,
    _numpy.format_float_scientific,
)
set_printoptions, get_printoptions, printoptions = (
    _numpy.set_printoptions,
    _numpy.get_printoptions,
    _numpy.printoptions,
)

# Imported on first use, to keep `import cuarray` fast: module -> the names it gives.
_LAZY_MODULES = {
    "cuarray._kernel": "ElementwiseKernel RawKernel RawModule",
    "cuarray._reduction_kernel": "ReductionKernel",
    "cuarray._fusion": "fuse",
    "cuarray._auto_fusion": "auto_fuse",
    "cuarray._einsum": "einsum",
    "cuarray._convolution": "convolve correlate",
    "cuarray._config": "show_config get_runtime_info",
    "cuarray._index_tricks": "r_ c_ ix_ mgrid ogrid tril_indices triu_indices tril_indices_from triu_indices_from "
    "diag_indices diag_indices_from mask_indices fill_diagonal",
    "cuarray._setops": "isin intersect1d union1d setdiff1d setxor1d ediff1d trim_zeros",
    "cuarray._selection": "choose place putmask diagonal",
    "cuarray._functional": "piecewise apply_along_axis apply_over_axes vectorize",
    "cuarray._bits": "packbits unpackbits",
    "cuarray._flatiter": "flatiter",
    "cuarray._polynomial": "poly1d poly polyadd polysub polymul polydiv polyval polyfit polyder polyint roots vander",
    "cuarray._windows": "bartlett blackman hamming hanning kaiser",
    "cuarray._calculus": "gradient trapezoid",
    "cuarray._predicates": "isscalar iterable isfortran iscomplexobj isrealobj iscomplex isreal real_if_close "
    "may_share_memory shares_memory byte_bounds common_type asanyarray asarray_chkfinite require",
    "cuarray._printing": "array_repr array_str array2string",
    "cuarray._io": "save load savez savez_compressed savetxt loadtxt genfromtxt fromfile frombuffer fromstring "
    "fromiter base_repr binary_repr",
    "cuarray._pinned": "empty_pinned empty_like_pinned zeros_pinned zeros_like_pinned",
    "cuarray._cupyx": "who errstate seterr geterr allow_synchronize scatter_add scatter_max scatter_min rsqrt",
    "cuarray._gufuncs": "GeneralizedUFunc",
    "cuarray.cuda._memoize": "memoize clear_memo",
}
# Submodules, and names from other packages.
_LAZY = {
    "linalg": "cuarray.linalg",
    "testing": "cuarray.testing",
    "random": "cuarray.random",
    "fft": "cuarray.fft",
    "lib": "cuarray.lib",
    "polynomial": "cuarray.polynomial",
    "typing": "cuarray.typing",
    "bfloat16": "ml_dtypes",
}
_LAZY.update((name, module) for module, names in _LAZY_MODULES.items() for name in names.split())


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


def __dir__():
    # The lazy names too, for tab completion (bfloat16 only where ml_dtypes is installed).
    import importlib.util

    lazy = [n for n in _LAZY if n != "bfloat16" or importlib.util.find_spec("ml_dtypes") is not None]
    return sorted(set(globals()) | set(lazy))


def get_array_module(*args):
    """cuarray if any argument is a cuarray.ndarray, else numpy."""
    import builtins
    import sys

    return sys.modules[__name__] if builtins.any(isinstance(a, ndarray) for a in args) else _numpy


def is_available():
    """Whether a CUDA driver and at least one GPU are usable (CuPy's ``cupy.is_available``)."""
    return cuda.is_available()

"""The C++ names of dtypes in kernels: `_CTYPES`, what ElementwiseKernel code computes in, and `get_typename`,
what a RawKernel's or RawModule's own code spells them with (CuPy's `cupy._core._scalar.get_typename`). A leaf
module (NumPy only), so that `cuarray.cuda.compiler` and `cuarray._kernel` share one table."""

import numpy


class _CTypes(dict):
    """The arrays cuarray holds whose dtype has no entry are datetime64 and timedelta64 ones, and structured and
    void ones, which no kernel computes on (Note [Datetime storage] and Note [Void storage] in
    cpp/cuarray/dtype.h): a TypeError saying so."""

    def __missing__(self, name):
        if name.startswith("void"):
            raise TypeError(
                f"cuarray kernels do not take {name} (structured or void) operands: such arrays are stored, not "
                "computed on; pass their fields (a['name']) instead"
            )
        raise TypeError(
            f"cuarray kernels do not take {name} operands: datetime64 and timedelta64 arrays are "
            "stored, not computed on; .view(numpy.int64) gives their counts"
        )


# The C++ spelling of each dtype inside kernels (16-bit floats are computed in float).
_CTYPES = _CTypes(
    {
        "bool": "bool",
        "int8": "signed char",
        "int16": "short",
        "int32": "int",
        "int64": "long long",
        "uint8": "unsigned char",
        "uint16": "unsigned short",
        "uint32": "unsigned int",
        "uint64": "unsigned long long",
        "float16": "float",
        "bfloat16": "float",
        "float32": "float",
        "float64": "double",
        "complex64": "ca::complex<float>",
        "complex128": "ca::complex<double>",
    }
)


# Note [Complex variables in user kernels]
# CuPy's ElementwiseKernel and ReductionKernel bodies see complex parameters as Thrust's complex<T> (and may spell
# complex<float> themselves): `z = x * 2.0 + y`, `z += y`, `x.real()`, `conj(x)`, `complex<float>(0, 1)`. The kernels'
# own ca::complex has NumPy's arithmetic and nothing more, so a body's variables are complex<T> of <cupy/complex.cuh>
# (user_complex.cuh: Thrust's interface, computed by ca::complex's arithmetic, so a body's sums and products equal
# the ufuncs' to the bit), which such kernels include. The loop's values stay ca::complex: an input converts, an
# output is a ca_user::output that holds a complex<T> and stores it back when the body ends. A raw complex
# argument's elements are complex<T> references too (Note [Raw complex elements] in
# cpp/cuarray/kernels/user_complex.cuh). A reduction's accumulator (`a`, `b`) stays ca::complex.
_BODY_CTYPES = _CTypes({**_CTYPES, "complex64": "complex<float>", "complex128": "complex<double>"})

# The C++ name of each dtype in a user kernel's own code (RawKernel and RawModule sources, name expressions):
# CuPy's get_typename. They are _CTYPES' but for the types that the user-kernel headers name otherwise, where
# ElementwiseKernel's variables compute in float and in the kernels' complex: float16 of <cupy/float16.cuh>
# and thrust::complex<T> of <cupy/complex.cuh> (Note [User kernel headers] in cpp/cuarray/jit/kernel_cache.cpp).
# bfloat16 has no user-kernel header in cuarray, so it has no name here.
_TYPENAMES = {
    **{name: c for name, c in _CTYPES.items() if name != "bfloat16"},
    "float16": "float16",
    "complex64": "thrust::complex<float>",
    "complex128": "thrust::complex<double>",
}
# The header a name needs, as CuPy's get_typename adds it to type_decls.
_TYPENAME_HEADERS = {"float16": '#include "cupy/float16.cuh"'}


def get_typename(dtype, type_decls=None):
    """The C++ type name a user kernel spells `dtype` with (a dtype, a scalar type or anything numpy.dtype
    takes), as CuPy's ``cupy._core._scalar.get_typename``: ``'float'``, ``'long long'``, ``'float16'``,
    ``'thrust::complex<double>'``. Where `type_decls` is a set, the ``#include`` line the name needs (float16's
    ``<cupy/float16.cuh>``) is added to it. A dtype no kernel computes on (datetime64, timedelta64, structured
    and void, bfloat16, strings, objects) is a ValueError."""
    if dtype is None:
        raise TypeError("dtype is None")
    if isinstance(dtype, str) and dtype == "cudaTextureObject_t":  # CuPy's one CUDA type
        return dtype
    name = numpy.dtype(dtype).name
    c = _TYPENAMES.get(name)
    if c is None:
        raise ValueError(f"Unsupported dtype {dtype}: cuarray's user kernels have no C++ type for {name}")
    if type_decls is not None and name in _TYPENAME_HEADERS:
        type_decls.add(_TYPENAME_HEADERS[name])
    return c

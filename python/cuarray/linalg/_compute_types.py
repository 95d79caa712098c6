"""How cuBLAS computes matrix products, per precision: CuPy's compute types (cupy._core.get_compute_type and
set_compute_type, with CuPy's numbering). Note [Compute types] in cpp/cuarray/lib/cublas.h says what each
does; they apply to every product on cuBLAS (matmul, dot, tensordot, einsum, ...)."""

from cuarray import _core

__all__ = [
    "COMPUTE_TYPE_BF16",
    "COMPUTE_TYPE_DEFAULT",
    "COMPUTE_TYPE_FP16",
    "COMPUTE_TYPE_FP32",
    "COMPUTE_TYPE_FP64",
    "COMPUTE_TYPE_PEDANTIC",
    "COMPUTE_TYPE_TBD",
    "COMPUTE_TYPE_TF32",
    "get_compute_type",
    "set_compute_type",
]

COMPUTE_TYPE_TBD = 0  # unset: the default (TF32 for float32 where CUARRAY_TF32 or CUPY_TF32 is 1) at next use
COMPUTE_TYPE_DEFAULT = 1  # float32 arithmetic (float64 for double precision)
COMPUTE_TYPE_PEDANTIC = 2  # cuBLAS's _PEDANTIC compute types: no reduced-precision shortcuts
COMPUTE_TYPE_FP16 = 3  # accepted as CuPy does; computes as DEFAULT
COMPUTE_TYPE_FP32 = 4  # accepted as CuPy does; computes as DEFAULT
COMPUTE_TYPE_FP64 = 5  # accepted as CuPy does; computes as DEFAULT
COMPUTE_TYPE_BF16 = 6  # accepted as CuPy does; computes as DEFAULT
COMPUTE_TYPE_TF32 = 7  # float32 and complex64 products may use TensorFloat-32 tensor cores


def get_compute_type(dtype):
    """The compute type of products whose result has `dtype`'s precision (float16, bfloat16, float32 with
    complex64, float64 with complex128); TypeError for other dtypes. No device needed."""
    return _core.linalg.compute_type(dtype)


def set_compute_type(dtype, compute_type):
    """Sets how products whose result has `dtype`'s precision compute, from the next product on, process-wide;
    ValueError for an unknown compute type."""
    _core.linalg.set_compute_type(dtype, compute_type)

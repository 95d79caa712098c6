"""The argument checks and dtype rules of NumPy's linalg, on shapes and dtypes alone (no device needed)."""

import numpy

from cuarray._products import _array

LinAlgError = numpy.linalg.LinAlgError

_SUPPORTED = {numpy.dtype(t) for t in ("float32", "float64", "complex64", "complex128")}


def as_array(a, name):
    """A device array (NumPy arrays are refused; scalars and sequences are copied over)."""
    return _array(a, f"linalg.{name}")


def result_dtype(*dtypes):
    """NumPy's result type for linalg on these dtypes: float64 unless every inexact input is single precision,
    complex if any is; integers, bools and bfloat16 (which NumPy does not count as inexact) count as float64.
    cuarray computes in this type (NumPy computes in double precision and rounds float32 results at the end)."""
    double, is_complex = False, False
    for dt in map(numpy.dtype, dtypes):
        if dt.kind in "fc":
            if dt not in _SUPPORTED:
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
            is_complex |= dt.kind == "c"
            double |= dt.itemsize == (16 if dt.kind == "c" else 8)
        elif dt.kind in "biu" or dt.name == "bfloat16":
            double = True
        else:
            raise TypeError(f"array type {dt.name} is unsupported in linalg")
    return numpy.dtype(
        ("complex128" if double else "complex64") if is_complex else ("float64" if double else "float32")
    )


def real_dtype(dtype):
    return numpy.dtype(dtype).type(0).real.dtype


def check_stacked_2d(*shapes):
    for shape in shapes:
        if len(shape) < 2:
            raise LinAlgError(f"{len(shape)}-dimensional array given. Array must be at least two-dimensional")


def check_2d(*shapes):
    for shape in shapes:
        if len(shape) != 2:
            raise LinAlgError(f"{len(shape)}-dimensional array given. Array must be two-dimensional")


def check_stacked_square(*shapes):
    for shape in shapes:
        if shape[-1] != shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def check_solve_shapes(a_shape, b_shape):
    """NumPy's solve/solve1 gufunc checks for b against a (already a stack of square matrices)."""
    m = a_shape[-1]
    if len(b_shape) == 1:
        signature, core, name = "(m,m),(m)->(m)", b_shape[0], "solve1"
    else:
        signature, name = "(m,m),(m,n)->(m,n)", "solve"
        if len(b_shape) < 2:
            raise ValueError(
                f"{name}: Input operand 1 does not have enough dimensions (has {len(b_shape)}, gufunc "
                f"core with signature {signature} requires 2)"
            )
        core = b_shape[-2]
    if core != m:
        raise ValueError(
            f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
            f"{signature} (size {core} is different from {m})"
        )

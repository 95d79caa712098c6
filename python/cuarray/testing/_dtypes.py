"""Dtype parametrizers in CuPy's style: ``@for_all_dtypes()`` runs a test once per dtype, passed as its
``dtype`` argument (a NumPy scalar type such as ``numpy.float32``). They are pytest parametrizations, so each
dtype is a test of its own, with the dtype's name as its id (``test_add[float32]``)."""

import numpy

__all__ = [
    "for_all_dtypes",
    "for_complex_dtypes",
    "for_dtypes",
    "for_float_dtypes",
    "for_int_dtypes",
    "for_signed_dtypes",
    "for_unsigned_dtypes",
]

_SIGNED = (numpy.int8, numpy.int16, numpy.int32, numpy.int64)
_UNSIGNED = (numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64)
_FLOAT = (numpy.float16, numpy.float32, numpy.float64)
_COMPLEX = (numpy.complex64, numpy.complex128)


def for_dtypes(dtypes, name="dtype"):
    """Decorator: runs the test once for each of `dtypes`, passed as argument `name`."""
    import pytest

    dtypes = list(dtypes)
    if not dtypes:
        raise ValueError("for_dtypes needs at least one dtype")
    return pytest.mark.parametrize(name, dtypes, ids=[numpy.dtype(t).name for t in dtypes])


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False, no_complex=False):
    """Decorator: runs the test for bool, every sized integer, float and complex type (bfloat16 aside)."""
    floats = _FLOAT[1:] if no_float16 else _FLOAT
    return for_dtypes(
        (() if no_bool else (numpy.bool_,)) + floats + (() if no_complex else _COMPLEX) + _SIGNED + _UNSIGNED,
        name,
    )


def for_float_dtypes(name="dtype", no_float16=False):
    """Decorator: runs the test for float16 (unless `no_float16`), float32 and float64."""
    return for_dtypes(_FLOAT[1:] if no_float16 else _FLOAT, name)


def for_signed_dtypes(name="dtype"):
    """Decorator: runs the test for int8, int16, int32 and int64."""
    return for_dtypes(_SIGNED, name)


def for_unsigned_dtypes(name="dtype"):
    """Decorator: runs the test for uint8, uint16, uint32 and uint64."""
    return for_dtypes(_UNSIGNED, name)


def for_int_dtypes(name="dtype", no_bool=False):
    """Decorator: runs the test for every signed and unsigned integer type and, unless `no_bool`, bool."""
    return for_dtypes(_SIGNED + _UNSIGNED + (() if no_bool else (numpy.bool_,)), name)


def for_complex_dtypes(name="dtype"):
    """Decorator: runs the test for complex64 and complex128."""
    return for_dtypes(_COMPLEX, name)

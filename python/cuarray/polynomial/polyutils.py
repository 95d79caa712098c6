"""numpy.polynomial.polyutils' series helpers on device arrays (as cupy.polynomial.polyutils): as_series,
trimseq, trimcoef, with NumPy's errors."""

import operator

import numpy

from cuarray import _indexing, _predicates, _transfer
from cuarray import _ufuncs as _u

__all__ = ["as_series", "trimcoef", "trimseq"]


def trimseq(seq):
    """`seq` without its trailing zeros, keeping at least its first element; `seq` itself when it is empty or
    its last element is not zero."""
    if len(seq) == 0 or bool(seq[-1] != 0):
        return seq
    kept = _indexing.flatnonzero(_u.not_equal(seq, 0))
    return seq[: int(kept[-1].item()) + 1 if kept.size else 1]


def as_series(alist, trim=True):
    """Each item of `alist` as a new 1-D device array, all of their common inexact type (numpy.common_type's:
    integers become float64), trailing zeros trimmed if `trim`."""
    arrays = [_transfer.array(a, ndmin=1, copy=None) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    try:
        dtype = _predicates.common_type(*arrays)
    except Exception as e:  # bool has no common inexact type
        raise ValueError("Coefficient arrays have no common type") from e
    return [_transfer.array(a, copy=True, dtype=dtype) for a in arrays]


def trimcoef(c, tol=0):
    """The series `c` without its trailing coefficients of absolute value at most `tol`; a single zero if none
    is larger."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    [ind] = _u.greater(_u.absolute(c), tol).nonzero()
    if len(ind) == 0:
        return c[:1] * 0
    return c[: int(ind[-1].item()) + 1].copy()


def _as_int(x, desc):
    """operator.index(x), with NumPy's message naming `desc`."""
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {x}") from e


_INTEGER_CODES = numpy.typecodes["AllInteger"] + "?"

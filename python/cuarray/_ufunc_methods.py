"""ufunc.outer, reduce, accumulate and reduceat, as NumPy's (Note [ufunc methods]). Installed on cuarray's ufunc
type at import, as ufunc.at is.

Note [ufunc methods]
NumPy's sum is add.reduce, prod multiply.reduce, max maximum.reduce and so on: each reduce here is the
reduction cuarray already has for that ufunc (same accumulation types, same NaN rules), with reduce's
defaults (axis 0); bitwise_and, bitwise_or, bitwise_xor and logical_xor have reduction rows of their own
(exactly associative, so a tree of partial results gives NumPy's sequential answer). accumulate is cumsum or cumprod, or the running maximum or minimum (a scan
with those operations). outer is the ufunc itself on `a` with new axes for
`b`. reduceat reduces each segment with the same reduction, one call per index: it is for the occasional
call (and NumPy's functions dispatched here through __array_ufunc__), not a loop. Every other two-input ufunc
of NumPy's (subtract, divide, power, the comparisons, ...) and the accumulate of the ufuncs above without a scan
fold sequentially, one kernel per call (cuarray/_fold.py, Note [Folds] in cpp/cuarray/ops/fold.cpp)."""

import operator

import numpy

from cuarray import _core, _fold, _reduction, _reduction_options, _scan
from cuarray._core import ndarray
from cuarray._joining import concatenate
from cuarray._transfer import device_array

__all__ = []

_NO = numpy._NoValue

_FOLDS = ("bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor")  # reduction rows of their own
_REDUCE = {
    "add": _reduction.sum,
    "multiply": _reduction.prod,
    "maximum": _reduction.max,
    "minimum": _reduction.min,
    "fmax": _reduction.nanmax,  # NumPy's nanmax is fmax.reduce
    "fmin": _reduction.nanmin,
    "logical_and": _reduction.all,
    "logical_or": _reduction.any,
    **{name: _reduction._ufunc_fold(name) for name in _FOLDS},
}
_ACCUMULATE = {
    "add": _scan.cumsum,
    "multiply": _scan.cumprod,
    "maximum": _scan._running_maximum,
    "minimum": _scan._running_minimum,
}


def _takes_dtype(name):
    return name in ("add", "multiply")


def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO, where=True):
    """NumPy's ufunc.reduce (default axis 0), with its `initial` and `where` (Note [Reduction options]): the
    reduction of add, multiply, maximum, minimum, fmax, fmin, logical_and, logical_or, logical_xor, bitwise_and,
    bitwise_or and bitwise_xor, a sequential fold for NumPy's other two-input ufuncs (Note [Fold types and
    order])."""
    f = _REDUCE.get(self.__name__)
    if f is None:
        _fold.numpy_ufunc(self, "reduce")
    array = device_array(array, f"{self.__name__}.reduce")
    if f is None:
        return _fold.reduce(self, array, axis, dtype, out, keepdims, initial, where)
    takes_dtype = _takes_dtype(self.__name__)
    if dtype is not None and not takes_dtype:
        kind = numpy.dtype(dtype).kind
        if (self.__name__.startswith("bitwise") and kind not in "biu") or (
            self.__name__.startswith("logical") and kind != "b"
        ):
            raise TypeError(
                f"No loop matching the specified signature and casting was found for ufunc {self.__name__}"
            )
        array = array.astype(dtype, copy=False)
    if out is not None and isinstance(out, ndarray) and self.__name__ in _FOLDS:
        # NumPy resolves the loop with `out`'s type as the running value's: its TypeError where none exists
        # (bitwise_and of uint8 into float64); the fold in a's type, cast into `out`, has that loop's values.
        getattr(numpy, self.__name__).resolve_dtypes(
            (out.dtype, array.dtype, None), reduction=True, casting="unsafe"
        )
    if initial is not _NO or where is not True:
        name = f.__name__
        return _reduction_options.reduce(
            name, array, axis, dtype if takes_dtype else None, out, keepdims, initial, where
        )
    if takes_dtype:
        return f(array, axis, dtype, out, keepdims)
    return f(array, axis, out, keepdims)


def accumulate(self, array, axis=0, dtype=None, out=None):
    """NumPy's ufunc.accumulate (default axis 0): a scan for add, multiply, maximum and minimum, a sequential
    fold for NumPy's other two-input ufuncs."""
    f = _ACCUMULATE.get(self.__name__)
    if f is None:
        _fold.numpy_ufunc(self, "accumulate")
    array = device_array(array, f"{self.__name__}.accumulate")
    if array.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if axis is None or isinstance(axis, tuple):  # one axis only: None is axis 0 of a 1-D array
        axes = (0,) if axis is None and array.ndim == 1 else axis
        if axes is None or len(axes) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        (axis,) = axes
    if f is None:
        return _fold.accumulate(self, array, axis, dtype, out)
    return f(array, axis, dtype, out)


def outer(self, a, b, /, **kwargs):
    """NumPy's ufunc.outer: the ufunc of every element of `a` with every element of `b`, shape a.shape +
    b.shape."""
    if self.nin != 2:
        raise ValueError("method outer is only supported for binary functions")
    a = device_array(a, f"{self.__name__}.outer")
    b = device_array(b, f"{self.__name__}.outer")
    return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)


def reduceat(self, array, indices, axis=0, dtype=None, out=None):
    """NumPy's ufunc.reduceat: along `axis`, the reduction of array[indices[i]:indices[i + 1]] (to the end for
    the last), or array[indices[i]] alone where indices[i + 1] <= indices[i]."""
    folds = self.__name__ not in _REDUCE
    if folds:
        _fold.numpy_ufunc(self, "reduceat")
    name = f"{self.__name__}.reduceat"
    array = device_array(array, name)
    if array.ndim == 0:
        raise TypeError("cannot reduceat on a scalar")
    axis = numpy.lib.array_utils.normalize_axis_index(operator.index(axis), array.ndim)
    idx = _reduceat_indices(indices)
    n = array.shape[axis]
    for i in idx:
        if not 0 <= i < n:
            raise IndexError(f"index {i} out-of-bounds in {name} [0, {n})")
    if folds:
        return _fold.reduceat(self, array, idx, axis, dtype, out)
    head = (slice(None),) * axis
    parts = []
    for k, start in enumerate(idx):
        stop = idx[k + 1] if k + 1 < len(idx) else n
        segment = array[head + (slice(start, stop if stop > start else start + 1),)]
        parts.append(reduce(self, segment, axis, dtype, None, True))
    if parts:
        result = concatenate(parts, axis)
    else:  # no indices: an empty result of the reduction's type
        result = reduce(self, array[head + (slice(0, 1),)], axis, dtype, None, True)[head + (slice(0, 0),)]
    if out is None:
        return result
    out[...] = result
    return out


def _reduceat_indices(indices):
    """reduceat's indices as a list of ints, read as NumPy reads them: an array is cast to intp under the
    'safe' rule, a sequence converted to intp (floats truncated); one dimension."""
    if isinstance(indices, (ndarray, numpy.ndarray)):
        idx = indices.get() if isinstance(indices, ndarray) else indices
        if not numpy.can_cast(idx.dtype, numpy.intp, "safe"):
            raise TypeError(
                f"Cannot cast array data from {idx.dtype!r} to {numpy.dtype(numpy.intp)!r} according to the "
                "rule 'safe'"
            )
    else:
        idx = numpy.asarray(indices, dtype=numpy.intp)
    if idx.ndim != 1:
        raise ValueError(
            "object of too small depth for desired array"
            if idx.ndim == 0
            else "object too deep for desired array"
        )
    return idx.astype(numpy.intp).tolist()


def _identity(self):
    """NumPy's ufunc.identity: the value its reductions start from (None where there is none), as NumPy's
    ufunc of the same name has it; None for functions NumPy does not have."""
    return getattr(getattr(numpy, self.__name__, None), "identity", None)


_core.ufunc.identity = property(_identity)
_core.ufunc.signature = property(
    lambda self: None, doc="None: cuarray's ufuncs are elementwise, not gufuncs."
)
_core.ufunc.reduce = reduce
_core.ufunc.accumulate = accumulate
_core.ufunc.outer = outer
_core.ufunc.reduceat = reduceat

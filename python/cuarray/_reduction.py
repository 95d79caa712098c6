"""Reductions: sum, prod, max, min, mean, var, std, argmax, argmin, all, any, count_nonzero, their NaN-ignoring
forms, ptp and average, as functions and ndarray methods.

Each runs one generated kernel (cpp/cuarray/ops/reductions.def) over any set of axes; the loop types are
NumPy's, given by the type rule of the reduction's row. Full reductions return 0-d device arrays, as CuPy's do.
"""

import operator
import warnings

import numpy

from cuarray import _core
from cuarray import _reduction_options as _options
from cuarray import _ufuncs as _u
from cuarray._manipulation import broadcast_to as _broadcast_to
from cuarray._transfer import asarray as _asarray

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "average",
    "count_nonzero",
    "max",
    "mean",
    "min",
    "nanargmax",
    "nanargmin",
    "nanmax",
    "nanmean",
    "nanmin",
    "nanprod",
    "nanstd",
    "nansum",
    "nanvar",
    "prod",
    "ptp",
    "std",
    "sum",
    "var",
]

_INDEX = {name: i for i, name in enumerate(_core._reduction_names())}
_reduce = _core._reduce
_F64 = numpy.dtype("float64")
# (input loop types, output loop type, result dtype) of a reduction for input dtypes and dtype=: the core's
# type rule of its row (cpp/cuarray/ops/reductions.def), for code that generates reductions (fusion).
_resolve = _core._reduction_types


# Note [Reductions of host arrays]
# CuPy's sum, prod, amax, amin, mean, var, std, all and any are the array's own methods outside fusion
# (`cupy.sum(a, ...)` is `a.sum(...)`), so given a NumPy array they return NumPy's answer, and CuPy programs
# (and cupy.fuse called with NumPy arrays, which runs the function as written) rely on it. cuarray's
# reductions do the same for NumPy arrays and scalars: the core hands an `a` that is not a cuarray array to
# `_host_reduction` (cuarray/_reduction_options.py; only on that path, so a cuarray array pays nothing), which
# calls the NumPy method with the same arguments. Where CuPy's function is its own kernel (nansum, nanprod, nanmax, nanmin, the float
# nanmean/nanvar/nanstd, count_nonzero, argmax/argmin, whose NumPy methods take no dtype=), a NumPy array stays
# a TypeError, as in CuPy. nanmean of a bool or integer NumPy array is its mean, as CuPy's (nanvar and nanstd
# reach var and std by themselves).
_HOST = _options.HOST
_NO = numpy._NoValue
_host_reduction = _options.host_reduction
_core._set_reduction_host_hook(_host_reduction)


def _int_axis(a, axis):
    # argmax and friends take one axis, as NumPy's do: a tuple is a TypeError there too. (A 0-d array's axis 0
    # or -1 is the core's rule for every reduction: Note [Axes of 0-d arrays].)
    return None if axis is None else operator.index(axis)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO, where=_NO):
    """Sum of elements over `axis` (None: all), accumulating as NumPy does (ints in int64, float16 in float32);
    `initial` and `where` as NumPy's (Note [Reduction options])."""
    if initial is not _NO or where is not _NO:
        return _options.reduce("sum", a, axis, dtype, out, keepdims, initial, where)
    return _reduce(0, a, axis, dtype, out, keepdims, 0.0, None)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO, where=_NO):
    """Product of elements over `axis` (None: all), accumulating as NumPy does (ints in int64, float16 in
    float32); `initial` and `where` as NumPy's."""
    if initial is not _NO or where is not _NO:
        return _options.reduce("prod", a, axis, dtype, out, keepdims, initial, where)
    return _reduce(_INDEX["prod"], a, axis, dtype, out, keepdims, 0.0, None)


def max(a, axis=None, out=None, keepdims=False, initial=_NO, where=_NO):
    """Largest element over `axis`; NaN if any element is NaN. ValueError when reducing zero elements, unless
    `initial` gives the value of an empty slice (which `where` needs)."""
    if initial is not _NO or where is not _NO:
        return _options.reduce("max", a, axis, None, out, keepdims, initial, where)
    return _reduce(_INDEX["max"], a, axis, None, out, keepdims, 0.0, None)


def min(a, axis=None, out=None, keepdims=False, initial=_NO, where=_NO):
    """Smallest element over `axis`; NaN if any element is NaN. ValueError when reducing zero elements, unless
    `initial` gives the value of an empty slice (which `where` needs)."""
    if initial is not _NO or where is not _NO:
        return _options.reduce("min", a, axis, None, out, keepdims, initial, where)
    return _reduce(_INDEX["min"], a, axis, None, out, keepdims, 0.0, None)


amax, amin = max, min


def argmax(a, axis=None, out=None, *, keepdims=False, dtype=None):
    """Index of the first largest element (the first NaN, if any) along `axis`, or in the flattened array.
    `dtype` (CuPy's, keyword only here as NumPy's third argument is `out`): the integer type of the indices."""
    return _arg_reduce("argmax", a, axis, out, keepdims, dtype)


def argmin(a, axis=None, out=None, *, keepdims=False, dtype=None):
    """Index of the first smallest element (the first NaN, if any) along `axis`, or in the flattened array.
    `dtype` as argmax's."""
    return _arg_reduce("argmin", a, axis, out, keepdims, dtype)


def _check_index_out_shape(name, a, axis, out, keepdims):
    """NumPy's check of the shape of argmax's (argmin's) out, which comes before its dtype check; nanargmax
    reports it as argmax does."""
    if (
        isinstance(out, _core.ndarray)
        and isinstance(a, _core.ndarray)
        and out.shape != _options._reduced_shape(a, _int_axis(a, axis), keepdims)
    ):
        raise ValueError(f"output array does not match result of np.{name.removeprefix('nan')}.")


def _arg_reduce(name, a, axis, out, keepdims, dtype):
    _check_index_out_shape(name, a, axis, out, keepdims)
    if (
        dtype is None
        and isinstance(out, _core.ndarray)
        and isinstance(a, _core.ndarray)
        and not numpy.can_cast(out.dtype, numpy.intp, "safe")
    ):
        # NumPy's check of the indices' out (a float or uint64 out would hold them otherwise)
        what = "array data" if out.ndim else "scalar"
        raise TypeError(
            f"Cannot cast {what} from {out.dtype!r} to {numpy.dtype(numpy.intp)!r} according to the rule 'safe'"
        )
    if dtype is None:
        return _reduce(_INDEX[name], a, _int_axis(a, axis), None, out, keepdims, 0.0, None)
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "iu":
        raise TypeError(f"{name}: dtype must be an integer type, not {dtype}")
    if out is not None and out.dtype != dtype:
        raise TypeError(f"{name}: out is {out.dtype} but dtype= asks for {dtype}")
    result = _reduce(_INDEX[name], a, _int_axis(a, axis), None, None, keepdims, 0.0, None).astype(dtype)
    if out is None:
        return result
    out[...] = result
    return out


def all(a, axis=None, out=None, keepdims=False, *, where=_NO):
    """Whether every element over `axis` (that `where` keeps) is true (nonzero; NaN counts as true), as bool."""
    if where is not _NO and where is not True:
        return _options.reduce("all", a, axis, None, out, keepdims, _NO, where)
    return _reduce(_INDEX["all"], a, axis, None, out, keepdims, 0.0, None)


def any(a, axis=None, out=None, keepdims=False, *, where=_NO):
    """Whether any element over `axis` (that `where` keeps) is true (nonzero; NaN counts as true), as bool."""
    if where is not _NO and where is not True:
        return _options.reduce("any", a, axis, None, out, keepdims, _NO, where)
    return _reduce(_INDEX["any"], a, axis, None, out, keepdims, 0.0, None)


def _ufunc_fold(name):
    """The reduce of ufunc `name` whose reduction row has its name (bitwise_and, bitwise_or, bitwise_xor,
    logical_xor): the reduction of ufunc.reduce without dtype= (cuarray._ufunc_methods casts first)."""

    def fold(a, axis=None, out=None, keepdims=False):
        if name.startswith("bitwise") and a.dtype.kind not in "biu":
            raise TypeError(
                f"ufunc '{name}' not supported for the input types, and the inputs could not be safely coerced "
                "to any supported types according to the casting rule ''safe''"
            )
        return _reduce(_INDEX[name], a, axis, None, out, keepdims, 0.0, None)

    fold.__name__ = fold.__qualname__ = name
    return fold


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of nonzero elements over `axis` (None: all), as int64 (a 0-d device array for all)."""
    return _reduce(_INDEX["count_nonzero"], a, axis, None, None, keepdims, 0.0, None)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=_NO):
    """Arithmetic mean over `axis` (of the elements `where` keeps): ints in float64, float16 through float32,
    as NumPy."""
    if (where is not _NO and where is not True) or _options.integer_moment(dtype):
        return _options.reduce("mean", a, axis, dtype, out, keepdims, _NO, where)
    if (
        a.size == 0 and _options.reduced_count(a, axis) == 0 and not isinstance(a, _HOST)
    ):  # NumPy's mean warns itself
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    return _reduce(_INDEX["mean"], a, axis, dtype, out, keepdims, 0.0, None)


def _dof_warning(a, axis, ddof, stacklevel=3):
    if (ddof > 0 or a.size == 0) and _options.reduced_count(a, axis) - ddof <= 0 and not isinstance(a, _HOST):
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=stacklevel)


def _ddof(ddof, correction):
    """The delta degrees of freedom: `ddof`, or the array API's name for it, `correction` (not both)."""
    if correction is _NO:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=_NO, mean=_NO, correction=_NO):
    """Variance (mean squared deviation, divided by n - ddof) over `axis`, in one pass over the data; NumPy's
    `where` and `mean` (the mean over `axis` with kept axes, computed already) as Note [Reduction options]."""
    ddof = _ddof(ddof, correction)
    if (where is not _NO and where is not True) or mean is not _NO or _options.integer_moment(dtype):
        return _options.reduce("var", a, axis, dtype, out, keepdims, _NO, where, float(ddof), mean)
    _dof_warning(a, axis, ddof)
    return _reduce(_INDEX["var"], a, axis, dtype, out, keepdims, float(ddof), None)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=_NO, mean=_NO, correction=_NO):
    """Standard deviation (the square root of `var`, divided by n - ddof) over `axis`; `correction` is the
    array API's name for `ddof`."""
    ddof = _ddof(ddof, correction)
    if isinstance(a, _core.ndarray) and isinstance(out, _core.ndarray) and out.dtype.kind in "biu":
        # NumPy takes the square root in place, sqrt(out, out=out): its casting error for a bool or integer out
        numpy.sqrt(numpy.zeros(1, out.dtype), out=numpy.zeros(1, out.dtype))
    if (where is not _NO and where is not True) or mean is not _NO or _options.integer_moment(dtype):
        return _options.reduce("std", a, axis, dtype, out, keepdims, _NO, where, float(ddof), mean)
    _dof_warning(a, axis, ddof)
    return _reduce(_INDEX["std"], a, axis, dtype, out, keepdims, float(ddof), None)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO, where=_NO):
    """Sum over `axis` treating NaNs as zero; zero for an all-NaN slice; `initial` and `where` as NumPy's."""
    if initial is not _NO or where is not _NO:
        return _options.reduce("nansum", a, axis, dtype, out, keepdims, initial, where)
    return _reduce(_INDEX["nansum"], a, axis, dtype, out, keepdims, 0.0, None)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO, where=_NO):
    """Product over `axis` treating NaNs as one; one for an all-NaN slice; `initial` and `where` as NumPy's."""
    if initial is not _NO or where is not _NO:
        return _options.reduce("nanprod", a, axis, dtype, out, keepdims, initial, where)
    return _reduce(_INDEX["nanprod"], a, axis, dtype, out, keepdims, 0.0, None)


def nanmax(a, axis=None, out=None, keepdims=False, initial=_NO, where=_NO):
    """Largest element ignoring NaNs; NaN where a slice is all NaN (`initial` there, if given; `where` needs it)."""
    if initial is not _NO or where is not _NO:
        return _options.reduce("nanmax", a, axis, None, out, keepdims, initial, where)
    return _reduce(_INDEX["nanmax"], a, axis, None, out, keepdims, 0.0, None)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_NO, where=_NO):
    """Smallest element ignoring NaNs; NaN where a slice is all NaN (`initial` there, if given; `where` needs it)."""
    if initial is not _NO or where is not _NO:
        return _options.reduce("nanmin", a, axis, None, out, keepdims, initial, where)
    return _reduce(_INDEX["nanmin"], a, axis, None, out, keepdims, 0.0, None)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=_NO):
    """Mean over `axis` of the elements that are not NaN (and that `where` keeps); NaN (with NumPy's warning)
    where a slice has none."""
    _check_inexact(a, dtype, out)
    if (where is not _NO and where is not True) or _options.integer_moment(dtype):
        return _options.reduce("nanmean", a, axis, dtype, out, keepdims, _NO, where)
    return _reduce(_INDEX["nanmean"], a, axis, dtype, out, keepdims, 0.0, None)


def _check_inexact(a, dtype, out):
    """NumPy's nanmean, nanvar and nanstd of float or complex data take only a float or complex dtype= and
    out=."""
    if isinstance(a, _core.ndarray) and a.dtype.kind in "fc":
        if dtype is not None and numpy.dtype(dtype).kind not in "fc":
            raise TypeError("If a is inexact, then dtype must be inexact")
        if isinstance(out, _core.ndarray) and out.dtype.kind not in "fc":
            raise TypeError("If a is inexact, then out must be inexact")


def _nan_free(a):
    """Whether `a` cannot hold NaN (bool and integer dtypes): NumPy's nanvar and nanstd are var and std there."""
    dt = getattr(a, "dtype", None)
    return dt is not None and dt.kind in "biu"


def nanvar(
    a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=_NO, mean=_NO, correction=_NO
):
    """Variance over `axis` of the elements that are not NaN, divided by n - ddof (n counting them)."""
    if _nan_free(a):
        return var(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
    ddof = float(_ddof(ddof, correction))
    _check_inexact(a, dtype, out)
    if (where is not _NO and where is not True) or mean is not _NO or _options.integer_moment(dtype):
        return _options.reduce("nanvar", a, axis, dtype, out, keepdims, _NO, where, ddof, mean)
    return _reduce(_INDEX["nanvar"], a, axis, dtype, out, keepdims, ddof, None)


def nanstd(
    a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=_NO, mean=_NO, correction=_NO
):
    """Standard deviation over `axis` of the elements that are not NaN, divided by n - ddof (n counting
    them)."""
    if _nan_free(a):
        return std(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
    ddof = float(_ddof(ddof, correction))
    _check_inexact(a, dtype, out)
    if (where is not _NO and where is not True) or mean is not _NO or _options.integer_moment(dtype):
        return _options.reduce("nanstd", a, axis, dtype, out, keepdims, _NO, where, ddof, mean)
    return _reduce(_INDEX["nanstd"], a, axis, dtype, out, keepdims, ddof, None)


def _nanarg(name, a, axis, out, keepdims):
    """NumPy's nanargmax and nanargmin: NaN stands in as -inf (+inf) in argmax (argmin), so a NaN before an
    equal infinity is the answer, after a check of the NaN mask over `axis` that raises for an all-NaN slice
    (float and complex inputs that are not empty; a repeated or out-of-range axis tuple raises that
    reduction's ValueError or AxisError there, before argmax rejects the tuple with TypeError)."""
    if (
        isinstance(a, _core.ndarray) and a.size and a.dtype.kind in "fc"
    ):  # host arrays: the reduction's TypeError
        if isinstance(axis, tuple):
            numpy.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
        mask = _u.isnan(a)
        if bool(any(all(mask, axis=axis) if axis != () else mask)):
            raise ValueError("All-NaN slice encountered")
    _check_index_out_shape(name, a, axis, out, keepdims)
    return _reduce(_INDEX[name], a, _int_axis(a, axis), None, out, keepdims, 0.0, None)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the largest element ignoring NaNs; ValueError if a slice is all NaN (one check on the
    device)."""
    return _nanarg("nanargmax", a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the smallest element ignoring NaNs; ValueError if a slice is all NaN (one check on the
    device)."""
    return _nanarg("nanargmin", a, axis, out, keepdims)


def ptp(a, axis=None, out=None, keepdims=False):
    """Range (max - min) over `axis`; NumPy's for a NumPy array, as CuPy's `a.ptp(...)` under NumPy 1 (Note
    [Reductions of host arrays]; NumPy 2's arrays have no ptp method)."""
    if isinstance(a, _HOST):
        return numpy.ptp(a, axis, out, keepdims)
    return _u.subtract(max(a, axis, None, keepdims), min(a, axis, None, keepdims), out=out)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Mean, or weighted mean sum(a * w) / sum(w) over `axis`; returned=True also gives the sum of weights.
    Host arrays move to the device first, as in CuPy's."""
    a = _asarray(a)
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        if not avg.size:  # NumPy's a.size / avg.size: an empty result is 0 / 0
            raise ZeroDivisionError("division by zero")
        scale = _core._full(avg.shape, a.size // avg.size, avg.dtype, "C")
    else:
        w = _asarray(weights)
        w = _weights_along(a, axis, w)
        t = numpy.result_type(a.dtype, w.dtype, *((_F64,) if a.dtype.kind in "biu" else ()))
        # As NumPy's: the weights summed as they are (length 1 along the other axes), so that the average is
        # laid out as the sum of a * w.
        scale = sum(w.astype(t, copy=False), axis, keepdims=keepdims)
        if bool(any(_u.equal(scale, 0))):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _u.divide(sum(_u.multiply(a, w, dtype=t), axis, keepdims=keepdims), scale)
        if returned and scale.shape != avg.shape:
            scale = _broadcast_to(scale, avg.shape).copy()
    return (avg, scale) if returned else avg


def _weights_along(a, axis, w):
    """Weights of another shape than `a` reshaped to broadcast against it along `axis` (NumPy's
    _weights_are_valid: their axes are those of `axis`, in its order)."""
    if w.shape == a.shape:
        return w
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    axes = numpy.lib.array_utils.normalize_axis_tuple(axis, a.ndim, argname="axis")
    if w.shape != tuple(a.shape[d] for d in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
    w = w.transpose(numpy.argsort(axes).tolist())
    return w.reshape([n if d in axes else 1 for d, n in enumerate(a.shape)])


def _dot_1d(a, b, out=None):
    """Inner product of two 1-D arrays of equal length, as one reduction kernel."""
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"shapes {a.shape} and {b.shape} not aligned: {a.shape[0]} (dim 0) != {b.shape[0]} (dim 0)"
        )
    return _reduce(_INDEX["dot"], a, None, None, out, False, 0.0, b)

"""Order statistics and correlations with NumPy's definitions: median, nanmedian, quantile, percentile,
nanquantile, nanpercentile (all 13 of NumPy's methods), cov, corrcoef.

Order statistics sort the reduced axes on the device (a copy: the input is reordered only where
overwrite_input asks, Note [overwrite_input]) and gather the elements they need. Which positions those are depends on q and the axis length only, so it is worked out
on the host with NumPy's own formulas; the interpolation between neighbours runs on the device.
"""

import math
import warnings

import numpy

from cuarray import _core, _manipulation, _reduction
from cuarray import _ufuncs as _u
from cuarray._core import ndarray
from cuarray._creation import _laid_out_like
from cuarray._indexing import take, take_along_axis
from cuarray._joining import concatenate
from cuarray._manipulation import moveaxis
from cuarray._scan import cumsum
from cuarray._transfer import asarray, ascontiguousarray
from cuarray._transfer import device_array as _device
from cuarray._ufunc_keywords import _refuse_output_cast

__all__ = ["corrcoef", "cov", "median", "nanmedian", "nanpercentile", "nanquantile", "percentile", "quantile"]


def _order(a, axis):
    """The axes of `a` that a reduction over `axis` keeps, then those it reduces (normalized)."""
    if axis is None:
        axes = tuple(range(a.ndim))
    else:
        axes = numpy.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    return [d for d in range(a.ndim) if d not in axes], list(axes)


def _with_last_axis(a, axis):
    """(`a` with the reduced axes merged into one last axis, a function giving a result over that axis the
    shape NumPy gives it (keepdims or not), its leading extra axes first)."""
    kept, axes = _order(a, axis)
    merged_shape = tuple(a.shape[d] for d in kept) + (math.prod(a.shape[d] for d in axes),)
    merged = a.transpose(kept + axes).reshape(merged_shape)

    def shaped(r, keepdims, lead=0):
        if not keepdims:
            return r
        shape = [1 if d in axes else n for d, n in enumerate(a.shape)]
        return r.reshape(r.shape[:lead] + tuple(shape))

    return merged, shaped


# Note [overwrite_input]
# NumPy's median, quantile and percentile with overwrite_input=True partition the input in place, and
# CuPy's sort it in place: the input's contents are unspecified afterwards, and programs (and CuPy's tests)
# see it reordered. cuarray sorts a copy either way, and with overwrite_input=True writes the sorted values
# back into the input (a broadcast input aside), which then ends as CuPy leaves it: sorted along the
# reduced axes, in the order of their merging.
def _sorted(a, axis, x, overwrite_input):
    """x (a's `axis` merged into its last one) sorted along that axis (Note [overwrite_input])."""
    s = _core._sort(x, x.ndim - 1)
    # Not into a broadcast input, whose elements repeat (a zero stride on a longer axis).
    repeats = any(st == 0 and n > 1 for n, st in zip(a.shape, a.strides))
    if overwrite_input and s.size and not repeats:
        kept, axes = _order(a, axis)
        view = a.transpose(kept + axes)  # x's order, before the reduced axes were merged (maybe by a copy)
        view[...] = s.reshape(view.shape)
    return s


def _into(result, out):
    if out is None:
        return result
    out[...] = result
    return out


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median along `axis` (None: of all elements; a tuple: of those axes together): the middle element of
    the sorted values, or the mean of the two middle ones. NaN where a slice holds NaN."""
    a = _device(a, "median")
    x, shaped = _with_last_axis(a, axis)
    n = x.shape[-1]
    if n == 0:
        return _into(shaped(_reduction.mean(x, -1), keepdims), out)
    s = _sorted(a, axis, x, overwrite_input)
    middle = s[..., (n - 1) // 2 : n // 2 + 1]
    result = _reduction.mean(middle, -1)
    if s.dtype.kind in "fc":  # NaNs sort last
        last = s[..., -1]
        result = _u._where(_u.isnan(last), last, result)
    # NumPy's is the mean over its partition of a copy of `a` (order 'K'): laid out as a's other axes.
    return _into(shaped(_laid_out_like(result, x[..., 0]), keepdims), out)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median ignoring NaNs; NaN (with NumPy's RuntimeWarning) where a slice is all NaN."""
    a = _device(a, "nanmedian")
    if a.dtype.kind not in "fc":
        return median(a, axis, out, overwrite_input, keepdims)
    x, shaped = _with_last_axis(a, axis)
    if x.shape[-1] == 0:
        return _into(shaped(_reduction.mean(x, -1), keepdims), out)
    s = _core._sort(x, x.ndim - 1)
    count = _reduction.sum(_u.logical_not(_u.isnan(s)), -1, numpy.int64, keepdims=True)
    if bool(_reduction.any(_u.equal(count, 0))):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=2)
    # The middle positions among each slice's numbers (NaNs are sorted after them); 0 for all-NaN slices.
    lo = _u.maximum(_u.floor_divide(_u.subtract(count, 1), 2), 0)
    hi = _u.floor_divide(count, 2)
    lo_value, hi_value = take_along_axis(s, lo, -1), take_along_axis(s, hi, -1)
    mean = _reduction.mean(concatenate([lo_value, hi_value], -1), -1)
    result = _u._where(_u.equal(lo, hi)[..., 0], lo_value[..., 0].astype(mean.dtype), mean)
    return _into(shaped(result, keepdims), out)


def _floor_or_next(index, take_floor):
    """NumPy's discrete methods: floor(index) where take_floor(gamma, index) holds, else the next one,
    clipped at 0."""
    floor = numpy.floor(index)
    chosen = numpy.where(take_floor(index - floor, index), floor, floor + 1).astype(numpy.intp)
    return numpy.maximum(chosen, 0)


def _hyndman_fan(alpha, beta):
    return lambda n, q: n * q + (alpha + q * (1 - alpha - beta)) - 1


# NumPy's quantile methods: (virtual index of q in n sorted values, gamma correction or None for methods that
# pick an element).
_METHODS = {
    "inverted_cdf": (lambda n, q: _floor_or_next(n * q - 1, lambda g, i: g == 0), None),
    "averaged_inverted_cdf": (lambda n, q: n * q - 1, lambda g, i: numpy.where(g == 0, 0.5, 1.0)),
    "closest_observation": (
        lambda n, q: _floor_or_next(n * q - 1.5, lambda g, i: (g == 0) & (numpy.floor(i) % 2 == 1)),
        None,
    ),
    "interpolated_inverted_cdf": (_hyndman_fan(0, 1), lambda g, i: g),
    "hazen": (_hyndman_fan(0.5, 0.5), lambda g, i: g),
    "weibull": (_hyndman_fan(0, 0), lambda g, i: g),
    "linear": (lambda n, q: (n - 1) * q, lambda g, i: g),
    "median_unbiased": (_hyndman_fan(1 / 3.0, 1 / 3.0), lambda g, i: g),
    "normal_unbiased": (_hyndman_fan(3 / 8.0, 3 / 8.0), lambda g, i: g),
    "lower": (lambda n, q: numpy.floor((n - 1) * q).astype(numpy.intp), None),
    "higher": (lambda n, q: numpy.ceil((n - 1) * q).astype(numpy.intp), None),
    "midpoint": (
        lambda n, q: 0.5 * (numpy.floor((n - 1) * q) + numpy.ceil((n - 1) * q)),
        lambda g, i: numpy.where(i % 1 == 0, 0.0, 0.5),
    ),
    "nearest": (lambda n, q: numpy.around((n - 1) * q).astype(numpy.intp), None),
}


def _host_q(q):
    return numpy.asanyarray(q.get() if isinstance(q, ndarray) else q)


def _checked(a, q, name, percent):
    """(a on the device, q as fractions on the host, whether q was a Python number), checked as NumPy checks
    them."""
    a = _device(a, name)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    weak_q = type(q) in (int, float)
    q = numpy.true_divide(_host_q(q), 100) if percent else _host_q(q)
    if not bool(numpy.all((q >= 0) & (q <= 1))):
        raise ValueError(
            "Percentiles must be in the range [0, 100]"
            if percent
            else "Quantiles must be in the range [0, 1]"
        )
    return a, q, weak_q


def quantile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None
):
    """The q-th quantiles (q in [0, 1], a scalar or 1-D) along `axis`, by NumPy's `method`; the result has q's
    axes first. NaN where a slice holds NaN."""
    a, q, weak_q = _checked(a, q, "quantile", False)
    return _quantile(a, q, axis, out, method, keepdims, weights, weak_q, overwrite_input)


def percentile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None
):
    """The q-th percentiles (q in [0, 100]): quantile(a, q / 100)."""
    a, q, weak_q = _checked(a, q, "percentile", True)
    return _quantile(a, q, axis, out, method, keepdims, weights, weak_q, overwrite_input)


def nanquantile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None
):
    """quantile ignoring NaNs; NaN (with NumPy's RuntimeWarning) where a slice is all NaN."""
    a, q, weak_q = _checked(a, q, "nanquantile", False)
    return _nanquantile(a, q, axis, out, method, keepdims, weights, weak_q)


def nanpercentile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None
):
    """percentile ignoring NaNs: nanquantile(a, q / 100)."""
    a, q, weak_q = _checked(a, q, "nanpercentile", True)
    return _nanquantile(a, q, axis, out, method, keepdims, weights, weak_q)


def _nanquantile(a, q, axis, out, method, keepdims, weights, weak_q):
    """Each slice's quantiles among its numbers. Where a quantile falls depends on how many numbers a slice
    holds, so the slices are grouped by that count (read back to the host) and each group takes the quantiles
    of its sorted numbers, which come first (NaNs sort last). As NumPy's: an empty `a` gives nanmean's result
    whatever q is, and the result's dtype is a's where the first slice is all NaN (NumPy's apply_along_axis
    takes the first slice's), else quantile's."""
    if a.size == 0:
        return _reduction.nanmean(a, axis, out=out, keepdims=keepdims)
    if a.dtype.kind != "f":  # no NaNs to ignore; NumPy assigns into out here, of any type
        return _quantile(a, q, axis, out, method, keepdims, weights, weak_q, out_kind_checked=False)
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        return _weighted_quantile(a, q, axis, out, keepdims, weights, skip_nan=True)
    x, shaped = _with_last_axis(a, axis)
    n = x.shape[-1]
    rows = math.prod(x.shape[:-1])
    # The result's dtype is what quantile gives for this dtype and q.
    from cuarray._creation import full, zeros

    probe = _quantile(zeros((1,), a.dtype), q, None, None, method, False, None, weak_q)
    s = _core._sort(x, x.ndim - 1).reshape(rows, n)  # a is not empty: n and rows are positive
    counts = _reduction.sum(_u.logical_not(_u.isnan(s)), -1, numpy.int64).get()
    # Laid out as NumPy's: the q axes vary fastest in memory and come first in the shape.
    buf = full(x.shape[:-1] + q.shape, numpy.nan, a.dtype if counts[0] == 0 else probe.dtype)
    lead = len(x.shape) - 1
    result = buf.reshape((rows,) + q.shape).transpose(tuple(range(1, q.ndim + 1)) + (0,))
    for count in numpy.unique(counts):
        if count == 0:
            continue
        picked = numpy.nonzero(counts == count)[0]
        group = take(s, asarray(picked), axis=0)[:, :count]
        result[..., asarray(picked)] = _quantile(group, q, -1, None, method, False, None, weak_q)
    if bool(numpy.any(counts == 0)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    moved = buf.transpose(tuple(range(lead, lead + q.ndim)) + tuple(range(lead)))
    return _into(shaped(moved, keepdims, q.ndim), out)


def _quantile(
    a, q, axis, out, method, keepdims, weights, weak_q, overwrite_input=False, out_kind_checked=True
):
    if q.ndim > 2:
        raise ValueError("q must be a scalar or 1d")
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        return _weighted_quantile(a, q, axis, out, keepdims, weights)
    try:
        virtual_index, fix_gamma = _METHODS[method]
    except (KeyError, TypeError):
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_METHODS.keys()}") from None
    x, shaped = _with_last_axis(a, axis)
    n = x.shape[-1]
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    s = _sorted(a, axis, x, overwrite_input)
    index = numpy.asanyarray(virtual_index(n, q))
    if fix_gamma is None or (method == "linear" and index.dtype.kind in "iu"):
        result = take(s, index, axis=-1)  # an element of each slice, in a's dtype
    else:
        # Beyond either end both neighbours are the end element (-1: the last); gamma is measured from the
        # lower neighbour so chosen, as NumPy measures it.
        floor = numpy.floor(index)
        lower = numpy.where(index >= n - 1, -1, numpy.where(index < 0, 0, floor))
        upper = numpy.where(index >= n - 1, -1, numpy.where(index < 0, 0, floor + 1))
        gamma = numpy.asanyarray(fix_gamma(index - lower, index), dtype=index.dtype)
        gamma = float(gamma) if weak_q else asarray(gamma)
        result = _lerp(
            take(s, lower.astype(numpy.intp), axis=-1), take(s, upper.astype(numpy.intp), axis=-1), gamma
        )
        # NumPy's quantile interpolates into `out` with add(..., out=out): a cast across kinds is its
        # UFuncTypeError (its nanquantile assigns the result instead).
        if out_kind_checked and out is not None and not numpy.can_cast(result.dtype, out.dtype, "same_kind"):
            _refuse_output_cast(_u.add, "same_kind", result.dtype, out.dtype, 0)
    if s.dtype.kind == "f":  # NaNs sort last: a slice with one has NaN quantiles
        last = s[..., -1].reshape(s.shape[:-1] + (1,) * q.ndim)
        result = _u._where(_u.isnan(last), last, result)
    if q.ndim:  # q's axes first, C-contiguous as NumPy's result
        result = ascontiguousarray(moveaxis(result, tuple(range(-q.ndim, 0)), tuple(range(q.ndim))))
    return _into(shaped(result, keepdims, q.ndim), out)


def _weighted_quantile(a, q, axis, out, keepdims, weights, skip_nan=False):
    """NumPy's quantile with weights (method 'inverted_cdf'): in each slice, sorted with its weights, the first
    element at which the cumulative share of the weight reaches q (leading zero weights never chosen).
    `skip_nan` (nanquantile's): NaNs weigh nothing, so none is chosen (they sort last, after every element
    the cumulative share reaches 1 at), and a slice of NaNs alone gives NaN, as NumPy's, which drops them."""
    w = _reduction._weights_along(a, axis, _device(weights, "quantile"))
    w = _manipulation.broadcast_to(w, a.shape)
    if bool(_reduction.any(_u.less(w, 0))):
        raise ValueError("Weights must be non-negative.")
    x, shaped = _with_last_axis(a, axis)
    n = x.shape[-1]
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    w = _with_last_axis(w, axis)[0]
    if skip_nan:
        nan = _u.isnan(x)
        only_nan = _reduction.all(nan, -1, keepdims=True)
        w = _u._where(nan, _u._where(only_nan, 1, 0), w)  # a slice of NaNs alone: weighed, then NaN below
    order = _core._argsort(x, x.ndim - 1)
    s = take_along_axis(x, order, -1)
    cdf = cumsum(take_along_axis(w, order, -1), -1, numpy.float64)
    cdf = _u.divide(cdf, cdf[..., -1:])
    if bool(_reduction.any(_u.isnan(cdf[..., -1]))):
        raise ValueError("Weights included NaN, inf or were all zero.")
    if q.dtype.kind == "f":
        cdf = cdf.astype(q.dtype)  # compared in q's type, as NumPy's searchsorted compares them
    if bool(_reduction.any(_u.equal(cdf[..., 0], 0))):
        cdf = _u._where(_u.equal(cdf, 0), -1, cdf)
    # searchsorted(cdf, q, 'left') per slice: how many of its cumulative shares lie below q.
    below = _u.less(cdf[..., None, :], asarray(q.reshape(-1))[:, None])
    index = _u.minimum(_reduction.sum(below, -1), n - 1)
    result = take_along_axis(s, index, -1).reshape(s.shape[:-1] + q.shape)
    if skip_nan:
        if bool(_reduction.any(only_nan)):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)
            result = _u._where(only_nan.reshape(s.shape[:-1] + (1,) * q.ndim), numpy.nan, result)
    elif s.dtype.kind == "f":  # NaNs sort last: a slice with one has NaN quantiles
        last = s[..., -1].reshape(s.shape[:-1] + (1,) * q.ndim)
        result = _u._where(_u.isnan(last), last, result)
    if q.ndim:
        result = ascontiguousarray(moveaxis(result, tuple(range(-q.ndim, 0)), tuple(range(q.ndim))))
    return _into(shaped(result, keepdims, q.ndim), out)


def _lerp(a, b, t):
    """a + (b - a) * t, computed from b's side where t >= 0.5 (NumPy's _lerp, exact at t = 0 and 1)."""
    d = _u.subtract(b, a)
    if isinstance(t, float):
        return _u.subtract(b, _u.multiply(d, 1 - t)) if t >= 0.5 else _u.add(a, _u.multiply(d, t))
    from_a = _u.add(a, _u.multiply(d, t))
    from_b = _u.subtract(b, _u.multiply(d, _u.subtract(1, t)))
    return _u._where(_u.greater_equal(t, 0.5), from_b, from_a)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """The covariance matrix of the variables in the rows of `m` (columns with rowvar=False) and of `y`, with
    NumPy's frequency and reliability weights; squeezed as NumPy's."""
    from cuarray._products import dot
    from cuarray._reduction import average

    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = _device(m, "cov")
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = _device(y, "cov")
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = numpy.result_type(m.dtype, *(() if y is None else (y.dtype,)), numpy.float64)
    X = _at_least_2d(m, dtype, copy=y is None)  # X is the function's own: its means are subtracted in place
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return _core.empty((0, 0), numpy.float64, "C")
    if y is not None:
        Y = _at_least_2d(y, dtype)
        X = concatenate([X, Y.T if not rowvar and Y.shape[0] != 1 else Y], 0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = fweights = _weights(fweights, X.shape[1], "fweights")
    if aweights is not None:
        aweights = _weights(aweights, X.shape[1], "aweights")
        w = aweights if w is None else _u.multiply(w, aweights)
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = _u.subtract(w_sum, ddof)
    else:
        fact = _u.subtract(
            w_sum, _u.divide(_u.multiply(ddof, _reduction.sum(_u.multiply(w, aweights))), w_sum)
        )
    if float(fact) <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    # In place and in dtype, as NumPy: an integer dtype= cannot hold the deviations (NumPy's casting error).
    _u.subtract(X, avg[:, None], out=X)
    X_T = X.T if w is None else _u.multiply(X, w).T
    c = dot(X, _u.conjugate(X_T) if X_T.dtype.kind == "c" else X_T)
    with numpy.errstate(divide="ignore"):  # 1 / 0 is inf, as in NumPy's (which warned above)
        scale = _u.divide(1, fact) if isinstance(fact, ndarray) else numpy.true_divide(1, fact)
    _u.multiply(c, scale, out=c)
    return c.squeeze()


def _at_least_2d(v, dtype, copy=False):
    v = v.astype(dtype, copy=copy)
    return v.reshape((1,) * (2 - v.ndim) + v.shape) if v.ndim < 2 else v


def _weights(w, n, name):
    """Frequency or reliability weights as a float64 device array of length n, checked as NumPy checks them
    and in its order."""
    w = (w if isinstance(w, ndarray) else asarray(numpy.asarray(w, dtype=float))).astype(
        numpy.float64, copy=False
    )
    if name == "fweights" and not bool(_reduction.all(_u.equal(w, _u.rint(w)))):
        raise TypeError("fweights must be integer")  # checked first, as NumPy checks it
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if bool(_reduction.any(_u.less(w, 0))):
        raise ValueError(f"{name} cannot be negative")
    return w


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients: cov normalized by the standard deviations, clipped to [-1, 1]."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:  # one variable: its variance over itself
        return _u.divide(c, c)
    d = c.diagonal()
    stddev = _u.sqrt(_u._real(d) if d.dtype.kind == "c" else d)
    c = _u.divide(_u.divide(c, stddev[:, None]), stddev[None, :])
    if c.dtype.kind != "c":
        return _u._clip(c, -1, 1, out=c)
    return _u._complex(_u._clip(_u._real(c), -1, 1), _u._clip(_u._imag(c), -1, 1), out=c)

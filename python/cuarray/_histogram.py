"""Counting into bins on the device with atomics: bincount and histogram (NumPy's bin rules); digitize, the
bin of each value, by binary search."""

import operator

import numpy

from cuarray import _core, _reduction
from cuarray import _ufuncs as _u
from cuarray._ndarray import ndarray
from cuarray._transfer import asarray

__all__ = ["bincount", "digitize", "histogram"]


def _device(a, name):
    if isinstance(a, numpy.ndarray):
        raise TypeError(f"cuarray.{name}: got a numpy.ndarray; move it to the GPU with cuarray.asarray(x)")
    return a if isinstance(a, ndarray) else asarray(a)


def bincount(x, weights=None, minlength=0):
    """The number of occurrences of each value in the non-negative integer array x (weights summed if
    given), with at least `minlength` bins."""
    x = _device(x, "bincount")
    if weights is not None:
        weights = _device(weights, "bincount")
    return _core._bincount(x, weights, operator.index(minlength))


def _outer_edges(a, range):
    """NumPy's _get_outer_edges: the range, or the data's finite extent; empty data gives (0, 1)."""
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        # max() is NaN when any element is, which the finiteness check below reports as NumPy does.
        first, last = _reduction.min(a).item(), _reduction.max(a).item()
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def histogram(a, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram: (counts, bin edges). `bins` is a count (uniform bins over `range`, or the data's
    extent) or the increasing edges; values equal to the last edge fall in the last bin."""
    a = _device(a, "histogram")
    if a.dtype.kind == "c":
        raise TypeError("cuarray.histogram: complex input is not supported")
    if weights is not None:
        weights = _device(weights, "histogram")
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
    bin_type = numpy.result_type(a.dtype, 1.0) if a.dtype.kind in "iub" else a.dtype
    if isinstance(bins, str):
        raise NotImplementedError("cuarray.histogram: string bin estimators are not supported")
    if numpy.ndim(bins) == 0:
        n = operator.index(bins)
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(a, range)
        edges = numpy.linspace(first, last, n + 1, endpoint=True, dtype=bin_type)
        span = float(numpy.subtract(last, first))
        uniform = True
    else:
        edges = bins.get() if isinstance(bins, ndarray) else numpy.asarray(bins)
        if edges.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if numpy.any(edges[:-1] > edges[1:]):
            raise ValueError("`bins` must increase monotonically, when an array")
        bin_type = numpy.result_type(bin_type, edges.dtype)
        span, uniform = 0.0, False
    counts = _core._histogram(a, edges.astype(numpy.float64).tolist(), bin_type, uniform, span, weights)
    if weights is not None and counts.dtype != weights.dtype:
        counts = counts.astype(weights.dtype)
    edges_dev = asarray(edges)
    if density:
        width = numpy.diff(edges).astype(numpy.float64)
        host = counts.get().astype(numpy.float64)
        return asarray(host / width / host.sum()), edges_dev
    return counts, edges_dev


def digitize(x, bins, right=False):
    """For each value of `x`, the index i of the bin with bins[i - 1] <= x < bins[i] (bins increasing; right=True
    closes bins on the right instead; decreasing bins count from the other end), as NumPy's digitize."""
    from cuarray._sorting import searchsorted

    x, bins = _device(x, "digitize"), _device(bins, "digitize")
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("object of too small depth for desired array" if bins.ndim == 0 else
                         "object too deep for desired array")
    side = "left" if right else "right"
    step_down = _reduction.any(_u.less(bins[1:], bins[:-1]))
    if not bool(step_down):  # NumPy's order of checks: equal neighbours (and NaNs) fit either direction
        return searchsorted(bins, x, side=side)
    if bool(_reduction.any(_u.greater(bins[1:], bins[:-1]))):
        raise ValueError("bins must be monotonically increasing or decreasing")
    return _u.subtract(bins.size, searchsorted(bins[::-1], x, side=side))

"""Counting into bins on the device with atomics: bincount and histogram (NumPy's bin rules); digitize, the
bin of each value, by binary search; histogram2d and histogramdd, which search each coordinate's bin and count
the flat bin numbers."""

import builtins
import math
import operator
import warnings

import numpy

from cuarray import _core, _reduction
from cuarray import _ufuncs as _u
from cuarray._bin_estimators import estimated_bin_count
from cuarray._core import ndarray
from cuarray._math import diff
from cuarray._transfer import asarray
from cuarray._transfer import device_array as _device

__all__ = ["bincount", "digitize", "histogram", "histogram2d", "histogram_bin_edges", "histogramdd"]


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
        # NumPy scalars of the data's type, as NumPy's a.min() and a.max(): float16 data's edges are then
        # spaced in float16, as NumPy's are
        first, last = _reduction.min(a).get()[()], _reduction.max(a).get()[()]
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _checked(a, weights, name):
    """The data and weights of a histogram as device arrays, with NumPy's checks; bool data as uint8, with
    NumPy's warning."""
    a = _device(a, name)
    if (
        a.dtype.kind == "c"
    ):  # NumPy bins complex data by its real parts in complex arithmetic; CuPy refuses it
        raise NotImplementedError(f"cuarray.{name}: complex input is not supported (as in CuPy)")
    if a.dtype == numpy.bool_:
        warnings.warn(
            f"Converting input from {a.dtype} to {numpy.uint8} for compatibility.", RuntimeWarning, 3
        )
        a = a.astype(numpy.uint8)
    if weights is not None:
        weights = _device(weights, name)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
    return a, weights


def _bin_edges(a, bins, range, weights):
    """NumPy's _get_bin_edges for a bin count, an estimator's name or increasing edges: (host edges, the bins'
    dtype, whether they are uniform, their span)."""
    bin_type = numpy.result_type(a.dtype, 1.0) if a.dtype.kind in "iub" else a.dtype
    if isinstance(bins, str) or numpy.ndim(bins) == 0:
        if isinstance(bins, str):
            n, first, last = estimated_bin_count(a, bins, range, weights, _outer_edges, histogram)
        else:
            try:
                n = operator.index(bins)
            except TypeError as e:
                raise TypeError("`bins` must be an integer, a string, or an array") from e
            if n < 1:
                raise ValueError("`bins` must be positive, when an integer")
            first, last = _outer_edges(a, range)
        # NumPy's: the edges' and the data's types together (a range of NumPy scalars counts; Python numbers
        # are weak), at least a float
        bin_type = numpy.result_type(first, last, a.dtype)
        if bin_type.kind in "iub":
            bin_type = numpy.result_type(bin_type, float)
        edges = numpy.linspace(first, last, n + 1, endpoint=True, dtype=bin_type)
        if numpy.any(edges[:-1] >= edges[1:]):
            raise ValueError(f"Too many bins for data range. Cannot create {n} finite-sized bins.")
        if isinstance(first, numpy.integer):  # NumPy's _unsigned_subtract: the width, without overflow
            span = float(int(last) - int(first))
        else:
            span = float(numpy.subtract(last, first))
        return edges, bin_type, True, span
    edges = bins.get() if isinstance(bins, ndarray) else numpy.asarray(bins)
    if edges.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if numpy.any(edges[:-1] > edges[1:]):
        raise ValueError("`bins` must increase monotonically, when an array")
    return edges, numpy.result_type(bin_type, edges.dtype), False, 0.0


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """NumPy's histogram_bin_edges: the edges `histogram` counts into, for a bin count (uniform over `range`,
    or the data's finite extent), an estimator's name ('auto', 'fd', 'sturges', ...: see _bin_estimators) or
    increasing edges (returned as they are)."""
    a, _ = _checked(a, weights, "histogram_bin_edges")
    edges = _bin_edges(a, bins, range, weights)[0]
    return bins if isinstance(bins, ndarray) else asarray(edges)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram: (counts, bin edges). `bins` is a count (uniform bins over `range`, or the data's
    extent), an estimator's name ('auto', 'fd', 'sturges', ...) or the increasing edges; values equal to the
    last edge fall in the last bin."""
    a, weights = _checked(a, weights, "histogram")
    edges, bin_type, uniform, span = _bin_edges(a, bins, range, weights)
    edge_list = edges.astype(numpy.float64).tolist()

    def count(w):
        return _core._histogram(a, edge_list, bin_type, uniform, span, w)

    if edges.size < 2:  # no bin between the edges given: NumPy's empty counts
        counts = _core.empty((0,), numpy.dtype(numpy.intp) if weights is None else weights.dtype, "C")
    elif weights is not None and weights.dtype.kind == "c":  # NumPy sums complex weights: both parts binned
        counts = _u._complex(count(_u._real(weights)), count(_u._imag(weights)))
    else:
        counts = count(weights)
    if weights is not None and counts.dtype != weights.dtype:
        counts = counts.astype(weights.dtype)
    edges_dev = bins if isinstance(bins, ndarray) else asarray(edges)  # NumPy returns asarray(bins) too
    if density:
        width = numpy.diff(edges).astype(numpy.float64)
        host = counts.get().astype(numpy.result_type(counts.dtype, numpy.float64))
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
        raise ValueError(
            "object of too small depth for desired array"
            if bins.ndim == 0
            else "object too deep for desired array"
        )
    side = "left" if right else "right"
    if _monotonicity(bins) == 1:
        return searchsorted(bins, x, side=side)
    return _u.subtract(bins.size, searchsorted(bins[::-1], x, side=side))


_NOT_MONOTONIC = "bins must be monotonically increasing or decreasing"


def _monotonicity(bins):
    """1 for increasing bins, -1 for decreasing ones (equal neighbours fit either), as NumPy's digitize decides
    it; ValueError for others. One read of three flags from the device; bins holding NaN go to
    _host_monotonicity."""
    from cuarray._joining import stack

    lo, hi = bins[:-1], bins[1:]
    flags = [_reduction.any(_u.less(hi, lo)), _reduction.any(_u.greater(hi, lo))]
    if bins.dtype.kind in "fc":
        flags.append(_reduction.any(_u.isnan(bins)))
    step_down, step_up, *nan = stack(flags).get().tolist()
    if nan and nan[0]:
        return _host_monotonicity(bins.get())
    if step_down and step_up:
        raise ValueError(_NOT_MONOTONIC)
    return -1 if step_down else 1


def _host_monotonicity(b):
    """NumPy's rule, which NaNs make matter: the first unequal neighbours give the direction (a NaN compares
    unequal and not less, so all-NaN bins count as decreasing), and no later pair may go the other way."""
    unequal = numpy.flatnonzero(b[1:] != b[:-1])
    if unequal.size == 0:
        return 1
    i = unequal[0] + 1
    if b[i - 1] < b[i]:
        mono, backwards = 1, numpy.any(b[i:-1] > b[i + 1 :])
    else:
        mono, backwards = -1, numpy.any(b[i:-1] < b[i + 1 :])
    if backwards:
        raise ValueError(_NOT_MONOTONIC)
    return mono


def _sample(sample):
    """histogramdd's (N, D) sample: a 2-d array as it is, else NumPy's atleast_2d(sample).T (a sequence of the
    D coordinate arrays, or one 1-d array)."""
    from cuarray._joining import stack

    if isinstance(sample, ndarray) and sample.ndim == 2:
        return sample
    if isinstance(sample, (list, tuple)) and any(isinstance(s, (ndarray, numpy.ndarray)) for s in sample):
        sample = stack([_device(s, "histogramdd") for s in sample])
    else:
        sample = _device(sample, "histogramdd")
    if sample.ndim > 2:
        raise ValueError("too many values to unpack (expected 2)")
    return sample.reshape((1,) * (2 - sample.ndim) + sample.shape).T


def _edges(column, bins, range, i):
    """The edges of dimension i, as NumPy's histogramdd makes them: `bins` uniform bins over `range` (or the
    data's extent), or the given increasing edges."""
    ndim = bins.ndim if isinstance(bins, ndarray) else numpy.ndim(bins)
    if ndim == 0:
        if isinstance(bins, ndarray):
            bins = bins.item()
        if bins < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        first, last = _outer_edges(column, range)
        try:
            n = operator.index(bins)
        except TypeError as e:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
        # NumPy's linspace runs in the type of the outer edges: the data's (at least a float), or the range's.
        if range is None and column.size:
            dtype = numpy.result_type(column.dtype, 1.0)
        else:
            dtype = numpy.result_type(*(range if range is not None else (0, 1)), 1.0)
        return asarray(numpy.linspace(dtype.type(first), dtype.type(last), n + 1))
    if ndim != 1:
        raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    edges = _device(bins, "histogramdd")
    if bool(_reduction.any(_u.greater(edges[:-1], edges[1:]))):
        raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
    return edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """NumPy's histogramdd: (counts, list of each dimension's edges) of the (N, D) sample (or a sequence of D
    coordinate arrays). `bins`: one count or edge array for all dimensions, or one per dimension; values on a
    dimension's last edge count in its last bin. Counts are float64, as NumPy's."""
    from cuarray._sorting import searchsorted

    sample = _sample(sample)
    D = sample.shape[1]
    if weights is not None:
        weights = _device(weights, "histogramdd")
    try:
        M = len(bins)
    except TypeError:
        bins = D * [bins]
    else:
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = [_edges(sample[:, i], bins[i], range[i], i) for i in builtins.range(D)]
    nbin = [e.shape[0] + 1 for e in edges]  # with an outlier bin at each end
    if D == 0:
        raise ValueError("object of too small depth for desired array")
    if math.prod(nbin) > numpy.iinfo(numpy.intp).max:
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.")

    # Each coordinate's bin (values on the last edge go into the last bin), flattened in C order over nbin.
    flat = None
    for i, e in enumerate(edges):
        column = sample[:, i]
        index = _u.subtract(searchsorted(e, column, side="right"), _u.equal(column, e[-1]))
        flat = index if flat is None else _u.add(_u.multiply(flat, nbin[i]), index)
    hist = bincount(flat, weights, minlength=math.prod(nbin)).reshape(tuple(nbin))
    hist = hist.astype(numpy.float64, copy=False)[(slice(1, -1),) * D]  # without the outlier bins
    if density:
        total = _reduction.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = _u.divide(hist, diff(e).reshape(tuple(shape)))
        hist = _u.divide(hist, total)
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram2d: (counts, x edges, y edges) of the points (x, y). `bins`: a count or edge array for
    both coordinates, or a pair of them."""
    x, y = _device(x, "histogram2d"), _device(y, "histogram2d")
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N not in {1, 2}:
        bins = [bins, bins]  # one edge array for both coordinates
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]

"""NumPy's bin-width estimators for histogram(a, bins='auto' | 'fd' | 'doane' | 'scott' | 'stone' | 'rice' |
'sturges' | 'sqrt'): the statistics they need (extent, standard deviation, quartiles, skewness) are reduced on the
device and read back as NumPy scalars of the data's type, and the formulas run on the host in NumPy's order and
types, so the bin count is NumPy's wherever the statistics agree."""

import warnings

import numpy

from cuarray import _reduction
from cuarray import _ufuncs as _u
from cuarray._statistics import percentile


def _scalar(x):
    """A device reduction's value as the NumPy scalar NumPy's reduction returns."""
    return x.get()[()]


def _unsigned_subtract(a, b):
    """a - b of two NumPy scalars without overflow for signed integers (NumPy's: in the unsigned type)."""
    t = numpy.result_type(a, b)
    if t.kind == "i":
        return numpy.subtract(
            numpy.asarray(a, t), numpy.asarray(b, t), casting="unsafe", dtype=t.str.replace("i", "u")
        )[()]
    return numpy.subtract(a, b, dtype=t)


def _ptp(x):
    return _unsigned_subtract(_scalar(_reduction.max(x)), _scalar(_reduction.min(x)))


def _sqrt(x, range, histogram):
    return _ptp(x) / numpy.sqrt(x.size)


def _sturges(x, range, histogram):
    return _ptp(x) / (numpy.log2(x.size) + 1.0)


def _rice(x, range, histogram):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _scott(x, range, histogram):
    return (24.0 * numpy.pi**0.5 / x.size) ** (1.0 / 3.0) * _scalar(_reduction.std(x))


def _stone(x, range, histogram):
    """The width whose histogram minimises Stone's estimate of the integrated squared error, over 1 to
    max(100, sqrt(n)) bins: one device histogram per bin count."""
    n = x.size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0

    def jhat(nbins):
        p_k = histogram(x, bins=nbins, range=range)[0].get() / n
        return (2 - (n + 1) * p_k.dot(p_k)) / (ptp_x / nbins)

    upper = max(100, int(numpy.sqrt(n)))
    nbins = min(range_(1, upper + 1), key=jhat)
    if nbins == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning, stacklevel=5)
    return ptp_x / nbins


range_ = range  # the estimators' `range` argument shadows the builtin, as in NumPy's


def _doane(x, range, histogram):
    if x.size > 2:
        sg1 = numpy.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        sigma = _reduction.std(x)
        if _scalar(sigma) > 0.0:
            # In the data's type, in place, as NumPy's: (x - mean) / sigma, cubed, averaged.
            temp = _u.subtract(x, _reduction.mean(x))
            _u.true_divide(temp, sigma, out=temp)
            _u.power(temp, 3, out=temp)
            g1 = _scalar(_reduction.mean(temp))
            return _ptp(x) / (1.0 + numpy.log2(x.size) + numpy.log2(1.0 + numpy.absolute(g1) / sg1))
    return 0.0


def _fd(x, range, histogram):
    iqr = numpy.subtract(*percentile(x, [75, 25]).get())
    return 2.0 * iqr * x.size ** (-1.0 / 3.0)


def _auto(x, range, histogram):
    fd_bw = _fd(x, range, histogram)
    sturges_bw = _sturges(x, range, histogram)
    sqrt_bw = _sqrt(x, range, histogram)
    return min(max(fd_bw, sqrt_bw / 2), sturges_bw)  # the Freedman-Diaconis width, limited


ESTIMATORS = {
    "stone": _stone,
    "auto": _auto,
    "doane": _doane,
    "fd": _fd,
    "rice": _rice,
    "scott": _scott,
    "sqrt": _sqrt,
    "sturges": _sturges,
}


def estimated_bin_count(a, name, range, weights, outer_edges, histogram):
    """NumPy's number of equal bins for the estimator `name`, and the outer edges they span: over the data
    within `range`, at least one bin, bins at least 1 wide for integer data. `outer_edges` and `histogram`
    are _histogram's (passed in: that module imports this one)."""
    if name not in ESTIMATORS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    if weights is not None:
        raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
    first, last = outer_edges(a, range)
    if range is not None:
        keep = _u.logical_and(_u.greater_equal(a, first), _u.less_equal(a, last))
        if not bool(_reduction.all(keep)):
            a = a[keep]
    if a.size == 0:
        return 1, first, last
    width = ESTIMATORS[name](a, (first, last), histogram)
    if not width:
        return 1, first, last  # FD's width is 0 where the quartiles agree
    if a.dtype.kind in "iu" and width < 1:
        width = 1
    return int(numpy.ceil(_unsigned_subtract(last, first) / width)), first, last

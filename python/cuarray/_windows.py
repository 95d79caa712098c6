"""NumPy's window functions (bartlett, blackman, hamming, hanning, kaiser): float64 arrays computed on the
device with NumPy's formulas."""

import numpy

from cuarray import _ufuncs as _u
from cuarray._creation import arange, empty, ones
from cuarray._math import i0

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _window(M, formula):
    """NumPy's prologue: M as a float64 scalar (through an array with 0.0); no points for M < 1, ones(1) for
    M == 1, else formula(n, M) with n = 1-M, 3-M, ..., M-1."""
    values = numpy.array([0.0, M])
    M = values[1]
    if M < 1:
        return empty((0,), values.dtype)
    if M == 1:
        return ones(1, values.dtype)
    return formula(arange(1 - M, M, 2), M)


def _cos(factor, n, M):
    """cos(factor * n / (M - 1)), in NumPy's order of operations."""
    return _u.cos(_u.divide(_u.multiply(factor, n), M - 1))


def _bartlett(n, M):
    ramp = _u.divide(n, M - 1)
    return _u._where(_u.less_equal(n, 0), _u.add(1, ramp), _u.subtract(1, ramp))


def _blackman(n, M):
    first = _u.add(0.42, _u.multiply(0.5, _cos(numpy.pi, n, M)))
    return _u.add(first, _u.multiply(0.08, _cos(2.0 * numpy.pi, n, M)))


def bartlett(M):
    """The Bartlett (triangular) window of M points."""
    return _window(M, _bartlett)


def blackman(M):
    """The Blackman window of M points."""
    return _window(M, _blackman)


def hamming(M):
    """The Hamming window of M points."""
    return _window(M, lambda n, M: _u.add(0.54, _u.multiply(0.46, _cos(numpy.pi, n, M))))


def hanning(M):
    """The Hann window of M points."""
    return _window(M, lambda n, M: _u.add(0.5, _u.multiply(0.5, _cos(numpy.pi, n, M))))


def kaiser(M, beta):
    """The Kaiser window of M points with shape parameter `beta`: I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)
    (empty for M < 1)."""
    values = numpy.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return ones(1, values.dtype)
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    ratio = _u.divide(_u.subtract(n, alpha), alpha)
    # NumPy's ** 2.0 is square.
    arg = _u.multiply(beta, _u.sqrt(_u.subtract(1, _u.square(ratio))))
    return _u.divide(i0(arg), i0(beta))

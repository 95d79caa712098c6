"""SciPy 1.17's generalized Lomb-Scargle periodogram on the device: lombscargle, step for step as SciPy computes it
(its (samples, frequencies) matrices, the weighted sums as matrix products), in float64 whatever the inputs' types.
Its arguments are taken through cupy.asarray, as CuPy's are: host arrays and lists are copied to the device.

Note [lombscargle's signature]
CuPy 14.2's lombscargle(x, y, freqs, precenter=False, normalize=False) is SciPy's older one: no weights nor
floating_mean, normalize only True or False, precenter and normalize also by position. SciPy 1.17's takes
precenter, normalize, weights and floating_mean by keyword only, warns (DeprecationWarning) whenever precenter is
given, and adds normalize='amplitude'. This is SciPy 1.17's function, with precenter and normalize also taken by
position in CuPy's order, so that CuPy's calls run: their values are the same (SciPy's 'power' and 'normalize'
scalings reproduce the older periodogram), but a precenter passed, by position or name, warns as in SciPy.
"""

import warnings

import numpy

import cuarray as cp

__all__ = ["lombscargle"]

_NO_VALUE = numpy._NoValue  # SciPy's sentinel: precenter not given


def _float64(a):
    return cp.asarray(a, dtype=numpy.float64)


def lombscargle(x, y, freqs, precenter=_NO_VALUE, normalize=False, *, weights=None, floating_mean=False):
    """The Lomb-Scargle periodogram of samples `y` at times `x`, at the angular frequencies `freqs`: power
    (normalize False or 'power'), power over the signal's (True or 'normalize'), or the complex amplitude
    ('amplitude'); `weights` weigh the samples, `floating_mean` fits an offset too (Note [lombscargle's
    signature])."""
    y = _float64(y)
    weights = cp.ones(y.shape, numpy.float64) if weights is None else _float64(weights)
    x, freqs = _float64(x), _float64(freqs)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == weights.shape):
        raise ValueError("Parameters x, y, weights must be 1-D arrays of equal non-zero length!")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError("Parameter freqs must be a 1-D array of non-zero length!")
    if not bool(cp.all(weights >= 0) & (cp.sum(weights) > 0)):  # one value read back
        raise ValueError(
            "Parameter weights must have only non-negative entries which sum to a positive value!"
        )
    if isinstance(normalize, bool):
        normalize = "normalize" if normalize else "power"
    if normalize not in ["power", "normalize", "amplitude"]:
        raise ValueError("Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'.")

    weights = weights * (1.0 / weights.sum())  # they sum to 1
    if precenter is not _NO_VALUE:
        warnings.warn(
            "Use of parameter 'precenter' is deprecated as of SciPy 1.17.0 and will be removed in 1.19.0. Please "
            "leave 'precenter' unspecified. Passing True to 'precenter' can be exactly substituted by passing "
            "'y = (y - y.mean())' into the input. Consider setting `floating_mean` to True instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        if precenter:
            y = y - y.mean()

    # SciPy's shapes: frequencies along a row, samples down a column; its equation numbers.
    freqs = freqs.reshape(1, -1)
    x, y, weights = x.reshape(-1, 1), y.reshape(-1, 1), weights.reshape(-1, 1)
    weights_y = weights * y
    freqst = freqs * x
    coswt, sinwt = cp.cos(freqst), cp.sin(freqst)

    Y = weights.T @ y  # Eq. 7
    CC = weights.T @ (coswt * coswt)  # Eq. 13
    SS = 1.0 - CC  # Eq. 14, as S^2 = 1 - C^2
    CS = weights.T @ (coswt * sinwt)  # Eq. 15
    if floating_mean:
        C = weights.T @ coswt  # Eq. 8
        S = weights.T @ sinwt  # Eq. 9
        CC -= C * C
        SS -= S * S
        CS -= C * S

    tau = 0.5 * cp.arctan2(2.0 * CS, CC - SS)  # Eq. 19: the phase offset that eliminates CS
    freqst_tau = freqst - tau
    coswt_tau, sinwt_tau = cp.cos(freqst_tau), cp.sin(freqst_tau)
    YC = weights_y.T @ coswt_tau  # Eq. 11
    YS = weights_y.T @ sinwt_tau  # Eq. 12
    CC = weights.T @ (coswt_tau * coswt_tau)  # Eq. 13, in [0.5, 1]
    SS = 1.0 - CC  # Eq. 14, in [0, 0.5]
    if floating_mean:
        C = weights.T @ coswt_tau
        S = weights.T @ sinwt_tau
        YC -= Y * C
        YS -= Y * S
        CC -= C * C
        SS -= S * S

    # CC and SS kept above zero (rounding can take them to about -0.0), so that a and b are finite.
    epsneg = numpy.finfo(numpy.float64).epsneg
    CC = cp.where(CC < epsneg, epsneg, CC)
    SS = cp.where(SS < epsneg, epsneg, SS)
    a = YC / CC  # y(w) = a cos(w) + b sin(w) + c: Eq. A.4 and 6
    b = YS / SS

    if normalize == "amplitude":  # the best fit's amplitude and phase, with the tau rotation undone
        return (cp.squeeze(a) + 1j * cp.squeeze(b)) * cp.exp(1j * cp.squeeze(tau))
    pgram = cp.squeeze(2.0 * (a * YC + b * YS))  # power in (y units)^2
    if normalize == "power":
        pgram *= float(x.shape[0]) / 4.0  # the legacy units, (A^2) N / 4
    else:  # the power relative to the whole signal's, in [0, 1]
        YY = weights_y.T @ y  # Eq. 10
        if floating_mean:
            YY -= Y * Y
        pgram *= 0.5 / cp.squeeze(YY)  # Eq. 20
    return pgram

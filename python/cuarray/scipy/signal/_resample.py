"""SciPy's resample (Fourier method) on device arrays, step for step as SciPy 1.17 computes it, with cuarray.fft
in place of scipy.fft: float32, float16 and complex64 inputs transform in single precision, others in double, so
the result's dtype is SciPy's. As CuPy's, it takes the signal through cupy.asarray (a host array or list is
copied to the device); a window given as an array must be a device array (CuPy's takes no host one either).

decimate is not here: it filters with an order-8 Chebyshev IIR filter run forwards and backwards (cheby1,
sosfiltfilt), or with an FIR filter through polyphase resampling (resample_poly), not with convolution alone.

Note [Window by name]
A window given by name or tuple is get_window's (cuarray.scipy.signal.windows, periodic, float64), fftshifted
as SciPy 1.17 shifts it; it is imported on first use, so that resample without a named window does not load
the window module.

Note [float16 spectra]
scipy.fft computes a float16 input as float32: its inverse transform of a float16 spectrum (domain='freq')
scales by a float32 1/n. cuarray.fft is NumPy's, whose ifft keeps a float16 input's precision in its factor
(a float16 1/n, 2e-4 from 1/n where n = 3), so resample casts such a spectrum to float32 itself, after
dividing it by s_fac in float16 as SciPy does. A float16 signal (domain='time') goes through rfft, which
scales nothing.
"""

import operator

import numpy

from cuarray import _creation, _manipulation, fft
from cuarray._transfer import asarray
from cuarray.scipy.signal._convolve import require_device

__all__ = ["resample"]


def _named_window(window, n):
    """get_window(window, n) fftshifted, as float64 (Note [Window by name])."""
    from cuarray.scipy.signal.windows import get_window

    return fft.fftshift(get_window(window, n)).astype(numpy.float64)


def resample(x, num, t=None, axis=0, window=None, domain="time"):
    """`x` resampled to `num` samples along `axis` by the Fourier method; with `t`, also the new sample
    positions. `window` (a device array of len(x) frequencies, a callable of fftfreq, or a name) weights the
    spectrum; domain='freq' takes `x` as a spectrum already."""
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter {domain=} not in ('time', 'freq')!")
    x = asarray(x)  # as CuPy's (cupy.asarray): a host array or list is copied to the device
    if x.ndim > 1:  # the active axis last, as SciPy moves it (a 1-D input ignores `axis`, as in SciPy)
        x = _manipulation.moveaxis(x, axis, -1)
    n_x = x.shape[-1]
    s_fac = n_x / num  # SciPy's ZeroDivisionError for num == 0
    try:
        num = operator.index(num)
    except TypeError:
        raise TypeError("slice indices must be integers or None or have an __index__ method") from None
    if num < 0 or n_x == 0:
        raise ValueError(f"invalid number of data points ({0 if n_x == 0 else num}) specified")
    m = min(num, n_x)  # frequency bins that are kept
    m2 = m // 2 + 1  # of a one-sided spectrum

    if window is None:
        W = None
    elif callable(window):
        W = window(fft.fftfreq(n_x))
    elif hasattr(window, "shape"):
        require_device(window)
        if window.shape != (n_x,):
            raise ValueError(
                f"{window.shape=} != ({n_x},), i.e., window length "
                + "is not equal to number of frequency bins!"
            )
        W = window.copy()
    else:
        W = _named_window(window, n_x)

    if domain == "time" and x.dtype.kind != "c":
        X = fft.rfft(x)
        if W is not None:  # fold the window: W[l] = (W[l] + W[-l]) / 2 for l > 0
            n_X = X.shape[-1]
            W[1:n_X] += W[-n_X + 1 :][::-1].copy()  # a copy: the two halves overlap at n_X - 1
            W[1:n_X] /= 2
            X *= W[:n_X]
        X = X[..., :m2]
        if m % 2 == 0 and num != n_x:  # the unpaired bin at m // 2
            X[..., m // 2] *= 2 if num < n_x else 0.5
        x_r = fft.irfft(X / s_fac, n=num)
    else:
        X = fft.fft(x) if domain == "time" else x
        if W is not None:
            X = X * W
        Y = _creation.zeros(X.shape[:-1] + (num,), dtype=X.dtype)
        Y[..., :m2] = X[..., :m2]  # up to the Nyquist frequency
        if m2 < m:
            Y[..., m2 - m :] = X[..., m2 - m :]  # the negative frequencies
        if m % 2 == 0:  # the unpaired bin at m // 2
            if num < n_x:  # down: the pair becomes one bin
                Y[..., -m // 2] += X[..., -m // 2]
            elif n_x < num:  # up: the bin becomes a pair
                Y[..., m // 2] /= 2
                Y[..., num - m // 2] = Y[..., m // 2]
        Y = Y / s_fac  # in float16 for a float16 spectrum, as SciPy divides it
        if Y.dtype == numpy.float16:  # Note [float16 spectra]
            Y = Y.astype(numpy.float32)
        x_r = fft.ifft(Y, n=num)

    if x_r.ndim > 1:
        x_r = _manipulation.moveaxis(x_r, -1, axis)
    if t is not None:
        return x_r, t[0] + (t[1] - t[0]) * s_fac * _creation.arange(num)
    return x_r

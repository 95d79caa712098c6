"""cuarray.scipy.signal: SciPy's convolution and correlation functions on device arrays."""

from cuarray.scipy.signal._convolve import (
    choose_conv_method,
    convolve,
    convolve2d,
    correlate,
    correlate2d,
    fftconvolve,
    oaconvolve,
)

__all__ = [
    "choose_conv_method",
    "convolve",
    "convolve2d",
    "correlate",
    "correlate2d",
    "fftconvolve",
    "oaconvolve",
]

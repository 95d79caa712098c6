"""NumPy's numpy.polynomial functions that CuPy's cupy.polynomial gives, on device arrays: the power series
(`polynomial`: polyvander, polyval, polyvalfromroots, polycompanion) and their helpers (`polyutils`:
as_series, trimseq, trimcoef). Coefficients go lowest degree first, as in numpy.polynomial (cuarray.polyval
is NumPy's older, highest-first polyval)."""

from cuarray.polynomial import polynomial, polyutils

__all__ = ["polynomial", "polyutils"]

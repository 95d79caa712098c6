"""cuarray.linalg: NumPy's numpy.linalg on the device."""

from cuarray._norm import norm

__all__ = ["norm"]

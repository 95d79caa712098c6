"""NumPy's numpy.lib namespaces that hold device-array functions: ``stride_tricks``."""

from cuarray.lib import stride_tricks

__all__ = ["stride_tricks"]

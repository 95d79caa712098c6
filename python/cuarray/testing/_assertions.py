"""Assertions that accept cuarray and NumPy arrays alike (compared on the host)."""

import numpy
import numpy.testing as _npt

from cuarray._core import ndarray

__all__ = ["assert_allclose", "assert_array_almost_equal", "assert_array_equal", "assert_array_less"]


def _host(x):
    return x.get() if isinstance(x, ndarray) else numpy.asarray(x)


def assert_allclose(
    actual, desired, rtol=1e-7, atol=0, equal_nan=True, err_msg="", verbose=True, *, strict=False
):
    """NumPy's ``numpy.testing.assert_allclose`` on device or host arrays (device arrays are copied to the
    host)."""
    _npt.assert_allclose(
        _host(actual),
        _host(desired),
        rtol=rtol,
        atol=atol,
        equal_nan=equal_nan,
        err_msg=err_msg,
        verbose=verbose,
        strict=strict,
    )


def assert_array_almost_equal(actual, desired, decimal=6, err_msg="", verbose=True):
    """NumPy's ``numpy.testing.assert_array_almost_equal`` on device or host arrays."""
    _npt.assert_array_almost_equal(
        _host(actual), _host(desired), decimal=decimal, err_msg=err_msg, verbose=verbose
    )


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False):
    """NumPy's ``numpy.testing.assert_array_equal`` on device or host arrays."""
    _npt.assert_array_equal(_host(actual), _host(desired), err_msg=err_msg, verbose=verbose, strict=strict)


def assert_array_less(x, y, err_msg="", verbose=True, *, strict=False):
    """NumPy's ``numpy.testing.assert_array_less`` on device or host arrays."""
    _npt.assert_array_less(_host(x), _host(y), err_msg=err_msg, verbose=verbose, strict=strict)

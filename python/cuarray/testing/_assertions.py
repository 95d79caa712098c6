"""Assertions that accept cuarray and NumPy arrays (and scalars) alike, compared on the host: NumPy's, under
CuPy's signatures, and CuPy's assert_warns and AssertFunctionIsCalled."""

import contextlib
import warnings
from unittest import mock

import numpy
import numpy.testing as _npt

from cuarray._core import ndarray

__all__ = [
    "AssertFunctionIsCalled",
    "assert_allclose",
    "assert_array_almost_equal",
    "assert_array_almost_equal_nulp",
    "assert_array_equal",
    "assert_array_less",
    "assert_array_list_equal",
    "assert_array_max_ulp",
    "assert_warns",
]


def _host(x):
    """`x` on the host: a cuarray array copied over, another library's device array (one with
    ``__cuda_array_interface__``) through cuarray, anything else as numpy.asarray takes it."""
    if isinstance(x, ndarray):
        return x.get()
    if hasattr(x, "__cuda_array_interface__") and not isinstance(x, numpy.ndarray):
        import cuarray

        return cuarray.asarray(x).get()
    return numpy.asarray(x)


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


def assert_array_almost_equal_nulp(x, y, nulp=1):
    """NumPy's ``numpy.testing.assert_array_almost_equal_nulp`` (within `nulp` units in the last place,
    relative to the spacing of the larger value) on device or host arrays."""
    _npt.assert_array_almost_equal_nulp(_host(x), _host(y), nulp=nulp)


def assert_array_max_ulp(a, b, maxulp=1, dtype=None):
    """NumPy's ``numpy.testing.assert_array_max_ulp`` (at most `maxulp` units in the last place apart, after
    conversion to `dtype` if given) on device or host arrays."""
    _npt.assert_array_max_ulp(_host(a), _host(b), maxulp=maxulp, dtype=dtype)


def assert_array_equal(actual, desired, err_msg="", verbose=True, *, strict=False, strides_check=False):
    """NumPy's ``numpy.testing.assert_array_equal`` on device or host arrays; with `strides_check`, the two
    arrays' strides must be equal too (as in CuPy: a failure starts "Strides are not equal:")."""
    _npt.assert_array_equal(_host(actual), _host(desired), err_msg=err_msg, verbose=verbose, strict=strict)
    if strides_check:
        x, y = tuple(getattr(actual, "strides", ())), tuple(getattr(desired, "strides", ()))
        if x != y:
            lines = ["Strides are not equal:" + (f" {err_msg}" if err_msg else "")]
            if verbose:
                lines += [f" x: {x}", f" y: {y}"]
            raise AssertionError("\n".join(lines))


def assert_array_less(x, y, err_msg="", verbose=True, *, strict=False):
    """NumPy's ``numpy.testing.assert_array_less`` on device or host arrays."""
    _npt.assert_array_less(_host(x), _host(y), err_msg=err_msg, verbose=verbose, strict=strict)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    """Two lists (or two tuples) of arrays, equal pair by pair (assert_array_equal); a list against a tuple, or
    lists of different lengths, fail."""
    if type(xlist) is not type(ylist):
        raise AssertionError(
            f"Matching types of list or tuple are expected, but were different types "
            f"(xlist:{type(xlist)} ylist:{type(ylist)})"
        )
    if type(xlist) not in (list, tuple):
        raise AssertionError(f"List or tuple is expected, but was {type(xlist)}")
    if len(xlist) != len(ylist):
        raise AssertionError(f"List size is different ({len(xlist)} and {len(ylist)})")
    for x, y in zip(xlist, ylist):
        _npt.assert_array_equal(_host(x), _host(y), err_msg=err_msg, verbose=verbose)


@contextlib.contextmanager
def assert_warns(expected):
    """Context manager: the block must warn with a warning of class `expected` (every warning is recorded,
    whatever the filters say), else AssertionError "<Name> not triggerred" (CuPy's spelling)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    if not any(isinstance(w.message, expected) for w in caught):
        raise AssertionError(f"{getattr(expected, '__name__', expected)} not triggerred")


@contextlib.contextmanager
def AssertFunctionIsCalled(*args, times_called=1, **kwargs):
    """Context manager: ``unittest.mock.patch(*args, **kwargs)`` around the block, which must call the patched
    object exactly `times_called` times."""
    with mock.patch(*args, **kwargs) as handle:
        yield handle
        if handle.call_count != times_called:
            raise AssertionError(
                f"{args[0] if args else 'the patched object'} was called "
                f"{handle.call_count} times, not {times_called}"
            )

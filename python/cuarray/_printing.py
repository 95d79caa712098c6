"""Text of arrays: array_repr, array_str, array2string. NumPy's functions applied to the array's host copy,
which is how repr() and str() of a cuarray array are made (_ndarray.py), so the text is the same and NumPy's
print options (set_printoptions, printoptions) apply."""

import numpy

from cuarray._transfer import device_array

__all__ = ["array2string", "array_repr", "array_str"]


def _host(a, name):
    return device_array(a, name).get()


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """repr(arr), with NumPy's print options overridden by the arguments given."""
    return numpy.array_repr(_host(arr, "array_repr"), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """str(a), with NumPy's print options overridden by the arguments given."""
    return numpy.array_str(_host(a, "array_str"), max_line_width, precision, suppress_small)


def array2string(
    a,
    max_line_width=None,
    precision=None,
    suppress_small=None,
    separator=" ",
    prefix="",
    *,
    formatter=None,
    threshold=None,
    edgeitems=None,
    sign=None,
    floatmode=None,
    suffix="",
    legacy=None,
):
    """NumPy's array2string of a's values."""
    return numpy.array2string(
        _host(a, "array2string"),
        max_line_width,
        precision,
        suppress_small,
        separator,
        prefix,
        formatter=formatter,
        threshold=threshold,
        edgeitems=edgeitems,
        sign=sign,
        floatmode=floatmode,
        suffix=suffix,
        legacy=legacy,
    )

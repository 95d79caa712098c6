"""Text of arrays: array_repr, array_str, array2string. NumPy's functions applied to a host copy of the array
(of its edges only where NumPy summarises it, Note [Printing summarised arrays]), which is how repr() and
str() of a cuarray array are made (_ndarray.py), so the text is the same and NumPy's print options
(set_printoptions, printoptions) apply."""

import itertools
import math

import numpy

from cuarray._transfer import device_array

__all__ = ["array2string", "array_repr", "array_str"]

# Note [Printing summarised arrays]
# NumPy prints an array of more than `threshold` elements summarised: along each axis longer than
# 2 * edgeitems, only edgeitems items at each end, and it reads only those, both to choose the number format
# and to print. So a large array need not come to the host whole (a 4000 x 4000 float64 array prints 36 of its
# 16 million values): the edge blocks are copied into a host array of the array's shape and dtype, whose other
# elements are allocated (virtual memory, never written or read) but never copied, and NumPy prints that.
# A view is copied block by block, so nothing of its size is gathered on the device first either. Arrays
# NumPy does not summarise, and those with so many summarised axes that the blocks would be many (2 per such
# axis), are copied whole.
_MAX_BLOCKS = 64


def _printable(a, threshold=None, edgeitems=None):
    """A host array that NumPy prints as it prints `a` (Note [Printing summarised arrays])."""
    options = numpy.get_printoptions()
    threshold = options["threshold"] if threshold is None else threshold
    edgeitems = options["edgeitems"] if edgeitems is None else edgeitems
    if a.size <= threshold or a.dtype.kind == "V":
        return a.get()
    e = edgeitems
    spans = [
        [slice(0, e), slice(n - e, n)] if n > 2 * e else [slice(0, n)]
        for n in a.shape  # the ends of a summarised axis, or the whole of a short one
    ]
    if math.prod(len(s) for s in spans) > _MAX_BLOCKS:
        return a.get()
    try:
        host = numpy.empty(a.shape, a.dtype)
    except MemoryError:
        return a.get()
    for block in itertools.product(*spans):
        host[block] = a[block].get()
    return host


def _host(a, name, threshold=None, edgeitems=None):
    # CuPy's take whatever cupy.asnumpy takes: a NumPy array is printed as it is.
    return a if isinstance(a, numpy.ndarray) else _printable(device_array(a, name), threshold, edgeitems)


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
        _host(a, "array2string", threshold, edgeitems),
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

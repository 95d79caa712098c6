"""`cupy._core.internal`: `prod`, which cupy.testing's array helpers use, and `get_size`, with which the
random tests compute the shape they expect.

Note [Expectation helpers]
`get_size` is CuPy's rule for turning a `size=` argument into a shape tuple (None refused, a sequence made a
tuple, anything else one element, booleans refused). The random tests call it only to write down the shape a
sampler should return, never to test cuarray, so the shim keeps the rule here rather than ask cuarray to
expose an internal helper.
"""

import math

import numpy


def prod(args, init=1):
    return math.prod(args, start=init)


def _check_not_bool(x):
    if isinstance(x, (bool, numpy.bool_)) or (
        isinstance(x, numpy.ndarray) and x.shape == () and x.dtype == numpy.bool_
    ):
        raise TypeError("an integer is required")


def get_size(size):
    """The shape tuple of a `size=` argument (Note [Expectation helpers])."""
    if size is None:
        raise TypeError("Use () not None as shape arguments")
    if hasattr(type(size), "__getitem__") and not isinstance(size, dict):  # CPython's PySequence_Check
        try:
            ret = tuple(size)
        except TypeError:
            _check_not_bool(size)
            return (size,)
        for x in ret:
            _check_not_bool(x)
        return ret
    _check_not_bool(size)
    return (size,)

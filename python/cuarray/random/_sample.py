"""cuarray.random's uniform samples, integers, choice and multinomial on the current device's RandomState (CuPy's
cupy.random._sample)."""

import numpy

from cuarray.random import _distributions
from cuarray.random._generator import get_random_state


def rand(*size, dtype=float):
    """Uniform floats on [0, 1) of shape `size` (random_sample(size=size, dtype=dtype), as CuPy's)."""
    return random_sample(size=size, dtype=dtype)


def randn(*size, dtype=float):
    """Standard normals of shape `size` (_distributions.normal(size=size, dtype=dtype), as CuPy's: the same
    numbers as RandomState.randn)."""
    return _distributions.normal(size=size, dtype=dtype)


def random_sample(size=None, dtype=float):
    """Uniform floats in [0, 1) of shape `size`, on the current device's RandomState, as its method of the
    same name (``get_random_state().random_sample``)."""
    return get_random_state().random_sample(size, dtype)


random = ranf = sample = random_sample


def randint(low, high=None, size=None, dtype=numpy.int64):
    """Uniform integers in [`low`, `high`) ([0, `low`) without `high`), on the current device's
    RandomState, as its method of the same name (``get_random_state().randint``)."""
    return get_random_state().randint(low, high, size, dtype)


def random_integers(low, high=None, size=None):
    """Integers in [low, high] ([1, low] without high): randint(low, high + 1, size), as NumPy's and CuPy's."""
    if high is None:
        low, high = 1, low
    return randint(low, high + 1, size)


def choice(a, size=None, replace=True, p=None):
    """A random sample from `a` (an array, or ``arange(a)`` for an int), with or without replacement, with
    probabilities `p`, on the current device's RandomState, as its method of the same name
    (``get_random_state().choice``)."""
    return get_random_state().choice(a, size, replace, p)


def multinomial(n, pvals, size=None):
    """Counts of `n` draws over the categories of probabilities `pvals`, on the current device's
    RandomState, as its method of the same name (``get_random_state().multinomial``)."""
    return get_random_state().multinomial(n, pvals, size)

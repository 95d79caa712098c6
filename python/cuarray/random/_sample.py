"""cuarray.random's uniform samples, integers, choice and multinomial on the current device's RandomState (CuPy's
cupy.random._sample)."""

import numpy

from cuarray.random._generator import get_random_state


def rand(*size, dtype=float):
    return get_random_state().rand(*size, dtype=dtype)


def randn(*size, dtype=float):
    return get_random_state().randn(*size, dtype=dtype)


def random_sample(size=None, dtype=float):
    return get_random_state().random_sample(size, dtype)


random = ranf = sample = random_sample


def randint(low, high=None, size=None, dtype=numpy.int64):
    return get_random_state().randint(low, high, size, dtype)


def random_integers(low, high=None, size=None):
    return get_random_state().random_integers(low, high, size)


def choice(a, size=None, replace=True, p=None):
    return get_random_state().choice(a, size, replace, p)


def multinomial(n, pvals, size=None):
    return get_random_state().multinomial(n, pvals, size)

"""cuarray.random: CuPy's random functions, generated on the device from Philox streams.

The process-wide generator of each device is seeded from CUARRAY_SEED (or CuPy's CUPY_SEED) when set, else
from fresh entropy; the same seed gives the same numbers on every run and every device of one kind.
"""

import numpy

from cuarray import _core
from cuarray.random._generator import Generator, Philox4x3210, default_rng
from cuarray.random._random_state import RandomState
from cuarray.random._sampler import environment_seed

__all__ = ["Generator", "Philox4x3210", "RandomState", "beta", "binomial", "choice", "default_rng",
           "exponential", "gamma", "get_random_state", "normal", "permutation", "poisson", "rand", "randint",
           "randn", "random", "random_integers", "random_sample", "ranf", "reset_states", "sample", "seed",
           "set_random_state", "shuffle", "standard_normal", "uniform"]

_states = {}  # device id -> RandomState


def get_random_state():
    """The current device's process-wide RandomState."""
    device = _core.cuda.current_device()
    state = _states.get(device)
    if state is None:
        state = _states[device] = RandomState(environment_seed())
    return state


def set_random_state(rs):
    """Makes `rs` the current device's process-wide RandomState."""
    if not isinstance(rs, RandomState):
        raise TypeError(f"set_random_state takes a RandomState, not {type(rs).__name__}")
    _states[_core.cuda.current_device()] = rs


def reset_states():
    """Forgets every device's RandomState; the next use seeds a new one from the environment."""
    _states.clear()


def seed(seed=None):
    """Reseeds the current device's RandomState (None: fresh entropy)."""
    get_random_state().seed(seed)


def rand(*size, dtype=float):
    return get_random_state().rand(*size, dtype=dtype)


def randn(*size, dtype=float):
    return get_random_state().randn(*size, dtype=dtype)


def random_sample(size=None, dtype=float):
    return get_random_state().random_sample(size, dtype)


random = ranf = sample = random_sample


def uniform(low=0.0, high=1.0, size=None, dtype=float):
    return get_random_state().uniform(low, high, size, dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=float):
    return get_random_state().normal(loc, scale, size, dtype)


def standard_normal(size=None, dtype=float):
    return get_random_state().standard_normal(size, dtype)


def exponential(scale=1.0, size=None, dtype=float):
    return get_random_state().exponential(scale, size, dtype)


def gamma(shape, scale=1.0, size=None, dtype=float):
    return get_random_state().gamma(shape, scale, size, dtype)


def beta(a, b, size=None, dtype=float):
    return get_random_state().beta(a, b, size, dtype)


def poisson(lam=1.0, size=None, dtype=numpy.int64):
    return get_random_state().poisson(lam, size, dtype)


def binomial(n, p, size=None, dtype=numpy.int64):
    return get_random_state().binomial(n, p, size, dtype)


def randint(low, high=None, size=None, dtype=numpy.int64):
    return get_random_state().randint(low, high, size, dtype)


def random_integers(low, high=None, size=None):
    return get_random_state().random_integers(low, high, size)


def choice(a, size=None, replace=True, p=None):
    return get_random_state().choice(a, size, replace, p)


def permutation(x):
    return get_random_state().permutation(x)


def shuffle(x):
    get_random_state().shuffle(x)

"""Fixed random states for a test, in CuPy's style: ``@fix_random()`` on a test function or a
``unittest.TestCase`` class seeds Python's ``random`` with 99, NumPy's global RandomState with 100 and cuarray's
with 101 around each test, and puts the previous states back after it (with
``CUPY_TEST_RANDOM_NONDETERMINISTIC=1``, fresh seeds instead)."""

import functools
import os
import random
import types
import unittest

import numpy

from cuarray.testing import _devices

__all__ = ["fix_random", "generate_seed"]

_saved = None  # (Python's state, NumPy's state, cuarray's RandomStates) while a test runs
_depth = 0  # set-ups not yet torn down: a nested one (repeat, retry) leaves the outer states alone


def _setup():
    global _saved, _depth
    _depth += 1
    if _depth > 1:
        return
    from cuarray.random import _generator

    _saved = (random.getstate(), numpy.random.get_state(), _generator._random_states)
    _generator.reset_states()  # a new dict: the saved one stays as it was
    fresh = bool(int(os.environ.get("CUPY_TEST_RANDOM_NONDETERMINISTIC", "0")))
    random.seed(None if fresh else 99)
    numpy.random.seed(None if fresh else 100)
    if _devices.device_count() > 0:  # seeding cuarray's state makes it on the current device
        import cuarray

        cuarray.random.seed(None if fresh else 101)


def _teardown():
    global _saved, _depth
    if _depth <= 0:
        raise AssertionError("fix_random: a tear-down without its set-up")
    _depth -= 1
    if _depth > 0:
        return
    from cuarray.random import _generator

    python_state, numpy_state, cuarray_states = _saved
    random.setstate(python_state)
    numpy.random.set_state(numpy_state)
    _generator._random_states = cuarray_states
    _saved = None


def generate_seed():
    """A seed drawn from NumPy's global RandomState; only inside a test under fix_random, so that it is
    reproducible."""
    if _depth <= 0:
        raise AssertionError("random is not set up: generate_seed() needs a test under fix_random()")
    return numpy.random.randint(0x7FFFFFFF)


def fix_random():
    """Decorator for a test function (named ``test_*``) or a ``unittest.TestCase`` class: the random states
    are fixed around each test, as the module docstring says; anything else is a ValueError."""

    def decorator(impl):
        if isinstance(impl, types.FunctionType) and impl.__name__.startswith("test_"):

            @functools.wraps(impl)
            def test(*args, **kwargs):
                _setup()
                try:
                    return impl(*args, **kwargs)
                finally:
                    _teardown()

            return test
        if isinstance(impl, type) and issubclass(impl, unittest.TestCase):
            set_up, tear_down = impl.setUp, impl.tearDown

            def setUp(self):
                _setup()
                set_up(self)

            def tearDown(self):
                try:
                    tear_down(self)
                finally:
                    _teardown()

            impl.setUp, impl.tearDown = setUp, tearDown
            return impl
        raise ValueError(f"Can't apply fix_random to {impl}")

    return decorator

"""Tests that run several times: ``repeat``, ``retry`` and ``repeat_with_success_at_least``, for tests of random
results. Private, as in CuPy, whose tests import it as ``from cupy.testing import _condition``."""

import functools
import os
import unittest

from cuarray.testing._loops import skip_classes

__all__ = []


def _trial(f, args, kwargs):
    """One run of the test: on a unittest.TestCase, with a fresh instance whose setUp and tearDown run around
    it (as in CuPy), so no state is carried from one trial to the next."""
    instance = args[0] if args else None
    if not isinstance(instance, unittest.TestCase):
        return f(*args, **kwargs)
    fresh = type(instance)(instance._testMethodName)
    fresh.setUp()
    try:
        return f(fresh, *args[1:], **kwargs)
    finally:
        fresh.tearDown()


def repeat_with_success_at_least(times, min_success):
    """Decorator: runs the test up to `times` times; it passes as soon as `min_success` trials passed, and
    fails, with the first trial's error, as soon as that can no longer happen. A trial that skips skips the
    test."""
    if times < min_success:
        raise AssertionError(f"times={times} is less than min_success={min_success}")

    def decorator(f):
        @functools.wraps(f)
        def test(*args, **kwargs):
            passed, errors = 0, []
            for _ in range(times):
                try:
                    _trial(f, args, kwargs)
                except skip_classes():
                    raise
                except Exception as e:  # noqa: BLE001 - a failed trial, counted
                    errors.append(e)
                else:
                    passed += 1
                if passed >= min_success:
                    return
                if len(errors) > times - min_success:
                    break
            raise AssertionError(
                f"Fail: {len(errors)}, Success: {passed} (needed {min_success} of {times})\n\n"
                f"The first error message:\n{type(errors[0]).__name__}: {errors[0]}"
            ) from errors[0]

        return test

    return decorator


def repeat(times, intensive_times=None):
    """Decorator: the test must pass `times` times in a row; with `intensive_times`, that many times unless
    ``CUPY_TEST_CASUAL=1``."""
    if intensive_times is not None and not int(os.environ.get("CUPY_TEST_CASUAL", "0")):
        times = intensive_times
    return repeat_with_success_at_least(times, times)


def retry(times):
    """Decorator: the test must pass once in at most `times` trials."""
    return repeat_with_success_at_least(times, 1)

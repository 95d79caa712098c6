"""What the numpy_cuarray_* decorators make of errors (and skips) raised by the two halves of a test.

Note [Compatible errors]
CuPy calls two errors compatible when ``isinstance`` answers alike for each of a short list of public classes
(AttributeError, Exception, IndexError, TypeError, ValueError, NotImplementedError, DeprecationWarning,
AxisError, LinAlgError), not when their classes are identical: NumPy raises private subclasses (its
``_UFuncOutputCastingError`` is a TypeError) where an implementation raises the public class, and two errors
that are only Exceptions on that list (KeyError and RuntimeError) count as alike. ``accept_error`` (True, a
class or a tuple of classes) then lets the test pass where both errors are instances of it. The first line of
each failure is CuPy's, so that a test that matches CuPy's text matches here; cuarray's explanation follows.
"""

import traceback

import numpy

from cuarray.testing._loops import skip_classes

__all__ = []

PUBLIC_ERRORS = (
    AttributeError,
    Exception,
    IndexError,
    TypeError,
    ValueError,
    NotImplementedError,
    DeprecationWarning,
    numpy.exceptions.AxisError,
    numpy.linalg.LinAlgError,
)


def compatible(a, b):
    """Note [Compatible errors]."""
    return all(isinstance(a, c) == isinstance(b, c) for c in PUBLIC_ERRORS)


def accepted_classes(accept_error):
    """`accept_error` as a class or tuple for isinstance: True is any Exception, False (or None) none."""
    if accept_error is True:
        return Exception
    return accept_error or ()


def _traceback(error):
    return "".join(traceback.format_exception(type(error), error, error.__traceback__)).rstrip()


def _both(numpy_error, cuarray_error):
    return f"--- xp=cuarray ---\n{_traceback(cuarray_error)}\n--- xp=numpy ---\n{_traceback(numpy_error)}"


def _skips(numpy_error, cuarray_error):
    """Both halves skipped: re-raise the skip where they skipped alike, else fail (CuPy does the same)."""
    if type(numpy_error) is not type(cuarray_error):
        raise AssertionError(
            f"Both numpy and cupy were skipped but with different exceptions: xp=numpy raised "
            f"{type(numpy_error).__name__}, xp=cuarray {type(cuarray_error).__name__}"
        )
    if numpy_error.args != cuarray_error.args:
        raise AssertionError(
            f"Both numpy and cupy were skipped but with different causes: xp=numpy {numpy_error.args!r}, "
            f"xp=cuarray {cuarray_error.args!r}"
        )
    raise numpy_error


def check_errors(label, numpy_error, cuarray_error, accept_error, must_raise):
    """Returns True where both halves raised compatible errors that `accept_error` accepts (the test passes),
    False where neither raised (and `must_raise` is False); raises AssertionError for every other outcome, and
    re-raises a skip that both halves raised alike."""
    skips = skip_classes()
    if isinstance(numpy_error, skips) and isinstance(cuarray_error, skips):
        _skips(numpy_error, cuarray_error)
    if numpy_error is None and cuarray_error is None:
        if must_raise:
            raise AssertionError(
                f"Both cupy and numpy are expected to raise errors, but not\n"
                f"{label}: neither xp=numpy nor xp=cuarray raised an error"
            )
        return False
    if cuarray_error is None:
        raise AssertionError(
            f"Only numpy raises error\n{label}: only xp=numpy raised an error, "
            f"{type(numpy_error).__name__}: {numpy_error}"
        ) from numpy_error
    if numpy_error is None:
        raise AssertionError(
            f"Only cupy raises error\n{label}: only xp=cuarray raised an error, "
            f"{type(cuarray_error).__name__}: {cuarray_error}"
        ) from cuarray_error
    if not compatible(numpy_error, cuarray_error):
        raise AssertionError(
            f"Different types of errors occurred\n{label}: xp=numpy raised {type(numpy_error).__name__} but "
            f"xp=cuarray raised {type(cuarray_error).__name__}\n{_both(numpy_error, cuarray_error)}"
        ) from cuarray_error
    accepted = accepted_classes(accept_error)
    if isinstance(numpy_error, accepted) and isinstance(cuarray_error, accepted):
        return True
    names = {type(numpy_error).__name__, type(cuarray_error).__name__}
    raise AssertionError(
        f"Both cupy and numpy raise exceptions\n{label}: both xp=numpy and xp=cuarray raised "
        f"{' and '.join(sorted(names))}, which accept_error={accept_error!r} does not accept\n"
        f"{_both(numpy_error, cuarray_error)}"
    ) from cuarray_error

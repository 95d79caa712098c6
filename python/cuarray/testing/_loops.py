"""The machinery behind the ``for_*`` decorators: run a test once per case, as a pytest parametrization where
pytest can parametrize it, and as a loop inside one call where it cannot.

Note [Parametrize, else loop]
CuPy's ``for_*`` decorators loop over their cases inside one call of the test. cuarray's were pytest
parametrize marks, which give one test per case with the case as its id (``test_add[float32]``), but a mark
does nothing on a ``unittest.TestCase`` method (pytest calls it with no arguments) or on a helper that a test
calls directly (``self.check_mode(a, 'r')`` with ``@for_dtypes('fdFD')`` on ``check_mode``). So the decorator
does both: it returns a wrapper that carries the mark (its signature, through ``functools.wraps``, still names
the arguments, so pytest fills them in), and the wrapper, called without those arguments, runs every case
itself, as CuPy's does. Where there is no case at all (``for_dtypes([])``), there is no mark: pytest would
skip the test as an empty parametrization, and CuPy runs it zero times and passes.

Note [A loop whose every case skipped]
In the loop, a case that skips (``pytest.skip``, ``unittest.SkipTest``) does not stop the others, as in CuPy.
Where every case skipped, CuPy reports the test as passed; cuarray re-raises the first skip, so the report
says skipped, which is what happened. Either way nothing fails.
"""

import functools
import inspect
import unittest

__all__ = []


def skip_classes():
    """The exceptions that mean "skip this test": unittest's, and pytest's where pytest is installed (its
    Skipped derives from BaseException, not Exception)."""
    try:
        from _pytest.outcomes import Skipped
    except ImportError:
        return (unittest.SkipTest,)
    return (unittest.SkipTest, Skipped)


def _given(signature, names, args, kwargs):
    """The `names` that this call gives (by keyword, or by position where the signature says so)."""
    given = {n for n in names if n in kwargs}
    try:
        given |= set(signature.bind_partial(*args, **kwargs).arguments) & set(names)
    except TypeError:
        pass  # a call that cannot bind fails in the body, with Python's own message
    return given


def run_cases(impl, args, kwargs, cases, describe):
    """impl(*args, **kwargs, **case) for each case (a dict), with Note [A loop whose every case skipped];
    an error gets a note naming the case (`describe(case)`), as CuPy prints it."""
    skips = skip_classes()
    first_skip, ran = None, False
    for case in cases:
        try:
            impl(*args, **{**kwargs, **case})
            ran = True
        except skips as e:
            first_skip = first_skip or e
        except Exception as e:
            if hasattr(e, "add_note"):  # Python 3.11+
                e.add_note(f"(with {describe(case)})")
            raise
    if first_skip is not None and not ran:
        raise first_skip


def add_mark(f, mark):
    """`f` (a function) with the pytest mark `mark`, stored as pytest stores it: ``mark(f)`` would take a lambda
    for the mark's argument rather than its target."""
    f.pytestmark = [*getattr(f, "pytestmark", []), mark.mark]
    return f


def hide(signature, names):
    return signature.replace(parameters=[p for p in signature.parameters.values() if p.name not in names])


def parametrize_or_loop(names, cases, ids):
    """Decorator (Note [Parametrize, else loop]): runs the test once per case, a tuple of values for `names`
    (a tuple of argument names), with `ids` as pytest's ids."""
    names = tuple(names)
    cases = [tuple(c) for c in cases]

    def describe(case):
        return ", ".join(f"{n}={v!r}" for n, v in case.items())

    def decorator(impl):
        signature = inspect.signature(impl)

        @functools.wraps(impl)
        def test(*args, **kwargs):
            given = _given(signature, names, args, kwargs)
            if len(given) == len(names):
                return impl(*args, **kwargs)
            if given:
                raise TypeError(
                    f"{impl.__qualname__}() was given {sorted(given)} but not "
                    f"{sorted(set(names) - given)}: give all of {list(names)} or none"
                )
            run_cases(impl, args, kwargs, [dict(zip(names, c)) for c in cases], describe)
            return None

        if not cases:
            test.__signature__ = hide(signature, names)
            return test
        import pytest

        if len(names) == 1:
            mark = pytest.mark.parametrize(names[0], [c[0] for c in cases], ids=list(ids))
        else:
            mark = pytest.mark.parametrize(names, cases, ids=list(ids))
        return add_mark(test, mark)

    return decorator

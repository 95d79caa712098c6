"""Memory-order and axis decorators in CuPy's style: ``for_orders``, ``for_CF_orders`` and
``for_contiguous_axes``."""

import functools
import inspect

from cuarray.testing._loops import hide, parametrize_or_loop, run_cases

__all__ = ["for_CF_orders", "for_contiguous_axes", "for_orders"]


def for_orders(orders, name="order"):
    """Decorator: runs the test once for each of `orders`, passed as argument `name` (a pytest test per order,
    or a loop where pytest cannot parametrize; Note [Parametrize, else loop] in _loops.py)."""
    orders = list(orders)
    return parametrize_or_loop((name,), [(o,) for o in orders], [str(o) for o in orders])


def for_CF_orders(name="order"):
    """Decorator: runs the test for the orders None, 'C', 'F', 'c' and 'f'."""
    return for_orders([None, "C", "F", "c", "f"], name)


def contiguous_axes(ndim, order):
    """The axes over which an array of `ndim` axes in memory order `order` is contiguous, longest first for C
    order (``(0, 1, 2), (1, 2), (2,)``) and shortest first for F order (``(0,), (0, 1), (0, 1, 2)``), as
    CuPy's loop gives them."""
    if order in ("c", "C"):
        return [tuple(range(i, ndim)) for i in range(ndim)]
    if order in ("f", "F"):
        return [tuple(range(i + 1)) for i in range(ndim)]
    raise ValueError("Please specify the array order.")


def for_contiguous_axes(name="axis"):
    """Decorator: runs the test once for each run of axes over which an array is contiguous, passed as
    argument `name`. The array's ``shape`` and ``order`` come from the test's keyword arguments (a pytest
    parametrization, as in CuPy), else from attributes of ``self`` (``testing.parameterize``). The axes depend
    on those values, so this decorator always loops inside the call: one test for all of them."""

    def decorator(impl):
        signature = inspect.signature(impl)

        @functools.wraps(impl)
        def test(*args, **kwargs):
            def given(key):  # CuPy's needs the keyword and a `self`; a plain function works here too
                return kwargs[key] if key in kwargs else getattr(args[0], key)

            shape, order = given("shape"), given("order")

            def describe(case):
                return f"{name}={case[name]!r}, shape={shape!r}, order={order!r}"

            cases = [{name: axes} for axes in contiguous_axes(len(shape), order)]
            run_cases(impl, args, kwargs, cases, describe)

        test.__signature__ = hide(signature, (name,))
        return test

    return decorator

"""Decorators that run a test body once with ``xp=numpy`` and once with ``xp=cuarray`` and compare what the two
runs return (CuPy's ``numpy_cupy_*`` decorators under cuarray's names).

The decorated test returns an array, a scalar, or a tuple or list of them. pytest sees its signature without
the injected module arguments, so fixtures and parametrization (``for_dtypes``) fill in the rest. Without a
GPU the test skips with a reason before either half runs.
"""

import functools
import importlib
import inspect
import traceback

import numpy
import numpy.testing as _npt

from cuarray.testing import _devices

__all__ = [
    "numpy_cuarray_allclose",
    "numpy_cuarray_array_equal",
    "numpy_cuarray_array_less",
    "numpy_cuarray_raises",
]


def _cuarray_half():
    """(array module, name of its SciPy namespace, its array type) for the cuarray half: one function, so that
    the tests of these decorators can stand in a host imitation where there is no GPU."""
    import cuarray

    return cuarray, "cuarray.scipy", cuarray.ndarray


def _modules(name, xp, scipy_name, scipy_module):
    import pytest

    injected = {name: xp}
    if scipy_name is not None:
        try:
            injected[scipy_name] = importlib.import_module(scipy_module)
        except ImportError:
            pytest.skip(f"{scipy_module} is not installed")
    return injected


def _run(impl, args, kwargs, injected):
    """(result, None) or (None, the exception the test body raised)."""
    try:
        return impl(*args, **kwargs, **injected), None
    except Exception as e:  # noqa: BLE001 - compared between the two halves
        return None, e


def _traceback(error):
    return "".join(traceback.format_exception(error)).rstrip()


def _check_errors(label, numpy_error, cuarray_error, accept_error, must_raise):
    """True where both halves raised the same accepted error (the test passes), False where neither raised;
    AssertionError for every other outcome."""
    accepted = Exception if accept_error is True else (accept_error or ())
    if numpy_error is None and cuarray_error is None:
        if must_raise:
            raise AssertionError(f"{label}: neither xp=numpy nor xp=cuarray raised an error")
        return False
    if cuarray_error is None:
        raise AssertionError(
            f"{label}: only xp=numpy raised an error, {type(numpy_error).__name__}: {numpy_error}"
        ) from numpy_error
    if numpy_error is None:
        raise AssertionError(
            f"{label}: only xp=cuarray raised an error, {type(cuarray_error).__name__}: {cuarray_error}"
        ) from cuarray_error
    if type(numpy_error) is not type(cuarray_error):
        raise AssertionError(
            f"{label}: xp=numpy raised {type(numpy_error).__name__} but xp=cuarray raised "
            f"{type(cuarray_error).__name__}\n--- xp=numpy ---\n{_traceback(numpy_error)}\n"
            f"--- xp=cuarray ---\n{_traceback(cuarray_error)}"
        ) from cuarray_error
    if isinstance(cuarray_error, accepted):
        return True
    raise AssertionError(
        f"{label}: both xp=numpy and xp=cuarray raised {type(cuarray_error).__name__}, which "
        f"accept_error={accept_error!r} does not accept\n--- xp=numpy ---\n"
        f"{_traceback(numpy_error)}\n--- xp=cuarray ---\n{_traceback(cuarray_error)}"
    ) from cuarray_error


def _kind(x):
    return f"{type(x).__module__}.{type(x).__qualname__}"


def _pairs(label, numpy_result, cuarray_result):
    """[(where, numpy value, cuarray value)]: one pair, or one per element of a returned tuple or list."""
    if not isinstance(numpy_result, (tuple, list)):
        return [("the result", numpy_result, cuarray_result)]
    if not isinstance(cuarray_result, (tuple, list)) or len(cuarray_result) != len(numpy_result):
        got = (
            f"{len(cuarray_result)} values"
            if isinstance(cuarray_result, (tuple, list))
            else _kind(cuarray_result)
        )
        raise AssertionError(
            f"{label}: xp=numpy returned {len(numpy_result)} values, xp=cuarray returned {got}"
        )
    return [(f"result[{i}]", n, c) for i, (n, c) in enumerate(zip(numpy_result, cuarray_result))]


def _as_arrays(label, where, n, c, array_type):
    """The pair as (NumPy array or scalar, device array or NumPy scalar), or AssertionError where the kinds of
    result do not correspond (a host array from the cuarray half most often means it never reached the GPU)."""
    for value, side in ((n, "xp=numpy"), (c, "xp=cuarray")):
        if value is None:
            raise AssertionError(
                f"{label}: {where} is None with {side}; the decorated test must return the values to compare"
            )
    if isinstance(c, array_type) and isinstance(n, (numpy.ndarray, numpy.generic)):
        return n, c
    if isinstance(c, numpy.generic) and isinstance(n, numpy.generic):
        return n, c
    scalars = (bool, int, float, complex)
    if isinstance(n, scalars) and isinstance(c, scalars):
        return numpy.asarray(n), numpy.asarray(c)
    hint = (
        " (a host array: the cuarray half did not compute on the GPU)" if isinstance(c, numpy.ndarray) else ""
    )
    raise AssertionError(
        f"{label}: {where} is a {_kind(n)} with xp=numpy but a {_kind(c)} with xp=cuarray{hint}"
    )


def _host(c, array_type):
    return c.get() if isinstance(c, array_type) else numpy.asarray(c)


def _check_layout(label, where, n, c, array_type, type_check, contiguous_check, strides_check):
    if type_check and n.dtype != c.dtype:
        raise AssertionError(
            f"{label}: {where} has dtype {n.dtype} with xp=numpy but {c.dtype} with xp=cuarray"
        )
    if not (isinstance(n, numpy.ndarray) and isinstance(c, array_type)):
        return
    if contiguous_check:
        for flag in ("c_contiguous", "f_contiguous"):
            if getattr(n.flags, flag) and not getattr(c.flags, flag):
                raise AssertionError(
                    f"{label}: {where} is {flag} with xp=numpy but not with xp=cuarray (shape "
                    f"{n.shape}, strides {n.strides} and {c.strides})"
                )
    if strides_check and n.strides != tuple(c.strides):
        raise AssertionError(
            f"{label}: {where} has strides {n.strides} with xp=numpy but {tuple(c.strides)} with xp=cuarray"
        )


# For each NumPy assertion: what its failure means, and the names its message gives the two values.
_RELATIONS = {
    _npt.assert_allclose: ("is not close to", "ACTUAL", "DESIRED"),
    _npt.assert_array_equal: ("is not equal to", "ACTUAL", "DESIRED"),
    _npt.assert_array_less: ("is not less than", "x", "y"),
}


def _check_values(label, where, n, c, array_type, assertion, err_msg, verbose, **options):
    """`assertion(cuarray value, numpy value)`, failing with a message that names both."""
    host = _host(c, array_type)
    expected = numpy.asarray(n)
    try:
        assertion(host, expected, err_msg=err_msg, verbose=False, **options)
    except AssertionError as e:
        relation, actual, desired = _RELATIONS[assertion]
        text = (
            f"{label}: {where} with xp=cuarray ({actual} below) {relation} the one with xp=numpy ({desired})\n"
            f"{str(e).strip()}"
        )
        if verbose:
            text += f"\n xp=cuarray: {host!r}\n xp=numpy:   {expected!r}"
        raise AssertionError(text) from None


def _tolerance(tol, dtype, which):
    """A tolerance, or the one a dict gives for `dtype` (its 'default' where it names no such dtype)."""
    if not isinstance(tol, dict):
        return tol
    for key, value in tol.items():
        if not (isinstance(key, str) and key == "default") and numpy.dtype(key) == dtype:
            return value
    if "default" in tol:
        return tol["default"]
    raise TypeError(f"{which}={tol!r} gives no tolerance for {dtype} and has no 'default'")


def _decorate(label, name, scipy_name, sp_name, accept_error, check=None):
    """The decorator that runs both halves, then `check(where, numpy value, cuarray value, array type)` on each
    returned pair; without `check` both halves must raise."""
    if sp_name is not None:
        raise NotImplementedError(
            f"{label}: cuarray has no sparse matrices, so sp_name={sp_name!r} has no "
            f"cuarray module to receive"
        )
    injected = [n for n in (name, scipy_name) if n is not None]

    def decorator(impl):
        signature = inspect.signature(impl)
        takes_any = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())
        for arg in injected:
            if arg not in signature.parameters and not takes_any:
                raise TypeError(
                    f"{label}: {impl.__qualname__}() has no parameter {arg!r} to receive the module"
                )

        @functools.wraps(impl)
        def test(*args, **kwargs):
            import pytest

            reason = _devices.skip_reason(1)
            if reason is not None:
                pytest.skip(f"{reason}; {label} ran neither the numpy nor the cuarray half")
            xp, scipy_module, array_type = _cuarray_half()
            numpy_result, numpy_error = _run(impl, args, kwargs, _modules(name, numpy, scipy_name, "scipy"))
            cuarray_result, cuarray_error = _run(
                impl, args, kwargs, _modules(name, xp, scipy_name, scipy_module)
            )
            if _check_errors(label, numpy_error, cuarray_error, accept_error, must_raise=check is None):
                return
            for where, n, c in _pairs(label, numpy_result, cuarray_result):
                n, c = _as_arrays(label, where, n, c, array_type)
                check(where, n, c, array_type)

        test.__signature__ = signature.replace(
            parameters=[p for p in signature.parameters.values() if p.name not in injected]
        )
        return test

    return decorator


def numpy_cuarray_allclose(
    rtol=1e-7,
    atol=0,
    err_msg="",
    verbose=True,
    name="xp",
    type_check=True,
    accept_error=False,
    sp_name=None,
    scipy_name=None,
    contiguous_check=True,
):
    """Decorator: the test's results with ``xp=numpy`` and ``xp=cuarray`` must be close (NumPy's assert_allclose;
    `rtol` and `atol` are numbers, or dicts from dtype to number with an optional ``'default'``), of one dtype if
    `type_check`, and contiguous alike if `contiguous_check`. `accept_error` (True, an exception type or a tuple
    of them) lets the test pass where both halves raise the same accepted error. `scipy_name` names an argument
    that receives ``scipy`` or ``cuarray.scipy``. With `verbose`, a failure shows both results."""
    label = "numpy_cuarray_allclose"

    def check(where, n, c, array_type):
        _check_layout(label, where, n, c, array_type, type_check, contiguous_check, False)
        _check_values(
            label,
            where,
            n,
            c,
            array_type,
            _npt.assert_allclose,
            err_msg,
            verbose,
            rtol=_tolerance(rtol, n.dtype, "rtol"),
            atol=_tolerance(atol, n.dtype, "atol"),
        )

    return _decorate(label, name, scipy_name, sp_name, accept_error, check)


def numpy_cuarray_array_equal(
    err_msg="",
    verbose=True,
    name="xp",
    type_check=True,
    accept_error=False,
    sp_name=None,
    scipy_name=None,
    strides_check=False,
):
    """Decorator: the test's results with ``xp=numpy`` and ``xp=cuarray`` must be equal (NaNs equal), of one
    dtype if `type_check`, with the same strides if `strides_check`; the other arguments as in
    numpy_cuarray_allclose."""
    label = "numpy_cuarray_array_equal"

    def check(where, n, c, array_type):
        _check_layout(label, where, n, c, array_type, type_check, False, strides_check)
        _check_values(label, where, n, c, array_type, _npt.assert_array_equal, err_msg, verbose)

    return _decorate(label, name, scipy_name, sp_name, accept_error, check)


def numpy_cuarray_array_less(
    err_msg="", verbose=True, name="xp", type_check=True, accept_error=False, sp_name=None, scipy_name=None
):
    """Decorator: the test's result with ``xp=cuarray`` must be less, element by element, than its result with
    ``xp=numpy``; the other arguments as in numpy_cuarray_allclose."""
    label = "numpy_cuarray_array_less"

    def check(where, n, c, array_type):
        _check_layout(label, where, n, c, array_type, type_check, False, False)
        _check_values(label, where, n, c, array_type, _npt.assert_array_less, err_msg, verbose)

    return _decorate(label, name, scipy_name, sp_name, accept_error, check)


def numpy_cuarray_raises(name="xp", sp_name=None, scipy_name=None, accept_error=Exception):
    """Decorator: the test must raise with ``xp=numpy`` and with ``xp=cuarray``, an exception of one type that
    is an instance of `accept_error`."""
    return _decorate("numpy_cuarray_raises", name, scipy_name, sp_name, accept_error)

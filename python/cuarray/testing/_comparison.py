"""Decorators that run a test body once with ``xp=cuarray`` and once with ``xp=numpy`` and compare what the two
runs return: CuPy's ``numpy_cupy_*`` decorators, under CuPy's names and under cuarray's (``numpy_cuarray_*``),
the same objects.

The decorated test returns an array, a scalar, a poly1d, or a tuple or list of them. pytest sees its signature
without the injected module arguments, so fixtures and parametrization (``for_dtypes``) fill in the rest.
Without a GPU the test skips with a reason before either half runs.

Note [The cuarray half runs first]
As in CuPy, the cuarray half runs before the NumPy half. The order matters only to a body that changes shared
state, such as a host array it is given or an unseeded global random state; a test written for CuPy then sees
the same state in each half as under CuPy.
"""

import functools
import importlib
import inspect
import warnings

import numpy
import numpy.testing as _npt

from cuarray.testing import _devices, _errors, _results
from cuarray.testing._loops import skip_classes

__all__ = [
    "numpy_cuarray_allclose",
    "numpy_cuarray_array_almost_equal",
    "numpy_cuarray_array_almost_equal_nulp",
    "numpy_cuarray_array_equal",
    "numpy_cuarray_array_less",
    "numpy_cuarray_array_list_equal",
    "numpy_cuarray_array_max_ulp",
    "numpy_cuarray_equal",
    "numpy_cuarray_raises",
    "numpy_cupy_allclose",
    "numpy_cupy_array_almost_equal",
    "numpy_cupy_array_almost_equal_nulp",
    "numpy_cupy_array_equal",
    "numpy_cupy_array_less",
    "numpy_cupy_array_list_equal",
    "numpy_cupy_array_max_ulp",
    "numpy_cupy_equal",
    "numpy_cupy_raises",
]


def _cuarray_half():
    """(array module, name of its SciPy namespace, its array type) for the cuarray half: one function, so that
    the tests of these decorators can stand in a host imitation where there is no GPU."""
    import cuarray

    return cuarray, "cuarray.scipy", cuarray.ndarray


def _modules(name, xp, scipy_name, scipy_module, sp_name):
    """The arguments that carry the modules: `xp`, SciPy's namespace and its sparse module. A SciPy that is not
    installed skips the test; a sparse module that does not exist fails it (cuarray has no sparse matrices),
    only when the test runs, never when it is decorated."""
    import pytest

    injected = {name: xp}
    for arg, module in ((scipy_name, scipy_module), (sp_name, f"{scipy_module}.sparse")):
        if arg is None:
            continue
        try:
            injected[arg] = importlib.import_module(module)
        except ImportError as e:
            if module.startswith("scipy"):
                pytest.skip(f"{module} is not installed")
            raise NotImplementedError(
                f"{module} does not exist (cuarray has no sparse matrices), so the argument {arg!r} has no "
                f"module to receive with xp={xp.__name__}"
            ) from e
    return injected


def _run(impl, args, kwargs, injected):
    """(result, None) or (None, the exception or skip the test body raised). An error raised by the call
    itself, before the body ran (an unexpected keyword), is raised as it is, as in CuPy."""
    try:
        return impl(*args, **kwargs, **injected), None
    except (Exception, *skip_classes()) as e:
        if e.__traceback__ is not None and e.__traceback__.tb_next is None:
            raise
        return None, e


def _decorate(label, name, scipy_name, sp_name, accept_error, compare=None):
    """The decorator that runs both halves (Note [The cuarray half runs first]), then
    `compare(cuarray result, numpy result, run_cuarray)` unless both raised; without `compare` both halves must
    raise."""
    injected = [n for n in (name, scipy_name, sp_name) if n is not None]

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

            def run_cuarray(kw):
                return _run(impl, args, kw, _modules(name, xp, scipy_name, scipy_module, sp_name))

            cuarray_result, cuarray_error = run_cuarray(kwargs)
            numpy_result, numpy_error = _run(
                impl, args, kwargs, _modules(name, numpy, scipy_name, "scipy", sp_name)
            )
            if _errors.check_errors(
                label, numpy_error, cuarray_error, accept_error, must_raise=compare is None
            ):
                return
            compare(numpy_result, cuarray_result, (xp, array_type), kwargs, run_cuarray)

        test.__signature__ = signature.replace(
            parameters=[p for p in signature.parameters.values() if p.name not in injected]
        )
        return test

    return decorator


def _host(c, array_type):
    return c.get() if isinstance(c, array_type) else numpy.asarray(c)


def _masks(label, kwargs, pairs, run_cuarray, array_type):
    """Note [Negative values cast to unsigned types] in _results.py: per pair, the elements to compare (None:
    all of them)."""
    if not _results.needs_masks(kwargs, pairs):
        return [None] * len(pairs)
    result, error = run_cuarray(_results.signed_kwargs(kwargs))
    if error is not None:
        raise AssertionError(
            f"{label}: the rerun of the cuarray half with signed dtypes (to find negative values cast to "
            f"unsigned ones) raised {type(error).__name__}: {error}"
        ) from error
    signed = result if isinstance(result, (tuple, list)) else (result,)
    if len(signed) != len(pairs):
        raise AssertionError(
            f"{label}: the rerun of the cuarray half with signed dtypes returned {len(signed)} values, not "
            f"{len(pairs)}"
        )
    return [_host(s, array_type) >= 0 if p.cuarray.dtype.kind == "u" else None for p, s in zip(pairs, signed)]


def _values_compare(label, assertion, relation, names, verbose, type_check, contiguous_check, strides_check):
    """compare() for _decorate: kinds, dtypes (`type_check`), layouts, shapes, then the values by
    `assertion(cuarray host array, numpy array, dtype)`, which raises AssertionError."""

    def compare(numpy_result, cuarray_result, half, kwargs, run_cuarray):
        found = [
            _results.convert(label, where, n, c, half)
            for where, n, c in _results.pairs(label, numpy_result, cuarray_result)
        ]
        for pair in found:
            if type_check:
                _results.check_dtype(label, pair)
            if pair.arrays and contiguous_check:
                _results.check_contiguity(label, pair)
            _results.check_shape(label, pair)
            if strides_check:
                _results.check_strides(label, pair)
        for pair, mask in zip(found, _masks(label, kwargs, found, run_cuarray, half[1])):
            host, expected = _host(pair.cuarray, half[1]), numpy.asarray(pair.numpy)
            if mask is not None:
                if mask.shape != host.shape:
                    raise AssertionError(
                        f"{label}: {pair.where} has shape {mask.shape} in the rerun of the cuarray half with "
                        f"signed dtypes, {host.shape} with the unsigned ones"
                    )
                if host.ndim == 0 and not mask:
                    continue  # the one element was negative before its cast
                host, expected = host[mask], expected[mask]
            try:
                assertion(host, expected, pair.cuarray.dtype)
            except AssertionError as e:
                # `names`: what NumPy's message calls the two values (None where it calls them nothing).
                cuarray_is, numpy_is = (f" ({names[0]} below)", f" ({names[1]})") if names else ("", "")
                text = (
                    f"{label}: {pair.where} with xp=cuarray{cuarray_is} {relation} the one with "
                    f"xp=numpy{numpy_is}\n{str(e).strip()}"
                )
                if verbose:
                    text += f"\n xp=cuarray: {host!r}\n xp=numpy:   {expected!r}"
                raise AssertionError(text) from None

    return compare


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
    """Decorator: the test's results with ``xp=cuarray`` and ``xp=numpy`` must be close (NumPy's
    assert_allclose), of one shape, of one dtype if `type_check`, and contiguous alike if `contiguous_check`.
    `rtol` and `atol` are numbers, or dicts from dtype (``numpy.float16``, ``'float16'``) to number with an
    optional ``'default'``, looked up by the cuarray result's dtype. `accept_error` (True, an exception class
    or a tuple of them) lets the test pass where both halves raise compatible errors it accepts.
    `scipy_name` names an argument that receives ``scipy`` or ``cuarray.scipy``, `sp_name` one that receives
    their sparse modules. With `verbose`, a failure shows both results."""
    _results.check_tolerance_keys("rtol", rtol)
    _results.check_tolerance_keys("atol", atol)

    def assertion(host, expected, dtype):
        _npt.assert_allclose(
            host,
            expected,
            rtol=_results.tolerance(rtol, dtype, "rtol"),
            atol=_results.tolerance(atol, dtype, "atol"),
            err_msg=err_msg,
            verbose=False,
        )

    compare = _values_compare(
        "numpy_cuarray_allclose",
        assertion,
        "is not close to",
        ("ACTUAL", "DESIRED"),
        verbose,
        type_check,
        contiguous_check,
        False,
    )
    return _decorate("numpy_cuarray_allclose", name, scipy_name, sp_name, accept_error, compare)


def numpy_cuarray_array_almost_equal(
    decimal=6,
    err_msg="",
    verbose=True,
    name="xp",
    type_check=True,
    accept_error=False,
    sp_name=None,
    scipy_name=None,
):
    """Decorator: the results must agree to `decimal` decimals (NumPy's assert_array_almost_equal); the other
    arguments as in numpy_cuarray_allclose."""

    def assertion(host, expected, dtype):
        _npt.assert_array_almost_equal(host, expected, decimal=decimal, err_msg=err_msg, verbose=False)

    label = "numpy_cuarray_array_almost_equal"
    compare = _values_compare(
        label, assertion, "is not almost equal to", ("ACTUAL", "DESIRED"), verbose, type_check, False, False
    )
    return _decorate(label, name, scipy_name, sp_name, accept_error, compare)


def numpy_cuarray_array_almost_equal_nulp(
    nulp=1, name="xp", type_check=True, accept_error=False, sp_name=None, scipy_name=None
):
    """Decorator: the results must be within `nulp` units in the last place of each other, relative to their
    spacing (NumPy's assert_array_almost_equal_nulp). As in CuPy, `scipy_name` is accepted and ignored: the
    test gets no SciPy argument."""

    def assertion(host, expected, dtype):
        _npt.assert_array_almost_equal_nulp(host, expected, nulp=nulp)

    label = "numpy_cuarray_array_almost_equal_nulp"
    compare = _values_compare(label, assertion, "is not within nulp of", None, True, type_check, False, False)
    return _decorate(label, name, None, sp_name, accept_error, compare)


def numpy_cuarray_array_max_ulp(
    maxulp=1, dtype=None, name="xp", type_check=True, accept_error=False, sp_name=None, scipy_name=None
):
    """Decorator: the results must differ by at most `maxulp` units in the last place, after conversion to
    `dtype` if given (NumPy's assert_array_max_ulp)."""

    def assertion(host, expected, result_dtype):
        _npt.assert_array_max_ulp(host, expected, maxulp=maxulp, dtype=dtype)

    label = "numpy_cuarray_array_max_ulp"
    compare = _values_compare(
        label, assertion, "is not within maxulp of", None, True, type_check, False, False
    )
    return _decorate(label, name, scipy_name, sp_name, accept_error, compare)


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
    """Decorator: the test's results with ``xp=cuarray`` and ``xp=numpy`` must be equal (NaNs equal), of one
    shape, of one dtype if `type_check`, with the same strides if `strides_check`; the other arguments as in
    numpy_cuarray_allclose."""

    def assertion(host, expected, dtype):
        _npt.assert_array_equal(host, expected, err_msg=err_msg, verbose=False)

    label = "numpy_cuarray_array_equal"
    compare = _values_compare(
        label, assertion, "is not equal to", ("ACTUAL", "DESIRED"), verbose, type_check, False, strides_check
    )
    return _decorate(label, name, scipy_name, sp_name, accept_error, compare)


def numpy_cuarray_array_list_equal(err_msg="", verbose=True, name="xp", sp_name=None, scipy_name=None):
    """Decorator (deprecated in CuPy, and warns so here): the results, lists of arrays, must be equal element
    by element; dtypes are not compared and no error is accepted. Use numpy_cuarray_array_equal instead."""
    warnings.warn(
        "numpy_cupy_array_list_equal is deprecated. Use numpy_cupy_array_equal instead.",
        DeprecationWarning,
        stacklevel=2,
    )

    def assertion(host, expected, dtype):
        _npt.assert_array_equal(host, expected, err_msg=err_msg, verbose=False)

    label = "numpy_cuarray_array_list_equal"
    compare = _values_compare(
        label, assertion, "is not equal to", ("ACTUAL", "DESIRED"), verbose, False, False, False
    )
    return _decorate(label, name, scipy_name, sp_name, False, compare)


def numpy_cuarray_array_less(
    err_msg="", verbose=True, name="xp", type_check=True, accept_error=False, sp_name=None, scipy_name=None
):
    """Decorator: the test's result with ``xp=cuarray`` must be less, element by element, than its result with
    ``xp=numpy``; the other arguments as in numpy_cuarray_allclose."""

    def assertion(host, expected, dtype):
        _npt.assert_array_less(host, expected, err_msg=err_msg, verbose=False)

    label = "numpy_cuarray_array_less"
    compare = _values_compare(
        label, assertion, "is not less than", ("x", "y"), verbose, type_check, False, False
    )
    return _decorate(label, name, scipy_name, sp_name, accept_error, compare)


def numpy_cuarray_equal(name="xp", sp_name=None, scipy_name=None):
    """Decorator: the test's results with ``xp=cuarray`` and ``xp=numpy`` must be equal by ``!=`` (plain Python
    values: shapes, dtypes, strings, None); no kind or dtype rules, and no error is accepted."""
    label = "numpy_cuarray_equal"

    def compare(numpy_result, cuarray_result, half, kwargs, run_cuarray):
        if cuarray_result != numpy_result:
            raise AssertionError(
                f"Results are not equal:\n{label}: xp=cuarray returned {cuarray_result!s}, xp=numpy returned "
                f"{numpy_result!s}"
            )

    return _decorate(label, name, scipy_name, sp_name, False, compare)


def numpy_cuarray_raises(name="xp", sp_name=None, scipy_name=None, accept_error=Exception):
    """Decorator: the test must raise with ``xp=cuarray`` and with ``xp=numpy``, compatible errors that are
    instances of `accept_error` (CuPy deprecates it, for numpy_cupy_allclose(accept_error=...); this one does
    not warn)."""
    return _decorate("numpy_cuarray_raises", name, scipy_name, sp_name, accept_error)


# CuPy's names: the same objects.
numpy_cupy_allclose = numpy_cuarray_allclose
numpy_cupy_array_almost_equal = numpy_cuarray_array_almost_equal
numpy_cupy_array_almost_equal_nulp = numpy_cuarray_array_almost_equal_nulp
numpy_cupy_array_equal = numpy_cuarray_array_equal
numpy_cupy_array_less = numpy_cuarray_array_less
numpy_cupy_array_list_equal = numpy_cuarray_array_list_equal
numpy_cupy_array_max_ulp = numpy_cuarray_array_max_ulp
numpy_cupy_equal = numpy_cuarray_equal
numpy_cupy_raises = numpy_cuarray_raises

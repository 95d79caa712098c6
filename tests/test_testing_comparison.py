"""cuarray.testing's comparison decorators as CuPy 14.2's cupy.testing has them: CuPy's names, the shape check,
compatible errors, skips inside the body, scalars, poly1d, unsigned results, the order of the halves, and the
decorators cuarray lacked (numpy_cupy_equal, _array_almost_equal, _nulp, _max_ulp, _array_list_equal).

Without a GPU the cuarray half runs with NumPy standing in (`host_half`, from test_testing.py); the gpu-marked
tests run the same cases on cuarray itself.
"""

import unittest
import warnings

import cuarray as cp
import numpy as np
import pytest
import test_testing
from cuarray import testing
from cuarray.testing import _comparison, _devices
from test_testing import HostArray, HostCuarray, fails

host_half = test_testing.host_half  # the fixture: the cuarray half runs on NumPy, as if on one GPU

PAIRS = [
    ("allclose", {}),
    ("array_equal", {}),
    ("array_less", {}),
    ("array_almost_equal", {}),
    ("array_almost_equal_nulp", {}),
    ("array_max_ulp", {}),
    ("equal", {}),
    ("raises", {}),
]


def gpu_side(xp):
    return xp is not np


@pytest.mark.parametrize("kind", [k for k, _ in PAIRS])
def test_cupy_names_are_cuarray_decorators(kind):
    assert getattr(testing, f"numpy_cupy_{kind}") is getattr(testing, f"numpy_cuarray_{kind}")


def test_array_list_equal_names_warn_as_cupy():
    assert testing.numpy_cupy_array_list_equal is testing.numpy_cuarray_array_list_equal
    with pytest.warns(DeprecationWarning, match="numpy_cupy_array_list_equal is deprecated"):
        testing.numpy_cupy_array_list_equal()


# ----------------------------------------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "numpy_value,gpu_value",
    [
        (np.array(2.0), [2.0]),
        (np.array([2.0]), 2.0),
        (np.float64(2.0), [2.0]),
        (np.ones((2, 1)), np.ones((1, 2))),
    ],
    ids=["0d_vs_1", "1_vs_0d", "scalar_vs_1", "transposed"],
)
@pytest.mark.parametrize("kind", ["allclose", "array_equal", "array_almost_equal"])
def test_shapes_are_compared_before_values(host_half, kind, numpy_value, gpu_value):
    """NumPy's assertions broadcast a 0-d side: without CuPy's shape check these passed."""

    def body(xp):
        return xp.asarray(gpu_value) if gpu_side(xp) else numpy_value

    fails(getattr(testing, f"numpy_cupy_{kind}")()(body), "has shape")


@pytest.mark.parametrize(
    "numpy_value,gpu_value,type_check",
    [
        (3, np.int64(3), True),
        (True, np.bool_(True), True),
        (1.5, np.float32(1.5), False),
        (np.float64(2), 2.0, True),
    ],
    ids=["int_vs_int64", "bool_vs_bool_", "float_vs_float32", "float64_vs_float"],
)
def test_python_and_numpy_scalars_compare_alike(host_half, numpy_value, gpu_value, type_check):
    testing.numpy_cupy_allclose(type_check=type_check)(
        lambda xp: gpu_value if gpu_side(xp) else numpy_value
    )()


def test_a_numpy_scalar_against_a_0d_numpy_array_fails(host_half):
    fails(
        testing.numpy_cupy_allclose()(lambda xp: np.float64(1) if gpu_side(xp) else np.array(1.0)),
        "numpy and cupy returns different type of return value",
    )


def test_a_single_value_against_a_tuple_of_one(host_half):
    testing.numpy_cupy_array_equal()(lambda xp: xp.arange(2) if gpu_side(xp) else (xp.arange(2),))()


def test_poly1d_results_compare_variable_and_coefficients(host_half):
    testing.numpy_cupy_allclose()(lambda xp: xp.poly1d([1.0, 2.0, 3.0], variable="z"))()
    fails(
        testing.numpy_cupy_allclose()(
            lambda xp: xp.poly1d([1.0, 2.0], variable="z" if gpu_side(xp) else "x")
        ),
        "poly1d in 'x' with xp=numpy but in 'z'",
    )
    fails(
        testing.numpy_cupy_allclose()(lambda xp: xp.poly1d([1.0, 2.0 if gpu_side(xp) else 3.0])),
        "is not close to",
    )


def test_the_cuarray_half_runs_first(host_half):
    order = []

    @testing.numpy_cupy_allclose()
    def body(xp):
        order.append("cuarray" if gpu_side(xp) else "numpy")
        return xp.ones(1)

    body()
    assert order == ["cuarray", "numpy"]


def test_tolerance_dicts(host_half):
    def body(xp, dtype):
        return xp.ones(3, dtype=dtype) * (1.0001 if gpu_side(xp) else 1)

    tol = {np.float16: 1e-3, "default": 1e-7}
    testing.numpy_cupy_allclose(rtol=tol)(body)(dtype=np.float16)
    fails(lambda: testing.numpy_cupy_allclose(rtol=tol)(body)(dtype=np.float64), "not close")
    # cuarray's own keys (names, dtype objects) keep working; a key naming no dtype fails when decorating.
    testing.numpy_cupy_allclose(rtol={"float64": 1e-3})(body)(dtype=np.float64)
    testing.numpy_cupy_allclose(atol={np.dtype("float32"): 1e-3})(body)(dtype=np.float32)
    with pytest.raises(TypeError, match="keys of a tolerance dict are dtypes"):
        testing.numpy_cupy_allclose(rtol={"nope": 1e-3})
    # Looked up by the cuarray result's dtype, as CuPy does.
    mixed = testing.numpy_cupy_allclose(rtol={np.float32: 1e-3, "default": 0}, type_check=False)

    def widened(xp):
        return xp.ones(3, dtype=np.float32 if gpu_side(xp) else np.float64) * (1.0001 if gpu_side(xp) else 1)

    mixed(widened)()


# ----------------------------------------------------------------------------------------------------------
# Errors and skips
# ----------------------------------------------------------------------------------------------------------


class SubTypeError(TypeError):
    pass


@pytest.mark.parametrize(
    "numpy_error,gpu_error,accept,passes",
    [
        (SubTypeError, TypeError, TypeError, True),
        (KeyError, RuntimeError, True, True),
        (ZeroDivisionError, FloatingPointError, True, True),
        (np.exceptions.AxisError, ValueError, True, False),
        (ValueError, TypeError, True, False),
        (ValueError, ValueError, (KeyError, ValueError), True),
        (ValueError, ValueError, False, False),
    ],
    ids=["subclass", "plain_exceptions", "arithmetic", "axiserror", "different", "tuple", "not_accepted"],
)
def test_errors_are_compatible_by_public_classes(host_half, numpy_error, gpu_error, accept, passes):
    def body(xp):
        raise (gpu_error if gpu_side(xp) else numpy_error)("boom")

    decorated = testing.numpy_cupy_allclose(accept_error=accept)(body)
    if passes:
        decorated()
    else:
        fails(decorated, "boom")


@pytest.mark.parametrize(
    "case,first_line",
    [
        ("only_numpy", "Only numpy raises error"),
        ("only_gpu", "Only cupy raises error"),
        ("different", "Different types of errors occurred"),
        ("not_accepted", "Both cupy and numpy raise exceptions"),
    ],
)
def test_error_messages_start_as_cupy_s(host_half, case, first_line):
    def body(xp):
        if case == "only_numpy" and not gpu_side(xp) or case == "only_gpu" and gpu_side(xp):
            raise ValueError("boom")
        if case == "different":
            raise (TypeError("cuarray's") if gpu_side(xp) else ValueError("numpy's"))
        if case == "not_accepted":
            raise ValueError("boom")
        return xp.ones(1)

    message = fails(testing.numpy_cupy_allclose()(body))
    assert message.startswith(first_line), message
    if case == "different":  # the cuarray half's error first, as CuPy prints them
        assert message.index("cuarray's") < message.index("numpy's")


def test_raises_needs_both_halves_to_raise(host_half):
    fails(
        testing.numpy_cupy_raises()(lambda xp: xp.zeros(2)),
        "Both cupy and numpy are expected to raise errors, but not",
    )


@pytest.mark.parametrize(
    "case,outcome",
    [
        ("unittest_both", unittest.SkipTest),
        ("pytest_both", pytest.skip.Exception),
        ("pytest_only_numpy", AssertionError),
        ("pytest_only_gpu", AssertionError),
        ("pytest_different_reasons", AssertionError),
        ("different_kinds", AssertionError),
    ],
)
def test_skips_inside_the_body(host_half, case, outcome):
    """Both halves skipping alike skips the test; a skip in one half, or two different skips, fail it."""

    def body(xp):
        if case == "unittest_both":
            raise unittest.SkipTest("r")
        if case == "pytest_both":
            pytest.skip("r")
        if case == "pytest_only_numpy" and not gpu_side(xp) or case == "pytest_only_gpu" and gpu_side(xp):
            pytest.skip("r")
        if case == "pytest_different_reasons":
            pytest.skip("gpu" if gpu_side(xp) else "numpy")
        if case == "different_kinds":
            if gpu_side(xp):
                pytest.skip("r")
            raise unittest.SkipTest("r")
        return xp.ones(1)

    try:  # pytest.raises would let a Skipped through, skipping this test rather than failing it
        testing.numpy_cupy_allclose()(body)()
    except BaseException as e:  # noqa: BLE001
        assert type(e) is outcome, f"{type(e).__name__}: {e}"
    else:
        pytest.fail(f"no {outcome.__name__}")


def test_an_error_of_the_call_itself_is_raised_as_it_is(host_half):
    with pytest.raises(TypeError, match="unexpected keyword argument 'unexpected'"):
        testing.numpy_cupy_allclose()(lambda xp: xp.ones(1))(unexpected=1)


# ----------------------------------------------------------------------------------------------------------
# Unsigned results (Note [Negative values cast to unsigned types])
# ----------------------------------------------------------------------------------------------------------


def test_negative_values_cast_to_unsigned_types_are_not_compared(host_half):
    def body(xp, src, dst):
        v = xp.asarray([-1, 2, -3], dtype=src).astype(dst)
        if not gpu_side(xp):
            v[0] = 7  # stands for a platform's value of a negative number cast to an unsigned type
        return v

    testing.numpy_cupy_array_equal()(body)(src=np.int16, dst=np.uint8)
    testing.numpy_cupy_array_equal()(body)(src=np.float32, dst=np.dtype("uint16"))

    # Without a signed or float dtype among the arguments, every element counts.
    def unsigned_only(xp, src, dst):
        return xp.asarray([1, 2], dtype=src).astype(dst) + (0 if gpu_side(xp) else 1)

    fails(
        lambda: testing.numpy_cupy_array_equal()(unsigned_only)(src=np.uint8, dst=np.uint16), "is not equal"
    )

    def positive_differs(xp, src, dst):
        return xp.asarray([-1, 2 if gpu_side(xp) else 3], dtype=src).astype(dst)

    fails(lambda: testing.numpy_cupy_array_equal()(positive_differs)(src=np.int8, dst=np.uint32), "not equal")

    def scalar(xp, src, dst):
        return xp.asarray(-1, dtype=src).astype(dst) + (0 if gpu_side(xp) else 1)

    testing.numpy_cupy_array_equal()(scalar)(src=np.int32, dst=np.uint64)


# ----------------------------------------------------------------------------------------------------------
# The other decorators
# ----------------------------------------------------------------------------------------------------------


def test_numpy_cupy_equal_compares_plain_values(host_half):
    testing.numpy_cupy_equal()(lambda xp: (xp.zeros((2, 3)).shape, str(xp.zeros(1).dtype), None))()
    fails(
        testing.numpy_cupy_equal()(lambda xp: xp.zeros((2, 3)).ndim + gpu_side(xp)),
        "Results are not equal",
        "xp=cuarray returned 3, xp=numpy returned 2",
    )
    fails(
        testing.numpy_cupy_equal()(lambda xp: xp.zeros(2).reshape(3)), "Both cupy and numpy raise exceptions"
    )


def test_almost_equal_nulp_and_max_ulp(host_half):
    def body(xp):
        return xp.ones(3) * (1 + 1e-9 if gpu_side(xp) else 1)

    testing.numpy_cupy_array_almost_equal(decimal=6)(body)()
    fails(testing.numpy_cupy_array_almost_equal(decimal=10)(body), "not almost equal to 10 decimals")
    fails(testing.numpy_cupy_array_almost_equal_nulp(nulp=1)(body), "ULP")
    testing.numpy_cupy_array_almost_equal_nulp(nulp=10**8)(body)()
    testing.numpy_cupy_array_max_ulp(maxulp=10**8)(body)()
    fails(testing.numpy_cupy_array_max_ulp()(body), "ULP")
    testing.numpy_cupy_array_max_ulp(dtype=np.float32)(body)()  # equal once rounded to float32


def test_array_list_equal(host_half):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        decorator = testing.numpy_cupy_array_list_equal()
    decorator(lambda xp: [xp.arange(2), xp.ones(3, dtype=np.float32 if gpu_side(xp) else np.float64)])()
    fails(decorator(lambda xp: [xp.arange(2) + gpu_side(xp)]), "is not equal")


def test_sp_name_fails_only_when_the_test_runs(monkeypatch):
    """cuarray has no sparse matrices: a test that asks for them fails, the file around it still imports."""
    monkeypatch.setattr(_devices, "device_count", lambda: 1)
    monkeypatch.setattr(
        _comparison, "_cuarray_half", lambda: (HostCuarray("cuarray"), "cuarray.scipy", HostArray)
    )
    decorated = testing.numpy_cupy_allclose(sp_name="sp")(lambda xp, sp: xp.ones(2))
    assert "sp" not in decorated.__signature__.parameters
    with pytest.raises(NotImplementedError, match=r"cuarray.scipy.sparse does not exist .* 'sp'"):
        decorated()


def test_sp_name_gives_both_sparse_modules(host_half):
    """With a sparse module on both sides (here SciPy's on both), sparse results compare by format and values."""
    pytest.importorskip("scipy.sparse")
    seen = []

    @testing.numpy_cupy_allclose(sp_name="sp")
    def body(xp, sp):
        seen.append(sp.__name__)
        return sp.csr_matrix(np.eye(2) * 2)

    body()
    assert seen == ["scipy.sparse", "scipy.sparse"]
    fails(
        testing.numpy_cupy_allclose(sp_name="sp")(
            lambda xp, sp: (sp.csr_matrix if gpu_side(xp) else sp.csc_matrix)(np.eye(2))
        ),
        "csc matrix with xp=numpy but csr",
    )


# ----------------------------------------------------------------------------------------------------------
# On a GPU: the same cases with cuarray itself
# ----------------------------------------------------------------------------------------------------------


@pytest.mark.gpu
def test_real_shape_check_and_scalars():
    fails(testing.numpy_cupy_allclose()(lambda xp: xp.ones(3).sum(keepdims=gpu_side(xp))), "has shape")
    testing.numpy_cupy_allclose()(lambda xp: xp.arange(4.0).sum())()
    testing.numpy_cupy_equal()(lambda xp: xp.arange(4).size)()


@pytest.mark.gpu
def test_real_poly1d_results():
    testing.numpy_cupy_allclose()(lambda xp: xp.poly1d(xp.asarray([1.0, 2.0, 3.0])) * 2)()


@pytest.mark.gpu
@testing.for_dtypes([np.int8, np.int32, np.float32], name="src")
@testing.for_unsigned_dtypes(name="dst")
@testing.numpy_cupy_array_equal()
def test_real_astype_to_unsigned_is_masked(xp, src, dst):
    return (3 - testing.shaped_arange((2, 3), xp, src)).astype(dst)  # -3..2: the negatives are masked


@pytest.mark.gpu
def test_real_errors_are_compatible():
    testing.numpy_cupy_allclose(accept_error=ValueError)(lambda xp: xp.zeros(2).reshape(3))()
    testing.numpy_cupy_allclose(accept_error=np.exceptions.AxisError)(lambda xp: xp.zeros(2).sum(axis=3))()
    assert cp.testing.numpy_cupy_allclose is testing.numpy_cuarray_allclose

"""cuarray.testing: the numpy_cuarray_* decorators, the dtype parametrizers and requires_gpus.

Without a GPU the decorators are checked with NumPy standing in for the cuarray half (`host_half`): the
comparison logic is the same, only the module differs. tests/test_pytest_plugin.py runs them under pytest.
"""

import inspect
import types

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing
from cuarray.testing import _comparison, _devices


class HostArray(np.ndarray):
    """Stands in for cuarray.ndarray: a NumPy array with `get()`."""

    def get(self):
        return np.asarray(self)


class HostCuarray(types.ModuleType):
    """NumPy under another name, its arrays HostArrays: `xp is numpy` is False in the test body, as with the
    real cuarray."""

    def __getattr__(self, name):
        f = getattr(np, name)
        if not callable(f) or isinstance(f, type):
            return f

        def call(*args, **kwargs):
            out = f(*args, **kwargs)
            return out.view(HostArray) if type(out) is np.ndarray else out

        return call


@pytest.fixture
def host_half(monkeypatch):
    """Runs the cuarray half of the decorators with HostCuarray, as if on one GPU; returns that module."""
    fake = HostCuarray("cuarray")
    monkeypatch.setattr(_devices, "device_count", lambda: 1)
    monkeypatch.setattr(_comparison, "_cuarray_half", lambda: (fake, "scipy", HostArray))
    return fake


def fails(f, *texts):
    """f() raises AssertionError whose message holds every one of `texts`; returns the message."""
    with pytest.raises(AssertionError) as info:
        f()
    message = str(info.value)
    for t in texts:
        assert t in message, f"{t!r} not in:\n{message}"
    return message


# ----------------------------------------------------------------------------------------------------------
# Running both halves
# ----------------------------------------------------------------------------------------------------------


def test_signature_hides_the_injected_modules():
    def body(self, xp, dtype, scp):
        pass

    decorated = testing.numpy_cuarray_allclose(scipy_name="scp")(body)
    assert list(inspect.signature(decorated).parameters) == ["self", "dtype"]
    assert decorated.__name__ == "body" and decorated.__wrapped__ is body


def test_each_half_gets_its_module(host_half):
    seen = []

    @testing.numpy_cuarray_array_equal(scipy_name="scp")
    def body(xp, scp, n):
        seen.append((xp, scp))
        return xp.arange(n)

    body(n=4)
    assert seen[0][0] is host_half and seen[1][0] is np  # CuPy's order: the GPU half first
    assert all(scp.__name__ == "scipy" for _, scp in seen)


def test_close_results_pass(host_half):
    @testing.numpy_cuarray_allclose(rtol=1e-6)
    def body(xp):
        return xp.linspace(0, 1, 5, dtype=np.float32) * (1 if xp is np else 1 + 1e-7)

    body()


def test_a_difference_names_both_results(host_half):
    @testing.numpy_cuarray_allclose(err_msg="lesson 3")
    def body(xp):
        return xp.arange(3.0) + (0 if xp is np else 0.5)

    message = fails(
        body,
        "numpy_cuarray_allclose",
        "xp=cuarray",
        "xp=numpy",
        "lesson 3",
        "Mismatched elements: 3 / 3",
        "array([0.5, 1.5, 2.5])",
        "array([0., 1., 2.])",
    )
    assert message.index("xp=cuarray: array([0.5") < message.index("xp=numpy:   array([0.")

    @testing.numpy_cuarray_allclose(verbose=False)
    def quiet(xp):
        return xp.arange(3.0) + (0 if xp is np else 0.5)

    assert "array(" not in fails(quiet, "Mismatched elements")


def test_dtype_and_type_check(host_half):
    def body(xp):
        return xp.arange(3, dtype=np.float64 if xp is np else np.float32)

    fails(testing.numpy_cuarray_allclose()(body), "dtype float64 with xp=numpy but float32 with xp=cuarray")
    testing.numpy_cuarray_allclose(type_check=False)(body)()
    testing.numpy_cuarray_array_equal(type_check=False)(body)()


def test_tolerance_per_dtype(host_half):
    def body(xp, dtype):
        return xp.ones(4, dtype=dtype) * (1 if xp is np else 1.0001)

    tolerances = {np.float16: 1e-3, "default": 1e-7}
    testing.numpy_cuarray_allclose(rtol=tolerances)(body)(dtype=np.float16)
    fails(lambda: testing.numpy_cuarray_allclose(rtol=tolerances)(body)(dtype=np.float64), "not close")
    testing.numpy_cuarray_allclose(atol={"float64": 1e-3})(body)(dtype=np.float64)
    with pytest.raises(TypeError, match="no tolerance for float32 and has no 'default'"):
        testing.numpy_cuarray_allclose(rtol={np.float16: 1e-3})(body)(dtype=np.float32)


def test_contiguity_and_strides(host_half):
    def body(xp):
        a = xp.arange(6.0).reshape(2, 3)
        return a if xp is np else xp.asfortranarray(a)

    fails(testing.numpy_cuarray_allclose()(body), "is c_contiguous with xp=numpy but not with xp=cuarray")
    testing.numpy_cuarray_allclose(contiguous_check=False)(body)()
    testing.numpy_cuarray_array_equal()(body)()
    fails(testing.numpy_cuarray_array_equal(strides_check=True)(body), "strides (24, 8) with xp=numpy")


def test_array_less(host_half):
    @testing.numpy_cuarray_array_less()
    def less(xp):
        return xp.arange(3) - (0 if xp is np else 1)

    less()

    @testing.numpy_cuarray_array_less()
    def equal(xp):
        return xp.arange(3)

    fails(equal, "numpy_cuarray_array_less", "is not less than")


def test_tuples_compare_element_by_element(host_half):
    @testing.numpy_cuarray_array_equal()
    def body(xp):
        return xp.arange(2), xp.arange(3) * (1 if xp is np else 2)

    fails(body, "result[1] with xp=cuarray (ACTUAL below) is not equal")

    @testing.numpy_cuarray_array_equal()
    def lengths(xp):
        return (xp.arange(2),) * (2 if xp is np else 3)

    fails(lengths, "xp=numpy returned 2 values, xp=cuarray returned 3 values")


def test_scalars_and_none(host_half):
    testing.numpy_cuarray_array_equal()(lambda xp: 3)()
    testing.numpy_cuarray_allclose()(lambda xp: xp.float32(2) * xp.float32(3))()
    fails(testing.numpy_cuarray_allclose()(lambda xp: None), "the result is None with xp=numpy")
    fails(
        testing.numpy_cuarray_allclose()(lambda xp: xp.arange(2) if xp is np else 1),
        "is a numpy.ndarray with xp=numpy but a builtins.int with xp=cuarray",
    )


def test_a_host_result_from_the_cuarray_half_fails(monkeypatch):
    """With cuarray's own array type, a NumPy array from the cuarray half means it never ran on the GPU."""
    monkeypatch.setattr(_devices, "device_count", lambda: 1)
    monkeypatch.setattr(_comparison, "_cuarray_half", lambda: (HostCuarray("cuarray"), "scipy", cp.ndarray))
    fails(testing.numpy_cuarray_array_equal()(lambda xp: xp.arange(2)), "a host array")


def test_errors_and_accept_error(host_half):
    def both(xp):
        raise ValueError("bad axis")

    def only_cuarray(xp):
        if xp is not np:
            raise TypeError("not supported")
        return xp.arange(2)

    def different(xp):
        raise (ValueError if xp is np else IndexError)("out of range")

    testing.numpy_cuarray_allclose(accept_error=ValueError)(both)()
    testing.numpy_cuarray_allclose(accept_error=True)(both)()
    testing.numpy_cuarray_allclose(accept_error=(KeyError, ValueError))(both)()
    fails(
        testing.numpy_cuarray_allclose()(both),
        "both xp=numpy and xp=cuarray raised ValueError",
        "accept_error=False",
    )
    fails(
        testing.numpy_cuarray_allclose(accept_error=True)(only_cuarray),
        "only xp=cuarray raised an error, TypeError: not supported",
    )
    fails(
        testing.numpy_cuarray_array_equal(accept_error=True)(different),
        "xp=numpy raised ValueError but xp=cuarray raised IndexError",
        "--- xp=numpy ---",
    )


def test_raises(host_half):
    testing.numpy_cuarray_raises()(lambda xp: xp.zeros(2).reshape(3))()
    fails(testing.numpy_cuarray_raises()(lambda xp: xp.zeros(2)), "neither xp=numpy nor xp=cuarray raised")

    def different(xp):
        raise (ValueError if xp is np else TypeError)()

    fails(
        testing.numpy_cuarray_raises()(different),
        "xp=numpy raised ValueError but xp=cuarray raised TypeError",
    )
    fails(
        testing.numpy_cuarray_raises(accept_error=TypeError)(lambda xp: xp.zeros(2).reshape(3)),
        "which accept_error=<class 'TypeError'> does not accept",
    )


def test_without_a_gpu_neither_half_runs(monkeypatch):
    monkeypatch.setattr(_devices, "device_count", lambda: 0)
    ran = []

    @testing.numpy_cuarray_allclose()
    def body(xp):
        ran.append(xp)
        return xp.arange(2)

    with pytest.raises(pytest.skip.Exception, match="no CUDA device available"):
        body()
    assert ran == []


def test_decorator_argument_errors():
    def body(a):
        pass

    with pytest.raises(TypeError, match=r"body\(\) has no parameter 'xp'"):
        testing.numpy_cuarray_allclose()(body)
    with pytest.raises(TypeError, match="no parameter 'np_'"):
        testing.numpy_cuarray_array_equal(name="np_")(lambda xp: None)
    testing.numpy_cuarray_allclose()(lambda **kwargs: None)  # **kwargs receives xp


# ----------------------------------------------------------------------------------------------------------
# Dtype parametrizers and requires_gpus
# ----------------------------------------------------------------------------------------------------------


def parametrized(decorator):
    """(argument name, values, ids) of the parametrization `decorator` adds."""

    def test(dtype):
        pass

    mark = decorator(test).pytestmark[-1]
    assert mark.name == "parametrize"
    return mark.args[0], list(mark.args[1]), mark.kwargs["ids"]


def test_dtype_sets():
    """CuPy's sets and order, built from the type characters: 'l' and 'q' (int64 and longlong on Linux) are two
    types, so the signed and unsigned sets have five each."""
    name, values, ids = parametrized(testing.for_all_dtypes())
    assert name == "dtype" and values == [np.dtype(c).type for c in "dfebhilqBHILQ?FD"]
    assert ids == [
        "float64",
        "float32",
        "float16",
        "int8",
        "int16",
        "int32",
        "int64",
        "longlong",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "ulonglong",
        "bool",
        "complex64",
        "complex128",
    ]
    _, values, _ = parametrized(testing.for_all_dtypes(no_float16=True, no_bool=True, no_complex=True))
    assert values == [np.dtype(c).type for c in "dfbhilqBHILQ"]
    assert parametrized(testing.for_float_dtypes())[2] == ["float64", "float32", "float16"]
    assert parametrized(testing.for_float_dtypes(no_float16=True))[2] == ["float64", "float32"]
    assert parametrized(testing.for_signed_dtypes())[1] == [np.dtype(c).type for c in "bhilq"]
    assert parametrized(testing.for_unsigned_dtypes())[1] == [np.dtype(c).type for c in "BHILQ"]
    assert parametrized(testing.for_int_dtypes())[1] == [np.dtype(c).type for c in "bhilqBHILQ?"]
    assert "bool" not in parametrized(testing.for_int_dtypes(no_bool=True))[2]
    assert parametrized(testing.for_complex_dtypes())[2] == ["complex64", "complex128"]


def test_the_test_receives_scalar_types():
    """numpy.dtype(d).type of whatever was given, as CuPy passes (character codes, names, dtype objects)."""
    assert parametrized(testing.for_dtypes([np.int8, "float32", np.dtype("u2"), "e"], name="t")) == (
        "t",
        [np.int8, np.float32, np.uint16, np.float16],
        ["int8", "float32", "uint16", "float16"],
    )
    assert parametrized(testing.for_dtypes("efdFD"))[1] == [
        np.float16,
        np.float32,
        np.float64,
        np.complex64,
        np.complex128,
    ]


@testing.for_float_dtypes(no_float16=True)
def test_parametrized_dtypes_run(dtype):
    assert dtype in (np.float32, np.float64)


@testing.for_dtypes([np.int16, np.uint8])
@testing.numpy_cuarray_array_equal()
def test_real_comparison_parametrized(xp, dtype):
    """Runs on a GPU (skips with a reason elsewhere), with the decorators in CuPy's usual order."""
    a = xp.arange(12, dtype=dtype).reshape(3, 4)
    return a[::2, 1:] + a[1, 2]


@testing.for_all_dtypes(no_bool=True)
@testing.numpy_cuarray_allclose(rtol={np.float16: 1e-3, "default": 1e-6})
def test_real_comparison_reduction(xp, dtype):
    return xp.arange(1, 7, dtype=dtype).reshape(2, 3).T.sum(axis=1)


@pytest.mark.gpu
def test_real_difference_is_reported():
    @testing.numpy_cuarray_allclose()
    def body(xp):
        return xp.arange(3.0) * (1 if xp is np else 2)

    fails(body, "xp=cuarray: array([0., 2., 4.])", "xp=numpy:   array([0., 1., 2.])")
    fails(testing.numpy_cuarray_array_equal()(lambda xp: np.arange(2)), "a host array")


def test_requires_gpus_decorator(monkeypatch):
    monkeypatch.setattr(_devices, "device_count", lambda: 1)
    mark = testing.requires_gpus(2)
    assert mark.name == "skipif" and mark.args == (True,)
    assert mark.kwargs["reason"] == "needs 2 CUDA devices, found 1"
    assert testing.requires_gpus(1).args == (False,)
    monkeypatch.setattr(_devices, "device_count", lambda: 0)
    assert testing.requires_gpus(1).kwargs["reason"] == _devices.NO_GPU_REASON
    assert testing.requires_gpus(3).kwargs["reason"] == "needs 3 CUDA devices, found 0"
    with pytest.raises(ValueError, match="at least 1"):
        testing.requires_gpus(0)
    with pytest.raises(TypeError, match="such as requires_gpus"):
        testing.requires_gpus("2")


def test_device_count_matches_cuarray():
    assert _devices.device_count() == (cp.cuda.runtime.getDeviceCount() if cp.cuda.is_available() else 0)

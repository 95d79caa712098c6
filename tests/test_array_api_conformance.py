"""Behaviours the array API conformance suite checks that NumPy shares: sequences of device arrays given to
asarray, fftfreq's dtype, clip's parameter names, eye with a diagonal past the matrix, and boolean masks with
axes of length 0. Each is compared with NumPy on the same inputs."""

import inspect

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

gpu = pytest.mark.gpu


def _nested(xp, parts, dtype_names):
    """A list of 0-d and 1-d arrays of the given dtypes, as the array API suite builds expected results."""
    return [xp.asarray(p, dtype=d) for p, d in zip(parts, dtype_names)]


@gpu
@pytest.mark.parametrize(
    "dtypes",
    [
        ("uint8", "int8"),
        ("float32", "float32"),
        ("bool", "int16"),
        ("float32", "complex64"),
        ("int64", "uint64"),
    ],
)
@testing.numpy_cuarray_array_equal()
def test_asarray_of_0d_device_arrays(xp, dtypes):
    return xp.asarray(_nested(xp, [1, 0], dtypes))


@gpu
@testing.numpy_cuarray_array_equal()
def test_asarray_of_nested_lists_of_device_arrays(xp):
    a = xp.arange(3, dtype=xp.float32)
    return xp.asarray([[a, a * 2], [a + 1, xp.zeros(3, xp.float32)]])


@gpu
@pytest.mark.parametrize("scalar", [2, 2.5, True, 1j])
@testing.numpy_cuarray_array_equal()
def test_asarray_of_device_arrays_and_python_scalars(xp, scalar):
    return xp.array([xp.asarray(1.5, dtype=xp.float32), scalar])


@gpu
@testing.numpy_cuarray_array_equal()
def test_asarray_of_device_arrays_with_dtype(xp):
    return xp.asarray([xp.asarray(3, dtype=xp.int64), xp.asarray(4, dtype=xp.int64)], dtype=xp.float16)


@gpu
def test_asarray_of_device_arrays_stays_on_the_device_and_copies():
    a = cp.arange(4)
    out = cp.asarray([a, a])
    assert isinstance(out, cp.ndarray) and not cp.shares_memory(out, a)
    out[0, 0] = 7
    assert int(a[0]) == 0


@gpu
@testing.numpy_cuarray_raises()
def test_asarray_of_device_arrays_of_other_shapes(xp):
    return xp.asarray([xp.zeros(2), xp.zeros(3)])


@gpu
@pytest.mark.parametrize("dtype", [None, "float32", "float64"])
@pytest.mark.parametrize("func", ["fftfreq", "rfftfreq"])
def test_fftfreq_dtype(func, dtype):
    out = getattr(cp.fft, func)(7, 0.5, dtype=dtype)
    expected = getattr(np.fft, func)(7, 0.5).astype(dtype or np.float64)
    assert out.dtype == expected.dtype
    testing.assert_array_equal(out, expected)


def test_fftfreq_signature_and_dtype_errors():
    for f in (cp.fft.fftfreq, cp.fft.rfftfreq):
        assert {"dtype", "device"} <= set(inspect.signature(f).parameters)
        with pytest.raises(ValueError, match="real floating-point"):
            f(4, dtype=np.int32)


def test_clip_parameters_are_named_as_in_the_array_api():
    names = list(inspect.signature(cp.clip).parameters)
    assert names[1:3] == ["min", "max"]


@gpu
@pytest.mark.parametrize(
    "kwargs",
    [{"min": 2}, {"max": 3}, {"min": 1, "max": 4}, {"a_min": 1, "a_max": 3}, {"a_min": None, "a_max": 2}],
)
@testing.numpy_cuarray_array_equal()
def test_clip_keywords(xp, kwargs):
    return xp.clip(xp.arange(6), **kwargs)


@gpu
@pytest.mark.parametrize("args", [(1, 4), (None, 2), (3, None)])
@testing.numpy_cuarray_array_equal()
def test_clip_positional(xp, args):
    return xp.clip(xp.arange(6), *args)


@gpu
@pytest.mark.parametrize("kwargs", [{"a_min": 1, "min": 2}, {"a_min": 1}])
@testing.numpy_cuarray_raises()
def test_clip_keyword_errors(xp, kwargs):
    return xp.clip(xp.arange(6), **kwargs)


@gpu
@pytest.mark.parametrize(
    "n, m, k",
    [(0, None, 2**63), (2, None, 2**63), (2, 3, -(2**70)), (3, 2, 2), (3, 2, -3), (3, 4, 3), (4, 3, -3)],
)
@testing.numpy_cuarray_array_equal()
def test_eye_with_any_diagonal(xp, n, m, k):
    return xp.eye(n, m, k=k)


@gpu
@pytest.mark.parametrize(
    "shape, mask_shape",
    [
        ((1,), (0,)),
        ((3,), (0,)),
        ((3, 2), (0,)),
        ((3, 2), (0, 2)),
        ((3, 2), (3, 0)),
        ((3, 2), (0, 0)),
        ((0,), (0,)),
    ],
)
@testing.numpy_cuarray_array_equal()
def test_mask_with_an_axis_of_length_zero(xp, shape, mask_shape):
    return xp.ones(shape)[xp.ones(mask_shape, dtype=bool)]


@gpu
@pytest.mark.parametrize("shape, mask_shape", [((3, 2), (2, 0)), ((3, 2), (0, 5)), ((3,), (5,))])
@testing.numpy_cuarray_raises()
def test_mask_of_another_length(xp, shape, mask_shape):
    return xp.ones(shape)[xp.ones(mask_shape, dtype=bool)]


@gpu
@pytest.mark.parametrize("mask_shape", [(0,), (3, 0)])
def test_setitem_through_a_mask_with_an_axis_of_length_zero(mask_shape):
    a, h = cp.arange(6.0).reshape(3, 2), np.arange(6.0).reshape(3, 2)
    a[cp.ones(mask_shape, dtype=bool)] = 5
    h[np.ones(mask_shape, dtype=bool)] = 5
    testing.assert_array_equal(a, h)


# ---- copyto(where=), and the tuples NumPy 2 returns ---------------------------------------------------------


@gpu
@pytest.mark.parametrize("src", ["array", "row", "scalar", "float"])
@pytest.mark.parametrize("where", ["array", "row", "column", "list", False])
@testing.numpy_cuarray_array_equal()
def test_copyto_where(xp, src, where):
    dst = xp.arange(12, dtype=xp.float32).reshape(3, 4)
    source = {
        "array": xp.full((3, 4), -1.0, xp.float32),
        "row": xp.asarray([10, 20, 30, 40], xp.int16),
        "scalar": 7,
        "float": 2.5,
    }[src]
    mask = {
        "array": (xp.arange(12).reshape(3, 4) % 3) == 0,
        "row": xp.asarray([True, False, False, True]),
        "column": xp.asarray([[True], [False], [True]]),
        "list": [True, False, True, False],
        False: False,
    }[where]
    xp.copyto(dst, source, where=mask)
    return dst


@gpu
@pytest.mark.parametrize("case", ["int mask", "mask too big", "src too big", "unsafe cast"])
@testing.numpy_cuarray_raises()
def test_copyto_where_errors(xp, case):
    dst = xp.zeros(3, dtype=xp.int32)
    if case == "int mask":
        xp.copyto(dst, 1, where=xp.asarray([1, 0, 1]))
    elif case == "mask too big":
        xp.copyto(dst, 1, where=xp.ones((2, 1), dtype=bool))
    elif case == "src too big":
        xp.copyto(dst, xp.ones((2, 3), dtype=xp.int32), where=xp.ones(3, dtype=bool))
    else:
        xp.copyto(dst, xp.ones(3), where=xp.ones(3, dtype=bool))


@gpu
def test_copyto_where_leaves_the_rest():
    dst = cp.arange(5)
    cp.copyto(dst, cp.zeros(5, dtype=cp.int64), where=cp.asarray([True, False, True, False, False]))
    testing.assert_array_equal(dst, [0, 1, 0, 3, 4])


@gpu
@pytest.mark.parametrize("func", ["meshgrid", "broadcast_arrays"])
def test_meshgrid_and_broadcast_arrays_return_tuples(func):
    out = getattr(cp, func)(cp.arange(3), cp.arange(2)[:, None])
    expected = getattr(np, func)(np.arange(3), np.arange(2)[:, None])
    assert type(out) is tuple and type(expected) is tuple and len(out) == len(expected)
    for o, e in zip(out, expected):
        testing.assert_array_equal(o, e)


# ---- linspace and logspace with array bounds ----------------------------------------------------------------


@gpu
@pytest.mark.parametrize(
    "start, stop", [([0, 1], 5), (0, [1.0, 2.0, 3.0]), ([[0], [10]], [1, 2, 3]), ([1.5, 2.5], [1.5, 7.0])]
)
@pytest.mark.parametrize("num, endpoint", [(5, True), (4, False), (1, True), (0, True)])
@pytest.mark.parametrize("axis", [0, -1])
@testing.numpy_cuarray_allclose(rtol=1e-15)
def test_linspace_array_bounds(xp, start, stop, num, endpoint, axis):
    return xp.linspace(xp.asarray(start), stop, num, endpoint=endpoint, axis=axis)


@gpu
@pytest.mark.parametrize("dtype", ["float32", "int32", "complex64"])
@testing.numpy_cuarray_allclose(rtol=1e-6)
def test_linspace_array_bounds_dtype(xp, dtype):
    return xp.linspace(
        xp.asarray([0, 3], dtype=xp.float32), xp.asarray([7, 12], dtype=xp.float32), 6, dtype=dtype
    )


@gpu
def test_linspace_array_bounds_retstep():
    y, step = cp.linspace(cp.asarray([0.0, 1.0]), 3.0, 4, retstep=True)
    ny, nstep = np.linspace(np.asarray([0.0, 1.0]), 3.0, 4, retstep=True)
    testing.assert_allclose(y, ny)
    testing.assert_allclose(step, nstep)


@gpu
@pytest.mark.parametrize("base", [10.0, [2.0, 10.0]])
@pytest.mark.parametrize("axis", [0, 1])
@testing.numpy_cuarray_allclose(rtol=1e-13)
def test_logspace_array_bounds(xp, base, axis):
    return xp.logspace(
        xp.asarray([0.0, 1.0]), 3.0, 4, base=base if numpy_scalar(base) else xp.asarray(base), axis=axis
    )


def numpy_scalar(x):
    return np.ndim(x) == 0

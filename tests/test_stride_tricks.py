"""cuarray.lib.stride_tricks against numpy.lib.stride_tricks on the same inputs: values, shapes, strides, that
the results are views, NumPy's errors, and cuarray's refusal of views that leave the array's memory."""

import cuarray as cp
import numpy as np
import pytest
from cuarray import testing

gpu = pytest.mark.gpu


def _input(xp, layout):
    a = xp.arange(60, dtype=xp.float32).reshape(3, 4, 5)
    return {"c": a, "sliced": a[:, 1:, ::2], "reversed": a[::-1, :, ::-1], "transposed": a.T}[layout]


@gpu
@pytest.mark.parametrize("layout", ["c", "sliced", "reversed", "transposed"])
@pytest.mark.parametrize(
    "window, axis",
    [((2, 2, 2), None), (2, 0), ((2, 3), (1, 2)), ((1, 1), (0, 0)), (3, -1), ((2, 2), (-1, -1))],
)
@testing.numpy_cuarray_array_equal()
def test_sliding_window_view(xp, layout, window, axis):
    x = _input(xp, layout)
    out = xp.lib.stride_tricks.sliding_window_view(x, window, axis)
    assert xp.shares_memory(out, x)
    return out


@gpu
@pytest.mark.parametrize("case", ["negative", "too large", "axis count", "all axes count", "bad axis"])
@testing.numpy_cuarray_raises()
def test_sliding_window_view_errors(xp, case):
    x = xp.arange(12).reshape(3, 4)
    window, axis = {
        "negative": ((-1,), (0,)),
        "too large": ((4,), (0,)),
        "axis count": ((2, 2), (0,)),
        "all axes count": ((2,), None),
        "bad axis": ((2,), (2,)),
    }[case]
    xp.lib.stride_tricks.sliding_window_view(x, window, axis)


@gpu
@pytest.mark.parametrize("shape, strides", [((3, 3), (8, 8)), ((4, 2), (4, 0)), ((7,), None)])
@testing.numpy_cuarray_array_equal()
def test_as_strided(xp, shape, strides):
    x = xp.arange(10, dtype=xp.int32)
    out = xp.lib.stride_tricks.as_strided(x[:7] if strides is None else x, shape, strides)
    assert xp.shares_memory(out, x)
    return out


@gpu
@pytest.mark.parametrize("shape", [(2, 2), (2, 0, 3), (), (3,)])
@pytest.mark.parametrize("view", ["contiguous", "strided", "reversed"])
@testing.numpy_cuarray_array_equal()
def test_as_strided_without_strides(xp, shape, view):
    # NumPy gives a C-contiguous input C-contiguous strides for the new shape, and any other input its own.
    if view != "contiguous" and len(shape) != 2:
        pytest.skip("a non-contiguous input's own strides fit only a shape of its rank")

    def make(xq):
        m = xq.arange(24.0).reshape(4, 6)
        return xq.lib.stride_tricks.as_strided(
            {"contiguous": m, "strided": m[:, ::2], "reversed": m[::-1]}[view], shape=shape
        )

    out = make(xp)
    assert out.strides == make(np).strides
    return out


@gpu
@testing.numpy_cuarray_array_equal()
def test_as_strided_negative_strides(xp):
    return xp.lib.stride_tricks.as_strided(xp.arange(10, dtype=xp.int32)[::-1], (2, 5), (-20, -4))


@gpu
def test_as_strided_writes_through():
    x = cp.zeros(6)
    v = cp.lib.stride_tricks.as_strided(x, (3,), (16,))
    v[...] = 1
    testing.assert_array_equal(x, [1, 0, 1, 0, 1, 0])


@gpu
@pytest.mark.parametrize("shape, strides", [((11,), (4,)), ((3,), (-4,)), ((2, 6), (20, 4))])
def test_as_strided_refuses_memory_outside_the_array(shape, strides):
    with pytest.raises(ValueError, match="incompatible"):
        cp.lib.stride_tricks.as_strided(cp.arange(10, dtype=cp.int32), shape, strides)


@gpu
def test_as_strided_within_the_base_of_a_view():
    base = cp.arange(10, dtype=cp.int32)
    out = cp.lib.stride_tricks.as_strided(base[2:4], (6,), (4,))  # reaches past the view, inside its base
    testing.assert_array_equal(out, np.arange(2, 8))


def test_host_arrays_are_refused():
    with pytest.raises(TypeError, match="cuarray.ndarray"):
        cp.lib.stride_tricks.as_strided(np.zeros(3))
    with pytest.raises(TypeError, match="cuarray.ndarray"):
        cp.lib.stride_tricks.sliding_window_view(np.zeros(3), 2)

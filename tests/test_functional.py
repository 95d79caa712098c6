"""piecewise, apply_along_axis, apply_over_axes and vectorize against NumPy."""

import cuarray as cp
import numpy as np
import pytest
from conftest import NONEMPTY_LAYOUTS, SOME_DTYPES, assert_same, dtype_id, make_data, make_pair
from test_fusion_plans import _replay

gpu = pytest.mark.gpu


# ---- piecewise ----------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ["int16", "float32", "float64", "complex64"])
def test_piecewise_values_and_functions(dtype):
    a = make_data((11,), dtype)
    x = cp.asarray(a)
    assert_same(
        cp.piecewise(x, [x.real < 0, x.real >= 0], [-1, 1]),
        np.piecewise(a, [a.real < 0, a.real >= 0], [-1, 1]),
    )
    assert_same(
        cp.piecewise(x, [x.real < -3, x.real > 3], [lambda v: v * 2, lambda v: -v, 7]),
        np.piecewise(a, [a.real < -3, a.real > 3], [lambda v: v * 2, lambda v: -v, 7]),
    )


@gpu
@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["0d", "empty"])
def test_piecewise_layouts(layout):
    x, a = make_pair(layout, "float64")
    funcs = [lambda v, k: v * k, 0.5, lambda v, k: v - k]
    assert_same(cp.piecewise(x, [x < 0, x > 10], funcs, 3.0), np.piecewise(a, [a < 0, a > 10], funcs, 3.0))


@gpu
def test_piecewise_condition_forms():
    a = make_data((3,), "int64")
    x = cp.asarray(a)
    # one condition, given bare: a device mask, or a list of Python bools for non-0-d x
    assert_same(
        cp.piecewise(x, x > 0, [lambda v: v + 100, -1]), np.piecewise(a, a > 0, [lambda v: v + 100, -1])
    )
    assert_same(cp.piecewise(x, [True, False, True], [5]), np.piecewise(a, [True, False, True], [5]))
    # conditions of a 0-d x are Python or device bools
    assert_same(
        cp.piecewise(-2, [-2 < 0, -2 >= 0], [lambda v: -v, lambda v: v]),
        np.piecewise(-2, [-2 < 0, -2 >= 0], [lambda v: -v, lambda v: v]),
    )
    y = cp.asarray(-2.5)
    assert_same(cp.piecewise(y, [y < 0, y >= 0], [lambda v: -v, lambda v: v]), np.array(2.5))
    # keyword arguments reach the functions
    assert_same(
        cp.piecewise(x, [x > 0], [lambda v, s=0: v * s, 9], s=3),
        np.piecewise(a, [a > 0], [lambda v, s=0: v * s, 9], s=3),
    )
    # non-bool conditions are cast to bool
    assert_same(cp.piecewise(x, [x % 2], [1, 2]), np.piecewise(a, [a % 2], [1, 2]))


@gpu
def test_piecewise_errors_like_numpy():
    x = cp.arange(4.0)
    with pytest.raises(ValueError, match="with 2 condition\\(s\\), either 2 or 3 functions are expected"):
        cp.piecewise(x, [x < 1, x > 2], [1])
    with pytest.raises(IndexError):
        cp.piecewise(x, [cp.ones(3, bool)], [1])


def test_piecewise_refuses_numpy_arrays():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.piecewise(np.arange(3), [True, False, True], [1])


# ---- apply_along_axis / apply_over_axes -----------------------------------------------------------------------


FUNCS1D = {
    "scalar": lambda xp: lambda v: xp.sum(v * v),
    "shorter": lambda xp: lambda v: v[::2] * 2,
    "matrix": lambda xp: lambda v: xp.outer(v, v[:2]),
    "args": lambda xp: lambda v, k, scale=1: (v[:k] - v[-1]) * scale,
}


@gpu
@pytest.mark.parametrize("name", list(FUNCS1D))
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("shape", [(4, 5), (2, 3, 4)])
def test_apply_along_axis(name, axis, shape):
    a = make_data(shape, "float32")
    x = cp.asarray(a)
    extra = ((2,), {"scale": 3}) if name == "args" else ((), {})
    got = cp.apply_along_axis(FUNCS1D[name](cp), axis, x, *extra[0], **extra[1])
    assert_same(got, np.apply_along_axis(FUNCS1D[name](np), axis, a, *extra[0], **extra[1]))


@gpu
@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
def test_apply_along_axis_dtypes_and_views(dtype):
    a = make_data((5, 6), dtype)[::-2, 1::2]
    x = cp.asarray(make_data((5, 6), dtype))[::-2, 1::2]
    assert_same(cp.apply_along_axis(lambda v: v[::-1], 0, x), np.apply_along_axis(lambda v: v[::-1], 0, a))
    assert_same(cp.apply_along_axis(lambda v: v[0], 1, x), np.apply_along_axis(lambda v: v[0], 1, a))


@gpu
def test_apply_along_axis_errors_like_numpy():
    with pytest.raises(ValueError, match="Cannot apply_along_axis when any iteration dimensions are 0"):
        cp.apply_along_axis(lambda v: v, 1, cp.ones((0, 3)))
    with pytest.raises(np.exceptions.AxisError):
        cp.apply_along_axis(lambda v: v, 2, cp.ones((2, 3)))


@gpu
@pytest.mark.parametrize("axes", [0, [0, 2], (2, 0), [-1], (1, -3)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_apply_over_axes(axes, keepdims):
    a = make_data((2, 3, 4), "int32")
    x = cp.asarray(a)
    got = cp.apply_over_axes(lambda v, ax: cp.sum(v, axis=ax, keepdims=keepdims), x, axes)
    assert_same(got, np.apply_over_axes(lambda v, ax: np.sum(v, axis=ax, keepdims=keepdims), a, axes))


@gpu
@pytest.mark.parametrize("axes", [0, [], [0, 0]])
def test_apply_over_axes_of_a_0d_array_is_numpys(axes):
    # CuPy raises AxisError for a 0-d array; NumPy's sum takes axis 0 of it, and so does cuarray's.
    got = cp.apply_over_axes(cp.sum, cp.asarray(42), axes)
    want = np.apply_over_axes(np.sum, np.array(42), axes)
    assert isinstance(got, cp.ndarray) and got.shape == np.shape(want) == ()
    assert got.dtype == np.asarray(want).dtype and int(got) == int(want) == 42


@gpu
def test_apply_over_axes_errors_like_numpy():
    with pytest.raises(ValueError, match="function is not returning an array of the correct shape"):
        cp.apply_over_axes(lambda v, ax: cp.sum(v), cp.ones((2, 3, 4)), [0])


# ---- vectorize ------------------------------------------------------------------------------------------------


def _mix(x, y):
    return x * y + x + 1


def _small(values, dtype):
    """Small non-negative values, exact in every dtype: NumPy's vectorize computes on Python numbers and casts,
    cuarray's in the arguments' dtypes, which agree while nothing overflows or rounds."""
    values = np.asarray(values, dtype=np.float64)
    return (values if np.dtype(dtype).kind in "fc" else np.floor(values)).astype(dtype)


@gpu
@pytest.mark.parametrize("xdtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("ydtype", ["int8", "float32", "uint16"])
def test_vectorize_dtypes_and_broadcasting(xdtype, ydtype):
    a, b = _small([[0.5], [1], [2.25]], xdtype), _small([1.5, 2, 3, 0], ydtype)
    got = cp.vectorize(_mix)(cp.asarray(a), cp.asarray(b))
    assert_same(got, np.vectorize(_mix)(a, b))


@gpu
@pytest.mark.parametrize("layout", NONEMPTY_LAYOUTS + ["0d"])
def test_vectorize_layouts(layout):
    x, a = make_pair(layout, "float64")
    f = lambda v: v * 0.5 - 3
    assert_same(cp.vectorize(f)(x), np.vectorize(f)(a))


@gpu
def test_vectorize_scalars_and_lists_as_numpy_converts_them():
    a = np.array([0, 1, 2, -3, 4], np.int8)
    x = cp.asarray(a)
    # A Python int becomes an int64 array, as in NumPy's vectorize: int8 with it gives int64.
    assert_same(cp.vectorize(_mix)(x, 3), np.vectorize(_mix)(a, 3))
    assert_same(cp.vectorize(_mix)(x, 2.5), np.vectorize(_mix)(a, 2.5))
    assert_same(cp.vectorize(_mix)(x, np.int8(2)), np.vectorize(_mix)(a, np.int8(2)))
    assert_same(cp.vectorize(_mix)([1, 2, 3], [[1], [2]]), np.vectorize(_mix)([1, 2, 3], [[1], [2]]))
    assert_same(cp.vectorize(_mix)(2, 3), np.vectorize(_mix)(2, 3))


@gpu
@pytest.mark.parametrize("otypes", ["f", [np.int16], (np.float64,), "?"])
def test_vectorize_otypes_cast_the_result(otypes):
    a, b = make_data((6,), "float64", 1), make_data((6,), "int32", 2)
    assert_same(
        cp.vectorize(_mix, otypes=otypes)(cp.asarray(a), cp.asarray(b)),
        np.vectorize(_mix, otypes=otypes)(a, b),
    )


def _split(x, y):
    return x + y, x > y


@gpu
def test_vectorize_several_outputs():
    a, b = make_data((2, 3), "float32", 1), make_data((3,), "int16", 2)
    for otypes in (None, "dB"):
        got = cp.vectorize(_split, otypes=otypes)(cp.asarray(a), cp.asarray(b))
        want = np.vectorize(_split, otypes=otypes)(a, b)
        assert isinstance(got, tuple) and len(got) == 2
        for g, w in zip(got, want):
            assert_same(g, w)
    with pytest.raises(ValueError, match="returns 2 value"):
        cp.vectorize(_split, otypes="d")(cp.asarray(a), cp.asarray(b))


@gpu
def test_vectorize_ufuncs_where_and_keywords():
    a = make_data((7,), "float64")
    x = cp.asarray(a)
    v = cp.vectorize(lambda t, lo=-5.0, hi=5.0: cp.where(t < lo, lo, cp.where(t > hi, hi, cp.sin(t))))
    w = np.vectorize(lambda t, lo=-5.0, hi=5.0: np.where(t < lo, lo, np.where(t > hi, hi, np.sin(t))))
    assert_same(v(x), w(a))
    assert_same(v(x, hi=cp.asarray(2.0)), w(a, hi=np.asarray(2.0)))
    assert_same(v(x, lo=-1.0, hi=3.0), w(a, lo=-1.0, hi=3.0))


@gpu
def test_vectorize_makes_one_kernel_per_signature():
    v = cp.vectorize(_mix)
    x, y = cp.arange(4.0), cp.arange(4, dtype=np.int32)
    for _ in range(3):
        v(x, y)
    v(x[::-1], y)  # the layout is no part of the signature
    fused = v._kernel(())
    assert len(fused._plans) == 1
    v(y, y)
    assert len(fused._plans) == 2


def test_vectorize_attributes_and_unsupported_options():
    def documented(x):
        """Doubles."""
        return x * 2

    v = cp.vectorize(documented)
    assert v.__doc__ == "Doubles." and v.__name__ == "documented" and v.pyfunc is documented
    assert cp.vectorize(documented, doc="other").__doc__ == "other"
    with pytest.raises(NotImplementedError, match="excluded"):
        cp.vectorize(documented, excluded={0})
    with pytest.raises(NotImplementedError, match="signature"):
        cp.vectorize(documented, signature="(n)->()")
    with pytest.raises(ValueError, match="Invalid otype specified: \\$"):
        cp.vectorize(documented, otypes="f$")
    with pytest.raises(ValueError, match="Invalid otype specification"):
        cp.vectorize(documented, otypes=3)
    with pytest.raises(ValueError, match="args can not be empty"):
        v()
    with pytest.raises(TypeError, match="cuarray.asarray"):
        v(np.ones(3))


# Python control flow on element values (Note [Branches]): each path traced, selected per element.
def _piecewise(x, y):
    if x > y:
        r = x - y
    elif x == 0:
        r = y * 2
    else:
        r = 0
    r += 1
    return r if r < 5 else -r


def _clamp(x, y):
    return min(max(x, -y), y)


def _logic(x, y):
    if (x > 2 and y != 0) or not x:
        return x * 2, True
    return y, x < y


BRANCHING = [_piecewise, _clamp, _logic]
BRANCH_DTYPES = [("int32", "int8"), ("float64", "float32"), ("int64", "int16"), ("float32", "int64")]


def _branch_data(dtype, seed):
    values = make_data((4, 5), dtype, seed)
    return values if values.dtype.kind == "b" else (values // 10 if values.dtype.kind != "f" else values / 8)


@pytest.mark.parametrize("dtypes", BRANCH_DTYPES, ids="-".join)
@pytest.mark.parametrize("func", BRANCHING, ids=lambda f: f.__name__)
def test_vectorize_branches_replay_as_numpys_vectorize(func, dtypes):
    # The traced paths, replayed with NumPy, give each element the value NumPy's per-element call gives, in the
    # dtypes the ufuncs' rules give the paths together (NumPy's vectorize takes the first element's instead).
    x, y = _branch_data(dtypes[0], 1), _branch_data(dtypes[1], 2)
    got = _replay(cp.vectorize(func)._kernel(()), (x.dtype, y.dtype), (x, y))
    got = got if isinstance(got, tuple) else (got,)
    want = np.vectorize(func, otypes=[g.dtype for g in got])(x, y)
    for g, w in zip(got, want if isinstance(want, tuple) else (want,)):
        np.testing.assert_array_equal(g, w)


def test_vectorize_refuses_loops_on_values_and_whole_array_operations():
    def halve(x):
        while x > 1:
            x = x / 2
        return x

    with pytest.raises(TypeError, match=r"more than 64 paths.*test_functional\.py:\d+"):
        cp.vectorize(halve)._kernel(())._plan((np.dtype(np.float32),))
    with pytest.raises(NotImplementedError, match=r"'shape' of a traced value.*vectorized function"):
        cp.vectorize(lambda x: x + x.shape[0])._kernel(())._plan((np.dtype(np.float32),))
    # On elements, indexing and reductions mean nothing whole arrays could stand for.
    with pytest.raises(NotImplementedError, match=r"indexing.*vectorized function"):
        cp.vectorize(lambda x: x[0] + 1)._kernel(())._plan((np.dtype(np.float32),))
    with pytest.raises(NotImplementedError, match=r"sum\(\).*vectorized function"):
        cp.vectorize(lambda x: x.sum())._kernel(())._plan((np.dtype(np.float32),))
    with pytest.raises(TypeError, match=r"different numbers of values"):
        cp.vectorize(lambda x: (x, x) if x > 0 else x)._kernel(())._plan((np.dtype(np.float32),))


@gpu
@pytest.mark.parametrize("dtypes", BRANCH_DTYPES, ids="-".join)
@pytest.mark.parametrize("func", BRANCHING, ids=lambda f: f.__name__)
def test_vectorize_branches(func, dtypes):
    x, y = _branch_data(dtypes[0], 1), _branch_data(dtypes[1], 2)
    got = cp.vectorize(func)(cp.asarray(x), cp.asarray(y))
    got = got if isinstance(got, tuple) else (got,)
    want = np.vectorize(func, otypes=[g.dtype for g in got])(x, y)
    for g, w in zip(got, want if isinstance(want, tuple) else (want,)):
        assert_same(g, w)


@pytest.mark.gpu
def test_vectorize_returns_new_arrays_where_the_function_returns_its_argument():
    a = np.arange(6).reshape(2, 3)
    x = cp.asarray(a)
    first, second = cp.vectorize(lambda v: (v, v * 2))(x)
    assert first is not x and not cp.shares_memory(first, x)
    assert_same(first, a)
    assert_same(second, a * 2)
    same = cp.vectorize(lambda v: v)(x)
    assert same is not x and not cp.shares_memory(same, x)


@pytest.mark.gpu
def test_vectorize_of_size_0_inputs_needs_otypes_as_numpys():
    with pytest.raises(ValueError, match="^cannot call `vectorize` on size 0 inputs unless `otypes` is set$"):
        np.vectorize(lambda x: x + 1)(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="^cannot call `vectorize` on size 0 inputs unless `otypes` is set$"):
        cp.vectorize(lambda x: x + 1)(cp.zeros((0, 3)))
    assert_same(
        cp.vectorize(lambda x: x + 1, otypes=[np.float32])(cp.zeros((0, 3))), np.zeros((0, 3), np.float32)
    )

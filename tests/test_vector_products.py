"""vecdot, matvec and vecmat as NumPy 2's gufuncs (Note [Vector gufuncs]): every dtype, broadcasting, zero-size
and size-1 axes, strided and reversed operands, the gufunc keywords, NumPy's errors, and whether results share
memory with the inputs."""

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, dtype_id, make_data
from cuarray import testing

gpu = pytest.mark.gpu

# float16 products round before they are summed on the device; NumPy's float16 loops sum in float32
TOL = {
    "rtol": {np.float16: 1e-2, np.float32: 1e-5, np.complex64: 1e-5, "default": 1e-12},
    "atol": {np.float16: 8, "default": 1e-4},
}

SHAPES = {  # name -> [(x1 shape, x2 shape)]
    "vecdot": [
        ((5,), (5,)),
        ((4, 5), (5,)),
        ((3, 1, 5), (2, 5)),
        ((0, 5), (5,)),
        ((3, 0), (0,)),
        ((1, 1), (1,)),
    ],
    "matvec": [((4, 5), (5,)), ((3, 4, 5), (5,)), ((2, 1, 4, 5), (3, 5)), ((0, 5), (5,)), ((4, 0), (0,))],
    "vecmat": [((5,), (5, 4)), ((3, 5), (5, 4)), ((2, 1, 5), (3, 5, 4)), ((5,), (5, 0)), ((0,), (0, 4))],
}
CASES = [(name, i) for name, shapes in SHAPES.items() for i in range(len(shapes))]


def _pair(xp, name, i, dtype, layout="C"):
    s1, s2 = SHAPES[name][i]
    a, b = make_data(s1, dtype, 1), make_data(s2, dtype, 2)
    if dtype.kind == "c":  # the conjugation of x1 shows only where its imaginary parts are not zero
        a = a + (1j * make_data(s1, np.float64, 3)).astype(dtype)
    if layout == "F":
        a, b = np.asfortranarray(a), np.asfortranarray(b)
    x, y = xp.asarray(a), xp.asarray(b)
    if layout == "reversed":  # negative strides: the operands' reversed copies, reversed back as views
        x, y = (xp.asarray(np.ascontiguousarray(v[(slice(None, None, -1),) * v.ndim]))[
            (slice(None, None, -1),) * v.ndim
        ] for v in (a, b))  # fmt: skip
    return x, y


@gpu
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name,i", CASES)
@testing.numpy_cuarray_allclose(**TOL)
def test_values_dtypes_and_shapes_as_numpy(xp, name, i, dtype):
    x, y = _pair(xp, name, i, dtype)
    return getattr(xp, name)(x, y)


@gpu
@pytest.mark.parametrize("layout", ["F", "reversed"])
@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("int16", "float32", "complex128")], ids=dtype_id)
@pytest.mark.parametrize("name,i", CASES)
@testing.numpy_cuarray_allclose(**TOL)
def test_strided_and_reversed_operands(xp, name, i, dtype, layout):
    x, y = _pair(xp, name, i, dtype, layout)
    return getattr(xp, name)(x, y)


@gpu
@pytest.mark.parametrize("name", list(SHAPES))
def test_results_are_new_arrays_and_numpy_dispatches_here(name):
    x, y = _pair(cp, name, 1, np.dtype(np.float64))
    r = getattr(cp, name)(x, y)
    assert not cp.shares_memory(r, x) and not cp.shares_memory(r, y)
    via_numpy = getattr(np, name)(x, y)
    assert isinstance(via_numpy, cp.ndarray)
    np.testing.assert_allclose(cp.asnumpy(via_numpy), getattr(np, name)(x.get(), y.get()))


@gpu
@pytest.mark.parametrize(
    "name,s1,s2,kwargs",
    [
        ("vecdot", (5, 3), (5, 3), {"axis": 0}),
        ("vecdot", (5, 3), (3, 5), {"axes": [0, 1]}),
        ("vecdot", (5, 3), (3, 5), {"axes": [(0,), -1, ()]}),
        ("vecdot", (2, 5, 3), (5, 1), {"axis": -2, "keepdims": True}),
        ("vecdot", (2, 5), (2, 5), {"keepdims": True}),
        ("vecdot", (4, 5), (4, 5), {"axes": [0, 0, 1], "keepdims": True}),
        ("vecdot", (4, 5), (4, 5), {"axes": [0, 0], "keepdims": True}),
        ("matvec", (5, 4), (5,), {"axes": [(1, 0), 0, 0]}),
        ("matvec", (2, 5, 4), (3, 1, 4), {"axes": [(-2, -1), -1, 0]}),
        ("vecmat", (5, 2), (4, 5), {"axes": [0, (1, 0), 0]}),
        ("vecdot", (4, 5), (5,), {"dtype": np.float32}),
        ("matvec", (4, 5), (5,), {"signature": "ff->f"}),
        ("vecdot", (4, 5), (5,), {"dtype": np.int32, "casting": "unsafe"}),
        ("matvec", (4, 5), (5,), {"order": "F"}),
        ("vecdot", (4, 3, 5), (5,), {"order": "C"}),
    ],
)
@testing.numpy_cuarray_allclose(rtol=1e-6, atol=1e-4)
def test_gufunc_keywords(xp, name, s1, s2, kwargs):
    x, y = xp.asarray(make_data(s1, np.float64, 1)), xp.asarray(make_data(s2, np.float64, 2))
    r = getattr(xp, name)(x, y, **kwargs)
    if "order" in kwargs:
        assert r.flags.f_contiguous == (kwargs["order"] == "F") or r.ndim < 2
    return r


@gpu
@pytest.mark.parametrize("out_dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("name", list(SHAPES))
def test_out_is_written_and_returned(name, out_dtype):
    s1, s2 = SHAPES[name][2]
    a, b = make_data(s1, np.float32, 1), make_data(s2, np.float32, 2)
    want = getattr(np, name)(a, b, out=np.zeros(getattr(np, name)(a, b).shape, out_dtype))
    for out in (cp.zeros(want.shape, out_dtype), (cp.zeros(want.shape, out_dtype),)):
        got = getattr(cp, name)(cp.asarray(a), cp.asarray(b), out=out)
        assert got is (out[0] if isinstance(out, tuple) else out)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-5)


@gpu
@pytest.mark.parametrize(
    "name,s1,s2,kwargs,error",
    [
        ("vecdot", (4, 5), (4,), {}, ValueError),  # core sizes differ
        ("matvec", (4, 5), (4,), {}, ValueError),
        ("vecmat", (4,), (5, 4), {}, ValueError),
        ("vecdot", (), (5,), {}, ValueError),  # too few dimensions
        ("matvec", (5,), (5,), {}, ValueError),
        ("vecmat", (5,), (5,), {}, ValueError),
        ("vecdot", (2, 5), (3, 5), {}, ValueError),  # outer shapes do not broadcast
        ("matvec", (4, 5), (5,), {"keepdims": True}, TypeError),
        ("vecmat", (5,), (5, 4), {"axis": 0}, TypeError),
        ("vecdot", (4, 5), (4, 5), {"axis": 0, "axes": [0, 0]}, TypeError),
        ("vecdot", (4, 5), (4, 5), {"axes": (0, 0)}, TypeError),
        ("matvec", (4, 5), (5,), {"axes": [(0, 1), 0]}, ValueError),
        ("vecdot", (4, 5), (4, 5), {"axes": [0, 0, 0]}, np.exceptions.AxisError),
        ("matvec", (4, 5), (5,), {"axes": [0, 0, 0]}, np.exceptions.AxisError),
        ("vecdot", (4, 5), (4, 5), {"axes": [0, 5]}, np.exceptions.AxisError),
        ("vecdot", (4, 5), (5,), {"dtype": np.int32}, TypeError),  # float64 to int32 is not same_kind
        ("vecdot", (4, 5), (5,), {"dtype": np.float32, "signature": "ff->f"}, TypeError),
        ("matvec", (4, 5), (5,), {"order": "X"}, ValueError),
    ],
)
def test_errors_as_numpy(name, s1, s2, kwargs, error):
    a, b = make_data(s1, np.float64, 1), make_data(s2, np.float64, 2)
    for xp, x, y in ((np, a, b), (cp, cp.asarray(a), cp.asarray(b))):
        with pytest.raises(error) as got:
            getattr(xp, name)(x, y, **kwargs)
        if xp is np:
            want = got.value
    assert type(got.value) is type(want) or isinstance(got.value, type(want))


@gpu
@pytest.mark.parametrize(
    "name,out_shape,out_dtype,error",
    [
        ("matvec", (4,), np.int64, TypeError),  # float64 into int64 is not same_kind
        ("vecdot", (), np.float16, None),  # same_kind allows it
        ("matvec", (5,), np.float64, ValueError),
        ("matvec", (2, 4), np.float64, None),  # more outer dimensions: the result broadcast, as ufuncs do
        ("vecdot", (4,), np.float64, None),
        ("matvec", (4, 1), np.float64, ValueError),  # a core dimension does not broadcast
    ],
)
def test_out_errors_as_numpy(name, out_shape, out_dtype, error):
    s1, s2 = ((4, 5), (5,)) if name == "matvec" else ((5,), (5,))
    a, b = make_data(s1, np.float64, 1), make_data(s2, np.float64, 2)
    results = []
    for xp, x, y in ((np, a, b), (cp, cp.asarray(a), cp.asarray(b))):
        out = xp.zeros(out_shape, out_dtype)
        if error is None:
            assert getattr(xp, name)(x, y, out=out) is out
            results.append(xp.asnumpy(out) if xp is cp else out)
        else:
            with pytest.raises(error):
                getattr(xp, name)(x, y, out=out)
    if results:
        np.testing.assert_allclose(results[1], results[0], rtol=1e-3)
    with pytest.raises(TypeError, match="return arrays must be of ArrayType"):
        cp.vecdot(cp.asarray(a[:5]), cp.asarray(b[:5]), out=np.zeros(()))


@gpu
def test_linalg_vecdot_takes_axis_alone():
    x, y = cp.ones((3, 4)), cp.ones((3, 4))
    assert (
        cp.linalg.vecdot(x, y, axis=0).shape
        == np.linalg.vecdot(np.ones((3, 4)), np.ones((3, 4)), axis=0).shape
    )
    for xp in (np, cp):
        with pytest.raises(TypeError):
            xp.linalg.vecdot(xp.ones(3), xp.ones(3), keepdims=True)


def test_order_is_checked_first():
    with pytest.raises(ValueError, match="order must be one of"):
        cp.matvec(None, None, order="X")


@gpu
@pytest.mark.parametrize(
    "x_dtype,number,error",
    [
        ("uint8", -1, OverflowError),
        ("uint64", -1, OverflowError),
        ("int8", 2.5, ValueError),
        ("uint8", 3, ValueError),
    ],
)
def test_python_numbers_are_weak_as_in_numpy(x_dtype, number, error):
    # NumPy types a Python number by the array beside it: -1 against uint8 overflows before the shapes are read
    a = make_data((3, 4), x_dtype)
    for name in SHAPES:
        for xp, x in ((np, a), (cp, cp.asarray(a))):
            with pytest.raises(error):
                getattr(xp, name)(x, number)


@gpu
@pytest.mark.parametrize("order", ["A", "C", "F", "K"])
def test_order_of_the_result_as_numpy(order):
    a = np.asfortranarray(make_data((2, 3, 3), np.float64, 1))
    b = np.asfortranarray(make_data((2, 3), np.float64, 2))
    want = np.matvec(a, b, order=order)
    got = cp.matvec(cp.asarray(a), cp.asarray(b), order=order)
    if order != "K":  # NumPy's K layout follows its iterator; cuarray's the matrix product's
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
            want.flags.c_contiguous,
            want.flags.f_contiguous,
        )
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)


@gpu
@pytest.mark.parametrize(
    "name,s1,s2,kwargs,out_shape",
    [
        ("vecdot", (3, 4), (3, 4), {"axis": 0, "keepdims": True}, (5, 4)),  # out's core axis is 5, not 1
        ("vecdot", (3, 4), (3, 4), {"axis": 0, "keepdims": True}, (1, 4)),
        ("vecdot", (3, 4), (3, 4), {"axes": [0, 0, 0], "keepdims": True}, (2, 1, 4)),
        ("matvec", (1, 3), (3,), {"axes": [(0, 1), (0,), (0,)]}, (5,)),  # a core axis does not broadcast
        ("vecmat", (3,), (3, 4), {"axes": [0, (0, 1), 0]}, (4, 2)),  # out's core axis first, outer after
    ],
)
def test_out_with_axes_as_numpy(name, s1, s2, kwargs, out_shape):
    a, b = make_data(s1, np.float64, 1), make_data(s2, np.float64, 2)
    want_out = np.zeros(out_shape)
    try:
        getattr(np, name)(a, b, out=want_out, **kwargs)
    except ValueError:
        with pytest.raises(ValueError):
            getattr(cp, name)(cp.asarray(a), cp.asarray(b), out=cp.zeros(out_shape), **kwargs)
        return
    got_out = cp.zeros(out_shape)
    assert getattr(cp, name)(cp.asarray(a), cp.asarray(b), out=got_out, **kwargs) is got_out
    np.testing.assert_allclose(got_out.get(), want_out, rtol=1e-12)


@gpu
def test_float16_vecdot_multiplies_and_sums_in_float32_as_numpy():
    for x, y in (([300, 300], [300, -300]), ([0.1, 0.1], [1e-4, 1e-4]), ([60000, 1], [2, -1])):
        a, b = np.array(x, np.float16), np.array(y, np.float16)
        got = cp.vecdot(cp.asarray(a), cp.asarray(b))
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got.get(), np.vecdot(a, b))

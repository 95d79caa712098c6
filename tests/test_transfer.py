"""Host <-> device transfers: array/asarray, asnumpy, ndarray.get/set, and the ban on implicit
conversion to NumPy."""

import re

import cuarray as cp
import numpy as np
import pytest
from conftest import (
    ALL_DTYPES,
    LAYOUT_NAMES,
    SOME_DTYPES,
    assert_same,
    dtype_id,
    make_data,
    make_pair,
    np_layout,
    spin_then_write,
)

pytestmark = pytest.mark.gpu

IMPLICIT = re.escape(
    "Implicit conversion to a NumPy array is not allowed. "
    "Please use `.get()` to construct a NumPy array explicitly."
)


# ---- from Python objects ------------------------------------------------------------------------

PY_OBJECTS = {
    "ints": [1, 2, 3],
    "floats": [1.0, 2.5, -3.0],
    "mixed_int_float": [1, 2.5],
    "bools": [True, False, True],
    "complex": [1 + 2j, -1j],
    "mixed_complex": [1, 2.0, 3j],
    "nested": [[1, 2], [3, 4], [5, 6]],
    "nested_3d": [[[1.5], [2]], [[3], [4]]],
    "empty": [],
    "empty_nested": [[], []],
    "int_scalar": 5,
    "float_scalar": 2.5,
    "bool_scalar": True,
    "complex_scalar": 1 - 1j,
    "big_int": [2**40, -(2**40)],
    "tuple": (1, 2, 3),
    "list_of_tuples": [(1, 2), (3, 4)],
    "numpy_scalars": [np.float32(1.5), np.float32(2)],
    "numpy_scalar": np.int16(-3),
    "numpy_float16_scalar": np.float16(0.5),
    "special_floats": [np.nan, np.inf, -np.inf, -0.0],
}


@pytest.mark.parametrize("fn", ["array", "asarray"])
@pytest.mark.parametrize("obj", list(PY_OBJECTS))
def test_from_python_objects(obj, fn):
    value = PY_OBJECTS[obj]
    x = getattr(cp, fn)(value)
    assert_same(x, getattr(np, fn)(value))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("obj", ["ints", "bools", "nested", "int_scalar", "empty"])
def test_from_python_objects_with_dtype(obj, dtype):
    value = PY_OBJECTS[obj]
    assert_same(cp.array(value, dtype=dtype), np.array(value, dtype=dtype))
    assert_same(cp.asarray(value, dtype=dtype), np.asarray(value, dtype=dtype))


def test_negative_zero_survives():
    x = cp.array([-0.0, 0.0])
    assert np.signbit(cp.asnumpy(x)).tolist() == [True, False]


def test_ragged_list_raises_value_error():
    with pytest.raises(ValueError):
        cp.array([[1, 2], [3]])


# ---- from NumPy arrays --------------------------------------------------------------------------


@pytest.mark.parametrize("fn", ["array", "asarray"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_from_numpy_any_layout(layout, dtype, fn):
    _, a = np_layout(layout, dtype)
    x = getattr(cp, fn)(a)
    assert_same(x, a)


@pytest.mark.parametrize("layout", ["c2d", "f2d", "negative", "3d_permuted", "0d", "empty"])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.complex128, np.bool_], ids=dtype_id)
def test_from_numpy_with_dtype(layout, dtype):
    _, a = np_layout(layout, np.int16)
    assert_same(cp.asarray(a, dtype=dtype), np.asarray(a, dtype=dtype))
    assert_same(cp.array(a, dtype=dtype), np.array(a, dtype=dtype))


def test_from_numpy_fortran_order():
    a = np.asfortranarray(make_data((5, 7), np.float64))
    assert_same(cp.asarray(a), a)
    a3 = np.asfortranarray(make_data((2, 3, 4), np.int32))
    assert_same(cp.array(a3), a3)


def test_from_numpy_odd_strides():
    base = make_data((10, 12, 3), np.float32)
    views = [
        base[::3, 1::5, ::-1],
        base[:, :, 1],
        base.transpose(2, 0, 1)[:, ::-4],
        base[7:2:-2, ::-11],
        base.reshape(-1)[::7],
        base[:, ::2].swapaxes(0, 1),
    ]
    for a in views:
        assert_same(cp.asarray(a), a)


def test_from_numpy_subclasses_and_byte_orders():
    base = make_data((3, 4), np.float64)
    for a in (np.asmatrix(base), np.ma.masked_array(base, mask=base > 0), base[:, ::-2].view(np.recarray)):
        assert_same(cp.asarray(a), np.asarray(a))
        assert_same(cp.array(a), np.array(a))
    for t in (">f8", ">i2", ">c8"):  # big-endian data, as files hold it: native on the device, same values
        swapped = base.astype(t)
        x = cp.asarray(swapped)
        assert x.dtype == swapped.dtype.newbyteorder("=")
        assert_same(x, swapped.astype(x.dtype))


def test_from_numpy_special_values():
    a = np.array([np.nan, np.inf, -np.inf, -0.0, 1e-45, 3.4e38], dtype=np.float32)
    x = cp.asarray(a)
    assert_same(x, a)
    assert np.array_equal(np.signbit(cp.asnumpy(x)), np.signbit(a))


def test_from_numpy_does_not_alias_host_memory():
    a = np.arange(5.0)
    x = cp.asarray(a)
    a[0] = 100
    assert_same(x, np.arange(5.0))


def test_large_transfer_round_trip():
    a = make_data((1 << 20,), np.float32, seed=7)
    assert_same(cp.asarray(a), a)
    b = a[::-3]
    assert_same(cp.asarray(b), b)


# ---- from cuarray arrays ------------------------------------------------------------------------


def test_asarray_returns_same_object():
    x = cp.arange(5)
    assert cp.asarray(x) is x
    assert cp.asarray(x, dtype=x.dtype) is x
    assert cp.asarray(x, dtype="int64") is x
    v = x[::2]
    assert cp.asarray(v) is v


def test_asarray_with_other_dtype_converts():
    a = np.arange(5)
    x = cp.asarray(a)
    y = cp.asarray(x, dtype=np.float32)
    assert y is not x
    assert_same(y, a.astype(np.float32))


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_array_copies(layout, dtype):
    x, a = make_pair(layout, dtype)
    y = cp.array(x)
    assert y is not x
    assert y.flags.owndata and y.base is None
    assert_same(y, a)
    if y.size:
        y.fill(1 if dtype != np.bool_ else False)
        assert_same(x, a)  # x untouched


def test_array_from_cuarray_with_dtype():
    x, a = make_pair("negative", np.int32)
    assert_same(cp.array(x, dtype=np.complex64), a.astype(np.complex64))


# ---- to NumPy -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_asnumpy_and_get(layout, dtype):
    x, a = make_pair(layout, dtype)
    for got in (cp.asnumpy(x), x.get(), cp.asnumpy(x, stream=None), x.get(stream=None)):
        assert type(got) is np.ndarray
        assert got.dtype == a.dtype and got.shape == a.shape
        np.testing.assert_array_equal(got, a, strict=True)


def test_asnumpy_of_numpy_returns_it():
    a = np.arange(4)
    assert cp.asnumpy(a) is a
    f = np.zeros((2, 3), order="F")
    assert cp.asnumpy(f) is f


def test_asnumpy_result_is_independent():
    x = cp.arange(4)
    a = cp.asnumpy(x)
    a[0] = 42
    assert_same(x, np.arange(4))


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_asnumpy_and_get_into_out(layout, dtype):
    x, a = make_pair(layout, dtype)
    out = np.empty(a.shape, dtype=a.dtype)
    assert cp.asnumpy(x, out=out) is out
    np.testing.assert_array_equal(out, a, strict=True)
    out2 = np.empty(a.shape, dtype=a.dtype)
    assert x.get(out=out2) is out2
    np.testing.assert_array_equal(out2, a, strict=True)


def test_get_on_a_stream():
    s = cp.cuda.Stream()
    x, a = make_pair("strided", np.float64)
    np.testing.assert_array_equal(x.get(stream=s), a)
    out = np.empty(a.shape, a.dtype)
    cp.asnumpy(x, stream=s, out=out)
    s.synchronize()
    np.testing.assert_array_equal(out, a)


def test_get_on_a_stream_waits_for_that_stream():
    # The writer runs on a non-blocking stream, which the null stream does not wait for: only a copy queued
    # on `s` itself sees its result.
    s = cp.cuda.Stream(non_blocking=True)
    for read in (
        lambda x: x.get(stream=s),
        lambda x: cp.asnumpy(x, s),
        lambda x: x.get(stream=s, blocking=False),
    ):
        x = cp.zeros(1000, dtype=np.float32)
        cp.cuda.Device().synchronize()
        spin_then_write(0.05, dst=x, stream=s)
        np.testing.assert_array_equal(read(x), np.arange(1, 1001, dtype=np.float32))
    assert cp.cuda.get_current_stream().ptr == 0  # the current stream is restored


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("order", ["C", "F", "A", "K", "c", "f"])
def test_get_lays_the_result_out_in_order(layout, order):
    # CuPy's get(order=): 'C' or 'F'; 'A' (and 'K'): F for an F- but not C-contiguous array, else C.
    x, a = make_pair(layout, np.float32)
    o = order.upper()
    want_f = o == "F" or (o in "AK" and a.flags.f_contiguous and not a.flags.c_contiguous)
    for got in (x.get(order=order), cp.asnumpy(x, order=order)):
        np.testing.assert_array_equal(got, a, strict=True)
        assert got.flags.f_contiguous if want_f else got.flags.c_contiguous, (got.strides, a.strides)
    if layout == "f2d":  # out= keeps its own layout, whatever `order` says
        out = np.empty(a.shape, a.dtype, order="C")
        assert x.get(out=out, order=order) is out
        np.testing.assert_array_equal(out, a, strict=True)


def test_get_with_a_bad_order_is_value_error():
    x = cp.arange(3)
    for bad in ("X", "CF"):
        with pytest.raises(ValueError, match="order must be one of 'C', 'F', 'A', or 'K'"):
            x.get(order=bad)
    with pytest.raises(TypeError, match="order must be str, not int"):  # as NumPy's order= everywhere
        x.get(order=1)


# ---- ndarray.set --------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", SOME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_set_from_numpy_of_any_layout(layout, dtype):
    _, a = np_layout(layout, dtype, seed=1)
    x = cp.asarray(make_data(a.shape, dtype, seed=2))
    assert x.set(a) is None
    assert_same(x, a)


def test_set_shape_mismatch_raises_and_leaves_target():
    a = make_data((3, 4), np.float32)
    x = cp.asarray(a)
    with pytest.raises(ValueError):
        x.set(np.zeros((4, 3), dtype=np.float32))
    assert_same(x, a)


# ---- implicit conversion is refused -------------------------------------------------------------


@pytest.mark.parametrize(
    "convert",
    [np.asarray, np.array, lambda x: x.__array__(), lambda x: np.asarray(x, dtype=np.float64)],
    ids=["np.asarray", "np.array", "__array__", "np.asarray_dtype"],
)
def test_implicit_conversion_raises(convert):
    x = cp.arange(3.0)
    with pytest.raises(TypeError, match=IMPLICIT):
        convert(x)


def test_implicit_conversion_raises_for_0d_and_views():
    for x in (cp.array(1.5), cp.arange(6).reshape(2, 3)[:, ::-1]):
        with pytest.raises(TypeError, match=IMPLICIT):
            np.asarray(x)


# ---- several devices ----------------------------------------------------------------------------


@pytest.mark.multi_gpu
@pytest.mark.parametrize("fn", ["asarray", "array"])
def test_asarray_moves_array_to_current_device(fn):
    a = make_data((4, 5), np.float32)
    with cp.cuda.Device(0):
        x0 = cp.asarray(a)[:, ::-1]
    with cp.cuda.Device(1):
        x1 = getattr(cp, fn)(x0)
        assert x1.device.id == 1
        assert x1 is not x0
    assert x0.device.id == 0
    assert_same(x1, a[:, ::-1])
    assert_same(x0, a[:, ::-1])


@pytest.mark.multi_gpu
def test_asnumpy_from_other_device():
    a = make_data((10,), np.int64)
    with cp.cuda.Device(1):
        x1 = cp.asarray(a)
    with cp.cuda.Device(0):
        np.testing.assert_array_equal(cp.asnumpy(x1), a)
        np.testing.assert_array_equal(x1.get(), a)


@pytest.mark.multi_gpu
@pytest.mark.parametrize("layout", ["c", "f", "strided", "empty"])
def test_peer_copy_orders_against_both_devices(layout):
    """The copy waits for work queued on the source's stream, and the source's memory, freed at once, is not
    reused before the copy has read it (Note [Peer copies])."""
    n = 1 << 22
    with cp.cuda.Device(0):
        x0 = cp.zeros(n, np.float32)
        for _ in range(20):  # queued work the copy must wait for
            x0 += 1
        src = {"c": x0.reshape(1024, -1), "f": x0.reshape(1024, -1).T, "strided": x0[::3], "empty": x0[:0]}[
            layout
        ]
    with cp.cuda.Device(1):
        y = cp.asarray(src)
    del src, x0
    with cp.cuda.Device(0):
        junk = [cp.full(n, -7.0, np.float32) for _ in range(4)]  # would overwrite a block freed too early
    with cp.cuda.Device(1):
        assert y.device.id == 1
        host = y.get()
    expected_shape = {
        "c": (1024, n // 1024),
        "f": (n // 1024, 1024),
        "strided": ((n + 2) // 3,),
        "empty": (0,),
    }
    assert host.shape == expected_shape[layout]
    assert (host == 20).all()
    if layout == "f":
        assert y.flags.f_contiguous
    del junk


@pytest.mark.multi_gpu
def test_freeing_another_devices_array_keeps_the_current_device():
    with cp.cuda.Device(1):
        x1 = cp.arange(10)
    with cp.cuda.Device(0):
        del x1  # returned to device 1's pool from device 0
        assert cp.cuda.runtime.getDevice() == 0
        assert cp.arange(3).device.id == 0


@pytest.mark.multi_gpu
def test_elementwise_with_inputs_on_two_devices_raises():
    with cp.cuda.Device(1):
        x1 = cp.arange(6.0)
    with cp.cuda.Device(0):
        x0 = cp.arange(6.0)
        with pytest.raises(ValueError, match=r"on device 1 but the current device is 0"):
            x0 + x1


def test_get_and_set_check_the_dtype_first_with_cupys_errors():
    x = cp.zeros((3, 4), np.float64)
    with pytest.raises(TypeError, match=r"^float32 array cannot be obtained from float64 array$"):
        x.get(out=np.zeros((4, 3), np.float32))
    with pytest.raises(TypeError, match=r"^>f8 array cannot be obtained from float64 array$"):
        x.get(out=np.zeros((3, 4), np.dtype(">f8")))
    with pytest.raises(
        ValueError, match=r"^Shape mismatch. Expected shape: \(3, 4\), actual shape: \(4, 3\)$"
    ):
        x.get(out=np.zeros((4, 3)))
    with pytest.raises(TypeError, match=r"^float32 array cannot be set to float64 array$"):
        x.set(np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError, match=r"^Shape mismatch. Old shape: \(3, 4\), new shape: \(2, 2\)$"):
        x.set(np.zeros((2, 2)))


def test_set_on_a_stream_is_ordered_on_that_stream():
    # The copy is queued on `stream`, as CuPy's: work queued on that stream after it sees the new values.
    s = cp.cuda.Stream(non_blocking=True)
    x = cp.zeros(1 << 20, np.float32)
    cp.cuda.Device().synchronize()
    values = np.arange(1 << 20, dtype=np.float32)
    x.set(values, stream=s)
    with s:
        y = x * 2
    s.synchronize()
    np.testing.assert_array_equal(cp.asnumpy(y), values * 2)
    assert cp.cuda.get_current_stream().ptr == 0

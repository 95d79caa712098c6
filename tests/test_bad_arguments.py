"""Bad arguments to public functions get NumPy's (or CuPy's) exception type with a message saying what was
wrong, never a crash: wrong types, None, NaN sizes, shapes whose byte size overflows int64, bad strides in the
ndarray(shape, dtype, memptr, strides) constructor, out-of-range device ids, streams and arrays of another
device. The checks come before any device call, so most cases run without a GPU.
tests/test_fuzz_crash.py throws junk at the whole API in a child process."""

import re

import cuarray as cp
import numpy as np
import pytest

TOO_BIG = re.escape(
    "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."
)
NAN = float("nan")
NO_STEP = "'tuple' object has no attribute 'step'"

# (id, call with xp = numpy or cuarray, exception type, message regex for cuarray or None). NumPy raises the
# same type for every row, which test_numpy_agrees checks.
CASES = [
    ("shape_none", lambda xp: xp.zeros(None), TypeError, None),
    ("shape_nan", lambda xp: xp.zeros(NAN), TypeError, None),
    ("shape_nan_in_tuple", lambda xp: xp.empty((2, NAN)), TypeError, "cannot be interpreted as an integer"),
    ("shape_float", lambda xp: xp.ones(2.0), TypeError, None),
    ("shape_str", lambda xp: xp.zeros("3"), TypeError, None),
    ("shape_nested", lambda xp: xp.zeros([[2]]), TypeError, None),
    ("shape_negative", lambda xp: xp.zeros((3, -1)), ValueError, "negative dimensions are not allowed"),
    ("bytes_overflow", lambda xp: xp.zeros((2**40, 2**40)), ValueError, TOO_BIG),
    ("bytes_overflow_int8", lambda xp: xp.empty((2**40, 2**40), dtype=np.int8), ValueError, TOO_BIG),
    ("bytes_overflow_itemsize", lambda xp: xp.empty(2**62, dtype=np.complex128), ValueError, TOO_BIG),
    ("bytes_overflow_before_zero", lambda xp: xp.ones((2**62, 4, 0)), ValueError, TOO_BIG),
    ("bytes_overflow_full", lambda xp: xp.full((2**31, 2**31, 4), 1.0), ValueError, TOO_BIG),
    ("bytes_overflow_eye", lambda xp: xp.eye(2**40, 2**40), ValueError, TOO_BIG),
    ("dimension_beyond_int64", lambda xp: xp.zeros(2**70), ValueError, "Maximum allowed dimension exceeded"),
    (
        "dimension_below_int64",
        lambda xp: xp.zeros((2, -(2**70))),
        ValueError,
        "Maximum allowed dimension exceeded",
    ),
    ("order_unknown", lambda xp: xp.zeros(3, order="Q"), ValueError, None),
    ("dtype_unknown", lambda xp: xp.zeros(3, dtype="float33"), TypeError, None),
    ("arange_nan", lambda xp: xp.arange(NAN), ValueError, None),
    ("arange_inf", lambda xp: xp.arange(0, float("inf")), ValueError, None),
    ("arange_too_long", lambda xp: xp.arange(2**70), ValueError, "Maximum allowed size exceeded"),
    ("arange_step_zero", lambda xp: xp.arange(0, 3, 0), ZeroDivisionError, None),
    ("linspace_nan_num", lambda xp: xp.linspace(0, 1, NAN), TypeError, None),
    ("linspace_too_many", lambda xp: xp.linspace(0, 1, 2**70), ValueError, "Maximum allowed size exceeded"),
    ("linspace_negative", lambda xp: xp.linspace(0, 1, -1), ValueError, None),
    ("eye_none", lambda xp: xp.eye(None), TypeError, None),
    ("identity_nan", lambda xp: xp.identity(NAN), TypeError, None),
    ("ragged", lambda xp: xp.array([[1, 2], [3]]), ValueError, None),
    # NumPy's grids fall back to the one-slice path on a TypeError, which reads key.step of the tuple.
    ("mgrid_open_stop", lambda xp: xp.mgrid[0:, 0:2], AttributeError, NO_STEP),
    ("ogrid_open_stop", lambda xp: xp.ogrid[0:, 0:2], AttributeError, NO_STEP),
    ("mgrid_none_stop", lambda xp: xp.mgrid[0:3, :None], AttributeError, NO_STEP),
    ("mgrid_str_stop", lambda xp: xp.mgrid[0:"a", 0:2], AttributeError, NO_STEP),
    ("tril_indices_complex_k", lambda xp: xp.tril_indices(3, 1j), TypeError, None),
    ("triu_indices_str_n", lambda xp: xp.triu_indices("3"), TypeError, None),
]


@pytest.mark.parametrize("name, call, exc, match", CASES, ids=[c[0] for c in CASES])
def test_numpy_agrees(name, call, exc, match):
    with pytest.raises(exc):
        call(np)


@pytest.mark.parametrize("name, call, exc, match", CASES, ids=[c[0] for c in CASES])
def test_cuarray_raises_like_numpy(name, call, exc, match):
    with pytest.raises(exc, match=match):
        call(cp)


# ---- ndarray(shape, dtype, memptr, strides, order) -------------------------------------------------------

INCOMPATIBLE = "strides is incompatible with shape of requested array and size of buffer"

# New memory (no memptr): every check comes before the allocation.
NEW_MEMORY = [
    ("strides_count", {"shape": (3,), "strides": (8, 8)}, ValueError, "must be the same length as shape"),
    ("negative_stride", {"shape": (3,), "strides": (-8,)}, ValueError, INCOMPATIBLE),
    # NumPy's and CuPy's rule: new memory is a contiguous array's (CuPy's message starts "ndarray() with strides").
    (
        "strides_past_contiguous",
        {"shape": (2, 3), "dtype": np.float32, "strides": (20, 4)},
        ValueError,
        r"ndarray\(\) with strides.*" + INCOMPATIBLE,
    ),
    ("strides_past_contiguous_3d", {"shape": (2, 3, 4), "strides": (8, 128, 1024)}, ValueError, INCOMPATIBLE),
    ("odd_stride", {"shape": (3,), "strides": (12,)}, ValueError, r"multiples of the itemsize \(8 bytes\)"),
    (
        "odd_stride_2d",
        {"shape": (2, 2), "dtype": np.int32, "strides": (8, 2)},
        ValueError,
        "multiples of the itemsize",
    ),
    ("stride_overflow", {"shape": (3,), "strides": (2**62,)}, ValueError, "too big"),
    ("stride_beyond_int64", {"shape": (3,), "strides": (2**70,)}, ValueError, "Maximum allowed dimension"),
    ("stride_float", {"shape": (3,), "strides": (8.0,)}, TypeError, None),
    ("shape_none", {"shape": None}, TypeError, r"Use \(\) not None as shape arguments"),
    ("shape_nan", {"shape": (NAN,)}, TypeError, None),
    ("too_big", {"shape": (2**40, 2**40)}, ValueError, TOO_BIG),
    ("negative_dimension", {"shape": (-1,)}, ValueError, "negative dimensions"),
    ("order", {"shape": (3,), "order": "K"}, ValueError, "order must be 'C' or 'F'"),
    ("memptr_int", {"shape": (3,), "memptr": 12345}, TypeError, "memptr must be a cuarray MemoryPointer"),
    (
        "memptr_numpy",
        {"shape": (3,), "memptr": np.zeros(3)},
        TypeError,
        "memptr must be a cuarray MemoryPointer",
    ),
    ("dtype", {"shape": (3,), "dtype": "float33"}, TypeError, None),
]


@pytest.mark.parametrize("name, kwargs, exc, match", NEW_MEMORY, ids=[c[0] for c in NEW_MEMORY])
def test_ndarray_constructor_rejects_bad_arguments(name, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        cp.ndarray(**kwargs)


@pytest.mark.gpu
def test_ndarray_constructor_views_memory_within_bounds():
    base = cp.arange(12, dtype=np.float64)
    a = cp.ndarray((3, 4), np.float64, base.data)
    assert a.base is base and a.data.ptr == base.data.ptr
    np.testing.assert_array_equal(a.get(), np.arange(12.0).reshape(3, 4))
    back = cp.ndarray((12,), np.float64, base.data + 88, strides=(-8,))
    np.testing.assert_array_equal(back.get(), np.arange(12.0)[::-1])
    cols = cp.ndarray((4, 3), np.float64, base.data, strides=(8, 32))  # a transposed view
    np.testing.assert_array_equal(cols.get(), np.arange(12.0).reshape(3, 4).T)
    bcast = cp.ndarray((2, 3), np.float64, base.data + 16, strides=(0, 0))
    np.testing.assert_array_equal(bcast.get(), np.full((2, 3), 2.0))
    a[0, 0] = -1.0  # writes through to the base
    assert float(base[0]) == -1.0
    fresh = cp.ndarray((3, 2), np.int32, strides=(4, 12))  # new memory laid out as asked
    assert fresh.strides == (4, 12) and fresh.base is None
    fresh[...] = 7
    np.testing.assert_array_equal(fresh.get(), np.full((3, 2), 7, np.int32))


@pytest.mark.gpu
@pytest.mark.parametrize(
    "make",
    [
        lambda base: cp.ndarray((13,), np.float64, base.data),  # one element past the end
        lambda base: cp.ndarray((12,), np.float64, base.data + 8),
        lambda base: cp.ndarray((2,), np.float64, base.data - 8),  # before the start
        lambda base: cp.ndarray((3,), np.float64, base.data, strides=(-8,)),
        lambda base: cp.ndarray((3, 4), np.float64, base.data, strides=(32, 16)),
        lambda base: cp.ndarray((2,), np.float64, base.data + 10**9),
    ],
    ids=[
        "past_end",
        "offset_past_end",
        "before_start",
        "negative_from_start",
        "strides_past_end",
        "far_away",
    ],
)
def test_ndarray_constructor_rejects_memory_outside_the_array(make):
    base = cp.arange(12, dtype=np.float64)
    with pytest.raises(ValueError, match=INCOMPATIBLE):
        make(base)
    np.testing.assert_array_equal(base.get(), np.arange(12.0))


@pytest.mark.gpu
def test_ndarray_constructor_rejects_misaligned_memory():
    base = cp.arange(12, dtype=np.float64)
    with pytest.raises(ValueError, match="not aligned"):
        cp.ndarray((2,), np.float64, base.data + 4)
    with pytest.raises(ValueError, match="multiples of the itemsize"):
        cp.ndarray((2,), np.float64, base.data, strides=(4,))
    ok = cp.ndarray((2,), np.float32, base.data + 4)  # aligned for its own itemsize
    assert ok.shape == (2,)


# ---- devices and streams ----------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize(
    "use", ["Device_attributes", "Device_use", "with_Device", "setDevice", "getDeviceProperties"]
)
def test_out_of_range_device_ids_raise(use):
    # As in CuPy, Device(n) only names device n; each use of one that does not exist raises.
    n = cp.cuda.runtime.getDeviceCount()
    for bad in (n, n + 7, -1):
        assert cp.cuda.Device(bad).id == bad
        with pytest.raises(cp.cuda.CUDARuntimeError, match="invalid device ordinal"):
            if use == "Device_attributes":
                _ = cp.cuda.Device(bad).attributes
            elif use == "Device_use":
                cp.cuda.Device(bad).use()
            elif use == "with_Device":
                with cp.cuda.Device(bad):
                    pass
            elif use == "setDevice":
                cp.cuda.runtime.setDevice(bad)
            else:
                cp.cuda.runtime.getDeviceProperties(bad)
    assert cp.cuda.runtime.getDevice() == 0
    np.testing.assert_array_equal(cp.arange(3).get(), np.arange(3))


@pytest.mark.gpu
@pytest.mark.parametrize("bad", [None, "x", [0], 2**70])  # '0' and 1.5 are devices 0 and 1, as in CuPy
def test_device_ids_of_the_wrong_type_raise(bad):
    with pytest.raises((TypeError, ValueError, OverflowError)):
        cp.cuda.Device(bad) if bad is not None else cp.cuda.runtime.setDevice(bad)


@pytest.mark.parametrize("bad", [[0], object(), 2**31, -(2**31) - 1, 2**70])
def test_device_ids_that_are_not_c_ints_raise_before_the_device(bad):
    # CuPy 14.2 reads the id with int() (Device('0') and Device(1.5) are devices 0 and 1) into a C int: what
    # int() refuses is a TypeError, an int out of the C int's range an OverflowError.
    with pytest.raises(OverflowError if isinstance(bad, int) else TypeError):
        cp.cuda.Device(bad)
    assert cp.cuda.Device("0").id == 0 and cp.cuda.Device(1.5).id == 1


@pytest.mark.gpu
@pytest.mark.multi_gpu
def test_stream_and_arrays_of_another_device_raise_before_launching():
    kernel = cp.RawKernel('extern "C" __global__ void k(float* x) { x[threadIdx.x] = 1.0f; }', "k")
    with cp.cuda.Device(1):
        s1 = cp.cuda.Stream()
        x1 = cp.zeros(4, dtype=np.float32)
    with cp.cuda.Device(0):
        x0 = cp.zeros(4, dtype=np.float32)
        with pytest.raises(ValueError, match="device 1"):
            kernel((1,), (4,), (x0,), stream=s1)
        with pytest.raises(ValueError, match="device 1"):
            kernel((1,), (4,), (x1,))  # would fault: device 1's memory is not mapped on device 0
        with pytest.raises((cp.cuda.CUDARuntimeError, ValueError)):
            cp.cuda.Event().record(s1)
        kernel((1,), (4,), (x0,))
        np.testing.assert_array_equal(x0.get(), np.ones(4, np.float32))  # the context is fine

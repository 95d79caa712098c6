"""datetime64 and timedelta64 arrays: stored, never computed on (Note [Datetime storage] in cpp/cuarray/dtype.h).

Creation from NumPy data, empty/zeros/ones/full, get, views (int64 included), slicing, reshapes, copies, indexing
and __cuda_array_interface__ keep NumPy's values, NaT included. Every operation that would read the values as
numbers (ufuncs, reductions, sorts, scans, casts, user kernels) raises TypeError, and DLPack export raises
BufferError, as NumPy's and CuPy's do. The tests at the top need no GPU.
"""

import operator
import re

import cuarray as cp
import numpy as np
import pytest
from cuarray import _core, testing
from cuarray._interop import _dtype_of

S = _core.jit.sources

DATETIMES = [np.dtype(f"M8[{u}]") for u in ("D", "s", "ms", "us", "ns")]
TIMEDELTAS = [np.dtype(f"m8[{u}]") for u in ("D", "h", "m", "s", "ms", "us", "ns")]
TIME_DTYPES = DATETIMES + TIMEDELTAS
# NumPy time types cuarray has no room for: other units, the generic unit.
UNSTORED = ["M8[Y]", "M8[M]", "M8[W]", "M8[h]", "M8[m]", "M8[ps]", "M8", "m8[Y]", "m8[W]", "m8[fs]", "m8"]
# Stored types in the other byte order: CuPy's ValueError naming the byte order, as for every other type.
NON_NATIVE = [">M8[ns]", ">m8[s]"]


def dtype_id(dt):
    return np.dtype(dt).str


def values(dtype, shape=(2, 3)):
    """Counts of `dtype` with NaT among them (NaT is the smallest int64), negative ones and large ones."""
    counts = np.array([5, np.iinfo(np.int64).min, -3, 0, 10**15, 7, -(10**12), 1, 2], dtype=np.int64)
    n = int(np.prod(shape))
    return np.resize(counts, n).reshape(shape).view(dtype)


# ---- no GPU needed ------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", TIME_DTYPES, ids=dtype_id)
def test_dlpack_has_no_time_types(dtype):
    with pytest.raises(BufferError, match="DLPack has no type for " + dtype.name.replace("[", r"\[")):
        _core._dlpack_dtype(dtype)


@pytest.mark.parametrize("typestr", UNSTORED)
def test_unstored_time_types_are_type_errors_before_the_device(typestr):
    for make in (cp.empty, cp.zeros):
        with pytest.raises(TypeError, match="does not support the data type"):
            make(3, dtype=typestr)
    with pytest.raises(TypeError, match="does not support the data type"):
        _dtype_of(np.dtype(typestr).str)


@pytest.mark.parametrize("typestr", NON_NATIVE)
def test_non_native_time_types_are_value_errors_before_the_device(typestr):
    for make in (cp.empty, cp.zeros):
        with pytest.raises(
            ValueError, match=re.escape("non-native byte-order; use " + np.dtype(typestr[1:]).name)
        ):
            make(3, dtype=typestr)
    with pytest.raises(ValueError, match="non-native byte order"):
        _dtype_of(np.dtype(typestr).str)


@pytest.mark.parametrize("typestr", ["(2,)i4", "O", "U3"])
def test_subarray_and_object_dtypes_are_type_errors_before_the_device(typestr):
    """Object, string and subarray types are refused before any allocation (structured and void types are
    stored: tests/test_structured.py)."""
    for make in (cp.empty, cp.zeros):
        with pytest.raises(TypeError, match="does not support the data type"):
            make(3, dtype=typestr)
    if np.dtype(typestr).subdtype is None:  # a subarray type's typestr is '|V8', an unstructured void type
        with pytest.raises(TypeError):
            _dtype_of(np.dtype(typestr).str)


@pytest.mark.parametrize("dtype", TIME_DTYPES, ids=dtype_id)
def test_cuda_array_interface_takes_the_stored_types(dtype):
    assert _dtype_of(dtype.str) == dtype


def _nin(name):
    try:
        _core._reduction_types(name, ["int64"], None)  # every reduction takes int64
        return 1
    except ValueError:
        return 2


@pytest.mark.parametrize("name", _core._reduction_names())
@pytest.mark.parametrize("dtype", [np.dtype("M8[ns]"), np.dtype("m8[s]"), np.dtype("m8[D]")], ids=dtype_id)
def test_every_reduction_refuses_time_types(name, dtype):
    """Refused by the type rule itself, so that no empty-array shortcut returns a value either."""
    n = _nin(name)
    with pytest.raises(TypeError, match="does not support reductions on " + dtype.name.replace("[", r"\[")):
        _core._reduction_types(name, [dtype] * n, None)
    if n == 1:  # a time type as dtype= is refused as well
        with pytest.raises(TypeError, match="does not support reductions on"):
            _core._reduction_types(name, ["int64"], dtype)


GENERATED = {
    "copy_contiguous": lambda t: S.copy_contiguous(t, t, False),
    "copy_strided": lambda t: S.copy_strided(t, t, 2, False),
    "copy_transpose": lambda t: S.copy_transpose(t, t, False),
    "copy_from_int64": lambda t: S.copy_contiguous(t, "int64", False),
    "copy_to_int64": lambda t: S.copy_contiguous("int64", t, False),
    "fill_contiguous": lambda t: S.fill_contiguous(t, False, True),
    "fill_strided": lambda t: S.fill_strided(t, 2, False),
    "arange": lambda t: S.arange(t, False),
    "eye": lambda t: S.eye(t, False),
    "segment_sort": lambda t: S.segment_sort(t, True, True),
    "radix_histogram": lambda t: S.radix_histogram(t),
    "radix_pass": lambda t: S.radix_pass(t, True, False),
    "searchsorted": lambda t: S.searchsorted(t, False),
    "count_nonzero": lambda t: S.count_nonzero(t, 1),
    "scan_rows": lambda t: S.scan_rows(t, t, False, False, 1),
}


@pytest.mark.parametrize("kernel", sorted(GENERATED))
@pytest.mark.parametrize("dtype", [np.dtype("M8[us]"), np.dtype("m8[ns]")], ids=dtype_id)
def test_no_kernel_is_generated_for_time_types(kernel, dtype):
    """cuda_type() refuses the storage-only types, so every generated kernel that would read them fails before
    NVRTC; the copies and fills the arrays do use are generated for int64 instead."""
    with pytest.raises(
        TypeError, match="does not support this operation on " + dtype.name.replace("[", r"\[")
    ):
        GENERATED[kernel](dtype)


@pytest.mark.parametrize("dtype", [np.dtype("M8[s]"), np.dtype("m8[h]")], ids=dtype_id)
def test_user_kernels_refuse_time_types(dtype):
    k = cp.ElementwiseKernel("T x", "T y", "y = x", "time_identity")
    with pytest.raises(TypeError, match="kernels do not take " + dtype.name.replace("[", r"\[")):
        k._definition((dtype,), (dtype,), {"T": dtype})
    # Past the Python layer, the core's source generation refuses them as well.
    k = cp.ElementwiseKernel("raw int64 x", "raw int64 y", "y[i] = x[i]", "counts_copy")
    handle = k._definition((np.dtype("int64"),), (np.dtype("int64"),), {})
    with pytest.raises(TypeError, match="does not support this operation"):
        _core._elementwise_source(handle, [dtype], [dtype], True, 0)


# ---- creation and transfers (GPU) ---------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", TIME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", [(), (0,), (1,), (2, 3), (3, 1, 2)], ids=str)
def test_asarray_and_get_keep_the_values(dtype, shape):
    host = values(dtype, shape)
    for make in (cp.asarray, cp.array):
        a = make(host)
        assert a.dtype == dtype and a.shape == shape
        back = a.get()
        assert back.dtype == dtype
        np.testing.assert_array_equal(back.view(np.int64), host.view(np.int64))  # NaT bit for bit
        np.testing.assert_array_equal(cp.asnumpy(a), host)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.dtype("M8[ns]"), np.dtype("m8[m]")], ids=dtype_id)
def test_noncontiguous_and_big_endian_host_data(dtype):
    host = values(dtype, (4, 5))
    for h in (host[::-1, ::2], host.T, host.astype(dtype.newbyteorder(">"))):
        a = cp.asarray(h)
        assert a.dtype == dtype
        np.testing.assert_array_equal(a.get(), h)


@pytest.mark.gpu
def test_dates_and_strings_are_converted_by_numpy():
    days = ["2024-02-29", "NaT", "1969-12-31", "2262-04-11"]
    a = cp.array(days, dtype="M8[D]")
    np.testing.assert_array_equal(a.get(), np.array(days, dtype="M8[D]"))
    a = cp.asarray(np.array(days, dtype="M8[D]"), dtype="M8[s]")  # the unit change runs in NumPy, on the host
    np.testing.assert_array_equal(a.get(), np.array(days, dtype="M8[D]").astype("M8[s]"))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", TIME_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("make", ["empty", "zeros", "ones", "full"])
def test_empty_zeros_ones_full(make, dtype):
    @testing.numpy_cuarray_array_equal()
    def check(xp):
        if make == "empty":
            a = xp.empty((2, 3), dtype=dtype)
            assert a.dtype == dtype and a.shape == (2, 3)
            return xp.zeros_like(a)
        if make == "full":
            return xp.full(
                (2, 3),
                np.timedelta64(7, "D") if dtype.kind == "m" else np.datetime64("2001-02-03"),
                dtype=dtype,
            )
        return getattr(xp, make)((2, 3), dtype=dtype, order="F")

    check()


@pytest.mark.gpu
def test_full_with_nat_and_unit_change_as_numpy():
    @testing.numpy_cuarray_array_equal()
    def check(xp):
        a = xp.full(4, np.datetime64("NaT"), dtype="M8[ns]")
        b = xp.full(4, np.datetime64("2020-01-01T10:00", "m"), dtype="M8[s]")
        return a, b

    check()


# ---- views, copies, indexing (GPU) --------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", TIME_DTYPES, ids=dtype_id)
def test_views_and_copies(dtype):
    @testing.numpy_cuarray_array_equal()
    def check(xp):
        a = xp.asarray(values(dtype, (4, 6)))
        return (
            a[1:, ::-2],
            a.T,
            a.reshape(3, 8),
            a.ravel(),
            a.T.ravel(),
            a.T.copy(),
            a[::-1].copy(order="F"),
            a.astype(dtype),
            xp.ascontiguousarray(a.T),
            a.flatten(),
            a[2],
            a[1, 3],
            a[None, :, 0],
            a.swapaxes(0, 1),
            xp.expand_dims(a, 0),
            a.squeeze(),
            xp.broadcast_to(a[0], (3, 6)),
        )

    check()


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.dtype("M8[ns]"), np.dtype("m8[us]")], ids=dtype_id)
def test_views_share_memory_and_int64_views_are_the_counts(dtype):
    host = values(dtype, (3, 4))
    a = cp.asarray(host)
    counts = a.view(np.int64)
    assert counts.dtype == np.int64 and cp.shares_memory(a, counts)
    np.testing.assert_array_equal(counts.get(), host.view(np.int64))
    back = counts.view(dtype)
    assert back.dtype == dtype
    counts[0, 0] = 12345
    assert a[0, 0].get() == np.array(12345, dtype=np.int64).view(dtype)
    s = a[:, 1:3]
    assert cp.shares_memory(a, s) and s.base is a
    assert a.astype(dtype, copy=False) is a
    c = a.copy()
    assert not cp.shares_memory(a, c)
    np.testing.assert_array_equal(c.get(), a.get())


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.dtype("M8[s]"), np.dtype("m8[D]")], ids=dtype_id)
def test_assignment_as_numpy(dtype):
    scalar = np.datetime64("2021-06-01T12:00:00") if dtype.kind == "M" else np.timedelta64(36, "h")
    text = "2021-06-01" if dtype.kind == "M" else None

    @testing.numpy_cuarray_array_equal()
    def check(xp):
        a = xp.asarray(values(dtype, (3, 4)))
        a[0] = scalar  # converted to the array's unit by NumPy
        a[1, ::2] = (
            np.array(["NaT", 5], dtype=dtype) if text is None else np.array(["NaT", text], dtype=dtype)
        )
        a[2, 1:] = xp.asarray(values(dtype, (3,)))
        a[2, 0] = 17  # an int is a count
        if text is not None:
            a[1, 1] = text
        b = a[:, ::-1].copy()
        b[...] = a  # same dtype, another layout
        return a, b

    check()


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.dtype("M8[ms]"), np.dtype("m8[s]")], ids=dtype_id)
def test_gathers_move_the_values(dtype):
    @testing.numpy_cuarray_array_equal()
    def check(xp):
        a = xp.asarray(values(dtype, (4, 5)))
        idx = xp.asarray([3, 0, 0, 2])
        mask = xp.asarray([True, False, True, True])
        b = xp.asarray(values(dtype, (2, 5)))
        return (
            a[idx],
            a[:, idx[:2]],
            xp.take(a, idx, axis=0),
            a[mask],
            xp.concatenate([a, b]),
            xp.stack([b, b], axis=1),
            xp.flip(a, 1),
            xp.roll(a, 2),
        )

    check()


# ---- interop (GPU) ------------------------------------------------------------------------------


class _Wrapped:
    def __init__(self, desc):
        self.__cuda_array_interface__ = desc


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", TIME_DTYPES, ids=dtype_id)
def test_cuda_array_interface_both_ways(dtype):
    a = cp.asarray(values(dtype, (3, 4)))[:, ::2]
    desc = a.__cuda_array_interface__
    assert desc["typestr"] == dtype.str and desc["descr"] == dtype.descr and desc["strides"] == (32, 16)
    b = cp.asarray(_Wrapped(desc))
    assert b.dtype == dtype and b.data.ptr == a.data.ptr
    np.testing.assert_array_equal(b.get(), a.get())
    # CuPy's case: int64 memory described as a time type, then viewed back as int64.
    raw = cp.arange(4, dtype=np.int64)
    c = cp.asarray(_Wrapped(dict(raw.__cuda_array_interface__, typestr=dtype.str, descr=dtype.descr)))
    assert c.dtype == dtype and c.shape == (4,)
    assert c.view("i8").dtype == np.int64
    np.testing.assert_array_equal(c.get(), np.arange(4).view(dtype))


@pytest.mark.gpu
def test_dlpack_export_is_buffer_error():
    a = cp.zeros(3, dtype="M8[ns]")
    with pytest.raises(BufferError, match="DLPack has no type"):
        a.__dlpack__()
    with pytest.raises(BufferError, match="DLPack has no type"):
        a.__dlpack__(max_version=(1, 0))
    with pytest.raises(BufferError, match="DLPack has no type"):
        cp.from_dlpack(a)


# ---- everything else is refused (GPU) -----------------------------------------------------------

UNARY = [
    "negative",
    "positive",
    "absolute",
    "sign",
    "isnan",
    "isfinite",
    "isinf",
    "square",
    "logical_not",
    "sqrt",
    "floor",
    "rint",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "true_divide",
    "floor_divide",
    "remainder",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "logical_and",
]
REDUCTIONS = [
    "sum",
    "prod",
    "max",
    "min",
    "argmax",
    "argmin",
    "mean",
    "var",
    "std",
    "any",
    "all",
    "ptp",
    "nanmax",
    "nanmin",
    "nansum",
    "count_nonzero",
    "cumsum",
    "sort",
    "argsort",
    "unique",
    "nonzero",
    "median",
    "flatnonzero",
]


@pytest.fixture(params=[np.dtype("M8[ns]"), np.dtype("m8[s]")], ids=dtype_id)
def time_array(request):
    return cp.asarray(values(request.param, (2, 3)))


@pytest.mark.gpu
@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("other", ["same", "int", "timedelta_scalar", "empty"])
def test_binary_ufuncs_raise(time_array, name, other):
    """NumPy computes several of these (with its NaT rules); cuarray refuses all of them, on empty arrays too."""
    a = time_array
    b = {
        "same": a,
        "int": cp.ones(3, dtype=np.int64),
        "timedelta_scalar": np.timedelta64(1, "s"),
        "empty": None,
    }[other]
    if other == "empty":
        a = a[:0]
        b = a
    with pytest.raises(TypeError):
        getattr(cp, name)(a, b)


@pytest.mark.gpu
@pytest.mark.parametrize(
    "op", [operator.add, operator.sub, operator.lt, operator.eq, operator.ne, operator.neg, operator.abs]
)
def test_operators_raise(time_array, op):
    with pytest.raises(TypeError):
        op(time_array) if op in (operator.neg, operator.abs) else op(time_array, time_array)


@pytest.mark.gpu
@pytest.mark.parametrize("name", UNARY + REDUCTIONS)
def test_unary_ufuncs_reductions_sorts_and_searches_raise(time_array, name):
    with pytest.raises(TypeError):
        getattr(cp, name)(time_array)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["sum", "prod", "nansum", "nanprod", "mean", "any", "all"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reductions_of_empty_arrays_raise(time_array, name, axis):
    """No identity is returned for an empty operand (NumPy raises for datetime64 sums; a zero-size timedelta64
    sum is NumPy's 0, refused here as every other timedelta64 sum)."""
    with pytest.raises(TypeError):
        getattr(cp, name)(time_array[:, :0], axis=axis)


@pytest.mark.gpu
@pytest.mark.parametrize("target", ["int64", "uint64", "float64", "bool", "M8[s]", "m8[ns]", "M8[us]"])
def test_casts_raise(time_array, target):
    if np.dtype(target) == time_array.dtype:
        pytest.skip("the same type is a copy")
    with pytest.raises(TypeError):
        time_array.astype(target)
    with pytest.raises(TypeError):
        cp.asarray(time_array, dtype=target)
    with pytest.raises(TypeError):  # and into a time array
        cp.empty(3, dtype=target).astype(time_array.dtype)


# Each refused call on its own, so that a failure names it.
OTHER_REFUSALS = {
    "where": lambda a: cp.where(cp.ones(3, dtype=bool), a, a),
    "clip": lambda a: cp.clip(a, a[0], a[1]),
    "arange": lambda a: cp.arange(3, dtype=a.dtype),
    "fuse": lambda a: cp.fuse(lambda x: x + x)(a),
    "elementwise_kernel": lambda a: cp.ElementwiseKernel("T x", "T y", "y = x", "time_copy")(a),
    "sum": lambda a: a.sum(),
    "max": lambda a: a.max(axis=0),
    "eq_date_str": lambda a: a == "2020-01-01",  # NumPy reads the str as a date: no all-False answer here
    "ne_nat_str": lambda a: a != "NaT",
}


@pytest.mark.gpu
def test_comparison_with_none_is_numpys_answer(time_array):
    """== None and != None read no value: all False and all True, as NumPy's."""
    host = time_array.get()
    np.testing.assert_array_equal((time_array == None).get(), host == None)
    np.testing.assert_array_equal((time_array != None).get(), host != None)


@pytest.mark.gpu
@pytest.mark.parametrize("call", list(OTHER_REFUSALS))
def test_other_refusals(time_array, call):
    with pytest.raises(TypeError):
        OTHER_REFUSALS[call](time_array)


@pytest.mark.gpu
def test_time_arrays_are_no_indices():
    # Time arrays are no indices, as in NumPy.
    with pytest.raises(IndexError):
        cp.arange(10)[cp.asarray(values(np.dtype("m8[ns]"), (2,)))]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["M8[s]", "M8[D]", "m8[ns]", "m8[h]"])
def test_isnat_as_numpy(dtype):
    a = np.array([0, -(2**63), 5, -(2**63), 7, 1], np.int64).view(dtype).reshape(2, 3)
    x = cp.asarray(a)
    for got, want in (
        (cp.isnat(x), np.isnat(a)),
        (cp.isnat(x[:, ::-2]), np.isnat(a[:, ::-2])),
        (cp.isnat(x.T), np.isnat(a.T)),
        (cp.isnat(x[0, 1]), np.isnat(a[0, 1])),
        (np.isnat(x), np.isnat(a)),  # NumPy's ufunc dispatches here
    ):
        assert isinstance(got, cp.ndarray) and got.dtype == np.bool_
        np.testing.assert_array_equal(got.get(), want)
    out = cp.zeros((2, 3), np.int8)
    assert cp.isnat(x, out=out) is out
    np.testing.assert_array_equal(out.get(), np.isnat(a).astype(np.int8))
    for xp, v in ((np, np.ones(3)), (cp, cp.ones(3))):
        with pytest.raises(TypeError, match="only defined for np.datetime64 and np.timedelta64"):
            xp.isnat(v)

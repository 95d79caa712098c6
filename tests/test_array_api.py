"""cuarray as an array API standard (2024.12) namespace beside its NumPy names: every name the standard lists,
the inspection namespace and dtype functions (no device needed), and the standard's keyword arguments and
functions against NumPy 2 (which agrees with the standard where both define a behaviour)."""

import importlib
import inspect
import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, assert_same, dtype_id, make_data, make_pair

gpu = pytest.mark.gpu

# The 2024.12 revision's names, by section of the specification.
STANDARD = {
    "constants": "e inf nan newaxis pi",
    "creation": "arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like "
    "tril triu zeros zeros_like",
    "data type functions": "astype can_cast finfo iinfo isdtype result_type",
    "data types": "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128",
    "elementwise": "abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert "
    "bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp "
    "expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal "
    "log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum "
    "multiply negative nextafter not_equal positive pow real reciprocal remainder round sign signbit "
    "sin sinh square sqrt subtract tan tanh trunc",
    "indexing": "take take_along_axis",
    "inspection": "__array_namespace_info__",
    "linear algebra": "matmul matrix_transpose tensordot vecdot",
    "manipulation": "broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll "
    "squeeze stack tile unstack",
    "searching": "argmax argmin count_nonzero nonzero searchsorted where",
    "set": "unique_all unique_counts unique_inverse unique_values",
    "sorting": "argsort sort",
    "statistical": "cumulative_prod cumulative_sum max mean min prod std sum var",
    "utility": "all any diff",
    "version": "__array_api_version__",
    "extensions": "fft linalg",
}
LINALG = [
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]
FFT = [
    "fft",
    "ifft",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]
ARRAY_ATTRIBUTES = [
    "dtype",
    "device",
    "mT",
    "ndim",
    "shape",
    "size",
    "T",
    "__abs__",
    "__add__",
    "__and__",
    "__array_namespace__",
    "__bool__",
    "__complex__",
    "__dlpack__",
    "__dlpack_device__",
    "__eq__",
    "__float__",
    "__floordiv__",
    "__ge__",
    "__getitem__",
    "__gt__",
    "__index__",
    "__int__",
    "__invert__",
    "__le__",
    "__lshift__",
    "__lt__",
    "__matmul__",
    "__mod__",
    "__mul__",
    "__ne__",
    "__neg__",
    "__or__",
    "__pos__",
    "__pow__",
    "__rshift__",
    "__setitem__",
    "__sub__",
    "__truediv__",
    "__xor__",
    "to_device",
]


@pytest.mark.parametrize("section", list(STANDARD))
def test_every_standard_name_exists(section):
    missing = [n for n in STANDARD[section].split() if not hasattr(cp, n)]
    assert not missing, f"cuarray lacks the array API's {section} names {missing}"


def test_every_linalg_and_fft_name_exists():
    assert not [n for n in LINALG if not hasattr(cp.linalg, n)]
    assert not [n for n in FFT if not hasattr(cp.fft, n)]


def test_array_object_attributes_exist():
    assert not [n for n in ARRAY_ATTRIBUTES if not hasattr(cp.ndarray, n)]


def test_version_and_dtype_names():
    assert cp.__array_api_version__ == "2024.12"
    assert cp.bool is np.bool_
    for name in STANDARD["data types"].split():
        assert np.dtype(getattr(cp, name)) == np.dtype(name)


# NumPy's functions that cuarray now has: NumPy's __array_function__ / __array_ufunc__ dispatch finds each by its
# module and name (python/cuarray/_ndarray.py).
DISPATCHED = [
    np.pad,
    np.rollaxis,
    np.cross,
    np.astype,
    np.concat,
    np.permute_dims,
    np.matrix_transpose,
    np.unstack,
    np.unique_values,
    np.unique_counts,
    np.unique_inverse,
    np.unique_all,
    np.isdtype,
    np.median,
    np.nanmedian,
    np.percentile,
    np.quantile,
    np.cov,
    np.corrcoef,
    np.digitize,
    np.unravel_index,
    np.ravel_multi_index,
    np.select,
    np.extract,
    np.interp,
    np.copy,
    np.logspace,
    np.tri,
    np.diagflat,
    np.linalg.matrix_norm,
    np.linalg.vector_norm,
    np.linalg.svdvals,
    np.linalg.outer,
    np.linalg.diagonal,
    np.linalg.cross,
    np.linalg.trace,
    np.linalg.matrix_transpose,
    np.linalg.vecdot,
    np.linalg.multi_dot,
    np.linalg.cond,
]


@pytest.mark.parametrize("func", DISPATCHED, ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_numpy_dispatch_finds_cuarrays_function(func):
    module = importlib.import_module(func.__module__.replace("numpy", "cuarray", 1))
    ours = getattr(module, func.__name__)
    assert callable(ours) and ours is not func


def test_numpy_vecdot_ufunc_dispatches():
    assert isinstance(np.vecdot, np.ufunc) and cp.vecdot.__name__ == "vecdot"


# ---- inspection namespace, dtype functions: no device needed -------------------------------------------------

KINDS = [
    "bool",
    "signed integer",
    "unsigned integer",
    "integral",
    "real floating",
    "complex floating",
    "numeric",
]


def test_namespace_info():
    info = cp.__array_namespace_info__()
    assert info.capabilities() == {
        "boolean indexing": True,
        "data-dependent shapes": True,
        "max dimensions": 64,
    }
    assert info.default_dtypes() == np.__array_namespace_info__().default_dtypes()
    assert info.default_dtypes(device=0) == info.default_dtypes()
    assert info.dtypes() == np.__array_namespace_info__().dtypes()


@pytest.mark.parametrize(
    "kind", KINDS + [("bool", "complex floating"), ("signed integer", "real floating"), ()]
)
def test_namespace_info_dtypes_by_kind(kind):
    assert cp.__array_namespace_info__().dtypes(kind=kind) == np.__array_namespace_info__().dtypes(kind=kind)


def test_namespace_info_errors():
    info = cp.__array_namespace_info__()
    with pytest.raises(ValueError, match="unsupported kind: 'integer'"):
        info.dtypes(kind="integer")
    with pytest.raises(ValueError, match="unsupported kind"):
        info.dtypes(kind=("bool", 3))
    for device in ("cpu", "cuda", -1, 1.0, True):
        with pytest.raises(ValueError, match="Device not understood"):
            info.default_dtypes(device=device)
        with pytest.raises(ValueError, match="Device not understood"):
            info.dtypes(device=device)


@pytest.mark.nogpu
def test_namespace_info_without_a_gpu():
    info = cp.__array_namespace_info__()
    assert info.devices() == []
    with pytest.raises(cp.cuda.CUDARuntimeError, match="(?i)no CUDA driver or device"):
        info.default_device()


@gpu
def test_namespace_info_devices():
    info = cp.__array_namespace_info__()
    devices = info.devices()
    assert devices == [cp.cuda.Device(i) for i in range(cp.cuda.runtime.getDeviceCount())]
    assert info.default_device() == cp.cuda.Device()
    x = cp.zeros(3, device=devices[-1])
    assert x.device == devices[-1]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("kind", KINDS + [("bool", "numeric"), np.float32, (np.int8, "real floating")])
def test_isdtype_is_numpys(dtype, kind):
    assert cp.isdtype(dtype, kind) == np.isdtype(dtype, kind)


def test_isdtype_knows_bfloat16():
    pytest.importorskip("ml_dtypes", reason="cuarray.bfloat16 needs ml_dtypes")
    bf16 = np.dtype(cp.bfloat16)
    assert cp.isdtype(bf16, "real floating") and cp.isdtype(cp.bfloat16, "numeric")
    assert not cp.isdtype(bf16, ("integral", "complex floating"))
    assert cp.isdtype(bf16, bf16) and not cp.isdtype(np.float32, bf16)
    with pytest.raises(ValueError, match="not a known kind name"):
        cp.isdtype(bf16, "floating")
    assert cp.finfo(cp.bfloat16).eps == 2.0**-7


def test_isdtype_errors_are_numpys():
    with pytest.raises(TypeError, match="dtype argument must be a NumPy dtype"):
        cp.isdtype("float32", "numeric")
    with pytest.raises(ValueError, match="'floating' is not a known kind name"):
        cp.isdtype(np.float32, "floating")


def test_dtype_functions_on_dtypes_and_scalars():
    assert cp.result_type(cp.int8, cp.uint8) == np.int16
    assert cp.result_type(cp.float32, 1.0, 2) == np.float32  # Python scalars are weak
    assert cp.can_cast(cp.int8, cp.int16) and not cp.can_cast(cp.float64, cp.int64)
    assert cp.finfo(cp.float32).eps == np.finfo(np.float32).eps
    assert cp.iinfo(cp.uint16).max == 65535


@gpu
def test_dtype_functions_take_arrays():
    x = cp.zeros(3, dtype=np.float32)
    i = cp.zeros(3, dtype=np.int16)
    assert cp.result_type(x, i) == np.float32 and cp.result_type(i, 1.5) == np.float64
    assert cp.result_type(x, np.complex64, i) == np.complex64
    assert cp.can_cast(i, np.int32) and not cp.can_cast(x, np.int16)
    assert cp.finfo(x).bits == 32 and cp.iinfo(i).bits == 16
    assert cp.isdtype(x.dtype, "real floating")
    assert np.result_type(x, i) == np.float32  # through NumPy's dispatch too


def test_standard_signatures():
    for f in (
        cp.empty,
        cp.zeros,
        cp.ones,
        cp.full,
        cp.empty_like,
        cp.zeros_like,
        cp.ones_like,
        cp.full_like,
        cp.arange,
        cp.linspace,
        cp.eye,
        cp.asarray,
        cp.from_dlpack,
        cp.astype,
    ):
        assert "device" in inspect.signature(f).parameters, f.__name__
    for f in (cp.sort, cp.argsort):
        assert {"descending", "stable"} <= set(inspect.signature(f).parameters)
    for f in (cp.std, cp.var, cp.nanstd, cp.nanvar):
        assert "correction" in inspect.signature(f).parameters
    assert "copy" in inspect.signature(cp.reshape).parameters
    assert "include_initial" in inspect.signature(cp.cumulative_sum).parameters


def test_argument_errors_before_the_device():
    with pytest.raises(TypeError, match="Device or a device number"):
        cp.zeros(3, device="cuda:0")
    with pytest.raises(ValueError, match="cannot be moved to 'cpu'"):
        cp.ones(3, device="cpu")
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        cp.asarray([1, 2], copy=False)


# ---- creation with device= ----------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("device", [0, "Device"])
def test_creation_on_a_device(device):
    device = cp.cuda.Device(0) if device == "Device" else device
    x = cp.asarray([1.5, 2.5])
    made = [
        cp.empty(3, device=device),
        cp.zeros((2, 2), device=device),
        cp.ones(3, device=device),
        cp.full(2, 7, device=device),
        cp.empty_like(x, device=device),
        cp.zeros_like(x, device=device),
        cp.ones_like(x, device=device),
        cp.full_like(x, 3, device=device),
        cp.arange(4, device=device),
        cp.linspace(0, 1, 5, device=device),
        cp.eye(3, device=device),
        cp.asarray([1, 2], device=device),
        cp.asarray(x, device=device),
        cp.from_dlpack(x, device=device),
        cp.astype(x, np.int8, device=device),
    ]
    for m in made:
        assert m.device == cp.cuda.Device(0)
    assert_same(cp.full_like(x, 3, device=device), np.full(2, 3.0))
    assert_same(cp.eye(3, 2, k=1, dtype=None, device=device), np.eye(3, 2, k=1))
    assert cp.asarray(x, device=device) is x


@pytest.mark.multi_gpu
def test_creation_on_another_device():
    d1 = cp.cuda.Device(1)
    with cp.cuda.Device(0):
        for m in (
            cp.zeros(3, device=d1),
            cp.ones(3, device=1),
            cp.arange(5, device=d1),
            cp.full((2,), 4, device=d1),
            cp.linspace(0, 1, 3, device=d1),
            cp.eye(2, device=d1),
            cp.asarray([1, 2], device=d1),
        ):
            assert m.device == d1
        assert cp.cuda.Device() == cp.cuda.Device(0)
        x = cp.arange(6.0)
        y = cp.asarray(x, device=d1)
        assert y.device == d1 and x.device.id == 0
        assert_same(y, np.arange(6.0))
        assert_same(cp.zeros_like(x, device=d1), np.zeros(6))
        assert cp.astype(x, np.float32, device=d1).device == d1
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            cp.asarray(x, device=d1, copy=False)


@gpu
def test_asarray_copy():
    a = make_data((3, 4), np.float32)
    x = cp.asarray(a)
    assert cp.asarray(x, copy=False) is x
    assert cp.asarray(x) is x
    y = cp.asarray(x, copy=True)
    assert y is not x and y.data.ptr != x.data.ptr
    assert_same(y, a)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        cp.asarray(x, dtype=np.float64, copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        cp.asarray(a, copy=False)
    assert_same(cp.asarray(x, dtype=np.float64, copy=None), a.astype(np.float64))


# ---- manipulation ---------------------------------------------------------------------------------------------


@gpu
def test_permute_dims_concat_matrix_transpose_unstack():
    x, a = make_pair("3d_permuted", np.int16)
    assert_same(cp.permute_dims(x, (2, 0, 1)), np.permute_dims(a, (2, 0, 1)))
    assert_same(cp.matrix_transpose(x), np.matrix_transpose(a))
    assert cp.matrix_transpose(x).base is not None
    with pytest.raises(ValueError, match="at least 2-dimensional"):
        cp.matrix_transpose(x[0, 0])
    y, b = make_pair("3d_permuted", np.float32, seed=1)
    assert_same(cp.concat([x, y], axis=1), np.concat([a, b], axis=1))
    assert_same(cp.concat([x, y], axis=None), np.concat([a, b], axis=None))
    for axis in range(-3, 3):
        got, want = cp.unstack(x, axis=axis), np.unstack(a, axis=axis)
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
    with pytest.raises(ValueError, match="at least 1-d"):
        cp.unstack(cp.asarray(1))
    with pytest.raises(np.exceptions.AxisError):
        cp.unstack(x, axis=3)


@gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "complex64"])
def test_astype_function(dtype):
    x, a = make_pair("negative", np.float32)
    assert_same(cp.astype(x, dtype), np.astype(a, dtype))
    assert cp.astype(x, np.float32, copy=False) is x
    y = cp.astype(x, np.float32)
    assert y is not x
    assert_same(y, a)


@gpu
def test_reshape_copy():
    x, a = make_pair("c2d", np.int32)
    assert cp.reshape(x, (4, 3), copy=False).base is not None
    assert_same(cp.reshape(x, shape=(2, 6)), a.reshape(2, 6))
    y = cp.reshape(x, (12,), copy=True)
    assert y.base is not None and not y.flags.owndata  # NumPy's: a view of its copy
    assert not cp.shares_memory(y, x)
    y[0] = 100
    assert int(x[0, 0]) == a[0, 0]
    with pytest.raises(ValueError, match="Unable to avoid creating a copy while reshaping"):
        cp.reshape(x.T, (12,), copy=False)
    assert_same(cp.reshape(x.T, (12,)), a.T.reshape(12))


@gpu
@pytest.mark.parametrize("axis", [0, -1, (0, 1), (0, 3), (-1, 1), (2, 0, -1)])
def test_expand_dims_tuple(axis):
    x, a = make_pair("c2d", np.float32)
    assert_same(cp.expand_dims(x, axis), np.expand_dims(a, axis))
    assert_same(cp.expand_dims(x), np.expand_dims(a, 0))


@gpu
def test_expand_dims_errors():
    x, _ = make_pair("c2d", np.float32)
    with pytest.raises(ValueError, match="repeated axis"):
        cp.expand_dims(x, (0, 0))
    with pytest.raises(np.exceptions.AxisError):
        cp.expand_dims(x, (0, 4))


@gpu
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("kind", ["list", "device", "one", "zeros"])
def test_repeat_with_counts(axis, kind):
    x, a = make_pair("strided", np.float64)  # 3 x 3
    n = a.size if axis is None else a.shape[axis]
    counts = {
        "list": [(i * 7) % 4 for i in range(n)],
        "one": [2],
        "zeros": [0] * n,
        "device": [(i * 5) % 3 for i in range(n)],
    }[kind]
    want = np.repeat(a, counts, axis)
    got = cp.repeat(x, cp.asarray(counts) if kind == "device" else counts, axis)
    assert_same(got, want)


@gpu
def test_repeat_errors_are_numpys():
    x, a = make_pair("c2d", np.int8)
    for counts in ([1, -1, 2, 0], [1, 2]):
        for wrap in (list, cp.asarray):
            with pytest.raises(ValueError) as want:
                np.repeat(a, counts, 1)
            with pytest.raises(ValueError) as got:
                cp.repeat(x, wrap(counts), 1)
            assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="object too deep"):
        cp.repeat(x, cp.ones((1, 4), dtype=np.int64), 1)
    assert_same(cp.repeat(x, 2.0, 0), np.repeat(a, 2, 0))
    assert_same(cp.repeat(cp.asarray(3.5), 3), np.repeat(3.5, 3))


# ---- sorting and sets -----------------------------------------------------------------------------------------


def _with_ties(dtype):
    a = np.array([[3, 1, 2, 1, 3, 0, 2, 2], [5, 5, 5, 4, 4, 6, 4, 5]], dtype=dtype)
    if np.dtype(dtype).kind == "f":
        a[0, 2] = a[0, 6] = np.nan
        a[1, 0] = -0.0
        a[1, 4] = 0.0
    return a


def _descending_argsort(a, axis):
    """NumPy 2.5's descending stable order, by Python's stable sort: the largest first, NaNs last; equal
    elements (-0.0 and 0.0 too) in their original order."""

    def row_order(row):
        return sorted(
            range(len(row)),
            key=lambda i: (bool(np.isnan(row[i])), 0.0 if np.isnan(row[i]) else -float(row[i])),
        )

    moved = np.moveaxis(a, axis, -1)
    out = np.array([row_order(r) for r in moved.reshape(-1, moved.shape[-1])], np.int64).reshape(moved.shape)
    return np.moveaxis(out, -1, axis)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64"])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_descending_stable(dtype, axis):
    a = _with_ties(dtype)
    x = cp.asarray(a)
    flat = a if axis is not None else a.ravel()
    ax = -1 if axis is None else axis
    order = _descending_argsort(flat, ax)
    assert_same(cp.argsort(x, axis=axis, descending=True, stable=True), order)
    assert_same(cp.argsort(x, axis=axis, descending=True), order)
    assert_same(cp.sort(x, axis=axis, descending=True), np.take_along_axis(flat, order, ax))
    assert_same(cp.argsort(x, axis=axis, stable=False), np.argsort(a, axis=axis, kind="stable"))
    assert_same(cp.sort(x, axis=axis, stable=True), np.sort(a, axis=axis))


@gpu
def test_descending_keeps_equal_elements_in_original_order():
    a = np.array([2, 7, 2, 7, 1, 2], np.int32)
    got = cp.argsort(cp.asarray(a), descending=True).get()
    assert got.tolist() == [1, 3, 0, 2, 5, 4]


def _with_repeats(dtype):
    a = make_data((4, 5), dtype)
    if a.dtype.kind in "iu":
        return a // 8
    if a.dtype.kind == "f":
        a = np.round(a / 8)
    elif a.dtype.kind == "c":
        a = (np.round(a.real / 8) + 1j * np.round(a.imag / 8)).astype(dtype)
    else:
        return a
    a[1, 1] = a[2, 3] = np.nan  # each NaN is its own value in the array API
    return a


@gpu
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float64", "complex64", "bool"])
def test_unique_functions(dtype):
    # NumPy's unique_* leave the order unspecified, as the standard does; cuarray's are sorted, as np.unique.
    a = _with_repeats(dtype)
    x = cp.asarray(a)

    def want(**kwargs):
        return np.unique(a, equal_nan=False, **kwargs)

    assert_same(cp.unique_values(x), want())
    got = cp.unique_counts(x)
    assert type(got).__name__ == "UniqueCountsResult" and got._fields == ("values", "counts")
    for g, w in zip(got, want(return_counts=True)):
        assert_same(g, w)
    got = cp.unique_inverse(x)
    assert type(got).__name__ == "UniqueInverseResult" and got._fields == ("values", "inverse_indices")
    for g, w in zip(got, want(return_inverse=True)):
        assert_same(g, w)
    got = cp.unique_all(x)
    assert type(got).__name__ == "UniqueAllResult"
    assert got._fields == ("values", "indices", "inverse_indices", "counts")
    for g, w in zip(got, want(return_index=True, return_inverse=True, return_counts=True)):
        assert_same(g, w)


@gpu
def test_unique_of_zero_d_and_empty():
    for a in (np.array(3.0), np.zeros((0, 2))):
        x = cp.asarray(a)
        assert_same(cp.unique_values(x), np.unique(a, equal_nan=False))
        assert cp.unique_inverse(x).inverse_indices.shape == a.shape


# ---- statistics and searching ---------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("name", ["std", "var", "nanstd", "nanvar"])
@pytest.mark.parametrize("correction", [0, 1, 2.5])
def test_correction(name, correction):
    x, a = make_pair("strided", np.float64)
    assert_same(getattr(cp, name)(x, correction=correction), getattr(np, name)(a, correction=correction))
    assert_same(
        getattr(cp, name)(x, axis=0, correction=correction, keepdims=True),
        getattr(np, name)(a, axis=0, correction=correction, keepdims=True),
    )
    if not name.startswith("nan"):
        assert_same(getattr(x, name)(correction=correction), getattr(np, name)(a, correction=correction))
    with pytest.raises(ValueError, match="ddof and correction can't be provided simultaneously."):
        getattr(cp, name)(x, ddof=1, correction=correction)


@gpu
@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "complex64"])
@pytest.mark.parametrize("include_initial", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
def test_cumulative_include_initial(dtype, include_initial, axis):
    x, a = make_pair("f2d", dtype)
    for name in ("cumulative_sum", "cumulative_prod"):
        assert_same(
            getattr(cp, name)(x, axis=axis, include_initial=include_initial),
            getattr(np, name)(a, axis=axis, include_initial=include_initial),
        )


@gpu
def test_cumulative_of_1d_and_zero_size():
    for a in (np.arange(5, dtype=np.int32), np.zeros(0, np.float32)):
        assert_same(
            cp.cumulative_sum(cp.asarray(a), include_initial=True), np.cumulative_sum(a, include_initial=True)
        )


@gpu
def test_where_wraps_python_ints_outside_the_arrays_type():
    # NumPy 2.4's where casts such an int into the array's type (it wraps), where a ufunc (and an earlier
    # NumPy's where) raises OverflowError: cuarray follows the running NumPy.
    c = np.array([True, False])
    for dtype, v in ((np.uint8, -1), (np.int8, 300), (np.int64, 2**63)):
        a = np.array([1, 2], dtype)
        for x, y in ((a, v), (v, a)):
            on_gpu = [cp.asarray(t) if isinstance(t, np.ndarray) else t for t in (x, y)]
            try:
                want = np.where(c, x, y)
            except OverflowError:
                with pytest.raises(OverflowError):
                    cp.where(cp.asarray(c), *on_gpu)
                continue
            assert_same(cp.where(cp.asarray(c), *on_gpu), want)
    with pytest.raises(OverflowError):
        np.where(c, np.array([1, 2]), 2**70)
    with pytest.raises(OverflowError):
        cp.where(cp.asarray(c), cp.asarray([1, 2]), 2**70)


@gpu
def test_where_with_python_scalars():
    x, a = make_pair("negative", np.float32)
    c = a > 0
    xc = cp.asarray(c)
    assert_same(cp.where(xc, x, 0.5), np.where(c, a, 0.5))
    assert_same(cp.where(xc, 2, x), np.where(c, 2, a))
    assert_same(cp.where(xc, 1, 2.5), np.where(c, 1, 2.5))
    assert_same(cp.where(xc, True, False), np.where(c, True, False))
    i, b = make_pair("negative", np.int8)
    assert_same(cp.where(xc, i, 3), np.where(c, b, 3))
    assert_same(cp.where(xc, i, 1.5), np.where(c, b, 1.5))


@gpu
@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64"])
def test_clip_with_arrays_and_none(dtype):
    x, a = make_pair("c2d", dtype)
    lo, hi = np.sort(make_data((2, 4), dtype, seed=3), axis=0)
    xlo, xhi = cp.asarray(lo), cp.asarray(hi)
    assert_same(cp.clip(x, xlo, xhi), np.clip(a, lo, hi))
    assert_same(cp.clip(x, min=xlo), np.clip(a, min=lo))
    assert_same(cp.clip(x, max=xhi[0]), np.clip(a, max=hi[0]))
    assert_same(cp.clip(x, None, None), np.clip(a, None, None))
    assert_same(cp.clip(x, min=None, max=2), np.clip(a, min=None, max=2))
    assert_same(x.clip(min=1), a.clip(min=1))


@gpu
def test_diff_with_none_prepend():
    x, a = make_pair("c2d", np.int32)
    assert_same(cp.diff(x, axis=0, n=1, prepend=None, append=None), np.diff(a, axis=0))
    assert_same(cp.diff(x, prepend=x[:, :1], append=None), np.diff(a, prepend=a[:, :1]))


@gpu
def test_standard_calls_of_existing_functions():
    x, a = make_pair("c2d", np.float64)
    i, b = make_pair("c2d", np.int64, seed=2)
    assert_same(cp.take(x, cp.asarray([2, 0]), axis=1), np.take(a, [2, 0], axis=1))
    assert_same(cp.take(x[0], cp.asarray([3, 1])), np.take(a[0], [3, 1]))
    s = np.sort(a[0])
    assert_same(cp.searchsorted(cp.asarray(s), x, side="right"), np.searchsorted(s, a, side="right"))
    assert_same(cp.searchsorted(cp.asarray(s), x[1], sorter=None), np.searchsorted(s, a[1]))
    for indexing in ("xy", "ij"):
        for g, w in zip(
            cp.meshgrid(x[0], x[1, :3], indexing=indexing), np.meshgrid(a[0], a[1, :3], indexing=indexing)
        ):
            assert_same(g, w)
    assert_same(cp.count_nonzero(i, axis=1, keepdims=True), np.count_nonzero(b, axis=1, keepdims=True))
    assert_same(cp.tile(x, (2, 1)), np.tile(a, (2, 1)))
    assert_same(cp.moveaxis(x, 0, -1), np.moveaxis(a, 0, -1))
    assert cp.broadcast_shapes((2, 1), (3,)) == (2, 3)
    for g, w in zip(cp.nonzero(i > 0), np.nonzero(b > 0)):
        assert_same(g, w)
    assert_same(
        cp.take_along_axis(x, cp.argsort(x, axis=1), axis=1), np.take_along_axis(a, np.argsort(a, axis=1), 1)
    )
    assert_same(cp.round(x * 0.37), np.round(a * 0.37))
    assert_same(cp.argmax(x, axis=0, keepdims=True), np.argmax(a, axis=0, keepdims=True))
    assert_same(cp.roll(x, shift=1, axis=1), np.roll(a, 1, axis=1))
    assert_same(cp.flip(x, axis=(0, 1)), np.flip(a, axis=(0, 1)))
    assert_same(cp.squeeze(x[:1], axis=0), np.squeeze(a[:1], axis=0))
    assert_same(cp.stack([x, x], axis=1), np.stack([a, a], axis=1))


@gpu
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sign_of_complex_is_x_over_abs(dtype):
    a = np.array([3 + 4j, -2j, 0, 1e-30 + 1e-30j, -5], dtype)
    assert_same(cp.sign(cp.asarray(a)), np.sign(a))


@gpu
@pytest.mark.parametrize(
    "name", ["maximum", "minimum", "hypot", "copysign", "nextafter", "logaddexp", "atan2", "pow"]
)
def test_binary_elementwise_with_scalars(name):
    x, a = make_pair("negative", np.float32)
    f, g = getattr(cp, name), getattr(np, name)
    assert_same(f(x, 2.0), g(a, 2.0))
    assert_same(f(-1.5, x), g(-1.5, a))
    assert_same(f(x, x[::-1]), g(a, a[::-1]))


@gpu
@pytest.mark.parametrize("name", ["reciprocal", "signbit", "square", "trunc", "expm1", "log1p"])
def test_unary_elementwise(name):
    x, a = make_pair("negative", np.float64)
    x, a = (cp.abs(x) + 1, np.abs(a) + 1) if name == "log1p" else (x, a)
    assert_same(getattr(cp, name)(x), getattr(np, name)(a))


# ---- products ------------------------------------------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", ["int8", "int32", "float32", "float64", "complex64", "complex128", "bool"])
def test_vecdot(dtype):
    x, a = make_pair("3d_permuted", dtype)  # 4 x 2 x 3
    y, b = make_pair("3d_permuted", dtype, seed=5)
    assert_same(cp.vecdot(x, y), np.vecdot(a, b))
    assert_same(cp.linalg.vecdot(x, y, axis=0), np.linalg.vecdot(a, b, axis=0))
    assert_same(cp.vecdot(x, y[0, 0], axis=-1), np.vecdot(a, b[0, 0], axis=-1))  # broadcast over x's stack
    assert_same(cp.vecdot(x[:1], y), np.vecdot(a[:1], b))
    assert_same(np.vecdot(x, y), np.vecdot(a, b))  # NumPy's gufunc dispatches to cuarray


@gpu
def test_vecdot_conjugates_the_first_argument_and_checks_shapes():
    a = np.array([1 + 2j, 3 - 1j], np.complex128)
    b = np.array([2 - 1j, 1j], np.complex128)
    got = cp.vecdot(cp.asarray(a), cp.asarray(b))
    assert_same(got, np.asarray(np.sum(np.conj(a) * b)))
    with pytest.raises(ValueError, match="size 4 is different from 3"):
        cp.vecdot(cp.ones(3), cp.ones(4))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        cp.vecdot(cp.ones(()), cp.ones(3))


@gpu
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "complex128"])
def test_cross(dtype):
    a = make_data((5, 3), dtype)
    b = make_data((5, 3), dtype, seed=4)
    x, y = cp.asarray(a), cp.asarray(b)
    assert_same(cp.cross(x, y), np.cross(a, b))
    assert_same(cp.cross(x.T, y.T, axis=0), np.cross(a.T, b.T, axis=0))
    assert_same(cp.cross(x, y[0]), np.cross(a, b[0]))
    assert_same(cp.cross(x.T, y, axisa=0, axisc=0), np.cross(a.T, b, axisa=0, axisc=0))
    assert_same(cp.linalg.cross(x, y), np.linalg.cross(a, b))
    # NumPy's 2-vectors: deprecated in 2.0 (a missing third component is 0), an error since 2.5; cuarray
    # follows the NumPy it runs with.
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            np.cross(a[:, :2], b)
    except ValueError:
        for p, q in [(x[:, :2], y), (x, y[:, :2]), (x[:, :2], y[:, :2])]:
            with pytest.raises(
                ValueError, match=r"must be \(arrays of\) 3-dimensional vectors, but they are"
            ):
                cp.cross(p, q)
        return
    a2, b2 = np.pad(a[:, :2], ((0, 0), (0, 1))), np.pad(b[:, :2], ((0, 0), (0, 1)))
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors are deprecated"):
        assert_same(cp.cross(x[:, :2], y), np.cross(a2, b))
    with pytest.warns(DeprecationWarning):
        assert_same(cp.cross(x, y[:, :2]), np.cross(a, b2))
    with pytest.warns(DeprecationWarning):
        assert_same(cp.cross(x[:, :2], y[:, :2]), np.cross(a2, b2)[:, 2])


@gpu
def test_cross_errors_are_numpys():
    x = cp.ones((2, 3))
    with pytest.raises(ValueError, match="incompatible dimensions for cross product"):
        cp.cross(x, cp.ones((2, 4)))
    with pytest.raises(
        ValueError, match="Both input arrays must be .arrays of. 3-dimensional vectors, but they are 3 and 2"
    ):
        cp.linalg.cross(x, cp.ones((2, 2)))
    with pytest.raises(np.exceptions.AxisError, match="axisa"):
        cp.cross(x, x, axisa=2)


@gpu
def test_unary_operator_methods():
    x, a = make_pair("negative", np.int16)
    assert_same(x.__neg__(), -a)
    assert_same(x.__pos__(), +a)
    assert_same(x.__abs__(), abs(a))
    assert_same(x.__invert__(), ~a)
    assert_same(-x, -a)  # the operator slots still run

"""cumsum, cumprod, nancumsum, nancumprod, cumulative_sum/prod and diff against NumPy; the scan kernels
compile for sm_90 without a GPU."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, LAYOUT_NAMES, assert_same, dtype_id, make_data, make_pair
from cuarray import _core
from test_kernel_sources import DTYPES, _compile_together

S = _core.jit.sources
SCANS = {"cumsum": np.cumsum, "cumprod": np.cumprod, "nancumsum": np.nancumsum, "nancumprod": np.nancumprod}


def _default_out(dtype):
    return np.cumsum(np.zeros(1, dtype)).dtype.name if dtype != "bfloat16" else "bfloat16"


# ---- kernels compile (no GPU) ----


def test_scan_kernels_compile_for_sm90():
    kernels = []
    for t in DTYPES:
        out = _default_out(t)
        nan = t.startswith(("float", "complex", "bfloat"))
        for product in (False, True):
            kernels.append(S.scan_tiles(t, out, product, nan, 1, product))
            kernels.append(S.scan_rows(t, out, product, nan, 2))
    kernels += [
        S.scan_tiles("int8", "int8", False, False, 3, True),
        S.scan_tiles("float64", "int32", True, False, 1, False),
        S.scan_rows("complex128", "float32", False, False, 1),
        S.scan_tiles("int64", "bool", False, False, 2, True),
        S.scan_tiles("bool", "float16", True, False, 1, False),
    ]
    cubin = _compile_together(kernels)
    for _, name in kernels:
        assert name.encode() in cubin


def test_numpy_input_is_type_error():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cp.cumsum(np.arange(3))


def test_diff_negative_order_is_value_error():
    with pytest.raises(ValueError, match="order must be non-negative but got -1"):
        cp.diff([1, 2, 3], n=-1)


# ---- values (GPU) ----


def scan_data(shape, dtype, name, seed=0):
    """make_data, or for floating products factors whose products are exact (powers of two times units), so
    that the order of a parallel scan cannot change the result."""
    dtype = np.dtype(dtype)
    if "prod" not in name or dtype.kind not in "fc":
        return make_data(shape, dtype, seed)
    rng = np.random.default_rng(seed)
    factors = [1, -1, 2, -2, 0.5, -0.5] if dtype.kind == "f" else [1, -1, 1j, -1j, 2, 0.5]
    return np.array(rng.choice(factors, size=shape), dtype=dtype)


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(SCANS))
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_scan_dtypes_flattened(name, dtype):
    a = scan_data((5, 7), dtype, name, seed=3)
    if name.startswith("nan") and dtype.kind in "fc":
        a.flat[[2, 11, 30]] = np.nan
    # float16 sums: NumPy rounds every partial sum to float16, cuarray keeps them in float32
    assert_same(getattr(cp, name)(cp.asarray(a)), SCANS[name](a), rtol=2e-3 if dtype == np.float16 else None)


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(SCANS))
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex64"])
def test_scan_layouts_and_axes(name, layout, dtype):
    x, a = make_pair(layout, dtype)
    if "prod" in name:
        a = scan_data(a.shape, dtype, name)
        x = cp.asarray(a)
        if a.ndim >= 2:  # the same values, through a transposed, negatively strided view
            a, x = a.T[::-1], x.T[::-1]
    for axis in [None] + list(range(-a.ndim, a.ndim)):
        assert_same(getattr(cp, name)(x, axis=axis), SCANS[name](a, axis=axis))


@pytest.mark.gpu
@pytest.mark.parametrize(
    "shape, axis",
    [
        ((100_003,), 0),
        ((3, 50_000), 1),
        ((50_000, 3), 0),
        ((20, 5000), 0),
        ((1000, 5), 1),
        ((7, 3, 4099), 2),
        ((4099, 2, 3), 0),
    ],
)
@pytest.mark.parametrize("dtype", ["int32", "float64", "uint8"])
def test_scan_many_tiles_and_rows(shape, axis, dtype):
    """Rows of many tiles (the look-back), strided rows, and the one-thread-per-row kernel."""
    a = make_data(shape, dtype, seed=1)
    x = cp.asarray(a)
    assert_same(cp.cumsum(x, axis=axis), np.cumsum(a, axis=axis), rtol=1e-9)
    ones = (np.abs(a) % 2 + 1).astype(np.float64) if dtype != "float64" else np.where(a > 0, 1.0, -1.0)
    assert_same(cp.cumprod(cp.asarray(ones), axis=axis), np.cumprod(ones, axis=axis))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int8", "complex128", "float16"])
@pytest.mark.parametrize("start", [0, 1, 3])
def test_scan_long_rows_vector_and_scalar_paths(dtype, start):
    """Rows of more than 32 tiles (look-back beyond one window, packed and split tile status), read and
    written with vector accesses (start 0) or element by element (views that are not aligned)."""
    full = make_data(600_007, dtype, seed=5)  # sums of these are exact in every order
    a, x = full[start:], cp.asarray(full)[start:]
    out = "float64" if dtype == "float16" else None
    assert_same(cp.cumsum(x, dtype=out), np.cumsum(a, dtype=out))
    two = np.stack([full[:300_001], full[1:300_002]])  # the second row starts unaligned: element by element
    assert_same(cp.cumsum(cp.asarray(two), axis=1, dtype=out), np.cumsum(two, axis=1, dtype=out))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["float16", "bool", "int16", "uint32"])
@pytest.mark.parametrize("start", [0, 1])
def test_scan_full_tiles_of_inputs_narrower_than_the_sum(dtype, start):
    """Many whole tiles of an input narrower than its accumulator (the body without bound checks), then a
    partial one; float16 values whose running sums float16 holds exactly, so NumPy's order gives the same."""
    rng = np.random.default_rng(7)
    if dtype == "float16":
        values = rng.integers(1, 4, 250_005).astype(np.float16)
        full = np.empty(500_009, np.float16)
        full[0::2], full[1::2] = values, -values[:-1]  # each pair sums to zero
    else:
        full = rng.integers(0, 2 if dtype == "bool" else 100, 500_009).astype(dtype)
    a, x = full[start:], cp.asarray(full)[start:]
    assert_same(cp.cumsum(x), np.cumsum(a))


@pytest.mark.gpu
def test_cumsum_large_float32_matches_float64_reference():
    a = np.random.default_rng(0).random(3_000_001).astype(np.float32)
    got = cp.cumsum(cp.asarray(a)).get()
    np.testing.assert_allclose(got, np.cumsum(a.astype(np.float64)), rtol=1e-4)


@pytest.mark.gpu
def test_integer_sums_wrap_like_numpy():
    a = np.array([100, 100, 100, -128, 127], np.int8)
    assert_same(cp.cumsum(cp.asarray(a), dtype=np.int8), np.cumsum(a, dtype=np.int8))
    b = np.full(70, 3, np.int64)
    assert_same(cp.cumprod(cp.asarray(b)), np.cumprod(b))  # wraps modulo 2**64
    u = np.array([2**63, 2**63, 5], np.uint64)
    assert_same(cp.cumsum(cp.asarray(u)), np.cumsum(u))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "float16", "float32", "complex64"])
@pytest.mark.parametrize(
    "out_dtype", [None, "int8", "int64", "uint64", "float32", "float64", "complex128", "bool"]
)
def test_dtype_argument(dtype, out_dtype):
    a = make_data((4, 6), dtype, seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        expected = np.cumsum(a, axis=1, dtype=out_dtype)
        got = cp.cumsum(cp.asarray(a), axis=1, dtype=out_dtype)
    assert_same(got, expected, rtol=1e-2 if expected.dtype == np.float16 else None)


@pytest.mark.gpu
def test_complex_to_real_dtype_warns():
    a = np.array([1 + 2j, 3 + 4j])
    with pytest.warns(np.exceptions.ComplexWarning):
        got = cp.cumsum(cp.asarray(a), dtype=np.float64)
    assert_same(got, np.array([1.0, 4.0]))


@pytest.mark.gpu
def test_out_argument():
    a = make_data((4, 5), np.int8)
    x = cp.asarray(a)
    out = cp.zeros((4, 5), np.float64)
    assert cp.cumsum(x, axis=0, out=out) is out  # accumulates in out's dtype, as NumPy does
    assert_same(out, np.cumsum(a, axis=0, out=np.zeros((4, 5))))
    out16 = cp.zeros((4, 5), np.int16)
    cp.cumsum(x, axis=1, dtype=np.int8, out=out16)
    assert_same(out16, np.cumsum(a, axis=1, dtype=np.int8, out=np.zeros((4, 5), np.int16)))
    base = cp.zeros((5, 10), np.int64)
    view = base[::-1, ::2][:4]
    cp.cumprod(x, axis=1, out=view)
    assert_same(view, np.cumprod(a, axis=1))
    flat = cp.zeros(20, np.int64)
    cp.cumsum(x, out=flat)
    assert_same(flat, np.cumsum(a))


@pytest.mark.gpu
def test_in_place_and_overlapping_out():
    a = make_data(30, np.float64)
    x = cp.asarray(a)
    cp.cumsum(x, out=x)
    assert_same(x, np.cumsum(a))
    b = make_data(31, np.float64, seed=4)
    y = cp.asarray(b)
    cp.cumsum(y[:-1], out=y[1:])  # shifted overlap goes through a temporary
    expected = b.copy()
    expected[1:] = np.cumsum(b[:-1])
    assert_same(y, expected)


@pytest.mark.gpu
def test_nan_variants():
    a = np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, 3.0]])
    x = cp.asarray(a)
    for name in ("nancumsum", "nancumprod", "cumsum"):
        for axis in (None, 0, 1):
            assert_same(getattr(cp, name)(x, axis=axis), SCANS[name](a, axis=axis))
    c = np.array([1 + 1j, complex(np.nan, 1), complex(2, np.nan), 2 - 1j])
    assert_same(cp.nancumsum(cp.asarray(c)), np.nancumsum(c))
    i = np.arange(5, dtype=np.int16)
    assert_same(cp.nancumprod(cp.asarray(i)), np.nancumprod(i))


@pytest.mark.gpu
def test_zero_d_and_empty():
    assert_same(cp.cumsum(cp.asarray(np.float32(3))), np.cumsum(np.float32(3)))
    assert_same(cp.cumprod(cp.asarray(np.int8(3)), axis=0), np.cumprod(np.int8(3), axis=0))
    e = np.zeros((0, 3), np.int32)
    assert_same(cp.cumsum(cp.asarray(e), axis=1), np.cumsum(e, axis=1))
    assert_same(cp.cumsum(cp.asarray(e)), np.cumsum(e))


@pytest.mark.gpu
def test_methods_and_array_api_names():
    a = make_data((3, 4), np.int32)
    x = cp.asarray(a)
    assert_same(x.cumsum(axis=1), a.cumsum(axis=1))
    assert_same(x.cumprod(), a.cumprod())
    assert_same(cp.cumulative_sum(x, axis=0), np.cumulative_sum(a, axis=0))
    assert_same(
        cp.cumulative_prod(x, axis=1, include_initial=True),
        np.cumulative_prod(a, axis=1, include_initial=True),
    )
    with pytest.raises(ValueError):
        cp.cumulative_sum(x)


@pytest.mark.gpu
def test_scan_errors():
    x = cp.arange(6).reshape(2, 3)
    with pytest.raises(np.exceptions.AxisError):
        cp.cumsum(x, axis=2)
    with pytest.raises(ValueError):
        cp.cumsum(x, axis=1, out=cp.zeros((3, 2)))
    with pytest.raises(np.exceptions.AxisError):
        cp.cumsum(cp.asarray(np.float64(1)), axis=1)


# ---- diff ----


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "float16", "float64", "complex64"])
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_diff(dtype, n):
    a = make_data((4, 6), dtype)
    x = cp.asarray(a)
    for axis in (-1, 0):
        expected = np.diff(a, n=n, axis=axis)
        got = cp.diff(x, n=n, axis=axis)
        if n == 0:
            assert got is x
        else:
            assert_same(got, expected)


@pytest.mark.gpu
def test_diff_prepend_append_and_errors():
    a = make_data((3, 5), np.float64)
    x = cp.asarray(a)
    assert_same(cp.diff(x, prepend=0, append=cp.asarray(a[:, :2])), np.diff(a, prepend=0, append=a[:, :2]))
    assert_same(cp.diff(x, axis=0, prepend=cp.ones((1, 5))), np.diff(a, axis=0, prepend=np.ones((1, 5))))
    assert_same(cp.diff(x[:, ::-2]), np.diff(a[:, ::-2]))
    assert_same(cp.diff(x, n=9), np.diff(a, n=9))
    with pytest.raises(ValueError, match="at least one dimensional"):
        cp.diff(cp.asarray(np.float64(1)))

"""Creation against NumPy 2, from an audit: arange's and linspace's values to the last bit (the products rounded
on their own, as NumPy's: Note [Rounding as NumPy's ranges] in kernels/creation.cuh), complex linspace in NumPy's
complex arithmetic, full's and full_like's fill values cast as NumPy's copyto casts them (Note [Fill values as
NumPy casts them] in _creation.py), order 'K' and 'A' refused for new arrays, linspace's axis with scalar bounds,
and arange's keyword forms and its TypeError for a complex length with a real type. The argument checks and the
kernels' compiles need no GPU."""

import warnings

import cuarray as cp
import numpy as np
import pytest
from conftest import ALL_DTYPES, assert_same
from cuarray import _core, testing
from test_auto_fusion_nogpu import text_sections

gpu = pytest.mark.gpu

FLOATS = [np.float64, np.float32, np.float16]


def _raised(f):
    """(type, message) of the exception f() raises."""
    with pytest.raises(Exception) as info:
        f()
    return type(info.value), str(info.value)


def _same_error(f):
    """f(xp) raises the same exception type with the same message for NumPy and for cuarray."""
    assert _raised(lambda: f(cp)) == _raised(lambda: f(np))


def _with_warnings(f):
    """f()'s result and the categories and messages of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = f()
    return out, [(w.category, str(w.message)) for w in caught]


# ---- arange and linspace to the last bit ----------------------------------------------------------------------


def _arange_cases(seed, dtype, count=300):
    """(start, stop, step) with lengths up to a few hundred; float16's stay within its range."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        scale = 1.0 if dtype == np.float16 else 10.0 ** int(rng.integers(-4, 5))
        start = float(rng.uniform(-100, 100)) * scale
        step = float(rng.uniform(0.01, 3)) * scale * float(rng.choice([-1, 1]))
        n = int(rng.integers(0, 300))
        yield start, start + step * n * float(rng.uniform(0.5, 1.0)), step


@gpu
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda t: np.dtype(t).name)
@testing.numpy_cuarray_array_equal()
def test_arange_values_to_the_last_bit(xp, dtype, seed):
    return xp.concatenate([xp.arange(*args, dtype=dtype) for args in _arange_cases(seed, dtype)])


@gpu
@testing.numpy_cuarray_array_equal()
def test_arange_values_the_probe_found(xp):
    # With a fused multiply-add, arange(0.1, 1.0, 0.1)[5] was 0.6000000000000001 (NumPy's: 0.6).
    return (
        xp.arange(0.1, 1.0, 0.1),
        xp.arange(-2.5, 2.5, 0.7, dtype=np.float32),
        xp.arange(-2.5, 2.5, 0.7, dtype=np.float16),
        xp.arange(1e15, 1e15 + 5000, 0.7),
    )


def _linspace_cases(seed, count=300):
    """(start, stop, num, endpoint) of float64 bounds, some far apart in magnitude."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        scale = 10.0 ** int(rng.integers(-6, 7))
        start, stop = (float(v) * scale for v in rng.uniform(-100, 100, 2))
        if rng.integers(0, 4) == 0:
            stop = start * float(rng.uniform(-1e3, 1e3))
        yield start, stop, int(rng.integers(0, 200)), bool(rng.integers(0, 2))


@gpu
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("dtype", [None, np.float32, np.float16, np.int64, np.complex64], ids=str)
@testing.numpy_cuarray_array_equal()
def test_linspace_values_to_the_last_bit(xp, dtype, seed):
    with np.errstate(over="ignore", invalid="ignore"):  # float16 and int64 of large bounds overflow alike
        parts = [xp.linspace(*args, dtype=dtype) for args in _linspace_cases(seed)]
    return xp.concatenate(parts)


@gpu
@pytest.mark.parametrize("seed", range(2))
@testing.numpy_cuarray_array_equal()
def test_complex_linspace_to_the_last_bit(xp, seed):
    # NumPy divides delta by div + 0j (Smith's method: times 1 / div), which differs from each part over div.
    rng = np.random.default_rng(seed)
    out = []
    for start, stop, num, endpoint in _linspace_cases(seed + 10):
        start, stop = (
            complex(start, float(rng.uniform(-50, 50))),
            complex(stop, float(rng.uniform(-5e3, 5e3))),
        )
        out.append(xp.linspace(start, stop, num, endpoint))
        out.append(xp.linspace(start, stop, num, endpoint, dtype=np.complex64))
    return xp.concatenate(out)


# Steps that underflow to zero (NumPy's `y / div * delta` branch), infinite and NaN bounds, signed zeros.
EDGE_BOUNDS = [
    (0.0, 5e-324),
    (5e-324, -1e-323),
    (1e-323, 0.0),
    (-0.0, -0.0),
    (0.0, -0.0),
    (-0.0, 1.0),
    (1.0, 1.0 + 2e-16),
    (0.0, np.inf),
    (-np.inf, np.inf),
    (np.nan, 1.0),
    (1e308, -1e308),
    (0j, 5e-324 - 1e-323j),
    (-0.0 - 0.0j, 5e-324 + 5e-324j),
    (0j, 1 + np.inf * 1j),
    (0j, complex(np.inf, 0)),
    (complex(-0.0, 0.0), complex(-0.0, -0.0)),
    (1 + 1j, 1 + 1j),
]


@gpu
@pytest.mark.parametrize("start, stop", EDGE_BOUNDS, ids=repr)
@testing.numpy_cuarray_array_equal()
def test_linspace_edge_bounds(xp, start, stop):
    out = []
    with np.errstate(invalid="ignore", over="ignore"):
        for num in (1, 2, 3, 10):
            for endpoint in (True, False):
                y = xp.linspace(start, stop, num, endpoint)
                parts = [y.real, y.imag] if y.dtype.kind == "c" else [y]
                out += [x for p in parts for x in (p, xp.signbit(p))]
    return tuple(out)


@gpu
@pytest.mark.parametrize("start, stop", [(-2.3, 7.1), (0, 1 + 2j), (1e-300j, 3 + 1e-300j), (2, 2)], ids=repr)
@pytest.mark.parametrize("num, endpoint", [(9, True), (1, True), (0, True), (7, False), (1, False)])
def test_linspace_retstep_is_numpys(start, stop, num, endpoint):
    _, r = cp.linspace(start, stop, num, endpoint, retstep=True)
    _, e = np.linspace(start, stop, num, endpoint, retstep=True)
    assert type(r) is type(e)  # NumPy's scalar of the bounds' type, or its Python float nan
    np.testing.assert_array_equal(r, e)


@gpu
@testing.numpy_cuarray_array_equal()
def test_linspace_values_the_probe_found(xp):
    return xp.linspace(-2.3, 7.1, 9), xp.linspace(0, 2, 5), xp.linspace(-2.3, 7.1, 9, dtype=np.float32)


@gpu
@testing.numpy_cuarray_allclose(rtol=4e-16, atol=0)
def test_logspace_is_the_power_of_numpys_linspace(xp):
    # Its exponents are NumPy's to the last bit (above); CUDA's pow may round the power differently in the last
    # place (docs/numerical-differences.md).
    return xp.logspace(0, 2, 5), xp.logspace(-3.7, 4.1, 33)


# ---- full and full_like: fill values cast as NumPy's copyto casts them ----------------------------------------

FILL_CASES = [
    (np.nan, np.int64),
    (np.inf, np.int64),
    (-np.inf, np.int32),
    (np.nan, np.uint8),
    (-1.5, np.uint8),
    (-3.7, np.uint32),
    (1e10, np.int16),
    (1e20, np.uint64),
    (1j, np.float64),
    (1j, np.float16),
    (1.5 + 2j, np.int32),
    (complex(300, 0), np.uint8),
    ("5", np.int64),
    ("1.5", np.float32),
    (b"5", np.int8),
    (None, np.float64),
    (np.float64(np.nan), np.int64),
    (np.complex128(1j), np.float32),
    ([1.5, np.nan, -2.5], np.int64),
    ([300, -1, 2], np.uint8),
    ([[1j], [2]], np.float64),
    # The core's fast path:
    (7, np.int8),
    (2.5, np.int16),
    (np.float32(1.5), np.float64),
]


@gpu
@pytest.mark.parametrize("value, dtype", FILL_CASES, ids=repr)
def test_full_casts_the_fill_value_as_numpy(value, dtype):
    r, r_warned = _with_warnings(lambda: cp.full((2, 3), value, dtype=dtype))
    e, e_warned = _with_warnings(lambda: np.full((2, 3), value, dtype=dtype))
    assert_same(r, e)
    assert r_warned == e_warned


@gpu
@pytest.mark.parametrize("value, dtype", FILL_CASES, ids=repr)
@pytest.mark.parametrize("order", ["K", "F"])
def test_full_like_casts_the_fill_value_as_numpy(value, dtype, order):
    a = np.asfortranarray(np.zeros((2, 3), dtype))
    r, r_warned = _with_warnings(lambda: cp.full_like(cp.asarray(a), value, order=order))
    e, e_warned = _with_warnings(lambda: np.full_like(a, value, order=order))
    assert_same(r, e)
    assert r.flags.f_contiguous == e.flags.f_contiguous
    if not isinstance(value, list):  # a sequence is cast on the device, without NumPy's RuntimeWarnings
        assert r_warned == e_warned


@gpu
@pytest.mark.parametrize(
    "value, dtype",
    [
        (300, np.uint8),
        (-1, np.uint16),
        (2**64, np.int64),
        ("abc", np.int64),
        (None, np.int64),
        ([1, 2], np.int64),
    ],
    ids=repr,
)
def test_full_and_full_like_raise_as_numpy(value, dtype):
    # Python ints out of range stay NumPy's OverflowError; what copyto cannot convert raises as copyto does.
    e = _raised(lambda: np.full(3, value, dtype=dtype))
    assert _raised(lambda: cp.full(3, value, dtype=dtype))[0] is e[0]
    assert _raised(lambda: cp.full_like(cp.zeros(3, dtype), value))[0] is e[0]
    if not isinstance(value, list):  # a broadcast's message is the device copy's
        assert _raised(lambda: cp.full(3, value, dtype=dtype)) == e


@gpu
def test_full_with_a_device_fill_value_keeps_its_errors():
    with pytest.raises(ValueError):
        cp.full_like(cp.zeros(3), cp.zeros(2))
    with pytest.raises(ValueError):
        cp.full(3, cp.zeros(2))


# ---- order: 'K' and 'A' are refused for new arrays ------------------------------------------------------------

NEW_ARRAYS = {
    "empty": lambda xp, order: xp.empty((2, 3), order=order),
    "zeros": lambda xp, order: xp.zeros((2, 3), order=order),
    "ones": lambda xp, order: xp.ones((2, 3), np.int8, order=order),
    "full": lambda xp, order: xp.full((2, 3), 7, order=order),
    "full_bad_value": lambda xp, order: xp.full((2, 3), np.nan, int, order=order),
    "eye": lambda xp, order: xp.eye(3, 2, order=order),
}


@pytest.mark.parametrize("order", ["K", "A", "k", "a"])
@pytest.mark.parametrize("fn", list(NEW_ARRAYS), ids=str)
def test_new_arrays_refuse_orders_k_and_a(fn, order):
    _same_error(lambda xp: NEW_ARRAYS[fn](xp, order))


@pytest.mark.parametrize(
    "f",
    [
        lambda xp: xp.zeros(2.5, order="K"),  # the shape is read first
        lambda xp: xp.empty(2, "not a type", order="A"),  # then the dtype
        lambda xp: xp.zeros(-1, order="K"),  # then the order, before the sizes are checked
        lambda xp: xp.eye(-1, order="A"),
        lambda xp: xp.full(2.5, 1, order="K"),
        lambda xp: xp.zeros(2, order="X"),
    ],
)
def test_order_is_read_after_shape_and_dtype(f):
    _same_error(f)


@gpu
@pytest.mark.parametrize("order", ["K", "A"])
@testing.numpy_cuarray_array_equal(strides_check=True)
def test_like_functions_take_orders_k_and_a(xp, order):
    a = xp.asarray(np.asfortranarray(np.arange(6.0).reshape(2, 3)))
    assert xp.empty_like(a, order=order).flags.f_contiguous
    return (
        xp.zeros_like(a, order=order),
        xp.ones_like(a, order=order),
        xp.full_like(a, 2, order=order),
        xp.identity(3, np.int8),
    )


# ---- linspace's axis with scalar bounds ----------------------------------------------------------------------


@pytest.mark.parametrize("axis", [1, -2, 5, 1.5, (0, 1)], ids=repr)
def test_linspace_scalar_bounds_check_the_axis(axis):
    _same_error(lambda xp: xp.linspace(0, 1, 5, axis=axis))
    _same_error(lambda xp: xp.linspace(0, 1 + 1j, 5, axis=axis, retstep=True))


@gpu
@pytest.mark.parametrize("axis", [-1, (0,), np.int64(0)], ids=repr)
@testing.numpy_cuarray_array_equal()
def test_linspace_scalar_bounds_axes_in_range(xp, axis):
    return xp.linspace(0, 1, 5, axis=axis), xp.linspace(0, 1j, 4, axis=axis)


# ---- arange's arguments -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "f",
    [
        lambda xp: xp.arange(),
        lambda xp: xp.arange(start=2),
        lambda xp: xp.arange(step=2),
        lambda xp: xp.arange(dtype=float),
        lambda xp: xp.arange(5, start=1),
        lambda xp: xp.arange(None),
        lambda xp: xp.arange(stop=None),
        lambda xp: xp.arange(start=None, stop=5),
        lambda xp: xp.arange(0, 5, 1, float, 3),
        lambda xp: xp.arange(0, 1 + 1j, 0.5, dtype=float),
        lambda xp: xp.arange(1j, 3, 1, dtype=float),
        lambda xp: xp.arange(0, 2, 1j, dtype=np.float32),
        lambda xp: xp.arange(0j, 2, 1, dtype=int),
        lambda xp: xp.arange(0, 2, 0.5 + 0j, dtype=np.int8),
    ],
)
def test_arange_argument_errors(f):
    _same_error(f)


@gpu
@testing.numpy_cuarray_array_equal()
def test_arange_by_keyword(xp):
    return (
        xp.arange(stop=5),
        xp.arange(stop=7, step=2),
        xp.arange(start=1, stop=7, step=2, dtype=float),
        xp.arange(2, stop=5),
        xp.arange(7, step=2),
        xp.arange(0, 5, 1, np.float32),
        xp.arange(3, None, 1),
        xp.arange(0, None),
        xp.arange(0, 1 + 1j, 0.5),  # a complex type: the shorter of the two lengths
        xp.arange(0, 1 + 1j, 0.5, dtype=complex),
    )


# ---- the kernels round every product, whatever the compiler's contraction ---------------------------------------


def _range_kernels():
    names = [t.name for t in ALL_DTYPES]
    sources = [
        _core.jit.sources.arange(t, w) for t in names if not t.startswith("complex") for w in (False, True)
    ]
    return sources + [_core.jit.sources.linspace(t, w) for t in names for w in (False, True)]


def test_range_kernels_compile_alike_with_and_without_contraction():
    # A product that fed an add would be fused with contraction on, and compile differently.
    kernels = {name: src for src, name in _range_kernels()}
    program = "\n".join(kernels.values())
    headers = _core.jit.headers()
    on = text_sections(_core.jit.compile(program, "contraction_on", [], 90, headers))
    off = text_sections(_core.jit.compile(program, "contraction_off", ["-fmad=false"], 90, headers))
    assert set(on) == set(kernels)
    assert not sorted(k for k in kernels if on[k] != off[k])
